"""五对 (five pairs): a toy ruleset that lives outside the library, proving a ruleset plugs in
with its own folder and one registration (``tests/test_plugin_ruleset.py``).

Changsha's 108 tiles; the dealer starts with 14. A seat wins (HU) when its 14 tiles hold at
least five pairs (a four of a kind is two), on its own draw (each other seat pays 1) or on
another seat's discard (the discarder pays 3; the first claimant after the discarder wins). An
empty wall draws the hand. No melds, no dice.
"""

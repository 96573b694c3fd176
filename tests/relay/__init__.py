"""接力对子 (pairs relay): a second toy ruleset that lives outside the library and has every shape
the generic layers must carry for Sichuan 血战到底 (``tests/test_relay_ruleset.py``), none of them
a real game's rule:

- a blind opening of all four seats with several picks each: every seat picks two tiles, one at
  a time (each pick masked by the ones before, kinds in non-decreasing order), without seeing the
  others' picks; then each passes its two to the next seat;
- a winner leaves while the others play on (a seat holding ``pairs_to_win`` pairs among its 14
  tiles wins: on its own draw each other seat still in play pays 1; on a discard the discarder
  pays 2 to each winner, and every seat that claims HU on that discard wins);
- the hand ends when one seat is left in play or the wall is empty;
- ``refund`` (default on): when the hand ends, each winner refunds 1 to every seat still in play,
  so a seat that has left is paid or pays after it left; with ``refund`` off a winner's account
  closes with its win (``seats_settled``).

Changsha's 108 tiles; the dealer starts with 14; no melds, no dice.
"""

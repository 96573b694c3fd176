#!/usr/bin/env python3
"""A bot for the cnmahjong bot protocol (``cnmahjong.agents.bot``), in plain Python with the
standard library only: nothing here imports cnmahjong, so the same few lines work in any language
that reads and writes JSON lines.

    python -m cnmahjong.training.arena --policies "bot:python3 examples/bots/simple_bot.py" greedy greedy greedy

It plays: a win (HU) or an opening-hand declaration whenever one is legal; otherwise, when it
must discard, the tile of its hand with the fewest neighbours (the same tile, the next and the
one after in its suit; between equals, the kind discarded most often at that hand so far);
otherwise PASS when it may (it claims nothing); otherwise the first legal action.

It keeps state per hand, as real bots do: it asks for the events (``"events": true``) and counts
the discards of each hand it sits at (the act message's ``hand``), forgetting the oldest hands
beyond ``HANDS_KEPT``.
"""

import json
import sys

NAME = "simple_bot"
HANDS_KEPT = 256
"""Hands whose discards the bot remembers (the arena plays many at once; old ones are over)."""


def keep_score(hand, kind, kinds):
    """How much tile ``kind`` works with the rest of ``hand`` (per-kind counts): copies of it, then
    tiles one and two ranks away in the same suit (kinds 0-26 are three suits of 9; 27+ honours)."""
    score = 4 * (hand[kind] - 1)
    if kind < 27:
        for step, weight in ((1, 2), (2, 1)):
            for other in (kind - step, kind + step):
                if 0 <= other < min(kinds, 27) and other // 9 == kind // 9:
                    score += weight * hand[other]
    return score


def choose(message, tiles, discarded=None):
    """The action id to answer one act message (``tiles``: the hello's tile names; ``discarded``:
    per tile kind, how often it was discarded at this hand so far)."""
    discarded = discarded or [0] * len(tiles)
    moves = {message["legal_names"][i]: action for i, action in enumerate(message["legal"])}  # name -> id
    for name, action in moves.items():
        if name == "HU" or name.startswith("DECLARE"):
            return action
    discards = {name.split()[1]: action for name, action in moves.items() if name.startswith("DISCARD ")}
    if discards:
        hand = message["obs"]["HAND"]
        options = [tiles.index(tile) for tile in discards]
        worst = min(options, key=lambda kind: (keep_score(hand, kind, len(tiles)), -discarded[kind], -kind))
        return discards[tiles[worst]]
    if "PASS" in moves:
        return moves["PASS"]
    return message["legal"][0]


def remember(hands, message, kinds):
    """The discard counts of the message's hand, updated with its new events."""
    key = (message["hand"], message["seat"])
    counts = hands.pop(key, None) or [0] * kinds
    for event in message.get("events", []):
        if event["type"] == "discard":
            counts[event["tile"]] += 1
    hands[key] = counts  # the most recent last: the oldest is forgotten first
    if len(hands) > HANDS_KEPT:
        del hands[next(iter(hands))]
    return counts


def main():
    tiles = []
    hands = {}  # (hand, seat) -> discards per kind
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            tiles = message["tiles"]
            reply = {"type": "ready", "name": NAME, "view": "fields", "events": True}
        elif message["type"] == "act":
            reply = {"id": message["id"], "action": choose(message, tiles, remember(hands, message, len(tiles)))}
        else:  # a message of a later protocol version: not ours to answer
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

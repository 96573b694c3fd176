"""Test bot (``tests/test_bot.py``): asks for the ``planes`` view and answers
``legal[nonzero % len(legal)]``, ``nonzero`` the count of non-zero numbers in the planes, so the
test can tell it saw the very planes it was sent."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        shape = message["shape"]
        print(json.dumps({"type": "ready", "name": "planes", "view": "planes"}), flush=True)
        continue
    planes = message["obs"]
    assert [len(planes), len(planes[0])] == shape
    nonzero = sum(1 for row in planes for x in row if x)
    legal = message["legal"]
    print(json.dumps({"id": message["id"], "action": legal[nonzero % len(legal)]}), flush=True)

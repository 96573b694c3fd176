"""Test bot (``tests/test_bot.py``): answers the first legal action for N - 1 decisions
(argument 1, default 3), then exits on decision N without answering."""

import json
import sys

after = int(sys.argv[1]) if len(sys.argv) > 1 else 3
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "crash"}), flush=True)
        continue
    decisions += 1
    if decisions >= after:
        sys.exit(3)
    print(json.dumps({"id": message["id"], "action": message["legal"][0]}), flush=True)

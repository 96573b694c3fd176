"""Test bot (``tests/test_bot.py``): answers the first legal action, then from its decision N on
(argument 1, default 3) stops answering and sleeps for ever, as a hung bot does."""

import json
import sys
import time

after = int(sys.argv[1]) if len(sys.argv) > 1 else 3
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "hang"}), flush=True)
        continue
    decisions += 1
    if decisions >= after:
        while True:
            time.sleep(60)
    print(json.dumps({"id": message["id"], "action": message["legal"][0]}), flush=True)

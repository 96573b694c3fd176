"""Test bot (``tests/test_bot.py``): answers the first legal action for N - 1 decisions (argument
2, default 3), then on decision N fails as argument 1 says: ``hang`` stops answering and sleeps
for ever (a hung bot), ``crash`` exits without answering (a dead one)."""

import json
import sys
import time

mode = sys.argv[1]
after = int(sys.argv[2]) if len(sys.argv) > 2 else 3
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": mode}), flush=True)
        continue
    decisions += 1
    if decisions >= after:
        if mode == "crash":
            sys.exit(3)
        while True:
            time.sleep(60)
    print(json.dumps({"id": message["id"], "action": message["legal"][0]}), flush=True)

"""Test bot (``tests/test_bot.py``) answering each decision as argument 1 says:

- ``illegal``: an action id that is not legal now (the first one after the legal ones' gaps);
- ``garbage``: a line that is not JSON;
- ``late``: first an answer to the previous decision (an illegal action), then the right one;
- ``bare``: the first legal action as a bare integer line;
- ``badhello``: answers the hello wrongly (and never plays);
- ``name JSON``: gives the name argument 2 holds (a JSON value), then plays the first legal action.
"""

import json
import sys

mode = sys.argv[1]
num_actions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        num_actions = message["num_actions"]
        name = json.loads(sys.argv[2]) if mode == "name" else mode
        print(json.dumps({"type": "ready", "name": name} if mode != "badhello" else {"type": "hi"}), flush=True)
        continue
    legal = message["legal"]
    if mode == "illegal":
        reply = {"id": message["id"], "action": next(a for a in range(num_actions) if a not in legal)}
    elif mode == "garbage":
        reply = "this is not JSON {"
    elif mode == "late":
        print(json.dumps({"id": message["id"] - 1, "action": -5}), flush=True)
        reply = {"id": message["id"], "action": legal[0]}
    elif mode == "name":
        reply = {"id": message["id"], "action": legal[0]}
    else:
        reply = legal[0]
    print(reply if isinstance(reply, str) else json.dumps(reply), flush=True)

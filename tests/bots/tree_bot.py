"""Test bot (``tests/test_bot.py``) for process trees, fault accounting and bots that keep state.
Argument 1 is the mode, argument 2 a marker the test finds this bot's processes by (``/proc``),
argument 3 (some modes) a number or a log file:

- ``play``: answers the first legal action; exits at end of input.
- ``sleep``: a helper that sleeps for ever (started beside a bot: ``sh -c 'helper & exec bot'``).
- ``forkdie N``: forks a child that sleeps for ever (holding the output open), answers N - 1
  decisions, then exits without answering decision N (the child lives on).
- ``stubborn``: plays, but ignores SIGTERM and the end of its input (sleeps for ever then).
- ``noready``: never answers the hello.
- ``twice``: answers each decision twice, bare integers: the first legal action, then the last.
- ``log FILE``: asks for the events, gives the name ``logger``, answers the first legal action
  and appends every message it reads to FILE, one JSON line each.
"""

import json
import os
import signal
import sys
import time

mode = sys.argv[1]
arg = sys.argv[3] if len(sys.argv) > 3 else None


def forever():
    while True:
        time.sleep(60)


def say(reply):
    sys.stdout.write((reply if isinstance(reply, str) else json.dumps(reply)) + "\n")
    sys.stdout.flush()


if mode == "sleep":
    forever()
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if mode == "forkdie" and os.fork() == 0:
    forever()
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if arg and mode == "log":
        with open(arg, "a", encoding="utf-8") as log:
            log.write(line)
    if message["type"] == "hello":
        if mode == "noready":
            forever()
        say({"type": "ready", "name": "logger", "events": True} if mode == "log" else {"type": "ready"})
        continue
    decisions += 1
    legal = message["legal"]
    if mode == "forkdie" and decisions >= int(arg):
        os._exit(3)
    if mode == "twice":
        say(f"{legal[0]}\n{legal[-1]}")  # both lines at once: the second is waiting at the next act
        continue
    say({"id": message["id"], "action": legal[0]})
if mode == "stubborn":
    forever()

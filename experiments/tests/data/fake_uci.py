#!/usr/bin/env python3
"""A fake UCI engine for chesslab's tests (no dependencies): it misbehaves on purpose.

Usage: fake_uci.py MODE [COUNTER_FILE]
  crash    exits when asked to move
  hang     never answers 'go'
  illegal  answers 'bestmove e2e5' (never legal)
  slow     sleeps 2 seconds, then answers a move that may be legal (a time loss first)
  nouciok  never sends 'uciok'
Every start appends one line to COUNTER_FILE when given, so a test can count restarts.
"""
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "crash"
if len(sys.argv) > 2:
    with open(sys.argv[2], "a") as f:
        f.write("start\n")


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    cmd = raw.strip()
    if cmd == "uci":
        say("id name fake-" + mode)
        say("option name Hash type spin default 16 min 1 max 1024")
        say("option name UCI_Chess960 type check default false")
        if mode != "nouciok":
            say("uciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd.startswith("go"):
        if mode == "crash":
            sys.exit(3)
        elif mode == "hang":
            continue
        elif mode == "illegal":
            say("info depth 1 score cp 10")
            say("bestmove e2e5")
        elif mode == "slow":
            time.sleep(2)
            say("bestmove e7e5")
    elif cmd == "quit":
        break

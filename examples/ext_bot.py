#!/usr/bin/env python3
"""An example bot for chesslab's ext protocol (docs/ext-protocol.md); no dependencies.

Play it:  chesslab tournament --variant masquerade --agents "ext:cmd=python3 examples/ext_bot.py,random" --games 10

It answers every `act` with one of the legal actions: a capture-looking action ('x' in the
notation) when there is one, else a random one (a fixed seed, so a run is repeatable).
Replace `choose` with your own strategy; everything else is the protocol.
"""
import json
import random
import sys

rng = random.Random(2026)


def choose(message):
    """Picks one of message["legal"] (notation strings)."""
    legal = message["legal"]
    captures = [a for a in legal if "x" in a]
    return rng.choice(captures or legal)


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "ready", "name": "example-bot"})
    elif kind == "new_game":
        pass  # nothing to set up; a bot could reset its memory here
    elif kind == "act":
        send({"action": choose(message)})
    elif kind == "quit":
        break

#!/usr/bin/env python3
"""summary.csv: how Expedition games end, per kept run of the expectimax panel and the
strongest member (with their orthodox twins), counting each distinct game once (the panel's
players are deterministic, so the two games of a pair from the same opening and dice are often
the same game): the share ending in checkmate and in a king's capture, with 95% intervals
over distinct games (normal approximation)."""
import csv, math, os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
RUNS = [
    ("panel/em-d2", "expedition"),
    ("panel/em-d3", "expedition"),
    ("panel/em-d3-oq", "expedition"),
    ("strongest/expedition", "expedition"),
    ("member-panel/member", "expedition"),
    ("panel/chess/em-d3-oq", "orthodox"),
    ("strongest/chess", "orthodox"),
    ("../chess/member-panel/member", "orthodox"),
]

out = [["run", "game", "player", "games", "distinct", "checkmate", "checkmate_hw", "king_captured", "king_captured_hw"]]
for run, game in RUNS:
    rows = list(csv.DictReader(open(os.path.join(ROOT, run, "games.csv"))))
    seen, distinct = set(), []
    for r in rows:
        key = (r["opening"], r["actions"])
        if key not in seen:
            seen.add(key)
            distinct.append(r)
    n = len(distinct)
    share = lambda reason: sum(r["reason"] == reason for r in distinct) / n
    hw = lambda p: 1.96 * math.sqrt(p * (1 - p) / n)
    m, k = share("checkmate"), share("king-captured")
    player = rows[0]["agents"].split(";")[0]
    out.append([run, game, f"`{player}`", len(rows), n, f"{m:.3f}", f"{hw(m):.3f}", f"{k:.3f}", f"{hw(k):.3f}"])
with open(os.path.join(HERE, "summary.csv"), "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(out)

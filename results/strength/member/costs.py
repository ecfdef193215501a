#!/usr/bin/env python3
"""The strong member's cost per game in each verdict run it played (issue 67): seconds and
plies a game from each results/<variant>/member-panel/member/timings.csv (and the orthodox
baseline's), and what 1000 games take on two cores. Writes costs.csv beside this script.

python3 results/strength/member/costs.py
"""
import csv
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.dirname(os.path.dirname(HERE))

rows = []
for path in sorted(glob.glob(os.path.join(RESULTS, "*", "member-panel", "member", "timings.csv"))):
    game = path.split(os.sep)[-4]
    with open(path) as f:
        t = list(csv.DictReader(f))
    if not t:
        continue
    secs = sum(float(r["seconds"]) for r in t) / len(t)
    plies = sum(int(r["plies"]) for r in t) / len(t)
    rows.append({
        "game": game,
        "games": len(t),
        "seconds_a_game": f"{secs:.2f}",
        "plies_a_game": f"{plies:.1f}",
        "minutes_for_1000_on_two_cores": f"{secs * 1000 / 2 / 60:.0f}",
    })
with open(os.path.join(HERE, "costs.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)

#!/usr/bin/env python3
"""White's score of the depth-3 member (alphabeta:depth=3,noise=10, generation 3) pooled
over every run of it from level suites, and each game's difference from orthodox chess.

Reads only the games.csv files named below (paths from the repository root); writes
nothing but standard output (kept as pool.md here). A unit is a colour-swapped pair:
its White score is the mean of White's results in its two games; the interval is
1.96 standard errors over pairs, as the reports' "over colour-swapped pairs" (a report
also counts a pair whose two games are the same game once; with noise=10 this almost
never happens, and the per-run rows below match the reports to the third decimal).

    python3 results/chess/depths/pool.py > results/chess/depths/pool.md
"""
import csv
import math
from collections import defaultdict

RUNS = {
    "orthodox chess": ["results/two-move/panel/chess/ab-d3", "results/chess/depths/ab-d3"],
    "Two Move": ["results/two-move/panel/ab-d3", "results/two-move/d3-2000"],
    "Synchronous": ["results/synchronous/panel/ab-d3", "results/synchronous/d3-2000"],
    "Half Alice": ["results/half-alice/panel-gen3/ab-d3"],
    "Adrenaline": ["results/adrenaline/panel-gen3/ab-d3"],
    "open Cassandra": ["results/cassandra/panel/ab-d3"],
}
SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def pairs(folder):
    by_pair = defaultdict(list)
    with open(f"{folder}/games.csv", newline="") as f:
        for row in csv.DictReader(f):
            by_pair[row["pair"]].append(SCORE[row["result"]])
    return [sum(v) / len(v) for v in by_pair.values()]


def summary(xs):
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n), n


print("| game | runs | pairs | White's score (95%) |")
print("|---|---|---:|---|")
pooled = {}
for game, folders in RUNS.items():
    for folder in folders:
        m, ci, n = summary(pairs(folder))
        print(f"| {game} | `{folder}` | {n} | {m:.3f} ± {ci:.3f} |")
    allp = [x for folder in folders for x in pairs(folder)]
    pooled[game] = summary(allp)
    if len(folders) > 1:
        m, ci, n = pooled[game]
        print(f"| {game} | all of the above | {n} | **{m:.3f} ± {ci:.3f}** |")
print()
print("| game | White here − orthodox chess (pooled, 95%) |")
print("|---|---|")
om, oci, _ = pooled["orthodox chess"]
for game, (m, ci, _) in pooled.items():
    if game != "orthodox chess":
        print(f"| {game} | {m - om:+.3f} ± {math.hypot(ci, oci):.3f} |")

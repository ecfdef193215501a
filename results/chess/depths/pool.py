#!/usr/bin/env python3
"""White's score of a panel's strongest member pooled over every run of it, and each
game's difference from the same player's orthodox chess: the rated panel's depth-3
member (alphabeta:depth=3,noise=10, generation 3, level suites) and the hidden-game
panel's sampled-world alphabeta (pimc:search=alphabeta,worlds=10,time_ms=25, 8 random
opening plies; in Masquerade "White" is the first seat).

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

PLAYERS = {
    "alphabeta:depth=3,noise=10": {
        "orthodox chess": ["results/two-move/panel/chess/ab-d3", "results/chess/depths/ab-d3"],
        "Two Move": ["results/two-move/panel/ab-d3", "results/two-move/d3-2000"],
        "Synchronous": ["results/synchronous/panel/ab-d3", "results/synchronous/d3-2000"],
        "Half Alice": ["results/half-alice/panel-gen3/ab-d3"],
        "Adrenaline": ["results/adrenaline/panel-gen3/ab-d3"],
        "open Cassandra": ["results/cassandra/panel/ab-d3"],
    },
    "pimc:search=alphabeta,worlds=10,time_ms=25": {
        "orthodox chess": [
            "results/time/panel/chess/pimc-ab-25ms",
            "results/chess/pimc-edge/games",
        ],
        "Time": ["results/time/panel/pimc-ab-25ms"],
        "Zombie": ["results/zombie/panel/pimc-ab-25ms"],
        "secret Cassandra": ["results/cassandra/secret-panel/pimc-ab-25ms"],
        "Tar Pit": ["results/tar-pit/panel/pimc-ab-25ms"],
        "Masquerade": ["results/masquerade/panel/pimc-ab-25ms"],
    },
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


for player, runs in PLAYERS.items():
    print(f"## `{player}`")
    print()
    print("| game | runs | pairs | White's score (95%) |")
    print("|---|---|---:|---|")
    pooled = {}
    for game, folders in runs.items():
        for folder in folders:
            m, ci, n = summary(pairs(folder))
            print(f"| {game} | `{folder}` | {n} | {m:.3f} ± {ci:.3f} |")
        pooled[game] = summary([x for folder in folders for x in pairs(folder)])
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
    print()

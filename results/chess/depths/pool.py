#!/usr/bin/env python3
"""White's score of a panel's strongest member pooled over every run of it, and each
game's difference from the same player's orthodox chess: the rated panel's depth-3
member (alphabeta:depth=3,noise=10, generation 3, level suites), the hidden-game panel's
sampled-world alphabeta (pimc:search=alphabeta,worlds=10,time_ms=25, 8 random opening
plies; in Masquerade "White" is the first seat) and the expectimax panel's ordered
depth-3 player with quiescence (level suites).

Reads only the games.csv files named below (paths from the repository root); writes
nothing but standard output (kept as pool.md here). A unit is a colour-swapped pair:
its White score is the mean of White's results in its two games. Two intervals (95%):

- over pairs: 1.96 standard errors with every pair independent, as the reports' "over
  colour-swapped pairs" (the per-run figures match the reports to the third decimal);
- over openings: the cluster-robust interval with the pairs of one book opening as one
  cluster (G/(G-1) * sum over openings of (sum of the pair residuals)^2 / n^2). A run
  of 1000 pairs from a 200-opening book plays each opening five times, and pairs from
  one opening share its bias, so they are not independent: for a verdict about the
  game rather than about these 200 openings, this is the interval to read. A run from
  random opening plies (no book; RANDOM_PLIES below) has one pair per opening, but two
  runs with one seed share their openings (the seed-37 rerun of the PIMC games): there
  the opening is the pair's first plies.

For a deterministic player (DETERMINISTIC below) pairs whose games are the same games
(same openings and moves) count once, within a run and across the runs pooled: both
games of an orthodox pair are then one game, and an opening played again gives that game
again (the expectimax panel run played 200 openings 2.5 times; its larger run starts
with the same 200). For a noisy player the same game twice is two draws of chance (short
forced lines repeat), so nothing is removed.

    python3 results/chess/depths/pool.py > results/chess/depths/pool.md
"""
import csv
import math
from collections import defaultdict

PLAYERS = {
    "alphabeta:depth=3,noise=10": {
        "orthodox chess": [
            "results/two-move/panel/chess/ab-d3",
            "results/chess/depths/ab-d3",
            "results/chess/depths/ab-d3-book",
        ],
        "Two Move": [
            "results/two-move/panel/ab-d3",
            "results/two-move/d3-2000",
            "results/two-move/d3-book",
        ],
        "Synchronous": [
            "results/synchronous/panel/ab-d3",
            "results/synchronous/d3-2000",
            "results/synchronous/d3-book",
        ],
        "Half Alice": ["results/half-alice/panel-gen3/ab-d3", "results/half-alice/d3-2000"],
        "Adrenaline": [
            "results/adrenaline/panel-gen3/ab-d3",
            "results/adrenaline/d3-2000",
            "results/adrenaline/d3-book",
        ],
        "open Cassandra": ["results/cassandra/panel/ab-d3"],
    },
    "pimc:search=alphabeta,worlds=10,time_ms=25": {
        "orthodox chess": [
            "results/time/panel/chess/pimc-ab-25ms",
            "results/chess/pimc-edge/games",
            "results/chess/pimc-edge/seed-37",
        ],
        "Time": ["results/time/panel/pimc-ab-25ms"],
        "Zombie": ["results/zombie/panel/pimc-ab-25ms"],
        "secret Cassandra": ["results/cassandra/secret-panel/pimc-ab-25ms"],
        "Tar Pit": ["results/tar-pit/panel/pimc-ab-25ms"],
        "Masquerade": ["results/masquerade/panel/pimc-ab-25ms"],
    },
    "expectimax:depth=3,order=true,quiescence=true": {
        "orthodox chess": [
            "results/expedition/panel/chess/em-d3-oq",
            "results/expedition/strongest/chess",
        ],
        "Expedition": [
            "results/expedition/panel/em-d3-oq",
            "results/expedition/strongest/expedition",
        ],
    },
}
DETERMINISTIC = {"expectimax:depth=3,order=true,quiescence=true"}
RANDOM_PLIES = {"pimc:search=alphabeta,worlds=10,time_ms=25": 8}
SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
csv.field_size_limit(1 << 30)


def pair_units(folder, plies):
    """Each pair of a run as (games, opening, White's mean score): `games` names the
    pair's distinct games, so that repeated games can be counted once; `opening` is the
    book line, else the first `plies` actions (random opening plies), else the pair."""
    by_pair = defaultdict(list)
    with open(f"{folder}/games.csv", newline="") as f:
        for row in csv.DictReader(f):
            by_pair[row["pair"]].append(row)
    out = []
    for pair, rows in by_pair.items():
        games = tuple(sorted({(r["opening"], r["actions"], r["result"]) for r in rows}))
        first = " ".join(rows[0]["actions"].split()[:plies]) if plies else ""
        opening = rows[0]["opening"] or first or f"{folder}#{pair}"
        score = sum(SCORE[r["result"]] for r in rows) / len(rows)
        out.append((games, opening, score))
    return out


def units(player, *folders):
    """(opening, score) of each pair over the folders (each distinct pair once for a
    deterministic player)."""
    plies = RANDOM_PLIES.get(player, 0)
    all_units = [u for folder in folders for u in pair_units(folder, plies)]
    if player not in DETERMINISTIC:
        return [(o, x) for _, o, x in all_units]
    seen = {}
    for games, o, x in all_units:
        seen.setdefault(games, (o, x))
    return list(seen.values())


def summary(us):
    """Mean, half-width over pairs, half-width over openings, pairs, openings."""
    n = len(us)
    m = sum(x for _, x in us) / n
    var = sum((x - m) ** 2 for _, x in us) / (n - 1)
    sums = defaultdict(float)
    for o, x in us:
        sums[o] += x - m
    g = len(sums)
    cvar = g / (g - 1) * sum(s * s for s in sums.values()) / (n * n)
    return m, 1.96 * math.sqrt(var / n), 1.96 * math.sqrt(cvar), n, g


def difference(a, b):
    """a − b with both half-widths (the runs of two games share no opening)."""
    return a[0] - b[0], math.hypot(a[1], b[1]), math.hypot(a[2], b[2])


def clear(d, half):
    return "clear" if abs(d) > half else "covers 0"


for player, runs in PLAYERS.items():
    print(f"## `{player}`")
    print()
    print("| game | runs | pairs | openings | White's score | 95% over pairs | 95% over openings |")
    print("|---|---|---:|---:|---:|---:|---:|")
    pooled = {}
    for game, folders in runs.items():
        rows = [(f"`{folder}`", summary(units(player, folder))) for folder in folders]
        pooled[game] = summary(units(player, *folders))
        if len(folders) > 1:
            rows.append(("all of the above", pooled[game]))
        for name, (m, h, c, n, g) in rows:
            bold = "**" if name == "all of the above" else ""
            print(f"| {game} | {name} | {n} | {g} | {bold}{m:.3f}{bold} | ± {h:.3f} | ± {c:.3f} |")
    print()
    print("| game | White here − orthodox chess (pooled) | 95% over pairs | 95% over openings |")
    print("|---|---:|---|---|")
    base = pooled["orthodox chess"]
    for game, est in pooled.items():
        if game != "orthodox chess":
            d, h, c = difference(est, base)
            print(f"| {game} | {d:+.3f} | ± {h:.3f} ({clear(d, h)}) | ± {c:.3f} ({clear(d, c)}) |")
    print()

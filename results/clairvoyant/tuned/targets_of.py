#!/usr/bin/env python3
"""The tuning targets of a Clairvoyant run from `chesslab report`'s tallies.csv.

Per game, as `chesslab tune` measures them: the purchase share
(white_purchases + black_purchases) / (white_moves + black_moves), and the first
seat's score (1 win, 1/2 draw, 0 loss). Prints each mean with its 95% interval
(1.96 standard errors over colour-swapped pairs, the pair being read from games.csv
beside tallies.csv: a pair shares its random opening, so a deterministic agent in
self-play plays the same game twice) and 1/share (moves per purchase).
Usage: targets_of.py path/to/tallies.csv ...
"""
import csv
import math
import sys


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(v / n)


for path in sys.argv[1:]:
    games_csv = path.rsplit("/", 1)[0] + "/games.csv" if "/" in path else "games.csv"
    with open(games_csv, newline="") as f:
        pair_of = {row["index"]: row["pair"] for row in csv.DictReader(f)}
    pairs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            moves = float(row["white_moves"]) + float(row["black_moves"])
            bought = float(row["white_purchases"]) + float(row["black_purchases"])
            r0 = float(row["returns"].split()[0])
            pairs.setdefault(pair_of[row["index"]], []).append(
                (bought / moves if moves else 0.0, (max(-1.0, min(1.0, r0)) + 1.0) / 2.0))
    share = [sum(g[0] for g in p) / len(p) for p in pairs.values()]
    first = [sum(g[1] for g in p) / len(p) for p in pairs.values()]
    games = sum(len(p) for p in pairs.values())
    s, sc = mean_ci(share)
    w, wc = mean_ci(first)
    print(f"{path}: {games} games ({len(share)} pairs), purchase share {s:.3f} ± {sc:.3f} "
          f"(1/share {1 / s:.2f} moves per purchase), first-seat score {w:.3f} ± {wc:.3f}")

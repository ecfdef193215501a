#!/usr/bin/env python3
"""Issue 67: the Two Move and Synchronous verdicts of results/chess/depths/pool.md
(`alphabeta:depth=3,noise=10`, White's score pooled over its runs, each game's rules
against orthodox chess) computed again without the games whose opening the lab's screen
flagged (results/openings/screen/<book>.lab.flagged.txt), and, for orthodox chess, without
those Stockfish flagged (<book>.flagged.txt) as a cross-check.

The method is pool.py's: a unit is a colour-swapped pair (White's mean score over its two
games); the interval over pairs treats every pair as independent, the one over openings
is cluster-robust with the pairs of one book opening as one cluster. A pair is left out
when its opening's text is a line of the run's flagged list (the same match as `chesslab
report --exclude-openings`). Reads the games.csv files and flagged lists named below;
writes standard output only (kept as rows.md here).

    python3 results/openings/screen/rows.py > results/openings/screen/rows.md
"""
import csv
import math
from collections import defaultdict

S = "results/openings/screen"
# Each run with the book its openings came from.
RUNS = {
    "orthodox chess": [
        ("results/two-move/panel/chess/ab-d3", "chess"),
        ("results/chess/depths/ab-d3", "chess"),
        ("results/chess/depths/ab-d3-book", "chess-2000"),
    ],
    "Two Move": [
        ("results/two-move/panel/ab-d3", "two-move"),
        ("results/two-move/d3-2000", "two-move"),
        ("results/two-move/d3-book", "two-move-1000"),
    ],
    "Synchronous": [
        ("results/synchronous/panel/ab-d3", "synchronous"),
        ("results/synchronous/d3-2000", "synchronous"),
        ("results/synchronous/d3-book", "synchronous-1000"),
    ],
}
SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
csv.field_size_limit(1 << 30)


def key(text):
    return " ".join(text.split())


def flagged(path):
    out = set()
    with open(path) as f:
        for line in f:
            t = line.strip()
            if not t or t.startswith("#") or t.startswith("flagged "):
                continue
            w = t.split()
            out.add(" ".join(w[1:-1]))
    return out


def pairs(folder, skip):
    by_pair = defaultdict(list)
    with open(f"{folder}/games.csv", newline="") as f:
        for row in csv.DictReader(f):
            by_pair[row["pair"]].append(row)
    out, dropped = [], 0
    for pair, rows in by_pair.items():
        opening = key(rows[0]["opening"])
        if opening in skip:
            dropped += len(rows)
            continue
        out.append((opening or f"{folder}#{pair}", sum(SCORE[r["result"]] for r in rows) / len(rows)))
    return out, dropped


def summary(us):
    n = len(us)
    m = sum(x for _, x in us) / n
    var = sum((x - m) ** 2 for _, x in us) / (n - 1)
    sums = defaultdict(float)
    for o, x in us:
        sums[o] += x - m
    g = len(sums)
    cvar = g / (g - 1) * sum(s * s for s in sums.values()) / (n * n)
    return m, 1.96 * math.sqrt(var / n), 1.96 * math.sqrt(cvar), n, g


def clear(d, half):
    return "clear" if abs(d) > half else "covers 0"


def lists(kind, book):
    if kind == "none":
        return set()
    suffix = "lab.flagged.txt" if kind == "lab" else "flagged.txt"
    return flagged(f"{S}/{book}.{suffix}")


def pooled(game, kind):
    units, dropped, rows = [], 0, []
    for folder, book in RUNS[game]:
        us, d = pairs(folder, lists(kind, book))
        rows.append((folder, book, summary(us), d))
        units += us
        dropped += d
    return summary(units), dropped, rows


KINDS = [("none", "all games"), ("lab", "without the lab's flagged openings")]
print("| game | games kept | runs | left out (games) | pairs | openings | White's score | 95% over pairs | 95% over openings |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|")
results = {}
for game in RUNS:
    kinds = KINDS + ([("stockfish", "without Stockfish's flagged openings")] if game == "orthodox chess" else [])
    for kind, label in kinds:
        est, dropped, rows = pooled(game, kind)
        results[(game, kind)] = est
        for folder, book, (m, h, c, n, g), d in rows:
            print(f"| {game} | {label} | `{folder}` ({book}.txt) | {d} | {n} | {g} | {m:.3f} | ± {h:.3f} | ± {c:.3f} |")
        m, h, c, n, g = est
        print(f"| {game} | {label} | all of the above | {dropped} | {n} | {g} | **{m:.3f}** | ± {h:.3f} | ± {c:.3f} |")
print()
print("| game | games kept | White here − orthodox chess (pooled) | 95% over pairs | 95% over openings |")
print("|---|---|---:|---|---|")
for game in ("Two Move", "Synchronous"):
    for kind, label in KINDS:
        a, b = results[(game, kind)], results[("orthodox chess", kind)]
        d, h, c = a[0] - b[0], math.hypot(a[1], b[1]), math.hypot(a[2], b[2])
        print(f"| {game} | {label} | {d:+.3f} | ± {h:.3f} ({clear(d, h)}) | ± {c:.3f} ({clear(d, c)}) |")
    a, b = results[(game, "lab")], results[("orthodox chess", "stockfish")]
    d, h, c = a[0] - b[0], math.hypot(a[1], b[1]), math.hypot(a[2], b[2])
    print(f"| {game} | lab's flagged out here, Stockfish's out of orthodox chess | {d:+.3f} | ± {h:.3f} ({clear(d, h)}) | ± {c:.3f} ({clear(d, c)}) |")

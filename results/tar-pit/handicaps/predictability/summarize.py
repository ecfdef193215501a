#!/usr/bin/env python3
"""summary.csv from the cv.csv of each `chesslab values` folder here: per run, the
cross-validated log loss of the result given the material on the board (orthodox 1/3/3/5/9
values, the fit's scale and intercept learned on the other folds), position-weighted over
games with a 95% interval over games (the game is the unit: its positions share its
result), and the difference from the same player's seed setting with the interval of two
independent runs. Lower loss = the result is more predictable from the position; 0.693 is
a coin flip."""
import csv, math, os

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = [
    ("pimc-checkers-a", "pimc", "seed (six checkers, checker cards in the deck)"),
    ("pimc-no-checker-cards", "pimc", "no checker cards"),
    ("pimc-checkers-b", "pimc", "White four checkers"),
    ("pimc-white-2-checkers", "pimc", "White two checkers"),
    ("checkers-a", "ismcts", "seed (six checkers, checker cards in the deck)"),
    ("no-checker-cards", "ismcts", "no checker cards"),
    ("checkers-b", "ismcts", "White four checkers"),
    ("white-2-checkers", "ismcts", "White two checkers"),
    ("pimc-seed-budgeted", "pimc-today", "seed (six checkers, checker cards in the deck)"),
    ("pimc-both-4-checkers", "pimc-today", "four checkers each"),
]
PLAYER = {
    "pimc": "pimc:search=alphabeta,worlds=10,time_ms=25",
    "pimc-today": "pimc:search=alphabeta,worlds=10,time_ms=25 (budget kept)",
    "ismcts": "ismcts:iters=40,cutoff=8",
}


def loss(run):
    rows = [r for r in csv.DictReader(open(os.path.join(HERE, run, "cv.csv")))]
    w = [int(r["positions"]) for r in rows]
    x = [float(r["orthodox"]) for r in rows]
    n, k = sum(w), len(rows)
    mean = sum(a * b for a, b in zip(w, x)) / n
    ss = sum((a * (b - mean)) ** 2 for a, b in zip(w, x))
    return mean, 1.96 * math.sqrt(ss * k / (k - 1)) / n, k


out = [["run", "player", "setting", "games", "log_loss", "half_width", "vs_seed", "vs_seed_half_width"]]
seed = {}
for run, who, setting in RUNS:
    m, h, k = loss(run)
    if run in ("pimc-checkers-a", "checkers-a", "pimc-seed-budgeted"):
        seed[who] = (m, h)
        d = ["", ""]
    else:
        s = seed[who]
        d = [f"{m - s[0]:+.3f}", f"{math.hypot(h, s[1]):.3f}"]
    out.append([run, f"`{PLAYER[who]}`", setting, k, f"{m:.3f}", f"{h:.3f}"] + d)
with open(os.path.join(HERE, "summary.csv"), "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(out)

#!/usr/bin/env python3
"""One measure of purchase frequency for Clairvoyant Chess (issue 67, results/README.md
"Method", item 5): moves per purchase = the mover's turns divided by its turns with at
least one purchase, summed over the games of a run (a ratio of sums), for White, Black and
both, with a 95% interval over colour-swapped pairs (the delta method for a ratio: each
pair contributes its turns m and its purchase turns p; var(R) = var(m - R p) / (n p_mean^2)).
The tuner's 5.61 was this measure for both sides pooled; the panel's 4.8-9.2 was the mean
over games of each game's own ratio, which weighs short games like long ones and leaves
out games without a purchase. Reads each run's tallies.csv and games.csv (for the pairs),
writes purchases.csv beside this script.

python3 results/clairvoyant/purchases/purchases.py
"""
import csv
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# (label, run folder relative to results/clairvoyant)
RUNS = [
    ("seed tables, clairvoyant self-play", "balance"),
    ("tuned-b0, clairvoyant self-play (the tuner's target run)", "tuned/tuned-b0-smart"),
    ("panel lowest-loss table: repeat-value", "panel-confirm-lowest/repeat-value"),
    ("panel lowest-loss table: spread-value", "panel-confirm-lowest/spread-value"),
    ("panel lowest-loss table: depth 3", "panel-confirm-lowest/repeat-value-d3"),
    ("panel lowest-loss table: threshold", "panel-confirm-lowest/repeat-threshold"),
    ("strict-shape table, clairvoyant self-play", "strict/confirm"),
    ("strict-shape table, black_balance 0, clairvoyant self-play", "strict/confirm-b0"),
    ("strict-shape table, black_balance 0, seed 31", "strict/confirm-b0-seed31"),
    ("fog twins: seed tables, blind", "../fog-twins/clairvoyant-hidden"),
    ("fog twins: strict-shape table, blind", "../fog-twins/clairvoyant-strict-hidden"),
]


def ratio(units):
    """Ratio of sums over units [(m, p)] and its 95% half-width (delta method)."""
    n = len(units)
    m = sum(u[0] for u in units)
    p = sum(u[1] for u in units)
    if p == 0 or n < 2:
        return float("nan"), float("nan")
    r = m / p
    resid = [u[0] - r * u[1] for u in units]
    mean = sum(resid) / n
    var = sum((x - mean) ** 2 for x in resid) / (n - 1)
    pbar = p / n
    return r, 1.96 * math.sqrt(var / n) / pbar


def main():
    out = ["run,folder,games,pairs,white,white_pm,black,black_pm,both,both_pm,per_game_mean_white,per_game_mean_black"]
    for label, folder in RUNS:
        d = os.path.join(ROOT, folder)
        tallies = {r["index"]: r for r in csv.DictReader(open(os.path.join(d, "tallies.csv")))}
        pairs = {}
        for g in csv.DictReader(open(os.path.join(d, "games.csv"))):
            t = tallies[g["index"]]
            u = pairs.setdefault(g["pair"], [0.0] * 4)
            u[0] += float(t["white_moves"])
            u[1] += float(t["white_purchases"])
            u[2] += float(t["black_moves"])
            u[3] += float(t["black_purchases"])
        units = list(pairs.values())
        w = ratio([(u[0], u[1]) for u in units])
        b = ratio([(u[2], u[3]) for u in units])
        both = ratio([(u[0] + u[2], u[1] + u[3]) for u in units])
        # The panel's earlier measure, for the record: each game's own ratio, averaged over
        # the games with a purchase.
        def per_game(side):
            xs = [float(t[f"{side}_moves"]) / float(t[f"{side}_purchases"])
                  for t in tallies.values() if float(t[f"{side}_purchases"]) > 0]
            return sum(xs) / len(xs) if xs else float("nan")
        out.append(
            f'"{label}",{folder},{len(tallies)},{len(units)},'
            f"{w[0]:.2f},{w[1]:.2f},{b[0]:.2f},{b[1]:.2f},{both[0]:.2f},{both[1]:.2f},"
            f"{per_game('white'):.2f},{per_game('black'):.2f}"
        )
    open(os.path.join(HERE, "purchases.csv"), "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

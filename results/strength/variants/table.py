#!/usr/bin/env python3
"""Writes times.csv beside it: per row of rows.tsv, the row player's and the best player's
measured wall time per decision. The row player's is from its 10 self-play games
(timing/timings.csv); the best player's is the match's mean time per ply (match/timings.csv)
less the row player's share (one decision each per ply; both seats decide at every ply of
the simultaneous games), or, where the row player played through ext-bot (whose protocol
adds to the match's time), from the best player's own 10 self-play games (best-timing/). README.md quotes times.csv and the matches' pairings through
`chesslab tables` blocks, which CI checks.

python3 results/strength/variants/table.py
"""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SIMULTANEOUS = {"two-move", "synchronous"}


def ms_per_ply(path):
    rows = list(csv.DictReader(open(path)))
    secs = sum(float(r["seconds"]) for r in rows)
    plies = sum(int(r["plies"]) for r in rows)
    return (secs * 1000 / plies if plies else 0.0), len(rows)


def main():
    out = ["game,row_ms,best_ms,best_budget_ms,games"]
    for line in open(os.path.join(HERE, "rows.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        game, variant = line.split("\t")[:2]
        d = os.path.join(HERE, game)
        if not os.path.exists(os.path.join(d, "match", "timings.csv")):
            continue
        per = 2 if variant in SIMULTANEOUS else 1
        row_ms, _ = ms_per_ply(os.path.join(d, "timing", "timings.csv"))
        match_ms, games = ms_per_ply(os.path.join(d, "match", "timings.csv"))
        if not games:
            continue
        row_ms /= per
        best_ms = max(0.0, 2 * match_ms / per - row_ms)
        # Rows played through ext-bot: the match's time holds the protocol's cost, so the
        # best player's own time is its 10 self-play games' (best-timing/, as the row's).
        own = os.path.join(d, "best-timing", "timings.csv")
        if os.path.exists(own):
            best_ms = ms_per_ply(own)[0] / per
        budget = open(os.path.join(d, "row-ms.txt")).read().strip()
        out.append(f"{game},{row_ms:.2f},{best_ms:.2f},{budget},{games}")
    open(os.path.join(HERE, "times.csv"), "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

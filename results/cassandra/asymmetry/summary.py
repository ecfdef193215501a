#!/usr/bin/env python3
"""The figures of results/cassandra/asymmetry/README.md, from the kept games.

Usage (from the repository root): python3 results/cassandra/asymmetry/summary.py > results/cassandra/asymmetry/figures.md

Every run is replayed by prophecies.py (whose model must agree with each run's tallies.csv,
game by game, or this stops); the tables are per colour of the prophet. Intervals are 95%:
per-game figures over games, shares over prophecies grouped by game (the games are the
independent samples: the standard error of a ratio of sums over games, by the delta
method).
"""
import csv
import io
import math
import os
import sys
from contextlib import redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prophecies  # noqa: E402

RUNS = [
    # label, folder, what played
    ("random", "results/cassandra/asymmetry/random", "random, start"),
    ("greedy", "results/cassandra/asymmetry/greedy", "greedy, start"),
    ("ab-d1", "results/cassandra/asymmetry/ab-d1", "alphabeta d1 noise 10, start"),
    ("rev-d1", "results/cassandra/asymmetry/reversed-d1", "the same, squares generated h8 first"),
    ("ab-d1-hint", "results/cassandra/asymmetry/ab-d1-hint", "alphabeta d1 noise 10 eval.hint=1, start"),
    ("ab-d1-nonoise", "results/cassandra/asymmetry/ab-d1-nonoise", "alphabeta d1 no noise, level openings"),
    ("balance", "results/cassandra/balance", "alphabeta d2 noise 10, start (the issue's run)"),
    ("rev-d2", "results/cassandra/asymmetry/reversed-d2", "the same, squares generated h8 first"),
    ("ab-d2-hint", "results/cassandra/asymmetry/ab-d2-hint", "alphabeta d2 noise 10 eval.hint=1, start"),
    ("panel-d1", "results/cassandra/panel/ab-d1", "alphabeta d1 noise 10, level openings"),
    ("panel-d2", "results/cassandra/panel/ab-d2", "alphabeta d2 noise 10, level openings"),
    ("panel-d3", "results/cassandra/panel/ab-d3", "alphabeta d3 noise 10, level openings"),
    ("secret-pimc", "results/cassandra/secret-pimc-d2", "secret: pimc over alphabeta d2, start"),
    ("secret-ismcts", "results/cassandra/secret-panel/ismcts-200", "secret: ismcts 200 iterations"),
]


def load(folder):
    """Per-prophecy rows of one run (book prophecies included, marked)."""
    buf = io.StringIO()
    out = "/tmp/asymmetry-prophecies.csv"
    old = sys.argv
    sys.argv = ["prophecies.py", out, f"x={folder}"]
    try:
        with redirect_stderr(buf):
            prophecies.main()
    except SystemExit as e:
        if e.code:
            sys.exit(f"{folder}: the model and the engine's tallies differ:\n{buf.getvalue()}")
    finally:
        sys.argv = old
    rows = list(csv.DictReader(open(out)))
    games = list(csv.DictReader(open(f"{folder}/games.csv")))
    # Seat 0 is White: its return in [-1, 1] read as a score in [0, 1].
    white = {i: (float(g["returns"].split()[0]) + 1) / 2 for i, g in enumerate(games)}
    return rows, len(games), buf.getvalue().strip().splitlines()[-1], white


def per_game_mean(values_by_game, n_games):
    xs = [values_by_game.get(g, 0) for g in range(n_games)]
    m = sum(xs) / n_games
    var = sum((x - m) ** 2 for x in xs) / (n_games - 1)
    return m, 1.96 * math.sqrt(var / n_games)


def ratio(rows, num, den=lambda r: True):
    """Share sum(num)/sum(den) over rows, with a 95% interval clustered by game."""
    by = {}
    for r in rows:
        if den(r):
            a, b = by.get(r["game"], (0, 0))
            by[r["game"]] = (a + num(r), b + 1)
    if not by:
        return None
    ys = [a for a, _ in by.values()]
    xs = [b for _, b in by.values()]
    n = len(by)
    tot_x = sum(xs)
    q = sum(ys) / tot_x
    if n < 2:
        return q, 0.0
    resid = [y - q * x for x, y in zip(xs, ys)]
    var = sum(e * e for e in resid) / (n - 1) * n / (tot_x ** 2)
    return q, 1.96 * math.sqrt(var)


def fmt(x, digits=3):
    if x is None:
        return "—"
    q, h = x
    return f"{q:.{digits}f} ± {h:.{digits}f}"


def main():
    loaded = {}
    scores = {}
    checks = []
    for label, folder, what in RUNS:
        if not os.path.exists(f"{folder}/games.csv"):
            print(f"(missing: {folder})", file=sys.stderr)
            continue
        rows, n, check, white = load(folder)
        loaded[label] = (rows, n, what, folder)
        scores[label] = per_game_mean(white, n)
        checks.append(f"- `{folder}`: {check}")
    print("# Figures (summary.py)\n")
    print("Model check, run by run (prophecies.py against the engine's tallies.csv):\n")
    print("\n".join(checks))

    print("\n## Per colour: prophecies made and fulfilled, and where they were aimed\n")
    print("Made and fulfilled are per game (all prophecies). The other columns leave out the "
          "prophecies of the book openings (random plies): *aimed* is the share of prophecies "
          "standing on an enemy piece of the target type as they are announced, *uniform* the "
          "share a uniformly random square would have had, *hit if aimed* the share of aimed "
          "prophecies that removed their piece, *ranks 1-2* and *ranks 7-8* where the squares "
          "named were.\n")
    print("| run | what played | games | prophet | made / game | fulfilled / game | aimed | uniform | hit if aimed | ranks 1-2 | ranks 7-8 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for label, (rows, n, what, folder) in loaded.items():
        for col in ("white", "black"):
            mine = [r for r in rows if r["colour"] == col]
            made = {}
            ful = {}
            for r in mine:
                g = int(r["game"])
                made[g] = made.get(g, 0) + 1
                ful[g] = ful.get(g, 0) + int(r["fulfilled"])
            agent = [r for r in mine if r["book"] == "0"]
            aimed = ratio(agent, lambda r: int(r["aimed"]))
            uniform = ratio(agent, lambda r: int(r["targets"]) / 64)
            hit = ratio(agent, lambda r: int(r["fulfilled"]), lambda r: r["aimed"] == "1" and r["outcome"] == "resolved")
            low = ratio(agent, lambda r: int(r["square"][1] in "12"))
            high = ratio(agent, lambda r: int(r["square"][1] in "78"))
            print(f"| `{label}` | {what} | {n} | {col} | {fmt(per_game_mean(made, n), 2)} | "
                  f"{fmt(per_game_mean(ful, n))} | {fmt(aimed)} | {fmt(uniform)} | {fmt(hit)} | "
                  f"{fmt(low)} | {fmt(high)} |")

    print("\n## White's score in each run (colour-swapped pairs of one agent)\n")
    print("| run | what played | games | White's score |")
    print("|---|---|---|---|")
    for label, (rows, n, what, folder) in loaded.items():
        print(f"| `{label}` | {what} | {n} | {fmt(scores[label])} |")

    print("\n## The victim's last look\n")
    print("A prophecy leaves the victim two moves. After the victim's last move before it "
          "falls due, the prophecy is resolved at once if the victim has a prophecy of its own "
          "pending (no decision in between), or after the victim's own prophecy decision if it "
          "has none: a searcher sees the removal one decision deeper then. *share* is the share "
          "of the prophet's resolved prophecies (book ones left out) in each case; *stayed* is, "
          "of those whose target stood on the square as the victim made that last move, the "
          "share still there when it fell due (not dodged).\n")
    print("| run | prophet | victim decides nothing in between: share | stayed | victim decides its own prophecy in between: share | stayed |")
    print("|---|---|---|---|---|---|")
    for label, (rows, n, what, folder) in loaded.items():
        for col in ("white", "black"):
            res = [r for r in rows if r["colour"] == col and r["outcome"] == "resolved" and r["book"] == "0"]
            cells = []
            for lp in ("0", "1"):
                share = ratio(res, lambda r, lp=lp: int(r["last_move_prophecy"] == lp))
                stayed = ratio(res, lambda r: int(r["fulfilled"]),
                               lambda r, lp=lp: r["last_move_prophecy"] == lp and r["present_before_last"] == "1")
                cnt = sum(1 for r in res if r["last_move_prophecy"] == lp and r["present_before_last"] == "1")
                cells += [fmt(share), f"{fmt(stayed)} ({cnt})"]
            print(f"| `{label}` | {col} | " + " | ".join(cells) + " |")

    if "balance" in loaded:
        rows, n, what, folder = loaded["balance"]
        print("\n## The issue's run by rung and by move (alphabeta d2 noise 10, 1000 games)\n")
        print("| rung | prophet | prophecies | aimed | uniform | fulfilled per prophecy |")
        print("|---|---|---|---|---|---|")
        for rung, name in enumerate(["pawn", "knight", "bishop", "rook", "queen", "king"]):
            for col in ("white", "black"):
                r = [x for x in rows if x["colour"] == col and x["rung"] == str(rung)]
                print(f"| {name} | {col} | {len(r)} | {fmt(ratio(r, lambda x: int(x['aimed'])))} | "
                      f"{fmt(ratio(r, lambda x: int(x['targets']) / 64))} | "
                      f"{fmt(ratio(r, lambda x: int(x['fulfilled'])), 4)} |")
        print("\n| prophet's move | prophet | prophecies | aimed | fulfilled per prophecy |")
        print("|---|---|---|---|---|")
        for lo, hi in [(1, 10), (11, 20), (21, 40), (41, 1000)]:
            for col in ("white", "black"):
                r = [x for x in rows if x["colour"] == col and lo <= int(x["move"]) <= hi]
                span = f"{lo}-{hi}" if hi < 1000 else f"{lo}+"
                print(f"| {span} | {col} | {len(r)} | {fmt(ratio(r, lambda x: int(x['aimed'])))} | "
                      f"{fmt(ratio(r, lambda x: int(x['fulfilled'])), 4)} |")


if __name__ == "__main__":
    main()

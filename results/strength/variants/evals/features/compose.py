#!/usr/bin/env python3
"""Issue 66: an eval file with a game's own features as terms (agents/src/eval/features.rs).

    compose.py BASE.toml VALUES.csv OUT.toml [FACTOR]

BASE is the game's search weights today (agents/data/eval/chess.toml, or the game's fitted
file); VALUES.csv is a `chesslab values` fit of the game's games (logit coefficients per
feature). The own features (every row that is not a piece) become the `[features]` table,
in pawns per unit: coefficient x (BASE's knight / the fit's knight coefficient). Decision:
the knight sets the scale because it is the piece every fit estimates well; the pawn's
coefficient, which `values` divides by, is near zero in Zombie and Tar Pit (their
`value_pawns` column is meaningless there), and the base file's own scale is kept.
FACTOR (default 1) multiplies every feature weight (the sensitivity runs: 0.5).
"""
import csv
import sys
import tomllib

PIECES = {"pawn", "knight", "bishop", "rook", "queen"}


def main(base, values, out, factor="1"):
    factor = float(factor)
    with open(base, "rb") as f:
        knight = tomllib.load(f)["knight"]
    rows = list(csv.DictReader(open(values)))
    coef = {r["feature"]: float(r["coefficient"]) for r in rows}
    scale = knight / coef["knight"] * factor
    own = [r["feature"] for r in rows if r["feature"] not in PIECES]
    text = open(base).read().rstrip("\n")
    lines = [
        text,
        "",
        f"# Own features (issue 66), composed by compose.py from {values}:",
        f"# logit coefficient x {scale:.4f} (this file's knight {knight} / the fit's knight",
        f"# coefficient {coef['knight']:.6f}, times {factor}), pawns per unit from seat 0's side.",
        "[features]",
    ]
    lines += [f"{n} = {coef[n] * scale:.4f}" for n in own]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])

#!/bin/sh
# Issue 36, the risk-aware option of the sampled-world alphabeta: `risk=1` (rank root
# actions by the mean over worlds minus one standard deviation) against `risk=0` (the
# mean alone, the default), 200 games (100 colour-swapped pairs) at 25 ms a move each,
# seed 361, one thread, on Masquerade (random assignments) and Time Chess. Run from the
# repository root; CHESSLAB names the binary (the release build).
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-200}
A="pimc:search=alphabeta,worlds=10,risk=1,time_ms=25,pimc:search=alphabeta,worlds=10,time_ms=25"
O=results/strength/hidden/risk
$B tournament --variant masquerade --params results/masquerade/random-assignment.toml \
  --agents "$A" --games "$GAMES" --seed 361 --threads 1 --out "$O/masquerade"
$B tournament --variant time --agents "$A" --games "$GAMES" --seed 361 --threads 1 \
  --out "$O/time"

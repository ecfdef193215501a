#!/bin/sh
# Cooperative's hand-size question for a stronger team (issue 37): ISMCTS with its
# defaults at 25 ms a move (heavy playouts cut off at 16 plies; about 324 at orthodox
# chess, results/strength) in both seats, 200 deals per hand size, the same seed (so the
# same deals as far as the hand size allows). Run from the repository root; CHESSLAB
# names the binary (the release build).
set -e
B=${CHESSLAB:-target/release/chesslab}
A="ismcts:time_ms=25"
O=results/cooperative/strong
for h in 2 3 4; do
  P=""
  [ "$h" = 3 ] || P="--params results/cooperative/hand$h.toml"
  $B balance --variant cooperative $P --agents "$A,$A" --games 200 --seed 360 --threads 2 \
    --out $O/hand$h
done

#!/bin/sh
# Issue 37: the rated panel's strongest member (alphabeta depth 3) in the two simultaneous
# games (session 25) and in Half Alice and Adrenaline (session 26, run as
# `VARIANTS="half-alice adrenaline"`), 2000 games each from their level suites, seed 38:
# the same player, number of games and seed as this folder's orthodox depth-3 run, so each
# game's White score is set against 0.538 ± 0.021 from a sample of the same size. Run from
# the repository root.
set -e
BIN=${BIN:-target/release/chesslab}
A="alphabeta:depth=3,noise=10"
for v in ${VARIANTS:-two-move synchronous half-alice adrenaline}; do
  $BIN balance --variant $v --agents "$A,$A" --games 2000 --openings results/openings/$v.txt \
    --seed 38 --threads ${THREADS:-2} --out results/$v/d3-2000
done

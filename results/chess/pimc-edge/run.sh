#!/bin/sh
# Issue 37: orthodox White's edge for the hidden-game panel's strongest member (the
# sampled-world alphabeta at 25 ms a move, 1072 at orthodox chess), 400 more games beside
# the panel's 200 (results/time/panel/chess/pimc-ab-25ms: 8 random opening plies, seed
# 37), here seed 38, two games at a time on the otherwise idle 2-core machine (the agent
# plays by time, so load would weaken it). Run from the repository root.
set -e
BIN=${BIN:-target/release/chesslab}
A="pimc:search=alphabeta,worlds=10,time_ms=25"
$BIN balance --variant chess --agents "$A,$A" --games 400 --random-opening-plies 8 \
  --seed 38 --threads ${THREADS:-2} --out results/chess/pimc-edge/games

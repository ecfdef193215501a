#!/bin/sh
# Issue 37: orthodox White's edge from the level chess suite at alphabeta depth 3 to 6,
# 2000 games a depth (seed 38: new games beside the panel's seed-37 ones). Run from the
# repository root with the release build.
set -e
BIN=${BIN:-target/release/chesslab}
$BIN balance --variant chess --panel examples/panels/deep-chess.toml --games 2000 \
  --openings results/openings/chess.txt --seed 38 --threads ${THREADS:-2} --out results/chess/depths

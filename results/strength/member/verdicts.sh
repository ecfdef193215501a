#!/bin/sh
# Issue 67: every verdict row played again by the strong member
# (`alphabeta:depth=64,nodes=100000,noise=10`, examples/panels/strong-member.toml), 1000
# games from the variant's level suite, beside the same member's orthodox figure
# (results/chess/member-panel). A node budget plays the same games at any load and thread
# count, so a run may be interrupted and resumed (`--resume`) by the same build.
# VARIANTS picks the games (default: the perfect-information verdict rows, cheapest
# first); OUT the folder the runs go under (default: results).
set -e
BIN=${BIN:-target/quick/chesslab}
OUT=${OUT:-results}
for v in ${VARIANTS:-two-move synchronous expedition adrenaline crowded-house cassandra half-alice}; do
  $BIN balance --variant $v --panel examples/panels/strong-member.toml --games 1000 \
    --openings results/openings/$v.txt --seed 67 --chess-from results/chess/member-panel \
    --threads ${THREADS:-2} --out $OUT/$v/member-panel --resume
done

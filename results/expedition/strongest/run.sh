#!/bin/sh
# Issue 37: orthodox White's edge for the expectimax panel's strongest member
# (`expectimax:depth=3,order=true,quiescence=true`, 1534 at orthodox chess), and the same
# player in Expedition, from larger level suites than the panel's 200 openings. The agent
# is deterministic and plays both sides, so in orthodox chess the two games of a
# colour-swapped pair are one game: 4000 games from the 2000 openings of
# results/openings/chess-2000.txt give 2000 distinct games (the panel had 200). In
# Expedition the dice part the two games of a pair: 2000 games from the 1000 openings of
# results/openings/expedition-1000.txt. Both suites extend the 200-opening suites (their
# first 200 lines are those suites). Seed 38. Run from the repository root.
set -e
BIN=${BIN:-target/release/chesslab}
A="expectimax:depth=3,order=true,quiescence=true"
$BIN balance --variant chess --agents "$A,$A" --games 4000 --openings results/openings/chess-2000.txt \
  --seed 38 --threads ${THREADS:-2} --out results/expedition/strongest/chess
$BIN balance --variant expedition --agents "$A,$A" --games 2000 --openings results/openings/expedition-1000.txt \
  --seed 38 --threads ${THREADS:-2} --out results/expedition/strongest/expedition

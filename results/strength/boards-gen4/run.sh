#!/bin/sh
# Issue 36, 2026-12-06: Chess960's rated-panel round robin of ../boards/run.sh played
# again by generation 4 of the agents (the fitted piece-square tables score Chess960
# too), the same command and seed; fixed depths, so load does not change the games.
# Run from the repository root; CHESSLAB names the binary (the release build). Fit:
#   chesslab rate results/strength/boards-gen4 --anchor "alphabeta:depth=3,noise=10=1689" \
#     --out results/strength/boards-gen4/rate.md
# (1689: depth 3's orthodox rating in generation 4, ../epoch-4/rate.md.)
set -e
B=${CHESSLAB:-target/release/chesslab}
$B tournament --variant chess960 \
  --agents "alphabeta:depth=3,noise=10,alphabeta:depth=2,noise=10,alphabeta:depth=1,noise=10,alphabeta:depth=3,eval=results/strength/search/classic.toml,noise=10" \
  --games 100 --openings results/chess960/starts.txt --seed 38 --threads 2 \
  --out results/strength/boards-gen4/chess960

#!/bin/sh
# Issue 36, generation 3 of the agents (session of 2026-11-29): pruning near the leaves
# (reverse futility, futility, late-move pruning) and static exchange evaluation, all on
# against all off, at equal time (50 ms a move), release build, 200 games from the suite.
BIN=${BIN:-./target/release/chesslab}
BOOK=results/strength/search/openings-chess.txt
OFF="futility=false,lmp=false,see=false"
$BIN tournament --variant chess --agents "alphabeta:time_ms=50,alphabeta:time_ms=50,$OFF" \
  --games 200 --openings $BOOK --seed 38 --threads 2 --out results/strength/search/pruning-50ms --resume
# Searching a fixed time a move to its end (`full_time`, new in generation 3) against
# starting no iteration after half of it (generation 2's habit), 50 ms a move, 200 games.
$BIN tournament --variant chess --agents "alphabeta:time_ms=50,alphabeta:time_ms=50,full_time=false" \
  --games 200 --openings $BOOK --seed 39 --threads 2 --out results/strength/search/full-time-50ms --resume

#!/bin/sh
# Issue 37: the rated panel (rated-chess.toml) in the two simultaneous-move games, where
# alphabeta solves each simultaneous choice as a one-turn matrix game
# (agents/src/alphabeta/matrix.rs), each beside orthodox chess played by the same panel
# and generation from the orthodox suite: the Two Move run plays those orthodox games
# (results/two-move/panel/chess), the Synchronous run reads them (--chess-from). Run from
# the repository root; CHESSLAB names the binary, GAMES the games per member, THREADS the
# worker threads (results do not depend on it).
set -e
B=${CHESSLAB:-chesslab}
P=examples/panels/rated-chess.toml
G=${GAMES:-1000}
T=${THREADS:-2}
$B balance --variant two-move --panel $P --games "$G" --openings results/openings/two-move.txt \
  --chess-openings results/openings/chess.txt --seed 37 --threads "$T" \
  --out results/two-move/panel
$B balance --variant synchronous --panel $P --games "$G" \
  --openings results/openings/synchronous.txt --seed 37 --threads "$T" \
  --chess-from results/two-move/panel/chess --out results/synchronous/panel

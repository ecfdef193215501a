#!/bin/sh
# Issue 37: the rated panel (rated-chess.toml) in orthodox chess once, then in every
# perfect-information variant with a level suite, each beside that orthodox run
# (--chess-from). Run from the repository root; CHESSLAB names the binary, GAMES the
# games per member, THREADS the worker threads (results do not depend on it). Every step
# resumes where an interrupted one stopped. results/chess/panel was played by generation 2
# of the agents: with today's generation the first step refuses to resume it (a clear
# error, nothing changed); move it away to play it again, or pass the generation-3
# orthodox runs of the same panel, --chess-from results/two-move/panel/chess
# (run-rated-simultaneous.sh plays them).
set -e
B=${CHESSLAB:-chesslab}
P=examples/panels/rated-chess.toml
G=${GAMES:-1000}
T=${THREADS:-2}
$B balance --variant chess --panel $P --games "$G" --openings results/openings/chess.txt \
  --seed 37 --threads "$T" --out results/chess/panel --resume
for v in ${VARIANTS:-half-alice adrenaline crowded-house cassandra}; do
  $B balance --variant "$v" --panel $P --games "$G" --openings "results/openings/$v.txt" \
    --seed 37 --threads "$T" --chess-from results/chess/panel --out "results/$v/panel" --resume
done

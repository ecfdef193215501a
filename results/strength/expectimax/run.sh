#!/bin/sh
# Issue 36, "expectimax with the new search features where they are sound at chance
# nodes": `order=true,quiescence=true` against the default (neither), equal time per
# move (25 ms), 100 games (50 colour-swapped pairs) each on orthodox chess and on
# Expedition Chess (dice), 8 random opening plies, seed 362, one thread per run. Run
# from the repository root; CHESSLAB names the binary (the release build).
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-100}
A="expectimax:order=true,quiescence=true,time_ms=25,expectimax:time_ms=25"
O=results/strength/expectimax
for v in chess expedition; do
  $B tournament --variant "$v" --agents "$A" --games "$GAMES" --seed 362 \
    --random-opening-plies 8 --threads 1 --out "$O/$v"
done
# Each feature alone, orthodox chess.
for f in order quiescence; do
  $B tournament --variant chess --agents "expectimax:$f=true,time_ms=25,expectimax:time_ms=25" \
    --games "$GAMES" --seed 362 --random-opening-plies 8 --threads 1 --out "$O/chess-$f"
done

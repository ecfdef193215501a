#!/bin/sh
# Issue 36, Tar Pit: the sampled-world alphabeta on two worlds (each world's search gets
# half the 25 ms instead of a tenth) against ISMCTS with its new defaults (seed 363) and
# against the old best (ISMCTS with random playouts to the end, seed 362), 200 games
# (100 colour-swapped pairs) each, one thread per match. Run from the repository root;
# CHESSLAB names the binary (the release build); ONLY="vs-ismcts" plays a subset. Fit:
#   chesslab rate results/strength/hidden/tar-pit-worlds \
#     results/strength/hidden/match-200/tar-pit results/strength/hidden/second-200/tar-pit \
#     results/strength/hidden/ismcts-vs-old/tar-pit \
#     --anchor "pimc:search=alphabeta,worlds=10,time_ms=25=1072" \
#     --out results/strength/hidden/tar-pit-worlds/rate.md
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-200}
T=${T:-25}
TWO="pimc:search=alphabeta,worlds=2,time_ms=$T"
O=results/strength/hidden/tar-pit-worlds
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
run() { # name, opponent, seed
  wanted "$1" || return 0
  $B tournament --variant tar-pit --agents "$TWO,$2" --games "$GAMES" --seed "$3" \
    --threads 1 --out "$O/$1"
}
run vs-ismcts "ismcts:time_ms=$T" 363
run vs-old "ismcts:rollout=random,cutoff=0,time_ms=$T" 362

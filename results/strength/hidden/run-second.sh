#!/bin/sh
# Issue 36, "the strongest two per variant": the sampled-world alphabeta (the best hidden
# -game player, results/strength/hidden/match-200) against ISMCTS with its new defaults
# (heavy playouts cut off at 16 plies and scored by the evaluation) at equal time, 25 ms
# a move each, 200 games (100 colour-swapped pairs) per game, seed 361. This orders the
# second place, which run200.sh's matches (against ISMCTS's old defaults) leave open.
# One thread per run; run from the repository root; CHESSLAB names the binary (the
# release build); ONLY="zombie time" plays a subset. Fit afterwards:
#   chesslab rate results/strength/hidden/second-200 \
#     --anchor "pimc:search=alphabeta,worlds=10,time_ms=25=1072" \
#     --out results/strength/hidden/second-200/rate.md
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-200}
T=${T:-25}
NEW="pimc:search=alphabeta,worlds=10,time_ms=$T"
ISM="ismcts:time_ms=$T"
O=results/strength/hidden/second-200
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
run() { # variant, extra flags...
  v=$1; shift
  wanted "$v" || return 0
  $B tournament --variant "$v" "$@" --agents "$NEW,$ISM" --games "$GAMES" --seed 361 \
    --threads 1 --out "$O/$v"
}
run cassandra --params results/strength/hidden/cassandra-secret.toml
run zombie
run masquerade --params results/masquerade/random-assignment.toml
run time
run tar-pit

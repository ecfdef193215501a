#!/bin/sh
# Issue 36's secret Cassandra goal with ISMCTS tuned for it: cut-off 8 plies (instead of
# 16) and exploration c = 0.7 (instead of 1.4), 25 ms a move, against the best player at
# the filing (old ISMCTS: random playouts to the end) and against ISMCTS with its
# new defaults; 200 games (100 colour-swapped pairs) each, one thread per match, two
# matches at a time and nothing else on the machine; run from the repository root;
# CHESSLAB names the binary (the release build); ONLY="vs-new" plays a subset.
# Fit afterwards:
#   chesslab rate results/strength/hidden/ismcts-tuned \
#     --anchor "ismcts:rollout=random,cutoff=0,time_ms=25=0" \
#     --out results/strength/hidden/ismcts-tuned/rate.md
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-200}
TUNED="ismcts:cutoff=8,c=0.7,time_ms=25"
OLD="ismcts:rollout=random,cutoff=0,time_ms=25"
NEW="ismcts:time_ms=25"
O=results/strength/hidden/ismcts-tuned
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
run() { # name, opponent, seed
  wanted "$1" || return 0
  $B tournament --variant cassandra --params results/strength/hidden/cassandra-secret.toml \
    --agents "$TUNED,$2" --games "$GAMES" --seed "$3" --threads 1 --out "$O/cassandra-$1"
}
run vs-old "$OLD" 362
run vs-new "$NEW" 363

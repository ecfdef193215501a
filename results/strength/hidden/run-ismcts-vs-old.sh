#!/bin/sh
# Issue 36's hidden-game goal where ISMCTS with its new defaults, not the sampled-world
# alphabeta, is the strongest player (secret Cassandra and Tar Pit: run-second.sh): the
# new ISMCTS against the best hidden-game agent at the filing (ISMCTS with its old
# defaults, random playouts to the end), 25 ms a move each, 200 games (100 colour-swapped
# pairs, seed 362), one thread per run; run from the repository root; CHESSLAB names the
# binary (the release build); ONLY="tar-pit" plays a subset. Fit afterwards:
#   chesslab rate results/strength/hidden/ismcts-vs-old \
#     --anchor "ismcts:rollout=random,cutoff=0,time_ms=25=0" \
#     --out results/strength/hidden/ismcts-vs-old/rate.md
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-200}
T=${T:-25}
NEW="ismcts:time_ms=$T"
OLD="ismcts:rollout=random,cutoff=0,time_ms=$T"
O=results/strength/hidden/ismcts-vs-old
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
run() { # variant, extra flags...
  v=$1; shift
  wanted "$v" || return 0
  $B tournament --variant "$v" "$@" --agents "$NEW,$OLD" --games "$GAMES" --seed 362 \
    --threads 1 --out "$O/$v"
}
run cassandra --params results/strength/hidden/cassandra-secret.toml
run tar-pit

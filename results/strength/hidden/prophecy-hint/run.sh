#!/bin/sh
# Issue 36, secret Cassandra: the sampled-world alphabeta with Cassandra's evaluation
# hint (pending prophecies and the ladder, `eval.hint=1`) against the old best
# (ISMCTS with random playouts to the end, seed 362 as in ismcts-vs-old), against ISMCTS
# with its new defaults (seed 363), with the hint too (seed 364), and against itself
# without the hint (seed 365); 25 ms a move each, 200 games (100 colour-swapped pairs)
# each, one thread per match. Run from the repository root; CHESSLAB names the binary
# (the release build); ONLY="vs-old vs-ismcts" plays a subset. Fit afterwards:
#   chesslab rate results/strength/hidden/prophecy-hint \
#     results/strength/hidden/second-200/cassandra \
#     results/strength/hidden/ismcts-vs-old/cassandra \
#     results/strength/hidden/match-200/cassandra \
#     --anchor "pimc:search=alphabeta,worlds=10,time_ms=25=1072" \
#     --out results/strength/hidden/prophecy-hint/rate.md
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-200}
T=${T:-25}
HINT="pimc:search=alphabeta,worlds=10,time_ms=$T,eval.hint=1"
O=results/strength/hidden/prophecy-hint
P=results/strength/hidden/cassandra-secret.toml
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
run() { # name, opponent, seed
  wanted "$1" || return 0
  $B tournament --variant cassandra --params "$P" --agents "$HINT,$2" --games "$GAMES" \
    --seed "$3" --threads 1 --out "$O/cassandra-$1"
}
run vs-old "ismcts:rollout=random,cutoff=0,time_ms=$T" 362
run vs-ismcts "ismcts:time_ms=$T" 363
run vs-ismcts-hint "ismcts:time_ms=$T,eval.hint=1" 364
run vs-pimc "pimc:search=alphabeta,worlds=10,time_ms=$T" 365

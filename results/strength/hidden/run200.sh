#!/bin/sh
# Issue 36, hidden-game goal: the sampled-world alphabeta (pimc:search=alphabeta) against
# the best hidden-game agent at the filing, 200 games each (100 colour-swapped
# pairs) at equal time per move. Today's best: ismcts with its old defaults, named
# (rollout=random,cutoff=0); for Clairvoyant the purpose-built `clairvoyant` agent (which
# ignores time_ms: it searches a fixed two plies, so "equal time" there means the pimc side
# gets 25 ms a move, about what `clairvoyant` takes). One thread; run from the repository
# root; CHESSLAB names the binary (the test-profile build), T the milliseconds per move.
set -e
B=${CHESSLAB:-target/debug/chesslab}
GAMES=${GAMES:-200}
T=${T:-25}
NEW="pimc:search=alphabeta,worlds=10,time_ms=$T"
OLD="ismcts:rollout=random,cutoff=0,time_ms=$T"
O=results/strength/hidden/match-200
run() { # variant, opponent, extra flags...
  v=$1; opp=$2; shift 2
  $B tournament --variant "$v" "$@" --agents "$NEW,$opp" --games "$GAMES" --seed 360 \
    --threads 1 --out "$O/$v"
}
run cassandra "$OLD" --params results/strength/hidden/cassandra-secret.toml
run zombie "$OLD"
run masquerade "$OLD" --params results/masquerade/random-assignment.toml
run time "$OLD"
run tar-pit "$OLD"
run clairvoyant clairvoyant

#!/bin/sh
# Issue 36, hidden-game goal: the sampled-world alphabeta (pimc:search=alphabeta) against
# the best hidden-game agent at the filing, 200 games each (100 colour-swapped
# pairs) at equal time per move. Today's best: ismcts with its old defaults, named
# (rollout=random,cutoff=0); for Clairvoyant the purpose-built `clairvoyant` agent (which
# ignores time_ms: it searches a fixed two plies, so "equal time" there means the pimc side
# gets 25 ms a move and `clairvoyant` takes what it takes). Cooperative has no opponent:
# ISMCTS with its new defaults (heavy playouts, cut-off) and with the old each play both
# seats of 200 deals (the same deals, seed 360) and the team
# scores are compared (Elo does not apply to a one-team game; pimc:search=alphabeta is
# refused there: its two-sided search would treat the partner as an opponent).
# One thread per run; run from the repository root; CHESSLAB names the binary (the
# release build), T the milliseconds per move; ONLY="zombie time" plays a subset.
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-200}
T=${T:-25}
NEW="pimc:search=alphabeta,worlds=10,time_ms=$T"
OLD="ismcts:rollout=random,cutoff=0,time_ms=$T"
O=results/strength/hidden/match-200
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
run() { # variant, opponent, extra flags...
  v=$1; opp=$2; shift 2
  wanted "$v" || return 0
  $B tournament --variant "$v" "$@" --agents "$NEW,$opp" --games "$GAMES" --seed 360 \
    --threads 1 --out "$O/$v"
}
team() { # agent, folder name
  wanted cooperative || return 0
  $B balance --variant cooperative --agents "$1,$1" --games "$GAMES" --seed 360 \
    --threads 1 --out "$O/cooperative/$2"
}
run cassandra "$OLD" --params results/strength/hidden/cassandra-secret.toml
run zombie "$OLD"
run masquerade "$OLD" --params results/masquerade/random-assignment.toml
run time "$OLD"
run tar-pit "$OLD"
run clairvoyant clairvoyant
team "ismcts:time_ms=$T" ismcts-new
team "$OLD" ismcts-old

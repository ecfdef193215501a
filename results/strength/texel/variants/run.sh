#!/bin/sh
# Issue 36, "tuned ... per variant where the variant's own values differ": the search's
# 15 evaluation weights fitted by Texel's method to each variant's own games, then the
# fitted weights against the default ones in that variant at equal depth.
# 1. `chesslab texel --variant V` on the 4000 generation-3 games of the rated panel in V
#    (results/V/panel-gen3: alphabeta depth 3, 2, 1 and classic depth 3, 1000 each, from
#    V's level suite): quiet positions from ply 8, every fifth game held out.
# 2. `alphabeta:depth=3,eval=V.toml,noise=10` against `alphabeta:depth=3,noise=10`,
#    GAMES (1000) games (500 colour-swapped pairs) from V's level suite, seed 36, one thread.
# Crowded House is left out: `texel` refuses it ("crowded-house has no single board
# between two seats, so there is no board evaluation to tune": four seats, two a colour).
# Run from the repository root; CHESSLAB names the binary (the release build); ONLY="V"
# runs one step (half-alice, adrenaline, half-alice-time, cassandra).
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-1000}
O=results/strength/texel/variants
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
# fit V PANEL DEPTH THREADS: fit V's weights on the four members' games in PANEL, then
# the fitted weights against the default ones at DEPTH.
fit() {
  $B texel --variant "$1" --from $2/ab-d3/games.csv $2/ab-d2/games.csv $2/ab-d1/games.csv \
    $2/ab-d3-classic/games.csv --out "$O/$1.toml" > "$O/$1.txt"
  $B tournament --variant "$1" --agents "alphabeta:depth=$3,eval=$O/$1.toml,noise=10,alphabeta:depth=$3,noise=10" \
    --games "$GAMES" --openings "results/openings/$1.txt" --seed 36 --threads "$4" --out "$O/$1"
}
for v in half-alice adrenaline; do
  if wanted "$v"; then fit "$v" "results/$v/panel-gen3" 3 1; fi
done
# 3. Half Alice at equal time: the fitted weights against the default ones at 25 ms a
#    move, 400 games from the level suite, seed 36, two threads (timed play is not
#    repeatable move for move; the games replay from their records).
if wanted half-alice-time; then
  $B tournament --variant half-alice --agents "alphabeta:time_ms=25,eval=$O/half-alice.toml,alphabeta:time_ms=25" \
    --games 400 --openings results/openings/half-alice.txt --seed 36 --threads 2 --out "$O/half-alice-time"
fi
# 4. Open Cassandra: fitted on its rated panel's 1600 games (results/cassandra/panel, 400
#    a member), measured at depth 2 (a depth-3 game takes about ten seconds), 1000 games,
#    seed 36, two threads.
if wanted cassandra; then fit cassandra results/cassandra/panel 2 2; fi

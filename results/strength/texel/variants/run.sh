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
# runs one variant.
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-1000}
O=results/strength/texel/variants
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
for v in half-alice adrenaline; do
  wanted "$v" || continue
  P=results/$v/panel-gen3
  $B texel --variant "$v" --from $P/ab-d3/games.csv $P/ab-d2/games.csv $P/ab-d1/games.csv \
    $P/ab-d3-classic/games.csv --out "$O/$v.toml" > "$O/$v.txt"
  $B tournament --variant "$v" --agents "alphabeta:depth=3,eval=$O/$v.toml,noise=10,alphabeta:depth=3,noise=10" \
    --games "$GAMES" --openings "results/openings/$v.txt" --seed 36 --threads 1 --out "$O/$v"
done

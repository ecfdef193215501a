#!/bin/sh
# Issue 36/37, the variants with a board and no hidden information: the rated panel's
# members (examples/panels/rated-chess.toml) played against each other in each variant,
# so their order there is measured, not assumed from orthodox chess. A round robin of
# the four members, GAMES (100) games per pairing (50 colour-swapped pairs) from each
# game's level suite, seed 38, one thread per run:
#   alphabeta:depth=3,noise=10       1581 at orthodox chess (generation 3)
#   alphabeta:depth=2,noise=10       1462
#   alphabeta:depth=1,noise=10       1210
#   alphabeta:depth=3,eval=results/strength/search/classic.toml,noise=10   1468
# Chess960 plays the first 50 Scharnagl starts (results/chess960/starts.txt, in order).
# Open Cassandra plays CASSANDRA_GAMES (60) a pairing, the classic member in a gauntlet of
# its own afterwards: a depth-3 Cassandra game takes about ten seconds on one core (a
# prophecy decision over about 64 squares every turn).
# Run from the repository root (the classic member's evaluation file is a relative
# path); CHESSLAB names the binary (the release build); ONLY="half-alice adrenaline"
# plays some. Fit afterwards, anchoring the depth-3 member at its orthodox rating:
#   chesslab rate results/strength/boards --anchor "alphabeta:depth=3,noise=10=1581" \
#     --out results/strength/boards/rate.md
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-100}
O=results/strength/boards
D3="alphabeta:depth=3,noise=10"
D2="alphabeta:depth=2,noise=10"
D1="alphabeta:depth=1,noise=10"
CL="alphabeta:depth=3,eval=results/strength/search/classic.toml,noise=10"
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
for v in half-alice adrenaline crowded-house; do
  wanted "$v" || continue
  $B tournament --variant "$v" --agents "$D3,$D2,$D1,$CL" --games "$GAMES" \
    --openings "results/openings/$v.txt" --seed 38 --threads 1 --out "$O/$v"
done
if wanted chess960; then
  $B tournament --variant chess960 --agents "$D3,$D2,$D1,$CL" --games "$GAMES" \
    --openings results/chess960/starts.txt --seed 38 --threads 1 --out "$O/chess960"
fi
if wanted cassandra; then
  $B tournament --variant cassandra --agents "$D3,$D2,$D1" --games "${CASSANDRA_GAMES:-60}" \
    --openings results/openings/cassandra.txt --seed 38 --threads 1 --out "$O/cassandra"
fi
# The classic member in open Cassandra, played afterwards as a gauntlet against the other
# three (60 games each, two threads); `chesslab rate` fits both folders' games together.
if wanted cassandra-classic; then
  $B tournament --variant cassandra --agents "$CL,$D3,$D2,$D1" --gauntlet --games "${CASSANDRA_GAMES:-60}" \
    --openings results/openings/cassandra.txt --seed 39 --threads 2 --out "$O/cassandra-classic"
fi

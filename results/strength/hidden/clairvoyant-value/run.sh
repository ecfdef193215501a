#!/bin/sh
# Issue 36's Clairvoyant goal: the price-aware purchase policy (`policy=value`, added by
# issue 37) against today's best Clairvoyant player, `clairvoyant` (the threshold policy:
# a drop whenever the balance reaches 25 Z), with the seed's tables from the start, 200
# games (100 colour-swapped pairs) as ../match-200/clairvoyant (seed 360, one thread).
# Both agents search by depth, not time (two plies; about a millisecond an action, the
# folders' timings.csv), so the machine's load does not change the games.
# Run from the repository root; CHESSLAB names the binary.
set -e
B=${CHESSLAB:-target/release/chesslab}
O=results/strength/hidden/clairvoyant-value
$B tournament --variant clairvoyant --agents clairvoyant:policy=value,clairvoyant --games 200 \
  --seed 360 --threads 1 --out $O/value
$B tournament --variant clairvoyant --agents clairvoyant:policy=value,depth=3,clairvoyant \
  --games 200 --seed 360 --threads 1 --out $O/value-d3
$B tournament --variant clairvoyant --agents clairvoyant:policy=value,clairvoyant:policy=value,depth=3 \
  --games 200 --seed 360 --threads 1 --out $O/value-vs-d3
# The sampled-world alphabeta (25 ms a move, time-based: played with two games at a time
# on the 2-core machine, as ../match-200/clairvoyant) against the new best,
# to check that the order holds across the three players (in secret Cassandra it did not).
$B tournament --variant clairvoyant --agents pimc:search=alphabeta,worlds=10,time_ms=25,clairvoyant:policy=value \
  --games 200 --seed 360 --threads 2 --out $O/pimc-vs-value

#!/bin/sh
# Issue 37, session 26: the depth-3 member again, from books large enough that no opening
# is played by more than one pair. The earlier runs played 1000 pairs from 200-opening
# books, each opening five times, and pairs from one opening are not independent (see
# pool.py: over openings the pooled Two Move and Synchronous differences covered 0).
# Orthodox chess: 4000 games from the 2000 openings of results/openings/chess-2000.txt
# (its first 200 are the orthodox suite); Synchronous and Two Move: 2000 games from 1000
# new openings each (results/openings/<variant>-1000.txt, seed 2, none in the 200-opening
# suites); Adrenaline the same way (session 26, played alone as
# `balance --variant adrenaline ... --threads 1`, the same games). Seed 39. Run from the
# repository root.
set -e
BIN=${BIN:-target/release/chesslab}
A="alphabeta:depth=3,noise=10"
T=${THREADS:-2}
$BIN balance --variant chess --agents "$A,$A" --games 4000 --openings results/openings/chess-2000.txt \
  --seed 39 --threads $T --out results/chess/depths/ab-d3-book
for v in synchronous two-move adrenaline; do
  $BIN balance --variant $v --agents "$A,$A" --games 2000 --openings results/openings/$v-1000.txt \
    --seed 39 --threads $T --out results/$v/d3-book
done

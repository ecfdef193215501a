#!/bin/sh
# Issue 36, Clairvoyant's goal (a new best agent 200 Elo above today's best, the
# `clairvoyant` agent at its default two plies): does a deeper `clairvoyant` beat it?
# `clairvoyant:depth=3` and `depth=4` (full-width plies before the capture-only one,
# behind both the guesser and the free move) against the default, from the start like
# ../match-200/clairvoyant (seed 360, one thread): with the seed's tables, and with the
# tuned tables results/clairvoyant/tuned/tuned-b0.toml (12 random opening plies, as that
# folder's runs). Run from the repository root; CHESSLAB names the binary.
set -e
B=${CHESSLAB:-target/release/chesslab}
O=results/strength/hidden/clairvoyant-depth
T=results/clairvoyant/tuned/tuned-b0.toml
$B tournament --variant clairvoyant --agents clairvoyant:depth=3,clairvoyant --games 100 \
  --seed 360 --threads 1 --out $O/seed-d3
$B tournament --variant clairvoyant --params $T --agents clairvoyant:depth=3,clairvoyant \
  --games 100 --random-opening-plies 12 --seed 360 --threads 1 --out $O/tuned-d3
$B tournament --variant clairvoyant --params $T --agents clairvoyant:depth=4,clairvoyant \
  --games 100 --random-opening-plies 12 --seed 360 --threads 1 --out $O/tuned-d4

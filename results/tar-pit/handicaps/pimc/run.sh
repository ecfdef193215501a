#!/bin/sh
# Tar Pit's handicaps played again by a rated player (issue 37): the sampled-world
# alphabeta at 25 ms a move (about 1072 at orthodox chess, results/strength), self-play,
# 200 games a setting, the same parameter files and seed as the ISMCTS 40 runs beside
# this folder. Run from the repository root; CHESSLAB names the binary (the release build).
set -e
B=${CHESSLAB:-target/release/chesslab}
P="pimc:search=alphabeta,worlds=10,time_ms=25"
H=results/tar-pit/handicaps
$B balance --variant tar-pit --agents "$P,$P" --compare $H/seed.toml $H/white-4-checkers.toml \
  --games 200 --seed 1 --threads 2 --out $H/pimc/checkers
for s in white-2-checkers no-checker-cards; do
  $B balance --variant tar-pit --agents "$P,$P" --params $H/$s.toml \
    --games 200 --seed 1 --threads 2 --out $H/pimc/$s
  $B report --compare $H/pimc/checkers/a $H/pimc/$s --out $H/pimc/$s/compare.md
done

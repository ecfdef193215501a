#!/bin/sh
# Issue 67: the lab's own opening screen on every kept book (chesslab openings --screen,
# at its defaults: a 5-ply alphabeta search, 3 pawns, at most 300000 nodes a search), one
# process at a time (the screen is single-threaded). Run from the repository root.
set -e
BIN=${BIN:-target/quick/chesslab}
OUT=results/openings/screen
for book in results/openings/*.txt; do
  name=$(basename "$book" .txt)
  variant=${name%-1000}
  variant=${variant%-2000}
  params=""
  if [ "$variant" = masquerade ]; then
    params="--params results/masquerade/random-assignment.toml"
  fi
  $BIN openings --screen "$book" --variant "$variant" $params --out "$OUT/$name.lab.flagged.txt" --force
done

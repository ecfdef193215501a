#!/bin/sh
# Masquerade's assignment question played by a rated player (issue 37): the sampled-world
# alphabeta at 25 ms a move (about 1072 at orthodox chess, results/strength), self-play,
# 1000 games with both assignments drawn at random (chance nodes), the assigner's score by
# what it gave the opponent's queen and king. Run from the repository root; CHESSLAB names
# the binary (the release build).
set -e
B=${CHESSLAB:-target/release/chesslab}
P="pimc:search=alphabeta,worlds=10,time_ms=25"
$B balance --variant masquerade --params results/masquerade/random-assignment.toml \
  --agents "$P,$P" --games 1000 --seed 1 --threads 2 --out results/masquerade/pimc \
  --split white_gave_queen@0+black_gave_queen@1 --split white_gave_king@0+black_gave_king@1 \
  --title "Masquerade, sampled-world alphabeta self-play, assignments drawn at random"

#!/bin/sh
# Session 39: the hidden member's orthodox rating (issue 67: the hidden rows' trend over
# rated strengths). Its search on ten sampled worlds against the rated member (2104, no
# noise) and the rated depth-2 sampled-world alphabeta (1437 in rate.md's joint fit), 200
# games each, from the orthodox level suite. Played by a saved quick build of 150b998 (the
# fog twins' build; run.json names it); a node budget plays the same games at any load.
# Then rated with the depth-2 player fixed at 1437 (README.md).
set -e
BIN=${BIN:-target/quick/chesslab}
O=results/strength/member/hidden-rating
H="pimc:search=alphabeta,depth=64,nodes=100000,quiescence=true,worlds=10,ties=random"
D2="pimc:search=alphabeta,depth=2,quiescence=true,worlds=6"
$BIN tournament --variant chess --gauntlet --agents "$H,alphabeta:depth=64,nodes=100000,$D2" \
  --games 200 --openings results/openings/chess.txt --seed 67 --threads 1 --out $O --resume
$BIN rate $O --anchor "$D2=1437" --out $O/rate.md --force

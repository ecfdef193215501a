#!/bin/sh
# Issue 66: the null move in the variants that offer a pass (Half Alice, Crowded House;
# GameFacts::null_move), measured (1) by nodes to depth 8 (benches/src/bin/switch_ons.rs
# in its `null` mode: the same positions searched with and without null-move pruning, the
# rest of the search as today; orthodox chess beside them) and (2) by a self-play match at
# equal time, one build: `alphabeta:time_ms=20` against the same with `null_move=false`,
# 200 games (100 colour-swapped pairs) from 4 random plies, one game at a time.
set -e
BIN=${BIN:-target/quick/chesslab}
O=results/strength/variants/switch-ons
cargo build --profile quick -p benches --bin switch_ons
./target/quick/switch_ons $O/nodes-null-d8.csv 10 8 null
for V in half-alice crowded-house; do
  $BIN tournament --variant $V --games 200 --random-opening-plies 4 --seed 6621 --threads 1 \
    --agents "alphabeta:time_ms=20,alphabeta:time_ms=20,null_move=false" \
    --out $O/null-$V --resume
done
# Half Alice again at 100 ms a decision (deeper searches, where the null move cut more
# nodes to depth 8 than to depth 6).
$BIN tournament --variant half-alice --games 200 --random-opening-plies 4 --seed 6621 --threads 1 \
  --agents "alphabeta:time_ms=100,alphabeta:time_ms=100,null_move=false" \
  --out $O/null-half-alice-100 --resume
# Orthodox chess beside them, the same match at 20 ms (the null move's worth there).
$BIN tournament --variant chess --games 200 --random-opening-plies 4 --seed 6621 --threads 1 \
  --agents "alphabeta:time_ms=20,alphabeta:time_ms=20,null_move=false" \
  --out $O/null-chess --resume

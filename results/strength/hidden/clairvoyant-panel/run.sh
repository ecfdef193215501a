#!/bin/sh
# Issue 37: the Clairvoyant panel's four members (examples/panels/clairvoyant/panel.toml)
# rated inside Clairvoyant with the table they were confirmed on (the panel tune's
# lowest-loss point), in a round robin with the sampled-world alphabeta at 25 ms a move,
# the hidden-game panel's member rated at orthodox chess (1072 on epoch 3's scale), which
# carries its orthodox rating in as the anchor (issue 36's rule: a family keeps its
# orthodox rating as the anchor point). 100 games a pairing, 12 random opening decisions.
#   chesslab rate results/strength/hidden/clairvoyant-panel \
#     --anchor "pimc:search=alphabeta,worlds=10,time_ms=25=1072" \
#     --out results/strength/hidden/clairvoyant-panel/rate.md
set -e
BIN=${BIN:-target/release/chesslab}
$BIN tournament --variant clairvoyant --params results/clairvoyant/panel-tuned/lowest-loss.toml \
  --agents "clairvoyant:repeat=true,policy=value,clairvoyant:repeat=false,policy=value,clairvoyant:repeat=true,policy=value,depth=3,clairvoyant:repeat=true,policy=threshold,pimc:search=alphabeta,worlds=10,time_ms=25" \
  --games 100 --random-opening-plies 12 --seed 3700 --threads ${THREADS:-2} \
  --out results/strength/hidden/clairvoyant-panel --resume

#!/bin/sh
# Issue 66: each game's switch-on of the search (GameFacts::game_check, quiet_pruning,
# static_exchange) measured (1) by nodes to depth (benches/src/bin/switch_ons.rs, the same
# positions with the fact-gated switches on and off) and (2) by a self-play match at equal
# time: dev (this tree, built in) against base (the build of 23ccd1b, before the switches,
# through `chesslab ext-bot`), both `alphabeta:time_ms=20`, 100 games from 4 random plies,
# one game at a time. BASE names base's binary (build it from a worktree of 23ccd1b:
# docs/guide/strength.md). Games whose facts switch nothing on play the same search in both
# builds and are not matched.
set -e
BIN=${BIN:-target/quick/chesslab}
BASE=${BASE:?set BASE to the chesslab binary of commit 23ccd1b}
O=results/strength/variants/switch-ons
cargo build --profile quick -p benches --bin switch_ons
./target/quick/switch_ons $O/nodes-d3.csv 3 3
for V in half-alice crowded-house cassandra adrenaline; do
  $BIN tournament --variant $V --games 100 --random-opening-plies 4 --seed 6620 --threads 1 \
    --agents "alphabeta:time_ms=20,ext:cmd=$BASE ext-bot --variant $V --agent alphabeta%3Atime_ms=20" \
    --out $O/$V --resume
done

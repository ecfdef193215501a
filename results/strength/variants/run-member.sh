#!/bin/sh
# Issue 66: the strong member (`alphabeta:depth=64,nodes=100000`, 2104 [1994, 2233] on
# Stockfish's scale: ../member) against each perfect-information verdict row's player, 200
# games, one at a time, from the row's start in rows.tsv (the row player as run.sh plays it:
# by BASE through ext-bot where the row build is "base"). Node and depth budgets: the games
# are the same on any machine and at any load; timings.csv gives the member's cost per game.
set -e
BIN=${BIN:-target/quick/chesslab}
BASE=${BASE:-}
O=results/strength/variants
M="alphabeta:depth=64,nodes=100000"
for game in ${GAMES_LIST:-chess chess960 half-alice crowded-house cassandra adrenaline two-move synchronous}; do
  line=$(grep -v '^#' $O/rows.tsv | awk -F'\t' -v g=$game '$1 == g')
  variant=$(echo "$line" | cut -f2); start=$(echo "$line" | cut -f4); row=$(echo "$line" | cut -f5)
  build=$(echo "$line" | cut -f7)
  R=$row
  if [ "$build" = base ]; then
    R="ext:cmd=${BASE:?set BASE to the chesslab binary of commit 23ccd1b} ext-bot --variant $variant --agent $(echo "$row" | sed 's/:/%3A/g; s/,/%2C/g')"
  fi
  $BIN tournament --variant $variant $start --agents "$M,$R" --games 200 --seed 6660 \
    --threads 1 --out $O/$game/member --resume
done

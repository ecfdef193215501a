#!/bin/sh
# Issue 36/37: alphabeta depth 5 and 6 rated on epoch 3's scale: gauntlets against
# Stockfish 15.1 (UCI_LimitStrength, movetime 100) at UCI_Elo 1800 and 2000 from the level
# suite, as results/strength/epoch-3/run.sh plays depth 4. Then the joint fit over epoch 3's
# rating games and these (epoch 3's own rate.md is left as it is; the verdicts quote it):
#   chesslab rate results/strength/epoch-3 results/strength/depths --out results/strength/depths/rate.md
set -e
BIN=${BIN:-target/release/chesslab}
PATH="$PATH:/usr/games"
SF="uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true"
O=results/strength/depths
S=results/strength/search/openings-chess.txt
$BIN tournament --variant chess --gauntlet \
  --agents "$SF,option.UCI_Elo=1800,alphabeta:depth=5,alphabeta:depth=6" \
  --games 60 --openings $S --seed 1802 --threads ${THREADS:-2} --out $O/sf1800-gauntlet --resume
$BIN tournament --variant chess --gauntlet \
  --agents "$SF,option.UCI_Elo=2000,alphabeta:depth=4,alphabeta:depth=5,alphabeta:depth=6" \
  --games 60 --openings $S --seed 2002 --threads ${THREADS:-2} --out $O/sf2000-gauntlet --resume

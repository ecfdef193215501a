#!/bin/sh
# Session 7 (2026-11-25): more games for intervals near +-50 Elo, same scale as run.sh/run2.sh
# (Stockfish 15.1, UCI_LimitStrength, 100 ms a move, 4 random opening plies per pair).
# The agents are the balance runs' specs without evaluation noise; seeds differ from run2.sh.
SF="uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true"
BIN=${BIN:-./chesslab}
PATH="$PATH:/usr/games"
nice -n 5 $BIN tournament --variant chess --gauntlet \
  --agents "alphabeta:depth=3,$SF,option.UCI_Elo=1350,$SF,option.UCI_Elo=1800" \
  --games 160 --random-opening-plies 4 --seed 10 --threads 1 --out /work/strength/run4 --resume
nice -n 5 $BIN tournament --variant chess --gauntlet \
  --agents "alphabeta:depth=2,$SF,option.UCI_Elo=1350,alphabeta:depth=3" \
  --games 120 --random-opening-plies 4 --seed 11 --threads 1 --out /work/strength/run5 --resume

#!/bin/sh
# Session 7: MCTS at a second budget (10x the first run's), against the scale's floor and
# alphabeta depth 2 (itself measured at about the floor).
SF="uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true"
BIN=${BIN:-./chesslab}
PATH="$PATH:/usr/games"
nice -n 5 $BIN tournament --variant chess --gauntlet \
  --agents "mcts:iters=20000,cutoff=16,rollout=heavy,$SF,option.UCI_Elo=1350,alphabeta:depth=2" \
  --games 40 --random-opening-plies 4 --seed 12 --threads 1 --out /work/strength/run6 --resume

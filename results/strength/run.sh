#!/bin/sh
SF="uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true"
nice -n 5 ./chesslab-test tournament --variant chess \
  --agents "$SF,option.UCI_Elo=1350,$SF,option.UCI_Elo=1800,alphabeta:depth=3,mcts:iters=2000,cutoff=16,rollout=heavy" \
  --games 20 --random-opening-plies 4 --seed 7 --threads 1 --out /work/strength/run "$@"

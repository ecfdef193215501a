#!/bin/sh
SF="uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true"
nice -n 5 ./chesslab-test tournament --variant chess --gauntlet \
  --agents "alphabeta:depth=3,$SF,option.UCI_Elo=1350,$SF,option.UCI_Elo=1800" \
  --games 60 --random-opening-plies 4 --seed 8 --threads 1 --out /work/strength/run2
nice -n 5 ./chesslab-test tournament --variant chess --gauntlet \
  --agents "alphabeta:depth=2,$SF,option.UCI_Elo=1350,alphabeta:depth=3" \
  --games 40 --random-opening-plies 4 --seed 9 --threads 1 --out /work/strength/run3

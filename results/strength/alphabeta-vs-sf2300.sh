#!/bin/sh
# Issue 66's raised orthodox goal: alphabeta at 100 ms a move against Stockfish 15.1 at
# UCI_Elo 2300, movetime 100, 200 games (100 colour-swapped pairs) from the same chess opening
# suite as the UCI_Elo 2000 match, one thread. BIN names the chesslab binary that plays.
BIN=${BIN:-./target/quick/chesslab}
PATH="$PATH:/usr/games"
nice -n 5 $BIN tournament --variant chess \
  --agents "alphabeta:time_ms=100,uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true,option.UCI_Elo=2300" \
  --games 200 --openings results/strength/search/openings-chess.txt --seed 2300 --threads 1 \
  --out results/strength/alphabeta-vs-sf2300 --resume

#!/bin/sh
# Issue 36's goal: alphabeta at 100 ms a move against Stockfish 15.1 at UCI_Elo 2000,
# movetime 100, 200 games from the chess opening suite, one thread.
BIN=${BIN:-./target/debug/chesslab}
PATH="$PATH:/usr/games"
nice -n 5 $BIN tournament --variant chess \
  --agents "alphabeta:time_ms=100,uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true,option.UCI_Elo=2000" \
  --games 200 --openings results/strength/search/openings-chess.txt --seed 2000 --threads 1 \
  --out results/strength/alphabeta-vs-sf2000 --resume

#!/bin/sh
# Issue 66, "a reproducible strong member for verdict runs": `alphabeta:depth=64,nodes=100000`
# (a node budget, so its moves are the same on any machine and at any load) rated on
# Stockfish's scale in orthodox chess. Stockfish 15.1 (Debian's `stockfish`) with
# UCI_LimitStrength at movetime 100, one game at a time, from the level suite
# ../search/openings-chess.txt, the same anchors and conditions as ../epoch-6/run.sh; the fit
# joins these runs to generation 6's (the command at the end).
set -e
BIN=${BIN:-target/quick/chesslab}
PATH="$PATH:/usr/games"
SF="uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true"
M="alphabeta:depth=64,nodes=100000"
O=results/strength/member
S=results/strength/search/openings-chess.txt
$BIN tournament --variant chess --agents "$M,$SF,option.UCI_Elo=2000" \
  --games 100 --openings $S --seed 6601 --threads 1 --out $O/n100k-vs-sf2000 --resume
$BIN tournament --variant chess --agents "$M,$SF,option.UCI_Elo=1800" \
  --games 60 --openings $S --seed 6602 --threads 1 --out $O/n100k-vs-sf1800 --resume
E4=results/strength/epoch-4
E6=results/strength/epoch-6
$BIN rate $E4/sf1350-gauntlet $E4/sf1800-gauntlet $E4/d1-vs-sf1350 $E4/families \
  $E6/ab100-vs-sf2000 $E6/ab100-vs-sf1800 $E6/families-2 $E6/pimc-d2 \
  $O/n100k-vs-sf2000 $O/n100k-vs-sf1800 --out $O/rate.md

#!/bin/sh
# Issue 36, "One rating scale": generation 6 of the agents (agents::EPOCH = 6): generation 4's
# search and evaluation, about 1.5 times faster in orthodox chess with the same tree at every
# depth and node budget (agents/src/lib.rs). Only players that search by time play differently,
# so only the runs of ../epoch-4/run.sh whose players search by time are played again here, with
# the same seeds, against Stockfish 15.1 (Debian's `stockfish`) with UCI_LimitStrength, movetime
# 100, orthodox chess, from the level suite ../search/openings-chess.txt. This run played one game
# at a time per command, the two commands side by side on the 2-core machine (as epoch-4's two
# games at a time), from a release build of the generation-6 tree (BIN names the binary).
# `pimc-d2` plays epoch-4's depth-budget round robin again to show generation 6 plays generation
# 4's moves there (its games.csv equals ../epoch-4/pimc-d2/games.csv; see README.md).
# The three runs by time were played by /tmp/chesslab-e6, the first cut of generation 6 (the same
# tree; README.md); pimc-d2 and the fit by the committed tree.
set -e
BIN=${BIN:-target/release/chesslab}
PATH="$PATH:/usr/games"
SF="uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true"
O=results/strength/epoch-6
S=results/strength/search/openings-chess.txt
$BIN tournament --variant chess --agents "alphabeta:time_ms=100,$SF,option.UCI_Elo=2000" \
  --games 200 --openings $S --seed 2000 --threads 1 --out $O/ab100-vs-sf2000 --resume &
(
$BIN tournament --variant chess --agents "alphabeta:time_ms=100,$SF,option.UCI_Elo=1800" \
  --games 60 --openings $S --seed 1801 --threads 1 --out $O/ab100-vs-sf1800 --resume
$BIN tournament --variant chess \
  --agents "alphabeta:depth=1,greedy,pimc:search=alphabeta,worlds=10,time_ms=25,pimc:search=alphabeta,worlds=2,time_ms=25,ismcts:time_ms=25,expectimax:depth=3,order=true,quiescence=true" \
  --games 40 --openings $S --seed 3001 --threads 1 --out $O/families-2 --resume
)
wait
$BIN tournament --variant chess \
  --agents "alphabeta:depth=1,alphabeta:depth=2,alphabeta:depth=3,pimc:search=alphabeta,depth=2,quiescence=true,worlds=6" \
  --games 40 --openings $S --seed 3002 --threads ${THREADS:-2} --out $O/pimc-d2 --resume
# The fit: the depth- and iteration-budget runs of epoch-4 (generation 6 plays their games move
# for move) with this folder's runs.
E4=results/strength/epoch-4
$BIN rate $E4/sf1350-gauntlet $E4/sf1800-gauntlet $E4/d1-vs-sf1350 $E4/families \
  $O/ab100-vs-sf2000 $O/ab100-vs-sf1800 $O/families-2 $O/pimc-d2 --out $O/rate.md

#!/bin/sh
# The same search inside chesslab's runner and behind `chesslab uci` (session of
# 2026-11-29, after `chesslab uci` began searching once per `go` and keeping its agent
# between moves): 50 ms a move, 100 games from the suite, release build. Before the fix
# the built-in agent scored 9/10 against the wrapper. Run from the project root.
BIN=${BIN:-./target/release/chesslab}
BOOK=results/strength/search/openings-chess.txt
export CHESSLAB_BIN=$BIN
$BIN tournament --variant chess \
  --agents "alphabeta:time_ms=50,uci:cmd=results/strength/search/chesslab-uci.sh,movetime=50" \
  --games 100 --openings $BOOK --seed 40 --threads 2 --out results/strength/search/uci-50ms --resume

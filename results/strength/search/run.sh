#!/bin/sh
# Issue 36 measurements (session of 2026-11-27). BIN: the chesslab binary
# (test-profile build: cargo build --profile test -p experiments --bin chesslab).
BIN=${BIN:-./target/debug/chesslab}
PATH="$PATH:/usr/games"
BOOK=results/strength/search/openings-chess.txt
PLAIN="pvs=false,aspiration=false,null_move=false,lmr=false,check_extension=false"
# 1. Search features at equal time: all on against all off (same evaluation).
nice -n 5 $BIN tournament --variant chess --agents "alphabeta:time_ms=50,alphabeta:time_ms=50,$PLAIN" \
  --games 40 --openings $BOOK --seed 36 --threads 1 --out results/strength/search/features-50ms --resume
# 2. The new evaluation against the old one at equal time (both with every search feature).
nice -n 5 $BIN tournament --variant chess --agents "alphabeta:time_ms=50,alphabeta:time_ms=50,eval=results/strength/search/classic.toml" \
  --games 40 --openings $BOOK --seed 37 --threads 1 --out results/strength/search/eval-50ms --resume

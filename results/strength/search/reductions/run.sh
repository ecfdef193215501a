#!/bin/sh
# Issue 36, 2026-12-06: three reductions that read the node, `alphabeta`'s opt-in switches
# `iir`, `lmr_adaptive` and `null_adaptive` (agents/src/alphabeta/search.rs), measured at
# equal time in orthodox chess, release build, from the suite ../openings-chess.txt, two
# games at a time on the 2-core machine. Run from the repository root; BIN names the
# binary. With today's build the three are off unless given, so the commands below name
# them. Two of the kept runs were played by commit 2e8ea2d, where they were on by default
# (their records name `alphabeta:time_ms=...` for the player with them and
# `...,iir=false,lmr_adaptive=false,null_adaptive=false` for the one without, and say
# agents_epoch 5): the same players as the commands below give.
BIN=${BIN:-./target/release/chesslab}
BOOK=results/strength/search/openings-chess.txt
R=results/strength/search/reductions
ON="iir=true,lmr_adaptive=true,null_adaptive=true"
SF="uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true,option.UCI_Elo=2000"
PATH="$PATH:/usr/games"
# Self-play, all three on against all off, 50 ms a move, 200 games (100 colour-swapped
# pairs). Played twice: once while the test suite compiled beside it
# (selfplay-50ms-loaded, this build's spelling), once on the idle machine (selfplay-50ms,
# by 2e8ea2d, the same seed).
$BIN tournament --variant chess --agents "alphabeta:time_ms=50,$ON,alphabeta:time_ms=50" \
  --games 200 --openings $BOOK --seed 40 --threads 2 --out $R/selfplay-50ms-loaded --resume
$BIN tournament --variant chess --agents "alphabeta:time_ms=50,$ON,alphabeta:time_ms=50" \
  --games 200 --openings $BOOK --seed 40 --threads 2 --out $R/selfplay-50ms --resume
# Against Stockfish 15.1 at UCI_Elo 2000, 100 ms a move, 200 games, the seed and suite of
# ../../epoch-4/ab100-vs-sf2000 (by 2e8ea2d, idle machine).
$BIN tournament --variant chess --agents "alphabeta:time_ms=100,$ON,$SF" \
  --games 200 --openings $BOOK --seed 2000 --threads 2 --out $R/ab100-vs-sf2000 --resume

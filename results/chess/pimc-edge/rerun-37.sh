#!/bin/sh
# Issue 37: the hidden-game panel's own orthodox games of its strongest member
# (results/time/panel/chess/pimc-ab-25ms: seed 37, 8 random opening plies, 200 games)
# played again with the same command on a known load, to tell whether load or chance made
# them disagree with this folder's seed-38 games. The same seed gives the same game seeds
# and openings (checked: the first pair's seeds match); the moves differ, since the agent
# plays by time. Session 26: one thread, beside one deterministic balance run (two busy
# processes on the 2-core machine, as the seed-38 run's two games at a time). Run from the
# repository root.
set -e
BIN=${BIN:-target/release/chesslab}
A="pimc:search=alphabeta,worlds=10,time_ms=25"
$BIN balance --variant chess --agents "$A,$A" --games 200 --random-opening-plies 8 \
  --seed 37 --threads ${THREADS:-1} --out results/chess/pimc-edge/seed-37

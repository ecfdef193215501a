#!/bin/sh
# Issue 36, "a better evaluation ... tuned from self-play positions (Texel's method)":
# 1. Games with informative results: Stockfish 15.1 (Debian's `stockfish`) against itself
#    at UCI_Elo 2000 and 2100, movetime 20, from the chess level suite (interrupted at
#    1575 of 2400 games).
# 2. `chesslab texel` on those games: the 15 weights of agents/data/eval (sf.toml), and
#    on the lab's own depth-3/4 self-play for comparison (selfplay.toml).
# 3. The tuned weights at 100 ms a move against Stockfish at UCI_Elo 2000, the same 200
#    openings, seed and threads as ../epoch-3/ab100-vs-sf2000 (the default weights).
# Run from the repository root; BIN names the binary (the release build).
set -e
BIN=${BIN:-target/release/chesslab}
PATH="$PATH:/usr/games"
O=results/strength/texel
S=results/strength/search/openings-chess.txt
# Step 1 was stopped by hand (Ctrl-C) at 1575 of 2400 games, enough positions; run again
# it would play the other 825 (Stockfish's weakening is not seeded) and change the fit, so
# it stays commented out:
# $BIN tournament --variant chess \
#   --agents "uci:cmd=stockfish,movetime=20,option.UCI_LimitStrength=true,option.UCI_Elo=2000,uci:cmd=stockfish,movetime=20,option.UCI_LimitStrength=true,option.UCI_Elo=2100" \
#   --games 2400 --openings $S --seed 4242 --threads 2 --out $O/sf-2000-2100 --resume
$BIN texel --from $O/sf-2000-2100/games.csv --out $O/sf.toml > $O/sf.txt
$BIN texel --from results/values/chess-ladder/alphabeta-depth-3-noise-10/games.csv \
  results/values/chess-ladder/alphabeta-depth-4-noise-10/games.csv \
  results/chess/panel/ab-d3/games.csv results/chess/panel/ab-d2/games.csv \
  --out $O/selfplay.toml > $O/selfplay.txt
$BIN tournament --variant chess \
  --agents "alphabeta:time_ms=100,eval=$O/sf.toml,uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true,option.UCI_Elo=2000" \
  --games 200 --openings $S --seed 2000 --threads 2 --out $O/sf-tuned-vs-sf2000 --resume

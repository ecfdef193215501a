#!/bin/sh
# Issue 36, session 23: the piece-square tables (all 768 bonuses) fitted to Stockfish's
# scores, and the king attack term, each measured in self-play at depth 4 against the
# search's own weights (deterministic: the same games on any machine and load).
# Run from the repository root; BIN names the binary (the release build).
set -e
BIN=${BIN:-target/release/chesslab}
PATH="$PATH:/usr/games"
T=results/strength/texel
O=$T/tables
S=results/strength/search/openings-chess.txt
# 1. Positions (about 15 minutes on 2 cores; Stockfish 15.1 at depth 8 through
#    python-chess): every seventh quiet position of the lab's recorded orthodox games
#    (the generation-3 rated panel, the depth 1-4 ladder, the generation-3 strength runs)
#    and of Stockfish's own games at UCI_Elo 2000/2100. Kept as $T/positions.csv.
# python3 scripts/label-positions.py --out $T/positions.csv --every 7 --jobs 2 \
#   results/two-move/panel/chess/ab-d*/games.csv results/values/chess-ladder/*/games.csv \
#   results/strength/epoch-3/*/games.csv $T/sf-2000-2100/games.csv
# 2. The fits, one per ridge.
for l in 1e-5 1e-4 3e-4 1e-3; do
  $BIN texel-tables --positions $T/positions.csv --lambda $l --steps 8 --out $O/fit-$l.toml > $O/fit-$l.txt
done
# 3. Each against the search's own weights, 200 games at depth 4 from the level suite.
for l in 1e-5 1e-4 3e-4 1e-3; do
  $BIN tournament --variant chess --agents "alphabeta:depth=4,eval=$O/fit-$l.toml,alphabeta:depth=4" \
    --games 200 --openings $S --seed 5 --threads 1 --out $O/d4-fit-$l
done
$BIN tournament --variant chess --agents "alphabeta:depth=4,eval.king_attack=0.003,alphabeta:depth=4" \
  --games 200 --openings $S --seed 5 --threads 1 --out $O/d4-king-attack
# 4. The best-looking fit again, 1000 fresh games: the level suite of the rated panel and
#    evaluation noise on both sides, so that no game repeats.
$BIN tournament --variant chess \
  --agents "alphabeta:depth=4,noise=10,eval=$O/fit-1e-4.toml,alphabeta:depth=4,noise=10" \
  --games 1000 --openings results/openings/chess.txt --seed 6 --threads 1 --out $O/d4-fit-1e-4-confirm
# 5. The goal's match with the fitted tables: 100 ms a move against Stockfish UCI_Elo 2000,
#    the same openings, seed and threads as ../../epoch-3/ab100-vs-sf2000 (the idle
#    2-core machine; Stockfish's weakening is not seeded, so a rerun differs).
$BIN tournament --variant chess \
  --agents "alphabeta:time_ms=100,eval=$O/fit-1e-4.toml,uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true,option.UCI_Elo=2000" \
  --games 200 --openings $S --seed 2000 --threads 2 --out $O/ab100-fit-vs-sf2000 --resume

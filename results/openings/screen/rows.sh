#!/bin/sh
# Issue 67: each run of the Two Move and Synchronous verdicts (results/chess/depths/pool.md)
# reported again without the games from openings the lab's screen flagged in its book
# (chesslab report --exclude-openings), into results/openings/screen/rows/<run>/; then the
# pooled verdicts (rows.py, the method of pool.py). Run from the repository root after run.sh.
set -e
BIN=${BIN:-target/quick/chesslab}
S=results/openings/screen
while read -r run book; do
  name=$(echo "$run" | sed 's|^results/||; s|/|-|g')
  mkdir -p "$S/rows/$name"
  $BIN report --games "$run/games.csv" --exclude-openings "$S/$book.lab.flagged.txt" \
    --out "$S/rows/$name/report.md" --force
done <<RUNS
results/two-move/panel/chess/ab-d3 chess
results/chess/depths/ab-d3 chess
results/chess/depths/ab-d3-book chess-2000
results/two-move/panel/ab-d3 two-move
results/two-move/d3-2000 two-move
results/two-move/d3-book two-move-1000
results/synchronous/panel/ab-d3 synchronous
results/synchronous/d3-2000 synchronous
results/synchronous/d3-book synchronous-1000
RUNS
python3 $S/rows.py > $S/rows.md

#!/bin/sh
# Issue 67: the Tar Pit seed's "more predictable with fewer checkers" measured as how well the
# material on the board predicts the result (cross-validated log loss, `chesslab values`'
# cv.csv), from the kept handicap runs of both players and two runs played for the question;
# then summary.csv (summarize.py).
set -e
BIN=${BIN:-target/quick/chesslab}
H=results/tar-pit/handicaps
O=$H/predictability
# Played for this question (session 34) by a build whose 25 ms are kept (the kept pimc runs
# were played when that player overspent its time by 1.3-1.6x, results/budgets): four
# checkers each, and the seed setting again for comparison.
P="pimc:search=alphabeta,worlds=10,time_ms=25,pimc:search=alphabeta,worlds=10,time_ms=25"
$BIN balance --variant tar-pit --agents "$P" --params $H/both-4-checkers.toml --games 200 \
  --seed 1 --threads 1 --out $H/pimc/both-4-checkers --resume
$BIN balance --variant tar-pit --agents "$P" --params $H/seed.toml --games 200 \
  --seed 1 --threads 1 --out $H/pimc/seed-budgeted --resume
while read -r run params; do
  name=$(echo "$run" | tr / -)
  $BIN values --variant tar-pit --params $H/$params --from $H/$run/games.csv --out $O/$name \
    --bootstrap 50 --force
done <<LIST
pimc/checkers/a seed.toml
pimc/checkers/b white-4-checkers.toml
pimc/white-2-checkers white-2-checkers.toml
pimc/no-checker-cards no-checker-cards.toml
pimc/both-4-checkers both-4-checkers.toml
pimc/seed-budgeted seed.toml
checkers/a seed.toml
checkers/b white-4-checkers.toml
white-2-checkers white-2-checkers.toml
no-checker-cards no-checker-cards.toml
LIST
python3 $O/summarize.py

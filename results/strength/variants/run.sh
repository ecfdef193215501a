#!/bin/sh
# Issue 66: per game, the best player against the player its verdict row rests on, at equal
# time. Where the row player searches by time, the best player gets the same `time_ms`;
# otherwise step 1 measures the row player's mean wall time per decision over 10 self-play games
# (one at a time, by the build that plays it); step 2 gives the best player that time as its `time_ms` (rounded up
# to 0.01 ms) and plays 200 games (100 colour-swapped pairs) against the row player, one at a
# time. Rows: rows.tsv. Cooperative (one team) is played apart at the end: mean team score
# of each team over the same 200 deals. BIN names the binary (this tree). Rows whose row build
# is "base" (the games whose search switches changed: Half Alice, Crowded House, Adrenaline)
# play the row player by BASE, the build of commit 23ccd1b, through `chesslab ext-bot` (which
# cannot take an opening book: those rows start from 8 random plies; the best player's time is
# then measured apart, in best-timing/); elsewhere today's build
# plays the row player, with the variants' hand-set weights named (`eval=`) so that a fitted
# evaluation adopted later does not change it.
set -e
BIN=${BIN:-target/quick/chesslab}
O=results/strength/variants
GAMES=${GAMES:-200}
ONLY=${1:-}
BASE=${BASE:-}
grep -v '^#' $O/rows.tsv | while IFS="$(printf '\t')" read -r game variant params start row best build; do
  [ -n "$ONLY" ] && [ "$ONLY" != "$game" ] && continue
  P=""; [ "$params" != "-" ] && P="--params $params"
  mkdir -p $O/$game
  # A row player by time: the best player gets the same budget (not the measured mean).
  RT=$(echo "$row" | sed -n 's/.*time_ms=\([0-9.]*\).*/\1/p')
  [ -n "$RT" ] && [ ! -f $O/$game/row-ms.txt ] && echo "$RT" > $O/$game/row-ms.txt
  if [ ! -f $O/$game/row-ms.txt ]; then
    rm -rf $O/$game/timing
    RB=$BIN; [ "$build" = base ] && RB=${BASE:?set BASE to the chesslab binary of commit 23ccd1b}
    $RB tournament --variant $variant $P $start --agents "$row,$row" --games 10 --seed 6630 \
      --threads 1 --out $O/$game/timing >/dev/null 2>&1
    python3 - "$O/$game/timing/timings.csv" "$variant" > $O/$game/row-ms.txt <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
secs = sum(float(r["seconds"]) for r in rows)
plies = sum(int(r["plies"]) for r in rows)
# Simultaneous games record one ply per joint action, decided by both seats.
per_ply = 2 if sys.argv[2] in ("two-move", "synchronous") else 1
# Rounded up to a hundredth of a millisecond (whole milliseconds, at least 1, before
# session 35: the rows whose row-ms.txt holds a whole number were measured so).
ms = max(0.01, math.ceil(secs * 100_000 / (plies * per_ply)) / 100)
print(("%.2f" % ms).rstrip("0").rstrip("."))
PY
  fi
  T=$(cat $O/$game/row-ms.txt)
  B=$(echo "$best" | sed "s/time_ms=T/time_ms=$T/")
  R=$row
  if [ "$build" = base ]; then
    R="ext:cmd=$BASE ext-bot --variant $variant --agent $(echo "$row" | sed 's/:/%3A/g; s/,/%2C/g')"
  fi
  $BIN tournament --variant $variant $P $start --agents "$B,$R" --games $GAMES --seed 6640 \
    --threads 1 --out $O/$game/match --resume
  # The match's timings cannot tell the two players' times apart (through ext-bot the row
  # player's decisions also carry the protocol's cost, and a depth player's time moves with
  # the machine's load): the best player's own time is measured as the row player's was,
  # by 10 self-play games (table.py reads best-timing/).
  if [ ! -f $O/$game/best-timing/timings.csv ]; then
    rm -rf $O/$game/best-timing
    $BIN tournament --variant $variant $P $start --agents "$B,$B" --games 10 --seed 6630 \
      --threads 1 --out $O/$game/best-timing >/dev/null 2>&1
  fi
done
# Cooperative: no opponent; each team plays the same 200 deals (seed 6650), hand of three:
# the verdict's ISMCTS team and PIMC over UCT at the same time (alpha-beta searches two
# sides, and Cooperative's two seats are one team, so PIMC over alpha-beta cannot play it).
if [ -z "$ONLY" ] || [ "$ONLY" = cooperative ]; then
  for team in "ismcts:time_ms=25" "pimc:worlds=10,time_ms=25"; do
    name=$(echo "$team" | cut -d: -f1)
    $BIN tournament --variant cooperative --agents "$team,$team" --games $GAMES --seed 6650 \
      --threads 1 --out $O/cooperative/$name --resume
  done
fi

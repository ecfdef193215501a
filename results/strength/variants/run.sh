#!/bin/sh
# Issue 66: per game, the best player against the player its verdict row rests on, at equal
# time. Step 1 measures the row player's mean wall time per decision over 10 self-play games
# (one at a time); step 2 gives the best player that time as its `time_ms` (rounded up, at
# least 1) and plays 200 games (100 colour-swapped pairs) against the row player, one at a
# time. Rows: rows.tsv. Cooperative (one team) is played apart at the end: mean team score
# of each team over the same 200 deals. BIN names the binary.
set -e
BIN=${BIN:-target/quick/chesslab}
O=results/strength/variants
GAMES=${GAMES:-200}
ONLY=${1:-}
grep -v '^#' $O/rows.tsv | while IFS="$(printf '\t')" read -r game variant params start row best; do
  [ -n "$ONLY" ] && [ "$ONLY" != "$game" ] && continue
  P=""; [ "$params" != "-" ] && P="--params $params"
  mkdir -p $O/$game
  if [ ! -f $O/$game/row-ms.txt ]; then
    rm -rf $O/$game/timing
    s=$(date +%s.%N)
    $BIN tournament --variant $variant $P $start --agents "$row,$row" --games 10 --seed 6630 \
      --threads 1 --out $O/$game/timing >/dev/null 2>&1
    e=$(date +%s.%N)
    python3 - "$O/$game/timing/games.csv" "$s" "$e" "$variant" > $O/$game/row-ms.txt <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
plies = sum(int(r["plies"]) for r in rows)
# Simultaneous games record one ply per joint action, decided by both seats.
per_ply = 2 if sys.argv[4] in ("two-move", "synchronous") else 1
ms = (float(sys.argv[3]) - float(sys.argv[2])) * 1000 / (plies * per_ply)
print(max(1, math.ceil(ms)))
PY
  fi
  T=$(cat $O/$game/row-ms.txt)
  B=$(echo "$best" | sed "s/time_ms=T/time_ms=$T/")
  $BIN tournament --variant $variant $P $start --agents "$B,$row" --games $GAMES --seed 6640 \
    --threads 1 --out $O/$game/match --resume
done
# Cooperative: no opponent; each team plays the same 200 deals (seed 6650), hand of three.
if [ -z "$ONLY" ] || [ "$ONLY" = cooperative ]; then
  for team in "ismcts:time_ms=25" "pimc:search=alphabeta,worlds=10,time_ms=25"; do
    name=$(echo "$team" | cut -d: -f1)
    $BIN tournament --variant cooperative --agents "$team,$team" --games $GAMES --seed 6650 \
      --threads 1 --out $O/cooperative/$name --resume
  done
fi

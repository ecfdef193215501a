#!/bin/sh
# Issue 37: a hidden-game player at the level where orthodox White's edge shows. The
# sampled-world alphabeta at a fixed depth (`pimc:search=alphabeta,depth=2,
# quiescence=true,worlds=6`: six worlds drawn from the exact belief, each searched two
# plies and captures, the move with the best mean) plays orthodox chess (where every
# world is the true position, so it is alphabeta depth 2 with quiescence and no noise) and
# the hidden games Time, Zombie, Tar Pit and secret Cassandra, all from 8 random opening
# plies as the hidden panel (examples/panels/hidden-strong.toml) does, seed 40. A fixed
# depth makes every game reproducible for its seed whatever the machine's load (the
# panel's 25 ms members are not). In orthodox chess the agent is deterministic and plays
# both sides, so the two games of a colour-swapped pair are one game. Run from the
# repository root; STEPS="chess time" runs some of the steps (zombie's 1000 games were
# played as 400, then continued with --resume; the games are the same).
set -e
BIN=${BIN:-target/release/chesslab}
A="pimc:search=alphabeta,depth=2,quiescence=true,worlds=6"
T=${THREADS:-2}
for step in ${STEPS:-chess time zombie tar-pit cassandra rate}; do
  case $step in
  chess) $BIN balance --variant chess --agents "$A,$A" --games 2000 --random-opening-plies 8 \
    --seed 40 --threads $T --out results/chess/pimc-d2/chess ;;
  time) $BIN balance --variant time --agents "$A,$A" --games 400 --random-opening-plies 8 \
    --seed 40 --threads $T --out results/time/pimc-d2 ;;
  zombie) $BIN balance --variant zombie --agents "$A,$A" --games 1000 --random-opening-plies 8 \
    --seed 40 --threads $T --out results/zombie/pimc-d2 ;;
  rate) $BIN tournament --variant chess \
    --agents "alphabeta:depth=1,alphabeta:depth=2,alphabeta:depth=3,$A" --games 40 \
    --openings results/strength/search/openings-chess.txt --seed 3002 --threads $T \
    --out results/strength/hidden/pimc-d2
    $BIN rate results/strength/epoch-3 results/strength/hidden/pimc-d2 --variant chess \
      --out results/strength/hidden/pimc-d2/rate.md ;;
  tar-pit) $BIN balance --variant tar-pit --agents "$A,$A" --games 200 --random-opening-plies 8 \
    --seed 40 --threads $T --out results/tar-pit/pimc-d2 ;;
  cassandra) $BIN balance --variant cassandra --params results/strength/hidden/cassandra-secret.toml \
    --agents "$A,$A" --games 200 --random-opening-plies 8 --seed 40 --threads $T \
    --out results/cassandra/secret-pimc-d2 ;;
  esac
done

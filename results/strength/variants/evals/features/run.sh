#!/bin/bash
# A game's own features as evaluation terms (issue 66): README.md beside this file.
# Run from the repository root after
#   cargo build --profile quick -p experiments --bin chesslab
# For each game: a `chesslab values` fit of its games (the logit coefficients of its own
# features), an eval file = the game's search weights today + `[features]` (compose.py),
# and a 200-game match (colour-swapped pairs, seed 6610, one thread) of the same player
# with each file, as results/strength/variants/evals/run.sh plays its matches.
set -euo pipefail
C=${CHESSLAB:-target/quick/chesslab}
F=results/strength/variants/evals/features
GAMES=${GAMES:-200}
# FACTOR multiplies every feature weight; its runs go to eval-FACTOR.toml and
# match-FACTOR/ (the sensitivity runs: FACTOR=0.5).
FACTOR=${FACTOR:-1}
SUFFIX=
if [ "$FACTOR" != 1 ]; then SUFFIX=-$FACTOR; fi

fit() { # VARIANT GAMES_CSV
  if [ -e "$F/$1/values/values.csv" ]; then return; fi
  "$C" values --variant "$1" --from "$2" --bootstrap 200 --out "$F/$1/values" --force
}

compose() { # VARIANT BASE VALUES_CSV
  python3 "$F/compose.py" "$2" "$3" "$F/$1/eval$SUFFIX.toml" "$FACTOR"
}

match() { # VARIANT BASE PLAYER [OPTIONS...]
  local v=$1 base=$2 p=$3
  shift 3
  "$C" tournament --variant "$v" --agents "$p,eval=$F/$v/eval$SUFFIX.toml,$p,eval=$base" \
    --games "$GAMES" --seed 6610 --threads 1 "$@" --out "$F/$v/match$SUFFIX" --resume
  "$C" report --games "$F/$v/match$SUFFIX/games.csv"
}

CHESS=agents/data/eval/chess.toml
AB=alphabeta:depth=2
PIMC2=pimc:search=alphabeta,depth=2,quiescence=true,worlds=6
PIMC1=pimc:search=alphabeta,depth=1,quiescence=true,worlds=4

for v in ${GAMES_TO_PLAY:-adrenaline half-alice zombie tar-pit}; do
  case $v in
  adrenaline)
    # Checkers and carriers, fitted on the balance run (alphabeta depth 2 with noise).
    mkdir -p $F/adrenaline
    compose adrenaline $CHESS results/values/adrenaline/features/values.csv
    match adrenaline $CHESS $AB --openings results/openings/adrenaline.txt
    ;;
  half-alice)
    # Pieces on the mirror side, on top of Half Alice's own fitted weights.
    mkdir -p $F/half-alice
    compose half-alice agents/data/eval/half-alice.toml results/values/half-alice/values.csv
    match half-alice agents/data/eval/half-alice.toml $AB --openings results/openings/half-alice.txt
    ;;
  zombie)
    # Zombies and the graveyard, fitted on the sampled-world alphabeta's 1000 games.
    fit zombie results/zombie/pimc-d2/games.csv
    compose zombie $CHESS $F/zombie/values/values.csv
    match zombie $CHESS $PIMC2 --random-opening-plies 8
    ;;
  tar-pit)
    # Tarred pieces and checkers in front, fitted on the sampled-world alphabeta's games.
    fit tar-pit results/tar-pit/pimc-d2/games.csv
    compose tar-pit $CHESS $F/tar-pit/values/values.csv
    match tar-pit $CHESS $PIMC1 --random-opening-plies 8
    ;;
  *)
    echo "unknown game '$v'" >&2
    exit 2
    ;;
  esac
done

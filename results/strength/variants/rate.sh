#!/bin/sh
# Issue 66: every row's match on one scale per game with `chesslab rate` (joint
# Bradley-Terry, bootstrap intervals over games). Each game is anchored at its row player's
# orthodox rating of generation 6 (experiments/src/stats/strength.rs; the evaluation noise
# and the named hand-set weights, `eval=agents/data/eval/chess.toml`, are the same player
# there); the rows played through ext-bot by the base build (23ccd1b, generation 6) are
# depth 3 (1689). Clairvoyant's `clairvoyant` plays no orthodox chess: it is anchored at its
# rating inside Clairvoyant Chess, 1323 (results/strength/hidden/clairvoyant-panel).
# Cooperative has no opponent (team scores, not ratings) and is not rated.
set -e
BIN=${BIN:-target/quick/chesslab}
O=results/strength/variants
D3=1689
$BIN rate $(ls -d $O/*/match) --bootstrap 200 --seed 66 --out $O/rate.md --force \
  --anchor "alphabeta:depth=3=$D3" \
  --anchor "alphabeta:depth=2,noise=10=1401" \
  --anchor "ext:cmd=/tmp/chesslab-member ext-bot --variant half-alice --agent alphabeta%3Adepth=3=$D3" \
  --anchor "ext:cmd=/tmp/chesslab-member ext-bot --variant crowded-house --agent alphabeta%3Adepth=3=$D3" \
  --anchor "ext:cmd=/tmp/chesslab-member ext-bot --variant adrenaline --agent alphabeta%3Adepth=3=$D3" \
  --anchor "alphabeta:depth=3,eval=agents/data/eval/chess.toml=$D3" \
  --anchor "expectimax:depth=3,order=true,quiescence=true,eval=agents/data/eval/chess.toml=1328" \
  --anchor "pimc:search=alphabeta,depth=2,quiescence=true,worlds=6,eval=agents/data/eval/chess.toml=1437" \
  --anchor "pimc:search=alphabeta,worlds=10,time_ms=25,eval=agents/data/eval/chess.toml=933" \
  --anchor "clairvoyant=1323"

#!/bin/sh
# Issue 36, part 4: the sampled-world alphabeta (pimc:search=alphabeta) against today's
# best hidden-game agent, ismcts with its old defaults named (rollout=random,cutoff=0),
# at equal time per move (time_ms=100 each), on two hidden-information games. Small
# runs: the machine was shared by five helpers and background runs on 2 cores.
# Run from the repository root; CHESSLAB names the binary (the test-profile build).
set -e
B=${CHESSLAB:-target/debug/chesslab}
GAMES=${GAMES:-40}
AGENTS="pimc:search=alphabeta,worlds=10,time_ms=100,ismcts:rollout=random,cutoff=0,time_ms=100"
if [ -z "${PART:-}" ]; then
$B tournament --variant masquerade --params results/masquerade/random-assignment.toml \
  --agents "$AGENTS" --games "$GAMES" --seed 36 --threads 1 \
  --out results/strength/hidden/masquerade
$B tournament --variant time --agents "$AGENTS" --games "$GAMES" --seed 36 --threads 1 \
  --out results/strength/hidden/time
fi
# The new ismcts defaults (heavy playouts, cutoff 16) against the old, Masquerade only
# (run with PART=defaults).
if [ "${PART:-}" = defaults ]; then
  $B tournament --variant masquerade --params results/masquerade/random-assignment.toml \
    --agents "ismcts:time_ms=100,ismcts:rollout=random,cutoff=0,time_ms=100" \
    --games "$GAMES" --seed 36 --threads 1 --out results/strength/hidden/ismcts-defaults
fi
# The sampled-world alphabeta against ISMCTS with its new defaults, both games
# (run with PART=best).
if [ "${PART:-}" = best ]; then
  BEST="pimc:search=alphabeta,worlds=10,time_ms=100,ismcts:time_ms=100"
  $B tournament --variant masquerade --params results/masquerade/random-assignment.toml \
    --agents "$BEST" --games "$GAMES" --seed 37 --threads 1 \
    --out results/strength/hidden/best-masquerade
  $B tournament --variant time --agents "$BEST" --games "$GAMES" --seed 37 --threads 1 \
    --out results/strength/hidden/best-time
fi

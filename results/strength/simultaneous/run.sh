#!/bin/sh
# Issue 36/37, the simultaneous-move games: who plays Two Move and Synchronous best, on
# one scale. A round robin of four agents, GAMES (100) games per pairing from each
# game's opening suite, seed 38, one thread per run (two agents play by time):
#   alphabeta:depth=3,noise=10  the rated panel's strongest member (1581 at orthodox
#                               chess), here solving each simultaneous choice as a
#                               one-turn matrix game (agents/src/alphabeta/matrix.rs)
#   alphabeta:time_ms=25        the same search by time
#   smmcts:time_ms=25           simultaneous-move MCTS at the same time
#   smmcts:iters=100,cutoff=10  the player of the earlier Two Move and Synchronous
#                               verdicts (-397 at orthodox chess)
# Run from the repository root on an otherwise idle machine; CHESSLAB names the binary
# (the release build); ONLY="synchronous" plays one game. Fit afterwards, anchoring the
# depth-3 member at its orthodox rating:
#   chesslab rate results/strength/simultaneous --anchor "alphabeta:depth=3,noise=10=1581" \
#     --out results/strength/simultaneous/rate.md
set -e
B=${CHESSLAB:-target/release/chesslab}
GAMES=${GAMES:-100}
O=results/strength/simultaneous
AGENTS="alphabeta:depth=3,noise=10,alphabeta:time_ms=25,smmcts:time_ms=25,smmcts:iters=100,cutoff=10"
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
for v in two-move synchronous; do
  wanted "$v" || continue
  $B tournament --variant "$v" --agents "$AGENTS" --games "$GAMES" \
    --openings "results/openings/$v.txt" --seed 38 --threads 1 --out "$O/$v"
done

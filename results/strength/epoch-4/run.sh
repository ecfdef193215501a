#!/bin/sh
# Issue 36, "One rating scale": generation 4 of the agents (agents::EPOCH = 4: the fitted orthodox tables of
# agents/data/eval/orthodox.toml are the search's default in orthodox chess), the same commands as
# ../epoch-3/run.sh, against Stockfish 15.1
# (Debian's `stockfish`) with UCI_LimitStrength, movetime 100, orthodox chess, from the
# level suite ../search/openings-chess.txt, one engine thread per game, THREADS games at a time (2) on the
# 2-core machine. The runs that play by time come first; the last two (budgets in depths
# and iterations, so load does not change their games) may share the machine. Run from the repository root; BIN names the binary (the release build).
# Then: chesslab rate results/strength/epoch-4 --out results/strength/epoch-4/rate.md
set -e
BIN=${BIN:-target/release/chesslab}
PATH="$PATH:/usr/games"
SF="uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true"
O=results/strength/epoch-4
S=results/strength/search/openings-chess.txt
$BIN tournament --variant chess --agents "alphabeta:time_ms=100,$SF,option.UCI_Elo=2000" \
  --games 200 --openings $S --seed 2000 --threads ${THREADS:-2} --out $O/ab100-vs-sf2000 --resume
$BIN tournament --variant chess --gauntlet \
  --agents "$SF,option.UCI_Elo=1350,alphabeta:depth=2,alphabeta:depth=3,alphabeta:depth=3,eval=results/strength/search/classic.toml" \
  --games 100 --openings $S --seed 1350 --threads ${THREADS:-2} --out $O/sf1350-gauntlet --resume
$BIN tournament --variant chess --gauntlet \
  --agents "$SF,option.UCI_Elo=1800,alphabeta:depth=3,alphabeta:depth=3,eval=results/strength/search/classic.toml,alphabeta:depth=2,alphabeta:depth=4" \
  --games 60 --openings $S --seed 1800 --threads ${THREADS:-2} --out $O/sf1800-gauntlet --resume
$BIN tournament --variant chess --agents "alphabeta:time_ms=100,$SF,option.UCI_Elo=1800" \
  --games 60 --openings $S --seed 1801 --threads ${THREADS:-2} --out $O/ab100-vs-sf1800 --resume
$BIN tournament --variant chess --agents "alphabeta:depth=1,$SF,option.UCI_Elo=1350" \
  --games 60 --openings $S --seed 1351 --threads ${THREADS:-2} --out $O/d1-vs-sf1350 --resume
# The players of the stronger hidden-game panel (examples/panels/hidden-strong.toml,
# session 19) and expectimax with its opt-in search features, rated the same way: a round
# robin with alphabeta:depth=1 and greedy as links. Three members play by time (25 ms a
# move), so their ratings hold for a quiet 2-core machine playing two games at a time.
# Generation 4 adds the two-world PIMC (Tar Pit's co-best player, ../hidden/tar-pit-worlds).
$BIN tournament --variant chess \
  --agents "alphabeta:depth=1,greedy,pimc:search=alphabeta,worlds=10,time_ms=25,pimc:search=alphabeta,worlds=2,time_ms=25,ismcts:time_ms=25,expectimax:depth=3,order=true,quiescence=true" \
  --games 40 --openings $S --seed 3001 --threads ${THREADS:-2} --out $O/families-2 --resume
# The other agent families at the budgets the verdicts use (session of 2026-11-29, second):
# a round robin on orthodox chess with alphabeta:depth=1 as the link to Stockfish's
# scale (its games against SF1350 above) and greedy as a weaker rung. Budgets are
# iterations or depths, not time, so the machine's load does not change the games.
$BIN tournament --variant chess \
  --agents "alphabeta:depth=1,greedy,expectimax:depth=1,expectimax:depth=2,expectimax:depth=3,mcts:iters=200,ismcts:iters=100,cutoff=8,ismcts:iters=200,cutoff=8,ismcts:iters=1000,cutoff=8,pimc:iters=50,worlds=8,cutoff=8,smmcts:iters=100,cutoff=10" \
  --games 40 --openings $S --seed 3000 --threads ${THREADS:-2} --out $O/families --resume
# The depth-2 sampled-world alphabeta (results/chess/pimc-d2's player) with alphabeta
# depths 1-3, as ../hidden/pimc-d2 rated it in generation 3.
$BIN tournament --variant chess \
  --agents "alphabeta:depth=1,alphabeta:depth=2,alphabeta:depth=3,pimc:search=alphabeta,depth=2,quiescence=true,worlds=6" \
  --games 40 --openings $S --seed 3002 --threads ${THREADS:-2} --out $O/pimc-d2 --resume

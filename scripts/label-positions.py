#!/usr/bin/env python3
"""Quiet orthodox positions from recorded games, each scored by Stockfish (issue 36).

The teacher's scores are what `chesslab texel --tables --positions FILE` fits the
piece-square tables to: a search at fixed depth by an engine nobody here wrote, read
through python-chess (so our own move generator does not decide what the positions are).

A position is kept when it is at least --min-ply plies into its game, the side to move
is not in check, the move the game played from it neither captures nor promotes, and the
teacher's best move does not either (a quiet position, where a static evaluation means
something), and a seeded draw keeps one candidate in --every. A mate score is written as
+/-MATE_CP (a sure win through the fit's sigmoid); --max-cp drops positions scored beyond
it (default: none, since dropping the clearest advantages biases the fit toward
compensated material). Games of other variants are skipped (only orthodox chess
has the standard start the replay assumes).

Output CSV: fen, teacher_cp (White's side, centipawns), result (White's score in its
game: 1, 0.5, 0), game (file:index, for splitting by game).

Usage: scripts/label-positions.py --out FILE [--depth 8] [--every 6] [--seed 1]
       [--jobs 2] GAMES.csv...
"""

import argparse
import csv
import multiprocessing
import random
import sys

import chess
import chess.engine

csv.field_size_limit(1 << 30)

# A mate's score in the output (centipawns): far past any material difference.
MATE_CP = 5000


def candidates(path, min_ply, every, seed):
    """(fen, result, game id, move played, board) for each sampled position of every game."""
    out = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["variant"] != "chess":
                continue
            rng = random.Random(f"{seed}:{path}:{row['index']}")
            result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(row["result"])
            if result is None:
                continue
            board = chess.Board()
            opening = row["opening"]
            moves = []
            if opening.startswith("actions:"):
                moves = opening[len("actions:"):].split()
            elif opening.startswith("fen:"):
                board = chess.Board(opening[len("fen:"):].strip())
            elif opening not in ("", "start"):
                continue
            try:
                for m in moves:
                    board.push_uci(m)
                played = row["actions"].split()
                for ply, m in enumerate(played):
                    move = chess.Move.from_uci(m)
                    if (
                        len(moves) + ply >= min_ply
                        and not board.is_check()
                        and not board.is_capture(move)
                        and move.promotion is None
                        and rng.randrange(every) == 0
                    ):
                        out.append((board.fen(), result, f"{path}:{row['index']}"))
                    board.push(move)
            except ValueError as e:
                print(f"{path}: game {row['index']}: {e}; skipped", file=sys.stderr)
    return out


def label(args):
    chunk, depth = args
    engine = chess.engine.SimpleEngine.popen_uci("stockfish")
    engine.configure({"Threads": 1, "Hash": 16})
    rows = []
    for fen, result, game in chunk:
        board = chess.Board(fen)
        info = engine.analyse(board, chess.engine.Limit(depth=depth))
        score = info["score"].white()
        pv = info.get("pv") or []
        if not pv:
            continue
        best = pv[0]
        if board.is_capture(best) or best.promotion is not None:
            continue
        cp = score.score(mate_score=MATE_CP + 100)
        cp = max(-MATE_CP, min(MATE_CP, cp))
        rows.append((fen, cp, result, game))
    engine.quit()
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="+")
    p.add_argument("--out", required=True)
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--every", type=int, default=6)
    p.add_argument("--min-ply", type=int, default=10)
    p.add_argument("--max-cp", type=int, default=MATE_CP)
    p.add_argument("--seed", default="1")
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args()
    cands = []
    for g in a.games:
        cands.extend(candidates(g, a.min_ply, a.every, a.seed))
    print(f"{len(cands)} candidate positions from {len(a.games)} files", file=sys.stderr)
    chunks = [cands[i : i + 2000] for i in range(0, len(cands), 2000)]
    kept = 0
    with multiprocessing.Pool(a.jobs) as pool, open(a.out + ".part", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["fen", "teacher_cp", "result", "game"])
        for i, rows in enumerate(pool.imap(label, [(c, a.depth) for c in chunks])):
            for fen, cp, result, game in rows:
                if abs(cp) <= a.max_cp:
                    w.writerow([fen, cp, result, game])
                    kept += 1
            print(f"chunk {i + 1}/{len(chunks)}: {kept} positions kept", file=sys.stderr)
    import os

    os.replace(a.out + ".part", a.out)
    print(f"wrote {kept} positions to {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""python-chess (a real UCI client) drives `chesslab uci`: usage uci_client.py CHESSLAB SPEC.

Plays moves under every kind of `go` limit, from the start and from a Chess960 start,
runs an infinite analysis stopped by the client, and prints 'ok' at the end. Any
protocol error or illegal move raises (python-chess checks every bestmove)."""
import sys
import time

import chess
import chess.engine

exe, spec = sys.argv[1], sys.argv[2]
engine = chess.engine.SimpleEngine.popen_uci([exe, "uci", "--agent", spec])
assert engine.id["name"].startswith("chesslab"), engine.id

limits = [
    chess.engine.Limit(time=0.05),
    chess.engine.Limit(depth=2),
    chess.engine.Limit(nodes=300),
    chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.01, black_inc=0.01),
]
for board in [chess.Board(), chess.Board.from_chess960_pos(100)]:
    for ply in range(8):
        result = engine.play(board, limits[ply % len(limits)])
        assert result.move in board.legal_moves, (board.fen(), result.move)
        board.push(result.move)
    print(board.fen())

board = chess.Board()
with engine.analysis(board) as analysis:
    time.sleep(0.3)
    analysis.stop()
    best = analysis.wait()
assert best.move in board.legal_moves, best
engine.ping()
engine.quit()
print("ok")

#!/bin/sh
# chesslab's own alphabeta as an outside UCI engine (run from the project root).
exec "${CHESSLAB_BIN:-./target/release/chesslab}" uci --agent alphabeta

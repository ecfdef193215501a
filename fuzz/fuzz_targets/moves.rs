//! A start position chosen by the first two bytes (orthodox or Chess960), then the rest
//! split on whitespace into move strings for `parse_move`. Legal ones are played; the
//! board must stay consistent, and unmaking everything must restore the start.
#![no_main]

use engine::{chess960, Board};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let n = u16::from_le_bytes([data[0], data[1]]) % 1024;
    let start = if n < 960 {
        chess960::start_position(n)
    } else {
        Board::startpos()
    };
    let mut board = start.clone();
    let text = String::from_utf8_lossy(&data[2..]);
    let mut played = 0usize;
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        if word.is_empty() {
            continue;
        }
        let Ok(mv) = board.parse_move(word) else {
            continue;
        };
        assert!(board.is_legal(mv), "parse_move({word:?}) returned illegal {mv:?}");
        // Printing the move back must name the same move.
        let uci = board.uci(mv);
        assert_eq!(board.parse_uci(&uci), Ok(mv), "uci {uci}");
        let san = board.san(mv);
        assert_eq!(board.parse_san(&san), Ok(mv), "san {san}");
        board.make(mv);
        played += 1;
        assert!(board.is_consistent(), "inconsistent after {word}");
        let _ = board.outcome();
        let fen = board.fen();
        let parsed = if board.is_chess960() {
            Board::from_fen_960(&fen)
        } else {
            Board::from_fen(&fen)
        };
        let parsed = parsed.unwrap_or_else(|e| panic!("own fen {fen} rejected: {e}"));
        assert!(parsed == board, "fen round trip {fen}");
    }
    for _ in 0..played {
        assert!(board.unmake().is_some());
    }
    assert!(board.unmake().is_none());
    assert!(board == start);
    assert_eq!(board.key(), start.key());
});

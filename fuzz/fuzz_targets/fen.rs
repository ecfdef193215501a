//! Arbitrary bytes as a FEN string: parsing must never panic, and whatever parses must
//! write back a FEN (and Shredder-FEN) that parses to the same position.
#![no_main]

use engine::Board;
use libfuzzer_sys::fuzz_target;

fn check(board: &Board) {
    assert!(board.is_consistent(), "inconsistent after parse");
    let fen = board.fen();
    let again = if board.is_chess960() {
        Board::from_fen_960(&fen)
    } else {
        Board::from_fen(&fen)
    }
    .unwrap_or_else(|e| panic!("fen() output {fen:?} rejected: {e}"));
    assert!(again == *board, "fen round trip changed the position: {fen}");
    assert_eq!(again.key(), board.key());
    let shredder = board.shredder_fen();
    let again = Board::from_fen_960(&shredder)
        .unwrap_or_else(|e| panic!("shredder_fen() output {shredder:?} rejected: {e}"));
    assert!(
        again == *board,
        "shredder fen round trip changed the position: {shredder}"
    );
    // Everything a parsed position offers must be playable.
    let mut b = board.clone();
    let moves = b.legal_moves();
    for &m in moves.iter() {
        let _ = b.san(m);
        let _ = b.uci(m);
        b.make(m);
        assert!(b.is_consistent());
        let _ = b.outcome();
        b.unmake();
    }
    assert!(b == *board);
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(b) = Board::from_fen(s) {
        check(&b);
    }
    if let Ok(b) = Board::from_fen_960(s) {
        check(&b);
    }
    // The royal-capture reader (a king may stand en prise) accepts a superset.
    if let Ok(b) = Board::from_fen_king_en_prise(s) {
        assert!(b.is_consistent(), "inconsistent after parse");
        let fen = b.fen();
        let again = Board::from_fen_king_en_prise(&fen)
            .unwrap_or_else(|e| panic!("fen() output {fen:?} rejected: {e}"));
        assert!(again == b, "fen round trip changed the position: {fen}");
    }
});

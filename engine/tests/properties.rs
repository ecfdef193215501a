//! Property tests over seeded random games (start position, Chess960 starts and a few
//! tricky FENs), checking at every visited position:
//!
//! - the legal move set equals that of a slow, obviously-correct reference generator
//!   written here (plain ray walks on a mailbox, castling in Chess960 form, en passant,
//!   then "own king not attacked after playing it on a copy");
//! - `count_legal_moves`, `has_legal_moves`, `legal_captures` and `is_legal` agree
//!   with the list;
//! - make then unmake restores the position (`==`) and its key exactly;
//! - the incremental key equals `compute_key()` and `is_consistent()` holds;
//! - FEN (and Shredder-FEN) round-trips.

use crate::mailbox;

use engine::chess960;
use engine::{Bitboard, Board, Move, MoveKind, Piece, Role, Square};
use mailbox::{forward, sorted_codes, step, Mailbox};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

// ----- the reference generator ----------------------------------------------------------

/// The en passant target square, derived independently: from the last move played when
/// there is one (a double pawn push), else from the board (set up from a FEN).
fn reference_ep(b: &Board) -> Option<Square> {
    match b.last_move() {
        Some(m) => {
            let mover = b.piece_at(m.to())?;
            let double = mover.role == Role::Pawn
                && m.kind() == MoveKind::Normal
                && m.from().file() == m.to().file()
                && m.from().rank().abs_diff(m.to().rank()) == 2;
            double
                .then(|| Square::from_coords(m.to().file(), (m.from().rank() + m.to().rank()) / 2))
        }
        None => b.ep_square(),
    }
}

/// Every legal move, the slow way (the shared mailbox reference, `common/mailbox.rs`).
fn reference_moves(b: &Board) -> Vec<Move> {
    let rights: Vec<Square> = b.castling_rights().into_iter().collect();
    Mailbox::of(b).legal_moves(b.turn(), reference_ep(b), &rights)
}

// ----- the properties -------------------------------------------------------------------

fn fen_round_trips(b: &Board) {
    if b.is_chess960() {
        let s = b.shredder_fen();
        let back = Board::from_fen_960(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert!(back == *b, "Shredder-FEN round trip: {s}");
        assert_eq!(back.key(), b.key(), "{s}");
        let x = b.fen();
        let back = Board::from_fen_960(&x).unwrap_or_else(|e| panic!("{x}: {e}"));
        assert!(back == *b, "X-FEN round trip: {x}");
    } else {
        let s = b.fen();
        let back = Board::from_fen(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert!(back == *b, "FEN round trip: {s}");
        assert_eq!(back.key(), b.key(), "{s}");
        assert_eq!(back.fen(), s);
    }
}

/// All per-position checks; returns the engine's legal moves.
fn check_position(b: &Board, rng: &mut Pcg64Mcg) -> Vec<Move> {
    let fen = b.fen();
    assert!(b.is_consistent(), "inconsistent: {fen}");
    assert_eq!(b.key(), b.compute_key(), "key: {fen}");

    let list = b.legal_moves();
    let ours: Vec<Move> = list.iter().copied().collect();
    let reference = reference_moves(b);
    let (a, r) = (sorted_codes(ours.iter().copied()), sorted_codes(reference));
    if a != r {
        let show = |v: &[u16]| -> Vec<String> {
            v.iter()
                .map(|&c| {
                    let m = ours
                        .iter()
                        .chain(reference_moves(b).iter())
                        .find(|m| m.code() == c)
                        .copied()
                        .unwrap();
                    format!("{m:?}")
                })
                .collect()
        };
        let extra: Vec<u16> = a.iter().filter(|c| !r.contains(c)).copied().collect();
        let missing: Vec<u16> = r.iter().filter(|c| !a.contains(c)).copied().collect();
        panic!(
            "move sets differ at {fen}\n  generated but illegal: {:?}\n  legal but missing: {:?}",
            show(&extra),
            show(&missing)
        );
    }
    assert_eq!(a.len(), ours.len(), "duplicate moves at {fen}");
    assert_eq!(b.count_legal_moves(), ours.len() as u64, "{fen}");
    assert_eq!(b.has_legal_moves(), !ours.is_empty(), "{fen}");
    let theirs = b.by_color(b.turn().other());
    let captures = ours.iter().copied().filter(|m| {
        m.kind() == MoveKind::EnPassant || (m.kind() != MoveKind::Castle && theirs.contains(m.to()))
    });
    assert_eq!(
        sorted_codes(b.legal_captures().iter().copied()),
        sorted_codes(captures),
        "legal_captures at {fen}"
    );
    for &m in &ours {
        assert!(b.is_legal(m), "{fen}: is_legal({m:?})");
    }
    // A few random codes: is_legal must agree with the list and never panic.
    for _ in 0..4 {
        let m = Move::new(
            Square::new(rng.gen_range(0..64)),
            Square::new(rng.gen_range(0..64)),
            MoveKind::Normal,
        );
        assert_eq!(b.is_legal(m), ours.contains(&m), "{fen}: is_legal({m:?})");
    }

    // The engine records en passant only when some pawn can capture pseudo-legally.
    let capturable = reference_ep(b).filter(|&ep| {
        let pawn = Piece::new(b.turn(), Role::Pawn);
        let back = -forward(b.turn());
        [-1, 1]
            .iter()
            .any(|&df| step(ep, df, back).and_then(|s| b.piece_at(s)) == Some(pawn))
    });
    assert_eq!(b.ep_square(), capturable, "en passant square at {fen}");

    let checkers: Bitboard = match b.king(b.turn()) {
        Some(k) => b.attackers_to(k, b.turn().other(), b.occupied()),
        None => Bitboard::EMPTY,
    };
    assert_eq!(b.checkers(), checkers);
    let mb = Mailbox::of(b);
    if let Some(k) = b.king(b.turn()) {
        assert_eq!(b.in_check(), mb.attacked(k, b.turn().other()), "{fen}");
    }

    fen_round_trips(b);
    ours
}

/// Plays random games from `start` for about `plies` plies, checking every position and
/// every make/unmake pair (each legal move at a sample of positions, the chosen one at all).
fn random_games(start: &Board, plies: usize, rng: &mut Pcg64Mcg) {
    let mut b = start.clone();
    let mut done = 0;
    while done < plies {
        let moves = check_position(&b, rng);
        let game_over = moves.is_empty() || b.halfmoves() >= 100 || b.ply() >= 160;
        if game_over {
            // Unwind the whole game: it must lead back to the start exactly.
            while b.unmake().is_some() {}
            assert!(b == *start);
            assert_eq!(b.key(), start.key());
            b = start.clone();
            continue;
        }
        let before = b.clone();
        let try_all = rng.gen_bool(0.25);
        if try_all {
            for &m in &moves {
                b.make(m);
                assert!(b.is_consistent(), "after {m:?} from {}", before.fen());
                assert_eq!(b.key(), b.compute_key());
                assert_eq!(b.last_move(), Some(m));
                assert_eq!(b.unmake(), Some(m));
                assert!(b == before, "unmake {m:?} from {}", before.fen());
                assert_eq!(b.key(), before.key());
            }
        }
        if !b.in_check() && rng.gen_bool(0.1) {
            b.make_null();
            assert!(b.is_consistent());
            assert_eq!(b.turn(), before.turn().other());
            b.unmake_null();
            assert!(b == before);
            assert_eq!(b.key(), before.key());
        }
        let m = moves[rng.gen_range(0..moves.len())];
        let captured = b.captured_piece(m);
        let victim_count = b.occupied().count();
        b.make(m);
        assert_eq!(
            b.occupied().count() + captured.is_some() as u32,
            victim_count,
            "captured_piece({m:?}) at {}",
            before.fen()
        );
        assert!(b.is_consistent(), "after {m:?} from {}", before.fen());
        // make then unmake restores everything, including the key; then replay.
        b.unmake();
        assert!(b == before, "unmake {m:?} from {}", before.fen());
        assert_eq!(b.key(), before.key());
        b.make(m);
        done += 1;
    }
}

const TRICKY: &[&str] = &[
    // Kiwipete
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Position 3: en passant discovered checks along the rank
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Position 4 and its mirror: promotions, castling, checks
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    // Position 5
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // En passant available at once, and promotions in both directions
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // En passant that would expose the king along the rank
    "8/8/8/K2pP2q/8/8/8/7k w - d6 0 2",
    // En passant that answers a check by the double-pushed pawn
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
];

const TRICKY_960: &[&str] = &[
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    // King and rook next to each other, rook may shield the king's destination
    "1r2k1r1/8/8/8/8/8/8/RR2K3 w Bb - 0 1",
    "rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1",
];

#[test]
fn random_games_from_the_start_position() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x5eed_0001);
    random_games(&Board::startpos(), 1500, &mut rng);
}

#[test]
fn random_games_from_chess960_starts() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x5eed_0960);
    for _ in 0..12 {
        let n = rng.gen_range(0..960);
        let start = chess960::start_position(n);
        random_games(&start, 120, &mut rng);
    }
    // The corner cases of the numbering too.
    for n in [0, 959] {
        random_games(&chess960::start_position(n), 80, &mut rng);
    }
}

#[test]
fn random_games_from_tricky_positions() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x5eed_7777);
    for fen in TRICKY {
        let b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        random_games(&b, 150, &mut rng);
    }
    for fen in TRICKY_960 {
        let b = Board::from_fen_960(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        random_games(&b, 150, &mut rng);
    }
}

#[test]
fn reference_generator_matches_known_perft() {
    // Sanity check of the reference itself, so a disagreement points at the engine.
    fn reference_perft(b: &mut Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = reference_moves(b);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            b.make(m);
            n += reference_perft(b, depth - 1);
            b.unmake();
        }
        n
    }
    let cases: &[(&str, bool, u32, u64)] = &[
        (TRICKY[0], false, 2, 2039),
        (TRICKY[1], false, 3, 2812),
        (TRICKY[2], false, 2, 264),
        (TRICKY[4], false, 2, 1486),
        (TRICKY_960[0], true, 2, 528),
    ];
    for &(fen, c960, depth, expected) in cases {
        let mut b = if c960 {
            Board::from_fen_960(fen)
        } else {
            Board::from_fen(fen)
        }
        .unwrap();
        assert_eq!(reference_perft(&mut b, depth), expected, "{fen}");
    }
}

#[test]
fn clocks_at_their_limits_do_not_overflow() {
    // Found by review while writing the fuzz targets: a FEN may set both clocks to
    // u16::MAX, and making a move used to overflow them (a panic with overflow checks).
    for fen in [
        "4k3/8/8/8/8/8/8/4K2R b K - 65535 65535",
        "4k3/8/8/8/8/8/8/4K2R w K - 65535 65535",
    ] {
        let mut b = Board::from_fen(fen).unwrap();
        let start = b.clone();
        for m in b.legal_moves().iter().copied().collect::<Vec<_>>() {
            b.make(m);
            assert!(b.is_consistent());
            assert!(b.fullmoves() >= 1);
            fen_round_trips(&b);
            b.unmake();
            assert!(b == start);
        }
        b.make_null();
        assert!(b.is_consistent());
        b.unmake_null();
        assert!(b == start);
    }
}

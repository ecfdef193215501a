//! Property tests over seeded random games (start position, Chess960 starts and a few
//! tricky FENs), checking at every visited position:
//!
//! - the legal move set equals that of a slow, obviously-correct reference generator
//!   written here (plain ray walks on a mailbox, castling in Chess960 form, en passant,
//!   then "own king not attacked after playing it on a copy");
//! - `count_legal_moves`, `has_legal_moves` and `is_legal` agree with the list;
//! - make then unmake restores the position (`==`) and its key exactly;
//! - the incremental key equals `compute_key()` and `is_consistent()` holds;
//! - FEN (and Shredder-FEN) round-trips.

use engine::chess960;
use engine::{Bitboard, Board, Color, Move, MoveKind, Piece, Role, Square};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

// ----- the reference generator ----------------------------------------------------------

/// A plain mailbox copy of the position, independent of the engine's bitboards.
#[derive(Clone)]
struct Mailbox {
    sq: [Option<Piece>; 64],
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

fn step(s: Square, df: i8, dr: i8) -> Option<Square> {
    let f = s.file() as i8 + df;
    let r = s.rank() as i8 + dr;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| Square::from_coords(f as u8, r as u8))
}

fn forward(c: Color) -> i8 {
    if c == Color::White {
        1
    } else {
        -1
    }
}

impl Mailbox {
    fn of(b: &Board) -> Mailbox {
        let mut sq = [None; 64];
        for s in Square::all() {
            sq[s.index()] = b.piece_at(s);
        }
        Mailbox { sq }
    }

    fn at(&self, s: Square) -> Option<Piece> {
        self.sq[s.index()]
    }

    fn king(&self, c: Color) -> Option<Square> {
        Square::all().find(|&s| self.at(s) == Some(Piece::new(c, Role::King)))
    }

    /// Whether any piece of `by` attacks `target`, by walking out from the target.
    fn attacked(&self, target: Square, by: Color) -> bool {
        let is = |s: Option<Square>, roles: &[Role]| {
            s.and_then(|s| self.at(s))
                .is_some_and(|p| p.color == by && roles.contains(&p.role))
        };
        // A pawn of `by` attacks diagonally forward (for `by`), so look backwards.
        let back = -forward(by);
        if is(step(target, 1, back), &[Role::Pawn]) || is(step(target, -1, back), &[Role::Pawn]) {
            return true;
        }
        if KNIGHT_STEPS
            .iter()
            .any(|&(f, r)| is(step(target, f, r), &[Role::Knight]))
        {
            return true;
        }
        if KING_STEPS
            .iter()
            .any(|&(f, r)| is(step(target, f, r), &[Role::King]))
        {
            return true;
        }
        for (dirs, roles) in [
            (ROOK_DIRS, [Role::Rook, Role::Queen]),
            (BISHOP_DIRS, [Role::Bishop, Role::Queen]),
        ] {
            for (df, dr) in dirs {
                let mut cur = target;
                while let Some(n) = step(cur, df, dr) {
                    if let Some(p) = self.at(n) {
                        if p.color == by && roles.contains(&p.role) {
                            return true;
                        }
                        break;
                    }
                    cur = n;
                }
            }
        }
        false
    }

    /// The position after `mv` (side to move `us`), on a copy.
    fn after(&self, mv: Move, us: Color) -> Mailbox {
        let mut m = self.clone();
        let (from, to) = (mv.from(), mv.to());
        let piece = m.sq[from.index()].take().expect("a piece to move");
        match mv.kind() {
            MoveKind::Normal => m.sq[to.index()] = Some(piece),
            MoveKind::Promotion(r) => m.sq[to.index()] = Some(Piece::new(us, r)),
            MoveKind::EnPassant => {
                m.sq[to.index()] = Some(piece);
                m.sq[Square::from_coords(to.file(), from.rank()).index()] = None;
            }
            MoveKind::Castle => {
                let rook = m.sq[to.index()].take().expect("a castling rook");
                let (kd, rd) = castle_dest(us, from, to);
                m.sq[kd.index()] = Some(piece);
                m.sq[rd.index()] = Some(rook);
            }
        }
        m
    }
}

/// Chess960 castling destinations: the king goes to the g- or c-file, the rook next to it
/// on the f- or d-file, depending on which side of the king the rook stands.
fn castle_dest(us: Color, king: Square, rook: Square) -> (Square, Square) {
    let rank = if us == Color::White { 0 } else { 7 };
    if rook.file() > king.file() {
        (Square::from_coords(6, rank), Square::from_coords(5, rank))
    } else {
        (Square::from_coords(2, rank), Square::from_coords(3, rank))
    }
}

/// Squares from `a` to `b` along a rank, both included.
fn rank_span(a: Square, b: Square) -> Vec<Square> {
    let (lo, hi) = (a.file().min(b.file()), a.file().max(b.file()));
    (lo..=hi)
        .map(|f| Square::from_coords(f, a.rank()))
        .collect()
}

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

/// Every legal move, the slow way.
fn reference_moves(b: &Board) -> Vec<Move> {
    let us = b.turn();
    let them = us.other();
    let mb = Mailbox::of(b);
    let mut pseudo = Vec::new();
    let last_rank = if us == Color::White { 7 } else { 0 };
    let start_rank = if us == Color::White { 1 } else { 6 };
    let push_pawn = |pseudo: &mut Vec<Move>, from: Square, to: Square| {
        if to.rank() == last_rank {
            for r in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                pseudo.push(Move::new(from, to, MoveKind::Promotion(r)));
            }
        } else {
            pseudo.push(Move::normal(from, to));
        }
    };
    let ep = reference_ep(b);

    for from in Square::all() {
        let Some(p) = mb.at(from) else { continue };
        if p.color != us {
            continue;
        }
        let target_ok = |to: Square| mb.at(to).is_none_or(|q| q.color == them);
        match p.role {
            Role::Pawn => {
                let fw = forward(us);
                if let Some(one) = step(from, 0, fw) {
                    if mb.at(one).is_none() {
                        push_pawn(&mut pseudo, from, one);
                        if from.rank() == start_rank {
                            let two = step(one, 0, fw).unwrap();
                            if mb.at(two).is_none() {
                                pseudo.push(Move::normal(from, two));
                            }
                        }
                    }
                }
                for df in [-1, 1] {
                    if let Some(to) = step(from, df, fw) {
                        if mb.at(to).is_some_and(|q| q.color == them) {
                            push_pawn(&mut pseudo, from, to);
                        } else if Some(to) == ep && mb.at(to).is_none() {
                            pseudo.push(Move::new(from, to, MoveKind::EnPassant));
                        }
                    }
                }
            }
            Role::Knight | Role::King => {
                let steps = if p.role == Role::Knight {
                    KNIGHT_STEPS
                } else {
                    KING_STEPS
                };
                for (df, dr) in steps {
                    if let Some(to) = step(from, df, dr) {
                        if target_ok(to) {
                            pseudo.push(Move::normal(from, to));
                        }
                    }
                }
            }
            Role::Bishop | Role::Rook | Role::Queen => {
                let mut dirs = Vec::new();
                if p.role != Role::Bishop {
                    dirs.extend(ROOK_DIRS);
                }
                if p.role != Role::Rook {
                    dirs.extend(BISHOP_DIRS);
                }
                for (df, dr) in dirs {
                    let mut cur = from;
                    while let Some(to) = step(cur, df, dr) {
                        match mb.at(to) {
                            None => pseudo.push(Move::normal(from, to)),
                            Some(q) => {
                                if q.color == them {
                                    pseudo.push(Move::normal(from, to));
                                }
                                break;
                            }
                        }
                        cur = to;
                    }
                }
            }
        }
    }

    // Castling, Chess960 style: king and rook on the back rank, every square either
    // passes over or lands on empty (king and rook themselves excepted), the king not in
    // check and never crossing an attacked square (judged with king and rook lifted).
    if let Some(king) = mb.king(us) {
        let back = if us == Color::White { 0 } else { 7 };
        for rook in b.castling_rights() {
            if rook.rank() != back
                || king.rank() != back
                || mb.at(rook) != Some(Piece::new(us, Role::Rook))
            {
                continue;
            }
            let (kd, rd) = castle_dest(us, king, rook);
            let mut lifted = mb.clone();
            lifted.sq[king.index()] = None;
            lifted.sq[rook.index()] = None;
            let mut span = rank_span(king, kd);
            span.extend(rank_span(rook, rd));
            if span.iter().any(|&s| lifted.at(s).is_some()) {
                continue;
            }
            if rank_span(king, kd)
                .iter()
                .any(|&s| lifted.attacked(s, them))
            {
                continue;
            }
            pseudo.push(Move::new(king, rook, MoveKind::Castle));
        }
    }

    pseudo
        .into_iter()
        .filter(|&m| {
            let after = mb.after(m, us);
            after.king(us).is_none_or(|k| !after.attacked(k, them))
        })
        .collect()
}

// ----- the properties -------------------------------------------------------------------

fn sorted_codes(moves: impl IntoIterator<Item = Move>) -> Vec<u16> {
    let mut v: Vec<u16> = moves.into_iter().map(|m| m.code()).collect();
    v.sort_unstable();
    v
}

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

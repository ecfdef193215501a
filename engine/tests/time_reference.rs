//! A slow reference for Time Chess written from RULES.md ("Time Chess" and the common
//! rules) alone, played alongside the engine over seeded random and greedy games.
//!
//! The reference keeps its own position: a mailbox (the shared `common/mailbox.rs`), the
//! castling rights as rook squares, the en passant square, the 50-move count, the phase
//! and the positions since the last reset. It reads the engine's board only once, at the
//! start, and afterwards only to compare it square by square with its own. At every
//! decision it derives the legal list:
//! - sighted turns (Dawn, Midday, Dusk, Midnight): orthodox legal moves, judged by "is the
//!   own king attacked by any enemy piece, king included" after the move on a copy, and
//!   never a move onto the enemy king;
//! - blind turns (Evening for Black, Morning for White): the moves the mover's own pieces
//!   allow on a board holding only them (pawn pushes, pawn diagonals onto any square not
//!   its own, promotions, castling when the right is held and no own piece stands between
//!   king and rook or on their targets, attacks ignored), or `pass` when there is none;
//!
//! and it resolves a blind try on the true board by RULES.md (blocked pawn push and pawn
//! diagonal onto an empty square or the king: forfeited; a slider stops at the first
//! enemy piece and takes it, or stops before the king, forfeited if that is its origin; a
//! knight or king takes what it lands on, forfeited on the king; castling forfeited by an
//! enemy piece on the path). It then judges the end in the module's order: the ply cap,
//! checkmate / stalemate at a sighted turn with no legal move (check: the king attacked
//! by any enemy piece, king included), K v K or K+minor v K, 50 moves, and a threefold
//! repetition of the same position in the same phase.
//!
//! Compared at every ply: the engine's legal list (as move codes), its sampled action
//! (drawn from its playout sets, which must lie in the reference list), the board after
//! the ply, the en passant square the board keeps, and the result. Random games are the
//! engine's own sampled playouts, and from some positions the engine's lean
//! `random_playout` is run with the same seed and must end the same way.
//!
//! Nothing here calls the engine's move generation, attack tables, `is_legal`, `in_check`
//! or `checkers`.

use crate::mailbox;

use engine::game::{Game, Turn};
use engine::variants::time::{Phase, TimeAction, TimeChess};
use engine::{Board, Color, Move, MoveKind, Piece, Role, Square};
use mailbox::{castle_dest, forward, rank_span, sorted_codes, step, Mailbox};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

const PROMOTIONS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// Whose turn it is and who is blind, from RULES.md's table (Black moves first).
fn mover(phase: usize) -> Color {
    if phase.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// Evening (Black, Black blind) and Morning (White, White blind).
fn blind_turn(phase: usize) -> bool {
    phase % 6 == 2 || phase % 6 == 5
}

/// The reference's own state of the game.
#[derive(Clone)]
struct Reference {
    board: Mailbox,
    /// Phase index 0..6 (Dawn first).
    phase: usize,
    /// Rook squares whose castling right is held.
    rights: Vec<Square>,
    /// The square a pawn passed over on the last ply's double push.
    ep: Option<Square>,
    halfmoves: u32,
    plies: u32,
    cap: u32,
    /// Positions (with phase) since the start, oldest first.
    seen: Vec<Identity>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Identity {
    board: Mailbox,
    phase: usize,
    rights: Vec<Square>,
    ep: Option<Square>,
}

/// What the reference expects of a decision.
#[derive(Debug, PartialEq)]
enum Expect {
    Moves(Vec<Move>),
    Pass,
}

impl Reference {
    fn new(b: &Board, phase: Phase, cap: u32) -> Reference {
        let mut r = Reference {
            board: Mailbox::of(b),
            phase: phase.index(),
            rights: b.castling_rights().into_iter().collect(),
            ep: b.ep_square(),
            halfmoves: b.halfmoves() as u32,
            plies: 0,
            cap,
            seen: Vec::new(),
        };
        r.seen.push(r.identity());
        r
    }

    fn us(&self) -> Color {
        mover(self.phase)
    }

    /// The en passant square as a position's identity holds it: only when a pawn of the
    /// side to move could take onto it (FIDE's "same position" needs the same
    /// possibilities; the engine keeps the square on the same terms).
    fn capturable_ep(&self) -> Option<Square> {
        let us = self.us();
        let ep = self.ep?;
        let back = -forward(us);
        [-1, 1]
            .iter()
            .any(|&df| {
                step(ep, df, back).and_then(|s| self.board.at(s))
                    == Some(Piece::new(us, Role::Pawn))
            })
            .then_some(ep)
    }

    fn identity(&self) -> Identity {
        let mut rights = self.rights.clone();
        rights.sort_by_key(|s| s.index());
        Identity {
            board: self.board.clone(),
            phase: self.phase,
            rights,
            ep: self.capturable_ep(),
        }
    }

    /// Sighted moves: orthodox legal moves (the own king not attacked afterwards by any
    /// enemy piece, king included), never onto the enemy king.
    fn sighted_moves(&self) -> Vec<Move> {
        let us = self.us();
        let their_king = self.board.king(us.other());
        let own_rights: Vec<Square> = self
            .rights
            .iter()
            .copied()
            .filter(|s| self.board.at(*s).is_some_and(|p| p.color == us))
            .collect();
        let mut all = self.board.pseudo_moves(us, self.ep);
        all.extend(self.board.castling_moves(us, &own_rights, true));
        all.into_iter()
            .filter(|m| m.is_castle() || Some(m.to()) != their_king)
            .filter(|&m| !self.board.after(m, us).in_check(us))
            .collect()
    }

    /// Blind tries: every move the mover's own pieces allow on a board holding only them.
    fn blind_tries(&self) -> Vec<Move> {
        let us = self.us();
        let own = self.board.only(us);
        let last = if us == Color::White { 7 } else { 0 };
        let start = if us == Color::White { 1 } else { 6 };
        let mut out = Vec::new();
        let pawn_to = |out: &mut Vec<Move>, from: Square, to: Square| {
            if to.rank() == last {
                for r in PROMOTIONS {
                    out.push(Move::new(from, to, MoveKind::Promotion(r)));
                }
            } else {
                out.push(Move::normal(from, to));
            }
        };
        for from in Square::all() {
            let Some(p) = own.at(from) else { continue };
            if p.role != Role::Pawn {
                continue;
            }
            let fw = forward(us);
            if let Some(one) = step(from, 0, fw) {
                if own.at(one).is_none() {
                    pawn_to(&mut out, from, one);
                    if from.rank() == start {
                        let two = step(one, 0, fw).unwrap();
                        if own.at(two).is_none() {
                            out.push(Move::normal(from, two));
                        }
                    }
                }
            }
            for df in [-1, 1] {
                if let Some(to) = step(from, df, fw) {
                    if own.at(to).is_none() {
                        pawn_to(&mut out, from, to);
                    }
                }
            }
        }
        // Pieces: on a board of own pieces only, their patterns stop before own pieces.
        out.extend(
            own.pseudo_moves(us, None)
                .into_iter()
                .filter(|m| own.at(m.from()).is_some_and(|p| p.role != Role::Pawn)),
        );
        let own_rights: Vec<Square> = self
            .rights
            .iter()
            .copied()
            .filter(|s| own.at(*s).is_some())
            .collect();
        out.extend(own.castling_moves(us, &own_rights, false));
        out
    }

    fn expected(&self) -> Expect {
        if blind_turn(self.phase) {
            let t = self.blind_tries();
            if t.is_empty() {
                Expect::Pass
            } else {
                Expect::Moves(t)
            }
        } else {
            Expect::Moves(self.sighted_moves())
        }
    }

    /// What a blind try does on the true board: the move made, `None` if forfeited.
    fn resolve(&self, mv: Move) -> Option<Move> {
        let us = self.us();
        let b = &self.board;
        let enemy = |s: Square| b.at(s).filter(|p| p.color != us);
        let (from, to) = (mv.from(), mv.to());
        if mv.is_castle() {
            let (kd, rd) = castle_dest(us, from, to);
            let mut path = rank_span(from, kd);
            path.extend(rank_span(to, rd));
            return (!path.iter().any(|&s| enemy(s).is_some())).then_some(mv);
        }
        let role = b.at(from).expect("an own piece").role;
        match role {
            Role::Pawn if from.file() == to.file() => {
                let mut s = from;
                while s != to {
                    s = step(s, 0, forward(us)).unwrap();
                    if enemy(s).is_some() {
                        return None;
                    }
                }
                Some(mv)
            }
            Role::Pawn => enemy(to)
                .is_some_and(|p| p.role != Role::King)
                .then_some(mv),
            Role::Knight | Role::King => {
                enemy(to).is_none_or(|p| p.role != Role::King).then_some(mv)
            }
            _ => {
                let df = (to.file() as i8 - from.file() as i8).signum();
                let dr = (to.rank() as i8 - from.rank() as i8).signum();
                let (mut prev, mut s) = (from, from);
                while s != to {
                    s = step(s, df, dr).unwrap();
                    if let Some(p) = enemy(s) {
                        if p.role == Role::King {
                            return (prev != from).then(|| Move::normal(from, prev));
                        }
                        return Some(Move::normal(from, s));
                    }
                    prev = s;
                }
                Some(mv)
            }
        }
    }

    /// Plays `action` (a sighted move, a blind try, or a pass) and steps the phase.
    fn play(&mut self, action: TimeAction) {
        let us = self.us();
        let made = match action {
            TimeAction::Pass => None,
            TimeAction::Move(m) if blind_turn(self.phase) => self.resolve(m),
            TimeAction::Move(m) => Some(m),
        };
        self.halfmoves += 1;
        self.ep = None;
        if let Some(m) = made {
            let moved = self.board.at(m.from()).expect("a piece to move");
            let capture = m.kind() == MoveKind::EnPassant
                || (!m.is_castle() && self.board.at(m.to()).is_some());
            if moved.role == Role::Pawn || capture {
                self.halfmoves = 0;
            }
            if moved.role == Role::Pawn && m.from().rank().abs_diff(m.to().rank()) == 2 {
                self.ep = step(m.from(), 0, forward(us));
            }
            let home = |s: &Square| {
                self.board.at(*s).map(|p| p.color) == Some(us)
                    && (moved.role == Role::King || *s == m.from())
            };
            let lost: Vec<Square> = self
                .rights
                .iter()
                .copied()
                .filter(|s| home(s) || *s == m.to())
                .collect();
            self.rights.retain(|s| !lost.contains(s));
            self.board = self.board.after(m, us);
        }
        self.phase = (self.phase + 1) % 6;
        self.plies += 1;
        if self.halfmoves == 0 {
            self.seen.clear();
        }
        self.seen.push(self.identity());
    }

    /// The end, judged in the module's order; the winner's seat for a checkmate.
    fn result(&self) -> Option<(&'static str, Option<usize>)> {
        let us = self.us();
        if self.plies >= self.cap {
            return Some(("cap", None));
        }
        if !blind_turn(self.phase) && self.sighted_moves().is_empty() {
            return Some(if self.board.in_check(us) {
                ("checkmate", Some(us.other().index()))
            } else {
                ("stalemate", None)
            });
        }
        let pieces: Vec<Role> = self.board.sq.iter().flatten().map(|p| p.role).collect();
        let heavy = pieces
            .iter()
            .any(|r| matches!(r, Role::Pawn | Role::Rook | Role::Queen));
        let minors = pieces
            .iter()
            .filter(|r| matches!(r, Role::Knight | Role::Bishop))
            .count();
        if !heavy && minors <= 1 {
            return Some(("insufficient-material", None));
        }
        if self.halfmoves >= 100 {
            return Some(("fifty-moves", None));
        }
        let now = self.seen.last().unwrap();
        if self.seen.iter().filter(|&i| i == now).count() >= 3 {
            return Some(("repetition", None));
        }
        None
    }
}

/// Tallies over a run, to show the test reaches what it is meant to.
#[derive(Default, Debug)]
struct Counts {
    plies: usize,
    sighted: usize,
    blind: usize,
    in_check: usize,
    king_check: usize,
    king_only: usize,
    forfeits: usize,
    passes: usize,
    castles: usize,
    /// Sighted decisions offering en passant.
    en_passant: usize,
    ends: std::collections::BTreeMap<&'static str, usize>,
}

/// Checks the engine against the reference at the current decision (or end).
fn check(g: &TimeChess, r: &Reference, counts: &mut Counts) {
    let ctx = || {
        format!(
            "{} at {:?}, ply {}",
            g.board_ref().fen(),
            g.phase(),
            r.plies
        )
    };
    assert_eq!(g.phase().index(), r.phase, "phase: {}", ctx());
    assert_eq!(Mailbox::of(g.board_ref()), r.board, "board: {}", ctx());
    assert_eq!(g.board_ref().turn(), r.us(), "side to move: {}", ctx());
    assert_eq!(
        g.board_ref().ep_square(),
        r.capturable_ep(),
        "en passant square: {}",
        ctx()
    );
    let want = r.result();
    let got = g.result().map(|res| {
        let winner = res.returns.iter().position(|&x| x == 1.0);
        (res.reason, winner)
    });
    assert_eq!(got, want, "result: {}", ctx());
    if let Some((reason, _)) = want {
        *counts.ends.entry(reason).or_default() += 1;
        return;
    }
    let seat = r.us().index();
    assert_eq!(g.turn(), Turn::Seat(seat), "turn: {}", ctx());
    let mut actions = Vec::new();
    g.legal_actions(seat, &mut actions);
    let got = if actions == [TimeAction::Pass] {
        Expect::Pass
    } else {
        Expect::Moves(
            actions
                .iter()
                .map(|a| match a {
                    TimeAction::Move(m) => *m,
                    TimeAction::Pass => panic!("pass among moves: {}", ctx()),
                })
                .collect(),
        )
    };
    match (got, r.expected()) {
        (Expect::Pass, Expect::Pass) => counts.passes += 1,
        (Expect::Moves(a), Expect::Moves(b)) => {
            counts.en_passant += usize::from(
                !blind_turn(r.phase) && b.iter().any(|m| m.kind() == MoveKind::EnPassant),
            );
            let (sa, sb) = (
                sorted_codes(a.iter().copied()),
                sorted_codes(b.iter().copied()),
            );
            if sa != sb {
                let name = |m: &Move| g.board_ref().uci(*m);
                let extra: Vec<String> = a.iter().filter(|m| !b.contains(m)).map(name).collect();
                let missing: Vec<String> = b.iter().filter(|m| !a.contains(m)).map(name).collect();
                panic!(
                    "legal lists differ: {}\n  listed, not legal: {extra:?}\n  legal, not listed: {missing:?}",
                    ctx()
                );
            }
            assert_eq!(sa.len(), a.len(), "duplicates: {}", ctx());
        }
        (a, b) => panic!("engine {a:?}, reference {b:?}: {}", ctx()),
    }
    counts.plies += 1;
    if blind_turn(r.phase) {
        counts.blind += 1;
    } else {
        counts.sighted += 1;
        if r.board.in_check(r.us()) {
            counts.in_check += 1;
            let k = r.board.king(r.us()).unwrap();
            let tk = r.board.king(r.us().other()).unwrap();
            if k.file().abs_diff(tk.file()) <= 1 && k.rank().abs_diff(tk.rank()) <= 1 {
                counts.king_check += 1;
                counts.king_only += usize::from(actions.iter().all(|a| match a {
                    TimeAction::Move(m) => m.from() == k,
                    TimeAction::Pass => false,
                }));
            }
        }
    }
}

/// Plays `action` in both and counts what happened.
fn play(g: &mut TimeChess, r: &mut Reference, action: TimeAction, counts: &mut Counts) {
    if let TimeAction::Move(m) = action {
        if blind_turn(r.phase) && r.resolve(m).is_none() {
            counts.forfeits += 1;
        }
        counts.castles += usize::from(m.is_castle());
    }
    g.apply(action);
    r.play(action);
}

/// A greedy choice among the reference's list: captures on the true board, checks
/// (kings stepping next to the enemy king among them), king steps towards the enemy king
/// on blind turns; random among the best.
fn greedy(r: &Reference, moves: &[Move], rng: &mut Pcg64) -> Move {
    let us = r.us();
    let tk = r.board.king(us.other()).unwrap();
    let mut score = |m: &Move| {
        let mut s = 0;
        if !m.is_castle() && r.board.at(m.to()).is_some_and(|p| p.color != us) {
            s += 3;
        }
        let made = if blind_turn(r.phase) {
            r.resolve(*m)
        } else {
            Some(*m)
        };
        if let Some(made) = made {
            if r.board.after(made, us).in_check(us.other()) {
                s += 2;
            }
        }
        if r.board.at(m.from()).is_some_and(|p| p.role == Role::King) && !m.is_castle() {
            let d = |a: Square| {
                a.file()
                    .abs_diff(tk.file())
                    .max(a.rank().abs_diff(tk.rank()))
            };
            if d(m.to()) < d(m.from()) {
                s += 1;
            }
        }
        s * 8 + rng.gen_range(0..8)
    };
    let scored: Vec<(u32, Move)> = moves.iter().map(|m| (score(m), *m)).collect();
    scored.iter().max_by_key(|(s, _)| *s).unwrap().1
}

/// One game from `g`: sampled by the engine's own sampler (`greedy_share` of the
/// decisions greedy instead), checked at every decision.
fn run(mut g: TimeChess, greedy_share: f64, rng: &mut Pcg64, counts: &mut Counts) {
    let cap = 160;
    let mut r = Reference::new(g.board_ref(), g.phase(), cap);
    let mut scratch = Vec::new();
    loop {
        check(&g, &r, counts);
        let Turn::Seat(seat) = g.turn() else { break };
        let sampled = g
            .sample_legal_action(seat, rng, &mut scratch)
            .expect("a sampled action");
        let action = match (r.expected(), sampled) {
            (Expect::Pass, TimeAction::Pass) => TimeAction::Pass,
            (Expect::Moves(list), TimeAction::Move(m)) => {
                assert!(
                    list.contains(&m),
                    "sampled {m:?} is not legal at {}",
                    g.board_ref().fen()
                );
                if rng.gen_bool(greedy_share) {
                    TimeAction::Move(greedy(&r, &list, rng))
                } else {
                    sampled
                }
            }
            (e, s) => panic!("sampled {s:?}, reference {e:?} at {}", g.board_ref().fen()),
        };
        play(&mut g, &mut r, action, counts);
    }
}

/// The engine's lean playout from `g` must play the game the checked sampled loop plays
/// with the same seed (same draws), and end the same way.
fn lean_matches_checked(g: &TimeChess, seed: u64, counts: &mut Counts) {
    let mut lean = g.clone();
    let mut rng = Pcg64::seed_from_u64(seed);
    let (returns, plies) = lean
        .random_playout(&mut rng, None)
        .expect("Time Chess has a lean playout");
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut g = g.clone();
    let mut r = Reference::new(g.board_ref(), g.phase(), 160);
    let mut n = 0;
    let mut scratch = Vec::new();
    loop {
        check(&g, &r, counts);
        let Turn::Seat(seat) = g.turn() else { break };
        let a = g.sample_legal_action(seat, &mut rng, &mut scratch).unwrap();
        play(&mut g, &mut r, a, counts);
        n += 1;
    }
    assert_eq!((g.returns(), n), (returns, plies), "lean playout differs");
}

fn game(fen: &str, phase: Phase) -> TimeChess {
    let b = Board::from_fen_kings_touching(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    TimeChess::from_board_at(b, phase, 160).unwrap()
}

/// Starts: castling both ways soon, en passant at once, promotions, bare kings close
/// together (the enemy king's check), and the touching kings of the issue.
const STARTS: &[(&str, Phase)] = &[
    (
        "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
        Phase::Dawn,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        Phase::Morning,
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        Phase::Dusk,
    ),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", Phase::Evening),
    ("8/2p5/6k1/3P1K2/8/8/8/8 b - - 0 1", Phase::Dawn),
    ("8/2p5/6k1/3P4/5K2/8/8/8 w - - 0 1", Phase::Morning),
    ("7k/r7/5K2/8/8/8/1P6/8 w - - 0 1", Phase::Morning),
    ("4k3/2p1p3/8/3K4/8/8/3P1P2/8 b - - 0 1", Phase::Midnight),
    ("r3k3/1p6/8/3n4/3N4/8/1P6/R3K3 b Qq - 0 1", Phase::Evening),
    ("RBQKQBQR/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1", Phase::Morning),
];

/// Short scripted games through what random play seldom reaches, checked at every ply:
/// a repetition in the same phase, a blind pass, blind castling forfeited, a blind
/// en passant try, the enemy king's check and mate after a blind king step.
#[test]
fn scripted_games_match_the_reference() {
    let scripts: &[(&str, Phase, &[&str])] = &[
        (
            "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            Phase::Dusk,
            &[
                "a1a2", "a8a7", "a2a1", "a7a8", "a1a2", "a8a7", "a2a1", "a7a8", "a1a2", "a8a7",
                "a2a1", "a7a8", "a1a2", "a8a7", "a2a1", "a7a8", "a1a2", "a8a7", "a2a1", "a7a8",
                "a1a2", "a8a7", "a2a1", "a7a8",
            ],
        ),
        (
            "RBQKQBQR/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1",
            Phase::Morning,
            &["pass", "a1b1"],
        ),
        (
            "4k3/8/8/8/8/8/8/R3K1nR w KQ - 0 1",
            Phase::Morning,
            &["e1g1", "e8d8"],
        ),
        (
            "4k3/3p4/8/4P3/8/8/8/4K3 b - - 7 30",
            Phase::Midnight,
            &["d7d5", "e5d6"],
        ),
        (
            "4k3/3p4/8/4P3/8/8/8/4K3 b - - 7 30",
            Phase::Dawn,
            &["d7d5", "e5d6"],
        ),
        (
            "8/2p5/6k1/3P4/5K2/8/8/8 w - - 0 1",
            Phase::Morning,
            &["f4f5", "g6h5", "f5e5"],
        ),
        ("7k/r7/5K2/8/8/8/1P6/8 w - - 0 1", Phase::Morning, &["f6g7"]),
    ];
    let mut counts = Counts::default();
    for (fen, phase, moves) in scripts {
        let mut g = game(fen, *phase);
        let mut r = Reference::new(g.board_ref(), g.phase(), 160);
        for uci in moves.iter() {
            check(&g, &r, &mut counts);
            let a = g
                .parse_action(uci)
                .unwrap_or_else(|e| panic!("{uci} at {}: {e}", g.board_ref().fen()));
            play(&mut g, &mut r, a, &mut counts);
        }
        check(&g, &r, &mut counts);
    }
    eprintln!("{counts:?}");
    for end in ["repetition", "checkmate"] {
        assert_eq!(counts.ends.get(end), Some(&1), "{counts:?}");
    }
    assert!(counts.passes >= 1 && counts.king_check >= 1 && counts.en_passant >= 1);
}

#[test]
fn random_games_match_the_reference() {
    let mut rng = Pcg64::seed_from_u64(0x7133_0001);
    let mut counts = Counts::default();
    for i in 0..40 {
        let g = match i % 3 {
            0 => TimeChess::startpos(160),
            _ => {
                let (fen, phase) = STARTS[i % STARTS.len()];
                game(fen, phase)
            }
        };
        run(g, 0.0, &mut rng, &mut counts);
    }
    eprintln!("{counts:?}");
    assert!(counts.plies > 4000, "{counts:?}");
    assert!(counts.king_check > 10, "{counts:?}");
    assert!(counts.castles > 3 && counts.forfeits > 100, "{counts:?}");
    assert!(counts.en_passant > 3, "{counts:?}");
}

#[test]
fn greedy_games_match_the_reference() {
    let mut rng = Pcg64::seed_from_u64(0x7133_0002);
    let mut counts = Counts::default();
    for i in 0..45 {
        let g = match i % 3 {
            0 => TimeChess::startpos(160),
            _ => {
                let (fen, phase) = STARTS[i % STARTS.len()];
                game(fen, phase)
            }
        };
        run(g, 0.7, &mut rng, &mut counts);
    }
    eprintln!("{counts:?}");
    assert!(counts.plies > 2500, "{counts:?}");
    assert!(counts.king_check > 100, "{counts:?}");
    assert!(
        counts.ends.get("checkmate").copied().unwrap_or(0) > 3,
        "{counts:?}"
    );
}

#[test]
fn lean_playouts_match_the_reference() {
    let mut counts = Counts::default();
    let mut rng = Pcg64::seed_from_u64(0x7133_0003);
    for i in 0..40 {
        let g = match i % 4 {
            0 => TimeChess::startpos(160),
            _ => {
                let (fen, phase) = STARTS[i % STARTS.len()];
                game(fen, phase)
            }
        };
        lean_matches_checked(&g, rng.gen(), &mut counts);
    }
    eprintln!("{counts:?}");
    assert!(counts.plies > 2000, "{counts:?}");
}

//! Synchronous Chess against a slow reference written from RULES.md ("Synchronous Chess")
//! and the chess-kit seed alone, compared at every decision of seeded random and greedy
//! games.
//!
//! The reference keeps its own mailbox (`common/mailbox.rs`), its own castling rights and
//! its own exchange-of-blows state, and plays the chosen actions itself: nothing is read
//! back from the engine after the start position (placement and castling rights). Pieces
//! carry identities, so "still attacked by the same piece" and "each piece may only move
//! once during an exchange of blows" follow the pieces themselves, not squares. At every
//! node it checks: whose turn it is (terminal, one seat, both), each seat's legal list as
//! a set (turn moves, exchange captures and `pass`), the placement, and the result (reason
//! and winner) once the game ends.
//!
//! What the reference implements (RULES.md, with no check rule; royal capture wins):
//! - turn moves: orthodox legal moves without en passant; a side whose king is attacked
//!   (by any enemy piece, king included) may only move the king, not by castling, to a
//!   square not attacked before the move;
//! - resolution: a move takes the piece on its target only if that piece stayed; two
//!   pieces ending on one square are both lost; castling moves king and rook;
//! - exchange of blows on a square a moved piece reached when an enemy piece attacked it
//!   before the move and (wherever that piece stands now) still attacks it, if the other
//!   side has a legal capture there; exchange captures are orthodox legal captures onto
//!   the square, plus any capture of a king; a piece that captured in the exchange (even
//!   if its capture took nothing) may not capture again until the next turn; two
//!   exchanges run in lockstep, a pass ends its square's exchange, and a square's exchange
//!   goes on while the opponent of the piece standing there can capture;
//! - results: a lost king loses (both lost: draw); checkmate (attacked king, no move);
//!   double checkmate and stalemate draw; then the ply cap (turns), bare material
//!   (K v K, K+minor v K), 50 turns without capture or pawn move, threefold repetition of
//!   placement and castling rights at turn starts.

use crate::mailbox;

use engine::game::{Game, Turn};
use engine::variants::synchronous::{Synchronous, SynchronousParams};
use engine::{Color, Move, MoveKind, Piece, Role, Square};
use mailbox::{castle_dest, forward, sorted_codes, step, Mailbox, BISHOP_DIRS, ROOK_DIRS};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The seed's X (`pass`) as the engine spells it: the null move.
const PASS: Move = Move::NULL;

/// Whether the piece on `from` attacks `to` on `b` (its pattern, blockers stop rays).
fn piece_attacks(b: &Mailbox, from: Square, to: Square) -> bool {
    let Some(p) = b.at(from) else { return false };
    if from == to {
        return false;
    }
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    let slide = |dirs: &[(i8, i8)]| {
        dirs.iter().any(|&(sf, sr)| {
            let mut cur = from;
            while let Some(n) = step(cur, sf, sr) {
                if n == to {
                    return true;
                }
                if b.at(n).is_some() {
                    return false;
                }
                cur = n;
            }
            false
        })
    };
    match p.role {
        Role::Pawn => dr == forward(p.color) && df.abs() == 1,
        Role::Knight => (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1),
        Role::King => df.abs() <= 1 && dr.abs() <= 1,
        Role::Bishop => slide(&BISHOP_DIRS),
        Role::Rook => slide(&ROOK_DIRS),
        Role::Queen => slide(&BISHOP_DIRS) || slide(&ROOK_DIRS),
    }
}

/// One open exchange of blows: its square and the side to capture there.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Open {
    square: Square,
    side: Color,
}

#[derive(Clone)]
struct Reference {
    board: Mailbox,
    /// Identity of the piece on each square (0: empty); a promoted pawn keeps its own.
    ids: [u32; 64],
    /// Castling rights as the rooks' squares.
    rights: Vec<Square>,
    /// Open exchanges, the one on White's landing square first; empty at a turn start.
    open: Vec<Open>,
    /// Identities of the pieces that captured in the current exchange.
    spent: Vec<u32>,
    turns: u32,
    quiet: u32,
    /// Whether the current turn (with its exchange) captured or moved a pawn so far.
    irreversible: bool,
    /// Turn-start keys since the last turn that captured or moved a pawn.
    keys: Vec<String>,
    /// Reason and winner.
    result: Option<(&'static str, Option<Color>)>,
    ply_cap: u32,
}

impl Reference {
    fn new(g: &Synchronous, params: &SynchronousParams) -> Reference {
        let board = Mailbox::of(g.board_ref());
        let mut ids = [0; 64];
        for s in Square::all() {
            if board.at(s).is_some() {
                ids[s.index()] = s.index() as u32 + 1;
            }
        }
        let mut r = Reference {
            board,
            ids,
            rights: g.board_ref().castling_rights().into_iter().collect(),
            open: Vec::new(),
            spent: Vec::new(),
            turns: 0,
            quiet: 0,
            irreversible: false,
            keys: Vec::new(),
            result: None,
            ply_cap: params.ply_cap,
        };
        r.result = r.kings_result();
        if r.result.is_none() {
            r.keys.push(r.key());
            r.result = r.turn_start_result();
        }
        r
    }

    fn key(&self) -> String {
        let mut k: String = self
            .board
            .sq
            .iter()
            .map(|p| p.map_or('.', |p| p.char()))
            .collect();
        let mut rights = self.rights.clone();
        rights.sort_by_key(|s| s.index());
        for s in rights {
            k.push_str(&s.to_string());
        }
        k
    }

    fn square_of(&self, id: u32) -> Option<Square> {
        Square::all().find(|s| self.ids[s.index()] == id)
    }

    /// `c`'s turn moves.
    fn turn_moves(&self, c: Color) -> Vec<Move> {
        let legal = self.board.legal_moves(c, None, &self.rights);
        let Some(k) = self.board.king(c) else {
            return legal;
        };
        if !self.board.attacked(k, c.other()) {
            return legal;
        }
        legal
            .into_iter()
            .filter(|m| m.from() == k && !m.is_castle() && !self.board.attacked(m.to(), c.other()))
            .collect()
    }

    /// `c`'s exchange captures on `d`: orthodox legal captures there and any capture of a
    /// king there, by pieces not yet spent in this exchange.
    fn captures(&self, c: Color, d: Square) -> Vec<Move> {
        if self.board.at(d).is_none_or(|p| p.color == c) {
            return Vec::new();
        }
        let fresh = |m: &Move| m.to() == d && !self.spent.contains(&self.ids[m.from().index()]);
        let mut out: Vec<Move> = self
            .board
            .legal_moves(c, None, &[])
            .into_iter()
            .filter(|m| fresh(m) && !m.is_castle())
            .collect();
        if self.board.at(d).is_some_and(|p| p.role == Role::King) {
            for m in self.board.pseudo_moves(c, None) {
                if fresh(&m) && !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        out
    }

    /// The exchanges whose side decides now: both when their sides differ, else the first.
    fn acting(&self) -> Vec<Open> {
        match self.open.as_slice() {
            [a, b] if a.side != b.side => vec![*a, *b],
            [a, ..] => vec![*a],
            [] => vec![],
        }
    }

    fn turn(&self) -> Turn {
        if self.result.is_some() {
            return Turn::Terminal;
        }
        match self.acting().as_slice() {
            [x] => Turn::Seat(x.side as usize),
            _ => Turn::Simultaneous,
        }
    }

    fn legal(&self, c: Color) -> Vec<Move> {
        if self.result.is_some() {
            return Vec::new();
        }
        if self.open.is_empty() {
            return self.turn_moves(c);
        }
        let mut out = Vec::new();
        for x in self.acting() {
            if x.side == c {
                out.extend(self.captures(c, x.square));
                out.push(PASS);
            }
        }
        out
    }

    /// Plays moves made at the same time (a turn, or one exchange step), by the seed's
    /// resolution. Returns the identities of the pieces that moved.
    fn resolve(&mut self, acts: &[(Color, Move)]) -> Vec<u32> {
        let before = self.board.clone();
        let before_ids = self.ids;
        let mut vacated = Vec::new();
        // (piece, identity, destination)
        let mut arrivals: Vec<(Piece, u32, Square)> = Vec::new();
        let mut movers = Vec::new();
        let mut king_moved = Vec::new();
        for &(c, m) in acts {
            if m == PASS {
                continue;
            }
            let piece = before.at(m.from()).expect("a piece on the from-square");
            let id = before_ids[m.from().index()];
            movers.push(id);
            if piece.role == Role::Pawn {
                self.irreversible = true;
            }
            if piece.role == Role::King {
                king_moved.push(c);
            }
            vacated.push(m.from());
            match m.kind() {
                MoveKind::Castle => {
                    let rook = before.at(m.to()).expect("a castling rook");
                    let (kd, rd) = castle_dest(c, m.from(), m.to());
                    vacated.push(m.to());
                    arrivals.push((piece, id, kd));
                    arrivals.push((rook, before_ids[m.to().index()], rd));
                }
                MoveKind::Promotion(r) => arrivals.push((Piece::new(c, r), id, m.to())),
                _ => arrivals.push((piece, id, m.to())),
            }
        }
        let collided = |i: usize| {
            arrivals
                .iter()
                .enumerate()
                .any(|(j, a)| j != i && a.2 == arrivals[i].2 && a.0.color != arrivals[i].0.color)
        };
        for (i, &(p, _, to)) in arrivals.iter().enumerate() {
            let stayed =
                before.at(to).is_some_and(|t| t.color != p.color) && !vacated.contains(&to);
            if collided(i) || stayed {
                self.irreversible = true;
            }
        }
        for &s in &vacated {
            self.board.set(s, None);
            self.ids[s.index()] = 0;
        }
        for (i, &(p, id, to)) in arrivals.iter().enumerate() {
            let lost = collided(i);
            self.board.set(to, (!lost).then_some(p));
            self.ids[to.index()] = if lost { 0 } else { id };
        }
        // Castling rights go with a rook that leaves or is taken, and with a king move.
        self.rights
            .retain(|s| !vacated.contains(s) && !arrivals.iter().any(|a| a.2 == *s));
        for c in king_moved {
            let back = if c == Color::White { 0 } else { 7 };
            self.rights.retain(|s| s.rank() != back);
        }
        movers
    }

    fn kings_result(&self) -> Option<(&'static str, Option<Color>)> {
        match (
            self.board.king(Color::White).is_some(),
            self.board.king(Color::Black).is_some(),
        ) {
            (true, true) => None,
            (false, false) => Some(("both-kings-lost", None)),
            (true, false) => Some(("king-captured", Some(Color::White))),
            (false, true) => Some(("king-captured", Some(Color::Black))),
        }
    }

    fn turn_start_result(&self) -> Option<(&'static str, Option<Color>)> {
        let mut mated = Vec::new();
        let mut stuck = false;
        for c in [Color::White, Color::Black] {
            if self.turn_moves(c).is_empty() {
                if self.board.in_check(c) {
                    mated.push(c);
                } else {
                    stuck = true;
                }
            }
        }
        match mated.as_slice() {
            [_, _] => return Some(("double-checkmate", None)),
            [c] => return Some(("checkmate", Some(c.other()))),
            _ => {}
        }
        if stuck {
            return Some(("stalemate", None));
        }
        if self.turns >= self.ply_cap {
            return Some(("cap", None));
        }
        let roles: Vec<Role> = self.board.sq.iter().flatten().map(|p| p.role).collect();
        let heavy = roles
            .iter()
            .any(|r| matches!(r, Role::Pawn | Role::Rook | Role::Queen));
        let minors = roles
            .iter()
            .filter(|r| matches!(r, Role::Knight | Role::Bishop))
            .count();
        if !heavy && minors <= 1 {
            return Some(("insufficient-material", None));
        }
        if self.quiet >= 50 {
            return Some(("fifty-moves", None));
        }
        let now = self.keys.last().expect("the current key");
        if self.keys.iter().filter(|k| *k == now).count() >= 3 {
            return Some(("repetition", None));
        }
        None
    }

    /// After a turn or an exchange step: a lost king ends the game; with no exchange
    /// open the next turn starts.
    fn settle(&mut self) {
        self.result = self.kings_result();
        if self.result.is_some() || !self.open.is_empty() {
            return;
        }
        self.spent.clear();
        if self.irreversible {
            self.quiet = 0;
            self.keys.clear();
        } else {
            self.quiet += 1;
        }
        self.irreversible = false;
        self.keys.push(self.key());
        self.result = self.turn_start_result();
    }

    fn play_turn(&mut self, white: Move, black: Move) {
        let before = self.board.clone();
        let before_ids = self.ids;
        let acts = [(Color::White, white), (Color::Black, black)];
        self.resolve(&acts);
        self.turns += 1;
        for &(c, m) in &acts {
            // Every piece the move moved (king and rook when castling), where it stands.
            let mut moved = vec![before_ids[m.from().index()]];
            if m.is_castle() {
                moved.push(before_ids[m.to().index()]);
            }
            for id in moved {
                let Some(l) = self.square_of(id) else {
                    continue;
                };
                // An enemy piece attacked `l` before the move and, wherever it stands
                // now, attacks it still.
                let still = Square::all()
                    .filter(|&s| {
                        before.at(s).is_some_and(|p| p.color == c.other())
                            && piece_attacks(&before, s, l)
                    })
                    .any(|s| {
                        self.square_of(before_ids[s.index()])
                            .is_some_and(|now| piece_attacks(&self.board, now, l))
                    });
                if still && !self.captures(c.other(), l).is_empty() {
                    self.open.push(Open {
                        square: l,
                        side: c.other(),
                    });
                }
            }
        }
        self.settle();
    }

    fn play_exchange(&mut self, parts: &[(Color, Move)]) {
        let movers = self.resolve(parts);
        self.spent.extend(movers);
        let acting = self.acting();
        let mut kept = Vec::new();
        for x in self.open.clone() {
            let passed =
                acting.contains(&x) && parts.iter().any(|&(c, m)| c == x.side && m == PASS);
            if !passed {
                kept.push(x);
            }
        }
        self.open = kept
            .into_iter()
            .filter_map(|x| {
                let p = self.board.at(x.square)?;
                let side = p.color.other();
                (!self.captures(side, x.square).is_empty()).then_some(Open {
                    square: x.square,
                    side,
                })
            })
            .collect();
        self.settle();
    }

    fn apply(&mut self, acts: &[(Color, Move)]) {
        if self.open.is_empty() {
            self.play_turn(acts[0].1, acts[1].1);
        } else {
            self.play_exchange(acts);
        }
    }
}

// ----- the comparison -------------------------------------------------------------------

fn show(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves
        .iter()
        .map(|&m| {
            if m == PASS {
                "pass".to_string()
            } else {
                format!("{m:?}")
            }
        })
        .collect();
    v.sort();
    v
}

fn engine_legal(g: &Synchronous, seat: usize) -> Vec<Move> {
    let mut v = Vec::new();
    g.legal_actions(seat, &mut v);
    v
}

/// Compares the engine with the reference at one node; returns the legal lists.
fn compare(g: &Synchronous, r: &Reference, trail: &[String]) -> [Vec<Move>; 2] {
    let ctx = || format!("after {}", trail.join(" "));
    assert_eq!(Mailbox::of(g.board_ref()), r.board, "placement, {}", ctx());
    assert_eq!(g.turn(), r.turn(), "turn, {}", ctx());
    let lists = [0, 1].map(|seat| {
        let ours = engine_legal(g, seat);
        let theirs = r.legal(if seat == 0 {
            Color::White
        } else {
            Color::Black
        });
        assert_eq!(
            sorted_codes(ours.iter().copied()),
            sorted_codes(theirs.iter().copied()),
            "seat {seat}: engine {:?} reference {:?}, {}",
            show(&ours),
            show(&theirs),
            ctx()
        );
        ours
    });
    match (g.result(), r.result) {
        (None, None) => {}
        (Some(e), Some((reason, winner))) => {
            let expected = match winner {
                None => [0.0, 0.0],
                Some(Color::White) => [1.0, -1.0],
                Some(Color::Black) => [-1.0, 1.0],
            };
            assert_eq!(
                (e.reason, [e.returns[0], e.returns[1]]),
                (reason, expected),
                "result, {}",
                ctx()
            );
        }
        (e, r) => panic!("result: engine {e:?} reference {r:?}, {}", ctx()),
    }
    lists
}

#[derive(Clone, Copy)]
enum Policy {
    /// Uniform over the legal list.
    Random,
    /// Captures first, then moves onto squares the enemy attacks (which open exchanges
    /// of blows), and captures rather than passes in exchanges.
    Greedy,
}

fn choose(r: &Reference, c: Color, list: &[Move], policy: Policy, rng: &mut Pcg64Mcg) -> Move {
    let pick = |v: &[Move], rng: &mut Pcg64Mcg| v[rng.gen_range(0..v.len())];
    if let Policy::Greedy = policy {
        let captures: Vec<Move> = list
            .iter()
            .copied()
            .filter(|&m| m != PASS && r.board.at(m.to()).is_some_and(|p| p.color != c))
            .collect();
        let contested: Vec<Move> = list
            .iter()
            .copied()
            .filter(|&m| m != PASS && r.board.attacked(m.to(), c.other()))
            .collect();
        let roll = rng.gen_range(0..10);
        if !captures.is_empty() && roll < 6 {
            return pick(&captures, rng);
        }
        if !contested.is_empty() && roll < 9 {
            return pick(&contested, rng);
        }
    }
    pick(list, rng)
}

/// What the games visited, so the test can insist the exchange phase was exercised.
#[derive(Default, Debug)]
struct Visited {
    /// Decisions played: turns and exchange steps.
    plies: usize,
    exchange_steps: usize,
    /// Exchange steps where both sides captured at once (two exchanges in lockstep).
    lockstep_captures: usize,
    /// Lockstep steps where one capture lands where the other starts (the spent-mark
    /// bug's class).
    crossed_captures: usize,
    /// How the games ended (reason, count).
    endings: std::collections::BTreeMap<&'static str, usize>,
}

/// Plays one game from `fen`, comparing at every node.
fn play(fen: &str, policy: Policy, max_turns: u32, rng: &mut Pcg64Mcg, seen: &mut Visited) {
    let params = SynchronousParams::default();
    let mut g = Synchronous::from_opening(&params, fen).unwrap();
    let mut r = Reference::new(&g, &params);
    let mut trail = vec![fen.to_string()];
    loop {
        let lists = compare(&g, &r, &trail);
        if r.turns >= max_turns && r.open.is_empty() {
            return;
        }
        let acts: Vec<(Color, Move)> = match r.turn() {
            Turn::Terminal => {
                *seen
                    .endings
                    .entry(r.result.expect("a result").0)
                    .or_default() += 1;
                return;
            }
            Turn::Seat(s) => {
                let c = if s == 0 { Color::White } else { Color::Black };
                vec![(c, choose(&r, c, &lists[s], policy, rng))]
            }
            _ => [Color::White, Color::Black]
                .into_iter()
                .zip(&lists)
                .map(|(c, l)| (c, choose(&r, c, l, policy, rng)))
                .collect(),
        };
        let text: Vec<String> = acts.iter().map(|&(_, m)| g.action_notation(m)).collect();
        trail.push(text.join("|"));
        if acts.len() == 1 {
            g.apply(acts[0].1);
        } else {
            g.apply_joint(&[acts[0].1, acts[1].1]);
        }
        if !r.open.is_empty() {
            seen.exchange_steps += 1;
            if let [(_, w), (_, b)] = acts[..] {
                if w != PASS && b != PASS {
                    seen.lockstep_captures += 1;
                    seen.crossed_captures += (w.to() == b.from() || b.to() == w.from()) as usize;
                }
            }
        }
        r.apply(&acts);
        seen.plies += 1;
    }
}

const STARTS: [&str; 9] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // A crowded middlegame: collisions and exchanges of blows are common.
    "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Two exchanges at once after f3e5|b8c6.
    "1n5k/1p1n4/8/8/B7/5N2/8/4R2K w - - 0 1",
    // The spent-queen position (d2d3|b1c2, then d1c2|c2d3).
    "7k/8/8/8/8/8/3P4/1b1Q3K w - - 0 1",
    // Promotions on both sides, castling rights, pawns aimed at the rooks.
    "1r2k2r/2P3P1/8/8/8/8/1p3p2/R3K2R w KQk - 0 1",
    // White's king attacked: king moves only.
    "4k3/8/8/8/8/1N6/2B5/r3K2R w K - 0 1",
    // Two same-coloured bishops: plays on.
    "4k3/8/8/8/8/5B2/8/3BK3 w - - 0 1",
    // Kings close together with rooks: king captures and collisions.
    "8/3p4/5k1r/R1K5/4P3/8/8/8 w - - 0 1",
];

#[test]
fn synchronous_matches_the_reference_in_random_and_greedy_games() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x5_1AC);
    let mut seen = Visited::default();
    let mut games = 0;
    for (i, fen) in STARTS.iter().enumerate() {
        let rounds = if i == 0 { 40 } else { 16 };
        for round in 0..rounds {
            let policy = if round % 2 == 0 {
                Policy::Random
            } else {
                Policy::Greedy
            };
            play(fen, policy, 150, &mut rng, &mut seen);
            games += 1;
        }
    }
    eprintln!("{games} games: {seen:?}");
    assert!(seen.plies >= 5000, "{seen:?}");
    assert!(seen.exchange_steps >= 500, "{seen:?}");
    assert!(seen.lockstep_captures >= 20, "{seen:?}");
    assert!(seen.crossed_captures >= 5, "{seen:?}");
    for ending in [
        "checkmate",
        "king-captured",
        "stalemate",
        "insufficient-material",
    ] {
        assert!(seen.endings.contains_key(ending), "{ending}: {seen:?}");
    }
}

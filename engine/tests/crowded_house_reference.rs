//! A slow Crowded House legality reference written from docs/RULES.md ("Crowded House" and
//! the common rules) and the seed, compared with the engine at every decision of seeded
//! random and greedy games.
//!
//! The reference reads only the board's squares, the seat to move and the castling rights
//! (public state); it derives en passant from the move it saw played, counts the clocks
//! and repetitions itself, and decides legality on a mailbox (`common/mailbox.rs`) with
//! its own "can this seat capture there" test:
//! - seats 0..3 are white king-side, black king-side, white queen-side, black queen-side;
//!   king side = files e-h;
//! - a seat moves a piece of its colour that starts or ends on its half (castling: king
//!   or rook starts or ends there);
//! - the next seat "can capture" a square when one of its colour's pieces attacks it by
//!   its pattern and the piece starts on that seat's half or the square is on it;
//! - a move is illegal if afterwards the mover's king can be captured by the next seat;
//!   castling also needs the king's start, path and destination uncapturable (king and
//!   rook lifted);
//! - en passant only right after the double step (always the next seat);
//! - no move: pass, unless the king is capturable (checkmate, the team loses);
//! - four passes in a row: draw (`stalemate`); the common draws (cap, bare material,
//!   50 moves, threefold repetition of position and seat).

use crate::mailbox;
use crate::rules_track;

use engine::game::{Game, Turn};
use engine::variants::crowded_house::{CrowdedAction, CrowdedHouse, CrowdedHouseParams};
use engine::{Color, Move, MoveKind, Role, Square};
use mailbox::{
    castle_dest, forward, rank_span, step, Mailbox, BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS,
    ROOK_DIRS,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rules_track::{common_draw, ends_seen, same_end, uci, usable_ep};

const SEATS: usize = 4;

fn color_of(seat: usize) -> Color {
    Color::from_index(seat % 2)
}

/// Whether `s` is on `seat`'s half (king side e-h for seats 0 and 1).
fn on_half(seat: usize, s: Square) -> bool {
    let king_side = s.file() >= 4;
    king_side == (seat < 2)
}

/// Whether the piece on `from` attacks `to` by its pattern on `mb` (pawns diagonally).
fn attacks_from(mb: &Mailbox, from: Square, to: Square) -> bool {
    let Some(p) = mb.at(from) else { return false };
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    match p.role {
        Role::Pawn => dr == forward(p.color) && df.abs() == 1,
        Role::Knight => KNIGHT_STEPS.contains(&(df, dr)),
        Role::King => KING_STEPS.contains(&(df, dr)),
        Role::Bishop | Role::Rook | Role::Queen => {
            let mut dirs = Vec::new();
            if p.role != Role::Bishop {
                dirs.extend(ROOK_DIRS);
            }
            if p.role != Role::Rook {
                dirs.extend(BISHOP_DIRS);
            }
            dirs.into_iter().any(|(fx, rx)| {
                let mut cur = from;
                while let Some(n) = step(cur, fx, rx) {
                    if n == to {
                        return true;
                    }
                    if mb.at(n).is_some() {
                        return false;
                    }
                    cur = n;
                }
                false
            })
        }
    }
}

/// Whether `seat` could capture on `target` on `mb`: a piece of its colour attacks the
/// square and the move starts or ends on the seat's half.
fn capturable_by(mb: &Mailbox, seat: usize, target: Square) -> bool {
    Square::all().any(|q| {
        mb.at(q).is_some_and(|p| p.color == color_of(seat))
            && (on_half(seat, q) || on_half(seat, target))
            && attacks_from(mb, q, target)
    })
}

/// The reference's own record of the game: what it saw played.
struct Reference {
    mb: Mailbox,
    seat: usize,
    rights: Vec<Square>,
    ep: Option<Square>,
    halfmoves: u32,
    plies: u32,
    passes_in_a_row: u32,
    /// (squares, seat, rights, capturable en passant square) before each action since
    /// the last capture or pawn move.
    seen: Vec<(Mailbox, usize, Vec<Square>, Option<Square>)>,
    ply_cap: u32,
}

impl Reference {
    fn new(g: &CrowdedHouse, ply_cap: u32) -> Reference {
        let b = g.board_ref();
        let mut r = Reference {
            mb: Mailbox::of(b),
            seat: g.seat(),
            rights: Vec::new(),
            ep: b.ep_square(),
            halfmoves: b.halfmoves() as u32,
            plies: 0,
            passes_in_a_row: 0,
            seen: Vec::new(),
            ply_cap,
        };
        r.sync(g);
        r
    }

    /// Reads the public state after an action: squares (checked against the reference's
    /// own move), seat and castling rights.
    fn sync(&mut self, g: &CrowdedHouse) {
        let b = g.board_ref();
        assert_eq!(Mailbox::of(b), self.mb, "board after the move");
        assert_eq!(g.seat(), self.seat, "seat order");
        self.rights = b.castling_rights().into_iter().collect();
    }

    fn us(&self) -> Color {
        color_of(self.seat)
    }

    fn next(&self) -> usize {
        (self.seat + 1) % SEATS
    }

    /// The en passant square when a pawn of the side to move stands beside the pawn
    /// (as a position's identity counts it).
    fn ep_identity(&self) -> Option<Square> {
        usable_ep(&self.mb, self.us(), self.ep)
    }

    fn identity(&self) -> (Mailbox, usize, Vec<Square>, Option<Square>) {
        (
            self.mb.clone(),
            self.seat,
            self.rights.clone(),
            self.ep_identity(),
        )
    }

    fn in_check(&self) -> bool {
        self.mb
            .king(self.us())
            .is_some_and(|k| capturable_by(&self.mb, self.next(), k))
    }

    fn legal_moves(&self) -> Vec<Move> {
        let us = self.us();
        let (seat, next) = (self.seat, self.next());
        let mut out = Vec::new();
        for m in self.mb.pseudo_moves(us, self.ep) {
            if !(on_half(seat, m.from()) || on_half(seat, m.to())) {
                continue;
            }
            let after = self.mb.after(m, us);
            if after
                .king(us)
                .is_some_and(|k| capturable_by(&after, next, k))
            {
                continue;
            }
            out.push(m);
        }
        for m in self.mb.castling_moves(us, &self.rights, false) {
            let (king, rook) = (m.from(), m.to());
            let (kd, rd) = castle_dest(us, king, rook);
            if ![king, rook, kd, rd].iter().any(|&s| on_half(seat, s)) {
                continue;
            }
            let mut lifted = self.mb.clone();
            lifted.set(king, None);
            lifted.set(rook, None);
            if rank_span(king, kd)
                .iter()
                .any(|&s| capturable_by(&lifted, next, s))
            {
                continue;
            }
            out.push(m);
        }
        out
    }

    /// The end reason, if the game is over.
    fn result(&self) -> Option<&'static str> {
        if self.passes_in_a_row >= 4 && self.plies < self.ply_cap {
            return Some("stalemate");
        }
        if self.plies >= self.ply_cap {
            return Some("cap");
        }
        if let Some(why) = common_draw(&self.mb, self.halfmoves, &self.seen, &self.identity()) {
            return Some(why);
        }
        if self.in_check() && self.legal_moves().is_empty() {
            return Some("checkmate");
        }
        None
    }

    fn actions(&self) -> Vec<String> {
        let moves = self.legal_moves();
        let mut v: Vec<String> = if moves.is_empty() {
            if self.in_check() {
                vec![]
            } else {
                vec!["pass".into()]
            }
        } else {
            moves.iter().map(|&m| uci(m, self.us())).collect()
        };
        v.sort();
        v
    }

    fn play(&mut self, m: Option<Move>) {
        let id = self.identity();
        self.seen.push(id);
        self.plies += 1;
        let us = self.us();
        match m {
            None => {
                self.passes_in_a_row += 1;
                self.halfmoves += 1;
                self.ep = None;
            }
            Some(m) => {
                self.passes_in_a_row = 0;
                let pawn = self.mb.at(m.from()).is_some_and(|p| p.role == Role::Pawn);
                let capture = m.kind() != MoveKind::Castle && self.mb.at(m.to()).is_some()
                    || m.kind() == MoveKind::EnPassant;
                self.ep = (pawn && m.from().rank().abs_diff(m.to().rank()) == 2)
                    .then(|| step(m.from(), 0, forward(us)).unwrap());
                self.mb = self.mb.after(m, us);
                if pawn || capture {
                    self.halfmoves = 0;
                    self.seen.clear();
                } else {
                    self.halfmoves += 1;
                }
            }
        }
        self.seat = self.next();
    }
}

fn sorted_engine_actions(g: &CrowdedHouse) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(g.seat(), &mut v);
    let mut s: Vec<String> = v.iter().map(|&a| g.action_notation(a)).collect();
    s.sort();
    s
}

/// Plays games from `opening` until `plies` decisions were compared; returns the end
/// reasons seen.
fn run(
    opening: &str,
    ply_cap: u32,
    plies: usize,
    greedy: f64,
    rng: &mut Pcg64Mcg,
) -> Vec<&'static str> {
    let params = CrowdedHouseParams {
        ply_cap,
        ..Default::default()
    };
    let mut ends = Vec::new();
    let mut done = 0;
    while done < plies {
        let mut g = CrowdedHouse::from_opening(&params, opening).unwrap();
        let mut r = Reference::new(&g, ply_cap);
        loop {
            let here = g.observation(0);
            if same_end(&g, r.result(), &here, &mut ends) {
                break;
            }
            assert_eq!(g.turn(), Turn::Seat(r.seat));
            let ours = sorted_engine_actions(&g);
            let theirs = r.actions();
            assert_eq!(ours, theirs, "legal actions at {here}");
            done += 1;
            // Greedy: a capture when there is one, else any action.
            let moves = r.legal_moves();
            let us = r.us();
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| {
                    m.kind() == MoveKind::EnPassant
                        || m.kind() != MoveKind::Castle
                            && r.mb.at(m.to()).is_some_and(|p| p.color != us)
                })
                .collect();
            let choice = if !captures.is_empty() && rng.gen_bool(greedy) {
                Some(captures[rng.gen_range(0..captures.len())])
            } else if moves.is_empty() {
                None
            } else {
                Some(moves[rng.gen_range(0..moves.len())])
            };
            let text = choice.map_or("pass".to_string(), |m| uci(m, us));
            let a = g.parse_action(&text).unwrap();
            assert_eq!(matches!(a, CrowdedAction::Pass), choice.is_none());
            g.apply(a);
            r.play(choice);
            r.sync(&g);
        }
    }
    ends
}

const OPENINGS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Castling both ways for both colours, the queen-side seat to move.
    "r3k2r/pppq1ppp/2n2n2/2bpp3/2BPP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1 | 2",
    // Kiwipete and Position 4: pins, promotions, checks.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    // En passant at once, by the black king-side seat.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Thin material: passes, kings in the open, rooks across halves.
    "4k3/8/8/8/8/8/r6P/4K2R w K - 0 1",
    "3k4/1p6/8/8/8/8/6P1/R3K3 b Q - 0 1 | 3",
    "7k/3q4/8/8/8/8/P7/K5R1 w - - 0 1",
];

#[test]
fn crowded_house_matches_the_reference_in_random_and_greedy_play() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xc20_3d3d);
    let mut ends = Vec::new();
    for (i, opening) in OPENINGS.iter().enumerate() {
        let cap = if i % 2 == 0 { 400 } else { 120 };
        ends.extend(run(opening, cap, 250, 0.0, &mut rng));
        ends.extend(run(opening, cap, 250, 0.8, &mut rng));
    }
    let ends = ends_seen(ends);
    assert!(ends.contains(&"checkmate"), "{ends:?}");
}

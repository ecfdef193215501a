//! A slow Half Alice Chess reference written from docs/RULES.md ("Half Alice Chess" and the
//! common rules) and the seed, compared with the engine at every decision of seeded random
//! and greedy games (16 and 12 checkers a colour).
//!
//! The reference keeps its own mailbox (`common/mailbox.rs`) and its own set of squares
//! whose pieces stand on the mirror side, checked against the engine's after every move;
//! it reads the castling rights from the board (public state) and works out everything
//! else itself:
//! - a piece moves as in orthodox chess on a board holding only the pieces of its side;
//!   a square holding a piece of the other side is never a destination; a double step
//!   needs the crossed square empty on the pawn's side; en passant only against a pawn
//!   that stands (after its switch) on the capturer's side;
//! - the moved piece switches side (castling: king and rook both);
//! - (a) on the side where the move is played, with the moved piece standing there, the
//!   mover's king, if it stands on that side, must not be attacked; (b) after the switch
//!   the king must not be attacked on its side (attacks by any enemy piece of that side,
//!   king included);
//! - castling: king and rook on one side, the squares they cross empty on that side, their
//!   destinations empty on both, the king not attacked on its side at its start, on its
//!   path or destination; from the plain side it needs two free checkers;
//! - with fewer than 16 checkers, a piece off the mirror moves only while its owner has a
//!   checker to spare;
//! - no move: checkmate if the king is attacked on its side, else stalemate; draws: bare
//!   material, 50 moves, threefold repetition (board, sides, castling, en passant), cap.

use crate::mailbox;
use crate::rules_track;

use engine::game::{Game, Turn};
use engine::variants::half_alice::{HalfAlice, HalfAliceParams};
use engine::{Color, Move, MoveKind, Piece, Role, Square};
use mailbox::{castle_dest, forward, step, Mailbox};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rules_track::{common_draw, play_openings, same_end, uci, usable_ep};

type Identity = (Mailbox, [bool; 64], Color, Vec<Square>, Option<Square>);

struct Reference {
    mb: Mailbox,
    /// Squares whose pieces stand on the mirror side.
    mirror: [bool; 64],
    turn: Color,
    rights: Vec<Square>,
    /// The square a pawn just crossed with its double step, and that pawn's square.
    ep: Option<(Square, Square)>,
    halfmoves: u32,
    plies: u32,
    ply_cap: u32,
    checkers: i32,
    seen: Vec<Identity>,
}

impl Reference {
    /// The pieces of one side only.
    fn view(&self, mb: &Mailbox, mirror: &[bool; 64], side: bool) -> Mailbox {
        let mut v = mb.clone();
        for s in Square::all() {
            if mirror[s.index()] != side {
                v.set(s, None);
            }
        }
        v
    }

    fn free_checkers(&self, c: Color) -> i32 {
        self.checkers
            - Square::all()
                .filter(|&s| self.mirror[s.index()] && self.mb.at(s).is_some_and(|p| p.color == c))
                .count() as i32
    }

    /// Whether `c`'s king is attacked on its own side.
    fn king_attacked(&self, mb: &Mailbox, mirror: &[bool; 64], c: Color) -> bool {
        let Some(k) = mb.king(c) else { return false };
        self.view(mb, mirror, mirror[k.index()]).in_check(c)
    }

    fn in_check(&self) -> bool {
        self.king_attacked(&self.mb, &self.mirror, self.turn)
    }

    /// The position after `m` (played on side `side`): squares and mirror set.
    fn after(&self, m: Move, side: bool) -> (Mailbox, [bool; 64]) {
        let us = self.turn;
        let mb = self.mb.after(m, us);
        let mut mirror = self.mirror;
        mirror[m.from().index()] = false;
        match m.kind() {
            MoveKind::Castle => {
                let (kd, rd) = castle_dest(us, m.from(), m.to());
                mirror[m.to().index()] = false;
                mirror[kd.index()] = !side;
                mirror[rd.index()] = !side;
            }
            MoveKind::EnPassant => {
                mirror[Square::from_coords(m.to().file(), m.from().rank()).index()] = false;
                mirror[m.to().index()] = !side;
            }
            _ => mirror[m.to().index()] = !side,
        }
        (mb, mirror)
    }

    fn legal_moves(&self) -> Vec<Move> {
        let us = self.turn;
        let free = self.free_checkers(us);
        let mut out = Vec::new();
        for side in [false, true] {
            if !side && free <= 0 {
                continue;
            }
            let view = self.view(&self.mb, &self.mirror, side);
            // En passant only against a pawn on this side.
            let ep = self
                .ep
                .filter(|&(_, pawn)| self.mirror[pawn.index()] == side)
                .map(|(sq, _)| sq);
            let mut cands: Vec<Move> = view
                .pseudo_moves(us, ep)
                .into_iter()
                .filter(|m| self.mb.at(m.to()).is_none() || self.mirror[m.to().index()] == side)
                .collect();
            if side || free >= 2 {
                let rights: Vec<Square> = self
                    .rights
                    .iter()
                    .copied()
                    .filter(|r| self.mirror[r.index()] == side)
                    .collect();
                for m in view.castling_moves(us, &rights, true) {
                    let (kd, rd) = castle_dest(us, m.from(), m.to());
                    let landing_free = [kd, rd]
                        .iter()
                        .all(|&s| s == m.from() || s == m.to() || self.mb.at(s).is_none());
                    if landing_free {
                        cands.push(m);
                    }
                }
            }
            for m in cands {
                // (a) on the side where the move is played, before the switch.
                if view.after(m, us).in_check(us) {
                    continue;
                }
                // (b) after the switch, on the king's side.
                let (mb, mirror) = self.after(m, side);
                if self.king_attacked(&mb, &mirror, us) {
                    continue;
                }
                out.push(m);
            }
        }
        out
    }

    fn ep_identity(&self) -> Option<Square> {
        usable_ep(&self.mb, self.turn, self.ep.map(|(sq, _)| sq))
    }

    fn identity(&self) -> Identity {
        (
            self.mb.clone(),
            self.mirror,
            self.turn,
            self.rights.clone(),
            self.ep_identity(),
        )
    }

    fn result(&self) -> Option<&'static str> {
        if self.plies >= self.ply_cap {
            return Some("cap");
        }
        if let Some(why) = common_draw(&self.mb, self.halfmoves, &self.seen, &self.identity()) {
            return Some(why);
        }
        if self.legal_moves().is_empty() {
            return Some(if self.in_check() {
                "checkmate"
            } else {
                "stalemate"
            });
        }
        None
    }

    fn play(&mut self, m: Move) {
        let us = self.turn;
        self.seen.push(self.identity());
        self.plies += 1;
        let side = self.mirror[m.from().index()];
        let pawn = self.mb.at(m.from()).is_some_and(|p| p.role == Role::Pawn);
        let capture = m.kind() == MoveKind::EnPassant
            || m.kind() != MoveKind::Castle && self.mb.at(m.to()).is_some();
        self.ep = (pawn && m.from().rank().abs_diff(m.to().rank()) == 2)
            .then(|| (step(m.from(), 0, forward(us)).unwrap(), m.to()));
        let (mb, mirror) = self.after(m, side);
        self.mb = mb;
        self.mirror = mirror;
        self.turn = us.other();
        if pawn || capture {
            self.halfmoves = 0;
            self.seen.clear();
        } else {
            self.halfmoves += 1;
        }
    }
}

fn run(
    opening: &str,
    params: &HalfAliceParams,
    decisions: usize,
    greedy: f64,
    rng: &mut Pcg64Mcg,
) -> Vec<&'static str> {
    let mut ends = Vec::new();
    let mut done = 0;
    while done < decisions {
        let g0 = HalfAlice::from_opening(params, opening).unwrap();
        let mut g = g0.clone();
        let b = g.board_ref();
        let mut mirror = [false; 64];
        for s in g.mirror() {
            mirror[s.index()] = true;
        }
        let mut r = Reference {
            mb: Mailbox::of(b),
            mirror,
            turn: b.turn(),
            rights: b.castling_rights().into_iter().collect(),
            ep: b
                .ep_square()
                .map(|sq| (sq, step(sq, 0, -forward(b.turn())).unwrap())),
            halfmoves: b.halfmoves() as u32,
            plies: 0,
            ply_cap: params.ply_cap,
            checkers: params.checkers_per_side as i32,
            seen: Vec::new(),
        };
        loop {
            let here = g.observation(0);
            assert_eq!(Mailbox::of(g.board_ref()), r.mb, "squares at {here}");
            let engine_mirror: Vec<bool> = Square::all().map(|s| g.mirror().contains(s)).collect();
            assert_eq!(engine_mirror, r.mirror.to_vec(), "mirror at {here}");
            if same_end(&g, r.result(), &here, &mut ends) {
                break;
            }
            let seat = r.turn.index();
            assert_eq!(g.turn(), Turn::Seat(seat));
            let mut acts = Vec::new();
            g.legal_actions(seat, &mut acts);
            let mut ours: Vec<String> = acts.iter().map(|&a| g.action_notation(a)).collect();
            ours.sort();
            let moves = r.legal_moves();
            let mut theirs: Vec<String> = moves.iter().map(|&m| uci(m, r.turn)).collect();
            theirs.sort();
            assert_eq!(ours, theirs, "legal moves at {here}");
            done += 1;
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| {
                    m.kind() == MoveKind::EnPassant
                        || m.kind() != MoveKind::Castle && r.mb.at(m.to()).is_some()
                })
                .collect();
            let m = if !captures.is_empty() && rng.gen_bool(greedy) {
                captures[rng.gen_range(0..captures.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            let a = g.parse_action(&uci(m, r.turn)).unwrap();
            assert_eq!(a, m);
            g.apply(a);
            r.play(m);
            r.rights = g.board_ref().castling_rights().into_iter().collect();
        }
    }
    ends
}

const OPENINGS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Castling on both sides of the mirror, pieces spread over both.
    "r3k2r/pppq1ppp/2n2n2/2bpp3/2BPP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1 | e1 h1 e8 a8 c5 f3 d7",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 | e2 e6 b4 c3 h3",
    // En passant on either side of the mirror.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3 | f5 e5",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3 | f5",
    // Few pieces, kings on different sides.
    "4k3/8/3q4/8/8/3R4/8/4K3 w - - 0 1 | e8 d3",
    "r3k3/1P6/8/8/8/8/6p1/4K2R b Kq - 0 1 | e1 g2",
];

#[test]
fn half_alice_matches_the_reference_in_random_and_greedy_play() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xa11c_e5e5);
    let full = HalfAliceParams::default();
    let twelve = HalfAliceParams {
        checkers_per_side: 12,
        ..Default::default()
    };
    let runs = [(&full, 1, 0.0), (&full, 1, 0.8), (&twelve, 2, 0.5)];
    let ends = play_openings(OPENINGS, (800, 250), &runs, |o, p, n, greedy| {
        run(o, p, n, greedy, &mut rng)
    });
    assert!(ends.contains(&"checkmate"), "{ends:?}");
}

#[test]
fn reference_matches_alice_chess_perft_from_the_start() {
    // The published Alice Chess counts (RULES.md): the reference itself is right.
    fn perft(r: &Reference, depth: u32) -> u64 {
        let moves = r.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = Reference {
                    mb: r.mb.clone(),
                    mirror: r.mirror,
                    turn: r.turn,
                    rights: r.rights.clone(),
                    ep: r.ep,
                    halfmoves: 0,
                    plies: 0,
                    ply_cap: 1000,
                    checkers: r.checkers,
                    seen: Vec::new(),
                };
                next.play(m);
                // Castling rights as the orthodox rules take them away.
                next.rights.retain(|&s| {
                    s != m.from() && s != m.to() && {
                        let k = if s.rank() == 0 {
                            Color::White
                        } else {
                            Color::Black
                        };
                        next.mb.at(s) == Some(Piece::new(k, Role::Rook))
                            && next
                                .mb
                                .king(k)
                                .is_some_and(|ks| ks == Square::from_coords(4, s.rank()))
                    }
                });
                perft(&next, depth - 1)
            })
            .sum()
    }
    let b = engine::Board::startpos();
    let r = Reference {
        mb: Mailbox::of(&b),
        mirror: [false; 64],
        turn: Color::White,
        rights: b.castling_rights().into_iter().collect(),
        ep: None,
        halfmoves: 0,
        plies: 0,
        ply_cap: 1000,
        checkers: 16,
        seen: Vec::new(),
    };
    assert_eq!(perft(&r, 1), 20);
    assert_eq!(perft(&r, 2), 400);
    assert_eq!(perft(&r, 3), 9384);
}

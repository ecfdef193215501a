//! A slow Cassandra Chess reference written from docs/RULES.md ("Cassandra Chess" and the
//! common rules) and the seed, compared with the engine at every decision of seeded
//! random and greedy games (greedy prophecies name a square where the target stands now,
//! so removals, the ladder, royal captures and king prophecies all happen).
//!
//! The reference keeps its own game: a mailbox (`common/mailbox.rs`, orthodox legality
//! with "attacked by any enemy piece, king included"), en passant from the move it saw,
//! its own clocks, repetitions, pending prophecies, ladder rungs and move counts. From
//! the engine it reads only the castling rights (public state) and checks the squares,
//! the seat to act and each pending prophecy's piece type against its own. Rules:
//! - after each move the mover may name one square (or none) for a prophecy, except
//!   White's first move, while one of its prophecies is pending, or when the move ended
//!   the game (mate, stalemate, a draw, the ply cap);
//! - the prophecy's type is the mover's rung (pawn .. king), skipping types the foe no
//!   longer has; it resolves at the start of the prophet's second own turn after it
//!   was made, unless the game has ended first; an enemy piece of that type there is
//!   removed, the prophet climbs a rung; a king removed wins (`prophecy`); an enemy king
//!   left attacked by the prophet wins (`royal-capture`);
//! - the removed double-stepped pawn cannot be taken en passant any more.
//!
//! Draws: bare material (K v K, K+minor v K), 50 moves, threefold repetition (board,
//! side, castling, capturable en passant), the ply cap on moves.

use crate::mailbox;
use crate::rules_track;

use engine::game::{Game, Turn};
use engine::variants::cassandra::{Cassandra, CassandraAction, CassandraParams};
use engine::{Color, Move, MoveKind, Piece, Role, Square};
use mailbox::{forward, step, Mailbox};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rules_track::{common_draw, ends_seen, same_end, uci, usable_ep};

const LADDER: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

#[derive(Clone, Copy, Debug)]
struct Pending {
    role: Role,
    square: Square,
    /// Own turn starts seen since it was made.
    starts: u32,
}

type Identity = (Mailbox, Color, Vec<Square>, Option<Square>);

struct Reference {
    mb: Mailbox,
    turn: Color,
    rights: Vec<Square>,
    ep: Option<Square>,
    halfmoves: u32,
    moves: u32,
    ply_cap: u32,
    horizon: u32,
    seen: Vec<Identity>,
    pending: [Option<Pending>; 2],
    rung: [usize; 2],
    /// White has made its first move (no prophecy with it).
    white_moved: bool,
    /// The side that just moved and must name its prophecy now.
    awaiting: Option<Color>,
    winner: Option<(Color, &'static str)>,
}

impl Reference {
    fn new(g: &Cassandra, from_start: bool, params: &CassandraParams) -> Reference {
        let b = g.board_ref();
        Reference {
            mb: Mailbox::of(b),
            turn: b.turn(),
            rights: b.castling_rights().into_iter().collect(),
            ep: b.ep_square(),
            halfmoves: b.halfmoves() as u32,
            moves: 0,
            ply_cap: params.ply_cap,
            horizon: params.horizon,
            seen: Vec::new(),
            pending: [None; 2],
            rung: [0; 2],
            white_moved: !from_start,
            awaiting: None,
            winner: None,
        }
    }

    fn ep_identity(&self) -> Option<Square> {
        usable_ep(&self.mb, self.turn, self.ep)
    }

    fn identity(&self) -> Identity {
        (
            self.mb.clone(),
            self.turn,
            self.rights.clone(),
            self.ep_identity(),
        )
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.mb.legal_moves(self.turn, self.ep, &self.rights)
    }

    /// The end of the game on the board (mate, stalemate, a draw, the cap).
    fn board_end(&self) -> Option<&'static str> {
        if self.legal_moves().is_empty() {
            return Some(if self.mb.in_check(self.turn) {
                "checkmate"
            } else {
                "stalemate"
            });
        }
        if let Some(why) = common_draw(&self.mb, self.halfmoves, &self.seen, &self.identity()) {
            return Some(why);
        }
        if self.moves >= self.ply_cap {
            return Some("cap");
        }
        None
    }

    fn result(&self) -> Option<&'static str> {
        if let Some((_, why)) = self.winner {
            return Some(why);
        }
        if self.awaiting.is_some() {
            return None;
        }
        self.board_end()
    }

    fn seat(&self) -> Color {
        self.awaiting.unwrap_or(self.turn)
    }

    fn actions(&self) -> Vec<String> {
        let mut v: Vec<String> = if self.awaiting.is_some() {
            std::iter::once("@-".to_string())
                .chain(Square::all().map(|s| format!("@{s}")))
                .collect()
        } else {
            self.legal_moves()
                .iter()
                .map(|&m| uci(m, self.turn))
                .collect()
        };
        v.sort();
        v
    }

    /// The type `c` targets now: its rung, past types the foe no longer has.
    fn target(&self, c: Color) -> Role {
        let mut r = self.rung[c.index()];
        while r < 5
            && !self
                .mb
                .sq
                .iter()
                .any(|p| *p == Some(Piece::new(c.other(), LADDER[r])))
        {
            r += 1;
        }
        LADDER[r]
    }

    fn play_move(&mut self, m: Move) {
        let us = self.turn;
        self.seen.push(self.identity());
        self.moves += 1;
        let pawn = self.mb.at(m.from()).is_some_and(|p| p.role == Role::Pawn);
        let capture = m.kind() == MoveKind::EnPassant
            || m.kind() != MoveKind::Castle && self.mb.at(m.to()).is_some();
        self.ep = (pawn && m.from().rank().abs_diff(m.to().rank()) == 2)
            .then(|| step(m.from(), 0, forward(us)).unwrap());
        self.mb = self.mb.after(m, us);
        self.turn = us.other();
        if pawn || capture {
            self.halfmoves = 0;
            self.seen.clear();
        } else {
            self.halfmoves += 1;
        }
        if us == Color::White {
            self.white_moved = true;
        }
    }

    fn prophesy(&mut self, square: Option<Square>) {
        let prophet = self.awaiting.take().expect("a prophecy is due");
        if let Some(square) = square {
            let role = self.target(prophet);
            self.rung[prophet.index()] = LADDER.iter().position(|&r| r == role).unwrap();
            self.pending[prophet.index()] = Some(Pending {
                role,
                square,
                starts: 0,
            });
        }
        if self.board_end().is_none() {
            self.start_turn();
        }
    }

    /// The side to move starts its turn: its prophecy may fall due.
    fn start_turn(&mut self) {
        let p = self.turn;
        let Some(mut pend) = self.pending[p.index()] else {
            return;
        };
        pend.starts += 1;
        if pend.starts < self.horizon {
            self.pending[p.index()] = Some(pend);
            return;
        }
        self.pending[p.index()] = None;
        if self.mb.at(pend.square) != Some(Piece::new(p.other(), pend.role)) {
            return;
        }
        self.mb.set(pend.square, None);
        // The double-stepped pawn is gone: nothing to take en passant.
        if let Some(ep) = self.ep {
            if step(ep, 0, forward(p.other())) == Some(pend.square) {
                self.ep = None;
            }
        }
        if pend.role == Role::King {
            self.winner = Some((p, "prophecy"));
            return;
        }
        self.rung[p.index()] = (self.rung[p.index()] + 1).min(5);
        if self.mb.in_check(p.other()) {
            self.winner = Some((p, "royal-capture"));
        }
    }
}

fn engine_actions(g: &Cassandra, seat: usize) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(seat, &mut v);
    let mut s: Vec<String> = v.iter().map(|&a| g.action_notation(a)).collect();
    s.sort();
    s
}

fn run(
    opening: Option<&str>,
    params: &CassandraParams,
    decisions: usize,
    greedy: f64,
    rng: &mut Pcg64Mcg,
) -> Vec<&'static str> {
    let mut ends = Vec::new();
    let mut done = 0;
    while done < decisions {
        let mut g = match opening {
            None => Cassandra::new(params),
            Some(f) => Cassandra::from_opening(params, f).unwrap(),
        };
        let mut r = Reference::new(&g, opening.is_none(), params);
        loop {
            let here = g.observation(0);
            assert_eq!(Mailbox::of(g.board_ref()), r.mb, "squares at {here}");
            for c in [Color::White, Color::Black] {
                assert_eq!(
                    g.pending(c).map(|p| (p.role, p.square)),
                    r.pending[c.index()].map(|p| (p.role, p.square)),
                    "{c:?}'s pending prophecy at {here}"
                );
            }
            if same_end(&g, r.result(), &here, &mut ends) {
                break;
            }
            let seat = r.seat().index();
            assert_eq!(g.turn(), Turn::Seat(seat), "seat at {here}");
            assert_eq!(engine_actions(&g, seat), r.actions(), "actions at {here}");
            done += 1;
            if let Some(prophet) = r.awaiting {
                // Greedy: where a piece of the target type stands now.
                let role = r.target(prophet);
                let targets: Vec<Square> = Square::all()
                    .filter(|&s| r.mb.at(s) == Some(Piece::new(prophet.other(), role)))
                    .collect();
                let square = if !targets.is_empty() && rng.gen_bool(greedy) {
                    Some(targets[rng.gen_range(0..targets.len())])
                } else if rng.gen_bool(0.5) {
                    Some(Square::new(rng.gen_range(0..64)))
                } else {
                    None
                };
                g.apply(CassandraAction::Prophesy(square));
                r.prophesy(square);
            } else {
                let moves = r.legal_moves();
                let us = r.turn;
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.kind() != MoveKind::Castle && r.mb.at(m.to()).is_some())
                    .collect();
                let m = if !captures.is_empty() && rng.gen_bool(greedy) {
                    captures[rng.gen_range(0..captures.len())]
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                let a = g.parse_action(&uci(m, us)).unwrap();
                assert_eq!(a, CassandraAction::Move(m));
                g.apply(a);
                after_move(&mut r, &g, m);
            }
        }
    }
    ends
}

/// Plays `m` on the reference: the castling rights after it are read from the board,
/// then the mover names a prophecy unless it may not or the move ended the game, else the
/// opponent's turn starts.
fn after_move(r: &mut Reference, g: &Cassandra, m: Move) {
    let us = r.turn;
    let first_white = us == Color::White && !r.white_moved;
    r.play_move(m);
    r.rights = g.board_ref().castling_rights().into_iter().collect();
    let over = r.board_end().is_some();
    if !first_white && r.pending[us.index()].is_none() && !over {
        r.awaiting = Some(us);
    } else if !over {
        r.start_turn();
    }
}

const OPENINGS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Few pieces: the ladder climbs fast, kings get targeted, material runs bare.
    "4k3/3q4/8/8/8/8/1N6/4K2R w K - 0 1",
    "r3k3/1b6/8/8/8/8/5P2/4K3 b q - 0 1",
];

#[test]
fn cassandra_matches_the_reference_in_random_and_greedy_play() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xca55_a4d2);
    let mut ends = Vec::new();
    let short = CassandraParams {
        ply_cap: 60,
        ..Default::default()
    };
    let default = CassandraParams::default();
    ends.extend(run(None, &default, 600, 0.0, &mut rng));
    ends.extend(run(None, &default, 900, 0.9, &mut rng));
    ends.extend(run(None, &short, 300, 0.9, &mut rng));
    for opening in OPENINGS {
        ends.extend(run(Some(opening), &default, 250, 0.9, &mut rng));
        ends.extend(run(Some(opening), &short, 100, 0.5, &mut rng));
    }
    let ends = ends_seen(ends);
    for reason in ["checkmate", "prophecy", "royal-capture", "cap"] {
        assert!(ends.contains(&reason), "{reason} never seen: {ends:?}");
    }
}

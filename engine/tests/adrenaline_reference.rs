//! A slow Adrenaline Chess reference written from docs/RULES.md ("Adrenaline Chess" and the
//! common rules) and the seed, compared with the engine at every decision (regular moves,
//! extra steps, checker placements) of seeded random and greedy games. Independent of the
//! engine's reach code and of the plain reference inside the engine's own tests: it is a
//! mailbox (`common/mailbox.rs`) plus a stack count per square, and one question, "can
//! this enemy piece end on that square", answered by a memoised search over (square,
//! steps left, carriers taken).
//!
//! From the engine it reads only the castling rights after an action (public state); it
//! checks squares and stacks against its own after every action. Rules:
//! - a piece with k checkers attacks what it reaches by a regular move (a pawn: pushes
//!   onto empty squares, captures onto enemy pieces, en passant) followed by up to k king
//!   steps, each onto an empty square or an enemy piece; capturing a carrier (by the
//!   regular move or a step) adds its checkers; the square the piece left is empty;
//! - the mover's king must not be attacked after the regular move, after each step, and
//!   after the placement (a double push arms the opponent's en passant capture);
//! - a piece arriving with checkers may step (`~e5`, promotion letters on the last rank)
//!   or `stop`; a step spends a checker and takes over the checkers it captures;
//! - a turn with a capture ends with one checker placed under an enemy piece whose new
//!   reach does not attack the placer's king, if the box has one to spare and such a
//!   piece exists;
//! - castling: no checkers under king or rook, the king's start, path and destination
//!   not attacked (adrenaline included); en passant only right after a regular double
//!   push that no step followed;
//! - no move at the start of a turn: checkmate if the king is attacked, else stalemate;
//!   draws between whole turns: the cap (board plies, a step being recorded as two),
//!   bare material (K v K, K+minor v K), 50 moves (steps count two plies), threefold
//!   repetition of the positions before regular moves (stacks included).

use crate::mailbox;
use crate::rules_track;

use engine::game::{Game, Turn};
use engine::variants::adrenaline::{Adrenaline, AdrenalineAction, AdrenalineParams};
use engine::{Color, Move, MoveKind, Piece, Role, Square};
use mailbox::{castle_dest, forward, rank_span, step, Mailbox, KING_STEPS};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rules_track::{common_draw, play_openings, same_end, uci, usable_ep};
use std::collections::HashMap;

fn last_rank(c: Color) -> u8 {
    if c == Color::White {
        7
    } else {
        0
    }
}

/// Pieces and stacks.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Pos {
    mb: Mailbox,
    stacks: [u8; 64],
}

impl Pos {
    /// Whether the piece on `a` can end on `target` (which holds an enemy of it) by a
    /// regular move and up to its checkers' worth of king steps.
    /// `moves`: the pattern moves of the piece's side (`Mailbox::pseudo_moves`).
    fn reaches(&self, a: Square, target: Square, moves: &[Move]) -> bool {
        let p = self.mb.at(a).expect("a piece");
        let by = p.color;
        // The regular move's landings, with the square it captures on.
        let mut landings: Vec<(Square, Option<Square>)> = Vec::new();
        for &m in moves {
            if m.from() != a {
                continue;
            }
            let cap = match m.kind() {
                MoveKind::EnPassant => Some(Square::from_coords(m.to().file(), a.rank())),
                _ => self.mb.at(m.to()).map(|_| m.to()),
            };
            if !landings.iter().any(|&(l, _)| l == m.to()) {
                landings.push((m.to(), cap));
            }
        }
        let mut prizes: Option<u32> = None;
        for (l, cap) in landings {
            if l == target {
                return true;
            }
            let k =
                self.stacks[a.index()] as u32 + cap.map_or(0, |c| self.stacks[c.index()] as u32);
            if k == 0 {
                continue;
            }
            // Carriers taken, as a set of squares (they are empty once taken). A state
            // (square, carriers taken) reached again with no more steps left adds nothing;
            // one farther from the target than every checker still to be had could carry
            // the piece is dropped.
            let taken: u64 = cap.map_or(0, |c| 1u64 << c.index());
            let prizes = *prizes.get_or_insert_with(|| {
                Square::all()
                    .filter(|&q| self.mb.at(q).is_some_and(|x| x.color != by))
                    .map(|q| self.stacks[q.index()] as u32)
                    .sum()
            });
            let mut best: HashMap<(Square, u64), u32> = HashMap::new();
            let mut stack = vec![(l, k, taken)];
            while let Some((cur, left, taken)) = stack.pop() {
                if left == 0 || (cur.distance(target) as u32) > left + prizes {
                    continue;
                }
                if best.get(&(cur, taken)).is_some_and(|&b| b >= left) {
                    continue;
                }
                best.insert((cur, taken), left);
                for (df, dr) in KING_STEPS {
                    let Some(n) = step(cur, df, dr) else { continue };
                    if n == target {
                        return true;
                    }
                    let occupant = if n == a || taken & (1 << n.index()) != 0 {
                        None
                    } else {
                        self.mb.at(n)
                    };
                    match occupant {
                        None => stack.push((n, left - 1, taken)),
                        Some(q) if q.color != by => {
                            let won = self.stacks[n.index()] as u32;
                            let t = if won > 0 {
                                taken | 1 << n.index()
                            } else {
                                taken
                            };
                            stack.push((n, left - 1 + won, t));
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        false
    }

    /// Whether some piece of `by` can end on `target` (`ep`: `by`'s en passant square).
    fn attacked(&self, target: Square, by: Color, ep: Option<Square>) -> bool {
        let moves = self.mb.pseudo_moves(by, ep);
        Square::all().any(|a| {
            self.mb.at(a).is_some_and(|p| p.color == by) && self.reaches(a, target, &moves)
        })
    }

    fn king_attacked(&self, c: Color, ep: Option<Square>) -> bool {
        self.mb
            .king(c)
            .is_some_and(|k| self.attacked(k, c.other(), ep))
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Regular,
    Steps(Square),
    Place,
}

type Identity = (Pos, Color, Vec<Square>, Option<Square>);

struct Reference {
    pos: Pos,
    /// The side making (or about to make) the regular move of this turn.
    turn: Color,
    phase: Phase,
    captured_this_turn: bool,
    /// The en passant square for the side to make the next regular move.
    ep: Option<Square>,
    rights: Vec<Square>,
    halfmoves: u32,
    plies: u32,
    seen: Vec<Identity>,
    params: AdrenalineParams,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Act {
    Move(Move),
    Step(Square, Option<Role>),
    Stop,
    Place(Square),
}

impl Reference {
    /// The side deciding now: the mover keeps deciding through its steps and placement
    /// (`turn` changes only when the turn is handed over).
    fn actor(&self) -> Color {
        self.turn
    }

    fn on_board(&self) -> u32 {
        self.pos.stacks.iter().map(|&n| n as u32).sum()
    }

    /// The position after a regular move, and the opponent's en passant square.
    fn after_move(&self, m: Move) -> (Pos, Option<Square>) {
        let us = self.turn;
        let mut pos = self.pos.clone();
        let cap = match m.kind() {
            MoveKind::EnPassant => Some(Square::from_coords(m.to().file(), m.from().rank())),
            MoveKind::Castle => None,
            _ => pos.mb.at(m.to()).map(|_| m.to()),
        };
        let moving = pos.stacks[m.from().index()];
        let won = cap.map_or(0, |c| pos.stacks[c.index()]);
        if let Some(c) = cap {
            pos.stacks[c.index()] = 0;
        }
        pos.stacks[m.from().index()] = 0;
        pos.mb = pos.mb.after(m, us);
        if m.kind() != MoveKind::Castle {
            pos.stacks[m.to().index()] = moving + won;
        }
        let pawn = self
            .pos
            .mb
            .at(m.from())
            .is_some_and(|p| p.role == Role::Pawn);
        let ep = (pawn && m.from().rank().abs_diff(m.to().rank()) == 2)
            .then(|| step(m.from(), 0, forward(us)).unwrap());
        (pos, ep)
    }

    fn after_step(&self, from: Square, to: Square, promo: Option<Role>) -> Pos {
        let mut pos = self.pos.clone();
        let left = pos.stacks[from.index()] - 1;
        let won = pos.stacks[to.index()];
        let mut piece = pos.mb.at(from).unwrap();
        if let Some(r) = promo {
            piece = Piece::new(piece.color, r);
        }
        pos.mb.set(from, None);
        pos.mb.set(to, Some(piece));
        pos.stacks[from.index()] = 0;
        pos.stacks[to.index()] = left + won;
        pos
    }

    fn regular_moves(&self) -> Vec<Move> {
        let us = self.turn;
        let them = us.other();
        let mut out = Vec::new();
        for m in self.pos.mb.pseudo_moves(us, self.ep) {
            let (after, ep) = self.after_move(m);
            if !after.king_attacked(us, ep) {
                out.push(m);
            }
        }
        for m in self.pos.mb.castling_moves(us, &self.rights, false) {
            let (king, rook) = (m.from(), m.to());
            if self.pos.stacks[king.index()] > 0 || self.pos.stacks[rook.index()] > 0 {
                continue;
            }
            let (kd, _) = castle_dest(us, king, rook);
            // Start, path and destination: could an enemy piece take a king there?
            let crossed_safe = rank_span(king, kd).iter().all(|&s| {
                let mut probe = self.pos.clone();
                if s != king {
                    probe.mb.set(s, Some(Piece::new(us, Role::Pawn)));
                }
                !probe.attacked(s, them, None)
            });
            if crossed_safe && !self.after_move(m).0.king_attacked(us, None) {
                out.push(m);
            }
        }
        out
    }

    fn steps(&self, from: Square) -> Vec<Act> {
        let us = self.turn;
        let mut out = vec![Act::Stop];
        let pawn = self.pos.mb.at(from).is_some_and(|p| p.role == Role::Pawn);
        for (df, dr) in KING_STEPS {
            let Some(to) = step(from, df, dr) else {
                continue;
            };
            if self.pos.mb.at(to).is_some_and(|p| p.color == us) {
                continue;
            }
            let promos: Vec<Option<Role>> = if pawn && to.rank() == last_rank(us) {
                [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                    .into_iter()
                    .map(Some)
                    .collect()
            } else {
                vec![None]
            };
            for promo in promos {
                if !self.after_step(from, to, promo).king_attacked(us, None) {
                    out.push(Act::Step(to, promo));
                }
            }
        }
        out
    }

    fn placements(&self) -> Vec<Square> {
        let us = self.turn;
        let n = self.params.checkers_per_capture;
        if self.on_board() + n as u32 > self.params.checkers_total {
            return Vec::new();
        }
        Square::all()
            .filter(|&q| self.pos.mb.at(q).is_some_and(|p| p.color != us))
            .filter(|&q| {
                let mut pos = self.pos.clone();
                pos.stacks[q.index()] += n;
                // The opponent moves next, with its en passant capture if any.
                !pos.king_attacked(us, self.ep)
            })
            .collect()
    }

    fn actions(&self) -> Vec<Act> {
        match self.phase {
            Phase::Regular => self.regular_moves().into_iter().map(Act::Move).collect(),
            Phase::Steps(from) => self.steps(from),
            Phase::Place => self.placements().into_iter().map(Act::Place).collect(),
        }
    }

    fn notation(&self, a: Act) -> String {
        match a {
            Act::Move(m) => uci(m, self.turn),
            Act::Step(s, None) => format!("~{s}"),
            Act::Step(s, Some(r)) => format!("~{s}{}", r.char()),
            Act::Stop => "stop".into(),
            Act::Place(s) => format!("+{s}"),
        }
    }

    fn ep_identity(&self) -> Option<Square> {
        usable_ep(&self.pos.mb, self.turn, self.ep)
    }

    fn identity(&self) -> Identity {
        (
            self.pos.clone(),
            self.turn,
            self.rights.clone(),
            self.ep_identity(),
        )
    }

    fn result(&self) -> Option<&'static str> {
        if self.phase != Phase::Regular {
            return None;
        }
        if self.plies >= self.params.ply_cap {
            return Some("cap");
        }
        if let Some(why) = common_draw(&self.pos.mb, self.halfmoves, &self.seen, &self.identity()) {
            return Some(why);
        }
        if self.regular_moves().is_empty() {
            return Some(if self.pos.king_attacked(self.turn, None) {
                "checkmate"
            } else {
                "stalemate"
            });
        }
        None
    }

    /// The turn's piece has finished moving: place a checker or hand over.
    fn end_moves(&mut self) {
        if self.captured_this_turn && !self.placements().is_empty() {
            self.phase = Phase::Place;
        } else {
            self.hand_over();
        }
    }

    fn hand_over(&mut self) {
        self.phase = Phase::Regular;
        self.captured_this_turn = false;
        self.turn = self.turn.other();
    }

    fn play(&mut self, a: Act) {
        match a {
            Act::Move(m) => {
                self.seen.push(self.identity());
                let pawn = self
                    .pos
                    .mb
                    .at(m.from())
                    .is_some_and(|p| p.role == Role::Pawn);
                let capture = m.kind() == MoveKind::EnPassant
                    || m.kind() != MoveKind::Castle && self.pos.mb.at(m.to()).is_some();
                let (pos, ep) = self.after_move(m);
                self.pos = pos;
                self.ep = ep;
                self.captured_this_turn = capture;
                self.plies += 1;
                self.clock(pawn || capture);
                if m.kind() != MoveKind::Castle && self.pos.stacks[m.to().index()] > 0 {
                    self.phase = Phase::Steps(m.to());
                } else {
                    self.end_moves();
                }
            }
            Act::Step(to, promo) => {
                let Phase::Steps(from) = self.phase else {
                    panic!("step outside the steps")
                };
                let pawn = self.pos.mb.at(from).is_some_and(|p| p.role == Role::Pawn);
                let capture = self.pos.mb.at(to).is_some();
                self.captured_this_turn |= capture;
                self.pos = self.after_step(from, to, promo);
                self.ep = None;
                self.plies += 2;
                self.halfmoves += 1;
                self.clock(pawn || capture);
                if self.pos.stacks[to.index()] > 0 {
                    self.phase = Phase::Steps(to);
                } else {
                    self.end_moves();
                }
            }
            Act::Stop => self.end_moves(),
            Act::Place(q) => {
                self.pos.stacks[q.index()] += self.params.checkers_per_capture;
                self.hand_over();
            }
        }
    }

    fn clock(&mut self, reset: bool) {
        if reset {
            self.halfmoves = 0;
            self.seen.clear();
        } else {
            self.halfmoves += 1;
        }
    }
}

fn engine_actions(g: &Adrenaline, seat: usize) -> Vec<(String, AdrenalineAction)> {
    let mut v = Vec::new();
    g.legal_actions(seat, &mut v);
    let mut s: Vec<(String, AdrenalineAction)> =
        v.iter().map(|&a| (g.action_notation(a), a)).collect();
    s.sort_by(|a, b| a.0.cmp(&b.0));
    s
}

/// The reference's game at `g`'s start (squares, stacks, clocks read once).
fn reference_of(g: &Adrenaline, params: &AdrenalineParams) -> Reference {
    let b = g.board_ref();
    let mut stacks = [0u8; 64];
    for s in Square::all() {
        stacks[s.index()] = g.stack(s);
    }
    Reference {
        pos: Pos {
            mb: Mailbox::of(b),
            stacks,
        },
        turn: b.turn(),
        phase: Phase::Regular,
        captured_this_turn: false,
        ep: b.ep_square(),
        rights: b.castling_rights().into_iter().collect(),
        halfmoves: b.halfmoves() as u32,
        plies: 0,
        seen: Vec::new(),
        params: params.clone(),
    }
}

fn run(
    opening: &str,
    params: &AdrenalineParams,
    decisions: usize,
    greedy: f64,
    rng: &mut Pcg64Mcg,
) -> Vec<&'static str> {
    let mut ends = Vec::new();
    let mut done = 0;
    while done < decisions {
        let mut g = Adrenaline::from_opening(params, opening).unwrap();
        let mut r = reference_of(&g, params);
        loop {
            let here = g.observation(0);
            assert_eq!(Mailbox::of(g.board_ref()), r.pos.mb, "squares at {here}");
            for s in Square::all() {
                if r.pos.mb.at(s).is_some() {
                    assert_eq!(
                        g.stack(s),
                        r.pos.stacks[s.index()],
                        "stack on {s} at {here}"
                    );
                }
            }
            if same_end(&g, r.result(), &here, &mut ends) {
                assert!(g.history_len() > 0, "{opening} is over before any decision");
                break;
            }
            let seat = r.actor().index();
            assert_eq!(g.turn(), Turn::Seat(seat), "seat at {here} ({:?})", r.phase);
            let ours = engine_actions(&g, seat);
            let acts = r.actions();
            let mut theirs: Vec<String> = acts.iter().map(|&a| r.notation(a)).collect();
            theirs.sort();
            let names: Vec<String> = ours.iter().map(|x| x.0.clone()).collect();
            assert_eq!(names, theirs, "actions at {here} ({:?})", r.phase);
            done += 1;
            // Greedy: captures (regular or step) and steps over stopping.
            let gain = |a: &Act| match *a {
                Act::Move(m) => {
                    (m.kind() != MoveKind::Castle && r.pos.mb.at(m.to()).is_some()) as u32
                }
                Act::Step(s, _) => 1 + r.pos.mb.at(s).is_some() as u32,
                _ => 0,
            };
            let best = acts.iter().map(gain).max().unwrap();
            let a = if best > 0 && rng.gen_bool(greedy) {
                let top: Vec<Act> = acts.iter().copied().filter(|a| gain(a) == best).collect();
                top[rng.gen_range(0..top.len())]
            } else {
                acts[rng.gen_range(0..acts.len())]
            };
            let text = r.notation(a);
            let ea = ours.iter().find(|x| x.0 == text).unwrap().1;
            g.apply(ea);
            r.play(a);
            r.rights = g.board_ref().castling_rights().into_iter().collect();
        }
    }
    ends
}

const OPENINGS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Carriers from the start: pumped pieces, castling near them, promotions by steps.
    "r3k2r/pppq1ppp/2n2n2/2bpp3/2BPP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1 | c5=2 f3=1 d7=1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 | e5=1 b4=2 e7=1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3 | e5=1 d5=2",
    "4k3/1P4p1/8/8/8/8/1p4P1/4K3 w - - 0 1 | b7=2 g2=1 b2=1 g7=3",
    "4k3/3q4/8/8/8/8/2B1P3/4K3 w - - 0 1 | c2=3 e8=1",
    // Near the seed's example: the bishop with three checkers, the king farther away.
    "6k1/8/8/7p/8/8/3P4/2b3K1 w - - 0 1 | c1=3 h5=1",
];

#[test]
fn adrenaline_matches_the_reference_in_random_and_greedy_play() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xad2e_7a1e);
    let default = AdrenalineParams::default();
    let tight = AdrenalineParams {
        checkers_total: 8,
        ply_cap: 120,
        ..Default::default()
    };
    let runs = [(&default, 1, 0.0), (&default, 1, 0.85), (&tight, 2, 0.85)];
    let ends = play_openings(OPENINGS, (500, 150), &runs, |o, p, n, greedy| {
        run(o, p, n, greedy, &mut rng)
    });
    assert!(ends.contains(&"checkmate"), "{ends:?}");
    // The seed's example mate (the bishop with three checkers): both say mate at once.
    let seed = "6k1/8/8/7p/8/8/3P4/2b1K3 w - - 0 1 | c1=3 h5=1";
    let g = Adrenaline::from_opening(&default, seed).unwrap();
    assert_eq!(g.result().map(|r| r.reason), Some("checkmate"));
    assert_eq!(reference_of(&g, &default).result(), Some("checkmate"));
}

//! Bookkeeping for the variants' slow references (`*_reference.rs`), written from
//! RULES.md's common rules alone: a mailbox position that follows the moves a game plays
//! and keeps, on its own, what FIDE chess remembers besides the board: castling rights,
//! the en passant target, the 50-move clock, the plies played and the positions seen
//! (for repetition). Nothing here asks the engine; it reads the start position once.
//!
//! Also an attack walk that returns the attackers themselves (square and piece), with a
//! hook for variants whose pieces lose their attacks (Tar Pit's tar); and the pieces the
//! references that keep their own position (Adrenaline, Half Alice, Two-Move, Cassandra,
//! Crowded House) share: a move's UCI text, the en passant target a position's identity
//! counts, bare material and the common draws.
//!
//! Included with `#[path = "common/rules_track.rs"] mod rules_track;` after `mailbox`.
#![allow(dead_code)]

use super::mailbox::{
    castle_dest, forward, step, Mailbox, BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS,
};
use engine::game::{Game, Turn};
use engine::{Board, Color, Move, MoveKind, Piece, Role, Square};

/// What decides whether two positions are "the same" for repetition: the pieces, the
/// side to move, the castling rights, and an en passant target a pawn could use.
pub type PosKey = (Vec<Option<Piece>>, Color, Vec<Square>, Option<Square>);

/// A position and the orthodox memory around it.
#[derive(Clone, Debug)]
pub struct Track {
    pub mb: Mailbox,
    pub turn: Color,
    /// Squares of rooks that may still castle (both colours).
    pub rights: Vec<Square>,
    /// The square a pawn just passed over in a double step (whoever could use it).
    pub ep: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmoves: u32,
    /// Plies played since the start (moves and passes).
    pub plies: u32,
    /// The key of every position met, the current one last.
    pub seen: Vec<PosKey>,
}

impl Track {
    /// The start: the board's squares, side to move, castling rights, en passant square
    /// and 50-move clock (as the FEN gave them).
    pub fn new(b: &Board) -> Track {
        let mut t = Track {
            mb: Mailbox::of(b),
            turn: b.turn(),
            rights: b.castling_rights().into_iter().collect(),
            ep: b.ep_square(),
            halfmoves: b.halfmoves() as u32,
            plies: 0,
            seen: Vec::new(),
        };
        t.seen.push(t.key());
        t
    }

    /// The en passant target if a pawn of the side to move stands next to it to take.
    pub fn usable_ep(&self) -> Option<Square> {
        usable_ep(&self.mb, self.turn, self.ep)
    }

    pub fn key(&self) -> PosKey {
        let mut rights = self.rights.clone();
        rights.sort_by_key(|s| s.index());
        (self.mb.sq.to_vec(), self.turn, rights, self.usable_ep())
    }

    /// How many earlier positions equal the current one.
    pub fn earlier_repeats(&self) -> usize {
        let now = self.seen.last().expect("the current position");
        self.seen[..self.seen.len() - 1]
            .iter()
            .filter(|k| *k == now)
            .count()
    }

    /// Plays `mv` for the side to move: the board, then rights, en passant, clocks.
    /// Returns the piece captured, if any.
    pub fn play(&mut self, mv: Move) -> Option<Piece> {
        let us = self.turn;
        let mover = self.mb.at(mv.from()).expect("a piece to move");
        let captured = match mv.kind() {
            MoveKind::Castle => None,
            MoveKind::EnPassant => self
                .mb
                .at(Square::from_coords(mv.to().file(), mv.from().rank())),
            _ => self.mb.at(mv.to()),
        };
        self.mb = self.mb.after(mv, us);
        let back = if us == Color::White { 0 } else { 7 };
        if mover.role == Role::King {
            self.rights.retain(|s| s.rank() != back);
        }
        self.rights.retain(|&s| s != mv.from() && s != mv.to());
        self.ep = (mover.role == Role::Pawn
            && mv.kind() == MoveKind::Normal
            && mv.from().rank().abs_diff(mv.to().rank()) == 2)
            .then(|| {
                Square::from_coords(mv.from().file(), (mv.from().rank() + mv.to().rank()) / 2)
            });
        if mover.role == Role::Pawn || captured.is_some() {
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        self.turn = us.other();
        self.plies += 1;
        self.seen.push(self.key());
        captured
    }

    /// A ply that moves nothing (a pass, a failed attempt): the turn passes, en passant
    /// lapses, the 50-move clock advances.
    pub fn pass(&mut self) {
        self.ep = None;
        self.halfmoves += 1;
        self.turn = self.turn.other();
        self.plies += 1;
        self.seen.push(self.key());
    }

    /// K v K or K + one minor v K (RULES.md: insufficient material in every variant).
    pub fn bare_material(&self) -> bool {
        bare_material(&self.mb)
    }
}

/// The pieces of `by` attacking `target` (king included), each with its square, walking
/// out from the target. `disarmed(sq)` marks pieces that lose their own attack and attack
/// instead like a pawn of their colour (one step diagonally forward); a disarmed pawn
/// attacks nothing (`disarmed_pawn_attacks`). Disarmed pieces still block lines.
pub fn attackers_with(
    mb: &Mailbox,
    target: Square,
    by: Color,
    disarmed: &dyn Fn(Square) -> bool,
    disarmed_pawn_attacks: bool,
) -> Vec<(Square, Piece)> {
    let mut out = Vec::new();
    let mine = |s: Square| mb.at(s).filter(|p| p.color == by);
    let back = -forward(by);
    for df in [-1, 1] {
        if let Some(s) = step(target, df, back) {
            if let Some(p) = mine(s) {
                let pawnlike = if disarmed(s) {
                    p.role != Role::Pawn || disarmed_pawn_attacks
                } else {
                    p.role == Role::Pawn
                };
                if pawnlike {
                    out.push((s, p));
                }
            }
        }
    }
    for (steps, role) in [(KNIGHT_STEPS, Role::Knight), (KING_STEPS, Role::King)] {
        for (df, dr) in steps {
            if let Some(s) = step(target, df, dr) {
                if let Some(p) = mine(s) {
                    if p.role == role && !disarmed(s) {
                        out.push((s, p));
                    }
                }
            }
        }
    }
    for (dirs, roles) in [
        (ROOK_DIRS, [Role::Rook, Role::Queen]),
        (BISHOP_DIRS, [Role::Bishop, Role::Queen]),
    ] {
        for (df, dr) in dirs {
            let mut cur = target;
            while let Some(n) = step(cur, df, dr) {
                if let Some(p) = mb.at(n) {
                    if p.color == by && roles.contains(&p.role) && !disarmed(n) {
                        out.push((n, p));
                    }
                    break;
                }
                cur = n;
            }
        }
    }
    out
}

/// Every attacker of `target` by `by`, orthodox (king included).
pub fn attackers(mb: &Mailbox, target: Square, by: Color) -> Vec<(Square, Piece)> {
    attackers_with(mb, target, by, &|_| false, false)
}

/// King-step distance between two squares.
pub fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

/// `m` as the engines write it: UCI, castling as the king's destination square.
pub fn uci(m: Move, us: Color) -> String {
    let to = if m.kind() == MoveKind::Castle {
        castle_dest(us, m.from(), m.to()).0
    } else {
        m.to()
    };
    let mut s = format!("{}{}", m.from(), to);
    if let MoveKind::Promotion(r) = m.kind() {
        s.push(r.char());
    }
    s
}

/// The en passant target `ep` if a pawn of `us` (to move) stands next to it to take: what
/// a position's identity counts for repetition.
pub fn usable_ep(mb: &Mailbox, us: Color, ep: Option<Square>) -> Option<Square> {
    let ep = ep?;
    let pawn = Piece::new(us, Role::Pawn);
    let back = -forward(us);
    [-1, 1]
        .iter()
        .any(|&df| step(ep, df, back).and_then(|s| mb.at(s)) == Some(pawn))
        .then_some(ep)
}

/// K v K or K + one minor v K (RULES.md: insufficient material in every variant).
pub fn bare_material(mb: &Mailbox) -> bool {
    let mut minors = 0;
    for p in mb.sq.iter().flatten() {
        match p.role {
            Role::King => {}
            Role::Knight | Role::Bishop => minors += 1,
            _ => return false,
        }
    }
    minors <= 1
}

/// The common draws in RULES.md's order after the cap: bare material, 50 moves
/// (`halfmoves` plies without a capture or pawn move), and threefold repetition (`now`
/// met twice before among `seen`).
pub fn common_draw<K: PartialEq>(
    mb: &Mailbox,
    halfmoves: u32,
    seen: &[K],
    now: &K,
) -> Option<&'static str> {
    if bare_material(mb) {
        return Some("insufficient-material");
    }
    if halfmoves >= 100 {
        return Some("fifty-moves");
    }
    (seen.iter().filter(|p| *p == now).count() >= 2).then_some("repetition")
}

/// Compares the engine's end of `g` with the reference's (`expected`: the same reason, or
/// both going on; an ended game is terminal) and records the reason in `ends`; whether the
/// game is over.
pub fn same_end<G: Game>(
    g: &G,
    expected: Option<&'static str>,
    here: &str,
    ends: &mut Vec<&'static str>,
) -> bool {
    assert_eq!(g.result().map(|x| x.reason), expected, "end at {here}");
    let Some(reason) = expected else {
        return false;
    };
    assert_eq!(g.turn(), Turn::Terminal, "at {here}");
    ends.push(reason);
    true
}

/// The end reasons met, each once and sorted, printed for the test's log.
pub fn ends_seen(mut ends: Vec<&'static str>) -> Vec<&'static str> {
    ends.sort();
    ends.dedup();
    eprintln!("end reasons seen: {ends:?}");
    ends
}

/// The reference tests' schedule: from every opening, for each `(parameters, divisor,
/// greedy share)` of `runs`, `run` plays `first / divisor` decisions from the first
/// opening (the start position, played most) and `rest / divisor` from the others, and
/// returns the end reasons it met. Gives the end reasons met, each once.
pub fn play_openings<P>(
    openings: &[&str],
    (first, rest): (usize, usize),
    runs: &[(&P, usize, f64)],
    mut run: impl FnMut(&str, &P, usize, f64) -> Vec<&'static str>,
) -> Vec<&'static str> {
    let mut ends = Vec::new();
    for (i, opening) in openings.iter().enumerate() {
        let n = if i == 0 { first } else { rest };
        for &(params, divisor, greedy) in runs {
            ends.extend(run(opening, params, n / divisor, greedy));
        }
    }
    ends_seen(ends)
}

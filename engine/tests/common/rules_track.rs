//! Bookkeeping for the variants' slow references (`*_reference.rs`), written from
//! RULES.md's common rules alone: a mailbox position that follows the moves a game plays
//! and keeps, on its own, what FIDE chess remembers besides the board: castling rights,
//! the en passant target, the 50-move clock, the plies played and the positions seen
//! (for repetition). Nothing here asks the engine; it reads the start position once.
//!
//! Also an attack walk that returns the attackers themselves (square and piece), with a
//! hook for variants whose pieces lose their attacks (Tar Pit's tar).
//!
//! Included with `#[path = "common/rules_track.rs"] mod rules_track;` after `mailbox`.
#![allow(dead_code)]

use crate::mailbox::{forward, step, Mailbox, BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS};
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
        let ep = self.ep?;
        let pawn = Piece::new(self.turn, Role::Pawn);
        let back = -forward(self.turn);
        [-1, 1]
            .iter()
            .any(|&df| step(ep, df, back).and_then(|s| self.mb.at(s)) == Some(pawn))
            .then_some(ep)
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
        let mut minors = 0;
        for p in self.mb.sq.iter().flatten() {
            match p.role {
                Role::King => {}
                Role::Knight | Role::Bishop => minors += 1,
                _ => return false,
            }
        }
        minors <= 1
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

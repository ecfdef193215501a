//! A slow, obviously-correct chess reference written from the rules alone (FIDE moves as
//! RULES.md's common section states them): a mailbox of 64 squares, ray walks, and "is this
//! square attacked by any enemy piece, king included". Nothing here calls the engine's move
//! generation or attack tables; the engine's `Board` is read only square by square
//! (`Mailbox::of`) and its types (`Square`, `Move`, `Piece`) name things.
//!
//! Variant reference tests build on these pieces: `pseudo_moves` (every move a piece could
//! make by its pattern, ignoring the own king), `castling_moves` (Chess960 form, orthodox
//! included), `after` (the board after a move, on a copy) and `attacked`. Each variant's
//! test adds its own legality rule (check, no check, royal capture, ...) from RULES.md.
//!
//! Included with `#[path = "common/mailbox.rs"] mod mailbox;` by the tests that use it.
#![allow(dead_code)]

use engine::{Board, Color, Move, MoveKind, Piece, Role, Square};

pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
pub const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The square `df` files and `dr` ranks away, if it is on the board.
pub fn step(s: Square, df: i8, dr: i8) -> Option<Square> {
    let f = s.file() as i8 + df;
    let r = s.rank() as i8 + dr;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| Square::from_coords(f as u8, r as u8))
}

/// The rank direction `c`'s pawns move in.
pub fn forward(c: Color) -> i8 {
    if c == Color::White {
        1
    } else {
        -1
    }
}

/// A plain mailbox copy of a position, independent of the engine's bitboards.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Mailbox {
    pub sq: [Option<Piece>; 64],
}

impl Mailbox {
    pub fn empty() -> Mailbox {
        Mailbox { sq: [None; 64] }
    }

    /// The board's pieces, read square by square.
    pub fn of(b: &Board) -> Mailbox {
        let mut sq = [None; 64];
        for s in Square::all() {
            sq[s.index()] = b.piece_at(s);
        }
        Mailbox { sq }
    }

    pub fn at(&self, s: Square) -> Option<Piece> {
        self.sq[s.index()]
    }

    pub fn set(&mut self, s: Square, p: Option<Piece>) {
        self.sq[s.index()] = p;
    }

    pub fn king(&self, c: Color) -> Option<Square> {
        Square::all().find(|&s| self.at(s) == Some(Piece::new(c, Role::King)))
    }

    /// Only `c`'s pieces (the rest of the board empty).
    pub fn only(&self, c: Color) -> Mailbox {
        let mut m = self.clone();
        for p in m.sq.iter_mut() {
            if p.is_some_and(|p| p.color != c) {
                *p = None;
            }
        }
        m
    }

    /// Whether any piece of `by` attacks `target`, king included, by walking out from
    /// the target.
    pub fn attacked(&self, target: Square, by: Color) -> bool {
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

    /// Whether `c`'s king stands attacked (false without a king).
    pub fn in_check(&self, c: Color) -> bool {
        self.king(c).is_some_and(|k| self.attacked(k, c.other()))
    }

    /// The position after `mv` by `us`, on a copy (castling as king-takes-own-rook).
    pub fn after(&self, mv: Move, us: Color) -> Mailbox {
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

    /// Every move `us`'s pieces can make by their patterns (promotions to N/B/R/Q, en
    /// passant onto `ep`), without castling and without regard to the own king. Captures
    /// of the enemy king are included: each variant's test decides what they mean.
    pub fn pseudo_moves(&self, us: Color, ep: Option<Square>) -> Vec<Move> {
        let them = us.other();
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
        for from in Square::all() {
            let Some(p) = self.at(from) else { continue };
            if p.color != us {
                continue;
            }
            let target_ok = |to: Square| self.at(to).is_none_or(|q| q.color == them);
            match p.role {
                Role::Pawn => {
                    let fw = forward(us);
                    if let Some(one) = step(from, 0, fw) {
                        if self.at(one).is_none() {
                            push_pawn(&mut pseudo, from, one);
                            if from.rank() == start_rank {
                                let two = step(one, 0, fw).unwrap();
                                if self.at(two).is_none() {
                                    pseudo.push(Move::normal(from, two));
                                }
                            }
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(to) = step(from, df, fw) {
                            if self.at(to).is_some_and(|q| q.color == them) {
                                push_pawn(&mut pseudo, from, to);
                            } else if Some(to) == ep && self.at(to).is_none() {
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
                            match self.at(to) {
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
        pseudo
    }

    /// Castling, Chess960 style, for the rooks on `rights`: king and rook on the back rank,
    /// every square either passes over or lands on empty (king and rook themselves
    /// excepted); with `safe` the king is not in check and never crosses or lands on an
    /// attacked square (judged with king and rook lifted).
    pub fn castling_moves(&self, us: Color, rights: &[Square], safe: bool) -> Vec<Move> {
        let them = us.other();
        let mut out = Vec::new();
        let Some(king) = self.king(us) else {
            return out;
        };
        let back = if us == Color::White { 0 } else { 7 };
        for &rook in rights {
            if rook.rank() != back
                || king.rank() != back
                || self.at(rook) != Some(Piece::new(us, Role::Rook))
            {
                continue;
            }
            let (kd, rd) = castle_dest(us, king, rook);
            let mut lifted = self.clone();
            lifted.sq[king.index()] = None;
            lifted.sq[rook.index()] = None;
            let mut span = rank_span(king, kd);
            span.extend(rank_span(rook, rd));
            if span.iter().any(|&s| lifted.at(s).is_some()) {
                continue;
            }
            if safe
                && rank_span(king, kd)
                    .iter()
                    .any(|&s| lifted.attacked(s, them))
            {
                continue;
            }
            out.push(Move::new(king, rook, MoveKind::Castle));
        }
        out
    }

    /// Orthodox legal moves: patterns plus castling, keeping those after which `us`'s king
    /// is not attacked by any enemy piece (the enemy king included).
    pub fn legal_moves(&self, us: Color, ep: Option<Square>, rights: &[Square]) -> Vec<Move> {
        let mut all = self.pseudo_moves(us, ep);
        all.extend(self.castling_moves(us, rights, true));
        all.into_iter()
            .filter(|&m| !self.after(m, us).in_check(us))
            .collect()
    }
}

/// Chess960 castling destinations: the king goes to the g- or c-file, the rook next to it
/// on the f- or d-file, depending on which side of the king the rook stands.
pub fn castle_dest(us: Color, king: Square, rook: Square) -> (Square, Square) {
    let rank = if us == Color::White { 0 } else { 7 };
    if rook.file() > king.file() {
        (Square::from_coords(6, rank), Square::from_coords(5, rank))
    } else {
        (Square::from_coords(2, rank), Square::from_coords(3, rank))
    }
}

/// Squares from `a` to `b` along a rank, both included.
pub fn rank_span(a: Square, b: Square) -> Vec<Square> {
    let (lo, hi) = (a.file().min(b.file()), a.file().max(b.file()));
    (lo..=hi)
        .map(|f| Square::from_coords(f, a.rank()))
        .collect()
}

/// Move codes sorted, for comparing two move lists as sets.
pub fn sorted_codes(moves: impl IntoIterator<Item = Move>) -> Vec<u16> {
    let mut v: Vec<u16> = moves.into_iter().map(|m| m.code()).collect();
    v.sort_unstable();
    v
}

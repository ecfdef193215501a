//! `Board`: the orthodox position (piece bitboards plus a mailbox, side to move,
//! castling rights stored as rook squares so Chess960 needs no special case, en passant,
//! clocks, incremental Zobrist key) with `make`/`unmake` on an undo stack.
//!
//! Legal move generation lives in `movegen`, FEN in `fen`, notation in `notation`.
//!
//! En passant is recorded only when a pawn of the side to move stands ready to capture
//! (pseudo-legally, as X-FEN and Polyglot do), so two positions that differ only by a
//! useless en passant square have the same key and the same FEN. The square stays
//! recorded when the capture is pseudo-legal but illegal (the pawn is pinned): the
//! variants built on `Board` judge that capture by their own rules (with no check rule,
//! Masquerade may play it; Expedition allows it as a gamble on a distant pin). FIDE
//! repetition compares positions by the moves possible in them, so
//! [`Board::repetition_key`] (used by [`Board::repetitions`]) leaves out an en passant
//! square with no legal capture: `rule_repetition_ignores_an_illegal_en_passant`.
//! FEN output keeps the recorded square too (python-chess's `en_passant="xfen"`; its
//! default `"legal"` and shakmaty's print only a legal one, so the two differ only in
//! the pinned-pawn case, and every FEN reader takes both).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::square::{Color, Piece, Role, Square};
use crate::zobrist;

/// The part of a position a move cannot recompute on the way back. Kept together so
/// make saves it and unmake restores it as one block (field-by-field copies caused
/// store-forwarding stalls that doubled make/unmake time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Irreversible {
    castling: Bitboard,
    key: u64,
    /// En passant square (bits 0..8, `NO_EP` for none), `EP_ILLEGAL` (bit 8), halfmove
    /// clock (bits 16..32) and fullmove number (bits 32..48) in one word: three plain
    /// words copy in three moves.
    misc: u64,
}

const NO_EP: u64 = 64;
/// Set in `misc` when the recorded en passant capture exists only pseudo-legally.
const EP_ILLEGAL: u64 = 1 << 8;

impl Irreversible {
    #[inline(always)]
    fn pack(ep: Option<Square>, halfmoves: u16, fullmoves: u16) -> u64 {
        let ep = match ep {
            Some(sq) => sq.index() as u64,
            None => NO_EP,
        };
        ep | (halfmoves as u64) << 16 | (fullmoves as u64) << 32
    }
    #[inline(always)]
    fn ep(&self) -> Option<Square> {
        Square::try_new(self.misc as u8)
    }
    #[inline(always)]
    fn halfmoves(&self) -> u16 {
        (self.misc >> 16) as u16
    }
    #[inline(always)]
    fn fullmoves(&self) -> u16 {
        (self.misc >> 32) as u16
    }
    /// The key without an en passant square that no legal capture can use.
    #[inline(always)]
    fn repetition_key(&self) -> u64 {
        if self.misc & EP_ILLEGAL == 0 {
            return self.key;
        }
        match self.ep() {
            Some(ep) => self.key ^ zobrist::en_passant(ep.file()),
            None => self.key,
        }
    }
}

/// What `unmake` needs to restore a position exactly.
#[derive(Clone, Copy, Debug)]
struct Undo {
    st: Irreversible,
    mv: Move,
    /// The piece that moved (a pawn for promotions, the king for castling).
    moved: Piece,
    captured: Option<Piece>,
}

/// A [`Board`]'s position without its history ([`Board::snapshot`], [`Board::restore`]).
#[derive(Clone, Debug)]
pub struct Snapshot {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    turn: Color,
    st: Irreversible,
    history_len: usize,
}

/// An orthodox (or Chess960) chess position with its move history.
#[derive(Clone, Debug)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    turn: Color,
    st: Irreversible,
    chess960: bool,
    history: Vec<Undo>,
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    FiftyMoves,
    Repetition,
    InsufficientMaterial,
}

impl Termination {
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::FiftyMoves => "fifty-moves",
            Termination::Repetition => "repetition",
            Termination::InsufficientMaterial => "insufficient-material",
        }
    }
}

/// The result of a finished game: a winner, or `None` for a draw, and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub termination: Termination,
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl PartialEq for Board {
    /// Positions are equal when everything FEN describes is equal; history is ignored.
    fn eq(&self, other: &Board) -> bool {
        self.by_role == other.by_role
            && self.by_color == other.by_color
            && self.turn == other.turn
            && self.st == other.st
    }
}

impl Board {
    /// An empty board, white to move; used by FEN parsing and set-up code.
    pub fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            turn: Color::White,
            st: Irreversible {
                castling: Bitboard::EMPTY,
                key: 0,
                misc: Irreversible::pack(None, 0, 1),
            },
            chess960: false,
            history: Vec::with_capacity(128),
        }
    }

    /// The orthodox starting position.
    pub fn startpos() -> Board {
        crate::chess960::start_position(518)
    }

    // ----- read access -------------------------------------------------------------

    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.key
    }
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.st.ep()
    }
    /// The key of the position as FIDE repetition sees it: [`Board::key`] without an en
    /// passant square that no legal capture can use (the capturing pawn is pinned).
    #[inline(always)]
    pub fn repetition_key(&self) -> u64 {
        self.st.repetition_key()
    }
    /// Rook squares that still carry a castling right.
    #[inline(always)]
    pub fn castling_rights(&self) -> Bitboard {
        self.st.castling
    }
    #[inline(always)]
    pub fn halfmoves(&self) -> u16 {
        self.st.halfmoves()
    }
    #[inline(always)]
    pub fn fullmoves(&self) -> u16 {
        self.st.fullmoves()
    }
    /// Whether notation should treat castling Chess960-style (king takes rook in UCI).
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r.index()]
    }
    #[inline(always)]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard {
        self.by_color[c.index()] & self.by_role[r.index()]
    }
    /// The king of `c`, if there is one (variants may allow kingless positions).
    #[inline(always)]
    pub fn king(&self, c: Color) -> Option<Square> {
        self.pieces(c, Role::King).first()
    }
    /// Number of moves made since the board was set up (the undo stack depth).
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.history.len()
    }
    /// The moves made since set-up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }
    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }
    /// Forget the history (keeps the position). Used when a position becomes a new root.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Pieces of `by` that attack `sq` given occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let them = self.by_color[by.index()];
        let rq = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        let bq = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        them & ((attacks::pawn_attacks(by.other(), sq) & self.by_role[Role::Pawn.index()])
            | (attacks::knight_attacks(sq) & self.by_role[Role::Knight.index()])
            | (attacks::king_attacks(sq) & self.by_role[Role::King.index()])
            | (attacks::rook_attacks(sq, occ) & rq)
            | (attacks::bishop_attacks(sq, occ) & bq))
    }

    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers_to(sq, by, self.occupied()).any()
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        match self.king(self.turn) {
            Some(k) => self.attackers_to(k, self.turn.other(), self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    // ----- low-level editing (keeps the key in step) ---------------------------------

    #[inline(always)]
    fn put(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.by_role[p.role.index()] ^= b;
        self.by_color[p.color.index()] ^= b;
        self.mailbox[sq.index()] = Some(p);
        self.st.key ^= zobrist::piece(p, sq);
    }

    #[inline(always)]
    fn remove(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.by_role[p.role.index()] ^= b;
        self.by_color[p.color.index()] ^= b;
        self.mailbox[sq.index()] = None;
        self.st.key ^= zobrist::piece(p, sq);
    }

    /// Places a piece (replacing whatever stood there). For set-up code, not for play.
    pub fn set_piece(&mut self, sq: Square, p: Option<Piece>) {
        if let Some(old) = self.mailbox[sq.index()] {
            self.remove(old, sq);
        }
        if let Some(p) = p {
            self.put(p, sq);
        }
    }

    /// Sets side to move, castling rights, en passant square and clocks; for set-up code.
    /// The en passant square is dropped unless a pawn could actually capture there.
    pub fn set_state(
        &mut self,
        turn: Color,
        castling: Bitboard,
        ep: Option<Square>,
        halfmoves: u16,
        fullmoves: u16,
    ) {
        self.turn = turn;
        self.st.castling = castling;
        let ep = ep.filter(|&sq| self.ep_capturable(sq, turn));
        let illegal = ep.is_some_and(|sq| !self.ep_legal(sq, turn));
        self.st.misc = Irreversible::pack(ep, halfmoves, fullmoves) | (EP_ILLEGAL * illegal as u64);
        self.st.key = self.compute_key();
    }

    fn ep_capturable(&self, ep: Square, turn: Color) -> bool {
        (attacks::pawn_attacks(turn.other(), ep) & self.pieces(turn, Role::Pawn)).any()
    }

    /// Whether a pawn of `turn` may capture en passant on `ep` without leaving its king
    /// attacked (orthodox legality), given the pawn that double-stepped past `ep`.
    /// Called only when a capture is pseudo-legal, so rarely that it costs perft nothing
    /// measurable.
    #[cold]
    fn ep_legal(&self, ep: Square, turn: Color) -> bool {
        let Some(king) = self.king(turn) else {
            return true;
        };
        let victim = Bitboard::from_square(Square::from_coords(
            ep.file(),
            if turn == Color::White { 4 } else { 3 },
        ));
        let capturers = attacks::pawn_attacks(turn.other(), ep) & self.pieces(turn, Role::Pawn);
        for from in capturers {
            let occ = (self.occupied() - victim).without(from).with(ep);
            if (self.attackers_to(king, turn.other(), occ) - victim).is_empty() {
                return true;
            }
        }
        false
    }

    /// The Zobrist key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = zobrist::side(self.turn);
        for sq in self.occupied() {
            k ^= zobrist::piece(self.mailbox[sq.index()].unwrap(), sq);
        }
        for sq in self.st.castling {
            k ^= zobrist::castling(sq);
        }
        if let Some(ep) = self.st.ep() {
            k ^= zobrist::en_passant(ep.file());
        }
        k
    }

    /// Checks the board's internal invariants (bitboards agree with the mailbox, the key
    /// matches). Used by tests and debug assertions.
    pub fn is_consistent(&self) -> bool {
        let mut ok = (self.by_color[0] & self.by_color[1]).is_empty();
        let mut union = Bitboard::EMPTY;
        for r in Role::ALL {
            ok &= (union & self.by_role[r.index()]).is_empty();
            union |= self.by_role[r.index()];
        }
        ok &= union == self.occupied();
        for sq in Square::all() {
            let from_bb = Role::ALL
                .iter()
                .find(|r| self.by_role[r.index()].contains(sq))
                .map(|&r| {
                    let c = if self.by_color[0].contains(sq) {
                        Color::White
                    } else {
                        Color::Black
                    };
                    Piece::new(c, r)
                });
            ok &= from_bb == self.mailbox[sq.index()];
        }
        let ep_illegal = self.st.ep().is_some_and(|sq| !self.ep_legal(sq, self.turn));
        ok && self.st.key == self.compute_key() && (self.st.misc & EP_ILLEGAL != 0) == ep_illegal
    }

    // ----- make / unmake -------------------------------------------------------------

    /// The king's and rook's destinations when `color` castles with the rook on `rook`.
    #[inline]
    pub fn castle_targets(color: Color, king: Square, rook: Square) -> (Square, Square) {
        let rank = if color == Color::White { 0 } else { 7 };
        if rook.file() > king.file() {
            (Square::from_coords(6, rank), Square::from_coords(5, rank))
        } else {
            (Square::from_coords(2, rank), Square::from_coords(3, rank))
        }
    }

    /// Toggles `b` in the bitboards of `p` (mailbox and key are the caller's business).
    #[inline(always)]
    fn toggle(&mut self, p: Piece, b: Bitboard) {
        self.by_role[p.role.index()] ^= b;
        self.by_color[p.color.index()] ^= b;
    }

    /// Plays a legal move. The move must come from this position's legal move list
    /// (or be checked with `is_legal`); anything else corrupts the board.
    #[inline]
    pub fn make(&mut self, mv: Move) {
        self.make_inline(mv)
    }

    /// Takes back the last move made with `make`. Returns it, or `None` with no history.
    #[inline]
    pub fn unmake(&mut self) -> Option<Move> {
        self.unmake_inline()
    }

    /// `make`, forced inline (perft's inner loops).
    #[inline(always)]
    pub(crate) fn make_inline(&mut self, mv: Move) {
        self.make_impl::<true>(mv)
    }

    /// Plays a legal move (as [`Board::make`]) without a history entry: it cannot be
    /// taken back with `unmake`, only by [`Board::restore`] of a [`Snapshot`] taken
    /// before it. For playouts that play many moves and then return to where they began
    /// (one copy of the position instead of one history entry and one unmake a move).
    #[inline(always)]
    pub fn make_unrecorded(&mut self, mv: Move) {
        self.make_impl::<false>(mv)
    }

    /// Passes the turn (as [`Board::make_null`]) without a history entry; taken back
    /// only by [`Board::restore`].
    #[inline(always)]
    pub fn make_null_unrecorded(&mut self) {
        self.st = self.null_successor();
        self.turn = self.turn.other();
    }

    /// The position without its history, for [`Board::restore`].
    #[inline]
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            by_role: self.by_role,
            by_color: self.by_color,
            mailbox: self.mailbox,
            turn: self.turn,
            st: self.st,
            history_len: self.history.len(),
        }
    }

    /// Returns to the position of `snapshot`, taken from this board before any number
    /// of [`Board::make_unrecorded`] and [`Board::make_null_unrecorded`] calls (and
    /// recorded moves: their history entries are dropped).
    #[inline]
    pub fn restore(&mut self, snapshot: &Snapshot) {
        self.by_role = snapshot.by_role;
        self.by_color = snapshot.by_color;
        self.mailbox = snapshot.mailbox;
        self.turn = snapshot.turn;
        self.st = snapshot.st;
        self.history.truncate(snapshot.history_len);
    }

    #[inline(always)]
    fn make_impl<const RECORD: bool>(&mut self, mv: Move) {
        let us = self.turn;
        let them = us.other();
        let from = mv.from();
        let to = mv.to();
        let Some(moved) = self.mailbox[from.index()] else {
            no_piece(mv)
        };
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let prev = self.st;
        let mut key = prev.key ^ zobrist::BLACK_TO_MOVE;
        if let Some(ep) = prev.ep() {
            key ^= zobrist::en_passant(ep.file());
        }
        let mut ep = None;
        let mut ep_illegal = false;
        let mut halfmoves = prev.halfmoves().saturating_add(1);
        let mut captured = None;

        match mv.kind() {
            MoveKind::Normal => {
                if let Some(cap) = self.mailbox[to.index()] {
                    self.toggle(cap, to_bb);
                    key ^= zobrist::piece(cap, to);
                    captured = Some(cap);
                    halfmoves = 0;
                }
                self.toggle(moved, from_bb | to_bb);
                self.mailbox[from.index()] = None;
                self.mailbox[to.index()] = Some(moved);
                key ^= zobrist::piece(moved, from) ^ zobrist::piece(moved, to);
                if moved.role == Role::Pawn {
                    halfmoves = 0;
                    if from.index() ^ to.index() == 16 {
                        let sq = Square::new(((from.index() + to.index()) / 2) as u8);
                        if self.ep_capturable(sq, them) {
                            ep = Some(sq);
                            key ^= zobrist::en_passant(sq.file());
                            ep_illegal = !self.ep_legal(sq, them);
                        }
                    }
                }
            }
            MoveKind::Promotion(r) => {
                if let Some(cap) = self.mailbox[to.index()] {
                    self.toggle(cap, to_bb);
                    key ^= zobrist::piece(cap, to);
                    captured = Some(cap);
                }
                let promoted = Piece::new(us, r);
                self.toggle(moved, from_bb);
                self.toggle(promoted, to_bb);
                self.mailbox[from.index()] = None;
                self.mailbox[to.index()] = Some(promoted);
                key ^= zobrist::piece(moved, from) ^ zobrist::piece(promoted, to);
                halfmoves = 0;
            }
            MoveKind::EnPassant => {
                let cap_sq = Square::from_coords(to.file(), from.rank());
                let cap = Piece::new(them, Role::Pawn);
                self.toggle(cap, Bitboard::from_square(cap_sq));
                self.mailbox[cap_sq.index()] = None;
                self.toggle(moved, from_bb | to_bb);
                self.mailbox[from.index()] = None;
                self.mailbox[to.index()] = Some(moved);
                key ^= zobrist::piece(cap, cap_sq)
                    ^ zobrist::piece(moved, from)
                    ^ zobrist::piece(moved, to);
                captured = Some(cap);
                halfmoves = 0;
            }
            MoveKind::Castle => {
                // King takes own rook: `to` is the rook's square. King and rook may swap
                // or already stand on their targets (Chess960); toggling handles both.
                let rook = Piece::new(us, Role::Rook);
                let (kd, rd) = Board::castle_targets(us, from, to);
                self.toggle(moved, from_bb ^ Bitboard::from_square(kd));
                self.toggle(rook, to_bb ^ Bitboard::from_square(rd));
                self.mailbox[from.index()] = None;
                self.mailbox[to.index()] = None;
                self.mailbox[kd.index()] = Some(moved);
                self.mailbox[rd.index()] = Some(rook);
                key ^= zobrist::piece(moved, from)
                    ^ zobrist::piece(moved, kd)
                    ^ zobrist::piece(rook, to)
                    ^ zobrist::piece(rook, rd);
            }
        }

        // Castling rights: a king move loses both; a rook leaving or being captured on
        // its square loses that one.
        let mut castling = prev.castling;
        if castling.any() {
            let mut lost = castling & (from_bb | to_bb);
            if moved.role == Role::King {
                lost |= castling & Bitboard::relative_rank(us, 0);
            }
            if lost.any() {
                for sq in lost {
                    key ^= zobrist::castling(sq);
                }
                castling -= lost;
            }
        }

        if RECORD {
            self.history.push(Undo {
                st: prev,
                mv,
                moved,
                captured,
            });
        }
        self.st = Irreversible {
            castling,
            key,
            misc: Irreversible::pack(ep, halfmoves, prev.fullmoves().saturating_add(us as u16))
                | (EP_ILLEGAL * ep_illegal as u64),
        };
        self.turn = them;
    }

    /// `unmake`, forced inline (perft's inner loops).
    #[inline(always)]
    pub(crate) fn unmake_inline(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        let mv = undo.mv;
        let us = self.turn.other();
        let from = mv.from();
        let to = mv.to();
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let moved = undo.moved;
        // The key comes back with the saved block, so only bitboards and mailbox move.
        match mv.kind() {
            MoveKind::Normal => {
                self.toggle(moved, from_bb | to_bb);
                self.mailbox[from.index()] = Some(moved);
                self.mailbox[to.index()] = undo.captured;
                if let Some(cap) = undo.captured {
                    self.toggle(cap, to_bb);
                }
            }
            MoveKind::Promotion(r) => {
                self.toggle(Piece::new(us, r), to_bb);
                self.toggle(moved, from_bb);
                self.mailbox[from.index()] = Some(moved);
                self.mailbox[to.index()] = undo.captured;
                if let Some(cap) = undo.captured {
                    self.toggle(cap, to_bb);
                }
            }
            MoveKind::EnPassant => {
                self.toggle(moved, from_bb | to_bb);
                self.mailbox[from.index()] = Some(moved);
                self.mailbox[to.index()] = None;
                let cap_sq = Square::from_coords(to.file(), from.rank());
                let cap = Piece::new(us.other(), Role::Pawn);
                self.toggle(cap, Bitboard::from_square(cap_sq));
                self.mailbox[cap_sq.index()] = Some(cap);
            }
            MoveKind::Castle => {
                let rook = Piece::new(us, Role::Rook);
                let (kd, rd) = Board::castle_targets(us, from, to);
                self.toggle(moved, from_bb ^ Bitboard::from_square(kd));
                self.toggle(rook, to_bb ^ Bitboard::from_square(rd));
                self.mailbox[kd.index()] = None;
                self.mailbox[rd.index()] = None;
                self.mailbox[from.index()] = Some(moved);
                self.mailbox[to.index()] = Some(rook);
            }
        }
        self.turn = us;
        self.st = undo.st;
        Some(mv)
    }

    /// Passes the turn without moving (for search's null-move and for variants).
    pub fn make_null(&mut self) {
        let prev = self.st;
        self.history.push(Undo {
            st: prev,
            mv: Move::NULL,
            moved: Piece::new(self.turn, Role::King),
            captured: None,
        });
        self.st = self.null_successor();
        self.turn = self.turn.other();
    }

    /// The irreversible state after a pass.
    #[inline(always)]
    fn null_successor(&self) -> Irreversible {
        let prev = self.st;
        let mut key = prev.key ^ zobrist::BLACK_TO_MOVE;
        if let Some(ep) = prev.ep() {
            key ^= zobrist::en_passant(ep.file());
        }
        Irreversible {
            castling: prev.castling,
            key,
            misc: Irreversible::pack(
                None,
                prev.halfmoves().saturating_add(1),
                prev.fullmoves().saturating_add(self.turn as u16),
            ),
        }
    }

    /// Takes back `make_null`.
    pub fn unmake_null(&mut self) {
        let undo = self.history.pop().expect("unmake_null without history");
        self.turn = self.turn.other();
        self.st = undo.st;
    }

    /// The enemy piece `mv` takes: judged by the colour of the piece on its origin, not
    /// by the side to move (a variant may have handed the board's turn on: Clairvoyant's
    /// bought moves), `None` for a quiet move, castling or an empty origin.
    pub fn victim(&self, mv: Move) -> Option<Piece> {
        let mover = self.piece_at(mv.from())?.color;
        match mv.kind() {
            MoveKind::Castle => None,
            MoveKind::EnPassant => Some(Piece::new(mover.other(), Role::Pawn)),
            _ => self.mailbox[mv.to().index()].filter(|p| p.color != mover),
        }
    }

    /// What piece a move captures, if any (en passant included).
    #[inline]
    pub fn captured_piece(&self, mv: Move) -> Option<Piece> {
        match mv.kind() {
            MoveKind::Castle => None,
            MoveKind::EnPassant => Some(Piece::new(self.turn.other(), Role::Pawn)),
            _ => self.mailbox[mv.to().index()],
        }
    }

    // ----- draws and game end ---------------------------------------------------------

    /// How many earlier positions in the history equal the current one (same
    /// [`Board::repetition_key`]), looking back only as far as the last irreversible move.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let limit = (self.st.halfmoves() as usize).min(n);
        let key = self.st.repetition_key();
        let mut count = 0;
        let mut i = 2;
        while i <= limit {
            if self.history[n - i].st.repetition_key() == key {
                count += 1;
            }
            i += 2;
        }
        count
    }

    /// K v K or K+minor v K: the insufficient material of RULES.md's common rules, the
    /// only draw by material in every variant but orthodox chess and Chess960 (in
    /// Synchronous and Tar Pit two bishops of one colour can still win).
    pub fn is_bare_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        heavy.is_empty() && (self.by_role(Role::Knight) | self.by_role(Role::Bishop)).count() <= 1
    }

    /// Orthodox insufficient material (orthodox chess and Chess960 only): the bare cases
    /// of [`Board::is_bare_material`] plus positions whose minors are all bishops on one
    /// colour of square, as python-chess counts them.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        if knights.is_empty() {
            const DARK: u64 = 0xAA55_AA55_AA55_AA55;
            return bishops.0 & DARK == 0 || bishops.0 & !DARK == 0;
        }
        false
    }

    /// The outcome if the game is over under FIDE rules (threefold repetition and the
    /// 50-move rule are applied automatically, as self-play needs).
    pub fn outcome(&self) -> Option<Outcome> {
        let has_moves = self.has_legal_moves();
        if !has_moves {
            return Some(if self.in_check() {
                Outcome {
                    winner: Some(self.turn.other()),
                    termination: Termination::Checkmate,
                }
            } else {
                Outcome {
                    winner: None,
                    termination: Termination::Stalemate,
                }
            });
        }
        self.automatic_draw().map(|termination| Outcome {
            winner: None,
            termination,
        })
    }

    /// The draw that ends the game when the side to move still has moves: insufficient
    /// material, the 50-move rule, threefold repetition. Needs no move generation.
    pub fn automatic_draw(&self) -> Option<Termination> {
        self.automatic_draw_by(MaterialRule::Orthodox)
    }

    /// [`Board::automatic_draw`] with the variant's rule for drawn material.
    pub fn automatic_draw_by(&self, material: MaterialRule) -> Option<Termination> {
        let dead = match material {
            MaterialRule::Orthodox => self.is_insufficient_material(),
            MaterialRule::Bare => self.is_bare_material(),
        };
        if dead {
            Some(Termination::InsufficientMaterial)
        } else if self.st.halfmoves() >= 100 {
            Some(Termination::FiftyMoves)
        } else if self.repetitions() >= 2 {
            Some(Termination::Repetition)
        } else {
            None
        }
    }
}

/// Which positions are drawn for lack of material (RULES.md, common rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialRule {
    /// Orthodox chess and Chess960: bare kings, K+minor v K, and bishops all on one colour.
    Orthodox,
    /// Every other variant: only bare kings and K+minor v K.
    Bare,
}

#[cold]
#[inline(never)]
fn no_piece(mv: Move) -> ! {
    panic!("make: no piece on the from-square of {mv:?}")
}

#[cfg(test)]
mod snapshot_tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// RULES.md, common rules: K v K and K+minor v K are dead in every variant; bishops all
    /// on one colour only in orthodox chess and Chess960.
    #[test]
    fn rule_insufficient_material_bare_everywhere_same_colour_bishops_only_orthodox() {
        let case = |fen: &str| Board::from_fen(fen).expect("test FEN");
        for fen in [
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/8/3NK3 w - - 0 1",
        ] {
            let b = case(fen);
            assert!(
                b.is_bare_material() && b.is_insufficient_material(),
                "{fen}"
            );
            assert_eq!(
                b.automatic_draw_by(MaterialRule::Bare),
                Some(Termination::InsufficientMaterial)
            );
        }
        // K+B+B on dark squares v K, and bishops of one colour on both sides.
        for fen in [
            "8/8/8/4k3/8/4B3/8/2B1K3 w - - 0 1",
            "5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
        ] {
            let b = case(fen);
            assert!(b.is_insufficient_material(), "orthodox: {fen}");
            assert!(!b.is_bare_material(), "variants play on: {fen}");
            assert_eq!(b.automatic_draw_by(MaterialRule::Bare), None, "{fen}");
            assert_eq!(b.automatic_draw(), Some(Termination::InsufficientMaterial));
        }
        // Bishops on both colours, two knights, a pawn: alive under both rules.
        for fen in [
            "8/8/8/4k3/8/8/8/2BBK3 w - - 0 1",
            "8/8/8/4k3/8/8/8/2NNK3 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        ] {
            let b = case(fen);
            assert!(
                !b.is_insufficient_material() && !b.is_bare_material(),
                "{fen}"
            );
        }
    }

    /// Seeded random games (passes mixed in) played with `make_unrecorded` and
    /// `make_null_unrecorded` from a snapshot: after `restore` the board equals the one
    /// before (position, key, irreversible state, history length), and at every ply the
    /// unrecorded board equals a board that made the same moves with `make`/`make_null`.
    #[test]
    fn restore_returns_to_the_snapshot_and_unrecorded_moves_match_make() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(77);
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        for fen in fens {
            for _ in 0..40 {
                let mut b = Board::from_fen(fen).expect("test FEN");
                for _ in 0..rng.gen_range(0..20) {
                    let moves = b.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    b.make(moves[rng.gen_range(0..moves.len())]);
                }
                let before = b.clone();
                let snap = b.snapshot();
                let mut recorded = b.clone();
                for _ in 0..rng.gen_range(1..60) {
                    let moves = b.legal_moves();
                    if moves.is_empty() || rng.gen_range(0..10) == 0 {
                        b.make_null_unrecorded();
                        recorded.make_null();
                    } else {
                        let mv = moves[rng.gen_range(0..moves.len())];
                        b.make_unrecorded(mv);
                        recorded.make(mv);
                    }
                    assert_eq!(b, recorded);
                    assert_eq!(b.key(), recorded.key());
                    assert_eq!(b.ply(), before.ply());
                }
                b.restore(&snap);
                assert_eq!(b, before);
                assert_eq!(b.key(), before.key());
                assert_eq!(b.st, before.st);
                assert_eq!(b.mailbox, before.mailbox);
                assert_eq!(b.ply(), before.ply());
                assert_eq!(b.last_move(), before.last_move());
            }
        }
    }
}

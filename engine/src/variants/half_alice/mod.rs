//! Half Alice Chess (chess-kit seed "Half Alice Chess"; docs/RULES.md "Half Alice Chess").
//!
//! Two sides of the mirror on one board: pieces standing on a checker are on the mirror
//! side (`mirror` holds their squares). A square holds at most one piece.
//! - A move must be pseudo-legal on the mover's side: only pieces on the same side block
//!   or can be captured; the destination must be empty or hold an enemy piece on the same
//!   side; a square holding a piece of the other side is never a destination.
//! - The moved piece then switches side (castling: king and rook both switch).
//! - Legality: (a) before the switch the mover's king must not be attacked on its side
//!   (no escaping check by switching); (b) after the switch it must not be attacked on
//!   its side either. As in Alice Chess (which RULES.md says this game equals), (a) is
//!   judged on the side where the move is played: a piece moving on the other side of
//!   the mirror from its king may block a check by arriving through the mirror. The
//!   pyffish-alice perft counts need exactly this reading.
//! - Double step: the crossed square must be empty on the pawn's side. En passant only
//!   when the capturing pawn is on the same side as the pawn that just double-stepped
//!   (after that pawn's switch).
//! - Checkers: with fewer than 16 checkers a colour (parameter), a piece off the mirror
//!   may move only while its owner has a checker to spare
//!   (`rule_twelve_checkers_limit_plain_side_moves`). Castling from the plain side moves
//!   two pieces without checkers onto the mirror and needs two free checkers
//!   (`rule_castling_from_the_plain_side_needs_two_free_checkers`); castling back from
//!   the mirror side frees two and needs none.
//!
//! Decisions where the texts are silent (tested below): castling needs king and rook on
//! the same side, with the squares they pass empty on that side and their destinations
//! empty on both; the king may not castle out of, through or into check on its side.
//! Draw rules are the common ones (50 moves, threefold repetition of board and mirror,
//! insufficient material, ply cap). Built on `Board`'s make/unmake: `Board` stores the
//! pieces and clocks, this file adds the mirror bitboard and the move rules. The legal
//! moves and any draw are worked out on the first question after a move and kept for
//! `result` and `legal_actions` to share
//! (`cached_status_matches_a_fresh_computation_in_random_play`); before that, `turn` asks
//! only whether some move is legal and `legal_captures` lists captures alone, so a search
//! lists a node's quiet moves only where it expands it. With the king out
//! of check, a move played on the far side of the mirror from it skips the king test; a
//! king move looks up the attackers of its landing square on both sides; any other move
//! beside the king needs only (b), which implies (a) (the moved piece still blocks before
//! the switch), and (b) can fail only when the piece leaving the king's side, or the one
//! it takes, is the first piece on a line from the king, so only those are tested.
//! Castling, en passant and positions in check keep the two occupancy-sketch tests. All
//! of it is checked against testing every move both ways
//! (`generator_matches_the_plain_reference_in_random_play`). The search may pass
//! (null-move pruning, `GameFacts::null_move`): a turn is one move, so a pass is the
//! bound it is in orthodox chess (`null_move_passes_the_turn_and_undoes`).

use crate::attacks::between;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    two_seat_returns, validate_ply_cap, Game, GameError, GameFacts, GameResult, InvalidParams,
    Seat, Turn, VariantParams,
};
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::{Color, Role, Square};
use crate::variants::chess::material_balance;
use crate::variants::{common_draw, no_moves_result, pseudo_moves, MoveSketch};
use crate::zobrist;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Tunable numbers of Half Alice Chess.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct HalfAliceParams {
    pub ply_cap: u32,
    /// Checkers per colour: 16 (full compatibility, the default) or 12 (a standard set).
    pub checkers_per_side: u8,
}

impl Default for HalfAliceParams {
    fn default() -> Self {
        HalfAliceParams {
            ply_cap: 400,
            checkers_per_side: 16,
        }
    }
}

/// What each of [`HalfAliceParams`]'s keys is (printed by `chesslab params`).
pub const HALF_ALICE_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "plies after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "checkers_per_side",
        "checkers per colour: 16 gives every piece one, 12 is a standard set",
        "12 or 16",
    ),
];

impl VariantParams for HalfAliceParams {
    const DOCS: &'static [crate::game::ParamDoc] = HALF_ALICE_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        if !matches!(self.checkers_per_side, 12 | 16) {
            return Err(InvalidParams::new(
                "checkers_per_side",
                format!(
                    "{} is not an option: 16 (every piece has a checker) or 12 (a standard set)",
                    self.checkers_per_side
                ),
            ));
        }
        Ok(())
    }
}

/// A Half Alice game.
#[derive(Clone, Debug)]
pub struct HalfAlice {
    board: Board,
    mirror: Bitboard,
    params: HalfAliceParams,
    /// Mirror sets before each move, for undo.
    mirrors: Vec<Bitboard>,
    /// State keys before each move, for repetition.
    keys: Vec<u64>,
    /// Captures so far per colour (for `tallies`; `undo` takes them back).
    captures: [u32; 2],
    /// The position's legal moves and draw, worked out on the first question after an
    /// `apply` or `undo` and kept until the next one.
    status: OnceLock<Status>,
}

/// What the side to move can do now: `result` and `legal_actions` share it. `turn`
/// asks only whether a move exists when it is not worked out yet, so a search that
/// leaves a node early (a table hit, a stand-pat cut) never lists its moves, and
/// quiescence lists captures alone (`legal_captures`).
#[derive(Clone)]
struct Status {
    /// The legal moves (left empty when a draw ends the game first).
    moves: MoveList,
    draw: Option<&'static str>,
}

impl std::fmt::Debug for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Status")
            .field("moves", &self.moves.len())
            .field("draw", &self.draw)
            .finish()
    }
}

fn mirror_key(mirror: Bitboard) -> u64 {
    mirror.fold(0, |k, sq| k ^ zobrist::extra(sq.index() as u64 + 1))
}

impl HalfAlice {
    /// A position from a FEN and the squares of the pieces on the mirror side.
    pub fn from_parts(board: Board, mirror: Bitboard, params: HalfAliceParams) -> HalfAlice {
        HalfAlice {
            mirror: mirror & board.occupied(),
            board,
            params,
            mirrors: Vec::new(),
            keys: Vec::new(),
            captures: [0; 2],
            status: OnceLock::new(),
        }
    }

    /// The status, worked out now if it is not yet.
    #[inline]
    fn status(&self) -> &Status {
        self.status.get_or_init(|| {
            let draw = self.draw_reason();
            let moves = match draw {
                None => self.listed(|_| true),
                Some(_) => MoveList::new(),
            };
            Status { moves, draw }
        })
    }

    /// Forgets the status (the position changed).
    #[inline]
    fn stale(&mut self) {
        self.status = OnceLock::new();
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// Squares of the pieces on the mirror side (on checkers).
    pub fn mirror(&self) -> Bitboard {
        self.mirror
    }

    /// Occupied squares on one side of the mirror.
    fn side_occ(&self, mirror_side: bool, mirror: Bitboard) -> Bitboard {
        if mirror_side {
            self.board.occupied() & mirror
        } else {
            self.board.occupied() - mirror
        }
    }

    fn free_checkers(&self, color: Color) -> i32 {
        self.params.checkers_per_side as i32
            - (self.board.by_color(color) & self.mirror).count() as i32
    }

    /// Whether `color`'s king is attacked on its own side, for a given mirror set.
    fn king_attacked(&self, color: Color, mirror: Bitboard) -> bool {
        let Some(k) = self.board.king(color) else {
            return false;
        };
        let side = mirror.contains(k);
        let occ = self.side_occ(side, mirror);
        (self.board.attackers_to(k, color.other(), occ) & occ).any()
    }

    /// The mover's king is in check (attacked on its side).
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.board.turn(), self.mirror)
    }

    /// Moves that are pseudo-legal on each piece's side (before the king-safety tests).
    fn pseudo_moves(&self, out: &mut MoveList) {
        let us = self.board.turn();
        let movers = if self.free_checkers(us) > 0 {
            Bitboard::FULL
        } else {
            self.mirror
        };
        let mirror = self.mirror;
        pseudo_moves(
            &self.board,
            out,
            movers,
            |sq| self.side_occ(mirror.contains(sq), mirror),
            |pawn, captured| mirror.contains(pawn) == mirror.contains(captured),
        );
        self.castles(out);
    }

    fn castles(&self, out: &mut MoveList) {
        let b = &self.board;
        let us = b.turn();
        let Some(king) = b.king(us) else { return };
        let back = Bitboard::relative_rank(us, 0);
        if !back.contains(king) {
            return;
        }
        let side = self.mirror.contains(king);
        // From the plain side both king and rook step onto the mirror: two checkers.
        if !side && self.free_checkers(us) < 2 {
            return;
        }
        let occ = b.occupied();
        let occ_s = self.side_occ(side, self.mirror);
        for rook in b.castling_rights() & back & b.pieces(us, Role::Rook) {
            if self.mirror.contains(rook) != side {
                continue;
            }
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let pass = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                .without(king)
                .without(rook);
            let landing = Bitboard::from_square(kd)
                .with(rd)
                .without(king)
                .without(rook);
            if (pass & occ_s).any() || (landing & occ).any() {
                continue;
            }
            let occ2 = occ_s.without(king).without(rook);
            let path = between(king, kd).with(kd).with(king);
            if path.any_square(|s| (b.attackers_to(s, us.other(), occ2) & occ2).any()) {
                continue;
            }
            out.push(Move::new(king, rook, MoveKind::Castle));
        }
    }

    /// The mirror set after `mv`, and the set before the switch (moved pieces still on
    /// their old side), for a move about to be played from the current position.
    fn mirrors_for(&self, mv: Move) -> (Bitboard, Bitboard) {
        let from = mv.from();
        let side = self.mirror.contains(from);
        let mut m = self.mirror.without(from);
        let moved: Bitboard = match mv.kind() {
            MoveKind::Castle => {
                let (kd, rd) = Board::castle_targets(self.board.turn(), from, mv.to());
                m = m.without(mv.to());
                Bitboard::from_square(kd).with(rd)
            }
            MoveKind::EnPassant => {
                m = m.without(Square::from_coords(mv.to().file(), from.rank()));
                Bitboard::from_square(mv.to())
            }
            _ => Bitboard::from_square(mv.to()),
        };
        m -= moved;
        let (before, after) = if side { (m | moved, m) } else { (m, m | moved) };
        (after, before)
    }

    /// Whether the mover's king is safe after `mv` with the pieces on the sides given by
    /// `mirror` (the set before or after the switch). Judged from occupancy alone, so no
    /// copy of the position is made.
    fn king_safe_after(&self, mv: Move, mirror: Bitboard) -> bool {
        let b = &self.board;
        let sketch = MoveSketch::new(b, mv);
        let Some(king) = sketch.king else {
            return true;
        };
        let occ = sketch.occupied;
        let occ_side = if mirror.contains(king) {
            occ & mirror
        } else {
            occ - mirror
        };
        (b.attackers_to(king, b.turn().other(), occ_side) & (occ_side - sketch.captured)).is_empty()
    }

    /// All legal moves (draws aside): the kept list when it was worked out.
    pub fn legal_moves(&self) -> MoveList {
        match self.status.get() {
            Some(st) if st.draw.is_none() => st.moves.clone(),
            _ => self.listed(|_| true),
        }
    }

    /// The legal moves among the pseudo-legal ones `wanted` keeps, in generation order.
    fn listed(&self, wanted: impl Fn(Move) -> bool) -> MoveList {
        let mut list = MoveList::new();
        self.each_legal(wanted, |m| {
            list.push(m);
            true
        });
        list
    }

    /// Whether the side to move has a legal move (draws aside), stopping at the first.
    fn has_legal_move(&self) -> bool {
        let mut any = false;
        self.each_legal(
            |_| true,
            |_| {
                any = true;
                false
            },
        );
        any
    }

    /// Calls `f` with each legal move among the pseudo-legal ones `wanted` keeps, in
    /// generation order, until `f` returns false (draws aside).
    fn each_legal(&self, wanted: impl Fn(Move) -> bool, mut f: impl FnMut(Move) -> bool) {
        let mut pseudo = MoveList::new();
        self.pseudo_moves(&mut pseudo);
        let b = &self.board;
        let us = b.turn();
        let candidates = pseudo.iter().copied().filter(|&m| wanted(m));
        let Some(king) = b.king(us) else {
            // No king to keep safe (a test position): every pseudo-legal move stands.
            for mv in candidates {
                if !f(mv) {
                    return;
                }
            }
            return;
        };
        let king_side = self.mirror.contains(king);
        if self.king_attacked(us, self.mirror) {
            // In check the two sketch tests decide every move (rare enough).
            for mv in candidates {
                if self.legal_by_sketch(mv, king_side) && !f(mv) {
                    return;
                }
            }
            return;
        }
        let occ_k = self.side_occ(king_side, self.mirror);
        let occ_o = self.side_occ(!king_side, self.mirror);
        let enemies = b.by_color(us.other());
        // The first piece on each line from the king on its side: only taking one of
        // these off the king's side can open a line onto it.
        let shields = crate::attacks::queen_attacks(king, occ_k) & occ_k;
        for mv in candidates {
            let from = mv.from();
            let ok = if self.mirror.contains(from) != king_side {
                // Played on the far side from an unchecked king: the moved piece only
                // arrives on the king's side (its capture, if any, is on the far side),
                // adding a blocker and no enemy there, so the king stays safe.
                true
            } else if from == king && mv.kind() == MoveKind::Normal {
                // (a) the king on `to` before its switch, on its side (the piece it
                // takes, on `to`, attacks nothing there); (b) on `to` on the other side,
                // which it joins on a square empty there.
                let to = mv.to();
                (b.attackers_to(to, us.other(), occ_k.without(king)) & enemies & occ_k).is_empty()
                    && (b.attackers_to(to, us.other(), occ_o.with(to)) & enemies & occ_o).is_empty()
            } else if from != king && matches!(mv.kind(), MoveKind::Normal | MoveKind::Promotion(_))
            {
                // Another piece leaves the king's side (its capture too). (a) is implied
                // by (b): before the switch the moved piece still blocks on `to` and the
                // same enemies remain. (b) can fail only if a shield left.
                !shields.contains(from) && !shields.contains(mv.to())
                    || self.king_safe_after(mv, self.mirrors_for(mv).0)
            } else {
                // Castling and en passant: the sketch tests.
                self.legal_by_sketch(mv, king_side)
            };
            if ok && !f(mv) {
                return;
            }
        }
    }

    /// Rules (a) and (b) judged on occupancy sketches of the position after `mv`.
    fn legal_by_sketch(&self, mv: Move, king_side: bool) -> bool {
        let (after, before) = self.mirrors_for(mv);
        // (a) applies on the side where the move is played: a piece moving on the other
        // side of the mirror from its king cannot expose it there.
        let played_beside_king = self.mirror.contains(mv.from()) == king_side;
        (!played_beside_king || self.king_safe_after(mv, before)) && self.king_safe_after(mv, after)
    }

    /// The plain generator the fast one is checked against: both tests for every move.
    #[cfg(test)]
    fn generate_reference(&self, legal: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_moves(&mut pseudo);
        let king_side = self
            .board
            .king(self.board.turn())
            .map(|k| self.mirror.contains(k));
        for &mv in pseudo.iter() {
            let (after, before) = self.mirrors_for(mv);
            let played_beside_king = king_side == Some(self.mirror.contains(mv.from()));
            if (!played_beside_king || self.king_safe_after(mv, before))
                && self.king_safe_after(mv, after)
            {
                legal.push(mv);
            }
        }
    }
}

impl Game for HalfAlice {
    type Action = Move;
    type Params = HalfAliceParams;

    fn facts(&self) -> GameFacts {
        // The combined board shows a check after most moves: not the game's check,
        // which is the king attacked on its own side (`HalfAlice::in_check`). A turn is
        // one move; captures are on one side of the mirror only (no static exchange).
        GameFacts::TWO_SEAT_CLASSIC
            .with_board_check(false)
            .with_game_check(true)
            .with_quiet_pruning(true)
            .with_null_move(true)
            .with_eval("half-alice")
    }

    fn in_check(&self) -> bool {
        HalfAlice::in_check(self)
    }

    fn new(params: &HalfAliceParams) -> HalfAlice {
        HalfAlice::from_parts(Board::startpos(), Bitboard::EMPTY, params.clone())
    }

    /// An opening is a FEN, optionally followed by `|` and the mirror squares
    /// (`... w KQkq - 0 1 | e4 d5`).
    fn from_opening(params: &HalfAliceParams, opening: &str) -> Result<HalfAlice, GameError> {
        let (fen, mirror_text) = opening.split_once('|').unwrap_or((opening, ""));
        let board = Board::from_fen(fen.trim()).map_err(|e| GameError::opening_fen(opening, e))?;
        let mut mirror = Bitboard::EMPTY;
        for s in mirror_text.split_whitespace() {
            let sq = Square::parse(s).ok_or_else(|| {
                GameError::opening(opening, format!("mirror square '{s}' is not a square"))
            })?;
            if board.piece_at(sq).is_none() {
                return Err(GameError::opening(
                    opening,
                    format!("mirror square {s} is empty"),
                ));
            }
            mirror.set(sq);
        }
        Ok(HalfAlice::from_parts(board, mirror, params.clone()))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        let over = match self.status.get() {
            Some(st) => st.draw.is_some() || st.moves.is_empty(),
            None => self.draw_reason().is_some() || !self.has_legal_move(),
        };
        if over {
            Turn::Terminal
        } else {
            Turn::Seat(self.board.turn().index())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Move>) {
        out.clear();
        if seat != self.board.turn().index() {
            return;
        }
        out.extend(self.status().moves.iter().copied());
    }

    /// The legal captures alone, for quiescence, without listing the quiet moves when
    /// the status is not worked out yet.
    fn legal_captures(&self, seat: Seat, out: &mut Vec<Move>) -> bool {
        out.clear();
        if seat != self.board.turn().index() {
            return true;
        }
        let b = &self.board;
        if let Some(st) = self.status.get() {
            out.extend(st.moves.iter().copied().filter(|&m| b.victim(m).is_some()));
        } else if self.draw_reason().is_none() {
            self.each_legal(
                |m| b.victim(m).is_some(),
                |m| {
                    out.push(m);
                    true
                },
            );
        }
        true
    }

    fn apply(&mut self, mv: Move) {
        let (after, _) = self.mirrors_for(mv);
        self.keys.push(self.state_key());
        self.mirrors.push(self.mirror);
        if self.board.captured_piece(mv).is_some() {
            self.captures[self.board.turn().index()] += 1;
        }
        self.board.make(mv);
        self.mirror = after;
        self.stale();
    }

    fn undo(&mut self) {
        self.stale();
        let mv = self.board.last_move().expect("undo without a move");
        self.board.unmake();
        if self.board.captured_piece(mv).is_some() {
            self.captures[self.board.turn().index()] -= 1;
        }
        self.mirror = self.mirrors.pop().expect("undo without a move");
        self.keys.pop();
    }

    /// A pass for the search's null move: the board's null move (en passant forfeited),
    /// the mirror unchanged. A pass is the sound bound it is in orthodox chess: a turn is
    /// one move and nothing falls due between turns. Refused in the game's check (the
    /// king attacked on its own side) and once the game is over
    /// (`null_move_passes_the_turn_and_undoes`).
    fn apply_null(&mut self) -> bool {
        if self.in_check() || self.turn() == Turn::Terminal {
            return false;
        }
        self.keys.push(self.state_key());
        self.mirrors.push(self.mirror);
        self.board.make_null();
        self.stale();
        true
    }

    fn undo_null(&mut self) {
        self.stale();
        self.board.unmake_null();
        self.mirror = self.mirrors.pop().expect("undo_null without a pass");
        self.keys.pop();
    }

    fn result(&self) -> Option<GameResult> {
        let st = self.status();
        let (draw, no_moves) = (st.draw, st.moves.is_empty());
        if let Some(reason) = draw {
            return Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            });
        }
        if no_moves {
            let us = self.board.turn();
            return Some(no_moves_result(us, self.in_check()));
        }
        None
    }

    fn state_key(&self) -> u64 {
        self.board.key() ^ mirror_key(self.mirror)
    }

    fn observation(&self, _seat: Seat) -> String {
        let squares: Vec<String> = self.mirror.map(|s| s.to_string()).collect();
        format!("{} | {}", self.board.fen(), squares.join(" "))
    }

    fn action_notation(&self, mv: Move) -> String {
        self.board.uci(mv)
    }

    fn parse_action(&self, text: &str) -> Result<Move, GameError> {
        self.legal_moves()
            .iter()
            .copied()
            .find(|&m| self.board.uci(m) == text)
            .ok_or_else(|| GameError::Action {
                action: text.into(),
                message: "not a legal Half Alice move here (UCI expected)".into(),
            })
    }

    fn history_len(&self) -> usize {
        self.mirrors.len()
    }

    /// Material plus [`HalfAlice::mirror_pressure`] of `seat` minus the opponent's.
    fn material(&self, seat: Seat) -> f64 {
        let us = Color::from_index(seat);
        material_balance(&self.board, us) + self.mirror_pressure(us)
            - self.mirror_pressure(us.other())
    }

    /// The move a move action plays (agents read it instead of playing the action).
    fn action_move(&self, action: Move) -> Option<Move> {
        Some(action)
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The piece differences, then `on_mirror`: White's pieces other than the king on
    /// the mirror side minus Black's. The plain side's count is not a second feature: it
    /// is the piece total minus this one, so it would only repeat the piece counts (and
    /// make the fit singular without a penalty). The king is left out because where it
    /// stands is a matter of safety, not of material (`features_count_pieces_on_the_mirror`).
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = crate::game::material_features(&self.board);
        let kings = self.board.by_role(Role::King);
        let on = |c: Color| ((self.board.by_color(c) & self.mirror) - kings).count() as f64;
        f.push(("on_mirror".to_string(), on(Color::White) - on(Color::Black)));
        f
    }

    /// Captures made so far: `captures`, `white_captures`, `black_captures` (captures
    /// happen only between pieces on the same side of the mirror, so fewer than in
    /// orthodox chess; these show how many).
    fn tallies(&self) -> Vec<(String, f64)> {
        vec![
            (
                "captures".to_string(),
                (self.captures[0] + self.captures[1]) as f64,
            ),
            ("white_captures".to_string(), self.captures[0] as f64),
            ("black_captures".to_string(), self.captures[1] as f64),
        ]
    }
}

/// Pawns credited per piece (pawn, knight, bishop, rook, queen) that stands on the same
/// side of the mirror as the enemy king (see [`HalfAlice::mirror_pressure`]).
pub const MIRROR_PRESSURE: [f64; 5] = [0.05, 0.15, 0.15, 0.2, 0.35];

impl HalfAlice {
    /// The evaluation term for which side of the mirror `by`'s pieces stand on: each
    /// piece on the enemy king's side counts [`MIRROR_PRESSURE`] of its role. Only
    /// pieces on the king's side can attack it, guard its squares before it switches
    /// (it may not escape a check by switching) or take the pieces shielding it there;
    /// a king with no enemy pieces on its side cannot be in check at all. Plain
    /// material misses this, since half the enemy army may stand where it cannot touch
    /// the king. At the start every piece is on the plain side and the terms cancel.
    pub fn mirror_pressure(&self, by: Color) -> f64 {
        let Some(k) = self.board.king(by.other()) else {
            return 0.0;
        };
        let side = if self.mirror.contains(k) {
            self.mirror
        } else {
            !self.mirror
        };
        [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .iter()
        .zip(MIRROR_PRESSURE)
        .map(|(&r, v)| (self.board.pieces(by, r) & side).count() as f64 * v)
        .sum()
    }
}

impl HalfAlice {
    /// A draw that ends the game before move generation is needed.
    fn draw_reason(&self) -> Option<&'static str> {
        common_draw(
            &self.board,
            self.mirrors.len(),
            self.params.ply_cap,
            false,
            self.state_key(),
            self.keys.iter().copied(),
        )
    }
}

#[cfg(test)]
mod tests;

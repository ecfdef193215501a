//! Synchronous Chess (chess-kit seed; RULES.md "Synchronous Chess"): both sides choose a
//! move at the same time, the two moves are resolved together, then an exchange of
//! blows may follow on the squares the moved pieces reached.
//!
//! The position is one orthodox placement kept in two [`Board`]s, one with each side to
//! move, so that orthodox move generation answers "legal as if that side were to move"
//! for either seat without copying anything. Resolution edits both boards square by
//! square and logs each edit, so `undo` replays the log backwards (no replay from the
//! start).
//!
//! # Rules implemented (tests in `tests`)
//! - Moves legal as if each side were to move (`rule_moves_are_legal_as_if_each_side_were_to_move`);
//!   a side whose king is attacked may only move the king to a square not attacked before
//!   the move: no blocks, no capture of the attacker by another piece, no castling
//!   (`rule_king_under_attack_may_only_move_the_king`,
//!   `rule_king_may_not_move_to_a_square_attacked_before_the_move`).
//! - Resolution: a capture takes the target if it stayed (`rule_capture_when_the_target_stayed`);
//!   no capture if it moved, so pieces swap (`rule_capture_of_a_moving_piece_swaps`) or
//!   pass through each other (`rule_pieces_pass_through_each_other`); both moves ending
//!   on the same empty square lose both pieces (`rule_both_pieces_captured_on_the_same_empty_square`);
//!   a king and any piece on one square are both captured and the king's side loses
//!   (`rule_king_and_piece_on_one_square_are_both_captured`).
//! - Exchange of blows on a square a moved piece reached when an enemy piece attacked it
//!   before the move and still attacks it (`rule_exchange_of_blows_opens_when_the_attacker_still_attacks`,
//!   `rule_no_exchange_when_the_attacker_no_longer_attacks`): the other side may capture,
//!   then the sides alternate (`rule_exchange_alternates_until_a_pass`), each piece
//!   captures at most once (`rule_each_piece_captures_once_in_an_exchange`), a pass ends
//!   it, and both sides decide at once when both may capture
//!   (`rule_exchange_is_simultaneous_when_both_sides_may_capture`). A piece that made an
//!   exchange capture stays spent for the rest of the exchange even if its capture took
//!   nothing, whatever squares the two sides' captures share (one lands where the other
//!   starts, or they swap): the mark follows the piece
//!   (`rule_spent_piece_stays_spent_whatever_squares_the_captures_share`).
//! - No en passant (`rule_no_en_passant`).
//! - Checkmate: a king attacked with no safe square loses (`rule_checkmate`); both kings
//!   lost at once is a draw (`rule_both_kings_lost_at_once_is_a_draw`,
//!   `rule_both_kings_checkmated_at_once_is_a_draw`).
//! - Repetition and fifty-move draws (`rule_repetition_is_a_draw`,
//!   `rule_fifty_turns_without_capture_or_pawn_move_is_a_draw`), the ply cap
//!   (`rule_ply_cap_counts_turns`), insufficient material: only K v K and K+minor v K
//!   (common rules, `rule_insufficient_material_is_a_draw`); two bishops on one colour
//!   or any other two minors play on, since without a check rule they can still win
//!   (`rule_insufficient_material_is_only_bare_kings_or_one_minor`).
//!
//! # Decisions where the texts are silent (RULES.md, plus the ones marked *here*)
//! - A move aimed at an attacked king's square is offered and lands on the empty square
//!   the king left (`rule_move_aimed_at_the_king_lands_on_the_empty_square`).
//! - "Still attacked by the same piece" means that piece wherever it stands now
//!   (`rule_attacker_that_moved_still_counts`).
//! - The first capture of an exchange may be made by any piece that can legally capture
//!   there (`rule_first_exchange_capture_by_any_legal_piece`); exchange captures are
//!   legal as in orthodox chess except that taking a king is always legal
//!   (`rule_exchange_may_take_a_king`).
//! - Two exchanges after one turn run in lockstep: at each step the side to capture on
//!   each square decides, simultaneously when both do; a pass ends that square's
//!   exchange only; "each piece at most once" spans both squares
//!   (`rule_exchange_is_simultaneous_when_both_sides_may_capture`). *Here:* simultaneous
//!   exchange captures are resolved like simultaneous moves (a capture aimed at a piece
//!   that left the square takes nothing), and after every step each square's exchange
//!   goes on while the opponent of the piece now standing there has a legal capture.
//! - A side with no legal move that is not in check draws (stalemate,
//!   `rule_stalemate_is_a_draw`); if one side is checkmated while the other is
//!   stalemated, the checkmate wins (*here*).
//! - The ply cap, the 50-move rule (50 turns) and repetition (placement and castling
//!   rights at turn starts) count simultaneous turns; exchange steps are not turns.
//! - A capture aimed at a castling rook's square takes nothing
//!   (`rule_capture_aimed_at_a_castling_rook_takes_nothing`). *Here:* castling moves two
//!   pieces, so its king and rook squares both count for collisions, and the square the
//!   rook reaches is the one examined for an exchange of blows (the king's never
//!   qualifies: it was not attacked before the move).
//! - The insufficient-material draw of the common rules applies in its bare form
//!   ([`Board::is_bare_material`]).
//!
//! Notation: each seat's move in UCI (`e1g1` for castling), joint moves joined by `|`
//! (`e2e4|e7e5`), exchange captures in UCI, `pass` for the seed's X.
//!
//! Tallies (`Game::tallies`): `swaps` (turns where the two moves exchange squares),
//! `dodged_captures` (captures that took nothing because the target moved),
//! `mutual_destructions` (both pieces lost on one square), `king_collisions` (kings lost
//! that way), `exchanges_offered`, `exchanges` (exchanges with at least one capture),
//! `exchange_captures` (their total length) and `exchange_longest`
//! (`tallies_count_swaps_collisions_and_exchanges`).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    two_seat_returns, validate_ply_cap, Dynamics, Game, GameError, GameFacts, GameResult,
    InvalidParams, Seat, Turn, VariantParams,
};
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::{Color, Piece, Role, Square};
use crate::variants::chess::material_balance;
use crate::zobrist;
use serde::{Deserialize, Serialize};

/// Tunable numbers of Synchronous Chess (the seed gives none; these are RULES.md's).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct SynchronousParams {
    /// Simultaneous turns after which the game is a draw recorded as `cap`.
    pub ply_cap: u32,
    /// Turns without a capture or pawn move that draw the game.
    pub fifty_move_turns: u32,
    /// How many times a turn-start position must occur to draw.
    pub repetitions: u32,
}

impl Default for SynchronousParams {
    fn default() -> Self {
        SynchronousParams {
            ply_cap: 400,
            fifty_move_turns: 50,
            repetitions: 3,
        }
    }
}

/// What each of [`SynchronousParams`]'s keys is (printed by `chesslab params`).
pub const SYNCHRONOUS_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "simultaneous turns after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "fifty_move_turns",
        "turns without a capture or pawn move that draw the game",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "repetitions",
        "how many times a turn-start position must occur to draw",
        "2 to 10",
    ),
];

impl VariantParams for SynchronousParams {
    const DOCS: &'static [crate::game::ParamDoc] = SYNCHRONOUS_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        if self.fifty_move_turns == 0 {
            return Err(InvalidParams::new("fifty_move_turns", "must be at least 1"));
        }
        if !(2..=10).contains(&self.repetitions) {
            return Err(InvalidParams::new(
                "repetitions",
                format!("{} is not in 2..=10", self.repetitions),
            ));
        }
        Ok(())
    }
}

/// The seed's X: declining to capture in an exchange of blows.
pub const PASS: Move = Move::NULL;

/// One square's exchange of blows: who captures there next and how many captures it
/// has seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Exchange {
    square: Square,
    side: Color,
    captures: u32,
}

/// Per-game figures for balance reports (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Tallies {
    swaps: u32,
    dodged: u32,
    mutual: u32,
    king_collisions: u32,
    offered: u32,
    exchanges: u32,
    exchange_captures: u32,
    longest: u32,
}

/// What `undo` needs besides the logged square edits.
#[derive(Clone, Copy, Debug)]
struct Record {
    diff_start: u32,
    castling: Bitboard,
    exchanges: [Option<Exchange>; 2],
    used: Bitboard,
    quiet: u32,
    turns: u32,
    tallies: Tallies,
    result: Option<GameResult>,
    pushed_key: bool,
}

/// Which of the moves' captures took a piece, and what else resolution found.
#[derive(Clone, Copy, Default)]
struct Resolved {
    took: [bool; 2],
    captured_any: bool,
    pawn_moved: bool,
}

/// A game of Synchronous Chess.
#[derive(Clone, Debug)]
pub struct Synchronous {
    /// The same placement with white (index 0) and black (index 1) to move.
    boards: [Board; 2],
    params: SynchronousParams,
    /// Open exchanges of blows (the first slot is filled first); none at a turn start.
    exchanges: [Option<Exchange>; 2],
    /// Squares holding a piece that already captured in the current exchange.
    used: Bitboard,
    /// Turns since the last capture or pawn move.
    quiet: u32,
    /// Simultaneous turns played.
    turns: u32,
    tallies: Tallies,
    result: Option<GameResult>,
    /// Placement-and-castling key at each turn start, the current one last.
    turn_keys: Vec<u64>,
    /// Square edits, oldest first: (square, piece before the edit).
    diffs: Vec<(Square, Option<Piece>)>,
    records: Vec<Record>,
    /// Legal turn moves of each side, computed when a turn starts (`fresh`).
    moves: Moves,
    fresh: bool,
}

/// The cached turn moves of both sides (a wrapper for `Debug`).
#[derive(Clone, Default)]
struct Moves([MoveList; 2]);

impl std::fmt::Debug for Moves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Moves({}, {})", self.0[0].len(), self.0[1].len())
    }
}

impl Synchronous {
    fn from_board(board: Board, params: &SynchronousParams) -> Synchronous {
        let castling = board.castling_rights();
        let mut white = board;
        white.clear_history();
        white.set_state(Color::White, castling, None, 0, 1);
        let mut black = white.clone();
        black.set_state(Color::Black, castling, None, 0, 1);
        let mut g = Synchronous {
            boards: [white, black],
            params: params.clone(),
            exchanges: [None, None],
            used: Bitboard::EMPTY,
            quiet: 0,
            turns: 0,
            tallies: Tallies::default(),
            result: None,
            turn_keys: Vec::with_capacity(256),
            diffs: Vec::with_capacity(512),
            records: Vec::with_capacity(256),
            moves: Moves::default(),
            fresh: false,
        };
        g.turn_keys.push(g.boards[0].key());
        g.result = g.kings_result().or_else(|| g.turn_start_result());
        g
    }

    /// The position as an orthodox board (white to move; the side field means nothing).
    pub fn board_ref(&self) -> &Board {
        &self.boards[0]
    }

    fn in_exchange(&self) -> bool {
        self.exchanges[0].is_some()
    }

    /// The exchanges whose side decides at this node: both when their sides differ,
    /// otherwise the first.
    fn acting(&self) -> [Option<Exchange>; 2] {
        match self.exchanges {
            [Some(a), Some(b)] if a.side != b.side => [Some(a), Some(b)],
            [a, _] => [a, None],
        }
    }

    /// `c`'s legal turn moves: orthodox moves, only king moves (no castling) when its
    /// king is attacked. En passant never arises: the boards never hold an en passant
    /// square.
    fn turn_moves(&self, c: Color, out: &mut MoveList) {
        out.clear();
        let b = &self.boards[c.index()];
        b.generate(out);
        if let Some(k) = b.king(c) {
            if b.in_check() {
                let all = out.clone();
                out.clear();
                for &m in all.iter() {
                    if m.from() == k && !m.is_castle() {
                        out.push(m);
                    }
                }
            }
        }
    }

    /// `c`'s legal captures on `d` in an exchange: orthodox captures by pieces that
    /// have not captured yet in this exchange, plus any capture of a king there.
    fn captures(&self, c: Color, d: Square, out: &mut Vec<Move>) {
        let b = &self.boards[c.index()];
        if !b.by_color(c.other()).contains(d) {
            return;
        }
        let mut list = MoveList::new();
        b.generate(&mut list);
        for &m in list.iter() {
            if m.to() == d && !m.is_castle() && !self.used.contains(m.from()) {
                out.push(m);
            }
        }
        if b.piece_at(d).map(|p| p.role) == Some(Role::King) {
            let last = Bitboard::relative_rank(c, 7);
            for from in b.attackers_to(d, c, b.occupied()) - self.used {
                let pawn = b.piece_at(from).map(|p| p.role) == Some(Role::Pawn);
                let candidates: Vec<Move> = if pawn && last.contains(d) {
                    Role::PROMOTIONS
                        .iter()
                        .map(|&r| Move::new(from, d, MoveKind::Promotion(r)))
                        .collect()
                } else {
                    vec![Move::normal(from, d)]
                };
                for m in candidates {
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
    }

    fn has_capture(&self, c: Color, d: Square) -> bool {
        let mut v = Vec::new();
        self.captures(c, d, &mut v);
        !v.is_empty()
    }

    /// Sets a square on both boards, logging the old piece for `undo`.
    fn set(&mut self, sq: Square, p: Option<Piece>) {
        let old = self.boards[0].piece_at(sq);
        if old == p {
            return;
        }
        self.diffs.push((sq, old));
        for b in &mut self.boards {
            b.set_piece(sq, p);
        }
    }

    fn set_castling(&mut self, castling: Bitboard) {
        if self.boards[0].castling_rights() == castling {
            return;
        }
        for (i, b) in self.boards.iter_mut().enumerate() {
            b.set_state(Color::from_index(i), castling, None, 0, 1);
        }
    }

    /// Resolves up to two moves made at once (a turn, or one exchange step); `PASS`
    /// parts move nothing.
    fn resolve(&mut self, acts: &[(Color, Move)]) -> Resolved {
        let mut out = Resolved::default();
        let board = &self.boards[0];
        let mut vacated = Bitboard::EMPTY;
        // (mover index, piece, destination); castling gives two.
        let mut arrivals: [(usize, Piece, Square); 4] =
            [(0, Piece::new(Color::White, Role::Pawn), Square::A1); 4];
        let mut n = 0;
        let mut king_moved = [false; 2];
        for (i, &(c, m)) in acts.iter().enumerate() {
            if m == PASS {
                continue;
            }
            let Some(piece) = board.piece_at(m.from()) else {
                debug_assert!(false, "no piece on the from-square of {m:?}");
                continue;
            };
            out.pawn_moved |= piece.role == Role::Pawn;
            king_moved[c.index()] |= piece.role == Role::King;
            vacated.set(m.from());
            if m.is_castle() {
                let (kd, rd) = Board::castle_targets(c, m.from(), m.to());
                vacated.set(m.to());
                arrivals[n] = (i, piece, kd);
                arrivals[n + 1] = (i, Piece::new(c, Role::Rook), rd);
                n += 2;
            } else {
                let p = m.promotion().map_or(piece, |r| Piece::new(c, r));
                arrivals[n] = (i, p, m.to());
                n += 1;
            }
        }
        if let [(cw, mw), (cb, mb)] = acts {
            if cw != cb
                && *mw != PASS
                && *mb != PASS
                && !mw.is_castle()
                && !mb.is_castle()
                && mw.from() == mb.to()
                && mb.from() == mw.to()
            {
                self.tallies.swaps += 1;
            }
        }
        let mut collided = [false; 4];
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (arrivals[i], arrivals[j]);
                if a.2 == b.2 && a.1.color != b.1.color {
                    collided[i] = true;
                    collided[j] = true;
                    self.tallies.mutual += 1;
                    self.tallies.king_collisions +=
                        (a.1.role == Role::King) as u32 + (b.1.role == Role::King) as u32;
                }
            }
        }
        for i in 0..n {
            let (mover, piece, to) = arrivals[i];
            if collided[i] {
                out.captured_any = true;
                continue;
            }
            if let Some(t) = board.piece_at(to) {
                if t.color != piece.color {
                    if vacated.contains(to) {
                        self.tallies.dodged += 1;
                    } else {
                        out.took[mover] = true;
                        out.captured_any = true;
                    }
                }
            }
        }
        let mut castling = board.castling_rights();
        for sq in vacated {
            self.set(sq, None);
            castling.clear(sq);
        }
        for i in 0..n {
            let (_, piece, to) = arrivals[i];
            castling.clear(to);
            self.set(to, (!collided[i]).then_some(piece));
        }
        for c in Color::BOTH {
            if king_moved[c.index()] {
                castling -= Bitboard::relative_rank(c, 0);
            }
        }
        self.set_castling(castling);
        out
    }

    /// Win for the side that still has its king, draw when both are gone.
    fn kings_result(&self) -> Option<GameResult> {
        let b = &self.boards[0];
        match (
            b.king(Color::White).is_some(),
            b.king(Color::Black).is_some(),
        ) {
            (true, true) => None,
            (false, false) => Some(GameResult {
                returns: two_seat_returns(None),
                reason: "both-kings-lost",
            }),
            (w, _) => Some(GameResult {
                returns: two_seat_returns(Some(if w { 0 } else { 1 })),
                reason: "king-captured",
            }),
        }
    }

    /// The result at a turn start (checkmates, stalemate, draws); fills the move cache.
    fn turn_start_result(&mut self) -> Option<GameResult> {
        let mut moves = std::mem::take(&mut self.moves);
        let mut mated = [false; 2];
        let mut stuck = false;
        for c in Color::BOTH {
            self.turn_moves(c, &mut moves.0[c.index()]);
            if moves.0[c.index()].is_empty() {
                if self.boards[c.index()].in_check() {
                    mated[c.index()] = true;
                } else {
                    stuck = true;
                }
            }
        }
        self.moves = moves;
        self.fresh = true;
        let draw = |reason| {
            Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            })
        };
        match mated {
            [true, true] => return draw("double-checkmate"),
            [true, false] | [false, true] => {
                return Some(GameResult {
                    returns: two_seat_returns(Some(if mated[0] { 1 } else { 0 })),
                    reason: "checkmate",
                })
            }
            _ => {}
        }
        if stuck {
            return draw("stalemate");
        }
        if self.turns >= self.params.ply_cap {
            return draw("cap");
        }
        if self.boards[0].is_bare_material() {
            return draw("insufficient-material");
        }
        if self.quiet >= self.params.fifty_move_turns {
            return draw("fifty-moves");
        }
        let key = self.boards[0].key();
        let window = (self.quiet as usize).min(self.turn_keys.len() - 1);
        let earlier = self.turn_keys[self.turn_keys.len() - 1 - window..self.turn_keys.len() - 1]
            .iter()
            .filter(|&&k| k == key)
            .count();
        if earlier + 1 >= self.params.repetitions as usize {
            return draw("repetition");
        }
        None
    }

    fn push_record(&mut self) {
        self.records.push(Record {
            diff_start: self.diffs.len() as u32,
            castling: self.boards[0].castling_rights(),
            exchanges: self.exchanges,
            used: self.used,
            quiet: self.quiet,
            turns: self.turns,
            tallies: self.tallies,
            result: self.result,
            pushed_key: false,
        });
        self.fresh = false;
    }

    fn close(&mut self, x: Exchange) {
        if x.captures > 0 {
            self.tallies.exchanges += 1;
            self.tallies.exchange_captures += x.captures;
            self.tallies.longest = self.tallies.longest.max(x.captures);
        }
    }

    /// After a position change: the game end by lost kings, else the next turn if no
    /// exchange is open.
    fn settle(&mut self) {
        if let Some(r) = self.kings_result() {
            self.result = Some(r);
            return;
        }
        if !self.in_exchange() {
            self.used = Bitboard::EMPTY;
            self.turn_keys.push(self.boards[0].key());
            self.records.last_mut().expect("a record").pushed_key = true;
            self.result = self.turn_start_result();
        }
    }

    fn play_turn(&mut self, white: Move, black: Move) {
        let before = self.boards[0].clone();
        let occ = before.occupied();
        let acts = [(Color::White, white), (Color::Black, black)];
        // Where each moved piece lands (the rook for castling) and who attacked it then.
        let landing = |c: Color, m: Move| {
            if m.is_castle() {
                Board::castle_targets(c, m.from(), m.to()).1
            } else {
                m.to()
            }
        };
        let watch: [(Square, Bitboard); 2] = [0, 1].map(|i| {
            let (c, m) = acts[i];
            let l = landing(c, m);
            (l, before.attackers_to(l, c.other(), occ))
        });
        self.turns += 1;
        let r = self.resolve(&acts);
        self.quiet = if r.captured_any || r.pawn_moved {
            0
        } else {
            self.quiet + 1
        };
        // Where an enemy piece that stood on `x` stands now.
        let now_at = |c: Color, x: Square| -> Square {
            let (_, m) = acts[c.other().index()];
            if m.is_castle() {
                let (kd, rd) = Board::castle_targets(c.other(), m.from(), m.to());
                if x == m.from() {
                    return kd;
                }
                if x == m.to() {
                    return rd;
                }
            } else if x == m.from() {
                return m.to();
            }
            x
        };
        let mut slot = 0;
        for (i, &(l, attackers)) in watch.iter().enumerate() {
            let c = Color::from_index(i);
            let b = &self.boards[0];
            if b.piece_at(l).map(|p| p.color) != Some(c) {
                continue;
            }
            let still = attackers.any_square(|x| {
                let at = now_at(c, x);
                let same = before.piece_at(x).map(|p| p.color) == b.piece_at(at).map(|p| p.color);
                same && b.piece_at(at).is_some_and(|p| {
                    attacks::attacks(p.role, p.color, at, b.occupied()).contains(l)
                })
            });
            if still && self.has_capture(c.other(), l) {
                self.tallies.offered += 1;
                self.exchanges[slot] = Some(Exchange {
                    square: l,
                    side: c.other(),
                    captures: 0,
                });
                slot += 1;
            }
        }
        self.settle();
    }

    /// One exchange step: each acting exchange's side captures or passes.
    fn play_exchange(&mut self, parts: &[(Color, Move)]) {
        let r = self.resolve(parts);
        if r.captured_any {
            self.quiet = 0;
        }
        // The marks follow the pieces: every capturing piece is spent where it stands
        // now, and a mark leaves a square only with its piece. Lifting all from-squares
        // before marking all to-squares keeps a mark when one side's capture lands where
        // the other side's capture started (or the two swap); a square left empty (both
        // pieces lost there) keeps no mark.
        let mut froms = Bitboard::EMPTY;
        let mut tos = Bitboard::EMPTY;
        for &(_, m) in parts.iter().filter(|&&(_, m)| m != PASS) {
            froms.set(m.from());
            tos.set(m.to());
        }
        self.used = ((self.used - froms) | tos) & self.boards[0].occupied();
        let mut open: [Option<Exchange>; 2] = self.exchanges;
        for (i, &(c, m)) in parts.iter().enumerate() {
            let Some(k) = open.iter().position(|x| x.is_some_and(|x| x.side == c)) else {
                continue;
            };
            let mut x = open[k].expect("open exchange");
            if m == PASS {
                self.close(x);
                open[k] = None;
                continue;
            }
            x.captures += r.took[i] as u32;
            open[k] = Some(x);
        }
        // Every square whose exchange is still open goes on while the opponent of the
        // piece now standing there can capture it.
        let mut next = [None, None];
        let mut n = 0;
        for x in open.into_iter().flatten() {
            match self.boards[0].piece_at(x.square) {
                Some(p) if self.has_capture(p.color.other(), x.square) => {
                    next[n] = Some(Exchange {
                        side: p.color.other(),
                        ..x
                    });
                    n += 1;
                }
                _ => self.close(x),
            }
        }
        self.exchanges = next;
        self.settle();
    }

    fn mover_color(&self, m: Move) -> Color {
        self.boards[0]
            .piece_at(m.from())
            .map_or(Color::White, |p| p.color)
    }

    fn action_error(text: &str, message: impl Into<String>) -> GameError {
        GameError::Action {
            action: text.into(),
            message: message.into(),
        }
    }
}

impl Game for Synchronous {
    type Action = Move;
    type Params = SynchronousParams;

    fn facts(&self) -> GameFacts {
        GameFacts {
            dynamics: Dynamics::Simultaneous,
            eval: "synchronous",
            ..GameFacts::TWO_SEAT_CLASSIC
        }
    }

    fn new(params: &SynchronousParams) -> Synchronous {
        Synchronous::from_board(Board::startpos(), params)
    }

    fn from_opening(params: &SynchronousParams, opening: &str) -> Result<Synchronous, GameError> {
        let board = Board::from_fen_king_en_prise(opening)
            .map_err(|e| GameError::opening_fen(opening, e))?;
        Ok(Synchronous::from_board(board, params))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.result.is_some() {
            return Turn::Terminal;
        }
        match self.acting() {
            [Some(_), Some(_)] => Turn::Simultaneous,
            [Some(x), None] => Turn::Seat(x.side.index()),
            _ => Turn::Simultaneous,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_some() || seat > 1 {
            return;
        }
        let c = Color::from_index(seat);
        if self.in_exchange() {
            for x in self.acting().into_iter().flatten() {
                if x.side == c {
                    self.captures(c, x.square, out);
                    out.push(PASS);
                }
            }
            return;
        }
        if self.fresh {
            out.extend(self.moves.0[seat].iter().copied());
        } else {
            let mut list = MoveList::new();
            self.turn_moves(c, &mut list);
            out.extend(list.iter().copied());
        }
    }

    fn apply(&mut self, action: Move) {
        let [Some(x), None] = self.acting() else {
            panic!("Synchronous::apply at a simultaneous node: use apply_joint");
        };
        debug_assert!({
            let mut v = Vec::new();
            self.legal_actions(x.side.index(), &mut v);
            v.contains(&action)
        });
        self.push_record();
        self.play_exchange(&[(x.side, action)]);
    }

    fn apply_joint(&mut self, actions: &[Move]) {
        assert_eq!(actions.len(), 2, "Synchronous joint actions have two parts");
        debug_assert!((0..2).all(|s| {
            let mut v = Vec::new();
            self.legal_actions(s, &mut v);
            v.contains(&actions[s])
        }));
        self.push_record();
        if self.in_exchange() {
            self.play_exchange(&[(Color::White, actions[0]), (Color::Black, actions[1])]);
        } else {
            self.play_turn(actions[0], actions[1]);
        }
    }

    fn undo(&mut self) {
        let Some(r) = self.records.pop() else {
            return;
        };
        while self.diffs.len() > r.diff_start as usize {
            let (sq, p) = self.diffs.pop().expect("logged edit");
            for b in &mut self.boards {
                b.set_piece(sq, p);
            }
        }
        self.set_castling(r.castling);
        if r.pushed_key {
            self.turn_keys.pop();
        }
        self.exchanges = r.exchanges;
        self.used = r.used;
        self.quiet = r.quiet;
        self.turns = r.turns;
        self.tallies = r.tallies;
        self.result = r.result;
        self.fresh = false;
    }

    fn result(&self) -> Option<GameResult> {
        self.result
    }

    fn state_key(&self) -> u64 {
        let mut k = self.boards[0].key();
        for (i, x) in self.exchanges.iter().enumerate() {
            if let Some(x) = x {
                k ^= zobrist::extra(
                    0x5_0000
                        + (i as u64) * 128
                        + x.square.index() as u64 * 2
                        + x.side.index() as u64,
                );
            }
        }
        k ^ self.used.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn observation(&self, _seat: Seat) -> String {
        let fen = self.boards[0].fen();
        let placement = fen.split(' ').next().unwrap_or_default();
        let castling = fen.split(' ').nth(2).unwrap_or("-");
        let mut s = format!("{placement} {castling} turn {}", self.turns + 1);
        for x in self.exchanges.iter().flatten() {
            s.push_str(&format!(" exchange {} {}", x.square, x.side.name()));
        }
        s
    }

    fn action_notation(&self, action: Move) -> String {
        if action == PASS {
            return "pass".into();
        }
        self.boards[self.mover_color(action).index()].uci(action)
    }

    fn parse_action(&self, text: &str) -> Result<Move, GameError> {
        if self.result.is_some() {
            return Err(Self::action_error(text, "the game is already over"));
        }
        let mut legal = Vec::new();
        for seat in 0..2 {
            self.legal_actions(seat, &mut legal);
            if let Some(&a) = legal.iter().find(|&&a| self.action_notation(a) == text) {
                return Ok(a);
            }
        }
        Err(if self.in_exchange() {
            let squares: Vec<String> = self
                .acting()
                .iter()
                .flatten()
                .map(|x| format!("{} ({} to capture)", x.square, x.side.name()))
                .collect();
            Self::action_error(
                text,
                format!(
                    "not a legal capture or 'pass' in the exchange of blows on {}",
                    squares.join(", ")
                ),
            )
        } else if text == "pass" {
            Self::action_error(text, "'pass' is only possible in an exchange of blows")
        } else {
            Self::action_error(text, "not a legal UCI move for either side here")
        })
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.boards[0], Color::from_index(seat))
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.boards[0])
    }

    fn tallies(&self) -> Vec<(String, f64)> {
        let mut t = self.tallies;
        for x in self.exchanges.iter().flatten() {
            if x.captures > 0 {
                t.exchanges += 1;
                t.exchange_captures += x.captures;
                t.longest = t.longest.max(x.captures);
            }
        }
        [
            ("swaps", t.swaps),
            ("dodged_captures", t.dodged),
            ("mutual_destructions", t.mutual),
            ("king_collisions", t.king_collisions),
            ("exchanges_offered", t.offered),
            ("exchanges", t.exchanges),
            ("exchange_captures", t.exchange_captures),
            ("exchange_longest", t.longest),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v as f64))
        .collect()
    }
}

#[cfg(test)]
mod tests;

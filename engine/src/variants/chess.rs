//! Orthodox chess and Chess960 as a [`Game`]: the engine's `Board` with the common rules
//! of RULES.md (FIDE draws, a ply cap recorded as `cap`).
//!
//! Chess960 (docs/RULES.md "Chess960"): with `chess960 = true` and no fixed `position`, the
//! game starts at a chance node over the 960 Scharnagl positions (uniform); a fixed
//! `position` (0..959) skips it. Castling follows the Chess960 rules in `movegen`.

use crate::board::{Board, Outcome, Termination};
use crate::chess960;
use crate::game::{
    two_seat_returns, validate_ply_cap, Game, GameError, GameFacts, GameResult, InvalidParams,
    Seat, Turn, VariantParams,
};
use crate::movegen::{KingSafety, VecSink};
use crate::moves::Move;
use crate::square::{Color, Role};
use crate::variants::outcome_result;
use serde::{Deserialize, Serialize};

/// Tunable numbers of orthodox chess and Chess960.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ChessParams {
    /// Plies after which the game is a draw recorded as `cap`.
    pub ply_cap: u32,
    /// Chess960 start positions.
    pub chess960: bool,
    /// Fixed Scharnagl number (0..959); `None` = drawn at random by a chance node.
    pub position: Option<u16>,
}

impl Default for ChessParams {
    fn default() -> Self {
        ChessParams {
            ply_cap: 400,
            chess960: false,
            position: None,
        }
    }
}

impl ChessParams {
    /// Chess960 with a random start (the `chess960` registry entry).
    pub fn chess960() -> Self {
        ChessParams {
            chess960: true,
            ..Default::default()
        }
    }
}

/// An action: a move, or the chance outcome that picks a Chess960 start.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ChessAction {
    Move(Move),
    Start(u16),
}

/// A game of chess or Chess960.
#[derive(Clone, Debug)]
pub struct Chess {
    board: Board,
    ply_cap: u32,
    /// Waiting for the chance node that picks the start position.
    awaiting_start: bool,
    /// The game began with that chance node (a fact of the game, kept after it).
    random_start: bool,
    /// Actions applied (chance included), for undo and history length.
    applied: u32,
    status: Status,
}

/// Whether the side to move has a move, and the automatic draw, of the current
/// position. Every caller of `apply` asks `turn` or `result` next, and each needs both,
/// so `apply` works them out once, in place; the list of moves is generated only when
/// asked for (`legal_actions`), since a search returns from most nodes (a cut-off by the
/// table, a standing pat) without it, and "has a move" stops at the first one found.
/// `undo` only marks the status stale: search undoes a move and applies the next one
/// without asking, and a stale status is worked out on demand.
///
/// The king's checkers and pins, which "has a move" needs first, are kept for the
/// generator, so a caller that lists the moves after all (a playout) pays for them once.
#[derive(Clone, Debug)]
struct Status {
    safety: Option<KingSafety>,
    has_moves: bool,
    draw: Option<Termination>,
    fresh: bool,
}

impl Status {
    fn stale() -> Status {
        Status {
            safety: None,
            has_moves: false,
            draw: None,
            fresh: false,
        }
    }
}

impl Chess {
    /// Material values used for `material` (pawn 1, knight/bishop 3, rook 5, queen 9).
    pub const VALUES: [f64; 6] = [1.0, 3.0, 3.0, 5.0, 9.0, 0.0];

    pub fn from_board(board: Board, ply_cap: u32) -> Chess {
        Chess {
            board,
            ply_cap,
            awaiting_start: false,
            random_start: false,
            applied: 0,
            status: Status::stale(),
        }
        .refreshed()
    }

    fn refreshed(mut self) -> Chess {
        self.refresh();
        self
    }

    fn refresh(&mut self) {
        let safety = self.board.king_safety();
        self.status = Status {
            safety,
            has_moves: self.board.has_legal_moves_with(safety),
            draw: self.board.automatic_draw(),
            fresh: true,
        };
    }

    /// Whether the side to move has a legal move, and the automatic draw.
    #[inline]
    fn status(&self) -> (bool, Option<Termination>) {
        if self.status.fresh {
            (self.status.has_moves, self.status.draw)
        } else {
            (self.board.has_legal_moves(), self.board.automatic_draw())
        }
    }

    /// The king's checkers and pins (what the generator needs first).
    #[inline]
    fn safety(&self) -> Option<KingSafety> {
        if self.status.fresh {
            self.status.safety
        } else {
            self.board.king_safety()
        }
    }

    /// The automatic draw alone (what `legal_actions` needs).
    #[inline]
    fn draw(&self) -> Option<Termination> {
        if self.status.fresh {
            self.status.draw
        } else {
            self.board.automatic_draw()
        }
    }

    /// The FIDE outcome (as `Board::outcome`), from the cached status.
    fn outcome(&self) -> Option<Outcome> {
        let (has_moves, draw) = self.status();
        if !has_moves {
            let checked = self.board.in_check();
            return Some(Outcome {
                winner: checked.then(|| self.board.turn().other()),
                termination: if checked {
                    Termination::Checkmate
                } else {
                    Termination::Stalemate
                },
            });
        }
        draw.map(|termination| Outcome {
            winner: None,
            termination,
        })
    }

    #[inline]
    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// Whether `seat` has moves to list: the game has started, it is that seat's turn
    /// and the game has not ended by the cap or an automatic draw (no moves at all is
    /// found by the generator itself).
    fn may_move(&self, seat: Seat) -> bool {
        !self.awaiting_start
            && seat == self.board.turn().index()
            && !self.cap_reached()
            && self.draw().is_none()
    }

    /// The legal moves of `seat` (or only its captures) as actions, into `out`.
    fn list_moves(&self, seat: Seat, out: &mut Vec<ChessAction>, captures_only: bool) {
        out.clear();
        if !self.may_move(seat) {
            return;
        }
        let mut sink = VecSink {
            out,
            wrap: ChessAction::Move,
        };
        if captures_only {
            self.board.generate_captures_with(self.safety(), &mut sink);
        } else {
            self.board.generate_with(self.safety(), &mut sink);
        }
    }

    fn cap_reached(&self) -> bool {
        self.board.ply() as u32 >= self.ply_cap
    }
}

/// What each of [`ChessParams`]'s keys is (printed by `chesslab params`).
pub const CHESS_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "plies after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "chess960",
        "start from Chess960 positions (always true for the `chess960` variant)",
        "true or false",
    ),
    crate::game::ParamDoc::new(
        "position",
        "a fixed Chess960 start by Scharnagl number (518 = the orthodox start); unset: a chance node draws one of the 960",
        "0 to 959, or unset",
    ),
];

impl VariantParams for ChessParams {
    const DOCS: &'static [crate::game::ParamDoc] = CHESS_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        if let Some(p) = self.position {
            if p >= 960 {
                return Err(InvalidParams::new(
                    "position",
                    format!("{p} is not a Scharnagl number 0..959"),
                ));
            }
        }
        Ok(())
    }
}

impl Game for Chess {
    type Action = ChessAction;
    type Params = ChessParams;

    fn new(params: &ChessParams) -> Chess {
        let (board, awaiting) = match (params.chess960, params.position) {
            (_, Some(n)) if n < 960 => (chess960::start_position(n), false),
            (true, _) => (Board::startpos(), true),
            _ => (Board::startpos(), false),
        };
        let mut g = Chess::from_board(board, params.ply_cap);
        g.awaiting_start = awaiting;
        g.random_start = awaiting;
        g
    }

    fn from_opening(params: &ChessParams, opening: &str) -> Result<Chess, GameError> {
        let board = if params.chess960 {
            Board::from_fen_960(opening)
        } else {
            Board::from_fen(opening)
        }
        .map_err(|e| GameError::opening_fen(opening, e))?;
        Ok(Chess::from_board(board, params.ply_cap))
    }

    fn facts(&self) -> GameFacts {
        // Orthodox check is the board's (check extensions in alphabeta), a pass is a
        // sound null move (the chance of a random start is at the start only), and
        // every position is orthodox (the fitted evaluation applies).
        GameFacts::TWO_SEAT_CLASSIC
            .with_chance(self.random_start)
            .with_orthodox_search()
            .with_null_move(true)
            .with_orthodox_positions(true)
            .with_eval("orthodox")
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.awaiting_start {
            return Turn::Chance;
        }
        if self.result().is_some() {
            return Turn::Terminal;
        }
        Turn::Seat(self.board.turn().index())
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<ChessAction>) {
        self.list_moves(seat, out, false);
    }

    fn legal_captures(&self, seat: Seat, out: &mut Vec<ChessAction>) -> bool {
        self.list_moves(seat, out, true);
        true
    }

    fn chance_outcomes(&self, out: &mut Vec<(ChessAction, f64)>) {
        out.clear();
        if self.awaiting_start {
            out.extend((0..960).map(|n| (ChessAction::Start(n), 1.0 / 960.0)));
        }
    }

    fn apply(&mut self, action: ChessAction) {
        match action {
            ChessAction::Move(m) => self.board.make(m),
            ChessAction::Start(n) => {
                debug_assert!(self.awaiting_start);
                self.board = chess960::start_position(n);
                self.awaiting_start = false;
            }
        }
        self.applied += 1;
        self.refresh();
    }

    fn undo(&mut self) {
        self.status.fresh = false;
        if self.board.ply() == 0 && self.applied == 1 {
            // Undoing the chance node that chose the start.
            self.board = Board::startpos();
            self.awaiting_start = true;
        } else {
            self.board.unmake();
        }
        self.applied -= 1;
    }

    /// Orthodox chess and Chess960 pass through the board's null move; never in check,
    /// before the start is chosen or once the game is over (the searcher guards against
    /// zugzwang in pawn endings itself).
    fn apply_null(&mut self) -> bool {
        if self.awaiting_start || self.board.in_check() || self.result().is_some() {
            return false;
        }
        self.board.make_null();
        self.refresh();
        true
    }

    fn undo_null(&mut self) {
        self.board.unmake_null();
        self.status.fresh = false;
    }

    fn result(&self) -> Option<GameResult> {
        if self.awaiting_start {
            return None;
        }
        if let Some(o) = self.outcome() {
            return Some(outcome_result(o));
        }
        if self.cap_reached() {
            return Some(GameResult {
                returns: two_seat_returns(None),
                reason: "cap",
            });
        }
        None
    }

    /// Equal for positions in which the same moves are possible (FIDE's test), so an
    /// en passant square no legal capture can use does not count.
    fn state_key(&self) -> u64 {
        self.board.repetition_key()
            ^ (self.awaiting_start as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn observation(&self, _seat: Seat) -> String {
        self.board.fen()
    }

    fn action_notation(&self, action: ChessAction) -> String {
        match action {
            ChessAction::Move(m) => self.board.uci(m),
            ChessAction::Start(n) => format!("start{n}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<ChessAction, GameError> {
        if self.awaiting_start {
            return text
                .strip_prefix("start")
                .and_then(|n| n.parse::<u16>().ok())
                .filter(|&n| n < 960)
                .map(ChessAction::Start)
                .ok_or_else(|| GameError::Action {
                    action: text.into(),
                    message: "expected a start position 'start0'..'start959'".into(),
                });
        }
        self.board
            .parse_move(text)
            .map(ChessAction::Move)
            .map_err(|e| GameError::Action {
                action: text.into(),
                message: e.to_string(),
            })
    }

    fn history_len(&self) -> usize {
        self.applied as usize
    }

    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat))
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    fn action_move(&self, action: ChessAction) -> Option<Move> {
        match action {
            ChessAction::Move(m) => Some(m),
            ChessAction::Start(_) => None,
        }
    }
}

/// Material of `us` minus the opponent's (pawn 1, knight and bishop 3, rook 5, queen 9):
/// the default evaluation of every variant played on an orthodox board.
pub fn material_balance(board: &Board, us: Color) -> f64 {
    let mut score = 0.0;
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        let diff =
            board.pieces(us, role).count() as f64 - board.pieces(us.other(), role).count() as f64;
        score += diff * Chess::VALUES[role.index()];
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::conformance;

    #[test]
    fn chess_conforms_to_the_game_api() {
        conformance::check(&Chess::new(&ChessParams::default()), 40, 1);
    }

    #[test]
    fn null_move_passes_the_turn_and_undoes() {
        let mut g =
            crate::game::replay(Chess::new(&ChessParams::default()), &["e2e4", "e7e5"]).unwrap();
        let key = g.state_key();
        let mut before = Vec::new();
        g.legal_actions(0, &mut before);
        assert!(g.apply_null());
        assert_eq!(g.turn(), Turn::Seat(1));
        assert_ne!(g.state_key(), key);
        let mut black = Vec::new();
        g.legal_actions(1, &mut black);
        assert!(!black.is_empty());
        g.undo_null();
        assert_eq!(g.turn(), Turn::Seat(0));
        assert_eq!(g.state_key(), key);
        let mut after = Vec::new();
        g.legal_actions(0, &mut after);
        assert_eq!(before, after);
        // In check there is no pass: the position would be illegal.
        let mut checked =
            crate::game::replay(Chess::new(&ChessParams::default()), &["e2e4", "d7d5"]).unwrap();
        checked.apply_text("f1b5").unwrap();
        assert!(!checked.apply_null());
        assert_eq!(checked.turn(), Turn::Seat(1));
    }

    #[test]
    fn chess960_conforms_and_starts_with_chance() {
        let g = Chess::new(&ChessParams::chess960());
        assert_eq!(g.turn(), Turn::Chance);
        let mut out = Vec::new();
        g.chance_outcomes(&mut out);
        assert_eq!(out.len(), 960);
        assert!((out.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-9);
        conformance::check(&g, 40, 2);
    }

    #[test]
    fn ply_cap_is_a_draw_recorded_as_cap() {
        let params = ChessParams {
            ply_cap: 4,
            ..Default::default()
        };
        let g =
            crate::game::replay(Chess::new(&params), &["g1f3", "g8f6", "f3g1", "f6g8"]).unwrap();
        let r = g.result().unwrap();
        assert_eq!(r.reason, "cap");
        assert_eq!(r.returns[0], 0.0);
    }

    #[test]
    fn rule_repetition_ignores_an_illegal_en_passant() {
        // Issue 11: after c7c5 the b5 pawn could take en passant on c6, but the h5 rook
        // pins it to the a5 king, so the position after c7c5 is the same as after each
        // knight cycle (same moves possible): threefold after the ninth move, not one
        // cycle later. Cross-checked with python-chess 1.11.2: `push_uci` of these moves
        // from this FEN gives `is_repetition(3)` False after move 8 and True after move 9;
        // its `fen()` prints `-` after c7c5 (default `en_passant="legal"`) and
        // `fen(en_passant="xfen")` prints `c6`, which is what `Board::fen` writes.
        let start = "4k1n1/2p5/8/KP5r/8/8/8/6N1 b - - 0 1";
        let g = Chess::from_opening(&ChessParams::default(), start).unwrap();
        let moves = [
            "c7c5", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ];
        let after_c5 = crate::game::replay(g.clone(), &moves[..1]).unwrap();
        assert_eq!(
            after_c5.board_ref().fen(),
            "4k1n1/8/8/KPp4r/8/8/8/6N1 w - c6 0 2"
        );
        let eight = crate::game::replay(g.clone(), &moves[..8]).unwrap();
        assert!(eight.result().is_none());
        let nine = crate::game::replay(g, &moves).unwrap();
        assert_eq!(nine.result().map(|r| r.reason), Some("repetition"));
        assert_eq!(nine.state_key(), after_c5.state_key());
        assert_ne!(
            after_c5.board_ref().key(),
            after_c5.board_ref().repetition_key()
        );
        // With the rook gone the capture is legal: the square counts, and the same
        // moves make only two occurrences of the position after c7c5 (python-chess
        // agrees: no repetition after any of the nine moves).
        let free = "4k1n1/2p5/8/KP6/8/8/8/6N1 b - - 0 1";
        let g = Chess::from_opening(&ChessParams::default(), free).unwrap();
        let after_c5 = crate::game::replay(g.clone(), &moves[..1]).unwrap();
        assert_eq!(
            after_c5.board_ref().key(),
            after_c5.board_ref().repetition_key()
        );
        let nine = crate::game::replay(g, &moves).unwrap();
        assert!(nine.result().is_none());
    }

    #[test]
    fn fools_mate_is_checkmate_for_black() {
        let g = crate::game::replay(
            Chess::new(&ChessParams::default()),
            &["f3", "e5", "g4", "Qh4#"],
        )
        .unwrap();
        let r = g.result().unwrap();
        assert_eq!(r.reason, "checkmate");
        assert_eq!(r.returns[1], 1.0);
        assert_eq!(g.turn(), Turn::Terminal);
    }
}

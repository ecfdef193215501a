//! Crowded House (chess-kit seed "Crowded House"; docs/RULES.md "Crowded House"): four seats
//! in two teams on one orthodox board.
//!
//! - Seats, in play order: 0 white king-side, 1 black king-side, 2 white queen-side,
//!   3 black queen-side. King side = files e-h, queen side = files a-d. Teams: white
//!   (seats 0 and 2) and black (1 and 3); partners share returns.
//! - A seat may move a piece of its colour that starts or ends on its half.
//! - "Check" means the next seat (always the other team) can capture the king with a move
//!   it is allowed to make; a move that leaves the mover's king capturable by the next
//!   seat is illegal. The king may move into an attacked square or castle out of check
//!   when the next seat cannot make the capture.
//! - A seat with no legal move passes. The team whose king is capturable by the next seat
//!   and whose seat to move has no legal move loses (checkmate).
//! - En passant only by the next seat (it is always the other colour's next move).
//!
//! Decisions where the texts are silent (tested below): castling follows orthodox rules
//! with "attacked" read as "capturable by the next seat" for the king's start, path and
//! destination, and the seat may castle if the king or the rook starts or ends on its
//! half; four passes in a row (nobody can move, no king capturable) is a draw recorded as
//! `stalemate`; the other draws are the common ones (50 moves, threefold repetition of
//! position and seat, insufficient material, ply cap). The search may pass (null-move
//! pruning, `GameFacts::null_move`): the rules' own pass, offered in any position out of
//! check and not counted in the seats' tallies
//! (`null_move_passes_to_the_next_seat_and_undoes`).
//!
//! One rule that is not the seed's, off by default: `partner_answers_check = true` lets a
//! seat whose king is in check answer with any piece of its colour, its partner's half
//! included (the alternative a designer might try for the checked team; compared with the
//! seed's rule in `results/crowded-house/partner-compare/`;
//! `rule_alternative_partner_answers_check`).

use crate::attacks::between;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    validate_ply_cap, Game, GameError, GameFacts, GameResult, InvalidParams, Returns, Seat, Turn,
    Utility, VariantParams, MAX_SEATS,
};
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::{Color, Square};
use crate::variants::chess::material_balance;
use crate::variants::{common_draw, pseudo_moves, MoveSketch};
use crate::zobrist;
use serde::{Deserialize, Serialize};

/// Tunable numbers of Crowded House.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct CrowdedHouseParams {
    pub ply_cap: u32,
    /// Not the seed's rule: a seat in check may answer it with any piece of its colour,
    /// not only those starting or ending on its half (default false, the seed).
    pub partner_answers_check: bool,
}

impl Default for CrowdedHouseParams {
    fn default() -> Self {
        CrowdedHouseParams {
            ply_cap: 400,
            partner_answers_check: false,
        }
    }
}

/// What each of [`CrowdedHouseParams`]'s keys is (printed by `chesslab params`).
pub const CROWDED_HOUSE_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "plies after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "partner_answers_check",
        "not the seed's rule: a seat in check may answer with any piece of its colour, not only those starting or ending on its half",
        "true or false (seed: false)",
    ),
];

impl VariantParams for CrowdedHouseParams {
    const DOCS: &'static [crate::game::ParamDoc] = CROWDED_HOUSE_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        Ok(())
    }
}

/// An action: a move, or a pass when the seat has none.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CrowdedAction {
    Move(Move),
    Pass,
}

const SEATS: usize = 4;
const SEAT_NAMES: [&str; SEATS] = [
    "white-kingside",
    "black-kingside",
    "white-queenside",
    "black-queenside",
];

/// The half of the board a seat plays on.
pub fn half(seat: Seat) -> Bitboard {
    let king_side = Bitboard(0xF0F0_F0F0_F0F0_F0F0);
    if seat % 4 < 2 {
        king_side
    } else {
        !king_side
    }
}

fn color_of(seat: Seat) -> Color {
    Color::from_index(seat % 2)
}

/// A Crowded House game.
#[derive(Clone, Debug)]
pub struct CrowdedHouse {
    board: Board,
    seat: Seat,
    params: CrowdedHouseParams,
    /// (seat, key, passes in a row) before each action, for undo and repetition.
    history: Vec<(Seat, u64, u8)>,
    passes_in_a_row: u8,
    /// Passes so far per seat (for `tallies`; `undo` of a pass takes one back).
    passes: [u32; SEATS],
}

impl CrowdedHouse {
    pub fn from_board(board: Board, seat: Seat, params: CrowdedHouseParams) -> CrowdedHouse {
        CrowdedHouse {
            board,
            seat,
            params,
            history: Vec::new(),
            passes_in_a_row: 0,
            passes: [0; SEATS],
        }
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// Whether `seat` (whose colour is not the board's side to move) could capture on
    /// `target` with the occupancy `occ`, ignoring the pieces on `gone`.
    fn can_capture(&self, seat: Seat, target: Square, occ: Bitboard, gone: Bitboard) -> bool {
        let attackers = self.board.attackers_to(target, color_of(seat), occ) - gone;
        if half(seat).contains(target) {
            attackers.any()
        } else {
            (attackers & half(seat)).any()
        }
    }

    /// The mover's king is capturable by the next seat ("check").
    pub fn in_check(&self) -> bool {
        match self.board.king(color_of(self.seat)) {
            Some(k) => self.can_capture(
                (self.seat + 1) % SEATS,
                k,
                self.board.occupied(),
                Bitboard::EMPTY,
            ),
            None => false,
        }
    }

    fn legal_moves(&self) -> MoveList {
        let b = &self.board;
        let mine = if self.params.partner_answers_check && self.in_check() {
            Bitboard::FULL
        } else {
            half(self.seat)
        };
        let next = (self.seat + 1) % SEATS;
        let mut pseudo = MoveList::new();
        let occ = b.occupied();
        pseudo_moves(b, &mut pseudo, Bitboard::FULL, |_| occ, |_, _| true);
        self.castles(&mut pseudo);
        let mut legal = MoveList::new();
        for &mv in pseudo.iter() {
            let touches_half = mine.contains(mv.from())
                || mine.contains(mv.to())
                || (mv.is_castle() && {
                    let (kd, rd) = Board::castle_targets(b.turn(), mv.from(), mv.to());
                    mine.contains(kd) || mine.contains(rd)
                });
            if !touches_half {
                continue;
            }
            let sketch = MoveSketch::new(b, mv);
            let safe = match sketch.king {
                Some(k) => !self.can_capture(next, k, sketch.occupied, sketch.captured),
                None => true,
            };
            if safe {
                legal.push(mv);
            }
        }
        legal
    }

    fn castles(&self, out: &mut MoveList) {
        let b = &self.board;
        let us = b.turn();
        let Some(king) = b.king(us) else { return };
        let back = Bitboard::relative_rank(us, 0);
        if !back.contains(king) {
            return;
        }
        let next = (self.seat + 1) % SEATS;
        let occ = b.occupied();
        for rook in b.castling_rights() & back & b.pieces(us, crate::square::Role::Rook) {
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let must_be_empty = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                .without(king)
                .without(rook);
            if (must_be_empty & occ).any() {
                continue;
            }
            let occ2 = occ.without(king).without(rook);
            let path = between(king, kd).with(kd).with(king);
            if path.any_square(|s| self.can_capture(next, s, occ2, Bitboard::EMPTY)) {
                continue;
            }
            out.push(Move::new(king, rook, MoveKind::Castle));
        }
    }

    fn team_returns(winner: Option<Color>) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if let Some(w) = winner {
            for (s, v) in r.iter_mut().enumerate().take(SEATS) {
                *v = if color_of(s) == w { 1.0 } else { -1.0 };
            }
        }
        r
    }

    fn draw_reason(&self) -> Option<&'static str> {
        if self.passes_in_a_row >= SEATS as u8 && (self.history.len() as u32) < self.params.ply_cap
        {
            return Some("stalemate");
        }
        common_draw(
            &self.board,
            self.history.len(),
            self.params.ply_cap,
            false,
            self.state_key(),
            self.history.iter().map(|h| h.1),
        )
    }
}

impl Game for CrowdedHouse {
    type Action = CrowdedAction;
    type Params = CrowdedHouseParams;

    fn facts(&self) -> GameFacts {
        GameFacts {
            utility: Utility::Team,
            seats: SEATS,
            // Check is "capturable by the next seat", not by the whole other colour.
            board_check: false,
            // A seat's turn is one move and the rules already let a seat without one
            // pass, so a pass bounds the mover's team as in orthodox chess.
            null_move: true,
            // Its own check (`CrowdedHouse::in_check`); the seats alternate colours, so
            // every decision is a turn after which the other team decides. Recaptures
            // are limited by the seats' halves: no static exchange.
            game_check: true,
            quiet_pruning: true,
            eval: "crowded-house",
            ..GameFacts::TWO_SEAT_CLASSIC
        }
    }

    fn in_check(&self) -> bool {
        CrowdedHouse::in_check(self)
    }

    fn new(params: &CrowdedHouseParams) -> CrowdedHouse {
        CrowdedHouse::from_board(Board::startpos(), 0, params.clone())
    }

    /// An opening is a FEN, optionally followed by `|` and the seat to move (0..3; the
    /// default is the king-side seat of the side to move).
    fn from_opening(params: &CrowdedHouseParams, opening: &str) -> Result<CrowdedHouse, GameError> {
        let (fen, seat_text) = opening.split_once('|').unwrap_or((opening, ""));
        let board = Board::from_fen(fen.trim()).map_err(|e| GameError::opening_fen(opening, e))?;
        let seat = match seat_text.trim() {
            "" => board.turn().index(),
            t => t
                .parse::<usize>()
                .ok()
                .filter(|&s| s < SEATS && color_of(s) == board.turn())
                .ok_or_else(|| {
                    GameError::opening(
                        opening,
                        format!("seat '{t}' is not a seat of the side to move"),
                    )
                })?,
        };
        Ok(CrowdedHouse::from_board(board, seat, params.clone()))
    }

    fn num_seats(&self) -> usize {
        SEATS
    }

    /// Teams by colour: white (seats 0 and 2) is team 0, black (1 and 3) team 1.
    fn team(&self, seat: Seat) -> usize {
        seat % 2
    }

    fn seat_name(&self, seat: Seat) -> String {
        SEAT_NAMES
            .get(seat)
            .map_or_else(|| format!("seat{seat}"), |s| s.to_string())
    }

    fn turn(&self) -> Turn {
        if self.result().is_some() {
            Turn::Terminal
        } else {
            Turn::Seat(self.seat)
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<CrowdedAction>) {
        out.clear();
        if seat != self.seat || self.draw_reason().is_some() {
            return;
        }
        let moves = self.legal_moves();
        if moves.is_empty() {
            if !self.in_check() {
                out.push(CrowdedAction::Pass);
            }
        } else {
            out.extend(moves.iter().map(|&m| CrowdedAction::Move(m)));
        }
    }

    fn apply(&mut self, action: CrowdedAction) {
        self.history
            .push((self.seat, self.state_key(), self.passes_in_a_row));
        match action {
            CrowdedAction::Move(m) => {
                self.board.make(m);
                self.passes_in_a_row = 0;
            }
            CrowdedAction::Pass => {
                self.board.make_null();
                self.passes_in_a_row += 1;
                self.passes[self.seat] += 1;
            }
        }
        self.seat = (self.seat + 1) % SEATS;
    }

    fn undo(&mut self) {
        let (seat, _, passes) = self.history.pop().expect("undo without an action");
        if self.board.last_move() == Some(Move::NULL) {
            self.board.unmake_null();
            self.passes[seat] -= 1;
        } else {
            self.board.unmake();
        }
        self.seat = seat;
        self.passes_in_a_row = passes;
    }

    /// A pass for the search's null move: the seat's pass of the rules (the board's null
    /// move, the turn to the next seat, a pass in a row), refused in check and once the
    /// game is over; not counted in the seats' pass tallies
    /// (`null_move_passes_to_the_next_seat_and_undoes`).
    fn apply_null(&mut self) -> bool {
        if self.in_check() || self.result().is_some() {
            return false;
        }
        self.history
            .push((self.seat, self.state_key(), self.passes_in_a_row));
        self.board.make_null();
        self.passes_in_a_row += 1;
        self.seat = (self.seat + 1) % SEATS;
        true
    }

    fn undo_null(&mut self) {
        let (seat, _, passes) = self.history.pop().expect("undo_null without a pass");
        self.board.unmake_null();
        self.seat = seat;
        self.passes_in_a_row = passes;
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(reason) = self.draw_reason() {
            return Some(GameResult {
                returns: Self::team_returns(None),
                reason,
            });
        }
        if self.in_check() && self.legal_moves().is_empty() {
            return Some(GameResult {
                returns: Self::team_returns(Some(color_of(self.seat).other())),
                reason: "checkmate",
            });
        }
        None
    }

    fn state_key(&self) -> u64 {
        self.board.key() ^ zobrist::extra(1000 + self.seat as u64)
    }

    fn observation(&self, _seat: Seat) -> String {
        format!("{} | {}", self.board.fen(), self.seat)
    }

    fn action_notation(&self, action: CrowdedAction) -> String {
        match action {
            CrowdedAction::Move(m) => self.board.uci(m),
            CrowdedAction::Pass => "pass".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<CrowdedAction, GameError> {
        let mut actions = Vec::new();
        self.legal_actions(self.seat, &mut actions);
        actions
            .into_iter()
            .find(|&a| self.action_notation(a) == text)
            .ok_or_else(|| GameError::Action {
                action: text.into(),
                message: format!(
                    "not a legal move for {} (UCI or 'pass')",
                    self.seat_name(self.seat)
                ),
            })
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat % 2))
    }

    /// The move a move action plays (agents read it instead of playing the action).
    fn action_move(&self, action: CrowdedAction) -> Option<Move> {
        match action {
            CrowdedAction::Move(m) => Some(m),
            CrowdedAction::Pass => None,
        }
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// `passes` (all seats) and `<seat>_passes` per seat, with the seat names in snake
    /// case (`white_kingside_passes`, ...): how often a seat had nothing to move.
    fn tallies(&self) -> Vec<(String, f64)> {
        let mut t = vec![("passes".to_string(), self.passes.iter().sum::<u32>() as f64)];
        for (seat, name) in SEAT_NAMES.iter().enumerate() {
            t.push((
                format!("{}_passes", name.replace('-', "_")),
                self.passes[seat] as f64,
            ));
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::conformance;

    fn pos(opening: &str) -> CrowdedHouse {
        CrowdedHouse::from_opening(&CrowdedHouseParams::default(), opening).unwrap()
    }

    fn moves(g: &CrowdedHouse) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_actions(g.seat(), &mut v);
        let mut v: Vec<String> = v.into_iter().map(|a| g.action_notation(a)).collect();
        v.sort();
        v
    }

    #[test]
    fn crowded_house_conforms_to_the_game_api() {
        conformance::check(&CrowdedHouse::new(&CrowdedHouseParams::default()), 20, 9);
    }

    #[test]
    fn rule_four_seats_in_play_order() {
        let mut g = CrowdedHouse::new(&CrowdedHouseParams::default());
        let mut order = Vec::new();
        for mv in ["e2e4", "e7e5", "d2d4", "d7d5"] {
            order.push(g.seat());
            let a = g.parse_action(mv).unwrap();
            g.apply(a);
        }
        assert_eq!(order, vec![0, 1, 2, 3]);
        assert_eq!(g.seat(), 0);
        assert_eq!(g.seat_name(2), "white-queenside");
    }

    #[test]
    fn rule_seat_moves_pieces_that_start_or_end_on_its_half() {
        let g = CrowdedHouse::new(&CrowdedHouseParams::default());
        let ms = moves(&g);
        // King side seat: e-h pawns and the g1 knight, not the a-d pawns nor Nb1.
        assert!(ms.contains(&"e2e4".to_string()) && ms.contains(&"g1f3".to_string()));
        assert!(!ms.contains(&"d2d4".to_string()) && !ms.contains(&"b1c3".to_string()));
        // The queen-side seat may bring a king-side bishop over to its half, not e2.
        let g = pos("rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 1 | 2");
        let ms = moves(&g);
        assert!(ms.contains(&"f1d3".to_string()));
        assert!(!ms.contains(&"f1e2".to_string()));
    }

    #[test]
    fn rule_check_means_capturable_by_the_next_seat() {
        // The black rook on a8 attacks the white king on a1, but the next seat (black
        // king-side) may only capture with pieces that start on e-h or land on e-h: no
        // check. White may even leave the king there and play on.
        let g = pos("r3k3/8/8/8/8/8/8/K6R w - - 0 1 | 0");
        assert!(!g.in_check());
        // A black rook on h8 facing the king on h1 (king side) is check.
        let g = pos("4k2r/8/8/8/8/8/8/7K w - - 0 1 | 0");
        assert!(g.in_check());
        // Seen from the queen-side seat, whose next seat is black queen-side: the h8 rook
        // starts and would end on the king side, so it is no check for that seat.
        let g = pos("4k2r/8/8/8/8/8/8/7K w - - 0 1 | 2");
        assert!(!g.in_check());
    }

    #[test]
    fn rule_move_may_not_leave_king_capturable_by_next_seat() {
        // White king on f1, black rook on h2 (king side): f1g2?? is capturable by the next
        // seat (black king-side), f1e1 walks into the rook's rank only if it can capture.
        let g = pos("4k3/8/8/8/8/8/7r/5K2 w - - 0 1 | 0");
        let ms = moves(&g);
        assert!(!ms.contains(&"f1g2".to_string()) && !ms.contains(&"f1f2".to_string()));
        assert!(ms.contains(&"f1g1".to_string()));
    }

    #[test]
    fn rule_king_may_step_into_attack_the_next_seat_cannot_capture() {
        // Black rook on a2 (queen side) attacks the second rank. The next seat after
        // white king-side is black king-side: the rook starts on a2 (queen side), so it
        // may capture only on e-h squares. e2 is on the king side: illegal; d2 would be
        // on the queen side, and the rook may not land there for the king-side seat.
        let g = pos("4k3/8/8/8/8/8/r7/4K3 w - - 0 1 | 0");
        let ms = moves(&g);
        assert!(!ms.contains(&"e1e2".to_string()));
        assert!(!ms.contains(&"e1f2".to_string()));
        // d2 is on the queen side and the king-side seat moves the king (starts on e1).
        assert!(ms.contains(&"e1d2".to_string()));
    }

    #[test]
    fn rule_no_move_means_pass() {
        // The queen-side white seat has no piece on a-d and cannot reach it: it passes.
        let g = pos("4k3/8/8/8/8/8/7P/7K w - - 0 1 | 2");
        assert_eq!(moves(&g), vec!["pass".to_string()]);
    }

    #[test]
    fn null_move_passes_to_the_next_seat_and_undoes() {
        let mut g = pos("4k3/8/8/8/8/8/4P2P/4K3 w - - 0 1 | 0");
        let (key, before) = (g.state_key(), moves(&g));
        assert!(g.facts().null_move);
        assert!(g.apply_null());
        assert_eq!((g.seat(), g.turn()), (1, Turn::Seat(1)));
        assert_ne!(g.state_key(), key);
        assert!(!moves(&g).is_empty());
        g.undo_null();
        assert_eq!((g.seat(), g.state_key()), (0, key));
        assert_eq!(moves(&g), before);
        let passes = |g: &CrowdedHouse| g.tallies()[0].1;
        assert_eq!(passes(&g), 0.0, "a search's pass is not a seat's pass");
        // In check (the next seat can take the king) there is no pass.
        let mut checked = pos("4k3/8/8/8/8/8/8/4K2r w - - 0 1 | 0");
        assert!(checked.in_check());
        assert!(!checked.apply_null());
        assert_eq!(checked.seat(), 0);
        // Nor once the game is over.
        let mut mated = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3 | 0");
        assert!(mated.result().is_some());
        assert!(!mated.apply_null());
    }

    #[test]
    fn rule_checkmate_is_a_team_loss() {
        // Fool's mate position: the h4 queen (king side) can capture the white king for
        // the next seat, and the white king-side seat has no legal move.
        let g = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3 | 0");
        let r = g.result().expect("mate");
        assert_eq!(r.reason, "checkmate");
        assert_eq!(r.returns[..4], [-1.0, 1.0, -1.0, 1.0]);
        // No move but no check: the seat passes instead and the game goes on.
        let g = pos("4k3/8/8/8/8/8/7P/7K w - - 0 1 | 2");
        assert!(g.result().is_none());
    }

    #[test]
    fn rule_alternative_partner_answers_check() {
        // The a1 rook checks the white king for the black king-side seat; the king's
        // squares are blocked or covered by the e3 knight, and nothing on the king side
        // can block or capture: mate under the seed's rule. With the alternative rule
        // the partner's b3 knight (queen side) may block on c1 or take the rook.
        let opening = "4k3/8/8/8/8/1N2n3/3PPP2/r3KB2 w - - 0 1 | 0";
        let seed = pos(opening);
        assert!(seed.in_check());
        assert_eq!(seed.result().map(|r| r.reason), Some("checkmate"));
        let params = CrowdedHouseParams {
            partner_answers_check: true,
            ..Default::default()
        };
        let alt = CrowdedHouse::from_opening(&params, opening).unwrap();
        assert!(alt.result().is_none());
        assert_eq!(moves(&alt), vec!["b3a1".to_string(), "b3c1".to_string()]);
        // Out of check the halves bind as before: the queen-side seat still passes here.
        let g = CrowdedHouse::from_opening(&params, "4k3/8/8/8/8/8/7P/7K w - - 0 1 | 2").unwrap();
        assert_eq!(moves(&g), vec!["pass".to_string()]);
    }

    #[test]
    fn rule_four_passes_in_a_row_is_a_draw() {
        // White queen-side has nothing on a-d and cannot get there: it passes, and the
        // pass counter runs; a move resets it; four in a row end the game drawn.
        let mut g = pos("4k3/8/8/8/8/8/7P/7K w - - 0 1 | 2");
        g.apply(CrowdedAction::Pass);
        assert_eq!(g.passes_in_a_row, 1);
        let a = g.parse_action("e8d8").unwrap();
        g.apply(a);
        assert_eq!(g.passes_in_a_row, 0);
        g.passes_in_a_row = 4;
        assert_eq!(g.result().map(|r| r.reason), Some("stalemate"));
        assert_eq!(g.returns()[..4], [0.0; 4]);
    }

    #[test]
    fn tallies_count_passes_per_seat_and_undo_restores_them() {
        let mut g = pos("4k3/8/8/8/8/8/7P/7K w - - 0 1 | 2");
        let tally = |g: &CrowdedHouse, name: &str| {
            g.tallies()
                .into_iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v)
                .unwrap()
        };
        assert_eq!(tally(&g, "passes"), 0.0);
        g.apply(CrowdedAction::Pass);
        let a = g.parse_action("e8d8").unwrap();
        g.apply(a);
        assert_eq!(tally(&g, "passes"), 1.0);
        assert_eq!(tally(&g, "white_queenside_passes"), 1.0);
        assert_eq!(tally(&g, "black_queenside_passes"), 0.0);
        assert_eq!(g.tallies().len(), 5);
        g.undo();
        g.undo();
        assert_eq!(tally(&g, "passes"), 0.0);
        assert_eq!(tally(&g, "white_queenside_passes"), 0.0);
    }

    #[test]
    fn partners_share_a_team() {
        let g = CrowdedHouse::new(&CrowdedHouseParams::default());
        let teams: Vec<usize> = (0..4).map(|s| g.team(s)).collect();
        assert_eq!(teams, vec![0, 1, 0, 1]);
    }

    #[test]
    fn rule_en_passant_only_by_the_next_seat() {
        // White (queen side, seat 2) plays b2b4; black queen side (seat 3) may take en
        // passant with the a4 pawn at once.
        let mut g = pos("4k3/8/8/8/p7/8/1P6/4K3 w - - 0 1 | 2");
        let a = g.parse_action("b2b4").unwrap();
        g.apply(a);
        assert_eq!(g.seat(), 3);
        assert!(moves(&g).contains(&"a4b3".to_string()));
    }
}

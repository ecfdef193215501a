//! Expedition Chess (Expedition seed; docs/RULES.md "Expedition Chess"): long slider moves
//! are expeditions that the dice may cut short.
//!
//! - Pawns, knights, kings, castling and one-square moves of bishops, rooks and queens
//!   are certain.
//! - A bishop, rook or queen move of n >= 2 squares is an *attempt* (a decision). A
//!   chance node follows whose outcomes are the distinct maxima m of the table row for n
//!   (parameter `table`, rows n = 2..7, columns dice sums 2..12), each with the summed
//!   probability of the 2d6 throws that give it. If m >= n the move is played as
//!   attempted (and captures whatever stands on the target); if m == 1 the piece moves
//!   one square; otherwise the same seat chooses a distance 1..m along the same ray (a
//!   second decision). Shortened moves never capture: the path was clear.
//! - A move or attempt is illegal only if its full-length result leaves the mover's king
//!   attacked by a *certain* attacker: a pawn, knight or king, or a bishop, rook or
//!   queen on an adjacent square. A distant slider's attack may be left or walked into
//!   (a gamble). Castling is orthodox: no castling out of, through or into any attack,
//!   distant sliders included.
//! - After the dice cut an attempt short, only distances that leave the mover's king
//!   safe from certain attackers are offered; if no distance is safe, every distance is
//!   offered (RULES.md; `rule_cut_short_attempt_offers_safe_distances_else_every_distance`,
//!   `rule_shortened_outcome_may_leave_the_king_to_be_captured`). A certain attack
//!   cannot be blocked, so the stops of one attempt are today all safe or all unsafe
//!   (unsafe only when the full move would have captured the attacker or the king); the
//!   filter is spelled out so the rule holds whatever counts as certain.
//! - Lone king (RULES.md "Lone king", the seed's "may not continue play indefinitely
//!   with a lone King"): a side left with only its king is bound by orthodox check rules
//!   against every attacker, distant sliders included. It must leave every check, may
//!   not step into any attack, and is checkmated (loses) when in check with no legal
//!   move (`rule_lone_king_is_checkmated_by_a_distant_queen`,
//!   `rule_lone_king_must_leave_every_check_and_not_step_into_attack`,
//!   `rule_lone_king_without_moves_or_check_is_stalemated`).
//! - Capturing the king wins (`king-captured`). With no legal action the side to move
//!   loses if a certain attacker (any attacker, for a lone king) attacks its king
//!   (`checkmate`), else it is stalemated (draw). Otherwise the orthodox draws
//!   (insufficient material, 50 moves, threefold repetition) and the ply cap (`cap`)
//!   apply between turns.
//!
//! Actions (tokens): a certain move `Move` or an attempt `Attempt`, both written in UCI
//! (`e2e4`, `d1h5`, `e1g1`, `e7e8q`; geometry tells which is which); the chance outcome
//! `Roll(m)` written `roll:m`; the chosen distance `Distance(d)` written `go:<square>`
//! (`go:e4`; `go:2` is read too). The seed's notation for a whole move (`Qe4(e5,e8)`,
//! or plain SAN such as `Qe8` for a full success) is printed by
//! [`Expedition::seed_moves`] and read back by [`Expedition::parse_seed_move`].
//!
//! Decisions where the texts are silent (each tested below):
//! - An attempt is judged by its full-length result (RULES.md's legality applied to
//!   the move as announced); the dice only decide how much of it happens.
//! - A move that captures the enemy king is always legal, whatever it leaves behind: the
//!   game is over at once.
//! - A roll of 1 on an attempt moves the piece one square with no decision, also in
//!   the seed notation: `Qe2(e2,e8)`.
//! - Castling's rook never goes on an expedition, whatever its distance.
//! - A record ending in the middle of an attempt prints no seed-notation move for it.
//! - Repetition and the 50-move rule count turns (board plies); the states inside an
//!   expedition (awaiting the dice or the distance) never repeat a turn's start.
//! - `new` trusts its parameters: an invalid table (wrong shape, entries outside 1..=n)
//!   is clamped cell by cell (missing cells take the seed's value); the registry
//!   rejects it with `GameError::Params` ([`ExpeditionParams`]'s `validate`).

use crate::attacks::{self, between};
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

mod notation;

/// The shortest expedition (in squares); shorter slider moves are certain.
pub const MIN_ATTEMPT: u8 = 2;
/// The longest possible slider move on an 8x8 board.
pub const MAX_ATTEMPT: u8 = 7;
/// Columns of the dice table: sums 2..=12 of two dice.
pub const DICE_SUMS: usize = 11;

/// The seed's table: row n - 2 (n = attempted squares), column sum - 2, entry = the most
/// squares the piece may move.
pub const SEED_TABLE: [[u8; DICE_SUMS]; 6] = [
    [1, 1, 2, 2, 2, 2, 2, 2, 2, 1, 1],
    [1, 2, 2, 3, 3, 3, 3, 3, 2, 2, 1],
    [1, 2, 3, 3, 4, 4, 4, 3, 3, 2, 1],
    [1, 2, 3, 4, 5, 5, 5, 4, 3, 2, 1],
    [1, 3, 4, 5, 5, 6, 6, 5, 4, 3, 2],
    [1, 3, 4, 5, 6, 7, 6, 6, 5, 4, 2],
];

/// Ways (out of 36) to throw each sum 2..=12 with two dice.
const WAYS: [u8; DICE_SUMS] = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];

/// Tunable numbers of Expedition Chess.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ExpeditionParams {
    pub ply_cap: u32,
    /// The dice table: 6 rows (attempts of 2..7 squares) of 11 entries (sums 2..12),
    /// each in 1..=n.
    pub table: Vec<Vec<u8>>,
}

impl Default for ExpeditionParams {
    fn default() -> Self {
        ExpeditionParams {
            ply_cap: 400,
            table: SEED_TABLE.iter().map(|r| r.to_vec()).collect(),
        }
    }
}

/// What each of [`ExpeditionParams`]'s keys is (printed by `chesslab params`).
pub const EXPEDITION_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "plies after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "table",
        "the dice table: 6 rows (attempts of 2..7 squares) of 11 entries (dice sums 2..12); each entry is the farthest distance the roll allows",
        "each entry from 1 to its row's length",
    ),
];

impl VariantParams for ExpeditionParams {
    const DOCS: &'static [crate::game::ParamDoc] = EXPEDITION_PARAM_DOCS;

    /// Checks the ply cap and the table's shape and range.
    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        self.dice_table().map(|_| ())
    }
}

impl ExpeditionParams {
    /// The table as a fixed array, or an error naming what is wrong.
    pub fn dice_table(&self) -> Result<[[u8; DICE_SUMS]; 6], InvalidParams> {
        let err = |message: String| InvalidParams::new("table", message);
        if self.table.len() != 6 {
            return Err(err(format!(
                "table needs 6 rows (attempts of 2..7 squares), found {}",
                self.table.len()
            )));
        }
        let mut t = [[0u8; DICE_SUMS]; 6];
        for (i, row) in self.table.iter().enumerate() {
            let n = i as u8 + MIN_ATTEMPT;
            if row.len() != DICE_SUMS {
                return Err(err(format!(
                    "table row for {n} squares needs {DICE_SUMS} entries (dice sums 2..12), found {}",
                    row.len()
                )));
            }
            for (c, &m) in row.iter().enumerate() {
                if !(1..=n).contains(&m) {
                    return Err(err(format!(
                        "table entry for {n} squares, dice sum {}: {m} is outside 1..={n}",
                        c + 2
                    )));
                }
                t[i][c] = m;
            }
        }
        Ok(t)
    }

    /// The table with every cell forced into range, for `new`, which may not fail.
    fn clamped_table(&self) -> [[u8; DICE_SUMS]; 6] {
        let mut t = SEED_TABLE;
        for (i, row) in t.iter_mut().enumerate() {
            let n = i as u8 + MIN_ATTEMPT;
            for (c, cell) in row.iter_mut().enumerate() {
                if let Some(&m) = self.table.get(i).and_then(|r| r.get(c)) {
                    *cell = m.clamp(1, n);
                }
            }
        }
        t
    }
}

/// One decision or chance outcome.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ExpeditionAction {
    /// A certain move: pawn, knight, king, castling, or a one-square slider move.
    Move(Move),
    /// A bishop, rook or queen move of two or more squares, before the dice.
    Attempt(Move),
    /// The dice's verdict on the pending attempt: at most this many squares.
    Roll(u8),
    /// The distance the mover chooses after a roll that cut the attempt short.
    Distance(u8),
}

/// Where in a turn the game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum Phase {
    /// A seat starts its turn.
    Start,
    /// An attempt waits for the dice.
    Roll { attempt: Move },
    /// The dice allowed `max` squares (2 <= max < n); the mover picks the distance.
    Choose { attempt: Move, max: u8 },
}

/// What `undo` needs, plus the figures `tallies` reads.
#[derive(Clone, Copy, Debug)]
struct Record {
    action: ExpeditionAction,
    phase: Phase,
    /// The state key before the action.
    key: u64,
    /// Whether the action played a move on the board.
    made: bool,
    captured_king: bool,
    /// A turn's first decision whose full-length result leaves the mover's king under
    /// a distant slider's attack.
    gamble: bool,
}

/// An Expedition Chess game.
#[derive(Clone, Debug)]
pub struct Expedition {
    board: Board,
    params: ExpeditionParams,
    table: [[u8; DICE_SUMS]; 6],
    phase: Phase,
    history: Vec<Record>,
}

fn is_slider(role: Role) -> bool {
    matches!(role, Role::Bishop | Role::Rook | Role::Queen)
}

/// Squares a move covers (king-step distance; a slider moves along one ray).
fn length(mv: Move) -> u8 {
    mv.from().distance(mv.to())
}

/// The square `d` steps from the attempt's origin towards its target.
fn along(attempt: Move, d: u8) -> Square {
    let (from, to) = (attempt.from(), attempt.to());
    let df = (to.file() as i8 - from.file() as i8).signum();
    let dr = (to.rank() as i8 - from.rank() as i8).signum();
    let d = d as i8;
    from.offset(df * d, dr * d).unwrap_or(to)
}

/// Reads a FEN that may leave the side not to move in check (see `from_opening`).
fn read_fen(fen: &str) -> Result<Board, GameError> {
    Board::from_fen_king_en_prise(fen).map_err(|e| GameError::opening_fen(fen, e))
}

const KEY_ROLL: u64 = 0x4558_5000_0000;
const KEY_CHOOSE: u64 = 0x4558_5100_0000;

impl Expedition {
    /// A game from `board` (which must have both kings) with `params` (see the module
    /// docs for what an invalid table does here).
    pub fn from_board(board: Board, params: ExpeditionParams) -> Expedition {
        let table = params
            .dice_table()
            .unwrap_or_else(|_| params.clamped_table());
        Expedition {
            board,
            params,
            table,
            phase: Phase::Start,
            history: Vec::new(),
        }
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    pub fn params(&self) -> &ExpeditionParams {
        &self.params
    }

    /// The pending attempt, with the dice's maximum once rolled (while the mover
    /// chooses the distance).
    pub fn pending(&self) -> Option<(Move, Option<u8>)> {
        match self.phase {
            Phase::Start => None,
            Phase::Roll { attempt } => Some((attempt, None)),
            Phase::Choose { attempt, max } => Some((attempt, Some(max))),
        }
    }

    /// The distinct maxima for an attempt of `n` squares with their probabilities
    /// (the 36 throws of two dice folded together), smallest first.
    pub fn roll_odds(&self, n: u8) -> Vec<(u8, f64)> {
        let mut ways = [0u8; MAX_ATTEMPT as usize + 1];
        if (MIN_ATTEMPT..=MAX_ATTEMPT).contains(&n) {
            let row = &self.table[(n - MIN_ATTEMPT) as usize];
            for (c, &m) in row.iter().enumerate() {
                ways[m.min(n) as usize] += WAYS[c];
            }
        }
        (1..=n.min(MAX_ATTEMPT))
            .filter(|&m| ways[m as usize] > 0)
            .map(|m| (m, ways[m as usize] as f64 / 36.0))
            .collect()
    }

    /// The side making the current turn (the mover keeps deciding after the dice).
    fn mover(&self) -> Color {
        self.board.turn()
    }

    /// Whether `color` has nothing left but its king (RULES.md "Lone king").
    pub fn lone_king(&self, color: Color) -> bool {
        self.board.by_color(color) == self.board.pieces(color, Role::King)
    }

    /// Pieces of `by` whose attack on `sq` (with occupancy `occ`, ignoring pieces on
    /// `removed`) binds the defending side: for certain (pawns, knights, kings, adjacent
    /// sliders), or any attack at all when the defender is a lone king.
    fn binding_attackers(
        &self,
        sq: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Bitboard {
        let all = self.board.attackers_to(sq, by, occ) - removed;
        if self.lone_king(by.other()) {
            return all;
        }
        // Pawn and king attackers are adjacent anyway; knights never are.
        all & (self.board.pieces(by, Role::Knight) | attacks::king_attacks(sq))
    }

    /// Whether the side to move's king is in a check it must answer: attacked for
    /// certain, or attacked at all if it is a lone king.
    pub fn in_certain_check(&self) -> bool {
        let us = self.mover();
        self.board.king(us).is_some_and(|k| {
            self.binding_attackers(k, us.other(), self.board.occupied(), Bitboard::EMPTY)
                .any()
        })
    }

    /// Distances offered after the dice allowed `max` squares of `attempt`: those whose
    /// move leaves the mover's king safe from binding attackers, or all of them if none
    /// does. As a bit set (bit d = distance d).
    fn offered_distances(&self, attempt: Move, max: u8) -> u8 {
        let all = (1..=max).fold(0u8, |set, d| set | 1 << d);
        let safe = (1..=max)
            .filter(|&d| !self.exposes_king(Move::normal(attempt.from(), along(attempt, d))))
            .fold(0u8, |set, d| set | 1 << d);
        if safe == 0 {
            all
        } else {
            safe
        }
    }

    fn captures_king(&self, mv: Move) -> bool {
        !mv.is_castle()
            && self.board.piece_at(mv.to()).map(|p| p.role) == Some(Role::King)
            && self.board.piece_at(mv.to()).map(|p| p.color) != Some(self.mover())
    }

    /// Whether the full-length result of `mv` leaves the mover's king under a binding
    /// attack (a king capture never does: the game ends).
    fn exposes_king(&self, mv: Move) -> bool {
        if self.captures_king(mv) {
            return false;
        }
        let s = MoveSketch::new(&self.board, mv);
        let Some(k) = s.king else { return false };
        self.binding_attackers(k, self.mover().other(), s.occupied, s.captured)
            .any()
    }

    /// Whether the full-length result of `mv` leaves the mover's king under any attack.
    fn is_gamble(&self, mv: Move) -> bool {
        if self.captures_king(mv) {
            return false;
        }
        let s = MoveSketch::new(&self.board, mv);
        let Some(k) = s.king else { return false };
        (self.board.attackers_to(k, self.mover().other(), s.occupied) - s.captured).any()
    }

    /// Calls `f` with each legal action of the seat to decide until it returns true;
    /// returns whether it did.
    fn each_action(&self, mut f: impl FnMut(ExpeditionAction) -> bool) -> bool {
        match self.phase {
            Phase::Roll { .. } => false,
            Phase::Choose { attempt, max } => {
                let offered = self.offered_distances(attempt, max);
                (1..=max)
                    .filter(|d| offered & 1 << d != 0)
                    .any(|d| f(ExpeditionAction::Distance(d)))
            }
            Phase::Start => {
                let b = &self.board;
                let occ = b.occupied();
                let mut list = MoveList::new();
                pseudo_moves(b, &mut list, Bitboard::FULL, |_| occ, |_, _| true);
                for &mv in list.iter() {
                    if self.exposes_king(mv) {
                        continue;
                    }
                    let role = b.piece_at(mv.from()).map(|p| p.role);
                    let a = if role.is_some_and(is_slider) && length(mv) >= MIN_ATTEMPT {
                        ExpeditionAction::Attempt(mv)
                    } else {
                        ExpeditionAction::Move(mv)
                    };
                    if f(a) {
                        return true;
                    }
                }
                self.each_castle(|mv| f(ExpeditionAction::Move(mv)))
            }
        }
    }

    /// Orthodox castling: the king may not start on, cross or land on a square any
    /// enemy piece attacks (distant sliders included).
    fn each_castle(&self, mut f: impl FnMut(Move) -> bool) -> bool {
        let b = &self.board;
        let us = b.turn();
        let them = us.other();
        let back = Bitboard::relative_rank(us, 0);
        let Some(king) = b.king(us) else { return false };
        if !back.contains(king) {
            return false;
        }
        let occ = b.occupied();
        for rook in b.castling_rights() & b.pieces(us, Role::Rook) & back {
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let must_be_empty = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                .without(king)
                .without(rook);
            if (must_be_empty & occ).any() {
                continue;
            }
            // The king does not shield its own path (nor the rook, as in Chess960).
            let lifted = occ.without(king).without(rook);
            let path = between(king, kd).with(kd).with(king);
            let mut attacked = false;
            for s in path {
                if b.attackers_to(s, them, lifted).any() {
                    attacked = true;
                    break;
                }
            }
            if !attacked && f(Move::new(king, rook, MoveKind::Castle)) {
                return true;
            }
        }
        false
    }

    fn actions_vec(&self) -> Vec<ExpeditionAction> {
        let mut v = Vec::new();
        self.each_action(|a| {
            v.push(a);
            false
        });
        v
    }

    fn king_captured(&self) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|&c| self.board.king(c).is_none())
    }

    fn draw_reason(&self) -> Option<&'static str> {
        if self.phase != Phase::Start {
            return None;
        }
        common_draw(
            &self.board,
            self.board.ply(),
            self.params.ply_cap,
            false,
            self.state_key(),
            // One key per turn start: the board's halfmove clock counts turns.
            self.history
                .iter()
                .filter(|r| r.phase == Phase::Start)
                .map(|r| r.key),
        )
    }

    fn phase_key(&self) -> u64 {
        match self.phase {
            Phase::Start => 0,
            Phase::Roll { attempt } => zobrist::extra(KEY_ROLL + attempt.code() as u64),
            Phase::Choose { attempt, max } => {
                zobrist::extra(KEY_CHOOSE + ((max as u64) << 16) + attempt.code() as u64)
            }
        }
    }

    // ----- seed notation ---------------------------------------------------------------
}

impl Game for Expedition {
    type Action = ExpeditionAction;
    type Params = ExpeditionParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
            .with_chance(true)
            .with_eval("expedition")
    }

    fn new(params: &ExpeditionParams) -> Expedition {
        Expedition::from_board(Board::startpos(), params.clone())
    }

    /// A FEN with both kings on the board. Either king may stand in check (a distant
    /// check is a gamble the position may have kept), which the orthodox reader refuses.
    fn from_opening(params: &ExpeditionParams, opening: &str) -> Result<Expedition, GameError> {
        Ok(Expedition::from_board(read_fen(opening)?, params.clone()))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.result().is_some() {
            Turn::Terminal
        } else if matches!(self.phase, Phase::Roll { .. }) {
            Turn::Chance
        } else {
            Turn::Seat(self.mover().index())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<ExpeditionAction>) {
        out.clear();
        if seat != self.mover().index()
            || self.king_captured().is_some()
            || self.draw_reason().is_some()
        {
            return;
        }
        self.each_action(|a| {
            out.push(a);
            false
        });
    }

    fn chance_outcomes(&self, out: &mut Vec<(ExpeditionAction, f64)>) {
        out.clear();
        if let Phase::Roll { attempt } = self.phase {
            out.extend(
                self.roll_odds(length(attempt))
                    .into_iter()
                    .map(|(m, p)| (ExpeditionAction::Roll(m), p)),
            );
        }
    }

    fn apply(&mut self, action: ExpeditionAction) {
        let mut rec = Record {
            action,
            phase: self.phase,
            key: self.state_key(),
            made: false,
            captured_king: false,
            gamble: false,
        };
        let play = match (action, self.phase) {
            (ExpeditionAction::Move(mv), Phase::Start) => {
                rec.gamble = self.is_gamble(mv);
                Some(mv)
            }
            (ExpeditionAction::Attempt(mv), Phase::Start) => {
                rec.gamble = self.is_gamble(mv);
                self.phase = Phase::Roll { attempt: mv };
                None
            }
            (ExpeditionAction::Roll(max), Phase::Roll { attempt }) => {
                if max >= length(attempt) {
                    Some(attempt)
                } else if max <= 1 {
                    Some(Move::normal(attempt.from(), along(attempt, 1)))
                } else {
                    self.phase = Phase::Choose { attempt, max };
                    None
                }
            }
            (ExpeditionAction::Distance(d), Phase::Choose { attempt, .. }) => {
                Some(Move::normal(attempt.from(), along(attempt, d)))
            }
            (a, p) => panic!("expedition: action {a:?} does not fit phase {p:?}"),
        };
        if let Some(mv) = play {
            rec.captured_king = self.captures_king(mv);
            self.board.make(mv);
            rec.made = true;
            self.phase = Phase::Start;
        }
        self.history.push(rec);
    }

    fn undo(&mut self) {
        let rec = self.history.pop().expect("undo without an action");
        if rec.made {
            self.board.unmake();
        }
        self.phase = rec.phase;
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(loser) = self.king_captured() {
            return Some(GameResult {
                returns: two_seat_returns(Some(loser.other().index())),
                reason: "king-captured",
            });
        }
        if let Some(reason) = self.draw_reason() {
            return Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            });
        }
        if self.phase == Phase::Start && !self.each_action(|_| true) {
            return Some(no_moves_result(self.mover(), self.in_certain_check()));
        }
        None
    }

    fn state_key(&self) -> u64 {
        self.board.key() ^ self.phase_key()
    }

    fn observation(&self, _seat: Seat) -> String {
        let pending = match self.phase {
            Phase::Start => "-".to_string(),
            Phase::Roll { attempt } => format!("attempt {}", self.board.uci(attempt)),
            Phase::Choose { attempt, max } => format!(
                "attempt {} allowed {}",
                self.board.uci(attempt),
                along(attempt, max)
            ),
        };
        format!("{} | {pending}", self.board.fen())
    }

    fn action_notation(&self, action: ExpeditionAction) -> String {
        match action {
            ExpeditionAction::Move(m) | ExpeditionAction::Attempt(m) => self.board.uci(m),
            ExpeditionAction::Roll(m) => format!("roll:{m}"),
            ExpeditionAction::Distance(d) => match self.phase {
                Phase::Choose { attempt, .. } => format!("go:{}", along(attempt, d)),
                _ => format!("go:{d}"),
            },
        }
    }

    fn parse_action(&self, text: &str) -> Result<ExpeditionAction, GameError> {
        let err = |m: String| GameError::Action {
            action: text.into(),
            message: m,
        };
        match self.phase {
            Phase::Roll { attempt } => {
                let m = text
                    .strip_prefix("roll:")
                    .and_then(|m| m.parse::<u8>().ok())
                    .ok_or_else(|| err("the dice decide now: expected 'roll:<squares>'".into()))?;
                if self.roll_odds(length(attempt)).iter().any(|&(x, _)| x == m) {
                    Ok(ExpeditionAction::Roll(m))
                } else {
                    Err(err(format!(
                        "the dice table cannot give {m} on an attempt of {} squares",
                        length(attempt)
                    )))
                }
            }
            Phase::Choose { attempt, max } => {
                let rest = text.strip_prefix("go:").ok_or_else(|| {
                    err("the mover chooses a distance now: expected 'go:<square>'".into())
                })?;
                let d = match Square::parse(rest) {
                    Some(sq) => (1..=max).find(|&d| along(attempt, d) == sq),
                    None => rest.parse::<u8>().ok().filter(|d| (1..=max).contains(d)),
                }
                .ok_or_else(|| {
                    err(format!(
                        "expected a square from {} to {} along the attempt",
                        along(attempt, 1),
                        along(attempt, max)
                    ))
                })?;
                if self.offered_distances(attempt, max) & 1 << d == 0 {
                    return Err(err(format!(
                        "{} leaves the king to a certain capture while a safe distance exists",
                        along(attempt, d)
                    )));
                }
                Ok(ExpeditionAction::Distance(d))
            }
            Phase::Start => {
                let mut found = None;
                self.each_action(|a| {
                    if self.action_notation(a) == text {
                        found = Some(a);
                        true
                    } else {
                        false
                    }
                });
                found.ok_or_else(|| {
                    err("not a legal move or attempt here (UCI, e.g. e2e4, d1h5)".into())
                })
            }
        }
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat))
    }

    /// The move a move action plays (agents read it instead of playing the action).
    fn action_move(&self, action: ExpeditionAction) -> Option<Move> {
        match action {
            ExpeditionAction::Move(m) => Some(m),
            _ => None,
        }
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// `attempts_n2..attempts_n7`: attempts by length; `full_n2..full_n7`: those the dice
    /// let through in full; `forced_one`: attempts cut to one square; `king_captures`;
    /// `gambles`: turns begun with a move that leaves the own king under a distant
    /// slider's attack; `turns`: moves made (certain moves and attempts, so game length
    /// compares with orthodox chess's plies).
    fn tallies(&self) -> Vec<(String, f64)> {
        let mut attempts = [0u32; MAX_ATTEMPT as usize + 1];
        let mut full = [0u32; MAX_ATTEMPT as usize + 1];
        let (mut forced_one, mut kings, mut gambles) = (0u32, 0u32, 0u32);
        let mut turns = 0u32;
        for r in &self.history {
            match (r.action, r.phase) {
                (ExpeditionAction::Move(_), _) => turns += 1,
                (ExpeditionAction::Attempt(m), _) => {
                    turns += 1;
                    attempts[length(m) as usize] += 1
                }
                (ExpeditionAction::Roll(max), Phase::Roll { attempt }) => {
                    if max >= length(attempt) {
                        full[length(attempt) as usize] += 1;
                    } else if max == 1 {
                        forced_one += 1;
                    }
                }
                _ => {}
            }
            kings += r.captured_king as u32;
            gambles += r.gamble as u32;
        }
        let mut out = Vec::new();
        for n in MIN_ATTEMPT..=MAX_ATTEMPT {
            out.push((format!("attempts_n{n}"), attempts[n as usize] as f64));
        }
        for n in MIN_ATTEMPT..=MAX_ATTEMPT {
            out.push((format!("full_n{n}"), full[n as usize] as f64));
        }
        out.push(("forced_one".into(), forced_one as f64));
        out.push(("king_captures".into(), kings as f64));
        out.push(("gambles".into(), gambles as f64));
        out.push(("turns".into(), turns as f64));
        out
    }
}

#[cfg(test)]
mod tests;

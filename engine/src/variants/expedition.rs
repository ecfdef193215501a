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

impl VariantParams for ExpeditionParams {
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

    /// The piece letter and SAN disambiguation of a move (empty for pawns and castling).
    fn san_prefix(&self, mv: Move, legal: &[ExpeditionAction]) -> String {
        let b = &self.board;
        let Some(piece) = b.piece_at(mv.from()) else {
            return String::new();
        };
        if piece.role == Role::Pawn || mv.is_castle() {
            return String::new();
        }
        let mut s = piece.role.char().to_ascii_uppercase().to_string();
        let others: Vec<Move> = legal
            .iter()
            .filter_map(|a| match *a {
                ExpeditionAction::Move(m) | ExpeditionAction::Attempt(m) => Some(m),
                _ => None,
            })
            .filter(|m| {
                *m != mv
                    && !m.is_castle()
                    && m.to() == mv.to()
                    && b.piece_at(m.from()).map(|p| p.role) == Some(piece.role)
            })
            .collect();
        if !others.is_empty() {
            if !others.iter().any(|m| m.from().file() == mv.from().file()) {
                s.push((b'a' + mv.from().file()) as char);
            } else if !others.iter().any(|m| m.from().rank() == mv.from().rank()) {
                s.push((b'1' + mv.from().rank()) as char);
            } else {
                s.push_str(&mv.from().to_string());
            }
        }
        s
    }

    /// SAN of a certain move or a fully successful attempt, without check marks (the
    /// orthodox `+` means little when checks may be ignored).
    fn san(&self, mv: Move, legal: &[ExpeditionAction]) -> String {
        if mv.is_castle() {
            return if mv.to().file() > mv.from().file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        let b = &self.board;
        let mut s = self.san_prefix(mv, legal);
        if b.captured_piece(mv).is_some() {
            if s.is_empty() {
                s.push((b'a' + mv.from().file()) as char);
            }
            s.push('x');
        }
        s.push_str(&mv.to().to_string());
        if let Some(r) = mv.promotion() {
            s.push('=');
            s.push(r.char().to_ascii_uppercase());
        }
        s
    }

    /// The seed's notation of an attempt cut short: `Qe4(e5,e8)`.
    fn shortened(&self, attempt: Move, max: u8, d: u8, legal: &[ExpeditionAction]) -> String {
        format!(
            "{}{}({},{})",
            self.san_prefix(attempt, legal),
            along(attempt, d),
            along(attempt, max),
            attempt.to()
        )
    }

    /// Every seed-notation move of this turn's start with the actions it stands for.
    fn seed_candidates(&self) -> Vec<(String, Vec<ExpeditionAction>)> {
        let legal = self.actions_vec();
        let mut out = Vec::new();
        for &a in &legal {
            match a {
                ExpeditionAction::Move(m) => out.push((self.san(m, &legal), vec![a])),
                ExpeditionAction::Attempt(m) => {
                    let n = length(m);
                    for (max, _) in self.roll_odds(n) {
                        let roll = ExpeditionAction::Roll(max);
                        if max >= n {
                            out.push((self.san(m, &legal), vec![a, roll]));
                        } else if max == 1 {
                            out.push((self.shortened(m, 1, 1, &legal), vec![a, roll]));
                        } else {
                            let offered = self.offered_distances(m, max);
                            for d in (1..=max).filter(|d| offered & 1 << d != 0) {
                                out.push((
                                    self.shortened(m, max, d, &legal),
                                    vec![a, roll, ExpeditionAction::Distance(d)],
                                ));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Reads one move in the seed's notation (`Nf3`, `O-O`, `Qe8` for a full success,
    /// `Qe4(e5,e8)` for an attempt on e8 cut to e5 that stopped on e4) as the actions
    /// it stands for, from this state (a turn's start).
    pub fn parse_seed_move(&self, text: &str) -> Result<Vec<ExpeditionAction>, GameError> {
        let err = |m: &str| GameError::Action {
            action: text.into(),
            message: m.into(),
        };
        if self.phase != Phase::Start || self.result().is_some() {
            return Err(err("a seed-notation move starts a turn of a running game"));
        }
        let cleaned: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .trim_end_matches(['+', '#', '!', '?'])
            .replace('0', "O");
        self.seed_candidates()
            .into_iter()
            .find(|(s, _)| *s == cleaned)
            .map(|(_, actions)| actions)
            .ok_or_else(|| {
                err("no legal move or possible expedition outcome is written this way here")
            })
    }

    /// The game so far in the seed's notation, one entry per completed move.
    pub fn seed_moves(&self) -> Vec<String> {
        let actions: Vec<ExpeditionAction> = self.history.iter().map(|r| r.action).collect();
        let mut g = self.clone();
        while !g.history.is_empty() {
            g.undo();
        }
        let mut out = Vec::new();
        let mut i = 0;
        while i < actions.len() {
            let legal = g.actions_vec();
            match actions[i] {
                ExpeditionAction::Move(m) => {
                    out.push(g.san(m, &legal));
                    g.apply(actions[i]);
                    i += 1;
                }
                ExpeditionAction::Attempt(m) => {
                    let n = length(m);
                    let full = g.san(m, &legal);
                    let Some(&ExpeditionAction::Roll(max)) = actions.get(i + 1) else {
                        break;
                    };
                    let text = if max >= n {
                        full
                    } else if max == 1 {
                        g.shortened(m, 1, 1, &legal)
                    } else {
                        let Some(&ExpeditionAction::Distance(d)) = actions.get(i + 2) else {
                            break;
                        };
                        g.shortened(m, max, d, &legal)
                    };
                    let used = if max >= n || max == 1 { 2 } else { 3 };
                    for &a in &actions[i..i + used] {
                        g.apply(a);
                    }
                    out.push(text);
                    i += used;
                }
                _ => break,
            }
        }
        out
    }

    /// The game so far as numbered movetext in the seed's notation
    /// (`1. e4 e5 2. Qe4(e5,e8) ...`).
    pub fn seed_movetext(&self) -> String {
        let mut g = self.clone();
        while !g.history.is_empty() {
            g.undo();
        }
        let mut number = g.board.fullmoves();
        let mut white = g.board.turn() == Color::White;
        let mut parts = Vec::new();
        for (i, m) in self.seed_moves().into_iter().enumerate() {
            if white {
                parts.push(format!("{number}. {m}"));
            } else if i == 0 {
                parts.push(format!("{number}... {m}"));
            } else {
                parts.push(m);
            }
            if !white {
                number += 1;
            }
            white = !white;
        }
        parts.join(" ")
    }
}

impl Game for Expedition {
    type Action = ExpeditionAction;
    type Params = ExpeditionParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC.with_chance(true)
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
mod tests {
    use super::*;
    use crate::game::{conformance, replay};

    fn pos(fen: &str) -> Expedition {
        Expedition::from_opening(&ExpeditionParams::default(), fen).unwrap()
    }

    fn tokens(g: &Expedition) -> Vec<String> {
        let mut v = Vec::new();
        if let Turn::Seat(s) = g.turn() {
            g.legal_actions(s, &mut v);
        }
        let mut t: Vec<String> = v.into_iter().map(|a| g.action_notation(a)).collect();
        t.sort();
        t
    }

    fn act(g: &Expedition, text: &str) -> ExpeditionAction {
        g.parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn piece(g: &Expedition, s: &str) -> Option<char> {
        g.board.piece_at(sq(s)).map(|p| p.char())
    }

    fn tally(g: &Expedition, name: &str) -> f64 {
        g.tallies()
            .into_iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no tally {name}"))
            .1
    }

    #[test]
    fn expedition_conforms_to_the_game_api() {
        let params = ExpeditionParams {
            ply_cap: 160,
            ..Default::default()
        };
        conformance::check(&Expedition::new(&params), 6, 21);
        let mid = Expedition::from_opening(
            &params,
            "r3k2r/pp1q1ppp/2n1bn2/2bpp3/4P3/2NP1N2/PPPBBPPP/R2QK2R w KQkq - 0 1",
        )
        .unwrap();
        conformance::check(&mid, 4, 22);
    }

    #[test]
    fn rule_pawns_knights_kings_and_one_square_slider_moves_are_certain() {
        let g = pos("4k3/8/8/8/8/8/3PQ3/1N2K3 w - - 0 1");
        let mut acts = Vec::new();
        g.legal_actions(0, &mut acts);
        for a in &acts {
            let m = match *a {
                ExpeditionAction::Move(m) | ExpeditionAction::Attempt(m) => m,
                _ => panic!("only moves and attempts at a turn's start"),
            };
            let role = g.board.piece_at(m.from()).unwrap().role;
            let certain = matches!(a, ExpeditionAction::Move(_));
            assert_eq!(
                certain,
                !is_slider(role) || length(m) == 1,
                "{:?} {role:?}",
                m
            );
        }
        for t in ["d2d4", "b1c3", "e1f1", "e2e3", "e2f3"] {
            let h = replay(g.clone(), &[t]).unwrap();
            assert_eq!(h.turn(), Turn::Seat(1), "{t} is played at once");
        }
    }

    #[test]
    fn rule_slider_move_of_two_or_more_squares_is_an_attempt_then_dice() {
        let g = pos("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1");
        let a = act(&g, "e2e5");
        assert_eq!(
            a,
            ExpeditionAction::Attempt(Move::normal(sq("e2"), sq("e5")))
        );
        let h = replay(g.clone(), &["e2e5"]).unwrap();
        assert_eq!(h.turn(), Turn::Chance);
        assert_eq!(h.pending(), Some((Move::normal(sq("e2"), sq("e5")), None)));
        assert_eq!(piece(&h, "e2"), Some('Q'), "nothing moves before the dice");
        assert_ne!(h.state_key(), g.state_key(), "the key covers the attempt");
        let mut out = Vec::new();
        h.chance_outcomes(&mut out);
        let rolls: Vec<ExpeditionAction> = out.iter().map(|o| o.0).collect();
        assert_eq!(
            rolls,
            vec![
                ExpeditionAction::Roll(1),
                ExpeditionAction::Roll(2),
                ExpeditionAction::Roll(3)
            ]
        );
        let full = replay(h.clone(), &["roll:3"]).unwrap();
        assert_eq!(piece(&full, "e5"), Some('Q'));
        assert_eq!(full.turn(), Turn::Seat(1));
    }

    #[test]
    fn rule_chance_odds_are_the_table_folded_over_two_dice() {
        let g = Expedition::new(&ExpeditionParams::default());
        for n in MIN_ATTEMPT..=MAX_ATTEMPT {
            let odds = g.roll_odds(n);
            let total: f64 = odds.iter().map(|o| o.1).sum();
            assert!((total - 1.0).abs() < 1e-12, "row {n} sums to {total}");
            // Brute force over the 36 throws.
            let mut expect = [0u32; 8];
            for a in 1..=6usize {
                for b in 1..=6usize {
                    expect[SEED_TABLE[(n - 2) as usize][a + b - 2] as usize] += 1;
                }
            }
            let distinct: Vec<u8> = (1..=7u8).filter(|&m| expect[m as usize] > 0).collect();
            assert_eq!(odds.iter().map(|o| o.0).collect::<Vec<_>>(), distinct);
            for &(m, p) in &odds {
                assert!((p - expect[m as usize] as f64 / 36.0).abs() < 1e-12);
            }
        }
        // Two spot checks by hand: 2 squares succeed on sums 4..10 (30 of 36); 7
        // squares only on a 7 (6 of 36).
        assert_eq!(g.roll_odds(2), vec![(1, 6.0 / 36.0), (2, 30.0 / 36.0)]);
        let seven = g.roll_odds(7);
        assert_eq!(seven.last(), Some(&(7, 6.0 / 36.0)));
        assert_eq!(seven.first(), Some(&(1, 1.0 / 36.0)));
    }

    #[test]
    fn rule_full_length_attempt_captures() {
        let g = pos("4k3/8/8/4r3/8/8/4Q3/4K3 w - - 0 1");
        let g = replay(g, &["e2e5", "roll:3"]).unwrap();
        assert_eq!(piece(&g, "e5"), Some('Q'));
        assert_eq!(g.board.pieces(Color::Black, Role::Rook).count(), 0);
    }

    #[test]
    fn rule_only_the_full_length_move_captures() {
        let g = pos("4k3/8/8/4r3/8/8/4Q3/4K3 w - - 0 1");
        let h = replay(g, &["e2e5", "roll:2"]).unwrap();
        assert_eq!(h.turn(), Turn::Seat(0), "the mover chooses");
        assert_eq!(tokens(&h), vec!["go:e3", "go:e4"], "no choice reaches e5");
        let h = replay(h, &["go:e4"]).unwrap();
        assert_eq!(piece(&h, "e4"), Some('Q'));
        assert_eq!(piece(&h, "e5"), Some('r'), "the rook survives");
    }

    #[test]
    fn rule_shortened_attempt_chooses_any_distance_up_to_the_roll_on_the_same_ray() {
        let g = pos("4k3/7p/8/8/8/8/7P/B3K3 w - - 0 1");
        let h = replay(g, &["a1g7", "roll:4"]).unwrap();
        assert_eq!(
            h.pending(),
            Some((Move::normal(sq("a1"), sq("g7")), Some(4)))
        );
        assert_eq!(tokens(&h), vec!["go:b2", "go:c3", "go:d4", "go:e5"]);
        assert_eq!(act(&h, "go:3"), ExpeditionAction::Distance(3));
        assert!(h.parse_action("go:f6").is_err(), "beyond the roll");
        assert!(h.parse_action("go:b1").is_err(), "off the ray");
        let h = replay(h, &["go:c3"]).unwrap();
        assert_eq!(piece(&h, "c3"), Some('B'));
        assert_eq!(h.turn(), Turn::Seat(1));
    }

    #[test]
    fn rule_roll_of_one_moves_one_square_without_a_decision() {
        let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let h = replay(g, &["a1a8", "roll:1"]).unwrap();
        assert_eq!(piece(&h, "a2"), Some('R'));
        assert_eq!(h.turn(), Turn::Seat(1), "no second decision");
        assert_eq!(h.seed_moves(), vec!["Ra2(a2,a8)"]);
    }

    #[test]
    fn rule_distant_slider_attack_may_be_ignored_or_walked_into() {
        // The black rook on e8 checks the white king on e1 from seven squares away.
        let g = pos("4r3/8/8/8/8/8/P7/4K2k w - - 0 1");
        let t = tokens(&g);
        assert!(t.contains(&"a2a3".to_string()), "leave the check: a gamble");
        assert!(
            t.contains(&"e1e2".to_string()),
            "step along the checking file"
        );
        let h = replay(g, &["a2a3"]).unwrap();
        assert_eq!(tally(&h, "gambles"), 1.0);
        // Black may now try to take the king: an attempt of 7 squares.
        assert_eq!(
            act(&h, "e8e1"),
            ExpeditionAction::Attempt(Move::normal(sq("e8"), sq("e1")))
        );
        // Walking into a distant check is allowed too (the a2 pawn: no lone king).
        let g = pos("4r3/8/8/8/8/8/P7/3K3k w - - 0 1");
        let t = tokens(&g);
        assert!(t.contains(&"d1e1".to_string()) && t.contains(&"d1e2".to_string()));
    }

    #[test]
    fn rule_certain_attackers_make_a_move_illegal() {
        // The knight on d3 checks e1 and covers f2: the king must step to d1, d2, e2 or f1.
        let g = pos("7k/8/8/8/8/3n4/P7/4K3 w - - 0 1");
        assert_eq!(tokens(&g), vec!["e1d1", "e1d2", "e1e2", "e1f1"]);
        // Pawn on e3 covers d2 and f2; the king next door covers its ring.
        let g = pos("8/8/8/8/8/4pk2/8/4K3 w - - 0 1");
        let t = tokens(&g);
        assert!(!t.contains(&"e1d2".to_string()), "pawn: {t:?}");
        assert!(!t.contains(&"e1f2".to_string()), "pawn and king: {t:?}");
        assert!(!t.contains(&"e1e2".to_string()), "king: {t:?}");
        assert!(t.contains(&"e1d1".to_string()));
    }

    #[test]
    fn rule_adjacent_slider_attack_is_certain() {
        // The black rook on d2 attacks e2 from next door (certain) and f2, g2 from afar.
        // (White's a4 pawn, blocked, keeps the king from being a lone king.)
        let g = pos("7k/8/8/p7/P7/8/3r4/5K2 w - - 0 1");
        assert_eq!(tokens(&g), vec!["f1e1", "f1f2", "f1g1", "f1g2"]);
        // A queen next to the king must be answered: take it or step off its reach
        // (f1 stays on its rank two squares away: a gamble, allowed).
        let g = pos("7k/8/8/p7/P7/8/8/3qK3 w - - 0 1");
        assert_eq!(tokens(&g), vec!["e1d1", "e1f1", "e1f2"]);
    }

    #[test]
    fn rule_castling_is_certain_and_orthodox() {
        let g = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        let t = tokens(&g);
        assert!(t.contains(&"e1g1".to_string()) && t.contains(&"e1c1".to_string()));
        let h = replay(g.clone(), &["e1c1"]).unwrap();
        assert_eq!(
            h.turn(),
            Turn::Seat(1),
            "the rook's three squares are no expedition"
        );
        assert_eq!(piece(&h, "d1"), Some('R'));
        // Out of check from afar: not allowed, though the king could stay in it.
        let g = pos("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        let t = tokens(&g);
        assert!(!t.contains(&"e1g1".to_string()) && !t.contains(&"e1c1".to_string()));
        // Through an attack (f1, by a distant bishop) and into one (c1, a distant rook).
        let g = pos("2r3k1/8/8/8/8/7b/8/R3K2R w KQ - 0 1");
        let t = tokens(&g);
        assert!(!t.contains(&"e1g1".to_string()), "through f1: {t:?}");
        assert!(!t.contains(&"e1c1".to_string()), "into c1: {t:?}");
        // b1 attacked does not matter for the long castle (the king does not cross it).
        let g = pos("1r4k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(tokens(&g).contains(&"e1c1".to_string()));
    }

    #[test]
    fn rule_king_capture_wins() {
        let g = pos("7k/8/8/8/8/8/8/4K2R w - - 0 1");
        let h = replay(g, &["h1h8", "roll:7"]).unwrap();
        let r = h.result().expect("the king is taken");
        assert_eq!(r.reason, "king-captured");
        assert_eq!(r.returns[0], 1.0);
        assert_eq!(h.turn(), Turn::Terminal);
        assert_eq!(tally(&h, "king_captures"), 1.0);
        assert!(tokens(&h).is_empty());
    }

    #[test]
    fn rule_no_moves_under_certain_attack_loses() {
        // Smothered: the knight on f2 checks h1 and nothing can answer it.
        let g = pos("7k/8/8/8/8/8/5nPP/6RK w - - 0 1");
        let r = g.result().expect("no legal action");
        assert_eq!(r.reason, "checkmate");
        assert_eq!(r.returns[1], 1.0);
        // The knight on f1 gives no check: play goes on.
        let g = pos("7k/8/8/8/8/8/6PP/5nRK w - - 0 1");
        assert!(g.result().is_none());
    }

    #[test]
    fn rule_no_moves_without_certain_attack_is_stalemate() {
        // a2, b2 next to the black king and b1 under the knight: no legal action; the
        // king on a1 is attacked only by the distant rook, so it is stalemate. (White's
        // blocked a4 pawn: not a lone king, which would be mated.)
        let g = pos("8/8/p7/P7/8/1k6/3n4/K6r w - - 0 1");
        let r = g.result().expect("no legal action");
        assert_eq!(r.reason, "stalemate");
        assert_eq!(r.returns[0], 0.0);
        // Seed: a king that can only step into distant checks must do so.
        let g = pos("7k/8/8/p7/P7/8/7r/K5r1 w - - 0 1");
        assert_eq!(tokens(&g), vec!["a1a2", "a1b1", "a1b2"]);
        assert!(g.result().is_none());
    }

    #[test]
    fn rule_lone_king_is_checkmated_by_a_distant_queen() {
        // Issue 11: the queen checks a8 from h8; b8 (the queen's rank) and a7, b7 (the
        // white king) are all attacked, and a lone king may not step into any attack.
        let g = pos("k6Q/8/1K6/8/8/8/8/8 b - - 0 1");
        assert!(g.lone_king(Color::Black));
        assert!(tokens(&g).is_empty());
        let r = g.result().expect("no legal move");
        assert_eq!(r.reason, "checkmate");
        assert_eq!(r.returns[0], 1.0);
        // With a pawn to spare Black is not bound: Kb8 is a gamble on the dice.
        let g = pos("k6Q/7p/1K6/8/8/8/8/8 b - - 0 1");
        assert!(tokens(&g).contains(&"a8b8".to_string()));
        assert!(g.result().is_none());
    }

    #[test]
    fn rule_lone_king_must_leave_every_check_and_not_step_into_attack() {
        // The e8 rook checks the lone white king from afar: staying on the file (e2) is
        // no longer a gamble it may take.
        let g = pos("4r3/8/8/8/8/8/8/4K2k w - - 0 1");
        assert_eq!(tokens(&g), vec!["e1d1", "e1d2", "e1f1", "e1f2"]);
        // Not in check, it may not walk into the rook's file either.
        let g = pos("4r3/8/8/8/8/8/8/3K3k w - - 0 1");
        assert_eq!(tokens(&g), vec!["d1c1", "d1c2", "d1d2"]);
        // With a pawn to spare, walking into the file is a gamble again.
        let g = pos("4r3/8/8/8/8/8/P7/3K3k w - - 0 1");
        assert!(tokens(&g).contains(&"d1e2".to_string()));
    }

    #[test]
    fn rule_lone_king_without_moves_or_check_is_stalemated() {
        // The queen covers a7, b7 and b8 but not a8: stalemate. Without the lone-king
        // rule Kb8 (two squares from the queen) would be a gamble.
        let g = pos("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
        let r = g.result().expect("no legal move");
        assert_eq!(r.reason, "stalemate");
        assert_eq!(r.returns[0], 0.0);
    }

    #[test]
    fn rule_cut_short_attempt_offers_safe_distances_else_every_distance() {
        // The e2 rook's attempt on e7 cut to 3: every stop e3..e5 leaves the white king
        // safe from certain attackers, so all three are offered.
        let g = pos("k7/8/8/8/8/8/4R3/K7 w - - 0 1");
        let h = replay(g, &["e2e7", "roll:3"]).unwrap();
        assert_eq!(tokens(&h), vec!["go:e3", "go:e4", "go:e5"]);
        // The knight on f3 checks the white king; only the full move takes it. After a
        // roll of 2 no stop is safe, so every distance is offered (see
        // `rule_shortened_outcome_may_leave_the_king_to_be_captured`).
        let g = pos("5R2/k7/8/8/8/5n2/8/4K3 w - - 0 1");
        let h = replay(g, &["f8f3", "roll:2"]).unwrap();
        assert_eq!(tokens(&h), vec!["go:f6", "go:f7"]);
    }

    #[test]
    fn rule_shortened_outcome_may_leave_the_king_to_be_captured() {
        // The knight on f3 checks the white king. The rook on f8 attempts to take it
        // (5 squares): legal by its full-length result. A roll of 2 leaves the knight in
        // place; no distance is safe, so every one is offered and black takes the king.
        let g = pos("5R2/k7/8/8/8/5n2/8/4K3 w - - 0 1");
        let t = tokens(&g);
        assert!(t.contains(&"f8f3".to_string()), "{t:?}");
        assert!(
            !t.contains(&"f8f4".to_string()),
            "leaves the knight's check"
        );
        let h = replay(g, &["f8f3", "roll:2", "go:f6"]).unwrap();
        assert_eq!(h.turn(), Turn::Seat(1));
        assert!(tokens(&h).contains(&"f3e1".to_string()));
        let h = replay(h, &["f3e1"]).unwrap();
        let r = h.result().unwrap();
        assert_eq!(r.reason, "king-captured");
        assert_eq!(r.returns[1], 1.0);
    }

    #[test]
    fn rule_capturing_the_king_is_legal_even_if_the_own_king_hangs() {
        // The queen next to the white king is a certain attack; any rook move but the
        // attempt on the black king leaves it. Taking the king ends the game at once.
        let g = pos("7R/8/8/8/8/8/1q5k/K7 w - - 0 1");
        assert_eq!(tokens(&g), vec!["a1b2", "h8h2"]);
    }

    #[test]
    fn rule_orthodox_draws_and_the_ply_cap() {
        let g = pos("4k3/8/8/8/8/8/8/4KB2 w - - 0 1");
        assert_eq!(g.result().unwrap().reason, "insufficient-material");
        let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
        let h = replay(g, &["e1d1"]).unwrap();
        assert_eq!(h.result().unwrap().reason, "fifty-moves");
        let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let h = replay(
            g.clone(),
            &[
                "e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1", "d8e8",
            ],
        )
        .unwrap();
        assert_eq!(h.result().unwrap().reason, "repetition");
        // Through expeditions too: only turn starts are compared.
        let cycle = ["a1a3", "roll:2", "e8d8", "a3a1", "roll:2", "d8e8"];
        let h = replay(g.clone(), &cycle).unwrap();
        let h = replay(h, &cycle[..cycle.len() - 1]).unwrap();
        assert!(h.result().is_none());
        let h = replay(h, &["d8e8"]).unwrap();
        assert_eq!(h.result().unwrap().reason, "repetition");
        let capped = Expedition::from_opening(
            &ExpeditionParams {
                ply_cap: 2,
                ..Default::default()
            },
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        )
        .unwrap();
        let h = replay(capped.clone(), &["e1d1"]).unwrap();
        assert!(h.result().is_none());
        let h = replay(capped, &["e1d1", "e8d8"]).unwrap();
        assert_eq!(h.result().unwrap().reason, "cap");
        // Attempts and rolls in between do not count as plies.
        let h = replay(g, &["a1a5", "roll:2", "go:a3", "e8d8", "a3a1", "roll:2"]);
        let h = h.unwrap();
        assert_eq!(h.board.ply(), 3);
    }

    #[test]
    fn rule_notation_seed_example_round_trips() {
        let g = pos("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1");
        let actions = g.parse_seed_move("Qe4(e5,e8)").unwrap();
        assert_eq!(
            actions,
            vec![
                ExpeditionAction::Attempt(Move::normal(sq("e2"), sq("e8"))),
                ExpeditionAction::Roll(3),
                ExpeditionAction::Distance(2)
            ]
        );
        let mut h = g.clone();
        for &a in &actions {
            h.apply(a);
        }
        assert_eq!(piece(&h, "e4"), Some('Q'));
        assert_eq!(h.seed_moves(), vec!["Qe4(e5,e8)"]);
        assert_eq!(h.seed_movetext(), "1. Qe4(e5,e8)");
        // The record tokens of the same move.
        let mut rec = Vec::new();
        let mut k = g.clone();
        for &a in &actions {
            rec.push(k.action_notation(a));
            k.apply(a);
        }
        assert_eq!(rec, vec!["e2e8", "roll:3", "go:e4"]);
    }

    #[test]
    fn rule_notation_full_success_is_plain_san() {
        let g = pos("4k3/8/8/4r3/8/8/4Q3/4K3 w - - 0 1");
        let a = g.parse_seed_move("Qxe5").unwrap();
        assert_eq!(a.len(), 2);
        let h = replay(g.clone(), &["e2e5", "roll:3"]).unwrap();
        assert_eq!(h.seed_moves(), vec!["Qxe5"]);
        let h = replay(h, &["e8d8", "e1f1"]).unwrap();
        assert_eq!(h.seed_movetext(), "1. Qxe5 Kd8 2. Kf1");
        assert!(
            g.parse_seed_move("Qe6(e5,e8)").is_err(),
            "e8 is behind the rook"
        );
        assert_eq!(
            g.parse_seed_move("Qe3(e3,e5)").unwrap().len(),
            2,
            "a roll of 1 needs no choice"
        );
    }

    #[test]
    fn rule_notation_bad_tokens_are_errors_not_panics() {
        let g = Expedition::new(&ExpeditionParams::default());
        for bad in [
            "",
            "e2e5",
            "roll:2",
            "go:e4",
            "zz",
            "e7e5",
            "Qh5(h4,h5)",
            "é",
        ] {
            assert!(g.parse_action(bad).is_err(), "{bad}");
            assert!(g.parse_seed_move(bad).is_err(), "{bad}");
        }
        let h = replay(g, &["e2e4", "e7e5"]).unwrap();
        let h = replay(h, &["d1h5"]).unwrap();
        for bad in ["e2e4", "roll:9", "roll:x", "go:h5"] {
            assert!(h.parse_action(bad).is_err(), "{bad}");
        }
        assert!(h.parse_seed_move("Qh5").is_err(), "mid-turn");
    }

    #[test]
    fn rule_params_table_override_from_toml() {
        let rows: Vec<String> = (2..=7)
            .map(|n| format!("[{}]", vec![n.to_string(); 11].join(", ")))
            .collect();
        let text = format!("ply_cap = 50\ntable = [{}]", rows.join(", "));
        let p: ExpeditionParams =
            crate::registry::parse_params("expedition", Some(&text), ExpeditionParams::default())
                .unwrap();
        p.validate().unwrap();
        assert_eq!(p.ply_cap, 50);
        let g = Expedition::from_opening(&p, "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1").unwrap();
        for n in 2..=7 {
            assert_eq!(g.roll_odds(n), vec![(n, 1.0)], "all-success row {n}");
        }
        let h = replay(g, &["e2e8"]).unwrap();
        let mut out = Vec::new();
        h.chance_outcomes(&mut out);
        assert_eq!(out, vec![(ExpeditionAction::Roll(6), 1.0)]);
    }

    #[test]
    fn rule_bad_table_is_rejected() {
        let mut p = ExpeditionParams::default();
        p.table[1][4] = 4;
        let e = p.validate().unwrap_err();
        assert_eq!(e.field, "table");
        assert!(e.to_string().contains("3 squares"), "{e}");
        let mut p = ExpeditionParams::default();
        p.table[0][0] = 0;
        assert!(p.validate().is_err());
        let mut p = ExpeditionParams::default();
        p.table.pop();
        assert!(p.validate().unwrap_err().to_string().contains("6 rows"));
        let mut p = ExpeditionParams::default();
        p.table[5].push(1);
        assert!(p.validate().unwrap_err().to_string().contains("11 entries"));
        // Entry points refuse it through the registry (rule_registry_reads_and_validates_...);
        // `new` clamps rather than panicking.
        let g = Expedition::new(&p);
        assert!((g.roll_odds(7).iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(
            crate::registry::parse_params::<ExpeditionParams>(
                "expedition",
                Some("dice = 3"),
                ExpeditionParams::default()
            )
            .is_err(),
            "unknown keys are errors"
        );
    }

    #[test]
    fn rule_registry_reads_and_validates_expedition_params() {
        use crate::registry::{visit, VariantVisitor};
        struct Cap;
        impl VariantVisitor for Cap {
            type Output = String;
            fn visit<G: Game>(self, name: &'static str, params: G::Params) -> String {
                let g = G::new(&params);
                format!("{name} {}", g.num_seats())
            }
        }
        assert_eq!(visit("expedition", None, Cap).unwrap(), "expedition 2");
        assert_eq!(
            visit("expedition", Some("ply_cap = 10"), Cap).unwrap(),
            "expedition 2"
        );
        let e = visit("expedition", Some("table = [[1, 1]]"), Cap).unwrap_err();
        assert!(matches!(e, GameError::Params { .. }), "{e}");
    }

    #[test]
    fn rule_tallies_count_from_history_and_undo_restores_them() {
        let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let mut h = replay(g, &["a1a8"]).unwrap();
        assert_eq!(tally(&h, "attempts_n7"), 1.0);
        assert_eq!(tally(&h, "full_n7"), 0.0);
        assert_eq!(tally(&h, "turns"), 1.0, "the attempt starts a turn");
        let before = h.tallies();
        let roll = act(&h, "roll:7");
        h.apply(roll);
        assert_eq!(tally(&h, "full_n7"), 1.0);
        assert_eq!(tally(&h, "turns"), 1.0, "the roll does not");
        h.undo();
        assert_eq!(h.tallies(), before);
        let names: Vec<String> = h.tallies().into_iter().map(|t| t.0).collect();
        for n in 2..=7 {
            assert!(names.contains(&format!("attempts_n{n}")));
            assert!(names.contains(&format!("full_n{n}")));
        }
        assert!(names.contains(&"king_captures".to_string()));
    }

    #[test]
    fn rule_from_opening_needs_a_fen_with_both_kings() {
        assert!(matches!(
            Expedition::from_opening(&ExpeditionParams::default(), "8/8/8/8/8/8/8/4K3 w - - 0 1"),
            Err(GameError::Opening { .. })
        ));
        assert!(Expedition::from_opening(&ExpeditionParams::default(), "nonsense").is_err());
        // Either king may stand in a distant check, both at once too.
        let g = pos("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1");
        assert_eq!(g.board.turn(), Color::White);
        let g = pos("r3k3/8/8/8/8/8/4Q3/4K2R w Kq - 3 9");
        assert_eq!((g.board.turn(), g.board.halfmoves()), (Color::White, 3));
        assert_eq!(g.board.castling_rights().count(), 2);
        let g = pos("4k2R/8/8/8/8/8/8/r3K3 w - - 0 1");
        assert!(g.board.is_consistent());
        assert_eq!(g.board.pieces(Color::Black, Role::Rook).count(), 1);
        assert!(matches!(
            Expedition::from_opening(&ExpeditionParams::default(), "8/8/8/8/8/8/8/3kK3 w - - 0 1"),
            Err(GameError::Opening { .. })
        ));
    }

    #[test]
    fn seeded_random_game_replays_from_its_record() {
        use rand::{Rng, SeedableRng};
        let start = Expedition::new(&ExpeditionParams::default());
        let mut rng = rand_pcg::Pcg64::seed_from_u64(77);
        let mut g = start.clone();
        let mut record = Vec::new();
        let mut acts = Vec::new();
        let mut outs = Vec::new();
        loop {
            let a = match g.turn() {
                Turn::Terminal => break,
                Turn::Seat(s) => {
                    g.legal_actions(s, &mut acts);
                    acts[rng.gen_range(0..acts.len())]
                }
                Turn::Chance => {
                    g.chance_outcomes(&mut outs);
                    outs[rng.gen_range(0..outs.len())].0
                }
                Turn::Simultaneous => unreachable!(),
            };
            record.push(g.action_notation(a));
            g.apply(a);
        }
        let refs: Vec<&str> = record.iter().map(String::as_str).collect();
        let replayed = replay(start.clone(), &refs).unwrap();
        assert_eq!(replayed.state_key(), g.state_key());
        assert_eq!(replayed.result(), g.result());
        assert_eq!(replayed.tallies(), g.tallies());
        // The seed-notation move list reads back to the same game too.
        let mut again = start;
        for m in g.seed_moves() {
            for a in again
                .parse_seed_move(&m)
                .unwrap_or_else(|e| panic!("{m}: {e}"))
            {
                again.apply(a);
            }
        }
        assert_eq!(again.state_key(), g.state_key());
    }
}

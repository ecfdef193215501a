//! Adrenaline Chess (chess-kit seed "Adrenaline Chess"; docs/RULES.md "Adrenaline Chess").
//!
//! - After a turn with one or more captures the capturer places one checker (parameter:
//!   `checkers_per_capture`) under one of the opponent's remaining pieces; stacks allowed,
//!   while the supply (`checkers_total`, 24) lasts.
//! - A piece with k checkers makes a regular move (the stack travels), then up to k extra
//!   king steps, each spending one checker; steps may capture, and a capturing piece takes
//!   over the captured piece's checkers and may spend them at once.
//! - A piece with k checkers attacks every square it reaches by a regular move followed by
//!   up to k king steps; check and checkmate use these attacks.
//! - The mover's king must not be attacked after the regular move nor after any step,
//!   nor after the checker placement: a checker may not go under an enemy piece whose
//!   new reach would attack the placer's king; with no such piece left, the capture
//!   earns no checker (decision; tested).
//! - No castling if king or rook carries checkers; the king may not start, cross or land
//!   on an attacked square (adrenaline included). En passant only after a regular double
//!   step and only as a regular move. A pawn promotes on arrival and may then step on.
//!
//! A turn is a compound of decisions by the same seat: the regular move, then each extra
//! step (`stop` ends them), then the checker placement (`+e7`).
//!
//! Decisions where the texts are silent (tested below): a pawn that reaches the last rank
//! by an extra step becomes a queen; a piece's reach counts the checkers it would win by
//! capturing on the way (the seed's example mate relies on it); extra steps are recorded on the board as null move + step, so the halfmove
//! clock counts them (the 50-move rule then comes a little sooner).

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
use crate::variants::{common_draw, no_moves_result, pseudo_moves};
use crate::zobrist;
use serde::{Deserialize, Serialize};

/// Tunable numbers of Adrenaline Chess.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct AdrenalineParams {
    pub ply_cap: u32,
    /// Checkers placed after a turn with captures.
    pub checkers_per_capture: u8,
    /// The checkers in the box.
    pub checkers_total: u32,
}

impl Default for AdrenalineParams {
    fn default() -> Self {
        AdrenalineParams {
            ply_cap: 400,
            checkers_per_capture: 1,
            checkers_total: 24,
        }
    }
}

impl VariantParams for AdrenalineParams {
    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        if self.checkers_per_capture == 0 {
            return Err(InvalidParams::new(
                "checkers_per_capture",
                "must be at least 1 (the seed places one checker per capturing turn)",
            ));
        }
        if self.checkers_total == 0 {
            return Err(InvalidParams::new(
                "checkers_total",
                "must be at least 1 (the seed's box holds 24)",
            ));
        }
        Ok(())
    }
}

/// One decision within a turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AdrenalineAction {
    /// The regular chess move.
    Move(Move),
    /// An extra king step of the piece that just moved, spending one checker.
    Step(Square),
    /// No more extra steps this turn.
    Stop,
    /// Place a checker under the opponent's piece on this square.
    Place(Square),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum Phase {
    Regular,
    /// Extra steps of the piece now on this square.
    Steps(Square),
    Place,
}

/// Per-side counts over the game, for `tallies` (index = colour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    /// Checkers placed after captures.
    placed: [u32; 2],
    /// Extra king steps taken (each spends a checker).
    steps: [u32; 2],
    /// Checkers won by capturing a piece that carried them.
    taken_over: [u32; 2],
}

#[derive(Clone, Debug)]
struct Saved {
    stacks: [u8; 64],
    phase: Phase,
    captured_this_turn: bool,
    placed: u32,
    counts: Counts,
    board_plies: u8,
    key: u64,
}

/// An Adrenaline game.
#[derive(Clone, Debug)]
pub struct Adrenaline {
    board: Board,
    params: AdrenalineParams,
    /// Checkers under the piece on each square.
    stacks: [u8; 64],
    phase: Phase,
    captured_this_turn: bool,
    /// Checkers placed so far (from the box).
    placed: u32,
    counts: Counts,
    undo: Vec<Saved>,
}

impl Adrenaline {
    pub fn from_board(board: Board, params: AdrenalineParams) -> Adrenaline {
        Adrenaline {
            board,
            params,
            stacks: [0; 64],
            phase: Phase::Regular,
            captured_this_turn: false,
            placed: 0,
            counts: Counts::default(),
            undo: Vec::new(),
        }
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// Checkers under the piece on `sq`.
    pub fn stack(&self, sq: Square) -> u8 {
        self.stacks[sq.index()]
    }

    /// Checkers spent or placed so far.
    pub fn checkers_placed(&self) -> u32 {
        self.placed
    }

    /// The seat deciding now (the mover keeps deciding through steps and placement).
    fn actor(&self) -> Color {
        match self.phase {
            Phase::Regular => self.board.turn(),
            _ => self.board.turn().other(),
        }
    }

    /// Squares the piece of `color` on `sq` reaches: a regular move, then king steps
    /// while checkers last (never onto its own side's pieces). Landing on an enemy piece
    /// takes over its checkers, as the seed's example mate with the pumped-up bishop needs.
    fn reach(&self, sq: Square, color: Color, stacks: &[u8; 64]) -> Bitboard {
        let b = &self.board;
        let occ = b.occupied();
        let own = b.by_color(color);
        let role = b.piece_at(sq).expect("piece").role;
        let regular = match role {
            Role::Pawn => {
                let push = Bitboard::from_square(sq).forward(color) - occ;
                let double = if Bitboard::relative_rank(color, 1).contains(sq) {
                    push.forward(color) - occ
                } else {
                    Bitboard::EMPTY
                };
                attacks::pawn_attacks(color, sq) | push | double
            }
            r => attacks::attacks(r, color, sq, occ),
        };
        // Enemy pieces with checkers: taking one hands its checkers over, once.
        let prizes: Vec<Square> = b
            .by_color(color.other())
            .filter(|t| stacks[t.index()] > 0)
            .take(8)
            .collect();
        let prize_bit = |t: Square| prizes.iter().position(|&p| p == t).map(|i| 1usize << i);
        let mut reached = regular;
        // The most checkers the piece can hold on each (square, prizes taken) state.
        let states = 64usize << prizes.len();
        let mut best = vec![-1i32; states];
        let mut queue: Vec<(Square, usize)> = Vec::new();
        let arrive = |t: Square, mask: usize, left: i32| -> (usize, i32) {
            match prize_bit(t) {
                Some(bit) if mask & bit == 0 => (mask | bit, left + stacks[t.index()] as i32),
                _ => (mask, left),
            }
        };
        let own_stack = stacks[sq.index()] as i32;
        for d in regular - own {
            let (mask, left) = arrive(d, 0, own_stack);
            let slot = (mask << 6) | d.index();
            if left > best[slot] {
                best[slot] = left;
                if left > 0 {
                    queue.push((d, mask));
                }
            }
        }
        while let Some((at, mask)) = queue.pop() {
            let left = best[(mask << 6) | at.index()];
            for t in attacks::king_attacks(at) {
                reached.set(t);
                if own.contains(t) {
                    continue;
                }
                let (mask2, left2) = arrive(t, mask, left - 1);
                let slot = (mask2 << 6) | t.index();
                if left2 > best[slot] {
                    best[slot] = left2;
                    if left2 > 0 {
                        queue.push((t, mask2));
                    }
                }
            }
        }
        reached
    }

    /// Whether `by` attacks `target` (adrenaline reach included).
    fn attacked(&self, target: Square, by: Color) -> bool {
        self.attacked_with(target, by, &self.stacks)
    }

    /// `attacked` with the checkers of `stacks` instead of the position's own, so a
    /// placement can be judged without copying the game.
    fn attacked_with(&self, target: Square, by: Color, stacks: &[u8; 64]) -> bool {
        if self
            .board
            .attackers_to(target, by, self.board.occupied())
            .any()
        {
            return true;
        }
        let stacked: Bitboard = self
            .board
            .occupied()
            .filter(|s| stacks[s.index()] > 0)
            .collect();
        if stacked.is_empty() {
            return false;
        }
        let occ = self.board.occupied();
        self.board.by_color(by).any_square(|sq| {
            // Only a piece with checkers, or one that can capture a stacked piece, reaches
            // further than its orthodox attacks.
            let role = self.board.piece_at(sq).expect("piece").role;
            let may_gain = (attacks::attacks(role, by, sq, occ) & stacked).any();
            (stacked.contains(sq) || may_gain) && self.reach(sq, by, stacks).contains(target)
        })
    }

    fn king_attacked(&self, color: Color) -> bool {
        self.board
            .king(color)
            .is_some_and(|k| self.attacked(k, color.other()))
    }

    /// The side to move is in check (by adrenaline reach too).
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.actor())
    }

    fn pseudo_regular(&self, out: &mut MoveList) {
        let occ = self.board.occupied();
        pseudo_moves(&self.board, out, Bitboard::FULL, |_| occ, |_, _| true);
        let b = &self.board;
        let us = b.turn();
        let Some(king) = b.king(us) else { return };
        if self.stacks[king.index()] > 0 || !Bitboard::relative_rank(us, 0).contains(king) {
            return;
        }
        for rook in b.castling_rights() & b.pieces(us, Role::Rook) {
            if self.stacks[rook.index()] > 0 {
                continue;
            }
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let must_be_empty = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                .without(king)
                .without(rook);
            if (must_be_empty & occ).any() {
                continue;
            }
            let path = between(king, kd).with(kd).with(king);
            if path.any_square(|s| self.attacked(s, us.other())) {
                continue;
            }
            out.push(Move::new(king, rook, MoveKind::Castle));
        }
    }

    fn regular_moves(&self) -> Vec<Move> {
        let mut pseudo = MoveList::new();
        self.pseudo_regular(&mut pseudo);
        let mut probe = self.clone();
        let us = self.board.turn();
        let mut legal = Vec::with_capacity(pseudo.len());
        for &mv in pseudo.iter() {
            probe.apply(AdrenalineAction::Move(mv));
            if !probe.king_attacked(us) {
                legal.push(mv);
            }
            probe.undo();
        }
        legal
    }

    fn steps(&self, from: Square) -> Vec<Square> {
        let us = self.actor();
        let targets = attacks::king_attacks(from) - self.board.by_color(us);
        let mut probe = self.clone();
        let mut legal = Vec::new();
        for to in targets {
            probe.apply(AdrenalineAction::Step(to));
            if !probe.king_attacked(us) {
                legal.push(to);
            }
            probe.undo();
        }
        legal
    }

    fn can_place(&self) -> bool {
        self.placed + self.params.checkers_per_capture as u32 <= self.params.checkers_total
    }

    fn after_piece_arrives(&mut self, at: Square) {
        self.phase = if self.stacks[at.index()] > 0 {
            Phase::Steps(at)
        } else {
            self.turn_end_phase()
        };
    }

    fn turn_end_phase(&self) -> Phase {
        // Called once the capturer's piece has finished moving: the board's side to move
        // is already the opponent, whose pieces receive the checker.
        let placer = self.board.turn().other();
        if self.captured_this_turn
            && self.can_place()
            && self.safe_placements(placer).next().is_some()
        {
            Phase::Place
        } else {
            Phase::Regular
        }
    }

    /// The opponent's pieces a checker may go under: those whose new reach would not
    /// attack the placer's own king (a placement is part of the placer's turn, and no
    /// part of a turn may leave the mover's king attacked).
    fn safe_placements(&self, placer: Color) -> impl Iterator<Item = Square> + '_ {
        let n = self.params.checkers_per_capture;
        let king = self.board.king(placer);
        self.board.by_color(placer.other()).filter(move |sq| {
            let mut stacks = self.stacks;
            stacks[sq.index()] += n;
            !king.is_some_and(|k| self.attacked_with(k, placer.other(), &stacks))
        })
    }

    fn key_of(&self) -> u64 {
        let mut k = self.board.key();
        for sq in self.board.occupied() {
            let n = self.stacks[sq.index()];
            if n > 0 {
                k ^= zobrist::extra(20_000 + sq.index() as u64 * 64 + n as u64);
            }
        }
        k ^ match self.phase {
            Phase::Regular => 0,
            Phase::Steps(s) => zobrist::extra(30_000 + s.index() as u64),
            Phase::Place => zobrist::extra(30_100),
        } ^ if self.captured_this_turn {
            zobrist::extra(30_200)
        } else {
            0
        }
    }
}

impl Game for Adrenaline {
    type Action = AdrenalineAction;
    type Params = AdrenalineParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
    }

    fn new(params: &AdrenalineParams) -> Adrenaline {
        Adrenaline::from_board(Board::startpos(), params.clone())
    }

    /// An opening is a FEN, optionally followed by `|` and stacks as `square=count`
    /// (`... w - - 0 1 | c1=3 h5=1`).
    fn from_opening(params: &AdrenalineParams, opening: &str) -> Result<Adrenaline, GameError> {
        let (fen, stacks) = opening.split_once('|').unwrap_or((opening, ""));
        let board = Board::from_fen(fen.trim()).map_err(|e| GameError::opening_fen(opening, e))?;
        let mut g = Adrenaline::from_board(board, params.clone());
        for item in stacks.split_whitespace() {
            let bad = || {
                GameError::opening(
                    opening,
                    format!("stack '{item}': expected square=count on an occupied square"),
                )
            };
            let (s, n) = item.split_once('=').ok_or_else(bad)?;
            let sq = Square::parse(s).ok_or_else(bad)?;
            let n: u8 = n.parse().map_err(|_| bad())?;
            if g.board.piece_at(sq).is_none() {
                return Err(bad());
            }
            g.stacks[sq.index()] = n;
            g.placed += n as u32;
        }
        Ok(g)
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.result().is_some() {
            Turn::Terminal
        } else {
            Turn::Seat(self.actor().index())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<AdrenalineAction>) {
        out.clear();
        if seat != self.actor().index() || self.draw_reason().is_some() {
            return;
        }
        match self.phase {
            Phase::Regular => {
                out.extend(self.regular_moves().into_iter().map(AdrenalineAction::Move))
            }
            Phase::Steps(at) => {
                out.push(AdrenalineAction::Stop);
                out.extend(self.steps(at).into_iter().map(AdrenalineAction::Step));
            }
            Phase::Place => out.extend(
                self.safe_placements(self.actor())
                    .map(AdrenalineAction::Place),
            ),
        }
    }

    fn apply(&mut self, action: AdrenalineAction) {
        let actor = self.actor().index();
        let mut saved = Saved {
            stacks: self.stacks,
            phase: self.phase,
            captured_this_turn: self.captured_this_turn,
            placed: self.placed,
            counts: self.counts,
            board_plies: 0,
            key: self.key_of(),
        };
        match action {
            AdrenalineAction::Move(mv) => {
                self.captured_this_turn = false;
                let captured_sq = match mv.kind() {
                    MoveKind::EnPassant => {
                        Some(Square::from_coords(mv.to().file(), mv.from().rank()))
                    }
                    MoveKind::Castle => None,
                    _ => self.board.piece_at(mv.to()).map(|_| mv.to()),
                };
                let moving = self.stacks[mv.from().index()];
                let won = captured_sq.map_or(0, |s| self.stacks[s.index()]);
                self.counts.taken_over[actor] += won as u32;
                if let Some(s) = captured_sq {
                    self.stacks[s.index()] = 0;
                    self.captured_this_turn = true;
                }
                self.stacks[mv.from().index()] = 0;
                let arrive = if mv.is_castle() { mv.from() } else { mv.to() };
                self.board.make(mv);
                saved.board_plies = 1;
                if !mv.is_castle() {
                    self.stacks[arrive.index()] = moving + won;
                    self.after_piece_arrives(arrive);
                } else {
                    self.phase = self.turn_end_phase();
                }
            }
            AdrenalineAction::Step(to) => {
                let Phase::Steps(from) = self.phase else {
                    panic!("step outside the step phase")
                };
                let left = self.stacks[from.index()] - 1;
                let won = if self.board.piece_at(to).is_some() {
                    self.captured_this_turn = true;
                    self.stacks[to.index()]
                } else {
                    0
                };
                self.counts.steps[actor] += 1;
                self.counts.taken_over[actor] += won as u32;
                self.stacks[from.index()] = 0;
                let us = self.board.turn().other();
                let pawn_to_last = self.board.piece_at(from).map(|p| p.role) == Some(Role::Pawn)
                    && Bitboard::relative_rank(us, 7).contains(to);
                let step = if pawn_to_last {
                    Move::new(from, to, MoveKind::Promotion(Role::Queen))
                } else {
                    Move::normal(from, to)
                };
                self.board.make_null();
                self.board.make(step);
                saved.board_plies = 2;
                self.stacks[to.index()] = left + won;
                self.after_piece_arrives(to);
            }
            AdrenalineAction::Stop => {
                self.phase = self.turn_end_phase();
            }
            AdrenalineAction::Place(sq) => {
                let n = self.params.checkers_per_capture;
                self.stacks[sq.index()] += n;
                self.placed += n as u32;
                self.counts.placed[actor] += n as u32;
                self.phase = Phase::Regular;
            }
        }
        if self.phase == Phase::Regular {
            self.captured_this_turn = false;
        }
        self.undo.push(saved);
    }

    fn undo(&mut self) {
        let saved = self.undo.pop().expect("undo without an action");
        if saved.board_plies == 2 {
            self.board.unmake();
            self.board.unmake_null();
        } else if saved.board_plies == 1 {
            self.board.unmake();
        }
        self.stacks = saved.stacks;
        self.phase = saved.phase;
        self.captured_this_turn = saved.captured_this_turn;
        self.placed = saved.placed;
        self.counts = saved.counts;
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(reason) = self.draw_reason() {
            return Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            });
        }
        if self.phase == Phase::Regular && self.regular_moves().is_empty() {
            let us = self.board.turn();
            return Some(no_moves_result(us, self.king_attacked(us)));
        }
        None
    }

    fn state_key(&self) -> u64 {
        self.key_of()
    }

    fn observation(&self, _seat: Seat) -> String {
        let stacks: Vec<String> = self
            .board
            .occupied()
            .filter(|s| self.stacks[s.index()] > 0)
            .map(|s| format!("{s}={}", self.stacks[s.index()]))
            .collect();
        format!("{} | {}", self.board.fen(), stacks.join(" "))
    }

    fn action_notation(&self, action: AdrenalineAction) -> String {
        match action {
            AdrenalineAction::Move(m) => self.board.uci(m),
            AdrenalineAction::Step(s) => format!("~{s}"),
            AdrenalineAction::Stop => "stop".into(),
            AdrenalineAction::Place(s) => format!("+{s}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<AdrenalineAction, GameError> {
        let mut actions = Vec::new();
        self.legal_actions(self.actor().index(), &mut actions);
        actions
            .into_iter()
            .find(|&a| self.action_notation(a) == text)
            .ok_or_else(|| GameError::Action {
                action: text.into(),
                message: match self.phase {
                    Phase::Regular => "not a legal regular move (UCI)",
                    Phase::Steps(_) => "expected an extra step '~e5' or 'stop'",
                    Phase::Place => "expected a checker placement '+e7' under an enemy piece",
                }
                .into(),
            })
    }

    fn history_len(&self) -> usize {
        self.undo.len()
    }

    /// Material plus the value of every stack ([`Adrenaline::stack_value`]), own stacks
    /// minus the opponent's.
    fn material(&self, seat: Seat) -> f64 {
        let us = Color::from_index(seat);
        let mut m = material_balance(&self.board, us);
        for sq in self.board.occupied() {
            if self.stacks[sq.index()] == 0 {
                continue;
            }
            let v = self.stack_value(sq);
            if self.board.by_color(us).contains(sq) {
                m += v;
            } else {
                m -= v;
            }
        }
        m
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// Checkers placed after captures during the game (`checkers_placed`,
    /// `white_checkers_placed`, `black_checkers_placed`; stacks set up by an opening
    /// are not counted), extra king steps taken (`steps`, `white_steps`, `black_steps`)
    /// and checkers won by capturing a carrier (`checkers_taken_over`). Saved with every
    /// action, so `undo` restores them.
    fn tallies(&self) -> Vec<(String, f64)> {
        let c = &self.counts;
        let mut t = Vec::with_capacity(7);
        for (name, per_side) in [("checkers_placed", c.placed), ("steps", c.steps)] {
            t.push((name.to_string(), (per_side[0] + per_side[1]) as f64));
            t.push((format!("white_{name}"), per_side[0] as f64));
            t.push((format!("black_{name}"), per_side[1] as f64));
        }
        t.push((
            "checkers_taken_over".to_string(),
            (c.taken_over[0] + c.taken_over[1]) as f64,
        ));
        t
    }
}

/// Pawns a stack of k checkers adds to a piece, by role (pawn, knight, bishop, rook,
/// queen, king) and k = 0..4 (see [`Adrenaline::stack_value`]). Each checker is one
/// extra king step, spent when taken, and widens the piece's reach (its attacks, so
/// its checks) by a step while it lasts. A first step is worth about a tempo (a third
/// of a pawn) and more to pieces a king step complements: a pawn gains sideways,
/// backward and straight captures, a knight covers the adjacent squares it never
/// reaches, a bishop changes square colour. A queen already reaches most squares and a
/// king only walks further, so theirs count less. Later checkers add less: a burst of
/// many steps mostly revisits squares the regular move already reached.
pub const STACK_VALUE: [[f64; 5]; 6] = [
    [0.0, 0.5, 0.9, 1.2, 1.4],
    [0.0, 0.45, 0.8, 1.05, 1.25],
    [0.0, 0.45, 0.8, 1.05, 1.25],
    [0.0, 0.35, 0.65, 0.9, 1.1],
    [0.0, 0.3, 0.55, 0.75, 0.9],
    [0.0, 0.15, 0.25, 0.3, 0.35],
];

/// Pawns per checker beyond the fourth under one piece.
pub const STACK_TAIL: f64 = 0.1;

/// Pawns added when a pawn's checkers let it reach its last rank next turn (push one
/// rank, then step the rest) where a plain push would not: a queen in one move unless
/// the opponent deals with it now.
pub const PROMOTION_REACH: f64 = 1.5;

impl Adrenaline {
    /// Value in pawns of the checkers under the piece on `sq`, from the owner's point
    /// of view: [`STACK_VALUE`] by role and stack height ([`STACK_TAIL`] per checker
    /// past four), plus [`PROMOTION_REACH`] for a pawn the stack carries to promotion.
    pub fn stack_value(&self, sq: Square) -> f64 {
        let k = self.stacks[sq.index()] as usize;
        let Some(p) = self.board.piece_at(sq) else {
            return 0.0;
        };
        if k == 0 {
            return 0.0;
        }
        let mut v = STACK_VALUE[p.role.index()][k.min(4)] + k.saturating_sub(4) as f64 * STACK_TAIL;
        if p.role == Role::Pawn {
            let to_go = 7 - sq.relative(p.color).rank() as usize;
            if to_go >= 2 && 1 + k >= to_go {
                v += PROMOTION_REACH;
            }
        }
        v
    }

    fn draw_reason(&self) -> Option<&'static str> {
        if self.phase != Phase::Regular {
            return None;
        }
        common_draw(
            &self.board,
            self.board.ply(),
            self.params.ply_cap,
            self.stacks.iter().any(|&n| n > 0),
            self.key_of(),
            self.undo.iter().map(|s| s.key),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{conformance, replay};

    fn pos(opening: &str) -> Adrenaline {
        Adrenaline::from_opening(&AdrenalineParams::default(), opening).unwrap()
    }

    fn actions(g: &Adrenaline) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_actions(g.actor().index(), &mut v);
        let mut v: Vec<String> = v.into_iter().map(|a| g.action_notation(a)).collect();
        v.sort();
        v
    }

    #[test]
    fn adrenaline_conforms_to_the_game_api() {
        // Short games: every legal-move test replays the turn on a copy.
        let params = AdrenalineParams {
            ply_cap: 120,
            ..Default::default()
        };
        conformance::check(&Adrenaline::new(&params), 4, 11);
    }

    #[test]
    fn rule_capture_ends_with_one_checker_under_an_enemy_piece() {
        let g = replay(
            Adrenaline::new(&AdrenalineParams::default()),
            &["e2e4", "d7d5", "e4d5"],
        )
        .unwrap();
        assert_eq!(
            g.turn(),
            Turn::Seat(0),
            "white places a checker before black moves"
        );
        let acts = actions(&g);
        assert_eq!(acts.len(), 15, "one choice per remaining black piece");
        let g = replay(g, &["+h7"]).unwrap();
        assert_eq!(g.stack(Square::parse("h7").unwrap()), 1);
        assert_eq!(g.turn(), Turn::Seat(1));
    }

    #[test]
    fn rule_stack_travels_and_buys_extra_king_steps() {
        let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | a1=2");
        let g = replay(g, &["a1a5"]).unwrap();
        assert_eq!(g.stack(Square::parse("a5").unwrap()), 2);
        assert!(actions(&g).contains(&"~b6".to_string()));
        let g = replay(g, &["~b6"]).unwrap();
        assert_eq!(g.stack(Square::parse("b6").unwrap()), 1);
        let g = replay(g, &["~c7"]).unwrap();
        assert_eq!(g.stack(Square::parse("c7").unwrap()), 0);
        assert_eq!(
            g.turn(),
            Turn::Seat(1),
            "no checkers left: the turn is over"
        );
    }

    #[test]
    fn tallies_count_placements_steps_and_takeovers_and_undo_restores_them() {
        let tally = |g: &Adrenaline, name: &str| {
            g.tallies()
                .into_iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no tally {name}"))
        };
        // White takes on d5 and pumps h7; black's h7 pawn then pushes and steps, and
        // later white's rook takes a knight carrying two checkers.
        let start = Adrenaline::new(&AdrenalineParams::default());
        let actions = ["e2e4", "d7d5", "e4d5", "+h7", "h7h6", "~g5", "g1f3"];
        let mut g = replay(start, &actions).unwrap();
        assert_eq!(g.tallies().len(), 7);
        assert_eq!(tally(&g, "checkers_placed"), 1.0);
        assert_eq!(tally(&g, "white_checkers_placed"), 1.0);
        assert_eq!(tally(&g, "black_checkers_placed"), 0.0);
        assert_eq!(tally(&g, "steps"), 1.0);
        assert_eq!(tally(&g, "black_steps"), 1.0);
        assert_eq!(tally(&g, "checkers_taken_over"), 0.0);
        for _ in 0..actions.len() {
            g.undo();
        }
        assert!(g.tallies().iter().all(|(_, v)| *v == 0.0));
        // Opening stacks are not placements; taking a carrier counts its checkers.
        let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1 | a5=2");
        assert_eq!(tally(&g, "checkers_placed"), 0.0);
        let g = replay(g, &["a1a5"]).unwrap();
        assert_eq!(tally(&g, "checkers_taken_over"), 2.0);
    }

    #[test]
    fn material_hook_values_stacks_by_what_they_let_the_piece_do() {
        // A lone pawn a rank from promotion-by-steps: e5 with two checkers reaches e8
        // next turn (push to e6, step e7, step e8). Black is a pawn up on plain material;
        // the stack turns the sign.
        let g = pos("4k3/pp6/8/4P3/8/8/8/4K3 w - - 0 1 | e5=2");
        assert_eq!(material_balance(&g.board, Color::White), -1.0);
        let m = g.material(0);
        assert!((m - (-1.0 + 0.9 + PROMOTION_REACH)).abs() < 1e-9, "{m}");
        assert!(m > 0.0);
        assert_eq!(g.material(1), -m);
        // One checker: the pawn cannot get there yet, only the stack's own value.
        let g = pos("4k3/pp6/8/4P3/8/8/8/4K3 w - - 0 1 | e5=1");
        assert!((g.material(0) - (-1.0 + 0.5)).abs() < 1e-9);
        // The same checker is worth more under a knight than under the king.
        let knight = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 | d1=1");
        let king = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 | e1=1");
        assert!(knight.material(0) > king.material(0));
        // Tall stacks keep adding, a little per checker.
        let tall = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 | d1=6");
        assert!((tall.material(0) - 3.0 - 1.25 - 2.0 * STACK_TAIL).abs() < 1e-9);
    }

    #[test]
    fn rule_capturing_piece_takes_over_checkers() {
        let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1 | a5=2");
        let g = replay(g, &["a1a5"]).unwrap();
        assert_eq!(g.stack(Square::parse("a5").unwrap()), 2);
        assert!(matches!(g.phase, Phase::Steps(_)), "may spend them at once");
    }

    #[test]
    fn rule_placement_may_not_expose_the_placers_king() {
        // With a checker the e4 knight would reach g6 (via f6 or g5), so Black may only
        // place under the white king.
        let g = pos("7r/8/6k1/8/4N3/8/7P/K7 b - - 0 1");
        let g = replay(g, &["h8h2"]).unwrap();
        assert_eq!(actions(&g), vec!["+a1".to_string()]);
    }

    #[test]
    fn rule_no_safe_placement_means_no_checker() {
        // The white king is the only white piece left, and with a checker it would
        // reach c3 (a1-b2, then a step): the capture ends Black's turn without a checker.
        let g = pos("7r/8/8/8/8/2k5/7P/K7 b - - 0 1");
        let g = replay(g, &["h8h2"]).unwrap();
        assert_eq!(g.turn(), Turn::Seat(0));
        assert_eq!(g.stack(Square::parse("a1").unwrap()), 0);
    }

    #[test]
    fn rule_adrenaline_reach_gives_check() {
        // A black pawn with one checker on h5 reaches g4 by pushing and stepping, so a
        // white king may not stand on g3? It reaches h4 (push) then g3 (step): attacked.
        let g = pos("4k3/8/8/7p/8/8/8/4K3 w - - 0 1 | h5=1");
        assert!(g.attacked(Square::parse("g3").unwrap(), Color::Black));
        assert!(!g.attacked(Square::parse("e3").unwrap(), Color::Black));
    }

    #[test]
    fn rule_adrenaline_reach_includes_the_double_step() {
        // f2-f4 is a regular move, and one step from f4 reaches e5.
        let g = pos("8/8/8/4k3/8/8/5P2/4K3 b - - 0 1 | f2=1");
        assert!(g.attacked(Square::parse("e5").unwrap(), Color::White));
        assert!(g.in_check());
        let g = pos("8/8/8/4k3/8/5p2/5P2/4K3 b - - 0 1 | f2=1");
        assert!(
            !g.attacked(Square::parse("e5").unwrap(), Color::White),
            "blocked"
        );
    }

    #[test]
    fn rule_king_must_be_safe_after_regular_move_and_steps() {
        // The white king may not step next to a pumped black rook's reach.
        let g = pos("4k3/8/8/8/8/8/r7/4K3 w - - 0 1 | a2=1");
        // The rook reaches the 2nd rank and one step beyond: the 1st rank too.
        let acts = actions(&g);
        assert!(
            acts.is_empty(),
            "checkmate: every square is within reach: {acts:?}"
        );
        assert_eq!(g.result().map(|r| r.reason), Some("checkmate"));
    }

    #[test]
    fn rule_no_castling_with_checkers() {
        let g = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1 | h1=1");
        assert!(!actions(&g).contains(&"e1g1".to_string()));
        let g = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(actions(&g).contains(&"e1g1".to_string()));
    }

    #[test]
    fn rule_no_castling_through_adrenaline_attack() {
        // The black knight on e4 with a checker reaches f2 by a regular move... and g1
        // or f1 by a step from there.
        let g = pos("4k3/8/8/8/4n3/8/8/4K2R w K - 0 1 | e4=1");
        assert!(!actions(&g).contains(&"e1g1".to_string()));
    }

    #[test]
    fn rule_en_passant_never_after_an_extra_step() {
        let g = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 | d7=1");
        let g = replay(g, &["d7d5"]).unwrap();
        // The pawn may step on; if it stops, en passant is available.
        let stopped = replay(g.clone(), &["stop"]).unwrap();
        assert!(actions(&stopped).contains(&"e5d6".to_string()));
        let stepped = replay(g, &["~c5"]).unwrap();
        assert!(!actions(&stepped).contains(&"e5d6".to_string()));
        assert_eq!(stepped.board.ep_square(), None);
    }

    #[test]
    fn rule_seed_example_mate_with_the_pumped_up_bishop() {
        // White's trapped c1 bishop carries three checkers. The black queen can take it
        // and spend them to reach f2 and every square around it within three steps; the
        // h5 pawn's checker covers g3; g1 and g2 are blocked. Checkmate.
        let mate = "7k/2q5/8/7p/8/8/1P1P1KPP/2B3N1 w - - 0 1";
        let g = pos(&format!("{mate} | c1=3 h5=1"));
        assert!(g.in_check());
        let r = g.result().expect("checkmate");
        assert_eq!(r.reason, "checkmate");
        assert_eq!(r.returns[1], 1.0);
        // Without the checkers on c1 the white king just walks away.
        let g = pos(&format!("{mate} | h5=1"));
        assert!(g.result().is_none());
    }

    #[test]
    fn rule_promotion_on_arrival_then_steps() {
        let g = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 | a7=1");
        let g = replay(g, &["a7a8q"]).unwrap();
        assert_eq!(
            g.board
                .piece_at(Square::parse("a8").unwrap())
                .map(|p| p.role),
            Some(Role::Queen)
        );
        assert!(actions(&g).contains(&"~b7".to_string()));
    }
}

//! Two Move Chess (chess-kit seed; RULES.md "Two Move Chess"): both players choose two
//! piece-type cards at the same time, matching cards cancel, and the surviving cards move
//! pieces in the fixed order N, B, R, Q, K. Capturing the king wins; there is no check.
//!
//! # Shape of a turn
//! 1. A simultaneous node ([`Turn::Simultaneous`]): each seat picks two distinct cards
//!    from its hand minus its face-up cards (`rule_choice_excludes_face_up_cards`).
//! 2. The reveal (inside `apply_joint`): a type chosen by both is eliminated for both
//!    (`rule_matching_cards_are_eliminated`); equal pairs move nothing
//!    (`rule_equal_pairs_move_nothing`); a card whose partner was eliminated makes two
//!    moves (`rule_surviving_card_makes_two_moves`).
//! 3. One ordinary seat decision per move, cards in the order N, B, R, Q, K, each by the
//!    card's owner (`rule_cards_resolve_in_order_n_b_r_q_k`). A card moves a piece of its
//!    type or of the owner's least valuable type that has a move, P < N < B < R < Q < K
//!    (`rule_card_moves_its_type_or_the_least_valuable_movable`); it must be used when it
//!    can (`rule_a_card_must_move_if_able`); no pawn moves twice in a turn
//!    (`rule_no_pawn_moves_twice_in_a_turn`).
//! 4. Face-up bookkeeping after the turn: a player with four face-up cards takes them all
//!    back, the other leaves its two face up (`rule_face_up_bookkeeping`).
//!
//! Orthodox piece moves otherwise, on the engine's [`Board`]: no check (a king may stand
//! and move en prise, `rule_no_check`), capturing the king wins at once and ends the turn
//! (`rule_capturing_the_king_wins`), castling only with the king card, rights and empty
//! squares as usual but through or out of attacked squares
//! (`rule_castling_with_the_king_card_through_attack`), no en passant
//! (`rule_no_en_passant`), promotion to N, B, R or Q (`rule_promotion`).
//!
//! Seed examples: the Rules Quiz positions are pictures in the seed, so the tests rebuild
//! positions that fit every sentence of the quiz text and check its answers by searching
//! the rest of the turn: taking both of White's movable pawns lets White's rook card move
//! the bishops and take the king, and with the king on the queen's square it could not
//! (`rule_quiz_taking_both_movable_pawns_loses_for_black`); blocking Black's last pawn
//! instead keeps the king and frees the knight for any card
//! (`rule_quiz_blocking_the_last_pawn_is_better`); White's only turn that wins against
//! every black choice is bishop + rook cards with a rook promotion
//! (`rule_quiz_white_wins_with_bishop_and_rook_cards_and_a_rook_promotion`).
//!
//! Bad input (a card not in the hand, a joint action of the wrong length or with an
//! illegal part, a move the pending card cannot make) is a [`GameError`] from
//! `parse_action`, [`TwoMove::try_apply_joint`] and `replay`
//! (`rule_bad_input_is_an_error_not_a_panic`). Tallies: `rule_tallies`.
//!
//! # Decisions where the texts are silent (RULES.md lists the first ones)
//! - A pawn that already moved this turn does not count as "a piece that has a move"
//!   when finding the least valuable movable type, and the type is worked out again
//!   before every move, on the position as it stands (`rule_movable_is_judged_before_each_move`).
//! - A pawn promoted this turn is a new piece and may move again
//!   (`rule_promoted_pawn_may_move_again`).
//! - Castling moves are king moves only for the king card: "the least valuable type that
//!   has a move" looks at ordinary moves, and a non-king card that falls back to the
//!   king never castles (`rule_castling_with_the_king_card_through_attack`).
//! - A card whose owner has no move at all is spent without a move (there is no pass
//!   decision) (`rule_a_side_without_moves_skips_its_card`).
//! - Draws are judged between turns, never inside one: the ply cap and the 50-move rule
//!   count piece moves (100 without capture or pawn move), repetition compares (board,
//!   castling rights, face-up cards) at each card choice, insufficient material applies
//!   (`rule_draws_are_judged_between_turns`, `rule_repetition_compares_face_up_cards`).
//! - Tallies: `double_move_king_captures` counts kings taken by the second move of a
//!   card making two moves (the seed's "a double move to capture the king");
//!   `cards_eliminated` counts cards, two per matched type (`rule_tallies`).
//! - Openings: a FEN, optionally followed by a seventh field `W/B` naming each side's
//!   face-up cards (`KR/-`); without it White has the parameter's cards face up and Black
//!   none. The FEN's side to move is ignored (both choose at once); a king may stand en
//!   prise.
//!
//! # Notation
//! A card choice is two letters in N, B, R, Q, K order (`NB`), a joint choice `NB|RQ` in
//! records; moves are UCI (`e7e8r`, castling `e1g1`).

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    two_seat_returns, validate_ply_cap, Dynamics, Game, GameError, GameFacts, GameResult,
    InvalidParams, Seat, Turn, VariantParams,
};
use crate::moves::{Move, MoveList};
use crate::square::{Color, Role};
use crate::variants::chess::material_balance;
use crate::variants::{castles_without_attack_test, pseudo_moves};
use crate::zobrist;
use serde::{Deserialize, Serialize};

/// The five cards in resolution order; a card is its index here.
pub const CARDS: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];
const CARD_LETTERS: [char; 5] = ['N', 'B', 'R', 'Q', 'K'];
const ALL_CARDS: u8 = 0b1_1111;

/// Cards as a set: bit `i` is `CARDS[i]`.
type CardSet = u8;

fn card_of_letter(c: char) -> Option<usize> {
    CARD_LETTERS.iter().position(|&l| l == c)
}

/// The letters of a card set in N, B, R, Q, K order (`-` when empty).
pub fn cards_text(set: CardSet) -> String {
    if set == 0 {
        return "-".into();
    }
    (0..5)
        .filter(|i| set & 1 << i != 0)
        .map(|i| CARD_LETTERS[i])
        .collect()
}

/// Reads card letters (any order, no repeats); `-` or nothing is the empty set.
fn parse_cards(text: &str) -> Result<CardSet, String> {
    if text == "-" {
        return Ok(0);
    }
    let mut set = 0u8;
    for c in text.chars() {
        let i = card_of_letter(c)
            .ok_or_else(|| format!("'{c}' is not a card (cards are N, B, R, Q, K)"))?;
        if set & 1 << i != 0 {
            return Err(format!("card {c} named twice"));
        }
        set |= 1 << i;
    }
    Ok(set)
}

/// A face-up set must be empty or two cards.
fn check_face_up(set: CardSet, text: &str) -> Result<(), String> {
    if set.count_ones() == 0 || set.count_ones() == 2 {
        Ok(())
    } else {
        Err(format!("'{text}': face-up cards are none or exactly two"))
    }
}

// ----- parameters ----------------------------------------------------------------------

/// Tunable rules of Two Move Chess.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct TwoMoveParams {
    /// Piece moves after which the game is a draw recorded as `cap` (judged between turns).
    pub ply_cap: u32,
    /// White's face-up cards at the start (seed: "For your first game, pick king and
    /// rook"): two letters of N, B, R, Q, K, or `""` for none.
    pub white_face_up: String,
}

impl Default for TwoMoveParams {
    fn default() -> Self {
        TwoMoveParams {
            ply_cap: 400,
            white_face_up: "KR".into(),
        }
    }
}

/// What each of [`TwoMoveParams`]'s keys is (printed by `chesslab params`).
pub const TWO_MOVE_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "piece moves after which the game ends as a draw recorded as `cap` (judged between turns)",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "white_face_up",
        "White's face-up cards at the start (the seed: \"for your first game, pick king and rook\")",
        "two letters of N, B, R, Q, K, or \"\" for none",
    ),
];

impl VariantParams for TwoMoveParams {
    const DOCS: &'static [crate::game::ParamDoc] = TWO_MOVE_PARAM_DOCS;

    /// The registry calls this before building a game.
    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        self.face_up().map(|_| ())
    }
}

impl TwoMoveParams {
    fn face_up(&self) -> Result<CardSet, InvalidParams> {
        let text = if self.white_face_up.is_empty() {
            "-"
        } else {
            &self.white_face_up
        };
        let set = parse_cards(text).map_err(|m| params_error(m.to_string()))?;
        check_face_up(set, text).map_err(|m| params_error(m.to_string()))?;
        Ok(set)
    }
}

fn params_error(message: String) -> InvalidParams {
    InvalidParams::new("white_face_up", message)
}

// ----- state ---------------------------------------------------------------------------

/// An action: a seat's two cards at the simultaneous node, or one move of a card.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TwoMoveAction {
    /// Two distinct cards (a set with two members).
    Cards(CardSet),
    Move(Move),
}

/// One move owed by a surviving card.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Slot {
    card: u8,
    owner: u8,
    /// The second move of a card that makes two.
    second: bool,
}

/// The moves of the current turn, in resolution order.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Plan {
    slots: [Slot; 4],
    len: u8,
    /// The slot waiting for its move.
    next: u8,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// The simultaneous card choice.
    Choose,
    /// The owner of `plan.slots[plan.next]` moves.
    Move,
    /// A king was captured.
    Over,
}

/// Counters for `tallies` (restored by `undo` like everything else).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Tally {
    turns: u32,
    cards_eliminated: u32,
    blank_turns: u32,
    double_moves: u32,
    substitutions: u32,
    skipped_cards: u32,
    king_captures: u32,
    double_move_king_captures: u32,
}

/// Everything but the board, as it was before an action (the board has its own stack).
#[derive(Clone, Copy, Debug)]
struct Snapshot {
    face_up: [CardSet; 2],
    phase: Phase,
    plan: Plan,
    moved_pawns: [Bitboard; 2],
    winner: Option<Color>,
    piece_moves: u32,
    quiet: u32,
    draw: Option<&'static str>,
    tally: Tally,
    board_ply: usize,
    pushed_turn_key: bool,
}

/// A Two Move Chess game.
#[derive(Clone)]
pub struct TwoMove {
    /// White to move on the board at every card choice; the owner of the pending slot
    /// during the moves (null moves hand the turn over when one side moves twice).
    board: Board,
    ply_cap: u32,
    face_up: [CardSet; 2],
    phase: Phase,
    plan: Plan,
    /// Pawns (by square) that moved this turn, per colour.
    moved_pawns: [Bitboard; 2],
    winner: Option<Color>,
    /// Piece moves played (the ply cap counts these).
    piece_moves: u32,
    /// Piece moves since the last capture or pawn move (the 50-move rule).
    quiet: u32,
    /// The draw that ends the game at this card choice, if any.
    draw: Option<&'static str>,
    tally: Tally,
    /// Repetition keys of earlier card choices, oldest first.
    turn_keys: Vec<u64>,
    history: Vec<Snapshot>,
    /// The pending slot's legal moves, when `fresh`.
    moves: MoveList,
    fresh: bool,
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(23)
}

impl std::fmt::Debug for TwoMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TwoMove")
            .field("board", &self.board.fen())
            .field("face_up", &self.face_up)
            .field("phase", &self.phase)
            .field("plan", &self.plan)
            .field("winner", &self.winner)
            .finish_non_exhaustive()
    }
}

impl TwoMove {
    /// A game from `board` with the given face-up cards, both choosing next.
    pub fn from_board(mut board: Board, face_up: [CardSet; 2], ply_cap: u32) -> TwoMove {
        // Normalise: White "to move" at card choices, no en passant square.
        let (castling, halfmoves, fullmoves) = (
            board.castling_rights(),
            board.halfmoves(),
            board.fullmoves(),
        );
        board.set_state(Color::White, castling, None, halfmoves, fullmoves);
        board.clear_history();
        let mut g = TwoMove {
            board,
            ply_cap,
            face_up,
            phase: Phase::Choose,
            plan: Plan::default(),
            moved_pawns: [Bitboard::EMPTY; 2],
            winner: None,
            piece_moves: 0,
            quiet: halfmoves as u32,
            draw: None,
            tally: Tally::default(),
            turn_keys: Vec::with_capacity(256),
            history: Vec::with_capacity(512),
            moves: MoveList::new(),
            fresh: false,
        };
        g.draw = g.judge_draw();
        g
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// The face-up cards of `color`, as letters (`KR`, `-`).
    pub fn face_up(&self, color: Color) -> String {
        cards_text(self.face_up[color.index()])
    }

    /// The card and owner of the pending move, during the moves of a turn.
    pub fn pending(&self) -> Option<(Role, Color, bool)> {
        (self.phase == Phase::Move).then(|| {
            let s = self.plan.slots[self.plan.next as usize];
            (
                CARDS[s.card as usize],
                Color::from_index(s.owner as usize),
                s.second,
            )
        })
    }

    /// The cards `seat` may choose from (hand minus face-up cards).
    fn available(&self, seat: Seat) -> CardSet {
        ALL_CARDS & !self.face_up[seat]
    }

    /// The seat's legal pair for `text`, with a reason when it is not.
    pub fn parse_choice(&self, seat: Seat, text: &str) -> Result<TwoMoveAction, GameError> {
        let err = |message: String| GameError::Action {
            action: text.into(),
            message,
        };
        if self.turn() != Turn::Simultaneous {
            return Err(err("not a card choice".into()));
        }
        let set = parse_cards(text).map_err(err)?;
        if set.count_ones() != 2 {
            return Err(err("choose exactly two distinct cards (e.g. 'NB')".into()));
        }
        let face_up = set & self.face_up[seat];
        if face_up != 0 {
            return Err(err(format!(
                "{} is face up for {} (not in the hand)",
                cards_text(face_up),
                self.seat_name(seat)
            )));
        }
        Ok(TwoMoveAction::Cards(set))
    }

    /// `apply_joint` with its input checked: one legal pair per seat, in seat order.
    pub fn try_apply_joint(&mut self, actions: &[TwoMoveAction]) -> Result<(), GameError> {
        self.check_joint(actions)?;
        self.reveal(actions);
        Ok(())
    }

    fn check_joint(&self, actions: &[TwoMoveAction]) -> Result<(), GameError> {
        let text = || {
            actions
                .iter()
                .map(|a| format!("{a:?}"))
                .collect::<Vec<_>>()
                .join("|")
        };
        if self.turn() != Turn::Simultaneous {
            return Err(GameError::Action {
                action: text(),
                message: "not a card choice".into(),
            });
        }
        if actions.len() != 2 {
            return Err(GameError::Action {
                action: text(),
                message: format!("a joint choice has 2 parts, not {}", actions.len()),
            });
        }
        for (seat, &a) in actions.iter().enumerate() {
            let ok = matches!(a, TwoMoveAction::Cards(set)
                if set.count_ones() == 2 && set & !self.available(seat) == 0);
            if !ok {
                return Err(GameError::Action {
                    action: text(),
                    message: format!(
                        "part {} is not a legal choice for {}",
                        seat + 1,
                        self.seat_name(seat)
                    ),
                });
            }
        }
        Ok(())
    }

    fn snapshot(&self, pushed_turn_key: bool) -> Snapshot {
        Snapshot {
            face_up: self.face_up,
            phase: self.phase,
            plan: self.plan,
            moved_pawns: self.moved_pawns,
            winner: self.winner,
            piece_moves: self.piece_moves,
            quiet: self.quiet,
            draw: self.draw,
            tally: self.tally,
            board_ply: self.board.ply(),
            pushed_turn_key,
        }
    }

    /// The repetition key of a card choice: placement, castling rights, face-up cards.
    fn repetition_key(&self) -> u64 {
        let mut k = self.board.key();
        if let Some(ep) = self.board.ep_square() {
            k ^= zobrist::en_passant(ep.file());
        }
        mix(
            mix(k, self.face_up[0] as u64 + 1),
            self.face_up[1] as u64 + 33,
        )
    }

    fn judge_draw(&self) -> Option<&'static str> {
        if self.piece_moves >= self.ply_cap {
            Some("cap")
        } else if self.board.is_bare_material() {
            Some("insufficient-material")
        } else if self.quiet >= 100 {
            Some("fifty-moves")
        } else {
            let key = self.repetition_key();
            (self.turn_keys.iter().filter(|&&k| k == key).count() >= 2).then_some("repetition")
        }
    }

    /// The reveal: eliminate matching cards, lay out the moves in card order, update the
    /// face-up cards, and move on to the first move owed.
    fn reveal(&mut self, actions: &[TwoMoveAction]) {
        let key = self.repetition_key();
        self.history.push(self.snapshot(true));
        self.turn_keys.push(key);
        let pair = |a: TwoMoveAction| match a {
            TwoMoveAction::Cards(s) => s,
            TwoMoveAction::Move(_) => 0,
        };
        let chosen = [pair(actions[0]), pair(actions[1])];
        let eliminated = chosen[0] & chosen[1];
        let double = eliminated.count_ones() == 1;
        self.tally.turns += 1;
        self.tally.cards_eliminated += 2 * eliminated.count_ones();
        if eliminated.count_ones() == 2 {
            self.tally.blank_turns += 1;
        }
        let mut plan = Plan::default();
        for card in 0..5u8 {
            for owner in 0..2u8 {
                if (chosen[owner as usize] & !eliminated) & 1 << card != 0 {
                    let slot = Slot {
                        card,
                        owner,
                        second: false,
                    };
                    plan.slots[plan.len as usize] = slot;
                    plan.len += 1;
                    if double {
                        self.tally.double_moves += 1;
                        plan.slots[plan.len as usize] = Slot {
                            second: true,
                            ..slot
                        };
                        plan.len += 1;
                    }
                }
            }
        }
        self.plan = plan;
        for (up, &pair) in self.face_up.iter_mut().zip(&chosen) {
            // Four face up after the turn: all back in hand; otherwise the two stay.
            *up = if *up != 0 { 0 } else { pair };
        }
        self.moved_pawns = [Bitboard::EMPTY; 2];
        self.advance();
    }

    /// Moves to the next slot with a legal move, or ends the turn.
    fn advance(&mut self) {
        loop {
            if self.plan.next >= self.plan.len {
                if self.board.turn() != Color::White {
                    self.board.make_null();
                }
                self.phase = Phase::Choose;
                self.fresh = false;
                self.draw = self.judge_draw();
                return;
            }
            let owner = Color::from_index(self.plan.slots[self.plan.next as usize].owner as usize);
            if self.board.turn() != owner {
                self.board.make_null();
            }
            let mut list = std::mem::take(&mut self.moves);
            self.slot_moves(&mut list);
            self.moves = list;
            if !self.moves.is_empty() {
                self.phase = Phase::Move;
                self.fresh = true;
                return;
            }
            self.tally.skipped_cards += 1;
            self.plan.next += 1;
        }
    }

    /// The legal moves of the pending slot (the board's side to move is its owner).
    fn slot_moves(&self, out: &mut MoveList) {
        out.clear();
        let slot = self.plan.slots[self.plan.next as usize];
        let b = &self.board;
        let us = b.turn();
        let occ = b.occupied();
        let movers = b.by_color(us) - self.moved_pawns[us.index()];
        let mut all = MoveList::new();
        pseudo_moves(b, &mut all, movers, |_| occ, |_, _| false);
        let role_of = |m: &Move| b.piece_at(m.from()).map_or(Role::King, |p| p.role);
        let card = CARDS[slot.card as usize];
        let least = all.iter().map(role_of).min();
        for m in all.iter() {
            let r = role_of(m);
            if r == card || Some(r) == least {
                out.push(*m);
            }
        }
        if card == Role::King {
            self.castles(out);
        }
    }

    /// Castling with no attack test (`castles_without_attack_test`).
    fn castles(&self, out: &mut MoveList) {
        castles_without_attack_test(&self.board, |m| out.push(m));
    }

    /// Calls `f` with the pending slot's legal moves (cached or worked out now).
    fn with_moves<R>(&self, f: impl FnOnce(&MoveList) -> R) -> R {
        if self.fresh {
            f(&self.moves)
        } else {
            let mut list = MoveList::new();
            self.slot_moves(&mut list);
            f(&list)
        }
    }

    fn play_move(&mut self, m: Move) {
        let slot = self.plan.slots[self.plan.next as usize];
        let us = self.board.turn();
        self.history.push(self.snapshot(false));
        let moved = self
            .board
            .piece_at(m.from())
            .expect("a legal move has a piece");
        let captured = if m.is_castle() {
            None
        } else {
            self.board.piece_at(m.to())
        };
        if !m.is_castle() && moved.role != CARDS[slot.card as usize] {
            self.tally.substitutions += 1;
        }
        self.piece_moves += 1;
        if moved.role == Role::Pawn || captured.is_some() {
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        if captured.is_some() {
            let them = us.other().index();
            self.moved_pawns[them] = self.moved_pawns[them].without(m.to());
        }
        if moved.role == Role::Pawn {
            let mine = &mut self.moved_pawns[us.index()];
            *mine = mine.without(m.from());
            if m.promotion().is_none() {
                *mine = mine.with(m.to());
            }
        }
        self.board.make(m);
        if captured.is_some_and(|p| p.role == Role::King) {
            self.winner = Some(us);
            self.phase = Phase::Over;
            self.fresh = false;
            self.tally.king_captures += 1;
            if slot.second {
                self.tally.double_move_king_captures += 1;
            }
            return;
        }
        self.plan.next += 1;
        self.advance();
    }
}

impl Game for TwoMove {
    type Action = TwoMoveAction;
    type Params = TwoMoveParams;

    fn facts(&self) -> GameFacts {
        GameFacts {
            dynamics: Dynamics::Simultaneous,
            eval: "two-move",
            ..GameFacts::TWO_SEAT_CLASSIC
        }
    }

    fn new(params: &TwoMoveParams) -> TwoMove {
        let white = params.face_up().unwrap_or(0b1_0100);
        TwoMove::from_board(Board::startpos(), [white, 0], params.ply_cap)
    }

    fn from_opening(params: &TwoMoveParams, opening: &str) -> Result<TwoMove, GameError> {
        let fields: Vec<&str> = opening.split_whitespace().collect();
        let (fen, face_up) = if fields.len() == 7 {
            let spec = fields[6];
            let bad = |m: String| GameError::opening(opening, format!("face-up field: {m}"));
            let (w, b) = spec
                .split_once('/')
                .ok_or_else(|| bad(format!("'{spec}' is not 'W/B' (e.g. 'KR/-')")))?;
            let mut sets = [0u8; 2];
            for (i, t) in [w, b].into_iter().enumerate() {
                sets[i] = parse_cards(t).map_err(bad)?;
                check_face_up(sets[i], t).map_err(bad)?;
            }
            (fields[..6].join(" "), sets)
        } else {
            (
                opening.to_string(),
                [params.face_up().unwrap_or(0b1_0100), 0],
            )
        };
        let board = crate::variants::masquerade::board_from_fen(&fen)?;
        Ok(TwoMove::from_board(board, face_up, params.ply_cap))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Over => Turn::Terminal,
            Phase::Choose if self.draw.is_some() => Turn::Terminal,
            Phase::Choose => Turn::Simultaneous,
            Phase::Move => Turn::Seat(self.plan.slots[self.plan.next as usize].owner as usize),
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<TwoMoveAction>) {
        out.clear();
        match self.turn() {
            Turn::Simultaneous if seat < 2 => {
                let avail = self.available(seat);
                for a in 0..5 {
                    for b in a + 1..5 {
                        let set = (1u8 << a) | (1 << b);
                        if set & avail == set {
                            out.push(TwoMoveAction::Cards(set));
                        }
                    }
                }
            }
            Turn::Seat(s) if s == seat => {
                self.with_moves(|moves| out.extend(moves.iter().map(|&m| TwoMoveAction::Move(m))))
            }
            _ => {}
        }
    }

    fn apply(&mut self, action: TwoMoveAction) {
        match action {
            TwoMoveAction::Move(m) => {
                debug_assert!(self.phase == Phase::Move);
                self.play_move(m)
            }
            TwoMoveAction::Cards(_) => {
                panic!("two-move: a card choice is half of a joint action (use apply_joint)")
            }
        }
    }

    /// Plays both seats' cards. The input must be legal (one pair per seat, in seat
    /// order); [`TwoMove::try_apply_joint`] and `replay` check it and return errors.
    fn apply_joint(&mut self, actions: &[TwoMoveAction]) {
        if let Err(e) = self.check_joint(actions) {
            panic!("two-move apply_joint: {e}");
        }
        self.reveal(actions);
    }

    fn undo(&mut self) {
        let Some(s) = self.history.pop() else { return };
        while self.board.ply() > s.board_ply {
            if self.board.last_move() == Some(Move::NULL) {
                self.board.unmake_null();
            } else {
                self.board.unmake();
            }
        }
        if s.pushed_turn_key {
            self.turn_keys.pop();
        }
        self.face_up = s.face_up;
        self.phase = s.phase;
        self.plan = s.plan;
        self.moved_pawns = s.moved_pawns;
        self.winner = s.winner;
        self.piece_moves = s.piece_moves;
        self.quiet = s.quiet;
        self.draw = s.draw;
        self.tally = s.tally;
        self.fresh = false;
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(w) = self.winner {
            return Some(GameResult {
                returns: two_seat_returns(Some(w.index())),
                reason: "royal-capture",
            });
        }
        if self.phase == Phase::Choose {
            if let Some(reason) = self.draw {
                return Some(GameResult {
                    returns: two_seat_returns(None),
                    reason,
                });
            }
        }
        None
    }

    fn state_key(&self) -> u64 {
        let mut k = mix(
            self.board.key(),
            self.face_up[0] as u64 | (self.face_up[1] as u64) << 8,
        );
        let phase = match self.phase {
            Phase::Choose => 0,
            Phase::Move => 1,
            Phase::Over => 2,
        };
        k = mix(k, phase);
        if self.phase == Phase::Move {
            let mut p = self.plan.next as u64;
            for s in &self.plan.slots[..self.plan.len as usize] {
                p = p << 6 | (s.card as u64) << 2 | (s.owner as u64) << 1 | s.second as u64;
            }
            k = mix(k, p);
            k = mix(k, self.moved_pawns[0].0);
            k = mix(k, self.moved_pawns[1].0);
        }
        k
    }

    fn observation(&self, _seat: Seat) -> String {
        let mut s = format!(
            "{} face-up {}/{}",
            self.board.fen(),
            cards_text(self.face_up[0]),
            cards_text(self.face_up[1])
        );
        if let Some((card, owner, second)) = self.pending() {
            s.push_str(&format!(
                " {} {} card{}",
                owner.name(),
                card.char().to_ascii_uppercase(),
                if second { " (second move)" } else { "" }
            ));
        }
        s
    }

    fn action_notation(&self, action: TwoMoveAction) -> String {
        match action {
            TwoMoveAction::Cards(set) => cards_text(set),
            TwoMoveAction::Move(m) => self.board.uci(m),
        }
    }

    fn parse_action(&self, text: &str) -> Result<TwoMoveAction, GameError> {
        let err = |message: String| GameError::Action {
            action: text.into(),
            message,
        };
        match self.turn() {
            Turn::Terminal => Err(err("the game is over".into())),
            Turn::Simultaneous => {
                // Without a seat, accept a pair that one of the seats may choose; replay
                // checks each part against its own seat.
                match self.parse_choice(0, text) {
                    Ok(a) => Ok(a),
                    Err(e0) => self.parse_choice(1, text).map_err(|_| e0),
                }
            }
            Turn::Seat(_) => {
                let card = self
                    .pending()
                    .map_or('?', |p| p.0.char().to_ascii_uppercase());
                let found = self
                    .with_moves(|moves| moves.iter().copied().find(|&m| self.board.uci(m) == text));
                found.map(TwoMoveAction::Move).ok_or_else(|| {
                    err(format!(
                        "not a legal move for the {} {card} card here (moves are UCI, e.g. e2e4)",
                        self.board.turn().name()
                    ))
                })
            }
            Turn::Chance => Err(err("no chance nodes in two-move".into())),
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

    /// The piece differences, then `face_up`: White's face-up cards (out of the hand
    /// this turn) minus Black's, for `chesslab values`
    /// (`features_count_face_up_cards`).
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = crate::game::material_features(&self.board);
        let up = |c: Color| self.face_up[c.index()].count_ones() as f64;
        f.push(("face_up".to_string(), up(Color::White) - up(Color::Black)));
        f
    }

    /// Per game: `turns`, `cards_eliminated` (two per matched type), `blank_turns` (both
    /// pairs equal), `double_moves` (cards that made two moves), `least_valuable_
    /// substitutions` (moves of a piece not of the card's type), `skipped_cards`,
    /// `king_captures`, `double_move_king_captures` (taken by a card's second move).
    fn tallies(&self) -> Vec<(String, f64)> {
        let t = self.tally;
        [
            ("turns", t.turns),
            ("cards_eliminated", t.cards_eliminated),
            ("blank_turns", t.blank_turns),
            ("double_moves", t.double_moves),
            ("least_valuable_substitutions", t.substitutions),
            ("skipped_cards", t.skipped_cards),
            ("king_captures", t.king_captures),
            ("double_move_king_captures", t.double_move_king_captures),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_string(), v as f64))
        .collect()
    }
}

#[cfg(test)]
mod tests;

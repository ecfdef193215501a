//! Tar Pit Chess (chess-kit seed "Tar Pit Chess"; docs/RULES.md "Tar Pit Chess"):
//! checkers under pieces tar the opponent's pieces, and cards say where checkers may go.
//!
//! Rules, each with its test (in `tests/`):
//! - Deck of 36 cards ([`cards`]: 32 piece cards, two checker cards per colour), six
//!   checkers in front of each player, one card dealt per checker (the deal is a run of
//!   chance draws, `draw:N`), hand size = checkers in front
//!   (`rule_setup_deals_one_card_per_checker`).
//! - The turn has four parts, each its own decision: the chess move (UCI), the optional
//!   throw `throw:f3` / `pass` (`rule_throw_only_with_own_checker_one_king_step`), the
//!   optional card `card:N@e4`, `card:C`, `card:c` / `pass`, then drawing up to hand size
//!   (chance) (`rule_draw_up_to_hand_size_after_returns`).
//! - Tarred pieces (on an enemy checker): pawns cannot move, other pieces move like pawns
//!   without the double step, en passant included (`rule_tarred_pawn_cannot_move`,
//!   `rule_tarred_piece_moves_like_a_pawn`, `rule_tarred_piece_may_capture_en_passant`).
//!   Carrying pieces (on an own checker) move normally and bring the checker along
//!   (`rule_checker_travels_with_its_piece`).
//! - Combining: opposite colours cancel (both return to their owners), same colours repel
//!   (one returns), one checker per piece (`rule_opposite_colours_cancel`,
//!   `rule_same_colours_repel`); a capture takes over the victim's checker
//!   (`rule_capturing_a_carrier_leaves_you_tarred`,
//!   `rule_capturing_a_tarred_piece_leaves_you_carrying`).
//! - Back rank: an enemy checker never stays under a piece on that piece's back rank
//!   (the rank where its own pawns promote), however it arrives; it returns to its owner
//!   (`rule_tarred_piece_reaching_back_rank_is_cleansed`,
//!   `rule_card_on_a_piece_on_its_back_rank_is_removed`).
//! - Checker cards: the own colour adds an extra checker in front of the player; the
//!   opponent's colour makes the opponent return one (`return:front` / `return:e4`) and
//!   discard down to hand size (`discard:N`) (`rule_own_checker_card_adds_a_checker`,
//!   `rule_enemy_checker_card_forces_return_and_discard`).
//! - A card with no matching piece on the board matches any of the player's own pieces
//!   (`rule_card_without_a_matching_piece_matches_any_own_piece`).
//! - The discard pile is shuffled into a new draw pile when the draw pile runs out
//!   (`shuffle`, a chance node) (`rule_empty_draw_pile_is_reshuffled`).
//! - No castling with a checker on the king or the rook
//!   (`rule_no_castling_with_a_checker_on_king_or_rook`). Checkmate wins, with tar-aware
//!   attacks (`rule_tarred_pieces_attack_like_pawns`, `rule_checkmate_wins`).
//! - The seed's worked example (Black's knight at e4 turn):
//!   `rule_seed_example_black_knight_e4_turn`, and its alternative card play
//!   `rule_seed_example_pawn_card_cancels_tar_at_f5`.
//!
//! Decisions where the texts are silent or RULES.md chose (tested):
//! - A checker added by a piece card comes from the player's own front; the piece card
//!   needs one there (RULES.md).
//! - Legality is orthodox, judged right after the chess move with tar-aware attacks: a
//!   tarred pawn attacks nothing, another tarred piece only its two pawn-capture squares;
//!   tarred pieces still block (RULES.md). Throws and cards after the move can only take
//!   attacks away from the opponent, so they never expose the mover's king.
//! - The opponent's return and discard after an enemy checker card are the opponent's
//!   decisions, skipped when forced (RULES.md) (`rule_forced_return_is_automatic`).
//! - An own checker card with no extra checker left in the box adds nothing (the card is
//!   still played) (`rule_own_checker_card_with_empty_box_adds_nothing`).
//! - Only the player whose turn it is draws; the opponent refills at the end of their
//!   own turn (the seed: "draw cards ... checkers in front of you" is the fourth part of
//!   one's own turn).
//! - If both piles are empty the player stops drawing short.
//! - Repetition ignores hands but counts the checkers in front of each player (RULES.md):
//!   it compares board, checkers and both fronts at the start of each turn
//!   (`rule_repetition_counts_checkers_in_front_of_each_player`). The orthodox draws apply
//!   as RULES.md's "Common to all variants" says (50 moves, repetition, checked at the
//!   start of a turn); the ply cap counts chess moves. Insufficient material is only
//!   K v K and K+minor v K: two bishops on one colour play on, tar can help them mate
//!   (`rule_insufficient_material_is_only_bare_kings_or_one_minor`).
//! - The deck by Appendix A: `rule_deck_has_36_cards_by_appendix_a`; hidden hands and
//!   public discards: `engine/tests/tar_pit_info.rs`; bad input gets typed errors
//!   (`bad_input_gets_clear_errors`); every number is a parameter with a range check
//!   (`params_validate_every_number`).
//! - Drawing is uniform over the pile's multiset, which is what drawing the top card of a
//!   shuffled pile is; so the reshuffle itself is a chance node with one outcome
//!   (`shuffle`, probability 1) that moves the discards into the draw pile, and the
//!   randomness of the shuffle lives in the draws that follow.
//!
//! Information ([`info`]): each seat sees the board, the checkers, both fronts, its own
//! hand, the discard pile, every action except the card the opponent draws (seen as
//! `draw:?`). `sample_world` deals the opponent's hand and the draw pile consistently
//! with that record.
//!
//! The full-information twin (issue 67, `open_hands = true`; off by default, and then
//! left out of the serialised parameters so recorded games keep their digest): both
//! hands are public and every seat sees every card drawn (`draw:N`, not `draw:?`), so
//! the draw pile's cards are known too (the deck less the hands and the discards); its
//! order is not, and never was state: draws stay chance nodes with the same
//! probabilities. The facts say perfect information with chance, `information_key` is
//! the state key, `sample_world` returns the state itself, and each observation shows
//! the opponent's hand and the pile's cards. Every rule of play is the seed's. Tests:
//! `rule_tar_pit_open_hands_show_the_opponents_hand_and_draws`,
//! `rule_tar_pit_open_hands_play_by_the_same_rules` (seeded random games of the seed's
//! game replay in the twin with the same legal lists, draw probabilities, states,
//! results and tallies), `rule_tar_pit_open_hands_is_a_parameter_left_out_when_off`,
//! `tar_pit_open_hands_conforms_to_the_game_api`, and
//! `open_hands_twin_keys_follow_its_observations` in `engine/tests/tar_pit_info.rs`.
//!
//! Files: `mod.rs` (this: parameters, actions, phases, the game's state and accessors),
//! `cards.rs` (the deck), `info.rs` (observations and sampled worlds), `moves.rs` (attacks
//! and moves with tar, the checkers' moves), `turn.rs` (the turn's flow, the actions
//! offered, applying, keys), `text.rs` (reading action text, refusal reasons), `game.rs`
//! (the `Game` implementation), `tests/mod.rs` (the `rule_*` tests), `tests/api.rs` (bad input,
//! parameters, replays, tallies).

use crate::attacks;
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
use rand::RngCore;
use serde::{Deserialize, Serialize};

pub mod cards;
mod game;
mod info;
mod moves;
mod text;
mod turn;

pub use cards::{Card, Counts, DeckParams, KINDS};

// ----- parameters ----------------------------------------------------------------------

/// Every number of the seed, with the seed's values as defaults.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct TarPitParams {
    pub ply_cap: u32,
    /// Checkers in front of White at the start (the seed: 6; fewer is a handicap).
    pub white_checkers: u8,
    /// Checkers in front of Black at the start.
    pub black_checkers: u8,
    /// Checkers of each colour in the box (the seed: "You need 12 each").
    pub checkers_per_colour: u8,
    /// Cards per colour in the deck.
    pub deck: DeckParams,
    /// The full-information twin (issue 67): both hands (and so the draw pile's cards)
    /// are public; every other rule stays. Left out of the serialised parameters when
    /// off, so the default set (and the digest of every recorded game) is unchanged.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub open_hands: bool,
}

impl Default for TarPitParams {
    fn default() -> Self {
        TarPitParams {
            ply_cap: 400,
            white_checkers: 6,
            black_checkers: 6,
            checkers_per_colour: 12,
            deck: DeckParams::SEED,
            open_hands: false,
        }
    }
}

/// What each of [`TarPitParams`]'s keys is (printed by `chesslab params`).
pub const TAR_PIT_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "plies after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "white_checkers",
        "checkers in front of White at the start (fewer is a handicap)",
        "0 to checkers_per_colour",
    ),
    crate::game::ParamDoc::new(
        "black_checkers",
        "checkers in front of Black at the start",
        "0 to checkers_per_colour",
    ),
    crate::game::ParamDoc::new(
        "checkers_per_colour",
        "checkers of each colour in the box (the seed: \"you need 12 each\")",
        "1 to 32",
    ),
    crate::game::ParamDoc::new(
        "deck",
        "cards per colour in the deck: pawns, knights, bishops, rooks, queens, kings and checker cards (the sixes)",
        "0 to 16 each; at least one card per checker in front",
    ),
    crate::game::ParamDoc::new(
        "open_hands",
        "the full-information twin: both hands are public, every card drawn is seen by both (the draw pile's cards follow); every other rule is the same, draws stay chance",
        "true or false; unset (the default) is false, the seed's hidden hands",
    ),
];

impl VariantParams for TarPitParams {
    const DOCS: &'static [crate::game::ParamDoc] = TAR_PIT_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        if !(1..=32).contains(&self.checkers_per_colour) {
            return Err(InvalidParams::new(
                "checkers_per_colour",
                "must be 1..=32 (a colour has at most 16 pieces of its own and 16 to tar)",
            ));
        }
        for (n, name) in [
            (self.white_checkers, "white_checkers"),
            (self.black_checkers, "black_checkers"),
        ] {
            if n > self.checkers_per_colour {
                return Err(InvalidParams::new(
                    name,
                    format!(
                        "{n} in front but only {} in the box",
                        self.checkers_per_colour
                    ),
                ));
            }
        }
        self.deck.validate()?;
        let need = self.white_checkers as u32 + self.black_checkers as u32;
        if self.deck.total() < need {
            return Err(InvalidParams::new(
                "deck",
                format!(
                    "{} cards cannot deal one card per checker ({need})",
                    self.deck.total()
                ),
            ));
        }
        Ok(())
    }
}

// ----- actions and state ---------------------------------------------------------------

/// A decision of a seat or an outcome of chance.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TarPitAction {
    /// The chess move (UCI).
    Move(Move),
    /// Throw the moved piece's own checker under the piece on this square (`throw:f3`).
    Throw(Square),
    /// Play a card: a piece card onto a square (`card:N@e4`) or a checker card
    /// (`card:C`, `card:c`).
    Card(Card, Option<Square>),
    /// The opponent returns a checker from in front of them (`return:front`) ...
    ReturnFront,
    /// ... or from under the piece on this square (`return:e4`).
    ReturnAt(Square),
    /// The opponent discards down to hand size (`discard:N`).
    Discard(Card),
    /// Chance: the drawer takes this card from the draw pile (`draw:N`).
    Draw(Card),
    /// Chance: the discard pile becomes the draw pile (`shuffle`).
    Shuffle,
    /// Declines the throw or the card (`pass`).
    Pass,
}

/// Where in the turn the game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Phase {
    /// Dealing at the start: the seat receiving the next card.
    Deal(Color),
    /// The mover chooses a chess move.
    Move,
    /// The mover may throw the checker under the piece it just moved (now on `at`).
    Throw { at: Square },
    /// The mover may play a card.
    Card,
    /// The mover's opponent returns one of its checkers.
    Return,
    /// The mover's opponent discards down to hand size.
    Discard,
    /// The mover draws up to hand size (chance).
    Draw,
}

/// Per-game figures for balance reports (see [`Game::tallies`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    pub thrown: [u16; 2],
    pub tarred_turns: [u16; 2],
    /// Cards played per side by kind: piece roles 0..6, own checker 6, enemy checker 7.
    pub played: [[u16; 8]; 2],
    pub cleansings: [u16; 2],
}

/// Everything but the board: copied whole into each undo record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Core {
    /// Squares with a checker of each colour (under a piece).
    checkers: [Bitboard; 2],
    front: [u8; 2],
    hands: [Counts; 2],
    pile: Counts,
    discard: Counts,
    phase: Phase,
    /// The seat whose turn it is (the mover, also during the opponent's return/discard).
    mover: Color,
    ended: Option<(Option<Color>, &'static str)>,
    /// A running hash of what each seat has seen (order-sensitive).
    view: [u64; 2],
    tally: Tally,
}

#[derive(Clone, Debug)]
struct Record {
    action: TarPitAction,
    /// Who took the action: the seat, or for chance the seat receiving the card.
    actor: Color,
    before: Core,
    board_moved: bool,
    /// Repetition key before a chess move.
    rep_key: Option<u64>,
}

/// A Tar Pit Chess game.
#[derive(Clone, Debug)]
pub struct TarPit {
    board: Board,
    params: TarPitParams,
    core: Core,
    /// The state after set-up (before the first action), for `sample_world`.
    start: Core,
    records: Vec<Record>,
}

fn mix(h: u64, x: u64) -> u64 {
    zobrist::extra(h.rotate_left(29) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

fn counts_hash(c: &Counts) -> u64 {
    c.iter()
        .fold(0u64, |h, &n| h.wrapping_mul(37).wrapping_add(n as u64))
}

fn action_code(a: TarPitAction) -> u64 {
    let sq = |s: Square| s.index() as u64;
    match a {
        TarPitAction::Move(m) => 1 << 20 | m.code() as u64,
        TarPitAction::Throw(s) => 2 << 20 | sq(s),
        TarPitAction::Card(c, s) => 3 << 20 | (c.index() as u64) << 8 | s.map_or(255, sq),
        TarPitAction::ReturnFront => 4 << 20,
        TarPitAction::ReturnAt(s) => 5 << 20 | sq(s),
        TarPitAction::Discard(c) => 6 << 20 | c.index() as u64,
        TarPitAction::Draw(c) => 7 << 20 | c.index() as u64,
        TarPitAction::Shuffle => 8 << 20,
        TarPitAction::Pass => 9 << 20,
    }
}

/// The code of a draw as the other seat sees it.
const HIDDEN_DRAW: u64 = 7 << 20 | 0xff;

/// Adds `action` by `actor` to each seat's running view (the other seat does not see
/// which card a draw gives).
fn next_view(view: &mut [u64; 2], action: TarPitAction, actor: Color) {
    let code = action_code(action);
    for s in Color::BOTH {
        let seen = match action {
            TarPitAction::Draw(_) if s != actor => HIDDEN_DRAW,
            _ => code,
        };
        view[s.index()] = mix(view[s.index()], seen);
    }
}

impl TarPit {
    /// A game from `board` (side to move included) with `params`; the deal comes first.
    pub fn from_board(board: Board, params: TarPitParams) -> TarPit {
        let core = Core {
            checkers: [Bitboard::EMPTY; 2],
            front: [params.white_checkers, params.black_checkers],
            hands: [[0; KINDS]; 2],
            pile: params.deck.counts(),
            discard: [0; KINDS],
            phase: Phase::Move,
            mover: board.turn(),
            ended: None,
            view: [mix(0x7a72, 0), mix(0x7a72, 1)],
            tally: Tally::default(),
        };
        let mut g = TarPit {
            board,
            params,
            core,
            start: core,
            records: Vec::new(),
        };
        g.continue_deal();
        g
    }

    /// A position set up by hand (tests, puzzles): board, checkers, fronts, hands and
    /// piles given; the mover is to make a chess move.
    pub fn from_parts(
        board: Board,
        params: TarPitParams,
        checkers: [Bitboard; 2],
        front: [u8; 2],
        hands: [Counts; 2],
        discard: Counts,
    ) -> TarPit {
        let mut pile = params.deck.counts();
        for c in 0..KINDS {
            pile[c] = pile[c]
                .saturating_sub(hands[0][c])
                .saturating_sub(hands[1][c])
                .saturating_sub(discard[c]);
        }
        let mut g = TarPit::from_board(board, params);
        g.core.checkers = checkers;
        g.core.front = front;
        g.core.hands = hands;
        g.core.pile = pile;
        g.core.discard = discard;
        g.next_turn();
        g.start = g.core;
        g
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    pub fn phase(&self) -> Phase {
        self.core.phase
    }

    /// The colour of the checker under `sq`, if any.
    pub fn checker_at(&self, sq: Square) -> Option<Color> {
        if self.core.checkers[0].contains(sq) {
            Some(Color::White)
        } else if self.core.checkers[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// Squares with a checker of `c`.
    pub fn checkers(&self, c: Color) -> Bitboard {
        self.core.checkers[c.index()]
    }

    /// Checkers in front of `c` (its hand size).
    pub fn front(&self, c: Color) -> u8 {
        self.core.front[c.index()]
    }

    /// Checkers of `c` in the box (neither in front nor on the board).
    pub fn extra(&self, c: Color) -> u8 {
        let used = self.core.front[c.index()] as u32 + self.core.checkers[c.index()].count();
        (self.params.checkers_per_colour as u32).saturating_sub(used) as u8
    }

    pub fn hand(&self, c: Color) -> &Counts {
        &self.core.hands[c.index()]
    }

    pub fn pile(&self) -> &Counts {
        &self.core.pile
    }

    pub fn discard_pile(&self) -> &Counts {
        &self.core.discard
    }

    pub fn tally(&self) -> Tally {
        self.core.tally
    }

    pub fn params(&self) -> &TarPitParams {
        &self.params
    }

    /// `c`'s pieces under an enemy checker.
    pub fn tarred(&self, c: Color) -> Bitboard {
        self.board.by_color(c) & self.core.checkers[c.other().index()]
    }

    /// `c`'s pieces on its own checker.
    pub fn carrying(&self, c: Color) -> Bitboard {
        self.board.by_color(c) & self.core.checkers[c.index()]
    }

    fn hand_total(&self, c: Color) -> u32 {
        cards::total(&self.core.hands[c.index()])
    }
}

#[cfg(test)]
mod tests;

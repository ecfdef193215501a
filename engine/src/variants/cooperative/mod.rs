//! Cooperative Chess (chess-kit seed "Cooperative Chess"; docs/RULES.md "Cooperative
//! Chess"): two seats on one team play both colours against the deck, removing as many
//! piece types from the board as they can before a king falls.
//!
//! Rules implemented (each with its `rule_*` test in `tests.rs`):
//! - The deck: one card per piece of the starting position, 32 in all (red = white
//!   pieces), shuffled; 3 cards dealt to each seat (`hand_size`), the rest a draw pile.
//!   Every number is a parameter ([`CooperativeParams`]). Dealing and drawing are chance
//!   nodes over card kinds, weighted by how many of each kind remain
//!   (`rule_deal_and_draw_are_chance_over_the_pile`).
//! - A turn, in order: an optional non-capturing move (`rule_turn_order_quiet_card_captures_draw`);
//!   one card from the hand to the own discard stack (`rule_card_must_come_from_the_hand`);
//!   an optional chain of captures by one piece (`rule_capture_chain_follows_the_partners_stack`):
//!   the capturer's type matches the card just played, the victim's type matches the top
//!   card of the partner's discard stack, which then moves to the captured stack; the
//!   next capture matches the next card down. Cards match pieces by type, either colour
//!   (`rule_cards_match_by_type_either_colour`). All moves of a turn use one piece
//!   (`rule_one_piece_per_turn`). Drawing back to the hand size ends the turn.
//! - Wild cards: a type the stack's owner has no piece of is wild on its stack: as the
//!   card just played it lets any piece capture, as the partner's top card it lets any
//!   piece of the owner be captured (`rule_missing_type_is_wild`). A double colour match
//!   (the capturer's colour matches the played card's and the victim's matches its card's)
//!   makes the next captured card wild (`rule_double_colour_match_makes_the_next_capture_wild`).
//! - Castling, en passant and promotion are allowed (`rule_castling_ignores_attacks`,
//!   `rule_en_passant_right_after_the_partners_double_step`,
//!   `rule_promoted_pawn_continues_as_its_new_type`); kings may stand in or move into
//!   check (`rule_kings_may_move_into_check`).
//! - The end: capturing a king ends the game at once; the score is the number of piece
//!   types with no piece of either colour left on the board (`rule_score_counts_types_gone_from_both_colours`).
//!   A seat that must play a card and holds none loses the game, score 0
//!   (`rule_out_of_cards_is_a_loss`).
//! - The seed's worked examples: `rule_seed_example_bishop_knight_king_hand` and
//!   `rule_seed_example_double_colour_match`.
//!
//! Returns: both seats receive the same value, the score normalised to [-1, 1]
//! (`2 * score / 5 - 1`: five types can go, the sixth is the surviving king), so a loss
//! and a king captured with nothing else gone are both -1, as the seed scores them both 0
//! points. The raw score is the `score` tally.
//!
//! Information: each seat sees its own hand and everything public (board, the three
//! stacks, every action, how many cards each hand and the pile hold); the partner's hand
//! and the pile's order are hidden. There is no talking channel. `sample_world(seat)` deals
//! the cards the seat has not seen uniformly into the partner's hand and the pile, and
//! rewrites the partner's past draws so the sampled history is a possible one.
//!
//! Decisions where the texts leave a choice (RULES.md's list, plus the lab's own):
//! - "All moves must be made with one piece" includes the quiet move; castling is a king
//!   move (the king continues the chain) and ignores attacks.
//! - En passant only as the first capture of a turn with no quiet move before it, right
//!   after the partner's double step (and only if that pawn ended the partner's turn on
//!   the square it stepped to).
//! - A promoted pawn continues the chain as its new type; wildness and the double colour
//!   match are judged anew at each capture of a chain (`rule_promoted_pawn_continues_as_its_new_type`).
//!   A double colour match is judged on the cards' colours even when a card matched
//!   because it was wild.
//! - Promotion is to knight, bishop, rook or queen (the orthodox choice, RULES.md's
//!   common rules).
//! - The game is lost when the seat to move holds no card at the start of its turn; the
//!   orthodox draws do not apply (the deck ends every game within 32 turns). The ply cap
//!   (`ply_cap`, seat actions) still ends a game as `cap`, scored like a loss.
//! - The lab deals White's hand first, then Black's; who holds which colour is fixed
//!   (seat 0 White).
//! - A capture phase with no capture available ends on its own (no forced `pass`), and a
//!   turn with an empty pile ends without a draw.
//!
//! Notation: the quiet move in UCI or `pass`, `card:b` (lower case black, upper case
//! red), each capture in UCI, `pass` to stop capturing; chance draws `draw:B`.
//!
//! Files: `mod.rs` (this: parameters, actions, phases, the game's state and accessors),
//! `cards.rs` (the deck and hands), `captures.rs` (the capture rules and the moves
//! offered), `turn.rs` (undo snapshots, board moves, the end of a chain and a turn, the
//! position key), `game.rs` (the `Game` implementation), `tests.rs` (the `rule_*` tests).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    validate_ply_cap, Game, GameError, GameFacts, GameResult, InvalidParams, Seat, Turn, Utility,
    VariantParams, MAX_SEATS,
};
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::{Color, Role, Square};
use crate::variants::{castles_without_attack_test, pseudo_moves};
use crate::zobrist;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

mod captures;
mod cards;
mod game;
mod turn;
pub use cards::*;
use game::ep_target;

/// Piece types that can leave the board before the game ends (all but the king).
pub const MAX_SCORE: u32 = 5;

// ----- parameters ----------------------------------------------------------------------

/// Tunable numbers of Cooperative Chess (defaults: the seed's).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct CooperativeParams {
    /// Seat actions before the game stops as `cap` (scored as a loss).
    pub ply_cap: u32,
    /// Cards in each hand after dealing and after each draw (seed: 3).
    pub hand_size: u8,
    /// The deck (seed: 32 cards, one per piece of the starting position).
    pub deck: DeckParams,
}

impl Default for CooperativeParams {
    fn default() -> Self {
        CooperativeParams {
            ply_cap: 400,
            hand_size: 3,
            deck: DeckParams::SEED,
        }
    }
}

/// The largest hand the lab allows.
pub const MAX_HAND: u8 = 16;

/// What each of [`CooperativeParams`]'s keys is (printed by `chesslab params`).
pub const COOPERATIVE_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "seat actions after which the game ends as a loss recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "hand_size",
        "cards in each hand after dealing and after each draw",
        "1 to 16",
    ),
    crate::game::ParamDoc::new(
        "deck",
        "the deck: red (white pieces) and black (black pieces) cards per piece type; the seed has one card per piece of the starting position",
        "0 to 16 per kind; enough cards for two hands",
    ),
];

impl VariantParams for CooperativeParams {
    const DOCS: &'static [crate::game::ParamDoc] = COOPERATIVE_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        if !(1..=MAX_HAND).contains(&self.hand_size) {
            return Err(InvalidParams::new(
                "hand_size",
                format!("{}: must be from 1 to {MAX_HAND}", self.hand_size),
            ));
        }
        self.deck.validate()?;
        let n = total(&self.deck.counts());
        if n < 2 * self.hand_size as u32 {
            return Err(InvalidParams::new(
                "deck",
                format!(
                    "{n} cards cannot deal two hands of {} (hand_size)",
                    self.hand_size
                ),
            ));
        }
        Ok(())
    }
}

// ----- actions and state ---------------------------------------------------------------

/// An action of a seat, or a chance outcome (a card drawn).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CoopAction {
    /// A quiet move (quiet phase) or a capture (capture phase).
    Move(Move),
    /// No quiet move, or stop capturing.
    Pass,
    /// Play this card from the hand to the own discard stack.
    Play(Card),
    /// Chance: this card is dealt or drawn to the seat due one.
    Draw(Card),
}

/// Where in the game or the turn the state is.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Phase {
    /// Chance deals the starting hands (White's first).
    Deal,
    /// The mover may make a non-capturing move.
    Quiet,
    /// The mover plays a card.
    Card,
    /// The mover may capture (or stop).
    Capture,
    /// Chance draws the mover a card.
    Draw,
}

/// How the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum End {
    /// A king was captured; the score (piece types gone from the board).
    KingCaptured(u8),
    /// The seat to move had no card to play.
    OutOfCards,
    /// The ply cap.
    Cap,
}

/// Per-game counts for the tallies (restored by `undo` with the rest).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
struct Stats {
    captures: u16,
    wild_captures: u16,
    double_matches: u16,
    longest_chain: u8,
    quiet_moves: u16,
}

/// Everything small that an action may change, saved for `undo`.
#[derive(Clone, Copy, Debug)]
struct Snap {
    phase: Phase,
    active: Option<Square>,
    quiet_moved: bool,
    chain: u8,
    next_wild: bool,
    ep: Option<Square>,
    ep_next: Option<Square>,
    end: Option<End>,
    plies: u32,
    public: u64,
    private: [u64; 2],
    stats: Stats,
}

#[derive(Clone, Debug)]
struct Record {
    action: CoopAction,
    snap: Snap,
    /// The colour that acted (the recipient, for draws).
    by: Color,
    /// The board took a move (and a null move to give the turn back to the mover).
    moved: bool,
    /// The turn ended (a null move handed the board to the partner).
    turn_end: bool,
}

/// A Cooperative Chess game.
#[derive(Clone, Debug)]
pub struct Cooperative {
    board: Board,
    hand_size: u8,
    ply_cap: u32,
    /// The whole deck.
    full: Counts,
    hands: [Counts; 2],
    /// The draw pile.
    pile: Counts,
    /// Discard stacks, top last.
    stacks: [Vec<Card>; 2],
    /// The captured cards, oldest first.
    captured: Vec<Card>,
    phase: Phase,
    /// The piece that has moved this turn (every later move is its).
    active: Option<Square>,
    quiet_moved: bool,
    /// Captures made this turn.
    chain: u8,
    /// The last capture was a double colour match: the next victim card is wild.
    next_wild: bool,
    /// The partner's pawn that double-stepped last turn (capturable en passant).
    ep: Option<Square>,
    /// The mover's pawn that double-stepped this turn.
    ep_next: Option<Square>,
    end: Option<End>,
    /// Seat actions so far.
    plies: u32,
    /// Running hash of the public record.
    public: u64,
    /// Running hash of each seat's own draws.
    private: [u64; 2],
    stats: Stats,
    records: Vec<Record>,
}

fn mix(h: u64, x: u64) -> u64 {
    zobrist::extra(h.rotate_left(23) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

fn action_code(a: CoopAction) -> u64 {
    match a {
        CoopAction::Move(m) => 1 + m.code() as u64,
        CoopAction::Pass => 1 << 20,
        CoopAction::Play(c) => (2 << 20) | c.index() as u64,
        CoopAction::Draw(c) => (3 << 20) | c.index() as u64,
    }
}

/// The public trace of a draw: who drew, not what.
fn draw_code(to: Color) -> u64 {
    (4 << 20) | to.index() as u64
}

impl Cooperative {
    /// A game from `board` (the deal still to come).
    pub fn from_board(params: &CooperativeParams, board: Board) -> Cooperative {
        let full = params.deck.counts();
        Cooperative {
            public: mix(board.key(), 0x636f_6f70),
            board,
            hand_size: params.hand_size,
            ply_cap: params.ply_cap,
            full,
            hands: [[0; KINDS]; 2],
            pile: full,
            stacks: [Vec::new(), Vec::new()],
            captured: Vec::new(),
            phase: Phase::Deal,
            active: None,
            quiet_moved: false,
            chain: 0,
            next_wild: false,
            ep: None,
            ep_next: None,
            end: None,
            plies: 0,
            private: [0x7072_6976, 0x7072_6977],
            stats: Stats::default(),
            records: Vec::new(),
        }
    }

    /// A position with the cards already placed: the board from `fen` (its side to move
    /// acts next, in its quiet phase), each seat's hand and discard stack as letters
    /// (stacks bottom first, e.g. `"pPb"` has `b` on top), the captured cards, and the
    /// rest of the deck as the pile. For tests, puzzles and the seed's examples.
    pub fn setup(
        params: &CooperativeParams,
        fen: &str,
        hands: [&str; 2],
        stacks: [&str; 2],
        captured: &str,
    ) -> Result<Cooperative, GameError> {
        let bad = |m: String| GameError::opening(fen, m);
        let board =
            Board::from_fen_kings_touching(fen).map_err(|e| GameError::opening_fen(fen, e))?;
        let mut g = Cooperative::from_board(params, board);
        let mut used = [0u8; KINDS];
        let mut add = |counts: &Counts| {
            for (u, c) in used.iter_mut().zip(counts) {
                *u = u.saturating_add(*c);
            }
        };
        for (seat, text) in hands.iter().enumerate() {
            let h = parse_letters(text).map_err(bad)?;
            if total(&h) > params.hand_size as u32 {
                return Err(bad(format!(
                    "hand '{text}' holds more than {} cards",
                    params.hand_size
                )));
            }
            add(&h);
            g.hands[seat] = h;
        }
        let as_cards = |text: &str| -> Result<Vec<Card>, GameError> {
            text.chars()
                .filter(|&c| c != '-')
                .map(|c| {
                    Card::parse(&c.to_string()).ok_or_else(|| bad(format!("'{c}' is not a card")))
                })
                .collect()
        };
        for (seat, text) in stacks.iter().enumerate() {
            g.stacks[seat] = as_cards(text)?;
        }
        g.captured = as_cards(captured)?;
        for c in g.stacks.iter().flatten().chain(&g.captured) {
            used[c.index()] = used[c.index()].saturating_add(1);
        }
        for (i, &u) in used.iter().enumerate() {
            if u > g.full[i] {
                return Err(bad(format!(
                    "more {} cards placed than the deck holds ({})",
                    Card::from_index(i).describe(),
                    g.full[i]
                )));
            }
            g.pile[i] = g.full[i] - u;
        }
        // A FEN's en passant square: the pawn that just double-stepped may be taken.
        g.ep = g.board.ep_square().map(|t| {
            let rank = if t.rank() == 2 { 3 } else { 4 };
            Square::from_coords(t.file(), rank)
        });
        g.phase = Phase::Quiet;
        g.public = mix(g.board.key(), 0x7365_7475);
        for s in 0..2 {
            g.private[s] = mix(g.private[s], pack(&g.hands[s]));
        }
        if total(&g.hands[g.board.turn().index()]) == 0 {
            g.end = Some(End::OutOfCards);
        }
        Ok(g)
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The hand of `seat` (only that seat, and `cheat`, may look).
    pub fn hand(&self, seat: Seat) -> Counts {
        self.hands[seat.min(1)]
    }

    /// The draw pile's make-up (nobody may look).
    pub fn pile(&self) -> Counts {
        self.pile
    }

    /// Cards left in the draw pile (public).
    pub fn pile_len(&self) -> u32 {
        total(&self.pile)
    }

    /// The discard stack of `seat`, bottom first (public).
    pub fn stack(&self, seat: Seat) -> &[Card] {
        &self.stacks[seat.min(1)]
    }

    /// The captured cards, oldest first (public).
    pub fn captured(&self) -> &[Card] {
        &self.captured
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<End> {
        self.end
            .or_else(|| (self.plies >= self.ply_cap).then_some(End::Cap))
    }

    /// Whether the next capture's victim card is wild (a double colour match just now).
    pub fn next_capture_wild(&self) -> bool {
        self.next_wild
    }

    /// The number of piece types with no piece of either colour on the board.
    pub fn types_removed(&self) -> u32 {
        Role::ALL
            .iter()
            .filter(|&&r| self.board.by_role(r).is_empty())
            .count() as u32
    }

    fn mover(&self) -> Color {
        self.board.turn()
    }

    /// The seat a deal card goes to (White's hand fills first).
    fn deal_recipient(&self) -> Color {
        if total(&self.hands[0]) < self.hand_size as u32 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Whether `card` on the stack of `owner` is wild because `owner` has no piece of
    /// its type.
    fn missing_type(&self, owner: Color, card: Card) -> bool {
        self.board.pieces(owner, card.role).is_empty()
    }
}

#[cfg(test)]
mod tests;

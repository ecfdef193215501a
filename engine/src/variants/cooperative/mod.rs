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

mod cards;
pub use cards::*;

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

/// The capture rules' verdict on one capture, for the chain's bookkeeping.
#[derive(Clone, Copy, Debug)]
struct Match {
    wild: bool,
    double_colour: bool,
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

    /// The capture rules for one capture by `capturer` (a piece of the mover) of
    /// `victim` (a piece of the partner) with the current cards, or why not.
    fn capture_match(&self, capturer: Role, victim: Role) -> Result<Match, String> {
        let me = self.mover();
        let them = me.other();
        let played = *self.stacks[me.index()]
            .last()
            .ok_or("no card has been played")?;
        let target = *self.stacks[them.index()]
            .last()
            .ok_or("the partner's discard stack is empty: nothing can be captured")?;
        let own_wild = self.missing_type(me, played);
        if capturer != played.role && !own_wild {
            return Err(format!(
                "the capturer must be a {} (the card played), not a {}",
                role_name(played.role),
                role_name(capturer)
            ));
        }
        let victim_wild = self.next_wild || self.missing_type(them, target);
        if victim != target.role && !victim_wild {
            return Err(format!(
                "the victim must be a {} (the top of the partner's stack), not a {}",
                role_name(target.role),
                role_name(victim)
            ));
        }
        Ok(Match {
            wild: (own_wild && capturer != played.role) || (victim_wild && victim != target.role),
            double_colour: played.color == me && target.color == them,
        })
    }

    /// Appends the captures available now (capture phase).
    fn captures(&self, out: &mut Vec<CoopAction>) {
        let me = self.mover();
        let them = me.other();
        let (Some(&played), Some(&target)) = (
            self.stacks[me.index()].last(),
            self.stacks[them.index()].last(),
        ) else {
            return;
        };
        let b = &self.board;
        let mut movers = match self.active {
            Some(sq) => Bitboard::from_square(sq),
            None => b.by_color(me),
        };
        if !self.missing_type(me, played) {
            movers &= b.pieces(me, played.role);
        }
        let victims = if self.next_wild || self.missing_type(them, target) {
            b.by_color(them)
        } else {
            b.pieces(them, target.role)
        };
        if movers.is_empty() || victims.is_empty() {
            return;
        }
        let occ = b.occupied();
        let last = Bitboard::relative_rank(me, 7);
        for from in movers {
            let role = b.piece_at(from).expect("own piece").role;
            for to in attacks::attacks(role, me, from, occ) & victims {
                if role == Role::Pawn && last.contains(to) {
                    for r in Role::PROMOTIONS {
                        out.push(CoopAction::Move(Move::new(
                            from,
                            to,
                            MoveKind::Promotion(r),
                        )));
                    }
                } else {
                    out.push(CoopAction::Move(Move::normal(from, to)));
                }
            }
        }
        if let Some(v) = self.ep {
            if self.chain == 0 && !self.quiet_moved && victims.contains(v) {
                let behind = ep_target(v, them);
                if !occ.contains(behind) {
                    for from in movers & b.pieces(me, Role::Pawn) {
                        if attacks::pawn_attacks(me, from).contains(behind) {
                            out.push(CoopAction::Move(Move::new(
                                from,
                                behind,
                                MoveKind::EnPassant,
                            )));
                        }
                    }
                }
            }
        }
    }

    /// Appends the quiet moves (quiet phase): any non-capturing move, castling included.
    fn quiet_moves(&self, out: &mut Vec<CoopAction>) {
        let b = &self.board;
        let occ = b.occupied();
        let mut list = MoveList::new();
        pseudo_moves(b, &mut list, b.by_color(b.turn()), |_| occ, |_, _| false);
        for &m in list.iter() {
            if !occ.contains(m.to()) && m.kind() != MoveKind::EnPassant {
                out.push(CoopAction::Move(m));
            }
        }
        castles_without_attack_test(b, |m| out.push(CoopAction::Move(m)));
    }

    fn any_capture(&self) -> bool {
        let mut v = Vec::new();
        self.captures(&mut v);
        !v.is_empty()
    }

    fn snap(&self) -> Snap {
        Snap {
            phase: self.phase,
            active: self.active,
            quiet_moved: self.quiet_moved,
            chain: self.chain,
            next_wild: self.next_wild,
            ep: self.ep,
            ep_next: self.ep_next,
            end: self.end,
            plies: self.plies,
            public: self.public,
            private: self.private,
            stats: self.stats,
        }
    }

    fn restore(&mut self, s: Snap) {
        self.phase = s.phase;
        self.active = s.active;
        self.quiet_moved = s.quiet_moved;
        self.chain = s.chain;
        self.next_wild = s.next_wild;
        self.ep = s.ep;
        self.ep_next = s.ep_next;
        self.end = s.end;
        self.plies = s.plies;
        self.public = s.public;
        self.private = s.private;
        self.stats = s.stats;
    }

    /// Plays `m` for the mover and gives the board back to the mover.
    fn board_move(&mut self, m: Move, rec: &mut Record) {
        let dest = if m.is_castle() {
            Board::castle_targets(self.mover(), m.from(), m.to()).0
        } else {
            m.to()
        };
        self.board.make(m);
        self.board.make_null();
        rec.moved = true;
        self.active = Some(dest);
    }

    /// The capture phase is over: draw if the pile has cards, else end the turn.
    fn finish_captures(&mut self, rec: &mut Record) {
        if self.pile_len() > 0 {
            self.phase = Phase::Draw;
        } else {
            self.end_turn(rec);
        }
    }

    fn end_turn(&mut self, rec: &mut Record) {
        // En passant is owed only to a pawn still on the square it stepped to.
        let ep = self.ep_next.filter(|&sq| self.active == Some(sq));
        self.board.make_null();
        rec.turn_end = true;
        self.ep = ep;
        self.ep_next = None;
        self.active = None;
        self.quiet_moved = false;
        self.chain = 0;
        self.next_wild = false;
        self.phase = Phase::Quiet;
        if total(&self.hands[self.mover().index()]) == 0 {
            self.end = Some(End::OutOfCards);
        }
    }

    fn full_key(&self) -> u64 {
        let phase = match self.phase {
            Phase::Deal => 1,
            Phase::Quiet => 2,
            Phase::Card => 3,
            Phase::Capture => 4,
            Phase::Draw => 5,
        };
        let sq = |s: Option<Square>| s.map_or(64, |s| s.index() as u64);
        let end = match self.end {
            None => 0,
            Some(End::KingCaptured(s)) => 1 + s as u64,
            Some(End::OutOfCards) => 100,
            Some(End::Cap) => 101,
        };
        let mut k = mix(self.board.key(), phase);
        k = mix(k, pack(&self.hands[0]));
        k = mix(k, pack(&self.hands[1]));
        k = mix(k, pack(&self.pile));
        k = mix(
            k,
            sq(self.active)
                | sq(self.ep) << 7
                | sq(self.ep_next) << 14
                | (self.quiet_moved as u64) << 21
                | (self.next_wild as u64) << 22
                | (self.chain as u64) << 23
                | end << 32,
        );
        for (i, s) in self.stacks.iter().enumerate() {
            k = mix(k, 0x5354_0000 + i as u64);
            for c in s {
                k = mix(k, c.index() as u64);
            }
        }
        k = mix(k, 0x4341_5054);
        for c in &self.captured {
            k = mix(k, c.index() as u64);
        }
        k
    }

    /// Why a move text is not a legal capture now (for error messages).
    fn explain_capture(&self, text: &str) -> String {
        let from = text.get(0..2).and_then(Square::parse);
        let to = text.get(2..4).and_then(Square::parse);
        let (Some(from), Some(to)) = (from, to) else {
            return "expected a capture in UCI (e.g. 'e6d5') or 'pass'".into();
        };
        let me = self.mover();
        let Some(p) = self.board.piece_at(from).filter(|p| p.color == me) else {
            return format!("no {} piece on {from}", me.name());
        };
        if let Some(a) = self.active.filter(|&a| a != from) {
            return format!("all moves of a turn are made with one piece, the one on {a}");
        }
        let victim = self.board.piece_at(to).filter(|v| v.color == me.other());
        let Some(v) = victim else {
            return format!("no {} piece to capture on {to}", me.other().name());
        };
        if let Err(why) = self.capture_match(p.role, v.role) {
            return why;
        }
        format!("the {} on {from} does not attack {to}", role_name(p.role))
    }

    fn hand_text(&self, seat: usize) -> String {
        letters(&self.hands[seat])
    }

    fn stack_text(s: &[Card]) -> String {
        if s.is_empty() {
            "-".into()
        } else {
            s.iter().map(|c| c.letter()).collect()
        }
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The square a pawn of `owner` that double-stepped to `pawn` passed over.
fn ep_target(pawn: Square, owner: Color) -> Square {
    match owner {
        Color::White => Square::from_coords(pawn.file(), pawn.rank() - 1),
        Color::Black => Square::from_coords(pawn.file(), pawn.rank() + 1),
    }
}

impl Game for Cooperative {
    type Action = CoopAction;
    type Params = CooperativeParams;

    fn facts(&self) -> GameFacts {
        GameFacts {
            utility: Utility::Identical,
            ..GameFacts::TWO_SEAT_CLASSIC
                .with_chance(true)
                .with_hidden_information(true)
        }
    }

    fn new(params: &CooperativeParams) -> Cooperative {
        Cooperative::from_board(params, Board::startpos())
    }

    /// A FEN whose side to move starts; the hands are dealt first.
    fn from_opening(params: &CooperativeParams, opening: &str) -> Result<Cooperative, GameError> {
        let board = Board::from_fen_kings_touching(opening)
            .map_err(|e| GameError::opening_fen(opening, e))?;
        if board.king(Color::White).is_none() || board.king(Color::Black).is_none() {
            return Err(GameError::opening(
                opening,
                "both kings must be on the board",
            ));
        }
        Ok(Cooperative::from_board(params, board))
    }

    fn num_seats(&self) -> usize {
        2
    }

    /// One team: both seats play against the deck.
    fn team(&self, _seat: Seat) -> usize {
        0
    }

    fn turn(&self) -> Turn {
        if self.end().is_some() {
            return Turn::Terminal;
        }
        match self.phase {
            Phase::Deal | Phase::Draw => Turn::Chance,
            _ => Turn::Seat(self.mover().index()),
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<CoopAction>) {
        out.clear();
        if self.turn() != Turn::Seat(seat) {
            return;
        }
        match self.phase {
            Phase::Quiet => {
                out.push(CoopAction::Pass);
                self.quiet_moves(out);
            }
            Phase::Card => {
                for (i, &n) in self.hands[seat].iter().enumerate() {
                    if n > 0 {
                        out.push(CoopAction::Play(Card::from_index(i)));
                    }
                }
            }
            Phase::Capture => {
                out.push(CoopAction::Pass);
                self.captures(out);
            }
            Phase::Deal | Phase::Draw => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(CoopAction, f64)>) {
        out.clear();
        if self.turn() != Turn::Chance {
            return;
        }
        let n = self.pile_len() as f64;
        for (i, &c) in self.pile.iter().enumerate() {
            if c > 0 {
                out.push((CoopAction::Draw(Card::from_index(i)), c as f64 / n));
            }
        }
    }

    fn apply(&mut self, action: CoopAction) {
        let me = self.mover();
        let mut rec = Record {
            action,
            snap: self.snap(),
            by: me,
            moved: false,
            turn_end: false,
        };
        match (self.phase, action) {
            (Phase::Deal | Phase::Draw, CoopAction::Draw(c)) => {
                let to = if self.phase == Phase::Deal {
                    self.deal_recipient()
                } else {
                    me
                };
                rec.by = to;
                self.pile[c.index()] -= 1;
                self.hands[to.index()][c.index()] += 1;
                self.private[to.index()] = mix(self.private[to.index()], c.index() as u64);
                self.public = mix(self.public, draw_code(to));
                if self.phase == Phase::Draw {
                    self.end_turn(&mut rec);
                } else if total(&self.hands[1]) >= self.hand_size as u32 {
                    self.phase = Phase::Quiet;
                }
            }
            (Phase::Quiet, CoopAction::Pass) => {
                self.phase = Phase::Card;
            }
            (Phase::Quiet, CoopAction::Move(m)) => {
                let double = self.board.piece_at(m.from()).map(|p| p.role) == Some(Role::Pawn)
                    && m.from().index().abs_diff(m.to().index()) == 16;
                self.board_move(m, &mut rec);
                self.quiet_moved = true;
                self.stats.quiet_moves += 1;
                if double {
                    self.ep_next = Some(m.to());
                }
                self.phase = Phase::Card;
            }
            (Phase::Card, CoopAction::Play(c)) => {
                self.hands[me.index()][c.index()] -= 1;
                self.stacks[me.index()].push(c);
                self.phase = Phase::Capture;
                if !self.any_capture() {
                    self.finish_captures(&mut rec);
                }
            }
            (Phase::Capture, CoopAction::Pass) => self.finish_captures(&mut rec),
            (Phase::Capture, CoopAction::Move(m)) => {
                let b = &self.board;
                let capturer = b
                    .piece_at(m.from())
                    .expect("capture from an own piece")
                    .role;
                let victim = b.captured_piece(m).expect("a capture takes a piece").role;
                let verdict = self
                    .capture_match(capturer, victim)
                    .expect("capture from the legal list");
                let card = self.stacks[me.other().index()]
                    .pop()
                    .expect("a victim card");
                self.captured.push(card);
                self.board_move(m, &mut rec);
                self.chain += 1;
                self.next_wild = verdict.double_colour;
                self.stats.captures += 1;
                self.stats.wild_captures += verdict.wild as u16;
                self.stats.double_matches += verdict.double_colour as u16;
                self.stats.longest_chain = self.stats.longest_chain.max(self.chain);
                if victim == Role::King {
                    self.end = Some(End::KingCaptured(self.types_removed() as u8));
                } else if !self.any_capture() {
                    self.finish_captures(&mut rec);
                }
            }
            (phase, a) => panic!("cooperative: {a:?} does not fit the phase {phase:?}"),
        }
        if !matches!(action, CoopAction::Draw(_)) {
            self.plies += 1;
            self.public = mix(self.public, action_code(action));
        }
        self.records.push(rec);
    }

    fn undo(&mut self) {
        let rec = self.records.pop().expect("undo without an action");
        if rec.turn_end {
            self.board.unmake_null();
        }
        if rec.moved {
            self.board.unmake_null();
            self.board.unmake();
        }
        let by = rec.by.index();
        match rec.action {
            CoopAction::Draw(c) => {
                self.hands[by][c.index()] -= 1;
                self.pile[c.index()] += 1;
            }
            CoopAction::Play(c) => {
                self.stacks[by].pop();
                self.hands[by][c.index()] += 1;
            }
            CoopAction::Move(_) if rec.snap.phase == Phase::Capture => {
                let card = self.captured.pop().expect("a captured card");
                self.stacks[1 - by].push(card);
            }
            _ => {}
        }
        self.restore(rec.snap);
    }

    fn result(&self) -> Option<GameResult> {
        let (score, reason) = match self.end()? {
            End::KingCaptured(s) => (s as u32, "king-captured"),
            End::OutOfCards => (0, "out-of-cards"),
            End::Cap => (0, "cap"),
        };
        let v = 2.0 * score as f64 / MAX_SCORE as f64 - 1.0;
        let mut returns = [0.0; MAX_SEATS];
        returns[0] = v;
        returns[1] = v;
        Some(GameResult { returns, reason })
    }

    fn state_key(&self) -> u64 {
        self.full_key()
    }

    fn information_key(&self, seat: Seat) -> u64 {
        let s = seat.min(1);
        mix(mix(self.public, self.private[s]), 0x5345_4154 + s as u64)
    }

    /// Deals the cards `seat` has not seen (the partner's hand and the pile) uniformly,
    /// and rewrites the partner's past draws to fit: the partner drew the cards it has
    /// played in the order it played them, then the cards of its sampled hand.
    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Cooperative {
        let me = seat.min(1);
        let partner = 1 - me;
        let mut w = self.clone();
        // The unseen pool, in kind order: the deck less the own hand and every played card.
        let mut pool_counts = self.full;
        for (p, h) in pool_counts.iter_mut().zip(&self.hands[me]) {
            *p -= h;
        }
        for c in self.stacks.iter().flatten().chain(&self.captured) {
            pool_counts[c.index()] -= 1;
        }
        let mut pool: Vec<Card> = Vec::with_capacity(32);
        for (i, &n) in pool_counts.iter().enumerate() {
            for _ in 0..n {
                pool.push(Card::from_index(i));
            }
        }
        let k = total(&self.hands[partner]) as usize;
        for i in 0..k {
            let j = rng.gen_range(i..pool.len());
            pool.swap(i, j);
        }
        let mut hand = [0u8; KINDS];
        for c in &pool[..k] {
            hand[c.index()] += 1;
        }
        let mut pile = [0u8; KINDS];
        for c in &pool[k..] {
            pile[c.index()] += 1;
        }
        w.hands[partner] = hand;
        w.pile = pile;
        // The partner's draws, rewritten: its plays in order, then its hand.
        let partner_colour = Color::from_index(partner);
        let mut drawn = w
            .records
            .iter()
            .filter_map(|r| match r.action {
                CoopAction::Play(c) if r.by == partner_colour => Some(c),
                _ => None,
            })
            .collect::<Vec<_>>();
        for (i, &n) in hand.iter().enumerate() {
            for _ in 0..n {
                drawn.push(Card::from_index(i));
            }
        }
        let mut next = drawn.into_iter();
        let mut h = self
            .records
            .first()
            .map_or(self.private[partner], |r| r.snap.private[partner]);
        for r in w.records.iter_mut() {
            r.snap.private[partner] = h;
            if let CoopAction::Draw(_) = r.action {
                if r.by == partner_colour {
                    // A set-up position's first hand has no draw records: cards left
                    // over keep their place in the hand.
                    if let Some(c) = next.next() {
                        r.action = CoopAction::Draw(c);
                        h = mix(h, c.index() as u64);
                    }
                }
            }
        }
        w.private[partner] = h;
        w
    }

    fn observation(&self, seat: Seat) -> String {
        let me = seat.min(1);
        let log: Vec<String> = self
            .records
            .iter()
            .map(|r| match r.action {
                CoopAction::Draw(c) if r.by.index() == me => format!("draw:{c}"),
                CoopAction::Draw(_) => format!("{}:draw", &r.by.name()[..1]),
                a => self.notation_in(r, a),
            })
            .collect();
        format!(
            "{} | {:?} | you are {}; your hand: {} | partner holds {} | pile {} | stacks: \
             white {} black {} | captured {} | record: {}",
            self.board.fen(),
            self.phase,
            Color::from_index(me).name(),
            self.hand_text(me),
            total(&self.hands[1 - me]),
            self.pile_len(),
            Self::stack_text(&self.stacks[0]),
            Self::stack_text(&self.stacks[1]),
            Self::stack_text(&self.captured),
            log.join(" ")
        )
    }

    fn action_notation(&self, action: CoopAction) -> String {
        match action {
            CoopAction::Move(m) => self.board.uci(m),
            CoopAction::Pass => "pass".into(),
            CoopAction::Play(c) => format!("card:{c}"),
            CoopAction::Draw(c) => format!("draw:{c}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<CoopAction, GameError> {
        let t = text.trim();
        let err = |m: String| GameError::Action {
            action: text.into(),
            message: m,
        };
        if self.end().is_some() {
            return Err(err("the game is over".into()));
        }
        let me = self.mover().index();
        match self.phase {
            Phase::Deal | Phase::Draw => {
                let card = t
                    .strip_prefix("draw:")
                    .and_then(Card::parse)
                    .ok_or_else(|| err("a card is drawn now ('draw:B')".into()))?;
                if self.pile[card.index()] == 0 {
                    return Err(err(format!(
                        "no {} card is left in the pile",
                        card.describe()
                    )));
                }
                Ok(CoopAction::Draw(card))
            }
            Phase::Card => {
                let Some(rest) = t.strip_prefix("card:") else {
                    return Err(err(format!(
                        "a card must be played now ('card:b'); your hand: {}",
                        self.hand_text(me)
                    )));
                };
                let card = Card::parse(rest).ok_or_else(|| {
                    err(format!(
                        "'{rest}' is not a card (P N B R Q K red, p n b r q k black)"
                    ))
                })?;
                if self.hands[me][card.index()] == 0 {
                    return Err(err(format!(
                        "the {} card is not in your hand ({})",
                        card.describe(),
                        self.hand_text(me)
                    )));
                }
                Ok(CoopAction::Play(card))
            }
            Phase::Quiet | Phase::Capture => {
                if t == "pass" {
                    return Ok(CoopAction::Pass);
                }
                if t.starts_with("card:") {
                    return Err(err(if self.phase == Phase::Quiet {
                        "the card comes after the quiet move: play a quiet move or 'pass' first"
                            .into()
                    } else {
                        "one card a turn: capture (UCI) or 'pass'".into()
                    }));
                }
                let mut legal = Vec::new();
                if self.phase == Phase::Quiet {
                    self.quiet_moves(&mut legal);
                } else {
                    self.captures(&mut legal);
                }
                if let Some(a) = legal
                    .iter()
                    .copied()
                    .find(|&a| self.action_notation(a) == t)
                {
                    return Ok(a);
                }
                Err(err(if self.phase == Phase::Quiet {
                    "not a legal non-capturing move here (UCI, or 'pass')".into()
                } else {
                    format!("not a legal capture: {}", self.explain_capture(t))
                }))
            }
        }
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    /// The team's progress, the same for both seats: a point per piece type gone from
    /// the board plus a half-point share of the type's pieces removed.
    fn material(&self, _seat: Seat) -> f64 {
        // Pieces of each type (pawn..queen) in the starting position.
        const START: [f64; 5] = [16.0, 4.0, 4.0, 4.0, 2.0];
        let mut v = 0.0;
        for (r, start) in Role::ALL.iter().zip(START) {
            let left = self.board.by_role(*r).count() as f64;
            let all = start.max(left);
            if left == 0.0 {
                v += 1.0;
            }
            v += 0.5 * (1.0 - left / all);
        }
        v
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// Per game: `score` (the raw score, 0 on a loss), `king_captured` (1 or 0),
    /// `types_removed` (at the end, whatever the ending), `turns`, `captures`,
    /// `wild_captures`, `double_colour_matches`, `longest_chain`, `quiet_moves`,
    /// `cards_left` (pile and hands at the end).
    fn tallies(&self) -> Vec<(String, f64)> {
        let score = match self.end() {
            Some(End::KingCaptured(s)) => s as f64,
            _ => 0.0,
        };
        let turns = self
            .records
            .iter()
            .filter(|r| matches!(r.action, CoopAction::Play(_)))
            .count();
        let s = self.stats;
        let left = self.pile_len() + total(&self.hands[0]) + total(&self.hands[1]);
        vec![
            ("score".into(), score),
            (
                "king_captured".into(),
                f64::from(matches!(self.end(), Some(End::KingCaptured(_)))),
            ),
            ("types_removed".into(), self.types_removed() as f64),
            ("turns".into(), turns as f64),
            ("captures".into(), s.captures as f64),
            ("wild_captures".into(), s.wild_captures as f64),
            ("double_colour_matches".into(), s.double_matches as f64),
            ("longest_chain".into(), s.longest_chain as f64),
            ("quiet_moves".into(), s.quiet_moves as f64),
            ("cards_left".into(), left as f64),
        ]
    }
}

impl Cooperative {
    /// Notation of a recorded action in the position it was played in (the board's side
    /// to move is not needed for UCI but castling prints the king's target).
    fn notation_in(&self, rec: &Record, a: CoopAction) -> String {
        match a {
            CoopAction::Move(m) => {
                let to = if m.is_castle() {
                    Board::castle_targets(rec.by, m.from(), m.to()).0
                } else {
                    m.to()
                };
                let mut s = format!("{}{}", m.from(), to);
                if let Some(r) = m.promotion() {
                    s.push(r.char());
                }
                s
            }
            CoopAction::Pass => "pass".into(),
            CoopAction::Play(c) => format!("card:{c}"),
            CoopAction::Draw(c) => format!("draw:{c}"),
        }
    }
}

#[cfg(test)]
mod tests;

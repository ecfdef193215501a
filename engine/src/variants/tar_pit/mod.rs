//! Tar Pit Chess (chess-kit seed "Tar Pit Chess"; docs/RULES.md "Tar Pit Chess"):
//! checkers under pieces tar the opponent's pieces, and cards say where checkers may go.
//!
//! Rules, each with its test (in `tests.rs`):
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
mod info;

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
}

impl Default for TarPitParams {
    fn default() -> Self {
        TarPitParams {
            ply_cap: 400,
            white_checkers: 6,
            black_checkers: 6,
            checkers_per_colour: 12,
            deck: DeckParams::SEED,
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

    // ----- attacks and moves -----------------------------------------------------------

    /// Pieces of `by` (minus `removed`) attacking `target` with occupancy `occ`, tar
    /// included: a tarred pawn attacks nothing, another tarred piece attacks its two
    /// pawn-capture squares.
    pub fn attackers(
        &self,
        target: Square,
        by: Color,
        occ: Bitboard,
        removed: Bitboard,
    ) -> Bitboard {
        let b = &self.board;
        let mine = b.by_color(by) - removed;
        let tar = self.core.checkers[by.other().index()];
        let free = mine - tar;
        let pawnlike = (b.by_role(Role::Pawn) & free) | ((mine & tar) - b.by_role(Role::Pawn));
        let diag = b.by_role(Role::Bishop) | b.by_role(Role::Queen);
        let orth = b.by_role(Role::Rook) | b.by_role(Role::Queen);
        (attacks::pawn_attacks(by.other(), target) & pawnlike)
            | (attacks::knight_attacks(target) & b.by_role(Role::Knight) & free)
            | (attacks::king_attacks(target) & b.by_role(Role::King) & free)
            | (attacks::bishop_attacks(target, occ) & diag & free)
            | (attacks::rook_attacks(target, occ) & orth & free)
    }

    /// Whether `c`'s king is attacked (tar-aware).
    pub fn in_check_color(&self, c: Color) -> bool {
        self.board.king(c).is_some_and(|k| {
            self.attackers(k, c.other(), self.board.occupied(), Bitboard::EMPTY)
                .any()
        })
    }

    /// The en passant target after an enemy pawn's double step, whoever may use it (the
    /// board keeps one only when a pawn could take; a tarred piece may take too).
    fn ep_target(&self) -> Option<Square> {
        if let Some(ep) = self.board.ep_square() {
            return Some(ep);
        }
        let m = self.board.last_move()?;
        let moved = self.board.piece_at(m.to())?;
        (m.kind() == MoveKind::Normal
            && moved.role == Role::Pawn
            && m.from().index() ^ m.to().index() == 16)
            .then(|| Square::new(((m.from().index() + m.to().index()) / 2) as u8))
    }

    fn pseudo(&self, out: &mut MoveList) {
        let b = &self.board;
        let us = b.turn();
        let occ = b.occupied();
        let tar = self.tarred(us);
        pseudo_moves(b, out, !tar, |_| occ, |_, _| true);
        let theirs = b.by_color(us.other());
        for sq in tar - b.by_role(Role::Pawn) {
            let dr = if us == Color::White { 1 } else { -1 };
            if let Some(f) = sq.offset(0, dr) {
                if !occ.contains(f) {
                    out.push(Move::normal(sq, f));
                }
            }
            for to in attacks::pawn_attacks(us, sq) & theirs {
                out.push(Move::normal(sq, to));
            }
            if let Some(ep) = self.ep_target() {
                let victim = Square::from_coords(ep.file(), sq.rank());
                if attacks::pawn_attacks(us, sq).contains(ep)
                    && !occ.contains(ep)
                    && b.pieces(us.other(), Role::Pawn).contains(victim)
                {
                    out.push(Move::new(sq, ep, MoveKind::EnPassant));
                }
            }
        }
        self.castles(out);
    }

    fn castles(&self, out: &mut MoveList) {
        let b = &self.board;
        let us = b.turn();
        let Some(king) = b.king(us) else { return };
        let with_checker = self.core.checkers[0] | self.core.checkers[1];
        let back = Bitboard::relative_rank(us, 0);
        if !back.contains(king) || with_checker.contains(king) {
            return;
        }
        let occ = b.occupied();
        for rook in b.castling_rights() & back & b.pieces(us, Role::Rook) {
            if with_checker.contains(rook) {
                continue;
            }
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let must_be_empty = (attacks::between(king, kd).with(kd)
                | attacks::between(rook, rd).with(rd))
            .without(king)
            .without(rook);
            if (must_be_empty & occ).any() {
                continue;
            }
            let path = attacks::between(king, kd).with(kd).with(king);
            if path.any_square(|s| self.attackers(s, us.other(), occ, Bitboard::EMPTY).any()) {
                continue;
            }
            out.push(Move::new(king, rook, MoveKind::Castle));
        }
    }

    fn is_legal_pseudo(&self, m: Move) -> bool {
        let us = self.board.turn();
        let s = MoveSketch::new(&self.board, m);
        let Some(k) = s.king else { return true };
        self.attackers(k, us.other(), s.occupied, s.captured)
            .is_empty()
    }

    /// The mover's legal chess moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo(&mut list);
        let mut out = MoveList::new();
        for &m in list.iter() {
            if self.is_legal_pseudo(m) {
                out.push(m);
            }
        }
        out
    }

    fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.pseudo(&mut list);
        list.iter().any(|&m| self.is_legal_pseudo(m))
    }

    // ----- checkers --------------------------------------------------------------------

    /// Takes the checker off `sq` (if any) back in front of its owner.
    fn return_checker(&mut self, sq: Square) {
        if let Some(c) = self.checker_at(sq) {
            self.core.checkers[c.index()].clear(sq);
            self.core.front[c.index()] += 1;
            if let Some(p) = self.board.piece_at(sq) {
                if p.color != c {
                    self.core.tally.cleansings[p.color.index()] += 1;
                }
            }
        }
    }

    /// A checker of `owner` (already out of its front or carried) arrives under the
    /// piece on `sq`: cancel, repel, or stay; then the back-rank rule.
    fn arrive(&mut self, owner: Color, sq: Square) {
        match self.checker_at(sq) {
            None => self.core.checkers[owner.index()].set(sq),
            Some(c) if c == owner => self.core.front[owner.index()] += 1,
            Some(_) => {
                self.return_checker(sq);
                self.core.front[owner.index()] += 1;
            }
        }
        self.back_rank(sq);
    }

    /// An enemy checker never stays under a piece on that piece's back rank.
    fn back_rank(&mut self, sq: Square) {
        if let Some(p) = self.board.piece_at(sq) {
            if Bitboard::relative_rank(p.color, 7).contains(sq)
                && self.checker_at(sq) == Some(p.color.other())
            {
                self.return_checker(sq);
            }
        }
    }

    // ----- turn flow -------------------------------------------------------------------

    fn continue_deal(&mut self) {
        let want = |g: &TarPit, c: Color| {
            g.hand_total(c) < g.core.front[c.index()] as u32 && cards::total(&g.core.pile) > 0
        };
        for c in Color::BOTH {
            if want(self, c) {
                self.core.phase = Phase::Deal(c);
                return;
            }
        }
        self.next_turn();
    }

    fn next_turn(&mut self) {
        self.core.phase = Phase::Move;
        self.core.mover = self.board.turn();
        let us = self.core.mover;
        if self.tarred(us).any() {
            self.core.tally.tarred_turns[us.index()] += 1;
        }
        self.core.ended = if !self.has_legal_move() {
            let r = no_moves_result(us, self.in_check_color(us));
            Some((
                if r.reason == "checkmate" {
                    Some(us.other())
                } else {
                    None
                },
                r.reason,
            ))
        } else {
            self.draw_reason().map(|r| (None, r))
        };
    }

    fn repetition_key(&self) -> u64 {
        let mut h = self.board.key();
        for (i, bb) in self.core.checkers.iter().enumerate() {
            h = mix(h, bb.0 ^ i as u64);
        }
        mix(
            h,
            self.core.front[0] as u64 | (self.core.front[1] as u64) << 8,
        )
    }

    fn draw_reason(&self) -> Option<&'static str> {
        let key = self.repetition_key();
        common_draw(
            &self.board,
            self.board.ply(),
            self.params.ply_cap,
            false,
            key,
            self.records.iter().filter_map(|r| r.rep_key),
        )
    }

    fn after_move(&mut self, at: Option<Square>) {
        let me = self.core.mover;
        if let Some(at) = at {
            let neighbours = attacks::king_attacks(at) & self.board.occupied();
            if self.core.checkers[me.index()].contains(at) && neighbours.any() {
                self.core.phase = Phase::Throw { at };
                return;
            }
        }
        self.enter_card();
    }

    fn enter_card(&mut self) {
        if self.hand_total(self.core.mover) > 0 {
            self.core.phase = Phase::Card;
        } else {
            self.enter_draw();
        }
    }

    fn enter_draw(&mut self) {
        let me = self.core.mover;
        let short = self.hand_total(me) < self.core.front[me.index()] as u32;
        let cards_left = cards::total(&self.core.pile) + cards::total(&self.core.discard) > 0;
        if short && cards_left {
            self.core.phase = Phase::Draw;
        } else {
            self.next_turn();
        }
    }

    fn return_options(&self, out: &mut Vec<TarPitAction>) {
        let them = self.core.mover.other();
        if self.core.front[them.index()] > 0 {
            out.push(TarPitAction::ReturnFront);
        }
        for sq in self.core.checkers[them.index()] {
            out.push(TarPitAction::ReturnAt(sq));
        }
    }

    fn enter_return(&mut self) {
        let mut opts = Vec::new();
        self.return_options(&mut opts);
        match opts.len() {
            0 => self.enter_discard(),
            1 => {
                self.do_return(opts[0]);
                self.enter_discard();
            }
            _ => self.core.phase = Phase::Return,
        }
    }

    fn do_return(&mut self, a: TarPitAction) {
        let them = self.core.mover.other();
        match a {
            TarPitAction::ReturnFront => self.core.front[them.index()] -= 1,
            TarPitAction::ReturnAt(sq) => {
                self.return_checker(sq);
                // Back to the box, not in front.
                self.core.front[them.index()] -= 1;
            }
            _ => unreachable!("not a return"),
        }
    }

    fn enter_discard(&mut self) {
        let them = self.core.mover.other();
        if self.hand_total(them) <= self.core.front[them.index()] as u32 {
            return self.enter_draw();
        }
        let hand = self.core.hands[them.index()];
        let kinds: Vec<usize> = (0..KINDS).filter(|&k| hand[k] > 0).collect();
        if kinds.len() == 1 {
            self.core.hands[them.index()][kinds[0]] -= 1;
            self.core.discard[kinds[0]] += 1;
            self.enter_discard();
        } else {
            self.core.phase = Phase::Discard;
        }
    }

    /// Squares a piece card may add a checker to.
    fn card_targets(&self, card: Card) -> Bitboard {
        let Some(role) = card.role() else {
            return Bitboard::EMPTY;
        };
        let matching = self.board.pieces(card.color(), role);
        if matching.any() {
            matching
        } else {
            self.board.by_color(self.core.mover)
        }
    }

    fn actor(&self) -> Option<Color> {
        match self.core.phase {
            Phase::Deal(_) | Phase::Draw => None,
            Phase::Return | Phase::Discard => Some(self.core.mover.other()),
            _ => Some(self.core.mover),
        }
    }

    fn seat_actions(&self, out: &mut Vec<TarPitAction>) {
        let me = self.core.mover;
        match self.core.phase {
            Phase::Move => {
                for &m in self.legal_moves().iter() {
                    out.push(TarPitAction::Move(m));
                }
            }
            Phase::Throw { at } => {
                for sq in attacks::king_attacks(at) & self.board.occupied() {
                    out.push(TarPitAction::Throw(sq));
                }
                out.push(TarPitAction::Pass);
            }
            Phase::Card => {
                let hand = self.core.hands[me.index()];
                for card in Card::all().filter(|c| hand[c.index()] > 0) {
                    if card.is_checker() {
                        out.push(TarPitAction::Card(card, None));
                    } else if self.core.front[me.index()] > 0 {
                        for sq in self.card_targets(card) {
                            out.push(TarPitAction::Card(card, Some(sq)));
                        }
                    }
                }
                out.push(TarPitAction::Pass);
            }
            Phase::Return => self.return_options(out),
            Phase::Discard => {
                let hand = self.core.hands[me.other().index()];
                for card in Card::all().filter(|c| hand[c.index()] > 0) {
                    out.push(TarPitAction::Discard(card));
                }
            }
            Phase::Deal(_) | Phase::Draw => {}
        }
    }

    fn apply_move(&mut self, m: Move) {
        let me = self.core.mover;
        let from = m.from();
        let to = m.to();
        let victim_sq = if m.kind() == MoveKind::EnPassant {
            Some(Square::from_coords(to.file(), from.rank()))
        } else if m.kind() != MoveKind::Castle && self.board.piece_at(to).is_some() {
            Some(to)
        } else {
            None
        };
        let mover_checker = self.checker_at(from);
        let was_tarred = mover_checker == Some(me.other());
        let victim_checker = victim_sq.and_then(|s| self.checker_at(s));
        if let Some(c) = mover_checker {
            self.core.checkers[c.index()].clear(from);
        }
        if let (Some(s), Some(c)) = (victim_sq, victim_checker) {
            self.core.checkers[c.index()].clear(s);
        }
        self.board.make(m);
        if m.kind() == MoveKind::Castle {
            // Neither king nor rook carries a checker.
            return self.after_move(None);
        }
        match (mover_checker, victim_checker) {
            (None, None) => {}
            (Some(c), None) | (None, Some(c)) => self.core.checkers[c.index()].set(to),
            (Some(a), Some(b)) if a == b => {
                self.core.checkers[a.index()].set(to);
                self.core.front[a.index()] += 1;
            }
            (Some(_), Some(_)) => {
                self.core.front[0] += 1;
                self.core.front[1] += 1;
                if was_tarred {
                    self.core.tally.cleansings[me.index()] += 1;
                }
            }
        }
        self.back_rank(to);
        self.after_move(Some(to));
    }

    fn apply_card(&mut self, card: Card, target: Option<Square>) {
        let me = self.core.mover;
        self.core.hands[me.index()][card.index()] -= 1;
        self.core.discard[card.index()] += 1;
        let played = &mut self.core.tally.played[me.index()];
        match (card.role(), target) {
            (Some(role), Some(sq)) => {
                played[role.index()] += 1;
                self.core.front[me.index()] -= 1;
                self.arrive(me, sq);
                self.enter_draw();
            }
            _ if card.color() == me => {
                played[6] += 1;
                if self.extra(me) > 0 {
                    self.core.front[me.index()] += 1;
                }
                self.enter_draw();
            }
            _ => {
                played[7] += 1;
                self.enter_return();
            }
        }
    }

    fn push_view(&mut self, action: TarPitAction, actor: Color) {
        next_view(&mut self.core.view, action, actor);
    }

    /// Every action applied so far, oldest first (chance outcomes included).
    pub fn actions(&self) -> impl Iterator<Item = TarPitAction> + '_ {
        self.records.iter().map(|r| r.action)
    }

    /// The seat receiving the card at a chance node.
    fn drawer(&self) -> Color {
        match self.core.phase {
            Phase::Deal(c) => c,
            _ => self.core.mover,
        }
    }

    fn key_with(&self, view: Option<Color>) -> u64 {
        let c = &self.core;
        let mut h = mix(self.board.key(), c.checkers[0].0);
        h = mix(h, c.checkers[1].0);
        h = mix(h, c.front[0] as u64 | (c.front[1] as u64) << 8);
        let phase = match c.phase {
            Phase::Deal(col) => 1 + col.index() as u64,
            Phase::Move => 3,
            Phase::Throw { at } => 4 | (at.index() as u64) << 8,
            Phase::Card => 5,
            Phase::Return => 6,
            Phase::Discard => 7,
            Phase::Draw => 8,
        };
        h = mix(h, phase | (c.mover.index() as u64) << 16);
        h = mix(h, counts_hash(&c.discard));
        match view {
            None => {
                h = mix(h, counts_hash(&c.hands[0]));
                h = mix(h, counts_hash(&c.hands[1]));
                h = mix(h, counts_hash(&c.pile));
                mix(mix(h, c.view[0]), c.view[1])
            }
            Some(s) => mix(
                mix(h, counts_hash(&c.hands[s.index()])),
                c.view[s.index()] ^ (s.index() as u64 + 11),
            ),
        }
    }

    fn parse_err(text: &str, message: impl Into<String>) -> GameError {
        GameError::Action {
            action: text.into(),
            message: message.into(),
        }
    }

    fn parse_card(text: &str, body: &str) -> Result<Card, GameError> {
        let mut chars = body.chars();
        match (chars.next().and_then(Card::from_letter), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(Self::parse_err(
                text,
                format!("'{body}' is not a card (P N B R Q K C, lower case black)"),
            )),
        }
    }

    fn parse_square(text: &str, s: &str) -> Result<Square, GameError> {
        Square::parse(s).ok_or_else(|| Self::parse_err(text, format!("'{s}' is not a square")))
    }

    /// Reads an action without checking that it is legal here.
    fn read_action(&self, text: &str) -> Result<TarPitAction, GameError> {
        let t = text.trim();
        if t == "pass" {
            return Ok(TarPitAction::Pass);
        }
        if t == "shuffle" {
            return Ok(TarPitAction::Shuffle);
        }
        if let Some(rest) = t.strip_prefix("throw:") {
            return Ok(TarPitAction::Throw(Self::parse_square(text, rest)?));
        }
        if let Some(rest) = t.strip_prefix("card:") {
            return match rest.split_once('@') {
                Some((c, s)) => Ok(TarPitAction::Card(
                    Self::parse_card(text, c)?,
                    Some(Self::parse_square(text, s)?),
                )),
                None => Ok(TarPitAction::Card(Self::parse_card(text, rest)?, None)),
            };
        }
        if let Some(rest) = t.strip_prefix("return:") {
            return if rest == "front" {
                Ok(TarPitAction::ReturnFront)
            } else {
                Ok(TarPitAction::ReturnAt(Self::parse_square(text, rest)?))
            };
        }
        if let Some(rest) = t.strip_prefix("discard:") {
            return Ok(TarPitAction::Discard(Self::parse_card(text, rest)?));
        }
        if let Some(rest) = t.strip_prefix("draw:") {
            return Ok(TarPitAction::Draw(Self::parse_card(text, rest)?));
        }
        if self.core.phase == Phase::Move {
            if let Some(m) = self
                .legal_moves()
                .iter()
                .copied()
                .find(|&m| self.board.uci(m) == t)
            {
                return Ok(TarPitAction::Move(m));
            }
            return Err(Self::parse_err(text, "not a legal chess move here"));
        }
        Err(Self::parse_err(
            text,
            "expected a UCI move, throw:SQ, card:X@SQ, card:C, return:front, return:SQ, \
             discard:X, draw:X, shuffle or pass",
        ))
    }

    /// Why `a` is not legal now (a clear message for bad input).
    fn why_illegal(&self, a: TarPitAction) -> String {
        let me = self.core.mover;
        let phase = self.core.phase;
        match a {
            TarPitAction::Throw(sq) => match phase {
                Phase::Throw { .. } if self.board.piece_at(sq).is_none() => {
                    format!("no piece on {sq} to throw the checker under")
                }
                Phase::Throw { at } => format!("{sq} is not one king step from {at}"),
                _ => "no throw is due now (only right after moving a piece that carries \
                      your checker)"
                    .into(),
            },
            TarPitAction::Card(card, target) => {
                if phase != Phase::Card {
                    return "no card play is due now".into();
                }
                if self.core.hands[me.index()][card.index()] == 0 {
                    return format!("{} holds no {card} card", me.name());
                }
                match target {
                    None if !card.is_checker() => {
                        format!("a piece card needs a square: card:{card}@e4")
                    }
                    Some(_) if card.is_checker() => {
                        format!("a checker card takes no square: card:{card}")
                    }
                    Some(sq) if self.board.piece_at(sq).is_none() => {
                        format!("no piece on {sq} to add a checker to")
                    }
                    Some(sq) if self.core.front[me.index()] == 0 => {
                        format!("no checker in front of {} to add at {sq}", me.name())
                    }
                    Some(sq) => format!("the {card} card does not match the piece on {sq}"),
                    None => "not playable now".into(),
                }
            }
            TarPitAction::ReturnFront | TarPitAction::ReturnAt(_) => {
                if phase != Phase::Return {
                    "no return is due now".into()
                } else {
                    "that square has no checker of the returning side".into()
                }
            }
            TarPitAction::Discard(c) => {
                if phase != Phase::Discard {
                    "no discard is due now".into()
                } else {
                    format!("{} holds no {c} card", me.other().name())
                }
            }
            TarPitAction::Draw(_) | TarPitAction::Shuffle => {
                "not a chance outcome here (no draw due, or the pile lacks that card)".into()
            }
            TarPitAction::Pass => "nothing to decline now".into(),
            TarPitAction::Move(_) => "not a legal chess move here".into(),
        }
    }
}

impl Game for TarPit {
    type Action = TarPitAction;
    type Params = TarPitParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
            .with_chance(true)
            .with_hidden_information(true)
    }

    fn new(params: &TarPitParams) -> TarPit {
        TarPit::from_board(Board::startpos(), params.clone())
    }

    fn from_opening(params: &TarPitParams, opening: &str) -> Result<TarPit, GameError> {
        let board = Board::from_fen(opening).map_err(|e| GameError::opening_fen(opening, e))?;
        Ok(TarPit::from_board(board, params.clone()))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.core.ended.is_some() {
            return Turn::Terminal;
        }
        match self.actor() {
            Some(c) => Turn::Seat(c.index()),
            None => Turn::Chance,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<TarPitAction>) {
        out.clear();
        if self.turn() != Turn::Seat(seat) {
            return;
        }
        self.seat_actions(out);
    }

    fn chance_outcomes(&self, out: &mut Vec<(TarPitAction, f64)>) {
        out.clear();
        if self.turn() != Turn::Chance {
            return;
        }
        let n = cards::total(&self.core.pile);
        if n == 0 {
            out.push((TarPitAction::Shuffle, 1.0));
            return;
        }
        for c in Card::all() {
            let k = self.core.pile[c.index()];
            if k > 0 {
                out.push((TarPitAction::Draw(c), k as f64 / n as f64));
            }
        }
    }

    fn apply(&mut self, action: TarPitAction) {
        let actor = match self.actor() {
            Some(c) => c,
            None => self.drawer(),
        };
        let mut rec = Record {
            action,
            actor,
            before: self.core,
            board_moved: false,
            rep_key: None,
        };
        match (self.core.phase, action) {
            (Phase::Deal(c), TarPitAction::Draw(card)) => {
                self.core.pile[card.index()] -= 1;
                self.core.hands[c.index()][card.index()] += 1;
                self.continue_deal();
            }
            (Phase::Move, TarPitAction::Move(m)) => {
                rec.rep_key = Some(self.repetition_key());
                rec.board_moved = true;
                self.apply_move(m);
            }
            (Phase::Throw { at }, TarPitAction::Throw(sq)) => {
                let me = self.core.mover;
                self.core.checkers[me.index()].clear(at);
                self.core.tally.thrown[me.index()] += 1;
                self.arrive(me, sq);
                self.enter_card();
            }
            (Phase::Throw { .. }, TarPitAction::Pass) => self.enter_card(),
            (Phase::Card, TarPitAction::Card(card, target)) => self.apply_card(card, target),
            (Phase::Card, TarPitAction::Pass) => self.enter_draw(),
            (Phase::Return, a @ (TarPitAction::ReturnFront | TarPitAction::ReturnAt(_))) => {
                self.do_return(a);
                self.enter_discard();
            }
            (Phase::Discard, TarPitAction::Discard(card)) => {
                let them = self.core.mover.other();
                self.core.hands[them.index()][card.index()] -= 1;
                self.core.discard[card.index()] += 1;
                self.enter_discard();
            }
            (Phase::Draw, TarPitAction::Draw(card)) => {
                let me = self.core.mover;
                self.core.pile[card.index()] -= 1;
                self.core.hands[me.index()][card.index()] += 1;
                self.enter_draw();
            }
            (Phase::Draw, TarPitAction::Shuffle) => {
                self.core.pile = self.core.discard;
                self.core.discard = [0; KINDS];
                self.enter_draw();
            }
            (phase, a) => panic!("tar pit: {a:?} does not fit the phase {phase:?}"),
        }
        self.push_view(action, actor);
        self.records.push(rec);
    }

    fn undo(&mut self) {
        let rec = self.records.pop().expect("undo without an action");
        if rec.board_moved {
            self.board.unmake();
        }
        self.core = rec.before;
    }

    fn result(&self) -> Option<GameResult> {
        self.core.ended.map(|(winner, reason)| GameResult {
            returns: two_seat_returns(winner.map(Color::index)),
            reason,
        })
    }

    fn state_key(&self) -> u64 {
        self.key_with(None)
    }

    fn information_key(&self, seat: Seat) -> u64 {
        self.key_with(Some(Color::from_index(seat.min(1))))
    }

    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> TarPit {
        info::sample_world(self, Color::from_index(seat.min(1)), rng)
    }

    fn observation(&self, seat: Seat) -> String {
        info::observation(self, Color::from_index(seat.min(1)))
    }

    fn action_notation(&self, action: TarPitAction) -> String {
        match action {
            TarPitAction::Move(m) => self.board.uci(m),
            TarPitAction::Throw(s) => format!("throw:{s}"),
            TarPitAction::Card(c, Some(s)) => format!("card:{c}@{s}"),
            TarPitAction::Card(c, None) => format!("card:{c}"),
            TarPitAction::ReturnFront => "return:front".into(),
            TarPitAction::ReturnAt(s) => format!("return:{s}"),
            TarPitAction::Discard(c) => format!("discard:{c}"),
            TarPitAction::Draw(c) => format!("draw:{c}"),
            TarPitAction::Shuffle => "shuffle".into(),
            TarPitAction::Pass => "pass".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<TarPitAction, GameError> {
        if self.core.ended.is_some() {
            return Err(Self::parse_err(text, "the game is over"));
        }
        let a = self.read_action(text)?;
        let legal = match self.turn() {
            Turn::Chance => {
                let mut out = Vec::new();
                self.chance_outcomes(&mut out);
                out.iter().any(|&(o, _)| o == a)
            }
            Turn::Seat(s) => {
                let mut out = Vec::new();
                self.legal_actions(s, &mut out);
                out.contains(&a)
            }
            _ => false,
        };
        if legal {
            Ok(a)
        } else {
            Err(Self::parse_err(text, self.why_illegal(a)))
        }
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    /// Orthodox material, with tar: a tarred piece is worth less to its owner (a tarred
    /// pawn is frozen, a tarred piece crawls like a pawn), a checker carried is a weapon.
    fn material(&self, seat: Seat) -> f64 {
        let us = Color::from_index(seat.min(1));
        let tar_cost = |c: Color| {
            let t = self.tarred(c);
            t.count() as f64 * 0.3
                + (t & self.board.by_role(Role::Queen)).count() as f64 * 2.0
                + (t & self.board.by_role(Role::Rook)).count() as f64 * 1.0
        };
        material_balance(&self.board, us) + tar_cost(us.other()) - tar_cost(us)
            + 0.1 * (self.carrying(us).count() as f64 - self.carrying(us.other()).count() as f64)
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The piece differences, then White minus Black in `tarred` (own pieces under an
    /// enemy checker) and `checkers_in_front` (hand size and throwing stock), for
    /// `chesslab values` (`features_count_tar_and_fronts`).
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = crate::game::material_features(&self.board);
        let diff = |x: [f64; 2]| x[0] - x[1];
        let tarred = Color::BOTH.map(|c| self.tarred(c).count() as f64);
        let front = Color::BOTH.map(|c| self.front(c) as f64);
        f.push(("tarred".to_string(), diff(tarred)));
        f.push(("checkers_in_front".to_string(), diff(front)));
        f
    }

    fn action_move(&self, action: TarPitAction) -> Option<Move> {
        match action {
            TarPitAction::Move(m) => Some(m),
            _ => None,
        }
    }

    /// Per game and side: `{side}_thrown` (checkers thrown), `{side}_tarred_turns`
    /// (turns begun with at least one own piece tarred), `{side}_cleansings` (own pieces
    /// freed of tar, any of the four ways or an enemy return), and cards played by kind
    /// `{side}_cards_{pawn,knight,bishop,rook,queen,king,own_checker,enemy_checker}`.
    fn tallies(&self) -> Vec<(String, f64)> {
        let t = &self.core.tally;
        let kinds = [
            "pawn",
            "knight",
            "bishop",
            "rook",
            "queen",
            "king",
            "own_checker",
            "enemy_checker",
        ];
        let mut out = Vec::new();
        for (i, side) in ["white", "black"].iter().enumerate() {
            out.push((format!("{side}_thrown"), t.thrown[i] as f64));
            out.push((format!("{side}_tarred_turns"), t.tarred_turns[i] as f64));
            out.push((format!("{side}_cleansings"), t.cleansings[i] as f64));
            for (k, name) in kinds.iter().enumerate() {
                out.push((format!("{side}_cards_{name}"), t.played[i][k] as f64));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;

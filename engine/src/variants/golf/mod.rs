//! Chess Golf (chess-kit seed, Don Kirkby): a one-player puzzle in which the chosen piece
//! kinds must capture one another in as few moves as possible, every piece moving only by
//! *borrowing* the movement of its same-colour neighbours ("the pieces caddy each other").
//!
//! This module is the rule set; the optimal solver lives in `agents::golf`. It implements
//! the seed rules as closed by `docs/RULES.md`, section "Chess Golf":
//!
//! * **Set-up** ([`GolfPosition::setup`]): the 16 non-pawn pieces, shuffled, are laid out
//!   along the ranks leaving the Appendix A gap before each (N 1, B 2, R 3, Q 5, K 6;
//!   [`SetupGaps`]). The printed rules fill from a1 towards h8 ([`FillOrder::FromA1`], the
//!   default); the designer's program (`golf.py`) fills from a8 rank by rank downwards
//!   ([`FillOrder::FromA8`], the vertical mirror) and the published `deck:` cases use it.
//! * **Chosen kinds**: the dealt cards, a multiset of coloured kinds ([`KindCounts`]), e.g.
//!   `Bq` or `NNB`.
//! * **Moves** ([`GolfPosition::legal_moves`]): a piece borrows the movement of every
//!   distinct kind among the same-colour pieces on its 8 neighbouring squares (so never its
//!   own kind unless a neighbour has it). Orthodox geometry, a borrowed king move is one
//!   step, sliders stop at the first occupied square of either colour. No pawns, castling,
//!   en passant or promotion: a move just relocates the piece.
//! * **King steps** ([`KingStep`]): the seed gives every piece of a colour a king step when
//!   that colour has no two adjacent pieces (`no-adjacent-pair`, the default); the
//!   designer's program gives them when the colour has no borrowed move at all
//!   (`no-borrowed-move`; they differ when every adjacent pair is blocked).
//! * **Captures**: only a piece of a chosen kind may capture, and only a piece whose kind is
//!   still owed, counted in (chosen minus taken) after removing one of the mover's own kind.
//!   Colour does not matter otherwise (a black bishop may take the other black bishop when
//!   `bb` is chosen). After the first capture only the piece that made it may capture; it is
//!   tracked as `taking`, which follows it when it moves.
//! * **Solved** ([`GolfPosition::is_solved`]) when (chosen minus taken) sums to at most 1.
//!
//! Decisions where the rules are silent (tested in `engine/tests/golf_cases.rs`):
//!
//! * King steps obey the capture rules like any other move (a king step may capture only
//!   what a borrowed move could capture), as in the designer's program.
//! * `taken` counts every captured piece; owed counts are clamped at zero
//!   (`max(chosen - taken, 0)` per kind), as in the designer's program.
//! * [`GolfPosition::apply_unchecked`] relocates a piece without validating the move (the
//!   published cases apply `e1c1` to a lone king); [`GolfPosition::play`] validates.
//! * A board may hold at most [`MAX_PIECES`] pieces and no pawns; counts in `chosen` and
//!   `taken` are limited to 16 per kind. A `taking` square must hold a piece.
//! * Text formats: see [`text`](self#text-formats) below; parse errors are
//!   [`GolfParseError`]s naming the line or field and the problem.
//! * Between holes of a course ([`GolfPosition::next_hole`]) captured pieces return to
//!   empty squares chosen uniformly at random (the seed says "any empty squares"; the
//!   designer's program does the same), and `chosen`, `taken` and `taking` are cleared.
//! * Dealing ([`CardDeck`]): a 16-card deck (one card per non-pawn piece); when fewer cards
//!   remain than must be dealt, the discard pile is shuffled back together with the
//!   remaining cards (seed: "shuffle the discard pile back in"). A single problem
//!   ([`random_problem`]) deals from a fresh deck. Randomness comes from the caller's RNG
//!   (the lab uses `rand_pcg::Pcg64`), so deals do not reproduce `golf.py`'s for equal seeds.
//! * A move reachable by several borrowed kinds (or by a kind and a king step) is one move;
//!   a slider's first blocker is a capture only if the capture rules allow it, otherwise
//!   it just stops the slide.
//! * Every number of the seed is a [`GolfParams`] field (gaps, cards per hole, holes,
//!   failed-demonstration penalty), loadable from TOML.
//!
//! # Text formats
//!
//! The board format (the one the shared test data uses):
//!
//! ```text
//! . . B . . . R .      8 rows, rank 8 first, files a..h; '.' empty, UPPERCASE white.
//! . . . . . k . .      Squares may be separated by spaces or written together.
//! . r . n . N . .
//! . r . . b . . .
//! R . . . . . q .
//! . B . n . N . .
//! b . . . . . . K
//! . . . . . Q . .
//! chosen: Kb           chosen kinds (multiset, any order); absent = none chosen
//! taking: a2           optional: square of the piece that made the first capture
//! taken: b             optional: kinds already captured
//! ```
//!
//! Blank lines and lines starting with `#` are ignored. The one-line form is
//! `<placement> [chosen=Kb] [taking=a2] [taken=b]`: the placement is FEN's first field
//! (ranks 8 to 1 separated by `/`, digits for runs of empty squares, no pawns); the
//! optional fields follow in any order, separated by spaces; `-` stands for an empty
//! multiset or no `taking` square. [`GolfPosition::to_fen`] prints the fields in the order
//! shown and omits empty ones.
//!
//! # Files
//!
//! `mod.rs` (this: the parameters, king-step and fill-order choices, set-up gaps),
//! `counts.rs` ([`KindCounts`]), `moves.rs` ([`GolfMove`], move errors, [`MoveTargets`]),
//! `position.rs` ([`GolfPosition`], its keys, accessors and edits), `rules.rs` (moves,
//! captures owed, legality, solutions), `deal.rs` (set-up, the card deck, random
//! problems), `text.rs` (the text formats above).

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::random::splitmix64_next;
use crate::square::{Color, Piece, Role, Square};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;

mod counts;
mod deal;
mod moves;
mod position;
mod rules;
mod text;

pub use counts::KindCounts;
pub use deal::{deal_cards, random_problem, standard_deck, CardDeck};
pub use moves::{GolfMove, GolfMoveError, GolfSetupError, MoveTargets};
pub use position::GolfPosition;
use position::EMPTY_CELL;
pub use text::GolfParseError;

/// Most pieces a Golf board may hold (the game uses 16; hand-made boards may use more).
pub const MAX_PIECES: usize = 32;
/// Largest count of one kind in `chosen` or `taken`.
pub const MAX_KIND_COUNT: u8 = 16;

/// The non-pawn roles, in the order of Appendix A's gaps.
pub const GOLF_ROLES: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

// ---------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------

/// When a colour's pieces may make a king step (RULES.md "King steps").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum KingStep {
    /// Seed: every piece of a colour may step like a king when no two pieces of that colour
    /// are adjacent.
    #[default]
    NoAdjacentPair,
    /// Designer's program: every piece of a colour may step like a king when the colour has
    /// no borrowed move at all.
    NoBorrowedMove,
}

impl KingStep {
    /// The parameter spelling (`no-adjacent-pair` / `no-borrowed-move`).
    pub fn name(self) -> &'static str {
        match self {
            KingStep::NoAdjacentPair => "no-adjacent-pair",
            KingStep::NoBorrowedMove => "no-borrowed-move",
        }
    }
}

impl std::str::FromStr for KingStep {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "no-adjacent-pair" => Ok(KingStep::NoAdjacentPair),
            "no-borrowed-move" => Ok(KingStep::NoBorrowedMove),
            _ => Err(format!(
                "unknown king step rule {s:?}{} (expected no-adjacent-pair or no-borrowed-move)",
                crate::suggest::did_you_mean(s, ["no-adjacent-pair", "no-borrowed-move"])
            )),
        }
    }
}

/// Where the set-up starts laying out pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum FillOrder {
    /// Printed rules: a1..h1, then a2..h2, ... up to h8.
    #[default]
    FromA1,
    /// Designer's program: a8..h8, then a7..h7, ... down to h1 (the vertical mirror).
    FromA8,
}

/// Empty squares left before each kind when the set-up lays out a piece (Appendix A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetupGaps {
    pub knight: u8,
    pub bishop: u8,
    pub rook: u8,
    pub queen: u8,
    pub king: u8,
}

impl Default for SetupGaps {
    fn default() -> Self {
        SetupGaps {
            knight: 1,
            bishop: 2,
            rook: 3,
            queen: 5,
            king: 6,
        }
    }
}

impl SetupGaps {
    /// The gap before a piece of `role` (pawns: 0, they are never laid out).
    pub fn gap(&self, role: Role) -> u8 {
        match role {
            Role::Pawn => 0,
            Role::Knight => self.knight,
            Role::Bishop => self.bishop,
            Role::Rook => self.rook,
            Role::Queen => self.queen,
            Role::King => self.king,
        }
    }
}

/// Every Chess Golf number and rule switch, with the seed's values as defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GolfParams {
    /// When king steps are allowed (seed: `no-adjacent-pair`).
    pub king_step: KingStep,
    /// Gaps before each kind in the set-up (Appendix A).
    pub setup_gaps: SetupGaps,
    /// Where the set-up starts (seed: a1).
    pub fill_order: FillOrder,
    /// Cards dealt per hole (seed: 2).
    pub cards: usize,
    /// Holes in a round (seed: 9).
    pub holes: usize,
    /// Penalty added to the maximum of the other players' counts for a failed
    /// demonstration or a refuted "impossible" claim (seed: 1).
    pub penalty: u32,
}

impl Default for GolfParams {
    fn default() -> Self {
        GolfParams {
            king_step: KingStep::NoAdjacentPair,
            setup_gaps: SetupGaps::default(),
            fill_order: FillOrder::FromA1,
            cards: 2,
            holes: 9,
            penalty: 1,
        }
    }
}

/// Decision (the seed is silent): the gaps must let the standard deck's 16 pieces fit
/// the board in any order (16 + the gaps of all 16 cards <= 64), `cards` is 2..=16 as
/// `golf deal` allows, and a round has at least one hole; out-of-range values are refused
/// instead of falling back to the defaults. Tested by `rule_golf_params_ranges`.
impl crate::game::VariantParams for GolfParams {
    fn validate(&self) -> Result<(), crate::game::InvalidParams> {
        use crate::game::InvalidParams;
        let g = &self.setup_gaps;
        // The standard deck: 4 knights, 4 bishops, 4 rooks, 2 queens, 2 kings.
        let squares = 16
            + 4 * (g.knight as u32 + g.bishop as u32 + g.rook as u32)
            + 2 * (g.queen as u32 + g.king as u32);
        if squares > 64 {
            return Err(InvalidParams::new(
                "setup_gaps",
                format!(
                    "the 16 pieces and their gaps take {squares} squares; the board has 64 (the seed's gaps take 62)"
                ),
            ));
        }
        if !(2..=16).contains(&self.cards) {
            return Err(InvalidParams::new(
                "cards",
                format!("must be between 2 and 16 (got {})", self.cards),
            ));
        }
        if self.holes == 0 {
            return Err(InvalidParams::new("holes", "must be at least 1"));
        }
        Ok(())
    }
}

impl GolfParams {
    /// The designer's program's rules: `no-borrowed-move` king steps and the a8 fill order.
    pub fn designer() -> Self {
        GolfParams {
            king_step: KingStep::NoBorrowedMove,
            fill_order: FillOrder::FromA8,
            ..GolfParams::default()
        }
    }

    /// Loads parameters from TOML text (missing fields keep the seed's values).
    pub fn from_toml_str(s: &str) -> Result<Self, toml::de::Error> {
        toml::from_str(s)
    }

    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).expect("GolfParams always serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_round_trip_toml() {
        let p = GolfParams::designer();
        let s = p.to_toml_string();
        assert!(s.contains("king_step = \"no-borrowed-move\""), "{s}");
        assert_eq!(GolfParams::from_toml_str(&s).unwrap(), p);
        assert_eq!(
            GolfParams::from_toml_str("").unwrap(),
            GolfParams::default()
        );
        assert!(GolfParams::from_toml_str("king_step = \"sometimes\"").is_err());
    }

    #[test]
    fn key_is_incremental() {
        let mut rng = rand_pcg::Pcg64::new(1, 2);
        let mut pos = random_problem(&mut rng, &GolfParams::default(), 3);
        for _ in 0..200 {
            let moves = pos.legal_moves(&GolfParams::default());
            if moves.is_empty() || pos.is_solved() {
                break;
            }
            pos.apply_unchecked(moves[rng.gen_range(0..moves.len())]);
            let fresh = GolfPosition::parse_text(&pos.to_text()).unwrap();
            assert_eq!(fresh.key(), pos.key());
            assert_eq!(fresh, pos);
        }
    }

    #[test]
    fn card_deck_reshuffles_discards() {
        let mut rng = rand_pcg::Pcg64::new(7, 9);
        let mut deck = CardDeck::shuffled(&mut rng);
        let mut all = Vec::new();
        for _ in 0..8 {
            all.extend(deck.deal(2, &mut rng));
        }
        assert_eq!(deck.remaining(), 0);
        let mut sorted: Vec<char> = all.iter().map(|p| p.char()).collect();
        sorted.sort_unstable();
        let mut std: Vec<char> = standard_deck().iter().map(|p| p.char()).collect();
        std.sort_unstable();
        assert_eq!(sorted, std);
        assert_eq!(deck.deal(3, &mut rng).len(), 3);
        assert_eq!(deck.remaining(), 13);
    }
}

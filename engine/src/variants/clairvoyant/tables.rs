//! Clairvoyant Chess parameters: the seed's value and cost tables as plain numeric
//! fields (one [`RoleTable`] per column, so a TOML path such as `values.move.knight` or
//! `costs.drop.queen` names every number the tuner may move), the flat value, the
//! bought-move limits, starting balances and the open/blind mode.
//!
//! Defaults are the seed's numbers ("Value of Correct Guesses", "Cost of Extra Stuff"
//! and the footnotes, RULES.md "Clairvoyant Chess"). [`ClairvoyantParams::validate`]
//! checks ranges; the bought-move limits stop at two because a turn's completion search
//! (whether a free move that leaves the king attacked can still be repaired) is exhaustive
//! over them.

use crate::game::{validate_ply_cap, InvalidParams, VariantParams};
use crate::square::Role;
use serde::{Deserialize, Serialize};

/// One number per piece type.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RoleTable {
    pub pawn: u32,
    pub knight: u32,
    pub bishop: u32,
    pub rook: u32,
    pub queen: u32,
    pub king: u32,
}

impl RoleTable {
    /// `[pawn, knight, bishop, rook, queen, king]`.
    pub const fn new(v: [u32; 6]) -> RoleTable {
        RoleTable {
            pawn: v[0],
            knight: v[1],
            bishop: v[2],
            rook: v[3],
            queen: v[4],
            king: v[5],
        }
    }

    #[inline]
    pub fn get(&self, role: Role) -> u32 {
        match role {
            Role::Pawn => self.pawn,
            Role::Knight => self.knight,
            Role::Bishop => self.bishop,
            Role::Rook => self.rook,
            Role::Queen => self.queen,
            Role::King => self.king,
        }
    }

    pub fn min(&self) -> u32 {
        Role::ALL.iter().map(|&r| self.get(r)).min().unwrap_or(0)
    }

    fn check(&self, field: &str, max: u32) -> Result<(), InvalidParams> {
        for r in Role::ALL {
            let v = self.get(r);
            if v > max {
                return Err(InvalidParams::new(
                    format!("{field}.{}", role_name(r)),
                    format!("{v} is above the limit {max}"),
                ));
            }
        }
        Ok(())
    }

    fn check_positive(&self, field: &str) -> Result<(), InvalidParams> {
        for r in Role::ALL {
            if self.get(r) == 0 {
                return Err(InvalidParams::new(
                    format!("{field}.{}", role_name(r)),
                    "a price of 0 would allow endless purchases in one turn",
                ));
            }
        }
        Ok(())
    }
}

/// The TOML name of a piece type.
pub fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The seed's "Value of Correct Guesses" columns.
pub const SEED_MOVE: RoleTable = RoleTable::new([4, 7, 7, 10, 12, 12]);
pub const SEED_MOVE_DESTINATION: RoleTable = RoleTable::new([5, 11, 11, 15, 20, 18]);
pub const SEED_BUY: RoleTable = RoleTable::new([8, 15, 15, 20, 24, 200]);
pub const SEED_BUY_SQUARE: RoleTable = RoleTable::new([10, 20, 20, 25, 30, 250]);
/// The seed's "Cost of Extra Stuff" columns (the king's footnote values are separate
/// fields of [`Costs`]; the table holds the first of each).
pub const SEED_DROP: RoleTable = RoleTable::new([3, 12, 12, 15, 25, 150]);
pub const SEED_EXTRA_QUIET: RoleTable = RoleTable::new([3, 7, 7, 9, 12, 3]);
pub const SEED_EXTRA_CAPTURE: RoleTable = RoleTable::new([3, 15, 15, 16, 20, 9]);
pub const SEED_SAME_AFTER_CAPTURE: RoleTable = RoleTable::new([5, 18, 18, 21, 24, 18]);
pub const SEED_SECOND_CAPTURE: RoleTable = RoleTable::new([7, 23, 23, 26, 29, 23]);

/// What correct guesses earn.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct GuessValues {
    /// "move": the piece named by its square moves.
    #[serde(rename = "move")]
    pub moves: RoleTable,
    /// "move & destination" (castling's king destination earns `move.king`: the
    /// seed's footnote).
    pub move_destination: RoleTable,
    /// "buy": a piece of this type is dropped.
    pub buy: RoleTable,
    /// "buy & drop square".
    pub buy_square: RoleTable,
    /// "an extra move will be bought".
    pub extra_move: u32,
    /// The mover's "my opponent will force a retraction".
    pub retraction: u32,
    /// Earned instead of guessing when the mover is in check with exactly one legal
    /// move.
    pub flat: u32,
}

impl Default for GuessValues {
    fn default() -> Self {
        GuessValues {
            moves: SEED_MOVE,
            move_destination: SEED_MOVE_DESTINATION,
            buy: SEED_BUY,
            buy_square: SEED_BUY_SQUARE,
            extra_move: 20,
            retraction: 20,
            flat: 12,
        }
    }
}

/// What purchases cost.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Costs {
    /// "new piece" (the king's is a second king).
    pub drop: RoleTable,
    /// "extra move (non-capturing)"; `king` is the 3 of the king's 3/7/11.
    pub extra_quiet: RoleTable,
    /// "extra move (capturing)".
    pub extra_capture: RoleTable,
    /// "2nd move by same piece (non-capturing) if first move was a capture"; `king` is
    /// the 18 of 18/25.
    pub same_after_capture: RoleTable,
    /// "2nd capture by same piece in a single turn".
    pub second_capture: RoleTable,
    /// The 7 of 3/7/11: the mover was in check at the start of the turn.
    pub king_quiet_in_check: u32,
    /// The 11 of 3/7/11: a move was already made and the king is in check right before
    /// the bought move.
    pub king_quiet_into_check: u32,
    /// The 25 of 18/25: the king's capturing first move went into check.
    pub king_after_capture_into_check: u32,
    /// Forcing a retraction.
    pub retraction: u32,
    /// Forcing the retraction of a checking move.
    pub retraction_check: u32,
    /// Forcing the retraction of a move that escapes a check.
    pub retraction_escape: u32,
}

impl Default for Costs {
    fn default() -> Self {
        Costs {
            drop: SEED_DROP,
            extra_quiet: SEED_EXTRA_QUIET,
            extra_capture: SEED_EXTRA_CAPTURE,
            same_after_capture: SEED_SAME_AFTER_CAPTURE,
            second_capture: SEED_SECOND_CAPTURE,
            king_quiet_in_check: 7,
            king_quiet_into_check: 11,
            king_after_capture_into_check: 25,
            retraction: 10,
            retraction_check: 15,
            retraction_escape: 25,
        }
    }
}

impl Costs {
    /// The cheapest bought move of any kind (a lower bound used to skip work).
    pub fn min_bought_move(&self) -> u32 {
        [
            self.extra_quiet.min(),
            self.extra_capture.min(),
            self.same_after_capture.min(),
            self.second_capture.min(),
            self.king_quiet_in_check,
            self.king_quiet_into_check,
            self.king_after_capture_into_check,
        ]
        .into_iter()
        .min()
        .unwrap_or(0)
    }

    pub fn min_retraction(&self) -> u32 {
        self.retraction
            .min(self.retraction_check)
            .min(self.retraction_escape)
    }
}

/// Tunable rules of Clairvoyant Chess.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct ClairvoyantParams {
    /// Whole turns before the game is drawn as `cap`.
    pub ply_cap: u32,
    /// `"open"` (sheets and balances revealed after every turn) or `"blind"`.
    pub mode: String,
    /// Guesses per sheet (the seed's three).
    pub max_guesses: u32,
    /// Bought moves after the free move (the seed's one).
    pub bought_after_move: u32,
    /// Bought moves after drops (the seed's two; no turn has more).
    pub bought_after_drops: u32,
    /// Zorkmids each side starts with.
    pub white_balance: u32,
    pub black_balance: u32,
    pub values: GuessValues,
    pub costs: Costs,
}

impl Default for ClairvoyantParams {
    fn default() -> Self {
        ClairvoyantParams {
            ply_cap: 400,
            mode: "open".into(),
            max_guesses: 3,
            bought_after_move: 1,
            bought_after_drops: 2,
            white_balance: 0,
            black_balance: 0,
            values: GuessValues::default(),
            costs: Costs::default(),
        }
    }
}

/// Largest value or price the tables accept (keeps balances far from overflow).
pub const MAX_TABLE_VALUE: u32 = 100_000;

/// What each of [`ClairvoyantParams`]'s keys is (printed by `chesslab params`).
pub const CLAIRVOYANT_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "whole turns after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "mode",
        "\"open\": sheets and balances revealed after every turn; \"blind\": kept hidden",
        "\"open\" or \"blind\"",
    ),
    crate::game::ParamDoc::new(
        "max_guesses",
        "guesses per sheet",
        "0 to 8",
    ),
    crate::game::ParamDoc::new(
        "bought_after_move",
        "moves that may be bought after the free move",
        "0 to 2",
    ),
    crate::game::ParamDoc::new(
        "bought_after_drops",
        "moves that may be bought after drops",
        "0 to 2",
    ),
    crate::game::ParamDoc::new(
        "white_balance",
        "Zorkmids White starts with",
        "0 to 100000",
    ),
    crate::game::ParamDoc::new(
        "black_balance",
        "Zorkmids Black starts with",
        "0 to 100000",
    ),
    crate::game::ParamDoc::new(
        "values",
        "Zorkmids a correct guess earns, by guess kind and piece: move, move & destination, buy, buy & drop square, extra move, retraction; flat: earned instead of guessing when the mover has one legal move out of check",
        "0 to 100000 each",
    ),
    crate::game::ParamDoc::new(
        "costs",
        "Zorkmid prices: a dropped piece, extra moves (quiet, capturing), a second move or capture by the same piece, the king's prices in check, forced retractions",
        "1 to 100000 each",
    ),
];

impl VariantParams for ClairvoyantParams {
    const DOCS: &'static [crate::game::ParamDoc] = CLAIRVOYANT_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        if self.mode != "open" && self.mode != "blind" {
            return Err(InvalidParams::new(
                "mode",
                format!("'{}': expected \"open\" or \"blind\"", self.mode),
            ));
        }
        if self.max_guesses > 8 {
            return Err(InvalidParams::new("max_guesses", "at most 8"));
        }
        if self.bought_after_move > 2 {
            return Err(InvalidParams::new(
                "bought_after_move",
                "at most 2 (the seed forbids three moves in a turn)",
            ));
        }
        if self.bought_after_drops > 2 {
            return Err(InvalidParams::new(
                "bought_after_drops",
                "at most 2 (the seed forbids three or more bought moves)",
            ));
        }
        for (name, v) in [
            ("white_balance", self.white_balance),
            ("black_balance", self.black_balance),
        ] {
            if v > MAX_TABLE_VALUE {
                return Err(InvalidParams::new(name, format!("above {MAX_TABLE_VALUE}")));
            }
        }
        let v = &self.values;
        v.moves.check("values.move", MAX_TABLE_VALUE)?;
        v.move_destination
            .check("values.move_destination", MAX_TABLE_VALUE)?;
        v.buy.check("values.buy", MAX_TABLE_VALUE)?;
        v.buy_square.check("values.buy_square", MAX_TABLE_VALUE)?;
        for (name, x) in [
            ("values.extra_move", v.extra_move),
            ("values.retraction", v.retraction),
            ("values.flat", v.flat),
        ] {
            if x > MAX_TABLE_VALUE {
                return Err(InvalidParams::new(name, format!("above {MAX_TABLE_VALUE}")));
            }
        }
        let c = &self.costs;
        for (name, t) in [
            ("costs.drop", &c.drop),
            ("costs.extra_quiet", &c.extra_quiet),
            ("costs.extra_capture", &c.extra_capture),
            ("costs.same_after_capture", &c.same_after_capture),
            ("costs.second_capture", &c.second_capture),
        ] {
            t.check(name, MAX_TABLE_VALUE)?;
            t.check_positive(name)?;
        }
        for (name, x) in [
            ("costs.king_quiet_in_check", c.king_quiet_in_check),
            ("costs.king_quiet_into_check", c.king_quiet_into_check),
            (
                "costs.king_after_capture_into_check",
                c.king_after_capture_into_check,
            ),
            ("costs.retraction", c.retraction),
            ("costs.retraction_check", c.retraction_check),
            ("costs.retraction_escape", c.retraction_escape),
        ] {
            if x == 0 {
                return Err(InvalidParams::new(
                    name,
                    "a price of 0 would allow endless purchases in one turn",
                ));
            }
            if x > MAX_TABLE_VALUE {
                return Err(InvalidParams::new(name, format!("above {MAX_TABLE_VALUE}")));
            }
        }
        Ok(())
    }
}

impl ClairvoyantParams {
    pub fn blind(&self) -> bool {
        self.mode == "blind"
    }
}

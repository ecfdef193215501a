//! Retractions (seed: "Forcing the opponent to retract a move and choose another costs
//! 10Z ... 15Z ... 25Z"; RULES.md "Clairvoyant Chess"):
//! - Only the free move can be retracted, right after it is made, by the player not on
//!   move; the mover then makes a different free move (no drops), and retractions may
//!   repeat while the opponent can pay (`rule_retraction_repeats`).
//! - The price: 25 for a move that escapes a check (the mover was in check at the start
//!   of the turn and the move leaves its king unattacked), also when it checks; else 15
//!   for a checking move; else 10 (`rule_retraction_prices`).
//! - A retraction is offered only if the mover has another free move (not yet retracted
//!   this turn) that can end the turn legally; for the 25 one, another escape
//!   (`rule_no_retraction_of_the_only_escape`, `rule_no_retraction_without_alternative`).

use super::tables::Costs;
use super::TurnMove;

/// What forcing the retraction of `m` costs, or `None` if it may not be forced.
/// `alternative`: another free move can end the turn legally; `other_escape`: another
/// free move escapes the check by itself.
pub fn retraction_cost(
    costs: &Costs,
    start_check: bool,
    m: &TurnMove,
    alternative: bool,
    other_escape: bool,
) -> Option<u32> {
    let escape = start_check && !m.into_check;
    if escape {
        other_escape.then_some(costs.retraction_escape)
    } else if !alternative {
        None
    } else if m.gave_check {
        Some(costs.retraction_check)
    } else {
        Some(costs.retraction)
    }
}

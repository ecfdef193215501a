//! Rule tests for Zombie Chess (one `rule_*` per rule of RULES.md and per seed example),
//! the conformance check and bad-input errors.

use super::*;
use crate::game::conformance;

#[test]
fn conformance_random_games() {
    conformance::check(&Zombie::new(&ZombieParams::default()), 6, 3);
}

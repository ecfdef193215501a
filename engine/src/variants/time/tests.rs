use super::*;
use crate::game::conformance;

#[test]
fn time_chess_conforms_to_the_game_api() {
    conformance::check(&TimeChess::new(&TimeParams::default()), 20, 7);
}

use super::*;
use crate::game::conformance;

#[test]
fn tar_pit_conforms_to_the_game_api() {
    conformance::check(&TarPit::new(&TarPitParams::default()), 6, 3);
}

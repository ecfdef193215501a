//! Tests of Clairvoyant Chess rules.
use super::*;
use crate::game::conformance;

#[test]
fn conformance_open_and_blind() {
    conformance::check(&Clairvoyant::new(&ClairvoyantParams::default()), 3, 5);
    let blind = ClairvoyantParams {
        mode: "blind".into(),
        ..Default::default()
    };
    conformance::check(&Clairvoyant::new(&blind), 3, 6);
}

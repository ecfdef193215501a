//! A game's own features as evaluation terms (issue 66: "terms the game needs:
//! checkers, prophecies, Zorkmids, burials").
//!
//! Every variant declares the features of its positions once, for `chesslab values`
//! (`Game::features`: the piece-count differences, then its own, such as Adrenaline's
//! `checkers` and `carriers`, Zombie's `zombies` and `graveyard`, Clairvoyant's
//! `zorkmids`, Tar Pit's `tarred` and `checkers_in_front`, Cassandra's `rung`, Half
//! Alice's `on_mirror`). An eval file's `[features]` table weighs them, in pawns per
//! unit, so a weight `chesslab values` learned is read as it is written:
//!
//! ```toml
//! [features]
//! checkers = 1.2
//! carriers = -2.7
//! ```
//!
//! Decisions where the issue is silent:
//! - A feature is from seat 0's side (seat 0 minus seat 1, as `Game::features` states
//!   it), so its term is added for seat 0 and subtracted for seat 1.
//! - The piece counts are not features here: the board's material and piece-square
//!   tables already score them, and a second weight would count a piece twice; an eval
//!   file naming one is refused ([`check_file`]), as is a name the game does not declare
//!   ([`check_game`], when an agent is built for a game), each with the names it knows.
//! - No committed weight set has features (so no agent plays differently); a weight of 0
//!   costs nothing, and the features are read only when one is non-zero, since reading
//!   them builds the game's whole feature list.
//!
//! Tests: `rule_eval_features_*` below, and `every_variants_own_features_are_terms` in
//! agents/tests/search.rs.

use super::EvalWeights;
use engine::game::{Game, Seat, MATERIAL_FEATURES};

/// The non-zero feature weights of `w`, in name order.
pub fn active(w: &EvalWeights) -> Vec<(String, f64)> {
    w.features
        .iter()
        .filter(|(_, &x)| x != 0.0)
        .map(|(n, &x)| (n.clone(), x))
        .collect()
}

/// The features' term for `seat` (pawns): each weight times its feature, from seat 0's
/// side. A name the position does not list counts nothing (checked when the agent is
/// built: [`check_game`]).
pub fn term<G: Game>(active: &[(String, f64)], game: &G, seat: Seat) -> f64 {
    let values = game.features();
    let mut sum = 0.0;
    for (name, w) in active {
        if let Some((_, v)) = values.iter().find(|(n, _)| n == name) {
            sum += w * v;
        }
    }
    if seat == 0 {
        sum
    } else {
        -sum
    }
}

/// Checks a file's `[features]` on its own: no piece count, finite weights within
/// [-100, 100] pawns.
pub fn check_file(w: &EvalWeights) -> Result<(), String> {
    for (name, &x) in &w.features {
        if MATERIAL_FEATURES.contains(&name.as_str()) {
            return Err(format!(
                "[features] {name}: the piece values score the pieces (pawn, knight, ...), \
                 [features] holds only a game's own features"
            ));
        }
        if !x.is_finite() || !(-100.0..=100.0).contains(&x) {
            return Err(format!("[features] {name} = {x} within [-100, 100] pawns"));
        }
    }
    Ok(())
}

/// The game's own feature names (beyond the piece counts), read from its start position
/// with the default parameters.
pub fn own_names<G: Game>() -> Vec<String> {
    G::new(&G::Params::default())
        .features()
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| !MATERIAL_FEATURES.contains(&n.as_str()))
        .collect()
}

/// Checks that every `[features]` name of `w` is one of game `G`'s own features.
pub fn check_game<G: Game>(w: &EvalWeights) -> Result<(), String> {
    if w.features.is_empty() {
        return Ok(());
    }
    let known = own_names::<G>();
    for name in w.features.keys() {
        if !known.contains(name) {
            return Err(if known.is_empty() {
                format!("[features] {name}: this game has no features of its own")
            } else {
                format!(
                    "[features] {name}: not a feature of this game (its own: {}){}",
                    known.join(", "),
                    engine::suggest::did_you_mean(name, known.iter().map(String::as_str))
                )
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(features: &[(&str, f64)]) -> EvalWeights {
        let mut w = EvalWeights::default();
        for (n, x) in features {
            w.features.insert(n.to_string(), *x);
        }
        w
    }

    #[test]
    fn rule_eval_features_read_from_a_file_and_refuse_piece_counts() {
        let w: EvalWeights =
            toml::from_str("knight = 3.0\n[features]\ncheckers = 1.25\ncarriers = -2.5\n").unwrap();
        assert_eq!(w.features.get("checkers"), Some(&1.25));
        assert_eq!(active(&w).len(), 2);
        assert!(check_file(&w).is_ok());
        let e = check_file(&with(&[("knight", 1.0)])).unwrap_err();
        assert!(e.contains("piece values"), "{e}");
        let e = check_file(&with(&[("checkers", f64::NAN)])).unwrap_err();
        assert!(e.contains("within"), "{e}");
        assert!(active(&with(&[("checkers", 0.0)])).is_empty());
        // Written back, an empty table is left out, so committed files stay as they are.
        let text = toml::to_string(&EvalWeights::default()).unwrap();
        assert!(!text.contains("features"), "{text}");
    }

    #[test]
    fn rule_eval_features_names_are_checked_against_the_game() {
        use engine::variants::adrenaline::Adrenaline;
        use engine::variants::chess::Chess;
        assert!(own_names::<Adrenaline>().contains(&"checkers".to_string()));
        assert!(check_game::<Adrenaline>(&with(&[("checkers", 1.0)])).is_ok());
        let e = check_game::<Adrenaline>(&with(&[("checker", 1.0)])).unwrap_err();
        assert!(e.contains("checkers"), "names the known ones: {e}");
        let e = check_game::<Chess>(&with(&[("checkers", 1.0)])).unwrap_err();
        assert!(e.contains("no features of its own"), "{e}");
    }
}

//! A game's own features as evaluation terms (agents/src/eval/features.rs), checked in
//! every variant of the table over random games: with a weight on one of the game's own
//! features the evaluation moves by exactly the weight times the feature, added for
//! seat 0 and subtracted for seat 1, and an agent spec whose eval file names a feature
//! the game does not have is refused when the agent is built for that game.

use agents::baseline::random_action;
use agents::common::sample_chance;
use agents::eval::{features, EvalWeights, Evaluator};
use engine::game::{Game, Turn};
use engine::registry::{self, VariantVisitor, VARIANTS};
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// Positions where an own feature was non-zero and checked, per variant.
struct Check;

impl VariantVisitor for Check {
    type Output = (Vec<String>, usize);
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> (Vec<String>, usize) {
        let own = features::own_names::<G>();
        if own.is_empty() {
            return (own, 0);
        }
        let plain = Evaluator::new(EvalWeights::default());
        let weighted: Vec<(String, Evaluator)> = own
            .iter()
            .map(|f| {
                let mut w = EvalWeights::default();
                w.features.insert(f.clone(), 0.37);
                (f.clone(), Evaluator::new(w))
            })
            .collect();
        let mut rng = Pcg64::seed_from_u64(66);
        let mut checked = 0;
        let mut chance = Vec::new();
        for _game in 0..6 {
            let mut g = G::new(&params);
            for _ply in 0..200 {
                let values = g.features();
                if g.board().is_some() {
                    for (f, e) in &weighted {
                        let v = values.iter().find(|(n, _)| n == f).map_or(0.0, |x| x.1);
                        for seat in 0..2 {
                            let got = e.evaluate(&g, seat) - plain.evaluate(&g, seat);
                            let sign = if seat == 0 { 1.0 } else { -1.0 };
                            assert!(
                                (got - sign * 0.37 * v).abs() < 1e-9,
                                "{name}: {f} = {v} moved seat {seat}'s evaluation by {got}"
                            );
                        }
                        if v != 0.0 {
                            checked += 1;
                        }
                    }
                }
                match g.turn() {
                    Turn::Terminal => break,
                    Turn::Chance => {
                        g.chance_outcomes(&mut chance);
                        g.apply(chance[sample_chance(&chance, &mut rng)].0);
                    }
                    Turn::Simultaneous => {
                        let joint: Vec<_> = (0..g.num_seats())
                            .map(|s| random_action(&g, s, &mut rng))
                            .collect();
                        g.apply_joint(&joint);
                    }
                    Turn::Seat(seat) => {
                        let a = random_action(&g, seat, &mut rng);
                        g.apply(a);
                    }
                }
            }
        }
        (own, checked)
    }
}

#[test]
fn every_variants_own_features_are_terms() {
    let mut seen = Vec::new();
    for &name in VARIANTS {
        let (own, checked) = registry::visit(name, None, Check).expect("a table variant");
        if !own.is_empty() {
            seen.push((name, own, checked));
        }
    }
    // Every variant that declares features of its own reached positions where one was
    // non-zero, so the sign and size above were checked on a real term.
    for (name, own, checked) in &seen {
        assert!(*checked > 0, "{name}: no position with {own:?} non-zero");
    }
    let names: Vec<&str> = seen.iter().map(|s| s.0).collect();
    for v in [
        "adrenaline",
        "zombie",
        "clairvoyant",
        "tar-pit",
        "cassandra",
        "half-alice",
    ] {
        assert!(
            names.contains(&v),
            "{v} declares features of its own: {names:?}"
        );
    }
}

#[test]
fn an_eval_file_naming_another_games_feature_is_refused() {
    use engine::variants::adrenaline::Adrenaline;
    use engine::variants::zombie::Zombie;
    let f = std::env::temp_dir().join(format!("eval-features-{}.toml", std::process::id()));
    std::fs::write(&f, "[features]\ncheckers = 1.2\n").unwrap();
    let spec = format!("alphabeta:depth=1,eval={}", f.display());
    assert!(agents::registry::build::<Adrenaline>(&spec).is_ok());
    let e = agents::registry::build::<Zombie>(&spec)
        .err()
        .expect("refused")
        .to_string();
    assert!(e.contains("checkers") && e.contains("graveyard"), "{e}");
    std::fs::write(&f, "[features]\nrook = 1.2\n").unwrap();
    let e = agents::registry::build::<Adrenaline>(&spec)
        .err()
        .expect("refused")
        .to_string();
    assert!(e.contains("piece values"), "{e}");
    let _ = std::fs::remove_file(&f);
}

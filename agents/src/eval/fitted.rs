//! The search's evaluations fitted to particular games (issue 66): one weight file per
//! game under `agents/data/eval/`, named by the game's `GameFacts::eval`, compiled in
//! through the table [`FITTED`].
//!
//! [`super::Evaluator::search`] builds one evaluator per entry, each passed through the
//! spec's `eval.*` keys as the general one is, and scores a game by the entry its
//! `GameFacts::eval` names; a game whose name has no entry (or an empty name: Golf) is
//! scored by `agents/data/eval/chess.toml` ([`super::search_weights`]), which is also
//! where every fit starts. Decisions:
//! - Only games that have a fitted file have an entry; a game without one falls back, so
//!   adding a file is one line here and the file (the tests below fail until both exist).
//! - A file is kept only when its fit (`chesslab texel --variant V`, from the variant's
//!   kept games) scores at least 50% against chess.toml in a 200-game match with the same
//!   player on both sides: results/strength/variants/evals/README.md records each game's
//!   fit and match, and the file's header says where it came from.
//! - `orthodox` (orthodox chess and Chess960, the piece-square tables fitted to
//!   Stockfish's scores, generation 4) is one entry like the others; the evaluator still
//!   picks it by `GameFacts::orthodox_positions`, one flag, before looking a name up, so
//!   orthodox play pays no string comparison (a test checks that the flag and the name
//!   agree for every registry variant).
//! - `eval=FILE` in a spec replaces every entry's weights as it replaces chess.toml's:
//!   the entries then equal the general evaluator and are dropped, so the file scores
//!   every game.
//!
//! Tests (below): `every_eval_file_has_an_entry_and_every_entry_a_file`,
//! `every_entry_names_a_registry_game`, `orthodox_positions_and_the_orthodox_entry_agree`,
//! `a_game_with_an_entry_is_scored_by_its_own_weights`,
//! `an_eval_file_scores_every_game`; and in the parent module
//! `the_search_evaluator_uses_the_fitted_tables_only_in_orthodox_games`.

use super::{search_weights, EvalWeights};
use std::sync::OnceLock;

/// The games with a fitted evaluation: (`GameFacts::eval` name, the text of
/// `agents/data/eval/<name>.toml`). chess.toml is not here: it is the fallback.
pub const FITTED: &[(&str, &str)] = &[
    ("orthodox", include_str!("../../data/eval/orthodox.toml")),
    (
        "half-alice",
        include_str!("../../data/eval/half-alice.toml"),
    ),
    ("cassandra", include_str!("../../data/eval/cassandra.toml")),
    (
        "synchronous",
        include_str!("../../data/eval/synchronous.toml"),
    ),
];

/// The weights of the entry called `eval` in [`FITTED`], if there is one (read once).
pub fn fitted_weights(eval: &str) -> Option<&'static EvalWeights> {
    static W: OnceLock<Vec<EvalWeights>> = OnceLock::new();
    let all = W.get_or_init(|| {
        FITTED
            .iter()
            .map(|(name, text)| {
                toml::from_str(text).unwrap_or_else(|e| {
                    panic!("agents/data/eval/{name}.toml holds no eval weights: {e}")
                })
            })
            .collect()
    });
    FITTED.iter().position(|(n, _)| *n == eval).map(|i| &all[i])
}

/// The search's weights for a game whose `GameFacts::eval` is `eval`: its fitted file,
/// else chess.toml.
pub fn weights_for(eval: &str) -> &'static EvalWeights {
    fitted_weights(eval).unwrap_or_else(search_weights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use engine::game::{Game, Turn};
    use engine::registry::{self, VariantVisitor};
    use rand::{Rng, SeedableRng};
    use std::collections::BTreeSet;

    #[test]
    fn every_eval_file_has_an_entry_and_every_entry_a_file() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/eval");
        let files: BTreeSet<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|f| f.strip_suffix(".toml").map(str::to_string))
            .filter(|f| f != "chess")
            .collect();
        let entries: BTreeSet<String> = FITTED.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(entries.len(), FITTED.len(), "a name twice in FITTED");
        assert_eq!(files, entries, "agents/data/eval/*.toml against FITTED");
        for (name, text) in FITTED {
            let on_disk = std::fs::read_to_string(dir.join(format!("{name}.toml"))).unwrap();
            assert_eq!(&on_disk, text, "{name}: the entry compiles in its own file");
            assert!(fitted_weights(name).is_some());
        }
    }

    #[test]
    fn every_entry_names_a_registry_game() {
        let names: BTreeSet<&str> = registry::VARIANTS
            .iter()
            .map(|v| registry::facts(v).unwrap().eval)
            .collect();
        for (name, _) in FITTED {
            assert!(!name.is_empty());
            assert!(
                names.contains(name),
                "{name} is no registry game's eval (known: {names:?})"
            );
        }
    }

    #[test]
    fn orthodox_positions_and_the_orthodox_entry_agree() {
        for v in registry::VARIANTS {
            let f = registry::facts(v).unwrap();
            assert_eq!(f.orthodox_positions, f.eval == "orthodox", "{v}");
        }
    }

    /// Plays `plies` random plies of the registry game `name` and checks, at every
    /// position with a board, that the search's evaluator scores it as an evaluator of
    /// the game's own weights does; returns how many of those positions chess.toml
    /// scores otherwise.
    struct Scored {
        plies: usize,
        seed: u64,
    }

    impl VariantVisitor for Scored {
        type Output = usize;
        fn visit<G: Game>(self, name: &'static str, params: G::Params) -> usize {
            let mut g = G::new(&params);
            let eval = g.facts().eval;
            let search = Evaluator::search(|w| w);
            let own = Evaluator::new(weights_for(eval).clone());
            let general = Evaluator::new(search_weights().clone());
            let mut rng = rand_pcg::Pcg64::seed_from_u64(self.seed);
            let (mut actions, mut differ) = (Vec::new(), 0);
            for _ in 0..self.plies {
                if g.board().is_some() {
                    for seat in 0..g.num_seats().min(2) {
                        let s = search.evaluate(&g, seat);
                        assert_eq!(s, own.evaluate(&g, seat), "{name} seat {seat}");
                        differ += usize::from(s != general.evaluate(&g, seat));
                    }
                }
                match g.turn() {
                    Turn::Terminal => break,
                    Turn::Seat(s) => {
                        g.legal_actions(s, &mut actions);
                        let a = actions[rng.gen_range(0..actions.len())];
                        g.apply(a);
                    }
                    Turn::Chance => {
                        let mut outcomes = Vec::new();
                        g.chance_outcomes(&mut outcomes);
                        let a = outcomes[rng.gen_range(0..outcomes.len())].0;
                        g.apply(a);
                    }
                    Turn::Simultaneous => {
                        let joint: Vec<G::Action> = g
                            .simultaneous_seats()
                            .into_iter()
                            .map(|s| {
                                g.legal_actions(s, &mut actions);
                                actions[rng.gen_range(0..actions.len())]
                            })
                            .collect();
                        g.apply_joint(&joint);
                    }
                }
            }
            differ
        }
    }

    /// Every game with an entry is scored by its entry's weights, and they score some of
    /// its positions otherwise than chess.toml; a game without one is scored by chess.toml.
    #[test]
    fn a_game_with_an_entry_is_scored_by_its_own_weights() {
        for v in registry::VARIANTS {
            let eval = registry::facts(v).unwrap().eval;
            let differ = (0..4)
                .map(|seed| registry::visit(v, None, Scored { plies: 60, seed }).unwrap())
                .sum::<usize>();
            if fitted_weights(eval).is_some() {
                assert!(differ > 0, "{v}: its weights score like chess.toml's");
            } else {
                assert_eq!(differ, 0, "{v}: no entry, so chess.toml scores it");
            }
        }
    }

    /// `eval=FILE` (one weight set for all): no game keeps its own evaluator, so the
    /// file scores every game; `eval.*` keys reach every entry.
    #[test]
    fn an_eval_file_scores_every_game() {
        let file = EvalWeights::default();
        let e = Evaluator::search(|_| file.clone());
        assert!(e.orthodox.is_none() && e.fitted.is_empty());
        assert_eq!(e, Evaluator::new(file));
        let knight = Evaluator::search(|mut w| {
            w.knight = 4.5;
            w
        });
        let all = knight.orthodox.iter().map(|o| &**o);
        for o in all.chain(knight.fitted.iter().map(|(_, o)| o)) {
            assert_eq!(o.weights().knight, 4.5);
        }
        assert_eq!(
            knight.fitted.len() + usize::from(knight.orthodox.is_some()),
            FITTED.len()
        );
    }
}

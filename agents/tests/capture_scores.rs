//! The agents' reading of captures (`common::capture_score`, which move ordering,
//! quiescence and the greedy player rest on), checked in every variant of the table over
//! random games: an action scored as a capture takes a piece of the victim's colour off
//! the board, and in the games that name their moves (`Game::action_move`) every action
//! that takes one is scored. Before this test a Cassandra prophecy and a failed
//! Masquerade attempt were scored as captures (the board's previous move was read as
//! theirs), Clairvoyant's bought captures were not (the board's turn had moved on), and
//! Zombie's captures never were (its board keeps no move history).

use agents::common::capture_score;
use engine::game::{Game, Turn};
use engine::registry::{self, VariantVisitor, VARIANTS};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Counts of (actions scored as captures, actions checked) over a few random games.
struct Check;

impl VariantVisitor for Check {
    type Output = (usize, usize);
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> (usize, usize) {
        let mut rng = Pcg64::seed_from_u64(66);
        let (mut scored, mut checked) = (0, 0);
        let mut actions = Vec::new();
        let mut chance = Vec::new();
        for _game in 0..4 {
            let mut g = G::new(&params);
            for _ply in 0..160 {
                match g.turn() {
                    Turn::Terminal => break,
                    Turn::Chance => {
                        g.chance_outcomes(&mut chance);
                        let pick = chance[rng.gen_range(0..chance.len())].0;
                        g.apply(pick);
                    }
                    Turn::Simultaneous => {
                        // Simultaneous games name no single move per action: skipped.
                        return (scored, checked);
                    }
                    Turn::Seat(seat) => {
                        g.legal_actions(seat, &mut actions);
                        for &a in &actions {
                            let Some(before) = g.board().cloned() else {
                                continue;
                            };
                            let score = capture_score(&mut g, a);
                            g.apply(a);
                            let after = g.board().cloned().expect("the board went away");
                            g.undo();
                            let named = g.action_move(a);
                            checked += 1;
                            let text = g.action_notation(a);
                            if score.is_some() {
                                scored += 1;
                                let victim = agents::common::action_move(&mut g, a)
                                    .and_then(|m| before.victim(m));
                                let Some(victim) = victim else {
                                    panic!("{name}: '{text}' is scored as a capture of no piece");
                                };
                                assert!(
                                    after.by_color(victim.color).count()
                                        < before.by_color(victim.color).count(),
                                    "{name}: '{text}' is scored as a capture but takes nothing"
                                );
                            } else if let Some(m) = named {
                                assert!(
                                    before.victim(m).is_none(),
                                    "{name}: '{text}' takes a piece but is not scored as a capture"
                                );
                            }
                        }
                        let a = actions[rng.gen_range(0..actions.len())];
                        g.apply(a);
                    }
                }
            }
        }
        (scored, checked)
    }
}

#[test]
fn capture_scores_match_what_actions_take_in_every_variant() {
    for name in VARIANTS {
        let (scored, checked) = registry::visit(name, None, Check).expect("a table variant");
        // Games with a board and sequential moves see captures in random play.
        if checked > 0 && !matches!(*name, "cooperative" | "golf") {
            assert!(scored > 0, "{name}: no capture scored in {checked} actions");
        }
    }
}

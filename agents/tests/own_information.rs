//! Agents that claim to decide from a seat's information (`agents::registry::Reads`)
//! cannot be told apart by the hidden truth: on each hidden-information variant (Masquerade
//! with a random assignment, Tar Pit, Zombie, Time, Cooperative, Clairvoyant, Cassandra
//! with secret prophecies), random playouts stop at positions where a seat decides; a second
//! state is drawn with `sample_world(seat)` until it differs from the true one
//! (`state_key`) behind the same information (`information_key(seat)`, observation); every
//! claiming agent, fresh and with the same caller seed, must choose the same action on
//! both. Seeded specs (`seed=`) are played too, since their stream is keyed by the
//! position. `cheat`, which reads the true state, is checked to be the one agent that does
//! not claim the fact.

use agents::registry::{self, Reads, AGENT_TABLE, EXTERNAL};
use agents::spec::AgentError;
use engine::game::{Game, Seat, Turn};
use engine::registry::VariantVisitor;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// A cheap spec per agent family (decisions in a debug build stay short); each family
/// that claims the fact must have one, so a new agent cannot skip this test.
fn cheap_specs(name: &str) -> Vec<String> {
    let base = match name {
        "random" | "greedy" | "clairvoyant" => return vec![name.to_string()],
        "alphabeta" => "alphabeta:depth=2,iters=16,worlds=2",
        "expectimax" => "expectimax:depth=1,iters=16",
        "mcts" => "mcts:iters=40",
        "ismcts" => "ismcts:iters=40",
        "pimc" => "pimc:iters=16,worlds=2",
        "smmcts" => "smmcts:iters=40",
        other => panic!("no cheap spec for agent '{other}': add one to this test"),
    };
    let mut v = vec![base.to_string(), format!("{base},seed=7")];
    if name == "pimc" {
        // The sampled-world alphabeta (issue 36) decides from the seat's worlds too.
        v.push("pimc:search=alphabeta,depth=1,worlds=2".into());
        v.push("pimc:search=alphabeta,depth=1,worlds=2,risk=1,seed=7".into());
    }
    v
}

/// Positions with two states one seat cannot tell apart: (true state, other world, seat).
fn twin_positions<G: Game>(start: &G, seed: u64, want: usize) -> Vec<(G, G, Seat)> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut out = Vec::new();
    for _game in 0..20 {
        let mut g = start.clone();
        for _ply in 0..60 {
            let seats: Vec<Seat> = match g.turn() {
                Turn::Terminal => break,
                Turn::Seat(s) => vec![s],
                Turn::Simultaneous => g.simultaneous_seats(),
                Turn::Chance => Vec::new(),
            };
            // Every few plies, look for a twin world behind a deciding seat's information.
            if !seats.is_empty() && rng.gen_bool(0.3) {
                let s = seats[0];
                for _try in 0..6 {
                    let w = g.sample_world(s, &mut rng);
                    if w.state_key() != g.state_key()
                        && w.information_key(s) == g.information_key(s)
                        && w.observation(s) == g.observation(s)
                    {
                        out.push((g.clone(), w, s));
                        break;
                    }
                }
                if out.len() >= want {
                    return out;
                }
            }
            match g.turn() {
                Turn::Chance => {
                    let mut o = Vec::new();
                    g.chance_outcomes(&mut o);
                    let i = engine::random::sample_index(&o, &mut rng);
                    g.apply(o[i].0);
                }
                Turn::Seat(s) => {
                    let mut legal = Vec::new();
                    g.legal_actions(s, &mut legal);
                    g.apply(legal[rng.gen_range(0..legal.len())]);
                }
                Turn::Simultaneous => {
                    let joint: Vec<G::Action> = g
                        .simultaneous_seats()
                        .into_iter()
                        .map(|s| {
                            let mut legal = Vec::new();
                            g.legal_actions(s, &mut legal);
                            legal[rng.gen_range(0..legal.len())]
                        })
                        .collect();
                    g.apply_joint(&joint);
                }
                Turn::Terminal => break,
            }
        }
    }
    out
}

struct Check;

impl VariantVisitor for Check {
    type Output = usize;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> usize {
        let start = G::new(&params);
        assert!(
            !start.is_perfect_information(),
            "{name}: the test wants a hidden-information game"
        );
        let twins = twin_positions(&start, 11, 3);
        assert!(
            !twins.is_empty(),
            "{name}: no two states behind one observation were found"
        );
        let mut played = 0;
        for info in AGENT_TABLE {
            if info.reads != Reads::SeatInformation || EXTERNAL.contains(&info.name) {
                continue;
            }
            for spec in cheap_specs(info.name) {
                for (truth, other, seat) in &twins {
                    let build = || match registry::build::<G>(&spec) {
                        Ok(a) => Some(a),
                        Err(AgentError::Unsupported { .. }) => None,
                        Err(e) => panic!("{spec}: {e}"),
                    };
                    let (Some(mut a), Some(mut b)) = (build(), build()) else {
                        continue;
                    };
                    let x = a.act(truth, *seat, &mut Pcg64::seed_from_u64(5));
                    let y = b.act(other, *seat, &mut Pcg64::seed_from_u64(5));
                    assert_eq!(
                        truth.action_notation(x),
                        other.action_notation(y),
                        "{name}: {spec} decided differently for seat {seat} on two states it \
                         cannot tell apart:\n{truth:?}\n---\n{other:?}"
                    );
                    played += 1;
                }
            }
        }
        played
    }
}

fn check(variant: &str, params: Option<&str>) {
    let played = engine::registry::visit(variant, params, Check).expect(variant);
    assert!(played > 0, "{variant}: no agent was played");
}

#[test]
fn rule_only_cheat_reads_the_true_state() {
    let readers: Vec<&str> = AGENT_TABLE
        .iter()
        .filter(|a| a.reads == Reads::TrueState)
        .map(|a| a.name)
        .collect();
    assert_eq!(readers, vec!["cheat"]);
    assert_eq!(registry::reads("smmcts"), Some(Reads::SeatInformation));
    assert_eq!(registry::reads("nosuch"), None);
}

#[test]
fn rule_own_information_masquerade() {
    check("masquerade", Some("assignment = \"random\""));
}

#[test]
fn rule_own_information_tar_pit() {
    check("tar-pit", None);
}

#[test]
fn rule_own_information_zombie() {
    check("zombie", None);
}

#[test]
fn rule_own_information_time() {
    check("time", None);
}

#[test]
fn rule_own_information_cooperative() {
    check("cooperative", None);
}

#[test]
fn rule_own_information_clairvoyant() {
    check("clairvoyant", None);
}

#[test]
fn rule_own_information_secret_cassandra() {
    check("cassandra", Some("secret = true"));
}

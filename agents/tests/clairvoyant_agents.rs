//! The agents play whole games of Clairvoyant Chess (guess sheets, purchases and
//! retractions are ordinary decisions) without panics and with legal actions only:
//! ISMCTS, PIMC, the cheating MCTS, mcts (ISMCTS here), alphabeta (PIMC here), greedy,
//! random and the variant's own `clairvoyant` agent; and the smart guesser earns more
//! than the naive one.

use agents::clairvoyant::ClairvoyantAgent;
use agents::registry::build;
use agents::{Agent, Spec};
use engine::game::{Game, Turn};
use engine::variants::chess::Chess;
use engine::variants::clairvoyant::{Clairvoyant, ClairvoyantParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;

fn play(mut g: Clairvoyant, white: &str, black: &str, seed: u64) -> Clairvoyant {
    let mut agents: [Box<dyn Agent<Clairvoyant>>; 2] =
        [build(white).unwrap(), build(black).unwrap()];
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 20_000, "no end in sight");
        match g.turn() {
            Turn::Terminal => return g,
            Turn::Seat(s) => {
                let a = agents[s].act(&g, s, &mut rng);
                g.legal_actions(s, &mut legal);
                assert!(
                    legal.contains(&a),
                    "{} chose an illegal action {}",
                    agents[s].spec(),
                    g.action_notation(a)
                );
                g.apply(a);
            }
            other => panic!("Clairvoyant Chess has no {other:?} nodes"),
        }
    }
}

fn short(turns: u32, balance: u32) -> Clairvoyant {
    Clairvoyant::new(&ClairvoyantParams {
        ply_cap: turns,
        white_balance: balance,
        black_balance: balance,
        ..Default::default()
    })
}

fn check_finished(g: &Clairvoyant) {
    let r = g.result().expect("the game ended");
    assert!(!r.reason.is_empty());
    let t = g.tallies();
    assert!(t.iter().any(|(k, _)| k == "white_earned"));
    assert!(t.iter().all(|(_, v)| *v >= 0.0));
}

#[test]
fn search_agents_finish_games() {
    check_finished(&play(short(8, 30), "ismcts:iters=40", "cheat:iters=40", 1));
    check_finished(&play(
        short(8, 30),
        "pimc:iters=20,worlds=2",
        "mcts:iters=40",
        2,
    ));
    check_finished(&play(
        short(6, 30),
        "alphabeta:depth=1,worlds=2,iters=20",
        "clairvoyant",
        3,
    ));
}

#[test]
fn baselines_and_the_variant_agent_finish_games() {
    for seed in 0..3 {
        check_finished(&play(short(60, 0), "random", "greedy", seed));
        check_finished(&play(short(60, 20), "clairvoyant", "random", seed + 10));
        check_finished(&play(
            short(60, 20),
            "clairvoyant:guesser=naive",
            "clairvoyant:repeat=false",
            seed + 20,
        ));
    }
}

#[test]
fn the_variant_agent_refuses_other_games() {
    let e = build::<Chess>("clairvoyant").err().expect("refused");
    assert!(e.to_string().contains("Clairvoyant Chess only"), "{e}");
    assert!(build::<Clairvoyant>("clairvoyant:guesser=psychic").is_err());
}

/// Zorkmids a guesser earns per guessed turn against the same mover.
fn earned_per_turn(guesser: &str, seed: u64) -> f64 {
    let g = play(short(40, 0), "clairvoyant:drop_at=1000,zk=0", guesser, seed);
    g.tallies()
        .into_iter()
        .find(|(k, _)| k == "black_earned_per_move")
        .map_or(0.0, |(_, v)| v)
}

#[test]
fn smart_guesser_out_earns_the_naive_one() {
    let (mut smart, mut naive) = (0.0, 0.0);
    for seed in 0..4 {
        smart += earned_per_turn("clairvoyant", seed);
        naive += earned_per_turn("clairvoyant:guesser=naive", seed);
    }
    assert!(smart > naive, "smart {smart} vs naive {naive}");
    // The sheet repeats its best guess: guesses score independently.
    let a = ClairvoyantAgent::from_spec(&Spec::parse("clairvoyant").unwrap()).unwrap();
    let sheet = a.sheet(&short(10, 0));
    assert_eq!(sheet.len(), 3);
    assert!(sheet.iter().all(|s| *s == sheet[0]));
}

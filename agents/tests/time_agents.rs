//! The agents play whole games of Time Chess (blind phases, sampled worlds) without
//! panics and only with legal actions.

use agents::registry::build;
use agents::Agent;
use engine::game::{Game, Turn};
use engine::variants::time::{TimeChess, TimeParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// Plays `white` against `black` to the end; returns the final state.
fn play(mut g: TimeChess, white: &str, black: &str, seed: u64) -> TimeChess {
    let mut agents: [Box<dyn Agent<TimeChess>>; 2] = [build(white).unwrap(), build(black).unwrap()];
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut legal = Vec::new();
    loop {
        match g.turn() {
            Turn::Terminal => return g,
            Turn::Seat(s) => {
                let a = agents[s].act(&g, s, &mut rng);
                g.legal_actions(s, &mut legal);
                assert!(
                    legal.contains(&a),
                    "{} chose an illegal action",
                    agents[s].spec()
                );
                g.apply(a);
            }
            t => panic!("Time Chess has no {t:?} nodes"),
        }
    }
}

fn check_finished(g: &TimeChess, cap: usize) {
    let r = g.result().expect("the game ended");
    assert!(
        [
            "checkmate",
            "stalemate",
            "cap",
            "repetition",
            "fifty-moves",
            "insufficient-material"
        ]
        .contains(&r.reason),
        "{}",
        r.reason
    );
    assert!(g.history_len() <= cap);
    let t = g.tallies();
    assert!(t.iter().any(|(n, _)| n == "black_forfeits"));
    // Every blind ply was recorded with its outcome.
    let blind = g.blind_outcomes().count();
    assert!(blind * 3 + 3 >= g.history_len(), "{blind} blind plies");
}

fn game(cap: u32) -> TimeChess {
    TimeChess::new(&TimeParams {
        ply_cap: cap,
        ..Default::default()
    })
}

#[test]
fn search_agents_finish_games() {
    let specs = [
        ("ismcts:iters=60", "cheat:iters=60"),
        ("ismcts:iters=60,mode=mo", "pimc:iters=60,worlds=3"),
        ("pimc:iters=60,worlds=3", "ismcts:iters=60"),
        ("cheat:iters=60", "ismcts:iters=60,mode=mo"),
    ];
    for (i, (w, b)) in specs.iter().enumerate() {
        check_finished(&play(game(40), w, b, i as u64), 40);
    }
}

#[test]
fn baselines_finish_games() {
    for seed in 0..6 {
        check_finished(&play(game(400), "random", "greedy", seed), 400);
        check_finished(&play(game(400), "greedy", "random", seed + 100), 400);
        check_finished(&play(game(400), "random", "random", seed + 200), 400);
    }
}

#[test]
fn greedy_and_ismcts_play_the_blind_turn_from_a_sampled_world() {
    // At Black's first blind turn the agents must act on what Black knows; any legal
    // blind try will do, but it must come from the blind move list.
    let mut g = game(400);
    for m in ["e7e5", "b1c3"] {
        let a = g.parse_action(m).unwrap();
        g.apply(a);
    }
    for spec in ["greedy", "ismcts:iters=100", "pimc:iters=50,worlds=2"] {
        let mut agent = build::<TimeChess>(spec).unwrap();
        let mut rng = Pcg64::seed_from_u64(5);
        let a = agent.act(&g, 1, &mut rng);
        let mut legal = Vec::new();
        g.legal_actions(1, &mut legal);
        assert!(legal.contains(&a), "{spec}");
    }
}

//! Every agent plays whole games of Two Move Chess (a simultaneous card choice, then
//! ordinary sequential moves): `smmcts` with both selections is the reference agent;
//! the sequential searches degrade at the simultaneous node as each documents (alphabeta
//! and expectimax score it statically, ismcts plays out, greedy and random pick at
//! random) and still play legal actions throughout.

use agents::registry::build;
use agents::Agent;
use engine::game::{replay, Game, Turn};
use engine::variants::two_move::{TwoMove, TwoMoveParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// Plays `white` against `black` from the start to the end; checks every action is
/// legal and that the record replays to the same state.
fn play(params: &TwoMoveParams, white: &str, black: &str, seed: u64) -> TwoMove {
    let start = TwoMove::new(params);
    let mut g = start.clone();
    let mut agents: [Box<dyn Agent<TwoMove>>; 2] = [build(white).unwrap(), build(black).unwrap()];
    let mut rngs = [Pcg64::seed_from_u64(seed), Pcg64::seed_from_u64(!seed)];
    let mut record = Vec::new();
    let mut legal = Vec::new();
    loop {
        match g.turn() {
            Turn::Terminal => break,
            Turn::Seat(s) => {
                let a = agents[s].act(&g, s, &mut rngs[s]);
                g.legal_actions(s, &mut legal);
                assert!(legal.contains(&a), "{white} v {black}: illegal move");
                record.push(g.action_notation(a));
                g.apply(a);
            }
            Turn::Simultaneous => {
                let mut joint = Vec::new();
                for s in g.simultaneous_seats() {
                    let a = agents[s].act(&g, s, &mut rngs[s]);
                    g.legal_actions(s, &mut legal);
                    assert!(legal.contains(&a), "{white} v {black}: illegal cards");
                    joint.push(a);
                }
                record.push(engine::game::joint_notation(&g, &joint));
                g.try_apply_joint(&joint).unwrap();
            }
            Turn::Chance => unreachable!("two-move has no chance nodes"),
        }
    }
    let refs: Vec<&str> = record.iter().map(String::as_str).collect();
    let again = replay(start, &refs).unwrap();
    assert_eq!(again.state_key(), g.state_key());
    g
}

fn short() -> TwoMoveParams {
    TwoMoveParams {
        ply_cap: 60,
        ..Default::default()
    }
}

#[test]
fn smmcts_with_both_selections_plays_two_move() {
    for select in ["duct", "rm"] {
        let spec = format!("smmcts:iters=150,select={select}");
        for seed in 0..2 {
            let g = play(&short(), &spec, "random", seed);
            assert!(g.result().is_some());
            let g = play(&short(), "random", &spec, seed + 10);
            assert!(g.result().is_some());
        }
    }
}

#[test]
fn every_other_agent_plays_two_move() {
    for spec in [
        "random",
        "greedy",
        "alphabeta:depth=2",
        "mcts:iters=100",
        "ismcts:iters=100",
        "expectimax:depth=2",
        "pimc:iters=60,worlds=2",
        "cheat:iters=100",
    ] {
        for seed in 0..2 {
            let g = play(&short(), spec, "smmcts:iters=60", seed);
            assert!(g.result().is_some(), "{spec}");
            let g = play(&short(), "random", spec, seed + 20);
            assert!(g.result().is_some(), "{spec}");
        }
    }
}

#[test]
fn smmcts_beats_random_at_two_move() {
    // The reference agent should take the random player's king far more often than not.
    let params = TwoMoveParams::default();
    let mut score = 0.0;
    for seed in 0..6 {
        let (white, black) = if seed % 2 == 0 {
            ("smmcts:iters=300", "random")
        } else {
            ("random", "smmcts:iters=300")
        };
        let g = play(&params, white, black, seed);
        let seat = seed as usize % 2;
        score += g.returns()[seat];
    }
    assert!(
        score >= 3.0,
        "smmcts scored {score} over 6 games against random"
    );
}

//! Every agent plays Synchronous Chess (simultaneous turns, exchange-of-blows seat
//! nodes, simultaneous exchange steps) to the end with legal actions only. `smmcts`
//! (both selections) and `alphabeta`, which solves each simultaneous choice as a
//! matrix game over its searched joint actions (`agents::alphabeta::matrix`; the
//! `rule_alphabeta_matrix_*` tests below), search simultaneous nodes; the other
//! sequential searches degrade there as their module docs say (expectimax by UCT,
//! ismcts plays out, greedy picks at random).

use agents::registry::build;
use agents::Agent;
use engine::game::{Game, Turn};
use engine::variants::synchronous::{Synchronous, SynchronousParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// Plays `white` against `black` from `g` to the end; returns the final state.
fn play(mut g: Synchronous, white: &str, black: &str, seed: u64) -> Synchronous {
    let mut agents: [Box<dyn Agent<Synchronous>>; 2] =
        [build(white).unwrap(), build(black).unwrap()];
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 5_000, "no end in sight");
        match g.turn() {
            Turn::Terminal => return g,
            Turn::Chance => panic!("Synchronous Chess has no chance nodes"),
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
            Turn::Simultaneous => {
                let mut joint = Vec::new();
                for s in g.simultaneous_seats() {
                    let a = agents[s].act(&g, s, &mut rng);
                    g.legal_actions(s, &mut legal);
                    assert!(
                        legal.contains(&a),
                        "{} chose an illegal simultaneous action",
                        agents[s].spec()
                    );
                    joint.push(a);
                }
                g.apply_joint(&joint);
            }
        }
    }
}

fn short_game() -> Synchronous {
    Synchronous::new(&SynchronousParams {
        ply_cap: 30,
        ..Default::default()
    })
}

fn check_finished(g: &Synchronous) {
    let r = g.result().expect("the game ended");
    assert!(
        [
            "checkmate",
            "double-checkmate",
            "king-captured",
            "both-kings-lost",
            "stalemate",
            "cap",
            "repetition",
            "fifty-moves",
            "insufficient-material",
        ]
        .contains(&r.reason),
        "{}",
        r.reason
    );
    assert_eq!(r.returns[0], -r.returns[1]);
    let t = g.tallies();
    let get = |k: &str| t.iter().find(|(n, _)| n == k).unwrap().1;
    assert!(get("exchanges") <= get("exchanges_offered"));
    assert!(get("exchange_longest") <= get("exchange_captures"));
    assert!(get("king_collisions") <= get("mutual_destructions") * 2.0);
}

#[test]
fn every_agent_plays_synchronous_chess() {
    let specs = [
        "random",
        "greedy",
        "alphabeta:depth=2",
        "mcts:iters=60",
        "ismcts:iters=60",
        "expectimax:depth=2",
        "pimc:iters=30,worlds=2",
        "cheat:iters=60",
        "smmcts:iters=60,select=duct",
        "smmcts:iters=60,select=rm",
    ];
    for (i, spec) in specs.iter().enumerate() {
        for seed in 0..2u64 {
            let seed = seed + 10 * i as u64;
            let g = play(short_game(), spec, "random", seed);
            check_finished(&g);
            let g = play(short_game(), "random", spec, seed + 1);
            check_finished(&g);
        }
    }
}

#[test]
fn smmcts_plays_itself_in_both_selections() {
    for (seed, (w, b)) in [
        ("smmcts:iters=80,select=duct", "smmcts:iters=80,select=rm"),
        ("smmcts:iters=80,select=rm", "smmcts:iters=80,select=duct"),
    ]
    .into_iter()
    .enumerate()
    {
        let g = play(short_game(), w, b, seed as u64);
        check_finished(&g);
    }
}

#[test]
fn smmcts_takes_the_free_king_in_an_exchange() {
    // After e4e5|d8d7 and the knight's capture on d7 while the black king takes on e5,
    // white's pinned rook may take the king: a seat node with a won game one step away.
    let g = Synchronous::from_opening(
        &SynchronousParams::default(),
        "r2r4/8/5k2/R1N5/4P3/8/8/K7 w - - 0 1",
    )
    .unwrap();
    let g = engine::game::replay(g, &["e4e5|d8d7", "c5d7|f6e5"]).unwrap();
    assert_eq!(g.turn(), Turn::Seat(0));
    for spec in ["smmcts:iters=200,select=duct", "smmcts:iters=200,select=rm"] {
        let mut agent = build::<Synchronous>(spec).unwrap();
        let mut rng = Pcg64::seed_from_u64(5);
        let a = agent.act(&g, 0, &mut rng);
        assert_eq!(g.action_notation(a), "a5e5", "{spec}");
    }
}

#[test]
fn smmcts_beats_random_more_often_than_not() {
    // A reference agent worth the name: over a few seeded games against random it
    // scores above zero from both seats.
    // Eight games a seat: with four, one unlucky loss under a 30-ply cap (most games
    // end drawn at the cap) decided the sign after the issue 33 rule fixes changed the
    // seeded games.
    let mut score = 0.0;
    for seed in 0..8u64 {
        let g = play(short_game(), "smmcts:iters=150", "random", seed);
        score += g.returns()[0] + g.material(0).signum() * 0.01;
        let g = play(short_game(), "random", "smmcts:iters=150", seed + 100);
        score += g.returns()[1] + g.material(1).signum() * 0.01;
    }
    assert!(score > 0.0, "smmcts scored {score} against random");
}

#[test]
fn rule_alphabeta_matrix_keeps_its_king_off_a_collision_square() {
    // White's king on e1 is attacked by the rook on e8 and must step to d1, d2, f1 or f2.
    // f2 is where Black's pawn pushes: if both go there, both are captured and White
    // loses. Every other square keeps the king whatever Black does, so f2 is dominated
    // and no seed plays it. (Which of the others is best needs a look past this turn:
    // at depth 3 the agent's horizon ends with the turn and it centralises, e1d2.)
    let g = Synchronous::from_opening(
        &SynchronousParams::default(),
        "k3r3/8/8/8/8/5p2/8/4K3 w - - 0 1",
    )
    .unwrap();
    assert_eq!(g.turn(), Turn::Simultaneous);
    let mut legal = Vec::new();
    g.legal_actions(0, &mut legal);
    let squares: Vec<String> = legal.iter().map(|&a| g.action_notation(a)).collect();
    assert!(squares.contains(&"e1f2".to_string()), "{squares:?}");
    for seed in 0..10 {
        let mut agent = build::<Synchronous>("alphabeta:depth=3").unwrap();
        let a = g.action_notation(agent.act(&g, 0, &mut Pcg64::seed_from_u64(seed)));
        assert_ne!(a, "e1f2", "seed {seed}: the collision square");
    }
}

#[test]
fn rule_alphabeta_matrix_beats_smmcts_at_synchronous() {
    let mut score = 0.0;
    for seed in 0..4u64 {
        let g = play(short_game(), "alphabeta:depth=2", "smmcts:iters=150", seed);
        score += (g.returns()[0] + 1.0) / 2.0;
        let g = play(
            short_game(),
            "smmcts:iters=150",
            "alphabeta:depth=2",
            seed + 50,
        );
        score += (g.returns()[1] + 1.0) / 2.0;
    }
    assert!(score >= 6.0, "alphabeta scored {score} of 8 against smmcts");
}

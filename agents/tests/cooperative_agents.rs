//! The agents play whole games of Cooperative Chess (one team of two seats against the
//! deck, hidden hands), and both seats play for the team's shared return.

use agents::registry::build;
use agents::Agent;
use engine::game::{Game, Turn};
use engine::variants::cooperative::{Cooperative, CooperativeParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// Plays `white` and `black` (partners) to the end; returns the final state.
fn play(mut g: Cooperative, white: &str, black: &str, seed: u64) -> Cooperative {
    let mut agents: [Box<dyn Agent<Cooperative>>; 2] =
        [build(white).unwrap(), build(black).unwrap()];
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut outcomes = Vec::new();
    let mut legal = Vec::new();
    loop {
        match g.turn() {
            Turn::Terminal => return g,
            Turn::Chance => {
                g.chance_outcomes(&mut outcomes);
                let i = engine::random::sample_index(&outcomes, &mut rng);
                g.apply(outcomes[i].0);
            }
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
            Turn::Simultaneous => panic!("Cooperative Chess has no simultaneous nodes"),
        }
    }
}

fn check_finished(g: &Cooperative) {
    let r = g.result().expect("the game ended");
    assert!(
        ["king-captured", "out-of-cards"].contains(&r.reason),
        "{}",
        r.reason
    );
    assert_eq!(r.returns[0], r.returns[1], "partners share the return");
    let score = g.tallies()[0].1;
    assert_eq!(r.returns[0], 2.0 * score / 5.0 - 1.0);
}

#[test]
fn every_agent_finishes_games() {
    let g = Cooperative::new(&CooperativeParams::default());
    let pairs = [
        ("ismcts:iters=60", "ismcts:iters=60,mode=mo"),
        ("ismcts:iters=60,mode=mo", "pimc:iters=20,worlds=3"),
        ("cheat:iters=60", "greedy"),
        ("random", "cheat:iters=60"),
        ("greedy", "greedy"),
        ("random", "random"),
    ];
    for (i, (w, b)) in pairs.iter().enumerate() {
        check_finished(&play(g.clone(), w, b, i as u64));
    }
}

#[test]
fn every_agent_takes_the_perfect_score_for_either_seat() {
    // Every type but the kings is gone; the king card lets the mover's king take the
    // other king at once: score 5, the best return, for both seats.
    let params = CooperativeParams::default();
    for (fen, hands, stacks, capture) in [
        (
            "8/8/8/8/8/8/3k4/4K3 w - - 0 1",
            ["KPP", "ppp"],
            ["-", "k"],
            "e1d2",
        ),
        (
            "8/8/8/8/8/8/3k4/4K3 b - - 0 1",
            ["PPP", "kpp"],
            ["K", "-"],
            "d2e1",
        ),
    ] {
        let mut g = Cooperative::setup(&params, fen, hands, stacks, "").unwrap();
        let seat = usize::from(fen.contains(" b "));
        for a in ["pass", if seat == 0 { "card:K" } else { "card:k" }] {
            let act = g.parse_action(a).unwrap();
            g.apply(act);
        }
        for spec in [
            "greedy",
            "ismcts:iters=200",
            "ismcts:iters=200,mode=mo",
            "pimc:iters=50,worlds=4",
            "cheat:iters=200",
        ] {
            let mut agent = build::<Cooperative>(spec).unwrap();
            let mut rng = Pcg64::seed_from_u64(5);
            let a = agent.act(&g, seat, &mut rng);
            assert_eq!(g.action_notation(a), capture, "{spec} for seat {seat}");
        }
    }
}

#[test]
fn alphabeta_is_refused_with_a_reason() {
    // Two seats on one team are not two sides for a zero-sum search.
    let e = build::<Cooperative>("alphabeta:depth=2")
        .err()
        .expect("refused");
    assert!(e.to_string().contains("teams"), "{e}");
}

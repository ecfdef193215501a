//! The agents play whole games of Masquerade Chess (hidden capture patterns) without
//! panics, in every assignment mode.

use agents::registry::build;
use agents::Agent;
use engine::game::{Game, Turn};
use engine::variants::masquerade::{Masquerade, MasqueradeParams};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Plays `white` against `black` to the end; returns the final state.
fn play(mut g: Masquerade, white: &str, black: &str, seed: u64) -> Masquerade {
    let mut agents: [Box<dyn Agent<Masquerade>>; 2] =
        [build(white).unwrap(), build(black).unwrap()];
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut outcomes = Vec::new();
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 5_000, "no end in sight");
        match g.turn() {
            Turn::Terminal => return g,
            Turn::Chance => {
                g.chance_outcomes(&mut outcomes);
                let mut x: f64 = rng.gen();
                let mut pick = outcomes[outcomes.len() - 1].0;
                for &(a, p) in &outcomes {
                    if x < p {
                        pick = a;
                        break;
                    }
                    x -= p;
                }
                g.apply(pick);
            }
            Turn::Seat(s) => {
                let a = agents[s].act(&g, s, &mut rng);
                let mut legal = Vec::new();
                g.legal_actions(s, &mut legal);
                assert!(
                    legal.contains(&a),
                    "{} chose an illegal action",
                    agents[s].spec()
                );
                g.apply(a);
            }
            Turn::Simultaneous => panic!("Masquerade has no simultaneous nodes"),
        }
    }
}

fn check_finished(g: &Masquerade) {
    let r = g.result().expect("the game ended");
    assert!(
        [
            "royal-capture",
            "cap",
            "repetition",
            "fifty-moves",
            "insufficient-material"
        ]
        .contains(&r.reason),
        "{}",
        r.reason
    );
    assert!(g.in_play(), "assignments come before the end");
    let t = g.tallies();
    let get = |k: &str| t.iter().find(|(n, _)| n == k).unwrap().1;
    assert!((0.0..120.0).contains(&get("white_assigned")));
    assert!((0.0..120.0).contains(&get("black_assigned")));
    assert!(get("white_failed_attempts") <= get("white_attempts"));
}

fn params(assignment: &str, ply_cap: u32) -> MasqueradeParams {
    MasqueradeParams {
        assignment: assignment.into(),
        ply_cap,
        ..Default::default()
    }
}

#[test]
fn ismcts_and_cheat_finish_games() {
    let g = Masquerade::new(&params("choose", 60));
    check_finished(&play(g.clone(), "ismcts:iters=200", "cheat:iters=200", 1));
    check_finished(&play(g, "cheat:iters=200", "ismcts:iters=200,mode=mo", 2));
    let g = Masquerade::new(&params("random", 60));
    check_finished(&play(g, "ismcts:iters=200,mode=mo", "ismcts:iters=200", 3));
}

#[test]
fn baselines_finish_games_in_every_mode() {
    for (i, mode) in ["choose", "random"].iter().enumerate() {
        for seed in 0..6 {
            let g = Masquerade::new(&params(mode, 400));
            check_finished(&play(g.clone(), "random", "greedy", seed + 10 * i as u64));
            check_finished(&play(g, "greedy", "random", seed + 100));
        }
    }
    let fixed = Masquerade::new(&MasqueradeParams {
        white_assigns: Some("KQ,QN,RB,NR,BK".into()),
        black_assigns: Some("KQ,QN,RB,NR,BK".into()),
        ..Default::default()
    });
    for seed in 0..4 {
        check_finished(&play(fixed.clone(), "greedy", "greedy", seed));
    }
}

#[test]
fn ismcts_takes_a_free_king() {
    // The one attempt, d1xd8?, wins at once in the 48 of 120 worlds where White's queen
    // captures along files; a failed try costs only the turn.
    let g = Masquerade::from_opening(
        &MasqueradeParams {
            white_assigns: Some("KK,QQ,RR,BB,NN".into()),
            black_assigns: Some("KK,QQ,RR,BB,NN".into()),
            ..Default::default()
        },
        "3k4/8/8/8/8/8/8/3QK3 w - - 0 1",
    )
    .unwrap();
    // At 400 iterations (this test's old budget, one seed) the attempt tied in visits
    // with d1h5 and won the tie by generation order; over ten seeds 400 iterations chose
    // it once, 2000 nine times. Those 2000 leaned on a misreading: the heavy playouts took
    // every failed attempt for a capture (the board's previous move read as the
    // attempt's), so Black's playouts threw turns away; read right, 2000 chose it five
    // times in ten and 5000 eight in eight (`chesslab play`, seeds 1-8).
    let mut found = Vec::new();
    for seed in 0..10 {
        let mut agent = build::<Masquerade>("ismcts:iters=5000").unwrap();
        let a = agent.act(&g, 0, &mut Pcg64::seed_from_u64(seed));
        found.push(g.action_notation(a));
    }
    let attempts = found.iter().filter(|t| t.ends_with('?')).count();
    assert!(attempts >= 8, "expected a capture attempt, got {found:?}");
}

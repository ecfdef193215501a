//! The agents play whole games of Tar Pit Chess (hidden hands, a deck as chance) with no
//! variant-specific code: ISMCTS (single and multiple observer), PIMC, cheat, greedy and
//! random.

use agents::registry::build;
use agents::Agent;
use engine::game::{Game, Turn};
use engine::variants::tar_pit::{TarPit, TarPitParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// Plays `white` against `black` to the end; returns the final state.
fn play(mut g: TarPit, white: &str, black: &str, seed: u64) -> TarPit {
    let mut agents: [Box<dyn Agent<TarPit>>; 2] = [build(white).unwrap(), build(black).unwrap()];
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut outcomes = Vec::new();
    let mut legal = Vec::new();
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 20_000, "no end in sight");
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
            Turn::Simultaneous => panic!("Tar Pit has no simultaneous nodes"),
        }
    }
}

fn check_finished(g: &TarPit) {
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
    let t = g.tallies();
    let get = |k: &str| t.iter().find(|(n, _)| n == k).unwrap().1;
    assert!(get("white_thrown") >= 0.0 && get("black_cleansings") >= 0.0);
}

fn short(ply_cap: u32) -> TarPit {
    TarPit::new(&TarPitParams {
        ply_cap,
        ..Default::default()
    })
}

#[test]
fn searches_finish_games() {
    check_finished(&play(
        short(16),
        "ismcts:iters=60",
        "ismcts:iters=60,mode=mo",
        1,
    ));
    check_finished(&play(
        short(16),
        "pimc:iters=20,worlds=3",
        "cheat:iters=60",
        2,
    ));
    check_finished(&play(short(16), "cheat:iters=60", "ismcts:iters=60", 3));
}

#[test]
fn baselines_finish_games() {
    for seed in 0..4 {
        check_finished(&play(short(400), "random", "greedy", seed));
        check_finished(&play(short(400), "greedy", "random", seed + 10));
    }
}

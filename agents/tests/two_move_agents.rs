//! Every agent plays whole games of Two Move Chess (a simultaneous card choice, then
//! ordinary sequential moves): `smmcts` with both selections, and `alphabeta`, which
//! solves the card choice as a matrix game over its searched joint actions
//! (`agents::alphabeta::matrix`: the `rule_alphabeta_matrix_*` tests below); the other
//! sequential searches degrade at the simultaneous node as each documents (expectimax
//! by UCT, ismcts plays out, greedy and random pick at random) and still play legal
//! actions throughout.

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

/// The Rules Quiz position where bishop + rook cards (and a rook promotion) win against
/// every black choice (engine's `rule_quiz_white_wins_with_bishop_and_rook_cards_and_a_rook_promotion`).
const QUIZ_2: &str = "1k6/p1p4P/8/4b3/3q4/8/P7/7K w - - 0 1 -/RK";

#[test]
fn rule_alphabeta_matrix_plays_the_quiz_forced_win() {
    // The winning pair is a pure equilibrium strategy: every seed plays it, and the
    // search of the rest of the turn finds the promotion and the capture.
    let g = TwoMove::from_opening(&TwoMoveParams::default(), QUIZ_2).unwrap();
    assert_eq!(g.turn(), Turn::Simultaneous);
    for seed in 0..6 {
        let mut agent = build::<TwoMove>("alphabeta:depth=5").unwrap();
        let a = agent.act(&g, 0, &mut Pcg64::seed_from_u64(seed));
        assert_eq!(g.action_notation(a), "BR", "seed {seed}");
        let score = agent.score().expect("the matrix reports its value");
        assert!(
            matches!(score, agents::Score::Cp(c) if c > 2000),
            "a forced win is worth the game: {score:?}"
        );
    }
    // Whole turn: the agent wins it against each of Black's three choices.
    let mut white = build::<TwoMove>("alphabeta:depth=5").unwrap();
    let mut black = build::<TwoMove>("random").unwrap();
    for b in ["NB", "NQ", "BQ"] {
        let mut h = g.clone();
        let mut rng = Pcg64::seed_from_u64(3);
        let w = white.act(&h, 0, &mut rng);
        let joint = [w, h.parse_choice(1, b).unwrap()];
        h.try_apply_joint(&joint).unwrap();
        while let Turn::Seat(s) = h.turn() {
            let a = if s == 0 {
                white.act(&h, 0, &mut rng)
            } else {
                black.act(&h, 1, &mut rng)
            };
            h.apply(a);
        }
        assert!(h.result().is_some(), "against {b}: the turn ends the game");
        assert_eq!(h.returns()[0], 1.0, "against {b}");
    }
}

#[test]
fn rule_alphabeta_matrix_mixes_its_card_choice() {
    // With no card face up the start is a guessing game (matching cards cancel): the
    // agent draws its pair from a mixed strategy with the decision's rng, so seeds
    // differ, and one seed repeats. (With White's king and rook face up, the seed's
    // start, Black's knight + bishop cancels a white card whatever White plays, and the
    // agent plays it every time.)
    let g = TwoMove::from_opening(
        &TwoMoveParams::default(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -/-",
    )
    .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..30 {
        let mut agent = build::<TwoMove>("alphabeta:depth=5").unwrap();
        let a = agent.act(&g, 1, &mut Pcg64::seed_from_u64(seed));
        seen.insert(g.action_notation(a));
        let mut again = build::<TwoMove>("alphabeta:depth=5").unwrap();
        let b = again.act(&g, 1, &mut Pcg64::seed_from_u64(seed));
        assert_eq!(a, b, "one seed, one choice");
    }
    assert!(seen.len() >= 2, "a pure choice at the start: {seen:?}");
}

#[test]
fn rule_alphabeta_matrix_beats_smmcts_at_two_move() {
    // The matrix game over searched joint actions against the reference simultaneous
    // search at a small budget: it should win most games from both seats.
    let mut score = 0.0;
    for seed in 0..6 {
        let (white, black, seat) = if seed % 2 == 0 {
            ("alphabeta:depth=2", "smmcts:iters=200", 0)
        } else {
            ("smmcts:iters=200", "alphabeta:depth=2", 1)
        };
        let g = play(&TwoMoveParams::default(), white, black, seed);
        score += (g.returns()[seat] + 1.0) / 2.0;
    }
    assert!(score >= 4.5, "alphabeta scored {score} of 6 against smmcts");
}

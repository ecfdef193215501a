//! The chance-node searchers on Expedition Chess: *-minimax with Star1 and Star2
//! pruning returns the full-width expectimax value over the same tree, and the
//! spec-built agents play whole games.

use agents::common::{squash, Budget};
use agents::eval::evaluate;
use agents::expectimax::{Expectimax, Pruning};
use agents::registry::build;
use agents::Agent;
use engine::game::{replay, Game, Turn};
use engine::variants::expedition::{Expedition, ExpeditionParams};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Positions where expeditions matter: open lines, kings within a slider's reach.
const POSITIONS: &[&str] = &[
    // Italian-style middlegame: bishops and queens with long diagonals.
    "r3k2r/pp1q1ppp/2n1bn2/2bpp3/4P3/2NP1N2/PPPBBPPP/R2QK2R w KQkq - 0 1",
    // Both queens on open files, castling on both wings.
    "r3k2r/ppp2ppp/8/3q4/8/8/PPPQ1PPP/R3K2R b KQkq - 0 1",
    // Back rank: a seven-square rook expedition can take the king.
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
];

fn pos(fen: &str) -> Expedition {
    Expedition::from_opening(&ExpeditionParams::default(), fen).unwrap()
}

/// Independent full-width expectimax with the searcher's leaf (seat 0's value, the
/// evaluation squashed by tanh(pawns / 4)); `depth` counts seat decisions.
fn full_width(g: &mut Expedition, depth: i32) -> f64 {
    match g.turn() {
        Turn::Terminal => g.returns()[0],
        _ if depth <= 0 => squash(evaluate(g, 0), 4.0),
        Turn::Chance => {
            let mut out = Vec::new();
            g.chance_outcomes(&mut out);
            out.into_iter()
                .map(|(a, p)| {
                    g.apply(a);
                    let v = full_width(g, depth);
                    g.undo();
                    p * v
                })
                .sum()
        }
        Turn::Seat(s) => {
            let mut moves = Vec::new();
            g.legal_actions(s, &mut moves);
            let vals = moves.into_iter().map(|a| {
                g.apply(a);
                let v = full_width(g, depth - 1);
                g.undo();
                v
            });
            if s == 0 {
                vals.fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.fold(f64::INFINITY, f64::min)
            }
        }
        Turn::Simultaneous => unreachable!("Expedition has no simultaneous nodes"),
    }
}

/// Every pruning (table on and off) against `Pruning::None`; returns the value.
fn check_prunings_agree(g: &Expedition, depth: u32, label: &str) -> f64 {
    let (exact, full_nodes) =
        Expectimax::<Expedition>::new(Pruning::None, Budget::iterations(1)).value(g, depth);
    eprintln!("{label} depth {depth}: value {exact:.6}, full width {full_nodes} nodes");
    for (pruning, tt, ordering) in [
        (Pruning::AlphaBeta, true, false),
        (Pruning::Star1, false, false),
        (Pruning::Star1, true, false),
        (Pruning::Star2, false, false),
        (Pruning::Star2, true, false),
        // Captures first (`order=true`) changes the order, never the value.
        (Pruning::AlphaBeta, true, true),
        (Pruning::Star1, true, true),
        (Pruning::Star2, false, true),
        (Pruning::Star2, true, true),
    ] {
        let mut x = Expectimax::<Expedition>::new(pruning, Budget::iterations(1));
        x.use_tt = tt;
        x.ordering = ordering;
        let (v, nodes) = x.value(g, depth);
        assert!(
            (v - exact).abs() < 1e-9,
            "{label} depth {depth} {pruning:?} tt={tt} ordering={ordering}: {v} vs full width {exact}"
        );
        assert!(
            nodes <= full_nodes,
            "{label} {pruning:?} tt={tt}: {nodes} nodes, full width {full_nodes}"
        );
    }
    exact
}

#[test]
fn star1_and_star2_match_full_width_expectimax_on_expedition() {
    for fen in POSITIONS {
        let g = pos(fen);
        let v = check_prunings_agree(&g, 2, fen);
        let reference = full_width(&mut g.clone(), 2);
        assert!(
            (v - reference).abs() < 1e-9,
            "{fen}: searcher {v} vs independent {reference}"
        );
        let v3 = check_prunings_agree(&g, 3, fen);
        assert!((v3 - full_width(&mut g.clone(), 3)).abs() < 1e-9);
    }
}

#[test]
fn star1_and_star2_match_full_width_inside_an_expedition() {
    // Roots at a chance node (an attempt waits for the dice) and at the distance
    // choice after a short roll.
    let g = pos(POSITIONS[1]);
    let attempt = g.parse_action("d5d2").unwrap();
    let mut at_roll = g.clone();
    at_roll.apply(attempt);
    assert_eq!(at_roll.turn(), Turn::Chance);
    check_prunings_agree(&at_roll, 2, "at the roll");
    let mut at_choice = at_roll.clone();
    at_choice.apply(at_choice.parse_action("roll:2").unwrap());
    assert_eq!(at_choice.turn(), Turn::Seat(1));
    check_prunings_agree(&at_choice, 2, "at the choice");
    // Along a few random positions of a game.
    let mut rng = Pcg64::seed_from_u64(12);
    let mut h = pos(POSITIONS[0]);
    let (mut acts, mut outs) = (Vec::new(), Vec::new());
    for step in 0..24 {
        match h.turn() {
            Turn::Seat(s) => {
                h.legal_actions(s, &mut acts);
                h.apply(acts[rng.gen_range(0..acts.len())]);
            }
            Turn::Chance => {
                h.chance_outcomes(&mut outs);
                h.apply(outs[rng.gen_range(0..outs.len())].0);
            }
            _ => break,
        }
        if step % 6 == 5 {
            check_prunings_agree(&h, 2, &format!("random step {step}"));
        }
    }
}

/// Plays one game between two spec-built agents, dice drawn from `rng`; returns the
/// final state and its record.
fn play(specs: [&str; 2], params: &ExpeditionParams, seed: u64) -> (Expedition, Vec<String>) {
    let mut agents: Vec<Box<dyn Agent<Expedition>>> =
        specs.iter().map(|s| build(s).unwrap()).collect();
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut g = Expedition::new(params);
    let mut record = Vec::new();
    let mut outs = Vec::new();
    loop {
        let a = match g.turn() {
            Turn::Terminal => break,
            Turn::Seat(s) => agents[s].act(&g, s, &mut rng),
            Turn::Chance => {
                g.chance_outcomes(&mut outs);
                let mut x: f64 = rng.gen();
                let mut pick = outs[outs.len() - 1].0;
                for &(a, p) in &outs {
                    if x < p {
                        pick = a;
                        break;
                    }
                    x -= p;
                }
                pick
            }
            Turn::Simultaneous => unreachable!(),
        };
        record.push(g.action_notation(a));
        g.apply(a);
    }
    (g, record)
}

#[test]
fn expectimax_and_mcts_play_expedition_to_the_end() {
    let params = ExpeditionParams {
        ply_cap: 160,
        ..Default::default()
    };
    for (seed, specs) in [
        (1, ["expectimax:depth=2", "mcts:iters=200"]),
        (2, ["mcts:iters=200", "expectimax:depth=2"]),
    ] {
        let (g, record) = play(specs, &params, seed);
        let r = g.result().expect("the game ended");
        assert!(
            ["king-captured", "checkmate", "stalemate", "cap"]
                .iter()
                .chain(&["repetition", "fifty-moves", "insufficient-material"])
                .any(|&x| x == r.reason),
            "{}",
            r.reason
        );
        let refs: Vec<&str> = record.iter().map(String::as_str).collect();
        let again = replay(Expedition::new(&params), &refs).unwrap();
        assert_eq!(again.state_key(), g.state_key());
        let attempts: f64 = g
            .tallies()
            .iter()
            .filter(|(n, _)| n.starts_with("attempts_n"))
            .map(|t| t.1)
            .sum();
        eprintln!(
            "{specs:?}: {} after {} actions, {attempts} attempts: {}",
            r.reason,
            record.len(),
            g.seed_movetext()
        );
    }
}

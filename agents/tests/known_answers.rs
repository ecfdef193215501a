//! The agents on tiny games whose answers are known by enumeration.

use agents::alphabeta::{AlphaBetaAgent, AlphaBetaConfig};
use agents::common::Budget;
use agents::expectimax::{Expectimax, Pruning};
use agents::ismcts::{IsMcts, IsMode};
use agents::mcts::{MctsAgent, MctsConfig, MctsKind, SimSelect, Uct};
use agents::pimc::PimcAgent;
use agents::registry::build;
use agents::testgames::{
    BiasedRps, DiceRace, Fusion, FusionAction, Nim, RPS_EQUILIBRIUM, RPS_PAYOFF,
};
use agents::Agent;
use engine::game::{conformance, Game, Turn};
use rand::SeedableRng;
use rand_pcg::Pcg64;

#[test]
fn test_games_conform() {
    conformance::check(&Nim::new(&()), 50, 1);
    conformance::check(&Fusion::new(&()), 50, 2);
    conformance::check(&BiasedRps::new(&()), 20, 3);
    conformance::check(&DiceRace::new(&()), 50, 4);
}

/// Exhaustive negamax: the value of `g` for the seat to move.
fn solve_nim(g: &mut Nim) -> f64 {
    let Turn::Seat(s) = g.turn() else {
        // Terminal: the seat to move lost (the other took the last stone).
        return -1.0;
    };
    let mut moves = Vec::new();
    g.legal_actions(s, &mut moves);
    let mut best = f64::NEG_INFINITY;
    for m in moves {
        g.apply(m);
        best = best.max(-solve_nim(g));
        g.undo();
    }
    best
}

fn winning_nim_moves(g: &Nim) -> Vec<(u8, u8)> {
    let mut g = g.clone();
    let mut moves = Vec::new();
    g.legal_actions(0, &mut moves);
    moves
        .into_iter()
        .filter(|&m| {
            g.apply(m);
            let v = -solve_nim(&mut g);
            g.undo();
            v > 0.0
        })
        .collect()
}

#[test]
fn alphabeta_and_mcts_find_the_winning_nim_move() {
    let g = Nim::new(&());
    let winning = winning_nim_moves(&g);
    assert_eq!(
        winning,
        vec![(0, 2)],
        "the exhaustive solver disagrees with nim-sum"
    );
    let mut rng = Pcg64::seed_from_u64(5);
    let mut ab = AlphaBetaAgent::<Nim>::new(AlphaBetaConfig {
        depth: 12,
        ..Default::default()
    });
    assert_eq!(ab.act(&g, 0, &mut rng), (0, 2));
    for seed in 0..3 {
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut mcts = build::<Nim>("mcts:iters=100000").unwrap();
        assert_eq!(mcts.act(&g, 0, &mut rng), (0, 2), "seed {seed}");
    }
    // Every position of a smaller game: both agents move to a won position when there is one.
    for piles in [[1, 2, 2], [2, 2, 3], [0, 3, 5], [1, 4, 4]] {
        let g = Nim::with_piles(piles);
        let winning = winning_nim_moves(&g);
        let mut rng = Pcg64::seed_from_u64(9);
        let a = ab.act(&g, 0, &mut rng);
        let m = MctsAgent::new(
            MctsKind::Plain,
            MctsConfig {
                budget: Budget::iterations(20000),
                ..Default::default()
            },
        )
        .act(&g, 0, &mut rng);
        if !winning.is_empty() {
            assert!(winning.contains(&a), "alphabeta {piles:?}: {a:?}");
            assert!(winning.contains(&m), "mcts {piles:?}: {m:?}");
        }
    }
}

#[test]
fn ismcts_avoids_strategy_fusion_and_pimc_does_not() {
    let mut g = Fusion::new(&());
    g.apply(FusionAction::Heads);
    for mode in [IsMode::So, IsMode::Mo] {
        for seed in 0..5 {
            let mut rng = Pcg64::seed_from_u64(seed);
            let mut is = IsMcts::<Fusion>::new(
                mode,
                MctsConfig {
                    budget: Budget::iterations(3000),
                    ..Default::default()
                },
            );
            let a = is.decide(&g, 0, &mut rng);
            assert_eq!(
                a,
                FusionAction::Safe,
                "{mode:?} seed {seed}: {:?}",
                is.root_stats()
            );
            // The root values match enumeration: safe +0.4, gamble about 0.
            let stats = is.root_stats();
            let gamble = stats.iter().find(|s| s.0 == FusionAction::Gamble).unwrap();
            assert!(gamble.2 < 0.25, "{mode:?}: gamble valued {}", gamble.2);
        }
    }
    for seed in 0..5 {
        let mut rng = Pcg64::seed_from_u64(seed);
        // 300 iterations a world: the budget is the whole decision's (issue 64).
        let mut pimc = PimcAgent::new(
            10,
            MctsConfig {
                budget: Budget::iterations(3000),
                ..Default::default()
            },
        );
        assert_eq!(
            pimc.act(&g, 0, &mut rng),
            FusionAction::Gamble,
            "seed {seed}"
        );
    }
    // Through the registry as well, and the true coin never matters to ismcts.
    let mut tails = Fusion::new(&());
    tails.apply(FusionAction::Tails);
    let mut rng = Pcg64::seed_from_u64(1);
    for spec in [
        "ismcts:iters=2000",
        "ismcts:iters=2000,mode=mo",
        "mcts:iters=2000",
    ] {
        let mut agent = build::<Fusion>(spec).unwrap();
        assert_eq!(agent.act(&tails, 0, &mut rng), FusionAction::Safe, "{spec}");
    }
    // `cheat` reads the coin and gambles (then calls it right).
    let mut cheat = build::<Fusion>("cheat:iters=2000").unwrap();
    assert_eq!(cheat.act(&tails, 0, &mut rng), FusionAction::Gamble);
}

#[test]
fn regret_matching_smmcts_approaches_the_equilibrium() {
    let g = BiasedRps::new(&());
    let mut rng = Pcg64::seed_from_u64(11);
    let mut uct = Uct::<BiasedRps>::new(MctsConfig {
        budget: Budget::iterations(200_000),
        sim_select: SimSelect::Rm,
        gamma: 0.1,
        ..Default::default()
    });
    uct.search(&g, &mut rng);
    for b in 0..2 {
        let policy = uct.root_policy(b);
        let probs: Vec<f64> = policy.iter().map(|p| p.1).collect();
        for (i, p) in probs.iter().enumerate() {
            assert!(
                (p - RPS_EQUILIBRIUM[i]).abs() < 0.03,
                "seat {b}: mean strategy {probs:?} vs {RPS_EQUILIBRIUM:?}"
            );
        }
        // Exploitability: the best response gains little against the mean strategy.
        let best_response = (0..3)
            .map(|x| {
                (0..3)
                    .map(|y| {
                        let v = if b == 0 {
                            -RPS_PAYOFF[y][x]
                        } else {
                            RPS_PAYOFF[x][y]
                        };
                        probs[y] * v
                    })
                    .sum::<f64>()
            })
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            best_response < 0.02,
            "seat {b}: exploitable by {best_response}"
        );
    }
    // The agent samples from that mean strategy.
    let mut agent = build::<BiasedRps>("smmcts:select=rm,iters=20000").unwrap();
    let mut counts = [0usize; 3];
    for _ in 0..40 {
        counts[agent.act(&g, 1, &mut rng) as usize] += 1;
    }
    assert!(counts[1] > counts[0] && counts[1] > counts[2], "{counts:?}");
}

/// Independent full-width expectimax of the dice race (seat 0's value).
fn solve_dice(g: &mut DiceRace) -> f64 {
    match g.turn() {
        Turn::Terminal => g.returns()[0],
        Turn::Chance => {
            let mut out = Vec::new();
            g.chance_outcomes(&mut out);
            out.into_iter()
                .map(|(a, p)| {
                    g.apply(a);
                    let v = solve_dice(g);
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
                let v = solve_dice(g);
                g.undo();
                v
            });
            if s == 0 {
                vals.fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.fold(f64::INFINITY, f64::min)
            }
        }
        Turn::Simultaneous => unreachable!(),
    }
}

#[test]
fn star1_and_star2_return_the_expectimax_value_with_fewer_nodes() {
    let mut g = DiceRace::new(&());
    let exact = solve_dice(&mut g);
    let mut counts = Vec::new();
    for (pruning, tt) in [
        (Pruning::None, false),
        (Pruning::AlphaBeta, false),
        (Pruning::Star1, false),
        (Pruning::Star2, false),
        (Pruning::AlphaBeta, true),
        (Pruning::Star1, true),
        (Pruning::Star2, true),
    ] {
        let mut x = Expectimax::<DiceRace>::new(pruning, Budget::iterations(1));
        x.use_tt = tt;
        let (v, nodes) = x.value(&g, 64);
        assert!(
            (v - exact).abs() < 1e-9,
            "{pruning:?}: {v} vs exact {exact}"
        );
        counts.push((pruning, tt, nodes));
    }
    eprintln!("dice race value {exact:.6}; nodes {counts:?}");
    let full = counts[0].2;
    // Star1 prunes beyond alpha-beta on its own. Star2's probes are searched again in
    // the Star1 pass unless the transposition table keeps what they found, so Star2 is
    // compared with its table on (on this game it does not beat Star1: see the report).
    assert!(
        counts[2].2 < counts[1].2 && counts[1].2 < full,
        "{counts:?}"
    );
    assert!(
        counts[5].2 <= counts[4].2 && counts[5].2 < full,
        "{counts:?}"
    );
    assert!(counts[6].2 < full, "{counts:?}");
    // Along a few positions of the game, too.
    let mut rng = Pcg64::seed_from_u64(3);
    for _ in 0..20 {
        let mut h = DiceRace::new(&());
        let mut moves = Vec::new();
        let mut out = Vec::new();
        use rand::Rng;
        let plies = rng.gen_range(0..6);
        for _ in 0..plies {
            match h.turn() {
                Turn::Seat(s) => {
                    h.legal_actions(s, &mut moves);
                    h.apply(moves[rng.gen_range(0..moves.len())]);
                }
                Turn::Chance => {
                    h.chance_outcomes(&mut out);
                    h.apply(out[rng.gen_range(0..out.len())].0);
                }
                _ => break,
            }
        }
        let exact = solve_dice(&mut h.clone());
        for pruning in [Pruning::Star1, Pruning::Star2] {
            let (v, _) = Expectimax::<DiceRace>::new(pruning, Budget::iterations(1)).value(&h, 64);
            assert!((v - exact).abs() < 1e-9, "{pruning:?}: {v} vs {exact}");
        }
    }
    // The agent plays the move of best expectimax value at the root.
    let mut agent = build::<DiceRace>("expectimax:depth=20").unwrap();
    let mut rng = Pcg64::seed_from_u64(1);
    let a = agent.act(&g, 0, &mut rng);
    let mut h = g.clone();
    h.apply(a);
    assert!((solve_dice(&mut h) - exact).abs() < 1e-9);
}

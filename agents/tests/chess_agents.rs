//! The search agents on chess: strength against random and known mates.

use agents::alphabeta::{AlphaBetaAgent, AlphaBetaConfig, MATE};
use agents::registry::build;
use agents::Agent;
use engine::game::{Game, Turn};
use engine::variants::chess::{Chess, ChessAction, ChessParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Instant;

/// Plays one game; returns seat 0's return.
fn play(mut g: Chess, agents: &mut [Box<dyn Agent<Chess>>; 2], rng: &mut Pcg64) -> f64 {
    for a in agents.iter_mut() {
        a.reset();
    }
    loop {
        match g.turn() {
            Turn::Terminal => return g.returns()[0],
            Turn::Seat(s) => {
                let a = agents[s].act(&g, s, rng);
                g.apply(a);
            }
            t => panic!("unexpected {t:?} in chess"),
        }
    }
}

/// Score (wins + draws / 2) of `spec` against random over `games` games with a ply cap,
/// colours alternating, on two threads.
fn score_vs_random(spec: &str, games: usize, ply_cap: u32, seed: u64) -> f64 {
    let params = ChessParams {
        ply_cap,
        ..Default::default()
    };
    let threads = 2;
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let params = params.clone();
                scope.spawn(move || {
                    let mut sum = 0.0;
                    for i in (t..games).step_by(threads) {
                        let mut rng = Pcg64::seed_from_u64(seed * 1000 + i as u64);
                        let ours = i % 2;
                        let mut agents: [Box<dyn Agent<Chess>>; 2] = if ours == 0 {
                            [build(spec).unwrap(), build("random").unwrap()]
                        } else {
                            [build("random").unwrap(), build(spec).unwrap()]
                        };
                        let r = play(Chess::new(&params), &mut agents, &mut rng);
                        let mine = if ours == 0 { r } else { -r };
                        sum += (mine + 1.0) / 2.0;
                    }
                    sum
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    total / games as f64
}

#[test]
fn alphabeta_depth_3_beats_random() {
    let t = Instant::now();
    let games = 200;
    let score = score_vs_random("alphabeta:depth=3", games, 200, 1);
    eprintln!(
        "alphabeta:depth=3 vs random: {:.1}% over {games} games in {:.1}s",
        score * 100.0,
        t.elapsed().as_secs_f64()
    );
    assert!(score >= 0.95, "score {score}");
}

#[test]
fn mcts_1000_iterations_beats_random() {
    let t = Instant::now();
    let spec = "mcts:iters=1000,cutoff=16,rollout=heavy";
    let score = score_vs_random(spec, 20, 200, 2);
    eprintln!(
        "{spec} vs random: {:.1}% over 20 games in {:.1}s",
        score * 100.0,
        t.elapsed().as_secs_f64()
    );
    assert!(score >= 0.75, "score {score}");
}

/// True when the side to move mates in one.
fn mate_in_one(g: &mut Chess) -> bool {
    let Turn::Seat(s) = g.turn() else {
        return false;
    };
    let mut moves = Vec::new();
    g.legal_actions(s, &mut moves);
    moves.into_iter().any(|m| {
        g.apply(m);
        let mate = g.turn() == Turn::Terminal && g.returns()[s] > 0.0;
        g.undo();
        mate
    })
}

/// True when `first` forces mate on the next move (every reply allows mate in one).
fn mates_in_two_with(g: &mut Chess, first: ChessAction) -> bool {
    g.apply(first);
    let ok = match g.turn() {
        Turn::Seat(o) => {
            let mut replies = Vec::new();
            g.legal_actions(o, &mut replies);
            replies.into_iter().all(|r| {
                g.apply(r);
                let m = mate_in_one(g);
                g.undo();
                m
            })
        }
        _ => false,
    };
    g.undo();
    ok
}

#[test]
fn alphabeta_solves_mate_in_two() {
    let positions = [
        // Morphy, the Opera game: 16. Qb8+ Nxb8 17. Rd8#.
        "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 16",
        // Qd8+ Bxd8 Re8#.
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        // Nf6+ gxf6 Bxf7#.
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
    ];
    for fen in positions {
        let g = Chess::from_opening(&ChessParams::default(), fen).unwrap();
        let mut agent = AlphaBetaAgent::<Chess>::new(AlphaBetaConfig {
            depth: 4,
            ..Default::default()
        });
        let mut rng = Pcg64::seed_from_u64(1);
        let a = agent.act(&g, 0, &mut rng);
        let info = agent.info();
        let mut h = g.clone();
        assert!(
            mates_in_two_with(&mut h, a),
            "{fen}: {} does not mate in two (score {})",
            g.action_notation(a),
            info.score
        );
        assert_eq!(info.score, MATE - 3, "{fen}: mate in two scores MATE - 3");
        assert!(!mate_in_one(&mut h), "{fen} is a mate in one");
    }
}

#[test]
fn alphabeta_prefers_the_shorter_mate() {
    // Mate in one (Ra8#) and slower wins are both available: take the mate now.
    let g = Chess::from_opening(
        &ChessParams::default(),
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    )
    .unwrap();
    let mut agent = AlphaBetaAgent::<Chess>::new(AlphaBetaConfig {
        depth: 5,
        ..Default::default()
    });
    let mut rng = Pcg64::seed_from_u64(1);
    let a = agent.act(&g, 0, &mut rng);
    assert_eq!(g.action_notation(a), "a1a8");
    assert_eq!(agent.info().score, MATE - 1);
}

#[test]
fn every_agent_plays_legal_chess_moves() {
    // `chesslab play --variant chess --agents ismcts:iters=200,random` and friends.
    let g = Chess::new(&ChessParams::default());
    for spec in [
        "ismcts:iters=200",
        "ismcts:iters=100,mode=mo",
        "mcts:iters=100",
        "cheat:iters=100",
        "smmcts:iters=100,select=rm",
        "pimc:iters=50,worlds=2",
        "expectimax:depth=2",
        "alphabeta:depth=2",
        "alphabeta:time_ms=20,depth=20",
        "alphabeta:nodes=2000,depth=20",
        "mcts:time_ms=20",
    ] {
        let mut agent = build::<Chess>(spec).unwrap();
        let mut rng = Pcg64::seed_from_u64(7);
        let mut h = g.clone();
        for _ in 0..4 {
            let Turn::Seat(s) = h.turn() else { break };
            let a = agent.act(&h, s, &mut rng);
            let mut legal = Vec::new();
            h.legal_actions(s, &mut legal);
            assert!(legal.contains(&a), "{spec}: illegal {a:?}");
            h.apply(a);
        }
    }
}

#[test]
fn time_budgets_are_kept() {
    let g = Chess::new(&ChessParams::default());
    for spec in [
        "alphabeta:time_ms=50,depth=30",
        "mcts:time_ms=50",
        "ismcts:time_ms=50",
    ] {
        let mut agent = build::<Chess>(spec).unwrap();
        let mut rng = Pcg64::seed_from_u64(7);
        let t = Instant::now();
        agent.act(&g, 0, &mut rng);
        let ms = t.elapsed().as_millis();
        assert!(ms < 1000, "{spec} took {ms} ms");
    }
}

/// The first `plies` moves of alphabeta self-play from the start, seeded by `seed`.
fn self_play_opening(spec: &str, seed: u64, plies: usize) -> Vec<ChessAction> {
    let mut agents = [build::<Chess>(spec).unwrap(), build::<Chess>(spec).unwrap()];
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut g = Chess::new(&ChessParams::default());
    let mut record = Vec::new();
    while let Turn::Seat(s) = g.turn() {
        if record.len() == plies {
            break;
        }
        let a = agents[s].act(&g, s, &mut rng);
        record.push(a);
        g.apply(a);
    }
    record
}

#[test]
fn evaluation_noise_varies_self_play_and_no_noise_repeats_it() {
    let quiet: Vec<_> = (0..4)
        .map(|seed| self_play_opening("alphabeta:depth=2", seed, 12))
        .collect();
    assert!(
        quiet.windows(2).all(|w| w[0] == w[1]),
        "without noise the searcher is deterministic"
    );
    let noisy: Vec<_> = (0..4)
        .map(|seed| self_play_opening("alphabeta:depth=2,noise=15", seed, 12))
        .collect();
    assert!(
        noisy.windows(2).any(|w| w[0] != w[1]),
        "noise gives different games for different seeds"
    );
    assert_eq!(
        noisy[1],
        self_play_opening("alphabeta:depth=2,noise=15", 1, 12),
        "and the same game for the same seed"
    );
}

/// `expectimax` at depth 1 sees only the queen winning a pawn on d5; with
/// `quiescence=true` it also sees exd5 take the queen back and leaves the pawn alone.
/// Black to move is the same question mirrored (the minimising seat).
#[test]
fn quiescence_sees_the_recapture() {
    let cases = [
        ("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        ("3qk3/8/8/8/3P4/4P3/8/4K3 b - - 0 1", "d8d4"),
    ];
    for (fen, grab) in cases {
        let g = Chess::from_opening(&ChessParams::default(), fen).unwrap();
        let seat = match g.turn() {
            Turn::Seat(s) => s,
            t => panic!("{t:?}"),
        };
        let mut rng = Pcg64::seed_from_u64(3);
        let mut act = |spec: &str| {
            let mut agent = build::<Chess>(spec).unwrap();
            g.action_notation(agent.act(&g, seat, &mut rng))
        };
        assert_eq!(act("expectimax:depth=1"), grab, "{fen}: the test's premise");
        assert_ne!(act("expectimax:depth=1,quiescence=true"), grab, "{fen}");
        assert_ne!(
            act("expectimax:depth=1,quiescence=true,order=true"),
            grab,
            "{fen}"
        );
    }
}

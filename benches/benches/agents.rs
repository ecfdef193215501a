//! Agent speed: alpha-beta nodes/s on Kiwipete, MCTS simulations/s from the chess start
//! (uniform playouts to the end of the game), ISMCTS simulations/s on the strategy-fusion
//! test game, on Masquerade Chess (from the first move, both assignments made) and on Time
//! Chess (from the first blind turn) and on Zombie Chess (after burials on both sides).
//! Prints the figures, then runs the criterion benchmarks.
//!
//! `cargo bench -p benches --bench agents`

use agents::alphabeta::{AlphaBeta, AlphaBetaConfig};
use agents::common::Budget;
use agents::ismcts::{IsMcts, IsMode};
use agents::mcts::{MctsConfig, Uct};
use agents::testgames::{Fusion, FusionAction};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::game::{Game, Turn};
use engine::variants::chess::{Chess, ChessParams};
use engine::variants::half_alice::{HalfAlice, HalfAliceParams};
use engine::variants::masquerade::{Masquerade, MasqueradeParams};
use engine::variants::time::{TimeChess, TimeParams};
use engine::variants::zombie::{Zombie, ZombieParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::hint::black_box;
use std::time::Instant;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn kiwipete() -> Chess {
    Chess::from_opening(&ChessParams::default(), KIWIPETE).unwrap()
}

fn alphabeta_nodes(depth: u32) -> u64 {
    let mut ab = AlphaBeta::<Chess>::new(AlphaBetaConfig {
        depth,
        ..Default::default()
    });
    black_box(ab.search(&kiwipete()));
    ab.info.nodes
}

/// The search of a variant whose moves are its own (Half Alice: two sides of the mirror),
/// from the start: the node rate beside Kiwipete's says what the variant's move rules cost
/// the search.
fn alphabeta_half_alice_nodes(depth: u32) -> u64 {
    let mut ab = AlphaBeta::<HalfAlice>::new(AlphaBetaConfig {
        depth,
        ..Default::default()
    });
    black_box(ab.search(&HalfAlice::new(&HalfAliceParams::default())));
    ab.info.nodes
}

fn mcts_sims(iters: u64, seed: u64) -> u64 {
    let mut uct = Uct::<Chess>::new(MctsConfig {
        budget: Budget::iterations(iters),
        ..Default::default()
    });
    let mut rng = Pcg64::seed_from_u64(seed);
    uct.search(&Chess::new(&ChessParams::default()), &mut rng);
    uct.iterations
}

fn fusion_root() -> Fusion {
    let mut g = Fusion::new(&());
    g.apply(FusionAction::Heads);
    g
}

/// Masquerade after both (fixed, secret) assignments: the seat to move knows nothing
/// about its own pieces' captures yet.
fn masquerade_root() -> Masquerade {
    Masquerade::new(&MasqueradeParams {
        white_assigns: Some("KQ,QN,RB,NR,BK".into()),
        black_assigns: Some("KK,QQ,RR,BB,NN".into()),
        ..Default::default()
    })
}

fn ismcts_masquerade_sims(mode: IsMode, iters: u64, seed: u64) -> u64 {
    let mut is = IsMcts::<Masquerade>::new(
        mode,
        MctsConfig {
            budget: Budget::iterations(iters),
            ..Default::default()
        },
    );
    let mut rng = Pcg64::seed_from_u64(seed);
    is.search(&masquerade_root(), 0, &mut rng);
    is.iterations
}

/// Time Chess at its first blind turn (Black's Evening after 1... e5 2. d4): Black does
/// not know White's move, so every simulation samples a world.
fn time_root() -> TimeChess {
    let mut g = TimeChess::new(&TimeParams::default());
    for m in ["e7e5", "d2d4"] {
        let a = g.parse_action(m).expect("legal opening move");
        g.apply(a);
    }
    g
}

fn ismcts_time_sims(mode: IsMode, iters: u64, seed: u64) -> u64 {
    let mut is = IsMcts::<TimeChess>::new(
        mode,
        MctsConfig {
            budget: Budget::iterations(iters),
            ..Default::default()
        },
    );
    let mut rng = Pcg64::seed_from_u64(seed);
    is.search(&time_root(), 1, &mut rng);
    is.iterations
}

/// Zombie Chess after an opening with burials on both sides (each seat's belief holds
/// several grids of the opponent), Black to move: every simulation samples the
/// opponent's grid.
fn zombie_root() -> Zombie {
    let mut g = Zombie::new(&ZombieParams::default());
    for a in [
        "e2e4", "end", "d7d5", "end", "e4d5", "end", "bury:b1", "d8d5", "end", "bury:c7", "g1f3",
        "end",
    ] {
        let x = g.parse_action(a).expect("legal opening action");
        g.apply(x);
    }
    g
}

fn ismcts_zombie_sims(mode: IsMode, iters: u64, seed: u64) -> u64 {
    let mut is = IsMcts::<Zombie>::new(
        mode,
        MctsConfig {
            budget: Budget::iterations(iters),
            ..Default::default()
        },
    );
    let mut rng = Pcg64::seed_from_u64(seed);
    let root = zombie_root();
    let Turn::Seat(seat) = root.turn() else {
        unreachable!("a seat to move after the opening")
    };
    is.search(&root, seat, &mut rng);
    is.iterations
}

fn ismcts_sims(mode: IsMode, iters: u64, seed: u64) -> u64 {
    let mut is = IsMcts::<Fusion>::new(
        mode,
        MctsConfig {
            budget: Budget::iterations(iters),
            ..Default::default()
        },
    );
    let mut rng = Pcg64::seed_from_u64(seed);
    is.search(&fusion_root(), 0, &mut rng);
    is.iterations
}

/// CPU time of this thread in seconds (Linux `schedstat`), so the figures hold on a
/// loaded machine; wall time where it is unavailable.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Runs `f` (returning a count) and prints the count per second of CPU and of wall time.
fn figure(what: &str, unit: &str, f: impl FnOnce() -> u64) {
    let cpu0 = cpu_seconds();
    let t = Instant::now();
    let n = f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = cpu0.and_then(|c0| cpu_seconds().map(|c1| c1 - c0));
    match cpu {
        Some(c) => println!(
            "{what}: {n} {unit} in {c:.3}s CPU ({wall:.3}s wall) = {:.0} {unit}/s per core",
            n as f64 / c
        ),
        None => println!(
            "{what}: {n} {unit} in {wall:.3}s = {:.0} {unit}/s",
            n as f64 / wall
        ),
    }
}

fn print_figures() {
    // Depth 8: since issue 36's pruning this tree (about 119 K nodes) is the size depth 5's
    // was before it (148 K), so the line times a search, not the first table's allocation.
    figure("alphabeta depth 8 on Kiwipete", "nodes", || {
        alphabeta_nodes(8)
    });
    figure("alphabeta depth 7 on the Half Alice start", "nodes", || {
        alphabeta_half_alice_nodes(7)
    });
    figure(
        "mcts from the chess start, uniform playouts to the end (OpenSpiel C++ ~840/s)",
        "simulations",
        || mcts_sims(5000, 1),
    );
    for mode in [IsMode::So, IsMode::Mo] {
        figure(&format!("ismcts {mode:?} on Fusion"), "simulations", || {
            ismcts_sims(mode, 200_000, 1)
        });
    }
    for mode in [IsMode::So, IsMode::Mo] {
        figure(
            &format!("ismcts {mode:?} on Masquerade, playouts to the end"),
            "simulations",
            || ismcts_masquerade_sims(mode, 2_000, 1),
        );
    }
    for mode in [IsMode::So, IsMode::Mo] {
        figure(
            &format!("ismcts {mode:?} on Time Chess from the first blind turn, playouts to the end (goal 20000/s)"),
            "simulations",
            || ismcts_time_sims(mode, 2_000, 1),
        );
    }
    for mode in [IsMode::So, IsMode::Mo] {
        figure(
            &format!(
                "ismcts {mode:?} on Zombie Chess after burials on both sides, playouts to the end"
            ),
            "simulations",
            || ismcts_zombie_sims(mode, 500, 1),
        );
    }
}

fn bench(c: &mut Criterion) {
    print_figures();
    let mut g = c.benchmark_group("agents");
    g.sample_size(10);
    let nodes = alphabeta_nodes(4);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("alphabeta_kiwipete_depth4_nodes", |b| {
        b.iter(|| alphabeta_nodes(4))
    });
    let nodes = alphabeta_half_alice_nodes(5);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("alphabeta_half_alice_depth5_nodes", |b| {
        b.iter(|| alphabeta_half_alice_nodes(5))
    });
    g.throughput(Throughput::Elements(500));
    g.bench_function("mcts_chess_start_500_sims", |b| {
        b.iter(|| mcts_sims(500, 2))
    });
    g.throughput(Throughput::Elements(20_000));
    g.bench_function("ismcts_so_fusion_20000_sims", |b| {
        b.iter(|| ismcts_sims(IsMode::So, 20_000, 3))
    });
    g.bench_function("ismcts_mo_fusion_20000_sims", |b| {
        b.iter(|| ismcts_sims(IsMode::Mo, 20_000, 3))
    });
    // Masquerade and Time Chess run 500 simulations per iteration.
    g.throughput(Throughput::Elements(500));
    g.bench_function("ismcts_so_masquerade_500_sims", |b| {
        b.iter(|| ismcts_masquerade_sims(IsMode::So, 500, 3))
    });
    g.bench_function("ismcts_so_time_500_sims", |b| {
        b.iter(|| ismcts_time_sims(IsMode::So, 500, 3))
    });
    g.throughput(Throughput::Elements(100));
    g.bench_function("ismcts_so_zombie_100_sims", |b| {
        b.iter(|| ismcts_zombie_sims(IsMode::So, 100, 3))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Agent speed: alpha-beta nodes/s on Kiwipete, MCTS simulations/s from the chess start
//! (uniform playouts to the end of the game), ISMCTS simulations/s on the strategy-fusion
//! test game. Prints the figures, then runs the criterion benchmarks.
//!
//! `cargo bench -p benches --bench agents`

use agents::alphabeta::{AlphaBeta, AlphaBetaConfig};
use agents::common::Budget;
use agents::ismcts::{IsMcts, IsMode};
use agents::mcts::{MctsConfig, Uct};
use agents::testgames::{Fusion, FusionAction};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::game::Game;
use engine::variants::chess::{Chess, ChessParams};
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

fn print_figures() {
    let t = Instant::now();
    let nodes = alphabeta_nodes(5);
    let s = t.elapsed().as_secs_f64();
    println!(
        "alphabeta depth 5 on Kiwipete: {nodes} nodes in {:.3}s = {:.0} nodes/s",
        s,
        nodes as f64 / s
    );
    let t = Instant::now();
    let sims = mcts_sims(5000, 1);
    let s = t.elapsed().as_secs_f64();
    println!(
        "mcts from the chess start, uniform playouts to the end: {sims} simulations in {:.3}s = {:.0} sims/s (OpenSpiel C++ ~840/s)",
        s,
        sims as f64 / s
    );
    for mode in [IsMode::So, IsMode::Mo] {
        let t = Instant::now();
        let sims = ismcts_sims(mode, 200_000, 1);
        let s = t.elapsed().as_secs_f64();
        println!(
            "ismcts {mode:?} on Fusion: {sims} simulations in {:.3}s = {:.0} sims/s",
            s,
            sims as f64 / s
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
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Random-vs-random self-play throughput for orthodox chess on one core, the figure to
//! compare with OpenSpiel (880 random games/s, 310k plies/s on one core).
//!
//! Three loops, from the most general to the leanest:
//! - `game-api+agents`: what `chesslab tournament` runs: `Game::turn`, the `random`
//!   agent from `agents::registry` (which lists the legal actions again), and the
//!   action's notation for the record;
//! - `game-api`: the same without agents or notation (one `legal_actions` per ply);
//! - `board`: the engine's `Board` directly (one move generation and one outcome check
//!   per ply), the ceiling for the game API.
//!
//! Prints games/s and plies/s for each, then runs the criterion benchmarks.
//! `cargo bench -p benches --bench selfplay`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::game::{Game, Turn};
use engine::variants::chess::{Chess, ChessParams};
use engine::Board;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::hint::black_box;
use std::time::Instant;

/// One game through the game API with registry agents, recording notation as the
/// tournament does. Returns the number of plies.
fn game_with_agents(seed: u64) -> usize {
    let start = Chess::new(&ChessParams::default());
    let mut agents: Vec<_> = (0..2)
        .map(|_| agents::registry::build::<Chess>("random").unwrap())
        .collect();
    let mut rngs = [Pcg64::seed_from_u64(seed), Pcg64::seed_from_u64(!seed)];
    let mut g = start;
    let mut record = Vec::with_capacity(256);
    loop {
        match g.turn() {
            Turn::Seat(s) => {
                let a = agents[s].act(&g, s, &mut rngs[s]);
                record.push(g.action_notation(a));
                g.apply(a);
            }
            Turn::Terminal => break,
            _ => unreachable!("orthodox chess has no chance or simultaneous nodes"),
        }
    }
    black_box(g.result());
    record.len()
}

/// One game through the game API, no agents: uniform choice among `legal_actions`.
fn game_api(seed: u64) -> usize {
    let mut g = Chess::new(&ChessParams::default());
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut actions = Vec::with_capacity(64);
    let mut plies = 0;
    while let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut actions);
        g.apply(actions[rng.gen_range(0..actions.len())]);
        plies += 1;
    }
    black_box(g.result());
    plies
}

/// One game on the bare board with the same rules (FIDE draws, 400-ply cap).
fn board_only(seed: u64) -> usize {
    let mut b = Board::startpos();
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut plies = 0;
    while plies < 400 {
        let moves = b.legal_moves();
        if moves.is_empty() || b.automatic_draw().is_some() {
            break;
        }
        b.make(moves.as_slice()[rng.gen_range(0..moves.len())]);
        plies += 1;
    }
    black_box(b.key());
    plies
}

fn measure(name: &str, f: fn(u64) -> usize, seconds: f64) {
    let t = Instant::now();
    let (mut games, mut plies) = (0u64, 0usize);
    while t.elapsed().as_secs_f64() < seconds {
        plies += f(games);
        games += 1;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "selfplay {name:<16} {:>9.0} games/s {:>11.0} plies/s ({:.1} plies/game, one core)",
        games as f64 / s,
        plies as f64 / s,
        plies as f64 / games as f64
    );
}

fn bench(c: &mut Criterion) {
    measure("game-api+agents", game_with_agents, 3.0);
    measure("game-api", game_api, 3.0);
    measure("board", board_only, 3.0);
    let mut group = c.benchmark_group("selfplay");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let mut seed = 0u64;
    group.bench_function("random_vs_random_game_api_agents", |b| {
        b.iter(|| {
            seed += 1;
            game_with_agents(seed)
        })
    });
    group.bench_function("random_vs_random_board", |b| {
        b.iter(|| {
            seed += 1;
            board_only(seed)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

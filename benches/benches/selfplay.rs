//! Random-vs-random self-play throughput for orthodox chess on one core, the figure to
//! compare with OpenSpiel (880 random games/s, 310k plies/s on one core).
//!
//! Three loops (`benches::selfplay`), from the most general to the leanest: with agents
//! and notation as `chesslab tournament` plays, through the game API alone, and on the
//! bare `Board`. Then the variants through the game API (`benches::selfplay::random_game`),
//! whose plies/s should stay within 3x of orthodox chess's `game-api` figure (a joint
//! action counts as one ply). Adrenaline also runs as the agents' random playouts run it
//! (`adrenaline playout`: one action drawn by `Game::sample_legal_action`, no list).
//!
//! Prints games/s and plies/s for each, then runs the criterion benchmarks.
//! `cargo bench -p benches --bench selfplay`

use benches::selfplay::{
    board_only, clairvoyant_api, cooperative_api, game_api, synchronous_game_api, tar_pit_api,
    time_api, two_move_game_api, with_agents, zombie_api,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::time::Instant;

/// Adrenaline Chess (a ply is one decision: a regular move, an extra step, `stop` or a
/// checker placement).
fn adrenaline_api(seed: u64) -> usize {
    use engine::game::Game;
    use engine::variants::adrenaline::{Adrenaline, AdrenalineParams};
    benches::selfplay::random_game(Adrenaline::new(&AdrenalineParams::default()), seed)
}

/// Adrenaline Chess as the agents' random playouts play it: `turn`, then one action
/// drawn by `Game::sample_legal_action`, which judges candidates until it meets a legal
/// one instead of listing them all (same plies as `adrenaline_api`: a decision each).
fn adrenaline_playout(seed: u64) -> usize {
    use engine::game::{Game, Turn};
    use engine::variants::adrenaline::{Adrenaline, AdrenalineParams};
    use rand::SeedableRng;
    let mut g = Adrenaline::new(&AdrenalineParams::default());
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut scratch = Vec::with_capacity(64);
    let mut plies = 0;
    while let Turn::Seat(s) = g.turn() {
        let a = g
            .sample_legal_action(s, &mut rng, &mut scratch)
            .expect("a seat to act has a legal action");
        g.apply(a);
        plies += 1;
    }
    std::hint::black_box(g.result());
    plies
}

/// Half Alice Chess.
fn half_alice_api(seed: u64) -> usize {
    use engine::game::Game;
    use engine::variants::half_alice::{HalfAlice, HalfAliceParams};
    benches::selfplay::random_game(HalfAlice::new(&HalfAliceParams::default()), seed)
}

/// Cassandra Chess (a ply is a move or the prophecy decision after it).
fn cassandra_api(seed: u64) -> usize {
    use engine::game::Game;
    use engine::variants::cassandra::{Cassandra, CassandraParams};
    benches::selfplay::random_game(Cassandra::new(&CassandraParams::default()), seed)
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
    measure("game-api+agents", with_agents, 3.0);
    measure("game-api", game_api, 3.0);
    measure("board", board_only, 3.0);
    measure("two-move game-api", two_move_game_api, 3.0);
    measure("synchronous game-api", synchronous_game_api, 3.0);
    measure("time game-api", time_api, 3.0);
    measure("adrenaline game-api", adrenaline_api, 3.0);
    measure("adrenaline playout", adrenaline_playout, 3.0);
    measure("half-alice game-api", half_alice_api, 3.0);
    measure("cassandra game-api", cassandra_api, 3.0);
    measure("zombie game-api", zombie_api, 3.0);
    measure("tar-pit game-api", tar_pit_api, 3.0);
    measure("cooperative game-api", cooperative_api, 3.0);
    measure("clairvoyant game-api", clairvoyant_api, 3.0);
    let mut group = c.benchmark_group("selfplay");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let mut seed = 0u64;
    group.bench_function("random_vs_random_game_api_agents", |b| {
        b.iter(|| {
            seed += 1;
            with_agents(seed)
        })
    });
    group.bench_function("random_vs_random_synchronous", |b| {
        b.iter(|| {
            seed += 1;
            synchronous_game_api(seed)
        })
    });
    group.bench_function("random_vs_random_time_game_api", |b| {
        b.iter(|| {
            seed += 1;
            time_api(seed)
        })
    });
    group.bench_function("random_vs_random_zombie_game_api", |b| {
        b.iter(|| {
            seed += 1;
            zombie_api(seed)
        })
    });
    group.bench_function("random_vs_random_tar_pit_game_api", |b| {
        b.iter(|| {
            seed += 1;
            tar_pit_api(seed)
        })
    });
    group.bench_function("random_vs_random_cooperative_game_api", |b| {
        b.iter(|| {
            seed += 1;
            cooperative_api(seed)
        })
    });
    group.bench_function("random_vs_random_clairvoyant", |b| {
        b.iter(|| {
            seed += 1;
            clairvoyant_api(seed)
        })
    });
    group.bench_function("random_vs_random_board", |b| {
        b.iter(|| {
            seed += 1;
            board_only(seed)
        })
    });
    group.bench_function("two_move_random_vs_random_game_api", |b| {
        b.iter(|| {
            seed += 1;
            two_move_game_api(seed)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Replaying Clairvoyant records from their text against playing them (issue 33, "Speed
//! of replay"): the setup plays seeded games with a uniformly random agent and records
//! the action texts; `play` plays the same games again (the legal list worked out after
//! every action, as a game in a tournament does), `replay` replays them from the texts
//! (`engine::game::replay`, which goes through `Game::apply_text`: each action checked by
//! itself, no list). Replay should cost about what play does.
//!
//! `cargo bench -p benches --bench clairvoyant_replay` (about a minute).

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use engine::game::{replay, Game, Turn};
use engine::variants::clairvoyant::{Clairvoyant, ClairvoyantParams};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Duration;

const GAMES: u64 = 4;

/// Plays game `seed` to its end with a uniformly random agent; returns the action texts.
fn play(params: &ClairvoyantParams, seed: u64) -> Vec<String> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut g = Clairvoyant::new(params);
    let mut legal = Vec::new();
    let mut texts = Vec::new();
    while let Turn::Seat(seat) = g.turn() {
        g.legal_actions(seat, &mut legal);
        let a = legal[rng.gen_range(0..legal.len())];
        texts.push(g.action_notation(a));
        g.apply(a);
    }
    texts
}

fn bench(c: &mut Criterion) {
    let params = ClairvoyantParams::default();
    let records: Vec<Vec<String>> = (0..GAMES).map(|s| play(&params, s)).collect();
    let actions: usize = records.iter().map(Vec::len).sum();
    eprintln!(
        "{GAMES} games, {actions} actions ({} a game on average)",
        actions as u64 / GAMES
    );
    let mut g = c.benchmark_group("clairvoyant_replay");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(15))
        .throughput(Throughput::Elements(actions as u64));
    g.bench_function("play", |b| {
        b.iter(|| {
            for s in 0..GAMES {
                play(&params, s);
            }
        })
    });
    g.bench_function("replay", |b| {
        b.iter(|| {
            for r in &records {
                let texts: Vec<&str> = r.iter().map(String::as_str).collect();
                let done = replay(Clairvoyant::new(&params), &texts).expect("the record replays");
                assert!(done.result().is_some());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Tuning overhead per game (issue 17: under 5% of game time): one evaluation of a point
//! as `chesslab tune` does it (`experiments::tune::Evaluator`: the point written into the
//! parameter table and validated, the games played with their final tallies kept, every
//! target measured, the loss) against the same games with the same seeds played plainly
//! through the match machinery (`experiments::tune::play_plain`: no tallies, no
//! parameters, no targets). Both on one thread.
//!
//! Prints the ratio (tuning time / plain time − 1) from a timed loop first, then runs the
//! criterion pair. Two settings, both Clairvoyant Chess with the seed's tables: random
//! players (cheap games, where the tuner's share is largest: the worst case) and the
//! `clairvoyant` agent with its naive guesser (a searching player; the smart guesser's
//! games with the seed's tables take seconds each, too long for a bench).
//! `cargo bench -p benches --bench tune_overhead`

use criterion::{criterion_group, criterion_main, Criterion};
use experiments::tune::{play_plain, Evaluator, Optimizer, TuneArgs};
use experiments::variant_args::VariantArgs;
use std::time::Instant;

const SPACE: &str = "[[param]]\nname = \"values\"\npaths = [\"values\"]\nkind = \"scale\"\nmin = 0.1\nmax = 2\n\n[[param]]\nname = \"black_balance\"\npath = \"black_balance\"\nmin = 0\nmax = 40\n";
const TARGETS: &str = "[[target]]\nmeasure = \"tally:white_purchases+black_purchases/white_moves+black_moves\"\nrange = [0.1667, 0.2]\n\n[[target]]\nmeasure = \"first_seat_score\"\nvalue = 0.5\ntolerance = 0.03\n";

struct Setting {
    label: &'static str,
    agent: &'static str,
    games: u64,
    evaluator: Evaluator,
    _dir: tempfile::TempDir,
}

fn setting(label: &'static str, agent: &'static str, games: u64) -> Setting {
    let dir = tempfile::tempdir().expect("temporary folder");
    std::fs::write(dir.path().join("space.toml"), SPACE).expect("space file");
    std::fs::write(dir.path().join("targets.toml"), TARGETS).expect("target file");
    let args = TuneArgs {
        variant: VariantArgs {
            variant: "clairvoyant".into(),
            params: None,
        },
        space: dir.path().join("space.toml"),
        targets: dir.path().join("targets.toml"),
        agents: agent.into(),
        games,
        iterations: 1,
        optimizer: Optimizer::Spsa,
        spsa_a: 0.05,
        spsa_c: 0.1,
        spsa_big_a: None,
        rounding: Default::default(),
        cmaes_sigma: 0.25,
        cmaes_lambda: None,
        seed: 1,
        random_opening_plies: 0,
        threads: Some(1),
        confirm_games: 0,
        out: dir.path().join("out"),
        resume: false,
    };
    Setting {
        label,
        agent,
        games,
        evaluator: Evaluator::new(&args).expect("the bench's inputs are valid"),
        _dir: dir,
    }
}

fn plain(s: &Setting, seed: u64) {
    play_plain(
        "clairvoyant",
        None,
        &[s.agent.to_string()],
        s.games,
        seed,
        1,
    )
    .expect("plain games");
}

fn tuned(s: &Setting, seed: u64) {
    s.evaluator.loss(seed).expect("an evaluation");
}

/// Alternating timed rounds, so load on the machine falls on both sides alike.
fn ratio(s: &Setting, rounds: u64) {
    let (mut tp, mut tt) = (0.0, 0.0);
    for r in 0..rounds {
        let t0 = Instant::now();
        plain(s, r);
        tp += t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        tuned(s, r);
        tt += t0.elapsed().as_secs_f64();
    }
    let n = (rounds * s.games) as f64;
    println!(
        "{}: plain {:.3} ms/game, tuning {:.3} ms/game, overhead {:+.2}% ({} games each)",
        s.label,
        1e3 * tp / n,
        1e3 * tt / n,
        100.0 * (tt / tp - 1.0),
        rounds * s.games
    );
}

fn bench(c: &mut Criterion) {
    let settings = [
        setting("clairvoyant random", "random", 20),
        setting("clairvoyant naive", "clairvoyant:guesser=naive", 2),
    ];
    for s in &settings {
        ratio(s, 5);
    }
    let mut g = c.benchmark_group("tune-overhead");
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(3));
    g.warm_up_time(std::time::Duration::from_secs(1));
    for s in &settings {
        g.bench_function(format!("{} plain", s.label), |b| b.iter(|| plain(s, 7)));
        g.bench_function(format!("{} tuning", s.label), |b| b.iter(|| tuned(s, 7)));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Tuning overhead per game (issue 17: under 5% of game time): one evaluation of a point
//! as `chesslab tune` does it (`experiments::tune::Evaluator`: the point written into the
//! parameter table and validated, the games played with their final tallies kept, every
//! target measured, the loss) against the same games with the same seeds played plainly
//! through the match machinery (`experiments::tune::play_plain`: no tallies, no
//! parameters, no targets). Both on one thread.
//!
//! Prints the ratio (tuning time / plain time − 1) from a timed loop first (rounds in
//! alternating order; each round asserts both sides played the same games), then runs
//! the criterion pair (one side after the other, so drifting load shows up there: quote
//! the timed loop). Two settings, both Clairvoyant Chess with the seed's tables: random
//! players (cheap games, where the tuner's share is largest: the worst case) and the
//! `clairvoyant` agent with its naive guesser (a searching player; the smart guesser's
//! games with the seed's tables take seconds each, too long for a bench).
//! `cargo bench -p benches --bench tune_overhead`

use criterion::{criterion_group, criterion_main, Criterion};
use experiments::run::variant_args::VariantArgs;
use experiments::studies::tune::{play_plain, Evaluator, Optimizer, TuneArgs};
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
        panel: None,
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

fn plain(s: &Setting, seed: u64) -> usize {
    play_plain(
        "clairvoyant",
        None,
        &[s.agent.to_string()],
        s.games,
        seed,
        1,
    )
    .expect("plain games")
}

fn tuned(s: &Setting, seed: u64) -> usize {
    s.evaluator.loss_and_plies(seed).expect("an evaluation").1
}

/// Timed rounds with the order of the two sides alternating (plain first in even rounds,
/// tuning first in odd ones), so drifting load on the machine falls on both alike; each
/// round checks that both sides played the same games (the same plies).
fn ratio(s: &Setting, rounds: u64) {
    let (mut tp, mut tt) = (0.0, 0.0);
    let timed = |f: &dyn Fn() -> usize| {
        let t0 = Instant::now();
        let plies = f();
        (t0.elapsed().as_secs_f64(), plies)
    };
    for r in 0..rounds {
        let p = || plain(s, r);
        let t = || tuned(s, r);
        let ((dp, pp), (dt, pt)) = if r % 2 == 0 {
            let a = timed(&p);
            (a, timed(&t))
        } else {
            let b = timed(&t);
            (timed(&p), b)
        };
        assert_eq!(pp, pt, "round {r}: the two sides played different games");
        tp += dp;
        tt += dt;
    }
    let n = (rounds * s.games) as f64;
    println!(
        "{}: plain {:.3} ms/game, tuning {:.3} ms/game, overhead {:+.2}% ({} games each, same games checked)",
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
    for (s, rounds) in settings.iter().zip([40, 20]) {
        ratio(s, rounds);
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

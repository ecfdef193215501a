//! A fixed number of ISMCTS simulations on Time Chess from Black's first blind turn
//! (1...e5 2.d4, the agents bench's root), for profilers (`perf stat`, `perf record`):
//! `cargo run --release -p benches --example ismcts-profile -- [so|mo] [iterations] [seed]`.
//! Prints the best root action and its visits so runs can be compared for identical
//! search results.

use agents::common::Budget;
use agents::ismcts::{IsMcts, IsMode};
use agents::mcts::MctsConfig;
use engine::game::Game;
use engine::variants::time::{TimeChess, TimeParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = match args.get(1).map_or("so", String::as_str) {
        "mo" => IsMode::Mo,
        _ => IsMode::So,
    };
    let iters: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut g = TimeChess::new(&TimeParams::default());
    for m in ["e7e5", "d2d4"] {
        let a = g.parse_action(m).expect("legal opening move");
        g.apply(a);
    }
    let mut is = IsMcts::<TimeChess>::new(
        mode,
        MctsConfig {
            budget: Budget::iterations(iters),
            ..Default::default()
        },
    );
    let t = std::time::Instant::now();
    is.search(&g, 1, &mut Pcg64::seed_from_u64(seed));
    let s = t.elapsed().as_secs_f64();
    let mut stats = is.root_stats();
    stats.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top: Vec<String> = stats
        .iter()
        .take(5)
        .map(|(a, v, q)| format!("{} {v} {q:.4}", g.action_notation(*a)))
        .collect();
    println!(
        "{mode:?}: {} iterations in {s:.3}s wall ({:.0}/s); top: {}",
        is.iterations,
        is.iterations as f64 / s,
        top.join(", ")
    );
}

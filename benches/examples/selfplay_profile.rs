//! A fixed amount of random self-play for profilers (`perf stat`, `perf record`), where
//! wall-clock benchmarks are too noisy: `cargo run --release -p benches --example
//! selfplay-profile -- [agents|api|board|two-move|clairvoyant|adrenaline|adrenaline-playout|half-alice|cassandra]
//! [games]`.

use benches::selfplay;
use engine::game::Game;
use engine::variants::adrenaline::{Adrenaline, AdrenalineParams};
use engine::variants::cassandra::{Cassandra, CassandraParams};
use engine::variants::half_alice::{HalfAlice, HalfAliceParams};

fn adrenaline(seed: u64) -> usize {
    selfplay::random_game(Adrenaline::new(&AdrenalineParams::default()), seed)
}

/// Adrenaline as playouts play it: one action drawn by `sample_legal_action` per ply.
fn adrenaline_playout(seed: u64) -> usize {
    use engine::game::Turn;
    use rand::SeedableRng;
    let mut g = Adrenaline::new(&AdrenalineParams::default());
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut scratch = Vec::new();
    let mut plies = 0;
    while let Turn::Seat(s) = g.turn() {
        let a = g.sample_legal_action(s, &mut rng, &mut scratch);
        g.apply(a.expect("a seat to act has a legal action"));
        plies += 1;
    }
    plies
}

fn half_alice(seed: u64) -> usize {
    selfplay::random_game(HalfAlice::new(&HalfAliceParams::default()), seed)
}

fn cassandra(seed: u64) -> usize {
    selfplay::random_game(Cassandra::new(&CassandraParams::default()), seed)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("agents", String::as_str);
    let games: u64 = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(2000);
    let f: fn(u64) -> usize = match mode {
        "agents" => selfplay::with_agents,
        "api" => selfplay::game_api,
        "board" => selfplay::board_only,
        "two-move" => selfplay::two_move_game_api,
        "clairvoyant" => selfplay::clairvoyant_api,
        "adrenaline" => adrenaline,
        "adrenaline-playout" => adrenaline_playout,
        "half-alice" => half_alice,
        "cassandra" => cassandra,
        other => {
            eprintln!("unknown mode '{other}' (agents, api, board, two-move, clairvoyant, adrenaline, adrenaline-playout, half-alice, cassandra)");
            std::process::exit(2);
        }
    };
    let plies: usize = (0..games).map(f).sum();
    println!("{mode}: {games} games, {plies} plies");
}

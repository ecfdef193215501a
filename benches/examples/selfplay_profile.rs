//! A fixed amount of random self-play for profilers (`perf stat`, `perf record`), where
//! wall-clock benchmarks are too noisy: `cargo run --release -p benches --example
//! selfplay-profile -- [agents|api|board|two-move|clairvoyant] [games]`.

use benches::selfplay;

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
        other => {
            eprintln!("unknown mode '{other}' (agents, api, board, two-move, clairvoyant)");
            std::process::exit(2);
        }
    };
    let plies: usize = (0..games).map(f).sum();
    println!("{mode}: {games} games, {plies} plies");
}

//! A fixed amount of random self-play for profilers (`perf stat`, `perf record`), where
//! wall-clock benchmarks are too noisy: `cargo run --release -p benches --example
//! selfplay-profile -- [agents|api|board] [games]`.

use engine::game::{Game, Turn};
use engine::variants::chess::{Chess, ChessParams};
use engine::Board;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::hint::black_box;

fn with_agents(seed: u64) -> usize {
    let mut agents: Vec<_> = (0..2)
        .map(|_| agents::registry::build::<Chess>("random").unwrap())
        .collect();
    let mut rngs = [Pcg64::seed_from_u64(seed), Pcg64::seed_from_u64(!seed)];
    let mut g = Chess::new(&ChessParams::default());
    let mut record = Vec::with_capacity(256);
    while let Turn::Seat(s) = g.turn() {
        let a = agents[s].act(&g, s, &mut rngs[s]);
        record.push(g.action_notation(a));
        g.apply(a);
    }
    black_box(g.result());
    record.len()
}

fn api(seed: u64) -> usize {
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

fn board(seed: u64) -> usize {
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("agents", String::as_str);
    let games: u64 = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(2000);
    let f: fn(u64) -> usize = match mode {
        "agents" => with_agents,
        "api" => api,
        "board" => board,
        other => {
            eprintln!("unknown mode '{other}' (agents, api, board)");
            std::process::exit(2);
        }
    };
    let plies: usize = (0..games).map(f).sum();
    println!("{mode}: {games} games, {plies} plies");
}

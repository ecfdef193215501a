//! Time and nodes to each depth on Kiwipete (median of 5 fresh searches per depth).
use agents::alphabeta::{AlphaBeta, AlphaBetaConfig};
use engine::variants::chess::{Chess, ChessParams};
use std::time::Instant;
#[allow(unused_imports)]
use engine::game::Game;
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
fn main() {
    let max: u32 = std::env::args().nth(1).unwrap().parse().unwrap();
    for (name, fen) in [("kiwipete", KIWIPETE), ("start", START)] {
        let g = Chess::from_opening(&ChessParams::default(), fen).unwrap();
        for depth in 1..=max {
            let mut runs = Vec::new();
            let mut nodes = 0;
            for _ in 0..5 {
                let off = std::env::var("OFF").unwrap_or_default();
                let mut cfg = AlphaBetaConfig { depth, ..Default::default() };
                if off.contains("futility") { cfg.futility = false; }
                if off.contains("lmp") { cfg.lmp = false; }
                if off.contains("see") { cfg.see = false; }
                if off.contains("nocheck") { cfg.check_extension = false; }
                let mut ab = AlphaBeta::<Chess>::new(cfg);
                let t = Instant::now();
                std::hint::black_box(ab.search(&g));
                runs.push(t.elapsed().as_secs_f64());
                nodes = ab.info.nodes;
            }
            runs.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let t = runs[2];
            println!("{name} depth {depth}: {nodes} nodes in {:.4} s = {:.0} nodes/s", t, nodes as f64 / t);
        }
    }
}

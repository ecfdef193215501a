//! Divide for Half Alice after a sequence of moves (debugging aid):
//! `cargo run --release -p engine --example variant_divide -- "d2d3,e7e5" 3`
use engine::game::{perft, Game};
use engine::variants::half_alice::{HalfAlice, HalfAliceParams};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut g = HalfAlice::new(&HalfAliceParams::default());
    for m in args[1].split(',').filter(|s| !s.is_empty()) {
        let a = g.parse_action(m).unwrap();
        g.apply(a);
    }
    let depth: u32 = args[2].parse().unwrap();
    let mut acts = Vec::new();
    g.legal_actions(g.board_ref().turn().index(), &mut acts);
    let mut rows: Vec<(String, u64)> = acts
        .iter()
        .map(|&a| {
            let name = g.action_notation(a);
            g.apply(a);
            let n = if depth == 0 { 1 } else { perft(&mut g, depth) };
            g.undo();
            (name, n)
        })
        .collect();
    rows.sort();
    for (m, n) in rows {
        println!("{m} {n}");
    }
}

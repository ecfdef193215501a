//! Nodes to depth with the search's switches as each game's facts allow them (issue 66),
//! against the same search with every fact-gated switch off (check extensions, reverse
//! futility and futility pruning, late-move pruning, static exchange: what generation 6
//! searched in every variant). For every game of the registry, seeded positions of random
//! play (`agents::budget_suite::positions`, plies 6, 24 and 60, several seeds) are searched
//! to a fixed depth by `alphabeta` both ways; the binary prints and writes a Markdown table
//! of the nodes, the time and the facts that switched something on. Where a game's facts
//! allow nothing the two counts are equal, which the table shows too. Check extensions
//! search deeper lines on purpose, so the "on" column can have more nodes where they
//! apply; the table's last column is the same count without extensions (pruning alone).
//!
//! `cargo build --profile quick -p benches --bin switch_ons && ./target/quick/switch_ons
//! [OUT.csv] [SEEDS] [DEPTH] [null]` (defaults: print only, 4 seeds, depth 4). With
//! `null` it measures the null move alone (with and without, the rest as today) in the
//! games whose facts offer a pass.

use agents::alphabeta::{AlphaBeta, AlphaBetaConfig};
use agents::budget_suite::{self, PLIES};
use engine::game::{Game, Turn};
use engine::registry::{self, VariantVisitor};
use std::fmt::Write as _;
use std::time::Instant;

struct Row {
    game: &'static str,
    switched: String,
    positions: usize,
    on: (u64, f64),
    off: (u64, f64),
    pruning_only: (u64, f64),
}

struct Measure {
    seeds: u64,
    depth: u32,
}

/// Nodes and seconds of `cfg` over the positions (one fresh searcher each).
fn count<G: Game>(positions: &[G], cfg: &AlphaBetaConfig) -> (u64, f64) {
    let t = Instant::now();
    let mut nodes = 0;
    for g in positions {
        let mut ab = AlphaBeta::<G>::new(cfg.clone());
        ab.search(g);
        nodes += ab.info.nodes;
    }
    (nodes, t.elapsed().as_secs_f64())
}

/// The seeded positions of random play where a seat is to move.
fn positions<G: Game>(start: &G, seeds: u64) -> Vec<G> {
    let mut positions = Vec::new();
    for seed in 0..seeds {
        for (g, _) in budget_suite::positions(start, 6600 + seed, PLIES) {
            if matches!(g.turn(), Turn::Seat(_)) {
                positions.push(g);
            }
        }
    }
    positions
}

/// The null move alone: today's search against the same without null-move pruning, in
/// the games whose facts offer a pass (`None` elsewhere).
struct NullMeasure {
    seeds: u64,
    depth: u32,
}

impl VariantVisitor for NullMeasure {
    type Output = Option<String>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Option<String> {
        let start = G::new(&params);
        if !start.facts().null_move {
            return None;
        }
        let positions = positions(&start, self.seeds);
        let with = AlphaBetaConfig {
            depth: self.depth,
            ..Default::default()
        };
        let without = AlphaBetaConfig {
            null_move: false,
            ..with.clone()
        };
        let (a, b) = (count(&positions, &with), count(&positions, &without));
        Some(format!(
            "{name},{},{},{},{:.2},{:.2}",
            positions.len(),
            a.0,
            b.0,
            a.0 as f64 / b.0.max(1) as f64,
            a.1 / b.1.max(1e-9)
        ))
    }
}

impl VariantVisitor for Measure {
    type Output = Row;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Row {
        let start = G::new(&params);
        let f = start.facts();
        let positions = positions(&start, self.seeds);
        let on = AlphaBetaConfig {
            depth: self.depth,
            ..Default::default()
        };
        let off = AlphaBetaConfig {
            check_extension: false,
            futility: false,
            lmp: false,
            see: false,
            ..on.clone()
        };
        let pruning_only = AlphaBetaConfig {
            check_extension: false,
            ..on.clone()
        };
        let check = f.board_check || f.game_check;
        let mut switched = Vec::new();
        if check {
            switched.push("check");
        }
        if check && f.quiet_pruning {
            switched.push("pruning");
        }
        if f.static_exchange {
            switched.push("SEE");
        }
        if f.null_move {
            switched.push("null move");
        }
        Row {
            game: name,
            switched: switched.join(", "),
            positions: positions.len(),
            on: count(&positions, &on),
            off: count(&positions, &off),
            pruning_only: count(&positions, &pruning_only),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.first().filter(|a| !a.is_empty()).cloned();
    let seeds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let depth: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4);
    if args.get(3).map(String::as_str) == Some("null") {
        let mut csv = String::from(
            "game,positions,nodes_with,nodes_without,with_over_without,time_with_over_without\n",
        );
        for &name in registry::VARIANTS {
            let m = NullMeasure { seeds, depth };
            if let Some(line) = registry::visit(name, None, m).expect("a registry game") {
                println!("{line}");
                csv.push_str(&line);
                csv.push('\n');
            }
        }
        if let Some(path) = out {
            std::fs::write(&path, csv).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        }
        return;
    }
    let mut csv = String::from(
        "game,switched_on,positions,nodes_on,nodes_off,on_over_off,pruning_only,pruning_over_off,time_on_over_off\n",
    );
    for &name in registry::VARIANTS {
        if name == "golf" {
            continue; // a puzzle for one seat: the Golf solver, not alphabeta, plays it
        }
        let r = registry::visit(name, None, Measure { seeds, depth }).expect("a registry game");
        let ratio = |a: u64, b: u64| a as f64 / b.max(1) as f64;
        let line = format!(
            "| {} | {} | {} | {} | {} | {:.2} | {} | {:.2} | {:.2} |",
            r.game,
            if r.switched.is_empty() {
                "nothing"
            } else {
                &r.switched
            },
            r.positions,
            r.on.0,
            r.off.0,
            ratio(r.on.0, r.off.0),
            r.pruning_only.0,
            ratio(r.pruning_only.0, r.off.0),
            r.on.1 / r.off.1.max(1e-9),
        );
        println!("{line}");
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let quoted: Vec<String> = cells
            .iter()
            .map(|c| {
                if c.contains(',') {
                    format!("\"{c}\"")
                } else {
                    c.to_string()
                }
            })
            .collect();
        writeln!(csv, "{}", quoted.join(",")).unwrap();
    }
    if let Some(path) = out {
        std::fs::write(&path, csv).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        eprintln!("wrote {path}");
    }
}

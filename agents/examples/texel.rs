//! Tunes the search's evaluation weights by Texel's method (`agents::eval::texel`) on
//! positions from self-play, and writes them as TOML.
//!
//! ```sh
//! cargo run --profile test -p agents --example texel -- \
//!     --games 400 --depth 3 --seed 1 --threads 2 --out agents/data/eval/chess.toml
//! ```
//!
//! Games: `alphabeta` at `--depth` with the current search weights and `noise=30`
//! against itself, from 6 uniformly random plies (seeded per game), ply cap 300 (a
//! draw). Positions: every position after the random plies where the side to move is
//! not in check and the searcher's move is not a capture (a quiet position, where the
//! static evaluation means something), labelled with the game's result for White. Every fifth game is held out
//! to report the loss before and after on positions the fit did not see.

use agents::alphabeta::{AlphaBeta, AlphaBetaConfig};
use agents::eval::texel::{self, N};
use agents::eval::{search_weights, Evaluator};
use engine::game::{Game, Turn};
use engine::variants::chess::{Chess, ChessParams};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| default.to_string())
}

fn num(name: &str, default: &str) -> u64 {
    let v = arg(name, default);
    v.parse().unwrap_or_else(|_| {
        eprintln!("{name}: expected a whole number, got '{v}'");
        std::process::exit(2)
    })
}

/// Plays game `i`; returns its sampled positions' features and White's result.
fn game(i: u64, seed: u64, depth: u32) -> (Vec<[f64; N]>, f64) {
    let units = texel::unit_evaluators();
    let mut rng = Pcg64::seed_from_u64(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let params = ChessParams {
        ply_cap: 300,
        ..Default::default()
    };
    let mut g = Chess::new(&params);
    let mut legal = Vec::new();
    for _ in 0..6 {
        let Turn::Seat(s) = g.turn() else { break };
        g.legal_actions(s, &mut legal);
        g.apply(legal[rng.gen_range(0..legal.len())]);
    }
    let mut searchers: Vec<AlphaBeta<Chess>> = (0..2)
        .map(|_| {
            AlphaBeta::new(AlphaBetaConfig {
                depth,
                noise: 30,
                eval: Evaluator::new(search_weights().clone()),
                ..Default::default()
            })
        })
        .collect();
    let mut xs = Vec::new();
    loop {
        match g.turn() {
            Turn::Seat(s) => {
                searchers[s].set_noise_salt(rng.gen());
                let a = searchers[s].search(&g).expect("a move");
                let b = g.board().expect("a board");
                let quiet = !b.in_check() && agents::common::capture_score(&mut g, a).is_none();
                if quiet {
                    xs.push(texel::features(&units, g.board().expect("a board")));
                }
                g.apply(a);
            }
            Turn::Terminal => break,
            t => panic!("unexpected {t:?}"),
        }
    }
    let y = (g.returns()[0] + 1.0) / 2.0;
    (xs, y)
}

fn main() {
    let games = num("--games", "400");
    let depth = num("--depth", "3") as u32;
    let seed = num("--seed", "1");
    let threads = num("--threads", "1").max(1);
    let out = arg("--out", "agents/data/eval/chess.toml");
    let results: Vec<(u64, Vec<[f64; N]>, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (0..games)
                        .filter(|i| i % threads == t)
                        .map(|i| {
                            let (xs, y) = game(i, seed, depth);
                            (i, xs, y)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut train = Vec::new();
    let mut test = Vec::new();
    let (mut w, mut d, mut l) = (0, 0, 0);
    for (i, xs, y) in results {
        match y {
            y if y > 0.75 => w += 1,
            y if y < 0.25 => l += 1,
            _ => d += 1,
        }
        let set = if i % 5 == 4 { &mut test } else { &mut train };
        set.extend(xs.into_iter().map(|x| (x, y)));
    }
    let start_w = search_weights().clone();
    let start = texel::coefficients(&start_w);
    let k = texel::fit_k(&train, &start);
    let c = texel::fit(&train, &start, k, 1e-4);
    let tuned = texel::weights(&c, &start_w);
    println!(
        "games {games} (white wins {w}, draws {d}, black wins {l}), depth {depth}, seed {seed}"
    );
    println!(
        "positions: {} train, {} held out; k = {k:.4} per pawn",
        train.len(),
        test.len()
    );
    println!(
        "loss train {:.5} -> {:.5}, held out {:.5} -> {:.5}",
        texel::loss(&train, &start, k),
        texel::loss(&train, &c, k),
        texel::loss(&test, &start, k),
        texel::loss(&test, &c, k)
    );
    let mut text = format!(
        "# The search's evaluation weights (pawns), read by `alphabeta` unless its spec gives\n\
         # `eval=FILE`; `eval.*` keys apply on top. Fields: agents/src/eval/mod.rs.\n\
         # Tuned by Texel's method: cargo run --profile test -p agents --example texel --\n\
         #   --games {games} --depth {depth} --seed {seed} --threads {threads} --out {out}\n\
         # {} training positions, k = {k:.4}; held-out loss {:.5} -> {:.5}.\n",
        train.len(),
        texel::loss(&test, &start, k),
        texel::loss(&test, &c, k)
    );
    for f in agents::eval::EVAL_SETTINGS {
        let field = f.key.strip_prefix("eval.").unwrap_or(f.key);
        let v = tuned.get(field).expect("a field");
        text.push_str(&format!("{field} = {:.4}\n", v));
        println!(
            "{field:12} {:>8.4} -> {:>8.4}",
            start_w.get(field).unwrap(),
            v
        );
    }
    std::fs::write(&out, text).unwrap_or_else(|e| {
        eprintln!("{out}: {e}");
        std::process::exit(1)
    });
    println!("wrote {out}");
}

//! The budget benchmark (issue 64): for every search agent on every game it plays
//! (`agents::budget_suite`), decisions at `time_ms` = 20 and 50 over seeded positions,
//! each decision's wall time divided by the budget; prints each pair's mean and p99 and
//! writes a Markdown table and the raw CSV. A binary rather than an example so it
//! builds with the benches crate's own dependencies only (engine and agents).
//!
//! `cargo run --profile quick -p benches --bin budgets -- [OUT_DIR] [SEEDS] [GAMES...]`
//! (defaults: results/budgets, 4 seeds, every game of the suite). `--full-game` plays
//! one Clairvoyant game per generic agent at 50 ms a decision instead and prints its
//! wall time and decisions; `--probe SPEC GAME [SEEDS]` prints each decision of one
//! spec with the position's listing and sampling times (for finding a slow loop).

use agents::budget_suite::{self, bound, mean, percentile, with_key, AGENTS, PLIES, UNBUDGETED};
use agents::registry;
use engine::game::{Game, Turn};
use engine::registry::VariantVisitor;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// One (agent, game, budget) cell: every decision's wall time.
struct Cell {
    agent: String,
    game: String,
    budget_ms: u64,
    times: Vec<Duration>,
}

struct Measure<'a> {
    label: &'a str,
    seeds: u64,
    budgets: &'a [u64],
    specs: &'a [String],
    unbudgeted: &'a [&'a str],
}

impl VariantVisitor for Measure<'_> {
    type Output = (Vec<Cell>, Vec<String>);
    fn visit<G: Game>(self, _name: &'static str, params: G::Params) -> Self::Output {
        let start = G::new(&params);
        let mut positions = Vec::new();
        for seed in 0..self.seeds {
            positions.extend(budget_suite::positions(&start, 1000 + seed, PLIES));
        }
        let mut cells = Vec::new();
        let mut raw = Vec::new();
        let bases: Vec<(String, Option<u64>)> = self
            .specs
            .iter()
            .flat_map(|a| self.budgets.iter().map(move |&b| (a.clone(), Some(b))))
            .chain(self.unbudgeted.iter().map(|a| (a.to_string(), None)))
            .collect();
        for (base, budget) in bases {
            let spec = match budget {
                Some(ms) => with_key(&base, &format!("time_ms={ms}")),
                None => base.clone(),
            };
            let mut times = Vec::new();
            for (i, (g, seat)) in positions.iter().enumerate() {
                match budget_suite::decide::<G>(&spec, g, *seat, i as u64) {
                    Ok(Some(d)) => {
                        raw.push(format!(
                            "{},{},{},{},{},{:.3}",
                            self.label,
                            base,
                            budget.unwrap_or(0),
                            i,
                            d.action.replace(',', ";"),
                            d.time.as_secs_f64() * 1000.0
                        ));
                        times.push(d.time);
                    }
                    Ok(None) => break,
                    Err(e) => panic!("{spec}: {e}"),
                }
            }
            if !times.is_empty() {
                cells.push(Cell {
                    agent: base,
                    game: self.label.to_string(),
                    budget_ms: budget.unwrap_or(0),
                    times,
                });
            }
        }
        (cells, raw)
    }
}

/// One Clairvoyant game of `spec` against `random`, alternating colours by `seed`: the
/// wall time, the decisions of `spec` and the longest of them.
struct FullGame<'a> {
    spec: &'a str,
    seed: u64,
}

impl VariantVisitor for FullGame<'_> {
    type Output = (Duration, usize, Duration, String);
    fn visit<G: Game>(self, _name: &'static str, params: G::Params) -> Self::Output {
        let mut g = G::new(&params);
        let mut ours = registry::build::<G>(self.spec).expect("spec");
        let mut theirs = registry::build::<G>("random").expect("random");
        let our_seat = (self.seed % 2) as usize;
        let mut rng = Pcg64::seed_from_u64(self.seed);
        let mut outcomes = Vec::new();
        let started = Instant::now();
        let (mut n, mut longest) = (0, Duration::ZERO);
        loop {
            match g.turn() {
                Turn::Terminal => break,
                Turn::Seat(s) => {
                    let t = Instant::now();
                    let a = if s == our_seat {
                        ours.act(&g, s, &mut rng)
                    } else {
                        theirs.act(&g, s, &mut rng)
                    };
                    if s == our_seat {
                        n += 1;
                        longest = longest.max(t.elapsed());
                    }
                    g.apply(a);
                }
                Turn::Chance => {
                    g.chance_outcomes(&mut outcomes);
                    let i = engine::random::sample_index(&outcomes, &mut rng);
                    g.apply(outcomes[i].0);
                }
                Turn::Simultaneous => unreachable!("Clairvoyant has no simultaneous nodes"),
            }
        }
        let reason = g.result().map(|r| r.reason.to_string()).unwrap_or_default();
        (started.elapsed(), n, longest, reason)
    }
}

fn full_games() {
    println!("| agent (time_ms=50) against random | wall time | its decisions | longest | end |");
    println!("|---|---:|---:|---:|---|");
    for base in [
        "alphabeta",
        "pimc",
        "pimc:search=alphabeta",
        "expectimax",
        "mcts",
        "ismcts",
    ] {
        let spec = with_key(base, "time_ms=50");
        let (wall, n, longest, reason) = engine::registry::visit(
            "clairvoyant",
            None,
            FullGame {
                spec: &spec,
                seed: 1,
            },
        )
        .expect("clairvoyant");
        println!(
            "| `{spec}` | {:.1} s | {n} | {:.0} ms | {reason} |",
            wall.as_secs_f64(),
            longest.as_secs_f64() * 1000.0
        );
    }
}

/// Each decision of one spec on one game of the suite, printed (for finding a slow
/// loop).
struct Probe<'a> {
    spec: &'a str,
    seeds: u64,
}

impl VariantVisitor for Probe<'_> {
    type Output = ();
    fn visit<G: Game>(self, _name: &'static str, params: G::Params) {
        let start = G::new(&params);
        for seed in 0..self.seeds {
            for (i, (g, seat)) in budget_suite::positions(&start, 1000 + seed, PLIES)
                .iter()
                .enumerate()
            {
                let mut legal = Vec::new();
                let t = Instant::now();
                g.legal_actions(*seat, &mut legal);
                let listing = t.elapsed();
                let t = Instant::now();
                let mut rng = Pcg64::seed_from_u64(seed);
                let _w = g.sample_world(*seat, &mut rng);
                let sampling = t.elapsed();
                let d = budget_suite::decide::<G>(self.spec, g, *seat, i as u64)
                    .expect("spec")
                    .expect("plays");
                println!(
                    "seed {seed} position {i}: {:.1} ms {:?} ({} actions listed in {:.2} ms, a world sampled in {:.2} ms)",
                    d.time.as_secs_f64() * 1000.0,
                    d.stats,
                    legal.len(),
                    listing.as_secs_f64() * 1000.0,
                    sampling.as_secs_f64() * 1000.0
                );
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--full-game") {
        full_games();
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--probe") {
        // --probe SPEC GAME [SEEDS]
        let spec = &args[i + 1];
        let label = &args[i + 2];
        let seeds = args.get(i + 3).and_then(|s| s.parse().ok()).unwrap_or(2);
        let (_, variant, params) = budget_suite::games()
            .into_iter()
            .find(|g| g.0 == *label)
            .expect("a game of the suite");
        engine::registry::visit(variant, params.as_deref(), Probe { spec, seeds })
            .expect("variant");
        return;
    }
    let out = args
        .first()
        .cloned()
        .unwrap_or_else(|| "results/budgets".into());
    let seeds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let only: Vec<&str> = args.iter().skip(2).map(String::as_str).collect();
    // BUDGETS=25,100 and SPECS="ismcts;pimc:search=alphabeta,worlds=10" (`;`-separated)
    // measure other budgets and spec bases (for restating kept runs).
    let budgets: Vec<u64> = std::env::var("BUDGETS")
        .ok()
        .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![20, 50]);
    let specs: Vec<String> = std::env::var("SPECS")
        .ok()
        .map(|v| v.split(';').map(|x| x.trim().to_string()).collect())
        .unwrap_or_else(|| AGENTS.iter().map(|a| a.to_string()).collect());
    let unbudgeted: &[&str] = if std::env::var("SPECS").is_ok() {
        &[]
    } else {
        UNBUDGETED
    };
    let mut cells = Vec::new();
    let mut raw = vec!["game,agent,time_ms,position,action,ms".to_string()];
    for (label, variant, params) in budget_suite::games() {
        if !only.is_empty() && !only.contains(&label.as_str()) {
            continue;
        }
        let t = Instant::now();
        let (c, r) = engine::registry::visit(
            variant,
            params.as_deref(),
            Measure {
                label: &label,
                seeds,
                budgets: &budgets,
                specs: &specs,
                unbudgeted,
            },
        )
        .expect("variant");
        eprintln!("{label}: {:.1} s", t.elapsed().as_secs_f64());
        cells.extend(c);
        raw.extend(r);
    }
    let mut table = String::new();
    let games: Vec<String> = {
        let mut g: Vec<String> = Vec::new();
        for c in &cells {
            if !g.contains(&c.game) {
                g.push(c.game.clone());
            }
        }
        g
    };
    let mut worst = 0.0f64;
    for &b in &budgets {
        let budget = Duration::from_millis(b);
        writeln!(
            table,
            "\nMean / p99 decision time over the budget, `time_ms={b}` (bound {:.2}):\n",
            bound(budget).as_secs_f64() / budget.as_secs_f64()
        )
        .unwrap();
        writeln!(table, "| agent | {} |", games.join(" | ")).unwrap();
        writeln!(table, "|---|{}", "---:|".repeat(games.len())).unwrap();
        for agent in &specs {
            let mut row = format!("| `{agent}` |");
            for game in &games {
                match cells
                    .iter()
                    .find(|c| c.agent == *agent && c.game == *game && c.budget_ms == b)
                {
                    Some(c) => {
                        let m = mean(&c.times).as_secs_f64() / budget.as_secs_f64();
                        let p = percentile(&c.times, 99.0).as_secs_f64() / budget.as_secs_f64();
                        worst = worst.max(p / (bound(budget).as_secs_f64() / budget.as_secs_f64()));
                        let flag = if percentile(&c.times, 99.0) > bound(budget) {
                            " **over**"
                        } else {
                            ""
                        };
                        write!(row, " {m:.2} / {p:.2}{flag} |").unwrap();
                    }
                    None => row.push_str(" – |"),
                }
            }
            writeln!(table, "{row}").unwrap();
        }
    }
    writeln!(
        table,
        "\nAgents without a budget, mean / p99 decision time in ms:\n\n| agent | {} |\n|---|{}",
        games.join(" | "),
        "---:|".repeat(games.len())
    )
    .unwrap();
    for agent in unbudgeted {
        let mut row = format!("| `{agent}` |");
        for game in &games {
            match cells.iter().find(|c| c.agent == *agent && c.game == *game) {
                Some(c) => write!(
                    row,
                    " {:.1} / {:.1} |",
                    mean(&c.times).as_secs_f64() * 1000.0,
                    percentile(&c.times, 99.0).as_secs_f64() * 1000.0
                )
                .unwrap(),
                None => row.push_str(" – |"),
            }
        }
        writeln!(table, "{row}").unwrap();
    }
    println!("{table}");
    println!(
        "worst p99 against the bound: {worst:.2} (1.00 = at the bound); decisions: {}",
        raw.len() - 1
    );
    std::fs::create_dir_all(&out).expect("out dir");
    std::fs::write(format!("{out}/table.md"), &table).expect("table.md");
    std::fs::write(format!("{out}/decisions.csv"), raw.join("\n") + "\n").expect("csv");
}

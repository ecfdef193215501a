//! `pars`: the par distribution of dealt holes and the share of impossible deals (issue
//! 37's Golf question), which a default course hides by re-dealing until par is in range.
//!
//! `chesslab golf pars --deals N --seed S --out DIR` deals N independent holes, deal i
//! (0-based) with deal seed S + i exactly as `chesslab golf deal --seed S+i` deals it (a
//! fresh set-up laid out by the rules and `--cards` cards from a fresh deck, the seed's
//! 2 by default), and solves each within `--max-nodes` states. Each deal is one of: a
//! proven par; *impossible* (the solver proved no sequence of moves solves it, or a kind
//! was chosen more often than it has pieces); *unknown* (the node limit stopped the
//! search: neither a par nor impossible, kept apart rather than guessed).
//!
//! Written, each through a temporary file and a rename: `DIR/deals.csv` (deal, deal
//! seed, outcome, par, states searched, the problem in the one-line format),
//! `DIR/summary.csv` (per outcome: count, share of all deals and its 95% Wilson score
//! interval) and
//! `DIR/run.json` (command line, version, rules, seed, deals, limits).
//!
//! Decisions: the interval is Wilson's, not the lab's usual ± 1.96 standard errors
//! ([`crate::stats::metrics::Estimate::share`]): the question is about rare outcomes
//! (impossible deals, long pars), and at counts near zero Wilson's interval keeps its
//! coverage (0 of n gives [0, 3.84 / (n + 3.84)], about the rule of three) where the
//! normal one collapses. Deals are independent (each hole from a fresh set-up), not a course where
//! a hole starts from the previous one's final position: the question is about what the
//! deal gives, and a course's holes are correlated. Runs with seeds S and S+1 share all
//! but one deal, so separate samples need seeds at least N apart. A folder that already
//! holds anything is refused without `--force` (`util::check_out_dir`). Ctrl-C stops the run and writes
//! nothing (a sample cut short by hand is not the sample asked for).
//!
//! Tests (`golf::tests`): `pars_are_deterministic_and_replay_as_golf_deal`,
//! `pars_classify_a_book_problem_impossible_and_unknown`, `pars_summary_counts_and_shares`;
//! bad input in `experiments/tests/golf_cli.rs` (`golf_pars_writes_and_refuses_bad_input`).

use super::*;

#[derive(Args, Debug)]
pub struct ParsArgs {
    /// Number of holes dealt (each from a fresh set-up).
    #[arg(long, value_parser = crate::util::any_usize, default_value_t = 1000)]
    pub deals: usize,
    /// Seed of the first deal; deal i has deal seed S + i (as `golf deal --seed`).
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
    /// Cards dealt per hole (default: the parameters' `cards`, the seed's 2).
    #[arg(long, value_parser = crate::util::any_usize)]
    pub cards: Option<usize>,
    /// States searched per deal before it counts as unknown.
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 20_000_000)]
    pub max_nodes: u64,
    /// Output folder (created if needed).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace the deals.csv, summary.csv and run.json of an earlier run in --out.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// What the solver says about one deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum DealOutcome {
    Par(u32),
    Impossible,
    /// The node limit stopped the search.
    Unknown,
}

impl DealOutcome {
    fn name(self) -> &'static str {
        match self {
            DealOutcome::Par(_) => "par",
            DealOutcome::Impossible => "impossible",
            DealOutcome::Unknown => "unknown",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct DealRow {
    pub(super) deal: usize,
    pub(super) seed: u64,
    pub(super) outcome: DealOutcome,
    pub(super) states: u64,
    pub(super) problem: String,
}

/// Solves one problem within `max_nodes` states.
pub(super) fn classify(
    pos: &GolfPosition,
    params: &GolfParams,
    max_nodes: u64,
) -> (DealOutcome, u64) {
    let limits = SolveLimits {
        max_nodes: Some(max_nodes),
        stop: Some(&crate::run::interrupt::INTERRUPTED),
        ..SolveLimits::default()
    };
    let r = solve(pos, params, &limits);
    let outcome = match r.outcome {
        Outcome::Par(p) => DealOutcome::Par(p),
        Outcome::Impossible => DealOutcome::Impossible,
        Outcome::ParAbove(_) => DealOutcome::Unknown,
    };
    (outcome, r.states)
}

/// Deals and solves `deals` holes; `None` when Ctrl-C stopped the run.
pub(super) fn deal_pars(
    params: &GolfParams,
    cards: usize,
    seed: u64,
    deals: usize,
    max_nodes: u64,
) -> Option<Vec<DealRow>> {
    let mut rows = Vec::new();
    for deal in 0..deals {
        let deal_seed = seed.wrapping_add(deal as u64);
        let mut rng = Pcg64::seed_from_u64(deal_seed);
        let pos = random_problem(&mut rng, params, cards);
        let (outcome, states) = classify(&pos, params, max_nodes);
        if interrupted() {
            return None;
        }
        rows.push(DealRow {
            deal,
            seed: deal_seed,
            outcome,
            states,
            problem: pos.to_fen(),
        });
    }
    Some(rows)
}

/// One line of summary.csv: an outcome (`par N`, `impossible`, `unknown`), its count and
/// share with the 95% interval's ends.
#[derive(Debug, PartialEq)]
pub(super) struct SummaryRow {
    pub(super) outcome: String,
    pub(super) count: usize,
    pub(super) share: f64,
    pub(super) low: f64,
    pub(super) high: f64,
}

/// The share `k / n` and its 95% Wilson score interval.
pub(super) fn wilson(k: usize, n: usize) -> (f64, f64, f64) {
    if n == 0 {
        return (f64::NAN, 0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    // At k = 0 (k = n) the lower (upper) end is exactly 0 (1); computed, it comes out a
    // rounding error away from it.
    let low = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (p, low, high)
}

pub(super) fn summary(rows: &[DealRow]) -> Vec<SummaryRow> {
    let mut counts: BTreeMap<DealOutcome, usize> = BTreeMap::new();
    for r in rows {
        *counts.entry(r.outcome).or_default() += 1;
    }
    // Impossible and unknown are listed even when absent: "no impossible deal" is a figure.
    counts.entry(DealOutcome::Impossible).or_default();
    counts.entry(DealOutcome::Unknown).or_default();
    let n = rows.len();
    counts
        .into_iter()
        .map(|(o, k)| {
            let (p, low, high) = wilson(k, n);
            SummaryRow {
                outcome: match o {
                    DealOutcome::Par(p) => format!("par {p}"),
                    other => other.name().to_string(),
                },
                count: k,
                share: p,
                low,
                high,
            }
        })
        .collect()
}

pub(super) fn deals_csv(rows: &[DealRow]) -> String {
    let mut s = String::from("deal,deal_seed,outcome,par,states,problem\n");
    for r in rows {
        let par = match r.outcome {
            DealOutcome::Par(p) => p.to_string(),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "{},{},{},{par},{},{}",
            r.deal,
            r.seed,
            r.outcome.name(),
            r.states,
            r.problem
        );
    }
    s
}

pub(super) fn summary_csv(rows: &[SummaryRow], deals: usize) -> String {
    let mut s = String::from("outcome,deals,share,low,high,of\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{:.3},{:.3},{:.3},{deals}",
            r.outcome, r.count, r.share, r.low, r.high
        );
    }
    s
}

fn write_file(dir: &Path, name: &str, text: &str) -> Result<()> {
    let path = dir.join(name);
    crate::util::replaceable(&path, "")?;
    let tmp = dir.join(format!(".{name}.tmp"));
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))
}

pub(super) fn pars(a: &ParsArgs) -> Result<()> {
    let params = a.rules.params()?;
    let cards = a.cards.unwrap_or(params.cards);
    if !(2..=16).contains(&cards) {
        bail!("--cards must be between 2 and 16 (got {cards})");
    }
    if a.deals == 0 {
        bail!("--deals must be at least 1");
    }
    if a.max_nodes == 0 {
        bail!("--max-nodes must be at least 1 (no deal can be solved with 0 states)");
    }
    crate::util::check_out_dir(
        &a.out,
        "--out",
        &[crate::util::Reuse {
            flag: "--force",
            given: a.force,
            does: "to replace the pars run there",
        }],
    )?;
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("creating --out {}", a.out.display()))?;
    crate::run::interrupt::stop_on_ctrl_c(
        "stopping; nothing is written (Ctrl-C again to stop now)",
        "stopped; nothing was written",
    );
    let started = std::time::Instant::now();
    let rows = deal_pars(&params, cards, a.seed, a.deals, a.max_nodes)
        .ok_or_else(|| anyhow!("interrupted (Ctrl-C); nothing was written"))?;
    let elapsed = started.elapsed();
    let sum = summary(&rows);
    let run = serde_json::json!({
        "command": std::env::args().collect::<Vec<_>>(),
        "chesslab_version": env!("CARGO_PKG_VERSION"),
        "build_commit": env!("CHESSLAB_GIT_HASH"),
        "rules": describe(&params),
        "params_toml": toml::to_string(&params).unwrap_or_default(),
        "cards": cards,
        "deals": a.deals,
        "seed": a.seed,
        "seeding": "deal i: rand_pcg::Pcg64::seed_from_u64(seed + i), then random_problem (a fresh set-up and a fresh deck), as `golf deal --seed`",
        "max_nodes": a.max_nodes,
        "states_searched": rows.iter().map(|r| r.states).sum::<u64>(),
        "seconds": elapsed.as_secs_f64(),
    });
    write_file(&a.out, "deals.csv", &deals_csv(&rows))?;
    write_file(&a.out, "summary.csv", &summary_csv(&sum, rows.len()))?;
    write_file(
        &a.out,
        "run.json",
        &(serde_json::to_string_pretty(&run)? + "\n"),
    )?;
    outln!(
        "{} deals, {cards} cards, {} ({})",
        rows.len(),
        describe(&params),
        fmt_duration(elapsed)
    );
    for r in &sum {
        outln!(
            "  {:<10} {:>6}  {:.3} [{:.3}, {:.3}]",
            r.outcome,
            r.count,
            r.share,
            r.low,
            r.high
        );
    }
    outln!("wrote {}", a.out.join("summary.csv").display());
    Ok(())
}

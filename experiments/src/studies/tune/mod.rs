//! `chesslab tune` (issue 17): moves numeric fields of a variant's parameters toward
//! designer targets by playing games, and ends with the tuned table and the evidence.
//!
//! Inputs: the variant and a base parameter file (`--variant`, `--params`), the space
//! ([`space`]: paths, bounds, integer/real, ties), the targets ([`targets`]: per-game
//! measures and the one loss), agents, and an optimiser: SPSA with the fishtest schedule
//! ([`spsa`]) or CMA-ES ([`cmaes`]). Every input is checked before the first game: an
//! unknown or non-numeric path, reversed bounds, a tally the variant does not have, an
//! invalid base table (`tests::bad_space_files_are_errors_before_any_game`,
//! `tests::bad_targets_are_errors_before_any_game`).
//!
//! A point is played by writing its values into the base table (by path), handing the
//! text to `engine::registry::visit` (which validates it: an invalid point is an error
//! naming the field and the point) and playing `--games` games through
//! [`matches::run`](crate::run::matches::run) (rayon, seeds from one master seed).
//! Iteration k plays every point with game seed `mix(seed, k)`: the + and − sides of an
//! SPSA perturbation, and all samples of a CMA-ES generation, play the same game seeds
//! (common random numbers). The optimiser's own random numbers at iteration k come from
//! a stream seeded by `mix(seed ^ OPT_SALT, k)`. Tallies are taken by the worker from
//! each game's final state (`PlayOptions::tallies`, handed back in
//! `matches::Outcome::tallies`): no game is replayed.
//!
//! The folder (`--out`): `iterations.csv` (one row per played point: iteration, which
//! point, loss, parameter values, target means; and a row `estimate` per iteration with
//! the optimiser's current estimate), `checkpoint.json` (the optimiser state after the
//! last whole iteration and the settings it belongs to), at the end `best.toml` (the
//! full parameter table with the final estimate), `lowest-loss.toml` (the table of the
//! point played with the lowest loss, its parameters as `iterations.csv` records them),
//! `report.md` with the confirmation run
//! (`--confirm-games` games each with the tuned and with the base table, same seeds,
//! every target with its 95% interval), `loss.svg` and `params.svg`.
//!
//! Decisions where the issue is silent:
//! - The unit of every mean and 95% interval is the colour-swapped pair (the mean of its
//!   two games), not the game: the two games of a pair share their random opening, so
//!   a deterministic agent in self-play plays the same game twice, and counting games
//!   would halve the variance. With an odd `--games` the last pair has one game.
//! - The tuned table is the optimiser's final estimate (SPSA's θ, CMA-ES's mean), not
//!   the point with the lowest noisy loss, which would reward luck.
//! - `--resume` continues from the checkpoint; an iteration cut short by Ctrl-C is
//!   played again from its start with the same seeds, so the trajectory equals an
//!   uninterrupted one (`tests::resumed_run_follows_the_same_trajectory`). Settings
//!   differing from the checkpoint's are an error.
//! - `--shard` does not apply: each iteration depends on the previous one, so a run is
//!   not split across machines; games of one iteration run in parallel on one machine.
//! - One agent spec means self-play; two means the pair plays colour-swapped games.
//!   A deterministic agent plays the same game every time from the same start:
//!   `--random-opening-plies N` gives each game (pair) its own random opening, as in
//!   tournaments.
//! - Integer parameters use stochastic rounding by default, or fishtest's rule with
//!   `--rounding fishtest` (see [`spsa`]); CMA-ES points round to nearest.
//! - The tuner's own work per game (target values, loss, optimiser, files) is timed and
//!   its ratio to the game time is written in the report; the whole overhead of a tuning
//!   evaluation against plain games is measured by the criterion bench
//!   `benches/benches/tune_overhead.rs`.
//!
//! The folder may depend on [`crate::run`], [`crate::stats`], [`crate::record`] and
//! [`crate::util`]; never on `cli`, `serve`, `golf` or another study.

pub mod cmaes;
mod finish;
mod plots;
pub mod space;
pub mod spsa;
pub mod targets;

use crate::record::{write_atomic, Row};
use crate::run::interrupt::INTERRUPTED;
use crate::run::matches::{self, Plan, Run, Starts};
use crate::run::variant_args::{read_params_file, VariantArgs};
use crate::util::{mix, split_agents};
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use engine::game::Game;
use engine::registry::{self, VariantVisitor};
use indicatif::{ProgressBar, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};
use space::Space;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;
use targets::Target;

const OPT_SALT: u64 = 0x7E4E_0000_0000_0017;
const CONFIRM_SALT: u64 = 0xC0F1_0000_0000_0017;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
pub enum Optimizer {
    /// Simultaneous perturbation stochastic approximation.
    Spsa,
    /// Covariance matrix adaptation evolution strategy.
    Cmaes,
}

impl Optimizer {
    /// The optimiser's name as reports print it (never the code's `Spsa`, issue 68).
    pub fn name(self) -> &'static str {
        match self {
            Optimizer::Spsa => "SPSA",
            Optimizer::Cmaes => "CMA-ES",
        }
    }
}

#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// The space file (TOML): parameters by path, bounds, int/real, ties.
    #[arg(long)]
    pub space: PathBuf,
    /// The target file (TOML): per-game measures and their goals.
    #[arg(long, alias = "target")]
    pub targets: PathBuf,
    /// Agent specs: one (self-play) or two (colour-swapped pairs). Not with --panel.
    #[arg(
        long,
        default_value = "",
        hide_default_value = true,
        required_unless_present = "panel"
    )]
    pub agents: String,
    /// A panel file (`examples/panels/`, issue 37): every member plays self-play at
    /// every point, each against its own targets (the member's `targets` file, else
    /// --targets), and the loss of a point is the worst member's (minimise the worst
    /// miss).
    #[arg(long)]
    pub panel: Option<PathBuf>,
    /// Games per evaluated point.
    #[arg(long, default_value_t = 50)]
    pub games: u64,
    /// Iterations (SPSA steps or CMA-ES generations).
    #[arg(long, default_value_t = 50)]
    pub iterations: u64,
    /// The optimiser: spsa (simultaneous perturbation, two evaluations per step) or
    /// cmaes (CMA-ES, a population per generation).
    #[arg(long, value_enum, default_value = "spsa")]
    pub optimizer: Optimizer,
    /// SPSA gain `a` (normalised units per unit of loss slope). Keep `a_1 · curvature`
    /// of the loss (in normalised units) below 1, or the steps jump between the bounds.
    #[arg(long, value_parser = crate::util::gain, default_value_t = 0.05)]
    pub spsa_a: f64,
    /// SPSA last perturbation `c_end`, as a fraction of each parameter's range.
    #[arg(long, value_parser = crate::util::range_fraction, default_value_t = 0.1)]
    pub spsa_c: f64,
    /// SPSA stability constant `A` (default: iterations / 10).
    #[arg(long, value_parser = crate::util::gain)]
    pub spsa_big_a: Option<f64>,
    /// SPSA rounding of integer parameters: stochastic (unbiased, the default) or
    /// fishtest (nearest, θ moved by r_k = a_k / c_k² over the nominal distance).
    #[arg(long, value_enum, default_value = "stochastic")]
    pub rounding: spsa::Rounding,
    /// CMA-ES initial step size, as a fraction of each parameter's range.
    #[arg(long, value_parser = crate::util::range_fraction, default_value_t = 0.25)]
    pub cmaes_sigma: f64,
    /// CMA-ES population (default 4 + 3 ln n).
    #[arg(long)]
    pub cmaes_lambda: Option<usize>,
    /// Uniformly random decisions at the start of every game (as `tournament
    /// --random-opening-plies`): the variety a deterministic agent's self-play needs.
    #[arg(long, default_value_t = 0)]
    pub random_opening_plies: u32,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Games in the confirmation run, for each of the tuned and the base table (0: none).
    #[arg(long, default_value_t = 1000)]
    pub confirm_games: u64,
    /// Output folder (a folder that holds anything is refused unless --resume).
    #[arg(long)]
    pub out: PathBuf,
    /// Continue an interrupted run in --out from its checkpoint.
    #[arg(long)]
    pub resume: bool,
}

/// Everything that must match between a run and its resumption.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Settings {
    variant: String,
    params_toml: String,
    space_toml: String,
    targets_toml: String,
    agents: Vec<String>,
    games: u64,
    iterations: u64,
    optimizer: Optimizer,
    spsa: [f64; 3],
    #[serde(default)]
    rounding: spsa::Rounding,
    cmaes_sigma: f64,
    cmaes_lambda: Option<usize>,
    seed: u64,
    #[serde(default)]
    random_opening_plies: u32,
    /// The panel file's text and its members' target files (empty without --panel).
    #[serde(default)]
    panel: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
enum State {
    Spsa(spsa::Spsa),
    Cmaes(cmaes::Cmaes),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Checkpoint {
    settings: Settings,
    state: State,
    /// Iterations finished.
    done: u64,
    csv_lines: Vec<String>,
    game_secs: f64,
    overhead_secs: f64,
    games_played: u64,
}

/// Values of every target per colour-swapped pair (the mean of the pair's games), per
/// member, the games played, and time spent.
struct Played {
    /// Member, then pair, then target.
    values: Vec<Vec<Vec<f64>>>,
    games: u64,
    plies: usize,
    game_secs: f64,
    overhead_secs: f64,
}

/// One player (or pair) whose games a point plays, with its targets: the `--agents`
/// alone (label empty), or a panel member.
struct MemberSetup {
    label: String,
    agents: Vec<String>,
    targets: Vec<Target>,
}

/// Everything read and checked before the first game.
struct Setup {
    variant: String,
    table: toml::Table,
    space: Space,
    members: Vec<MemberSetup>,
    seats: usize,
    threads: usize,
    random_plies: u32,
}

struct Inspect;
impl VariantVisitor for Inspect {
    type Output = Result<(toml::Table, Vec<String>, usize)>;
    fn visit<G: Game>(self, _: &'static str, params: G::Params) -> Self::Output {
        let table = toml::Table::try_from(&params).context("parameters as a table")?;
        let g = G::new(&params);
        let names = g.tallies().into_iter().map(|(n, _)| n).collect();
        Ok((table, names, g.num_seats()))
    }
}

fn setup(args: &TuneArgs) -> Result<Setup> {
    if args.games == 0 || args.iterations == 0 {
        bail!("--games and --iterations must be at least 1");
    }
    let (table, tallies, seats) = args.variant.visit(Inspect)??;
    let space_text = read_params_file(&args.space)?;
    let space = Space::parse(&space_text, &table)
        .with_context(|| format!("space file {}", args.space.display()))?;
    let read_targets = |path: &std::path::Path| -> Result<Vec<Target>> {
        let text = read_params_file(path)?;
        targets::parse(&text, &tallies).with_context(|| format!("target file {}", path.display()))
    };
    let targets = read_targets(&args.targets)?;
    let self_play = |spec: &str| -> Result<Vec<String>> {
        let mut agents = split_agents(spec)?;
        if agents.len() == 1 && seats > 1 {
            agents.push(agents[0].clone());
        }
        if agents.len() > 2 {
            bail!("--agents: give one spec (self-play) or two");
        }
        Ok(agents)
    };
    let members = match &args.panel {
        None => vec![MemberSetup {
            label: String::new(),
            agents: self_play(&args.agents)?,
            targets,
        }],
        Some(path) => {
            if !args.agents.trim().is_empty() {
                bail!("--panel gives the agents; leave out --agents");
            }
            let panel = crate::studies::panel::Panel::load(path)?;
            let mut out = Vec::new();
            for m in &panel.members {
                let agents =
                    self_play(&m.agent).with_context(|| format!("--panel member '{}'", m.label))?;
                for a in &agents {
                    check_agent(&args.variant, a)
                        .with_context(|| format!("--panel member '{}'", m.label))?;
                }
                let targets = match panel.targets_of(m) {
                    Some(p) => {
                        read_targets(&p).with_context(|| format!("--panel member '{}'", m.label))?
                    }
                    None => targets.clone(),
                };
                out.push(MemberSetup {
                    label: m.label.clone(),
                    agents,
                    targets,
                });
            }
            out
        }
    };
    Ok(Setup {
        variant: args.variant.variant.clone(),
        table,
        space,
        members,
        seats,
        threads: args
            .threads
            .unwrap_or_else(rayon::current_num_threads)
            .max(1),
        random_plies: args.random_opening_plies,
    })
}

/// Checks one agent spec against the variant before any game.
fn check_agent(variant: &VariantArgs, spec: &str) -> Result<()> {
    struct Check<'a>(&'a str);
    impl VariantVisitor for Check<'_> {
        type Output = Result<()>;
        fn visit<G: Game>(self, _: &'static str, _: G::Params) -> Result<()> {
            agents::registry::validate::<G>(self.0).map_err(|e| anyhow!(e))
        }
    }
    variant.visit(Check(spec))?
}

struct Eval<'a> {
    setup: &'a Setup,
    games: u64,
    seed: u64,
}

impl VariantVisitor for Eval<'_> {
    type Output = Result<Played>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Result<Played> {
        let mut all = Played {
            values: Vec::new(),
            games: 0,
            plies: 0,
            game_secs: 0.0,
            overhead_secs: 0.0,
        };
        // Every member plays the same game seeds (common random numbers across members).
        for m in &self.setup.members {
            let p = self.member::<G>(name, &params, m)?;
            all.values.extend(p.values);
            all.games += p.games;
            all.plies += p.plies;
            all.game_secs += p.game_secs;
            all.overhead_secs += p.overhead_secs;
        }
        Ok(all)
    }
}

impl Eval<'_> {
    fn member<G: Game>(
        &self,
        name: &'static str,
        params: &G::Params,
        m: &MemberSetup,
    ) -> Result<Played> {
        let s = self.setup;
        let plan = Plan::new(
            m.agents.clone(),
            s.seats,
            false,
            self.games,
            self.seed,
            None,
        )?;
        let starts = Starts {
            games: vec![G::new(params)],
            texts: vec![String::new()],
        };
        let need_tallies = m.targets.iter().any(|t| t.measure.needs_tallies());
        let run = Run {
            variant: name,
            params_digest: "tune",
            starts: &starts,
            threads: s.threads,
            sprt: None,
            options: crate::run::gameplay::PlayOptions {
                tallies: need_tallies,
                random_plies: s.random_plies,
                ..Default::default()
            },
        };
        let mut game_secs = 0.0;
        let sink = |_: &Row, secs: f64| {
            game_secs += secs;
            Ok(())
        };
        let out = matches::run(&plan, &run, BTreeMap::new(), sink, &ProgressBar::hidden())?;
        if let Some(e) = out.error {
            return Err(e);
        }
        if INTERRUPTED.load(Ordering::SeqCst) {
            bail!("interrupted");
        }
        let t0 = Instant::now();
        let none = Vec::new();
        let mut pairs: BTreeMap<u64, (Vec<f64>, f64)> = BTreeMap::new();
        for (i, row) in &out.rows {
            let v = measures(row, out.tallies.get(i).unwrap_or(&none), &m.targets);
            let e = pairs
                .entry(row.pair)
                .or_insert_with(|| (vec![0.0; v.len()], 0.0));
            e.0.iter_mut().zip(&v).for_each(|(a, b)| *a += b);
            e.1 += 1.0;
        }
        let values = pairs
            .into_values()
            .map(|(sum, n)| sum.into_iter().map(|x| x / n).collect())
            .collect();
        Ok(Played {
            overhead_secs: t0.elapsed().as_secs_f64(),
            values: vec![values],
            games: out.rows.len() as u64,
            plies: out.rows.values().map(|r| r.plies).sum(),
            game_secs,
        })
    }
}

/// One game's value of every target, from its row and its final tallies (taken by the
/// worker from the final state: no replay).
fn measures(row: &Row, tallies: &[(String, f64)], targets: &[Target]) -> Vec<f64> {
    let draw = row.returns.iter().all(|r| *r == 0.0);
    let score = (row.returns[0].clamp(-1.0, 1.0) + 1.0) / 2.0;
    targets
        .iter()
        .map(|t| t.measure.value(tallies, score, row.plies, draw))
        .collect()
}

impl Setup {
    /// The parameter text of a raw point.
    fn text(&self, x: &[f64]) -> Result<String> {
        let t = self.space.write(&self.table, x)?;
        toml::to_string(&t).context("writing parameters")
    }

    fn point_label(&self, x: &[f64]) -> String {
        self.space
            .params
            .iter()
            .zip(x)
            .map(|(p, v)| format!("{}={}", p.name, fmt_value(*v, p.integer)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn play(&self, x: &[f64], games: u64, seed: u64) -> Result<Played> {
        let text = self.text(x)?;
        registry::visit(
            &self.variant,
            Some(&text),
            Eval {
                setup: self,
                games,
                seed,
            },
        )
        .map_err(|e| anyhow!(e))
        .with_context(|| format!("the point {}", self.point_label(x)))?
    }

    /// Every (member, target) column: member index, target index, CSV label, target.
    fn columns(&self) -> Vec<(usize, usize, String, &Target)> {
        let mut out = Vec::new();
        for (mi, m) in self.members.iter().enumerate() {
            for (ti, t) in m.targets.iter().enumerate() {
                let label = if m.label.is_empty() {
                    t.label.clone()
                } else {
                    format!("{}:{}", m.label, t.label)
                };
                out.push((mi, ti, label, t));
            }
        }
        out
    }

    /// One column's mean and 95% half-width over the member's pairs.
    fn column(&self, p: &Played, member: usize, target: usize) -> (f64, f64) {
        targets::mean_ci(
            &p.values[member]
                .iter()
                .map(|v| v[target])
                .collect::<Vec<_>>(),
        )
    }

    /// The mean of every column, in [`Setup::columns`] order.
    fn means(&self, p: &Played) -> Vec<f64> {
        self.columns()
            .iter()
            .map(|(m, t, _, _)| self.column(p, *m, *t).0)
            .collect()
    }

    /// The loss of a point from its column means: the worst member's loss (with one
    /// member, that member's).
    fn loss(&self, means: &[f64]) -> f64 {
        let mut at = 0;
        let mut worst = f64::NEG_INFINITY;
        for m in &self.members {
            let n = m.targets.len();
            worst = worst.max(targets::loss(&m.targets, &means[at..at + n]));
            at += n;
        }
        worst
    }

    /// Rounds integers (nearest) and repairs ties.
    fn playable(&self, x: &[f64]) -> Vec<f64> {
        let r: Vec<f64> = x
            .iter()
            .zip(&self.space.params)
            .map(|(v, p)| if p.integer { v.round() } else { *v })
            .collect();
        self.space.repair(&r)
    }
}

/// One evaluation of the base point as the tuner does it (write the point into the
/// table, validate it, play `--games` games with tallies, measure the targets, loss),
/// for the overhead bench (`benches/benches/tune_overhead.rs`), which sets it against
/// the same games played plainly with [`play_plain`].
pub struct Evaluator {
    setup: Setup,
    base: Vec<f64>,
    games: u64,
}

impl Evaluator {
    /// Reads and checks every input of `args`, as a run does before its first game.
    pub fn new(args: &TuneArgs) -> Result<Evaluator> {
        let setup = setup(args)?;
        let base = setup.space.read(&setup.table)?;
        Ok(Evaluator {
            setup,
            base,
            games: args.games,
        })
    }

    /// The loss of the base point over games with seed `seed`.
    pub fn loss(&self, seed: u64) -> Result<f64> {
        Ok(self.loss_and_plies(seed)?.0)
    }

    /// The loss and the plies the games took (the bench checks it plays the same games
    /// as [`play_plain`]).
    pub fn loss_and_plies(&self, seed: u64) -> Result<(f64, usize)> {
        let p = self.setup.play(&self.base, self.games, seed)?;
        Ok((self.setup.loss(&self.setup.means(&p)), p.plies))
    }
}

struct Plain<'a> {
    agents: &'a [String],
    games: u64,
    seed: u64,
    threads: usize,
}

impl VariantVisitor for Plain<'_> {
    type Output = Result<usize>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Result<usize> {
        let start = G::new(&params);
        let plan = Plan::new(
            self.agents.to_vec(),
            start.num_seats(),
            false,
            self.games,
            self.seed,
            None,
        )?;
        let starts = Starts {
            games: vec![start],
            texts: vec![String::new()],
        };
        let run = Run {
            variant: name,
            params_digest: "plain",
            starts: &starts,
            threads: self.threads,
            sprt: None,
            options: crate::run::gameplay::PlayOptions::default(),
        };
        let sink = |_: &Row, _: f64| Ok(());
        let out = matches::run(&plan, &run, BTreeMap::new(), sink, &ProgressBar::hidden())?;
        if let Some(e) = out.error {
            return Err(e);
        }
        Ok(out.rows.values().map(|r| r.plies).sum())
    }
}

/// The games an [`Evaluator`] plays, played plainly through the match machinery (no
/// tallies, no parameter writing, no targets): the baseline of the overhead bench.
/// Returns the plies played.
pub fn play_plain(
    variant: &str,
    params: Option<&str>,
    agents: &[String],
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<usize> {
    let mut agents = agents.to_vec();
    if agents.len() == 1 {
        agents.push(agents[0].clone());
    }
    registry::visit(
        variant,
        params,
        Plain {
            agents: &agents,
            games,
            seed,
            threads,
        },
    )
    .map_err(|e| anyhow!(e))?
}

fn fmt_value(v: f64, integer: bool) -> String {
    if integer {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.4}")
    }
}

/// `chesslab tune`.
pub fn run(args: &TuneArgs) -> Result<()> {
    crate::run::interrupt::stop_on_ctrl_c(
        "stopping after the games in progress (Ctrl-C again to stop now)",
        "stopped; rerun with --resume",
    );
    run_until(args, None)
}

/// The run, stopping after `stop_after` iterations of this session if given (as an
/// interruption would; tests use it).
pub fn run_until(args: &TuneArgs, stop_after: Option<u64>) -> Result<()> {
    // Before anything is read or played: a folder holding anything (kept results among
    // them, issue 68) is written into only by --resume.
    crate::util::check_out_dir(
        &args.out,
        "--out",
        &[crate::util::Reuse {
            flag: "--resume",
            given: args.resume,
            does: "to continue the tuning run there",
        }],
    )?;
    let setup = setup(args)?;
    let base = setup.space.read(&setup.table)?;
    // The base point itself must be valid before any game.
    registry::visit(&setup.variant, Some(&setup.text(&base)?), Inspect)
        .map_err(|e| anyhow!(e))
        .context("the base parameters")??;
    let settings = Settings {
        variant: setup.variant.clone(),
        params_toml: args.variant.params_text()?.unwrap_or_default(),
        space_toml: read_params_file(&args.space)?,
        targets_toml: read_params_file(&args.targets)?,
        agents: setup.members[0].agents.clone(),
        games: args.games,
        iterations: args.iterations,
        optimizer: args.optimizer,
        spsa: [args.spsa_a, args.spsa_c, args.spsa_big_a.unwrap_or(-1.0)],
        rounding: args.rounding,
        cmaes_sigma: args.cmaes_sigma,
        cmaes_lambda: args.cmaes_lambda,
        seed: args.seed,
        random_opening_plies: args.random_opening_plies,
        panel: panel_texts(args)?,
    };
    let ckpt_path = args.out.join("checkpoint.json");
    let mut ck = if args.resume {
        let text = std::fs::read_to_string(&ckpt_path)
            .with_context(|| format!("--resume: cannot read {}", ckpt_path.display()))?;
        let ck: Checkpoint = serde_json::from_str(&text)
            .with_context(|| format!("--resume: {} is not a checkpoint", ckpt_path.display()))?;
        if ck.settings != settings {
            bail!(
                "--resume: the settings differ from those of the run in {}",
                args.out.display()
            );
        }
        ck
    } else {
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))?;
        let u0 = setup.space.to_unit(&base);
        let state = match args.optimizer {
            Optimizer::Spsa => State::Spsa(spsa::Spsa::new(
                u0,
                args.iterations,
                args.spsa_c,
                args.spsa_a,
                args.spsa_big_a,
            )),
            Optimizer::Cmaes => {
                State::Cmaes(cmaes::Cmaes::new(u0, args.cmaes_sigma, args.cmaes_lambda))
            }
        };
        let mut header = vec!["iteration".to_string(), "point".into(), "loss".into()];
        header.extend(setup.space.params.iter().map(|p| p.name.clone()));
        header.extend(setup.columns().into_iter().map(|c| c.2));
        Checkpoint {
            settings,
            state,
            done: 0,
            csv_lines: vec![header.join(",")],
            game_secs: 0.0,
            overhead_secs: 0.0,
            games_played: 0,
        }
    };
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(args.iterations);
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} iterations {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_position(ck.done);
        b
    } else {
        ProgressBar::hidden()
    };
    let mut session = 0;
    while ck.done < args.iterations {
        if stop_after.is_some_and(|s| session >= s) {
            return Ok(());
        }
        let k = ck.done + 1;
        let seed = mix(args.seed, k);
        let mut rng = Pcg64::seed_from_u64(mix(args.seed ^ OPT_SALT, k));
        let mut lines = Vec::new();
        let mut row = |which: &str, loss: Option<f64>, x: &[f64], means: &[f64]| {
            let mut f = vec![k.to_string(), which.to_string()];
            f.push(loss.map(|l| format!("{l:.6}")).unwrap_or_default());
            f.extend(
                x.iter()
                    .zip(&setup.space.params)
                    .map(|(v, p)| fmt_value(*v, p.integer)),
            );
            f.extend(means.iter().map(|m| format!("{m:.6}")));
            lines.push(f.join(","));
        };
        let tally = |p: &Played, ck: &mut Checkpoint| {
            ck.game_secs += p.game_secs;
            ck.overhead_secs += p.overhead_secs;
            ck.games_played += p.games;
        };
        let interrupted = |e: anyhow::Error| -> Result<()> {
            if INTERRUPTED.load(Ordering::SeqCst) {
                eprintln!("interrupted: rerun with --resume to continue from iteration {k}");
                Ok(())
            } else {
                Err(e)
            }
        };
        let mut next = ck.state.clone();
        match &mut next {
            State::Spsa(s) => {
                let probe = s.probe(|| if rng.gen::<bool>() { 1.0 } else { -1.0 });
                let (xp, xm) = (
                    setup.space.from_unit(&probe.plus),
                    setup.space.from_unit(&probe.minus),
                );
                // One rounding draw per parameter, shared by both sides.
                let u: Vec<f64> = setup
                    .space
                    .params
                    .iter()
                    .map(|_| rng.gen::<f64>())
                    .collect();
                let round = |x: &[f64]| -> Vec<f64> {
                    let r: Vec<f64> = x
                        .iter()
                        .zip(&setup.space.params)
                        .zip(&u)
                        .map(|((v, p), u)| match (p.integer, args.rounding) {
                            (false, _) => *v,
                            (true, spsa::Rounding::Stochastic) => (v + u).floor(),
                            (true, spsa::Rounding::Fishtest) => v.round(),
                        })
                        .collect();
                    setup.space.repair(&r)
                };
                let (xp, xm) = (round(&xp), round(&xm));
                let pp = match setup.play(&xp, args.games, seed) {
                    Ok(p) => p,
                    Err(e) => return interrupted(e),
                };
                let pm = match setup.play(&xm, args.games, seed) {
                    Ok(p) => p,
                    Err(e) => return interrupted(e),
                };
                let t0 = Instant::now();
                let (mp, mm) = (setup.means(&pp), setup.means(&pm));
                let (lp, lm) = (setup.loss(&mp), setup.loss(&mm));
                let spread: Vec<f64> = setup
                    .space
                    .to_unit(&xp)
                    .iter()
                    .zip(setup.space.to_unit(&xm))
                    .map(|(a, b)| a - b)
                    .collect();
                match args.rounding {
                    spsa::Rounding::Stochastic => s.update(&probe, lp, lm, &spread),
                    spsa::Rounding::Fishtest => s.update_fishtest(&probe, lp, lm),
                }
                row("plus", Some(lp), &xp, &mp);
                row("minus", Some(lm), &xm, &mm);
                row(
                    "estimate",
                    None,
                    &setup.playable(&setup.space.from_unit(&s.theta)),
                    &[],
                );
                tally(&pp, &mut ck);
                tally(&pm, &mut ck);
                ck.overhead_secs += t0.elapsed().as_secs_f64();
                bar.set_message(format!(
                    "loss {:.3} | {}",
                    (lp + lm) / 2.0,
                    setup.point_label(&setup.playable(&setup.space.from_unit(&s.theta)))
                ));
            }
            State::Cmaes(es) => {
                let samples = es.ask(|| cmaes::normal(&mut rng));
                let mut losses = Vec::new();
                let mut played = Vec::new();
                for (i, u) in samples.iter().enumerate() {
                    let x = setup.playable(&setup.space.from_unit(u));
                    let p = match setup.play(&x, args.games, seed) {
                        Ok(p) => p,
                        Err(e) => return interrupted(e),
                    };
                    let m = setup.means(&p);
                    let l = setup.loss(&m);
                    row(&format!("sample{i}"), Some(l), &x, &m);
                    losses.push(l);
                    played.push(p);
                }
                let t0 = Instant::now();
                es.tell(&samples, &losses);
                let est = setup.playable(&setup.space.from_unit(&es.mean));
                row("estimate", None, &est, &[]);
                for p in &played {
                    tally(p, &mut ck);
                }
                ck.overhead_secs += t0.elapsed().as_secs_f64();
                let best = losses.iter().copied().fold(f64::INFINITY, f64::min);
                bar.set_message(format!(
                    "best loss {best:.3} | {}",
                    setup.point_label(&setup.playable(&est))
                ));
            }
        }
        let t0 = Instant::now();
        ck.state = next;
        ck.done = k;
        ck.csv_lines.extend(lines);
        let mut csv = ck.csv_lines.join("\n");
        csv.push('\n');
        write_atomic(&args.out.join("iterations.csv"), csv.as_bytes())?;
        ck.overhead_secs += t0.elapsed().as_secs_f64();
        write_atomic(&ckpt_path, serde_json::to_string_pretty(&ck)?.as_bytes())?;
        bar.set_position(k);
        if bar.is_hidden() {
            // Off a terminal (a log, CI): one line per iteration instead of the bar.
            eprintln!(
                "iteration {k}/{}: {}",
                args.iterations,
                finish::progress_line(&setup, &ck)
            );
        }
        session += 1;
    }
    bar.finish_and_clear();
    finish::finish(args, &setup, &ck, &base)
}

/// The texts a resumed run must find unchanged: the panel file and its members' target
/// files (nothing without --panel).
fn panel_texts(args: &TuneArgs) -> Result<Vec<String>> {
    let Some(path) = &args.panel else {
        return Ok(Vec::new());
    };
    let panel = crate::studies::panel::Panel::load(path)?;
    let mut out = vec![read_params_file(path)?];
    for m in &panel.members {
        if let Some(p) = panel.targets_of(m) {
            out.push(read_params_file(&p)?);
        }
    }
    Ok(out)
}

/// The final estimate as a raw, playable point.
fn estimate(setup: &Setup, state: &State) -> Vec<f64> {
    let u = match state {
        State::Spsa(s) => &s.theta,
        State::Cmaes(c) => &c.mean,
    };
    setup.playable(&setup.space.from_unit(u))
}

#[cfg(test)]
mod tests;

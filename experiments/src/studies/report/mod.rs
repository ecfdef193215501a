//! `chesslab report` and `chesslab balance`: what a designer balancing a variant wants
//! from a finished run — the first seat's score with a 95% interval, the draw rate, game
//! length, how games end, and the variant's own figures (`Game::tallies`, such as
//! Cassandra's prophecies per rung).
//!
//! The figures come from replaying every recorded game, which also checks the record:
//! a game whose replay ends differently from its row is an error, not a statistic.
//!
//! `balance` is `tournament` followed by `report` on the same folder.
//!
//! Issue 19 adds, beside those figures: the metrics of [`crate::stats::metrics`] (decisiveness,
//! drawishness, duration, first-move advantage, lead changes, drama, each with an
//! interval) and the opening diversity table with its 5% warning; SVG plots beside the
//! report (`report-length.svg`, `report-split-<k>.svg`, [`crate::studies::report::plots`]) embedded
//! in the Markdown; `balance --ladder "A B C"` (self-play of each spec into
//! `<out>/rung-<k>`, then `<out>/report.md` with the first seat's score, draws and length
//! per rung and whether the edge grows, fades or holds, see [`edge_trend`], and
//! `report-ladder.svg`); `balance --compare a.toml b.toml` (the same run under each file
//! into `<out>/a`, `<out>/b`, then a side-by-side table with B − A and its interval); and
//! `report --ladder DIR... / --compare DIR DIR --out FILE` over finished run folders.
//! Bad input is refused before any game: a ladder of one rung, an agent the variant does
//! not accept in a rung, --agents beside --ladder, a --compare file that is not a
//! parameter file of --variant, two compared folders of different variants (tests in
//! `experiments/tests/ladder_cli.rs`: `rule_ladder_bad_input_is_refused_before_play`,
//! `rule_compare_two_rule_sets_and_refuse_another_variants_file`,
//! `rule_ladder_plays_each_rung_and_reads_the_trend`).
//!
//! Decision where the issue is silent: the edge is |score − ½| of the first seat; it
//! "grows" or "fades" when the change from the weakest to the strongest rung has an
//! interval clear of zero, and "changes sides" when both ends are clear of ½ on opposite
//! sides; otherwise the report says no change is detectable.
//!
//! Intervals are normal approximations over games (mean ± 1.96 standard errors). Both
//! games of a colour-swapped pair start alike, so they are not independent samples of
//! an agent's strength; for the first-seat score, the quantity reported here, the swap
//! is what makes the estimate fair, and treating games as independent is the usual
//! (slightly conservative) reading.

use crate::run::interrupt::INTERRUPTED;
use crate::stats::metrics::{Estimate, GameTrace, Metrics};
use crate::record::{self, Row};
use crate::run::replay::{params_for, replay_row, Replayed};
use crate::stats::elo_from_score;
use crate::run::tournament::{self, TournamentArgs};
use crate::util::{out, outln};

pub mod plots;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use engine::game::Game;
use engine::registry::VariantVisitor;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// A path from the command line, the empty one included (see `ReportArgs::games`).
fn any_path(text: &str) -> Result<PathBuf, std::convert::Infallible> {
    Ok(PathBuf::from(text))
}

#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// A games.csv written by `chesslab tournament` or `chesslab balance`.
    // Empty (the default) with --ladder or --compare: clap's own path parser refuses an
    // empty value, even a default one, so this one takes any text.
    #[arg(long, default_value = "", hide_default_value = true,
          value_parser = any_path, required_unless_present_any = ["ladder", "compare"])]
    pub games: PathBuf,
    /// A ladder report over run folders, weakest first (each a balance run of one rung,
    /// such as `balance --ladder` writes); needs --out.
    #[arg(long, num_args = 2.., value_name = "DIR", conflicts_with_all = ["games", "compare"])]
    pub ladder: Vec<PathBuf>,
    /// Two run folders of one variant side by side, each figure with the difference and
    /// its interval; needs --out.
    #[arg(long, num_args = 2, value_name = "DIR", conflicts_with = "games")]
    pub compare: Vec<PathBuf>,
    /// Variant parameters (TOML); default: those recorded in run.json next to the file.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// The Markdown report (default: report.md next to games.csv). The per-game figures
    /// go beside it as tallies.csv. Neither may be an input; with --out, existing files
    /// are replaced only with --force (the default report.md and tallies.csv beside a run
    /// belong to the run and are replaced by a new report).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace an existing --out report (and the tallies.csv beside it).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub options: ReportOptions,
}

/// What to put in a report beyond the standard sections.
#[derive(Args, Debug, Clone, Default)]
pub struct ReportOptions {
    /// A seat's score grouped by the value of a tally, `NAME@SEAT` (repeatable, one table
    /// each). Parts joined by `+` pool into one table: `--split
    /// white_assigned@0+black_assigned@1` gives each assigner's score by the assignment
    /// it made.
    #[arg(long)]
    pub split: Vec<String>,
    /// Report title (default: the variant and the agents).
    #[arg(long)]
    pub title: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct BalanceArgs {
    #[command(flatten)]
    pub run: TournamentArgs,
    #[command(flatten)]
    pub options: ReportOptions,
    /// A strength ladder instead of --agents: agent specs separated by spaces, weakest
    /// first (`"alphabeta:depth=1 alphabeta:depth=2 alphabeta:depth=3"`); each rung is
    /// self-play of its spec, played into `<out>/rung-<k>`, and `<out>/report.md` tells
    /// how the first seat's edge moves with strength.
    #[arg(long, conflicts_with = "compare")]
    pub ladder: Option<String>,
    /// Two parameter files of --variant, played alike (same agents, seeds and openings)
    /// into `<out>/a` and `<out>/b`; `<out>/report.md` puts them side by side.
    #[arg(long, num_args = 2, value_name = "TOML")]
    pub compare: Vec<PathBuf>,
}

/// `chesslab balance`: the tournament, then its report in the same folder.
pub fn run_balance(args: &BalanceArgs) -> Result<()> {
    // Every argument is checked before the first game (the report's too).
    parse_splits(&args.options, Some(&args.run.variant.variant))?;
    if let Some(text) = &args.ladder {
        return run_ladder(args, text);
    }
    if !args.compare.is_empty() {
        return run_compare(args);
    }
    run_one_balance(args)
}

/// One balance run: the tournament, then its report.
fn run_one_balance(args: &BalanceArgs) -> Result<()> {
    tournament::run(&args.run)?;
    if INTERRUPTED.load(Ordering::SeqCst) {
        eprintln!("interrupted: no report written (rerun with --resume to finish)");
        return Ok(());
    }
    let dir = tournament::run_folder(&args.run)?;
    run_report(&ReportArgs {
        games: dir.join("games.csv"),
        ladder: Vec::new(),
        compare: Vec::new(),
        params: args.run.variant.params.clone(),
        out: None,
        force: false,
        options: args.options.clone(),
    })
}

/// Every row's player numbers must name the run's agents: one number, one spec, and,
/// when run.json lists the agents, a number below their count (a hand-edited `5 9` in a
/// two-agent run would otherwise report phantom agents).
fn check_players(rows: &[Row], games: &Path) -> Result<()> {
    let listed: Option<usize> = std::fs::read_to_string(crate::run::replay::run_json_of(games))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v.get("agents").and_then(|a| a.as_array()).map(Vec::len));
    let mut spec_of: BTreeMap<usize, &str> = BTreeMap::new();
    for row in rows {
        for (p, a) in row.players.iter().zip(&row.agents) {
            if let Some(n) = listed {
                if *p >= n {
                    bail!(
                        "{}: game {} names player {p}, but the run has {n} agents (numbered from 0)",
                        games.display(),
                        row.index
                    );
                }
            }
            if let Some(prev) = spec_of.insert(*p, a) {
                if prev != a {
                    bail!(
                        "{}: game {} gives player {p} the spec '{a}', earlier games '{prev}'",
                        games.display(),
                        row.index
                    );
                }
            }
        }
    }
    Ok(())
}

/// The `--split` options, parsed, and their seats checked against the variant's seat
/// count when the variant is known.
fn parse_splits(options: &ReportOptions, variant: Option<&str>) -> Result<Vec<Split>> {
    let splits = options
        .split
        .iter()
        .map(|s| Split::parse(s))
        .collect::<Result<Vec<_>>>()?;
    if let Some(v) = variant {
        let seats = engine::registry::facts(v)
            .with_context(|| format!("variant '{v}'"))?
            .seats;
        for (tally, seat) in splits.iter().flat_map(|s| &s.parts) {
            if *seat >= seats {
                bail!("--split {tally}@{seat}: {v} has {seats} seats (numbered from 0)");
            }
        }
    }
    Ok(splits)
}

/// `chesslab report`.
pub fn run_report(args: &ReportArgs) -> Result<()> {
    if !args.ladder.is_empty() || !args.compare.is_empty() {
        let out = args.out.clone().ok_or_else(|| {
            anyhow!("--ladder and --compare need --out (the Markdown report to write)")
        })?;
        if out.exists() && !args.force {
            bail!("--out {} exists; pass --force to replace it", out.display());
        }
        let runs = if args.ladder.is_empty() {
            &args.compare
        } else {
            &args.ladder
        };
        let figures = runs
            .iter()
            .map(|d| RunFigures::of_folder(d, args.options.title.clone()))
            .collect::<Result<Vec<_>>>()?;
        same_variant(&figures)?;
        return if args.ladder.is_empty() {
            write_compare(&out, &figures[0], &figures[1])
        } else {
            write_ladder(&out, &figures)
        };
    }
    if args.games.as_os_str().is_empty() {
        bail!("--games is needed (or --ladder / --compare with run folders)");
    }
    let splits = parse_splits(&args.options, None)?;
    let md_path = args
        .out
        .clone()
        .unwrap_or_else(|| sibling(&args.games, "report.md"));
    let csv_path = md_path.with_file_name("tallies.csv");
    {
        let run = crate::run::replay::run_json_of(&args.games);
        let inputs = crate::run::replay::inputs_of(&args.games, args.params.as_ref(), &run);
        // Default outputs belong to the run: replaced, but never onto an input.
        let force = args.force || args.out.is_none();
        crate::util::check_output(&md_path, &inputs, force, "--out")?;
        crate::util::check_output(&csv_path, &inputs, force, "--out (its tallies.csv)")?;
        if md_path == csv_path {
            bail!("--out {} would be overwritten by the tallies.csv written beside it; choose another name", md_path.display());
        }
    }
    let plots = PlotNames::beside(&md_path);
    let analysis = analyse(
        &args.games,
        args.params.as_ref(),
        &splits,
        args.options.title.clone(),
        Some(&plots),
    )?;
    let Analysis { report, games, .. } = analysis;
    // The tallies go first: a folder that refuses them refuses the report too, and the
    // message names the path the user gave (or the run's), not only the file beside it.
    let given = match &args.out {
        Some(p) => format!("--out {}", p.display()),
        None => format!("the report beside {}", args.games.display()),
    };
    record::write_atomic(&csv_path, &tallies_csv(&games, &report.tally_names)?)
        .with_context(|| format!("{given}: cannot write its tallies.csv beside it"))?;
    draw_report_plots(&plots, &games, &report, &splits)
        .with_context(|| format!("{given}: cannot draw its plots"))?;
    record::write_atomic(&md_path, report.markdown.as_bytes())
        .with_context(|| format!("{given}: cannot write the report"))?;
    out!("{}", report.summary);
    outln!("report: {}", md_path.display());
    outln!("per-game figures: {}", csv_path.display());
    Ok(())
}

/// The plot files of a report, named after it (`report.md` → `report-length.svg`).
struct PlotNames {
    dir: PathBuf,
    stem: String,
}

impl PlotNames {
    fn beside(md: &Path) -> PlotNames {
        PlotNames {
            dir: md.parent().unwrap_or(Path::new(".")).to_path_buf(),
            stem: md
                .file_stem()
                .map_or("report".into(), |s| s.to_string_lossy().into_owned()),
        }
    }
    fn name(&self, what: &str) -> String {
        format!("{}-{what}.svg", self.stem)
    }
    fn path(&self, what: &str) -> PathBuf {
        self.dir.join(self.name(what))
    }
}

/// A run's report and what it was computed from.
struct Analysis {
    report: Report,
    games: Vec<GameFigures>,
    metrics: Metrics,
    variant: String,
    digest: String,
}

/// Loads, checks and replays a games.csv, and computes its report (plots named by
/// `plots` are referenced from the Markdown, not drawn).
fn analyse(
    games_path: &Path,
    params_file: Option<&PathBuf>,
    splits: &[Split],
    title: Option<String>,
    plots: Option<&PlotNames>,
) -> Result<Analysis> {
    let loaded = record::load(games_path)?;
    if loaded.rows.is_empty() {
        bail!("{} holds no finished games", games_path.display());
    }
    if let Some(v) = loaded
        .rows
        .iter()
        .find(|r| r.variant != loaded.rows[0].variant)
    {
        bail!(
            "{} mixes variants ({} and {})",
            games_path.display(),
            loaded.rows[0].variant,
            v.variant
        );
    }
    let variant = loaded.rows[0].variant.clone();
    let split_options = ReportOptions {
        split: splits
            .iter()
            .map(|s| {
                s.parts
                    .iter()
                    .map(|(t, seat)| format!("{t}@{seat}"))
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect(),
        title: None,
    };
    parse_splits(&split_options, Some(&variant))?;
    check_players(&loaded.rows, games_path)?;
    let params = params_for(games_path, params_file)?;
    let replayed = loaded
        .rows
        .par_iter()
        .map(|row| {
            let r = replay_row(row, params.as_deref(), false)
                .with_context(|| format!("replaying game {}", row.index))?;
            // The message shows result, reason and returns side by side, so the field
            // that differs (often only the returns) is visible.
            if let Some(why) = crate::run::replay::contradiction(row, &r) {
                bail!(
                    "game {}: the replay contradicts the record: {why}",
                    row.index
                );
            }
            Ok(r)
        })
        .collect::<Result<Vec<Replayed>>>()?;
    let evals = eval_traces(&variant, params.as_deref(), &loaded.rows)?;
    let traces: Vec<GameTrace> = loaded
        .rows
        .iter()
        .zip(&replayed)
        .zip(evals)
        .map(|((row, r), evals)| {
            let mut line = crate::stats::metrics::opening_tokens(&row.opening);
            line.extend(row.actions.split_whitespace().map(str::to_string));
            GameTrace {
                first_return: r.returns[0],
                returns: r.returns.clone(),
                plies: r.plies,
                evals,
                line,
            }
        })
        .collect();
    let metrics = crate::stats::metrics::compute(&traces);
    let games: Vec<GameFigures> = loaded
        .rows
        .iter()
        .zip(replayed)
        .map(|(row, r)| GameFigures::new(row, r))
        .collect();
    let mut report = Report::new(&loaded.rows[0], &games, splits, title, &metrics, plots);
    if loaded.truncated_tail {
        // Said in the report and on the terminal: the torn last line is not a game.
        let note = format!(
            "Skipped: the last line of {} has no line end (a write cut short), so it is not counted; {} complete games are reported (`tournament --resume` finishes such a run).\n\n",
            games_path.display(),
            loaded.rows.len()
        );
        if let Some(at) = report.markdown.find("\n\n") {
            report.markdown.insert_str(at + 2, &note);
        }
        eprintln!("note: {}", note.trim_end());
    }
    for (tally, seat) in splits.iter().flat_map(|s| &s.parts) {
        if !report.tally_names.contains(tally) {
            bail!(
                "--split {tally}@{seat}: no game has a tally '{tally}' (this run's tallies: {}); nothing written",
                if report.tally_names.is_empty() {
                    "none".to_string()
                } else {
                    report.tally_names.join(", ")
                }
            );
        }
    }
    Ok(Analysis {
        report,
        games,
        metrics,
        digest: loaded.rows[0].params_digest.clone(),
        variant,
    })
}

/// `material(0)` at each game's start and after each of its actions.
fn eval_traces(variant: &str, params: Option<&str>, rows: &[Row]) -> Result<Vec<Vec<f64>>> {
    struct Traces<'a>(&'a [Row]);
    impl VariantVisitor for Traces<'_> {
        type Output = Result<Vec<Vec<f64>>>;
        fn visit<G: Game>(self, _name: &'static str, params: G::Params) -> Self::Output {
            self.0
                .par_iter()
                .map(|row| {
                    let mut game: G = if row.opening.is_empty() {
                        G::new(&params)
                    } else {
                        crate::run::openings::start_of(&params, &row.opening)?
                    };
                    let mut evals = vec![game.material(0)];
                    for a in row.actions.split_whitespace() {
                        game = engine::game::replay(game, &[a])
                            .map_err(|e| anyhow!(e))
                            .with_context(|| format!("game {}: action {a}", row.index))?;
                        evals.push(game.material(0));
                    }
                    Ok(evals)
                })
                .collect()
        }
    }
    engine::registry::visit(variant, params, Traces(rows))
        .with_context(|| format!("variant '{variant}'"))?
}

/// The report's plots: the length histogram and one chart per split.
fn draw_report_plots(
    plots: &PlotNames,
    games: &[GameFigures],
    report: &Report,
    splits: &[Split],
) -> Result<()> {
    let lengths: Vec<usize> = games.iter().map(|g| g.plies).collect();
    crate::studies::report::plots::length_histogram(&plots.path("length"), &lengths, "recorded actions")?;
    for (i, sp) in splits.iter().enumerate() {
        let groups = split_groups(games, sp);
        let points: Vec<(String, Estimate)> = groups
            .iter()
            .map(|(k, xs)| (k.clone(), Estimate::of(xs)))
            .collect();
        let title = sp
            .parts
            .iter()
            .map(|(t, s)| format!("{}'s score by {t}", report.seat_name(*s)))
            .collect::<Vec<_>>()
            .join(", ");
        crate::studies::report::plots::split(&plots.path(&format!("split-{}", i + 1)), &title, &points)?;
    }
    Ok(())
}

/// Scores of a split's seat(s) grouped by the tally's value.
fn split_groups(games: &[GameFigures], sp: &Split) -> BTreeMap<String, Vec<f64>> {
    let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (tally, seat) in &sp.parts {
        for g in games {
            if let Some(v) = g.tally_group(tally) {
                groups.entry(v).or_default().push(g.score(*seat));
            }
        }
    }
    groups
}

fn sibling(path: &Path, name: &str) -> PathBuf {
    path.parent().unwrap_or(Path::new(".")).join(name)
}

/// `--split NAME@SEAT[+NAME@SEAT...]`: one table of a seat's score grouped by a tally's
/// value; several parts joined by `+` pool their games into that one table.
#[derive(Clone, Debug, PartialEq)]
struct Split {
    parts: Vec<(String, usize)>,
}

impl Split {
    fn parse(text: &str) -> Result<Split> {
        let parts = text
            .split('+')
            .map(|part| {
                let (name, seat) = part.split_once('@').ok_or_else(|| {
                    anyhow!("--split '{text}': expected NAME@SEAT, e.g. white_assigned@0")
                })?;
                let seat = seat
                    .parse::<usize>()
                    .map_err(|_| anyhow!("--split '{text}': seat '{seat}' is not a number"))?;
                if name.is_empty() {
                    bail!("--split '{text}': no tally name");
                }
                Ok((name.to_string(), seat))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Split { parts })
    }
}

/// One game as the report sees it.
struct GameFigures {
    index: u64,
    players: Vec<usize>,
    agents: Vec<String>,
    returns: Vec<f64>,
    reason: String,
    plies: usize,
    tallies: Vec<(String, f64)>,
    tally_labels: Vec<(String, String)>,
    seat_names: Vec<String>,
    cooperative: bool,
}

impl GameFigures {
    fn new(row: &Row, r: Replayed) -> GameFigures {
        GameFigures {
            index: row.index,
            players: row.players.clone(),
            agents: row.agents.clone(),
            returns: r.returns,
            reason: r.reason,
            plies: r.plies,
            tallies: r.tallies,
            tally_labels: r.tally_labels,
            seat_names: r.seat_names,
            cooperative: r.cooperative,
        }
    }

    /// A seat's score: 1 win, ½ draw, 0 loss (returns are in [-1, 1]).
    fn score(&self, seat: usize) -> f64 {
        (self.returns[seat] + 1.0) / 2.0
    }

    fn tally(&self, name: &str) -> Option<f64> {
        self.tallies.iter().find(|(n, _)| n == name).map(|t| t.1)
    }

    /// The tally's value as a split groups it: its label where the variant gives one.
    fn tally_group(&self, name: &str) -> Option<String> {
        let v = self.tally(name)?;
        Some(
            self.tally_labels
                .iter()
                .find(|(n, _)| n == name)
                .map_or_else(|| fmt_num(v), |(_, l)| l.clone()),
        )
    }
}

/// Mean and the half-width of its 95% interval.
fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// The `q` quantile of sorted values (nearest rank).
fn quantile(sorted: &[usize], q: f64) -> usize {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn fmt_num(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:.3}")
    }
}

fn fmt_score(mean: f64, half: f64) -> String {
    if half.is_nan() {
        format!("{mean:.3}")
    } else {
        format!("{mean:.3} ± {half:.3}")
    }
}

fn fmt_elo(mean: f64, half: f64) -> String {
    // Rounded first, so a tiny negative prints as +0, not -0.
    let elo = |p: f64| elo_from_score(p.clamp(0.001, 0.999)).round() + 0.0;
    if half.is_nan() {
        return format!("{:+}", elo(mean));
    }
    format!(
        "{:+} [{:+}, {:+}]",
        elo(mean),
        elo(mean - half),
        elo(mean + half)
    )
}

struct Report {
    markdown: String,
    summary: String,
    tally_names: Vec<String>,
    seat_names: Vec<String>,
}

impl Report {
    fn seat_name(&self, seat: usize) -> String {
        self.seat_names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    fn new(
        first: &Row,
        games: &[GameFigures],
        splits: &[Split],
        title: Option<String>,
        metrics: &Metrics,
        plots: Option<&PlotNames>,
    ) -> Report {
        let n = games.len();
        let seats = games[0].returns.len();
        let seat_names = &games[0].seat_names;
        let mut specs: BTreeMap<usize, String> = BTreeMap::new();
        for g in games {
            for (p, a) in g.players.iter().zip(&g.agents) {
                specs.entry(*p).or_insert_with(|| a.clone());
            }
        }
        let agent_list = specs.values().cloned().collect::<Vec<_>>().join(" vs ");
        let title = title.unwrap_or_else(|| format!("{}: {}", first.variant, agent_list));
        let mut md = String::new();
        let _ = writeln!(md, "# Balance report — {title}\n");
        let _ = writeln!(
            md,
            "{n} games of `{}` (parameter digest `{}`), agents {}. Every game was replayed \
             from its record in `games.csv` and ended as recorded.\n",
            first.variant, first.params_digest, agent_list
        );

        if games[0].cooperative {
            team_section(&mut md, games);
        }
        // First seat (for a cooperative game the team's, since every seat shares it).
        let first_scores: Vec<f64> = games.iter().map(|g| g.score(0)).collect();
        let (m, h) = mean_ci(&first_scores);
        let wins = games.iter().filter(|g| g.returns[0] > 0.0).count();
        let losses = games.iter().filter(|g| g.returns[0] < 0.0).count();
        let draws = n - wins - losses;
        let draw_rate = draws as f64 / n as f64;
        let first_name = seat_names
            .first()
            .cloned()
            .unwrap_or_else(|| "seat 0".into());
        let _ = writeln!(md, "## First seat ({first_name})\n");
        let _ = writeln!(md, "| figure | value |\n|---|---|");
        let _ = writeln!(
            md,
            "| {first_name}'s score (95% interval) | {} |",
            fmt_score(m, h)
        );
        let _ = writeln!(md, "| as an Elo difference | {} |", fmt_elo(m, h));
        let _ = writeln!(
            md,
            "| {first_name} wins / draws / losses | {wins} / {draws} / {losses} |"
        );
        let _ = writeln!(md, "| draw rate | {:.1}% |", 100.0 * draw_rate);
        if seats > 2 {
            let _ = writeln!(
                md,
                "\nWith {seats} seats, {first_name}'s score is its team's (partners share returns)."
            );
        }
        let _ = writeln!(md);

        // Agents.
        let _ = writeln!(md, "## Agents\n");
        let _ = writeln!(
            md,
            "| agent | games | score (95% interval) | strength (Elo, 95%) |\n|---|---|---|---|"
        );
        let duplicated = |spec: &String| specs.values().filter(|s| *s == spec).count() > 1;
        for (p, spec) in &specs {
            let xs: Vec<f64> = games
                .iter()
                .filter_map(|g| {
                    let seats: Vec<usize> = (0..g.players.len())
                        .filter(|&s| g.players[s] == *p)
                        .collect();
                    (!seats.is_empty()).then(|| {
                        seats.iter().map(|&s| g.score(s)).sum::<f64>() / seats.len() as f64
                    })
                })
                .collect();
            let (am, ah) = mean_ci(&xs);
            let name = if duplicated(spec) {
                format!("`{spec}` (agent {p})")
            } else {
                format!("`{spec}`")
            };
            let _ = writeln!(
                md,
                "| {name} | {} | {} | {} |",
                xs.len(),
                fmt_score(am, ah),
                crate::stats::strength::cell(spec)
            );
        }
        let _ = writeln!(
            md,
            "\nStrength: {}; measured agents only, `*` = measured without the `noise` \
             setting. It says how well the search plays orthodox chess, not this variant.\n",
            crate::stats::strength::SCALE
        );

        // Length.
        let mut plies: Vec<usize> = games.iter().map(|g| g.plies).collect();
        plies.sort_unstable();
        let mean_plies = plies.iter().sum::<usize>() as f64 / n as f64;
        let _ = writeln!(
            md,
            "## Game length\n\nIn recorded actions: moves, plus chance outcomes and the \
             further decisions of compound turns where the variant has them.\n"
        );
        let _ = writeln!(
            md,
            "| mean | median | 10% | 90% | min | max |\n|---|---|---|---|---|---|"
        );
        let _ = writeln!(
            md,
            "| {mean_plies:.1} | {} | {} | {} | {} | {} |\n",
            quantile(&plies, 0.5),
            quantile(&plies, 0.1),
            quantile(&plies, 0.9),
            plies[0],
            plies[n - 1]
        );
        if let Some(p) = plots {
            let _ = writeln!(md, "![game length]({})\n", p.name("length"));
        }

        metrics_section(&mut md, metrics);

        // Terminations.
        let mut reasons: BTreeMap<&str, Vec<&GameFigures>> = BTreeMap::new();
        for g in games {
            reasons.entry(g.reason.as_str()).or_default().push(g);
        }
        let mut reasons: Vec<_> = reasons.into_iter().collect();
        reasons.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
        let _ = writeln!(md, "## How games end\n");
        let _ = writeln!(
            md,
            "| reason | games | share | {first_name}'s score in them |\n|---|---|---|---|"
        );
        for (reason, gs) in &reasons {
            let s = gs.iter().map(|g| g.score(0)).sum::<f64>() / gs.len() as f64;
            let _ = writeln!(
                md,
                "| {reason} | {} | {:.1}% | {s:.3} |",
                gs.len(),
                100.0 * gs.len() as f64 / n as f64
            );
        }
        let _ = writeln!(md);

        // Tallies.
        let mut tally_names: Vec<String> = Vec::new();
        for g in games {
            for (name, _) in &g.tallies {
                if !tally_names.contains(name) {
                    tally_names.push(name.clone());
                }
            }
        }
        if !tally_names.is_empty() {
            let _ = writeln!(md, "## The variant's own figures (per game)\n");
            let _ = writeln!(
                md,
                "| figure | mean (95% interval) | min | max | games where > 0 |\n|---|---|---|---|---|"
            );
            for name in &tally_names {
                let xs: Vec<f64> = games.iter().filter_map(|g| g.tally(name)).collect();
                let (tm, th) = mean_ci(&xs);
                let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
                let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let positive = xs.iter().filter(|&&x| x > 0.0).count();
                let _ = writeln!(
                    md,
                    "| `{name}` | {} | {} | {} | {positive} |",
                    if th.is_nan() {
                        format!("{tm:.3}")
                    } else {
                        format!("{tm:.3} ± {th:.3}")
                    },
                    fmt_num(min),
                    fmt_num(max)
                );
            }
            let _ = writeln!(md, "\nPer-game values: `tallies.csv`.\n");
        }

        // Splits.
        for (i, sp) in splits.iter().enumerate() {
            let groups = split_groups(games, sp);
            let seat_name = |seat: usize| {
                seat_names
                    .get(seat)
                    .cloned()
                    .unwrap_or_else(|| format!("seat {seat}"))
            };
            let who = if let [(tally, seat)] = sp.parts.as_slice() {
                let _ = writeln!(md, "## {}'s score by `{tally}`\n", seat_name(*seat));
                seat_name(*seat)
            } else {
                let names: Vec<String> = sp
                    .parts
                    .iter()
                    .map(|(t, s)| format!("{}'s score by `{t}`", seat_name(*s)))
                    .collect();
                let _ = writeln!(md, "## Pooled: {}\n", names.join(", "));
                "the seat".to_string()
            };
            split_table(&mut md, &groups, &who);
            if let Some(p) = plots {
                let _ = writeln!(
                    md,
                    "![score by tally]({})\n",
                    p.name(&format!("split-{}", i + 1))
                );
            }
        }

        let summary = if games[0].cooperative {
            let returns: Vec<f64> = games.iter().map(|g| g.returns[0]).collect();
            let (rm, rh) = mean_ci(&returns);
            let scores: Vec<f64> = games.iter().filter_map(|g| g.tally("score")).collect();
            let score = if scores.len() == n {
                let (sm, sh) = mean_ci(&scores);
                format!(", score {}", fmt_score(sm, sh))
            } else {
                String::new()
            };
            format!(
                "{n} games (cooperative); team return {}{score}, mean length {mean_plies:.1}\n",
                fmt_score(rm, rh)
            )
        } else {
            format!(
                "{n} games; {first_name} scores {} ({}), draws {:.1}%, mean length {mean_plies:.1}\n",
                fmt_score(m, h),
                fmt_elo(m, h),
                100.0 * draw_rate
            )
        };
        Report {
            markdown: md,
            summary,
            tally_names,
            seat_names: seat_names.clone(),
        }
    }
}

/// The Ludii-style metrics and the opening diversity of a run ([`crate::stats::metrics`]).
fn metrics_section(md: &mut String, m: &Metrics) {
    let _ = writeln!(
        md,
        "## Metrics (95% intervals)\n\nDefinitions after Ludii's metrics (Browne's criteria); \
         lead changes and drama read the material balance after every action \
         (see `experiments/src/metrics.rs`).\n"
    );
    let _ = writeln!(md, "| metric | value |\n|---|---|");
    for (name, e, pct) in m.rows() {
        let v = match e {
            None => "no evaluation (no material in this variant, or no decisive game)".into(),
            Some(e) if pct => e.fmt_pct(),
            Some(e) => e.fmt(3),
        };
        let _ = writeln!(md, "| {name} | {v} |");
    }
    let _ = writeln!(md);
    let _ = writeln!(
        md,
        "## Opening diversity\n\nDistinct lines (the opening, then the recorded actions) after \
         the first 4, 8 and 16 actions, and the share of games in the most common one.\n"
    );
    let _ = writeln!(
        md,
        "| after | distinct lines | most common line's share |\n|---|---|---|"
    );
    for d in m.diversity.iter().chain(std::iter::once(&m.whole)) {
        let after = if d.plies == 0 {
            "the whole game".to_string()
        } else {
            format!("{} actions", d.plies)
        };
        let _ = writeln!(
            md,
            "| {after} | {} of {} | {} |",
            d.distinct,
            m.games,
            d.top.fmt_pct()
        );
    }
    let _ = writeln!(md);
    let warnings = m.warnings();
    for w in &warnings {
        let _ = writeln!(md, "**Warning:** {w}.\n");
        eprintln!("warning: {w}");
    }
}

/// A finished run's figures, for ladders and comparisons.
struct RunFigures {
    label: String,
    dir: PathBuf,
    variant: String,
    digest: String,
    agents: String,
    /// The agents' measured chess strength ([`crate::stats::strength`]), one cell per agent.
    strength: String,
    seat0: String,
    metrics: Metrics,
}

impl RunFigures {
    /// Replays a run folder's games.csv (its own report is not rewritten).
    fn of_folder(dir: &Path, title: Option<String>) -> Result<RunFigures> {
        let games = dir.join("games.csv");
        let a = analyse(&games, None, &[], title, None)
            .with_context(|| format!("run folder {}", dir.display()))?;
        let mut agents: Vec<String> = a.games.iter().flat_map(|g| g.agents.clone()).collect();
        agents.sort();
        agents.dedup();
        let mut cells: Vec<String> = agents.iter().map(|a| crate::stats::strength::cell(a)).collect();
        cells.dedup();
        Ok(RunFigures {
            strength: cells.join(" vs "),
            label: dir
                .file_name()
                .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into()),
            dir: dir.to_path_buf(),
            digest: a.digest,
            agents: agents.join(" vs "),
            seat0: a.report.seat_name(0),
            metrics: a.metrics,
            variant: a.variant,
        })
    }
}

/// Ladders and comparisons are within one variant.
fn same_variant(runs: &[RunFigures]) -> Result<()> {
    if let Some(other) = runs.iter().find(|r| r.variant != runs[0].variant) {
        bail!(
            "{} is a run of {} but {} is a run of {}: a ladder or a comparison needs one variant",
            runs[0].dir.display(),
            runs[0].variant,
            other.dir.display(),
            other.variant
        );
    }
    Ok(())
}

/// What the change of the first seat's edge from the weakest to the strongest rung says.
pub fn edge_trend(first: &Estimate, last: &Estimate) -> (Estimate, &'static str) {
    let e0 = (first.mean - 0.5).abs();
    let e1 = (last.mean - 0.5).abs();
    let change = Estimate {
        mean: e1 - e0,
        half: (first.half.powi(2) + last.half.powi(2)).sqrt(),
    };
    let level = |e: &Estimate| !e.half.is_nan() && (e.mean - 0.5).abs() <= e.half;
    let verdict = if (first.mean - 0.5) * (last.mean - 0.5) < 0.0 && !level(first) && !level(last) {
        "changes sides: the edge passes to the other seat as play gets stronger"
    } else if change.clear_of_zero() && change.mean > 0.0 {
        "grows with strength: the imbalance looks like a property of the rules that better play exploits"
    } else if change.clear_of_zero() && change.mean < 0.0 {
        "fades with strength: better play neutralises it"
    } else if level(first) && level(last) {
        "is not detectable at either end of the ladder"
    } else {
        "does not change detectably between the weakest and the strongest rung"
    };
    (change, verdict)
}

fn write_ladder(out: &Path, runs: &[RunFigures]) -> Result<()> {
    let seat = runs[0].seat0.clone();
    let mut md = String::new();
    let _ = writeln!(md, "# Strength ladder — {}\n", runs[0].variant);
    let _ = writeln!(
        md,
        "The same rule set at each strength, weakest first: every rung is self-play of its \
         agent (colour-swapped pairs), replayed from its `games.csv`. Intervals are 95%.\n"
    );
    let _ = writeln!(
        md,
        "| rung | agents | chess Elo | games | {seat}'s score | draws | decisive | length | lead changes / action | drama | distinct 8-action lines |\n|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for r in runs {
        let m = &r.metrics;
        let _ = writeln!(
            md,
            "| [{}]({}/report.md) | `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.label,
            r.label,
            r.agents,
            r.strength,
            m.games,
            m.first_move_advantage.fmt(3),
            m.drawishness.fmt_pct(),
            m.decisiveness.fmt_pct(),
            m.duration.fmt(1),
            m.lead_changes.map_or("–".into(), |e| e.fmt(3)),
            m.drama.map_or("–".into(), |e| e.fmt_pct()),
            m.diversity[1].distinct
        );
    }
    let _ = writeln!(
        md,
        "\nchess Elo: {} (`*`: measured without the `noise` setting; `—`: not measured).",
        crate::stats::strength::SCALE
    );
    let first = &runs[0].metrics;
    let last = &runs[runs.len() - 1].metrics;
    let (change, verdict) = edge_trend(&first.first_move_advantage, &last.first_move_advantage);
    let draws = first.drawishness.diff(&last.drawishness);
    let length = first.duration.diff(&last.duration);
    let _ = writeln!(md, "\n## Reading\n");
    let _ = writeln!(
        md,
        "From `{}` to `{}`, {seat}'s edge (|score − ½|) moves by {} and {verdict}. \
         The draw rate moves by {} points, the mean length by {} actions.\n",
        runs[0].label,
        runs[runs.len() - 1].label,
        change.fmt(3),
        Estimate {
            mean: 100.0 * draws.mean,
            half: 100.0 * draws.half
        }
        .fmt(1),
        length.fmt(1)
    );
    let plots = PlotNames::beside(out);
    let points: Vec<(String, Estimate)> = runs
        .iter()
        .map(|r| (r.label.clone(), r.metrics.first_move_advantage))
        .collect();
    crate::studies::report::plots::ladder(&plots.path("ladder"), &points, &seat)?;
    let _ = writeln!(md, "![{seat}'s score by rung]({})\n", plots.name("ladder"));
    for r in runs {
        for w in r.metrics.warnings() {
            let _ = writeln!(md, "**Warning ({}):** {w}.\n", r.label);
        }
    }
    record::write_atomic(out, md.as_bytes())
        .with_context(|| format!("cannot write --out {}", out.display()))?;
    outln!(
        "ladder of {} rungs: {seat}'s edge {verdict} (change {})",
        runs.len(),
        change.fmt(3)
    );
    outln!("report: {}", out.display());
    Ok(())
}

fn write_compare(out: &Path, a: &RunFigures, b: &RunFigures) -> Result<()> {
    let seat = a.seat0.clone();
    let mut md = String::new();
    let _ = writeln!(md, "# Rule sets compared — {}\n", a.variant);
    let _ = writeln!(
        md,
        "A: [{}]({}/report.md) (parameter digest `{}`, agents `{}`), B: [{}]({}/report.md) \
         (digest `{}`, agents `{}`). Each figure with its 95% interval; B − A with the \
         interval of a difference of independent runs.\n",
        a.label, a.label, a.digest, a.agents, b.label, b.label, b.digest, b.agents
    );
    let _ = writeln!(md, "| figure | A | B | B − A |\n|---|---|---|---|");
    let rows = a.metrics.rows().into_iter().zip(b.metrics.rows());
    for ((name, ea, pct), (_, eb, _)) in rows {
        let f = |e: &Estimate| if pct { e.fmt_pct() } else { e.fmt(3) };
        let (ta, tb) = (
            ea.as_ref().map_or("–".into(), f),
            eb.as_ref().map_or("–".into(), f),
        );
        let d = match (ea, eb) {
            (Some(x), Some(y)) => {
                let d = x.diff(&y);
                let text = if pct {
                    format!("{:+.1} ± {:.1} points", 100.0 * d.mean, 100.0 * d.half)
                } else {
                    format!("{:+.3} ± {:.3}", d.mean, d.half)
                };
                if d.clear_of_zero() {
                    format!("**{text}**")
                } else {
                    text
                }
            }
            _ => "–".into(),
        };
        let _ = writeln!(md, "| {name} | {ta} | {tb} | {d} |");
    }
    let (ma, mb) = (&a.metrics.diversity[1], &b.metrics.diversity[1]);
    let _ = writeln!(
        md,
        "| distinct 8-action lines | {} of {} | {} of {} | |",
        ma.distinct, a.metrics.games, mb.distinct, b.metrics.games
    );
    let _ = writeln!(
        md,
        "\nDifferences in bold have intervals that exclude zero. {seat}'s score is the \
         first-move advantage.\n"
    );
    for (r, tag) in [(a, "A"), (b, "B")] {
        for w in r.metrics.warnings() {
            let _ = writeln!(md, "**Warning ({tag}):** {w}.\n");
        }
    }
    record::write_atomic(out, md.as_bytes())
        .with_context(|| format!("cannot write --out {}", out.display()))?;
    let d = a
        .metrics
        .first_move_advantage
        .diff(&b.metrics.first_move_advantage);
    outln!(
        "{seat}'s score: A {}, B {}, B − A {}",
        a.metrics.first_move_advantage.fmt(3),
        b.metrics.first_move_advantage.fmt(3),
        d.fmt(3)
    );
    outln!("report: {}", out.display());
    Ok(())
}

/// The rungs of `--ladder`: at least two specs, each an agent this variant accepts.
fn ladder_rungs(variant: &str, params: Option<&str>, text: &str) -> Result<Vec<String>> {
    let rungs: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if rungs.len() < 2 {
        bail!(
            "--ladder '{text}': a ladder needs at least two rungs (agent specs separated by spaces), got {}",
            rungs.len()
        );
    }
    struct Check<'a>(&'a [String]);
    impl VariantVisitor for Check<'_> {
        type Output = Result<()>;
        fn visit<G: Game>(self, _name: &'static str, _params: G::Params) -> Result<()> {
            for (k, spec) in self.0.iter().enumerate() {
                agents::registry::validate::<G>(spec)
                    .map_err(|e| anyhow!(e))
                    .with_context(|| format!("--ladder rung {} '{spec}'", k + 1))?;
            }
            Ok(())
        }
    }
    engine::registry::visit(variant, params, Check(&rungs))
        .with_context(|| format!("variant '{variant}'"))??;
    Ok(rungs)
}

/// `balance --ladder`: one self-play balance run per rung, then the ladder report.
fn run_ladder(args: &BalanceArgs, text: &str) -> Result<()> {
    if !args.run.agents.trim().is_empty() {
        bail!("--ladder gives the agents of every rung; leave out --agents");
    }
    let params = args.run.variant.params_text()?;
    let rungs = ladder_rungs(&args.run.variant.variant, params.as_deref(), text)?;
    let base = tournament::out_dir(&args.run);
    let mut dirs = Vec::new();
    for (k, spec) in rungs.iter().enumerate() {
        let mut one = args.clone();
        one.ladder = None;
        one.run.agents = format!("{spec},{spec}");
        let dir = base.join(format!("rung-{}", k + 1));
        one.run.out = Some(dir.clone());
        outln!("rung {} of {}: {spec} self-play", k + 1, rungs.len());
        run_one_balance(&one)?;
        if INTERRUPTED.load(Ordering::SeqCst) {
            return Ok(());
        }
        dirs.push(dir);
    }
    let figures = dirs
        .iter()
        .map(|d| RunFigures::of_folder(d, None))
        .collect::<Result<Vec<_>>>()?;
    write_ladder(&base.join("report.md"), &figures)
}

/// `balance --compare a.toml b.toml`: the same run under each parameter file.
fn run_compare(args: &BalanceArgs) -> Result<()> {
    if args.run.variant.params.is_some() {
        bail!("--compare gives the parameter files; leave out --params");
    }
    let variant = &args.run.variant.variant;
    // Both files are read as this variant's parameters before anything is played: a
    // file written for another variant fails here (unknown or missing keys).
    for p in &args.compare {
        let text = crate::run::variant_args::read_params_file(p)?;
        engine::registry::visit(variant, Some(&text), NoOp).with_context(|| {
            format!(
                "--compare {}: not a parameter file of {variant}",
                p.display()
            )
        })?;
    }
    if args.compare[0] == args.compare[1] {
        bail!("--compare: the two parameter files are the same file");
    }
    let base = tournament::out_dir(&args.run);
    let mut dirs = Vec::new();
    for (tag, p) in ["a", "b"].iter().zip(&args.compare) {
        let mut one = args.clone();
        one.compare = Vec::new();
        one.run.variant.params = Some(p.clone());
        let dir = base.join(tag);
        one.run.out = Some(dir.clone());
        outln!("rule set {}: {}", tag.to_uppercase(), p.display());
        run_one_balance(&one)?;
        if INTERRUPTED.load(Ordering::SeqCst) {
            return Ok(());
        }
        dirs.push(dir);
    }
    let figures = dirs
        .iter()
        .map(|d| RunFigures::of_folder(d, None))
        .collect::<Result<Vec<_>>>()?;
    write_compare(&base.join("report.md"), &figures[0], &figures[1])
}

struct NoOp;
impl VariantVisitor for NoOp {
    type Output = ();
    fn visit<G: Game>(self, _name: &'static str, _params: G::Params) {}
}

/// The team's results in a cooperative game (every seat shares one return): there is no
/// winner, so the report gives the return with its interval and the distribution of
/// the variant's raw `score` tally (or of the return, without one).
fn team_section(md: &mut String, games: &[GameFigures]) {
    let n = games.len();
    let returns: Vec<f64> = games.iter().map(|g| g.returns[0]).collect();
    let (rm, rh) = mean_ci(&returns);
    let _ = writeln!(
        md,
        "## Team result (cooperative)\n\nEvery seat shares one return, so there is no winner: \
         the figures below are the team's. The first-seat table further down is the same \
         return read as a score in [0, 1].\n"
    );
    let _ = writeln!(md, "| figure | value |\n|---|---|");
    let _ = writeln!(md, "| team return (95% interval) | {} |", fmt_score(rm, rh));
    let scores: Vec<f64> = games.iter().filter_map(|g| g.tally("score")).collect();
    let (name, values) = if scores.len() == n {
        let (sm, sh) = mean_ci(&scores);
        let _ = writeln!(
            md,
            "| mean `score` (95% interval) | {} |",
            fmt_score(sm, sh)
        );
        ("score", scores)
    } else {
        ("return", returns.clone())
    };
    let lowest = returns.iter().filter(|&&r| r <= -1.0).count();
    let _ = writeln!(
        md,
        "| games at the lowest return (-1) | {lowest} ({:.1}%) |\n",
        100.0 * lowest as f64 / n as f64
    );
    let mut dist: BTreeMap<i64, usize> = BTreeMap::new();
    for v in &values {
        *dist.entry((v * 1000.0).round() as i64).or_default() += 1;
    }
    let _ = writeln!(md, "| {name} | games | share |\n|---|---|---|");
    for (v, c) in dist {
        let _ = writeln!(
            md,
            "| {} | {c} | {:.1}% |",
            fmt_num(v as f64 / 1000.0),
            100.0 * c as f64 / n as f64
        );
    }
    let _ = writeln!(md);
}

/// A table of scores per group, best first.
fn split_table(md: &mut String, groups: &BTreeMap<String, Vec<f64>>, who: &str) {
    let mut rows: Vec<(&String, f64, f64, usize)> = groups
        .iter()
        .map(|(k, xs)| {
            let (m, h) = mean_ci(xs);
            (k, m, h, xs.len())
        })
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let _ = writeln!(
        md,
        "| value | games | {who}'s score (95% interval) |\n|---|---|---|"
    );
    for (k, m, h, count) in rows {
        let _ = writeln!(md, "| {k} | {count} | {} |", fmt_score(m, h));
    }
    let _ = writeln!(md);
}

/// One row per game: index, players, returns, reason, plies, then every tally.
fn tallies_csv(games: &[GameFigures], names: &[String]) -> Result<Vec<u8>> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let mut header: Vec<String> = ["index", "players", "returns", "reason", "plies"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    header.extend(names.iter().cloned());
    w.write_record(&header)?;
    for g in games {
        let mut rec = vec![
            g.index.to_string(),
            g.players
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            crate::util::returns_text(&g.returns),
            g.reason.clone(),
            g.plies.to_string(),
        ];
        rec.extend(
            names
                .iter()
                .map(|n| g.tally(n).map_or(String::new(), fmt_num)),
        );
        w.write_record(&rec)?;
    }
    w.into_inner().map_err(|e| anyhow!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ladder_edge_trend_verdicts() {
        let e = |mean, half| Estimate { mean, half };
        let (c, v) = edge_trend(&e(0.55, 0.02), &e(0.65, 0.02));
        assert!(
            (c.mean - 0.10).abs() < 1e-12 && v.starts_with("grows"),
            "{v}"
        );
        let (_, v) = edge_trend(&e(0.35, 0.02), &e(0.45, 0.02));
        assert!(v.starts_with("fades"), "{v}");
        let (_, v) = edge_trend(&e(0.40, 0.03), &e(0.60, 0.03));
        assert!(v.starts_with("changes sides"), "{v}");
        let (_, v) = edge_trend(&e(0.51, 0.03), &e(0.49, 0.03));
        assert!(v.starts_with("is not detectable"), "{v}");
        let (_, v) = edge_trend(&e(0.60, 0.05), &e(0.62, 0.05));
        assert!(v.starts_with("does not change"), "{v}");
    }

    #[test]
    fn split_syntax() {
        assert_eq!(
            Split::parse("white_assigned@0").unwrap().parts,
            vec![("white_assigned".to_string(), 0)]
        );
        assert_eq!(
            Split::parse("a@0+b@1").unwrap().parts,
            vec![("a".to_string(), 0), ("b".to_string(), 1)]
        );
        assert!(Split::parse("white_assigned").is_err());
        assert!(Split::parse("x@one").is_err());
        assert!(Split::parse("@1").is_err());
        assert!(Split::parse("a@0+").is_err());
    }

    #[test]
    fn mean_interval_and_quantiles() {
        let (m, h) = mean_ci(&[0.0, 1.0, 0.5, 0.5]);
        assert!((m - 0.5).abs() < 1e-12);
        // Sample variance 1/6, n = 4: 1.96 * sqrt(1/24).
        assert!((h - 1.96 * (1.0f64 / 24.0).sqrt()).abs() < 1e-12);
        assert_eq!(quantile(&[1, 2, 3, 4, 5], 0.5), 3);
        assert_eq!(quantile(&[1, 2, 3, 4, 5], 0.0), 1);
        assert_eq!(quantile(&[1, 2, 3, 4, 5], 1.0), 5);
        assert_eq!(fmt_num(3.0), "3");
        assert_eq!(fmt_num(0.25), "0.250");
    }
}

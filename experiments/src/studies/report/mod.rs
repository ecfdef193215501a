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
//! The folder: this file (arguments, `run_report`, `run_balance`, the replay of every
//! game), `figures` (per-game figures and formats), `markdown` (the report),
//! `ladder` (ladders and comparisons), `panel` (`balance --panel`, issue 37), `again`
//! (`report --again`: reports written again from recorded runs), [`plots`]
//! (SVG). May depend on [`crate::run`],
//! [`crate::stats`], [`crate::record`] and [`crate::util`].
//!
//! Intervals are normal approximations (mean ± 1.96 standard errors) over colour-swapped
//! pairs (the pair column of `games.csv`, [`crate::stats::metrics::Estimate::clustered`]):
//! the first seat's score since issue 37, and since issue 67 every other per-game figure
//! too — the metrics, the agents' scores, the variant's own figures (tallies), the team
//! result and the `--split` tables ([`figures::split_groups`] says where a pair whose
//! games fall in different groups counts). With deterministic agents from one opening
//! the two games of a pair can be the same game (Expedition's ladder: every pair), and
//! counting them as two samples made the interval about √2 too narrow. Every report says
//! how many distinct games (distinct action records from their openings) it has.
use crate::record::{self, Row};
use crate::run::interrupt::INTERRUPTED;
use crate::run::replay::{params_for, replay_row, Replayed};
use crate::run::tournament::{self, TournamentArgs};
use crate::stats::elo_from_score;
use crate::stats::metrics::{Estimate, GameTrace, Metrics};
use crate::util::{out, outln};

mod again;
mod figures;
mod ladder;
mod markdown;
mod panel;
pub mod plots;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use engine::game::Game;
use engine::registry::VariantVisitor;
use figures::*;
pub use ladder::edge_trend;
use ladder::*;
use markdown::*;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// Whether two paths name one file (the folder resolved; the file need not exist).
fn resolve_eq(a: &std::path::Path, b: &std::path::Path) -> bool {
    let dir = |p: &std::path::Path| {
        let d = p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        d.canonicalize().ok()
    };
    a.file_name() == b.file_name() && dir(a).is_some() && dir(a) == dir(b)
}

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
          value_parser = any_path, required_unless_present_any = ["ladder", "compare", "again"])]
    pub games: PathBuf,
    /// A ladder report over run folders, weakest first (each a balance run of one rung,
    /// such as `balance --ladder` writes); needs --out.
    #[arg(long, num_args = 2.., value_name = "DIR", conflicts_with_all = ["games", "compare"])]
    pub ladder: Vec<PathBuf>,
    /// Two run folders of one variant side by side, each figure with the difference and
    /// its interval; needs --out.
    #[arg(long, num_args = 2, value_name = "DIR", conflicts_with = "games")]
    pub compare: Vec<PathBuf>,
    /// Write every balance report under these folders again with this build, from the
    /// recorded games and the report options of each run's recorded command, then the
    /// panel, ladder and comparison reports those runs belong to (run from the folder
    /// where the runs were made; nothing is played).
    #[arg(long, num_args = 1.., value_name = "DIR",
          conflicts_with_all = ["games", "ladder", "compare", "params", "out"])]
    pub again: Vec<PathBuf>,
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
    /// Leave out the games whose opening is a line of this list (`chesslab openings
    /// --screen`'s flagged lines, matched by the line's text) before computing; the
    /// report says how many were left out.
    #[arg(long, value_name = "FLAGGED", conflicts_with_all = ["ladder", "compare", "again"])]
    pub exclude_openings: Option<PathBuf>,
    #[command(flatten)]
    pub options: ReportOptions,
}

impl ReportArgs {
    /// The report of one run's games.csv beside it (report.md and tallies.csv next to
    /// it), as a balance run, a merge and `--again` write it.
    pub fn of_run(games: PathBuf, params: Option<PathBuf>, options: ReportOptions) -> Self {
        ReportArgs {
            games,
            ladder: Vec::new(),
            compare: Vec::new(),
            again: Vec::new(),
            params,
            out: None,
            force: false,
            exclude_openings: None,
            options,
        }
    }
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

impl ReportOptions {
    /// The options of the orthodox run a panel plays beside a variant: no split (its
    /// tallies are the variant's) and no title (the title names the variant).
    pub fn beside_orthodox(&self) -> Self {
        let mut options = self.clone();
        options.split = Vec::new();
        options.title = None;
        options
    }
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
    /// A panel file (TOML, `examples/panels/`) instead of --agents: every member plays
    /// self-play into `<out>/<label>` and, unless --no-chess, orthodox chess from the
    /// same kind of openings into `<out>/chess/<label>`; `<out>/report.md` gives every
    /// figure per member and says whether the verdicts hold for all of them.
    #[arg(long, conflicts_with_all = ["ladder", "compare"])]
    pub panel: Option<PathBuf>,
    /// With --panel and --openings: the orthodox-chess opening suite for the runs beside
    /// the variant (`chesslab openings --variant chess`).
    #[arg(long, requires = "panel")]
    pub chess_openings: Option<PathBuf>,
    /// With --panel: do not play orthodox chess beside the variant.
    #[arg(long, requires = "panel")]
    pub no_chess: bool,
    /// With --panel: the orthodox runs beside the variant were played already by the same
    /// panel (`balance --variant chess --panel FILE --out DIR`): read each member's from
    /// `DIR/<label>` instead of playing them again. Each must be that member's self-play,
    /// by the same generation of the agents, with as many games and the same kind of
    /// openings (a suite file when --openings is given, else the same random plies).
    #[arg(long, requires = "panel", conflicts_with_all = ["no_chess", "chess_openings"], value_name = "DIR")]
    pub chess_from: Option<PathBuf>,
}

/// clap settings of `balance` that the flattened tournament arguments cannot say
/// themselves: with --ladder or --panel, --agents is not needed.
pub fn balance_command(cmd: clap::Command) -> clap::Command {
    cmd.mut_arg("agents", |a| {
        a.required(false)
            .default_value("")
            .hide_default_value(true)
            .required_unless_present_any(["ladder", "panel"])
    })
}

/// `chesslab balance`: the tournament, then its report in the same folder.
pub fn run_balance(args: &BalanceArgs) -> Result<()> {
    // Every argument is checked before the first game (the report's too).
    parse_splits(&args.options, Some(&args.run.variant.variant))?;
    if let Some(text) = &args.ladder {
        return run_ladder(args, text);
    }
    if let Some(p) = &args.panel {
        return panel::run_panel(args, p);
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
    run_report(&ReportArgs::of_run(
        dir.join("games.csv"),
        args.run.variant.params.clone(),
        args.options.clone(),
    ))
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
    if !args.again.is_empty() {
        return again::run_again(&args.again);
    }
    if !args.ladder.is_empty() || !args.compare.is_empty() {
        let out = args.out.clone().ok_or_else(|| {
            anyhow!("--ladder and --compare need --out (the Markdown report to write)")
        })?;
        crate::util::check_output(&out, &[], args.force, "--out")?;
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
        let mut inputs = crate::run::replay::inputs_of(&args.games, args.params.as_ref(), &run);
        inputs.extend(args.exclude_openings.as_deref());
        // Default outputs belong to the run: replaced, but never onto an input.
        let force = args.force || args.out.is_none();
        crate::util::check_output(&md_path, &inputs, force, "--out")?;
        // The run's own tallies.csv (a report written into the run folder, e.g. `--out
        // run/report-2.md` after the default report) holds the same games' figures: it is
        // the run's, replaced as the default report replaces it (issue 39: such an --out
        // was refused because of the tallies.csv the first report wrote).
        let runs_own = resolve_eq(&csv_path, &sibling(&args.games, "tallies.csv"));
        crate::util::check_output(
            &csv_path,
            &inputs,
            force || runs_own,
            "--out (its tallies.csv)",
        )?;
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
        args.exclude_openings.as_deref(),
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
    exclude: Option<&Path>,
) -> Result<Analysis> {
    let mut loaded = record::load(games_path)?;
    if loaded.rows.is_empty() {
        bail!("{} holds no finished games", games_path.display());
    }
    // `--exclude-openings`: the games from flagged openings leave before anything is
    // computed (both games of a pair share the opening, so pairs stay whole).
    let excluded = match exclude {
        Some(path) => {
            let flagged = crate::run::opening_screen::read_flagged(path)
                .with_context(|| format!("--exclude-openings {}", path.display()))?;
            let before = loaded.rows.len();
            loaded.rows.retain(|r| {
                !flagged.contains(&crate::run::opening_screen::opening_key(&r.opening))
            });
            if loaded.rows.is_empty() {
                bail!(
                    "--exclude-openings {}: every game of {} starts from a listed opening; nothing to report",
                    path.display(),
                    games_path.display()
                );
            }
            Some((
                path.to_path_buf(),
                flagged.len(),
                before - loaded.rows.len(),
            ))
        }
        None => None,
    };
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
                pair: Some(row.pair),
                opening: row.opening.clone(),
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
    let epoch = crate::stats::strength::epoch_of_run(&crate::run::replay::run_json_of(games_path));
    let mut report = Report::new(
        &loaded.rows[0],
        &games,
        splits,
        title,
        &metrics,
        plots,
        epoch,
    );
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
    if let Some((path, listed, dropped)) = &excluded {
        let note = format!(
            "Excluded: {dropped} games whose opening is one of the {listed} lines of {} (`--exclude-openings`); the {} other games are reported.\n\n",
            path.display(),
            loaded.rows.len()
        );
        if let Some(at) = report.markdown.find("\n\n") {
            report.markdown.insert_str(at + 2, &note);
        }
        report.summary.insert_str(0, &note.replace("\n\n", "\n"));
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
                    let mut game: G = crate::run::openings::row_start(&params, row)?;
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
    crate::studies::report::plots::length_histogram(
        &plots.path("length"),
        &lengths,
        "recorded actions",
    )?;
    for (i, sp) in splits.iter().enumerate() {
        let groups = split_groups(games, sp);
        let points: Vec<(String, Estimate)> = groups
            .iter()
            .map(|(k, xs)| (k.clone(), Estimate::clustered_score(xs)))
            .collect();
        let title = sp
            .parts
            .iter()
            .map(|(t, s)| format!("{}'s score by {t}", report.seat_name(*s)))
            .collect::<Vec<_>>()
            .join(", ");
        crate::studies::report::plots::split(
            &plots.path(&format!("split-{}", i + 1)),
            &title,
            &points,
        )?;
    }
    Ok(())
}

fn sibling(path: &Path, name: &str) -> PathBuf {
    path.parent().unwrap_or(Path::new(".")).join(name)
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

    fn figures(pair: u64, returns: [f64; 2], tally: (&str, f64)) -> GameFigures {
        GameFigures {
            index: 0,
            pair,
            players: vec![0, 1],
            agents: vec!["a".into(), "b".into()],
            returns: returns.to_vec(),
            reason: "end".into(),
            plies: 1,
            tallies: vec![(tally.0.to_string(), tally.1)],
            tally_labels: Vec::new(),
            seat_names: vec!["white".into(), "black".into()],
            cooperative: false,
        }
    }

    #[test]
    fn rule_report_tallies_intervals_over_pairs() {
        // 10 pairs whose two games are the same game: the tallies table's interval is
        // that of the 10 distinct games, not of 20.
        let v = |p: u64| (p % 4) as f64;
        let doubled: Vec<GameFigures> = (0..20u64)
            .map(|i| figures(i / 2, [1.0, -1.0], ("t", v(i / 2))))
            .collect();
        let distinct: Vec<GameFigures> = (0..10u64)
            .map(|p| figures(p, [1.0, -1.0], ("t", v(p))))
            .collect();
        let (mut a, mut b) = (String::new(), String::new());
        markdown::tallies_section(&mut a, &doubled, &["t".to_string()]);
        markdown::tallies_section(&mut b, &distinct, &["t".to_string()]);
        let (m, h) = mean_ci(
            &distinct
                .iter()
                .map(|g| (g.pair, v(g.pair)))
                .collect::<Vec<_>>(),
        );
        let cell = format!("| {m:.3} ± {h:.3} |");
        assert!(a.contains(&cell) && b.contains(&cell), "{a}\n{b}");
        assert!(a.contains("interval over pairs"), "{a}");
        // Over games it would be narrower.
        let (_, naive) = mean_ci(
            &doubled
                .iter()
                .zip(0u64..)
                .map(|(g, i)| (i, v(g.pair)))
                .collect::<Vec<_>>(),
        );
        assert!(naive < h - 1e-6);
    }

    #[test]
    fn rule_split_intervals_over_pairs() {
        let sp = Split::parse("q@0").unwrap();
        // Group "1": 10 pairs, both games of each alike (white's score 1, 1 or 0, 0).
        let mut games: Vec<GameFigures> = (0..20u64)
            .map(|i| {
                let r = if (i / 2) % 3 == 0 { 1.0 } else { -1.0 };
                figures(i / 2, [r, -r], ("q", 1.0))
            })
            .collect();
        let groups = split_groups(&games, &sp);
        let one_per_pair: Vec<(u64, f64)> = groups["1"].iter().step_by(2).copied().collect();
        let (m, h) = score_ci(&groups["1"]);
        let (m1, h1) = score_ci(&one_per_pair);
        assert!((m - m1).abs() < 1e-12 && (h - h1).abs() < 1e-12);
        let mut md = String::new();
        markdown::split_table(&mut md, &groups, "white");
        assert!(
            md.contains(&format!("| 1 | 20 | 10 | {} |", fmt_score(m, h))),
            "{md}"
        );
        // A pair whose games fall in different groups: each group counts it once, with
        // the game it has there.
        games.push(figures(10, [1.0, -1.0], ("q", 0.0)));
        games.push(figures(10, [-1.0, 1.0], ("q", 1.0)));
        games.push(figures(11, [0.0, 0.0], ("q", 0.0)));
        games.push(figures(11, [0.0, 0.0], ("q", 0.0)));
        let groups = split_groups(&games, &sp);
        assert_eq!(groups["0"], vec![(10, 1.0), (11, 0.5), (11, 0.5)]);
        assert_eq!(groups["1"].len(), 21);
        assert_eq!(groups["1"][20], (10, 0.0));
        let mut md = String::new();
        markdown::split_table(&mut md, &groups, "white");
        assert!(
            md.contains("| 0 | 3 | 2 |") && md.contains("| 1 | 21 | 11 |"),
            "{md}"
        );
        // Pooled parts: both seats of one game are in its pair's sample.
        let pooled = split_groups(&games[..2], &Split::parse("q@0+q@1").unwrap());
        assert_eq!(pooled["1"].iter().filter(|x| x.0 == 0).count(), 4);
    }

    #[test]
    fn mean_interval_and_quantiles() {
        let (m, h) = mean_ci(&[(0, 0.0), (1, 1.0), (2, 0.5), (3, 0.5)]);
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

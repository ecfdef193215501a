//! `report --again DIR...` (issue 37): every balance report under the folders written
//! again by today's build, from the recorded games and the report options of the
//! recorded command, so a report written by an older build (before intervals over book
//! openings, say) reads as a new one would, without playing a game.
//!
//! Each run folder under DIR (a `games.csv` beside a `run.json`) whose recorded command
//! is `balance` gets its report.md, tallies.csv and plots again, with that command's
//! `--title` and `--split` (an orthodox run a panel played beside a variant gets neither,
//! as `balance --panel` gave it neither) and the parameters recorded in its run.json.
//! Then every panel, ladder and comparison those runs belong to (the folder holding them)
//! gets its report again from its finished runs.
//!
//! Decisions: runs recorded by another command (`tournament`, `values`) are listed as
//! skipped, not an error: their figures are standings, not a report; a panel's, ladder's
//! or comparison's folder is the one holding its runs, not the recorded `--out` (runs
//! were often played elsewhere and moved into results/); the recorded `--panel` and
//! `--chess-from` are read relative to the working directory (the repository root), and
//! a missing one is an error naming it; a recorded command that no longer parses is an
//! error naming its run.json, before any report is written; nothing is played, so an
//! unfinished run is reported on the games it has, as `report` does. Test: `rule_report_again_rewrites_a_panels_reports`
//! (`experiments/tests/panel_cli.rs`).

use super::ladder::{ladder_rungs, write_compare, write_ladder, RunFigures};
use super::panel::write_panel_of;
use super::*;
use crate::studies::panel::Panel;
use clap::{Args as _, FromArgMatches as _};
use std::collections::BTreeSet;

/// A run folder's recorded command.
enum Run {
    Balance(Box<BalanceArgs>),
    /// Another command (its name).
    Other(String),
}

/// The recorded command of the run whose run.json is `path`.
fn recorded(path: &Path) -> Result<Run> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot be read", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let words: Vec<String> = v["command"]
        .as_array()
        .ok_or_else(|| anyhow!("{}: records no command", path.display()))?
        .iter()
        .map(|w| w.as_str().unwrap_or_default().to_string())
        .collect();
    match words.get(1).map(String::as_str) {
        Some("balance") => {
            let cmd = balance_command(BalanceArgs::augment_args(
                clap::Command::new("balance").no_binary_name(true),
            ));
            let parsed = cmd
                .try_get_matches_from(&words[2..])
                .and_then(|m| BalanceArgs::from_arg_matches(&m));
            let args = parsed.map_err(|e| {
                anyhow!(
                    "{}: its recorded command no longer parses: {}",
                    path.display(),
                    e.to_string().trim().replace('\n', " ")
                )
            })?;
            Ok(Run::Balance(Box::new(args)))
        }
        Some(other) => Ok(Run::Other(other.to_string())),
        None => bail!("{}: records an empty command", path.display()),
    }
}

/// `report --again`.
pub(super) fn run_again(dirs: &[PathBuf]) -> Result<()> {
    let mut runs = Vec::new();
    for d in dirs {
        for games in crate::run::verify::games_files(d)? {
            let json = games.with_file_name("run.json");
            if json.exists() {
                runs.push((games, json));
            } else {
                outln!("skipped {}: no run.json beside it", games.display());
            }
        }
    }
    // Every recorded command is read before anything is written: one that no longer
    // parses stops the whole call with nothing changed.
    let mut balances = Vec::new();
    for (games, json) in runs {
        match recorded(&json)? {
            Run::Balance(a) => {
                let variant = std::fs::read_to_string(&json)
                    .ok()
                    .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                    .and_then(|v| v["variant"].as_str().map(String::from))
                    .unwrap_or_default();
                // The orthodox run a panel played beside a variant.
                let beside =
                    a.panel.is_some() && variant == "chess" && a.run.variant.variant != "chess";
                balances.push((games, *a, beside))
            }
            Run::Other(name) => outln!(
                "skipped {}: a `{name}` run, not a balance report",
                games.display()
            ),
        }
    }
    // Aggregates by their folder, each written once after all of its runs. The folder is
    // where the run lies (`<base>/<label>`, `<base>/chess/<label>`, `<base>/rung-<k>`,
    // `<base>/a`), not the recorded --out: runs were often played elsewhere and moved.
    let mut aggregates: Vec<(PathBuf, &BalanceArgs)> = Vec::new();
    let mut seen = BTreeSet::new();
    for (games, args, beside) in &balances {
        if args.panel.is_some() || args.ladder.is_some() || !args.compare.is_empty() {
            let run = games.parent().unwrap_or(Path::new("."));
            let up = if *beside && args.chess_from.is_none() {
                2
            } else {
                1
            };
            let base = run
                .ancestors()
                .nth(up)
                .unwrap_or(Path::new("."))
                .to_path_buf();
            if seen.insert(base.clone()) {
                aggregates.push((base, args));
            }
        }
    }
    let mut written = 0usize;
    for (games, args, beside) in &balances {
        let options = if *beside {
            args.options.beside_orthodox()
        } else {
            args.options.clone()
        };
        run_report(&ReportArgs::of_run(games.clone(), None, options))
            .with_context(|| format!("the report of {}", games.display()))?;
        written += 1;
    }
    for (base, args) in aggregates {
        if let Some(p) = &args.panel {
            let panel = Panel::load(p)?;
            let beside = args.run.variant.variant != "chess" && !args.no_chess;
            write_panel_of(args, &panel, &base, beside)
                .with_context(|| format!("the panel report of {}", base.display()))?;
        } else if let Some(text) = &args.ladder {
            let params = args.run.variant.params_text()?;
            let n = ladder_rungs(&args.run.variant.variant, params.as_deref(), text)?.len();
            let figures = (1..=n)
                .map(|k| RunFigures::of_folder(&base.join(format!("rung-{k}")), None))
                .collect::<Result<Vec<_>>>()?;
            write_ladder(&base.join("report.md"), &figures)?;
        } else {
            let a = RunFigures::of_folder(&base.join("a"), None)?;
            let b = RunFigures::of_folder(&base.join("b"), None)?;
            write_compare(&base.join("report.md"), &a, &b)?;
        }
        written += 1;
    }
    outln!("{written} reports written again");
    Ok(())
}

//! `chesslab replay` (re-play a recorded game and verify it) and `chesslab export --pgn`
//! (every game verified the same way before any PGN is written): arguments and printing
//! over [`crate::run::replay`].

use crate::record;
use crate::run::replay::{contradiction, inputs_of, params_for, replay_row, run_json_of, NoPgn};
use crate::util::{out, outln};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A games.csv written by `chesslab tournament`.
    #[arg(long)]
    pub games: PathBuf,
    /// The game index (the `index` column); this or --row is needed.
    #[arg(long, value_parser = crate::util::any_u64, conflicts_with = "row")]
    pub index: Option<u64>,
    /// The data row number instead (1 = the first game in the file).
    #[arg(long, value_parser = crate::util::any_usize)]
    pub row: Option<usize>,
    /// Variant parameters (TOML); default: those recorded in run.json next to the file.
    #[arg(long)]
    pub params: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Write PGN (the only format so far).
    #[arg(long, required = true)]
    pub pgn: bool,
    /// A games.csv written by `chesslab tournament`.
    #[arg(long)]
    pub games: PathBuf,
    /// Output file (default: standard output). It may not be an input, and an existing
    /// file is replaced only with --force.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Variant parameters (TOML); default: those recorded in run.json next to the file.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    pub force: bool,
}

pub fn run_replay(args: &ReplayArgs) -> Result<()> {
    let loaded = record::load(&args.games)?;
    let row = match (args.index, args.row) {
        (Some(i), _) => loaded
            .rows
            .iter()
            .find(|r| r.index == i)
            .ok_or_else(|| anyhow!("{} has no game with index {i}", args.games.display()))?,
        (None, Some(n)) => n
            .checked_sub(1)
            .and_then(|k| loaded.rows.get(k))
            .ok_or_else(|| {
                anyhow!(
                    "{} has {} games; --row {n} is out of range (rows count from 1)",
                    args.games.display(),
                    loaded.rows.len()
                )
            })?,
        (None, None) => bail!(
            "which game? give --index N (the index column of games.csv) or --row N (1 = the first game in the file)"
        ),
    };
    let params = params_for(&args.games, args.params.as_ref())?;
    let r = replay_row(row, params.as_deref(), true)
        .with_context(|| format!("replaying game {}", row.index))?;
    outln!("game {} ({}), seed {}", row.index, row.variant, row.seed);
    outln!("agents: {}", row.agents.join(" vs "));
    if let Some(Ok(pgn)) = &r.pgn {
        outln!();
        out!("{pgn}");
    }
    outln!("final position: {}", r.final_position);
    outln!("result {} ({}), {} plies", r.result, r.reason, r.plies);
    if let Some(why) = contradiction(row, &r) {
        bail!("replay does not match the record: {why}");
    }
    outln!("verified: the replay matches the record");
    Ok(())
}

/// Exports every game as PGN after verifying it as `replay` does: each row is played
/// again and its result, returns and reason must match the record.
///
/// Decision: if any row fails (does not replay, contradicts its record, or has no PGN
/// form) nothing is written, and the error names every failing row (its row number, as
/// `replay --row` takes it, and its index) with the reason; a PGN file that silently
/// leaves games out, or states a result the moves contradict, would mislead.
pub fn run_export(args: &ExportArgs) -> Result<()> {
    if let Some(out) = &args.out {
        let run = run_json_of(&args.games);
        let inputs = inputs_of(&args.games, args.params.as_ref(), &run);
        crate::util::check_output(out, &inputs, args.force, "--out")?;
    }
    let loaded = record::load(&args.games)?;
    if loaded.rows.is_empty() {
        bail!(
            "{} holds no finished games: nothing to export",
            args.games.display()
        );
    }
    if loaded.truncated_tail {
        eprintln!(
            "note: the last line of {} has no line end (a write cut short); it is skipped, {} games exported",
            args.games.display(),
            loaded.rows.len()
        );
    }
    let params = params_for(&args.games, args.params.as_ref())?;
    let mut out = String::new();
    let mut failures: Vec<String> = Vec::new();
    let mut no_pgn = 0;
    for (k, row) in loaded.rows.iter().enumerate() {
        let what = format!("row {} (index {})", k + 1, row.index);
        let pgn = replay_row(row, params.as_deref(), true).and_then(|r| {
            if let Some(why) = contradiction(row, &r) {
                bail!("the replay contradicts the record: {why}");
            }
            r.pgn
                .unwrap_or_else(|| Err(anyhow!("no PGN was produced")))
                .context("no PGN")
        });
        match pgn {
            Ok(text) => out.push_str(&text),
            Err(e) => {
                no_pgn += usize::from(e.chain().any(|c| c.is::<NoPgn>()));
                failures.push(format!("{what}: {e:#}"));
            }
        }
    }
    if no_pgn > 0 && no_pgn == failures.len() {
        let variant = &loaded.rows[0].variant;
        bail!(
            "{variant} games are not PGN: PGN records orthodox moves by two players on one board, \
             and {no_pgn} of the {} games in {} are not that; nothing written. Their record is \
             games.csv (actions in the variant's notation, docs/RULES.md): `chesslab replay \
             --games {} --row N` shows one game, `chesslab trace` writes whole games node by \
             node as JSON lines",
            loaded.rows.len(),
            args.games.display(),
            args.games.display()
        );
    }
    if !failures.is_empty() {
        bail!(
            "{} of {} games in {} failed verification, nothing written:\n  {}",
            failures.len(),
            loaded.rows.len(),
            args.games.display(),
            failures.join("\n  ")
        );
    }
    match &args.out {
        Some(p) => record::write_atomic(p, out.as_bytes())?,
        None => out!("{out}"),
    }
    Ok(())
}

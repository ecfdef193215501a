//! Merging (`chesslab merge`): the shards of one run, played on several machines, put back together
//! into the folder the run would have written on one machine.
//!
//! Each shard folder holds the `run.json` and `games.csv` that `chesslab tournament
//! --shard` (or `balance --shard`) wrote. The merge checks that the shards belong to one
//! run (the same variant, parameter digest, agents, seats, games per matchup, gauntlet,
//! seed, seeding and openings, the same shard count, and no SPRT), that no game index
//! appears twice, and that every game of the run is there (naming the missing indices and
//! shards otherwise). It replays every game as `replay` does (a hand-edited row is an
//! error naming it), then writes `games.csv` sorted by index, recomputed standings
//! (`standings.md`, `standings.csv`, `pairings.csv`) and a `run.json` with the shards it
//! came from; when the shards were balance runs (a `report.md` in each) it writes the
//! merged report too. `games.csv` and the standings files equal the one-machine run's byte
//! for byte (`merged_shards_equal_the_one_machine_run` in `experiments/tests/scale_out.rs`).
//!
//! Decisions: the command lines themselves are not compared (each shard's differs in
//! `--shard`, `--out` and `--threads`); the fields above are what make two runs the same
//! run. `timings.csv` files are concatenated (they are measurements, not results). The
//! output folder may not be one of the shards and must be empty or absent unless `--force`
//! (then only the files a merge writes are replaced).

use crate::record::{self, Row};
use crate::stats::standings;
use crate::util::outln;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// The shard folders (each with run.json and games.csv).
    #[arg(required = true, num_args = 1..)]
    pub dirs: Vec<PathBuf>,
    /// The merged folder.
    #[arg(long)]
    pub out: PathBuf,
    /// Write into an existing non-empty --out (replacing the files a merge writes).
    #[arg(long)]
    pub force: bool,
}

/// The run.json fields that make two shards pieces of the same run.
const SAME_RUN_FIELDS: &[&str] = &[
    "variant",
    "params_digest",
    "agents",
    "seats",
    "games_per_matchup",
    "gauntlet",
    "matchups",
    "total_games",
    "seed",
    "seeding",
    "openings",
];

/// Files a merge writes into `--out`.
const MERGE_FILES: &[&str] = &[
    "games.csv",
    "timings.csv",
    "run.json",
    "standings.md",
    "standings.csv",
    "pairings.csv",
    "report.md",
    "tallies.csv",
];

struct ShardRun {
    dir: PathBuf,
    info: Value,
    /// (index, count) from run.json's `shard`.
    shard: (u64, u64),
    rows: Vec<Row>,
}

fn read_shard(dir: &Path) -> Result<ShardRun> {
    let run = dir.join("run.json");
    let text = std::fs::read_to_string(&run).with_context(|| {
        format!(
            "{}: no run.json (is this a folder written by `chesslab tournament --shard`?)",
            dir.display()
        )
    })?;
    let info: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not valid JSON", run.display()))?;
    let shard_text = info.get("shard").and_then(Value::as_str).ok_or_else(|| {
        anyhow!(
            "{}: run.json records no shard: not a shard of a run",
            dir.display()
        )
    })?;
    let shard = crate::run::matches::parse_shard(shard_text)
        .with_context(|| format!("{}: run.json's shard", dir.display()))?;
    if !info.get("sprt").is_none_or(Value::is_null) {
        bail!("{}: an SPRT run cannot be sharded or merged", dir.display());
    }
    let games = dir.join("games.csv");
    let loaded = record::load(&games).with_context(|| format!("shard {}", dir.display()))?;
    if loaded.truncated_tail {
        bail!(
            "shard {}: games.csv ends in a torn line (the shard was interrupted): finish it with the same command plus --resume, then merge",
            dir.display()
        );
    }
    Ok(ShardRun {
        dir: dir.to_path_buf(),
        info,
        shard,
        rows: loaded.rows,
    })
}

/// The first field whose value differs between two shards' run.json, if any.
fn differing_field(a: &Value, b: &Value) -> Option<&'static str> {
    SAME_RUN_FIELDS
        .iter()
        .copied()
        .find(|f| a.get(*f) != b.get(*f))
}

fn check_out(args: &MergeArgs) -> Result<()> {
    let out_abs = std::fs::canonicalize(&args.out).ok();
    for d in &args.dirs {
        if let (Some(o), Ok(d2)) = (&out_abs, std::fs::canonicalize(d)) {
            if *o == d2 {
                bail!(
                    "--out {} is one of the shards: merge into a new folder",
                    args.out.display()
                );
            }
        }
    }
    crate::util::check_out_dir(
        &args.out,
        "--out",
        &[crate::util::Reuse {
            flag: "--force",
            given: args.force,
            does: "to write the merged run there",
        }],
    )?;
    Ok(())
}

/// Merges the shards into `--out`; true when they were balance runs (a `report.md` in
/// each), whose merged report the caller writes (`chesslab merge` does).
pub fn run(args: &MergeArgs) -> Result<bool> {
    check_out(args)?;
    let shards = args
        .dirs
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<Vec<_>>>()?;
    let first = &shards[0];
    let count = first.shard.1;
    for s in &shards[1..] {
        if let Some(f) = differing_field(&first.info, &s.info) {
            bail!(
                "{} and {} are not shards of one run: their run.json differ in `{f}`",
                first.dir.display(),
                s.dir.display()
            );
        }
        if s.shard.1 != count {
            bail!(
                "{} is shard {}/{} but {} is shard {}/{}: shards of one run share the count",
                first.dir.display(),
                first.shard.0,
                count,
                s.dir.display(),
                s.shard.0,
                s.shard.1
            );
        }
    }
    let mut seen_shard: BTreeMap<u64, &Path> = BTreeMap::new();
    for s in &shards {
        if let Some(prev) = seen_shard.insert(s.shard.0, &s.dir) {
            bail!(
                "{} and {} are both shard {}/{count}: give each shard once",
                prev.display(),
                s.dir.display(),
                s.shard.0
            );
        }
    }
    // Rows: disjoint, and every game of the run present.
    let mut by_index: BTreeMap<u64, (&Row, &Path)> = BTreeMap::new();
    for s in &shards {
        for row in &s.rows {
            if row.pair % count != s.shard.0 {
                bail!(
                    "{}: game {} (pair {}) does not belong to shard {}/{count}",
                    s.dir.display(),
                    row.index,
                    row.pair,
                    s.shard.0
                );
            }
            if let Some((_, prev)) = by_index.insert(row.index, (row, &s.dir)) {
                bail!(
                    "game {} is in both {} and {}: the shards overlap",
                    row.index,
                    prev.display(),
                    s.dir.display()
                );
            }
        }
    }
    let total = first
        .info
        .get("total_games")
        .and_then(Value::as_u64)
        .ok_or_else(|| anyhow!("{}: run.json has no total_games", first.dir.display()))?;
    let missing_shards: Vec<String> = (0..count)
        .filter(|i| !seen_shard.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if let Some((&last, (_, dir))) = by_index.last_key_value() {
        if last >= total {
            bail!(
                "{}: game {last} is beyond the run's {total} games",
                dir.display()
            );
        }
    }
    // Indices are unique and below `total`, so the count of missing games is a
    // subtraction; the first few are found by walking the gaps (a run may be huge).
    let missing = total - by_index.len() as u64;
    if missing > 0 || !missing_shards.is_empty() {
        const SHOWN: usize = 20;
        let mut shown: Vec<String> = Vec::new();
        let mut next = 0u64;
        for &i in by_index.keys().chain(std::iter::once(&total)) {
            while next < i && shown.len() < SHOWN {
                shown.push(next.to_string());
                next += 1;
            }
            if shown.len() == SHOWN {
                break;
            }
            next = i + 1;
        }
        bail!(
            "the shards do not make the whole run: {missing} of {total} games missing (indices {}{}){}; nothing was written",
            shown.join(", "),
            if missing > SHOWN as u64 { ", ..." } else { "" },
            if missing_shards.is_empty() {
                " (unfinished shards: rerun them with --resume)".to_string()
            } else {
                format!(" (shards not given: {})", missing_shards.join(", "))
            }
        );
    }
    let params = first
        .info
        .get("params_toml")
        .and_then(Value::as_str)
        .map(str::to_string);
    let mut rows: Vec<Row> = by_index.values().map(|(r, _)| (*r).clone()).collect();
    let verified: BTreeMap<u64, Row> = rows.iter().map(|r| (r.index, r.clone())).collect();
    crate::run::tournament::verify_rows(&verified, params.as_deref(), &first.dir.join("games.csv"))
        .context("merge refused")?;
    // Every shard's builds, in shard order (the merge plays nothing itself); read before
    // anything is written, so a shard whose list is broken leaves no half-merged folder.
    let mut builds = Vec::new();
    for s in &shards {
        builds.extend(
            crate::run::builds::recorded(&s.info)
                .with_context(|| format!("merge refused: {}'s run.json", s.dir.display()))?,
        );
    }

    // Write the merged folder.
    let out = &args.out;
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create output folder {}", out.display()))?;
    if args.force {
        for f in MERGE_FILES {
            let _ = std::fs::remove_file(out.join(f));
        }
    }
    record::write_sorted(&out.join("games.csv"), &mut rows)?;
    let mut timings = String::from("index,seconds,plies,plies_per_second\n");
    for s in &shards {
        if let Ok(t) = std::fs::read_to_string(s.dir.join("timings.csv")) {
            timings.extend(t.lines().skip(1).map(|l| format!("{l}\n")));
        }
    }
    record::write_atomic(&out.join("timings.csv"), timings.as_bytes())?;
    let specs: Vec<String> = serde_json::from_value(first.info["agents"].clone())
        .with_context(|| format!("{}: run.json's agents", first.dir.display()))?;
    let variant = first.info["variant"].as_str().unwrap_or_default();
    let seed = first.info["seed"].as_u64().unwrap_or_default();
    let st = standings::compute(&specs, &rows, None);
    let md = st.markdown(&format!("Standings: {variant}, seed {seed}"));
    record::write_atomic(&out.join("standings.md"), md.as_bytes())?;
    record::write_atomic(&out.join("standings.csv"), st.csv().as_bytes())?;
    record::write_atomic(&out.join("pairings.csv"), st.pairings_csv().as_bytes())?;
    let mut info = first.info.clone();
    info["shard"] = Value::Null;
    info["threads"] = Value::Null;
    info["resumed"] = Value::Bool(false);
    info["builds"] = serde_json::to_value(builds)?;
    info["command"] = serde_json::to_value(std::env::args().collect::<Vec<_>>())?;
    info["merged_from"] = serde_json::to_value(
        shards
            .iter()
            .map(|s| s.dir.display().to_string())
            .collect::<Vec<_>>(),
    )?;
    let json = serde_json::to_string_pretty(&info)? + "\n";
    record::write_atomic(&out.join("run.json"), json.as_bytes())?;
    outln!("{md}");
    outln!(
        "merged {} shards ({} games) into {}",
        shards.len(),
        rows.len(),
        out.display()
    );
    Ok(shards.iter().all(|s| s.dir.join("report.md").exists()))
}

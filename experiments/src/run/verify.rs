//! Verifying kept results (`chesslab verify PATH...`): every recorded game under the given paths replays with the
//! current build (issue 33: kept results are evidence only while they replay).
//!
//! A path is a `games.csv` or a folder searched for them (recursively, in name order).
//! Each game is played again from its opening with the parameters in the `run.json`
//! beside its file (as `replay` and `report` do), and its result, returns and reason must
//! equal the record. Every file is checked (one failure does not stop the rest); the
//! command prints one line per file and a summary, and exits with 1 if any game fails.
//!
//! Decisions: a file with a torn last line (an interrupted write) fails, since a kept
//! result should be complete; an empty folder (no `games.csv` at all) is an error, so a
//! typo in the path cannot pass for a verified tree. Games in one file are replayed in
//! parallel; the report is in file order whatever the thread count.

use crate::record;
use crate::run::replay::{contradiction, params_for, replay_row};
use anyhow::{bail, Result};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// What verifying one file found.
pub struct FileVerdict {
    pub path: PathBuf,
    pub games: usize,
    /// (game index, why) for every game that does not replay to its record; a problem
    /// with the file as a whole has no index.
    pub failures: Vec<(Option<u64>, String)>,
}

/// Every `games.csv` under `path` (the file itself if it is one), in name order.
pub fn games_files(path: &Path) -> Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| anyhow::anyhow!("reading folder {}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.file_name().is_some_and(|n| n == "games.csv") {
                out.push(p);
            }
        }
        Ok(())
    }
    let meta = std::fs::metadata(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    if meta.is_dir() {
        walk(path, &mut out)?;
        if out.is_empty() {
            bail!("{} holds no games.csv", path.display());
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(out)
}

/// Replays every game of one `games.csv` and compares it with its record.
pub fn verify_file(path: &Path) -> FileVerdict {
    let mut v = FileVerdict {
        path: path.to_path_buf(),
        games: 0,
        failures: Vec::new(),
    };
    let loaded = match record::load(path) {
        Ok(l) => l,
        Err(e) => {
            v.failures.push((None, format!("{e:#}")));
            return v;
        }
    };
    if loaded.truncated_tail {
        v.failures
            .push((None, "the last line has no line end (a torn write)".into()));
    }
    let params = match params_for(path, None) {
        Ok(p) => p,
        Err(e) => {
            v.failures.push((None, format!("{e:#}")));
            return v;
        }
    };
    v.games = loaded.rows.len();
    let mut bad: Vec<(Option<u64>, String)> = loaded
        .rows
        .par_iter()
        .filter_map(|row| {
            let why = match replay_row(row, params.as_deref(), false) {
                Err(e) => format!("{e:#}"),
                Ok(r) => contradiction(row, &r)?,
            };
            Some((Some(row.index), why))
        })
        .collect();
    bad.sort_by_key(|(i, _)| *i);
    v.failures.extend(bad);
    v
}

//! `games.csv`: one row per finished game, written so a run can be resumed, merged
//! across shards and replayed.
//!
//! Columns: `index, seed, variant, params_digest, pair, opening, players, agents,
//! result, returns, reason, plies, actions`. `players` are the agent numbers (0-based,
//! in `--agents` order) per seat; `agents` their specs per seat joined by `;`;
//! `returns` per seat, space-separated; `actions` the full action list in notation.
//! No wall-clock field: the file is a function of the command line alone.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;

pub const HEADER: [&str; 13] = [
    "index",
    "seed",
    "variant",
    "params_digest",
    "pair",
    "opening",
    "players",
    "agents",
    "result",
    "returns",
    "reason",
    "plies",
    "actions",
];

/// The mark that starts an action-list opening (in a book line and in `games.csv`).
pub const ACTIONS_PREFIX: &str = "actions:";

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub index: u64,
    pub seed: u64,
    pub variant: String,
    pub params_digest: String,
    /// The colour-swapped pair (or rotation cycle) this game belongs to.
    pub pair: u64,
    /// The opening FEN, empty for the variant's own start.
    pub opening: String,
    pub players: Vec<usize>,
    pub agents: Vec<String>,
    pub result: String,
    pub returns: Vec<f64>,
    pub reason: String,
    pub plies: usize,
    pub actions: String,
}

fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .has_headers(false)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new())
}

pub fn header_line() -> Vec<u8> {
    let mut w = writer();
    w.write_record(HEADER).expect("in-memory write");
    w.into_inner().expect("in-memory write")
}

impl Row {
    /// The row as one CSV line, newline included.
    pub fn to_line(&self) -> Vec<u8> {
        let players = self
            .players
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let fields = [
            self.index.to_string(),
            self.seed.to_string(),
            self.variant.clone(),
            self.params_digest.clone(),
            self.pair.to_string(),
            self.opening.clone(),
            players,
            self.agents.join(";"),
            self.result.clone(),
            crate::util::returns_text(&self.returns),
            self.reason.clone(),
            self.plies.to_string(),
            self.actions.clone(),
        ];
        let mut w = writer();
        w.write_record(&fields).expect("in-memory write");
        w.into_inner().expect("in-memory write")
    }

    fn from_record(rec: &csv::StringRecord) -> std::result::Result<Row, String> {
        if rec.len() != HEADER.len() {
            return Err(format!("{} fields, expected {}", rec.len(), HEADER.len()));
        }
        let num = |i: usize| -> std::result::Result<u64, String> {
            rec[i]
                .parse::<u64>()
                .map_err(|_| format!("{} '{}' is not a number", HEADER[i], &rec[i]))
        };
        let players = rec[6]
            .split_whitespace()
            .map(|p| p.parse::<usize>())
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|_| format!("players '{}' are not numbers", &rec[6]))?;
        let returns = rec[9]
            .split_whitespace()
            .map(|p| p.parse::<f64>())
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|_| format!("returns '{}' are not numbers", &rec[9]))?;
        let agents: Vec<String> = rec[7].split(';').map(str::to_string).collect();
        if players.is_empty() || players.len() != agents.len() || players.len() != returns.len() {
            return Err("players, agents and returns disagree on the number of seats".into());
        }
        let plies = num(11)? as usize;
        let actions = rec[12].to_string();
        if actions.split_whitespace().count() != plies {
            return Err(format!(
                "plies {plies} but the action list has a different length"
            ));
        }
        Ok(Row {
            index: num(0)?,
            seed: num(1)?,
            variant: rec[2].to_string(),
            params_digest: rec[3].to_string(),
            pair: num(4)?,
            opening: rec[5].to_string(),
            players,
            agents,
            result: rec[8].to_string(),
            returns,
            reason: rec[10].to_string(),
            plies,
            actions,
        })
    }
}

/// What a `games.csv` holds: its complete rows, and whether its last line was cut off
/// (an interrupted write) and should be cleaned away.
pub struct Loaded {
    pub rows: Vec<Row>,
    pub truncated_tail: bool,
    /// Length in bytes of the complete part (header and complete rows).
    pub complete_len: usize,
}

/// Reads a `games.csv`. A last line without its newline is a torn write and is left
/// out (`truncated_tail`); anything else that does not parse is an error naming the line.
pub fn load(path: &Path) -> Result<Loaded> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let complete_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let truncated_tail = complete_len < bytes.len();
    let text = std::str::from_utf8(&bytes[..complete_len])
        .with_context(|| format!("{} is not UTF-8 text", path.display()))?;
    let mut rows = Vec::new();
    if text.is_empty() {
        return Ok(Loaded {
            rows,
            truncated_tail,
            complete_len,
        });
    }
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut seen = std::collections::HashSet::new();
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 1;
        let rec = rec.with_context(|| format!("{} line {line}: not CSV", path.display()))?;
        if i == 0 {
            if rec.iter().collect::<Vec<_>>() != HEADER {
                bail!(
                    "{} line 1: not a chesslab games.csv header (expected {})",
                    path.display(),
                    HEADER.join(",")
                );
            }
            continue;
        }
        let row = Row::from_record(&rec)
            .map_err(|e| anyhow::anyhow!("{} line {line}: {e}", path.display()))?;
        if !seen.insert(row.index) {
            bail!(
                "{} line {line}: game {} appears twice",
                path.display(),
                row.index
            );
        }
        rows.push(row);
    }
    Ok(Loaded {
        rows,
        truncated_tail,
        complete_len,
    })
}

/// Writes `rows` sorted by index to `path` through a temporary file and a rename, so the
/// file is never half-written.
pub fn write_sorted(path: &Path, rows: &mut [Row]) -> Result<()> {
    rows.sort_by_key(|r| r.index);
    let mut buf = header_line();
    for r in rows.iter() {
        buf.extend_from_slice(&r.to_line());
    }
    write_atomic(path, &buf)
}

/// Writes `bytes` to `path` via `<path>.tmp` + rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    // The rename below would replace a device or a link with a regular file.
    crate::util::replaceable(path, "")?;
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!("{name}.tmp"));
    // Errors name the file the user asked for, not the temporary beside it, and a failed
    // write leaves no temporary behind.
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    let done = written.and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write {}", path.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(i: u64) -> Row {
        Row {
            index: i,
            seed: 42,
            variant: "chess".into(),
            params_digest: "00ff".into(),
            pair: i / 2,
            opening: "8/8/8/8/8/8/8/K1k5 w - - 0 1".into(),
            players: vec![0, 1],
            agents: vec!["ismcts:c=0.7,iters=5".into(), "random".into()],
            result: "1/2-1/2".into(),
            returns: vec![0.0, 0.0],
            reason: "cap".into(),
            plies: 2,
            actions: "e2e4 e7e5".into(),
        }
    }

    #[test]
    fn rows_round_trip_and_torn_tails_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("games.csv");
        let mut bytes = header_line();
        bytes.extend(row(0).to_line());
        bytes.extend(row(1).to_line());
        let cut = row(2).to_line();
        bytes.extend(&cut[..cut.len() / 2]);
        std::fs::write(&p, &bytes).unwrap();
        let l = load(&p).unwrap();
        assert_eq!(l.rows, vec![row(0), row(1)]);
        assert!(l.truncated_tail);
    }

    #[test]
    fn corrupt_rows_are_errors_naming_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("games.csv");
        let mut bytes = header_line();
        bytes.extend(row(0).to_line());
        bytes.extend(b"garbage,1\n");
        bytes.extend(row(1).to_line());
        std::fs::write(&p, &bytes).unwrap();
        let e = format!("{:#}", load(&p).err().unwrap());
        assert!(e.contains("line 3"), "{e}");
    }
}

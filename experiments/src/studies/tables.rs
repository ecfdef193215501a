//! Figure tables generated from the data beside them (issue 37, "evidence that stays
//! true"): `chesslab tables results/` rewrites every block of a `README.md` under the
//! given folders that sits between
//!
//! ```text
//! <!-- generated: KIND ARGS -->
//! ...the table, rewritten...
//! <!-- end generated -->
//! ```
//!
//! and `chesslab tables --check results/` says which blocks differ from what the data
//! gives, exiting 1 (the CI test `experiments/tests/results_tables.rs` runs it on the
//! repository's `results/`). Kinds, paths relative to the README's folder:
//!
//! - `csv FILE [columns=a,b,c]`: the CSV as a Markdown table (the named columns, in that
//!   order; all by default), cells as written in the CSV, so the README quotes exactly
//!   the figures the run wrote.
//! - `runs DIR [DIR...]`: one row per run folder from its `games.csv`: agents, games,
//!   distinct games (distinct opening + action records), the first seat's score with its
//!   95% interval over colour-swapped pairs
//!   ([`crate::stats::metrics::Estimate::clustered_score`]) and, where a book opening was
//!   played by several pairs, beside it the interval over openings
//!   ([`crate::stats::metrics::over_openings`]), draws and mean length. Reading the
//!   CSV is enough (no replay: `chesslab verify` checks that the games replay).
//! - `table FILE [section=NAME]`: the first Markdown table of a report another
//!   command wrote (such as `chesslab rate`'s `rate.md`), verbatim, so a README quotes
//!   the report's figures; with `section=`, the first table under that heading
//!   (`## NAME` or `## NAME (...)`, any level; NAME is one word), e.g. one variant of
//!   `rate.md`.
//! - `pairs DIR [DIR...]`: one row per tournament folder and pairing, from its
//!   `pairings.csv` and `standings.csv`: the two agents, games, +/=/− of the first, and
//!   the standings' Elo of the mean pair score with its pentanomial 95% interval.
//!
//! Decisions: a block's text is replaced whole, so hand edits inside it are lost by the
//! next run (the markers say so); an unknown kind, a missing file or column, a marker
//! without its end, are errors naming the README and line, and nothing is written for
//! that README; README files without markers are left alone byte for byte. Tests:
//! `generated_blocks_are_rewritten_and_checked`, `bad_markers_are_errors`,
//! `runs_rows_count_pairs_and_distinct_games`, `a_reports_first_table_is_quoted`,
//! `a_reports_table_under_a_heading_is_quoted`,
//! `a_tournaments_pairings_are_tabled`.

use crate::record;
use crate::stats::metrics::Estimate;
use anyhow::{anyhow, bail, Context, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const OPEN: &str = "<!-- generated: ";
const CLOSE: &str = "<!-- end generated -->";

/// One block that differs from the data.
#[derive(Debug, PartialEq)]
pub struct Stale {
    pub readme: PathBuf,
    pub line: usize,
    pub spec: String,
}

/// The README's text with every generated block rewritten from the data in `dir`, and
/// the blocks whose text changed.
pub fn regenerate(text: &str, dir: &Path, readme: &Path) -> Result<(String, Vec<Stale>)> {
    let mut out = String::with_capacity(text.len());
    let mut stale = Vec::new();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        out.push_str(line);
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix(OPEN) {
            let spec = rest
                .strip_suffix("-->")
                .ok_or_else(|| {
                    anyhow!(
                        "{}:{}: the marker does not end with -->",
                        readme.display(),
                        i + 1
                    )
                })?
                .trim()
                .to_string();
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim() == CLOSE)
                .ok_or_else(|| {
                    anyhow!(
                        "{}:{}: `{OPEN}{spec} -->` has no `{CLOSE}` after it",
                        readme.display(),
                        i + 1
                    )
                })?;
            if let Some(j) = (i + 1..end).find(|&j| lines[j].trim().starts_with(OPEN)) {
                bail!(
                    "{}:{}: a generated block starts inside the one opened at line {}",
                    readme.display(),
                    j + 1,
                    i + 1
                );
            }
            let body = render(&spec, dir)
                .with_context(|| format!("{}:{}: `{spec}`", readme.display(), i + 1))?;
            let old: String = lines[i + 1..end].concat();
            if old != body {
                stale.push(Stale {
                    readme: readme.to_path_buf(),
                    line: i + 1,
                    spec: spec.clone(),
                });
            }
            out.push_str(&body);
            out.push_str(lines[end]);
            i = end + 1;
            continue;
        }
        i += 1;
    }
    Ok((out, stale))
}

/// The table a block's spec asks for (ending in a newline).
pub fn render(spec: &str, dir: &Path) -> Result<String> {
    let mut words = spec.split_whitespace();
    let kind = words.next().unwrap_or_default();
    let args: Vec<&str> = words.collect();
    match kind {
        "csv" => {
            let (file, columns) = match args.as_slice() {
                [f] => (*f, None),
                [f, c] if c.starts_with("columns=") => (*f, Some(&c["columns=".len()..])),
                _ => bail!("expected `csv FILE [columns=a,b,c]`"),
            };
            csv_table(&dir.join(file), columns)
        }
        "runs" => {
            if args.is_empty() {
                bail!("expected `runs DIR [DIR...]`");
            }
            runs_table(dir, &args)
        }
        "table" => match args.as_slice() {
            [f] => first_table(&dir.join(f), None),
            [f, h] if h.starts_with("section=") => {
                first_table(&dir.join(f), Some(&h["section=".len()..]))
            }
            _ => bail!("expected `table FILE [section=NAME]`"),
        },
        "pairs" => {
            if args.is_empty() {
                bail!("expected `pairs DIR [DIR...]`");
            }
            pairs_table(dir, &args)
        }
        other => bail!(
            "unknown kind '{other}'{} (known: csv, runs, table, pairs)",
            engine::suggest::did_you_mean(other, ["csv", "runs", "table", "pairs"])
        ),
    }
}

/// One row per pairing of each tournament folder (`pairs` kind).
fn pairs_table(dir: &Path, runs: &[&str]) -> Result<String> {
    use crate::stats::standings::PairingLine;
    let mut out = String::from(
        "| run | first | second | games | +/=/− | Elo of the first (pairs) | 95% interval |\n\
         |---|---|---|---:|---|---:|---|\n",
    );
    for run in runs {
        let folder = dir.join(run);
        // standings.csv is in rank order; pairings name agents by their number (the
        // `agent` column), so the spec is looked up by number, never by row.
        let specs: std::collections::HashMap<String, String> =
            read_rows(&folder.join("standings.csv"))?
                .iter()
                .map(|r| Ok((field(r, "agent")?, field(r, "spec")?)))
                .collect::<Result<_>>()?;
        let spec_of = |i: &str| -> Result<&str> {
            specs
                .get(i)
                .map(String::as_str)
                .ok_or_else(|| anyhow!("{run}/pairings.csv: no agent {i} in standings.csv"))
        };
        for r in read_rows(&folder.join("pairings.csv"))? {
            let num = |k: &str| -> Result<u64> {
                field(&r, k)?
                    .parse()
                    .with_context(|| format!("{run}/pairings.csv: column {k}"))
            };
            let p = PairingLine {
                a: 0,
                b: 0,
                wins: num("wins")?,
                draws: num("draws")?,
                losses: num("losses")?,
                penta: [num("p0")?, num("p1")?, num("p2")?, num("p3")?, num("p4")?],
                los: 0.0,
            };
            let (elo, interval) = p.elo_cells();
            out.push_str(&format!(
                "| [{run}]({run}/standings.md) | `{}` | `{}` | {} | {}/{}/{} | {elo} | {interval} |\n",
                spec_of(&field(&r, "a")?)?,
                spec_of(&field(&r, "b")?)?,
                p.wins + p.draws + p.losses,
                p.wins,
                p.draws,
                p.losses,
            ));
        }
    }
    Ok(out)
}

/// The rows of a CSV file as header-keyed maps.
fn read_rows(path: &Path) -> Result<Vec<std::collections::HashMap<String, String>>> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    r.deserialize()
        .collect::<std::result::Result<_, _>>()
        .with_context(|| format!("reading {}", path.display()))
}

fn field(row: &std::collections::HashMap<String, String>, key: &str) -> Result<String> {
    row.get(key)
        .cloned()
        .ok_or_else(|| anyhow!("no column '{key}'"))
}

/// The first Markdown table of the file at `path` (its lines that start with `|`, from
/// the first such line to the next line that does not); with `section`, the first table
/// under the heading `# section` or `# section (...)` (any level), before the next
/// heading: `chesslab rate` writes one table a variant under `## variant (N games, ...)`.
fn first_table(path: &Path, section: Option<&str>) -> Result<String> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let all: Vec<&str> = text.lines().collect();
    let lines: &[&str] = match section {
        None => &all,
        Some(name) => {
            let is_it = |l: &str| {
                let t = l.trim_start_matches('#');
                t.len() < l.len()
                    && t.strip_prefix(' ').is_some_and(|t| {
                        let t = t.trim_end();
                        t == name || t.strip_prefix(name).is_some_and(|r| r.starts_with(" ("))
                    })
            };
            let start = all
                .iter()
                .position(|l| is_it(l))
                .ok_or_else(|| anyhow!("{} has no heading '{name}'", path.display()))?
                + 1;
            let end = all[start..]
                .iter()
                .position(|l| l.starts_with('#'))
                .map_or(all.len(), |k| start + k);
            &all[start..end]
        }
    };
    let rows: Vec<&str> = lines
        .iter()
        .copied()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .collect();
    if rows.is_empty() {
        match section {
            Some(name) => bail!("{} has no Markdown table under '{name}'", path.display()),
            None => bail!("{} has no Markdown table", path.display()),
        }
    }
    Ok(rows.iter().map(|r| format!("{r}\n")).collect())
}

fn csv_table(path: &Path, columns: Option<&str>) -> Result<String> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let header: Vec<String> = r
        .headers()
        .with_context(|| format!("{}: no header", path.display()))?
        .iter()
        .map(str::to_string)
        .collect();
    let picks: Vec<usize> = match columns {
        None => (0..header.len()).collect(),
        Some(list) => list
            .split(',')
            .map(|c| {
                header.iter().position(|h| h == c).ok_or_else(|| {
                    anyhow!(
                        "{}: no column '{c}' (columns: {})",
                        path.display(),
                        header.join(", ")
                    )
                })
            })
            .collect::<Result<_>>()?,
    };
    let mut s = String::new();
    s.push_str(&format!(
        "| {} |\n|{}\n",
        picks
            .iter()
            .map(|&i| header[i].as_str())
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(picks.len())
    ));
    for rec in r.records() {
        let rec = rec.with_context(|| format!("reading {}", path.display()))?;
        s.push_str(&format!(
            "| {} |\n",
            picks
                .iter()
                .map(|&i| rec.get(i).unwrap_or("").replace('|', "\\|"))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    Ok(s)
}

/// One run folder's row figures.
pub struct RunRow {
    pub agents: String,
    pub games: usize,
    pub distinct: usize,
    pub pairs: usize,
    pub first: Estimate,
    /// Over book openings, where an opening had several pairs.
    pub by_opening: Option<crate::stats::metrics::OpeningEstimate>,
    pub draws: f64,
    pub length: f64,
}

/// The figures of a run folder's `games.csv`.
pub fn run_row(dir: &Path) -> Result<RunRow> {
    let games = dir.join("games.csv");
    let loaded = record::load(&games)?;
    let rows = loaded.rows;
    if rows.is_empty() {
        bail!("{} holds no games", games.display());
    }
    let n = rows.len();
    let scores: Vec<(u64, f64)> = rows
        .iter()
        .map(|r| (r.pair, (r.returns[0].clamp(-1.0, 1.0) + 1.0) / 2.0))
        .collect();
    let distinct: BTreeSet<(&str, &str)> = rows
        .iter()
        .map(|r| (r.opening.as_str(), r.actions.as_str()))
        .collect();
    let pairs: BTreeSet<u64> = rows.iter().map(|r| r.pair).collect();
    let mut agents: Vec<String> = rows.iter().flat_map(|r| r.agents.clone()).collect();
    agents.sort();
    agents.dedup();
    Ok(RunRow {
        agents: agents
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(" vs "),
        games: n,
        distinct: distinct.len(),
        pairs: pairs.len(),
        first: Estimate::clustered_score(&scores),
        by_opening: crate::stats::metrics::over_openings(
            &rows
                .iter()
                .zip(&scores)
                .map(|(r, &(p, x))| (r.opening.as_str(), p, x))
                .collect::<Vec<_>>(),
        ),
        draws: rows
            .iter()
            .filter(|r| r.returns.iter().all(|x| *x == 0.0))
            .count() as f64
            / n as f64,
        length: rows.iter().map(|r| r.plies).sum::<usize>() as f64 / n as f64,
    })
}

fn runs_table(dir: &Path, runs: &[&str]) -> Result<String> {
    let mut s = String::from(
        "| run | agents | games | distinct games | pairs | first seat's score (95%, over pairs; over openings where a book opening had several pairs) | draws | mean length |\n|---|---|---|---|---|---|---|---|\n",
    );
    for run in runs {
        let r = run_row(&dir.join(run))?;
        let first = match &r.by_opening {
            Some(o) => format!(
                "{}; ± {:.3} over {} openings",
                r.first.fmt(3),
                o.estimate.half,
                o.openings
            ),
            None => r.first.fmt(3),
        };
        s.push_str(&format!(
            "| [{run}]({run}/report.md) | {} | {} | {} | {} | {} | {:.1}% | {:.1} |\n",
            r.agents,
            r.games,
            r.distinct,
            r.pairs,
            first,
            100.0 * r.draws,
            r.length
        ));
    }
    Ok(s)
}

/// Every `README.md` under `roots` (a root may be a README itself), sorted.
pub fn readmes(roots: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    fn walk(p: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .with_context(|| format!("reading {}", p.display()))?
                .map(|e| e.map(|e| e.path()))
                .collect::<std::io::Result<_>>()?;
            entries.sort();
            for e in entries {
                walk(&e, out)?;
            }
        } else if p.file_name().is_some_and(|n| n == "README.md") {
            out.push(p.to_path_buf());
        }
        Ok(())
    }
    for r in roots {
        if !r.exists() {
            bail!("{} does not exist", r.display());
        }
        walk(r, &mut out)?;
    }
    Ok(out)
}

/// Regenerates (or, with `check`, only compares) every README under `roots`; returns
/// the stale blocks (with `check`, the ones that would change; otherwise the ones
/// rewritten) and the number of blocks seen.
pub fn run(roots: &[PathBuf], check: bool) -> Result<(Vec<Stale>, usize)> {
    let mut stale = Vec::new();
    let mut blocks = 0;
    for readme in readmes(roots)? {
        let text = std::fs::read_to_string(&readme)
            .with_context(|| format!("reading {}", readme.display()))?;
        if !text.contains(OPEN) {
            continue;
        }
        blocks += text.lines().filter(|l| l.trim().starts_with(OPEN)).count();
        let dir = readme.parent().unwrap_or(Path::new("."));
        let (new, s) = regenerate(&text, dir, &readme)?;
        if !check && new != text {
            record::write_atomic(&readme, new.as_bytes())
                .with_context(|| format!("writing {}", readme.display()))?;
        }
        stale.extend(s);
    }
    Ok((stale, blocks))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games_csv(rows: &[(u64, &str, f64)]) -> String {
        games_csv_from(rows, |_| String::new())
    }

    /// Like [`games_csv`], each pair's opening from `opening`.
    fn games_csv_from(rows: &[(u64, &str, f64)], opening: impl Fn(u64) -> String) -> String {
        let mut s = String::from_utf8(record::header_line()).unwrap();
        for (i, (pair, actions, r)) in rows.iter().enumerate() {
            let row = record::Row {
                index: i as u64,
                seed: i as u64,
                variant: "chess".into(),
                params_digest: "0".into(),
                pair: *pair,
                opening: opening(*pair),
                players: vec![0, 0],
                agents: vec!["random".into(), "random".into()],
                result: crate::util::result_text(&[*r, -*r]),
                returns: vec![*r, -*r],
                reason: "checkmate".into(),
                plies: actions.split_whitespace().count(),
                actions: actions.to_string(),
            };
            s.push_str(std::str::from_utf8(&row.to_line()).unwrap());
        }
        s
    }

    #[test]
    fn runs_rows_count_pairs_and_distinct_games() {
        let d = tempfile::tempdir().unwrap();
        let run = d.path().join("run");
        std::fs::create_dir(&run).unwrap();
        // Two pairs, each pair the same game twice: 2 distinct of 4.
        std::fs::write(
            run.join("games.csv"),
            games_csv(&[
                (0, "e2e4 e7e5", 1.0),
                (0, "e2e4 e7e5", 1.0),
                (1, "d2d4", 0.0),
                (1, "d2d4", 0.0),
            ]),
        )
        .unwrap();
        let r = run_row(&run).unwrap();
        assert_eq!((r.games, r.distinct, r.pairs), (4, 2, 2));
        assert_eq!(r.first.mean, 0.75);
        assert_eq!(r.draws, 0.5);
        assert_eq!(r.length, 1.5);
        let t = render("runs run", d.path()).unwrap();
        assert!(
            t.contains("| [run](run/report.md) | `random` | 4 | 2 | 2 | 0.750 ± "),
            "{t}"
        );
    }

    #[test]
    fn runs_rows_add_the_interval_over_a_books_openings() {
        let d = tempfile::tempdir().unwrap();
        let run = d.path().join("run");
        std::fs::create_dir(&run).unwrap();
        // Four pairs from a two-opening book: each opening played by two pairs.
        let rows: Vec<(u64, &str, f64)> = (0..8u64)
            .map(|i| {
                (
                    i / 2,
                    "e2e4",
                    if (i / 2).is_multiple_of(2) { 1.0 } else { 0.5 },
                )
            })
            .collect();
        let csv = games_csv_from(&rows, |p| {
            format!("actions: {}", ["g1f3", "d2d4"][(p % 2) as usize])
        });
        std::fs::write(run.join("games.csv"), csv).unwrap();
        let r = run_row(&run).unwrap();
        let o = r.by_opening.expect("openings repeat across pairs");
        assert_eq!((o.openings, o.pairs), (2, 4));
        assert!(o.estimate.half > r.first.half);
        let t = render("runs run", d.path()).unwrap();
        assert!(t.contains(" over 2 openings |"), "{t}");
        // One pair per opening: the over-pairs figure alone.
        let once = d.path().join("once");
        std::fs::create_dir(&once).unwrap();
        std::fs::write(once.join("games.csv"), games_csv(&rows)).unwrap();
        assert!(run_row(&once).unwrap().by_opening.is_none());
    }

    #[test]
    fn generated_blocks_are_rewritten_and_checked() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("v.csv"),
            "feature,value,lo\npawn,1.0,1.0\nqueen,9.1,8\n",
        )
        .unwrap();
        let readme = d.path().join("README.md");
        let text = "# T\n\nprose 9.1\n<!-- generated: csv v.csv columns=feature,value -->\n| old |\n<!-- end generated -->\nafter\n";
        std::fs::write(&readme, text).unwrap();
        let (stale, blocks) = run(&[d.path().to_path_buf()], true).unwrap();
        assert_eq!(blocks, 1);
        assert_eq!(stale.len(), 1);
        assert_eq!(stale[0].line, 4);
        // --check writes nothing.
        assert_eq!(std::fs::read_to_string(&readme).unwrap(), text);
        run(&[d.path().to_path_buf()], false).unwrap();
        let new = std::fs::read_to_string(&readme).unwrap();
        assert_eq!(
            new,
            "# T\n\nprose 9.1\n<!-- generated: csv v.csv columns=feature,value -->\n| feature | value |\n|---|---|\n| pawn | 1.0 |\n| queen | 9.1 |\n<!-- end generated -->\nafter\n"
        );
        let (stale, _) = run(&[d.path().to_path_buf()], true).unwrap();
        assert!(stale.is_empty(), "{stale:?}");
        // The data changes: the committed table is now stale.
        std::fs::write(
            d.path().join("v.csv"),
            "feature,value,lo\npawn,1.0,1.0\nqueen,9.2,8\n",
        )
        .unwrap();
        assert_eq!(run(&[d.path().to_path_buf()], true).unwrap().0.len(), 1);
    }

    #[test]
    fn a_reports_first_table_is_quoted() {
        let d = tempfile::tempdir().unwrap();
        let report = "## chess\n\nAnchor: x.\n\n| agent | Elo |\n|---|---:|\n| a | 1500 |\n\nnote\n| other | 1 |\n";
        std::fs::write(d.path().join("rate.md"), report).unwrap();
        assert_eq!(
            render("table rate.md", d.path()).unwrap(),
            "| agent | Elo |\n|---|---:|\n| a | 1500 |\n"
        );
        std::fs::write(d.path().join("none.md"), "no table\n").unwrap();
        let err = format!("{:#}", render("table none.md", d.path()).unwrap_err());
        assert!(err.contains("no Markdown table"), "{err}");
        assert!(format!("{:#}", render("table", d.path()).unwrap_err())
            .contains("expected `table FILE [section=NAME]`"));
    }

    /// `section=`: the table under that heading (`chesslab rate` writes one a variant),
    /// not an earlier one, and not one under a later heading.
    #[test]
    fn a_reports_table_under_a_heading_is_quoted() {
        let d = tempfile::tempdir().unwrap();
        let report = "# Ratings\n\n## chess (10 games, 2 agents)\n\n| agent | Elo |\n|---|---:|\n| a | 1500 |\n\n\
                      ## half-alice (6 games, 2 agents)\n\nAnchor.\n\n| agent | Elo |\n|---|---:|\n| b | 1300 |\n\n\
                      ## half\n\nno table here\n\n## later\n\n| x | 1 |\n";
        std::fs::write(d.path().join("rate.md"), report).unwrap();
        assert_eq!(
            render("table rate.md section=half-alice", d.path()).unwrap(),
            "| agent | Elo |\n|---|---:|\n| b | 1300 |\n"
        );
        assert_eq!(
            render("table rate.md section=chess", d.path()).unwrap(),
            "| agent | Elo |\n|---|---:|\n| a | 1500 |\n"
        );
        let err = format!(
            "{:#}",
            render("table rate.md section=half", d.path()).unwrap_err()
        );
        assert!(err.contains("no Markdown table under 'half'"), "{err}");
        let err = format!(
            "{:#}",
            render("table rate.md section=zombie", d.path()).unwrap_err()
        );
        assert!(err.contains("no heading 'zombie'"), "{err}");
    }

    /// The figures of the committed secret-Cassandra match (its standings.md says +430.3
    /// [+349.9, +564.8] for the pentanomial 2, 0, 11, 1, 86), one run per folder.
    #[test]
    fn a_tournaments_pairings_are_tabled() {
        let d = tempfile::tempdir().unwrap();
        let run = |name: &str, pairing: &str| {
            let f = d.path().join(name);
            std::fs::create_dir(&f).unwrap();
            std::fs::write(
                f.join("standings.csv"),
                "rank,agent,spec,games,points,score,mean_return,elo,elo_ci95\n\
                 1,1,\"pimc:worlds=10\",200,1,1,1,1,1\n2,2,ismcts,200,1,1,1,1,1\n",
            )
            .unwrap();
            std::fs::write(
                f.join("pairings.csv"),
                format!("a,b,games,wins,draws,losses,p0,p1,p2,p3,p4,los\n{pairing}\n"),
            )
            .unwrap();
        };
        run("m", "1,2,200,184,1,15,2,0,11,1,86,1.0000");
        run("w", "2,1,4,4,0,0,0,0,0,0,2,1.0000");
        let t = render("pairs m w", d.path()).unwrap();
        let rows: Vec<&str> = t.lines().collect();
        assert_eq!(rows.len(), 4, "{t}");
        assert_eq!(
            rows[2],
            "| [m](m/standings.md) | `pimc:worlds=10` | `ismcts` | 200 | 184/1/15 | +430.3 | [+349.9, +564.8] |"
        );
        assert!(rows[3].starts_with("| [w](w/standings.md) | `ismcts` | `pimc:worlds=10` | 4 | 4/0/0 | all games won | ≥ "), "{t}");
        // standings.csv is in rank order: when agent 2 ranks first, agent 1 is still the
        // pairing's `a` (the texel match of session 19 was mislabelled so).
        run("r", "1,2,200,67,23,110,29,12,42,7,10,0.0006");
        std::fs::write(
            d.path().join("r/standings.csv"),
            "rank,agent,spec,games,points,score,mean_return,elo,elo_ci95\n\
             1,2,stockfish,200,1,1,1,1,1\n2,1,alphabeta,200,1,1,1,1,1\n",
        )
        .unwrap();
        let t = render("pairs r", d.path()).unwrap();
        assert!(
            t.contains(
                "| [r](r/standings.md) | `alphabeta` | `stockfish` | 200 | 67/23/110 | -75.9 |"
            ),
            "{t}"
        );
        run("bad", "1,3,2,1,0,1,0,1,0,0,0,0.5");
        let err = format!("{:#}", render("pairs bad", d.path()).unwrap_err());
        assert!(err.contains("no agent 3"), "{err}");
        assert!(format!("{:#}", render("pairs none", d.path()).unwrap_err()).contains("none"));
    }

    #[test]
    fn bad_markers_are_errors() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("v.csv"), "a,b\n1,2\n").unwrap();
        let err = |text: &str| {
            format!(
                "{:#}",
                regenerate(text, d.path(), Path::new("R.md")).unwrap_err()
            )
        };
        assert!(err("<!-- generated: csv v.csv -->\n").contains("no `<!-- end generated -->`"));
        assert!(
            err("<!-- generated: pie v.csv -->\n<!-- end generated -->\n")
                .contains("unknown kind 'pie'")
        );
        assert!(
            err("<!-- generated: csv nope.csv -->\n<!-- end generated -->\n").contains("nope.csv")
        );
        assert!(
            err("<!-- generated: csv v.csv columns=a,z -->\n<!-- end generated -->\n")
                .contains("no column 'z'")
        );
        assert!(
            err("<!-- generated: runs -->\n<!-- end generated -->\n").contains("expected `runs")
        );
        assert!(err("x\n<!-- generated: csv v.csv -->\n<!-- generated: csv v.csv -->\n<!-- end generated -->\n")
            .contains("R.md:3"));
        // No markers: untouched.
        let (t, s) = regenerate("plain\n", d.path(), Path::new("R.md")).unwrap();
        assert_eq!((t.as_str(), s.len()), ("plain\n", 0));
    }
}

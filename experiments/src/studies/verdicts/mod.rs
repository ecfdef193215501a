//! A designer's page (issue 67): `chesslab verdicts results` writes `results/VERDICTS.md`
//! and one forest plot a question (`results/verdicts/<id>.svg`) from the questions listed
//! in `results/verdicts.toml` and the `games.csv` of the runs they name; `--check`
//! compares instead and names what differs (CI: `experiments/tests/verdicts_page.rs`).
//! The long evidence stays in `results/README.md`; this page is the short answer.
//!
//! The data, per question (`[[questions]]`): `id` (the plot's file name: lower-case
//! letters, digits and `-`), `game`, `question`, `first_mover` (who moves first in that
//! game, said on the page because in Time White moves second), `against` (optional: the
//! baseline in words when it is not the same player's orthodox chess, as for Tar Pit's
//! handicaps against the seed's settings), `measure`, `sign`, the
//! answer sentences `yes`, `no` and `unclear`, and its players (`[[questions.players]]`:
//! `label` with the agents' generation, `elo` on Stockfish's scale as results/README.md
//! quotes it (absent for an unrated player), `run` and `baseline`, each a run folder
//! relative to `results/` or a list of folders pooled as one sample; `baseline` absent
//! compares with ½ for `first-seat` and 0 otherwise). An optional top-level `note` is
//! printed under the page's "how to read".
//!
//! Measures, each a value per game: `first-seat` the first seat's score
//! ((return + 1) / 2, as `chesslab tables`' runs rows), `draws` 1 for a game every seat
//! ended at 0, `length` the recorded actions (plies). A comparison is the player's mean
//! in `run` minus its mean in `baseline`.
//!
//! Screened openings (results/README.md "Method", item 1): a run played from a book
//! (its `run.json` names it, `openings_file`) leaves out the games whose opening the lab's
//! screen flagged in that book, the list `openings/screen/<book>.lab.flagged.txt` under
//! the results folder ([`flagged_of`]); a book without a list leaves out nothing. The
//! page says how many games each sample left out. Decision: the lab's list, not
//! Stockfish's (which exists for the orthodox books only), so every book is screened
//! alike. Test: `flagged_openings_are_left_out`.
//!
//! Statistics: a sample's 95% interval is the one over openings
//! ([`crate::stats::metrics::over_openings`]) where a book opening was played by several
//! pairs, else [`crate::stats::metrics::Estimate::clustered_score`] over colour-swapped
//! pairs, as the `runs` tables do; se = half-width / 1.96. For `length` the estimators'
//! floor (the half-width of one cluster's weight in a proportion, about 1.96 / clusters)
//! is negligible against lengths of tens of plies and is left in. Pooled runs keep each
//! run's pairs apart (a pair number is one cluster within its run) and merge openings
//! by their text, as `results/chess/depths/pool.md` does. A difference of two
//! independent samples has se = √(se_a² + se_b²); its two-sided p is from the normal
//! approximation; Holm's step-down correction runs over every comparison on the page
//! (every player of every question), and a comparison is *clear* when its adjusted
//! p < 0.05. The answer: every player clear in the `sign` direction (`positive` or
//! `negative`) → `yes`; every one clear the other way → `no`; anything else →
//! `unclear` (so a question the README calls unsettled comes out unclear from the data,
//! whatever its text says). With two or more distinct ratings among its players, "how
//! sure" adds the least-squares slope of the difference on the rating (per 100 Elo,
//! its se from the points' own se, [`stats::slope`]) and names a rise or fall with
//! strength only when the slope's 95% interval excludes 0.
//!
//! Output decisions: the page and plots are computed whole before anything is written
//! (a bad question writes nothing); figures are printed with fixed decimals, so the
//! bytes depend on the data alone and `--check` compares bytes; an `.svg` under
//! `results/verdicts/` that no question produces is reported by `--check` and removed
//! by a write. Bad input (a missing run folder or `games.csv`, a broken TOML, an unknown
//! measure or sign, a duplicate id) is an error naming the file and the question.
//!
//! Tests: `stats::tests::*` (Holm's known example, p, slope), `answers_follow_the_rule`,
//! `a_page_is_computed_and_checked`, `plots_are_deterministic`, `bad_input_names_the_problem`;
//! the repository's page: `experiments/tests/verdicts_page.rs`.

pub mod page;
pub mod stats;

use crate::record;
use crate::run::opening_screen::{opening_key, read_flagged};
use crate::stats::metrics::{over_openings, Estimate};
use anyhow::{anyhow, bail, Context, Result};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The questions file, relative to the results folder.
pub const CONFIG: &str = "verdicts.toml";
/// The page, relative to the results folder.
pub const PAGE: &str = "VERDICTS.md";
/// The plots' folder, relative to the results folder.
pub const PLOTS: &str = "verdicts";
/// Holm-adjusted p below this is "clear".
pub const ALPHA: f64 = 0.05;
const Z95: f64 = 1.96;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub note: Option<String>,
    pub questions: Vec<QuestionSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionSpec {
    pub id: String,
    pub game: String,
    pub question: String,
    pub first_mover: String,
    /// What the players' runs are compared with, in words (default: the same player's
    /// orthodox chess, or ½ / 0 without a baseline).
    #[serde(default)]
    pub against: Option<String>,
    pub measure: String,
    pub sign: String,
    pub yes: String,
    pub no: String,
    pub unclear: String,
    pub players: Vec<PlayerSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    pub label: String,
    #[serde(default)]
    pub elo: Option<i64>,
    pub run: Runs,
    #[serde(default)]
    pub baseline: Option<Runs>,
}

/// One run folder, or several pooled into one sample.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Runs {
    One(String),
    Many(Vec<String>),
}

impl Runs {
    pub fn list(&self) -> Vec<&str> {
        match self {
            Runs::One(r) => vec![r.as_str()],
            Runs::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// What a question compares, per game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measure {
    FirstSeat,
    Draws,
    Length,
}

impl Measure {
    pub const NAMES: [&'static str; 3] = ["first-seat", "draws", "length"];

    pub fn parse(s: &str) -> Result<Measure> {
        Ok(match s {
            "first-seat" => Measure::FirstSeat,
            "draws" => Measure::Draws,
            "length" => Measure::Length,
            other => bail!(
                "unknown measure '{other}' (known: {})",
                Measure::NAMES.join(", ")
            ),
        })
    }

    /// The value of one game.
    fn value(self, row: &record::Row) -> f64 {
        match self {
            Measure::FirstSeat => (row.returns[0].clamp(-1.0, 1.0) + 1.0) / 2.0,
            Measure::Draws => f64::from(u8::from(row.returns.iter().all(|x| *x == 0.0))),
            Measure::Length => row.plies as f64,
        }
    }

    /// What a comparison without a baseline is against.
    pub fn null(self) -> f64 {
        match self {
            Measure::FirstSeat => 0.5,
            _ => 0.0,
        }
    }

    /// Decimals the page prints.
    pub fn decimals(self) -> usize {
        match self {
            Measure::Length => 1,
            _ => 3,
        }
    }

    /// The measure in words.
    pub fn words(self) -> &'static str {
        match self {
            Measure::FirstSeat => "the first seat's score",
            Measure::Draws => "the draw rate",
            Measure::Length => "the mean length in recorded actions (plies)",
        }
    }
}

/// The direction that answers "yes".
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sign {
    Positive,
    Negative,
}

impl Sign {
    pub fn parse(s: &str) -> Result<Sign> {
        Ok(match s {
            "positive" => Sign::Positive,
            "negative" => Sign::Negative,
            other => bail!("unknown sign '{other}' (known: positive, negative)"),
        })
    }
}

/// One run (or pool of runs) reduced to a measure's estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub runs: Vec<String>,
    pub estimate: Estimate,
    pub games: usize,
    /// Independent units the interval is over: openings or pairs.
    pub units: usize,
    pub over_openings: bool,
    /// Games left out because the screen flagged their book opening.
    pub left_out: usize,
}

impl Sample {
    pub fn se(&self) -> f64 {
        self.estimate.half / Z95
    }
}

/// One player of one question.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub label: String,
    pub elo: Option<i64>,
    pub variant: Sample,
    pub baseline: Option<Sample>,
    pub diff: f64,
    pub se: f64,
    pub p: f64,
    /// Holm-adjusted over the page.
    pub holm: f64,
}

impl Comparison {
    pub fn half(&self) -> f64 {
        Z95 * self.se
    }
    /// Clear after Holm's correction, and in which direction (+1 / −1).
    pub fn clear(&self) -> Option<i8> {
        (self.holm < ALPHA).then_some(if self.diff > 0.0 { 1 } else { -1 })
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Answer {
    Yes,
    No,
    Unclear,
}

/// The answer rule: all clear in `sign`'s direction → yes; all clear the other way → no.
pub fn answer(sign: Sign, clear: &[Option<i8>]) -> Answer {
    let want = if sign == Sign::Positive { 1 } else { -1 };
    if !clear.is_empty() && clear.iter().all(|c| *c == Some(want)) {
        Answer::Yes
    } else if !clear.is_empty() && clear.iter().all(|c| *c == Some(-want)) {
        Answer::No
    } else {
        Answer::Unclear
    }
}

/// One question with its players' comparisons.
#[derive(Clone, Debug)]
pub struct Question {
    pub id: String,
    pub game: String,
    pub question: String,
    pub first_mover: String,
    pub against: Option<String>,
    pub measure: Measure,
    pub sign: Sign,
    pub texts: [String; 3],
    pub players: Vec<Comparison>,
}

impl Question {
    pub fn answer(&self) -> Answer {
        let clear: Vec<Option<i8>> = self.players.iter().map(Comparison::clear).collect();
        answer(self.sign, &clear)
    }

    pub fn answer_text(&self) -> &str {
        match self.answer() {
            Answer::Yes => &self.texts[0],
            Answer::No => &self.texts[1],
            Answer::Unclear => &self.texts[2],
        }
    }

    /// The slope of the difference on the rating, per 100 Elo, over rated players.
    pub fn trend(&self) -> Option<stats::Slope> {
        let pts: Vec<(f64, f64, f64)> = self
            .players
            .iter()
            .filter_map(|c| c.elo.map(|e| (e as f64 / 100.0, c.diff, c.se)))
            .collect();
        stats::slope(&pts)
    }
}

/// Every question of the page, computed.
#[derive(Clone, Debug)]
pub struct Page {
    pub note: Option<String>,
    pub questions: Vec<Question>,
    pub comparisons: usize,
}

/// The measure's sample over the games of `runs` (folders relative to `results`).
pub fn sample(results: &Path, runs: &[&str], measure: Measure) -> Result<Sample> {
    if runs.is_empty() {
        bail!("an empty list of runs");
    }
    let mut rows = Vec::new();
    let mut left_out = 0;
    for (k, run) in runs.iter().enumerate() {
        let dir = results.join(run);
        if !dir.is_dir() {
            bail!("run folder {} does not exist", dir.display());
        }
        let games = dir.join("games.csv");
        let loaded = record::load(&games)?;
        if loaded.rows.is_empty() {
            bail!("{} holds no games", games.display());
        }
        let flagged = flagged_of(results, &dir)?;
        let before = loaded.rows.len();
        let kept: Vec<_> = loaded
            .rows
            .into_iter()
            .filter(|r| !flagged.contains(&opening_key(&r.opening)))
            .collect();
        if kept.is_empty() {
            bail!("{}: every game's opening is flagged", games.display());
        }
        left_out += before - kept.len();
        rows.extend(kept.into_iter().map(|r| (k as u64, r)));
    }
    // A pair number is a cluster within its run only.
    let games: Vec<(&str, u64, f64)> = rows
        .iter()
        .map(|(k, r)| (r.opening.as_str(), (k << 40) | r.pair, measure.value(r)))
        .collect();
    let (estimate, units, by_openings) = match over_openings(&games) {
        Some(o) => (o.estimate, o.openings, true),
        None => {
            let xs: Vec<(u64, f64)> = games.iter().map(|g| (g.1, g.2)).collect();
            let pairs = xs.iter().map(|x| x.0).collect::<BTreeSet<_>>().len();
            (Estimate::clustered_score(&xs), pairs, false)
        }
    };
    if estimate.half.is_nan() {
        bail!("fewer than two pairs: no interval");
    }
    Ok(Sample {
        runs: runs.iter().map(|r| r.to_string()).collect(),
        estimate,
        games: games.len(),
        units,
        over_openings: by_openings,
        left_out,
    })
}

/// The openings the lab's screen flagged in the book `run_dir` was played from (empty
/// when its `run.json` names no book, or the book has no list under
/// `results/openings/screen/`).
pub fn flagged_of(results: &Path, run_dir: &Path) -> Result<BTreeSet<String>> {
    let json = run_dir.join("run.json");
    if !json.is_file() {
        return Ok(BTreeSet::new());
    }
    let text =
        std::fs::read_to_string(&json).with_context(|| format!("reading {}", json.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not valid JSON", json.display()))?;
    let Some(book) = value.get("openings_file").and_then(|v| v.as_str()) else {
        return Ok(BTreeSet::new());
    };
    let Some(stem) = Path::new(book).file_stem().and_then(|s| s.to_str()) else {
        return Ok(BTreeSet::new());
    };
    let list = results
        .join("openings/screen")
        .join(format!("{stem}.lab.flagged.txt"));
    if !list.is_file() {
        return Ok(BTreeSet::new());
    }
    read_flagged(&list)
}

/// Reads and checks `verdicts.toml` (errors name the file and the question).
pub fn load_config(path: &Path) -> Result<Config> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let config: Config = toml::from_str(&text)
        .with_context(|| format!("{} is not a valid questions file", path.display()))?;
    if config.questions.is_empty() {
        bail!("{}: no [[questions]]", path.display());
    }
    let mut ids = BTreeSet::new();
    for q in &config.questions {
        let at = || format!("{}: question '{}'", path.display(), q.id);
        if q.id.is_empty()
            || !q
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            bail!("{}: the id may hold only a-z, 0-9 and '-'", at());
        }
        if !ids.insert(q.id.as_str()) {
            bail!("{}: the id is used twice", at());
        }
        Measure::parse(&q.measure).with_context(at)?;
        Sign::parse(&q.sign).with_context(at)?;
        if q.players.is_empty() {
            bail!("{}: no [[questions.players]]", at());
        }
    }
    Ok(config)
}

/// Computes the page from `results/verdicts.toml` and the runs it names.
pub fn compute(results: &Path) -> Result<Page> {
    let path = results.join(CONFIG);
    let config = load_config(&path)?;
    let mut questions = Vec::new();
    for q in &config.questions {
        let measure = Measure::parse(&q.measure)?;
        let mut players = Vec::new();
        for p in &q.players {
            let at = || {
                format!(
                    "{}: question '{}', player '{}'",
                    path.display(),
                    q.id,
                    p.label
                )
            };
            let variant = sample(results, &p.run.list(), measure).with_context(at)?;
            let baseline = match &p.baseline {
                Some(b) => Some(sample(results, &b.list(), measure).with_context(at)?),
                None => None,
            };
            let (diff, se) = match &baseline {
                Some(b) => (
                    variant.estimate.mean - b.estimate.mean,
                    (variant.se().powi(2) + b.se().powi(2)).sqrt(),
                ),
                None => (variant.estimate.mean - measure.null(), variant.se()),
            };
            players.push(Comparison {
                label: p.label.clone(),
                elo: p.elo,
                variant,
                baseline,
                diff,
                se,
                p: stats::two_sided_p(diff, se),
                holm: f64::NAN,
            });
        }
        questions.push(Question {
            id: q.id.clone(),
            game: q.game.clone(),
            question: q.question.clone(),
            first_mover: q.first_mover.clone(),
            against: q.against.clone(),
            measure,
            sign: Sign::parse(&q.sign)?,
            texts: [q.yes.clone(), q.no.clone(), q.unclear.clone()],
            players,
        });
    }
    let ps: Vec<f64> = questions
        .iter()
        .flat_map(|q| q.players.iter().map(|c| c.p))
        .collect();
    let mut adjusted = stats::holm(&ps).into_iter();
    for q in &mut questions {
        for c in &mut q.players {
            c.holm = adjusted
                .next()
                .ok_or_else(|| anyhow!("Holm: too few values"))?;
        }
    }
    Ok(Page {
        note: config.note,
        comparisons: ps.len(),
        questions,
    })
}

/// What `run` found: the files that differ (with `check`) or were written, and counts.
#[derive(Debug)]
pub struct Outcome {
    pub changed: Vec<String>,
    pub files: usize,
    pub questions: usize,
    pub comparisons: usize,
}

/// Writes (or with `check` compares) the page and its plots under `results`.
pub fn run(results: &Path, check: bool) -> Result<Outcome> {
    let page = compute(results)?;
    let mut files: Vec<(PathBuf, String)> = vec![(results.join(PAGE), page::markdown(&page))];
    for q in &page.questions {
        files.push((
            results.join(PLOTS).join(format!("{}.svg", q.id)),
            page::svg(q),
        ));
    }
    let mut changed = Vec::new();
    for (path, text) in &files {
        match std::fs::read(path) {
            Ok(old) if old == text.as_bytes() => {}
            Ok(_) => changed.push(format!("{} differs from its data", path.display())),
            Err(_) => changed.push(format!("{} is missing", path.display())),
        }
    }
    let plots = results.join(PLOTS);
    let mut extra = Vec::new();
    if plots.is_dir() {
        for e in
            std::fs::read_dir(&plots).with_context(|| format!("reading {}", plots.display()))?
        {
            let p = e?.path();
            if p.extension().is_some_and(|x| x == "svg") && !files.iter().any(|(f, _)| *f == p) {
                changed.push(format!("{} belongs to no question", p.display()));
                extra.push(p);
            }
        }
    }
    changed.sort();
    if !check {
        std::fs::create_dir_all(&plots).with_context(|| format!("creating {}", plots.display()))?;
        for (path, text) in &files {
            if std::fs::read(path).ok().as_deref() != Some(text.as_bytes()) {
                record::write_atomic(path, text.as_bytes())
                    .with_context(|| format!("writing {}", path.display()))?;
            }
        }
        for p in extra {
            std::fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
        }
    }
    Ok(Outcome {
        changed,
        files: files.len(),
        questions: page.questions.len(),
        comparisons: page.comparisons,
    })
}

#[cfg(test)]
mod tests;

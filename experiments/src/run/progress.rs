//! How a run shows its progress while games are played: a bar on a terminal, a line per
//! finished game when standard error is not one (a pipe, a log file, a batch job), as
//! fastchess does (issue 39: 20 Cassandra games ran 228 s in silence under a pipe).
//!
//! [`matches::run`](crate::run::matches::run) reports every finished game to a
//! [`Progress`]; [`for_stderr`] picks the bar or the lines. `tune` and `values` (and
//! anything else that plays through `matches::run`) get the same choice by calling
//! [`for_stderr`].
//!
//! The line, one per game in the order games finish:
//! `game 3/20 (#2): alphabeta:depth=2 vs greedy 1-0 checkmate, 14 plies | alphabeta:depth=2 vs greedy +2 =0 -1 (66.7%)`:
//! the count of finished games over the games this run plays (games of a resumed run
//! included), the game's index in games.csv, the players in seat order, result, reason
//! and length, then the running score of that matchup from the first-named agent's side
//! (wins, draws, losses, points in percent; two-seat games). Variants with one seat or
//! more than two print the game alone: their matchup score is in the standings.
//!
//! Tests: `lines_name_players_result_and_running_score` below, and
//! `tournament_off_a_terminal_prints_a_line_per_game` (tests/tournament_cli.rs).

use crate::record::Row;
use crate::stats::standings;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::Instant;

/// Told of every finished game by `matches::run`, under the run's lock.
pub trait Progress: Sync {
    /// `row` has just finished; `rows` are every finished row of the run so far (a resumed
    /// run's earlier rows included), `specs` the agents.
    fn game_done(&self, row: &Row, rows: &BTreeMap<u64, Row>, specs: &[String]);
}

/// The terminal bar: counts games and shows the short standings at most twice a second.
impl Progress for ProgressBar {
    fn game_done(&self, _: &Row, rows: &BTreeMap<u64, Row>, specs: &[String]) {
        self.inc(1);
        if self.is_hidden() {
            return;
        }
        static LAST: Mutex<Option<Instant>> = Mutex::new(None);
        let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
        if last.is_some_and(|t| t.elapsed().as_millis() < 500) {
            return;
        }
        *last = Some(Instant::now());
        let rows: Vec<Row> = rows.values().cloned().collect();
        self.set_message(standings::compute(specs, &rows, None).short());
    }
}

/// What a run shows on standard error: a bar on a terminal, else [`GameLines`].
pub enum Shown {
    Bar(ProgressBar),
    Lines(GameLines<std::io::Stderr>),
}

impl Shown {
    /// The [`Progress`] to hand to `matches::run`.
    pub fn progress(&self) -> &dyn Progress {
        match self {
            Shown::Bar(b) => b,
            Shown::Lines(l) => l,
        }
    }

    /// Clears the bar at the end (lines stay).
    pub fn finish(&self) {
        if let Shown::Bar(b) = self {
            b.finish_and_clear();
        }
    }
}

/// A bar when standard error is a terminal, lines otherwise. `total` is the number of
/// games this run plays (resumed ones included), `done` those finished before it starts,
/// `specs` the agents (for the bar's first standings).
pub fn for_stderr(total: Option<u64>, done: &BTreeMap<u64, Row>, specs: &[String]) -> Shown {
    if std::io::stderr().is_terminal() {
        let b = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games {per_sec} {wide_msg}",
            )
            .expect("template")
            .progress_chars("=> "),
        );
        b.set_position(done.len() as u64);
        let rows: Vec<Row> = done.values().cloned().collect();
        b.set_message(standings::compute(specs, &rows, None).short());
        Shown::Bar(b)
    } else {
        Shown::Lines(GameLines::new(std::io::stderr(), total, done))
    }
}

/// One line per finished game (see the module doc), written to `out`.
pub struct GameLines<W: Write + Send> {
    total: Option<u64>,
    state: Mutex<LinesState<W>>,
}

struct LinesState<W> {
    out: W,
    finished: u64,
    /// Per two-agent matchup (lower agent index first): wins, draws, losses of the first.
    scores: BTreeMap<(usize, usize), [u64; 3]>,
}

impl<W: Write + Send> GameLines<W> {
    /// Lines to `out`; the games in `done` count as finished and scored already.
    pub fn new(out: W, total: Option<u64>, done: &BTreeMap<u64, Row>) -> GameLines<W> {
        let mut state = LinesState {
            out,
            finished: done.len() as u64,
            scores: BTreeMap::new(),
        };
        for row in done.values() {
            tally(&mut state.scores, row);
        }
        GameLines {
            total,
            state: Mutex::new(state),
        }
    }

    /// The writer back (tests).
    pub fn into_inner(self) -> W {
        self.state
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .out
    }
}

/// Adds a two-seat game to its matchup's score; returns the matchup.
fn tally(scores: &mut BTreeMap<(usize, usize), [u64; 3]>, row: &Row) -> Option<(usize, usize)> {
    let ([a, b], [ra, rb]) = (row.players.as_slice(), row.returns.as_slice()) else {
        return None;
    };
    // From the lower-numbered agent's side, whichever seat it held.
    let (first, second, mine, theirs) = if a <= b {
        (*a, *b, *ra, *rb)
    } else {
        (*b, *a, *rb, *ra)
    };
    let s = scores.entry((first, second)).or_insert([0; 3]);
    let k = if mine > theirs {
        0
    } else if mine == theirs {
        1
    } else {
        2
    };
    s[k] += 1;
    Some((first, second))
}

/// An agent's name in a line: its spec, numbered when two agents share it.
fn label(specs: &[String], i: usize) -> String {
    let spec = specs.get(i).map(String::as_str).unwrap_or("?");
    if specs.iter().filter(|s| s.as_str() == spec).count() > 1 {
        format!("{spec} (#{})", i + 1)
    } else {
        spec.to_string()
    }
}

impl<W: Write + Send> Progress for GameLines<W> {
    fn game_done(&self, row: &Row, _: &BTreeMap<u64, Row>, specs: &[String]) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.finished += 1;
        let count = match self.total {
            Some(t) => format!("{}/{t}", st.finished),
            None => st.finished.to_string(),
        };
        let players: Vec<String> = row.players.iter().map(|&i| label(specs, i)).collect();
        let mut line = format!(
            "game {count} (#{}): {} {} {}, {} plies",
            row.index,
            players.join(" vs "),
            row.result,
            row.reason,
            row.plies
        );
        if let Some(m) = tally(&mut st.scores, row) {
            let [w, d, l] = st.scores[&m];
            let pct = 100.0 * (w as f64 + d as f64 / 2.0) / (w + d + l) as f64;
            line.push_str(&format!(
                " | {} vs {} +{w} ={d} -{l} ({pct:.1}%)",
                label(specs, m.0),
                label(specs, m.1)
            ));
        }
        // A closed or full standard error must not stop the games (the record is the
        // file, not this line).
        let _ = writeln!(st.out, "{line}");
        let _ = st.out.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(index: u64, players: [usize; 2], returns: [f64; 2], result: &str) -> Row {
        Row {
            index,
            seed: 0,
            variant: "chess".into(),
            params_digest: String::new(),
            pair: index / 2,
            opening: String::new(),
            players: players.to_vec(),
            agents: vec![],
            result: result.into(),
            returns: returns.to_vec(),
            reason: "checkmate".into(),
            plies: 9,
            actions: String::new(),
        }
    }

    #[test]
    fn lines_name_players_result_and_running_score() {
        let specs = vec!["alphabeta:depth=2".to_string(), "greedy".to_string()];
        let mut done = BTreeMap::new();
        done.insert(0, row(0, [0, 1], [1.0, -1.0], "1-0"));
        let lines = GameLines::new(Vec::new(), Some(4), &done);
        // Agent 0 as Black loses, then draws as White.
        lines.game_done(&row(1, [1, 0], [1.0, -1.0], "1-0"), &done, &specs);
        lines.game_done(&row(2, [0, 1], [0.0, 0.0], "1/2-1/2"), &done, &specs);
        let text = String::from_utf8(lines.into_inner()).unwrap();
        let got: Vec<&str> = text.lines().collect();
        assert_eq!(
            got,
            [
                "game 2/4 (#1): greedy vs alphabeta:depth=2 1-0 checkmate, 9 plies | alphabeta:depth=2 vs greedy +1 =0 -1 (50.0%)",
                "game 3/4 (#2): alphabeta:depth=2 vs greedy 1/2-1/2 checkmate, 9 plies | alphabeta:depth=2 vs greedy +1 =1 -1 (50.0%)",
            ]
        );
        // Two agents with one spec are numbered.
        let same = vec!["random".to_string(), "random".to_string()];
        assert_eq!(label(&same, 1), "random (#2)");
    }
}

//! The opening screen (issue 67): a deeper search for forced lines on the position after
//! each opening of a book, so that a book's "level" lines are not lost positions that a
//! 2-ply material judge cannot see (mates in two or three opened by random pawn moves).
//!
//! `chesslab openings --screen BOOK` writes the flagged lines of a book; `chesslab
//! openings` (building a book) drops the candidates the screen flags, unless
//! `--screen-depth 0`.
//!
//! The search is the agents' own `alphabeta` ([`agents::alphabeta::AlphaBeta`] with
//! `AlphaBetaConfig { depth, ..Default::default() }`: quiescence, check extensions and
//! the game's own pruning switches), its tables cleared before each opening so that a
//! line's verdict does not depend on the lines before it. A line is flagged when
//! - the search finds a forced win (a mate, or any won terminal state: a king capture,
//!   a variant's own goal) for either side, or
//! - it scores the position at least `margin` pawns (default 3) for either side.
//!
//! Scores are from the first seat's side (its team's in Crowded House): `+311`
//! centipawns, `#+2` a forced win for the first seat in 2 of its moves (mate `n`
//! decisions away is `(n + 1) / 2` moves, as a chess engine counts them; in games with
//! several decisions a turn the count is of decisions, halved), `#-3` one for the other
//! side. The file ends with `flagged N`, like the Stockfish lists in
//! results/openings/screen/.
//!
//! Decisions where the issue is silent:
//! - Hidden information (Masquerade's assignments, Two Move's cards, Cassandra's
//!   prophecies): the screen searches the true state. A book's line is public play from
//!   the start, and the question is whether the position is already decided, not what a
//!   player who cannot see everything would choose; so a flag can be a win that one side
//!   cannot see.
//! - A chance node at the root (none in a book the lab writes: its lines run through
//!   chance) is the probability-weighted mean of its outcomes; a forced win there needs
//!   every outcome to be one.
//! - A simultaneous root (Synchronous's moves, Two Move's card choice): every pair of the
//!   two sides' actions is applied and the position after it searched `depth - 1`
//!   decisions deep (a simultaneous node below the root is scored statically, as inside
//!   any alpha-beta search of these games). The line is flagged for the first side when
//!   one of its actions wins, or scores at least the margin, against every reply (the
//!   pure maximin), and for the other side likewise (the pure minimax): a win that needs
//!   guessing the other side's choice is not forced. Below the root a simultaneous node
//!   is static, so in Two Move the screen sees to the end of the turn the line stops in.
//! - Each search stops at [`DEFAULT_NODES`] nodes (`--screen-nodes`), so that the
//!   variants whose tree is wide (Expedition's dice, Masquerade's pieces) are screened in
//!   bounded time; a search stopped short scores the position by its last finished
//!   iteration, and the screen counts the openings where that happened.
//! - Default depth [`DEFAULT_DEPTH`]: the smallest that finds all ten mates in two or
//!   three that Stockfish found in results/openings/chess-2000.txt (measured in
//!   results/openings/screen/README.md; test `lab_screen_flags_every_stockfish_mate`).
//!
//! Tests: experiments/tests/openings_screen.rs.

use agents::alphabeta::{AlphaBeta, AlphaBetaConfig, MATE};
use anyhow::{bail, Result};
use engine::game::{Game, Turn};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};

/// Plies of the screen's search unless `--screen-depth` says otherwise.
pub const DEFAULT_DEPTH: u32 = 5;
/// Pawns for either side at which a line is flagged unless `--screen-margin` says otherwise.
pub const DEFAULT_MARGIN: f64 = 3.0;
/// Nodes of one search at most unless `--screen-nodes` says otherwise (the score is then
/// the last finished iteration's).
pub const DEFAULT_NODES: u64 = 300_000;
/// Scores at least this far from zero are forced wins (`MATE` less the plies to it).
const MATE_LINE: i32 = MATE - 1_000;
/// A forced win's weight in the mean of a chance node that is not all wins.
const WIN_CP: i32 = 10_000;
/// Without a terminal, a line is reported every this many openings.
pub const LINES_EVERY: usize = 100;

/// The screen's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screen {
    /// Plies of the alpha-beta search (at least 1).
    pub depth: u32,
    /// Pawns for either side at which a line is flagged.
    pub margin: f64,
    /// Nodes of one search at most.
    pub nodes: u64,
}

impl Default for Screen {
    fn default() -> Self {
        Screen {
            depth: DEFAULT_DEPTH,
            margin: DEFAULT_MARGIN,
            nodes: DEFAULT_NODES,
        }
    }
}

/// A flagged line's score, from the first seat's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// A forced win: `MATE - n` for the first seat, `-(MATE - n)` for the other side.
    Win(i32),
    /// Centipawns, at least the margin for one side.
    Score(i32),
}

impl Flag {
    /// `#+2`, `#-3`, `+311`, `-362`.
    pub fn text(&self) -> String {
        match *self {
            Flag::Win(v) => {
                let moves = (MATE - v.abs() + 1) / 2;
                format!("#{}{moves}", if v > 0 { '+' } else { '-' })
            }
            Flag::Score(cp) => format!("{cp:+}"),
        }
    }

    /// A forced win (for either side).
    pub fn is_win(&self) -> bool {
        matches!(self, Flag::Win(_))
    }
}

/// The screen's searcher for one game type (its tables reused, cleared per opening).
pub struct Screener<G: Game> {
    screen: Screen,
    search: AlphaBeta<G>,
    /// Whether a search of the current opening stopped at the node cap short of its depth.
    capped: bool,
}

impl<G: Game> Screener<G> {
    pub fn new(screen: Screen) -> Result<Self> {
        if screen.depth == 0 {
            bail!("the screen needs a search of at least 1 ply (--screen-depth)");
        }
        if !(screen.margin.is_finite() && screen.margin > 0.0) {
            bail!(
                "--screen-margin must be a number of pawns above 0 (got {})",
                screen.margin
            );
        }
        let mut config = AlphaBetaConfig {
            depth: screen.depth,
            ..Default::default()
        };
        config.budget.nodes = Some(screen.nodes.max(1));
        Ok(Screener {
            screen,
            search: AlphaBeta::new(config),
            capped: false,
        })
    }

    /// Whether the last [`Screener::flag`] had a search stop at the node cap before its
    /// depth (its score is then a shallower search's).
    pub fn capped(&self) -> bool {
        self.capped
    }

    /// The flag of the position `game` (the position after an opening), or `None` when
    /// the screen passes it.
    pub fn flag(&mut self, game: &G) -> Option<Flag> {
        self.capped = false;
        let (lo, hi) = self.bounds(game);
        let margin = (self.screen.margin * 100.0).round() as i32;
        if lo >= MATE_LINE {
            Some(Flag::Win(lo))
        } else if hi <= -MATE_LINE {
            Some(Flag::Win(hi))
        } else if lo >= margin {
            Some(Flag::Score(lo))
        } else if hi <= -margin {
            Some(Flag::Score(hi))
        } else {
            None
        }
    }

    /// What the first seat's side can force (lower) and what the other side can hold it
    /// to (upper): one value except at a simultaneous root.
    fn bounds(&mut self, game: &G) -> (i32, i32) {
        if game.turn() != Turn::Simultaneous {
            let v = self.value(game, self.screen.depth);
            return (v, v);
        }
        let seats = game.simultaneous_seats();
        let ours: Vec<usize> = seats
            .iter()
            .copied()
            .filter(|&s| game.team(s) == game.team(0))
            .collect();
        if seats.len() != 2 || ours.len() != 1 {
            let v = self.static_value(game);
            return (v, v);
        }
        let (mut row_actions, mut col_actions) = (Vec::new(), Vec::new());
        game.legal_actions(seats[0], &mut row_actions);
        game.legal_actions(seats[1], &mut col_actions);
        // cells[r][c]: the first seat's side's value after the joint action.
        let mut cells = vec![vec![0i32; col_actions.len()]; row_actions.len()];
        for (r, &a) in row_actions.iter().enumerate() {
            for (c, &b) in col_actions.iter().enumerate() {
                let mut g = game.clone();
                g.apply_joint(&[a, b]);
                let v = self.value(&g, self.screen.depth - 1);
                // A win below the joint action is one decision further from the root.
                cells[r][c] = if v.abs() >= MATE_LINE {
                    v - v.signum()
                } else {
                    v
                };
            }
        }
        // Rows are the first listed seat's actions.
        let ours_rows = ours[0] == seats[0];
        let grid = cells;
        let rows = grid.len();
        let cols = grid.first().map_or(0, Vec::len);
        if rows == 0 || cols == 0 {
            let v = self.static_value(game);
            return (v, v);
        }
        let row_min = |r: usize| (0..cols).map(|c| grid[r][c]).min().unwrap_or(0);
        let row_max = |r: usize| (0..cols).map(|c| grid[r][c]).max().unwrap_or(0);
        let col_min = |c: usize| (0..rows).map(|r| grid[r][c]).min().unwrap_or(0);
        let col_max = |c: usize| (0..rows).map(|r| grid[r][c]).max().unwrap_or(0);
        if ours_rows {
            // We choose a row: we can force max_r min_c; they can hold us to min_c max_r.
            let lo = (0..rows).map(row_min).max().unwrap_or(0);
            let hi = (0..cols).map(col_max).min().unwrap_or(0);
            (lo, hi)
        } else {
            // We choose a column.
            let lo = (0..cols).map(col_min).max().unwrap_or(0);
            let hi = (0..rows).map(row_max).min().unwrap_or(0);
            (lo, hi)
        }
    }

    /// The value of `game` for the first seat's side, searched `depth` plies.
    fn value(&mut self, game: &G, depth: u32) -> i32 {
        match game.turn() {
            Turn::Terminal => {
                let r = game.returns()[0];
                if r > 0.0 {
                    MATE
                } else if r < 0.0 {
                    -MATE
                } else {
                    0
                }
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(&mut outcomes);
                let values: Vec<(i32, f64)> = outcomes
                    .iter()
                    .map(|&(a, p)| {
                        let mut g = game.clone();
                        g.apply(a);
                        (self.value(&g, depth), p)
                    })
                    .collect();
                if values.iter().all(|v| v.0 >= MATE_LINE) {
                    return values.iter().map(|v| v.0).min().unwrap_or(0);
                }
                if values.iter().all(|v| v.0 <= -MATE_LINE) {
                    return values.iter().map(|v| v.0).max().unwrap_or(0);
                }
                values
                    .iter()
                    .map(|&(v, p)| p * f64::from(v.clamp(-WIN_CP, WIN_CP)))
                    .sum::<f64>()
                    .round() as i32
            }
            Turn::Simultaneous => self.static_value(game),
            Turn::Seat(_) if depth == 0 => self.static_value(game),
            Turn::Seat(s) => {
                self.search.clear();
                self.search.config.depth = depth;
                let found = self.search.search(game).is_some();
                let info = self.search.info;
                // Short of its depth without a forced win (which ends the deepening
                // by itself): the node cap stopped it.
                if info.depth < depth && info.score.abs() < MATE_LINE {
                    self.capped = true;
                }
                if !found || info.depth == 0 {
                    return self.static_value(game);
                }
                let score = info.score;
                if game.team(s) == game.team(0) {
                    score
                } else {
                    -score
                }
            }
        }
    }

    /// The search's static evaluation for the first seat's side, in centipawns.
    fn static_value(&self, game: &G) -> i32 {
        (self.search.config.eval.evaluate(game, 0) * 100.0).round() as i32
    }
}

/// How a long screen shows its progress on standard error: a bar on a terminal, else a
/// line every [`LINES_EVERY`] openings and at the end (as `tournament` does for games:
/// [`crate::run::progress`]).
pub struct ScreenProgress {
    bar: Option<ProgressBar>,
    total: usize,
    done: usize,
    flagged: usize,
    capped: usize,
}

impl ScreenProgress {
    pub fn for_stderr(total: usize) -> ScreenProgress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} openings {per_sec} {wide_msg}",
                )
                .expect("template")
                .progress_chars("=> "),
            );
            b
        });
        ScreenProgress {
            bar,
            total,
            done: 0,
            flagged: 0,
            capped: 0,
        }
    }

    /// One more opening screened (`flagged`: whether the screen flagged it; `capped`:
    /// whether a search stopped at the node cap).
    pub fn step(&mut self, flagged: bool, capped: bool) {
        self.done += 1;
        self.flagged += usize::from(flagged);
        self.capped += usize::from(capped);
        match &self.bar {
            Some(b) => {
                b.inc(1);
                b.set_message(format!(
                    "{} flagged, {} at the node cap",
                    self.flagged, self.capped
                ));
            }
            None if self.done.is_multiple_of(LINES_EVERY) || self.done == self.total => {
                let mut err = std::io::stderr();
                let _ = writeln!(
                    err,
                    "screened {}/{} openings, {} flagged, {} at the node cap",
                    self.done, self.total, self.flagged, self.capped
                );
            }
            None => {}
        }
    }

    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// An opening's text as matched against a flagged list: its words joined by one space.
pub fn opening_key(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The openings of a flagged list (`chesslab openings --screen`, or the Stockfish lists
/// of results/openings/screen/): each line is `NUMBER OPENING SCORE`; `#` comments,
/// blank lines and the closing `flagged N` are skipped. Returns the openings'
/// [`opening_key`]s.
pub fn read_flagged(path: &std::path::Path) -> Result<std::collections::BTreeSet<String>> {
    use anyhow::Context;
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the flagged list {}", path.display()))?;
    let mut out = std::collections::BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("flagged ") {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        if words.len() < 3 || words[0].parse::<usize>().is_err() {
            bail!(
                "{} line {}: a flagged line is `NUMBER OPENING SCORE`, not '{t}'",
                path.display(),
                i + 1
            );
        }
        out.insert(words[1..words.len() - 1].join(" "));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_texts_count_moves_like_an_engine() {
        assert_eq!(Flag::Win(MATE - 3).text(), "#+2");
        assert_eq!(Flag::Win(MATE - 5).text(), "#+3");
        assert_eq!(Flag::Win(-(MATE - 4)).text(), "#-2");
        assert_eq!(Flag::Score(311).text(), "+311");
        assert_eq!(Flag::Score(-362).text(), "-362");
    }
}

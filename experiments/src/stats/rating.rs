//! One rating scale for the lab's agents (issue 36, `chesslab rate`): a joint
//! Bradley-Terry (logistic Elo) fit of every game between two agents of one variant,
//! with one agent fixed at a known rating (the anchor) and 95% intervals from a seeded
//! bootstrap over games. It replaces `results/strength/fit.py` (kept there as the outside
//! check; test `rate_matches_fit_py_on_the_strength_gauntlets` in
//! `experiments/tests/rate.rs` compares the two).
//!
//! Decisions taken where the issue is silent:
//! - One anchor, fixed; no prior. In orthodox chess the anchor is the Stockfish spec
//!   (`uci:...,option.UCI_LimitStrength=true,option.UCI_Elo=N`) with the lowest `N`
//!   among the games, fixed at `N` (as `fit.py` fixes SF1350): the floor of Stockfish's
//!   scale, the level the lab's agents meet most. Other Stockfish levels are fitted like
//!   any agent and shown beside their nominal rating, which checks the scale instead of
//!   forcing it.
//! - In any other variant an agent family keeps its orthodox rating as the anchor point:
//!   the agent of the variant's games that has an orthodox rating (from the orthodox
//!   games rated in the same call, else the measured table [`super::strength`]) and
//!   played the most games there is fixed at that rating. The variant's figures then
//!   say how the agents compare with that agent in the variant, not how well any of them
//!   plays chess. Orthodox games without a Stockfish level are anchored the same way at
//!   an agent of the measured table. `--anchor SPEC=ELO` overrides the choice in every
//!   variant holding SPEC.
//! - A game's score compares the two agents' returns (1, ½, 0), as the standings do;
//!   games with one agent on both sides or more than two agents are left out.
//! - An agent that scored 0% or 100% of its games (after setting such agents aside
//!   repeatedly) has no finite maximum: it is reported as unbounded (±∞), as is one whose
//!   fit runs past ±[`UNBOUNDED`] of the anchor. In a bootstrap resample an agent cut off
//!   from the anchor is left out of that resample's figures.
//! - The interval is the 2.5% and 97.5% order statistics of `bootstrap` resamples of the
//!   games (indices ⌊0.025 B⌋ and ⌈0.975 B⌉ - 1, as `fit.py` takes 5 and 194 of 200).
//!
//! Tests (here): `fit_recovers_known_strengths`, `unbeaten_agents_are_unbounded`,
//! `agents_cut_off_from_the_anchor_are_an_error`, `stockfish_specs_give_their_level`;
//! `experiments/tests/rate.rs` for the command.

use crate::record::Row;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::BTreeMap;
use thiserror::Error;

/// Elo from the anchor past which a fit counts as unbounded.
pub const UNBOUNDED: f64 = 4000.0;

/// One game between agents `a` and `b`: `a`'s score (1, ½ or 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub a: usize,
    pub b: usize,
    pub score: f64,
}

/// Why a set of games cannot be rated.
#[derive(Debug, Error, PartialEq)]
pub enum RateError {
    #[error("no games between two different agents{0}")]
    NoGames(String),
    #[error(
        "{variant}: no anchor among the agents ({agents}); orthodox chess needs a Stockfish \
         spec with option.UCI_LimitStrength=true and option.UCI_Elo=N, another variant an \
         agent with an orthodox rating (rated in the same call or in the measured table), \
         or give --anchor SPEC=ELO"
    )]
    NoAnchor { variant: String, agents: String },
    #[error(
        "{variant}: agents never connected by games to the anchor {anchor}: {agents} (rate \
         them with games against the anchor's group, or leave their games out)"
    )]
    Disconnected {
        variant: String,
        anchor: String,
        agents: String,
    },
}

/// One agent's rating on the anchor's scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub games: usize,
    pub points: f64,
}

/// The nominal `UCI_Elo` of a Stockfish-style spec that limits its strength.
pub fn stockfish_elo(spec: &str) -> Option<f64> {
    let (name, settings) = spec.split_once(':')?;
    if name.trim() != "uci" {
        return None;
    }
    let mut elo = None;
    let mut limited = false;
    for kv in settings.split(',') {
        let (k, v) = kv.split_once('=')?;
        match k.trim() {
            "option.UCI_Elo" => elo = v.trim().parse::<f64>().ok(),
            "option.UCI_LimitStrength" => limited = v.trim().eq_ignore_ascii_case("true"),
            _ => {}
        }
    }
    elo.filter(|_| limited)
}

/// Agents not joined to `anchor` by any chain of games.
pub fn cut_off(n: usize, anchor: usize, games: &[Outcome]) -> Vec<usize> {
    let mut seen = vec![false; n];
    seen[anchor] = true;
    let mut stack = vec![anchor];
    while let Some(x) = stack.pop() {
        for g in games {
            for (from, to) in [(g.a, g.b), (g.b, g.a)] {
                if from == x && !seen[to] {
                    seen[to] = true;
                    stack.push(to);
                }
            }
        }
    }
    (0..n).filter(|&i| !seen[i]).collect()
}

/// Solves `m x = v` (Gaussian elimination with partial pivoting); `None` if singular.
fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Option<Vec<f64>> {
    let n = v.len();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, p);
        v.swap(c, p);
        for r in c + 1..n {
            let f = m[r][c] / m[c][c];
            if f != 0.0 {
                let (top, bottom) = m.split_at_mut(r);
                for (x, p) in bottom[0][c..].iter_mut().zip(&top[c][c..]) {
                    *x -= f * p;
                }
                v[r] -= f * v[c];
            }
        }
    }
    let mut x = vec![0.0; n];
    for c in (0..n).rev() {
        let s: f64 = (c + 1..n).map(|j| m[c][j] * x[j]).sum();
        x[c] = (v[c] - s) / m[c][c];
    }
    Some(x)
}

/// Maximum-likelihood Elo of `n` agents with `anchor` fixed at `anchor_elo`: Newton's
/// method on the log-likelihood of the logistic model, steps capped at 200 Elo. Agents
/// with no finite maximum get ±∞; agents cut off from the anchor NaN.
pub fn fit(n: usize, anchor: usize, anchor_elo: f64, games: &[Outcome]) -> Vec<f64> {
    let mut elo = vec![0.0f64; n];
    // Games and points per ordered pair, and the agents set aside (±∞).
    let mut pair: BTreeMap<(usize, usize), (f64, f64)> = BTreeMap::new();
    for g in games.iter().filter(|g| g.a != g.b) {
        let (k, s) = if g.a < g.b {
            ((g.a, g.b), g.score)
        } else {
            ((g.b, g.a), 1.0 - g.score)
        };
        let e = pair.entry(k).or_default();
        e.0 += 1.0;
        e.1 += s;
    }
    let mut live = vec![true; n];
    loop {
        let mut pts = vec![0.0f64; n];
        let mut cnt = vec![0.0f64; n];
        for (&(a, b), &(g, s)) in &pair {
            if live[a] && live[b] {
                pts[a] += s;
                pts[b] += g - s;
                cnt[a] += g;
                cnt[b] += g;
            }
        }
        let mut changed = false;
        for i in 0..n {
            if live[i] && cnt[i] > 0.0 && (pts[i] <= 0.0 || pts[i] >= cnt[i]) {
                live[i] = false;
                changed = true;
                elo[i] = if pts[i] <= 0.0 {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
            }
        }
        if !changed {
            break;
        }
    }
    if !live[anchor] {
        // Everything else is unbounded the other way (or not rated at all).
        let other = -elo[anchor];
        for (i, e) in elo.iter_mut().enumerate() {
            if live[i] {
                *e = other;
            }
        }
        elo[anchor] = anchor_elo;
        return elo;
    }
    let live_games: Vec<Outcome> = pair
        .iter()
        .filter(|(&(a, b), _)| live[a] && live[b])
        .map(|(&(a, b), _)| Outcome { a, b, score: 0.0 })
        .collect();
    let lost = cut_off(n, anchor, &live_games);
    for &i in &lost {
        if live[i] {
            live[i] = false;
            elo[i] = f64::NAN;
        }
    }
    let free: Vec<usize> = (0..n).filter(|&i| live[i] && i != anchor).collect();
    let slot: Vec<Option<usize>> = (0..n).map(|i| free.iter().position(|&f| f == i)).collect();
    let k = std::f64::consts::LN_10 / 400.0;
    for _ in 0..500 {
        let m = free.len();
        let mut h = vec![vec![0.0f64; m]; m];
        let mut g = vec![0.0f64; m];
        for (&(a, b), &(games, s)) in &pair {
            if !(live[a] && live[b]) {
                continue;
            }
            let p = 1.0 / (1.0 + 10f64.powf((elo[b] - elo[a]) / 400.0));
            let w = games * p * (1.0 - p) * k * k;
            let d = (s - games * p) * k;
            if let Some(i) = slot[a] {
                g[i] += d;
                h[i][i] += w;
            }
            if let Some(j) = slot[b] {
                g[j] -= d;
                h[j][j] += w;
            }
            if let (Some(i), Some(j)) = (slot[a], slot[b]) {
                h[i][j] -= w;
                h[j][i] -= w;
            }
        }
        let Some(step) = solve(h, g) else { break };
        let mut biggest: f64 = 0.0;
        for (i, d) in step.into_iter().enumerate() {
            let d = d.clamp(-200.0, 200.0);
            elo[free[i]] += d;
            biggest = biggest.max(d.abs());
        }
        if biggest < 1e-7 {
            break;
        }
    }
    for &i in &free {
        elo[i] = if elo[i] > UNBOUNDED {
            f64::INFINITY
        } else if elo[i] < -UNBOUNDED {
            f64::NEG_INFINITY
        } else {
            elo[i] + anchor_elo
        };
    }
    elo[anchor] = anchor_elo;
    elo
}

/// Ratings of `n` agents from `games` with `anchor` fixed at `anchor_elo`, and 95%
/// intervals from `bootstrap` resamples of the games drawn from `seed`.
pub fn rate(
    n: usize,
    anchor: usize,
    anchor_elo: f64,
    games: &[Outcome],
    bootstrap: usize,
    seed: u64,
) -> Vec<Rated> {
    let est = fit(n, anchor, anchor_elo, games);
    let mut boots: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut rng = Pcg64::seed_from_u64(seed);
    for _ in 0..bootstrap {
        let sample: Vec<Outcome> = (0..games.len())
            .map(|_| games[rng.gen_range(0..games.len())])
            .collect();
        for (i, e) in fit(n, anchor, anchor_elo, &sample).into_iter().enumerate() {
            if !e.is_nan() {
                boots[i].push(e);
            }
        }
    }
    (0..n)
        .map(|i| {
            let v = &mut boots[i];
            v.sort_by(f64::total_cmp);
            let (low, high) = if v.is_empty() {
                (est[i], est[i])
            } else {
                let b = v.len() as f64;
                let lo = (0.025 * b).floor() as usize;
                let hi = ((0.975 * b).ceil() as usize).saturating_sub(1);
                (v[lo.min(v.len() - 1)], v[hi.min(v.len() - 1)])
            };
            let mine = games
                .iter()
                .filter(|g| g.a != g.b && (g.a == i || g.b == i));
            let (mut count, mut points) = (0, 0.0);
            for g in mine {
                count += 1;
                points += if g.a == i { g.score } else { 1.0 - g.score };
            }
            Rated {
                elo: est[i],
                low,
                high,
                games: count,
                points,
            }
        })
        .collect()
}

/// How a table's anchor was chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum AnchorKind {
    /// A Stockfish level at its nominal `UCI_Elo`.
    Stockfish,
    /// `--anchor SPEC=ELO`.
    Given,
    /// The agent's orthodox-chess rating, from the orthodox games of this call or from the
    /// measured table ([`super::strength`]).
    Orthodox { source: &'static str },
}

/// What `chesslab rate` is told besides the games.
#[derive(Clone, Debug)]
pub struct Options {
    /// `--anchor SPEC=ELO`, in the order given.
    pub anchors: Vec<(String, f64)>,
    pub bootstrap: usize,
    pub seed: u64,
}

/// The ratings of one variant's agents.
#[derive(Clone, Debug)]
pub struct Table {
    pub variant: String,
    pub specs: Vec<String>,
    pub rated: Vec<Rated>,
    pub anchor: usize,
    pub anchor_elo: f64,
    pub kind: AnchorKind,
    /// Orthodox ratings of agents of a variant (what the note column shows).
    pub orthodox: Vec<Option<f64>>,
    /// Games left out (one agent on both sides, or more than two agents).
    pub left_out: usize,
}

/// Two agents' specs and the first one's score in one game.
type TwoSided = (String, String, f64);

/// The two agents of a game and the first one's score, by their returns.
fn two_sided(row: &Row) -> Option<TwoSided> {
    let mut specs: Vec<&String> = row.agents.iter().collect();
    specs.sort();
    specs.dedup();
    if specs.len() != 2 || row.returns.len() != row.agents.len() {
        return None;
    }
    let mean = |who: &String| {
        let v: Vec<f64> = row
            .agents
            .iter()
            .zip(&row.returns)
            .filter(|(a, _)| *a == who)
            .map(|(_, r)| *r)
            .collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    let (ra, rb) = (mean(specs[0]), mean(specs[1]));
    let score = if ra > rb {
        1.0
    } else if ra < rb {
        0.0
    } else {
        0.5
    };
    Some((specs[0].clone(), specs[1].clone(), score))
}

/// One table per variant of `rows` (orthodox chess first, so its ratings anchor the
/// variants rated in the same call; then the others by name). `what` names the input
/// for the no-games error.
pub fn tables(rows: &[Row], opts: &Options, what: &str) -> Result<Vec<Table>, RateError> {
    let mut by_variant: BTreeMap<String, (Vec<TwoSided>, usize)> = BTreeMap::new();
    for r in rows {
        let e = by_variant.entry(r.variant.clone()).or_default();
        match two_sided(r) {
            Some(g) => e.0.push(g),
            None => e.1 += 1,
        }
    }
    by_variant.retain(|_, v| !v.0.is_empty());
    if by_variant.is_empty() {
        return Err(RateError::NoGames(what.to_string()));
    }
    let mut order: Vec<String> = by_variant.keys().cloned().collect();
    order.sort_by_key(|v| (v != "chess", v.clone()));
    let mut orthodox: BTreeMap<String, f64> = BTreeMap::new();
    let mut out = Vec::new();
    for variant in order {
        let (games, left_out) = &by_variant[&variant];
        let mut specs: Vec<String> = games
            .iter()
            .flat_map(|g| [g.0.clone(), g.1.clone()])
            .collect();
        specs.sort();
        specs.dedup();
        let id = |s: &str| {
            specs
                .iter()
                .position(|x| x == s)
                .expect("a spec of the games")
        };
        let outcomes: Vec<Outcome> = games
            .iter()
            .map(|g| Outcome {
                a: id(&g.0),
                b: id(&g.1),
                score: g.2,
            })
            .collect();
        let played = |i: usize| outcomes.iter().filter(|g| g.a == i || g.b == i).count();
        let known = |s: &str| -> Option<(f64, &'static str)> {
            if let Some(&e) = orthodox.get(s) {
                return Some((e, "the orthodox games of this call"));
            }
            super::strength::lookup(s)
                .filter(|(_, noise)| !noise)
                .map(|(m, _)| (m.elo, "the measured table, results/strength"))
        };
        let given = opts
            .anchors
            .iter()
            .find_map(|(s, e)| specs.iter().position(|x| x == s).map(|i| (i, *e)));
        let (anchor, anchor_elo, kind) = if let Some((i, e)) = given {
            (i, e, AnchorKind::Given)
        } else if let Some((i, e)) = (0..specs.len())
            .filter(|_| variant == "chess")
            .filter_map(|i| stockfish_elo(&specs[i]).map(|e| (i, e)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
        {
            (i, e, AnchorKind::Stockfish)
        } else if let Some((i, (e, source))) = (0..specs.len())
            .filter_map(|i| known(&specs[i]).map(|k| (i, k)))
            .max_by_key(|(i, _)| (played(*i), std::cmp::Reverse(*i)))
        {
            (i, e, AnchorKind::Orthodox { source })
        } else {
            return Err(RateError::NoAnchor {
                variant,
                agents: specs.join("; "),
            });
        };
        let lost = cut_off(specs.len(), anchor, &outcomes);
        if !lost.is_empty() {
            return Err(RateError::Disconnected {
                variant,
                anchor: specs[anchor].clone(),
                agents: lost
                    .iter()
                    .map(|&i| specs[i].as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
            });
        }
        let rated = rate(
            specs.len(),
            anchor,
            anchor_elo,
            &outcomes,
            opts.bootstrap,
            opts.seed,
        );
        let orth: Vec<Option<f64>> = specs
            .iter()
            .map(|s| {
                if variant == "chess" {
                    None
                } else {
                    known(s).map(|k| k.0)
                }
            })
            .collect();
        if variant == "chess" {
            for (s, r) in specs.iter().zip(&rated) {
                if r.elo.is_finite() {
                    orthodox.insert(s.clone(), r.elo);
                }
            }
        }
        out.push(Table {
            variant,
            specs,
            rated,
            anchor,
            anchor_elo,
            kind,
            orthodox: orth,
            left_out: *left_out,
        });
    }
    Ok(out)
}

/// An Elo figure: rounded, or ±∞.
fn fmt_elo(x: f64) -> String {
    if x == f64::INFINITY {
        "+∞".into()
    } else if x == f64::NEG_INFINITY {
        "-∞".into()
    } else {
        format!("{x:.0}")
    }
}

/// A short name for a spec: `SF1350` for a Stockfish level.
pub fn short(spec: &str) -> String {
    match stockfish_elo(spec) {
        Some(e) => format!("SF{e:.0}"),
        None => spec.to_string(),
    }
}

impl Table {
    /// The table as Markdown: a heading, the anchor said plainly, one row per agent
    /// (strongest first).
    pub fn markdown(&self, bootstrap: usize, seed: u64) -> String {
        use std::fmt::Write as _;
        let games: usize = self.rated.iter().map(|r| r.games).sum::<usize>() / 2;
        let mut md = format!(
            "## {} ({games} games, {} agents)\n\n",
            self.variant,
            self.specs.len()
        );
        let anchor = short(&self.specs[self.anchor]);
        let elo = self.anchor_elo;
        let _ = match &self.kind {
            AnchorKind::Stockfish => writeln!(
                md,
                "Anchor: {anchor} fixed at {elo:.0}, its nominal `UCI_Elo`; other Stockfish \
                 levels are fitted like any agent, their nominal level in the note."
            ),
            AnchorKind::Given => writeln!(md, "Anchor: {anchor} fixed at {elo:.0} (--anchor)."),
            AnchorKind::Orthodox { source } if self.variant == "chess" => writeln!(
                md,
                "Anchor: {anchor} fixed at {elo:.0}, its measured rating (from {source}); no \
                 Stockfish level among these games."
            ),
            AnchorKind::Orthodox { source } => writeln!(
                md,
                "Anchor: {anchor} fixed at {elo:.0}, its orthodox-chess rating (from {source}). \
                 An agent family keeps its orthodox rating as the anchor point: these figures \
                 say how each agent compares with {anchor} in {}, not how well any of them \
                 plays chess.",
                self.variant
            ),
        };
        let _ = writeln!(
            md,
            "Joint Bradley-Terry fit; 95% intervals from {bootstrap} bootstrap resamples of the \
             games (seed {seed}).{}\n",
            if self.left_out > 0 {
                format!(
                    " {} games left out (one agent on both sides, or more than two agents).",
                    self.left_out
                )
            } else {
                String::new()
            }
        );
        md.push_str(
            "| agent | Elo | 95% interval | games | score | note |\n|---|---:|---|---:|---:|---|\n",
        );
        let mut idx: Vec<usize> = (0..self.specs.len()).collect();
        idx.sort_by(|&x, &y| self.rated[y].elo.total_cmp(&self.rated[x].elo));
        for i in idx {
            let r = &self.rated[i];
            let note = if i == self.anchor {
                "anchor".to_string()
            } else if let Some(e) = stockfish_elo(&self.specs[i]) {
                format!("nominal {e:.0}")
            } else if let Some(e) = self.orthodox[i] {
                format!("orthodox {e:.0}")
            } else if !r.elo.is_finite() {
                "unbounded: scored 0% or 100%".into()
            } else {
                String::new()
            };
            let _ = writeln!(
                md,
                "| {} | {} | [{}, {}] | {} | {:.1} | {note} |",
                short(&self.specs[i]),
                fmt_elo(r.elo),
                fmt_elo(r.low),
                fmt_elo(r.high),
                r.games,
                r.points
            );
        }
        md
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games between agents of known strength, drawn from the logistic model.
    fn synthetic(truth: &[f64], per_pair: usize, seed: u64) -> Vec<Outcome> {
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut games = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let p = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
                for _ in 0..per_pair {
                    let score = if rng.gen_bool(p) { 1.0 } else { 0.0 };
                    games.push(Outcome { a, b, score });
                }
            }
        }
        games
    }

    #[test]
    fn fit_recovers_known_strengths() {
        let truth = [1350.0, 1600.0, 1100.0, 1800.0, 1450.0];
        let games = synthetic(&truth, 400, 3);
        let rated = rate(truth.len(), 0, 1350.0, &games, 40, 1);
        for (i, r) in rated.iter().enumerate() {
            assert!(
                (r.elo - truth[i]).abs() < 40.0,
                "agent {i}: fitted {} for {}",
                r.elo,
                truth[i]
            );
            assert!(r.low <= r.elo && r.elo <= r.high, "agent {i}: {r:?}");
            assert!(r.low <= truth[i] + 40.0 && truth[i] - 40.0 <= r.high);
        }
        assert_eq!(rated[0].low, 1350.0, "the anchor is fixed");
        assert_eq!(rated[1].games, 4 * 400);
    }

    #[test]
    fn unbeaten_agents_are_unbounded() {
        let mut games = synthetic(&[1350.0, 1500.0], 50, 5);
        for _ in 0..10 {
            games.push(Outcome {
                a: 2,
                b: 1,
                score: 1.0,
            });
            games.push(Outcome {
                a: 0,
                b: 3,
                score: 1.0,
            });
        }
        let e = fit(4, 0, 1350.0, &games);
        assert_eq!(e[2], f64::INFINITY);
        assert_eq!(e[3], f64::NEG_INFINITY);
        assert!(e[1].is_finite() && e[1] > 1350.0);
    }

    #[test]
    fn agents_cut_off_from_the_anchor_are_an_error() {
        let games = vec![
            Outcome {
                a: 0,
                b: 1,
                score: 0.5,
            },
            Outcome {
                a: 2,
                b: 3,
                score: 1.0,
            },
        ];
        assert_eq!(cut_off(4, 0, &games), vec![2, 3]);
        assert_eq!(cut_off(4, 1, &games), vec![2, 3]);
        let e = fit(4, 0, 1350.0, &games);
        assert_eq!(e[1], 1350.0);
        assert!(e[2].is_nan() || e[2].is_infinite());
    }

    #[test]
    fn stockfish_specs_give_their_level() {
        let sf = "uci:cmd=stockfish,movetime=100,option.UCI_LimitStrength=true,option.UCI_Elo=1350";
        assert_eq!(stockfish_elo(sf), Some(1350.0));
        assert_eq!(
            stockfish_elo("uci:cmd=stockfish,movetime=100,option.UCI_Elo=1350"),
            None,
            "UCI_Elo without UCI_LimitStrength is not a level"
        );
        assert_eq!(stockfish_elo("alphabeta:depth=3"), None);
    }
}

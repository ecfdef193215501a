//! Game-design metrics of a run, each with a 95% interval, for balance reports, strength
//! ladders and rule-set comparisons (issue 19).
//!
//! The names follow the behaviour metrics of the Ludii general game system, checked
//! against their definitions in Ludii's source (repository `Ludeme/Ludii`, folder
//! `Evaluation/src/metrics/`, classes by Matthew Stephenson and Cameron Browne; Ludii's
//! metrics descend from Browne's aesthetic criteria, *Automatic Generation and
//! Evaluation of Recombination Games*, PhD thesis, QUT 2008, and *Evolutionary Game
//! Design*, Springer 2011). Ludii's definition first, then ours where it differs:
//!
//! - **decisiveness** = Ludii's `Completion` ("percentage of games which have a winner
//!   (not draw or timeout)"): the share of games with a winner. Ludii's own
//!   `Decisiveness*` classes measure something else (how early the winner's evaluation
//!   passes a threshold); we do not compute those.
//! - **drawishness** ≈ Ludii's `Drawishness` ("percentage of games which end in a draw
//!   (not including timeouts)"). Difference: Ludii leaves games stopped at the turn limit
//!   out of the draws; ours counts every game without a winner, ply cap included, so
//!   decisiveness + drawishness = 1 (the "How games end" table separates the ply cap).
//! - **duration** ≈ Ludii's `DurationActions`/`DurationTurns`: the mean number of recorded
//!   actions per game (the report also gives the distribution).
//! - **first-move advantage** ≈ Ludii's `AdvantageP1` ("percentage of games where player
//!   1 won"). Difference: ours is the first seat's mean score with a draw as ½, the
//!   figure a chess player reads; Ludii counts wins only.
//! - **lead changes** ≈ Ludii's `LeadChange` ("average number of times the expected
//!   winner changes"): per game, the moves at which the set of leaders on the evaluation
//!   differs from the set before, divided by the number of moves, averaged over games.
//!   Differences: Ludii evaluates with UCT playouts and counts a change into or out of a
//!   tie (and the first move, its set before being empty); ours uses the material trace
//!   below and a level position leaves the lead where it was.
//! - **drama** ≈ Ludii's `Drama` ("number of moves/severity where the eventual winner was
//!   behind"): Ludii takes, per move, how far the winner's evaluation is below the best
//!   one, and aggregates that list (average, median, max, ...). Ours counts the share of
//!   a decisive game's positions in which the eventual winner was behind (the "number of
//!   moves" reading, not the severity), averaged over decisive games.
//!
//! The evaluation trace is `Game::material(0)` (pawn = 1, the first seat's side minus the
//! other side; the only evaluation every variant has) after every action, the opening's
//! last position included. Decision where Ludii's text is silent: a level position (0)
//! leaves the lead where it was, so a trade that passes through equality is not a change;
//! a variant without material (every value 0) has no lead changes and no drama, and the
//! report says "no evaluation" instead of printing zeros. Tests
//! `rule_metrics_lead_changes_and_drama`, `rule_metrics_rates_and_intervals`.
//!
//! Opening diversity: the distinct lines after 4, 8 and 16 actions from the start, where a
//! line is the opening's text (an action-list opening counts as its actions, a FEN as one
//! token) followed by the game's actions; and the share of games in the most common line,
//! with the warning threshold of 5% of games (test `rule_metrics_opening_diversity`).
//!
//! Intervals: normal approximations, mean ± 1.96 standard errors. When every game names
//! its colour-swapped pair (issue 37 for the score, issue 67 for the rest), every figure's
//! interval is over pairs ([`Estimate::clustered`]): the first seat's score, decisiveness
//! and drawishness ([`Estimate::clustered_score`], floored at one pair's weight so 0% and
//! 100% do not print as certainties), duration, lead changes and drama (over the pairs
//! of the decisive games), because with deterministic agents from one opening the two
//! games of a pair can be the same game and must count once (tests
//! `rule_intervals_over_pairs_count_identical_pairs_once`,
//! `rule_intervals_over_pairs_for_every_figure`). Without recorded pairs they are over
//! games (a share's standard error floored at one game's weight). Opening diversity's
//! shares stay over games: they count lines, not a per-game figure's spread. Differences
//! between two runs take √(h₁² + h₂²) as their half-width (independent runs).
//!
//! Over openings (issue 37, session 26): when a book opening is played by more than one
//! pair (1000 pairs from a 200-opening book play each opening five times), those pairs
//! share the opening's bias and, for deterministic agents, repeat one game, so they are
//! not independent samples of the game. [`over_openings`] then gives a second interval
//! with the pairs of one opening as one cluster ([`Metrics::by_opening`]); it is the one
//! a verdict about the game (rather than about that book) reads, and [`Metrics::edge`]
//! returns it where it exists. Decision: the over-pairs figure stays the headline
//! number of a report (every committed figure quotes it) and the over-openings one is
//! printed beside it. Test `rule_intervals_over_openings_cluster_a_books_repeats`.

use std::collections::BTreeMap;

/// The depths at which opening diversity is counted.
pub const DIVERSITY_PLIES: [usize; 3] = [4, 8, 16];
/// A line shared by more than this share of games draws a warning.
pub const LINE_WARNING_SHARE: f64 = 0.05;

/// A mean and the half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub half: f64,
}

impl Estimate {
    /// Mean ± 1.96 standard errors of the sample (half NaN below two values).
    pub fn of(xs: &[f64]) -> Estimate {
        let n = xs.len() as f64;
        if xs.is_empty() {
            return Estimate {
                mean: f64::NAN,
                half: f64::NAN,
            };
        }
        let mean = xs.iter().sum::<f64>() / n;
        if xs.len() < 2 {
            return Estimate {
                mean,
                half: f64::NAN,
            };
        }
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        Estimate {
            mean,
            half: 1.96 * (var / n).sqrt(),
        }
    }

    /// Mean over every value, with a 95% interval that treats each cluster (a
    /// colour-swapped pair) as one sample: the cluster-robust variance
    /// G/(G−1) · Σ_g (Σ_{i∈g} (x_i − x̄))² / n². Two identical games of a pair then count
    /// once, so the interval is √2 wider than one over games when every pair's games are
    /// the same; when a pair's games differ the way the swap intends (the stronger agent
    /// wins both), the pair's residuals cancel and the interval is narrower than the
    /// naive one. With every cluster a single value it is the usual interval up to
    /// G/(G−1) against n/(n−1), the same thing. Half NaN below two clusters.
    pub fn clustered(xs: &[(u64, f64)]) -> Estimate {
        let n = xs.len() as f64;
        if xs.is_empty() {
            return Estimate {
                mean: f64::NAN,
                half: f64::NAN,
            };
        }
        let mean = xs.iter().map(|x| x.1).sum::<f64>() / n;
        let mut sums: BTreeMap<u64, f64> = BTreeMap::new();
        for &(c, x) in xs {
            *sums.entry(c).or_default() += x - mean;
        }
        let g = sums.len() as f64;
        if sums.len() < 2 {
            return Estimate {
                mean,
                half: f64::NAN,
            };
        }
        let var = g / (g - 1.0) * sums.values().map(|s| s * s).sum::<f64>() / (n * n);
        Estimate {
            mean,
            half: 1.96 * var.sqrt(),
        }
    }

    /// [`Estimate::clustered`] for scores in [0, 1], the half-width floored at that of
    /// one cluster's weight in a proportion (as [`Estimate::share`] floors at one game's),
    /// so a run where every pair splits 1-1 (a spread of exactly zero) does not print as
    /// a certainty.
    pub fn clustered_score(xs: &[(u64, f64)]) -> Estimate {
        let mut e = Estimate::clustered(xs);
        let g = xs
            .iter()
            .map(|x| x.0)
            .collect::<std::collections::BTreeSet<_>>()
            .len() as f64;
        if g >= 2.0 && !e.half.is_nan() {
            let floor = 1.96 * ((1.0 / g) * (1.0 - 1.0 / g) / g).sqrt();
            e.half = e.half.max(floor);
        }
        e
    }

    /// A share `k / n` with the interval of a proportion, its standard error floored at
    /// that of one game in `n`.
    pub fn share(k: usize, n: usize) -> Estimate {
        if n == 0 {
            return Estimate {
                mean: f64::NAN,
                half: f64::NAN,
            };
        }
        let nf = n as f64;
        let p = k as f64 / nf;
        let floor = 1.0 / nf;
        let var = (p * (1.0 - p)).max(floor * (1.0 - floor));
        Estimate {
            mean: p,
            half: 1.96 * (var / nf).sqrt(),
        }
    }

    /// `other - self`, with the half-width of a difference of independent estimates.
    pub fn diff(&self, other: &Estimate) -> Estimate {
        Estimate {
            mean: other.mean - self.mean,
            half: (self.half.powi(2) + other.half.powi(2)).sqrt(),
        }
    }

    /// Whether the interval excludes zero.
    pub fn clear_of_zero(&self) -> bool {
        !self.half.is_nan() && (self.mean - self.half > 0.0 || self.mean + self.half < 0.0)
    }

    /// `0.512 ± 0.031` with `digits` decimals.
    pub fn fmt(&self, digits: usize) -> String {
        if self.mean.is_nan() {
            "–".into()
        } else if self.half.is_nan() {
            format!("{:.*}", digits, self.mean)
        } else {
            format!("{:.*} ± {:.*}", digits, self.mean, digits, self.half)
        }
    }

    /// As a percentage: `12.3% ± 2.0`.
    pub fn fmt_pct(&self) -> String {
        if self.mean.is_nan() {
            "–".into()
        } else if self.half.is_nan() {
            format!("{:.1}%", 100.0 * self.mean)
        } else {
            format!("{:.1}% ± {:.1}", 100.0 * self.mean, 100.0 * self.half)
        }
    }
}

/// One game as the metrics see it.
#[derive(Clone, Debug, Default)]
pub struct GameTrace {
    /// The first seat's return in [-1, 1].
    pub first_return: f64,
    /// Returns of every seat (to find the winner's team).
    pub returns: Vec<f64>,
    /// Recorded actions (the game, without the opening).
    pub plies: usize,
    /// `material(0)` at the game's start and after each action.
    pub evals: Vec<f64>,
    /// The line: opening tokens, then the game's actions.
    pub line: Vec<String>,
    /// The colour-swapped pair (or rotation cycle) the game belongs to, when recorded:
    /// every interval is then over pairs ([`Estimate::clustered`]).
    pub pair: Option<u64>,
    /// The book opening the game started from (its text in `games.csv`; empty when the
    /// run had no book).
    pub opening: String,
}

/// The first seat's score with the pairs of one book opening as one cluster, and how
/// many openings and pairs it is over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpeningEstimate {
    pub estimate: Estimate,
    pub openings: usize,
    pub pairs: usize,
}

/// The first seat's score over openings from `(opening, pair, score)` per game, or `None`
/// when no book opening is played by two or more pairs (then it is the over-pairs
/// figure). A game without an opening (empty text) is its pair's own cluster.
pub fn over_openings(games: &[(&str, u64, f64)]) -> Option<OpeningEstimate> {
    let mut pairs_of: BTreeMap<&str, std::collections::BTreeSet<u64>> = BTreeMap::new();
    for &(o, p, _) in games {
        if !o.is_empty() {
            pairs_of.entry(o).or_default().insert(p);
        }
    }
    if pairs_of.values().all(|p| p.len() < 2) {
        return None;
    }
    // One cluster id per opening; pairs without one get ids past every opening's.
    let ids: BTreeMap<&str, u64> = pairs_of.keys().zip(0u64..).map(|(o, i)| (*o, i)).collect();
    let base = ids.len() as u64;
    let xs: Vec<(u64, f64)> = games
        .iter()
        .map(|&(o, p, x)| (ids.get(o).copied().unwrap_or(base + p), x))
        .collect();
    let openings = xs
        .iter()
        .map(|x| x.0)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let pairs = games
        .iter()
        .map(|g| g.1)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    Some(OpeningEstimate {
        estimate: Estimate::clustered_score(&xs),
        openings,
        pairs,
    })
}

/// Opening diversity at one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Diversity {
    pub plies: usize,
    pub distinct: usize,
    /// Share of games in the most common line (with its interval).
    pub top: Estimate,
    /// The most common line.
    pub top_line: String,
}

/// Every metric of a run.
#[derive(Clone, Debug)]
pub struct Metrics {
    pub games: usize,
    pub decisiveness: Estimate,
    pub drawishness: Estimate,
    pub duration: Estimate,
    pub first_move_advantage: Estimate,
    /// The first seat's score over book openings, where a book opening had several pairs
    /// ([`over_openings`]).
    pub by_opening: Option<OpeningEstimate>,
    /// `None` when the evaluation is flat in every game (no material in the variant).
    pub lead_changes: Option<Estimate>,
    /// `None` without evaluation or without a decisive game.
    pub drama: Option<Estimate>,
    pub diversity: Vec<Diversity>,
    /// Distinct whole games, and the share of the most repeated one.
    pub whole: Diversity,
}

/// Changes of the side ahead per action: a level position keeps the previous leader.
pub fn lead_changes(evals: &[f64]) -> f64 {
    if evals.len() < 2 {
        return 0.0;
    }
    let mut leader = 0.0f64;
    let mut changes = 0usize;
    for &e in evals {
        let s = if e > 0.0 {
            1.0
        } else if e < 0.0 {
            -1.0
        } else {
            0.0
        };
        if s != 0.0 {
            if leader != 0.0 && s != leader {
                changes += 1;
            }
            leader = s;
        }
    }
    changes as f64 / (evals.len() - 1) as f64
}

/// The share of positions in which the winner (`+1` first seat, `-1` the other side) was
/// behind on the evaluation.
pub fn drama(evals: &[f64], winner: f64) -> f64 {
    if evals.is_empty() {
        return 0.0;
    }
    let behind = evals.iter().filter(|&&e| e * winner < 0.0).count();
    behind as f64 / evals.len() as f64
}

fn diversity_at(lines: &[&[String]], plies: Option<usize>) -> Diversity {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for l in lines {
        let take = plies.map_or(l.len(), |p| p.min(l.len()));
        *counts.entry(l[..take].join(" ")).or_default() += 1;
    }
    let (top_line, top) = counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(l, c)| (l.clone(), *c))
        .unwrap_or_default();
    Diversity {
        plies: plies.unwrap_or(0),
        distinct: counts.len(),
        top: Estimate::share(top, lines.len()),
        top_line,
    }
}

/// The metrics of `games`.
pub fn compute(games: &[GameTrace]) -> Metrics {
    let n = games.len();
    let scores: Vec<f64> = games.iter().map(|g| (g.first_return + 1.0) / 2.0).collect();
    // Every per-game figure is over pairs when every game names its pair (issue 67).
    let by_pair = games.iter().all(|g| g.pair.is_some());
    let over = |values: &[(&GameTrace, f64)], share: bool| -> Estimate {
        if by_pair {
            let xs: Vec<(u64, f64)> = values
                .iter()
                .map(|(g, x)| (g.pair.unwrap_or_default(), *x))
                .collect();
            if share {
                Estimate::clustered_score(&xs)
            } else {
                Estimate::clustered(&xs)
            }
        } else {
            Estimate::of(&values.iter().map(|v| v.1).collect::<Vec<_>>())
        }
    };
    let each = |f: &dyn Fn(&GameTrace) -> f64| -> Vec<(&GameTrace, f64)> {
        games.iter().map(|g| (g, f(g))).collect()
    };
    let share = |f: &dyn Fn(&GameTrace) -> bool| -> Estimate {
        if by_pair {
            over(&each(&|g| if f(g) { 1.0 } else { 0.0 }), true)
        } else {
            Estimate::share(games.iter().filter(|g| f(g)).count(), n)
        }
    };
    let has_eval = games.iter().any(|g| g.evals.iter().any(|&e| e != 0.0));
    let lead_changes = has_eval.then(|| over(&each(&|g| lead_changes(&g.evals)), false));
    let dramas: Vec<(&GameTrace, f64)> = games
        .iter()
        .filter(|g| g.first_return != 0.0)
        .map(|g| (g, drama(&g.evals, g.first_return.signum())))
        .collect();
    let drama = (has_eval && !dramas.is_empty()).then(|| over(&dramas, false));
    let lines: Vec<&[String]> = games.iter().map(|g| g.line.as_slice()).collect();
    Metrics {
        games: n,
        decisiveness: share(&|g| g.first_return != 0.0),
        drawishness: share(&|g| g.first_return == 0.0),
        duration: over(&each(&|g| g.plies as f64), false),
        first_move_advantage: if by_pair {
            over(
                &games
                    .iter()
                    .zip(&scores)
                    .map(|(g, &s)| (g, s))
                    .collect::<Vec<_>>(),
                true,
            )
        } else {
            Estimate::of(&scores)
        },
        by_opening: if by_pair {
            over_openings(
                &games
                    .iter()
                    .zip(&scores)
                    .map(|(g, &s)| (g.opening.as_str(), g.pair.unwrap_or_default(), s))
                    .collect::<Vec<_>>(),
            )
        } else {
            None
        },
        lead_changes,
        drama,
        diversity: DIVERSITY_PLIES
            .iter()
            .map(|&p| diversity_at(&lines, Some(p)))
            .collect(),
        whole: diversity_at(&lines, None),
    }
}

impl Metrics {
    /// The first seat's score a verdict about the game reads: over openings where a book
    /// opening had several pairs, else over pairs (or games).
    pub fn edge(&self) -> &Estimate {
        self.by_opening
            .as_ref()
            .map_or(&self.first_move_advantage, |o| &o.estimate)
    }

    /// Warnings about repeated lines: one in three or more games and more than
    /// [`LINE_WARNING_SHARE`] of them.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let deepest = self.diversity.last();
        for d in deepest.into_iter().chain(std::iter::once(&self.whole)) {
            let count = (d.top.mean * self.games as f64).round();
            // A line played once is no repetition, nor is one colour-swapped pair
            // sharing its opening (by design): only a line in three or more games warns.
            if self.games > 0 && count >= 3.0 && d.top.mean > LINE_WARNING_SHARE {
                let what = if d.plies == 0 {
                    "one whole game".to_string()
                } else {
                    format!("one {}-action line", d.plies)
                };
                out.push(format!(
                    "{what} is {count} of {} games ({:.1}%, over {:.0}%): `{}`",
                    self.games,
                    100.0 * d.top.mean,
                    100.0 * LINE_WARNING_SHARE,
                    shorten(&d.top_line, 160)
                ));
            }
        }
        out
    }

    /// The metric rows of a report table: (name, value as text, estimate if any).
    pub fn rows(&self) -> Vec<(&'static str, Option<Estimate>, bool)> {
        vec![
            (
                "first-move advantage (first seat's score)",
                Some(self.first_move_advantage),
                false,
            ),
            (
                "decisiveness (share of decisive games)",
                Some(self.decisiveness),
                true,
            ),
            ("drawishness (share of draws)", Some(self.drawishness), true),
            ("duration (actions per game)", Some(self.duration), false),
            ("lead changes (per action)", self.lead_changes, false),
            ("drama (winner's positions spent behind)", self.drama, true),
        ]
    }
}

/// The first `max` characters of `s`, with an ellipsis when cut.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

/// The opening's tokens: an action list's actions, a FEN as one token, nothing for the
/// variant's own start.
pub fn opening_tokens(opening: &str) -> Vec<String> {
    let t = opening.trim();
    if t.is_empty() {
        Vec::new()
    } else if let Some(list) = t.strip_prefix(crate::record::ACTIONS_PREFIX) {
        list.split_whitespace().map(str::to_string).collect()
    } else {
        vec![t.to_string()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(ret: f64, evals: &[f64], line: &str) -> GameTrace {
        GameTrace {
            first_return: ret,
            returns: vec![ret, -ret],
            plies: evals.len().saturating_sub(1),
            evals: evals.to_vec(),
            line: line.split_whitespace().map(str::to_string).collect(),
            pair: None,
            opening: String::new(),
        }
    }

    #[test]
    fn rule_intervals_over_openings_cluster_a_books_repeats() {
        // A 4-opening book played by 20 pairs (each opening five times), deterministic
        // players: every pair of one opening scores the same. Over pairs the 20 pairs
        // look independent; over openings there are 4 samples, so the interval is wider
        // by about √5 (G/(G−1) corrections aside).
        let book = ["a", "b", "c", "d"];
        let score = |o: usize| if o.is_multiple_of(2) { 1.0 } else { 0.0 };
        let games: Vec<(&str, u64, f64)> = (0..40u64)
            .map(|i| {
                let pair = i / 2;
                let o = (pair % 4) as usize;
                (book[o], pair, score(o))
            })
            .collect();
        let pairs =
            Estimate::clustered_score(&games.iter().map(|g| (g.1, g.2)).collect::<Vec<_>>());
        let o = over_openings(&games).expect("the book's openings repeat");
        assert_eq!((o.openings, o.pairs), (4, 20));
        assert_eq!(o.estimate.mean, pairs.mean);
        let expect = (5.0f64 * (4.0 / 3.0) / (20.0 / 19.0)).sqrt();
        assert!(
            (o.estimate.half / pairs.half - expect).abs() < 1e-9,
            "{} / {}",
            o.estimate.half,
            pairs.half
        );
        // One pair per opening (or no book): nothing to add.
        let once: Vec<(&str, u64, f64)> = games.iter().filter(|g| g.1 < 4).copied().collect();
        assert!(over_openings(&once).is_none());
        let no_book: Vec<(&str, u64, f64)> = games.iter().map(|g| ("", g.1, g.2)).collect();
        assert!(over_openings(&no_book).is_none());
        // compute() carries it, and edge() reads it.
        let traces: Vec<GameTrace> = games
            .iter()
            .map(|&(o, p, x)| GameTrace {
                pair: Some(p),
                opening: o.to_string(),
                ..game(2.0 * x - 1.0, &[0.0], o)
            })
            .collect();
        let m = compute(&traces);
        assert_eq!(m.by_opening, Some(o));
        assert_eq!(m.edge(), &o.estimate);
        assert!(m.edge().half > m.first_move_advantage.half);
    }

    #[test]
    fn rule_intervals_over_pairs_count_identical_pairs_once() {
        // 20 pairs whose two games are the same game (first seat 1, 1 or 0, 0 ...): the
        // over-pairs interval is wider than the over-games one by about √2.
        let xs: Vec<(u64, f64)> = (0..40u64)
            .map(|i| (i / 2, if (i / 2) % 3 == 0 { 1.0 } else { 0.0 }))
            .collect();
        let naive = Estimate::of(&xs.iter().map(|x| x.1).collect::<Vec<_>>());
        let pairs = Estimate::clustered(&xs);
        assert_eq!(pairs.mean, naive.mean);
        let ratio = pairs.half / naive.half;
        // √2 · sqrt(G/(G−1) · (n−1)/n) with n = 40, G = 20.
        let expect = (2.0f64 * 20.0 / 19.0 * 39.0 / 40.0).sqrt();
        assert!((ratio - expect).abs() < 1e-9, "{ratio} vs {expect}");
        // Pairs the swap balances (each pair 1 then 0): every residual cancels.
        let swapped: Vec<(u64, f64)> = (0..40u64).map(|i| (i / 2, (i % 2) as f64)).collect();
        let e = Estimate::clustered(&swapped);
        assert_eq!(e.mean, 0.5);
        assert!(e.half.abs() < 1e-12);
        // As a score it keeps one pair's weight: 1.96 · sqrt((1/20)(19/20)/20).
        let f = Estimate::clustered_score(&swapped);
        assert!((f.half - 1.96 * (0.05f64 * 0.95 / 20.0).sqrt()).abs() < 1e-12);
        assert_eq!(Estimate::clustered_score(&xs).half, pairs.half);
        // compute() uses pairs when every game names one.
        let mut games: Vec<GameTrace> = xs
            .iter()
            .map(|&(_, x)| game(2.0 * x - 1.0, &[0.0], "a"))
            .collect();
        assert!((compute(&games).first_move_advantage.half - naive.half).abs() < 1e-12);
        for (g, (p, _)) in games.iter_mut().zip(&xs) {
            g.pair = Some(*p);
        }
        assert!((compute(&games).first_move_advantage.half - pairs.half).abs() < 1e-12);
    }

    #[test]
    fn rule_intervals_over_pairs_for_every_figure() {
        // 20 pairs whose two games are the same game (deterministic players from one
        // opening): 40 games, but 20 samples. Every figure's interval over pairs must
        // be that of the 20 distinct games, not of 40.
        let one = |p: u64| {
            let ret = [1.0, 0.0, -1.0][(p % 3) as usize];
            let evals: Vec<f64> = (0..(p % 5 + 2))
                .map(|i| ((i * 7 + p) % 5) as f64 - 2.0)
                .collect();
            GameTrace {
                pair: Some(p),
                ..game(ret, &evals, &format!("l{p}"))
            }
        };
        let doubled: Vec<GameTrace> = (0..40u64).map(|i| one(i / 2)).collect();
        let distinct: Vec<GameTrace> = (0..20u64).map(one).collect();
        let (d, s) = (compute(&doubled), compute(&distinct));
        let figures = |m: &Metrics| {
            vec![
                m.first_move_advantage,
                m.decisiveness,
                m.drawishness,
                m.duration,
                m.lead_changes.expect("material"),
                m.drama.expect("decisive games"),
            ]
        };
        for (a, b) in figures(&d).iter().zip(figures(&s)) {
            assert!((a.mean - b.mean).abs() < 1e-12, "{a:?} vs {b:?}");
            assert!(
                a.half > 0.0 && (a.half - b.half).abs() < 1e-12,
                "{a:?} vs {b:?}"
            );
        }
        // Without pairs recorded the old over-games intervals stay: narrower.
        let unpaired: Vec<GameTrace> = doubled
            .iter()
            .map(|g| GameTrace {
                pair: None,
                ..g.clone()
            })
            .collect();
        let u = compute(&unpaired);
        assert_eq!(u.decisiveness, Estimate::share(26, 40));
        for (a, b) in figures(&u).iter().zip(figures(&d)) {
            assert!(a.half < b.half, "{a:?} vs {b:?}");
        }
        // A share's floor is one pair's weight: every game decisive in 20 pairs.
        let all: Vec<GameTrace> = (0..40u64)
            .map(|i| GameTrace {
                pair: Some(i / 2),
                ..game(1.0, &[0.0, 1.0], "a")
            })
            .collect();
        let m = compute(&all);
        assert_eq!(m.decisiveness.mean, 1.0);
        assert!((m.decisiveness.half - 1.96 * (0.05f64 * 0.95 / 20.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn rule_metrics_lead_changes_and_drama() {
        // Ahead, level, ahead again: no change; then behind: one change in 4 actions.
        assert_eq!(lead_changes(&[1.0, 0.0, 2.0, -1.0, -1.0]), 1.0 / 4.0);
        assert_eq!(lead_changes(&[0.0, 0.0, 0.0]), 0.0);
        assert_eq!(lead_changes(&[-1.0, 1.0, -1.0]), 1.0);
        // The first seat wins after being behind in 2 of 5 positions.
        assert_eq!(drama(&[0.0, -1.0, -3.0, 0.0, 5.0], 1.0), 2.0 / 5.0);
        // The second seat wins from a position the first seat led in 1 of 3.
        assert_eq!(drama(&[0.0, 1.0, -2.0], -1.0), 1.0 / 3.0);
        let m = compute(&[
            game(1.0, &[0.0, -1.0, 1.0], "a b"),
            game(0.0, &[0.0, 1.0, 0.0], "a c"),
        ]);
        // Drama only over the decisive game; lead changes over both.
        assert_eq!(m.drama.unwrap().mean, 1.0 / 3.0);
        assert_eq!(m.lead_changes.unwrap().mean, (0.5 + 0.0) / 2.0);
        // No material anywhere: no evaluation, not zero drama.
        let flat = compute(&[game(1.0, &[0.0, 0.0], "a"), game(-1.0, &[0.0, 0.0], "b")]);
        assert!(flat.lead_changes.is_none() && flat.drama.is_none());
    }

    #[test]
    fn rule_metrics_rates_and_intervals() {
        let m = compute(&[
            game(1.0, &[0.0, 0.0], "a"),
            game(0.0, &[0.0, 0.0, 0.0, 0.0], "b"),
            game(-1.0, &[0.0, 0.0, 0.0], "c"),
            game(1.0, &[0.0, 0.0, 0.0], "d"),
        ]);
        assert_eq!(m.decisiveness.mean, 0.75);
        assert_eq!(m.drawishness.mean, 0.25);
        assert!((m.decisiveness.half - 1.96 * (0.75f64 * 0.25 / 4.0).sqrt()).abs() < 1e-12);
        assert_eq!(m.duration.mean, (1 + 3 + 2 + 2) as f64 / 4.0);
        assert_eq!(m.first_move_advantage.mean, (1.0 + 0.5 + 0.0 + 1.0) / 4.0);
        // A share of 0 still has an interval (one game's weight).
        assert!(Estimate::share(0, 100).half > 0.0);
        let a = Estimate {
            mean: 0.5,
            half: 0.03,
        };
        let b = Estimate {
            mean: 0.6,
            half: 0.04,
        };
        let d = a.diff(&b);
        assert!((d.mean - 0.1).abs() < 1e-12 && (d.half - 0.05).abs() < 1e-12);
        assert!(d.clear_of_zero());
        assert!(!Estimate {
            mean: 0.01,
            half: 0.05
        }
        .clear_of_zero());
    }

    #[test]
    fn rule_metrics_opening_diversity() {
        let mut games: Vec<GameTrace> = (0..19)
            .map(|i| game(0.0, &[0.0], &format!("e4 e5 Nf3 x{i} y z w v")))
            .collect();
        games.push(game(0.0, &[0.0], "d4 d5"));
        let m = compute(&games);
        // After 4 actions: the 19 lines share `e4 e5 Nf3 x_` only up to 3 actions.
        assert_eq!(m.diversity[0].plies, 4);
        assert_eq!(m.diversity[0].distinct, 20);
        assert_eq!(m.whole.distinct, 20);
        assert!(m.warnings().is_empty(), "{:?}", m.warnings());
        // The same game 3 times in 20 (15%) is warned about, naming the line.
        games[1].line = games[0].line.clone();
        // Two games (one colour-swapped pair) sharing a line is no warning, even at 10%.
        assert!(compute(&games).warnings().is_empty());
        games[2].line = games[0].line.clone();
        let w = compute(&games).warnings();
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[1].contains("one whole game is 3 of 20") && w[1].contains("e4 e5 Nf3 x0"));
        assert_eq!(opening_tokens("actions: a b"), vec!["a", "b"]);
        assert_eq!(opening_tokens(""), Vec::<String>::new());
        assert_eq!(opening_tokens("8/8/8/8/8/8/8/K1k5 w - - 0 1").len(), 1);
    }
}

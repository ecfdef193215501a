//! The target file: what a tuned table should achieve, measured per game, and the one
//! loss the optimisers minimise.
//!
//! ```toml
//! [[target]]
//! measure = "tally:turns"   # "plies", "first_seat_score", "draw", "tally:NAME",
//!                           # or "tally:A+B/C+D" (a ratio of sums of tallies)
//! range = [45, 55]          # the mean per game should lie in [a, b] ...
//! # value = 0.5             # ... or near a value:
//! # tolerance = 0.02        #     value ± tolerance (absolute)
//! # relative = 0.10         #     value ± 10%
//! weight = 1.0              # optional, default 1
//! ```
//!
//! Per game: `plies` is the number of recorded actions, `first_seat_score` is seat 0's
//! score (1 win, ½ draw, 0 loss; in team variants the first team's), `draw` is 1 for a
//! draw, and `tally:NAME` is the variant's own figure `NAME` (`Game::tallies`) at the
//! end of the game. `tally:A+B/C+D` is, per game, the sum of the tallies before the
//! `/` divided by the sum of those after it (0 when the divisor is 0), e.g.
//! `tally:white_purchases+black_purchases/white_moves+black_moves`, the share of turns
//! with a purchase (`tests::ratio_targets_read_sums_of_tallies`). Decision: a ratio of
//! tallies rather than a variant's own per-game ratio tally, because such a tally is
//! undefined in a game where its divisor is zero (no purchase at all), and a target on
//! "moves between purchases in [5, 6]" is met exactly when the purchase share lies in
//! [1/6, 1/5]; the share is also bounded, which keeps the loss well behaved.
//!
//! Loss (documented decision): each target has a centre `m` (middle of the range, or the
//! value) and a half-width `h` (half the range, the tolerance, or `relative·|value|`);
//! its term is `weight · ((mean − m) / h)²`, and the loss is the sum. A term is at most
//! `weight` exactly when the mean meets the target, so a loss at most the sum of the
//! weights means every target is met on average. The square (rather than a flat zero
//! inside the interval) keeps a slope everywhere, which SPSA's gradient estimate needs.

use anyhow::{bail, Context, Result};
use serde::Deserialize;

#[derive(Clone, Debug, PartialEq)]
pub enum Measure {
    Plies,
    FirstSeatScore,
    Draw,
    Tally(String),
    /// Sum of the first tallies over the sum of the second, per game.
    Ratio(Vec<String>, Vec<String>),
}

impl Measure {
    fn parse(s: &str) -> Result<Measure> {
        Ok(match s {
            "plies" => Measure::Plies,
            "first_seat_score" => Measure::FirstSeatScore,
            "draw" => Measure::Draw,
            _ => match s.strip_prefix("tally:") {
                Some(expr) if expr.contains('/') => {
                    let (num, den) = expr.split_once('/').unwrap_or((expr, ""));
                    let names = |side: &str| -> Result<Vec<String>> {
                        let v: Vec<String> =
                            side.split('+').map(|n| n.trim().to_string()).collect();
                        if v.iter().any(|n| n.is_empty() || n.contains('/')) {
                            bail!("measure '{s}': expected tally:A+B/C+D");
                        }
                        Ok(v)
                    };
                    Measure::Ratio(names(num)?, names(den)?)
                }
                Some(name) if !name.is_empty() && !name.contains('+') => {
                    Measure::Tally(name.to_string())
                }
                _ => bail!(
                    "measure '{s}': expected plies, first_seat_score, draw, tally:NAME or \
                     tally:A+B/C+D"
                ),
            },
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub label: String,
    pub measure: Measure,
    pub centre: f64,
    pub half_width: f64,
    pub weight: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetsFile {
    #[serde(default)]
    target: Vec<TargetFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetFile {
    measure: String,
    range: Option<[f64; 2]>,
    value: Option<f64>,
    tolerance: Option<f64>,
    relative: Option<f64>,
    weight: Option<f64>,
}

/// Reads a target file; `tallies` are the variant's tally names (checked here, before
/// any game).
pub fn parse(text: &str, tallies: &[String]) -> Result<Vec<Target>> {
    let file: TargetsFile = crate::util::from_toml(text).context("the target file is not valid")?;
    if file.target.is_empty() {
        bail!("the target file names no [[target]]");
    }
    file.target
        .into_iter()
        .map(|t| {
            let measure = Measure::parse(&t.measure)?;
            let named: Vec<&String> = match &measure {
                Measure::Tally(name) => vec![name],
                Measure::Ratio(num, den) => num.iter().chain(den).collect(),
                _ => Vec::new(),
            };
            for name in named {
                if !tallies.contains(name) {
                    bail!(
                        "target '{}': the variant has no tally '{name}' (it has: {})",
                        t.measure,
                        if tallies.is_empty() {
                            "none".to_string()
                        } else {
                            tallies.join(", ")
                        }
                    );
                }
            }
            let (centre, half_width) = match (t.range, t.value, t.tolerance, t.relative) {
                (Some([a, b]), None, None, None) => {
                    if a >= b {
                        bail!(
                            "target '{}': range [{a}, {b}] is reversed or empty",
                            t.measure
                        );
                    }
                    ((a + b) / 2.0, (b - a) / 2.0)
                }
                (None, Some(v), Some(tol), None) => (v, tol),
                (None, Some(v), None, Some(rel)) => (v, rel * v.abs()),
                _ => bail!(
                    "target '{}': give `range = [a, b]`, or `value` with `tolerance` or `relative`",
                    t.measure
                ),
            };
            if !(half_width > 0.0 && half_width.is_finite() && centre.is_finite()) {
                bail!("target '{}': the tolerance must be positive", t.measure);
            }
            let weight = t.weight.unwrap_or(1.0);
            if !(weight > 0.0 && weight.is_finite()) {
                bail!("target '{}': weight must be positive", t.measure);
            }
            Ok(Target {
                label: t.measure.clone(),
                measure,
                centre,
                half_width,
                weight,
            })
        })
        .collect()
}

impl Measure {
    /// Whether the measure reads the variant's tallies.
    pub fn needs_tallies(&self) -> bool {
        matches!(self, Measure::Tally(_) | Measure::Ratio(..))
    }

    /// One game's value from its tallies, seat 0's score, plies and whether it was drawn.
    pub fn value(&self, tallies: &[(String, f64)], score: f64, plies: usize, draw: bool) -> f64 {
        let get = |n: &String| {
            tallies
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| *v)
                .unwrap_or(0.0)
        };
        match self {
            Measure::Plies => plies as f64,
            Measure::FirstSeatScore => score,
            Measure::Draw => f64::from(u8::from(draw)),
            Measure::Tally(n) => get(n),
            Measure::Ratio(num, den) => {
                let d: f64 = den.iter().map(get).sum();
                if d == 0.0 {
                    0.0
                } else {
                    num.iter().map(get).sum::<f64>() / d
                }
            }
        }
    }
}

impl Target {
    /// This target's term of the loss for a mean per game.
    pub fn term(&self, mean: f64) -> f64 {
        self.weight * ((mean - self.centre) / self.half_width).powi(2)
    }

    pub fn met(&self, mean: f64) -> bool {
        (mean - self.centre).abs() <= self.half_width
    }
}

/// The loss of per-target means.
pub fn loss(targets: &[Target], means: &[f64]) -> f64 {
    targets.iter().zip(means).map(|(t, m)| t.term(*m)).sum()
}

/// Mean and 95% half-interval (1.96 standard errors) of per-game values.
pub fn mean_ci(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

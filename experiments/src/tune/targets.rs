//! The target file: what a tuned table should achieve, measured per game, and the one
//! loss the optimisers minimise.
//!
//! ```toml
//! [[target]]
//! measure = "tally:turns"   # "plies", "first_seat_score", "draw", or "tally:NAME"
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
//! end of the game.
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
}

impl Measure {
    fn parse(s: &str) -> Result<Measure> {
        Ok(match s {
            "plies" => Measure::Plies,
            "first_seat_score" => Measure::FirstSeatScore,
            "draw" => Measure::Draw,
            _ => match s.strip_prefix("tally:") {
                Some(name) if !name.is_empty() => Measure::Tally(name.to_string()),
                _ => bail!("measure '{s}': expected plies, first_seat_score, draw or tally:NAME"),
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
    let file: TargetsFile = toml::from_str(text).context("the target file is not valid")?;
    if file.target.is_empty() {
        bail!("the target file names no [[target]]");
    }
    file.target
        .into_iter()
        .map(|t| {
            let measure = Measure::parse(&t.measure)?;
            if let Measure::Tally(name) = &measure {
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

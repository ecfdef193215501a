//! Positions sampled from recorded games, replayed with the variant from the registry.
//!
//! Sampling (decisions where the issue leaves room): a position is a candidate when it
//! is a seat's turn (not chance, not a simultaneous node, not terminal), at least
//! `min_ply` plies in (past the opening), and *quiet* in the cheap sense that the
//! features did not change over the last ply (no capture or promotion just happened, so
//! the position is not in the middle of an exchange). Of the candidates, at most
//! `per_game` are kept, evenly spaced through the game. The label is seat 0's score
//! (win 1, draw 0.5, loss 0) read from the row's returns.

use anyhow::{anyhow, bail, Context, Result};
use engine::game::{Game, Turn, Utility};
use engine::registry::{self, VariantVisitor};

use crate::record::Row;

/// How positions are chosen.
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    pub min_ply: usize,
    pub per_game: usize,
}

/// Sampled positions: feature names, and per position its game (index into the rows
/// given), features and seat 0's score.
#[derive(Debug, Default)]
pub struct Samples {
    pub names: Vec<String>,
    pub game: Vec<usize>,
    pub xs: Vec<Vec<f64>>,
    pub ys: Vec<f64>,
}

struct Sampler<'a> {
    rows: &'a [Row],
    sampling: Sampling,
}

impl VariantVisitor for Sampler<'_> {
    type Output = Result<Samples>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Result<Samples> {
        let start = G::new(&params);
        let facts = start.facts();
        if facts.utility == Utility::Identical || start.num_seats() != 2 {
            bail!("{name} is not a two-sided zero-sum game; piece values do not apply to it (issue 24 leaves Cooperative and Golf out)");
        }
        let names: Vec<String> = start.features().into_iter().map(|(n, _)| n).collect();
        if names.is_empty() {
            bail!("{name} declares no features (Game::features is empty: no board to count pieces on)");
        }
        let mut out = Samples {
            names,
            ..Samples::default()
        };
        for (gi, row) in self.rows.iter().enumerate() {
            let y = match row.returns.first() {
                Some(r) => ((r + 1.0) / 2.0).clamp(0.0, 1.0),
                None => bail!("game {} has no returns", row.index),
            };
            let actions: Vec<&str> = row.actions.split_whitespace().collect();
            let mut game = start.clone();
            let mut prev: Option<Vec<f64>> = None;
            let mut candidates = Vec::new();
            for (ply, a) in actions.iter().enumerate() {
                game = engine::game::replay(game, std::slice::from_ref(a))
                    .with_context(|| format!("replaying game {} at ply {}", row.index, ply + 1))?;
                let feats: Vec<f64> = game.features().into_iter().map(|(_, v)| v).collect();
                let quiet = prev.as_ref() == Some(&feats);
                if ply + 1 >= self.sampling.min_ply
                    && quiet
                    && matches!(game.turn(), Turn::Seat(_))
                    && feats.len() == out.names.len()
                {
                    candidates.push(feats.clone());
                }
                prev = Some(feats);
            }
            let k = self.sampling.per_game.min(candidates.len());
            for i in 0..k {
                // Evenly spaced through the candidates.
                let at = i * candidates.len() / k;
                out.game.push(gi);
                out.xs.push(candidates[at].clone());
                out.ys.push(y);
            }
        }
        Ok(out)
    }
}

/// Samples positions from `rows`, all of variant `variant` with parameters `params`.
pub fn sample(
    variant: &str,
    params: Option<&str>,
    rows: &[Row],
    sampling: Sampling,
) -> Result<Samples> {
    if let Some(other) = rows.iter().find(|r| r.variant != variant) {
        bail!(
            "game {} is {}, not {variant}: give the games.csv of the variant asked for",
            other.index,
            other.variant
        );
    }
    registry::visit(variant, params, Sampler { rows, sampling })
        .map_err(|e| anyhow!(e))
        .with_context(|| format!("variant {variant}"))?
}

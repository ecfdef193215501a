//! Positions sampled from recorded games, replayed with the variant from the registry.
//!
//! Sampling (decisions where the issue leaves room): a position is a candidate when it
//! is a seat's turn (not chance, not a simultaneous node, not terminal), at least
//! `min_ply` plies in (past the opening), and *quiet* in the cheap sense that the
//! piece-count features did not change over the last ply (no capture or promotion just happened, so
//! the position is not in the middle of an exchange). Of the candidates, at most
//! `per_game` are kept, evenly spaced through the game. The label is seat 0's score
//! (win 1, draw 0.5, loss 0) read from the row's returns. Games replay in parallel
//! (rayon); the samples come out in game order whatever the threads.

use anyhow::{anyhow, bail, Context, Result};
use engine::game::{Game, Turn, Utility};
use engine::registry::{self, VariantVisitor};

use rayon::prelude::*;

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
    /// How many leading features are piece counts (quietness looks at those only).
    pieces: usize,
}

impl Sampler<'_> {
    /// Seat 0's score in `row` and the positions kept from it.
    fn positions<G: Game>(
        &self,
        params: &G::Params,
        row: &Row,
        width: usize,
    ) -> Result<(f64, Vec<Vec<f64>>)> {
        let y = match row.returns.first() {
            Some(r) => ((r + 1.0) / 2.0).clamp(0.0, 1.0),
            None => bail!("game {} has no returns", row.index),
        };
        let mut game = crate::run::openings::row_start::<G>(params, row)?;
        let mut prev: Option<Vec<f64>> = None;
        let mut candidates = Vec::new();
        for (ply, a) in row.actions.split_whitespace().enumerate() {
            game = engine::game::replay(game, std::slice::from_ref(&a))
                .with_context(|| format!("replaying game {} at ply {}", row.index, ply + 1))?;
            let feats: Vec<f64> = game.features().into_iter().map(|(_, v)| v).collect();
            let pieces = &feats[..self.pieces.min(feats.len())];
            let quiet = prev.as_deref() == Some(pieces);
            if ply + 1 >= self.sampling.min_ply
                && quiet
                && matches!(game.turn(), Turn::Seat(_))
                && feats.len() == width
            {
                candidates.push(feats.clone());
            }
            prev = Some(pieces.to_vec());
        }
        let k = self.sampling.per_game.min(candidates.len());
        // Evenly spaced through the candidates.
        let kept = (0..k)
            .map(|i| candidates[i * candidates.len() / k].clone())
            .collect();
        Ok((y, kept))
    }
}

impl VariantVisitor for Sampler<'_> {
    type Output = Result<Samples>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Result<Samples> {
        let start = G::new(&params);
        let facts = start.facts();
        // Two sides: two seats in a zero-sum game, or two teams (Crowded House: White's
        // two seats against Black's; seat 0's returns are its team's, and the default
        // features already count White's pieces against Black's).
        let teams: std::collections::BTreeSet<usize> =
            (0..start.num_seats()).map(|s| start.team(s)).collect();
        let two_sided = match facts.utility {
            Utility::ZeroSum => start.num_seats() == 2,
            Utility::Team => teams.len() == 2,
            Utility::Identical => false,
        };
        if !two_sided {
            bail!("{name} is not a two-sided zero-sum game; piece values do not apply to it (issue 24 leaves Cooperative and Golf out)");
        }
        let names: Vec<String> = start.features().into_iter().map(|(n, _)| n).collect();
        check_features(name, &names)?;
        // Quiet means no capture or promotion just happened: the piece counts did not
        // change. A variant's own features may change with every ply (Half Alice's mirror
        // side), so they do not count; with no piece counts, all features do.
        let p = names
            .iter()
            .take_while(|n| engine::game::MATERIAL_FEATURES.contains(&n.as_str()))
            .count();
        let this = Sampler {
            pieces: if p == 0 { names.len() } else { p },
            ..self
        };
        let mut out = Samples {
            names,
            ..Samples::default()
        };
        // Games replay in parallel; positions are put together in game order, so the
        // samples do not depend on the threads.
        let per_game: Vec<Result<(f64, Vec<Vec<f64>>)>> = this
            .rows
            .par_iter()
            .map(|row| this.positions::<G>(&params, row, out.names.len()))
            .collect();
        for (gi, r) in per_game.into_iter().enumerate() {
            let (y, xs) = r?;
            for x in xs {
                out.game.push(gi);
                out.xs.push(x);
                out.ys.push(y);
            }
        }
        Ok(out)
    }
}

/// A variant's feature names can be fitted: there are some, and one is the pawn that
/// values are expressed in.
pub fn check_features(variant: &str, names: &[String]) -> Result<()> {
    if names.is_empty() {
        bail!("{variant} has no board to count pieces on, so it has no piece values to learn");
    }
    if !names.iter().any(|n| n == "pawn") {
        bail!("{variant}'s features have no `pawn` to express values in");
    }
    Ok(())
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
    registry::visit(
        variant,
        params,
        Sampler {
            rows,
            sampling,
            pieces: 0,
        },
    )
    .map_err(|e| anyhow!(e))
    .with_context(|| format!("variant {variant}"))?
}

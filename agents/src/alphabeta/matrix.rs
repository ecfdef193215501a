//! `alphabeta` at a simultaneous root (Two Move's card choice, Synchronous's moves and
//! its simultaneous exchange steps): the one-turn matrix game.
//!
//! Every pair of this seat's action and the opponent's is applied as a joint action and
//! the position after it searched by the agent's own alpha-beta for the rest of the turn
//! (Two Move's card moves, Synchronous's exchange of blows), `depth - 1` decisions deep
//! with quiescence, so that a joint action counts as one ply of the agent's `depth`. The
//! next simultaneous node is scored statically, as inside any alpha-beta search of these
//! games. Each cell becomes an expected score for this seat (the logistic of the
//! centipawns, 400 per factor of ten, as Elo; a won cell is 1), and the zero-sum matrix
//! game is solved by regret matching+ ([`solve`]); the agent draws its action from its
//! equilibrium strategy with the decision's rng. On every sequential game the agent is
//! the same `alphabeta` as before, so its orthodox rating stays its rating.
//!
//! Decisions where the issue texts are silent:
//! - Mixed, not pure: a simultaneous choice is a guessing game (Two Move's matching
//!   cards), and a pure choice is read by any opponent that models it. Actions below
//!   [`PURIFY`] in the solved strategy are dropped before drawing (regret matching leaves
//!   small weights on actions that are not in the equilibrium).
//! - Budget: `depth` bounds the cells' search. Under `time_ms` or `tc` the cells are
//!   searched in passes of growing depth; the first pass (depth 0: quiescence) is always
//!   finished, no pass starts after [`super::time::SOFT`] of the time, a pass cut by the
//!   hard stop is discarded (cells of two depths are not mixed in one matrix), and
//!   passing stops when a pass searched no more nodes than the one before (the turn's
//!   remainder was searched to its end).
//! - Only two acting seats on two sides; anything else goes back to the UCT fallback.
//! - `noise` perturbs the static scores of the cells as everywhere in the search.
//!
//! Tests: `rule_matrix_*` below (the solver against games with known equilibria) and
//! `rule_alphabeta_matrix_*` in agents/tests/two_move_agents.rs (the Rules Quiz's forced
//! win, mixing in a guessing game, determinism by seed, beating `smmcts`) and
//! agents/tests/synchronous_agents.rs (never the collision square, beating `smmcts`);
//! the `every_*` tests there play whole games.

use super::search::AlphaBeta;
use super::{SearchInfo, MATE_BOUND};
use crate::fallback::two_teams;
use engine::game::{Game, Seat};
use rand_pcg::Pcg64;
use std::time::Duration;

/// Strategy weights below this are dropped before the action is drawn.
pub const PURIFY: f64 = 0.03;
/// Regret-matching iterations times matrix cells, at most (about 10 ms).
const SOLVER_WORK: usize = 4_000_000;

/// The expected score of a centipawn value (Elo's logistic, 400 per factor of ten);
/// mate scores are certain results.
pub fn expected_score(cp: i32) -> f64 {
    if cp >= MATE_BOUND {
        1.0
    } else if cp <= -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + 10f64.powf(-cp as f64 / 400.0))
    }
}

/// Centipawns of an expected score (the inverse of [`expected_score`], clamped).
fn centipawns(p: f64) -> i32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    (400.0 * (p / (1.0 - p)).log10()).round() as i32
}

/// An approximate equilibrium of the zero-sum game whose row player receives
/// `payoff[r * cols + c]` (the column player its negation): the row and column mixed
/// strategies (averages of regret matching+ with linear weights) and the value to the
/// row player.
pub fn solve(payoff: &[f64], rows: usize, cols: usize, iters: usize) -> (Vec<f64>, Vec<f64>, f64) {
    assert_eq!(payoff.len(), rows * cols);
    let mut regret_r = vec![0.0; rows];
    let mut regret_c = vec![0.0; cols];
    let mut avg_r = vec![0.0; rows];
    let mut avg_c = vec![0.0; cols];
    let mut sr = vec![1.0 / rows as f64; rows];
    let mut sc = vec![1.0 / cols as f64; cols];
    let mut u_r = vec![0.0; rows];
    let mut u_c = vec![0.0; cols];
    for t in 1..=iters.max(1) {
        // Alternating updates: the row player first, the columns answer the new rows.
        // `sr` already is the rows' regret-matching strategy (uniform before any regret).
        for (r, u) in u_r.iter_mut().enumerate() {
            *u = (0..cols).map(|c| payoff[r * cols + c] * sc[c]).sum();
        }
        let v: f64 = u_r.iter().zip(&sr).map(|(u, p)| u * p).sum();
        for (g, u) in regret_r.iter_mut().zip(&u_r) {
            *g = (*g + u - v).max(0.0);
        }
        strategy(&regret_r, &mut sr);
        for (c, u) in u_c.iter_mut().enumerate() {
            *u = -(0..rows).map(|r| payoff[r * cols + c] * sr[r]).sum::<f64>();
        }
        let v: f64 = u_c.iter().zip(&sc).map(|(u, p)| u * p).sum();
        for (g, u) in regret_c.iter_mut().zip(&u_c) {
            *g = (*g + u - v).max(0.0);
        }
        let w = t as f64;
        avg_r.iter_mut().zip(&sr).for_each(|(a, p)| *a += w * p);
        strategy(&regret_c, &mut sc);
        avg_c.iter_mut().zip(&sc).for_each(|(a, p)| *a += w * p);
    }
    normalise(&mut avg_r);
    normalise(&mut avg_c);
    let value = (0..rows)
        .map(|r| {
            avg_r[r]
                * (0..cols)
                    .map(|c| payoff[r * cols + c] * avg_c[c])
                    .sum::<f64>()
        })
        .sum();
    (avg_r, avg_c, value)
}

/// Regret matching: play in proportion to positive regret, uniformly when none.
fn strategy(regret: &[f64], out: &mut [f64]) {
    let total: f64 = regret.iter().sum();
    if total > 0.0 {
        out.iter_mut().zip(regret).for_each(|(o, g)| *o = g / total);
    } else {
        let u = 1.0 / out.len() as f64;
        out.iter_mut().for_each(|o| *o = u);
    }
}

fn normalise(v: &mut [f64]) {
    let total: f64 = v.iter().sum();
    if total > 0.0 {
        v.iter_mut().for_each(|x| *x /= total);
    }
}

/// How much better than its strategy's value either player could do by a best reply
/// (0 at an exact equilibrium): for tests and checks of [`solve`].
pub fn exploitability(payoff: &[f64], rows: usize, cols: usize, sr: &[f64], sc: &[f64]) -> f64 {
    let best_row = (0..rows)
        .map(|r| (0..cols).map(|c| payoff[r * cols + c] * sc[c]).sum::<f64>())
        .fold(f64::MIN, f64::max);
    let best_col = (0..cols)
        .map(|c| (0..rows).map(|r| payoff[r * cols + c] * sr[r]).sum::<f64>())
        .fold(f64::MAX, f64::min);
    best_row - best_col
}

/// This seat's action at a simultaneous root, or `None` where the matrix game does not
/// apply (not exactly two acting seats on two sides, no legal action).
pub(super) fn decide<G: Game>(
    s: &mut AlphaBeta<G>,
    game: &G,
    seat: Seat,
    limit: Option<Duration>,
    rng: &mut Pcg64,
) -> Option<G::Action> {
    let seats = game.simultaneous_seats();
    let k = seats.iter().position(|&x| x == seat)?;
    if seats.len() != 2 {
        return None;
    }
    let other = seats[1 - k];
    let side = two_teams(game)?;
    if side[seat] == side[other] {
        return None;
    }
    let mut mine = Vec::new();
    let mut theirs = Vec::new();
    game.legal_actions(seat, &mut mine);
    game.legal_actions(other, &mut theirs);
    if mine.len() <= 1 || theirs.is_empty() {
        return mine.first().copied();
    }
    let (rows, cols) = (mine.len(), theirs.len());
    let mut g = game.clone();
    // The first pass runs without a limit so that a full matrix always exists.
    s.begin(game, None);
    let mut matrix: Vec<i32> = Vec::new();
    let mut depth_done = 0;
    let mut last_nodes = 0;
    let max_cell = s.config.depth.max(1) - 1;
    for d in 0..=max_cell {
        let before = s.nodes();
        let mut pass = Vec::with_capacity(rows * cols);
        'cells: for &a in &mine {
            for &b in &theirs {
                let joint = if k == 0 { [a, b] } else { [b, a] };
                g.apply_joint(&joint);
                let v = s.cell_value(&mut g, seat, d);
                g.undo();
                match v {
                    Some(v) => pass.push(v),
                    None => break 'cells,
                }
            }
        }
        if pass.len() < rows * cols {
            break;
        }
        let nodes = s.nodes() - before;
        matrix = pass;
        depth_done = d + 1;
        if d == 0 {
            s.set_limit(limit);
        } else if nodes <= last_nodes {
            break;
        }
        last_nodes = nodes;
        if s.past(super::time::SOFT) {
            break;
        }
    }
    if matrix.is_empty() {
        // The first pass was stopped (nodes spent, or a stop from outside): no matrix.
        return None;
    }
    let payoff: Vec<f64> = matrix.iter().map(|&v| expected_score(v)).collect();
    let iters = (SOLVER_WORK / (rows * cols)).clamp(100, 5000);
    let (mut strategy, _, value) = solve(&payoff, rows, cols, iters);
    let top = strategy.iter().cloned().fold(0.0, f64::max);
    strategy
        .iter_mut()
        .for_each(|p| *p = if *p < PURIFY.min(top) { 0.0 } else { *p });
    normalise(&mut strategy);
    s.info = SearchInfo {
        nodes: s.nodes(),
        depth: depth_done,
        score: centipawns(value),
    };
    Some(mine[engine::random::sample_prob_index(&strategy, rng)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64], eps: f64) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < eps)
    }

    #[test]
    fn rule_matrix_matching_pennies_is_half_and_half() {
        let m = [1.0, 0.0, 0.0, 1.0];
        let (r, c, v) = solve(&m, 2, 2, 2000);
        assert!(close(&r, &[0.5, 0.5], 0.01), "{r:?}");
        assert!(close(&c, &[0.5, 0.5], 0.01), "{c:?}");
        assert!((v - 0.5).abs() < 0.01);
    }

    #[test]
    fn rule_matrix_known_mixed_equilibrium() {
        // Row mixes 3/7 on its first row, the column 2/7 on its first column; value 1/7.
        let m = [3.0, -1.0, -2.0, 1.0];
        let (r, c, v) = solve(&m, 2, 2, 5000);
        assert!(close(&r, &[3.0 / 7.0, 4.0 / 7.0], 0.01), "{r:?}");
        assert!(close(&c, &[2.0 / 7.0, 5.0 / 7.0], 0.01), "{c:?}");
        assert!((v - 1.0 / 7.0).abs() < 0.01, "{v}");
        assert!(exploitability(&m, 2, 2, &r, &c) < 0.01);
    }

    #[test]
    fn rule_matrix_dominated_actions_get_no_weight() {
        // Row 2 is dominated by row 0; columns 0 and 1 by column 2 (the column player
        // minimises), so the value is row 0 against column 2.
        let m = [0.6, 0.9, 0.4, 0.8, 0.5, 0.3, 0.2, 0.9, 0.1];
        let (r, c, v) = solve(&m, 3, 3, 5000);
        assert!(r[2] < PURIFY && c[1] < PURIFY, "{r:?} {c:?}");
        assert!(exploitability(&m, 3, 3, &r, &c) < 0.01, "{r:?} {c:?} {v}");
        assert!((v - 0.4).abs() < 0.01, "{v}");
    }

    #[test]
    fn rule_matrix_rock_paper_scissors_is_uniform() {
        let m = [0.5, 0.0, 1.0, 1.0, 0.5, 0.0, 0.0, 1.0, 0.5];
        let (r, _, v) = solve(&m, 3, 3, 5000);
        assert!(close(&r, &[1.0 / 3.0; 3], 0.01), "{r:?}");
        assert!((v - 0.5).abs() < 0.01);
    }

    #[test]
    fn rule_matrix_expected_score_is_elo_logistic() {
        assert_eq!(expected_score(0), 0.5);
        assert!((expected_score(400) - 10.0 / 11.0).abs() < 1e-9);
        assert_eq!(expected_score(MATE_BOUND + 5), 1.0);
        assert_eq!(expected_score(-MATE_BOUND - 5), 0.0);
        assert_eq!(centipawns(expected_score(123)), 123);
    }
}

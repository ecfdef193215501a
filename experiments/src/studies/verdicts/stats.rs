//! The page's statistics: a comparison's two-sided p from the normal approximation,
//! Holm's step-down correction over a family, and the least-squares slope of a
//! question's differences on its players' ratings.

use crate::stats::normal_cdf;

/// Two-sided p of an estimate `d` with standard error `se` against 0 (normal
/// approximation). A zero standard error gives 1 for `d == 0` and 0 otherwise.
pub fn two_sided_p(d: f64, se: f64) -> f64 {
    if se <= 0.0 {
        return if d == 0.0 { 1.0 } else { 0.0 };
    }
    (2.0 * (1.0 - normal_cdf((d / se).abs()))).clamp(0.0, 1.0)
}

/// Holm's step-down adjusted p-values, in the order given: sorted ascending, the i-th
/// smallest (from 0) is multiplied by m − i, capped at 1, and made non-decreasing along
/// the order (a later p is never adjusted below an earlier one). Ties keep their input
/// order, so the result does not depend on how the sort breaks them.
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let m = ps.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]).then(a.cmp(&b)));
    let mut out = vec![0.0; m];
    let mut running = 0.0f64;
    for (i, &k) in order.iter().enumerate() {
        let adj = ((m - i) as f64 * ps[k]).min(1.0);
        running = running.max(adj);
        out[k] = running;
    }
    out
}

/// A least-squares slope with its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slope {
    pub slope: f64,
    pub se: f64,
}

/// The ordinary least-squares slope of `y` on `x` from `(x, y, se_y)` points, with the
/// standard error that the points' own standard errors give it (each `y` independent):
/// Var(b) = Σ (x − x̄)² se² / (Σ (x − x̄)²)². The scatter of the points around the line
/// is not used: a question has two to five players, too few to estimate it. `None`
/// when fewer than two distinct `x`.
pub fn slope(points: &[(f64, f64, f64)]) -> Option<Slope> {
    let n = points.len() as f64;
    if n < 2.0 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let var: f64 = points
        .iter()
        .map(|p| (p.0 - mx).powi(2) * p.2.powi(2))
        .sum::<f64>()
        / (sxx * sxx);
    Some(Slope {
        slope: sxy / sxx,
        se: var.sqrt(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook example: p = 0.01, 0.04, 0.03 at m = 3 -> 0.03, 0.06, 0.06 (0.04's
    /// own 1 × 0.04 is raised to 0.06 by the step-down).
    #[test]
    fn holm_adjusts_a_known_example() {
        let adj = holm(&[0.01, 0.04, 0.03]);
        let want = [0.03, 0.06, 0.06];
        for (a, w) in adj.iter().zip(want) {
            assert!((a - w).abs() < 1e-12, "{adj:?}");
        }
        assert_eq!(holm(&[0.5, 0.9]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn p_values_follow_the_normal_approximation() {
        assert!((two_sided_p(1.96, 1.0) - 0.05).abs() < 1e-4);
        assert!((two_sided_p(-1.96, 1.0) - 0.05).abs() < 1e-4);
        assert_eq!(two_sided_p(0.0, 0.0), 1.0);
        assert_eq!(two_sided_p(0.1, 0.0), 0.0);
    }

    #[test]
    fn slope_and_its_error_come_from_the_points() {
        let s = slope(&[(0.0, 0.0, 1.0), (2.0, 2.0, 1.0)]).unwrap();
        assert!((s.slope - 1.0).abs() < 1e-12);
        // Var = (1 + 1) / 2² = 0.5.
        assert!((s.se - 0.5f64.sqrt()).abs() < 1e-12);
        assert!(slope(&[(1.0, 0.0, 1.0), (1.0, 2.0, 1.0)]).is_none());
    }
}

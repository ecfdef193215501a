//! Rating statistics: Bradley-Terry Elo with a Fisher-information interval, the
//! pentanomial model of colour-swapped pairs, likelihood of superiority and fishtest's
//! pentanomial SPRT.

/// Natural-log strength units to Elo: Elo = θ · 400 / ln 10.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// Two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Expected score for an Elo difference (logistic): L(d) = 1 / (1 + 10^(-d/400)).
pub fn expected_score(elo_diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo_diff / 400.0))
}

/// Elo difference for a score fraction: -400 log10(1/p - 1) (±∞ at 0 and 1).
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// One player's maximum-likelihood rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo, the players' mean being 0; ±∞ when the likelihood has no maximum (a player
    /// won or lost everything).
    pub elo: f64,
    /// Half-width of the 95% interval (1.96 standard errors); ∞ when unbounded.
    pub ci95: f64,
}

/// Results between two players: `points` scored by `a` against `b` in `games` games
/// (draws are half points).
#[derive(Clone, Copy, Debug)]
pub struct Matchup {
    pub a: usize,
    pub b: usize,
    pub games: f64,
    pub points: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Inverse of a small dense matrix (Gauss-Jordan with partial pivoting).
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, p);
        inv.swap(c, p);
        let d = m[c][c];
        for j in 0..n {
            m[c][j] /= d;
            inv[c][j] /= d;
        }
        for r in 0..n {
            if r != c {
                let f = m[r][c];
                if f != 0.0 {
                    for j in 0..n {
                        m[r][j] -= f * m[c][j];
                        inv[r][j] -= f * inv[c][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// Maximum-likelihood Bradley-Terry (logistic Elo) ratings of `n` players, draws as half
/// points: maximise Σ s_ab ln σ(θa-θb) + (n_ab - s_ab) ln σ(θb-θa) by Newton's method with
/// the mean of θ fixed at 0.
///
/// Interval: the covariance of θ is the pseudo-inverse of the Fisher information
/// F (F_aa = Σ_b n_ab p_ab (1-p_ab), F_ab = -n_ab p_ab (1-p_ab)), computed as
/// (F + J/n)^-1 - J/n (J all ones; exact for a connected schedule). The 95% half-width is
/// 1.96 · sqrt(C_aa) · 400/ln 10. This treats each game as a Bernoulli trial with half
/// points, so it is somewhat wide when draws are frequent (the pentanomial interval of a
/// pairing is tighter).
///
/// An agent that scored 0% or 100% of its remaining games has no finite maximum: it gets
/// Elo ∓∞ with an unbounded interval, its games are set aside, and the others are
/// fitted again (repeatedly, until every remaining agent has a mixed score).
pub fn bradley_terry(n: usize, matchups: &[Matchup]) -> Vec<Rating> {
    let mut out = vec![
        Rating {
            elo: 0.0,
            ci95: f64::INFINITY,
        };
        n
    ];
    let mut live = vec![true; n];
    loop {
        let mut pts = vec![0.0f64; n];
        let mut games = vec![0.0f64; n];
        for m in matchups {
            if live[m.a] && live[m.b] && m.a != m.b {
                pts[m.a] += m.points;
                pts[m.b] += m.games - m.points;
                games[m.a] += m.games;
                games[m.b] += m.games;
            }
        }
        let mut changed = false;
        for i in 0..n {
            if live[i] && games[i] > 0.0 && (pts[i] <= 0.0 || pts[i] >= games[i]) {
                live[i] = false;
                changed = true;
                out[i].elo = if pts[i] <= 0.0 {
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
    let ids: Vec<usize> = (0..n).filter(|&i| live[i]).collect();
    let pos = |i: usize| ids.iter().position(|&x| x == i);
    let sub: Vec<Matchup> = matchups
        .iter()
        .filter_map(|m| {
            Some(Matchup {
                a: pos(m.a)?,
                b: pos(m.b)?,
                ..*m
            })
        })
        .collect();
    for (k, r) in fit(ids.len(), &sub).into_iter().enumerate() {
        out[ids[k]] = r;
    }
    out
}

fn fit(n: usize, matchups: &[Matchup]) -> Vec<Rating> {
    if n == 0 {
        return Vec::new();
    }
    let mut theta = vec![0.0f64; n];
    let cap = 12.0; // ≈ 2000 Elo: beyond this the maximum is at infinity
    let fisher = |theta: &[f64]| {
        let mut f = vec![vec![0.0f64; n]; n];
        let mut g = vec![0.0f64; n];
        for m in matchups {
            if m.games <= 0.0 || m.a == m.b {
                continue;
            }
            let p = sigmoid(theta[m.a] - theta[m.b]);
            let w = m.games * p * (1.0 - p);
            f[m.a][m.a] += w;
            f[m.b][m.b] += w;
            f[m.a][m.b] -= w;
            f[m.b][m.a] -= w;
            g[m.a] += m.points - m.games * p;
            g[m.b] -= m.points - m.games * p;
        }
        (f, g)
    };
    let shifted = |f: &Vec<Vec<f64>>| {
        let mut s = f.clone();
        for (i, row) in s.iter_mut().enumerate() {
            for v in row.iter_mut() {
                *v += 1.0 / n as f64;
            }
            row[i] += 1e-12;
        }
        invert(s)
    };
    for _ in 0..200 {
        let (f, g) = fisher(&theta);
        let Some(inv) = shifted(&f) else { break };
        let mut step: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| inv[i][j] * g[j]).sum())
            .collect();
        let big = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        if big > 1.0 {
            step.iter_mut().for_each(|s| *s /= big);
        }
        for i in 0..n {
            theta[i] = (theta[i] + step[i]).clamp(-cap, cap);
        }
        let mean = theta.iter().sum::<f64>() / n as f64;
        theta.iter_mut().for_each(|t| *t -= mean);
        if big < 1e-12 {
            break;
        }
    }
    let (f, _) = fisher(&theta);
    let cov = shifted(&f);
    (0..n)
        .map(|i| {
            let unbounded = theta[i].abs() > cap - 1.0;
            let var = cov
                .as_ref()
                .map_or(f64::INFINITY, |c| c[i][i] - 1.0 / n as f64);
            if unbounded {
                Rating {
                    elo: theta[i].signum() * f64::INFINITY,
                    ci95: f64::INFINITY,
                }
            } else {
                let ci = if var.is_finite() && var > 0.0 && var < 1e6 {
                    Z95 * var.sqrt() * ELO_PER_NAT
                } else {
                    f64::INFINITY
                };
                Rating {
                    elo: theta[i] * ELO_PER_NAT,
                    ci95: ci,
                }
            }
        })
        .collect()
}

/// Counts of colour-swapped pairs by the first player's pair score 0, ½, 1, 1½, 2.
pub type Pentanomial = [u64; 5];

/// Index in a [`Pentanomial`] of a pair score (0..=2 in half points).
pub fn penta_slot(pair_score: f64) -> usize {
    ((pair_score * 2.0).round() as i64).clamp(0, 4) as usize
}

/// Mean and variance of the per-pair score fraction (0, ¼, ½, ¾, 1) of `penta`.
pub fn penta_stats(penta: &Pentanomial) -> Option<(f64, f64, f64)> {
    let n: u64 = penta.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mu: f64 = penta
        .iter()
        .enumerate()
        .map(|(i, &c)| c as f64 / n * i as f64 / 4.0)
        .sum();
    let var: f64 = penta
        .iter()
        .enumerate()
        .map(|(i, &c)| c as f64 / n * (i as f64 / 4.0 - mu).powi(2))
        .sum();
    Some((n, mu, var))
}

/// Elo of the first player from pentanomial counts, with a 95% interval from the
/// per-pair variance: Elo(μ) and [Elo(μ - 1.96 σ/√N), Elo(μ + 1.96 σ/√N)].
pub fn penta_elo(penta: &Pentanomial) -> Option<(f64, f64, f64)> {
    let (n, mu, var) = penta_stats(penta)?;
    let se = (var / n).sqrt();
    Some((
        elo_from_score(mu),
        elo_from_score(mu - Z95 * se),
        elo_from_score(mu + Z95 * se),
    ))
}

/// Standard normal CDF (erf by Abramowitz & Stegun 7.1.26, |error| < 1.5e-7).
pub fn normal_cdf(x: f64) -> f64 {
    let z = x / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-z * z).exp();
    let erf = if z >= 0.0 { y } else { -y };
    0.5 * (1.0 + erf)
}

/// Likelihood of superiority from wins and losses (draws carry no information):
/// LOS = Φ((W - L) / sqrt(W + L)); ½ when W + L = 0.
pub fn los(wins: f64, losses: f64) -> f64 {
    if wins + losses <= 0.0 {
        0.5
    } else {
        normal_cdf((wins - losses) / (wins + losses).sqrt())
    }
}

/// Which Elo the SPRT bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum SprtModel {
    /// Logistic Elo, GSPRT (fishtest `LLR_logistic` with `LLR_alt2`).
    Logistic,
    /// Normalised Elo (fishtest `LLR_normalized`).
    Normalized,
}

/// A pentanomial SPRT between elo0 (H0) and elo1 (H1).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// The SPRT's verdict so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    AcceptH0,
    AcceptH1,
}

/// fishtest's `regularize` + `results_to_pdf`: zero counts become 1e-3, N is the sum of
/// the regularised counts, and the pdf is (i/4, count_i/N).
fn results_to_pdf(penta: &Pentanomial) -> (f64, [(f64, f64); 5]) {
    let reg: Vec<f64> = penta
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = reg.iter().sum();
    let mut pdf = [(0.0, 0.0); 5];
    for i in 0..5 {
        pdf[i] = (i as f64 / 4.0, reg[i] / n);
    }
    (n, pdf)
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str, model: SprtModel) -> Result<Sprt, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != 4 {
            return Err(format!(
                "--sprt '{text}': expected four numbers elo0,elo1,alpha,beta"
            ));
        }
        let mut v = [0.0; 4];
        for (i, p) in parts.iter().enumerate() {
            v[i] = p
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("--sprt '{text}': '{p}' is not a number"))?;
        }
        let [elo0, elo1, alpha, beta] = v;
        if elo0 >= elo1 {
            return Err(format!("--sprt '{text}': elo0 must be below elo1"));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(format!(
                "--sprt '{text}': alpha and beta must lie strictly between 0 and 0.5"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Lower bound log(β / (1 - α)): at or below it H0 is accepted.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper bound log((1 - β) / α): at or above it H1 is accepted.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for pentanomial counts.
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        if penta.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        match self.model {
            SprtModel::Logistic => llr_logistic(self.elo0, self.elo1, penta),
            SprtModel::Normalized => llr_normalized(self.elo0, self.elo1, penta),
        }
    }

    pub fn state(&self, penta: &Pentanomial) -> SprtState {
        let l = self.llr(penta);
        if l >= self.upper() {
            SprtState::AcceptH1
        } else if l <= self.lower() {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

/// fishtest `LLR_logistic`: s_k = L(elo_k); r_k = Σ p_i (x_i - s_k)²;
/// LLR = N · ½ ln(r0 / r1) (the GSPRT approximation `LLR_alt2`).
pub fn llr_logistic(elo0: f64, elo1: f64, penta: &Pentanomial) -> f64 {
    let (n, pdf) = results_to_pdf(penta);
    let s0 = expected_score(elo0);
    let s1 = expected_score(elo1);
    let r = |s: f64| pdf.iter().map(|&(x, p)| p * (x - s).powi(2)).sum::<f64>();
    n * 0.5 * (r(s0) / r(s1)).ln()
}

/// fishtest `LLR_normalized`: μ, σ² of the pdf; σ_pg = sqrt(2 σ²); games = 2N;
/// nt = (μ - ½) / σ_pg; nt_k = nelo_k / (800 / ln 10);
/// LLR = games/2 · ln((1 + (nt - nt0)²) / (1 + (nt - nt1)²)).
pub fn llr_normalized(nelo0: f64, nelo1: f64, penta: &Pentanomial) -> f64 {
    let (n, pdf) = results_to_pdf(penta);
    let mu: f64 = pdf.iter().map(|&(x, p)| p * x).sum();
    let var: f64 = pdf.iter().map(|&(x, p)| p * (x - mu).powi(2)).sum();
    let sigma_pg = (2.0 * var).sqrt();
    let games = 2.0 * n;
    let per = 800.0 / std::f64::consts::LN_10;
    let (nt0, nt1) = (nelo0 / per, nelo1 / per);
    let nt = (mu - 0.5) / sigma_pg;
    games / 2.0 * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_from_score_hand_cases() {
        // p = 0.75: -400 log10(1/0.75 - 1) = -400 log10(1/3) = 400 · 0.4771213 = 190.8485
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_9, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(expected_score(190.848_501_887_864_9), 0.75, 1e-12));
    }

    #[test]
    fn two_player_bradley_terry_matches_the_closed_form() {
        // 100 games, 75 points to player 0: θ0 - θ1 = ln 3, so Elo0 - Elo1 = 190.85 and,
        // the mean being 0, Elo0 = +95.42, Elo1 = -95.42.
        let r = bradley_terry(
            2,
            &[Matchup {
                a: 0,
                b: 1,
                games: 100.0,
                points: 75.0,
            }],
        );
        assert!(close(r[0].elo, 95.424_250_943_932_5, 1e-6), "{r:?}");
        assert!(close(r[1].elo, -95.424_250_943_932_5, 1e-6));
        // Fisher information w = n p (1-p) = 100 · 0.75 · 0.25 = 18.75; the pseudo-inverse
        // of w·[[1,-1],[-1,1]] has diagonal 1/(4w) = 0.013333; sd(θ0) = 0.1154701;
        // half-width = 1.96 · 0.1154701 · 173.7178 = 39.3162 Elo.
        let expect = Z95 * (1.0f64 / 75.0).sqrt() * ELO_PER_NAT;
        assert!(close(expect, 39.316_2, 1e-3), "{expect}");
        assert!(close(r[0].ci95, expect, 1e-6), "{r:?}");
        // The difference has variance 1/w: half-width 1.96 / sqrt(18.75) · 173.72 = 78.63,
        // the usual binomial delta-method interval for a score fraction.
    }

    #[test]
    fn three_players_transitive() {
        // A beats B 60/100 and B beats C 60/100; A-C never met. Then θA-θB = θB-θC = ln 1.5.
        let r = bradley_terry(
            3,
            &[
                Matchup {
                    a: 0,
                    b: 1,
                    games: 100.0,
                    points: 60.0,
                },
                Matchup {
                    a: 1,
                    b: 2,
                    games: 100.0,
                    points: 60.0,
                },
            ],
        );
        let d = elo_from_score(0.6); // 70.437
        assert!(close(r[0].elo, d, 1e-6), "{r:?}");
        assert!(close(r[1].elo, 0.0, 1e-6));
        assert!(close(r[2].elo, -d, 1e-6));
    }

    #[test]
    fn perfect_scores_are_unbounded() {
        let r = bradley_terry(
            2,
            &[Matchup {
                a: 0,
                b: 1,
                games: 10.0,
                points: 10.0,
            }],
        );
        assert_eq!(r[0].elo, f64::INFINITY);
        assert_eq!(r[1].elo, f64::NEG_INFINITY);
    }

    #[test]
    fn a_whitewashed_agent_is_set_aside() {
        // Agent 2 lost everything: -inf, and agents 0 and 1 are rated on their own games
        // (0 scored 75/100 against 1: ±95.42 as in the two-player case).
        let m = |a, b, games, points| Matchup {
            a,
            b,
            games,
            points,
        };
        let r = bradley_terry(
            3,
            &[
                m(0, 1, 100.0, 75.0),
                m(0, 2, 10.0, 10.0),
                m(1, 2, 10.0, 10.0),
            ],
        );
        assert_eq!(r[2].elo, f64::NEG_INFINITY);
        assert!(close(r[0].elo, 95.424_250_943_932_5, 1e-6), "{r:?}");
        assert!(close(r[1].elo, -95.424_250_943_932_5, 1e-6));
        assert!(r[0].ci95.is_finite());
    }

    #[test]
    fn los_hand_cases() {
        assert!(close(los(10.0, 10.0), 0.5, 1e-9));
        // W=30, L=20: Φ(10/sqrt(50)) = Φ(1.414214) = 0.921350
        assert!(close(los(30.0, 20.0), 0.921_350, 1e-5));
    }

    #[test]
    fn sprt_logistic_llr_by_hand() {
        // Pentanomial [1, 2, 4, 2, 1]: N = 10, pdf (0,.1) (.25,.2) (.5,.4) (.75,.2) (1,.1).
        // H0: elo 0 -> s0 = 0.5. H1: elo 10 -> s1 = 1/(1+10^(-10/400)) = 1/(1+0.9440609) = 0.514387184.
        // r0 = Σ p (x - .5)² = .1·.25 + .2·.0625 + 0 + .2·.0625 + .1·.25 = 0.075
        // r1 = Σ p (x - s1)² = r0 + (s1 - .5)² (mean .5) = 0.075 + 0.000206991 = 0.075206991
        // LLR = 10 · ½ · ln(0.075 / 0.075206991) = 5 · ln(0.99724771) = 5 · (-0.00275608)
        //     = -0.0137804
        let s = Sprt::parse("0,10,0.05,0.05", SprtModel::Logistic).unwrap();
        let s1 = 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0));
        assert!(close(s1, 0.514_387_184, 1e-8));
        let r1 = 0.075 + (s1 - 0.5f64).powi(2);
        let by_hand = 10.0 * 0.5 * (0.075f64 / r1).ln();
        assert!(close(by_hand, -0.013_780_4, 1e-6), "{by_hand}");
        assert!(close(s.llr(&[1, 2, 4, 2, 1]), by_hand, 1e-12));
        // Bounds: ln(.05/.95) = -2.944439, ln(.95/.05) = 2.944439.
        assert!(close(s.lower(), -2.944_439, 1e-6));
        assert!(close(s.upper(), 2.944_439, 1e-6));
        assert_eq!(s.state(&[1, 2, 4, 2, 1]), SprtState::Continue);
    }

    #[test]
    fn sprt_logistic_llr_strong_result_with_regularised_zero() {
        // Pentanomial [0, 0, 10, 20, 10]: the zero counts become 1e-3 (fishtest regularize).
        // N = 40.002; p = (2.49988e-5, 2.49988e-5, .2499875, .499975, .2499875).
        // μ = .25·2.49988e-5 + .5·.2499875 + .75·.499975 + 1·.2499875 = 0.7499
        // H0 elo 0 (s0 = .5), H1 elo 100 (s1 = 1/(1+10^-0.25) = 0.640065).
        let s = Sprt::parse("0,100,0.05,0.05", SprtModel::Logistic).unwrap();
        let n = 40.002;
        let p = [1e-3 / n, 1e-3 / n, 10.0 / n, 20.0 / n, 10.0 / n];
        let x = [0.0, 0.25, 0.5, 0.75, 1.0];
        let s1 = 1.0 / (1.0 + 10f64.powf(-0.25));
        assert!(close(s1, 0.640_065, 1e-6));
        let r = |s: f64| (0..5).map(|i| p[i] * (x[i] - s) * (x[i] - s)).sum::<f64>();
        // r0 ≈ .0937344 - ... ; r1 smaller, so the LLR is positive.
        let by_hand = n * 0.5 * (r(0.5) / r(s1)).ln();
        assert!(by_hand > s.upper(), "{by_hand}");
        assert!(close(s.llr(&[0, 0, 10, 20, 10]), by_hand, 1e-9));
        assert_eq!(s.state(&[0, 0, 10, 20, 10]), SprtState::AcceptH1);
    }

    #[test]
    fn sprt_normalized_llr_by_hand() {
        // Pentanomial [1, 2, 4, 2, 1] (no zeros): μ = .5, σ² = .075, σ_pg = sqrt(.15)
        // = 0.387298; nt = 0; games = 20. nelo bounds 0 and 5: nt0 = 0,
        // nt1 = 5 / (800/ln10) = 5 / 347.4356 = 0.014391.
        // LLR = 10 · ln(1 / (1 + 0.014391²)) = 10 · (-0.00020708) = -0.0020708
        let s = Sprt::parse("0,5,0.05,0.05", SprtModel::Normalized).unwrap();
        let nt1 = 5.0 / (800.0 / std::f64::consts::LN_10);
        assert!(close(nt1, 0.014_391, 1e-6));
        let by_hand = 10.0 * (1.0 / (1.0 + nt1 * nt1)).ln();
        assert!(close(by_hand, -0.002_070_8, 1e-6), "{by_hand}");
        assert!(close(s.llr(&[1, 2, 4, 2, 1]), by_hand, 1e-12));
    }

    #[test]
    fn sprt_parse_errors() {
        assert!(Sprt::parse("0,5,0.05", SprtModel::Logistic).is_err());
        assert!(Sprt::parse("5,0,0.05,0.05", SprtModel::Logistic).is_err());
        assert!(Sprt::parse("0,5,0,0.05", SprtModel::Logistic).is_err());
        assert!(Sprt::parse("0,x,0.05,0.05", SprtModel::Logistic).is_err());
    }

    #[test]
    fn pentanomial_elo() {
        // [0,0,10,20,10]: μ = (10·.5 + 20·.75 + 10·1)/40 = 0.75 -> +190.85 Elo.
        let (e, lo, hi) = penta_elo(&[0, 0, 10, 20, 10]).unwrap();
        assert!(close(e, 190.848_5, 1e-3));
        assert!(lo < e && e < hi);
    }
}

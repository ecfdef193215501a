//! Standings from finished games: points, Bradley-Terry Elo, per-pairing pentanomial
//! counts, LOS, and the SPRT verdict; rendered as Markdown and CSV.
//!
//! Wording (issue 39): once the SPRT has stopped, its line says which bound the LLR
//! crossed and which hypothesis that accepts ([`sprt_line`], test
//! `sprt_line_says_which_bound_was_crossed`); a pentanomial interval that reaches a 0%
//! or 100% score says so, with its finite end as a one-sided bound, and "no spread" is
//! kept for the case where every pair scored the same ([`pair_interval`], test
//! `pentanomial_interval_names_its_real_reason`).

use crate::record::Row;
use crate::stats::{self, Matchup, Pentanomial, Rating, Sprt, SprtState};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One agent's line.
#[derive(Clone, Debug)]
pub struct AgentLine {
    pub index: usize,
    pub spec: String,
    pub games: u64,
    /// Points against other agents (win 1, draw ½).
    pub points: f64,
    /// Mean return over its seats (for one-seat games, the only score).
    pub mean_return: f64,
    pub rating: Option<Rating>,
    /// Games this agent lost on time (`forfeit-time`: it overran its clock beyond the
    /// margin), counted as losses in its points too.
    pub time_losses: u64,
}

/// One pairing (a listed before b), seen from a.
#[derive(Clone, Debug)]
pub struct PairingLine {
    pub a: usize,
    pub b: usize,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub penta: Pentanomial,
    pub los: f64,
}

impl PairingLine {
    /// The "Elo (pairs)" and "95% interval" cells: Elo of the mean pair score with the
    /// pentanomial interval, or a one-sided bound when every game was won or lost.
    pub fn elo_cells(&self) -> (String, String) {
        let n = self.wins + self.draws + self.losses;
        if n > 0 && self.wins == n {
            (
                "all games won".to_string(),
                format!("≥ {} (one-sided)", fmt_elo(one_sided_elo_bound(n))),
            )
        } else if n > 0 && self.losses == n {
            (
                "all games lost".to_string(),
                format!("≤ {} (one-sided)", fmt_elo(-one_sided_elo_bound(n))),
            )
        } else {
            stats::penta_elo(&self.penta).map_or(("-".to_string(), "-".to_string()), |(e, l, h)| {
                (fmt_elo(e), pair_interval(l, h))
            })
        }
    }
}

#[derive(Clone, Debug)]
pub struct Standings {
    pub agents: Vec<AgentLine>,
    pub pairings: Vec<PairingLine>,
    pub sprt: Option<(Sprt, f64, SprtState)>,
    pub games: usize,
    /// Games that differ in their start, seating or moves (repeats: deterministic
    /// agents from one start play one game again and again).
    pub distinct_games: usize,
}

/// The score of agent `a` against `b` in one game: compare their mean returns over the
/// seats each holds (1 better, ½ equal, 0 worse). For two-seat chess this is the usual
/// win/draw/loss; for team games it is the team result.
pub fn game_score(row: &Row, a: usize, b: usize) -> Option<f64> {
    let mean = |who: usize| {
        let v: Vec<f64> = row
            .players
            .iter()
            .zip(&row.returns)
            .filter(|(p, _)| **p == who)
            .map(|(_, r)| *r)
            .collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    };
    let (ra, rb) = (mean(a)?, mean(b)?);
    Some(if ra > rb {
        1.0
    } else if ra < rb {
        0.0
    } else {
        0.5
    })
}

/// The result of a cooperative run (every seat shares one return): per line-up of
/// agents (in seat order), the mean return with its 95% interval and the share of each
/// return value. Points and Elo above are ties by construction there.
pub fn team_markdown(rows: &[Row]) -> String {
    let mut lineups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for r in rows {
        let Some(&ret) = r.returns.first() else {
            continue;
        };
        lineups.entry(r.agents.join(" + ")).or_default().push(ret);
    }
    let mut md = String::from(
        "\n## Team results (cooperative: every seat shares one return)\n\nPoints and Elo \
         above are ties by construction; the team's return is the result.\n\n\
         | seats (in order) | games | mean return (95% interval) | share of each return |\n\
         |---|---|---|---|\n",
    );
    for (lineup, xs) in &lineups {
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        let half = 1.96 * (var / n).sqrt();
        let mut dist: BTreeMap<i64, usize> = BTreeMap::new();
        for x in xs {
            *dist.entry((x * 1000.0).round() as i64).or_default() += 1;
        }
        let shares: Vec<String> = dist
            .iter()
            .map(|(v, c)| format!("{:+.2}: {:.1}%", *v as f64 / 1000.0, 100.0 * *c as f64 / n))
            .collect();
        let _ = writeln!(
            md,
            "| {lineup} | {} | {mean:+.3} ± {half:.3} | {} |",
            xs.len(),
            shares.join(", ")
        );
    }
    md
}

/// The two distinct agents of a game, in increasing order, if there are exactly two.
pub fn two_agents(row: &Row) -> Option<(usize, usize)> {
    let mut v: Vec<usize> = row.players.clone();
    v.sort_unstable();
    v.dedup();
    (v.len() == 2).then(|| (v[0], v[1]))
}

/// Pentanomial counts of the first agent per pairing: games grouped by `pair`, a pair
/// counting once both of its games (two rows, same two agents) are in.
pub fn pentanomials<'a>(
    rows: impl IntoIterator<Item = &'a Row>,
) -> BTreeMap<(usize, usize), Pentanomial> {
    let mut by_pair: BTreeMap<u64, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by_pair.entry(r.pair).or_default().push(r);
    }
    let mut out: BTreeMap<(usize, usize), Pentanomial> = BTreeMap::new();
    for games in by_pair.values() {
        if games.len() != 2 {
            continue;
        }
        let (Some(k0), Some(k1)) = (two_agents(games[0]), two_agents(games[1])) else {
            continue;
        };
        if k0 != k1 {
            continue;
        }
        let (a, b) = k0;
        let s: f64 = games.iter().filter_map(|g| game_score(g, a, b)).sum();
        out.entry(k0).or_default()[stats::penta_slot(s)] += 1;
    }
    out
}

pub fn compute(specs: &[String], rows: &[Row], sprt: Option<Sprt>) -> Standings {
    let k = specs.len();
    let mut agents: Vec<AgentLine> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| AgentLine {
            index: i,
            spec: s.clone(),
            games: 0,
            points: 0.0,
            mean_return: 0.0,
            rating: None,
            time_losses: 0,
        })
        .collect();
    let mut ret_sum = vec![0.0; k];
    let mut ret_n = vec![0u64; k];
    let mut wdl: BTreeMap<(usize, usize), (u64, u64, u64)> = BTreeMap::new();
    for r in rows {
        if r.reason == "forfeit-time" {
            // The forfeiting seat's team lost (returns -1); the forfeit is its agent's.
            let mut lost = Vec::new();
            for (&p, &ret) in r.players.iter().zip(&r.returns) {
                if p < k && ret < 0.0 && !lost.contains(&p) {
                    lost.push(p);
                    agents[p].time_losses += 1;
                }
            }
        }
        let mut seen = Vec::new();
        for (&p, &ret) in r.players.iter().zip(&r.returns) {
            if p < k {
                ret_sum[p] += ret;
                ret_n[p] += 1;
                if !seen.contains(&p) {
                    seen.push(p);
                    agents[p].games += 1;
                }
            }
        }
        if let Some((a, b)) = two_agents(r) {
            if a < k && b < k {
                let s = game_score(r, a, b).unwrap_or(0.5);
                agents[a].points += s;
                agents[b].points += 1.0 - s;
                let e = wdl.entry((a, b)).or_default();
                if s > 0.5 {
                    e.0 += 1;
                } else if s < 0.5 {
                    e.2 += 1;
                } else {
                    e.1 += 1;
                }
            }
        }
    }
    for i in 0..k {
        if ret_n[i] > 0 {
            agents[i].mean_return = ret_sum[i] / ret_n[i] as f64;
        }
    }
    let pentas = pentanomials(rows);
    let pairings: Vec<PairingLine> = wdl
        .iter()
        .map(|(&(a, b), &(w, d, l))| PairingLine {
            a,
            b,
            wins: w,
            draws: d,
            losses: l,
            penta: pentas.get(&(a, b)).copied().unwrap_or_default(),
            los: stats::los(w as f64, l as f64),
        })
        .collect();
    if !pairings.is_empty() {
        let matchups: Vec<Matchup> = pairings
            .iter()
            .map(|p| Matchup {
                a: p.a,
                b: p.b,
                games: (p.wins + p.draws + p.losses) as f64,
                points: p.wins as f64 + 0.5 * p.draws as f64,
            })
            .collect();
        for (line, r) in agents.iter_mut().zip(stats::bradley_terry(k, &matchups)) {
            if line.games > 0 {
                line.rating = Some(r);
            }
        }
    }
    let sprt = sprt.map(|s| {
        let penta = pentas.get(&(0, 1)).copied().unwrap_or_default();
        (s, s.llr(&penta), s.state(&penta))
    });
    Standings {
        agents,
        pairings,
        sprt,
        games: rows.len(),
        distinct_games: rows
            .iter()
            .map(|r| (&r.opening, &r.players, &r.actions))
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
    }
}

/// A one-sided 95% bound on the score when all `n` games went one way: the exact
/// (Clopper-Pearson) bound 0.05^(1/n), as Elo. A sample where every game is won says the
/// Elo is above this, not that it is infinite.
fn one_sided_elo_bound(n: u64) -> f64 {
    let p = 0.05f64.powf(1.0 / n.max(1) as f64);
    stats::elo_from_score(p)
}

/// Likelihood of superiority as a percentage that never rounds to certainty.
fn fmt_los(los: f64) -> String {
    if los > 0.999 {
        ">99.9%".into()
    } else if los < 0.001 {
        "<0.1%".into()
    } else {
        format!("{:.1}%", 100.0 * los)
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        // Rounded first, so a tiny negative prints as +0.0, not -0.0.
        format!("{:+.1}", (x * 10.0).round() / 10.0 + 0.0)
    }
}

/// A ± half-width; a zero-width or unbounded one is no measurement and says so.
fn fmt_ci(x: f64) -> String {
    if x.is_finite() && x > 0.0 {
        format!("{x:.1}")
    } else {
        "n/a".into()
    }
}

/// The SPRT's sentence: the LLR with its bounds, and, once it has left them, which
/// bound it crossed and which hypothesis that accepts (issue 39: "LLR 2.950 in [-2.944,
/// 2.944]" read as still running when it had stopped).
pub fn sprt_line(sp: &Sprt, llr: f64, state: SprtState) -> String {
    let head = format!(
        "{:?} Elo [{}, {}] (H0 Elo {}, H1 Elo {}), alpha {}, beta {}",
        sp.model, sp.elo0, sp.elo1, sp.elo0, sp.elo1, sp.alpha, sp.beta
    );
    match state {
        SprtState::Continue => format!(
            "{head}: LLR {llr:.3}, inside the bounds [{:.3}, {:.3}]: no decision yet.",
            sp.lower(),
            sp.upper()
        ),
        SprtState::AcceptH1 => format!(
            "{head}: LLR {llr:.3} crossed the upper bound {:.3}: H1 accepted (Elo {} or more).",
            sp.upper(),
            sp.elo1
        ),
        SprtState::AcceptH0 => format!(
            "{head}: LLR {llr:.3} crossed the lower bound {:.3}: H0 accepted (Elo {} or less).",
            sp.lower(),
            sp.elo0
        ),
    }
}

/// The pentanomial Elo interval's cell from its ends (Elo of μ ∓ 1.96 σ/√N): an end at
/// ±∞ means the score interval reaches 0% or 100%, which is what the cell says (with the
/// finite end as a one-sided bound); a zero-width interval means every pair scored the
/// same (issue 39: both cases used to read "no spread between pairs").
pub fn pair_interval(low: f64, high: f64) -> String {
    match (low.is_finite(), high.is_finite()) {
        (true, true) if high - low < 1e-9 => {
            "n/a (no spread: every pair scored the same)".to_string()
        }
        (true, true) => format!("[{}, {}]", fmt_elo(low), fmt_elo(high)),
        (true, false) => format!("≥ {} (the interval reaches a 100% score)", fmt_elo(low)),
        (false, true) => format!("≤ {} (the interval reaches a 0% score)", fmt_elo(high)),
        (false, false) => "n/a (the interval reaches both 0% and 100%)".to_string(),
    }
}

impl Standings {
    /// Agents ordered by points (then Elo, then listing order).
    fn order(&self) -> Vec<&AgentLine> {
        let mut v: Vec<&AgentLine> = self.agents.iter().collect();
        let key = |a: &AgentLine| {
            if self.pairings.is_empty() {
                a.mean_return
            } else if a.games > 0 {
                a.points / a.games as f64
            } else {
                -1.0
            }
        };
        v.sort_by(|x, y| key(y).total_cmp(&key(x)).then(x.index.cmp(&y.index)));
        v
    }

    fn label(&self, i: usize) -> String {
        format!("{}: {}", i + 1, self.agents[i].spec)
    }

    /// A one-line summary for the progress bar.
    pub fn short(&self) -> String {
        self.order()
            .iter()
            .map(|a| {
                if self.pairings.is_empty() {
                    format!("{} {:.3}", self.label(a.index), a.mean_return)
                } else {
                    format!("{} {}/{}", self.label(a.index), a.points, a.games)
                }
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    pub fn markdown(&self, title: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# {title}\n");
        let _ = writeln!(s, "{} games.\n", self.games);
        if self.distinct_games < self.games {
            let _ = writeln!(
                s,
                "**Warning:** only {} of the {} games are distinct (same start, seats and moves); the agents repeat themselves, so the intervals below treat repeats as independent games and are too narrow. Use `--openings` or agents that randomise.\n",
                self.distinct_games, self.games
            );
        }
        if self.pairings.is_empty() {
            let _ = writeln!(s, "| rank | agent | games | mean return |");
            let _ = writeln!(s, "|---:|---|---:|---:|");
            for (rank, a) in self.order().iter().enumerate() {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {:.4} |",
                    rank + 1,
                    self.label(a.index),
                    a.games,
                    a.mean_return
                );
            }
            return s;
        }
        let _ = writeln!(s, "| rank | agent | games | points | score | Elo | ±95% |");
        let _ = writeln!(s, "|---:|---|---:|---:|---:|---:|---:|");
        for (rank, a) in self.order().iter().enumerate() {
            let (elo, ci) = a.rating.map_or(("-".into(), "-".into()), |r| {
                if r.elo.is_infinite() {
                    let what = if r.elo > 0.0 {
                        "all games won"
                    } else {
                        "all games lost"
                    };
                    (what.to_string(), "n/a".to_string())
                } else {
                    (fmt_elo(r.elo), fmt_ci(r.ci95))
                }
            });
            let pct = if a.games > 0 {
                100.0 * a.points / a.games as f64
            } else {
                0.0
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.1}% | {} | {} |",
                rank + 1,
                self.label(a.index),
                a.games,
                a.points,
                pct,
                elo,
                ci
            );
        }
        let late: Vec<String> = self
            .order()
            .iter()
            .filter(|a| a.time_losses > 0)
            .map(|a| format!("{} {}", self.label(a.index), a.time_losses))
            .collect();
        if !late.is_empty() {
            let _ = writeln!(
                s,
                "\nLosses on time (`forfeit-time`: a decision overran the clock beyond the margin; counted above as losses): {}.",
                late.join(", ")
            );
        }
        let _ = writeln!(s, "\nElo: maximum-likelihood Bradley-Terry over all games (draws half points), mean 0; ±95% from the inverse Fisher information.\n");
        let _ = writeln!(s, "## Pairings\n");
        let _ = writeln!(
            s,
            "| pairing | games | +/=/- | pentanomial 0,½,1,1½,2 | Elo (pairs) | 95% interval | LOS |"
        );
        let _ = writeln!(s, "|---|---:|---|---|---:|---|---:|");
        for p in &self.pairings {
            let (elo, interval) = p.elo_cells();
            let _ = writeln!(
                s,
                "| {} vs {} | {} | {}/{}/{} | {} | {} | {} | {} |",
                self.label(p.a),
                self.label(p.b),
                p.wins + p.draws + p.losses,
                p.wins,
                p.draws,
                p.losses,
                p.penta
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                elo,
                interval,
                fmt_los(p.los)
            );
        }
        let _ = writeln!(s, "\nPairings are seen from the first agent; pentanomial counts colour-swapped pairs by that agent's pair score; Elo (pairs) is Elo(mean pair score) with a 95% interval from the pentanomial variance; LOS = Φ((W-L)/√(W+L)).");
        if let Some((sp, llr, state)) = &self.sprt {
            let _ = writeln!(s, "\n## SPRT\n\n{}", sprt_line(sp, *llr, *state));
        }
        s
    }

    pub fn csv(&self) -> String {
        let mut s = String::from("rank,agent,spec,games,points,score,mean_return,elo,elo_ci95\n");
        for (rank, a) in self.order().iter().enumerate() {
            let score = if a.games > 0 {
                a.points / a.games as f64
            } else {
                0.0
            };
            let (elo, ci) = a.rating.map_or((String::new(), String::new()), |r| {
                (format!("{:.2}", r.elo), format!("{:.2}", r.ci95))
            });
            let spec = if a.spec.contains([',', '"']) {
                format!("\"{}\"", a.spec.replace('"', "\"\""))
            } else {
                a.spec.clone()
            };
            let _ = writeln!(
                s,
                "{},{},{},{},{},{:.4},{:.4},{},{}",
                rank + 1,
                a.index + 1,
                spec,
                a.games,
                a.points,
                score,
                a.mean_return,
                elo,
                ci
            );
        }
        s
    }

    pub fn pairings_csv(&self) -> String {
        let mut s = String::from("a,b,games,wins,draws,losses,p0,p1,p2,p3,p4,los\n");
        for p in &self.pairings {
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{},{},{},{:.4}",
                p.a + 1,
                p.b + 1,
                p.wins + p.draws + p.losses,
                p.wins,
                p.draws,
                p.losses,
                p.penta[0],
                p.penta[1],
                p.penta[2],
                p.penta[3],
                p.penta[4],
                p.los
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(index: u64, players: [usize; 2], returns: [f64; 2], actions: &str) -> Row {
        Row {
            index,
            seed: index,
            variant: "chess".into(),
            params_digest: "00".into(),
            pair: index / 2,
            opening: String::new(),
            players: players.to_vec(),
            agents: vec!["a".into(), "b".into()],
            result: crate::util::result_text(&returns),
            returns: returns.to_vec(),
            reason: "checkmate".into(),
            plies: 10,
            actions: actions.into(),
        }
    }

    /// A loss on time counts as a loss and is named in the standings (issue 64).
    #[test]
    fn losses_on_time_are_counted_and_named() {
        let specs = vec!["a:tc=1".to_string(), "b".to_string()];
        let mut rows: Vec<Row> = (0..4)
            .map(|i| {
                if i % 2 == 0 {
                    row(i, [0, 1], [0.0, 0.0], &format!("e2e4 g{i}"))
                } else {
                    row(i, [1, 0], [0.0, 0.0], &format!("d2d4 g{i}"))
                }
            })
            .collect();
        // Game 1: `a` (seat 1) overran its clock.
        rows[1].returns = vec![1.0, -1.0];
        rows[1].reason = "forfeit-time".into();
        let st = compute(&specs, &rows, None);
        assert_eq!(st.agents[0].time_losses, 1);
        assert_eq!(st.agents[1].time_losses, 0);
        assert_eq!(st.agents[0].points, 1.5, "the forfeit is a loss");
        let md = st.markdown("t");
        assert!(
            md.contains("Losses on time") && md.contains("1: a:tc=1 1"),
            "{md}"
        );
        // No line when nobody lost on time.
        rows[1].reason = "checkmate".into();
        assert!(!compute(&specs, &rows, None)
            .markdown("t")
            .contains("Losses on time"));
    }

    /// Every game won: no infinite Elo, no zero-width interval, no 100% LOS; a one-sided
    /// bound instead, and repeated games are flagged.
    #[test]
    fn all_games_won_gives_a_one_sided_bound_and_repeats_are_flagged() {
        let specs = vec!["a".to_string(), "b".to_string()];
        let rows: Vec<Row> = (0..20)
            .map(|i| {
                let (players, returns) = if i % 2 == 0 {
                    ([0, 1], [1.0, -1.0])
                } else {
                    ([1, 0], [-1.0, 1.0])
                };
                // Two distinct games, each played ten times.
                row(
                    i,
                    players,
                    returns,
                    if i % 2 == 0 { "e2e4" } else { "d2d4" },
                )
            })
            .collect();
        let st = compute(&specs, &rows, None);
        assert_eq!(st.distinct_games, 2);
        let md = st.markdown("t");
        assert!(!md.contains("+inf") && !md.contains("-inf"), "{md}");
        // LOS (the last column) never rounds to certainty.
        assert!(md.contains("| >99.9% |"), "{md}");
        assert!(!md.contains("| 100.0% |\n"), "{md}");
        assert!(md.contains("all games won"), "{md}");
        assert!(md.contains("≥ +"), "{md}");
        assert!(md.contains("only 2 of the 20 games are distinct"), "{md}");
        // The bound: 20 wins out of 20 puts the score above 0.05^(1/20) = 0.8609.
        let b = one_sided_elo_bound(20);
        assert!((stats::elo_from_score(0.05f64.powf(0.05)) - b).abs() < 1e-9);
        assert!(b > 300.0 && b < 330.0, "{b}");
    }

    #[test]
    fn sprt_line_says_which_bound_was_crossed() {
        let sp = Sprt::parse("0,10,0.05,0.05", stats::SprtModel::Logistic).unwrap();
        let done = sprt_line(&sp, 2.950, SprtState::AcceptH1);
        assert!(
            done.contains("LLR 2.950 crossed the upper bound 2.944: H1 accepted"),
            "{done}"
        );
        assert!(!done.contains(" in ["), "{done}");
        let low = sprt_line(&sp, -3.1, SprtState::AcceptH0);
        assert!(
            low.contains("crossed the lower bound -2.944: H0 accepted"),
            "{low}"
        );
        let on = sprt_line(&sp, 1.0, SprtState::Continue);
        assert!(
            on.contains("inside the bounds [-2.944, 2.944]: no decision yet"),
            "{on}"
        );
    }

    #[test]
    fn pentanomial_interval_names_its_real_reason() {
        // 9 pairs 2-0 and one 1½-½: μ + 1.96 σ/√N passes 1, so the upper end is +∞.
        let (_, l, h) = stats::penta_elo(&[0, 0, 0, 1, 9]).unwrap();
        assert!(l.is_finite() && h.is_infinite());
        let cell = pair_interval(l, h);
        assert!(
            cell.contains("reaches a 100% score") && cell.starts_with("≥ +"),
            "{cell}"
        );
        assert!(pair_interval(-h, -l).contains("reaches a 0% score"));
        // Every pair 1-1: a real zero spread.
        let (_, l, h) = stats::penta_elo(&[0, 0, 10, 0, 0]).unwrap();
        assert!(pair_interval(l, h).contains("every pair scored the same"));
        assert_eq!(pair_interval(-20.0, 30.0), "[-20.0, +30.0]");
    }

    #[test]
    fn distinct_games_are_not_flagged() {
        let specs = vec!["a".to_string(), "b".to_string()];
        let rows: Vec<Row> = (0..4)
            .map(|i| row(i, [0, 1], [0.0, 0.0], &format!("m{i}")))
            .collect();
        let md = compute(&specs, &rows, None).markdown("t");
        assert!(!md.contains("Warning"), "{md}");
        assert!(!md.contains("-0.0"), "{md}");
    }
}

//! One game's figures from its replay ([`GameFigures`]), `--split` groups ([`Split`]),
//! and the number formats and intervals the report's tables use.

use super::*;

/// `--split NAME@SEAT[+NAME@SEAT...]`: one table of a seat's score grouped by a tally's
/// value; several parts joined by `+` pool their games into that one table.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Split {
    pub(super) parts: Vec<(String, usize)>,
}

impl Split {
    pub(super) fn parse(text: &str) -> Result<Split> {
        let parts = text
            .split('+')
            .map(|part| {
                let (name, seat) = part.split_once('@').ok_or_else(|| {
                    anyhow!("--split '{text}': expected NAME@SEAT, e.g. white_assigned@0")
                })?;
                let seat = seat
                    .parse::<usize>()
                    .map_err(|_| anyhow!("--split '{text}': seat '{seat}' is not a number"))?;
                if name.is_empty() {
                    bail!("--split '{text}': no tally name");
                }
                Ok((name.to_string(), seat))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Split { parts })
    }
}

/// One game as the report sees it.
pub(super) struct GameFigures {
    pub(super) index: u64,
    /// The colour-swapped pair (or rotation cycle): the unit of every interval.
    pub(super) pair: u64,
    pub(super) players: Vec<usize>,
    pub(super) agents: Vec<String>,
    pub(super) returns: Vec<f64>,
    pub(super) reason: String,
    pub(super) plies: usize,
    pub(super) tallies: Vec<(String, f64)>,
    pub(super) tally_labels: Vec<(String, String)>,
    pub(super) seat_names: Vec<String>,
    pub(super) cooperative: bool,
}

impl GameFigures {
    pub(super) fn new(row: &Row, r: Replayed) -> GameFigures {
        GameFigures {
            index: row.index,
            pair: row.pair,
            players: row.players.clone(),
            agents: row.agents.clone(),
            returns: r.returns,
            reason: r.reason,
            plies: r.plies,
            tallies: r.tallies,
            tally_labels: r.tally_labels,
            seat_names: r.seat_names,
            cooperative: r.cooperative,
        }
    }

    /// A seat's score: 1 win, ½ draw, 0 loss (returns are in [-1, 1]).
    pub(super) fn score(&self, seat: usize) -> f64 {
        (self.returns[seat] + 1.0) / 2.0
    }

    pub(super) fn tally(&self, name: &str) -> Option<f64> {
        self.tallies.iter().find(|(n, _)| n == name).map(|t| t.1)
    }

    /// The tally's value as a split groups it: its label where the variant gives one.
    pub(super) fn tally_group(&self, name: &str) -> Option<String> {
        let v = self.tally(name)?;
        Some(
            self.tally_labels
                .iter()
                .find(|(n, _)| n == name)
                .map_or_else(|| fmt_num(v), |(_, l)| l.clone()),
        )
    }
}

/// Mean and the half-width of its 95% interval over colour-swapped pairs, from
/// `(pair, value)` per game ([`Estimate::clustered`], issue 67): the games of one pair
/// are one sample, so a pair played twice alike counts once. With every game its own
/// pair it is the usual interval over games.
pub(super) fn mean_ci(xs: &[(u64, f64)]) -> (f64, f64) {
    let e = Estimate::clustered(xs);
    (e.mean, e.half)
}

/// [`mean_ci`] for scores in [0, 1], floored at one pair's weight
/// ([`Estimate::clustered_score`]), as the first seat's score is.
pub(super) fn score_ci(xs: &[(u64, f64)]) -> (f64, f64) {
    let e = Estimate::clustered_score(xs);
    (e.mean, e.half)
}

/// The `q` quantile of sorted values (nearest rank).
pub(super) fn quantile(sorted: &[usize], q: f64) -> usize {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub(super) fn fmt_num(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:.3}")
    }
}

pub(super) fn fmt_score(mean: f64, half: f64) -> String {
    if half.is_nan() {
        format!("{mean:.3}")
    } else {
        format!("{mean:.3} ± {half:.3}")
    }
}

pub(super) fn fmt_elo(mean: f64, half: f64) -> String {
    // Rounded first, so a tiny negative prints as +0, not -0.
    let elo = |p: f64| elo_from_score(p.clamp(0.001, 0.999)).round() + 0.0;
    if half.is_nan() {
        return format!("{:+}", elo(mean));
    }
    format!(
        "{:+} [{:+}, {:+}]",
        elo(mean),
        elo(mean - half),
        elo(mean + half)
    )
}

/// Scores of a split's seat(s) grouped by the tally's value, each with its game's pair
/// (the unit of the split's intervals, issue 67). A pair belongs to the group its games
/// fall in; decision where the two games of a pair fall in different groups (Masquerade:
/// the queen given in one game and not in the other): the pair counts in each group with
/// the games it has there, so each group's interval is over the pairs present in it, and
/// a pair is one sample in each of its groups. Pooled parts (`a@0+b@1`) put both seats
/// of one game into that game's pair, so they are one sample where they share a group.
pub(super) fn split_groups(games: &[GameFigures], sp: &Split) -> BTreeMap<String, Vec<(u64, f64)>> {
    let mut groups: BTreeMap<String, Vec<(u64, f64)>> = BTreeMap::new();
    for (tally, seat) in &sp.parts {
        for g in games {
            if let Some(v) = g.tally_group(tally) {
                groups.entry(v).or_default().push((g.pair, g.score(*seat)));
            }
        }
    }
    groups
}

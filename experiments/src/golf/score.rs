//! `score`: a round's score sheet, scored the seed's way.
//!
//! Scores are counted in `u64` while the sheet's numbers are `u32`: a count or penalty at
//! `u32::MAX` plus another can then never wrap (issue 39: `penalty = 4294967295` used to
//! wrap a failed player's score below the winner's). Test: `golf_score_never_wraps`.

use super::*;

/// Player rows on the printed score card.
pub(super) const SCORE_CARD_ROWS: usize = 5;

// ---------------------------------------------------------------------------------------
// score
// ---------------------------------------------------------------------------------------

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct ScoreSheet {
    pub(super) players: Vec<String>,
    #[serde(default)]
    pub(super) first_dealer: Option<String>,
    #[serde(default)]
    pub(super) penalty: Option<u32>,
    #[serde(default)]
    pub(super) hole: Vec<HoleSheet>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct HoleSheet {
    pub(super) counts: BTreeMap<String, u32>,
    #[serde(default)]
    pub(super) failed: Vec<String>,
    #[serde(default)]
    pub(super) par: Option<u32>,
    #[serde(default)]
    pub(super) dealer: Option<String>,
}

/// Scores of one hole, in seating order.
pub(super) fn score_hole(
    players: &[String],
    dealer: usize,
    counts: &[u32],
    failed: &[usize],
    penalty: u32,
    par: Option<u32>,
) -> std::result::Result<Vec<u64>, String> {
    let penalty = u64::from(penalty);
    let n = players.len();
    let mut order: Vec<usize> = (0..n).filter(|&i| counts[i] > 0).collect();
    order.sort_by_key(|&i| (counts[i], (i + n - dealer) % n));
    let max_all = u64::from(counts.iter().copied().max().unwrap_or(0));
    let mut scores: Vec<u64> = counts.iter().map(|&c| u64::from(c)).collect();
    let mut failed_iter = failed.iter().peekable();
    let mut success = None;
    for &i in &order {
        if failed_iter.peek() == Some(&&i) {
            failed_iter.next();
            let max_others = (0..n)
                .filter(|&j| j != i)
                .map(|j| counts[j])
                .max()
                .unwrap_or(0);
            scores[i] = u64::from(max_others) + penalty;
        } else {
            success = Some(i);
            break;
        }
    }
    if let Some(&i) = failed_iter.next() {
        return Err(if counts[i] == 0 {
            format!(
                "{} claimed impossible and never demonstrates, so cannot fail",
                players[i]
            )
        } else {
            format!(
                "{} is listed as failed out of turn (demonstrations go from the lowest count, ties from the dealer leftwards; list failures in that order)",
                players[i]
            )
        });
    }
    if let Some(i) = success {
        if let (Some(par), true) = (par, counts[i] > 0) {
            if counts[i] < par {
                return Err(format!(
                    "{} demonstrated {} moves, below the proven par {par}: mark the demonstration failed",
                    players[i], counts[i]
                ));
            }
        }
        for j in 0..n {
            if counts[j] == 0 {
                scores[j] = max_all + penalty;
            }
        }
    }
    Ok(scores)
}

pub(super) fn score(a: &ScoreArgs) -> Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("reading score sheet {}", a.file.display()))?;
    let sheet: ScoreSheet = crate::util::from_toml(&text)
        .with_context(|| format!("parsing score sheet {}", a.file.display()))?;
    let players = &sheet.players;
    if players.is_empty() {
        bail!("{}: no players", a.file.display());
    }
    let index = |name: &str, what: &str| -> Result<usize> {
        players.iter().position(|p| p == name).ok_or_else(|| {
            anyhow!(
                "{}: {what}: unknown player {name:?}{}",
                a.file.display(),
                engine::suggest::did_you_mean(name, players.iter().map(String::as_str))
            )
        })
    };
    for (i, p) in players.iter().enumerate() {
        if players[..i].contains(p) {
            bail!("{}: player {p:?} listed twice", a.file.display());
        }
    }
    let penalty = sheet.penalty.unwrap_or(GolfParams::default().penalty);
    let first = match &sheet.first_dealer {
        Some(d) => index(d, "first_dealer")?,
        None => 0,
    };
    let mut table: Vec<Vec<u64>> = Vec::new();
    for (h, hole) in sheet.hole.iter().enumerate() {
        let what = format!("hole {}", h + 1);
        let mut counts = vec![None; players.len()];
        for (name, &c) in &hole.counts {
            counts[index(name, &what)?] = Some(c);
        }
        let counts: Vec<u32> = counts
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.ok_or_else(|| {
                    anyhow!("{}: {what}: no count for {}", a.file.display(), players[i])
                })
            })
            .collect::<Result<_>>()?;
        let dealer = match &hole.dealer {
            Some(d) => index(d, &what)?,
            None => (first + h) % players.len(),
        };
        let failed = hole
            .failed
            .iter()
            .map(|f| index(f, &what))
            .collect::<Result<Vec<_>>>()?;
        let scores = score_hole(players, dealer, &counts, &failed, penalty, hole.par)
            .map_err(|e| anyhow!("{}: {what}: {e}", a.file.display()))?;
        table.push(scores);
    }
    // Print the card.
    let width = players.iter().map(|p| p.len()).max().unwrap_or(4).max(5);
    out!("{:<6}", "hole");
    for p in players {
        out!(" {p:>width$}");
    }
    outln!();
    for (h, row) in table.iter().enumerate() {
        out!("{:<6}", h + 1);
        for s in row {
            out!(" {s:>width$}");
        }
        outln!();
    }
    // At most 2^33 per hole: the sum could only wrap past 2^31 holes, which no file holds.
    let totals: Vec<u64> = (0..players.len())
        .map(|i| table.iter().map(|r| r[i]).sum())
        .collect();
    out!("{:<6}", "total");
    for t in &totals {
        out!(" {t:>width$}");
    }
    outln!();
    if let Some(&best) = totals.iter().min() {
        let winners: Vec<&str> = (0..players.len())
            .filter(|&i| totals[i] == best)
            .map(|i| players[i].as_str())
            .collect();
        if winners.len() == 1 {
            outln!("winner: {} ({best})", winners[0]);
        } else {
            outln!(
                "tie at {best}: {} (the seed: a tie goes to the best dressed player)",
                winners.join(", ")
            );
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// bench
// ---------------------------------------------------------------------------------------

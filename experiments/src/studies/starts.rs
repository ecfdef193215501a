//! Are some Chess960 starts unfair? (issue 37, the Chess960 seed's question.) From a run
//! that played Chess960 starts as openings (`balance --openings
//! results/chess960/starts.txt`, where line k is start k), `chesslab starts` groups the
//! colour-swapped pairs by start and tests whether White's score varies across starts
//! more than chance gives.
//!
//! The unit is the pair (its two games share the start and swap the colours): a pair's
//! value is White's mean score over its games. With k starts and N pairs, the one-way
//! analysis of variance gives the between-start mean square MS_b = Σ n_j (ȳ_j − ȳ)² /
//! (k − 1) and the within-start one MS_w = Σ (y − ȳ_j)² / (N − k); their ratio F is about
//! 1 when the start does not matter. Its p-value comes from a permutation test (the pair
//! values shuffled over the starts, group sizes kept, `--permutations` times from
//! `--seed`, p = (1 + #{F* ≥ F}) / (1 + permutations)), so nothing is assumed about the
//! shape of the scores (they are 0, ¼, ½, ¾, 1 per pair). The spread of the true per-start
//! scores is estimated as sqrt(max(0, MS_b − MS_w) / n̄) (n̄ pairs per start), beside
//! what chance alone gives to the observed per-start means, sqrt(MS_w / n̄).
//!
//! Each start's score gets the interval ȳ_j ± 1.96 sqrt(MS_w / n_j) (the pooled
//! within-start spread: with two pairs a start, a start's own spread is no estimate),
//! clipped to [0, 1] in the CSVs (a score cannot leave it).
//! These intervals are wide, and with 960 of them about 48 miss by chance, so the most
//! extreme starts are named as the most extreme, not as proven unfair.
//!
//! Writes `DIR/starts.csv` (every start: number, back rank, pairs, games, White's score and
//! interval), `DIR/spread.csv` (the test, one row) and `DIR/extremes.csv` (the `--extremes`
//! lowest and highest starts), for the README's generated tables. A game whose opening is
//! not a Chess960 start position is an error naming it.
//!
//! Tests: `starts_are_read_from_openings`, `games_give_white_scores_by_start`,
//! `spread_finds_a_planted_unfair_start`,
//! `spread_of_homogeneous_starts_is_not_significant`, `non_chess960_openings_are_refused`.

use crate::record;
use anyhow::{anyhow, bail, Context, Result};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

/// One start's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Start {
    pub number: u16,
    /// The back rank, files a..h (`RNBQKBNR` for 518).
    pub back_rank: String,
    pub pairs: usize,
    pub games: usize,
    pub white: f64,
    /// Half-width of the 95% interval (pooled within-start spread).
    pub half: f64,
}

/// The homogeneity test.
#[derive(Debug, Clone, PartialEq)]
pub struct Spread {
    pub starts: usize,
    pub pairs: usize,
    pub games: usize,
    pub white: f64,
    /// Standard deviation of the per-start means expected from chance alone.
    pub chance_sd: f64,
    /// Observed standard deviation of the per-start means (weighted by pairs).
    pub observed_sd: f64,
    /// Estimated standard deviation of the true per-start scores.
    pub true_sd: f64,
    pub f: f64,
    pub p: f64,
    pub permutations: usize,
}

/// The back rank of start `n` as letters, files a..h.
pub fn back_rank_text(n: u16) -> String {
    engine::chess960::back_rank(n)
        .iter()
        .map(|r| r.char().to_ascii_uppercase())
        .collect()
}

/// The Chess960 start an opening FEN is, from White's back rank; `None` when the position
/// is not a start position (a moved pawn or piece, another back rank for Black).
pub fn start_of(fen: &str, table: &HashMap<String, u16>) -> Option<u16> {
    let placement = fen.split_whitespace().next()?;
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8
        || ranks[1] != "pppppppp"
        || ranks[6] != "PPPPPPPP"
        || ranks[2..6].iter().any(|r| *r != "8")
        || ranks[0].to_ascii_uppercase() != ranks[7]
        || ranks[0].to_ascii_lowercase() != ranks[0]
    {
        return None;
    }
    table.get(ranks[7]).copied()
}

fn start_table() -> HashMap<String, u16> {
    (0..960).map(|n| (back_rank_text(n), n)).collect()
}

/// (start, pair, White's score) for every game of the run, in file order.
pub fn games_by_start(rows: &[record::Row]) -> Result<Vec<(u16, u64, f64)>> {
    let table = start_table();
    rows.iter()
        .map(|r| {
            let start = start_of(&r.opening, &table).ok_or_else(|| {
                anyhow!(
                    "game {}: its opening {:?} is not a Chess960 start position (play the starts with --openings results/chess960/starts.txt)",
                    r.index,
                    r.opening
                )
            })?;
            // Returns are +1 / 0 / −1 for White; the score is 1 / ½ / 0.
            let white = r
                .returns
                .first()
                .ok_or_else(|| anyhow!("game {}: no returns", r.index))?;
            Ok((start, r.pair, (white.clamp(-1.0, 1.0) + 1.0) / 2.0))
        })
        .collect()
}

/// Between-start sum of squares of `values` grouped by `groups` (group index per value).
fn between(values: &[f64], groups: &[usize], k: usize) -> f64 {
    let mut sum = vec![0.0; k];
    let mut n = vec![0usize; k];
    for (&v, &g) in values.iter().zip(groups) {
        sum[g] += v;
        n[g] += 1;
    }
    let grand = values.iter().sum::<f64>() / values.len() as f64;
    (0..k)
        .filter(|&g| n[g] > 0)
        .map(|g| {
            let m = sum[g] / n[g] as f64;
            n[g] as f64 * (m - grand).powi(2)
        })
        .sum()
}

/// The per-start figures and the test, from (start, pair, White's score) per game.
pub fn analyse(
    games: &[(u16, u64, f64)],
    permutations: usize,
    seed: u64,
) -> Result<(Vec<Start>, Spread)> {
    // Pairs: White's mean score over the pair's games; a pair spans one start.
    let mut pairs: BTreeMap<u64, (u16, f64, usize)> = BTreeMap::new();
    for &(start, pair, white) in games {
        let e = pairs.entry(pair).or_insert((start, 0.0, 0));
        if e.0 != start {
            bail!(
                "pair {pair} starts from two positions ({} and {start})",
                e.0
            );
        }
        e.1 += white;
        e.2 += 1;
    }
    let mut index: BTreeMap<u16, usize> = BTreeMap::new();
    for (start, _, _) in pairs.values() {
        let k = index.len();
        index.entry(*start).or_insert(k);
    }
    let k = index.len();
    let values: Vec<f64> = pairs.values().map(|(_, s, n)| s / *n as f64).collect();
    let groups: Vec<usize> = pairs.values().map(|(s, _, _)| index[s]).collect();
    let n = values.len();
    if k < 2 || n <= k {
        bail!(
            "{k} start(s) over {n} pair(s): the test needs two starts and more pairs than starts"
        );
    }
    let grand = values.iter().sum::<f64>() / n as f64;
    let mut sum = vec![0.0; k];
    let mut count = vec![0usize; k];
    let mut game_count = vec![0usize; k];
    for (&v, &g) in values.iter().zip(&groups) {
        sum[g] += v;
        count[g] += 1;
    }
    for (start, _, games) in pairs.values() {
        game_count[index[start]] += games;
    }
    let means: Vec<f64> = (0..k).map(|g| sum[g] / count[g] as f64).collect();
    let ss_b = between(&values, &groups, k);
    let ss_w: f64 = values
        .iter()
        .zip(&groups)
        .map(|(v, &g)| (v - means[g]).powi(2))
        .sum();
    let ms_b = ss_b / (k - 1) as f64;
    let ms_w = ss_w / (n - k) as f64;
    let f = if ms_w > 0.0 {
        ms_b / ms_w
    } else {
        f64::INFINITY
    };
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut shuffled = groups.clone();
    let mut above = 0usize;
    for _ in 0..permutations {
        shuffled.shuffle(&mut rng);
        // A tolerance so that a permutation equal to the observed split counts as "as
        // extreme" despite rounding.
        if between(&values, &shuffled, k) >= ss_b - 1e-9 {
            above += 1;
        }
    }
    let n_bar = n as f64 / k as f64;
    let starts = index
        .iter()
        .map(|(&start, &g)| Start {
            number: start,
            back_rank: back_rank_text(start),
            pairs: count[g],
            games: game_count[g],
            white: means[g],
            half: 1.96 * (ms_w / count[g] as f64).sqrt(),
        })
        .collect();
    let spread = Spread {
        starts: k,
        pairs: n,
        games: games.len(),
        white: grand,
        chance_sd: (ms_w / n_bar).sqrt(),
        observed_sd: (ss_b / n_bar / (k - 1) as f64).sqrt(),
        true_sd: ((ms_b - ms_w).max(0.0) / n_bar).sqrt(),
        f,
        p: (1 + above) as f64 / (1 + permutations) as f64,
        permutations,
    };
    Ok((starts, spread))
}

fn starts_csv(starts: &[Start]) -> String {
    let mut s = String::from("start,back_rank,pairs,games,white,low,high\n");
    for x in starts {
        let _ = writeln!(
            s,
            "{},{},{},{},{:.3},{:.3},{:.3}",
            x.number,
            x.back_rank,
            x.pairs,
            x.games,
            x.white,
            (x.white - x.half).max(0.0),
            (x.white + x.half).min(1.0)
        );
    }
    s
}

fn spread_csv(s: &Spread) -> String {
    format!(
        "starts,pairs,games,white,chance_sd,observed_sd,true_sd,F,p,permutations\n{},{},{},{:.3},{:.3},{:.3},{:.3},{:.2},{:.4},{}\n",
        s.starts,
        s.pairs,
        s.games,
        s.white,
        s.chance_sd,
        s.observed_sd,
        s.true_sd,
        s.f,
        s.p,
        s.permutations
    )
}

/// The `extremes` lowest and highest starts by White's score (ties by start number).
pub fn extremes(starts: &[Start], extremes: usize) -> Vec<(&'static str, Start)> {
    let mut sorted = starts.to_vec();
    sorted.sort_by(|a, b| a.white.total_cmp(&b.white).then(a.number.cmp(&b.number)));
    let e = extremes.min(sorted.len() / 2);
    let mut out: Vec<(&'static str, Start)> =
        sorted[..e].iter().map(|s| ("lowest", s.clone())).collect();
    out.extend(
        sorted[sorted.len() - e..]
            .iter()
            .rev()
            .map(|s| ("highest", s.clone())),
    );
    out
}

fn extremes_csv(rows: &[(&str, Start)]) -> String {
    let mut s = String::from("end,start,back_rank,pairs,white,low,high\n");
    for (end, x) in rows {
        let _ = writeln!(
            s,
            "{end},{},{},{},{:.3},{:.3},{:.3}",
            x.number,
            x.back_rank,
            x.pairs,
            x.white,
            (x.white - x.half).max(0.0),
            (x.white + x.half).min(1.0)
        );
    }
    s
}

/// Reads `games`, analyses it and writes the three CSVs into `out`; returns the test.
/// The files [`run`] writes into its folder.
pub const FILES: [&str; 3] = ["starts.csv", "spread.csv", "extremes.csv"];

pub fn run(
    games: &Path,
    out: &Path,
    permutations: usize,
    seed: u64,
    extremes_n: usize,
) -> Result<(Vec<Start>, Spread)> {
    let loaded = record::load(games)?;
    if loaded.rows.is_empty() {
        bail!("{} holds no games", games.display());
    }
    let by_start =
        games_by_start(&loaded.rows).with_context(|| format!("reading {}", games.display()))?;
    let (starts, spread) = analyse(&by_start, permutations, seed)?;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    for (name, text) in [
        ("starts.csv", starts_csv(&starts)),
        ("spread.csv", spread_csv(&spread)),
        ("extremes.csv", extremes_csv(&extremes(&starts, extremes_n))),
    ] {
        let path = out.join(name);
        crate::util::replaceable(&path, "")?;
        record::write_atomic(&path, text.as_bytes())?;
    }
    Ok((starts, spread))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(n: u16) -> String {
        let r = back_rank_text(n);
        format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{r} w - - 0 1",
            r.to_ascii_lowercase()
        )
    }

    #[test]
    fn starts_are_read_from_openings() {
        let t = start_table();
        assert_eq!(t.len(), 960, "the 960 back ranks are distinct");
        assert_eq!(back_rank_text(518), "RNBQKBNR");
        assert_eq!(back_rank_text(0), "BBQNNRKR");
        assert_eq!(start_of(&fen(0), &t), Some(0));
        assert_eq!(start_of(&fen(959), &t), Some(959));
        // The committed suite: line k (comments left out) is start k.
        let suite = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/chess960/starts.txt"),
        )
        .unwrap();
        let lines: Vec<&str> = suite.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 960);
        for (k, l) in lines.iter().enumerate() {
            assert_eq!(start_of(l, &t), Some(k as u16), "{l}");
            engine::board::Board::from_fen_960(l).unwrap();
        }
    }

    /// A game's record gives White's score (returns +1 / 0 / −1 become 1 / ½ / 0) and
    /// its start.
    #[test]
    fn games_give_white_scores_by_start() {
        let row = |index, returns: Vec<f64>| record::Row {
            index,
            seed: 0,
            variant: "chess960".into(),
            params_digest: String::new(),
            pair: index / 2,
            opening: fen(518),
            players: vec![0, 1],
            agents: vec![],
            result: String::new(),
            returns,
            reason: String::new(),
            plies: 0,
            actions: String::new(),
        };
        let g = games_by_start(&[
            row(0, vec![1.0, -1.0]),
            row(1, vec![0.0, 0.0]),
            row(2, vec![-1.0, 1.0]),
        ])
        .unwrap();
        assert_eq!(g, vec![(518, 0, 1.0), (518, 0, 0.5), (518, 1, 0.0)]);
        let mut bad = row(3, vec![1.0, -1.0]);
        bad.opening = String::new();
        let e = games_by_start(&[bad]).unwrap_err().to_string();
        assert!(
            e.contains("game 3") && e.contains("not a Chess960 start"),
            "{e}"
        );
    }

    #[test]
    fn non_chess960_openings_are_refused() {
        let t = start_table();
        // A moved pawn, mismatched colours, the empty opening, a back rank that is no
        // Chess960 start (both bishops on dark squares).
        for bad in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "",
            "brbqknrn/pppppppp/8/8/8/8/PPPPPPPP/BRBQKNRN w - - 0 1",
        ] {
            assert_eq!(start_of(bad, &t), None, "{bad}");
        }
    }

    /// Pair scores drawn from one distribution for every start, except starts 0 to 5,
    /// where (with `unfair`) White wins every game.
    fn games(unfair: bool, seed: u64) -> Vec<(u16, u64, f64)> {
        use rand::Rng;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut pair = 0;
        for start in 0..60u16 {
            for _ in 0..4 {
                for _ in 0..2 {
                    let w = if unfair && start < 6 {
                        1.0
                    } else {
                        [0.0, 0.5, 1.0][rng.gen_range(0..3)]
                    };
                    out.push((start, pair, w));
                }
                pair += 1;
            }
        }
        out
    }

    #[test]
    fn spread_finds_a_planted_unfair_start() {
        let (starts, s) = analyse(&games(true, 3), 2000, 1).unwrap();
        assert_eq!((s.starts, s.pairs, s.games), (60, 240, 480));
        assert!(s.p < 0.05, "{s:?}");
        assert!(s.true_sd > 0.0);
        let top = &extremes(&starts, 3)[3];
        assert_eq!((top.0, top.1.white), ("highest", 1.0));
        assert!(top.1.number < 6, "{top:?}");
        // Deterministic for a seed.
        assert_eq!(analyse(&games(true, 3), 2000, 1).unwrap().1, s);
    }

    #[test]
    fn spread_of_homogeneous_starts_is_not_significant() {
        // Over several samples the permutation p-value is not small: no start differs.
        // (About one sample in twenty falls below 0.05 by chance: at most two of eight.)
        let ps: Vec<f64> = (10..18)
            .map(|seed| analyse(&games(false, seed), 500, seed).unwrap().1.p)
            .collect();
        assert!(ps.iter().filter(|&&p| p < 0.05).count() <= 2, "{ps:?}");
        assert!(ps.iter().sum::<f64>() / 8.0 > 0.2, "{ps:?}");
        let (_, s) = analyse(&games(false, 10), 500, 1).unwrap();
        // Chance alone: per-start means spread about as chance predicts.
        assert!((s.observed_sd / s.chance_sd - 1.0).abs() < 0.35, "{s:?}");
        // Too little data is an error, not a figure.
        assert!(analyse(&[(0, 0, 1.0), (1, 1, 0.0)], 10, 1).is_err());
        assert!(analyse(&[(0, 0, 1.0), (1, 0, 0.0)], 10, 1).is_err());
    }
}

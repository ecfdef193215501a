//! The report itself: `report.md` ([`Report`]) with its metrics, team and split
//! sections, and `tallies.csv`.

use super::*;

pub(super) struct Report {
    pub(super) markdown: String,
    pub(super) summary: String,
    pub(super) tally_names: Vec<String>,
    pub(super) seat_names: Vec<String>,
}

impl Report {
    pub(super) fn seat_name(&self, seat: usize) -> String {
        self.seat_names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    pub(super) fn new(
        first: &Row,
        games: &[GameFigures],
        splits: &[Split],
        title: Option<String>,
        metrics: &Metrics,
        plots: Option<&PlotNames>,
        epoch: Option<u32>,
    ) -> Report {
        let n = games.len();
        let seats = games[0].returns.len();
        let seat_names = &games[0].seat_names;
        let mut specs: BTreeMap<usize, String> = BTreeMap::new();
        for g in games {
            for (p, a) in g.players.iter().zip(&g.agents) {
                specs.entry(*p).or_insert_with(|| a.clone());
            }
        }
        let agent_list = specs.values().cloned().collect::<Vec<_>>().join(" vs ");
        let title = title.unwrap_or_else(|| format!("{}: {}", first.variant, agent_list));
        let mut md = String::new();
        let _ = writeln!(md, "# Balance report — {title}\n");
        let _ = writeln!(
            md,
            "{n} games of `{}` (parameter digest `{}`), agents {}. Every game was replayed \
             from its record in `games.csv` and ended as recorded.\n",
            first.variant, first.params_digest, agent_list
        );
        let _ = writeln!(md, "{}\n", distinct_sentence(metrics, n));

        if games[0].cooperative {
            team_section(&mut md, games);
        }
        // First seat (for a cooperative game the team's, since every seat shares it).
        // Over colour-swapped pairs (the metrics' estimate), not over games.
        let (m, h) = (
            metrics.first_move_advantage.mean,
            metrics.first_move_advantage.half,
        );
        let wins = games.iter().filter(|g| g.returns[0] > 0.0).count();
        let losses = games.iter().filter(|g| g.returns[0] < 0.0).count();
        let draws = n - wins - losses;
        let draw_rate = draws as f64 / n as f64;
        let first_name = seat_names
            .first()
            .cloned()
            .unwrap_or_else(|| "seat 0".into());
        let _ = writeln!(md, "## First seat ({first_name})\n");
        let _ = writeln!(md, "| figure | value |\n|---|---|");
        let _ = writeln!(
            md,
            "| {first_name}'s score (95% interval over colour-swapped pairs) | {} |",
            fmt_score(m, h)
        );
        let _ = writeln!(md, "| as an Elo difference | {} |", fmt_elo(m, h));
        if let Some(o) = &metrics.by_opening {
            let _ = writeln!(
                md,
                "| {first_name}'s score (95% interval over openings: {} pairs from {} book openings, the pairs of one opening as one sample) | {} |",
                o.pairs,
                o.openings,
                fmt_score(o.estimate.mean, o.estimate.half)
            );
        }
        let _ = writeln!(
            md,
            "| {first_name} wins / draws / losses | {wins} / {draws} / {losses} |"
        );
        let _ = writeln!(md, "| draw rate | {:.1}% |", 100.0 * draw_rate);
        if seats > 2 {
            let _ = writeln!(
                md,
                "\nWith {seats} seats, {first_name}'s score is its team's (partners share returns)."
            );
        }
        let _ = writeln!(md);

        // Agents.
        let _ = writeln!(md, "## Agents\n");
        let _ = writeln!(
            md,
            "| agent | games | score (95% interval over pairs) | strength (Elo, 95%) |\n|---|---|---|---|"
        );
        let duplicated = |spec: &String| specs.values().filter(|s| *s == spec).count() > 1;
        for (p, spec) in &specs {
            let xs: Vec<(u64, f64)> = games
                .iter()
                .filter_map(|g| {
                    let seats: Vec<usize> = (0..g.players.len())
                        .filter(|&s| g.players[s] == *p)
                        .collect();
                    (!seats.is_empty()).then(|| {
                        let s = seats.iter().map(|&s| g.score(s)).sum::<f64>();
                        (g.pair, s / seats.len() as f64)
                    })
                })
                .collect();
            let (am, ah) = score_ci(&xs);
            let name = if duplicated(spec) {
                // Numbered from 1, as the standings number agents (issue 39).
                format!("`{spec}` (agent {})", p + 1)
            } else {
                format!("`{spec}`")
            };
            let _ = writeln!(
                md,
                "| {name} | {} | {} | {} |",
                xs.len(),
                fmt_score(am, ah),
                crate::stats::strength::cell_at(spec, epoch)
            );
        }
        let _ = writeln!(
            md,
            "\nStrength: {}; measured agents only, `*` = measured without the `noise` \
             setting. It says how well the search plays orthodox chess, not this variant. {}\n",
            crate::stats::strength::SCALE,
            match epoch {
                Some(e) =>
                    format!("Ratings of the agents' generation {e}, which played these games."),
                None => "The run's run.json does not record which generation of the agents \
                         played (runs before 2026-11-29), so no rating is quoted."
                    .to_string(),
            }
        );

        // Length.
        let mut plies: Vec<usize> = games.iter().map(|g| g.plies).collect();
        plies.sort_unstable();
        let mean_plies = plies.iter().sum::<usize>() as f64 / n as f64;
        let _ = writeln!(
            md,
            "## Game length\n\nIn recorded actions: moves, plus chance outcomes and the \
             further decisions of compound turns where the variant has them.\n"
        );
        let _ = writeln!(
            md,
            "| mean | median | 10% | 90% | min | max |\n|---|---|---|---|---|---|"
        );
        let _ = writeln!(
            md,
            "| {mean_plies:.1} | {} | {} | {} | {} | {} |\n",
            quantile(&plies, 0.5),
            quantile(&plies, 0.1),
            quantile(&plies, 0.9),
            plies[0],
            plies[n - 1]
        );
        if let Some(p) = plots {
            let _ = writeln!(md, "![game length]({})\n", p.name("length"));
        }

        metrics_section(&mut md, metrics);

        // Terminations.
        let mut reasons: BTreeMap<&str, Vec<&GameFigures>> = BTreeMap::new();
        for g in games {
            reasons.entry(g.reason.as_str()).or_default().push(g);
        }
        let mut reasons: Vec<_> = reasons.into_iter().collect();
        reasons.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
        let _ = writeln!(md, "## How games end\n");
        let _ = writeln!(
            md,
            "| reason | games | share | {first_name}'s score in them |\n|---|---|---|---|"
        );
        for (reason, gs) in &reasons {
            let s = gs.iter().map(|g| g.score(0)).sum::<f64>() / gs.len() as f64;
            let _ = writeln!(
                md,
                "| {reason} | {} | {:.1}% | {s:.3} |",
                gs.len(),
                100.0 * gs.len() as f64 / n as f64
            );
        }
        let _ = writeln!(md);

        // Tallies.
        let mut tally_names: Vec<String> = Vec::new();
        for g in games {
            for (name, _) in &g.tallies {
                if !tally_names.contains(name) {
                    tally_names.push(name.clone());
                }
            }
        }
        tallies_section(&mut md, games, &tally_names);

        // Splits.
        for (i, sp) in splits.iter().enumerate() {
            let groups = split_groups(games, sp);
            let seat_name = |seat: usize| {
                seat_names
                    .get(seat)
                    .cloned()
                    .unwrap_or_else(|| format!("seat {seat}"))
            };
            let who = if let [(tally, seat)] = sp.parts.as_slice() {
                let _ = writeln!(md, "## {}'s score by `{tally}`\n", seat_name(*seat));
                seat_name(*seat)
            } else {
                let names: Vec<String> = sp
                    .parts
                    .iter()
                    .map(|(t, s)| format!("{}'s score by `{t}`", seat_name(*s)))
                    .collect();
                let _ = writeln!(md, "## Pooled: {}\n", names.join(", "));
                "the seat".to_string()
            };
            split_table(&mut md, &groups, &who);
            if let Some(p) = plots {
                let _ = writeln!(
                    md,
                    "![score by tally]({})\n",
                    p.name(&format!("split-{}", i + 1))
                );
            }
        }

        let summary = if games[0].cooperative {
            let returns: Vec<(u64, f64)> = games.iter().map(|g| (g.pair, g.returns[0])).collect();
            let (rm, rh) = mean_ci(&returns);
            let scores: Vec<(u64, f64)> = games
                .iter()
                .filter_map(|g| Some((g.pair, g.tally("score")?)))
                .collect();
            let score = if scores.len() == n {
                let (sm, sh) = mean_ci(&scores);
                format!(", score {}", fmt_score(sm, sh))
            } else {
                String::new()
            };
            format!(
                "{n} games (cooperative); team return {}{score}, mean length {mean_plies:.1}\n",
                fmt_score(rm, rh)
            )
        } else {
            format!(
                "{n} games ({} distinct); {first_name} scores {} ({}), draws {:.1}%, mean length {mean_plies:.1}\n",
                metrics.whole.distinct,
                fmt_score(m, h),
                fmt_elo(m, h),
                100.0 * draw_rate
            )
        };
        Report {
            markdown: md,
            summary,
            tally_names,
            seat_names: seat_names.clone(),
        }
    }
}

/// "300 games, 150 distinct": how many distinct games (distinct action records from
/// their openings) a run has, and what that means for its intervals.
pub(super) fn distinct_sentence(metrics: &Metrics, n: usize) -> String {
    let distinct = metrics.whole.distinct;
    if distinct == n {
        format!("Distinct games: {distinct} of {n} (every action record differs).")
    } else {
        format!(
            "Distinct games: {distinct} of {n} (the others repeat an action record, most often the \
             two games of a colour-swapped pair played alike by deterministic agents); the first \
             seat's interval is over pairs, so the two games of a pair count as one sample."
        )
    }
}

/// The Ludii-style metrics and the opening diversity of a run ([`crate::stats::metrics`]).
pub(super) fn metrics_section(md: &mut String, m: &Metrics) {
    // Reports point readers at the user guide, never at a source file (issue 68: the
    // old text cited a file that had moved); reports written before keep the old line
    // until `report --again` writes them anew.
    let _ = writeln!(
        md,
        "## Metrics (95% intervals)\n\nDefinitions after Ludii's metrics (Browne's criteria); \
         lead changes and drama read the material balance after every action \
         (see docs/guide/balance.md).\n"
    );
    let _ = writeln!(md, "| metric | value |\n|---|---|");
    for (name, e, pct) in m.rows() {
        let v = match e {
            None => "no evaluation (no material in this variant, or no decisive game)".into(),
            Some(e) if pct => e.fmt_pct(),
            Some(e) => e.fmt(3),
        };
        let _ = writeln!(md, "| {name} | {v} |");
    }
    let _ = writeln!(md);
    let _ = writeln!(
        md,
        "## Opening diversity\n\nDistinct lines (the opening, then the recorded actions) after \
         the first 4, 8 and 16 actions, and the share of games in the most common one.\n"
    );
    let _ = writeln!(
        md,
        "| after | distinct lines | most common line's share |\n|---|---|---|"
    );
    for d in m.diversity.iter().chain(std::iter::once(&m.whole)) {
        let after = if d.plies == 0 {
            "the whole game".to_string()
        } else {
            format!("{} actions", d.plies)
        };
        let _ = writeln!(
            md,
            "| {after} | {} of {} | {} |",
            d.distinct,
            m.games,
            d.top.fmt_pct()
        );
    }
    let _ = writeln!(md);
    let warnings = m.warnings();
    for w in &warnings {
        let _ = writeln!(md, "**Warning:** {w}.\n");
        eprintln!("warning: {w}");
    }
}

/// The team's results in a cooperative game (every seat shares one return): there is no
/// winner, so the report gives the return with its interval and the distribution of
/// the variant's raw `score` tally (or of the return, without one).
pub(super) fn team_section(md: &mut String, games: &[GameFigures]) {
    let n = games.len();
    let paired: Vec<(u64, f64)> = games.iter().map(|g| (g.pair, g.returns[0])).collect();
    let returns: Vec<f64> = paired.iter().map(|x| x.1).collect();
    let (rm, rh) = mean_ci(&paired);
    let _ = writeln!(
        md,
        "## Team result (cooperative)\n\nEvery seat shares one return, so there is no winner: \
         the figures below are the team's. The first-seat table further down is the same \
         return read as a score in [0, 1].\n"
    );
    let _ = writeln!(md, "| figure | value |\n|---|---|");
    let _ = writeln!(
        md,
        "| team return (95% interval over pairs) | {} |",
        fmt_score(rm, rh)
    );
    let scores: Vec<(u64, f64)> = games
        .iter()
        .filter_map(|g| Some((g.pair, g.tally("score")?)))
        .collect();
    let (name, values) = if scores.len() == n {
        let (sm, sh) = mean_ci(&scores);
        let _ = writeln!(
            md,
            "| mean `score` (95% interval over pairs) | {} |",
            fmt_score(sm, sh)
        );
        ("score", scores.iter().map(|x| x.1).collect())
    } else {
        ("return", returns.clone())
    };
    let lowest = returns.iter().filter(|&&r| r <= -1.0).count();
    let _ = writeln!(
        md,
        "| games at the lowest return (-1) | {lowest} ({:.1}%) |\n",
        100.0 * lowest as f64 / n as f64
    );
    let mut dist: BTreeMap<i64, usize> = BTreeMap::new();
    for v in &values {
        *dist.entry((v * 1000.0).round() as i64).or_default() += 1;
    }
    let _ = writeln!(md, "| {name} | games | share |\n|---|---|---|");
    for (v, c) in dist {
        let _ = writeln!(
            md,
            "| {} | {c} | {:.1}% |",
            fmt_num(v as f64 / 1000.0),
            100.0 * c as f64 / n as f64
        );
    }
    let _ = writeln!(md);
}

/// A table of scores per group, best first, each interval over the pairs in its group
/// ([`split_groups`]).
pub(super) fn split_table(md: &mut String, groups: &BTreeMap<String, Vec<(u64, f64)>>, who: &str) {
    let mut rows: Vec<(&String, f64, f64, usize, usize)> = groups
        .iter()
        .map(|(k, xs)| {
            let (m, h) = score_ci(xs);
            let pairs = xs
                .iter()
                .map(|x| x.0)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            (k, m, h, xs.len(), pairs)
        })
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let _ = writeln!(
        md,
        "| value | games | pairs | {who}'s score (95% interval over pairs) |\n|---|---|---|---|"
    );
    for (k, m, h, count, pairs) in rows {
        let _ = writeln!(md, "| {k} | {count} | {pairs} | {} |", fmt_score(m, h));
    }
    let _ = writeln!(md);
}

/// The variant's own figures (`Game::tallies`): mean with its interval over pairs
/// ([`mean_ci`], issue 67), min, max and the games where the figure is above zero.
pub(super) fn tallies_section(md: &mut String, games: &[GameFigures], tally_names: &[String]) {
    if tally_names.is_empty() {
        return;
    }
    let _ = writeln!(md, "## The variant's own figures (per game)\n");
    let _ = writeln!(
        md,
        "| figure | mean (95% interval over pairs) | min | max | games where > 0 |\n|---|---|---|---|---|"
    );
    for name in tally_names {
        let xs: Vec<(u64, f64)> = games
            .iter()
            .filter_map(|g| Some((g.pair, g.tally(name)?)))
            .collect();
        let (tm, th) = mean_ci(&xs);
        let min = xs.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
        let max = xs.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let positive = xs.iter().filter(|x| x.1 > 0.0).count();
        let _ = writeln!(
            md,
            "| `{name}` | {} | {} | {} | {positive} |",
            if th.is_nan() {
                format!("{tm:.3}")
            } else {
                format!("{tm:.3} ± {th:.3}")
            },
            fmt_num(min),
            fmt_num(max)
        );
    }
    let _ = writeln!(md, "\nPer-game values: `tallies.csv`.\n");
}

/// One row per game: index, players, returns, reason, plies, then every tally.
pub(super) fn tallies_csv(games: &[GameFigures], names: &[String]) -> Result<Vec<u8>> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let mut header: Vec<String> = ["index", "players", "returns", "reason", "plies"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    header.extend(names.iter().cloned());
    w.write_record(&header)?;
    for g in games {
        let mut rec = vec![
            g.index.to_string(),
            g.players
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            crate::util::returns_text(&g.returns),
            g.reason.clone(),
            g.plies.to_string(),
        ];
        rec.extend(
            names
                .iter()
                .map(|n| g.tally(n).map_or(String::new(), fmt_num)),
        );
        w.write_record(&rec)?;
    }
    w.into_inner().map_err(|e| anyhow!("{e}"))
}

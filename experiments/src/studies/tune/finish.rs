//! The end of a tuning run: `best.toml`, the confirmation run, `report.md` with its
//! summary (best loss, where the table went, and said plainly when the tuned table is
//! worse than the base table: issue 39), and the one-line progress report used off a
//! terminal.

use super::*;

pub(super) fn finish(args: &TuneArgs, setup: &Setup, ck: &Checkpoint, base: &[f64]) -> Result<()> {
    let tuned = estimate(setup, &ck.state);
    write_atomic(&args.out.join("best.toml"), setup.text(&tuned)?.as_bytes())?;
    // The lowest-loss point as well: where the optimiser did not settle, its estimate can
    // sit far from every good point played (issue 37's panel tune), and a designer wants
    // that point's table to confirm on fresh seeds.
    if let Some((_, _, x)) = best_played(&ck.csv_lines, setup.space.params.len()) {
        write_atomic(
            &args.out.join("lowest-loss.toml"),
            setup.text(&x)?.as_bytes(),
        )?;
    }
    plots::draw(&args.out, &ck.csv_lines, &setup.space)?;
    let mut md = String::new();
    let _ = writeln!(md, "# Tuning report — {}\n", setup.variant);
    let _ = writeln!(
        md,
        "{} iterations of {}, {} games per point{}, agents {}, master seed {}. Files: \
         `iterations.csv`, `checkpoint.json`, `best.toml` (the tuned table: the final estimate), `lowest-loss.toml` (the point played with the lowest loss).\n",
        args.iterations,
        args.optimizer.name(),
        args.games,
        if setup.members.len() > 1 {
            " and member"
        } else {
            ""
        },
        setup
            .members
            .iter()
            .map(|m| {
                let a = m.agents.join(" vs ");
                if m.label.is_empty() {
                    a
                } else {
                    format!("{} ({a})", m.label)
                }
            })
            .collect::<Vec<_>>()
            .join("; "),
        args.seed
    );
    if setup.members.len() > 1 {
        let _ = writeln!(
            md,
            "Panel of {} members: the loss of a point is the worst member's (each member against its own targets), so the tuner minimises the worst miss.\n",
            setup.members.len()
        );
    }
    let _ = writeln!(
        md,
        "## Parameters\n\n| parameter | paths | bounds | base | tuned |\n|---|---|---|---|---|"
    );
    for (i, p) in setup.space.params.iter().enumerate() {
        let _ = writeln!(
            md,
            "| {} | `{}` | [{}, {}] | {} | {} |",
            p.name,
            p.paths.join("`, `"),
            p.min,
            p.max,
            fmt_value(base[i], p.integer),
            fmt_value(tuned[i], p.integer)
        );
    }
    let mut confirmed = None;
    // Whether the confirmation run found any target met by the tuned table (None: no
    // confirmation run), for the budget hint.
    let mut any_met: Option<bool> = None;
    if args.confirm_games > 0 {
        let seed = mix(args.seed ^ CONFIRM_SALT, 0);
        let pt = setup.play(&tuned, args.confirm_games, seed)?;
        let pb = setup.play(base, args.confirm_games, seed)?;
        let _ = writeln!(
            md,
            "\n## Confirmation run\n\n{} games with each table{}, the same game seeds for both, seeds apart from the tuning's; mean per game ± 95% interval (1.96 standard errors over colour-swapped pairs).\n\n| target | goal | base table | tuned table | tuned meets it |\n|---|---|---|---|---|",
            args.confirm_games,
            if setup.members.len() > 1 { " and member" } else { "" }
        );
        let mut lb = Vec::new();
        let mut lt = Vec::new();
        let mut reciprocals = Vec::new();
        for (mi, ti, label, t) in setup.columns() {
            let (bm, bc) = setup.column(&pb, mi, ti);
            let (tm, tc) = setup.column(&pt, mi, ti);
            lb.push(bm);
            lt.push(tm);
            any_met = Some(any_met.unwrap_or(false) || t.met(tm));
            let _ = writeln!(
                md,
                "| {} | {:.3} ± {:.3} | {bm:.3} ± {bc:.3} | {tm:.3} ± {tc:.3} | {} |",
                label,
                t.centre,
                t.half_width,
                if t.met(tm) { "yes" } else { "no" }
            );
            if matches!(t.measure, targets::Measure::Ratio(..)) {
                reciprocals.push(format!(
                    "{label}: base {}, tuned {}",
                    reciprocal(bm, bc),
                    reciprocal(tm, tc)
                ));
            }
        }
        if !reciprocals.is_empty() {
            // Issue 37: the purchase rate read one way, as moves between purchases per
            // player, is the reciprocal of the share a ratio target measures.
            let _ = writeln!(
                md,
                "\nRatios read the other way up (1/x, e.g. moves between purchases per player for a purchase share; the interval's ends inverted): {}.",
                reciprocals.join("; ")
            );
        }
        if setup.members.len() > 1 {
            // Whether the tuned table's verdict holds for every member (issue 37).
            let labels: Vec<&str> = setup.members.iter().map(|m| m.label.as_str()).collect();
            let mut at = 0;
            let holds: Vec<Option<bool>> = setup
                .members
                .iter()
                .map(|m| {
                    let met = m
                        .targets
                        .iter()
                        .zip(&lt[at..at + m.targets.len()])
                        .all(|(t, v)| t.met(*v));
                    at += m.targets.len();
                    Some(met)
                })
                .collect();
            let _ = writeln!(
                md,
                "\n{}",
                crate::studies::panel::verdict_over_members(
                    "The tuned table meets every target at the mean",
                    &labels,
                    &holds
                )
            );
        }
        let (loss_base, loss_tuned) = (setup.loss(&lb), setup.loss(&lt));
        let _ = writeln!(
            md,
            "\nLoss (sum of weight·((mean − centre)/half-width)² over a member's targets, the worst member's with a panel; every target is met when each term is at most its weight): base {loss_base:.3}, tuned {loss_tuned:.3}.",
        );
        confirmed = Some((loss_base, loss_tuned));
    }
    let _ = writeln!(
        md,
        "\n## Trajectories\n\n![loss per iteration](loss.svg)\n\n![parameters per iteration (the estimate)](params.svg)\n\n## Overhead\n\nGame time {:.1} s over {} games; the tuner's own work (target values, loss, optimiser, files) {:.3} s: {:.2}% of game time.",
        ck.game_secs,
        ck.games_played,
        ck.overhead_secs,
        100.0 * ck.overhead_secs / ck.game_secs.max(1e-9)
    );
    let mut summary = summary_lines(args, setup, ck, confirmed);
    summary.extend(bounds_hint(args, setup, &tuned, any_met));
    let _ = writeln!(md, "\n## Summary\n");
    for l in &summary {
        let _ = writeln!(md, "- {l}");
    }
    write_atomic(&args.out.join("report.md"), md.as_bytes())?;
    for l in &summary {
        crate::util::outln!("{l}");
    }
    Ok(())
}

/// The parameters whose tuned value sits on one of its bounds, by name.
pub(super) fn at_bounds(setup: &Setup, tuned: &[f64]) -> Vec<String> {
    setup
        .space
        .params
        .iter()
        .zip(tuned)
        .filter(|(p, v)| {
            let slack = if p.integer {
                0.5
            } else {
                1e-6 * (p.max - p.min).abs()
            };
            **v <= p.min + slack || **v >= p.max - slack
        })
        .map(|(p, _)| p.name.clone())
        .collect()
}

/// What to change when the tuned table ends on its bounds (issue 68): with no target met
/// the run says which flags would buy more (the bounds in the `--space` file, or the
/// budget: `--iterations`, `--games`), instead of leaving the designer with a table
/// pressed against its limits and no reason. Nothing when no parameter is on a bound.
/// Test: `tune::tests::a_table_on_its_bounds_gets_a_budget_hint`.
pub(super) fn bounds_hint(
    args: &TuneArgs,
    setup: &Setup,
    tuned: &[f64],
    any_met: Option<bool>,
) -> Option<String> {
    let on = at_bounds(setup, tuned);
    if on.is_empty() {
        return None;
    }
    let names = on.join(", ");
    let widen = format!(
        "the bounds bind: widen them in the space file (--space {}) if the rules allow",
        args.space.display()
    );
    let budget = format!(
        "or the budget is too small to move back inside: raise --iterations (now {}) or --games (now {} per point)",
        args.iterations, args.games
    );
    Some(match any_met {
        Some(false) => format!(
            "No target is met and the tuned table sits on its bounds for {names}: {widen}, {budget}."
        ),
        None => format!(
            "The tuned table sits on its bounds for {names} (not confirmed: --confirm-games 0): {widen}, {budget}."
        ),
        Some(true) => format!(
            "The tuned table sits on its bounds for {names}: {widen}."
        ),
    })
}

/// `1/x [1/(x+h), 1/(x−h)]`; the upper end is unbounded when the interval reaches 0.
pub(super) fn reciprocal(x: f64, h: f64) -> String {
    if x <= 0.0 {
        return "unbounded (mean 0)".into();
    }
    let hi = if x - h > 0.0 {
        format!("{:.2}", 1.0 / (x - h))
    } else {
        "∞".into()
    };
    format!("{:.2} [{:.2}, {hi}]", 1.0 / x, 1.0 / (x + h))
}

/// The point played with the lowest loss, from `iterations.csv`'s lines (loss in column
/// 3, then the `n` parameters as the file records them): its loss, where it was played
/// and its parameters.
pub(super) fn best_played(csv_lines: &[String], n: usize) -> Option<(f64, String, Vec<f64>)> {
    csv_lines
        .iter()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let loss = f.get(2)?.parse::<f64>().ok()?;
            let x = f
                .get(3..3 + n)?
                .iter()
                .map(|v| v.parse::<f64>().ok())
                .collect::<Option<Vec<f64>>>()?;
            Some((loss, format!("iteration {}, {}", f[0], f[1]), x))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// One progress line: the last iteration's losses and the estimate.
pub(super) fn progress_line(setup: &Setup, ck: &Checkpoint) -> String {
    let last: Vec<f64> = ck
        .csv_lines
        .iter()
        .rev()
        .take_while(|l| l.split(',').next() == Some(&ck.done.to_string()))
        .filter_map(|l| l.split(',').nth(2)?.parse::<f64>().ok())
        .collect();
    let loss = if last.is_empty() {
        "–".to_string()
    } else {
        format!("{:.3}", last.iter().copied().fold(f64::INFINITY, f64::min))
    };
    format!(
        "best loss this iteration {loss} | estimate {}",
        setup.point_label(&estimate(setup, &ck.state))
    )
}

/// The end of a run in plain sentences (issue 39): the best loss played, where the
/// table was written, and, from the confirmation run, whether it beats the base table
/// (said plainly when it does not).
fn summary_lines(
    args: &TuneArgs,
    setup: &Setup,
    ck: &Checkpoint,
    confirmed: Option<(f64, f64)>,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some((l, at, _)) = best_played(&ck.csv_lines, setup.space.params.len()) {
        // Rows with a loss are played points; `estimate` rows have none.
        let played = ck
            .csv_lines
            .iter()
            .skip(1)
            .filter(|line| {
                line.split(',')
                    .nth(2)
                    .is_some_and(|f| f.parse::<f64>().is_ok())
            })
            .count();
        out.push(format!(
            "Best loss among the {played} points played: {l:.3} ({at}); the tuned table is the optimiser's final estimate, not that point (its table: {}, to confirm apart: its loss was measured on few games and favours luck).",
            args.out.join("lowest-loss.toml").display()
        ));
    }
    out.push(format!(
        "Tuned table written to {} (report: {}).",
        args.out.join("best.toml").display(),
        args.out.join("report.md").display()
    ));
    if !setup.space.constraints.is_empty() {
        out.push(format!(
            "The space file's {} constraint(s) hold in best.toml (enforced after rounding).",
            setup.space.constraints.len()
        ));
    }
    out.push(match confirmed {
        Some((base, tuned)) if tuned > base => format!(
            "WORSE THAN THE BASE TABLE: in the confirmation run best.toml has loss {tuned:.3} against the base table's {base:.3}; keep the base table or tune again."
        ),
        Some((base, tuned)) => format!(
            "Confirmation run: best.toml has loss {tuned:.3} against the base table's {base:.3}."
        ),
        None => "No confirmation run (--confirm-games 0): whether best.toml beats the base table is not measured.".to_string(),
    });
    out
}

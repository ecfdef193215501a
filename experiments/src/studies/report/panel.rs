//! `balance --panel FILE` (issue 37): every member of a panel ([`crate::studies::panel`])
//! plays self-play of the variant into `<out>/<label>`, and, beside it, the same member
//! plays orthodox chess from the same kind of opening suite into `<out>/chess/<label>`;
//! `<out>/report.md` gives each figure per member, says whether "the first seat scores
//! above ½" holds for every member, and reads "White scores X in orthodox chess and Y
//! here" per member, with intervals over colour-swapped pairs, or over book openings
//! where an opening was played by several pairs ([`crate::stats::metrics::Metrics::edge`]).
//!
//! Decisions: the orthodox runs are played whenever the variant is not chess itself,
//! unless `--no-chess` (the comparison is the point of a panel balance); "the same kind
//! of opening suite" is the same `--random-opening-plies`/`--opening-plies`, or, with a
//! suite file (`--openings`), the orthodox suite given by `--chess-openings` (refused
//! without one, since a variant's suite is no chess position); `--split` applies to the
//! variant's runs only (chess has no variant tallies). A member "shows an edge" when its
//! interval is clear of ½; the difference to chess is of independent runs;
//! `--chess-from DIR` reads the orthodox runs of an earlier `balance --variant chess
//! --panel` instead of playing them, after checking each is the member's self-play by
//! today's generation of the agents with as many games and the same kind of openings
//! (`rule_panel_reuses_the_orthodox_runs_of_chess_from`). Tests:
//! `experiments/tests/panel_cli.rs` (`rule_panel_balance_reports_each_member_beside_chess`,
//! `rule_panel_bad_input_is_refused_before_play`).

use super::*;
use crate::studies::panel::{verdict_over_members, Panel};

/// `balance --panel`: check everything, play every member (and its orthodox run), write
/// the panel report.
pub(super) fn run_panel(args: &BalanceArgs, path: &Path) -> Result<()> {
    if !args.run.agents.trim().is_empty() {
        bail!("--panel gives the agents of every run; leave out --agents");
    }
    let panel = Panel::load(path)?;
    let variant = args.run.variant.variant.clone();
    let params = args.run.variant.params_text()?;
    let specs: Vec<String> = panel.members.iter().map(|m| m.agent.clone()).collect();
    check_specs(&variant, params.as_deref(), &specs, &panel)?;
    let beside = variant != "chess" && !args.no_chess;
    if variant == "chess" && args.chess_from.is_some() {
        bail!("--chess-from gives the orthodox runs beside a variant; --variant chess has none");
    }
    if let Some(from) = &args.chess_from {
        for m in &panel.members {
            check_chess_run(&from.join(&m.label), m, args)?;
        }
    } else if beside {
        check_specs("chess", None, &specs, &panel)?;
        if args.run.openings.is_some() && args.chess_openings.is_none() {
            bail!(
                "--panel with --openings plays orthodox chess beside {variant} from a chess suite: \
                 give it with --chess-openings FILE (`chesslab openings --variant chess`), or pass --no-chess"
            );
        }
    } else if args.chess_openings.is_some() {
        bail!(
            "--chess-openings is only used beside a variant other than chess (without --no-chess)"
        );
    }
    let base = tournament::out_dir(&args.run);
    for (k, m) in panel.members.iter().enumerate() {
        let mut one = args.clone();
        one.panel = None;
        one.run.agents = format!("{},{}", m.agent, m.agent);
        one.run.out = Some(base.join(&m.label));
        outln!(
            "member {} of {} ({}): {} self-play, {variant}",
            k + 1,
            panel.members.len(),
            m.label,
            m.agent
        );
        run_one_balance(&one)?;
        if INTERRUPTED.load(Ordering::SeqCst) {
            return Ok(());
        }
        if beside && args.chess_from.is_none() {
            let mut c = one.clone();
            c.run.variant.variant = "chess".into();
            c.run.variant.params = None;
            c.run.openings = args.chess_openings.clone();
            c.options = c.options.beside_orthodox();
            c.run.out = Some(base.join("chess").join(&m.label));
            outln!("member {} ({}): orthodox chess beside it", k + 1, m.label);
            run_one_balance(&c)?;
            if INTERRUPTED.load(Ordering::SeqCst) {
                return Ok(());
            }
        }
    }
    write_panel_of(args, &panel, &base, beside)
}

/// The panel report of finished member runs: `<base>/<label>` for the variant and, when
/// `beside`, `<chess-from or base/chess>/<label>` for orthodox chess (`balance --panel`
/// after its games, and `report --again`).
pub(super) fn write_panel_of(
    args: &BalanceArgs,
    panel: &Panel,
    base: &Path,
    beside: bool,
) -> Result<()> {
    let chess_dir = |label: &str| match &args.chess_from {
        Some(from) => from.join(label),
        None => base.join("chess").join(label),
    };
    let figs = |dirs: Vec<PathBuf>| {
        dirs.iter()
            .map(|d| RunFigures::of_folder(d, None))
            .collect::<Result<Vec<_>>>()
    };
    let here = figs(panel.members.iter().map(|m| base.join(&m.label)).collect())?;
    let chess = if beside {
        Some(figs(
            panel.members.iter().map(|m| chess_dir(&m.label)).collect(),
        )?)
    } else {
        None
    };
    let links: Vec<String> = match &args.chess_from {
        Some(from) => panel
            .members
            .iter()
            .map(|m| link_from(base, &from.join(&m.label)))
            .collect(),
        None => panel
            .members
            .iter()
            .map(|m| format!("chess/{}", m.label))
            .collect(),
    };
    write_panel(
        &base.join("report.md"),
        panel,
        &here,
        chess.as_deref(),
        &links,
    )
}

/// `--chess-from`: the member's orthodox run in `dir` is finished and comparable: its
/// run.json names the member's self-play, today's generation of the agents, as many
/// games as this call plays and the same kind of openings; its games.csv holds them all.
/// Refused before anything is played, naming what differs.
fn check_chess_run(
    dir: &Path,
    m: &crate::studies::panel::Member,
    args: &BalanceArgs,
) -> Result<()> {
    let run = dir.join("run.json");
    let what = || format!("--chess-from: member '{}': {}", m.label, run.display());
    let text = std::fs::read_to_string(&run).with_context(|| {
        format!(
            "{}: cannot be read (play it with `balance --variant chess --panel ...`)",
            what()
        )
    })?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .ok()
        .filter(|v: &serde_json::Value| v.get("agents").is_some_and(|a| a.is_array()))
        .ok_or_else(|| anyhow!("{}: not a run description", what()))?;
    if v["variant"] != "chess" {
        bail!("{}: variant {} is not orthodox chess", what(), v["variant"]);
    }
    let agents: Vec<&str> = v["agents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a.as_str())
        .collect();
    if agents != [m.agent.as_str(), m.agent.as_str()] {
        bail!(
            "{}: agents {:?}, not the member's self-play ('{}')",
            what(),
            agents,
            m.agent
        );
    }
    if v["agents_epoch"].as_u64() != Some(u64::from(agents::EPOCH)) {
        bail!(
            "{}: played by generation {} of the agents, not today's {} (play it again)",
            what(),
            v["agents_epoch"],
            agents::EPOCH
        );
    }
    if v["total_games"].as_u64() != Some(args.run.games) {
        bail!(
            "{}: {} games, this call plays {}",
            what(),
            v["total_games"],
            args.run.games
        );
    }
    let suite = v["openings_file"].is_string();
    if suite != args.run.openings.is_some() {
        bail!(
            "{}: {} openings, this call {}: not the same kind of opening suite",
            what(),
            if suite { "suite" } else { "random-ply" },
            if args.run.openings.is_some() {
                "a suite"
            } else {
                "random plies"
            }
        );
    }
    if !suite
        && v["random_opening_plies"].as_u64() != Some(u64::from(args.run.random_opening_plies))
    {
        bail!(
            "{}: {} random opening plies, this call {}",
            what(),
            v["random_opening_plies"],
            args.run.random_opening_plies
        );
    }
    let rows = crate::record::load(&dir.join("games.csv"))
        .with_context(|| format!("--chess-from: member '{}'", m.label))?;
    if (rows.rows.len() as u64) < args.run.games || rows.truncated_tail {
        bail!(
            "{}: {} finished games of {}: finish it first (`--resume`)",
            what(),
            rows.rows.len(),
            args.run.games
        );
    }
    Ok(())
}

/// A relative link from the panel report's folder to `target` (both relative to the
/// working directory or both absolute).
fn link_from(base: &Path, target: &Path) -> String {
    let abs = |p: &Path| {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir().unwrap_or_default().join(p)
        }
    };
    let (b, t) = (abs(base), abs(target));
    let bc: Vec<_> = b.components().collect();
    let tc: Vec<_> = t.components().collect();
    let common = bc.iter().zip(&tc).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".into(); bc.len() - common];
    parts.extend(
        tc[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Every member's spec is an agent `variant` accepts.
fn check_specs(variant: &str, params: Option<&str>, specs: &[String], panel: &Panel) -> Result<()> {
    struct Check<'a>(&'a [String], &'a Panel);
    impl VariantVisitor for Check<'_> {
        type Output = Result<()>;
        fn visit<G: Game>(self, name: &'static str, _params: G::Params) -> Result<()> {
            for (spec, m) in self.0.iter().zip(&self.1.members) {
                agents::registry::validate::<G>(spec)
                    .map_err(|e| anyhow!(e))
                    .with_context(|| {
                        format!("--panel member '{}' ('{spec}') on {name}", m.label)
                    })?;
            }
            Ok(())
        }
    }
    engine::registry::visit(variant, params, Check(specs, panel))
        .with_context(|| format!("variant '{variant}'"))?
}

/// `white` → `White`, for a seat name opening a sentence.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Whether an estimate is clear above ½ (`Some(true)`), clear below (`Some(false)`) or
/// covers it (`None`).
fn above_half(e: &Estimate) -> Option<bool> {
    if e.half.is_nan() {
        None
    } else if e.mean - e.half > 0.5 {
        Some(true)
    } else if e.mean + e.half < 0.5 {
        Some(false)
    } else {
        None
    }
}

/// The panel report (`<out>/report.md`).
pub(super) fn write_panel(
    out: &Path,
    panel: &Panel,
    here: &[RunFigures],
    chess: Option<&[RunFigures]>,
    chess_links: &[String],
) -> Result<()> {
    let seat = here[0].seat0.clone();
    let variant = &here[0].variant;
    let mut md = String::new();
    let _ = writeln!(md, "# Panel balance — {variant}, panel '{}'\n", panel.name);
    let _ = writeln!(
        md,
        "Each member plays self-play (colour-swapped pairs) of {variant}{}. Every game was \
         replayed from its record. Intervals are 95%, the first seat's over pairs (a pair \
         whose two games are the same game counts once), or over openings (the pairs of \
         one book opening as one sample) where a book opening was played by several pairs.\n",
        if chess.is_some() {
            ", and the same member orthodox chess from the same kind of opening suite"
        } else {
            ""
        }
    );
    if let Some(note) = panel.size_note() {
        let _ = writeln!(md, "**Note:** {note}\n");
    }
    // Ratings of the generation that played each member's run, as the member reports.
    let epochs: Vec<Option<u32>> = here
        .iter()
        .map(|r| crate::stats::strength::epoch_of_run(&r.dir.join("run.json")))
        .collect();
    md.push_str(&panel.table_at(&epochs));
    md.push('\n');
    let _ = writeln!(
        md,
        "| member | rating | games (distinct) | {seat}'s score here | White in orthodox chess | here − chess | draws here | length here |\n|---|---|---|---|---|---|---|---|"
    );
    for (k, (m, r)) in panel.members.iter().zip(here).enumerate() {
        let e = r.metrics.edge();
        let (c, d) = match chess {
            Some(ch) => {
                let ce = ch[k].metrics.edge();
                let d = ce.diff(e);
                let dt = if d.clear_of_zero() {
                    format!("**{}**", d.fmt(3))
                } else {
                    d.fmt(3)
                };
                (
                    format!(
                        "[{}]({}/report.md) ({} games, {} distinct)",
                        ce.fmt(3),
                        chess_links[k],
                        ch[k].metrics.games,
                        ch[k].metrics.whole.distinct
                    ),
                    dt,
                )
            }
            None => ("–".into(), "–".into()),
        };
        let _ = writeln!(
            md,
            "| [{}]({}/report.md) | {} | {} ({}) | {} | {c} | {d} | {} | {} |",
            m.label,
            m.label,
            m.rating_cell_at(epochs[k]),
            r.metrics.games,
            r.metrics.whole.distinct,
            e.fmt(3),
            r.metrics.drawishness.fmt_pct(),
            r.metrics.duration.fmt(1)
        );
    }
    let labels: Vec<&str> = panel.members.iter().map(|m| m.label.as_str()).collect();
    let _ = writeln!(md, "\n## Verdicts\n");
    let edge: Vec<Option<bool>> = here.iter().map(|r| above_half(r.metrics.edge())).collect();
    let first = verdict_over_members(
        &format!("{} scores above ½ in {variant}", capitalised(&seat)),
        &labels,
        &edge,
    );
    let _ = writeln!(md, "- {first}");
    let mut summary = vec![first];
    if let Some(ch) = chess {
        for (k, m) in panel.members.iter().enumerate() {
            let line = format!(
                "{}: White scores {} in orthodox chess and {} here ({seat}'s score).",
                m.label,
                ch[k].metrics.edge().fmt(3),
                here[k].metrics.edge().fmt(3)
            );
            let _ = writeln!(md, "- {line}");
            summary.push(line);
        }
        let differs: Vec<Option<bool>> = ch
            .iter()
            .zip(here)
            .map(|(c, r)| {
                let d = c.metrics.edge().diff(r.metrics.edge());
                d.clear_of_zero().then_some(true)
            })
            .collect();
        let line = verdict_over_members(
            &format!(
                "{}'s score in {variant} differs from White's in orthodox chess",
                capitalised(&seat)
            ),
            &labels,
            &differs,
        );
        let _ = writeln!(md, "- {line}");
        summary.push(line);
        let shows: Vec<&str> = ch
            .iter()
            .zip(&labels)
            .filter(|(c, _)| above_half(c.metrics.edge()) == Some(true))
            .map(|(_, l)| *l)
            .collect();
        let line = if shows.is_empty() {
            format!(
                "Orthodox White's edge does not show for any member (every orthodox interval reaches ½): \
                 the panel is too weak to tell whether {variant} changes it."
            )
        } else {
            format!(
                "Orthodox White's edge shows for {} (interval clear above ½): those members can tell whether {variant} changes it.",
                shows.join(", ")
            )
        };
        let _ = writeln!(md, "- {line}");
        summary.push(line);
    }
    for r in here.iter().chain(chess.unwrap_or(&[])) {
        for w in r.metrics.warnings() {
            let _ = writeln!(md, "\n**Warning ({}):** {w}.", r.dir.display());
        }
    }
    record::write_atomic(out, md.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    for line in summary {
        outln!("{line}");
    }
    outln!("report: {}", out.display());
    Ok(())
}

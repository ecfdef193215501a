//! Strength ladders and comparisons: `balance --ladder` / `--compare` (the runs played
//! into rungs or sides) and `report --ladder` / `--compare` over finished folders, with
//! the edge's trend ([`edge_trend`]).

use super::*;

/// A finished run's figures, for ladders and comparisons.
pub(super) struct RunFigures {
    pub(super) label: String,
    pub(super) dir: PathBuf,
    pub(super) variant: String,
    pub(super) digest: String,
    pub(super) agents: String,
    /// The agents' measured chess strength ([`crate::stats::strength`]), one cell per agent.
    pub(super) strength: String,
    pub(super) seat0: String,
    pub(super) metrics: Metrics,
}

impl RunFigures {
    /// Replays a run folder's games.csv (its own report is not rewritten).
    pub(super) fn of_folder(dir: &Path, title: Option<String>) -> Result<RunFigures> {
        let games = dir.join("games.csv");
        let a = analyse(&games, None, &[], title, None, None)
            .with_context(|| format!("run folder {}", dir.display()))?;
        let mut agents: Vec<String> = a.games.iter().flat_map(|g| g.agents.clone()).collect();
        agents.sort();
        agents.dedup();
        let epoch = crate::stats::strength::epoch_of_run(&dir.join("run.json"));
        let mut cells: Vec<String> = agents
            .iter()
            .map(|a| crate::stats::strength::cell_at(a, epoch))
            .collect();
        cells.dedup();
        Ok(RunFigures {
            strength: cells.join(" vs "),
            label: dir
                .file_name()
                .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into()),
            dir: dir.to_path_buf(),
            digest: a.digest,
            agents: agents.join(" vs "),
            seat0: a.report.seat_name(0),
            metrics: a.metrics,
            variant: a.variant,
        })
    }
}

/// The link from the report `out` to the run folder `dir`: the path of `dir` relative to
/// `out`'s folder, so a ladder or comparison written away from its runs (`--out
/// elsewhere/compare.md`) still links them. Falls back to `dir` as given when either path
/// cannot be resolved. Test: `rule_compare_links_its_runs_from_anywhere`.
pub(super) fn link_from(out: &Path, dir: &Path) -> String {
    let from = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (Ok(from), Ok(to)) = (from.canonicalize(), dir.canonicalize()) else {
        return dir.display().to_string().trim_end_matches('/').to_string();
    };
    let (f, t): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut rel = PathBuf::new();
    for _ in common..f.len() {
        rel.push("..");
    }
    for c in &t[common..] {
        rel.push(c);
    }
    if rel.as_os_str().is_empty() {
        ".".to_string()
    } else {
        rel.to_string_lossy().replace('\\', "/")
    }
}

/// Ladders and comparisons are within one variant.
pub(super) fn same_variant(runs: &[RunFigures]) -> Result<()> {
    if let Some(other) = runs.iter().find(|r| r.variant != runs[0].variant) {
        bail!(
            "{} is a run of {} but {} is a run of {}: a ladder or a comparison needs one variant",
            runs[0].dir.display(),
            runs[0].variant,
            other.dir.display(),
            other.variant
        );
    }
    Ok(())
}

/// What the change of the first seat's edge from the weakest to the strongest rung says.
pub fn edge_trend(first: &Estimate, last: &Estimate) -> (Estimate, &'static str) {
    let e0 = (first.mean - 0.5).abs();
    let e1 = (last.mean - 0.5).abs();
    let change = Estimate {
        mean: e1 - e0,
        half: (first.half.powi(2) + last.half.powi(2)).sqrt(),
    };
    let level = |e: &Estimate| !e.half.is_nan() && (e.mean - 0.5).abs() <= e.half;
    let verdict = if (first.mean - 0.5) * (last.mean - 0.5) < 0.0 && !level(first) && !level(last) {
        "changes sides: the edge passes to the other seat as play gets stronger"
    } else if change.clear_of_zero() && change.mean > 0.0 {
        "grows with strength: the imbalance looks like a property of the rules that better play exploits"
    } else if change.clear_of_zero() && change.mean < 0.0 {
        "fades with strength: better play neutralises it"
    } else if level(first) && level(last) {
        "is not detectable at either end of the ladder"
    } else {
        "does not change detectably between the weakest and the strongest rung"
    };
    (change, verdict)
}

pub(super) fn write_ladder(out: &Path, runs: &[RunFigures]) -> Result<()> {
    let seat = runs[0].seat0.clone();
    let mut md = String::new();
    let _ = writeln!(md, "# Strength ladder — {}\n", runs[0].variant);
    let _ = writeln!(
        md,
        "The same rule set at each strength, weakest first: every rung is self-play of its \
         agent (colour-swapped pairs), replayed from its `games.csv`. Intervals are 95%; the \
         first seat's is over openings where a book opening was played by several pairs.\n"
    );
    let _ = writeln!(
        md,
        "| rung | agents | chess Elo | games | {seat}'s score | draws | decisive | length | lead changes / action | drama | distinct 8-action lines |\n|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for r in runs {
        let m = &r.metrics;
        let _ = writeln!(
            md,
            "| [{}]({}/report.md) | `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.label,
            link_from(out, &r.dir),
            r.agents,
            r.strength,
            m.games,
            m.edge().fmt(3),
            m.drawishness.fmt_pct(),
            m.decisiveness.fmt_pct(),
            m.duration.fmt(1),
            m.lead_changes.map_or("–".into(), |e| e.fmt(3)),
            m.drama.map_or("–".into(), |e| e.fmt_pct()),
            m.diversity[1].distinct
        );
    }
    let _ = writeln!(
        md,
        "\nchess Elo: {} (`*`: measured without the `noise` setting; `—`: not measured).",
        crate::stats::strength::SCALE
    );
    let first = &runs[0].metrics;
    let last = &runs[runs.len() - 1].metrics;
    let (change, verdict) = edge_trend(first.edge(), last.edge());
    let draws = first.drawishness.diff(&last.drawishness);
    let length = first.duration.diff(&last.duration);
    let _ = writeln!(md, "\n## Reading\n");
    let _ = writeln!(
        md,
        "From `{}` to `{}`, {seat}'s edge (|score − ½|) moves by {} and {verdict}. \
         The draw rate moves by {} points, the mean length by {} actions.\n",
        runs[0].label,
        runs[runs.len() - 1].label,
        change.fmt(3),
        Estimate {
            mean: 100.0 * draws.mean,
            half: 100.0 * draws.half
        }
        .fmt(1),
        length.fmt(1)
    );
    let plots = PlotNames::beside(out);
    let points: Vec<(String, Estimate)> = runs
        .iter()
        .map(|r| (r.label.clone(), *r.metrics.edge()))
        .collect();
    crate::studies::report::plots::ladder(&plots.path("ladder"), &points, &seat)?;
    let _ = writeln!(md, "![{seat}'s score by rung]({})\n", plots.name("ladder"));
    for r in runs {
        for w in r.metrics.warnings() {
            let _ = writeln!(md, "**Warning ({}):** {w}.\n", r.label);
        }
    }
    record::write_atomic(out, md.as_bytes())
        .with_context(|| format!("cannot write --out {}", out.display()))?;
    outln!(
        "ladder of {} rungs: {seat}'s edge {verdict} (change {})",
        runs.len(),
        change.fmt(3)
    );
    outln!("report: {}", out.display());
    Ok(())
}

pub(super) fn write_compare(out: &Path, a: &RunFigures, b: &RunFigures) -> Result<()> {
    let seat = a.seat0.clone();
    let mut md = String::new();
    let _ = writeln!(md, "# Rule sets compared — {}\n", a.variant);
    let _ = writeln!(
        md,
        "A: [{}]({}/report.md) (parameter digest `{}`, agents `{}`), B: [{}]({}/report.md) \
         (digest `{}`, agents `{}`). Each figure with its 95% interval; B − A with the \
         interval of a difference of independent runs.\n",
        a.label,
        link_from(out, &a.dir),
        a.digest,
        a.agents,
        b.label,
        link_from(out, &b.dir),
        b.digest,
        b.agents
    );
    let _ = writeln!(md, "| figure | A | B | B − A |\n|---|---|---|---|");
    let rows = a.metrics.rows().into_iter().zip(b.metrics.rows());
    for ((name, ea, pct), (_, eb, _)) in rows {
        let f = |e: &Estimate| if pct { e.fmt_pct() } else { e.fmt(3) };
        let (ta, tb) = (
            ea.as_ref().map_or("–".into(), f),
            eb.as_ref().map_or("–".into(), f),
        );
        let d = match (ea, eb) {
            (Some(x), Some(y)) => {
                let d = x.diff(&y);
                let text = if pct {
                    format!("{:+.1} ± {:.1} points", 100.0 * d.mean, 100.0 * d.half)
                } else {
                    format!("{:+.3} ± {:.3}", d.mean, d.half)
                };
                if d.clear_of_zero() {
                    format!("**{text}**")
                } else {
                    text
                }
            }
            _ => "–".into(),
        };
        let _ = writeln!(md, "| {name} | {ta} | {tb} | {d} |");
    }
    let (ma, mb) = (&a.metrics.diversity[1], &b.metrics.diversity[1]);
    let _ = writeln!(
        md,
        "| distinct 8-action lines | {} of {} | {} of {} | |",
        ma.distinct, a.metrics.games, mb.distinct, b.metrics.games
    );
    let _ = writeln!(
        md,
        "\nDifferences in bold have intervals that exclude zero. {seat}'s score is the \
         first-move advantage.\n"
    );
    for (r, tag) in [(a, "A"), (b, "B")] {
        for w in r.metrics.warnings() {
            let _ = writeln!(md, "**Warning ({tag}):** {w}.\n");
        }
    }
    record::write_atomic(out, md.as_bytes())
        .with_context(|| format!("cannot write --out {}", out.display()))?;
    let d = a.metrics.edge().diff(b.metrics.edge());
    outln!(
        "{seat}'s score: A {}, B {}, B − A {}",
        a.metrics.edge().fmt(3),
        b.metrics.edge().fmt(3),
        d.fmt(3)
    );
    outln!("report: {}", out.display());
    Ok(())
}

/// The rungs of `--ladder`: at least two specs, each an agent this variant accepts.
pub(super) fn ladder_rungs(variant: &str, params: Option<&str>, text: &str) -> Result<Vec<String>> {
    let rungs: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if rungs.len() < 2 {
        bail!(
            "--ladder '{text}': a ladder needs at least two rungs (agent specs separated by spaces), got {}",
            rungs.len()
        );
    }
    struct Check<'a>(&'a [String]);
    impl VariantVisitor for Check<'_> {
        type Output = Result<()>;
        fn visit<G: Game>(self, _name: &'static str, _params: G::Params) -> Result<()> {
            for (k, spec) in self.0.iter().enumerate() {
                agents::registry::validate::<G>(spec)
                    .map_err(|e| anyhow!(e))
                    .with_context(|| format!("--ladder rung {} '{spec}'", k + 1))?;
            }
            Ok(())
        }
    }
    engine::registry::visit(variant, params, Check(&rungs))
        .with_context(|| format!("variant '{variant}'"))??;
    Ok(rungs)
}

/// `balance --ladder`: one self-play balance run per rung, then the ladder report.
pub(super) fn run_ladder(args: &BalanceArgs, text: &str) -> Result<()> {
    if !args.run.agents.trim().is_empty() {
        bail!("--ladder gives the agents of every rung; leave out --agents");
    }
    let params = args.run.variant.params_text()?;
    let rungs = ladder_rungs(&args.run.variant.variant, params.as_deref(), text)?;
    let base = tournament::out_dir(&args.run);
    let mut dirs = Vec::new();
    for (k, spec) in rungs.iter().enumerate() {
        let mut one = args.clone();
        one.ladder = None;
        one.run.agents = format!("{spec},{spec}");
        let dir = base.join(format!("rung-{}", k + 1));
        one.run.out = Some(dir.clone());
        outln!("rung {} of {}: {spec} self-play", k + 1, rungs.len());
        run_one_balance(&one)?;
        if INTERRUPTED.load(Ordering::SeqCst) {
            return Ok(());
        }
        dirs.push(dir);
    }
    let figures = dirs
        .iter()
        .map(|d| RunFigures::of_folder(d, None))
        .collect::<Result<Vec<_>>>()?;
    write_ladder(&base.join("report.md"), &figures)
}

/// `balance --compare a.toml b.toml`: the same run under each parameter file.
pub(super) fn run_compare(args: &BalanceArgs) -> Result<()> {
    if args.run.variant.params.is_some() {
        bail!("--compare gives the parameter files; leave out --params");
    }
    let variant = &args.run.variant.variant;
    // Both files are read as this variant's parameters before anything is played: a
    // file written for another variant fails here (unknown or missing keys).
    for p in &args.compare {
        let text = crate::run::variant_args::read_params_file(p)?;
        engine::registry::visit(variant, Some(&text), NoOp).with_context(|| {
            format!(
                "--compare {}: not a parameter file of {variant}",
                p.display()
            )
        })?;
    }
    if args.compare[0] == args.compare[1] {
        bail!("--compare: the two parameter files are the same file");
    }
    let base = tournament::out_dir(&args.run);
    let mut dirs = Vec::new();
    for (tag, p) in ["a", "b"].iter().zip(&args.compare) {
        let mut one = args.clone();
        one.compare = Vec::new();
        one.run.variant.params = Some(p.clone());
        let dir = base.join(tag);
        one.run.out = Some(dir.clone());
        outln!("rule set {}: {}", tag.to_uppercase(), p.display());
        run_one_balance(&one)?;
        if INTERRUPTED.load(Ordering::SeqCst) {
            return Ok(());
        }
        dirs.push(dir);
    }
    let figures = dirs
        .iter()
        .map(|d| RunFigures::of_folder(d, None))
        .collect::<Result<Vec<_>>>()?;
    write_compare(&base.join("report.md"), &figures[0], &figures[1])
}

pub(super) struct NoOp;

impl VariantVisitor for NoOp {
    type Output = ();
    fn visit<G: Game>(self, _name: &'static str, _params: G::Params) {}
}

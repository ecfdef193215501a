//! `generate`: a course of holes dealt, solved and graded, written as text, JSON and HTML.

use super::*;

#[derive(Serialize, Debug, Clone)]
pub(super) struct HoleRecord {
    pub(super) hole: usize,
    /// The problem, one-line format.
    pub(super) problem: String,
    /// The problem, board format.
    pub(super) board: String,
    pub(super) chosen: String,
    /// The proven par; `None` when the hole is impossible (only with `--as-dealt`).
    pub(super) par: Option<u32>,
    /// No sequence of moves solves the hole (only with `--as-dealt`).
    pub(super) impossible: bool,
    pub(super) optimal_solutions: u64,
    /// Legal moves in the start position.
    pub(super) branching: usize,
    pub(super) states_searched: u64,
    /// Deals discarded before this one.
    pub(super) discarded_deals: usize,
    /// Times the captured pieces were put back elsewhere (or, hole 1, the set-up laid out
    /// again) because no deal on the board was acceptable.
    pub(super) reseats: usize,
    pub(super) solution: Vec<String>,
    /// The position after the solution (one-line format).
    pub(super) final_position: String,
}

#[derive(Serialize, Debug)]
pub(super) struct CourseRecord {
    pub(super) seed: u64,
    pub(super) cards: usize,
    pub(super) min_par: u32,
    pub(super) max_par: u32,
    pub(super) unique: bool,
    /// Every deal kept as dealt (`--as-dealt`); otherwise deals outside the par range were
    /// discarded.
    pub(super) as_dealt: bool,
    pub(super) king_step: String,
    pub(super) fill_order: String,
    pub(super) return_rule: String,
    /// Sum of the proven pars (an impossible hole counts 0, the score of a correct
    /// "impossible" claim).
    pub(super) total_par: u32,
    pub(super) holes: Vec<HoleRecord>,
}

/// Consecutive unacceptable deals after which the board is re-seated.
pub(super) const RESEAT_AFTER: usize = 200;

pub(super) const RETURN_RULE: &str = "each hole starts from the previous hole's final position (after the solver's optimal solution); captured pieces return to empty squares chosen uniformly at random";

pub(super) fn generate(a: &GenerateArgs) -> Result<()> {
    let params = a.rules.params()?;
    if !(2..=16).contains(&a.cards) {
        bail!("--cards must be between 2 and 16 (got {})", a.cards);
    }
    if a.min_par > a.max_par {
        bail!("--min-par {} is above --max-par {}", a.min_par, a.max_par);
    }
    if a.holes == 0 {
        bail!("--holes must be at least 1");
    }
    if a.max_nodes == 0 {
        bail!("--max-nodes must be at least 1 (no deal can be solved with 0 nodes)");
    }
    if a.max_deals == 0 {
        bail!("--max-deals must be at least 1");
    }
    prepare_course_dir(&a.out, a.force)?;
    let mut rng = Pcg64::seed_from_u64(a.seed);
    let mut pos = GolfPosition::random_setup(&mut rng, &params);
    let mut deck = CardDeck::shuffled(&mut rng);
    let limits = SolveLimits {
        max_nodes: Some(a.max_nodes),
        count_solutions: true,
        stop: Some(&crate::run::interrupt::INTERRUPTED),
        ..SolveLimits::default()
    };
    // The course is written when every hole is graded: Ctrl-C stops the search and writes
    // nothing (a course missing holes is not a course).
    crate::run::interrupt::stop_on_ctrl_c(
        "stopping the search; no course is written (Ctrl-C again to stop now)",
        "stopped; no course was written",
    );
    let stopped = |holes: &[HoleRecord]| {
        anyhow!(
            "interrupted (Ctrl-C) after {} of {} holes; no course was written",
            holes.len(),
            a.holes
        )
    };
    let mut holes = Vec::new();
    let mut prev_end: Option<GolfPosition> = None;
    for hole in 1..=a.holes {
        if a.as_dealt {
            let chosen = KindCounts::from_pieces(&deck.deal(a.cards, &mut rng));
            let problem = pos.with_chosen(chosen);
            let (record, end) = as_dealt_hole(hole, &problem, &params, &limits).map_err(|e| {
                if interrupted() {
                    stopped(&holes)
                } else {
                    e
                }
            })?;
            holes.push(record);
            pos = match end {
                Some(end) => end.next_hole(&mut rng),
                // Nobody can demonstrate: the pieces are reset and stay where they were.
                None => problem.board_only(),
            };
            continue;
        }
        let mut discarded = 0;
        let mut reseats = 0;
        let mut tried: std::collections::HashSet<KindCounts> = Default::default();
        let (problem, r): (GolfPosition, SolveReport) = loop {
            if discarded >= a.max_deals {
                bail!(
                    "hole {hole}: no deal with par in [{}, {}]{} among {} deals; widen the range or raise --max-deals",
                    a.min_par,
                    a.max_par,
                    if a.unique { " and a unique solution" } else { "" },
                    a.max_deals
                );
            }
            if discarded > 0 && discarded % RESEAT_AFTER == 0 {
                // This board offers no acceptable deal: put the previous hole's captured
                // pieces on other empty squares (hole 1: lay out a new set-up).
                pos = match &prev_end {
                    Some(end) => end.next_hole(&mut rng),
                    None => GolfPosition::random_setup(&mut rng, &params),
                };
                tried.clear();
                reseats += 1;
            }
            let chosen = KindCounts::from_pieces(&deck.deal(a.cards, &mut rng));
            if !tried.insert(chosen) {
                discarded += 1; // already graded on this board
                continue;
            }
            let problem = pos.with_chosen(chosen);
            let r = solve(&problem, &params, &limits);
            if interrupted() {
                return Err(stopped(&holes));
            }
            let ok = match (r.outcome, r.optimal_solutions) {
                (Outcome::Par(p), Some(c)) => {
                    (a.min_par..=a.max_par).contains(&p) && (!a.unique || c == 1)
                }
                _ => false,
            };
            if ok {
                break (problem, r);
            }
            discarded += 1;
        };
        let Outcome::Par(par) = r.outcome else {
            unreachable!("accepted holes have a proven par")
        };
        let end = problem.verify_solution(&r.moves, &params).map_err(|e| {
            anyhow!("hole {hole}: internal error: the solution does not replay: {e}")
        })?;
        eprintln!(
            "hole {hole}: chosen {} par {par}, {} optimal solution(s), {} states, {} ({} deals discarded)",
            problem.chosen(),
            r.optimal_solutions.unwrap_or(0),
            r.states,
            fmt_duration(r.elapsed),
            discarded
        );
        holes.push(hole_record(
            hole,
            &problem,
            &r,
            Some(par),
            discarded,
            reseats,
            &end,
        ));
        pos = end.next_hole(&mut rng);
        prev_end = Some(end);
    }
    let course = CourseRecord {
        seed: a.seed,
        cards: a.cards,
        min_par: a.min_par,
        max_par: a.max_par,
        unique: a.unique,
        as_dealt: a.as_dealt,
        king_step: params.king_step.name().to_string(),
        fill_order: match params.fill_order {
            FillOrder::FromA1 => "from-a1".to_string(),
            FillOrder::FromA8 => "from-a8".to_string(),
        },
        return_rule: RETURN_RULE.to_string(),
        total_par: holes.iter().filter_map(|h| h.par).sum(),
        holes,
    };
    write_course(&a.out, &course, &params)
}

/// One hole of an `--as-dealt` course: `problem` is kept whatever its par. Returns the
/// record and the final position after the solver's solution (`None`: impossible).
pub(super) fn as_dealt_hole(
    hole: usize,
    problem: &GolfPosition,
    params: &GolfParams,
    limits: &SolveLimits,
) -> Result<(HoleRecord, Option<GolfPosition>)> {
    let r = solve(problem, params, limits);
    let (par, end) = match r.outcome {
        Outcome::Par(par) => {
            let end = problem.verify_solution(&r.moves, params).map_err(|e| {
                anyhow!("hole {hole}: internal error: the solution does not replay: {e}")
            })?;
            (Some(par), Some(end))
        }
        Outcome::Impossible => (None, None),
        Outcome::ParAbove(n) => bail!(
            "hole {hole} (chosen {}): par not proven within {} states (par > {n}); raise --max-nodes",
            problem.chosen(),
            limits.max_nodes.unwrap_or(u64::MAX)
        ),
    };
    eprintln!(
        "hole {hole}: chosen {} {}, {} states, {}",
        problem.chosen(),
        par.map_or("impossible".to_string(), |p| format!(
            "par {p}, {} optimal solution(s)",
            r.optimal_solutions.unwrap_or(0)
        )),
        r.states,
        fmt_duration(r.elapsed)
    );
    let record = hole_record(
        hole,
        problem,
        &r,
        par,
        0,
        0,
        end.as_ref().unwrap_or(problem),
    );
    Ok((record, end))
}

pub(super) fn hole_record(
    hole: usize,
    problem: &GolfPosition,
    r: &SolveReport,
    par: Option<u32>,
    discarded_deals: usize,
    reseats: usize,
    end: &GolfPosition,
) -> HoleRecord {
    HoleRecord {
        hole,
        problem: problem.to_fen(),
        board: problem.to_text(),
        chosen: problem.chosen().to_string(),
        par,
        impossible: par.is_none(),
        optimal_solutions: if par.is_some() {
            r.optimal_solutions.unwrap_or(0)
        } else {
            0
        },
        branching: r.root_moves,
        states_searched: r.states,
        discarded_deals,
        reseats,
        solution: r.moves.iter().map(|m| m.to_string()).collect(),
        final_position: end.to_fen(),
    }
}

/// How the holes were chosen, in words.
pub(super) fn selection(course: &CourseRecord) -> String {
    if course.as_dealt {
        "every deal kept as dealt (impossible holes included)".to_string()
    } else {
        format!(
            "deals re-dealt until par is in [{}, {}]{}",
            course.min_par,
            course.max_par,
            if course.unique {
                " with a unique optimal solution"
            } else {
                ""
            }
        )
    }
}

pub(super) fn write_file(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).with_context(|| format!("writing {}", path.display()))
}

/// The files a course owns in its folder (besides `holes/hole-NN.txt`).
pub(super) const COURSE_FILES: [&str; 4] =
    ["course.txt", "course.json", "course.html", "solutions.html"];

/// Refuses an --out that is a file, or a folder holding anything, unless `force`; with
/// `force`, removes an earlier course's files so no stale hole survives beside the new
/// course (decision: other files are the user's and stay).
pub(super) fn prepare_course_dir(dir: &Path, force: bool) -> Result<()> {
    // The shared rule (kept results get no --force hint: issue 68).
    crate::util::check_out_dir(
        dir,
        "--out",
        &[crate::util::Reuse {
            flag: "--force",
            given: force,
            does: "to replace the course there",
        }],
    )?;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    if entries.count() == 0 {
        return Ok(());
    }
    let remove = |p: &Path| -> Result<()> {
        match std::fs::remove_file(p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("removing {}", p.display()))
            }
            _ => Ok(()),
        }
    };
    for f in COURSE_FILES {
        remove(&dir.join(f))?;
    }
    let holes = dir.join("holes");
    if let Ok(entries) = std::fs::read_dir(&holes) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("hole-") && name.ends_with(".txt") {
                remove(&e.path())?;
            }
        }
        let _ = std::fs::remove_dir(&holes);
    }
    Ok(())
}

pub(super) fn write_course(dir: &Path, course: &CourseRecord, params: &GolfParams) -> Result<()> {
    let holes_dir = dir.join("holes");
    std::fs::create_dir_all(&holes_dir)
        .with_context(|| format!("creating output directory {}", holes_dir.display()))?;
    let header = format!(
        "# Chess Golf course: {} holes, {} cards, seed {}, {}\n# {}; total par {}\n# {}\n",
        course.holes.len(),
        course.cards,
        course.seed,
        describe(params),
        selection(course),
        course.total_par,
        RETURN_RULE
    );
    let mut txt = header.clone();
    for h in &course.holes {
        let block = match h.par {
            Some(par) => format!(
                "# hole {}: par {par}, {} optimal solution{}, {} legal moves at the start\n# one-line: {}\n# solution: {}\n{}\n",
                h.hole,
                h.optimal_solutions,
                if h.optimal_solutions == 1 { "" } else { "s" },
                h.branching,
                h.problem,
                h.solution.join(" "),
                h.board
            ),
            None => format!(
                "# hole {}: impossible, {} legal moves at the start\n# one-line: {}\n{}\n",
                h.hole, h.branching, h.problem, h.board
            ),
        };
        write_file(&holes_dir.join(format!("hole-{:02}.txt", h.hole)), &block)?;
        txt.push('\n');
        txt.push_str(&block);
    }
    write_file(&dir.join("course.txt"), &txt)?;
    let json = serde_json::to_string_pretty(course).context("serialising the course")?;
    write_file(&dir.join("course.json"), &(json + "\n"))?;
    write_file(
        &dir.join("course.html"),
        &course_html(course, params, false)?,
    )?;
    write_file(
        &dir.join("solutions.html"),
        &course_html(course, params, true)?,
    )?;
    eprintln!(
        "wrote {}/course.txt, course.json, course.html, solutions.html and holes/",
        dir.display()
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// HTML / SVG
// ---------------------------------------------------------------------------------------

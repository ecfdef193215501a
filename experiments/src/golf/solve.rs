//! `deal` and `solve`: one hole dealt or solved, printed as text.

use super::*;

pub(super) fn describe(params: &GolfParams) -> String {
    format!(
        "king steps {}, set-up from {}",
        params.king_step.name(),
        match params.fill_order {
            FillOrder::FromA1 => "a1",
            FillOrder::FromA8 => "a8",
        }
    )
}

pub(super) fn deal(a: &DealArgs) -> Result<()> {
    let params = a.rules.params()?;
    let cards = a.cards.unwrap_or(params.cards);
    if !(2..=16).contains(&cards) {
        bail!("--cards must be between 2 and 16 (got {cards})");
    }
    let mut rng = Pcg64::seed_from_u64(a.seed);
    let pos = random_problem(&mut rng, &params, cards);
    outln!(
        "# Chess Golf deal: seed {}, {cards} cards, {}",
        a.seed,
        describe(&params)
    );
    outln!("# one-line: {}", pos.to_fen());
    outln!("{}", pos.to_text());
    Ok(())
}

pub(super) fn read_problem(path: &Path) -> Result<GolfPosition> {
    let text = if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .context("reading the problem from standard input")?;
        s
    } else {
        std::fs::read_to_string(path)
            .with_context(|| format!("reading problem file {}", path.display()))?
    };
    GolfPosition::parse_any(&text).with_context(|| format!("parsing problem {}", path.display()))
}

pub(super) fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{:.1} us", s * 1e6)
    }
}

pub(super) fn moves_text(moves: &[GolfMove]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn solve_cmd(a: &SolveArgs) -> Result<()> {
    let params = a.rules.params()?;
    let pos = read_problem(&a.file)?;
    if a.max_nodes == 0 {
        bail!("--max-nodes must be at least 1");
    }
    // What `deal` and `generate` can deal (2 to 16 cards) is what a problem may choose.
    let cards = pos.chosen().total();
    if !(2..=16).contains(&cards) {
        bail!(
            "problem {}: {cards} chosen card(s); a hole has 2 to 16 (as golf deal deals them)",
            a.file.display()
        );
    }
    // Proved before any search: a kind chosen more times than it has pieces.
    if let Some((kind, need, have)) = agents::golf::missing_piece(&pos) {
        outln!("impossible");
        outln!(
            "reason: {need} {} chosen ({}) but {have} on the board; every chosen piece but the last must be captured",
            kind_name(kind),
            kind.char()
        );
        outln!("rules: {}", describe(&params));
        outln!("states searched: 0");
        return Ok(());
    }
    let limits = SolveLimits {
        max_nodes: Some(a.max_nodes),
        // crate::util::seconds keeps the value finite and within a year, so the
        // conversion cannot panic.
        max_time: a.max_seconds.map(Duration::from_secs_f64),
        count_solutions: a.count,
        stop: Some(&crate::run::interrupt::INTERRUPTED),
        ..SolveLimits::default()
    };
    crate::run::interrupt::stop_on_ctrl_c(
        "stopping the search (Ctrl-C again to stop now)",
        "stopped",
    );
    // Said after the handler is in place: from here Ctrl-C prints what is known.
    eprintln!(
        "searching (at most {} states; Ctrl-C stops and prints what is known)",
        a.max_nodes
    );
    let r = solve(&pos, &params, &limits);
    outln!("{}", r.outcome);
    if let Outcome::Par(_) = r.outcome {
        outln!("solution: {}", moves_text(&r.moves));
        // The solution is replayed by the rules before it is shown.
        pos.verify_solution(&r.moves, &params)
            .map_err(|e| anyhow!("internal error: the solution does not replay: {e}"))?;
    }
    if a.count {
        match r.optimal_solutions {
            Some(c) => outln!("optimal solutions: {c}"),
            None => outln!("optimal solutions: not counted (limit reached)"),
        }
    }
    outln!("rules: {}", describe(&params));
    outln!("states searched: {}", r.states);
    outln!("time: {}", fmt_duration(r.elapsed));
    if interrupted() {
        bail!("interrupted (Ctrl-C): par is only known to be above what is printed");
    }
    if let Outcome::ParAbove(_) = r.outcome {
        eprintln!(
            "note: the search stopped at its limit (--max-nodes {}{}) before proving par; raise the limit to search further",
            a.max_nodes,
            a.max_seconds
                .map(|s| format!(", --max-seconds {s}"))
                .unwrap_or_default()
        );
    }
    Ok(())
}

/// Whether Ctrl-C stopped the search (see [`crate::run::interrupt::stop_on_ctrl_c`]).
pub(super) fn interrupted() -> bool {
    crate::run::interrupt::INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// "white queen(s)" for a message.
pub(super) fn kind_name(kind: Piece) -> String {
    let colour = match kind.color {
        Color::White => "white",
        Color::Black => "black",
    };
    let role = match kind.role {
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
        Role::Pawn => "pawn",
    };
    format!("{colour} {role}(s)")
}

// ---------------------------------------------------------------------------------------
// generate
// ---------------------------------------------------------------------------------------

//! `bench`: solver speed over seeded random deals and the book problems.

use super::*;

pub(super) fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub(super) fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Problems of a book-problems.txt file: (name, position, published optimal). Blocks of
/// comments only are skipped; a block with other text but no `board:`, or a file with no
/// problem at all (empty, or not a problem file), is an error naming the file (issue 65:
/// `golf bench --book` used to ignore such a file silently). Test
/// `read_book_refuses_empty_and_junk_files` below.
pub(super) fn read_book(path: &Path) -> Result<Vec<(String, GolfPosition, Option<u32>)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading problem file {}", path.display()))?;
    let mut out = Vec::new();
    for (b, block) in text.split("\n\n").enumerate() {
        let mut name = format!("block {}", b + 1);
        let mut board = Vec::new();
        let mut chosen = None;
        let mut optimal = None;
        let mut lines = block.lines();
        while let Some(line) = lines.next() {
            if let Some(n) = line.strip_prefix("# name:") {
                name = n.trim().to_string();
            } else if line.starts_with("board:") {
                for _ in 0..8 {
                    board.push(lines.next().ok_or_else(|| {
                        anyhow!("{}: {name}: fewer than 8 board rows", path.display())
                    })?);
                }
            } else if let Some(c) = line.strip_prefix("chosen:") {
                chosen = Some(c.trim().to_string());
            } else if let Some(o) = line.strip_prefix("optimal:") {
                optimal = Some(
                    o.trim()
                        .parse()
                        .with_context(|| format!("{}: {name}: optimal", path.display()))?,
                );
            }
        }
        if board.is_empty() {
            let text = block
                .lines()
                .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
            if text {
                bail!(
                    "{}: block {} is not a problem (a problem is `board:` and 8 rows, with `chosen:`)",
                    path.display(),
                    b + 1
                );
            }
            continue;
        }
        let text = format!(
            "{}\nchosen: {}",
            board.join("\n"),
            chosen.unwrap_or_default()
        );
        let pos = GolfPosition::parse_text(&text)
            .with_context(|| format!("{}: {name}", path.display()))?;
        out.push((name, pos, optimal));
    }
    if out.is_empty() {
        bail!(
            "{}: no problems in the file (a problem is `board:` and 8 rows, with `chosen:`)",
            path.display()
        );
    }
    Ok(out)
}

pub(super) fn bench(a: &BenchArgs) -> Result<()> {
    let params = a.rules.params()?;
    if let Some(c) = a.cards {
        if !(2..=16).contains(&c) {
            bail!("--cards must be between 2 and 16 (got {c})");
        }
    }
    if a.deals == Some(0) {
        bail!("--deals must be at least 1");
    }
    if a.max_nodes == 0 {
        bail!("--max-nodes must be at least 1");
    }
    // Deals are dealt and timed one at a time (the timings grow with the deals done, never
    // sized by --deals), so a huge --deals is a long run that Ctrl-C stops.
    crate::run::interrupt::stop_on_ctrl_c(
        "stopping after the deal in progress (Ctrl-C again to stop now)",
        "stopped",
    );
    outln!("rules: {}", describe(&params));
    if let Some(book) = &a.book {
        for (name, pos, optimal) in read_book(book)? {
            let r = solve(&pos, &params, &SolveLimits::default());
            outln!(
                "{name}: {} (published {}), {} states, {}, {:.1} M states/s, table {} states",
                r.outcome,
                optimal.map_or("-".to_string(), |o| o.to_string()),
                r.states,
                fmt_duration(r.elapsed),
                r.states as f64 / r.elapsed.as_secs_f64().max(1e-9) / 1e6,
                r.table_states
            );
        }
    }
    let configs: Vec<(usize, usize)> = match (a.cards, a.deals) {
        (None, None) => vec![(2, 1000), (3, 200)],
        (None, Some(d)) => vec![(2, d), (3, d)],
        (Some(c), d) => vec![(c, d.unwrap_or(if c <= 2 { 1000 } else { 200 }))],
    };
    for (cards, deals) in configs {
        if interrupted() {
            break;
        }
        if !(2..=16).contains(&cards) {
            bail!("--cards must be between 2 and 16 (got {cards})");
        }
        let mut rng = Pcg64::seed_from_u64(a.seed.wrapping_add(cards as u64 * 0x9E37_79B9));
        let limits = SolveLimits {
            max_nodes: Some(a.max_nodes),
            stop: Some(&crate::run::interrupt::INTERRUPTED),
            ..SolveLimits::default()
        };
        // Grows with the deals solved, never sized up front by the user's number.
        let mut times = Vec::new();
        let mut states = 0u64;
        let mut total = Duration::ZERO;
        let mut pars: BTreeMap<String, usize> = BTreeMap::new();
        let mut worst = (Duration::ZERO, String::new());
        for _ in 0..deals {
            if interrupted() {
                break;
            }
            let pos = random_problem(&mut rng, &params, cards);
            let r = solve(&pos, &params, &limits);
            if interrupted() {
                break; // the deal in progress was cut short: not timed
            }
            times.push(r.elapsed);
            total += r.elapsed;
            states += r.states;
            let key = match r.outcome {
                Outcome::Par(p) => format!("{p}"),
                Outcome::Impossible => "impossible".to_string(),
                Outcome::ParAbove(_) => "limit".to_string(),
            };
            *pars.entry(key).or_default() += 1;
            if r.elapsed > worst.0 {
                worst = (r.elapsed, pos.to_fen());
            }
        }
        times.sort();
        let solved = times.len();
        outln!(
            "{solved} deals, {cards} cards: median {}, p99 {}, max {}, mean {}; {states} states, {:.2} M states/s",
            fmt_duration(percentile(&times, 0.5)),
            fmt_duration(percentile(&times, 0.99)),
            fmt_duration(times.last().copied().unwrap_or_default()),
            fmt_duration(total.div_f64(solved.max(1) as f64)),
            states as f64 / total.as_secs_f64().max(1e-9) / 1e6
        );
        let hist: Vec<String> = pars.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        outln!("  par histogram {}", hist.join(" "));
        outln!("  slowest: {} ({})", worst.1, fmt_duration(worst.0));
    }
    if let Some(mb) = peak_rss_mb() {
        outln!("peak memory: {mb:.0} MB");
    }
    if interrupted() {
        bail!("interrupted (Ctrl-C): the figures above cover the deals finished before it");
    }
    Ok(())
}

#[cfg(test)]
mod book_tests {
    use super::read_book;

    #[test]
    fn read_book_refuses_empty_and_junk_files() {
        let dir = std::env::temp_dir().join(format!("chesslab-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cases = [
            ("empty.txt", "", "no problems"),
            (
                "comments.txt",
                "# only a comment\n# and another\n",
                "no problems",
            ),
            ("junk.txt", "hello\nworld\n", "block 1 is not a problem"),
            (
                "junk-after.txt",
                "# header\n\nname: x\nsomething else\n",
                "block 2 is not a problem",
            ),
        ];
        for (name, text, says) in cases {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            let e = format!("{:#}", read_book(&path).unwrap_err());
            assert!(e.contains(says) && e.contains(name), "{name}: {e}");
        }
        // The real book still reads.
        let book = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../engine/tests/data/golf/book-problems.txt");
        assert!(!read_book(&book).unwrap().is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }
}

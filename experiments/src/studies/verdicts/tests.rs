use super::*;

/// A `games.csv` of `pairs` colour-swapped pairs, each pair's own opening; in pair `i`
/// the first seat wins both games when `first_wins(i)`, else both are drawn.
fn games_csv(pairs: u64, plies: usize, first_wins: impl Fn(u64) -> bool) -> String {
    let mut s = String::from_utf8(record::header_line()).unwrap();
    for i in 0..2 * pairs {
        let pair = i / 2;
        let r = if first_wins(pair) { 1.0 } else { 0.0 };
        let row = record::Row {
            index: i,
            seed: i,
            variant: "chess".into(),
            params_digest: "0".into(),
            pair,
            opening: format!("actions: o{pair}"),
            players: vec![0, 0],
            agents: vec!["random".into(), "random".into()],
            result: crate::util::result_text(&[r, -r]),
            returns: vec![r, -r],
            reason: "checkmate".into(),
            plies,
            actions: vec!["e2e4"; plies].join(" "),
        };
        s.push_str(std::str::from_utf8(&row.to_line()).unwrap());
    }
    s
}

fn write_run(results: &Path, name: &str, csv: &str) {
    let d = results.join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("games.csv"), csv).unwrap();
}

const QUESTIONS: &str = r#"
note = "A test page."

[[questions]]
id = "edge"
game = "Test Chess"
question = "does the rule give White an edge?"
first_mover = "White"
measure = "first-seat"
sign = "positive"
yes = "It does."
no = "It favours Black."
unclear = "Not shown."

[[questions.players]]
label = "strong (gen. 3)"
elo = 1500
run = "v/strong"
baseline = "o/strong"

[[questions.players]]
label = "weak (gen. 3)"
elo = 1000
run = ["v/weak", "v/weak-again"]
baseline = "o/weak"

[[questions]]
id = "length"
game = "Test Chess"
question = "are games longer?"
first_mover = "White"
measure = "length"
sign = "positive"
yes = "Longer."
no = "Shorter."
unclear = "Not shown."

[[questions.players]]
label = "strong (gen. 3)"
elo = 1500
run = "v/strong"
baseline = "o/strong"
"#;

/// A results folder where the variant's first seat wins far more often.
fn results_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let r = d.path();
    write_run(r, "v/strong", &games_csv(60, 40, |i| i % 4 != 0));
    write_run(r, "v/weak", &games_csv(60, 30, |i| i % 3 != 0));
    write_run(r, "v/weak-again", &games_csv(40, 30, |i| i % 2 == 0));
    write_run(r, "o/strong", &games_csv(60, 20, |i| i % 4 == 0));
    write_run(r, "o/weak", &games_csv(60, 20, |i| i % 5 == 0));
    std::fs::write(r.join(CONFIG), QUESTIONS).unwrap();
    d
}

#[test]
fn answers_follow_the_rule() {
    use Answer::*;
    let (p, n) = (Some(1), Some(-1));
    assert_eq!(answer(Sign::Positive, &[p, p]), Yes);
    assert_eq!(answer(Sign::Negative, &[n, n, n]), Yes);
    assert_eq!(answer(Sign::Positive, &[n, n]), No);
    assert_eq!(answer(Sign::Positive, &[p, None]), Unclear);
    assert_eq!(answer(Sign::Positive, &[p, n]), Unclear);
    assert_eq!(answer(Sign::Negative, &[None]), Unclear);
    assert_eq!(answer(Sign::Positive, &[]), Unclear);
}

#[test]
fn a_page_is_computed_and_checked() {
    let d = results_dir();
    let r = d.path();
    let page = compute(r).unwrap();
    assert_eq!(page.comparisons, 3);
    let edge = &page.questions[0];
    // Pooled runs: 100 pairs (the pair numbers kept apart per run) from 60 openings
    // (o0-o39 in both runs, merged by their text): the interval is over openings.
    let pooled = &edge.players[1].variant;
    assert_eq!((pooled.games, pooled.units), (200, 60));
    assert!(pooled.over_openings);
    assert!(!edge.players[0].variant.over_openings);
    assert_eq!(edge.players[0].variant.units, 60);
    assert!(
        (edge.players[0].diff - 0.25).abs() < 1e-12,
        "{:?}",
        edge.players[0]
    );
    assert_eq!(edge.answer(), Answer::Yes);
    assert_eq!(page.questions[1].players[0].diff, 20.0);
    let md = page::markdown(&page);
    assert!(md.contains("over all 3 comparisons"), "{md}");
    assert!(md.contains("A test page."), "{md}");
    assert!(md.contains("**Yes.** It does."), "{md}");
    assert!(
        md.contains("How sure: clear for both players after Holm's correction over 3 comparisons"),
        "{md}"
    );
    assert!(
        md.contains(
            "![Test Chess: the difference for each player, with 95% intervals](verdicts/edge.svg)"
        ),
        "{md}"
    );
    // Nothing yet: --check names every file and writes nothing.
    let o = run(r, true).unwrap();
    assert_eq!(o.changed.len(), 3, "{:?}", o.changed);
    assert!(!r.join(PAGE).exists());
    run(r, false).unwrap();
    assert!(run(r, true).unwrap().changed.is_empty());
    assert!(r.join("verdicts/edge.svg").exists());
    // The data changes: the page and the plot are stale, and a stray plot is named.
    write_run(r, "o/weak", &games_csv(60, 20, |i| i % 2 == 0));
    std::fs::write(r.join("verdicts/old.svg"), "<svg/>").unwrap();
    let changed = run(r, true).unwrap().changed;
    assert!(
        changed.iter().any(|c| c.contains("VERDICTS.md differs")),
        "{changed:?}"
    );
    assert!(
        changed.iter().any(|c| c.contains("edge.svg differs")),
        "{changed:?}"
    );
    assert!(
        changed
            .iter()
            .any(|c| c.contains("old.svg belongs to no question")),
        "{changed:?}"
    );
    assert!(
        !changed.iter().any(|c| c.contains("length.svg")),
        "{changed:?}"
    );
    run(r, false).unwrap();
    assert!(!r.join("verdicts/old.svg").exists());
    assert!(run(r, true).unwrap().changed.is_empty());
}

#[test]
fn plots_are_deterministic() {
    let d = results_dir();
    let a = compute(d.path()).unwrap();
    let b = compute(d.path()).unwrap();
    let (sa, sb) = (page::svg(&a.questions[0]), page::svg(&b.questions[0]));
    assert_eq!(sa, sb);
    assert!(
        sa.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{sa}"
    );
    assert!(sa.ends_with("</svg>\n"));
    assert_eq!(sa.matches("<circle").count(), 2, "{sa}");
    assert!(sa.contains("strong (gen. 3), 1500 Elo"), "{sa}");
    assert!(sa.contains("stroke-dasharray"), "{sa}");
    // Fixed decimals: every coordinate has one.
    for cap in sa.split("cx=\"").skip(1) {
        let v = cap.split('"').next().unwrap();
        assert_eq!(v.split('.').nth(1).map(str::len), Some(1), "{v}");
    }
    assert_eq!(page::signed(-0.0001, 3), "+0.000");
    assert_eq!(page::signed(-0.0291, 3), "−0.029");
}

#[test]
fn bad_input_names_the_problem() {
    let d = results_dir();
    let r = d.path();
    let err = |text: &str| {
        std::fs::write(r.join(CONFIG), text).unwrap();
        let e = format!("{:#}", run(r, false).unwrap_err());
        assert!(!r.join(PAGE).exists(), "written despite: {e}");
        assert!(!r.join(PLOTS).exists(), "written despite: {e}");
        e
    };
    let e = err(&QUESTIONS.replace("o/weak", "o/gone"));
    assert!(e.contains("question 'edge', player 'weak (gen. 3)'"), "{e}");
    assert!(e.contains("o/gone does not exist"), "{e}");
    let e = err(&QUESTIONS.replace("measure = \"length\"", "measure = \"speed\""));
    assert!(e.contains("question 'length'"), "{e}");
    assert!(e.contains("unknown measure 'speed'"), "{e}");
    let e = err(&QUESTIONS.replace("sign = \"positive\"", "sign = \"up\""));
    assert!(e.contains("unknown sign 'up'"), "{e}");
    let e = err(&QUESTIONS.replace("[[questions.players]]", "[[questions.players]"));
    assert!(
        e.contains("verdicts.toml is not a valid questions file"),
        "{e}"
    );
    let e = err(&QUESTIONS.replace("id = \"length\"", "id = \"edge\""));
    assert!(e.contains("used twice"), "{e}");
    let e = err(&QUESTIONS.replace("id = \"length\"", "id = \"../x\""));
    assert!(e.contains("may hold only"), "{e}");
    std::fs::remove_file(r.join(CONFIG)).unwrap();
    let e = format!("{:#}", run(r, true).unwrap_err());
    assert!(e.contains("verdicts.toml"), "{e}");
}

#[test]
fn flagged_openings_are_left_out() {
    let d = results_dir();
    let r = d.path();
    let all = sample(r, &["v/strong"], Measure::FirstSeat).unwrap();
    assert_eq!((all.games, all.left_out), (120, 0));
    // The run names its book; the screen flagged two of the book's openings.
    std::fs::write(
        r.join("v/strong/run.json"),
        r#"{"openings_file": "results/openings/testbook.txt"}"#,
    )
    .unwrap();
    std::fs::create_dir_all(r.join("openings/screen")).unwrap();
    std::fs::write(
        r.join("openings/screen/testbook.lab.flagged.txt"),
        "# flagged by a test\n1 actions: o0 #+2\n7 actions:  o6 312\nflagged 2\n",
    )
    .unwrap();
    let screened = sample(r, &["v/strong"], Measure::FirstSeat).unwrap();
    assert_eq!((screened.games, screened.left_out), (116, 4));
    // Pair 0 was drawn and pair 6 won by the first seat (it wins where i % 4 != 0).
    assert!(screened.estimate.mean != all.estimate.mean);
    // A run without a run.json, or a book without a list, leaves out nothing.
    assert_eq!(
        sample(r, &["v/weak"], Measure::FirstSeat).unwrap().left_out,
        0
    );
    std::fs::write(
        r.join("v/weak/run.json"),
        r#"{"openings_file": "results/openings/otherbook.txt"}"#,
    )
    .unwrap();
    assert_eq!(
        sample(r, &["v/weak"], Measure::FirstSeat).unwrap().left_out,
        0
    );
    // The page says so.
    let page_text = page::markdown(&compute(r).unwrap());
    assert!(
        page_text.contains("(4 games from flagged openings left out)"),
        "{page_text}"
    );
}

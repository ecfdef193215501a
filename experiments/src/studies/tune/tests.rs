//! The tuner end to end on small runs: bad input refused before any game, a parameter
//! with a known effect tuned to its known value, and resumption.

use super::*;
use std::path::Path;

struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new(space: &str, targets: &str) -> Files {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("space.toml"), space).unwrap();
        std::fs::write(dir.path().join("targets.toml"), targets).unwrap();
        Files { dir }
    }

    fn args(&self, variant: &str, optimizer: Optimizer, iterations: u64, out: &str) -> TuneArgs {
        TuneArgs {
            variant: VariantArgs {
                variant: variant.into(),
                params: None,
            },
            space: self.dir.path().join("space.toml"),
            targets: self.dir.path().join("targets.toml"),
            agents: "random".into(),
            panel: None,
            games: 8,
            iterations,
            optimizer,
            spsa_a: 0.05,
            spsa_c: 0.1,
            spsa_big_a: None,
            rounding: spsa::Rounding::Stochastic,
            cmaes_sigma: 0.25,
            cmaes_lambda: None,
            seed: 5,
            random_opening_plies: 0,
            threads: Some(2),
            confirm_games: 0,
            out: self.dir.path().join(out),
            resume: false,
        }
    }
}

const CAP_SPACE: &str = "[[param]]\nname = \"cap\"\npath = \"ply_cap\"\nmin = 10\nmax = 90\n";
const CAP_TARGET: &str = "[[target]]\nmeasure = \"plies\"\nvalue = 30\ntolerance = 3\n";

fn error_of(space: &str, targets: &str, variant: &str) -> String {
    let f = Files::new(space, targets);
    let args = f.args(variant, Optimizer::Spsa, 2, "out");
    let e = run_until(&args, None).expect_err("bad input must be refused");
    assert!(
        !args.out.exists(),
        "no run folder before the input is checked"
    );
    format!("{e:#}")
}

#[test]
fn bad_space_files_are_errors_before_any_game() {
    let e = error_of(
        "[[param]]\npath = \"tabel.0.0\"\nmin = 1\nmax = 2\n",
        CAP_TARGET,
        "expedition",
    );
    assert!(e.contains("unknown parameter path 'tabel.0.0'"), "{e}");
    let e = error_of(
        "[[param]]\npath = \"table.9.0\"\nmin = 1\nmax = 2\n",
        CAP_TARGET,
        "expedition",
    );
    assert!(e.contains("unknown parameter path 'table.9.0'"), "{e}");
    let e = error_of(
        "[[param]]\npath = \"ply_cap\"\nmin = 50\nmax = 20\n",
        CAP_TARGET,
        "expedition",
    );
    assert!(e.contains("bounds reversed"), "{e}");
    let e = error_of(
        "[[param]]\npath = \"chess960\"\nmin = 0\nmax = 1\n",
        CAP_TARGET,
        "chess",
    );
    assert!(e.contains("'chess960' is not a number"), "{e}");
    let e = error_of(
        "[[param]]\npath = \"table\"\nmin = 0\nmax = 1\n",
        CAP_TARGET,
        "expedition",
    );
    assert!(e.contains("is not a number (it holds array)"), "{e}");
    // Two values that must be strictly ordered inside a range of one integer.
    let e = error_of(
        "[[param]]\nname = \"a\"\npath = \"table.0.1\"\nmin = 1\nmax = 2\n\
         [[param]]\nname = \"b\"\npath = \"table.0.2\"\nmin = 1\nmax = 1.5\n\
         [[tie]]\norder = [\"a\", \"b\"]\nstrict = true\n",
        CAP_TARGET,
        "expedition",
    );
    assert!(e.contains("ties cannot be met"), "{e}");
    // A point the variant rejects (table entries above n) names the field.
    let f = Files::new(
        "[[param]]\npath = \"table.0.5\"\nmin = 1\nmax = 7\n",
        CAP_TARGET,
    );
    let mut args = f.args("expedition", Optimizer::Spsa, 2, "out");
    args.spsa_c = 0.5;
    let e = format!("{:#}", run_until(&args, None).unwrap_err());
    assert!(e.contains("table") && e.contains("outside 1..=2"), "{e}");
}

#[test]
fn bad_targets_are_errors_before_any_game() {
    let e = error_of(
        CAP_SPACE,
        "[[target]]\nmeasure = \"tally:nonsense\"\nrange = [1, 2]\n",
        "expedition",
    );
    assert!(
        e.contains("no tally 'nonsense'") && e.contains("turns"),
        "{e}"
    );
    let e = error_of(
        CAP_SPACE,
        "[[target]]\nmeasure = \"plies\"\nrange = [5, 2]\n",
        "chess",
    );
    assert!(e.contains("reversed"), "{e}");
    let e = error_of(
        CAP_SPACE,
        "[[target]]\nmeasure = \"length\"\nvalue = 3\ntolerance = 1\n",
        "chess",
    );
    assert!(e.contains("measure 'length'"), "{e}");
}

fn read_tuned_cap(out: &Path) -> i64 {
    let t: toml::Table =
        toml::from_str(&std::fs::read_to_string(out.join("best.toml")).unwrap()).unwrap();
    t["ply_cap"].as_integer().unwrap()
}

/// Chess between random agents almost never ends before 30 plies, so a game's length is
/// its ply cap: the target "30 plies" is met exactly by `ply_cap = 30`. SPSA from the
/// default 400 (clamped to the bound 90) must end within 3 of 30.
#[test]
fn spsa_tunes_a_parameter_with_a_known_effect_to_its_value() {
    let f = Files::new(CAP_SPACE, CAP_TARGET);
    let mut args = f.args("chess", Optimizer::Spsa, 60, "spsa");
    args.spsa_a = 0.001;
    args.confirm_games = 20;
    run_until(&args, None).unwrap();
    let cap = read_tuned_cap(&args.out);
    assert!((cap - 30).abs() <= 3, "tuned ply_cap {cap}");
    for file in [
        "iterations.csv",
        "report.md",
        "loss.svg",
        "params.svg",
        "checkpoint.json",
    ] {
        assert!(args.out.join(file).exists(), "{file}");
    }
    let report = std::fs::read_to_string(args.out.join("report.md")).unwrap();
    assert!(report.contains("| plies | 30.000 ± 3.000 |"), "{report}");
    // The summary (issue 39): best loss, where the table went, the comparison.
    assert!(report.contains("## Summary"), "{report}");
    assert!(
        report.contains("Best loss among the 120 points played: "),
        "{report}"
    );
    assert!(report.contains("best.toml (report: "), "{report}");
    assert!(
        report.contains("Confirmation run: best.toml has loss"),
        "{report}"
    );
    // lowest-loss.toml is the table of the row with the lowest loss in iterations.csv.
    let csv = std::fs::read_to_string(args.out.join("iterations.csv")).unwrap();
    let best = csv
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((f[2].parse::<f64>().ok()?, f[3].parse::<i64>().ok()?))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap();
    let t: toml::Table =
        toml::from_str(&std::fs::read_to_string(args.out.join("lowest-loss.toml")).unwrap())
            .unwrap();
    assert_eq!(t["ply_cap"].as_integer(), Some(best.1));
    let svg = std::fs::read_to_string(args.out.join("params.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("polyline"), "{svg}");
}

#[test]
fn cmaes_tunes_a_parameter_with_a_known_effect_to_its_value() {
    let f = Files::new(CAP_SPACE, CAP_TARGET);
    let args = f.args("chess", Optimizer::Cmaes, 25, "cmaes");
    run_until(&args, None).unwrap();
    let cap = read_tuned_cap(&args.out);
    assert!((cap - 30).abs() <= 3, "tuned ply_cap {cap}");
}

/// A run stopped after two iterations and resumed writes the same iterations.csv and
/// the same tuned table as one that ran straight through (both optimisers).
#[test]
fn resumed_run_follows_the_same_trajectory() {
    for opt in [Optimizer::Spsa, Optimizer::Cmaes] {
        let f = Files::new(
            "[[param]]\nname = \"a\"\npath = \"table.4.5\"\nmin = 1\nmax = 6\n\
             [[param]]\nname = \"b\"\npath = \"table.5.5\"\nmin = 1\nmax = 7\n\
             [[tie]]\norder = [\"a\", \"b\"]\n",
            "[[target]]\nmeasure = \"tally:turns\"\nrange = [20, 30]\n\
             [[target]]\nmeasure = \"first_seat_score\"\nvalue = 0.5\ntolerance = 0.05\n",
        );
        let mut whole = f.args("expedition", opt, 4, "whole");
        whole.games = 4;
        run_until(&whole, None).unwrap();
        let mut part = f.args("expedition", opt, 4, "part");
        part.games = 4;
        run_until(&part, Some(2)).unwrap();
        assert!(!part.out.join("best.toml").exists());
        // Resuming without --resume is refused; changed settings too.
        assert!(run_until(&part, None).is_err());
        part.resume = true;
        let mut changed = part.clone();
        changed.seed += 1;
        assert!(format!("{:#}", run_until(&changed, None).unwrap_err()).contains("settings differ"));
        run_until(&part, None).unwrap();
        for file in ["iterations.csv", "best.toml"] {
            let a = std::fs::read_to_string(whole.out.join(file)).unwrap();
            let b = std::fs::read_to_string(part.out.join(file)).unwrap();
            assert_eq!(a, b, "{opt:?} {file}");
        }
        let csv = std::fs::read_to_string(whole.out.join("iterations.csv")).unwrap();
        assert!(csv.starts_with("iteration,point,loss,a,b,tally:turns,first_seat_score\n"));
        // Ties hold at every played point.
        for line in csv.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let (a, b): (i64, i64) = (f[3].parse().unwrap(), f[4].parse().unwrap());
            assert!(a <= b, "{line}");
        }
    }
}

/// A ratio of sums of tallies: each name is checked against the variant's tallies before
/// any game, and the per-game value is the sum above the `/` over the sum below it.
#[test]
fn ratio_targets_read_sums_of_tallies() {
    let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let t = targets::parse(
        "[[target]]\nmeasure = \"tally:a+b/c\"\nrange = [0.1, 0.2]\n",
        &names,
    )
    .unwrap();
    assert_eq!(
        t[0].measure,
        targets::Measure::Ratio(vec!["a".into(), "b".into()], vec!["c".into()])
    );
    let tallies = vec![
        ("a".to_string(), 1.0),
        ("b".into(), 2.0),
        ("c".into(), 12.0),
    ];
    assert_eq!(t[0].measure.value(&tallies, 0.5, 10, false), 0.25);
    let none = vec![("a".to_string(), 1.0), ("c".into(), 0.0)];
    assert_eq!(t[0].measure.value(&none, 0.5, 10, false), 0.0);
    let e = targets::parse(
        "[[target]]\nmeasure = \"tally:a/nonsense\"\nrange = [0, 1]\n",
        &names,
    )
    .unwrap_err();
    assert!(format!("{e:#}").contains("no tally 'nonsense'"), "{e:#}");
    for bad in [
        "tally:a/",
        "tally:/c",
        "tally:a+/c",
        "tally:a/b/c",
        "tally:a+b",
    ] {
        let text = format!("[[target]]\nmeasure = \"{bad}\"\nrange = [0, 1]\n");
        assert!(targets::parse(&text, &names).is_err(), "{bad}");
    }
}

/// A `scale` parameter multiplies every number under its paths (a whole table) by one
/// factor, rounding integers and keeping a base of 1 or more at 1 or more.
#[test]
fn scale_params_keep_the_shape_of_a_table() {
    let table: toml::Table =
        toml::from_str("[v]\np = 4\nn = 7\nq = 12\n[w]\nx = 2.5\n[c]\ny = 3\n").unwrap();
    let space = Space::parse(
        "[[param]]\nname = \"s\"\npaths = [\"v\", \"w.x\"]\nkind = \"scale\"\nmin = 0.1\nmax = 3\n",
        &table,
    )
    .unwrap();
    assert_eq!(space.read(&table).unwrap(), vec![1.0]);
    let t = space.write(&table, &[0.5]).unwrap();
    let v = |p: &str, k: &str| t[p][k].clone();
    assert_eq!(v("v", "p"), toml::Value::Integer(2));
    assert_eq!(v("v", "n"), toml::Value::Integer(4)); // 3.5 rounds away from zero
    assert_eq!(v("v", "q"), toml::Value::Integer(6));
    assert_eq!(v("w", "x"), toml::Value::Float(1.25));
    assert_eq!(v("c", "y"), toml::Value::Integer(3), "outside the paths");
    let t = space.write(&table, &[0.1]).unwrap();
    assert_eq!(t["v"]["p"], toml::Value::Integer(1), "0.4 is kept at 1");
    let bad = Space::parse(
        "[[param]]\nname = \"s\"\npath = \"v\"\nkind = \"scale\"\nmin = 0\nmax = 3\n",
        &table,
    );
    assert!(bad.is_err());
}

/// The overhead bench compares an evaluation with the same games played plainly; that
/// comparison means something only if both sides play exactly the same games (same
/// seeds, same agents, the base point's table equal to the variant's defaults).
#[test]
fn an_evaluation_plays_the_same_games_as_plain_play() {
    let space = "[[param]]\nname = \"values\"\npaths = [\"values\"]\nkind = \"scale\"\nmin = 0.1\nmax = 2\n";
    let targets = "[[target]]\nmeasure = \"tally:white_purchases+black_purchases/white_moves+black_moves\"\nrange = [0.1667, 0.2]\n";
    let f = Files::new(space, targets);
    let mut args = f.args("clairvoyant", Optimizer::Spsa, 1, "out");
    args.games = 4;
    args.threads = Some(1);
    let eval = Evaluator::new(&args).unwrap();
    for seed in [3, 7] {
        let (_, plies) = eval.loss_and_plies(seed).unwrap();
        let plain = play_plain("clairvoyant", None, &["random".into()], 4, seed, 1).unwrap();
        assert_eq!(plies, plain, "seed {seed}");
    }
}

/// Issue 37: a scale factor of 0.05 on the seed's Clairvoyant values rounds the pawn,
/// knight and bishop destination guesses to the same 1 Z as a piece guess (dominated);
/// the space file's constraints keep the seed's shape in the table as played.
#[test]
fn constraints_keep_the_seed_shape_after_rounding() {
    let table: toml::Table = toml::from_str(
        &toml::to_string(&engine::variants::clairvoyant::ClairvoyantParams::default()).unwrap(),
    )
    .unwrap();
    let scale = "[[param]]\nname = \"values\"\npaths = [\"values\"]\nkind = \"scale\"\nmin = 0.01\nmax = 1\n";
    let plain = Space::parse(scale, &table).unwrap();
    let t = plain.write(&table, &[0.05]).unwrap();
    let at = |t: &toml::Table, a: &str, b: &str| t["values"][a][b].as_integer().unwrap();
    // What rounding alone does (the failure the issue names).
    assert_eq!(at(&t, "move", "pawn"), at(&t, "move_destination", "pawn"));
    let mut shaped = String::from(scale);
    for piece in ["pawn", "knight", "bishop", "rook", "queen", "king"] {
        shaped.push_str(&format!(
            "[[constraint]]\ngreater = \"values.move_destination.{piece}\"\nthan = \"values.move.{piece}\"\n"
        ));
    }
    shaped.push_str("[[constraint]]\nkeep_order = \"values.move_destination\"\n");
    shaped.push_str("[[constraint]]\nkeep_order = \"costs.drop\"\nstrict = false\n");
    let space = Space::parse(&shaped, &table).unwrap();
    let raw = space.write_raw(&table, &[0.05]).unwrap();
    assert!(!space.broken(&raw).is_empty());
    let t = space.write(&table, &[0.05]).unwrap();
    assert!(space.broken(&t).is_empty(), "{:?}", space.broken(&t));
    for piece in ["pawn", "knight", "bishop", "rook", "queen", "king"] {
        assert!(
            at(&t, "move_destination", piece) > at(&t, "move", piece),
            "{piece}: {t:?}"
        );
    }
    // Destination values grow wherever the seed's grow (pawn < knight there).
    let seed = &table["values"]["move_destination"];
    let tuned = &t["values"]["move_destination"];
    for a in ["pawn", "knight", "bishop", "rook", "queen", "king"] {
        for b in ["pawn", "knight", "bishop", "rook", "queen", "king"] {
            if seed[a].as_integer() < seed[b].as_integer() {
                assert!(
                    tuned[a].as_integer() < tuned[b].as_integer(),
                    "{a} < {b}: {tuned:?}"
                );
            }
        }
    }
    // Values already in shape are not touched: the base table (factor 1) is the seed.
    assert_eq!(space.write(&table, &[1.0]).unwrap(), table);
    // The rounded table is a valid Clairvoyant parameter table.
    let text = toml::to_string(&t).unwrap();
    engine::registry::visit("clairvoyant", Some(&text), report_noop()).unwrap();
}

fn report_noop() -> impl VariantVisitor<Output = ()> {
    struct N;
    impl VariantVisitor for N {
        type Output = ();
        fn visit<G: Game>(self, _name: &'static str, _params: G::Params) {}
    }
    N
}

#[test]
fn contradictory_constraints_are_refused() {
    let table: toml::Table = toml::from_str("[v]\na = 1\nb = 2\n").unwrap();
    let head = "[[param]]\nname = \"s\"\npaths = [\"v\"]\nkind = \"scale\"\nmin = 0.1\nmax = 3\n";
    let cycle = format!(
        "{head}[[constraint]]\ngreater = \"v.a\"\nthan = \"v.b\"\n[[constraint]]\ngreater = \"v.b\"\nthan = \"v.a\"\n"
    );
    let e = format!("{:#}", Space::parse(&cycle, &table).unwrap_err());
    assert!(e.contains("contradict"), "{e}");
    for (bad, says) in [
        (
            "[[constraint]]\ngreater = \"v.a\"\n",
            "give `greater` and `than`",
        ),
        (
            "[[constraint]]\ngreater = \"v.a\"\nthan = \"v.zz\"\n",
            "v.zz",
        ),
        ("[[constraint]]\nkeep_order = \"v.a\"\n", "fewer than two"),
        (
            "[[constraint]]\ngreater = \"v.a\"\nthan = \"v.a\"\n",
            "above itself",
        ),
    ] {
        let e = format!(
            "{:#}",
            Space::parse(&format!("{head}{bad}"), &table).unwrap_err()
        );
        assert!(e.contains(says), "{bad}: {e}");
    }
}

/// A base table that already meets the target, and a space whose bounds exclude it: the
/// tuned table cannot be as good, and the summary says so plainly (issue 39).
#[test]
fn a_tuned_table_worse_than_the_base_is_said_plainly() {
    let f = Files::new(
        "[[param]]\nname = \"cap\"\npath = \"ply_cap\"\nmin = 60\nmax = 90\n",
        CAP_TARGET,
    );
    let base = f.dir.path().join("base.toml");
    std::fs::write(&base, "ply_cap = 30\n").unwrap();
    let mut args = f.args("chess", Optimizer::Spsa, 1, "worse");
    args.variant.params = Some(base);
    args.confirm_games = 4;
    args.games = 2;
    run_until(&args, None).unwrap();
    let report = std::fs::read_to_string(args.out.join("report.md")).unwrap();
    assert!(report.contains("WORSE THAN THE BASE TABLE"), "{report}");
    assert!(read_tuned_cap(&args.out) >= 60);
}

/// Issue 37: a panel of two members whose targets disagree (30 and 50 plies, each ± 3)
/// is tuned to the point that minimises the worst miss: 40, where both miss by 10.
#[test]
fn a_panel_is_tuned_to_the_smallest_worst_miss() {
    let f = Files::new(CAP_SPACE, CAP_TARGET);
    std::fs::write(
        f.dir.path().join("long.toml"),
        "[[target]]\nmeasure = \"plies\"\nvalue = 50\ntolerance = 3\n",
    )
    .unwrap();
    let panel = f.dir.path().join("panel.toml");
    std::fs::write(
        &panel,
        "name = \"two\"\n[[member]]\nlabel = \"short\"\nagent = \"random\"\n\
         [[member]]\nlabel = \"long\"\nagent = \"random\"\ntargets = \"long.toml\"\n",
    )
    .unwrap();
    let mut args = f.args("chess", Optimizer::Cmaes, 25, "panel");
    args.agents = String::new();
    args.panel = Some(panel.clone());
    args.confirm_games = 4;
    run_until(&args, None).unwrap();
    let cap = read_tuned_cap(&args.out);
    assert!((cap - 40).abs() <= 3, "tuned ply_cap {cap}");
    let csv = std::fs::read_to_string(args.out.join("iterations.csv")).unwrap();
    assert!(
        csv.starts_with("iteration,point,loss,cap,short:plies,long:plies\n"),
        "{csv}"
    );
    let report = std::fs::read_to_string(args.out.join("report.md")).unwrap();
    assert!(
        report.contains("| short:plies | 30.000 ± 3.000 |"),
        "{report}"
    );
    assert!(
        report.contains("| long:plies | 50.000 ± 3.000 |"),
        "{report}"
    );
    assert!(report.contains("minimises the worst miss"), "{report}");
    // At 40 plies neither member's target (30 ± 3, 50 ± 3) is met.
    assert!(
        report.contains("The tuned table meets every target at the mean: holds for no member"),
        "{report}"
    );
    // --agents beside --panel is refused before any game.
    let mut both = f.args("chess", Optimizer::Cmaes, 2, "both");
    both.panel = Some(panel);
    let e = format!("{:#}", run_until(&both, None).unwrap_err());
    assert!(e.contains("leave out --agents"), "{e}");
    assert!(!both.out.exists());
}

#[test]
fn ratios_read_the_other_way_up_invert_their_interval() {
    // A purchase share 0.178 ± 0.005 is 5.62 moves per purchase, [5.46, 5.78].
    assert_eq!(finish::reciprocal(0.178, 0.005), "5.62 [5.46, 5.78]");
    assert_eq!(finish::reciprocal(0.1, 0.2), "10.00 [3.33, ∞]");
    assert_eq!(finish::reciprocal(0.0, 0.1), "unbounded (mean 0)");
}

/// Issue 68: a target out of reach (300 plies from a cap of at most 20) drives the table
/// onto its bound with no target met, and the run says which flags would help; the
/// report names the optimiser as users write it and holds no source path or code name.
#[test]
fn a_table_on_its_bounds_gets_a_budget_hint() {
    let f = Files::new(
        "[[param]]\nname = \"cap\"\npath = \"ply_cap\"\nmin = 10\nmax = 20\n",
        "[[target]]\nmeasure = \"plies\"\nvalue = 300\ntolerance = 3\n",
    );
    for opt in [Optimizer::Spsa, Optimizer::Cmaes] {
        let mut args = f.args("chess", opt, 3, &format!("out-{}", opt.name()));
        args.games = 4;
        args.confirm_games = 2;
        args.spsa_c = 0.5;
        run_until(&args, None).unwrap();
        assert_eq!(read_tuned_cap(&args.out), 20, "{opt:?}");
        let md = std::fs::read_to_string(args.out.join("report.md")).unwrap();
        assert!(
            md.contains("No target is met and the tuned table sits on its bounds for cap")
                && md.contains("--iterations (now 3)")
                && md.contains("--games (now 4 per point)")
                && md.contains("--space"),
            "{opt:?}: {md}"
        );
        assert!(
            md.contains(&format!("3 iterations of {},", opt.name())),
            "{md}"
        );
        for code in ["Spsa", "Cmaes", "src/", ".rs", "::"] {
            assert!(!md.contains(code), "{opt:?}: '{code}' in the report: {md}");
        }
    }
    // Inside its bounds: no hint.
    let f = Files::new(CAP_SPACE, CAP_TARGET);
    let mut args = f.args("chess", Optimizer::Spsa, 2, "inside");
    args.confirm_games = 2;
    run_until(&args, None).unwrap();
    let cap = read_tuned_cap(&args.out);
    let md = std::fs::read_to_string(args.out.join("report.md")).unwrap();
    assert_eq!(
        md.contains("sits on its bounds"),
        cap <= 10 || cap >= 90,
        "cap {cap}: {md}"
    );
}

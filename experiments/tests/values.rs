//! `chesslab values` end to end and its refusals of bad input (issue 24).

use std::path::{Path, PathBuf};

use experiments::values::{self, ValuesArgs, MIN_GAMES};

fn results(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results")
        .join(p)
}

fn args(variant: &str, from: PathBuf, out: &Path) -> ValuesArgs {
    ValuesArgs {
        variant: variant.into(),
        params: None,
        from,
        out: Some(out.to_path_buf()),
        seed: 1,
        bootstrap: 20,
        min_ply: 10,
        per_game: 8,
        l2: 1e-3,
    }
}

/// The first `n` games of `from` in a new games.csv.
fn head(from: &Path, n: usize, dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(from).unwrap();
    let lines: Vec<&str> = text.lines().take(n + 1).collect();
    let p = dir.join("games.csv");
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

#[test]
fn rule_values_refuses_cooperative() {
    let dir = tempfile::tempdir().unwrap();
    let e = values::run(&args(
        "cooperative",
        results("cooperative/random-hand3/games.csv"),
        dir.path(),
    ))
    .unwrap_err();
    assert!(
        format!("{e:#}").contains("not a two-sided zero-sum"),
        "{e:#}"
    );
    assert!(!dir.path().join("values.csv").exists());
}

#[test]
fn rule_values_refuses_too_few_games() {
    let dir = tempfile::tempdir().unwrap();
    let small = head(
        &results("synchronous/orthodox-baseline/games.csv"),
        MIN_GAMES - 1,
        dir.path(),
    );
    let e = values::run(&args("chess", small, dir.path())).unwrap_err();
    assert!(
        format!("{e:#}").contains(&format!("at least {MIN_GAMES} games")),
        "{e:#}"
    );
}

#[test]
fn rule_values_refuses_games_of_another_variant() {
    let dir = tempfile::tempdir().unwrap();
    let e = values::run(&args(
        "chess",
        results("adrenaline/balance/games.csv"),
        dir.path(),
    ))
    .unwrap_err();
    assert!(
        format!("{e:#}").contains("is adrenaline, not chess"),
        "{e:#}"
    );
}

/// Chess games of a real run: every output is written, the pawn is 1 by construction,
/// the queen is worth more than a pawn and the learned model beats the material-free one.
#[test]
fn rule_values_chess_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let from = head(
        &results("synchronous/orthodox-baseline/games.csv"),
        300,
        dir.path(),
    );
    let out = dir.path().join("out");
    values::run(&args("chess", from, &out)).unwrap();
    for f in ["values.csv", "values.toml", "report.md", "values.svg"] {
        assert!(out.join(f).exists(), "{f}");
    }
    let csv = std::fs::read_to_string(out.join("values.csv")).unwrap();
    let value = |name: &str| -> f64 {
        let line = csv
            .lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .unwrap();
        line.split(',').nth(2).unwrap().parse().unwrap()
    };
    assert_eq!(value("pawn"), 1.0);
    assert!(value("queen") > 1.0);
    let toml_text = std::fs::read_to_string(out.join("values.toml")).unwrap();
    let w: agents::eval::EvalWeights = toml::from_str(&toml_text).unwrap();
    assert_eq!(w.pawn, 1.0);
    assert!((w.queen - value("queen")).abs() < 1e-3);
}

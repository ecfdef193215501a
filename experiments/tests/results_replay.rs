//! Every `games.csv` kept under `results/` replays with the current build (issue 33): a
//! rule change that makes a kept game illegal, end differently or fail its parameter
//! digest turns this test red, so stale evidence cannot stay behind. It is
//! `chesslab verify results/` run through the library, plus the command itself on a
//! small tree with one good and one doctored file.

use experiments::run::verify::{games_files, verify_file};
use std::path::Path;
use std::process::Command;

#[test]
fn every_kept_games_csv_replays_with_this_build() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    let files = games_files(&root).expect("results/ holds games.csv files");
    let mut problems = Vec::new();
    let mut games = 0;
    for f in &files {
        let v = verify_file(f);
        games += v.games;
        for (i, why) in v.failures.iter().take(2) {
            problems.push(format!("{} game {i:?}: {why}", f.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems in {} files ({games} games); rerun or retire them:\n{}",
        problems.len(),
        files.len(),
        problems.join("\n")
    );
    assert!(games > 1000, "only {games} games found under results/");
}

/// `chesslab verify` exits 0 on a good file, 1 naming the game on a doctored one, and an
/// empty folder is an error rather than a pass.
#[test]
fn verify_command_names_the_game_that_does_not_replay() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good");
    let o = Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args([
            "tournament",
            "--variant",
            "chess",
            "--agents",
            "random,greedy",
            "--games",
            "4",
            "--seed",
            "3",
            "--out",
        ])
        .arg(&good)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let verify = |p: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_chesslab"))
            .arg("verify")
            .arg(p)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, out, _) = verify(dir.path());
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("verified: all 4 games in 1 files"), "{out}");

    // Doctor one game's recorded reason in a copy: verify must fail and name it.
    let bad = dir.path().join("bad");
    std::fs::create_dir(&bad).unwrap();
    std::fs::copy(good.join("run.json"), bad.join("run.json")).unwrap();
    let text = std::fs::read_to_string(good.join("games.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let reasons = ["checkmate", "stalemate", "repetition", "fifty-moves", "cap"];
    let reason = reasons
        .iter()
        .find(|r| lines[1].contains(&format!(",{r},")))
        .expect("a known reason in the first game");
    let other = if *reason == "stalemate" {
        "checkmate"
    } else {
        "stalemate"
    };
    lines[1] = lines[1].replace(&format!(",{reason},"), &format!(",{other},"));
    std::fs::write(bad.join("games.csv"), lines.join("\n") + "\n").unwrap();
    let (code, out, err) = verify(dir.path());
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("FAIL") && out.contains("game 0: "), "{out}");
    assert!(err.contains("1 of 2 files fail"), "{err}");

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (code, _, err) = verify(&empty);
    assert_eq!(code, Some(1));
    assert!(err.contains("holds no games.csv"), "{err}");
}

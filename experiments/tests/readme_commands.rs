//! Every `chesslab` command the README and the guide pages (docs/guide/*.md) show (in
//! their ```sh blocks) is checked (issue 39: README examples named files that did not
//! exist; issue 68: the guide's commands too, and no example writes into kept results).
//!
//! Decision: each command is checked in two ways.
//! - Always: its subcommand exists, every `--flag` it names is in that subcommand's
//!   `--help`, and every input file it names exists in the repository (the example
//!   files live in `examples/`). This covers synopsis lines too (`[--gauntlet]`,
//!   `DIR/games.csv`).
//! - Commands written to be run as they stand are run from the repository root with small
//!   counts (`--games`, `--iterations`, `--count`, `--holes`, `--confirm-games` cut to
//!   2, perft depths to 3), every output redirected into a temporary folder (a command
//!   that writes to `results/` by default gets an `--out` there), and must succeed.
//!   Those that cannot run here are listed in [`CHECKED_ONLY`] with the reason; outside
//!   programs that are missing skip with a note (`common::skip`).

use crate::common;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Commands (by a fragment) that are checked but not run, and why.
const CHECKED_ONLY: &[(&str, &str)] = &[
    (
        "--shard auto/8",
        "needs a scheduler's task index (tests/scale_out.rs runs shards)",
    ),
    (
        "values --variant cassandra --agents",
        "learning values needs at least 100 games",
    ),
    (
        "values --variant chess --games",
        "learning values needs at least 100 games",
    ),
    (
        "verify results/",
        "replays every kept run (tests/results_replay.rs checks them)",
    ),
    (
        "chesslab serve",
        "starts the playtest board and runs until stopped (tests/serve_*.rs start it)",
    ),
    (
        "golf bench --book",
        "solves the whole book (minutes); `golf bench` runs in tests/golf_cli.rs",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The commands of the README's ```sh blocks: continued lines joined, comments cut, the
/// quickstart's `cargo run --profile quick -p experiments --` read as `chesslab`.
fn commands(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let line = cut_comment(line);
        let (body, more) = match line.trim_end().strip_suffix('\\') {
            Some(b) => (b.to_string(), true),
            None => (line.to_string(), false),
        };
        pending.push_str(body.trim());
        pending.push(' ');
        if !more {
            let cmd = pending
                .trim()
                .replace("cargo run --profile quick -p experiments -- ", "chesslab ")
                .replace("cargo run --release -p experiments -- ", "chesslab ");
            if cmd.starts_with("chesslab ") {
                out.push(cmd);
            }
            pending.clear();
        }
    }
    out
}

/// The line without a `#` comment (a `#` after a space, outside quotes).
fn cut_comment(line: &str) -> String {
    let mut quoted = false;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        if c == '"' {
            quoted = !quoted;
        }
        if c == '#' && !quoted && prev.is_whitespace() {
            return line[..i].to_string();
        }
        prev = c;
    }
    line.to_string()
}

/// Shell words: whitespace-separated, double quotes group.
fn words(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in cmd.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The subcommand path (`["golf", "solve"]`) of a command's words after `chesslab`.
fn subcommand(w: &[String]) -> Vec<String> {
    let n = if w.first().map(String::as_str) == Some("golf") {
        2
    } else {
        1
    };
    w.iter().take(n).cloned().collect()
}

fn help(sub: &[String]) -> String {
    let mut args: Vec<&str> = sub.iter().map(String::as_str).collect();
    args.push("--help");
    let o = common::chesslab(&args);
    assert!(
        o.status.success(),
        "chesslab {sub:?} --help: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Input files a command names: words (or `|` alternatives) that look like file paths,
/// other than outputs (`--out X`, `> X`) and placeholders (`DIR/...`, `FILE.md`).
fn inputs(w: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_next = false;
    for word in w {
        if skip_next {
            skip_next = false;
            continue;
        }
        if word == "--out" || word == ">" {
            skip_next = true;
            continue;
        }
        for part in word.trim_matches(|c| c == '[' || c == ']').split('|') {
            let part = part.rsplit('=').next().unwrap_or(part);
            let part = part.split_whitespace().next_back().unwrap_or(part);
            let looks = [".toml", ".epd", ".pgn", ".txt", ".py", ".csv"]
                .iter()
                .any(|e| part.ends_with(e));
            let placeholder = part.chars().any(|c| c.is_ascii_uppercase());
            if looks && !placeholder {
                out.push(part.to_string());
            }
        }
    }
    out
}

/// The documents whose commands are checked: the README, then every guide page.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![root.join("README.md")];
    let mut guide: Vec<PathBuf> = std::fs::read_dir(root.join("docs/guide"))
        .expect("docs/guide")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guide.sort();
    assert!(guide.len() >= 6, "only {} guide pages", guide.len());
    docs.extend(guide);
    docs
}

#[test]
fn every_readme_and_guide_command_names_real_flags_and_files_and_runs() {
    let root = root();
    let (mut found, mut ran) = (0, 0);
    for doc in documents(&root) {
        let (f, r) = check_document(&root, &doc);
        found += f;
        ran += r;
    }
    assert!(found >= 30, "only {found} commands found");
    assert!(ran >= 15, "only {ran} commands ran");
}

/// Examples write into folders of their own, never into results/ (kept evidence that
/// CI replays): every `--out` of a command meant to be run names another folder.
#[test]
fn no_example_writes_into_kept_results() {
    let root = root();
    for doc in documents(&root) {
        let text = std::fs::read_to_string(&doc).unwrap();
        for cmd in commands(&text) {
            let w = words(&cmd);
            let synopsis = cmd.contains('[') || cmd.contains('<') || cmd.contains("DIR");
            if synopsis {
                continue;
            }
            if let Some(i) = w.iter().position(|x| x == "--out") {
                let out = w.get(i + 1).map(String::as_str).unwrap_or("");
                assert!(
                    !out.starts_with("results/") && !out.starts_with("./results/"),
                    "{}: `{cmd}` writes into the kept results ({out}); use runs/ instead",
                    doc.display()
                );
            }
        }
    }
}

/// Checks one document's commands; returns how many were found and how many ran.
fn check_document(root: &Path, doc: &Path) -> (usize, usize) {
    let doc_name = doc.strip_prefix(root).unwrap_or(doc).display().to_string();
    let readme = std::fs::read_to_string(doc).unwrap();
    let cmds = commands(&readme);
    let tmp = tempfile::tempdir().unwrap();
    let mut produced: Vec<String> = Vec::new();
    let mut outs: Vec<(String, PathBuf)> = Vec::new();
    let mut ran = 0;
    for (n, cmd) in cmds.iter().enumerate() {
        let w: Vec<String> = words(cmd).into_iter().skip(1).collect();
        let sub = subcommand(&w);
        let h = help(&sub);
        for flag in w.iter().map(|x| x.trim_matches(|c| c == '[' || c == ']')) {
            if flag.starts_with("--") && flag != "--help" {
                let name = flag.split('=').next().unwrap();
                assert!(
                    h.contains(name),
                    "{doc_name}: `{cmd}`: {name} is not a flag of chesslab {}",
                    sub.join(" ")
                );
            }
        }
        for f in inputs(&w) {
            assert!(
                root.join(&f).exists() || produced.contains(&f),
                "{doc_name}: `{cmd}` names {f}, which is not in the repository"
            );
        }
        if let Some(i) = w.iter().position(|x| x == ">") {
            produced.push(w[i + 1].clone());
        }
        // A folder an earlier command writes (`--out X`) is that command's output in the
        // test's folder when a later one reads it (`--chess-from X`).
        let out_dir = w
            .iter()
            .position(|x| x == "--out")
            .and_then(|i| w.get(i + 1).cloned());
        let synopsis =
            cmd.contains('[') || cmd.contains('<') || cmd.contains("DIR") || cmd.contains('*');
        if synopsis || CHECKED_ONLY.iter().any(|(frag, _)| cmd.contains(frag)) {
            continue;
        }
        let missing: Vec<&str> = outside_programs(cmd)
            .into_iter()
            .filter(|p| agents::process::locate(p).is_err())
            .collect();
        if !missing.is_empty() {
            common::skip::missing(
                "every_readme_and_guide_command_names_real_flags_and_files_and_runs",
                &format!("{} (for `{cmd}`)", missing.join(", ")),
                "scripts/install-test-tools",
                "CHESSLAB_REQUIRE_ENGINES",
            );
            continue;
        }
        run(root, tmp.path(), n, &w, &produced, &outs, cmd);
        ran += 1;
        if let Some(d) = out_dir {
            outs.push((d, tmp.path().join(format!("out{n}"))));
        }
    }
    (cmds.len(), ran)
}

/// The outside programs a command's agents start (`uci:cmd=stockfish`, `ext:cmd=python3`).
fn outside_programs(cmd: &str) -> Vec<&'static str> {
    ["fairy-stockfish", "stockfish", "python3"]
        .into_iter()
        .filter(|p| cmd.contains(&format!("cmd={p}")))
        .collect()
}

/// Runs one command with small counts and outputs in `tmp`.
fn run(
    root: &Path,
    tmp: &Path,
    n: usize,
    w: &[String],
    produced: &[String],
    outs: &[(String, PathBuf)],
    cmd: &str,
) {
    let small = [
        "--games",
        "--iterations",
        "--count",
        "--holes",
        "--confirm-games",
    ];
    let mut args: Vec<String> = Vec::new();
    let mut stdout_to: Option<PathBuf> = None;
    let mut i = 0;
    while i < w.len() {
        let word = &w[i];
        let next = w.get(i + 1);
        if small.contains(&word.as_str()) && next.is_some() {
            args.extend([word.clone(), "2".into()]);
            i += 2;
        } else if word == "--depth" && w[0] == "perft" {
            let d: u32 = next.unwrap().parse().unwrap();
            args.extend([word.clone(), d.min(3).to_string()]);
            i += 2;
        } else if word == "--out" {
            args.extend([
                word.clone(),
                tmp.join(format!("out{n}")).display().to_string(),
            ]);
            i += 2;
        } else if word == ">" {
            stdout_to = Some(tmp.join(next.unwrap()));
            i += 2;
        } else if produced.contains(word) {
            args.push(tmp.join(word).display().to_string());
            i += 1;
        } else if let Some((_, dir)) = outs.iter().rev().find(|(d, _)| d == word) {
            args.push(dir.display().to_string());
            i += 1;
        } else {
            args.push(word.clone());
            i += 1;
        }
    }
    let writes_by_default = ["tournament", "balance", "values", "tune"];
    if writes_by_default.contains(&w[0].as_str()) && !args.iter().any(|a| a == "--out") {
        args.extend([
            "--out".into(),
            tmp.join(format!("out{n}")).display().to_string(),
        ]);
    }
    if w[0] == "tune" && !args.iter().any(|a| a == "--confirm-games") {
        args.extend(["--confirm-games".into(), "2".into()]);
    }
    let o = Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(&args)
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "`{cmd}` failed (run as {args:?}):\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    if let Some(p) = stdout_to {
        std::fs::write(p, &o.stdout).unwrap();
    }
}

#[test]
fn readme_commands_are_read_as_written() {
    let md = "text\n```sh\nchesslab a --x 1 \\\n    --y \"p q\"   # note\ncargo run --release -p experiments -- b\n```\n```toml\nchesslab no\n```\n";
    assert_eq!(commands(md), ["chesslab a --x 1 --y \"p q\"", "chesslab b"]);
    assert_eq!(words("a \"b c\" d"), ["a", "b c", "d"]);
    let w: Vec<String> = [
        "trace",
        "--params",
        "examples/cap.toml",
        "--out",
        "x.jsonl",
        "[--openings",
        "examples/book.epd|examples/book.pgn]",
        "DIR/games.csv",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(
        inputs(&w),
        [
            "examples/cap.toml",
            "examples/book.epd",
            "examples/book.pgn"
        ]
    );
}

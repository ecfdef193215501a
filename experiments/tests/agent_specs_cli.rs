//! Bad agent specs through the binary (issue 23, items 1 and 10): each is refused with a
//! clean error (exit code non-zero, no panic) that names the rule broken, and writes
//! nothing.

use std::process::Command;

/// Runs `chesslab` in a fresh folder; returns (success, stderr, files left there).
fn run(args: &[&str]) -> (bool, String, usize) {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(args)
        .current_dir(dir.path())
        .output()
        .expect("run chesslab");
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        files,
    )
}

/// `play` and `tournament` both refuse `agents`, with a message containing `rule`.
fn refused(agents: &str, rule: &str) {
    let play = ["play", "--variant", "chess", "--agents", agents];
    let tour = [
        "tournament",
        "--variant",
        "chess",
        "--agents",
        agents,
        "--games",
        "2",
        "--out",
        "out",
    ];
    for args in [&play[..], &tour[..]] {
        let (ok, err, files) = run(args);
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains("error:"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains(rule), "{args:?}: expected '{rule}' in:\n{err}");
        assert_eq!(files, 0, "{args:?} left files behind");
    }
}

#[test]
fn rule_non_finite_agent_settings_are_refused() {
    for agent in ["mcts", "ismcts", "cheat", "smmcts", "pimc"] {
        for v in ["nan", "inf", "-inf"] {
            refused(&format!("{agent}:c={v},greedy"), "must be a finite number");
        }
    }
    refused(
        "alphabeta:eval.knight=nan,greedy",
        "must be a finite number",
    );
}

#[test]
fn rule_agent_settings_out_of_range_are_refused() {
    refused("mcts:c=-1,greedy", "must be a finite number from 0 to 100");
    refused(
        "mcts:time_ms=0,greedy",
        "'time_ms': must be a finite number from 0.001",
    );
    refused(
        "pimc:worlds=0,greedy",
        "'worlds': must be an integer from 1",
    );
}

#[test]
fn rule_agent_spec_syntax_is_enforced() {
    refused("alphabeta:depth=1,depth=2,greedy", "'depth' given twice");
    refused("random,,greedy", "agent 2 is empty");
    refused("random:,greedy", "':' must be followed by key=value");
    refused("random:depth=3,greedy", "agent 'random' has no settings");
}

/// `chesslab agents` is the catalogue; `play`, `tournament` and `balance --help` point to
/// it instead of repeating it (issue 39: 130 lines in each help).
#[test]
fn agents_lists_the_agent_settings_and_helps_point_to_it() {
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_chesslab"))
            .args(args)
            .output()
            .expect("run chesslab");
        assert!(o.status.success(), "{args:?}");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let out = run(&["agents"]);
    for needle in ["alphabeta - ", "eval.knight=3.2", "c: UCB1", "worlds"] {
        assert!(
            out.contains(needle),
            "'{needle}' missing from chesslab agents:\n{out}"
        );
    }
    for cmd in ["play", "tournament", "balance"] {
        let help = run(&[cmd, "--help"]);
        assert!(help.contains("chesslab agents"), "{cmd} --help:\n{help}");
        assert!(
            !help.contains("alphabeta - "),
            "{cmd} --help repeats the catalogue"
        );
    }
}

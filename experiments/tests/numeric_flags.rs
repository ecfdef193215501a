//! Issue 39, fixed by class rather than by example: the whole `chesslab` command tree
//! (`experiments::cli::command()`, the tree `chesslab` itself parses) is walked, so a
//! flag added later is checked without editing a list.
//!
//! - `every_argument_has_help`: every argument of every (sub)command has a non-empty help
//!   text (`serve --port` and `tune --optimizer` had none).
//! - `every_numeric_flag_refuses_overflow_infinity_and_nan`: every flag or positional
//!   whose value is a number (its value parser yields an integer or float type) refuses
//!   `inf`, `-inf`, `NaN`, `1e400` and, for whole numbers, `18446744073709551616` (one past
//!   `u64::MAX`), with clap's "invalid value ... for '--flag'" naming it. The check is in
//!   the flag's value parser, so it happens before anything runs: the process exits 2 with
//!   one line, as `every_bad_input_in_the_list_is_refused_cleanly` checks through the
//!   binary for a sample of these in `tests/data/bad_inputs.txt`.
//! - `every_numeric_agent_setting_refuses_overflow_infinity_and_nan`: every whole-number
//!   and real key of every agent in the registry refuses the same values, naming the key.
//!
//! - `help_texts_hold_no_source_paths_or_code_names` (issue 68): no about, help or
//!   possible-value text of any (sub)command shows rustdoc link syntax (`[super::x]`,
//!   `` [`Foo`] ``), a path (`::`), a source file (`src/`, `.rs`) or a code name.
//!
//! Floats inside TOML files (parameters, tune spaces and targets, panels) are checked
//! where each file is read; their bad values are lines of `tests/data/bad_inputs.txt`.

use clap::Command;
use std::any::TypeId;

/// Every (sub)command with its path of names, depth first.
fn walk(cmd: &Command, path: Vec<String>, out: &mut Vec<(Vec<String>, Command)>) {
    out.push((path.clone(), cmd.clone()));
    for sub in cmd.get_subcommands() {
        let mut p = path.clone();
        p.push(sub.get_name().to_string());
        walk(sub, p, out);
    }
}

fn commands() -> Vec<(Vec<String>, Command)> {
    let mut out = Vec::new();
    let mut root = experiments::cli::command();
    // Builds the help and version flags into every subcommand, as parsing does.
    root.build();
    walk(&root, Vec::new(), &mut out);
    out
}

/// clap's own `--help` and `--version`.
fn is_builtin(arg: &clap::Arg) -> bool {
    matches!(arg.get_id().as_str(), "help" | "version")
}

#[test]
fn every_argument_has_help() {
    let mut missing = Vec::new();
    let mut n = 0;
    for (path, cmd) in commands() {
        for arg in cmd.get_arguments().filter(|a| !is_builtin(a)) {
            n += 1;
            let help = arg
                .get_help()
                .or(arg.get_long_help())
                .map(|h| h.to_string())
                .unwrap_or_default();
            if help.trim().is_empty() {
                missing.push(format!("chesslab {} {}", path.join(" "), arg.get_id()));
            }
        }
    }
    assert!(n > 100, "only {n} arguments found: the walk is broken");
    assert!(
        missing.is_empty(),
        "arguments without a help text:\n{}",
        missing.join("\n")
    );
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Number {
    Whole,
    Real,
}

fn number_kind(arg: &clap::Arg) -> Option<Number> {
    let t = arg.get_value_parser().type_id();
    let whole = [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<isize>(),
    ];
    if whole.iter().any(|w| t == *w) {
        Some(Number::Whole)
    } else if t == TypeId::of::<f64>() || t == TypeId::of::<f32>() {
        Some(Number::Real)
    } else {
        None
    }
}

#[test]
fn every_numeric_flag_refuses_overflow_infinity_and_nan() {
    let mut failures = Vec::new();
    let mut checked = Vec::new();
    for (path, cmd) in commands() {
        let positionals: Vec<&clap::Arg> = cmd.get_positionals().collect();
        for arg in cmd.get_arguments().filter(|a| !is_builtin(a)) {
            if !arg.get_num_args().is_some_and(|n| n.takes_values()) {
                continue;
            }
            let Some(kind) = number_kind(arg) else {
                continue;
            };
            let mut bad = vec!["inf", "-inf", "NaN", "1e400"];
            if kind == Number::Whole {
                bad.push("18446744073709551616");
            }
            let name = match arg.get_long() {
                Some(l) => format!("--{l}"),
                None => format!("<{}>", arg.get_id().as_str().to_ascii_uppercase()),
            };
            checked.push(format!("{} {name}", path.join(" ")));
            for value in bad {
                let mut argv: Vec<String> = vec!["chesslab".into()];
                argv.extend(path.iter().cloned());
                match arg.get_long() {
                    Some(l) => argv.push(format!("--{l}={value}")),
                    None => {
                        // Earlier positionals get a placeholder; this one the bad value.
                        for p in &positionals {
                            if p.get_id() == arg.get_id() {
                                break;
                            }
                            argv.push("x".into());
                        }
                        argv.push(value.into());
                    }
                }
                let shown = argv.join(" ");
                match experiments::cli::command().try_get_matches_from(&argv) {
                    Ok(_) => failures.push(format!("{shown}: accepted")),
                    Err(e) => {
                        let text = e.to_string();
                        let named = match arg.get_long() {
                            Some(l) => text.contains(&format!("'--{l}")),
                            None => text.contains(&format!(
                                "'<{}",
                                arg.get_value_names()
                                    .and_then(|v| v.first())
                                    .map(|v| v.to_string())
                                    .unwrap_or_else(|| arg.get_id().as_str().to_ascii_uppercase())
                            )),
                        };
                        let invalid = matches!(
                            e.kind(),
                            clap::error::ErrorKind::ValueValidation
                                | clap::error::ErrorKind::InvalidValue
                        );
                        if !(invalid && named) {
                            failures.push(format!(
                                "{shown}: not refused as this flag's bad value ({:?}): {}",
                                e.kind(),
                                text.lines().next().unwrap_or("")
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        checked.len() > 30,
        "only {} numeric flags found: {checked:?}",
        checked.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_numeric_agent_setting_refuses_overflow_infinity_and_nan() {
    use agents::settings::Kind;
    use engine::variants::chess::Chess;
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in agents::registry::names() {
        // Agents that do not play chess (or need an outside program) are checked on the
        // spec alone: a refusal must still name the key, never the game.
        let Some(schema) = agents::registry::schema(name) else {
            continue;
        };
        for setting in &schema {
            let values: &[&str] = match setting.kind {
                Kind::Int { .. } => &["inf", "NaN", "1e400", "18446744073709551616", "-1"],
                Kind::Real { .. } => &["inf", "-inf", "NaN", "1e400"],
                _ => continue,
            };
            checked += 1;
            for v in values {
                let spec = format!("{name}:{}={v}", setting.key);
                match agents::registry::build::<Chess>(&spec) {
                    Ok(_) => failures.push(format!("{spec}: accepted")),
                    Err(e) => {
                        let text = e.to_string();
                        let named = matches!(&e, agents::AgentError::BadValue { key, .. } if key == setting.key);
                        if !named {
                            failures
                                .push(format!("{spec}: refused without naming the key: {text}"));
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} numeric agent settings found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What no text a user reads may hold: rustdoc links and paths leak from doc comments
/// into clap's help (issue 68: `tournament --help` showed `[super::time_control]`).
pub fn code_leaks(text: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    // A path separator between two names (`super::time_control`), not an address (`[::1]`).
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let path = text
        .match_indices("::")
        .any(|(i, _)| word(text[..i].chars().next_back()) && word(text[i + 2..].chars().next()));
    if path {
        found.push("::");
    }
    for (needle, what) in [
        ("[`", "[`"),
        ("`]", "`]"),
        ("[super", "[super"),
        ("[crate", "[crate"),
        ("[Self", "[Self"),
        ("src/", "src/"),
    ] {
        if text.contains(needle) {
            found.push(what);
        }
    }
    let rs = text.match_indices(".rs").any(|(i, _)| {
        !text[i + 3..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
    });
    if rs {
        found.push(".rs");
    }
    found
}

#[test]
fn help_texts_hold_no_source_paths_or_code_names() {
    let mut bad = Vec::new();
    let mut n = 0;
    for (path, cmd) in commands() {
        let name = format!("chesslab {}", path.join(" "));
        let mut texts: Vec<(String, String)> = Vec::new();
        for t in [cmd.get_about(), cmd.get_long_about(), cmd.get_after_help()]
            .into_iter()
            .flatten()
        {
            texts.push((name.clone(), t.to_string()));
        }
        for arg in cmd.get_arguments().filter(|a| !is_builtin(a)) {
            let who = format!("{name} --{}", arg.get_id());
            for t in [arg.get_help(), arg.get_long_help()].into_iter().flatten() {
                texts.push((who.clone(), t.to_string()));
            }
            for v in arg.get_possible_values() {
                if let Some(h) = v.get_help() {
                    texts.push((format!("{who}={}", v.get_name()), h.to_string()));
                }
            }
        }
        for (who, text) in texts {
            n += 1;
            let leaks = code_leaks(&text);
            if !leaks.is_empty() {
                bad.push(format!("{who}: {leaks:?} in {text:?}"));
            }
        }
    }
    assert!(n > 100, "only {n} texts found: the walk is broken");
    assert!(
        bad.is_empty(),
        "help texts with code in them:\n{}",
        bad.join("\n")
    );
    // The checker itself finds what it must.
    assert_eq!(code_leaks("see [super::time_control]"), ["::", "[super"]);
    assert_eq!(
        code_leaks("see experiments/src/metrics.rs."),
        ["src/", ".rs"]
    );
    assert!(code_leaks("players.rsvp and results/x.csv, [::1]").is_empty());
}

//! End-to-end tests of `chesslab trace` through the binary: traces of every variant
//! replayed step by step through the variant table (`parse_action`, `apply`,
//! `apply_joint`), byte-identical reruns, agreement with tournament records, and bad
//! input refused without output.

use engine::game::{Game, Turn};
use engine::registry::{self, VariantVisitor, VARIANTS};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn chesslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(args)
        .output()
        .expect("run chesslab")
}

fn ok(args: &[&str]) -> Vec<u8> {
    let o = chesslab(args);
    assert!(
        o.status.success(),
        "chesslab {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

/// Runs a command that must fail cleanly and print nothing; returns its stderr.
fn fails(args: &[&str]) -> String {
    let o = chesslab(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success(), "chesslab {args:?} should fail");
    assert!(err.contains("error"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(o.stdout.is_empty(), "chesslab {args:?} wrote output");
    err
}

const CAP: &str = "ply_cap = 40\n";

fn cap_file(dir: &Path) -> PathBuf {
    let p = dir.join("cap.toml");
    std::fs::write(&p, CAP).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn lines(bytes: &[u8]) -> Vec<Value> {
    std::str::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

/// Replays one traced game from its own "params" and checks every step against the
/// rules: the node's kind, its legal list (or outcomes and probabilities), the action
/// parsed with `parse_action` and applied, the observations, and the result.
struct Replay<'a>(&'a Value);

impl VariantVisitor for Replay<'_> {
    type Output = usize;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> usize {
        let t = self.0;
        assert_eq!(t["variant"], name);
        // "params" is the full set: it reads back as the variant's parameters and
        // equals those the table built from the same file.
        let own: G::Params = serde_json::from_value(t["params"].clone())
            .unwrap_or_else(|e| panic!("{name}: params do not read back: {e}"));
        assert_eq!(
            serde_json::to_value(&params).unwrap(),
            t["params"],
            "{name}"
        );
        let mut game = G::new(&own);
        let seats = game.num_seats();
        let mut legal = Vec::new();
        let mut outcomes = Vec::new();
        let steps = t["steps"].as_array().unwrap();
        for (i, step) in steps.iter().enumerate() {
            let at = format!("{name} game {} step {i}", t["game"]);
            let obs = strings(&step["observations"]);
            assert_eq!(obs.len(), seats, "{at}");
            for (s, o) in obs.iter().enumerate() {
                assert_eq!(*o, game.observation(s), "{at}: observation of seat {s}");
            }
            match game.turn() {
                Turn::Seat(seat) => {
                    assert_eq!(step["turn"], "seat", "{at}");
                    assert_eq!(step["seat"], seat, "{at}");
                    game.legal_actions(seat, &mut legal);
                    let names: Vec<String> =
                        legal.iter().map(|&a| game.action_notation(a)).collect();
                    assert_eq!(strings(&step["legal"]), names, "{at}");
                    let a = game
                        .parse_action(step["action"].as_str().unwrap())
                        .unwrap_or_else(|e| panic!("{at}: {e}"));
                    assert!(legal.contains(&a), "{at}: parsed action is not legal");
                    game.apply(a);
                }
                Turn::Chance => {
                    assert_eq!(step["turn"], "chance", "{at}");
                    game.chance_outcomes(&mut outcomes);
                    let listed = step["outcomes"].as_array().unwrap();
                    assert_eq!(listed.len(), outcomes.len(), "{at}");
                    let mut total = 0.0;
                    for (pair, &(a, p)) in listed.iter().zip(&outcomes) {
                        assert_eq!(pair[0], game.action_notation(a), "{at}");
                        let q = pair[1].as_f64().unwrap();
                        assert!(close(q, p), "{at}: probability {q} != {p}");
                        total += q;
                    }
                    assert!((total - 1.0).abs() < 1e-9, "{at}: outcomes sum to {total}");
                    let a = game
                        .parse_action(step["action"].as_str().unwrap())
                        .unwrap_or_else(|e| panic!("{at}: {e}"));
                    assert!(outcomes.iter().any(|o| o.0 == a), "{at}: not an outcome");
                    game.apply(a);
                }
                Turn::Simultaneous => {
                    assert_eq!(step["turn"], "simultaneous", "{at}");
                    let acting = game.simultaneous_seats();
                    let listed_seats: Vec<usize> = step["seats"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_u64().unwrap() as usize)
                        .collect();
                    assert_eq!(listed_seats, acting, "{at}");
                    let actions = strings(&step["action"]);
                    assert_eq!(actions.len(), acting.len(), "{at}");
                    let mut joint = Vec::new();
                    for (k, &seat) in acting.iter().enumerate() {
                        game.legal_actions(seat, &mut legal);
                        let names: Vec<String> =
                            legal.iter().map(|&a| game.action_notation(a)).collect();
                        assert_eq!(strings(&step["legal"][k]), names, "{at}");
                        let a = game
                            .parse_action(&actions[k])
                            .unwrap_or_else(|e| panic!("{at}: {e}"));
                        assert!(legal.contains(&a), "{at}");
                        joint.push(a);
                    }
                    game.apply_joint(&joint);
                }
                Turn::Terminal => panic!("{at}: a step after the end"),
            }
        }
        assert_eq!(game.turn(), Turn::Terminal, "{name}: the trace stops early");
        let result = game.result().unwrap();
        assert_eq!(t["result"]["reason"], result.reason, "{name}");
        let returns: Vec<f64> = t["result"]["returns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(returns.len(), seats);
        for (a, b) in returns.iter().zip(&result.returns) {
            assert!(close(*a, *b), "{name}: returns {returns:?}");
        }
        let tallies = t["tallies"].as_object().unwrap();
        let own = game.tallies();
        assert_eq!(tallies.len(), own.len(), "{name}");
        for (k, v) in own {
            assert!(close(tallies[&k].as_f64().unwrap(), v), "{name}: tally {k}");
        }
        let end = strings(&t["final_observations"]);
        assert_eq!(
            end,
            (0..seats).map(|s| game.observation(s)).collect::<Vec<_>>()
        );
        steps.len()
    }
}

/// Every variant's traces replay through `parse_action` and `apply` node by node.
#[test]
fn traces_of_every_variant_replay_through_the_rules() {
    let d = tempfile::tempdir().unwrap();
    let pf = cap_file(d.path());
    for v in VARIANTS {
        let out = ok(&[
            "trace",
            "--variant",
            v,
            "--agent",
            "random",
            "--games",
            "3",
            "--seed",
            "5",
            "--params",
            s(&pf),
            "--observations",
        ]);
        let games = lines(&out);
        assert_eq!(games.len(), 3, "{v}");
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g["game"], i, "{v}");
            assert_eq!(g["seed"], 5, "{v}");
            assert!(g["opening"].is_null(), "{v}");
            let steps = registry::visit(v, Some(CAP), Replay(g)).unwrap();
            assert!(steps > 0, "{v}");
        }
    }
}

/// A traced opening is recorded and the game starts from it.
#[test]
fn traces_start_from_the_opening() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let out = ok(&[
        "trace",
        "--variant",
        "chess",
        "--agents",
        "random,greedy",
        "--opening",
        fen,
        "--games",
        "2",
    ]);
    for g in lines(&out) {
        assert_eq!(g["opening"], fen);
        assert_eq!(strings(&g["agents"]), vec!["random", "greedy"]);
        let first = strings(&g["steps"][0]["legal"]);
        // King and pawn: 4 king moves (e2 is taken) and 2 pawn moves.
        assert_eq!(first.len(), 6, "{first:?}");
        assert!(first.contains(&"e2e4".to_string()));
    }
}

/// The same arguments write the same bytes, to standard output or to a file.
#[test]
fn same_seed_same_bytes() {
    let d = tempfile::tempdir().unwrap();
    let pf = cap_file(d.path());
    let args = [
        "trace",
        "--variant",
        "expedition",
        "--agents",
        "random,greedy",
        "--games",
        "4",
        "--seed",
        "9",
        "--params",
        s(&pf),
    ];
    let a = ok(&args);
    let b = ok(&args);
    assert_eq!(a, b);
    let file = d.path().join("t.jsonl");
    let mut with_out = args.to_vec();
    with_out.extend(["--out", s(&file)]);
    assert!(ok(&with_out).is_empty());
    assert_eq!(std::fs::read(&file).unwrap(), a);
    let mut other_seed = args.to_vec();
    other_seed[8] = "10";
    assert_ne!(ok(&other_seed), a);
}

/// The actions of each traced game, as a record writes them (`a|b` for joint actions).
fn actions(g: &Value) -> String {
    g["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| match &st["action"] {
            Value::String(a) => a.clone(),
            joint => strings(joint).join("|"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Trace game i is tournament game i: `--agent X` against `--agents X,X`, and
/// `--agents A,B` against the tournament's games where A holds seat 0.
#[test]
fn trace_games_are_tournament_games() {
    let d = tempfile::tempdir().unwrap();
    let pf = cap_file(d.path());
    for (variant, trace_who, tour_agents, even_only) in [
        ("chess960", ["--agent", "random"], "random,random", false),
        ("expedition", ["--agent", "random"], "random,random", false),
        (
            "expedition",
            ["--agents", "random,greedy"],
            "random,greedy",
            true,
        ),
    ] {
        let dir = d.path().join(format!("{variant}-{}", trace_who[0]));
        ok(&[
            "tournament",
            "--variant",
            variant,
            "--agents",
            tour_agents,
            "--games",
            "4",
            "--seed",
            "3",
            "--params",
            s(&pf),
            "--threads",
            "1",
            "--out",
            s(&dir),
        ]);
        let rows = experiments::record::load(&dir.join("games.csv"))
            .unwrap()
            .rows;
        assert_eq!(rows.len(), 4);
        let traced = lines(&ok(&[
            "trace",
            "--variant",
            variant,
            trace_who[0],
            trace_who[1],
            "--games",
            "4",
            "--seed",
            "3",
            "--params",
            s(&pf),
        ]));
        for (row, g) in rows.iter().zip(&traced) {
            assert_eq!(g["game"], row.index);
            assert_eq!(g["game_seed"], row.seed, "{variant} game {}", row.index);
            if !even_only || row.index % 2 == 0 {
                assert_eq!(actions(g), row.actions, "{variant} game {}", row.index);
                assert_eq!(g["result"]["reason"], row.reason.as_str());
            }
        }
    }
}

#[test]
fn bad_input_is_refused_without_output() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("t.jsonl");
    let o = s(&out);
    let base = |extra: &[&'static str]| {
        let mut a = vec!["trace", "--out", o];
        if !extra.contains(&"--games") {
            a.extend(["--games", "2"]);
        }
        a.extend_from_slice(extra);
        a
    };
    let cases: [(&[&str], &str); 8] = [
        (
            &["--variant", "nochess", "--agent", "random"],
            "unknown variant",
        ),
        (&["--variant", "chess", "--agent", "nobot"], "nobot"),
        (
            &["--variant", "chess", "--agents", "random"],
            "2 seat(s) but 1",
        ),
        (
            &["--variant", "crowded-house", "--agents", "random,random"],
            "4 seat(s) but 2",
        ),
        (
            &[
                "--variant",
                "chess",
                "--agent",
                "random",
                "--opening",
                "not a fen",
            ],
            "opening",
        ),
        (
            &["--variant", "chess", "--agent", "random", "--games", "0"],
            "--games",
        ),
        (
            &["--variant", "chess", "--agent", "random,greedy"],
            "--agents",
        ),
        (
            &[
                "--variant",
                "chess",
                "--agent",
                "random",
                "--agents",
                "random,random",
            ],
            "cannot be used with",
        ),
    ];
    for (extra, needle) in cases {
        let args = base(extra);
        let err = fails(&args);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote {o}");
        let left: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
        assert!(left.is_empty(), "{args:?} left files behind");
    }
    // No agent at all.
    fails(&["trace", "--variant", "chess"]);
    // An existing file is kept unless --force.
    std::fs::write(&out, "keep\n").unwrap();
    let err = fails(&base(&["--variant", "chess", "--agent", "random"]));
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep\n");
    let mut forced = base(&["--variant", "chess", "--agent", "random", "--force"]);
    forced.extend(["--opening", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]);
    ok(&forced);
    let games = lines(&std::fs::read(&out).unwrap());
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["result"]["reason"], "insufficient-material");
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
}

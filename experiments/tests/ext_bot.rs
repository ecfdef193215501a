//! `chesslab ext-bot` (issue 66) against the ext protocol (docs/ext-protocol.md):
//!
//! - Conformance through the binary with hand-written JSON lines: `hello` → `ready`,
//!   `new_game`, `act` → one of `legal`, `quit` and end of input → exit 0; malformed
//!   JSON, a missing field, an action list that does not replay, a game of another
//!   variant → exit 1 with one `error:` line naming the message line, never a panic.
//! - Determinism: the same messages with the same `--seed` give the same answers.
//! - The clock: a decision with little time left answers within it.
//! - Real games: `chesslab tournament` with `ext:cmd=<chesslab> ext-bot ...` against a
//!   built-in agent in orthodox chess, Chess960 (chance), Synchronous and Two Move
//!   (simultaneous), Expedition (chance), Crowded House (four seats), and the
//!   hidden-information variants Zombie and Masquerade; every game ends by the rules (no
//!   forfeit) and replays.
//! - Tracking: on every served hidden-information variant the state the bot decides from
//!   shares the seat's information key with the true state at every decision
//!   (`hidden_information_tracking_is_exact`; Zombie: see there), and the refused variants
//!   are refused with the reason (`every_variant_is_served_or_refused_by_name`).

use crate::common;
use common::{chesslab, ok, s};
use engine::game::{Game, Information, Turn};
use engine::registry::{self, VariantVisitor};
use experiments::run::ext_bot::{ExtBot, Reply, Tracking};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const HELLO: &str = r#"{"type": "hello", "protocol": "chesslab-ext", "version": 1}"#;

/// Runs `chesslab ext-bot args` with `input` on standard input: (exit code, standard
/// output lines, standard error).
fn bot(args: &[&str], input: &str) -> (Option<i32>, Vec<String>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .arg("ext-bot")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chesslab ext-bot");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    (
        out.status.code(),
        lines,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json_of(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("'{line}' is not JSON: {e}"))
}

/// The `act` message chesslab's client sends for `seat` at `game` (agents/src/ext.rs).
fn act_message<G: Game>(game: &G, seat: usize, record: &[String]) -> String {
    let mut actions = Vec::new();
    game.legal_actions(seat, &mut actions);
    let legal: Vec<String> = actions.iter().map(|a| game.action_notation(*a)).collect();
    let perfect = game.facts().information == Information::Perfect;
    json!({
        "type": "act",
        "seat": seat,
        "seat_name": game.seat_name(seat),
        "observation": game.observation(seat),
        "legal": legal,
        "time_left_ms": null, "increment_ms": null, "moves_to_go": null,
        "record": if perfect { json!(record) } else { Value::Null },
        "ply": game.history_len(),
    })
    .to_string()
}

fn new_game(seats: usize, seat: usize, information: &str) -> String {
    json!({"type": "new_game", "seats": seats, "seat": seat, "seat_name": "x",
           "information": information})
    .to_string()
}

fn chess_act(record: &[&str]) -> String {
    let mut g = engine::variants::chess::Chess::new(&Default::default());
    for m in record {
        g.apply_text(m).unwrap();
    }
    let rec: Vec<String> = record.iter().map(|m| m.to_string()).collect();
    let seat = match g.turn() {
        Turn::Seat(s) => s,
        _ => unreachable!(),
    };
    act_message(&g, seat, &rec)
}

#[test]
fn conformance_hello_new_game_act_quit() {
    let act = chess_act(&["e2e4"]);
    let input = format!(
        "{HELLO}\n{}\n{act}\n{}\n{}\n",
        new_game(2, 1, "perfect"),
        r#"{"type": "quit"}"#,
        // Anything after quit is not read.
        "not json"
    );
    let (code, lines, err) = bot(&["--variant", "chess", "--agent", "greedy"], &input);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(json_of(&lines[0])["type"], "ready");
    let action = json_of(&lines[1])["action"].as_str().unwrap().to_string();
    let legal: Vec<String> = json_of(&act)["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(legal.contains(&action), "{action} not in {legal:?}");
    // End of input without quit is a normal end too; unknown types and blank lines are
    // ignored.
    let input = format!(
        "{HELLO}\n\n{}\n{}\n{act}\n",
        new_game(2, 1, "perfect"),
        r#"{"type": "result", "returns": [1, -1]}"#
    );
    let (code, lines, err) = bot(&["--variant", "chess", "--agent", "random"], &input);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(lines.len(), 2, "{lines:?}");
}

#[test]
fn conformance_acts_at_every_kind_of_node() {
    // Chess960: the record starts with the chance draw of the start position.
    struct FirstActs;
    impl VariantVisitor for FirstActs {
        type Output = (String, String);
        fn visit<G: Game>(self, _: &'static str, params: G::Params) -> (String, String) {
            let mut g = G::new(&params);
            let mut rec = Vec::new();
            let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
            // Play to the second decision of some seat: chance and joint nodes on the way.
            let mut decisions = 0;
            loop {
                match g.turn() {
                    Turn::Chance => {
                        let mut o = Vec::new();
                        g.chance_outcomes(&mut o);
                        let a = o[rng.gen_range(0..o.len())].0;
                        rec.push(g.action_notation(a));
                        g.apply(a);
                    }
                    Turn::Seat(s) => {
                        if decisions == 1 {
                            let info = if g.is_perfect_information() {
                                "perfect"
                            } else {
                                "imperfect"
                            };
                            return (new_game(g.num_seats(), s, info), act_message(&g, s, &rec));
                        }
                        decisions += 1;
                        let mut l = Vec::new();
                        g.legal_actions(s, &mut l);
                        let a = l[rng.gen_range(0..l.len())];
                        rec.push(g.action_notation(a));
                        g.apply(a);
                    }
                    Turn::Simultaneous => {
                        let seats = g.simultaneous_seats();
                        if decisions == 1 {
                            return (
                                new_game(g.num_seats(), seats[1], "perfect"),
                                act_message(&g, seats[1], &rec),
                            );
                        }
                        decisions += 1;
                        let joint: Vec<_> = seats
                            .iter()
                            .map(|&s| {
                                let mut l = Vec::new();
                                g.legal_actions(s, &mut l);
                                l[rng.gen_range(0..l.len())]
                            })
                            .collect();
                        rec.push(engine::game::joint_notation(&g, &joint));
                        g.apply_joint(&joint);
                    }
                    Turn::Terminal => panic!("game over before two decisions"),
                }
            }
        }
    }
    for v in [
        "chess960",
        "synchronous",
        "two-move",
        "expedition",
        "crowded-house",
        "half-alice",
        "adrenaline",
        "cassandra",
        "zombie",
        "masquerade",
        "time",
    ] {
        let (ng, act) = registry::visit(v, None, FirstActs).unwrap();
        let input = format!("{HELLO}\n{ng}\n{act}\n");
        let (code, lines, err) = bot(&["--variant", v, "--agent", "greedy"], &input);
        assert_eq!(code, Some(0), "{v}: {err}");
        assert_eq!(lines.len(), 2, "{v}: {lines:?}");
        let action = json_of(&lines[1])["action"].as_str().unwrap().to_string();
        let legal = json_of(&act)["legal"].clone();
        assert!(
            legal.as_array().unwrap().iter().any(|l| l == &action),
            "{v}: {action} not in {legal}"
        );
    }
}

/// A bad input ends the bot with exit 1 and one `error:` line naming what was wrong.
fn refused(args: &[&str], input: &str, expect: &[&str]) {
    let (code, _, err) = bot(args, input);
    assert_eq!(code, Some(1), "{input}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for e in expect {
        assert!(err.contains(e), "'{e}' not in: {err}");
    }
}

#[test]
fn conformance_bad_input_is_a_one_line_error() {
    let chess = ["--variant", "chess", "--agent", "greedy"];
    let ng = new_game(2, 1, "perfect");
    let act = chess_act(&["e2e4"]);
    refused(&chess, "{not json\n", &["line 1", "not a JSON object"]);
    refused(&chess, "[1, 2]\n", &["line 1", "not an object"]);
    refused(
        &chess,
        &format!("{HELLO}\n{{\"seat\": 1}}\n"),
        &["line 2", "'type'"],
    );
    refused(
        &chess,
        r#"{"type": "hello", "protocol": "chesslab-ext", "version": 7}"#,
        &["version 7"],
    );
    refused(
        &chess,
        &format!("{HELLO}\n{act}\n"),
        &["act before any new_game"],
    );
    // An action in the record that is not legal.
    let bad = act.replace("\"record\":[\"e2e4\"]", "\"record\":[\"e2e5\"]");
    assert_ne!(bad, act);
    refused(
        &chess,
        &format!("{HELLO}\n{ng}\n{bad}\n"),
        &["line 3", "does not replay", "e2e5"],
    );
    // A record that replays to a position with the same legal actions (Black's 20 replies
    // to 1. e4 and to 1. d4) but not to the observation sent.
    let other = act.replace("\"record\":[\"e2e4\"]", "\"record\":[\"d2d4\"]");
    refused(
        &chess,
        &format!("{HELLO}\n{ng}\n{other}\n"),
        &["line 3", "observation"],
    );
    // One whose legal actions differ: exd5 is legal after 1. e4 d5, not after 1. e4 e5.
    let two = chess_act(&["e2e4", "d7d5"]);
    let other = two.replace(
        "\"record\":[\"e2e4\",\"d7d5\"]",
        "\"record\":[\"e2e4\",\"e7e5\"]",
    );
    assert_ne!(other, two);
    refused(
        &chess,
        &format!("{HELLO}\n{}\n{other}\n", new_game(2, 0, "perfect")),
        &["line 3", "'legal'", "'e4d5' sent but not legal here"],
    );
    // An action that is not legal for the position, inside 'legal'.
    let forged = act.replace("\"a7a6\"", "\"a7a1\"");
    assert_ne!(forged, act);
    refused(&chess, &format!("{HELLO}\n{ng}\n{forged}\n"), &["'a7a1'"]);
    // Fields of the wrong type, or missing.
    let no_legal = act.replace("\"legal\":", "\"illegal\":");
    refused(
        &chess,
        &format!("{HELLO}\n{ng}\n{no_legal}\n"),
        &["'legal'"],
    );
    let bad_seat = act.replace("\"seat\":1", "\"seat\":5");
    refused(&chess, &format!("{HELLO}\n{ng}\n{bad_seat}\n"), &["'seat'"]);
    let bad_ply = act.replace("\"ply\":1", "\"ply\":\"one\"");
    refused(&chess, &format!("{HELLO}\n{ng}\n{bad_ply}\n"), &["'ply'"]);
    let null_record = act.replace("\"record\":[\"e2e4\"]", "\"record\":null");
    refused(
        &chess,
        &format!("{HELLO}\n{ng}\n{null_record}\n"),
        &["'record' is null"],
    );
    // A game of another variant.
    refused(
        &chess,
        &format!("{HELLO}\n{}\n", new_game(4, 0, "perfect")),
        &["'seats' is 4", "chess has 2"],
    );
    refused(
        &chess,
        &format!("{HELLO}\n{}\n", new_game(2, 0, "imperfect")),
        &["'information'"],
    );
    // Bad flags, before any message.
    refused(
        &["--variant", "chess", "--agent", "nosuch"],
        "",
        &["--agent", "nosuch"],
    );
    refused(
        &["--variant", "chess", "--agent", "alphabeta%3Zdepth=2"],
        "",
        &["bad escape"],
    );
    refused(
        &["--variant", "nosuch", "--agent", "greedy"],
        "",
        &["nosuch"],
    );
    refused(
        &["--variant", "tar-pit", "--agent", "greedy"],
        "",
        &["tar-pit", "cannot serve", "dealt"],
    );
    refused(
        &["--variant", "cooperative", "--agent", "greedy"],
        "",
        &["cooperative", "cannot serve", "dealt"],
    );
    refused(
        &["--variant", "clairvoyant", "--agent", "greedy"],
        "",
        &["clairvoyant", "cannot serve", "guess"],
    );
}

#[test]
fn escaped_specs_and_spec_files_are_the_same_agent() {
    let act = chess_act(&["e2e4", "e7e5", "g1f3"]);
    let input = format!("{HELLO}\n{}\n{act}\n", new_game(2, 1, "perfect"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("agent.txt");
    std::fs::write(&file, "\n  alphabeta:depth=2,tt_bits=12\n").unwrap();
    let escaped = bot(
        &[
            "--variant",
            "chess",
            "--agent",
            "alphabeta%3Adepth=2%2Ctt_bits=12",
        ],
        &input,
    );
    let filed = bot(&["--variant", "chess", "--agent-file", s(&file)], &input);
    assert_eq!(escaped.0, Some(0), "{}", escaped.2);
    assert_eq!(escaped.1, filed.1);
    let ready = json_of(&escaped.1[0]);
    assert_eq!(ready["agent"], "alphabeta:depth=2,tt_bits=12");
}

#[test]
fn the_same_messages_and_seed_give_the_same_answers() {
    // mcts draws from its stream: same seed, same answers; another seed, other answers
    // somewhere over a few positions.
    let positions: Vec<String> = [
        vec!["e2e4"],
        vec!["d2d4", "g8f6", "c2c4"],
        vec!["g1f3", "d7d5", "g2g3", "c7c5", "f1g2"],
        vec!["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4"],
    ]
    .iter()
    .map(|r| chess_act(r))
    .collect();
    let mut input = format!("{HELLO}\n");
    for _ in 0..3 {
        input.push_str(&new_game(2, 1, "perfect"));
        input.push('\n');
        for p in &positions {
            input.push_str(p);
            input.push('\n');
        }
    }
    let run = |seed: &str| {
        let (code, lines, err) = bot(
            &[
                "--variant",
                "chess",
                "--agent",
                "mcts%3Aiters=30",
                "--seed",
                seed,
            ],
            &input,
        );
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(lines.len(), 13);
        lines
    };
    let a = run("5");
    assert_eq!(a, run("5"));
    assert_ne!(a, run("6"));
}

#[test]
fn the_clock_bounds_the_decision() {
    // alphabeta at depth 30 would think for minutes; with 400 ms left it must answer
    // within its share (400/30 ms), well under a second.
    let act = chess_act(&["e2e4", "e7e5"]).replace("\"time_left_ms\":null", "\"time_left_ms\":400");
    assert!(act.contains("\"time_left_ms\":400"), "{act}");
    let input = format!("{HELLO}\n{}\n{act}\n", new_game(2, 0, "perfect"));
    let started = std::time::Instant::now();
    let (code, lines, err) = bot(
        &["--variant", "chess", "--agent", "alphabeta%3Adepth=30"],
        &input,
    );
    let took = started.elapsed();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(lines.len(), 2);
    assert!(took.as_millis() < 3000, "took {took:?}");
}

/// The rows of a games.csv: (agents, result, reason).
fn rows(out: &Path) -> Vec<(String, String, String)> {
    let mut r = csv::Reader::from_path(out.join("games.csv")).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[7].to_string(), rec[8].to_string(), rec[10].to_string())
        })
        .collect()
}

#[test]
fn tournaments_against_the_served_agent_play_by_the_rules() {
    let exe = env!("CARGO_BIN_EXE_chesslab");
    assert!(
        !exe.contains([',', ';', ':']),
        "the test binary's path {exe} cannot go into cmd="
    );
    let dir = tempfile::tempdir().unwrap();
    let cap = dir.path().join("cap.toml");
    std::fs::write(&cap, "ply_cap = 60\n").unwrap();
    for (v, params) in [
        ("chess", true),
        ("chess960", true),
        ("synchronous", true),
        ("two-move", true),
        ("expedition", true),
        ("crowded-house", true),
        ("zombie", true),
        ("masquerade", true),
    ] {
        let out = dir.path().join(v);
        let p = if params {
            format!(" --params {}", s(&cap))
        } else {
            String::new()
        };
        let ext = format!("ext:cmd={exe} ext-bot --variant {v}{p} --agent greedy");
        let seats = registry::visit(v, None, Seats).unwrap();
        let agents = if seats == 2 {
            format!("{ext},random")
        } else {
            format!("{ext},random,{ext},random")
        };
        let mut args = vec![
            "tournament",
            "--variant",
            v,
            "--agents",
            &agents,
            "--games",
            "2",
            "--threads",
            "2",
            "--out",
            s(&out),
        ];
        if params {
            args.extend(["--params", s(&cap)]);
        }
        ok(&args);
        let games = rows(&out);
        // Two-seat variants: one colour-swapped pair; Crowded House: every seating of
        // the four specs, each pair of seatings twice.
        if seats == 2 {
            assert_eq!(games.len(), 2, "{v}");
        } else {
            assert!(games.len() >= 2, "{v}: {}", games.len());
        }
        assert!(games.iter().any(|g| g.0.contains("ext:")), "{v}");
        for (agents, _, reason) in &games {
            assert!(!reason.starts_with("forfeit"), "{v}: {agents}: {reason}");
        }
        let verify = chesslab(&["verify", s(&out)]);
        assert!(
            verify.status.success(),
            "{v}: {}",
            String::from_utf8_lossy(&verify.stderr)
        );
    }
}

struct Seats;
impl VariantVisitor for Seats {
    type Output = usize;
    fn visit<G: Game>(self, _: &'static str, params: G::Params) -> usize {
        G::new(&params).num_seats()
    }
}

/// Plays `games` games of `G` with the bot at `seat` against random play, feeding it the
/// messages chesslab's client would send, and checks at every decision that the state
/// the bot decided from shares the seat's information key with the true state. Returns
/// (decisions, decisions tracked exactly or redrawn).
struct Tracked {
    games: u64,
    /// Whether the variant's observation shows everything its information key hashes.
    key_exact: bool,
}

impl VariantVisitor for Tracked {
    type Output = (String, u64, u64);
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Self::Output {
        let start = G::new(&params);
        let mut bot = ExtBot::<G>::new(name, params.clone(), "random", 9).unwrap();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        let mut decisions = 0;
        let mut matched = 0;
        let answer = |bot: &mut ExtBot<G>, line: &str| match bot.handle(line).unwrap() {
            Reply::Send(l) => json_of(&l),
            other => panic!("{name}: {other:?}"),
        };
        answer(&mut bot, HELLO);
        for game_no in 0..self.games {
            let me = (game_no % 2) as usize;
            let mut g = start.clone();
            bot.handle(&new_game(2, me, "imperfect")).unwrap();
            let mut legal = Vec::new();
            loop {
                let s = match g.turn() {
                    Turn::Chance => {
                        let mut o = Vec::new();
                        g.chance_outcomes(&mut o);
                        let a = o[engine::random::sample_index(&o, &mut rng)].0;
                        g.apply(a);
                        continue;
                    }
                    Turn::Seat(s) => s,
                    Turn::Terminal => break,
                    Turn::Simultaneous => panic!("{name}: no simultaneous nodes expected"),
                };
                g.legal_actions(s, &mut legal);
                let a = if s == me {
                    let text = answer(&mut bot, &act_message(&g, s, &[]))["action"]
                        .as_str()
                        .unwrap()
                        .to_string();
                    let (state, how) = bot.last_state().unwrap();
                    decisions += 1;
                    assert_ne!(*how, Tracking::Replayed, "{name}");
                    if matches!(how, Tracking::Exact | Tracking::Redrawn) {
                        assert!(
                            !self.key_exact || state.information_key(s) == g.information_key(s),
                            "{name} game {game_no} ply {}: the rebuilt state is not in the \
                             seat's information set",
                            g.history_len()
                        );
                        assert_eq!(state.observation(s), g.observation(s), "{name}");
                        matched += 1;
                    }
                    *legal
                        .iter()
                        .find(|&&l| g.action_notation(l) == text)
                        .unwrap_or_else(|| panic!("{name}: '{text}' is not legal"))
                } else {
                    legal[rng.gen_range(0..legal.len())]
                };
                g.apply(a);
            }
        }
        let st = bot.stats();
        (format!("{name}: {st:?}"), decisions, matched)
    }
}

#[test]
fn hidden_information_tracking_is_exact() {
    let games = 4;
    // Zombie's information key also hashes the order of the opponent's moves within a
    // turn, which its observation (the position after the turn) does not show, and Time
    // Chess's key likewise hashes more than its observation prints: there the rebuilt
    // state may differ from the true one in what the observation does not show, so the
    // test checks the observation and the legal actions, not the key.
    for (v, params, key_exact) in [
        ("zombie", None, false),
        ("masquerade", None, true),
        ("time", None, false),
        ("cassandra", Some("secret = true"), true),
    ] {
        let facts = {
            struct F;
            impl VariantVisitor for F {
                type Output = Information;
                fn visit<G: Game>(self, _: &'static str, p: G::Params) -> Information {
                    G::new(&p).facts().information
                }
            }
            registry::visit(v, params, F).unwrap()
        };
        assert_eq!(facts, Information::Imperfect, "{v}");
        let (stats, decisions, matched) =
            registry::visit(v, params, Tracked { games, key_exact }).unwrap();
        eprintln!("{stats}: {matched}/{decisions}");
        assert!(decisions > 20, "{stats}");
        if key_exact {
            assert_eq!(matched, decisions, "{stats}");
        } else {
            // Zombie: past the node bound in long games (measured 556 of 684 decisions
            // explained over these four games; the rest from a state with the right legal
            // actions or a seeded legal action, docs/ext-protocol.md).
            assert!(matched * 4 >= decisions * 3, "{stats}");
        }
    }
}

#[test]
fn every_variant_is_served_or_refused_by_name() {
    // Exactly Tar Pit, Cooperative and Clairvoyant are refused; every other variant
    // builds a bot.
    struct Build;
    impl VariantVisitor for Build {
        type Output = Result<(), String>;
        fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Self::Output {
            ExtBot::<G>::new(name, params, "greedy", 1)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
    }
    for v in registry::VARIANTS {
        let r = registry::visit(v, None, Build).unwrap();
        match *v {
            "tar-pit" | "cooperative" | "clairvoyant" => {
                let e = r.unwrap_err();
                assert!(e.contains(v) && e.contains("cannot serve"), "{e}")
            }
            _ => assert!(r.is_ok(), "{v}: {r:?}"),
        }
    }
}

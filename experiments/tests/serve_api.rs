//! The board's JSON API over real HTTP on loopback (an in-process server on an
//! ephemeral port, a tiny HTTP/1.1 client below): every registered variant played
//! through the API equals the same game in process, hidden views are observations and
//! nothing more, tokens are enforced and bad requests are named.

use crate::common;

use engine::game::{Game, Seat, Turn};
use engine::registry::{self, VariantVisitor};
use experiments::serve::api::{CreateResponse, SeatView, TurnView};
use experiments::serve::spawn_local;
use experiments::util::mix;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::OnceLock;
use std::time::Duration;

/// One server for the whole test binary.
fn addr() -> &'static str {
    static ADDR: OnceLock<String> = OnceLock::new();
    ADDR.get_or_init(|| spawn_local(10_000, Duration::from_secs(3600), None).unwrap())
}

/// A request over a fresh connection; returns (status, body).
fn request(addr: &str, method: &str, path: &str, body: Option<&[u8]>) -> (u16, String) {
    common::http::request(addr, method, path, body.unwrap_or(b""))
}

fn post(path: &str, body: &Value) -> (u16, String) {
    request(addr(), "POST", path, Some(body.to_string().as_bytes()))
}

fn get(path: &str) -> (u16, String) {
    request(addr(), "GET", path, None)
}

fn create(body: Value) -> CreateResponse {
    let (st, text) = post("/api/games", &body);
    assert_eq!(st, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The state of `seat` once no bot or chance is due.
fn settled(id: &str, seat: Option<Seat>, token: Option<&str>) -> SeatView {
    let mut q = String::new();
    if let Some(s) = seat {
        q.push_str(&format!("seat={s}"));
    }
    if let Some(t) = token {
        q.push_str(&format!("&token={t}"));
    }
    for _ in 0..20_000 {
        let (st, text) = get(&format!("/api/games/{id}/state?{q}"));
        assert_eq!(st, 200, "{text}");
        let v: SeatView = serde_json::from_str(&text).unwrap();
        if !v.thinking {
            return v;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("the bots never finished");
}

/// Plays a game with a human in every seat through the API, choosing uniformly among
/// the legal actions the API lists, and the same game in process (chance drawn from the
/// server's documented stream), checking at every node that the API's seat views are
/// the in-process turn, legal list and observation.
struct Mirror {
    seed: u64,
    check_hidden: bool,
}

impl VariantVisitor for Mirror {
    type Output = ();
    fn visit<G: Game>(self, name: &'static str, params: G::Params) {
        let mut game = G::new(&params);
        let seats = game.num_seats();
        let c = create(
            json!({"variant": name, "seed": self.seed, "seats": ["human"], "practice": true,
            "params": toml::to_string(&params).unwrap()}),
        );
        assert_eq!(c.tokens.len(), seats);
        let tokens: Vec<String> = c.tokens.iter().map(|t| t.clone().unwrap()).collect();
        let mut chance = Pcg64::seed_from_u64(mix(self.seed, 0));
        let mut choose = Pcg64::seed_from_u64(self.seed ^ 0x5eed);
        let mut legal = Vec::new();
        let mut outcomes = Vec::new();
        let mut actions: Vec<String> = Vec::new();
        for _ in 0..400 {
            // The server plays chance on its own; the mirror draws the same outcome.
            while game.turn() == Turn::Chance {
                game.chance_outcomes(&mut outcomes);
                let a = outcomes[engine::random::sample_index(&outcomes, &mut chance)].0;
                actions.push(game.action_notation(a));
                game.apply(a);
            }
            let views: Vec<SeatView> = (0..seats)
                .map(|s| settled(&c.id, Some(s), Some(&tokens[s])))
                .collect();
            for (s, v) in views.iter().enumerate() {
                assert_eq!(v.observation, game.observation(s), "{name} seat {s}");
                assert_eq!(v.plies, actions.len(), "{name}");
                if !game.is_perfect_information() && game.turn() != Turn::Terminal {
                    assert!(v.record.is_none() && v.chance.is_none() && v.audit.is_none());
                } else if let Some(r) = &v.record {
                    assert_eq!(r, &actions, "{name}");
                }
                if self.check_hidden {
                    hidden_checks(&c.id, s, &tokens, v, &game);
                }
            }
            match game.turn() {
                Turn::Terminal => {
                    let r = game.result().unwrap();
                    let got = views[0].result.clone().expect("a result");
                    assert_eq!(got.returns, r.returns[..seats].to_vec(), "{name}");
                    assert_eq!(got.reason, r.reason, "{name}");
                    assert_eq!(views[0].record.as_ref(), Some(&actions), "{name}");
                    // The record replays in process to the same result.
                    let texts: Vec<&str> = actions.iter().map(String::as_str).collect();
                    let again = engine::game::replay(G::new(&params), &texts).unwrap();
                    assert_eq!(again.returns(), game.returns());
                    return;
                }
                Turn::Seat(s) => {
                    game.legal_actions(s, &mut legal);
                    let names: Vec<String> =
                        legal.iter().map(|&a| game.action_notation(a)).collect();
                    assert_eq!(views[s].legal, names, "{name}");
                    assert_eq!(views[s].turn, TurnView::Seat { seat: s });
                    for (o, v) in views.iter().enumerate() {
                        if o != s {
                            assert!(v.legal.is_empty(), "{name}: seat {o} offered actions");
                        }
                    }
                    let i = choose.gen_range(0..names.len());
                    let (st, text) = post(
                        &format!("/api/games/{}/act", c.id),
                        &json!({"seat": s, "token": tokens[s], "action": names[i]}),
                    );
                    assert_eq!(st, 200, "{name}: {text}");
                    actions.push(names[i].clone());
                    game.apply(legal[i]);
                }
                Turn::Simultaneous => {
                    let acting = game.simultaneous_seats();
                    let mut joint = Vec::new();
                    let mut parts = Vec::new();
                    for &s in &acting {
                        game.legal_actions(s, &mut legal);
                        let names: Vec<String> =
                            legal.iter().map(|&a| game.action_notation(a)).collect();
                        assert_eq!(views[s].legal, names, "{name}");
                        let i = choose.gen_range(0..names.len());
                        joint.push(legal[i]);
                        parts.push(names[i].clone());
                    }
                    // Each seat commits on its own; the node waits for the last one.
                    for (k, &s) in acting.iter().enumerate() {
                        let (st, text) = post(
                            &format!("/api/games/{}/act", c.id),
                            &json!({"seat": s, "token": tokens[s], "action": parts[k]}),
                        );
                        assert_eq!(st, 200, "{name}: {text}");
                        if k + 1 < acting.len() {
                            let v = settled(&c.id, Some(s), Some(&tokens[s]));
                            assert!(v.legal.is_empty(), "{name}: committed seat asked again");
                            let TurnView::Simultaneous { committed, .. } = v.turn else {
                                panic!("{name}: the node moved on before every seat committed");
                            };
                            assert_eq!(committed.iter().filter(|c| **c).count(), k + 1);
                            // The commit is secret: the other seats' views do not name it.
                            assert_eq!(v.observation, game.observation(s));
                        }
                    }
                    actions.push(engine::game::joint_notation(&game, &joint));
                    game.apply_joint(&joint);
                }
                Turn::Chance => unreachable!(),
            }
        }
        // Long games: the API and the mirror agreed on 400 decisions.
    }
}

/// A seat's view of a hidden-information game: its observation and nothing more.
fn hidden_checks<G: Game>(id: &str, s: Seat, tokens: &[String], v: &SeatView, game: &G) {
    if game.is_perfect_information() {
        return;
    }
    let (st, text) = get(&format!(
        "/api/games/{id}/state?seat={s}&token={}",
        tokens[s]
    ));
    assert_eq!(st, 200);
    let raw: Value = serde_json::from_str(&text).unwrap();
    // Only these fields, and the state never serialized.
    let keys: Vec<&str> = raw
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for k in &keys {
        assert!(
            [
                "variant",
                "seat",
                "seat_names",
                "seats",
                "perfect_information",
                "turn",
                "observation",
                "legal",
                "chance",
                "result",
                "record",
                "plies",
                "version",
                "thinking",
                "practice",
                "practice_why",
                "record_san",
                "seed",
                "params",
                "audit"
            ]
            .contains(k),
            "unexpected field {k}"
        );
    }
    // The parameters are public rules; those that fix hidden state are left out.
    for hidden in ["white_assigns", "black_assigns"] {
        assert!(
            game.turn() == Turn::Terminal || raw["params"].get(hidden).is_none(),
            "{hidden} in a running game's view"
        );
    }
    assert!(!text.contains(&format!("{game:?}")));
    if game.turn() != Turn::Terminal {
        assert!(
            raw["record"].is_null()
                && raw["record_san"].is_null()
                && raw["chance"].is_null()
                && raw["audit"].is_null()
        );
        // The seed would let a copy of the game with bots show the hidden draws.
        assert!(raw["seed"].is_null());
        // Another seat's token does not open this seat's view.
        let other = (s + 1) % tokens.len();
        if other != s {
            let (st, _) = get(&format!(
                "/api/games/{id}/state?seat={s}&token={}",
                tokens[other]
            ));
            assert_eq!(st, 403);
        }
        let (st, _) = get(&format!("/api/games/{id}/state?seat={s}"));
        assert_eq!(st, 403);
    }
    let _ = v;
}

/// Every registered variant: a seeded random game through the API is the in-process
/// game, node by node.
#[test]
fn rule_serve_every_variant_plays_as_in_process() {
    for &name in registry::VARIANTS {
        registry::visit(
            name,
            None,
            Mirror {
                seed: 7,
                check_hidden: false,
            },
        )
        .unwrap();
    }
}

/// Hidden-information variants: every seat response at every node is the seat's
/// observation, no record, no chance list, no state, and other tokens are refused.
#[test]
fn rule_serve_hidden_views_are_observations() {
    let cases: &[(&str, Option<&str>)] = &[
        ("masquerade", None),
        ("cassandra", Some("secret = true")),
        ("time", None),
        ("zombie", None),
        ("tar-pit", None),
        ("cooperative", None),
        ("clairvoyant", Some("mode = \"blind\"")),
    ];
    for &(name, params) in cases {
        registry::visit(
            name,
            params,
            Mirror {
                seed: 3,
                check_hidden: true,
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// Bots play as in a tournament: a game of bots created with seed S is
/// `play_game(start, agents, S, S)`.
#[test]
fn rule_serve_bot_game_is_play_game() {
    struct Bots;
    impl VariantVisitor for Bots {
        type Output = ();
        fn visit<G: Game>(self, name: &'static str, params: G::Params) {
            let start = G::new(&params);
            let seats = start.num_seats();
            let seed = 11;
            let c = create(json!({"variant": name, "seed": seed, "seats": ["random"]}));
            assert!(c.tokens.iter().all(Option::is_none));
            let v = settled(&c.id, None, None);
            let mut agents: Vec<Box<dyn agents::Agent<G>>> = (0..seats)
                .map(|_| agents::registry::build::<G>("random").unwrap())
                .collect();
            let played = experiments::gameplay::play_game(&start, &mut agents, seed, seed, None)
                .unwrap()
                .unwrap();
            assert_eq!(v.record.as_ref(), Some(&played.actions), "{name}");
            let r = v.result.expect("finished");
            assert_eq!(r.returns, played.returns, "{name}");
            assert_eq!(r.reason, played.reason, "{name}");
        }
    }
    for &name in registry::VARIANTS {
        registry::visit(name, None, Bots).unwrap();
    }
}

/// Tokens: a seat acts and sees its hidden view only with its own token.
#[test]
fn rule_serve_tokens_are_enforced() {
    let c = create(json!({"variant": "zombie", "seats": ["human", "human"]}));
    let t: Vec<String> = c.tokens.iter().map(|t| t.clone().unwrap()).collect();
    assert_ne!(t[0], t[1]);
    let v = settled(&c.id, Some(0), Some(&t[0]));
    let a = v.legal[0].clone();
    let act = |seat: usize, token: &str| {
        post(
            &format!("/api/games/{}/act", c.id),
            &json!({"seat": seat, "token": token, "action": a}),
        )
    };
    assert_eq!(act(0, &t[1]).0, 403);
    assert_eq!(act(0, "nope").0, 403);
    assert_eq!(get(&format!("/api/games/{}/state", c.id)).0, 403);
    assert_eq!(
        get(&format!("/api/games/{}/state?seat=1&token={}", c.id, t[0])).0,
        403
    );
    // Black acting out of turn with its own token: a conflict, not a move.
    let (st, text) = act(1, &t[1]);
    assert_eq!(st, 409, "{text}");
    assert_eq!(act(0, &t[0]).0, 200);
    // Bot seats have no token and cannot be played.
    let b = create(json!({"variant": "chess", "seats": ["human", "random"]}));
    assert!(b.tokens[0].is_some() && b.tokens[1].is_none());
    let (st, text) = post(
        &format!("/api/games/{}/act", b.id),
        &json!({"seat": 1, "token": "", "action": "e7e5"}),
    );
    assert_eq!(st, 403, "{text}");
    assert!(text.contains("bot"), "{text}");
}

fn error_of(st_text: (u16, String)) -> (u16, String) {
    let (st, text) = st_text;
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    (st, v["error"].as_str().unwrap_or_default().to_string())
}

/// Bad requests get a 4xx whose message names the problem, and the server lives on.
#[test]
fn rule_serve_bad_requests_are_named() {
    let (st, m) = error_of(post("/api/games", &json!({"variant": "chesss"})));
    assert_eq!(st, 404);
    assert!(m.contains("unknown variant 'chesss'"), "{m}");
    let (st, m) = error_of(request(
        addr(),
        "POST",
        "/api/games",
        Some(b"{\"variant\": "),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("broken JSON"), "{m}");
    let (st, m) = error_of(post(
        "/api/games",
        &json!({"variant": "chess", "colour": 1}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("unknown field `colour`"), "{m}");
    let (st, m) = error_of(post(
        "/api/games",
        &json!({"variant": "chess", "params": "ply_cap = 0"}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("ply_cap"), "{m}");
    let (st, m) = error_of(post(
        "/api/games",
        &json!({"variant": "chess", "opening": "not a fen"}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("opening"), "{m}");
    let (st, m) = error_of(post(
        "/api/games",
        &json!({"variant": "chess", "seats": ["human", "ext:cmd=/bin/sh"]}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("outside program"), "{m}");
    let (st, m) = error_of(post(
        "/api/games",
        &json!({"variant": "chess", "seats": ["human", "human", "human"]}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("2 seat(s) but 3"), "{m}");
    let big = vec![b' '; experiments::serve::MAX_BODY + 10];
    let (st, m) = error_of(request(addr(), "POST", "/api/games", Some(&big)));
    assert_eq!(st, 413);
    assert!(m.contains("over"), "{m}");
    let c = create(json!({"variant": "chess", "seats": ["human", "human"]}));
    let t = c.tokens[0].clone().unwrap();
    let act = |a: &str| {
        error_of(post(
            &format!("/api/games/{}/act", c.id),
            &json!({"seat": 0, "token": t, "action": a}),
        ))
    };
    let (st, m) = act("e2e5");
    assert_eq!(st, 422);
    assert!(m.contains("action 'e2e5' for white"), "{m}");
    let (st, m) = act("zz");
    assert_eq!(st, 422);
    assert!(m.contains("malformed action 'zz'"), "{m}");
    let (st, m) = error_of(post(
        &format!("/api/games/{}/act", c.id),
        &json!({"seat": 5, "token": t, "action": "e2e4"}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("seat 5 does not exist"), "{m}");
    let (st, m) = error_of(get("/api/games/0123/state"));
    assert_eq!(st, 404);
    assert!(m.contains("no live game"), "{m}");
    // Still serving.
    assert_eq!(act("e2e4").0, 200);
}

/// Takeback against a bot removes the human's move and the bot's reply; between two
/// humans it is refused.
#[test]
fn rule_serve_takeback_against_bots() {
    let c = create(json!({"variant": "chess", "seed": 4, "seats": ["human", "random"]}));
    let t = c.tokens[0].clone().unwrap();
    let (st, _) = post(
        &format!("/api/games/{}/act", c.id),
        &json!({"seat": 0, "token": t, "action": "e2e4"}),
    );
    assert_eq!(st, 200);
    let v = settled(&c.id, Some(0), Some(&t));
    assert_eq!(v.plies, 2);
    let (st, text) = post(
        &format!("/api/games/{}/undo", c.id),
        &json!({"seat": 0, "token": t}),
    );
    assert_eq!(st, 200, "{text}");
    let v = settled(&c.id, Some(0), Some(&t));
    assert_eq!(v.plies, 0);
    assert_eq!(
        v.observation,
        engine::variants::chess::Chess::new(&Default::default()).observation(0)
    );
    let h = create(json!({"variant": "chess", "seats": ["human", "human"]}));
    let t0 = h.tokens[0].clone().unwrap();
    post(
        &format!("/api/games/{}/act", h.id),
        &json!({"seat": 0, "token": t0, "action": "e2e4"}),
    );
    let (st, m) = error_of(post(
        &format!("/api/games/{}/undo", h.id),
        &json!({"seat": 0, "token": t0}),
    ));
    assert_eq!(st, 409);
    assert!(m.contains("games against bots"), "{m}");
}

/// An agent can decide for a human seat, and the finished game exports as a games.csv
/// row that `chesslab replay` reads.
#[test]
fn rule_serve_agent_act_and_export_replays() {
    let c = create(
        json!({"variant": "chess", "seed": 9, "seats": ["human", "greedy"],
        "params": {"ply_cap": 12}}),
    );
    let t = c.tokens[0].clone().unwrap();
    loop {
        let v = settled(&c.id, Some(0), Some(&t));
        if v.result.is_some() {
            break;
        }
        let (st, text) = post(
            &format!("/api/games/{}/agent-act", c.id),
            &json!({"seat": 0, "token": t, "agent": "random"}),
        );
        assert_eq!(st, 200, "{text}");
    }
    let (st, csv) = get(&format!("/api/games/{}/export", c.id));
    assert_eq!(st, 200, "{csv}");
    let (st, toml) = get(&format!("/api/games/{}/export?format=toml", c.id));
    assert_eq!(st, 200);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.csv"), csv).unwrap();
    std::fs::write(dir.path().join("p.toml"), toml).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chesslab"))
        .args(["replay", "--games"])
        .arg(dir.path().join("games.csv"))
        .args(["--row", "1", "--params"])
        .arg(dir.path().join("p.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Server-sent events announce new versions.
#[test]
fn rule_serve_events_announce_changes() {
    let c = create(json!({"variant": "chess", "seats": ["human", "human"]}));
    let mut s = TcpStream::connect(addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET /api/games/{}/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        c.id,
        addr()
    )
    .unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    while !seen.contains("data: 0") {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0);
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    let t = c.tokens[0].clone().unwrap();
    post(
        &format!("/api/games/{}/act", c.id),
        &json!({"seat": 0, "token": t, "action": "e2e4"}),
    );
    while !seen.contains("data: 1") {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0);
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    assert!(seen.contains("event: version"));
}

/// The store is bounded: beyond `max_games` live games, creation is refused with 503.
#[test]
fn rule_serve_live_games_are_bounded() {
    let a = spawn_local(2, Duration::from_secs(3600), None).unwrap();
    let body = json!({"variant": "chess"}).to_string();
    for _ in 0..2 {
        assert_eq!(
            request(&a, "POST", "/api/games", Some(body.as_bytes())).0,
            200
        );
    }
    let (st, m) = error_of(request(&a, "POST", "/api/games", Some(body.as_bytes())));
    assert_eq!(st, 503);
    assert!(m.contains("too many live games"), "{m}");
    // Idle games expire: with a zero idle limit, the next creation sweeps them away.
    let b = spawn_local(1, Duration::ZERO, None).unwrap();
    for _ in 0..3 {
        assert_eq!(
            request(&b, "POST", "/api/games", Some(body.as_bytes())).0,
            200
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The Golf hole the board offers beside the registry: dealt from `deal_seed` without an
/// opening, read from Golf's one-line form with one; illegal moves are refused; solving
/// it ends the game with return 1.
#[test]
fn rule_serve_golf_hole_plays_and_verifies() {
    let (st, text) = get("/api/variants/golf");
    assert_eq!(st, 200, "{text}");
    let d: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(d["seat_names"], json!(["Golfer"]));
    assert_eq!(d["params"]["move_cap"], json!(60));
    // The form's fields: every scalar leaf, nested tables as dotted keys.
    let fields = d["fields"].as_array().unwrap();
    assert!(fields.contains(&json!({"path": "move_cap", "kind": "int", "value": 60})));
    assert!(fields.contains(&json!({"path": "rules.cards", "kind": "int", "value": 2})));
    assert!(fields
        .iter()
        .any(|f| f["path"] == "rules.king_step" && f["kind"] == "string"));
    // A dealt hole is the same for the same deal_seed.
    let dealt = |seed: u64| {
        let c = create(json!({"variant": "golf", "seats": ["human"],
            "params": format!("deal_seed = {seed}")}));
        settled(&c.id, Some(0), c.tokens[0].as_deref()).observation
    };
    assert_eq!(dealt(7), dealt(7));
    assert_ne!(dealt(7), dealt(8));
    let c = create(json!({"variant": "golf", "seats": ["human"],
        "opening": "8/8/8/n7/8/8/8/RR6 chosen=Rn"}));
    let tok = c.tokens[0].clone().unwrap();
    let v = settled(&c.id, Some(0), Some(&tok));
    assert!(v.legal.contains(&"a1a5".to_string()), "{:?}", v.legal);
    // The rook cannot slide through the knight.
    let (st, _) = post(
        &format!("/api/games/{}/act", c.id),
        &json!({"seat": 0, "token": tok, "action": "a1a8"}),
    );
    assert_eq!(st, 422);
    let (st, text) = post(
        &format!("/api/games/{}/act", c.id),
        &json!({"seat": 0, "token": tok, "action": "a1a5"}),
    );
    assert_eq!(st, 200, "{text}");
    let v = settled(&c.id, Some(0), Some(&tok));
    let r = v.result.expect("solved");
    assert_eq!((r.returns, r.reason.as_str()), (vec![1.0], "solved"));
    let (st, text) = post(
        "/api/games",
        &json!({"variant": "golf", "params": "move_cap = 0"}),
    );
    assert_eq!(st, 400, "{text}");
    assert!(text.contains("move_cap"), "{text}");
}

/// "Branch here": N bot games from a position of a game, played by the tournament's own
/// game loop (`play_game_with`, game `i` seeded `mix(seed, i)`), answered as the outcome
/// spread; changed parameters replay the game's actions under them; hidden games with
/// human seats are refused while they run.
#[test]
fn rule_serve_branch_here_spreads_outcomes() {
    use engine::variants::chess::{Chess, ChessParams};
    use experiments::serve::api::BranchOutcome;
    let c = create(json!({"variant": "chess", "seats": ["human", "human"]}));
    let tok: Vec<String> = c.tokens.iter().map(|t| t.clone().unwrap()).collect();
    for (i, m) in ["f2f3", "e7e5", "g2g4"].iter().enumerate() {
        let (st, text) = post(
            &format!("/api/games/{}/act", c.id),
            &json!({"seat": i % 2, "token": tok[i % 2], "action": m}),
        );
        assert_eq!(st, 200, "{text}");
    }
    let branch = |body: Value| post(&format!("/api/games/{}/branch", c.id), &body);
    let req = json!({"seat": 1, "token": tok[1], "games": 8, "agents": ["greedy"], "seed": 3});
    let (st, text) = branch(req.clone());
    assert_eq!(st, 200, "{text}");
    let out: BranchOutcome = serde_json::from_str(&text).unwrap();
    assert_eq!((out.from_ply, out.games), (3, 8));
    // The same games in process, through the tournament's game loop.
    let params = ChessParams::default();
    let start = engine::game::replay(Chess::new(&params), &["f2f3", "e7e5", "g2g4"]).unwrap();
    let mut wins = [0usize; 2];
    let mut plies = 0;
    for i in 0..8 {
        let mut agents: Vec<Box<dyn agents::Agent<Chess>>> = (0..2)
            .map(|_| agents::registry::build::<Chess>("greedy").unwrap())
            .collect();
        let s = mix(3, i);
        let p = experiments::gameplay::play_game_with(
            &start,
            &mut agents,
            s,
            s,
            None,
            &Default::default(),
        )
        .unwrap()
        .unwrap();
        plies += p.plies();
        for (w, r) in wins.iter_mut().zip(&p.returns) {
            *w += usize::from(*r > 0.0);
        }
    }
    assert_eq!([out.seats[0].wins, out.seats[1].wins], wins);
    assert_eq!(out.mean_plies, plies as f64 / 8.0);
    for s in &out.seats {
        assert_eq!(s.wins + s.draws + s.losses, 8);
    }
    assert_eq!(out.seats[0].wins, out.seats[1].losses);
    // Same request, same spread.
    assert_eq!(branch(req).1, text);
    // A changed parameter: the three actions replay under a cap of 5 plies.
    let (st, text) = branch(json!({"seat": 0, "token": tok[0], "games": 4,
        "params": "ply_cap = 5", "ply": 3}));
    assert_eq!(st, 200, "{text}");
    let capped: BranchOutcome = serde_json::from_str(&text).unwrap();
    assert!(capped.mean_plies <= 2.0, "{capped:?}");
    // From ply 0 with every chance-free game re-seeded.
    let (st, text) = branch(json!({"seat": 0, "token": tok[0], "games": 2, "ply": 0}));
    assert_eq!(st, 200, "{text}");
    // Refusals, named.
    assert_eq!(branch(json!({"games": 2})).0, 403);
    assert_eq!(
        branch(json!({"seat": 0, "token": tok[0], "games": 0})).0,
        400
    );
    assert_eq!(
        branch(json!({"seat": 0, "token": tok[0], "games": 201})).0,
        400
    );
    assert_eq!(branch(json!({"seat": 0, "token": tok[0], "ply": 9})).0, 400);
    let (st, text) = branch(json!({"seat": 0, "token": tok[0], "params": "ply_cap = 1"}));
    assert_eq!(st, 422, "{text}");
    let z = create(json!({"variant": "zombie", "seats": ["human", "random"]}));
    let (st, text) = post(
        &format!("/api/games/{}/branch", z.id),
        &json!({"seat": 0, "token": z.tokens[0].clone().unwrap(), "games": 2}),
    );
    assert_eq!(st, 403, "{text}");
}

//! The board tried as a player would try to cheat or to pin it (issue 35), over real HTTP
//! on loopback: requests from other pages and names are refused, bodies must be JSON,
//! every refusal is JSON, no request reads a file or runs past the server's limits,
//! hidden information does not leak through seeds, takeback or agents, a slow bot holds
//! back only its own game, and games survive a `kill -9` of the server.

use crate::common;

use experiments::serve::api::{CreateResponse, SeatView};
use experiments::serve::games::AgentRules;
use experiments::serve::limits::{EvalFiles, Limits};
use experiments::serve::{spawn_local, spawn_with, Config};
use serde_json::{json, Value};
use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// One server with the default limits for the tests that need nothing special.
fn addr() -> &'static str {
    static ADDR: OnceLock<String> = OnceLock::new();
    ADDR.get_or_init(|| spawn_local(10_000, Duration::from_secs(3600), None).unwrap())
}

fn post_to(addr: &str, path: &str, body: &Value) -> (u16, String) {
    common::http::request(addr, "POST", path, body.to_string().as_bytes())
}

fn get_from(addr: &str, path: &str) -> (u16, String) {
    common::http::request(addr, "GET", path, b"")
}

/// A request with the given head lines; returns (status, body).
fn raw(addr: &str, head: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let text = format!(
        "{head}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(text.as_bytes()).unwrap();
    let _ = s.write_all(body);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let out = String::from_utf8_lossy(&out).into_owned();
    let (h, rest) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = h
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, rest.to_string())
}

/// The status and the `error` of a JSON refusal (panics on anything else).
fn error_of((st, text): (u16, String)) -> (u16, String) {
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {st} {text}"));
    let m = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field: {text}"));
    (st, m.to_string())
}

fn create_on(addr: &str, body: Value) -> CreateResponse {
    let (st, text) = post_to(addr, "/api/games", &body);
    assert_eq!(st, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

fn state_of(addr: &str, id: &str, seat: usize, token: &str) -> SeatView {
    for _ in 0..20_000 {
        let (st, text) = get_from(
            addr,
            &format!("/api/games/{id}/state?seat={seat}&token={token}"),
        );
        assert_eq!(st, 200, "{text}");
        let v: SeatView = serde_json::from_str(&text).unwrap();
        if !v.thinking {
            return v;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("the bots never finished");
}

#[test]
fn rule_serve_cross_origin_is_refused() {
    let a = addr();
    let port = a.rsplit(':').next().unwrap();
    let body = br#"{"variant": "chess"}"#;
    let json = "Content-Type: application/json";
    // Another name for this address (DNS rebinding): refused, and no game is made.
    let (st, m) = error_of(raw(
        a,
        &format!("POST /api/games HTTP/1.1\r\nHost: evil.example:{port}\r\n{json}"),
        body,
    ));
    assert_eq!(st, 403);
    assert!(m.contains("Host 'evil.example"), "{m}");
    // A page of another site or of another local port.
    for origin in [
        "http://evil.example",
        &format!("http://localhost:{}", port.parse::<u16>().unwrap() ^ 1),
        "null",
    ] {
        let (st, m) = error_of(raw(
            a,
            &format!("POST /api/games HTTP/1.1\r\nHost: {a}\r\nOrigin: {origin}\r\n{json}"),
            body,
        ));
        assert_eq!(st, 403, "{origin}");
        assert!(m.contains("other pages"), "{m}");
    }
    // The board's own page and the loopback names.
    for (host, origin) in [
        (a.to_string(), format!("http://{a}")),
        (
            format!("localhost:{port}"),
            format!("http://localhost:{port}"),
        ),
    ] {
        let (st, text) = raw(
            a,
            &format!("POST /api/games HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\n{json}"),
            body,
        );
        assert_eq!(st, 200, "{host}: {text}");
    }
    // `--host NAME` allows a name.
    let mut c = Config::new(10, Duration::from_secs(600), None);
    c.hosts = vec!["board.lan".into()];
    let b = spawn_with(c).unwrap();
    let (st, text) = raw(
        &b,
        &format!("GET /api/variants HTTP/1.1\r\nHost: board.lan:{port}"),
        b"",
    );
    assert_eq!(st, 200, "{text}");
    let (st, _) = raw(&b, "GET /api/variants HTTP/1.1\r\nHost: other.lan", b"");
    assert_eq!(st, 403);
}

#[test]
fn rule_serve_bodies_must_be_json() {
    let a = addr();
    for ct in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let (st, m) = error_of(raw(
            a,
            &format!("POST /api/games HTTP/1.1\r\nHost: {a}\r\nContent-Type: {ct}"),
            br#"{"variant": "chess"}"#,
        ));
        assert_eq!(st, 415, "{ct}");
        assert!(m.contains("application/json"), "{m}");
    }
    let (st, m) = error_of(raw(
        a,
        &format!("POST /api/games HTTP/1.1\r\nHost: {a}"),
        br#"{"variant": "chess"}"#,
    ));
    assert_eq!(st, 415, "{m}");
    let (st, _) = raw(
        a,
        &format!("POST /api/games HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json; charset=utf-8"),
        br#"{"variant": "chess"}"#,
    );
    assert_eq!(st, 200);
}

#[test]
fn rule_serve_every_refusal_is_json() {
    let a = addr();
    let c = create_on(
        a,
        json!({"variant": "masquerade", "seats": ["human", "random"]}),
    );
    let t = c.tokens[0].clone().unwrap();
    for (path, status, names) in [
        (
            format!("/api/games/{}/state?seat=abc&token={t}", c.id),
            400,
            "query string",
        ),
        (
            format!("/api/games/{}/state?seat=0&token={t}&audit=maybe", c.id),
            400,
            "query string",
        ),
        ("/api/results/abc".to_string(), 400, "abc"),
        ("/api/nosuch".to_string(), 404, "no such"),
        (
            format!("/api/games/{}/state?x={}", c.id, "a".repeat(10_000)),
            414,
            "bytes",
        ),
    ] {
        let (st, m) = error_of(get_from(a, &path));
        assert_eq!(st, status, "{path}: {m}");
        assert!(m.contains(names), "{path}: {m}");
    }
    // Past what hyper reads itself (a target over 64 KiB, a request line that is not
    // HTTP): still JSON, with hyper's status. (A head over hyper's buffer, 431, is left
    // to `rule_serve_json_refusal_shapes`: the bytes hyper never read make the closing
    // socket reset, and a client may lose the answer to that.)
    let long = format!("/api/games/{}/state?x={}", c.id, "a".repeat(70_000));
    let (st, m) = error_of(get_from(a, &long));
    assert_eq!(st, 414, "{m}");
    assert!(m.contains("request target"), "{m}");
    let (st, m) = error_of(raw(a, "NOT HTTP AT ALL", b""));
    assert_eq!(st, 400, "{m}");
    assert!(m.contains("HTTP/1.1"), "{m}");
    // The connection after those is still served: the server carries on.
    assert_eq!(get_from(a, "/api/variants").0, 200);
    let (st, m) = error_of(get_from(a, "/api/games"));
    assert_eq!(st, 405);
    assert!(m.contains("GET is not allowed on /api/games"), "{m}");
    let (st, m) = error_of(post_to(a, "/api/variants", &json!({})));
    assert_eq!(st, 405, "{m}");
}

#[test]
fn rule_serve_request_files_are_refused() {
    let a = addr();
    for spec in [
        "alphabeta:eval=/etc/shadow",
        "alphabeta:eval=/etc/passwd",
        "mcts:eval=/proc/self/environ",
        "mcts:cutoff=4,eval=/dev/stdin",
    ] {
        let (st, m) = error_of(post_to(
            a,
            "/api/games",
            &json!({"variant": "chess", "seats": ["human", spec]}),
        ));
        assert_eq!(st, 400, "{spec}");
        assert!(m.contains("reads no files"), "{m}");
        assert!(!m.contains("root:") && !m.contains("PATH="), "{m}");
    }
    let c = create_on(a, json!({"variant": "chess", "seats": ["human", "random"]}));
    let t = c.tokens[0].clone().unwrap();
    let (st, m) = error_of(post_to(
        a,
        &format!("/api/games/{}/agent-act", c.id),
        &json!({"seat": 0, "token": t, "agent": "alphabeta:eval=/etc/passwd"}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("reads no files") && !m.contains("root:"), "{m}");
    let (st, m) = error_of(post_to(
        a,
        &format!("/api/games/{}/branch", c.id),
        &json!({"seat": 0, "token": t, "games": 1, "agents": ["alphabeta:eval=/proc/self/environ"]}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("reads no files") && !m.contains("PATH="), "{m}");
    // An evaluation the operator offers is named, not pathed.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("values.toml");
    std::fs::write(&file, "pawn = 1.0\nknight = 3.5\n").unwrap();
    let evals = EvalFiles::from_flags(&[format!("tuned={}", file.display())]).unwrap();
    let mut cfg = Config::new(10, Duration::from_secs(600), None);
    cfg.rules = AgentRules {
        limits: Limits::default(),
        evals,
    };
    let b = spawn_with(cfg).unwrap();
    let (st, text) = get_from(&b, "/api/agents");
    assert_eq!(st, 200);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["evals"], json!(["tuned"]));
    create_on(
        &b,
        json!({"variant": "chess", "seats": ["human", "alphabeta:depth=1,eval=tuned"]}),
    );
    let (st, m) = error_of(post_to(
        &b,
        "/api/games",
        &json!({"variant": "chess", "seats": ["human", format!("alphabeta:eval={}", file.display())]}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("offered: tuned"), "{m}");
    // A broken file is refused at start without its contents in the message.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "secret-line-xyz = [").unwrap();
    let e = EvalFiles::from_flags(&[format!("bad={}", bad.display())]).unwrap_err();
    assert!(e.to_string().contains("--eval bad="), "{e}");
}

/// Each limit: over it is a 400 naming the key and the flag; the limits are listed.
#[test]
fn rule_serve_limit_per_key_is_named() {
    let a = addr();
    let (st, text) = get_from(a, "/api/agents");
    assert_eq!(st, 200);
    let v: Value = serde_json::from_str(&text).unwrap();
    let l = &v["limits"];
    for k in [
        "max_tt_bits",
        "max_iters",
        "max_nodes",
        "max_depth",
        "max_worlds",
        "max_time_ms",
        "max_branch_games",
        "max_branch_seconds",
    ] {
        assert!(l[k].is_u64(), "{k}: {l}");
    }
    assert!(v["agents"].as_array().unwrap().iter().any(|x| x == "mcts"));
    assert!(!v["beside_humans"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x == "cheat"));
    for (spec, key, flag) in [
        ("alphabeta:tt_bits=28", "tt_bits=28", "--max-tt-bits"),
        ("mcts:iters=100000000", "iters=100000000", "--max-iters"),
        ("mcts:nodes=100000000", "nodes=100000000", "--max-nodes"),
        ("alphabeta:depth=30", "depth=30", "--max-depth"),
        ("pimc:worlds=5000", "worlds=5000", "--max-worlds"),
        ("mcts:time_ms=600000", "time_ms=600000", "--max-time-ms"),
    ] {
        let (st, m) = error_of(post_to(
            a,
            "/api/games",
            &json!({"variant": "chess", "seats": ["human", spec]}),
        ));
        assert_eq!(st, 400, "{spec}: {m}");
        assert!(m.contains(key) && m.contains(flag), "{spec}: {m}");
    }
    let c = create_on(a, json!({"variant": "chess", "seats": ["human", "random"]}));
    let t = c.tokens[0].clone().unwrap();
    let (st, m) = error_of(post_to(
        a,
        &format!("/api/games/{}/agent-act", c.id),
        &json!({"seat": 0, "token": t, "agent": "mcts:iters=100000000"}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("--max-iters"), "{m}");
    let (st, m) = error_of(post_to(
        a,
        &format!("/api/games/{}/branch", c.id),
        &json!({"seat": 0, "token": t, "games": 5000}),
    ));
    assert_eq!(st, 400);
    assert!(m.contains("--max-branch-games"), "{m}");
}

/// The time per decision bounds a bot asked for many iterations, and a branch stops at
/// its time limit with a 422 naming it.
#[test]
fn rule_serve_limit_time_bounds_decisions_and_branches() {
    let mut cfg = Config::new(10, Duration::from_secs(600), None);
    cfg.rules.limits.max_time_ms = 50;
    cfg.rules.limits.max_branch_seconds = 1;
    let b = spawn_with(cfg).unwrap();
    // 200,000 iterations of UCT in chess take many seconds; 50 ms is the bound.
    let c = create_on(
        &b,
        json!({"variant": "chess", "seats": ["human", "mcts:iters=200000"]}),
    );
    let t = c.tokens[0].clone().unwrap();
    let started = Instant::now();
    let (st, text) = post_to(
        &b,
        &format!("/api/games/{}/act", c.id),
        &json!({"seat": 0, "token": t, "action": "e2e4"}),
    );
    assert_eq!(st, 200, "{text}");
    let v = state_of(&b, &c.id, 0, &t);
    assert_eq!(v.plies, 2);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the bot ran {:?}",
        started.elapsed()
    );
    let (st, m) = error_of(post_to(
        &b,
        &format!("/api/games/{}/branch", c.id),
        &json!({"seat": 0, "token": t, "games": 200, "agents": ["mcts:iters=200000"]}),
    ));
    assert_eq!(st, 422, "{m}");
    assert!(m.contains("--max-branch-seconds"), "{m}");
}

/// A bot thinking for seconds in one game does not hold back another game's requests.
#[test]
fn rule_serve_slow_bot_holds_back_only_its_game() {
    let a = addr();
    let slow = create_on(
        a,
        json!({"variant": "chess", "seats": ["human", "mcts:iters=200000,time_ms=4000"]}),
    );
    let t = slow.tokens[0].clone().unwrap();
    let (st, _) = post_to(
        a,
        &format!("/api/games/{}/act", slow.id),
        &json!({"seat": 0, "token": t, "action": "e2e4"}),
    );
    assert_eq!(st, 200);
    let started = Instant::now();
    let other = create_on(a, json!({"variant": "chess", "seats": ["human", "random"]}));
    let t2 = other.tokens[0].clone().unwrap();
    for mv in ["e2e4", "d2d4"] {
        let v = state_of(a, &other.id, 0, &t2);
        if v.legal.iter().any(|l| l == mv) {
            let (st, text) = post_to(
                a,
                &format!("/api/games/{}/act", other.id),
                &json!({"seat": 0, "token": t2, "action": mv}),
            );
            assert_eq!(st, 200, "{text}");
        }
    }
    let other_done = started.elapsed();
    let v = state_of(a, &slow.id, 0, &t);
    let slow_done = started.elapsed();
    assert_eq!(v.plies, 2);
    assert!(
        other_done + Duration::from_millis(500) < slow_done,
        "the other game waited for the slow bot: {other_done:?} vs {slow_done:?}"
    );
}

/// Seeds: a human's game draws its seed from the operating system and shows it only at
/// the end; a given seed makes a hidden-information game a practice game, in its view
/// and its export.
#[test]
fn rule_serve_seeds_hidden_until_the_end() {
    let a = addr();
    let mut seeds = Vec::new();
    for _ in 0..2 {
        let c = create_on(
            a,
            json!({"variant": "chess", "seats": ["human", "random"], "params": {"ply_cap": 2}}),
        );
        let t = c.tokens[0].clone().unwrap();
        let v = state_of(a, &c.id, 0, &t);
        assert_eq!(v.seed, None);
        assert!(!v.practice);
        post_to(
            a,
            &format!("/api/games/{}/act", c.id),
            &json!({"seat": 0, "token": t, "action": "e2e4"}),
        );
        let v = state_of(a, &c.id, 0, &t);
        assert!(v.result.is_some());
        seeds.push(v.seed.expect("the seed is shown once the game is over"));
        let (st, _) = get_from(a, &format!("/api/games/{}/export", c.id));
        assert_eq!(st, 200);
    }
    assert_ne!(seeds[0], seeds[1]);
    assert!(!seeds.contains(&1));
    let p = create_on(
        a,
        json!({"variant": "masquerade", "seed": 5, "seats": ["human", "random"], "params": {"ply_cap": 2, "assignment": "random"}}),
    );
    let t = p.tokens[0].clone().unwrap();
    assert!(state_of(a, &p.id, 0, &t).practice);
    let n = create_on(
        a,
        json!({"variant": "masquerade", "seats": ["human", "random"], "params": {"assignment": "random"}}),
    );
    assert!(!state_of(a, &n.id, 0, n.tokens[0].as_deref().unwrap()).practice);
    let pi = create_on(
        a,
        json!({"variant": "chess", "seed": 5, "seats": ["human", "random"]}),
    );
    assert!(!state_of(a, &pi.id, 0, pi.tokens[0].as_deref().unwrap()).practice);
    // The practice game's export says so.
    loop {
        let v = state_of(a, &p.id, 0, &t);
        if v.result.is_some() {
            break;
        }
        let (st, text) = post_to(
            a,
            &format!("/api/games/{}/agent-act", p.id),
            &json!({"seat": 0, "token": t, "agent": "random"}),
        );
        assert_eq!(st, 200, "{text}");
    }
    let (st, toml) = get_from(a, &format!("/api/games/{}/export?format=toml", p.id));
    assert_eq!(st, 200);
    assert!(toml.starts_with("# practice game"), "{toml}");
}

/// Takeback: refused in hidden-information games except practice games, and in any
/// finished game.
#[test]
fn rule_serve_takeback_is_no_probe() {
    let a = addr();
    let play_and_undo = |c: &CreateResponse| {
        let t = c.tokens[0].clone().unwrap();
        let v = state_of(a, &c.id, 0, &t);
        let mv = v.legal[0].clone();
        let (st, text) = post_to(
            a,
            &format!("/api/games/{}/act", c.id),
            &json!({"seat": 0, "token": t, "action": mv}),
        );
        assert_eq!(st, 200, "{text}");
        state_of(a, &c.id, 0, &t);
        post_to(
            a,
            &format!("/api/games/{}/undo", c.id),
            &json!({"seat": 0, "token": t}),
        )
    };
    let hidden = create_on(
        a,
        json!({"variant": "masquerade", "seats": ["human", "random"], "params": {"assignment": "random"}}),
    );
    let (st, m) = error_of(play_and_undo(&hidden));
    assert_eq!(st, 403);
    assert!(m.contains("practice"), "{m}");
    let practice = create_on(
        a,
        json!({"variant": "masquerade", "seed": 3, "seats": ["human", "random"], "params": {"assignment": "random"}}),
    );
    let (st, text) = play_and_undo(&practice);
    assert_eq!(st, 200, "{text}");
    let over = create_on(
        a,
        json!({"variant": "chess", "seats": ["human", "random"], "params": {"ply_cap": 1}}),
    );
    let (st, m) = error_of(play_and_undo(&over));
    assert_eq!(st, 409);
    assert!(m.contains("over"), "{m}");
}

/// Only agents that decide from the seat's information advise a human or play beside
/// one in a hidden-information game; `cheat` still plays games of bots only.
#[test]
fn rule_serve_agents_beside_humans_see_only_the_seat() {
    let a = addr();
    let c = create_on(
        a,
        json!({"variant": "masquerade", "seats": ["human", "random"], "params": {"assignment": "random"}}),
    );
    let t = c.tokens[0].clone().unwrap();
    state_of(a, &c.id, 0, &t);
    let (st, m) = error_of(post_to(
        a,
        &format!("/api/games/{}/agent-act", c.id),
        &json!({"seat": 0, "token": t, "agent": "cheat"}),
    ));
    assert_eq!(st, 403);
    assert!(m.contains("true state"), "{m}");
    let (st, text) = post_to(
        a,
        &format!("/api/games/{}/agent-act", c.id),
        &json!({"seat": 0, "token": t, "agent": "smmcts:iters=20"}),
    );
    assert_eq!(st, 200, "{text}");
    let (st, m) = error_of(post_to(
        a,
        "/api/games",
        &json!({"variant": "masquerade", "seats": ["human", "cheat"]}),
    ));
    assert_eq!(st, 403, "{m}");
    create_on(
        a,
        json!({"variant": "masquerade", "seats": ["cheat:iters=10", "random"], "params": {"ply_cap": 4}}),
    );
}

/// Two games behind one observation with differing hidden truth (Masquerade: White's
/// assignment fixed, Black's drawn by chance from two seeds): everything seat 0 can
/// request is equal.
#[test]
fn rule_serve_twin_hidden_truths_answer_alike() {
    let a = addr();
    let mut answers: Vec<Vec<String>> = Vec::new();
    let mut truths = Vec::new();
    for seed in [21u64, 22] {
        let params = json!({"assignment": "random", "white_assigns": "KQ,QN,RB,NR,BK"});
        let c = create_on(
            a,
            json!({"variant": "masquerade", "seed": seed, "seats": ["human", "human"], "params": params, "practice": true}),
        );
        let t = c.tokens[0].clone().unwrap();
        let t1 = c.tokens[1].clone().unwrap();
        let mut out = Vec::new();
        let view = |seat: usize, tok: &str| {
            let (st, text) = get_from(
                a,
                &format!("/api/games/{}/state?seat={seat}&token={tok}", c.id),
            );
            assert_eq!(st, 200, "{text}");
            text
        };
        state_of(a, &c.id, 0, &t);
        out.push(view(0, &t));
        truths.push(view(1, &t1));
        for (seat, tok, mv) in [(0, &t, "e2e4"), (1, &t1, "e7e5")] {
            let (st, text) = post_to(
                a,
                &format!("/api/games/{}/act", c.id),
                &json!({"seat": seat, "token": tok, "action": mv}),
            );
            assert_eq!(st, 200, "{mv}: {text}");
        }
        out.push(view(0, &t));
        // The seat's adviser, then every other request it can make.
        let (_, text) = post_to(
            a,
            &format!("/api/games/{}/agent-act", c.id),
            &json!({"seat": 0, "token": t, "agent": "mcts:iters=40,seed=3"}),
        );
        out.push(text);
        out.push(view(0, &t));
        out.push(
            post_to(
                a,
                &format!("/api/games/{}/branch", c.id),
                &json!({"seat": 0, "token": t}),
            )
            .1,
        );
        out.push(
            post_to(
                a,
                &format!("/api/games/{}/undo", c.id),
                &json!({"seat": 0, "token": t}),
            )
            .1,
        );
        out.push(view(0, &t));
        out.push(get_from(a, &format!("/api/games/{}/export", c.id)).1);
        answers.push(out);
    }
    assert_ne!(
        truths[0], truths[1],
        "the two games should differ in what seat 0 cannot see"
    );
    assert_eq!(answers[0], answers[1]);
}

/// `kill -9` the server, start it again on the same data folder: every game is back where
/// it stood, its tokens still work, and its bots play on.
#[test]
fn rule_serve_games_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let start = || {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chesslab"))
            .args(["serve", "--port", "0", "--data"])
            .arg(dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in '{line}'"))
            .to_string();
        (child, addr)
    };
    let (mut first, a) = start();
    let human = create_on(
        &a,
        json!({"variant": "chess", "seats": ["human", "random"]}),
    );
    let t = human.tokens[0].clone().unwrap();
    let (st, _) = post_to(
        &a,
        &format!("/api/games/{}/act", human.id),
        &json!({"seat": 0, "token": t, "action": "e2e4"}),
    );
    assert_eq!(st, 200);
    let before = state_of(&a, &human.id, 0, &t);
    assert_eq!(before.plies, 2);
    let bots = create_on(
        &a,
        json!({"variant": "chess", "seats": ["mcts:iters=300", "random"], "params": {"ply_cap": 300}}),
    );
    std::thread::sleep(Duration::from_millis(300));
    first.kill().unwrap();
    first.wait().unwrap();

    let (mut second, b) = start();
    let after = state_of(&b, &human.id, 0, &t);
    assert_eq!(after.observation, before.observation);
    assert_eq!(after.plies, 2);
    let (st, _) = post_to(
        &b,
        &format!("/api/games/{}/act", human.id),
        &json!({"seat": 0, "token": "0000", "action": "d2d4"}),
    );
    assert_eq!(st, 403);
    let mv = after.legal.iter().find(|m| *m == "d2d4").unwrap().clone();
    let (st, text) = post_to(
        &b,
        &format!("/api/games/{}/act", human.id),
        &json!({"seat": 0, "token": t, "action": mv}),
    );
    assert_eq!(st, 200, "{text}");
    assert_eq!(state_of(&b, &human.id, 0, &t).plies, 4);
    // The bots' game plays on to its end.
    let mut done = false;
    for _ in 0..600 {
        let (st, text) = get_from(&b, &format!("/api/games/{}/state", bots.id));
        assert_eq!(st, 200, "{text}");
        let v: SeatView = serde_json::from_str(&text).unwrap();
        if v.result.is_some() {
            done = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    second.kill().unwrap();
    second.wait().unwrap();
    assert!(done, "the resumed bots did not finish");
}

//! The board's second audit (issue 65) and its decisions under budgets (issue 64), over
//! real HTTP on loopback, class by class: what a creator may fix in a game two people
//! play, numbers from outside in range, quotas per client, half-open and idle
//! connections closed, stale acts refused, versions that only grow across a restart,
//! takeback across simultaneous moves, private data files, expiry that archives, evaluation
//! files read once and never quoted, and bots that think without holding the game (a view
//! answers at once with `thinking: true`; every decision ends by the server's limit).
//! Each test makes its own server, so the quotas and limits are its own.

use crate::common;

use experiments::serve::api::{CreateResponse, SeatView};
use experiments::serve::games::AgentRules;
use experiments::serve::limits::{checked_spec, EvalFiles, Limits, Use};
use experiments::serve::store::Quotas;
use experiments::serve::{spawn_with, Config};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn server(config: Config) -> String {
    spawn_with(config).unwrap()
}

fn plain() -> Config {
    Config::new(1000, Duration::from_secs(3600), None)
}

fn post(addr: &str, path: &str, body: &Value) -> (u16, String) {
    common::http::request(addr, "POST", path, body.to_string().as_bytes())
}

fn get(addr: &str, path: &str) -> (u16, String) {
    common::http::request(addr, "GET", path, b"")
}

fn create(addr: &str, body: Value) -> CreateResponse {
    let (st, text) = post(addr, "/api/games", &body);
    assert_eq!(st, 200, "{body}: {text}");
    serde_json::from_str(&text).unwrap()
}

fn view(addr: &str, c: &CreateResponse, seat: usize) -> SeatView {
    let token = c.tokens[seat].as_deref().unwrap_or("");
    let (st, text) = get(
        addr,
        &format!("/api/games/{}/state?seat={seat}&token={token}", c.id),
    );
    assert_eq!(st, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The view once no bot or chance is due.
fn settled(addr: &str, c: &CreateResponse, seat: usize) -> SeatView {
    let t = Instant::now();
    loop {
        let v = view(addr, c, seat);
        if !v.thinking {
            return v;
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "the bots never settled"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn act(
    addr: &str,
    c: &CreateResponse,
    seat: usize,
    action: &str,
    version: Option<u64>,
) -> (u16, String) {
    let mut body = json!({"seat": seat, "token": c.tokens[seat], "action": action});
    if let Some(v) = version {
        body["version"] = json!(v);
    }
    post(addr, &format!("/api/games/{}/act", c.id), &body)
}

fn error(text: &str) -> String {
    serde_json::from_str::<Value>(text).unwrap()["error"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

// ---- 1. What a creator may fix -------------------------------------------------------

#[test]
fn rule_serve_creators_cannot_fix_another_persons_secret() {
    let addr = server(plain());
    let two = json!(["human", "human"]);
    // Each way of fixing a hidden part or chance, in a game two people play: refused,
    // naming what was fixed and how to ask for practice.
    let fixed = [
        json!({"variant": "masquerade", "seats": two, "params": {"black_assigns": "KB,QR,RQ,BK,NN"}}),
        json!({"variant": "masquerade", "seats": two, "params": {"white_assigns": "KQ,QN,RB,NR,BK"}}),
        json!({"variant": "masquerade", "seats": two, "seed": 7}),
        json!({"variant": "tar-pit", "seats": two, "seed": 1}),
        json!({"variant": "synchronous", "seats": two, "seed": 3}),
        json!({"variant": "zombie", "seats": two, "opening": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}),
    ];
    for body in &fixed {
        let (st, text) = post(&addr, "/api/games", body);
        assert_eq!(st, 400, "{body}: {text}");
        let e = error(&text);
        assert!(e.contains("practice"), "{body}: {e}");
        // The same with "practice": true is a practice game, and both seats are told.
        let mut asked = body.clone();
        asked["practice"] = json!(true);
        let c = create(&addr, asked.clone());
        for seat in 0..2 {
            let v = view(&addr, &c, seat);
            assert!(v.practice, "{asked}: seat {seat} not told");
            let why = v.practice_why.unwrap_or_default();
            assert!(why.contains("asked for a practice game"), "{why}");
        }
    }
    // Nothing fixed: no practice, the key hidden from both.
    let c = create(&addr, json!({"variant": "masquerade", "seats": two}));
    for seat in 0..2 {
        let v = view(&addr, &c, seat);
        assert!(!v.practice && v.practice_why.is_none());
        assert!(v.params.get("black_assigns").is_none());
    }
    // One person against a bot who fixes the bot's secret: practice, and says why.
    let c = create(
        &addr,
        json!({"variant": "masquerade", "seats": ["human", "random"], "params": {"black_assigns": "KB,QR,RQ,BK,NN"}}),
    );
    let v = view(&addr, &c, 0);
    assert!(v.practice);
    assert!(v.practice_why.unwrap().contains("black_assigns"));
    // A seed in orthodox chess fixes nothing hidden: two people, no practice.
    let c = create(&addr, json!({"variant": "chess", "seats": two, "seed": 5}));
    assert!(!view(&addr, &c, 0).practice);
}

// ---- 2. Numbers from outside ---------------------------------------------------------

#[test]
fn rule_serve_numbers_from_outside_are_in_range() {
    // Flags: refused where they are parsed, naming the flag, exit status non-zero.
    for (flag, value) in [
        ("--idle-minutes", "4611686018427387904"),
        ("--idle-minutes", "0"),
        ("--unplayed-minutes", "99999999"),
        ("--max-games", "0"),
        ("--max-time-ms", "18446744073709551615"),
        ("--max-branch-seconds", "100000"),
        ("--max-tt-bits", "64"),
        ("--max-connections", "0"),
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chesslab"))
            .args(["serve", "--no-data", "--port", "0", flag, value])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let t = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if t.elapsed() > Duration::from_secs(20) {
                child.kill().unwrap();
                panic!("{flag} {value} accepted: the server started");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{flag} {value} accepted");
        assert!(
            err.contains(flag) && err.contains("from"),
            "{flag} {value}: {err}"
        );
    }
    // Requests: every *_cap within the board's range, on create and on branch.
    let addr = server(plain());
    for params in [
        json!({"ply_cap": 4294967295u64}),
        json!({"ply_cap": 10001}),
        json!({"ply_cap": -1}),
    ] {
        let (st, text) = post(
            &addr,
            "/api/games",
            &json!({"variant": "chess", "seats": ["random", "random"], "params": params}),
        );
        assert_eq!(st, 400, "{params}: {text}");
        assert!(error(&text).contains("ply_cap"), "{text}");
    }
    let (st, text) = post(
        &addr,
        "/api/games",
        &json!({"variant": "golf", "params": "move_cap = 4294967295"}),
    );
    assert_eq!(st, 400, "{text}");
    assert!(error(&text).contains("move_cap"), "{text}");
    let c = create(
        &addr,
        json!({"variant": "chess", "seats": ["human", "random"], "params": {"ply_cap": 10000}}),
    );
    let (st, text) = post(
        &addr,
        &format!("/api/games/{}/branch", c.id),
        &json!({"seat": 0, "token": c.tokens[0], "games": 1, "params": {"ply_cap": 99999999}}),
    );
    assert_eq!(st, 400, "{text}");
}

// ---- 3. One client cannot lock everyone out ------------------------------------------

/// A connection from `from` (another loopback address: another client).
fn connect_from(from: &str, addr: &str) -> TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let s = rt.block_on(async {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.bind(format!("{from}:0").parse().unwrap()).unwrap();
        sock.connect(addr.parse().unwrap()).await.unwrap()
    });
    let s = s.into_std().unwrap();
    s.set_nonblocking(false).unwrap();
    s
}

fn create_from(from: &str, addr: &str, body: &Value) -> (u16, String) {
    common::http::request_on(
        connect_from(from, addr),
        addr,
        "POST",
        "/api/games",
        body.to_string().as_bytes(),
    )
}

#[test]
fn rule_serve_quotas_bound_one_client() {
    let mut config = plain();
    config.max_games = 20;
    config.quotas = Quotas {
        per_client: 5,
        per_minute: 8,
        unplayed: Duration::from_secs(3600),
    };
    let addr = server(config);
    let game = json!({"variant": "chess", "seats": ["human", "random"]});
    // One client: five live games, then 429 naming the flag.
    for _ in 0..5 {
        let (st, text) = create_from("127.0.0.2", &addr, &game);
        assert_eq!(st, 200, "{text}");
    }
    let (st, text) = create_from("127.0.0.2", &addr, &game);
    assert_eq!(st, 429, "{text}");
    assert!(error(&text).contains("--max-games-per-client"), "{text}");
    // Another client is not held back.
    let (st, text) = create_from("127.0.0.3", &addr, &game);
    assert_eq!(st, 200, "{text}");
    // Creates per minute, counted whatever becomes of the games.
    let mut config = plain();
    config.quotas = Quotas {
        per_client: 1000,
        per_minute: 8,
        unplayed: Duration::from_secs(3600),
    };
    let addr = server(config);
    let mut statuses = Vec::new();
    for _ in 0..9 {
        statuses.push(create_from("127.0.0.4", &addr, &game));
    }
    assert!(statuses[..8].iter().all(|(s, _)| *s == 200), "{statuses:?}");
    assert_eq!(statuses[8].0, 429, "{statuses:?}");
    assert!(error(&statuses[8].1).contains("--max-creates-per-minute"));
    let (st, _) = create_from("127.0.0.9", &addr, &game);
    assert_eq!(st, 200);
}

#[test]
fn rule_serve_unplayed_games_expire_soon_however_often_read() {
    let mut config = plain();
    config.quotas = Quotas {
        unplayed: Duration::from_millis(800),
        ..Quotas::default()
    };
    let addr = server(config);
    let idle = create(
        &addr,
        json!({"variant": "chess", "seats": ["human", "random"]}),
    );
    let played = create(
        &addr,
        json!({"variant": "chess", "seats": ["human", "random"]}),
    );
    let v = settled(&addr, &played, 0);
    let (st, text) = act(&addr, &played, 0, &v.legal[0], Some(v.version));
    assert_eq!(st, 200, "{text}");
    // Read every 100 ms: reads do not keep an unplayed game.
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(1200) {
        view(&addr, &idle, 0);
        view(&addr, &played, 0);
        std::thread::sleep(Duration::from_millis(100));
    }
    // Expiry runs at every create (and every 30 s).
    create(
        &addr,
        json!({"variant": "chess", "seats": ["random", "random"]}),
    );
    let (st, _) = get(
        &addr,
        &format!(
            "/api/games/{}/state?seat=0&token={}",
            idle.id,
            idle.tokens[0].as_deref().unwrap()
        ),
    );
    assert_eq!(st, 404, "an unplayed game outlived its time");
    view(&addr, &played, 0);
}

/// Reads from `s` until the server closes it; the time that took (None: still open
/// after `patience`) and what was read.
fn until_closed(s: &mut TcpStream, patience: Duration) -> (Option<Duration>, String) {
    s.set_read_timeout(Some(patience)).unwrap();
    let t = Instant::now();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => {
                return (
                    Some(t.elapsed()),
                    String::from_utf8_lossy(&out).into_owned(),
                )
            }
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return (None, String::from_utf8_lossy(&out).into_owned())
            }
            Err(_) => {
                return (
                    Some(t.elapsed()),
                    String::from_utf8_lossy(&out).into_owned(),
                )
            }
        }
    }
}

#[test]
fn rule_serve_half_open_connections_are_closed() {
    let mut config = plain();
    config.conns.head = Duration::from_millis(700);
    config.conns.body = Duration::from_millis(700);
    config.conns.per_client = 6;
    let addr = server(config);
    let patience = Duration::from_secs(5);
    // Half a head.
    let mut s = TcpStream::connect(&addr).unwrap();
    write!(s, "GET /api/variants HTTP/1.1\r\nHost: {addr}\r\nX-Half: ").unwrap();
    let (closed, _) = until_closed(&mut s, patience);
    assert!(
        closed.is_some_and(|t| t < Duration::from_secs(3)),
        "half a head kept open: {closed:?}"
    );
    // An idle connection (nothing sent at all).
    let mut s = TcpStream::connect(&addr).unwrap();
    let (closed, _) = until_closed(&mut s, patience);
    assert!(closed.is_some(), "an idle connection kept open");
    // A body announced huge: refused at once, not waited for.
    let mut s = TcpStream::connect(&addr).unwrap();
    write!(
        s,
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n{{\"variant\""
    )
    .unwrap();
    let (closed, text) = until_closed(&mut s, patience);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(
        closed.is_some_and(|t| t < Duration::from_secs(1)),
        "{closed:?}"
    );
    // A body that stops arriving: 408 after the body's time.
    let mut s = TcpStream::connect(&addr).unwrap();
    write!(
        s,
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"variant\""
    )
    .unwrap();
    let (closed, text) = until_closed(&mut s, patience);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"error\""), "{text}");
    assert!(
        closed.is_some_and(|t| t < Duration::from_secs(3)),
        "{closed:?}"
    );
    // Connections per client: the seventh of one address is answered 503 JSON and
    // closed; another address still gets in.
    let held: Vec<TcpStream> = (0..6).map(|_| connect_from("127.0.0.5", &addr)).collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut extra = connect_from("127.0.0.5", &addr);
    let (closed, text) = until_closed(&mut extra, patience);
    assert!(closed.is_some(), "over the cap and still open");
    assert!(
        text.starts_with("HTTP/1.1 503") && text.contains("--max-connections-per-client"),
        "{text}"
    );
    let (st, _) = common::http::request_on(
        connect_from("127.0.0.6", &addr),
        &addr,
        "GET",
        "/api/variants",
        b"",
    );
    assert_eq!(st, 200);
    drop(held);
}

// ---- 4. Double clicks play once ------------------------------------------------------

#[test]
fn rule_serve_stale_acts_are_refused() {
    let addr = server(plain());
    for round in 0..10 {
        let c = create(
            &addr,
            json!({"variant": "chess", "seats": ["human", "random"]}),
        );
        let v = settled(&addr, &c, 0);
        let version = v.version;
        // Two moves for one seat at once, both chosen at the same version.
        let threads: Vec<_> = ["e2e4", "d2d4"]
            .into_iter()
            .map(|mv| {
                let addr = addr.clone();
                let c2 = CreateResponse {
                    id: c.id.clone(),
                    tokens: c.tokens.clone(),
                    seats: c.seats.clone(),
                    seat_names: c.seat_names.clone(),
                };
                std::thread::spawn(move || act(&addr, &c2, 0, mv, Some(version)).0)
            })
            .collect();
        let mut statuses: Vec<u16> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        statuses.sort();
        assert_eq!(statuses, vec![200, 409], "round {round}");
        let v = settled(&addr, &c, 0);
        assert_eq!(v.plies, 2, "round {round}: one move and the bot's reply");
    }
    // Undo and agent-act carry the version too; without one an act takes the current.
    let c = create(
        &addr,
        json!({"variant": "chess", "seats": ["human", "random"]}),
    );
    let v = settled(&addr, &c, 0);
    let (st, _) = act(&addr, &c, 0, "e2e4", None);
    assert_eq!(st, 200);
    let old = v.version;
    let (st, text) = post(
        &addr,
        &format!("/api/games/{}/undo", c.id),
        &json!({"seat": 0, "token": c.tokens[0], "version": old}),
    );
    assert_eq!(st, 409, "{text}");
    assert!(error(&text).starts_with("stale"), "{text}");
    let (st, text) = post(
        &addr,
        &format!("/api/games/{}/agent-act", c.id),
        &json!({"seat": 0, "token": c.tokens[0], "agent": "random", "version": old}),
    );
    assert_eq!(st, 409, "{text}");
}

// ---- 5. Versions only grow -----------------------------------------------------------

#[test]
fn rule_serve_versions_only_grow() {
    let data = tempfile::tempdir().unwrap();
    let mut config = plain();
    config.data = Some(data.path().to_path_buf());
    let addr = server(config.clone());
    let c = create(
        &addr,
        json!({"variant": "chess", "seats": ["human", "random"]}),
    );
    for _ in 0..3 {
        let v = settled(&addr, &c, 0);
        let (st, text) = act(&addr, &c, 0, &v.legal[0], Some(v.version));
        assert_eq!(st, 200, "{text}");
    }
    // Takebacks raise the version too (the record is shorter than before).
    let v = settled(&addr, &c, 0);
    let (st, text) = post(
        &addr,
        &format!("/api/games/{}/undo", c.id),
        &json!({"seat": 0, "token": c.tokens[0], "version": v.version}),
    );
    assert_eq!(st, 200, "{text}");
    let before = settled(&addr, &c, 0);
    assert!(before.version > v.version);
    assert!(before.version > before.plies as u64);
    // A second server on the same folder: a restart.
    let again = server(config);
    let after = settled(&again, &c, 0);
    assert_eq!(after.plies, before.plies);
    assert!(
        after.version > before.version,
        "version fell or stood still across a restart: {} then {}",
        before.version,
        after.version
    );
}

// ---- 6. Takeback across simultaneous moves -------------------------------------------

#[test]
fn rule_serve_takeback_refused_across_simultaneous_moves() {
    let addr = server(plain());
    for variant in ["synchronous", "two-move"] {
        for practice in [false, true] {
            let c = create(
                &addr,
                json!({"variant": variant, "seats": ["human", "greedy"], "practice": practice}),
            );
            // The first decision of both is a simultaneous one (Synchronous: a move, Two
            // Move: the cards); once it is played with the bot's part, take it back.
            let mut decided = 0;
            while decided < 1 {
                let v = settled(&addr, &c, 0);
                if v.legal.is_empty() {
                    break;
                }
                let (st, text) = act(&addr, &c, 0, &v.legal[0], Some(v.version));
                assert_eq!(st, 200, "{text}");
                decided += 1;
            }
            let v = settled(&addr, &c, 0);
            let (st, text) = post(
                &addr,
                &format!("/api/games/{}/undo", c.id),
                &json!({"seat": 0, "token": c.tokens[0], "version": v.version}),
            );
            if practice {
                assert_eq!(st, 200, "{variant} practice: {text}");
            } else {
                assert_eq!(st, 403, "{variant}: {text}");
                assert!(error(&text).contains("simultaneous"), "{text}");
            }
        }
    }
}

// ---- 7. Files ------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn rule_serve_data_files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("data");
    let mut config = plain();
    config.data = Some(dir.clone());
    let addr = server(config);
    let c = create(
        &addr,
        json!({"variant": "masquerade", "seats": ["human", "random"]}),
    );
    settled(&addr, &c, 0);
    assert_eq!(mode(&dir), 0o700);
    for f in ["games.sqlite", "games.sqlite-wal", "games.sqlite-shm"] {
        assert_eq!(mode(&dir.join(f)), 0o600, "{f}");
    }
    // A database an older server left readable by all is tightened when opened.
    let old = root.path().join("old");
    std::fs::create_dir(&old).unwrap();
    std::fs::write(old.join("games.sqlite"), b"").unwrap();
    std::fs::set_permissions(
        old.join("games.sqlite"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let mut config = plain();
    config.data = Some(old.clone());
    server(config);
    assert_eq!(mode(&old.join("games.sqlite")), 0o600);
}

#[test]
fn rule_serve_expiry_archives_never_deletes() {
    let data = tempfile::tempdir().unwrap();
    let mut config = Config::new(1000, Duration::from_millis(300), None);
    config.data = Some(data.path().to_path_buf());
    let addr = server(config);
    let c = create(
        &addr,
        json!({"variant": "chess", "seats": ["human", "random"]}),
    );
    std::thread::sleep(Duration::from_millis(600));
    create(
        &addr,
        json!({"variant": "chess", "seats": ["random", "random"]}),
    );
    let (st, _) = get(&addr, &format!("/api/games/{}/state", c.id));
    assert_eq!(st, 404, "the idle game is still live");
    let db = rusqlite::Connection::open(data.path().join("games.sqlite")).unwrap();
    let n: i64 = db
        .query_row("SELECT COUNT(*) FROM archive WHERE id = ?1", [&c.id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(n, 1, "the expired game is not in the archive");
}

#[cfg(unix)]
#[test]
fn rule_serve_eval_files_are_read_once_and_never_quoted() {
    let dir = tempfile::tempdir().unwrap();
    // Not regular files: refused at once, never read (a device without end, a pipe that
    // would block).
    let fifo = dir.path().join("pipe");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for (path, says) in [
        ("/dev/zero".to_string(), "not a regular file"),
        (fifo.display().to_string(), "not a regular file"),
        (dir.path().display().to_string(), "not a regular file"),
        ("/nonexistent/x.toml".to_string(), "cannot read"),
    ] {
        let t = Instant::now();
        let e = format!(
            "{:#}",
            EvalFiles::from_flags(&[format!("x={path}")]).unwrap_err()
        );
        assert!(e.contains(says), "{path}: {e}");
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{path} took {:?}",
            t.elapsed()
        );
    }
    // Files that are not evaluations: the error never quotes them.
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "root:x:0:0:hunter2-the-password:/root:/bin/bash\n").unwrap();
    let weird = dir.path().join("weird.toml");
    std::fs::write(&weird, "pawn = \"hunter2-the-password\"\n").unwrap();
    let big = dir.path().join("big.toml");
    std::fs::write(&big, vec![b'#'; 5 * 1024 * 1024]).unwrap();
    for p in [&secret, &weird, &big] {
        let e = format!(
            "{:#}",
            EvalFiles::from_flags(&[format!("x={}", p.display())]).unwrap_err()
        );
        assert!(e.contains("--eval"), "{e}");
        assert!(
            !e.contains("hunter2") && !e.contains("root:x"),
            "quoted: {e}"
        );
    }
    // /proc files claim to be empty: read with the cap all the same, and not quoted.
    let e = format!(
        "{:#}",
        EvalFiles::from_flags(&["x=/proc/self/environ".into()]).unwrap_err()
    );
    assert!(!e.contains("PATH="), "{e}");
    // A good file is read once: the operator's copy may go, agents still build.
    let good = dir.path().join("good.toml");
    std::fs::write(&good, "pawn = 1.0\nknight = 3.1\n").unwrap();
    let evals = EvalFiles::from_flags(&[format!("mine={}", good.display())]).unwrap();
    std::fs::remove_file(&good).unwrap();
    let spec = checked_spec(
        "alphabeta:depth=1,eval=mine",
        &Limits::default(),
        &evals,
        Use::BotsOnly,
    )
    .unwrap();
    assert!(!spec.contains(&good.display().to_string()), "{spec}");
    agents::registry::build::<engine::variants::chess::Chess>(&spec).unwrap();
}

// ---- Issue 64: decisions under the server's limit ------------------------------------

fn limited(ms: u64) -> Config {
    let mut config = plain();
    config.rules = AgentRules {
        limits: Limits {
            max_time_ms: ms,
            max_iters: 1_000_000_000,
            max_nodes: 10_000_000_000,
            max_depth: 64,
            max_branch_seconds: 1,
            max_branch_games: 100_000,
            ..Limits::default()
        },
        ..AgentRules::default()
    };
    config
}

/// Waits until the game has `plies` actions or a result; the view and the time it took.
fn wait_plies(addr: &str, c: &CreateResponse, seat: usize, plies: usize) -> (SeatView, Duration) {
    let t = Instant::now();
    loop {
        let v = view(addr, c, seat);
        if v.plies >= plies || v.result.is_some() {
            return (v, t.elapsed());
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "no decision after a minute"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn rule_serve_bots_think_without_holding_the_game() {
    let limit = 800;
    let addr = server(limited(limit));
    // Heavy searches a human plays against (the audit's), each far over the limit on its
    // own budget.
    for (variant, bot) in [
        (
            "zombie",
            "pimc:search=alphabeta,depth=6,worlds=64,quiescence=true",
        ),
        ("zombie", "expectimax:iters=200000"),
        ("chess", "alphabeta:depth=30"),
        ("chess", "mcts:iters=500000000"),
    ] {
        let c = create(&addr, json!({"variant": variant, "seats": [bot, "human"]}));
        // The bot moves first: a view answers at once while it thinks.
        let t = Instant::now();
        let v = view(&addr, &c, 1);
        let quick = t.elapsed();
        assert!(
            quick < Duration::from_millis(300),
            "{bot}: state took {quick:?}"
        );
        assert!(v.thinking || v.plies > 0, "{bot}: {v:?}");
        let (v, took) = wait_plies(&addr, &c, 1, 1);
        // The limit, the grace of one second and some slack for a loaded machine.
        assert!(
            took < Duration::from_millis(limit) + Duration::from_millis(2500),
            "{bot}: the decision took {took:?}"
        );
        assert!(
            v.plies >= 1 || v.result.is_some_and(|r| r.reason == "forfeit-time"),
            "{bot}"
        );
    }
    // Advice for a human seat stops at the limit too.
    let c = create(
        &addr,
        json!({"variant": "chess", "seats": ["human", "random"]}),
    );
    let v = settled(&addr, &c, 0);
    let t = Instant::now();
    let (st, text) = post(
        &addr,
        &format!("/api/games/{}/agent-act", c.id),
        &json!({"seat": 0, "token": c.tokens[0], "agent": "alphabeta:depth=30", "version": v.version}),
    );
    assert!(st == 200 || st == 503, "{st} {text}");
    assert!(
        t.elapsed() < Duration::from_millis(limit) + Duration::from_millis(2500),
        "{:?}",
        t.elapsed()
    );
    // A branch stops at its time, its games stopped inside their decisions.
    let t = Instant::now();
    let (st, text) = post(
        &addr,
        &format!("/api/games/{}/branch", c.id),
        &json!({"seat": 0, "token": c.tokens[0], "games": 100000, "agents": ["alphabeta:depth=30"]}),
    );
    assert_eq!(st, 422, "{text}");
    assert!(
        t.elapsed() < Duration::from_millis(1000 + 2500),
        "branch took {:?}",
        t.elapsed()
    );
}

// ---- The move list in readable notation ----------------------------------------------

#[test]
fn rule_serve_record_in_san() {
    let addr = server(plain());
    let c = create(
        &addr,
        json!({"variant": "chess", "seats": ["human", "human"]}),
    );
    for (seat, mv) in [
        (0, "e2e4"),
        (1, "e7e5"),
        (0, "g1f3"),
        (1, "b8c6"),
        (0, "f1b5"),
        (1, "g8f6"),
        (0, "e1g1"),
    ] {
        let v = view(&addr, &c, seat);
        let (st, text) = act(&addr, &c, seat, mv, Some(v.version));
        assert_eq!(st, 200, "{text}");
    }
    let v = view(&addr, &c, 0);
    assert_eq!(
        v.record_san.unwrap(),
        vec!["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O"]
    );
    assert_eq!(v.record.unwrap()[6], "e1g1");
}

/// The half-open audit case as a client sees it: after a flood of creates from one
/// address, another address still creates (quotas are per client by default flags too).
#[test]
fn rule_serve_flood_from_one_address_leaves_room() {
    let mut config = plain();
    config.quotas = Quotas::default();
    let addr = server(config);
    let game = json!({"variant": "chess", "seats": ["human", "random"]});
    let mut refused = 0;
    for _ in 0..120 {
        let (st, _) = create_from("127.0.0.7", &addr, &game);
        if st == 429 {
            refused += 1;
        }
    }
    assert!(
        refused >= 20,
        "a flood of 120 creates was refused {refused} times"
    );
    let (st, text) = create_from("127.0.0.8", &addr, &game);
    assert_eq!(st, 200, "{text}");
}

/// A bot's decision in progress when the server stops is not started afresh after the
/// restart: it gets only what is left of its limit (issue 64).
#[test]
fn rule_serve_decisions_keep_their_deadline_across_a_restart() {
    let limit = 6000;
    let data = tempfile::tempdir().unwrap();
    let mut config = limited(limit);
    config.data = Some(data.path().to_path_buf());
    let first = server(config.clone());
    let c = create(
        &first,
        json!({"variant": "chess", "seats": ["human", "alphabeta:depth=40"]}),
    );
    let v = settled(&first, &c, 0);
    let (st, text) = act(&first, &c, 0, "e2e4", Some(v.version));
    assert_eq!(st, 200, "{text}");
    // Four of its six seconds gone, then a second server on the same folder.
    std::thread::sleep(Duration::from_millis(4000));
    let again = server(config);
    let (v, took) = wait_plies(&again, &c, 0, 2);
    assert!(v.plies >= 2 || v.result.is_some());
    // From scratch it would have six seconds again; two remain, plus the grace.
    assert!(
        took < Duration::from_millis(limit - 1500),
        "the decision started afresh after the restart: {took:?}"
    );
}

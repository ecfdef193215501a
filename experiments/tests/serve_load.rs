//! A bounded load test of the playtest board's API (issue 22): an in-process
//! `chesslab serve` on loopback, `GAMES` concurrent chess games (human seats, so every
//! decision is an HTTP request), each driven by its own client thread for `ACTS` actions:
//! read the seat's state, play its first legal action. Prints the median and p99 latency
//! of state and act requests and the process's resident memory (VmRSS) before the games,
//! after them, and after the games have expired. Games are written to a SQLite file in a
//! temporary folder, as the server does by default (`CHESSLAB_LOAD_MEMORY=1`: memory only).
//!
//! Two ways to load it. Closed loop (the default): every client sends its next request as
//! soon as the last is answered, so the server runs flat out and a request's latency is
//! mostly its wait behind the other 199 clients' (by Little's law, clients / throughput).
//! Open loop (`CHESSLAB_LOAD_RATE=R`): the clients together send R requests a second,
//! each on a fixed schedule (client g's k-th request at g/R + k·GAMES/R seconds), and a
//! latency runs from the scheduled moment, not from the send, so a server that falls
//! behind is charged for the wait (no coordinated omission). The open loop is how a
//! latency is compared at a given load, such as the 1,200 requests/s of the old figure.
//!
//! Ignored by default (it measures, it asserts only that every request succeeds); run:
//! `cargo test -p experiments --test integration serve_load:: -- --ignored --nocapture`, with
//! `CHESSLAB_LOAD_GAMES` and `CHESSLAB_LOAD_ACTS` to change 200 games x 20 actions.
//! Every request goes to 127.0.0.1 only and the run stops by itself: GAMES x ACTS x 2
//! requests, then the expiry. Speed is not asserted (no timed tests).

use crate::common;

use std::time::{Duration, Instant};

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// Requests whose TCP connect alone took over 900 ms (a SYN sent again after the
/// kernel's one-second timeout), counted over the whole run.
static SLOW_CONNECTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// One request over a fresh connection (as `common::http::request`, which the other
/// tests use); returns (status, body). The connect is timed apart from the request, so
/// a slow handshake can be told from a slow answer.
fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let t = Instant::now();
    let s = std::net::TcpStream::connect(addr).expect("connect to the test server");
    if t.elapsed() > Duration::from_millis(900) {
        SLOW_CONNECTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    common::http::request_on(s, addr, method, path, body.as_bytes())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

#[test]
#[ignore = "a load measurement: run with --ignored --nocapture"]
fn board_load_200_games() {
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let games = env("CHESSLAB_LOAD_GAMES", 200);
    let acts = env("CHESSLAB_LOAD_ACTS", 20);
    let rate = env("CHESSLAB_LOAD_RATE", 0);
    // Open loop: a client's requests are `games / rate` seconds apart, client g offset by
    // g / rate.
    let schedule = (rate > 0).then(|| {
        (
            Duration::from_secs_f64(games as f64 / rate as f64),
            Duration::from_secs_f64(1.0 / rate as f64),
        )
    });
    let idle = Duration::from_secs(2);
    // Games are written to a database as `chesslab serve` does by default
    // (`CHESSLAB_LOAD_MEMORY=1`: in memory only, as before issue 35).
    let data = tempfile::tempdir().expect("a temporary folder");
    let mut config = experiments::serve::Config::new(games + 10, idle, None);
    if std::env::var("CHESSLAB_LOAD_MEMORY").is_err() {
        config.data = Some(data.path().to_path_buf());
    }
    let addr = experiments::serve::spawn_with(config).expect("server");
    let before = rss_kib();
    let start = Instant::now();
    let threads: Vec<_> = (0..games)
        .map(|g| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let mut next = 0u32;
                // Waits for the client's next scheduled moment (open loop) and returns it:
                // the request's latency runs from there. Closed loop: now.
                let mut due = |created: Instant| match schedule {
                    Some((every, offset)) => {
                        let at = created + offset * g as u32 + every * next;
                        next += 1;
                        if let Some(wait) = at.checked_duration_since(Instant::now()) {
                            std::thread::sleep(wait);
                        }
                        at
                    }
                    None => Instant::now(),
                };
                let (st, text) = request(
                    &addr,
                    "POST",
                    "/api/games",
                    &format!(r#"{{"variant":"chess","seed":{g},"seats":["human","human"]}}"#),
                );
                assert_eq!(st, 200, "{text}");
                let c: serde_json::Value = serde_json::from_str(&text).unwrap();
                let id = c["id"].as_str().unwrap().to_string();
                let tokens: Vec<String> = c["tokens"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_string())
                    .collect();
                let (mut state_t, mut act_t) = (Vec::new(), Vec::new());
                let created = Instant::now();
                for i in 0..acts {
                    let seat = i % 2;
                    let t0 = due(created);
                    let (st, text) = request(
                        &addr,
                        "GET",
                        &format!("/api/games/{id}/state?seat={seat}&token={}", tokens[seat]),
                        "",
                    );
                    state_t.push(t0.elapsed());
                    assert_eq!(st, 200, "{text}");
                    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                    let Some(a) = v["legal"].as_array().and_then(|l| l.first()) else {
                        break;
                    };
                    let body =
                        serde_json::json!({"seat": seat, "token": tokens[seat], "action": a})
                            .to_string();
                    let t0 = due(created);
                    let (st, text) = request(&addr, "POST", &format!("/api/games/{id}/act"), &body);
                    act_t.push(t0.elapsed());
                    assert_eq!(st, 200, "{text}");
                }
                (state_t, act_t)
            })
        })
        .collect();
    let (mut state_t, mut act_t) = (Vec::new(), Vec::new());
    for t in threads {
        let (s, a) = t.join().expect("a client thread failed");
        state_t.extend(s);
        act_t.extend(a);
    }
    let wall = start.elapsed();
    let during = rss_kib();
    state_t.sort();
    act_t.sort();
    // Wait past the idle limit; the next create sweeps the expired games.
    std::thread::sleep(idle + Duration::from_millis(500));
    let (st, _) = request(&addr, "POST", "/api/games", r#"{"variant":"chess"}"#);
    assert_eq!(st, 200);
    let after = rss_kib();
    println!(
        "{games} concurrent games x {acts} actions over loopback, {}, in {:.1} s: {:.0} requests/s",
        if rate > 0 {
            format!("open loop at {rate} requests/s")
        } else {
            "closed loop".to_string()
        },
        wall.as_secs_f64(),
        (state_t.len() + act_t.len()) as f64 / wall.as_secs_f64()
    );
    for (name, t) in [("state", &state_t), ("act", &act_t)] {
        println!(
            "{name:>5}: {} requests, median {:.2} ms, p99 {:.2} ms",
            t.len(),
            percentile(t, 0.5).as_secs_f64() * 1e3,
            percentile(t, 0.99).as_secs_f64() * 1e3
        );
    }
    let slow = |t: &[Duration]| {
        t.iter()
            .filter(|d| **d > Duration::from_millis(900))
            .count()
    };
    println!(
        "over 900 ms: {} state and {} act requests; {} requests spent over 900 ms in the TCP connect alone",
        slow(&state_t),
        slow(&act_t),
        SLOW_CONNECTS.load(std::sync::atomic::Ordering::Relaxed)
    );
    println!(
        "VmRSS: {} MiB before, {} MiB after the games, {} MiB once they expired",
        before / 1024,
        during / 1024,
        after / 1024
    );
}

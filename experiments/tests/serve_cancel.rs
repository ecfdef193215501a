//! Work whose client left is cancelled (issue 35): a long "branch here" request stops
//! playing once its client closes the connection. Alone in its test binary because it
//! reads a count of branch games that every server of the process shares
//! (`experiments::serve::branch_games_played`), so no other test's branches can move it.

use crate::common;

use experiments::serve::games::AgentRules;
use experiments::serve::limits::Limits;
use experiments::serve::{branch_games_played, spawn_with, Config};
use serde_json::json;
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Waits until `branch_games_played()` reaches `n`; the time it took.
fn wait_for(n: u64, what: &str) -> Duration {
    let t = Instant::now();
    while branch_games_played() < n {
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "{what}: no games played"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    t.elapsed()
}

#[test]
fn rule_serve_branch_stops_when_its_client_leaves() {
    let mut config = Config::new(10, Duration::from_secs(3600), None);
    config.rules = AgentRules {
        limits: Limits {
            max_branch_games: 100_000,
            max_branch_seconds: 3600,
            ..Limits::default()
        },
        ..AgentRules::default()
    };
    let addr = spawn_with(config).unwrap();
    let (st, text) = common::http::request(
        &addr,
        "POST",
        "/api/games",
        json!({"variant": "chess", "seats": ["random", "random"]})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(st, 200, "{text}");
    let id = serde_json::from_str::<serde_json::Value>(&text).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();

    // 100,000 games of random play from the start: far longer than this test waits.
    let body = json!({"ply": 0, "games": 100_000, "agents": ["random"]}).to_string();
    let mut client = TcpStream::connect(&addr).unwrap();
    write!(
        client,
        "POST /api/games/{id}/branch HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    client.flush().unwrap();
    let start = branch_games_played();
    wait_for(start + 3, "the branch never started");
    // While the client waits, the games go on: the time three more take is the pace.
    let before = branch_games_played();
    let pace = wait_for(before + 3, "the branch stopped while its client waited");

    drop(client);
    // Let the server notice the closed connection and the game in progress stop.
    std::thread::sleep((pace * 2).max(Duration::from_secs(1)));
    let after_close = branch_games_played();
    // Four times the pace at which three games finished: a branch still playing would
    // finish about twelve here.
    std::thread::sleep((pace * 4).max(Duration::from_secs(2)));
    let later = branch_games_played();
    assert_eq!(
        later, after_close,
        "branch games went on after the client left ({after_close} then {later}; three took {pace:?} while it waited)"
    );
    assert!(after_close - start < 100_000, "the branch ran to its end");

    // The server answers the next request.
    let (st, _) = common::http::request(&addr, "GET", "/api/variants", b"");
    assert_eq!(st, 200);
}

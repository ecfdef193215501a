//! The routes issue 38 adds to the board, over real HTTP on loopback: each variant's
//! rules card is its section of `docs/RULES.md`, the Golf par is the solver's under the
//! rules it is given, the page's script files are served and linked, the page's facts
//! route answers, and every view carries the game's own parameters (less the ones that
//! fix hidden state while the game runs).

use crate::common;

use engine::variants::golf::{GolfParams, GolfPosition};
use experiments::serve::spawn_local;
use serde_json::Value;
use std::sync::OnceLock;
use std::time::Duration;

fn addr() -> &'static str {
    static ADDR: OnceLock<String> = OnceLock::new();
    ADDR.get_or_init(|| spawn_local(100, Duration::from_secs(600), None).unwrap())
}

fn get(path: &str) -> (u16, String) {
    common::http::request(addr(), "GET", path, b"")
}

fn post_json(path: &str, body: Value) -> Value {
    let (st, text) = common::http::request(addr(), "POST", path, body.to_string().as_bytes());
    assert!(st == 200 || st == 201, "{path}: {st} {text}");
    serde_json::from_str(&text).unwrap()
}

fn get_json(path: &str) -> Value {
    let (st, text) = get(path);
    assert_eq!(st, 200, "{path}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// The section of RULES.md under the heading starting `heading`, read here on its own.
fn section(heading: &str) -> String {
    let rules =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/RULES.md")).unwrap();
    let mut lines = rules.lines().skip_while(|l| !l.starts_with(heading));
    lines.next().expect("the heading is in RULES.md");
    lines
        .take_while(|l| !l.starts_with("## ") && l.trim() != "---")
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

#[test]
fn rule_serve_rules_card_is_the_rules_section() {
    let zombie = get_json("/api/variants/zombie/rules");
    assert_eq!(zombie["title"], "Zombie Chess (chess-kit seed)");
    assert_eq!(zombie["text"].as_str().unwrap(), section("## Zombie Chess"));
    let golf = get_json("/api/variants/golf/rules");
    assert_eq!(golf["text"].as_str().unwrap(), section("## Chess Golf"));
    // Orthodox chess: the preamble every section refers to.
    let chess = get_json("/api/variants/chess/rules");
    assert!(chess["text"]
        .as_str()
        .unwrap()
        .contains("Common to all variants"));
    // Every game the board offers has a card, and no card runs into another section.
    let list = get_json("/api/variants");
    for v in list.as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let card = get_json(&format!("/api/variants/{name}/rules"));
        let text = card["text"].as_str().unwrap();
        assert!(text.len() > 100, "{name}: a short card: {text}");
        assert!(!text.contains("\n## "), "{name}: the card runs on");
    }
    let (st, text) = get("/api/variants/nope/rules");
    assert_eq!(st, 404, "{text}");
    assert!(text.contains("no rules card for variant 'nope'"), "{text}");
}

#[test]
fn rule_serve_golf_par_is_the_solvers() {
    // Two adjacent rooks borrow each other's moves: the chosen rook takes the knight.
    let hole = "8/8/8/n7/8/8/8/RR6 chosen=Rn";
    let r = get_json(&format!(
        "/api/golf/par?position={}",
        hole.replace(' ', "%20")
    ));
    let pos = GolfPosition::parse_any(hole).unwrap();
    let direct = agents::golf::solve(&pos, &GolfParams::default(), &Default::default());
    match direct.outcome {
        agents::golf::Outcome::Par(n) => assert_eq!(r["par"], n, "{r}"),
        other => panic!("the solver says {other} for a one-move hole"),
    }
    assert_eq!(r["par"], 1, "{r}");
    let (st, text) = get("/api/golf/par?position=not%20a%20hole");
    assert_eq!(st, 400, "{text}");
    assert!(text.contains("not a Golf hole"), "{text}");
}

#[test]
fn serve_page_scripts_are_served_and_linked() {
    let (st, page) = get("/");
    assert_eq!(st, 200);
    for script in ["board.js", "mechanics.js", "events.js", "play.js"] {
        assert!(
            page.contains(&format!("src=\"/{script}\"")),
            "{script} is not linked"
        );
        let (st, text) = get(&format!("/{script}"));
        assert_eq!(st, 200, "{script}");
        assert!(text.contains("\"use strict\""), "{script}: {}", &text[..80]);
    }
    assert!(
        page.contains("href=\"/board.css\""),
        "board.css is not linked"
    );
    let (st, css) = get("/board.css");
    assert_eq!(st, 200);
    assert!(css.contains("#board"), "board.css: {}", &css[..80]);
    assert_eq!(get_json("/api/board")["results"], false);
}

#[test]
fn rule_serve_golf_par_uses_the_given_rules() {
    let hole = "8/8/8/n7/8/8/8/RR6%20chosen=Rn";
    // The rules the page sends (its view's `params.rules`) are read and checked.
    let rules = serde_json::to_string(&GolfParams {
        king_step: engine::variants::golf::KingStep::NoBorrowedMove,
        ..GolfParams::default()
    })
    .unwrap();
    let r = get_json(&format!(
        "/api/golf/par?position={hole}&rules={}",
        rules.replace('"', "%22").replace(' ', "%20")
    ));
    assert_eq!(r["par"], 1, "{r}");
    let (st, text) = get(&format!(
        "/api/golf/par?position={hole}&rules=%7B%22cards%22:1%7D"
    ));
    assert_eq!(st, 400, "{text}");
    assert!(text.contains("rules.cards"), "{text}");
    let (st, text) = get(&format!(
        "/api/golf/par?position={hole}&rules=%7B%22nope%22:1%7D"
    ));
    assert_eq!(st, 400, "{text}");
    assert!(text.contains("rules: not Golf rules"), "{text}");
}

/// A game created with its own parameters reports them in every seat's view (the page
/// reads Clairvoyant's prices and Golf's rules from there, not from the defaults).
#[test]
fn rule_serve_view_carries_the_games_own_params() {
    let c = post_json(
        "/api/games",
        serde_json::json!({"variant": "clairvoyant", "seats": ["human", "human"],
            "params": {"values": {"extra_move": 77, "move": {"knight": 41}}, "costs": {"retraction": 13}}}),
    );
    let id = c["id"].as_str().unwrap();
    for seat in 0..2 {
        let token = c["tokens"][seat].as_str().unwrap();
        let v = get_json(&format!("/api/games/{id}/state?seat={seat}&token={token}"));
        let p = &v["params"];
        assert_eq!(p["values"]["extra_move"], 77, "{p}");
        assert_eq!(p["values"]["move"]["knight"], 41, "{p}");
        assert_eq!(p["costs"]["retraction"], 13, "{p}");
        // Defaults fill what was not given.
        let d = engine::variants::clairvoyant::ClairvoyantParams::default();
        assert_eq!(p["max_guesses"], d.max_guesses, "{p}");
        assert_ne!(
            d.values.extra_move, 77,
            "the test needs a non-default value"
        );
    }
    let c = post_json(
        "/api/games",
        serde_json::json!({"variant": "golf", "seats": ["human"],
            "params": "move_cap = 9\n[rules]\nking_step = \"no-borrowed-move\""}),
    );
    let id = c["id"].as_str().unwrap();
    let token = c["tokens"][0].as_str().unwrap();
    let v = get_json(&format!("/api/games/{id}/state?seat=0&token={token}"));
    assert_eq!(v["params"]["move_cap"], 9, "{v}");
    assert_eq!(v["params"]["rules"]["king_step"], "no-borrowed-move", "{v}");
}

/// Masquerade's fixed assignments are hidden state, not rules: no seat's view of a
/// running game carries them; once the game is over they are shown.
#[test]
fn serve_view_params_keep_fixed_assignments_hidden() {
    let c = post_json(
        "/api/games",
        // Two people and a fixed assignment: only as a practice game (issue 65), which
        // both views say; the assignment itself stays out of both.
        serde_json::json!({"variant": "masquerade", "seats": ["human", "human"],
            "params": {"white_assigns": "KQ,QN,RB,NR,BK", "ply_cap": 7}, "practice": true}),
    );
    let id = c["id"].as_str().unwrap();
    let tokens: Vec<&str> = (0..2).map(|s| c["tokens"][s].as_str().unwrap()).collect();
    for (seat, token) in tokens.iter().enumerate() {
        let v = get_json(&format!("/api/games/{id}/state?seat={seat}&token={token}"));
        assert_eq!(v["params"]["ply_cap"], 7, "{v}");
        assert_eq!(v["practice"], true, "{v}");
        assert!(
            v["params"].get("white_assigns").is_none(),
            "{}",
            v["params"]
        );
        assert!(
            v["params"].get("black_assigns").is_none(),
            "{}",
            v["params"]
        );
        assert!(!v.to_string().contains("KQ,QN,RB,NR,BK"), "{v}");
    }
}

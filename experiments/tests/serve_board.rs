//! The routes issue 38 adds to the board, over real HTTP on loopback: each variant's
//! rules card is its section of `docs/RULES.md`, the Golf par is the solver's, the page's
//! script files are served and linked, and the page's facts route answers.

mod common;

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

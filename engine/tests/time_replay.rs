//! The Time Chess games recorded in `results/time/` (the 1000-game balance run and the
//! gauntlet) replay under today's generators to the same end: every action is legal
//! when it is played (blind tries and sighted moves alike), the game ends after the
//! recorded number of plies with the recorded result and reason, and the blind-turn
//! tallies (forfeits, blind captures, blind self-checks, passes) come out as recorded.
//! A change to the sighted generator, blind resolution or the end judgement that these
//! games touch would break a replay.

use engine::game::{replay, Game, Turn};
use engine::variants::time::{TimeChess, TimeParams};
use std::collections::HashMap;
use std::path::Path;

use crate::common;
use common::fields;

/// The rows of a CSV file as maps from column name to field.
fn rows(path: &Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let head = fields(lines.next().expect("a header"));
    lines
        .map(|l| head.iter().cloned().zip(fields(l)).collect())
        .collect()
}

/// Replays every game of `results/time/<run>/games.csv` and checks result, reason,
/// length and tallies; returns how many games.
fn replay_run(run: &str) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results/time")
        .join(run);
    let games = rows(&dir.join("games.csv"));
    let tallies: HashMap<String, HashMap<String, String>> = rows(&dir.join("tallies.csv"))
        .into_iter()
        .map(|r| (r["index"].clone(), r))
        .collect();
    let params = TimeParams::default();
    for row in &games {
        let where_ = format!("{run} game {}", row["index"]);
        let start = if row["opening"].is_empty() {
            TimeChess::new(&params)
        } else {
            TimeChess::from_opening(&params, &row["opening"]).expect("recorded opening")
        };
        let acts: Vec<&str> = row["actions"].split_whitespace().collect();
        let g = replay(start, &acts).unwrap_or_else(|e| panic!("{where_}: {e}"));
        assert_eq!(acts.len().to_string(), row["plies"], "{where_}");
        assert_eq!(g.turn(), Turn::Terminal, "{where_}: not over");
        let r = g.result().expect("a result at the end");
        assert_eq!(r.reason, row["reason"], "{where_}");
        let score = match r.returns[0].partial_cmp(&r.returns[1]) {
            Some(std::cmp::Ordering::Greater) => "1-0",
            Some(std::cmp::Ordering::Less) => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(score, row["result"], "{where_}");
        let recorded = &tallies[&row["index"]];
        for (name, value) in g.tallies() {
            let want: f64 = recorded[&name].parse().expect("a number");
            assert_eq!(value, want, "{where_}: tally {name}");
        }
    }
    games.len()
}

#[test]
fn recorded_time_balance_games_replay_to_their_results() {
    assert_eq!(replay_run("balance"), 1000);
}

#[test]
fn recorded_time_gauntlet_games_replay_to_their_results() {
    assert_eq!(replay_run("gauntlet"), 160);
}

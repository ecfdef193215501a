//! The Adrenaline and Half Alice games recorded in `results/` replay under today's move
//! generators to the same end: every action is legal when it is played, the game ends
//! after the recorded number of plies, and with the recorded result and reason (games
//! from an action-list opening book replay its actions first). Any
//! change to legality (the shared-reach and king-shield shortcuts of the generators,
//! for one) that the recorded games touch would break a replay.

use engine::game::{replay, Game, Turn};
use engine::variants::adrenaline::{Adrenaline, AdrenalineParams};
use engine::variants::half_alice::{HalfAlice, HalfAliceParams};
use std::path::{Path, PathBuf};

use crate::common;
use common::fields;

/// Every `games.csv` under `dir`.
fn game_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            game_files(&p, out);
        } else if p.file_name().is_some_and(|n| n == "games.csv") {
            out.push(p);
        }
    }
}

/// Replays every recorded game of `variant` from its start; returns how many.
fn replay_all<G: Game>(variant: &str, start: impl Fn(&str) -> G) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results")
        .join(variant);
    let mut files = Vec::new();
    game_files(&root, &mut files);
    let mut games = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable games.csv");
        let mut lines = text.lines();
        let head = fields(lines.next().expect("a header"));
        let col = |name: &str| head.iter().position(|h| h == name).expect(name);
        let (opening, result, reason, plies, actions) = (
            col("opening"),
            col("result"),
            col("reason"),
            col("plies"),
            col("actions"),
        );
        for line in lines {
            let f = fields(line);
            let acts: Vec<&str> = f[actions].split_whitespace().collect();
            let where_ = format!("{} game {}", file.display(), f[0]);
            // An opening from a book of action lists (`actions: ...`, as `chesslab
            // openings` writes them) is played from the start; any other is a position.
            let first = match f[opening].trim().strip_prefix("actions:") {
                Some(list) => {
                    let moves: Vec<&str> = list.split_whitespace().collect();
                    replay(start(""), &moves).unwrap_or_else(|e| panic!("{where_}: opening: {e}"))
                }
                None => start(&f[opening]),
            };
            let g = replay(first, &acts).unwrap_or_else(|e| panic!("{where_}: {e}"));
            assert_eq!(acts.len().to_string(), f[plies], "{where_}");
            assert_eq!(g.turn(), Turn::Terminal, "{where_}: not over");
            let r = g.result().expect("a result at the end");
            assert_eq!(r.reason, f[reason], "{where_}");
            let score = match r.returns[0].partial_cmp(&r.returns[1]) {
                Some(std::cmp::Ordering::Greater) => "1-0",
                Some(std::cmp::Ordering::Less) => "0-1",
                _ => "1/2-1/2",
            };
            assert_eq!(score, f[result], "{where_}");
            games += 1;
        }
    }
    games
}

#[test]
fn recorded_adrenaline_games_replay_to_their_results() {
    let params = AdrenalineParams::default();
    let n = replay_all("adrenaline", |opening| {
        if opening.is_empty() {
            Adrenaline::new(&params)
        } else {
            Adrenaline::from_opening(&params, opening).expect("recorded opening")
        }
    });
    assert!(n >= 1000, "{n} games replayed");
}

#[test]
fn recorded_half_alice_games_replay_to_their_results() {
    let params = HalfAliceParams::default();
    let n = replay_all("half-alice", |opening| {
        if opening.is_empty() {
            HalfAlice::new(&params)
        } else {
            HalfAlice::from_opening(&params, opening).expect("recorded opening")
        }
    });
    assert!(n >= 1000, "{n} games replayed");
}

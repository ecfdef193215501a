//! Today's agents play a kept run's games move for move where the run's players have
//! depth budgets (no clock, so the games are a function of the build and the seed):
//! results/strength/epoch-6/pimc-d2, the depth-budget round robin that shows generation 6
//! plays generation 4's moves (results/strength/README.md, "generation 6"). A change that
//! alters the search's tree at a fixed depth turns this red: that is a new generation of
//! the agents (`agents::EPOCH`), whose rating run then replaces the one named here.

use crate::common;
use common::{chesslab, read, s};
use std::path::Path;

#[test]
fn depth_budget_round_robin_replays_move_for_move() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let kept = root.join("results/strength/epoch-6/pimc-d2");
    let run: serde_json::Value = serde_json::from_str(&read(&kept.join("run.json"))).unwrap();
    assert_eq!(
        run["agents_epoch"].as_u64(),
        Some(u64::from(agents::EPOCH)),
        "the kept run is of another generation of the agents"
    );
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("again");
    let openings = root.join("results/strength/search/openings-chess.txt");
    let o = chesslab(&[
        "tournament",
        "--variant",
        "chess",
        "--agents",
        "alphabeta:depth=1,alphabeta:depth=2,alphabeta:depth=3,pimc:search=alphabeta,depth=2,quiescence=true,worlds=6",
        "--games",
        "40",
        "--openings",
        s(&openings),
        "--seed",
        "3002",
        "--threads",
        "2",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let again = read(&out.join("games.csv"));
    let kept_games = read(&kept.join("games.csv"));
    assert_eq!(again.lines().count(), 241);
    for (i, (a, k)) in again.lines().zip(kept_games.lines()).enumerate() {
        assert_eq!(a, k, "games.csv line {i} differs from the kept run's");
    }
    assert_eq!(again, kept_games);
}

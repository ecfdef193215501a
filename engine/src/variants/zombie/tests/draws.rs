//! The game's end by the common rules: insufficient material (with the graveyard), the
//! ply cap, repetition and the fifty-move rule counted in whole turns.

use super::*;

/// RULES.md (common): insufficient material is K v K and K+minor v K only; two
/// bishops on one colour play on in Zombie Chess (the graveyard empty).
#[test]
fn rule_insufficient_material_is_only_bare_kings_or_one_minor() {
    let g = game("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1");
    assert!(g.grid(Color::White).is_empty() && g.grid(Color::Black).is_empty());
    assert!(g.result().is_none(), "two dark-squared bishops play on");
    assert!(!legal(&g).is_empty());
    let g = game("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert_eq!(g.result().unwrap().reason, "insufficient-material");
    let g = game("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(g.result().unwrap().reason, "insufficient-material");
    let g = game("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    assert!(g.result().is_none(), "two bishops play on");
}

#[test]
fn rule_insufficient_material_needs_empty_graveyard() {
    let g = game("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert_eq!(g.result().unwrap().reason, "insufficient-material");
    let mut g = game("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    g.set_burial(Color::White, sq("b1"), Some(Role::Pawn));
    assert!(g.result().is_none(), "a buried pawn may still return");
}

/// Plays whole turns: a move of the side to move, then `end`.
fn turns(g: &mut Zombie, moves: &[&str]) {
    for m in moves {
        play(g, &[m, "end"]);
    }
}

#[test]
fn rule_ply_cap_counts_whole_turns() {
    let p = ZombieParams {
        ply_cap: 2,
        ..Default::default()
    };
    let mut g = Zombie::new(&p);
    play(&mut g, &["e2e4"]);
    assert!(
        g.result().is_none(),
        "a turn in progress is not a whole turn"
    );
    play(&mut g, &["end", "e7e5"]);
    assert!(g.result().is_none());
    play(&mut g, &["end"]);
    assert_eq!(g.result().map(|r| r.reason), Some("cap"));
    assert_eq!(g.history_len(), 4, "two turns of two actions each");
}

#[test]
fn rule_repetition_compares_positions_at_turn_starts() {
    let mut g = game("4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 1");
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    turns(&mut g, &cycle);
    turns(&mut g, &cycle[..3]);
    assert!(g.result().is_none(), "the start stood twice so far");
    turns(&mut g, &cycle[3..]);
    assert_eq!(g.result().map(|r| r.reason), Some("repetition"));
}

#[test]
fn rule_fifty_moves_count_whole_turns() {
    // The rook walks one square a turn, never to a square it stood on, and never checks
    // (the pawns on g7 and h7 screen the black king, which steps between g8 and h8):
    // no position repeats, so only the 50-move rule can end the game.
    let mut g = game("7k/6pp/8/8/8/8/8/KR6 w - - 0 1");
    let mut path: Vec<String> = Vec::new();
    for (rank, files) in [
        (1, "cdefgh"),
        (2, "hgfedcba"),
        (3, "abcdefgh"),
        (4, "hgfedcba"),
        (5, "abcdefgh"),
        (6, "hgfedcba"),
        (7, "abcd"),
    ] {
        for f in files.chars() {
            path.push(format!("{f}{rank}"));
        }
    }
    let mut rook = "b1".to_string();
    let mut king = "h8";
    for (i, to) in path.iter().enumerate() {
        assert!(g.result().is_none(), "over after {} turns", 2 * i);
        turns(&mut g, &[&format!("{rook}{to}")]);
        rook = to.clone();
        let next = if king == "h8" { "g8" } else { "h8" };
        if i == path.len() - 1 {
            assert!(g.result().is_none(), "99 quiet turns are not enough");
        }
        turns(&mut g, &[&format!("{king}{next}")]);
        king = next;
    }
    assert_eq!(g.history_len(), 200, "100 whole turns");
    assert_eq!(g.result().map(|r| r.reason), Some("fifty-moves"));
}

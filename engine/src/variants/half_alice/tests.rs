//! Half Alice's rule tests (one `rule_*` per rule of docs/RULES.md "Half Alice Chess"),
//! its conformance, perft and the generator's checks against the plain reference.

use super::*;
use crate::game::{conformance, perft};

fn pos(opening: &str) -> HalfAlice {
    HalfAlice::from_opening(&HalfAliceParams::default(), opening).unwrap()
}

fn moves(g: &HalfAlice) -> Vec<String> {
    let mut v: Vec<String> = g.legal_moves().iter().map(|&m| g.board.uci(m)).collect();
    v.sort();
    v
}

#[test]
fn null_move_passes_the_turn_and_undoes() {
    let mut g = crate::game::replay(
        HalfAlice::new(&HalfAliceParams::default()),
        &["e2e4", "d7d5"],
    )
    .unwrap();
    let (key, mirror, before) = (g.state_key(), g.mirror(), moves(&g));
    assert!(g.facts().null_move);
    assert!(g.apply_null());
    assert_eq!(g.turn(), Turn::Seat(1));
    assert_eq!(
        g.mirror(),
        mirror,
        "a pass moves nothing through the mirror"
    );
    assert_ne!(g.state_key(), key);
    assert!(!moves(&g).is_empty(), "Black moves after the pass");
    g.undo_null();
    assert_eq!(g.turn(), Turn::Seat(0));
    assert_eq!(g.state_key(), key);
    assert_eq!(moves(&g), before);
    // In the game's check (the king attacked on its own side) there is no pass.
    let mut checked = pos("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    assert!(checked.in_check());
    assert!(!checked.apply_null());
    assert_eq!(checked.turn(), Turn::Seat(0));
    // A check through the mirror is no check: the pass is offered.
    let mut across = pos("4k3/8/8/8/8/8/8/4K2r w - - 0 1 | h1");
    assert!(!across.in_check());
    assert!(across.apply_null());
    across.undo_null();
    // Nor once the game is over (checkmate on the king's side).
    let mut mated = pos("4k3/8/8/8/8/8/r7/1r2K3 w - - 0 1");
    assert_eq!(mated.turn(), Turn::Terminal);
    assert!(!mated.apply_null());
}

/// `chesslab values` features: the piece differences, then pieces (kings aside) on
/// the mirror side, White minus Black.
#[test]
fn features_count_pieces_on_the_mirror() {
    let board = Board::from_fen("r3k3/pp6/8/8/8/8/PPP5/R3K3 w - - 0 1").unwrap();
    let mirror: Bitboard = ["a1", "b2", "c2", "e1", "a8"]
        .iter()
        .map(|s| Square::parse(s).unwrap())
        .collect();
    let g = HalfAlice::from_parts(board, mirror, HalfAliceParams::default());
    let f = g.features();
    let names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["pawn", "knight", "bishop", "rook", "queen", "on_mirror"]
    );
    let values: Vec<f64> = f.iter().map(|(_, v)| *v).collect();
    // White: a1, b2, c2 (the king on e1 does not count); Black: a8.
    assert_eq!(values, [1.0, 0.0, 0.0, 0.0, 0.0, 2.0]);
}

#[test]
fn half_alice_conforms_to_the_game_api() {
    conformance::check(&HalfAlice::new(&HalfAliceParams::default()), 20, 5);
}

#[test]
fn perft_matches_alice_chess_from_the_start() {
    // Alice Chess counts from an independent implementation (pyffish-alice 0.0.3,
    // Fairy-Stockfish's alice variant), see tests/data/alice_perft.txt.
    let mut g = HalfAlice::new(&HalfAliceParams::default());
    assert_eq!(perft(&mut g, 1), 20);
    assert_eq!(perft(&mut g, 2), 400);
    assert_eq!(perft(&mut g, 3), 9384);
}

#[test]
fn tallies_count_captures_per_side_and_undo_restores_them() {
    let tally = |g: &HalfAlice, name: &str| {
        g.tallies()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
            .unwrap()
    };
    // 1.e4 e5 2.Nf3 Nc6 3.Nxe5: the knight and the e5 pawn share the mirror side.
    let mut g = HalfAlice::new(&HalfAliceParams::default());
    for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f3e5"] {
        let a = g.parse_action(m).unwrap();
        g.apply(a);
    }
    assert_eq!(tally(&g, "captures"), 1.0);
    assert_eq!(tally(&g, "white_captures"), 1.0);
    assert_eq!(tally(&g, "black_captures"), 0.0);
    g.undo();
    assert_eq!(tally(&g, "captures"), 0.0);
    assert_eq!(tally(&g, "white_captures"), 0.0);
}

#[test]
fn material_hook_counts_pieces_on_the_enemy_kings_side() {
    // Same pieces; only the white queen's side differs. Beside the black king (plain
    // side) it presses; beyond the mirror it does not.
    let near = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    let far = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | d1");
    assert_eq!(
        material_balance(&near.board, Color::White),
        material_balance(&far.board, Color::White)
    );
    assert!(near.material(0) > far.material(0));
    assert!((near.material(0) - far.material(0) - MIRROR_PRESSURE[4]).abs() < 1e-9);
    // White is a pawn up, but all its pieces stand beyond the mirror from the black
    // king while black's army stands beside the white king: the sign turns.
    let g = pos("rnbqk2r/p7/8/8/8/8/PP6/RNBQK2R w - - 0 1 | a2 b2 a1 b1 c1 d1 h1");
    assert_eq!(material_balance(&g.board, Color::White), 1.0);
    assert!(g.material(0) < 0.0, "{}", g.material(0));
    assert_eq!(g.material(1), -g.material(0));
}

#[test]
fn rule_only_same_side_pieces_block() {
    // The rook on a1 slides through the pawn on a2 (other side: mirror) on its side.
    let g = pos("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1 | a2");
    assert!(moves(&g).contains(&"a1a5".to_string()));
    // ... but not onto a square held by a piece of the other side.
    assert!(!moves(&g).contains(&"a1a2".to_string()));
}

#[test]
fn rule_captures_only_on_the_same_side() {
    let g = pos("4k3/8/8/8/r7/8/8/R3K3 w - - 0 1 | a4");
    assert!(!moves(&g).contains(&"a1a4".to_string()));
    let g = pos("4k3/8/8/8/r7/8/8/R3K3 w - - 0 1");
    assert!(moves(&g).contains(&"a1a4".to_string()));
}

#[test]
fn rule_other_side_square_is_never_a_destination() {
    let g = pos("4k3/8/8/8/8/8/8/R2nK3 w - - 0 1 | d1");
    assert!(!moves(&g).contains(&"a1d1".to_string()));
    assert!(moves(&g).contains(&"a1c1".to_string()));
}

#[test]
fn rule_moved_piece_switches_side() {
    let mut g = HalfAlice::new(&HalfAliceParams::default());
    let m = g.parse_action("e2e4").unwrap();
    g.apply(m);
    assert!(g.mirror().contains(Square::parse("e4").unwrap()));
    let m = g.parse_action("e7e5").unwrap();
    g.apply(m);
    // Both pawns are on the mirror side now: they block each other.
    assert!(g.mirror().contains(Square::parse("e5").unwrap()));
    let m = g.parse_action("g1f3").unwrap();
    g.apply(m);
    let m = g.parse_action("b8c6").unwrap();
    g.apply(m);
    // The knight on f3 and the pawn on e5 are both on the mirror side: it may take.
    assert!(g.mirror().contains(Square::parse("f3").unwrap()));
    assert!(moves(&g).contains(&"f3e5".to_string()));
    // The e4 pawn may not advance onto e5, which is occupied (on its own side too).
    assert!(!moves(&g).contains(&"e4e5".to_string()));
}

#[test]
fn rule_castling_switches_king_and_rook() {
    let mut g = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let m = g.parse_action("e1g1").unwrap();
    g.apply(m);
    assert!(g.mirror().contains(Square::G1) && g.mirror().contains(Square::F1));
    assert_eq!(g.mirror().count(), 2);
}

#[test]
fn rule_castling_needs_king_and_rook_on_one_side() {
    let g = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1 | h1");
    assert!(!moves(&g).contains(&"e1g1".to_string()));
}

#[test]
fn rule_seed_king_example_only_one_move() {
    // Seed: the king may not go to a8 (still in check before switching) nor to b7
    // (in check after switching); a7 is the only legal move. The white rook on b1
    // stands on the mirror side, queen and knight on the plain side.
    let g = pos("1k5Q/8/4N3/8/8/8/8/1R5K b - - 0 1 | b1");
    assert_eq!(moves(&g), vec!["b8a7".to_string()]);
}

#[test]
fn rule_no_escaping_check_by_switching() {
    // Rook gives check on the plain side; stepping to a square the rook also sees
    // would be safe after switching, but not before: illegal.
    let g = pos("4k3/8/8/8/8/8/8/K3R3 b - - 0 1");
    assert!(!moves(&g).contains(&"e8e7".to_string()));
    assert!(moves(&g).contains(&"e8d7".to_string()));
}

#[test]
fn rule_king_must_be_safe_after_switching() {
    // A white rook on the mirror side covers d8 there: arriving on d8 (mirror side
    // after the switch) is illegal, though d8 is safe before the switch.
    let g = pos("4k3/8/8/8/8/8/8/K2R4 b - - 0 1 | d1");
    assert!(!moves(&g).contains(&"e8d8".to_string()));
    assert!(moves(&g).contains(&"e8f7".to_string()));
}

#[test]
fn rule_check_may_be_blocked_through_the_mirror() {
    // After 1.d3 c6 2.Kd2 Qa5+ the white king (mirror side) is checked on the mirror
    // side. Pieces on the plain side block by arriving on c3 or b4 through the mirror
    // (pyffish-alice agrees: four legal moves).
    let mut g = HalfAlice::new(&HalfAliceParams::default());
    for m in ["d2d3", "c7c6", "e1d2", "d8a5"] {
        let a = g.parse_action(m).unwrap();
        g.apply(a);
    }
    assert!(g.in_check());
    assert_eq!(moves(&g), vec!["b1c3", "b2b4", "c2c3", "d2e3"]);
}

#[test]
fn rule_double_step_crossed_square_empty_on_own_side() {
    // A piece on e3 on the other side does not stop e2e4.
    let g = pos("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1 | e3");
    assert!(moves(&g).contains(&"e2e4".to_string()));
    let g = pos("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    assert!(!moves(&g).contains(&"e2e4".to_string()));
}

#[test]
fn rule_en_passant_only_on_the_same_side() {
    // Black pawn d7 double-steps and switches to the mirror side. The e5 pawn on the
    // mirror side may take en passant; on the plain side it may not.
    let mut g = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 | e5");
    let m = g.parse_action("d7d5").unwrap();
    g.apply(m);
    assert!(moves(&g).contains(&"e5d6".to_string()));
    let mut g = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    let m = g.parse_action("d7d5").unwrap();
    g.apply(m);
    assert!(!moves(&g).contains(&"e5d6".to_string()));
}

#[test]
fn rule_checkmate_and_stalemate_under_this_legality() {
    // The a1 rook checks on the plain side (a7 is attacked before the switch); the
    // b1 rook on the mirror side covers b7 and b8 after the switch: mate.
    let g = pos("k7/8/8/8/8/8/8/RR5K b - - 0 1 | b1");
    assert_eq!(g.result().map(|r| r.reason), Some("checkmate"));
    assert_eq!(g.returns()[0], 1.0);
    // Not in check; a7 attacked before the switch, b7/b8 after it: stalemate.
    let g = pos("k7/8/8/8/8/4B3/8/1R5K b - - 0 1 | b1");
    assert_eq!(g.result().map(|r| r.reason), Some("stalemate"));
}

#[test]
fn rule_castling_from_the_plain_side_needs_two_free_checkers() {
    // Issue 11: twelve checkers, eleven under White's pieces (a3, the pawns, b1, c1):
    // one free checker lets the king step, but castling needs two.
    let params = HalfAliceParams {
        checkers_per_side: 12,
        ..Default::default()
    };
    let fen = "4k3/8/8/8/8/N7/PPPPPPPP/RNB1K2R w K - 0 1";
    let eleven = "a3 a2 b2 c2 d2 e2 f2 g2 h2 b1 c1";
    let g = HalfAlice::from_opening(&params, &format!("{fen} | {eleven}")).unwrap();
    let ms = moves(&g);
    assert!(ms.contains(&"e1f1".to_string()), "{ms:?}");
    assert!(!ms.contains(&"e1g1".to_string()), "{ms:?}");
    // Ten in use (c1 off the mirror): two free, castling is legal.
    let ten = "a3 a2 b2 c2 d2 e2 f2 g2 h2 b1";
    let g = HalfAlice::from_opening(&params, &format!("{fen} | {ten}")).unwrap();
    assert!(moves(&g).contains(&"e1g1".to_string()));
    // King and rook on the mirror side castle back to the plain side with no
    // checker free.
    let params = HalfAliceParams {
        checkers_per_side: 2,
        ..Default::default()
    };
    let g = HalfAlice::from_opening(&params, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 | e1 h1").unwrap();
    assert!(moves(&g).contains(&"e1g1".to_string()));
}

#[test]
fn rule_twelve_checkers_limit_plain_side_moves() {
    let params = HalfAliceParams {
        checkers_per_side: 1,
        ..Default::default()
    };
    let g = HalfAlice::from_opening(&params, "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1 | a2").unwrap();
    // White's only checker is under the a2 pawn: only that pawn may move.
    let ms = moves(&g);
    assert!(
        !ms.is_empty() && ms.iter().all(|m| m.starts_with("a2")),
        "{ms:?}"
    );
}

/// The cached status answers as a fresh computation does (see
/// `variants::testing::check_cached_status`).
#[test]
fn cached_status_matches_a_fresh_computation_in_random_play() {
    crate::variants::testing::check_cached_status(
        || HalfAlice::new(&HalfAliceParams::default()),
        |g| {
            g.status();
        },
        |g| g.stale(),
    );
}

/// The generator that skips the tests for moves played away from an unchecked king
/// gives the same moves, in the same order, as testing every move, in seeded random
/// play (both checker counts, so the plain-side limit is exercised too).
#[test]
fn generator_matches_the_plain_reference_in_random_play() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2019);
    let mut positions = 0;
    let mut checked = 0;
    for game in 0..40 {
        let params = HalfAliceParams {
            checkers_per_side: if game % 4 == 3 { 12 } else { 16 },
            ..Default::default()
        };
        let mut g = HalfAlice::new(&params);
        while let Turn::Seat(_) = g.turn() {
            let (fast, mut reference) = (g.legal_moves(), MoveList::new());
            g.generate_reference(&mut reference);
            assert_eq!(
                fast.as_slice(),
                reference.as_slice(),
                "{}",
                g.observation(0)
            );
            positions += 1;
            checked += g.in_check() as usize;
            g.apply(fast[rng.gen_range(0..fast.len())]);
        }
    }
    assert!(positions > 2000 && checked > 20, "{positions} {checked}");
}

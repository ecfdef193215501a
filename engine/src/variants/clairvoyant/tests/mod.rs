//! Tests of Clairvoyant Chess: one `rule_*` test per rule of RULES.md's section and per
//! seed example, bad input, and seeded random games replayed from their records.
use super::*;
use crate::game::{conformance, replay};
use crate::registry;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::HashMap;

fn params(white: u32, black: u32) -> ClairvoyantParams {
    ClairvoyantParams {
        white_balance: white,
        black_balance: black,
        ..Default::default()
    }
}

fn game(fen: Option<&str>, p: &ClairvoyantParams) -> Clairvoyant {
    match fen {
        Some(f) => Clairvoyant::from_opening(p, f).unwrap(),
        None => Clairvoyant::new(p),
    }
}

/// Plays actions in notation, failing with the error if one is refused.
fn play(g: &mut Clairvoyant, actions: &[&str]) {
    for a in actions {
        match g.parse_action(a) {
            Ok(act) => g.apply(act),
            Err(e) => panic!("'{a}' refused in {:?}: {e}", g.phase()),
        }
    }
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn refused(g: &Clairvoyant, a: &str) -> String {
    match g.parse_action(a) {
        Ok(x) => panic!("'{a}' accepted as {x:?} in {:?}", g.phase()),
        Err(e) => e.to_string(),
    }
}

fn legal(g: &Clairvoyant) -> Vec<String> {
    let mut v = Vec::new();
    if let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut v);
    }
    v.into_iter().map(|a| g.action_notation(a)).collect()
}

#[test]
fn conformance_open_and_blind() {
    conformance::check(&Clairvoyant::new(&params(0, 0)), 2, 5);
    conformance::check(&Clairvoyant::new(&params(60, 60)), 2, 7);
    let blind = ClairvoyantParams {
        mode: "blind".into(),
        white_balance: 40,
        black_balance: 40,
        ..Default::default()
    };
    conformance::check(&Clairvoyant::new(&blind), 2, 6);
}

#[test]
fn rule_guess_sheet_up_to_three() {
    let mut g = game(None, &params(0, 0));
    assert_eq!(
        g.turn(),
        Turn::Seat(1),
        "Black guesses before White's first move"
    );
    play(&mut g, &["guess:e2", "guess:e2e4"]);
    assert_eq!(g.phase(), Phase::Guess, "a third guess is still allowed");
    play(&mut g, &["guess:g1"]);
    assert_eq!(g.phase(), Phase::Start, "three guesses close the sheet");
    assert_eq!(g.turn(), Turn::Seat(0));
    // A sheet may also be ended early, or left empty.
    let mut g = game(None, &params(0, 0));
    play(&mut g, &["pass"]);
    assert_eq!(g.phase(), Phase::Start);
}

#[test]
fn rule_fourth_guess_refused() {
    let mut g = game(None, &params(0, 0));
    play(&mut g, &["guess:e2", "guess:d2", "guess:g1"]);
    let e = refused(&g, "guess:b1");
    assert!(e.contains("at most 3"), "{e}");
}

#[test]
fn rule_guess_scoring_seed_values() {
    // Pawn: 4 for the piece, 5 with its destination; knight 7 / 11; guesses are scored
    // independently, duplicates too.
    let mut g = game(None, &params(0, 0));
    play(&mut g, &["guess:e2", "guess:e2e4", "guess:e2e4", "e2e4"]);
    assert_eq!(g.balance(Color::Black), 4 + 5 + 5);
    // Black (14Z) is asked whether to buy a move after its free move.
    play(
        &mut g,
        &["guess:g8", "guess:g8f6", "guess:g8h6", "g8f6", "pass"],
    );
    assert_eq!(g.balance(Color::White), 7 + 11);
    // A destination guess with the right piece but the wrong square earns nothing.
    // Black (14Z) may now retract: White's retraction guess, the retraction step and
    // White's bought-move step are all asked.
    play(
        &mut g,
        &[
            "guess:d2d4",
            "guess:b1",
            "pass",
            "pass",
            "d2d3",
            "pass",
            "pass",
        ],
    );
    assert_eq!(g.balance(Color::Black), 14);
}

#[test]
fn rule_castling_destination_earns_plain_king_value() {
    let mut g = game(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), &params(0, 0));
    play(&mut g, &["guess:e1g1", "guess:e1", "guess:h1", "e1g1"]);
    // Castling is a king move (12), its destination earns nothing extra (12, not 18);
    // the rook's square names no moving piece.
    assert_eq!(g.balance(Color::Black), 12 + 12);
}

#[test]
fn rule_buy_guesses_score() {
    let mut g = game(None, &params(30, 0));
    play(
        &mut g,
        &[
            "guess:buy:N",
            "guess:buy:N@e4",
            "guess:extra",
            "N@e4",
            "pass",
        ],
    );
    assert_eq!(g.balance(Color::Black), 15 + 20, "no extra move was bought");
    assert_eq!(g.balance(Color::White), 30 - 12);
    let mut g = game(None, &params(30, 0));
    play(
        &mut g,
        &["guess:extra", "guess:buy:B", "pass", "e2e4", "buy:g1f3"],
    );
    assert_eq!(g.balance(Color::Black), 20);
    assert_eq!(g.balance(Color::White), 30 - 7);
}

#[test]
fn rule_flat_twelve() {
    // White is in check with exactly one legal move (the bishop interposes).
    let mut g = game(Some("4k3/8/8/8/8/8/3PBP2/r3K3 w - - 0 1"), &params(0, 0));
    assert_eq!(g.phase(), Phase::Start, "no guessing is allowed");
    assert!(refused(&g, "guess:e2").contains("guess"));
    play(&mut g, &["e2d1"]);
    assert_eq!(g.balance(Color::Black), 12);
}

#[test]
fn rule_retraction_guess_pays_once() {
    let mut g = game(None, &params(0, 100));
    play(&mut g, &["pass", "guess:retract", "e2e4"]);
    assert_eq!(g.phase(), Phase::Retract);
    assert_eq!(g.retraction_price(), Some(10));
    play(&mut g, &["retract", "d2d4", "retract"]);
    let e = refused(&g, "e2e4");
    assert!(e.contains("not a legal free move"), "{e}");
    play(&mut g, &["g1f3", "pass"]);
    assert_eq!(g.balance(Color::Black), 80, "two retractions of 10");
    assert_eq!(
        g.balance(Color::White),
        20,
        "the retraction guess pays 20 once"
    );
    assert_eq!(
        g.board_ref().piece_at(sq("f3")).map(|p| p.role),
        Some(Role::Knight)
    );
}

#[test]
fn rule_retraction_repeats() {
    let mut g = game(None, &params(0, 25));
    play(
        &mut g,
        &["pass", "pass", "e2e4", "retract", "d2d4", "retract", "c2c4"],
    );
    // 5 Zorkmids left: no third retraction, so no retraction step.
    assert_eq!(g.balance(Color::Black), 5);
    assert_eq!(g.mover(), Color::Black, "the third free move stood");
}

#[test]
fn rule_retraction_prices() {
    let mut g = game(Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &params(0, 100));
    play(&mut g, &["pass", "pass", "a1a8"]);
    assert_eq!(g.retraction_price(), Some(15), "a checking move");
    let mut g = game(Some("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"), &params(0, 100));
    play(&mut g, &["pass", "pass", "e1e2"]);
    assert_eq!(
        g.retraction_price(),
        Some(25),
        "a check escape with others left"
    );
    let mut g = game(None, &params(0, 100));
    play(&mut g, &["pass", "pass", "g1f3"]);
    assert_eq!(g.retraction_price(), Some(10));
}

#[test]
fn rule_no_retraction_of_the_only_escape() {
    let mut g = game(Some("4k3/8/8/8/8/8/3PBP2/r3K3 w - - 0 1"), &params(0, 100));
    play(&mut g, &["pass", "e2d1"]);
    assert_eq!(g.phase(), Phase::Retract);
    let e = refused(&g, "retract");
    assert!(e.contains("only escape"), "{e}");
    assert_eq!(legal(&g), vec!["pass"]);
}

#[test]
fn rule_no_retraction_without_alternative() {
    let mut g = game(Some("k7/8/8/p7/8/P7/5q2/7K w - - 0 1"), &params(0, 100));
    play(&mut g, &["pass", "pass", "a3a4"]);
    let e = refused(&g, "retract");
    assert!(e.contains("no other move"), "{e}");
}

#[test]
fn rule_drops_replace_the_free_move() {
    let mut g = game(None, &params(30, 0));
    play(&mut g, &["pass", "N@e4"]);
    assert_eq!(g.phase(), Phase::Drops);
    let mut acts = Vec::new();
    g.legal_actions(0, &mut acts);
    assert!(!acts.iter().any(|a| matches!(a, ClairAction::Move(_))));
    assert!(acts.contains(&ClairAction::Pass));
    play(&mut g, &["P@a3", "pass"]);
    assert_eq!(g.mover(), Color::Black);
    assert_eq!(g.balance(Color::White), 30 - 12 - 3);
}

#[test]
fn rule_moves_after_drops() {
    // Two bought moves after drops (any pieces), never a third.
    let mut g = game(None, &params(50, 0));
    play(&mut g, &["pass", "N@e4", "buy:e2e3", "buy:g1f3"]);
    assert_eq!(
        g.mover(),
        Color::Black,
        "the turn ends after the second bought move"
    );
    assert_eq!(g.balance(Color::White), 50 - 12 - 3 - 7);
}

#[test]
fn rule_seed_example_drop_then_move_it() {
    // "buy and drop a piece and then buy one or two moves for it in the same turn".
    let mut g = game(None, &params(50, 0));
    play(&mut g, &["pass", "N@e4", "buy:e4g5", "buy:g5h3"]);
    assert_eq!(g.balance(Color::White), 50 - 12 - 7 - 7);
    assert_eq!(
        g.board_ref().piece_at(sq("h3")).map(|p| p.role),
        Some(Role::Knight)
    );
}

#[test]
fn rule_one_bought_move_after_the_free_move() {
    let mut g = game(None, &params(50, 0));
    play(&mut g, &["pass", "e2e4", "buy:g1f3"]);
    assert_eq!(g.mover(), Color::Black);
    // Without Zorkmids there is no bought-move step at all.
    let mut g = game(None, &params(0, 0));
    play(&mut g, &["pass", "e2e4"]);
    assert_eq!(g.mover(), Color::Black);
}

#[test]
fn rule_costs_follow_the_table() {
    let fen = "4k3/2p5/4p3/8/3N4/8/8/4K3 w - - 0 1";
    // Capture, then a second capture by the same knight: 23.
    let mut g = game(Some(fen), &params(100, 0));
    play(&mut g, &["pass", "d4e6", "buy:e6c7"]);
    assert_eq!(g.balance(Color::White), 100 - 23);
    // Capture, then a non-capturing move by the same knight: 18 (the seed's retreat).
    let mut g = game(Some(fen), &params(100, 0));
    play(&mut g, &["pass", "d4e6", "buy:e6g5"]);
    assert_eq!(g.balance(Color::White), 100 - 18);
    // A king move, then an extra non-capturing knight move: 7; capturing: 15.
    let mut g = game(Some(fen), &params(100, 0));
    play(&mut g, &["pass", "e1d1", "buy:d4b5"]);
    assert_eq!(g.balance(Color::White), 100 - 7);
    let mut g = game(Some(fen), &params(100, 0));
    play(&mut g, &["pass", "e1d1", "buy:d4e6"]);
    assert_eq!(g.balance(Color::White), 100 - 15);
}

#[test]
fn rule_seed_example_capture_then_retreat() {
    // "you can capture with the first move of a piece and then buy a second,
    // non-capturing move to retreat".
    let mut g = game(Some("4k3/8/4p3/8/3N4/8/8/4K3 w - - 0 1"), &params(18, 0));
    play(&mut g, &["pass", "d4e6", "buy:e6d4"]);
    assert_eq!(g.balance(Color::White), 0);
    assert!(g.board_ref().piece_at(sq("e6")).is_none());
}

#[test]
fn rule_king_extra_move_costs() {
    // 3: not in check.
    let mut g = game(Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), &params(20, 0));
    play(&mut g, &["pass", "e2e3", "buy:e1d1"]);
    assert_eq!(g.balance(Color::White), 17);
    // 7: in check at the start of the turn.
    let mut g = game(Some("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"), &params(20, 0));
    play(&mut g, &["pass", "e1e2", "buy:e2e3"]);
    assert_eq!(g.balance(Color::White), 13);
    // 11: another piece's first move left the king in check.
    let mut g = game(Some("4k3/8/8/8/8/8/8/r2BK3 w - - 0 1"), &params(20, 0));
    play(&mut g, &["pass", "d1e2", "buy:e1f2"]);
    assert_eq!(g.balance(Color::White), 9);
}

#[test]
fn rule_king_after_capture_costs() {
    let mut g = game(Some("4k3/8/8/8/8/8/4p3/4K3 w - - 0 1"), &params(30, 0));
    play(&mut g, &["pass", "e1e2", "buy:e2e3"]);
    assert_eq!(
        g.balance(Color::White),
        30 - 18,
        "the capture was not into check"
    );
    let mut g = game(Some("4k3/8/8/8/8/8/r3p3/4K3 w - - 0 1"), &params(30, 0));
    play(&mut g, &["pass", "e1e2", "buy:e2e3"]);
    assert_eq!(
        g.balance(Color::White),
        30 - 25,
        "the capture went into check"
    );
}

#[test]
fn rule_checking_piece_may_not_move_again() {
    let mut g = game(Some("4k3/8/8/8/4N3/8/8/R3K3 w - - 0 1"), &params(50, 0));
    play(&mut g, &["pass", "a1a8"]);
    let e = refused(&g, "buy:a8b8");
    assert!(e.contains("not an affordable bought move"), "{e}");
    // A second checking move by another piece (a double check) is allowed.
    play(&mut g, &["buy:e4f6"]);
    assert_eq!(g.balance(Color::White), 43);
    assert!(purchases::in_check(g.board_ref(), Color::Black));
}

#[test]
fn rule_first_move_may_leave_check() {
    let fen = "4k3/8/8/8/8/8/8/r2BK3 w - - 0 1";
    let mut g = game(Some(fen), &params(11, 0));
    play(&mut g, &["pass", "d1e2"]);
    assert_eq!(g.phase(), Phase::Extra);
    let e = refused(&g, "pass");
    assert!(e.contains("king in check"), "{e}");
    play(&mut g, &["buy:e2d1"]);
    assert_eq!(g.balance(Color::White), 4);
    // Without the Zorkmids to repair it, the move is not offered.
    let g = game(Some(fen), &params(0, 0));
    let mut g = g;
    play(&mut g, &["pass"]);
    assert!(refused(&g, "d1e2").contains("not a legal free move"));
}

#[test]
fn rule_drop_may_not_check() {
    let mut g = game(Some("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1"), &params(100, 0));
    play(&mut g, &["pass"]);
    let e = refused(&g, "Q@e4");
    assert!(e.contains("may not give check"), "{e}");
    assert!(refused(&g, "N@f6").contains("may not give check"));
    play(&mut g, &["N@e4"]);
}

#[test]
fn rule_pawn_drop_not_on_back_ranks() {
    let mut g = game(Some("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1"), &params(100, 0));
    play(&mut g, &["pass"]);
    assert!(refused(&g, "P@a1").contains("first or last rank"));
    assert!(refused(&g, "P@h8").contains("first or last rank"));
    play(&mut g, &["P@b2"]);
}

#[test]
fn rule_unaffordable_purchase_refused() {
    let mut g = game(None, &params(10, 0));
    play(&mut g, &["pass"]);
    let e = refused(&g, "N@e4");
    assert!(e.contains("cannot afford") && e.contains("12Z"), "{e}");
    play(&mut g, &["P@e4"]);
    // In blind mode the retraction and bought-move steps are asked of players who
    // cannot pay, so those purchases are refused with the price and the balance.
    let mut p = params(0, 0);
    p.mode = "blind".into();
    let mut g = game(None, &p);
    play(&mut g, &["pass", "pass", "e2e4"]);
    let e = refused(&g, "retract");
    assert!(
        e.contains("cannot afford the retraction") && e.contains("10Z"),
        "{e}"
    );
    play(&mut g, &["pass"]);
    assert_eq!(g.phase(), Phase::Extra);
    let e = refused(&g, "buy:d2d4");
    assert!(
        e.contains("not an affordable bought move") && e.contains("0Z"),
        "{e}"
    );
    assert_eq!(legal(&g), vec!["pass"]);
}

#[test]
fn rule_second_king_may_enter_check() {
    let mut g = game(Some("r3k3/8/8/8/8/8/8/4K3 w - - 0 1"), &params(150, 0));
    play(&mut g, &["pass", "K@h4", "pass"]);
    assert_eq!(g.board_ref().pieces(Color::White, Role::King).count(), 2);
    play(&mut g, &["pass", "a8d8"]);
    // Either king may enter check while both stand.
    play(&mut g, &["pass", "e1d1"]);
    assert!(g.board_ref().is_attacked(Square::D1, Color::Black));
}

#[test]
fn rule_second_king_capture_is_ordinary() {
    let mut g = game(Some("r3k3/8/8/8/8/8/8/4K3 w - - 0 1"), &params(150, 0));
    play(
        &mut g,
        &["pass", "K@h4", "pass", "pass", "a8d8", "pass", "e1d1"],
    );
    play(&mut g, &["pass", "d8d1"]);
    assert_eq!(g.board_ref().pieces(Color::White, Role::King).count(), 1);
    assert_eq!(
        purchases::royal_king(g.board_ref(), Color::White),
        Some(sq("h4"))
    );
    assert!(g.result().is_none());
}

#[test]
fn rule_drop_can_block_mate() {
    let fen = "4k3/8/8/8/8/8/5PPP/r5K1 w - - 0 1";
    let g = game(Some(fen), &params(0, 0));
    assert_eq!(g.result().map(|r| r.reason), Some("checkmate"));
    let mut g = game(Some(fen), &params(12, 0));
    assert!(g.result().is_none(), "a bought piece can interpose");
    play(&mut g, &["pass"]);
    let l = legal(&g);
    assert!(l.contains(&"N@d1".to_string()) && !l.contains(&"N@d4".to_string()));
    play(&mut g, &["B@d1", "pass"]);
    assert_eq!(g.mover(), Color::Black);
}

#[test]
fn rule_draws_count_turns() {
    let p = ClairvoyantParams {
        ply_cap: 2,
        ..Default::default()
    };
    let mut g = game(None, &p);
    play(&mut g, &["pass", "e2e4", "pass", "e7e5"]);
    assert_eq!(g.result().map(|r| r.reason), Some("cap"));
    // Repetition at turn starts (knights out and back twice).
    let mut g = game(None, &params(0, 0));
    for _ in 0..2 {
        play(
            &mut g,
            &[
                "pass", "g1f3", "pass", "g8f6", "pass", "f3g1", "pass", "f6g8",
            ],
        );
    }
    assert_eq!(g.result().map(|r| r.reason), Some("repetition"));
}

#[test]
fn rule_guess_offers_follow_the_position() {
    let g = game(None, &params(0, 0));
    let l = legal(&g);
    assert!(l.contains(&"guess:g1f3".into()) && l.contains(&"guess:e2e4".into()));
    assert!(!l.contains(&"guess:e2e5".into()));
    assert!(
        !l.iter().any(|a| a.starts_with("guess:buy")),
        "White cannot buy"
    );
    assert!(!l.contains(&"guess:extra".into()));
    let g = game(None, &params(12, 0));
    let l = legal(&g);
    assert!(l.contains(&"guess:buy:N@e4".into()) && l.contains(&"guess:buy:N".into()));
    assert!(!l.contains(&"guess:buy:Q".into()), "a queen costs 25");
    assert!(!l.contains(&"guess:buy:P@a1".into()));
    let blind = ClairvoyantParams {
        mode: "blind".into(),
        ..Default::default()
    };
    let l = legal(&game(None, &blind));
    assert!(l.contains(&"guess:buy:Q".into()) && l.contains(&"guess:extra".into()));
}

#[test]
fn rule_en_passant_only_for_the_first_move() {
    let fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1";
    let mut g = game(Some(fen), &params(0, 0));
    play(&mut g, &["pass", "e2e4", "pass"]);
    assert!(legal(&g).contains(&"d4e3".to_string()));
}

#[test]
fn rule_params_from_toml() {
    struct P;
    impl registry::VariantVisitor for P {
        type Output = String;
        fn visit<G: Game>(self, _: &'static str, params: G::Params) -> String {
            format!("{params:?}")
        }
    }
    let p = registry::visit(
        "clairvoyant",
        Some("mode = \"blind\"\n[costs.drop]\nqueen = 30\n[values.move]\nknight = 8"),
        P,
    )
    .unwrap();
    assert!(p.contains("queen: 30") && p.contains("knight: 8") && p.contains("blind"));
    for bad in [
        "mode = \"fog\"",
        "bought_after_drops = 3",
        "[costs]\nretraction = 0",
        "[costs.drop]\nnope = 1",
    ] {
        assert!(
            registry::visit("clairvoyant", Some(bad), P).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn bad_input_is_refused_with_clear_errors() {
    let mut g = game(None, &params(0, 0));
    for (text, part) in [
        ("guess:z9", "a guess is"),
        ("Q@z9", "a drop is like"),
        ("retract", "no free move to retract"),
        ("buy:e2e4", "no bought move"),
    ] {
        let e = refused(&g, text);
        assert!(e.contains(part), "{text}: {e}");
    }
    play(&mut g, &["pass"]);
    assert!(refused(&g, "e2e5").contains("not a legal free move"));
    assert!(refused(&g, "N@e4").contains("cannot afford"));
}

/// `chesslab values` features: the piece differences, then White's Zorkmids minus
/// Black's.
#[test]
fn features_add_the_zorkmid_balance() {
    let g = game(Some("4k3/pp6/8/8/8/8/P7/R3K3 w - - 0 1"), &params(30, 12));
    let f = g.features();
    let names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["pawn", "knight", "bishop", "rook", "queen", "zorkmids"]
    );
    let values: Vec<f64> = f.iter().map(|(_, v)| *v).collect();
    assert_eq!(values, [-1.0, 0.0, 0.0, 1.0, 0.0, 18.0]);
}

#[test]
fn rule_drop_guess_names_squares_a_blocking_drop_opens() {
    // Black's king on an open e-file: R@e4 alone would give check, but P@e6 first blocks
    // the file, and 3 + 15 fit White's 28Z, so the guesser may name R@e4 (and Q@e4:
    // 3 + 25 = 28). R@e7 has no square between it and the king to block; a knight on d6
    // checks whatever is dropped first.
    let fen = "4k3/7p/8/8/8/8/7P/K7 w - - 0 1";
    let g = game(Some(fen), &params(28, 0));
    assert_eq!(g.phase(), Phase::Guess);
    let l = legal(&g);
    for yes in [
        "guess:buy:R@e4",
        "guess:buy:Q@e4",
        "guess:buy:P@e6",
        "guess:buy:R",
    ] {
        assert!(l.contains(&yes.to_string()), "{yes} missing");
    }
    for no in ["guess:buy:R@e7", "guess:buy:N@d6", "guess:buy:Q@e7"] {
        assert!(!l.contains(&no.to_string()), "{no} offered");
    }
    // 27Z: the rook still fits behind a pawn, the queen no longer does.
    let l = legal(&game(Some(fen), &params(27, 0)));
    assert!(l.contains(&"guess:buy:R@e4".to_string()));
    assert!(!l.contains(&"guess:buy:Q@e4".to_string()));
    // The guess is playable and scores the seed's 25.
    let mut g = game(Some(fen), &params(28, 0));
    play(&mut g, &["guess:buy:R@e4", "pass", "P@e6", "R@e4", "pass"]);
    assert_eq!(g.balance(Color::Black), 25);
    assert_eq!(g.balance(Color::White), 28 - 3 - 15);
}

#[test]
fn rule_drop_offered_when_a_later_drop_can_end_the_check() {
    // White's Ka2 is in check from Qd2; a1, b1, b2 and b3 are covered. With 13Z White may
    // drop P@a3 (which does nothing against the check) because P@b2 then blocks it.
    let fen = "1r5b/8/7k/8/8/8/K2q4/8 w - - 0 1";
    let mut g = game(Some(fen), &params(13, 0));
    assert_eq!(
        g.phase(),
        Phase::Start,
        "the flat 12: a2a3 is the only move"
    );
    let l = legal(&g);
    assert!(l.contains(&"P@a3".to_string()) && l.contains(&"P@b2".to_string()));
    play(&mut g, &["P@a3"]);
    assert_eq!(g.phase(), Phase::Drops);
    assert!(refused(&g, "pass").contains("king in check"));
    play(&mut g, &["P@b2", "pass"]);
    assert_eq!(g.mover(), Color::Black);
    assert_eq!(g.balance(Color::White), 13 - 6);
    // With 5Z no second pawn fits after P@a3, so it is not offered; the block still is.
    let g = game(Some(fen), &params(5, 0));
    let l = legal(&g);
    assert!(!l.contains(&"P@a3".to_string()) && l.contains(&"P@b2".to_string()));
}

#[test]
fn rule_bought_move_after_drops_never_takes_en_passant() {
    // Black's last move was d7d5: White's free move may take en passant, a move bought
    // after drops may not (the drops replaced the move that answers the double step).
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    let mut g = game(Some(fen), &params(20, 0));
    play(&mut g, &["pass"]);
    assert!(legal(&g).contains(&"e5d6".to_string()));
    play(&mut g, &["P@a3"]);
    let l = legal(&g);
    assert!(l.contains(&"buy:e5e6".to_string()));
    assert!(!l.contains(&"buy:e5d6".to_string()), "{l:?}");
    assert!(refused(&g, "buy:e5d6").contains("not an affordable bought move"));
}

#[test]
fn rule_insufficient_material_is_only_bare_kings_or_one_minor() {
    // The draw applies whatever the balances (RULES.md): K v K and K+minor v K end at
    // once; two minors, same-coloured bishops included, play on.
    let draw = |fen: &str| {
        game(Some(fen), &params(100, 100))
            .result()
            .map(|r| r.reason)
    };
    assert_eq!(
        draw("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        Some("insufficient-material")
    );
    assert_eq!(
        draw("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"),
        Some("insufficient-material")
    );
    assert_eq!(
        draw("4kn2/8/8/8/8/8/8/4K3 w - - 0 1"),
        Some("insufficient-material")
    );
    for fen in [
        "4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1",
        "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    ] {
        assert_eq!(draw(fen), None, "{fen}");
    }
}

mod random_play;
mod replay;

#[test]
fn rule_a_second_king_next_to_the_royal_king_gives_check() {
    // Black buys a second king (K@g3), so either black king may enter check; the one that
    // steps to g2 stands next to White's only king and gives check. The orthodox
    // generator counts no king as a checker; White must still escape (Kxg2 is an ordinary
    // capture while Black has two kings), and with no Zorkmids a pawn move that leaves
    // the check is not a turn.
    let mut g = game(Some("k7/8/8/8/8/8/P7/5K2 b - - 0 1"), &params(0, 150));
    play(&mut g, &["pass", "K@g3", "pass", "pass", "a2a3"]);
    while g.mover() == Color::White {
        play(&mut g, &["pass"]);
    }
    play(&mut g, &["pass", "g3g2"]);
    while g.mover() == Color::Black {
        play(&mut g, &["pass"]);
    }
    assert!(g.result().is_none());
    while g.phase() == Phase::Guess {
        play(&mut g, &["pass"]);
    }
    let l = legal(&g);
    for m in ["f1e1", "f1e2", "f1g2"] {
        assert!(l.contains(&m.to_string()), "{m} in {l:?}");
    }
    for m in ["a3a4", "f1f2", "f1g1"] {
        assert!(!l.contains(&m.to_string()), "{m} in {l:?}");
    }
    assert!(g.parse_action("a3a4").is_err());
    // Kings on g2 and f3 leave White's Kh1 no escape (Kxg2 walks next to f3): checkmate
    // by kings, although the pawn could still move on the orthodox board.
    let mut g = game(Some("8/8/8/8/8/5k2/P7/7K b - - 0 1"), &params(0, 150));
    play(&mut g, &["pass", "K@g3", "pass", "pass", "a2a3"]);
    while g.mover() == Color::White {
        play(&mut g, &["pass"]);
    }
    play(&mut g, &["pass", "g3g2"]);
    while g.result().is_none() && g.mover() == Color::Black {
        play(&mut g, &["pass"]);
    }
    assert_eq!(g.result().map(|r| r.reason), Some("checkmate"));
    assert_eq!(legal(&g), Vec::<String>::new());
}

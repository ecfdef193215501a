use super::*;
use crate::game::{conformance, replay};
use std::collections::BTreeSet;

/// A game from a FEN with a face-up field (`KR/-`).
fn pos(opening: &str) -> TwoMove {
    TwoMove::from_opening(&TwoMoveParams::default(), opening).unwrap()
}

fn play(g: &TwoMove, actions: &[&str]) -> TwoMove {
    replay(g.clone(), actions).unwrap_or_else(|e| panic!("{actions:?}: {e}"))
}

fn acts(g: &TwoMove, seat: Seat) -> BTreeSet<String> {
    let mut out = Vec::new();
    g.legal_actions(seat, &mut out);
    out.into_iter().map(|a| g.action_notation(a)).collect()
}

fn mover_acts(g: &TwoMove) -> BTreeSet<String> {
    let Turn::Seat(s) = g.turn() else {
        panic!("not a move: {:?}", g.turn())
    };
    acts(g, s)
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn pending(g: &TwoMove) -> (char, Color, bool) {
    let (r, c, s) = g.pending().expect("a move is pending");
    (r.char().to_ascii_uppercase(), c, s)
}

/// Whether `side` can force a king capture before this turn's moves end, whatever the
/// other side moves in between (an AND-OR search over the rest of the turn).
fn wins_this_turn(g: &mut TwoMove, side: Color) -> bool {
    match g.turn() {
        Turn::Terminal => g.result().unwrap().returns[side.index()] > 0.0,
        Turn::Seat(s) => {
            let mut moves = Vec::new();
            g.legal_actions(s, &mut moves);
            let mut results = moves.into_iter().map(|a| {
                g.apply(a);
                let w = wins_this_turn(g, side);
                g.undo();
                w
            });
            if s == side.index() {
                results.any(|w| w)
            } else {
                results.all(|w| w)
            }
        }
        _ => false,
    }
}

fn tally(g: &TwoMove, name: &str) -> f64 {
    g.tallies().into_iter().find(|t| t.0 == name).unwrap().1
}

#[test]
fn two_move_conforms_to_the_game_api() {
    conformance::check(&TwoMove::new(&TwoMoveParams::default()), 30, 1);
    let none = TwoMoveParams {
        white_face_up: String::new(),
        ..Default::default()
    };
    conformance::check(&TwoMove::new(&none), 10, 2);
}

#[test]
fn rule_choice_excludes_face_up_cards() {
    let g = TwoMove::new(&TwoMoveParams::default());
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(acts(&g, 0), set(&["NB", "NQ", "BQ"]));
    assert_eq!(acts(&g, 1).len(), 10);
    let e = replay(g.clone(), &["KR|NB"]).unwrap_err();
    assert!(
        e.to_string().contains("not a legal action for white"),
        "{e}"
    );
    let e = g.parse_choice(0, "NK").unwrap_err();
    assert!(e.to_string().contains("K is face up for white"), "{e}");
    assert!(g.parse_choice(1, "NK").is_ok());
}

#[test]
fn rule_bad_input_is_an_error_not_a_panic() {
    let mut g = TwoMove::new(&TwoMoveParams::default());
    for bad in [
        "NB", "NB|NB|NB", "NN|NB", "N|NB", "NX|NB", "e2e4|NB", "NB|e7e5", "",
    ] {
        assert!(replay(g.clone(), &[bad]).is_err(), "{bad}");
    }
    for bad in ["NN", "N", "NBR", "nb", "e2e4", "pass"] {
        assert!(g.parse_action(bad).is_err(), "{bad}");
    }
    let nb = g.parse_action("NB").unwrap();
    assert!(g.try_apply_joint(&[nb]).is_err());
    let kr = TwoMoveAction::Cards(0b1_0100);
    assert!(g.try_apply_joint(&[kr, nb]).is_err(), "K and R are face up");
    assert!(g
        .try_apply_joint(&[nb, TwoMoveAction::Move(Move::NULL)])
        .is_err());
    assert_eq!(g.history_len(), 0, "a refused joint action changes nothing");
    g.try_apply_joint(&[nb, TwoMoveAction::Cards(0b0_1100)])
        .unwrap();
    // Moves: legal for the pending card or refused.
    assert_eq!(pending(&g), ('N', Color::White, false));
    assert!(g.parse_action("e2e5").is_err());
    assert!(
        g.parse_action("d1d3").is_err(),
        "a queen move on the knight card"
    );
    assert!(
        g.parse_action("NB").is_err(),
        "cards while a move is pending"
    );
    assert!(g.parse_action("g1f3").is_ok());
    assert!(
        replay(g.clone(), &["e7e5"]).is_err(),
        "black's move on white's card"
    );
    let bad = TwoMoveParams {
        white_face_up: "KK".into(),
        ..Default::default()
    };
    assert!(bad.validate().is_err());
    let bad = TwoMoveParams {
        white_face_up: "K".into(),
        ..Default::default()
    };
    assert!(bad.validate().is_err());
    assert!(TwoMove::from_opening(&TwoMoveParams::default(), "8/8/8 w - - 0 1").is_err());
    assert!(TwoMove::from_opening(
        &TwoMoveParams::default(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 KX/-"
    )
    .is_err());
}

#[test]
fn rule_matching_cards_are_eliminated() {
    let g = play(&TwoMove::new(&TwoMoveParams::default()), &["NB|BQ"]);
    // B is gone for both: White's N and Black's Q each move twice.
    assert_eq!(pending(&g), ('N', Color::White, false));
    let g = play(&g, &["g1f3"]);
    assert_eq!(pending(&g), ('N', Color::White, true));
    let g = play(&g, &["b1c3"]);
    assert_eq!(pending(&g), ('Q', Color::Black, false));
    let g = play(&g, &["e7e5", "d8h4"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(tally(&g, "cards_eliminated"), 2.0);
    assert_eq!(tally(&g, "double_moves"), 2.0);
}

#[test]
fn rule_equal_pairs_move_nothing() {
    let start = TwoMove::new(&TwoMoveParams::default());
    let g = play(&start, &["NB|NB"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(
        g.board.fen().split(' ').next(),
        start.board.fen().split(' ').next()
    );
    assert_eq!(tally(&g, "blank_turns"), 1.0);
    assert_eq!(tally(&g, "cards_eliminated"), 4.0);
    assert_eq!(
        (g.face_up(Color::White), g.face_up(Color::Black)),
        ("-".into(), "NB".into())
    );
}

#[test]
fn rule_surviving_card_makes_two_moves() {
    // One piece twice, or two pieces of different types, with one card.
    let g = play(&TwoMove::new(&TwoMoveParams::default()), &["NQ|NB"]);
    assert_eq!(pending(&g), ('B', Color::Black, false));
    let g = play(&g, &["e7e5", "f8c5"]);
    assert_eq!(pending(&g), ('Q', Color::White, false));
    let same = play(&g, &["e2e4", "d1h5"]);
    assert_eq!(same.turn(), Turn::Simultaneous);
    let g = play(&TwoMove::new(&TwoMoveParams::default()), &["NQ|BQ"]);
    let g = play(&g, &["g1f3"]);
    assert!(mover_acts(&g).contains("f3g5"), "the same knight again");
}

#[test]
fn rule_cards_resolve_in_order_n_b_r_q_k() {
    let g = TwoMove::new(&TwoMoveParams {
        white_face_up: String::new(),
        ..Default::default()
    });
    let mut g = play(&g, &["NQ|BR"]);
    let mut order = Vec::new();
    while let Some(p) = g.pending() {
        order.push((p.0.char().to_ascii_uppercase(), p.1));
        let a = mover_acts(&g).into_iter().next().unwrap();
        let a = g.parse_action(&a).unwrap();
        g.apply(a);
    }
    use Color::*;
    assert_eq!(
        order,
        vec![('N', White), ('B', Black), ('R', Black), ('Q', White)]
    );
}

#[test]
fn rule_card_moves_its_type_or_the_least_valuable_movable() {
    let g = play(&TwoMove::new(&TwoMoveParams::default()), &["NQ|RK"]);
    // White's N card: knights or pawns (the least valuable movable type).
    let n = mover_acts(&g);
    assert_eq!(n.len(), 20);
    assert!(n.contains("g1f3") && n.contains("e2e4"));
    let g = play(&g, &["e2e4"]);
    // Black's R card: rooks cannot move, so pawns only.
    let r = mover_acts(&g);
    assert_eq!(r.len(), 16);
    // White's Q card now has a queen move besides the pawns.
    let g = play(&g, &["e7e5"]);
    let q = mover_acts(&g);
    assert!(q.contains("d1h5") && q.contains("d2d4") && !q.contains("f1c4"));
    assert_eq!(
        tally(&play(&g, &["d1h5"]), "least_valuable_substitutions"),
        2.0
    );
    // No pawn can move: the knights are the least valuable movable type.
    let blocked = pos("4k3/8/8/8/p7/P3n3/8/1N2K2B w - - 0 1 -/-");
    let g = play(&blocked, &["RQ|NB"]);
    let g = play(&g, &["e3d1"]);
    assert_eq!(pending(&g), ('B', Color::Black, false));
    let g = play(&g, &["d1f2"]);
    assert_eq!(pending(&g), ('R', Color::White, false));
    assert_eq!(mover_acts(&g), set(&["b1c3", "b1d2"]));
}

#[test]
fn rule_a_card_must_move_if_able() {
    // Black's K card, king boxed in by its own pawns: it must move a pawn; no pass.
    let g = pos("6k1/5ppp/8/8/8/8/8/4K3 w - - 0 1 -/-");
    let g = play(&g, &["NB|RK"]);
    let g = play(&g, &["e1e2", "e2e3", "h7h6"]);
    assert_eq!(pending(&g), ('K', Color::Black, false));
    let k = mover_acts(&g);
    assert!(k.contains("g8h7") && k.contains("f7f5") && !k.contains("pass"));
    assert!(g.parse_action("pass").is_err());
}

#[test]
fn rule_a_side_without_moves_skips_its_card() {
    // White's pieces lock each other in: its cards are spent without a decision.
    let g = pos("RRBQKBRR/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1 -/-");
    let g = play(&g, &["NB|NQ"]);
    assert_eq!(pending(&g), ('Q', Color::Black, false));
    assert_eq!(tally(&g, "skipped_cards"), 2.0);
    let g = play(&g, &["a1a2", "a2a3"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
}

#[test]
fn rule_no_pawn_moves_twice_in_a_turn() {
    let g = pos("4k3/8/8/8/8/8/P7/2B1K3 w - - 0 1 -/-");
    let g = play(&g, &["NR|NB"]);
    assert_eq!(pending(&g), ('B', Color::Black, false));
    let g = play(&g, &["e8d8", "d8e8"]);
    assert_eq!(mover_acts(&g), set(&["a2a3", "a2a4"]));
    let g = play(&g, &["a2a3"]);
    // The pawn moved: the bishop is now the least valuable movable type.
    let second = mover_acts(&g);
    assert!(!second.contains("a3a4"));
    assert!(second.contains("c1d2") && !second.contains("e1e2"));
}

#[test]
fn rule_movable_is_judged_before_each_move() {
    // The bishop on c4 blocks the c3 pawn: once it moves, the pawn must move next.
    let g = pos("4k3/8/8/8/2B5/2P5/8/4K3 w - - 0 1 -/-");
    let g = play(&g, &["NR|NB"]);
    let g = play(&g, &["e8d8", "d8e8"]);
    assert!(mover_acts(&g).contains("c4d5"));
    let g = play(&g, &["c4d5"]);
    assert_eq!(mover_acts(&g), set(&["c3c4"]));
}

#[test]
fn rule_promoted_pawn_may_move_again() {
    let g = pos("7k/P7/8/8/8/8/8/4K3 w - - 0 1 -/-");
    let g = play(&g, &["NR|NB"]);
    let g = play(&g, &["h8g8", "g8h8"]);
    let g = play(&g, &["a7a8r"]);
    // The new rook (a new piece) moves on the second move of the rook card.
    assert!(mover_acts(&g).contains("a8b8"));
    let g = play(&g, &["a8a1"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
}

#[test]
fn rule_face_up_bookkeeping() {
    let g = TwoMove::new(&TwoMoveParams::default());
    assert_eq!(g.face_up(Color::White), "RK");
    let g = play(&g, &["NB|RQ", "g1f3", "b2b3", "e7e5", "d8h4"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
    // White had four face up: all back in hand. Black leaves its two.
    assert_eq!(
        (g.face_up(Color::White), g.face_up(Color::Black)),
        ("-".into(), "RQ".into())
    );
    assert_eq!(acts(&g, 0).len(), 10);
    assert_eq!(acts(&g, 1), set(&["NB", "NK", "BK"]));
    let g = play(&g, &["NK|NB"]);
    assert_eq!(pending(&g), ('B', Color::Black, false));
    let g = play(&g, &["f8c5", "c5b4", "e2e4", "d2d4"]);
    assert_eq!(
        (g.face_up(Color::White), g.face_up(Color::Black)),
        ("NK".into(), "-".into())
    );
}

#[test]
fn rule_no_check() {
    // The white king stands attacked; nothing forces it to move, and the king card
    // may step onto attacked squares.
    let g = pos("4k3/8/8/8/8/8/7P/r3K3 w - - 0 1 -/-");
    let g = play(&g, &["NK|NB", "a1b1", "b1a1"]);
    assert_eq!(pending(&g), ('K', Color::White, false));
    assert!(
        mover_acts(&g).contains("h2h3"),
        "the attacked king may stay"
    );
    let g = play(&g, &["h2h3"]);
    assert!(mover_acts(&g).contains("e1d1"), "onto the rook's rank");
    let g = play(&g, &["e1d1"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
}

#[test]
fn rule_capturing_the_king_wins() {
    let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 -/-");
    // N eliminated: White's rook card moves twice before Black's king card.
    let g = play(&g, &["NR|NK", "a1a8", "a8e8"]);
    let r = g.result().unwrap();
    assert_eq!((r.reason, r.returns[0]), ("royal-capture", 1.0));
    assert_eq!(g.turn(), Turn::Terminal);
    assert!(acts(&g, 1).is_empty(), "the king card is never played");
    assert_eq!(tally(&g, "double_move_king_captures"), 1.0);
    assert_eq!(tally(&g, "king_captures"), 1.0);
}

#[test]
fn rule_castling_with_the_king_card_through_attack() {
    // Black's bishop (moved by its N and Q cards) keeps f1 attacked.
    let g = pos("4k3/8/8/1b6/8/8/P7/4K2R w K - 0 1 -/-");
    let g = play(&g, &["RK|NQ", "b5a6"]);
    // The rook card never castles.
    assert_eq!(pending(&g), ('R', Color::White, false));
    assert!(!mover_acts(&g).contains("e1g1"));
    let g = play(&g, &["a2a3", "a6b5"]);
    // King card: castling through the attacked f1.
    assert_eq!(pending(&g), ('K', Color::White, false));
    assert!(mover_acts(&g).contains("e1g1"));
    let g = play(&g, &["e1g1"]);
    assert_eq!(
        g.board.fen().split(' ').next(),
        Some("4k3/8/8/1b6/8/P7/8/5RK1")
    );
}

#[test]
fn rule_no_en_passant() {
    let g = pos("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1 -/-");
    let g = play(&g, &["BK|NQ", "d7d5"]);
    assert_eq!(pending(&g), ('B', Color::White, false));
    let m = mover_acts(&g);
    assert!(!m.contains("e5d6") && m.contains("e5e6"));
}

#[test]
fn rule_promotion() {
    let g = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 -/-");
    let g = play(&g, &["NB|RQ"]);
    let m = mover_acts(&g);
    for p in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
        assert!(m.contains(p), "{p}");
    }
}

#[test]
fn rule_draws_are_judged_between_turns() {
    let capped = TwoMoveParams {
        ply_cap: 3,
        ..Default::default()
    };
    let g = play(&TwoMove::new(&capped), &["NB|NQ", "e2e4", "f1c4", "e7e5"]);
    assert!(
        g.turn() == Turn::Seat(1),
        "the cap waits for the end of the turn"
    );
    let g = play(&g, &["d8h4"]);
    assert_eq!(g.result().unwrap().reason, "cap");
    // Fifty moves: piece moves without capture or pawn move.
    let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 98 60 -/-");
    let g = play(&g, &["NR|NQ", "a1a2", "a2a1"]);
    assert!(g.result().is_none(), "100 quiet moves inside the turn");
    let g = play(&g, &["e8d8", "d8e8"]);
    assert_eq!(g.result().unwrap().reason, "fifty-moves");
    let g = pos("4k3/8/8/8/8/8/8/4KN2 w - - 0 1 -/-");
    assert_eq!(g.result().unwrap().reason, "insufficient-material");
}

#[test]
fn rule_repetition_compares_face_up_cards() {
    let g = TwoMove::new(&TwoMoveParams::default());
    let g1 = play(&g, &["NB|NB"]);
    assert_ne!(
        g1.repetition_key(),
        g.repetition_key(),
        "same board, other face-up cards"
    );
    let g = play(&g1, &["KR|KR", "NB|NB"]);
    assert!(g.result().is_none(), "second time with -/NB face up");
    let g = play(&g, &["KR|KR"]);
    assert_eq!(g.result().unwrap().reason, "repetition");
}

#[test]
fn rule_tallies() {
    let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 -/-");
    let g = play(&g, &["RQ|NR", "e8d8", "d8d7", "a1a7"]);
    assert_eq!(tally(&g, "cards_eliminated"), 2.0);
    assert_eq!(tally(&g, "double_moves"), 2.0);
    // Black's N card moved the king, White's Q card the rook.
    assert_eq!(tally(&g, "least_valuable_substitutions"), 3.0);
    let mut h = g.clone();
    h.undo();
    assert_eq!(tally(&h, "least_valuable_substitutions"), 2.0);
    h.undo();
    assert_eq!(tally(&h, "least_valuable_substitutions"), 1.0);
}

// ----- the seed's Rules Quiz (positions rebuilt from the text) ---------------------

/// Black's bishop card makes two moves (N eliminated), then White's rook card makes
/// two. White has no rook, so its rook card moves the least valuable movable type.
const QUIZ_1: &str = "5kn1/4p3/8/8/1bB1q3/P1P1B2b/6P1/7K w - - 0 1 -/-";
/// The same with the black king and queen swapped.
const QUIZ_1_SWAPPED: &str = "5qn1/4p3/8/8/1bB1k3/P1P1B2b/6P1/7K w - - 0 1 -/-";

#[test]
fn rule_quiz_taking_both_movable_pawns_loses_for_black() {
    let g = play(&pos(QUIZ_1), &["NR|NB"]);
    assert_eq!(pending(&g), ('B', Color::Black, false));
    // Bxa3 and Bxg2: the g2 bishop guards the queen on e4 and eyes the king on h1...
    let g = play(&g, &["b4a3", "h3g2"]);
    let b = g.board_ref();
    let g2 = crate::square::Square::parse("g2").unwrap();
    let targets = crate::attacks::bishop_attacks(g2, b.occupied());
    assert!(targets.contains(crate::square::Square::parse("e4").unwrap()));
    assert!(targets.contains(crate::square::Square::parse("h1").unwrap()));
    // ...but White's pawns are gone or blocked: any card moves the bishops.
    assert_eq!(pending(&g), ('R', Color::White, false));
    let first = mover_acts(&g);
    assert!(first.contains("e3h6") && first.contains("c4d5") && !first.contains("h1h2"));
    assert!(wins_this_turn(&mut g.clone(), Color::White));
    let won = play(&g, &["e3h6", "h6f8"]);
    assert_eq!(won.result().unwrap().returns[0], 1.0);
    // Once the c4 bishop moves, the c3 pawn is movable and must be the second move.
    assert_eq!(mover_acts(&play(&g, &["c4d5"])), set(&["c3c4"]));
    // With the king on the queen's square White could not take it this turn.
    let swapped = play(&pos(QUIZ_1_SWAPPED), &["NR|NB", "b4a3", "h3g2"]);
    assert!(!wins_this_turn(&mut swapped.clone(), Color::White));
}

#[test]
fn rule_quiz_blocking_the_last_pawn_is_better() {
    let g = play(&pos(QUIZ_1), &["NR|NB"]);
    // Be6 blocks Black's last pawn; the other bishop makes a quiet move.
    let g = play(&g, &["h3e6", "b4d6"]);
    // White's pawns can still move, so the rook card cannot reach the bishops.
    assert!(!wins_this_turn(&mut g.clone(), Color::White));
    let g = play(&g, &["g2g3", "a3a4"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
    // Next turn any black card moves the knight (the least valuable movable type).
    for (joint, card) in [("BQ|RK", 'R'), ("BK|QK", 'Q'), ("BQ|QK", 'K')] {
        let mut h = play(&g, &[joint]);
        while pending(&h).1 == Color::White {
            let a = mover_acts(&h)
                .into_iter()
                .find(|m| !m.starts_with('e'))
                .unwrap();
            let a = h.parse_action(&a).unwrap();
            h.apply(a);
        }
        assert_eq!(pending(&h).0, card);
        assert!(mover_acts(&h).contains("g8f6"), "{card} card");
    }
}

/// White to find a winning turn: pawn on h7, Black's bishop can block h8, Black's
/// queen can block the eighth rank; Black holds R and K face up.
const QUIZ_2: &str = "1k6/p1p4P/8/4b3/3q4/8/P7/7K w - - 0 1 -/RK";

#[test]
fn rule_quiz_white_wins_with_bishop_and_rook_cards_and_a_rook_promotion() {
    let g = pos(QUIZ_2);
    let black_pairs = acts(&g, 1);
    assert_eq!(black_pairs, set(&["NB", "NQ", "BQ"]));
    let mut winning = Vec::new();
    for w in acts(&g, 0) {
        let forced = black_pairs.iter().all(|b| {
            let mut h = play(&g, &[&format!("{w}|{b}")]);
            wins_this_turn(&mut h, Color::White)
        });
        if forced {
            winning.push(w);
        }
    }
    assert_eq!(winning, vec!["BR".to_string()]);
    // The promotion must be to a rook: a new queen cannot be moved by the rook card.
    for b in &black_pairs {
        let h = play(&g, &[&format!("BR|{b}")]);
        let h = if b == "NB" || b == "NQ" {
            play(&h, &["a7a6", "c7c6"][..if b == "NB" { 2 } else { 1 }])
        } else {
            h
        };
        assert_eq!(pending(&h).1, Color::White, "{b}");
        assert!(
            wins_this_turn(&mut play(&h, &["h7h8r"]), Color::White),
            "{b}"
        );
        assert!(
            !wins_this_turn(&mut play(&h, &["h7h8q"]), Color::White),
            "{b}"
        );
    }
}

/// `chesslab values` features: the piece differences, then face-up cards, White minus
/// Black.
#[test]
fn features_count_face_up_cards() {
    let g = pos("4k3/8/2n5/8/8/8/P7/4K3 w - - 0 1 -/KR");
    let f = g.features();
    let names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["pawn", "knight", "bishop", "rook", "queen", "face_up"]
    );
    let values: Vec<f64> = f.iter().map(|(_, v)| *v).collect();
    assert_eq!(values, [1.0, -1.0, 0.0, 0.0, 0.0, -2.0]);
}

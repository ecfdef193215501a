use super::*;
use crate::game::{conformance, replay};
use crate::moves::MoveKind;
use crate::registry;
use std::collections::BTreeSet;

const ORTHO: &str = "KK,QQ,RR,BB,NN";

/// A game from `fen` with both assignments fixed: `white_assigns` governs Black's
/// pieces, `black_assigns` White's.
fn pos(fen: &str, white_assigns: &str, black_assigns: &str) -> Masquerade {
    let params = MasqueradeParams {
        white_assigns: Some(white_assigns.into()),
        black_assigns: Some(black_assigns.into()),
        ..Default::default()
    };
    Masquerade::from_opening(&params, fen).unwrap()
}

#[test]
fn tally_labels_name_assignments_and_patterns() {
    let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1", "KQ,QN,RB,NR,BK", ORTHO);
    let t: std::collections::HashMap<String, f64> = g.tallies().into_iter().collect();
    let label = |n: &str| g.tally_label(n, t[n]).unwrap();
    assert_eq!(label("white_assigned"), "KQ,QN,RB,BK,NR");
    assert_eq!(label("black_assigned"), ORTHO);
    assert_eq!(label("white_gave_king"), "captures like Q");
    assert_eq!(label("white_gave_queen"), "captures like N");
    assert_eq!(label("black_gave_queen"), "captures like Q");
    assert_eq!(g.tally_label("white_assigned", -1.0).unwrap(), "none");
    assert_eq!(g.tally_label("white_attempts", 3.0), None);
}

fn actions(g: &Masquerade) -> BTreeSet<String> {
    let mut v = Vec::new();
    if let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut v);
    }
    v.into_iter().map(|a| g.action_notation(a)).collect()
}

fn attempts(g: &Masquerade) -> BTreeSet<String> {
    actions(g)
        .into_iter()
        .filter(|a| a.ends_with('?'))
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

#[test]
fn masquerade_conforms_to_the_game_api_in_every_assignment_mode() {
    let choose = Masquerade::new(&MasqueradeParams::default());
    conformance::check(&choose, 4, 1);
    let random = Masquerade::new(&MasqueradeParams {
        assignment: "random".into(),
        ..Default::default()
    });
    conformance::check(&random, 4, 2);
    let fixed = Masquerade::new(&MasqueradeParams {
        white_assigns: Some("KQ,QN,RB,NR,BK".into()),
        black_assigns: Some("KN,QB,RR,BQ,NK".into()),
        ..Default::default()
    });
    conformance::check(&fixed, 4, 3);
    let half = Masquerade::new(&MasqueradeParams {
        assignment: "random".into(),
        white_assigns: Some("KQ,QN,RB,NR,BK".into()),
        ..Default::default()
    });
    conformance::check(&half, 2, 4);
}

#[test]
fn rule_assignment_is_a_permutation() {
    let mut seen = BTreeSet::new();
    for i in 0..Assignment::COUNT {
        let a = Assignment::from_index(i).unwrap();
        let mut pats: Vec<usize> = a.patterns().iter().map(|p| p.index()).collect();
        pats.sort();
        assert_eq!(pats, vec![0, 1, 2, 3, 4], "{a}");
        assert_eq!(Assignment::parse(&a.to_string()), Ok(a));
        assert_eq!(Assignment::parse(&i.to_string()), Ok(a));
        assert!(seen.insert(a.to_string()));
        if i > 0 {
            let prev = Assignment::from_index(i - 1).unwrap().patterns();
            let key = |p: [Pattern; 5]| p.map(|x| x.index());
            assert!(key(prev) < key(a.patterns()), "lexicographic order");
        }
    }
    assert_eq!(Assignment::from_index(120), None);
    assert_eq!(Assignment::ORTHODOX.to_string(), ORTHO);
    assert_eq!(
        Assignment::from_index(119).unwrap().to_string(),
        "KN,QB,RR,BQ,NK"
    );
    // The seed's example, in its own order and spacing.
    let seed = Assignment::parse("KQ, QN, RB, NR, BK").unwrap();
    assert_eq!(seed.to_string(), "KQ,QN,RB,BK,NR");
    assert_eq!(seed.pattern(Role::King), Some(Pattern::Queen));
    assert_eq!(seed.pattern(Role::Queen), Some(Pattern::Knight));
    assert_eq!(seed.pattern(Role::Knight), Some(Pattern::Rook));
    assert_eq!(seed.pattern(Role::Pawn), None);
    for bad in [
        "KQ,QQ,RB,NR,BK",
        "KQ,KN,RB,NR,BK",
        "KQ,QN,RB,NR",
        "KQ,QN,RB,NR,BK,KK",
        "KX,QN,RB,NR,BK",
        "KQQ,QN,RB,NR,BK",
        "",
        "120",
    ] {
        assert!(Assignment::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn rule_bad_parameters_are_errors() {
    let bad = MasqueradeParams {
        white_assigns: Some("KQ,QQ,RR,BB,NN".into()),
        ..Default::default()
    };
    assert!(bad.validate().is_err());
    let bad = MasqueradeParams {
        assignment: "sometimes".into(),
        ..Default::default()
    };
    assert!(bad.validate().is_err());
    assert!(MasqueradeParams::default().validate().is_ok());
    struct Build;
    impl registry::VariantVisitor for Build {
        type Output = usize;
        fn visit<G: Game>(self, _: &'static str, p: G::Params) -> usize {
            G::new(&p).num_seats()
        }
    }
    assert!(registry::visit("masquerade", Some("black_assigns = \"KK,QQ\""), Build).is_err());
    assert!(registry::visit("masquerade", Some("colour = 1"), Build).is_err());
    assert_eq!(
        registry::visit("masquerade", Some("assignment = \"random\""), Build),
        Ok(2)
    );
}

#[test]
fn rule_white_assigns_black_then_black_assigns_white() {
    let g = Masquerade::new(&MasqueradeParams::default());
    assert_eq!(g.turn(), Turn::Seat(0));
    assert_eq!(actions(&g).len(), 120);
    let g = replay(g, &["assign:KQ,QN,RB,NR,BK"]).unwrap();
    assert_eq!(g.given(Color::Black).unwrap().to_string(), "KQ,QN,RB,BK,NR");
    assert_eq!(g.given(Color::White), None);
    assert_eq!(g.turn(), Turn::Seat(1));
    assert_eq!(actions(&g).len(), 120);
    let g = replay(g, &["assign:7"]).unwrap();
    assert_eq!(g.given(Color::White), Assignment::from_index(7));
    assert!(g.in_play());
    assert_eq!(g.turn(), Turn::Seat(0));
    assert_eq!(actions(&g).len(), 20);
    assert_eq!(g.play_plies(), 0);
}

#[test]
fn rule_random_assignment_is_a_uniform_chance_node() {
    let g = Masquerade::new(&MasqueradeParams {
        assignment: "random".into(),
        ..Default::default()
    });
    assert_eq!(g.turn(), Turn::Chance);
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(out.len(), 120);
    assert!(out.iter().all(|&(_, p)| (p - 1.0 / 120.0).abs() < 1e-12));
    let g = replay(g, &["assign:3", "assign:99"]).unwrap();
    assert_eq!(g.given(Color::Black), Assignment::from_index(3));
    assert_eq!(g.given(Color::White), Assignment::from_index(99));
    assert_eq!(g.turn(), Turn::Seat(0));
}

#[test]
fn rule_fixed_assignment_skips_its_step() {
    let g = Masquerade::new(&MasqueradeParams {
        white_assigns: Some("KQ,QN,RB,NR,BK".into()),
        ..Default::default()
    });
    assert_eq!(g.turn(), Turn::Seat(1), "black assigns white's pieces next");
    let g = replay(g, &["assign:0"]).unwrap();
    assert!(g.in_play());
    let g = pos(&Board::startpos().fen(), ORTHO, ORTHO);
    assert!(g.in_play());
}

#[test]
fn rule_non_captures_are_orthodox_castling_included() {
    let fen = "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R w KQkq - 0 1";
    let g = pos(fen, ORTHO, ORTHO);
    let b = Board::from_fen(fen).unwrap();
    let orthodox: BTreeSet<String> = b
        .legal_moves()
        .iter()
        .filter(|m| b.captured_piece(**m).is_none())
        .map(|&m| b.uci(m))
        .collect();
    let ours: BTreeSet<String> = actions(&g)
        .into_iter()
        .filter(|a| !a.ends_with('?'))
        .collect();
    assert_eq!(ours, orthodox);
    assert!(ours.contains("e1g1") && ours.contains("e1c1"));
    let start = pos(&Board::startpos().fen(), ORTHO, ORTHO);
    assert_eq!(actions(&start).len(), 20, "no attempts at the start");
}

#[test]
fn rule_pawn_captures_are_orthodox_and_certain() {
    // White's pieces all capture oddly; the pawn still takes as a pawn.
    let g = pos("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", ORTHO, "KN,QB,RR,BQ,NK");
    let acts = actions(&g);
    assert!(acts.contains("e4d5"));
    assert!(!acts.iter().any(|a| a.starts_with("e4") && a.ends_with('?')));
    let g = replay(g, &["e4d5"]).unwrap();
    assert_eq!(
        g.board_ref().piece_at(sq("d5")).map(|p| p.role),
        Some(Role::Pawn)
    );
    assert_eq!(g.consistent(Color::White), ALL_ASSIGNMENTS);
}

#[test]
fn rule_pawns_capture_en_passant() {
    let g = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", ORTHO, "KN,QB,RR,BQ,NK");
    let g = replay(g, &["d7d5"]).unwrap();
    let mut v = Vec::new();
    g.legal_actions(0, &mut v);
    assert!(v.iter().any(|a| matches!(a,
        MasqueradeAction::Move(m) if m.kind() == MoveKind::EnPassant)));
    let g = replay(g, &["e5d6"]).unwrap();
    assert_eq!(g.board_ref().piece_at(sq("d5")), None);
    assert_eq!(
        g.board_ref().piece_at(sq("d6")).map(|p| p.role),
        Some(Role::Pawn)
    );
}

#[test]
fn rule_promoted_piece_uses_its_new_types_pattern() {
    let fen = "4k3/1P6/2n5/8/8/8/8/4K3 w - - 0 1";
    // White's queens capture like knights.
    let g = pos(fen, ORTHO, "KK,QN,RR,BB,NQ");
    let g = replay(g, &["b7b8q", "e8f7", "b8xc6?"]).unwrap();
    assert_eq!(
        g.board_ref().piece_at(sq("c6")).map(|p| p.role),
        Some(Role::Queen),
        "knight pattern: the jump b8-c6 succeeds"
    );
    // With orthodox queens the same jump fails.
    let g = pos(fen, ORTHO, ORTHO);
    let g = replay(g, &["b7b8q", "e8f7", "b8xc6?"]).unwrap();
    assert_eq!(
        g.board_ref().piece_at(sq("b8")).map(|p| p.role),
        Some(Role::Queen)
    );
    assert_eq!(
        g.board_ref().piece_at(sq("c6")).map(|p| p.role),
        Some(Role::Knight)
    );
}

#[test]
fn rule_successful_attempt_captures() {
    let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1", ORTHO, ORTHO);
    let g = replay(g, &["a1xa5?"]).unwrap();
    assert_eq!(
        g.board_ref().piece_at(sq("a5")).map(|p| p.role),
        Some(Role::Rook)
    );
    assert_eq!(g.board_ref().piece_at(sq("a1")), None);
    assert_eq!(g.turn(), Turn::Seat(1));
    // The rook captures along a line: Q or R.
    assert_eq!(g.consistent(Color::White).count_ones(), 48);
    assert_eq!(g.board_ref().halfmoves(), 0);
}

#[test]
fn rule_failed_attempt_moves_nothing_and_ends_the_turn() {
    // White's rooks capture like bishops.
    let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1", ORTHO, "KK,QQ,RB,BR,NN");
    let before = g.board_ref().clone();
    let g = replay(g, &["a1xa5?"]).unwrap();
    assert_eq!(g.turn(), Turn::Seat(1), "the turn is over");
    assert_eq!(g.board_ref().occupied(), before.occupied());
    assert_eq!(
        g.board_ref().fen().split(' ').next(),
        before.fen().split(' ').next()
    );
    assert_eq!(
        g.consistent(Color::White).count_ones(),
        72,
        "rook is K, B or N"
    );
    assert_eq!(
        g.events().last(),
        Some(Event::Attempted {
            by: Color::White,
            role: Role::Rook,
            from: sq("a1"),
            to: sq("a5"),
            hit: false
        })
    );
}

#[test]
fn rule_offered_attempts_are_the_union_of_patterns_with_a_clear_path() {
    let g = pos("4k3/8/8/n7/1p1p4/1p6/p1p5/R3K3 w - - 0 1", ORTHO, ORTHO);
    assert_eq!(
        attempts(&g),
        set(&["a1xa2?", "a1xb3?", "a1xc2?", "a1xd4?", "e1xc2?", "e1xe8?", "e1xb4?"])
    );
    // Own pieces are never targets; pawns never attempt.
    let g = pos("4k3/8/8/8/8/8/3pP3/R2NK3 w - - 0 1", ORTHO, ORTHO);
    assert_eq!(attempts(&g), set(&["d1xd2?", "e1xd2?"]));
}

#[test]
fn rule_no_check_king_may_move_into_attack_and_ignore_it() {
    let g = pos("4k3/4r3/8/8/8/8/P7/4K3 w - - 0 1", ORTHO, ORTHO);
    let acts = actions(&g);
    assert!(acts.contains("e1e2"), "into the rook's file");
    assert!(acts.contains("a2a3"), "ignoring the attack on the king");
    let g = replay(g, &["a2a3"]).unwrap();
    assert!(g.result().is_none());
}

#[test]
fn rule_king_may_castle_out_of_through_and_into_attack() {
    for fen in [
        "4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1",
        "4k3/8/8/5r2/8/8/8/R3K2R w KQ - 0 1",
        "4k3/8/8/6r1/8/8/8/R3K2R w KQ - 0 1",
    ] {
        let g = pos(fen, ORTHO, ORTHO);
        let acts = actions(&g);
        assert!(acts.contains("e1g1") && acts.contains("e1c1"), "{fen}");
    }
    let g = pos("4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1", ORTHO, ORTHO);
    let g = replay(g, &["e1g1"]).unwrap();
    assert_eq!(
        g.board_ref().piece_at(sq("g1")).map(|p| p.role),
        Some(Role::King)
    );
    assert_eq!(
        g.board_ref().piece_at(sq("f1")).map(|p| p.role),
        Some(Role::Rook)
    );
    // Castling still needs empty squares between.
    let g = pos("4k3/8/8/8/8/8/8/R2QK1NR w KQ - 0 1", ORTHO, ORTHO);
    let acts = actions(&g);
    assert!(!acts.contains("e1g1") && !acts.contains("e1c1"));
}

#[test]
fn rule_capturing_the_king_wins() {
    let g = pos("3k4/8/8/8/8/8/8/3QK3 w - - 0 1", ORTHO, ORTHO);
    let g = replay(g, &["d1xd8?"]).unwrap();
    let r = g.result().unwrap();
    assert_eq!(
        (r.reason, r.returns[0], r.returns[1]),
        ("royal-capture", 1.0, -1.0)
    );
    assert_eq!(g.turn(), Turn::Terminal);
    assert!(actions(&g).is_empty());
    // A failed try on the king changes nothing.
    let g = pos("3k4/8/8/8/8/8/8/3QK3 w - - 0 1", ORTHO, "KK,QN,RR,BB,NQ");
    let g = replay(g, &["d1xd8?"]).unwrap();
    assert!(g.result().is_none());
    // A pawn takes the king for certain.
    let g = pos("8/8/8/8/8/3k4/4P3/4K3 w - - 0 1", ORTHO, "KN,QB,RR,BQ,NK");
    let g = replay(g, &["e2d3"]).unwrap();
    assert_eq!(g.result().unwrap().returns[0], 1.0);
}

#[test]
fn rule_no_stalemate_between_kings_a_king_may_take_the_king() {
    let g = pos("8/p7/8/8/8/3k4/7P/4K3 w - - 0 1", ORTHO, ORTHO);
    let g = replay(g, &["e1e2"]).unwrap();
    assert!(attempts(&g).contains("d3xe2?"));
    let g = replay(g, &["d3xe2?"]).unwrap();
    let r = g.result().unwrap();
    assert_eq!((r.reason, r.returns[1]), ("royal-capture", 1.0));
}

#[test]
fn rule_both_players_learn_the_answer() {
    let fen = "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1";
    let hit = replay(pos(fen, ORTHO, "KK,QQ,RR,BB,NN"), &["a1xa5?"]).unwrap();
    let miss = replay(pos(fen, ORTHO, "KK,QQ,RB,BR,NN"), &["a1xa5?"]).unwrap();
    for seat in 0..2 {
        assert_ne!(hit.information_key(seat), miss.information_key(seat));
    }
    for seat in 0..2 {
        assert!(miss.observation(seat).contains("w:a1xa5-"));
        assert!(miss
            .observation(seat)
            .contains("72 of 120 possible; K:{KQRBN} Q:{KQRBN} R:{KBN}"));
        assert!(hit.observation(seat).contains("w:a1xa5+"));
    }
}

#[test]
fn rule_a_seat_knows_the_assignment_it_made_never_its_own() {
    // Two games that differ only in White's (secret) assignment.
    let fen = "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1";
    let a = pos(fen, ORTHO, "KK,QQ,RR,BN,NB");
    let b = pos(fen, ORTHO, "KN,QQ,RR,BB,NK");
    assert_eq!(a.information_key(0), b.information_key(0));
    assert_eq!(a.observation(0), b.observation(0));
    assert_ne!(a.information_key(1), b.information_key(1));
    assert_ne!(a.state_key(), b.state_key());
    // Choosing: the seat whose pieces are assigned does not see the choice.
    let g = Masquerade::new(&MasqueradeParams::default());
    let x = replay(g.clone(), &["assign:5"]).unwrap();
    let y = replay(g, &["assign:77"]).unwrap();
    assert_eq!(x.information_key(1), y.information_key(1));
    assert_eq!(x.observation(1), y.observation(1));
    assert_ne!(x.information_key(0), y.information_key(0));
    assert!(x
        .observation(0)
        .contains(&Assignment::from_index(5).unwrap().to_string()));
    assert!(!x.is_perfect_information());
}

#[test]
fn rule_a_random_draw_is_seen_by_the_assigner_only() {
    let g = Masquerade::new(&MasqueradeParams {
        assignment: "random".into(),
        ..Default::default()
    });
    let x = replay(g.clone(), &["assign:5"]).unwrap();
    let y = replay(g, &["assign:77"]).unwrap();
    assert_eq!(x.information_key(1), y.information_key(1));
    assert_ne!(x.information_key(0), y.information_key(0));
}

#[test]
fn openings_may_leave_a_king_en_prise() {
    let params = MasqueradeParams::default();
    let g = Masquerade::from_opening(&params, "3k4/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    assert_eq!(g.board_ref().fen(), "3k4/8/8/8/8/8/8/3QK3 w - - 0 1");
    let g = Masquerade::from_opening(&params, "r3k3/8/8/8/B7/8/8/R3K3 w Qq - 3 9").unwrap();
    assert_eq!(g.board_ref().fen(), "r3k3/8/8/8/B7/8/8/R3K3 w Qq - 3 9");
    for bad in [
        "8/8/8/8/8/8/3KK3/8 w - - 0 1",
        "nonsense",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ] {
        assert!(matches!(
            Masquerade::from_opening(&params, bad),
            Err(GameError::Opening { .. })
        ));
    }
}

#[test]
fn rule_a_side_without_any_action_passes() {
    let g = pos("RQBKBRRQ/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1", ORTHO, ORTHO);
    assert_eq!(actions(&g), set(&["pass"]));
    let before = g.board_ref().occupied();
    let g = replay(g, &["pass"]).unwrap();
    assert_eq!(g.board_ref().occupied(), before);
    assert_eq!(g.turn(), Turn::Seat(1));
    assert_eq!(g.board_ref().halfmoves(), 1);
    assert!(g.parse_action("pass").is_err(), "black has moves");
}

#[test]
fn rule_failed_attempts_count_for_fifty_moves_and_repetition() {
    // Each side's piece on the a-file captures like a bishop: every try fails.
    let g = pos(
        "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1",
        "KK,QQ,RR,BN,NB",
        "KK,QQ,RB,BR,NN",
    );
    let g = replay(g, &["a1xa5?", "a5xa1?", "a1xa5?"]).unwrap();
    assert_eq!(g.board_ref().halfmoves(), 3);
    assert!(g.result().is_none());
    let g = replay(g, &["a5xa1?"]).unwrap();
    assert_eq!(g.result().unwrap().reason, "repetition");
    let mut fifty = pos(
        "4k3/8/8/n7/8/8/8/R3K3 w - - 99 60",
        "KK,QQ,RR,BN,NB",
        "KK,QQ,RB,BR,NN",
    );
    fifty.apply(fifty.parse_action("a1xa5?").unwrap());
    assert_eq!(fifty.result().unwrap().reason, "fifty-moves");
}

#[test]
fn rule_failed_attempt_lets_en_passant_lapse() {
    let g = pos(
        "4k3/3p4/8/n3P3/8/8/8/R3K3 b - - 0 1",
        ORTHO,
        "KK,QQ,RB,BR,NN",
    );
    let g = replay(g, &["d7d5", "a1xa5?", "e8e7"]).unwrap();
    assert!(!actions(&g).contains("e5d6"));
}

#[test]
fn rule_no_insufficient_material_draw() {
    // Bare kings play on: with the queen's pattern the e1 king takes e8 at once.
    let g = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ORTHO, "KQ,QK,RR,BB,NN");
    assert!(g.result().is_none());
    assert!(actions(&g).contains("e1xe8?"));
    let g = replay(g, &["e1xe8?"]).unwrap();
    assert_eq!(g.result().unwrap().reason, "royal-capture");
    // King and minor against king play on too.
    let g = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", ORTHO, ORTHO);
    assert!(g.result().is_none());
    // The 50-move rule still ends bare kings.
    let g = pos("4k3/8/8/8/8/8/8/4K3 w - - 99 60", ORTHO, ORTHO);
    let g = replay(g, &["e1d1"]).unwrap();
    assert_eq!(g.result().unwrap().reason, "fifty-moves");
}

#[test]
fn rule_touching_kings_load_from_fen() {
    // Issue 11: reachable in play (the white king stepped next to the black one).
    let fen = "8/p7/8/8/8/3k4/4K3/8 b - - 1 1";
    let g = pos(fen, ORTHO, ORTHO);
    assert_eq!(g.board.fen(), fen);
    // Black's king may try to take the white king next door.
    assert!(actions(&g).contains("d3xe2?"));
    // Two kings of one colour are still refused.
    assert!(Masquerade::from_opening(
        &MasqueradeParams::default(),
        "8/8/8/8/8/3K4/4K3/8 b - - 0 1"
    )
    .is_err());
}

#[test]
fn rule_ply_cap_counts_play_plies_only() {
    let g = Masquerade::new(&MasqueradeParams {
        ply_cap: 2,
        ..Default::default()
    });
    let g = replay(g, &["assign:0", "assign:0", "e2e4"]).unwrap();
    assert!(g.result().is_none());
    let g = replay(g, &["e7e5"]).unwrap();
    assert_eq!(g.result().unwrap().reason, "cap");
    assert_eq!(g.turn(), Turn::Terminal);
}

#[test]
fn notation_round_trips_and_bad_input_is_an_error() {
    let g = Masquerade::new(&MasqueradeParams::default());
    for bad in [
        "e2e4",
        "assign:KQ",
        "assign:KK,QQ,RR,BB,BB",
        "pass",
        "",
        "xx?",
    ] {
        assert!(g.parse_action(bad).is_err(), "{bad}");
    }
    let g = pos("4k3/8/8/n7/1p1p4/1p6/p1p5/R3K3 w - - 0 1", ORTHO, ORTHO);
    assert_eq!(
        g.parse_action("Ra1xb3?"),
        Ok(MasqueradeAction::Attempt(sq("a1"), sq("b3")))
    );
    assert_eq!(g.parse_action("a1b3?"), g.parse_action("a1xb3?"));
    for bad in [
        "a1xb4?", "a1a5", "assign:0", "e1e3", "a1xh9?", "é?", "?", "a1x",
    ] {
        assert!(g.parse_action(bad).is_err(), "{bad}");
    }
}

#[test]
fn tallies_follow_the_history_and_undo() {
    let fen = "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1";
    let mut g = pos(fen, "KK,QQ,RR,BN,NB", "KK,QQ,RB,BR,NN");
    let get = |g: &Masquerade, k: &str| g.tallies().into_iter().find(|(n, _)| n == k).unwrap().1;
    assert_eq!(
        get(&g, "white_assigned"),
        Assignment::parse("KK,QQ,RR,BN,NB").unwrap().index() as f64
    );
    g.apply(g.parse_action("a1xa5?").unwrap());
    g.apply(g.parse_action("e8e7").unwrap());
    assert_eq!(get(&g, "white_attempts"), 1.0);
    assert_eq!(get(&g, "white_failed_attempts"), 1.0);
    assert_eq!(get(&g, "black_attempts"), 0.0);
    assert_eq!(get(&g, "white_knows"), 0.0);
    assert!(!g.tallies().iter().any(|(n, _)| n == "white_knows_at_ply"));
    assert_eq!(get(&g, "white_consistent"), 72.0);
    g.undo();
    g.undo();
    assert_eq!(get(&g, "white_attempts"), 0.0);
    assert_eq!(get(&g, "white_consistent"), 120.0);
}

#[test]
fn knows_at_ply_is_the_first_play_ply_with_one_candidate() {
    // Real play needs many informative attempts to get there (the property tests in
    // tests/masquerade_info.rs check it on playouts); here the set is planted.
    let mut g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1", ORTHO, ORTHO);
    g.apply(g.parse_action("e1d1").unwrap());
    g.apply(g.parse_action("e8d8").unwrap());
    g.records[1].consistent[0] = Assignment::ORTHODOX.bit();
    let t = g.tallies();
    let v = t.iter().find(|(n, _)| n == "white_knows_at_ply").unwrap().1;
    assert_eq!(v, 1.0);
    let knows = t.iter().find(|(n, _)| n == "white_knows").unwrap().1;
    assert_eq!(knows, 1.0);
}

/// `chesslab values` features: the piece differences, then pieces whose owner knows
/// their capture pattern, White minus Black.
#[test]
fn features_count_pieces_whose_pattern_is_known() {
    let mut g = pos("4k3/8/2n5/8/8/8/8/R3K3 w - - 0 1", ORTHO, ORTHO);
    assert_eq!(
        g.features().last(),
        Some(&("known_pattern".to_string(), 0.0))
    );
    // White has learned only that its king captures like a king; Black knows everything.
    g.consistent[0] = assignments_with(0, 1);
    g.consistent[1] = 1;
    let f = g.features();
    let names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["pawn", "knight", "bishop", "rook", "queen", "known_pattern"]
    );
    let values: Vec<f64> = f.iter().map(|(_, v)| *v).collect();
    // White: the king (the rook's pattern is unknown); Black: king and knight.
    assert_eq!(values, [0.0, -1.0, 0.0, 1.0, 0.0, -1.0]);
}

// ----- the full-information twin (issue 67) ---------------------------------------------

fn open(params: MasqueradeParams) -> MasqueradeParams {
    MasqueradeParams {
        open_assignments: true,
        ..params
    }
}

#[test]
fn masquerade_open_assignments_conforms_to_the_game_api() {
    for (i, assignment) in ["choose", "random"].into_iter().enumerate() {
        let g = Masquerade::new(&open(MasqueradeParams {
            assignment: assignment.into(),
            ..Default::default()
        }));
        assert!(g.is_perfect_information(), "{assignment}");
        conformance::check(&g, 4, 20 + i as u64);
    }
}

#[test]
fn rule_masquerade_open_assignments_show_each_side_its_own_patterns() {
    use rand::SeedableRng;
    // The hidden game's pair (`rule_a_seat_knows_the_assignment_it_made_never_its_own`):
    // two games that differ only in White's assignment of Black's pieces.
    let fen = "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1";
    let twin = |w: &str, b: &str| pos(fen, w, b).with_open_assignments(true);
    let a = twin(ORTHO, "KK,QQ,RR,BN,NB");
    let b = twin(ORTHO, "KN,QQ,RR,BB,NK");
    for seat in 0..2 {
        assert_ne!(
            a.information_key(seat),
            b.information_key(seat),
            "seat {seat}"
        );
        assert_eq!(a.information_key(seat), a.state_key());
        assert_ne!(a.observation(seat), b.observation(seat), "seat {seat}");
    }
    // White sees the assignment Black gave White's pieces, Black the one White gave its.
    assert!(a
        .observation(0)
        .contains("black's assignment of your pieces (open): KK,QQ,RR,BN,NB"));
    assert!(a.observation(1).contains(&format!(
        "white's assignment of your pieces (open): {ORTHO}"
    )));
    // Choosing: the side whose pieces are assigned sees the choice at once.
    let g = Masquerade::new(&open(MasqueradeParams::default()));
    let x = replay(g.clone(), &["assign:5"]).unwrap();
    let y = replay(g, &["assign:77"]).unwrap();
    assert_ne!(x.information_key(1), y.information_key(1));
    let five = Assignment::from_index(5).unwrap().to_string();
    assert!(x.observation(1).contains(&format!("(open): {five}")));
    // Nothing is left to sample.
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    for seat in 0..2 {
        assert_eq!(
            a.sample_world(seat, &mut rng).given(Color::White),
            a.given(Color::White)
        );
        assert_eq!(a.sample_world(seat, &mut rng).state_key(), a.state_key());
    }
    // The hidden game is unchanged: the same pair is one information state for White.
    assert_eq!(
        pos(fen, ORTHO, "KK,QQ,RR,BN,NB").information_key(0),
        pos(fen, ORTHO, "KN,QQ,RR,BB,NK").information_key(0)
    );
}

#[test]
fn rule_masquerade_open_assignments_play_by_the_same_rules() {
    use rand::SeedableRng;
    // Seeded random games of the hidden game replay in the twin action for action: the
    // same legal lists, the same answers to every attempt, the same boards and results.
    for (i, assignment) in ["choose", "random"].into_iter().enumerate() {
        let params = MasqueradeParams {
            assignment: assignment.into(),
            ..Default::default()
        };
        for seed in 0..6u64 {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(100 * i as u64 + seed);
            let mut attempts = 0;
            let pick = |g: &Masquerade, actions: &[MasqueradeAction], rng: &mut rand_pcg::Pcg64| {
                let a = crate::game::twins::any_action(g, actions, rng);
                attempts += usize::from(matches!(a, MasqueradeAction::Attempt(..)));
                a
            };
            let same_board = |h: &Masquerade, t: &Masquerade| {
                assert_eq!(h.board_ref().fen(), t.board_ref().fen());
                assert_eq!(h.events().last(), t.events().last());
            };
            let (hidden, twin) = (
                Masquerade::new(&params),
                Masquerade::new(&open(params.clone())),
            );
            crate::game::twins::same_rules(hidden, twin, &mut rng, pick, same_board);
            assert!(attempts > 0, "seed {seed}: no attempt was tried");
        }
    }
}

#[test]
fn rule_masquerade_open_assignments_is_a_parameter_left_out_when_off() {
    crate::game::twins::switch_is_a_parameter::<MasqueradeParams>(
        "masquerade",
        "open_assignments",
        "1",
    );
}

use super::*;
use crate::game::{conformance, replay};

fn pos(fen: &str) -> Synchronous {
    Synchronous::from_opening(&SynchronousParams::default(), fen).unwrap()
}

fn play(g: &mut Synchronous, tokens: &[&str]) {
    *g = replay(g.clone(), tokens).unwrap_or_else(|e| panic!("{tokens:?}: {e}"));
}

fn legal(g: &Synchronous, seat: Seat) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(seat, &mut v);
    let mut s: Vec<String> = v.into_iter().map(|a| g.action_notation(a)).collect();
    s.sort();
    s
}

fn at(g: &Synchronous, sq: &str) -> Option<char> {
    g.board_ref()
        .piece_at(Square::parse(sq).unwrap())
        .map(|p| p.char())
}

fn tally(g: &Synchronous, name: &str) -> f64 {
    g.tallies()
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
        .unwrap()
}

#[test]
fn synchronous_conforms_to_the_game_api() {
    conformance::check(&Synchronous::new(&SynchronousParams::default()), 30, 1);
    // A crowded middlegame, where collisions and exchanges of blows are common.
    conformance::check(
        &pos("r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 1"),
        30,
        2,
    );
}

#[test]
fn rule_moves_are_legal_as_if_each_side_were_to_move() {
    let g = Synchronous::new(&SynchronousParams::default());
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(legal(&g, 0).len(), 20);
    assert_eq!(legal(&g, 1).len(), 20);
    assert!(legal(&g, 0).contains(&"e2e4".to_string()));
    assert!(legal(&g, 1).contains(&"e7e5".to_string()));
    // The side field of a FEN means nothing: both sides move.
    let w = pos("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
    let b = pos("4k3/4r3/8/8/8/8/4B3/4K3 b - - 0 1");
    assert_eq!(legal(&w, 0), legal(&b, 0));
    // The pinned bishop may not move, as in orthodox chess.
    assert!(legal(&w, 0).iter().all(|m| !m.starts_with("e2")));
    assert!(legal(&w, 1).iter().any(|m| m.starts_with("e7")));
}

#[test]
fn rule_king_under_attack_may_only_move_the_king() {
    // The rook on a1 attacks the king: the bishop could block on b1 or d1 and the
    // knight could take the rook in orthodox chess, and castling is out of check.
    let g = pos("4k3/8/8/8/8/1N6/2B5/r3K2R w K - 0 1");
    let ortho: Vec<String> = g
        .board_ref()
        .legal_moves()
        .iter()
        .map(|&m| g.board_ref().uci(m))
        .collect();
    assert!(ortho.contains(&"c2d1".to_string()) && ortho.contains(&"b3a1".to_string()));
    assert_eq!(legal(&g, 0), ["e1d2", "e1e2", "e1f2"]);
    assert!(g.parse_action("c2d1").is_err());
    assert!(g.parse_action("e1g1").is_err());
}

#[test]
fn rule_king_may_not_move_to_a_square_attacked_before_the_move() {
    // Rook h1 and knight f3 both attack the king; d2 is the knight's, f1 the rook's.
    let g = pos("4k3/8/8/8/8/5n2/8/4K2r w - - 0 1");
    assert_eq!(legal(&g, 0), ["e1e2", "e1f2"]);
}

#[test]
fn rule_capture_when_the_target_stayed() {
    let mut g = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    play(&mut g, &["e4d5|e8e7"]);
    assert_eq!(at(&g, "d5"), Some('P'));
    assert_eq!(g.board_ref().pieces(Color::Black, Role::Pawn).count(), 0);
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(tally(&g, "dodged_captures"), 0.0);
}

#[test]
fn rule_capture_of_a_moving_piece_swaps() {
    let mut g = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    play(&mut g, &["e4d5|d5e4"]);
    assert_eq!(at(&g, "d5"), Some('P'));
    assert_eq!(at(&g, "e4"), Some('p'));
    assert_eq!(tally(&g, "swaps"), 1.0);
    assert_eq!(tally(&g, "dodged_captures"), 2.0);
}

#[test]
fn rule_pieces_pass_through_each_other() {
    let mut g = pos("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    play(&mut g, &["a1a8|a8a3"]);
    assert_eq!(at(&g, "a8"), Some('R'));
    assert_eq!(at(&g, "a3"), Some('r'));
    assert_eq!(tally(&g, "dodged_captures"), 1.0);
    assert_eq!(tally(&g, "swaps"), 0.0);
}

#[test]
fn rule_attacker_that_moved_still_counts() {
    // The rook attacked a3 from a1 before the move and attacks it from a8 after.
    let mut g = pos("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    play(&mut g, &["a1a8|a8a3"]);
    assert_eq!(g.turn(), Turn::Seat(0));
    assert_eq!(legal(&g, 0), ["a8a3", "pass"]);
    assert!(legal(&g, 1).is_empty());
}

#[test]
fn rule_both_pieces_captured_on_the_same_empty_square() {
    let mut g = pos("7k/8/8/8/8/1n6/8/1N5K w - - 0 1");
    play(&mut g, &["b1d2|b3d2"]);
    assert_eq!(at(&g, "d2"), None);
    assert_eq!(g.board_ref().by_role(Role::Knight).count(), 0);
    assert_eq!(tally(&g, "mutual_destructions"), 1.0);
    assert_eq!(tally(&g, "king_collisions"), 0.0);
}

#[test]
fn rule_king_and_piece_on_one_square_are_both_captured() {
    // e4 is not attacked by the pawn before the move, so the king may go there.
    let mut g = pos("7k/8/8/4p3/8/3K4/8/8 w - - 0 1");
    play(&mut g, &["d3e4|e5e4"]);
    assert_eq!(at(&g, "e4"), None);
    let r = g.result().unwrap();
    assert_eq!(r.reason, "king-captured");
    assert_eq!(r.returns[1], 1.0);
    assert_eq!(g.turn(), Turn::Terminal);
    assert_eq!(tally(&g, "king_collisions"), 1.0);
}

#[test]
fn rule_move_aimed_at_the_king_lands_on_the_empty_square() {
    let mut g = pos("4k3/8/8/8/8/8/8/4RK2 w - - 0 1");
    assert!(legal(&g, 0).contains(&"e1e8".to_string()));
    play(&mut g, &["e1e8|e8d8"]);
    assert_eq!(at(&g, "e8"), Some('R'));
    assert_eq!(at(&g, "d8"), Some('k'));
    assert!(g.result().is_none());
    assert_eq!(g.turn(), Turn::Simultaneous);
}

#[test]
fn rule_exchange_of_blows_opens_when_the_attacker_still_attacks() {
    let mut g = pos("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1");
    play(&mut g, &["f3e5|e8f8"]);
    assert_eq!(g.turn(), Turn::Seat(1));
    assert_eq!(legal(&g, 1), ["d6e5", "pass"]);
    play(&mut g, &["d6e5"]);
    // White has nothing that can recapture: the exchange is over.
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(at(&g, "e5"), Some('p'));
    assert_eq!(tally(&g, "exchanges"), 1.0);
}

#[test]
fn rule_no_exchange_when_the_attacker_no_longer_attacks() {
    let mut g = pos("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1");
    play(&mut g, &["f3e5|d6d5"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(tally(&g, "exchanges_offered"), 0.0);
}

#[test]
fn rule_exchange_alternates_until_a_pass() {
    let start = pos("7k/6b1/3p4/8/8/5N2/8/4R2K w - - 0 1");
    let mut g = start.clone();
    play(&mut g, &["f3e5|h8g8"]);
    assert_eq!(legal(&g, 1), ["d6e5", "g7e5", "pass"]);
    play(&mut g, &["d6e5"]);
    assert_eq!(g.turn(), Turn::Seat(0));
    assert_eq!(legal(&g, 0), ["e1e5", "pass"]);
    play(&mut g, &["e1e5"]);
    assert_eq!(g.turn(), Turn::Seat(1));
    assert_eq!(legal(&g, 1), ["g7e5", "pass"]);
    play(&mut g, &["pass"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(at(&g, "e5"), Some('R'));
    // A pass at the first recapture ends it at once.
    let mut h = start;
    play(&mut h, &["f3e5|h8g8", "d6e5", "pass"]);
    assert_eq!(h.turn(), Turn::Simultaneous);
    assert_eq!(at(&h, "e5"), Some('p'));
}

#[test]
fn rule_first_exchange_capture_by_any_legal_piece() {
    // The bishop's move opens the rook's file: the rook did not attack e5 before,
    // but may make the first capture.
    let mut g = pos("4r2k/8/3pb3/8/8/5N2/8/7K w - - 0 1");
    play(&mut g, &["f3e5|e6g4"]);
    assert_eq!(legal(&g, 1), ["d6e5", "e8e5", "pass"]);
}

/// Knights land on e5 and c6, each attacked before and after: both sides may
/// capture at once.
const TWO_EXCHANGES: &str = "1n5k/1p1n4/8/8/B7/5N2/8/4R2K w - - 0 1";

#[test]
fn rule_exchange_is_simultaneous_when_both_sides_may_capture() {
    let mut g = pos(TWO_EXCHANGES);
    play(&mut g, &["f3e5|b8c6"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(legal(&g, 0), ["a4c6", "e5c6", "pass"]);
    assert_eq!(legal(&g, 1), ["c6e5", "d7e5", "pass"]);
    play(&mut g, &["a4c6|d7e5"]);
    assert_eq!(at(&g, "c6"), Some('B'));
    assert_eq!(at(&g, "e5"), Some('n'));
    assert_eq!(g.turn(), Turn::Simultaneous);
    // A pass ends that square's exchange only.
    play(&mut g, &["pass|b7c6"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(at(&g, "c6"), Some('p'));
    assert_eq!(tally(&g, "exchanges"), 2.0);
    assert_eq!(tally(&g, "exchange_captures"), 3.0);
}

#[test]
fn rule_each_piece_captures_once_in_an_exchange() {
    let mut g = pos(TWO_EXCHANGES);
    play(&mut g, &["f3e5|b8c6", "a4c6|d7e5"]);
    // The knight now on e5 attacks c6 but has already captured.
    assert_eq!(legal(&g, 1), ["b7c6", "pass"]);
    assert_eq!(legal(&g, 0), ["e1e5", "pass"]);
    assert!(g.parse_action("e5c6").is_err());
}

#[test]
fn rule_spent_piece_stays_spent_whatever_squares_the_captures_share() {
    // The bishop reaches c2 (the queen attacked it there before and after) and the pawn
    // d3 (the bishop attacked it from b1 through c2): two exchanges at once. The queen's
    // capture lands on c2 just as the bishop's starts there, so the queen takes nothing,
    // but she has moved in this exchange and may not take the bishop on d3.
    let mut g = pos("7k/8/8/8/8/8/3P4/1b1Q3K w - - 0 1");
    play(&mut g, &["d2d3|b1c2"]);
    assert_eq!(legal(&g, 0), ["d1c2", "pass"]);
    assert_eq!(legal(&g, 1), ["c2d3", "pass"]);
    play(&mut g, &["d1c2|c2d3"]);
    assert_eq!((at(&g, "c2"), at(&g, "d3")), (Some('Q'), Some('b')));
    // The exchange is over (before the fix White was offered c2d3 here).
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert!(
        legal(&g, 0).contains(&"c2d3".to_string()),
        "a new turn frees her"
    );
    // The two captures swap squares: both rooks are spent where they now stand.
    let mut g = pos("3r3k/8/8/8/8/8/8/3R3K w - - 0 1");
    play(&mut g, &["d1d4|d8d6"]);
    assert_eq!(legal(&g, 0), ["d4d6", "pass"]);
    assert_eq!(legal(&g, 1), ["d6d4", "pass"]);
    play(&mut g, &["d4d6|d6d4"]);
    assert_eq!((at(&g, "d6"), at(&g, "d4")), (Some('R'), Some('r')));
    // Neither rook may take again: the exchange is over.
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert!(
        legal(&g, 0).contains(&"d6d4".to_string()),
        "a new turn frees it"
    );
}

#[test]
fn rule_exchange_may_take_a_king() {
    // The black king takes on e5 while the white knight's capture on d7 unmasks the
    // rook on a5, which is pinned to its own king but may still take a king.
    let mut g = pos("r2r4/8/5k2/R1N5/4P3/8/8/K7 w - - 0 1");
    play(&mut g, &["e4e5|d8d7"]);
    assert_eq!(legal(&g, 0), ["c5d7", "pass"]);
    assert_eq!(legal(&g, 1), ["f6e5", "pass"]);
    play(&mut g, &["c5d7|f6e5"]);
    assert_eq!(g.turn(), Turn::Seat(0));
    assert_eq!(legal(&g, 0), ["a5e5", "pass"]);
    let pinned = g.board_ref().legal_moves();
    assert!(pinned.iter().all(|&m| g.board_ref().uci(m) != "a5e5"));
    play(&mut g, &["a5e5"]);
    let r = g.result().unwrap();
    assert_eq!((r.reason, r.returns[0]), ("king-captured", 1.0));
}

#[test]
fn rule_both_kings_lost_at_once_is_a_draw() {
    // Each king takes on the other's exchange square, unmasking the other side's
    // rook; both rooks then take a king at once.
    let mut g = pos("8/3p4/5k1r/R1K5/4P3/8/8/8 w - - 0 1");
    play(&mut g, &["e4e5|d7d6", "c5d6|f6e5"]);
    assert_eq!(g.turn(), Turn::Simultaneous);
    assert_eq!(legal(&g, 0), ["a5e5", "pass"]);
    assert_eq!(legal(&g, 1), ["h6d6", "pass"]);
    play(&mut g, &["a5e5|h6d6"]);
    let r = g.result().unwrap();
    assert_eq!(r.reason, "both-kings-lost");
    assert_eq!(r.returns[0], 0.0);
    assert_eq!(r.returns[1], 0.0);
}

#[test]
fn rule_no_en_passant() {
    let mut g = pos("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1");
    play(&mut g, &["d2d4|e8d8"]);
    assert!(!legal(&g, 1).contains(&"e4d3".to_string()));
    assert!(g.parse_action("e4d3").is_err());
}

#[test]
fn rule_checkmate() {
    // A block on d8 would save Black in orthodox chess, but blocking is not legal.
    let g = pos("R5k1/5ppp/8/8/8/8/8/3r2K1 w - - 0 1");
    let mut b = g.board_ref().clone();
    b.set_state(Color::Black, Bitboard::EMPTY, None, 0, 1);
    assert!(b.has_legal_moves());
    let r = g.result().unwrap();
    assert_eq!((r.reason, r.returns[0]), ("checkmate", 1.0));
    assert_eq!(g.turn(), Turn::Terminal);
}

#[test]
fn rule_both_kings_checkmated_at_once_is_a_draw() {
    let g = pos("R5k1/5ppp/8/8/8/8/5PPP/r5K1 w - - 0 1");
    let r = g.result().unwrap();
    assert_eq!((r.reason, r.returns[0]), ("double-checkmate", 0.0));
}

#[test]
fn rule_stalemate_is_a_draw() {
    let g = pos("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1");
    let r = g.result().unwrap();
    assert_eq!((r.reason, r.returns[0]), ("stalemate", 0.0));
}

#[test]
fn rule_repetition_is_a_draw() {
    let mut g = Synchronous::new(&SynchronousParams::default());
    play(&mut g, &["g1f3|g8f6", "f3g1|f6g8", "g1f3|g8f6"]);
    assert!(g.result().is_none());
    play(&mut g, &["f3g1|f6g8"]);
    assert_eq!(g.result().unwrap().reason, "repetition");
}

#[test]
fn rule_fifty_turns_without_capture_or_pawn_move_is_a_draw() {
    let params = SynchronousParams {
        fifty_move_turns: 3,
        ..Default::default()
    };
    let mut g = Synchronous::new(&params);
    play(&mut g, &["g1f3|g8f6", "b1c3|b8c6"]);
    assert!(g.result().is_none());
    // A pawn move resets the count.
    play(&mut g, &["d2d3|a8b8", "a1b1|b8a8", "b1a1|a8b8"]);
    assert!(g.result().is_none());
    play(&mut g, &["a1b1|b8a8"]);
    assert_eq!(g.result().unwrap().reason, "fifty-moves");
}

#[test]
fn rule_ply_cap_counts_turns() {
    let params = SynchronousParams {
        ply_cap: 2,
        ..Default::default()
    };
    let mut g = Synchronous::new(&params);
    play(&mut g, &["g1f3|g8f6"]);
    assert!(g.result().is_none());
    play(&mut g, &["b1c3|b8c6"]);
    assert_eq!(g.result().unwrap().reason, "cap");
}

#[test]
fn rule_insufficient_material_is_a_draw() {
    let g = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1");
    assert_eq!(g.result().unwrap().reason, "insufficient-material");
    let g = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(g.result().unwrap().reason, "insufficient-material");
}

#[test]
fn rule_insufficient_material_is_only_bare_kings_or_one_minor() {
    // K+B v K and K+N v K draw at once.
    for fen in [
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
    ] {
        assert_eq!(
            pos(fen).result().unwrap().reason,
            "insufficient-material",
            "{fen}"
        );
    }
    // Two bishops on light squares (d1, f3) can still win: without a
    // check rule the black king may walk into a capture, so the game plays on.
    let mut g = pos("4k3/8/8/8/8/5B2/8/3BK3 w - - 0 1");
    assert!(g.result().is_none());
    play(&mut g, &["e1e2|e8d8"]);
    assert!(g.result().is_none());
    assert_eq!(g.turn(), Turn::Simultaneous);
    // Likewise a bishop and a knight, or two knights, on either side.
    for fen in [
        "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1n2K1N1 w - - 0 1",
    ] {
        assert!(pos(fen).result().is_none(), "{fen}");
    }
}

#[test]
fn rule_capture_aimed_at_a_castling_rook_takes_nothing() {
    let mut g = pos("4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1");
    play(&mut g, &["e1g1|h8h1"]);
    assert_eq!(at(&g, "g1"), Some('K'));
    assert_eq!(at(&g, "f1"), Some('R'));
    assert_eq!(at(&g, "h1"), Some('r'));
    assert_eq!(tally(&g, "dodged_captures"), 1.0);
    assert!(g.board_ref().castling_rights().is_empty());
}

#[test]
fn tallies_count_swaps_collisions_and_exchanges() {
    let mut g = pos("7k/6b1/3p4/8/8/5N2/8/4R2K w - - 0 1");
    let zero: Vec<f64> = g.tallies().into_iter().map(|t| t.1).collect();
    assert!(zero.iter().all(|&v| v == 0.0));
    play(&mut g, &["f3e5|h8g8", "d6e5", "e1e5"]);
    // Still open after two captures: the open exchange counts.
    assert_eq!(tally(&g, "exchange_captures"), 2.0);
    play(&mut g, &["g7e5"]);
    assert_eq!(tally(&g, "exchanges_offered"), 1.0);
    assert_eq!(tally(&g, "exchanges"), 1.0);
    assert_eq!(tally(&g, "exchange_captures"), 3.0);
    assert_eq!(tally(&g, "exchange_longest"), 3.0);
    g.undo();
    assert_eq!(tally(&g, "exchange_captures"), 2.0);
    assert_eq!(tally(&g, "exchange_longest"), 2.0);
}

#[test]
fn bad_input_is_a_typed_error_not_a_panic() {
    let g = Synchronous::new(&SynchronousParams::default());
    for bad in ["e2e5", "zz", "", "pass", "e1g1", "e7e5q"] {
        assert!(
            matches!(g.parse_action(bad), Err(GameError::Action { .. })),
            "{bad}"
        );
    }
    for joint in [
        "e2e4",
        "e2e4|e7e5|a2a3",
        "e7e5|e2e4",
        "e2e4|d2d4",
        "e2e4|",
        "e2e4|e7e6x",
        "pass|pass",
    ] {
        let r = replay(g.clone(), &[joint]);
        assert!(matches!(r, Err(GameError::Action { .. })), "{joint}");
    }
    // At an exchange seat node only that seat's captures and `pass` parse.
    let ex = pos("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1");
    assert!(replay(ex.clone(), &["f3e5|e8f8", "e1e2"]).is_err());
    assert!(replay(ex.clone(), &["f3e5|e8f8", "d6e5|pass"]).is_err());
    assert!(replay(ex, &["f3e5|e8f8", "d6e5"]).is_ok());
    let over = pos("R5k1/5ppp/8/8/8/8/8/3r2K1 w - - 0 1");
    assert!(replay(over, &["g1f2|g8h8"]).is_err());
}

#[test]
fn params_are_validated_and_registered() {
    assert!(SynchronousParams::default().validate().is_ok());
    for p in [
        SynchronousParams {
            ply_cap: 0,
            ..Default::default()
        },
        SynchronousParams {
            fifty_move_turns: 0,
            ..Default::default()
        },
        SynchronousParams {
            repetitions: 1,
            ..Default::default()
        },
    ] {
        assert!(p.validate().is_err());
        let text = toml::to_string(&p).unwrap();
        assert!(matches!(
            crate::registry::visit("synchronous", Some(&text), Name),
            Err(GameError::Params { .. })
        ));
    }
    assert!(Synchronous::from_opening(&SynchronousParams::default(), "nonsense").is_err());
    struct Name;
    impl crate::registry::VariantVisitor for Name {
        type Output = String;
        fn visit<G: Game>(self, name: &'static str, params: G::Params) -> String {
            format!("{name} {}", G::new(&params).num_seats())
        }
    }
    use crate::registry::visit;
    assert_eq!(visit("synchronous", None, Name).unwrap(), "synchronous 2");
    assert!(visit("synchronous", Some("repetitions = 0"), Name).is_err());
    assert!(visit("synchronous", Some("nope = 1"), Name).is_err());
}

#[test]
fn undo_restores_exchange_and_castling_state() {
    let mut g = pos(TWO_EXCHANGES);
    let k0 = g.state_key();
    play(&mut g, &["f3e5|b8c6"]);
    let k1 = g.state_key();
    let l1 = (legal(&g, 0), legal(&g, 1));
    play(&mut g, &["a4c6|d7e5"]);
    g.undo();
    assert_eq!(g.state_key(), k1);
    assert_eq!((legal(&g, 0), legal(&g, 1)), l1);
    g.undo();
    assert_eq!(g.state_key(), k0);
    assert_eq!(g.turn(), Turn::Simultaneous);
    let mut c = pos("4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1");
    let before = c.board_ref().clone();
    play(&mut c, &["e1g1|h8h1"]);
    c.undo();
    assert_eq!(c.board_ref(), &before);
    assert!(legal(&c, 0).contains(&"e1g1".to_string()));
}

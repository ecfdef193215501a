use super::*;
use crate::game::{conformance, replay, MATERIAL_FEATURES};

fn pos(opening: &str) -> Adrenaline {
    Adrenaline::from_opening(&AdrenalineParams::default(), opening).unwrap()
}

fn actions(g: &Adrenaline) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(g.actor().index(), &mut v);
    let mut v: Vec<String> = v.into_iter().map(|a| g.action_notation(a)).collect();
    v.sort();
    v
}

#[test]
fn nonzero_squares_matches_a_plain_scan() {
    let mut state = 19u64;
    for _ in 0..2000 {
        let mut stacks = [0u8; 64];
        for n in stacks.iter_mut() {
            let (next, r) = crate::random::splitmix64_next(state);
            state = next;
            *n = match r % 4 {
                0 => (r >> 8) as u8,
                1 => 1,
                _ => 0,
            };
        }
        let plain: Bitboard = (0..64)
            .filter(|&i| stacks[i] != 0)
            .map(|i| Bitboard(1u64 << i))
            .fold(Bitboard::EMPTY, |a, b| a | b);
        assert_eq!(nonzero_squares(&stacks), plain);
    }
}

#[test]
fn adrenaline_conforms_to_the_game_api() {
    // Short games: every legal-move test replays the turn on a copy.
    let params = AdrenalineParams {
        ply_cap: 120,
        ..Default::default()
    };
    conformance::check(&Adrenaline::new(&params), 4, 11);
}

#[test]
fn rule_capture_ends_with_one_checker_under_an_enemy_piece() {
    let g = replay(
        Adrenaline::new(&AdrenalineParams::default()),
        &["e2e4", "d7d5", "e4d5"],
    )
    .unwrap();
    assert_eq!(
        g.turn(),
        Turn::Seat(0),
        "white places a checker before black moves"
    );
    let acts = actions(&g);
    assert_eq!(acts.len(), 15, "one choice per remaining black piece");
    let g = replay(g, &["+h7"]).unwrap();
    assert_eq!(g.stack(Square::parse("h7").unwrap()), 1);
    assert_eq!(g.turn(), Turn::Seat(1));
}

#[test]
fn rule_stack_travels_and_buys_extra_king_steps() {
    let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | a1=2");
    let g = replay(g, &["a1a5"]).unwrap();
    assert_eq!(g.stack(Square::parse("a5").unwrap()), 2);
    assert!(actions(&g).contains(&"~b6".to_string()));
    let g = replay(g, &["~b6"]).unwrap();
    assert_eq!(g.stack(Square::parse("b6").unwrap()), 1);
    let g = replay(g, &["~c7"]).unwrap();
    assert_eq!(g.stack(Square::parse("c7").unwrap()), 0);
    assert_eq!(
        g.turn(),
        Turn::Seat(1),
        "no checkers left: the turn is over"
    );
}

#[test]
fn tallies_count_placements_steps_and_takeovers_and_undo_restores_them() {
    let tally = |g: &Adrenaline, name: &str| {
        g.tallies()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("no tally {name}"))
    };
    // White takes on d5 and pumps h7; black's h7 pawn then pushes and steps, and
    // later white's rook takes a knight carrying two checkers.
    let start = Adrenaline::new(&AdrenalineParams::default());
    let actions = ["e2e4", "d7d5", "e4d5", "+h7", "h7h6", "~g5", "g1f3"];
    let mut g = replay(start, &actions).unwrap();
    assert_eq!(g.tallies().len(), 7);
    assert_eq!(tally(&g, "checkers_placed"), 1.0);
    assert_eq!(tally(&g, "white_checkers_placed"), 1.0);
    assert_eq!(tally(&g, "black_checkers_placed"), 0.0);
    assert_eq!(tally(&g, "steps"), 1.0);
    assert_eq!(tally(&g, "black_steps"), 1.0);
    assert_eq!(tally(&g, "checkers_taken_over"), 0.0);
    for _ in 0..actions.len() {
        g.undo();
    }
    assert!(g.tallies().iter().all(|(_, v)| *v == 0.0));
    // Opening stacks are not placements; taking a carrier counts its checkers.
    let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1 | a5=2");
    assert_eq!(tally(&g, "checkers_placed"), 0.0);
    let g = replay(g, &["a1a5"]).unwrap();
    assert_eq!(tally(&g, "checkers_taken_over"), 2.0);
}

#[test]
fn material_hook_values_stacks_by_what_they_let_the_piece_do() {
    // A lone pawn a rank from promotion-by-steps: e5 with two checkers reaches e8
    // next turn (push to e6, step e7, step e8). Black is a pawn up on plain material;
    // the stack turns the sign.
    let g = pos("4k3/pp6/8/4P3/8/8/8/4K3 w - - 0 1 | e5=2");
    assert_eq!(material_balance(&g.board, Color::White), -1.0);
    let m = g.material(0);
    assert!((m - (-1.0 + 0.9 + PROMOTION_REACH)).abs() < 1e-9, "{m}");
    assert!(m > 0.0);
    assert_eq!(g.material(1), -m);
    // One checker: the pawn cannot get there yet, only the stack's own value.
    let g = pos("4k3/pp6/8/4P3/8/8/8/4K3 w - - 0 1 | e5=1");
    assert!((g.material(0) - (-1.0 + 0.5)).abs() < 1e-9);
    // The same checker is worth more under a knight than under the king.
    let knight = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 | d1=1");
    let king = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 | e1=1");
    assert!(knight.material(0) > king.material(0));
    // Tall stacks keep adding, a little per checker.
    let tall = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 | d1=6");
    assert!((tall.material(0) - 3.0 - 1.25 - 2.0 * STACK_TAIL).abs() < 1e-9);
}

#[test]
fn rule_capturing_piece_takes_over_checkers() {
    let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1 | a5=2");
    let g = replay(g, &["a1a5"]).unwrap();
    assert_eq!(g.stack(Square::parse("a5").unwrap()), 2);
    assert!(matches!(g.phase, Phase::Steps(_)), "may spend them at once");
}

#[test]
fn rule_placement_may_not_expose_the_placers_king() {
    // With a checker the e4 knight would reach g6 (via f6 or g5), so Black may only
    // place under the white king.
    let g = pos("7r/8/6k1/8/4N3/8/7P/K7 b - - 0 1");
    let g = replay(g, &["h8h2"]).unwrap();
    assert_eq!(actions(&g), vec!["+a1".to_string()]);
}

#[test]
fn rule_no_safe_placement_means_no_checker() {
    // The white king is the only white piece left, and with a checker it would
    // reach c3 (a1-b2, then a step): the capture ends Black's turn without a checker.
    let g = pos("7r/8/8/8/8/2k5/7P/K7 b - - 0 1");
    let g = replay(g, &["h8h2"]).unwrap();
    assert_eq!(g.turn(), Turn::Seat(0));
    assert_eq!(g.stack(Square::parse("a1").unwrap()), 0);
}

#[test]
fn rule_adrenaline_reach_gives_check() {
    // A black pawn with one checker on h5 reaches g4 by pushing and stepping, so a
    // white king may not stand on g3? It reaches h4 (push) then g3 (step): attacked.
    let g = pos("4k3/8/8/7p/8/8/8/4K3 w - - 0 1 | h5=1");
    assert!(g.attacked(Square::parse("g3").unwrap(), Color::Black));
    assert!(!g.attacked(Square::parse("e3").unwrap(), Color::Black));
}

#[test]
fn rule_adrenaline_reach_includes_the_double_step() {
    // f2-f4 is a regular move, and one step from f4 reaches e5.
    let g = pos("8/8/8/4k3/8/8/5P2/4K3 b - - 0 1 | f2=1");
    assert!(g.attacked(Square::parse("e5").unwrap(), Color::White));
    assert!(g.in_check());
    let g = pos("8/8/8/4k3/8/5p2/5P2/4K3 b - - 0 1 | f2=1");
    assert!(
        !g.attacked(Square::parse("e5").unwrap(), Color::White),
        "blocked"
    );
}

#[test]
fn rule_king_must_be_safe_after_regular_move_and_steps() {
    // The white king may not step next to a pumped black rook's reach.
    let g = pos("4k3/8/8/8/8/8/r7/4K3 w - - 0 1 | a2=1");
    // The rook reaches the 2nd rank and one step beyond: the 1st rank too.
    let acts = actions(&g);
    assert!(
        acts.is_empty(),
        "checkmate: every square is within reach: {acts:?}"
    );
    assert_eq!(g.result().map(|r| r.reason), Some("checkmate"));
}

#[test]
fn rule_no_castling_with_checkers() {
    let g = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1 | h1=1");
    assert!(!actions(&g).contains(&"e1g1".to_string()));
    let g = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(actions(&g).contains(&"e1g1".to_string()));
}

#[test]
fn rule_no_castling_through_adrenaline_attack() {
    // The black knight on e4 with a checker reaches f2 by a regular move... and g1
    // or f1 by a step from there.
    let g = pos("4k3/8/8/8/4n3/8/8/4K2R w K - 0 1 | e4=1");
    assert!(!actions(&g).contains(&"e1g1".to_string()));
}

#[test]
fn rule_en_passant_never_after_an_extra_step() {
    let g = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 | d7=1");
    let g = replay(g, &["d7d5"]).unwrap();
    // The pawn may step on; if it stops, en passant is available.
    let stopped = replay(g.clone(), &["stop"]).unwrap();
    assert!(actions(&stopped).contains(&"e5d6".to_string()));
    let stepped = replay(g, &["~c5"]).unwrap();
    assert!(!actions(&stepped).contains(&"e5d6".to_string()));
    assert_eq!(stepped.board.ep_square(), None);
}

#[test]
fn rule_seed_example_mate_with_the_pumped_up_bishop() {
    // White's trapped c1 bishop carries three checkers. The black queen can take it
    // and spend them to reach f2 and every square around it within three steps; the
    // h5 pawn's checker covers g3; g1 and g2 are blocked. Checkmate.
    let mate = "7k/2q5/8/7p/8/8/1P1P1KPP/2B3N1 w - - 0 1";
    let g = pos(&format!("{mate} | c1=3 h5=1"));
    assert!(g.in_check());
    let r = g.result().expect("checkmate");
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[1], 1.0);
    // Without the checkers on c1 the white king just walks away.
    let g = pos(&format!("{mate} | h5=1"));
    assert!(g.result().is_none());
}

#[test]
fn rule_promotion_on_arrival_then_steps() {
    let g = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 | a7=1");
    let g = replay(g, &["a7a8q"]).unwrap();
    assert_eq!(
        g.board
            .piece_at(Square::parse("a8").unwrap())
            .map(|p| p.role),
        Some(Role::Queen)
    );
    assert!(actions(&g).contains(&"~b7".to_string()));
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

#[test]
fn rule_pawn_steps_start_only_where_it_can_really_go() {
    // The g3 pawn pushes to g2 and steps from there (f1 is covered); its empty
    // diagonals are attacked but are no start for steps, so e2 and d2 are safe.
    let g = pos("4k3/8/8/8/8/6p1/8/4K3 w - - 0 1 | g3=1");
    assert!(!g.in_check());
    assert_eq!(actions(&g), ["e1d1", "e1d2", "e1e2"]);
    assert!(g.attacked(sq("f2"), Color::Black), "orthodox diagonal");
    assert!(g.attacked(sq("f1"), Color::Black), "push, then a step");
    assert!(!g.attacked(sq("e2"), Color::Black));
}

#[test]
fn rule_blocked_pawn_reaches_nothing_beyond_its_diagonals() {
    // The e3 pawn can neither push nor capture: no mate, castling is open.
    let g = pos("4k3/8/8/8/8/4p3/4P3/4K2R w K - 0 1 | e3=1");
    assert_eq!(g.result(), None);
    let acts = actions(&g);
    for mv in ["e1d1", "e1f1", "e1g1"] {
        assert!(acts.contains(&mv.to_string()), "{mv} in {acts:?}");
    }
    assert!(
        !acts.contains(&"e1d2".to_string()),
        "d2 is on the pawn's diagonal"
    );
}

#[test]
fn rule_placement_under_a_blocked_pawn_is_safe() {
    // With a checker the b6 pawn still cannot move (b7 blocks, a7 and c7 are empty),
    // so it threatens nothing new: both white pieces may receive the checker.
    let g = pos("7r/1p1k4/1P6/8/8/8/8/4K2N b - - 0 1");
    let g = replay(g, &["h8h1"]).unwrap();
    assert_eq!(actions(&g), ["+b6", "+e1"]);
}

#[test]
fn rule_reach_may_pass_back_over_the_square_the_piece_left() {
    // The e5 rook with two checkers: e5-e6, a step back onto the empty e5, a step
    // to d4. Its own knights on d5 and e4 block every other way.
    let g = pos("7k/8/8/3nrb2/2K1n3/8/8/8 w - - 0 1 | e5=2");
    assert!(g.attacked(sq("d4"), Color::Black));
    assert!(!actions(&g).contains(&"c4d4".to_string()));
    // With one checker the rook cannot come back: d4 is free.
    let g = pos("7k/8/8/3nrb2/2K1n3/8/8/8 w - - 0 1 | e5=1");
    assert!(actions(&g).contains(&"c4d4".to_string()));
}

#[test]
fn rule_reach_keeps_en_passant_and_the_steps_after_it() {
    // After e2-e4 the d4 pawn may take en passant on e3 and step to f3: the white
    // king there forbids the double push. Without the checker it is legal.
    let g = pos("4k3/8/8/8/3p4/5K2/4P3/8 w - - 0 1 | d4=1");
    assert!(!actions(&g).contains(&"e2e4".to_string()));
    let g = pos("4k3/8/8/8/3p4/5K2/4P3/8 w - - 0 1");
    assert!(actions(&g).contains(&"e2e4".to_string()));
    // The taker wins the checkers of the pawn taken en passant: here the e2 pawn
    // carries the checker, and d4xe3 e.p. then a step reaches f3 all the same.
    let g = pos("4k3/8/8/8/3p4/5K2/4P3/8 w - - 0 1 | e2=1");
    assert!(!actions(&g).contains(&"e2e4".to_string()));
}

#[test]
fn rule_repetition_counts_positions_between_whole_turns() {
    // Both rooks carry a checker, so every move is followed by `stop`: the start
    // position comes back after four turns and a third time after eight.
    let g = pos("4k2r/8/8/8/8/8/8/R3K3 w - - 0 1 | a1=1 h8=1");
    let cycle = [
        "a1a2", "stop", "h8h7", "stop", "a2a1", "stop", "h7h8", "stop",
    ];
    let g = replay(g, &cycle).unwrap();
    assert_eq!(g.result(), None, "second occurrence");
    let g = replay(g, &cycle).unwrap();
    assert_eq!(g.result().map(|r| r.reason), Some("repetition"));
}

#[test]
fn rule_bare_material_draws_even_with_checkers_on_the_board() {
    // From the reference's game: K v K with a checker under the white king used to
    // play on (any checker on the board counted as mating power). RULES.md: K v K
    // and K+minor v K are the insufficient material of every variant.
    let g = pos("8/2k5/8/6K1/8/8/8/8 w - - 0 1 | g5=1");
    assert_eq!(g.result().map(|r| r.reason), Some("insufficient-material"));
    let g = pos("8/2k5/8/6K1/8/8/3N4/8 b - - 0 1 | d2=2 c7=1");
    assert_eq!(g.result().map(|r| r.reason), Some("insufficient-material"));
    // A capture leaving K v K: the draw comes once the turn (steps, placement) ends.
    let g = pos("8/2k5/2n5/8/8/8/8/2R1K3 w - - 0 1");
    let mut g = replay(g, &["c1c6", "+c7", "c7c6"]).unwrap();
    assert_eq!(g.result(), None, "Black's turn is not over yet");
    assert_eq!(g.board_ref().occupied().count(), 2);
    let mut acts = Vec::new();
    while g.result().is_none() && g.turn() == Turn::Seat(1) {
        g.legal_actions(1, &mut acts);
        let stop = acts.iter().copied().find(|&a| a == AdrenalineAction::Stop);
        g.apply(stop.unwrap_or(acts[0]));
    }
    assert_eq!(g.result().map(|r| r.reason), Some("insufficient-material"));
    // Two minors play on, as elsewhere.
    let g = pos("8/2k5/8/6K1/8/8/3NN3/8 w - - 0 1 | g5=1");
    assert_eq!(g.result(), None);
}

#[test]
fn rule_spent_checkers_return_to_the_supply() {
    // A box of two checkers, both under the a1 rook. Taking on a2 and spending one
    // step puts a checker back beside the board, so the capture earns a placement.
    let params = AdrenalineParams {
        checkers_total: 2,
        ..Default::default()
    };
    let g = Adrenaline::from_opening(&params, "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1 | a1=2").unwrap();
    let g = replay(g, &["a1a2", "~a3", "stop"]).unwrap();
    assert_eq!(g.stack(sq("a3")), 1);
    assert_eq!(actions(&g), ["+e8"]);
    let g = replay(g, &["+e8"]).unwrap();
    assert_eq!(g.checkers_on_board(), 2);
    assert_eq!(g.supply(), 0);
    // Without the step both checkers are still in use: no placement.
    let g = Adrenaline::from_opening(&params, "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1 | a1=2").unwrap();
    let g = replay(g, &["a1a2", "stop"]).unwrap();
    assert_eq!(g.turn(), Turn::Seat(1));
    // An opening may not hold more checkers than the box.
    let err = Adrenaline::from_opening(&params, "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1 | a1=3");
    assert!(matches!(err, Err(GameError::Opening { .. })));
}

#[test]
fn rule_promotion_by_an_extra_step_offers_every_role() {
    let g = pos("4k3/8/P7/8/8/8/8/4K3 w - - 0 1 | a6=1");
    let g = replay(g, &["a6a7"]).unwrap();
    let acts = actions(&g);
    for r in ["n", "b", "r", "q"] {
        assert!(acts.contains(&format!("~b8{r}")), "~b8{r} in {acts:?}");
    }
    assert!(!acts.contains(&"~b8".to_string()));
    assert!(
        acts.contains(&"~b7".to_string()),
        "no promotion off the last rank"
    );
    let g = replay(g, &["~b8n"]).unwrap();
    assert_eq!(
        g.board.piece_at(sq("b8")),
        Some(crate::square::Piece::new(Color::White, Role::Knight))
    );
}

mod reference;

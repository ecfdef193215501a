use super::*;
use crate::game::{conformance, replay};

fn pos(fen: &str) -> Expedition {
    Expedition::from_opening(&ExpeditionParams::default(), fen).unwrap()
}

fn tokens(g: &Expedition) -> Vec<String> {
    let mut v = Vec::new();
    if let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut v);
    }
    let mut t: Vec<String> = v.into_iter().map(|a| g.action_notation(a)).collect();
    t.sort();
    t
}

fn act(g: &Expedition, text: &str) -> ExpeditionAction {
    g.parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn piece(g: &Expedition, s: &str) -> Option<char> {
    g.board.piece_at(sq(s)).map(|p| p.char())
}

fn tally(g: &Expedition, name: &str) -> f64 {
    g.tallies()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no tally {name}"))
        .1
}

#[test]
fn expedition_conforms_to_the_game_api() {
    let params = ExpeditionParams {
        ply_cap: 160,
        ..Default::default()
    };
    conformance::check(&Expedition::new(&params), 6, 21);
    let mid = Expedition::from_opening(
        &params,
        "r3k2r/pp1q1ppp/2n1bn2/2bpp3/4P3/2NP1N2/PPPBBPPP/R2QK2R w KQkq - 0 1",
    )
    .unwrap();
    conformance::check(&mid, 4, 22);
}

#[test]
fn rule_pawns_knights_kings_and_one_square_slider_moves_are_certain() {
    let g = pos("4k3/8/8/8/8/8/3PQ3/1N2K3 w - - 0 1");
    let mut acts = Vec::new();
    g.legal_actions(0, &mut acts);
    for a in &acts {
        let m = match *a {
            ExpeditionAction::Move(m) | ExpeditionAction::Attempt(m) => m,
            _ => panic!("only moves and attempts at a turn's start"),
        };
        let role = g.board.piece_at(m.from()).unwrap().role;
        let certain = matches!(a, ExpeditionAction::Move(_));
        assert_eq!(
            certain,
            !is_slider(role) || length(m) == 1,
            "{:?} {role:?}",
            m
        );
    }
    for t in ["d2d4", "b1c3", "e1f1", "e2e3", "e2f3"] {
        let h = replay(g.clone(), &[t]).unwrap();
        assert_eq!(h.turn(), Turn::Seat(1), "{t} is played at once");
    }
}

#[test]
fn rule_slider_move_of_two_or_more_squares_is_an_attempt_then_dice() {
    let g = pos("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1");
    let a = act(&g, "e2e5");
    assert_eq!(
        a,
        ExpeditionAction::Attempt(Move::normal(sq("e2"), sq("e5")))
    );
    let h = replay(g.clone(), &["e2e5"]).unwrap();
    assert_eq!(h.turn(), Turn::Chance);
    assert_eq!(h.pending(), Some((Move::normal(sq("e2"), sq("e5")), None)));
    assert_eq!(piece(&h, "e2"), Some('Q'), "nothing moves before the dice");
    assert_ne!(h.state_key(), g.state_key(), "the key covers the attempt");
    let mut out = Vec::new();
    h.chance_outcomes(&mut out);
    let rolls: Vec<ExpeditionAction> = out.iter().map(|o| o.0).collect();
    assert_eq!(
        rolls,
        vec![
            ExpeditionAction::Roll(1),
            ExpeditionAction::Roll(2),
            ExpeditionAction::Roll(3)
        ]
    );
    let full = replay(h.clone(), &["roll:3"]).unwrap();
    assert_eq!(piece(&full, "e5"), Some('Q'));
    assert_eq!(full.turn(), Turn::Seat(1));
}

#[test]
fn rule_chance_odds_are_the_table_folded_over_two_dice() {
    let g = Expedition::new(&ExpeditionParams::default());
    for n in MIN_ATTEMPT..=MAX_ATTEMPT {
        let odds = g.roll_odds(n);
        let total: f64 = odds.iter().map(|o| o.1).sum();
        assert!((total - 1.0).abs() < 1e-12, "row {n} sums to {total}");
        // Brute force over the 36 throws.
        let mut expect = [0u32; 8];
        for a in 1..=6usize {
            for b in 1..=6usize {
                expect[SEED_TABLE[(n - 2) as usize][a + b - 2] as usize] += 1;
            }
        }
        let distinct: Vec<u8> = (1..=7u8).filter(|&m| expect[m as usize] > 0).collect();
        assert_eq!(odds.iter().map(|o| o.0).collect::<Vec<_>>(), distinct);
        for &(m, p) in &odds {
            assert!((p - expect[m as usize] as f64 / 36.0).abs() < 1e-12);
        }
    }
    // Two spot checks by hand: 2 squares succeed on sums 4..10 (30 of 36); 7
    // squares only on a 7 (6 of 36).
    assert_eq!(g.roll_odds(2), vec![(1, 6.0 / 36.0), (2, 30.0 / 36.0)]);
    let seven = g.roll_odds(7);
    assert_eq!(seven.last(), Some(&(7, 6.0 / 36.0)));
    assert_eq!(seven.first(), Some(&(1, 1.0 / 36.0)));
}

#[test]
fn rule_full_length_attempt_captures() {
    let g = pos("4k3/8/8/4r3/8/8/4Q3/4K3 w - - 0 1");
    let g = replay(g, &["e2e5", "roll:3"]).unwrap();
    assert_eq!(piece(&g, "e5"), Some('Q'));
    assert_eq!(g.board.pieces(Color::Black, Role::Rook).count(), 0);
}

#[test]
fn rule_only_the_full_length_move_captures() {
    let g = pos("4k3/8/8/4r3/8/8/4Q3/4K3 w - - 0 1");
    let h = replay(g, &["e2e5", "roll:2"]).unwrap();
    assert_eq!(h.turn(), Turn::Seat(0), "the mover chooses");
    assert_eq!(tokens(&h), vec!["go:e3", "go:e4"], "no choice reaches e5");
    let h = replay(h, &["go:e4"]).unwrap();
    assert_eq!(piece(&h, "e4"), Some('Q'));
    assert_eq!(piece(&h, "e5"), Some('r'), "the rook survives");
}

#[test]
fn rule_shortened_attempt_chooses_any_distance_up_to_the_roll_on_the_same_ray() {
    let g = pos("4k3/7p/8/8/8/8/7P/B3K3 w - - 0 1");
    let h = replay(g, &["a1g7", "roll:4"]).unwrap();
    assert_eq!(
        h.pending(),
        Some((Move::normal(sq("a1"), sq("g7")), Some(4)))
    );
    assert_eq!(tokens(&h), vec!["go:b2", "go:c3", "go:d4", "go:e5"]);
    assert_eq!(act(&h, "go:3"), ExpeditionAction::Distance(3));
    assert!(h.parse_action("go:f6").is_err(), "beyond the roll");
    assert!(h.parse_action("go:b1").is_err(), "off the ray");
    let h = replay(h, &["go:c3"]).unwrap();
    assert_eq!(piece(&h, "c3"), Some('B'));
    assert_eq!(h.turn(), Turn::Seat(1));
}

#[test]
fn rule_roll_of_one_moves_one_square_without_a_decision() {
    let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let h = replay(g, &["a1a8", "roll:1"]).unwrap();
    assert_eq!(piece(&h, "a2"), Some('R'));
    assert_eq!(h.turn(), Turn::Seat(1), "no second decision");
    assert_eq!(h.seed_moves(), vec!["Ra2(a2,a8)"]);
}

#[test]
fn rule_distant_slider_attack_may_be_ignored_or_walked_into() {
    // The black rook on e8 checks the white king on e1 from seven squares away.
    let g = pos("4r3/8/8/8/8/8/P7/4K2k w - - 0 1");
    let t = tokens(&g);
    assert!(t.contains(&"a2a3".to_string()), "leave the check: a gamble");
    assert!(
        t.contains(&"e1e2".to_string()),
        "step along the checking file"
    );
    let h = replay(g, &["a2a3"]).unwrap();
    assert_eq!(tally(&h, "gambles"), 1.0);
    // Black may now try to take the king: an attempt of 7 squares.
    assert_eq!(
        act(&h, "e8e1"),
        ExpeditionAction::Attempt(Move::normal(sq("e8"), sq("e1")))
    );
    // Walking into a distant check is allowed too (the a2 pawn: no lone king).
    let g = pos("4r3/8/8/8/8/8/P7/3K3k w - - 0 1");
    let t = tokens(&g);
    assert!(t.contains(&"d1e1".to_string()) && t.contains(&"d1e2".to_string()));
}

#[test]
fn rule_certain_attackers_make_a_move_illegal() {
    // The knight on d3 checks e1 and covers f2: the king must step to d1, d2, e2 or f1.
    let g = pos("7k/8/8/8/8/3n4/P7/4K3 w - - 0 1");
    assert_eq!(tokens(&g), vec!["e1d1", "e1d2", "e1e2", "e1f1"]);
    // Pawn on e3 covers d2 and f2; the king next door covers its ring.
    let g = pos("8/8/8/8/8/4pk2/8/4K3 w - - 0 1");
    let t = tokens(&g);
    assert!(!t.contains(&"e1d2".to_string()), "pawn: {t:?}");
    assert!(!t.contains(&"e1f2".to_string()), "pawn and king: {t:?}");
    assert!(!t.contains(&"e1e2".to_string()), "king: {t:?}");
    assert!(t.contains(&"e1d1".to_string()));
}

#[test]
fn rule_adjacent_slider_attack_is_certain() {
    // The black rook on d2 attacks e2 from next door (certain) and f2, g2 from afar.
    // (White's a4 pawn, blocked, keeps the king from being a lone king.)
    let g = pos("7k/8/8/p7/P7/8/3r4/5K2 w - - 0 1");
    assert_eq!(tokens(&g), vec!["f1e1", "f1f2", "f1g1", "f1g2"]);
    // A queen next to the king must be answered: take it or step off its reach
    // (f1 stays on its rank two squares away: a gamble, allowed).
    let g = pos("7k/8/8/p7/P7/8/8/3qK3 w - - 0 1");
    assert_eq!(tokens(&g), vec!["e1d1", "e1f1", "e1f2"]);
}

#[test]
fn rule_castling_is_certain_and_orthodox() {
    let g = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let t = tokens(&g);
    assert!(t.contains(&"e1g1".to_string()) && t.contains(&"e1c1".to_string()));
    let h = replay(g.clone(), &["e1c1"]).unwrap();
    assert_eq!(
        h.turn(),
        Turn::Seat(1),
        "the rook's three squares are no expedition"
    );
    assert_eq!(piece(&h, "d1"), Some('R'));
    // Out of check from afar: not allowed, though the king could stay in it.
    let g = pos("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let t = tokens(&g);
    assert!(!t.contains(&"e1g1".to_string()) && !t.contains(&"e1c1".to_string()));
    // Through an attack (f1, by a distant bishop) and into one (c1, a distant rook).
    let g = pos("2r3k1/8/8/8/8/7b/8/R3K2R w KQ - 0 1");
    let t = tokens(&g);
    assert!(!t.contains(&"e1g1".to_string()), "through f1: {t:?}");
    assert!(!t.contains(&"e1c1".to_string()), "into c1: {t:?}");
    // b1 attacked does not matter for the long castle (the king does not cross it).
    let g = pos("1r4k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(tokens(&g).contains(&"e1c1".to_string()));
}

#[test]
fn rule_king_capture_wins() {
    let g = pos("7k/8/8/8/8/8/8/4K2R w - - 0 1");
    let h = replay(g, &["h1h8", "roll:7"]).unwrap();
    let r = h.result().expect("the king is taken");
    assert_eq!(r.reason, "king-captured");
    assert_eq!(r.returns[0], 1.0);
    assert_eq!(h.turn(), Turn::Terminal);
    assert_eq!(tally(&h, "king_captures"), 1.0);
    assert!(tokens(&h).is_empty());
}

#[test]
fn rule_no_moves_under_certain_attack_loses() {
    // Smothered: the knight on f2 checks h1 and nothing can answer it.
    let g = pos("7k/8/8/8/8/8/5nPP/6RK w - - 0 1");
    let r = g.result().expect("no legal action");
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[1], 1.0);
    // The knight on f1 gives no check: play goes on.
    let g = pos("7k/8/8/8/8/8/6PP/5nRK w - - 0 1");
    assert!(g.result().is_none());
}

#[test]
fn rule_no_moves_without_certain_attack_is_stalemate() {
    // a2, b2 next to the black king and b1 under the knight: no legal action; the
    // king on a1 is attacked only by the distant rook, so it is stalemate. (White's
    // blocked a4 pawn: not a lone king, which would be mated.)
    let g = pos("8/8/p7/P7/8/1k6/3n4/K6r w - - 0 1");
    let r = g.result().expect("no legal action");
    assert_eq!(r.reason, "stalemate");
    assert_eq!(r.returns[0], 0.0);
    // Seed: a king that can only step into distant checks must do so.
    let g = pos("7k/8/8/p7/P7/8/7r/K5r1 w - - 0 1");
    assert_eq!(tokens(&g), vec!["a1a2", "a1b1", "a1b2"]);
    assert!(g.result().is_none());
}

#[test]
fn rule_lone_king_is_checkmated_by_a_distant_queen() {
    // Issue 11: the queen checks a8 from h8; b8 (the queen's rank) and a7, b7 (the
    // white king) are all attacked, and a lone king may not step into any attack.
    let g = pos("k6Q/8/1K6/8/8/8/8/8 b - - 0 1");
    assert!(g.lone_king(Color::Black));
    assert!(tokens(&g).is_empty());
    let r = g.result().expect("no legal move");
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[0], 1.0);
    // With a pawn to spare Black is not bound: Kb8 is a gamble on the dice.
    let g = pos("k6Q/7p/1K6/8/8/8/8/8 b - - 0 1");
    assert!(tokens(&g).contains(&"a8b8".to_string()));
    assert!(g.result().is_none());
}

#[test]
fn rule_lone_king_must_leave_every_check_and_not_step_into_attack() {
    // The e8 rook checks the lone white king from afar: staying on the file (e2) is
    // no longer a gamble it may take.
    let g = pos("4r3/8/8/8/8/8/8/4K2k w - - 0 1");
    assert_eq!(tokens(&g), vec!["e1d1", "e1d2", "e1f1", "e1f2"]);
    // Not in check, it may not walk into the rook's file either.
    let g = pos("4r3/8/8/8/8/8/8/3K3k w - - 0 1");
    assert_eq!(tokens(&g), vec!["d1c1", "d1c2", "d1d2"]);
    // With a pawn to spare, walking into the file is a gamble again.
    let g = pos("4r3/8/8/8/8/8/P7/3K3k w - - 0 1");
    assert!(tokens(&g).contains(&"d1e2".to_string()));
}

#[test]
fn rule_lone_king_without_moves_or_check_is_stalemated() {
    // The queen covers a7, b7 and b8 but not a8: stalemate. Without the lone-king
    // rule Kb8 (two squares from the queen) would be a gamble.
    let g = pos("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    let r = g.result().expect("no legal move");
    assert_eq!(r.reason, "stalemate");
    assert_eq!(r.returns[0], 0.0);
}

#[test]
fn rule_cut_short_attempt_offers_safe_distances_else_every_distance() {
    // The e2 rook's attempt on e7 cut to 3: every stop e3..e5 leaves the white king
    // safe from certain attackers, so all three are offered.
    let g = pos("k7/8/8/8/8/8/4R3/K7 w - - 0 1");
    let h = replay(g, &["e2e7", "roll:3"]).unwrap();
    assert_eq!(tokens(&h), vec!["go:e3", "go:e4", "go:e5"]);
    // The knight on f3 checks the white king; only the full move takes it. After a
    // roll of 2 no stop is safe, so every distance is offered (see
    // `rule_shortened_outcome_may_leave_the_king_to_be_captured`).
    let g = pos("5R2/k7/8/8/8/5n2/8/4K3 w - - 0 1");
    let h = replay(g, &["f8f3", "roll:2"]).unwrap();
    assert_eq!(tokens(&h), vec!["go:f6", "go:f7"]);
}

#[test]
fn rule_shortened_outcome_may_leave_the_king_to_be_captured() {
    // The knight on f3 checks the white king. The rook on f8 attempts to take it
    // (5 squares): legal by its full-length result. A roll of 2 leaves the knight in
    // place; no distance is safe, so every one is offered and black takes the king.
    let g = pos("5R2/k7/8/8/8/5n2/8/4K3 w - - 0 1");
    let t = tokens(&g);
    assert!(t.contains(&"f8f3".to_string()), "{t:?}");
    assert!(
        !t.contains(&"f8f4".to_string()),
        "leaves the knight's check"
    );
    let h = replay(g, &["f8f3", "roll:2", "go:f6"]).unwrap();
    assert_eq!(h.turn(), Turn::Seat(1));
    assert!(tokens(&h).contains(&"f3e1".to_string()));
    let h = replay(h, &["f3e1"]).unwrap();
    let r = h.result().unwrap();
    assert_eq!(r.reason, "king-captured");
    assert_eq!(r.returns[1], 1.0);
}

#[test]
fn rule_capturing_the_king_is_legal_even_if_the_own_king_hangs() {
    // The queen next to the white king is a certain attack; any rook move but the
    // attempt on the black king leaves it. Taking the king ends the game at once.
    let g = pos("7R/8/8/8/8/8/1q5k/K7 w - - 0 1");
    assert_eq!(tokens(&g), vec!["a1b2", "h8h2"]);
}

#[test]
fn rule_orthodox_draws_and_the_ply_cap() {
    let g = pos("4k3/8/8/8/8/8/8/4KB2 w - - 0 1");
    assert_eq!(g.result().unwrap().reason, "insufficient-material");
    let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    let h = replay(g, &["e1d1"]).unwrap();
    assert_eq!(h.result().unwrap().reason, "fifty-moves");
    let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let h = replay(
        g.clone(),
        &[
            "e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1", "d8e8",
        ],
    )
    .unwrap();
    assert_eq!(h.result().unwrap().reason, "repetition");
    // Through expeditions too: only turn starts are compared.
    let cycle = ["a1a3", "roll:2", "e8d8", "a3a1", "roll:2", "d8e8"];
    let h = replay(g.clone(), &cycle).unwrap();
    let h = replay(h, &cycle[..cycle.len() - 1]).unwrap();
    assert!(h.result().is_none());
    let h = replay(h, &["d8e8"]).unwrap();
    assert_eq!(h.result().unwrap().reason, "repetition");
    let capped = Expedition::from_opening(
        &ExpeditionParams {
            ply_cap: 2,
            ..Default::default()
        },
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    )
    .unwrap();
    let h = replay(capped.clone(), &["e1d1"]).unwrap();
    assert!(h.result().is_none());
    let h = replay(capped, &["e1d1", "e8d8"]).unwrap();
    assert_eq!(h.result().unwrap().reason, "cap");
    // Attempts and rolls in between do not count as plies.
    let h = replay(g, &["a1a5", "roll:2", "go:a3", "e8d8", "a3a1", "roll:2"]);
    let h = h.unwrap();
    assert_eq!(h.board.ply(), 3);
}

#[test]
fn rule_notation_seed_example_round_trips() {
    let g = pos("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1");
    let actions = g.parse_seed_move("Qe4(e5,e8)").unwrap();
    assert_eq!(
        actions,
        vec![
            ExpeditionAction::Attempt(Move::normal(sq("e2"), sq("e8"))),
            ExpeditionAction::Roll(3),
            ExpeditionAction::Distance(2)
        ]
    );
    let mut h = g.clone();
    for &a in &actions {
        h.apply(a);
    }
    assert_eq!(piece(&h, "e4"), Some('Q'));
    assert_eq!(h.seed_moves(), vec!["Qe4(e5,e8)"]);
    assert_eq!(h.seed_movetext(), "1. Qe4(e5,e8)");
    // The record tokens of the same move.
    let mut rec = Vec::new();
    let mut k = g.clone();
    for &a in &actions {
        rec.push(k.action_notation(a));
        k.apply(a);
    }
    assert_eq!(rec, vec!["e2e8", "roll:3", "go:e4"]);
}

#[test]
fn rule_notation_full_success_is_plain_san() {
    let g = pos("4k3/8/8/4r3/8/8/4Q3/4K3 w - - 0 1");
    let a = g.parse_seed_move("Qxe5").unwrap();
    assert_eq!(a.len(), 2);
    let h = replay(g.clone(), &["e2e5", "roll:3"]).unwrap();
    assert_eq!(h.seed_moves(), vec!["Qxe5"]);
    let h = replay(h, &["e8d8", "e1f1"]).unwrap();
    assert_eq!(h.seed_movetext(), "1. Qxe5 Kd8 2. Kf1");
    assert!(
        g.parse_seed_move("Qe6(e5,e8)").is_err(),
        "e8 is behind the rook"
    );
    assert_eq!(
        g.parse_seed_move("Qe3(e3,e5)").unwrap().len(),
        2,
        "a roll of 1 needs no choice"
    );
}

#[test]
fn rule_notation_bad_tokens_are_errors_not_panics() {
    let g = Expedition::new(&ExpeditionParams::default());
    for bad in [
        "",
        "e2e5",
        "roll:2",
        "go:e4",
        "zz",
        "e7e5",
        "Qh5(h4,h5)",
        "é",
    ] {
        assert!(g.parse_action(bad).is_err(), "{bad}");
        assert!(g.parse_seed_move(bad).is_err(), "{bad}");
    }
    let h = replay(g, &["e2e4", "e7e5"]).unwrap();
    let h = replay(h, &["d1h5"]).unwrap();
    for bad in ["e2e4", "roll:9", "roll:x", "go:h5"] {
        assert!(h.parse_action(bad).is_err(), "{bad}");
    }
    assert!(h.parse_seed_move("Qh5").is_err(), "mid-turn");
}

#[test]
fn rule_params_table_override_from_toml() {
    let rows: Vec<String> = (2..=7)
        .map(|n| format!("[{}]", vec![n.to_string(); 11].join(", ")))
        .collect();
    let text = format!("ply_cap = 50\ntable = [{}]", rows.join(", "));
    let p: ExpeditionParams =
        crate::registry::parse_params("expedition", Some(&text), ExpeditionParams::default())
            .unwrap();
    p.validate().unwrap();
    assert_eq!(p.ply_cap, 50);
    let g = Expedition::from_opening(&p, "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1").unwrap();
    for n in 2..=7 {
        assert_eq!(g.roll_odds(n), vec![(n, 1.0)], "all-success row {n}");
    }
    let h = replay(g, &["e2e8"]).unwrap();
    let mut out = Vec::new();
    h.chance_outcomes(&mut out);
    assert_eq!(out, vec![(ExpeditionAction::Roll(6), 1.0)]);
}

#[test]
fn rule_bad_table_is_rejected() {
    let mut p = ExpeditionParams::default();
    p.table[1][4] = 4;
    let e = p.validate().unwrap_err();
    assert_eq!(e.field, "table");
    assert!(e.to_string().contains("3 squares"), "{e}");
    let mut p = ExpeditionParams::default();
    p.table[0][0] = 0;
    assert!(p.validate().is_err());
    let mut p = ExpeditionParams::default();
    p.table.pop();
    assert!(p.validate().unwrap_err().to_string().contains("6 rows"));
    let mut p = ExpeditionParams::default();
    p.table[5].push(1);
    assert!(p.validate().unwrap_err().to_string().contains("11 entries"));
    // Entry points refuse it through the registry (rule_registry_reads_and_validates_...);
    // `new` clamps rather than panicking.
    let g = Expedition::new(&p);
    assert!((g.roll_odds(7).iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(
        crate::registry::parse_params::<ExpeditionParams>(
            "expedition",
            Some("dice = 3"),
            ExpeditionParams::default()
        )
        .is_err(),
        "unknown keys are errors"
    );
}

#[test]
fn rule_registry_reads_and_validates_expedition_params() {
    use crate::registry::{visit, VariantVisitor};
    struct Cap;
    impl VariantVisitor for Cap {
        type Output = String;
        fn visit<G: Game>(self, name: &'static str, params: G::Params) -> String {
            let g = G::new(&params);
            format!("{name} {}", g.num_seats())
        }
    }
    assert_eq!(visit("expedition", None, Cap).unwrap(), "expedition 2");
    assert_eq!(
        visit("expedition", Some("ply_cap = 10"), Cap).unwrap(),
        "expedition 2"
    );
    let e = visit("expedition", Some("table = [[1, 1]]"), Cap).unwrap_err();
    assert!(matches!(e, GameError::Params { .. }), "{e}");
}

#[test]
fn rule_tallies_count_from_history_and_undo_restores_them() {
    let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let mut h = replay(g, &["a1a8"]).unwrap();
    assert_eq!(tally(&h, "attempts_n7"), 1.0);
    assert_eq!(tally(&h, "full_n7"), 0.0);
    assert_eq!(tally(&h, "turns"), 1.0, "the attempt starts a turn");
    let before = h.tallies();
    let roll = act(&h, "roll:7");
    h.apply(roll);
    assert_eq!(tally(&h, "full_n7"), 1.0);
    assert_eq!(tally(&h, "turns"), 1.0, "the roll does not");
    h.undo();
    assert_eq!(h.tallies(), before);
    let names: Vec<String> = h.tallies().into_iter().map(|t| t.0).collect();
    for n in 2..=7 {
        assert!(names.contains(&format!("attempts_n{n}")));
        assert!(names.contains(&format!("full_n{n}")));
    }
    assert!(names.contains(&"king_captures".to_string()));
}

#[test]
fn rule_from_opening_needs_a_fen_with_both_kings() {
    assert!(matches!(
        Expedition::from_opening(&ExpeditionParams::default(), "8/8/8/8/8/8/8/4K3 w - - 0 1"),
        Err(GameError::Opening { .. })
    ));
    assert!(Expedition::from_opening(&ExpeditionParams::default(), "nonsense").is_err());
    // Either king may stand in a distant check, both at once too.
    let g = pos("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1");
    assert_eq!(g.board.turn(), Color::White);
    let g = pos("r3k3/8/8/8/8/8/4Q3/4K2R w Kq - 3 9");
    assert_eq!((g.board.turn(), g.board.halfmoves()), (Color::White, 3));
    assert_eq!(g.board.castling_rights().count(), 2);
    let g = pos("4k2R/8/8/8/8/8/8/r3K3 w - - 0 1");
    assert!(g.board.is_consistent());
    assert_eq!(g.board.pieces(Color::Black, Role::Rook).count(), 1);
    assert!(matches!(
        Expedition::from_opening(&ExpeditionParams::default(), "8/8/8/8/8/8/8/3kK3 w - - 0 1"),
        Err(GameError::Opening { .. })
    ));
}

#[test]
fn seeded_random_game_replays_from_its_record() {
    use rand::{Rng, SeedableRng};
    let start = Expedition::new(&ExpeditionParams::default());
    let mut rng = rand_pcg::Pcg64::seed_from_u64(77);
    let mut g = start.clone();
    let mut record = Vec::new();
    let mut acts = Vec::new();
    let mut outs = Vec::new();
    loop {
        let a = match g.turn() {
            Turn::Terminal => break,
            Turn::Seat(s) => {
                g.legal_actions(s, &mut acts);
                acts[rng.gen_range(0..acts.len())]
            }
            Turn::Chance => {
                g.chance_outcomes(&mut outs);
                outs[rng.gen_range(0..outs.len())].0
            }
            Turn::Simultaneous => unreachable!(),
        };
        record.push(g.action_notation(a));
        g.apply(a);
    }
    let refs: Vec<&str> = record.iter().map(String::as_str).collect();
    let replayed = replay(start.clone(), &refs).unwrap();
    assert_eq!(replayed.state_key(), g.state_key());
    assert_eq!(replayed.result(), g.result());
    assert_eq!(replayed.tallies(), g.tallies());
    // The seed-notation move list reads back to the same game too.
    let mut again = start;
    for m in g.seed_moves() {
        for a in again
            .parse_seed_move(&m)
            .unwrap_or_else(|e| panic!("{m}: {e}"))
        {
            again.apply(a);
        }
    }
    assert_eq!(again.state_key(), g.state_key());
}

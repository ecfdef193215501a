use super::*;
use crate::game::conformance;
use crate::registry::{visit, VariantVisitor};
use crate::square::Piece;

fn at(fen: &str, phase: Phase) -> TimeChess {
    let b = Board::from_fen_king_en_prise(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    TimeChess::from_board_at(b, phase, 400).unwrap()
}

fn play(g: &mut TimeChess, a: &str) {
    let act = g
        .parse_action(a)
        .unwrap_or_else(|e| panic!("{a} at {:?}: {e}", g.phase()));
    g.apply(act);
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn piece(g: &TimeChess, s: &str) -> Option<char> {
    g.board_ref().piece_at(sq(s)).map(Piece::char)
}

fn actions(g: &TimeChess) -> Vec<String> {
    let mut v = Vec::new();
    if let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut v);
    }
    v.into_iter().map(|a| g.action_notation(a)).collect()
}

fn tally(g: &TimeChess, name: &str) -> f64 {
    g.tallies()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no tally {name}"))
        .1
}

fn moved(to: &str, captured: Option<Role>) -> Option<BlindOutcome> {
    Some(BlindOutcome::Moved {
        to: sq(to),
        captured,
    })
}

#[test]
fn time_chess_conforms_to_the_game_api() {
    conformance::check(&TimeChess::new(&TimeParams::default()), 20, 7);
    let short = TimeParams {
        ply_cap: 30,
        ..Default::default()
    };
    conformance::check(&TimeChess::new(&short), 10, 8);
}

#[test]
fn rule_black_moves_first_and_six_phases_repeat() {
    let mut g = TimeChess::new(&TimeParams::default());
    assert_eq!(g.turn(), Turn::Seat(1));
    let script = ["e7e5", "e2e4", "g8f6", "g1f3", "b8c6", "f1c4", "a7a6"];
    let expect = [
        (Phase::Dawn, Color::Black, None),
        (Phase::Midday, Color::White, Some(Color::Black)),
        (Phase::Evening, Color::Black, Some(Color::Black)),
        (Phase::Dusk, Color::White, None),
        (Phase::Midnight, Color::Black, Some(Color::White)),
        (Phase::Morning, Color::White, Some(Color::White)),
        (Phase::Dawn, Color::Black, None),
    ];
    for (a, (phase, mover, blind)) in script.iter().zip(expect) {
        assert_eq!(g.phase(), phase);
        assert_eq!(g.turn(), Turn::Seat(mover.index()));
        assert_eq!(phase.blind(), blind);
        assert_eq!(
            phase.is_blind_turn(),
            matches!(phase, Phase::Evening | Phase::Morning)
        );
        play(&mut g, a);
    }
    let blind_plies: Vec<Color> = g.blind_outcomes().map(|(c, _)| c).collect();
    assert_eq!(blind_plies, vec![Color::Black, Color::White]);
}

#[test]
fn rule_blind_player_sees_own_pieces_and_remembers() {
    let mut g = TimeChess::new(&TimeParams::default());
    play(&mut g, "e7e5");
    play(&mut g, "d2d4");
    // Black is blind at Evening: its own pieces, White's as they stood after Dawn.
    let black = g.observation(1);
    assert!(black.contains("blind view"), "{black}");
    assert!(
        black.contains("[P][P][P][P][P][P][P][P]"),
        "White's pawns as remembered: {black}"
    );
    assert!(black.contains("....p.../........"), "d4 is unseen: {black}");
    assert!(!black.contains(&g.board_ref().fen()));
    let white = g.observation(0);
    assert!(white.contains(&g.board_ref().fen()), "{white}");
}

#[test]
fn rule_blind_moves_are_generated_on_own_pieces_only() {
    let g = at("4k3/8/8/8/7n/3p4/4P3/4K2R w K - 0 1", Phase::Morning);
    let a = actions(&g);
    for want in [
        "h1h8", "h1h5", "h1h4", "e2f3", "e2d3", "e2e4", "e1g1", "h1f1",
    ] {
        assert!(a.contains(&want.to_string()), "{want} missing from {a:?}");
    }
    for not in ["h1e1", "h1d1", "e1e2"] {
        assert!(!a.contains(&not.to_string()), "{not} offered: {a:?}");
    }
    // A sighted turn in the same position is orthodox.
    let s = at("4k3/8/8/8/7n/3p4/4P3/4K2R w K - 0 1", Phase::Dusk);
    let a = actions(&s);
    assert!(a.contains(&"h1h4".to_string()) && !a.contains(&"h1h5".to_string()));
    assert!(!a.contains(&"e2f3".to_string()));
}

#[test]
fn rule_blind_pawn_push_blocked_is_forfeited() {
    let mut g = at("4k3/8/8/8/4n3/8/4P3/4K3 w - - 3 40", Phase::Morning);
    let before = g.board_ref().clone();
    play(&mut g, "e2e4");
    assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Forfeited));
    assert_eq!(piece(&g, "e2"), Some('P'));
    assert_eq!(piece(&g, "e4"), Some('n'));
    assert_eq!(
        g.board_ref().by_color(Color::White),
        before.by_color(Color::White)
    );
    assert_eq!(g.board_ref().halfmoves(), 4, "a forfeit resets nothing");
    g.undo();
    play(&mut g, "e2e3");
    assert_eq!(g.last_blind_outcome(), moved("e3", None));
    let mut g = at("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", Phase::Morning);
    play(&mut g, "e2e3");
    assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Forfeited));
    assert_eq!(piece(&g, "e3"), Some('n'));
}

#[test]
fn rule_blind_pawn_diagonal_onto_empty_square_is_forfeited() {
    let mut g = at("4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1", Phase::Morning);
    play(&mut g, "e2d3");
    assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Forfeited));
    assert_eq!(piece(&g, "e2"), Some('P'));
    assert_eq!(piece(&g, "d3"), None);
}

#[test]
fn rule_blind_pawn_diagonal_captures() {
    let mut g = at("4k3/8/8/8/8/3n4/4P3/4K3 w - - 0 1", Phase::Morning);
    play(&mut g, "e2d3");
    assert_eq!(g.last_blind_outcome(), moved("d3", Some(Role::Knight)));
    assert_eq!(piece(&g, "d3"), Some('P'));
    assert_eq!(g.board_ref().halfmoves(), 0);
}

#[test]
fn rule_blind_slider_stops_at_first_enemy_and_captures() {
    let mut g = at("4k3/8/n7/8/b7/8/8/R3K3 w - - 0 1", Phase::Morning);
    play(&mut g, "a1a8");
    assert_eq!(g.last_blind_outcome(), moved("a4", Some(Role::Bishop)));
    assert_eq!(piece(&g, "a4"), Some('R'));
    assert_eq!(piece(&g, "a6"), Some('n'));
    g.undo();
    play(&mut g, "a1a3");
    assert_eq!(g.last_blind_outcome(), moved("a3", None));
}

#[test]
fn rule_seed_example_queen_stopped_on_third_square() {
    // "blind black queen tries to move 5 spaces, but a capture occurs at the 3rd space
    // and stops the queen at the 3rd space."
    let mut g = at("3qk3/8/3N4/8/8/8/8/4K3 b - - 0 1", Phase::Evening);
    play(&mut g, "d8d3");
    assert_eq!(g.last_blind_outcome(), moved("d6", Some(Role::Knight)));
    assert_eq!(piece(&g, "d6"), Some('q'));
    assert_eq!(piece(&g, "d3"), None);
}

#[test]
fn rule_blind_knight_and_king_capture_what_they_land_on() {
    let mut g = at("4k3/8/8/8/8/2p5/4p3/1N2K3 w - - 0 1", Phase::Morning);
    play(&mut g, "b1c3");
    assert_eq!(g.last_blind_outcome(), moved("c3", Some(Role::Pawn)));
    g.undo();
    play(&mut g, "e1e2");
    assert_eq!(g.last_blind_outcome(), moved("e2", Some(Role::Pawn)));
    assert_eq!(piece(&g, "e2"), Some('K'));
}

#[test]
fn rule_blind_slider_stops_before_the_king() {
    let mut g = at("8/8/8/k7/8/8/8/R3K3 w - - 0 1", Phase::Morning);
    play(&mut g, "a1a8");
    assert_eq!(g.last_blind_outcome(), moved("a4", None));
    assert_eq!(piece(&g, "a5"), Some('k'));
    let mut g = at("8/8/8/8/8/8/k7/R3K3 w - - 0 1", Phase::Morning);
    play(&mut g, "a1a8");
    assert_eq!(
        g.last_blind_outcome(),
        Some(BlindOutcome::Forfeited),
        "the square before the king is the origin"
    );
    assert_eq!(piece(&g, "a1"), Some('R'));
}

#[test]
fn rule_blind_move_onto_the_king_is_forfeited() {
    for (fen, try_) in [
        ("8/7p/8/8/8/2k5/8/1N2K3 w - - 0 1", "b1c3"),
        ("8/7p/8/8/8/3k4/4P3/4K3 w - - 0 1", "e2d3"),
        ("8/7p/8/8/8/4k3/4P3/4K3 w - - 0 1", "e2e3"),
        ("8/7p/8/8/4k3/8/4P3/4K3 w - - 0 1", "e2e4"),
    ] {
        let mut g = at(fen, Phase::Morning);
        let before = g.board_ref().clone();
        play(&mut g, try_);
        assert_eq!(
            g.last_blind_outcome(),
            Some(BlindOutcome::Forfeited),
            "{fen} {try_}"
        );
        assert_eq!(g.board_ref().occupied(), before.occupied());
    }
    // Touching kings (a blind king step can make them): the king cannot take the king.
    let mut b = Board::empty();
    b.set_piece(sq("e1"), Some(Piece::new(Color::White, Role::King)));
    b.set_piece(sq("e2"), Some(Piece::new(Color::Black, Role::King)));
    b.set_piece(sq("h7"), Some(Piece::new(Color::Black, Role::Pawn)));
    b.set_state(Color::White, Bitboard::EMPTY, None, 0, 1);
    let mut g = TimeChess::from_board_at(b, Phase::Morning, 400).unwrap();
    play(&mut g, "e1e2");
    assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Forfeited));
    assert_eq!(piece(&g, "e2"), Some('k'));
}

#[test]
fn rule_sighted_moves_never_take_a_king() {
    // Black left its king on the rook's file with a blind move; White sees it at Dusk.
    let g = at("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", Phase::Dusk);
    let a = actions(&g);
    assert!(!a.contains(&"e1e8".to_string()), "{a:?}");
    assert!(a.contains(&"e1e7".to_string()));
    assert!(g.parse_action("e1e8").is_err());
    // Touching kings at a sighted turn: the king may not take the king either (it
    // steps out of the enemy king's check instead).
    let mut b = Board::empty();
    b.set_piece(sq("e1"), Some(Piece::new(Color::White, Role::King)));
    b.set_piece(sq("f2"), Some(Piece::new(Color::Black, Role::King)));
    b.set_piece(sq("a8"), Some(Piece::new(Color::Black, Role::Rook)));
    b.set_state(Color::White, Bitboard::EMPTY, None, 0, 1);
    let g = TimeChess::from_board_at(b, Phase::Dusk, 400).unwrap();
    assert_eq!(sorted(actions(&g)), ["e1d1", "e1d2"]);
    assert!(g.parse_action("e1f2").is_err());
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// A position with touching kings (only a blind move makes one; a FEN may not hold it).
fn touching(fen: &str, phase: Phase) -> TimeChess {
    let b = Board::from_fen_kings_touching(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    TimeChess::from_board_at(b, phase, 400).unwrap()
}

#[test]
fn rule_enemy_king_gives_check() {
    // White's blind Morning king step lands next to the black king; at Dawn Black sees
    // it and stands in check from the king: only king steps that leave the white king's
    // reach answer it (not c7c5, c7c6 or the g5/f6 steps, nor taking the king).
    let mut g = at("8/2p5/6k1/3P4/5K2/8/8/8 w - - 0 1", Phase::Morning);
    play(&mut g, "f4f5");
    assert_eq!(g.last_blind_outcome(), moved("f5", None));
    assert_eq!(tally(&g, "white_blind_self_checks"), 1.0);
    assert_eq!(g.phase(), Phase::Dawn);
    assert!(g.board_ref().in_check());
    let want = ["g6f7", "g6g7", "g6h5", "g6h6", "g6h7"];
    assert_eq!(sorted(actions(&g)), want);
    assert!(g.parse_action("c7c5").is_err());
    // The same position set up directly, and the sampler's sets, agree.
    let fen = "8/2p5/6k1/3P1K2/8/8/8/8 b - - 0 1";
    let d = touching(fen, Phase::Dawn);
    assert_eq!(sorted(actions(&d)), want);
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(33);
    let mut scratch = Vec::new();
    for _ in 0..200 {
        let a = d.sample_legal_action(1, &mut rng, &mut scratch).unwrap();
        assert!(want.contains(&d.action_notation(a).as_str()));
    }
    // White, sighted at Dusk with the kings touching, must step away as well.
    let w = touching("8/2p5/6k1/3P1K2/8/8/8/8 w - - 0 1", Phase::Dusk);
    assert_eq!(
        sorted(actions(&w)),
        ["f5e4", "f5e5", "f5e6", "f5f4", "f5g4"]
    );
    // A blind mover is not bound by the check: Black's Evening tries include c7c5.
    let e = touching(fen, Phase::Evening);
    assert!(actions(&e).contains(&"c7c5".to_string()));
    // The answer restores ordinary play at White's turn.
    play(&mut g, "g6h5");
    assert!(!g.board_ref().in_check());
}

#[test]
fn rule_enemy_king_gives_checkmate() {
    // White's blind king step f6g7 leaves Black's king on h8 no square the white king
    // does not reach; the rook may neither take the king nor come between neighbours.
    // At Dawn, Black's first sighted turn, that is checkmate.
    let mut g = at("7k/r7/5K2/8/8/8/1P6/8 w - - 0 1", Phase::Morning);
    play(&mut g, "f6g7");
    assert_eq!(g.last_blind_outcome(), moved("g7", None));
    let r = g.result().expect("checkmate by the king");
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[0], 1.0);
    assert_eq!(tally(&g, "decided_after_blind"), 1.0);
    // Set up at Dawn directly: judged at once; at Evening (blind) it is no mate.
    let fen = "7k/r5K1/8/8/8/8/1P6/8 b - - 0 1";
    let d = touching(fen, Phase::Dawn);
    assert_eq!(d.result().map(|r| r.reason), Some("checkmate"));
    let e = touching(fen, Phase::Evening);
    assert_eq!(e.result(), None);
    assert!(actions(&e).contains(&"a7a1".to_string()));
}

#[test]
fn rule_insufficient_material_is_only_bare_kings_or_one_minor() {
    // RULES.md: only K v K and K+minor v K are drawn by material outside orthodox chess
    // and Chess960. A capture leaving K+B+B (same colour) v K plays on.
    let mut g = at("4k3/8/8/8/8/8/1p1B4/2B1K3 w - - 0 1", Phase::Dusk);
    play(&mut g, "c1b2");
    assert!(
        g.board_ref().is_insufficient_material(),
        "orthodox would draw"
    );
    assert_eq!(g.result(), None);
    play(&mut g, "e8e7"); // Midnight
    play(&mut g, "b2c3"); // Morning, blind
    assert_eq!(g.result(), None);
    // A capture leaving K+N v K is drawn at once.
    let mut g = at("4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1", Phase::Dusk);
    play(&mut g, "b1c3");
    assert_eq!(g.result().map(|r| r.reason), Some("insufficient-material"));
}

#[test]
fn rule_blind_move_may_leave_or_put_own_king_in_check() {
    // The bishop is pinned; blind, White may move it anyway.
    let mut g = at("k3r3/8/8/8/8/8/4B3/4K3 w - - 0 1", Phase::Morning);
    assert!(actions(&g).contains(&"e2d3".to_string()));
    play(&mut g, "e2d3");
    assert_eq!(g.last_blind_outcome(), moved("d3", None));
    assert!(g.board_ref().is_attacked(sq("e1"), Color::Black));
    assert_eq!(tally(&g, "white_blind_self_checks"), 1.0);
    assert_eq!(g.result(), None, "nobody takes the king");
    // A king step into attack is allowed too.
    let mut g = at("k4r2/8/8/8/8/8/8/4K3 w - - 0 1", Phase::Morning);
    play(&mut g, "e1f2");
    assert_eq!(g.last_blind_outcome(), moved("f2", None));
    assert_eq!(tally(&g, "white_blind_self_checks"), 1.0);
    // Black, sighted at Dawn, may not take the king; White must answer at Midday.
    assert!(!actions(&g).contains(&"f8f2".to_string()));
    play(&mut g, "a8b8");
    let a = actions(&g);
    assert!(
        a.iter().all(|m| m.starts_with("f2")),
        "must leave check: {a:?}"
    );
}

#[test]
fn rule_mate_is_judged_only_at_a_sighted_turn() {
    // White is mated on the back rank, but it is White's blind Morning turn.
    let mut g = at("k7/8/8/8/1P6/8/6PP/r6K w - - 0 1", Phase::Morning);
    assert!(g.board_ref().in_check() && !g.board_ref().has_legal_moves());
    assert_eq!(g.result(), None);
    assert_eq!(g.turn(), Turn::Seat(0));
    play(&mut g, "b4b5");
    play(&mut g, "a8b8");
    // Midday: a sighted White turn, still mated.
    assert_eq!(g.phase(), Phase::Midday);
    let r = g.result().expect("checkmate at the sighted turn");
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[1], 1.0);
    // Stalemate likewise: judged at the sighted turn.
    let g = at("k7/8/1Q6/8/8/8/8/7K b - - 0 1", Phase::Dawn);
    assert_eq!(g.result().map(|r| r.reason), Some("stalemate"));
    let g = at("k7/8/1Q6/8/8/8/8/7K b - - 0 1", Phase::Evening);
    assert_eq!(g.result(), None, "a blind turn is never stalemate");
}

#[test]
fn rule_seed_example_mated_king_going_blind_gets_an_extra_turn() {
    // "if a king is checkmated ... immediately before that king would go blind, that
    // blind player gets an extra turn": here it opens a flight square.
    let mut g = at("k7/8/8/8/8/8/6PP/r6K w - - 0 1", Phase::Morning);
    play(&mut g, "g2g3");
    play(&mut g, "a8b8");
    assert_eq!(g.result(), None);
    assert_eq!(actions(&g), vec!["h1g2".to_string()]);
}

#[test]
fn rule_blind_mover_learns_end_square_capture_or_forfeit() {
    let mut g = at("3qk3/8/3N4/8/8/8/8/4K3 b - - 0 1", Phase::Evening);
    let mut keys = Vec::new();
    for t in ["d8d3", "d8d4", "d8d7"] {
        play(&mut g, t);
        keys.push(g.information_key(1));
        let o = g.observation(1);
        assert!(o.contains("your blind try"), "{o}");
        g.undo();
    }
    play(&mut g, "d8d3");
    assert_eq!(g.last_blind_outcome(), moved("d6", Some(Role::Knight)));
    assert_ne!(keys[0], keys[1], "black knows which try it made");
    assert_ne!(keys[0], keys[2]);
}

#[test]
fn rule_blind_seat_learns_capture_square_not_the_capturer() {
    let mut g = at("4k3/8/8/4p3/8/3N1N2/8/4K3 b - - 0 1", Phase::Dawn);
    play(&mut g, "e8d8");
    let seen_after = |g: &mut TimeChess, a: &str| {
        play(g, a);
        let k = (g.information_key(1), g.observation(1));
        assert!(g.hides_from(1));
        g.undo();
        k
    };
    let take_d3 = seen_after(&mut g, "d3e5");
    let take_f3 = seen_after(&mut g, "f3e5");
    let quiet1 = seen_after(&mut g, "e1d1");
    let quiet2 = seen_after(&mut g, "d3b4");
    assert_eq!(take_d3, take_f3, "which knight took is unknown");
    assert_eq!(quiet1, quiet2);
    assert_ne!(take_d3.0, quiet1.0);
    play(&mut g, "f3e5");
    assert_eq!(g.last_capture_square(), Some(sq("e5")));
    let o = g.observation(1);
    assert!(o.contains("your piece on e5 was captured"), "{o}");
}

#[test]
fn rule_sighted_opponent_sees_the_result_not_the_try() {
    let mut g = at("3qk3/8/3N4/8/8/8/8/4K3 b - - 0 1", Phase::Evening);
    let mut white = Vec::new();
    for t in ["d8d3", "d8d4", "d8d6"] {
        play(&mut g, t);
        white.push(g.information_key(0));
        g.undo();
    }
    assert_eq!(white[0], white[1]);
    assert_eq!(white[0], white[2]);
    // Two forfeited tries look the same to White.
    let mut g = at("4k3/8/8/8/8/8/3P4/4K3 b - - 0 1", Phase::Evening);
    let mut w = Vec::new();
    for t in ["e8e7", "e8d8"] {
        play(&mut g, t);
        w.push(g.information_key(0));
        g.undo();
    }
    assert_ne!(w[0], w[1], "different results differ");
    let mut g = at("4k3/4p3/4P3/8/8/8/8/4K3 b - - 0 1", Phase::Evening);
    let mut f = Vec::new();
    for t in ["e7e6", "e7e5", "e7d6"] {
        play(&mut g, t);
        assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Forfeited), "{t}");
        f.push(g.information_key(0));
        g.undo();
    }
    assert!(f.iter().all(|&k| k == f[0]), "forfeits look alike to White");
}

#[test]
fn rule_blind_castling() {
    // Through an attacked square: attacks are not looked at.
    let mut g = at("4kr2/8/8/8/8/8/8/4K2R w K - 0 1", Phase::Morning);
    play(&mut g, "e1g1");
    assert_eq!(g.last_blind_outcome(), moved("g1", None));
    assert_eq!((piece(&g, "g1"), piece(&g, "f1")), (Some('K'), Some('R')));
    // An enemy piece on the way forfeits it; the right stays.
    let mut g = at("4k3/8/8/8/8/8/8/4K1nR w K - 0 1", Phase::Morning);
    play(&mut g, "e1g1");
    assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Forfeited));
    assert!(g.board_ref().castling_rights().contains(sq("h1")));
    // An own piece between: not offered.
    let g = at("4k3/8/8/8/8/8/8/4KB1R w K - 0 1", Phase::Morning);
    assert!(!actions(&g).contains(&"e1g1".to_string()));
}

#[test]
fn rule_blind_en_passant_is_forfeited() {
    let mut g = at("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", Phase::Midnight);
    play(&mut g, "d7d5");
    assert_eq!(g.board_ref().ep_square(), Some(sq("d6")));
    play(&mut g, "e5d6");
    assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Forfeited));
    assert_eq!(piece(&g, "d5"), Some('p'));
    assert_eq!(piece(&g, "e5"), Some('P'));
}

#[test]
fn rule_en_passant_loss_reveals_the_pawns_square() {
    let mut g = at("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", Phase::Dawn);
    play(&mut g, "d7d5");
    play(&mut g, "e5d6");
    assert_eq!(g.last_capture_square(), Some(sq("d5")));
    assert!(g.observation(1).contains("your piece on d5 was captured"));
    // Only the en passant capture takes the d5 pawn: Black's belief is that one move.
    let belief = belief::consistent_moves(&g);
    assert_eq!(belief.len(), 1);
    assert_eq!(belief[0].kind(), MoveKind::EnPassant);
}

#[test]
fn rule_blind_mover_without_moves_passes() {
    let mut g = at("RBQKQBQR/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1", Phase::Morning);
    assert_eq!(actions(&g), vec!["pass".to_string()]);
    let occ = g.board_ref().occupied();
    play(&mut g, "pass");
    assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Passed));
    assert_eq!(g.board_ref().occupied(), occ);
    assert_eq!(g.turn(), Turn::Seat(1));
    assert_eq!(tally(&g, "white_blind_passes"), 1.0);
    // At a sighted turn `pass` is not an action.
    assert!(g.parse_action("pass").is_err());
}

#[test]
fn rule_draws_are_judged_after_every_ply() {
    // A blind capture leaves K+N v K.
    let mut g = at("4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1", Phase::Morning);
    play(&mut g, "b1c3");
    assert_eq!(g.result().map(|r| r.reason), Some("insufficient-material"));
    // A forfeited blind try is the hundredth quiet ply.
    let mut g = at("4k3/8/8/8/8/4n3/4P3/4K3 w - - 99 80", Phase::Morning);
    play(&mut g, "e2e3");
    assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Forfeited));
    assert_eq!(g.result().map(|r| r.reason), Some("fifty-moves"));
    // The cap counts every ply.
    let mut g = TimeChess::new(&TimeParams {
        ply_cap: 3,
        ..Default::default()
    });
    for a in ["e7e5", "e2e4", "a7a6"] {
        assert_eq!(g.result(), None);
        play(&mut g, a);
    }
    assert_eq!(g.result().map(|r| r.reason), Some("cap"));
}

#[test]
fn rule_forfeit_resets_nothing_and_repetition_needs_the_same_phase() {
    let mut g = at("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", Phase::Dusk);
    let cycle = ["a1a2", "a8a7", "a2a1", "a7a8"];
    let start = g.board_ref().key();
    for i in 0..24 {
        assert_eq!(g.result(), None, "ply {i}");
        play(&mut g, cycle[i % 4]);
        if i % 4 == 3 {
            // The board and side to move are back: equal boards at plies 4, 8 would be
            // a threefold repetition if the phase did not count.
            assert_eq!(g.board_ref().key(), start);
        }
    }
    assert_eq!(g.phase(), Phase::Dusk);
    assert_eq!(g.result().map(|r| r.reason), Some("repetition"));
    // A forfeited pawn move keeps the 50-move count going and lets en passant lapse.
    let mut g = at("4k3/3p4/8/4P3/8/8/8/4K3 b - - 7 30", Phase::Midnight);
    play(&mut g, "d7d5");
    assert_eq!(g.board_ref().halfmoves(), 0);
    play(&mut g, "e5d6");
    assert_eq!(g.board_ref().halfmoves(), 1);
    assert_eq!(g.board_ref().ep_square(), None);
}

#[test]
fn rule_fen_starts_at_dawn_or_dusk() {
    let p = TimeParams::default();
    let g = TimeChess::from_opening(&p, "4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
    assert_eq!(g.phase(), Phase::Dawn);
    let g = TimeChess::from_opening(&p, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    assert_eq!(g.phase(), Phase::Dusk);
    for seat in 0..2 {
        assert!(!g.hides_from(seat));
        let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(1);
        assert_eq!(g.sample_world(seat, &mut rng).state_key(), g.state_key());
    }
    // The side not to move may stand in check (its blind move did it).
    assert!(TimeChess::from_opening(&p, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1").is_ok());
}

#[test]
fn rule_bad_input_is_an_error_not_a_panic() {
    let p = TimeParams::default();
    let g = TimeChess::new(&p);
    for bad in [
        "", "zz", "e7e5e5e5", "e2e4", "e7e4", "pass", "e7e8q", "é7e5",
    ] {
        match g.parse_action(bad) {
            Err(GameError::Action { action, message }) => {
                assert_eq!(action, bad);
                assert!(!message.is_empty());
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    for fen in [
        "garbage",
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        "8/8/8/8/8/8/3k4/4K3 w - - 0 1",
    ] {
        assert!(
            matches!(
                TimeChess::from_opening(&p, fen),
                Err(GameError::Opening { .. })
            ),
            "{fen}"
        );
    }
    assert!(TimeChess::from_board_at(Board::startpos(), Phase::Dawn, 400).is_err());
    struct Build;
    impl VariantVisitor for Build {
        type Output = usize;
        fn visit<G: Game>(self, _: &'static str, p: G::Params) -> usize {
            G::new(&p).num_seats()
        }
    }
    assert_eq!(visit("time", None, Build).unwrap(), 2);
    for text in ["bogus = 1", "ply_cap = 0", "ply_cap = \"x\""] {
        match visit("time", Some(text), Build) {
            Err(GameError::Params { variant, .. }) => assert_eq!(variant, "time"),
            other => panic!("{text}: {other:?}"),
        }
    }
    let mut over = at("4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1", Phase::Morning);
    play(&mut over, "b1c3");
    assert!(over.parse_action("e8e7").is_err(), "the game is over");
}

#[test]
fn tallies_count_blind_events_and_follow_undo() {
    let mut g = at("3qk3/8/3N4/8/8/8/4P3/r3K3 b - - 0 1", Phase::Evening);
    play(&mut g, "d8d3"); // Evening: blind capture on d6
    play(&mut g, "e1f2"); // Dusk
    play(&mut g, "e8e7"); // Midnight
    play(&mut g, "e2d3"); // Morning: forfeited diagonal
    assert_eq!(tally(&g, "black_blind_captures"), 1.0);
    assert_eq!(tally(&g, "white_forfeits"), 1.0);
    assert_eq!(tally(&g, "black_forfeits"), 0.0);
    g.undo();
    assert_eq!(tally(&g, "white_forfeits"), 0.0);
    g.undo();
    g.undo();
    g.undo();
    assert_eq!(tally(&g, "black_blind_captures"), 0.0);
    // A blind move that mates: decided right after a blind turn.
    let mut g = at("3q2k1/8/8/8/8/8/6PP/7K b - - 0 1", Phase::Evening);
    assert_eq!(tally(&g, "decided_after_blind"), 0.0);
    play(&mut g, "d8d1");
    assert_eq!(g.result().map(|r| r.reason), Some("checkmate"));
    assert_eq!(tally(&g, "decided_after_blind"), 1.0);
}

#[test]
fn belief_after_a_quiet_unseen_move_is_every_quiet_move() {
    let mut g = TimeChess::new(&TimeParams::default());
    play(&mut g, "e7e5");
    play(&mut g, "d2d4");
    assert!(g.hides_from(1) && !g.hides_from(0));
    let b = belief::consistent_moves(&g);
    assert_eq!(b.len(), 20, "no White move takes anything from the start");
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(3);
    let mut boards = std::collections::HashSet::new();
    for _ in 0..400 {
        let w = g.sample_world(1, &mut rng);
        assert_eq!(w.information_key(1), g.information_key(1));
        assert_eq!(w.phase(), Phase::Evening);
        boards.insert(w.board_ref().key());
    }
    assert_eq!(boards.len(), 20);
    // White sees everything: its sample is the truth.
    assert_eq!(g.sample_world(0, &mut rng).state_key(), g.state_key());
}

#[test]
fn rule_notation_records_blind_tries_as_tried() {
    let g0 = at("4k3/8/n7/8/b7/8/8/R3K3 w - - 0 1", Phase::Morning);
    let mut g = g0.clone();
    play(&mut g, "a1a8");
    // The record keeps the try; the board keeps the outcome; replay agrees.
    let tried: Vec<String> = g.actions_played().map(|a| g0.action_notation(a)).collect();
    assert_eq!(tried, vec!["a1a8".to_string()]);
    assert_eq!(
        g.board_ref().last_move().map(|m| g0.board_ref().uci(m)),
        Some("a1a4".into())
    );
    let r = crate::game::replay(g0, &["a1a8"]).unwrap();
    assert_eq!(r.state_key(), g.state_key());
}

#[test]
fn rule_blind_promotion_is_offered_and_resolved_like_any_pawn_move() {
    let g0 = at("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", Phase::Morning);
    let a = actions(&g0);
    for want in ["a7a8q", "a7a8n", "a7b8q", "a7b8r"] {
        assert!(a.contains(&want.to_string()), "{want}: {a:?}");
    }
    let mut g = g0.clone();
    play(&mut g, "a7b8n");
    assert_eq!(g.last_blind_outcome(), moved("b8", Some(Role::Knight)));
    assert_eq!(piece(&g, "b8"), Some('N'));
    let mut g = at("n3k3/P7/8/8/8/8/8/4K3 w - - 0 1", Phase::Morning);
    play(&mut g, "a7a8q");
    assert_eq!(g.last_blind_outcome(), Some(BlindOutcome::Forfeited));
    assert_eq!(piece(&g, "a7"), Some('P'));
}

mod generators;
mod twin;

//! The sighted twin (issue 67): Time Chess without blind phases.

use super::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn sighted() -> TimeChess {
    TimeChess::new(&TimeParams::default()).with_sighted(true)
}

#[test]
fn time_sighted_conforms_to_the_game_api() {
    let g = sighted();
    assert!(g.is_perfect_information());
    assert!(g.is_sighted() && !TimeChess::new(&TimeParams::default()).is_sighted());
    conformance::check(&g, 20, 17);
    conformance::check(&TimeChess::startpos(30).with_sighted(true), 10, 18);
}

#[test]
fn rule_time_sighted_every_phase_is_seen_by_both() {
    // Black's Dawn move, then White's Midday move, which Black does not see in the seed's
    // game.
    let midday = |g: TimeChess, mv: &str| {
        let mut g = g;
        play(&mut g, if mv == "e2e4" { "d7d5" } else { "e7e5" });
        assert_eq!(g.phase(), Phase::Midday);
        play(&mut g, mv);
        assert_eq!(g.phase(), Phase::Evening);
        g
    };
    let seed = TimeChess::new(&TimeParams::default());
    let (x, y) = (midday(seed.clone(), "g1f3"), midday(seed, "b1c3"));
    assert_eq!(x.information_key(1), y.information_key(1));
    assert!(x.hides_from(1));
    assert!(x.observation(1).contains("blind view"));
    let (a, b) = (midday(sighted(), "g1f3"), midday(sighted(), "b1c3"));
    for seat in 0..2 {
        assert_ne!(
            a.information_key(seat),
            b.information_key(seat),
            "seat {seat}"
        );
        assert_eq!(a.information_key(seat), a.state_key());
        assert!(!a.hides_from(seat));
        assert!(a
            .observation(seat)
            .contains(&format!("board {}", a.board_ref().fen())));
        assert!(
            !a.observation(seat).contains("blind"),
            "{}",
            a.observation(seat)
        );
    }
    let mut rng = Pcg64::seed_from_u64(1);
    assert_eq!(a.sample_world(1, &mut rng).state_key(), a.state_key());
    // Evening's moves are orthodox (1...d5 2.e4): the pawn takes on e4 and does not try
    // the empty c4, as the seed's blind mover may.
    let blind = actions(&midday(TimeChess::new(&TimeParams::default()), "e2e4"));
    let open = midday(sighted(), "e2e4");
    let mut moves = actions(&open);
    assert!(blind.contains(&"d5c4".to_string()));
    assert!(!moves.contains(&"d5c4".to_string()) && moves.contains(&"d5e4".to_string()));
    let mut orthodox = MoveList::new();
    TimeChess::sighted_moves(open.board_ref(), &mut orthodox);
    let mut expected: Vec<String> = orthodox.iter().map(|&m| open.board_ref().uci(m)).collect();
    expected.sort();
    moves.sort();
    assert_eq!(moves, expected);
}

#[test]
fn rule_time_sighted_judges_mate_at_every_turn() {
    // Black to move at Evening (Black's blind turn in the seed's game) with no legal
    // move: the seed's game lets the blind mover try on, the twin ends it.
    let fen = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let b = Board::from_fen_king_en_prise(fen).unwrap();
    let seed = TimeChess::from_board_at(b.clone(), Phase::Evening, 400).unwrap();
    assert_eq!(seed.result(), None);
    let twin = TimeChess::from_board_at(b, Phase::Evening, 400)
        .unwrap()
        .with_sighted(true);
    assert_eq!(twin.result().map(|r| r.reason), Some("stalemate"));
}

/// A random game of the twin, its record and the phases it was played at.
fn random_twin_game(seed: u64) -> (TimeChess, Vec<TimeAction>) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut g = TimeChess::startpos(200).with_sighted(true);
    let mut record = Vec::new();
    let mut acts = Vec::new();
    while let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut acts);
        let a = acts[rng.gen_range(0..acts.len())];
        record.push(a);
        g.apply(a);
    }
    (g, record)
}

#[test]
fn rule_time_sighted_play_by_the_same_rules_but_no_move_is_blind() {
    // Every record of the twin is legal in the seed's game and leads to the same boards,
    // with one exception: an en passant capture at a blind turn, which the seed's game
    // forfeits (a blind pawn diagonal onto an empty square). Otherwise the differences
    // are where a move would have been blind: the twin plays no blind try, so no try
    // is forfeited, stopped short or captures on its way; and it judges mate and
    // stalemate at every turn, so it may end at a turn where the seed's blind mover
    // would play on.
    let mut compared = 0;
    let mut blind_plies = 0;
    for seed in 0..12u64 {
        let (twin, record) = random_twin_game(300 + seed);
        for side in ["white", "black"] {
            for what in [
                "forfeits",
                "blind_captures",
                "blind_self_checks",
                "blind_passes",
            ] {
                assert_eq!(tally(&twin, &format!("{side}_{what}")), 0.0);
            }
        }
        let mut hidden = TimeChess::startpos(200);
        let mut replayed = TimeChess::startpos(200).with_sighted(true);
        let mut ep_at_blind = false;
        for &a in &record {
            let Turn::Seat(s) = hidden.turn() else {
                panic!("seed {seed}: the seed's game ended first");
            };
            let blind = hidden.phase().is_blind_turn();
            let mut legal = Vec::new();
            hidden.legal_actions(s, &mut legal);
            assert!(
                legal.contains(&a),
                "seed {seed}: {a:?} is not legal in the seed's game"
            );
            let ep = matches!(a, TimeAction::Move(m) if m.kind() == MoveKind::EnPassant);
            hidden.apply(a);
            replayed.apply(a);
            blind_plies += usize::from(blind);
            if blind && ep {
                ep_at_blind = true;
                assert_eq!(hidden.last_blind_outcome(), Some(BlindOutcome::Forfeited));
                break;
            }
            assert_eq!(hidden.board_ref().fen(), replayed.board_ref().fen());
            if blind {
                assert!(
                    matches!(
                        hidden.last_blind_outcome(),
                        Some(BlindOutcome::Moved { .. })
                    ),
                    "seed {seed}: a legal sighted move is never forfeited blind"
                );
            }
            compared += 1;
        }
        if ep_at_blind {
            continue;
        }
        let t = twin.result().expect("the twin's game is over");
        if hidden.phase().is_blind_turn() && ["checkmate", "stalemate"].contains(&t.reason) {
            // The twin ended where the seed's blind mover plays on (or where a draw rule,
            // judged after mate, ends the seed's game).
            assert!(
                hidden.result().is_none_or(|h| h.returns[..2] == [0.0, 0.0]),
                "seed {seed}"
            );
        } else {
            assert_eq!(hidden.result(), Some(t), "seed {seed}");
        }
    }
    assert!(
        compared > 300 && blind_plies > 100,
        "{compared} {blind_plies}"
    );
}

#[test]
fn rule_time_sighted_is_a_parameter_left_out_when_off() {
    let text = toml::to_string(&TimeParams::default()).unwrap();
    assert_eq!(text, "ply_cap = 400\n");
    let on: TimeParams = toml::from_str("sighted = true").unwrap();
    assert!(on.sighted && on.validate().is_ok());
    assert!(toml::to_string(&on).unwrap().contains("sighted = true"));
    assert!(TIME_PARAM_DOCS.iter().any(|d| d.key == "sighted"));
    assert!(TimeChess::new(&on).is_sighted());
    struct Perfect;
    impl VariantVisitor for Perfect {
        type Output = bool;
        fn visit<G: Game>(self, _: &'static str, p: G::Params) -> bool {
            G::new(&p).is_perfect_information()
        }
    }
    assert_eq!(visit("time", Some("sighted = true"), Perfect), Ok(true));
    assert_eq!(visit("time", None, Perfect), Ok(false));
    assert!(visit("time", Some("sighted = \"no\""), Perfect).is_err());
}

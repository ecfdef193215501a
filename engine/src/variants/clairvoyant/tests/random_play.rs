//! Seeded random play: records replay to the same state, tallies count what was
//! earned and bought, the drop-square table agrees with `drop_allowed`, and the cached
//! legal list and the stale-cache parse agree with a fresh computation.

use super::*;

#[test]
fn random_games_replay_from_their_records() {
    for seed in 0..6u64 {
        let p = params(seed as u32 * 20, seed as u32 * 15);
        let start = Clairvoyant::new(&p);
        let mut g = start.clone();
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut record = Vec::new();
        let mut acts = Vec::new();
        while let Turn::Seat(s) = g.turn() {
            g.legal_actions(s, &mut acts);
            let a = acts[rng.gen_range(0..acts.len())];
            record.push(g.action_notation(a));
            g.apply(a);
            if record.len() > 600 {
                break;
            }
        }
        let texts: Vec<&str> = record.iter().map(String::as_str).collect();
        let r = replay(start.clone(), &texts).unwrap();
        assert_eq!(r.state_key(), g.state_key(), "seed {seed}");
        while g.history_len() > 0 {
            g.undo();
        }
        assert_eq!(g.state_key(), start.state_key());
    }
}

#[test]
fn tallies_count_earnings_purchases_and_hits_per_side() {
    let mut g = game(None, &params(30, 100));
    // White's turn: Black guesses, White guesses a retraction, Black retracts once,
    // White buys a move.
    play(
        &mut g,
        &[
            "guess:e2",
            "guess:d2d4",
            "pass",
            "guess:retract",
            "e2e4",
            "retract",
        ],
    );
    play(&mut g, &["d2d4", "pass", "buy:g1f3"]);
    // Black's turn: White guesses a knight move correctly, Black drops a knight.
    play(&mut g, &["guess:buy:N", "pass", "pass", "N@e5", "pass"]);
    let t: HashMap<String, f64> = g.tallies().into_iter().collect();
    assert_eq!(t["black_hits_destination"], 1.0);
    assert_eq!(
        t["black_hits_piece"], 0.0,
        "the e2 pawn's move was retracted"
    );
    assert_eq!(t["black_retractions"], 1.0);
    assert_eq!(t["white_hits_retraction"], 1.0);
    assert_eq!(t["white_bought_moves"], 1.0);
    assert_eq!(t["black_drops_knight"], 1.0);
    assert_eq!(t["white_hits_buy"], 1.0);
    assert_eq!(t["white_earned"], 20.0 + 15.0);
    assert_eq!(t["black_earned"], 5.0);
    assert_eq!(t["white_moves"], 1.0);
    assert_eq!(t["white_moves_between_purchases"], 1.0);
    assert_eq!(
        t["black_purchases"], 2.0,
        "a retraction turn and a drop turn"
    );
    assert_eq!(t["white_earned_per_move"], 35.0);
    assert_eq!(t["black_hit_rate"], 0.5, "e2 missed, d2d4 hit");
    assert_eq!(t["black_hit_rate_destination"], 1.0);
    assert_eq!(t["black_hit_rate_piece"], 0.0);
    assert_eq!(t["white_hit_rate"], 1.0);
    assert!(
        !t.contains_key("white_hit_rate_piece"),
        "no rate for a kind never guessed"
    );
}

#[test]
fn drop_squares_agree_with_drop_allowed() {
    let mut rng = Pcg64::seed_from_u64(4);
    let mut g = game(None, &params(200, 200));
    let mut acts = Vec::new();
    for _ in 0..400 {
        let Turn::Seat(s) = g.turn() else { break };
        if g.board_ref().turn() == g.mover() {
            let b = g.board_ref();
            for role in Role::ALL {
                let set = purchases::drop_squares(b, role);
                for sq in Square::all() {
                    assert_eq!(
                        set.contains(sq),
                        drop_allowed(b, role, sq),
                        "{role:?} {sq} in {}",
                        b.fen()
                    );
                }
            }
        }
        g.legal_actions(s, &mut acts);
        g.apply(acts[rng.gen_range(0..acts.len())]);
    }
}

/// The legal actions `apply` caches (and `undo` marks stale) equal a fresh computation,
/// and a game whose cache is stale plays on to the same states, in seeded random play
/// with undos, open and blind, with balances large enough for every kind of purchase.
#[test]
fn cached_actions_match_a_fresh_computation_in_random_play() {
    let mut rng = Pcg64::seed_from_u64(23);
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    let (mut undos, mut states) = (0, 0);
    for (i, blind) in [false, true, false, true].into_iter().enumerate() {
        let mut p = params(40 * i as u32, 60);
        if blind {
            p.mode = "blind".into();
        }
        let mut g = game(None, &p);
        for _ in 0..500 {
            let mut stale = g.clone();
            stale.cache.fresh = false;
            let mut fresh = g.clone();
            fresh.refresh();
            assert_eq!(g.turn(), stale.turn());
            for seat in 0..2 {
                g.legal_actions(seat, &mut a);
                stale.legal_actions(seat, &mut b);
                fresh.legal_actions(seat, &mut c);
                assert_eq!(a, b, "seat {seat} in {:?}", g.phase());
                assert_eq!(a, c, "seat {seat} in {:?}", g.phase());
            }
            if g.cache.fresh {
                assert_eq!(g.cache.free, fresh.cache.free);
            }
            let Turn::Seat(seat) = g.turn() else { break };
            g.legal_actions(seat, &mut a);
            let act = a[rng.gen_range(0..a.len())];
            g.apply(act);
            stale.apply(act);
            states += 1;
            assert_eq!(g.state_key(), stale.state_key());
            assert_eq!(g.log(), stale.log());
            assert_eq!(g.retraction_price(), stale.retraction_price());
            if rng.gen_range(0..5) == 0 {
                g.undo();
                undos += 1;
            }
        }
    }
    assert!(undos > 50 && states > 800, "{undos} undos, {states} states");
}

/// `apply_text` (what replays use) checks a recorded action against only the part of
/// the legal list its kind comes from, on a stale cache: for every legal action and for
/// a sweep of texts of every kind (drops and drop guesses on all squares, bought and
/// free moves of every pseudo-legal move, passes, retractions), parsing on a stale cache
/// accepts exactly what the full list holds, and `apply_text` reaches the state `apply`
/// does, in seeded random play, open and blind.
#[test]
fn parse_checks_only_the_kind_named_and_agrees_with_the_list() {
    let mut rng = Pcg64::seed_from_u64(41);
    let mut checked = 0;
    for (i, blind) in [false, true, false].into_iter().enumerate() {
        let mut p = params(30 * i as u32 + 10, 50);
        if blind {
            p.mode = "blind".into();
        }
        let mut g = game(None, &p);
        let mut replayed = g.clone();
        for _ in 0..300 {
            let Turn::Seat(seat) = g.turn() else { break };
            let mut legal = Vec::new();
            g.legal_actions(seat, &mut legal);
            let mut texts: Vec<String> = legal.iter().map(|&a| g.action_notation(a)).collect();
            for sq in Square::all() {
                for r in ["P", "N", "Q"] {
                    texts.push(format!("{r}@{sq}"));
                    texts.push(format!("guess:buy:{r}@{sq}"));
                }
                texts.push(format!("guess:{sq}"));
            }
            let mut pseudo = MoveList::new();
            mover_moves(&scratch(&g.board, g.s.mover), &mut pseudo);
            for &m in pseudo.iter() {
                let u = uci(g.s.mover, m);
                texts.push(u.clone());
                texts.push(format!("buy:{u}"));
                texts.push(format!("guess:{u}"));
            }
            for t in [
                "pass",
                "retract",
                "guess:retract",
                "guess:extra",
                "guess:buy:N",
            ] {
                texts.push(t.to_string());
            }
            let mut stale = g.clone();
            stale.cache.fresh = false;
            for t in &texts {
                let full = g.parse_action(t).ok();
                let part = stale.parse_action(t).ok();
                assert_eq!(full, part, "{t} in {:?}", g.phase());
                if let Some(a) = full {
                    assert!(legal.contains(&a), "{t} parsed but not legal");
                }
                checked += 1;
            }
            let act = legal[rng.gen_range(0..legal.len())];
            let text = g.action_notation(act);
            g.apply(act);
            assert_eq!(replayed.apply_text(&text).ok(), Some(act));
            assert_eq!(replayed.state_key(), g.state_key());
            assert_eq!(replayed.log(), g.log());
        }
    }
    assert!(checked > 100_000, "{checked} texts checked");
}

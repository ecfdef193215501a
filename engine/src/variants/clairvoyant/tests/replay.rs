//! Replaying from text with a stale cache (`check.rs`): the direct check of one action
//! against the legal list, and `parse_action` without the list against the list-based
//! answer, error text included, for legal texts and illegal ones of every kind.

use super::*;
use crate::bitboard::Bitboard;

/// The kind of an action text, for counting the refusals checked.
fn kind_of(t: &str) -> &'static str {
    if t == "pass" || t == "retract" || t == "guess:retract" {
        "step"
    } else if t == "guess:extra" {
        "guess:extra"
    } else if let Some(g) = t.strip_prefix("guess:buy:") {
        if g.contains('@') {
            "guess:buy-square"
        } else {
            "guess:buy"
        }
    } else if let Some(g) = t.strip_prefix("guess:") {
        if g.len() > 2 {
            "guess:destination"
        } else {
            "guess:piece"
        }
    } else if t.starts_with("buy:") {
        "buy"
    } else if t.contains('@') {
        "drop"
    } else {
        "move"
    }
}

/// Texts near `t`: each square in it moved one file and one rank either way, the
/// promotion letter changed, the `buy:` prefix added or taken off, the role changed.
fn mutations(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = t.as_bytes();
    for i in 0..b.len() {
        if (b'a'..=b'h').contains(&b[i]) && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
            for (df, dr) in [(1i8, 0i8), (-1, 0), (0, 1), (0, -1), (2, 2)] {
                let f = (b[i] as i8 - b'a' as i8 + df).rem_euclid(8) as u8 + b'a';
                let r = (b[i + 1] as i8 - b'1' as i8 + dr).rem_euclid(8) as u8 + b'1';
                let mut v = b.to_vec();
                v[i] = f;
                v[i + 1] = r;
                out.push(String::from_utf8(v).unwrap());
            }
        }
        if b"PNBRQKnbrq".contains(&b[i]) && (i + 1 == b.len() || b[i + 1] == b'@') {
            for r in b"PNBRQKnbrq" {
                let mut v = b.to_vec();
                v[i] = *r;
                out.push(String::from_utf8(v).unwrap());
            }
        }
    }
    match t.strip_prefix("buy:") {
        Some(m) => out.push(m.to_string()),
        None if !t.contains(':') && !t.contains('@') && t.len() >= 4 => {
            out.push(format!("buy:{t}"));
            out.push(format!("guess:{t}"));
        }
        None => {}
    }
    out.retain(|m| m != t);
    out
}

/// Every action of every kind the position could name (most of them illegal).
fn candidate_actions(g: &Clairvoyant) -> Vec<ClairAction> {
    let mut out = vec![
        ClairAction::Pass,
        ClairAction::Retract,
        ClairAction::RetractGuess,
        ClairAction::Guess(Guess::Extra),
    ];
    for role in Role::ALL {
        out.push(ClairAction::Guess(Guess::Buy(role)));
        for sq in Square::all() {
            out.push(ClairAction::Drop(role, sq));
            out.push(ClairAction::Guess(Guess::BuySquare(role, sq)));
        }
    }
    for sq in Square::all() {
        out.push(ClairAction::Guess(Guess::Piece(sq)));
    }
    let mover = g.s.mover;
    for from in g.board.by_color(mover) {
        for to in Square::all() {
            out.push(ClairAction::Guess(Guess::Destination(from, to)));
        }
    }
    let mut l = MoveList::new();
    for b in [g.board.clone(), scratch(&g.board, mover)] {
        mover_moves(&b, &mut l);
        for &m in l.iter() {
            out.push(ClairAction::Move(m));
            out.push(ClairAction::Buy(m));
        }
    }
    for m in g.board.legal_moves().iter() {
        out.push(ClairAction::Move(*m));
    }
    out
}

/// Seeded games, open and blind, with low and high balances (so purchases, checks
/// repaired by bought moves, retractions and drops in check all come up).
fn random_games(seed: u64, decisions: usize, mut at: impl FnMut(&Clairvoyant, &[ClairAction])) {
    let mut rng = Pcg64::seed_from_u64(seed);
    for (i, blind) in [false, true, false, false].into_iter().enumerate() {
        let mut p = params(40 * i as u32 + 10, 60 + 20 * i as u32);
        if blind {
            p.mode = "blind".into();
        }
        let mut g = game(None, &p);
        for _ in 0..decisions {
            let Turn::Seat(seat) = g.turn() else { break };
            let mut legal = Vec::new();
            g.legal_actions(seat, &mut legal);
            at(&g, &legal);
            // Purchases and guesses more often than a uniform draw would make them.
            let keen: Vec<ClairAction> = legal
                .iter()
                .copied()
                .filter(|a| !matches!(a, ClairAction::Pass | ClairAction::Move(_)))
                .collect();
            let act = if !keen.is_empty() && rng.gen_bool(0.4) {
                keen[rng.gen_range(0..keen.len())]
            } else {
                legal[rng.gen_range(0..legal.len())]
            };
            g.apply(act);
        }
    }
}

#[test]
fn direct_check_agrees_with_the_list_in_random_play() {
    let mut kinds: HashMap<&'static str, (usize, usize)> = HashMap::new();
    random_games(7, 120, |g, legal| {
        for a in candidate_actions(g) {
            let listed = legal.contains(&a);
            assert_eq!(g.offered(a), listed, "{a:?} in {:?}", g.phase());
            let k = match a {
                ClairAction::Guess(_) => "guess",
                ClairAction::Drop(..) => "drop",
                ClairAction::Move(_) => "move",
                ClairAction::Buy(_) => "buy",
                _ => "step",
            };
            let e = kinds.entry(k).or_default();
            if listed {
                e.0 += 1;
            } else {
                e.1 += 1;
            }
        }
    });
    for k in ["guess", "drop", "move", "buy", "step"] {
        let (yes, no) = kinds.get(k).copied().unwrap_or_default();
        assert!(yes > 20 && no > 20, "{k}: {yes} offered, {no} refused");
    }
}

#[test]
fn stale_parse_gives_the_list_answer_error_text_included() {
    let mut refused: HashMap<&'static str, usize> = HashMap::new();
    random_games(11, 150, |g, legal| {
        let mut stale = g.clone();
        stale.cache.fresh = false;
        let mut texts: Vec<String> = Vec::new();
        for &a in legal {
            let t = g.action_notation(a);
            texts.extend(mutations(&t));
            texts.push(t);
        }
        for t in [
            "pass",
            "retract",
            "guess:retract",
            "guess:extra",
            "guess:buy:N",
            "guess:buy:q",
            "guess:buy:Q@e4",
            "guess:e2",
            "guess:e2e4",
            "e7e8q",
            "buy:e1g1",
            "N@e4",
            "K@d5",
            "e2e4e",
            "E2E4",
            "junk",
        ] {
            texts.push(t.to_string());
        }
        for t in &texts {
            let by_list = g.parse_action(t);
            let direct = stale.parse_action(t);
            assert_eq!(direct, by_list, "'{t}' in {:?}", g.phase());
            if by_list.is_err() {
                *refused.entry(kind_of(t)).or_default() += 1;
                // A refused text changes nothing.
                let mut h = stale.clone();
                assert!(h.apply_text(t).is_err());
                assert_eq!(h.state_key(), g.state_key());
            }
        }
    });
    for k in [
        "step",
        "guess:piece",
        "guess:destination",
        "guess:buy",
        "guess:buy-square",
        "guess:extra",
        "drop",
        "move",
        "buy",
    ] {
        let n = refused.get(k).copied().unwrap_or(0);
        assert!(n > 10, "only {n} refused '{k}' texts checked: {refused:?}");
    }
}

#[test]
fn guessed_drop_squares_agree_with_the_sheet() {
    // The one-square form asks `reachable_in_check` about one square only: it must
    // answer as the whole sheet does, in check too.
    random_games(13, 100, |g, legal| {
        if g.s.phase != Phase::Guess || g.s.n_guesses >= g.params.max_guesses {
            return;
        }
        for role in Role::ALL {
            let all = g.guessed_drop_squares(role, Bitboard::FULL);
            for sq in Square::all() {
                let one = g.guessed_drop_squares(role, Bitboard::from_square(sq));
                assert_eq!(one.contains(sq), all.contains(sq), "{role:?} {sq}");
                let listed = legal.contains(&ClairAction::Guess(Guess::BuySquare(role, sq)));
                assert_eq!(all.contains(sq), listed, "{role:?} {sq}");
            }
        }
    });
}

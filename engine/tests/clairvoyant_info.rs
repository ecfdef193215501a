//! Information properties of Clairvoyant Chess over random playouts, open and blind:
//! the mover never sees this turn's guess sheet, information keys are equal exactly
//! when observations are, sampled worlds agree with everything the seat saw, and blind
//! mode hides balances and sheets until the owner spends.

use engine::game::{Game, Turn};
use engine::variants::clairvoyant::{ClairAction, Clairvoyant, ClairvoyantParams, Entry, Phase};
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::HashMap;

fn params(mode: &str, balance: u32) -> ClairvoyantParams {
    ClairvoyantParams {
        mode: mode.into(),
        white_balance: balance,
        black_balance: balance,
        ply_cap: 60,
        ..Default::default()
    }
}

/// One uniformly random action; false at the end.
fn step(g: &mut Clairvoyant, rng: &mut Pcg64) -> bool {
    let Turn::Seat(s) = g.turn() else {
        return false;
    };
    let mut acts = Vec::new();
    g.legal_actions(s, &mut acts);
    g.apply(acts[rng.gen_range(0..acts.len())]);
    true
}

/// Every state of a few random games (open and blind, with and without money).
fn states(seed: u64) -> Vec<Clairvoyant> {
    let mut out = Vec::new();
    let mut rng = Pcg64::seed_from_u64(seed);
    for (mode, balance) in [("open", 0), ("open", 40), ("blind", 0), ("blind", 40)] {
        let mut g = Clairvoyant::new(&params(mode, balance));
        out.push(g.clone());
        while step(&mut g, &mut rng) {
            out.push(g.clone());
        }
    }
    out
}

#[test]
fn the_mover_never_sees_this_turns_sheet() {
    let mut rng = Pcg64::seed_from_u64(3);
    let mut checked = 0;
    for g in states(11) {
        if !matches!(
            g.phase(),
            Phase::Start | Phase::Extra | Phase::Drops | Phase::Free
        ) {
            continue;
        }
        let mover = g.mover().index();
        let guesser = 1 - mover;
        // Worlds the mover cannot tell apart: every redraw keeps its key and view.
        for _ in 0..3 {
            let w = g.sample_world(mover, &mut rng);
            assert_eq!(w.information_key(mover), g.information_key(mover));
            assert_eq!(w.observation(mover), g.observation(mover));
            if w.sheet() != g.sheet() {
                checked += 1;
                assert_ne!(
                    w.information_key(guesser),
                    g.information_key(guesser),
                    "the guesser knows its own sheet"
                );
                assert_ne!(w.observation(guesser), g.observation(guesser));
            }
        }
        // The mover's view never names this turn's guesses in the current turn.
        let obs = g.observation(mover);
        let current = obs.rsplit("record:").next().unwrap_or("");
        let turn_part: Vec<&str> = current.split_whitespace().collect();
        let n = g.sheet().len();
        if n > 0 {
            let hidden = turn_part.iter().filter(|t| t.starts_with('?')).count();
            assert!(hidden >= n, "{obs}");
        }
    }
    assert!(checked > 20, "too few redrawn sheets: {checked}");
}

#[test]
fn keys_equal_exactly_when_observations_are() {
    let mut rng = Pcg64::seed_from_u64(5);
    for seat in 0..2 {
        let mut by_key: HashMap<u64, String> = HashMap::new();
        let mut by_obs: HashMap<String, u64> = HashMap::new();
        for g in states(21 + seat as u64) {
            let mut worlds = vec![g.sample_world(seat, &mut rng)];
            worlds.push(g.clone());
            for w in worlds {
                let k = w.information_key(seat);
                let o = w.observation(seat);
                if let Some(prev) = by_key.insert(k, o.clone()) {
                    assert_eq!(prev, o, "equal keys, different observations");
                }
                if let Some(prev) = by_obs.insert(o, k) {
                    assert_eq!(prev, k, "equal observations, different keys");
                }
            }
        }
    }
}

#[test]
fn sampled_worlds_are_consistent() {
    let mut rng = Pcg64::seed_from_u64(7);
    let mut acts = Vec::new();
    let mut wacts = Vec::new();
    for g in states(31) {
        for seat in 0..2 {
            let me = Color::from_index(seat);
            let w = g.sample_world(seat, &mut rng);
            assert_eq!(w.information_key(seat), g.information_key(seat));
            assert_eq!(w.board_ref().fen(), g.board_ref().fen());
            assert_eq!(w.phase(), g.phase());
            assert_eq!(w.balance(me), g.balance(me));
            if !g.params().blind() {
                assert_eq!(w.balance(me.other()), g.balance(me.other()));
            }
            // The seat's own secret entries are untouched.
            let own = |x: &Clairvoyant| -> Vec<Entry> {
                x.log()
                    .iter()
                    .copied()
                    .filter(|e| match e {
                        Entry::Guess { by, .. } | Entry::RetractGuess { by } => *by == me,
                        _ => false,
                    })
                    .collect()
            };
            assert_eq!(own(&w), own(&g));
            if g.turn() == Turn::Seat(seat) {
                g.legal_actions(seat, &mut acts);
                w.legal_actions(seat, &mut wacts);
                assert_eq!(acts, wacts, "the seat's choices depend only on what it saw");
            }
            // In open mode only the current turn can differ.
            if !g.params().blind() {
                let done = |x: &Clairvoyant| -> usize {
                    x.log()
                        .iter()
                        .rposition(|e| matches!(e, Entry::TurnEnd { .. }))
                        .map_or(0, |i| i + 1)
                };
                assert_eq!(w.log()[..done(&w)], g.log()[..done(&g)]);
            }
        }
    }
}

#[test]
fn blind_mode_hides_balances_until_spending() {
    let mut rng = Pcg64::seed_from_u64(9);
    let mut revealed_seen = false;
    for g in states(41) {
        if !g.params().blind() {
            assert!(!g.observation(0).contains("secret"));
            continue;
        }
        for seat in 0..2 {
            let obs = g.observation(seat);
            assert!(obs.contains("Z; ") && obs.contains("secret"), "{obs}");
        }
        // Guesses shown to a seat are its own, plus the opponent's only once the
        // opponent has spent (then its record up to the last completed turn).
        for c in Color::BOTH {
            let o = c.other();
            let spent = g.log().iter().any(|e| match *e {
                Entry::Drop { by, .. } | Entry::Retraction { by, .. } => by == c,
                Entry::Move { by, m } => by == c && m.bought,
                _ => false,
            });
            let own = g
                .log()
                .iter()
                .filter(|e| match e {
                    Entry::Guess { by, .. } | Entry::RetractGuess { by } => *by == o,
                    _ => false,
                })
                .count();
            let obs = g.observation(o.index());
            let record = obs.rsplit("record:").next().unwrap_or("");
            let shown = record.matches("guess:").count();
            if spent {
                revealed_seen |= shown > own;
            } else {
                assert_eq!(shown, own, "{obs}");
            }
        }
        // Sampling for a seat keeps everything it saw.
        for seat in 0..2 {
            let w = g.sample_world(seat, &mut rng);
            assert_eq!(w.observation(seat), g.observation(seat));
        }
    }
    assert!(revealed_seen, "no revealed blind record in the playouts");
}

#[test]
fn sample_world_draws_varied_sheets() {
    let mut g = Clairvoyant::new(&params("open", 0));
    for a in ["guess:e2", "guess:g1f3", "guess:d2"] {
        let act = g.parse_action(a).unwrap();
        g.apply(act);
    }
    assert_eq!(g.turn(), Turn::Seat(0));
    let mut rng = Pcg64::seed_from_u64(1);
    let mut sheets = std::collections::HashSet::new();
    for _ in 0..40 {
        let w = g.sample_world(0, &mut rng);
        assert_eq!(w.sheet().len(), 3);
        sheets.insert(format!("{:?}", w.sheet()));
        // The guesser's own world is the true one.
        assert_eq!(g.sample_world(1, &mut rng).sheet(), g.sheet());
    }
    assert!(sheets.len() > 30, "{} distinct sheets", sheets.len());
    let _ = ClairAction::Pass;
}

//! Information properties of Tar Pit Chess over random playouts: sampled worlds never
//! contradict what the seat saw (they replay from the start, draw by draw and card by
//! card), their distribution depends only on what the seat saw, and information keys are
//! equal exactly when observations are.

use engine::game::{Game, Turn};
use engine::variants::tar_pit::{cards, TarPit, TarPitAction, TarPitParams};
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// One uniformly random action or chance outcome; false at the end.
fn step(g: &mut TarPit, rng: &mut Pcg64) -> bool {
    let mut acts = Vec::new();
    let mut outs = Vec::new();
    let a = match g.turn() {
        Turn::Terminal => return false,
        Turn::Chance => {
            g.chance_outcomes(&mut outs);
            outs[engine::random::sample_index(&outs, rng)].0
        }
        Turn::Seat(s) => {
            g.legal_actions(s, &mut acts);
            // Cards are where the information is: prefer playing one.
            let cards: Vec<_> = acts
                .iter()
                .copied()
                .filter(|a| matches!(a, TarPitAction::Card(..)))
                .collect();
            if !cards.is_empty() && rng.gen_bool(0.7) {
                cards[rng.gen_range(0..cards.len())]
            } else {
                acts[rng.gen_range(0..acts.len())]
            }
        }
        Turn::Simultaneous => unreachable!("sequential game"),
    };
    g.apply(a);
    true
}

/// States along a few random games, every `every` actions.
fn states(games: u64, every: usize, params: &TarPitParams) -> Vec<TarPit> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = Pcg64::seed_from_u64(1000 + seed);
        let mut g = TarPit::new(params);
        let mut n = 0;
        while step(&mut g, &mut rng) {
            n += 1;
            if n % every == 0 {
                out.push(g.clone());
            }
        }
        out.push(g);
    }
    out
}

/// A small deck and a short cap so reshuffles and forced discards come often.
fn busy_params() -> TarPitParams {
    let mut p = TarPitParams {
        ply_cap: 120,
        ..Default::default()
    };
    p.deck.pawns = 4;
    p.deck.checkers = 3;
    p
}

/// Replays `w`'s record from the start, checking every step is legal there; returns the
/// state reached.
fn replay_checked(w: &TarPit, params: &TarPitParams) -> TarPit {
    let mut g = TarPit::new(params);
    let mut acts = Vec::new();
    let mut outs = Vec::new();
    for (i, a) in w.actions().enumerate() {
        match g.turn() {
            Turn::Chance => {
                g.chance_outcomes(&mut outs);
                assert!(
                    outs.iter().any(|&(o, p)| o == a && p > 0.0),
                    "step {i}: {a:?} cannot come out of the pile"
                );
            }
            Turn::Seat(s) => {
                g.legal_actions(s, &mut acts);
                assert!(acts.contains(&a), "step {i}: {a:?} is not legal");
            }
            t => panic!("step {i}: {t:?}"),
        }
        g.apply(a);
    }
    g
}

#[test]
fn sampled_worlds_never_contradict_what_the_seat_saw() {
    let mut rng = Pcg64::seed_from_u64(5);
    let mut shuffles = 0;
    for params in [TarPitParams::default(), busy_params()] {
        for g in states(4, 23, &params) {
            shuffles += g
                .actions()
                .filter(|a| matches!(a, TarPitAction::Shuffle))
                .count();
            for seat in 0..2 {
                let me = Color::from_index(seat);
                let opp = me.other();
                for _ in 0..3 {
                    let w = g.sample_world(seat, &mut rng);
                    assert_eq!(w.information_key(seat), g.information_key(seat));
                    assert_eq!(w.observation(seat), g.observation(seat));
                    assert_eq!(w.hand(me), g.hand(me));
                    assert_eq!(w.discard_pile(), g.discard_pile());
                    assert_eq!(cards::total(w.hand(opp)), cards::total(g.hand(opp)));
                    assert_eq!(cards::total(w.pile()), cards::total(g.pile()));
                    for k in 0..cards::KINDS {
                        assert_eq!(
                            w.hand(opp)[k] + w.pile()[k],
                            g.hand(opp)[k] + g.pile()[k],
                            "unseen cards are conserved"
                        );
                    }
                    let r = replay_checked(&w, &params);
                    assert_eq!(r.state_key(), w.state_key(), "the sampled record replays");
                }
            }
        }
    }
    assert!(shuffles > 0, "the test must see reshuffles");
}

#[test]
fn sampled_deals_depend_only_on_what_the_seat_saw() {
    let mut rng = Pcg64::seed_from_u64(8);
    let mut differing_truths = 0;
    for g in states(3, 31, &busy_params()) {
        for seat in 0..2 {
            let opp = Color::from_index(seat).other();
            // Another truth the seat cannot tell from this one.
            let other = g.sample_world(seat, &mut rng);
            assert_eq!(other.information_key(seat), g.information_key(seat));
            if other.hand(opp) != g.hand(opp) {
                differing_truths += 1;
            }
            // Same randomness, same deal, whatever the truth.
            for s in 0..5 {
                let a = g.sample_world(seat, &mut Pcg64::seed_from_u64(s));
                let b = other.sample_world(seat, &mut Pcg64::seed_from_u64(s));
                assert_eq!(a.hand(opp), b.hand(opp));
                assert_eq!(a.pile(), b.pile());
                assert_eq!(a.state_key(), b.state_key());
            }
        }
    }
    assert!(
        differing_truths > 5,
        "too few distinct truths: {differing_truths}"
    );
    // And statistically: the mean count of each kind in the opponent's hand agrees.
    let g = states(1, 57, &TarPitParams::default()).swap_remove(1);
    let other = g.sample_world(0, &mut rng);
    let mean = |t: &TarPit, seed: u64| {
        let mut r = Pcg64::seed_from_u64(seed);
        let mut sum = [0f64; cards::KINDS];
        for _ in 0..2000 {
            let w = t.sample_world(0, &mut r);
            for (k, s) in sum.iter_mut().enumerate() {
                *s += w.hand(Color::Black)[k] as f64 / 2000.0;
            }
        }
        sum
    };
    let (a, b) = (mean(&g, 1), mean(&other, 2));
    for k in 0..cards::KINDS {
        assert!((a[k] - b[k]).abs() < 0.12, "kind {k}: {} vs {}", a[k], b[k]);
    }
}

#[test]
fn information_keys_are_equal_exactly_when_observations_are() {
    let mut rng = Pcg64::seed_from_u64(3);
    let mut all = states(3, 17, &busy_params());
    let extra: Vec<TarPit> = all
        .iter()
        .step_by(3)
        .flat_map(|g| [g.sample_world(0, &mut rng), g.sample_world(1, &mut rng)])
        .collect();
    all.extend(extra);
    let mut equal_pairs = 0;
    for seat in 0..2 {
        let keyed: Vec<(u64, String)> = all
            .iter()
            .map(|g| (g.information_key(seat), g.observation(seat)))
            .collect();
        for i in 0..keyed.len() {
            for j in i + 1..keyed.len() {
                let same_key = keyed[i].0 == keyed[j].0;
                let same_obs = keyed[i].1 == keyed[j].1;
                assert_eq!(same_key, same_obs, "states {i} and {j}, seat {seat}");
                equal_pairs += same_key as usize;
            }
        }
    }
    assert!(
        equal_pairs > 10,
        "the test must compare equal observations too"
    );
}

/// The open-hands twin: the properties above where they still apply. Sampled worlds are
/// the state itself, information keys are the state key, and keys are equal exactly when
/// the (now complete) observations are, over the same random games.
#[test]
fn open_hands_twin_keys_follow_its_observations() {
    let mut rng = Pcg64::seed_from_u64(6);
    let params = TarPitParams {
        open_hands: true,
        ..busy_params()
    };
    let mut all = states(3, 17, &params);
    // Sampled worlds join the states, as above (here they are copies of the state).
    let extra: Vec<TarPit> = all
        .iter()
        .step_by(3)
        .flat_map(|g| [g.sample_world(0, &mut rng), g.sample_world(1, &mut rng)])
        .collect();
    all.extend(extra);
    let mut equal_pairs = 0;
    for g in &all {
        for seat in 0..2 {
            assert_eq!(g.information_key(seat), g.state_key());
            let w = g.sample_world(seat, &mut rng);
            assert_eq!(w.state_key(), g.state_key());
            assert_eq!(w.hand(Color::White), g.hand(Color::White));
            assert_eq!(w.hand(Color::Black), g.hand(Color::Black));
            assert_eq!(w.pile(), g.pile());
            assert!(!g.observation(seat).contains("draw:?"));
        }
    }
    for seat in 0..2 {
        let keyed: Vec<(u64, String)> = all
            .iter()
            .map(|g| (g.information_key(seat), g.observation(seat)))
            .collect();
        for i in 0..keyed.len() {
            for j in i + 1..keyed.len() {
                assert_eq!(
                    keyed[i].0 == keyed[j].0,
                    keyed[i].1 == keyed[j].1,
                    "states {i} and {j}, seat {seat}"
                );
                equal_pairs += usize::from(keyed[i].0 == keyed[j].0);
            }
        }
    }
    assert!(
        equal_pairs > 10,
        "the test must compare equal observations too"
    );
}

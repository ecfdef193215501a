//! Information properties of Cooperative Chess over random playouts: each seat sees its
//! own hand only; `sample_world` deals the unseen cards (partner's hand, pile)
//! consistently with everything the seat saw, in a way that does not depend on the
//! hidden cards; information keys are equal exactly when observations are.

use engine::game::{Game, Seat, Turn};
use engine::variants::cooperative::{
    total, Card, CoopAction, Cooperative, CooperativeParams, Counts, KINDS,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::HashMap;

fn params() -> CooperativeParams {
    CooperativeParams::default()
}

/// Plays one random action or chance outcome; false at the end.
fn step(g: &mut Cooperative, rng: &mut Pcg64) -> bool {
    let a = match g.turn() {
        Turn::Terminal => return false,
        Turn::Chance => {
            let mut out = Vec::new();
            g.chance_outcomes(&mut out);
            out[engine::random::sample_index(&out, rng)].0
        }
        Turn::Seat(s) => {
            let mut v = Vec::new();
            g.legal_actions(s, &mut v);
            // Captures are where the stacks change: favour them.
            let caps: Vec<_> = v
                .iter()
                .copied()
                .filter(|a| matches!(a, CoopAction::Move(_)) && v.contains(&CoopAction::Pass))
                .collect();
            if !caps.is_empty() && rng.gen_bool(0.7) {
                caps[rng.gen_range(0..caps.len())]
            } else {
                v[rng.gen_range(0..v.len())]
            }
        }
        t => panic!("unexpected {t:?}"),
    };
    g.apply(a);
    true
}

fn add(a: &Counts, b: &Counts) -> Counts {
    let mut c = *a;
    for (x, y) in c.iter_mut().zip(b) {
        *x += y;
    }
    c
}

/// What `seat` cannot see: the partner's hand and the pile, together.
fn unseen(g: &Cooperative, seat: Seat) -> Counts {
    add(&g.hand(1 - seat), &g.pile())
}

#[test]
fn sample_world_keeps_everything_the_seat_saw_and_deals_only_unseen_cards() {
    let mut rng = Pcg64::seed_from_u64(21);
    let mut srng = Pcg64::seed_from_u64(22);
    let mut checked = 0;
    let mut changed = 0;
    for _ in 0..40 {
        let mut g = Cooperative::new(&params());
        let mut n = 0;
        while step(&mut g, &mut rng) {
            n += 1;
            if n % 5 != 0 {
                continue;
            }
            for seat in 0..2 {
                let mut w = g.sample_world(seat, &mut srng);
                assert_eq!(w.information_key(seat), g.information_key(seat));
                assert_eq!(w.observation(seat), g.observation(seat));
                assert_eq!(w.hand(seat), g.hand(seat));
                assert_eq!(w.board_ref().fen(), g.board_ref().fen());
                assert_eq!(w.stack(0), g.stack(0));
                assert_eq!(w.stack(1), g.stack(1));
                assert_eq!(w.captured(), g.captured());
                assert_eq!(total(&w.hand(1 - seat)), total(&g.hand(1 - seat)));
                assert_eq!(w.pile_len(), g.pile_len());
                assert_eq!(unseen(&w, seat), unseen(&g, seat), "only unseen cards move");
                assert_eq!(w.history_len(), g.history_len());
                changed += usize::from(w.hand(1 - seat) != g.hand(1 - seat));
                checked += 1;
                // The rewritten history is a possible one: undo runs back to the deal
                // without a card count going wrong, and the world plays on.
                if checked % 7 == 0 {
                    let mut back = w.clone();
                    while back.history_len() > 0 {
                        back.undo();
                    }
                    assert_eq!(back.state_key(), Cooperative::new(&params()).state_key());
                    while step(&mut w, &mut srng) {}
                }
            }
        }
    }
    assert!(
        checked > 300 && changed > checked / 3,
        "checked {checked}, changed {changed}"
    );
}

#[test]
fn sampling_does_not_depend_on_the_hidden_cards() {
    let mut rng = Pcg64::seed_from_u64(31);
    let mut pairs = 0;
    for game in 0..30 {
        let mut g = Cooperative::new(&params());
        let stop = 20 + game * 3;
        while g.history_len() < stop && step(&mut g, &mut rng) {}
        if g.turn() == Turn::Terminal {
            continue;
        }
        for seat in 0..2 {
            // A twin: another truth the seat cannot tell from this one.
            let mut r = Pcg64::seed_from_u64(500 + game as u64);
            let twin = (0..50)
                .map(|_| g.sample_world(seat, &mut r))
                .find(|w| w.hand(1 - seat) != g.hand(1 - seat));
            let Some(twin) = twin else { continue };
            assert_ne!(twin.state_key(), g.state_key());
            assert_eq!(twin.information_key(seat), g.information_key(seat));
            assert_ne!(
                twin.information_key(1 - seat),
                g.information_key(1 - seat),
                "the partner sees its own hand"
            );
            // Identical seeds, identical draws, whichever truth holds.
            let mut r1 = Pcg64::seed_from_u64(77 + game as u64);
            let mut r2 = Pcg64::seed_from_u64(77 + game as u64);
            let pool = unseen(&g, seat);
            let pool_n = total(&pool) as f64;
            let k = total(&g.hand(1 - seat)) as f64;
            let draws = 4000;
            let mut seen = [0u32; KINDS];
            for _ in 0..draws {
                let a = g.sample_world(seat, &mut r1);
                let b = twin.sample_world(seat, &mut r2);
                assert_eq!(a.state_key(), b.state_key(), "draw depends on hidden cards");
                for (s, h) in seen.iter_mut().zip(a.hand(1 - seat)) {
                    *s += h as u32;
                }
            }
            // Uniform dealing: each kind lands in the partner's hand in proportion to
            // its share of the unseen cards (mean within six standard deviations).
            for i in 0..KINDS {
                let p = pool[i] as f64 / pool_n;
                let mean = draws as f64 * k * p;
                let sd = (draws as f64 * k * p * (1.0 - p)).sqrt().max(1.0);
                assert!(
                    (seen[i] as f64 - mean).abs() < 6.0 * sd,
                    "{}: {} vs {mean}",
                    Card::from_index(i),
                    seen[i]
                );
            }
            pairs += 1;
        }
    }
    assert!(pairs >= 20, "only {pairs} pairs");
}

#[test]
fn information_keys_differ_exactly_when_observations_differ() {
    let mut rng = Pcg64::seed_from_u64(41);
    let mut srng = Pcg64::seed_from_u64(42);
    // Observation -> key, per seat, over true states and sampled worlds.
    let mut by_obs: [HashMap<String, u64>; 2] = [HashMap::new(), HashMap::new()];
    let mut by_key: [HashMap<u64, String>; 2] = [HashMap::new(), HashMap::new()];
    let mut note = |seat: usize, obs: String, key: u64| {
        if let Some(k) = by_obs[seat].get(&obs) {
            assert_eq!(*k, key, "equal observations, different keys");
        }
        if let Some(o) = by_key[seat].get(&key) {
            assert_eq!(*o, obs, "equal keys, different observations");
        }
        by_obs[seat].insert(obs.clone(), key);
        by_key[seat].insert(key, obs);
    };
    for _ in 0..10 {
        let mut g = Cooperative::new(&params());
        loop {
            for seat in 0..2 {
                note(seat, g.observation(seat), g.information_key(seat));
                let w = g.sample_world(seat, &mut srng);
                note(seat, w.observation(seat), w.information_key(seat));
            }
            // Every action of the mover is seen by both seats; a draw only by its
            // recipient.
            match g.turn() {
                Turn::Seat(s) => {
                    let mut v = Vec::new();
                    g.legal_actions(s, &mut v);
                    for seat in 0..2 {
                        let mut keys: Vec<u64> = v
                            .iter()
                            .map(|&a| {
                                g.apply(a);
                                let k = g.information_key(seat);
                                g.undo();
                                k
                            })
                            .collect();
                        keys.sort_unstable();
                        keys.dedup();
                        assert_eq!(keys.len(), v.len(), "seat {seat} tells actions apart");
                    }
                }
                Turn::Chance => {
                    let mut out = Vec::new();
                    g.chance_outcomes(&mut out);
                    // The recipient is the seat whose hand grows.
                    let before = total(&g.hand(1));
                    g.apply(out[0].0);
                    let to = usize::from(total(&g.hand(1)) > before);
                    g.undo();
                    let mut keys: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
                    for &(a, _) in &out {
                        g.apply(a);
                        for (seat, k) in keys.iter_mut().enumerate() {
                            k.push(g.information_key(seat));
                        }
                        g.undo();
                    }
                    for (seat, k) in keys.iter_mut().enumerate() {
                        k.sort_unstable();
                        k.dedup();
                        let expect = if seat == to { out.len() } else { 1 };
                        assert_eq!(k.len(), expect, "seat {seat}, recipient {to}");
                    }
                }
                _ => {}
            }
            if !step(&mut g, &mut rng) {
                break;
            }
        }
    }
    assert!(by_obs[0].len() > 500);
}

#[test]
fn each_seat_sees_its_own_hand_only() {
    let mut rng = Pcg64::seed_from_u64(51);
    let mut g = Cooperative::new(&params());
    while g.turn() == Turn::Chance {
        step(&mut g, &mut rng);
    }
    for seat in 0..2 {
        let obs = g.observation(seat);
        let own = engine::variants::cooperative::letters(&g.hand(seat));
        assert!(obs.contains(&format!("your hand: {own}")), "{obs}");
        assert!(obs.contains("partner holds 3"), "{obs}");
        // The partner's dealt cards appear only as anonymous draws.
        let other = if seat == 0 { "b:draw" } else { "w:draw" };
        assert_eq!(obs.matches(other).count(), 3, "{obs}");
    }
}

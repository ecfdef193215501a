//! Information properties of Zombie Chess over random playouts: sampled worlds never
//! contradict what the seat observed, the sampler depends only on those observations,
//! information keys are equal exactly when observations are, and the belief equals a
//! brute-force recount of the opponent's burial choices.

use engine::game::{Game, Turn};
use engine::variants::zombie::{BurialGrid, Event, Zombie, ZombieAction, ZombieParams};
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::BTreeMap;

fn params(ply_cap: u32) -> ZombieParams {
    ZombieParams {
        ply_cap,
        ..Default::default()
    }
}

/// One random action, favouring captures (burials are where the information is).
fn random_action(g: &Zombie, rng: &mut Pcg64) -> Option<ZombieAction> {
    let Turn::Seat(s) = g.turn() else { return None };
    let mut actions = Vec::new();
    g.legal_actions(s, &mut actions);
    let board = g.board().unwrap();
    let captures: Vec<_> = actions
        .iter()
        .copied()
        .filter(|a| matches!(a, ZombieAction::Move(m) if board.piece_at(m.to()).is_some()))
        .collect();
    if !captures.is_empty() && rng.gen_bool(0.6) {
        return Some(captures[rng.gen_range(0..captures.len())]);
    }
    Some(actions[rng.gen_range(0..actions.len())])
}

/// A random playout of at most `steps` actions; returns the game and its record.
fn playout(seed: u64, steps: usize, ply_cap: u32) -> (Zombie, Vec<String>) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut g = Zombie::new(&params(ply_cap));
    let mut record = Vec::new();
    for _ in 0..steps {
        let Some(a) = random_action(&g, &mut rng) else {
            break;
        };
        record.push(g.action_notation(a));
        g.apply(a);
    }
    (g, record)
}

/// What `seat` observed: every action with the opponent's burial squares hidden, and the
/// public record.
fn observed(g: &Zombie, record: &[String], seat: usize) -> String {
    let mut replay = Zombie::new(&params(g_cap(g)));
    let mut parts = Vec::new();
    for a in record {
        let mover = replay.turn();
        let hidden = a.starts_with("bury:") && mover != Turn::Seat(seat);
        parts.push(if hidden {
            "bury:?".to_string()
        } else {
            a.clone()
        });
        let x = replay.parse_action(a).unwrap();
        replay.apply(x);
    }
    format!("{} {:?}", parts.join(" "), g.events())
}

fn g_cap(_g: &Zombie) -> u32 {
    400
}

/// Every grid of the opponent of `seat` that a replay of `record` with other burial
/// choices of that opponent reaches while reproducing every public announcement, with
/// the number of choice sequences leading to it. `None` past `limit` leaves.
fn brute_force(record: &[String], seat: usize, limit: usize) -> Option<BTreeMap<BurialGrid, f64>> {
    let truth = {
        let mut g = Zombie::new(&params(400));
        let mut events = Vec::new();
        for a in record {
            let x = g.parse_action(a).unwrap();
            g.apply(x);
            events.push(g.events().to_vec());
        }
        events
    };
    let mut r = Recount {
        record,
        truth,
        them: Color::from_index(seat).other(),
        out: BTreeMap::new(),
        leaves: 0,
        limit,
    };
    let mut g = Zombie::new(&params(400));
    r.go(&mut g, 0).then_some(r.out)
}

/// The brute-force search's fixed inputs and its tally.
struct Recount<'a> {
    record: &'a [String],
    truth: Vec<Vec<Event>>,
    them: Color,
    out: BTreeMap<BurialGrid, f64>,
    leaves: usize,
    limit: usize,
}

impl Recount<'_> {
    /// Continues from action `i`; false once the leaf limit is passed.
    fn go(&mut self, g: &mut Zombie, i: usize) -> bool {
        if self.leaves > self.limit {
            return false;
        }
        if i == self.record.len() {
            self.leaves += 1;
            *self.out.entry(g.grid(self.them)).or_insert(0.0) += 1.0;
            return true;
        }
        let options: Vec<ZombieAction> =
            if self.record[i].starts_with("bury:") && g.turn() == Turn::Seat(self.them.index()) {
                let mut v = Vec::new();
                g.legal_actions(self.them.index(), &mut v);
                v
            } else {
                match g.parse_action(&self.record[i]) {
                    Ok(a) => vec![a],
                    Err(_) => return true,
                }
            };
        for a in options {
            g.apply(a);
            let ok = g.events() != self.truth[i].as_slice() || self.go(g, i + 1);
            g.undo();
            if !ok {
                return false;
            }
        }
        true
    }
}

#[test]
fn belief_equals_a_brute_force_recount() {
    let mut checked = 0;
    for seed in 0..40 {
        for steps in [20, 35, 50] {
            let (g, record) = playout(seed, steps, 400);
            for seat in 0..2 {
                let Some(brute) = brute_force(&record, seat, 20_000) else {
                    continue;
                };
                let Some(belief) = g.belief(seat) else {
                    continue;
                };
                let belief: BTreeMap<BurialGrid, f64> = belief.into_iter().collect();
                assert_eq!(belief, brute, "seed {seed} steps {steps} seat {seat}");
                let them = Color::from_index(seat).other();
                assert!(belief.contains_key(&g.grid(them)), "the truth is possible");
                if brute.len() > 1 {
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} non-trivial beliefs checked");
}

#[test]
fn sampled_worlds_never_contradict_observations() {
    let mut rng = Pcg64::seed_from_u64(5);
    for seed in 0..12 {
        let (g, record) = playout(seed, 60, 400);
        for seat in 0..2 {
            let me = Color::from_index(seat);
            let belief: Option<BTreeMap<BurialGrid, f64>> =
                g.belief(seat).map(|b| b.into_iter().collect());
            let obs = observed(&g, &record, seat);
            for _ in 0..20 {
                let w = g.sample_world(seat, &mut rng);
                assert_eq!(w.information_key(seat), g.information_key(seat));
                assert_eq!(w.grid(me), g.grid(me), "the seat's own burials are kept");
                assert_eq!(w.board().unwrap(), g.board().unwrap());
                assert_eq!(w.zombies(), g.zombies());
                if let Some(b) = &belief {
                    assert!(b.contains_key(&w.grid(me.other())));
                }
                assert_eq!(observed(&w, &record, seat), obs);
                // Playing on in the sampled world follows the same rules.
                let mut w2 = w.clone();
                let mut r2 = Pcg64::seed_from_u64(seed);
                for _ in 0..10 {
                    let Some(a) = random_action(&w2, &mut r2) else {
                        break;
                    };
                    w2.apply(a);
                }
            }
        }
    }
}

/// The opponent's burial choice is hidden: two states differing only in it give the
/// same samples from the same random stream, and the samples follow the belief weights.
#[test]
fn sampler_does_not_depend_on_the_hidden_truth() {
    let mut pairs = 0;
    for seed in 0..30 {
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut g = Zombie::new(&params(400));
        for _ in 0..80 {
            let Some(a) = random_action(&g, &mut rng) else {
                break;
            };
            if let (ZombieAction::Bury(_), Turn::Seat(s)) = (a, g.turn()) {
                let mut options = Vec::new();
                g.legal_actions(s, &mut options);
                if options.len() > 1 {
                    let mut x = g.clone();
                    let mut y = g.clone();
                    x.apply(options[0]);
                    y.apply(options[1]);
                    let seat = 1 - s;
                    assert_eq!(x.information_key(seat), y.information_key(seat));
                    assert_ne!(x.information_key(s), y.information_key(s));
                    for k in 0..5 {
                        let mut r1 = Pcg64::seed_from_u64(k);
                        let mut r2 = Pcg64::seed_from_u64(k);
                        assert_eq!(
                            x.sample_world(seat, &mut r1).state_key(),
                            y.sample_world(seat, &mut r2).state_key(),
                            "seed {seed}: samples depend on the truth"
                        );
                    }
                    pairs += 1;
                }
            }
            g.apply(a);
        }
    }
    assert!(pairs >= 10, "only {pairs} burial pairs");
}

#[test]
fn samples_follow_the_belief_weights() {
    // White captures once and buries among its 16 pieces: Black's belief is uniform
    // over those squares until announcements rule some out.
    let mut g = Zombie::new(&params(400));
    for a in ["e2e4", "end", "d7d5", "end", "e4d5", "end", "bury:a1"] {
        let x = g.parse_action(a).unwrap();
        g.apply(x);
    }
    let belief = g.belief(1).unwrap();
    assert_eq!(belief.len(), 16);
    let mut counts: BTreeMap<BurialGrid, u32> = BTreeMap::new();
    let mut rng = Pcg64::seed_from_u64(1);
    let n = 8000;
    for _ in 0..n {
        *counts
            .entry(g.sample_world(1, &mut rng).grid(Color::White))
            .or_insert(0) += 1;
    }
    assert_eq!(counts.len(), 16);
    let expected = n as f64 / 16.0;
    let chi: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    // 15 degrees of freedom: 37.7 is the 0.999 quantile.
    assert!(chi < 37.7, "chi-square {chi}");
}

#[test]
fn information_keys_equal_exactly_when_observations_are() {
    // States from playouts that share prefixes and differ in burial choices.
    let mut states: Vec<(Zombie, Vec<String>)> = Vec::new();
    for seed in 0..6 {
        let (g, record) = playout(seed, 40, 400);
        // Replay with every alternative burial at each decision, then the same actions.
        for (i, a) in record.iter().enumerate() {
            if !a.starts_with("bury:") {
                continue;
            }
            let mut h = Zombie::new(&params(400));
            for b in &record[..i] {
                let x = h.parse_action(b).unwrap();
                h.apply(x);
            }
            let mut options = Vec::new();
            if let Turn::Seat(s) = h.turn() {
                h.legal_actions(s, &mut options);
            }
            for o in options.into_iter().take(3) {
                let mut k = h.clone();
                let mut rec: Vec<String> = record[..i].to_vec();
                rec.push(k.action_notation(o));
                k.apply(o);
                for b in &record[i + 1..] {
                    match k.parse_action(b) {
                        Ok(x) => {
                            k.apply(x);
                            rec.push(b.clone());
                        }
                        Err(_) => break,
                    }
                }
                states.push((k, rec));
            }
        }
        states.push((g, record));
    }
    let mut equal_pairs = 0;
    for seat in 0..2 {
        let obs: Vec<String> = states.iter().map(|(g, r)| observed(g, r, seat)).collect();
        for i in 0..states.len() {
            for j in i + 1..states.len() {
                let same_key =
                    states[i].0.information_key(seat) == states[j].0.information_key(seat);
                let same_obs = obs[i] == obs[j];
                assert_eq!(same_key, same_obs, "seat {seat}: states {i} and {j}");
                if same_obs && states[i].0.state_key() != states[j].0.state_key() {
                    equal_pairs += 1;
                }
            }
        }
    }
    assert!(
        equal_pairs > 0,
        "no indistinguishable pair with different truths"
    );
}

/// `record` replayed into a new game (with its own, empty belief cache).
fn replay(record: &[String]) -> Zombie {
    let mut g = Zombie::new(&params(400));
    for a in record {
        let x = g.parse_action(a).unwrap();
        g.apply(x);
    }
    g
}

/// The cache is invisible: a game whose belief was extended event by event (and shared
/// with its clones) samples exactly what a fresh replay of the same record samples,
/// in the exact regime and in the particle regime alike.
#[test]
fn incremental_belief_equals_a_fresh_one() {
    let mut particle_states = 0;
    for seed in 0..3 {
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut g = Zombie::new(&params(400));
        let mut record = Vec::new();
        for step in 0..240 {
            let Some(a) = random_action(&g, &mut rng) else {
                break;
            };
            record.push(g.action_notation(a));
            g.apply(a);
            for seat in 0..2 {
                // Every step extends the cache of `g` by a few events.
                let _ = g.sample_world(seat, &mut rng);
            }
            if step % 20 != 19 {
                continue;
            }
            let fresh = replay(&record);
            for seat in 0..2 {
                assert_eq!(g.belief_is_exact(seat), fresh.belief_is_exact(seat));
                assert_eq!(
                    g.belief(seat),
                    fresh.belief(seat),
                    "seed {seed} step {step}"
                );
                particle_states += usize::from(!g.belief_is_exact(seat));
                for k in 0..4 {
                    let mut r1 = Pcg64::seed_from_u64(k);
                    let mut r2 = Pcg64::seed_from_u64(k);
                    assert_eq!(
                        g.sample_world(seat, &mut r1).state_key(),
                        fresh.sample_world(seat, &mut r2).state_key(),
                        "seed {seed} step {step} seat {seat}"
                    );
                }
            }
        }
    }
    assert!(particle_states > 0, "the particle regime was never reached");
}

/// Past the exact bound, sampled worlds still never contradict the record, do not
/// depend on the hidden truth (a replay with another burial of the opponent, with its
/// own cache, samples the same worlds), and are not stuck on the truth (more than one
/// grid is drawn wherever the record allows more than one).
#[test]
fn particle_regime_keeps_the_information_properties() {
    let mut checked = 0;
    for seed in 0..12 {
        if checked >= 2 {
            break;
        }
        let (g, record) = playout(100 + seed, 220, 400);
        for seat in 0..2 {
            if g.belief_is_exact(seat) {
                continue;
            }
            let me = Color::from_index(seat);
            let obs = observed(&g, &record, seat);
            let mut rng = Pcg64::seed_from_u64(seed);
            let mut grids = std::collections::BTreeSet::new();
            for _ in 0..30 {
                let w = g.sample_world(seat, &mut rng);
                assert_eq!(w.information_key(seat), g.information_key(seat));
                assert_eq!(w.grid(me), g.grid(me));
                assert_eq!(observed(&w, &record, seat), obs);
                grids.insert(w.grid(me.other()));
            }
            // Not stuck on the truth: several grids are drawn, or one that is not the
            // truth, unless the record leaves only the truth (a search of the record for
            // any other grid finds none). The particles may keep one grid of several
            // (an approximation the filter allows).
            let truth = g.grid(me.other());
            if grids.len() == 1 && grids.contains(&truth) {
                let other = engine::variants::zombie::belief::search_grid(
                    g.events(),
                    me.other(),
                    seed,
                    1 << 20,
                    &|x| x != truth,
                );
                assert_eq!(other, None, "seed {seed} seat {seat}: one grid only");
            }
            // Another burial choice of the opponent at its last burial with a choice,
            // the rest of the record replayed on top where it still applies.
            let them = Turn::Seat(1 - seat);
            let mut alt = None;
            for (i, a) in record.iter().enumerate().rev() {
                if !a.starts_with("bury:") {
                    continue;
                }
                let mut h = replay(&record[..i]);
                if h.turn() != them {
                    continue;
                }
                let mut options = Vec::new();
                h.legal_actions(1 - seat, &mut options);
                let Some(&o) = options.iter().find(|&&o| h.action_notation(o) != *a) else {
                    continue;
                };
                h.apply(o);
                let mut rec: Vec<String> = record[..i].to_vec();
                rec.push(h.action_notation(o));
                let mut ok = true;
                for b in &record[i + 1..] {
                    match h.parse_action(b) {
                        Ok(x) => {
                            h.apply(x);
                            rec.push(b.clone());
                        }
                        Err(_) => {
                            ok = false;
                            break;
                        }
                    }
                }
                if ok && observed(&h, &rec, seat) == obs {
                    alt = Some(h);
                }
                break;
            }
            let Some(h) = alt else { continue };
            assert_ne!(h.state_key(), g.state_key());
            for k in 0..4 {
                let mut r1 = Pcg64::seed_from_u64(k);
                let mut r2 = Pcg64::seed_from_u64(k);
                assert_eq!(
                    g.sample_world(seat, &mut r1).state_key(),
                    h.sample_world(seat, &mut r2).state_key(),
                    "seed {seed} seat {seat}: samples depend on the truth"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 2, "only {checked} particle-regime pairs checked");
}

/// `record` replayed into a new game with `params`.
fn replay_with(record: &[String], params: &ZombieParams) -> Zombie {
    let mut g = Zombie::new(params);
    for a in record {
        let x = g.parse_action(a).unwrap();
        g.apply(x);
    }
    g
}

/// The open-burials twin: the properties above where they still apply. Over the same
/// kind of states (playouts replayed with other burial choices), sampled worlds are the
/// state itself, information keys are the state key, and every pair of states the seed's
/// game lumps into one information state although the burials differ is told apart by
/// the twin's keys.
#[test]
fn open_burials_twin_keys_follow_its_observations() {
    let open = ZombieParams {
        open_burials: true,
        ..params(400)
    };
    let mut records: Vec<Vec<String>> = Vec::new();
    for seed in 0..6 {
        let (_, record) = playout(seed, 40, 400);
        for (i, a) in record.iter().enumerate() {
            if !a.starts_with("bury:") {
                continue;
            }
            let h = replay_with(&record[..i], &params(400));
            let mut options = Vec::new();
            if let Turn::Seat(s) = h.turn() {
                h.legal_actions(s, &mut options);
            }
            for o in options.into_iter().take(3) {
                let mut k = h.clone();
                let mut rec: Vec<String> = record[..i].to_vec();
                rec.push(k.action_notation(o));
                k.apply(o);
                for b in &record[i + 1..] {
                    match k.parse_action(b) {
                        Ok(x) => {
                            k.apply(x);
                            rec.push(b.clone());
                        }
                        Err(_) => break,
                    }
                }
                records.push(rec);
            }
        }
        records.push(record);
    }
    let hidden: Vec<Zombie> = records
        .iter()
        .map(|r| replay_with(r, &params(400)))
        .collect();
    let twins: Vec<Zombie> = records.iter().map(|r| replay_with(r, &open)).collect();
    let mut rng = Pcg64::seed_from_u64(12);
    for (h, t) in hidden.iter().zip(&twins) {
        assert_eq!(t.state_key(), h.state_key());
        for seat in 0..2 {
            assert_eq!(t.information_key(seat), t.state_key());
            let w = t.sample_world(seat, &mut rng);
            assert_eq!(w.state_key(), t.state_key());
            assert_eq!(w.grid(Color::White), t.grid(Color::White));
            assert_eq!(w.grid(Color::Black), t.grid(Color::Black));
        }
    }
    let mut lumped = 0;
    for seat in 0..2 {
        let them = Color::from_index(seat).other();
        for i in 0..hidden.len() {
            for j in i + 1..hidden.len() {
                let same_info = hidden[i].information_key(seat) == hidden[j].information_key(seat);
                if same_info && hidden[i].grid(them) != hidden[j].grid(them) {
                    lumped += 1;
                    assert_ne!(
                        twins[i].information_key(seat),
                        twins[j].information_key(seat),
                        "seat {seat}: states {i} and {j}"
                    );
                    assert_ne!(twins[i].observation(seat), twins[j].observation(seat));
                }
            }
        }
    }
    assert!(lumped > 0, "no pair the seed's game cannot tell apart");
}

//! The full-information twin (issue 67, `open_burials`): burials in the open, every other
//! rule the seed's.

use super::*;
use crate::game::twins;
use rand::{Rng, SeedableRng};

fn open() -> ZombieParams {
    ZombieParams {
        open_burials: true,
        ..Default::default()
    }
}

#[test]
fn conformance_random_games_with_open_burials() {
    let g = Zombie::new(&open());
    assert!(g.is_perfect_information());
    conformance::check(&g, 6, 23);
}

#[test]
fn rule_zombie_open_burials_show_the_opponent_where_it_buried() {
    // The hidden game's pair (`rule_capturer_chooses_burial`): one capture, two burials.
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let buried = |params: &ZombieParams, square: &str| {
        let mut g = Zombie::from_opening(params, fen).unwrap();
        play(&mut g, &["e4d5", "end", square]);
        g
    };
    let (a, b) = (buried(&open(), "bury:d5"), buried(&open(), "bury:e1"));
    for seat in 0..2 {
        assert_ne!(
            a.information_key(seat),
            b.information_key(seat),
            "seat {seat}"
        );
        assert_eq!(a.information_key(seat), a.state_key());
        assert_ne!(a.observation(seat), b.observation(seat), "seat {seat}");
    }
    assert!(
        a.observation(1)
            .contains("your pieces buried by white: d5:P |"),
        "{}",
        a.observation(1)
    );
    assert!(b
        .observation(1)
        .contains("your pieces buried by white: e1:P |"));
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2);
    for seat in 0..2 {
        let w = a.sample_world(seat, &mut rng);
        assert_eq!(w.state_key(), a.state_key());
        assert_eq!(w.grid(Color::White), a.grid(Color::White));
    }
    // The seed's game: Black cannot tell them apart and sees only what was buried.
    let d = ZombieParams::default();
    let (x, y) = (buried(&d, "bury:d5"), buried(&d, "bury:e1"));
    assert_eq!(x.information_key(1), y.information_key(1));
    assert!(x
        .observation(1)
        .contains("your pieces buried by white: P |"));
}

/// One random action, captures favoured (burials are what the twin opens).
fn capture_first(g: &Zombie, actions: &[ZombieAction], rng: &mut rand_pcg::Pcg64) -> ZombieAction {
    let captures: Vec<_> = actions
        .iter()
        .copied()
        .filter(|a| matches!(a, ZombieAction::Move(m) if g.board.piece_at(m.to()).is_some()))
        .collect();
    if !captures.is_empty() && rng.gen_bool(0.6) {
        return captures[rng.gen_range(0..captures.len())];
    }
    actions[rng.gen_range(0..actions.len())]
}

#[test]
fn rule_zombie_open_burials_play_by_the_same_rules() {
    // Seeded random games of the seed's game replay in the twin action for action: the
    // same legal lists, events, states, results and tallies.
    let mut risings = 0;
    for seed in 0..6u64 {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(60 + seed);
        let cap = ZombieParams {
            ply_cap: 120,
            ..Default::default()
        };
        let twin = Zombie::new(&ZombieParams {
            open_burials: true,
            ..cap.clone()
        });
        let same_events = |h: &Zombie, t: &Zombie| assert_eq!(h.events(), t.events());
        let end = twins::same_rules(
            Zombie::new(&cap),
            twin,
            &mut rng,
            capture_first,
            same_events,
        );
        risings += end
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Vacated { rose: Some(_), .. }))
            .count();
    }
    assert!(risings > 0, "the games must raise zombies");
}

#[test]
fn rule_zombie_open_burials_is_a_parameter_left_out_when_off() {
    twins::switch_is_a_parameter::<ZombieParams>("zombie", "open_burials", "2");
}

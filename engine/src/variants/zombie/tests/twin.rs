//! The full-information twin (issue 67, `open_burials`): burials in the open, every other
//! rule the seed's.

use super::*;
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
fn random_action(g: &Zombie, rng: &mut rand_pcg::Pcg64) -> Option<ZombieAction> {
    let Turn::Seat(s) = g.turn() else { return None };
    let mut actions = Vec::new();
    g.legal_actions(s, &mut actions);
    let captures: Vec<_> = actions
        .iter()
        .copied()
        .filter(|a| matches!(a, ZombieAction::Move(m) if g.board.piece_at(m.to()).is_some()))
        .collect();
    if !captures.is_empty() && rng.gen_bool(0.6) {
        return Some(captures[rng.gen_range(0..captures.len())]);
    }
    Some(actions[rng.gen_range(0..actions.len())])
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
        let mut hidden = Zombie::new(&cap);
        let mut twin = Zombie::new(&ZombieParams {
            open_burials: true,
            ..cap
        });
        let (mut a, mut b) = (Vec::new(), Vec::new());
        while let Some(action) = random_action(&hidden, &mut rng) {
            let Turn::Seat(s) = hidden.turn() else {
                unreachable!()
            };
            assert_eq!(twin.turn(), Turn::Seat(s));
            hidden.legal_actions(s, &mut a);
            twin.legal_actions(s, &mut b);
            assert_eq!(a, b, "seed {seed}: legal actions differ");
            let text = hidden.action_notation(action);
            assert_eq!(twin.parse_action(&text), Ok(action));
            hidden.apply(action);
            twin.apply(action);
            assert_eq!(hidden.state_key(), twin.state_key());
            assert_eq!(hidden.events(), twin.events());
        }
        assert_eq!(twin.turn(), Turn::Terminal);
        assert_eq!(hidden.result(), twin.result());
        assert_eq!(hidden.tallies(), twin.tallies());
        risings += hidden
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Vacated { rose: Some(_), .. }))
            .count();
    }
    assert!(risings > 0, "the games must raise zombies");
}

#[test]
fn rule_zombie_open_burials_is_a_parameter_left_out_when_off() {
    let text = toml::to_string(&ZombieParams::default()).unwrap();
    assert!(!text.contains("open_burials"), "{text}");
    let on: ZombieParams = toml::from_str("open_burials = true").unwrap();
    assert!(on.open_burials && on.validate().is_ok());
    assert!(toml::to_string(&on)
        .unwrap()
        .contains("open_burials = true"));
    assert!(ZOMBIE_PARAM_DOCS.iter().any(|d| d.key == "open_burials"));
    struct Perfect;
    impl crate::registry::VariantVisitor for Perfect {
        type Output = bool;
        fn visit<G: Game>(self, _: &'static str, p: G::Params) -> bool {
            G::new(&p).is_perfect_information()
        }
    }
    let visit = |text| crate::registry::visit("zombie", text, Perfect);
    assert_eq!(visit(Some("open_burials = true")), Ok(true));
    assert_eq!(visit(None), Ok(false));
    assert!(visit(Some("open_burials = 2")).is_err());
}

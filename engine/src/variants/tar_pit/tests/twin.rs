//! The full-information twin (issue 67): `open_hands` shows both hands and every draw,
//! and changes no rule of play.

use super::*;
use crate::game::twins;

fn open_hands() -> TarPitParams {
    TarPitParams {
        open_hands: true,
        ..Default::default()
    }
}

#[test]
fn tar_pit_open_hands_conforms_to_the_game_api() {
    let g = TarPit::new(&open_hands());
    assert!(g.is_perfect_information());
    assert_eq!(g.facts().chance, crate::game::ChanceMode::Explicit);
    conformance::check(&g, 6, 13);
}

#[test]
fn rule_tar_pit_open_hands_show_the_opponents_hand_and_draws() {
    let fen = "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1";
    let both = |params: TarPitParams, black_hand: &str| {
        pos_with(params, fen, "", "e4", [5, 5], ["PN", black_hand], "")
    };
    // Two states that differ only in Black's hand (and so in the pile).
    let (a, b) = (both(open_hands(), "pp"), both(open_hands(), "nb"));
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
        a.observation(0).contains("black's hand: pp |"),
        "{}",
        a.observation(0)
    );
    assert!(
        a.observation(1).contains("white's hand: PN |"),
        "{}",
        a.observation(1)
    );
    let mut rng = Pcg64::seed_from_u64(4);
    for seat in 0..2 {
        let w = a.sample_world(seat, &mut rng);
        assert_eq!(w.state_key(), a.state_key());
        assert_eq!(w.hand(Color::Black), a.hand(Color::Black));
    }
    // The seed's game: one information state for White.
    let (x, y) = (
        both(TarPitParams::default(), "pp"),
        both(TarPitParams::default(), "nb"),
    );
    assert_eq!(x.information_key(0), y.information_key(0));
    assert!(x.observation(0).contains("black's hand: 2 cards"));
    // White's draws are seen by Black, card by card.
    let mut g = both(open_hands(), "pp");
    play(&mut g, "e1d1");
    play(&mut g, "card:P@e4");
    let drawn = draw_through(&mut g);
    assert_eq!(drawn, 4);
    let log = g.observation(1);
    assert!(!log.contains("draw:?"), "{log}");
    assert_eq!(log.matches("draw:").count(), drawn, "{log}");
    let hidden = {
        let mut h = both(TarPitParams::default(), "pp");
        play(&mut h, "e1d1");
        play(&mut h, "card:P@e4");
        draw_through(&mut h);
        h
    };
    assert_eq!(hidden.observation(1).matches("draw:?").count(), drawn);
}

#[test]
fn rule_tar_pit_open_hands_play_by_the_same_rules() {
    // Seeded random games of the seed's game replay in the twin action for action: the
    // same legal lists and draw probabilities, the same states, results and tallies.
    for seed in 0..4u64 {
        let mut rng = Pcg64::seed_from_u64(40 + seed);
        let params = TarPitParams {
            ply_cap: 160,
            ..Default::default()
        };
        let twin = TarPit::new(&TarPitParams {
            open_hands: true,
            ..params.clone()
        });
        let mut cards_played = 0;
        let pick = |g: &TarPit, actions: &[TarPitAction], rng: &mut Pcg64| {
            let a = twins::any_action(g, actions, rng);
            cards_played += usize::from(matches!(a, TarPitAction::Card(..)));
            a
        };
        twins::same_rules(TarPit::new(&params), twin, &mut rng, pick, |_, _| {});
        assert!(cards_played > 0, "seed {seed}: no card was played");
    }
}

#[test]
fn rule_tar_pit_open_hands_is_a_parameter_left_out_when_off() {
    twins::switch_is_a_parameter::<TarPitParams>("tar-pit", "open_hands", "\"yes\"");
}

//! The game's interface beyond the rules: bad input, parameter validation, seeded
//! random games replayed from their records, tallies and features.

use super::*;

#[test]
fn bad_input_gets_clear_errors() {
    let mut g = seed_example();
    let err = |g: &TarPit, t: &str| g.parse_action(t).unwrap_err().to_string();
    assert!(err(&g, "throw:f3").contains("no throw is due"));
    assert!(err(&g, "d6d4").contains("not a legal chess move"));
    assert!(err(&g, "card:n@e4").contains("no card play is due"));
    assert!(err(&g, "e2e4e6").contains("not a legal chess move"));
    play(&mut g, "d6e4");
    assert!(
        err(&g, "throw:d4").contains("no piece on d4"),
        "{}",
        err(&g, "throw:d4")
    );
    assert!(err(&g, "throw:g1").contains("not one king step"));
    assert!(err(&g, "throw:z9").contains("not a square"));
    play(&mut g, "pass");
    assert!(err(&g, "card:q@e4").contains("holds no q card"));
    assert!(err(&g, "card:n@h1").contains("no piece on h1"));
    assert!(err(&g, "card:n@g8").contains("does not match"));
    assert!(err(&g, "card:n").contains("needs a square"));
    assert!(err(&g, "card:X@e4").contains("not a card"));
    assert!(err(&g, "return:front").contains("no return is due"));
    assert!(err(&g, "discard:n").contains("no discard is due"));
    assert!(err(&g, "draw:n").contains("not a chance outcome"));
    assert!(err(&g, "hello").contains("expected"));
}

#[test]
fn params_validate_every_number() {
    let ok = TarPitParams::default();
    assert!(ok.validate().is_ok());
    let bad = |p: TarPitParams, field: &str| {
        let e = p.validate().unwrap_err();
        assert!(e.field.contains(field), "{e}");
    };
    bad(
        TarPitParams {
            white_checkers: 13,
            ..ok.clone()
        },
        "white_checkers",
    );
    bad(
        TarPitParams {
            checkers_per_colour: 0,
            ..ok.clone()
        },
        "checkers_per_colour",
    );
    bad(
        TarPitParams {
            deck: DeckParams {
                pawns: 17,
                ..DeckParams::SEED
            },
            ..ok.clone()
        },
        "deck.pawns",
    );
    bad(
        TarPitParams {
            deck: DeckParams {
                pawns: 1,
                knights: 0,
                bishops: 0,
                rooks: 0,
                queens: 0,
                kings: 0,
                checkers: 0,
            },
            ..ok.clone()
        },
        "deck",
    );
    // Overrides from a parameter file, over the seed's defaults.
    let p: TarPitParams = crate::registry::parse_params(
        "tar-pit",
        Some("[deck]\ncheckers = 1\n"),
        TarPitParams::default(),
    )
    .unwrap();
    assert_eq!(p.deck.total(), 34);
    assert!(crate::registry::parse_params(
        "tar-pit",
        Some("[deck]\njokers = 1\n"),
        TarPitParams::default()
    )
    .is_err());
}

fn random_record(seed: u64) -> (TarPit, Vec<String>) {
    let mut g = TarPit::new(&TarPitParams::default());
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut record = Vec::new();
    let mut acts = Vec::new();
    let mut outs = Vec::new();
    loop {
        let a = match g.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                g.chance_outcomes(&mut outs);
                outs[crate::random::sample_index(&outs, &mut rng)].0
            }
            Turn::Seat(s) => {
                g.legal_actions(s, &mut acts);
                acts[rng.gen_range(0..acts.len())]
            }
            Turn::Simultaneous => unreachable!(),
        };
        record.push(g.action_notation(a));
        g.apply(a);
    }
    (g, record)
}

#[test]
fn seeded_random_games_replay_exactly() {
    for seed in 0..4 {
        let (g, record) = random_record(seed);
        let (again, record2) = random_record(seed);
        assert_eq!(record, record2, "same seed, same game");
        assert_eq!(g.state_key(), again.state_key());
        let refs: Vec<&str> = record.iter().map(String::as_str).collect();
        let r = replay(TarPit::new(&TarPitParams::default()), &refs).unwrap();
        assert_eq!(r.state_key(), g.state_key());
        assert_eq!(r.result(), g.result());
        assert!(g.result().is_some());
    }
}

#[test]
fn tallies_count_throws_cards_tar_and_cleansings_and_undo_restores_them() {
    let mut g = seed_example();
    let get = |g: &TarPit, k: &str| {
        g.tallies()
            .into_iter()
            .find(|(n, _)| n == k)
            .unwrap_or_else(|| panic!("{k}"))
            .1
    };
    // White's pawn on e4 is tarred as the game starts; that is White's turn-to-be.
    play(&mut g, "d6e4");
    play(&mut g, "throw:f3");
    let before = g.tallies();
    play(&mut g, "card:p@f5");
    assert_eq!(get(&g, "black_cards_pawn"), 1.0);
    assert_eq!(get(&g, "black_cleansings"), 1.0);
    g.undo();
    assert_eq!(g.tallies(), before);
    play(&mut g, "card:n@e4");
    assert_eq!(get(&g, "black_thrown"), 1.0);
    assert_eq!(get(&g, "black_cards_knight"), 1.0);
    assert_eq!(get(&g, "black_cleansings"), 0.0);
    draw_through(&mut g);
    assert_eq!(
        get(&g, "white_tarred_turns"),
        1.0,
        "f3 is tarred at White's turn"
    );
    assert_eq!(
        get(&g, "black_tarred_turns"),
        1.0,
        "f5 was tarred at Black's"
    );
}

/// `chesslab values` features: the piece differences first, then tar and fronts, White
/// minus Black.
#[test]
fn features_count_tar_and_fronts() {
    // White: knight d4 and pawn e2 both under black checkers; Black: pawn d7 under a
    // white checker and a rook more.
    let g = pos(
        "r3k3/3p4/8/8/3N4/8/4P3/4K3 w - - 0 1",
        "d7",
        "d4 e2",
        [5, 3],
        ["", ""],
    );
    let f = g.features();
    let names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "pawn",
            "knight",
            "bishop",
            "rook",
            "queen",
            "tarred",
            "checkers_in_front"
        ]
    );
    let values: Vec<f64> = f.iter().map(|(_, v)| *v).collect();
    assert_eq!(values, [0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 2.0]);
}

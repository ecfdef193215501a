//! Rule tests for Zombie Chess (one `rule_*` per rule of RULES.md and per seed example),
//! the conformance check and bad-input errors.

use super::*;
use crate::game::conformance;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn game(fen: &str) -> Zombie {
    Zombie::from_opening(&ZombieParams::default(), fen).unwrap()
}

fn play(g: &mut Zombie, actions: &[&str]) {
    for a in actions {
        let x = g
            .parse_action(a)
            .unwrap_or_else(|e| panic!("{a}: {e} in {}", g.observation(0)));
        g.apply(x);
    }
}

fn legal(g: &Zombie) -> Vec<String> {
    let mut v = Vec::new();
    if let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut v);
    }
    v.into_iter().map(|a| g.action_notation(a)).collect()
}

fn tally(g: &Zombie, name: &str) -> f64 {
    g.tallies().into_iter().find(|(n, _)| n == name).unwrap().1
}

fn piece(g: &Zombie, s: &str) -> Option<Piece> {
    g.board.piece_at(sq(s))
}

#[test]
fn conformance_random_games() {
    conformance::check(&Zombie::new(&ZombieParams::default()), 6, 3);
}

#[test]
fn rule_orthodox_opening() {
    let mut g = Zombie::new(&ZombieParams::default());
    assert_eq!(
        legal(&g).len(),
        20,
        "20 moves, no 'end' before the regular move"
    );
    play(&mut g, &["e2e4"]);
    assert_eq!(legal(&g), vec!["end"], "no zombie: only 'end' is left");
    play(&mut g, &["end"]);
    assert_eq!(g.mover(), Color::Black);
    assert_eq!(legal(&g).len(), 20);
    assert_eq!(
        g.events(),
        &[Event::Vacated {
            by: Color::White,
            sq: sq("e2"),
            rose: None
        }]
    );
}

/// The seed's example game: Black buries a pawn under the knight on c6; White's Nxd4
/// finds no zombie and buries under b2; Black's Nxd4 raises the pawn on c6 and buries the
/// knight under g7.
#[test]
fn rule_seed_example_knight_c6() {
    let mut g = Zombie::new(&ZombieParams::default());
    play(
        &mut g,
        &[
            "d2d4", "end", "b8c6", "end", "g1f3", "end", "e7e5", "end", "a2a3", "end", "e5d4",
            "end",
        ],
    );
    assert!(g.is_burying());
    play(&mut g, &["bury:c6"]);
    assert_eq!(g.grid(Color::Black).get(sq("c6")), Some(Role::Pawn));
    play(&mut g, &["f3d4", "end"]);
    assert_eq!(
        g.events().last(),
        Some(&Event::Vacated {
            by: Color::White,
            sq: sq("f3"),
            rose: None
        }),
        "no zombie on f3"
    );
    play(&mut g, &["bury:b2"]);
    assert_eq!(g.grid(Color::White).get(sq("b2")), Some(Role::Pawn));
    play(&mut g, &["c6d4", "end"]);
    assert_eq!(piece(&g, "c6"), Some(Piece::new(Color::White, Role::Pawn)));
    assert!(g.zombies().contains(sq("c6")));
    assert_eq!(
        g.grid(Color::Black).get(sq("c6")),
        None,
        "erased from the grid"
    );
    play(&mut g, &["bury:g7"]);
    assert_eq!(g.grid(Color::Black).get(sq("g7")), Some(Role::Knight));
    assert_eq!(g.mover(), Color::White);
    assert!(
        legal(&g).contains(&"c6b7".to_string()),
        "the zombie pawn may move"
    );
    assert_eq!(tally(&g, "white_zombies_raised"), 1.0);
    assert_eq!(tally(&g, "black_burials"), 2.0);
    assert_eq!(tally(&g, "white_burials"), 1.0);
}

#[test]
fn rule_capturer_chooses_burial() {
    let mut g = game("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    play(&mut g, &["e4d5"]);
    assert_eq!(
        legal(&g),
        vec!["end"],
        "burial comes after the end of the turn"
    );
    play(&mut g, &["end"]);
    assert_eq!(g.pending(), &[Piece::new(Color::Black, Role::Pawn)]);
    let mut options = legal(&g);
    options.sort();
    assert_eq!(
        options,
        vec!["bury:d5", "bury:e1"],
        "under the capturer's own pieces"
    );
    // The choice is secret: Black cannot tell the two burials apart, White can.
    let mut a = g.clone();
    let mut b = g.clone();
    play(&mut a, &["bury:d5"]);
    play(&mut b, &["bury:e1"]);
    assert_eq!(a.information_key(1), b.information_key(1));
    assert_ne!(a.information_key(0), b.information_key(0));
    assert_ne!(a.state_key(), b.state_key());
}

#[test]
fn rule_one_burial_per_square() {
    let mut g = game("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    g.set_burial(Color::White, sq("e1"), Some(Role::Knight));
    play(&mut g, &["e4d5", "end"]);
    assert_eq!(
        legal(&g),
        vec!["bury:d5"],
        "e1 already holds a White burial"
    );
    // The opponent's burial on a square does not block one's own.
    let mut g = game("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    g.set_burial(Color::Black, sq("e1"), Some(Role::Knight));
    play(&mut g, &["e4d5", "end"]);
    assert_eq!(legal(&g).len(), 2);
}

#[test]
fn rule_cannot_bury_dust_bin() {
    let mut g = game("r3k3/8/8/8/8/8/N7/4K3 b - - 0 1");
    g.set_burial(Color::Black, sq("e8"), Some(Role::Pawn));
    g.set_burial(Color::Black, sq("a2"), Some(Role::Pawn));
    play(&mut g, &["a8a2", "end"]);
    assert!(!g.is_burying(), "no free square: no burial decision");
    assert_eq!(g.mover(), Color::White);
    assert!(g.pending().is_empty());
    assert!(matches!(
        g.events().last(),
        Some(Event::CannotBury {
            by: Color::Black,
            ..
        })
    ));
    assert_eq!(tally(&g, "black_cannot_bury"), 1.0);
    assert_eq!(g.grid(Color::Black).len(), 2, "the knight is not buried");
}

#[test]
fn rule_vacated_square_raises_zombie() {
    let mut g = game("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    g.set_burial(Color::White, sq("b1"), Some(Role::Knight));
    play(&mut g, &["b1c3", "end"]);
    assert_eq!(
        piece(&g, "b1"),
        Some(Piece::new(Color::Black, Role::Knight))
    );
    assert!(g.zombies().contains(sq("b1")));
    assert_eq!(
        g.events().last(),
        Some(&Event::Vacated {
            by: Color::White,
            sq: sq("b1"),
            rose: Some((Color::White, Role::Knight))
        })
    );
    assert_eq!(tally(&g, "black_zombies_raised"), 1.0);
    // The risen zombie belongs to Black and may move on Black's turn.
    assert!(legal(&g).contains(&"b1a3".to_string()));
}

#[test]
fn rule_announcement_without_zombie() {
    let mut g = game("4k3/8/8/8/8/8/7P/1N2K3 w - - 0 1");
    play(&mut g, &["b1c3", "end"]);
    assert_eq!(piece(&g, "b1"), None);
    assert_eq!(g.zombies(), Bitboard::EMPTY);
    assert_eq!(
        g.events(),
        &[Event::Vacated {
            by: Color::White,
            sq: sq("b1"),
            rose: None
        }]
    );
}

/// "You can leave that piece buried if your opponent captures your piece on top of it":
/// the mover's own burial returns, the other stays until its burier's side vacates it.
#[test]
fn rule_burial_stays_when_top_piece_captured() {
    let mut g = game("2r1k3/8/8/8/8/2N5/8/4K3 b - - 0 1");
    g.set_burial(Color::White, sq("c3"), Some(Role::Bishop));
    play(&mut g, &["c8c3", "end", "bury:c3"]);
    assert_eq!(g.grid(Color::Black).get(sq("c3")), Some(Role::Knight));
    play(&mut g, &["e1f1", "end", "c3c5", "end"]);
    assert_eq!(
        piece(&g, "c3"),
        Some(Piece::new(Color::White, Role::Knight))
    );
    assert_eq!(
        g.grid(Color::White).get(sq("c3")),
        Some(Role::Bishop),
        "White's burial stays hidden"
    );
    // White moves the zombie knight off c3: now White's burial returns, for Black.
    play(&mut g, &["f1g1", "c3e4", "end"]);
    assert_eq!(
        piece(&g, "c3"),
        Some(Piece::new(Color::Black, Role::Bishop))
    );
    assert_eq!(g.grid(Color::White).get(sq("c3")), None);
}

#[test]
fn rule_vacated_square_with_only_opponent_burial_raises_it() {
    // Black vacates a square where only White buried: White's burial returns (Black's
    // own piece, as Black's zombie).
    let mut g = game("2r1k3/8/8/8/8/2N5/8/4K3 b - - 0 1");
    g.set_burial(Color::White, sq("c3"), Some(Role::Bishop));
    play(
        &mut g,
        &["c8c3", "end", "bury:e8", "e1f1", "end", "c3c5", "end"],
    );
    assert_eq!(
        piece(&g, "c3"),
        Some(Piece::new(Color::Black, Role::Bishop))
    );
    assert!(g.zombies().contains(sq("c3")));
}

#[test]
fn rule_horde_moves_each_zombie_once() {
    let mut g = game("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1");
    g.set_zombie(sq("b1"), true);
    g.set_zombie(sq("g1"), true);
    let l = legal(&g);
    assert!(l.contains(&"b1c3".into()) && l.contains(&"g1f3".into()));
    assert!(!l.contains(&"end".into()), "the regular move is due");
    play(&mut g, &["b1c3"]);
    let l = legal(&g);
    assert!(
        !l.iter().any(|m| m.starts_with("c3")),
        "a zombie moves once a turn"
    );
    assert!(l.contains(&"g1f3".into()));
    play(&mut g, &["g1f3", "e1d2", "end"]);
    assert_eq!(g.zombies(), Bitboard::from_square(sq("c3")).with(sq("f3")));
    assert_eq!(tally(&g, "white_zombie_moves"), 2.0);
}

#[test]
fn rule_unmoved_zombie_destroyed() {
    let mut g = game("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1");
    g.set_zombie(sq("b1"), true);
    g.set_zombie(sq("g1"), true);
    play(&mut g, &["b1c3", "e1d1", "end"]);
    assert_eq!(piece(&g, "g1"), None, "the unmoved zombie is destroyed");
    assert_eq!(
        piece(&g, "c3"),
        Some(Piece::new(Color::White, Role::Knight))
    );
    assert_eq!(tally(&g, "white_destroyed_unmoved"), 1.0);
    assert!(g.grid(Color::Black).is_empty(), "destroyed, not buried");
}

#[test]
fn rule_zombie_rising_for_mover_survives_turn() {
    let mut g = game("4k3/8/8/3p4/8/2N5/7P/4K3 w - - 0 1");
    g.set_burial(Color::Black, sq("d5"), Some(Role::Rook));
    play(
        &mut g,
        &["c3d5", "end", "bury:h2", "e8f7", "end", "d5b4", "end"],
    );
    assert_eq!(piece(&g, "d5"), Some(Piece::new(Color::White, Role::Rook)));
    assert!(
        g.zombies().contains(sq("d5")),
        "rose this turn: not destroyed"
    );
    play(&mut g, &["f7g7", "end"]);
    assert!(
        legal(&g).contains(&"d5d1".into()),
        "it moves on the next turn"
    );
    play(&mut g, &["e1f1", "end"]);
    assert_eq!(
        piece(&g, "d5"),
        None,
        "unmoved on its first turn: destroyed"
    );
}

#[test]
fn rule_captured_zombie_to_dust_bin() {
    let mut g = game("4k3/8/4p3/3N4/8/8/8/4K3 b - - 0 1");
    g.set_zombie(sq("d5"), true);
    play(&mut g, &["e6d5", "end"]);
    assert!(!g.is_burying(), "a zombie is never buried");
    assert_eq!(g.mover(), Color::White);
    assert!(g.grid(Color::Black).is_empty());
    assert!(
        !g.zombies().contains(sq("d5")),
        "the capturing pawn is no zombie"
    );
}

#[test]
fn rule_zombie_pawn_last_rank_queen() {
    let mut g = game("4k3/8/8/8/8/8/4K3/1N6 w - - 0 1");
    g.set_burial(Color::White, sq("b1"), Some(Role::Pawn));
    play(&mut g, &["b1c3", "end"]);
    assert_eq!(piece(&g, "b1"), Some(Piece::new(Color::Black, Role::Queen)));
    assert!(g.zombies().contains(sq("b1")));
}

#[test]
fn rule_reveal_into_check_refused() {
    let mut g = game("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    g.set_burial(Color::White, sq("b1"), Some(Role::Rook));
    let l = legal(&g);
    assert!(!l.iter().any(|m| m.starts_with("b1")), "{l:?}");
    assert!(g.parse_action("b1c3").is_err());
    // Without that burial the knight moves freely.
    let g = game("4k3/8/8/8/8/8/7P/1N2K3 w - - 0 1");
    assert!(legal(&g).contains(&"b1c3".into()));
}

#[test]
fn rule_castling_then_reveal() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    g.set_burial(Color::White, sq("e1"), Some(Role::Rook));
    let l = legal(&g);
    assert!(
        l.contains(&"e1g1".into()),
        "the rook on f1 shields the king: {l:?}"
    );
    assert!(l.contains(&"e1c1".into()));
    assert!(
        !l.contains(&"e1f1".into()),
        "the risen rook would attack f1"
    );
    assert!(!l.contains(&"e1e2".into()));
    assert!(l.contains(&"e1f2".into()));
    play(&mut g, &["e1g1", "end"]);
    assert_eq!(piece(&g, "e1"), Some(Piece::new(Color::Black, Role::Rook)));
    assert_eq!(piece(&g, "g1"), Some(Piece::new(Color::White, Role::King)));
    assert_eq!(piece(&g, "f1"), Some(Piece::new(Color::White, Role::Rook)));
}

#[test]
fn rule_end_requires_regular_move() {
    let g = Zombie::new(&ZombieParams::default());
    let e = g.parse_action("end").unwrap_err();
    assert!(e.to_string().contains("end"), "{e}");
    // A side whose only movable pieces are zombies may end at once (they are destroyed).
    let mut g = game("kr6/8/8/8/8/p7/P7/K6N w - - 0 1");
    g.set_zombie(sq("h1"), true);
    let l = legal(&g);
    assert!(
        l.contains(&"end".into()) && l.contains(&"h1g3".into()),
        "{l:?}"
    );
}

#[test]
fn rule_checkmate_at_turn_start() {
    let mut g = Zombie::new(&ZombieParams::default());
    play(
        &mut g,
        &["f2f3", "end", "e7e5", "end", "g2g4", "end", "d8h4", "end"],
    );
    assert_eq!(g.turn(), Turn::Terminal);
    let r = g.result().unwrap();
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[1], 1.0);
}

/// RULES.md: "A piece may land on a square vacated earlier in the same turn: nothing
/// returns onto an occupied square (the burials there stay buried, now under the piece
/// that landed), and the square is still announced." The zombie rook leaves a8 (White
/// buried a black knight there), the zombie bishop lands on a8 in the same turn.
#[test]
fn rule_landing_on_vacated_square() {
    let mut g = game("R7/8/2B4k/8/8/8/7P/4K3 w - - 0 1");
    g.set_zombie(sq("a8"), true);
    g.set_zombie(sq("c6"), true);
    g.set_burial(Color::White, sq("a8"), Some(Role::Knight));
    play(&mut g, &["a8a5"]);
    let l = legal(&g);
    assert!(
        l.contains(&"c6a8".into()),
        "a8 was vacated this turn: {l:?}"
    );
    play(&mut g, &["c6a8", "h2h3", "end"]);
    assert_eq!(
        piece(&g, "a8"),
        Some(Piece::new(Color::White, Role::Bishop)),
        "nothing returns onto the bishop"
    );
    assert!(
        g.zombies().contains(sq("a8")),
        "the bishop is still a zombie"
    );
    assert_eq!(
        g.grid(Color::White).get(sq("a8")),
        Some(Role::Knight),
        "the knight stays buried under the bishop"
    );
    let announced: Vec<Event> = g.events().to_vec();
    assert!(
        announced.contains(&Event::Covered {
            by: Color::White,
            sq: sq("a8")
        }),
        "a8 is still announced: {announced:?}"
    );
    for s in ["c6", "h2"] {
        assert!(announced.contains(&Event::Vacated {
            by: Color::White,
            sq: sq(s),
            rose: None
        }));
    }
    // The announcement tells the opponent nothing about the burials there: a record
    // with a burial that may lie under a8 keeps it (an empty vacated square rules it out).
    let buried = Event::Buried {
        by: Color::White,
        role: Role::Knight,
        candidates: Bitboard::from_square(sq("a8")).with(sq("h2")),
    };
    let covered = Event::Covered {
        by: Color::White,
        sq: sq("a8"),
    };
    let worlds = belief::worlds(&[buried, covered], Color::White, 10).unwrap();
    assert_eq!(worlds.len(), 2, "a8 and h2 both stay possible: {worlds:?}");
    let emptied = Event::Vacated {
        by: Color::White,
        sq: sq("a8"),
        rose: None,
    };
    assert_eq!(
        belief::worlds(&[buried, emptied], Color::White, 10)
            .unwrap()
            .len(),
        1
    );
    // When the bishop leaves a8 on a later turn, the knight rises there.
    play(&mut g, &["h6g6", "end", "a8b7", "a5a4", "h3h4", "end"]);
    assert_eq!(
        piece(&g, "a8"),
        Some(Piece::new(Color::Black, Role::Knight))
    );
    assert!(g.zombies().contains(sq("a8")));
    assert_eq!(g.grid(Color::White).get(sq("a8")), None);
}

/// RULES.md: "every move must leave the own king unattacked right after it, before any
/// return ... a burial that would return and block the check does not make the move
/// legal." White's f-pawn shields e1 from the zombie queen on g3; the black knight White
/// buried under f2 would rise there at the end of the turn and block again.
#[test]
fn rule_check_right_after_each_move() {
    let mut g = game("k7/8/8/8/8/6q1/5P2/4K3 w - - 0 1");
    g.set_zombie(sq("g3"), true);
    g.set_burial(Color::White, sq("f2"), Some(Role::Knight));
    let mut l = legal(&g);
    l.sort();
    assert_eq!(
        l,
        vec!["e1d1", "e1d2", "e1e2", "e1f1", "f2g3"],
        "f2f3 and f2f4 expose the king right after the move"
    );
    assert!(g.parse_action("f2f3").is_err());
    // Without the burial the same moves are refused too (no return can matter).
    let g = game("k7/8/8/8/8/6q1/5P2/4K3 w - - 0 1");
    assert!(!legal(&g).contains(&"f2f3".into()));
}

/// Castling is judged on the board as it stands ("Castling: finish the move, then
/// reveal"): a pending return neither blocks an attack on a square the king crosses nor
/// gives one; the finished move then meets the reveal test.
#[test]
fn rule_castling_judged_before_returns() {
    // The zombie knight leaves d2 (White buried a black knight there), opening the
    // d-file to the rook on d8: the king may not cross d1, although the knight rising
    // on d2 at the end of the turn would block the file again.
    let mut g = game("3r3k/8/8/8/8/8/3N4/R3K3 w Q - 0 1");
    g.set_zombie(sq("d2"), true);
    g.set_burial(Color::White, sq("d2"), Some(Role::Knight));
    assert!(legal(&g).contains(&"e1c1".into()));
    play(&mut g, &["d2b3"]);
    let l = legal(&g);
    assert!(!l.contains(&"e1c1".into()), "d1 is attacked now: {l:?}");
    // The zombie knight leaves g2 (White buried a black pawn there): the pawn rising on
    // g2 would attack f1, but the king crosses f1 before it returns, and on g1 it is
    // safe after the reveal.
    let mut g = game("k7/8/8/8/8/8/6N1/4K2R w K - 0 1");
    g.set_zombie(sq("g2"), true);
    g.set_burial(Color::White, sq("g2"), Some(Role::Pawn));
    play(&mut g, &["g2h4"]);
    let l = legal(&g);
    assert!(l.contains(&"e1g1".into()), "{l:?}");
    assert!(
        !l.contains(&"e1f1".into()),
        "the risen pawn would attack f1"
    );
    play(&mut g, &["e1g1", "end"]);
    assert_eq!(piece(&g, "g2"), Some(Piece::new(Color::Black, Role::Pawn)));
    assert_eq!(piece(&g, "g1"), Some(Piece::new(Color::White, Role::King)));
}

#[test]
fn rule_king_never_captured() {
    let mut g = game("k3r3/8/8/8/8/8/P3N3/4K3 w - - 0 1");
    g.set_zombie(sq("e2"), true);
    play(&mut g, &["a2a3", "end"]);
    assert_eq!(piece(&g, "e2"), None, "the unmoved zombie is destroyed");
    assert!(
        !legal(&g).contains(&"e8e1".into()),
        "kings are never captured"
    );
    play(&mut g, &["a8b8", "end"]);
    // White answers the check: every move leaves the king safe, and 'end' is refused.
    let l = legal(&g);
    assert!(!l.contains(&"end".into()));
    assert!(l.iter().all(|m| m.starts_with("e1")), "{l:?}");
}

#[test]
fn rule_en_passant_next_turn() {
    let mut g = game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(&mut g, &["e2e4", "end"]);
    assert!(legal(&g).contains(&"d4e3".into()));
    play(&mut g, &["d4e3"]);
    // The spent en passant chance does not come back on undo (regression).
    let k = g.state_key();
    play(&mut g, &["end"]);
    g.undo();
    assert_eq!(g.state_key(), k);
    play(&mut g, &["end"]);
    assert_eq!(piece(&g, "e4"), None, "the pawn taken en passant is gone");
    assert_eq!(g.pending(), &[Piece::new(Color::White, Role::Pawn)]);
}

#[test]
fn undo_restores_everything() {
    let mut g = Zombie::new(&ZombieParams::default());
    let start = g.state_key();
    let acts = [
        "d2d4", "end", "b8c6", "end", "g1f3", "end", "e7e5", "end", "a2a3", "end", "e5d4", "end",
        "bury:c6", "f3d4", "end", "bury:b2", "c6d4", "end", "bury:g7",
    ];
    let mut keys = vec![g.state_key()];
    for a in acts {
        play(&mut g, &[a]);
        keys.push(g.state_key());
    }
    for k in keys.iter().rev().skip(1) {
        g.undo();
        assert_eq!(g.state_key(), *k);
    }
    assert_eq!(g.state_key(), start);
    assert!(g.grid(Color::Black).is_empty() && g.events().is_empty());
}

#[test]
fn bad_input_is_a_clear_error() {
    let g = Zombie::new(&ZombieParams::default());
    for (text, needle) in [
        ("e2e5", "legal"),
        ("zz", "legal"),
        ("bury:z9", "square"),
        ("bury:e2", "not"),
        ("promote:k", "q, r, b or n"),
        ("promote:q", "promotion_choice"),
    ] {
        let e = g.parse_action(text).unwrap_err();
        let s = e.to_string();
        assert!(s.contains(text) && s.contains(needle), "{text}: {s}");
    }
    let e = Zombie::from_opening(&ZombieParams::default(), "not a fen").unwrap_err();
    assert!(matches!(e, GameError::Opening { .. }), "{e:?}");
    let e =
        Zombie::from_opening(&ZombieParams::default(), "8/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
    let reason = std::error::Error::source(&e).map(|s| s.to_string());
    assert!(
        reason
            .as_deref()
            .is_some_and(|r| r.contains("black") && r.contains("king")),
        "{e}: {reason:?}"
    );
    assert!(ZombieParams {
        ply_cap: 0,
        ..Default::default()
    }
    .validate()
    .is_err());
    let p = crate::registry::parse_params(
        "zombie",
        Some("promotion_choice = true"),
        ZombieParams::default(),
    )
    .unwrap();
    assert!(p.promotion_choice);
    let e = crate::registry::parse_params("zombie", Some("burials = 3"), ZombieParams::default())
        .unwrap_err();
    let chain = format!("{e}: {}", std::error::Error::source(&e).unwrap());
    assert!(
        chain.contains("zombie") && chain.contains("burials"),
        "{chain}"
    );
}

/// `undo` retraces random games exactly (state key after every apply/undo pair), with
/// `sample_world` drawing from the same stream as the registry's conformance check.
#[test]
fn undo_is_exact_over_random_games() {
    use rand::{Rng, SeedableRng};
    for seed in [11, 12] {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        for _ in 0..3 {
            let mut g = Zombie::new(&ZombieParams {
                ply_cap: 150,
                ..Default::default()
            });
            let mut acts = Vec::new();
            while let Turn::Seat(s) = g.turn() {
                for seat in 0..2 {
                    let _ = g.sample_world(seat, &mut rng);
                }
                g.legal_actions(s, &mut acts);
                let a = acts[rng.gen_range(0..acts.len())];
                let k = g.state_key();
                g.apply(a);
                g.undo();
                assert_eq!(g.state_key(), k, "undo of {}", g.action_notation(a));
                g.apply(a);
            }
        }
    }
}

fn game_with_choice(fen: &str) -> Zombie {
    let params = ZombieParams {
        promotion_choice: true,
        ..Default::default()
    };
    Zombie::from_opening(&params, fen).unwrap()
}

#[test]
fn rule_zombie_pawn_last_rank_owner_chooses() {
    let mut g = game_with_choice("4k3/8/8/8/8/8/4K3/1N6 w - - 0 1");
    g.set_burial(Color::White, sq("b1"), Some(Role::Pawn));
    let before = g.state_key();
    play(&mut g, &["b1c3", "end"]);
    // Black owns the risen pawn and chooses before White's turn is over.
    assert_eq!(g.turn(), Turn::Seat(1));
    assert_eq!(
        legal(&g),
        vec!["promote:q", "promote:r", "promote:b", "promote:n"]
    );
    assert!(
        g.parse_action("e2e3").is_err(),
        "White waits for the choice"
    );
    let key = g.state_key();
    play(&mut g, &["promote:n"]);
    assert_eq!(
        piece(&g, "b1"),
        Some(Piece::new(Color::Black, Role::Knight))
    );
    assert!(g.zombies().contains(sq("b1")));
    assert_eq!(g.turn(), Turn::Seat(1), "then Black's turn begins");
    assert!(
        legal(&g).contains(&"b1d2".into()),
        "the knight zombie moves"
    );
    g.undo();
    assert_eq!(g.state_key(), key);
    assert_eq!(legal(&g).len(), 4);
    g.undo();
    g.undo();
    assert_eq!(g.state_key(), before);
    // Without the parameter the pawn comes back as a queen and no choice is offered.
    let mut g = game("4k3/8/8/8/8/8/4K3/1N6 w - - 0 1");
    g.set_burial(Color::White, sq("b1"), Some(Role::Pawn));
    play(&mut g, &["b1c3", "end"]);
    assert_eq!(piece(&g, "b1"), Some(Piece::new(Color::Black, Role::Queen)));
    assert!(!legal(&g).iter().any(|a| a.starts_with("promote")));
    assert!(g.parse_action("promote:q").is_err());
}

#[test]
fn rule_reveal_into_check_counts_every_promotion_choice() {
    // White's burial of a black pawn on c1 would rise as Black's queen or, with the
    // choice, as a knight checking d3: only the knight attacks the king.
    let fen = "4k3/8/8/8/8/3K4/8/2B5 w - - 0 1";
    let mut g = game(fen);
    g.set_burial(Color::White, sq("c1"), Some(Role::Pawn));
    assert!(legal(&g).contains(&"c1b2".into()));
    let mut g = game_with_choice(fen);
    g.set_burial(Color::White, sq("c1"), Some(Role::Pawn));
    let l = legal(&g);
    assert!(!l.iter().any(|m| m.starts_with("c1")), "{l:?}");
    assert!(l.contains(&"d3e4".into()));
}

#[test]
fn conformance_random_games_with_promotion_choice() {
    let params = ZombieParams {
        promotion_choice: true,
        ..Default::default()
    };
    conformance::check(&Zombie::new(&params), 6, 3);
}

#[test]
fn tallies_count_zombie_captures_and_follow_undo() {
    let mut g = game("4k3/8/4p3/8/3N4/8/8/4K3 w - - 0 1");
    g.set_zombie(sq("d4"), true);
    play(&mut g, &["e1e2", "d4e6"]);
    assert_eq!(tally(&g, "white_zombie_captures"), 1.0);
    assert_eq!(tally(&g, "white_zombie_moves"), 1.0);
    play(&mut g, &["end", "bury:e6"]);
    assert_eq!(tally(&g, "white_burials"), 1.0);
    for _ in 0..4 {
        g.undo();
    }
    for name in [
        "white_zombie_captures",
        "white_zombie_moves",
        "white_burials",
    ] {
        assert_eq!(tally(&g, name), 0.0, "{name}");
    }
}

#[test]
fn rule_zombie_pawn_moves_from_where_it_stands() {
    let mut g = game("4k3/8/8/8/8/4P3/3P4/4K3 w - - 0 1");
    g.set_zombie(sq("d2"), true);
    g.set_zombie(sq("e3"), true);
    let l = legal(&g);
    assert!(
        l.contains(&"d2d4".into()),
        "second rank: double step: {l:?}"
    );
    assert!(l.contains(&"e3e4".into()), "{l:?}");
    assert!(
        !l.contains(&"e3e5".into()),
        "no double step off the second rank"
    );
}

#[test]
fn rule_own_king_safe_after_every_move_of_the_turn() {
    // The zombie knight is pinned against its king: it may not move until the king has.
    let mut g = game("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
    g.set_zombie(sq("e2"), true);
    let l = legal(&g);
    assert!(!l.iter().any(|m| m.starts_with("e2")), "{l:?}");
    play(&mut g, &["e1d1"]);
    let l = legal(&g);
    assert!(l.contains(&"e2c3".into()), "the pin is gone: {l:?}");
}

/// `chesslab values` features: the piece differences, then own zombies on the board
/// and own pieces in the graveyard, White minus Black.
#[test]
fn features_count_zombies_and_graveyard() {
    let mut g = game("4k3/8/2n5/8/8/5N2/8/4K2R w - - 0 1");
    // White's knight f3 is a zombie; Black buried two white pieces, White one black one.
    g.set_zombie(sq("f3"), true);
    g.set_burial(Color::Black, sq("c6"), Some(Role::Queen));
    g.set_burial(Color::Black, sq("e8"), Some(Role::Pawn));
    g.set_burial(Color::White, sq("h1"), Some(Role::Rook));
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
            "zombies",
            "graveyard"
        ]
    );
    let values: Vec<f64> = f.iter().map(|(_, v)| *v).collect();
    assert_eq!(values, [0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
}

mod draws;
mod twin;

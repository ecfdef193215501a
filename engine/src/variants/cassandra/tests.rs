//! Cassandra's rule tests (the module doc of `mod.rs` names them).

use super::*;
use crate::game::{conformance, replay};

fn new() -> Cassandra {
    Cassandra::new(&CassandraParams::default())
}

#[test]
fn cassandra_conforms_to_the_game_api() {
    conformance::check(&new(), 12, 3);
    let secret = Cassandra::new(&CassandraParams {
        secret: true,
        ..Default::default()
    });
    conformance::check(&secret, 6, 4);
}

#[test]
fn rule_seed_example_mate_before_resolution() {
    // 1.f4 e5 (prophecy) 2.g4 (prophecy) Qh4#: the game ends at once.
    let g = replay(new(), &["f2f4", "e7e5", "@e1", "g2g4", "@e7", "d8h4"]).unwrap();
    let r = g.result().unwrap();
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[1], 1.0);
}

#[test]
fn rule_white_makes_no_prophecy_on_move_one() {
    let g = replay(new(), &["e2e4"]).unwrap();
    assert_eq!(g.turn(), Turn::Seat(1));
    assert!(g.parse_action("@e5").is_err());
    let g = replay(new(), &["e2e4", "e7e5"]).unwrap();
    assert_eq!(
        g.turn(),
        Turn::Seat(1),
        "black may prophesy after its first move"
    );
}

#[test]
fn rule_prophecy_resolves_two_own_moves_later() {
    // Black prophesies a pawn on e4 with move 1; resolved as black starts move 3.
    let g = replay(new(), &["e2e4", "e7e5", "@e4", "g1f3", "@-", "b8c6"]).unwrap();
    assert_eq!(
        g.board_ref()
            .piece_at(Square::parse("e4").unwrap())
            .map(|p| p.role),
        Some(Role::Pawn)
    );
    let g = replay(
        new(),
        &["e2e4", "e7e5", "@e4", "g1f3", "@-", "b8c6", "f1c4", "@-"],
    )
    .unwrap();
    assert_eq!(g.board_ref().piece_at(Square::parse("e4").unwrap()), None);
    assert_eq!(
        g.target(Color::Black),
        Role::Knight,
        "success climbs one rung"
    );
}

#[test]
fn rule_eval_hint_counts_aimed_prophecies_and_the_ladder() {
    let h = PROPHECY_HINT;
    assert_eq!(
        new().eval_hint(0),
        0.0,
        "nothing pending, both on the first rung"
    );
    // Black aims a pawn prophecy at White's e4 pawn: half a pawn for Black.
    let aimed = replay(new(), &["e2e4", "e7e5", "@e4"]).unwrap();
    assert!((aimed.eval_hint(1) - h.hit).abs() < 1e-12);
    assert_eq!(aimed.eval_hint(0), -aimed.eval_hint(1), "zero-sum");
    // A prophecy on an empty square, or on a piece of another type, counts nothing.
    let empty = replay(new(), &["e2e4", "e7e5", "@e3"]).unwrap();
    assert_eq!(empty.eval_hint(1), 0.0);
    let other = replay(new(), &["e2e4", "e7e5", "@g1"]).unwrap();
    assert_eq!(other.eval_hint(1), 0.0);
    // The prophecy came true: the pawn is material now, the rung is the hint.
    let done = replay(
        new(),
        &["e2e4", "e7e5", "@e4", "g1f3", "@-", "b8c6", "f1c4", "@-"],
    )
    .unwrap();
    assert_eq!(done.target(Color::Black), Role::Knight);
    assert!((done.eval_hint(1) - h.rung[1]).abs() < 1e-12);
    // Black has only its king, so White's ladder is on the king: a king prophecy
    // on the king's square counts the king's worth, beside it only the rung.
    let king_game = |square: &str| {
        let mut g = Cassandra::from_board(
            Board::from_fen("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").unwrap(),
            CassandraParams::default(),
        );
        for a in ["a2a3", "e8d8", "@-", "a3a4", square] {
            g.apply_text(a).unwrap();
        }
        assert_eq!(g.target(Color::White), Role::King);
        g
    };
    let on_king = king_game("@d8").eval_hint(0);
    assert!(
        (on_king - (h.rung[5] + h.hit * h.king)).abs() < 1e-12,
        "{on_king}"
    );
    let beside = king_game("@e8").eval_hint(0);
    assert!((beside - h.rung[5]).abs() < 1e-12, "{beside}");
}

#[test]
fn tallies_count_prophecies_per_rung_and_side_and_undo_restores_them() {
    let tally = |g: &Cassandra, name: &str| {
        g.tallies()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("no tally {name}"))
    };
    // Black's pawn prophecy on e4 comes true; white's on d5 (made with move 2) is
    // still pending at the end.
    let actions = ["e2e4", "e7e5", "@e4", "g1f3", "@d5", "b8c6", "f1c4"];
    let mut g = replay(new(), &actions).unwrap();
    assert_eq!(g.tallies().len(), 16);
    // Black made one pawn prophecy (e4, fulfilled); white one (d5, pending).
    assert_eq!(tally(&g, "made_pawn"), 2.0);
    assert_eq!(tally(&g, "fulfilled_pawn"), 1.0);
    assert_eq!(tally(&g, "black_made"), 1.0);
    assert_eq!(tally(&g, "black_fulfilled"), 1.0);
    assert_eq!(tally(&g, "white_made"), 1.0);
    assert_eq!(tally(&g, "white_fulfilled"), 0.0);
    assert_eq!(tally(&g, "made_knight"), 0.0);
    // Black now targets knights: a knight prophecy on f3.
    let mut more = replay(g.clone(), &["d7d6", "@f3"]).unwrap();
    assert_eq!(tally(&more, "made_knight"), 1.0);
    more.undo();
    more.undo();
    assert_eq!(more.tallies(), g.tallies());
    for _ in 0..actions.len() {
        g.undo();
    }
    assert!(g.tallies().iter().all(|(_, v)| *v == 0.0));
}

#[test]
fn rule_failed_prophecy_removes_nothing_and_keeps_the_rung() {
    let g = replay(
        new(),
        &["e2e4", "e7e5", "@d4", "g1f3", "@-", "b8c6", "f1c4", "@-"],
    )
    .unwrap();
    assert_eq!(g.board_ref().occupied().count(), 32);
    assert_eq!(g.target(Color::Black), Role::Pawn);
    assert_eq!(g.pending(Color::Black), None);
}

#[test]
fn rule_one_pending_prophecy_per_player() {
    let g = replay(new(), &["e2e4", "e7e5", "@d4", "g1f3", "@-"]).unwrap();
    // Black has a prophecy pending: after its move no prophecy phase follows.
    let g = replay(g, &["b8c6"]).unwrap();
    assert_eq!(g.turn(), Turn::Seat(0));
}

#[test]
fn rule_ladder_skips_types_the_foe_lacks() {
    // Black has no pawns: white's first prophecy targets knights.
    let mut g = Cassandra::from_opening(
        &CassandraParams::default(),
        "rn2k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    )
    .unwrap();
    let a = g.parse_action("e2e3").unwrap();
    g.apply(a);
    assert_eq!(g.target(Color::White), Role::Knight);
}

/// `chesslab values` features: the piece differences, then the rung difference.
#[test]
fn features_add_the_ladder_rung() {
    let mut g = Cassandra::from_opening(
        &CassandraParams::default(),
        "rn2k3/pp6/8/8/8/8/4P3/4K3 w - - 0 1",
    )
    .unwrap();
    g.rung = [3, 1];
    let f = g.features();
    let names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["pawn", "knight", "bishop", "rook", "queen", "rung"]);
    let values: Vec<f64> = f.iter().map(|(_, v)| *v).collect();
    assert_eq!(values, [-1.0, -1.0, 0.0, -1.0, 0.0, 2.0]);
}

#[test]
fn rule_king_prophecy_wins() {
    // Both players on the king rung; white prophesies the king on e8.
    let params = CassandraParams::default();
    let start = "4k3/8/8/8/8/8/R7/4K3 w - - 0 1";
    let mut g = Cassandra::from_opening(&params, start).unwrap();
    g.rung = [5, 5];
    let g = replay(g, &["e1d1", "@e8", "e8d8", "@-", "d1c1", "d8d7", "@-"]).unwrap();
    assert!(
        g.result().is_none(),
        "the black king is on d7 when white's turn comes"
    );
    let mut g = Cassandra::from_opening(&params, start).unwrap();
    g.rung = [5, 5];
    let g = replay(g, &["e1d1", "@e8", "e8d8", "@-", "d1c1", "d8e8", "@-"]).unwrap();
    let r = g
        .result()
        .expect("the king stood on e8 when white's turn came");
    assert_eq!(r.reason, "prophecy");
    assert_eq!(r.returns[0], 1.0);
}

#[test]
fn rule_mate_ends_the_game_before_a_due_prophecy() {
    // Issue 11: White's pawn prophecy on g3 falls due as White starts its third
    // move, but a2h2 mates first (the g3 pawn guards h2): the prophecy lapses and
    // the pawn stays.
    let params = CassandraParams::default();
    let g = Cassandra::from_opening(&params, "7k/8/8/1R6/8/6p1/q7/7K w - - 0 1").unwrap();
    let g = replay(g, &["b5b6", "@g3", "h8g8", "@-", "b6b5", "a2h2"]).unwrap();
    let r = g.result().expect("a2h2 is mate");
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[1], 1.0);
    assert_eq!(g.turn(), Turn::Terminal);
    assert_eq!(
        g.board_ref().piece_at(Square::parse("g3").unwrap()),
        Some(Piece::new(Color::Black, Role::Pawn))
    );
    assert_eq!(g.stats().fulfilled_on(0), 0);
}

#[test]
fn rule_mated_side_never_wins_by_a_prophecy_resolving_afterwards() {
    // Issue 11: removing the g3 pawn after a2h2# would open the g-file to the g1
    // rook (royal capture for the mated side); the mate ends the game first.
    let params = CassandraParams::default();
    let g = Cassandra::from_opening(&params, "6k1/8/8/8/P7/6p1/q7/6RK w - - 0 1").unwrap();
    let g = replay(g, &["a4a5", "@g3", "g8g7", "@-", "a5a6", "a2h2"]).unwrap();
    let r = g.result().expect("a2h2 is mate");
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[1], 1.0);
    assert_eq!(r.returns[0], -1.0);
}

#[test]
fn rule_drawing_move_ends_the_game_before_a_due_king_prophecy() {
    // White prophesies the black king on b6; Black's Kxb6 leaves K v K, a draw that
    // ends the game before White's prophecy falls due.
    let params = CassandraParams::default();
    let mut g = Cassandra::from_opening(&params, "2k5/8/1P6/8/8/8/8/7K w - - 0 1").unwrap();
    g.rung = [5, 5];
    let g = replay(g, &["h1g1", "@b6", "c8b7", "@-", "g1h1", "b7b6"]).unwrap();
    let r = g.result().expect("K v K");
    assert_eq!(r.reason, "insufficient-material");
    assert_eq!((r.returns[0], r.returns[1]), (0.0, 0.0));
    // The ply cap ends the game too: the king prophecy on e8 would win at ply 5.
    let capped = CassandraParams {
        ply_cap: 4,
        ..Default::default()
    };
    let mut g = Cassandra::from_opening(&capped, "4k3/8/8/8/8/8/R7/4K3 w - - 0 1").unwrap();
    g.rung = [5, 5];
    let g = replay(g, &["e1d1", "@e8", "e8d8", "@-", "d1c1", "d8e8"]).unwrap();
    assert_eq!(g.result().map(|r| r.reason), Some("cap"));
}

#[test]
fn rule_move_reaching_the_ply_cap_ends_the_game_without_a_prophecy() {
    // Found by the reference (tests/cassandra_reference.rs): the move that reached
    // the cap used to be followed by a prophecy decision (65 actions) before the
    // game ended, though the cap ends the game like any draw. Black's d8e8 is the
    // fourth move of a game capped at 4, and Black has no pending prophecy.
    let capped = CassandraParams {
        ply_cap: 4,
        ..Default::default()
    };
    let g = Cassandra::from_opening(&capped, "4k3/8/8/8/8/8/R7/4K3 w - - 0 1").unwrap();
    let mut g = replay(g, &["e1d1", "@-", "e8d8", "@-", "d1c1", "@-"]).unwrap();
    let a = g.parse_action("d8e8").unwrap();
    g.apply(a);
    assert_eq!(g.pending(Color::Black), None);
    assert_eq!(g.turn(), Turn::Terminal);
    assert_eq!(g.result().map(|r| r.reason), Some("cap"));
    let mut actions = Vec::new();
    g.legal_actions(1, &mut actions);
    assert!(actions.is_empty());
    assert!(g.parse_action("@e1").is_err());
}

#[test]
fn rule_removal_exposing_the_enemy_king_wins() {
    // White prophesies the f7 pawn; its removal lets the c4 bishop attack g8.
    let params = CassandraParams::default();
    let g = Cassandra::from_opening(&params, "6k1/5p2/8/8/2B5/8/8/4K3 w - - 0 1").unwrap();
    let g = replay(g, &["e1d1", "@f7", "g8h8", "@-", "d1c1", "h8g8", "@-"]).unwrap();
    let r = g.result().expect("removal uncovers an attack on the king");
    assert_eq!(r.reason, "royal-capture");
    assert_eq!(r.returns[0], 1.0);
}

#[test]
fn rule_secret_prophecies_are_hidden_from_the_opponent() {
    let params = CassandraParams {
        secret: true,
        ..Default::default()
    };
    let a = replay(Cassandra::new(&params), &["e2e4", "e7e5", "@e4"]).unwrap();
    let b = replay(Cassandra::new(&params), &["e2e4", "e7e5", "@d4"]).unwrap();
    assert_eq!(a.information_key(0), b.information_key(0));
    assert_ne!(a.information_key(1), b.information_key(1));
    assert!(!a.is_perfect_information());
}

/// One colour's prophecies: the move numbers they were made with, and for each one that
/// fell due, the victim's move number and whether its prophecy decision resolved it.
type Cadence = (Vec<u32>, Vec<(u32, bool)>);

/// Plays seeded random moves from the start; a prophet names a random square at every
/// prophecy decision, except that White passes at its `white_passes_at`-th decision.
/// Returns, per colour, the prophet's move numbers of its prophecies, and for each
/// prophecy that fell due the action that resolved it: `(victim's move, whether it was
/// the victim's prophecy decision rather than its move)`.
fn cadence(seed: u64, white_passes_at: Option<usize>) -> [Cadence; 2] {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut g = new();
    let mut out: [Cadence; 2] = Default::default();
    let mut decisions = [0usize; 2];
    let mut actions = Vec::new();
    while g.result().is_none() && g.board.ply() < 120 {
        let Turn::Seat(seat) = g.turn() else {
            unreachable!("two seats, no chance")
        };
        g.legal_actions(seat, &mut actions);
        let a = match actions[0] {
            CassandraAction::Prophesy(_) => {
                decisions[seat] += 1;
                if seat == 0 && white_passes_at == Some(decisions[0]) {
                    CassandraAction::Prophesy(None)
                } else {
                    out[seat].0.push(g.moves_made[seat]);
                    CassandraAction::Prophesy(Some(Square::new(rng.gen_range(0..64))))
                }
            }
            CassandraAction::Move(_) => actions[rng.gen_range(0..actions.len())],
        };
        let before = g.pending;
        g.apply(a);
        // The seat that acted is the victim of the other's prophecy.
        let prophet = 1 - seat;
        if before[prophet].is_some() && g.pending[prophet].is_none() {
            let decision = matches!(a, CassandraAction::Prophesy(_));
            out[prophet].1.push((g.moves_made[seat], decision));
        }
    }
    out
}

/// Issue 67 (results/cassandra/asymmetry/README.md): the cadence of prophecies. With no
/// pass, Black prophesies with its moves 1, 3, 5, ... and White (no prophecy on move 1)
/// with moves 2, 4, 6, ...; each prophecy falls due at the start of the prophet's move
/// two later, so the victim has two moves in between. Black's prophecy falls due as soon
/// as White has made its second move (White still has one of its own pending, so no
/// decision follows); White's only after Black's second move and Black's own prophecy
/// decision, one decision later (a searcher sees the removal one ply deeper). A pass
/// shifts the prophet's cadence by one move and swaps the two roles.
#[test]
fn rule_prophecy_cadence_by_colour() {
    let mut long_games = 0;
    for seed in 0..30 {
        let [(white, white_due), (black, black_due)] = cadence(seed, None);
        let n = white.len();
        assert_eq!(white, (1..=n as u32).map(|k| 2 * k).collect::<Vec<_>>());
        assert_eq!(
            black[..n],
            (0..n as u32).map(|k| 2 * k + 1).collect::<Vec<_>>()
        );
        // Black's prophecy made with move m falls due on White's move m + 2 (no decision);
        // White's made with move m on Black's prophecy decision after Black's move m + 1.
        for (i, &due) in black_due.iter().enumerate() {
            assert_eq!(due, (black[i] + 2, false), "seed {seed}: black's {i}th");
        }
        for (i, &due) in white_due.iter().enumerate() {
            assert_eq!(due, (white[i] + 1, true), "seed {seed}: white's {i}th");
        }
        // White passes at its second decision (move 4): it prophesies on odd moves after.
        let [(white, white_due), (black, black_due)] = cadence(seed, Some(2));
        if white.len() < 3 || black.len() < 4 {
            continue;
        }
        long_games += 1;
        assert_eq!(white[..3], [2, 5, 7], "seed {seed}");
        assert_eq!(black[..4], [1, 3, 5, 7], "seed {seed}");
        for (i, &due) in white_due.iter().enumerate().skip(1) {
            assert_eq!(due, (white[i] + 1, false), "seed {seed}: white's {i}th");
        }
        for (i, &due) in black_due.iter().enumerate().skip(1) {
            assert_eq!(due, (black[i] + 2, true), "seed {seed}: black's {i}th");
        }
    }
    assert!(
        long_games >= 25,
        "games long enough to show the cadence: {long_games}"
    );
}

/// The cached status answers as a fresh computation does (see
/// `variants::testing::check_cached_status`).
#[test]
fn cached_status_matches_a_fresh_computation_in_random_play() {
    crate::variants::testing::check_cached_status(
        || Cassandra::new(&CassandraParams::default()),
        |g| g.refresh(),
        |g| g.status.fresh = false,
    );
}

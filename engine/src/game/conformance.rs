//! The conformance test every variant runs: random playouts to the end checking the
//! game API's contract (see the `game` module docs).
//!
//! ```
//! use engine::game::{conformance, Game};
//! use engine::variants::chess::{Chess, ChessParams};
//! conformance::check(&Chess::new(&ChessParams::default()), 3, 7);
//! ```

use super::{joint_notation, replay, ChanceMode, Dynamics, Game, GameFacts, Turn, Utility};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Where `g` lists its captures, they are the legal `actions` that take an enemy piece
/// (the move the action names, or the board's last move after it).
fn check_captures<G: Game>(g: &mut G, seat: usize, actions: &[G::Action]) {
    let mut listed = Vec::new();
    if !g.legal_captures(seat, &mut listed) {
        return;
    }
    let mut expected = Vec::new();
    for &a in actions {
        let Some(m) = g.action_move(a).or_else(|| {
            g.apply(a);
            let m = g.board().and_then(|b| b.last_move());
            g.undo();
            m
        }) else {
            continue;
        };
        let Some(b) = g.board() else {
            continue;
        };
        if b.captured_piece(m).is_some_and(|p| p.color != b.turn()) {
            expected.push(a);
        }
    }
    let fmt = |v: &[G::Action]| -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|&a| g.action_notation(a)).collect();
        v.sort();
        v
    };
    assert_eq!(
        fmt(&listed),
        fmt(&expected),
        "legal_captures differs from the captures among the legal actions"
    );
}

/// Plays `games` random games from `start` (seeded by `seed`) and asserts the contract:
/// - actions are legal and their notation parses back to the same action;
/// - chance probabilities are positive and sum to one;
/// - `undo` restores the state key and legal actions exactly;
/// - replaying the record gives the same state key at the end;
/// - terminal states have no legal actions and returns of the right length;
/// - for perfect-information games, `sample_world` is the state itself and information
///   keys equal the state key; for hidden-information games, `sample_world(seat)` has
///   the same information key for that seat as the true state;
/// - the declared [`GameFacts`](super::GameFacts) hold: they never change during a game,
///   `seats` equals `num_seats`, a chance node appears only in a game that declares
///   chance and a simultaneous node only in one that declares simultaneous moves, and
///   terminal returns fit the declared utility (zero-sum: they sum to zero; teams:
///   partners equal and the sum is zero; identical: all equal), and where the facts
///   claim `board_check`, the board's side to move is the seat's colour and no legal
///   move hands the turn to the same colour or leaves the mover's king attacked;
///   `apply_null` passes only where the facts declare `null_move`, and `undo_null`
///   restores the state;
/// - where the game lists its captures ([`Game::legal_captures`]), the list is exactly
///   the legal actions whose orthodox move takes an enemy piece on the board.
///
/// Panics with a message naming the broken rule.
pub fn check<G: Game>(start: &G, games: usize, seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut actions = Vec::new();
    let mut chance = Vec::new();
    let facts = start.facts();
    assert_eq!(
        facts.seats,
        start.num_seats(),
        "facts declare {} seats, the game has {}",
        facts.seats,
        start.num_seats()
    );
    for game_index in 0..games {
        let mut g = start.clone();
        let mut record: Vec<String> = Vec::new();
        let mut keys = vec![g.state_key()];
        let mut steps = 0;
        loop {
            steps += 1;
            assert!(
                steps < 100_000,
                "game {game_index}: no end after 100000 steps"
            );
            let n = g.num_seats();
            for seat in 0..n {
                if g.is_perfect_information() {
                    assert_eq!(g.information_key(seat), g.state_key());
                    let w = g.sample_world(seat, &mut rng);
                    assert_eq!(
                        w.state_key(),
                        g.state_key(),
                        "sample_world changed a perfect-information state"
                    );
                } else {
                    let w = g.sample_world(seat, &mut rng);
                    assert_eq!(
                        w.information_key(seat),
                        g.information_key(seat),
                        "sample_world for seat {seat} contradicts what the seat has seen"
                    );
                }
            }
            assert_eq!(g.facts(), facts, "the game's facts changed during play");
            let turn = g.turn();
            match turn {
                Turn::Terminal => {
                    assert!(g.result().is_some(), "terminal state without a result");
                    check_utility(&g, &facts);
                    for seat in 0..n {
                        g.legal_actions(seat, &mut actions);
                        assert!(actions.is_empty(), "terminal state has legal actions");
                    }
                    break;
                }
                Turn::Chance => {
                    assert_eq!(
                        facts.chance,
                        ChanceMode::Explicit,
                        "a chance node in a game whose facts declare no chance"
                    );
                    g.chance_outcomes(&mut chance);
                    assert!(!chance.is_empty(), "chance node without outcomes");
                    let total: f64 = chance.iter().map(|c| c.1).sum();
                    assert!(
                        (total - 1.0).abs() < 1e-9,
                        "chance probabilities sum to {total}"
                    );
                    assert!(chance.iter().all(|c| c.1 > 0.0));
                    let pick = chance[crate::random::sample_index(&chance, &mut rng)].0;
                    let text = g.action_notation(pick);
                    assert_eq!(
                        g.parse_action(&text).ok(),
                        Some(pick),
                        "chance notation '{text}' does not parse back"
                    );
                    record.push(text);
                    apply_and_check_undo(&mut g, |g| g.apply(pick));
                }
                Turn::Seat(seat) => {
                    g.legal_actions(seat, &mut actions);
                    assert!(
                        !actions.is_empty(),
                        "non-terminal seat node without legal actions"
                    );
                    let a = actions[rng.gen_range(0..actions.len())];
                    let text = g.action_notation(a);
                    assert_eq!(
                        g.parse_action(&text).ok(),
                        Some(a),
                        "notation '{text}' does not parse back"
                    );
                    record.push(text);
                    if facts.board_check {
                        check_board_check(&mut g, seat, &actions);
                    }
                    check_null_move(&mut g, &facts);
                    check_captures(&mut g, seat, &actions);
                    apply_and_check_undo(&mut g, |g| g.apply(a));
                }
                Turn::Simultaneous => {
                    assert_eq!(
                        facts.dynamics,
                        Dynamics::Simultaneous,
                        "a simultaneous node in a game whose facts declare sequential moves"
                    );
                    let seats = g.simultaneous_seats();
                    let mut joint = Vec::new();
                    for &s in &seats {
                        g.legal_actions(s, &mut actions);
                        assert!(
                            !actions.is_empty(),
                            "seat {s} has no action at a simultaneous node"
                        );
                        joint.push(actions[rng.gen_range(0..actions.len())]);
                    }
                    record.push(joint_notation(&g, &joint));
                    apply_and_check_undo(&mut g, |g| g.apply_joint(&joint));
                }
            }
            keys.push(g.state_key());
            assert_eq!(g.history_len(), record.len(), "history length out of step");
        }
        let refs: Vec<&str> = record.iter().map(String::as_str).collect();
        let replayed = replay(start.clone(), &refs)
            .unwrap_or_else(|e| panic!("game {game_index}: replay failed: {e}"));
        assert_eq!(
            replayed.state_key(),
            g.state_key(),
            "replay ends in a different state"
        );
        // Unwind the whole game with undo: every intermediate key must come back.
        for k in keys.iter().rev().skip(1) {
            g.undo();
            assert_eq!(g.state_key(), *k, "undo chain does not retrace the game");
        }
    }
}

fn check_utility<G: Game>(g: &G, facts: &GameFacts) {
    let n = g.num_seats();
    let r = g.returns();
    let sum: f64 = r[..n].iter().sum();
    match facts.utility {
        Utility::ZeroSum => assert!(sum.abs() < 1e-9, "zero-sum returns sum to {sum}"),
        Utility::Team => {
            assert!(sum.abs() < 1e-9, "team returns sum to {sum}");
            for a in 0..n {
                for b in 0..n {
                    if g.team(a) == g.team(b) {
                        assert_eq!(r[a], r[b], "partners {a} and {b} got different returns");
                    }
                }
            }
        }
        Utility::Identical => assert!(
            r[..n].iter().all(|&x| x == r[0]),
            "identical utility, different returns {:?}",
            &r[..n]
        ),
    }
}

/// What `board_check` claims, at a seat node: the board's side to move is the seat's
/// colour, and every legal action is one move after which the other colour is to move
/// (or the game is over) with the mover's king not attacked.
fn check_board_check<G: Game>(g: &mut G, seat: usize, actions: &[G::Action]) {
    let board = g
        .board()
        .expect("facts declare board_check, but the game has no board");
    let us = board.turn();
    assert_eq!(
        us.index(),
        seat,
        "board_check: seat {seat} to move, the board's side to move is {us:?}"
    );
    for &a in actions {
        let text = g.action_notation(a);
        g.apply(a);
        if let Turn::Seat(next) = g.turn() {
            let b = g.board().expect("a board after the move");
            assert_eq!(
                b.turn(),
                us.other(),
                "board_check: '{text}' left the same colour to move (seat {next})"
            );
            if let Some(k) = b.king(us) {
                assert!(
                    !b.is_attacked(k, us.other()),
                    "board_check: '{text}' left the mover's king attacked"
                );
            }
        }
        g.undo();
    }
}

/// `apply_null` refuses where the facts declare no null move, and where it passes,
/// `undo_null` restores the state exactly.
fn check_null_move<G: Game>(g: &mut G, facts: &GameFacts) {
    let key = g.state_key();
    if g.apply_null() {
        assert!(
            facts.null_move,
            "apply_null passed in a game whose facts declare no null move"
        );
        g.undo_null();
        assert_eq!(
            g.state_key(),
            key,
            "undo_null did not restore the state key"
        );
    }
}

fn apply_and_check_undo<G: Game>(g: &mut G, f: impl Fn(&mut G)) {
    let before_key = g.state_key();
    let before_turn = g.turn();
    f(g);
    g.undo();
    assert_eq!(
        g.state_key(),
        before_key,
        "undo did not restore the state key"
    );
    assert_eq!(g.turn(), before_turn, "undo did not restore the turn");
    f(g);
}

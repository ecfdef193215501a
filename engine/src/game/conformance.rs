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
        if b.victim(m).is_some() {
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

/// Where the game names an action's orthodox move ([`Game::action_move`]), the name is
/// what agents read instead of playing the action (capture scores, ordering, static
/// exchange), so it must be what playing the action does on the board: the named piece
/// leaves its square (castling aside; a Cassandra prophecy may then remove it), a
/// capture takes a piece of the victim's colour off the board, and where the board
/// records the action as moves, the last one is the named move.
fn check_action_moves<G: Game>(g: &mut G, actions: &[G::Action]) {
    for &a in actions {
        let Some(m) = g.action_move(a) else {
            continue;
        };
        let name = g.action_notation(a);
        let Some(b0) = g.board().cloned() else {
            panic!("action_move names {m:?} for '{name}' in a game without a board");
        };
        let Some(piece) = b0.piece_at(m.from()) else {
            panic!("action_move names {m:?} for '{name}', whose origin is empty");
        };
        let victim = b0.victim(m);
        g.apply(a);
        let b1 = g.board().cloned().expect("the board went away");
        g.undo();
        if b1.ply() > b0.ply() {
            assert_eq!(
                b1.last_move(),
                Some(m),
                "action_move names {m:?} for '{name}', but the board's last move after it differs"
            );
        }
        if !m.is_castle() {
            assert!(
                b1.piece_at(m.from()) != Some(piece),
                "action_move names {m:?} for '{name}', but the piece did not leave its square"
            );
        }
        if let Some(v) = victim {
            assert!(
                b1.by_color(v.color).count() < b0.by_color(v.color).count(),
                "action_move names the capture {m:?} for '{name}', but nothing was taken"
            );
        }
    }
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
///   move hands the turn to the same colour or leaves the mover's king attacked (and
///   `Game::in_check` is the board's check); where they claim `quiet_pruning`, every
///   legal action ends the game or hands the decision to the other team; where they
///   claim `static_exchange`, a capture changes the board only on its own squares (or as
///   a quiet move here does too) and leaves the mover's piece there (tests below: false
///   claims are caught);
///   `apply_null` passes only where the facts declare `null_move`, and `undo_null`
///   restores the state;
/// - where the game lists its captures ([`Game::legal_captures`]), the list is exactly
///   the legal actions whose orthodox move takes an enemy piece on the board;
/// - where the game names an action's move ([`Game::action_move`]), playing the action
///   moves that piece there (and takes what the move takes).
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
                    if facts.quiet_pruning {
                        check_whole_turns(&mut g, seat, &actions);
                    }
                    if facts.static_exchange {
                        check_ordinary_captures(&mut g, &actions);
                    }
                    if facts.board_check || facts.game_check {
                        check_game_check(&g, &facts);
                    }
                    check_null_move(&mut g, &facts);
                    check_captures(&mut g, seat, &actions);
                    check_action_moves(&mut g, &actions);
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

/// What `quiet_pruning` claims, at a seat node: after every legal action the game is
/// over or a seat of the other team decides (no second decision of the same side, no
/// chance or simultaneous node in between).
fn check_whole_turns<G: Game>(g: &mut G, seat: usize, actions: &[G::Action]) {
    for &a in actions {
        let text = g.action_notation(a);
        g.apply(a);
        match g.turn() {
            Turn::Terminal => {}
            Turn::Seat(next) => assert_ne!(
                g.team(next),
                g.team(seat),
                "quiet_pruning: after '{text}' seat {next} of the mover's team decides again"
            ),
            other => {
                panic!("quiet_pruning: after '{text}' a {other:?} node follows a seat's decision")
            }
        }
        g.undo();
    }
}

/// What `static_exchange` claims of the board, at a seat node: a legal capture changes
/// the board on its from and to squares (and the square of a pawn taken en passant), and
/// elsewhere only as some quiet move here changes it too (what falls due whatever is
/// played: Cassandra's prophecies), and leaves a piece of the mover's colour on the to
/// square.
fn check_ordinary_captures<G: Game>(g: &mut G, actions: &[G::Action]) {
    let before = g
        .board()
        .expect("facts declare static_exchange, but the game has no board")
        .clone();
    let us = before.turn();
    // Per action: its move, if it plays one, and the squares it changes off its path.
    let mut played = Vec::new();
    for &a in actions {
        g.apply(a);
        let m = g.board().and_then(|b| b.last_move());
        let after = g.board().expect("a board after the move").clone();
        g.undo();
        let Some(m) = m.filter(|&m| before.last_move() != Some(m)) else {
            continue;
        };
        let ep = before
            .ep_square()
            .filter(|&e| e == m.to() && before.piece_at(m.to()).is_none());
        let elsewhere: Vec<_> = (0..64u8)
            .map(crate::Square::new)
            .filter(|&sq| sq != m.from() && sq != m.to())
            .filter(|sq| {
                !(ep.is_some() && sq.file() == m.to().file() && sq.rank() == m.from().rank())
            })
            .filter(|&sq| before.piece_at(sq) != after.piece_at(sq))
            .map(|sq| (sq, after.piece_at(sq)))
            .collect();
        played.push((a, m, after.piece_at(m.to()), elsewhere));
    }
    let quiet: Vec<_> = played
        .iter()
        .filter(|p| {
            before.captured_piece(p.1).is_none()
                && before
                    .piece_at(p.1.from())
                    .is_some_and(|x| x.role != crate::Role::King)
        })
        .map(|p| &p.3)
        .collect();
    for (a, m, landed, elsewhere) in &played {
        let Some(taken) = before.captured_piece(*m) else {
            continue;
        };
        let text = g.action_notation(*a);
        assert_ne!(
            taken.color, us,
            "static_exchange: '{text}' takes its own piece"
        );
        assert!(
            landed.is_some_and(|p| p.color == us),
            "static_exchange: after the capture '{text}' the mover has no piece on its square"
        );
        for change in elsewhere {
            assert!(
                quiet.iter().any(|q| q.contains(change)),
                "static_exchange: the capture '{text}' changed {:?} too, as no quiet move does",
                change.0
            );
        }
    }
}

/// What `game_check` claims where the board's check is the game's too: the game's
/// check of the seat to move is the board's.
fn check_game_check<G: Game>(g: &G, facts: &GameFacts) {
    if facts.board_check {
        let b = g
            .board()
            .expect("facts declare board_check, but the game has no board");
        assert_eq!(
            g.in_check(),
            b.in_check(),
            "board_check: the game's check differs from the board's"
        );
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

/// The checks of the search facts can fail: a game that claims what its rules do not give
/// is caught naming the fact (Cassandra's turn is a move and then a prophecy, and a
/// prophecy falling due may remove a capturer).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameError, Seat};
    use crate::variants::cassandra::{Cassandra, CassandraAction, CassandraParams};

    /// Cassandra with facts it does not have, and (with the flag) naming a prophecy's
    /// move as the board's last one, which the prophecy does not make.
    #[derive(Clone, Debug)]
    struct Claiming(Cassandra, GameFacts, bool);

    impl Game for Claiming {
        type Action = CassandraAction;
        type Params = CassandraParams;
        fn facts(&self) -> GameFacts {
            self.1
        }
        fn new(params: &CassandraParams) -> Self {
            let g = Cassandra::new(params);
            let f = g.facts();
            Claiming(g, f, false)
        }
        fn num_seats(&self) -> usize {
            self.0.num_seats()
        }
        fn turn(&self) -> Turn {
            self.0.turn()
        }
        fn legal_actions(&self, seat: Seat, out: &mut Vec<CassandraAction>) {
            self.0.legal_actions(seat, out)
        }
        fn apply(&mut self, action: CassandraAction) {
            self.0.apply(action)
        }
        fn undo(&mut self) {
            self.0.undo()
        }
        fn result(&self) -> Option<crate::game::GameResult> {
            self.0.result()
        }
        fn state_key(&self) -> u64 {
            self.0.state_key()
        }
        fn observation(&self, seat: Seat) -> String {
            self.0.observation(seat)
        }
        fn action_notation(&self, action: CassandraAction) -> String {
            self.0.action_notation(action)
        }
        fn parse_action(&self, text: &str) -> Result<CassandraAction, GameError> {
            self.0.parse_action(text)
        }
        fn history_len(&self) -> usize {
            self.0.history_len()
        }
        fn board(&self) -> Option<&crate::Board> {
            self.0.board()
        }
        fn action_move(&self, action: CassandraAction) -> Option<crate::Move> {
            match action {
                CassandraAction::Prophesy(_) if self.2 => self.0.board()?.last_move(),
                _ => self.0.action_move(action),
            }
        }
    }

    fn caught(facts: GameFacts) -> String {
        let g = Claiming(Cassandra::new(&CassandraParams::default()), facts, false);
        let err = std::panic::catch_unwind(|| check(&g, 12, 3)).expect_err("a false claim passed");
        err.downcast_ref::<String>().cloned().unwrap_or_default()
    }

    #[test]
    fn a_false_quiet_pruning_claim_is_caught() {
        let f = Cassandra::new(&CassandraParams::default()).facts();
        assert!(check_passes(f), "Cassandra's own facts pass");
        let msg = caught(f.with_quiet_pruning(true));
        assert!(msg.contains("quiet_pruning"), "{msg}");
    }

    #[test]
    fn a_false_static_exchange_claim_is_caught() {
        let f = Cassandra::new(&CassandraParams::default()).facts();
        let msg = caught(f.with_static_exchange(true));
        assert!(msg.contains("static_exchange"), "{msg}");
    }

    #[test]
    fn a_false_action_move_is_caught() {
        let f = Cassandra::new(&CassandraParams::default()).facts();
        let g = Claiming(Cassandra::new(&CassandraParams::default()), f, true);
        let err = std::panic::catch_unwind(|| check(&g, 12, 3)).expect_err("a false name passed");
        let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.contains("action_move"), "{msg}");
    }

    fn check_passes(facts: GameFacts) -> bool {
        let g = Claiming(Cassandra::new(&CassandraParams::default()), facts, false);
        std::panic::catch_unwind(|| check(&g, 2, 3)).is_ok()
    }
}

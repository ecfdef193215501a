//! Information properties of Time Chess over random playouts: what a seat may know, what
//! `sample_world` may change, that information keys follow observations exactly, and
//! that the belief set equals a brute-force recount.

use engine::game::{Game, Turn};
use engine::variants::time::{belief, Phase, TimeAction, TimeChess, TimeParams};
use engine::{Board, Color, Role};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::{BTreeSet, HashMap};

/// Small positions with plenty of captures, plus the start.
const OPENINGS: &[&str] = &[
    "r3k2r/ppp2ppp/2n5/3pp3/3PP3/2N5/PPP2PPP/R3K2R b KQkq - 0 1",
    "4k3/pp3ppp/2n5/3q4/3Q4/2N5/PP3PPP/4K3 w - - 0 1",
    "r3k3/1p6/8/3n4/3N4/8/1P6/R3K3 b Qq - 0 1",
];

fn start(i: usize) -> TimeChess {
    let p = TimeParams {
        ply_cap: 120,
        ..Default::default()
    };
    match i % (OPENINGS.len() + 1) {
        0 => TimeChess::new(&p),
        k => TimeChess::from_opening(&p, OPENINGS[k - 1]).unwrap(),
    }
}

/// One uniformly random action; false at the end.
fn step(g: &mut TimeChess, rng: &mut Pcg64) -> bool {
    let Turn::Seat(s) = g.turn() else {
        return false;
    };
    let mut actions = Vec::new();
    g.legal_actions(s, &mut actions);
    g.apply(actions[rng.gen_range(0..actions.len())]);
    true
}

/// The seat's own pieces, role by role.
fn own(b: &Board, c: Color) -> [u64; 6] {
    Role::ALL.map(|r| b.pieces(c, r).0)
}

/// What `seat` observes of the ply just played, worked out from the boards alone:
/// the mover knows its action and the board after; the opponent, while blind, sees only
/// its own pieces; otherwise the board after. The end of the game shows the board.
fn observed(g: &TimeChess, seat: usize, action: TimeAction, phase: Phase) -> String {
    let b = g.board_ref();
    let me = Color::from_index(seat);
    let end = match g.result() {
        Some(r) => format!(" end:{} {}", r.reason, b.fen()),
        None => String::new(),
    };
    if phase.mover() == me {
        format!("{action:?} {}{end}", b.fen())
    } else if phase.blind() == Some(me) {
        format!("{:?}{end}", own(b, me))
    } else {
        format!("{}{end}", b.fen())
    }
}

/// The opponent's moves the seat to move cannot tell from the truth, by trying every
/// legal action of the opponent before the last ply and comparing the seat's own pieces.
fn brute_force(g: &TimeChess) -> BTreeSet<String> {
    let seat = g.board_ref().turn();
    let mine = own(g.board_ref(), seat);
    let mut before = g.clone();
    before.undo();
    let mut actions = Vec::new();
    before.legal_actions(seat.other().index(), &mut actions);
    let mut out = BTreeSet::new();
    for a in actions {
        let text = before.action_notation(a);
        before.apply(a);
        if own(before.board_ref(), seat) == mine && before.result().is_none() {
            out.insert(text);
        }
        before.undo();
    }
    out
}

fn belief_set(g: &TimeChess) -> BTreeSet<String> {
    let mut before = g.clone();
    before.undo();
    belief::consistent_moves(g)
        .into_iter()
        .map(|m| before.action_notation(TimeAction::Move(m)))
        .collect()
}

#[test]
fn belief_equals_a_brute_force_recount_and_holds_the_truth() {
    let mut rng = Pcg64::seed_from_u64(21);
    let mut checked = 0;
    let mut sizes = Vec::new();
    for game in 0..40 {
        let mut g = start(game);
        while step(&mut g, &mut rng) {
            let Turn::Seat(s) = g.turn() else { break };
            if !g.hides_from(s) {
                assert!(belief::consistent_moves(&g).is_empty());
                continue;
            }
            let set = belief_set(&g);
            assert_eq!(set, brute_force(&g));
            let mut before = g.clone();
            before.undo();
            let last = g.actions_played().last().unwrap();
            assert!(
                set.contains(&before.action_notation(last)),
                "truth left the set"
            );
            sizes.push(set.len());
            checked += 1;
        }
    }
    assert!(checked > 300, "checked {checked}");
    assert!(sizes.contains(&1) && sizes.iter().any(|&n| n > 10));
}

#[test]
fn sampled_worlds_never_contradict_the_seats_observations() {
    let mut rng = Pcg64::seed_from_u64(22);
    let mut srng = Pcg64::seed_from_u64(99);
    let mut changed = 0;
    let mut checked = 0;
    for game in 0..24 {
        let mut g = start(game);
        while step(&mut g, &mut rng) {
            for seat in 0..2 {
                let w = g.sample_world(seat, &mut srng);
                assert_eq!(w.information_key(seat), g.information_key(seat));
                assert_eq!(w.phase(), g.phase());
                assert_eq!(w.history_len(), g.history_len());
                assert_eq!(w.turn(), g.turn());
                let me = Color::from_index(seat);
                assert_eq!(own(w.board_ref(), me), own(g.board_ref(), me));
                if !g.hides_from(seat) {
                    assert_eq!(w.state_key(), g.state_key(), "nothing is hidden");
                    continue;
                }
                // Everything up to the unseen ply is the truth; the ply is one the seat
                // cannot rule out and it leaves the game running.
                let (mut wb, mut gb) = (w.clone(), g.clone());
                wb.undo();
                gb.undo();
                assert_eq!(wb.state_key(), gb.state_key());
                assert!(w.result().is_none());
                assert!(brute_force(&g).contains(&{
                    let last = w.actions_played().last().unwrap();
                    wb.action_notation(last)
                }));
                // The seat's own tries are legal in the sampled world too.
                let (mut a, mut b) = (Vec::new(), Vec::new());
                g.legal_actions(seat, &mut a);
                w.legal_actions(seat, &mut b);
                assert_eq!(a, b, "blind tries depend on the own pieces only");
                changed += usize::from(w.state_key() != g.state_key());
                checked += 1;
            }
        }
    }
    assert!(
        checked > 150 && changed > 100,
        "checked {checked}, changed {changed}"
    );
}

/// Pearson's statistic against the uniform distribution.
fn chi_square(counts: &[u32]) -> f64 {
    let n: u32 = counts.iter().sum();
    let e = n as f64 / counts.len() as f64;
    counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
}

/// Mean plus six standard deviations of chi-square with k-1 degrees of freedom.
fn chi_square_bound(k: usize) -> f64 {
    let df = (k - 1) as f64;
    df + 6.0 * (2.0 * df).sqrt() + 1.0
}

#[test]
fn sampling_does_not_depend_on_the_hidden_truth_and_is_uniform() {
    let mut rng = Pcg64::seed_from_u64(23);
    let mut pairs = 0;
    for game in 0..30 {
        let mut g = start(game);
        let stop = 8 + 6 * (game % 8);
        while g.history_len() < stop && step(&mut g, &mut rng) {}
        // Go on to the next blind turn.
        while g.turn() != Turn::Terminal {
            let Turn::Seat(s) = g.turn() else { break };
            if g.hides_from(s) {
                break;
            }
            step(&mut g, &mut rng);
        }
        let Turn::Seat(seat) = g.turn() else { continue };
        let moves = belief::consistent_moves(&g);
        if moves.len() < 2 {
            continue;
        }
        // The twin: the same history with another consistent unseen move.
        let truth_move = g.actions_played().last().unwrap();
        let other = moves
            .iter()
            .map(|&m| TimeAction::Move(m))
            .find(|&a| a != truth_move)
            .unwrap();
        let mut twin = g.clone();
        twin.undo();
        twin.apply(other);
        assert_eq!(twin.information_key(seat), g.information_key(seat));
        assert_ne!(twin.state_key(), g.state_key());
        assert_ne!(twin.information_key(1 - seat), g.information_key(1 - seat));
        let mut r1 = Pcg64::seed_from_u64(77 + game as u64);
        let mut r2 = Pcg64::seed_from_u64(77 + game as u64);
        let mut counts: HashMap<u64, u32> = HashMap::new();
        let draws = 200 * moves.len();
        for _ in 0..draws {
            let a = g.sample_world(seat, &mut r1).state_key();
            let b = twin.sample_world(seat, &mut r2).state_key();
            assert_eq!(a, b, "the draw must not depend on the hidden truth");
            *counts.entry(a).or_default() += 1;
        }
        assert_eq!(counts.len(), moves.len(), "every consistent world is drawn");
        let c: Vec<u32> = counts.into_values().collect();
        assert!(chi_square(&c) < chi_square_bound(c.len()), "not uniform");
        pairs += 1;
    }
    assert!(pairs >= 10, "only {pairs} informative pairs");
}

#[test]
fn information_keys_are_equal_exactly_when_observations_are() {
    let mut rng = Pcg64::seed_from_u64(24);
    let mut actions = Vec::new();
    let mut merged = [0usize; 2];
    for game in 0..12 {
        let mut g = start(game);
        while let Turn::Seat(mover) = g.turn() {
            let phase = g.phase();
            g.legal_actions(mover, &mut actions);
            for (seat, merged) in merged.iter_mut().enumerate() {
                // Group the actions by key and by observation: the two partitions agree.
                let mut by_key: HashMap<u64, BTreeSet<String>> = HashMap::new();
                let mut by_obs: HashMap<String, BTreeSet<String>> = HashMap::new();
                for &a in &actions {
                    let name = g.action_notation(a);
                    g.apply(a);
                    by_key
                        .entry(g.information_key(seat))
                        .or_default()
                        .insert(name.clone());
                    by_obs
                        .entry(observed(&g, seat, a, phase))
                        .or_default()
                        .insert(name);
                    g.undo();
                }
                let mut k: Vec<_> = by_key.into_values().collect();
                let mut o: Vec<_> = by_obs.into_values().collect();
                k.sort();
                o.sort();
                assert_eq!(k, o, "seat {seat} at {phase:?}");
                *merged += actions.len() - k.len();
            }
            if !step(&mut g, &mut rng) {
                break;
            }
        }
    }
    assert!(merged[0] > 50 && merged[1] > 50, "{merged:?}");
}

#[test]
fn information_keys_differ_after_different_histories() {
    // Same board reached by different paths: the seats saw different histories.
    let mut a = TimeChess::new(&TimeParams::default());
    let mut b = a.clone();
    for m in ["g8f6", "g1f3", "f6g8", "f3g1", "b8c6", "b1c3"] {
        let act = a.parse_action(m).unwrap();
        a.apply(act);
    }
    for m in ["b8c6", "b1c3", "g8f6", "g1f3", "f6g8", "f3g1"] {
        let act = b.parse_action(m).unwrap();
        b.apply(act);
    }
    assert_eq!(a.board_ref().key(), b.board_ref().key());
    assert_ne!(a.information_key(0), b.information_key(0));
}

/// The sighted twin: the properties above where they still apply. Nothing is hidden
/// from anyone (no belief, sampled worlds are the state itself, information keys are the
/// state key), and the opponent's Midday and Midnight moves, which the seed's blind seat
/// cannot tell apart unless they take one of its pieces, are told apart by the twin's
/// keys for both seats.
#[test]
fn sighted_twin_hides_nothing() {
    let mut rng = Pcg64::seed_from_u64(21);
    let (mut told, mut lumped) = (0, 0);
    for i in 0..8 {
        let mut g = start(i).with_sighted(true);
        let mut actions = Vec::new();
        loop {
            for seat in 0..2 {
                assert!(!g.hides_from(seat));
                assert_eq!(g.information_key(seat), g.state_key());
                assert_eq!(g.sample_world(seat, &mut rng).state_key(), g.state_key());
                assert!(g.observation(seat).contains(" | board "));
            }
            assert!(belief::consistent_moves(&g).is_empty());
            let Turn::Seat(s) = g.turn() else { break };
            let phase = g.phase();
            g.legal_actions(s, &mut actions);
            if matches!(phase, Phase::Midday | Phase::Midnight) {
                // The seat blind at this phase in the seed's game (there from the same
                // board), and its keys after each move in both games.
                let blind = 1 - s;
                let mut h = TimeChess::from_board_at(g.board_ref().clone(), phase, 120).unwrap();
                let mut twin_keys = BTreeSet::new();
                let mut seed_keys = BTreeSet::new();
                for &a in &actions {
                    g.apply(a);
                    twin_keys.insert(g.information_key(blind));
                    g.undo();
                    h.apply(a);
                    seed_keys.insert(h.information_key(blind));
                    h.undo();
                }
                assert_eq!(twin_keys.len(), actions.len());
                told += 1;
                lumped += usize::from(seed_keys.len() < actions.len());
            }
            let a = actions[rng.gen_range(0..actions.len())];
            g.apply(a);
        }
    }
    assert!(told > 20 && lumped > 10, "{told} {lumped}");
}

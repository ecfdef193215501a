//! Seeded random Adrenaline games through the game API, checking what no rule may allow:
//! a king captured (a legal turn that left the mover's king attacked, or a mate missed),
//! or a seat asked to act with no legal action. Ends are tallied by reason.
//!
//! The default test plays a few games (debug builds are slow); the full run of the audit
//! (1000 games) is ignored by default and prints its tallies and plies/s next to
//! orthodox chess, for the report:
//! `nice -n 10 cargo test --release -p engine --test integration adrenaline_random:: -- --ignored --nocapture`.

use engine::game::{Game, Turn};
use engine::variants::adrenaline::{Adrenaline, AdrenalineParams};
use engine::variants::chess::{Chess, ChessParams};
use engine::{Color, Role};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::BTreeMap;
use std::time::Instant;

/// What a run of games ended with.
#[derive(Default, Debug)]
struct Tally {
    reasons: BTreeMap<&'static str, usize>,
    plies: usize,
    /// Games that ended with the supply empty while checkers stood on the board.
    ran_dry: usize,
}

/// Plays one game from `seed`, asserting the invariants after every action.
fn play(seed: u64, tally: &mut Tally) {
    let params = AdrenalineParams::default();
    let mut g = Adrenaline::new(&params);
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut actions = Vec::with_capacity(64);
    while let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut actions);
        assert!(
            !actions.is_empty(),
            "seed {seed}: seat {s} to act without actions in {}",
            g.observation(0)
        );
        let a = actions[rng.gen_range(0..actions.len())];
        g.apply(a);
        for c in [Color::White, Color::Black] {
            assert_eq!(
                g.board_ref().pieces(c, Role::King).count(),
                1,
                "seed {seed}: a king was captured by {} in {}",
                g.action_notation(a),
                g.observation(0)
            );
        }
        tally.plies += 1;
    }
    let r = g.result().expect("terminal");
    // The supply ran out while checkers stood on the board (spent ones never came back).
    tally.ran_dry +=
        (g.checkers_on_board() > 0 && g.supply() < params.checkers_per_capture as u32) as usize;
    *tally.reasons.entry(r.reason).or_default() += 1;
}

fn run(games: u64) -> Tally {
    let mut tally = Tally::default();
    for seed in 0..games {
        play(seed, &mut tally);
    }
    tally
}

#[test]
fn random_games_never_capture_a_king_nor_leave_a_seat_without_actions() {
    let t = run(6);
    assert_eq!(t.reasons.values().sum::<usize>(), 6);
}

#[test]
#[ignore = "1000 games: run in release (see the module doc)"]
fn thousand_random_games() {
    let start = Instant::now();
    let t = run(1000);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "adrenaline: {:?}; {} plies, {:.0} plies/s; supply ran dry in {} games",
        t.reasons,
        t.plies,
        t.plies as f64 / secs,
        t.ran_dry
    );
    let mate_or_stalemate = t.reasons.get("checkmate").copied().unwrap_or(0)
        + t.reasons.get("stalemate").copied().unwrap_or(0);
    println!("adrenaline: {mate_or_stalemate} of 1000 end in checkmate or stalemate");
    // Orthodox chess through the same loop, for the speed ratio.
    let start = Instant::now();
    let mut plies = 0usize;
    for seed in 0..1000u64 {
        let mut g = Chess::new(&ChessParams::default());
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut actions = Vec::with_capacity(64);
        while let Turn::Seat(s) = g.turn() {
            g.legal_actions(s, &mut actions);
            g.apply(actions[rng.gen_range(0..actions.len())]);
            plies += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("chess: {plies} plies, {:.0} plies/s", plies as f64 / secs);
    assert_eq!(t.reasons.values().sum::<usize>(), 1000);
}

//! Information properties of Masquerade Chess over random playouts: what a seat may know,
//! what `sample_world` may change, and that the consistent sets are exact.

use engine::game::{Game, Turn};
use engine::variants::masquerade::{
    Assignment, Event, Masquerade, MasqueradeAction, MasqueradeParams,
};
use engine::{Bitboard, Color, Role, Square};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// An attempt as the attempter saw it: who, which piece type, where, the occupancy then,
/// and the answer.
#[derive(Clone, Copy, Debug)]
struct Seen {
    by: Color,
    role: Role,
    from: Square,
    to: Square,
    occ: Bitboard,
    hit: bool,
}

/// A game in progress with the record the test keeps on its own.
struct Playout {
    game: Masquerade,
    /// Notation of every play-phase action (assignments left out).
    play: Vec<String>,
    seen: Vec<Seen>,
    /// Per colour, the play ply after which the brute-force set first had one member.
    knows_at: [i64; 2],
}

fn random_params() -> MasqueradeParams {
    MasqueradeParams {
        assignment: "random".into(),
        ..Default::default()
    }
}

/// Plays one uniformly random action (or chance outcome), keeping the record.
fn step(p: &mut Playout, rng: &mut Pcg64) -> bool {
    let g = &mut p.game;
    let mut actions = Vec::new();
    let action = match g.turn() {
        Turn::Terminal => return false,
        Turn::Chance => {
            let mut out = Vec::new();
            g.chance_outcomes(&mut out);
            out[rng.gen_range(0..out.len())].0
        }
        Turn::Seat(s) => {
            g.legal_actions(s, &mut actions);
            // Attempts are where the information is: favour them a little.
            let tries: Vec<_> = actions
                .iter()
                .copied()
                .filter(|a| matches!(a, MasqueradeAction::Attempt(..)))
                .collect();
            if !tries.is_empty() && rng.gen_bool(0.4) {
                tries[rng.gen_range(0..tries.len())]
            } else {
                actions[rng.gen_range(0..actions.len())]
            }
        }
        t => panic!("unexpected {t:?}"),
    };
    let occ = g.board_ref().occupied();
    let by = g.board_ref().turn();
    let text = g.action_notation(action);
    g.apply(action);
    if !matches!(action, MasqueradeAction::Assign(_)) {
        p.play.push(text);
    }
    if let MasqueradeAction::Attempt(from, to) = action {
        let Some(Event::Attempted { hit, role, .. }) = g.events().last() else {
            panic!("an attempt leaves an attempt event");
        };
        p.seen.push(Seen {
            by,
            role,
            from,
            to,
            occ,
            hit,
        });
    }
    if g.in_play() {
        for c in [Color::White, Color::Black] {
            if p.knows_at[c.index()] < 0 && brute_force(&p.seen, c).count_ones() == 1 {
                p.knows_at[c.index()] = g.play_plies() as i64;
            }
        }
    }
    true
}

/// The assignments of `color`'s pieces under which every attempt of `color` gets the
/// answer it got, by trying all 120.
fn brute_force(seen: &[Seen], color: Color) -> u128 {
    let mut set = 0u128;
    for i in 0..Assignment::COUNT {
        let a = Assignment::from_index(i).unwrap();
        let fits = seen
            .iter()
            .filter(|s| s.by == color)
            .all(|s| a.pattern(s.role).unwrap().reaches(s.from, s.to, s.occ) == s.hit);
        if fits {
            set |= 1 << i;
        }
    }
    set
}

fn new_playout(params: &MasqueradeParams) -> Playout {
    Playout {
        game: Masquerade::new(params),
        play: Vec::new(),
        seen: Vec::new(),
        knows_at: [-1; 2],
    }
}

/// A game with both assignments fixed to `world`'s, replaying `play` from the start.
fn replay_in(world: &Masquerade, play: &[String]) -> Masquerade {
    let params = MasqueradeParams {
        white_assigns: Some(world.given(Color::Black).unwrap().to_string()),
        black_assigns: Some(world.given(Color::White).unwrap().to_string()),
        ..Default::default()
    };
    let mut g = Masquerade::new(&params);
    for a in play {
        let act = g
            .parse_action(a)
            .unwrap_or_else(|e| panic!("'{a}' does not replay in the sampled world: {e}"));
        g.apply(act);
    }
    g
}

fn tally(g: &Masquerade, name: &str) -> f64 {
    g.tallies()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no tally {name}"))
        .1
}

#[test]
fn consistent_sets_hold_the_truth_and_equal_a_brute_force_recount() {
    let mut rng = Pcg64::seed_from_u64(11);
    let mut attempts = 0;
    for _ in 0..30 {
        let mut p = new_playout(&random_params());
        while step(&mut p, &mut rng) {
            if !p.game.in_play() {
                continue;
            }
            for c in [Color::White, Color::Black] {
                let set = p.game.consistent(c);
                assert_eq!(set, brute_force(&p.seen, c), "{c:?}");
                assert!(
                    set & p.game.given(c).unwrap().bit() != 0,
                    "truth left the set"
                );
            }
        }
        attempts += p.seen.len();
        for (c, side) in [(Color::White, "white"), (Color::Black, "black")] {
            let knows_at = p
                .game
                .tallies()
                .into_iter()
                .find(|(n, _)| *n == format!("{side}_knows_at_ply"))
                .map_or(-1.0, |t| t.1);
            assert_eq!(knows_at, p.knows_at[c.index()] as f64);
            assert_eq!(
                tally(&p.game, &format!("{side}_knows")),
                f64::from(p.knows_at[c.index()] >= 0)
            );
            let n = p.seen.iter().filter(|s| s.by == c).count();
            let failed = p.seen.iter().filter(|s| s.by == c && !s.hit).count();
            assert_eq!(tally(&p.game, &format!("{side}_attempts")), n as f64);
            assert_eq!(
                tally(&p.game, &format!("{side}_failed_attempts")),
                failed as f64
            );
        }
        // Undo restores the sets all the way back.
        while p.game.history_len() > 0 {
            p.game.undo();
        }
        assert_eq!(p.game.consistent(Color::White).count_ones(), 120);
        assert_eq!(p.game.consistent(Color::Black).count_ones(), 120);
    }
    assert!(
        attempts > 300,
        "the playouts should try many captures ({attempts})"
    );
}

#[test]
fn sample_world_changes_only_the_seats_own_assignment_and_contradicts_nothing() {
    let mut rng = Pcg64::seed_from_u64(12);
    let mut sample_rng = Pcg64::seed_from_u64(99);
    let mut checked = 0;
    let mut changed = 0;
    for _ in 0..12 {
        let mut p = new_playout(&random_params());
        let mut ply = 0;
        while step(&mut p, &mut rng) {
            ply += 1;
            if ply % 7 != 0 && p.game.turn() != Turn::Terminal {
                continue;
            }
            let g = &p.game;
            for seat in 0..2 {
                let own = Color::from_index(seat);
                let w = g.sample_world(seat, &mut sample_rng);
                assert_eq!(w.information_key(seat), g.information_key(seat));
                assert_eq!(w.given(own.other()), g.given(own.other()));
                assert_eq!(w.board_ref().fen(), g.board_ref().fen());
                for c in [Color::White, Color::Black] {
                    assert_eq!(w.consistent(c), g.consistent(c));
                }
                assert!(w.events().eq(g.events()));
                assert_eq!(w.history_len(), g.history_len());
                let sampled = w.given(own).expect("play has started");
                assert!(g.consistent(own) & sampled.bit() != 0);
                changed += usize::from(Some(sampled) != g.given(own));
                // Replaying the public record in the sampled world: same answers, same board.
                let r = replay_in(&w, &p.play);
                assert!(r
                    .events()
                    .eq(g.events().filter(|e| !matches!(e, Event::Assigned { .. }))));
                assert_eq!(r.board_ref().fen(), g.board_ref().fen());
                assert_eq!(r.consistent(own), g.consistent(own));
                checked += 1;
            }
        }
    }
    assert!(
        checked > 100 && changed > 50,
        "checked {checked}, changed {changed}"
    );
}

#[test]
fn before_play_sample_world_fits_the_phase() {
    let mut rng = Pcg64::seed_from_u64(5);
    let g = Masquerade::new(&MasqueradeParams::default());
    for seat in 0..2 {
        let w = g.sample_world(seat, &mut rng);
        assert_eq!(w.state_key(), g.state_key(), "nothing is hidden yet");
    }
    // White has chosen Black's assignment; Black may not know it.
    let mut g = g;
    g.apply(g.parse_action("assign:KQ,QN,RB,NR,BK").unwrap());
    let w = g.sample_world(0, &mut rng);
    assert_eq!(
        w.state_key(),
        g.state_key(),
        "white knows everything so far"
    );
    let mut counts = [0u32; 120];
    for _ in 0..12_000 {
        let w = g.sample_world(1, &mut rng);
        assert_eq!(
            w.given(Color::White),
            None,
            "white's pieces are not assigned yet"
        );
        assert_eq!(w.information_key(1), g.information_key(1));
        counts[w.given(Color::Black).unwrap().index()] += 1;
    }
    assert!(chi_square(&counts) < chi_square_bound(120));
}

/// Pearson's statistic against the uniform distribution.
fn chi_square(counts: &[u32]) -> f64 {
    let n: u32 = counts.iter().sum();
    let e = n as f64 / counts.len() as f64;
    counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
}

/// Mean plus six standard deviations of chi-square with k-1 degrees of freedom: a fixed
/// seed passes it unless the draw is not uniform.
fn chi_square_bound(k: usize) -> f64 {
    let df = (k - 1) as f64;
    df + 6.0 * (2.0 * df).sqrt() + 1.0
}

#[test]
fn sampling_depends_only_on_what_the_seat_observed() {
    let mut rng = Pcg64::seed_from_u64(13);
    let mut pairs = 0;
    for game in 0..40 {
        let mut p = new_playout(&random_params());
        let stop = 40 + game % 30;
        while p.game.play_plies() < stop && step(&mut p, &mut rng) {}
        let g = &p.game;
        if g.turn() == Turn::Terminal || !g.in_play() {
            continue;
        }
        for seat in 0..2 {
            let own = Color::from_index(seat);
            let set = g.consistent(own);
            let k = set.count_ones();
            if k < 2 {
                continue;
            }
            // Another truth the seat cannot rule out, in the same public history.
            let other = (0..120)
                .map(|i| Assignment::from_index(i).unwrap())
                .find(|a| set & a.bit() != 0 && Some(*a) != g.given(own))
                .unwrap();
            // The twin: the same record replayed under the other truth.
            let mut assigns = [
                g.given(Color::White).unwrap(),
                g.given(Color::Black).unwrap(),
            ];
            assigns[seat] = other;
            let params = MasqueradeParams {
                white_assigns: Some(assigns[1].to_string()),
                black_assigns: Some(assigns[0].to_string()),
                ..Default::default()
            };
            let mut fresh = Masquerade::new(&params);
            for a in &p.play {
                let act = fresh.parse_action(a).unwrap();
                fresh.apply(act);
            }
            assert_eq!(fresh.board_ref().fen(), g.board_ref().fen());
            assert_eq!(fresh.consistent(own), set);
            let twin = fresh;
            // Same observations for the seat (the record below skips the assignment
            // steps, so compare against a true game replayed the same way).
            let truth = replay_in(g, &p.play);
            assert_eq!(twin.information_key(seat), truth.information_key(seat));
            assert_ne!(
                twin.information_key(1 - seat),
                truth.information_key(1 - seat)
            );
            assert_ne!(twin.state_key(), truth.state_key());
            // Identical draws from identical seeds, and uniform over the set.
            let mut r1 = Pcg64::seed_from_u64(77 + game as u64);
            let mut r2 = Pcg64::seed_from_u64(77 + game as u64);
            let mut counts = vec![0u32; 120];
            let draws = 300 * k as usize;
            for _ in 0..draws {
                let a = truth.sample_world(seat, &mut r1).given(own).unwrap();
                let b = twin.sample_world(seat, &mut r2).given(own).unwrap();
                assert_eq!(a, b, "the draw must not depend on the hidden truth");
                counts[a.index()] += 1;
            }
            let members: Vec<u32> = (0..120)
                .filter(|&i| set >> i & 1 == 1)
                .map(|i| counts[i])
                .collect();
            assert_eq!(
                members.iter().sum::<u32>() as usize,
                draws,
                "draws outside the set"
            );
            assert!(
                chi_square(&members) < chi_square_bound(k as usize),
                "not uniform over {k}"
            );
            pairs += 1;
        }
    }
    assert!(pairs >= 10, "only {pairs} informative pairs");
}

#[test]
fn information_keys_differ_exactly_when_observations_differ() {
    let mut rng = Pcg64::seed_from_u64(14);
    for _ in 0..8 {
        let mut p = new_playout(&MasqueradeParams::default());
        let mut actions = Vec::new();
        loop {
            let g = &mut p.game;
            let Turn::Seat(mover) = g.turn() else { break };
            g.legal_actions(mover, &mut actions);
            // Every pair of actions here: the resulting keys per seat.
            let mut keys: Vec<[u64; 2]> = Vec::new();
            for &a in &actions {
                g.apply(a);
                keys.push([g.information_key(0), g.information_key(1)]);
                g.undo();
            }
            let assigning = matches!(actions[0], MasqueradeAction::Assign(_));
            for seat in 0..2 {
                let mut ks: Vec<u64> = keys.iter().map(|k| k[seat]).collect();
                ks.sort_unstable();
                ks.dedup();
                if assigning && seat != mover {
                    // The assigned side sees that a choice was made, not which.
                    assert_eq!(ks.len(), 1);
                } else {
                    assert_eq!(ks.len(), actions.len(), "seat {seat} must tell moves apart");
                }
            }
            if !step(&mut p, &mut rng) {
                break;
            }
        }
    }
}

/// The full-information twin (`open_assignments`): the properties above where they still
/// apply. Sampled worlds are the state itself, information keys are the state key, and
/// both seats tell every pair of assignments apart (where the hidden game's assigned side
/// sees only that a choice was made).
#[test]
fn open_assignments_twin_hides_nothing() {
    let mut rng = Pcg64::seed_from_u64(15);
    for (i, base) in [MasqueradeParams::default(), random_params()]
        .into_iter()
        .enumerate()
    {
        let params = MasqueradeParams {
            open_assignments: true,
            ..base
        };
        for _ in 0..4 {
            let mut p = new_playout(&params);
            let mut actions = Vec::new();
            let mut nodes = 0;
            loop {
                let g = &mut p.game;
                for seat in 0..2 {
                    assert_eq!(g.information_key(seat), g.state_key());
                    let w = g.sample_world(seat, &mut rng);
                    assert_eq!(w.state_key(), g.state_key());
                    for c in [Color::White, Color::Black] {
                        assert_eq!(w.given(c), g.given(c));
                    }
                }
                match g.turn() {
                    Turn::Terminal => break,
                    Turn::Chance => {
                        let mut out = Vec::new();
                        g.chance_outcomes(&mut out);
                        actions = out.into_iter().map(|o| o.0).collect();
                    }
                    Turn::Seat(s) => g.legal_actions(s, &mut actions),
                    t => panic!("unexpected {t:?}"),
                }
                // Keys follow the full state: two failed attempts with the same lesson
                // reach one state (the record is not part of it), and any two different
                // assignments are told apart by both seats.
                let assigning = matches!(actions[0], MasqueradeAction::Assign(_));
                let mut keys: Vec<[u64; 2]> = Vec::new();
                for &a in &actions {
                    g.apply(a);
                    let k = [g.information_key(0), g.information_key(1)];
                    assert_eq!(k, [g.state_key(); 2], "mode {i}");
                    keys.push(k);
                    g.undo();
                }
                for seat in 0..2 {
                    let mut ks: Vec<u64> = keys.iter().map(|k| k[seat]).collect();
                    ks.sort_unstable();
                    ks.dedup();
                    if assigning {
                        assert_eq!(ks.len(), actions.len(), "mode {i}: seat {seat}");
                    }
                }
                nodes += 1;
                if !step(&mut p, &mut rng) {
                    break;
                }
            }
            assert!(nodes > 2);
        }
    }
}

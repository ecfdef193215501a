//! The Chess Golf solver against the published problems (`book-problems.txt`, parsed from
//! the file), against plain breadth-first search on seeded random deals, and on limits and
//! impossible positions. King steps follow the designer's program (`no-borrowed-move`),
//! as the published pars do, unless a test says otherwise.

use agents::golf::{
    bfs, bfs_layers, enabling_candidates, has_capture, lower_bound, owed_total, solve, Outcome,
    SolveLimits,
};
use engine::variants::golf::{random_problem, GolfMove, GolfParams, GolfPosition, KingStep};
use rand::Rng;
use rand_pcg::Pcg64;

const BOOK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/data/golf/book-problems.txt"
);

struct Problem {
    name: String,
    pos: GolfPosition,
    optimal: u32,
    solution: Vec<GolfMove>,
    others: Vec<Vec<GolfMove>>,
    layers: Vec<usize>,
}

fn moves(s: &str) -> Vec<GolfMove> {
    s.split_whitespace()
        .map(|m| GolfMove::parse(m).unwrap_or_else(|| panic!("bad move {m:?}")))
        .collect()
}

fn load() -> Vec<Problem> {
    let text = std::fs::read_to_string(BOOK).expect("book-problems.txt is readable");
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut name = String::new();
        let mut board = Vec::new();
        let mut chosen = None;
        let mut optimal = None;
        let mut solution = Vec::new();
        let mut others = Vec::new();
        let mut layers = Vec::new();
        let mut lines = block.lines();
        while let Some(line) = lines.next() {
            if let Some(n) = line.strip_prefix("# name:") {
                name = n.trim().to_string();
                continue;
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (key, value) = line.split_once(':').expect("key: value");
            let value = value.trim();
            match key {
                "board" => {
                    for _ in 0..8 {
                        board.push(lines.next().expect("8 rows").to_string());
                    }
                }
                "chosen" => chosen = Some(value.to_string()),
                "optimal" => optimal = Some(value.parse().expect("optimal is a number")),
                "solution" => solution = moves(value),
                "other_solution" => others.push(moves(value)),
                "layers" => {
                    layers = value
                        .split_whitespace()
                        .map(|n| n.parse().unwrap())
                        .collect()
                }
                _ => panic!("unknown key {key:?} in {name}"),
            }
        }
        if board.is_empty() {
            continue;
        }
        let text = format!("{}\nchosen: {}", board.join("\n"), chosen.expect("chosen"));
        let pos = GolfPosition::parse_text(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push(Problem {
            name,
            pos,
            optimal: optimal.expect("optimal"),
            solution,
            others,
            layers,
        });
    }
    out
}

fn designer() -> GolfParams {
    GolfParams {
        king_step: KingStep::NoBorrowedMove,
        ..GolfParams::default()
    }
}

#[test]
fn book_problems_at_their_proven_par() {
    let problems = load();
    let params = designer();
    let mut n = 0;
    for p in problems
        .iter()
        .filter(|p| p.name.starts_with("book problem"))
    {
        let r = solve(&p.pos, &params, &SolveLimits::default());
        assert_eq!(r.outcome, Outcome::Par(p.optimal), "{}", p.name);
        assert_eq!(r.moves.len() as u32, p.optimal, "{}", p.name);
        // Replayed by the rules: each move legal, only the last one solves.
        p.pos
            .verify_solution(&r.moves, &params)
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        n += 1;
    }
    assert_eq!(n, 3, "the three book problems");
}

#[test]
fn every_block_of_the_problem_file() {
    let problems = load();
    assert!(problems.len() >= 6);
    let params = designer();
    for p in &problems {
        let r = solve(
            &p.pos,
            &params,
            &SolveLimits {
                count_solutions: p.optimal <= 3,
                ..SolveLimits::default()
            },
        );
        assert_eq!(r.outcome, Outcome::Par(p.optimal), "{}", p.name);
        p.pos.verify_solution(&r.moves, &params).unwrap();
        // The published solutions are valid; the first is optimal, the others no shorter.
        p.pos
            .verify_solution(&p.solution, &params)
            .unwrap_or_else(|e| panic!("{}: published solution: {e}", p.name));
        assert_eq!(p.solution.len() as u32, p.optimal, "{}", p.name);
        for o in &p.others {
            p.pos
                .verify_solution(o, &params)
                .unwrap_or_else(|e| panic!("{}: other solution: {e}", p.name));
            assert!(o.len() as u32 >= p.optimal);
        }
        // Breadth-first layer sizes agree as far as they are cheap to generate.
        let mut budget = 0;
        let upto = p
            .layers
            .iter()
            .take_while(|&&l| {
                budget += l;
                budget <= 400_000
            })
            .count();
        let got = bfs_layers(&p.pos, &params, budget.max(1) + 1);
        assert_eq!(got[..upto], p.layers[..upto], "{}: layers", p.name);
        if let Some(c) = r.optimal_solutions {
            assert_eq!(
                c,
                brute_force_count(&p.pos, &params, p.optimal),
                "{}",
                p.name
            );
            let distinct: std::collections::BTreeSet<&Vec<GolfMove>> = std::iter::once(&p.solution)
                .chain(&p.others)
                .filter(|o| o.len() == p.solution.len())
                .collect();
            assert!(c as usize >= distinct.len(), "{}: count {c}", p.name);
        }
    }
}

/// Number of move sequences of exactly `n` moves whose only solved state is the last.
fn brute_force_count(pos: &GolfPosition, params: &GolfParams, n: u32) -> u64 {
    if n == 0 {
        return 0;
    }
    let mut total = 0;
    for mv in pos.legal_moves(params) {
        let c = pos.try_apply(mv).unwrap();
        if c.is_solved() {
            total += (n == 1) as u64;
        } else {
            total += brute_force_count(&c, params, n - 1);
        }
    }
    total
}

fn agree_with_bfs(seed: u64, deals: usize, cards: usize, cap: usize) -> usize {
    let mut rng = Pcg64::new(0x601f, seed as u128);
    let mut compared = 0;
    for i in 0..deals {
        // Alternate the king-step rule and the set-up order.
        let params = if i % 2 == 0 {
            GolfParams::designer()
        } else {
            GolfParams::default()
        };
        let pos = random_problem(&mut rng, &params, cards);
        let reference = bfs(&pos, &params, cap);
        let r = solve(&pos, &params, &SolveLimits::default());
        if !reference.complete {
            continue;
        }
        compared += 1;
        match reference.par {
            Some(par) => {
                assert_eq!(r.outcome, Outcome::Par(par), "deal {i}: {}", pos.to_fen());
                pos.verify_solution(&r.moves, &params).unwrap();
                // The bound never overestimates along an optimal line.
                let mut s = pos;
                for (k, &mv) in r.moves.iter().enumerate() {
                    assert!(
                        lower_bound(&s, &params) <= par - k as u32,
                        "deal {i} step {k}"
                    );
                    s = s.play(mv, &params).unwrap();
                }
            }
            None => assert_eq!(r.outcome, Outcome::Impossible, "deal {i}"),
        }
    }
    compared
}

#[test]
fn solver_agrees_with_bfs_on_random_two_card_deals() {
    let compared = agree_with_bfs(2, 300, 2, 3_000_000);
    assert!(compared >= 290, "only {compared} deals compared");
}

#[test]
fn solver_agrees_with_bfs_on_random_three_card_deals() {
    let compared = agree_with_bfs(3, 40, 3, 1_000_000);
    assert!(compared >= 30, "only {compared} deals compared");
}

/// Random positions along random walks (2 and 3 cards, both rules): the lower bound never
/// exceeds the breadth-first distance.
#[test]
fn lower_bound_is_admissible_on_random_states() {
    let mut rng = Pcg64::new(0xadd, 7);
    let mut checked = 0;
    for i in 0..400 {
        let params = if i % 2 == 0 {
            GolfParams::designer()
        } else {
            GolfParams::default()
        };
        let cards = if i % 3 == 0 { 3 } else { 2 };
        let mut pos = random_problem(&mut rng, &params, cards);
        let steps = rng.gen_range(0..6);
        for _ in 0..steps {
            let moves = pos.legal_moves(&params);
            if moves.is_empty() {
                break;
            }
            let next = pos.try_apply(moves[rng.gen_range(0..moves.len())]).unwrap();
            if next.is_solved() {
                break;
            }
            pos = next;
        }
        let reference = bfs(&pos, &params, 200_000);
        if !reference.complete {
            continue;
        }
        let lb = lower_bound(&pos, &params);
        if let Some(par) = reference.par {
            assert!(lb <= par, "{}: bound {lb} > par {par}", pos.to_fen());
        }
        checked += 1;
    }
    assert!(checked >= 300, "only {checked} checked");
}

/// Whether `pos` can be solved within `n` moves (plain enumeration).
fn solvable_within(pos: &GolfPosition, params: &GolfParams, n: u32) -> bool {
    if pos.is_solved() {
        return true;
    }
    n > 0
        && pos
            .legal_moves(params)
            .into_iter()
            .any(|mv| solvable_within(&pos.try_apply(mv).unwrap(), params, n - 1))
}

/// The two-move part of the bound, on many random one-capture positions: whenever it
/// claims 3 or more, no solution of at most 2 moves exists (checked by enumeration).
#[test]
fn bound_of_three_never_hides_a_two_move_solution() {
    let mut rng = Pcg64::new(0xb0, 17);
    let mut claims = 0;
    for i in 0..20000 {
        let params = if i % 2 == 0 {
            GolfParams::designer()
        } else {
            GolfParams::default()
        };
        let cards = if i % 5 == 0 { 3 } else { 2 };
        let mut pos = random_problem(&mut rng, &params, cards);
        for _ in 0..rng.gen_range(0..12) {
            let moves = pos.legal_moves(&params);
            if moves.is_empty() {
                break;
            }
            let next = pos.try_apply(moves[rng.gen_range(0..moves.len())]).unwrap();
            if next.is_solved() {
                break;
            }
            pos = next;
        }
        if owed_total(&pos) != 2 {
            continue; // one capture missing only (cheap to enumerate)
        }
        let lb = lower_bound(&pos, &params);
        if lb >= 3 {
            claims += 1;
            assert!(
                !solvable_within(&pos, &params, 2),
                "{}: bound {lb} but solvable in 2",
                pos.to_fen()
            );
        } else if lb == 2 {
            assert!(!solvable_within(&pos, &params, 1), "{}", pos.to_fen());
        }
    }
    assert!(claims > 2000, "only {claims} positions with a bound of 3");
}

/// When no capture is legal and the next move must make one available, the solver only
/// tries "relevant" moves; every other move must leave a position without a legal capture.
#[test]
fn enabling_filter_skips_only_useless_moves() {
    let mut rng = Pcg64::new(0xf117, 3);
    let mut skipped = 0;
    let mut positions = 0;
    for i in 0..4000 {
        let params = if i % 2 == 0 {
            GolfParams::designer()
        } else {
            GolfParams::default()
        };
        let cards = if i % 4 == 0 { 3 } else { 2 };
        let mut pos = random_problem(&mut rng, &params, cards);
        for _ in 0..rng.gen_range(0..8) {
            let moves = pos.legal_moves(&params);
            if moves.is_empty() {
                break;
            }
            let next = pos.try_apply(moves[rng.gen_range(0..moves.len())]).unwrap();
            if next.is_solved() {
                break;
            }
            pos = next;
        }
        if has_capture(&pos, params.king_step) {
            continue; // the solver filters only when no capture is legal
        }
        positions += 1;
        let kept = enabling_candidates(&pos, &params);
        for mv in pos.legal_moves(&params) {
            if kept.contains(&mv) {
                continue;
            }
            skipped += 1;
            let child = pos.try_apply(mv).unwrap();
            assert!(
                !has_capture(&child, params.king_step),
                "{}: skipped {mv} makes a capture available",
                pos.to_fen()
            );
            // has_capture agrees with the full move list.
            let occ = child.occupied();
            assert!(!child
                .legal_moves(&params)
                .iter()
                .any(|m| occ.contains(m.to)));
        }
    }
    assert!(positions > 2000, "only {positions} positions");
    assert!(skipped > 20_000, "the filter skipped only {skipped} moves");
}

#[test]
fn a_limit_gives_par_above_not_a_wrong_answer() {
    let problems = load();
    let p = problems
        .iter()
        .find(|p| p.name == "book problem 3")
        .unwrap();
    for nodes in [1u64, 100, 10_000] {
        let r = solve(
            &p.pos,
            &designer(),
            &SolveLimits {
                max_nodes: Some(nodes),
                ..SolveLimits::default()
            },
        );
        match r.outcome {
            Outcome::ParAbove(n) => assert!(n < p.optimal, "{nodes}: par > {n}"),
            other => panic!("{nodes} nodes: {other:?}"),
        }
        assert!(r.moves.is_empty());
    }
    let r = solve(
        &p.pos,
        &designer(),
        &SolveLimits {
            max_time: Some(std::time::Duration::ZERO),
            ..SolveLimits::default()
        },
    );
    assert!(matches!(r.outcome, Outcome::ParAbove(n) if n < p.optimal));
}

#[test]
fn impossible_positions_are_reported_impossible() {
    // Two lone white knights, one chosen to take the other: a knight can borrow the knight
    // move only from the other knight next to it, which a knight jump never reaches, and
    // king steps need the two apart (no pair) or, with the designer's rule, every knight
    // move blocked (never on this board). The reachable space is finite and is exhausted.
    let knights = GolfPosition::parse_text(
        "........\n........\n........\n........\n........\n........\n........\nNN......\nchosen: NN",
    )
    .unwrap();
    for params in [GolfParams::default(), designer()] {
        let r = solve(&knights, &params, &SolveLimits::default());
        assert_eq!(r.outcome, Outcome::Impossible, "{:?}", params.king_step);
        assert!(r.moves.is_empty());
        assert_eq!(bfs(&knights, &params, 1_000_000).par, None);
    }
    // A chosen kind absent from the board: nobody can ever capture.
    let absent = GolfPosition::parse_text(
        "........\n........\n........\n........\n........\n........\n........\nQR......\nchosen: Qq",
    )
    .unwrap();
    let r = solve(&absent, &designer(), &SolveLimits::default());
    assert_eq!(r.outcome, Outcome::Impossible);
}

#[test]
fn solved_position_has_par_zero() {
    let p = GolfPosition::parse_text(
        "........\n........\n........\n........\n........\n........\n........\nQR......\nchosen: Q",
    )
    .unwrap();
    let r = solve(&p, &designer(), &SolveLimits::default());
    assert_eq!(r.outcome, Outcome::Par(0));
    assert!(r.moves.is_empty());
}

/// Timing of the book problems (`cargo test --release ... -- --ignored --nocapture`).
#[test]
#[ignore]
fn timing_book_problems() {
    for p in load().iter().filter(|p| p.name.starts_with("book")) {
        let t = std::time::Instant::now();
        let r = solve(&p.pos, &designer(), &SolveLimits::default());
        eprintln!(
            "{}: {:?} {} states {:?}",
            p.name,
            r.outcome,
            r.states,
            t.elapsed()
        );
    }
}

/// Depth-limited search with a table of (state, depth searched): the plainest exact
/// reference, independent of the solver's bounds and filters.
fn reference_par(pos: &GolfPosition, params: &GolfParams, max_depth: u32) -> Option<u32> {
    fn dls(
        pos: &GolfPosition,
        params: &GolfParams,
        d: u32,
        seen: &mut std::collections::HashMap<u128, u32>,
    ) -> bool {
        if pos.is_solved() {
            return true;
        }
        if d == 0 || owed_total(pos) - 1 > d {
            return false;
        }
        match seen.get(&pos.key()) {
            Some(&r) if r >= d => return false,
            _ => {}
        }
        seen.insert(pos.key(), d);
        pos.legal_moves(params)
            .into_iter()
            .any(|mv| dls(&pos.try_apply(mv).unwrap(), params, d - 1, seen))
    }
    (0..=max_depth).find(|&d| dls(pos, params, d, &mut Default::default()))
}

/// Heavier cross-check (run with `--release -- --ignored`): 3-card deals and positions
/// along random walks against the plain depth-limited reference.
#[test]
#[ignore]
fn solver_agrees_with_reference_on_three_card_deals() {
    let mut rng = Pcg64::new(0x3c, 5);
    let mut compared = 0;
    for i in 0..600 {
        let params = if i % 2 == 0 {
            GolfParams::designer()
        } else {
            GolfParams::default()
        };
        let mut pos = random_problem(&mut rng, &params, 3);
        for _ in 0..rng.gen_range(0..3) {
            let moves = pos.legal_moves(&params);
            if moves.is_empty() {
                break;
            }
            let next = pos.try_apply(moves[rng.gen_range(0..moves.len())]).unwrap();
            if next.is_solved() {
                break;
            }
            pos = next;
        }
        let r = solve(&pos, &params, &SolveLimits::default());
        let Outcome::Par(par) = r.outcome else {
            continue;
        };
        if par > 6 {
            continue;
        }
        assert_eq!(
            reference_par(&pos, &params, par),
            Some(par),
            "{}",
            pos.to_fen()
        );
        compared += 1;
    }
    eprintln!("compared {compared}");
    assert!(compared >= 500);
}

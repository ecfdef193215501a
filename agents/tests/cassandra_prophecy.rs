//! Issue 67: in open Cassandra self-play of `alphabeta` (depths 1 to 3, `noise=10`) Black
//! fulfils about twice as many prophecies as White. It is the player, not the rules
//! (results/cassandra/asymmetry/README.md has the measurements); these tests pin down how.
//!
//! - A prophecy falls due four decisions after it is announced (the opponent's turn, the
//!   prophet's, the opponent's again), so a searcher without `eval.hint` scores every
//!   square alike at depths 1 and 2, and with no noise the tie goes to the first action
//!   generated, `@-`: no prophecy at all
//!   (`without_the_hint_every_prophecy_square_scores_alike`).
//! - With `noise` the tied squares differ by their noise alone, and a square searched
//!   later must score strictly higher to replace an earlier one, so squares early in the
//!   generation order (a1, b1, ..., h8) win: ranks 1 and 2 far more often than ranks 7
//!   and 8. Those hold White's pawns and pieces, which are Black's targets: from positions
//!   and their colour mirrors, Black's prophecy stands on a target as it is announced
//!   more than twice as often as White's
//!   (`noisy_ties_favour_the_first_squares_so_black_aims_more_often`).
//! - With `eval.hint=1` the hint scores a prophecy aimed at a target, the prophet aims,
//!   and both colours aim alike (`with_the_hint_both_colours_aim_alike`).
//!
//! Positions: random plies from the start (seeded), then a random move by White in the
//! position and the mirrored move by Black in its colour mirror, each set up with
//! `Cassandra::from_opening` (no prophecy pending, both sides on the pawn rung), so the
//! prophet's decision is the same decision for both colours but for the board's
//! orientation.

use agents::alphabeta::{AlphaBeta, AlphaBetaConfig};
use agents::registry::build;
use agents::Agent;
use engine::game::{Game, Turn};
use engine::variants::cassandra::{Cassandra, CassandraAction, CassandraParams};
use engine::{Board, Color, Piece, Role, Square};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// `s` with upper and lower case swapped (White's pieces for Black's).
fn swap_case(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// The colour mirror of a FEN: ranks reversed, colours swapped, the other side to move.
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let placement: Vec<String> = f[0].split('/').rev().map(swap_case).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let swapped = swap_case(f[2]);
    let castling: String = "KQkq".chars().filter(|&c| swapped.contains(c)).collect();
    let castling = if castling.is_empty() {
        "-".to_string()
    } else {
        castling
    };
    let ep = match f[3] {
        "-" => "-".to_string(),
        e => format!("{}{}", &e[..1], 9 - e[1..].parse::<u32>().unwrap()),
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        placement.join("/"),
        f[4],
        f[5]
    )
}

/// A UCI move with its ranks mirrored (`e2e4` -> `e7e5`).
fn mirror_uci(uci: &str) -> String {
    uci.chars()
        .enumerate()
        .map(|(i, c)| {
            if i == 1 || i == 3 {
                char::from(b'9' - (c as u8 - b'0'))
            } else {
                c
            }
        })
        .collect()
}

/// Pairs of prophecy decisions: White's in a position and Black's in its colour mirror,
/// after the same (mirrored) move.
fn mirrored_decisions(count: usize, seed: u64) -> Vec<(Cassandra, Cassandra)> {
    let params = CassandraParams::default();
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = Board::startpos();
        let plies = 2 * rng.gen_range(0..8);
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make(moves[rng.gen_range(0..moves.len())]);
        }
        let moves = board.legal_moves();
        if board.turn() != Color::White || moves.is_empty() {
            continue;
        }
        let m = board.uci(moves[rng.gen_range(0..moves.len())]);
        let fen = board.fen();
        let mut white = Cassandra::from_opening(&params, &fen).unwrap();
        let mut black = Cassandra::from_opening(&params, &mirror_fen(&fen)).unwrap();
        let a = white.parse_action(&m).unwrap();
        white.apply(a);
        let a = black.parse_action(&mirror_uci(&m)).unwrap();
        black.apply(a);
        // A move that ends the game, or that leaves a prophecy to no one, is no sample.
        if white.turn() == Turn::Seat(0) && black.turn() == Turn::Seat(1) {
            out.push((white, black));
        }
    }
    out
}

/// Whether `prophet`'s prophecy on `square` stands on an enemy piece of its target type.
fn aimed(g: &Cassandra, prophet: Color, square: Square) -> bool {
    g.board_ref().piece_at(square) == Some(Piece::new(prophet.other(), g.target(prophet)))
}

#[test]
fn mirrored_decisions_are_mirrors() {
    for (white, black) in mirrored_decisions(20, 1) {
        assert_eq!(white.target(Color::White), Role::Pawn);
        assert_eq!(black.target(Color::Black), Role::Pawn);
        for s in Square::all() {
            let w = white.board_ref().piece_at(s);
            let b = black.board_ref().piece_at(s.flip_rank());
            assert_eq!(
                w.map(|p| (p.color.other(), p.role)),
                b.map(|p| (p.color, p.role)),
                "{} against {}",
                white.board_ref().fen(),
                black.board_ref().fen()
            );
        }
    }
}

#[test]
fn without_the_hint_every_prophecy_square_scores_alike() {
    for (white, black) in mirrored_decisions(12, 2) {
        for (g, seat) in [(&white, 0), (&black, 1)] {
            for depth in 1..=2 {
                let mut ab = AlphaBeta::<Cassandra>::new(AlphaBetaConfig {
                    depth,
                    ..Default::default()
                });
                let scores = ab.root_scores(g, None);
                assert_eq!(scores.len(), 65, "@- and 64 squares");
                assert!(
                    scores.iter().all(|&(_, s)| s == scores[0].1),
                    "depth {depth}, {}: {:?}",
                    g.observation(seat),
                    scores
                        .iter()
                        .map(|&(a, s)| (g.action_notation(a), s))
                        .collect::<Vec<_>>()
                );
            }
            // The tie goes to the first action generated: no prophecy.
            let mut agent: Box<dyn Agent<Cassandra>> = build("alphabeta:depth=2").unwrap();
            let a = agent.act(g, seat, &mut Pcg64::seed_from_u64(3));
            assert_eq!(
                a,
                CassandraAction::Prophesy(None),
                "{}",
                g.observation(seat)
            );
        }
    }
}

/// Per colour: prophecies made, how many stood on a target, how many fell on ranks 1-2
/// and on ranks 7-8, over `decisions` decided by `spec` with `seeds` seeds each.
fn tally(spec: &str, decisions: &[(Cassandra, Cassandra)], seeds: u64) -> [[u32; 4]; 2] {
    let mut t = [[0u32; 4]; 2];
    let mut agent: Box<dyn Agent<Cassandra>> = build(spec).unwrap();
    for (i, (white, black)) in decisions.iter().enumerate() {
        for (g, prophet) in [(white, Color::White), (black, Color::Black)] {
            for seed in 0..seeds {
                let mut rng = Pcg64::seed_from_u64(1000 * i as u64 + seed);
                let CassandraAction::Prophesy(Some(s)) = agent.act(g, prophet.index(), &mut rng)
                else {
                    continue;
                };
                let row = &mut t[prophet.index()];
                row[0] += 1;
                row[1] += aimed(g, prophet, s) as u32;
                row[2] += (s.rank() <= 1) as u32;
                row[3] += (s.rank() >= 6) as u32;
            }
        }
    }
    t
}

#[test]
fn noisy_ties_favour_the_first_squares_so_black_aims_more_often() {
    let decisions = mirrored_decisions(60, 4);
    for (spec, depth) in [
        ("alphabeta:depth=1,noise=10", 1),
        ("alphabeta:depth=2,noise=10", 2),
    ] {
        let [w, b] = tally(spec, &decisions, 8);
        let what = format!("{spec}: white {w:?}, black {b:?} (made, aimed, ranks 1-2, ranks 7-8)");
        for side in [w, b] {
            assert!(side[0] >= 400, "prophecies are made: {what}");
            assert!(side[2] > side[3], "ranks 1-2 win ties: {what}");
        }
        assert!(b[1] > w[1], "Black aims more often: {what}");
        // Single decisions of a fresh searcher; in games (kept tables) depth 2 shows it too,
        // 0.113 against 0.060 of the prophecies aimed (results/cassandra/balance).
        if depth == 1 {
            assert!(
                2 * b[1] > 3 * w[1],
                "Black aims half as often again: {what}"
            );
        }
    }
}

#[test]
fn with_the_hint_both_colours_aim_alike() {
    let decisions = mirrored_decisions(60, 4);
    let [w, b] = tally("alphabeta:depth=1,noise=10,eval.hint=1", &decisions, 8);
    let what = format!("white {w:?}, black {b:?} (made, aimed, ranks 1-2, ranks 7-8)");
    eprintln!("{what}");
    for side in [w, b] {
        assert!(side[0] >= 400, "prophecies are made: {what}");
        assert!(10 * side[1] >= 9 * side[0], "nine in ten aimed: {what}");
    }
    assert!(
        (w[1] as i64 - b[1] as i64).abs() * 20 <= (w[1] + b[1]) as i64,
        "the colours aim alike: {what}"
    );
}

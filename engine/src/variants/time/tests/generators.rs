//! The generators against each other and against references: uniform sampling of the
//! listed actions, judged results across undo, the sighted and blind sets against the
//! listing generator and a slow reference, and the lean playout against the apply loop.

use super::*;

/// Draws `per_action` times the number of listed actions with `sample_legal_action` and
/// checks every draw is listed, every listed action is drawn, and a chi-square test of
/// the frequencies against the uniform distribution (a bound far in the tail: seeded, it
/// fails only if the draw is not uniform).
fn assert_uniform_draws(g: &TimeChess, seed: u64, per_action: usize) {
    use std::collections::HashMap;
    let Turn::Seat(seat) = g.turn() else {
        panic!("a seat must be to move")
    };
    let mut listed = Vec::new();
    g.legal_actions(seat, &mut listed);
    let n = listed.len();
    assert!(n > 0);
    let mut counts: HashMap<TimeAction, usize> = listed.iter().map(|&a| (a, 0)).collect();
    assert_eq!(counts.len(), n, "listed actions are distinct");
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed);
    let mut scratch = Vec::new();
    let draws = per_action * n;
    for _ in 0..draws {
        let a = g
            .sample_legal_action(seat, &mut rng, &mut scratch)
            .expect("a seat to move has an action");
        *counts.get_mut(&a).unwrap_or_else(|| {
            panic!("drew {a:?}, not a listed action at {}", g.board_ref().fen())
        }) += 1;
    }
    let expected = per_action as f64;
    let chi2: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let df = (n - 1).max(1) as f64;
    assert!(
        counts.values().all(|&c| c > 0),
        "some listed action never drawn at {}",
        g.board_ref().fen()
    );
    assert!(
        chi2 < df + 6.0 * (2.0 * df).sqrt(),
        "chi-square {chi2:.1} with {df} degrees of freedom at {}",
        g.board_ref().fen()
    );
}

#[test]
fn sampled_actions_are_uniform_over_the_listed_set() {
    // Sighted start (Dawn), and the first blind turn (Evening) after 1...e5 2.d4.
    let mut g = TimeChess::startpos(400);
    assert_uniform_draws(&g, 1, 300);
    play(&mut g, "e7e5");
    play(&mut g, "d2d4");
    assert_eq!(g.phase(), Phase::Evening);
    assert_uniform_draws(&g, 2, 300);
    // Promotions (sighted with a capture-promotion and a pinned piece, then blind).
    let fen = "1n2k3/P1P5/8/8/8/2b5/8/4K2R w K - 0 1";
    assert_uniform_draws(&at(fen, Phase::Dusk), 3, 200);
    assert_uniform_draws(&at(fen, Phase::Morning), 4, 200);
    // Castling both ways and en passant, sighted; castling blind with an enemy piece
    // on the path (offered blind, refused sighted).
    let fen = "r3k2r/8/8/3pP3/8/8/8/R3K1nR w KQkq d6 0 1";
    assert_uniform_draws(&at(fen, Phase::Dusk), 5, 200);
    assert_uniform_draws(&at(fen, Phase::Morning), 6, 200);
    // Check (evasions only) and an enemy king its own blind move left attacked (moves
    // onto it are not legal).
    assert_uniform_draws(&at("4k3/8/8/8/8/8/3q4/R3K3 w - - 0 1", Phase::Dusk), 7, 300);
    assert_uniform_draws(&at("4k3/8/8/8/8/8/8/R3K2R b - - 0 1", Phase::Dawn), 8, 300);
    assert_uniform_draws(&at("4k3/8/8/8/4R3/8/8/4K3 w - - 0 1", Phase::Dusk), 9, 300);
}

#[test]
fn a_blind_mover_without_tries_samples_pass() {
    // `rule_blind_mover_without_moves_passes`'s position: the only action is `pass`.
    let g = at("RBQKQBQR/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1", Phase::Morning);
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(1);
    let a = g.sample_legal_action(0, &mut rng, &mut Vec::new());
    assert_eq!(a, Some(TimeAction::Pass));
    // Not the mover's seat, or a finished game: nothing to draw.
    assert_eq!(g.sample_legal_action(1, &mut rng, &mut Vec::new()), None);
}

#[test]
fn judged_results_survive_undo_and_match_a_fresh_judgement() {
    // Random game with undo at every ply: the result `undo` restores equals the one a
    // game rebuilt from the same moves judges.
    let mut g = TimeChess::startpos(120);
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(11);
    let mut scratch = Vec::new();
    let mut played = Vec::new();
    while let Turn::Seat(s) = g.turn() {
        let a = g.sample_legal_action(s, &mut rng, &mut scratch).unwrap();
        let before = g.result();
        g.apply(a);
        let after = g.result();
        g.undo();
        assert_eq!(g.result(), before);
        g.apply(a);
        assert_eq!(g.result(), after);
        played.push(a);
    }
    let mut h = TimeChess::startpos(120);
    for &a in &played {
        h.apply(a);
    }
    assert_eq!(h.result(), g.result());
    assert!(g.result().is_some());
}

#[test]
fn sighted_sets_match_the_listing_generator() {
    // Seeded differential test of the sampler's sighted generator (king targets tested
    // only when drawn) against the listing one (the orthodox legal generator minus moves
    // onto the enemy king): on every position of random games, blind turns included (the
    // sighted generator must also hold where a blind move left either king attacked),
    // the legal moves the sets stand for are exactly the listed ones and "some legal
    // move exists" agrees.
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(2026);
    let mut scratch = Vec::new();
    let (mut positions, mut in_check, mut only_king) = (0, 0, 0);
    for game in 0..300 {
        // Every third game from a position where both sides can castle either way soon.
        let mut g = if game % 3 == 1 {
            at(
                "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
                Phase::Dawn,
            )
        } else {
            TimeChess::startpos(400)
        };
        while let Turn::Seat(s) = g.turn() {
            let b = g.board_ref().clone();
            let mut listed = MoveList::new();
            TimeChess::sighted_moves(&b, &mut listed);
            let mut want: Vec<Move> = listed.iter().copied().collect();
            let mut sets = playout::Batches::new(Bitboard::EMPTY);
            playout::sighted_sets(&b, &mut sets);
            let mut got = sets.moves(&b);
            want.sort_by_key(|m| m.code());
            got.sort_by_key(|m| m.code());
            assert_eq!(got, want, "sets and list differ at {}", b.fen());
            // Where only king moves are left the judgement must test them all.
            let king = b.king(b.turn());
            only_king +=
                usize::from(!want.is_empty() && want.iter().all(|m| Some(m.from()) == king));
            assert_eq!(sets.any_legal(&b), !want.is_empty(), "at {}", b.fen());
            assert_eq!(
                sets.moves(&b).len(),
                want.len(),
                "after any_legal at {}",
                b.fen()
            );
            positions += 1;
            in_check += usize::from(b.in_check());
            let a = g.sample_legal_action(s, &mut rng, &mut scratch).unwrap();
            g.apply(a);
        }
    }
    assert!(positions > 30_000, "{positions} positions");
    assert!(in_check > 500, "{in_check} positions in check");
    assert!(only_king > 50, "{only_king} positions with king moves only");
}

/// The blind-try generator as first written (piece by piece from the board's squares,
/// pawns one by one): the reference `blind_sets` is checked against.
fn reference_blind_tries(b: &Board) -> Vec<Move> {
    use crate::attacks;
    let us = b.turn();
    let own = b.by_color(us);
    let last = Bitboard::relative_rank(us, 7);
    let mut out = Vec::new();
    let mut add = |from: Square, targets: Bitboard, promote: bool| {
        for to in targets {
            if promote {
                for r in Role::PROMOTIONS {
                    out.push(Move::new(from, to, MoveKind::Promotion(r)));
                }
            } else {
                out.push(Move::normal(from, to));
            }
        }
    };
    for sq in own {
        let role = b.piece_at(sq).expect("own piece").role;
        if role != Role::Pawn {
            add(sq, attacks::attacks(role, us, sq, own) - own, false);
            continue;
        }
        let one = Bitboard::from_square(sq).forward(us) - own;
        let two = one.forward(us) & (Bitboard::relative_rank(us, 3) - own);
        let diag = attacks::pawn_attacks(us, sq) - own;
        let targets = one | two | diag;
        add(sq, targets, (targets & last).any());
    }
    if let Some(king) = b.king(us) {
        let back = Bitboard::relative_rank(us, 0);
        if back.contains(king) {
            for rook in b.castling_rights() & back & b.pieces(us, Role::Rook) {
                if (castle_path(us, king, rook) & own).is_empty() {
                    out.push(Move::new(king, rook, MoveKind::Castle));
                }
            }
        }
    }
    out
}

#[test]
fn blind_sets_match_the_reference_generator() {
    // Seeded differential test of the set-wise blind-try generator against the
    // piece-by-piece one it replaced, for both sides on every position of random games
    // (promotions, castling rights and crowded back ranks included), listed and drawn.
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(2027);
    let mut scratch = Vec::new();
    let mut positions = 0;
    let mut promotions = 0;
    for game in 0..200 {
        let mut g = if game % 2 == 1 {
            at("r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1", Phase::Dawn)
        } else {
            TimeChess::startpos(400)
        };
        while let Turn::Seat(s) = g.turn() {
            for side in [Color::White, Color::Black] {
                let mut b = g.board_ref().clone();
                if b.turn() != side {
                    b.make_null();
                }
                let mut want = reference_blind_tries(&b);
                let mut listed = MoveList::new();
                playout::blind_sets(&b, &mut listed);
                let mut got: Vec<Move> = listed.iter().copied().collect();
                let mut sets = playout::Batches::new(Bitboard::EMPTY);
                playout::blind_sets(&b, &mut sets);
                let mut drawn = sets.moves(&b);
                want.sort_by_key(|m| m.code());
                got.sort_by_key(|m| m.code());
                drawn.sort_by_key(|m| m.code());
                assert_eq!(got, want, "listed tries differ at {}", b.fen());
                assert_eq!(drawn, want, "drawn tries differ at {}", b.fen());
                promotions += usize::from(want.iter().any(|m| m.promotion().is_some()));
                positions += 1;
            }
            let a = g.sample_legal_action(s, &mut rng, &mut scratch).unwrap();
            g.apply(a);
        }
    }
    assert!(positions > 20_000, "{positions} positions");
    assert!(promotions > 1_000, "{promotions} positions with promotions");
}

/// The playout loop `Game::random_playout` stands in for: `sample_legal_action` then
/// `apply` to the end, then `undo` of every ply.
fn apply_loop_playout(g: &mut TimeChess, rng: &mut rand_pcg::Pcg64) -> (Returns, u32) {
    let mut scratch = Vec::new();
    let mut plies = 0;
    while let Turn::Seat(s) = g.turn() {
        let a = g.sample_legal_action(s, rng, &mut scratch).unwrap();
        g.apply(a);
        plies += 1;
    }
    let r = g.returns();
    for _ in 0..plies {
        g.undo();
    }
    (r, plies)
}

/// What a playout must leave as it found: everything a seat or the search can read.
fn snapshot(
    g: &TimeChess,
) -> (
    u64,
    usize,
    [String; 2],
    [u64; 2],
    Option<GameResult>,
    String,
) {
    (
        g.state_key(),
        g.history_len(),
        [g.observation(0), g.observation(1)],
        [g.information_key(0), g.information_key(1)],
        g.result(),
        g.board_ref().fen(),
    )
}

#[test]
fn lean_playout_plays_the_games_of_the_apply_loop() {
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2028);
    let mut starts = Vec::new();
    // Random positions of whole games (long cap) and of short-capped ones, some with the
    // sets fresh from `apply` and some stale after an `undo`; endgames where mates and
    // stalemates end the playouts.
    for i in 0..60 {
        let cap = if i % 3 == 0 { 40 } else { 400 };
        let mut g = TimeChess::startpos(cap);
        let depth = rng.gen_range(0..120);
        let mut scratch = Vec::new();
        for _ in 0..depth {
            let Turn::Seat(s) = g.turn() else { break };
            let a = g.sample_legal_action(s, &mut rng, &mut scratch).unwrap();
            g.apply(a);
        }
        if i % 2 == 1 && g.history_len() > 0 {
            g.undo();
        }
        starts.push(g);
    }
    for (fen, phase) in [
        ("6k1/8/6K1/8/8/8/8/7R w - - 0 1", Phase::Dusk),
        ("7k/8/8/8/8/8/1Q6/K7 w - - 0 1", Phase::Morning),
        ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", Phase::Evening),
    ] {
        starts.push(at(fen, phase));
    }
    let (mut total, mut decisive) = (0u32, 0);
    for (i, g) in starts.iter().enumerate() {
        for seed in 0..4u64 {
            let seed = seed + 10 * i as u64;
            let mut reference = g.clone();
            let mut lean = g.clone();
            let before = snapshot(&lean);
            let (mut r1, mut r2) = (
                rand_pcg::Pcg64::seed_from_u64(seed),
                rand_pcg::Pcg64::seed_from_u64(seed),
            );
            let want = apply_loop_playout(&mut reference, &mut r1);
            let got = lean
                .random_playout(&mut r2, None)
                .expect("Time Chess plays it");
            assert_eq!(got, want, "start {i}, seed {seed}: returns and plies");
            assert_eq!(
                r1.gen::<u64>(),
                r2.gen::<u64>(),
                "start {i}, seed {seed}: stream"
            );
            assert_eq!(
                snapshot(&lean),
                before,
                "start {i}, seed {seed}: taken back"
            );
            // The next playout from the restored state is the apply loop's too.
            let again = lean.random_playout(&mut r2, None).unwrap();
            assert_eq!(again, apply_loop_playout(&mut reference, &mut r1));
            total += got.1;
            decisive += usize::from(got.0[0] != got.0[1]);
        }
    }
    // The comparison covered long games, decided ones and the declined cutoff.
    assert!(total > 10_000, "{total} plies");
    assert!(decisive > 5, "{decisive} decided playouts");
    assert!(starts[0]
        .clone()
        .random_playout(&mut rng, Some(10))
        .is_none());
}

//! The plain references written from RULES.md (reach, attacks, legality, candidates)
//! against the bitboard code, over seeded random play.

use super::*;

fn offset(s: Square, df: i8, dr: i8) -> Option<Square> {
    let f = s.file() as i8 + df;
    let r = s.rank() as i8 + dr;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| Square::from_coords(f as u8, r as u8))
}

const KING_DIRS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// A plain reference for one piece's reach, written from RULES.md without the
/// bitboard code: explicit ray walks for the regular move, then every path of king
/// steps with its checkers counted along the way (carriers taken once each).
fn reference_reach(b: &Board, stacks: &[u8; 64], sq: Square) -> Vec<Square> {
    use std::collections::HashSet;
    let piece = b.piece_at(sq).unwrap();
    let by = piece.color;
    let enemy = |t: Square| b.piece_at(t).is_some_and(|p| p.color != by);
    let own = |t: Square| t != sq && b.piece_at(t).is_some_and(|p| p.color == by);
    let mut reached: HashSet<Square> = HashSet::new();
    // (landing, square of the piece it captures)
    let mut landings: Vec<(Square, Option<Square>)> = Vec::new();
    let mut attack = |t: Square, landings: &mut Vec<(Square, Option<Square>)>| {
        reached.insert(t);
        if !own(t) {
            landings.push((t, enemy(t).then_some(t)));
        }
    };
    let (dirs, slide): (&[(i8, i8)], bool) = match piece.role {
        Role::Knight => (
            &[
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ],
            false,
        ),
        Role::King => (&KING_DIRS, false),
        Role::Bishop => (&[(1, 1), (-1, 1), (-1, -1), (1, -1)], true),
        Role::Rook => (&[(1, 0), (0, 1), (-1, 0), (0, -1)], true),
        Role::Queen => (&KING_DIRS, true),
        Role::Pawn => (&[], false),
    };
    for &(df, dr) in dirs {
        let mut at = sq;
        while let Some(t) = offset(at, df, dr) {
            attack(t, &mut landings);
            if !slide || b.piece_at(t).is_some() {
                break;
            }
            at = t;
        }
    }
    if piece.role == Role::Pawn {
        let f = if by == Color::White { 1 } else { -1 };
        for df in [-1, 1] {
            let Some(t) = offset(sq, df, f) else { continue };
            reached.insert(t);
            if enemy(t) {
                landings.push((t, Some(t)));
            } else if b.ep_square() == Some(t) && b.turn() == by {
                landings.push((t, Some(Square::from_coords(t.file(), sq.rank()))));
            }
        }
        // Pushes are landings only: a push takes nothing.
        if let Some(t) = offset(sq, 0, f).filter(|&t| b.piece_at(t).is_none()) {
            landings.push((t, None));
            let home = if by == Color::White { 1 } else { 6 };
            if sq.rank() == home {
                if let Some(t2) = offset(t, 0, f).filter(|&t2| b.piece_at(t2).is_none()) {
                    landings.push((t2, None));
                }
            }
        }
    }
    let mut seen = HashSet::new();
    let mut todo: Vec<(Square, i32, Vec<Square>)> = Vec::new();
    for (t, captured) in landings {
        let mut left = stacks[sq.index()] as i32;
        let mut taken = Vec::new();
        if let Some(c) = captured.filter(|c| stacks[c.index()] > 0) {
            left += stacks[c.index()] as i32;
            taken.push(c);
        }
        todo.push((t, left, taken));
    }
    while let Some((at, left, taken)) = todo.pop() {
        if left == 0 || !seen.insert((at, left, taken.clone())) {
            continue;
        }
        for &(df, dr) in &KING_DIRS {
            let Some(t) = offset(at, df, dr) else {
                continue;
            };
            reached.insert(t);
            if own(t) {
                continue;
            }
            let mut taken2 = taken.clone();
            let mut left2 = left - 1;
            if enemy(t) && stacks[t.index()] > 0 && !taken.contains(&t) {
                left2 += stacks[t.index()] as i32;
                taken2.push(t);
                taken2.sort();
            }
            todo.push((t, left2, taken2));
        }
    }
    reached.into_iter().collect()
}

/// The legal actions as `candidates_into` and its judge give them, with the enemy
/// reaches shared between candidates or each candidate judged afresh.
fn listed(g: &Adrenaline, shared: bool) -> Vec<AdrenalineAction> {
    let mut candidates = Vec::new();
    let judge = g.candidates_into(&mut candidates, shared);
    candidates.retain(|&a| judge.is_legal(a));
    candidates
}

fn reference_attacks(g: &Adrenaline, by: Color) -> Bitboard {
    g.board
        .by_color(by)
        .flat_map(|sq| reference_reach(&g.board, &g.stacks, sq))
        .collect()
}

fn reference_king_safe(g: &Adrenaline, us: Color) -> bool {
    !reference_attacks(g, us.other()).contains(g.board.king(us).unwrap())
}

#[test]
fn attacks_and_legality_match_a_plain_reference_in_random_play() {
    use rand::{Rng, SeedableRng};
    let params = AdrenalineParams {
        ply_cap: 240,
        ..Default::default()
    };
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2026);
    let mut acts = Vec::new();
    let mut states = 0;
    let mut with_stacks = 0;
    for _ in 0..12 {
        let mut g = Adrenaline::new(&params);
        while let Turn::Seat(seat) = g.turn() {
            states += 1;
            let pos = g.pos();
            with_stacks += pos.stacked.any() as usize;
            for c in [Color::White, Color::Black] {
                let reference = reference_attacks(&g, c);
                for t in Bitboard::FULL {
                    assert_eq!(
                        pos.attacked(t, c),
                        reference.contains(t),
                        "{t} attacked by {c:?} in {}",
                        g.observation(0)
                    );
                }
            }
            let us = g.actor();
            match g.phase {
                Phase::Regular => {
                    // Adrenaline moves are orthodox moves that leave the king out
                    // of every reach (castling: no checkers, no attacked square).
                    let them = reference_attacks(&g, us.other());
                    let expected: Vec<Move> = g
                        .board
                        .legal_moves()
                        .iter()
                        .copied()
                        .filter(|&mv| {
                            let mut h = g.clone();
                            h.apply(AdrenalineAction::Move(mv));
                            if !reference_king_safe(&h, us) {
                                return false;
                            }
                            if !mv.is_castle() {
                                return true;
                            }
                            let (kd, _) = Board::castle_targets(us, mv.from(), mv.to());
                            g.stacks[mv.from().index()] == 0
                                && g.stacks[mv.to().index()] == 0
                                && !(between(mv.from(), kd).with(kd).with(mv.from()) & them).any()
                        })
                        .collect();
                    let mut got: Vec<Move> = listed(&g, true)
                        .into_iter()
                        .filter_map(|a| match a {
                            AdrenalineAction::Move(m) => Some(m),
                            _ => None,
                        })
                        .collect();
                    got.sort_by_key(|m| g.action_notation(AdrenalineAction::Move(*m)));
                    let mut expected = expected;
                    expected.sort_by_key(|m| g.action_notation(AdrenalineAction::Move(*m)));
                    assert_eq!(got, expected, "{}", g.observation(0));
                }
                Phase::Steps(from) => {
                    let mut expected: Vec<Square> = (attacks::king_attacks(from)
                        - g.board.by_color(us))
                    .filter(|&to| {
                        let mut h = g.clone();
                        h.apply(AdrenalineAction::Step(to, Some(Role::Queen)));
                        reference_king_safe(&h, us)
                    })
                    .collect();
                    let mut got: Vec<Square> = listed(&g, true)
                        .iter()
                        .filter_map(|a| match a {
                            AdrenalineAction::Step(to, None | Some(Role::Queen)) => Some(*to),
                            _ => None,
                        })
                        .collect();
                    got.sort();
                    expected.sort();
                    assert_eq!(got, expected, "{}", g.observation(0));
                }
                Phase::Place => {
                    let expected: Vec<Square> = g
                        .board
                        .by_color(us.other())
                        .filter(|&sq| {
                            let mut h = g.clone();
                            h.apply(AdrenalineAction::Place(sq));
                            reference_king_safe(&h, us)
                        })
                        .collect();
                    let got: Vec<Square> = g.safe_placements(us).collect();
                    assert_eq!(got, expected, "{}", g.observation(0));
                }
            }
            g.legal_actions(seat, &mut acts);
            g.apply(acts[rng.gen_range(0..acts.len())]);
        }
    }
    assert!(states > 1000, "{states} states checked");
    assert!(with_stacks > 500, "{with_stacks} states with checkers");
}

/// The reaches worked out once per position (`Reaches`) against judging every
/// candidate afresh: per-square reach sets against `reaches`, and the regular moves,
/// steps and placements against the plain per-candidate tests, over seeded random
/// games (more of them, and longer, than the reference test can afford).
#[test]
fn shared_reaches_match_judging_each_candidate_afresh() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(1919);
    let mut acts = Vec::new();
    let (mut regular, mut stepping, mut shared) = (0, 0, 0);
    for _ in 0..60 {
        let mut g = Adrenaline::new(&AdrenalineParams::default());
        while let Turn::Seat(seat) = g.turn() {
            let pos = g.pos();
            for c in [Color::White, Color::Black] {
                for sq in pos.by_color[c.index()] {
                    let (reach, read) = pos.reach_set(sq, c);
                    assert!((reach - read).is_empty());
                    for t in Bitboard::FULL {
                        assert_eq!(
                            reach.contains(t),
                            pos.reaches(sq, c, t),
                            "{sq} reaching {t} in {}",
                            g.observation(0)
                        );
                    }
                }
            }
            match g.phase {
                Phase::Regular => regular += 1,
                Phase::Steps(_) => stepping += 1,
                Phase::Place => {}
            }
            shared += g.candidates_into(&mut Vec::new(), true).reaches.is_some() as usize;
            assert_eq!(listed(&g, true), listed(&g, false), "{}", g.observation(0));
            g.legal_actions(seat, &mut acts);
            g.apply(acts[rng.gen_range(0..acts.len())]);
        }
    }
    assert!(regular > 10_000, "{regular} regular positions");
    assert!(stepping > 1_000, "{stepping} step positions");
    assert!(shared > 5_000, "{shared} positions with shared reaches");
}

/// `Pos::attacked` prunes which pieces it asks (`step_bound` on the carriers a plain
/// piece could take, the distance prune in `reaches`); asking every piece's full
/// reach ([`Pos::reach_set`], no target, no pruning) must give the same answer on
/// every square of thousands of random-play positions.
#[test]
fn pruned_attack_test_matches_every_full_reach_in_random_play() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(4242);
    let mut acts = Vec::new();
    let (mut positions, mut attacked_by_steps) = (0, 0);
    for _ in 0..40 {
        let mut g = Adrenaline::new(&AdrenalineParams::default());
        while let Turn::Seat(seat) = g.turn() {
            let pos = g.pos();
            // Past `MAX_PRIZES` carriers the full reach tracks a different set.
            let most = (0..2)
                .map(|c| (pos.stacked & pos.by_color[c]).count() as usize)
                .max()
                .unwrap_or(0);
            if most < MAX_PRIZES {
                positions += 1;
                for c in [Color::White, Color::Black] {
                    let mut full = Bitboard::EMPTY;
                    for sq in pos.by_color[c.index()] {
                        full |= pos.reach_set(sq, c).0;
                    }
                    let occ = pos.occupied();
                    for t in Bitboard::FULL {
                        let got = pos.attacked(t, c);
                        assert_eq!(got, full.contains(t), "{t} by {c:?}: {}", g.observation(0));
                        attacked_by_steps +=
                            (got && pos.orthodox_attackers(t, c, occ).is_empty()) as usize;
                    }
                }
            }
            g.legal_actions(seat, &mut acts);
            g.apply(acts[rng.gen_range(0..acts.len())]);
        }
    }
    assert!(positions > 5_000, "{positions} positions");
    assert!(
        attacked_by_steps > 10_000,
        "{attacked_by_steps} squares reached by steps only"
    );
}

/// After `turn` has judged the candidates in order up to the first legal one, a draw
/// skips the illegal ones before it and takes that one without judging it again:
/// still only legal actions, each as often as the others.
#[test]
fn draws_after_turn_skip_the_judged_prefix_and_stay_uniform() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(77);
    let (mut list, mut scratch) = (Vec::new(), Vec::new());
    let (mut skipping, mut tallied) = (0, 0);
    for _ in 0..60 {
        let mut g = Adrenaline::new(&AdrenalineParams::default());
        while let Turn::Seat(seat) = g.turn() {
            g.legal_actions(seat, &mut list);
            let mut fresh = g.clone();
            fresh.refresh();
            assert_eq!(fresh.turn(), Turn::Seat(seat));
            if let Some(&first) = fresh.status.first_legal.get() {
                let mut candidates = Vec::new();
                fresh.candidates_into(&mut candidates, false);
                let i = first.expect("a seat to act has a legal action");
                assert!(candidates[..i].iter().all(|a| !list.contains(a)));
                assert!(list.contains(&candidates[i]));
                if i > 0 {
                    skipping += 1;
                    if skipping % 10 == 1 && list.len() > 1 {
                        tallied += 1;
                        assert_draws_uniform(&fresh, seat, &list, &mut rng, &g);
                    } else {
                        let a = fresh.sample_legal_action(seat, &mut rng, &mut scratch);
                        assert!(list.contains(&a.unwrap()));
                    }
                }
            }
            g.apply(list[rng.gen_range(0..list.len())]);
        }
    }
    assert!(skipping > 200, "{skipping} positions with a skipped prefix");
    assert!(tallied >= 10, "{tallied} positions tallied");
}

/// The candidates written out plainly from the rules: the pseudo-legal moves as the
/// shared generator makes them, then the castlings; `stop` then the steps by square;
/// every enemy piece for a placement unless the placer's king is attacked.
fn reference_candidates(g: &Adrenaline) -> Vec<AdrenalineAction> {
    let b = &g.board;
    let us = g.actor();
    let mut out = Vec::new();
    match g.phase {
        Phase::Regular => {
            let mut moves = crate::moves::MoveList::new();
            let occ = b.occupied();
            crate::variants::pseudo_moves(b, &mut moves, Bitboard::FULL, |_| occ, |_, _| true);
            out.extend(moves.iter().map(|&m| AdrenalineAction::Move(m)));
            let king = b.king(us).unwrap();
            for rook in b.castling_rights() & b.pieces(us, Role::Rook) {
                let (kd, rd) = Board::castle_targets(us, king, rook);
                let path = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                    .without(king)
                    .without(rook);
                if g.stack(king) == 0
                    && g.stack(rook) == 0
                    && Bitboard::relative_rank(us, 0).contains(king)
                    && (path & occ).is_empty()
                {
                    out.push(AdrenalineAction::Move(Move::new(
                        king,
                        rook,
                        MoveKind::Castle,
                    )));
                }
            }
        }
        Phase::Steps(from) => {
            out.push(AdrenalineAction::Stop);
            let pawn = b.piece_at(from).unwrap().role == Role::Pawn;
            for to in attacks::king_attacks(from) - b.by_color(us) {
                if pawn && Bitboard::relative_rank(us, 7).contains(to) {
                    for r in Role::PROMOTIONS {
                        out.push(AdrenalineAction::Step(to, Some(r)));
                    }
                } else {
                    out.push(AdrenalineAction::Step(to, None));
                }
            }
        }
        Phase::Place => {
            if !g.king_attacked(us) {
                out.extend(b.by_color(us.other()).map(AdrenalineAction::Place));
            }
        }
    }
    out
}

/// Plays `games` seeded random games (game `i` from `start(i)`), showing `visit`
/// every position where a seat is to act.
fn random_play(
    seed: u64,
    games: usize,
    start: impl Fn(usize) -> Adrenaline,
    mut visit: impl FnMut(&Adrenaline),
) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut list = Vec::new();
    for game in 0..games {
        let mut g = start(game);
        while let Turn::Seat(seat) = g.turn() {
            visit(&g);
            g.legal_actions(seat, &mut list);
            g.apply(list[rng.gen_range(0..list.len())]);
        }
    }
}

#[test]
fn candidates_list_the_actions_in_the_order_the_game_lists_them() {
    let openings = [
        None,
        Some("4k3/8/P7/8/8/8/8/4K3 w - - 0 1 | a6=1"),
        Some("4k3/8/8/8/8/8/p7/4K3 b - - 0 1 | a2=1"),
        Some("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
        Some("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 | d7=1"),
    ];
    let mut seen = std::collections::HashMap::new();
    let start = |game: usize| match openings[game % openings.len()] {
        None => Adrenaline::new(&AdrenalineParams::default()),
        Some(o) => pos(o),
    };
    random_play(808, 120, start, |g| {
        let (candidates, _) = g.candidates(false);
        let reference = reference_candidates(g);
        let written: Vec<_> = candidates.iter().collect();
        assert_eq!(written, reference, "{}", g.observation(0));
        assert_eq!(candidates.len(), reference.len());
        for (k, &a) in reference.iter().enumerate() {
            assert_eq!(
                candidates.get(k),
                a,
                "candidate {k} of {}",
                g.observation(0)
            );
            let kind = match a {
                AdrenalineAction::Move(m) => format!("{:?}", m.kind()),
                AdrenalineAction::Step(_, r) => format!("step {}", r.is_some()),
                other => format!("{other:?}").chars().take(4).collect(),
            };
            *seen.entry(kind).or_insert(0) += 1;
        }
        for skip in [0, 1, reference.len() / 2, reference.len()] {
            let mut written = Vec::new();
            candidates.write_from(skip, &mut written);
            assert_eq!(written, reference[skip.min(reference.len())..]);
        }
    });
    for kind in [
        "Castle",
        "EnPassant",
        "Promotion(Queen)",
        "step true",
        "Stop",
        "Plac",
    ] {
        assert!(seen.get(kind).is_some_and(|&n| n > 5), "{kind}: {seen:?}");
    }
}

#[test]
fn check_answers_refuse_only_moves_that_leave_the_king_attacked() {
    let (mut orthodox, mut by_reach, mut refused) = (0, 0, 0);
    let start = |_| Adrenaline::new(&AdrenalineParams::default());
    random_play(4242, 150, start, |g| {
        if g.phase == Phase::Regular {
            let (candidates, judge) = g.candidates(false);
            if let Some((king, answers)) = judge.check_answers() {
                let them = g.actor().other();
                assert!(judge.pos.attacked(king, them));
                if judge
                    .pos
                    .orthodox_attackers(king, them, judge.pos.occupied())
                    .any()
                {
                    orthodox += 1;
                } else {
                    by_reach += 1;
                    assert_eq!(
                        answers,
                        judge
                            .pos
                            .reach_set(judge.pos.attacker(king, them).unwrap(), them)
                            .1
                    );
                }
                let _ = judge.check.set(Some((king, answers)));
                for a in candidates.iter() {
                    let AdrenalineAction::Move(mv) = a else {
                        continue;
                    };
                    if judge.leaves_the_check(mv) {
                        refused += 1;
                        let after = judge.pos.after_move(mv, g.actor());
                        assert!(
                            after.attacked(king, them),
                            "{} refused in {}",
                            g.action_notation(a),
                            g.observation(0)
                        );
                    }
                }
            } else {
                // No check, or too many carriers to name the read squares.
                let us = g.actor();
                let carriers = (judge.pos.stacked & judge.pos.by_color[us.index()]).count();
                let king = g.board.king(us).unwrap();
                assert!(
                    carriers as usize + 1 > MAX_PRIZES || !judge.pos.attacked(king, us.other())
                );
            }
        }
    });
    assert!(
        orthodox > 100 && by_reach > 100 && refused > 2000,
        "{orthodox} {by_reach} {refused}"
    );
}

#[test]
fn moves_without_checkers_judged_on_the_board_match_the_made_position() {
    let (mut judged, mut illegal) = (0, 0);
    let start = |game: usize| {
        if game.is_multiple_of(3) {
            // Checks and pins come sooner on an open board.
            pos("r3k2r/p1p2p1p/8/3q4/3Q4/8/P1P2P1P/R3K2R w KQkq - 0 1")
        } else {
            Adrenaline::new(&AdrenalineParams::default())
        }
    };
    random_play(77, 300, start, |g| {
        if g.phase == Phase::Regular && g.pos().stacked.is_empty() {
            let (candidates, judge) = g.candidates(false);
            for a in candidates.iter() {
                let AdrenalineAction::Move(mv) = a else {
                    continue;
                };
                if mv.is_castle() {
                    continue;
                }
                let made = judge.king_safe_after(&judge.pos.after_move(mv, g.actor()));
                assert_eq!(
                    judge.king_safe_after_plain_move(mv),
                    made,
                    "{}",
                    g.observation(0)
                );
                judged += 1;
                illegal += !made as usize;
            }
        }
    });
    assert!(
        judged > 20_000 && illegal > 1000,
        "{judged} judged, {illegal} illegal"
    );
}

#[test]
fn first_draw_in_place_matches_drawing_from_a_copy() {
    use rand::{Rng, RngCore, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(5150);
    let (mut list, mut scratch) = (Vec::new(), Vec::new());
    let (mut judged, mut redrawn) = (0, 0);
    for _ in 0..40 {
        let mut g = Adrenaline::new(&AdrenalineParams::default());
        while let Turn::Seat(seat) = g.turn() {
            // The plain draw: every candidate after the judged prefix copied, then
            // drawn without replacement until a legal one comes up.
            let mut plain_rng = rng.clone();
            let mut candidates = Vec::new();
            let judge = g.candidates_into(&mut candidates, false);
            let start = g.status.first_legal.get().copied().flatten().unwrap_or(0);
            let mut copy = candidates[start..].to_vec();
            let mut plain = None;
            let mut draws = 0;
            while !copy.is_empty() {
                let i = plain_rng.gen_range(0..copy.len());
                draws += 1;
                if judge.is_legal(copy[i]) {
                    plain = Some(copy[i]);
                    break;
                }
                copy.swap_remove(i);
            }
            judged += 1;
            if draws > 1 {
                redrawn += 1;
            }
            let drawn = g.sample_legal_action(seat, &mut rng, &mut scratch);
            assert_eq!(drawn, plain, "{}", g.observation(0));
            assert_eq!(rng.next_u64(), plain_rng.next_u64());
            g.legal_actions(seat, &mut list);
            g.apply(list[rng.gen_range(0..list.len())]);
        }
    }
    assert!(judged > 2000, "{judged} draws");
    assert!(redrawn > 50, "{redrawn} draws past an illegal first one");
}

#[test]
fn features_add_checker_and_carrier_differences_to_material() {
    // White: stacks of 2 and 1 (three checkers, two carriers); Black: one stack of 4.
    let g = pos("4k3/p6p/8/8/8/8/P6P/4K3 w - - 0 1 | a2=2 h2=1 a7=4");
    let f = g.features();
    let get = |name: &str| f.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    assert_eq!(get("checkers"), Some(3.0 - 4.0));
    assert_eq!(get("carriers"), Some(2.0 - 1.0));
    assert_eq!(get(MATERIAL_FEATURES[0]), Some(0.0));
    let names: Vec<String> = Adrenaline::new(&AdrenalineParams::default())
        .features()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let feature_names: Vec<String> = f.into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, feature_names);
    assert_eq!(&names[names.len() - 2..], ["checkers", "carriers"]);
}

/// 300 draws per legal action from `fresh` (whose status never lists them) hit each
/// legal action 200 to 400 times (`g` names the position in the message).
fn assert_draws_uniform(
    fresh: &Adrenaline,
    seat: Seat,
    list: &[AdrenalineAction],
    rng: &mut rand_pcg::Pcg64,
    g: &Adrenaline,
) {
    let per = 300;
    let mut scratch = Vec::new();
    let mut hits = vec![0u32; list.len()];
    for _ in 0..per * list.len() {
        let a = fresh.sample_legal_action(seat, rng, &mut scratch).unwrap();
        hits[list.iter().position(|&b| b == a).unwrap()] += 1;
    }
    assert!(fresh.status.actions.get().is_none());
    for (a, &n) in list.iter().zip(&hits) {
        assert!(
            (200..=400).contains(&n),
            "{a:?} drawn {n} times in {per} x {}: {}",
            list.len(),
            g.observation(0)
        );
    }
}

/// `sample_legal_action` draws without listing: over seeded random games it returns
/// an action `legal_actions` lists (and `None` exactly where the list is empty), for
/// a fresh status, a listed one and a stale one; in positions where candidates get
/// rejected, thousands of draws hit every legal action about equally often.
#[test]
fn sampled_actions_are_listed_ones_drawn_uniformly() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(24);
    let (mut list, mut scratch) = (Vec::new(), Vec::new());
    let (mut checked, mut rejecting, mut tallied) = (0, 0, 0);
    for _ in 0..20 {
        let mut g = Adrenaline::new(&AdrenalineParams::default());
        loop {
            let mut fresh = g.clone();
            fresh.refresh();
            let mut stale = g.clone();
            stale.status.fresh = false;
            let seat = g.actor().index();
            g.legal_actions(seat, &mut list);
            for h in [&fresh, &stale, &g] {
                let a = h.sample_legal_action(seat, &mut rng, &mut scratch);
                match a {
                    Some(a) => assert!(list.contains(&a), "{a:?} in {}", g.observation(0)),
                    None => assert!(list.is_empty(), "{}", g.observation(0)),
                }
                assert_eq!(
                    h.sample_legal_action(1 - seat, &mut rng, &mut scratch),
                    None
                );
            }
            assert_eq!(fresh.has_actions(), !list.is_empty());
            checked += 1;
            let mut candidates = Vec::new();
            g.candidates_into(&mut candidates, false);
            if candidates.len() > list.len() && !list.is_empty() {
                rejecting += 1;
                if rejecting % 25 == 1 {
                    // Draws from a fresh status each time: the list is never made.
                    tallied += 1;
                    assert_draws_uniform(&fresh, seat, &list, &mut rng, &g);
                }
            }
            if g.turn() == Turn::Terminal {
                break;
            }
            g.apply(list[rng.gen_range(0..list.len())]);
        }
    }
    assert!(checked > 2000, "{checked} positions");
    assert!(tallied >= 5, "{tallied} positions tallied");
}

/// The cached status answers as a fresh computation does (see
/// `variants::testing::check_cached_status`).
#[test]
fn cached_status_matches_a_fresh_computation_in_random_play() {
    crate::variants::testing::check_cached_status(
        || Adrenaline::new(&AdrenalineParams::default()),
        |g| g.refresh(),
        |g| g.status.fresh = false,
    );
}

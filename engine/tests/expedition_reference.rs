//! A slow reference for Expedition Chess written from RULES.md ("Expedition Chess") and
//! the seed alone, compared with the engine at every decision and chance node of seeded
//! random and greedy games.
//!
//! The reference keeps its own mailbox position (`common/rules_track.rs`) and decides:
//! - the moves: every orthodox pattern move, kept unless it leaves the mover's king
//!   attacked by a *certain* attacker (a pawn, knight or king, or a bishop, rook or queen
//!   on an adjacent square); a move that takes the enemy king is always legal. A side with
//!   only its king left is bound by every attacker, distant sliders included. Castling is
//!   orthodox: not out of, through or into any attack;
//! - which moves are attempts: bishop, rook and queen moves of two squares or more;
//! - the dice: the distinct maxima of the seed's table row (typed here from the seed),
//!   with the summed probability of the 36 throws;
//! - after a cut-short roll of 2 or more (below the attempt's length), the distances
//!   offered: those leaving the king safe from certain attackers, or all if none is;
//! - the end: a captured king wins (`king-captured`); with no legal move, `checkmate` if
//!   a binding attacker attacks the king, else `stalemate`; bare material (K v K,
//!   K + minor v K), the 50-move rule, threefold repetition and the 400-ply cap draw.
//!
//! After every board move the engine's board must equal the reference's.

use crate::mailbox;
use crate::rules_track;

use engine::game::{Game, Turn};
use engine::variants::expedition::{Expedition, ExpeditionAction, ExpeditionParams};
use engine::{Color, Move, MoveKind, Role, Square};
use mailbox::{step, Mailbox};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rules_track::{attackers, distance, Track};

const PLY_CAP: u32 = 400;

/// The seed's table: attempted squares 2..7 by dice sum 2..12, the most squares allowed.
const SEED_TABLE: [[u8; 11]; 6] = [
    [1, 1, 2, 2, 2, 2, 2, 2, 2, 1, 1],
    [1, 2, 2, 3, 3, 3, 3, 3, 2, 2, 1],
    [1, 2, 3, 3, 4, 4, 4, 3, 3, 2, 1],
    [1, 2, 3, 4, 5, 5, 5, 4, 3, 2, 1],
    [1, 3, 4, 5, 5, 6, 6, 5, 4, 3, 2],
    [1, 3, 4, 5, 6, 7, 6, 6, 5, 4, 2],
];

/// A decision as a comparable value: (kind, move code or distance).
type Key = (u8, u16);

fn key_of(a: ExpeditionAction) -> Key {
    match a {
        ExpeditionAction::Move(m) => (0, m.code()),
        ExpeditionAction::Attempt(m) => (1, m.code()),
        ExpeditionAction::Roll(m) => (2, m as u16),
        ExpeditionAction::Distance(d) => (3, d as u16),
    }
}

fn is_slider(r: Role) -> bool {
    matches!(r, Role::Bishop | Role::Rook | Role::Queen)
}

/// Whether `c` has nothing but its king.
fn lone_king(mb: &Mailbox, c: Color) -> bool {
    mb.sq
        .iter()
        .flatten()
        .all(|p| p.color != c || p.role == Role::King)
}

/// Whether `c`'s king on `mb` is attacked by an attacker that binds it: a certain one,
/// or any at all for a lone king.
fn bound(mb: &Mailbox, c: Color) -> bool {
    let Some(k) = mb.king(c) else { return false };
    let lone = lone_king(mb, c);
    attackers(mb, k, c.other())
        .iter()
        .any(|&(s, p)| lone || !is_slider(p.role) || distance(s, k) == 1)
}

/// The move `mv` by the side to move is legal by its full-length result.
fn legal(t: &Track, mv: Move) -> bool {
    let takes_king = mv.kind() != MoveKind::Castle
        && t.mb
            .at(mv.to())
            .is_some_and(|p| p.role == Role::King && p.color != t.turn);
    takes_king || !bound(&t.mb.after(mv, t.turn), t.turn)
}

/// The turn's first decisions by the rules.
fn reference_start(t: &Track) -> Vec<Key> {
    let mut out = Vec::new();
    for m in t.mb.pseudo_moves(t.turn, t.usable_ep()) {
        if !legal(t, m) {
            continue;
        }
        let role = t.mb.at(m.from()).unwrap().role;
        let attempt = is_slider(role) && distance(m.from(), m.to()) >= 2;
        out.push((attempt as u8, m.code()));
    }
    for m in t.mb.castling_moves(t.turn, &t.rights, true) {
        out.push((0, m.code()));
    }
    out.sort_unstable();
    out
}

/// The square `d` steps from the attempt's origin towards its target.
fn along(attempt: Move, d: u8) -> Square {
    let (f, to) = (attempt.from(), attempt.to());
    let df = (to.file() as i8 - f.file() as i8).signum();
    let dr = (to.rank() as i8 - f.rank() as i8).signum();
    step(f, df * d as i8, dr * d as i8).unwrap()
}

/// The distances offered after the dice allowed `max` squares.
fn reference_distances(t: &Track, attempt: Move, max: u8) -> Vec<Key> {
    let all: Vec<u8> = (1..=max).collect();
    let safe: Vec<u8> = all
        .iter()
        .copied()
        .filter(|&d| {
            !bound(
                &t.mb
                    .after(Move::normal(attempt.from(), along(attempt, d)), t.turn),
                t.turn,
            )
        })
        .collect();
    let offered = if safe.is_empty() { all } else { safe };
    offered.into_iter().map(|d| (3, d as u16)).collect()
}

/// The dice's outcomes for an attempt of `n` squares, with probabilities.
fn reference_rolls(n: u8) -> Vec<(u8, f64)> {
    const WAYS: [u32; 11] = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
    let mut ways = [0u32; 8];
    for (c, &m) in SEED_TABLE[(n - 2) as usize].iter().enumerate() {
        ways[m as usize] += WAYS[c];
    }
    (1..=7)
        .filter(|&m| ways[m] > 0)
        .map(|m| (m as u8, ways[m] as f64 / 36.0))
        .collect()
}

/// The reasons the game must be over at a turn start (empty: it goes on).
fn reference_end(t: &Track, king_taken: bool) -> Vec<&'static str> {
    if king_taken {
        return vec!["king-captured"];
    }
    let mut r = Vec::new();
    if t.plies >= PLY_CAP {
        r.push("cap");
    }
    if t.bare_material() {
        r.push("insufficient-material");
    }
    if t.halfmoves >= 100 {
        r.push("fifty-moves");
    }
    if t.earlier_repeats() >= 2 {
        r.push("repetition");
    }
    if reference_start(t).is_empty() {
        r.push(if bound(&t.mb, t.turn) {
            "checkmate"
        } else {
            "stalemate"
        });
    }
    r
}

#[derive(Default, Debug)]
struct Seen {
    plies: u32,
    decisions: u32,
    distance_choices: u32,
    ends: Vec<&'static str>,
}

/// Plays one game from `fen` (None: the start), checking everything on the way.
/// `greedy` prefers taking the king, then captures, then moves that attack the king.
fn play_game(fen: Option<&str>, rng: &mut Pcg64Mcg, greedy: bool, seen: &mut Seen) {
    let params = ExpeditionParams::default();
    let mut g = match fen {
        Some(f) => Expedition::from_opening(&params, f).unwrap(),
        None => Expedition::new(&params),
    };
    let mut t = Track::new(g.board_ref());
    let mut king_taken = false;
    let mut pending: Option<(Move, Option<u8>)> = None;
    let mut acts = Vec::new();
    let mut outs = Vec::new();
    loop {
        let fen_now = g.board_ref().fen();
        if pending.is_none() {
            let expected = reference_end(&t, king_taken);
            if g.turn() == Turn::Terminal {
                let r = g.result().unwrap();
                assert!(
                    expected.contains(&r.reason),
                    "{fen_now}: engine ended with {} but the rules say {expected:?}",
                    r.reason
                );
                seen.ends.push(r.reason);
                seen.plies += t.plies;
                return;
            }
            assert!(
                expected.is_empty(),
                "{fen_now}: should be over: {expected:?}"
            );
        }
        let action = match g.turn() {
            Turn::Chance => {
                let (attempt, _) = pending.expect("a chance node only after an attempt");
                g.chance_outcomes(&mut outs);
                let reference = reference_rolls(distance(attempt.from(), attempt.to()));
                assert_eq!(outs.len(), reference.len(), "{fen_now}: {outs:?}");
                for (&(a, p), &(m, q)) in outs.iter().zip(&reference) {
                    assert_eq!(a, ExpeditionAction::Roll(m), "{fen_now}");
                    assert!((p - q).abs() < 1e-12, "{fen_now}: {a:?} {p} vs {q}");
                }
                // Uniform over the outcomes, to visit short rolls often.
                outs[rng.gen_range(0..outs.len())].0
            }
            Turn::Seat(s) => {
                assert_eq!(s, t.turn.index(), "{fen_now}");
                g.legal_actions(s, &mut acts);
                let mut ours: Vec<Key> = acts.iter().map(|&a| key_of(a)).collect();
                ours.sort_unstable();
                let reference = match pending {
                    None => reference_start(&t),
                    Some((attempt, Some(max))) => {
                        seen.distance_choices += 1;
                        reference_distances(&t, attempt, max)
                    }
                    Some((_, None)) => panic!("{fen_now}: a seat decides before the dice"),
                };
                if ours != reference {
                    let extra: Vec<_> = ours.iter().filter(|k| !reference.contains(k)).collect();
                    let missing: Vec<_> = reference.iter().filter(|k| !ours.contains(k)).collect();
                    panic!(
                        "{fen_now} (pending {pending:?}): decisions differ\n  engine only: \
                         {extra:?}\n  reference only: {missing:?}"
                    );
                }
                seen.decisions += 1;
                choose(&t, &acts, greedy, rng)
            }
            Turn::Terminal => panic!("{fen_now}: ended in the middle of an attempt"),
            other => panic!("{fen_now}: unexpected turn {other:?}"),
        };
        // The reference's own account of the action.
        let mut board_move = None;
        match (action, pending) {
            (ExpeditionAction::Move(m), None) => board_move = Some(m),
            (ExpeditionAction::Attempt(m), None) => pending = Some((m, None)),
            (ExpeditionAction::Roll(max), Some((attempt, None))) => {
                let n = distance(attempt.from(), attempt.to());
                if max >= n {
                    board_move = Some(attempt);
                } else if max == 1 {
                    board_move = Some(Move::normal(attempt.from(), along(attempt, 1)));
                } else {
                    pending = Some((attempt, Some(max)));
                }
            }
            (ExpeditionAction::Distance(d), Some((attempt, Some(_)))) => {
                board_move = Some(Move::normal(attempt.from(), along(attempt, d)))
            }
            (a, p) => panic!("{fen_now}: {a:?} with pending {p:?}"),
        }
        g.apply(action);
        if let Some(m) = board_move {
            pending = None;
            king_taken = t.play(m).is_some_and(|p| p.role == Role::King);
            assert_eq!(
                Mailbox::of(g.board_ref()),
                t.mb,
                "{fen_now}: boards differ after {action:?}"
            );
        }
    }
}

fn choose(
    t: &Track,
    acts: &[ExpeditionAction],
    greedy: bool,
    rng: &mut Pcg64Mcg,
) -> ExpeditionAction {
    let any = |rng: &mut Pcg64Mcg| acts[rng.gen_range(0..acts.len())];
    if !greedy || rng.gen_bool(0.2) {
        return any(rng);
    }
    let mv = |a: &ExpeditionAction| match *a {
        ExpeditionAction::Move(m) | ExpeditionAction::Attempt(m) => Some(m),
        _ => None,
    };
    let score = |a: &ExpeditionAction| -> u32 {
        let Some(m) = mv(a) else { return 0 };
        if m.kind() == MoveKind::Castle {
            return 0;
        }
        match t.mb.at(m.to()) {
            Some(p) if p.role == Role::King => 3,
            Some(_) => 2,
            None => {
                let after = t.mb.after(m, t.turn);
                after.in_check(t.turn.other()) as u32
            }
        }
    };
    let best = acts.iter().map(score).max().unwrap_or(0);
    let top: Vec<_> = acts.iter().copied().filter(|a| score(a) == best).collect();
    top[rng.gen_range(0..top.len())]
}

const FENS: &[&str] = &[
    // Kiwipete: castling next to distant attacks, en passant, pins by distant sliders.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Castling through a distant rook's attack is refused; walking into it is not.
    "r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1",
    // Lone kings against heavy pieces: orthodox check rules bind them.
    "8/8/8/4k3/8/8/8/R3K2Q b - - 0 1",
    "7k/8/5QK1/8/8/8/8/8 b - - 0 1",
    "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
    // Distant checks left standing (a gamble), both kings in range.
    "4k3/8/8/8/8/8/8/q3K2R w K - 0 1",
    // Two bishops on one colour play on; a bishop and the kings are drawn at once.
    "4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
    // Promotions both ways.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // En passant that answers a certain check.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
];

#[test]
fn expedition_matches_the_reference_in_random_games() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xe4_0001);
    let mut seen = Seen::default();
    while seen.plies < 3000 {
        play_game(None, &mut rng, false, &mut seen);
    }
    eprintln!("expedition random: {seen:?}");
    assert!(seen.distance_choices > 50);
}

#[test]
fn expedition_matches_the_reference_in_greedy_games_and_tricky_positions() {
    let mut rng = Pcg64Mcg::seed_from_u64(0xe4_0002);
    let mut seen = Seen::default();
    while seen.plies < 1500 {
        play_game(None, &mut rng, true, &mut seen);
    }
    for fen in FENS {
        for greedy in [false, true] {
            for _ in 0..3 {
                play_game(Some(fen), &mut rng, greedy, &mut seen);
            }
        }
    }
    eprintln!("expedition greedy and tricky: {seen:?}");
    for reason in ["king-captured", "checkmate", "insufficient-material"] {
        assert!(seen.ends.contains(&reason), "no game ended by {reason}");
    }
}

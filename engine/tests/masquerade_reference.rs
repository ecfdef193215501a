//! A slow reference for Masquerade Chess written from RULES.md ("Masquerade Chess") and
//! the seed alone, compared with the engine at every decision of seeded random and
//! greedy games (the referee's view: the true assignments are read to answer attempts).
//!
//! The reference keeps its own mailbox position (`common/rules_track.rs`) and decides:
//! - the actions: every orthodox non-capturing move (castling with no attack test: a king
//!   may castle out of or through attack), every pawn move (pawn captures, en passant and
//!   promotions always succeed), and an attempt (piece, target) for each non-pawn piece
//!   and each enemy piece that one of the five patterns (king step, queen/rook/bishop
//!   line with a clear path, knight jump) reaches; `pass` only when there is nothing else;
//! - the answer to each attempt from the assignment (the piece's pattern reaches the
//!   target or not); a failed attempt moves nothing and the turn passes;
//! - the end: capturing the king wins (`royal-capture`); no check, no stalemate, no
//!   insufficient-material draw; the 50-move rule, threefold repetition and the ply cap
//!   (400 play plies) draw.
//!
//! After every action the engine's board must equal the reference's.

use crate::mailbox;
use crate::rules_track;

use engine::game::{Game, Turn};
use engine::variants::masquerade::{Masquerade, MasqueradeAction, MasqueradeParams, Pattern};
use engine::{Move, MoveKind, Role, Square};
use mailbox::{step, Mailbox, BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rules_track::Track;

const PLY_CAP: u32 = 400;

/// An action as a comparable value: (kind, move code or squares).
type Key = (u8, u16, u16);

fn key_of(a: MasqueradeAction) -> Key {
    match a {
        MasqueradeAction::Move(m) => (0, m.code(), 0),
        MasqueradeAction::Attempt(f, t) => (1, f.index() as u16, t.index() as u16),
        MasqueradeAction::Pass => (2, 0, 0),
        MasqueradeAction::Assign(a) => (3, a.index() as u16, 0),
    }
}

/// Whether a line walk from `from` in the given directions reaches `to` with every
/// square before it empty.
fn line_reaches(mb: &Mailbox, from: Square, to: Square, dirs: &[(i8, i8)]) -> bool {
    for &(df, dr) in dirs {
        let mut cur = from;
        while let Some(n) = step(cur, df, dr) {
            if n == to {
                return true;
            }
            if mb.at(n).is_some() {
                break;
            }
            cur = n;
        }
    }
    false
}

/// Whether the capture pattern named by `letter` (K, Q, R, B, N) takes `from` to `to`.
fn pattern_reaches(mb: &Mailbox, letter: char, from: Square, to: Square) -> bool {
    let hop = |steps: &[(i8, i8)]| steps.iter().any(|&(f, r)| step(from, f, r) == Some(to));
    match letter {
        'K' => hop(&KING_STEPS),
        'N' => hop(&KNIGHT_STEPS),
        'R' => line_reaches(mb, from, to, &ROOK_DIRS),
        'B' => line_reaches(mb, from, to, &BISHOP_DIRS),
        'Q' => line_reaches(mb, from, to, &ROOK_DIRS) || line_reaches(mb, from, to, &BISHOP_DIRS),
        _ => unreachable!(),
    }
}

/// The legal actions by the rules, from the reference position alone.
fn reference_actions(t: &Track) -> Vec<Key> {
    let us = t.turn;
    let mb = &t.mb;
    let mut out = Vec::new();
    for m in mb.pseudo_moves(us, t.ep) {
        let pawn = mb.at(m.from()).is_some_and(|p| p.role == Role::Pawn);
        if pawn || mb.at(m.to()).is_none() {
            out.push((0, m.code(), 0));
        }
    }
    for m in mb.castling_moves(us, &t.rights, false) {
        out.push((0, m.code(), 0));
    }
    for from in Square::all() {
        let Some(p) = mb.at(from) else { continue };
        if p.color != us || p.role == Role::Pawn {
            continue;
        }
        for to in Square::all() {
            if mb.at(to).is_some_and(|q| q.color != us)
                && "KQRBN".chars().any(|l| pattern_reaches(mb, l, from, to))
            {
                out.push((1, from.index() as u16, to.index() as u16));
            }
        }
    }
    if out.is_empty() {
        out.push((2, 0, 0));
    }
    out.sort_unstable();
    out
}

fn pattern_letter(p: Pattern) -> char {
    match p {
        Pattern::King => 'K',
        Pattern::Queen => 'Q',
        Pattern::Rook => 'R',
        Pattern::Bishop => 'B',
        Pattern::Knight => 'N',
    }
}

/// The reasons the game must be over now (empty: it goes on).
fn reference_end(t: &Track, king_taken: bool) -> Vec<&'static str> {
    if king_taken {
        return vec!["royal-capture"];
    }
    let mut r = Vec::new();
    if t.plies >= PLY_CAP {
        r.push("cap");
    }
    if t.halfmoves >= 100 {
        r.push("fifty-moves");
    }
    if t.earlier_repeats() >= 2 {
        r.push("repetition");
    }
    r
}

/// Plays one game from `fen` (None: the start), checking every decision; returns the
/// plies played and how it ended (None: stopped at `max_plies`). `greedy` prefers king
/// captures, then attempts and pawn captures.
fn play_game(
    fen: Option<&str>,
    rng: &mut Pcg64Mcg,
    greedy: bool,
    max_plies: u32,
) -> (u32, Option<&'static str>) {
    let params = MasqueradeParams {
        assignment: "random".into(),
        ply_cap: PLY_CAP,
        ..Default::default()
    };
    let mut g = match fen {
        Some(f) => Masquerade::from_opening(&params, f).unwrap(),
        None => Masquerade::new(&params),
    };
    // The assignments are chance nodes first.
    let mut outs = Vec::new();
    while g.turn() == Turn::Chance {
        g.chance_outcomes(&mut outs);
        assert_eq!(outs.len(), 120, "one outcome per assignment");
        g.apply(outs[rng.gen_range(0..outs.len())].0);
    }
    let mut t = Track::new(g.board_ref());
    let mut king_taken = false;
    let mut acts = Vec::new();
    loop {
        let fen_now = g.board_ref().fen();
        let expected_end = reference_end(&t, king_taken);
        match g.turn() {
            Turn::Terminal => {
                let r = g.result().unwrap();
                assert!(
                    expected_end.contains(&r.reason),
                    "{fen_now}: engine ended with {} but the rules say {expected_end:?}",
                    r.reason
                );
                return (t.plies, Some(r.reason));
            }
            Turn::Seat(s) => {
                assert!(
                    expected_end.is_empty(),
                    "{fen_now}: the game should be over ({expected_end:?})"
                );
                assert_eq!(s, t.turn.index(), "{fen_now}");
                if t.plies >= max_plies {
                    return (t.plies, None);
                }
            }
            other => panic!("{fen_now}: unexpected turn {other:?}"),
        }
        g.legal_actions(t.turn.index(), &mut acts);
        let mut ours: Vec<Key> = acts.iter().map(|&a| key_of(a)).collect();
        ours.sort_unstable();
        let reference = reference_actions(&t);
        if ours != reference {
            let extra: Vec<_> = ours.iter().filter(|k| !reference.contains(k)).collect();
            let missing: Vec<_> = reference.iter().filter(|k| !ours.contains(k)).collect();
            panic!("{fen_now}: actions differ\n  engine only: {extra:?}\n  reference only: {missing:?}");
        }
        // Choose.
        let takes_king = |a: &MasqueradeAction| match *a {
            MasqueradeAction::Move(m) => t.mb.at(m.to()).is_some_and(|p| p.role == Role::King),
            MasqueradeAction::Attempt(_, to) => t.mb.at(to).is_some_and(|p| p.role == Role::King),
            _ => false,
        };
        let forceful = |a: &MasqueradeAction| match *a {
            MasqueradeAction::Move(m) => {
                t.mb.at(m.to()).is_some() || m.kind() == MoveKind::EnPassant
            }
            MasqueradeAction::Attempt(..) => true,
            _ => false,
        };
        let pick = |f: &dyn Fn(&MasqueradeAction) -> bool, rng: &mut Pcg64Mcg| {
            let v: Vec<_> = acts.iter().copied().filter(|a| f(a)).collect();
            (!v.is_empty()).then(|| v[rng.gen_range(0..v.len())])
        };
        let action = if greedy && rng.gen_bool(0.8) {
            pick(&takes_king, rng)
                .or_else(|| pick(&forceful, rng))
                .unwrap_or(acts[rng.gen_range(0..acts.len())])
        } else {
            acts[rng.gen_range(0..acts.len())]
        };
        // The reference's own account of what the action does.
        match action {
            MasqueradeAction::Move(m) => {
                king_taken = t.play(m).is_some_and(|p| p.role == Role::King);
            }
            MasqueradeAction::Attempt(from, to) => {
                let role = t.mb.at(from).unwrap().role;
                let pattern = g.given(t.turn).unwrap().pattern(role).unwrap();
                if pattern_reaches(&t.mb, pattern_letter(pattern), from, to) {
                    king_taken = t
                        .play(Move::normal(from, to))
                        .is_some_and(|p| p.role == Role::King);
                } else {
                    t.pass();
                }
            }
            MasqueradeAction::Pass => t.pass(),
            MasqueradeAction::Assign(_) => unreachable!(),
        }
        g.apply(action);
        assert_eq!(
            Mailbox::of(g.board_ref()),
            t.mb,
            "{fen_now}: boards differ after {action:?}"
        );
        assert_eq!(g.board_ref().turn(), t.turn);
    }
}

const FENS: &[&str] = &[
    // Castling out of and through attack; en passant at once.
    "r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Promotions both ways, touching kings, bare kings (no material draw here).
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/8/8/3kK3/8/8/8/8 w - - 0 1",
    "8/8/8/3k4/8/8/8/4K3 b - - 0 1",
    // Kiwipete.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Blocked pawns and nothing to attempt soon: passes.
    "7k/5K1p/7P/8/8/8/8/8 b - - 0 1",
];

#[test]
fn masquerade_matches_the_reference_in_random_games() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x3a5c_0001);
    let (mut plies, mut ends) = (0, Vec::new());
    while plies < 4000 {
        let (n, end) = play_game(None, &mut rng, false, PLY_CAP);
        plies += n;
        ends.extend(end);
    }
    eprintln!("masquerade random: {plies} plies, ends {ends:?}");
    assert!(ends.contains(&"royal-capture"));
}

#[test]
fn masquerade_matches_the_reference_in_greedy_games_and_tricky_positions() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x3a5c_0002);
    let (mut plies, mut ends) = (0, Vec::new());
    while plies < 1200 {
        let (n, end) = play_game(None, &mut rng, true, PLY_CAP);
        plies += n;
        ends.extend(end);
    }
    for fen in FENS {
        for greedy in [false, true] {
            for _ in 0..4 {
                let (n, end) = play_game(Some(fen), &mut rng, greedy, PLY_CAP);
                plies += n;
                ends.extend(end);
            }
        }
    }
    eprintln!("masquerade greedy and tricky: {plies} plies, ends {ends:?}");
    assert!(ends.contains(&"royal-capture"));
    assert!(
        ends.contains(&"repetition"),
        "a draw by repetition was checked"
    );
}

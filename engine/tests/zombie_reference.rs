//! A slow reference for Zombie Chess's legal lists, written from docs/RULES.md ("Zombie
//! Chess") alone on the shared mailbox board (`common/mailbox.rs`: ray walks and "is this
//! square attacked by any enemy piece, king included"), compared with the engine at every
//! decision of seeded random and greedy games.
//!
//! What the reference reads from the engine: the board's squares, the zombie marks, the
//! mover's burial grid (its own burials, which the reveal test needs), whether a burial
//! is due, the public record and the result. What it keeps itself, from the actions it
//! plays: the squares vacated this turn, the squares pieces landed on this turn (a zombie
//! moves once), whether the regular move is made, the castling rights, and the en
//! passant square (the last double step of the previous turn). It never calls the
//! engine's move generation, attack tables or legality tests.
//!
//! The rules it implements, as RULES.md states them:
//! - The mover makes one regular move with a non-zombie piece and may move each of its
//!   zombies once (not one that landed this turn), in any order; castling is a regular
//!   move (not out of check, not through an attacked square, judged on the board as it
//!   stands: "finish the move, then reveal"); no move captures a king.
//! - A piece may land on a square vacated earlier in the turn.
//! - Every move must leave the own king unattacked right after it, before any return.
//! - The reveal test: a move is refused if, with the mover's own burials returned (as
//!   the opponent's pieces; a pawn on its owner's last rank as a queen) on every square
//!   vacated so far this turn and empty after the move, the mover's king is attacked.
//! - `end` once the regular move is made or none is possible, and not while the king is
//!   in check; burials under the mover's own pieces where it has none yet.
//! - Mate and stalemate at a turn start (no move at all), the insufficient-material
//!   draw (K v K, K+minor v K) with an empty graveyard.
//! - At the end of a turn every vacated square is announced; one a piece landed on again
//!   keeps its burials (`Covered`), an empty one raises the mover's burial there first,
//!   else the opponent's.
//!
//! Sampled worlds (`sample_world`) are checked too: the grid drawn for the mover must
//! make every move of its turn so far pass the reveal test, and the world's legal list
//! must equal the reference's with that grid.

use crate::mailbox;

use engine::game::{Game, Turn};
use engine::variants::zombie::{BurialGrid, Event, Zombie, ZombieAction, ZombieParams};
use engine::{Bitboard, Color, Move, MoveKind, Piece, Role, Square};
use mailbox::Mailbox;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// The reference's own record of the turn in progress (and what carries to the next).
#[derive(Clone, Debug)]
struct TurnState {
    mover: Color,
    /// The board at the turn's start (to replay the turn for sampled worlds).
    start: Mailbox,
    moves: Vec<Move>,
    vacated: Vec<Square>,
    landed: Vec<Square>,
    regular_done: bool,
    /// En passant target of this turn: the last double step of the previous turn.
    ep: Option<Square>,
    /// The last double step of this turn (its middle square).
    double_step: Option<Square>,
}

impl TurnState {
    fn new(mover: Color, start: Mailbox, ep: Option<Square>) -> TurnState {
        TurnState {
            mover,
            start,
            moves: Vec::new(),
            vacated: Vec::new(),
            landed: Vec::new(),
            regular_done: false,
            ep,
            double_step: None,
        }
    }
}

/// Squares a move leaves and squares it lands on.
fn footprint(mv: Move, us: Color) -> (Vec<Square>, Vec<Square>) {
    match mv.kind() {
        MoveKind::Castle => {
            let (kd, rd) = mailbox::castle_dest(us, mv.from(), mv.to());
            let landed = vec![kd, rd];
            let left = [mv.from(), mv.to()]
                .into_iter()
                .filter(|s| !landed.contains(s))
                .collect();
            (left, landed)
        }
        _ => (vec![mv.from()], vec![mv.to()]),
    }
}

/// The last rank of `c`'s pawns.
fn last_rank(c: Color) -> u8 {
    if c == Color::White {
        7
    } else {
        0
    }
}

/// The piece a burial of `role` rising on `s` gives `owner`.
fn risen(owner: Color, role: Role, s: Square) -> Piece {
    if role == Role::Pawn && s.rank() == last_rank(owner) {
        Piece::new(owner, Role::Queen)
    } else {
        Piece::new(owner, role)
    }
}

/// The reveal test: `us`'s king on `after` once `us`'s burials (`grid`) on the `vacated`
/// squares that are empty have returned as the opponent's pieces.
fn reveal_attacked(after: &Mailbox, us: Color, grid: BurialGrid, vacated: &[Square]) -> bool {
    let mut b = after.clone();
    for &s in vacated {
        if after.at(s).is_none() {
            if let Some(role) = grid.get(s) {
                b.set(s, Some(risen(us.other(), role, s)));
            }
        }
    }
    b.in_check(us)
}

/// Whether `mv` by `us` from `m` obeys both king-safety rules, with `vacated` the squares
/// vacated earlier in the turn.
fn king_safe(m: &Mailbox, mv: Move, us: Color, grid: BurialGrid, vacated: &[Square]) -> bool {
    let after = m.after(mv, us);
    if after.in_check(us) {
        return false;
    }
    let mut vac = vacated.to_vec();
    vac.extend(footprint(mv, us).0);
    !reveal_attacked(&after, us, grid, &vac)
}

/// The reference's legal actions in the play phase, as notation (UCI, `end`), and
/// whether any move is among them.
fn play_list(
    g: &Zombie,
    st: &TurnState,
    rights: &[Square],
    grid: BurialGrid,
) -> (Vec<String>, bool) {
    let board = g.board().unwrap();
    let m = Mailbox::of(board);
    let us = st.mover;
    let them = us.other();
    let zombies = g.zombies();
    let their_king = m.king(them);
    let mut moves = Vec::new();
    for mv in m.pseudo_moves(us, st.ep) {
        let from = mv.from();
        let zombie = zombies.contains(from);
        if (zombie && st.landed.contains(&from)) || (!zombie && st.regular_done) {
            continue;
        }
        if Some(mv.to()) == their_king {
            continue;
        }
        if mv.kind() == MoveKind::EnPassant {
            let victim = Square::from_coords(mv.to().file(), from.rank());
            if m.at(victim) != Some(Piece::new(them, Role::Pawn)) {
                continue;
            }
        }
        if king_safe(&m, mv, us, grid, &st.vacated) {
            moves.push(mv);
        }
    }
    if !st.regular_done {
        let own: Vec<Square> = rights
            .iter()
            .copied()
            .filter(|r| !zombies.contains(*r))
            .collect();
        for mv in m.castling_moves(us, &own, true) {
            if king_safe(&m, mv, us, grid, &st.vacated) {
                moves.push(mv);
            }
        }
    }
    let regular_possible = moves.iter().any(|mv| !zombies.contains(mv.from()));
    let mut out: Vec<String> = moves
        .iter()
        .map(|&mv| g.action_notation(ZombieAction::Move(mv)))
        .collect();
    if (st.regular_done || !regular_possible) && !m.in_check(us) {
        out.push("end".into());
    }
    out.sort();
    (out, !moves.is_empty())
}

/// The reference's burial choices: own pieces' squares without an own burial.
fn bury_list(g: &Zombie, us: Color) -> Vec<String> {
    let board = g.board().unwrap();
    let mine = g.grid(us).occupied();
    let mut out: Vec<String> = Square::all()
        .filter(|&s| board.piece_at(s).is_some_and(|p| p.color == us) && !mine.contains(s))
        .map(|s| format!("bury:{s}"))
        .collect();
    out.sort();
    out
}

fn engine_list(g: &Zombie) -> Vec<String> {
    let mut v = Vec::new();
    if let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut v);
    }
    let mut out: Vec<String> = v.into_iter().map(|a| g.action_notation(a)).collect();
    out.sort();
    out
}

/// K v K or K+minor v K.
fn bare(m: &Mailbox) -> bool {
    let others: Vec<Role> =
        m.sq.iter()
            .flatten()
            .map(|p| p.role)
            .filter(|&r| r != Role::King)
            .collect();
    others.is_empty() || (others.len() == 1 && matches!(others[0], Role::Knight | Role::Bishop))
}

/// Counters of what the run compared.
#[derive(Default, Debug)]
struct Tally {
    decisions: usize,
    zombie_moves: usize,
    landings_on_vacated: usize,
    refused_by_reveal: usize,
    covered: usize,
    risen: usize,
    sampled: usize,
    turn_starts: usize,
}

/// Plays one game from `g`, comparing at every decision; `greedy` prefers captures and
/// checks.
fn play_game(mut g: Zombie, seed: u64, greedy: bool, max_actions: usize, tally: &mut Tally) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let board = g.board().unwrap();
    let mut rights: Vec<Square> = board.castling_rights().into_iter().collect();
    let mut st = TurnState::new(g.mover(), Mailbox::of(board), board.ep_square());
    let mut turn_start = true;
    for _ in 0..max_actions {
        let m = Mailbox::of(g.board().unwrap());
        let us = st.mover;
        if turn_start {
            turn_start = false;
            tally.turn_starts += 1;
            let (list, any_move) = play_list(&g, &st, &rights, g.grid(us));
            let graveyard_empty =
                g.grid(Color::White).is_empty() && g.grid(Color::Black).is_empty();
            match g.result().map(|r| r.reason) {
                Some("cap") => return,
                Some("checkmate") | Some("stalemate") => {
                    assert!(
                        !any_move,
                        "seed {seed}: over, but the reference has {list:?}"
                    );
                    assert_eq!(
                        g.result().unwrap().reason == "checkmate",
                        m.in_check(us),
                        "seed {seed}: mate or stalemate"
                    );
                    return;
                }
                Some(reason) => {
                    assert!(any_move, "seed {seed}: {reason} judged before no-moves");
                    assert_eq!(
                        reason == "insufficient-material",
                        graveyard_empty && bare(&m),
                        "seed {seed}: {reason}"
                    );
                    return;
                }
                None => {
                    assert!(any_move, "seed {seed}: no move, yet the game goes on");
                    assert!(!(graveyard_empty && bare(&m)), "seed {seed}: bare material");
                }
            }
        }
        let Turn::Seat(seat) = g.turn() else {
            panic!("seed {seed}: the game ended mid-turn");
        };
        let engine = engine_list(&g);
        let reference = if g.is_burying() {
            bury_list(&g, us)
        } else {
            play_list(&g, &st, &rights, g.grid(us)).0
        };
        assert_eq!(
            engine,
            reference,
            "seed {seed}: legal lists differ (engine, reference) in {}",
            g.observation(seat)
        );
        tally.decisions += 1;
        if !g.is_burying() && tally.decisions.is_multiple_of(5) {
            check_sampled_worlds(&g, &st, &rights, &mut rng, seed);
            tally.sampled += 1;
        }
        // Choose an action.
        let actions: Vec<ZombieAction> = {
            let mut v = Vec::new();
            g.legal_actions(seat, &mut v);
            v
        };
        let forcing: Vec<ZombieAction> = actions
            .iter()
            .copied()
            .filter(|a| match a {
                ZombieAction::Move(mv) => {
                    m.at(mv.to()).is_some_and(|p| p.color != us)
                        || mv.kind() == MoveKind::EnPassant
                        || (greedy && m.after(*mv, us).in_check(us.other()))
                }
                _ => false,
            })
            .collect();
        let pick = if !forcing.is_empty() && rng.gen_bool(if greedy { 0.9 } else { 0.4 }) {
            forcing[rng.gen_range(0..forcing.len())]
        } else {
            actions[rng.gen_range(0..actions.len())]
        };
        // Counters: how often the interesting rules were exercised.
        let grid = g.grid(us);
        for a in &actions {
            if let ZombieAction::Move(mv) = a {
                if st.vacated.contains(&mv.to()) {
                    tally.landings_on_vacated += 1;
                }
            }
        }
        if !g.is_burying() {
            for mv in m.pseudo_moves(us, st.ep) {
                let after = m.after(mv, us);
                let mut vac = st.vacated.clone();
                vac.push(mv.from());
                if !after.in_check(us) && reveal_attacked(&after, us, grid, &vac) {
                    tally.refused_by_reveal += 1;
                }
            }
        }
        let before_events = g.events().len();
        let grids_before = [g.grid(Color::White), g.grid(Color::Black)];
        let zombies_before = g.zombies();
        g.apply(pick);
        match pick {
            ZombieAction::Move(mv) => {
                let (left, landed) = footprint(mv, us);
                if zombies_before.contains(mv.from()) {
                    tally.zombie_moves += 1;
                } else {
                    st.regular_done = true;
                }
                st.vacated.extend(left);
                st.landed.extend(landed);
                st.moves.push(mv);
                let piece = m.at(mv.from()).unwrap();
                if piece.role == Role::Pawn && mv.from().rank().abs_diff(mv.to().rank()) == 2 {
                    st.double_step = Some(Square::from_coords(
                        mv.from().file(),
                        (mv.from().rank() + mv.to().rank()) / 2,
                    ));
                }
                // Castling rights go with a king or rook that moves or is taken.
                let back = if piece.color == Color::White { 0 } else { 7 };
                rights.retain(|&r| {
                    r != mv.from()
                        && r != mv.to()
                        && !(piece.role == Role::King && r.rank() == back)
                });
            }
            ZombieAction::End => {
                check_announcements(
                    &g,
                    &m,
                    &st,
                    before_events,
                    grids_before,
                    zombies_before,
                    seed,
                    tally,
                );
            }
            _ => {}
        }
        // A turn ends once its burials are done: the board passes to the other side
        // (the game can only end there).
        if g.mover() != st.mover {
            st = TurnState::new(g.mover(), Mailbox::of(g.board().unwrap()), st.double_step);
            turn_start = true;
        }
        if g.turn() == Turn::Terminal && !turn_start {
            panic!("seed {seed}: the game ended outside a turn start");
        }
    }
}

/// After `end`: every square vacated this turn is announced once; one a piece stands on
/// keeps its burials (`Covered`); an empty one raises the mover's burial first, else the
/// opponent's, as its owner's zombie.
#[allow(clippy::too_many_arguments)]
fn check_announcements(
    g: &Zombie,
    m: &Mailbox,
    st: &TurnState,
    before_events: usize,
    grids_before: [BurialGrid; 2],
    zombies_before: Bitboard,
    seed: u64,
    tally: &mut Tally,
) {
    let us = st.mover;
    let them = us.other();
    let mut expected: Vec<Event> = Vec::new();
    let mut vacated = st.vacated.clone();
    vacated.sort_by_key(|s| s.index());
    vacated.dedup();
    for &s in &vacated {
        // Unmoved zombies are destroyed first; none stands on a vacated square (a piece
        // there landed this turn).
        let occupied = m.at(s).is_some_and(|p| {
            !(p.color == us && zombies_before.contains(s) && !st.landed.contains(&s))
        });
        if occupied {
            expected.push(Event::Covered { by: us, sq: s });
            for c in [us, them] {
                assert_eq!(
                    g.grid(c).get(s),
                    grids_before[c.index()].get(s),
                    "seed {seed}: the burial under {s} stays"
                );
            }
            tally.covered += 1;
            continue;
        }
        let mine = grids_before[us.index()].get(s);
        let theirs = grids_before[them.index()].get(s);
        let rose = match (mine, theirs) {
            (Some(r), _) => Some((us, r)),
            (None, Some(r)) => Some((them, r)),
            _ => None,
        };
        if let Some((burier, role)) = rose {
            assert_eq!(
                g.board().unwrap().piece_at(s),
                Some(risen(burier.other(), role, s)),
                "seed {seed}: the burial on {s} rises"
            );
            assert!(g.zombies().contains(s), "seed {seed}: a zombie on {s}");
            tally.risen += 1;
        }
        expected.push(Event::Vacated {
            by: us,
            sq: s,
            rose,
        });
    }
    let got: Vec<Event> = g.events()[before_events..]
        .iter()
        .copied()
        .filter(|e| matches!(e, Event::Vacated { .. } | Event::Covered { .. }))
        .collect();
    assert_eq!(got, expected, "seed {seed}: the end-of-turn announcements");
}

/// Worlds sampled by either seat: the mover's grid in them makes every move of the turn
/// so far pass the reveal test, and their legal lists equal the reference's with it.
fn check_sampled_worlds(g: &Zombie, st: &TurnState, rights: &[Square], rng: &mut Pcg64, seed: u64) {
    let us = st.mover;
    for seat in 0..2 {
        let w = g.sample_world(seat, rng);
        let grid = w.grid(us);
        let mut m = st.start.clone();
        let mut vacated = Vec::new();
        for &mv in &st.moves {
            let after = m.after(mv, us);
            vacated.extend(footprint(mv, us).0);
            assert!(
                !reveal_attacked(&after, us, grid, &vacated),
                "seed {seed}: a world sampled by seat {seat} refuses a move played"
            );
            m = after;
        }
        let (reference, _) = play_list(&w, st, rights, grid);
        assert_eq!(
            engine_list(&w),
            reference,
            "seed {seed}: legal lists differ in a world sampled by seat {seat}"
        );
    }
}

/// Positions that reach the rules the bugs were about, and a few more.
fn setups() -> Vec<Zombie> {
    let p = ZombieParams {
        ply_cap: 120,
        ..Default::default()
    };
    let from = |fen: &str| Zombie::from_opening(&p, fen).unwrap();
    let mut out = vec![Zombie::new(&p)];
    // Bug 2: the zombie rook leaves a8, the zombie bishop may land there.
    let mut g = from("R7/8/2B4k/8/8/8/7P/4K3 w - - 0 1");
    g.set_zombie(sq("a8"), true);
    g.set_zombie(sq("c6"), true);
    g.set_burial(Color::White, sq("a8"), Some(Role::Knight));
    out.push(g);
    // Bug 3: the f-pawn shields e1 from the zombie queen; a knight buried under f2.
    let mut g = from("k7/8/8/8/8/6q1/5P2/4K3 w - - 0 1");
    g.set_zombie(sq("g3"), true);
    g.set_burial(Color::White, sq("f2"), Some(Role::Knight));
    out.push(g);
    // Castling next to zombies and burials, both sides.
    let mut g = from("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1");
    for s in ["c3", "f6"] {
        g.set_zombie(sq(s), true);
    }
    g.set_burial(Color::White, sq("e1"), Some(Role::Rook));
    g.set_burial(Color::White, sq("d2"), Some(Role::Bishop));
    g.set_burial(Color::Black, sq("e8"), Some(Role::Pawn));
    g.set_burial(Color::Black, sq("c6"), Some(Role::Queen));
    out.push(g);
    // Pawns near promotion, pawn burials on the last ranks, en passant chances.
    let mut g = from("4k3/1P4p1/8/2pP4/8/8/1p4P1/4K3 w - c6 0 1");
    g.set_burial(Color::White, sq("e1"), Some(Role::Pawn));
    g.set_burial(Color::Black, sq("e8"), Some(Role::Pawn));
    g.set_zombie(sq("g7"), true);
    out.push(g);
    // A middlegame with hordes on both sides.
    let mut g = from("r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N1BN2/PPP2PPP/R2QK2R w KQkq - 0 1");
    for s in ["c3", "f3", "c6", "d5", "b4"] {
        g.set_zombie(sq(s), true);
    }
    g.set_burial(Color::White, sq("f3"), Some(Role::Knight));
    g.set_burial(Color::Black, sq("d5"), Some(Role::Bishop));
    out.push(g);
    out
}

#[test]
fn legal_lists_equal_the_reference() {
    let mut tally = Tally::default();
    for (i, start) in setups().into_iter().enumerate() {
        for k in 0..6u64 {
            let seed = 1000 * i as u64 + k;
            play_game(start.clone(), seed, k % 3 == 2, 400, &mut tally);
        }
    }
    eprintln!("{tally:?}");
    assert!(tally.decisions >= 3000, "{tally:?}");
    for (name, n) in [
        ("zombie moves", tally.zombie_moves),
        ("landings on vacated squares", tally.landings_on_vacated),
        ("reveal refusals", tally.refused_by_reveal),
        ("covered squares", tally.covered),
        ("risen zombies", tally.risen),
        ("sampled worlds", tally.sampled),
    ] {
        assert!(n >= 10, "too few {name}: {tally:?}");
    }
}

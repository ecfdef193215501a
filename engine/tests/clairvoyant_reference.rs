//! A slow reference for Clairvoyant Chess's legal action lists where they depend on the
//! board and on check, written from docs/RULES.md ("Clairvoyant Chess") and the seed's
//! cost table on the shared mailbox (`common/mailbox.rs`): the free moves, the drops
//! offered, the bought moves, `pass`, the retraction offer and the guess sheet (piece,
//! destination and drop-square guesses). It reads the game's public state (board squares,
//! phase, balances, this turn's moves and the log) and its action lists, and never the
//! engine's move generation, attack tables or purchase judgements.
//!
//! The rules as the reference states them:
//! - "In check": the side has exactly one king and an enemy piece attacks it. Moves are
//!   the pieces' patterns (castling with its orthodox attack tests and one king), never
//!   the capture of the enemy's only king.
//! - Only the end of the turn must be legal. A free move is offered if it leaves the king
//!   safe, or if an affordable bought move can then make it safe. A bought move is
//!   offered if affordable, not by a piece whose last move gave check, and it leaves the
//!   king safe or (another bought move left) one more can. Prices: the seed's table and
//!   footnotes as RULES.md words them. En passant: only the free move, onto the square
//!   of the opponent's double step if that was the last move of their turn.
//! - A drop: an empty square, pawns off the first and last ranks, a king only as the
//!   second, and the dropped piece may not attack the enemy's only king. It is offered
//!   when affordable and the turn can still end legally: the king is safe, or bought moves
//!   make it safe, or further drops do (the module doc's reading: drops on squares between
//!   an enemy bishop, rook or queen and a square within two king steps of the king, or of a
//!   piece attacking a checking piece), searched here by brute force over those drops.
//! - Drop guesses (open mode): a square some sequence of offered drops reaches. A drop
//!   not allowed now can become allowed only when a piece dropped earlier stands between
//!   it and the enemy king, so the sequences searched are the drop itself, or one blocker
//!   between and then the drop. Blind mode: the same, price and check ignored.
//!
//! Seeded random and greedy (drops, captures, checks first) games from the start and from
//! tricky positions, with balances from nothing to enough for every purchase, compare the
//! engine's list with the reference's at every decision of those kinds.

use crate::mailbox;

use engine::game::{Game, Turn};
use engine::variants::clairvoyant::{
    ClairAction, Clairvoyant, ClairvoyantParams, Costs, Entry, Guess, Phase, TurnMove,
};
use engine::{Board, Color, Move, MoveKind, Piece, Role, Square};
use mailbox::{step, Mailbox, BISHOP_DIRS, ROOK_DIRS};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::{BTreeSet, HashMap};

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

fn price(t: &engine::variants::clairvoyant::RoleTable, r: Role) -> u32 {
    match r {
        Role::Pawn => t.pawn,
        Role::Knight => t.knight,
        Role::Bishop => t.bishop,
        Role::Rook => t.rook,
        Role::Queen => t.queen,
        Role::King => t.king,
    }
}

/// What pricing needs of a move made this turn.
#[derive(Clone, Copy, Debug)]
struct Made {
    to: Square,
    rook_to: Option<Square>,
    captured: bool,
    gave_check: bool,
    into_check: bool,
}

impl Made {
    fn of(m: &TurnMove) -> Made {
        Made {
            to: m.to,
            rook_to: m.rook_to,
            captured: m.captured,
            gave_check: m.gave_check,
            into_check: m.into_check,
        }
    }
}

struct Ref<'a> {
    costs: &'a Costs,
    rights: Vec<Square>,
    start_check: bool,
}

fn kings(m: &Mailbox, c: Color) -> Vec<Square> {
    Square::all()
        .filter(|&s| m.at(s) == Some(Piece::new(c, Role::King)))
        .collect()
}

/// Exactly one king, attacked.
fn in_check(m: &Mailbox, c: Color) -> bool {
    let k = kings(m, c);
    k.len() == 1 && m.attacked(k[0], c.other())
}

fn only_king(m: &Mailbox, c: Color) -> Option<Square> {
    let k = kings(m, c);
    (k.len() == 1).then(|| k[0])
}

/// The king's square and the rook's after castling with the rook on `rook`.
fn castle_squares(us: Color, king: Square, rook: Square) -> (Square, Square) {
    mailbox::castle_dest(us, king, rook)
}

/// Every move of `us` by the patterns (castling with one unattacked king), never the
/// capture of the enemy's only king.
fn moves(m: &Mailbox, us: Color, ep: Option<Square>, rights: &[Square]) -> Vec<Move> {
    let enemy_king = only_king(m, us.other());
    let mut v: Vec<Move> = m
        .pseudo_moves(us, ep)
        .into_iter()
        .filter(|mv| Some(mv.to()) != enemy_king)
        .collect();
    if only_king(m, us).is_some() && !in_check(m, us) {
        v.extend(m.castling_moves(us, rights, true));
    }
    v
}

/// Whether a piece of `role` and `us` on `sq` attacks `target` on `m` (the piece placed).
fn piece_attacks(m: &Mailbox, role: Role, us: Color, sq: Square, target: Square) -> bool {
    let mut x = Mailbox::empty();
    for s in Square::all() {
        if m.at(s).is_some() {
            // Occupancy only: a neutral blocker of the other colour.
            x.set(s, Some(Piece::new(us.other(), Role::Knight)));
        }
    }
    x.set(target, Some(Piece::new(us.other(), Role::Knight)));
    x.set(sq, Some(Piece::new(us, role)));
    x.pseudo_moves(us, None)
        .iter()
        .any(|mv| mv.from() == sq && mv.to() == target)
}

fn drop_allowed(m: &Mailbox, us: Color, role: Role, sq: Square) -> bool {
    if m.at(sq).is_some() {
        return false;
    }
    if role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
        return false;
    }
    if role == Role::King && kings(m, us).len() != 1 {
        return false;
    }
    match only_king(m, us.other()) {
        Some(k) => !piece_attacks(m, role, us, sq, k),
        None => true,
    }
}

/// Squares strictly between two squares on a line (empty if not on one).
fn between(a: Square, b: Square) -> Vec<Square> {
    for dirs in [ROOK_DIRS, BISHOP_DIRS] {
        for (df, dr) in dirs {
            let mut out = Vec::new();
            let mut cur = a;
            while let Some(n) = step(cur, df, dr) {
                if n == b {
                    return out;
                }
                out.push(n);
                cur = n;
            }
        }
    }
    Vec::new()
}

/// Whether `a` and `b` share a line of the kind `role` moves along.
fn on_line(role: Role, a: Square, b: Square) -> bool {
    let df = a.file() as i8 - b.file() as i8;
    let dr = a.rank() as i8 - b.rank() as i8;
    let straight = (df == 0) != (dr == 0);
    let diagonal = df != 0 && df.abs() == dr.abs();
    match role {
        Role::Rook => straight,
        Role::Bishop => diagonal,
        Role::Queen => straight || diagonal,
        _ => false,
    }
}

impl Ref<'_> {
    fn min_bought(&self) -> u32 {
        let c = self.costs;
        ROLES
            .iter()
            .flat_map(|&r| {
                [
                    price(&c.extra_quiet, r),
                    price(&c.extra_capture, r),
                    price(&c.same_after_capture, r),
                    price(&c.second_capture, r),
                ]
            })
            .chain([
                c.king_quiet_in_check,
                c.king_quiet_into_check,
                c.king_after_capture_into_check,
            ])
            .min()
            .unwrap()
    }

    /// The price of bought move `mv` of `us` on `m` after this turn's `made`.
    fn cost(&self, m: &Mailbox, us: Color, mv: Move, made: &[Made]) -> u32 {
        let c = self.costs;
        let role = m.at(mv.from()).unwrap().role;
        let capture = mv.kind() != MoveKind::Castle && m.at(mv.to()).is_some_and(|p| p.color != us);
        let prev = made
            .iter()
            .rev()
            .find(|x| x.to == mv.from() || x.rook_to == Some(mv.from()));
        let prev_capture = prev.is_some_and(|p| p.captured);
        if capture && prev_capture {
            price(&c.second_capture, role)
        } else if prev_capture {
            if role == Role::King && prev.is_some_and(|p| p.into_check) {
                c.king_after_capture_into_check
            } else {
                price(&c.same_after_capture, role)
            }
        } else if capture {
            price(&c.extra_capture, role)
        } else if role == Role::King {
            if !made.is_empty() && in_check(m, us) {
                c.king_quiet_into_check
            } else if self.start_check {
                c.king_quiet_in_check
            } else {
                price(&c.extra_quiet, role)
            }
        } else {
            price(&c.extra_quiet, role)
        }
    }

    fn record(&self, m: &Mailbox, us: Color, mv: Move) -> (Mailbox, Made) {
        let after = m.after(mv, us);
        let (to, rook_to) = if mv.kind() == MoveKind::Castle {
            let (k, r) = castle_squares(us, mv.from(), mv.to());
            (k, Some(r))
        } else {
            (mv.to(), None)
        };
        let made = Made {
            to,
            rook_to,
            captured: mv.kind() != MoveKind::Castle
                && (m.at(mv.to()).is_some_and(|p| p.color != us)
                    || mv.kind() == MoveKind::EnPassant),
            gave_check: in_check(&after, us.other()),
            into_check: in_check(&after, us),
        };
        (after, made)
    }

    /// The bought moves of `us` on `m` (no en passant) offered with `left` bought moves
    /// and `balance`, after this turn's `made`.
    fn bought(&self, m: &Mailbox, us: Color, made: &[Made], balance: u32, left: u32) -> Vec<Move> {
        if left == 0 {
            return Vec::new();
        }
        let forbidden_from = made.last().filter(|x| x.gave_check).map(|x| x.to);
        moves(m, us, None, &self.rights)
            .into_iter()
            .filter(|&mv| {
                if Some(mv.from()) == forbidden_from {
                    return false;
                }
                let cost = self.cost(m, us, mv, made);
                if cost > balance {
                    return false;
                }
                let (after, rec) = self.record(m, us, mv);
                if !rec.into_check {
                    return true;
                }
                let mut more = made.to_vec();
                more.push(rec);
                left > 1 && self.repairs(&after, us, &more, balance - cost, left - 1)
            })
            .collect()
    }

    /// Whether bought moves can leave `us` safe.
    fn repairs(&self, m: &Mailbox, us: Color, made: &[Made], balance: u32, left: u32) -> bool {
        if !in_check(m, us) {
            return true;
        }
        !self.bought(m, us, made, balance, left).is_empty()
    }

    /// The further drops counted after drops: squares between an enemy line piece and a
    /// square within two king steps, occupancy ignored; squares from which the dropped
    /// piece attacks a checking piece.
    fn further(&self, m: &Mailbox, us: Color, king: Square, role: Role, sq: Square) -> bool {
        let them = us.other();
        for a in Square::all() {
            let Some(p) = m.at(a) else { continue };
            if p.color != them || !matches!(p.role, Role::Bishop | Role::Rook | Role::Queen) {
                continue;
            }
            for x in Square::all() {
                if x.distance(king) <= 2 && on_line(p.role, a, x) && between(a, x).contains(&sq) {
                    return true;
                }
            }
        }
        // Attackers of a checking piece (one that attacks the king now).
        Square::all().any(|c| {
            m.at(c).is_some_and(|p| p.color == them)
                && piece_attacks(m, m.at(c).unwrap().role, them, c, king)
                && piece_attacks(m, role, us, sq, c)
        })
    }

    /// After drops (no move yet): can the turn still end legally?
    fn can_end(
        &self,
        m: &Mailbox,
        us: Color,
        balance: u32,
        left: u32,
        memo: &mut HashMap<(Vec<u8>, u32), bool>,
    ) -> bool {
        if !in_check(m, us) {
            return true;
        }
        let key = (
            m.sq.iter()
                .map(|p| p.map_or(0, |p| 1 + p.role.index() as u8 + 8 * p.color.index() as u8))
                .collect::<Vec<u8>>(),
            balance,
        );
        if let Some(&r) = memo.get(&key) {
            return r;
        }
        let mut r = self.repairs(m, us, &[], balance, left);
        let king = only_king(m, us).unwrap();
        if !r {
            'all: for role in ROLES {
                let c = price(&self.costs.drop, role);
                if c > balance {
                    continue;
                }
                for sq in Square::all() {
                    if drop_allowed(m, us, role, sq) && self.further(m, us, king, role, sq) {
                        let mut x = m.clone();
                        x.set(sq, Some(Piece::new(us, role)));
                        if self.can_end(&x, us, balance - c, left, memo) {
                            r = true;
                            break 'all;
                        }
                    }
                }
            }
        }
        memo.insert(key, r);
        r
    }

    /// Drops offered to `us` on `m`.
    fn drops(&self, m: &Mailbox, us: Color, balance: u32, left: u32) -> Vec<(Role, Square)> {
        let mut memo = HashMap::new();
        let mut out = Vec::new();
        for role in ROLES {
            let c = price(&self.costs.drop, role);
            if c > balance {
                continue;
            }
            for sq in Square::all() {
                if !drop_allowed(m, us, role, sq) {
                    continue;
                }
                let mut x = m.clone();
                x.set(sq, Some(Piece::new(us, role)));
                if self.can_end(&x, us, balance - c, left, &mut memo) {
                    out.push((role, sq));
                }
            }
        }
        out
    }

    /// Drop guesses: squares some sequence of offered drops reaches (`None`: blind).
    fn drop_guesses(
        &self,
        m: &Mailbox,
        us: Color,
        balance: Option<u32>,
        left: u32,
    ) -> BTreeSet<(u8, Square)> {
        let mut out = BTreeSet::new();
        let mut memo = HashMap::new();
        let enemy_king = only_king(m, us.other());
        let price_ok = |c: u32| balance.is_none_or(|b| c <= b);
        let mut ends = |x: &Mailbox, spent: u32| match balance {
            None => true,
            Some(b) => self.can_end(x, us, b - spent, left, &mut memo),
        };
        for role in ROLES {
            let c = price(&self.costs.drop, role);
            if !price_ok(c) {
                continue;
            }
            for sq in Square::all() {
                if m.at(sq).is_some() {
                    continue;
                }
                if drop_allowed(m, us, role, sq) {
                    let mut x = m.clone();
                    x.set(sq, Some(Piece::new(us, role)));
                    if ends(&x, c) {
                        out.insert((role.index() as u8, sq));
                    }
                    continue;
                }
                let Some(k) = enemy_king else { continue };
                'blockers: for t in between(sq, k) {
                    for r2 in ROLES {
                        let c2 = price(&self.costs.drop, r2);
                        if !price_ok(c + c2) || !drop_allowed(m, us, r2, t) {
                            continue;
                        }
                        let mut x = m.clone();
                        x.set(t, Some(Piece::new(us, r2)));
                        if !drop_allowed(&x, us, role, sq) {
                            continue;
                        }
                        x.set(sq, Some(Piece::new(us, role)));
                        if ends(&x, c + c2) {
                            out.insert((role.index() as u8, sq));
                            break 'blockers;
                        }
                    }
                }
            }
        }
        out
    }
}

/// The en passant square for this turn's free move: the opponent's double step, if it
/// was the last move of their turn (from the log), or the start position's.
fn ep_for_turn(g: &Clairvoyant) -> Option<Square> {
    let log = g.log();
    let ends: Vec<usize> = log
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Entry::TurnEnd { .. }))
        .map(|(i, _)| i)
        .collect();
    let Some(&last_end) = ends.last() else {
        return start_ep(g);
    };
    let from = if ends.len() >= 2 {
        ends[ends.len() - 2] + 1
    } else {
        0
    };
    let last = log[from..last_end].iter().rev().find_map(|e| match e {
        Entry::Move { m, .. } if !m.retracted => Some(*m),
        _ => None,
    })?;
    let double = last.pawn
        && !last.castle
        && last.from.file() == last.to.file()
        && last.from.rank().abs_diff(last.to.rank()) == 2;
    double.then(|| Square::from_coords(last.to.file(), (last.from.rank() + last.to.rank()) / 2))
}

fn start_ep(g: &Clairvoyant) -> Option<Square> {
    g.board_ref().ep_square()
}

/// This turn's live moves (not retracted), for pricing.
fn live(g: &Clairvoyant) -> Vec<TurnMove> {
    g.turn_moves()
        .into_iter()
        .filter(|m| !m.retracted)
        .collect()
}

fn drops_this_turn(g: &Clairvoyant) -> usize {
    let log = g.log();
    let start = log
        .iter()
        .rposition(|e| matches!(e, Entry::TurnEnd { .. }))
        .map_or(0, |i| i + 1);
    log[start..]
        .iter()
        .filter(|e| matches!(e, Entry::Drop { .. }))
        .count()
}

/// The free moves offered, each with whether it is safe by itself.
type FreeList = Vec<(Move, bool)>;

/// The reference's list for the decision `g` is at, as notation; `None` for decisions it
/// does not judge. `free_before`: the free moves offered when the pending free move was
/// chosen (for the retraction).
fn reference(
    g: &Clairvoyant,
    start_check: bool,
    free_before: &[(Move, bool)],
) -> Option<(Vec<String>, FreeList)> {
    let b: &Board = g.board_ref();
    let p = g.params();
    let mover = g.mover();
    let m = Mailbox::of(b);
    let rights: Vec<Square> = b.castling_rights().into_iter().collect();
    let r = Ref {
        costs: &p.costs,
        rights,
        start_check,
    };
    let balance = g.balance(mover);
    let note = |a: ClairAction| notation(g, a);
    let mut out: Vec<ClairAction> = Vec::new();
    let mut free = Vec::new();
    match g.phase() {
        Phase::Guess => {
            if (g.sheet().len() as u32) < p.max_guesses {
                for s in Square::all() {
                    if m.at(s).is_some_and(|x| x.color == mover) {
                        out.push(ClairAction::Guess(Guess::Piece(s)));
                    }
                }
                let mut seen = BTreeSet::new();
                for mv in moves(&m, mover, ep_for_turn(g), &r.rights) {
                    let to = if mv.kind() == MoveKind::Castle {
                        castle_squares(mover, mv.from(), mv.to()).0
                    } else {
                        mv.to()
                    };
                    if seen.insert((mv.from(), to)) {
                        out.push(ClairAction::Guess(Guess::Destination(mv.from(), to)));
                    }
                }
                let budget = (!p.blind()).then_some(balance);
                let squares = r.drop_guesses(&m, mover, budget, p.bought_after_drops);
                for role in ROLES {
                    let mut any = false;
                    for &(rr, sq) in &squares {
                        if rr == role.index() as u8 {
                            any = true;
                            out.push(ClairAction::Guess(Guess::BuySquare(role, sq)));
                        }
                    }
                    if any {
                        out.push(ClairAction::Guess(Guess::Buy(role)));
                    }
                }
                if p.blind() || balance >= r.min_bought() {
                    out.push(ClairAction::Guess(Guess::Extra));
                }
            }
            out.push(ClairAction::Pass);
        }
        Phase::Start | Phase::Free => {
            if g.phase() == Phase::Start && b.turn() == mover {
                for (role, sq) in r.drops(&m, mover, balance, p.bought_after_drops) {
                    out.push(ClairAction::Drop(role, sq));
                }
            }
            let retracted: Vec<Move> = g
                .turn_moves()
                .iter()
                .filter(|x| x.retracted)
                .map(|x| x.mv)
                .collect();
            for mv in moves(&m, mover, ep_for_turn(g), &r.rights) {
                if retracted.contains(&mv) {
                    continue;
                }
                let (after, rec) = r.record(&m, mover, mv);
                let safe = !rec.into_check;
                let ok = safe
                    || (balance >= r.min_bought()
                        && r.repairs(&after, mover, &[rec], balance, p.bought_after_move));
                if ok {
                    free.push((mv, safe));
                    out.push(ClairAction::Move(mv));
                }
            }
        }
        Phase::Drops | Phase::Extra => {
            let made: Vec<Made> = live(g).iter().map(Made::of).collect();
            let bought = live(g).iter().filter(|x| x.bought).count() as u32;
            let limit = if g.phase() == Phase::Drops || drops_this_turn(g) > 0 {
                p.bought_after_drops
            } else {
                p.bought_after_move
            };
            if g.phase() == Phase::Drops && bought == 0 {
                for (role, sq) in r.drops(&m, mover, balance, p.bought_after_drops) {
                    out.push(ClairAction::Drop(role, sq));
                }
            }
            for mv in r.bought(&m, mover, &made, balance, limit.saturating_sub(bought)) {
                out.push(ClairAction::Buy(mv));
            }
            if !in_check(&m, mover) {
                out.push(ClairAction::Pass);
            }
        }
        Phase::Retract => {
            let pending = live(g).last().copied()?;
            let escape = start_check && !in_check(&m, mover);
            let gave_check = in_check(&m, mover.other());
            let others = free_before.iter().filter(|(x, _)| *x != pending.mv);
            let (mut alternative, mut other_escape) = (false, false);
            for &(_, safe) in others {
                alternative = true;
                other_escape |= safe;
            }
            let c = &p.costs;
            let cost = if escape {
                other_escape.then_some(c.retraction_escape)
            } else if !alternative {
                None
            } else if gave_check {
                Some(c.retraction_check)
            } else {
                Some(c.retraction)
            };
            if cost.is_some_and(|c| g.balance(mover.other()) >= c) {
                out.push(ClairAction::Retract);
            }
            out.push(ClairAction::Pass);
        }
        _ => return None,
    }
    let mut v: Vec<String> = out.into_iter().map(note).collect();
    v.sort();
    v.dedup();
    Some((v, free))
}

fn notation(g: &Clairvoyant, a: ClairAction) -> String {
    // The game's own notation is the public way to name an action.
    g.action_notation(a)
}

fn engine_list(g: &Clairvoyant) -> Vec<String> {
    let Turn::Seat(s) = g.turn() else {
        return Vec::new();
    };
    let mut acts = Vec::new();
    g.legal_actions(s, &mut acts);
    let mut v: Vec<String> = acts.into_iter().map(|a| notation(g, a)).collect();
    v.sort();
    v.dedup();
    v
}

/// A greedy pick: drops, then captures and checks (by the reference's own board), else
/// random.
fn greedy(g: &Clairvoyant, acts: &[ClairAction], rng: &mut Pcg64) -> ClairAction {
    let m = Mailbox::of(g.board_ref());
    let mover = g.mover();
    let good: Vec<ClairAction> = acts
        .iter()
        .copied()
        .filter(|a| match a {
            ClairAction::Drop(..) => true,
            ClairAction::Move(mv) | ClairAction::Buy(mv) => {
                m.at(mv.to()).is_some_and(|p| p.color != mover)
                    || (mv.kind() != MoveKind::Castle
                        && in_check(&m.after(*mv, mover), mover.other()))
            }
            _ => false,
        })
        .collect();
    if !good.is_empty() && rng.gen_bool(0.7) {
        good[rng.gen_range(0..good.len())]
    } else {
        acts[rng.gen_range(0..acts.len())]
    }
}

/// Plays one game, comparing at every judged decision; returns the decisions compared.
fn play(start: Clairvoyant, seed: u64, greedy_play: bool, max_actions: usize) -> usize {
    let mut g = start;
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut compared = 0;
    let mut start_check = HashMap::new();
    let mut free_before: Vec<(Move, bool)> = Vec::new();
    for _ in 0..max_actions {
        let Turn::Seat(s) = g.turn() else { break };
        let sc = *start_check.entry(g.turns()).or_insert_with(|| {
            // The first decision of a turn sees its start position.
            in_check(&Mailbox::of(g.board_ref()), g.mover())
        });
        if let Some((want, free)) = reference(&g, sc, &free_before) {
            let got = engine_list(&g);
            if got != want {
                let only_engine: Vec<&String> = got.iter().filter(|a| !want.contains(a)).collect();
                let only_ref: Vec<&String> = want.iter().filter(|a| !got.contains(a)).collect();
                panic!(
                    "seed {seed}: {:?} step, {} to move, balances {}/{}, {}\n\
                     engine only: {only_engine:?}\nreference only: {only_ref:?}",
                    g.phase(),
                    g.mover().name(),
                    g.balance(Color::White),
                    g.balance(Color::Black),
                    g.board_ref().fen()
                );
            }
            compared += 1;
            if matches!(g.phase(), Phase::Start | Phase::Free) {
                free_before = free;
            }
        }
        let mut acts = Vec::new();
        g.legal_actions(s, &mut acts);
        let a = if greedy_play {
            greedy(&g, &acts, &mut rng)
        } else {
            acts[rng.gen_range(0..acts.len())]
        };
        g.apply(a);
    }
    compared
}

fn params(mode: &str, white: u32, black: u32) -> ClairvoyantParams {
    ClairvoyantParams {
        mode: mode.into(),
        white_balance: white,
        black_balance: black,
        ply_cap: 150,
        ..Default::default()
    }
}

const FENS: [&str; 6] = [
    // Bug 5's positions: an open file to the enemy king; a king in check that a later
    // pawn block saves; en passant due at the start of the turn.
    "4k3/7p/8/8/8/8/7P/K7 w - - 0 1",
    "1r5b/8/7k/8/8/8/K2q4/8 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    // Castling both ways with attackers about, and promotions close.
    "r3k2r/1P4P1/8/2b5/5B2/8/1p4p1/R3K2R w KQkq - 0 1",
    // Kings on open lines with line pieces and knights around.
    "3qk3/8/2n5/8/1B6/8/5N2/R3K3 b Q - 0 1",
    "4r1k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1",
];

#[test]
fn clairvoyant_lists_match_the_reference_in_random_and_greedy_play() {
    let mut compared = 0;
    let mut games = 0;
    for (i, (mode, w, bal)) in [
        ("open", 0, 0),
        ("open", 13, 28),
        ("open", 40, 40),
        ("blind", 30, 30),
    ]
    .into_iter()
    .enumerate()
    {
        let p = params(mode, w, bal);
        for greedy_play in [false, true] {
            let seed = 100 * i as u64 + greedy_play as u64;
            compared += play(Clairvoyant::new(&p), seed, greedy_play, 400);
            games += 1;
            for (j, fen) in FENS.iter().enumerate() {
                let g = Clairvoyant::from_opening(&p, fen).unwrap();
                compared += play(g, seed + 10 * j as u64 + 2, greedy_play, 150);
                games += 1;
            }
        }
    }
    eprintln!("{compared} decisions compared in {games} games");
    assert!(compared > 3000, "only {compared} decisions compared");
}

//! Purchases: which drops are allowed, what a bought move costs, and whether a turn
//! that has left the mover's king attacked can still end legally.
//!
//! Rules (seed "Cost of Extra Stuff" and its footnotes; RULES.md "Clairvoyant Chess"):
//! - A drop goes on an empty square, a pawn never on the first or last rank, and the
//!   dropped piece may not attack the enemy's (only) king (`rule_drop_may_not_check`,
//!   `rule_pawn_drop_not_on_back_ranks`). A second king (the drop table's king) may be
//!   bought only by a side with one king (decision: two kings at most).
//! - A bought move costs by the piece's type: non-capturing, capturing, a second move by
//!   the same piece after its capture, a second capture by the same piece
//!   (`rule_costs_follow_the_table`); the king's non-capturing extra move costs 11 when a
//!   move was already made this turn and the king is attacked right before it, else 7 if
//!   the mover was in check at the start of the turn, else 3 (`rule_king_extra_move_costs`);
//!   the king's non-capturing move after its own capture costs 18, or 25 if that capture
//!   went into check (`rule_king_after_capture_costs`).
//! - A move that checks may not be followed by a bought move of the same piece
//!   (`rule_checking_piece_may_not_move_again`).
//! - Only the end-of-turn position must be legal: a move may leave the king attacked
//!   when an affordable bought move can repair it (`rule_first_move_may_leave_check`).
//!   [`completes`] answers that question exhaustively over the bought moves still
//!   allowed, so every action offered leads to a turn that can end legally.
//! - "In check" means the side has exactly one king and it is attacked; with two kings
//!   either may stand attacked (`rule_second_king_may_enter_check`). A king is captured
//!   only while its side has two (`rule_second_king_capture_is_ordinary`).
//! - Castling keeps its orthodox conditions (not out of, through or into an attack at
//!   the moment it is made) and needs exactly one king (decision).
//! - En passant is possible only for the free move (the board forgets the square at the
//!   null step between two moves of one side, and a bought move after drops is generated
//!   without it: `rule_bought_move_after_drops_never_takes_en_passant`), and after a
//!   two-move turn only if its last move was the double step (RULES.md).
//! - After drops, [`can_end`] also counts further drops
//!   (`rule_drop_offered_when_a_later_drop_can_end_the_check`), and drop guesses may name
//!   squares a blocking drop first opens ([`reachable_drop_squares`],
//!   `rule_drop_guess_names_squares_a_blocking_drop_opens`).

use super::tables::Costs;
use super::TurnMove;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::{Color, Piece, Role, Square};
use crate::variants::{castles_without_attack_test, pseudo_moves};

/// The king of `c` if it has exactly one (the only one that can be in check).
#[inline]
pub fn royal_king(b: &Board, c: Color) -> Option<Square> {
    let k = b.pieces(c, Role::King);
    if k.count() == 1 {
        k.first()
    } else {
        None
    }
}

/// The legal moves of `c` (to move on `b`) by this variant's check: the orthodox
/// generator's, less those that leave `c`'s royal king attacked by a second enemy king.
/// The generator counts only one enemy king and never a king as a checker, while the
/// seed lets either of two kings enter check, so one may stand next to the enemy king
/// and give check; a king's path when castling must not be attacked by it either. Test
/// `rule_a_second_king_next_to_the_royal_king_gives_check`.
pub fn safe_moves(b: &Board, c: Color) -> MoveList {
    let legal = b.legal_moves();
    let their_kings = b.pieces(c.other(), Role::King);
    if !their_kings.more_than_one() {
        return legal;
    }
    let near_their_kings = their_kings
        .into_iter()
        .fold(Bitboard::EMPTY, |a, k| a | attacks::king_attacks(k));
    let mut s = scratch_with_ep(b, c, b.ep_square());
    let mut out = MoveList::new();
    for &m in legal.iter() {
        let ok = if m.is_castle() {
            let (king_to, _) = Board::castle_targets(c, m.from(), m.to());
            let path = attacks::between(m.from(), king_to)
                .with(m.from())
                .with(king_to);
            (path & near_their_kings).is_empty()
        } else {
            s.make(m);
            let ok = !in_check(&s, c);
            s.unmake();
            ok
        };
        if ok {
            out.push(m);
        }
    }
    out
}

/// Whether [`safe_moves`] has any move; without a second enemy king the generator's
/// early answer, which builds no list (asked at every turn's start).
pub fn has_safe_move(b: &Board, c: Color) -> bool {
    if b.pieces(c.other(), Role::King).more_than_one() {
        !safe_moves(b, c).is_empty()
    } else {
        b.has_legal_moves()
    }
}

/// Whether `c` is in check: exactly one king, and it is attacked.
#[inline]
pub fn in_check(b: &Board, c: Color) -> bool {
    royal_king(b, c).is_some_and(|k| b.is_attacked(k, c.other()))
}

/// A copy of the position without history, with `turn` to move and no en passant
/// square: the board a side's bought moves are generated on (building it costs less
/// than cloning a board with its undo stack).
pub fn scratch(b: &Board, turn: Color) -> Board {
    scratch_with_ep(b, turn, None)
}

/// [`scratch`] keeping an en passant square (for the first move of a turn).
pub fn scratch_with_ep(b: &Board, turn: Color, ep: Option<Square>) -> Board {
    let mut s = Board::empty();
    for sq in b.occupied() {
        s.set_piece(sq, b.piece_at(sq));
    }
    s.set_state(turn, b.castling_rights(), ep, 0, 1);
    s
}

/// The moves of the side to move on `b` before any king-safety test: orthodox geometry,
/// en passant when the board has a square, castling with its orthodox attack tests when
/// the side has one king; never the capture of the enemy's only king.
pub fn mover_moves(b: &Board, out: &mut MoveList) {
    out.clear();
    let us = b.turn();
    let occ = b.occupied();
    pseudo_moves(b, out, Bitboard::FULL, |_| occ, |_, _| true);
    if let Some(k) = royal_king(b, us.other()) {
        let mut i = 0;
        while i < out.len() {
            if out[i].to() == k && out[i].kind() != MoveKind::Castle {
                out.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }
    if let Some(king) = royal_king(b, us) {
        if b.is_attacked(king, us.other()) {
            return;
        }
        castles_without_attack_test(b, |m| {
            let (kd, _) = Board::castle_targets(us, m.from(), m.to());
            let path = attacks::between(king, kd).with(kd);
            if !path.any_square(|s| b.is_attacked(s, us.other())) {
                out.push(m);
            }
        });
    }
}

/// The latest live move this turn that ended on `sq` (the same piece moving again).
pub fn previous_of(moves: &[TurnMove], sq: Square) -> Option<&TurnMove> {
    moves
        .iter()
        .rev()
        .filter(|m| !m.retracted)
        .find(|m| m.to == sq || m.rook_to == Some(sq))
}

/// Whether the seed forbids `mv` after `moves`: the last move checked and `mv` is by
/// the same piece.
pub fn forbidden_after_check(moves: &[TurnMove], mv: Move) -> bool {
    moves
        .iter()
        .rev()
        .find(|m| !m.retracted)
        .is_some_and(|last| last.gave_check && last.to == mv.from())
}

/// The price of `mv` as a bought move on `b` (the mover to move) after this turn's
/// `moves`; `start_check`: the mover was in check at the start of the turn.
pub fn bought_cost(
    b: &Board,
    mv: Move,
    moves: &[TurnMove],
    start_check: bool,
    costs: &Costs,
) -> u32 {
    let role = b.piece_at(mv.from()).map_or(Role::Pawn, |p| p.role);
    let capture = b.captured_piece(mv).is_some();
    let prev = previous_of(moves, mv.from());
    let prev_capture = prev.is_some_and(|p| p.captured);
    if capture && prev_capture {
        costs.second_capture.get(role)
    } else if prev_capture {
        if role == Role::King && prev.is_some_and(|p| p.into_check) {
            costs.king_after_capture_into_check
        } else {
            costs.same_after_capture.get(role)
        }
    } else if capture {
        costs.extra_capture.get(role)
    } else if role == Role::King {
        let made = moves.iter().any(|m| !m.retracted);
        if made && in_check(b, b.turn()) {
            costs.king_quiet_into_check
        } else if start_check {
            costs.king_quiet_in_check
        } else {
            costs.extra_quiet.get(role)
        }
    } else {
        costs.extra_quiet.get(role)
    }
}

/// The record of `mv` played on `b` (the mover to move, before the move) after this
/// turn's `moves`; the check flags are filled in by [`finish_turn_move`].
pub fn describe(b: &Board, mv: Move, moves: &[TurnMove], bought: bool, cost: u32) -> TurnMove {
    let us = b.turn();
    let piece = b.piece_at(mv.from());
    let role = piece.map_or(Role::Pawn, |p| p.role);
    let (to, rook_to, rook_from) = if mv.is_castle() {
        let (kd, rd) = Board::castle_targets(us, mv.from(), mv.to());
        (kd, Some(rd), Some(mv.to()))
    } else {
        (mv.to(), None, None)
    };
    let (origin, start_role) = match previous_of(moves, mv.from()) {
        Some(p) if p.rook_to == Some(mv.from()) => (p.rook_origin.unwrap_or(mv.from()), Role::Rook),
        Some(p) => (p.origin, p.role),
        None => (mv.from(), role),
    };
    TurnMove {
        mv,
        from: mv.from(),
        to,
        rook_to,
        rook_origin: rook_from,
        origin,
        role: start_role,
        captured: b.captured_piece(mv).is_some(),
        pawn: role == Role::Pawn,
        castle: mv.is_castle(),
        gave_check: false,
        into_check: false,
        bought,
        retracted: false,
        cost,
    }
}

/// Fills the check flags of `m` from the board after it (`mover` moved).
pub fn finish_turn_move(after: &Board, mover: Color, m: &mut TurnMove) {
    m.gave_check = in_check(after, mover.other());
    m.into_check = in_check(after, mover);
}

/// Whether the turn can still end legally from `b` (the mover to move) with at most
/// `left` more bought moves and `balance` Zorkmids, after this turn's `moves`.
pub fn completes(
    b: &mut Board,
    moves: &mut Vec<TurnMove>,
    balance: u32,
    left: u32,
    start_check: bool,
    costs: &Costs,
) -> bool {
    let mover = b.turn();
    if !in_check(b, mover) {
        return true;
    }
    if left == 0 || balance < costs.min_bought_move() {
        return false;
    }
    if crate::deadline::passed() {
        // As in `end_search`: past a searching agent's deadline an unfinished search
        // answers "cannot end", so the action is left out of its list, never offered
        // unchecked.
        return false;
    }
    let mut list = MoveList::new();
    mover_moves(b, &mut list);
    if one_move_escapes(b, &list, moves, balance, start_check, costs) {
        return true;
    }
    for &mv in list.iter() {
        if forbidden_after_check(moves, mv) {
            continue;
        }
        let cost = bought_cost(b, mv, moves, start_check, costs);
        if cost > balance {
            continue;
        }
        b.make(mv);
        let into_check = in_check(b, mover);
        b.unmake();
        if !into_check {
            return true;
        }
        // The move's record is needed only to price a repair after it.
        if left > 1 {
            let mut tm = describe(b, mv, moves, true, cost);
            b.make(mv);
            finish_turn_move(b, mover, &mut tm);
            b.make_null();
            moves.push(tm);
            let r = completes(b, moves, balance - cost, left - 1, start_check, costs);
            moves.pop();
            b.unmake_null();
            b.unmake();
            if r {
                return true;
            }
        }
    }
    false
}

/// The fast path of [`completes`]: an affordable bought move among the orthodox legal
/// moves (a few, instead of every move of `list`) that ends with the mover out of check.
/// Each candidate is played and checked, so a `true` is always right; a `false` (the
/// orthodox generator judges two kings or kings side by side differently) leaves the
/// answer to the exhaustive search over `list`.
fn one_move_escapes(
    b: &mut Board,
    list: &MoveList,
    moves: &[TurnMove],
    balance: u32,
    start_check: bool,
    costs: &Costs,
) -> bool {
    let mover = b.turn();
    for &mv in b.legal_moves().iter() {
        if mv.is_castle() || !list.contains(mv) || forbidden_after_check(moves, mv) {
            continue;
        }
        if bought_cost(b, mv, moves, start_check, costs) > balance {
            continue;
        }
        b.make(mv);
        let safe = !in_check(b, mover);
        b.unmake();
        if safe {
            return true;
        }
    }
    false
}

/// Whether `role` may be dropped on `sq` by the side to move of `b` (ignoring price and
/// the mover's own king): empty square, pawns off the back ranks, no check given, a
/// king only as a second one.
pub fn drop_allowed(b: &Board, role: Role, sq: Square) -> bool {
    let us = b.turn();
    if b.piece_at(sq).is_some() {
        return false;
    }
    if role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
        return false;
    }
    if role == Role::King && b.pieces(us, Role::King).count() != 1 {
        return false;
    }
    match royal_king(b, us.other()) {
        Some(k) => !attacks::attacks(role, us, sq, b.occupied().with(sq)).contains(k),
        None => true,
    }
}

/// Every square where `role` may be dropped by the side to move of `b` (as
/// [`drop_allowed`], computed as one set: the squares that would check the enemy's
/// only king are those its own attack pattern reaches, by symmetry).
pub fn drop_squares(b: &Board, role: Role) -> Bitboard {
    let us = b.turn();
    if role == Role::King && b.pieces(us, Role::King).count() != 1 {
        return Bitboard::EMPTY;
    }
    let occ = b.occupied();
    let mut squares = !occ;
    if role == Role::Pawn {
        squares = squares - Bitboard::relative_rank(us, 0) - Bitboard::relative_rank(us, 7);
    }
    if let Some(k) = royal_king(b, us.other()) {
        let checking = match role {
            Role::Pawn => attacks::pawn_attacks(us.other(), k),
            r => attacks::attacks(r, us, k, occ),
        };
        squares -= checking;
    }
    squares
}

/// Places a dropped piece (the caller records the board operation).
pub fn place(b: &mut Board, role: Role, sq: Square) {
    b.set_piece(sq, Some(Piece::new(b.turn(), role)));
}

/// The cheapest drop (its price) that may be made now on one of `squares`, or `None`.
fn cheapest_drop_on(b: &Board, squares: Bitboard, costs: &Costs) -> Option<u32> {
    let mut best: Option<u32> = None;
    for sq in squares {
        for role in Role::ALL {
            let c = costs.drop.get(role);
            if best.is_none_or(|x| c < x) && drop_allowed(b, role, sq) {
                best = Some(c);
            }
        }
    }
    best
}

/// Every square where `role` could be dropped by the side to move of `b` in some sequence
/// of this turn's drops costing at most `budget` (`None`: any price), ignoring the
/// mover's own king: where the drop is allowed now, or where it would check the enemy's
/// only king along a line that one drop first can block
/// (`rule_drop_guess_names_squares_a_blocking_drop_opens`).
///
/// One blocker is always enough, and the cheapest one that is allowed now is the one to
/// price: drops only add pieces, so a check by a non-line pattern (pawn, knight, king) or
/// from an adjacent square never goes away, and a blocked line needs a piece between the
/// square and the king; of any set of blockers that lets the drop in, the one nearest the
/// king stands on an open line to it, so it was allowed on its own (a piece that checks
/// along that line never could be), and it alone blocks the line. So the search is one
/// scan of the squares between, whatever the budget.
pub fn reachable_drop_squares(
    b: &Board,
    role: Role,
    budget: Option<u32>,
    costs: &Costs,
) -> Bitboard {
    let cost = costs.drop.get(role);
    if budget.is_some_and(|x| x < cost) {
        return Bitboard::EMPTY;
    }
    let mut out = drop_squares(b, role);
    let us = b.turn();
    let Some(k) = royal_king(b, us.other()) else {
        return out;
    };
    if !matches!(role, Role::Bishop | Role::Rook | Role::Queen) {
        return out;
    }
    let occ = b.occupied();
    let blocked = attacks::attacks(role, us, k, occ) - occ;
    for sq in blocked {
        let between = attacks::between(sq, k);
        if between.is_empty() {
            continue;
        }
        if let Some(c) = cheapest_drop_on(b, between, costs) {
            if budget.is_none_or(|x| c + cost <= x) {
                out |= Bitboard::from_square(sq);
            }
        }
    }
    out
}

/// Answers of [`can_end`] already worked out, by (position key, balance).
pub type EndMemo = std::collections::HashMap<(u64, u32), bool>;

/// The squares of lines into the mover's king zone: strictly between an enemy line piece
/// (bishop, rook, queen) and a square within two king steps of `king`, occupancy ignored
/// (bought moves can open lines). A piece dropped there can block the check or a line to
/// a square the king may move to.
pub fn king_zone_lines(b: &Board, king: Square) -> Bitboard {
    let them = b.turn().other();
    let mut zone = Bitboard::EMPTY;
    for sq in Square::all() {
        if sq.distance(king) <= 2 {
            zone |= Bitboard::from_square(sq);
        }
    }
    let mut out = Bitboard::EMPTY;
    for role in [Role::Bishop, Role::Rook, Role::Queen] {
        for a in b.pieces(them, role) {
            for x in attacks::attacks(role, them, a, Bitboard::EMPTY) & zone {
                out |= attacks::between(a, x);
            }
        }
    }
    out
}

/// Whether the turn can still end legally from `b` (the mover to move, drops made, no
/// move yet) with `balance` Zorkmids, by further drops and then at most `left` bought
/// moves (`rule_drop_offered_when_a_later_drop_can_end_the_check`).
///
/// The further drops counted (the lab's bounded reading of RULES.md, documented in the
/// module doc): any number of drops on [`king_zone_lines`] (which include every square
/// that blocks the check), and drops of a piece that attacks a checking piece (to take
/// it with a bought move). Drops add pieces and nothing else, so these are the drops
/// that act on the check itself; a further drop elsewhere would only count through a
/// bought move of the dropped piece to some other square, or through a line to the
/// enemy king, and searching those too multiplies the work by every empty square at
/// every level. Bounded: each drop costs at least `costs.drop.min()` (positive), so a
/// line of drops is at most `balance / min` long, and a set of drops reached in any
/// order is one position in `memo`. Blocks are tried first; they usually end the search.
/// Still, the sets of drops that fail grow with the balance (a balance of 400 took
/// seconds for one list), so once the running decision's deadline has passed
/// ([`crate::deadline`]) an unfinished search answers "cannot end": the drop is left out
/// of a searching agent's list, and every drop listed is legal (issue 64).
pub fn can_end(
    b: &mut Board,
    balance: u32,
    left: u32,
    start_check: bool,
    costs: &Costs,
    memo: &mut EndMemo,
) -> bool {
    let mover = b.turn();
    let Some(king) = royal_king(b, mover) else {
        return true;
    };
    if !b.is_attacked(king, mover.other()) {
        return true;
    }
    let lines = king_zone_lines(b, king);
    end_search(b, king, lines, balance, left, start_check, costs, memo)
}

/// The further drops [`can_end`] counts for `role` on `b`, blocks of the check first.
pub fn further_drops(b: &Board, king: Square, lines: Bitboard, role: Role) -> [Bitboard; 2] {
    let us = b.turn();
    let occ = b.occupied();
    let checkers = b.attackers_to(king, us.other(), occ);
    let mut blocks = Bitboard::EMPTY;
    let mut attackers = Bitboard::EMPTY;
    for c in checkers {
        blocks |= attacks::between(c, king);
        attackers |= match role {
            Role::Pawn => attacks::pawn_attacks(us.other(), c),
            r => attacks::attacks(r, us, c, occ),
        };
    }
    let squares = drop_squares(b, role);
    let blocks = squares & blocks;
    [blocks, squares & ((lines | attackers) - blocks)]
}

#[allow(clippy::too_many_arguments)]
fn end_search(
    b: &mut Board,
    king: Square,
    lines: Bitboard,
    balance: u32,
    left: u32,
    start_check: bool,
    costs: &Costs,
    memo: &mut EndMemo,
) -> bool {
    if !in_check(b, b.turn()) {
        return true;
    }
    let key = (b.key(), balance);
    if let Some(&r) = memo.get(&key) {
        return r;
    }
    if crate::deadline::passed() {
        // A searching agent's time is up (crate::deadline): the drops not yet shown to
        // end the turn are left out of its list, never offered unchecked.
        return false;
    }
    let mut r = completes(b, &mut Vec::new(), balance, left, start_check, costs);
    if !r && balance >= costs.drop.min() {
        let groups: Vec<[Bitboard; 2]> = Role::ALL
            .iter()
            .map(|&role| further_drops(b, king, lines, role))
            .collect();
        'search: for i in 0..2 {
            for (role, g) in Role::ALL.into_iter().zip(&groups) {
                let cost = costs.drop.get(role);
                if cost > balance {
                    continue;
                }
                for sq in g[i] {
                    place(b, role, sq);
                    let ok = end_search(
                        b,
                        king,
                        lines,
                        balance - cost,
                        left,
                        start_check,
                        costs,
                        memo,
                    );
                    b.set_piece(sq, None);
                    if ok {
                        r = true;
                        break 'search;
                    }
                }
            }
        }
    }
    memo.insert(key, r);
    r
}

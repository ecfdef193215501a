//! Static exchange evaluation on the orthodox board: what a capture wins in centipawns
//! once both sides have recaptured on its square for as long as it pays them, the
//! least valuable attacker first (the swap algorithm), x-rays included because the
//! attackers are recomputed against the shrinking occupancy.
//!
//! The search uses it only where the game's facts say captures are the board's ordinary
//! ones (`GameFacts::static_exchange`: orthodox chess and Chess960): the
//! quiescence search skips
//! captures that lose material and the move ordering puts them after the quiet moves'
//! killers. Decisions: a promotion counts only the piece taken (the new piece's gain is
//! left to the search); the king may take last (worth more than anything, so a side
//! never "wins" by letting it be taken); pins are ignored, as usual for SEE. The value
//! is exact (no early stop once its sign is settled); the search reads only the sign,
//! which the early-stopping version that played the rating games gives too
//! (`see_sign_is_the_early_stopping_versions`). Tests: `see_*` below.

use crate::eval::role_value;
use engine::{Bitboard, Board, Move, MoveKind, Role, Square};

/// The king's value in exchanges: more than all the other material together.
const KING_VALUE: i32 = 20_000;

#[inline]
fn value(role: Role) -> i32 {
    if role == Role::King {
        KING_VALUE
    } else {
        role_value(role)
    }
}

/// What `m` (a legal move of the side to move on `b`) wins by exchanges on its target
/// square; 0 for a quiet move the opponent cannot take profitably, negative where the
/// mover loses material.
pub fn see(b: &Board, m: Move) -> i32 {
    exchange(b, m, false)
}

/// Whether `m` loses material by exchange (`see(b, m) < 0`), without the exchange
/// where the piece taken is worth at least the piece taking it: the opponent's best
/// answer wins at most the taker back, so such a capture never loses (test
/// `loses_material_is_the_sign_of_see`).
#[inline]
pub fn loses_material(b: &Board, m: Move) -> bool {
    if let (Some(victim), Some(mover)) = (b.captured_piece(m), b.piece_at(m.from())) {
        if value(victim.role) >= value(mover.role) {
            return false;
        }
    }
    see(b, m) < 0
}

/// The swap algorithm; with `stop_when_settled` it stops once the sign can no longer
/// change (the usual shortcut, kept for the test that compares signs).
fn exchange(b: &Board, m: Move, stop_when_settled: bool) -> i32 {
    if m.kind() == MoveKind::Castle {
        return 0;
    }
    let (from, to) = (m.from(), m.to());
    let Some(mover) = b.piece_at(from) else {
        return 0;
    };
    let mut occ = b.occupied().without(from);
    if m.kind() == MoveKind::EnPassant {
        occ = occ.without(Square::from_coords(to.file(), from.rank()));
    }
    let mut gain = [0i32; 34];
    gain[0] = b.captured_piece(m).map_or(0, |p| value(p.role));
    // The piece standing on the target square, which the next capture would take.
    let mut on_target = value(mover.role);
    let mut side = mover.color.other();
    let mut d = 0;
    while let Some((sq, role)) = least_valuable(b, b.attackers_to(to, side, occ) & occ) {
        d += 1;
        gain[d] = on_target - gain[d - 1];
        let settled = stop_when_settled && (-gain[d - 1]).max(gain[d]) < 0;
        if settled || d + 1 >= gain.len() {
            break;
        }
        occ = occ.without(sq);
        on_target = value(role);
        side = side.other();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// The least valuable piece among `attackers` and its role.
#[inline]
fn least_valuable(b: &Board, attackers: Bitboard) -> Option<(Square, Role)> {
    if attackers.is_empty() {
        return None;
    }
    Role::ALL
        .into_iter()
        .find_map(|r| (attackers & b.by_role(r)).first().map(|sq| (sq, r)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let b = Board::from_fen(fen).unwrap();
        let m = b.parse_uci(uci).unwrap();
        assert!(b.is_legal(m), "{uci} is not legal in {fen}");
        see(&b, m)
    }

    #[test]
    fn see_takes_an_undefended_piece_whole() {
        // Rook takes a lone pawn on e5.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
    }

    #[test]
    fn see_counts_the_recaptures_and_the_xrays() {
        // Nxe5 Nxe5 Rxe5 Bxe5 Qxe5 Qxe5: Black's queen joins through the bishop (an
        // x-ray); White does best to stop after ...Nxe5, a knight for a pawn.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert_eq!(see_of(fen, "d3e5"), 100 - 320);
    }

    #[test]
    fn see_lets_a_side_stop_taking() {
        // Queen takes a pawn defended by a pawn: the queen for a pawn.
        assert_eq!(
            see_of("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5"),
            100 - 900
        );
        // Pawn takes a knight; the queen would take back only to lose itself to the rook.
        assert_eq!(see_of("q3k3/8/8/3n4/4P3/8/8/3RK3 w - - 0 1", "e4d5"), 320);
        // Without the rook the queen wins the pawn back.
        assert_eq!(
            see_of("q3k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
            320 - 100
        );
    }

    #[test]
    fn see_of_a_quiet_move_is_what_the_opponent_can_take() {
        assert_eq!(see_of("4k3/8/3p4/8/8/8/8/1N2K3 w - - 0 1", "b1c3"), 0);
        assert_eq!(see_of("4k3/8/3p4/8/8/3N4/8/4K3 w - - 0 1", "d3c5"), -320);
    }

    #[test]
    fn see_lets_the_king_take_last() {
        assert_eq!(see_of("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2"), 100);
        // Rxd7 Rxd7 Kxd7: the king ends the exchange, a pawn up.
        assert_eq!(see_of("3r2k1/3pK3/8/8/8/8/8/3R4 w - - 0 1", "d1d7"), 100);
        // Without the king the rook is lost for the pawn.
        assert_eq!(
            see_of("3r2k1/3p4/8/8/8/8/8/3RK3 w - - 0 1", "d1d7"),
            100 - 500
        );
    }

    /// Calls `f` with every legal move of every position of 200 seeded random games.
    fn every_move_of_random_games(seed: u64, mut f: impl FnMut(&Board, Move)) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        for _ in 0..200 {
            let mut b = Board::startpos();
            for _ in 0..rng.gen_range(0..120) {
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    f(&b, m);
                }
                let m = moves.as_slice()[rng.gen_range(0..moves.len())];
                b.make(m);
            }
        }
    }

    /// The early-stopping swap (the version that played generation 3's rating games)
    /// must give the exact value's sign, over every move of positions from seeded random
    /// games: the search reads only the sign.
    #[test]
    fn see_sign_is_the_early_stopping_versions() {
        let mut checked = 0;
        every_move_of_random_games(36, |b, m| {
            if m.kind() != MoveKind::Castle {
                assert_eq!(see(b, m).signum(), exchange(b, m, true).signum(), "{m:?}");
                checked += 1;
            }
        });
        assert!(checked > 10_000, "{checked}");
    }

    /// The shortcut answers as SEE's sign does, on moves where it applies (the count
    /// shows it is exercised) and elsewhere.
    #[test]
    fn loses_material_is_the_sign_of_see() {
        let mut shortcut = 0;
        every_move_of_random_games(37, |b, m| {
            assert_eq!(loses_material(b, m), see(b, m) < 0, "{m:?}");
            let taken = b.captured_piece(m).map(|p| value(p.role));
            let taker = b.piece_at(m.from()).map(|p| value(p.role));
            shortcut += usize::from(taken.is_some() && taken >= taker);
        });
        assert!(shortcut > 1_000, "{shortcut}");
    }

    #[test]
    fn see_of_en_passant_takes_the_pawn() {
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
    }
}

//! Chess960 start positions by Scharnagl number (0..959; 518 is the orthodox start).

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::square::{Color, Piece, Role, Square};

/// Knight placements over the five squares left after bishops and queen (Scharnagl's table).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The back rank (files a..h) of start position `n`; `n` must be below 960.
pub fn back_rank(n: u16) -> [Role; 8] {
    assert!(n < 960, "Chess960 position numbers are 0..959");
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = n as usize;
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    n /= 4;
    let free = |rank: &[Option<Role>; 8]| -> Vec<usize> {
        (0..8).filter(|&i| rank[i].is_none()).collect()
    };
    let q = n % 6;
    n /= 6;
    rank[free(&rank)[q]] = Some(Role::Queen);
    let (a, b) = KNIGHTS[n];
    let f = free(&rank);
    rank[f[a]] = Some(Role::Knight);
    rank[f[b]] = Some(Role::Knight);
    let f = free(&rank);
    rank[f[0]] = Some(Role::Rook);
    rank[f[1]] = Some(Role::King);
    rank[f[2]] = Some(Role::Rook);
    rank.map(|r| r.expect("every file filled"))
}

/// The full start position `n` with all four castling rights. Position 518 is returned in
/// standard mode (orthodox notation), every other in Chess960 mode.
pub fn start_position(n: u16) -> Board {
    let roles = back_rank(n);
    let mut b = Board::empty();
    let mut rights = Bitboard::EMPTY;
    for (file, &role) in roles.iter().enumerate() {
        let file = file as u8;
        for (color, back, pawn) in [(Color::White, 0, 1), (Color::Black, 7, 6)] {
            let sq = Square::from_coords(file, back);
            b.set_piece(sq, Some(Piece::new(color, role)));
            b.set_piece(
                Square::from_coords(file, pawn),
                Some(Piece::new(color, Role::Pawn)),
            );
            if role == Role::Rook {
                rights.set(sq);
            }
        }
    }
    b.set_chess960(n != 518);
    b.set_state(Color::White, rights, None, 0, 1);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scharnagl_518_is_orthodox() {
        assert_eq!(
            start_position(518).fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn scharnagl_known_numbers() {
        // Published anchors: 0 = BBQNNRKR, 959 = RKRNNQBB.
        let s = |n| {
            back_rank(n)
                .iter()
                .map(|r| r.char().to_ascii_uppercase())
                .collect::<String>()
        };
        assert_eq!(s(0), "BBQNNRKR");
        assert_eq!(s(959), "RKRNNQBB");
    }

    #[test]
    fn all_960_distinct_and_legal() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let r = back_rank(n);
            assert!(seen.insert(r));
            let b = start_position(n);
            assert!(b.legal_moves().len() >= 18, "position {n}");
        }
    }
}

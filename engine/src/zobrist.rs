//! Zobrist hashing keys, fixed at compile time so keys are stable across runs and builds
//! (transposition tables and recorded keys stay comparable).

use crate::random::{splitmix64, splitmix64_table as table};
use crate::square::{Color, Piece, Square};

static PIECE_SQUARE: [u64; 12 * 64] = table(0x0123_4567_89ab_cdef);
static CASTLING: [u64; 64] = table(0x5eed_ca57_1e00_0001);
static EN_PASSANT: [u64; 8] = table(0x5eed_e9a5_5a47_0002);
/// XOR-ed in when black is to move.
pub const BLACK_TO_MOVE: u64 = 0xd1b5_4a32_d192_ed03;

#[inline(always)]
pub fn piece(p: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[p.index() * 64 + sq.index()]
}

/// Key of a castling right, identified by its rook's starting square.
#[inline(always)]
pub fn castling(rook_square: Square) -> u64 {
    CASTLING[rook_square.index()]
}

#[inline(always)]
pub fn en_passant(file: u8) -> u64 {
    EN_PASSANT[file as usize]
}

#[inline(always)]
pub fn side(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => BLACK_TO_MOVE,
    }
}

/// A general-purpose key table for variants that hash extra state (burial grids,
/// hands, counters): `extra(i)` is a fixed pseudo-random word for any index.
pub const fn extra(i: u64) -> u64 {
    splitmix64(i.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0xabcd_ef01_2345_6789)
}

//! The chesslab engine: bitboards, attack tables, the orthodox board with make/unmake,
//! the game API every variant implements, and the variants themselves.

pub mod attacks;
pub mod bitboard;
pub mod square;

pub use bitboard::Bitboard;
pub use square::{Color, Piece, Role, Square};
pub mod variants;

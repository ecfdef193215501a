//! The chesslab engine: bitboards, attack tables, the orthodox board with make/unmake,
//! the game API every variant implements, and the variants themselves.
//!
//! ```
//! use engine::{Board, perft::perft};
//! let mut b = Board::startpos();
//! assert_eq!(perft(&mut b, 3), 8902);
//! let e4 = b.parse_san("e4").unwrap();
//! b.make(e4);
//! assert_eq!(b.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! b.unmake();
//! assert_eq!(b, Board::startpos());
//! ```

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod chess960;
pub mod deadline;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod random;
pub mod registry;
pub mod square;
pub mod suggest;
pub mod variants;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, MaterialRule, Outcome, Termination};
pub use fen::{CastlingMode, FenError};
pub use moves::{Move, MoveKind, MoveList};
pub use notation::MoveParseError;
pub use square::{Color, Piece, Role, Square};

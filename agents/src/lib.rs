//! Every chesslab decision maker, behind one `Agent` trait.

pub mod golf;

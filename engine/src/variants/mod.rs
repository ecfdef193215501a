//! One module per variant, each a rule set on top of the engine's primitives.

pub mod chess;
pub mod golf;
pub mod half_alice;

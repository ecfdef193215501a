//! Every chesslab decision maker, behind one [`Agent`] trait, built from spec strings
//! such as `alphabeta:depth=3` by [`registry::build`]. Each agent's keys are a schema
//! ([`settings`]) that spec reading, help texts and tuners share; which agent plays which
//! game, and what it falls back to, is [`fallback`]'s.
//!
//! Module order: `mcts` (UCT) <- `ismcts` (ISMCTS and PIMC, built on UCT) <- `alphabeta`,
//! `expectimax` (which fall back to them) <- `registry`; `fallback` answers questions
//! about games and depends on no search.
//!
//! ```
//! use agents::registry::build;
//! use engine::game::{Game, Turn};
//! use engine::variants::chess::{Chess, ChessParams};
//! use rand::SeedableRng;
//!
//! let game = Chess::new(&ChessParams::default());
//! let mut agent = build::<Chess>("greedy").unwrap();
//! let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
//! let Turn::Seat(seat) = game.turn() else { unreachable!() };
//! let action = agent.act(&game, seat, &mut rng);
//! assert!(game.action_notation(action).len() >= 4);
//! assert!(build::<Chess>("nosuch").is_err());
//! ```

pub mod alphabeta;
pub mod baseline;
pub mod clairvoyant;
pub mod common;
pub mod eval;
pub mod expectimax;
pub mod fallback;
pub mod golf;
pub mod ismcts;
pub mod mcts;
pub mod registry;
pub mod settings;
pub mod spec;
pub mod testgames;

use engine::game::{Game, Seat};
use rand_pcg::Pcg64;

pub use spec::{AgentError, Spec};

/// A decision maker for games of type `G`.
///
/// `act` receives the true state, but an agent for hidden-information games must use
/// only what `seat` may know: `information_key(seat)`, `observation(seat)`,
/// `sample_world(seat, rng)` and its own legal actions. Only `cheat` looks further, by
/// design. At simultaneous nodes `act` is called once per acting seat and returns that
/// seat's part of the joint action.
pub trait Agent<G: Game>: Send {
    /// The spec string that rebuilds this agent (for records).
    fn spec(&self) -> String;

    /// Chooses an action for `seat`. Called only when `seat` has legal actions.
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action;

    /// Forgets anything carried between moves (called before each new game).
    fn reset(&mut self) {}
}

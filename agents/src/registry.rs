//! The one list of agents: spec names mapped to constructors.

use crate::baseline::{GreedyAgent, RandomAgent};
use crate::spec::{AgentError, Spec};
use crate::Agent;
use engine::game::Game;

/// Every agent name, as help texts list them.
pub const AGENTS: &[&str] = &["random", "greedy"];

/// Builds an agent for games of type `G` from a spec string such as `greedy` or
/// `alphabeta:depth=3`.
pub fn build<G: Game>(spec: &str) -> Result<Box<dyn Agent<G>>, AgentError> {
    let s = Spec::parse(spec)?;
    Ok(match s.name.as_str() {
        "random" => Box::new(RandomAgent::from_spec(&s)?),
        "greedy" => Box::new(GreedyAgent::from_spec(&s)?),
        other => return Err(AgentError::UnknownAgent(other.into(), AGENTS.join(", "))),
    })
}

/// Checks a spec without building for a particular game (for early CLI validation).
pub fn validate<G: Game>(spec: &str) -> Result<(), AgentError> {
    build::<G>(spec).map(|_| ())
}

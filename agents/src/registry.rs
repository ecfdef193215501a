//! The one list of agents: spec names mapped to constructors.
//!
//! | name | what | keys |
//! | --- | --- | --- |
//! | `random`, `greedy` | baselines | none |
//! | `alphabeta` | negamax, ID, TT, quiescence | `depth nodes time_ms seed quiescence tt_bits worlds iters noise` |
//! | `mcts` | UCT | `iters nodes time_ms c seed rollout cutoff` |
//! | `cheat` | UCT on the true state | as `mcts` |
//! | `smmcts` | simultaneous-move MCTS | as `mcts`, plus `select=duct\|rm gamma` |
//! | `ismcts` | information-set MCTS | as `mcts`, plus `mode=so\|mo` |
//! | `pimc` | determinized UCT with voting | as `mcts`, plus `worlds` |
//! | `expectimax` | *-minimax | `depth nodes time_ms seed star=none\|0\|1\|2 iters` |

use crate::alphabeta::AlphaBetaAgent;
use crate::baseline::{GreedyAgent, RandomAgent};
use crate::expectimax::ExpectimaxAgent;
use crate::ismcts::{IsMctsAgent, PimcAgent};
use crate::mcts::{MctsAgent, MctsKind};
use crate::spec::{AgentError, Spec};
use crate::Agent;
use engine::game::Game;

/// Every agent name, as help texts list them.
pub const AGENTS: &[&str] = &[
    "random",
    "greedy",
    "alphabeta",
    "mcts",
    "expectimax",
    "ismcts",
    "smmcts",
    "cheat",
    "pimc",
];

/// Builds an agent for games of type `G` from a spec string such as `greedy` or
/// `alphabeta:depth=3`.
pub fn build<G: Game>(spec: &str) -> Result<Box<dyn Agent<G>>, AgentError> {
    let s = Spec::parse(spec)?;
    Ok(match s.name.as_str() {
        "random" => Box::new(RandomAgent::<G>::from_spec(&s)?),
        "greedy" => Box::new(GreedyAgent::from_spec(&s)?),
        "alphabeta" => Box::new(AlphaBetaAgent::<G>::from_spec(&s)?),
        "mcts" => Box::new(MctsAgent::from_spec(&s, MctsKind::Plain)?),
        "cheat" => Box::new(MctsAgent::from_spec(&s, MctsKind::Cheat)?),
        "smmcts" => Box::new(MctsAgent::from_spec(&s, MctsKind::Sm)?),
        "ismcts" => Box::new(IsMctsAgent::from_spec(&s)?),
        "pimc" => Box::new(PimcAgent::from_spec(&s)?),
        "expectimax" => Box::new(ExpectimaxAgent::from_spec(&s)?),
        other => return Err(AgentError::UnknownAgent(other.into(), AGENTS.join(", "))),
    })
}

/// Checks a spec without building for a particular game (for early CLI validation).
pub fn validate<G: Game>(spec: &str) -> Result<(), AgentError> {
    build::<G>(spec).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::variants::chess::Chess;

    #[test]
    fn every_agent_builds_and_unknown_keys_are_named() {
        for name in AGENTS {
            assert!(build::<Chess>(name).is_ok(), "{name}");
        }
        for spec in [
            "alphabeta:depth=3,nodes=1000",
            "mcts:iters=50,rollout=heavy,cutoff=20,c=0.7,seed=3",
            "smmcts:select=rm,gamma=0.2",
            "ismcts:mode=mo,time_ms=10",
            "expectimax:star=1,depth=2",
        ] {
            assert!(build::<Chess>(spec).is_ok(), "{spec}");
        }
        let e = build::<Chess>("mcts:depth=3").err().unwrap();
        assert!(matches!(e, AgentError::UnknownKey { .. }), "{e}");
        assert!(e.to_string().contains("depth"));
        for bad in [
            "mcts:rollout=smart",
            "smmcts:select=exp3",
            "ismcts:mode=xo",
            "alphabeta:depth=0",
            "mcts:iters=0",
            "expectimax:star=3",
        ] {
            let e = build::<Chess>(bad).err().unwrap();
            assert!(matches!(e, AgentError::BadValue { .. }), "{bad}: {e}");
        }
    }
}

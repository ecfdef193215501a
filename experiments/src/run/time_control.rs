//! `--tc` of `tournament` and `balance`: one clock for every agent that keeps one, so
//! built-in agents and outside engines are compared at equal time rather than equal
//! depth or iterations.
//!
//! Decisions (the issue says only "a tournament time control, `tc=` for built-in agents
//! as for UCI engines"):
//! - The clock is written into each spec as its `tc=` key (`alphabeta` → `alphabeta:tc=
//!   10+0.1`), so games.csv, run.json and the standings name what was played and a
//!   resumed run with the same `--tc` finds the same specs.
//! - A spec that already gives its own time (`tc`, `time_ms`, `movetime`) keeps it: the
//!   flag fills in, it does not override what was asked for one agent.
//! - An agent that plays by iterations or nodes and keeps no clock (`mcts`, `ismcts`,
//!   ...) is refused unless its spec gives `time_ms`: silently letting it play by
//!   iterations would not be equal time. Agents without any budget (`random`,
//!   `greedy`) take no time and are left as they are.
//!
//! Tests: below (`tc_*`) and `tournament_tc_*` in experiments/tests/cli_tc.rs.

use agents::registry;
use agents::spec::Spec;
use agents::uci::tc::TimeControl;
use anyhow::{anyhow, bail, Result};

/// Keys by which a spec already sets its own time.
const OWN_TIME: [&str; 3] = ["tc", "time_ms", "movetime"];

/// `specs` with `tc=<tc>` added where the agent keeps a clock and sets no time of its
/// own (see the module docs); an error names a bad time control or an agent that would
/// not play by time.
pub fn with_tc(specs: &[String], tc: &str) -> Result<Vec<String>> {
    TimeControl::parse(tc).map_err(|e| anyhow!("--tc: {e}"))?;
    specs
        .iter()
        .map(|text| {
            let spec = Spec::parse(text).map_err(|e| anyhow!("--agents: {e}"))?;
            if OWN_TIME.iter().any(|k| spec.raw(k).is_some()) {
                return Ok(text.clone());
            }
            let schema = registry::schema(&spec.name)
                .ok_or_else(|| anyhow!("--agents: unknown agent '{}'", spec.name))?;
            let has = |key: &str| schema.iter().any(|s| s.key == key);
            if has("tc") {
                let sep = if text.contains(':') { ',' } else { ':' };
                Ok(format!("{text}{sep}tc={tc}"))
            } else if has("time_ms") {
                bail!(
                    "--tc {tc}: agent '{}' keeps no clock (it plays by iterations or nodes); give it a time per move ('{}:time_ms=100') or leave it out",
                    spec.name,
                    spec.name
                )
            } else {
                Ok(text.clone())
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn tc_is_added_to_agents_with_a_clock() {
        let got = with_tc(
            &specs(&[
                "alphabeta",
                "alphabeta:depth=3",
                "uci:cmd=stockfish",
                "random",
            ]),
            "10+0.1",
        )
        .unwrap();
        assert_eq!(
            got,
            specs(&[
                "alphabeta:tc=10+0.1",
                "alphabeta:depth=3,tc=10+0.1",
                "uci:cmd=stockfish,tc=10+0.1",
                "random",
            ])
        );
    }

    #[test]
    fn tc_keeps_an_agents_own_time() {
        let own = specs(&[
            "alphabeta:time_ms=50",
            "alphabeta:tc=5+0.05",
            "uci:cmd=sf,movetime=100",
            "mcts:time_ms=100",
        ]);
        assert_eq!(with_tc(&own, "10+0.1").unwrap(), own);
    }

    #[test]
    fn tc_refuses_agents_without_a_clock_and_bad_clocks() {
        let e = with_tc(&specs(&["alphabeta", "mcts"]), "10+0.1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("'mcts'") && e.contains("time_ms"), "{e}");
        let e = with_tc(&specs(&["alphabeta"]), "ten")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--tc") && e.contains("'ten'"), "{e}");
        let e = with_tc(&specs(&["nosuch"]), "10").unwrap_err().to_string();
        assert!(e.contains("nosuch"), "{e}");
    }
}

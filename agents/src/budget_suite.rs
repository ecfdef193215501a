//! The budget conformance suite (issue 64), beside the game conformance check
//! (`engine::game::conformance`): every search agent, on every game it plays, with a
//! time, a node and an iteration budget, decides at positions reached by seeded random
//! play, and each decision is timed and counted. `agents/tests/budgets.rs` asserts on
//! it (node and iteration budgets exactly, time budgets with generous bounds), and the
//! `budgets` binary of `benches/` prints each pair's mean and p99 decision time over the
//! budget (results/budgets).
//!
//! Decisions where the issue is silent:
//! - The games are every entry of the variant table with its default parameters, plus
//!   secret Cassandra and a Clairvoyant Chess whose sides start with
//!   [`RICH_BALANCE`] Zorkmids each ("clairvoyant-rich"): a decision's listing of drops
//!   and purchases grows with the balance, the class of the unfinished games.
//! - Positions are those after [`PLIES`] random actions (chance and simultaneous nodes
//!   included) from the start, a fresh seeded game for each; a game that ends earlier is
//!   replaced by the next seed's. At a simultaneous node the first acting seat decides.
//! - The agents are [`AGENTS`]; `random`, `greedy` and `clairvoyant` have no budget
//!   and are timed only by the benchmark.

use crate::registry;
use crate::spec::AgentError;
use crate::{Agent, SearchStats};
use engine::game::{Game, Seat, Turn};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::time::{Duration, Instant};

/// The search agents every budget applies to, as spec bases.
pub const AGENTS: &[&str] = &[
    "alphabeta",
    "pimc",
    "pimc:search=alphabeta",
    "expectimax",
    "mcts",
    "ismcts",
    "smmcts",
    "cheat",
];

/// Agents without a budget, timed by the benchmark for comparison.
pub const UNBUDGETED: &[&str] = &["random", "greedy", "clairvoyant"];

/// Random actions before each position of the suite.
pub const PLIES: &[usize] = &[6, 24, 60];

/// Zorkmids each side starts with in "clairvoyant-rich".
pub const RICH_BALANCE: u32 = 400;

/// The games of the suite: (label, variant name, parameters as TOML).
pub fn games() -> Vec<(String, &'static str, Option<String>)> {
    let mut v: Vec<(String, &'static str, Option<String>)> = engine::registry::VARIANTS
        .iter()
        .map(|&n| (n.to_string(), n, None))
        .collect();
    v.push((
        "cassandra-secret".into(),
        "cassandra",
        Some("secret = true".into()),
    ));
    v.push((
        "clairvoyant-rich".into(),
        "clairvoyant",
        Some(format!(
            "white_balance = {RICH_BALANCE}\nblack_balance = {RICH_BALANCE}"
        )),
    ));
    v
}

/// `base` with one more key (`key=value`).
pub fn with_key(base: &str, kv: &str) -> String {
    if base.contains(':') {
        format!("{base},{kv}")
    } else {
        format!("{base}:{kv}")
    }
}

/// Positions where a seat decides, after each of `plies` random actions from `start`
/// (one seeded game each, from `seed`).
pub fn positions<G: Game>(start: &G, seed: u64, plies: &[usize]) -> Vec<(G, Seat)> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    for (k, &want) in plies.iter().enumerate() {
        'attempt: for attempt in 0..8u64 {
            let mut rng = Pcg64::seed_from_u64(seed ^ ((k as u64) << 32) ^ (attempt << 48));
            let mut g = start.clone();
            let mut done = 0;
            loop {
                let decider = match g.turn() {
                    Turn::Terminal => continue 'attempt,
                    Turn::Seat(s) => Some(s),
                    Turn::Simultaneous => g.simultaneous_seats().first().copied(),
                    Turn::Chance => None,
                };
                if done >= want {
                    if let Some(s) = decider {
                        out.push((g, s));
                        break 'attempt;
                    }
                }
                match g.turn() {
                    Turn::Chance => {
                        g.chance_outcomes(&mut outcomes);
                        let i = engine::random::sample_index(&outcomes, &mut rng);
                        g.apply(outcomes[i].0);
                    }
                    Turn::Seat(s) => {
                        g.legal_actions(s, &mut legal);
                        g.apply(legal[rng.gen_range(0..legal.len())]);
                    }
                    Turn::Simultaneous => {
                        let mut joint = Vec::new();
                        for s in g.simultaneous_seats() {
                            g.legal_actions(s, &mut legal);
                            joint.push(legal[rng.gen_range(0..legal.len())]);
                        }
                        g.apply_joint(&joint);
                    }
                    Turn::Terminal => unreachable!(),
                }
                done += 1;
            }
        }
    }
    out
}

/// One decision: what was chosen (in notation), its wall time and the agent's counts.
#[derive(Clone, Debug)]
pub struct Decision {
    pub action: String,
    pub time: Duration,
    pub stats: Option<SearchStats>,
}

/// Builds `spec` for `G` (`None` where the agent does not play the game) and lets it
/// decide at `position` for `seat`, from a caller stream seeded by `seed`.
pub fn decide<G: Game>(
    spec: &str,
    position: &G,
    seat: Seat,
    seed: u64,
) -> Result<Option<Decision>, AgentError> {
    let mut agent: Box<dyn Agent<G>> = match registry::build::<G>(spec) {
        Ok(a) => a,
        Err(AgentError::Unsupported { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut rng = Pcg64::seed_from_u64(seed);
    let started = Instant::now();
    let a = agent.act(position, seat, &mut rng);
    let time = started.elapsed();
    Ok(Some(Decision {
        action: position.action_notation(a),
        time,
        stats: agent.search_stats(),
    }))
}

/// The p-th percentile (nearest rank, `p` in 0..=100) of `times`.
pub fn percentile(times: &[Duration], p: f64) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    let mut v = times.to_vec();
    v.sort_unstable();
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

/// The mean of `times`.
pub fn mean(times: &[Duration]) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    times.iter().sum::<Duration>() / times.len() as u32
}

/// The bound on one decision under a time budget: max(1.5 x budget,
/// budget + 20 ms).
pub fn bound(budget: Duration) -> Duration {
    (budget * 3 / 2).max(budget + Duration::from_millis(20))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_helpers_follow_their_rules() {
        let ms = Duration::from_millis;
        assert_eq!(bound(ms(20)), ms(40));
        assert_eq!(bound(ms(50)), ms(75));
        let t: Vec<Duration> = (1..=100).map(ms).collect();
        assert_eq!(percentile(&t, 99.0), ms(99));
        assert_eq!(percentile(&t, 100.0), ms(100));
        assert_eq!(mean(&t), Duration::from_micros(50_500));
        assert_eq!(with_key("pimc", "iters=5"), "pimc:iters=5");
        assert_eq!(
            with_key("pimc:search=alphabeta", "nodes=5"),
            "pimc:search=alphabeta,nodes=5"
        );
    }
}

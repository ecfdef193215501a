//! The one list of agents: spec names mapped to constructors and settings schemas
//! ([`AGENT_TABLE`]). The keys column below, the README's Agents table and `--help`
//! ([`help`]) are generated from or checked against the schemas (tests
//! `rule_registry_doc_table_matches_the_schemas`, `rule_readme_agents_table_matches_the_schemas`),
//! so no list of keys is kept by hand.
//!
//! | name | what | keys |
//! | --- | --- | --- |
//! | `random`, `greedy` | baselines | – |
//! | `alphabeta` | negamax, ID, PVS, TT, null move, LMR, futility and late-move pruning, SEE, quiescence; a one-turn matrix game at simultaneous nodes | `depth`(4) `iters` `nodes` `time_ms` `seed` `quiescence`(true) `tt_bits`(18) `worlds`(10) `noise`(0) `tc` `pvs`(true) `aspiration`(true) `null_move`(true) `lmr`(true) `check_extension`(true) `futility`(true) `lmp`(true) `see`(true) `iir`(false) `lmr_adaptive`(false) `null_adaptive`(false) `full_time`(true) `eval.*` |
//! | `mcts` | UCT | `iters`(1000) `nodes` `time_ms` `c`(1.4) `rollout=random\|heavy`(random) `cutoff`(0) `seed` `eval.*` |
//! | `cheat` | UCT on the true state | `iters`(1000) `nodes` `time_ms` `c`(1.4) `rollout=random\|heavy`(random) `cutoff`(0) `seed` `eval.*` |
//! | `smmcts` | simultaneous-move MCTS | `iters`(1000) `nodes` `time_ms` `c`(1.4) `rollout=random\|heavy`(random) `cutoff`(0) `seed` `eval.*` `select=duct\|rm`(duct) `gamma`(0.1) |
//! | `ismcts` | information-set MCTS | `iters`(1000) `nodes` `time_ms` `c`(1.4) `rollout=random\|heavy`(heavy) `cutoff`(16) `seed` `eval.*` `mode=so\|mo`(so) |
//! | `pimc` | sampled worlds searched by UCT (voting) or alphabeta (best mean) | `iters`(200) `nodes` `time_ms` `c`(1.4) `rollout=random\|heavy`(random) `cutoff`(0) `seed` `eval.*` `worlds`(10) `search=uct\|alphabeta`(uct) `depth`(3) `quiescence`(false) `risk`(0) `ties=auto\|random`(auto) |
//! | `expectimax` | *-minimax | `depth`(4) `iters` `nodes` `time_ms` `seed` `star=none\|0\|1\|2`(2) `order`(false) `quiescence`(false) `eval.*` |
//! | `clairvoyant` | Clairvoyant Chess guesser and purchase policy | `guesser=smart\|naive`(smart) `temp`(0.5) `drop_at`(25) `policy=threshold\|value`(threshold) `margin`(0.5) `zk`(0.05) `depth`(2) `repeat`(true) |
//! | `uci` | an outside UCI engine | `cmd` `option.*` `nodes` `movetime` `depth` `tc` `margin_ms`(500) `timeout_ms`(60000) |
//! | `ext` | an outside JSON-lines bot | `cmd` `tc` `margin_ms`(500) `timeout_ms`(60000) |
//!
//! `eval.*` stands for the evaluation weights `eval.pawn` ... `eval.pst` (`crate::eval`)
//! and `eval=FILE` (weights from a TOML file, e.g. `chesslab values` output). Which agent plays which game,
//! and which it refuses, is `crate::fallback`'s.

use crate::alphabeta::AlphaBetaAgent;
use crate::baseline::{GreedyAgent, RandomAgent};
use crate::clairvoyant::ClairvoyantAgent;
use crate::expectimax::ExpectimaxAgent;
use crate::fallback::{self, Route};
use crate::ismcts::{IsMctsAgent, IsMode};
use crate::mcts::{MctsAgent, MctsKind};
use crate::pimc::PimcAgent;
use crate::settings::{Kind, Setting};
use crate::spec::{AgentError, Spec};
use crate::Agent;
use engine::game::Game;

/// One agent of the lab: its spec name, what it is, the keys it reads, and what it
/// reads of a hidden-information game.
pub struct AgentInfo {
    pub name: &'static str,
    pub what: &'static str,
    pub schema: fn() -> Vec<Setting>,
    pub reads: Reads,
}

/// What an agent decides from at a seat of a hidden-information game (on perfect
/// information the two are the same). A fact beside each agent's declaration, so a
/// server or a tool asks the registry ([`reads`]) rather than keeping its own list;
/// agents claiming [`Reads::SeatInformation`] are played by
/// `agents/tests/own_information.rs` on two states a seat cannot tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Only what the seat knows: its legal actions, its observation, worlds drawn by
    /// `sample_world(seat)`, and seeds keyed by `information_key(seat)`.
    SeatInformation,
    /// The true state, hidden parts included (a reference, never a player's helper).
    TrueState,
}

fn no_settings() -> Vec<Setting> {
    Vec::new()
}

/// Every agent, in the order help texts list them.
pub const AGENT_TABLE: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        what: "uniform over legal actions",
        schema: no_settings,
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "greedy",
        what: "best one-ply material, a win above all",
        schema: no_settings,
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "alphabeta",
        what: "negamax, iterative deepening, TT, quiescence; a matrix game at simultaneous nodes",
        schema: AlphaBetaAgent::<engine::variants::chess::Chess>::schema,
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "mcts",
        what: "UCT",
        schema: || MctsAgent::schema(MctsKind::Plain),
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "expectimax",
        what: "*-minimax with Star1/Star2 pruning",
        schema: ExpectimaxAgent::schema,
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "ismcts",
        what: "information-set MCTS",
        schema: IsMctsAgent::schema,
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "smmcts",
        what: "simultaneous-move MCTS",
        schema: || MctsAgent::schema(MctsKind::Sm),
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "cheat",
        what: "UCT on the true state",
        schema: || MctsAgent::schema(MctsKind::Cheat),
        reads: Reads::TrueState,
    },
    AgentInfo {
        name: "pimc",
        what: "search on sampled worlds: UCT with voting, or alphabeta with the best mean score",
        schema: PimcAgent::schema,
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "clairvoyant",
        what: "Clairvoyant Chess: expected-Zorkmid guesser, balance-driven purchases",
        schema: ClairvoyantAgent::schema,
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "uci",
        what: "an outside UCI engine (chess, Chess960)",
        schema: crate::uci::schema,
        reads: Reads::SeatInformation,
    },
    AgentInfo {
        name: "ext",
        what: "an outside bot speaking the JSON-lines protocol (any variant)",
        schema: crate::ext::schema,
        reads: Reads::SeatInformation,
    },
];

/// Agents that drive an outside program (their `cmd` key is required).
pub const EXTERNAL: &[&str] = &["uci", "ext"];

/// What agent `name` reads of a hidden-information game (`None`: no such agent).
pub fn reads(name: &str) -> Option<Reads> {
    AGENT_TABLE.iter().find(|a| a.name == name).map(|a| a.reads)
}

/// Every agent name, as help texts list them.
pub fn names() -> Vec<&'static str> {
    AGENT_TABLE.iter().map(|a| a.name).collect()
}

/// The settings of agent `name`, if there is one.
pub fn schema(name: &str) -> Option<Vec<Setting>> {
    AGENT_TABLE
        .iter()
        .find(|a| a.name == name)
        .map(|a| (a.schema)())
}

/// Builds an agent for games of type `G` from a spec string such as `greedy` or
/// `alphabeta:depth=3`. Fails on an unknown agent, key or value, and with
/// [`AgentError::Unsupported`] when the agent cannot play games of type `G`
/// ([`fallback::supports`]).
pub fn build<G: Game>(spec: &str) -> Result<Box<dyn Agent<G>>, AgentError> {
    let s = Spec::parse(spec)?;
    let agent: Box<dyn Agent<G>> = match s.name.as_str() {
        "random" => Box::new(RandomAgent::<G>::from_spec(&s)?),
        "greedy" => Box::new(GreedyAgent::from_spec(&s)?),
        "alphabeta" => Box::new(AlphaBetaAgent::<G>::from_spec(&s)?),
        "mcts" => Box::new(MctsOrIsMcts::new(MctsAgent::from_spec(
            &s,
            MctsKind::Plain,
        )?)),
        "cheat" => Box::new(MctsAgent::from_spec(&s, MctsKind::Cheat)?),
        "smmcts" => Box::new(MctsAgent::from_spec(&s, MctsKind::Sm)?),
        "ismcts" => Box::new(IsMctsAgent::from_spec(&s)?),
        "pimc" => Box::new(PimcAgent::from_spec(&s)?),
        "expectimax" => Box::new(ExpectimaxAgent::from_spec(&s)?),
        "clairvoyant" => ClairvoyantAgent::build::<G>(&s)?,
        "uci" => {
            if !crate::uci::plays::<G>() {
                crate::uci::UciConfig::from_spec(&s)?;
                return Err(AgentError::Unsupported {
                    agent: s.name.clone(),
                    variant: fallback::short_type_name::<G>(),
                    why: "UCI engines play orthodox chess and Chess960 here; use ext:cmd=... \
                          (docs/ext-protocol.md) for other variants"
                        .into(),
                });
            }
            Box::new(crate::uci::UciAgent::from_spec(&s)?)
        }
        "ext" => Box::new(crate::ext::ExtAgent::from_spec(&s)?),
        other => {
            debug_assert!(!names().contains(&other), "'{other}' has no constructor");
            return Err(AgentError::UnknownAgent(other.into(), names().join(", ")));
        }
    };
    // Every agent whose decisions run a two-sided search, `pimc` searching its worlds by
    // alphabeta included: on seats that are not two sides it would play a partner as an
    // opponent, so it is refused like the search itself.
    let method = match (s.name.as_str(), s.raw("search")) {
        ("alphabeta" | "expectimax", _) => Some(s.name.as_str()),
        ("pimc", Some("alphabeta")) => Some("alphabeta"),
        _ => None,
    };
    if let Some(method) = method {
        fallback::supports(method, &fallback::probe::<G>()).map_err(|e| match e {
            AgentError::Unsupported { variant, why, .. } => AgentError::Unsupported {
                agent: s.canonical(),
                variant,
                why,
            },
            other => other,
        })?;
    }
    // An eval file's `[features]` name the game's own features: checked against this
    // game now (the file itself was read and checked with the agent's settings).
    if let Some(path) = s.raw("eval") {
        let w = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| toml::from_str::<crate::eval::EvalWeights>(&t).ok());
        if let Some(w) = w {
            crate::eval::features::check_game::<G>(&w).map_err(|why| AgentError::BadValue {
                agent: s.name.clone(),
                key: "eval".into(),
                value: path.into(),
                expected: format!(
                    "eval weights for {}: {why}",
                    fallback::short_type_name::<G>()
                ),
            })?;
        }
    }
    Ok(agent)
}

/// The `mcts` agent as the registry builds it: UCT, or single-observer ISMCTS with the
/// same settings where [`fallback::mcts`] says the game hides information (asked of the
/// state at each decision, since that fact may depend on the variant's parameters).
struct MctsOrIsMcts {
    uct: MctsAgent,
    ismcts: IsMctsAgent,
    /// Whether the last decision went to ISMCTS (whose counts `search_stats` reports).
    last_ismcts: bool,
}

impl MctsOrIsMcts {
    fn new(uct: MctsAgent) -> Self {
        let (config, rng, spec) = uct.parts();
        MctsOrIsMcts {
            ismcts: IsMctsAgent::from_parts(IsMode::So, config, rng, spec),
            uct,
            last_ismcts: false,
        }
    }
}

impl<G: Game> Agent<G> for MctsOrIsMcts {
    fn spec(&self) -> String {
        Agent::<G>::spec(&self.uct)
    }

    fn act(&mut self, game: &G, seat: engine::game::Seat, rng: &mut rand_pcg::Pcg64) -> G::Action {
        match fallback::mcts(game) {
            Route::IsMcts => {
                self.last_ismcts = true;
                self.ismcts.act(game, seat, rng)
            }
            _ => {
                self.last_ismcts = false;
                self.uct.act(game, seat, rng)
            }
        }
    }

    fn search_stats(&self) -> Option<crate::SearchStats> {
        if self.last_ismcts {
            Agent::<G>::search_stats(&self.ismcts)
        } else {
            Agent::<G>::search_stats(&self.uct)
        }
    }
}

/// Checks a spec without building for a particular game (for early CLI validation).
pub fn validate<G: Game>(spec: &str) -> Result<(), AgentError> {
    build::<G>(spec).map(|_| ())
}

/// The keys cell of the doc tables for agent `name`: every key in schema order, its
/// choices and its default; the `eval` keys as one `eval.*`.
pub fn keys_cell(name: &str) -> Option<String> {
    let schema = schema(name)?;
    if schema.is_empty() {
        return Some("–".into());
    }
    let mut parts: Vec<String> = Vec::new();
    for s in &schema {
        if s.key == "eval" || s.key.starts_with("eval.") {
            if !parts.iter().any(|p| p == "`eval.*`") {
                parts.push("`eval.*`".into());
            }
            continue;
        }
        let mut p = match s.kind {
            Kind::Choice(words) => format!("`{}={}`", s.key, words.join("\\|")),
            _ => format!("`{}`", s.key),
        };
        if !s.default.is_empty() {
            p.push_str(&format!("({})", s.default));
        }
        parts.push(p);
    }
    Some(parts.join(" "))
}

/// The agents and their settings as `--help` prints them: for every agent each key,
/// its rule, its default and whether a tuner may vary it.
pub fn help() -> String {
    let mut out = String::from(
        "One spec per seat, comma-separated: name or name:key=value,... (a key=value piece \
         belongs to the spec before it). Agents and their settings:\n",
    );
    for a in AGENT_TABLE {
        let schema = (a.schema)();
        out.push_str(&format!("\n{} - {}", a.name, a.what));
        if schema.is_empty() {
            out.push_str(" (no settings)\n");
            continue;
        }
        out.push('\n');
        let mut eval_done = false;
        for s in &schema {
            if s.key.starts_with("eval.") {
                if !eval_done {
                    let keys: Vec<String> = schema
                        .iter()
                        .filter(|x| x.key.starts_with("eval."))
                        .map(|x| format!("{}={}", x.key, x.default))
                        .collect();
                    out.push_str(&format!(
                        "  {}: evaluation weights, {} [tunable]\n",
                        keys.join(" "),
                        s.kind.describe()
                    ));
                    eval_done = true;
                }
                continue;
            }
            let default = if s.default.is_empty() {
                String::new()
            } else {
                format!(" (default {})", s.default)
            };
            let tunable = if s.tunable { " [tunable]" } else { "" };
            out.push_str(&format!(
                "  {}: {}, {}{default}{tunable}\n",
                s.key,
                s.help,
                s.kind.describe()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgames::Trio;
    use engine::variants::chess::Chess;
    use engine::variants::crowded_house::CrowdedHouse;
    use engine::variants::masquerade::Masquerade;

    /// Issue 68: a near-miss agent name or setting key is answered with the name meant,
    /// for every agent's every key (the key with its last letter dropped), and a far one
    /// with the list only.
    #[test]
    fn near_miss_agents_and_keys_are_suggested() {
        for (spec, meant) in [
            ("alphabet", "alphabeta"),
            ("gredy", "greedy"),
            ("ismtcs", "ismcts"),
            ("Random", "random"),
            ("alphabeta:dept=3", "depth"),
            ("mcts:iter=5", "iters"),
        ] {
            let e = build::<Chess>(spec).err().expect(spec).to_string();
            assert!(
                e.contains(&format!("did you mean '{meant}'?")),
                "{spec}: {e}"
            );
        }
        // Outside programs need `cmd` first, and the variant's own agent its variant.
        for name in names()
            .into_iter()
            .filter(|n| !EXTERNAL.contains(n) && *n != "clairvoyant")
        {
            let keys = schema(name).unwrap();
            for s in &keys {
                let typo = &s.key[..s.key.len() - 1];
                if s.key.len() < 4 || s.key.contains('.') || keys.iter().any(|k| k.key == typo) {
                    continue;
                }
                let e = build::<Chess>(&format!("{name}:{typo}=1"))
                    .err()
                    .expect(typo)
                    .to_string();
                assert!(
                    e.contains(&format!("did you mean '{}'?", s.key)),
                    "{name}:{typo}: {e}"
                );
            }
        }
        let e = build::<Chess>("nosuch").err().unwrap().to_string();
        assert!(!e.contains("did you mean") && e.contains("known: "), "{e}");
    }

    #[test]
    fn every_agent_builds_and_unknown_keys_are_named() {
        for name in names() {
            if name == "clairvoyant" {
                // A variant's own agent plays its variant only, and says so.
                let e = build::<Chess>(name).err().unwrap();
                assert!(matches!(e, AgentError::Unsupported { .. }), "{e}");
                use engine::variants::clairvoyant::Clairvoyant;
                assert!(build::<Clairvoyant>(name).is_ok());
                continue;
            }
            if EXTERNAL.contains(&name) {
                let e = build::<Chess>(name).err().expect(name).to_string();
                assert!(
                    e.contains("'cmd'") && e.contains("is required"),
                    "{name}: {e}"
                );
                continue;
            }
            assert!(build::<Chess>(name).is_ok(), "{name}");
        }
        for spec in [
            "alphabeta:depth=3,nodes=1000",
            "mcts:iters=50,rollout=heavy,cutoff=20,c=0.7,seed=3",
            "smmcts:select=rm,gamma=0.2",
            "ismcts:mode=mo,time_ms=10",
            "expectimax:star=1,depth=2",
            "alphabeta:eval.knight=3.2,eval.pst=0.5",
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

    #[test]
    fn rule_real_settings_finite_for_every_agent() {
        for agent in ["mcts", "ismcts", "cheat", "smmcts", "pimc"] {
            for v in ["nan", "inf", "-inf"] {
                let spec = format!("{agent}:c={v}");
                let e = build::<Chess>(&spec).err().expect(&spec).to_string();
                assert!(e.contains("finite number"), "{spec}: {e}");
            }
        }
        for spec in [
            "smmcts:gamma=nan",
            "alphabeta:eval.knight=nan",
            "mcts:eval.pst=inf",
        ] {
            let e = build::<Chess>(spec).err().expect(spec).to_string();
            assert!(e.contains("finite number"), "{spec}: {e}");
        }
    }

    #[test]
    fn rule_settings_in_range_by_the_schema() {
        for (spec, key, rule) in [
            ("mcts:c=-1", "'c'", "from 0 to 100"),
            ("mcts:time_ms=0", "'time_ms'", "from 0.001"),
            ("alphabeta:time_ms=0", "'time_ms'", "from 0.001"),
            ("alphabeta:time_ms=0.0004", "'time_ms'", "from 0.001"),
            ("pimc:worlds=0", "'worlds'", "from 1 to 100000"),
            ("alphabeta:worlds=0", "'worlds'", "from 1 to 100000"),
            ("alphabeta:noise=20000", "'noise'", "from 0 to 10000"),
            ("smmcts:gamma=1.5", "'gamma'", "from 0 to 1"),
            (
                "alphabeta:eval.queen=1000",
                "'eval.queen'",
                "from -100 to 100",
            ),
            (
                "alphabeta:quiescence=maybe",
                "'quiescence'",
                "true or false",
            ),
        ] {
            let e = build::<Chess>(spec).err().expect(spec);
            assert!(matches!(e, AgentError::BadValue { .. }), "{spec}: {e}");
            let msg = e.to_string();
            assert!(msg.contains(key) && msg.contains(rule), "{spec}: {msg}");
        }
    }

    #[test]
    fn rule_spec_syntax_refusals_name_the_rule() {
        for (spec, rule) in [
            ("alphabeta:depth=1,depth=2", "given twice"),
            ("random:", "must be followed by key=value"),
            ("mcts:iters=10,,c=1", "empty setting"),
        ] {
            let e = build::<Chess>(spec).err().expect(spec).to_string();
            assert!(e.contains(rule), "{spec}: {e}");
        }
    }

    #[test]
    fn rule_agent_without_settings_says_so() {
        for name in ["random", "greedy"] {
            let e = build::<Chess>(&format!("{name}:depth=3"))
                .err()
                .unwrap()
                .to_string();
            assert!(
                e.contains(&format!("agent '{name}' has no settings")),
                "{e}"
            );
            assert!(!e.contains("known: )"), "{e}");
        }
    }

    #[test]
    fn rule_registry_refuses_what_an_agent_cannot_play() {
        engine::game::conformance::check(&Trio::default(), 3, 1);
        for spec in ["alphabeta", "expectimax:depth=2", "pimc:search=alphabeta"] {
            let e = build::<Trio>(spec).err().expect(spec);
            assert!(matches!(e, AgentError::Unsupported { .. }), "{spec}: {e}");
            assert!(e.to_string().contains("cannot play Trio"), "{e}");
        }
        // Cooperative: two seats on one team; a two-sided search would play the partner
        // as an opponent.
        use engine::variants::cooperative::Cooperative;
        let e = build::<Cooperative>("pimc:search=alphabeta,worlds=2").err();
        assert!(
            e.as_ref()
                .is_some_and(|e| e.to_string().contains("pimc:search=alphabeta")),
            "{e:?}"
        );
        assert!(build::<Cooperative>("pimc:worlds=2").is_ok());
        // Crowded House: two teams of two, so alpha-beta plays; *-minimax needs two seats.
        assert!(build::<CrowdedHouse>("alphabeta:depth=1").is_ok());
        assert!(matches!(
            build::<CrowdedHouse>("expectimax").err(),
            Some(AgentError::Unsupported { .. })
        ));
        for spec in [
            "mcts",
            "random",
            "greedy",
            "ismcts",
            "pimc",
            "pimc:search=uct",
            "cheat",
            "smmcts",
        ] {
            assert!(build::<Trio>(spec).is_ok(), "{spec}");
        }
    }

    #[test]
    fn rule_mcts_on_hidden_information_is_ismcts_with_its_own_spec() {
        use rand::SeedableRng;
        let g = fallback::probe::<Masquerade>();
        let engine::game::Turn::Seat(seat) = g.turn() else {
            return;
        };
        let mut a = build::<Masquerade>("mcts:iters=30,seed=5").unwrap();
        // `mcts`'s keys keep UCT's defaults (random playouts, no cut-off), which
        // `ismcts` must be given by name to play the same.
        let mut b = IsMctsAgent::from_spec(
            &Spec::parse("ismcts:iters=30,seed=5,rollout=random,cutoff=0").unwrap(),
        )
        .unwrap();
        assert_eq!(a.spec(), "mcts:iters=30,seed=5");
        let mut r1 = rand_pcg::Pcg64::seed_from_u64(1);
        let mut r2 = rand_pcg::Pcg64::seed_from_u64(1);
        assert_eq!(
            a.act(&g, seat, &mut r1),
            Agent::<Masquerade>::act(&mut b, &g, seat, &mut r2)
        );
    }

    #[test]
    fn every_schema_default_is_valid_and_keys_unique() {
        for a in AGENT_TABLE {
            let schema = (a.schema)();
            for (i, s) in schema.iter().enumerate() {
                assert!(
                    !schema[..i].iter().any(|o| o.key == s.key),
                    "{}: '{}' twice",
                    a.name,
                    s.key
                );
                if !s.default.is_empty() {
                    s.parse(a.name, s.default)
                        .unwrap_or_else(|e| panic!("{}: default of '{}': {e}", a.name, s.key));
                }
            }
        }
    }

    /// The keys cells of a markdown table whose first cell names agents in backticks.
    fn table_rows(text: &str, prefix: &str) -> Vec<(Vec<String>, String)> {
        let mut rows = Vec::new();
        for line in text.lines() {
            let Some(line) = line.strip_prefix(prefix) else {
                continue;
            };
            let line = line.trim();
            if !line.starts_with("| `") {
                continue;
            }
            let cells: Vec<&str> = split_cells(line);
            let names: Vec<String> = cells[0]
                .split(',')
                .map(|n| n.trim().trim_matches('`').to_string())
                .collect();
            if names.iter().all(|n| schema(n).is_some()) {
                rows.push((names, cells[cells.len() - 1].trim().to_string()));
            }
        }
        rows
    }

    /// Splits a table row on `|` not escaped as `\|`.
    fn split_cells(line: &str) -> Vec<&str> {
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        let mut cells = Vec::new();
        let mut start = 0;
        let bytes = inner.as_bytes();
        for i in 0..bytes.len() {
            if bytes[i] == b'|' && (i == 0 || bytes[i - 1] != b'\\') {
                cells.push(&inner[start..i]);
                start = i + 1;
            }
        }
        cells.push(&inner[start..]);
        cells
    }

    fn check_table(text: &str, prefix: &str, what: &str) {
        let rows = table_rows(text, prefix);
        let mut seen: Vec<String> = Vec::new();
        for (names, cell) in rows {
            for n in names {
                let want = keys_cell(&n).unwrap();
                assert_eq!(cell, want, "{what}: keys of '{n}' (expected the second)");
                seen.push(n);
            }
        }
        for n in names() {
            assert!(seen.iter().any(|s| s == n), "{what}: no row for '{n}'");
        }
    }

    #[test]
    fn rule_registry_doc_table_matches_the_schemas() {
        check_table(include_str!("registry.rs"), "//! ", "registry doc table");
    }

    #[test]
    fn rule_readme_agents_table_matches_the_schemas() {
        let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/guide/agents.md");
        let text = std::fs::read_to_string(readme).expect("docs/guide/agents.md");
        // Only the Agents section: the Variants table also has rows named like agents
        // (`clairvoyant` is both a variant and its agent).
        let start = text
            .find("\n## Agents")
            .expect("docs/guide/agents.md has an Agents section");
        let section = &text[start + 1..];
        let end = section.find("\n## ").map_or(section.len(), |i| i + 1);
        check_table(&section[..end], "", "docs/guide/agents.md Agents table");
    }

    #[test]
    fn help_lists_every_agent_and_key() {
        let h = help();
        for a in AGENT_TABLE {
            assert!(h.contains(&format!("\n{} - ", a.name)), "{}", a.name);
            for s in (a.schema)() {
                assert!(h.contains(s.key), "{}: {}", a.name, s.key);
            }
        }
        assert!(h.contains("random - uniform over legal actions (no settings)"));
    }
}

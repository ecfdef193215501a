//! Traces (`chesslab trace`): games written node by node as JSON lines, so outside tools (an
//! OpenSpiel port, a Python checker, a person with `jq`) can check chesslab's rules
//! against their own: every node of every game with the legal actions in the variant's
//! notation (RULES.md), the action taken, chance outcome lists with their probabilities,
//! and the result.
//!
//! # Format
//! One game per line, written as soon as the game finishes (a run never holds more than
//! one game's trace in memory):
//!
//! ```json
//! {"variant": "chess", "params": {...}, "seed": 1, "game": 0, "game_seed": ...,
//!  "chance_seed": ..., "agents": ["random", "random"], "opening": null,
//!  "steps": [...], "result": {"returns": [1.0, -1.0], "reason": "checkmate"},
//!  "tallies": {...}}
//! ```
//!
//! Each step is one node, forced ones included:
//! `{"turn": "seat", "seat": 0, "legal": ["e2e4", ...], "action": "e2e4"}`,
//! `{"turn": "chance", "outcomes": [["draw:N", 0.25], ...], "action": "draw:N"}` or
//! `{"turn": "simultaneous", "seats": [0, 1], "legal": [[...], [...]], "action": [a, b]}`.
//! Legal lists are in the order the variant generates them. With `--observations` every
//! step also carries `"observations"` (each seat's [`Game::observation`] at that node,
//! by seat) and the game a `"final_observations"` list at the terminal state.
//!
//! # Decisions (the issue leaves these open)
//! - `"params"` is the whole parameter set as JSON (serde), after the `--params` file is
//!   read over the variant's defaults: a reader needs no knowledge of the defaults.
//!   `"seed"` is the run's `--seed`, `"game"` the game's index; `"opening"` is the
//!   `--opening` text, or `null` for the variant's own start. `"tallies"` are the
//!   variant's own figures ([`Game::tallies`]) as an object in the variant's order.
//! - `--agent SPEC` puts the same agent in every seat; `--agents A,B,..` gives one spec
//!   per seat, in seat order (a count other than the number of seats is an error).
//! - Seeds are the tournament's ([`matches::Plan`](crate::run::matches::Plan)): the games are scheduled as one
//!   matchup of a tournament, so game i has seed `mix(seed, i)`, the agent in seat s
//!   draws from `mix(game seed, s + 1)` and chance from the stream of the game's round
//!   (`Plan::chance_seed`: both games of a colour-swapped pair share it). Games are
//!   played by [`crate::run::gameplay::play_game`], the tournament's own loop. Hence trace
//!   game i of `--agent X` is game i of `chesslab tournament --agents X,X` with the same
//!   seed, parameters and opening, and trace game i of `--agents A,B` is tournament game
//!   i of `--agents A,B` for even i and of `--agents B,A` for odd i (with more seats,
//!   the tournament's seating alternates a-b-a-b / b-a-b-a); other seatings have no
//!   tournament counterpart. Test: `trace_games_are_tournament_games` in
//!   `experiments/tests/trace_cli.rs`.
//! - The trace is built from the played game's record: the record is walked from the
//!   start and each recorded action is matched, by notation, against the node's legal
//!   actions (not through `parse_action`, which a checker of the trace tests on its
//!   own). An action whose notation is not exactly one legal action's is an error: a
//!   record would not replay it either.
//! - Output goes to standard output (through `out!`, quiet on a closed pipe) without
//!   `--out`; with `--out FILE` the games stream into a temporary file beside FILE that
//!   is renamed over it at the end, so FILE is never half-written. An existing FILE is
//!   refused unless `--force`. Every input is checked (variant, parameters, opening,
//!   agents and their count, `--games 0`, an existing `--out`) before the first game is
//!   played, so bad input writes nothing. Games are played one after another on one
//!   thread: the order of lines is the order of games.
//! - Ctrl-C: the first stops after the game in progress; the whole games traced so far
//!   are written (to `--out` as usual) and the command exits 1 saying how many; a second
//!   Ctrl-C exits at once (130) and removes the temporary file, so `--out` is never
//!   half-written. Test: `trace_ctrl_c_keeps_whole_games` in `experiments/tests/bad_input.rs`.
//!
//! Tests: `rule_trace_*` below (chance and simultaneous nodes on the agents' test
//! games), and `experiments/tests/trace_cli.rs`, which replays traces of every variant
//! through `parse_action` and `apply`.

use crate::run::gameplay::{catch, play_game};
use agents::Agent;
use anyhow::{anyhow, bail, Context, Result};
use engine::game::{Game, Seat, Turn, JOINT_SEPARATOR};
use serde::ser::SerializeMap;
use serde::Serialize;

/// One node of a traced game.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(tag = "turn", rename_all = "snake_case")]
pub enum Step {
    Seat {
        seat: Seat,
        legal: Vec<String>,
        action: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        observations: Option<Vec<String>>,
    },
    Chance {
        outcomes: Vec<(String, f64)>,
        action: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        observations: Option<Vec<String>>,
    },
    Simultaneous {
        seats: Vec<Seat>,
        legal: Vec<Vec<String>>,
        action: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        observations: Option<Vec<String>>,
    },
}

/// A game's end.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct TraceResult {
    pub returns: Vec<f64>,
    pub reason: String,
}

/// Name-value pairs written as a JSON object in their own order.
#[derive(Clone, Debug, PartialEq)]
pub struct Tallies(pub Vec<(String, f64)>);

impl Serialize for Tallies {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// Everything a game's trace holds besides the run's fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Traced {
    pub steps: Vec<Step>,
    pub result: TraceResult,
    pub tallies: Tallies,
    /// Each seat's observation at the end, with `--observations`.
    pub final_observations: Option<Vec<String>>,
}

/// Plays one game from `start` exactly as a tournament plays it ([`play_game`]) and
/// traces it node by node.
pub fn trace_game<G: Game>(
    start: &G,
    agents: &mut [Box<dyn Agent<G>>],
    game_seed: u64,
    chance_seed: u64,
    observations: bool,
) -> Result<Traced> {
    let played = catch("the game", || {
        play_game(start, agents, game_seed, chance_seed, None)
    })?
    .ok_or_else(|| anyhow!("the game was interrupted"))?;
    let traced = trace_record(start, &played.actions, observations)?;
    if traced.result.reason != played.reason || traced.result.returns != played.returns {
        bail!("the traced game does not end as it was played");
    }
    Ok(traced)
}

/// The trace of a recorded game: `actions` (in notation, joint actions `a|b`) walked from
/// `start`, each matched against the legal actions (or chance outcomes) of its node.
pub fn trace_record<G: Game>(start: &G, actions: &[String], observations: bool) -> Result<Traced> {
    let mut game = start.clone();
    let seats = game.num_seats();
    let observe = |g: &G| observations.then(|| (0..seats).map(|s| g.observation(s)).collect());
    let mut steps = Vec::with_capacity(actions.len());
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    for (ply, text) in actions.iter().enumerate() {
        let at = || format!("action {} ('{text}')", ply + 1);
        match game.turn() {
            Turn::Terminal => bail!("{}: the game is already over", at()),
            Turn::Seat(seat) => {
                game.legal_actions(seat, &mut legal);
                let names: Vec<String> = legal.iter().map(|&a| game.action_notation(a)).collect();
                let action = legal[pick(&names, text).with_context(at)?];
                steps.push(Step::Seat {
                    seat,
                    legal: names,
                    action: text.clone(),
                    observations: observe(&game),
                });
                game.apply(action);
            }
            Turn::Chance => {
                game.chance_outcomes(&mut outcomes);
                let names: Vec<String> = outcomes
                    .iter()
                    .map(|&(a, _)| game.action_notation(a))
                    .collect();
                let action = outcomes[pick(&names, text).with_context(at)?].0;
                steps.push(Step::Chance {
                    outcomes: names
                        .into_iter()
                        .zip(outcomes.iter().map(|o| o.1))
                        .collect(),
                    action: text.clone(),
                    observations: observe(&game),
                });
                game.apply(action);
            }
            Turn::Simultaneous => {
                let acting = game.simultaneous_seats();
                let parts: Vec<String> = text.split(JOINT_SEPARATOR).map(String::from).collect();
                if parts.len() != acting.len() {
                    bail!(
                        "{}: {} parts for {} acting seats",
                        at(),
                        parts.len(),
                        acting.len()
                    );
                }
                let mut joint = Vec::with_capacity(acting.len());
                let mut all_names = Vec::with_capacity(acting.len());
                for (&seat, part) in acting.iter().zip(&parts) {
                    game.legal_actions(seat, &mut legal);
                    let names: Vec<String> =
                        legal.iter().map(|&a| game.action_notation(a)).collect();
                    joint.push(legal[pick(&names, part).with_context(at)?]);
                    all_names.push(names);
                }
                steps.push(Step::Simultaneous {
                    seats: acting,
                    legal: all_names,
                    action: parts,
                    observations: observe(&game),
                });
                game.apply_joint(&joint);
            }
        }
    }
    if game.turn() != Turn::Terminal {
        bail!("the record ends before the game does");
    }
    let result = game
        .result()
        .ok_or_else(|| anyhow!("terminal state without a result"))?;
    Ok(Traced {
        steps,
        result: TraceResult {
            returns: result.returns[..seats].to_vec(),
            reason: result.reason.to_string(),
        },
        tallies: Tallies(game.tallies()),
        final_observations: observe(&game),
    })
}

/// The index of the one name equal to `text`.
fn pick(names: &[String], text: &str) -> Result<usize> {
    let mut found = names.iter().enumerate().filter(|(_, n)| *n == text);
    match (found.next(), found.next()) {
        (Some((i, _)), None) => Ok(i),
        (None, _) => Err(anyhow!("not among the node's legal actions {names:?}")),
        (Some(_), Some(_)) => Err(anyhow!("two legal actions share this notation")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::testgames::{BiasedRps, DiceRace};

    fn build<G: Game>(spec: &str, seats: usize) -> Vec<Box<dyn Agent<G>>> {
        (0..seats)
            .map(|_| agents::registry::build::<G>(spec).unwrap())
            .collect()
    }

    /// A simultaneous node is one step with every acting seat's legal list and one
    /// action per seat, and the joint action replays.
    #[test]
    fn rule_trace_simultaneous_nodes() {
        let start = BiasedRps::new(&());
        let t = trace_game(&start, &mut build::<BiasedRps>("random", 2), 5, 5, true).unwrap();
        assert_eq!(t.steps.len(), 1);
        let Step::Simultaneous {
            seats,
            legal,
            action,
            observations,
        } = &t.steps[0]
        else {
            panic!("{:?}", t.steps[0]);
        };
        assert_eq!(seats, &vec![0, 1]);
        let names: Vec<String> = [0u8, 1, 2]
            .iter()
            .map(|&a| start.action_notation(a))
            .collect();
        assert_eq!(legal, &vec![names.clone(), names]);
        let joint: Vec<u8> = action
            .iter()
            .map(|a| start.parse_action(a).unwrap())
            .collect();
        let mut g = start.clone();
        g.apply_joint(&joint);
        assert_eq!(t.result.returns, g.returns()[..2].to_vec());
        assert_eq!(observations.as_ref().unwrap().len(), 2);
        let json = serde_json::to_value(&t.steps[0]).unwrap();
        assert_eq!(json["turn"], "simultaneous");
        assert_eq!(json["action"].as_array().unwrap().len(), 2);
    }

    /// Chance nodes list every outcome with its probability, and the traced game is the
    /// game `play_game` plays with the same seeds.
    #[test]
    fn rule_trace_chance_nodes_and_same_game() {
        let start = DiceRace::new(&());
        let t = trace_game(&start, &mut build::<DiceRace>("random", 2), 3, 4, false).unwrap();
        let mut chance = 0;
        let mut g = start.clone();
        let mut outcomes = Vec::new();
        for step in &t.steps {
            match step {
                Step::Chance {
                    outcomes: listed,
                    action,
                    observations,
                } => {
                    chance += 1;
                    assert!(observations.is_none());
                    g.chance_outcomes(&mut outcomes);
                    let expected: Vec<(String, f64)> = outcomes
                        .iter()
                        .map(|&(a, p)| (g.action_notation(a), p))
                        .collect();
                    assert_eq!(listed, &expected);
                    g.apply(g.parse_action(action).unwrap());
                }
                Step::Seat { seat, action, .. } => {
                    assert_eq!(g.turn(), Turn::Seat(*seat));
                    g.apply(g.parse_action(action).unwrap());
                }
                Step::Simultaneous { .. } => panic!("DiceRace has no simultaneous node"),
            }
        }
        assert!(chance > 0);
        assert_eq!(g.turn(), Turn::Terminal);
        let played = play_game(&start, &mut build::<DiceRace>("random", 2), 3, 4, None)
            .unwrap()
            .unwrap();
        let texts: Vec<String> = t
            .steps
            .iter()
            .map(|s| match s {
                Step::Seat { action, .. } | Step::Chance { action, .. } => action.clone(),
                Step::Simultaneous { action, .. } => action.join("|"),
            })
            .collect();
        assert_eq!(texts, played.actions);
    }

    /// A record whose action is not legal at its node, or that stops before the end, is
    /// refused with an error naming the action.
    #[test]
    fn rule_trace_refuses_bad_records() {
        let start = BiasedRps::new(&());
        let e = trace_record(&start, &["nope|nope".to_string()], false).unwrap_err();
        assert!(format!("{e:#}").contains("action 1"), "{e:#}");
        assert!(trace_record(&start, &[], false).is_err());
        let a = start.action_notation(0);
        assert!(trace_record(&start, std::slice::from_ref(&a), false).is_err());
        let ok = trace_record(&start, &[format!("{a}|{a}")], false).unwrap();
        assert_eq!(ok.result.returns, vec![0.0, 0.0]);
    }

    #[test]
    fn tallies_keep_their_order() {
        let t = Tallies(vec![("b".into(), 1.0), ("a".into(), 2.5)]);
        assert_eq!(serde_json::to_string(&t).unwrap(), r#"{"b":1.0,"a":2.5}"#);
    }
}

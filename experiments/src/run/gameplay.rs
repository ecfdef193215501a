//! The game loop shared by `play` and `tournament`: any [`Game`], any number of seats,
//! chance and simultaneous nodes, one agent per seat.
//!
//! Randomness: chance outcomes are drawn from the game's own stream, seeded by
//! `chance_seed`; the agent in seat `s` draws from its own stream seeded by
//! `mix(game_seed, s + 1)`. A tournament gives both games of a colour-swapped pair the
//! same `chance_seed`, so they start from the same chance outcomes.
//!
//! Outside programs (issue 18): agents are asked through `Agent::try_act`; a forfeit (an
//! engine that crashed, hung, lost on time or answered an illegal move) ends the game
//! with the reason `forfeit-*` and a loss for the forfeiting seat's team (a win for every
//! other seat), and a note on standard error says what happened; the run goes on.
//! [`PlayOptions::adjudication`] ends two-seat games from the engines' scores
//! ([`crate::run::adjudication`]). Every applied action is passed to `Agent::observe`.
//!
//! Random openings: with [`PlayOptions::random_plies`] = N, the first N decisions (seat
//! and simultaneous nodes; chance nodes draw as always) are uniform over the legal
//! actions, drawn from a stream seeded by `mix(chance_seed, 1)`: both games of a pair,
//! which share the chance seed, get the same random opening. Test
//! `rule_random_opening_is_shared_by_the_pair`.

use crate::run::adjudication::{Adjudication, Adjudicator, Verdict, DRAW_REASON, RESIGN_REASON};
use crate::util::mix;
use agents::{Agent, Forfeit};
use anyhow::{anyhow, bail, Result};
use engine::game::{joint_notation, Game, Turn};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::sync::atomic::{AtomicBool, Ordering};

/// Safety net against a variant that never ends (a rules bug, not a user error).
const MAX_ACTIONS: usize = 1_000_000;

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Every action in notation (chance outcomes included; joint actions `a|b`).
    pub actions: Vec<String>,
    /// Return per seat.
    pub returns: Vec<f64>,
    pub reason: String,
    /// The variant's tallies of the final state (`Game::tallies`), when
    /// [`PlayOptions::tallies`] asks for them (the tuner), else empty.
    pub tallies: Vec<(String, f64)>,
}

impl Played {
    pub fn plies(&self) -> usize {
        self.actions.len()
    }
}

/// How games are played besides the agents and seeds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayOptions {
    pub adjudication: Adjudication,
    /// Uniformly random decisions before the agents take over.
    pub random_plies: u32,
    /// Fill [`Played::tallies`] from the final state, so a caller that needs tallies
    /// does not replay the game.
    pub tallies: bool,
}

/// Plays `start` to the end. `agents[s]` plays seat `s`. Returns `Ok(None)` when `stop`
/// is raised before the game ends (the game is dropped).
pub fn play_game<G: Game>(
    start: &G,
    agents: &mut [Box<dyn Agent<G>>],
    game_seed: u64,
    chance_seed: u64,
    stop: Option<&AtomicBool>,
) -> Result<Option<Played>> {
    play_game_with(
        start,
        agents,
        game_seed,
        chance_seed,
        stop,
        &PlayOptions::default(),
    )
}

/// Returns when `seat` gives the game up: its team loses, every other seat wins.
fn forfeit_returns<G: Game>(game: &G, seat: usize) -> Vec<f64> {
    let team = game.team(seat);
    (0..game.num_seats())
        .map(|t| if game.team(t) == team { -1.0 } else { 1.0 })
        .collect()
}

fn final_tallies<G: Game>(game: &G, options: &PlayOptions) -> Vec<(String, f64)> {
    if options.tallies {
        game.tallies()
    } else {
        Vec::new()
    }
}

fn forfeited<G: Game>(
    game: &G,
    agents: &[Box<dyn Agent<G>>],
    seat: usize,
    actions: Vec<String>,
    f: Forfeit,
    options: &PlayOptions,
) -> Played {
    eprintln!(
        "note: seat {seat} ({}) forfeits after {} actions: {f}",
        agents[seat].spec(),
        actions.len()
    );
    Played {
        actions,
        returns: forfeit_returns(game, seat),
        reason: f.kind.reason().to_string(),
        tallies: final_tallies(game, options),
    }
}

/// [`play_game`] with adjudication and a random opening.
pub fn play_game_with<G: Game>(
    start: &G,
    agents: &mut [Box<dyn Agent<G>>],
    game_seed: u64,
    chance_seed: u64,
    stop: Option<&AtomicBool>,
    options: &PlayOptions,
) -> Result<Option<Played>> {
    let seats = start.num_seats();
    if agents.len() != seats {
        bail!("{} agents for a game with {seats} seats", agents.len());
    }
    let mut game = start.clone();
    let mut chance_rng = Pcg64::seed_from_u64(mix(chance_seed, 0));
    let mut rngs: Vec<Pcg64> = (0..seats)
        .map(|s| Pcg64::seed_from_u64(mix(game_seed, s as u64 + 1)))
        .collect();
    for a in agents.iter_mut() {
        a.reset();
    }
    let mut actions: Vec<String> = Vec::with_capacity(256);
    let mut outcomes = Vec::new();
    let mut joint = Vec::new();
    let mut opening_rng = Pcg64::seed_from_u64(mix(chance_seed, 1));
    let mut random_left = options.random_plies;
    let mut legal = Vec::new();
    let mut observed = 0;
    let mut adjudicator = (seats == 2).then(|| Adjudicator::new(options.adjudication));
    loop {
        if actions.len() >= MAX_ACTIONS {
            bail!("the game did not end after {MAX_ACTIONS} actions");
        }
        if let Some(last) = actions.len().checked_sub(1).filter(|&i| i >= observed) {
            for ag in agents.iter_mut() {
                ag.observe(&actions[last]);
            }
            observed = last + 1;
        }
        if (actions.len() & 15) == 0 {
            if let Some(flag) = stop {
                if flag.load(Ordering::Relaxed) {
                    return Ok(None);
                }
            }
        }
        match game.turn() {
            Turn::Terminal => break,
            Turn::Seat(s) if random_left > 0 => {
                random_left -= 1;
                game.legal_actions(s, &mut legal);
                let a = legal[rand::Rng::gen_range(&mut opening_rng, 0..legal.len())];
                actions.push(game.action_notation(a));
                game.apply(a);
            }
            Turn::Seat(s) => {
                let a = match agents[s].try_act(&game, s, &mut rngs[s]) {
                    Ok(a) => a,
                    Err(f) => return Ok(Some(forfeited(&game, agents, s, actions, f, options))),
                };
                let fullmove = game.board().map_or(0, |b| b.fullmoves() as u32);
                actions.push(game.action_notation(a));
                game.apply(a);
                let verdict = adjudicator
                    .as_mut()
                    .and_then(|adj| adj.after_move(s, fullmove, agents[s].score()));
                if let (Some(v), false) = (verdict, game.turn() == Turn::Terminal) {
                    for ag in agents.iter_mut() {
                        ag.observe(actions.last().expect("just pushed"));
                    }
                    let (returns, reason) = match v {
                        Verdict::Draw => (vec![0.0; seats], DRAW_REASON),
                        Verdict::Resign(loser) => (forfeit_returns(&game, loser), RESIGN_REASON),
                    };
                    return Ok(Some(Played {
                        actions,
                        returns,
                        reason: reason.into(),
                        tallies: final_tallies(&game, options),
                    }));
                }
            }
            Turn::Chance => {
                game.chance_outcomes(&mut outcomes);
                if outcomes.is_empty() {
                    bail!("chance node without outcomes");
                }
                let pick = outcomes[engine::random::sample_index(&outcomes, &mut chance_rng)].0;
                actions.push(game.action_notation(pick));
                game.apply(pick);
            }
            Turn::Simultaneous => {
                joint.clear();
                let random = random_left > 0;
                random_left = random_left.saturating_sub(1);
                for s in game.simultaneous_seats() {
                    if random {
                        game.legal_actions(s, &mut legal);
                        joint.push(legal[rand::Rng::gen_range(&mut opening_rng, 0..legal.len())]);
                        continue;
                    }
                    match agents[s].try_act(&game, s, &mut rngs[s]) {
                        Ok(a) => joint.push(a),
                        Err(f) => {
                            return Ok(Some(forfeited(&game, agents, s, actions, f, options)))
                        }
                    }
                }
                actions.push(joint_notation(&game, &joint));
                game.apply_joint(&joint);
            }
        }
    }
    let result = game
        .result()
        .ok_or_else(|| anyhow!("terminal state without a result"))?;
    Ok(Some(Played {
        actions,
        returns: result.returns[..seats].to_vec(),
        reason: result.reason.to_string(),
        tallies: final_tallies(&game, options),
    }))
}

/// Runs `f`, turning a panic (a bug in an agent or a variant) into an error.
pub fn catch<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(anyhow!("{what} panicked: {msg}"))
        }
    }
}

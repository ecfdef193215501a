//! The game loop shared by `play` and `tournament`: any [`Game`], any number of seats,
//! chance and simultaneous nodes, one agent per seat.
//!
//! Randomness: chance outcomes are drawn from the game's own stream, seeded by
//! `chance_seed`; the agent in seat `s` draws from its own stream seeded by
//! `mix(game_seed, s + 1)`. A tournament gives both games of a colour-swapped pair the
//! same `chance_seed`, so they start from the same chance outcomes.

use crate::util::mix;
use agents::Agent;
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
}

impl Played {
    pub fn plies(&self) -> usize {
        self.actions.len()
    }
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
    let mut actions = Vec::with_capacity(256);
    let mut outcomes = Vec::new();
    let mut joint = Vec::new();
    loop {
        if actions.len() >= MAX_ACTIONS {
            bail!("the game did not end after {MAX_ACTIONS} actions");
        }
        if actions.len() % 16 == 0 {
            if let Some(flag) = stop {
                if flag.load(Ordering::Relaxed) {
                    return Ok(None);
                }
            }
        }
        match game.turn() {
            Turn::Terminal => break,
            Turn::Seat(s) => {
                let a = agents[s].act(&game, s, &mut rngs[s]);
                actions.push(game.action_notation(a));
                game.apply(a);
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
                for s in game.simultaneous_seats() {
                    joint.push(agents[s].act(&game, s, &mut rngs[s]));
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

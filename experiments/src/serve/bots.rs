//! One game's bot decisions (issue 64), kept apart from the rest of its state so that
//! the lifecycle of a decision reads in one place. A bot decision is handed out of the
//! session ([`Session::begin_step`]: the agents and their streams move into a job with a
//! copy of the game) and taken back ([`Session::end_think`]), so the server runs it
//! without the game's lock; the job asks each agent through [`decide_stoppable`]
//! (`Agent::act_within`: the limit and the stop flag end the decision with the best
//! action so far). A result for an older version (a takeback meanwhile) only returns the
//! agents. A decision that never comes back ([`Session::think_failed`]) rebuilds the
//! agents from their specs, and past its deadline the first deciding seat forfeits on
//! time. Advice (`agent-act`) is prepared the same way ([`Session::advise`]).
//!
//! The [`Session`] methods of [`GameSession`] (in `session`) call the methods here.

use super::api::{ApiError, ResultView};
use super::games::{AdviceJob, Session, Step, Think};
use super::limits::Use;
use super::session::GameSession;
use crate::util::mix;
use agents::Agent;
use agents::ForfeitKind;
use engine::game::{Game, Seat, Turn};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A decision's result as its job returns it: per seat the agent, its advanced stream and
/// the action (or the agent's forfeit).
type Thought<G> = Vec<(
    Seat,
    Box<dyn Agent<G>>,
    Pcg64,
    Result<<G as Game>::Action, agents::Forfeit>,
)>;

/// One decision of `agent` for `seat` through [`Agent::act_within`]: it ends at `time`
/// (from now) or when `stop` is raised, whatever the agent's own budget, with the best
/// action found so far (every built-in agent honours both in its long loops; the
/// server's agents are all built-in: outside programs are refused). Where no stop comes,
/// it is the agent's `act`, so a game of bots stays `play_game`'s.
pub fn decide_stoppable<G: Game>(
    agent: &mut dyn Agent<G>,
    game: &G,
    seat: Seat,
    rng: &mut Pcg64,
    stop: &Arc<AtomicBool>,
    time: Option<std::time::Duration>,
) -> Result<G::Action, agents::Forfeit> {
    let limits = agents::Limits {
        time,
        stop: Some(stop.clone()),
        ..agents::Limits::default()
    };
    Ok(agent.act_within(game, seat, rng, &limits))
}

/// The returns of a forfeit by `seat`: its team loses, every other seat wins.
pub(super) fn forfeit_returns<G: Game>(game: &G, seat: Seat) -> Vec<f64> {
    let team = game.team(seat);
    (0..game.num_seats())
        .map(|t| if game.team(t) == team { -1.0 } else { 1.0 })
        .collect()
}

impl<G: Game> GameSession<G> {
    /// [`Session::begin_step`]: plays a chance outcome, or hands a bot decision out.
    pub(super) fn next_step(&mut self) -> Result<Step, ApiError> {
        if self.out.is_some() || !self.bot_due() {
            return Ok(Step::Idle);
        }
        match self.game.turn() {
            Turn::Chance => {
                let mut outcomes = Vec::new();
                self.game.chance_outcomes(&mut outcomes);
                if outcomes.is_empty() {
                    return Err(ApiError::internal("chance node without outcomes"));
                }
                let a = outcomes[engine::random::sample_index(&outcomes, &mut self.chance_rng)].0;
                self.apply_one(a, Vec::new());
                Ok(Step::Played)
            }
            Turn::Seat(s) => self.hand_out(vec![s]),
            Turn::Simultaneous => {
                // Bots decide in seat order, as in `play_game`.
                let bots: Vec<Seat> = self
                    .game
                    .simultaneous_seats()
                    .into_iter()
                    .filter(|&s| !self.is_human(s))
                    .collect();
                if bots.is_empty() {
                    self.try_joint()?;
                    return Ok(Step::Played);
                }
                self.hand_out(bots)
            }
            Turn::Terminal => Ok(Step::Idle),
        }
    }

    /// [`Session::end_think`]: plays what a decision returned, or only puts its bots back.
    pub(super) fn take_back_thought(
        &mut self,
        version: u64,
        out: Box<dyn Any + Send>,
    ) -> Result<(), ApiError> {
        let done = *out
            .downcast::<Thought<G>>()
            .map_err(|_| ApiError::internal("a decision of another game came back"))?;
        let current = self.out.as_ref().is_some_and(|(v, _)| *v == version);
        if current {
            self.out = None;
        }
        let stale = !current || self.version != version;
        let mut picked = Vec::with_capacity(done.len());
        for (s, agent, rng, a) in done {
            if self.bots[s].is_none() && !self.is_human(s) {
                self.bots[s] = Some(agent);
            }
            if !stale {
                self.bot_rngs[s] = rng;
                picked.push((s, a));
            }
        }
        if stale {
            return Ok(());
        }
        for (s, a) in picked {
            let a = match a {
                Ok(a) => a,
                Err(f) => {
                    self.forfeit_by(s, f.kind.reason().to_string());
                    return Ok(());
                }
            };
            if self.game.turn() == Turn::Simultaneous {
                self.commits.insert(s, a);
            } else {
                self.apply_one(a, Vec::new());
            }
        }
        if self.game.turn() == Turn::Simultaneous {
            self.try_joint()?;
        }
        Ok(())
    }

    /// [`Session::think_failed`]: rebuilds the bots of a decision that never came back.
    pub(super) fn thought_lost(&mut self, version: u64, overran: Option<String>) {
        let Some((v, seats)) = self.out.take() else {
            return;
        };
        if v != version {
            self.out = Some((v, seats));
            return;
        }
        for &s in &seats {
            if self.bots[s].is_none() {
                self.bots[s] = self.rules.build::<G>(&self.seat_specs[s], self.used).ok();
            }
        }
        if let (Some(detail), true) = (overran, self.version == version) {
            eprintln!(
                "note: the bot in seat {} forfeits on time: {detail}",
                seats[0]
            );
            self.forfeit_by(seats[0], ForfeitKind::Time.reason().to_string());
        }
    }

    /// [`Session::advise`]: an agent's decision for a human seat, as a job.
    pub(super) fn advice(&self, seat: Seat, spec: &str) -> Result<AdviceJob, ApiError> {
        // Advice for a human seat: only agents that decide from its information.
        let mut agent = self.rules.build::<G>(spec, Use::BesideHumans)?;
        let mine = matches!(self.game.turn(), Turn::Seat(s) if s == seat)
            || (self.game.turn() == Turn::Simultaneous
                && self.game.simultaneous_seats().contains(&seat)
                && !self.commits.contains_key(&seat));
        if self.over() || !mine {
            return Err(ApiError::conflict(format!(
                "{} has nothing to decide now",
                self.game.seat_name(seat)
            )));
        }
        // The helper draws from its own stream, so asking for advice never shifts the
        // bots' or chance's draws.
        let mut rng = Pcg64::seed_from_u64(mix(self.seed, 1000 + self.actions.len() as u64));
        let time = self.rules.limits.decision_time();
        let game = self.game.clone();
        Ok(AdviceJob {
            version: self.version,
            job: Box::new(move |stop: &Arc<AtomicBool>| {
                let a = decide_stoppable(&mut *agent, &game, seat, &mut rng, stop, Some(time))
                    .map_err(|f| ApiError::internal(format!("the agent gave up: {f}")))?;
                Ok(game.action_notation(a))
            }),
        })
    }

    /// Hands the decision of bot `seats` out as a job (module docs).
    fn hand_out(&mut self, seats: Vec<Seat>) -> Result<Step, ApiError> {
        let mut parts = Vec::with_capacity(seats.len());
        for &s in &seats {
            let agent = self.bots[s]
                .take()
                .ok_or_else(|| ApiError::internal(format!("seat {s} has no bot")))?;
            parts.push((s, agent, self.bot_rngs[s].clone()));
        }
        let game = self.game.clone();
        // Each bot's share of the decision's limit (the server raises the flag at the end
        // of the whole).
        let time = self.rules.limits.decision_time();
        self.out = Some((self.version, seats.clone()));
        let job = move |stop: &Arc<AtomicBool>| -> Box<dyn Any + Send> {
            let mut done: Thought<G> = Vec::with_capacity(parts.len());
            for (s, mut agent, mut rng) in parts {
                let a = decide_stoppable(&mut *agent, &game, s, &mut rng, stop, Some(time));
                done.push((s, agent, rng, a));
            }
            Box::new(done)
        };
        Ok(Step::Think(Think {
            version: self.version,
            seats,
            job: Box::new(job),
        }))
    }

    /// The game ends: `seat` forfeits (`kind`: the reason, `detail` in words).
    fn forfeit_by(&mut self, seat: Seat, reason: String) {
        self.forfeit = Some(ResultView {
            returns: forfeit_returns(&self.game, seat),
            reason,
        });
        self.version += 1;
    }
}

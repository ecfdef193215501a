//! "Branch here": N games of bots from a position of a live game, optionally under
//! changed parameters, played with the tournament's game loop
//! ([`crate::run::gameplay::play_game_with`]); game `i` is seeded `mix(seed, i)`. The
//! job runs on a blocking thread and reads a cancel flag (set when the client leaves or
//! the branch's time, `--max-branch-seconds`, is up) before every decision and inside
//! every decision ([`super::games::decide_stoppable`]; issue 64:
//! the game loop's own check comes only every 16 actions); every agent is bounded per
//! decision by the server's limits ([`super::limits`]). The handler answers at the
//! deadline (plus [`super::games::GRACE`]) whether or not the job has come back. A client that closes
//! its connection ends the handler's future (hyper notices the end of the stream,
//! [`super::listen`]), whose guard raises the flag: the game in progress stops at its
//! next decision and no further game starts. Every finished branch game is counted
//! ([`games_played`]), so a test can see the work stop. Tests
//! `rule_serve_branch_here_spreads_outcomes`, `rule_serve_limit_branch_games_and_time`,
//! `rule_serve_branch_stops_when_its_client_leaves` (`experiments/tests/serve_cancel.rs`).

use super::api::{ApiError, BranchOutcome, BranchRequest, BranchSeat};
use super::games::{chain, BranchJob, Session, HUMAN};
use super::limits::Use;
use super::new_game::merged_params;
use super::session::GameSession;
use crate::util::mix;
use agents::Agent;
use agents::{Forfeit, ForfeitKind};
use axum::http::StatusCode;
use engine::game::{Game, Turn};
use rand_pcg::Pcg64;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A branch game's agent that stops with the branch: its decisions read the branch's flag
/// ([`super::games::decide_stoppable`]), and once the flag is up it decides nothing more
/// (it gives the game up, which the branch then discards).
struct Stoppable<G: Game> {
    inner: Box<dyn Agent<G>>,
    stop: Arc<AtomicBool>,
}

impl<G: Game> Agent<G> for Stoppable<G> {
    fn spec(&self) -> String {
        self.inner.spec()
    }
    fn act(&mut self, game: &G, seat: engine::game::Seat, rng: &mut Pcg64) -> G::Action {
        self.inner.act(game, seat, rng)
    }
    fn try_act(
        &mut self,
        game: &G,
        seat: engine::game::Seat,
        rng: &mut Pcg64,
    ) -> Result<G::Action, Forfeit> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(Forfeit {
                kind: ForfeitKind::Hang,
                detail: "the branch was stopped".into(),
            });
        }
        super::games::decide_stoppable(&mut *self.inner, game, seat, rng, &self.stop, None)
    }
    fn reset(&mut self) {
        self.inner.reset()
    }
    fn score(&self) -> Option<agents::Score> {
        self.inner.score()
    }
    fn observe(&mut self, action: &str) {
        self.inner.observe(action)
    }
    fn reusable(&self) -> bool {
        self.inner.reusable()
    }
}

/// Branch games finished in this process, by every server in it.
static GAMES_PLAYED: AtomicU64 = AtomicU64::new(0);

/// How many branch games every server of this process has finished so far.
pub fn games_played() -> u64 {
    GAMES_PLAYED.load(Ordering::Relaxed)
}

pub(super) fn brancher<G: Game>(
    this: &GameSession<G>,
    req: &BranchRequest,
) -> Result<BranchJob, ApiError> {
    let plies = this.actions.len();
    let ply = req.ply.unwrap_or(plies);
    if ply > plies {
        return Err(ApiError::bad_request(format!(
            "ply {ply}: the game has {plies} actions"
        )));
    }
    let games = req.games.unwrap_or(20);
    let max = this.rules.limits.max_branch_games;
    if !(1..=max).contains(&games) {
        return Err(ApiError::bad_request(format!(
            "games: between 1 and the server's limit of {max} (--max-branch-games; got {games})"
        )));
    }
    let n = this.seat_specs.len();
    let specs: Vec<String> = match req.agents.len() {
        0 => this
            .seat_specs
            .iter()
            .map(|s| {
                if s == HUMAN {
                    "random".into()
                } else {
                    s.clone()
                }
            })
            .collect(),
        1 => vec![req.agents[0].trim().to_string(); n],
        k if k == n => req.agents.iter().map(|s| s.trim().to_string()).collect(),
        k => {
            return Err(ApiError::bad_request(format!(
                "agents: {n} seat(s) but {k} given"
            )))
        }
    };
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::with_capacity(n);
    for spec in &specs {
        // Bot games from a position the asker may see whole (a running hidden game with
        // human seats is not branched), so any agent may play them.
        agents.push(this.rules.build::<G>(spec, Use::BotsOnly)?);
    }
    let start = match &req.params {
        None | Some(serde_json::Value::Null) => {
            let mut g = this.game.clone();
            for _ in ply..plies {
                g.undo();
            }
            g
        }
        Some(over) => {
            let p: G::Params = merged_params(this.name, &this.params.1, over)?;
            let fresh = match &this.opening {
                Some(text) => G::from_opening(&p, text)
                    .map_err(|e| ApiError::unprocessable(format!("opening: {}", chain(&e))))?,
                None => G::new(&p),
            };
            let texts: Vec<&str> = this.actions[..ply].iter().map(String::as_str).collect();
            engine::game::replay(fresh, &texts).map_err(|e| {
                ApiError::unprocessable(format!(
                    "the game's first {ply} actions do not replay under these parameters: {}",
                    chain(&e)
                ))
            })?
        }
    };
    if start.turn() == Turn::Terminal {
        return Err(ApiError::conflict(format!(
            "the game is over after {ply} actions: nothing to branch"
        )));
    }
    let seed = req.seed.unwrap_or(this.seed);
    let names: Vec<String> = (0..n).map(|s| start.seat_name(s)).collect();
    let time = this.branch_time();
    // The branch's time starts here, before the handler starts its timer and hands the
    // job to a blocking thread: a job that started late on a loaded machine still knows
    // that the timer's stop is its time running out, not the client leaving.
    let started = Instant::now();
    Ok(Box::new(move |cancel: &Arc<AtomicBool>| {
        // Every decision of every branch game reads the flag: an agent asked to stop
        // answers at once, and the next decision of a stopped branch is not taken.
        let mut agents: Vec<Box<dyn Agent<G>>> = agents
            .into_iter()
            .map(|inner| {
                Box::new(Stoppable {
                    inner,
                    stop: cancel.clone(),
                }) as Box<dyn Agent<G>>
            })
            .collect();
        let mut returns = vec![Vec::with_capacity(games); n];
        let mut lengths = 0usize;
        let mut reasons: Vec<(String, usize)> = Vec::new();
        for i in 0..games {
            // The flag is raised when the client leaves or the branch's time is up (a
            // timer in the handler); the game loop polls it before every decision.
            let stopped = || {
                if started.elapsed() >= time {
                    ApiError::new(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        format!(
                            "the branch ran over the server's limit of {} s (--max-branch-seconds) after {i} of {games} games; ask for fewer games or faster agents",
                            time.as_secs()
                        ),
                    )
                } else {
                    ApiError::conflict("the branch was cancelled")
                }
            };
            if cancel.load(Ordering::Relaxed) {
                return Err(stopped());
            }
            let s = mix(seed, i as u64);
            // The tournament's own game loop, bots seeded per game as there.
            let played = crate::run::gameplay::play_game_with(
                &start,
                &mut agents,
                s,
                s,
                Some(cancel),
                &crate::run::gameplay::PlayOptions::default(),
            )
            .map_err(|e| ApiError::internal(format!("branch game {i}: {e:#}")))?
            .ok_or_else(stopped)?;
            // A game cut short by the flag (a bot "forfeits" when asked to stop) is no
            // outcome of the branch.
            if cancel.load(Ordering::Relaxed) {
                return Err(stopped());
            }
            GAMES_PLAYED.fetch_add(1, Ordering::Relaxed);
            lengths += played.plies();
            for (seat, r) in played.returns.iter().enumerate().take(n) {
                returns[seat].push(*r);
            }
            match reasons.iter_mut().find(|(r, _)| *r == played.reason) {
                Some((_, c)) => *c += 1,
                None => reasons.push((played.reason.clone(), 1)),
            }
        }
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let seats = (0..n)
            .map(|s| {
                let r = &returns[s];
                BranchSeat {
                    seat: s,
                    name: names[s].clone(),
                    agent: specs[s].clone(),
                    wins: r.iter().filter(|&&x| x > 0.0).count(),
                    draws: r.iter().filter(|&&x| x == 0.0).count(),
                    losses: r.iter().filter(|&&x| x < 0.0).count(),
                    mean_return: r.iter().sum::<f64>() / games as f64,
                }
            })
            .collect();
        Ok(BranchOutcome {
            from_ply: ply,
            games,
            seats,
            mean_plies: lengths as f64 / games as f64,
            reasons,
        })
    }))
}

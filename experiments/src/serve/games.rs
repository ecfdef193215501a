//! The contract between the board's server and one live game: [`Session`], a game that
//! answers the API whatever its variant, the jobs it hands out so that nothing slow runs
//! under the game's lock ([`Step`], [`Think`], [`AdviceJob`], [`BranchJob`]), and what
//! every game of a server shares ([`AgentRules`], [`HUMAN`], [`GRACE`]).
//!
//! The rest sits beside it, one concept a file: `new_game` makes a game from a request
//! or a stored row ([`NewGame`], [`Builder`], practice, the request's parameters),
//! `session` is one game's state (views, acts, takeback, restore, the record in SAN) and
//! `bots` its bot decisions ([`decide_stoppable`]). Their public names are re-exported
//! here, so `serve::games::...` stays the one path outside the folder.
//!
//! A game is built through the variant registry ([`engine::registry::visit`]), so every
//! registered variant works without code of its own here.
//!
//! Randomness follows [`crate::run::gameplay::play_game`]: with seed `S`, chance draws from
//! `Pcg64(mix(S, 0))` and the bot in seat `s` from `Pcg64(mix(S, s + 1))`, so a game with
//! a bot in every seat is, action for action, `play_game(start, agents, S, S)` (test
//! `rule_serve_bot_game_is_play_game` in `experiments/tests/serve_api.rs`).

use super::api::{ApiError, BranchOutcome, BranchRequest, ResultView, SeatView};
use super::limits::{agent_error, checked_spec, EvalFiles, Limits, Use};
use agents::Agent;
use engine::game::{Game, Seat};
use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub use super::bots::decide_stoppable;
pub use super::new_game::{check_request_params, Builder, NewGame, MAX_CAP};
pub use super::session::SAN_VARIANTS;

/// A game that answers the API whatever its variant.
pub trait Session: Send {
    fn variant(&self) -> &'static str;
    /// Per seat: `"human"` or the bot's agent spec.
    fn seat_specs(&self) -> &[String];
    fn perfect_information(&self) -> bool;
    /// The view of `seat` (`None`: a spectator of a perfect-information game, shown from
    /// seat 0). `audit` adds the true state.
    fn view(&self, seat: Option<Seat>, audit: bool) -> SeatView;
    /// `seat` plays `text` (at a simultaneous node: commits it until every human seat has).
    fn act(&mut self, seat: Seat, text: &str) -> Result<(), ApiError>;
    /// Takes back `seat`'s last decision and everything after it; returns how many
    /// actions were taken back.
    fn undo(&mut self, seat: Seat) -> Result<usize, ApiError>;
    /// Starts the next step: a chance outcome is played here ([`Step::Played`]); a bot
    /// decision is handed out as a job ([`Step::Think`]) that runs without the game's
    /// lock; [`Step::Idle`] when a human must act, the game is over, or a decision is
    /// already out.
    fn begin_step(&mut self) -> Result<Step, ApiError>;
    /// Takes back a decision handed out at `version` with what its job returned: plays it,
    /// or (the game changed meanwhile, a takeback) only puts the bots back.
    fn end_think(&mut self, version: u64, out: Box<dyn Any + Send>) -> Result<(), ApiError>;
    /// A decision handed out at `version` that did not come back: its bots are rebuilt
    /// from their specs, and with `overran` (its deadline passed) the first of its seats
    /// forfeits the game on time with `why` as the reason's detail.
    fn think_failed(&mut self, version: u64, overran: Option<String>);
    /// Plays everything due (chance, bots) on this thread until a human must act: for
    /// callers without a server (tests, benches). Errors as [`Session::begin_step`].
    fn run_bots(&mut self) -> Result<(), ApiError> {
        loop {
            match self.begin_step()? {
                Step::Idle => return Ok(()),
                Step::Played => {}
                Step::Think(t) => {
                    let out = (t.job)(&Arc::new(AtomicBool::new(false)));
                    self.end_think(t.version, out)?;
                }
            }
        }
    }
    /// Whether a chance outcome or a bot decision is due (or a bot is thinking).
    fn bot_due(&self) -> bool;
    /// The advice of agent `spec` for `seat`, prepared at the current version: the job
    /// runs without the lock and returns the action's notation.
    fn advise(&self, seat: Seat, spec: &str) -> Result<AdviceJob, ApiError>;
    /// The ended game's result by forfeit, if a bot forfeited (stored with the game).
    fn forfeited(&self) -> Option<ResultView>;
    /// What made the game practice, in words.
    fn practice_why(&self) -> Option<String>;
    /// Every action so far in notation (joint actions `a|b`).
    fn actions(&self) -> &[String];
    fn params_json(&self) -> serde_json::Value;
    /// The parameters as TOML (a `--params` file) and their digest (games.csv's
    /// `params_digest`).
    fn params_toml(&self) -> String;
    fn params_digest(&self) -> String;
    fn seed(&self) -> u64;
    /// A hidden-information game with a human seat whose seed the creator chose: its
    /// views and export say so, and takeback is allowed.
    fn practice(&self) -> bool;
    /// Per action, the human seats that decided it (takeback's record).
    fn deciders(&self) -> &[Vec<Seat>];
    /// Replays a stored record onto this fresh game (a restart), reseeding chance and
    /// bots by the number of actions; the version continues above the stored one, and a
    /// stored forfeit stands.
    fn restore(
        &mut self,
        actions: &[String],
        deciders: &[Vec<Seat>],
        version: u64,
        forfeit: Option<ResultView>,
    ) -> Result<(), ApiError>;
    fn opening(&self) -> Option<&str>;
    fn version(&self) -> u64;
    fn result(&self) -> Option<ResultView>;
    /// Prepares "branch here" (the start position, its agents and seeds) while the game
    /// is locked; the returned job plays the games without the lock.
    fn brancher(&self, req: &BranchRequest) -> Result<BranchJob, ApiError>;
    /// How long a branch may run (`--max-branch-seconds`).
    fn branch_time(&self) -> std::time::Duration;
}

/// What [`Session::begin_step`] did.
pub enum Step {
    /// Nothing to do now.
    Idle,
    /// A chance outcome (or a joint action without bot parts) was played.
    Played,
    /// A bot decision to run without the game's lock.
    Think(Think),
}

/// The work of a decision handed out of its game: decides, and asks its agents to answer
/// at once when the flag is raised.
pub type ThinkJob = Box<dyn FnOnce(&Arc<AtomicBool>) -> Box<dyn Any + Send> + Send>;

/// The work of an advice: the action's notation.
pub type AdviceWork = Box<dyn FnOnce(&Arc<AtomicBool>) -> Result<String, ApiError> + Send>;

/// A bot decision handed out of its game ([`Session::begin_step`]).
pub struct Think {
    /// The game's version when it was handed out: a result for another is stale.
    pub version: u64,
    /// The bot seats deciding (several at a simultaneous node, in seat order).
    pub seats: Vec<Seat>,
    /// Decides; the flag, once raised, asks the agents to answer at once.
    pub job: ThinkJob,
}

/// An agent's advice for a human seat ([`Session::advise`]): its job returns the
/// action's notation, to be played if the game is still at `version`.
pub struct AdviceJob {
    pub version: u64,
    pub job: AdviceWork,
}

/// Longest time past the server's limit a decision is waited for after it was asked to
/// stop (an agent reads its stop flag between iterations; one iteration may be long).
pub const GRACE: std::time::Duration = std::time::Duration::from_millis(1000);

/// What agents a game may build, shared by every game of a server.
#[derive(Debug, Clone, Default)]
pub struct AgentRules {
    pub limits: Limits,
    pub evals: EvalFiles,
}

impl AgentRules {
    /// Builds the bot or helper `spec` under the server's limits ([`super::limits`]).
    pub fn build<G: Game>(&self, spec: &str, used: Use) -> Result<Box<dyn Agent<G>>, ApiError> {
        let checked = checked_spec(spec, &self.limits, &self.evals, used)?;
        agents::registry::build::<G>(&checked).map_err(|e| agent_error(spec.trim(), &e))
    }
}

/// The games of a branch, ready to run on a blocking thread; they stop early (an error)
/// when the flag is set (the client left) or the branch's time is up.
pub type BranchJob = Box<dyn FnOnce(&Arc<AtomicBool>) -> Result<BranchOutcome, ApiError> + Send>;

pub const HUMAN: &str = "human";

/// An error with its sources, on one line.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

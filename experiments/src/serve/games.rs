//! One live game behind the board, type-erased over the variant ([`Session`]), and the
//! store of live games with idle expiry and a bound on their number ([`Store`]).
//!
//! A game is built through the variant registry ([`engine::registry::visit`]), so every
//! registered variant works without code of its own here.
//!
//! Randomness follows [`crate::run::gameplay::play_game`]: with seed `S`, chance draws from
//! `Pcg64(mix(S, 0))` and the bot in seat `s` from `Pcg64(mix(S, s + 1))`, so a game with
//! a bot in every seat is, action for action, `play_game(start, agents, S, S)` (test
//! `rule_serve_bot_game_is_play_game` in `experiments/tests/serve_api.rs`).
//!
//! Issue 64: a bot decision is handed out of the session ([`Session::begin_step`]: the
//! agents and their streams move into a job with a copy of the game) and taken back
//! ([`Session::end_think`]), so the server runs it without the game's lock; the job asks
//! each agent through [`decide_stoppable`] (`Agent::act_within`: the limit and the stop
//! flag end the decision with the best action so far). A
//! result for an older version (a takeback meanwhile) only returns the agents. A decision
//! that never comes back ([`Session::think_failed`]) rebuilds the agents from their
//! specs, and past its deadline the first deciding seat forfeits on time. Advice
//! (`agent-act`) is prepared the same way ([`Session::advise`]).
//!
//! Issue 65: practice (`practice_of`: what a creator fixed, refused with two people
//! unless asked), takeback refused across a simultaneous move outside practice, `*_cap`
//! parameters a request gives at most [`MAX_CAP`] ([`check_request_params`]), versions
//! continued above the stored one at a restart, and the record in SAN
//! (`record_san`, [`SAN_VARIANTS`]). Tests in `experiments/tests/serve_limits.rs`.

use super::api::{
    ApiError, BranchOutcome, BranchRequest, ChanceView, ResultView, SeatView, TurnView,
};
use super::limits::{agent_error, checked_spec, EvalFiles, Limits, Use};
use crate::util::mix;
use agents::Agent;
use agents::ForfeitKind;
use engine::game::{joint_notation, Game, Information, Seat, Turn};
use engine::registry::VariantVisitor;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Variants whose moves are orthodox moves of the board's side to move, whose record the
/// views also give in SAN (`record_san`); the page's `mechanics.js` marks the same ones
/// `san: true`.
pub const SAN_VARIANTS: &[&str] = &[
    "chess",
    "chess960",
    "cassandra",
    "adrenaline",
    "clairvoyant",
];

/// A decision's result as its job returns it: per seat the agent, its advanced stream and
/// the action (or the agent's forfeit).
type Thought<G> = Vec<(
    Seat,
    Box<dyn Agent<G>>,
    Pcg64,
    Result<<G as Game>::Action, agents::Forfeit>,
)>;

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

/// Longest game length (`ply_cap`, `move_cap`, any `*_cap`) a request may ask for: a
/// board game is played by hand, and the record is kept whole.
pub const MAX_CAP: i64 = 10_000;

/// Checks the numbers a request gives in its parameters (`over`, TOML) against the
/// server's ranges: every `*_cap` between 0 and [`MAX_CAP`]. The variant's own
/// validation checks the rest of its rules.
pub fn check_request_params(over: &toml::Table) -> Result<(), ApiError> {
    fn walk(prefix: &str, t: &toml::Table) -> Result<(), ApiError> {
        for (k, v) in t {
            let path = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match v {
                toml::Value::Table(inner) => walk(&path, inner)?,
                toml::Value::Integer(n) if k.ends_with("_cap") && !(0..=MAX_CAP).contains(n) => {
                    return Err(ApiError::bad_request(format!(
                        "params: {path} = {n} is outside the board's range 0 to {MAX_CAP}"
                    )))
                }
                _ => {}
            }
        }
        Ok(())
    }
    walk("", over)
}

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

/// Reads `over` (TOML text or a JSON object) over `base`'s TOML, table by table.
pub(super) fn merged_params<P: engine::game::VariantParams>(
    name: &str,
    base: &str,
    over: &serde_json::Value,
) -> Result<P, ApiError> {
    let over: toml::Table = match over {
        serde_json::Value::String(t) => toml::from_str(t)
            .map_err(|e| ApiError::bad_request(format!("params: not TOML: {e}")))?,
        v @ serde_json::Value::Object(_) => toml::Table::try_from(v)
            .map_err(|e| ApiError::bad_request(format!("params: not a TOML table: {e}")))?,
        _ => {
            return Err(ApiError::bad_request(
                "params: give TOML text or a JSON object",
            ))
        }
    };
    fn merge(base: &mut toml::Table, over: toml::Table) {
        for (k, v) in over {
            match (base.get_mut(&k), v) {
                (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
                (_, v) => {
                    base.insert(k, v);
                }
            }
        }
    }
    check_request_params(&over)?;
    let mut table: toml::Table = toml::from_str(base)
        .map_err(|e| ApiError::internal(format!("the game's own parameters: {e}")))?;
    merge(&mut table, over);
    let text = toml::to_string(&table).map_err(|e| ApiError::internal(e.to_string()))?;
    let p = engine::registry::parse_params(name, Some(&text), P::default())
        .and_then(|p| engine::registry::validated(name, p))
        .map_err(|e| ApiError::bad_request(chain(&e)))?;
    Ok(p)
}

/// What a new game is made from.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The creator's seed; `None`: from the operating system when a human plays, else 1.
    pub seed: Option<u64>,
    /// Set when a stored game is rebuilt (whether it is practice, and why); `None`: a new
    /// game, whose practice follows [`NewGame::asked_practice`] and what the creator fixed.
    pub practice: Option<(bool, Option<String>)>,
    /// The creator asked for a practice game (`"practice": true`).
    pub asked_practice: bool,
    pub rules: Arc<AgentRules>,
    pub opening: Option<String>,
    /// Per seat `"human"` or an agent spec; one entry fills every seat.
    pub seats: Vec<String>,
}

pub const HUMAN: &str = "human";

pub(super) struct GameSession<G: Game> {
    pub(super) name: &'static str,
    /// The parameters as JSON, TOML and games.csv digest, fixed at creation.
    pub(super) params: (serde_json::Value, String, String),
    pub(super) game: G,
    pub(super) seed: u64,
    pub(super) opening: Option<String>,
    pub(super) seat_specs: Vec<String>,
    /// Per seat the bot's agent; `None` for a human seat, and for a bot whose decision is
    /// out ([`Session::begin_step`]).
    bots: Vec<Option<Box<dyn Agent<G>>>>,
    /// What the bots may read (to rebuild one whose decision never came back).
    used: Use,
    /// The version at which a bot decision was handed out, and its seats.
    out: Option<(u64, Vec<Seat>)>,
    /// The start state (the record's readable notation is replayed from it).
    start: G,
    bot_rngs: Vec<Pcg64>,
    chance_rng: Pcg64,
    pub(super) actions: Vec<String>,
    /// Who decided each action: a seat's human decision, or `None` (chance, bots,
    /// joint actions).
    deciders: Vec<Vec<Seat>>,
    /// Secret commits at the current simultaneous node, by seat.
    commits: HashMap<Seat, G::Action>,
    version: u64,
    practice: bool,
    practice_why: Option<String>,
    pub(super) rules: Arc<AgentRules>,
    /// Result of a game ended by a bot's forfeit (outside programs are refused, so only
    /// as a safety net).
    forfeit: Option<ResultView>,
}

impl<G: Game> GameSession<G> {
    fn legal_names(&self, seat: Seat) -> (Vec<G::Action>, Vec<String>) {
        let mut legal = Vec::new();
        self.game.legal_actions(seat, &mut legal);
        let names = legal
            .iter()
            .map(|&a| self.game.action_notation(a))
            .collect();
        (legal, names)
    }

    fn is_human(&self, seat: Seat) -> bool {
        self.seat_specs.get(seat).is_some_and(|s| s == HUMAN)
    }

    /// The record in readable notation: SAN for the actions that are orthodox moves of
    /// the board's side to move, where the variant's moves are orthodox
    /// ([`SAN_VARIANTS`]); the variant's own notation for the rest.
    fn record_san(&self) -> Vec<String> {
        let orthodox = SAN_VARIANTS.contains(&self.name);
        let mut g = self.start.clone();
        let mut out = Vec::with_capacity(self.actions.len());
        for text in &self.actions {
            let san = if orthodox && matches!(g.turn(), Turn::Seat(_)) {
                g.board()
                    .and_then(|b| b.parse_uci(text).ok().map(|mv| b.san(mv)))
            } else {
                None
            };
            out.push(san.unwrap_or_else(|| text.clone()));
            match g.parse_action(text) {
                Ok(a) if g.turn() != Turn::Simultaneous => g.apply(a),
                _ => {
                    // A joint action or one the replay cannot read: the rest as recorded.
                    let k = out.len();
                    out.extend(self.actions[k..].iter().cloned());
                    break;
                }
            }
        }
        out
    }

    /// The action of `seat` written `text`: the legal action with exactly this
    /// notation, else what `parse_action` reads if it is legal for `seat`.
    fn read_action(&self, seat: Seat, text: &str) -> Result<G::Action, ApiError> {
        let (legal, names) = self.legal_names(seat);
        if let Some(i) = names.iter().position(|n| n == text) {
            return Ok(legal[i]);
        }
        let a = self.game.parse_action(text).map_err(|e| {
            ApiError::unprocessable(format!(
                "illegal or malformed action '{text}' for {}: {e}",
                self.game.seat_name(seat)
            ))
        })?;
        if legal.contains(&a) {
            Ok(a)
        } else {
            Err(ApiError::unprocessable(format!(
                "illegal action '{text}' for {} here",
                self.game.seat_name(seat)
            )))
        }
    }

    fn apply_one(&mut self, a: G::Action, by: Vec<Seat>) {
        self.actions.push(self.game.action_notation(a));
        self.deciders.push(by);
        self.game.apply(a);
        self.version += 1;
    }

    /// Plays the joint action once every acting seat has committed.
    fn try_joint(&mut self) -> Result<bool, ApiError> {
        let acting = self.game.simultaneous_seats();
        if acting.iter().any(|s| !self.commits.contains_key(s)) {
            return Ok(false);
        }
        let joint: Vec<G::Action> = acting.iter().map(|s| self.commits[s]).collect();
        self.actions.push(joint_notation(&self.game, &joint));
        self.deciders.push(
            acting
                .iter()
                .copied()
                .filter(|&s| self.is_human(s))
                .collect(),
        );
        self.game.apply_joint(&joint);
        self.commits.clear();
        self.version += 1;
        Ok(true)
    }

    /// Hands the decision of bot `seats` out as a job (module docs of `super`).
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

    fn turn_view(&self) -> TurnView {
        match self.game.turn() {
            Turn::Seat(s) => TurnView::Seat { seat: s },
            Turn::Chance => TurnView::Chance,
            Turn::Simultaneous => {
                let seats = self.game.simultaneous_seats();
                let committed = seats.iter().map(|s| self.commits.contains_key(s)).collect();
                TurnView::Simultaneous { seats, committed }
            }
            Turn::Terminal => TurnView::Terminal,
        }
    }

    fn over(&self) -> bool {
        self.forfeit.is_some() || self.game.turn() == Turn::Terminal
    }
}

impl<G: Game> Session for GameSession<G> {
    fn variant(&self) -> &'static str {
        self.name
    }
    fn seat_specs(&self) -> &[String] {
        &self.seat_specs
    }
    fn perfect_information(&self) -> bool {
        self.game.facts().information == Information::Perfect
    }

    fn view(&self, seat: Option<Seat>, audit: bool) -> SeatView {
        let shown = seat.unwrap_or(0);
        let over = self.over();
        let perfect = self.perfect_information();
        let legal = match (seat, self.game.turn(), over) {
            (Some(s), Turn::Seat(t), false) if s == t => self.legal_names(s).1,
            (Some(s), Turn::Simultaneous, false)
                if self.game.simultaneous_seats().contains(&s)
                    && !self.commits.contains_key(&s) =>
            {
                self.legal_names(s).1
            }
            _ => Vec::new(),
        };
        // Chance outcomes and the record name what every seat did and drew: shown while
        // the game runs only when nothing is hidden.
        let chance = (perfect && !over && self.game.turn() == Turn::Chance).then(|| {
            let mut outcomes = Vec::new();
            self.game.chance_outcomes(&mut outcomes);
            ChanceView {
                outcomes: outcomes
                    .iter()
                    .map(|&(a, p)| (self.game.action_notation(a), p))
                    .collect(),
            }
        });
        let record = (perfect || over || audit).then(|| self.actions.clone());
        SeatView {
            variant: self.name.to_string(),
            seat,
            seat_names: (0..self.game.num_seats())
                .map(|s| self.game.seat_name(s))
                .collect(),
            seats: self.seat_specs.clone(),
            perfect_information: perfect,
            turn: if over {
                TurnView::Terminal
            } else {
                self.turn_view()
            },
            observation: self.game.observation(shown),
            legal,
            chance,
            result: self.result(),
            record,
            plies: self.actions.len(),
            version: self.version,
            thinking: self.bot_due(),
            practice: self.practice,
            practice_why: self.practice_why.clone(),
            record_san: (perfect || over || audit).then(|| self.record_san()),
            seed: over.then_some(self.seed),
            params: super::rules::public_params(self.name, &self.params.0, over || audit),
            audit: audit.then(|| super::api::AuditView {
                state: format!("{:?}", self.game),
                observations: (0..self.game.num_seats())
                    .map(|s| self.game.observation(s))
                    .collect(),
            }),
        }
    }

    fn act(&mut self, seat: Seat, text: &str) -> Result<(), ApiError> {
        if self.over() {
            return Err(ApiError::conflict("the game is over"));
        }
        match self.game.turn() {
            Turn::Seat(s) if s == seat => {
                let a = self.read_action(seat, text)?;
                self.apply_one(a, vec![seat]);
                Ok(())
            }
            Turn::Simultaneous if self.game.simultaneous_seats().contains(&seat) => {
                if self.commits.contains_key(&seat) {
                    return Err(ApiError::conflict(format!(
                        "{} has already committed at this node",
                        self.game.seat_name(seat)
                    )));
                }
                let a = self.read_action(seat, text)?;
                self.commits.insert(seat, a);
                self.version += 1;
                Ok(())
            }
            _ => Err(ApiError::conflict(format!(
                "it is not {}'s turn",
                self.game.seat_name(seat)
            ))),
        }
    }

    fn advise(&self, seat: Seat, spec: &str) -> Result<AdviceJob, ApiError> {
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

    fn undo(&mut self, seat: Seat) -> Result<usize, ApiError> {
        if self.over() {
            return Err(ApiError::conflict(
                "the game is over: nothing can be taken back",
            ));
        }
        if !self.perfect_information() && !self.practice {
            return Err(ApiError::forbidden(
                "takeback in a hidden-information game would let a seat probe what it cannot see; it is allowed only in practice games (created with \"practice\": true or an explicit seed)",
            ));
        }
        if let Some(other) = (0..self.seat_specs.len()).find(|&s| s != seat && self.is_human(s)) {
            return Err(ApiError::conflict(format!(
                "takeback is for games against bots; {} is a human seat too",
                self.game.seat_name(other)
            )));
        }
        let Some(last) = self.deciders.iter().rposition(|d| d.contains(&seat)) else {
            return Err(ApiError::conflict(format!(
                "{} has no decision to take back",
                self.game.seat_name(seat)
            )));
        };
        let n = self.actions.len() - last;
        if !self.practice {
            // Taking back a joint action would show the bots' parts of it, and the same
            // bot answers the same way again: a seat could see them before committing.
            let mut g = self.game.clone();
            for _ in 0..n {
                g.undo();
                if g.turn() == Turn::Simultaneous {
                    return Err(ApiError::forbidden(
                        "takeback across a simultaneous move would let a seat see the bots' secret parts before committing; it is allowed only in practice games (created with \"practice\": true)",
                    ));
                }
            }
        }
        for _ in 0..n {
            self.game.undo();
        }
        self.actions.truncate(last);
        self.deciders.truncate(last);
        self.commits.clear();
        self.forfeit = None;
        self.version += 1;
        Ok(n)
    }

    fn bot_due(&self) -> bool {
        if self.over() {
            return false;
        }
        match self.game.turn() {
            Turn::Chance => true,
            Turn::Seat(s) => !self.is_human(s),
            Turn::Simultaneous => self
                .game
                .simultaneous_seats()
                .iter()
                .all(|&s| !self.is_human(s) || self.commits.contains_key(&s)),
            Turn::Terminal => false,
        }
    }

    fn begin_step(&mut self) -> Result<Step, ApiError> {
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

    fn end_think(&mut self, version: u64, out: Box<dyn Any + Send>) -> Result<(), ApiError> {
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

    fn think_failed(&mut self, version: u64, overran: Option<String>) {
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

    fn actions(&self) -> &[String] {
        &self.actions
    }
    fn params_json(&self) -> serde_json::Value {
        self.params.0.clone()
    }
    fn params_toml(&self) -> String {
        self.params.1.clone()
    }
    fn params_digest(&self) -> String {
        self.params.2.clone()
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn practice(&self) -> bool {
        self.practice
    }
    fn practice_why(&self) -> Option<String> {
        self.practice_why.clone()
    }
    fn forfeited(&self) -> Option<ResultView> {
        self.forfeit.clone()
    }
    fn deciders(&self) -> &[Vec<Seat>] {
        &self.deciders
    }
    fn restore(
        &mut self,
        actions: &[String],
        deciders: &[Vec<Seat>],
        version: u64,
        forfeit: Option<ResultView>,
    ) -> Result<(), ApiError> {
        if deciders.len() != actions.len() {
            return Err(ApiError::internal(
                "the stored record and its deciders differ in length",
            ));
        }
        let texts: Vec<&str> = actions.iter().map(String::as_str).collect();
        self.game = engine::game::replay(self.game.clone(), &texts).map_err(|e| {
            ApiError::internal(format!("the stored record does not replay: {}", chain(&e)))
        })?;
        self.actions = actions.to_vec();
        self.deciders = deciders.to_vec();
        // Above every version a client may have seen before the restart (secret commits,
        // which are not stored, counted too), so a page never takes a view for an old one.
        self.version = version.max(actions.len() as u64) + 1;
        self.forfeit = forfeit;
        let plies = actions.len() as u64;
        self.chance_rng = Pcg64::seed_from_u64(mix(mix(self.seed, 0), plies));
        for (s, r) in self.bot_rngs.iter_mut().enumerate() {
            *r = Pcg64::seed_from_u64(mix(mix(self.seed, s as u64 + 1), plies));
        }
        Ok(())
    }
    fn opening(&self) -> Option<&str> {
        self.opening.as_deref()
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn brancher(&self, req: &BranchRequest) -> Result<BranchJob, ApiError> {
        super::branch::brancher(self, req)
    }
    fn branch_time(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.rules.limits.max_branch_seconds)
    }

    fn result(&self) -> Option<ResultView> {
        if let Some(f) = &self.forfeit {
            return Some(f.clone());
        }
        self.game.result().map(|r| ResultView {
            returns: r.returns[..self.game.num_seats()].to_vec(),
            reason: r.reason.to_string(),
        })
    }
}

/// Builds a [`Session`] for the variant [`engine::registry::visit`] hands over.
pub struct Builder(pub NewGame);

impl VariantVisitor for Builder {
    type Output = Result<Box<dyn Session>, ApiError>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Self::Output {
        let NewGame {
            seed: given_seed,
            practice,
            asked_practice,
            rules,
            opening,
            seats,
        } = self.0;
        let start = match &opening {
            Some(text) => G::from_opening(&params, text)
                .map_err(|e| ApiError::bad_request(format!("opening: {}", chain(&e))))?,
            None => G::new(&params),
        };
        let n = start.num_seats();
        let specs = match seats.len() {
            0 => vec![HUMAN.to_string(); n],
            1 => vec![seats[0].clone(); n],
            k if k == n => seats,
            k => {
                return Err(ApiError::bad_request(format!(
                    "seats: {name} has {n} seat(s) but {k} were given"
                )))
            }
        };
        let human_seats = specs.iter().filter(|s| s.trim() == HUMAN).count();
        let humans = human_seats > 0;
        let hidden = !start.is_perfect_information();
        // Bots beside a human in a hidden-information game decide from their seat's
        // information only: a bot reading the true state would show it in its play.
        let used = if humans && hidden {
            Use::BesideHumans
        } else {
            Use::BotsOnly
        };
        let mut bots = Vec::with_capacity(n);
        for spec in &specs {
            let spec = spec.trim();
            if spec == HUMAN {
                bots.push(None);
            } else {
                bots.push(Some(rules.build::<G>(spec, used)?));
            }
        }
        // A human's game is seeded from the operating system unless the creator chose the
        // seed.
        let seed = match given_seed {
            Some(s) => s,
            None if humans => {
                use rand::RngCore;
                rand::rngs::OsRng.next_u64()
            }
            None => 1,
        };
        let params_json = serde_json::to_value(&params).unwrap_or(serde_json::Value::Null);
        let (practice, practice_why) = match practice {
            Some(stored) => stored,
            None => practice_of(
                &start,
                name,
                &params_json,
                Fixed {
                    seed: given_seed.is_some(),
                    opening: opening.is_some(),
                    asked: asked_practice,
                },
                human_seats,
            )?,
        };
        let params = (
            params_json,
            toml::to_string(&params).unwrap_or_default(),
            crate::util::digest_hex(&crate::util::params_canonical(&params)),
        );
        Ok(Box::new(GameSession::<G> {
            name,
            params,
            game: start.clone(),
            seed,
            opening,
            seat_specs: specs.iter().map(|s| s.trim().to_string()).collect(),
            bots,
            bot_rngs: (0..n)
                .map(|s| Pcg64::seed_from_u64(mix(seed, s as u64 + 1)))
                .collect(),
            chance_rng: Pcg64::seed_from_u64(mix(seed, 0)),
            used,
            out: None,
            start,
            actions: Vec::new(),
            deciders: Vec::new(),
            commits: HashMap::new(),
            version: 0,
            practice,
            practice_why,
            rules,
            forfeit: None,
        }))
    }
}

/// What a creator fixed beside the rules.
struct Fixed {
    seed: bool,
    opening: bool,
    asked: bool,
}

/// Whether a new game is practice, and why (issue 65): in a game with a human seat, a
/// creator who fixes what is hidden or left to chance (the seed where there is hidden
/// information, simultaneous moves or chance; an opening where there is hidden
/// information; a parameter of [`super::rules::HIDDEN_PARAMS`]) could know what a seat
/// cannot see. With one person that person is the creator: the game is practice. With two
/// or more people the creator would know another's secret: refused unless the creator
/// asked for practice, which every seat's view then shows.
fn practice_of<G: Game>(
    start: &G,
    name: &str,
    params: &serde_json::Value,
    fixed: Fixed,
    human_seats: usize,
) -> Result<(bool, Option<String>), ApiError> {
    if human_seats == 0 {
        return Ok((false, None));
    }
    let facts = start.facts();
    let hidden = facts.information != Information::Perfect;
    let secret_moves = facts.dynamics == engine::game::Dynamics::Simultaneous;
    let chance = facts.chance != engine::game::ChanceMode::Deterministic;
    let mut what: Vec<String> = Vec::new();
    if fixed.seed && (hidden || secret_moves || chance) {
        what.push("the seed".into());
    }
    if fixed.opening && hidden {
        what.push("the opening position".into());
    }
    for key in super::rules::hidden_params_given(name, params) {
        what.push(format!("the parameter {key}"));
    }
    if fixed.asked {
        let why = if what.is_empty() {
            "its creator asked for a practice game".to_string()
        } else {
            format!(
                "its creator asked for a practice game and chose {}",
                what.join(", ")
            )
        };
        return Ok((true, Some(why)));
    }
    if what.is_empty() {
        return Ok((false, None));
    }
    if human_seats > 1 {
        return Err(ApiError::bad_request(format!(
            "{} would fix what one person cannot see in a game two people play, and its creator would know it; leave it out, or ask for a practice game (\"practice\": true), which every seat's view shows",
            what.join(", ")
        )));
    }
    Ok((true, Some(format!("its creator chose {}", what.join(", ")))))
}

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

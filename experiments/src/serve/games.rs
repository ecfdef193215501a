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

use super::api::{
    ApiError, BranchOutcome, BranchRequest, ChanceView, ResultView, SeatView, TurnView,
};
use super::limits::{agent_error, checked_spec, EvalFiles, Limits, Use};
use crate::util::mix;
use agents::Agent;
use engine::game::{joint_notation, Game, Information, Seat, Turn};
use engine::registry::VariantVisitor;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::collections::HashMap;
use std::sync::Arc;

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
    /// The agent `spec` chooses `seat`'s action now, which is then played as by `act`.
    fn agent_act(&mut self, seat: Seat, spec: &str) -> Result<String, ApiError>;
    /// Takes back `seat`'s last decision and everything after it; returns how many
    /// actions were taken back.
    fn undo(&mut self, seat: Seat) -> Result<usize, ApiError>;
    /// Plays one chance outcome or bot decision if one is due; `Ok(false)` when a human
    /// must act or the game is over.
    fn step(&mut self) -> Result<bool, ApiError>;
    /// Whether [`Session::step`] has something to do.
    fn bot_due(&self) -> bool;
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
    /// bots by the number of actions.
    fn restore(&mut self, actions: &[String], deciders: &[Vec<Seat>]) -> Result<(), ApiError>;
    fn opening(&self) -> Option<&str>;
    fn version(&self) -> u64;
    fn result(&self) -> Option<ResultView>;
    /// Prepares "branch here" (the start position, its agents and seeds) while the game
    /// is locked; the returned job plays the games without the lock.
    fn brancher(&self, req: &BranchRequest) -> Result<BranchJob, ApiError>;
    /// How long a branch may run (`--max-branch-seconds`).
    fn branch_time(&self) -> std::time::Duration;
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
pub type BranchJob =
    Box<dyn FnOnce(&std::sync::atomic::AtomicBool) -> Result<BranchOutcome, ApiError> + Send>;

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
    /// Set when a stored game is rebuilt; `None`: a seed given for a hidden-information
    /// game with a human seat makes a practice game.
    pub practice: Option<bool>,
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
    bots: Vec<Option<Box<dyn Agent<G>>>>,
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
        self.bots.get(seat).is_some_and(|b| b.is_none())
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

    fn bot_choice(&mut self, seat: Seat) -> Result<G::Action, ApiError> {
        let Some(agent) = self.bots[seat].as_mut() else {
            return Err(ApiError::internal("not a bot seat"));
        };
        agent
            .try_act(&self.game, seat, &mut self.bot_rngs[seat])
            .map_err(|f| ApiError::internal(format!("the bot in seat {seat} gave up: {f}")))
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

    fn agent_act(&mut self, seat: Seat, spec: &str) -> Result<String, ApiError> {
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
        let a = agent
            .try_act(&self.game, seat, &mut rng)
            .map_err(|f| ApiError::internal(format!("the agent gave up: {f}")))?;
        let text = self.game.action_notation(a);
        self.act(seat, &text)?;
        Ok(text)
    }

    fn undo(&mut self, seat: Seat) -> Result<usize, ApiError> {
        if self.over() {
            return Err(ApiError::conflict(
                "the game is over: nothing can be taken back",
            ));
        }
        if !self.perfect_information() && !self.practice {
            return Err(ApiError::forbidden(
                "takeback in a hidden-information game would let a seat probe what it cannot see; it is allowed only in practice games (created with an explicit seed)",
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

    fn step(&mut self) -> Result<bool, ApiError> {
        if !self.bot_due() {
            return Ok(false);
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
            }
            Turn::Seat(s) => {
                let a = self.bot_choice(s)?;
                self.apply_one(a, Vec::new());
            }
            Turn::Simultaneous => {
                // Bots decide in seat order, as in `play_game`.
                for s in self.game.simultaneous_seats() {
                    if !self.is_human(s) {
                        let a = self.bot_choice(s)?;
                        self.commits.insert(s, a);
                    }
                }
                self.try_joint()?;
            }
            Turn::Terminal => return Ok(false),
        }
        Ok(true)
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
    fn deciders(&self) -> &[Vec<Seat>] {
        &self.deciders
    }
    fn restore(&mut self, actions: &[String], deciders: &[Vec<Seat>]) -> Result<(), ApiError> {
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
        self.version = actions.len() as u64;
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
        let humans = specs.iter().any(|s| s.trim() == HUMAN);
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
        // seed, which makes a hidden-information game a practice game (the creator could
        // replay the seed with bots and read the hidden draws).
        let seed = match given_seed {
            Some(s) => s,
            None if humans => {
                use rand::RngCore;
                rand::rngs::OsRng.next_u64()
            }
            None => 1,
        };
        let practice = practice.unwrap_or(given_seed.is_some() && humans && hidden);
        let params = (
            serde_json::to_value(&params).unwrap_or(serde_json::Value::Null),
            toml::to_string(&params).unwrap_or_default(),
            crate::util::digest_hex(&crate::util::params_canonical(&params)),
        );
        Ok(Box::new(GameSession::<G> {
            name,
            params,
            game: start,
            seed,
            opening,
            seat_specs: specs.iter().map(|s| s.trim().to_string()).collect(),
            bots,
            bot_rngs: (0..n)
                .map(|s| Pcg64::seed_from_u64(mix(seed, s as u64 + 1)))
                .collect(),
            chance_rng: Pcg64::seed_from_u64(mix(seed, 0)),
            actions: Vec::new(),
            deciders: Vec::new(),
            commits: HashMap::new(),
            version: 0,
            practice,
            rules,
            forfeit: None,
        }))
    }
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

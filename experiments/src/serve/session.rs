//! One live game's state behind the board: [`GameSession`], the [`Session`] of any
//! variant (its views, acts, takeback and restore; its bot decisions are in `bots`, its
//! making in `new_game`).
//!
//! Issue 65: takeback is refused across a simultaneous move outside practice, versions
//! continue above the stored one at a restart, and the views give the record in SAN
//! (`record_san`, [`SAN_VARIANTS`]). Tests in `experiments/tests/serve_limits.rs`.

use super::api::{ApiError, BranchRequest, ChanceView, ResultView, SeatView, TurnView};
use super::games::{chain, AdviceJob, AgentRules, BranchJob, Session, Step, HUMAN};
use super::limits::Use;
use crate::util::mix;
use agents::Agent;
use engine::game::{joint_notation, Game, Information, Seat, Turn};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::any::Any;
use std::collections::HashMap;
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

/// One live game of variant `G` (see [`Session`]).
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
    pub(super) bots: Vec<Option<Box<dyn Agent<G>>>>,
    /// What the bots may read (to rebuild one whose decision never came back).
    pub(super) used: Use,
    /// The version at which a bot decision was handed out, and its seats.
    pub(super) out: Option<(u64, Vec<Seat>)>,
    /// The start state (the record's readable notation is replayed from it).
    pub(super) start: G,
    pub(super) bot_rngs: Vec<Pcg64>,
    pub(super) chance_rng: Pcg64,
    pub(super) actions: Vec<String>,
    /// Who decided each action: a seat's human decision, or `None` (chance, bots,
    /// joint actions).
    pub(super) deciders: Vec<Vec<Seat>>,
    /// Secret commits at the current simultaneous node, by seat.
    pub(super) commits: HashMap<Seat, G::Action>,
    pub(super) version: u64,
    pub(super) practice: bool,
    pub(super) practice_why: Option<String>,
    pub(super) rules: Arc<AgentRules>,
    /// Result of a game ended by a bot's forfeit (outside programs are refused, so only
    /// as a safety net).
    pub(super) forfeit: Option<ResultView>,
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

    pub(super) fn is_human(&self, seat: Seat) -> bool {
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

    pub(super) fn apply_one(&mut self, a: G::Action, by: Vec<Seat>) {
        self.actions.push(self.game.action_notation(a));
        self.deciders.push(by);
        self.game.apply(a);
        self.version += 1;
    }

    /// Plays the joint action once every acting seat has committed.
    pub(super) fn try_joint(&mut self) -> Result<bool, ApiError> {
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

    pub(super) fn over(&self) -> bool {
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
        self.advice(seat, spec)
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
        self.next_step()
    }

    fn end_think(&mut self, version: u64, out: Box<dyn Any + Send>) -> Result<(), ApiError> {
        self.take_back_thought(version, out)
    }

    fn think_failed(&mut self, version: u64, overran: Option<String>) {
        self.thought_lost(version, overran)
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

//! `chesslab ext-bot`: any chesslab agent served over the ext protocol
//! (`docs/ext-protocol.md`, the client is `agents/src/ext.rs`), so one build of chesslab
//! plays another in any variant, through `ext:cmd=chesslab ext-bot --variant V --agent
//! SPEC` (issue 66: the dev-versus-base test of `docs/guide/strength.md`).
//!
//! [`ExtBot`] answers one message at a time ([`ExtBot::handle`]); [`serve`] is the loop
//! on standard input and output. `hello` is answered with `ready`, `new_game` builds a
//! fresh agent, `act` is answered with `{"action": ...}`, one of the strings of `legal`;
//! `quit` and the end of input end the loop (exit 0). A line that is not a JSON object,
//! an `act` without a field it needs, a record that does not replay, a game that does
//! not fit `--variant` are errors ([`ExtBotError`]: one line naming the message line and
//! the field; the command exits 1), never panics.
//!
//! The state the agent decides from is rebuilt from what the protocol sends:
//! - Perfect information: `record` replayed from the variant's start with `--params`
//!   (chance outcomes and joint actions `a|b` are in it); the replayed position's legal
//!   actions must be `legal` (as a set), else the record is refused.
//! - Hidden information: `record` is `null`; the bot gets `observation(seat)`, its legal
//!   actions and `ply`. The bot keeps the state it decided from last time (its *track*)
//!   and searches the actions of the other seats and of chance since then for a state at
//!   ply `ply`, the seat to act, with exactly these legal actions and this observation
//!   ([`Tracking::Exact`]). When the kept state cannot explain the new observation (a
//!   hidden choice it guessed wrong is revealed), it redraws the hidden past with
//!   `sample_world(seat)` of the last decision's state and searches again
//!   ([`Tracking::Redrawn`]). The agent then decides from a state consistent with every
//!   observation the seat had: nothing in it comes from anywhere but the messages, so
//!   the served agent can know no more than the seat. Agents that read only the seat's
//!   information (`agents::registry::Reads::SeatInformation`: they decide from
//!   `information_key`, `observation`, `sample_world` and legal actions) decide as they
//!   would in chesslab's own loop whenever the rebuilt state's information key is the
//!   true state's, which test `hidden_information_tracking_is_exact` checks decision by
//!   decision on every served hidden-information variant.
//!
//! Decisions where the issue is silent:
//! - Searches are bounded by nodes, not time ([`SEARCH_NODES`], [`REDRAWS`]), so the same
//!   messages give the same answers. Past the bound the bot decides from a state at the
//!   right ply with the right legal actions whose observation differs
//!   ([`Tracking::Relaxed`]), or, when it found none, plays a legal action drawn from the
//!   seed ([`Tracking::Lost`]); both are counted and printed on standard error at the
//!   end (the ext client discards standard error, a person running the bot reads it).
//! - Variants refused ([`refusal`]): Tar Pit and Cooperative (cards dealt at hidden
//!   chance nodes: the deals that explain the seat's hand are far too many for a bounded
//!   search) and Clairvoyant (every turn the opponent writes up to three hidden guesses
//!   among hundreds, revealed only through scores). Measured before refusing them, with
//!   the node bound: most of their decisions found no state explaining the observation
//!   (Cooperative, random play: 32 of 131), so the served agent would have decided from a
//!   state that does not match what its seat knows. Serving them needs a reader of the
//!   variant's observation text. Every other variant is served. In Zombie, long games
//!   outgrow the bound: 556 of 684 decisions explained in four full-length random games,
//!   the rest decided from a state with the right legal actions or by a seeded legal
//!   action.
//! - The first decision of a game may come after uniformly random opening plies
//!   (`tournament --random-opening-plies`), where the loop played the bot's seat without
//!   asking; on hidden information the search then also tries the seat's own actions
//!   before the first decision (few random plies keep that search small).
//! - A game must start at the variant's start: the protocol does not send a start
//!   position, so a tournament `--openings` book is not supported (the record does not
//!   replay, an error); random opening plies are (they are in the record).
//! - A `record` sent on a hidden-information variant is ignored (it would tell the seat
//!   what it may not know). On perfect information the replayed position's legal
//!   actions (as a set) and observation must be those sent, else the record is refused
//!   (legal lists alone often agree: Black's 20 replies to 1. e4 and to 1. d4), so two
//!   builds compared through ext-bot must agree on the variant's rules and observation
//!   text; an absent or empty observation is not compared.
//! - Clock: with `time_left_ms` the decision gets `time_left / moves_to_go` (30 when
//!   `null`) plus 3/4 of `increment_ms`, at most half the time left, less
//!   [`CLOCK_RESERVE_MS`] for reading, rebuilding and answering, at least 1 ms, as a hard
//!   limit ([`agents::Agent::act_within`]): a spec with a budget of its own (`depth`,
//!   `iters`, `time_ms`) keeps it when it is smaller; without a clock the spec's budget
//!   alone applies.
//! - Seeds: game k (the k-th `new_game`, from 1) gives the agent the stream
//!   `mix(seed, 2k)` and the tracking search `mix(seed, 2k + 1)`.
//! - The agent is built afresh for every game (as chesslab's own loop builds built-in
//!   agents), and once before `hello` so a bad spec is an error before any game.
//! - A message of an unknown `type` is ignored (the protocol may grow); a message with
//!   no `type` is an error. Blank lines are ignored.
//!
//! Tests: `experiments/tests/ext_bot.rs` (conformance through the binary, tournaments in
//! several variants, determinism, tracking on every hidden-information variant) and the
//! unit tests below.

use crate::run::variant_args::VariantArgs;
use crate::util::mix;
use agents::{registry, Agent, Limits};
use engine::game::{Game, Information, Seat, Turn};
use engine::registry::VariantVisitor;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::time::Duration;
use thiserror::Error;

/// The protocol name `hello` carries.
pub const PROTOCOL: &str = "chesslab-ext";
/// The protocol version this bot speaks.
pub const VERSION: u64 = 1;
/// Nodes (actions applied) of one decision's search for a state that explains the
/// observation, redraws included.
pub const SEARCH_NODES: u64 = 400_000;
/// Redraws of the hidden past per decision when the kept state cannot explain it.
pub const REDRAWS: usize = 200;
/// Milliseconds of the clock's share kept for reading, rebuilding and answering.
pub const CLOCK_RESERVE_MS: u64 = 5;

/// What went wrong, in one line.
#[derive(Debug, Error)]
pub enum ExtBotError {
    #[error("message line {line}: not a JSON object ({reason}): {text}")]
    Json {
        line: usize,
        reason: String,
        text: String,
    },
    #[error("message line {line}: {message}")]
    Protocol { line: usize, message: String },
    #[error("--agent '{spec}': {source}")]
    Agent {
        spec: String,
        #[source]
        source: Box<agents::AgentError>,
    },
    #[error("--agent: {0}")]
    Escape(String),
    #[error("--variant {variant}: ext-bot cannot serve it: {why}")]
    Refused { variant: String, why: String },
    #[error("reading the messages: {0}")]
    Io(#[from] std::io::Error),
}

/// How the state of a hidden-information decision was found (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tracking {
    /// Perfect information: the record replayed.
    Replayed,
    /// The kept state, extended by actions of the other seats and chance, explains the
    /// observation.
    Exact,
    /// A redrawn hidden past explains it.
    Redrawn,
    /// Only a state with the same legal actions was found.
    Relaxed,
    /// Nothing was found: a legal action drawn from the seed.
    Lost,
}

/// Decisions per [`Tracking`] kind since the bot started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrackStats {
    pub replayed: u64,
    pub exact: u64,
    pub redrawn: u64,
    pub relaxed: u64,
    pub lost: u64,
}

impl TrackStats {
    fn count(&mut self, t: Tracking) {
        match t {
            Tracking::Replayed => self.replayed += 1,
            Tracking::Exact => self.exact += 1,
            Tracking::Redrawn => self.redrawn += 1,
            Tracking::Relaxed => self.relaxed += 1,
            Tracking::Lost => self.lost += 1,
        }
    }
}

/// What to do after a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Nothing to send.
    Silent,
    /// Send this line.
    Send(String),
    /// Stop (after `quit`).
    Quit,
}

/// Why ext-bot refuses variant `name` (the registry's name), if it does (module docs).
pub fn refusal(name: &str) -> Option<&'static str> {
    match name {
        "tar-pit" | "cooperative" => Some(
            "the cards dealt at hidden chance nodes cannot be rebuilt from the observation \
             by a bounded search (the deals that explain the seat's hand are too many to try), \
             so the agent would decide from a state that does not match what its seat knows",
        ),
        "clairvoyant" => Some(
            "the opponent's guess sheets (up to three hidden guesses among hundreds, every \
             turn) cannot be rebuilt from the observation by a bounded search, so the agent \
             would decide from a state that does not match what its seat knows",
        ),
        _ => None,
    }
}

/// Decodes `%XX` escapes in an agent spec given inside `ext:cmd=...`, whose value may not
/// contain `,`, `;` or `:` (`alphabeta%3Adepth=3%2Cworlds=4` is `alphabeta:depth=3,worlds=4`).
pub fn decode_spec(text: &str) -> Result<String, ExtBotError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3).unwrap_or("");
            let byte = (hex.len() == 2)
                .then(|| u8::from_str_radix(hex, 16).ok())
                .flatten()
                .ok_or_else(|| {
                    ExtBotError::Escape(format!(
                        "bad escape '{}' in '{text}' (write %3A for ':', %2C for ',', %3B \
                         for ';', %25 for '%')",
                        &text[i..(i + 3).min(text.len())]
                    ))
                })?;
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out)
        .map_err(|_| ExtBotError::Escape(format!("'{text}' decodes to bytes that are not UTF-8")))
}

/// The state of the last decision of a seat on hidden information and the action chosen.
struct Track<G: Game> {
    before: G,
    answer: G::Action,
}

/// One game in progress.
struct InGame<G: Game> {
    seat: Seat,
    agent: Box<dyn Agent<G>>,
    agent_rng: Pcg64,
    track_rng: Pcg64,
    tracks: Vec<Option<Track<G>>>,
}

/// The bot: one variant, one agent spec, one seed (module docs).
pub struct ExtBot<G: Game> {
    variant: String,
    start: G,
    spec: String,
    seed: u64,
    line: usize,
    games: u64,
    game: Option<InGame<G>>,
    stats: TrackStats,
    last: Option<(G, Tracking)>,
}

/// The fields of an `act` message.
struct Act {
    seat: Seat,
    observation: String,
    legal: Vec<String>,
    ply: usize,
    record: Option<Vec<String>>,
    time_left_ms: Option<u64>,
    increment_ms: u64,
    moves_to_go: Option<u64>,
}

impl<G: Game> ExtBot<G> {
    /// A bot for variant `variant` with `params`, playing agent `spec` (already decoded);
    /// the spec is built once here, so a bad one is an error before any message.
    pub fn new(
        variant: &str,
        params: G::Params,
        spec: &str,
        seed: u64,
    ) -> Result<Self, ExtBotError> {
        let start = G::new(&params);
        if let Some(why) = refusal(variant) {
            return Err(ExtBotError::Refused {
                variant: variant.into(),
                why: why.into(),
            });
        }
        registry::build::<G>(spec).map_err(|source| ExtBotError::Agent {
            spec: spec.into(),
            source: Box::new(source),
        })?;
        Ok(ExtBot {
            variant: variant.into(),
            start,
            spec: spec.into(),
            seed,
            line: 0,
            games: 0,
            game: None,
            stats: TrackStats::default(),
            last: None,
        })
    }

    /// Decisions per tracking kind so far.
    pub fn stats(&self) -> TrackStats {
        self.stats
    }

    /// The state the last decision was made from and how it was found (for tests: on
    /// hidden information it must share the seat's information key with the true state).
    pub fn last_state(&self) -> Option<&(G, Tracking)> {
        self.last.as_ref()
    }

    fn err(&self, message: impl Into<String>) -> ExtBotError {
        ExtBotError::Protocol {
            line: self.line,
            message: message.into(),
        }
    }

    /// Answers one message line.
    pub fn handle(&mut self, text: &str) -> Result<Reply, ExtBotError> {
        self.line += 1;
        if text.trim().is_empty() {
            return Ok(Reply::Silent);
        }
        let v: Value = serde_json::from_str(text).map_err(|e| ExtBotError::Json {
            line: self.line,
            reason: e.to_string(),
            text: shorten(text),
        })?;
        if !v.is_object() {
            return Err(ExtBotError::Json {
                line: self.line,
                reason: "a JSON value but not an object".into(),
                text: shorten(text),
            });
        }
        let kind = match v.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(_) => return Err(self.err("'type' must be a string")),
            None => return Err(self.err("the message has no 'type'")),
        };
        match kind.as_str() {
            "hello" => self.hello(&v).map(Reply::Send),
            "new_game" => self.new_game(&v).map(|()| Reply::Silent),
            "act" => self.act(&v).map(Reply::Send),
            "quit" => Ok(Reply::Quit),
            other => {
                eprintln!(
                    "ext-bot: message line {}: unknown type '{other}' ignored",
                    self.line
                );
                Ok(Reply::Silent)
            }
        }
    }

    fn hello(&self, v: &Value) -> Result<String, ExtBotError> {
        match v.get("protocol") {
            None | Some(Value::Null) => {}
            Some(Value::String(p)) if p == PROTOCOL => {}
            Some(p) => return Err(self.err(format!("hello: protocol {p} is not '{PROTOCOL}'"))),
        }
        match v.get("version") {
            None | Some(Value::Null) => {}
            Some(n) if n.as_u64() == Some(VERSION) => {}
            Some(n) => {
                return Err(self.err(format!(
                "hello: protocol version {n} is not supported (ext-bot speaks version {VERSION})"
            )))
            }
        }
        Ok(json!({
            "type": "ready",
            "name": format!("chesslab ext-bot {}", env!("CARGO_PKG_VERSION")),
            "variant": self.variant,
            "agent": self.spec,
        })
        .to_string())
    }

    fn new_game(&mut self, v: &Value) -> Result<(), ExtBotError> {
        let seats = self.start.num_seats();
        if let Some(n) = v.get("seats").filter(|n| !n.is_null()) {
            if n.as_u64() != Some(seats as u64) {
                return Err(self.err(format!(
                    "new_game: 'seats' is {n} but {} has {seats} seats (is --variant the \
                     client's variant?)",
                    self.variant
                )));
            }
        }
        let seat = match v.get("seat").filter(|n| !n.is_null()) {
            None => 0,
            Some(s) => seat_of(s, seats).ok_or_else(|| {
                self.err(format!(
                    "new_game: 'seat' must be a seat number below {seats}, got {s}"
                ))
            })?,
        };
        let perfect = self.start.facts().information == Information::Perfect;
        let ours = if perfect { "perfect" } else { "imperfect" };
        if let Some(info) = v.get("information").filter(|n| !n.is_null()) {
            if info.as_str() != Some(ours) {
                return Err(self.err(format!(
                    "new_game: 'information' is {info} but {} with these parameters has \
                     {ours} information (is --variant or --params the client's?)",
                    self.variant
                )));
            }
        }
        self.games += 1;
        let agent = registry::build::<G>(&self.spec).map_err(|source| ExtBotError::Agent {
            spec: self.spec.clone(),
            source: Box::new(source),
        })?;
        self.game = Some(InGame {
            seat,
            agent,
            agent_rng: Pcg64::seed_from_u64(mix(self.seed, 2 * self.games)),
            track_rng: Pcg64::seed_from_u64(mix(self.seed, 2 * self.games + 1)),
            tracks: (0..seats).map(|_| None).collect(),
        });
        self.last = None;
        Ok(())
    }

    fn read_act(&self, v: &Value) -> Result<Act, ExtBotError> {
        let seats = self.start.num_seats();
        let seat = match v.get("seat") {
            Some(s) => seat_of(s, seats).ok_or_else(|| {
                self.err(format!(
                    "act: 'seat' must be a seat number below {seats}, got {s}"
                ))
            })?,
            None => self
                .game
                .as_ref()
                .map(|g| g.seat)
                .ok_or_else(|| self.err("act: no 'seat'"))?,
        };
        let strings = |key: &str| -> Result<Option<Vec<String>>, ExtBotError> {
            match v.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .map(Some)
                    .ok_or_else(|| self.err(format!("act: '{key}' must be an array of strings"))),
                Some(_) => Err(self.err(format!("act: '{key}' must be an array of strings"))),
            }
        };
        let legal = strings("legal")?.ok_or_else(|| self.err("act: no 'legal' actions"))?;
        if legal.is_empty() {
            return Err(self.err("act: 'legal' is empty (the bot is asked only when it can act)"));
        }
        let number = |key: &str| -> Result<Option<u64>, ExtBotError> {
            match v.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(n) => n.as_u64().map(Some).ok_or_else(|| {
                    self.err(format!(
                        "act: '{key}' must be a whole number or null, got {n}"
                    ))
                }),
            }
        };
        let observation = match v.get("observation") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(o)) => o.clone(),
            Some(o) => {
                return Err(self.err(format!("act: 'observation' must be a string, got {o}")))
            }
        };
        let record = strings("record")?;
        let ply = match number("ply")? {
            Some(p) => usize::try_from(p).map_err(|_| self.err("act: 'ply' is too large"))?,
            None => match &record {
                Some(r) => r.len(),
                None => return Err(self.err("act: no 'ply' (needed on hidden information)")),
            },
        };
        Ok(Act {
            seat,
            observation,
            legal,
            ply,
            record,
            time_left_ms: number("time_left_ms")?,
            increment_ms: number("increment_ms")?.unwrap_or(0),
            moves_to_go: number("moves_to_go")?,
        })
    }

    fn act(&mut self, v: &Value) -> Result<String, ExtBotError> {
        if self.game.is_none() {
            return Err(self.err("act before any new_game"));
        }
        let act = self.read_act(v)?;
        let perfect = self.start.facts().information == Information::Perfect;
        let (state, tracking) = if perfect {
            (self.replay(&act)?, Tracking::Replayed)
        } else {
            self.track(&act)
        };
        self.stats.count(tracking);
        if !matches!(tracking, Tracking::Replayed | Tracking::Exact) {
            eprintln!(
                "ext-bot: game {} ply {} seat {}: {tracking:?}",
                self.games, act.ply, act.seat
            );
        }
        let seat = act.seat;
        let game = self.game.as_mut().expect("checked above");
        let text = if tracking == Tracking::Lost {
            act.legal[game.track_rng.gen_range(0..act.legal.len())].clone()
        } else {
            let action = match clock_share(&act) {
                Some(share) => {
                    let limits = Limits {
                        time: Some(share),
                        ..Limits::default()
                    };
                    game.agent
                        .act_within(&state, seat, &mut game.agent_rng, &limits)
                }
                None => game.agent.act(&state, seat, &mut game.agent_rng),
            };
            let text = state.action_notation(action);
            if !perfect {
                game.tracks[seat] = Some(Track {
                    before: state.clone(),
                    answer: action,
                });
            }
            text
        };
        if !act.legal.contains(&text) {
            return Err(self.err(format!(
                "act: the agent chose '{text}', which is not in 'legal' (the rebuilt state \
                 disagrees with the client's)"
            )));
        }
        self.last = Some((state, tracking));
        Ok(json!({ "action": text }).to_string())
    }

    /// Perfect information: the record replayed from the start, checked against `legal`.
    fn replay(&self, act: &Act) -> Result<G, ExtBotError> {
        let Some(record) = &act.record else {
            return Err(self.err(format!(
                "act: 'record' is null, but {} has perfect information (the record is how \
                 ext-bot rebuilds the position)",
                self.variant
            )));
        };
        let moves: Vec<&str> = record.iter().map(String::as_str).collect();
        let state = engine::game::replay(self.start.clone(), &moves).map_err(|e| {
            self.err(format!(
                "act: the record does not replay from {}'s start: {e} (ext-bot plays from the \
                 variant's start with --params; opening books are not supported)",
                self.variant
            ))
        })?;
        if !acts(&state, act.seat) {
            return Err(self.err(format!(
                "act: after the record it is not seat {}'s turn",
                act.seat
            )));
        }
        let ours = sorted(legal_texts(&state, act.seat));
        let theirs = sorted(act.legal.clone());
        if ours != theirs {
            let extra = theirs.iter().find(|t| ours.binary_search(t).is_err());
            let missing = ours.iter().find(|t| theirs.binary_search(t).is_err());
            return Err(self.err(format!(
                "act: 'legal' ({} actions) is not the legal list after the record ({} \
                 actions{}{}): another start or other --params?",
                theirs.len(),
                ours.len(),
                extra.map_or(String::new(), |t| format!(
                    "; '{t}' sent but not legal here"
                )),
                missing.map_or(String::new(), |t| format!(
                    "; '{t}' legal here but not sent"
                )),
            )));
        }
        if !act.observation.is_empty() && state.observation(act.seat) != act.observation {
            return Err(self.err(format!(
                "act: the record replays to a position whose observation is not the one sent \
                 ('{}' here, '{}' sent): another start or other --params?",
                shorten(&state.observation(act.seat)),
                shorten(&act.observation)
            )));
        }
        Ok(state)
    }

    /// Hidden information: a state explaining what the seat sees (module docs).
    fn track(&mut self, act: &Act) -> (G, Tracking) {
        let game = self.game.as_mut().expect("in a game");
        let seat = act.seat;
        let kept = game.tracks[seat].take();
        let mut search = Search {
            seat,
            ply: act.ply,
            legal: sorted(act.legal.clone()),
            observation: &act.observation,
            nodes: SEARCH_NODES,
            own_turns: kept.is_none(),
            relaxed: None,
            rng: &mut game.track_rng,
        };
        let found = match &kept {
            None => search.from(self.start.clone(), None),
            Some(t) => search.from(t.before.clone(), Some(t.answer)),
        };
        if let Some(s) = found {
            return (s, Tracking::Exact);
        }
        if let Some(t) = &kept {
            let mut left = search.nodes;
            for i in 0..REDRAWS {
                if left == 0 {
                    break;
                }
                // Each redraw may spend an equal part of what is left.
                let share = (left / (REDRAWS - i) as u64).max(1);
                search.nodes = share;
                let world = t.before.sample_world(seat, search.rng);
                let found = search.from(world, Some(t.answer));
                left -= share - search.nodes;
                if let Some(s) = found {
                    return (s, Tracking::Redrawn);
                }
            }
        }
        match search.relaxed.take() {
            Some(s) => (s, Tracking::Relaxed),
            None => (self.start.clone(), Tracking::Lost),
        }
    }
}

/// A depth-first search over the other seats' and chance's actions for a state that
/// explains one `act` (module docs).
struct Search<'a, G: Game> {
    seat: Seat,
    ply: usize,
    legal: Vec<String>,
    observation: &'a str,
    nodes: u64,
    own_turns: bool,
    relaxed: Option<G>,
    rng: &'a mut Pcg64,
}

impl<G: Game> Search<'_, G> {
    /// From `state` (the last decision's, with its `answer` played first, or the start).
    fn from(&mut self, mut state: G, answer: Option<G::Action>) -> Option<G> {
        match answer {
            None => self.dfs(&mut state),
            Some(a) => match state.turn() {
                Turn::Seat(_) => {
                    state.apply(a);
                    self.dfs(&mut state)
                }
                Turn::Simultaneous => {
                    let seats = state.simultaneous_seats();
                    let fixed: Vec<Option<G::Action>> = seats
                        .iter()
                        .map(|&s| (s == self.seat).then_some(a))
                        .collect();
                    self.joint(&mut state, &seats, &fixed)
                }
                _ => None,
            },
        }
    }

    fn dfs(&mut self, g: &mut G) -> Option<G> {
        if self.nodes == 0 {
            return None;
        }
        self.nodes -= 1;
        let h = g.history_len();
        if h >= self.ply {
            return (h == self.ply).then(|| self.check(g)).flatten();
        }
        match g.turn() {
            Turn::Terminal => None,
            Turn::Chance => {
                let mut outcomes = Vec::new();
                g.chance_outcomes(&mut outcomes);
                let mut options: Vec<G::Action> =
                    outcomes.iter().filter(|o| o.1 > 0.0).map(|o| o.0).collect();
                options.shuffle(self.rng);
                self.seen_first(g, &mut options);
                self.each(g, options)
            }
            Turn::Seat(s) => {
                if s == self.seat && !self.own_turns {
                    return None;
                }
                let mut options = Vec::new();
                g.legal_actions(s, &mut options);
                options.shuffle(self.rng);
                self.seen_first(g, &mut options);
                self.each(g, options)
            }
            Turn::Simultaneous => {
                let seats = g.simultaneous_seats();
                if seats.contains(&self.seat) && !self.own_turns {
                    return None;
                }
                let free = vec![None; seats.len()];
                self.joint(g, &seats, &free)
            }
        }
    }

    /// Puts first the actions whose notation the observation shows (a record of visible
    /// actions is part of many observations), keeping the shuffled order otherwise.
    fn seen_first(&self, g: &G, options: &mut [G::Action]) {
        options.sort_by_key(|&a| !self.observation.contains(g.action_notation(a).as_str()));
    }

    fn each(&mut self, g: &mut G, options: Vec<G::Action>) -> Option<G> {
        for a in options {
            g.apply(a);
            let found = self.dfs(g);
            g.undo();
            if found.is_some() || self.nodes == 0 {
                return found;
            }
        }
        None
    }

    /// Every joint action of `seats` (a seat's part fixed where `fixed` says).
    fn joint(&mut self, g: &mut G, seats: &[Seat], fixed: &[Option<G::Action>]) -> Option<G> {
        let mut lists: Vec<Vec<G::Action>> = Vec::with_capacity(seats.len());
        for (&s, f) in seats.iter().zip(fixed) {
            match f {
                Some(a) => lists.push(vec![*a]),
                None => {
                    let mut l = Vec::new();
                    g.legal_actions(s, &mut l);
                    l.shuffle(self.rng);
                    lists.push(l);
                }
            }
        }
        if lists.iter().any(Vec::is_empty) {
            return None;
        }
        let mut index = vec![0usize; lists.len()];
        loop {
            let joint: Vec<G::Action> = index.iter().zip(&lists).map(|(&i, l)| l[i]).collect();
            g.apply_joint(&joint);
            let found = self.dfs(g);
            g.undo();
            if found.is_some() || self.nodes == 0 {
                return found;
            }
            // The next combination, the last seat fastest.
            let mut k = lists.len();
            loop {
                if k == 0 {
                    return None;
                }
                k -= 1;
                index[k] += 1;
                if index[k] < lists[k].len() {
                    break;
                }
                index[k] = 0;
            }
        }
    }

    fn check(&mut self, g: &G) -> Option<G> {
        if !acts(g, self.seat) || sorted(legal_texts(g, self.seat)) != self.legal {
            return None;
        }
        if g.observation(self.seat) == self.observation {
            return Some(g.clone());
        }
        if self.relaxed.is_none() {
            self.relaxed = Some(g.clone());
        }
        None
    }
}

/// Whether `seat` acts at `g` (its turn, or one of the seats of a simultaneous node).
fn acts<G: Game>(g: &G, seat: Seat) -> bool {
    match g.turn() {
        Turn::Seat(s) => s == seat,
        Turn::Simultaneous => g.simultaneous_seats().contains(&seat),
        _ => false,
    }
}

fn legal_texts<G: Game>(g: &G, seat: Seat) -> Vec<String> {
    let mut actions = Vec::new();
    g.legal_actions(seat, &mut actions);
    actions.iter().map(|a| g.action_notation(*a)).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn seat_of(v: &Value, seats: usize) -> Option<Seat> {
    v.as_u64()
        .and_then(|s| usize::try_from(s).ok())
        .filter(|&s| s < seats)
}

/// A message as an error shows it: at most 120 characters.
fn shorten(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(120) {
        Some((i, _)) => format!("{}...", &t[..i]),
        None => t.to_string(),
    }
}

/// The decision's share of the clock (module docs), `None` without a clock.
fn clock_share(act: &Act) -> Option<Duration> {
    let left = act.time_left_ms?;
    let share = left / act.moves_to_go.unwrap_or(30).max(1) + act.increment_ms * 3 / 4;
    let ms = share.min(left / 2).saturating_sub(CLOCK_RESERVE_MS).max(1);
    Some(Duration::from_millis(ms))
}

/// Reads message lines from `input` and writes the answers to `output` until `quit` or
/// the end of the input.
pub fn serve<G: Game>(
    bot: &mut ExtBot<G>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), ExtBotError> {
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        match bot.handle(&line)? {
            Reply::Silent => {}
            Reply::Send(answer) => {
                writeln!(output, "{answer}")?;
                output.flush()?;
            }
            Reply::Quit => return Ok(()),
        }
    }
}

/// `chesslab ext-bot`'s whole run for the variant of `variant`: the bot built, the loop
/// served, the tracking counts returned.
pub fn run(
    variant: &VariantArgs,
    spec: &str,
    seed: u64,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> anyhow::Result<TrackStats> {
    struct Serve<'a> {
        spec: &'a str,
        seed: u64,
        input: &'a mut dyn BufRead,
        output: &'a mut dyn Write,
    }
    impl VariantVisitor for Serve<'_> {
        type Output = Result<TrackStats, ExtBotError>;
        fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Self::Output {
            let mut bot = ExtBot::<G>::new(name, params, self.spec, self.seed)?;
            let served = serve(&mut bot, self.input, self.output);
            served.map(|()| bot.stats())
        }
    }
    Ok(variant.visit(Serve {
        spec,
        seed,
        input,
        output,
    })??)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_escapes_decode_and_bad_ones_are_named() {
        assert_eq!(
            decode_spec("alphabeta%3Adepth=3%2Cworlds=4").unwrap(),
            "alphabeta:depth=3,worlds=4"
        );
        assert_eq!(decode_spec("greedy").unwrap(), "greedy");
        assert_eq!(decode_spec("a%25b%3b").unwrap(), "a%b;");
        for bad in ["x%", "x%3", "x%zz", "x%G1"] {
            let e = decode_spec(bad).unwrap_err().to_string();
            assert!(
                e.contains("bad escape") && e.contains("--agent"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn the_clock_share_follows_the_documented_rule() {
        let act = |left, inc, mtg| Act {
            seat: 0,
            observation: String::new(),
            legal: vec![],
            ply: 0,
            record: None,
            time_left_ms: left,
            increment_ms: inc,
            moves_to_go: mtg,
        };
        assert_eq!(clock_share(&act(None, 100, None)), None);
        // 30 moves to go by default: 3000/30 + 75 - 5.
        assert_eq!(
            clock_share(&act(Some(3000), 100, None)),
            Some(Duration::from_millis(170))
        );
        // At most half the time left.
        assert_eq!(
            clock_share(&act(Some(100), 1000, Some(1))),
            Some(Duration::from_millis(45))
        );
        assert_eq!(
            clock_share(&act(Some(0), 0, None)),
            Some(Duration::from_millis(1))
        );
    }
}

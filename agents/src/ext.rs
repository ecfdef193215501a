//! The `ext` agent: an outside program playing any variant through chesslab's JSON-lines
//! protocol (issue 18; the protocol is specified in `docs/ext-protocol.md`, an example
//! bot is `examples/ext_bot.py`).
//!
//! Spec: `ext:cmd=PROGRAM [ARGS...][,tc=SECONDS+INC][,margin_ms=M][,timeout_ms=T]`.
//! One message per line each way. chesslab sends `hello` (answered by `ready`) when the
//! agent is built, `new_game` before each game, `act` for every decision (answered by
//! `{"action": "..."}`) and `quit` when the agent is dropped. An `act` carries the
//! variant's facts, the seat, `observation(seat)`, the legal actions as notation
//! strings, the time left and the record so far.
//!
//! Failures are those of the `uci` agent: a missing program or no `ready` is an
//! [`crate::AgentError::External`] before the run; during a game a closed output is
//! `forfeit-crash`, an answer that is not one of the legal actions (or not the JSON
//! object) `forfeit-illegal`, more than the clock plus `margin_ms` `forfeit-time`, no
//! answer within `timeout_ms` without a clock `forfeit-hang`. After a crash, hang or
//! time loss the program is killed and started again for the next game.
//!
//! Decisions where the issue is silent:
//! - The record is the full action list only on perfect information; on hidden
//!   information `record` is `null` (the full list would show what the seat may not
//!   know) and the observation is what the bot gets.
//! - At a simultaneous node the bot is asked once per seat it plays, like any agent.
//! - Time: like `uci`, chesslab's clock measures from sending `act` to reading the
//!   answer; without `tc` `time_left_ms` is `null`.
//!
//! Tests: `rule_ext_*` in `experiments/tests/outside_bots.rs`, the example bot playing every
//! variant.

use crate::process::{Child, ExternalError, ProcessError};
use crate::settings::{Kind, Setting, Settings};
use crate::spec::{AgentError, Spec};
use crate::uci::tc::{Clock, TimeControl};
use crate::{Agent, Forfeit, ForfeitKind};
use engine::game::{Game, Information, Seat};
use rand_pcg::Pcg64;
use serde_json::json;
use std::time::{Duration, Instant};

/// The protocol version `hello` announces.
pub const PROTOCOL_VERSION: u32 = 1;

/// The `ext` agent's settings.
pub fn schema() -> Vec<Setting> {
    let int = |min| Kind::Int { min, max: u64::MAX };
    vec![
        Setting {
            key: "cmd",
            kind: Kind::Text,
            default: "",
            tunable: false,
            help: "the bot: program name or path, then its arguments, space-separated (required)",
        },
        Setting {
            key: "tc",
            kind: Kind::Text,
            default: "",
            tunable: false,
            help:
                "time control moves/seconds+increment (40/60+0.6, 10+0.1), clock kept by chesslab",
        },
        Setting {
            key: "margin_ms",
            kind: int(0),
            default: "500",
            tunable: false,
            help: "time over the clock allowed before a loss on time",
        },
        Setting {
            key: "timeout_ms",
            kind: int(1),
            default: "60000",
            tunable: false,
            help: "longest wait for any answer without a clock before a hang",
        },
    ]
}

#[derive(Clone, Debug)]
struct Config {
    program: String,
    args: Vec<String>,
    tc: Option<TimeControl>,
    margin: Duration,
    timeout: Duration,
}

/// The `ext` agent (see the module documentation).
pub struct ExtAgent {
    spec: String,
    cfg: Config,
    child: Option<Child>,
    record: Vec<String>,
    clock: Option<Clock>,
    /// `new_game` sent for the current game.
    in_game: bool,
}

fn start(cfg: &Config) -> Result<Child, ExternalError> {
    let mut child = Child::spawn(&cfg.program, &cfg.args)?;
    child.quit_line = Some(json!({"type": "quit"}).to_string());
    let hello = json!({"type": "hello", "protocol": "chesslab-ext", "version": PROTOCOL_VERSION});
    let no_answer = || ExternalError::NoAnswer {
        program: cfg.program.clone(),
        protocol: "chesslab-ext",
        command: "hello".into(),
        expected: "{\"type\": \"ready\"}".into(),
        timeout_ms: cfg.timeout.as_millis() as u64,
    };
    child.send(&hello.to_string())?;
    let started = Instant::now();
    let line = child
        .recv(started + cfg.timeout, started)
        .map_err(|_| no_answer())?;
    let v: serde_json::Value = serde_json::from_str(&line).map_err(|_| no_answer())?;
    if v.get("type").and_then(|t| t.as_str()) != Some("ready") {
        return Err(no_answer());
    }
    Ok(child)
}

impl ExtAgent {
    /// Reads the spec and starts the program (so a bad program is an error before a run).
    pub fn from_spec(spec: &Spec) -> Result<ExtAgent, AgentError> {
        let s = Settings::read(spec, &schema())?;
        let bad = |key: &str, value: &str, expected: String| AgentError::BadValue {
            agent: spec.name.clone(),
            key: key.into(),
            value: value.into(),
            expected,
        };
        let cmd = s.text("cmd").ok_or_else(|| {
            bad(
                "cmd",
                "",
                "is required: the bot's program name or path".into(),
            )
        })?;
        let mut words = cmd.split_whitespace().map(str::to_string);
        let program = words.next().unwrap_or_default();
        let tc = match s.text("tc") {
            Some(t) => Some(TimeControl::parse(&t).map_err(|e| bad("tc", &t, e))?),
            None => None,
        };
        let cfg = Config {
            program,
            args: words.collect(),
            tc,
            margin: Duration::from_millis(s.int("margin_ms")),
            timeout: Duration::from_millis(s.int("timeout_ms")),
        };
        let child = start(&cfg).map_err(|source| AgentError::External {
            spec: spec.canonical(),
            source,
        })?;
        Ok(ExtAgent {
            spec: spec.canonical(),
            clock: cfg.tc.map(Clock::new),
            cfg,
            child: Some(child),
            record: Vec::new(),
            in_game: false,
        })
    }

    fn give_up(&mut self, kind: ForfeitKind, detail: String) -> Forfeit {
        if kind != ForfeitKind::Illegal {
            if let Some(mut c) = self.child.take() {
                c.quit_line = None;
                c.kill();
            }
        }
        Forfeit { kind, detail }
    }

    fn failed(&mut self, e: ProcessError, late: ForfeitKind) -> Forfeit {
        match e {
            ProcessError::Timeout { waited_ms, .. } => {
                self.give_up(late, format!("no answer after {waited_ms} ms"))
            }
            other => self.give_up(ForfeitKind::Crash, other.to_string()),
        }
    }

    fn play<G: Game>(&mut self, game: &G, seat: Seat) -> Result<G::Action, Forfeit> {
        if self.child.is_none() {
            let c = start(&self.cfg).map_err(|e| Forfeit {
                kind: ForfeitKind::Crash,
                detail: format!("could not restart the bot: {e}"),
            })?;
            self.child = Some(c);
        }
        let facts = game.facts();
        let perfect = facts.information == Information::Perfect;
        if !self.in_game {
            let msg = json!({
                "type": "new_game",
                "seats": game.num_seats(),
                "seat": seat,
                "seat_name": game.seat_name(seat),
                "information": if perfect { "perfect" } else { "imperfect" },
            });
            if let Err(e) = self.child.as_mut().expect("started").send(&msg.to_string()) {
                return Err(self.failed(e, ForfeitKind::Hang));
            }
            self.in_game = true;
        }
        let mut actions = Vec::new();
        game.legal_actions(seat, &mut actions);
        let legal: Vec<String> = actions.iter().map(|a| game.action_notation(*a)).collect();
        let msg = json!({
            "type": "act",
            "seat": seat,
            "seat_name": game.seat_name(seat),
            "observation": game.observation(seat),
            "legal": legal,
            "time_left_ms": self.clock.map(|c| c.left_ms),
            "increment_ms": self.clock.map(|c| c.tc.inc_ms),
            "moves_to_go": self.clock.and_then(|c| c.moves_to_go()),
            "record": if perfect { json!(self.record) } else { serde_json::Value::Null },
            "ply": game.history_len(),
        });
        let (wait, late) = match self.clock {
            Some(c) => (
                Duration::from_millis(c.left_ms) + self.cfg.margin,
                ForfeitKind::Time,
            ),
            None => (self.cfg.timeout, ForfeitKind::Hang),
        };
        let child = self.child.as_mut().expect("started");
        if let Err(e) = child.send(&msg.to_string()) {
            return Err(self.failed(e, late));
        }
        let started = Instant::now();
        let line = match child.recv(started + wait, started) {
            Ok(l) => l,
            Err(e) => return Err(self.failed(e, late)),
        };
        let used = started.elapsed();
        let margin = self.cfg.margin;
        if let Some(clock) = self.clock.as_mut() {
            let before = clock.left_ms;
            if !clock.charge(used, margin) {
                return Err(self.give_up(
                    ForfeitKind::Time,
                    format!("used {} ms with {before} ms on the clock", used.as_millis()),
                ));
            }
        }
        let answer = serde_json::from_str::<serde_json::Value>(&line)
            .ok()
            .and_then(|v| v.get("action").and_then(|a| a.as_str()).map(str::to_string));
        let Some(text) = answer else {
            return Err(self.give_up(
                ForfeitKind::Illegal,
                format!("answer '{line}' is not {{\"action\": \"...\"}}"),
            ));
        };
        match legal.iter().position(|l| *l == text) {
            Some(i) => Ok(actions[i]),
            None => Err(self.give_up(
                ForfeitKind::Illegal,
                format!(
                    "action '{text}' is not one of the {} legal actions",
                    legal.len()
                ),
            )),
        }
    }
}

impl<G: Game> Agent<G> for ExtAgent {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// Outside the game loop a forfeit has no record to go to, so it is a panic naming
    /// the bot and what it did; the game loop calls [`Agent::try_act`].
    fn act(&mut self, game: &G, seat: Seat, _rng: &mut Pcg64) -> G::Action {
        match self.play(game, seat) {
            Ok(a) => a,
            Err(f) => panic!("{}: {f}", self.spec),
        }
    }

    fn try_act(&mut self, game: &G, seat: Seat, _rng: &mut Pcg64) -> Result<G::Action, Forfeit> {
        self.play(game, seat)
    }

    fn reset(&mut self) {
        self.record.clear();
        self.in_game = false;
        self.clock = self.cfg.tc.map(Clock::new);
    }

    fn observe(&mut self, action: &str) {
        self.record.push(action.to_string());
    }

    fn reusable(&self) -> bool {
        true
    }
}

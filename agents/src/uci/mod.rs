//! The `uci` agent: an outside UCI engine (Stockfish, Fairy-Stockfish, ...) playing
//! orthodox chess and Chess960 as a chesslab agent (issue 18).
//!
//! Spec: `uci:cmd=PROGRAM [ARGS...][,option.NAME=VALUE...][,nodes=N|movetime=MS|depth=D|tc=40/60+0.6][,margin_ms=M][,timeout_ms=T]`.
//! `cmd` is the program (a name looked up in `PATH` and the games folders, or a path)
//! followed by its arguments, separated by spaces.
//!
//! Protocol (the UCI text): at start `uci` ... `uciok`, one `setoption name N value V`
//! per `option.N`, `isready` ... `readyok`; before each game `ucinewgame` and `isready`;
//! per move `setoption name UCI_Chess960 value true|false` when it changes, `position
//! startpos|fen F moves M...` (the game's start and every move since, so the engine
//! sees repetitions) and `go` with the limit; the answer is `bestmove`. `quit` when the
//! agent is dropped (end of the run). Scores from `info ... score cp|mate` (principal
//! line only) are kept for adjudication ([`crate::Agent::score`]).
//!
//! Failures: before a run (building the agent starts the engine) a missing program, a
//! program that does not answer `uciok`, or an `option.NAME` the engine does not declare
//! is an [`crate::AgentError::External`]. During a game ([`crate::Agent::try_act`]): a
//! closed output is `forfeit-crash`, a `bestmove` that is not legal `forfeit-illegal`,
//! more than the clock plus `margin_ms` (time controls, `movetime`) `forfeit-time`, no
//! answer within `timeout_ms` (fixed nodes or depth) `forfeit-hang`. After a crash, a hang
//! or a time loss the engine is killed and started again for the next game.
//!
//! Decisions where the issue is silent:
//! - No limit given: `movetime=1000`. More than one limit is refused.
//! - The clock: chesslab measures from sending `go` to reading `bestmove`. Each agent
//!   keeps its own clock only, so `go` gives the opponent's time (`btime` for White) as
//!   equal to the engine's own: the opponent may be a chesslab agent with no clock.
//! - `movetime` is held to the same margin as a clock: `movetime + margin_ms`.
//! - An engine kept out of step by a late answer is never reused: after a time loss or a
//!   hang it is killed, not sent `stop`.
//! - One engine process per agent instance; the tournament keeps one instance per game
//!   slot (worker thread and seat) for the whole run ([`crate::Agent::reusable`]).
//!
//! Tests: `rule_uci_*` in `experiments/tests/outside_bots.rs` (real Stockfish and a fake
//! engine script), `rule_tc_*` in [`tc`].

pub mod tc;

use crate::process::{Child, ExternalError, ProcessError};
use crate::settings::{Kind, Setting, Settings};
use crate::spec::{AgentError, Spec};
use crate::{Agent, Forfeit, ForfeitKind, Score};
use engine::game::{Game, Seat};
use engine::variants::chess::Chess;
use rand_pcg::Pcg64;
use std::time::{Duration, Instant};
use tc::{Clock, Limit, TimeControl};

/// The `uci` agent's settings (the `option.*` keys are the engine's own, passed on).
pub fn schema() -> Vec<Setting> {
    let int = |min| Kind::Int { min, max: u64::MAX };
    vec![
        Setting {
            key: "cmd",
            kind: Kind::Text,
            default: "",
            tunable: false,
            help: "the engine: program name or path, then its arguments, space-separated (required)",
        },
        Setting {
            key: "option.*",
            kind: Kind::Text,
            default: "",
            tunable: false,
            help: "option.NAME=VALUE sends setoption name NAME value VALUE (the engine must declare NAME)",
        },
        Setting {
            key: "nodes",
            kind: int(1),
            default: "",
            tunable: false,
            help: "go nodes N",
        },
        Setting {
            key: "movetime",
            kind: int(1),
            default: "",
            tunable: false,
            help: "go movetime MS (the default limit: 1000)",
        },
        Setting {
            key: "depth",
            kind: Kind::Int { min: 1, max: 1000 },
            default: "",
            tunable: false,
            help: "go depth D",
        },
        Setting {
            key: "tc",
            kind: Kind::Text,
            default: "",
            tunable: false,
            help: "time control moves/seconds+increment (40/60+0.6, 10+0.1), clock kept by chesslab",
        },
        Setting {
            key: "margin_ms",
            kind: int(0),
            default: "500",
            tunable: false,
            help: "time over the clock (or movetime) allowed before a loss on time",
        },
        Setting {
            key: "timeout_ms",
            kind: int(1),
            default: "60000",
            tunable: false,
            help: "longest wait for any answer without a clock (handshake, nodes, depth) before a hang",
        },
    ]
}

/// How to start and drive one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct UciConfig {
    pub program: String,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    pub limit: Limit,
    pub margin: Duration,
    pub timeout: Duration,
}

impl UciConfig {
    pub fn from_spec(spec: &Spec) -> Result<UciConfig, AgentError> {
        let (own, options) = spec.split_prefixed("option.");
        let s = Settings::read(&own, &schema())?;
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
                "is required: the engine's program name or path".into(),
            )
        })?;
        let mut words = cmd.split_whitespace().map(str::to_string);
        let program = words.next().unwrap_or_default();
        let args = words.collect();
        for (name, value) in &options {
            if name.is_empty() || value.is_empty() {
                return Err(bad(
                    &format!("option.{name}"),
                    value,
                    "must be option.NAME=VALUE with both non-empty".into(),
                ));
            }
        }
        let mut limits = Vec::new();
        if let Some(n) = s.opt_int("nodes") {
            limits.push(Limit::Nodes(n));
        }
        if let Some(n) = s.opt_int("movetime") {
            limits.push(Limit::Movetime(n));
        }
        if let Some(n) = s.opt_int("depth") {
            limits.push(Limit::Depth(n));
        }
        if let Some(t) = s.text("tc") {
            let tc = TimeControl::parse(&t).map_err(|e| bad("tc", &t, e))?;
            limits.push(Limit::Clock(tc));
        }
        let limit = match limits.as_slice() {
            [] => Limit::Movetime(1000),
            [l] => *l,
            _ => {
                return Err(bad(
                    "nodes",
                    "",
                    "give at most one of nodes, movetime, depth, tc".into(),
                ))
            }
        };
        Ok(UciConfig {
            program,
            args,
            options,
            limit,
            margin: Duration::from_millis(s.int("margin_ms")),
            timeout: Duration::from_millis(s.int("timeout_ms")),
        })
    }
}

/// A running engine after the handshake.
pub struct Engine {
    child: Child,
    /// The options the engine declared (names as it wrote them).
    pub declared: Vec<String>,
    timeout: Duration,
}

impl Engine {
    /// Starts the engine, does the `uci` handshake and sets the options.
    pub fn start(cfg: &UciConfig) -> Result<Engine, ExternalError> {
        let mut child = Child::spawn(&cfg.program, &cfg.args)?;
        child.quit_line = Some("quit".into());
        let mut e = Engine {
            child,
            declared: Vec::new(),
            timeout: cfg.timeout,
        };
        e.child.send("uci")?;
        let started = Instant::now();
        let deadline = started + cfg.timeout;
        loop {
            let line = match e.child.recv(deadline, started) {
                Ok(l) => l,
                Err(ProcessError::Timeout { .. }) | Err(ProcessError::Closed(_)) => {
                    return Err(e.no_answer("uci", "uciok"))
                }
                Err(other) => return Err(other.into()),
            };
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                e.declared.push(name.to_string());
            }
        }
        for (name, value) in &cfg.options {
            if !e.declares(name) {
                return Err(ExternalError::UnknownOption {
                    program: cfg.program.clone(),
                    name: name.clone(),
                    known: e.declared.join(", "),
                });
            }
            e.child
                .send(&format!("setoption name {name} value {value}"))?;
        }
        e.sync().map_err(|_| e.no_answer("isready", "readyok"))?;
        Ok(e)
    }

    fn no_answer(&self, command: &str, expected: &str) -> ExternalError {
        ExternalError::NoAnswer {
            program: self.child.name().to_string(),
            protocol: "UCI",
            command: command.into(),
            expected: expected.into(),
            timeout_ms: self.timeout.as_millis() as u64,
        }
    }

    /// Whether the engine declared option `name` (UCI option names ignore case).
    pub fn declares(&self, name: &str) -> bool {
        self.declared.iter().any(|d| d.eq_ignore_ascii_case(name))
    }

    /// `isready` ... `readyok`.
    fn sync(&mut self) -> Result<(), ProcessError> {
        self.child.send("isready")?;
        let started = Instant::now();
        let deadline = started + self.timeout;
        loop {
            if self.child.recv(deadline, started)?.trim() == "readyok" {
                return Ok(());
            }
        }
    }
}

/// The `uci` agent (see the module documentation).
pub struct UciAgent {
    spec: String,
    cfg: UciConfig,
    engine: Option<Engine>,
    /// The `UCI_Chess960` value last sent.
    chess960: Option<bool>,
    /// `ucinewgame` sent for the current game.
    in_game: bool,
    clock: Option<Clock>,
    score: Option<Score>,
}

impl UciAgent {
    /// Reads the spec and starts the engine (so a bad engine is an error before a run).
    pub fn from_spec(spec: &Spec) -> Result<UciAgent, AgentError> {
        let cfg = UciConfig::from_spec(spec)?;
        let engine = Engine::start(&cfg).map_err(|source| AgentError::External {
            spec: spec.canonical(),
            source,
        })?;
        Ok(UciAgent {
            spec: spec.canonical(),
            cfg,
            engine: Some(engine),
            chess960: None,
            in_game: false,
            clock: None,
            score: None,
        })
    }

    /// The engine process, started again if it is gone (after a crash, a hang or a
    /// time loss).
    fn engine(&mut self) -> Result<&mut Engine, Forfeit> {
        if self.engine.is_none() {
            let e = Engine::start(&self.cfg).map_err(|e| Forfeit {
                kind: ForfeitKind::Crash,
                detail: format!("could not restart the engine: {e}"),
            })?;
            self.engine = Some(e);
            self.chess960 = None;
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    /// Drops the engine process (killed) and returns the forfeit.
    fn give_up(&mut self, kind: ForfeitKind, detail: String) -> Forfeit {
        if kind != ForfeitKind::Illegal {
            if let Some(mut e) = self.engine.take() {
                e.child.quit_line = None;
                e.child.kill();
            }
        }
        Forfeit { kind, detail }
    }

    fn failed(&mut self, e: ProcessError, what: &str, limit_kind: ForfeitKind) -> Forfeit {
        match e {
            ProcessError::Timeout { waited_ms, .. } => self.give_up(
                limit_kind,
                format!("no answer to {what} after {waited_ms} ms"),
            ),
            other => self.give_up(ForfeitKind::Crash, format!("{other} (during {what})")),
        }
    }

    /// The `position` command for `board`: its start and every move since.
    fn position_command(board: &engine::Board) -> String {
        let mut start = board.clone();
        while start.unmake().is_some() {}
        let mut cmd = if start.fen() == engine::Board::startpos().fen() && !board.is_chess960() {
            String::from("position startpos")
        } else {
            format!("position fen {}", start.fen())
        };
        let moves: Vec<engine::Move> = board.moves_played().collect();
        if !moves.is_empty() {
            cmd.push_str(" moves");
            for mv in moves {
                cmd.push(' ');
                cmd.push_str(&start.uci(mv));
                start.make(mv);
            }
        }
        cmd
    }

    fn go_command(&self, white_to_move: bool) -> String {
        match self.cfg.limit {
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::Movetime(ms) => format!("go movetime {ms}"),
            Limit::Depth(d) => format!("go depth {d}"),
            Limit::Clock(tc) => {
                let c = self.clock.unwrap_or_else(|| Clock::new(tc));
                let (w, b) = (c.left_ms, c.left_ms);
                let _ = white_to_move;
                let mut s = format!(
                    "go wtime {w} btime {b} winc {} binc {}",
                    tc.inc_ms, tc.inc_ms
                );
                if let Some(m) = c.moves_to_go() {
                    s.push_str(&format!(" movestogo {m}"));
                }
                s
            }
        }
    }

    /// How long to wait for `bestmove`, and what a missing answer counts as.
    fn deadline(&self) -> (Duration, ForfeitKind) {
        match self.cfg.limit {
            Limit::Movetime(ms) => (
                Duration::from_millis(ms) + self.cfg.margin,
                ForfeitKind::Time,
            ),
            Limit::Clock(tc) => {
                let left = self.clock.unwrap_or_else(|| Clock::new(tc)).left_ms;
                (
                    Duration::from_millis(left) + self.cfg.margin,
                    ForfeitKind::Time,
                )
            }
            Limit::Nodes(_) | Limit::Depth(_) => (self.cfg.timeout, ForfeitKind::Hang),
        }
    }

    fn play<G: Game>(&mut self, game: &G, seat: Seat) -> Result<G::Action, Forfeit> {
        let Some(board) = game.board() else {
            return Err(Forfeit {
                kind: ForfeitKind::Illegal,
                detail: "a UCI engine needs a chess board".into(),
            });
        };
        let board = board.clone();
        let want960 = board.is_chess960();
        let margin = self.cfg.margin;
        self.engine()?;
        if self.chess960 != Some(want960) {
            let declared = self
                .engine
                .as_ref()
                .is_some_and(|e| e.declares("UCI_Chess960"));
            if declared || want960 {
                let line = format!("setoption name UCI_Chess960 value {want960}");
                if let Err(e) = self.engine()?.child.send(&line) {
                    return Err(self.failed(e, "setoption", ForfeitKind::Hang));
                }
            }
            self.chess960 = Some(want960);
        }
        if !self.in_game {
            let r = self.engine()?.child.send("ucinewgame");
            let r = r.and_then(|_| self.engine.as_mut().expect("running").sync());
            if let Err(e) = r {
                return Err(self.failed(e, "ucinewgame/isready", ForfeitKind::Hang));
            }
            self.in_game = true;
        }
        let position = Self::position_command(&board);
        let go = self.go_command(board.turn() == engine::Color::White);
        let (wait, late) = self.deadline();
        let engine = self.engine()?;
        let sent = engine
            .child
            .send(&position)
            .and_then(|_| engine.child.send(&go));
        if let Err(e) = sent {
            return Err(self.failed(e, "position/go", late));
        }
        let started = Instant::now();
        let deadline = started + wait;
        let mut score = None;
        let best = loop {
            let line = match self
                .engine
                .as_mut()
                .expect("running")
                .child
                .recv(deadline, started)
            {
                Ok(l) => l,
                Err(e) => return Err(self.failed(e, &go, late)),
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => break words.next().unwrap_or("").to_string(),
                Some("info") => {
                    if let Some(s) = parse_info_score(&line) {
                        score = Some(s);
                    }
                }
                _ => {}
            }
        };
        let used = started.elapsed();
        if let Some(clock) = self.clock.as_mut() {
            let before = clock.left_ms;
            if !clock.charge(used, margin) {
                return Err(self.give_up(
                    ForfeitKind::Time,
                    format!("used {} ms with {before} ms on the clock", used.as_millis()),
                ));
            }
        }
        self.score = score;
        let legal = |g: &G| -> Option<G::Action> {
            let a = g.parse_action(&best).ok()?;
            let mut moves = Vec::new();
            g.legal_actions(seat, &mut moves);
            moves.contains(&a).then_some(a)
        };
        legal(game).ok_or_else(|| {
            self.give_up(
                ForfeitKind::Illegal,
                format!("bestmove '{best}' is not legal in {}", board.fen()),
            )
        })
    }
}

/// The score of an `info` line of the principal variation (`multipv 1` or none).
pub fn parse_info_score(line: &str) -> Option<Score> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if let Some(i) = words.iter().position(|w| *w == "multipv") {
        if words.get(i + 1) != Some(&"1") {
            return None;
        }
    }
    if words
        .iter()
        .any(|w| *w == "lowerbound" || *w == "upperbound")
    {
        return None;
    }
    let i = words.iter().position(|w| *w == "score")?;
    let v: i32 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(Score::Cp(v)),
        "mate" => Some(Score::Mate(v)),
        _ => None,
    }
}

/// Whether `G` is orthodox chess or Chess960, the only games UCI engines play here.
pub fn plays<G: Game>() -> bool {
    std::any::TypeId::of::<G>() == std::any::TypeId::of::<Chess>()
}

impl<G: Game> Agent<G> for UciAgent {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// Outside the game loop a forfeit has no record to go to, so it is a panic naming
    /// the engine and what it did; the game loop calls [`Agent::try_act`].
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
        self.in_game = false;
        self.score = None;
        self.clock = match self.cfg.limit {
            Limit::Clock(tc) => Some(Clock::new(tc)),
            _ => None,
        };
    }

    fn score(&self) -> Option<Score> {
        self.score
    }

    fn reusable(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_uci_info_scores_of_the_principal_line() {
        assert_eq!(
            parse_info_score("info depth 5 score cp 31 nodes 100 pv e2e4"),
            Some(Score::Cp(31))
        );
        assert_eq!(
            parse_info_score("info depth 9 multipv 1 score mate -3 pv a1a2"),
            Some(Score::Mate(-3))
        );
        assert_eq!(parse_info_score("info depth 9 multipv 2 score cp 5"), None);
        assert_eq!(parse_info_score("info depth 9 score cp 5 lowerbound"), None);
        assert_eq!(parse_info_score("info string hello"), None);
    }

    #[test]
    fn rule_uci_spec_limits_and_options() {
        let c = UciConfig::from_spec(
            &Spec::parse("uci:cmd=stockfish -x,option.Hash=16,nodes=500").unwrap(),
        )
        .unwrap();
        assert_eq!(c.program, "stockfish");
        assert_eq!(c.args, vec!["-x".to_string()]);
        assert_eq!(c.options, vec![("Hash".into(), "16".into())]);
        assert_eq!(c.limit, Limit::Nodes(500));
        let c = UciConfig::from_spec(&Spec::parse("uci:cmd=sf").unwrap()).unwrap();
        assert_eq!(c.limit, Limit::Movetime(1000));
        for (bad, why) in [
            ("uci:nodes=5", "is required"),
            ("uci:cmd=sf,nodes=5,depth=3", "at most one of"),
            ("uci:cmd=sf,tc=abc", "expected moves/seconds"),
            ("uci:cmd=sf,hash=3", "unknown key 'hash'"),
        ] {
            let e = UciConfig::from_spec(&Spec::parse(bad).unwrap()).unwrap_err();
            assert!(e.to_string().contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn rule_uci_position_has_the_start_and_every_move() {
        let mut b = engine::Board::startpos();
        for m in ["e2e4", "e7e5", "g1f3"] {
            let mv = b.parse_uci(m).unwrap();
            b.make(mv);
        }
        assert_eq!(
            UciAgent::position_command(&b),
            "position startpos moves e2e4 e7e5 g1f3"
        );
        let mut b = engine::chess960::start_position(518);
        b.set_chess960(true);
        let mv = b.parse_uci("e2e4").unwrap();
        b.make(mv);
        let cmd = UciAgent::position_command(&b);
        assert!(
            cmd.starts_with("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
            "{cmd}"
        );
        assert!(cmd.ends_with(" moves e2e4"), "{cmd}");
    }
}

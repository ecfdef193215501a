//! `chesslab uci --agent SPEC`: any chesslab agent as a UCI engine on standard input and
//! output, for orthodox chess and Chess960 (issue 18), so GUIs, cutechess, fastchess and
//! python-chess can play it.
//!
//! Commands: `uci` (answered with `id` lines, the `UCI_Chess960` option and `uciok`),
//! `isready` (answered at once, also while searching), `setoption name UCI_Chess960 value
//! true|false`, `ucinewgame`, `position startpos|fen FEN [moves ...]`, `go` with
//! `movetime`, `wtime`/`btime`/`winc`/`binc`/`movestogo`, `nodes`, `depth` or
//! `infinite`, `stop`, `quit`. Unknown commands and options are ignored with an
//! `info string`, as the protocol asks.
//!
//! The search runs on its own thread; the main thread keeps reading commands. A `go`
//! limit becomes the agent's own budget key for that move (`nodes` → `nodes`, `depth` →
//! `depth`, `movetime` and the clock → `time_ms`), replacing the same key of `--agent`;
//! other keys of the spec stay (any set limit stops). `alphabeta` searches once per `go`
//! ([`agents::Agent::act_watched`]: iterative deepening with an `info` line per finished
//! depth, stopped from outside by `stop` or the clock) and is kept for the whole session,
//! so its table carries over between moves as in chesslab's own games. Other agents with
//! a `depth` key are built for each depth 1, 2, ... up to their limit, each finished
//! depth printing one `info` line; the rest are built and searched once per `go`.
//!
//! Decisions where the issue is silent:
//! - Clock: the move gets `time_left / movestogo` (30 moves when not given) plus 3/4 of
//!   the increment, at most half the time left, at least 1 ms.
//! - A `movetime` is searched to its end (as `time_ms`); a share of the clock stops
//!   starting iterations early, saving time (as `tc=`). `go infinite` drops the spec's
//!   own time and nodes.
//! - `stop` (or the time running out) stops a watched search, which answers with its best
//!   move within a few nodes (an unfinished depth's move counts once it beat the last
//!   depth's, as in chesslab's games); 30 ms later (GRACE), or at once for agents built
//!   per depth (they cannot be interrupted mid-search), the deepest finished depth's move
//!   is played. Before any depth finished, `stop` answers the first legal move in
//!   chesslab's order, and the clock waits for depth 1.
//! - `info` (issue 39): `info depth D [score cp X|score mate N] [nodes N] time MS pv
//!   MOVE`. An agent that reports a score ([`agents::Agent::score`]:
//!   `alphabeta`'s root score, centipawns for the side to move, mates in moves) and its
//!   search ([`agents::Agent::search_stats`]) gets `score` and `nodes`, and `depth` is the
//!   depth it completed (a mate found early or the clock can stop it short of the depth
//!   asked). Agents that report no score (`mcts`, `greedy`, `random`, ...) get `info
//!   depth D time MS pv MOVE` with no `score`, which UCI allows: no win rate is dressed
//!   up as centipawns. `pv` is the move alone (the agents keep no line).
//! - The end of standard input (issue 65) ends the program only after the search in
//!   progress has answered `bestmove` (an infinite one is stopped first, as by `stop`); a
//!   search that fails there ends it with exit status 1 and an `info string error` line
//!   (the hook of `cli::uci`). It used to exit 0 with neither. Test
//!   `rule_uci_answers_before_the_end_of_input` and
//!   `rule_uci_outside_engine_dying_is_an_error` (`experiments/tests/serve_uci.rs`).
//! - The kept agent forgets its tables at `ucinewgame` ([`agents::Agent::reset`]).
//!   Agents built per `go` get seed `mix(1, ply)` when they read one, and every search
//!   gets a generator seeded with it. Until 2026-11-29 every agent was rebuilt for every
//!   depth of every `go`, which made alphabeta behind `chesslab uci` far weaker than the
//!   same spec in chesslab's own games (it scored 1/10 against it at 50 ms a move).
//!
//! Test `rule_uci_cmd_searches_once_and_keeps_its_table` (experiments/tests/
//! outside_bots.rs): the first search equals the built-in agent's, node for node.
//!
//! Tests: `rule_uci_cmd_*` in `experiments/tests/outside_bots.rs` (python-chess as the
//! client, Stockfish in chesslab's runner) and below.

use agents::registry;
use agents::Spec;
use anyhow::{Context, Result};
use engine::game::{Game, Turn};
use engine::variants::chess::{Chess, ChessParams};
use engine::Board;
use rand::SeedableRng;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A `go` command's limits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    pub movetime: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: u64,
    pub binc: u64,
    pub movestogo: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u64>,
    pub infinite: bool,
}

impl Go {
    pub fn parse(line: &str) -> Go {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut g = Go::default();
        let num = |i: usize| {
            words
                .get(i + 1)
                .and_then(|w| w.parse::<i64>().ok())
                .map(|v| v.max(0) as u64)
        };
        for (i, w) in words.iter().enumerate() {
            match *w {
                "movetime" => g.movetime = num(i),
                "wtime" => g.wtime = num(i),
                "btime" => g.btime = num(i),
                "winc" => g.winc = num(i).unwrap_or(0),
                "binc" => g.binc = num(i).unwrap_or(0),
                "movestogo" => g.movestogo = num(i),
                "nodes" => g.nodes = num(i),
                "depth" => g.depth = num(i),
                "infinite" => g.infinite = true,
                _ => {}
            }
        }
        g
    }

    /// Milliseconds for this move: `movetime`, or the clock's share (module docs).
    pub fn budget_ms(&self, white: bool) -> Option<u64> {
        if let Some(ms) = self.movetime {
            return Some(ms.max(1));
        }
        let (left, inc) = if white {
            (self.wtime?, self.winc)
        } else {
            (self.btime?, self.binc)
        };
        let share = left / self.movestogo.unwrap_or(30).max(1) + inc * 3 / 4;
        Some(share.min(left / 2).max(1))
    }
}

/// The spec for one search: `base` with `key=value` set for each limit.
fn with_limits(base: &Spec, limits: &[(&str, u64)]) -> String {
    let schema = registry::schema(&base.name).unwrap_or_default();
    let mut kv: Vec<(String, String)> = base
        .pairs()
        .filter(|(k, _)| !limits.iter().any(|(l, _)| l == k))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for (k, v) in limits {
        if schema.iter().any(|s| s.key == *k) {
            kv.push((k.to_string(), v.to_string()));
        }
    }
    if kv.is_empty() {
        base.name.clone()
    } else {
        let parts: Vec<String> = kv.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{}:{}", base.name, parts.join(","))
    }
}

/// Reads `position startpos|fen FEN [moves ...]` into a game.
pub fn parse_position(line: &str, chess960: bool) -> Result<Chess, String> {
    let rest = line.trim().strip_prefix("position").unwrap_or("").trim();
    let (setup, moves) = match rest.split_once(" moves") {
        Some((s, m)) => (s.trim(), m.trim()),
        None => (rest, ""),
    };
    let mut board = if setup == "startpos" {
        Board::startpos()
    } else if let Some(fen) = setup.strip_prefix("fen") {
        let fen = fen.trim();
        if chess960 {
            Board::from_fen_960(fen)
        } else {
            Board::from_fen(fen)
        }
        .map_err(|e| format!("bad FEN '{fen}': {e}"))?
    } else {
        return Err(format!("expected 'startpos' or 'fen ...', got '{setup}'"));
    };
    if chess960 {
        board.set_chess960(true);
    }
    let mut game = Chess::from_board(board, u32::MAX);
    for m in moves.split_whitespace() {
        let a = game
            .parse_action(m)
            .map_err(|e| format!("move '{m}': {e}"))?;
        game.apply(a);
    }
    Ok(game)
}

/// What the search thread reports.
enum Found {
    Depth {
        depth: u64,
        mv: String,
        ms: u64,
        score: Option<agents::Score>,
        nodes: Option<u64>,
    },
    /// The move of a watched search, which may come from an unfinished iteration (a move
    /// that already beat the last one's best).
    Final(String),
    Done,
}

/// The `info` line of one finished depth (module docs).
fn info_line(
    depth: u64,
    score: Option<agents::Score>,
    nodes: Option<u64>,
    ms: u64,
    mv: &str,
) -> String {
    let mut line = format!("info depth {depth}");
    match score {
        Some(agents::Score::Cp(cp)) => line.push_str(&format!(" score cp {cp}")),
        Some(agents::Score::Mate(m)) => line.push_str(&format!(" score mate {m}")),
        None => {}
    }
    if let Some(n) = nodes {
        line.push_str(&format!(" nodes {n}"));
    }
    line.push_str(&format!(" time {ms} pv {mv}"));
    line
}

fn say(out: &mut impl Write, line: &str) {
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The agent kept for the whole session, and whether the next search starts a new game.
struct Kept {
    agent: Box<dyn agents::Agent<Chess>>,
    new_game: bool,
}

/// Starts a search of `game` with `go`; results come through the returned channel. An
/// agent with a watched search ([`agents::Agent::act_watched`]) searches once, kept
/// between moves; others are built for the move with the limits in their spec, once per
/// depth where they have one.
fn search(
    game: Chess,
    base: Spec,
    kept: Arc<Mutex<Kept>>,
    go: &Go,
    cancel: Arc<AtomicBool>,
) -> mpsc::Receiver<Found> {
    let (tx, rx) = mpsc::channel();
    let white = game.board_ref().turn() == engine::Color::White;
    let budget = go.budget_ms(white);
    let schema = registry::schema(&base.name).unwrap_or_default();
    let has_depth = schema.iter().any(|s| s.key == "depth");
    let max_depth = go.depth.or_else(|| {
        let d = base.raw("depth").and_then(|d| d.parse().ok());
        if go.infinite || budget.is_some() {
            Some(if go.infinite { 64 } else { d.unwrap_or(64) })
        } else {
            d.or_else(|| {
                schema
                    .iter()
                    .find(|s| s.key == "depth")
                    .and_then(|s| s.default.parse().ok())
            })
        }
    });
    let nodes = go.nodes;
    let seed_key = schema.iter().any(|s| s.key == "seed");
    let limits = agents::Limits {
        depth: max_depth.map(|d| d.clamp(1, 64) as u32),
        nodes: nodes.map(|n| n.max(1)),
        time: budget.map(|ms| Duration::from_millis(ms.max(1))),
        from_clock: go.movetime.is_none() && budget.is_some(),
        unbounded: go.infinite,
        stop: Some(cancel.clone()),
    };
    std::thread::spawn(move || {
        let started = Instant::now();
        let ply = game.board_ref().ply() as u64;
        let Turn::Seat(seat) = game.turn() else {
            let _ = tx.send(Found::Done);
            return;
        };
        // The last search ends within a few nodes of its stop; this waits for it.
        let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
        if std::mem::take(&mut kept.new_game) {
            kept.agent.reset();
        }
        let mut rng = rand_pcg::Pcg64::seed_from_u64(crate::util::mix(1, ply));
        let watched = kept
            .agent
            .act_watched(&game, seat, &mut rng, &limits, &mut |it| {
                let _ = tx.send(Found::Depth {
                    depth: u64::from(it.depth),
                    mv: game.action_notation(it.action),
                    ms: started.elapsed().as_millis() as u64,
                    score: Some(it.score),
                    nodes: Some(it.nodes),
                });
            });
        drop(kept);
        if let Some(a) = watched {
            let _ = tx.send(Found::Final(game.action_notation(a)));
            let _ = tx.send(Found::Done);
            return;
        }
        let depths: Vec<Option<u64>> = match (has_depth, max_depth) {
            (true, Some(d)) => (1..=d.max(1)).map(Some).collect(),
            _ => vec![None],
        };
        for d in depths {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            let mut limits: Vec<(&str, u64)> = Vec::new();
            if let Some(d) = d {
                limits.push(("depth", d));
            }
            if let Some(n) = nodes {
                limits.push(("nodes", n.max(1)));
            }
            if let Some(ms) = budget {
                let left = ms.saturating_sub(started.elapsed().as_millis() as u64);
                limits.push(("time_ms", left.max(1)));
            }
            if seed_key && base.raw("seed").is_none() {
                limits.push(("seed", crate::util::mix(1, ply)));
            }
            let spec = with_limits(&base, &limits);
            let Ok(mut agent) = registry::build::<Chess>(&spec) else {
                break;
            };
            let mut rng = rand_pcg::Pcg64::seed_from_u64(crate::util::mix(1, ply));
            let a = agent.act(&game, seat, &mut rng);
            let stats = agent.search_stats();
            let found = Found::Depth {
                depth: stats.map_or(d.unwrap_or(1), |s| u64::from(s.depth)),
                mv: game.action_notation(a),
                ms: started.elapsed().as_millis() as u64,
                score: agent.score(),
                nodes: stats.map(|s| s.nodes),
            };
            if tx.send(found).is_err() {
                return;
            }
            if budget.is_some_and(|b| started.elapsed().as_millis() as u64 >= b) {
                break;
            }
        }
        let _ = tx.send(Found::Done);
    });
    rx
}

/// How long after its deadline (or `stop`) a search's own answer is waited for.
const GRACE: Duration = Duration::from_millis(30);

/// One search in progress.
struct Searching {
    rx: mpsc::Receiver<Found>,
    cancel: Arc<AtomicBool>,
    best: Option<String>,
    deadline: Option<Instant>,
    infinite: bool,
    first_legal: String,
}

pub fn run(agent: &str) -> Result<()> {
    let base = Spec::parse(agent).with_context(|| format!("--agent '{}'", agent))?;
    let kept = Arc::new(Mutex::new(Kept {
        agent: registry::build::<Chess>(agent).with_context(|| format!("--agent '{}'", agent))?,
        new_game: false,
    }));
    let (tx, commands) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut out = std::io::stdout();
    let mut chess960 = false;
    let mut game = Chess::new(&ChessParams {
        ply_cap: u32::MAX,
        ..Default::default()
    });
    let mut searching: Option<Searching> = None;
    // Standard input ended: the search in progress still answers, then the engine exits.
    let mut input_closed = false;
    loop {
        if input_closed && searching.is_none() {
            return Ok(());
        }
        // Wait for a command, a search report, or the clock.
        let wait = match &searching {
            Some(s) => s
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now()))
                .unwrap_or(Duration::from_millis(20))
                .min(Duration::from_millis(20)),
            None => Duration::from_secs(3600),
        };
        let command = if input_closed {
            std::thread::sleep(wait);
            None
        } else {
            match commands.recv_timeout(wait) {
                Ok(c) => Some(c),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => {
                    // Issue 65: the end of the input used to drop a search without a
                    // `bestmove` and exit 0. The search answers first (an infinite one
                    // is stopped, as by `stop`); a failed one exits 1 by the hook.
                    input_closed = true;
                    if let Some(s) = searching.as_mut() {
                        if s.infinite {
                            s.infinite = false;
                            s.cancel.store(true, Ordering::Relaxed);
                        }
                    }
                    None
                }
            }
        };
        if let Some(s) = searching.as_mut() {
            let mut finished = false;
            while let Ok(f) = s.rx.try_recv() {
                match f {
                    Found::Depth {
                        depth,
                        mv,
                        ms,
                        score,
                        nodes,
                    } => {
                        say(&mut out, &info_line(depth, score, nodes, ms, &mv));
                        s.best = Some(mv);
                    }
                    Found::Final(mv) => s.best = Some(mv),
                    Found::Done => finished = true,
                }
            }
            // At the deadline the search is told to stop; a watched search answers within
            // a few nodes, and GRACE later the deepest finished depth is played anyway.
            let now = Instant::now();
            if s.deadline.is_some_and(|d| now >= d) {
                s.cancel.store(true, Ordering::Relaxed);
            }
            let late = s.deadline.is_some_and(|d| now >= d + GRACE) && s.best.is_some();
            if (finished && !s.infinite) || late {
                let best = s.best.clone().unwrap_or_else(|| s.first_legal.clone());
                s.cancel.store(true, Ordering::Relaxed);
                searching = None;
                say(&mut out, &format!("bestmove {best}"));
            }
        }
        let Some(line) = command else { continue };
        let line = line.trim();
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "uci" => {
                say(&mut out, &format!("id name chesslab {}", base.canonical()));
                say(&mut out, "id author chesslab");
                say(
                    &mut out,
                    "option name UCI_Chess960 type check default false",
                );
                say(&mut out, "uciok");
            }
            "isready" => say(&mut out, "readyok"),
            "setoption" => {
                let lower = line.to_ascii_lowercase();
                if lower.contains("name uci_chess960 value") {
                    chess960 = lower.trim_end().ends_with("true");
                } else {
                    say(&mut out, &format!("info string ignored: {line}"));
                }
            }
            "ucinewgame" => kept.lock().unwrap_or_else(|e| e.into_inner()).new_game = true,
            "position" => match parse_position(line, chess960) {
                Ok(g) => game = g,
                Err(e) => say(&mut out, &format!("info string bad position: {e}")),
            },
            "go" => {
                if searching.is_some() {
                    say(&mut out, "info string already searching");
                    continue;
                }
                let Turn::Seat(seat) = game.turn() else {
                    say(&mut out, "info string no legal move here");
                    say(&mut out, "bestmove (none)");
                    continue;
                };
                let go = Go::parse(line);
                let mut legal = Vec::new();
                game.legal_actions(seat, &mut legal);
                let first_legal = legal
                    .first()
                    .map(|a| game.action_notation(*a))
                    .unwrap_or_default();
                let white = game.board_ref().turn() == engine::Color::White;
                let cancel = Arc::new(AtomicBool::new(false));
                let rx = search(
                    game.clone(),
                    base.clone(),
                    kept.clone(),
                    &go,
                    cancel.clone(),
                );
                searching = Some(Searching {
                    rx,
                    cancel,
                    best: None,
                    deadline: (!go.infinite)
                        .then(|| go.budget_ms(white))
                        .flatten()
                        .map(|ms| Instant::now() + Duration::from_millis(ms)),
                    infinite: go.infinite,
                    first_legal,
                });
            }
            "stop" => {
                if let Some(s) = searching.take() {
                    s.cancel.store(true, Ordering::Relaxed);
                    // A watched search answers within a few nodes of the stop.
                    let until = Instant::now() + GRACE;
                    let mut best = s.best.clone();
                    while let Ok(f) =
                        s.rx.recv_timeout(until.saturating_duration_since(Instant::now()))
                    {
                        match f {
                            Found::Depth { mv, .. } | Found::Final(mv) => best = Some(mv),
                            Found::Done => break,
                        }
                        if Instant::now() >= until {
                            break;
                        }
                    }
                    say(
                        &mut out,
                        &format!("bestmove {}", best.unwrap_or(s.first_legal)),
                    );
                }
            }
            "quit" => {
                if let Some(s) = searching.take() {
                    s.cancel.store(true, Ordering::Relaxed);
                }
                return Ok(());
            }
            "" => {}
            _ => say(&mut out, &format!("info string unknown command: {line}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_uci_cmd_go_limits_and_clock_share() {
        let g = Go::parse("go wtime 60000 btime 30000 winc 1000 binc 0 movestogo 20");
        assert_eq!(g.budget_ms(true), Some(3000 + 750));
        assert_eq!(g.budget_ms(false), Some(1500));
        let g = Go::parse("go btime 100 binc 1000");
        assert_eq!(g.budget_ms(false), Some(50), "at most half the time left");
        assert_eq!(Go::parse("go movetime 250").budget_ms(true), Some(250));
        assert_eq!(Go::parse("go depth 3").depth, Some(3));
        assert_eq!(Go::parse("go nodes 999").nodes, Some(999));
        assert!(Go::parse("go infinite").infinite);
        assert_eq!(Go::parse("go depth 3").budget_ms(true), None);
    }

    #[test]
    fn rule_uci_cmd_limits_replace_the_specs_own() {
        let base = Spec::parse("alphabeta:depth=8,quiescence=false").unwrap();
        assert_eq!(
            with_limits(&base, &[("depth", 3), ("time_ms", 50)]),
            "alphabeta:quiescence=false,depth=3,time_ms=50"
        );
        // Keys the agent does not have are left out.
        assert_eq!(
            with_limits(&Spec::parse("greedy").unwrap(), &[("depth", 3)]),
            "greedy"
        );
    }

    #[test]
    fn rule_uci_cmd_positions() {
        let g = parse_position("position startpos moves e2e4 e7e5", false).unwrap();
        assert_eq!(
            g.board_ref().fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        let g = parse_position("position fen 8/8/8/8/8/8/8/K6k w - - 0 1", false).unwrap();
        assert_eq!(g.board_ref().fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert!(parse_position("position startpos moves e2e5", false).is_err());
        assert!(parse_position("position fen nonsense", false).is_err());
        // Chess960 castling is king-takes-rook.
        let g = parse_position(
            "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1",
            true,
        )
        .unwrap();
        assert!(g.board_ref().is_chess960());
        assert!(
            g.board_ref().fen().starts_with("r3k2r/8/8/8/8/8/8/R4RK1 b"),
            "{}",
            g.board_ref().fen()
        );
    }
}

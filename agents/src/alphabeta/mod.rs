//! `alphabeta`: negamax alpha-beta with iterative deepening and aspiration windows,
//! principal variation search, a transposition table keyed by `state_key`, null-move
//! pruning where the game offers a pass, late-move reductions, check extensions,
//! futility and late-move pruning, static exchange evaluation ([`see`]), quiescence
//! search on captures and TT + MVV-LVA + killer + history move ordering,
//! built on `apply`/`undo` (one clone of the state per decision). The files: [`search`]
//! (the searcher), [`ordering`], [`tt`], [`evals`] (the cache of static evaluations),
//! [`spare`] (tables handed from a finished searcher to the next),
//! [`time`] (time per decision and the `tc=` clock); this one holds the config and the
//! agent.
//!
//! - Budgets: `depth` (default 4), `nodes`, `time_ms` (a fixed time per decision, as a
//!   UCI engine's `movetime`) or `tc=10+0.1` (a clock per game, cutechess's form, kept
//!   by the agent: [`time`]). With `time_ms` or `tc` and no `depth`, the depth is
//!   unbounded (64): time stops the search. At most one of `time_ms` and `tc`.
//! - The evaluation is the search's ([`crate::eval::Evaluator::search`]) unless
//!   `eval=FILE` is given: in orthodox chess and Chess960 (`GameFacts::orthodox_positions`)
//!   the piece-square tables fitted to Stockfish's scores
//!   (agents/data/eval/orthodox.toml, generation 4: 52.3%, 45.8% and, with the opt-in
//!   reductions, 44.0% in three 200-game matches against SF2000 at 100 ms; generation 6,
//!   the same search 1.5 times faster: 56.5%, results/strength/epoch-6), in every
//!   other game with a board the hand-set ones
//!   (agents/data/eval/chess.toml: variants' positions are not the ones fitted, and
//!   their kept runs keep their meaning). `eval.*` keys apply on top of either.
//!   [`AlphaBetaConfig::default`] uses it too.
//! - `pvs`, `aspiration`, `null_move`, `lmr`, `check_extension`, `futility`, `lmp` and
//!   `see` (all `true`) switch the search features off one by one for measurement;
//!   `iir`, `lmr_adaptive` and `null_adaptive` (all `false`) switch on three reductions
//!   that were measured and not adopted (see [`search`]);
//!   late-move reductions ride on the null-window searches of PVS, so `pvs=false` also
//!   turns them off. Null moves, check extensions, the pruning near the leaves, SEE
//!   and the three opt-in reductions apply only where the game's facts allow them
//!   (`GameFacts::null_move`, `board_check`/`game_check`, `quiet_pruning`,
//!   `static_exchange`; see [`search`]).
//!   `full_time` (true) searches a `time_ms` budget to its end ([`time`]).
//! - [`AlphaBeta::root_scores`] searches one position to a time budget and answers every
//!   root move with an exact score (full window at the root), for searching sampled
//!   worlds (PIMC with `search=alphabeta`).
//! - The agent reports its score ([`Agent::score`]) for adjudication, and its depth and
//!   nodes ([`Agent::search_stats`]) for `chesslab uci`'s `info` lines.
//!
//! - Scores are centipawns for the seat to move (`agents::eval::evaluate`); a won
//!   terminal state scores `MATE - ply`, so shorter mates score higher.
//! - Captures (for quiescence and MVV-LVA) are moves whose target square holds an
//!   opponent piece, or en passant, on games with an orthodox `board()`; games without
//!   a board get no quiescence (the static evaluation is used at depth 0).
//! - Degrade rules: a chance node inside the search is the probability-weighted mean of
//!   its outcomes (full window); a simultaneous node is scored statically. Which games
//!   go elsewhere is `crate::fallback`'s: a hidden-information game is searched by UCT
//!   on sampled worlds with voting (`pimc`), never on the true state; a simultaneous
//!   root where this seat and one seat of the other side act is the one-turn matrix
//!   game ([`matrix`]: every joint action searched for the rest of the turn, the
//!   equilibrium solved, the action drawn from it); any other root where this seat does
//!   not act alone by UCT; a game whose seats do not form exactly two teams
//!   ([`Game::team`]) is refused by the registry.
//! - Teams: a game with more seats in two teams (Crowded House) is searched as a
//!   two-sided game. The sign flips only where the team to move changes (consecutive
//!   decisions of one team, or of one seat in a compound turn, keep it), evaluation is
//!   from the moving team's point of view through its lowest seat (`evaluate`), and
//!   terminal scores read that seat's return (partners share returns). With two seats
//!   each seat is its own team and nothing changes.

mod evals;
pub mod matrix;
mod ordering;
mod search;
pub mod see;
mod spare;
pub mod time;
mod tt;

pub use search::AlphaBeta;

use crate::common::{action_move, AgentRng, Budget};
use crate::eval::Evaluator;
use crate::fallback::{self, Route};
use crate::ismcts::{pimc_decide, WORLDS};
use crate::mcts::{uct_decide, MctsConfig};
use crate::settings::{self, Kind, Setting, Settings};
use crate::spec::{AgentError, Spec};
use crate::uci::tc::TimeControl;
use crate::{Agent, Forfeit, ForfeitKind, Iteration, Limits, Score, SearchStats};
use engine::game::{Game, Seat};
use rand::Rng;
use rand_pcg::Pcg64;
use std::time::Instant;

pub use crate::fallback::two_teams;

/// Score of a mate at the root; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
const INF: i32 = 10_000_000;
const MATE_BOUND: i32 = MATE - 10_000;
const MAX_PLY: usize = 128;

/// Settings of the search.
#[derive(Clone, Debug)]
pub struct AlphaBetaConfig {
    pub depth: u32,
    pub budget: Budget,
    /// A clock per game (`tc=`); the budget's time is then the clock's share per move.
    pub tc: Option<TimeControl>,
    pub quiescence: bool,
    /// log2 of transposition table entries.
    pub tt_bits: u32,
    /// Worlds and per-world iterations for the hidden-information fallback.
    pub worlds: usize,
    pub fallback_iters: u64,
    /// Evaluation noise in centipawns (0 = none): each static evaluation gets a
    /// pseudo-random offset in [-noise, noise], fixed per position within one decision.
    /// Self-play between deterministic searchers repeats one game forever; a little
    /// noise gives balance runs distinct games at almost no cost in strength.
    pub noise: i32,
    /// The static evaluation.
    pub eval: Evaluator,
    /// Principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Aspiration windows around the last iteration's score.
    pub aspiration: bool,
    /// Null-move pruning where the game offers a pass.
    pub null_move: bool,
    /// Late-move reductions of quiet moves (with `pvs`).
    pub lmr: bool,
    /// One more ply in check, and evasions in the quiescence search, where the game's
    /// facts say its check is known (`GameFacts::board_check` or `game_check`).
    pub check_extension: bool,
    /// Pruning by the static evaluation near the leaves (reverse futility and futility
    /// pruning), where the game's facts allow it (`GameFacts::quiet_pruning` and a known
    /// check).
    pub futility: bool,
    /// Late-move pruning: the last quiet moves at the shallowest depths are skipped
    /// (same games as `futility`).
    pub lmp: bool,
    /// Static exchange evaluation: losing captures are skipped in the quiescence search
    /// and ordered after the killers (same games as `futility`).
    pub see: bool,
    /// Internal iterative reduction: a node without a transposition-table move, four or
    /// more plies from the leaves, is searched one ply shallower (same games as
    /// `futility`; see [`search`]). This and the next two are off by default: measured,
    /// not adopted.
    pub iir: bool,
    /// Late-move reductions that read the node: one ply more where the side to move's
    /// static score is not improving on its last turn's, one less for a quiet move with
    /// good history, one more for one with bad history (same games as `futility`).
    pub lmr_adaptive: bool,
    /// A null-move reduction that grows with the depth and with the static score's
    /// margin over beta (3 + depth/3 + margin/200, at most 3 from the margin) instead of
    /// 2 + depth/6 (same games as `futility`).
    pub null_adaptive: bool,
    /// Under `time_ms`, search to the end of the time (false: start no iteration after
    /// [`time::SOFT`] of it, as under a clock; generation 2's habit).
    pub full_time: bool,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            depth: 4,
            budget: Budget {
                iters: None,
                nodes: None,
                time: None,
            },
            tc: None,
            quiescence: true,
            tt_bits: 18,
            worlds: 10,
            fallback_iters: 200,
            noise: 0,
            eval: Evaluator::search(|w| w),
            pvs: true,
            aspiration: true,
            null_move: true,
            lmr: true,
            check_extension: true,
            futility: true,
            lmp: true,
            see: true,
            iir: false,
            lmr_adaptive: false,
            null_adaptive: false,
            full_time: true,
        }
    }
}

/// What the last search found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchInfo {
    pub nodes: u64,
    pub depth: u32,
    pub score: i32,
}

/// The `alphabeta` agent.
pub struct AlphaBetaAgent<G: Game> {
    search: Option<AlphaBeta<G>>,
    config: AlphaBetaConfig,
    rng: AgentRng,
    spec: String,
    /// The game's clock under `tc=` (a new agent is built for every game).
    clock: Option<time::GameClock>,
    /// Whether the spec gave `iters`: the fallback's iterations for the whole decision;
    /// without it the fallback searches 200 a world.
    iters_given: bool,
    /// Iterations and nodes of the last decision (every search it ran, fallbacks too).
    counted: SearchStats,
    /// Set when the last decision overran its clock beyond the margin (`try_act` then
    /// forfeits on time).
    flagged: Option<String>,
}

/// The depth of a tree search (`alphabeta`, `expectimax`).
pub const DEPTH: Setting = Setting {
    key: "depth",
    kind: Kind::Int { min: 1, max: 64 },
    default: "4",
    tunable: true,
    help: "plies (iterative deepening up to it)",
};

impl<G: Game> AlphaBetaAgent<G> {
    /// The keys `alphabeta` reads (`iters` and `worlds` size the PIMC/UCT fallback).
    pub fn schema() -> Vec<Setting> {
        let mut v = vec![DEPTH];
        v.extend(fallback_budget());
        v.extend([
            Setting {
                key: "quiescence",
                kind: Kind::Bool,
                default: "true",
                tunable: true,
                help: "search captures past the depth",
            },
            Setting {
                key: "tt_bits",
                kind: Kind::Int { min: 4, max: 28 },
                default: "18",
                tunable: false,
                help: "log2 of transposition table entries",
            },
            WORLDS,
            Setting {
                key: "noise",
                kind: Kind::Int {
                    min: 0,
                    max: 10_000,
                },
                default: "0",
                tunable: false,
                help: "evaluation noise in centipawns, so self-play games differ",
            },
            Setting {
                key: "tc",
                kind: Kind::Text,
                default: "",
                tunable: false,
                help: "a clock per game, moves/seconds+increment (10+0.1, 40/60+0.6), kept by the agent",
            },
            feature("pvs", "principal variation search"),
            feature("aspiration", "aspiration windows at the root"),
            feature("null_move", "null-move pruning (where the game offers a pass)"),
            feature("lmr", "late-move reductions (with pvs)"),
            Setting {
                key: "check_extension",
                kind: Kind::Bool,
                // On by default, but only where the game's facts say its check is known
                // (GameFacts::board_check or game_check): Half Alice's combined board
                // shows a check after most moves, so it extends on its own check.
                default: "true",
                tunable: false,
                help: "extend checks, evasions in quiescence (only where the game's facts say its check is known)",
            },
            feature("futility", "reverse futility and futility pruning near the leaves (only where every decision is a whole turn and the check is known)"),
            feature("lmp", "late-move pruning of quiet moves at depth 3 or less (same games)"),
            feature("see", "static exchange evaluation: losing captures skipped in quiescence, ordered late (only where captures are the board's)"),
            opt_in("iir", "internal iterative reduction: a node without a TT move, 4+ plies from the leaves, one ply shallower (same games)"),
            opt_in("lmr_adaptive", "late-move reductions that read the node: +1 when the static score is not improving, -1/+1 by the move's history (same games)"),
            opt_in("null_adaptive", "null-move reduction 3 + depth/3 + (static - beta)/200 (at most 3) instead of 2 + depth/6 (same games)"),
            feature("full_time", "under time_ms, search to the end of the time (false: no new iteration after half of it)"),
        ]);
        v.extend(settings::eval_settings());
        v
    }

    pub fn from_spec(spec: &Spec) -> Result<Self, AgentError> {
        let s = Settings::read(spec, &Self::schema())?;
        let budget = Budget::from_settings(&s);
        let tc = match s.text("tc") {
            Some(t) => Some(TimeControl::parse(&t).map_err(|e| AgentError::BadValue {
                agent: "alphabeta".into(),
                key: "tc".into(),
                value: t.clone(),
                expected: e,
            })?),
            None => None,
        };
        if tc.is_some() && budget.time.is_some() {
            return Err(AgentError::BadValue {
                agent: "alphabeta".into(),
                key: "tc".into(),
                value: s.text("tc").unwrap_or_default(),
                expected: "a clock or time_ms, not both".into(),
            });
        }
        let timed = tc.is_some() || budget.time.is_some();
        let config = AlphaBetaConfig {
            depth: if timed && !s.given("depth") {
                64
            } else {
                s.int("depth") as u32
            },
            budget,
            tc,
            quiescence: s.flag("quiescence"),
            tt_bits: s.int("tt_bits") as u32,
            worlds: s.int("worlds") as usize,
            fallback_iters: budget.iters.unwrap_or(200),
            noise: s.int("noise") as i32,
            eval: s.search_evaluator(),
            pvs: s.flag("pvs"),
            aspiration: s.flag("aspiration"),
            null_move: s.flag("null_move"),
            lmr: s.flag("lmr"),
            check_extension: s.flag("check_extension"),
            futility: s.flag("futility"),
            lmp: s.flag("lmp"),
            see: s.flag("see"),
            iir: s.flag("iir"),
            lmr_adaptive: s.flag("lmr_adaptive"),
            null_adaptive: s.flag("null_adaptive"),
            full_time: s.flag("full_time"),
        };
        let mut agent = Self::new_with(config, spec.canonical(), AgentRng::from_settings(&s));
        agent.iters_given = s.given("iters");
        Ok(agent)
    }

    pub fn new(config: AlphaBetaConfig) -> Self {
        Self::new_with(config, "alphabeta".into(), AgentRng { seed: None })
    }

    fn new_with(config: AlphaBetaConfig, spec: String, rng: AgentRng) -> Self {
        AlphaBetaAgent {
            clock: config.tc.map(time::GameClock::new),
            search: None,
            config,
            rng,
            spec,
            iters_given: false,
            counted: SearchStats::default(),
            flagged: None,
        }
    }

    /// What the last search found (zeroes before the first).
    pub fn info(&self) -> SearchInfo {
        self.search.as_ref().map(|s| s.info).unwrap_or_default()
    }

    /// The hard time limit of the next decision: `time_ms`, or the clock's share.
    fn time_limit(&self) -> Option<std::time::Duration> {
        match &self.clock {
            Some(c) => Some(c.budget()),
            None => self.config.budget.time,
        }
    }

    /// UCT's settings where the game goes to it, over `worlds` worlds: `iters` for the
    /// whole decision when given (else 200 a world), `nodes` (tree nodes), the
    /// decision's time less what has passed since `started`.
    fn fallback_config(&self, worlds: usize, started: Instant) -> MctsConfig {
        let iters = if self.iters_given {
            self.config.fallback_iters
        } else {
            self.config
                .fallback_iters
                .saturating_mul(worlds.max(1) as u64)
        };
        MctsConfig {
            budget: Budget {
                iters: Some(iters),
                nodes: self.config.budget.nodes,
                time: self.time_limit(),
            }
            .since(started),
            ..MctsConfig::default()
        }
    }
}

impl<G: Game> Agent<G> for AlphaBetaAgent<G> {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        let started = Instant::now();
        crate::common::take_counts();
        // The decision's end is also the deadline of the game's own long loops.
        let budget = Budget {
            iters: None,
            nodes: None,
            time: self.time_limit(),
        };
        let a = crate::common::within_budget(&budget, started, || {
            self.decide(game, seat, rng, started)
        });
        self.counted = crate::common::take_counts();
        if let Some(c) = self.clock.as_mut() {
            let used = started.elapsed();
            let left = c.left_ms();
            if !c.charge(used) {
                self.flagged = Some(format!(
                    "the decision took {} ms with {left} ms on the clock (margin {} ms)",
                    used.as_millis(),
                    time::MARGIN.as_millis()
                ));
            }
        }
        a
    }

    /// Under `tc=`, a decision that overran the clock beyond [`time::MARGIN`] is a loss
    /// on time, as for an outside engine.
    fn try_act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> Result<G::Action, Forfeit> {
        let a = self.act(game, seat, rng);
        match self.flagged.take() {
            Some(detail) => Err(Forfeit {
                kind: ForfeitKind::Time,
                detail,
            }),
            None => Ok(a),
        }
    }

    fn score(&self) -> Option<Score> {
        let info = self.search.as_ref()?.info;
        (info.depth > 0).then(|| uci_score(info.score))
    }

    fn act_watched(
        &mut self,
        game: &G,
        seat: Seat,
        rng: &mut Pcg64,
        limits: &Limits,
        report: &mut dyn FnMut(Iteration<G::Action>),
    ) -> Option<G::Action> {
        if fallback::alphabeta(game, seat) != Route::Own {
            return None;
        }
        let mut rng = self.rng.for_decision(game.information_key(seat), rng);
        let config = self.config.clone();
        let s = self.search.get_or_insert_with(|| AlphaBeta::new(config));
        if s.config.noise > 0 {
            s.set_noise_salt(rng.gen());
        }
        let found = s.search_watched(game, limits, &mut |info, action| {
            report(Iteration {
                depth: info.depth,
                nodes: info.nodes,
                score: uci_score(info.score),
                action,
            })
        });
        Some(found.unwrap_or_else(|| crate::baseline::random_action(game, seat, &mut rng)))
    }

    fn search_stats(&self) -> Option<SearchStats> {
        // After `act`: what the whole decision counted (the fallbacks' iterations too).
        let depth = self.search.as_ref().map_or(0, |s| s.info.depth);
        if self.counted != SearchStats::default() {
            return Some(SearchStats {
                depth,
                ..self.counted
            });
        }
        let info = self.search.as_ref()?.info;
        (info.depth > 0).then_some(SearchStats {
            depth: info.depth,
            nodes: info.nodes,
            iters: 0,
        })
    }

    fn reset(&mut self) {
        if let Some(s) = self.search.as_mut() {
            s.clear();
        }
        self.clock = self.config.tc.map(time::GameClock::new);
        self.flagged = None;
    }
}

impl<G: Game> AlphaBetaAgent<G> {
    fn decide(&mut self, game: &G, seat: Seat, rng: &mut Pcg64, started: Instant) -> G::Action {
        let mut rng = self.rng.for_decision(game.information_key(seat), rng);
        match fallback::alphabeta(game, seat) {
            Route::Own => {}
            Route::Matrix => {
                let budget = self.time_limit();
                let config = self.config.clone();
                let s = self.search.get_or_insert_with(|| AlphaBeta::new(config));
                let limit = budget.map(|t| t.saturating_sub(started.elapsed()));
                if s.config.noise > 0 {
                    s.set_noise_salt(rng.gen());
                }
                if let Some(a) = matrix::decide(s, game, seat, limit, &mut rng) {
                    return a;
                }
                let cfg = self.fallback_config(1, started);
                return uct_decide(game, seat, &cfg, &mut rng);
            }
            Route::Pimc => {
                let cfg = self.fallback_config(self.config.worlds, started);
                return pimc_decide(game, seat, self.config.worlds, &cfg, &mut rng);
            }
            _ => {
                let cfg = self.fallback_config(1, started);
                return uct_decide(game, seat, &cfg, &mut rng);
            }
        }
        let budget = self.time_limit();
        let config = self.config.clone();
        let s = self.search.get_or_insert_with(|| AlphaBeta::new(config));
        // The tables' set-up comes out of the decision's time.
        let limit = budget.map(|t| t.saturating_sub(started.elapsed()));
        if s.config.noise > 0 {
            s.set_noise_salt(rng.gen());
        }
        match s.search_for(game, limit) {
            Some(a) => a,
            None => crate::baseline::random_action(game, seat, &mut rng),
        }
    }
}

/// A search score as engines report it: centipawns, or mate in moves (negative: being
/// mated).
fn uci_score(score: i32) -> Score {
    if score.abs() >= MATE_BOUND {
        let moves = (MATE - score.abs() + 1) / 2;
        Score::Mate(if score > 0 { moves } else { -moves })
    } else {
        Score::Cp(score)
    }
}

/// A switch of one search feature, on by default.
fn feature(key: &'static str, help: &'static str) -> Setting {
    Setting {
        key,
        kind: Kind::Bool,
        default: "true",
        tunable: false,
        help,
    }
}

/// A search feature that is off unless the spec turns it on: measured and not adopted
/// (results/strength/search/README.md, "Reductions that read the node").
fn opt_in(key: &'static str, help: &'static str) -> Setting {
    Setting {
        default: "false",
        ..feature(key, help)
    }
}

/// The orthodox move of an action (for tests and tools).
pub fn move_of<G: Game>(game: &mut G, action: G::Action) -> Option<engine::Move> {
    action_move(game, action)
}

/// Budget and seed keys of a depth-bounded search: `iters` only sizes the UCT/PIMC
/// fallback (200 iterations when not given), `nodes` and `time_ms` stop the search.
pub fn fallback_budget() -> Vec<Setting> {
    let mut v = settings::join(&[settings::BUDGET, settings::SEED]);
    v[0].help = "UCT iterations of the fallback, all worlds together (200 a world when not given)";
    v
}

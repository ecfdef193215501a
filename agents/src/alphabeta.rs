//! `alphabeta`: negamax alpha-beta with iterative deepening, a transposition table keyed
//! by `state_key`, quiescence search on captures and MVV-LVA + killer + history move
//! ordering, built on `apply`/`undo` (one clone of the state per decision).
//!
//! - Scores are centipawns for the seat to move (`agents::eval::evaluate`); a won
//!   terminal state scores `MATE - ply`, so shorter mates score higher.
//! - Captures (for quiescence and MVV-LVA) are moves whose target square holds an
//!   opponent piece, or en passant, on games with an orthodox `board()`; games without
//!   a board get no quiescence (the static evaluation is used at depth 0).
//! - Degrade rules: a chance node inside the search is the probability-weighted mean of
//!   its outcomes (full window); a simultaneous node is scored statically. Which games
//!   go elsewhere is `crate::fallback`'s: a hidden-information game is searched by UCT
//!   on sampled worlds with voting (`pimc`), never on the true state; a root where this
//!   seat does not act alone by UCT; a game whose seats do not form exactly two teams
//!   ([`Game::team`]) is refused by the registry.
//! - The evaluation's weights come from the spec's `eval.*` keys (`crate::eval`).
//! - Teams: a game with more seats in two teams (Crowded House) is searched as a
//!   two-sided game. The sign flips only where the team to move changes (consecutive
//!   decisions of one team, or of one seat in a compound turn, keep it), evaluation is
//!   from the moving team's point of view through its lowest seat (`evaluate`), and
//!   terminal scores read that seat's return (partners share returns). With two seats
//!   each seat is its own team and nothing changes.

use crate::common::{action_move, capture_score, AgentRng, Budget};
use crate::eval::Evaluator;
use crate::fallback::{self, Route};
use crate::ismcts::{pimc_decide, WORLDS};
use crate::mcts::{uct_decide, MctsConfig};
use crate::settings::{self, Kind, Setting, Settings};
use crate::spec::{AgentError, Spec};
use crate::Agent;
use engine::game::{Game, Seat, Turn, MAX_SEATS};
use engine::random::splitmix64;
use rand::Rng;
use rand_pcg::Pcg64;
use std::hash::{Hash, Hasher};

pub use crate::fallback::two_teams;
use std::time::Instant;

/// Score of a mate at the root; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
const INF: i32 = 10_000_000;
const MATE_BOUND: i32 = MATE - 10_000;
const MAX_PLY: usize = 128;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct TtEntry<A> {
    key: u64,
    depth: i16,
    bound: Bound,
    score: i32,
    best: Option<A>,
}

/// Settings of the search.
#[derive(Clone, Debug)]
pub struct AlphaBetaConfig {
    pub depth: u32,
    pub budget: Budget,
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
            quiescence: true,
            tt_bits: 18,
            worlds: 10,
            fallback_iters: 200,
            noise: 0,
            eval: Evaluator::default(),
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

/// The alpha-beta searcher (its tables persist between moves of one game).
pub struct AlphaBeta<G: Game> {
    pub config: AlphaBetaConfig,
    tt: Vec<Option<TtEntry<G::Action>>>,
    killers: Vec<[Option<G::Action>; 2]>,
    history: Vec<i32>,
    bufs: Vec<Vec<(G::Action, i32)>>,
    scratch: Vec<G::Action>,
    nodes: u64,
    start: Instant,
    stopped: bool,
    /// The lowest seat of each seat's team: the seat a team is evaluated for. The
    /// identity for two-seat games.
    side: [Seat; MAX_SEATS],
    /// Salt of the evaluation noise for the current decision.
    noise_salt: u64,
    pub info: SearchInfo,
}

impl<G: Game> AlphaBeta<G> {
    pub fn new(config: AlphaBetaConfig) -> Self {
        let n = 1usize << config.tt_bits;
        AlphaBeta {
            config,
            tt: vec![None; n],
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 4096],
            bufs: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scratch: Vec::new(),
            nodes: 0,
            start: Instant::now(),
            stopped: false,
            side: std::array::from_fn(|s| s),
            noise_salt: 0,
            info: SearchInfo::default(),
        }
    }

    /// Sets the salt of the evaluation noise (see [`AlphaBetaConfig::noise`]).
    pub fn set_noise_salt(&mut self, salt: u64) {
        self.noise_salt = salt;
    }

    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = None);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Iterative deepening from `game` for the seat to move; `None` when the game is not
    /// at a seat node or that seat has no moves.
    pub fn search(&mut self, game: &G) -> Option<G::Action> {
        let Turn::Seat(me) = game.turn() else {
            return None;
        };
        self.side = two_teams(game).unwrap_or_else(|| std::array::from_fn(|s| s));
        let mut g = game.clone();
        self.nodes = 0;
        self.stopped = false;
        self.start = Instant::now();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 8);
        let mut best: Option<G::Action> = None;
        self.info = SearchInfo::default();
        for depth in 1..=self.config.depth.max(1) {
            let (mv, score) = self.root(&mut g, depth as i32, me);
            if self.stopped {
                if best.is_none() {
                    best = mv;
                }
                break;
            }
            best = mv;
            self.info = SearchInfo {
                nodes: self.nodes,
                depth,
                score,
            };
            if score.abs() >= MATE_BOUND {
                // A forced mate found at this depth: deeper search cannot shorten it.
                break;
            }
        }
        self.info.nodes = self.nodes;
        best
    }

    fn root(&mut self, g: &mut G, depth: i32, me: Seat) -> (Option<G::Action>, i32) {
        self.nodes += 1;
        self.order(g, me, 0);
        let moves = std::mem::take(&mut self.bufs[0]);
        let mut alpha = -INF;
        let beta = INF;
        let mut best = None;
        for &(a, _) in &moves {
            g.apply(a);
            let v = self.search_node(g, depth - 1, 1, alpha, beta, me);
            g.undo();
            if self.stopped {
                break;
            }
            if v > alpha || best.is_none() {
                alpha = alpha.max(v);
                best = Some(a);
            }
        }
        self.bufs[0] = moves;
        if let Some(a) = best {
            self.store(g.state_key(), depth, alpha, Bound::Exact, Some(a), 0);
        }
        (best, alpha)
    }

    #[inline]
    fn check_budget(&mut self) {
        if self.nodes & 1023 == 0 {
            let b = &self.config.budget;
            if b.nodes.is_some_and(|n| self.nodes >= n)
                || b.time.is_some_and(|t| self.start.elapsed() >= t)
            {
                self.stopped = true;
            }
        }
    }

    /// Whether seats `a` and `b` play for the same team (no sign change between them).
    #[inline]
    fn same_side(&self, a: Seat, b: Seat) -> bool {
        a == b || self.side[a] == self.side[b]
    }

    fn terminal(g: &G, me: Seat, ply: usize) -> i32 {
        let r = g.returns()[me];
        if r >= 1.0 {
            MATE - ply as i32
        } else if r <= -1.0 {
            -(MATE - ply as i32)
        } else {
            (r * 100_000.0) as i32
        }
    }

    /// Static score for `me`'s team, always read through the team's lowest seat so
    /// partners agree on it.
    #[inline]
    fn static_eval(&self, g: &G, me: Seat) -> i32 {
        let score = (self.config.eval.evaluate(g, self.side[me]) * 100.0).round() as i32;
        if self.config.noise == 0 {
            return score;
        }
        // Keyed by position and salt, so transpositions agree within a decision; the
        // sign follows the team so both sides see the same perturbed position.
        let span = 2 * self.config.noise as u64 + 1;
        let offset =
            (splitmix64(g.state_key() ^ self.noise_salt) % span) as i32 - self.config.noise;
        if self.side[me] == 0 {
            score + offset
        } else {
            score - offset
        }
    }

    /// Value of `g` for seat `me` (who moved into it or is to move).
    fn search_node(
        &mut self,
        g: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        me: Seat,
    ) -> i32 {
        self.nodes += 1;
        self.check_budget();
        if self.stopped {
            return 0;
        }
        let s = match g.turn() {
            Turn::Terminal => return Self::terminal(g, me, ply),
            Turn::Simultaneous => return self.static_eval(g, me),
            Turn::Chance => return self.chance_node(g, depth, ply, me),
            Turn::Seat(s) => s,
        };
        if !self.same_side(s, me) {
            return -self.search_node_seat(g, depth, ply, -beta, -alpha, s);
        }
        if ply >= MAX_PLY {
            return self.static_eval(g, me);
        }
        alpha = alpha.max(-INF);
        // A partner to move searches on with the same sign.
        self.search_node_seat(g, depth, ply, alpha, beta, s)
    }

    fn chance_node(&mut self, g: &mut G, depth: i32, ply: usize, me: Seat) -> i32 {
        let mut outcomes = Vec::new();
        g.chance_outcomes(&mut outcomes);
        let mut total = 0.0;
        for (a, p) in outcomes {
            g.apply(a);
            total += p * self.search_node(g, depth, ply + 1, -INF, INF, me) as f64;
            g.undo();
        }
        total.round() as i32
    }

    /// Negamax at a node where `me` is to move.
    fn search_node_seat(
        &mut self,
        g: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        me: Seat,
    ) -> i32 {
        if ply >= MAX_PLY {
            return self.static_eval(g, me);
        }
        if depth <= 0 {
            return if self.config.quiescence && g.board().is_some() {
                self.quiesce(g, ply, alpha, beta, me)
            } else {
                self.static_eval(g, me)
            };
        }
        let key = g.state_key();
        let alpha0 = alpha;
        let mut tt_move = None;
        if let Some(e) = self.tt[(key as usize) & (self.tt.len() - 1)] {
            if e.key == key {
                tt_move = e.best;
                if e.depth as i32 >= depth {
                    let sc = from_tt(e.score, ply);
                    match e.bound {
                        Bound::Exact => return sc,
                        Bound::Lower if sc >= beta => return sc,
                        Bound::Upper if sc <= alpha => return sc,
                        _ => {}
                    }
                }
            }
        }
        self.order_with(g, me, ply, tt_move);
        let moves = std::mem::take(&mut self.bufs[ply]);
        let mut best = -INF;
        let mut best_move = None;
        for &(a, score) in &moves {
            g.apply(a);
            let v = self.search_node(g, depth - 1, ply + 1, alpha, beta, me);
            g.undo();
            if self.stopped {
                self.bufs[ply] = moves;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(a);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                if score < CAPTURE_BASE {
                    let k = &mut self.killers[ply];
                    if k[0] != Some(a) {
                        k[1] = k[0];
                        k[0] = Some(a);
                    }
                    let h = &mut self.history[action_index(g, a)];
                    *h = (*h + depth * depth).min(KILLER_BASE - 1);
                }
                break;
            }
        }
        self.bufs[ply] = moves;
        if best_move.is_none() {
            // No legal actions at a non-terminal seat node should not happen.
            return self.static_eval(g, me);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(key, depth, best, bound, best_move, ply);
        best
    }

    fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<G::Action>,
        ply: usize,
    ) {
        let i = (key as usize) & (self.tt.len() - 1);
        let replace = match self.tt[i] {
            None => true,
            Some(e) => e.key != key || e.depth as i32 <= depth,
        };
        if replace {
            self.tt[i] = Some(TtEntry {
                key,
                depth: depth as i16,
                bound,
                score: to_tt(score, ply),
                best,
            });
        }
    }

    /// Captures only, from the point of view of `me` to move (stand pat allowed).
    fn quiesce(&mut self, g: &mut G, ply: usize, mut alpha: i32, beta: i32, me: Seat) -> i32 {
        let stand = self.static_eval(g, me);
        if stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        alpha = alpha.max(stand);
        g.legal_actions(me, &mut self.scratch);
        let mut caps = std::mem::take(&mut self.bufs[ply]);
        caps.clear();
        for i in 0..self.scratch.len() {
            let a = self.scratch[i];
            if let Some(s) = capture_score(g, a) {
                caps.push((a, s));
            }
        }
        caps.sort_unstable_by_key(|c| std::cmp::Reverse(c.1));
        let mut best = stand;
        for &(a, _) in &caps {
            g.apply(a);
            self.nodes += 1;
            self.check_budget();
            let v = match g.turn() {
                Turn::Terminal => Self::terminal(g, me, ply + 1),
                Turn::Seat(s) if !self.same_side(s, me) => {
                    -self.quiesce(g, ply + 1, -beta, -alpha, s)
                }
                Turn::Seat(s) => self.quiesce(g, ply + 1, alpha, beta, s),
                _ => self.static_eval(g, me),
            };
            g.undo();
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.bufs[ply] = caps;
        best
    }

    fn order(&mut self, g: &mut G, me: Seat, ply: usize) {
        let key = g.state_key();
        let tt_move = self.tt[(key as usize) & (self.tt.len() - 1)]
            .filter(|e| e.key == key)
            .and_then(|e| e.best);
        self.order_with(g, me, ply, tt_move);
    }

    /// Fills `bufs[ply]` with the legal actions, best first: the TT move, captures by
    /// MVV-LVA, the two killers, then quiet moves by history.
    fn order_with(&mut self, g: &mut G, me: Seat, ply: usize, tt_move: Option<G::Action>) {
        g.legal_actions(me, &mut self.scratch);
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        buf.clear();
        let killers = self.killers[ply];
        for i in 0..self.scratch.len() {
            let a = self.scratch[i];
            let s = if Some(a) == tt_move {
                TT_BASE
            } else if let Some(c) = capture_score(g, a) {
                CAPTURE_BASE + c
            } else if Some(a) == killers[0] {
                KILLER_BASE + 1
            } else if Some(a) == killers[1] {
                KILLER_BASE
            } else {
                self.history[action_index(g, a)]
            };
            buf.push((a, s));
        }
        buf.sort_by_key(|c| std::cmp::Reverse(c.1));
        self.bufs[ply] = buf;
    }
}

const TT_BASE: i32 = 1 << 30;
const CAPTURE_BASE: i32 = 1 << 24;
const KILLER_BASE: i32 = 1 << 22;

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A 12-bit index of an action for the history table: from/to squares where the game
/// names the move ([`Game::action_move`]), a hash otherwise.
#[inline]
fn action_index<G: Game>(g: &G, a: G::Action) -> usize {
    if let Some(m) = g.action_move(a) {
        return (m.code() & 0xFFF) as usize;
    }
    let mut h = FxHasher(0);
    a.hash(&mut h);
    (h.0 >> 52) as usize
}

struct FxHasher(u64);
impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

/// The `alphabeta` agent.
pub struct AlphaBetaAgent<G: Game> {
    search: Option<AlphaBeta<G>>,
    config: AlphaBetaConfig,
    rng: AgentRng,
    spec: String,
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
        ]);
        v.extend(settings::eval_settings());
        v
    }

    pub fn from_spec(spec: &Spec) -> Result<Self, AgentError> {
        let s = Settings::read(spec, &Self::schema())?;
        let budget = Budget::from_settings(&s);
        let config = AlphaBetaConfig {
            depth: s.int("depth") as u32,
            budget,
            quiescence: s.flag("quiescence"),
            tt_bits: s.int("tt_bits") as u32,
            worlds: s.int("worlds") as usize,
            fallback_iters: budget.iters.unwrap_or(200),
            noise: s.int("noise") as i32,
            eval: Evaluator::new(s.eval()),
        };
        Ok(Self::new_with(
            config,
            spec.canonical(),
            AgentRng::from_settings(&s),
        ))
    }

    pub fn new(config: AlphaBetaConfig) -> Self {
        Self::new_with(config, "alphabeta".into(), AgentRng { seed: None })
    }

    fn new_with(config: AlphaBetaConfig, spec: String, rng: AgentRng) -> Self {
        AlphaBetaAgent {
            search: None,
            config,
            rng,
            spec,
        }
    }

    /// What the last search found (zeroes before the first).
    pub fn info(&self) -> SearchInfo {
        self.search.as_ref().map(|s| s.info).unwrap_or_default()
    }

    fn fallback_config(&self) -> MctsConfig {
        MctsConfig {
            budget: Budget {
                iters: Some(self.config.fallback_iters),
                nodes: None,
                time: self.config.budget.time,
            },
            ..MctsConfig::default()
        }
    }
}

impl<G: Game> Agent<G> for AlphaBetaAgent<G> {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        let mut rng = self.rng.for_decision(game.information_key(seat), rng);
        match fallback::alphabeta(game, seat) {
            Route::Own => {}
            Route::Pimc => {
                let cfg = self.fallback_config();
                return pimc_decide(game, seat, self.config.worlds, &cfg, &mut rng);
            }
            _ => {
                let cfg = self.fallback_config();
                return uct_decide(game, seat, &cfg, &mut rng);
            }
        }
        let config = self.config.clone();
        let s = self.search.get_or_insert_with(|| AlphaBeta::new(config));
        if s.config.noise > 0 {
            s.set_noise_salt(rng.gen());
        }
        match s.search(game) {
            Some(a) => a,
            None => crate::baseline::random_action(game, seat, &mut rng),
        }
    }

    fn reset(&mut self) {
        if let Some(s) = self.search.as_mut() {
            s.clear();
        }
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
    v[0].help = "UCT iterations (per world) of the fallback (200 when not given)";
    v
}

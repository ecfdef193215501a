//! `expectimax`: *-minimax (Ballard 1983; Hauk, Buro and Schaeffer 2004) for two-seat
//! games with chance nodes: alpha-beta at seat nodes, and at chance nodes Star1 (the
//! window of each outcome is derived from the bounds the others can still reach) and
//! Star2 (a probing pass that searches one move of every outcome's successor for a bound
//! before the Star1 pass), with iterative deepening.
//!
//! Values are seat 0's, bounded in [L, U] = [-1, 1]: game returns are ±1 (or between),
//! and the evaluation at the horizon is squashed into (-1, 1) by `tanh(pawns / 4)`.
//! All searches are fail-hard, so a full-window search returns the exact expectimax
//! value (the tests check this against full-width expectimax).
//!
//! Degrade rules: without chance nodes this is minimax with alpha-beta; a simultaneous
//! node is scored statically. Which games go elsewhere is `crate::fallback`'s:
//! hidden-information games are searched by UCT on sampled worlds with voting, a root
//! where this seat does not act alone by UCT, and games with other than two seats are
//! refused by the registry. The evaluation's weights come from the `eval.*` keys.
//!
//! Search features from `alphabeta` that stay sound with chance nodes (issue 36), each
//! off by default so that the rated specs (results/strength) keep their play:
//! - `order=true`: at seat nodes, captures first by MVV-LVA (most valuable victim, least
//!   valuable attacker), the rest in generation order. Ordering changes no value (the
//!   search is exact for a full window) and makes Star2's probe (the first move of each
//!   outcome's successor) a capture where one exists. Test: the prunings-agree checks
//!   of `agents/tests/expedition_agents.rs` run with it on.
//! - `quiescence=true`: at the horizon, when a seat is to move, a captures-only search
//!   with standing pat (seat 0 maximises, seat 1 minimises); a chance or simultaneous
//!   node reached inside it is scored statically, so no dice are expanded past the
//!   horizon. Test: `quiescence_sees_the_recapture`.

use crate::alphabeta::{fallback_budget, DEPTH};
use crate::common::{capture_score, squash, AgentRng, Budget};
use crate::eval::Evaluator;
use crate::fallback::{self, Route};
use crate::ismcts::pimc_decide;
use crate::mcts::{uct_decide, MctsConfig};
use crate::settings::{self, Kind, Setting, Settings};
use crate::spec::{AgentError, Spec};
use crate::Agent;
use engine::game::{Game, Seat, Turn};
use rand_pcg::Pcg64;
use std::collections::HashMap;
use std::time::Instant;

/// The deepest ply a quiescence search reaches (captures run out long before).
const MAX_QUIESCENCE_PLY: usize = 200;
const L: f64 = -1.0;
const U: f64 = 1.0;

/// Pruning at chance nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pruning {
    /// Full-width expectimax: no pruning anywhere.
    None,
    /// Alpha-beta at seat nodes, full width at chance nodes.
    AlphaBeta,
    /// Alpha-beta plus Star1 at chance nodes.
    Star1,
    /// Alpha-beta plus Star2 (probing, then Star1).
    Star2,
}

/// The *-minimax searcher.
pub struct Expectimax<G: Game> {
    pub pruning: Pruning,
    pub budget: Budget,
    /// Nodes visited by the last search (probes included).
    pub nodes: u64,
    /// Use the transposition table (bounds keyed by state and depth); off for
    /// `Pruning::None`, which is the plain full-width reference.
    pub use_tt: bool,
    /// The evaluation at the horizon.
    pub eval: Evaluator,
    /// Captures first at seat nodes (`order=true`).
    pub ordering: bool,
    /// Captures-only search at the horizon (`quiescence=true`).
    pub quiescence: bool,
    tt: HashMap<(u64, i32), (f64, f64)>,
    start: Instant,
    stopped: bool,
    actions: Vec<Vec<G::Action>>,
}

impl<G: Game> Expectimax<G> {
    pub fn new(pruning: Pruning, budget: Budget) -> Self {
        Expectimax {
            pruning,
            budget,
            nodes: 0,
            use_tt: pruning != Pruning::None,
            eval: Evaluator::default(),
            ordering: false,
            quiescence: false,
            tt: HashMap::new(),
            start: Instant::now(),
            stopped: false,
            actions: Vec::new(),
        }
    }

    /// The value of `game` for seat 0 searched `depth` seat plies deep with the full
    /// window, and the nodes it took.
    pub fn value(&mut self, game: &G, depth: u32) -> (f64, u64) {
        self.nodes = 0;
        self.stopped = false;
        self.start = Instant::now();
        self.tt.clear();
        let mut g = game.clone();
        let v = self.node(&mut g, depth as i32, 0, L, U);
        (v, self.nodes)
    }

    fn leaf(&self, g: &G) -> f64 {
        squash(self.eval.evaluate(g, 0), 4.0)
    }

    /// The legal actions of `seat`, captures first by MVV-LVA when ordering is on.
    fn legal(&mut self, g: &mut G, seat: Seat, ply: usize) -> Vec<G::Action> {
        if self.actions.len() <= ply {
            self.actions.resize_with(ply + 1, Vec::new);
        }
        let mut v = std::mem::take(&mut self.actions[ply]);
        g.legal_actions(seat, &mut v);
        if self.ordering {
            let mut keyed: Vec<(i32, G::Action)> = v
                .iter()
                .map(|&a| (capture_score(g, a).unwrap_or(i32::MIN), a))
                .collect();
            // Stable: quiet moves keep the generator's order.
            keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
            v.clear();
            v.extend(keyed.into_iter().map(|k| k.1));
        }
        v
    }

    /// Counts a node and checks the budget; whether the search must stop. The node
    /// count is read at every node (a node budget is exact), the clock and the outside
    /// limits ([`crate::common::interrupted`]) every 16 nodes (a chance node's outcomes
    /// or a large move list make a node slow; issue 64).
    fn tick(&mut self) -> bool {
        // A stopped search counts no more nodes: a node budget is never exceeded.
        if self.stopped || self.budget.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes & 15 == 0
            && (self.budget.time.is_some_and(|t| self.start.elapsed() >= t)
                || crate::common::interrupted())
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn node(&mut self, g: &mut G, depth: i32, ply: usize, alpha: f64, beta: f64) -> f64 {
        if self.tick() {
            return 0.0;
        }
        let turn = g.turn();
        match turn {
            Turn::Terminal => return g.returns()[0].clamp(L, U),
            Turn::Seat(s) if depth <= 0 && self.quiescence && ply <= MAX_QUIESCENCE_PLY => {
                return self.quiesce(g, s, ply, alpha, beta)
            }
            _ if depth <= 0 || ply > 200 => return self.leaf(g),
            Turn::Simultaneous => return self.leaf(g),
            _ => {}
        }
        let key = (g.state_key(), depth);
        if self.use_tt {
            if let Some(&(lo, hi)) = self.tt.get(&key) {
                if lo >= beta {
                    return beta;
                }
                if hi <= alpha {
                    return alpha;
                }
                if lo == hi {
                    return lo;
                }
            }
        }
        let v = match turn {
            Turn::Seat(s) => self.seat_node(g, s, depth, ply, alpha, beta),
            _ => self.chance_node(g, depth, ply, alpha, beta),
        };
        if self.use_tt && !self.stopped {
            // Fail-hard: a result on the window's edge is only a bound.
            let e = self.tt.entry(key).or_insert((L, U));
            if v <= alpha {
                e.1 = e.1.min(v);
            } else if v >= beta {
                e.0 = e.0.max(v);
            } else {
                *e = (v, v);
            }
        }
        v
    }

    /// Captures only for `s` to move, with standing pat, fail-hard in `[alpha, beta]`
    /// (seat 0's values: seat 0 maximises).
    fn quiesce(&mut self, g: &mut G, s: Seat, ply: usize, mut alpha: f64, mut beta: f64) -> f64 {
        let stand = self.leaf(g);
        let max = s == 0;
        if max {
            if stand >= beta {
                return beta;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return alpha;
            }
            beta = beta.min(stand);
        }
        let moves = self.legal(g, s, ply);
        for &a in &moves {
            if capture_score(g, a).is_none() {
                continue;
            }
            g.apply(a);
            let v = if self.tick() {
                0.0
            } else {
                match g.turn() {
                    Turn::Terminal => g.returns()[0].clamp(L, U),
                    Turn::Seat(t) if ply < MAX_QUIESCENCE_PLY => {
                        self.quiesce(g, t, ply + 1, alpha, beta)
                    }
                    _ => self.leaf(g),
                }
            };
            g.undo();
            if self.stopped {
                break;
            }
            if max {
                if v >= beta {
                    self.actions[ply] = moves;
                    return beta;
                }
                alpha = alpha.max(v);
            } else {
                if v <= alpha {
                    self.actions[ply] = moves;
                    return alpha;
                }
                beta = beta.min(v);
            }
        }
        self.actions[ply] = moves;
        if max {
            alpha
        } else {
            beta
        }
    }

    fn seat_node(
        &mut self,
        g: &mut G,
        s: Seat,
        depth: i32,
        ply: usize,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        let max = s == 0;
        let moves = self.legal(g, s, ply);
        let result = if self.pruning == Pruning::None {
            let mut best = if max { L } else { U };
            for &a in &moves {
                g.apply(a);
                let v = self.node(g, depth - 1, ply + 1, L, U);
                g.undo();
                best = if max { best.max(v) } else { best.min(v) };
            }
            best
        } else if max {
            let mut r = None;
            for &a in &moves {
                g.apply(a);
                let v = self.node(g, depth - 1, ply + 1, alpha, beta);
                g.undo();
                if v >= beta {
                    r = Some(beta);
                    break;
                }
                alpha = alpha.max(v);
            }
            r.unwrap_or(alpha)
        } else {
            let mut r = None;
            for &a in &moves {
                g.apply(a);
                let v = self.node(g, depth - 1, ply + 1, alpha, beta);
                g.undo();
                if v <= alpha {
                    r = Some(alpha);
                    break;
                }
                beta = beta.min(v);
            }
            r.unwrap_or(beta)
        };
        self.actions[ply] = moves;
        result
    }

    fn chance_node(&mut self, g: &mut G, depth: i32, ply: usize, alpha: f64, beta: f64) -> f64 {
        let mut outcomes = Vec::new();
        g.chance_outcomes(&mut outcomes);
        if matches!(self.pruning, Pruning::None | Pruning::AlphaBeta) {
            let mut total = 0.0;
            for &(a, p) in &outcomes {
                g.apply(a);
                total += p * self.node(g, depth, ply + 1, L, U);
                g.undo();
            }
            return total;
        }
        let n = outcomes.len();
        let mut lo = vec![L; n];
        let mut hi = vec![U; n];
        if self.pruning == Pruning::Star2 {
            // Probing: one move of each successor bounds its value from one side.
            for i in 0..n {
                let (a, p) = outcomes[i];
                g.apply(a);
                let probe = match g.turn() {
                    Turn::Seat(s) if depth > 0 => Some(s),
                    _ => None,
                };
                if let Some(s) = probe {
                    let moves = self.legal(g, s, ply + 1);
                    let first = moves.first().copied();
                    self.actions[ply + 1] = moves;
                    if let Some(m) = first {
                        let others_lo: f64 = (0..n)
                            .filter(|&j| j != i)
                            .map(|j| outcomes[j].1 * lo[j])
                            .sum();
                        let others_hi: f64 = (0..n)
                            .filter(|&j| j != i)
                            .map(|j| outcomes[j].1 * hi[j])
                            .sum();
                        g.apply(m);
                        if s == 0 {
                            // Successor is a max node: its first move is a lower bound.
                            let b = (beta - others_lo) / p;
                            let w = self.node(g, depth - 1, ply + 2, L, b.min(U));
                            g.undo();
                            g.undo();
                            if w >= b {
                                return beta;
                            }
                            lo[i] = lo[i].max(w);
                        } else {
                            let a_ = (alpha - others_hi) / p;
                            let w = self.node(g, depth - 1, ply + 2, a_.max(L), U);
                            g.undo();
                            g.undo();
                            if w <= a_ {
                                return alpha;
                            }
                            hi[i] = hi[i].min(w);
                        }
                        if self.stopped {
                            return 0.0;
                        }
                        continue;
                    }
                }
                g.undo();
            }
            let sum_lo: f64 = (0..n).map(|j| outcomes[j].1 * lo[j]).sum();
            let sum_hi: f64 = (0..n).map(|j| outcomes[j].1 * hi[j]).sum();
            if sum_lo >= beta {
                return beta;
            }
            if sum_hi <= alpha {
                return alpha;
            }
        }
        // Star1: each outcome's window from the exact values so far and the bounds of
        // the outcomes still to search.
        let mut exact = 0.0;
        let mut rest_lo: f64 = (0..n).map(|j| outcomes[j].1 * lo[j]).sum();
        let mut rest_hi: f64 = (0..n).map(|j| outcomes[j].1 * hi[j]).sum();
        for i in 0..n {
            let (a, p) = outcomes[i];
            rest_lo -= p * lo[i];
            rest_hi -= p * hi[i];
            let a_ = (alpha - exact - rest_hi) / p;
            let b = (beta - exact - rest_lo) / p;
            if lo[i] >= b {
                return beta;
            }
            if hi[i] <= a_ {
                return alpha;
            }
            let ax = a_.max(lo[i]);
            let bx = b.min(hi[i]);
            g.apply(a);
            let v = self.node(g, depth, ply + 1, ax, bx);
            g.undo();
            if self.stopped {
                return 0.0;
            }
            if v <= a_ {
                return alpha;
            }
            if v >= b {
                return beta;
            }
            exact += p * v;
        }
        exact
    }

    /// Iterative deepening from a seat node for the seat to move: the best action.
    pub fn best_action(&mut self, game: &G, max_depth: u32) -> Option<(G::Action, f64)> {
        let Turn::Seat(me) = game.turn() else {
            return None;
        };
        self.nodes = 0;
        self.stopped = false;
        self.start = Instant::now();
        self.tt.clear();
        let mut g = game.clone();
        let mut moves = self.legal(&mut g, me, 0);
        let mut best: Option<(G::Action, f64)> = None;
        let sign = if me == 0 { 1.0 } else { -1.0 };
        for depth in 1..=max_depth.max(1) {
            // Previous best first.
            if let Some((b, _)) = best {
                if let Some(i) = moves.iter().position(|&m| m == b) {
                    moves[..=i].rotate_right(1);
                }
            }
            let mut alpha = L;
            let mut beta = U;
            let mut this: Option<(G::Action, f64)> = None;
            for &a in &moves {
                g.apply(a);
                let v = self.node(&mut g, depth as i32 - 1, 1, alpha, beta);
                g.undo();
                if self.stopped {
                    break;
                }
                let mine = sign * v;
                match this {
                    Some((_, b)) if b >= mine => {}
                    _ => this = Some((a, mine)),
                }
                if me == 0 {
                    alpha = alpha.max(v);
                } else {
                    beta = beta.min(v);
                }
            }
            if self.stopped {
                if best.is_none() {
                    best = this;
                }
                break;
            }
            best = this;
        }
        crate::common::count(0, self.nodes);
        best
    }
}

/// The `expectimax` agent.
pub struct ExpectimaxAgent {
    depth: u32,
    pruning: Pruning,
    budget: Budget,
    eval: Evaluator,
    ordering: bool,
    quiescence: bool,
    rng: AgentRng,
    spec: String,
    /// Nodes (and fallback iterations) of the last decision.
    stats: crate::SearchStats,
}

impl ExpectimaxAgent {
    /// The keys `expectimax` reads.
    pub fn schema() -> Vec<Setting> {
        let mut v = vec![DEPTH];
        v.extend(fallback_budget());
        v.push(Setting {
            key: "star",
            kind: Kind::Choice(&["none", "0", "1", "2"]),
            default: "2",
            tunable: true,
            help: "pruning at chance nodes: none (full width), 0 (alpha-beta only), Star1, Star2",
        });
        v.push(Setting {
            key: "order",
            kind: Kind::Bool,
            default: "false",
            tunable: true,
            help: "captures first (MVV-LVA) at seat nodes",
        });
        v.push(Setting {
            key: "quiescence",
            kind: Kind::Bool,
            default: "false",
            tunable: true,
            help: "captures-only search at the horizon where a seat is to move",
        });
        v.extend(settings::eval_settings());
        v
    }

    pub fn from_spec(spec: &Spec) -> Result<Self, AgentError> {
        let s = Settings::read(spec, &Self::schema())?;
        let pruning = match s.choice("star") {
            "0" => Pruning::AlphaBeta,
            "1" => Pruning::Star1,
            "none" => Pruning::None,
            _ => Pruning::Star2,
        };
        Ok(ExpectimaxAgent {
            depth: s.int("depth") as u32,
            pruning,
            budget: Budget::from_settings(&s),
            eval: Evaluator::new(s.eval()),
            ordering: s.flag("order"),
            quiescence: s.flag("quiescence"),
            rng: AgentRng::from_settings(&s),
            spec: spec.canonical(),
            stats: crate::SearchStats::default(),
        })
    }
}

impl<G: Game> Agent<G> for ExpectimaxAgent {
    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        crate::common::take_counts();
        let budget = self.budget;
        let a =
            crate::common::within_budget(&budget, Instant::now(), || self.decide(game, seat, rng));
        self.stats = crate::common::take_counts();
        a
    }

    fn search_stats(&self) -> Option<crate::SearchStats> {
        Some(self.stats)
    }
}

/// Worlds the hidden-information fallback of `expectimax` searches.
const FALLBACK_WORLDS: usize = 10;

impl ExpectimaxAgent {
    fn decide<G: Game>(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        let started = Instant::now();
        let mut rng = self.rng.for_decision(game.information_key(seat), rng);
        // `iters` is the fallback's whole decision; without it, 200 a world.
        let worlds = match fallback::expectimax(game, seat) {
            Route::Pimc => FALLBACK_WORLDS,
            _ => 1,
        };
        let fallback = MctsConfig {
            budget: Budget {
                iters: Some(self.budget.iters.unwrap_or(200 * worlds as u64)),
                nodes: self.budget.nodes,
                time: self.budget.time,
            }
            .since(started),
            ..MctsConfig::default()
        };
        match fallback::expectimax(game, seat) {
            Route::Own => {}
            Route::Pimc => return pimc_decide(game, seat, worlds, &fallback, &mut rng),
            _ => return uct_decide(game, seat, &fallback, &mut rng),
        }
        let mut x = Expectimax::<G>::new(self.pruning, self.budget.since(started));
        x.eval = self.eval.clone();
        x.ordering = self.ordering;
        x.quiescence = self.quiescence;
        match x.best_action(game, self.depth) {
            Some((a, _)) => a,
            None => crate::baseline::random_action(game, seat, &mut rng),
        }
    }
}

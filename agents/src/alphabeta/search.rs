//! The searcher: iterative deepening with aspiration windows over a principal variation
//! search (negamax), with a transposition table, null-move pruning, late-move
//! reductions, check extensions and a quiescence search on captures.
//!
//! Soundness across games (issue 66: each switch follows one declared fact of the game,
//! which its conformance check verifies against play):
//! - the null move only where the game offers a pass (`GameFacts::null_move`, with
//!   [`Game::apply_null`]: orthodox chess, Chess960, Half Alice and Crowded House, whose
//!   turns are one move each; compound turns, chance and hidden information declare
//!   none), never in check, never right after another pass and never
//!   for a side with only pawns and king on the board (zugzwang);
//! - check extensions and quiescence evasions where the game's check is known
//!   (`GameFacts::board_check`, or `GameFacts::game_check` with the game's own
//!   [`Game::in_check`]: Half Alice's sides, Crowded House's next seat, Adrenaline's
//!   extra steps), then no deeper than `ext_limit`;
//! - pruning near the leaves (below) where besides every decision is a whole turn
//!   (`GameFacts::quiet_pruning`: orthodox chess, Chess960, Half Alice, Crowded House;
//!   Masquerade and Time declare whole turns but no check, so they stay unpruned):
//!   elsewhere the static evaluation of a half-finished compound turn is too loose a
//!   bound to cut on;
//! - static exchange where captures are the board's ordinary ones
//!   (`GameFacts::static_exchange`: orthodox chess and Chess960; Cassandra's prophecies
//!   may remove a capturer, Half Alice's mirror and Crowded House's halves limit who
//!   answers).
//!
//! Reductions and extensions change depth only; a
//! reduced move that beats alpha is searched again at full depth, so a reduction can
//! delay but not hide a good move found at full depth. Each feature can be switched off
//! in [`super::AlphaBetaConfig`] (`pvs=false`, `null_move=false`, ...), which is how
//! results/strength/search measures them one by one. Tests (agents/tests/search.rs):
//! `check_extensions_follow_the_check_facts`, `pruning_switches_on_where_the_facts_allow`,
//! `adaptive_reductions_follow_the_pruning_facts`.
//!
//! Pruning near the leaves (generation 3 of the agents, issue 36), where the facts allow
//! it (above). Outside the principal variation and out of check:
//! reverse futility pruning (a node whose static score beats beta by
//! [`RFP_MARGIN`] a ply, at most [`RFP_DEPTH`] plies from the leaves, returns it),
//! futility pruning (at most three plies from the leaves, quiet moves that do not give
//! check are skipped when the static score plus [`FUTILITY_MARGIN`] cannot reach alpha)
//! and late-move pruning (there, quiet moves past [`LMP_COUNT`] are skipped); a move
//! is pruned only once another has been searched and no mate is in sight. The
//! quiescence search skips captures that lose material by static exchange
//! ([`super::see`]) and captures that cannot bring the score within [`DELTA`] of alpha.
//! Switches: `futility`, `lmp`, `see`. Tests in agents/tests/search.rs:
//! `pruning_keeps_the_tactics_of_the_suite`, `pruning_searches_fewer_nodes_to_the_same_depth`.
//!
//! Reductions that read the node (issue 36, 2026-12-06), opt-in (off by default:
//! measured and not adopted, results/strength/search/README.md "Reductions that read
//! the node"), in the same games as the pruning above: internal iterative reduction (a
//! node without a transposition-table move, at least four plies from the leaves, is
//! searched one ply shallower: without a move to try first its ordering is poor and a deeper search of
//! it is mostly wasted; the next iteration finds the table move), late-move reductions
//! one ply deeper outside the principal variation when the side to move is not
//! improving on its static score of two plies up, and one ply shallower or deeper by
//! the sign of the quiet move's history, and a null-move reduction of
//! 3 + depth/3 + (static - beta)/200 (the margin's part at most 3). Decisions: the
//! history adjustment reads only the sign (history here is unbounded depth-squared
//! sums, aged between moves, so its size means little); "improving" is taken as true
//! where either ply was in check; every adjustment keeps the reduction within
//! [0, depth - 2]. All three act only at nodes three or more plies from the leaves, so a
//! search of depth 1 or 2 is the same with or without them, node for node. Switches:
//! `iir`, `lmr_adaptive`, `null_adaptive`. Tests:
//! `adaptive_reductions_change_no_search_of_depth_two_or_less`,
//! `adaptive_reductions_follow_the_pruning_facts`.

use super::evals::{EvalCache, EVAL_CACHE_BITS};
use super::ordering::{is_quiet, pick, KILLER_BASE};
use super::see::loses_material;
use super::tt::{Bound, Tt};
use super::{AlphaBetaConfig, SearchInfo, INF, MATE, MATE_BOUND, MAX_PLY};
use crate::common::{action_move, capture_score};
use crate::eval::role_value;
use crate::fallback::two_teams;
use engine::game::{Game, Seat, Turn, MAX_SEATS};
use engine::random::splitmix64;
use engine::Role;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// First aspiration half-window (centipawns) and the depth from which it is used.
const ASPIRATION: i32 = 40;
const ASPIRATION_DEPTH: u32 = 4;
/// Reverse futility pruning: margin per ply of depth left (centipawns) and the deepest
/// node it applies to.
const RFP_MARGIN: i32 = 90;
const RFP_DEPTH: i32 = 6;
/// Futility pruning: the margin by depth left (1 to 3).
const FUTILITY_MARGIN: [i32; 4] = [0, 150, 280, 420];
/// Late-move pruning: quiet moves searched at depth 1 to 3 before the rest are skipped.
const LMP_COUNT: [usize; 4] = [0, 4, 7, 12];
/// Quiescence delta pruning: a capture whose victim cannot bring the static score to
/// within this of alpha is skipped.
const DELTA: i32 = 200;

/// The alpha-beta searcher (its tables persist between moves of one game).
pub struct AlphaBeta<G: Game> {
    pub config: AlphaBetaConfig,
    tt: Tt<G::Action>,
    /// Static evaluations of this search (see [`super::evals`]); `None` when switched
    /// off ([`AlphaBeta::set_eval_cache`]).
    evals: Option<EvalCache>,
    pub(super) killers: Vec<[Option<G::Action>; 2]>,
    pub(super) history: Vec<i32>,
    pub(super) bufs: Vec<Vec<(G::Action, i32)>>,
    quiets: Vec<Vec<G::Action>>,
    pub(super) scratch: Vec<G::Action>,
    nodes: u64,
    start: Instant,
    /// The hard limit of this decision (the config's time, or the clock's share).
    limit: Option<Duration>,
    stopped: bool,
    /// The lowest seat of each seat's team: the seat a team is evaluated for. The
    /// identity for two-seat games.
    side: [Seat; MAX_SEATS],
    /// Salt of the evaluation noise for the current decision.
    noise_salt: u64,
    /// Root moves with the scores of the last finished iteration (see
    /// [`AlphaBeta::root_scores`]).
    root_scores: Vec<(G::Action, i32)>,
    exact_root: bool,
    /// Plies below which check extensions and quiescence evasions apply: twice the
    /// iteration's depth plus two (and never past half of `MAX_PLY`). Unbounded, a game
    /// whose board shows a check after most moves (Half Alice's combined board) grew the
    /// tree without end; test `check_extensions_stay_bounded_on_every_board_game`.
    ext_limit: usize,
    /// Check extensions and evasions this search: asked for and the game's facts say
    /// its check is known (`GameFacts::board_check` or `GameFacts::game_check`).
    checks: bool,
    /// Null moves this search: asked for and the game offers a pass
    /// (`GameFacts::null_move`).
    nulls: bool,
    /// Reverse futility and futility pruning this search (see the module comment).
    futile: bool,
    /// Late-move pruning this search.
    late_pruning: bool,
    /// Static exchange evaluation this search (ordering and quiescence).
    exchanges: bool,
    /// Internal iterative reduction this search (`AlphaBetaConfig::iir`).
    iir: bool,
    /// Adaptive late-move reductions this search (`AlphaBetaConfig::lmr_adaptive`).
    lmr_adaptive: bool,
    /// The adaptive null-move reduction this search (`AlphaBetaConfig::null_adaptive`).
    null_adaptive: bool,
    /// The static score of the node at each ply of the current line for its side to
    /// move, `None` in check (read by adaptive reductions: "improving").
    statics: Vec<Option<i32>>,
    /// Extend on the board's check whatever the facts say (see
    /// [`AlphaBeta::claim_board_check`]).
    claimed_checks: bool,
    /// Set from outside to end the search ([`AlphaBeta::search_watched`]).
    stop_flag: Option<Arc<AtomicBool>>,
    pub info: SearchInfo,
}

/// The tables go to the next searcher on this thread ([`super::spare`]).
impl<G: Game> Drop for AlphaBeta<G> {
    fn drop(&mut self) {
        let tt = std::mem::replace(&mut self.tt, Tt::none());
        if tt.has_slots() {
            super::spare::give(tt);
        }
        if let Some(evals) = self.evals.take() {
            super::spare::give(evals);
        }
    }
}

impl<G: Game> AlphaBeta<G> {
    pub fn new(config: AlphaBetaConfig) -> Self {
        AlphaBeta {
            tt: Tt::new(config.tt_bits),
            evals: Some(EvalCache::new(EVAL_CACHE_BITS)),
            config,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 4096],
            bufs: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            quiets: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scratch: Vec::new(),
            nodes: 0,
            start: Instant::now(),
            limit: None,
            stopped: false,
            side: std::array::from_fn(|s| s),
            noise_salt: 0,
            root_scores: Vec::new(),
            exact_root: false,
            ext_limit: MAX_PLY / 2,
            checks: false,
            nulls: false,
            futile: false,
            late_pruning: false,
            exchanges: false,
            iir: false,
            lmr_adaptive: false,
            null_adaptive: false,
            statics: vec![None; MAX_PLY + 2],
            claimed_checks: false,
            stop_flag: None,
            info: SearchInfo::default(),
        }
    }

    /// Treats the board's check as the game's even where the game's facts do not (with
    /// `check_extension` on): for testing that `ext_limit` bounds the extensions on a
    /// board that shows a check after most moves (Half Alice).
    pub fn claim_board_check(&mut self) {
        self.claimed_checks = true;
    }

    /// Switches the cache of static evaluations on (the default) or off: the scores and
    /// the tree are the same either way (test `alphabeta_eval_cache_changes_no_tree`),
    /// only the time differs.
    pub fn set_eval_cache(&mut self, on: bool) {
        self.evals = on.then(|| EvalCache::new(EVAL_CACHE_BITS));
    }

    /// Sets the salt of the evaluation noise (see [`AlphaBetaConfig::noise`]).
    pub fn set_noise_salt(&mut self, salt: u64) {
        self.noise_salt = salt;
    }

    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Iterative deepening from `game` for the seat to move, within the config's budget;
    /// `None` when the game is not at a seat node or that seat has no moves.
    pub fn search(&mut self, game: &G) -> Option<G::Action> {
        let limit = self.config.budget.time;
        self.search_for(game, limit)
    }

    /// Every root move with its score (centipawns for the seat to move) after a search
    /// of at most `time` (and the config's depth and nodes), best first. Each root move
    /// is searched with the full window, so the scores are exact values at the depth
    /// reached, not bounds: for searching sampled worlds and comparing moves across
    /// them. Empty where [`AlphaBeta::search`] would answer `None`.
    pub fn root_scores(&mut self, game: &G, time: Option<Duration>) -> Vec<(G::Action, i32)> {
        self.exact_root = true;
        let best = self.search_for(game, time);
        self.exact_root = false;
        if best.is_none() {
            return Vec::new();
        }
        let mut v = self.root_scores.clone();
        v.sort_by_key(|m| std::cmp::Reverse(m.1));
        v
    }

    /// [`AlphaBeta::search`] with the hard time limit given.
    pub fn search_for(&mut self, game: &G, limit: Option<Duration>) -> Option<G::Action> {
        self.deepen(game, limit, &mut |_, _| {})
    }

    /// [`AlphaBeta::search`] under limits set from outside (they replace the config's
    /// own for this search; [`crate::Limits`]), calling `report` after every finished
    /// iteration. The tables stay, as between any two searches.
    pub fn search_watched(
        &mut self,
        game: &G,
        limits: &crate::Limits,
        report: &mut dyn FnMut(SearchInfo, G::Action),
    ) -> Option<G::Action> {
        let saved = self.config.clone();
        if limits.unbounded {
            self.config.budget.nodes = None;
            self.config.budget.time = None;
        }
        if let Some(d) = limits.depth {
            self.config.depth = d;
        }
        if let Some(n) = limits.nodes {
            self.config.budget.nodes = Some(n);
        }
        self.config.tc = None;
        if limits.from_clock {
            self.config.full_time = false;
        }
        let time = limits.time.or(self.config.budget.time);
        self.stop_flag = limits.stop.clone();
        let best = self.deepen(game, time, report);
        self.stop_flag = None;
        self.config = saved;
        best
    }

    /// Iterative deepening to `limit`, `report` after every finished iteration.
    fn deepen(
        &mut self,
        game: &G,
        limit: Option<Duration>,
        report: &mut dyn FnMut(SearchInfo, G::Action),
    ) -> Option<G::Action> {
        let Turn::Seat(me) = game.turn() else {
            return None;
        };
        self.begin(game, limit);
        let mut g = game.clone();
        let mut best: Option<G::Action> = None;
        self.info = SearchInfo::default();
        let mut prev = 0;
        for depth in 1..=self.config.depth.max(1) {
            self.ext_limit = (2 * depth as usize + 2).min(MAX_PLY / 2);
            let (mv, score, complete) = self.aspirate(&mut g, depth, me, prev);
            if self.stopped {
                // The unfinished iteration's move counts once its first (the previous
                // best) was searched fully: anything it chose since beat that one.
                if mv.is_some() && (best.is_none() || complete) {
                    best = mv;
                }
                break;
            }
            best = mv;
            prev = score;
            self.info = SearchInfo {
                nodes: self.nodes,
                depth,
                score,
            };
            if let Some(m) = mv {
                report(self.info, m);
            }
            if score.abs() >= MATE_BOUND && !self.exact_root {
                // A forced mate found at this depth: deeper search cannot shorten it.
                break;
            }
            // A fixed time a move (`time_ms`) cannot be saved for later, so it is searched
            // to the hard stop: the unfinished iteration still plays a move that beat the
            // last best. Under a clock, and for exact root scores (sampled worlds share
            // one decision's time), no iteration starts after SOFT of the budget.
            let saves_time = self.config.tc.is_some() || self.exact_root || !self.config.full_time;
            if let (Some(t), true) = (self.limit, saves_time) {
                if self.start.elapsed().as_secs_f64() > t.as_secs_f64() * super::time::SOFT {
                    break;
                }
            }
        }
        self.info.nodes = self.nodes;
        crate::common::count(0, self.nodes);
        best
    }

    /// Sets up one decision's search of `game` (its sides, the features its facts allow,
    /// the clock from now to `limit`, fresh killers, aged history).
    pub(super) fn begin(&mut self, game: &G, limit: Option<Duration>) {
        self.side = two_teams(game).unwrap_or_else(|| std::array::from_fn(|s| s));
        let facts = game.facts();
        let check = facts.board_check || facts.game_check;
        self.checks = self.config.check_extension && (check || self.claimed_checks);
        self.nulls = self.config.null_move && facts.null_move;
        // Pruning on the static score needs whole turns and a known check (no pruning in
        // check).
        let prune = facts.quiet_pruning && check;
        self.futile = self.config.futility && prune;
        self.late_pruning = self.config.lmp && prune;
        self.exchanges = self.config.see && facts.static_exchange;
        self.iir = self.config.iir && prune;
        self.lmr_adaptive = self.config.lmr_adaptive && prune;
        self.null_adaptive = self.config.null_adaptive && prune;
        self.nodes = 0;
        if let Some(c) = &mut self.evals {
            c.new_search();
        }
        self.stopped = false;
        self.start = Instant::now();
        self.limit = limit;
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 8);
        self.root_scores.clear();
    }

    /// The value of `g` for seat `me`, searched `depth` decisions deep with the full
    /// window after [`AlphaBeta::begin`]: one cell of the matrix game at a simultaneous
    /// root ([`super::matrix`]). A simultaneous node within reach is scored statically,
    /// as everywhere in this search. `None` once the time or the nodes ran out.
    pub(super) fn cell_value(&mut self, g: &mut G, me: Seat, depth: u32) -> Option<i32> {
        self.ext_limit = (2 * depth as usize + 2).min(MAX_PLY / 2);
        let v = self.search_node(g, depth as i32, 1, -INF, INF, me, false);
        (!self.stopped).then_some(v)
    }

    /// Sets the hard limit of the running decision (its clock keeps running from
    /// [`AlphaBeta::begin`]).
    pub(super) fn set_limit(&mut self, limit: Option<Duration>) {
        self.limit = limit;
    }

    /// Whether the time of this decision has passed `fraction` of its limit.
    pub(super) fn past(&self, fraction: f64) -> bool {
        self.limit
            .is_some_and(|t| self.start.elapsed().as_secs_f64() > t.as_secs_f64() * fraction)
    }

    /// Nodes searched since [`AlphaBeta::begin`].
    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// One iteration at `depth`, in a window around the last score that widens on each
    /// failure. Returns the move, its score and whether the move's value was confirmed
    /// inside the window (a stop during a re-search leaves the earlier move standing).
    fn aspirate(
        &mut self,
        g: &mut G,
        depth: u32,
        me: Seat,
        prev: i32,
    ) -> (Option<G::Action>, i32, bool) {
        let use_window = self.config.aspiration
            && !self.exact_root
            && depth >= ASPIRATION_DEPTH
            && prev.abs() < MATE_BOUND;
        if !use_window {
            let (mv, sc) = self.root(g, depth as i32, me, -INF, INF);
            return (mv, sc, mv.is_some());
        }
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = (prev - delta, prev + delta);
        let mut fallback = None;
        loop {
            let (mv, sc) = self.root(g, depth as i32, me, alpha, beta);
            if self.stopped {
                // A fail-high move found before the stop is better than the old best.
                return match (mv, fallback) {
                    (Some(m), _) if sc > alpha => (Some(m), sc, true),
                    (_, Some(m)) => (Some(m), sc, true),
                    _ => (mv, sc, false),
                };
            }
            if sc <= alpha {
                alpha = (alpha - delta).max(-INF);
            } else if sc >= beta {
                fallback = mv;
                beta = (beta + delta).min(INF);
            } else {
                return (mv, sc, true);
            }
            delta *= 3;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// The root: every move, PVS after the first; returns the best move and its score.
    fn root(
        &mut self,
        g: &mut G,
        depth: i32,
        me: Seat,
        mut alpha: i32,
        beta: i32,
    ) -> (Option<G::Action>, i32) {
        // Counted within the node budget, so a decision never spends more than it.
        if self.config.budget.nodes.is_none_or(|n| self.nodes < n) {
            self.nodes += 1;
        }
        let key = g.state_key();
        let tt_move = self.tt.probe(key).and_then(|e| e.best);
        self.order_with(g, me, 0, tt_move);
        let mut moves = std::mem::take(&mut self.bufs[0]);
        moves.sort_by_key(|c| std::cmp::Reverse(c.1));
        let alpha0 = alpha;
        let mut best = None;
        let mut best_score = -INF;
        let mut scores = Vec::new();
        for (i, &(a, _)) in moves.iter().enumerate() {
            g.apply(a);
            let v = if self.exact_root {
                self.search_node(g, depth - 1, 1, -INF, INF, me, false)
            } else if i == 0 || !self.config.pvs {
                self.search_node(g, depth - 1, 1, alpha, beta, me, false)
            } else {
                let v = self.search_node(g, depth - 1, 1, alpha, alpha + 1, me, false);
                if v > alpha && v < beta && !self.stopped {
                    self.search_node(g, depth - 1, 1, alpha, beta, me, false)
                } else {
                    v
                }
            };
            g.undo();
            if self.stopped {
                break;
            }
            scores.push((a, v));
            if v > best_score {
                best_score = v;
                best = Some(a);
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        // Stopped before any move was searched to the end (a budget of a few nodes or a
        // fraction of a millisecond): the ordering's first move (the table's move, else the
        // best capture by MVV-LVA or a killer) is the search's best guess, and playing it
        // keeps the decision a search's rather than a random draw.
        if self.stopped && best.is_none() {
            best = moves.first().map(|c| c.0);
        }
        self.bufs[0] = moves;
        if !self.stopped {
            self.root_scores = scores;
            if let Some(a) = best {
                let bound = if best_score >= beta {
                    Bound::Lower
                } else if best_score > alpha0 {
                    Bound::Exact
                } else {
                    Bound::Upper
                };
                self.tt.store(key, depth, best_score, bound, Some(a), 0);
            }
        }
        (best, best_score)
    }

    /// Counts one more node unless the search is stopped or its nodes are spent; whether
    /// the node may be searched ([`Self::check_budget_time`] after counting). A stopped
    /// search counts no more nodes, so a node budget is never exceeded.
    #[inline]
    fn spend_node(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        if self.config.budget.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
            return false;
        }
        self.nodes += 1;
        self.check_budget_time();
        !self.stopped
    }

    /// Stops the search, read every 16 nodes, once its time is up or it is stopped from
    /// outside (its flag, or the thread's [`crate::common::interrupted`]). Issue 64: the
    /// clock was read every 1024 nodes, and 1024 nodes of Clairvoyant Chess with a large
    /// balance took seconds; the node count, read at every node by
    /// [`Self::spend_node`], makes a node budget the same search on every machine.
    #[inline]
    fn check_budget_time(&mut self) {
        if self.nodes & 15 == 0
            && (self.limit.is_some_and(|t| self.start.elapsed() >= t)
                || self
                    .stop_flag
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
                || crate::common::interrupted())
        {
            self.stopped = true;
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
    /// partners agree on it; from the cache of this search where the position was
    /// scored before.
    #[inline]
    fn static_eval(&mut self, g: &G, me: Seat) -> i32 {
        let seat = self.side[me];
        let key = g.state_key();
        let eval = &self.config.eval;
        let score = match &mut self.evals {
            Some(c) => c.get_or_insert(key, seat, || Self::score(eval, g, seat)),
            None => Self::score(eval, g, seat),
        };
        if self.config.noise == 0 {
            return score;
        }
        // Keyed by position and salt, so transpositions agree within a decision; the
        // sign follows the team so both sides see the same perturbed position.
        let span = 2 * self.config.noise as u64 + 1;
        let offset = (splitmix64(key ^ self.noise_salt) % span) as i32 - self.config.noise;
        if seat == 0 {
            score + offset
        } else {
            score - offset
        }
    }

    /// The evaluation of `g` for `seat` in centipawns, without noise.
    #[inline]
    fn score(eval: &crate::eval::Evaluator, g: &G, seat: Seat) -> i32 {
        (eval.evaluate(g, seat) * 100.0).round() as i32
    }

    /// Value of `g` for seat `me` (who moved into it or is to move); `was_null` when
    /// the move into it was a pass.
    #[allow(clippy::too_many_arguments)]
    fn search_node(
        &mut self,
        g: &mut G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        me: Seat,
        was_null: bool,
    ) -> i32 {
        if !self.spend_node() {
            return 0;
        }
        let s = match g.turn() {
            Turn::Terminal => return Self::terminal(g, me, ply),
            Turn::Simultaneous => return self.static_eval(g, me),
            Turn::Chance => return self.chance_node(g, depth, ply, me),
            Turn::Seat(s) => s,
        };
        if ply >= MAX_PLY {
            return self.static_eval(g, me);
        }
        if !self.same_side(s, me) {
            return -self.search_node_seat(g, depth, ply, -beta, -alpha, s, was_null);
        }
        // A partner to move searches on with the same sign.
        self.search_node_seat(g, depth, ply, alpha, beta, s, was_null)
    }

    fn chance_node(&mut self, g: &mut G, depth: i32, ply: usize, me: Seat) -> i32 {
        let mut outcomes = Vec::new();
        g.chance_outcomes(&mut outcomes);
        let mut total = 0.0;
        for (a, p) in outcomes {
            g.apply(a);
            total += p * self.search_node(g, depth, ply + 1, -INF, INF, me, false) as f64;
            g.undo();
        }
        total.round() as i32
    }

    /// Whether the seat to move is in check: the game's check ([`Game::in_check`]: the
    /// board's by default, false without a board).
    #[inline]
    fn in_check(g: &G) -> bool {
        g.in_check()
    }

    /// Whether the seat to move has a piece other than pawns and king (on a board);
    /// true without one (the game's own `apply_null` decides there).
    fn has_pieces(g: &G) -> bool {
        match g.board() {
            Some(b) => {
                let us = b.turn();
                let pk = b.pieces(us, Role::Pawn) | b.pieces(us, Role::King);
                (b.by_color(us) & !pk).any()
            }
            None => true,
        }
    }

    /// Negamax at a node where `me` is to move.
    #[allow(clippy::too_many_arguments)]
    fn search_node_seat(
        &mut self,
        g: &mut G,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        me: Seat,
        was_null: bool,
    ) -> i32 {
        let in_check = Self::in_check(g);
        if in_check && self.checks && ply < self.ext_limit {
            depth += 1;
        }
        if depth <= 0 {
            return if self.config.quiescence && g.board().is_some() {
                self.quiesce(g, ply, alpha, beta, me)
            } else {
                self.static_eval(g, me)
            };
        }
        let pv = beta - alpha > 1;
        let key = g.state_key();
        let alpha0 = alpha;
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.best;
            if !pv || !self.config.pvs {
                if let Some(sc) = Tt::<G::Action>::cutoff(&e, depth, ply, alpha, beta) {
                    return sc;
                }
            }
        }
        if self.futile && !pv && !in_check && depth <= RFP_DEPTH && beta.abs() < MATE_BOUND {
            let e = self.static_eval(g, me);
            if e - RFP_MARGIN * depth >= beta {
                return e;
            }
        }
        // Whether the side to move stands better than on its last turn (two plies up),
        // for the adaptive reductions; unknown (true) where either was in check.
        let mut improving = true;
        if self.lmr_adaptive {
            let here = (!in_check).then(|| self.static_eval(g, me));
            self.statics[ply] = here;
            if let (Some(now), Some(Some(before))) =
                (here, ply.checked_sub(2).map(|p| self.statics[p]))
            {
                improving = now > before;
            }
        }
        let null_margin = if self.nulls
            && !pv
            && !was_null
            && !in_check
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && Self::has_pieces(g)
        {
            Some(self.static_eval(g, me) - beta).filter(|m| *m >= 0)
        } else {
            None
        };
        if let Some(margin) = null_margin.filter(|_| g.apply_null()) {
            let r = if self.null_adaptive {
                3 + depth / 3 + (margin / 200).min(3)
            } else {
                2 + depth / 6
            };
            let v = self.search_node(g, depth - 1 - r, ply + 1, beta - 1, beta, me, true);
            g.undo_null();
            if self.stopped {
                return 0;
            }
            if v >= beta {
                return if v >= MATE_BOUND { beta } else { v };
            }
        }
        if self.iir && tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }
        self.order_with(g, me, ply, tt_move);
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        let mut quiets = std::mem::take(&mut self.quiets[ply]);
        quiets.clear();
        let mut best = -INF;
        let mut best_move = None;
        // Futility and late-move pruning apply to late moves of this node (see the
        // module comment): `futile_node` when its static score is far below alpha.
        let shallow = !pv && !in_check && depth <= 3 && alpha.abs() < MATE_BOUND;
        let futile_node = shallow
            && self.futile
            && self.static_eval(g, me) + FUTILITY_MARGIN[depth.clamp(0, 3) as usize] <= alpha;
        let mut late_searched = 0;
        for i in 0..moves.len() {
            pick(&mut moves, i);
            let (a, score) = moves[i];
            let quiet = score < KILLER_BASE;
            g.apply(a);
            if quiet && shallow && best_move.is_some() && best > -MATE_BOUND {
                let beyond = self.late_pruning && late_searched >= LMP_COUNT[depth as usize];
                if (futile_node || beyond) && !Self::in_check(g) {
                    g.undo();
                    continue;
                }
            }
            if quiet {
                late_searched += 1;
            }
            let v = if i == 0 || !self.config.pvs {
                self.search_node(g, depth - 1, ply + 1, alpha, beta, me, false)
            } else {
                let mut r = 0;
                if self.config.lmr
                    && quiet
                    && depth >= 3
                    && i >= 3
                    && !in_check
                    && !Self::in_check(g)
                {
                    r = lmr_reduction(depth, i).min(depth - 2);
                    if pv {
                        r = (r - 1).max(0);
                    }
                    if self.lmr_adaptive {
                        if !pv && !improving {
                            r += 1;
                        }
                        // A quiet move's ordering score is its history (killers are
                        // not reduced; losing captures score below every history).
                        if is_quiet(score) {
                            r -= score.signum();
                        }
                        r = r.clamp(0, depth - 2);
                    }
                }
                let mut v =
                    self.search_node(g, depth - 1 - r, ply + 1, alpha, alpha + 1, me, false);
                if r > 0 && v > alpha && !self.stopped {
                    v = self.search_node(g, depth - 1, ply + 1, alpha, alpha + 1, me, false);
                }
                if v > alpha && v < beta && pv && !self.stopped {
                    v = self.search_node(g, depth - 1, ply + 1, alpha, beta, me, false);
                }
                v
            };
            g.undo();
            if self.stopped {
                self.bufs[ply] = moves;
                self.quiets[ply] = quiets;
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
                if is_quiet(score) {
                    self.reward_quiet(g, a, ply, depth, &quiets);
                }
                break;
            }
            if is_quiet(score) {
                quiets.push(a);
            }
        }
        self.bufs[ply] = moves;
        self.quiets[ply] = quiets;
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
        self.tt.store(key, depth, best, bound, best_move, ply);
        best
    }

    /// Captures only, from the point of view of `me` to move (stand pat allowed); in
    /// check every evasion is searched and there is no standing pat.
    fn quiesce(&mut self, g: &mut G, ply: usize, mut alpha: i32, beta: i32, me: Seat) -> i32 {
        if ply >= MAX_PLY {
            return self.static_eval(g, me);
        }
        let evading = self.checks && ply < self.ext_limit && Self::in_check(g);
        let stand = if evading {
            -INF
        } else {
            self.static_eval(g, me)
        };
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        // Out of check only captures are searched: the game lists them where it can
        // (orthodox chess), else they are picked out of every legal action below.
        if evading || !g.legal_captures(me, &mut self.scratch) {
            g.legal_actions(me, &mut self.scratch);
        }
        let mut caps = std::mem::take(&mut self.bufs[ply]);
        caps.clear();
        for i in 0..self.scratch.len() {
            let a = self.scratch[i];
            match capture_score(g, a) {
                Some(_)
                    if !evading && self.exchanges && self.hopeless_capture(g, a, stand, alpha) => {}
                Some(s) => caps.push((a, s)),
                None if evading => caps.push((a, -1)),
                None => {}
            }
        }
        caps.sort_unstable_by_key(|c| std::cmp::Reverse(c.1));
        let mut best = stand;
        for &(a, _) in &caps {
            if !self.spend_node() {
                break;
            }
            g.apply(a);
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
        if best == -INF {
            // In check with no move searched (the game ended otherwise): the static score.
            return self.static_eval(g, me);
        }
        best
    }
}

impl<G: Game> AlphaBeta<G> {
    /// Whether capture `a` loses material by static exchange (false where this search
    /// does not use SEE or the game names no orthodox move).
    pub(super) fn losing_capture(&self, g: &mut G, a: G::Action) -> bool {
        if !self.exchanges {
            return false;
        }
        let Some(m) = action_move(g, a) else {
            return false;
        };
        g.board().is_some_and(|b| loses_material(b, m))
    }

    /// A capture the quiescence search skips: it loses material by static exchange, or
    /// (not promoting) even its whole victim leaves the score [`DELTA`] short of alpha.
    fn hopeless_capture(&self, g: &mut G, a: G::Action, stand: i32, alpha: i32) -> bool {
        let Some(m) = action_move(g, a) else {
            return false;
        };
        let Some(b) = g.board() else {
            return false;
        };
        if m.promotion().is_none() {
            let victim = b.captured_piece(m).map_or(0, |p| role_value(p.role));
            if stand + victim + DELTA <= alpha {
                return true;
            }
        }
        loses_material(b, m)
    }
}

/// Plies a late quiet move is reduced by: grows with the depth left and the move's
/// place in the order (about log(depth) * log(index) / 2).
#[inline]
fn lmr_reduction(depth: i32, index: usize) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.0) as u8;
            }
        }
        t
    });
    t[(depth as usize).min(63)][index.min(63)].max(1) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::variants::chess::{Chess, ChessParams};

    #[test]
    fn a_dropped_searcher_leaves_its_tables_to_the_next() {
        let cfg = AlphaBetaConfig {
            depth: 2,
            ..Default::default()
        };
        let mut first = AlphaBeta::<Chess>::new(cfg.clone());
        first.search(&Chess::new(&ChessParams::default()));
        let (slots, evals) = (
            first.tt.slots_ptr(),
            first.evals.as_ref().unwrap().slots_ptr(),
        );
        drop(first);
        let next = AlphaBeta::<Chess>::new(cfg);
        assert_eq!(next.tt.slots_ptr(), slots);
        assert_eq!(next.evals.as_ref().unwrap().slots_ptr(), evals);
    }
}

//! Monte Carlo tree search: UCT (Kocsis and Szepesvári 2006) over every node kind of the
//! game API, and the agents built on it.
//!
//! - Seat nodes: UCB1 on the acting seat's own mean return (n seats, each maximising
//!   its own return), one node expanded per iteration.
//! - Chance nodes: an outcome sampled by its probability.
//! - Simultaneous nodes: decoupled selection, one bandit per acting seat, either
//!   decoupled UCT (`duct`) or regret matching (`rm`) with importance-sampled regrets
//!   and exploration γ (Lanctot, Lisý and Winands 2013); the mean strategy is the final
//!   policy there.
//! - Playouts: uniform or capture-preferring (`rollout=random|heavy`), optionally cut
//!   after `cutoff` plies and scored by the evaluation squashed into (-1, 1).
//!
//! Agents: `mcts`, `cheat` (the same UCT reading the true state, the upper reference for
//! hidden-information agents) and `smmcts`, which on a hidden-information game searches
//! worlds drawn from the seat's information ([`sm_pimc_decide`], routed by
//! `crate::fallback::smmcts`; in tournaments as on the board). Seeded agents (`seed=`)
//! key each decision's stream by `information_key(seat)`, never the full state (`cheat`
//! excepted). On a hidden-information game the registry's
//! `mcts` plays single-observer ISMCTS (`crate::fallback::mcts` owns that choice), so
//! this module never depends on `ismcts`: ISMCTS builds on UCT, not the reverse.

use crate::baseline::random_action;
use crate::common::{break_tie, sample_chance, AgentRng, Budget, Playout, Rollout, Shares};
use crate::eval::Evaluator;
use crate::fallback::Route;
use crate::settings::{self, Kind, Setting, Settings};
use crate::spec::{AgentError, Spec};
use crate::Agent;
use engine::game::{Game, Returns, Seat, Turn, MAX_SEATS};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_pcg::Pcg64;
use std::time::Instant;

const NONE: u32 = u32::MAX;

/// Selection at simultaneous nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimSelect {
    /// Decoupled UCT: each seat runs UCB1 on its own actions' mean returns.
    Duct,
    /// Regret matching with exploration γ; regrets from importance-sampled returns.
    Rm,
}

/// Settings of one UCT search.
#[derive(Clone, Debug)]
pub struct MctsConfig {
    pub budget: Budget,
    /// UCB1 exploration constant (returns are in [-1, 1]).
    pub c: f64,
    pub rollout: Rollout,
    /// Plies of playout before the evaluation takes over (`None`: play to the end).
    pub cutoff: Option<u32>,
    pub sim_select: SimSelect,
    /// Exploration of regret matching.
    pub gamma: f64,
    /// Scores cut-off playouts.
    pub eval: Evaluator,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::iterations(1000),
            c: 1.4,
            rollout: Rollout::Random,
            cutoff: None,
            sim_select: SimSelect::Duct,
            gamma: 0.1,
            eval: Evaluator::default(),
        }
    }
}

/// One seat's bandit at a simultaneous node.
#[derive(Clone, Debug)]
struct SeatBandit<A> {
    seat: Seat,
    actions: Vec<A>,
    visits: Vec<f64>,
    sum: Vec<f64>,
    regret: Vec<f64>,
    /// Sum of the strategies played (regret matching) or visit counts (DUCT).
    strategy_sum: Vec<f64>,
    /// The strategy used at the last selection (for the regret update).
    current: Vec<f64>,
}

#[derive(Clone, Debug)]
struct Node<A> {
    turn: Turn,
    visits: f64,
    sum: Returns,
    /// Seat nodes: legal actions (shuffled); chance nodes: outcomes.
    actions: Vec<A>,
    probs: Vec<f64>,
    /// Seat nodes: children of the first `children.len()` actions; chance nodes: one
    /// slot per outcome (`NONE` until reached).
    children: Vec<u32>,
    /// Simultaneous nodes: one bandit per acting seat, and children by joint index.
    bandits: Vec<SeatBandit<A>>,
    joint_children: Vec<(u64, u32)>,
}

/// A UCT search tree (kept between iterations of one decision).
pub struct Uct<G: Game> {
    pub config: MctsConfig,
    nodes: Vec<Node<G::Action>>,
    playout: Playout<G>,
    scratch: Vec<G::Action>,
    chance: Vec<(G::Action, f64)>,
    /// Iterations run by the last search.
    pub iterations: u64,
}

impl<G: Game> Uct<G> {
    pub fn new(config: MctsConfig) -> Self {
        Uct {
            config,
            nodes: Vec::new(),
            playout: Playout::default(),
            scratch: Vec::new(),
            chance: Vec::new(),
            iterations: 0,
        }
    }

    fn make_node(&mut self, g: &G, rng: &mut Pcg64) -> u32 {
        let turn = g.turn();
        let mut node = Node {
            turn,
            visits: 0.0,
            sum: [0.0; MAX_SEATS],
            actions: Vec::new(),
            probs: Vec::new(),
            children: Vec::new(),
            bandits: Vec::new(),
            joint_children: Vec::new(),
        };
        match turn {
            Turn::Seat(s) => {
                g.legal_actions(s, &mut node.actions);
                node.actions.shuffle(rng);
            }
            Turn::Chance => {
                g.chance_outcomes(&mut self.chance);
                node.actions = self.chance.iter().map(|c| c.0).collect();
                node.probs = self.chance.iter().map(|c| c.1).collect();
                node.children = vec![NONE; node.actions.len()];
            }
            Turn::Simultaneous => {
                for s in g.simultaneous_seats() {
                    g.legal_actions(s, &mut self.scratch);
                    let k = self.scratch.len();
                    node.bandits.push(SeatBandit {
                        seat: s,
                        actions: self.scratch.clone(),
                        visits: vec![0.0; k],
                        sum: vec![0.0; k],
                        regret: vec![0.0; k],
                        strategy_sum: vec![0.0; k],
                        current: vec![1.0 / k as f64; k],
                    });
                }
            }
            Turn::Terminal => {}
        }
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// Runs the search from `root` within the budget.
    pub fn search(&mut self, root: &G, rng: &mut Pcg64) {
        // The clock starts before the root's actions are listed: they count too.
        let start = Instant::now();
        self.playout.deadline = self.config.budget.time.map(|t| start + t);
        self.nodes.clear();
        let mut g = root.clone();
        self.make_node(&g, rng);
        let mut path: Vec<u32> = Vec::with_capacity(64);
        // Per simultaneous node on the path: the chosen index of each seat.
        let mut picks: Vec<usize> = Vec::with_capacity(16);
        let mut joint: Vec<G::Action> = Vec::with_capacity(MAX_SEATS);
        let mut iters = 0u64;
        while !self
            .config
            .budget
            .done(iters, self.nodes.len() as u64, start)
        {
            iters += 1;
            path.clear();
            picks.clear();
            let mut node = 0u32;
            let mut applied = 0usize;
            let returns = loop {
                path.push(node);
                let n = node as usize;
                match self.nodes[n].turn {
                    Turn::Terminal => break g.returns(),
                    Turn::Seat(s) => {
                        let nd = &self.nodes[n];
                        if nd.children.len() < nd.actions.len() {
                            let a = nd.actions[nd.children.len()];
                            g.apply(a);
                            applied += 1;
                            let child = self.make_node(&g, rng);
                            self.nodes[n].children.push(child);
                            path.push(child);
                            break self.playout_from(&mut g, rng);
                        }
                        let child = self.select_uct(n, s);
                        let a = self.nodes[n].actions[child.1];
                        g.apply(a);
                        applied += 1;
                        node = child.0;
                    }
                    Turn::Chance => {
                        let nd = &self.nodes[n];
                        let i = sample_probs(&nd.probs, rng);
                        let a = nd.actions[i];
                        g.apply(a);
                        applied += 1;
                        if self.nodes[n].children[i] == NONE {
                            let child = self.make_node(&g, rng);
                            self.nodes[n].children[i] = child;
                            path.push(child);
                            break self.playout_from(&mut g, rng);
                        }
                        node = self.nodes[n].children[i];
                    }
                    Turn::Simultaneous => {
                        joint.clear();
                        let mut code = 0u64;
                        let nb = self.nodes[n].bandits.len();
                        for b in 0..nb {
                            let i = self.select_sim(n, b, rng);
                            picks.push(i);
                            let bd = &self.nodes[n].bandits[b];
                            code = code * bd.actions.len() as u64 + i as u64;
                            joint.push(bd.actions[i]);
                        }
                        g.apply_joint(&joint);
                        applied += 1;
                        let found = self.nodes[n]
                            .joint_children
                            .iter()
                            .find(|c| c.0 == code)
                            .map(|c| c.1);
                        match found {
                            Some(c) => node = c,
                            None => {
                                let child = self.make_node(&g, rng);
                                self.nodes[n].joint_children.push((code, child));
                                path.push(child);
                                break self.playout_from(&mut g, rng);
                            }
                        }
                    }
                }
            };
            for _ in 0..applied {
                g.undo();
            }
            self.backpropagate(&path, &picks, &returns);
        }
        self.iterations = iters;
        crate::common::count(iters, self.nodes.len() as u64);
    }

    fn playout_from(&mut self, g: &mut G, rng: &mut Pcg64) -> Returns {
        let (policy, cutoff) = (self.config.rollout, self.config.cutoff);
        self.playout.run(g, policy, cutoff, &self.config.eval, rng)
    }

    /// UCB1 over the expanded children of seat node `n`: (child, action index).
    fn select_uct(&self, n: usize, seat: Seat) -> (u32, usize) {
        let nd = &self.nodes[n];
        let log_n = nd.visits.max(1.0).ln();
        let c = self.config.c;
        let mut best = (f64::NEG_INFINITY, 0u32, 0usize);
        for (i, &ch) in nd.children.iter().enumerate() {
            let cn = &self.nodes[ch as usize];
            let v = cn.visits.max(1e-9);
            let score = cn.sum[seat] / v + c * (log_n / v).sqrt();
            if score > best.0 {
                best = (score, ch, i);
            }
        }
        (best.1, best.2)
    }

    fn select_sim(&mut self, n: usize, b: usize, rng: &mut Pcg64) -> usize {
        let c = self.config.c;
        let gamma = self.config.gamma;
        let select = self.config.sim_select;
        let visits = self.nodes[n].visits;
        let bd = &mut self.nodes[n].bandits[b];
        let k = bd.actions.len();
        match select {
            SimSelect::Duct => {
                let log_n = visits.max(1.0).ln();
                let mut best = (f64::NEG_INFINITY, 0usize);
                for i in 0..k {
                    let score = if bd.visits[i] == 0.0 {
                        1e9 + rng.gen::<f64>()
                    } else {
                        bd.sum[i] / bd.visits[i] + c * (log_n / bd.visits[i]).sqrt()
                    };
                    if score > best.0 {
                        best = (score, i);
                    }
                }
                best.1
            }
            SimSelect::Rm => {
                let pos: f64 = bd.regret.iter().map(|r| r.max(0.0)).sum();
                for i in 0..k {
                    let sigma = if pos > 0.0 {
                        bd.regret[i].max(0.0) / pos
                    } else {
                        1.0 / k as f64
                    };
                    bd.current[i] = gamma / k as f64 + (1.0 - gamma) * sigma;
                }
                engine::random::sample_prob_index(&bd.current, rng)
            }
        }
    }

    fn backpropagate(&mut self, path: &[u32], picks: &[usize], r: &Returns) {
        let mut p = 0usize;
        let select = self.config.sim_select;
        for &node in path {
            let nd = &mut self.nodes[node as usize];
            nd.visits += 1.0;
            for (s, v) in nd.sum.iter_mut().enumerate() {
                *v += r[s];
            }
            if nd.turn == Turn::Simultaneous && p < picks.len() && !nd.bandits.is_empty() {
                for (b, bd) in nd.bandits.iter_mut().enumerate() {
                    let i = picks[p + b];
                    let u = r[bd.seat];
                    bd.visits[i] += 1.0;
                    bd.sum[i] += u;
                    match select {
                        SimSelect::Duct => bd.strategy_sum[i] += 1.0,
                        SimSelect::Rm => {
                            let est = u / bd.current[i];
                            for (j, reg) in bd.regret.iter_mut().enumerate() {
                                let x = if j == i { est } else { 0.0 };
                                *reg += x - u;
                            }
                            for (j, s) in bd.strategy_sum.iter_mut().enumerate() {
                                *s += bd.current[j];
                            }
                        }
                    }
                }
                p += nd.bandits.len();
            }
        }
    }

    /// The most visited action at a seat root.
    pub fn best_action(&self) -> Option<G::Action> {
        let root = self.nodes.first()?;
        let mut best: Option<(f64, G::Action)> = None;
        for (i, &ch) in root.children.iter().enumerate() {
            let v = self.nodes[ch as usize].visits;
            match best {
                Some((b, _)) if b >= v => {}
                _ => best = Some((v, root.actions[i])),
            }
        }
        best.map(|b| b.1)
    }

    /// Visits and mean return (for the acting seat) of each root action that was tried.
    pub fn root_stats(&self) -> Vec<(G::Action, f64, f64)> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        let seat = match root.turn {
            Turn::Seat(s) => s,
            _ => return Vec::new(),
        };
        root.children
            .iter()
            .enumerate()
            .map(|(i, &ch)| {
                let c = &self.nodes[ch as usize];
                (root.actions[i], c.visits, c.sum[seat] / c.visits.max(1.0))
            })
            .collect()
    }

    /// The mean strategy of the `b`-th acting seat at a simultaneous root.
    pub fn root_policy(&self, b: usize) -> Vec<(G::Action, f64)> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        let Some(bd) = root.bandits.get(b) else {
            return Vec::new();
        };
        let total: f64 = bd.strategy_sum.iter().sum();
        let k = bd.actions.len() as f64;
        bd.actions
            .iter()
            .zip(&bd.strategy_sum)
            .map(|(&a, &s)| (a, if total > 0.0 { s / total } else { 1.0 / k }))
            .collect()
    }

    /// Nodes in the tree.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }
}

/// Samples an index from probabilities summing to one (the engine's one rule).
#[inline]
pub fn sample_probs(probs: &[f64], rng: &mut Pcg64) -> usize {
    engine::random::sample_prob_index(probs, rng)
}

/// What an MCTS agent does with the state it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MctsKind {
    /// UCT on perfect information; SO-ISMCTS on sampled worlds otherwise.
    Plain,
    /// UCT on the true state, hidden information included.
    Cheat,
    /// Simultaneous-move MCTS (UCT at sequential nodes).
    Sm,
}

/// The `mcts`, `cheat` and `smmcts` agents.
pub struct MctsAgent {
    kind: MctsKind,
    config: MctsConfig,
    rng: AgentRng,
    spec: String,
    /// Iterations and nodes of the last decision.
    stats: crate::SearchStats,
}

/// UCT's schema with `iters` defaulting to `default_iters` when no limit is given.
pub fn uct_schema(default_iters: &'static str) -> Vec<Setting> {
    let mut v = settings::join(&[settings::BUDGET, settings::UCT, settings::SEED]);
    v[0].default = default_iters;
    v.extend(settings::eval_settings());
    v
}

/// Settings of `smmcts` beyond UCT's.
pub const SM_SETTINGS: &[Setting] = &[
    Setting {
        key: "select",
        kind: Kind::Choice(&["duct", "rm"]),
        default: "duct",
        tunable: true,
        help: "selection at simultaneous nodes: decoupled UCT or regret matching",
    },
    Setting {
        key: "gamma",
        kind: Kind::Real { min: 0.0, max: 1.0 },
        default: "0.1",
        tunable: true,
        help: "exploration of regret matching",
    },
];

/// The UCT settings of a spec read by a UCT schema (shared by every agent built on UCT).
pub fn uct_config(s: &Settings) -> MctsConfig {
    let cutoff = s.int("cutoff") as u32;
    MctsConfig {
        budget: Budget::from_settings(s),
        c: s.real("c"),
        rollout: Rollout::from_settings(s),
        cutoff: (cutoff > 0).then_some(cutoff),
        eval: Evaluator::new(s.eval()),
        ..MctsConfig::default()
    }
}

impl MctsAgent {
    /// The keys each kind reads.
    pub fn schema(kind: MctsKind) -> Vec<Setting> {
        let mut v = uct_schema("1000");
        if kind == MctsKind::Sm {
            v.extend_from_slice(SM_SETTINGS);
        }
        v
    }

    pub fn from_spec(spec: &Spec, kind: MctsKind) -> Result<Self, AgentError> {
        let s = Settings::read(spec, &Self::schema(kind))?;
        let mut config = uct_config(&s);
        if kind == MctsKind::Sm {
            config.sim_select = match s.choice("select") {
                "rm" => SimSelect::Rm,
                _ => SimSelect::Duct,
            };
            config.gamma = s.real("gamma");
        }
        Ok(MctsAgent {
            kind,
            config,
            rng: AgentRng::from_settings(&s),
            spec: spec.canonical(),
            stats: crate::SearchStats::default(),
        })
    }

    /// The settings, seed and spec text (the registry builds `mcts`'s ISMCTS from them).
    pub fn parts(&self) -> (MctsConfig, AgentRng, String) {
        (self.config.clone(), self.rng.clone(), self.spec.clone())
    }

    pub fn new(kind: MctsKind, config: MctsConfig) -> Self {
        MctsAgent {
            kind,
            config,
            rng: AgentRng { seed: None },
            spec: match kind {
                MctsKind::Plain => "mcts".into(),
                MctsKind::Cheat => "cheat".into(),
                MctsKind::Sm => "smmcts".into(),
            },
            stats: crate::SearchStats::default(),
        }
    }
}

/// Worlds `smmcts` draws per decision on a hidden-information game.
pub const SM_WORLDS: usize = 4;

/// `smmcts` on hidden information: the budget shared over [`SM_WORLDS`] worlds
/// ([`Shares`]) drawn with `sample_world(seat)`, each searched by simultaneous-move UCT, the root
/// policies (or, at a seat node, the root visit shares) summed, and the action with the
/// most weight played (exact ties drawn at random, [`crate::common::break_tie`]; test
/// `rule_smmcts_breaks_ties_at_random_in_hidden_games` in agents/tests/zombie_agents.rs)
/// or, at a simultaneous node, sampled from the summed policy.
pub fn sm_pimc_decide<G: Game>(
    game: &G,
    seat: Seat,
    config: &MctsConfig,
    rng: &mut Pcg64,
) -> G::Action {
    let shares = Shares::new(config.budget, SM_WORLDS, Instant::now());
    let mut legal = Vec::new();
    game.legal_actions(seat, &mut legal);
    let mut weight = vec![0.0; legal.len()];
    for i in 0..shares.worlds() {
        let Some(budget) = shares.share(i) else {
            break;
        };
        let sampled = Instant::now();
        let world = game.sample_world(seat, rng);
        let per = MctsConfig {
            budget: budget.since(sampled),
            ..config.clone()
        };
        let mut uct = Uct::<G>::new(per);
        uct.search(&world, rng);
        let shares: Vec<(G::Action, f64)> = match world.turn() {
            Turn::Simultaneous => world
                .simultaneous_seats()
                .iter()
                .position(|&s| s == seat)
                .map(|b| uct.root_policy(b))
                .unwrap_or_default(),
            _ => uct
                .root_stats()
                .into_iter()
                .map(|(a, v, _)| (a, v))
                .collect(),
        };
        for (a, w) in shares {
            if let Some(i) = legal.iter().position(|&l| l == a) {
                weight[i] += w;
            }
        }
    }
    if legal.is_empty() || weight.iter().all(|&w| w <= 0.0) {
        return random_action(game, seat, rng);
    }
    if game.turn() == Turn::Simultaneous {
        let total: f64 = weight.iter().sum();
        let pairs: Vec<(G::Action, f64)> = legal
            .iter()
            .zip(&weight)
            .map(|(&a, &w)| (a, w / total))
            .collect();
        return pairs[sample_chance(&pairs, rng)].0;
    }
    // Exact ties in summed visit shares are drawn at random, as in `pimc` and `ismcts`:
    // the first in generation order is not the same choice for both colours.
    let top = weight.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<G::Action> = legal
        .iter()
        .zip(&weight)
        .filter(|&(_, &w)| w == top)
        .map(|(&a, _)| a)
        .collect();
    break_tie(&tied, !game.is_perfect_information(), rng)
        .unwrap_or_else(|| random_action(game, seat, rng))
}

/// One decision by UCT from `game` for `seat` (shared with agents that degrade to it).
pub fn uct_decide<G: Game>(
    game: &G,
    seat: Seat,
    config: &MctsConfig,
    rng: &mut Pcg64,
) -> G::Action {
    let mut uct = Uct::<G>::new(config.clone());
    uct.search(game, rng);
    match game.turn() {
        Turn::Seat(_) => uct
            .best_action()
            .unwrap_or_else(|| random_action(game, seat, rng)),
        Turn::Simultaneous => {
            let b = game
                .simultaneous_seats()
                .iter()
                .position(|&s| s == seat)
                .expect("seat does not act here");
            let policy = uct.root_policy(b);
            let pairs: Vec<(G::Action, f64)> = policy;
            let i = sample_chance(&pairs, rng);
            pairs[i].0
        }
        _ => random_action(game, seat, rng),
    }
}

impl<G: Game> Agent<G> for MctsAgent {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        crate::common::take_counts();
        let budget = self.config.budget;
        let a =
            crate::common::within_budget(&budget, Instant::now(), || self.decide(game, seat, rng));
        self.stats = crate::common::take_counts();
        a
    }

    fn search_stats(&self) -> Option<crate::SearchStats> {
        Some(self.stats)
    }
}

impl MctsAgent {
    fn decide<G: Game>(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        let started = Instant::now();
        if self.kind == MctsKind::Cheat {
            let mut rng = self.rng.for_decision(game.state_key(), rng);
            return uct_decide(game, seat, &self.config, &mut rng);
        }
        // Seeded by what the seat knows, so a decision never depends on the hidden part.
        let mut rng = self.rng.for_decision(game.information_key(seat), rng);
        match crate::fallback::smmcts(game) {
            // The registry's `mcts` runs ISMCTS on hidden information
            // (`crate::fallback::mcts`); built directly, this agent still never reads the
            // hidden state.
            Route::Pimc if self.kind == MctsKind::Plain => {
                let world = game.sample_world(seat, &mut rng);
                // The world's sampling comes out of the decision's time.
                let config = MctsConfig {
                    budget: self.config.budget.since(started),
                    ..self.config.clone()
                };
                uct_decide(&world, seat, &config, &mut rng)
            }
            Route::Pimc => sm_pimc_decide(game, seat, &self.config, &mut rng),
            _ => uct_decide(game, seat, &self.config, &mut rng),
        }
    }
}

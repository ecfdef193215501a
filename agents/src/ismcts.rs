//! Information Set MCTS (Cowling, Powley and Whitehouse 2012), and determinized
//! search with voting (PIMC, [`pimc_decide`]; the `pimc` agent is `crate::pimc`) as the
//! foil that suffers strategy fusion.
//!
//! Every iteration draws a world with `sample_world(seat)` and descends one tree using
//! only actions legal in that world; a child's UCB uses its *availability* count (how
//! often it was legal when its parent was visited) instead of the parent's visits.
//!
//! - `mode=so` (single observer): one tree over action sequences; the actions of other
//!   seats and chance outcomes are edges like the observer's own.
//! - `mode=mo` (multiple observer): one tree per seat. The seat to act selects in its
//!   own tree; every other seat's tree follows the move as that seat observes it (the
//!   child is keyed by the seat's information key after the move), so moves a seat cannot
//!   tell apart share one node of its tree.
//!
//! Defaults (issue 36): the `ismcts` agent plays heavy (capture-preferring) playouts cut
//! off after 16 plies and scored by the evaluation (`rollout=heavy,cutoff=16`), since
//! it is the agent for hidden-information games and a random playout to the end of a
//! chess-like game says little; until then it played random playouts to the end
//! (`rollout=random,cutoff=0`, which a spec can still name). Committed runs replay
//! unchanged (`chesslab verify` replays recorded actions, not agents); rerunning a
//! committed command whose spec relied on the old defaults needs them named, or the
//! commit its `run.json` records. The registry's `mcts` on a hidden game (ISMCTS with
//! `mcts`'s keys) keeps UCT's defaults: its spec means one thing on every game.
//! Test: `ismcts_defaults_are_heavy_playouts_with_a_cutoff`.
//!
//! The final move is the most visited root edge (exact ties at random:
//! [`crate::common::break_tie`]). Degrade rules: on a perfect-information
//! game this is plain UCT (`mcts`); at a simultaneous node the iteration stops and plays
//! out; a simultaneous root is searched by UCT on one sampled world.

use crate::baseline::random_action;
use crate::common::{break_tie, sample_chance, AgentRng, Playout, Shares};
use crate::mcts::{uct_config, uct_decide, uct_schema, MctsConfig, Uct};
use crate::settings::{Kind, Setting, Settings};
use crate::spec::{AgentError, Spec};
use crate::Agent;
use engine::game::{Game, Returns, Seat, Turn};
use rand::Rng;
use rand_pcg::Pcg64;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::time::Instant;

/// Single- or multiple-observer ISMCTS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsMode {
    So,
    Mo,
}

#[derive(Clone, Debug)]
struct Edge<A> {
    action: A,
    /// Information key of the tree's owner after the move (MO trees, other movers).
    key: u64,
    child: u32,
    visits: f64,
    sum: f64,
    avail: f64,
}

#[derive(Clone, Debug)]
struct IsNode<A> {
    edges: Vec<Edge<A>>,
}

impl<A> IsNode<A> {
    fn empty() -> Self {
        IsNode { edges: Vec::new() }
    }
}

/// An ISMCTS search.
pub struct IsMcts<G: Game> {
    pub mode: IsMode,
    pub config: MctsConfig,
    /// One tree (SO) or one per seat (MO).
    trees: Vec<Vec<IsNode<G::Action>>>,
    playout: Playout<G>,
    legal: Vec<G::Action>,
    chance: Vec<(G::Action, f64)>,
    /// Scratch for `choose`: whether each legal action has an edge, whether each edge
    /// is legal in the world.
    has_edge: Vec<bool>,
    edge_legal: Vec<bool>,
    /// Scratch for `choose`: the legal actions by hash.
    index: ActionIndex,
    observer: Seat,
    /// Iterations run by the last search.
    pub iterations: u64,
}

/// No slot / no further equal action.
const NONE: u32 = u32::MAX;

/// The multiply-rotate hash of rustc's `FxHasher` (a few cycles for an action's few
/// words; std's SipHash would cost more than the scan it replaces on small lists).
#[derive(Default)]
struct FxHasher(u64);

const FX_K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(FX_K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.add(x as u64);
    }
    #[inline]
    fn write_u16(&mut self, x: u16) {
        self.add(x as u64);
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.add(x as u64);
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Positions of a list of actions by hash: open addressing with linear probing over
/// at least twice as many slots as actions; equal actions after the first are chained
/// through `next_equal` from the first.
#[derive(Default)]
struct ActionIndex {
    slots: Vec<u32>,
    next_equal: Vec<u32>,
    shift: u32,
}

impl ActionIndex {
    #[inline]
    fn slot<A: Hash>(&self, a: &A) -> usize {
        let mut h = FxHasher::default();
        a.hash(&mut h);
        // The multiply leaves the mixed bits at the top.
        (h.finish() >> self.shift) as usize
    }

    fn build<A: Hash + Eq>(&mut self, list: &[A]) {
        let bits = (2 * list.len()).max(8).next_power_of_two().trailing_zeros();
        self.shift = 64 - bits;
        self.slots.clear();
        self.slots.resize(1 << bits, NONE);
        self.next_equal.clear();
        self.next_equal.resize(list.len(), NONE);
        let mask = (1usize << bits) - 1;
        for (i, a) in list.iter().enumerate() {
            let mut s = self.slot(a);
            loop {
                let v = self.slots[s];
                if v == NONE {
                    self.slots[s] = i as u32;
                    break;
                }
                if list[v as usize] == *a {
                    self.next_equal[i] = self.next_equal[v as usize];
                    self.next_equal[v as usize] = i as u32;
                    break;
                }
                s = (s + 1) & mask;
            }
        }
    }

    /// The first position of `a` in the list the index was built from, or `NONE`.
    #[inline]
    fn find<A: Hash + Eq>(&self, list: &[A], a: &A) -> u32 {
        let mask = self.slots.len() - 1;
        let mut s = self.slot(a);
        loop {
            let v = self.slots[s];
            if v == NONE || list[v as usize] == *a {
                return v;
            }
            s = (s + 1) & mask;
        }
    }
}

/// One step on the path: (tree, node, edge, seat whose return the edge scores).
type Step = (usize, u32, usize, Option<Seat>);

impl<G: Game> IsMcts<G> {
    pub fn new(mode: IsMode, config: MctsConfig) -> Self {
        IsMcts {
            mode,
            config,
            trees: Vec::new(),
            playout: Playout::default(),
            legal: Vec::new(),
            chance: Vec::new(),
            has_edge: Vec::new(),
            edge_legal: Vec::new(),
            index: ActionIndex::default(),
            observer: 0,
            iterations: 0,
        }
    }

    /// Chooses an action for `seat` at `game` (the true state is only used to draw
    /// worlds through `sample_world(seat)`).
    pub fn decide(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        if game.is_perfect_information() {
            return uct_decide(game, seat, &self.config, rng);
        }
        if game.turn() != Turn::Seat(seat) {
            let world = game.sample_world(seat, rng);
            return uct_decide(&world, seat, &self.config, rng);
        }
        self.search(game, seat, rng);
        let stats = self.root_stats();
        let most = stats.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<G::Action> = stats.iter().filter(|s| s.1 == most).map(|s| s.0).collect();
        break_tie(&tied, true, rng).unwrap_or_else(|| random_action(game, seat, rng))
    }

    /// Runs the iterations from the information set of `seat` at `game`.
    pub fn search(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) {
        self.observer = seat;
        let n_trees = match self.mode {
            IsMode::So => 1,
            IsMode::Mo => game.num_seats(),
        };
        self.trees = vec![vec![IsNode::empty()]; n_trees];
        let start = Instant::now();
        self.playout.deadline = self.config.budget.time.map(|t| start + t);
        let mut path: Vec<Step> = Vec::with_capacity(128);
        let mut cur: Vec<u32> = vec![0; n_trees];
        let mut iters = 0u64;
        while !self.config.budget.done(iters, self.size() as u64, start) {
            iters += 1;
            let mut w = game.sample_world(seat, rng);
            path.clear();
            cur.iter_mut().for_each(|c| *c = 0);
            let r = match self.mode {
                IsMode::So => self.iterate_so(&mut w, &mut path, rng),
                IsMode::Mo => self.iterate_mo(&mut w, &mut path, &mut cur, rng),
            };
            for &(t, node, e, mover) in &path {
                let edge = &mut self.trees[t][node as usize].edges[e];
                edge.visits += 1.0;
                if let Some(p) = mover {
                    edge.sum += r[p];
                }
            }
        }
        self.iterations = iters;
        crate::common::count(iters, self.size() as u64);
    }

    fn size(&self) -> usize {
        self.trees.iter().map(Vec::len).sum()
    }

    fn new_node(&mut self, t: usize) -> u32 {
        self.trees[t].push(IsNode::empty());
        (self.trees[t].len() - 1) as u32
    }

    /// In tree `t` at `node`, the acting seat's choice among actions legal in the world:
    /// marks availability, expands an untried action if any (returns true), else
    /// selects by UCB with availability counts. Returns (edge index, expanded).
    ///
    /// The legal actions go into a small open-addressing table (`ActionIndex`), and each
    /// edge is looked up once: linear in edges plus actions instead of their product.
    /// The flags are the same as a scan of every (edge, action) pair would set (equal
    /// legal actions, should a game list one twice, are chained and all marked), so the
    /// order of the children and the random draws are unchanged.
    fn choose(&mut self, t: usize, node: u32, rng: &mut Pcg64) -> (usize, bool) {
        let c = self.config.c;
        let nd = &mut self.trees[t][node as usize];
        let legal = &self.legal;
        let has_edge = &mut self.has_edge;
        let edge_legal = &mut self.edge_legal;
        has_edge.clear();
        has_edge.resize(legal.len(), false);
        edge_legal.clear();
        edge_legal.resize(nd.edges.len(), false);
        if !nd.edges.is_empty() {
            self.index.build(legal);
            for (j, e) in nd.edges.iter_mut().enumerate() {
                let mut i = self.index.find(legal, &e.action);
                if i != NONE {
                    edge_legal[j] = true;
                    e.avail += 1.0;
                    while i != NONE {
                        has_edge[i as usize] = true;
                        i = self.index.next_equal[i as usize];
                    }
                }
            }
        }
        let untried = has_edge.iter().filter(|&&h| !h).count();
        if untried > 0 {
            // A uniformly random untried action.
            let k = rng.gen_range(0..untried);
            let i = (0..legal.len())
                .filter(|&i| !has_edge[i])
                .nth(k)
                .expect("untried action");
            let a = legal[i];
            let child = self.new_node(t);
            let nd = &mut self.trees[t][node as usize];
            nd.edges.push(Edge {
                action: a,
                key: 0,
                child,
                visits: 0.0,
                sum: 0.0,
                avail: 1.0,
            });
            return (nd.edges.len() - 1, true);
        }
        let mut best = (f64::NEG_INFINITY, 0usize);
        for (i, e) in nd.edges.iter().enumerate() {
            if !edge_legal[i] {
                continue;
            }
            let v = e.visits.max(1e-9);
            let score = e.sum / v + c * (e.avail.max(1.0).ln() / v).sqrt();
            if score > best.0 {
                best = (score, i);
            }
        }
        (best.1, false)
    }

    /// The edge for a chance outcome in tree `t` (created when new).
    fn chance_edge(&mut self, t: usize, node: u32, a: G::Action) -> (usize, bool) {
        if let Some(i) = self.trees[t][node as usize]
            .edges
            .iter()
            .position(|e| e.action == a)
        {
            return (i, false);
        }
        let child = self.new_node(t);
        let nd = &mut self.trees[t][node as usize];
        nd.edges.push(Edge {
            action: a,
            key: 0,
            child,
            visits: 0.0,
            sum: 0.0,
            avail: 1.0,
        });
        (nd.edges.len() - 1, true)
    }

    /// The edge keyed by an information key in tree `t` (created when new).
    fn key_edge(&mut self, t: usize, node: u32, key: u64, a: G::Action) -> (usize, bool) {
        if let Some(i) = self.trees[t][node as usize]
            .edges
            .iter()
            .position(|e| e.key == key)
        {
            return (i, false);
        }
        let child = self.new_node(t);
        let nd = &mut self.trees[t][node as usize];
        nd.edges.push(Edge {
            action: a,
            key,
            child,
            visits: 0.0,
            sum: 0.0,
            avail: 1.0,
        });
        (nd.edges.len() - 1, true)
    }

    fn playout(&mut self, w: &mut G, rng: &mut Pcg64) -> Returns {
        let (p, c) = (self.config.rollout, self.config.cutoff);
        self.playout.run(w, p, c, &self.config.eval, rng)
    }

    fn iterate_so(&mut self, w: &mut G, path: &mut Vec<Step>, rng: &mut Pcg64) -> Returns {
        let mut node = 0u32;
        loop {
            match w.turn() {
                Turn::Terminal => return w.returns(),
                Turn::Simultaneous => return self.playout(w, rng),
                Turn::Seat(p) => {
                    w.legal_actions(p, &mut self.legal);
                    let (e, expanded) = self.choose(0, node, rng);
                    let edge = &self.trees[0][node as usize].edges[e];
                    w.apply(edge.action);
                    path.push((0, node, e, Some(p)));
                    node = edge.child;
                    if expanded {
                        return self.playout(w, rng);
                    }
                }
                Turn::Chance => {
                    w.chance_outcomes(&mut self.chance);
                    let a = self.chance[sample_chance(&self.chance, rng)].0;
                    let (e, expanded) = self.chance_edge(0, node, a);
                    w.apply(a);
                    path.push((0, node, e, None));
                    node = self.trees[0][node as usize].edges[e].child;
                    if expanded {
                        return self.playout(w, rng);
                    }
                }
            }
        }
    }

    #[allow(clippy::needless_range_loop)]
    fn iterate_mo(
        &mut self,
        w: &mut G,
        path: &mut Vec<Step>,
        cur: &mut [u32],
        rng: &mut Pcg64,
    ) -> Returns {
        let n = cur.len();
        loop {
            let mut expanded = false;
            let mover = match w.turn() {
                Turn::Terminal => return w.returns(),
                Turn::Simultaneous => return self.playout(w, rng),
                Turn::Seat(p) => {
                    w.legal_actions(p, &mut self.legal);
                    let (e, x) = self.choose(p, cur[p], rng);
                    expanded |= x;
                    let a = self.trees[p][cur[p] as usize].edges[e].action;
                    path.push((p, cur[p], e, Some(p)));
                    cur[p] = self.trees[p][cur[p] as usize].edges[e].child;
                    w.apply(a);
                    Some((p, a))
                }
                Turn::Chance => {
                    w.chance_outcomes(&mut self.chance);
                    let a = self.chance[sample_chance(&self.chance, rng)].0;
                    w.apply(a);
                    Some((usize::MAX, a))
                }
            };
            let (p, a) = mover.expect("a move");
            for t in 0..n {
                if t == p {
                    continue;
                }
                let key = w.information_key(t);
                let (e, x) = self.key_edge(t, cur[t], key, a);
                expanded |= x;
                path.push((t, cur[t], e, (p != usize::MAX).then_some(p)));
                cur[t] = self.trees[t][cur[t] as usize].edges[e].child;
            }
            if expanded {
                return self.playout(w, rng);
            }
        }
    }

    /// (action, visits, mean return) of each root edge of the observer's tree.
    pub fn root_stats(&self) -> Vec<(G::Action, f64, f64)> {
        let t = match self.mode {
            IsMode::So => 0,
            IsMode::Mo => self.observer,
        };
        self.trees
            .get(t)
            .and_then(|tree| tree.first())
            .map(|root| {
                root.edges
                    .iter()
                    .map(|e| (e.action, e.visits, e.sum / e.visits.max(1.0)))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The `ismcts` agent.
pub struct IsMctsAgent {
    mode: IsMode,
    config: MctsConfig,
    rng: AgentRng,
    spec: String,
    /// Iterations and nodes of the last decision.
    stats: crate::SearchStats,
}

/// `ismcts`'s default playout length before the evaluation scores it (issue 36).
pub const CUTOFF: &str = "16";

impl IsMctsAgent {
    /// The keys `ismcts` reads: UCT's plus `mode`, with heavy playouts cut off after
    /// [`CUTOFF`] plies by default (see the module documentation).
    pub fn schema() -> Vec<Setting> {
        let mut v = uct_schema("1000");
        for s in v.iter_mut() {
            match s.key {
                "rollout" => s.default = "heavy",
                "cutoff" => s.default = CUTOFF,
                _ => {}
            }
        }
        v.push(Setting {
            key: "mode",
            kind: Kind::Choice(&["so", "mo"]),
            default: "so",
            tunable: true,
            help: "single observer (one tree) or multiple observer (one tree per seat)",
        });
        v
    }

    pub fn from_spec(spec: &Spec) -> Result<Self, AgentError> {
        let s = Settings::read(spec, &Self::schema())?;
        let mode = match s.choice("mode") {
            "mo" => IsMode::Mo,
            _ => IsMode::So,
        };
        Ok(IsMctsAgent {
            mode,
            config: uct_config(&s),
            rng: AgentRng::from_settings(&s),
            spec: spec.canonical(),
            stats: crate::SearchStats::default(),
        })
    }

    /// An ISMCTS agent from already-read parts (the registry's `mcts` on hidden
    /// information keeps its own spec text).
    pub fn from_parts(mode: IsMode, config: MctsConfig, rng: AgentRng, spec: String) -> Self {
        IsMctsAgent {
            mode,
            config,
            rng,
            spec,
            stats: crate::SearchStats::default(),
        }
    }
}

impl<G: Game> Agent<G> for IsMctsAgent {
    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        crate::common::take_counts();
        let started = Instant::now();
        let mut rng = self.rng.for_decision(game.information_key(seat), rng);
        let mut search = IsMcts::<G>::new(self.mode, self.config.clone());
        let a = crate::common::within_budget(&self.config.budget, started, || {
            search.decide(game, seat, &mut rng)
        });
        self.stats = crate::common::take_counts();
        a
    }

    fn search_stats(&self) -> Option<crate::SearchStats> {
        Some(self.stats)
    }
}

/// Perfect-information Monte Carlo: draws `worlds` worlds with `sample_world(seat)`,
/// runs UCT on each as if it were the true state (the config's budget is the whole
/// decision's, shared out by [`Shares`]) and plays the action most worlds chose
/// (ties by total visits, then [`crate::common::break_tie`]: at random in a hidden
/// -information game, the action first met otherwise). It is subject to strategy fusion:
/// in each world it assumes it will later know what it cannot.
///
/// Votes are kept in the order actions are first met, not in a hash map: a map's
/// iteration order differs from process to process, which made the tie-break (and so
/// whole games) differ between runs of the same seed (test
/// `rule_pimc_is_deterministic_for_a_seed`).
pub fn pimc_decide<G: Game>(
    game: &G,
    seat: Seat,
    worlds: usize,
    config: &MctsConfig,
    rng: &mut Pcg64,
) -> G::Action {
    if game.turn() != Turn::Seat(seat) {
        let sampled = Instant::now();
        let w = game.sample_world(seat, rng);
        let config = MctsConfig {
            budget: config.budget.since(sampled),
            ..config.clone()
        };
        return uct_decide(&w, seat, &config, rng);
    }
    // (action, worlds that chose it, total visits), in the order first met.
    let mut votes: Vec<(G::Action, u32, f64)> = Vec::new();
    let mut index: HashMap<G::Action, usize> = HashMap::new();
    let mut slot = |votes: &mut Vec<(G::Action, u32, f64)>, a: G::Action| -> usize {
        *index.entry(a).or_insert_with(|| {
            votes.push((a, 0, 0.0));
            votes.len() - 1
        })
    };
    let shares = Shares::new(config.budget, worlds, Instant::now());
    for i in 0..shares.worlds() {
        let Some(budget) = shares.share(i) else {
            break;
        };
        let sampled = Instant::now();
        let w = game.sample_world(seat, rng);
        let mut uct = Uct::<G>::new(MctsConfig {
            budget: budget.since(sampled),
            ..config.clone()
        });
        uct.search(&w, rng);
        let stats = uct.root_stats();
        if let Some(a) = uct.best_action() {
            let i = slot(&mut votes, a);
            votes[i].1 += 1;
        }
        for (a, visits, _) in stats {
            let i = slot(&mut votes, a);
            votes[i].2 += visits;
        }
    }
    let top = votes
        .iter()
        .map(|v| (v.1, v.2))
        .fold(None, |m: Option<(u32, f64)>, k| match m {
            Some(b) if b >= k => m,
            _ => Some(k),
        });
    let tied: Vec<G::Action> = votes
        .iter()
        .filter(|v| Some((v.1, v.2)) == top)
        .map(|v| v.0)
        .collect();
    break_tie(&tied, !game.is_perfect_information(), rng)
        .unwrap_or_else(|| random_action(game, seat, rng))
}

/// Worlds sampled per decision (PIMC, and the fallbacks that use it).
pub const WORLDS: Setting = Setting {
    key: "worlds",
    kind: Kind::Int {
        min: 1,
        max: 100_000,
    },
    default: "10",
    tunable: true,
    help: "worlds sampled per decision",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Budget;
    use engine::variants::masquerade::{Masquerade, MasqueradeParams};
    use rand::SeedableRng;

    #[test]
    fn action_index_finds_what_a_scan_finds() {
        // Small value ranges force repeated actions and probe collisions; every query
        // must find the first equal position, and the chain must hold exactly the
        // positions a scan finds.
        let mut rng = Pcg64::seed_from_u64(7);
        let mut index = ActionIndex::default();
        for len in [0usize, 1, 2, 5, 17, 40, 200] {
            for range in [3u16, 50, 4000] {
                let list: Vec<u16> = (0..len).map(|_| rng.gen_range(0..range)).collect();
                index.build(&list);
                for q in 0..range.min(100) {
                    let scan: Vec<u32> =
                        (0..len as u32).filter(|&i| list[i as usize] == q).collect();
                    let mut chain = Vec::new();
                    let mut i = index.find(&list, &q);
                    while i != NONE {
                        chain.push(i);
                        i = index.next_equal[i as usize];
                    }
                    assert_eq!(scan.first(), chain.first(), "len {len} range {range} q {q}");
                    chain.sort_unstable();
                    assert_eq!(scan, chain, "len {len} range {range} q {q}");
                }
            }
        }
    }

    #[test]
    fn ismcts_defaults_are_heavy_playouts_with_a_cutoff() {
        let a = IsMctsAgent::from_spec(&Spec::parse("ismcts").unwrap()).unwrap();
        assert_eq!(a.config.rollout, crate::common::Rollout::Heavy);
        assert_eq!(a.config.cutoff, Some(16));
        // The old defaults stay reachable by name.
        let old = Spec::parse("ismcts:rollout=random,cutoff=0").unwrap();
        let a = IsMctsAgent::from_spec(&old).unwrap();
        assert_eq!(a.config.rollout, crate::common::Rollout::Random);
        assert_eq!(a.config.cutoff, None);
    }

    #[test]
    fn rule_pimc_is_deterministic_for_a_seed() {
        // Few iterations per world make ties in votes and visits common: the choice
        // among them must not depend on a hash map's per-instance order.
        let g = Masquerade::new(&MasqueradeParams {
            white_assigns: Some("KQ,QN,RB,NR,BK".into()),
            black_assigns: Some("KK,QQ,RR,BB,NN".into()),
            ..Default::default()
        });
        let Turn::Seat(seat) = g.turn() else {
            panic!("a seat to move after fixed assignments");
        };
        let config = MctsConfig {
            budget: Budget::iterations(8),
            ..MctsConfig::default()
        };
        for seed in 0..24 {
            let first = pimc_decide(&g, seat, 3, &config, &mut Pcg64::seed_from_u64(seed));
            for _ in 0..3 {
                let again = pimc_decide(&g, seat, 3, &config, &mut Pcg64::seed_from_u64(seed));
                assert_eq!(first, again, "seed {seed}");
            }
        }
    }
}

//! Pieces the search agents share: budgets (`iters`, `nodes`, `time_ms`), the agent's
//! own seed, capture detection and MVV-LVA on games with an orthodox board (through
//! [`Game::action_move`], no type tests), squashing an evaluation into a return, and
//! playouts. Chance outcomes are drawn by the workspace's one rule,
//! [`engine::random::sample_index`].
//!
//! Budgets (issue 64): `iters`, `nodes` and `time_ms` are totals for the whole decision,
//! belief sampling, world set-up, move listing and quiescence included; an agent that
//! searches several worlds shares them out with [`Shares`] (iterations and nodes split
//! exactly, the first `total % worlds` worlds one more; time split evenly over what is
//! left when each world starts, so a slow sample or set-up comes out of the later
//! worlds, never on top). Decisions where the issue is silent:
//! - With fewer iterations (or nodes) than worlds, only that many worlds are searched
//!   (one iteration each): a world with no iteration votes for nothing.
//! - Once the time is up no further world is drawn (at least one always is, so an agent
//!   answers from a search, however short).
//! - The clock is read at every iteration ([`Budget::done`]): it used to be read every
//!   64, and one iteration of Clairvoyant Chess with a large balance lists thousands of
//!   actions, so 64 of them ran far past the budget. `Instant::now` costs tens of
//!   nanoseconds against microseconds per iteration.
//! - Limits from outside the agent (a server's time limit, a stop flag raised when the
//!   client leaves: [`crate::Agent::act_within`]) and the agent's own time are the
//!   decision's deadline on its thread ([`engine::deadline`]); every built-in search
//!   reads it where it reads its own budget ([`interrupted`]), and so do the variants'
//!   long loops (Clairvoyant Chess's drop search), so it stops every agent, whatever
//!   its spec says.
//!
//! Tests: agents/tests/budgets.rs (every agent on every game it plays, by time, nodes
//! and iterations) and `shares_*` below.

use crate::eval::{default_evaluator, role_value, Evaluator};
use crate::settings::Settings;
use crate::spec::{AgentError, Spec};
use engine::game::{Game, Returns, Seat, Turn, MAX_SEATS};
use engine::Move;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::time::{Duration, Instant};

/// The smallest `time_ms` (one microsecond, the budget's resolution).
pub const MIN_TIME_MS: f64 = 0.001;
/// The largest `time_ms` (about 31 years: a budget that is not meant to stop anything).
pub const MAX_TIME_MS: f64 = 1e12;

/// A `time_ms` value as a duration, to the microsecond.
pub fn time_from_ms(ms: f64) -> Duration {
    Duration::from_micros((ms.clamp(MIN_TIME_MS, MAX_TIME_MS) * 1000.0).round() as u64)
}

/// A duration as a `time_ms` value: whole milliseconds as before, else the fraction to
/// the microsecond without trailing zeros (`0.31`), so a spec survives a round trip.
pub fn ms_text(t: Duration) -> String {
    let us = t.as_micros();
    if us.is_multiple_of(1000) {
        return (us / 1000).to_string();
    }
    let frac = format!("{:03}", us % 1000);
    format!("{}.{}", us / 1000, frac.trim_end_matches('0'))
}

/// How much search an agent may spend on one decision. Any limit that is set stops the
/// search; at least one is always set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub iters: Option<u64>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

impl Budget {
    /// Reads `iters`, `nodes` and `time_ms` (each positive, by the schema); with none
    /// given, `iters` takes its schema default (an agent without one has no limit here:
    /// its depth bounds the search).
    pub fn from_settings(s: &Settings) -> Budget {
        let given = |k: &str| s.given(k).then(|| s.int(k));
        let mut b = Budget {
            iters: given("iters"),
            nodes: given("nodes"),
            time: s.given("time_ms").then(|| time_from_ms(s.real("time_ms"))),
        };
        if b.iters.is_none() && b.nodes.is_none() && b.time.is_none() {
            b.iters = s.opt_int("iters");
        }
        b
    }

    /// Reads the budget keys of a spec outside any agent's schema (for tools).
    pub fn from_spec(spec: &Spec, default_iters: Option<u64>) -> Result<Budget, AgentError> {
        let mut budget = crate::settings::BUDGET.to_vec();
        let text = default_iters.map(|n| n.to_string());
        let leaked: Option<&'static str> = text.map(|t| &*Box::leak(t.into_boxed_str()));
        if let Some(t) = leaked {
            budget[0].default = t;
        }
        Ok(Budget::from_settings(&Settings::read(spec, &budget)?))
    }

    pub fn iterations(n: u64) -> Budget {
        Budget {
            iters: Some(n),
            nodes: None,
            time: None,
        }
    }

    /// True once `iters` iterations or `nodes` nodes are spent, the time is up or the
    /// decision is [`interrupted`] from outside (the clock is read at every call: one
    /// iteration may be slow, see the module documentation).
    #[inline]
    pub fn done(&self, iters: u64, nodes: u64, start: Instant) -> bool {
        if self.iters.is_some_and(|n| iters >= n) || self.nodes.is_some_and(|n| nodes >= n) {
            return true;
        }
        if self.time.is_some_and(|t| start.elapsed() >= t) {
            return true;
        }
        interrupted()
    }

    /// This budget with its time less what has passed since `started` (the decision's
    /// start): for a search that begins after sampling or set-up.
    pub fn since(&self, started: Instant) -> Budget {
        Budget {
            time: self.time.map(|t| t.saturating_sub(started.elapsed())),
            ..*self
        }
    }

    /// Spec text of the budget keys that are set.
    pub fn spec_parts(&self, parts: &mut Vec<String>) {
        if let Some(n) = self.iters {
            parts.push(format!("iters={n}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = self.time {
            parts.push(format!("time_ms={}", ms_text(t)));
        }
    }
}

/// A decision's budget shared out over several searches (worlds) run one after another
/// (see the module documentation).
#[derive(Clone, Debug)]
pub struct Shares {
    budget: Budget,
    worlds: usize,
    started: Instant,
}

impl Shares {
    /// `budget` for the whole decision, started at `started`, over `worlds` worlds
    /// (fewer when there are fewer iterations or nodes than worlds).
    pub fn new(budget: Budget, worlds: usize, started: Instant) -> Shares {
        let mut n = worlds.max(1) as u64;
        if let Some(i) = budget.iters {
            n = n.min(i.max(1));
        }
        if let Some(i) = budget.nodes {
            n = n.min(i.max(1));
        }
        Shares {
            budget,
            worlds: n as usize,
            started,
        }
    }

    /// Worlds to search.
    pub fn worlds(&self) -> usize {
        self.worlds
    }

    /// The budget of world `i` (from 0), asked when it starts; `None` when the time is up
    /// or the decision interrupted and some world was already searched.
    pub fn share(&self, i: usize) -> Option<Budget> {
        if i >= self.worlds {
            return None;
        }
        let left = self.worlds - i;
        let part = |total: u64| {
            let n = self.worlds as u64;
            total / n + u64::from((i as u64) < total % n)
        };
        let time = match self.budget.time {
            Some(t) => {
                let rest = t.saturating_sub(self.started.elapsed());
                if i > 0 && rest.is_zero() {
                    return None;
                }
                Some(rest / left as u32)
            }
            None => None,
        };
        if i > 0 && interrupted() {
            return None;
        }
        Some(Budget {
            iters: self.budget.iters.map(part),
            nodes: self.budget.nodes.map(part),
            time,
        })
    }

    /// What is left of the decision's time (`None`: no time limit).
    pub fn time_left(&self) -> Option<Duration> {
        self.budget
            .time
            .map(|t| t.saturating_sub(self.started.elapsed()))
    }
}

/// Runs `f` (one decision) with `deadline` on this thread
/// ([`engine::deadline::within`]): every built-in search inside, and the variants'
/// long loops, read it ([`interrupted`]). Nested calls keep the earlier time and every
/// stop flag.
pub fn with_deadline<R>(deadline: engine::deadline::Deadline, f: impl FnOnce() -> R) -> R {
    engine::deadline::within(deadline, f)
}

/// [`with_deadline`] for an agent's own time budget from `started` (nothing when the
/// budget has no time).
pub fn within_budget<R>(budget: &Budget, started: Instant, f: impl FnOnce() -> R) -> R {
    match budget.time {
        Some(t) => with_deadline(
            engine::deadline::Deadline {
                at: Some(started + t),
                stop: None,
            },
            f,
        ),
        None => f(),
    }
}

/// Whether the decision running on this thread must stop now: its deadline has passed
/// or a stop flag is raised ([`with_deadline`]). False outside any.
#[inline]
pub fn interrupted() -> bool {
    engine::deadline::passed()
}

thread_local! {
    static COUNTS: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// Adds one search's iterations and nodes to this thread's count of the running
/// decision (every built-in search calls it when it ends; [`take_counts`]).
pub fn count(iters: u64, nodes: u64) {
    COUNTS.with(|c| {
        let (i, n) = c.get();
        c.set((i + iters, n + nodes));
    });
}

/// The iterations and nodes counted on this thread since the last call, as
/// [`crate::SearchStats`] (depth 0), and the count reset: an agent calls it before and
/// after a decision.
pub fn take_counts() -> crate::SearchStats {
    let (iters, nodes) = COUNTS.with(|c| c.replace((0, 0)));
    crate::SearchStats {
        depth: 0,
        nodes,
        iters,
    }
}

/// The agent's own random stream when the spec sets `seed` (reseeded at each decision,
/// so a decision depends only on the position), else the caller's.
#[derive(Clone, Debug)]
pub struct AgentRng {
    pub seed: Option<u64>,
}

impl AgentRng {
    pub fn from_settings(s: &Settings) -> AgentRng {
        AgentRng {
            seed: s.opt_int("seed"),
        }
    }

    /// The generator to use for one decision.
    pub fn for_decision(&self, game_key: u64, caller: &mut Pcg64) -> Pcg64 {
        match self.seed {
            Some(s) => Pcg64::seed_from_u64(s ^ game_key.rotate_left(17)),
            None => Pcg64::seed_from_u64(caller.gen()),
        }
    }
}

/// The orthodox move behind an action, when the game has a board: the game's
/// [`Game::action_move`] when it names the move, else by playing the action and reading
/// the board's last move, `None` unless the action made exactly one board move (a
/// prophecy, a burial or a pass leaves the previous move last, which is not theirs).
#[inline]
pub fn action_move<G: Game>(game: &mut G, action: G::Action) -> Option<Move> {
    if let Some(m) = game.action_move(action) {
        return Some(m);
    }
    let before = game.board()?.ply();
    game.apply(action);
    let m = game
        .board()
        .filter(|b| b.ply() == before + 1)
        .and_then(|b| b.last_move());
    game.undo();
    m
}

/// MVV-LVA score of a capture (victim value * 16 - attacker value / 100), `None` for a
/// quiet move or on games without a board.
#[inline]
pub fn capture_score<G: Game>(game: &mut G, action: G::Action) -> Option<i32> {
    let m = action_move(game, action)?;
    let b = game.board()?;
    let victim = b.victim(m)?;
    let attacker = b.piece_at(m.from()).map_or(0, |p| role_value(p.role));
    Some(role_value(victim.role) * 16 - attacker / 100)
}

/// `x` squashed into (-1, 1): `tanh(x / scale)`.
#[inline]
pub fn squash(x: f64, scale: f64) -> f64 {
    (x / scale).tanh()
}

/// Evaluation at a cut-off playout, as per-seat returns in (-1, 1) (pawns / 4 squashed),
/// with the default weights.
pub fn eval_returns<G: Game>(game: &G) -> Returns {
    eval_returns_with(default_evaluator(), game)
}

/// [`eval_returns`] with the given evaluator.
pub fn eval_returns_with<G: Game>(eval: &Evaluator, game: &G) -> Returns {
    let mut r = [0.0; MAX_SEATS];
    let n = game.num_seats().min(MAX_SEATS);
    if game.facts().utility == engine::game::Utility::Identical {
        // Every seat shares the one return: the same estimate for all.
        let v = squash(eval.evaluate(game, 0), 4.0);
        r[..n].fill(v);
    } else if n == 2 {
        let v = squash(eval.evaluate(game, 0), 4.0);
        r[0] = v;
        r[1] = -v;
    } else {
        for (s, x) in r.iter_mut().enumerate().take(n) {
            *x = squash(eval.evaluate(game, s), 4.0);
        }
    }
    r
}

/// One of `tied`, the actions a decision found exactly equal (in the order met): drawn
/// from `rng` in a hidden-information game, the first in a perfect-information one.
///
/// Why: the order actions are met in is move-generation order, which is not the same
/// choice for both colours (a1 comes first). In a hidden-information game the sampled
/// worlds' searches often tie on decisions none of them can tell apart (Zombie's burial
/// squares), and always taking the first made White bury beside its own king while
/// Black buried under its most advanced piece (results/zombie/README.md). In a perfect
/// -information game the agents keep the first, as when they were rated in orthodox
/// chess. `None` when `tied` is empty. Users: `pimc` (both searches), `ismcts`,
/// `smmcts` on hidden games ([`crate::mcts::sm_pimc_decide`]) and `clairvoyant`.
pub fn break_tie<A: Copy>(tied: &[A], hidden: bool, rng: &mut Pcg64) -> Option<A> {
    if hidden && tied.len() > 1 {
        Some(tied[rng.gen_range(0..tied.len())])
    } else {
        tied.first().copied()
    }
}

/// Samples an index from (outcome, probability) pairs (the engine's one rule).
#[inline]
pub fn sample_chance<A>(outcomes: &[(A, f64)], rng: &mut Pcg64) -> usize {
    engine::random::sample_index(outcomes, rng)
}

/// Playout policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniform over legal actions.
    Random,
    /// A capture (best MVV-LVA of a few sampled) with probability 0.75 when there is
    /// one, else uniform.
    Heavy,
}

impl Rollout {
    pub fn from_settings(s: &Settings) -> Rollout {
        match s.choice("rollout") {
            "heavy" => Rollout::Heavy,
            _ => Rollout::Random,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Heavy => "heavy",
        }
    }
}

/// Scratch space for playouts (kept between calls so playouts do not allocate).
pub struct Playout<G: Game> {
    actions: Vec<G::Action>,
    chance: Vec<(G::Action, f64)>,
    joint: Vec<G::Action>,
    /// When set, a playout still running at this time (or once the decision is
    /// [`interrupted`]) stops and is scored by the evaluation: one playout of Clairvoyant
    /// Chess to its end lists thousands of actions a ply and took seconds.
    pub deadline: Option<Instant>,
}

impl<G: Game> Default for Playout<G> {
    fn default() -> Self {
        Playout {
            actions: Vec::new(),
            chance: Vec::new(),
            joint: Vec::new(),
            deadline: None,
        }
    }
}

impl<G: Game> Playout<G> {
    /// Plays from `game` to the end (or `cutoff` plies, then scores the position with
    /// `eval`), returns the returns and takes every playout move back, leaving `game` as
    /// it was.
    pub fn run(
        &mut self,
        game: &mut G,
        policy: Rollout,
        cutoff: Option<u32>,
        eval: &Evaluator,
        rng: &mut Pcg64,
    ) -> Returns {
        if policy == Rollout::Random {
            // A game's own lean playout, when it has one, draws exactly as the loop
            // below (same actions from the same stream), so results do not change.
            if let Some((r, _)) = game.random_playout(rng, cutoff) {
                return r;
            }
        }
        let mut plies = 0u32;
        let r = loop {
            // The clock at every ply: a ply costs at least a listing of actions, and in
            // Clairvoyant Chess with a large balance that listing takes milliseconds.
            let late =
                plies > 0 && (self.deadline.is_some_and(|d| Instant::now() >= d) || interrupted());
            if late || cutoff.is_some_and(|c| plies >= c) {
                break match game.turn() {
                    Turn::Terminal => game.returns(),
                    _ => eval_returns_with(eval, game),
                };
            }
            match game.turn() {
                Turn::Terminal => break game.returns(),
                Turn::Seat(s) => {
                    let a = if policy == Rollout::Random {
                        // The game's own uniform draw (listing and one `gen_range` by
                        // default, so the random stream is the same as listing here).
                        game.sample_legal_action(s, rng, &mut self.actions)
                            .expect("seat to move without legal actions")
                    } else {
                        game.legal_actions(s, &mut self.actions);
                        self.pick(game, policy, rng)
                    };
                    game.apply(a);
                }
                Turn::Chance => {
                    game.chance_outcomes(&mut self.chance);
                    let i = sample_chance(&self.chance, rng);
                    game.apply(self.chance[i].0);
                }
                Turn::Simultaneous => {
                    self.joint.clear();
                    for s in game.simultaneous_seats() {
                        game.legal_actions(s, &mut self.actions);
                        self.joint
                            .push(self.actions[rng.gen_range(0..self.actions.len())]);
                    }
                    game.apply_joint(&self.joint);
                }
            }
            plies += 1;
        };
        for _ in 0..plies {
            game.undo();
        }
        r
    }

    fn pick(&mut self, game: &mut G, policy: Rollout, rng: &mut Pcg64) -> G::Action {
        let n = self.actions.len();
        debug_assert!(n > 0, "seat to move without legal actions");
        if policy == Rollout::Heavy && game.board().is_some() && rng.gen_bool(0.75) {
            // Look at a handful of random actions; play the best capture among them.
            let mut best: Option<(i32, G::Action)> = None;
            for _ in 0..n.min(8) {
                let a = self.actions[rng.gen_range(0..n)];
                if let Some(s) = capture_score(game, a) {
                    match best {
                        Some((b, _)) if b >= s => {}
                        _ => best = Some((s, a)),
                    }
                }
            }
            if let Some((_, a)) = best {
                return a;
            }
        }
        self.actions[rng.gen_range(0..n)]
    }
}

/// A seat's value in a returns vector.
#[inline]
pub fn value_of(r: &Returns, seat: Seat) -> f64 {
    r[seat]
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::variants::chess::{Chess, ChessParams};
    use engine::variants::masquerade::{Masquerade, MasqueradeParams};

    #[test]
    fn rule_budget_time_takes_fractions_of_a_millisecond() {
        let spec = Spec::parse("mcts:time_ms=0.31").unwrap();
        let b = Budget::from_spec(&spec, None).unwrap();
        assert_eq!(b.time, Some(Duration::from_micros(310)));
        let mut parts = Vec::new();
        b.spec_parts(&mut parts);
        assert_eq!(parts, ["time_ms=0.31"]);
        // Whole milliseconds print as before; the resolution is a microsecond.
        assert_eq!(ms_text(Duration::from_millis(25)), "25");
        assert_eq!(ms_text(time_from_ms(1.5)), "1.5");
        assert_eq!(ms_text(time_from_ms(0.0014)), "0.001");
        assert_eq!(ms_text(time_from_ms(2.0405)), "2.041");
    }

    /// A uniform playout as it was written before `Game::sample_legal_action`: list the
    /// actions, draw one index with `gen_range`.
    fn listing_playout<G: Game>(game: &mut G, rng: &mut Pcg64) -> (Returns, Vec<G::Action>) {
        let mut actions = Vec::new();
        let mut played = Vec::new();
        loop {
            match game.turn() {
                Turn::Terminal => break,
                Turn::Seat(s) => {
                    game.legal_actions(s, &mut actions);
                    let a = actions[rng.gen_range(0..actions.len())];
                    played.push(a);
                    game.apply(a);
                }
                _ => panic!("a sequential game without chance"),
            }
        }
        let r = game.returns();
        for _ in 0..played.len() {
            game.undo();
        }
        (r, played)
    }

    /// On games that keep the default draw, `Playout` consumes the random stream
    /// exactly as listing and drawing did: same games, same returns, same stream after,
    /// so seeded searches give the results they gave before the hook.
    fn assert_default_draw_unchanged<G: Game>(game: &G) {
        let eval = crate::eval::default_evaluator();
        let mut p = Playout::<G>::default();
        for seed in 0..20 {
            let mut g = game.clone();
            let (mut r1, mut r2) = (Pcg64::seed_from_u64(seed), Pcg64::seed_from_u64(seed));
            let before = g.state_key();
            let got = p.run(&mut g, Rollout::Random, None, eval, &mut r1);
            assert_eq!(g.state_key(), before, "the playout is taken back");
            let (want, played) = listing_playout(&mut g, &mut r2);
            assert!(!played.is_empty());
            assert_eq!(got, want, "seed {seed}");
            assert_eq!(r1.gen::<u64>(), r2.gen::<u64>(), "seed {seed}: stream");
        }
    }

    /// Time Chess plays `Rollout::Random` playouts with its own lean loop
    /// (`Game::random_playout`): the same returns as the loop of `sample_legal_action`
    /// and `apply` for the same stream, the same stream left after, and the game as it
    /// was (state key, history, both seats' observations).
    #[test]
    fn lean_time_chess_playout_matches_the_apply_loop_and_leaves_the_game() {
        use engine::variants::time::{TimeChess, TimeParams};
        let eval = crate::eval::default_evaluator();
        let mut p = Playout::<TimeChess>::default();
        let mut g = TimeChess::new(&TimeParams::default());
        let mut walk = Pcg64::seed_from_u64(7);
        let mut scratch = Vec::new();
        for seed in 0..30 {
            let before = (
                g.state_key(),
                g.history_len(),
                g.observation(0),
                g.observation(1),
            );
            let (mut r1, mut r2) = (Pcg64::seed_from_u64(seed), Pcg64::seed_from_u64(seed));
            let got = p.run(&mut g, Rollout::Random, None, eval, &mut r1);
            let after = (
                g.state_key(),
                g.history_len(),
                g.observation(0),
                g.observation(1),
            );
            assert_eq!(after, before, "seed {seed}: the playout is taken back");
            let mut reference = g.clone();
            let mut plies = 0;
            while let Turn::Seat(s) = reference.turn() {
                let a = reference
                    .sample_legal_action(s, &mut r2, &mut scratch)
                    .unwrap();
                reference.apply(a);
                plies += 1;
            }
            assert!(plies > 0);
            assert_eq!(got, reference.returns(), "seed {seed}");
            assert_eq!(r1.gen::<u64>(), r2.gen::<u64>(), "seed {seed}: stream");
            // Walk on a ply, so the playouts start from many positions.
            if let Turn::Seat(s) = g.turn() {
                let a = g.sample_legal_action(s, &mut walk, &mut scratch).unwrap();
                g.apply(a);
            }
        }
    }

    #[test]
    fn shares_split_iterations_and_nodes_exactly() {
        let now = Instant::now();
        let b = Budget {
            iters: Some(23),
            nodes: Some(10),
            time: None,
        };
        let s = Shares::new(b, 4, now);
        assert_eq!(s.worlds(), 4);
        let parts: Vec<Budget> = (0..4).map(|i| s.share(i).unwrap()).collect();
        assert_eq!(parts.iter().map(|p| p.iters.unwrap()).sum::<u64>(), 23);
        assert_eq!(parts.iter().map(|p| p.nodes.unwrap()).sum::<u64>(), 10);
        assert_eq!(parts[0].iters, Some(6));
        assert_eq!(parts[3].iters, Some(5));
        assert!(s.share(4).is_none());
        // Fewer iterations than worlds: as many worlds as iterations, one each.
        let s = Shares::new(Budget::iterations(3), 10, now);
        assert_eq!(s.worlds(), 3);
        assert!((0..3).all(|i| s.share(i).unwrap().iters == Some(1)));
    }

    #[test]
    fn shares_split_the_time_left_and_stop_when_it_is_up() {
        let b = Budget {
            iters: None,
            nodes: None,
            time: Some(Duration::from_millis(40)),
        };
        let s = Shares::new(b, 4, Instant::now());
        let first = s.share(0).unwrap().time.unwrap();
        assert!(first <= Duration::from_millis(10), "{first:?}");
        std::thread::sleep(Duration::from_millis(25));
        // About 15 ms left over the three worlds still to search.
        let second = s.share(1).unwrap().time.unwrap();
        assert!(second <= Duration::from_millis(5), "{second:?}");
        std::thread::sleep(Duration::from_millis(20));
        assert!(s.share(2).is_none(), "the time is up");
        // The first world is always searched, even late.
        assert!(s.share(0).is_some());
    }

    #[test]
    fn deadlines_interrupt_budgets_and_are_restored() {
        use engine::deadline::Deadline;
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        assert!(!interrupted());
        let stop = Arc::new(AtomicBool::new(false));
        let d = Deadline {
            at: None,
            stop: Some(stop.clone()),
        };
        with_deadline(d, || {
            assert!(!interrupted());
            assert!(!Budget::iterations(100).done(1, 1, Instant::now()));
            stop.store(true, Ordering::Relaxed);
            assert!(interrupted());
            // A budget that has iterations left is done once interrupted.
            assert!(Budget::iterations(100).done(1, 1, Instant::now()));
        });
        assert!(!interrupted());
        let b = Budget {
            iters: None,
            nodes: None,
            time: Some(Duration::from_millis(5)),
        };
        within_budget(&b, Instant::now(), || {
            assert!(!interrupted());
            std::thread::sleep(Duration::from_millis(6));
            assert!(interrupted());
        });
        assert!(!interrupted());
    }

    #[test]
    fn default_playout_draw_consumes_the_stream_as_before() {
        assert_default_draw_unchanged(&Chess::new(&ChessParams::default()));
        assert_default_draw_unchanged(&Masquerade::new(&MasqueradeParams {
            white_assigns: Some("KQ,QN,RB,NR,BK".into()),
            black_assigns: Some("KK,QQ,RR,BB,NN".into()),
            ..Default::default()
        }));
    }
}

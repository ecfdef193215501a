//! Every chesslab decision maker, behind one [`Agent`] trait, built from spec strings
//! such as `alphabeta:depth=3` by [`registry::build`]. Each agent's keys are a schema
//! ([`settings`]) that spec reading, help texts and tuners share; which agent plays which
//! game, and what it falls back to, is [`fallback`]'s.
//!
//! Module order: `mcts` (UCT) <- `ismcts` (ISMCTS and PIMC's UCT search, built on UCT) <-
//! `alphabeta`, `expectimax` (which fall back to them) <- `pimc` (the `pimc` agent, whose
//! `search=alphabeta` searches worlds with `alphabeta`) <- `registry`; `fallback` answers questions
//! about games and depends on no search.
//!
//! ```
//! use agents::registry::build;
//! use engine::game::{Game, Turn};
//! use engine::variants::chess::{Chess, ChessParams};
//! use rand::SeedableRng;
//!
//! let game = Chess::new(&ChessParams::default());
//! let mut agent = build::<Chess>("greedy").unwrap();
//! let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
//! let Turn::Seat(seat) = game.turn() else { unreachable!() };
//! let action = agent.act(&game, seat, &mut rng);
//! assert!(game.action_notation(action).len() >= 4);
//! assert!(build::<Chess>("nosuch").is_err());
//! ```

pub mod alphabeta;
pub mod baseline;
pub mod budget_suite;
pub mod clairvoyant;
pub mod common;
pub mod eval;
pub mod expectimax;
pub mod ext;
pub mod fallback;
pub mod golf;
pub mod ismcts;
pub mod mcts;
pub mod pimc;
pub mod process;
pub mod registry;
pub mod settings;
pub mod spec;
pub mod testgames;
pub mod uci;

use engine::game::{Game, Seat};
use rand_pcg::Pcg64;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub use spec::{AgentError, Spec};

/// The generation of the built-in agents' play. A rating measured against Stockfish
/// (experiments' strength table) belongs to the generation it was measured with, and a
/// run records the generation that played it (`agents_epoch` in run.json), so a report
/// never quotes an older search's rating for a newer search's games. Bump it with any
/// change that alters how a built-in agent chooses (search, evaluation, defaults).
///
/// 1: the search and evaluation of issue 18 (rated 2026-11-25: alphabeta depth 2 about
/// 1360, depth 3 about 1562). 2: issue 36's search (principal variation search,
/// aspiration windows, null move, late-move reductions, check extensions) with the
/// tapered evaluation of `agents/data/eval/chess.toml` (merged 2026-11-27/28). 3: pruning
/// near the leaves (reverse futility, futility, late-move pruning) and static exchange
/// evaluation where the board's moves are the game's (orthodox chess, Chess960), and
/// `time_ms` searched to its end (2026-11-29). 4: in orthodox chess and Chess960 the
/// search's evaluation is the piece-square tables fitted to Stockfish's scores
/// (`agents/data/eval/orthodox.toml`, 2026-12-03); `alphabeta` and
/// `pimc:search=alphabeta` play differently there and nowhere else (every variant keeps
/// generation 3's evaluation, so its play is unchanged; a variant run's record of
/// generation 3 still says which orthodox ratings its players had). 6 (5 was taken by a
/// trial, below): the same search and evaluation as 4, about 1.5 times faster in
/// orthodox chess and Chess960 (2026-12-06: the legal moves listed only when asked,
/// "has a move" found without listing them, captures alone listed for the quiescence
/// search, moves picked best first instead of sorted, static exchange skipped where
/// the capture cannot lose), with the same tree at every depth and node budget (the
/// moves are taken in the same order); so a player with a depth or iteration budget
/// plays generation 4's moves (results/strength/epoch-6/pimc-d2 equals epoch-4's), and
/// a player by time searches deeper in the same time (`alphabeta:time_ms=100` 113/200
/// against Stockfish `UCI_Elo` 2000, results/strength/epoch-6). In the variants only
/// the picking and the faster "has a move" of the board apply, a smaller gain.
///
/// Not bumped for `alphabeta`'s matrix game at simultaneous nodes (2026-11-30,
/// [`alphabeta::matrix`]): it changed play only at simultaneous nodes (Two Move,
/// Synchronous), where no kept run had played `alphabeta` (they went to UCT before) and
/// no rating was measured, so every generation-3 record still describes today's play.
/// Nor for `alphabeta`'s opt-in reductions (`iir`, `lmr_adaptive`, `null_adaptive`,
/// 2026-12-06): off by default, so no default player changed. They were generation 5
/// for one commit (2e8ea2d), whose runs (results/strength/search/reductions) record
/// `agents_epoch` 5; so the next real generation is 6, that no report ever quotes its
/// ratings for those games.
/// Nor for the tables a finished searcher leaves to the next one on its thread
/// (2026-12-06, `alphabeta::spare`): a reused table is emptied by its stamp, so the tree
/// is the same at every budget (test `alphabeta_reused_tables_change_no_tree`), and a
/// searcher's time starts once its tables are ready (`time_ms`, PIMC's share per world),
/// so only the time between searches shrank (a new 6 MiB table took about 2 ms; a clock
/// player pays it at most once a game).
/// Nor for issue 64's budgets (2026-12-07: `time_ms`, `nodes` and `iters` are totals for
/// the whole decision, shared over the worlds by [`common::Shares`]; a node budget stops
/// at exactly that many nodes; clocks read every 16 nodes or every iteration; the
/// decision's deadline reaches the variants' long loops): every default player (no
/// budget key: `pimc`, and the PIMC fallbacks of `alphabeta` and `expectimax`, keep 200
/// iterations a world) and every depth player plays the same moves (the kept depth run
/// results/strength/epoch-6/pimc-d2 replays move for move, experiments/tests/kept_play.rs).
/// What changed is what a budget key means: `pimc:iters=50,worlds=8` now searches 50 in
/// all, and the rated generation-6 player of that name is today's
/// `pimc:iters=400,worlds=8` (the same 50 a world, the same moves); a player by time in a
/// game with hidden information searched its time in every world (ten times its
/// budget for `alphabeta` and `expectimax`, `worlds` times for `pimc`) and now keeps it
/// (results/budgets/README.md lists the kept runs this touches); a node player stopped
/// at the next multiple of 1024 nodes and now at the budget.
/// Nor for issue 66's search switches (2026-12-07: check extensions, pruning near the
/// leaves and SEE follow the finer facts `game_check`, `quiet_pruning` and
/// `static_exchange`) and the games' own fitted evaluations (`GameFacts::eval`): orthodox
/// chess and Chess960 declare exactly what they did (every switch on, the same
/// evaluation), so the rated players play the same moves there and every rating
/// stands; play changed only in the variants that now switch something on (Half Alice,
/// Crowded House, Adrenaline, Cassandra) or have an adopted fitted evaluation, where no
/// rating is kept (ratings are orthodox). A variant run records the commit that played
/// it (run.json), which is what tells its players apart.
/// Nor for the variants' named moves (2026-12-07, `Game::action_move` in Half Alice,
/// Crowded House, Cassandra, Adrenaline, Expedition, Masquerade, Time and Zombie, and
/// captures judged by the moving piece's colour, `Board::victim`): orthodox chess and
/// Chess960 already named theirs, so every rating stands. In the variants the search
/// no longer plays and takes back each action to read its move (Half Alice's member
/// searches about four times as many nodes a second), its history tables are keyed by
/// the move instead of a hash, and three readings were corrected (test
/// `capture_scores_match_what_actions_take_in_every_variant`): Cassandra's prophecies
/// and Masquerade's failed attempts are no longer captures, and Clairvoyant's bought
/// captures and Zombie's captures now are. A variant run records its commit.
/// Nor for the null move in Half Alice and Crowded House (2026-12-07, session 38: their
/// facts offer a pass, so `alphabeta`'s default null-move pruning applies there): play
/// changed only in those two variants, where no rating is kept.
pub const EPOCH: u32 = 6;

/// A decision maker for games of type `G`.
///
/// `act` receives the true state, but an agent for hidden-information games must use
/// only what `seat` may know: `information_key(seat)`, `observation(seat)`,
/// `sample_world(seat, rng)` and its own legal actions. Only `cheat` looks further, by
/// design. At simultaneous nodes `act` is called once per acting seat and returns that
/// seat's part of the joint action.
pub trait Agent<G: Game>: Send {
    /// The spec string that rebuilds this agent (for records).
    fn spec(&self) -> String;

    /// Chooses an action for `seat`. Called only when `seat` has legal actions.
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action;

    /// Forgets anything carried between moves (called before each new game).
    fn reset(&mut self) {}

    /// [`Agent::act`] under limits set from outside the agent: `limits.time` (from now)
    /// and `limits.stop` (raised from another thread) end the decision whatever its own
    /// budget, and the agent answers with the best action found so far (a legal action
    /// always). Every built-in agent honours them in every loop that can run long, belief
    /// sampling and move listing included (issue 64; agents/tests/budgets.rs); the
    /// other fields of `limits` are not read here. For a server: a bot seat's decision
    /// under the server's time limit, stopped when its client leaves or at shutdown.
    fn act_within(&mut self, game: &G, seat: Seat, rng: &mut Pcg64, limits: &Limits) -> G::Action {
        let deadline = engine::deadline::Deadline {
            at: limits.time.map(|t| std::time::Instant::now() + t),
            stop: limits.stop.clone(),
        };
        common::with_deadline(deadline, || self.act(game, seat, rng))
    }

    /// Like [`Agent::act`], but an agent that drives an outside program may give the game
    /// up instead ([`Forfeit`]: it crashed, hung, lost on time or answered an illegal
    /// move). The game loop calls this; the built-in agents never forfeit.
    fn try_act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> Result<G::Action, Forfeit> {
        Ok(self.act(game, seat, rng))
    }

    /// The agent's own score of its last decision, from its seat's point of view, when it
    /// reports one (UCI engines do; adjudication reads it).
    fn score(&self) -> Option<Score> {
        None
    }

    /// The depth completed and the nodes visited by the last decision, when the agent
    /// counts them (`alphabeta`; `chesslab uci` prints them in its `info` lines).
    fn search_stats(&self) -> Option<SearchStats> {
        None
    }

    /// Told every action the game loop applies, in notation (chance outcomes and joint
    /// actions `a|b` included), so an agent can keep the record (the `ext` protocol sends
    /// it). The built-in agents read the state instead.
    fn observe(&mut self, _action: &str) {}

    /// One decision under `limits` set from outside, with `report` called after every
    /// finished iteration of the search: for `chesslab uci`, which keeps one agent for
    /// the whole game (its tables stay between moves), searches once per `go` and prints
    /// an `info` line per iteration. `None` when the agent has no such search here (the
    /// default): the caller then builds an agent with the limits in its spec instead.
    fn act_watched(
        &mut self,
        _game: &G,
        _seat: Seat,
        _rng: &mut Pcg64,
        _limits: &Limits,
        _report: &mut dyn FnMut(Iteration<G::Action>),
    ) -> Option<G::Action> {
        None
    }

    /// Whether one instance should be kept and reused across games (an outside process
    /// is started once per game slot). Built-in agents are rebuilt for every game.
    fn reusable(&self) -> bool {
        false
    }
}

/// How an agent gave a game up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForfeitKind {
    /// Used more time than its clock held (plus the margin).
    Time,
    /// The program exited or closed its output.
    Crash,
    /// Answered an action that is not legal (or not an action at all).
    Illegal,
    /// Sent no answer within its timeout (no clock to lose on).
    Hang,
}

impl ForfeitKind {
    /// The `reason` recorded in games.csv.
    pub fn reason(self) -> &'static str {
        match self {
            ForfeitKind::Time => "forfeit-time",
            ForfeitKind::Crash => "forfeit-crash",
            ForfeitKind::Illegal => "forfeit-illegal",
            ForfeitKind::Hang => "forfeit-hang",
        }
    }
}

/// A forfeit and what happened, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {detail}", kind.reason())]
pub struct Forfeit {
    pub kind: ForfeitKind,
    pub detail: String,
}

/// How far an agent's last search went ([`Agent::search_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// The deepest iteration completed, in plies (0 for searches without iterations of
    /// depth, such as UCT).
    pub depth: u32,
    /// Nodes visited by the whole decision (UCT: tree nodes made, over every world).
    pub nodes: u64,
    /// Iterations (simulations) of the whole decision, over every world (0 for
    /// depth-first searches).
    pub iters: u64,
}

/// Limits of one decision set from outside the agent ([`Agent::act_watched`]); each
/// given one replaces the agent's own key of the same meaning for that decision, the
/// others stay.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes of the whole decision.
    pub nodes: Option<u64>,
    /// Hard time limit of the decision.
    pub time: Option<Duration>,
    /// The time is a share of a clock: no iteration starts late in it (time saved for
    /// later moves), as under `tc=`; otherwise it is searched to its end, as `time_ms`.
    pub from_clock: bool,
    /// No limit of the agent's own applies but `depth` (UCI's `go infinite`).
    pub unbounded: bool,
    /// Set from another thread to end the search: the agent answers at once with the best
    /// move found so far.
    pub stop: Option<Arc<AtomicBool>>,
}

/// One finished iteration of a watched search ([`Agent::act_watched`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iteration<A> {
    pub depth: u32,
    /// Nodes of the decision so far.
    pub nodes: u64,
    /// The iteration's score, for the side to move.
    pub score: Score,
    /// The iteration's best action.
    pub action: A,
}

/// An engine's evaluation, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The score in centipawns, mates as +-100,000.
    pub fn centipawns(self) -> i64 {
        match self {
            Score::Cp(c) => c as i64,
            Score::Mate(m) if m >= 0 => 100_000,
            Score::Mate(_) => -100_000,
        }
    }
}

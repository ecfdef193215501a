//! `chesslab serve`: the playtest board (issue 22). A local HTTP server (axum on tokio)
//! with a JSON API over every registered variant and a page (plain HTML, CSS and JS,
//! compiled into the binary with `include_str!`) that uses nothing but that API. The
//! API is documented in `docs/api.md`.
//!
//! Modules: `config` (the flags and [`Config`]), `start` (starting a server, resuming
//! stored games), `router` (the routes, the page and the catalogue of variants and
//! agents), `handlers` (the endpoints of one game), `drive` (bots and chance moving a
//! game on); [`api`] (request and response bodies, errors), [`guard`] (Host/Origin, JSON
//! bodies, JSON refusals), [`games`] (a type-erased live game over the registry, with
//! `new_game`, `session` and `bots` beside it), `branch` ("branch here"), [`limits`] (what a request's agent specs may ask for), [`store`] (the
//! live games, token hashes, expiry), [`persist`] (the SQLite file that outlives the
//! process), [`golf`] (a Chess Golf hole as a one-seat game, offered beside the registry),
//! `assets/` (the page), `listen` (the accept loop, and hyper's own refusals as JSON);
//! beside the board, [`uci`] serves an agent to UCI programs on
//! standard input and output.
//!
//! The folder may depend on [`crate::run`], [`crate::golf`], [`crate::record`] and
//! [`crate::util`]; never on `cli` or `studies`.
//!
//! The page (issue 38) reads each variant's mechanics from the seat's observation alone
//! (`assets/mechanics.js`: checkers, zombies, hands, prophecies, balances, the blind Time
//! Chess board...), so it never shows more than the seat knows; `assets/board.js` draws
//! and writes SAN, `assets/events.js` the event log in words. Square pairs are clicks,
//! one-square decisions (`bury:c6`, `~e5`, `go:e5`) a click on the square, `ITEM@square`
//! drops from a pocket, forms where a list would be hundreds long (Masquerade's
//! assignment grid, Clairvoyant's guess sheet), buttons for the rest. [`rules`] serves
//! the rules cards and the page's scripts, [`par`] a Golf hole's par. The new-game form
//! has one input per scalar leaf of the variant's default parameters (`fields` of
//! `GET /api/variants/{name}`, nested tables as dotted TOML keys), with a TOML box for the
//! rest. Browser test: `experiments/tests/serve_browser.rs`; load measurement:
//! `experiments/tests/serve_load.rs` (ignored by default).
//!
//! # Decisions (the issue leaves these open)
//! - Hidden information is filtered here, never in the page: a seat's view carries its
//!   [`engine::game::Game::observation`], its own legal actions and nothing else of the
//!   state. The record (every action) and the pending chance outcomes are in a view only
//!   for perfect-information games, once the game is over, or in an audit. Tests
//!   `rule_serve_hidden_views_are_observations` and `rule_serve_tokens_are_enforced`.
//! - Every human seat gets a 128-bit token at creation; the server keeps only its SHA-256
//!   hash. The state of a hidden-information game is given only to the seat's token
//!   holder; a perfect-information game may be watched by anyone (its observation is the
//!   whole state). Bot seats' views are shown only in games without human seats.
//! - Seeds (issue 35): a game with a human seat draws its seed from the operating system
//!   unless the creator gives one, and shows it (`seed` in views) only once over. Games
//!   of bots keep seed 1 by default (they equal the tournament's game). Test
//!   `rule_serve_seeds_hidden_until_the_end`.
//! - Practice (issue 65): what a creator fixes that a seat cannot see (the seed where
//!   there is hidden information, simultaneous moves or chance; a hidden game's opening;
//!   Masquerade's assignments) makes a game against bots practice, and is refused in a
//!   game two people play unless the creator asks for `"practice": true`; every seat's
//!   view says `practice` and `practice_why` (`new_game::practice_of`). The page's form
//!   sends a seed only when its "Practice game" box is ticked (issue 68). Tests
//!   `rule_serve_creators_cannot_fix_another_persons_secret`
//!   (`experiments/tests/serve_limits.rs`) and the browser test's `secret_seed_form`.
//! - Acts carry the `version` they were chosen at; a stale one is 409 and nothing is
//!   played; versions only grow, across restarts (`persist`). Tests
//!   `rule_serve_stale_acts_are_refused`, `rule_serve_versions_only_grow`.
//! - Requests from elsewhere: Host and Origin must be the server's own (`--host NAME`
//!   adds names); bodies must be `application/json` (415); every refusal is JSON, axum's
//!   own rejections and 405 included ([`guard`]). `--bind` is the address bound (it was
//!   `--host` before issue 35).
//! - Agents beside humans decide from the seat's information only (the registry's
//!   `Reads` fact, not a list here): `agent-act` and bot seats of hidden-information games
//!   with a human refuse `cheat`. Every request's spec is checked against the limits and
//!   may name no file ([`limits`]). Tests `rule_serve_agents_beside_humans_see_only_the_seat`,
//!   `rule_serve_twin_hidden_truths_answer_alike`, `rule_serve_request_files_are_refused`,
//!   `rule_serve_limit_*` (`experiments/tests/serve_security.rs`).
//! - Games are stored in SQLite under `--data DIR` (default `./chesslab-data`) after every
//!   change and resumed at start, bots included ([`persist`]); test
//!   `rule_serve_games_survive_a_restart`.
//! - Bots and chance move after every change (`drive`); a bot decides on a blocking
//!   thread without the game's lock (issue 64: `state` answers at once, `thinking:
//!   true`), asked to stop at `--max-time-ms` and when its game is dropped, and forfeits
//!   on time if it has not answered [`games::GRACE`] later; seeds follow `play_game` (see
//!   [`games`]), so a game of bots equals the tournament's game with the same seed.
//!   Agents that start outside programs (`uci`, `ext`) are refused: a web request must
//!   not run commands. Test `rule_serve_bots_think_without_holding_the_game`.
//! - Simultaneous nodes: each human seat commits its part secretly (a view shows only who
//!   has committed); the bots decide and the joint action is played when every human
//!   seat has committed.
//! - Takeback (`undo`) is for games against bots only: it takes back the seat's last
//!   decision and every action after it; chance is not rewound, so a re-played chance
//!   node may fall differently. In hidden-information games only practice games allow
//!   it (a takeback would probe the hidden part), nor does a takeback across a
//!   simultaneous move outside practice (the bot's part was seen), and no finished game
//!   does (`rule_serve_takeback_is_no_probe`,
//!   `rule_serve_takeback_refused_across_simultaneous_moves`).
//! - Bounds: request bodies over 64 KiB are refused (413), and must arrive in 10 s
//!   ([`guard::read_body`]); at most `--max-games` live games (503 beyond), per client
//!   `--max-games-per-client` and `--max-creates-per-minute` (429), unplayed games dropped
//!   after `--unplayed-minutes` ([`store`]); connections capped in all and per client,
//!   heads in 10 s, idle connections closed (`listen`); a game idle for `--idle-minutes`
//!   is dropped (its row archived, never deleted) and its decision stopped; each game's
//!   bots step on their own blocking thread, so a slow bot holds back only its game
//!   (`rule_serve_slow_bot_holds_back_only_its_game`). Every flag's number has a range
//!   checked as it is read ([`limits::ranged`]). The promises are tabled in
//!   `docs/guide/board.md`.
//! - Watch: `--results DIR` lets the page list `DIR/games.csv` and step through any row
//!   (replayed with the trace's own walk, [`crate::run::trace::trace_record`], with every
//!   seat's observation: the folder is the operator's own, nothing is hidden there).
//! - "Branch here" (`POST /api/games/{id}/branch`): from the position after any number
//!   of the game's actions, optionally under changed parameters (the actions are then
//!   replayed under them), N games of bots are played with the tournament's game loop
//!   ([`crate::run::gameplay::play_game_with`]), game `i` seeded `mix(seed, i)` so every chance
//!   node re-rolls; the answer is the outcome spread. Human seats default to `random`.
//!   A running hidden-information game with human seats cannot be branched (the spread
//!   would leak the true state). Test `rule_serve_branch_here_spreads_outcomes`.
//! - Export: a finished game is offered as a one-row `games.csv` plus its parameters as
//!   TOML, which `chesslab replay --games FILE --row 1 --params P` verifies.

pub mod api;
mod bots;
mod branch;
mod config;
mod drive;
pub mod games;
pub mod golf;
pub mod guard;
mod handlers;
pub mod limits;
mod listen;
mod new_game;
pub mod par;
pub mod persist;
mod router;
pub mod rules;
mod session;
mod start;
pub mod store;
pub mod uci;
mod watch;

pub use config::{Config, ServeArgs};
pub use handlers::ClientAddr;
pub use router::{app, router};
pub use start::{run, serve_on, spawn_local, spawn_with, start_server};

use engine::registry::{self, VariantVisitor};
use games::AgentRules;
use std::path::PathBuf;
use std::sync::Arc;
use store::Store;

/// The registry's [`registry::visit`], plus the Golf hole ([`golf`]), which the board
/// offers beside the registered variants.
pub fn visit_any<V: VariantVisitor>(
    name: &str,
    params_toml: Option<&str>,
    visitor: V,
) -> Result<V::Output, engine::game::GameError> {
    if name != golf::NAME {
        return registry::visit(name, params_toml, visitor);
    }
    let p = registry::parse_params(name, params_toml, golf::GolfHoleParams::default())?;
    let p = registry::validated(name, p)?;
    Ok(visitor.visit::<golf::GolfHole>(golf::NAME, p))
}

/// Branch games ("branch here") finished by every server in this process so far; a test
/// reads it to see a branch stop when its client leaves.
pub fn branch_games_played() -> u64 {
    branch::games_played()
}

/// Request bodies above this are refused with 413.
pub const MAX_BODY: usize = 64 * 1024;

/// The server's shared state.
pub struct Server {
    pub store: Store,
    pub results: Option<PathBuf>,
    pub rules: Arc<AgentRules>,
}

type Shared = Arc<Server>;

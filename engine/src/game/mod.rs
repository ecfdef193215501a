//! The game API every chesslab variant implements, shaped after OpenSpiel's `State`:
//! one contract for sequential, chance, simultaneous and hidden-information games, typed
//! and allocation-light so agents can search it at speed.
//!
//! # Contract
//! - A state is at exactly one kind of node, given by [`Game::turn`]: a seat to act,
//!   `Chance`, `Simultaneous` (every seat in [`Game::simultaneous_seats`] acts at once)
//!   or `Terminal`.
//! - [`Game::legal_actions`] lists the actions of a seat; at chance nodes
//!   [`Game::chance_outcomes`] lists outcomes with probabilities that sum to 1.
//! - [`Game::apply`] plays one action (seat or chance node); [`Game::apply_joint`] plays
//!   one action per acting seat at a simultaneous node, in seat order.
//!   [`Game::undo`] takes back the last `apply`/`apply_joint` exactly (same key, same
//!   legal actions), so search never clones a state per node.
//! - [`Game::returns`] gives every seat's return at a terminal state (partners in a team
//!   and cooperative seats receive the same value); zero elsewhere.
//! - [`Game::information_key`] is equal for two states a seat cannot tell apart and
//!   differs (up to hash collisions) otherwise; [`Game::sample_world`] returns a full
//!   state drawn consistently with everything that seat has observed. For perfect
//!   information both default to the state itself.
//! - [`Game::action_notation`] and [`Game::parse_action`] round-trip, so a record of
//!   (variant, parameters, seed, action list) replays the game exactly.
//!
//! - [`Game::facts`] declares what kind of game it is ([`GameFacts`]: chance, dynamics,
//!   information, utility, seats), checked by the conformance test.
//!
//! Variants are reached by name through [`crate::registry`], the one table that lists them.

pub mod conformance;
pub mod facts;
#[cfg(test)]
pub(crate) mod twins;

pub use facts::{ChanceMode, Dynamics, GameFacts, Information, Utility};

use rand::{Rng, RngCore};
use std::fmt::Debug;
use std::hash::Hash;
use thiserror::Error;

/// A player's position at the table: 0 = white / first player, 1 = black, ...
pub type Seat = usize;

/// The most seats any variant has (Crowded House: four).
pub const MAX_SEATS: usize = 4;

/// Per-seat returns; entries past `num_seats` are zero.
pub type Returns = [f64; MAX_SEATS];

/// Who acts at a state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Turn {
    Seat(Seat),
    Chance,
    Simultaneous,
    Terminal,
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct GameResult {
    pub returns: Returns,
    /// Short machine-readable reason: `checkmate`, `stalemate`, `cap`, ...
    pub reason: &'static str,
}

/// Errors from building games and reading actions or parameters. Causes are kept as
/// sources (print the chain, e.g. anyhow's `{:#}`, to see them).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GameError {
    #[error(
        "unknown variant '{0}'{near} (known: {1})",
        near = crate::suggest::did_you_mean(.0, crate::registry::VARIANTS.iter().copied())
    )]
    UnknownVariant(String, String),
    #[error("bad parameters for {variant}")]
    Params {
        /// The variant's registry name.
        variant: String,
        #[source]
        source: ParamsError,
    },
    #[error("bad action '{action}': {message}")]
    Action { action: String, message: String },
    #[error("bad opening position '{opening}'")]
    Opening {
        opening: String,
        #[source]
        source: OpeningError,
    },
    #[error("{0} does not support {1}")]
    Unsupported(String, String),
}

impl GameError {
    /// An opening the variant cannot start from, for a reason of its own.
    pub fn opening(opening: &str, reason: impl Into<String>) -> GameError {
        GameError::Opening {
            opening: opening.into(),
            source: OpeningError::Invalid(reason.into()),
        }
    }

    /// An opening whose FEN does not parse.
    pub fn opening_fen(opening: &str, source: crate::FenError) -> GameError {
        GameError::Opening {
            opening: opening.into(),
            source: OpeningError::Fen(source),
        }
    }
}

/// Why a parameter set was refused.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParamsError {
    /// The TOML text does not parse or does not fit the variant's parameters (unknown
    /// key, wrong type): one line in the user's words, naming the key (`registry`'s
    /// `toml_problem`).
    #[error("{0}")]
    Toml(String),
    /// A value out of its range (`validate`).
    #[error(transparent)]
    Invalid(#[from] InvalidParams),
}

/// A parameter value out of range: the field (a dotted path for tables) and the rule it
/// breaks.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{field}: {reason}")]
pub struct InvalidParams {
    pub field: String,
    pub reason: String,
}

impl InvalidParams {
    pub fn new(field: impl Into<String>, reason: impl Into<String>) -> InvalidParams {
        InvalidParams {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// Why an opening position was refused.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OpeningError {
    #[error(transparent)]
    Fen(#[from] crate::FenError),
    #[error("{0}")]
    Invalid(String),
}

/// A variant's parameter set: every tunable number, serde with the seed's values as
/// defaults, and a range check the registry runs at every entry point (play,
/// tournament, replay, report), so no command starts from nonsense.
pub trait VariantParams:
    Clone + Debug + Default + Send + Sync + serde::Serialize + serde::de::DeserializeOwned
{
    /// What each parameter is, declared beside the struct: one entry per TOML key
    /// (dotted for nested tables; an entry for a table covers every key under it).
    /// `chesslab params --variant V` prints the defaults with these as comments, and a
    /// test checks every default key has one.
    const DOCS: &'static [ParamDoc] = &[];

    /// Checks every value's range and the values' consistency.
    fn validate(&self) -> Result<(), InvalidParams>;
}

/// One parameter's description, for the commented defaults `chesslab params` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamDoc {
    /// The TOML key, dotted for nested tables (`deck.pawns`).
    pub key: &'static str,
    /// What the number or setting is.
    pub about: &'static str,
    /// Its range, in words (`1 or more`, `"choose" or "random"`).
    pub range: &'static str,
}

impl ParamDoc {
    /// A description (a `const fn`, so the tables stay `const`).
    pub const fn new(key: &'static str, about: &'static str, range: &'static str) -> ParamDoc {
        ParamDoc { key, about, range }
    }
}

/// Games without parameters (test games).
impl VariantParams for () {
    fn validate(&self) -> Result<(), InvalidParams> {
        Ok(())
    }
}

/// The ply cap's range check, shared by every variant's `validate`.
pub fn validate_ply_cap(ply_cap: u32) -> Result<(), InvalidParams> {
    if ply_cap == 0 {
        return Err(InvalidParams::new(
            "ply_cap",
            "must be at least 1 (a cap of 0 ends every game before it starts)",
        ));
    }
    Ok(())
}

/// One variant's rules. See the module documentation for the contract.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// An action of a seat or an outcome of chance.
    type Action: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// Every tunable number of the variant (serde; defaults are the seed's values).
    type Params: VariantParams;

    /// The game's static facts (see [`facts`]); constant over a game.
    fn facts(&self) -> GameFacts;

    /// The start state for `params`.
    fn new(params: &Self::Params) -> Self;

    /// The start state from an opening (a FEN for chess-like variants).
    fn from_opening(params: &Self::Params, opening: &str) -> Result<Self, GameError> {
        let _ = (params, opening);
        Err(GameError::Unsupported(
            std::any::type_name::<Self>().into(),
            "openings".into(),
        ))
    }

    fn num_seats(&self) -> usize;

    /// The team of `seat`: partners share a team number, and teams share returns.
    /// Searches for two-sided games (alphabeta) play any game whose seats form exactly
    /// two teams as a two-sided game. Default: every seat is its own team.
    fn team(&self, seat: Seat) -> usize {
        seat
    }

    /// A display name for a seat (`white`, `black`, `north`...).
    fn seat_name(&self, seat: Seat) -> String {
        match seat {
            0 => "white".into(),
            1 => "black".into(),
            s => format!("seat{s}"),
        }
    }

    fn turn(&self) -> Turn;

    /// Seats acting at a simultaneous node (all seats unless a variant says otherwise).
    fn simultaneous_seats(&self) -> Vec<Seat> {
        (0..self.num_seats()).collect()
    }

    /// Appends the legal actions of `seat` to `out` (cleared first).
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Self::Action>);

    /// One legal action of `seat` drawn uniformly at random (every action of
    /// [`Game::legal_actions`] with probability 1/n), or `None` when it has none: the
    /// playouts' move choice. `scratch` is the caller's buffer, kept between calls so
    /// playouts do not allocate.
    ///
    /// The default lists the actions into `scratch` and draws one index with
    /// `rng.gen_range(0..n)`, so a game that does not override it consumes the random
    /// stream exactly as a playout that lists and draws itself. A variant may override it
    /// to draw without listing (Time Chess counts target sets), but the distribution must
    /// stay uniform over the legal actions, and the action drawn must be one
    /// `legal_actions` lists.
    fn sample_legal_action(
        &self,
        seat: Seat,
        rng: &mut dyn RngCore,
        scratch: &mut Vec<Self::Action>,
    ) -> Option<Self::Action> {
        self.legal_actions(seat, scratch);
        if scratch.is_empty() {
            return None;
        }
        Some(scratch[rng.gen_range(0..scratch.len())])
    }

    /// A whole uniform random playout from this state, played in place and taken back:
    /// `Some((returns at the end, plies played))`, leaving the state as it was (state
    /// key, history, observations, result), or `None` to let the caller run its own loop
    /// of [`Game::sample_legal_action`] and [`Game::apply`] (the default, and what an
    /// override answers when it does not handle a `cutoff`).
    ///
    /// An override is only a faster way to play the same game: it must draw exactly as
    /// that loop draws (same actions from the same random stream, same returns, same
    /// number of plies, same stream left after), skipping only what a playout never reads
    /// (observation hashes, records, per-ply undo). Time Chess overrides it.
    fn random_playout(
        &mut self,
        _rng: &mut dyn RngCore,
        _cutoff: Option<u32>,
    ) -> Option<(Returns, u32)> {
        None
    }

    /// Appends (outcome, probability) pairs at a chance node to `out` (cleared first).
    fn chance_outcomes(&self, out: &mut Vec<(Self::Action, f64)>) {
        out.clear();
    }

    fn apply(&mut self, action: Self::Action);

    /// One action per acting seat, in seat order, at a simultaneous node.
    fn apply_joint(&mut self, actions: &[Self::Action]) {
        let _ = actions;
        panic!("apply_joint on a game without simultaneous nodes");
    }

    /// Takes back the last `apply` / `apply_joint`.
    fn undo(&mut self);

    /// Passes the turn to the opponent without moving, for search's null-move pruning,
    /// and returns `true`; `false` (nothing changed) where the game offers no pass. A
    /// variant implements it only where a pass is a sound lower bound on the mover's
    /// prospects: a game of compound turns, chance or hidden information, or one where
    /// zugzwang is the rule rather than the exception, keeps the default, and so keeps
    /// null-move pruning off. Implementations refuse in check and at the end of the
    /// game. Undone by [`Game::undo_null`].
    fn apply_null(&mut self) -> bool {
        false
    }

    /// Takes back an [`apply_null`](Game::apply_null) that returned `true`.
    fn undo_null(&mut self) {
        panic!("undo_null without a pass: this game does not implement apply_null");
    }

    /// The result once the game is over, else `None`.
    fn result(&self) -> Option<GameResult>;

    /// Returns per seat (zero while the game is running).
    fn returns(&self) -> Returns {
        self.result().map_or([0.0; MAX_SEATS], |r| r.returns)
    }

    /// A hash of the full state (for transposition tables and tests).
    fn state_key(&self) -> u64;

    /// Derived from [`Game::facts`].
    fn is_perfect_information(&self) -> bool {
        self.facts().information == Information::Perfect
    }

    /// Equal for states `seat` cannot distinguish.
    fn information_key(&self, seat: Seat) -> u64 {
        let _ = seat;
        self.state_key()
    }

    /// What `seat` sees, for display.
    fn observation(&self, seat: Seat) -> String;

    /// A full state consistent with what `seat` has observed.
    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Self {
        let _ = (seat, rng);
        self.clone()
    }

    fn action_notation(&self, action: Self::Action) -> String;

    fn parse_action(&self, text: &str) -> Result<Self::Action, GameError>;

    /// Parses `text` and applies it: what replaying a record does at each seat's turn.
    /// A variant whose `apply` prepares the next legal list for search may override it to
    /// check only the action named and leave the list to be worked out on demand, so a
    /// record replays at about the cost of playing its moves (Clairvoyant does).
    fn apply_text(&mut self, text: &str) -> Result<Self::Action, GameError> {
        let act = self.parse_action(text)?;
        self.apply(act);
        Ok(act)
    }

    /// Number of actions applied since the start (chance included).
    fn history_len(&self) -> usize;

    /// A material-style score of the position for `seat` (pawn = 1), used by the
    /// greedy baseline and as a default evaluation. Variants override it where material
    /// alone misleads.
    fn material(&self, seat: Seat) -> f64 {
        let _ = seat;
        0.0
    }

    /// What a searcher's evaluation may add for `seat` (pawns) for threats the board
    /// does not show: state beside the board that will change material soon, such as
    /// Cassandra's pending prophecies and ladder. Read only by evaluations that ask
    /// for it (the agents' `eval.hint` weight, 0 by default), so it changes no
    /// material, report or baseline. Default: nothing.
    fn eval_hint(&self, seat: Seat) -> f64 {
        let _ = seat;
        0.0
    }

    /// The orthodox board underneath, where there is one (for PGN, evaluation).
    fn board(&self) -> Option<&crate::Board> {
        None
    }

    /// Whether the seat to move stands in the game's check, for searches (check
    /// extensions, evasions in quiescence, no pruning in check) where the facts declare
    /// [`GameFacts::game_check`]. The default reads the [`board`](Game::board)'s check of
    /// its side to move (false without a board), which is the game's where the facts
    /// declare `board_check`; a variant whose check is its own (Half Alice's sides,
    /// Crowded House's next seat) overrides it.
    fn in_check(&self) -> bool {
        self.board().is_some_and(|b| b.in_check())
    }

    /// The orthodox move `action` plays on the [`board`](Game::board), when the action
    /// makes one (chess's moves, most variants' move actions; Time's blind try as it
    /// resolves on the board). Agents read it for capture detection ([`Board::victim`]:
    /// by the moving piece's colour), move ordering and static exchange without playing
    /// the action; with `None` (the default) an agent plays the action and reads the
    /// board's last move when the action made exactly one, which costs an `apply` and an
    /// `undo` per action and node. The conformance check holds every name to what the
    /// action does: the named piece leaves its square, a named capture takes a piece off
    /// the board, and where the board records moves the last one is the named move.
    ///
    /// [`Board::victim`]: crate::Board::victim
    fn action_move(&self, action: Self::Action) -> Option<crate::Move> {
        let _ = action;
        None
    }

    /// Appends to `out` (cleared first) the legal actions of `seat` that capture an
    /// enemy piece on the [`board`](Game::board) (en passant included, quiet promotions
    /// and castling not), exactly those of [`legal_actions`](Game::legal_actions) a
    /// quiescence search keeps, and returns true; the default returns false, and the
    /// searcher then filters the full list. A game overrides it only where it can list
    /// captures more cheaply than all moves (orthodox chess); the conformance test
    /// checks the list against the legal actions at every seat node it visits.
    fn legal_captures(&self, seat: Seat, out: &mut Vec<Self::Action>) -> bool {
        let _ = (seat, out);
        false
    }

    /// Features of the position for learning piece values (`chesslab values`): stable
    /// names with numbers from seat 0's side (seat 0 minus seat 1). The default is the
    /// difference in pawns, knights, bishops, rooks and queens on [`board`](Game::board)
    /// (White is seat 0), and nothing where there is no board; variants may append their
    /// own features (checkers, Zorkmids, ...). Positions compared must share the names.
    fn features(&self) -> Vec<(String, f64)> {
        self.board().map(material_features).unwrap_or_default()
    }

    /// The variant's own figures for balance reports, read once a game is over: stable
    /// column names with per-game values (e.g. Cassandra's prophecies made per rung).
    /// Reports average each column over games. Must depend only on the state and its
    /// history, so `undo` restores it like everything else.
    fn tallies(&self) -> Vec<(String, f64)> {
        Vec::new()
    }

    /// A readable name for a tally's value where the number is a code (Masquerade's
    /// assignment index prints as `KQ,QN,RB,BK,NR`); `None` prints the number.
    fn tally_label(&self, name: &str, value: f64) -> Option<String> {
        let _ = (name, value);
        None
    }
}

/// Returns for a two-seat game won by `winner` (or drawn).
pub fn two_seat_returns(winner: Option<Seat>) -> Returns {
    let mut r = [0.0; MAX_SEATS];
    if let Some(w) = winner {
        r[w] = 1.0;
        r[1 - w] = -1.0;
    }
    r
}

/// Separates the seats' parts of a joint action in records (`e2e4|d7d5`).
pub const JOINT_SEPARATOR: char = '|';

/// Notation of a joint action at a simultaneous node.
pub fn joint_notation<G: Game>(game: &G, actions: &[G::Action]) -> String {
    let parts: Vec<String> = actions.iter().map(|&a| game.action_notation(a)).collect();
    parts.join(&JOINT_SEPARATOR.to_string())
}

/// Plays `actions` (in notation) from the start of `game`, as a record replays.
/// Simultaneous nodes take one token with the seats' parts joined by `|`.
pub fn replay<G: Game>(mut game: G, actions: &[&str]) -> Result<G, GameError> {
    for a in actions {
        match game.turn() {
            Turn::Terminal => {
                return Err(GameError::Action {
                    action: a.to_string(),
                    message: "the game is already over".into(),
                })
            }
            Turn::Simultaneous => {
                let seats = game.simultaneous_seats();
                let parts: Vec<&str> = a.split(JOINT_SEPARATOR).collect();
                if parts.len() != seats.len() {
                    return Err(GameError::Action {
                        action: a.to_string(),
                        message: format!(
                            "expected {} joint parts separated by '{JOINT_SEPARATOR}', got {}",
                            seats.len(),
                            parts.len()
                        ),
                    });
                }
                // `parse_action` knows no seat, so each part is also checked against its
                // own seat's legal actions: a part legal only for another seat is an
                // error here, not a corrupt `apply_joint`.
                let mut legal = Vec::new();
                let mut joint = Vec::with_capacity(parts.len());
                for (&seat, part) in seats.iter().zip(&parts) {
                    let act = game.parse_action(part)?;
                    game.legal_actions(seat, &mut legal);
                    if !legal.contains(&act) {
                        return Err(GameError::Action {
                            action: part.to_string(),
                            message: format!("not a legal action for {}", game.seat_name(seat)),
                        });
                    }
                    joint.push(act);
                }
                game.apply_joint(&joint);
            }
            _ => {
                game.apply_text(a)?;
            }
        }
    }
    Ok(game)
}

/// Leaf count of the action tree at `depth` (chance outcomes and joint actions are
/// branches too): perft for any variant with well-defined moves.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut actions = Vec::new();
    match game.turn() {
        Turn::Terminal => 0,
        Turn::Seat(s) => {
            game.legal_actions(s, &mut actions);
            if depth == 1 {
                return actions.len() as u64;
            }
            let mut n = 0;
            for a in actions {
                game.apply(a);
                n += perft(game, depth - 1);
                game.undo();
            }
            n
        }
        Turn::Chance => {
            let mut outcomes = Vec::new();
            game.chance_outcomes(&mut outcomes);
            let mut n = 0;
            for (a, _) in outcomes {
                game.apply(a);
                n += perft(game, depth - 1);
                game.undo();
            }
            n
        }
        Turn::Simultaneous => {
            let per_seat: Vec<Vec<G::Action>> = game
                .simultaneous_seats()
                .into_iter()
                .map(|s| {
                    let mut v = Vec::new();
                    game.legal_actions(s, &mut v);
                    v
                })
                .collect();
            let mut n = 0;
            let mut idx = vec![0usize; per_seat.len()];
            if per_seat.iter().any(Vec::is_empty) {
                return 0;
            }
            loop {
                let joint: Vec<G::Action> = idx.iter().zip(&per_seat).map(|(&i, v)| v[i]).collect();
                game.apply_joint(&joint);
                n += perft(game, depth - 1);
                game.undo();
                let mut k = 0;
                loop {
                    if k == idx.len() {
                        return n;
                    }
                    idx[k] += 1;
                    if idx[k] < per_seat[k].len() {
                        break;
                    }
                    idx[k] = 0;
                    k += 1;
                }
            }
        }
    }
}

/// The feature names of [`material_features`], in order.
pub const MATERIAL_FEATURES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];

/// White minus Black in each piece type but the king, named by [`MATERIAL_FEATURES`]:
/// the default [`Game::features`].
pub fn material_features(board: &crate::Board) -> Vec<(String, f64)> {
    use crate::{Color, Role};
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    MATERIAL_FEATURES
        .iter()
        .zip(roles)
        .map(|(name, r)| {
            let diff = board.pieces(Color::White, r).count() as f64
                - board.pieces(Color::Black, r).count() as f64;
            (name.to_string(), diff)
        })
        .collect()
}

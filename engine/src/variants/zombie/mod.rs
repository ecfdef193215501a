//! Zombie Chess (chess-kit seed "Zombie Chess"; docs/RULES.md "Zombie Chess"): every
//! captured piece is secretly buried under one of the capturer's pieces and comes back
//! as a zombie of its owner when that square is vacated.
//!
//! Rules implemented (each with its `rule_*` test in `tests/`):
//! - Orthodox moves, check, castling, en passant, promotion (`rule_orthodox_opening`).
//! - A capture is followed by a burial chosen by the capturer (`bury:c6`) under one of
//!   its own pieces' squares, after the end-of-turn reveal and the destruction of unmoved
//!   zombies, in capture order (`rule_capturer_chooses_burial`,
//!   `rule_seed_example_knight_c6`). One burial per player per square
//!   (`rule_one_burial_per_square`); no free square: the piece goes to the dust bin and
//!   "cannot bury" is announced (`rule_cannot_bury_dust_bin`).
//! - End of turn: every square vacated this turn is announced; a burial there returns as
//!   its owner's zombie (`rule_vacated_square_raises_zombie`,
//!   `rule_announcement_without_zombie`). The mover's own burial has priority; the
//!   opponent's burial on the same square stays hidden until the opponent vacates it
//!   (`rule_burial_stays_when_top_piece_captured`); a square holding only the
//!   opponent's burial raises it for the mover
//!   (`rule_vacated_square_with_only_opponent_burial_raises_it`).
//! - Hordes: each own zombie may move once per turn, in any order with the regular move;
//!   unmoved ones are destroyed at the end of the turn, except those that rose during it
//!   (`rule_horde_moves_each_zombie_once`, `rule_unmoved_zombie_destroyed`,
//!   `rule_zombie_rising_for_mover_survives_turn`).
//! - A captured zombie goes to the dust bin (`rule_captured_zombie_to_dust_bin`).
//! - A zombie pawn returning on its owner's last rank comes back as a queen
//!   (`rule_zombie_pawn_last_rank_queen`); with the parameter `promotion_choice` (RULES.md:
//!   "a parameter may let the owner choose") its owner chooses with `promote:q`/`r`/`b`/`n`
//!   (`rule_zombie_pawn_last_rank_owner_chooses`).
//! - Own king safe after every move of the turn, zombie moves included
//!   (`rule_own_king_safe_after_every_move_of_the_turn`): unattacked right after the
//!   move, before any return, so a burial that would return and block the check does
//!   not make the move legal (`rule_check_right_after_each_move`); zombie pawns move
//!   from where they stand, a double step only from their second rank
//!   (`rule_zombie_pawn_moves_from_where_it_stands`).
//! - Besides, a move whose reveal (the mover's own burials on squares vacated so far and
//!   empty after the move) would check the mover's king is refused
//!   (`rule_reveal_into_check_refused`); castling completes before the reveal
//!   (`rule_castling_then_reveal`).
//! - A piece may land on a square vacated earlier in the same turn: nothing returns
//!   onto it, the burials there stay buried under the piece that landed, and the
//!   square is still announced ([`Event::Covered`], which tells the opponent nothing
//!   about the burials there) (`rule_landing_on_vacated_square`).
//! - `end` is refused while the regular move is still possible or the king is in check
//!   (`rule_end_requires_regular_move`).
//! - Mate and stalemate are judged at the start of a turn (`rule_checkmate_at_turn_start`);
//!   the insufficient-material draw is K v K and K+minor v K only (two bishops on one
//!   colour play on: `rule_insufficient_material_is_only_bare_kings_or_one_minor`) and
//!   needs an empty graveyard (`rule_insufficient_material_needs_empty_graveyard`).
//!
//! Decisions where RULES.md and the seed are silent (tested too):
//! - Castling is judged on the board as it stands: no castling out of a check on the
//!   board, none through a square attacked on the board (with the king lifted); a
//!   pending return neither blocks nor gives such an attack. Only the finished move
//!   meets the reveal test ("Castling: finish the move, then reveal")
//!   (`rule_castling_judged_before_returns`).
//! - No move captures a king (a king left in check by a destroyed zombie is answered by
//!   its owner on the next turn, as RULES.md says) (`rule_king_never_captured`).
//! - En passant: after a turn with a double step, the last double step of the turn may
//!   be taken en passant during the whole next turn (`rule_en_passant_next_turn`).
//! - With `promotion_choice`, the owner's choice comes right after the end-of-turn reveal
//!   and before the mover's burials, one risen pawn at a time (lowest square first); the
//!   owner acts then even when it is not the mover, and the pawn stands as a queen until
//!   it chooses (`rule_zombie_pawn_last_rank_owner_chooses`). The reveal-into-check test
//!   cannot know the opponent's future choice, so a pawn rising for the opponent on its
//!   last rank counts as attacking if a queen or a knight there would
//!   (`rule_reveal_into_check_counts_every_promotion_choice`).
//! - The 50-move rule is 100 whole turns without capture or pawn move
//!   (`rule_fifty_moves_count_whole_turns`); the ply cap (`ply_cap`) counts whole turns
//!   (`rule_ply_cap_counts_whole_turns`); repetition compares positions at turn starts
//!   (board, zombie marks, both grids) (`rule_repetition_compares_positions_at_turn_starts`).
//!
//! Information: a seat knows its own grid; the opponent's grid is hidden. The belief
//! about the opponent's grid is a forward filter over the public record
//! ([`belief::Filter`]): the set of the opponent's grids consistent with every burial
//! announcement, "cannot bury" and vacated square so far, each weighted by the number of
//! burial-choice histories leading to it. The prior is uniform over the opponent's burial
//! choices (every free square of its pieces equally likely at each burial, independent
//! of the moves); `sample_world` draws a grid with probability proportional to its weight
//! among those that also agree with the legality of the opponent's moves made so far in
//! its current turn (none refused by a reveal into check).
//!
//! When it is exact, and when it approximates: the set is exact as long as it never held
//! more than [`BELIEF_LIMIT`] grids (`belief` returns it; `belief_is_exact` says so).
//! The first event that would take it past that bound makes it a particle filter of
//! [`PARTICLES`] grids (systematic resampling by weight, again after every event that
//! takes it past that number). Particles never contradict the record; the draw is then
//! only approximately the uniform-choice posterior. If a later announcement rules out every
//! particle, the filter is rebuilt from the start with twice the particles, up to
//! [`MAX_ATTEMPT`] times. If all of those die, or if the opponent's moves this turn rule
//! out every remaining grid, `sample_world` searches the record depth first, in an order
//! drawn from its rng, for one grid that agrees with it and with this turn's moves
//! ([`belief::search_grid`], at most [`SEARCH_BUDGET`] choice points: consistent, but
//! not the uniform-choice posterior); only if that search finds none within its budget
//! does the sampled world keep the true grid. A dead filter is cached like a live one
//! (an empty set stays empty), so later calls do not rebuild the attempts: before that
//! fix greedy self-play spent minutes per game rebuilding them after every event
//! (`belief::tests::dead_filter_consumes_the_whole_record`;
//! the search: `search_grid_finds_a_consistent_grid_exactly_when_one_exists`). Resampling draws come from a SplitMix64 stream seeded by the hash of the
//! record, so the filter is a function of the public record alone.
//!
//! Cost: the filter is cached (shared by a game and its clones, keyed by the hash of
//! the record) and extended event by event from the longest cached prefix of the
//! record, so ISMCTS pays for it once per decision at most, and each `sample_world`
//! is a clone plus a binary search over cumulative weights.
//!
//! Speed: every `apply` lists the actions once and `legal_actions` copies that list (at a
//! turn start the same list decides mate and stalemate); after `undo` or in a sampled
//! world (the mover's grid may differ) they are listed again on demand. A move's king
//! safety is judged on bitboards, without playing it, when no burial of the mover lies
//! under a square vacated this turn or under the moving piece (no piece can return);
//! otherwise the move is played on a copy and judged twice, as it stands and with the
//! returns. The legal lists equal a slow mailbox reference written from RULES.md
//! (`engine/tests/zombie_reference.rs`). With the king unattacked
//! and no burial able to return, moves of unpinned pieces other than the king and en
//! passant skip the test (the orthodox pin rule). Recorded games under `results/`
//! replay in CI (`experiments/tests/results_replay.rs`).
//!
//! `information_key(seat)` hashes the public record and the seat's own burial choices
//! only. The properties are tested in `engine/tests/zombie_info.rs`.
//!
//! The full-information twin (issue 67, `open_burials = true`; off by default, and then
//! left out of the serialised parameters so recorded games keep their digest): every
//! burial is made in the open. Both grids are public: the facts say perfect information,
//! `information_key` is the state key, `sample_world` returns the state itself (no
//! belief filter is built), and each seat's observation lists the opponent's burials
//! square by square (`your pieces buried by white: d5:P`). Every rule of play is the
//! seed's, the reveal test included: it reads the mover's own burials only, and the
//! opponent's never made a move legal or illegal (they can only return the mover's own
//! pieces, after the move is judged). Tests (`tests/twin.rs`):
//! `rule_zombie_open_burials_show_the_opponent_where_it_buried`,
//! `rule_zombie_open_burials_play_by_the_same_rules` (seeded random games of the seed's
//! game replay in the twin with the same legal lists, events, states, results and
//! tallies), `rule_zombie_open_burials_is_a_parameter_left_out_when_off`,
//! `conformance_random_games_with_open_burials`, and
//! `open_burials_twin_keys_follow_its_observations` in `engine/tests/zombie_info.rs`.
//!
//! Notation: moves in UCI (`e2e4`, castling `e1g1`, a zombie's move too), `end`,
//! `bury:c6`, `promote:n` (only with `promotion_choice`).
//!
//! Files: `mod.rs` (this: parameters, actions, the game's state, its accessors and the
//! belief cache), `belief.rs` (burial grids and the belief filter), `moves.rs` (move
//! generation and king safety with returning burials), `turn.rs` (the game's end and
//! applying actions), `game.rs` (the `Game` implementation, notation included),
//! `tests/mod.rs` (the `rule_*` tests), `tests/draws.rs` (the end by the common draw rules),
//! `tests/twin.rs` (the open-burials twin).

pub mod belief;
mod game;
mod moves;
#[cfg(test)]
mod tests;
mod turn;

use crate::attacks::between;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    two_seat_returns, validate_ply_cap, Game, GameError, GameFacts, GameResult, InvalidParams,
    Seat, Turn, VariantParams,
};
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::{Color, Piece, Role, Square};
use crate::variants::chess::material_balance;
use crate::variants::{no_moves_result, pseudo_moves};
use crate::zobrist;
pub use belief::{BurialGrid, Event};
use moves::king_exposed;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};
use turn::apply_to_board;

/// Most grids the exact belief may hold before `sample_world` uses the search sampler.
pub const BELIEF_LIMIT: usize = 32_768;

/// Particles of the filter once it is no longer exact ([`belief::Filter`]).
pub const PARTICLES: usize = 4_096;

/// Restarts of the particle filter, each with twice the particles, when a later
/// announcement rules out every particle (the last has `PARTICLES << MAX_ATTEMPT`).
pub const MAX_ATTEMPT: u32 = 4;

/// Choice points the fallback search of `sample_world` may visit
/// ([`belief::search_grid`]).
pub const SEARCH_BUDGET: usize = 200_000;

/// Tunable rules of Zombie Chess (the seed gives no numbers besides the common cap).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ZombieParams {
    /// Whole turns before the game is drawn as `cap`.
    pub ply_cap: u32,
    /// Whether the owner of a zombie pawn rising on its last rank chooses the piece it
    /// returns as (`promote:q`, `promote:r`, `promote:b`, `promote:n`); off (the seed's
    /// rule), it returns as a queen.
    pub promotion_choice: bool,
    /// The full-information twin (issue 67): every burial's square is public; every
    /// other rule stays. Left out of the serialised parameters when off, so the default
    /// set (and the digest of every recorded game) is unchanged.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub open_burials: bool,
}

impl Default for ZombieParams {
    fn default() -> Self {
        ZombieParams {
            ply_cap: 400,
            promotion_choice: false,
            open_burials: false,
        }
    }
}

/// What each of [`ZombieParams`]'s keys is (printed by `chesslab params`).
pub const ZOMBIE_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "whole turns after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "promotion_choice",
        "a zombie pawn rising on its last rank returns as the piece its owner chooses (off, the seed's rule: a queen)",
        "true or false (seed: false)",
    ),
    crate::game::ParamDoc::new(
        "open_burials",
        "the full-information twin: every burial is made in the open (both players see both grids); every other rule is the same, the reveal test included",
        "true or false; unset (the default) is false, the seed's secret burials",
    ),
];

impl VariantParams for ZombieParams {
    const DOCS: &'static [crate::game::ParamDoc] = ZOMBIE_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)
    }
}

/// An action of Zombie Chess.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ZombieAction {
    /// A regular move or a zombie's move.
    Move(Move),
    /// End the turn (reveal, destroy unmoved zombies, then bury).
    End,
    /// Bury the first captured piece waiting for burial under the own piece on this square.
    Bury(Square),
    /// The owner's choice for the zombie pawn risen on its last rank (lowest square
    /// first), with `promotion_choice` on.
    Promote(Role),
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Phase {
    Play,
    /// Owners choose the pieces of zombie pawns risen on their last rank.
    Promote,
    Bury,
}

/// The roles a risen pawn may return as, in the order they are offered.
const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Per-seat counters for [`Game::tallies`].
const TALLY_NAMES: [&str; 6] = [
    "burials",
    "zombies_raised",
    "zombie_moves",
    "zombie_captures",
    "destroyed_unmoved",
    "cannot_bury",
];
const T_BURIALS: usize = 0;
const T_RAISED: usize = 1;
const T_ZMOVES: usize = 2;
const T_ZCAPS: usize = 3;
const T_DESTROYED: usize = 4;
const T_CANNOT: usize = 5;

/// Everything small and copyable an action may change (restored whole by `undo`).
#[derive(Clone, Copy, Debug)]
struct Scalars {
    castling: Bitboard,
    ep: Option<Square>,
    zombies: Bitboard,
    /// Squares where pieces moved to this turn.
    moved: Bitboard,
    /// Squares vacated this turn (announced at its end).
    vacated: Bitboard,
    /// Risen zombie pawns on their last rank waiting for their owner's choice.
    promoting: Bitboard,
    regular_done: bool,
    phase: Phase,
    double_step: Option<Square>,
    irreversible: bool,
    quiet_turns: u32,
    turns: u32,
    public_hash: u64,
    private_hash: [u64; 2],
    tallies: [[u32; 6]; 2],
    outcome: Option<GameResult>,
    grids: [BurialGrid; 2],
}

/// What `undo` needs beyond the scalars.
#[derive(Clone, Debug)]
struct Undo {
    scalars: Scalars,
    /// Board squares as they were, in the order they were changed.
    squares: Vec<(Square, Option<Piece>)>,
    pending: Vec<Piece>,
    events_len: usize,
    turn_keys_len: usize,
    snapshots_len: usize,
    /// The board's own side-to-move fields (castling there changes only at turn starts).
    board_turn: Color,
    board_castling: Bitboard,
    board_ep: Option<Square>,
}

/// A position after a move of the current turn, kept so a seat's belief can apply the
/// mover's legality rule (its pending burials did not check its king).
#[derive(Clone, Debug)]
struct Snapshot {
    board: Board,
    vacated: Bitboard,
    /// The turn number it belongs to.
    turn: u32,
}

/// A Zombie Chess game.
#[derive(Clone, Debug)]
pub struct Zombie {
    board: Board,
    s: Scalars,
    /// Captured pieces of the current turn waiting for burial, in capture order.
    pending: Vec<Piece>,
    events: Vec<Event>,
    /// Position keys at every turn start (repetition).
    turn_keys: Vec<u64>,
    snapshots: Vec<Snapshot>,
    history: Vec<Undo>,
    ply_cap: u32,
    promotion_choice: bool,
    /// The full-information twin: both grids are public (`open_burials`).
    open_burials: bool,
    /// Hash of the public record after each event (parallel to `events`): the key of
    /// the belief cache.
    chain: Vec<u64>,
    /// Belief filters and samplers, shared by this game and its clones (sampled worlds).
    /// Entries are keyed by the public record, so sharing never changes a result.
    cache: Arc<Mutex<BeliefCache>>,
    /// The legal actions at the current state, listed once by every `apply` (at a turn
    /// start the same list judges mate and stalemate) and shared by `legal_actions`;
    /// stale after `undo` (`listed_fresh`), when `legal_actions` lists again.
    listed: Vec<ZombieAction>,
    listed_fresh: bool,
}

/// The forward filters over each player's grid at recent record prefixes (newest
/// last), and the last sampler built from them.
#[derive(Debug, Default)]
struct BeliefCache {
    /// Per burier: (record hash at the filter's length, filter).
    filters: [Vec<(u64, Arc<belief::Filter>)>; 2],
    /// Per burier: (sampler key, sampler).
    samplers: [Option<(u64, Arc<Sampler>)>; 2],
}

/// Filters kept per burier: the current record and a few earlier prefixes (the real
/// game's record grows by one event at a time between searches).
const CACHED_FILTERS: usize = 4;

/// The grids a seat may draw for the opponent at one information state, with
/// cumulative weights for a binary-search draw.
#[derive(Debug)]
struct Sampler {
    grids: Vec<BurialGrid>,
    cumulative: Vec<f64>,
}

/// The record hash after `e`, from the hash `prev` before it.
fn chain_hash(prev: u64, e: &Event) -> u64 {
    let (tag, a, b) = match *e {
        Event::Buried {
            by,
            role,
            candidates,
        } => (
            1 + by.index() as u64 * 16 + role.index() as u64 * 2,
            0,
            candidates.0,
        ),
        Event::CannotBury { by, candidates } => (100 + by.index() as u64, 0, candidates.0),
        Event::Covered { by, sq } => (300 + by.index() as u64, sq.index() as u64, 0),
        Event::Vacated { by, sq, rose } => (
            200 + by.index() as u64,
            sq.index() as u64 * 64
                + rose.map_or(0, |(b, r)| 1 + b.index() as u64 * 8 + r.index() as u64),
            0,
        ),
    };
    mix(mix(mix(prev, tag), a), b)
}

fn mix(h: u64, x: u64) -> u64 {
    zobrist::extra(h.rotate_left(23) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

fn mix_grid(h: u64, g: BurialGrid) -> u64 {
    mix(mix(h, g.bits() as u64), (g.bits() >> 64) as u64)
}

/// Whether a burial of `role` rising for `owner` on `sq` is a pawn on its last rank.
fn rises_promoted(owner: Color, role: Role, sq: Square) -> bool {
    role == Role::Pawn && Bitboard::relative_rank(owner, 7).contains(sq)
}

/// The piece `owner` gets back from a burial of `role` on `sq`: a pawn on its owner's
/// last rank returns as a queen (or as `promoted`, the owner's choice).
fn risen_piece(owner: Color, role: Role, sq: Square, promoted: Role) -> Piece {
    if rises_promoted(owner, role, sq) {
        Piece::new(owner, promoted)
    } else {
        Piece::new(owner, role)
    }
}

impl Zombie {
    /// A game from an orthodox board (no burials, no zombies).
    pub fn from_board(board: Board, ply_cap: u32) -> Zombie {
        let mut board = board;
        board.clear_history();
        let s = Scalars {
            castling: board.castling_rights(),
            ep: board.ep_square(),
            zombies: Bitboard::EMPTY,
            moved: Bitboard::EMPTY,
            vacated: Bitboard::EMPTY,
            promoting: Bitboard::EMPTY,
            regular_done: false,
            phase: Phase::Play,
            double_step: None,
            irreversible: false,
            quiet_turns: 0,
            turns: 0,
            public_hash: mix(board.key(), 0),
            private_hash: [0; 2],
            tallies: [[0; 6]; 2],
            outcome: None,
            grids: [BurialGrid::EMPTY; 2],
        };
        let mut g = Zombie {
            board,
            s,
            pending: Vec::new(),
            events: Vec::new(),
            turn_keys: Vec::new(),
            snapshots: Vec::new(),
            history: Vec::new(),
            ply_cap,
            promotion_choice: false,
            open_burials: false,
            chain: Vec::new(),
            cache: Arc::default(),
            listed: Vec::new(),
            listed_fresh: false,
        };
        g.turn_keys.push(g.position_key());
        g.judge_turn_start();
        g
    }

    /// The game with the parameters `from_board` does not take.
    fn with_params(mut self, params: &ZombieParams) -> Zombie {
        self.promotion_choice = params.promotion_choice;
        self.open_burials = params.open_burials;
        self
    }

    /// Whether burials are public (the `open_burials` twin).
    pub fn open_burials(&self) -> bool {
        self.open_burials
    }

    /// The side whose turn it is (the owner of a risen pawn may choose its piece first:
    /// see [`Game::turn`]).
    pub fn mover(&self) -> Color {
        self.board.turn()
    }

    /// The burials `color` has made (square -> role of the opponent's piece).
    pub fn grid(&self, color: Color) -> BurialGrid {
        self.s.grids[color.index()]
    }

    /// Squares holding zombies (either colour).
    pub fn zombies(&self) -> Bitboard {
        self.s.zombies
    }

    /// The public record so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Captured pieces of this turn still waiting for burial.
    pub fn pending(&self) -> &[Piece] {
        &self.pending
    }

    /// Whether the board's side to move is choosing burials.
    pub fn is_burying(&self) -> bool {
        self.s.phase == Phase::Bury
    }

    /// Sets a burial directly (for tests and set-up): `burier` has buried `role` on `sq`.
    pub fn set_burial(&mut self, burier: Color, sq: Square, role: Option<Role>) {
        let g = self.s.grids[burier.index()].remove(sq);
        self.s.grids[burier.index()] = match role {
            Some(r) => g.insert(sq, r),
            None => g,
        };
        self.refresh_start();
    }

    /// Marks the piece on `sq` as a zombie (for tests and set-up).
    pub fn set_zombie(&mut self, sq: Square, zombie: bool) {
        if zombie {
            self.s.zombies.set(sq);
        } else {
            self.s.zombies.clear(sq);
        }
        self.refresh_start();
    }

    /// After set-up edits: the start keys and outcome follow the edited position.
    fn refresh_start(&mut self) {
        self.listed_fresh = false;
        if self.history.is_empty() {
            self.turn_keys = vec![self.position_key()];
            self.s.public_hash = mix(self.board.key(), self.s.zombies.0);
            self.judge_turn_start();
        }
    }

    /// The exact belief of `seat` about the opponent's grid (see [`belief::worlds`]),
    /// with the opponent's mid-turn legality applied; `None` once the set has passed
    /// [`BELIEF_LIMIT`] grids (the filter is then a particle filter).
    pub fn belief(&self, seat: Seat) -> Option<Vec<(BurialGrid, f64)>> {
        let them = Color::from_index(seat.min(1)).other();
        let f = self.filter(them);
        if !f.is_exact() {
            return None;
        }
        Some(
            f.grids()
                .iter()
                .copied()
                .filter(|(g, _)| self.fits_turn_so_far(them, *g))
                .collect(),
        )
    }

    /// Whether the belief of `seat` is still exact (see [`belief::Filter`]).
    pub fn belief_is_exact(&self, seat: Seat) -> bool {
        let them = Color::from_index(seat.min(1)).other();
        self.filter(them).is_exact()
    }

    /// The record hash after the first `len` events.
    fn chain_at(&self, len: usize) -> u64 {
        if len == 0 {
            0
        } else {
            self.chain[len - 1]
        }
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, BeliefCache> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The forward filter over `burier`'s grid for the whole record: from the cache, or
    /// extended from the longest cached prefix of the record.
    fn filter(&self, burier: Color) -> Arc<belief::Filter> {
        let n = self.events.len();
        let mut cache = self.lock_cache();
        let list = &mut cache.filters[burier.index()];
        let best = list
            .iter()
            .enumerate()
            .filter(|(_, (h, f))| f.len() <= n && self.chain_at(f.len()) == *h)
            .max_by_key(|(_, (_, f))| f.len())
            .map(|(i, _)| i);
        if let Some(i) = best {
            if list[i].1.len() == n {
                return list[i].1.clone();
            }
        }
        let mut f = match best {
            Some(i) => (*list[i].1).clone(),
            None => belief::Filter::new(burier, BELIEF_LIMIT, PARTICLES, 0),
        };
        // Particles all ruled out by a later announcement: start again with twice as
        // many (each attempt is a function of the record, so the result is too).
        while !f.advance(&self.events, &self.chain) && f.attempt() < MAX_ATTEMPT {
            f = belief::Filter::new(burier, BELIEF_LIMIT, PARTICLES, f.attempt() + 1);
        }
        let f = Arc::new(f);
        list.push((self.chain_at(n), f.clone()));
        if list.len() > CACHED_FILTERS {
            list.remove(0);
        }
        f
    }

    /// The sampler of the opponent `them`'s grid at this information state: the
    /// filter's grids that agree with `them`'s moves so far this turn.
    fn sampler(&self, them: Color) -> Arc<Sampler> {
        let n = self.events.len();
        let key = mix(
            mix(self.chain_at(n), n as u64),
            mix(self.s.public_hash, self.snapshots.len() as u64),
        );
        if let Some((k, s)) = &self.lock_cache().samplers[them.index()] {
            if *k == key {
                return s.clone();
            }
        }
        let f = self.filter(them);
        let mut grids = Vec::with_capacity(f.grids().len());
        let mut cumulative = Vec::with_capacity(f.grids().len());
        let mut total = 0.0;
        for &(g, w) in f.grids() {
            if w > 0.0 && self.fits_turn_so_far(them, g) {
                total += w;
                grids.push(g);
                cumulative.push(total);
            }
        }
        let s = Arc::new(Sampler { grids, cumulative });
        self.lock_cache().samplers[them.index()] = Some((key, s.clone()));
        s
    }

    fn push_event(&mut self, e: Event) {
        let h = chain_hash(self.chain_at(self.events.len()), &e);
        self.events.push(e);
        self.chain.push(h);
    }

    /// Whether `grid` as `who`'s burials agrees with the legality of `who`'s moves made
    /// so far in the current turn (none refused by a reveal into check). The other half
    /// of [`king_exposed`], the king unattacked right after each move, does not depend
    /// on the grid and held for every move played.
    fn fits_turn_so_far(&self, who: Color, grid: BurialGrid) -> bool {
        if self.mover() != who || self.s.phase != Phase::Play {
            return true;
        }
        let start = self.turn_snapshot_start();
        self.snapshots[start..]
            .iter()
            .all(|sn| !king_exposed(&sn.board, who, grid, sn.vacated, self.promotion_choice))
    }

    /// Index of the first snapshot of the current turn.
    fn turn_snapshot_start(&self) -> usize {
        let turn = self.s.turns;
        self.snapshots
            .iter()
            .rposition(|s| s.turn != turn)
            .map_or(0, |i| i + 1)
    }

    fn position_key(&self) -> u64 {
        let mut k = mix(self.board.key(), self.s.zombies.0);
        k = mix(k, self.s.castling.0);
        k = mix_grid(k, self.s.grids[0]);
        k = mix_grid(k, self.s.grids[1]);
        k = mix(k, self.s.moved.0);
        k = mix(k, self.s.vacated.0);
        k = mix(k, self.phase_bits());
        k = mix(k, self.s.double_step.map_or(64, |s| s.index() as u64));
        for p in &self.pending {
            k = mix(k, p.index() as u64 + 1);
        }
        k
    }
}

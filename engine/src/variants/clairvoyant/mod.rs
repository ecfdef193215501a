//! Clairvoyant Chess (Clairvoyant seed; docs/RULES.md "Clairvoyant Chess"): before every
//! turn the player not on move guesses what the mover will do, and earns Zorkmids for
//! correct guesses; Zorkmids buy drops, extra moves and retractions of the opponent's
//! move.
//!
//! A turn is a sequence of ordinary decisions (each with its `rule_*` test in `tests.rs`):
//! 1. The guess sheet: the player not on move writes up to `max_guesses` guesses
//!    (`guess:e2`, `guess:e2e4`, `guess:buy:N`, `guess:buy:N@e4`, `guess:extra`) or
//!    `pass` (`rule_guess_sheet_up_to_three`, `rule_fourth_guess_refused`). If the mover
//!    is in check with exactly one orthodox legal move, the guesser earns the flat 12
//!    instead and writes nothing (`rule_flat_twelve`).
//! 2. The mover's own guess that a retraction will be forced (`guess:retract` or `pass`;
//!    `rule_retraction_guess_pays_once`).
//! 3. Drops (`N@e4`) in place of the free move, any number while affordable, then up to
//!    `bought_after_drops` bought moves (`buy:g1f3`) or `pass`
//!    (`rule_drops_replace_the_free_move`, `rule_moves_after_drops`); or the free move in
//!    UCI. A drop is offered whenever the turn can still end legally after it, counting
//!    further drops as well as bought moves: a first drop may leave the king in check if
//!    a later blocking drop ends it (`rule_drop_offered_when_a_later_drop_can_end_the_check`;
//!    the further drops searched are described below).
//! 4. After the free move, the opponent may force a retraction (`retract` or `pass`),
//!    repeatedly while it can pay (see [`retraction`]).
//! 5. Up to `bought_after_move` bought moves (`buy:...`) or `pass`
//!    (`rule_one_bought_move_after_the_free_move`).
//! 6. The end of the turn must leave the mover out of check; then every guess is scored
//!    (see [`guesses`]) and balances change (`rule_guess_scoring_seed_values`,
//!    `rule_castling_destination_earns_plain_king_value`).
//!
//! Prices and the legality of purchases are in [`purchases`]; the tables in [`tables`].
//! Seed examples: capture and buy a retreat (`rule_seed_example_capture_then_retreat`),
//! drop a piece and buy moves for it (`rule_seed_example_drop_then_move_it`), a check
//! then a second checking move by another piece (`rule_checking_piece_may_not_move_again`).
//! Per-game tallies (Zorkmids earned per move, guesses, hits and hit rate by kind,
//! purchases by kind, moves between purchases, retractions, drops by type), read by
//! `chesslab balance`: `tallies_count_earnings_purchases_and_hits_per_side`.
//! Bad input (each refused with its reason, never a panic): an unaffordable purchase
//! (`rule_unaffordable_purchase_refused`), a fourth guess (`rule_fourth_guess_refused`),
//! a drop that gives check (`rule_drop_may_not_check`), a retraction of the only check
//! escape (`rule_no_retraction_of_the_only_escape`), malformed text
//! (`bad_input_is_refused_with_clear_errors`).
//!
//! Speed: `apply` works out the acting seat's legal actions once and caches them (with
//! the free moves' safety, which the retraction price needs); a guess that keeps the
//! sheet open keeps the cache, since the offers only change with the board and the
//! balances; `undo` marks it stale and a stale cache is worked out on demand
//! (`cached_actions_match_a_fresh_computation_in_random_play`). A replay (`apply_text`)
//! leaves the cache stale and checks each recorded action by itself ([`check`]: the move
//! read from its text, then only what that one action's legality needs), and a free move
//! learns whether the retraction has an alternative from the legal moves alone unless
//! none is left (then the unsafe free moves are judged too), so replaying costs about
//! what playing does (the `clairvoyant_replay` bench in `benches/`).
//!
//! Decisions where the texts are silent (RULES.md's decisions are followed as written):
//! - The guesser's sheet is offered in full form only where a guess can score: piece
//!   guesses name one of the mover's pieces; destination guesses name a square that
//!   piece reaches in one move from the start of the turn (castling: the king's square);
//!   in open mode buy and extra-move guesses are offered only when the mover can afford
//!   them (in blind mode the guesser cannot know, so always)
//!   (`rule_guess_offers_follow_the_position`).
//! - Drop guesses (RULES.md) name any square some sequence of this turn's affordable drops
//!   could reach: allowed now, or after a blocking drop between it and the enemy king (one
//!   blocker is always enough, so the search is one scan of the squares between, priced
//!   with the cheapest blocker allowed there: [`purchases::reachable_drop_squares`];
//!   `rule_drop_guess_names_squares_a_blocking_drop_opens`). A mover in check at the start
//!   of the turn must also be able to end the turn after the drop (and its blocker), as
//!   for the drops offered. In blind mode the balance is unknown to the guesser, so price
//!   and check are ignored: every square some sequence of drops could reach.
//! - Further drops after a drop that leaves the king in check ([`purchases::can_end`], a
//!   bounded reading of RULES.md): any number of drops on squares between an enemy
//!   bishop, rook or queen and a square within two king steps of the king (occupancy
//!   ignored: these include every block of the check and of lines to the squares the king
//!   may move to), and drops of a piece that attacks a checking piece (to take it with a
//!   bought move), then the bought moves. Drops elsewhere would count only through a
//!   bought move of the dropped piece to another square or a line to the enemy king;
//!   searching them multiplies the work by every empty square at every level (seconds
//!   per decision in boxed-in positions), so they are left out. Bounded: each drop costs
//!   at least the cheapest drop price, and a set of drops is one memoised position.
//!   Checked against a brute-force mailbox search in `engine/tests/clairvoyant_reference.rs`.
//! - The mover's retraction guess and the retraction step are asked only when a
//!   retraction is possible: in open mode when the opponent can pay the cheapest
//!   retraction; always in blind mode. The retraction step is then asked even when this
//!   move may not be retracted, so `retract` is refused with its reason
//!   (`rule_no_retraction_of_the_only_escape`). Likewise the bought-move step is skipped
//!   in open mode when the mover cannot pay the cheapest move, and asked (with `pass`
//!   the only answer when unaffordable) in blind mode, so skipping never reveals a
//!   secret balance (`rule_one_bought_move_after_the_free_move`).
//! - En passant: only the first move of a turn may take en passant
//!   (`rule_en_passant_only_for_the_first_move`), and a bought move after drops never
//!   does: the drops replaced the move that would have answered the double step
//!   (RULES.md; `rule_bought_move_after_drops_never_takes_en_passant`).
//! - Parameters: every number is a field of [`ClairvoyantParams`], read from TOML over
//!   the seed's values (`rule_params_from_toml`). Bad input is refused with its reason
//!   (`rule_unaffordable_purchase_refused`, `bad_input_is_refused_with_clear_errors`).
//! - How many guesses a sheet holds is public; their content is not.
//! - A side may hold at most two kings. Castling needs exactly one king and keeps its
//!   orthodox attack conditions.
//! - A king of a side with two may stand next to the enemy's only king, and then gives it
//!   check like any piece: the free moves, the flat 12's count and "no legal turn" use
//!   [`purchases::safe_moves`], the orthodox generator's moves less those it lets
//!   through because it never counts a king as a checker (found 2026-11-29 when a panel
//!   game reached a turn with no action; `rule_a_second_king_next_to_the_royal_king_gives_check`).
//! - A drop resets the 50-move count (as a capture or pawn move does).
//! - The game ends at the start of a turn: the ply cap (turns), then no legal turn at all
//!   (checkmate when in check, else stalemate; drops and bought moves count as ways out,
//!   `rule_drop_can_block_mate`), then insufficient material, 50 moves, repetition
//!   (turn-start positions with both balances) (`rule_draws_count_turns`).
//!   Insufficient material is exactly K v K and K+minor v K (`Board::is_bare_material`),
//!   whatever the balances: RULES.md applies the draw, so Zorkmids that could buy pieces
//!   do not make it moot; two minors, same-coloured bishops included, play on
//!   (`rule_insufficient_material_is_only_bare_kings_or_one_minor`).
//! - The slow mailbox reference (`engine/tests/clairvoyant_reference.rs`) checks the free
//!   moves, drops, bought moves, `pass`, the retraction offer and the guess sheet at every
//!   decision of seeded random and greedy games.
//!
//! Information (facts: sequential, imperfect): the mover never sees this turn's sheet
//! before acting, and the guesser does not see the mover's retraction guess. In open
//! mode every sheet is revealed at the end of its turn. In blind mode a player's
//! sheets stay hidden until the player spends, when the whole record up to the last
//! completed turn is revealed; the opponent's balance is then known only as of that
//! point. `information_key(seat)` hashes the public record, the seat's own sheets and
//! the revealed part of the opponent's; `sample_world(seat)` redraws the unrevealed
//! guesses of the opponent uniformly from the sheets it could have written, replaying
//! the record (a redraw that would make a public action illegal is drawn again; after
//! eight failures the true world is kept). Tested in `engine/tests/clairvoyant_info.rs`.
//!
//! Files: `mod.rs` (this: the actions, steps, log entries, the game's state and its
//! accessors), `tables.rs` (parameters and price tables), `guesses.rs` (guesses and their
//! scoring), `purchases.rs` (prices and the legality of drops and bought moves),
//! `retraction.rs` (the retraction price), `offers.rs` (each step's legal actions worked
//! out), `check.rs` (one action checked by itself, for replays), `turn.rs` (the steps of a turn and applying an action), `game.rs` (the `Game`
//! implementation, notation and parsing included), `refusal.rs` (the reason each refused
//! action is given), `tally.rs` (per-game tallies), `tests.rs` (the `rule_*` tests).

pub mod guesses;
pub mod purchases;
pub mod retraction;
pub mod tables;

mod check;
mod game;
mod offers;
mod refusal;
mod tally;
mod turn;

pub use guesses::{Guess, ScoreKind};
pub use tables::{ClairvoyantParams, Costs, GuessValues, RoleTable};

use crate::board::Board;
use crate::game::{two_seat_returns, Game, GameError, GameFacts, GameResult, Seat, Turn};
use crate::moves::{Move, MoveList};
use crate::square::{Color, Role, Square};
use crate::variants::chess::material_balance;
use crate::zobrist;
use purchases::{
    bought_cost, can_end, completes, describe, drop_allowed, drop_squares, finish_turn_move,
    forbidden_after_check, has_safe_move, in_check, mover_moves, place, reachable_drop_squares,
    royal_king, safe_moves, scratch,
};
use rand::{Rng, RngCore};
use tally::tally;

/// One move of a turn, with what pricing and scoring need.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TurnMove {
    pub mv: Move,
    pub from: Square,
    /// Where the moving piece ends (the king's square when castling).
    pub to: Square,
    /// Castling: where the rook ends, and where it started.
    pub rook_to: Option<Square>,
    pub rook_origin: Option<Square>,
    /// Where the piece stood at the start of the turn (or was dropped).
    pub origin: Square,
    /// Its type at the start of the turn.
    pub role: Role,
    pub captured: bool,
    pub pawn: bool,
    pub castle: bool,
    /// The move left the enemy in check.
    pub gave_check: bool,
    /// The move left the mover in check.
    pub into_check: bool,
    pub bought: bool,
    pub retracted: bool,
    pub cost: u32,
}

/// An action of a seat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ClairAction {
    /// A line of the guesser's sheet.
    Guess(Guess),
    /// The mover's `guess:retract`.
    RetractGuess,
    /// Declines a step (ends the sheet, declines the retraction guess or a retraction,
    /// ends the turn after drops or bought moves).
    Pass,
    /// A bought piece dropped (`N@e4`).
    Drop(Role, Square),
    /// The free move (UCI).
    Move(Move),
    /// The opponent forces the free move back.
    Retract,
    /// A bought move (`buy:g1f3`).
    Buy(Move),
}

/// The step of the turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Phase {
    /// The guesser writes its sheet.
    Guess,
    /// The mover decides on `guess:retract`.
    MoverGuess,
    /// The mover drops or makes the free move.
    Start,
    /// After drops: more drops, bought moves, or `pass`.
    Drops,
    /// The guesser may force the free move back.
    Retract,
    /// After a retraction: another free move.
    Free,
    /// Bought moves or `pass`.
    Extra,
    Over,
}

/// One entry of the game's log (public and secret alike; what a seat sees is decided
/// when the log is shown or hashed).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Entry {
    Guess {
        by: Color,
        guess: Guess,
    },
    RetractGuess {
        by: Color,
    },
    Drop {
        by: Color,
        role: Role,
        sq: Square,
        cost: u32,
    },
    Move {
        by: Color,
        m: TurnMove,
    },
    Retraction {
        by: Color,
        cost: u32,
    },
    Score {
        to: Color,
        kind: ScoreKind,
        amount: u32,
    },
    TurnEnd {
        mover: Color,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BoardOp {
    None,
    Make(Move),
    Null,
    Drop(Square),
    Unmake(Move),
}

/// The small state every action saves whole for `undo`.
#[derive(Clone, Copy, Debug)]
struct Scalars {
    phase: Phase,
    mover: Color,
    balance: [u32; 2],
    turn: u32,
    quiet_turns: u32,
    n_guesses: u32,
    bought: u32,
    bought_limit: u32,
    retractions: u32,
    flat: bool,
    start_check: bool,
    retract_guess: bool,
    /// The price of retracting the pending free move, if it may be retracted.
    retract_cost: Option<u32>,
    result: Option<GameResult>,
    /// Running hash of the public record (secret actions as placeholders).
    public: u64,
    /// Running hash of each side's secret actions.
    sheet: [u64; 2],
    sheet_at_start: [u64; 2],
    /// The opponent-visible part of each side's sheet hash, and the record index below
    /// which its secret actions are visible.
    revealed: [u64; 2],
    revealed_rec: [u32; 2],
    turn_start_rec: u32,
    log_start: u32,
    n_turn_keys: u32,
}

#[derive(Clone, Debug)]
struct Record {
    action: ClairAction,
    s: Scalars,
    log_len: u32,
    ops: [BoardOp; 3],
    /// The owner of a secret action.
    secret: Option<Color>,
    /// A log entry this action marked retracted.
    marked: Option<u32>,
}

/// A Clairvoyant Chess game.
#[derive(Clone, Debug)]
pub struct Clairvoyant {
    board: Board,
    params: ClairvoyantParams,
    blind: bool,
    s: Scalars,
    log: Vec<Entry>,
    records: Vec<Record>,
    turn_keys: Vec<u64>,
    cache: Cache,
}

/// The acting seat's legal actions, worked out once by `apply` (and `from_board`) for
/// `legal_actions` and the free move's retraction price to share; `undo` marks it stale
/// and a stale cache is worked out on demand without being stored.
#[derive(Clone, Debug, Default)]
struct Cache {
    fresh: bool,
    actions: Vec<ClairAction>,
    /// In the Start and Free steps: the free moves, with whether each is legal by itself.
    free: Vec<(Move, bool)>,
}

fn mix(h: u64, x: u64) -> u64 {
    zobrist::extra(h.rotate_left(23) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

fn action_code(a: ClairAction) -> u64 {
    let sq = |s: Square| s.index() as u64;
    match a {
        ClairAction::Guess(g) => match g {
            Guess::Piece(s) => 0x100 | sq(s),
            Guess::Destination(a, b) => 0x1_0000 | sq(a) << 6 | sq(b),
            Guess::Buy(r) => 0x200 | r.index() as u64,
            Guess::BuySquare(r, s) => 0x2_0000 | (r.index() as u64) << 6 | sq(s),
            Guess::Extra => 0x300,
        },
        ClairAction::RetractGuess => 0x400,
        ClairAction::Pass => 0x500,
        ClairAction::Drop(r, s) => 0x3_0000 | (r.index() as u64) << 6 | sq(s),
        ClairAction::Move(m) => 0x10_0000 | m.code() as u64,
        ClairAction::Retract => 0x600,
        ClairAction::Buy(m) => 0x20_0000 | m.code() as u64,
    }
}

/// Placeholder for a secret action in the public record.
fn secret_code(owner: Color) -> u64 {
    0x700 + owner.index() as u64
}

/// UCI for a move of `mover` (castling as the king's two-square step).
pub fn uci(mover: Color, m: Move) -> String {
    let to = if m.is_castle() {
        Board::castle_targets(mover, m.from(), m.to()).0
    } else {
        m.to()
    };
    let mut s = format!("{}{to}", m.from());
    if let Some(r) = m.promotion() {
        s.push(r.char());
    }
    s
}

impl Clairvoyant {
    /// A game from `board` (its side to move moves first).
    pub fn from_board(board: Board, params: &ClairvoyantParams) -> Clairvoyant {
        let public = mix(board.key(), 0x636c_6169);
        let mut g = Clairvoyant {
            blind: params.blind(),
            s: Scalars {
                phase: Phase::Guess,
                mover: board.turn(),
                balance: [params.white_balance, params.black_balance],
                turn: 0,
                quiet_turns: 0,
                n_guesses: 0,
                bought: 0,
                bought_limit: 0,
                retractions: 0,
                flat: false,
                start_check: false,
                retract_guess: false,
                retract_cost: None,
                result: None,
                public,
                sheet: [1, 2],
                sheet_at_start: [1, 2],
                revealed: [1, 2],
                revealed_rec: [0; 2],
                turn_start_rec: 0,
                log_start: 0,
                n_turn_keys: 0,
            },
            board,
            params: params.clone(),
            log: Vec::new(),
            records: Vec::new(),
            turn_keys: Vec::new(),
            cache: Cache::default(),
        };
        g.begin_turn(0);
        g.refresh();
        g
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    pub fn params(&self) -> &ClairvoyantParams {
        &self.params
    }

    pub fn phase(&self) -> Phase {
        self.s.phase
    }

    /// The side whose turn it is (the mover; the guesser is the other).
    pub fn mover(&self) -> Color {
        self.s.mover
    }

    pub fn balance(&self, c: Color) -> u32 {
        self.s.balance[c.index()]
    }

    /// Completed turns.
    pub fn turns(&self) -> u32 {
        self.s.turn
    }

    /// The whole log, secret entries included (for `cheat`, tallies and tests).
    pub fn log(&self) -> &[Entry] {
        &self.log
    }

    /// This turn's moves so far (retracted ones marked).
    pub fn turn_moves(&self) -> Vec<TurnMove> {
        self.log[self.s.log_start as usize..]
            .iter()
            .filter_map(|e| match e {
                Entry::Move { m, .. } => Some(*m),
                _ => None,
            })
            .collect()
    }

    /// The guesses written on this turn's sheet so far (secret from the mover).
    pub fn sheet(&self) -> Vec<Guess> {
        self.log[self.s.log_start as usize..]
            .iter()
            .filter_map(|e| match *e {
                Entry::Guess { guess, .. } => Some(guess),
                _ => None,
            })
            .collect()
    }

    /// Whether the mover was in check at the start of the turn.
    pub fn start_check(&self) -> bool {
        self.s.start_check
    }

    /// The price of retracting the pending free move (in the retraction step).
    pub fn retraction_price(&self) -> Option<u32> {
        self.s.retract_cost
    }

    fn guesser(&self) -> Color {
        self.s.mover.other()
    }

    fn actor(&self) -> Option<Color> {
        match self.s.phase {
            Phase::Guess | Phase::Retract => Some(self.guesser()),
            Phase::Over => None,
            _ => Some(self.s.mover),
        }
    }

    fn costs(&self) -> &Costs {
        &self.params.costs
    }
}

#[cfg(test)]
mod tests;

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
//! (`cached_actions_match_a_fresh_computation_in_random_play`).
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

pub mod guesses;
pub mod purchases;
pub mod retraction;
pub mod tables;

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
    forbidden_after_check, in_check, mover_moves, place, reachable_drop_squares, royal_king,
    scratch,
};
use rand::{Rng, RngCore};

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

    // ----- the steps of a turn --------------------------------------------------------

    fn begin_turn(&mut self, rec_index: usize) {
        let mover = self.board.turn();
        let s = &mut self.s;
        s.mover = mover;
        s.turn_start_rec = rec_index as u32;
        s.log_start = self.log.len() as u32;
        s.sheet_at_start = s.sheet;
        s.n_guesses = 0;
        s.bought = 0;
        s.bought_limit = 0;
        s.retractions = 0;
        s.retract_guess = false;
        s.retract_cost = None;
        s.start_check = in_check(&self.board, mover);
        let key = mix(
            self.board.key(),
            (s.balance[0] as u64) << 32 | s.balance[1] as u64,
        );
        self.turn_keys.truncate(s.n_turn_keys as usize);
        self.turn_keys.push(key);
        s.n_turn_keys = self.turn_keys.len() as u32;
        let result = self.end_reason(key);
        self.s.result = result;
        if result.is_some() {
            self.s.phase = Phase::Over;
            return;
        }
        self.s.flat = self.s.start_check && self.board.count_legal_moves() == 1;
        self.s.phase = if self.s.flat || self.params.max_guesses == 0 {
            self.after_sheet()
        } else {
            Phase::Guess
        };
    }

    fn end_reason(&self, key: u64) -> Option<GameResult> {
        let draw = |reason| {
            Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            })
        };
        if self.s.turn >= self.params.ply_cap {
            return draw("cap");
        }
        if !self.has_turn() {
            let mover = self.s.mover;
            return Some(if self.s.start_check {
                GameResult {
                    returns: two_seat_returns(Some(mover.other().index())),
                    reason: "checkmate",
                }
            } else {
                GameResult {
                    returns: two_seat_returns(None),
                    reason: "stalemate",
                }
            });
        }
        if self.board.is_bare_material() {
            return draw("insufficient-material");
        }
        if self.s.quiet_turns >= 100 {
            return draw("fifty-moves");
        }
        let n = self.turn_keys.len();
        let window = (self.s.quiet_turns as usize).min(n.saturating_sub(1));
        let seen = self.turn_keys[n - 1 - window..n - 1]
            .iter()
            .filter(|&&k| k == key)
            .count();
        if seen >= 2 {
            return draw("repetition");
        }
        None
    }

    /// Whether the mover has any way to play a legal turn.
    fn has_turn(&self) -> bool {
        if royal_king(&self.board, self.s.mover).is_some() {
            if self.board.has_legal_moves() {
                return true;
            }
        } else {
            let mut l = MoveList::new();
            mover_moves(&self.board, &mut l);
            if !l.is_empty() {
                return true;
            }
        }
        let mut out = Vec::new();
        self.drops(&mut out);
        self.free_moves(&mut out, &mut Vec::new());
        !out.is_empty()
    }

    fn after_sheet(&self) -> Phase {
        if self.blind || self.s.balance[self.guesser().index()] >= self.costs().min_retraction() {
            Phase::MoverGuess
        } else {
            Phase::Start
        }
    }

    /// Whether the mover gets a bought-move step now.
    fn extra_step(&self) -> bool {
        if in_check(&self.board, self.s.mover) {
            return true;
        }
        self.s.bought < self.s.bought_limit
            && (self.blind
                || self.s.balance[self.s.mover.index()] >= self.costs().min_bought_move())
    }

    fn end_turn(&mut self, rec: &mut Record) {
        let mover = self.s.mover;
        let guesser = mover.other();
        if self.board.turn() == mover {
            self.board.make_null();
            push_op(rec, BoardOp::Null);
        }
        // One pass over this turn's log (the hot path of self-play).
        let mut moves = Vec::with_capacity(4);
        let mut drops = Vec::new();
        let mut sheet = [Guess::Extra; 8];
        let mut n_sheet = 0;
        for e in &self.log[self.s.log_start as usize..] {
            match *e {
                Entry::Move { m, .. } => moves.push(m),
                Entry::Drop { role, sq, .. } => drops.push((role, sq)),
                Entry::Guess { guess, .. } if n_sheet < sheet.len() => {
                    sheet[n_sheet] = guess;
                    n_sheet += 1;
                }
                _ => {}
            }
        }
        let bought = moves.iter().any(|m| m.bought);
        let values = &self.params.values;
        let mut scores = Vec::new();
        if self.s.flat {
            scores.push((guesser, ScoreKind::Flat, values.flat));
        } else {
            for g in &sheet[..n_sheet] {
                let v = g.score(values, &moves, &drops, bought);
                if v > 0 {
                    scores.push((guesser, g.kind(), v));
                }
            }
        }
        if self.s.retract_guess && self.s.retractions > 0 {
            scores.push((mover, ScoreKind::Retraction, values.retraction));
        }
        for (to, kind, amount) in scores {
            let b = &mut self.s.balance[to.index()];
            *b = b.saturating_add(amount);
            self.log.push(Entry::Score { to, kind, amount });
        }
        let irreversible =
            !drops.is_empty() || moves.iter().any(|m| !m.retracted && (m.captured || m.pawn));
        self.s.quiet_turns = if irreversible {
            0
        } else {
            self.s.quiet_turns + 1
        };
        if !self.blind {
            self.s.revealed = self.s.sheet;
            let n = self.records.len() as u32 + 1;
            self.s.revealed_rec = [n; 2];
        }
        self.log.push(Entry::TurnEnd { mover });
        self.s.turn += 1;
        self.begin_turn(self.records.len() + 1);
    }

    /// In blind mode, a spender's record up to the last completed turn is revealed.
    fn spend(&mut self, c: Color, amount: u32) {
        let b = &mut self.s.balance[c.index()];
        *b -= amount;
        if self.blind {
            self.s.revealed[c.index()] = self.s.sheet_at_start[c.index()];
            self.s.revealed_rec[c.index()] = self.s.turn_start_rec;
        }
    }

    // ----- legal actions --------------------------------------------------------------

    fn guesses(&self, out: &mut Vec<ClairAction>) {
        let b = &self.board;
        let mover = self.s.mover;
        let balance = self.s.balance[mover.index()];
        for sq in b.by_color(mover) {
            out.push(ClairAction::Guess(Guess::Piece(sq)));
        }
        let mut list = MoveList::new();
        mover_moves(b, &mut list);
        let mut seen = [0u64; 64];
        for &m in list.iter() {
            let to = if m.is_castle() {
                Board::castle_targets(mover, m.from(), m.to()).0
            } else {
                m.to()
            };
            let bit = 1u64 << to.index();
            if seen[m.from().index()] & bit == 0 {
                seen[m.from().index()] |= bit;
                out.push(ClairAction::Guess(Guess::Destination(m.from(), to)));
            }
        }
        let costs = self.costs();
        // In check, which sequences can still end the turn depends on the balance too:
        // worked out by search (open mode only; blind mode does not know the balance).
        let mut in_check_search = (!self.blind && self.s.start_check)
            .then(|| (scratch(b, mover), purchases::EndMemo::default()));
        for role in Role::ALL {
            let budget = (!self.blind).then_some(balance);
            let mut squares = reachable_drop_squares(b, role, budget, costs);
            if let Some((sc, memo)) = in_check_search.as_mut() {
                squares = self.reachable_in_check(sc, memo, role, squares);
            }
            for sq in squares {
                out.push(ClairAction::Guess(Guess::BuySquare(role, sq)));
            }
            if squares.any() {
                out.push(ClairAction::Guess(Guess::Buy(role)));
            }
        }
        if self.blind || balance >= costs.min_bought_move() {
            out.push(ClairAction::Guess(Guess::Extra));
        }
    }

    /// Of `squares` (where `role` could be dropped after at most one blocking drop, by
    /// price and placement), those some sequence of drops that can end the turn legally
    /// reaches, for a mover in check at the start of the turn (`sc`: the start position,
    /// the mover to move). A drop allowed now is reachable if the turn can end after it
    /// (drops commute, and it may come first); else it needs one of the blockers allowed
    /// now first (see [`purchases::reachable_drop_squares`]), and the turn must be able to
    /// end after both (further drops included).
    fn reachable_in_check(
        &self,
        sc: &mut Board,
        memo: &mut purchases::EndMemo,
        role: Role,
        squares: crate::bitboard::Bitboard,
    ) -> crate::bitboard::Bitboard {
        let balance = self.s.balance[self.s.mover.index()];
        let costs = self.costs();
        let cost = costs.drop.get(role);
        let (left, start_check) = (self.params.bought_after_drops, self.s.start_check);
        let enemy_king = royal_king(sc, self.s.mover.other());
        let mut out = crate::bitboard::Bitboard::EMPTY;
        for sq in squares {
            let ok = if drop_allowed(sc, role, sq) {
                place(sc, role, sq);
                let ok = can_end(sc, balance - cost, left, start_check, costs, memo);
                sc.set_piece(sq, None);
                ok
            } else {
                let between = enemy_king.map_or(crate::bitboard::Bitboard::EMPTY, |k| {
                    crate::attacks::between(sq, k)
                });
                let mut ok = false;
                'blockers: for t in between {
                    for r in Role::ALL {
                        let c = costs.drop.get(r);
                        if c + cost > balance || !drop_allowed(sc, r, t) {
                            continue;
                        }
                        place(sc, r, t);
                        if drop_allowed(sc, role, sq) {
                            place(sc, role, sq);
                            ok = can_end(sc, balance - cost - c, left, start_check, costs, memo);
                            sc.set_piece(sq, None);
                        }
                        sc.set_piece(t, None);
                        if ok {
                            break 'blockers;
                        }
                    }
                }
                ok
            };
            if ok {
                out |= crate::bitboard::Bitboard::from_square(sq);
            }
        }
        out
    }

    /// Drops the mover may make now: affordable, allowed, and the turn can still end
    /// legally after it, by further drops and bought moves ([`can_end`]).
    fn drops(&self, out: &mut Vec<ClairAction>) {
        let mover = self.s.mover;
        let balance = self.s.balance[mover.index()];
        let costs = self.costs();
        if balance < costs.drop.min() || self.board.turn() != mover {
            return;
        }
        let checked = in_check(&self.board, mover);
        let mut sc = if checked {
            Some(scratch(&self.board, mover))
        } else {
            None
        };
        let mut memo = purchases::EndMemo::default();
        for role in Role::ALL {
            let cost = costs.drop.get(role);
            if cost > balance {
                continue;
            }
            for sq in drop_squares(&self.board, role) {
                let ok = match sc.as_mut() {
                    None => true,
                    Some(b) => {
                        place(b, role, sq);
                        let ok = can_end(
                            b,
                            balance - cost,
                            self.params.bought_after_drops,
                            self.s.start_check,
                            costs,
                            &mut memo,
                        );
                        b.set_piece(sq, None);
                        ok
                    }
                };
                if ok {
                    out.push(ClairAction::Drop(role, sq));
                }
            }
        }
    }

    /// Free moves (with whether each is legal by itself), excluding retracted ones.
    fn free_options(&self, out: &mut Vec<(Move, bool)>) {
        let mover = self.s.mover;
        let retracted: Vec<Move> = if self.s.retractions == 0 {
            Vec::new()
        } else {
            self.turn_moves()
                .iter()
                .filter(|m| m.retracted)
                .map(|m| m.mv)
                .collect()
        };
        if royal_king(&self.board, mover).is_none() {
            let mut l = MoveList::new();
            mover_moves(&self.board, &mut l);
            out.extend(
                l.iter()
                    .filter(|m| !retracted.contains(m))
                    .map(|&m| (m, true)),
            );
            return;
        }
        let legal = self.board.legal_moves();
        out.extend(
            legal
                .iter()
                .filter(|m| !retracted.contains(m))
                .map(|&m| (m, true)),
        );
        let balance = self.s.balance[mover.index()];
        let costs = self.costs();
        if self.params.bought_after_move == 0 || balance < costs.min_bought_move() {
            return;
        }
        let mut b = scratch(&self.board, mover);
        // The board keeps the en passant square for the free move.
        let mut l = MoveList::new();
        mover_moves(&self.board, &mut l);
        for &m in l.iter() {
            if legal.contains(m) || retracted.contains(&m) {
                continue;
            }
            let ok = if m.kind() == crate::moves::MoveKind::EnPassant {
                let mut full = self.board.clone();
                let mut tm = describe(&full, m, &[], false, 0);
                full.make(m);
                finish_turn_move(&full, mover, &mut tm);
                full.make_null();
                completes(
                    &mut full,
                    &mut vec![tm],
                    balance,
                    self.params.bought_after_move,
                    self.s.start_check,
                    costs,
                )
            } else {
                let mut tm = describe(&b, m, &[], false, 0);
                b.make(m);
                finish_turn_move(&b, mover, &mut tm);
                b.make_null();
                let ok = completes(
                    &mut b,
                    &mut vec![tm],
                    balance,
                    self.params.bought_after_move,
                    self.s.start_check,
                    costs,
                );
                b.unmake_null();
                b.unmake();
                ok
            };
            if ok {
                out.push((m, false));
            }
        }
    }

    fn free_moves(&self, out: &mut Vec<ClairAction>, free: &mut Vec<(Move, bool)>) {
        free.clear();
        self.free_options(free);
        out.extend(free.iter().map(|&(m, _)| ClairAction::Move(m)));
    }

    /// Works out the actor's legal actions again after the state changed.
    fn refresh(&mut self) {
        let mut actions = std::mem::take(&mut self.cache.actions);
        let mut free = std::mem::take(&mut self.cache.free);
        actions.clear();
        free.clear();
        self.compute_actions(&mut actions, &mut free);
        self.cache = Cache {
            fresh: true,
            actions,
            free,
        };
    }

    /// Bought moves the mover may make now.
    fn bought_moves(&self, out: &mut Vec<ClairAction>) {
        if self.s.bought >= self.s.bought_limit {
            return;
        }
        let mover = self.s.mover;
        let balance = self.s.balance[mover.index()];
        let costs = self.costs();
        if balance < costs.min_bought_move() {
            return;
        }
        let mut moves = self.turn_moves();
        moves.retain(|m| !m.retracted);
        let left = self.s.bought_limit - self.s.bought;
        // Never en passant: a bought move follows the free move or drops, and drops
        // replace the move that would have answered the double step (RULES.md;
        // `rule_bought_move_after_drops_never_takes_en_passant`).
        let mut b = scratch(&self.board, mover);
        let mut l = MoveList::new();
        mover_moves(&b, &mut l);
        for &m in l.iter() {
            if forbidden_after_check(&moves, m) {
                continue;
            }
            let cost = bought_cost(&b, m, &moves, self.s.start_check, costs);
            if cost > balance {
                continue;
            }
            b.make(m);
            let into_check = in_check(&b, mover);
            b.unmake();
            // The move's record is needed only to price a repair after it.
            let ok = !into_check
                || (left > 1 && {
                    let mut tm = describe(&b, m, &moves, true, cost);
                    b.make(m);
                    finish_turn_move(&b, mover, &mut tm);
                    b.make_null();
                    moves.push(tm);
                    let r = completes(
                        &mut b,
                        &mut moves,
                        balance - cost,
                        left - 1,
                        self.s.start_check,
                        costs,
                    );
                    moves.pop();
                    b.unmake_null();
                    b.unmake();
                    r
                });
            if ok {
                out.push(ClairAction::Buy(m));
            }
        }
    }

    /// The price of a bought move now (before it is made).
    fn price_of(&self, m: Move) -> (u32, TurnMove) {
        let mut moves = self.turn_moves();
        moves.retain(|m| !m.retracted);
        let b = if self.board.turn() == self.s.mover {
            std::borrow::Cow::Borrowed(&self.board)
        } else {
            std::borrow::Cow::Owned(scratch(&self.board, self.s.mover))
        };
        let cost = bought_cost(&b, m, &moves, self.s.start_check, self.costs());
        (cost, describe(&b, m, &moves, true, cost))
    }

    // ----- applying -------------------------------------------------------------------

    fn do_free(&mut self, m: Move, rec: &mut Record) {
        let mover = self.s.mover;
        let guesser = mover.other();
        let may_pay =
            self.blind || self.s.balance[guesser.index()] >= self.costs().min_retraction();
        let (mut alternative, mut other_escape) = (false, false);
        if may_pay {
            let fresh;
            let opts = if self.cache.fresh {
                &self.cache.free
            } else {
                let mut v = Vec::new();
                self.free_options(&mut v);
                fresh = v;
                &fresh
            };
            for &(x, safe) in opts {
                if x != m {
                    alternative = true;
                    other_escape |= safe;
                }
            }
        }
        let mut tm = describe(&self.board, m, &[], false, 0);
        self.board.make(m);
        push_op(rec, BoardOp::Make(m));
        finish_turn_move(&self.board, mover, &mut tm);
        self.log.push(Entry::Move { by: mover, m: tm });
        self.s.retract_cost = if may_pay {
            retraction::retraction_cost(
                self.costs(),
                self.s.start_check,
                &tm,
                alternative,
                other_escape,
            )
        } else {
            None
        };
        // The step is asked whenever the guesser might pay, so a refused retraction
        // (the only escape, no other move) is answered with its reason.
        if may_pay {
            self.s.phase = Phase::Retract;
        } else {
            self.free_accepted(rec);
        }
    }

    fn free_accepted(&mut self, rec: &mut Record) {
        self.s.bought_limit = self.params.bought_after_move;
        if self.extra_step() {
            self.s.phase = Phase::Extra;
        } else {
            self.end_turn(rec);
        }
    }

    fn do_bought(&mut self, m: Move, rec: &mut Record) {
        let mover = self.s.mover;
        let (cost, mut tm) = self.price_of(m);
        if self.board.turn() != mover {
            self.board.make_null();
            push_op(rec, BoardOp::Null);
        }
        self.board.make(m);
        push_op(rec, BoardOp::Make(m));
        finish_turn_move(&self.board, mover, &mut tm);
        self.log.push(Entry::Move { by: mover, m: tm });
        self.spend(mover, cost);
        self.s.bought += 1;
        if self.extra_step() {
            self.s.phase = Phase::Extra;
        } else {
            self.end_turn(rec);
        }
    }

    /// The actor's legal actions worked out afresh (`out` is empty on entry); in the
    /// Start and Free steps `free` receives the free moves with their safety.
    fn compute_actions(&self, out: &mut Vec<ClairAction>, free: &mut Vec<(Move, bool)>) {
        match self.s.phase {
            Phase::Guess => {
                if self.s.n_guesses < self.params.max_guesses {
                    self.guesses(out);
                }
                out.push(ClairAction::Pass);
            }
            Phase::MoverGuess => {
                out.push(ClairAction::RetractGuess);
                out.push(ClairAction::Pass);
            }
            Phase::Start => {
                self.drops(out);
                self.free_moves(out, free);
            }
            Phase::Drops => {
                if self.s.bought == 0 {
                    self.drops(out);
                }
                self.bought_moves(out);
                if self.can_pass() {
                    out.push(ClairAction::Pass);
                }
            }
            Phase::Free => self.free_moves(out, free),
            Phase::Retract => {
                if self
                    .s
                    .retract_cost
                    .is_some_and(|c| self.s.balance[self.guesser().index()] >= c)
                {
                    out.push(ClairAction::Retract);
                }
                out.push(ClairAction::Pass);
            }
            Phase::Extra => {
                self.bought_moves(out);
                if self.can_pass() {
                    out.push(ClairAction::Pass);
                }
            }
            Phase::Over => {}
        }
    }

    fn can_pass(&self) -> bool {
        !in_check(&self.board, self.s.mover)
    }
}

fn push_op(rec: &mut Record, op: BoardOp) {
    if let Some(slot) = rec.ops.iter_mut().find(|o| **o == BoardOp::None) {
        *slot = op;
    } else {
        unreachable!("an action makes at most three board operations");
    }
}

impl Clairvoyant {
    /// The legal actions of the kind `text` names, enough to check that one action: the
    /// cached list when it is fresh, else only the part of `compute_actions` that kind
    /// comes from (free moves without drops, a guess sheet without purchases, ...), and
    /// the whole list for anything else (its refusal then names what is wrong).
    fn offered_like(&self, text: &str, out: &mut Vec<ClairAction>) {
        if self.cache.fresh {
            out.extend_from_slice(&self.cache.actions);
            return;
        }
        let phase = self.s.phase;
        let guess = text.starts_with("guess:") && text != "guess:retract";
        let buy = text.starts_with("buy:");
        let drop = !guess && !buy && text.contains('@');
        let other = guess || buy || drop || matches!(text, "pass" | "retract" | "guess:retract");
        match phase {
            Phase::Guess if guess => {
                if self.s.n_guesses < self.params.max_guesses {
                    self.guesses(out);
                }
            }
            Phase::Guess | Phase::MoverGuess | Phase::Retract if text == "pass" => {
                out.push(ClairAction::Pass)
            }
            Phase::Start | Phase::Drops if drop => {
                if phase == Phase::Start || self.s.bought == 0 {
                    self.drops(out);
                }
            }
            Phase::Drops | Phase::Extra if buy => self.bought_moves(out),
            Phase::Drops | Phase::Extra if text == "pass" => {
                if self.can_pass() {
                    out.push(ClairAction::Pass);
                }
            }
            Phase::Start | Phase::Free if !other => self.free_moves(out, &mut Vec::new()),
            _ => self.compute_actions(out, &mut Vec::new()),
        }
    }

    /// `apply`, then the next legal list worked out and cached (`refresh`), or only
    /// marked stale (for replays, which check each recorded action by its kind alone).
    fn apply_then(&mut self, action: ClairAction, refresh: bool) {
        let mut rec = Record {
            action,
            s: self.s,
            log_len: self.log.len() as u32,
            ops: [BoardOp::None; 3],
            secret: None,
            marked: None,
        };
        let mover = self.s.mover;
        let guesser = mover.other();
        let was_guess = self.s.phase == Phase::Guess;
        match (self.s.phase, action) {
            (Phase::Guess, ClairAction::Guess(g)) => {
                rec.secret = Some(guesser);
                self.log.push(Entry::Guess {
                    by: guesser,
                    guess: g,
                });
                self.s.n_guesses += 1;
                if self.s.n_guesses >= self.params.max_guesses {
                    self.s.phase = self.after_sheet();
                }
            }
            (Phase::Guess, ClairAction::Pass) => self.s.phase = self.after_sheet(),
            (Phase::MoverGuess, ClairAction::RetractGuess | ClairAction::Pass) => {
                rec.secret = Some(mover);
                if action == ClairAction::RetractGuess {
                    self.s.retract_guess = true;
                    self.log.push(Entry::RetractGuess { by: mover });
                }
                self.s.phase = Phase::Start;
            }
            (Phase::Start | Phase::Drops, ClairAction::Drop(role, sq)) => {
                let cost = self.costs().drop.get(role);
                place(&mut self.board, role, sq);
                push_op(&mut rec, BoardOp::Drop(sq));
                self.log.push(Entry::Drop {
                    by: mover,
                    role,
                    sq,
                    cost,
                });
                self.spend(mover, cost);
                self.s.bought_limit = self.params.bought_after_drops;
                self.s.phase = Phase::Drops;
            }
            (Phase::Drops, ClairAction::Buy(m)) | (Phase::Extra, ClairAction::Buy(m)) => {
                self.do_bought(m, &mut rec);
            }
            (Phase::Drops | Phase::Extra, ClairAction::Pass) => self.end_turn(&mut rec),
            (Phase::Start | Phase::Free, ClairAction::Move(m)) => self.do_free(m, &mut rec),
            (Phase::Retract, ClairAction::Retract) => {
                let cost = self
                    .s
                    .retract_cost
                    .expect("retraction offered with a price");
                let idx = self
                    .log
                    .iter()
                    .rposition(|e| matches!(e, Entry::Move { .. }));
                let idx = idx.expect("a free move to retract");
                if let Entry::Move { m, .. } = &mut self.log[idx] {
                    m.retracted = true;
                    let mv = m.mv;
                    self.board.unmake();
                    push_op(&mut rec, BoardOp::Unmake(mv));
                }
                rec.marked = Some(idx as u32);
                self.log.push(Entry::Retraction { by: guesser, cost });
                self.spend(guesser, cost);
                self.s.retractions += 1;
                self.s.retract_cost = None;
                self.s.phase = Phase::Free;
            }
            (Phase::Retract, ClairAction::Pass) => {
                self.s.retract_cost = None;
                self.free_accepted(&mut rec);
            }
            (phase, a) => panic!("clairvoyant: {a:?} does not fit the step {phase:?}"),
        }
        let code = match rec.secret {
            Some(owner) => {
                let i = owner.index();
                self.s.sheet[i] = mix(self.s.sheet[i], action_code(action));
                secret_code(owner)
            }
            None => action_code(action),
        };
        self.s.public = mix(self.s.public, code);
        // A turn that ended inside this action already took its sheet snapshot with the
        // old value; secret actions never end a turn, so nothing to fix there.
        self.records.push(rec);
        // A guess leaves the board and the balances alone: while the sheet stays open,
        // the offers are the same.
        if !(was_guess && self.s.phase == Phase::Guess && self.cache.fresh) {
            if refresh {
                self.refresh();
            } else {
                self.cache.fresh = false;
            }
        }
    }
}

impl Game for Clairvoyant {
    type Action = ClairAction;
    type Params = ClairvoyantParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC.with_hidden_information(true)
    }

    fn new(params: &ClairvoyantParams) -> Clairvoyant {
        Clairvoyant::from_board(Board::startpos(), params)
    }

    fn from_opening(params: &ClairvoyantParams, opening: &str) -> Result<Clairvoyant, GameError> {
        let board = Board::from_fen(opening).map_err(|e| GameError::opening_fen(opening, e))?;
        for c in Color::BOTH {
            if board.pieces(c, Role::King).count() != 1 {
                return Err(GameError::opening(opening, "each side needs one king"));
            }
        }
        Ok(Clairvoyant::from_board(board, params))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.actor() {
            Some(c) => Turn::Seat(c.index()),
            None => Turn::Terminal,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<ClairAction>) {
        out.clear();
        if self.actor().map(Color::index) != Some(seat) {
            return;
        }
        if self.cache.fresh {
            out.extend_from_slice(&self.cache.actions);
        } else {
            self.compute_actions(out, &mut Vec::new());
        }
    }

    fn apply(&mut self, action: ClairAction) {
        self.apply_then(action, true);
    }

    /// Checks only the action `text` names (`offered_like`) and leaves the next legal
    /// list to be worked out on demand: replaying a record costs what its actions do,
    /// not a full list per action (`parse_checks_only_the_kind_named_and_agrees_with_the_list`).
    fn apply_text(&mut self, text: &str) -> Result<ClairAction, GameError> {
        let act = self.parse_action(text)?;
        self.apply_then(act, false);
        Ok(act)
    }

    fn undo(&mut self) {
        let rec = self.records.pop().expect("undo without an action");
        for op in rec.ops.iter().rev() {
            match *op {
                BoardOp::None => {}
                BoardOp::Make(_) => {
                    self.board.unmake();
                }
                BoardOp::Null => self.board.unmake_null(),
                BoardOp::Drop(sq) => self.board.set_piece(sq, None),
                BoardOp::Unmake(m) => self.board.make(m),
            }
        }
        if let Some(i) = rec.marked {
            if let Entry::Move { m, .. } = &mut self.log[i as usize] {
                m.retracted = false;
            }
        }
        self.log.truncate(rec.log_len as usize);
        self.s = rec.s;
        self.turn_keys.truncate(self.s.n_turn_keys as usize);
        self.cache.fresh = false;
    }

    fn result(&self) -> Option<GameResult> {
        self.s.result
    }

    fn state_key(&self) -> u64 {
        let s = &self.s;
        let bal = (s.balance[0] as u64) << 32 | s.balance[1] as u64;
        mix(
            mix(mix(mix(s.public, self.board.key()), s.sheet[0]), s.sheet[1]),
            bal,
        )
    }

    fn information_key(&self, seat: Seat) -> u64 {
        let me = seat.min(1);
        let them = 1 - me;
        let s = &self.s;
        let mut k = mix(mix(s.public, self.board.key()), s.sheet[me]);
        k = mix(k, s.revealed[them]);
        k = mix(k, s.balance[me] as u64 | 1 << 40);
        if !self.blind {
            k = mix(k, s.balance[them] as u64 | 1 << 41);
        }
        mix(k, 0x5eed + me as u64)
    }

    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Clairvoyant {
        let them = Color::from_index(1 - seat.min(1));
        let from = self.s.revealed_rec[them.index()] as usize;
        let first = (from..self.records.len()).find(|&i| self.records[i].secret == Some(them));
        let Some(first) = first else {
            return self.clone();
        };
        let actions: Vec<(ClairAction, bool, Phase, Color)> = self.records[first..]
            .iter()
            .map(|r| (r.action, r.secret == Some(them), r.s.phase, r.s.mover))
            .collect();
        let mut legal = Vec::new();
        'attempt: for _ in 0..8 {
            let mut w = self.clone();
            while w.records.len() > first {
                w.undo();
            }
            for &(a, secret, phase, mover) in &actions {
                // The step sequence is public: a redraw must reproduce it exactly.
                let Turn::Seat(actor) = w.turn() else {
                    continue 'attempt;
                };
                if w.s.phase != phase || w.s.mover != mover {
                    continue 'attempt;
                }
                w.legal_actions(actor, &mut legal);
                let pick = if secret {
                    let same_kind: Vec<ClairAction> = legal
                        .iter()
                        .copied()
                        .filter(|x| match a {
                            ClairAction::Guess(_) => matches!(x, ClairAction::Guess(_)),
                            _ => true,
                        })
                        .collect();
                    if same_kind.is_empty() {
                        continue 'attempt;
                    }
                    same_kind[rng.gen_range(0..same_kind.len())]
                } else if legal.contains(&a) {
                    a
                } else {
                    continue 'attempt;
                };
                w.apply(pick);
            }
            return w;
        }
        self.clone()
    }

    fn observation(&self, seat: Seat) -> String {
        let me = Color::from_index(seat.min(1));
        let them = me.other();
        let s = &self.s;
        let mut replay = self.clone();
        while !replay.records.is_empty() {
            replay.undo();
        }
        let mut log = Vec::with_capacity(self.records.len());
        for (i, r) in self.records.iter().enumerate() {
            let visible = match r.secret {
                None => true,
                Some(o) => o == me || i < s.revealed_rec[o.index()] as usize,
            };
            log.push(if visible {
                replay.action_notation(r.action)
            } else {
                format!("?{}", &r.secret.map_or("", |c| c.name())[..1])
            });
            replay.apply(r.action);
        }
        let their_balance = if self.blind {
            "secret".to_string()
        } else {
            s.balance[them.index()].to_string()
        };
        format!(
            "{} | turn {} | {:?} step, {} to act | you are {}: {}Z; {}: {}Z | record: {}",
            self.board.fen(),
            s.turn + 1,
            s.phase,
            self.actor().map_or("nobody", |c| c.name()),
            me.name(),
            s.balance[me.index()],
            them.name(),
            their_balance,
            if log.is_empty() {
                "-".into()
            } else {
                log.join(" ")
            }
        )
    }

    fn action_notation(&self, action: ClairAction) -> String {
        match action {
            ClairAction::Guess(g) => format!("guess:{}", g.notation()),
            ClairAction::RetractGuess => "guess:retract".into(),
            ClairAction::Pass => "pass".into(),
            ClairAction::Drop(r, sq) => format!("{}@{sq}", r.char().to_ascii_uppercase()),
            ClairAction::Move(m) => uci(self.s.mover, m),
            ClairAction::Retract => "retract".into(),
            ClairAction::Buy(m) => format!("buy:{}", uci(self.s.mover, m)),
        }
    }

    fn parse_action(&self, text: &str) -> Result<ClairAction, GameError> {
        let t = text.trim();
        let err = |m: String| GameError::Action {
            action: text.into(),
            message: m,
        };
        if self.s.phase == Phase::Over {
            return Err(err("the game is over".into()));
        }
        if self.actor().is_none() {
            return Err(err("nobody is to act".into()));
        }
        let mut legal = Vec::new();
        self.offered_like(t, &mut legal);
        let wanted = if t == "pass" {
            ClairAction::Pass
        } else if t == "retract" {
            ClairAction::Retract
        } else if t == "guess:retract" {
            ClairAction::RetractGuess
        } else if let Some(g) = t.strip_prefix("guess:") {
            match Guess::parse(g) {
                Some(g) => ClairAction::Guess(g),
                None => {
                    return Err(err(
                        "a guess is guess:e2, guess:e2e4, guess:buy:N, guess:buy:N@e4, \
                         guess:extra or guess:retract"
                            .into(),
                    ))
                }
            }
        } else if let Some((r, sq)) = t.split_once('@') {
            let role = r
                .chars()
                .next()
                .filter(|_| r.len() == 1)
                .and_then(|c| Role::from_char(c.to_ascii_lowercase()));
            match (role, Square::parse(sq)) {
                (Some(role), Some(sq)) => ClairAction::Drop(role, sq),
                _ => return Err(err("a drop is like N@e4".into())),
            }
        } else {
            let (body, bought) = match t.strip_prefix("buy:") {
                Some(b) => (b, true),
                None => (t, false),
            };
            let found = legal.iter().copied().find(|&a| match a {
                ClairAction::Buy(m) if bought => uci(self.s.mover, m) == body,
                ClairAction::Move(m) if !bought => uci(self.s.mover, m) == body,
                _ => false,
            });
            match found {
                Some(a) => a,
                None => return Err(err(self.refusal(t, bought))),
            }
        };
        if legal.contains(&wanted) {
            Ok(wanted)
        } else {
            Err(err(self.refusal_of(wanted)))
        }
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat.min(1)))
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The piece differences, then `zorkmids`: White's balance minus Black's (the true
    /// balances, secret or not: values are learned from whole records), so `chesslab
    /// values` can state Zorkmids per pawn (`features_add_the_zorkmid_balance`).
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = crate::game::material_features(&self.board);
        let zk = self.s.balance[0] as f64 - self.s.balance[1] as f64;
        f.push(("zorkmids".to_string(), zk));
        f
    }

    fn action_move(&self, action: ClairAction) -> Option<Move> {
        match action {
            ClairAction::Move(m) | ClairAction::Buy(m) => Some(m),
            _ => None,
        }
    }

    fn tallies(&self) -> Vec<(String, f64)> {
        tally(self)
    }
}

impl Clairvoyant {
    /// Why a move or bought move in `text` is refused.
    fn refusal(&self, text: &str, bought: bool) -> String {
        let step = self.s.phase;
        if bought {
            if !matches!(step, Phase::Drops | Phase::Extra) {
                return format!("no bought move is possible in the {step:?} step");
            }
            if self.s.bought >= self.s.bought_limit {
                return "no more bought moves this turn (the two-move limit)".into();
            }
            return format!(
                "'{text}' is not an affordable bought move that can end the turn legally \
                 (balance {}Z)",
                self.s.balance[self.s.mover.index()]
            );
        }
        if !matches!(step, Phase::Start | Phase::Free) {
            return format!("the free move is not due in the {step:?} step");
        }
        format!("'{text}' is not a legal free move here")
    }

    fn refusal_of(&self, a: ClairAction) -> String {
        let step = self.s.phase;
        let mover = self.s.mover;
        match a {
            ClairAction::Guess(_) => {
                if self.s.n_guesses >= self.params.max_guesses {
                    format!(
                        "the sheet is full: at most {} guesses",
                        self.params.max_guesses
                    )
                } else if step != Phase::Guess {
                    format!("no guess sheet is open in the {step:?} step")
                } else {
                    "that guess names nothing the mover can do (see the guess rules)".into()
                }
            }
            ClairAction::RetractGuess => "the retraction guess is not due now".into(),
            ClairAction::Drop(role, sq) => {
                let cost = self.costs().drop.get(role);
                let bal = self.s.balance[mover.index()];
                if !matches!(step, Phase::Start | Phase::Drops) || self.s.bought > 0 {
                    format!("no drop is possible in the {step:?} step")
                } else if cost > bal {
                    format!("cannot afford the drop: it costs {cost}Z, the balance is {bal}Z")
                } else if self.board.piece_at(sq).is_some() {
                    format!("{sq} is occupied")
                } else if role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
                    "a pawn may not be dropped on the first or last rank".into()
                } else if !drop_allowed(&self.board, role, sq) {
                    "a dropped piece may not give check (or: a side has at most two kings)".into()
                } else {
                    "after this drop the turn cannot end with the king safe".into()
                }
            }
            ClairAction::Retract => match self.s.retract_cost {
                _ if step != Phase::Retract => "no free move to retract now".into(),
                None if self.s.start_check => "this move may not be retracted: it is the \
                     mover's only escape from check"
                    .into(),
                None => "this move may not be retracted: the mover has no other move that \
                         ends the turn legally"
                    .into(),
                Some(c) => format!(
                    "cannot afford the retraction: it costs {c}Z, the balance is {}Z",
                    self.s.balance[mover.other().index()]
                ),
            },
            ClairAction::Pass => {
                if in_check(&self.board, mover) {
                    "the turn cannot end with the mover's king in check".into()
                } else {
                    format!("'pass' is not possible in the {step:?} step")
                }
            }
            _ => "not a legal action here".into(),
        }
    }
}

/// Per game and side (`white_*`, `black_*`): `earned` (Zorkmids from guesses),
/// `earned_per_move` (per opponent turn guessed on), `guesses_{kind}` and
/// `hits_{kind}` (kinds: piece, destination, buy, buy_square, extra, retraction, flat),
/// `drops`, `drops_{type}`, `bought_moves`, `retractions` (forced on the opponent),
/// `spent`, `purchases` (turns with any spending by the side), `moves` (own turns),
/// `moves_between_purchases` (own turns per purchase turn; left out without purchases).
fn tally(g: &Clairvoyant) -> Vec<(String, f64)> {
    #[derive(Default, Clone)]
    struct Side {
        earned: f64,
        guessed_turns: f64,
        moves: f64,
        guesses: [f64; 7],
        hits: [f64; 7],
        drops: [f64; 6],
        bought: f64,
        retractions: f64,
        spent: f64,
        purchase_turns: f64,
        spent_this_turn: bool,
    }
    let mut sides = [Side::default(), Side::default()];
    let kind_index = |k: ScoreKind| ScoreKind::ALL.iter().position(|&x| x == k).unwrap_or(0);
    let mut flat_turn = false;
    for e in &g.log {
        match *e {
            Entry::Guess { by, guess } => {
                sides[by.index()].guesses[kind_index(guess.kind())] += 1.0
            }
            Entry::RetractGuess { by } => {
                sides[by.index()].guesses[kind_index(ScoreKind::Retraction)] += 1.0
            }
            Entry::Drop { by, role, cost, .. } => {
                let s = &mut sides[by.index()];
                s.drops[role.index()] += 1.0;
                s.spent += cost as f64;
                s.spent_this_turn = true;
            }
            Entry::Move { by, m } if m.bought => {
                let s = &mut sides[by.index()];
                s.bought += 1.0;
                s.spent += m.cost as f64;
                s.spent_this_turn = true;
            }
            Entry::Retraction { by, cost } => {
                let s = &mut sides[by.index()];
                s.retractions += 1.0;
                s.spent += cost as f64;
                s.spent_this_turn = true;
            }
            Entry::Score { to, kind, amount } => {
                let s = &mut sides[to.index()];
                s.earned += amount as f64;
                s.hits[kind_index(kind)] += 1.0;
                if kind == ScoreKind::Flat {
                    flat_turn = true;
                }
            }
            Entry::TurnEnd { mover } => {
                sides[mover.index()].moves += 1.0;
                sides[mover.other().index()].guessed_turns += 1.0;
                if flat_turn {
                    sides[mover.other().index()].guesses[kind_index(ScoreKind::Flat)] += 1.0;
                }
                flat_turn = false;
                for s in sides.iter_mut() {
                    if s.spent_this_turn {
                        s.purchase_turns += 1.0;
                    }
                    s.spent_this_turn = false;
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (c, side) in ["white", "black"].iter().enumerate() {
        let s = &sides[c];
        out.push((format!("{side}_earned"), s.earned));
        if s.guessed_turns > 0.0 {
            out.push((
                format!("{side}_earned_per_move"),
                s.earned / s.guessed_turns,
            ));
        }
        for (i, k) in ScoreKind::ALL.iter().enumerate() {
            out.push((format!("{side}_guesses_{}", k.name()), s.guesses[i]));
            out.push((format!("{side}_hits_{}", k.name()), s.hits[i]));
            // A rate only where the kind was guessed, so games without it do not
            // count as misses.
            if s.guesses[i] > 0.0 {
                out.push((
                    format!("{side}_hit_rate_{}", k.name()),
                    s.hits[i] / s.guesses[i],
                ));
            }
        }
        let (guessed, hit): (f64, f64) = (s.guesses.iter().sum(), s.hits.iter().sum());
        if guessed > 0.0 {
            out.push((format!("{side}_hit_rate"), hit / guessed));
        }
        out.push((format!("{side}_drops"), s.drops.iter().sum()));
        for r in Role::ALL {
            out.push((
                format!("{side}_drops_{}", tables::role_name(r)),
                s.drops[r.index()],
            ));
        }
        out.push((format!("{side}_bought_moves"), s.bought));
        out.push((format!("{side}_retractions"), s.retractions));
        out.push((format!("{side}_spent"), s.spent));
        out.push((format!("{side}_purchases"), s.purchase_turns));
        out.push((format!("{side}_moves"), s.moves));
        if s.purchase_turns > 0.0 {
            out.push((
                format!("{side}_moves_between_purchases"),
                s.moves / s.purchase_turns,
            ));
        }
        out.push((format!("{side}_balance"), g.s.balance[c] as f64));
    }
    out
}

#[cfg(test)]
mod tests;

//! Time Chess (seed "Time Chess", 2009; RULES.md "Time Chess"): orthodox chess in a
//! cycle of six phases, in two of which one player is blind to the enemy pieces.
//!
//! Rules implemented (the `rule_*` test for each is in `tests/`):
//! - Black moves first. Six phases repeat ([`Phase`]): Dawn (Black, all see), Midday
//!   (White, Black blind), Evening (Black, Black blind), Dusk (White, all see), Midnight
//!   (Black, White blind), Morning (White, White blind)
//!   (`rule_black_moves_first_and_six_phases_repeat`).
//! - A blind player sees only their own pieces and remembers the board they last saw
//!   (`rule_blind_player_sees_own_pieces_and_remembers`, `observation`).
//! - A blind move is chosen against the mover's own pieces only
//!   (`rule_blind_moves_are_generated_on_own_pieces_only`), then resolved on the true
//!   board: a pawn push blocked by an enemy piece is forfeited
//!   (`rule_blind_pawn_push_blocked_is_forfeited`); a pawn diagonal onto an empty square
//!   is forfeited (`rule_blind_pawn_diagonal_onto_empty_square_is_forfeited`) and onto an
//!   enemy piece captures (`rule_blind_pawn_diagonal_captures`); a slider stopped by an
//!   enemy piece on its path captures it and stops there
//!   (`rule_blind_slider_stops_at_first_enemy_and_captures`, the seed's queen example
//!   `rule_seed_example_queen_stopped_on_third_square`); a knight or king landing on an
//!   enemy piece captures it (`rule_blind_knight_and_king_capture_what_they_land_on`).
//! - Kings are never captured: a blind slider whose path meets the enemy king stops on
//!   the square before it, forfeited if that is its origin
//!   (`rule_blind_slider_stops_before_the_king`); a blind pawn, knight or king move onto
//!   the enemy king is forfeited (`rule_blind_move_onto_the_king_is_forfeited`); sighted
//!   moves never take a king (`rule_sighted_moves_never_take_a_king`).
//! - The enemy king gives check like any other piece: a king next to the enemy king
//!   (after a blind move) is in check, and on a sighted turn only its steps out of the
//!   enemy king's reach are legal (`rule_enemy_king_gives_check`); with none it is
//!   checkmate (`rule_enemy_king_gives_checkmate`). The board's orthodox generator never
//!   counts a king among the checkers (kings never touch in orthodox chess), so the
//!   sighted list and the sampler's sets keep only its king steps when the kings touch
//!   (`KingSteps`).
//! - A blind move may leave or put the own king in check
//!   (`rule_blind_move_may_leave_or_put_own_king_in_check`); checkmate and stalemate are
//!   judged only at the start of a non-blind turn of the side to move
//!   (`rule_mate_is_judged_only_at_a_sighted_turn`, the seed's extra turn:
//!   `rule_seed_example_mated_king_going_blind_gets_an_extra_turn`).
//! - What a seat learns: the blind mover learns where its moved piece ended and what it
//!   captured, or that the move was forfeited; a seat learns the square on which its
//!   piece was captured, not by what, until it sees again
//!   (`rule_blind_mover_learns_end_square_capture_or_forfeit`,
//!   `rule_blind_seat_learns_capture_square_not_the_capturer`). The sighted opponent of a
//!   blind mover sees the result, not the move tried
//!   (`rule_sighted_opponent_sees_the_result_not_the_try`).
//!
//! Insufficient material is only K v K and K+minor v K (RULES.md's common rules;
//! `Board::is_bare_material`): K+B+B with bishops of one colour v K plays on
//! (`rule_insufficient_material_is_only_bare_kings_or_one_minor`).
//!
//! Decisions (RULES.md's, tested): blind castling is offered when the right is held and
//! no own piece stands between king and rook (or on their targets); an enemy piece there
//! forfeits it and attacks are ignored (`rule_blind_castling`). A blind en passant is a
//! pawn diagonal onto an empty square: forfeited (`rule_blind_en_passant_is_forfeited`).
//! A blind mover whose own pieces leave it no move passes (`rule_blind_mover_without_moves_passes`).
//! Blind moves ignore remembered enemy pieces (same generator test as above). Draws
//! (insufficient material, 50 moves, repetition, the cap) are judged after every ply,
//! blind ones included; a forfeited move resets nothing; positions repeat only with the
//! same phase (`rule_draws_are_judged_after_every_ply`,
//! `rule_forfeit_resets_nothing_and_repetition_needs_the_same_phase`). An en passant loss
//! tells the seat where its pawn stood (`rule_en_passant_loss_reveals_the_pawns_square`).
//! A FEN starts at Dawn with Black to move and at Dusk with White to move
//! (`rule_fen_starts_at_dawn_or_dusk`). Promotion works for blind pawn moves like any
//! other pawn move (`rule_blind_promotion_is_offered_and_resolved_like_any_pawn_move`).
//! Notation keeps the blind try as chosen and the board keeps its outcome
//! (`rule_notation_records_blind_tries_as_tried`). Bad action strings, FENs and
//! parameters are errors (`rule_bad_input_is_an_error_not_a_panic`).
//!
//! Decisions of this module where the texts are silent:
//! - Order of the end checks: the ply cap first, then checkmate/stalemate (at a sighted
//!   turn), then insufficient material, 50 moves, repetition.
//! - The end of the game shows the board to both seats (a terminal state hides nothing).
//! - A FEN may leave the side not to move in check (its blind move may have done that);
//!   touching kings are refused, as the board's reader does (a blind move can make
//!   them; [`TimeChess::from_board_at`] takes such a board).
//!
//! Information: the only thing a seat ever does not know is the opponent's one sighted
//! move made while the seat was blind (White's Midday move for Black, Black's Midnight
//! move for White); the blind seat moves next, and after its blind move twilight shows
//! everything. The belief (module [`belief`]) is the exact set of the opponent's legal
//! moves from the last seen position that leave the seat's own pieces as they are (the
//! seat's only observation) and do not end the game. `sample_world` draws one of them
//! uniformly: the prior is uniform over consistent opponent moves, not a model of play.
//! `information_key(seat)` is a running hash of everything the seat observed since the
//! start (full boards when it sees, its own tries and their outcomes, the squares of its
//! captured pieces when it is blind), so equal keys mean equal observation records. It
//! covers the whole record rather than only what came after the last twilight because a
//! twilight board does not carry the repetition history, which both seats saw; within
//! one search the part before the last twilight is the same in every sampled world.
//!
//! Speed: `apply` judges the end without listing moves: it refills, in place, the
//! mover's moves as target sets (blind tries, or sighted moves whose king targets are
//! tested for safety only when drawn or when nothing else can move), enough to know
//! whether a legal move exists, and keeps them; [`Game::sample_legal_action`] draws a
//! playout's action uniformly from those sets (module [`playout`], tested by
//! `sampled_actions_are_uniform_over_the_listed_set`,
//! `sighted_sets_match_the_listing_generator` and
//! `blind_sets_match_the_reference_generator`); `legal_actions` lists on demand.
//! Playouts go faster still through [`Game::random_playout`]: a lean loop on the same
//! sets and the same draws that keeps no record and no observation hash, makes board
//! moves without history entries and takes the board back by restoring one snapshot
//! (`Board::snapshot`, `Board::restore`; tested draw for draw against the
//! `sample_legal_action` and `apply` loop by `lean_playout_plays_the_games_of_the_apply_loop`).
//! `undo` restores the result the ply recorded
//! (`judged_results_survive_undo_and_match_a_fresh_judgement`). Repetition keys are the
//! board's Zobrist key XOR a key per phase, and each ply folds one hash step into each
//! seat's observation hash. The recorded games of `results/time/` replay to their
//! results and tallies (`engine/tests/time_replay.rs`).
//!
//! A slow reference written from RULES.md alone (`engine/tests/time_reference.rs`: a
//! mailbox board, "attacked by any enemy piece, king included", its own blind
//! resolution, castling rights, en passant, 50-move count and repetition) follows seeded
//! random, greedy and lean playouts and scripted games, and checks every legal list,
//! sampled action, board and result against the engine.
//!
//! The sighted twin (issue 67; `sighted = true`, [`TimeChess::with_sighted`]; off by
//! default, and then left out of the serialised parameters so recorded games keep their
//! digest): Time Chess without blind phases. Every phase is seen by both seats, so every
//! move is an ordinary sighted move (orthodox, never taking a king); Black still moves
//! first and the six phases keep their order (repetition still needs the same phase). The facts say perfect information,
//! `information_key` is the state key, `sample_world` returns the state itself and the
//! observation is the board for both. What differs from the seed's game, exactly: no
//! move is blind, so no try is forfeited, stopped short of the king, or captures on its
//! way, no blind move leaves its own king in check, nobody passes, and the blind tallies
//! stay 0; mate and stalemate are judged at every turn (the seed's game judges them only
//! at sighted turns). Every other rule is the seed's: a record of the twin is a legal
//! record of the seed's game and leads to the same boards, except that an en passant
//! capture at what would be a blind turn is forfeited there (a blind pawn diagonal onto an
//! empty square), and that the twin may end in mate or stalemate at such a turn where the
//! seed's blind mover plays on. Tests (`tests/twin.rs`):
//! `rule_time_sighted_every_phase_is_seen_by_both`,
//! `rule_time_sighted_judges_mate_at_every_turn`,
//! `rule_time_sighted_play_by_the_same_rules_but_no_move_is_blind`,
//! `rule_time_sighted_is_a_parameter_left_out_when_off`,
//! `time_sighted_conforms_to_the_game_api`, and `sighted_twin_hides_nothing` in
//! `engine/tests/time_info.rs`.
//!
//! Notation: UCI as the mover chose it (`e2e4`, blind tries as tried, castling `e8g8`),
//! `pass`.
//!
//! Files: `mod.rs` (this: the game), `belief.rs` (the blind seat's belief), `playout.rs`
//! (the lean playout), `tests/mod.rs` (the `rule_*` tests), `tests/generators.rs` (the
//! generators against each other, the reference and the apply loop), `tests/twin.rs` (the
//! sighted twin).

pub mod belief;
mod playout;
#[cfg(test)]
mod tests;

use crate::attacks::{self, between};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    two_seat_returns, validate_ply_cap, Game, GameError, GameFacts, GameResult, InvalidParams,
    Returns, Seat, Turn, VariantParams,
};
use crate::movegen::MoveSink;
use crate::moves::{Move, MoveKind, MoveList};
use crate::square::{Color, Role, Square};
use crate::variants::chess::material_balance;
use crate::zobrist;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// Tunable numbers of Time Chess. The seed gives none besides the fixed six phases.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct TimeParams {
    /// Plies after which the game is a draw recorded as `cap`.
    pub ply_cap: u32,
    /// The full-information twin (issue 67): no blind phases, every move a sighted one
    /// ([`TimeChess::with_sighted`]). Left out of the serialised parameters when off, so
    /// the default set (and the digest of every recorded game) is unchanged.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sighted: bool,
}

impl Default for TimeParams {
    fn default() -> Self {
        TimeParams {
            ply_cap: 400,
            sighted: false,
        }
    }
}

/// What each of [`TimeParams`]'s keys is (printed by `chesslab params`).
pub const TIME_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "plies after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "sighted",
        "the full-information twin: no blind phases, every phase seen by both and every move a sighted one; Black still moves first and the six phases keep their order",
        "true or false; unset (the default) is false, the seed's blind phases",
    ),
];

impl VariantParams for TimeParams {
    const DOCS: &'static [crate::game::ParamDoc] = TIME_PARAM_DOCS;

    /// Checks ranges; the registry calls this before building a game.
    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)
    }
}

/// The six times of day, in order; Dawn comes first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Phase {
    Dawn,
    Midday,
    Evening,
    Dusk,
    Midnight,
    Morning,
}

impl Phase {
    pub const ALL: [Phase; 6] = [
        Phase::Dawn,
        Phase::Midday,
        Phase::Evening,
        Phase::Dusk,
        Phase::Midnight,
        Phase::Morning,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Phase {
        Phase::ALL[i % 6]
    }

    pub fn next(self) -> Phase {
        Phase::from_index(self.index() + 1)
    }

    /// Who moves in this phase.
    pub fn mover(self) -> Color {
        match self {
            Phase::Dawn | Phase::Evening | Phase::Midnight => Color::Black,
            Phase::Midday | Phase::Dusk | Phase::Morning => Color::White,
        }
    }

    /// Who is blind in this phase (day: Black, night: White, twilight: nobody).
    pub fn blind(self) -> Option<Color> {
        match self {
            Phase::Midday | Phase::Evening => Some(Color::Black),
            Phase::Midnight | Phase::Morning => Some(Color::White),
            Phase::Dawn | Phase::Dusk => None,
        }
    }

    /// Whether the mover is blind (Evening, Morning).
    pub fn is_blind_turn(self) -> bool {
        self.blind() == Some(self.mover())
    }

    pub fn name(self) -> &'static str {
        match self {
            Phase::Dawn => "Dawn",
            Phase::Midday => "Midday",
            Phase::Evening => "Evening",
            Phase::Dusk => "Dusk",
            Phase::Midnight => "Midnight",
            Phase::Morning => "Morning",
        }
    }
}

/// A seat's action: a move (sighted: orthodox; blind: as tried), or a blind pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TimeAction {
    Move(Move),
    Pass,
}

/// How a blind try turned out on the true board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum BlindOutcome {
    /// The piece ended on `to` (the king's square after castling), capturing `captured`.
    Moved {
        to: Square,
        captured: Option<Role>,
    },
    Forfeited,
    Passed,
}

/// One ply of the record, with what `undo` needs.
#[derive(Clone, Copy, Debug)]
struct Record {
    action: TimeAction,
    phase: Phase,
    /// Whether the board took a real move (else a null move).
    board_move: bool,
    /// For blind plies, the outcome.
    blind: Option<BlindOutcome>,
    /// The square where a piece was captured this ply (en passant: where the pawn stood).
    captured_on: Option<Square>,
    /// A blind ply after which the mover's own king stood attacked.
    self_check: bool,
    /// The seats' observation hashes before the ply.
    obs: [u64; 2],
    /// The result before the ply (restored by `undo` without judging again).
    result: Option<GameResult>,
}

/// A Time Chess game.
#[derive(Clone, Debug)]
pub struct TimeChess {
    board: Board,
    ply_cap: u32,
    start_phase: Phase,
    records: Vec<Record>,
    /// Repetition keys (board key with the phase) of every position, the start included.
    rep_keys: Vec<u64>,
    /// Running hash of what each seat has observed.
    obs: [u64; 2],
    /// The result at the current state, judged by every `apply` without listing moves
    /// (a sighted turn asks only whether any legal move exists) and restored by `undo`:
    /// a playout lists nothing (see [`playout`]), and the search lists a node's actions
    /// when it expands it.
    result: Option<GameResult>,
    /// The moves of the side to move as target sets, filled in place by the judgement
    /// after `apply` (at a sighted turn it needs to know whether one exists) and drawn
    /// from by `sample_legal_action`; stale after `undo` (`sets_fresh`).
    sets: playout::Batches,
    sets_fresh: bool,
    /// The blind seat's belief at the current state, worked out on first use.
    belief: OnceLock<Arc<[Move]>>,
    /// The full-information twin (`sighted`): no phase is blind.
    sighted: bool,
}

pub(crate) fn mix(h: u64, x: u64) -> u64 {
    zobrist::extra(h.rotate_left(23) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Keys of the six phases, XORed into the board key for repetition keys (one XOR per
/// ply rather than a hash; equal keys still need the same board and phase).
const PHASE_KEYS: [u64; 6] = [
    zobrist::extra(0x7068_0000),
    zobrist::extra(0x7068_0001),
    zobrist::extra(0x7068_0002),
    zobrist::extra(0x7068_0003),
    zobrist::extra(0x7068_0004),
    zobrist::extra(0x7068_0005),
];

/// Odd multiplier spreading a ply count or action code over the word before it is
/// XORed into an already random key.
const SPREAD: u64 = 0xD6E8_FEB8_6659_FD93;

fn action_code(a: TimeAction) -> u64 {
    match a {
        TimeAction::Move(m) => m.code() as u64 + 1,
        TimeAction::Pass => 1 << 20,
    }
}

/// The side to move's king and the enemy king when they stand next to each other (a
/// blind move put them there). The enemy king then gives check like any other piece
/// (RULES.md), a check the orthodox generator does not see: it never counts a king
/// among the checkers, as two kings never touch in orthodox chess.
#[inline(always)]
fn touching_kings(b: &Board) -> Option<(Square, Square)> {
    let king = b.king(b.turn())?;
    let theirs = b.king(b.turn().other())?;
    attacks::king_attacks(king)
        .contains(theirs)
        .then_some((king, theirs))
}

/// Passes on only the steps of the king on `king` from the orthodox generator, minus
/// `forbidden` (the enemy king's square): the answers to a check by the enemy king.
/// Nothing can come between neighbours and kings are never captured, so only the own
/// king's steps can end it; castling cannot (never out of check), nor can anything else.
/// The generator's king targets already avoid every attacked square, the squares next
/// to the enemy king included, judged with the king lifted.
pub(super) struct KingSteps<'a, S: MoveSink> {
    pub(super) inner: &'a mut S,
    pub(super) king: Square,
    pub(super) forbidden: Bitboard,
}

impl<S: MoveSink> MoveSink for KingSteps<'_, S> {
    const SETWISE_PAWNS: bool = true;

    #[inline(always)]
    fn normal(&mut self, from: Square, targets: Bitboard) {
        if from == self.king {
            self.inner.normal(from, targets - self.forbidden);
        }
    }

    #[inline(always)]
    fn promotions(&mut self, _from: Square, _targets: Bitboard) {}

    #[inline(always)]
    fn special(&mut self, _mv: Move) {}

    #[inline(always)]
    fn pawn_set(&mut self, _targets: Bitboard, _delta: i8) {}

    #[inline(always)]
    fn pawn_promotion_set(&mut self, _targets: Bitboard, _delta: i8) {}
}

/// Squares that must hold no piece for `us` to castle with the rook on `rook`.
fn castle_path(us: Color, king: Square, rook: Square) -> Bitboard {
    let (kd, rd) = Board::castle_targets(us, king, rook);
    (between(king, kd).with(kd) | between(rook, rd).with(rd))
        .without(king)
        .without(rook)
}

impl TimeChess {
    /// A game from `board`: Dawn if Black is to move, Dusk if White is.
    pub fn from_board(board: Board, ply_cap: u32) -> TimeChess {
        let start_phase = match board.turn() {
            Color::Black => Phase::Dawn,
            Color::White => Phase::Dusk,
        };
        TimeChess::start(board, start_phase, ply_cap)
    }

    /// A game from `board` at any `phase` whose mover is the side to move (tests,
    /// analysis). Both seats are taken to have seen the board.
    pub fn from_board_at(board: Board, phase: Phase, ply_cap: u32) -> Result<TimeChess, GameError> {
        if phase.mover() != board.turn() {
            return Err(GameError::opening(
                &board.fen(),
                format!(
                    "{} moves at {}, but the board has {} to move",
                    phase.mover().name(),
                    phase.name(),
                    board.turn().name()
                ),
            ));
        }
        Ok(TimeChess::start(board, phase, ply_cap))
    }

    fn start(board: Board, start_phase: Phase, ply_cap: u32) -> TimeChess {
        let rep = board.key() ^ PHASE_KEYS[start_phase.index()];
        let start = mix(rep, 0x7469_6d65);
        let mut g = TimeChess {
            board,
            ply_cap,
            start_phase,
            records: Vec::new(),
            rep_keys: vec![rep],
            obs: [mix(start, 1), mix(start, 2)],
            result: None,
            sets: playout::Batches::new(Bitboard::EMPTY),
            sets_fresh: false,
            belief: OnceLock::new(),
            sighted: false,
        };
        g.judge();
        g
    }

    /// The game as the full-information twin (`true`: every phase is seen by both, every
    /// move is a sighted move) or as the seed's game (`false`, the default). Set at the
    /// start: the start position is judged again under the chosen rule.
    pub fn with_sighted(mut self, sighted: bool) -> TimeChess {
        debug_assert!(self.records.is_empty(), "the twin is chosen at the start");
        if sighted != self.sighted {
            self.sighted = sighted;
            self.judge();
        }
        self
    }

    /// Whether this is the sighted twin (no blind phases).
    pub fn is_sighted(&self) -> bool {
        self.sighted
    }

    /// Whether the mover plays blind at `phase` (Evening, Morning; never in the twin).
    #[inline(always)]
    pub fn blind_turn(&self, phase: Phase) -> bool {
        !self.sighted && phase.is_blind_turn()
    }

    /// Who is blind at `phase` (never anyone in the twin).
    pub fn blind_seat(&self, phase: Phase) -> Option<Color> {
        if self.sighted {
            None
        } else {
            phase.blind()
        }
    }

    /// The orthodox start with Black to move (Dawn).
    pub fn startpos(ply_cap: u32) -> TimeChess {
        let mut b = Board::startpos();
        let (c, ep, h, f) = (b.castling_rights(), b.ep_square(), b.halfmoves(), 1);
        b.set_state(Color::Black, c, ep, h, f);
        TimeChess::from_board(b, ply_cap)
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// The phase of the ply to be played now.
    pub fn phase(&self) -> Phase {
        self.phase_at(self.records.len())
    }

    /// Blind outcomes so far, oldest first, with the mover.
    pub fn blind_outcomes(&self) -> impl Iterator<Item = (Color, BlindOutcome)> + '_ {
        self.records
            .iter()
            .filter_map(|r| r.blind.map(|b| (r.phase.mover(), b)))
    }

    /// The outcome of the last ply if it was blind.
    pub fn last_blind_outcome(&self) -> Option<BlindOutcome> {
        self.records.last().and_then(|r| r.blind)
    }

    /// The square where a piece was captured on the last ply (en passant: where the
    /// pawn stood).
    pub fn last_capture_square(&self) -> Option<Square> {
        self.records.last().and_then(|r| r.captured_on)
    }

    /// The actions played so far, oldest first.
    pub fn actions_played(&self) -> impl Iterator<Item = TimeAction> + '_ {
        self.records.iter().map(|r| r.action)
    }

    /// Whether `seat` has something it does not know now: it is its blind turn and the
    /// opponent moved unseen just before.
    pub fn hides_from(&self, seat: Seat) -> bool {
        let ph = self.phase();
        self.blind_turn(ph)
            && ph.mover().index() == seat
            && !self.records.is_empty()
            && self.result.is_none()
    }

    fn rep_key(&self) -> u64 {
        self.board.key() ^ PHASE_KEYS[self.phase().index()]
    }

    // ----- move generation ------------------------------------------------------------

    /// Orthodox legal moves minus captures of the enemy king, with the enemy king
    /// giving check like any other piece.
    fn sighted_moves(board: &Board, out: &mut MoveList) {
        out.clear();
        if let Some((king, their_king)) = touching_kings(board) {
            board.generate(&mut KingSteps {
                inner: out,
                king,
                forbidden: Bitboard::from_square(their_king),
            });
            return;
        }
        board.generate(out);
        // Only a king its own blind move left attacked can be a target: skip the scan
        // over the list otherwise (the common case).
        let us = board.turn();
        if let Some(k) = board
            .king(us.other())
            .filter(|&k| board.attackers_to(k, us, board.occupied()).any())
        {
            let mut i = 0;
            while i < out.len() {
                if out[i].to() == k && !out[i].is_castle() {
                    out.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        }
    }

    /// Blind tries: every move the mover's own pieces allow on a board holding only them.
    fn blind_moves(b: &Board, out: &mut MoveList) {
        out.clear();
        playout::blind_sets(b, out);
    }

    /// One action of the side to move drawn uniformly from those `legal_actions` lists
    /// (see [`playout`]); `Pass` for a blind mover without tries.
    fn sample_action(&self, rng: &mut dyn RngCore) -> TimeAction {
        let mv = if self.sets_fresh {
            self.sets.draw(&self.board, rng)
        } else {
            let mut sets = playout::Batches::new(Bitboard::EMPTY);
            TimeChess::fill_sets(&self.board, self.blind_turn(self.phase()), &mut sets);
            sets.draw(&self.board, rng)
        };
        mv.map_or(TimeAction::Pass, TimeAction::Move)
    }

    /// The moves of the side to move as target sets: blind tries (`blind`), or sighted
    /// moves (see [`playout::sighted_sets`]).
    fn fill_sets(board: &Board, blind: bool, sets: &mut playout::Batches) {
        if blind {
            sets.reset(Bitboard::EMPTY);
            playout::blind_sets(board, sets);
        } else {
            playout::sighted_sets(board, sets);
        }
    }

    /// What a blind try does on the true board: the move to make (`None`: forfeited).
    pub fn resolve_blind(&self, mv: Move) -> Option<Move> {
        let b = &self.board;
        let us = b.turn();
        let theirs = b.by_color(us.other());
        let their_king = b.pieces(us.other(), Role::King);
        let from = mv.from();
        let to = mv.to();
        if mv.is_castle() {
            return (castle_path(us, from, to) & theirs)
                .is_empty()
                .then_some(mv);
        }
        let role = b.piece_at(from).expect("blind try from an own piece").role;
        match role {
            Role::Pawn => {
                if from.file() == to.file() {
                    let path = between(from, to).with(to);
                    (path & theirs).is_empty().then_some(mv)
                } else {
                    (theirs - their_king).contains(to).then_some(mv)
                }
            }
            Role::Knight | Role::King => (!their_king.contains(to)).then_some(mv),
            _ => {
                let path = between(from, to).with(to);
                let hit = path & theirs;
                let Some(first) = nearest(from, hit) else {
                    return Some(mv);
                };
                if their_king.contains(first) {
                    // Kings are never captured: stop short, or forfeit next to the origin.
                    let gap = between(from, first);
                    farthest(from, gap).map(|sq| Move::normal(from, sq))
                } else {
                    Some(Move::normal(from, first))
                }
            }
        }
    }

    // ----- status ------------------------------------------------------------------------

    fn compute_moves(&self, out: &mut MoveList) {
        if self.blind_turn(self.phase()) {
            TimeChess::blind_moves(&self.board, out);
        } else {
            TimeChess::sighted_moves(&self.board, out);
        }
    }

    /// Sets the result at this state. The moves are generated as target sets (no list),
    /// in place, and kept for `sample_legal_action`; at a sighted turn they also tell
    /// whether any legal move exists.
    fn judge(&mut self) {
        self.judge_at(self.records.len());
    }

    /// [`TimeChess::judge`] after `plies` plies from the start (the record's length, or
    /// more inside [`TimeChess::lean_playout`], which keeps no record).
    #[inline(always)]
    fn judge_at(&mut self, plies: usize) {
        let phase = self.phase_at(plies);
        let blind = self.blind_turn(phase);
        TimeChess::fill_sets(&self.board, blind, &mut self.sets);
        let no_moves = !blind && !self.sets.any_legal(&self.board);
        self.sets_fresh = true;
        self.result = self.compute_result(plies, phase, no_moves);
    }

    /// The phase after `plies` plies from the start.
    #[inline(always)]
    fn phase_at(&self, plies: usize) -> Phase {
        Phase::from_index(self.start_phase.index() + plies)
    }

    /// The result after `plies` plies, at `phase`; `no_moves` counts only at a sighted
    /// turn.
    #[inline(always)]
    fn compute_result(&self, plies: usize, phase: Phase, no_moves: bool) -> Option<GameResult> {
        let draw = |reason| {
            Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            })
        };
        if plies as u64 >= self.ply_cap as u64 {
            return draw("cap");
        }
        if !self.blind_turn(phase) && no_moves {
            return Some(crate::variants::no_moves_result(
                self.board.turn(),
                self.board.in_check(),
            ));
        }
        if self.board.is_bare_material() {
            return draw("insufficient-material");
        }
        let half = self.board.halfmoves() as usize;
        if half >= 100 {
            return draw("fifty-moves");
        }
        // Same phase means six plies apart; look back no further than the last reset.
        let n = self.rep_keys.len();
        let key = self.rep_keys[n - 1];
        let mut back = 6;
        let mut seen = 0;
        while back <= half && back < n {
            if self.rep_keys[n - 1 - back] == key {
                seen += 1;
                if seen >= 2 {
                    return draw("repetition");
                }
            }
            back += 6;
        }
        None
    }

    /// A uniform random playout to the end, played in place and taken back
    /// ([`Game::random_playout`]): the same draws from the same sets, the same blind
    /// resolutions, board moves and end judgements as `sample_legal_action` then `apply`
    /// at every ply, without what only a recorded game reads (records, observation
    /// hashes, the self-check tally, the belief, the board's history), and taken back by
    /// restoring one copy of the board instead of a full `undo` per ply. Tested against that loop, draw for draw,
    /// by `lean_playout_plays_the_games_of_the_apply_loop`.
    fn lean_playout(&mut self, rng: &mut dyn RngCore) -> (Returns, u32) {
        if self.result.is_some() {
            return (self.returns(), 0);
        }
        let base = self.records.len();
        let result0 = self.result;
        let keys0 = self.rep_keys.len();
        if !self.sets_fresh {
            // As `sample_action` does on stale sets: a refill without the judgement's
            // exact king filter, so the draw (and its rejections) match.
            TimeChess::fill_sets(&self.board, self.blind_turn(self.phase()), &mut self.sets);
        }
        // Moves leave no history entry; one copy of the position takes them all back.
        let start = self.board.snapshot();
        let mut plies = 0usize;
        while self.result.is_none() {
            let blind = self.blind_turn(self.phase_at(base + plies));
            let played = match self.sets.draw(&self.board, rng) {
                None => None,
                Some(m) if blind => self.resolve_blind(m),
                Some(m) => Some(m),
            };
            match played {
                Some(m) => self.board.make_unrecorded(m),
                None => self.board.make_null_unrecorded(),
            }
            plies += 1;
            let n = base + plies;
            self.rep_keys
                .push(self.board.key() ^ PHASE_KEYS[self.phase_at(n).index()]);
            self.judge_at(n);
        }
        let r = self.returns();
        self.board.restore(&start);
        self.rep_keys.truncate(keys0);
        self.result = result0;
        self.sets_fresh = false;
        (r, plies as u32)
    }

    /// The seat's own pieces, role by role (what a blind seat sees of the board).
    pub fn own_pieces(&self, color: Color) -> [Bitboard; 6] {
        Role::ALL.map(|r| self.board.pieces(color, r))
    }
}

/// The square of `set` nearest to `from` along a line from it (`None` if empty).
fn nearest(from: Square, set: Bitboard) -> Option<Square> {
    set.into_iter().min_by_key(|&s| s.distance(from))
}

/// The square of `set` farthest from `from` (`None` if empty).
fn farthest(from: Square, set: Bitboard) -> Option<Square> {
    set.into_iter().max_by_key(|&s| s.distance(from))
}

impl Game for TimeChess {
    type Action = TimeAction;
    type Params = TimeParams;

    fn facts(&self) -> GameFacts {
        // Every phase is one decision of one colour, the colours alternate.
        GameFacts::TWO_SEAT_CLASSIC
            .with_hidden_information(!self.sighted)
            .with_quiet_pruning(true)
            .with_eval("time")
    }

    /// Parameters should have passed [`TimeParams::validate`] (the registry checks).
    fn new(params: &TimeParams) -> TimeChess {
        TimeChess::startpos(params.ply_cap.max(1)).with_sighted(params.sighted)
    }

    fn from_opening(params: &TimeParams, opening: &str) -> Result<TimeChess, GameError> {
        let board = Board::from_fen_king_en_prise(opening)
            .map_err(|e| GameError::opening_fen(opening, e))?;
        Ok(TimeChess::from_board(board, params.ply_cap).with_sighted(params.sighted))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.result.is_some() {
            Turn::Terminal
        } else {
            Turn::Seat(self.board.turn().index())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<TimeAction>) {
        out.clear();
        if seat != self.board.turn().index() || self.result.is_some() {
            return;
        }
        let mut m = MoveList::new();
        self.compute_moves(&mut m);
        out.extend(m.iter().map(|&m| TimeAction::Move(m)));
        if out.is_empty() {
            out.push(TimeAction::Pass);
        }
    }

    /// Uniform over the actions `legal_actions` lists, drawn from the generators' target
    /// sets without listing (module [`playout`]).
    fn sample_legal_action(
        &self,
        seat: Seat,
        rng: &mut dyn RngCore,
        _scratch: &mut Vec<TimeAction>,
    ) -> Option<TimeAction> {
        if seat != self.board.turn().index() || self.result.is_some() {
            return None;
        }
        Some(self.sample_action(rng))
    }

    fn apply(&mut self, action: TimeAction) {
        let phase = self.phase();
        let mover = self.board.turn();
        let them = mover.other();
        let mut rec = Record {
            action,
            phase,
            board_move: false,
            blind: None,
            captured_on: None,
            self_check: false,
            obs: self.obs,
            result: self.result,
        };
        let blind_turn = self.blind_turn(phase);
        let played = match action {
            TimeAction::Pass => None,
            TimeAction::Move(m) if blind_turn => self.resolve_blind(m),
            TimeAction::Move(m) => Some(m),
        };
        let mut captured = None;
        match played {
            Some(m) => {
                if let Some(p) = self.board.captured_piece(m) {
                    captured = Some(p.role);
                    rec.captured_on = Some(match m.kind() {
                        MoveKind::EnPassant => Square::from_coords(m.to().file(), m.from().rank()),
                        _ => m.to(),
                    });
                }
                self.board.make(m);
                rec.board_move = true;
            }
            None => self.board.make_null(),
        }
        if blind_turn {
            rec.blind = Some(match (action, played) {
                (TimeAction::Pass, _) => BlindOutcome::Passed,
                (_, None) => BlindOutcome::Forfeited,
                (_, Some(m)) => BlindOutcome::Moved {
                    to: if m.is_castle() {
                        Board::castle_targets(mover, m.from(), m.to()).0
                    } else {
                        m.to()
                    },
                    captured,
                },
            });
            rec.self_check = self.board.king(mover).is_some_and(|k| {
                self.board
                    .attackers_to(k, them, self.board.occupied())
                    .any()
            });
        }
        self.records.push(rec);
        let rep = self.rep_key();
        self.rep_keys.push(rep);
        self.belief = OnceLock::new();
        self.judge();
        // Observations: the mover knows its action and the board after it (it saw the
        // board before a sighted move; twilight follows every blind move). The opponent
        // learns only where it lost a piece while it is blind, else sees the board.
        // What a seat that sees everything sees (ply count included: play is timed).
        // One strong mix per seat and ply; what is folded in is already a random-looking
        // key (Zobrist), so ply count and action are spread and XORed into it.
        let seen = rep ^ (self.records.len() as u64).wrapping_mul(SPREAD);
        let m = mover.index();
        self.obs[m] = mix(
            self.obs[m],
            seen ^ action_code(action).wrapping_mul(SPREAD).rotate_left(29),
        );
        let o = them.index();
        self.obs[o] = if self.blind_seat(phase) == Some(them) {
            mix(
                self.obs[o],
                rec.captured_on.map_or(0, |s| s.index() as u64 + 1),
            )
        } else {
            mix(self.obs[o], seen)
        };
        if self.result.is_some() {
            for h in &mut self.obs {
                *h = mix(*h, seen ^ 0xe4d);
            }
        }
    }

    /// The lean loop of [`TimeChess::lean_playout`]; declines a `cutoff` (the caller's
    /// loop stops there and scores the position).
    fn random_playout(
        &mut self,
        rng: &mut dyn RngCore,
        cutoff: Option<u32>,
    ) -> Option<(Returns, u32)> {
        if cutoff.is_some() {
            return None;
        }
        Some(self.lean_playout(rng))
    }

    fn undo(&mut self) {
        let rec = self.records.pop().expect("undo without an action");
        if rec.board_move {
            self.board.unmake();
        } else {
            self.board.unmake_null();
        }
        self.rep_keys.pop();
        self.obs = rec.obs;
        self.result = rec.result;
        self.sets_fresh = false;
        self.belief = OnceLock::new();
    }

    fn result(&self) -> Option<GameResult> {
        self.result
    }

    fn state_key(&self) -> u64 {
        mix(self.rep_key(), self.records.len() as u64 ^ 0x5a5a)
    }

    fn information_key(&self, seat: Seat) -> u64 {
        if self.sighted {
            return self.state_key();
        }
        mix(self.obs[seat.min(1)], 11 + seat as u64)
    }

    /// Draws the opponent's unseen move uniformly from the moves consistent with what
    /// `seat` observed ([`belief::consistent_moves`]); the true state where nothing is
    /// hidden from `seat`.
    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> TimeChess {
        let mut w = self.clone();
        if !self.hides_from(seat) {
            return w;
        }
        let moves = self
            .belief
            .get_or_init(|| belief::consistent_moves(self).into());
        if moves.is_empty() {
            // Cannot happen (the true move is always consistent); the truth is safe.
            return w;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        w.undo();
        w.apply(TimeAction::Move(m));
        w
    }

    fn observation(&self, seat: Seat) -> String {
        belief::describe(self, Color::from_index(seat.min(1)))
    }

    fn action_notation(&self, action: TimeAction) -> String {
        match action {
            TimeAction::Move(m) => self.board.uci(m),
            TimeAction::Pass => "pass".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<TimeAction, GameError> {
        let err = |m: String| GameError::Action {
            action: text.into(),
            message: m,
        };
        if self.result.is_some() {
            return Err(err("the game is over".into()));
        }
        let t = text.trim();
        let mut legal = Vec::new();
        self.legal_actions(self.board.turn().index(), &mut legal);
        if let Some(a) = legal
            .iter()
            .copied()
            .find(|&a| self.action_notation(a) == t)
        {
            return Ok(a);
        }
        let phase = self.phase();
        let shape_ok = t == "pass"
            || ((4..=5).contains(&t.len())
                && t.is_ascii()
                && Square::parse(&t[0..2]).is_some()
                && Square::parse(&t[2..4]).is_some());
        Err(err(if !shape_ok {
            "expected a UCI move like 'e2e4' or 'pass'".into()
        } else if self.blind_turn(phase) {
            format!(
                "not a blind try for {} at {} (tries are moves of your own pieces on a \
                 board holding only them; 'pass' only when there is none)",
                phase.mover().name(),
                phase.name()
            )
        } else {
            format!(
                "not a legal move for {} at {} (sighted turns are orthodox and never take \
                 a king)",
                phase.mover().name(),
                phase.name()
            )
        }))
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat.min(1)))
    }

    /// The move a move action plays on the board (agents read it instead of playing the
    /// action): a blind try as it resolves there, `None` when it is forfeited.
    fn action_move(&self, action: TimeAction) -> Option<Move> {
        match action {
            TimeAction::Move(m) if self.blind_turn(self.phase()) => self.resolve_blind(m),
            TimeAction::Move(m) => Some(m),
            TimeAction::Pass => None,
        }
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// Per game, for each side: `{side}_forfeits` (blind tries forfeited),
    /// `{side}_blind_captures`, `{side}_blind_self_checks` (blind plies after which the
    /// mover's own king stood attacked), `{side}_blind_passes`; and `decided_after_blind`
    /// (1 when the game ended in checkmate right after a blind ply, else 0).
    fn tallies(&self) -> Vec<(String, f64)> {
        let mut forfeits = [0u32; 2];
        let mut captures = [0u32; 2];
        let mut self_checks = [0u32; 2];
        let mut passes = [0u32; 2];
        for r in &self.records {
            let c = r.phase.mover().index();
            match r.blind {
                Some(BlindOutcome::Forfeited) => forfeits[c] += 1,
                Some(BlindOutcome::Passed) => passes[c] += 1,
                Some(BlindOutcome::Moved {
                    captured: Some(_), ..
                }) => captures[c] += 1,
                _ => {}
            }
            self_checks[c] += u32::from(r.self_check);
        }
        let mut out = Vec::new();
        for (c, side) in ["white", "black"].iter().enumerate() {
            out.push((format!("{side}_forfeits"), forfeits[c] as f64));
            out.push((format!("{side}_blind_captures"), captures[c] as f64));
            out.push((format!("{side}_blind_self_checks"), self_checks[c] as f64));
            out.push((format!("{side}_blind_passes"), passes[c] as f64));
        }
        let decided = self.result.is_some_and(|r| r.reason == "checkmate")
            && self.records.last().is_some_and(|r| r.blind.is_some());
        out.push(("decided_after_blind".into(), f64::from(decided)));
        out
    }
}

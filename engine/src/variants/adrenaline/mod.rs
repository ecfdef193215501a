//! Adrenaline Chess (chess-kit seed "Adrenaline Chess"; docs/RULES.md "Adrenaline Chess").
//!
//! Rules, each with its test:
//! - After a turn with one or more captures the capturer places one checker (parameter
//!   `checkers_per_capture`) under one of the opponent's remaining pieces; stacks allowed
//!   (`rule_capture_ends_with_one_checker_under_an_enemy_piece`).
//! - The box holds `checkers_total` (24) checkers: that many may stand under pieces at
//!   once. A checker spent on a step goes back beside the board and can be placed again
//!   (`rule_spent_checkers_return_to_the_supply`); an opening may not hold more than the
//!   box.
//! - A piece with k checkers makes a regular move (the stack travels), then up to k extra
//!   king steps, each spending one checker (`rule_stack_travels_and_buys_extra_king_steps`);
//!   steps may capture, and a capturing piece takes over the captured piece's checkers
//!   and may spend them at once (`rule_capturing_piece_takes_over_checkers`).
//! - A piece with k checkers attacks every square it reaches by a regular move followed
//!   by up to k king steps; check and checkmate use these attacks
//!   (`rule_adrenaline_reach_gives_check`, `rule_adrenaline_reach_includes_the_double_step`,
//!   `rule_seed_example_mate_with_the_pumped_up_bishop`). A pawn's regular move reaches
//!   its pushes onto empty squares and its captures of enemy pieces, en passant included;
//!   its empty diagonals are attacked (orthodox) but steps start only from squares the
//!   regular move really reaches (`rule_pawn_steps_start_only_where_it_can_really_go`,
//!   `rule_blocked_pawn_reaches_nothing_beyond_its_diagonals`,
//!   `rule_reach_keeps_en_passant_and_the_steps_after_it`). The square the piece left is
//!   empty, so steps may pass back over it
//!   (`rule_reach_may_pass_back_over_the_square_the_piece_left`).
//! - The mover's king must not be attacked after the regular move nor after any step
//!   (`rule_king_must_be_safe_after_regular_move_and_steps`), nor after the checker
//!   placement: a checker may not go under an enemy piece whose new reach would attack
//!   the placer's king (`rule_placement_may_not_expose_the_placers_king`,
//!   `rule_placement_under_a_blocked_pawn_is_safe`); with no such piece left, the capture
//!   earns no checker (decision; `rule_no_safe_placement_means_no_checker`).
//! - No castling if king or rook carries checkers (`rule_no_castling_with_checkers`); the
//!   king may not start, cross or land on an attacked square, adrenaline included
//!   (`rule_no_castling_through_adrenaline_attack`). En passant only after a regular
//!   double step and only as a regular move (`rule_en_passant_never_after_an_extra_step`).
//!   A pawn promotes on arrival, to N, B, R or Q, also when it arrives by an extra step,
//!   and may then step on (`rule_promotion_on_arrival_then_steps`,
//!   `rule_promotion_by_an_extra_step_offers_every_role`).
//! - Repetition compares positions between whole turns (before each regular move), not
//!   after each decision inside a turn
//!   (`rule_repetition_counts_positions_between_whole_turns`).
//! - Insufficient material is exactly K v K and K+minor v K (RULES.md, common rules),
//!   checkers on the board or not: a capture that leaves bare kings draws once the
//!   turn is over, even with the placed checker under a king
//!   (`rule_bare_material_draws_even_with_checkers_on_the_board`; found by
//!   `engine/tests/adrenaline_reference.rs`: checkers used to keep such games going).
//!
//! A turn is a compound of decisions by the same seat: the regular move, then each extra
//! step (`~e5`, `~e8q` for a promotion; `stop` ends them), then the checker placement
//! (`+e7`). Openings are a FEN (all four to six fields) then `|` and stacks as
//! `square=count`.
//!
//! Attacks are worked out on `Pos`, a copy of the pieces and stacks that a candidate
//! move, step or placement changes by hand, so legality never clones the game; reach
//! spreads king steps a layer at a time over bitboards, and searches (square, carriers
//! taken) states only when a carrier lies within reach. The enemy pieces' reaches are
//! worked out once per position (`Reaches`), each with the squares it was read from; a
//! candidate move or step works out again only the pieces whose read squares it changes
//! (or whose en passant capture it opens or closes), and a placement only the piece under
//! the new checker (the others treat that piece as their own, whatever it carries).
//! With ten or more carriers on the mover's side a reach could meet the `MAX_PRIZES` cap,
//! which looks past the read squares, so such positions judge every candidate afresh
//! (`shared_reaches_match_judging_each_candidate_afresh` checks both against each other).
//! Every candidate (regular move, step, placement) is judged by one test (`Judge`), with
//! or without the shared reaches, so listing and drawing cannot disagree; a castling's
//! path (no attacked square) is judged there too, not when the candidates are made. A
//! reach asked about one target (the king) first bounds the steps the piece could ever
//! take (`Pos::step_bound`: its checkers plus those of the carriers within reach of
//! what it could hold by then, grown to a fixpoint) and answers no at once when the
//! target is farther than that from every landing; the search over carriers taken drops
//! states farther from the target than the checkers held and still to be won could
//! carry the piece, and keeps its states on the stack. `Pos::attacked` asks a piece
//! without checkers only when it can take a carrier from which the bound reaches the
//! target (`pruned_attack_test_matches_every_full_reach_in_random_play` holds the
//! pruned test against every piece's full reach).
//!
//! The candidates are kept as groups of targets (`candidates.rs`: a piece and the squares
//! it may go to), not as a list: the `k`-th is read straight from the groups, in the
//! order `legal_actions` lists them
//! (`candidates_list_the_actions_in_the_order_the_game_lists_them`). A judged position is
//! built field by field, touching only the squares a move changes. In a position without
//! a checker anywhere a regular move is judged on the board it leaves, without making the
//! position (`moves_without_checkers_judged_on_the_board_match_the_made_position`). Once a
//! candidate has been found illegal, the judge looks for a check on the mover's king and
//! keeps the squares a move must change to answer it (between an orthodox checker and
//! the king, or the squares the checking reach was read from); a regular move that
//! changes none of them is refused without working out any reach
//! (`check_answers_refuse_only_moves_that_leave_the_king_attacked`).
//!
//! `apply` works out only the state key and any draw; whether the deciding seat has an
//! action (`turn`, `result`: the first legal candidate settles it) and the full list
//! (`legal_actions`) are worked out on first demand and kept until the next `apply`
//! (`cached_status_matches_a_fresh_computation_in_random_play`), so a search leaf never
//! lists. `sample_legal_action` draws candidates uniformly without replacement and
//! keeps the first legal one, uniform over the legal actions without listing them
//! (`sampled_actions_are_listed_ones_drawn_uniformly`). When `turn` has already judged
//! the candidates in order up to the first legal one, the draw leaves out the illegal
//! ones before it and takes that one without judging it again (removing illegal
//! candidates keeps the draw uniform;
//! `draws_after_turn_skip_the_judged_prefix_and_stay_uniform`).
//!
//! `features` appends `checkers` and `carriers` (White's less Black's) to the material
//! differences: a checker counts for the owner of the piece it stands under, whose extra
//! steps it buys (`features_add_checker_and_carrier_differences_to_material`).
//!
//! `attacks_and_legality_match_a_plain_reference_in_random_play` checks attacks on every
//! square, regular moves, steps and placements against a plain reference written from
//! RULES.md; `tests/adrenaline_random.rs` plays seeded random games (no king is ever
//! captured, no seat is asked to act without actions).
//!
//! Decisions where the texts are silent: a piece's reach counts the checkers it would win
//! by capturing carriers on the way (the seed's example mate relies on it;
//! `rule_seed_example_mate_with_the_pumped_up_bishop`), each carrier once and at most
//! `MAX_PRIZES` carriers per piece; a push takes nothing, so the square a pawn pushes to
//! is attacked only if a step comes back to it (it matters nowhere a king can stand); a
//! double push arms the opponent's en passant capture, so one that would let the taker
//! step onto the pusher's king is illegal even if the pusher meant to step away
//! (`rule_reach_keeps_en_passant_and_the_steps_after_it`); extra steps are recorded on the
//! board as null move + step, so the halfmove clock counts them (the 50-move rule then
//! comes a little sooner).
//!
//! The folder: this file (parameters, actions, the game's state and turn), `pos` (the
//! position and how far a piece reaches), `candidates` and `judge` (candidate actions and
//! judging them), `game` (the [`Game`] impl), `eval` (what stacks are worth), `tests/`.
//! Built on the engine's board, attacks and game API only.

use crate::attacks::{self, between};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    material_features, two_seat_returns, validate_ply_cap, Game, GameError, GameFacts, GameResult,
    InvalidParams, Seat, Turn, VariantParams,
};
use crate::moves::{Move, MoveKind};
use crate::square::{Color, Role, Square};
use crate::variants::chess::material_balance;
use crate::variants::{common_draw, no_moves_result};
use crate::zobrist;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};
use std::mem::MaybeUninit;
use std::sync::OnceLock;

mod candidates;
mod eval;
mod game;
mod judge;
mod pos;
use candidates::{Candidates, Kind};
pub use eval::{PROMOTION_REACH, STACK_TAIL, STACK_VALUE};
use judge::*;
use pos::*;

/// Tunable numbers of Adrenaline Chess.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct AdrenalineParams {
    pub ply_cap: u32,
    /// Checkers placed after a turn with captures.
    pub checkers_per_capture: u8,
    /// The checkers in the box: at most this many stand under pieces at once.
    pub checkers_total: u32,
}

impl Default for AdrenalineParams {
    fn default() -> Self {
        AdrenalineParams {
            ply_cap: 400,
            checkers_per_capture: 1,
            checkers_total: 24,
        }
    }
}

/// What each of [`AdrenalineParams`]'s keys is (printed by `chesslab params`).
pub const ADRENALINE_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "plies after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "checkers_per_capture",
        "checkers placed after a turn with captures",
        "1 to 255",
    ),
    crate::game::ParamDoc::new(
        "checkers_total",
        "checkers in the box: at most this many stand under pieces at once",
        "1 or more",
    ),
];

impl VariantParams for AdrenalineParams {
    const DOCS: &'static [crate::game::ParamDoc] = ADRENALINE_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        if self.checkers_per_capture == 0 {
            return Err(InvalidParams::new(
                "checkers_per_capture",
                "must be at least 1 (the seed places one checker per capturing turn)",
            ));
        }
        if self.checkers_total == 0 {
            return Err(InvalidParams::new(
                "checkers_total",
                "must be at least 1 (the seed's box holds 24)",
            ));
        }
        Ok(())
    }
}

/// One decision within a turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AdrenalineAction {
    /// The regular chess move.
    Move(Move),
    /// An extra king step of the piece that just moved, spending one checker; a pawn
    /// stepping onto its last rank names the role it promotes to.
    Step(Square, Option<Role>),
    /// No more extra steps this turn.
    Stop,
    /// Place a checker under the opponent's piece on this square.
    Place(Square),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum Phase {
    Regular,
    /// Extra steps of the piece now on this square.
    Steps(Square),
    Place,
}

/// Per-side counts over the game, for `tallies` (index = colour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    /// Checkers placed after captures.
    placed: [u32; 2],
    /// Extra king steps taken (each spends a checker).
    steps: [u32; 2],
    /// Checkers won by capturing a piece that carried them.
    taken_over: [u32; 2],
}

#[derive(Clone, Debug)]
struct Saved {
    stacks: [u8; 64],
    phase: Phase,
    captured_this_turn: bool,
    counts: Counts,
}

/// What the repetition test reads of each action played, kept apart from [`Saved`] so
/// that the test walks 16 bytes an action instead of a whole saved state.
#[derive(Clone, Copy, Debug)]
struct Passed {
    /// The state key before the action.
    key: u64,
    /// Whether that state was between whole turns (before a regular move).
    regular: bool,
    /// The board plies the action made (a step is a null move and a move).
    board_plies: u8,
}

/// The most checker carriers one piece's reach keeps track of when it may capture them
/// on its way (each doubles the search); carriers past this many are treated as plain
/// pieces (never seen in play: the supply is 24 and stacks gather on few pieces).
const MAX_PRIZES: usize = 10;

/// An Adrenaline game.
#[derive(Clone, Debug)]
pub struct Adrenaline {
    board: Board,
    params: AdrenalineParams,
    /// Checkers under the piece on each square.
    stacks: [u8; 64],
    phase: Phase,
    captured_this_turn: bool,
    counts: Counts,
    undo: Vec<Saved>,
    passed: Vec<Passed>,
    status: Status,
}

/// What the deciding seat can do now. `apply` works out only the state key and any draw;
/// the rest is worked out on first demand and kept until the next `apply`: whether the
/// seat has any legal action (`turn` and `result` need only that, found at the first
/// legal candidate) and the full list (`legal_actions`). A search leaf or a playout that
/// draws one action ([`Game::sample_legal_action`]) never lists them all. `undo` only
/// marks the status stale (search undoes and applies again without asking) and a stale
/// status is worked out on demand without being kept.
#[derive(Clone, Debug)]
struct Status {
    key: u64,
    draw: Option<&'static str>,
    fresh: bool,
    /// The first legal candidate (by index into `candidates`; `None` when there is none
    /// or under a draw) when `has_actions` found it by judging them in order: the
    /// candidates before it are illegal, so a draw skips them and takes this one without
    /// judging it again.
    first_legal: OnceLock<Option<usize>>,
    /// The legal actions (empty under a draw).
    actions: OnceLock<Vec<AdrenalineAction>>,
    /// The candidate actions and the per-candidate test (no shared reaches), made once
    /// for `turn` and the draw of one action.
    candidates: OnceLock<(Candidates, Judge)>,
}

impl Adrenaline {
    pub fn from_board(board: Board, params: AdrenalineParams) -> Adrenaline {
        let mut g = Adrenaline {
            board,
            params,
            stacks: [0; 64],
            phase: Phase::Regular,
            captured_this_turn: false,
            counts: Counts::default(),
            undo: Vec::new(),
            passed: Vec::new(),
            status: Status {
                key: 0,
                draw: None,
                fresh: false,
                first_legal: OnceLock::new(),
                actions: OnceLock::new(),
                candidates: OnceLock::new(),
            },
        };
        g.refresh();
        g
    }

    /// Works out the status again after the position changed (the key and any draw now,
    /// the actions on demand).
    fn refresh(&mut self) {
        let key = self.key_of();
        let draw = self.draw_reason_for(key);
        self.status = Status {
            key,
            draw,
            fresh: true,
            first_legal: OnceLock::new(),
            actions: OnceLock::new(),
            candidates: OnceLock::new(),
        };
    }

    /// The draw that ends the game now, from the status when it is fresh.
    fn draw_now(&self) -> Option<&'static str> {
        if self.status.fresh {
            self.status.draw
        } else {
            self.draw_reason_for(self.key_of())
        }
    }

    /// Calls `f` with the legal actions of the deciding seat (empty under a draw), from
    /// the status when it is fresh (listing them there on first demand).
    fn with_actions<R>(&self, f: impl FnOnce(&[AdrenalineAction]) -> R) -> R {
        let list = || {
            let mut actions = Vec::new();
            if self.draw_now().is_none() {
                self.actions_into(&mut actions);
            }
            actions
        };
        if self.status.fresh {
            f(self.status.actions.get_or_init(list))
        } else {
            f(&list())
        }
    }

    /// Whether the deciding seat has any legal action: from the list when it is already
    /// made, else from the first legal candidate.
    fn has_actions(&self) -> bool {
        if !self.status.fresh {
            return self.first_legal().is_some();
        }
        if let Some(list) = self.status.actions.get() {
            return !list.is_empty();
        }
        self.status
            .first_legal
            .get_or_init(|| self.first_legal())
            .is_some()
    }

    /// The first legal candidate, judging them in order (`None` under a draw).
    fn first_legal(&self) -> Option<usize> {
        if self.draw_now().is_some() {
            return None;
        }
        self.with_candidates(|candidates, judge| candidates.position(|a| judge.is_legal(a)))
    }

    /// Calls `f` with the candidate actions and their per-candidate test, from the status
    /// when it is fresh (made there on first demand).
    fn with_candidates<R>(&self, f: impl FnOnce(&Candidates, &Judge) -> R) -> R {
        let make = || self.candidates(false);
        if self.status.fresh {
            let (candidates, judge) = self.status.candidates.get_or_init(make);
            f(candidates, judge)
        } else {
            let (candidates, judge) = make();
            f(&candidates, &judge)
        }
    }

    /// The candidate actions of the deciding seat in this phase (a superset of the legal
    /// ones, in the order `legal_actions` lists them) and the test that tells the legal
    /// ones. `shared`: work out the enemy reaches once for all candidates ([`Reaches`],
    /// when there are carriers and the cap allows), for listing them all; otherwise each
    /// candidate is judged afresh, for judging only a few.
    fn candidates(&self, shared: bool) -> (Candidates, Judge) {
        let pos = self.pos();
        let us = self.actor();
        let reaches = match self.phase {
            Phase::Regular | Phase::Steps(_) if shared && pos.stacked.any() => {
                Reaches::new(&pos, us.other()).map(Box::new)
            }
            _ => None,
        };
        let mut out = Candidates::default();
        match self.phase {
            // Castlings through attacked squares are refused by the judge.
            Phase::Regular => self.regular_candidates(&mut out),
            Phase::Steps(from) => {
                out.push(Kind::Stop, from, Bitboard::from_square(from));
                let targets = attacks::king_attacks(from) - self.board.by_color(us);
                let (promoting, plain) = if pos.role_at(from) == Some(Role::Pawn) {
                    let last = Bitboard::relative_rank(us, 7);
                    (targets & last, targets - last)
                } else {
                    (Bitboard::EMPTY, targets)
                };
                // By square: White's last rank comes after the other targets, Black's
                // before.
                if us == Color::White {
                    out.push(Kind::Step, from, plain);
                    out.push(Kind::StepPromotion, from, promoting);
                } else {
                    out.push(Kind::StepPromotion, from, promoting);
                    out.push(Kind::Step, from, plain);
                }
            }
            Phase::Place => out.push(
                Kind::Place,
                Square::new(0),
                Self::placement_candidates(&pos, us),
            ),
        }
        let judge = Judge::new(
            pos,
            us,
            self.phase,
            self.params.checkers_per_capture,
            reaches,
        );
        (out, judge)
    }

    /// The candidates written out (for the tests that hold them against a reference).
    #[cfg(test)]
    fn candidates_into(&self, out: &mut Vec<AdrenalineAction>, shared: bool) -> Judge {
        let (candidates, judge) = self.candidates(shared);
        out.extend(candidates.iter());
        judge
    }

    /// Appends the actions open to the deciding seat in this phase (draws aside). With
    /// carriers on the board the enemy reaches are worked out once and shared between
    /// the candidates (without, every reach is an orthodox attack, which the plain test
    /// answers at once).
    fn actions_into(&self, out: &mut Vec<AdrenalineAction>) {
        let (candidates, judge) = self.candidates(true);
        out.extend(candidates.iter().filter(|&a| judge.is_legal(a)));
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// Checkers under the piece on `sq`.
    pub fn stack(&self, sq: Square) -> u8 {
        self.stacks[sq.index()]
    }

    /// Checkers under pieces now.
    pub fn checkers_on_board(&self) -> u32 {
        self.stacks.iter().map(|&n| n as u32).sum()
    }

    /// Checkers beside the board: the box less those under pieces (spent ones are back).
    pub fn supply(&self) -> u32 {
        self.params
            .checkers_total
            .saturating_sub(self.checkers_on_board())
    }

    /// The seat deciding now (the mover keeps deciding through steps and placement).
    fn actor(&self) -> Color {
        match self.phase {
            Phase::Regular => self.board.turn(),
            _ => self.board.turn().other(),
        }
    }

    fn pos(&self) -> Pos {
        Pos::new(&self.board, &self.stacks)
    }

    /// Whether `by` attacks `target` (adrenaline reach included).
    #[cfg(test)]
    fn attacked(&self, target: Square, by: Color) -> bool {
        self.pos().attacked(target, by)
    }

    fn king_attacked(&self, color: Color) -> bool {
        self.board
            .king(color)
            .is_some_and(|k| self.pos().attacked(k, color.other()))
    }

    /// The side to move is in check (by adrenaline reach too).
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.actor())
    }

    /// The regular moves' candidates: the pseudo-legal moves, castlings with checkers or
    /// through occupied squares left out (whether the king's path is attacked is left
    /// to [`Judge`]).
    fn regular_candidates(&self, out: &mut Candidates) {
        let b = &self.board;
        let us = b.turn();
        let occ = b.occupied();
        let own = b.by_color(us);
        let theirs = b.by_color(us.other());
        let ep = b.ep_square().filter(|&e| !occ.contains(e));
        // The pieces' targets a role at a time (a choice of attack set per piece, in
        // square order, mispredicted often enough to show in profiles), then written
        // out in square order.
        let mut targets = [Bitboard::EMPTY; 64];
        let mine = |role: Role| b.pieces(us, role);
        for sq in mine(Role::Knight) {
            targets[sq.index()] = attacks::knight_attacks(sq);
        }
        for sq in mine(Role::Bishop) {
            targets[sq.index()] = attacks::bishop_attacks(sq, occ);
        }
        for sq in mine(Role::Rook) {
            targets[sq.index()] = attacks::lean_rook_attacks(sq, occ);
        }
        for sq in mine(Role::Queen) {
            targets[sq.index()] = attacks::lean_queen_attacks(sq, occ);
        }
        for sq in mine(Role::King) {
            targets[sq.index()] = attacks::king_attacks(sq);
        }
        let pawns = mine(Role::Pawn);
        for sq in own {
            if !pawns.contains(sq) {
                out.push(Kind::Normal, sq, targets[sq.index()] - own);
                continue;
            }
            let step = Bitboard::from_square(sq).forward(us);
            let one = step - occ;
            let two = one.forward(us) & Bitboard::relative_rank(us, 3) & !occ;
            let caps = attacks::pawn_attacks(us, sq) & theirs;
            let kind = if Bitboard::relative_rank(us, 6).contains(sq) {
                Kind::Promotion
            } else {
                Kind::Normal
            };
            out.push(kind, sq, one | two | caps);
            if let Some(e) = ep.filter(|&e| attacks::pawn_attacks(us, sq).contains(e)) {
                out.push(Kind::EnPassant, sq, Bitboard::from_square(e));
            }
        }
        let Some(king) = b.king(us) else { return };
        if self.stacks[king.index()] > 0 || !Bitboard::relative_rank(us, 0).contains(king) {
            return;
        }
        let mut rooks = Bitboard::EMPTY;
        for rook in b.castling_rights() & b.pieces(us, Role::Rook) {
            if self.stacks[rook.index()] > 0 {
                continue;
            }
            let (kd, rd) = Board::castle_targets(us, king, rook);
            let must_be_empty = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                .without(king)
                .without(rook);
            if (must_be_empty & occ).is_empty() {
                rooks.set(rook);
            }
        }
        out.push(Kind::Castle, king, rooks);
    }

    fn can_place(&self) -> bool {
        self.checkers_on_board() + self.params.checkers_per_capture as u32
            <= self.params.checkers_total
    }

    fn after_piece_arrives(&mut self, at: Square) {
        self.phase = if self.stacks[at.index()] > 0 {
            Phase::Steps(at)
        } else {
            self.turn_end_phase()
        };
    }

    fn turn_end_phase(&self) -> Phase {
        // Called once the capturer's piece has finished moving: the board's side to move
        // is already the opponent, whose pieces receive the checker.
        let placer = self.board.turn().other();
        if self.captured_this_turn
            && self.can_place()
            && self.safe_placements(placer).next().is_some()
        {
            Phase::Place
        } else {
            Phase::Regular
        }
    }

    /// The opponent's pieces a checker may go under: those whose new reach would not
    /// attack the placer's own king (a placement is part of the placer's turn, and no
    /// part of a turn may leave the mover's king attacked).
    fn safe_placements(&self, placer: Color) -> impl Iterator<Item = Square> {
        let pos = self.pos();
        let candidates = Self::placement_candidates(&pos, placer);
        let judge = Judge::new(
            pos,
            placer,
            Phase::Place,
            self.params.checkers_per_capture,
            None,
        );
        candidates.filter(move |&sq| judge.is_legal(AdrenalineAction::Place(sq)))
    }

    /// The squares a checker of `placer` might go under: every enemy piece, unless the
    /// placer's king is attacked already (a checker changes the reach of the piece it
    /// goes under only: the others treat that piece as their own, whatever it carries).
    fn placement_candidates(pos: &Pos, placer: Color) -> Bitboard {
        let them = placer.other();
        if pos.king(placer).is_some_and(|k| pos.attacked(k, them)) {
            Bitboard::EMPTY
        } else {
            pos.by_color[them.index()]
        }
    }

    fn key_of(&self) -> u64 {
        let mut k = self.board.key();
        for sq in nonzero_squares(&self.stacks) & self.board.occupied() {
            let n = self.stacks[sq.index()];
            k ^= zobrist::extra(20_000 + sq.index() as u64 * 64 + n as u64);
        }
        k ^ match self.phase {
            Phase::Regular => 0,
            Phase::Steps(s) => zobrist::extra(30_000 + s.index() as u64),
            Phase::Place => zobrist::extra(30_100),
        } ^ if self.captured_this_turn {
            zobrist::extra(30_200)
        } else {
            0
        }
    }
}

impl Adrenaline {
    /// The draw that ends the game now, `key` being [`Adrenaline::key_of`].
    fn draw_reason_for(&self, key: u64) -> Option<&'static str> {
        if self.phase != Phase::Regular {
            return None;
        }
        // Bare material (K v K, K+minor v K) draws whatever checkers stand under the
        // pieces: RULES.md's common rule names exactly those two cases for every variant
        // (`rule_bare_material_draws_even_with_checkers_on_the_board`).
        common_draw(
            &self.board,
            self.board.ply(),
            self.params.ply_cap,
            false,
            key,
            std::iter::empty(),
        )
        .or_else(|| {
            // Positions are compared between whole turns only: the states before each
            // regular move, back to the last irreversible board ply (the `board_plies`
            // of the later actions add up to the halfmove clock).
            let window = self.board.halfmoves() as usize;
            let mut plies = 0usize;
            let earlier = self
                .passed
                .iter()
                .rev()
                .take_while(|s| {
                    plies += s.board_plies as usize;
                    plies <= window
                })
                .filter(|s| s.regular && s.key == key)
                .count();
            (earlier >= 2).then_some("repetition")
        })
    }
}

#[cfg(test)]
mod tests;

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
//!   `tests/adrenaline_reference.rs`: checkers used to keep such games going).
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
use candidates::{Candidates, Kind};

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

impl VariantParams for AdrenalineParams {
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

/// Every square a king step away from a square of `b`.
fn king_spread(b: Bitboard) -> Bitboard {
    let x = b.0;
    let side = ((x << 1) & !Bitboard::FILE_A.0) | ((x >> 1) & !Bitboard::FILE_H.0);
    let row = x | side;
    Bitboard(side | (row << 8) | (row >> 8))
}

/// The squares whose count in `stacks` is not zero. Branch-free: which pieces carry
/// checkers is unpredictable, and a branch per occupied square showed in profiles (this
/// runs for every position a playout visits).
fn nonzero_squares(stacks: &[u8; 64]) -> Bitboard {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut bits = 0u64;
    for (rank, row) in stacks.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(row.try_into().expect("a rank is eight squares"));
        // The top bit of each byte: set when the byte is not zero (no carry crosses
        // bytes as the top bits are masked off before adding).
        let top = (((x & LOW7) + LOW7) | x) & !LOW7;
        // Gathers the eight top bits, file a lowest, into the top byte.
        let files = (top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        bits |= files << (8 * rank);
    }
    Bitboard(bits)
}

/// Every square within `d` king steps of `sq` (Chebyshev distance at most `d`).
fn within(sq: Square, d: u32) -> Bitboard {
    let d = d.min(7) as u8;
    let (f, r) = (sq.file(), sq.rank());
    let (flo, fhi) = (f.saturating_sub(d) as u32, (f + d).min(7) as u32);
    let (rlo, rhi) = (r.saturating_sub(d) as u32, (r + d).min(7) as u32);
    let files = (((2u64 << fhi) - (1u64 << flo)) & 0xFF) * Bitboard::FILE_A.0;
    let below = |rank: u32| {
        if rank >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * rank)) - 1
        }
    };
    let rows = below(rhi + 1) & !below(rlo);
    Bitboard(files & rows)
}

/// The pieces and checkers of a position, cheap to copy: a candidate move, step or
/// placement is judged on a copy changed by hand, so asking whether a king would be
/// attacked never clones or replays the game.
#[derive(Clone, Copy, Debug)]
struct Pos {
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 6],
    stacks: [u8; 64],
    /// Squares whose piece carries checkers.
    stacked: Bitboard,
    /// The en passant square and the side that may capture there.
    ep: Option<(Square, Color)>,
}

impl Pos {
    fn new(board: &Board, stacks: &[u8; 64]) -> Pos {
        let stacked = nonzero_squares(stacks) & board.occupied();
        Pos {
            by_color: [board.by_color(Color::White), board.by_color(Color::Black)],
            by_role: Role::ALL.map(|r| board.by_role(r)),
            stacks: *stacks,
            stacked,
            ep: board.ep_square().map(|e| (e, board.turn())),
        }
    }

    fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    fn role_at(&self, sq: Square) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    fn king(&self, color: Color) -> Option<Square> {
        (self.by_color[color.index()] & self.by_role[Role::King.index()]).first()
    }

    fn clear(&mut self, sq: Square) {
        for b in self.by_color.iter_mut().chain(self.by_role.iter_mut()) {
            b.clear(sq);
        }
        self.stacks[sq.index()] = 0;
        self.stacked.clear(sq);
    }

    fn put(&mut self, sq: Square, color: Color, role: Role, stack: u8) {
        self.clear(sq);
        self.by_color[color.index()].set(sq);
        self.by_role[role.index()].set(sq);
        self.stacks[sq.index()] = stack;
        if stack > 0 {
            self.stacked.set(sq);
        }
    }

    /// `n` more checkers under the piece on `sq`.
    fn with_checkers(mut self, sq: Square, n: u8) -> Pos {
        self.stacks[sq.index()] = self.stacks[sq.index()].saturating_add(n);
        if self.stacks[sq.index()] > 0 {
            self.stacked.set(sq);
        }
        self
    }

    /// The position after `us` plays the regular move `mv` (the stack travels, a capture
    /// hands over the captured stack, a double push opens en passant to the opponent).
    fn after_move(&self, mv: Move, us: Color) -> Pos {
        let (from, to) = (mv.from(), mv.to());
        let kind = mv.kind();
        if kind == MoveKind::Castle {
            // Castling is refused to a king or rook with checkers.
            let mut p = *self;
            p.ep = None;
            let (kd, rd) = Board::castle_targets(us, from, to);
            p.clear(from);
            p.clear(to);
            p.put(kd, us, Role::King, 0);
            p.put(rd, us, Role::Rook, 0);
            return p;
        }
        let moving = self.role_at(from).unwrap_or(Role::Pawn);
        let role = match kind {
            MoveKind::Promotion(r) => r,
            _ => moving,
        };
        let cap = if kind == MoveKind::EnPassant {
            Square::from_coords(to.file(), from.rank())
        } else {
            to
        };
        let stack = self.stacks[from.index()].saturating_add(self.stacks[cap.index()]);
        let ep = (role == Role::Pawn && from.rank().abs_diff(to.rank()) == 2).then(|| {
            let passed = Square::from_coords(from.file(), (from.rank() + to.rank()) / 2);
            (passed, us.other())
        });
        self.moved(us, (from, moving), (to, role), cap, stack, ep)
    }

    /// The position after the piece of `us` on `from` (a `moving`) goes to `to` as a
    /// `role`, taking whatever stands on `cap`, with `stack` checkers under it and `ep`
    /// as the en passant square. Built field by field from `self`: judging a candidate
    /// starts here, and copying the whole position then changing it read back what the
    /// copy had just written (stalls that showed in profiles).
    fn moved(
        &self,
        us: Color,
        (from, moving): (Square, Role),
        (to, role): (Square, Role),
        cap: Square,
        stack: u8,
        ep: Option<(Square, Color)>,
    ) -> Pos {
        let (left, taken, arrived) = (
            Bitboard::from_square(from),
            Bitboard::from_square(cap),
            Bitboard::from_square(to),
        );
        let mut by_color = self.by_color;
        by_color[us.index()] = (by_color[us.index()] - left) | arrived;
        by_color[us.other().index()] -= taken;
        let mut by_role = [Bitboard::EMPTY; 6];
        for (i, b) in by_role.iter_mut().enumerate() {
            let mut x = self.by_role[i] - taken;
            if i == moving.index() {
                x -= left;
            }
            if i == role.index() {
                x |= arrived;
            }
            *b = x;
        }
        let mut stacks = self.stacks;
        stacks[from.index()] = 0;
        stacks[cap.index()] = 0;
        stacks[to.index()] = stack;
        let mut stacked = self.stacked - (left | taken);
        if stack > 0 {
            stacked |= arrived;
        }
        Pos {
            by_color,
            by_role,
            stacks,
            stacked,
            ep,
        }
    }

    /// The position after `us` steps the piece on `from` to `to`, spending a checker.
    fn after_step(&self, from: Square, to: Square, us: Color, promotion: Option<Role>) -> Pos {
        let moving = self.role_at(from).unwrap_or(Role::Pawn);
        let left = self.stacks[from.index()].saturating_sub(1);
        let stack = left.saturating_add(self.stacks[to.index()]);
        let role = promotion.unwrap_or(moving);
        self.moved(us, (from, moving), (to, role), to, stack, None)
    }

    /// The pieces of `by` attacking `target` the orthodox way.
    fn orthodox_attackers(&self, target: Square, by: Color, occ: Bitboard) -> Bitboard {
        let r = |role: Role| self.by_role[role.index()];
        let hits = (attacks::pawn_attacks(by.other(), target) & r(Role::Pawn))
            | (attacks::knight_attacks(target) & r(Role::Knight))
            | (attacks::king_attacks(target) & r(Role::King))
            | (attacks::bishop_attacks(target, occ) & (r(Role::Bishop) | r(Role::Queen)))
            | (attacks::lean_rook_attacks(target, occ) & (r(Role::Rook) | r(Role::Queen)));
        hits & self.by_color[by.index()]
    }

    /// Whether `by` attacks `target`, adrenaline reach included.
    fn attacked(&self, target: Square, by: Color) -> bool {
        self.attacker(target, by).is_some()
    }

    /// A piece of `by` attacking `target`, adrenaline reach included: an orthodox
    /// attacker when there is one.
    fn attacker(&self, target: Square, by: Color) -> Option<Square> {
        let occ = self.occupied();
        if let Some(a) = self.orthodox_attackers(target, by, occ).first() {
            return Some(a);
        }
        if self.stacked.is_empty() {
            return None;
        }
        // Only a piece with checkers, or one whose regular move captures a carrier,
        // reaches further than its orthodox attacks.
        let prizes = self.stacked & self.by_color[by.other().index()];
        let mut candidates = self.stacked & self.by_color[by.index()];
        // A piece without checkers steps only on what it wins by its regular move: from
        // a carrier it takes, at most the checkers it can gather from there
        // ([`Pos::step_bound`]), so carriers farther from the target than that add no
        // candidate.
        let budget: u32 = prizes.map(|c| self.stacks[c.index()] as u32).sum();
        for p in prizes & within(target, budget) {
            let bound = self.step_bound(Bitboard::from_square(p), 0, prizes, None);
            if within(target, bound).contains(p) {
                candidates |= self.orthodox_attackers(p, by, occ);
            }
        }
        if let Some((e, side)) = self.ep {
            let beside = Square::from_coords(e.file(), if by == Color::White { 4 } else { 3 });
            if side == by && prizes.contains(beside) {
                candidates |= attacks::pawn_attacks(by.other(), e)
                    & self.by_color[by.index()]
                    & self.by_role[Role::Pawn.index()];
            }
        }
        candidates.find(|&sq| self.reaches(sq, by, target))
    }

    /// At most how many king steps a piece holding `k` checkers, standing after its
    /// regular move on one of `landings` (having taken the en passant carrier
    /// `ep_taken`, if any), can ever take by capturing carriers among `prizes`: a carrier
    /// counts only once it lies within the steps of what the piece could hold by then
    /// (each carrier is reached by steps paid for by the checkers held before it), grown
    /// until no further carrier comes within reach. An upper bound (own pieces in the
    /// way are ignored), so a target farther from every landing is out of reach; it is
    /// far tighter than `k` plus every carrier's checkers when carriers stand apart.
    fn step_bound(
        &self,
        landings: Bitboard,
        k: u8,
        prizes: Bitboard,
        ep_taken: Option<Square>,
    ) -> u32 {
        let mut held = k as u32;
        let mut taken = Bitboard::EMPTY;
        if let Some(cap) = ep_taken {
            held += self.stacks[cap.index()] as u32;
            taken.set(cap);
        }
        let mut zone = landings;
        let mut radius = 0;
        loop {
            while radius < held.min(8) {
                zone |= king_spread(zone);
                radius += 1;
            }
            let new = (prizes & zone) - taken;
            if new.is_empty() {
                return held;
            }
            held += new.map(|c| self.stacks[c.index()] as u32).sum::<u32>();
            taken |= new;
        }
    }

    /// The en passant capture open to a pawn of `color` on `sq`: (landing, captured).
    fn ep_capture(&self, sq: Square, color: Color) -> Option<(Square, Square)> {
        let (e, side) = self.ep?;
        (side == color && attacks::pawn_attacks(color, sq).contains(e))
            .then(|| (e, Square::from_coords(e.file(), sq.rank())))
    }

    /// Whether the piece of `color` on `sq` attacks `target`. It attacks the squares its
    /// regular move reaches, and those up to k king steps further while its k checkers last (never onto its own
    /// pieces, which it defends instead; the square it left is empty). A pawn attacks its
    /// diagonals, but its steps start only from where it can really go: a push onto an
    /// empty square, a capture of an enemy piece, or its en passant square (a push takes
    /// nothing, so the square pushed to counts only when a step comes back to it).
    /// Capturing a carrier on the way adds that carrier's checkers, once.
    fn reaches(&self, sq: Square, color: Color, target: Square) -> bool {
        let occ = self.occupied();
        let own = self.by_color[color.index()].without(sq);
        let enemy = self.by_color[color.other().index()];
        let role = self.role_at(sq).unwrap_or(Role::Pawn);
        let mut ep = None;
        let (reached, landings) = if role == Role::Pawn {
            let diagonals = attacks::pawn_attacks(color, sq);
            let push = Bitboard::from_square(sq).forward(color) - occ;
            let double = if Bitboard::relative_rank(color, 1).contains(sq) {
                push.forward(color) - occ
            } else {
                Bitboard::EMPTY
            };
            let mut landings = push | double | (diagonals & enemy);
            ep = self.ep_capture(sq, color);
            if let Some((e, _)) = ep {
                landings.set(e);
            }
            // A push cannot take a piece: the pushed-to square is no attack by itself.
            (diagonals, landings)
        } else {
            let a = attacks::lean_attacks(role, color, sq, occ);
            (a, a - own)
        };
        if reached.contains(target) {
            return true;
        }
        let prizes = self.stacked & enemy;
        let k = self.stacks[sq.index()];
        // The piece can take no more steps than this, one king step each from a
        // landing: a target farther from every landing is out of reach.
        let ep_prize = ep.is_some_and(|(_, cap)| prizes.contains(cap));
        let ep_cap = ep.map(|(_, cap)| cap).filter(|_| ep_prize);
        let most = self.step_bound(landings, k, prizes, ep_cap);
        if (landings & within(target, most)).is_empty() {
            return false;
        }
        if !ep_prize && (landings & prizes).is_empty() {
            // No carrier on the way yet: spread by king steps, layer by layer.
            let mut at = landings;
            let mut clear = true;
            for _ in 0..k {
                let next = king_spread(at);
                if next.contains(target) {
                    return true;
                }
                let stand = at | (next - own);
                if (stand & prizes).any() {
                    clear = false;
                    break;
                }
                if stand == at {
                    break;
                }
                at = stand;
            }
            if clear {
                return false;
            }
        }
        // A carrier is within reach.
        self.reach_through_prizes(sq, k, most, reached, landings, own, ep, Some(target))
            .contains(target)
    }

    /// Every square the piece of `color` on `sq` attacks (the squares `reaches` answers
    /// yes for), and the squares whose contents that answer was read from: a change of
    /// pieces or stacks elsewhere leaves the reach as it is. Those are the squares
    /// reached (a slider's blockers, every square a step was tried onto), the piece's own
    /// square, a pawn's push squares and its en passant squares; carriers farther away
    /// only enter through `MAX_PRIZES`, which [`Reaches::new`] keeps out of play.
    fn reach_set(&self, sq: Square, color: Color) -> (Bitboard, Bitboard) {
        let occ = self.occupied();
        let own = self.by_color[color.index()].without(sq);
        let enemy = self.by_color[color.other().index()];
        let role = self.role_at(sq).unwrap_or(Role::Pawn);
        let mut read = Bitboard::from_square(sq);
        let mut ep = None;
        let (reached, landings) = if role == Role::Pawn {
            let diagonals = attacks::pawn_attacks(color, sq);
            let ahead = Bitboard::from_square(sq).forward(color);
            read |= ahead;
            let push = ahead - occ;
            let double = if Bitboard::relative_rank(color, 1).contains(sq) {
                read |= ahead.forward(color);
                push.forward(color) - occ
            } else {
                Bitboard::EMPTY
            };
            let mut landings = push | double | (diagonals & enemy);
            ep = self.ep_capture(sq, color);
            if let Some((e, cap)) = ep {
                landings.set(e);
                read = read.with(e).with(cap);
            }
            (diagonals, landings)
        } else {
            let a = attacks::lean_attacks(role, color, sq, occ);
            (a, a - own)
        };
        let prizes = self.stacked & enemy;
        let k = self.stacks[sq.index()];
        let ep_prize = ep.is_some_and(|(_, cap)| prizes.contains(cap));
        if !ep_prize && (landings & prizes).is_empty() {
            let mut seen = reached;
            let mut at = landings;
            let mut clear = true;
            for _ in 0..k {
                let next = king_spread(at);
                seen |= next;
                let stand = at | (next - own);
                if (stand & prizes).any() {
                    clear = false;
                    break;
                }
                if stand == at {
                    break;
                }
                at = stand;
            }
            if clear {
                return (seen, seen | read);
            }
        }
        let most = k as u32 + prizes.map(|c| self.stacks[c.index()] as u32).sum::<u32>();
        let r = self.reach_through_prizes(sq, k, most, reached, landings, own, ep, None);
        (r, r | read)
    }

    /// The squares whose pieces, colours or carrier marks differ between `self` and
    /// `other`.
    fn changed_squares(&self, other: &Pos) -> Bitboard {
        let mut d = (self.by_color[0] ^ other.by_color[0])
            | (self.by_color[1] ^ other.by_color[1])
            | (self.stacked ^ other.stacked);
        for (a, b) in self.by_role.iter().zip(other.by_role.iter()) {
            d |= *a ^ *b;
        }
        d
    }

    /// `reach` when the piece may capture carriers on its way: a search over (square,
    /// carriers taken) keeping the most checkers the piece can hold in each state. With
    /// a `target` the answer is only whether the result contains it: the search stops
    /// once it steps there and drops states too far from it (farther than the checkers
    /// held plus every carrier not yet taken could ever carry it; each step moves one
    /// king step), so a carrier the piece could take far from the target costs almost
    /// nothing (`shared_reaches_match_judging_each_candidate_afresh` holds `reaches`, which
    /// passes a target, against `reach_set`, which does not).
    #[allow(clippy::too_many_arguments)]
    fn reach_through_prizes(
        &self,
        sq: Square,
        k: u8,
        most: u32,
        mut reached: Bitboard,
        landings: Bitboard,
        own: Bitboard,
        ep: Option<(Square, Square)>,
        target: Option<Square>,
    ) -> Bitboard {
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        let carriers = self.stacked & self.by_color[color.other().index()];
        // Only carriers within the farthest the piece could ever go (`most` steps) matter.
        let mut region = landings;
        for _ in 0..most {
            let next = region | (king_spread(region) - own);
            if next == region {
                break;
            }
            region = next;
        }
        // The pawn taken en passant first: it stands beside the landing, maybe outside
        // the region.
        let ep_carrier = ep.map(|(_, cap)| cap).filter(|&cap| carriers.contains(cap));
        let mut prizes = [Square::new(0); MAX_PRIZES];
        let mut value = [0i16; MAX_PRIZES];
        let mut n = 0;
        let mut prize_squares = Bitboard::EMPTY;
        for p in ep_carrier
            .into_iter()
            .chain((carriers & region).filter(|&p| Some(p) != ep_carrier))
            .take(MAX_PRIZES)
        {
            prizes[n] = p;
            value[n] = self.stacks[p.index()] as i16;
            prize_squares.set(p);
            n += 1;
        }
        let gain = |t: Square, mask: usize, left: i16| -> (usize, i16) {
            if !prize_squares.contains(t) {
                return (mask, left);
            }
            match prizes[..n].iter().position(|&p| p == t) {
                Some(i) if mask & (1 << i) == 0 => (mask | (1 << i), left + value[i]),
                _ => (mask, left),
            }
        };
        // The most checkers held in each (square, carriers taken) state; on the stack for
        // the usual one to three carriers.
        let mut one = [-1i16; 64 << 1];
        let mut small;
        let mut large = Vec::new();
        let best: &mut [i16] = if n <= 1 {
            &mut one[..64 << n]
        } else if n <= 3 {
            small = [-1i16; 64 << 3];
            &mut small[..64 << n]
        } else {
            large.resize(64 << n, -1i16);
            &mut large
        };
        // The checkers still to be won with `mask` taken, for the distance bound.
        let total: i16 = value[..n].iter().sum();
        let rest = |mut mask: usize| -> i16 {
            let mut r = total;
            while mask != 0 {
                r -= value[mask.trailing_zeros() as usize];
                mask &= mask - 1;
            }
            r
        };
        let near = |t: Square, mask: usize, left: i16| {
            target.is_none_or(|x| {
                let d = t.file().abs_diff(x.file()).max(t.rank().abs_diff(x.rank()));
                d as i16 <= left + rest(mask)
            })
        };
        // The states to expand: on the stack unless the search grows unusually wide.
        let mut queue = StateStack::default();
        let relax =
            |t: Square, mask: usize, left: i16, best: &mut [i16], queue: &mut StateStack| {
                let slot = (mask << 6) | t.index();
                if left > best[slot] {
                    best[slot] = left;
                    if left > 0 && near(t, mask, left) {
                        queue.push(slot as u16);
                    }
                }
            };
        for d in landings {
            let (mask, left) = match ep {
                // Taking en passant wins the checkers of the pawn beside the landing.
                Some((e, cap)) if e == d => gain(cap, 0, k as i16),
                _ => gain(d, 0, k as i16),
            };
            relax(d, mask, left, best, &mut queue);
        }
        while let Some(slot) = queue.pop() {
            let slot = slot as usize;
            let (at, mask) = (Square::new((slot & 63) as u8), slot >> 6);
            let left = best[slot];
            let steps = attacks::king_attacks(at);
            reached |= steps;
            if target.is_some_and(|x| steps.contains(x)) {
                return reached;
            }
            for t in steps - own {
                let (mask2, left2) = gain(t, mask, left - 1);
                relax(t, mask2, left2, best, &mut queue);
            }
        }
        reached
    }
}

/// A stack of search states (`(carriers taken << 6) | square`) kept on the stack frame
/// for the usual few hundred, spilling onto the heap only beyond that: the reach search
/// runs for most judged candidates and a heap queue per call showed in profiles.
struct StateStack {
    /// Slots below `len` are written (left unwritten below: zeroing them was a tenth of
    /// the search's time).
    inline: [MaybeUninit<u16>; 256],
    len: usize,
    spill: Vec<u16>,
}

impl Default for StateStack {
    fn default() -> Self {
        StateStack {
            inline: [const { MaybeUninit::uninit() }; 256],
            len: 0,
            spill: Vec::new(),
        }
    }
}

impl StateStack {
    fn push(&mut self, slot: u16) {
        if self.len < self.inline.len() {
            self.inline[self.len] = MaybeUninit::new(slot);
            self.len += 1;
        } else {
            self.spill.push(slot);
        }
    }

    fn pop(&mut self) -> Option<u16> {
        if let Some(s) = self.spill.pop() {
            return Some(s);
        }
        self.len = self.len.checked_sub(1)?;
        // SAFETY: `push` wrote every slot below the old `len`.
        Some(unsafe { self.inline[self.len].assume_init() })
    }
}

/// The reach of every piece of one side in one position, worked out once so that each
/// candidate move or step of the other side re-examines only the pieces whose reach it
/// can change: those whose reach was read from a square the candidate changes (or that
/// gain or lose an en passant capture). The others reach what they reached before.
#[derive(Clone, Debug)]
struct Reaches {
    by: Color,
    /// The reach of the piece on each square of `by` (empty elsewhere).
    reach: [Bitboard; 64],
    /// The squares each reach was read from ([`Pos::reach_set`]).
    read: [Bitboard; 64],
    /// Every square `by` attacks.
    all: Bitboard,
}

impl Reaches {
    /// The reaches of `by`'s pieces in `pos`, or `None` when the other side has so many
    /// carriers that a piece's reach could hit the `MAX_PRIZES` cap (then which carriers
    /// it tracks depends on squares it never reads, and candidates are judged afresh).
    fn new(pos: &Pos, by: Color) -> Option<Reaches> {
        let carriers = (pos.stacked & pos.by_color[by.other().index()]).count() as usize;
        // A candidate adds at most one carrier (a plain piece taking one).
        if carriers + 1 > MAX_PRIZES {
            return None;
        }
        let mut r = Reaches {
            by,
            reach: [Bitboard::EMPTY; 64],
            read: [Bitboard::EMPTY; 64],
            all: Bitboard::EMPTY,
        };
        for sq in pos.by_color[by.index()] {
            let (reach, read) = pos.reach_set(sq, by);
            r.reach[sq.index()] = reach;
            r.read[sq.index()] = read;
            r.all |= reach;
        }
        Some(r)
    }

    /// Whether `by` attacks `target` in `after`, a position reached from `base` (the
    /// one these reaches belong to) by a move or step of the other side.
    fn attack_after(&self, base: &Pos, after: &Pos, target: Square) -> bool {
        let by = self.by;
        let pieces = after.by_color[by.index()];
        let changed = base.changed_squares(after);
        let mut again = Bitboard::EMPTY;
        for p in pieces {
            if (self.read[p.index()] & changed).any() {
                again.set(p);
            }
        }
        if base.ep != after.ep {
            // A pawn that may take en passant in one position and not the other.
            for (e, side) in [base.ep, after.ep].into_iter().flatten() {
                if side == by {
                    again |= attacks::pawn_attacks(by.other(), e)
                        & pieces
                        & after.by_role[Role::Pawn.index()];
                }
            }
        }
        (pieces - again).any_square(|p| self.reach[p.index()].contains(target))
            || again.any_square(|p| after.reaches(p, by, target))
    }
}

/// Tells whether one candidate action of `us` ([`Adrenaline::candidates_into`]) is legal:
/// whether the mover's king is safe on the position the candidate leads to. With
/// `reaches` (the enemy reaches of the current position) a move or step re-examines only
/// the enemy pieces whose reach it can change; without, every enemy piece that might
/// reach the king is worked out afresh. The same test serves listing and drawing one
/// action, so the two agree by construction.
#[derive(Clone, Debug)]
struct Judge {
    pos: Pos,
    us: Color,
    phase: Phase,
    checkers: u8,
    /// Boxed: the judge is moved around and kept in the status.
    reaches: Option<Box<Reaches>>,
    /// For regular moves, once a candidate has been found illegal: the mover's king and
    /// the squares a move other than the king's must change to end a check on it, when
    /// it is in check ([`Judge::check_answers`]).
    check: OnceLock<Option<(Square, Bitboard)>>,
}

impl Judge {
    fn new(
        pos: Pos,
        us: Color,
        phase: Phase,
        checkers: u8,
        reaches: Option<Box<Reaches>>,
    ) -> Judge {
        Judge {
            pos,
            us,
            phase,
            checkers,
            reaches,
            check: OnceLock::new(),
        }
    }

    /// When the mover's king is in check: its square and squares of which a regular
    /// move of another piece must change one, or the check stands and the move is
    /// illegal. One checking piece is enough: if it is an orthodox attacker, a move
    /// answers it only by taking it or landing between it and the king (no move opens
    /// a line that was open already, and every reach includes the orthodox attacks);
    /// otherwise its reach stays as it was unless the move changes a square the reach
    /// was read from ([`Pos::reach_set`]; en passant can only be gained by the checker's
    /// side, which adds to a reach). Past the `MAX_PRIZES` cap the read squares are not
    /// the whole story ([`Reaches::new`]), so no squares are given there.
    fn check_answers(&self) -> Option<(Square, Bitboard)> {
        let pos = &self.pos;
        let (us, them) = (self.us, self.us.other());
        let king = pos.king(us)?;
        let checker = pos.attacker(king, them)?;
        if pos
            .orthodox_attackers(king, them, pos.occupied())
            .contains(checker)
        {
            return Some((king, between(checker, king).with(checker)));
        }
        let carriers = (pos.stacked & pos.by_color[us.index()]).count() as usize;
        if carriers + 1 > MAX_PRIZES {
            return None;
        }
        Some((king, pos.reach_set(checker, them).1))
    }

    /// Whether the regular move `mv` leaves a known check standing (see
    /// [`Judge::check_answers`]): then it is illegal without working out any reach.
    /// Most candidates of a side in check are refused here.
    fn leaves_the_check(&self, mv: Move) -> bool {
        let Some(Some((king, answers))) = self.check.get() else {
            return false;
        };
        if mv.from() == *king {
            return false;
        }
        let taken = if mv.kind() == MoveKind::EnPassant {
            Square::from_coords(mv.to().file(), mv.from().rank())
        } else {
            mv.to()
        };
        let changed = Bitboard::from_square(mv.from()).with(mv.to()).with(taken);
        (changed & *answers).is_empty()
    }

    /// Whether the opponent attacks `sq` now (for castling).
    fn attacked_now(&self, sq: Square) -> bool {
        match &self.reaches {
            Some(r) => r.all.contains(sq),
            None => self.pos.attacked(sq, self.us.other()),
        }
    }

    /// Whether the mover's king is safe in `after`, a position one move or step away.
    /// Whether the mover's king is safe after the regular move `mv` (not a castling) in
    /// a position without a checker anywhere: then every reach is an orthodox attack and
    /// none can appear (only a capturing turn places checkers), so the attacks on the
    /// king are looked up on the board the move leaves, without making the position.
    fn king_safe_after_plain_move(&self, mv: Move) -> bool {
        let p = &self.pos;
        let (us, them) = (self.us, self.us.other());
        let Some(king) = p.king(us) else {
            return true;
        };
        let (from, to) = (mv.from(), mv.to());
        let cap = if mv.kind() == MoveKind::EnPassant {
            Square::from_coords(to.file(), from.rank())
        } else {
            to
        };
        let king = if from == king { to } else { king };
        let occ = (p.occupied().without(from).without(cap)).with(to);
        // The piece taken attacks nothing any more.
        p.orthodox_attackers(king, them, occ)
            .without(cap)
            .is_empty()
    }

    fn king_safe_after(&self, after: &Pos) -> bool {
        let them = self.us.other();
        !after.king(self.us).is_some_and(|k| match &self.reaches {
            Some(r) => r.attack_after(&self.pos, after, k),
            None => after.attacked(k, them),
        })
    }

    fn is_legal(&self, action: AdrenalineAction) -> bool {
        let us = self.us;
        match (self.phase, action) {
            // The king may not start, cross or land on an attacked square: judged here
            // rather than when the candidates are made, so a draw that does not pick the
            // castling pays nothing for it.
            (Phase::Regular, AdrenalineAction::Move(mv)) if mv.is_castle() => {
                let (kd, _) = Board::castle_targets(us, mv.from(), mv.to());
                let path = between(mv.from(), kd).with(kd).with(mv.from());
                !path.any_square(|s| self.attacked_now(s))
                    && self.king_safe_after(&self.pos.after_move(mv, us))
            }
            (Phase::Regular, AdrenalineAction::Move(mv)) => {
                if self.leaves_the_check(mv) {
                    return false;
                }
                let legal = if self.pos.stacked.is_empty() {
                    self.king_safe_after_plain_move(mv)
                } else {
                    self.king_safe_after(&self.pos.after_move(mv, us))
                };
                // An illegal move hints at a check: look for one, once.
                if !legal && self.check.get().is_none() {
                    let _ = self.check.set(self.check_answers());
                }
                legal
            }
            (Phase::Steps(_), AdrenalineAction::Stop) => true,
            // The promoted piece only blocks and can be taken: its role does not change
            // what attacks the king, so one test covers all four.
            (Phase::Steps(from), AdrenalineAction::Step(to, _)) => {
                self.king_safe_after(&self.pos.after_step(from, to, us, None))
            }
            // Placement candidates already exclude an attacked king; the new checker
            // changes only the reach of the piece under it.
            (Phase::Place, AdrenalineAction::Place(sq)) => !self.pos.king(us).is_some_and(|k| {
                self.pos
                    .with_checkers(sq, self.checkers)
                    .reaches(sq, us.other(), k)
            }),
            _ => false,
        }
    }
}

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

impl Game for Adrenaline {
    type Action = AdrenalineAction;
    type Params = AdrenalineParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
    }

    fn new(params: &AdrenalineParams) -> Adrenaline {
        Adrenaline::from_board(Board::startpos(), params.clone())
    }

    /// An opening is a FEN, optionally followed by `|` and stacks as `square=count`
    /// (`... w - - 0 1 | c1=3 h5=1`).
    fn from_opening(params: &AdrenalineParams, opening: &str) -> Result<Adrenaline, GameError> {
        let (fen, stacks) = opening.split_once('|').unwrap_or((opening, ""));
        let board = Board::from_fen(fen.trim()).map_err(|e| GameError::opening_fen(opening, e))?;
        let mut g = Adrenaline::from_board(board, params.clone());
        for item in stacks.split_whitespace() {
            let bad = || {
                GameError::opening(
                    opening,
                    format!("stack '{item}': expected square=count on an occupied square"),
                )
            };
            let (s, n) = item.split_once('=').ok_or_else(bad)?;
            let sq = Square::parse(s).ok_or_else(bad)?;
            let n: u8 = n.parse().map_err(|_| bad())?;
            if g.board.piece_at(sq).is_none() {
                return Err(bad());
            }
            // A square named twice would silently keep only its last count.
            if g.stacks[sq.index()] != 0 {
                return Err(GameError::opening(
                    opening,
                    format!("stack '{item}': {s} is named twice"),
                ));
            }
            g.stacks[sq.index()] = n;
        }
        g.refresh();
        if g.checkers_on_board() > params.checkers_total {
            return Err(GameError::opening(
                opening,
                format!(
                    "the stacks hold {} checkers, more than the {} in the box",
                    g.checkers_on_board(),
                    params.checkers_total
                ),
            ));
        }
        Ok(g)
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.phase == Phase::Regular && !self.has_actions() {
            Turn::Terminal
        } else {
            Turn::Seat(self.actor().index())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<AdrenalineAction>) {
        out.clear();
        if seat != self.actor().index() {
            return;
        }
        self.with_actions(|actions| out.extend_from_slice(actions));
    }

    /// Draws without listing when the list is not made yet: candidates are drawn
    /// uniformly without replacement and the first legal one is kept, which is uniform
    /// over the legal actions (it is the first legal action of a uniformly random
    /// order), and most draws judge one or two candidates instead of all of them.
    fn sample_legal_action(
        &self,
        seat: Seat,
        rng: &mut dyn RngCore,
        scratch: &mut Vec<AdrenalineAction>,
    ) -> Option<AdrenalineAction> {
        scratch.clear();
        if seat != self.actor().index() {
            return None;
        }
        if let Some(list) = self.status.actions.get().filter(|_| self.status.fresh) {
            return (!list.is_empty()).then(|| list[rng.gen_range(0..list.len())]);
        }
        if self.draw_now().is_some() {
            return None;
        }
        // What `has_actions` learnt judging the candidates in order: those before the
        // first legal one are illegal (dropping them keeps the draw uniform over the
        // legal actions) and that one needs no second test.
        let first = self
            .status
            .first_legal
            .get()
            .filter(|_| self.status.fresh)
            .copied();
        self.with_candidates(|candidates, judge| {
            let (start, known) = match first {
                Some(None) => return None,
                Some(Some(i)) => (i, true),
                None => (0, false),
            };
            // The first draw reads one candidate from the groups: it is usually legal,
            // and writing them all out for the draws without replacement showed in
            // profiles. Past it, the same draws go on over the candidates written out
            // without the drawn one, so the actions drawn and the rng consumed are those
            // of drawing from the list from the start.
            let n = candidates.len() - start;
            if n == 0 {
                return None;
            }
            let i = rng.gen_range(0..n);
            let drawn = candidates.get(start + i);
            // The judged first legal candidate is the first one after `start`.
            if (known && i == 0) || judge.is_legal(drawn) {
                return Some(drawn);
            }
            let known = known.then(|| candidates.get(start));
            candidates.write_from(start, scratch);
            scratch.swap_remove(i);
            while !scratch.is_empty() {
                let i = rng.gen_range(0..scratch.len());
                if Some(scratch[i]) == known || judge.is_legal(scratch[i]) {
                    return Some(scratch[i]);
                }
                scratch.swap_remove(i);
            }
            None
        })
    }

    fn apply(&mut self, action: AdrenalineAction) {
        let actor = self.actor().index();
        let saved = Saved {
            stacks: self.stacks,
            phase: self.phase,
            captured_this_turn: self.captured_this_turn,
            counts: self.counts,
        };
        let mut passed = Passed {
            key: if self.status.fresh {
                self.status.key
            } else {
                self.key_of()
            },
            regular: self.phase == Phase::Regular,
            board_plies: 0,
        };
        match action {
            AdrenalineAction::Move(mv) => {
                self.captured_this_turn = false;
                let captured_sq = match mv.kind() {
                    MoveKind::EnPassant => {
                        Some(Square::from_coords(mv.to().file(), mv.from().rank()))
                    }
                    MoveKind::Castle => None,
                    _ => self.board.piece_at(mv.to()).map(|_| mv.to()),
                };
                let moving = self.stacks[mv.from().index()];
                let won = captured_sq.map_or(0, |s| self.stacks[s.index()]);
                self.counts.taken_over[actor] += won as u32;
                if let Some(s) = captured_sq {
                    self.stacks[s.index()] = 0;
                    self.captured_this_turn = true;
                }
                self.stacks[mv.from().index()] = 0;
                let arrive = if mv.is_castle() { mv.from() } else { mv.to() };
                self.board.make(mv);
                passed.board_plies = 1;
                if !mv.is_castle() {
                    self.stacks[arrive.index()] = moving + won;
                    self.after_piece_arrives(arrive);
                } else {
                    self.phase = self.turn_end_phase();
                }
            }
            AdrenalineAction::Step(to, promotion) => {
                let Phase::Steps(from) = self.phase else {
                    panic!("step outside the step phase")
                };
                let left = self.stacks[from.index()] - 1;
                let won = if self.board.piece_at(to).is_some() {
                    self.captured_this_turn = true;
                    self.stacks[to.index()]
                } else {
                    0
                };
                self.counts.steps[actor] += 1;
                self.counts.taken_over[actor] += won as u32;
                self.stacks[from.index()] = 0;
                let us = self.board.turn().other();
                let pawn_to_last = self.board.piece_at(from).map(|p| p.role) == Some(Role::Pawn)
                    && Bitboard::relative_rank(us, 7).contains(to);
                let step = if pawn_to_last {
                    let role = promotion.unwrap_or(Role::Queen);
                    Move::new(from, to, MoveKind::Promotion(role))
                } else {
                    Move::normal(from, to)
                };
                self.board.make_null();
                self.board.make(step);
                passed.board_plies = 2;
                self.stacks[to.index()] = left + won;
                self.after_piece_arrives(to);
            }
            AdrenalineAction::Stop => {
                self.phase = self.turn_end_phase();
            }
            AdrenalineAction::Place(sq) => {
                let n = self.params.checkers_per_capture;
                self.stacks[sq.index()] = self.stacks[sq.index()].saturating_add(n);
                self.counts.placed[actor] += n as u32;
                self.phase = Phase::Regular;
            }
        }
        if self.phase == Phase::Regular {
            self.captured_this_turn = false;
        }
        self.undo.push(saved);
        self.passed.push(passed);
        self.refresh();
    }

    fn undo(&mut self) {
        self.status.fresh = false;
        let saved = self.undo.pop().expect("undo without an action");
        let passed = self.passed.pop().expect("undo without an action");
        if passed.board_plies == 2 {
            self.board.unmake();
            self.board.unmake_null();
        } else if passed.board_plies == 1 {
            self.board.unmake();
        }
        self.stacks = saved.stacks;
        self.phase = saved.phase;
        self.captured_this_turn = saved.captured_this_turn;
        self.counts = saved.counts;
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(reason) = self.draw_now() {
            return Some(GameResult {
                returns: two_seat_returns(None),
                reason,
            });
        }
        if self.phase == Phase::Regular && !self.has_actions() {
            let us = self.board.turn();
            return Some(no_moves_result(us, self.king_attacked(us)));
        }
        None
    }

    fn state_key(&self) -> u64 {
        if self.status.fresh {
            self.status.key
        } else {
            self.key_of()
        }
    }

    fn observation(&self, _seat: Seat) -> String {
        let stacks: Vec<String> = self
            .board
            .occupied()
            .filter(|s| self.stacks[s.index()] > 0)
            .map(|s| format!("{s}={}", self.stacks[s.index()]))
            .collect();
        format!("{} | {}", self.board.fen(), stacks.join(" "))
    }

    fn action_notation(&self, action: AdrenalineAction) -> String {
        match action {
            AdrenalineAction::Move(m) => self.board.uci(m),
            AdrenalineAction::Step(s, None) => format!("~{s}"),
            AdrenalineAction::Step(s, Some(r)) => format!("~{s}{}", r.char()),
            AdrenalineAction::Stop => "stop".into(),
            AdrenalineAction::Place(s) => format!("+{s}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<AdrenalineAction, GameError> {
        let mut actions = Vec::new();
        self.legal_actions(self.actor().index(), &mut actions);
        actions
            .into_iter()
            .find(|&a| self.action_notation(a) == text)
            .ok_or_else(|| GameError::Action {
                action: text.into(),
                message: match self.phase {
                    Phase::Regular => "not a legal regular move (UCI)",
                    Phase::Steps(_) => "expected an extra step '~e5' or 'stop'",
                    Phase::Place => "expected a checker placement '+e7' under an enemy piece",
                }
                .into(),
            })
    }

    fn history_len(&self) -> usize {
        self.undo.len()
    }

    /// Material plus the value of every stack ([`Adrenaline::stack_value`]), own stacks
    /// minus the opponent's.
    fn material(&self, seat: Seat) -> f64 {
        let us = Color::from_index(seat);
        let mut m = material_balance(&self.board, us);
        for sq in self.board.occupied() {
            if self.stacks[sq.index()] == 0 {
                continue;
            }
            let v = self.stack_value(sq);
            if self.board.by_color(us).contains(sq) {
                m += v;
            } else {
                m -= v;
            }
        }
        m
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The material differences (White less Black, as the default), then `checkers`:
    /// checkers under White's pieces less those under Black's, and `carriers`: White's
    /// pieces with checkers less Black's (one tall stack and many short ones differ in
    /// what they threaten). A checker under a piece is that piece's owner's asset: it
    /// buys the owner's extra steps.
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = material_features(&self.board);
        let (mut checkers, mut carriers) = ([0.0f64; 2], [0.0f64; 2]);
        for c in [Color::White, Color::Black] {
            for sq in self.board.by_color(c) {
                let n = self.stacks[sq.index()];
                if n > 0 {
                    checkers[c.index()] += n as f64;
                    carriers[c.index()] += 1.0;
                }
            }
        }
        f.push(("checkers".to_string(), checkers[0] - checkers[1]));
        f.push(("carriers".to_string(), carriers[0] - carriers[1]));
        f
    }

    /// Checkers placed after captures during the game (`checkers_placed`,
    /// `white_checkers_placed`, `black_checkers_placed`; stacks set up by an opening
    /// are not counted), extra king steps taken (`steps`, `white_steps`, `black_steps`)
    /// and checkers won by capturing a carrier (`checkers_taken_over`). Saved with every
    /// action, so `undo` restores them.
    fn tallies(&self) -> Vec<(String, f64)> {
        let c = &self.counts;
        let mut t = Vec::with_capacity(7);
        for (name, per_side) in [("checkers_placed", c.placed), ("steps", c.steps)] {
            t.push((name.to_string(), (per_side[0] + per_side[1]) as f64));
            t.push((format!("white_{name}"), per_side[0] as f64));
            t.push((format!("black_{name}"), per_side[1] as f64));
        }
        t.push((
            "checkers_taken_over".to_string(),
            (c.taken_over[0] + c.taken_over[1]) as f64,
        ));
        t
    }
}

/// Pawns a stack of k checkers adds to a piece, by role (pawn, knight, bishop, rook,
/// queen, king) and k = 0..4 (see [`Adrenaline::stack_value`]). Each checker is one
/// extra king step, spent when taken, and widens the piece's reach (its attacks, so
/// its checks) by a step while it lasts. A first step is worth about a tempo (a third
/// of a pawn) and more to pieces a king step complements: a pawn gains sideways,
/// backward and straight captures, a knight covers the adjacent squares it never
/// reaches, a bishop changes square colour. A queen already reaches most squares and a
/// king only walks further, so theirs count less. Later checkers add less: a burst of
/// many steps mostly revisits squares the regular move already reached.
pub const STACK_VALUE: [[f64; 5]; 6] = [
    [0.0, 0.5, 0.9, 1.2, 1.4],
    [0.0, 0.45, 0.8, 1.05, 1.25],
    [0.0, 0.45, 0.8, 1.05, 1.25],
    [0.0, 0.35, 0.65, 0.9, 1.1],
    [0.0, 0.3, 0.55, 0.75, 0.9],
    [0.0, 0.15, 0.25, 0.3, 0.35],
];

/// Pawns per checker beyond the fourth under one piece.
pub const STACK_TAIL: f64 = 0.1;

/// Pawns added when a pawn's checkers let it reach its last rank next turn (push one
/// rank, then step the rest) where a plain push would not: a queen in one move unless
/// the opponent deals with it now.
pub const PROMOTION_REACH: f64 = 1.5;

impl Adrenaline {
    /// Value in pawns of the checkers under the piece on `sq`, from the owner's point
    /// of view: [`STACK_VALUE`] by role and stack height ([`STACK_TAIL`] per checker
    /// past four), plus [`PROMOTION_REACH`] for a pawn the stack carries to promotion.
    pub fn stack_value(&self, sq: Square) -> f64 {
        let k = self.stacks[sq.index()] as usize;
        let Some(p) = self.board.piece_at(sq) else {
            return 0.0;
        };
        if k == 0 {
            return 0.0;
        }
        let mut v = STACK_VALUE[p.role.index()][k.min(4)] + k.saturating_sub(4) as f64 * STACK_TAIL;
        if p.role == Role::Pawn {
            let to_go = 7 - sq.relative(p.color).rank() as usize;
            if to_go >= 2 && 1 + k >= to_go {
                v += PROMOTION_REACH;
            }
        }
        v
    }

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
mod tests {
    use super::*;
    use crate::game::{conformance, replay, MATERIAL_FEATURES};

    fn pos(opening: &str) -> Adrenaline {
        Adrenaline::from_opening(&AdrenalineParams::default(), opening).unwrap()
    }

    fn actions(g: &Adrenaline) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_actions(g.actor().index(), &mut v);
        let mut v: Vec<String> = v.into_iter().map(|a| g.action_notation(a)).collect();
        v.sort();
        v
    }

    #[test]
    fn nonzero_squares_matches_a_plain_scan() {
        let mut state = 19u64;
        for _ in 0..2000 {
            let mut stacks = [0u8; 64];
            for n in stacks.iter_mut() {
                let (next, r) = crate::random::splitmix64_next(state);
                state = next;
                *n = match r % 4 {
                    0 => (r >> 8) as u8,
                    1 => 1,
                    _ => 0,
                };
            }
            let plain: Bitboard = (0..64)
                .filter(|&i| stacks[i] != 0)
                .map(|i| Bitboard(1u64 << i))
                .fold(Bitboard::EMPTY, |a, b| a | b);
            assert_eq!(nonzero_squares(&stacks), plain);
        }
    }

    #[test]
    fn adrenaline_conforms_to_the_game_api() {
        // Short games: every legal-move test replays the turn on a copy.
        let params = AdrenalineParams {
            ply_cap: 120,
            ..Default::default()
        };
        conformance::check(&Adrenaline::new(&params), 4, 11);
    }

    #[test]
    fn rule_capture_ends_with_one_checker_under_an_enemy_piece() {
        let g = replay(
            Adrenaline::new(&AdrenalineParams::default()),
            &["e2e4", "d7d5", "e4d5"],
        )
        .unwrap();
        assert_eq!(
            g.turn(),
            Turn::Seat(0),
            "white places a checker before black moves"
        );
        let acts = actions(&g);
        assert_eq!(acts.len(), 15, "one choice per remaining black piece");
        let g = replay(g, &["+h7"]).unwrap();
        assert_eq!(g.stack(Square::parse("h7").unwrap()), 1);
        assert_eq!(g.turn(), Turn::Seat(1));
    }

    #[test]
    fn rule_stack_travels_and_buys_extra_king_steps() {
        let g = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | a1=2");
        let g = replay(g, &["a1a5"]).unwrap();
        assert_eq!(g.stack(Square::parse("a5").unwrap()), 2);
        assert!(actions(&g).contains(&"~b6".to_string()));
        let g = replay(g, &["~b6"]).unwrap();
        assert_eq!(g.stack(Square::parse("b6").unwrap()), 1);
        let g = replay(g, &["~c7"]).unwrap();
        assert_eq!(g.stack(Square::parse("c7").unwrap()), 0);
        assert_eq!(
            g.turn(),
            Turn::Seat(1),
            "no checkers left: the turn is over"
        );
    }

    #[test]
    fn tallies_count_placements_steps_and_takeovers_and_undo_restores_them() {
        let tally = |g: &Adrenaline, name: &str| {
            g.tallies()
                .into_iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no tally {name}"))
        };
        // White takes on d5 and pumps h7; black's h7 pawn then pushes and steps, and
        // later white's rook takes a knight carrying two checkers.
        let start = Adrenaline::new(&AdrenalineParams::default());
        let actions = ["e2e4", "d7d5", "e4d5", "+h7", "h7h6", "~g5", "g1f3"];
        let mut g = replay(start, &actions).unwrap();
        assert_eq!(g.tallies().len(), 7);
        assert_eq!(tally(&g, "checkers_placed"), 1.0);
        assert_eq!(tally(&g, "white_checkers_placed"), 1.0);
        assert_eq!(tally(&g, "black_checkers_placed"), 0.0);
        assert_eq!(tally(&g, "steps"), 1.0);
        assert_eq!(tally(&g, "black_steps"), 1.0);
        assert_eq!(tally(&g, "checkers_taken_over"), 0.0);
        for _ in 0..actions.len() {
            g.undo();
        }
        assert!(g.tallies().iter().all(|(_, v)| *v == 0.0));
        // Opening stacks are not placements; taking a carrier counts its checkers.
        let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1 | a5=2");
        assert_eq!(tally(&g, "checkers_placed"), 0.0);
        let g = replay(g, &["a1a5"]).unwrap();
        assert_eq!(tally(&g, "checkers_taken_over"), 2.0);
    }

    #[test]
    fn material_hook_values_stacks_by_what_they_let_the_piece_do() {
        // A lone pawn a rank from promotion-by-steps: e5 with two checkers reaches e8
        // next turn (push to e6, step e7, step e8). Black is a pawn up on plain material;
        // the stack turns the sign.
        let g = pos("4k3/pp6/8/4P3/8/8/8/4K3 w - - 0 1 | e5=2");
        assert_eq!(material_balance(&g.board, Color::White), -1.0);
        let m = g.material(0);
        assert!((m - (-1.0 + 0.9 + PROMOTION_REACH)).abs() < 1e-9, "{m}");
        assert!(m > 0.0);
        assert_eq!(g.material(1), -m);
        // One checker: the pawn cannot get there yet, only the stack's own value.
        let g = pos("4k3/pp6/8/4P3/8/8/8/4K3 w - - 0 1 | e5=1");
        assert!((g.material(0) - (-1.0 + 0.5)).abs() < 1e-9);
        // The same checker is worth more under a knight than under the king.
        let knight = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 | d1=1");
        let king = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 | e1=1");
        assert!(knight.material(0) > king.material(0));
        // Tall stacks keep adding, a little per checker.
        let tall = pos("4k3/8/8/8/8/8/8/3NK3 w - - 0 1 | d1=6");
        assert!((tall.material(0) - 3.0 - 1.25 - 2.0 * STACK_TAIL).abs() < 1e-9);
    }

    #[test]
    fn rule_capturing_piece_takes_over_checkers() {
        let g = pos("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1 | a5=2");
        let g = replay(g, &["a1a5"]).unwrap();
        assert_eq!(g.stack(Square::parse("a5").unwrap()), 2);
        assert!(matches!(g.phase, Phase::Steps(_)), "may spend them at once");
    }

    #[test]
    fn rule_placement_may_not_expose_the_placers_king() {
        // With a checker the e4 knight would reach g6 (via f6 or g5), so Black may only
        // place under the white king.
        let g = pos("7r/8/6k1/8/4N3/8/7P/K7 b - - 0 1");
        let g = replay(g, &["h8h2"]).unwrap();
        assert_eq!(actions(&g), vec!["+a1".to_string()]);
    }

    #[test]
    fn rule_no_safe_placement_means_no_checker() {
        // The white king is the only white piece left, and with a checker it would
        // reach c3 (a1-b2, then a step): the capture ends Black's turn without a checker.
        let g = pos("7r/8/8/8/8/2k5/7P/K7 b - - 0 1");
        let g = replay(g, &["h8h2"]).unwrap();
        assert_eq!(g.turn(), Turn::Seat(0));
        assert_eq!(g.stack(Square::parse("a1").unwrap()), 0);
    }

    #[test]
    fn rule_adrenaline_reach_gives_check() {
        // A black pawn with one checker on h5 reaches g4 by pushing and stepping, so a
        // white king may not stand on g3? It reaches h4 (push) then g3 (step): attacked.
        let g = pos("4k3/8/8/7p/8/8/8/4K3 w - - 0 1 | h5=1");
        assert!(g.attacked(Square::parse("g3").unwrap(), Color::Black));
        assert!(!g.attacked(Square::parse("e3").unwrap(), Color::Black));
    }

    #[test]
    fn rule_adrenaline_reach_includes_the_double_step() {
        // f2-f4 is a regular move, and one step from f4 reaches e5.
        let g = pos("8/8/8/4k3/8/8/5P2/4K3 b - - 0 1 | f2=1");
        assert!(g.attacked(Square::parse("e5").unwrap(), Color::White));
        assert!(g.in_check());
        let g = pos("8/8/8/4k3/8/5p2/5P2/4K3 b - - 0 1 | f2=1");
        assert!(
            !g.attacked(Square::parse("e5").unwrap(), Color::White),
            "blocked"
        );
    }

    #[test]
    fn rule_king_must_be_safe_after_regular_move_and_steps() {
        // The white king may not step next to a pumped black rook's reach.
        let g = pos("4k3/8/8/8/8/8/r7/4K3 w - - 0 1 | a2=1");
        // The rook reaches the 2nd rank and one step beyond: the 1st rank too.
        let acts = actions(&g);
        assert!(
            acts.is_empty(),
            "checkmate: every square is within reach: {acts:?}"
        );
        assert_eq!(g.result().map(|r| r.reason), Some("checkmate"));
    }

    #[test]
    fn rule_no_castling_with_checkers() {
        let g = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1 | h1=1");
        assert!(!actions(&g).contains(&"e1g1".to_string()));
        let g = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(actions(&g).contains(&"e1g1".to_string()));
    }

    #[test]
    fn rule_no_castling_through_adrenaline_attack() {
        // The black knight on e4 with a checker reaches f2 by a regular move... and g1
        // or f1 by a step from there.
        let g = pos("4k3/8/8/8/4n3/8/8/4K2R w K - 0 1 | e4=1");
        assert!(!actions(&g).contains(&"e1g1".to_string()));
    }

    #[test]
    fn rule_en_passant_never_after_an_extra_step() {
        let g = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 | d7=1");
        let g = replay(g, &["d7d5"]).unwrap();
        // The pawn may step on; if it stops, en passant is available.
        let stopped = replay(g.clone(), &["stop"]).unwrap();
        assert!(actions(&stopped).contains(&"e5d6".to_string()));
        let stepped = replay(g, &["~c5"]).unwrap();
        assert!(!actions(&stepped).contains(&"e5d6".to_string()));
        assert_eq!(stepped.board.ep_square(), None);
    }

    #[test]
    fn rule_seed_example_mate_with_the_pumped_up_bishop() {
        // White's trapped c1 bishop carries three checkers. The black queen can take it
        // and spend them to reach f2 and every square around it within three steps; the
        // h5 pawn's checker covers g3; g1 and g2 are blocked. Checkmate.
        let mate = "7k/2q5/8/7p/8/8/1P1P1KPP/2B3N1 w - - 0 1";
        let g = pos(&format!("{mate} | c1=3 h5=1"));
        assert!(g.in_check());
        let r = g.result().expect("checkmate");
        assert_eq!(r.reason, "checkmate");
        assert_eq!(r.returns[1], 1.0);
        // Without the checkers on c1 the white king just walks away.
        let g = pos(&format!("{mate} | h5=1"));
        assert!(g.result().is_none());
    }

    #[test]
    fn rule_promotion_on_arrival_then_steps() {
        let g = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 | a7=1");
        let g = replay(g, &["a7a8q"]).unwrap();
        assert_eq!(
            g.board
                .piece_at(Square::parse("a8").unwrap())
                .map(|p| p.role),
            Some(Role::Queen)
        );
        assert!(actions(&g).contains(&"~b7".to_string()));
    }

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn rule_pawn_steps_start_only_where_it_can_really_go() {
        // The g3 pawn pushes to g2 and steps from there (f1 is covered); its empty
        // diagonals are attacked but are no start for steps, so e2 and d2 are safe.
        let g = pos("4k3/8/8/8/8/6p1/8/4K3 w - - 0 1 | g3=1");
        assert!(!g.in_check());
        assert_eq!(actions(&g), ["e1d1", "e1d2", "e1e2"]);
        assert!(g.attacked(sq("f2"), Color::Black), "orthodox diagonal");
        assert!(g.attacked(sq("f1"), Color::Black), "push, then a step");
        assert!(!g.attacked(sq("e2"), Color::Black));
    }

    #[test]
    fn rule_blocked_pawn_reaches_nothing_beyond_its_diagonals() {
        // The e3 pawn can neither push nor capture: no mate, castling is open.
        let g = pos("4k3/8/8/8/8/4p3/4P3/4K2R w K - 0 1 | e3=1");
        assert_eq!(g.result(), None);
        let acts = actions(&g);
        for mv in ["e1d1", "e1f1", "e1g1"] {
            assert!(acts.contains(&mv.to_string()), "{mv} in {acts:?}");
        }
        assert!(
            !acts.contains(&"e1d2".to_string()),
            "d2 is on the pawn's diagonal"
        );
    }

    #[test]
    fn rule_placement_under_a_blocked_pawn_is_safe() {
        // With a checker the b6 pawn still cannot move (b7 blocks, a7 and c7 are empty),
        // so it threatens nothing new: both white pieces may receive the checker.
        let g = pos("7r/1p1k4/1P6/8/8/8/8/4K2N b - - 0 1");
        let g = replay(g, &["h8h1"]).unwrap();
        assert_eq!(actions(&g), ["+b6", "+e1"]);
    }

    #[test]
    fn rule_reach_may_pass_back_over_the_square_the_piece_left() {
        // The e5 rook with two checkers: e5-e6, a step back onto the empty e5, a step
        // to d4. Its own knights on d5 and e4 block every other way.
        let g = pos("7k/8/8/3nrb2/2K1n3/8/8/8 w - - 0 1 | e5=2");
        assert!(g.attacked(sq("d4"), Color::Black));
        assert!(!actions(&g).contains(&"c4d4".to_string()));
        // With one checker the rook cannot come back: d4 is free.
        let g = pos("7k/8/8/3nrb2/2K1n3/8/8/8 w - - 0 1 | e5=1");
        assert!(actions(&g).contains(&"c4d4".to_string()));
    }

    #[test]
    fn rule_reach_keeps_en_passant_and_the_steps_after_it() {
        // After e2-e4 the d4 pawn may take en passant on e3 and step to f3: the white
        // king there forbids the double push. Without the checker it is legal.
        let g = pos("4k3/8/8/8/3p4/5K2/4P3/8 w - - 0 1 | d4=1");
        assert!(!actions(&g).contains(&"e2e4".to_string()));
        let g = pos("4k3/8/8/8/3p4/5K2/4P3/8 w - - 0 1");
        assert!(actions(&g).contains(&"e2e4".to_string()));
        // The taker wins the checkers of the pawn taken en passant: here the e2 pawn
        // carries the checker, and d4xe3 e.p. then a step reaches f3 all the same.
        let g = pos("4k3/8/8/8/3p4/5K2/4P3/8 w - - 0 1 | e2=1");
        assert!(!actions(&g).contains(&"e2e4".to_string()));
    }

    #[test]
    fn rule_repetition_counts_positions_between_whole_turns() {
        // Both rooks carry a checker, so every move is followed by `stop`: the start
        // position comes back after four turns and a third time after eight.
        let g = pos("4k2r/8/8/8/8/8/8/R3K3 w - - 0 1 | a1=1 h8=1");
        let cycle = [
            "a1a2", "stop", "h8h7", "stop", "a2a1", "stop", "h7h8", "stop",
        ];
        let g = replay(g, &cycle).unwrap();
        assert_eq!(g.result(), None, "second occurrence");
        let g = replay(g, &cycle).unwrap();
        assert_eq!(g.result().map(|r| r.reason), Some("repetition"));
    }

    #[test]
    fn rule_bare_material_draws_even_with_checkers_on_the_board() {
        // From the reference's game: K v K with a checker under the white king used to
        // play on (any checker on the board counted as mating power). RULES.md: K v K
        // and K+minor v K are the insufficient material of every variant.
        let g = pos("8/2k5/8/6K1/8/8/8/8 w - - 0 1 | g5=1");
        assert_eq!(g.result().map(|r| r.reason), Some("insufficient-material"));
        let g = pos("8/2k5/8/6K1/8/8/3N4/8 b - - 0 1 | d2=2 c7=1");
        assert_eq!(g.result().map(|r| r.reason), Some("insufficient-material"));
        // A capture leaving K v K: the draw comes once the turn (steps, placement) ends.
        let g = pos("8/2k5/2n5/8/8/8/8/2R1K3 w - - 0 1");
        let mut g = replay(g, &["c1c6", "+c7", "c7c6"]).unwrap();
        assert_eq!(g.result(), None, "Black's turn is not over yet");
        assert_eq!(g.board_ref().occupied().count(), 2);
        let mut acts = Vec::new();
        while g.result().is_none() && g.turn() == Turn::Seat(1) {
            g.legal_actions(1, &mut acts);
            let stop = acts.iter().copied().find(|&a| a == AdrenalineAction::Stop);
            g.apply(stop.unwrap_or(acts[0]));
        }
        assert_eq!(g.result().map(|r| r.reason), Some("insufficient-material"));
        // Two minors play on, as elsewhere.
        let g = pos("8/2k5/8/6K1/8/8/3NN3/8 w - - 0 1 | g5=1");
        assert_eq!(g.result(), None);
    }

    #[test]
    fn rule_spent_checkers_return_to_the_supply() {
        // A box of two checkers, both under the a1 rook. Taking on a2 and spending one
        // step puts a checker back beside the board, so the capture earns a placement.
        let params = AdrenalineParams {
            checkers_total: 2,
            ..Default::default()
        };
        let g =
            Adrenaline::from_opening(&params, "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1 | a1=2").unwrap();
        let g = replay(g, &["a1a2", "~a3", "stop"]).unwrap();
        assert_eq!(g.stack(sq("a3")), 1);
        assert_eq!(actions(&g), ["+e8"]);
        let g = replay(g, &["+e8"]).unwrap();
        assert_eq!(g.checkers_on_board(), 2);
        assert_eq!(g.supply(), 0);
        // Without the step both checkers are still in use: no placement.
        let g =
            Adrenaline::from_opening(&params, "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1 | a1=2").unwrap();
        let g = replay(g, &["a1a2", "stop"]).unwrap();
        assert_eq!(g.turn(), Turn::Seat(1));
        // An opening may not hold more checkers than the box.
        let err = Adrenaline::from_opening(&params, "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1 | a1=3");
        assert!(matches!(err, Err(GameError::Opening { .. })));
    }

    #[test]
    fn rule_promotion_by_an_extra_step_offers_every_role() {
        let g = pos("4k3/8/P7/8/8/8/8/4K3 w - - 0 1 | a6=1");
        let g = replay(g, &["a6a7"]).unwrap();
        let acts = actions(&g);
        for r in ["n", "b", "r", "q"] {
            assert!(acts.contains(&format!("~b8{r}")), "~b8{r} in {acts:?}");
        }
        assert!(!acts.contains(&"~b8".to_string()));
        assert!(
            acts.contains(&"~b7".to_string()),
            "no promotion off the last rank"
        );
        let g = replay(g, &["~b8n"]).unwrap();
        assert_eq!(
            g.board.piece_at(sq("b8")),
            Some(crate::square::Piece::new(Color::White, Role::Knight))
        );
    }

    fn offset(s: Square, df: i8, dr: i8) -> Option<Square> {
        let f = s.file() as i8 + df;
        let r = s.rank() as i8 + dr;
        ((0..8).contains(&f) && (0..8).contains(&r)).then(|| Square::from_coords(f as u8, r as u8))
    }

    const KING_DIRS: [(i8, i8); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];

    /// A plain reference for one piece's reach, written from RULES.md without the
    /// bitboard code: explicit ray walks for the regular move, then every path of king
    /// steps with its checkers counted along the way (carriers taken once each).
    fn reference_reach(b: &Board, stacks: &[u8; 64], sq: Square) -> Vec<Square> {
        use std::collections::HashSet;
        let piece = b.piece_at(sq).unwrap();
        let by = piece.color;
        let enemy = |t: Square| b.piece_at(t).is_some_and(|p| p.color != by);
        let own = |t: Square| t != sq && b.piece_at(t).is_some_and(|p| p.color == by);
        let mut reached: HashSet<Square> = HashSet::new();
        // (landing, square of the piece it captures)
        let mut landings: Vec<(Square, Option<Square>)> = Vec::new();
        let mut attack = |t: Square, landings: &mut Vec<(Square, Option<Square>)>| {
            reached.insert(t);
            if !own(t) {
                landings.push((t, enemy(t).then_some(t)));
            }
        };
        let (dirs, slide): (&[(i8, i8)], bool) = match piece.role {
            Role::Knight => (
                &[
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ],
                false,
            ),
            Role::King => (&KING_DIRS, false),
            Role::Bishop => (&[(1, 1), (-1, 1), (-1, -1), (1, -1)], true),
            Role::Rook => (&[(1, 0), (0, 1), (-1, 0), (0, -1)], true),
            Role::Queen => (&KING_DIRS, true),
            Role::Pawn => (&[], false),
        };
        for &(df, dr) in dirs {
            let mut at = sq;
            while let Some(t) = offset(at, df, dr) {
                attack(t, &mut landings);
                if !slide || b.piece_at(t).is_some() {
                    break;
                }
                at = t;
            }
        }
        if piece.role == Role::Pawn {
            let f = if by == Color::White { 1 } else { -1 };
            for df in [-1, 1] {
                let Some(t) = offset(sq, df, f) else { continue };
                reached.insert(t);
                if enemy(t) {
                    landings.push((t, Some(t)));
                } else if b.ep_square() == Some(t) && b.turn() == by {
                    landings.push((t, Some(Square::from_coords(t.file(), sq.rank()))));
                }
            }
            // Pushes are landings only: a push takes nothing.
            if let Some(t) = offset(sq, 0, f).filter(|&t| b.piece_at(t).is_none()) {
                landings.push((t, None));
                let home = if by == Color::White { 1 } else { 6 };
                if sq.rank() == home {
                    if let Some(t2) = offset(t, 0, f).filter(|&t2| b.piece_at(t2).is_none()) {
                        landings.push((t2, None));
                    }
                }
            }
        }
        let mut seen = HashSet::new();
        let mut todo: Vec<(Square, i32, Vec<Square>)> = Vec::new();
        for (t, captured) in landings {
            let mut left = stacks[sq.index()] as i32;
            let mut taken = Vec::new();
            if let Some(c) = captured.filter(|c| stacks[c.index()] > 0) {
                left += stacks[c.index()] as i32;
                taken.push(c);
            }
            todo.push((t, left, taken));
        }
        while let Some((at, left, taken)) = todo.pop() {
            if left == 0 || !seen.insert((at, left, taken.clone())) {
                continue;
            }
            for &(df, dr) in &KING_DIRS {
                let Some(t) = offset(at, df, dr) else {
                    continue;
                };
                reached.insert(t);
                if own(t) {
                    continue;
                }
                let mut taken2 = taken.clone();
                let mut left2 = left - 1;
                if enemy(t) && stacks[t.index()] > 0 && !taken.contains(&t) {
                    left2 += stacks[t.index()] as i32;
                    taken2.push(t);
                    taken2.sort();
                }
                todo.push((t, left2, taken2));
            }
        }
        reached.into_iter().collect()
    }

    /// The legal actions as `candidates_into` and its judge give them, with the enemy
    /// reaches shared between candidates or each candidate judged afresh.
    fn listed(g: &Adrenaline, shared: bool) -> Vec<AdrenalineAction> {
        let mut candidates = Vec::new();
        let judge = g.candidates_into(&mut candidates, shared);
        candidates.retain(|&a| judge.is_legal(a));
        candidates
    }

    fn reference_attacks(g: &Adrenaline, by: Color) -> Bitboard {
        g.board
            .by_color(by)
            .flat_map(|sq| reference_reach(&g.board, &g.stacks, sq))
            .collect()
    }

    fn reference_king_safe(g: &Adrenaline, us: Color) -> bool {
        !reference_attacks(g, us.other()).contains(g.board.king(us).unwrap())
    }

    #[test]
    fn attacks_and_legality_match_a_plain_reference_in_random_play() {
        use rand::{Rng, SeedableRng};
        let params = AdrenalineParams {
            ply_cap: 240,
            ..Default::default()
        };
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2026);
        let mut acts = Vec::new();
        let mut states = 0;
        let mut with_stacks = 0;
        for _ in 0..12 {
            let mut g = Adrenaline::new(&params);
            while let Turn::Seat(seat) = g.turn() {
                states += 1;
                let pos = g.pos();
                with_stacks += pos.stacked.any() as usize;
                for c in [Color::White, Color::Black] {
                    let reference = reference_attacks(&g, c);
                    for t in Bitboard::FULL {
                        assert_eq!(
                            pos.attacked(t, c),
                            reference.contains(t),
                            "{t} attacked by {c:?} in {}",
                            g.observation(0)
                        );
                    }
                }
                let us = g.actor();
                match g.phase {
                    Phase::Regular => {
                        // Adrenaline moves are orthodox moves that leave the king out
                        // of every reach (castling: no checkers, no attacked square).
                        let them = reference_attacks(&g, us.other());
                        let expected: Vec<Move> = g
                            .board
                            .legal_moves()
                            .iter()
                            .copied()
                            .filter(|&mv| {
                                let mut h = g.clone();
                                h.apply(AdrenalineAction::Move(mv));
                                if !reference_king_safe(&h, us) {
                                    return false;
                                }
                                if !mv.is_castle() {
                                    return true;
                                }
                                let (kd, _) = Board::castle_targets(us, mv.from(), mv.to());
                                g.stacks[mv.from().index()] == 0
                                    && g.stacks[mv.to().index()] == 0
                                    && !(between(mv.from(), kd).with(kd).with(mv.from()) & them)
                                        .any()
                            })
                            .collect();
                        let mut got: Vec<Move> = listed(&g, true)
                            .into_iter()
                            .filter_map(|a| match a {
                                AdrenalineAction::Move(m) => Some(m),
                                _ => None,
                            })
                            .collect();
                        got.sort_by_key(|m| g.action_notation(AdrenalineAction::Move(*m)));
                        let mut expected = expected;
                        expected.sort_by_key(|m| g.action_notation(AdrenalineAction::Move(*m)));
                        assert_eq!(got, expected, "{}", g.observation(0));
                    }
                    Phase::Steps(from) => {
                        let mut expected: Vec<Square> = (attacks::king_attacks(from)
                            - g.board.by_color(us))
                        .filter(|&to| {
                            let mut h = g.clone();
                            h.apply(AdrenalineAction::Step(to, Some(Role::Queen)));
                            reference_king_safe(&h, us)
                        })
                        .collect();
                        let mut got: Vec<Square> = listed(&g, true)
                            .iter()
                            .filter_map(|a| match a {
                                AdrenalineAction::Step(to, None | Some(Role::Queen)) => Some(*to),
                                _ => None,
                            })
                            .collect();
                        got.sort();
                        expected.sort();
                        assert_eq!(got, expected, "{}", g.observation(0));
                    }
                    Phase::Place => {
                        let expected: Vec<Square> = g
                            .board
                            .by_color(us.other())
                            .filter(|&sq| {
                                let mut h = g.clone();
                                h.apply(AdrenalineAction::Place(sq));
                                reference_king_safe(&h, us)
                            })
                            .collect();
                        let got: Vec<Square> = g.safe_placements(us).collect();
                        assert_eq!(got, expected, "{}", g.observation(0));
                    }
                }
                g.legal_actions(seat, &mut acts);
                g.apply(acts[rng.gen_range(0..acts.len())]);
            }
        }
        assert!(states > 1000, "{states} states checked");
        assert!(with_stacks > 500, "{with_stacks} states with checkers");
    }

    /// The reaches worked out once per position (`Reaches`) against judging every
    /// candidate afresh: per-square reach sets against `reaches`, and the regular moves,
    /// steps and placements against the plain per-candidate tests, over seeded random
    /// games (more of them, and longer, than the reference test can afford).
    #[test]
    fn shared_reaches_match_judging_each_candidate_afresh() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(1919);
        let mut acts = Vec::new();
        let (mut regular, mut stepping, mut shared) = (0, 0, 0);
        for _ in 0..60 {
            let mut g = Adrenaline::new(&AdrenalineParams::default());
            while let Turn::Seat(seat) = g.turn() {
                let pos = g.pos();
                for c in [Color::White, Color::Black] {
                    for sq in pos.by_color[c.index()] {
                        let (reach, read) = pos.reach_set(sq, c);
                        assert!((reach - read).is_empty());
                        for t in Bitboard::FULL {
                            assert_eq!(
                                reach.contains(t),
                                pos.reaches(sq, c, t),
                                "{sq} reaching {t} in {}",
                                g.observation(0)
                            );
                        }
                    }
                }
                match g.phase {
                    Phase::Regular => regular += 1,
                    Phase::Steps(_) => stepping += 1,
                    Phase::Place => {}
                }
                shared += g.candidates_into(&mut Vec::new(), true).reaches.is_some() as usize;
                assert_eq!(listed(&g, true), listed(&g, false), "{}", g.observation(0));
                g.legal_actions(seat, &mut acts);
                g.apply(acts[rng.gen_range(0..acts.len())]);
            }
        }
        assert!(regular > 10_000, "{regular} regular positions");
        assert!(stepping > 1_000, "{stepping} step positions");
        assert!(shared > 5_000, "{shared} positions with shared reaches");
    }

    /// `Pos::attacked` prunes which pieces it asks (`step_bound` on the carriers a plain
    /// piece could take, the distance prune in `reaches`); asking every piece's full
    /// reach ([`Pos::reach_set`], no target, no pruning) must give the same answer on
    /// every square of thousands of random-play positions.
    #[test]
    fn pruned_attack_test_matches_every_full_reach_in_random_play() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(4242);
        let mut acts = Vec::new();
        let (mut positions, mut attacked_by_steps) = (0, 0);
        for _ in 0..40 {
            let mut g = Adrenaline::new(&AdrenalineParams::default());
            while let Turn::Seat(seat) = g.turn() {
                let pos = g.pos();
                // Past `MAX_PRIZES` carriers the full reach tracks a different set.
                let most = (0..2)
                    .map(|c| (pos.stacked & pos.by_color[c]).count() as usize)
                    .max()
                    .unwrap_or(0);
                if most < MAX_PRIZES {
                    positions += 1;
                    for c in [Color::White, Color::Black] {
                        let mut full = Bitboard::EMPTY;
                        for sq in pos.by_color[c.index()] {
                            full |= pos.reach_set(sq, c).0;
                        }
                        let occ = pos.occupied();
                        for t in Bitboard::FULL {
                            let got = pos.attacked(t, c);
                            assert_eq!(got, full.contains(t), "{t} by {c:?}: {}", g.observation(0));
                            attacked_by_steps +=
                                (got && pos.orthodox_attackers(t, c, occ).is_empty()) as usize;
                        }
                    }
                }
                g.legal_actions(seat, &mut acts);
                g.apply(acts[rng.gen_range(0..acts.len())]);
            }
        }
        assert!(positions > 5_000, "{positions} positions");
        assert!(
            attacked_by_steps > 10_000,
            "{attacked_by_steps} squares reached by steps only"
        );
    }

    /// After `turn` has judged the candidates in order up to the first legal one, a draw
    /// skips the illegal ones before it and takes that one without judging it again:
    /// still only legal actions, each as often as the others.
    #[test]
    fn draws_after_turn_skip_the_judged_prefix_and_stay_uniform() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(77);
        let (mut list, mut scratch) = (Vec::new(), Vec::new());
        let (mut skipping, mut tallied) = (0, 0);
        for _ in 0..60 {
            let mut g = Adrenaline::new(&AdrenalineParams::default());
            while let Turn::Seat(seat) = g.turn() {
                g.legal_actions(seat, &mut list);
                let mut fresh = g.clone();
                fresh.refresh();
                assert_eq!(fresh.turn(), Turn::Seat(seat));
                if let Some(&first) = fresh.status.first_legal.get() {
                    let mut candidates = Vec::new();
                    fresh.candidates_into(&mut candidates, false);
                    let i = first.expect("a seat to act has a legal action");
                    assert!(candidates[..i].iter().all(|a| !list.contains(a)));
                    assert!(list.contains(&candidates[i]));
                    if i > 0 {
                        skipping += 1;
                        if skipping % 10 == 1 && list.len() > 1 {
                            tallied += 1;
                            assert_draws_uniform(&fresh, seat, &list, &mut rng, &g);
                        } else {
                            let a = fresh.sample_legal_action(seat, &mut rng, &mut scratch);
                            assert!(list.contains(&a.unwrap()));
                        }
                    }
                }
                g.apply(list[rng.gen_range(0..list.len())]);
            }
        }
        assert!(skipping > 200, "{skipping} positions with a skipped prefix");
        assert!(tallied >= 10, "{tallied} positions tallied");
    }

    /// The candidates written out plainly from the rules: the pseudo-legal moves as the
    /// shared generator makes them, then the castlings; `stop` then the steps by square;
    /// every enemy piece for a placement unless the placer's king is attacked.
    fn reference_candidates(g: &Adrenaline) -> Vec<AdrenalineAction> {
        let b = &g.board;
        let us = g.actor();
        let mut out = Vec::new();
        match g.phase {
            Phase::Regular => {
                let mut moves = crate::moves::MoveList::new();
                let occ = b.occupied();
                crate::variants::pseudo_moves(b, &mut moves, Bitboard::FULL, |_| occ, |_, _| true);
                out.extend(moves.iter().map(|&m| AdrenalineAction::Move(m)));
                let king = b.king(us).unwrap();
                for rook in b.castling_rights() & b.pieces(us, Role::Rook) {
                    let (kd, rd) = Board::castle_targets(us, king, rook);
                    let path = (between(king, kd).with(kd) | between(rook, rd).with(rd))
                        .without(king)
                        .without(rook);
                    if g.stack(king) == 0
                        && g.stack(rook) == 0
                        && Bitboard::relative_rank(us, 0).contains(king)
                        && (path & occ).is_empty()
                    {
                        out.push(AdrenalineAction::Move(Move::new(
                            king,
                            rook,
                            MoveKind::Castle,
                        )));
                    }
                }
            }
            Phase::Steps(from) => {
                out.push(AdrenalineAction::Stop);
                let pawn = b.piece_at(from).unwrap().role == Role::Pawn;
                for to in attacks::king_attacks(from) - b.by_color(us) {
                    if pawn && Bitboard::relative_rank(us, 7).contains(to) {
                        for r in Role::PROMOTIONS {
                            out.push(AdrenalineAction::Step(to, Some(r)));
                        }
                    } else {
                        out.push(AdrenalineAction::Step(to, None));
                    }
                }
            }
            Phase::Place => {
                if !g.king_attacked(us) {
                    out.extend(b.by_color(us.other()).map(AdrenalineAction::Place));
                }
            }
        }
        out
    }

    /// Plays `games` seeded random games (game `i` from `start(i)`), showing `visit`
    /// every position where a seat is to act.
    fn random_play(
        seed: u64,
        games: usize,
        start: impl Fn(usize) -> Adrenaline,
        mut visit: impl FnMut(&Adrenaline),
    ) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let mut list = Vec::new();
        for game in 0..games {
            let mut g = start(game);
            while let Turn::Seat(seat) = g.turn() {
                visit(&g);
                g.legal_actions(seat, &mut list);
                g.apply(list[rng.gen_range(0..list.len())]);
            }
        }
    }

    #[test]
    fn candidates_list_the_actions_in_the_order_the_game_lists_them() {
        let openings = [
            None,
            Some("4k3/8/P7/8/8/8/8/4K3 w - - 0 1 | a6=1"),
            Some("4k3/8/8/8/8/8/p7/4K3 b - - 0 1 | a2=1"),
            Some("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
            Some("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 | d7=1"),
        ];
        let mut seen = std::collections::HashMap::new();
        let start = |game: usize| match openings[game % openings.len()] {
            None => Adrenaline::new(&AdrenalineParams::default()),
            Some(o) => pos(o),
        };
        random_play(808, 120, start, |g| {
            let (candidates, _) = g.candidates(false);
            let reference = reference_candidates(g);
            let written: Vec<_> = candidates.iter().collect();
            assert_eq!(written, reference, "{}", g.observation(0));
            assert_eq!(candidates.len(), reference.len());
            for (k, &a) in reference.iter().enumerate() {
                assert_eq!(
                    candidates.get(k),
                    a,
                    "candidate {k} of {}",
                    g.observation(0)
                );
                let kind = match a {
                    AdrenalineAction::Move(m) => format!("{:?}", m.kind()),
                    AdrenalineAction::Step(_, r) => format!("step {}", r.is_some()),
                    other => format!("{other:?}").chars().take(4).collect(),
                };
                *seen.entry(kind).or_insert(0) += 1;
            }
            for skip in [0, 1, reference.len() / 2, reference.len()] {
                let mut written = Vec::new();
                candidates.write_from(skip, &mut written);
                assert_eq!(written, reference[skip.min(reference.len())..]);
            }
        });
        for kind in [
            "Castle",
            "EnPassant",
            "Promotion(Queen)",
            "step true",
            "Stop",
            "Plac",
        ] {
            assert!(seen.get(kind).is_some_and(|&n| n > 5), "{kind}: {seen:?}");
        }
    }

    #[test]
    fn check_answers_refuse_only_moves_that_leave_the_king_attacked() {
        let (mut orthodox, mut by_reach, mut refused) = (0, 0, 0);
        let start = |_| Adrenaline::new(&AdrenalineParams::default());
        random_play(4242, 150, start, |g| {
            if g.phase == Phase::Regular {
                let (candidates, judge) = g.candidates(false);
                if let Some((king, answers)) = judge.check_answers() {
                    let them = g.actor().other();
                    assert!(judge.pos.attacked(king, them));
                    if judge
                        .pos
                        .orthodox_attackers(king, them, judge.pos.occupied())
                        .any()
                    {
                        orthodox += 1;
                    } else {
                        by_reach += 1;
                        assert_eq!(
                            answers,
                            judge
                                .pos
                                .reach_set(judge.pos.attacker(king, them).unwrap(), them)
                                .1
                        );
                    }
                    let _ = judge.check.set(Some((king, answers)));
                    for a in candidates.iter() {
                        let AdrenalineAction::Move(mv) = a else {
                            continue;
                        };
                        if judge.leaves_the_check(mv) {
                            refused += 1;
                            let after = judge.pos.after_move(mv, g.actor());
                            assert!(
                                after.attacked(king, them),
                                "{} refused in {}",
                                g.action_notation(a),
                                g.observation(0)
                            );
                        }
                    }
                } else {
                    // No check, or too many carriers to name the read squares.
                    let us = g.actor();
                    let carriers = (judge.pos.stacked & judge.pos.by_color[us.index()]).count();
                    let king = g.board.king(us).unwrap();
                    assert!(
                        carriers as usize + 1 > MAX_PRIZES || !judge.pos.attacked(king, us.other())
                    );
                }
            }
        });
        assert!(
            orthodox > 100 && by_reach > 100 && refused > 2000,
            "{orthodox} {by_reach} {refused}"
        );
    }

    #[test]
    fn moves_without_checkers_judged_on_the_board_match_the_made_position() {
        let (mut judged, mut illegal) = (0, 0);
        let start = |game: usize| {
            if game.is_multiple_of(3) {
                // Checks and pins come sooner on an open board.
                pos("r3k2r/p1p2p1p/8/3q4/3Q4/8/P1P2P1P/R3K2R w KQkq - 0 1")
            } else {
                Adrenaline::new(&AdrenalineParams::default())
            }
        };
        random_play(77, 300, start, |g| {
            if g.phase == Phase::Regular && g.pos().stacked.is_empty() {
                let (candidates, judge) = g.candidates(false);
                for a in candidates.iter() {
                    let AdrenalineAction::Move(mv) = a else {
                        continue;
                    };
                    if mv.is_castle() {
                        continue;
                    }
                    let made = judge.king_safe_after(&judge.pos.after_move(mv, g.actor()));
                    assert_eq!(
                        judge.king_safe_after_plain_move(mv),
                        made,
                        "{}",
                        g.observation(0)
                    );
                    judged += 1;
                    illegal += !made as usize;
                }
            }
        });
        assert!(
            judged > 20_000 && illegal > 1000,
            "{judged} judged, {illegal} illegal"
        );
    }

    #[test]
    fn first_draw_in_place_matches_drawing_from_a_copy() {
        use rand::{Rng, RngCore, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5150);
        let (mut list, mut scratch) = (Vec::new(), Vec::new());
        let (mut judged, mut redrawn) = (0, 0);
        for _ in 0..40 {
            let mut g = Adrenaline::new(&AdrenalineParams::default());
            while let Turn::Seat(seat) = g.turn() {
                // The plain draw: every candidate after the judged prefix copied, then
                // drawn without replacement until a legal one comes up.
                let mut plain_rng = rng.clone();
                let mut candidates = Vec::new();
                let judge = g.candidates_into(&mut candidates, false);
                let start = g.status.first_legal.get().copied().flatten().unwrap_or(0);
                let mut copy = candidates[start..].to_vec();
                let mut plain = None;
                let mut draws = 0;
                while !copy.is_empty() {
                    let i = plain_rng.gen_range(0..copy.len());
                    draws += 1;
                    if judge.is_legal(copy[i]) {
                        plain = Some(copy[i]);
                        break;
                    }
                    copy.swap_remove(i);
                }
                judged += 1;
                if draws > 1 {
                    redrawn += 1;
                }
                let drawn = g.sample_legal_action(seat, &mut rng, &mut scratch);
                assert_eq!(drawn, plain, "{}", g.observation(0));
                assert_eq!(rng.next_u64(), plain_rng.next_u64());
                g.legal_actions(seat, &mut list);
                g.apply(list[rng.gen_range(0..list.len())]);
            }
        }
        assert!(judged > 2000, "{judged} draws");
        assert!(redrawn > 50, "{redrawn} draws past an illegal first one");
    }

    #[test]
    fn features_add_checker_and_carrier_differences_to_material() {
        // White: stacks of 2 and 1 (three checkers, two carriers); Black: one stack of 4.
        let g = pos("4k3/p6p/8/8/8/8/P6P/4K3 w - - 0 1 | a2=2 h2=1 a7=4");
        let f = g.features();
        let get = |name: &str| f.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        assert_eq!(get("checkers"), Some(3.0 - 4.0));
        assert_eq!(get("carriers"), Some(2.0 - 1.0));
        assert_eq!(get(MATERIAL_FEATURES[0]), Some(0.0));
        let names: Vec<String> = Adrenaline::new(&AdrenalineParams::default())
            .features()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        let feature_names: Vec<String> = f.into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, feature_names);
        assert_eq!(&names[names.len() - 2..], ["checkers", "carriers"]);
    }

    /// 300 draws per legal action from `fresh` (whose status never lists them) hit each
    /// legal action 200 to 400 times (`g` names the position in the message).
    fn assert_draws_uniform(
        fresh: &Adrenaline,
        seat: Seat,
        list: &[AdrenalineAction],
        rng: &mut rand_pcg::Pcg64,
        g: &Adrenaline,
    ) {
        let per = 300;
        let mut scratch = Vec::new();
        let mut hits = vec![0u32; list.len()];
        for _ in 0..per * list.len() {
            let a = fresh.sample_legal_action(seat, rng, &mut scratch).unwrap();
            hits[list.iter().position(|&b| b == a).unwrap()] += 1;
        }
        assert!(fresh.status.actions.get().is_none());
        for (a, &n) in list.iter().zip(&hits) {
            assert!(
                (200..=400).contains(&n),
                "{a:?} drawn {n} times in {per} x {}: {}",
                list.len(),
                g.observation(0)
            );
        }
    }

    /// `sample_legal_action` draws without listing: over seeded random games it returns
    /// an action `legal_actions` lists (and `None` exactly where the list is empty), for
    /// a fresh status, a listed one and a stale one; in positions where candidates get
    /// rejected, thousands of draws hit every legal action about equally often.
    #[test]
    fn sampled_actions_are_listed_ones_drawn_uniformly() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(24);
        let (mut list, mut scratch) = (Vec::new(), Vec::new());
        let (mut checked, mut rejecting, mut tallied) = (0, 0, 0);
        for _ in 0..20 {
            let mut g = Adrenaline::new(&AdrenalineParams::default());
            loop {
                let mut fresh = g.clone();
                fresh.refresh();
                let mut stale = g.clone();
                stale.status.fresh = false;
                let seat = g.actor().index();
                g.legal_actions(seat, &mut list);
                for h in [&fresh, &stale, &g] {
                    let a = h.sample_legal_action(seat, &mut rng, &mut scratch);
                    match a {
                        Some(a) => assert!(list.contains(&a), "{a:?} in {}", g.observation(0)),
                        None => assert!(list.is_empty(), "{}", g.observation(0)),
                    }
                    assert_eq!(
                        h.sample_legal_action(1 - seat, &mut rng, &mut scratch),
                        None
                    );
                }
                assert_eq!(fresh.has_actions(), !list.is_empty());
                checked += 1;
                let mut candidates = Vec::new();
                g.candidates_into(&mut candidates, false);
                if candidates.len() > list.len() && !list.is_empty() {
                    rejecting += 1;
                    if rejecting % 25 == 1 {
                        // Draws from a fresh status each time: the list is never made.
                        tallied += 1;
                        assert_draws_uniform(&fresh, seat, &list, &mut rng, &g);
                    }
                }
                if g.turn() == Turn::Terminal {
                    break;
                }
                g.apply(list[rng.gen_range(0..list.len())]);
            }
        }
        assert!(checked > 2000, "{checked} positions");
        assert!(tallied >= 5, "{tallied} positions tallied");
    }

    /// The cached status answers as a fresh computation does (see
    /// `variants::testing::check_cached_status`).
    #[test]
    fn cached_status_matches_a_fresh_computation_in_random_play() {
        crate::variants::testing::check_cached_status(
            || Adrenaline::new(&AdrenalineParams::default()),
            |g| g.refresh(),
            |g| g.status.fresh = false,
        );
    }
}

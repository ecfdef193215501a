//! Masquerade Chess (chess-kit seed "Masquerade Chess"; docs/RULES.md "Masquerade Chess"):
//! orthodox moves, but every piece above a pawn captures with a secret pattern chosen by
//! the opponent.
//!
//! - Set-up: each player secretly assigns the *opponent's* five piece types (K, Q, R, B,
//!   N) a permutation of the five capture patterns (K = one step, Q/R/B = lines with a
//!   clear path, N = jump). White assigns Black's pieces first, then Black assigns
//!   White's (120 actions each). With `assignment = "random"` both are chance nodes
//!   (1/120 each); `white_assigns` / `black_assigns` fix one side's assignment in the
//!   seed's text form and skip that step.
//! - Non-capturing moves are orthodox, castling included. Pawns capture orthodox,
//!   including en passant and capturing promotions, and always succeed. A promoted piece
//!   captures with its new type's pattern.
//! - Every other capture is an attempt (piece, target), offered when at least one of the
//!   five patterns reaches the target with a clear path. The owner of the assignment
//!   answers: legal -> the capture happens; illegal -> nothing moves and the turn ends.
//!   Both players learn the answer.
//! - No check and no stalemate: kings may stand on or move into attacked squares and
//!   castle out of, through or into attack. Capturing the king wins (`royal-capture`).
//! - Information: a seat knows the assignment it made (for the opponent's pieces) and
//!   never its own; it sees the board, all moves, all attempts and their answers. The
//!   game tracks, per side, the exact set of permutations of its own pieces consistent
//!   with every answer so far ([`Masquerade::consistent`]).
//!
//! Decisions where the texts are silent (tested below):
//! - A side with no action at all (no orthodox non-capture, no pawn capture, no attempt)
//!   passes (`pass`): with no stalemate rule the game goes on, and the pass is a ply that
//!   changes no board, like a failed attempt.
//! - A failed attempt (and a pass) is a ply that changes no board: the turn passes, an en
//!   passant chance lapses, the 50-move counter advances. Repetition is judged on board
//!   and side to move (what the learned answers are does not count), so two failed
//!   attempts by each side in the same position make a threefold repetition.
//! - The ply cap (`ply_cap`, default 400, reason `cap`) counts play plies, not the
//!   assignment steps.
//! - The orthodox insufficient-material draw does not apply (RULES.md), not even to
//!   bare kings: any piece, a king too, may capture with a queen's pattern, and a king
//!   may step into capture since there is no check rule. Repetition and the 50-move
//!   rule do apply (`rule_no_insufficient_material_draw`).
//! - With `assignment = "random"` the draw for a side's pieces is the opponent's
//!   assignment drawn at random (RULES.md: "draw it at random"): the opponent sees it,
//!   the side itself does not.
//! - Openings (`from_opening`, a FEN) may leave the side not to move attacked: the king
//!   merely stands en prise. Touching kings load too: with no check rule play reaches
//!   them (`rule_touching_kings_load_from_fen`).
//! - Fixed assignments from the parameters count as secret from the side they govern
//!   (as if the opponent had written them down at the table): `sample_world` redraws
//!   them like chosen ones.
//! - `sample_world(seat)` draws the seat's own assignment uniformly from its consistent
//!   set (not from any model of how the opponent chooses).
//!
//! The full-information twin (issue 67, `open_assignments = true`; off by default, and
//! then left out of the serialised parameters so recorded games keep their digest):
//! - Both assignments are public as soon as they are made: every seat's observation
//!   shows the assignment its own pieces received, the facts say perfect information
//!   (chance stays with `assignment = "random"`), `information_key` is the state key
//!   and `sample_world` returns the state itself.
//! - Every other rule is the seed's: the same attempts are offered (a side that knows a
//!   pattern misses may still try it, a deliberate pass), the same answers, the same
//!   draws. With `assignment = "choose"` Black assigns White's pieces knowing what White
//!   gave its own: the steps stay in their order, and hiding the first choice would be
//!   fog.
//! - The consistent sets, and the tallies built on them (`{side}_knows`,
//!   `{side}_consistent`, `{side}_known_types`), still follow the answers alone, so a
//!   twin's report reads them as it reads the hidden game's: what the attempts pinned
//!   down, not what the side knew.
//! - Tests: `rule_masquerade_open_assignments_show_each_side_its_own_patterns`,
//!   `rule_masquerade_open_assignments_play_by_the_same_rules` (seeded random games of
//!   the hidden game replay in the twin with the same legal lists, answers, boards,
//!   results and tallies), `rule_masquerade_open_assignments_is_a_parameter_left_out_when_off`,
//!   `masquerade_open_assignments_conforms_to_the_game_api`, and
//!   `open_assignments_twin_hides_nothing` in `engine/tests/masquerade_info.rs`.
//!
//! Notation: moves in UCI (`e2e4`, castling `e1g1`, pawn captures `e4d5`), attempts as
//! `b1xc3?`, passes `pass`, assignments `assign:KQ,QN,RB,BK,NR` (pairs of piece letter and
//! pattern letter, printed in the order K, Q, R, B, N; any order and `assign:<index>`
//! parse).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::game::{
    two_seat_returns, validate_ply_cap, Game, GameError, GameFacts, GameResult, InvalidParams,
    Seat, Turn, VariantParams,
};
use crate::moves::{Move, MoveList};
use crate::square::{Color, Role, Square};
use crate::variants::chess::material_balance;
use crate::variants::{castles_without_attack_test, common_draw, pseudo_moves};
use crate::zobrist;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

mod assignment;
pub use assignment::*;

/// Reads a FEN. The orthodox reader refuses a position whose side not to move is
/// attacked, or whose kings touch; with no check rule such a king merely stands en
/// prise, and a king may step next to the other.
pub fn board_from_fen(fen: &str) -> Result<Board, GameError> {
    Board::from_fen_kings_touching(fen).map_err(|e| GameError::opening_fen(fen, e))
}

// ----- parameters ----------------------------------------------------------------------

/// Tunable rules of Masquerade Chess.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct MasqueradeParams {
    pub ply_cap: u32,
    /// How assignments are made: `"choose"` (each player decides) or `"random"` (chance,
    /// uniform over the 120).
    pub assignment: String,
    /// A fixed assignment White gives Black's pieces (seed text form, e.g.
    /// `"KQ,QN,RB,NR,BK"`); skips that step.
    pub white_assigns: Option<String>,
    /// A fixed assignment Black gives White's pieces; skips that step.
    pub black_assigns: Option<String>,
    /// The full-information twin (issue 67): both assignments are public the moment
    /// they are made; every other rule stays. Left out of the serialised parameters when
    /// off, so the default set (and the digest of every recorded game) is unchanged.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub open_assignments: bool,
}

impl Default for MasqueradeParams {
    fn default() -> Self {
        MasqueradeParams {
            ply_cap: 400,
            assignment: "choose".into(),
            white_assigns: None,
            black_assigns: None,
            open_assignments: false,
        }
    }
}

/// How one side's pieces get their assignment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    /// The opponent decides (a seat action).
    Choose,
    /// A chance node, uniform over the 120.
    Random,
    /// Given by the parameters.
    Fixed(Assignment),
}

/// What each of [`MasqueradeParams`]'s keys is (printed by `chesslab params`).
pub const MASQUERADE_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "plies after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "assignment",
        "how capture patterns are assigned: each player chooses, or chance picks one of the 120 uniformly",
        "\"choose\" or \"random\"",
    ),
    crate::game::ParamDoc::new(
        "white_assigns",
        "a fixed assignment White gives Black's pieces, seed text form (e.g. \"KQ,QN,RB,NR,BK\"); skips that step",
        "five letter pairs, or unset",
    ),
    crate::game::ParamDoc::new(
        "black_assigns",
        "a fixed assignment Black gives White's pieces; skips that step",
        "five letter pairs, or unset",
    ),
    crate::game::ParamDoc::new(
        "open_assignments",
        "the full-information twin: both assignments are public as soon as they are made (each side knows its own pieces' patterns); every other rule is the same",
        "true or false; unset (the default) is false, the seed's secret assignments",
    ),
];

impl VariantParams for MasqueradeParams {
    const DOCS: &'static [crate::game::ParamDoc] = MASQUERADE_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        self.sources().map(|_| ())
    }
}

impl MasqueradeParams {
    /// The source of each side's assignment, indexed by the colour whose pieces it
    /// governs (`[white's pieces, black's pieces]`).
    pub fn sources(&self) -> Result<[Source; 2], InvalidParams> {
        let err = |message: String| InvalidParams::new("assignment", message);
        let default = match self.assignment.as_str() {
            "choose" => Source::Choose,
            "random" => Source::Random,
            other => {
                return Err(err(format!(
                    "assignment = '{other}': expected \"choose\" or \"random\" (fix one side \
                     with white_assigns / black_assigns)"
                )))
            }
        };
        let fixed = |text: &Option<String>, name: &str| -> Result<Source, InvalidParams> {
            match text {
                None => Ok(default),
                Some(t) => Assignment::parse(t)
                    .map(Source::Fixed)
                    .map_err(|e| InvalidParams::new(name, e.to_string())),
            }
        };
        // Black assigns White's pieces; White assigns Black's.
        Ok([
            fixed(&self.black_assigns, "black_assigns")?,
            fixed(&self.white_assigns, "white_assigns")?,
        ])
    }
}

// ----- the game ------------------------------------------------------------------------

/// An action of a seat (or a chance outcome during random assignment).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MasqueradeAction {
    /// Assign the pieces of the side being set up (the opponent of the actor).
    Assign(Assignment),
    /// An orthodox non-capturing move, castling, or a pawn move (pawn captures and en
    /// passant included: they always succeed).
    Move(Move),
    /// Try to capture the piece on the second square with the piece on the first.
    Attempt(Square, Square),
    /// Only when nothing else is possible.
    Pass,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// The pieces of this colour are being assigned (by the other colour or chance).
    Assign(Color),
    Play,
}

/// One public event of the game, in order (what both seats saw).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    /// The pieces of `pieces` received their assignment (its value is secret).
    Assigned {
        pieces: Color,
    },
    /// A certain move by `by`.
    Moved {
        by: Color,
        mv: Move,
    },
    /// An attempt by `by` and its answer.
    Attempted {
        by: Color,
        role: Role,
        from: Square,
        to: Square,
        hit: bool,
    },
    Passed {
        by: Color,
    },
}

#[derive(Clone, Debug)]
struct Record {
    event: Event,
    phase: Phase,
    consistent: [u128; 2],
    winner: Option<Color>,
    public: u64,
    /// Board key before the action (repetition is judged on play plies only).
    board_key: u64,
    /// Whether the board took a real move (else a null move, or nothing for assignments).
    board_move: bool,
}

/// A Masquerade Chess game.
#[derive(Clone, Debug)]
pub struct Masquerade {
    board: Board,
    sources: [Source; 2],
    ply_cap: u32,
    phase: Phase,
    /// The true assignment of each colour's pieces (made by the other colour).
    given: [Option<Assignment>; 2],
    /// Per colour, the assignments of its own pieces consistent with its attempts.
    consistent: [u128; 2],
    winner: Option<Color>,
    /// A running hash of the public events (order-sensitive).
    public: u64,
    records: Vec<Record>,
    /// The full-information twin: assignments are public (`open_assignments`).
    open: bool,
}

fn mix(h: u64, x: u64) -> u64 {
    zobrist::extra(h.rotate_left(23) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

fn set_halves(h: u64, s: u128) -> u64 {
    mix(mix(h, s as u64), (s >> 64) as u64)
}

fn event_code(e: Event) -> u64 {
    match e {
        Event::Assigned { pieces } => 1 + pieces.index() as u64,
        Event::Moved { mv, .. } => (1 << 20) | mv.code() as u64,
        Event::Attempted { from, to, hit, .. } => {
            (2 << 20) | (from.index() as u64) << 8 | (to.index() as u64) << 1 | hit as u64
        }
        Event::Passed { .. } => 3 << 20,
    }
}

impl Masquerade {
    /// A game from `board` with assignment sources per colour (`[white's pieces, black's
    /// pieces]`).
    pub fn from_board(board: Board, sources: [Source; 2], ply_cap: u32) -> Masquerade {
        let mut given = [None; 2];
        for (g, s) in given.iter_mut().zip(sources) {
            if let Source::Fixed(a) = s {
                *g = Some(a);
            }
        }
        let mut m = Masquerade {
            public: mix(board.key(), 0x6d61_7371),
            board,
            sources,
            ply_cap,
            phase: Phase::Play,
            given,
            consistent: [ALL_ASSIGNMENTS; 2],
            winner: None,
            records: Vec::new(),
            open: false,
        };
        m.phase = m.next_phase_from(Color::Black);
        m
    }

    /// The game as the full-information twin (`open: true`: both assignments public) or
    /// as the seed's game (`false`, the default).
    pub fn with_open_assignments(mut self, open: bool) -> Masquerade {
        self.open = open;
        self
    }

    /// Whether the assignments are public (the `open_assignments` twin).
    pub fn open_assignments(&self) -> bool {
        self.open
    }

    fn next_phase_from(&self, pieces: Color) -> Phase {
        // Black's pieces are assigned first (by White), then White's.
        let order = [Color::Black, Color::White];
        let start = order.iter().position(|&c| c == pieces).unwrap_or(0);
        for &c in &order[start..] {
            if self.given[c.index()].is_none() {
                return Phase::Assign(c);
            }
        }
        Phase::Play
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// The true assignment of `color`'s pieces (made by the opponent), once made. Only
    /// the opponent (and `cheat`) may look.
    pub fn given(&self, color: Color) -> Option<Assignment> {
        self.given[color.index()]
    }

    /// The assignments of `color`'s own pieces consistent with every answer to its
    /// attempts so far (bit i = assignment index i). Public knowledge.
    pub fn consistent(&self, color: Color) -> u128 {
        self.consistent[color.index()]
    }

    /// Whether play has started (both assignments made).
    pub fn in_play(&self) -> bool {
        self.phase == Phase::Play
    }

    /// The public events so far, oldest first.
    pub fn events(&self) -> impl Iterator<Item = Event> + '_ {
        self.records.iter().map(|r| r.event)
    }

    /// Number of plies of play (moves, attempts, passes) so far.
    pub fn play_plies(&self) -> usize {
        self.board.ply()
    }

    fn actor(&self) -> Option<Color> {
        match self.phase {
            Phase::Assign(pieces) => match self.sources[pieces.index()] {
                Source::Choose => Some(pieces.other()),
                _ => None,
            },
            Phase::Play => Some(self.board.turn()),
        }
    }

    /// Every capture pattern this position allows for the attempt, as a set.
    fn attempt_targets(&self, from: Square) -> Bitboard {
        let occ = self.board.occupied();
        let them = self.board.turn().other();
        // K steps and R/B lines are all queen lines, so Q ∪ N covers all five patterns.
        (attacks::queen_attacks(from, occ) | attacks::knight_attacks(from))
            & self.board.by_color(them)
    }

    fn play_actions(&self, out: &mut Vec<MasqueradeAction>) {
        let b = &self.board;
        let us = b.turn();
        let occ = b.occupied();
        let pawns = b.pieces(us, Role::Pawn);
        let mut list = MoveList::new();
        pseudo_moves(b, &mut list, Bitboard::FULL, |_| occ, |_, _| true);
        for &m in list.iter() {
            // Non-pawn captures are attempts, never certain moves.
            if pawns.contains(m.from()) || !occ.contains(m.to()) {
                out.push(MasqueradeAction::Move(m));
            }
        }
        self.castles(out);
        for from in b.by_color(us) - pawns {
            for to in self.attempt_targets(from) {
                out.push(MasqueradeAction::Attempt(from, to));
            }
        }
        if out.is_empty() {
            out.push(MasqueradeAction::Pass);
        }
    }

    /// Castling with no attack test (`castles_without_attack_test`).
    fn castles(&self, out: &mut Vec<MasqueradeAction>) {
        castles_without_attack_test(&self.board, |m| out.push(MasqueradeAction::Move(m)));
    }

    fn draw_reason(&self) -> Option<&'static str> {
        if self.phase != Phase::Play || self.winner.is_some() {
            return None;
        }
        // No insufficient-material draw (`extra_mating_power`): any piece, a bare king
        // too, may capture with a queen's pattern, and a king may walk into capture.
        common_draw(
            &self.board,
            self.board.ply(),
            self.ply_cap,
            true,
            self.board.key(),
            self.records
                .iter()
                .filter(|r| r.phase == Phase::Play)
                .map(|r| r.board_key),
        )
    }

    fn key_with(&self, seat_view: Option<Seat>) -> u64 {
        match seat_view {
            None => {
                // The truth without the path to it (like a board key): board, phase, both
                // assignments and what each side has learned.
                let phase = match self.phase {
                    Phase::Assign(c) => 1 + c.index() as u64,
                    Phase::Play => 0,
                };
                let mut k = mix(self.board.key(), phase);
                for c in 0..2 {
                    k = mix(k, self.given[c].map_or(0, |a| a.index() as u64 + 1));
                    k = set_halves(k, self.consistent[c]);
                }
                k
            }
            Some(seat) => {
                // What the seat made (the opponent's assignment) plus the public record.
                let made = self.given[1 - seat].map_or(0, |a| a.index() as u64 + 1);
                mix(
                    mix(mix(self.board.key(), self.public), made),
                    7 + seat as u64,
                )
            }
        }
    }

    fn describe_set(set: u128) -> String {
        let mut parts = Vec::new();
        for (t, letter) in LETTERS.iter().enumerate() {
            let pats = possible_patterns(set, t);
            let s: String = (0..5)
                .filter(|p| pats >> p & 1 == 1)
                .map(|p| LETTERS[p])
                .collect();
            parts.push(format!("{letter}:{{{s}}}"));
        }
        format!("{} of 120 possible; {}", set.count_ones(), parts.join(" "))
    }
}

impl Game for Masquerade {
    type Action = MasqueradeAction;
    type Params = MasqueradeParams;

    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
            .with_hidden_information(!self.open)
            .with_chance(self.sources.contains(&Source::Random))
            // A turn is one move or one capture attempt; patterns are hidden, so no
            // static exchange, and there is no check.
            .with_quiet_pruning(true)
            .with_eval("masquerade")
    }

    /// Parameters should have passed [`MasqueradeParams::validate`] (the registry checks);
    /// invalid ones fall back to the defaults rather than panic.
    fn new(params: &MasqueradeParams) -> Masquerade {
        let sources = params.sources().unwrap_or([Source::Choose; 2]);
        Masquerade::from_board(Board::startpos(), sources, params.ply_cap)
            .with_open_assignments(params.open_assignments)
    }

    fn from_opening(params: &MasqueradeParams, opening: &str) -> Result<Masquerade, GameError> {
        let sources = params.sources().unwrap_or([Source::Choose; 2]);
        let board = board_from_fen(opening)?;
        Ok(Masquerade::from_board(board, sources, params.ply_cap)
            .with_open_assignments(params.open_assignments))
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.result().is_some() {
            return Turn::Terminal;
        }
        match self.actor() {
            Some(c) => Turn::Seat(c.index()),
            None => Turn::Chance,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<MasqueradeAction>) {
        out.clear();
        if self.actor().map(Color::index) != Some(seat) || self.result().is_some() {
            return;
        }
        match self.phase {
            Phase::Assign(_) => out.extend(
                (0..Assignment::COUNT).map(|i| MasqueradeAction::Assign(Assignment(i as u8))),
            ),
            Phase::Play => self.play_actions(out),
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(MasqueradeAction, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            let p = 1.0 / Assignment::COUNT as f64;
            out.extend(
                (0..Assignment::COUNT).map(|i| (MasqueradeAction::Assign(Assignment(i as u8)), p)),
            );
        }
    }

    fn apply(&mut self, action: MasqueradeAction) {
        let mover = self.board.turn();
        let mut rec = Record {
            event: Event::Passed { by: mover },
            phase: self.phase,
            consistent: self.consistent,
            winner: self.winner,
            public: self.public,
            board_key: self.board.key(),
            board_move: false,
        };
        match (self.phase, action) {
            (Phase::Assign(pieces), MasqueradeAction::Assign(a)) => {
                self.given[pieces.index()] = Some(a);
                self.phase = self.next_phase_from(pieces);
                rec.event = Event::Assigned { pieces };
            }
            (Phase::Play, MasqueradeAction::Move(m)) => {
                let captured = self.board.captured_piece(m);
                self.board.make(m);
                rec.board_move = true;
                if captured.map(|p| p.role) == Some(Role::King) {
                    self.winner = Some(mover);
                }
                rec.event = Event::Moved { by: mover, mv: m };
            }
            (Phase::Play, MasqueradeAction::Attempt(from, to)) => {
                let role = self
                    .board
                    .piece_at(from)
                    .map(|p| p.role)
                    .expect("attempt from an empty square");
                let t = type_index(role).expect("pawns never attempt");
                let occ = self.board.occupied();
                let reaching = patterns_reaching(from, to, occ);
                let truth = self.given[mover.index()]
                    .and_then(|a| a.pattern(role))
                    .expect("play starts after both assignments");
                let hit = reaching >> truth.index() & 1 == 1;
                let allowed = assignments_with(t, reaching);
                let c = &mut self.consistent[mover.index()];
                *c &= if hit {
                    allowed
                } else {
                    ALL_ASSIGNMENTS & !allowed
                };
                if hit {
                    let captured = self.board.piece_at(to);
                    self.board.make(Move::normal(from, to));
                    rec.board_move = true;
                    if captured.map(|p| p.role) == Some(Role::King) {
                        self.winner = Some(mover);
                    }
                } else {
                    self.board.make_null();
                }
                rec.event = Event::Attempted {
                    by: mover,
                    role,
                    from,
                    to,
                    hit,
                };
            }
            (Phase::Play, MasqueradeAction::Pass) => {
                self.board.make_null();
                rec.event = Event::Passed { by: mover };
            }
            (phase, a) => panic!("masquerade: {a:?} does not fit the phase {phase:?}"),
        }
        self.public = mix(self.public, event_code(rec.event));
        self.records.push(rec);
    }

    fn undo(&mut self) {
        let rec = self.records.pop().expect("undo without an action");
        match rec.event {
            Event::Assigned { pieces } => self.given[pieces.index()] = None,
            _ if rec.board_move => {
                self.board.unmake();
            }
            _ => self.board.unmake_null(),
        }
        self.phase = rec.phase;
        self.consistent = rec.consistent;
        self.winner = rec.winner;
        self.public = rec.public;
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(c) = self.winner {
            return Some(GameResult {
                returns: two_seat_returns(Some(c.index())),
                reason: "royal-capture",
            });
        }
        self.draw_reason().map(|reason| GameResult {
            returns: two_seat_returns(None),
            reason,
        })
    }

    fn state_key(&self) -> u64 {
        self.key_with(None)
    }

    fn information_key(&self, seat: Seat) -> u64 {
        if self.open {
            return self.state_key();
        }
        self.key_with(Some(seat))
    }

    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Masquerade {
        let mut w = self.clone();
        if self.open {
            return w;
        }
        let own = seat.min(1);
        if w.given[own].is_some() {
            let set = self.consistent[own];
            let k = rng.gen_range(0..set.count_ones());
            w.given[own] = Some(nth_member(set, k));
        }
        w
    }

    fn observation(&self, seat: Seat) -> String {
        let me = Color::from_index(seat.min(1));
        let them = me.other();
        let phase = match self.phase {
            Phase::Assign(p) => format!("assigning {}'s pieces", p.name()),
            Phase::Play => format!("{} to play", self.board.turn().name()),
        };
        let made = match self.given[them.index()] {
            Some(a) => a.to_string(),
            None => "not yet".into(),
        };
        // The twin shows each side the assignment its own pieces received.
        let own = match (self.open, self.given[me.index()]) {
            (false, _) => String::new(),
            (true, Some(a)) => {
                format!("{}'s assignment of your pieces (open): {a} | ", them.name())
            }
            (true, None) => format!(
                "{}'s assignment of your pieces (open): not yet | ",
                them.name()
            ),
        };
        let log: Vec<String> = self
            .records
            .iter()
            .filter_map(|r| match r.event {
                Event::Attempted {
                    by, from, to, hit, ..
                } => Some(format!(
                    "{}:{from}x{to}{}",
                    &by.name()[..1],
                    if hit { "+" } else { "-" }
                )),
                _ => None,
            })
            .collect();
        format!(
            "{} | {phase} | you are {}; you assigned {}'s pieces: {made} | {own}your pieces: {} | \
             {}'s pieces: {} | attempts: {}",
            self.board.fen(),
            me.name(),
            them.name(),
            Self::describe_set(self.consistent[me.index()]),
            them.name(),
            Self::describe_set(self.consistent[them.index()]),
            if log.is_empty() {
                "-".into()
            } else {
                log.join(" ")
            }
        )
    }

    fn action_notation(&self, action: MasqueradeAction) -> String {
        match action {
            MasqueradeAction::Assign(a) => format!("assign:{a}"),
            MasqueradeAction::Move(m) => self.board.uci(m),
            MasqueradeAction::Attempt(from, to) => format!("{from}x{to}?"),
            MasqueradeAction::Pass => "pass".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<MasqueradeAction, GameError> {
        let err = |m: &str| GameError::Action {
            action: text.into(),
            message: m.into(),
        };
        let t = text.trim();
        if let Some(rest) = t.strip_prefix("assign:") {
            if !matches!(self.phase, Phase::Assign(_)) {
                return Err(err("no assignment is due now"));
            }
            return Assignment::parse(rest)
                .map(MasqueradeAction::Assign)
                .map_err(|m| err(&m));
        }
        if matches!(self.phase, Phase::Assign(_)) {
            return Err(err("an assignment ('assign:KQ,QN,RB,NR,BK') is due now"));
        }
        if self.result().is_some() {
            return Err(err("the game is over"));
        }
        let mut legal = Vec::new();
        self.play_actions(&mut legal);
        let wanted = if t == "pass" {
            Some(MasqueradeAction::Pass)
        } else if let Some(body) = t.strip_suffix('?') {
            // `b1xc3?`, `b1c3?` or `Nb1xc3?`.
            let body = body.trim_start_matches(|c: char| "KQRBN".contains(c));
            let squares = body.replace('x', "");
            let from = squares.get(0..2).and_then(Square::parse);
            let to = squares.get(2..).and_then(Square::parse);
            match (from, to) {
                (Some(f), Some(to)) => Some(MasqueradeAction::Attempt(f, to)),
                _ => return Err(err("expected an attempt like 'b1xc3?'")),
            }
        } else {
            legal
                .iter()
                .copied()
                .find(|&a| matches!(a, MasqueradeAction::Move(_)) && self.action_notation(a) == t)
        };
        match wanted {
            Some(a) if legal.contains(&a) => Ok(a),
            _ => Err(err(
                "not a legal action here (UCI move 'e2e4', attempt 'b1xc3?', or 'pass')",
            )),
        }
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    /// Orthodox material: values are what the pieces move like, and the secret patterns
    /// are a permutation, so the side with more pieces still has more capture power.
    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat.min(1)))
    }

    /// The move a move action plays (agents read it instead of playing the action).
    fn action_move(&self, action: MasqueradeAction) -> Option<Move> {
        match action {
            MasqueradeAction::Move(m) => Some(m),
            _ => None,
        }
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The piece differences, then `known_pattern`: White's pieces on the board (king
    /// included, pawns never masquerade) whose capture pattern White has pinned down
    /// from its attempts so far, minus Black's, for `chesslab values`
    /// (`features_count_pieces_whose_pattern_is_known`). "Known" is the owner's
    /// knowledge: the opponent always knows, having made the assignment.
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = crate::game::material_features(&self.board);
        let known = |c: Color| {
            PIECE_TYPES
                .iter()
                .enumerate()
                .filter(|&(t, _)| {
                    possible_patterns(self.consistent[c.index()], t).count_ones() == 1
                })
                .map(|(_, &r)| self.board.pieces(c, r).count() as f64)
                .sum::<f64>()
        };
        f.push((
            "known_pattern".to_string(),
            known(Color::White) - known(Color::Black),
        ));
        f
    }

    /// Per game: `white_assigned` / `black_assigned` (index 0..119 of the assignment that
    /// side gave the opponent's pieces, -1 if none; labelled in its text form),
    /// `{side}_gave_king` / `{side}_gave_queen` (the pattern index, K Q R B N = 0..4, that
    /// side gave the opponent's king and queen, once assigned), `{side}_attempts`,
    /// `{side}_failed_attempts`, `{side}_knows` (1 if that side's consistent set came down
    /// to one assignment, else 0), `{side}_knows_at_ply` (the play ply, counted from 1,
    /// after which it first did; left out when it never did, so reports average it over
    /// the games where it happened),
    /// `{side}_consistent` (final set size), `{side}_known_types` (piece types whose
    /// pattern the side has pinned down at the end).
    fn tallies(&self) -> Vec<(String, f64)> {
        let mut attempts = [0u32; 2];
        let mut failed = [0u32; 2];
        let mut knows_at = [-1.0f64; 2];
        let mut play_ply = 0u32;
        for (i, r) in self.records.iter().enumerate() {
            if r.phase == Phase::Play {
                play_ply += 1;
            }
            if let Event::Attempted { by, hit, .. } = r.event {
                attempts[by.index()] += 1;
                failed[by.index()] += u32::from(!hit);
            }
            let after = self
                .records
                .get(i + 1)
                .map_or(self.consistent, |n| n.consistent);
            for c in 0..2 {
                if knows_at[c] < 0.0 && after[c].count_ones() == 1 {
                    knows_at[c] = play_ply as f64;
                }
            }
        }
        let mut out = Vec::new();
        // White assigns Black's pieces and vice versa.
        let assigned = |c: usize| self.given[1 - c].map_or(-1.0, |a| a.index() as f64);
        for (c, side) in ["white", "black"].iter().enumerate() {
            let set = self.consistent[c];
            let known = (0..5)
                .filter(|&t| possible_patterns(set, t).count_ones() == 1)
                .count();
            out.push((format!("{side}_assigned"), assigned(c)));
            // The two choices the seed's strategy notes weigh most: what the opponent's
            // king and queen capture like.
            if let Some(a) = self.given[1 - c] {
                for (role, name) in [(Role::King, "king"), (Role::Queen, "queen")] {
                    let pat = a.pattern(role).expect("not a pawn");
                    out.push((format!("{side}_gave_{name}"), pat.index() as f64));
                }
            }
            out.push((format!("{side}_attempts"), attempts[c] as f64));
            out.push((format!("{side}_failed_attempts"), failed[c] as f64));
            out.push((format!("{side}_knows"), f64::from(knows_at[c] >= 0.0)));
            if knows_at[c] >= 0.0 {
                out.push((format!("{side}_knows_at_ply"), knows_at[c]));
            }
            out.push((format!("{side}_consistent"), set.count_ones() as f64));
            out.push((format!("{side}_known_types"), known as f64));
        }
        out
    }

    fn tally_label(&self, name: &str, value: f64) -> Option<String> {
        if name.ends_with("_assigned") {
            return Some(if value < 0.0 {
                "none".into()
            } else {
                Assignment::from_index(value as usize)?.to_string()
            });
        }
        if name.ends_with("_gave_king") || name.ends_with("_gave_queen") {
            let p = Pattern::ALL.get(value as usize)?;
            return Some(format!("captures like {}", p.letter()));
        }
        None
    }
}

#[cfg(test)]
mod tests;

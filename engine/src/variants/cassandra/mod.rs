//! Cassandra Chess (Cassandra seed; docs/RULES.md "Cassandra Chess"): orthodox chess plus
//! prophecies of doom.
//!
//! - After a move the mover may announce one prophecy: a square; the piece type is the
//!   current rung of the mover's target ladder (pawn, knight, bishop, rook, queen, king).
//!   The announcement is a second decision of the same seat (a compound turn), so moves
//!   and prophecies stay separate actions with small branching.
//! - A prophecy is resolved at the start of the prophet's `horizon`-th own turn after it
//!   was made (default 2: made with move 1, resolved when the prophet is about to play
//!   move 3): an enemy piece of that type on that square is removed
//!   (`rule_prophecy_resolves_two_own_moves_later`).
//! - A move that ends the game (checkmate, stalemate, a draw such as insufficient
//!   material, or the ply cap) ends it before any prophecy falls due: the prophecy
//!   lapses, so a mated side never wins by a removal afterwards, and the mover names no
//!   prophecy after it (`rule_move_reaching_the_ply_cap_ends_the_game_without_a_prophecy`;
//!   `rule_seed_example_mate_before_resolution`,
//!   `rule_mate_ends_the_game_before_a_due_prophecy`,
//!   `rule_mated_side_never_wins_by_a_prophecy_resolving_afterwards`,
//!   `rule_drawing_move_ends_the_game_before_a_due_king_prophecy`).
//! - White makes no prophecy on move 1. At most one pending prophecy per player. So,
//!   without passes, Black prophesies with its odd moves and White with its even ones,
//!   and White's prophecy falls due only after the victim's own prophecy decision that
//!   follows its second move, Black's right after White's second move; a pass swaps
//!   the two (`rule_prophecy_cadence_by_colour`; issue 67,
//!   results/cassandra/asymmetry/README.md).
//! - A player climbs one rung after a successful prophecy, or when the foe has no piece
//!   of the current type. A successful king prophecy wins (`prophecy`). If a removal
//!   leaves the enemy king attacked at the prophet's turn, the prophet wins
//!   (`royal-capture`).
//! - Prophecies are public; with `secret = true` the opponent's pending square is hidden
//!   (information keys omit it and `sample_world` redraws it uniformly).
//! - The observation names each pending prophecy's due move (`black p@e4 due 3`: it
//!   falls due as Black starts move 3, the FEN's move count), also for a secret one:
//!   when it was made is public (`rule_observation_says_the_move_a_prophecy_falls_due` in
//!   `engine/tests/cassandra_observation.rs`).
//!
//! Decisions where the texts are silent (tested below): a removed rook on its castling
//! square loses that castling right; removing the pawn that just made a double step
//! cancels en passant; repetition is judged on the board as in orthodox chess; the ply
//! cap ends the game like any draw, so a prophecy due right after it lapses too
//! (`rule_drawing_move_ends_the_game_before_a_due_king_prophecy`).
//!
//! For searchers (issue 36), `eval_hint` scores what the board does not show: pending
//! prophecies aimed at a piece of their type and the rungs climbed, with the hand-chosen
//! numbers of [`PROPHECY_HINT`]; agents read it only with `eval.hint`, so it is no rule
//! and changes no result (`rule_eval_hint_counts_aimed_prophecies_and_the_ladder`).
//!
//! The board's legal moves and orthodox outcome are worked out once whenever the board
//! changes, for `turn`, `result`, `legal_actions` and `apply` to share
//! (`cached_status_matches_a_fresh_computation_in_random_play`).

use crate::board::{Board, MaterialRule, Outcome, Termination};
use crate::game::{
    two_seat_returns, validate_ply_cap, Game, GameError, GameFacts, GameResult, InvalidParams,
    Seat, Turn, VariantParams,
};
use crate::moves::{Move, MoveList};
use crate::square::{Color, Piece, Role, Square};
use crate::variants::chess::material_balance;
use crate::variants::outcome_result;
use crate::zobrist;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

/// Tunable numbers of Cassandra Chess.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct CassandraParams {
    pub ply_cap: u32,
    /// Own turns between a prophecy and its resolution (the seed's two moves).
    pub horizon: u32,
    /// Hide pending prophecies from the opponent until they resolve.
    pub secret: bool,
}

impl Default for CassandraParams {
    fn default() -> Self {
        CassandraParams {
            ply_cap: 400,
            horizon: 2,
            secret: false,
        }
    }
}

/// What each of [`CassandraParams`]'s keys is (printed by `chesslab params`).
pub const CASSANDRA_PARAM_DOCS: &[crate::game::ParamDoc] = &[
    crate::game::ParamDoc::new(
        "ply_cap",
        "plies after which the game ends as a draw recorded as `cap`",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "horizon",
        "own turns between a prophecy and its resolution (the seed's two moves ahead)",
        "1 or more",
    ),
    crate::game::ParamDoc::new(
        "secret",
        "hide pending prophecies from the opponent until they resolve",
        "true or false (seed: false)",
    ),
];

impl VariantParams for CassandraParams {
    const DOCS: &'static [crate::game::ParamDoc] = CASSANDRA_PARAM_DOCS;

    fn validate(&self) -> Result<(), InvalidParams> {
        validate_ply_cap(self.ply_cap)?;
        if self.horizon == 0 {
            return Err(InvalidParams::new(
                "horizon",
                "must be at least 1 (a prophecy resolves on a later own turn)",
            ));
        }
        Ok(())
    }
}

/// An action: a chess move, or the prophecy that follows it (`None` = no prophecy).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CassandraAction {
    Move(Move),
    Prophesy(Option<Square>),
}

/// A pending prophecy.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Prophecy {
    pub role: Role,
    pub square: Square,
    /// Resolved when the prophet starts a turn with this many own moves made.
    pub due: u32,
}

const LADDER: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// The numbers of Cassandra's [`Game::eval_hint`] (pawns).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProphecyHint {
    /// Share of an aimed prophecy's victim counted before it resolves (the victim may
    /// still move away).
    pub hit: f64,
    /// What removing the king is worth (the game; a searcher squashes scores near 4).
    pub king: f64,
    /// Worth of standing on each rung of the ladder (pawn ... king).
    pub rung: [f64; 6],
}

/// Chosen by hand (issue 36), not fitted: half the victim, the king as eight pawns,
/// the rungs rising to the king's.
pub const PROPHECY_HINT: ProphecyHint = ProphecyHint {
    hit: 0.5,
    king: 8.0,
    rung: [0.0, 0.2, 0.4, 0.6, 0.8, 1.5],
};

/// Everything an action may change besides the board, saved for undo.
#[derive(Clone, Copy, Debug)]
struct Saved {
    pending: [Option<Prophecy>; 2],
    rung: [u8; 2],
    moves_made: [u32; 2],
    awaiting_prophecy: bool,
    winner: Option<(Color, &'static str)>,
    was_move: bool,
    stats: ProphecyStats,
    /// A piece removed by a prophecy during this action, with the board state to restore.
    removed: Option<(Square, Piece, crate::Bitboard, Option<Square>)>,
}

/// Counters for balance reports: prophecies made and fulfilled, indexed
/// `[colour index][rung]` (rung 0 = pawn ... 5 = king, the ladder's order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProphecyStats {
    pub made: [[u32; 6]; 2],
    pub fulfilled: [[u32; 6]; 2],
}

impl ProphecyStats {
    /// Prophecies made on `rung` by both sides.
    pub fn made_on(&self, rung: usize) -> u32 {
        self.made[0][rung] + self.made[1][rung]
    }

    /// Prophecies fulfilled on `rung` by both sides.
    pub fn fulfilled_on(&self, rung: usize) -> u32 {
        self.fulfilled[0][rung] + self.fulfilled[1][rung]
    }
}

/// Rung names for tallies, in ladder order.
const RUNG_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// A Cassandra game.
#[derive(Clone, Debug)]
pub struct Cassandra {
    board: Board,
    params: CassandraParams,
    pending: [Option<Prophecy>; 2],
    rung: [u8; 2],
    moves_made: [u32; 2],
    awaiting_prophecy: bool,
    winner: Option<(Color, &'static str)>,
    undo: Vec<Saved>,
    stats: ProphecyStats,
    status: BoardStatus,
}

/// The board's legal moves and orthodox outcome. Every action is followed by questions
/// that need them (`turn`, `result`, `legal_actions`, and `apply` itself asks whether
/// the move ended the game), so they are worked out once whenever the board changes;
/// `undo` only marks them stale and a stale status is worked out on demand.
#[derive(Clone)]
struct BoardStatus {
    moves: MoveList,
    outcome: Option<Outcome>,
    fresh: bool,
}

impl std::fmt::Debug for BoardStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoardStatus")
            .field("moves", &self.moves.len())
            .field("outcome", &self.outcome)
            .field("fresh", &self.fresh)
            .finish()
    }
}

/// The outcome of `board` whose legal moves are `moves`: as `Board::outcome`, but with
/// the variants' material rule (only K v K and K+minor v K are dead, RULES.md).
fn outcome_with(board: &Board, moves: &MoveList) -> Option<Outcome> {
    if moves.is_empty() {
        let checked = board.in_check();
        return Some(Outcome {
            winner: checked.then(|| board.turn().other()),
            termination: if checked {
                Termination::Checkmate
            } else {
                Termination::Stalemate
            },
        });
    }
    board
        .automatic_draw_by(MaterialRule::Bare)
        .map(|termination| Outcome {
            winner: None,
            termination,
        })
}

impl Cassandra {
    pub fn from_board(board: Board, params: CassandraParams) -> Cassandra {
        Cassandra {
            board,
            params,
            pending: [None; 2],
            rung: [0; 2],
            moves_made: [0; 2],
            awaiting_prophecy: false,
            winner: None,
            undo: Vec::new(),
            stats: ProphecyStats::default(),
            status: BoardStatus {
                moves: MoveList::new(),
                outcome: None,
                fresh: false,
            },
        }
        .refreshed()
    }

    fn refreshed(mut self) -> Cassandra {
        self.refresh();
        self
    }

    /// Works out the board status again after the board changed.
    fn refresh(&mut self) {
        self.status.moves.clear();
        self.board.generate(&mut self.status.moves);
        self.status.outcome = outcome_with(&self.board, &self.status.moves);
        self.status.fresh = true;
    }

    /// The board's orthodox outcome (mate, stalemate, an automatic draw).
    fn board_outcome(&self) -> Option<Outcome> {
        if self.status.fresh {
            self.status.outcome
        } else {
            outcome_with(&self.board, &self.board.legal_moves())
        }
    }

    pub fn board_ref(&self) -> &Board {
        &self.board
    }

    /// The pending prophecy of `color`, if any.
    pub fn pending(&self, color: Color) -> Option<Prophecy> {
        self.pending[color.index()]
    }

    /// The piece type `color` may target now.
    pub fn target(&self, color: Color) -> Role {
        LADDER[self.rung[color.index()] as usize]
    }

    /// Prophecies made and fulfilled, by rung, over the game so far.
    pub fn stats(&self) -> ProphecyStats {
        self.stats
    }

    fn save(&self, was_move: bool) -> Saved {
        Saved {
            pending: self.pending,
            rung: self.rung,
            moves_made: self.moves_made,
            awaiting_prophecy: self.awaiting_prophecy,
            winner: self.winner,
            was_move,
            stats: self.stats,
            removed: None,
        }
    }

    /// Climbs the ladder past types the foe no longer has.
    fn skip_absent_types(&mut self, color: Color) {
        let i = color.index();
        while (self.rung[i] as usize) < LADDER.len() - 1
            && self
                .board
                .pieces(color.other(), LADDER[self.rung[i] as usize])
                .is_empty()
        {
            self.rung[i] += 1;
        }
    }

    /// Resolves `color`'s prophecy if it falls due as `color` starts its turn.
    fn resolve(&mut self, color: Color, saved: &mut Saved) {
        let i = color.index();
        let Some(p) = self.pending[i] else { return };
        if self.moves_made[i] != p.due {
            return;
        }
        self.pending[i] = None;
        let victim = Piece::new(color.other(), p.role);
        if self.board.piece_at(p.square) != Some(victim) {
            return;
        }
        let castling = self.board.castling_rights();
        let ep = self.board.ep_square();
        saved.removed = Some((p.square, victim, castling, ep));
        self.board.set_piece(p.square, None);
        let ep_after = ep.filter(|e| {
            // The double-stepped pawn stands beside the en passant square.
            let pawn_sq = Square::from_coords(e.file(), if color == Color::White { 4 } else { 3 });
            pawn_sq != p.square
        });
        self.board.set_state(
            self.board.turn(),
            castling.without(p.square),
            ep_after,
            self.board.halfmoves(),
            self.board.fullmoves(),
        );
        self.refresh();
        self.stats.fulfilled[i][self.rung[i] as usize] += 1;
        if p.role == Role::King {
            self.winner = Some((color, "prophecy"));
            return;
        }
        self.rung[i] = (self.rung[i] + 1).min(LADDER.len() as u8 - 1);
        if let Some(k) = self.board.king(color.other()) {
            if self.board.is_attacked(k, color) {
                self.winner = Some((color, "royal-capture"));
            }
        }
    }

    /// The game is over on the board (mate, stalemate, an orthodox draw or the ply cap),
    /// whatever prophecy is pending.
    fn board_game_over(&self) -> bool {
        self.board_outcome().is_some() || self.board.ply() as u32 >= self.params.ply_cap
    }

    fn may_prophesy(&self, color: Color) -> bool {
        let first_white_move = color == Color::White && self.moves_made[0] == 1;
        // A move that ends the game, the ply cap included, leaves nothing to announce.
        !first_white_move && self.pending[color.index()].is_none() && !self.board_game_over()
    }

    fn seat_to_act(&self) -> Color {
        if self.awaiting_prophecy {
            self.board.turn().other()
        } else {
            self.board.turn()
        }
    }

    /// The move number (the FEN's full-move count) at whose start, by the prophet `who`,
    /// the pending prophecy `p` falls due. Public even when the square is secret: both
    /// seats saw when it was made, and the information key keeps `due`.
    fn due_move(&self, p: Prophecy, who: usize) -> u32 {
        let color = if who == 0 { Color::White } else { Color::Black };
        let fullmoves = self.board.fullmoves() as u32;
        // Whether `color` has begun its current turn (its prophecy already resolved or not
        // due): its next start is then after its coming move.
        let started = self.board.turn() == color && !self.awaiting_prophecy;
        let next_start_moves = self.moves_made[who] + started as u32;
        let next_start_fullmove = match (self.board.turn() == color, color) {
            (true, _) => fullmoves + started as u32,
            (false, Color::White) => fullmoves + 1,
            (false, Color::Black) => fullmoves,
        };
        next_start_fullmove + p.due.saturating_sub(next_start_moves)
    }

    fn prophecy_key(p: Option<Prophecy>, who: usize, with_square: bool) -> u64 {
        match p {
            None => 0,
            Some(p) => {
                let sq = if with_square {
                    p.square.index() as u64
                } else {
                    64
                };
                zobrist::extra(
                    5000 + who as u64 * 100_000
                        + p.role.index() as u64 * 10_000
                        + p.due as u64 * 100
                        + sq,
                )
            }
        }
    }

    fn key_for(&self, hide_square_of: Option<usize>) -> u64 {
        let mut k = self.board.key();
        for who in 0..2 {
            k ^= Self::prophecy_key(self.pending[who], who, hide_square_of != Some(who));
            k ^= zobrist::extra(9000 + who as u64 * 10 + self.rung[who] as u64);
        }
        if self.awaiting_prophecy {
            k ^= zobrist::extra(8999);
        }
        if let Some((c, _)) = self.winner {
            k ^= zobrist::extra(8990 + c.index() as u64);
        }
        k
    }
}

impl Game for Cassandra {
    type Action = CassandraAction;
    type Params = CassandraParams;

    fn facts(&self) -> GameFacts {
        // A turn is one orthodox move under orthodox check and then the mover's prophecy
        // (a second decision: no quiet pruning). No static exchange: a prophecy falling
        // due may remove the capturer on its square (the conformance check found it).
        // Its check at a move is the board's, but declaring it (`game_check`, with an
        // `in_check` false at the prophecy) made check extensions cost 74 Elo at equal
        // time (results/strength/variants/switch-ons: -74 [-136, -17] over 100 games),
        // so it is not declared and the search treats Cassandra as before.
        GameFacts::TWO_SEAT_CLASSIC
            .with_hidden_information(self.params.secret)
            .with_eval("cassandra")
    }

    fn new(params: &CassandraParams) -> Cassandra {
        Cassandra::from_board(Board::startpos(), params.clone())
    }

    fn from_opening(params: &CassandraParams, opening: &str) -> Result<Cassandra, GameError> {
        let board = Board::from_fen(opening).map_err(|e| GameError::opening_fen(opening, e))?;
        let mut g = Cassandra::from_board(board, params.clone());
        // A position set up mid-game: both players have moved, so White may prophesy.
        g.moves_made = [1, 1];
        Ok(g)
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.result().is_some() {
            Turn::Terminal
        } else {
            Turn::Seat(self.seat_to_act().index())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<CassandraAction>) {
        out.clear();
        if seat != self.seat_to_act().index() || self.result().is_some() {
            return;
        }
        if self.awaiting_prophecy {
            out.push(CassandraAction::Prophesy(None));
            out.extend(Square::all().map(|s| CassandraAction::Prophesy(Some(s))));
        } else if self.status.fresh {
            out.extend(self.status.moves.iter().map(|&m| CassandraAction::Move(m)));
        } else {
            out.extend(
                self.board
                    .legal_moves()
                    .iter()
                    .map(|&m| CassandraAction::Move(m)),
            );
        }
    }

    fn apply(&mut self, action: CassandraAction) {
        match action {
            CassandraAction::Move(m) => {
                let mut saved = self.save(true);
                let mover = self.board.turn();
                self.board.make(m);
                self.refresh();
                self.moves_made[mover.index()] += 1;
                if self.may_prophesy(mover) {
                    self.skip_absent_types(mover);
                    self.awaiting_prophecy = true;
                } else if !self.board_game_over() {
                    // A move that ends the game (mate, stalemate, a draw, the cap) ends
                    // it before the opponent's prophecy falls due.
                    self.resolve(mover.other(), &mut saved);
                }
                self.undo.push(saved);
            }
            CassandraAction::Prophesy(square) => {
                let mut saved = self.save(false);
                let prophet = self.board.turn().other();
                if let Some(square) = square {
                    let role = self.target(prophet);
                    self.stats.made[prophet.index()][self.rung[prophet.index()] as usize] += 1;
                    self.pending[prophet.index()] = Some(Prophecy {
                        role,
                        square,
                        due: self.moves_made[prophet.index()] + self.params.horizon - 1,
                    });
                }
                self.awaiting_prophecy = false;
                if !self.board_game_over() {
                    self.resolve(prophet.other(), &mut saved);
                }
                self.undo.push(saved);
            }
        }
    }

    fn undo(&mut self) {
        self.status.fresh = false;
        let saved = self.undo.pop().expect("undo without an action");
        if let Some((sq, piece, castling, ep)) = saved.removed {
            self.board.set_piece(sq, Some(piece));
            self.board.set_state(
                self.board.turn(),
                castling,
                ep,
                self.board.halfmoves(),
                self.board.fullmoves(),
            );
        }
        if saved.was_move {
            self.board.unmake();
        }
        self.stats = saved.stats;
        self.pending = saved.pending;
        self.rung = saved.rung;
        self.moves_made = saved.moves_made;
        self.awaiting_prophecy = saved.awaiting_prophecy;
        self.winner = saved.winner;
    }

    fn result(&self) -> Option<GameResult> {
        if let Some((c, reason)) = self.winner {
            return Some(GameResult {
                returns: two_seat_returns(Some(c.index())),
                reason,
            });
        }
        if self.awaiting_prophecy {
            return None;
        }
        if let Some(o) = self.board_outcome() {
            return Some(outcome_result(o));
        }
        if self.board.ply() as u32 >= self.params.ply_cap {
            return Some(GameResult {
                returns: two_seat_returns(None),
                reason: "cap",
            });
        }
        None
    }

    fn state_key(&self) -> u64 {
        self.key_for(None)
    }

    fn information_key(&self, seat: Seat) -> u64 {
        if self.params.secret {
            self.key_for(Some(1 - seat))
        } else {
            self.state_key()
        }
    }

    fn sample_world(&self, seat: Seat, rng: &mut dyn RngCore) -> Cassandra {
        let mut w = self.clone();
        if self.params.secret {
            if let Some(p) = &mut w.pending[1 - seat] {
                p.square = Square::new(rng.gen_range(0..64));
            }
        }
        w
    }

    fn observation(&self, seat: Seat) -> String {
        let show = |who: usize| match self.pending[who] {
            None => "-".to_string(),
            Some(p) if self.params.secret && who != seat => {
                format!("{}@? due {}", p.role.char(), self.due_move(p, who))
            }
            Some(p) => format!(
                "{}@{} due {}",
                p.role.char(),
                p.square,
                self.due_move(p, who)
            ),
        };
        format!(
            "{} | white {} | black {}",
            self.board.fen(),
            show(0),
            show(1)
        )
    }

    fn action_notation(&self, action: CassandraAction) -> String {
        match action {
            CassandraAction::Move(m) => self.board.uci(m),
            CassandraAction::Prophesy(None) => "@-".into(),
            CassandraAction::Prophesy(Some(s)) => format!("@{s}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<CassandraAction, GameError> {
        let err = |m: &str| GameError::Action {
            action: text.into(),
            message: m.into(),
        };
        if let Some(rest) = text.strip_prefix('@') {
            if !self.awaiting_prophecy {
                return Err(err("no prophecy may be made now"));
            }
            return match rest {
                "-" => Ok(CassandraAction::Prophesy(None)),
                s => Square::parse(s)
                    .map(|sq| CassandraAction::Prophesy(Some(sq)))
                    .ok_or_else(|| err("expected '@-' or '@<square>'")),
            };
        }
        if self.awaiting_prophecy {
            return Err(err("a prophecy ('@e5' or '@-') is due now"));
        }
        self.board
            .parse_move(text)
            .map(CassandraAction::Move)
            .map_err(|e| err(&e.to_string()))
    }

    fn history_len(&self) -> usize {
        self.undo.len()
    }

    fn material(&self, seat: Seat) -> f64 {
        material_balance(&self.board, Color::from_index(seat))
    }

    /// Pending prophecies and the ladder, for searchers that ask ([`PROPHECY_HINT`]):
    /// each side's pending prophecy whose square holds an enemy piece of its type now
    /// counts a share of what it would remove (a king: the game), and each rung climbed
    /// counts, since the ladder leads to the winning king prophecy. In a world sampled
    /// for a seat the opponent's secret square is the sampled one.
    /// Test: `rule_eval_hint_counts_aimed_prophecies_and_the_ladder`.
    fn eval_hint(&self, seat: Seat) -> f64 {
        let h = &PROPHECY_HINT;
        let mut score = [0.0f64; 2];
        for (who, side) in score.iter_mut().enumerate() {
            let color = Color::from_index(who);
            *side += h.rung[self.rung[who] as usize];
            if let Some(p) = self.pending[who] {
                if self.board.piece_at(p.square) == Some(Piece::new(color.other(), p.role)) {
                    let worth = match p.role {
                        Role::King => h.king,
                        r => crate::variants::chess::Chess::VALUES[r.index()],
                    };
                    *side += h.hit * worth;
                }
            }
        }
        score[seat] - score[1 - seat]
    }

    /// The move a move action plays (agents read it instead of playing the action).
    fn action_move(&self, action: CassandraAction) -> Option<Move> {
        match action {
            CassandraAction::Move(m) => Some(m),
            CassandraAction::Prophesy(_) => None,
        }
    }

    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }

    /// The piece differences, then `rung`: White's rung on the target ladder minus
    /// Black's (0 = pawn ... 5 = king), for `chesslab values`
    /// (`features_add_the_ladder_rung`).
    fn features(&self) -> Vec<(String, f64)> {
        let mut f = crate::game::material_features(&self.board);
        f.push((
            "rung".to_string(),
            self.rung[0] as f64 - self.rung[1] as f64,
        ));
        f
    }

    /// Prophecies per rung over both sides (`made_pawn`, `fulfilled_pawn`, ...,
    /// `made_king`, `fulfilled_king`) and per side (`white_made`, `white_fulfilled`,
    /// `black_made`, `black_fulfilled`). Saved with every action, so `undo` restores them.
    fn tallies(&self) -> Vec<(String, f64)> {
        let st = &self.stats;
        let mut t = Vec::with_capacity(16);
        for (rung, name) in RUNG_NAMES.iter().enumerate() {
            t.push((format!("made_{name}"), st.made_on(rung) as f64));
            t.push((format!("fulfilled_{name}"), st.fulfilled_on(rung) as f64));
        }
        for (side, name) in ["white", "black"].iter().enumerate() {
            let made: u32 = st.made[side].iter().sum();
            let fulfilled: u32 = st.fulfilled[side].iter().sum();
            t.push((format!("{name}_made"), made as f64));
            t.push((format!("{name}_fulfilled"), fulfilled as f64));
        }
        t
    }
}

#[cfg(test)]
mod tests;

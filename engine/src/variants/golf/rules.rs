//! The rules on a position: solved, borrowed reach from the neighbours, captures owed,
//! move targets, legality, playing a move and verifying a solution.

use super::*;

impl GolfPosition {
    /// Solved: at most one chosen piece is still owed.
    #[inline]
    pub fn is_solved(&self) -> bool {
        let mut owed = 0u32;
        for k in 0..12 {
            owed += self.chosen.0[k].saturating_sub(self.taken.0[k]) as u32;
        }
        owed <= 1
    }

    /// The kinds (roles) of the same-colour pieces on the 8 squares around `sq`
    /// (empty when `sq` is empty), in the order N B R Q K.
    pub fn neighbour_types(&self, sq: Square) -> Vec<Role> {
        let Some(p) = self.piece_at(sq) else {
            return Vec::new();
        };
        let friends = king_attacks(sq) & self.by_color[p.color.index()];
        GOLF_ROLES
            .into_iter()
            .filter(|r| (friends & self.by_role[r.index()]).any())
            .collect()
    }

    /// Squares a piece on `sq` of colour `color` reaches with the moves it borrows from
    /// its neighbours (ignoring what it may capture): the union of the attacks of every
    /// kind among its same-colour neighbours, a borrowed king move being one step.
    #[inline(always)]
    pub fn borrowed_reach(&self, sq: Square, color: Color) -> Bitboard {
        let friends = king_attacks(sq) & self.by_color[color.index()];
        if friends.is_empty() {
            return Bitboard::EMPTY;
        }
        let mut t = Bitboard::EMPTY;
        if (friends & self.by_role[Role::Knight.index()]).any() {
            t |= knight_attacks(sq);
        }
        let q = self.by_role[Role::Queen.index()];
        if (friends & (self.by_role[Role::Bishop.index()] | q)).any() {
            t |= bishop_attacks(sq, self.occupied);
        }
        if (friends & (self.by_role[Role::Rook.index()] | q)).any() {
            t |= rook_attacks(sq, self.occupied);
        }
        if (friends & self.by_role[Role::King.index()]).any() {
            t |= king_attacks(sq);
        }
        t
    }

    /// Bitmask over kind indices of the kinds owed at least once / at least twice.
    #[inline(always)]
    pub fn owed_masks(&self) -> (u16, u16) {
        let mut once = 0u16;
        let mut twice = 0u16;
        for k in 0..12 {
            let o = self.chosen.0[k].saturating_sub(self.taken.0[k]);
            if o >= 1 {
                once |= 1 << k;
            }
            if o >= 2 {
                twice |= 1 << k;
            }
        }
        (once, twice)
    }

    /// Squares the piece of kind `mover` standing on `sq` may capture (empty when it may
    /// not capture at all), given the owed masks from [`owed_masks`](Self::owed_masks).
    #[inline(always)]
    pub fn capture_targets(&self, sq: Square, mover: usize, once: u16, twice: u16) -> Bitboard {
        if self.chosen.0[mover] == 0 {
            return Bitboard::EMPTY;
        }
        if let Some(t) = self.taking {
            if t != sq {
                return Bitboard::EMPTY;
            }
        }
        let mut kinds = once & !(1 << mover) | (twice & (1 << mover));
        let mut bb = Bitboard::EMPTY;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            bb |= self.kind_bb_index(k);
        }
        bb
    }

    /// Every legal move, grouped by piece.
    pub fn move_targets(&self, params: &GolfParams) -> MoveTargets {
        self.move_targets_with(params.king_step)
    }

    /// [`move_targets`](Self::move_targets) with only the king-step rule given.
    pub fn move_targets_with(&self, king_step: KingStep) -> MoveTargets {
        let mut out = MoveTargets::new();
        let (once, twice) = self.owed_masks();
        let empty = !self.occupied;
        for color in Color::BOTH {
            let start = out.len;
            let mine = self.by_color[color.index()];
            let mut has_pair = false;
            for sq in mine {
                let reach = self.borrowed_reach(sq, color);
                if (king_attacks(sq) & mine).any() {
                    has_pair = true;
                }
                if reach.is_empty() {
                    continue;
                }
                let kind = self.board[sq.index()] as usize;
                let caps = self.capture_targets(sq, kind, once, twice);
                out.push(sq, reach & (empty | caps));
            }
            let king_steps = match king_step {
                KingStep::NoAdjacentPair => !has_pair,
                KingStep::NoBorrowedMove => out.len == start,
            };
            if king_steps {
                // Only reachable with no borrowed move, so nothing was pushed for `color`.
                out.len = start;
                for sq in mine {
                    let kind = self.board[sq.index()] as usize;
                    let caps = self.capture_targets(sq, kind, once, twice);
                    out.push(sq, king_attacks(sq) & (empty | caps));
                }
            }
        }
        out
    }

    /// Whether `color` currently moves by king steps (see [`KingStep`]).
    pub fn has_king_steps(&self, king_step: KingStep, color: Color) -> bool {
        let mine = self.by_color[color.index()];
        match king_step {
            KingStep::NoAdjacentPair => mine
                .into_iter()
                .all(|sq| (king_attacks(sq) & mine).is_empty()),
            KingStep::NoBorrowedMove => {
                let (once, twice) = self.owed_masks();
                let empty = !self.occupied;
                mine.into_iter().all(|sq| {
                    let reach = self.borrowed_reach(sq, color);
                    let kind = self.board[sq.index()] as usize;
                    (reach & (empty | self.capture_targets(sq, kind, once, twice))).is_empty()
                })
            }
        }
    }

    /// Every legal move, sorted by (from, to).
    pub fn legal_moves(&self, params: &GolfParams) -> Vec<GolfMove> {
        let mut v: Vec<GolfMove> = self.move_targets(params).moves().collect();
        v.sort_unstable();
        v
    }

    pub fn is_legal(&self, mv: GolfMove, params: &GolfParams) -> bool {
        self.move_targets(params)
            .entries()
            .any(|(from, to)| from == mv.from && to.contains(mv.to))
    }

    /// Applies `mv` without checking legality: the piece on `from` goes to `to`, capturing
    /// what stands there (which is added to `taken` and makes the mover the `taking`
    /// piece); a moving `taking` piece takes the mark along. `from` must hold a piece and
    /// differ from `to` (checked only in debug builds; see [`try_apply`](Self::try_apply)).
    #[inline]
    pub fn apply_unchecked(&mut self, mv: GolfMove) {
        let kind = self.board[mv.from.index()];
        debug_assert!(kind != EMPTY_CELL && mv.from != mv.to);
        let victim = self.board[mv.to.index()];
        self.remove_piece(mv.from, kind);
        if victim != EMPTY_CELL {
            self.remove_piece(mv.to, victim);
            self.add_taken(victim as usize);
            self.set_taking(Some(mv.to));
        } else if self.taking == Some(mv.from) {
            self.set_taking(Some(mv.to));
        }
        self.add_piece(mv.to, kind);
    }

    /// Applies `mv` without checking its legality, but refusing a move from an empty
    /// square or to the same square.
    pub fn try_apply(&self, mv: GolfMove) -> Result<GolfPosition, GolfMoveError> {
        if mv.from == mv.to {
            return Err(GolfMoveError::NullMove(mv));
        }
        if !self.occupied.contains(mv.from) {
            return Err(GolfMoveError::EmptyFrom(mv));
        }
        let mut p = *self;
        p.apply_unchecked(mv);
        Ok(p)
    }

    /// Plays a legal move, or explains why it is not legal.
    pub fn play(&self, mv: GolfMove, params: &GolfParams) -> Result<GolfPosition, GolfMoveError> {
        if !self.occupied.contains(mv.from) {
            return Err(GolfMoveError::EmptyFrom(mv));
        }
        if !self.is_legal(mv, params) {
            return Err(GolfMoveError::Illegal(mv));
        }
        self.try_apply(mv)
    }

    /// Replays `moves`, each legal, and checks that only the last one reaches a solved
    /// state. Returns the final position or a description of the first failure.
    pub fn verify_solution(
        &self,
        moves: &[GolfMove],
        params: &GolfParams,
    ) -> Result<GolfPosition, String> {
        if self.is_solved() {
            return if moves.is_empty() {
                Ok(*self)
            } else {
                Err("the position is already solved".to_string())
            };
        }
        if moves.is_empty() {
            return Err("no moves and the position is not solved".to_string());
        }
        let mut pos = *self;
        for (i, &mv) in moves.iter().enumerate() {
            pos = pos
                .play(mv, params)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            let last = i + 1 == moves.len();
            if pos.is_solved() != last {
                return Err(if last {
                    "the last move does not solve the problem".to_string()
                } else {
                    format!("move {} ({mv}) already solves the problem", i + 1)
                });
            }
        }
        Ok(pos)
    }
}

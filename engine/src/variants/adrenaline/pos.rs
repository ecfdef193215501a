//! The position under the rules: the board with its checker stacks ([`Pos`]), and how
//! far a piece reaches with the steps its checkers buy (attacks, checks, legality).

use super::*;

/// Every square a king step away from a square of `b`.
pub(super) fn king_spread(b: Bitboard) -> Bitboard {
    let x = b.0;
    let side = ((x << 1) & !Bitboard::FILE_A.0) | ((x >> 1) & !Bitboard::FILE_H.0);
    let row = x | side;
    Bitboard(side | (row << 8) | (row >> 8))
}

/// The squares whose count in `stacks` is not zero. Branch-free: which pieces carry
/// checkers is unpredictable, and a branch per occupied square showed in profiles (this
/// runs for every position a playout visits).
pub(super) fn nonzero_squares(stacks: &[u8; 64]) -> Bitboard {
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
pub(super) fn within(sq: Square, d: u32) -> Bitboard {
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
pub(super) struct Pos {
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_role: [Bitboard; 6],
    pub(super) stacks: [u8; 64],
    /// Squares whose piece carries checkers.
    pub(super) stacked: Bitboard,
    /// The en passant square and the side that may capture there.
    pub(super) ep: Option<(Square, Color)>,
}

impl Pos {
    pub(super) fn new(board: &Board, stacks: &[u8; 64]) -> Pos {
        let stacked = nonzero_squares(stacks) & board.occupied();
        Pos {
            by_color: [board.by_color(Color::White), board.by_color(Color::Black)],
            by_role: Role::ALL.map(|r| board.by_role(r)),
            stacks: *stacks,
            stacked,
            ep: board.ep_square().map(|e| (e, board.turn())),
        }
    }

    pub(super) fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    pub(super) fn role_at(&self, sq: Square) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    pub(super) fn king(&self, color: Color) -> Option<Square> {
        (self.by_color[color.index()] & self.by_role[Role::King.index()]).first()
    }

    pub(super) fn clear(&mut self, sq: Square) {
        for b in self.by_color.iter_mut().chain(self.by_role.iter_mut()) {
            b.clear(sq);
        }
        self.stacks[sq.index()] = 0;
        self.stacked.clear(sq);
    }

    pub(super) fn put(&mut self, sq: Square, color: Color, role: Role, stack: u8) {
        self.clear(sq);
        self.by_color[color.index()].set(sq);
        self.by_role[role.index()].set(sq);
        self.stacks[sq.index()] = stack;
        if stack > 0 {
            self.stacked.set(sq);
        }
    }

    /// `n` more checkers under the piece on `sq`.
    pub(super) fn with_checkers(mut self, sq: Square, n: u8) -> Pos {
        self.stacks[sq.index()] = self.stacks[sq.index()].saturating_add(n);
        if self.stacks[sq.index()] > 0 {
            self.stacked.set(sq);
        }
        self
    }

    /// The position after `us` plays the regular move `mv` (the stack travels, a capture
    /// hands over the captured stack, a double push opens en passant to the opponent).
    pub(super) fn after_move(&self, mv: Move, us: Color) -> Pos {
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
    pub(super) fn moved(
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
    pub(super) fn after_step(
        &self,
        from: Square,
        to: Square,
        us: Color,
        promotion: Option<Role>,
    ) -> Pos {
        let moving = self.role_at(from).unwrap_or(Role::Pawn);
        let left = self.stacks[from.index()].saturating_sub(1);
        let stack = left.saturating_add(self.stacks[to.index()]);
        let role = promotion.unwrap_or(moving);
        self.moved(us, (from, moving), (to, role), to, stack, None)
    }

    /// The pieces of `by` attacking `target` the orthodox way.
    pub(super) fn orthodox_attackers(&self, target: Square, by: Color, occ: Bitboard) -> Bitboard {
        let r = |role: Role| self.by_role[role.index()];
        let hits = (attacks::pawn_attacks(by.other(), target) & r(Role::Pawn))
            | (attacks::knight_attacks(target) & r(Role::Knight))
            | (attacks::king_attacks(target) & r(Role::King))
            | (attacks::bishop_attacks(target, occ) & (r(Role::Bishop) | r(Role::Queen)))
            | (attacks::lean_rook_attacks(target, occ) & (r(Role::Rook) | r(Role::Queen)));
        hits & self.by_color[by.index()]
    }

    /// Whether `by` attacks `target`, adrenaline reach included.
    pub(super) fn attacked(&self, target: Square, by: Color) -> bool {
        self.attacker(target, by).is_some()
    }

    /// A piece of `by` attacking `target`, adrenaline reach included: an orthodox
    /// attacker when there is one.
    pub(super) fn attacker(&self, target: Square, by: Color) -> Option<Square> {
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
    pub(super) fn step_bound(
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
    pub(super) fn ep_capture(&self, sq: Square, color: Color) -> Option<(Square, Square)> {
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
    pub(super) fn reaches(&self, sq: Square, color: Color, target: Square) -> bool {
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
    pub(super) fn reach_set(&self, sq: Square, color: Color) -> (Bitboard, Bitboard) {
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
    pub(super) fn changed_squares(&self, other: &Pos) -> Bitboard {
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
    pub(super) fn reach_through_prizes(
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

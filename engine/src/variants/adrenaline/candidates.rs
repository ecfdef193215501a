//! The candidate actions of one Adrenaline decision (a superset of the legal ones), kept
//! as groups of targets instead of a list: a piece and the squares it may go to (or the
//! rooks it may castle with, the pieces a checker may go under). Making them costs one
//! attack lookup a piece and no list; the `k`-th candidate is read straight from the
//! groups ([`Candidates::get`], a branch-free n-th square), so a playout that draws one
//! action never writes the candidates out (issue 19: a `MoveList` then a `Vec` per ply was
//! a sixth of a playout's time).
//!
//! The order is the one the game lists its actions in, and `legal_actions` reads it
//! from here: the pieces by square, each piece's targets by square, the four
//! promotion roles of a target in [`Role::PROMOTIONS`] order, a pawn's en passant
//! capture after its other moves, castlings last; in the step phase `stop` first, then
//! the steps by square. (`candidates_list_the_actions_in_the_order_the_game_lists_them`
//! holds the groups against writing the candidates out one by one.)

use super::AdrenalineAction;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::square::{Role, Square};
use smallvec::SmallVec;

/// What a group's targets stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Regular moves of the piece on `from`.
    Normal,
    /// Regular moves of a pawn onto its last rank, four roles a target.
    Promotion,
    /// The en passant capture of the pawn on `from` (one target).
    EnPassant,
    /// Castlings of the king on `from` with the rooks on the targets.
    Castle,
    /// `stop` (one target, `from` itself).
    Stop,
    /// Extra king steps of the piece on `from`.
    Step,
    /// Extra king steps of a pawn onto its last rank, four roles a target.
    StepPromotion,
    /// Checker placements under the pieces on the targets.
    Place,
}

impl Kind {
    /// The actions each target stands for.
    fn per_target(self) -> u32 {
        match self {
            Kind::Promotion | Kind::StepPromotion => 4,
            _ => 1,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Group {
    targets: Bitboard,
    from: Square,
    kind: Kind,
    /// The index of the group's first action among all the candidates.
    start: u32,
}

/// The candidate actions of one decision, in the order the game lists them.
#[derive(Clone, Debug, Default)]
pub(super) struct Candidates {
    /// Inline for any position with up to 20 groups (16 pieces, two en passant captures
    /// and the castlings); a set-up position with more pieces spills onto the heap.
    groups: SmallVec<[Group; 20]>,
    len: u32,
}

impl Candidates {
    /// Adds the actions of `kind` from `from` onto `targets` after those already held
    /// (nothing for no targets).
    pub(super) fn push(&mut self, kind: Kind, from: Square, targets: Bitboard) {
        if targets.is_empty() {
            return;
        }
        self.groups.push(Group {
            targets,
            from,
            kind,
            start: self.len,
        });
        self.len += kind.per_target() * targets.count();
    }

    pub(super) fn len(&self) -> usize {
        self.len as usize
    }

    /// The `k`-th candidate (`k < len`).
    pub(super) fn get(&self, k: usize) -> AdrenalineAction {
        let k = k as u32;
        // The last group starting at or below `k` (groups are never empty, so starts
        // rise strictly), counted without a branch per group.
        let i = self.groups[1..]
            .iter()
            .map(|g| (g.start <= k) as usize)
            .sum::<usize>();
        let g = &self.groups[i];
        let within = k - g.start;
        let per = g.kind.per_target();
        action(g, g.targets.nth(within / per), (within % per) as usize)
    }

    /// The index of the first candidate, in order, for which `f` holds (a plain loop: the
    /// nested iterators of [`Candidates::iter`] cost more than the test of a legal first
    /// candidate).
    pub(super) fn position(&self, mut f: impl FnMut(AdrenalineAction) -> bool) -> Option<usize> {
        let mut k = 0;
        for g in &self.groups {
            let per = g.kind.per_target() as usize;
            for to in g.targets {
                for role in 0..per {
                    if f(action(g, to, role)) {
                        return Some(k);
                    }
                    k += 1;
                }
            }
        }
        None
    }

    /// Appends the candidates from the `skip`-th on to `out`, in order (plain loops, as
    /// for [`Candidates::position`]).
    pub(super) fn write_from(&self, skip: usize, out: &mut Vec<AdrenalineAction>) {
        out.reserve(self.len().saturating_sub(skip));
        let mut k = 0;
        for g in &self.groups {
            let per = g.kind.per_target() as usize;
            let size = per * g.targets.count() as usize;
            if k + size <= skip {
                k += size;
                continue;
            }
            for to in g.targets {
                for role in 0..per {
                    if k >= skip {
                        out.push(action(g, to, role));
                    }
                    k += 1;
                }
            }
        }
    }

    /// The candidates in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = AdrenalineAction> + '_ {
        self.groups.iter().flat_map(|g| {
            let per = g.kind.per_target() as usize;
            g.targets
                .flat_map(move |to| (0..per).map(move |role| action(g, to, role)))
        })
    }
}

/// The action of group `g` onto `to`, with the `role`-th promotion role where it promotes.
#[inline]
fn action(g: &Group, to: Square, role: usize) -> AdrenalineAction {
    let promotion = Role::PROMOTIONS[role];
    match g.kind {
        Kind::Normal => AdrenalineAction::Move(Move::normal(g.from, to)),
        Kind::Promotion => {
            AdrenalineAction::Move(Move::new(g.from, to, MoveKind::Promotion(promotion)))
        }
        Kind::EnPassant => AdrenalineAction::Move(Move::new(g.from, to, MoveKind::EnPassant)),
        Kind::Castle => AdrenalineAction::Move(Move::new(g.from, to, MoveKind::Castle)),
        Kind::Stop => AdrenalineAction::Stop,
        Kind::Step => AdrenalineAction::Step(to, None),
        Kind::StepPromotion => AdrenalineAction::Step(to, Some(promotion)),
        Kind::Place => AdrenalineAction::Place(to),
    }
}

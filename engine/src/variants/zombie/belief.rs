//! Burial grids and what a seat can know about the opponent's.
//!
//! A [`BurialGrid`] maps squares to the roles one player has buried there (the buried
//! pieces belong to the other player). The opponent's grid is the only hidden part of a
//! Zombie Chess state, so a seat's belief is a set of possible grids for the opponent.
//!
//! [`worlds`] computes that set exactly from the public record ([`Event`]s): it follows
//! the opponent's burials forward in time, branching on every square a burial could have
//! used (an own piece's square, public at the time, without an earlier burial of the
//! same player still in the ground), and filtering on every announcement:
//! - a vacated square where nothing of the opponent's rose holds no opponent burial (when
//!   the opponent vacated it, or when nothing rose at all);
//! - a rising of the seat's own piece from the opponent's grid fixes that square's role
//!   and empties it;
//! - "cannot bury" means every square of the opponent's pieces held a burial.
//!
//! Each grid carries a weight: the number of burial-choice histories of the opponent that
//! lead to it and reproduce every announcement. Sampling a grid with probability
//! proportional to its weight is sampling uniformly over the opponent's consistent
//! burial choices (the prior: every choice of square equally likely, independent of the
//! moves played). Mid-turn legality (a move of the opponent is refused if its own
//! pending burials would check its king) is applied by the caller, which keeps the
//! positions of the current turn.

use crate::bitboard::Bitboard;
use crate::square::{Color, Role, Square};
use std::collections::BTreeMap;

/// One player's burials: square -> role of the (opponent's) piece buried there. Packed
/// in one `u128` (occupied squares in the low 64 bits, a 3-bit role per occupied square
/// in square order above), so sets of grids are cheap to store and compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct BurialGrid(u128);

impl BurialGrid {
    pub const EMPTY: BurialGrid = BurialGrid(0);

    /// Squares holding a burial.
    pub fn occupied(self) -> Bitboard {
        Bitboard(self.0 as u64)
    }

    fn rank_of(self, sq: Square) -> u32 {
        let below = (1u64 << sq.index()) - 1;
        (self.0 as u64 & below).count_ones()
    }

    fn roles(self) -> u64 {
        (self.0 >> 64) as u64
    }

    fn pack(occ: u64, roles: u64) -> BurialGrid {
        BurialGrid(occ as u128 | (roles as u128) << 64)
    }

    /// The role buried on `sq`, if any.
    pub fn get(self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        let i = self.rank_of(sq) * 3;
        Some(Role::from_index(((self.roles() >> i) & 7) as usize))
    }

    /// Buries `role` on `sq` (which must be free in this grid).
    pub fn insert(self, sq: Square, role: Role) -> BurialGrid {
        debug_assert!(!self.occupied().contains(sq));
        let i = self.rank_of(sq) * 3;
        let roles = self.roles();
        let low = roles & ((1u64 << i) - 1);
        let high = (roles >> i) << (i + 3);
        let occ = self.0 as u64 | 1u64 << sq.index();
        BurialGrid::pack(occ, low | (role.index() as u64) << i | high)
    }

    /// The grid without the burial on `sq`.
    pub fn remove(self, sq: Square) -> BurialGrid {
        if !self.occupied().contains(sq) {
            return self;
        }
        let i = self.rank_of(sq) * 3;
        let roles = self.roles();
        let low = roles & ((1u64 << i) - 1);
        let high = (roles >> (i + 3)) << i;
        let occ = self.0 as u64 & !(1u64 << sq.index());
        BurialGrid::pack(occ, low | high)
    }

    /// (square, role) pairs in square order.
    pub fn iter(self) -> impl Iterator<Item = (Square, Role)> {
        self.occupied()
            .map(move |sq| (sq, self.get(sq).expect("occupied square has a role")))
    }

    pub fn len(self) -> usize {
        self.occupied().count() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The raw packed value (for hashing).
    pub fn bits(self) -> u128 {
        self.0
    }
}

/// A public announcement of Zombie Chess, in play order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Event {
    /// `by` buried a captured piece of role `role`; its pieces stood on `candidates`.
    Buried {
        by: Color,
        role: Role,
        candidates: Bitboard,
    },
    /// `by` captured a piece but every square of its pieces (`candidates`) already held
    /// one of its burials: the piece went to the dust bin.
    CannotBury { by: Color, candidates: Bitboard },
    /// `by` vacated `sq` during its turn; at the turn's end `rose` says whose burial
    /// returned there (the burier and the buried role), if any.
    Vacated {
        by: Color,
        sq: Square,
        rose: Option<(Color, Role)>,
    },
}

/// The possible grids of `burier` consistent with `events`, each with the number of
/// burial-choice histories leading to it, in grid order. `None` if the set grows past
/// `limit` grids at any point (the caller then needs another way to sample).
pub fn worlds(events: &[Event], burier: Color, limit: usize) -> Option<Vec<(BurialGrid, f64)>> {
    let mut set: BTreeMap<BurialGrid, f64> = BTreeMap::new();
    set.insert(BurialGrid::EMPTY, 1.0);
    for e in events {
        set = step(set, e, burier);
        if set.len() > limit {
            return None;
        }
    }
    Some(set.into_iter().collect())
}

/// One grid of `burier` consistent with `events` and accepted by `accept`, drawn by a
/// particle filter: the exact forward filter of [`worlds`], except that whenever the set
/// exceeds `particles` grids it is resampled down to `particles` draws (proportional to
/// weight). Every result is consistent with the record; the draw is exact while no
/// resampling happened and approximately uniform over the opponent's choices otherwise.
/// `None` if every particle was ruled out.
pub fn sample_particles(
    events: &[Event],
    burier: Color,
    rng: &mut dyn rand::RngCore,
    accept: &dyn Fn(BurialGrid) -> bool,
    particles: usize,
) -> Option<BurialGrid> {
    use rand::Rng;
    let mut set: BTreeMap<BurialGrid, f64> = BTreeMap::new();
    set.insert(BurialGrid::EMPTY, 1.0);
    for e in events {
        set = step(set, e, burier);
        if set.len() > particles {
            let total: f64 = set.values().sum();
            let entries: Vec<(BurialGrid, f64)> = set.into_iter().collect();
            let mut next = BTreeMap::new();
            // Systematic resampling: one uniform offset, `particles` evenly spaced draws.
            let stride = total / particles as f64;
            let mut x = rng.gen::<f64>() * stride;
            let mut acc = 0.0;
            let mut it = entries.iter();
            let mut cur = it.next();
            for _ in 0..particles {
                while let Some(&(g, w)) = cur {
                    if x < acc + w {
                        *next.entry(g).or_insert(0.0) += 1.0;
                        break;
                    }
                    acc += w;
                    cur = it.next();
                }
                x += stride;
            }
            set = next;
        }
    }
    set.retain(|g, _| accept(*g));
    let total: f64 = set.values().sum();
    if set.is_empty() || total <= 0.0 {
        return None;
    }
    let mut x = rng.gen::<f64>() * total;
    let last = *set.keys().next_back().expect("non-empty");
    for (&g, &w) in &set {
        if x < w {
            return Some(g);
        }
        x -= w;
    }
    Some(last)
}

/// One event of the forward filter.
fn step(set: BTreeMap<BurialGrid, f64>, e: &Event, burier: Color) -> BTreeMap<BurialGrid, f64> {
    match *e {
        Event::Buried {
            by,
            role,
            candidates,
        } if by == burier => {
            let mut next = BTreeMap::new();
            for (g, w) in set {
                for sq in candidates - g.occupied() {
                    *next.entry(g.insert(sq, role)).or_insert(0.0) += w;
                }
            }
            next
        }
        Event::CannotBury { by, candidates } if by == burier => set
            .into_iter()
            .filter(|(g, _)| (candidates - g.occupied()).is_empty())
            .collect(),
        Event::Vacated { by, sq, rose } => match rose {
            Some((b, r)) if b == burier => set
                .into_iter()
                .filter(|(g, _)| g.get(sq) == Some(r))
                .map(|(g, w)| (g.remove(sq), w))
                .collect(),
            // The other player's own burial rose on a square it vacated: whether ours
            // lies there too stays hidden (it stays buried).
            Some(_) if by != burier => set,
            _ => set
                .into_iter()
                .filter(|(g, _)| g.get(sq).is_none())
                .collect(),
        },
        _ => set,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_insert_get_remove_round_trip() {
        let sqs = ["a1", "h8", "d4", "c3", "e5"];
        let roles = [
            Role::Pawn,
            Role::Queen,
            Role::Knight,
            Role::Rook,
            Role::Bishop,
        ];
        let mut g = BurialGrid::EMPTY;
        for (s, r) in sqs.iter().zip(roles) {
            g = g.insert(Square::parse(s).unwrap(), r);
        }
        assert_eq!(g.len(), 5);
        for (s, r) in sqs.iter().zip(roles) {
            assert_eq!(g.get(Square::parse(s).unwrap()), Some(r), "{s}");
        }
        let g2 = g.remove(Square::parse("d4").unwrap());
        assert_eq!(g2.get(Square::parse("d4").unwrap()), None);
        assert_eq!(g2.get(Square::parse("e5").unwrap()), Some(Role::Bishop));
        assert_eq!(g2.get(Square::parse("c3").unwrap()), Some(Role::Rook));
        assert_eq!(g2.insert(Square::parse("d4").unwrap(), Role::Knight), g);
    }

    #[test]
    fn worlds_follow_burials_and_announcements() {
        let w = Color::White;
        let sq = |s: &str| Square::parse(s).unwrap();
        let cands: Bitboard = [sq("a2"), sq("b2"), sq("c2")].into_iter().collect();
        let mut ev = vec![Event::Buried {
            by: w,
            role: Role::Pawn,
            candidates: cands,
        }];
        assert_eq!(worlds(&ev, w, 100).unwrap().len(), 3);
        // Black's worlds are untouched by White's burial.
        assert_eq!(worlds(&ev, Color::Black, 100).unwrap().len(), 1);
        ev.push(Event::Vacated {
            by: w,
            sq: sq("a2"),
            rose: None,
        });
        assert_eq!(worlds(&ev, w, 100).unwrap().len(), 2);
        ev.push(Event::Vacated {
            by: w,
            sq: sq("b2"),
            rose: Some((w, Role::Pawn)),
        });
        let only = worlds(&ev, w, 100).unwrap();
        assert_eq!(only, vec![(BurialGrid::EMPTY, 1.0)]);
    }
}

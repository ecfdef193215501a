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
//!   the opponent vacated it, or when nothing rose at all); a vacated square a piece
//!   landed on again in the same turn ([`Event::Covered`]) says nothing;
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
//!
//! [`Filter`] is the same forward filter kept between calls, so a game extends it by
//! the new events only; it stays exact up to a bound on the number of grids and becomes
//! a particle filter past it (see its documentation for exactly when).

use crate::bitboard::Bitboard;
use crate::square::{Color, Role, Square};

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
    /// `by` vacated `sq` during its turn, but one of its pieces landed there later in
    /// the turn: the square is announced, nothing returns onto it, and whatever is
    /// buried there stays buried (so it tells nothing about the grids).
    Covered { by: Color, sq: Square },
}

/// The possible grids of `burier` consistent with `events`, each with the number of
/// burial-choice histories leading to it, in grid order. `None` if the set grows past
/// `limit` grids at any point (the caller then needs another way to sample).
pub fn worlds(events: &[Event], burier: Color, limit: usize) -> Option<Vec<(BurialGrid, f64)>> {
    let mut set = vec![(BurialGrid::EMPTY, 1.0)];
    for e in events {
        set = step(set, e, burier);
        if set.len() > limit {
            return None;
        }
    }
    Some(set)
}

/// The forward filter over one player's grid after a prefix of the public record, kept
/// so that later events only extend it (see [`Filter::advance`]).
///
/// While the set of consistent grids stays within `limit` it is exact (every grid with
/// its number of burial-choice histories, as [`worlds`]). The first time an event would
/// take it past `limit`, it is resampled down to `particles` grids by systematic
/// resampling proportional to weight, and stays a particle filter from then on
/// (resampled again after every event that takes it past `particles`): every particle
/// is consistent with the record, and the draw is approximately uniform over the
/// burier's consistent choices. The resampling draws come from a SplitMix64 stream
/// seeded by a hash of the record so far, so the filter is a function of the public
/// record alone: two states with the same record get the same filter, whatever the
/// hidden truth and whatever order they were asked in.
#[derive(Clone, Debug)]
pub struct Filter {
    burier: Color,
    /// Grids in grid order with their weights.
    set: Vec<(BurialGrid, f64)>,
    exact: bool,
    /// Events consumed so far.
    len: usize,
    limit: usize,
    particles: usize,
    attempt: u32,
}

impl Filter {
    /// The filter before any event: the empty grid, exact. Attempt `attempt` keeps
    /// `particles << attempt` particles once it is no longer exact, with its own
    /// resampling stream.
    pub fn new(burier: Color, limit: usize, particles: usize, attempt: u32) -> Filter {
        Filter {
            burier,
            set: vec![(BurialGrid::EMPTY, 1.0)],
            exact: true,
            len: 0,
            limit,
            particles: particles.max(1) << attempt,
            attempt,
        }
    }

    /// Consumes `events[self.len..]`; `chain[i]` is the record's hash after event `i`
    /// (it seeds the resampling). Returns false if the particles were all ruled out
    /// (never while exact: the true grid is always in the exact set).
    pub fn advance(&mut self, events: &[Event], chain: &[u64]) -> bool {
        debug_assert!(chain.len() >= events.len());
        for (i, e) in events.iter().enumerate().skip(self.len) {
            let set = std::mem::take(&mut self.set);
            self.set = step(set, e, self.burier);
            let cap = if self.exact {
                self.limit
            } else {
                self.particles
            };
            if self.set.len() > cap {
                self.exact = false;
                let seed = chain[i]
                    ^ (self.burier.index() as u64 + 1).wrapping_mul(0xA24B)
                    ^ (self.attempt as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                self.set = resample(&self.set, self.particles, seed);
            }
            if self.set.is_empty() {
                // An empty set stays empty whatever follows, so the dead filter has
                // consumed the whole record: cached under this record's hash, a later
                // call finds it instead of rebuilding every attempt from the start.
                self.len = events.len();
                return false;
            }
        }
        self.len = events.len();
        true
    }

    /// Which restart this filter is (see [`Filter::new`]).
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// Events consumed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no event was consumed yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the set is the exact belief (no resampling happened).
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// The grids with their weights (histories when exact, particle counts otherwise).
    pub fn grids(&self) -> &[(BurialGrid, f64)] {
        &self.set
    }
}

/// Systematic resampling of `set` to `n` draws proportional to weight (one uniform
/// offset from `seed`, `n` evenly spaced draws), merged into counts.
fn resample(set: &[(BurialGrid, f64)], n: usize, seed: u64) -> Vec<(BurialGrid, f64)> {
    let total: f64 = set.iter().map(|x| x.1).sum();
    let u = (crate::random::splitmix64(seed) >> 11) as f64 / (1u64 << 53) as f64;
    let stride = total / n as f64;
    let mut x = u * stride;
    let mut acc = 0.0;
    let mut out: Vec<(BurialGrid, f64)> = Vec::new();
    let mut i = 0;
    for _ in 0..n {
        while i < set.len() {
            let (g, w) = set[i];
            if x < acc + w {
                match out.last_mut() {
                    Some(last) if last.0 == g => last.1 += 1.0,
                    _ => out.push((g, 1.0)),
                }
                break;
            }
            acc += w;
            i += 1;
        }
        x += stride;
    }
    out
}

/// One grid of `burier` consistent with `events` and accepted by `accept`, found by a
/// depth-first search over the burier's burial choices in an order drawn from `seed`,
/// visiting at most `budget` choice points; `None` if none was found within it.
///
/// The fallback of `sample_world` when every particle filter died: any grid it returns
/// agrees with the whole record (the true grid is one such), and the search reads only
/// the record and the seed, never the true grid. Its draw is not the uniform-choice
/// posterior (a history is favoured by the order its squares came up in).
pub fn search_grid(
    events: &[Event],
    burier: Color,
    seed: u64,
    budget: usize,
    accept: &dyn Fn(BurialGrid) -> bool,
) -> Option<BurialGrid> {
    let mut state = seed;
    let mut left = budget;
    search_from(
        events,
        burier,
        BurialGrid::EMPTY,
        &mut state,
        &mut left,
        accept,
    )
}

fn search_from(
    events: &[Event],
    burier: Color,
    grid: BurialGrid,
    state: &mut u64,
    left: &mut usize,
    accept: &dyn Fn(BurialGrid) -> bool,
) -> Option<BurialGrid> {
    // Events that do not branch only filter or transform the one grid.
    let mut g = grid;
    for (i, e) in events.iter().enumerate() {
        match *e {
            Event::Buried {
                by,
                role,
                candidates,
            } if by == burier => {
                let mut squares: Vec<Square> = (candidates - g.occupied()).collect();
                // A Fisher-Yates shuffle from the SplitMix64 stream.
                for k in (1..squares.len()).rev() {
                    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                    let j = (crate::random::splitmix64(*state) % (k as u64 + 1)) as usize;
                    squares.swap(k, j);
                }
                for sq in squares {
                    if *left == 0 {
                        return None;
                    }
                    *left -= 1;
                    let next = g.insert(sq, role);
                    if let Some(found) =
                        search_from(&events[i + 1..], burier, next, state, left, accept)
                    {
                        return Some(found);
                    }
                }
                return None;
            }
            _ => {
                let set = step(vec![(g, 1.0)], e, burier);
                match set.first() {
                    Some(&(next, _)) => g = next,
                    None => return None,
                }
            }
        }
    }
    accept(g).then_some(g)
}

/// Sorts by grid and sums the weights of equal grids.
fn merge(mut v: Vec<(BurialGrid, f64)>) -> Vec<(BurialGrid, f64)> {
    v.sort_unstable_by_key(|x| x.0);
    let mut out: Vec<(BurialGrid, f64)> = Vec::with_capacity(v.len());
    for (g, w) in v {
        match out.last_mut() {
            Some(last) if last.0 == g => last.1 += w,
            _ => out.push((g, w)),
        }
    }
    out
}

/// One event of the forward filter (input and output in grid order).
fn step(set: Vec<(BurialGrid, f64)>, e: &Event, burier: Color) -> Vec<(BurialGrid, f64)> {
    match *e {
        Event::Buried {
            by,
            role,
            candidates,
        } if by == burier => {
            let mut next = Vec::with_capacity(set.len() * candidates.count() as usize);
            for (g, w) in set {
                for sq in candidates - g.occupied() {
                    next.push((g.insert(sq, role), w));
                }
            }
            merge(next)
        }
        Event::CannotBury { by, candidates } if by == burier => set
            .into_iter()
            .filter(|(g, _)| (candidates - g.occupied()).is_empty())
            .collect(),
        Event::Vacated { by, sq, rose } => match rose {
            Some((b, r)) if b == burier => merge(
                set.into_iter()
                    .filter(|(g, _)| g.get(sq) == Some(r))
                    .map(|(g, w)| (g.remove(sq), w))
                    .collect(),
            ),
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

    /// A record of random burials (White burying on random subsets of a few squares)
    /// and announcements on those squares.
    fn random_record(seed: u64) -> Vec<Event> {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            crate::random::splitmix64(x)
        };
        let squares: Vec<Square> = ["a2", "b2", "c2", "d2", "e2", "f2"]
            .iter()
            .map(|s| Square::parse(s).unwrap())
            .collect();
        let roles = [Role::Pawn, Role::Knight, Role::Bishop];
        let mut ev = Vec::new();
        for _ in 0..8 {
            let r = next();
            if r % 3 == 0 {
                let sq = squares[(next() % 6) as usize];
                let rose = (next() % 2 == 0).then(|| (Color::White, roles[(next() % 3) as usize]));
                ev.push(Event::Vacated {
                    by: Color::Black,
                    sq,
                    rose,
                });
            } else {
                let candidates: Bitboard = squares
                    .iter()
                    .copied()
                    .filter(|_| next() % 2 == 0)
                    .collect();
                ev.push(Event::Buried {
                    by: Color::White,
                    role: roles[(next() % 3) as usize],
                    candidates,
                });
            }
        }
        ev
    }

    #[test]
    fn search_grid_finds_a_consistent_grid_exactly_when_one_exists() {
        let (mut found, mut none) = (0, 0);
        for seed in 0..300u64 {
            let ev = random_record(seed);
            let exact = worlds(&ev, Color::White, 1 << 20).unwrap();
            let any = |_: BurialGrid| true;
            match search_grid(&ev, Color::White, seed, 1_000_000, &any) {
                Some(g) => {
                    found += 1;
                    assert!(
                        exact.iter().any(|(e, w)| *e == g && *w > 0.0),
                        "seed {seed}"
                    );
                }
                None => {
                    none += 1;
                    assert!(
                        exact.is_empty(),
                        "seed {seed}: missed one of {}",
                        exact.len()
                    );
                }
            }
            // A condition on the final grid is honoured too.
            if let Some(&(target, _)) = exact.last() {
                let only = move |g: BurialGrid| g == target;
                assert_eq!(
                    search_grid(&ev, Color::White, seed, 1_000_000, &only),
                    Some(target)
                );
            }
        }
        // The generator makes both kinds of records.
        assert!(found > 30 && none > 30, "found {found}, none {none}");
    }

    #[test]
    fn dead_filter_consumes_the_whole_record() {
        let w = Color::White;
        let sq = |s: &str| Square::parse(s).unwrap();
        let cands: Bitboard = [sq("a2"), sq("b2")].into_iter().collect();
        let vacated = |s: &str| Event::Vacated {
            by: Color::Black,
            sq: sq(s),
            rose: None,
        };
        // One burial on a2 or b2, then both squares announced empty: no grid survives.
        let mut ev = vec![
            Event::Buried {
                by: w,
                role: Role::Pawn,
                candidates: cands,
            },
            vacated("a2"),
            vacated("b2"),
            vacated("c2"),
        ];
        let chain: Vec<u64> = (0..10).collect();
        let mut f = Filter::new(w, 1, 1, 0);
        assert!(!f.advance(&ev, &chain));
        // Dead after the third event, but it has consumed all four: a cache keyed by the
        // record's length finds it again instead of rebuilding it.
        assert_eq!(f.len(), ev.len());
        ev.push(vacated("d2"));
        assert!(!f.advance(&ev, &chain));
        assert_eq!(f.len(), ev.len());
        assert!(f.grids().is_empty());
    }
}

//! Multisets of coloured piece kinds ([`KindCounts`]: chosen cards, taken pieces), with
//! their text form.

use super::*;

/// A multiset of coloured piece kinds (chosen cards, taken pieces), indexed by
/// [`Piece::index`]. Pawns are never stored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct KindCounts(pub(super) [u8; 12]);

impl KindCounts {
    pub const EMPTY: KindCounts = KindCounts([0; 12]);

    #[inline(always)]
    pub fn get(&self, p: Piece) -> u8 {
        self.0[p.index()]
    }

    #[inline(always)]
    pub fn get_index(&self, kind: usize) -> u8 {
        self.0[kind]
    }

    /// Adds one `p` (saturating at 255).
    pub fn add(&mut self, p: Piece) {
        self.0[p.index()] = self.0[p.index()].saturating_add(1);
    }

    /// Removes one `p` if present; returns whether one was present.
    pub fn remove(&mut self, p: Piece) -> bool {
        let c = &mut self.0[p.index()];
        if *c > 0 {
            *c -= 1;
            true
        } else {
            false
        }
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// Per-kind `max(self - other, 0)`.
    pub fn saturating_sub(&self, other: &KindCounts) -> KindCounts {
        let mut out = [0u8; 12];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.0[i].saturating_sub(other.0[i]);
        }
        KindCounts(out)
    }

    /// Every element, with multiplicity, in a fixed order (white N B R Q K, then black).
    pub fn pieces(&self) -> Vec<Piece> {
        let mut v = Vec::new();
        for color in Color::BOTH {
            for role in GOLF_ROLES {
                let p = Piece::new(color, role);
                for _ in 0..self.get(p) {
                    v.push(p);
                }
            }
        }
        v
    }

    /// The distinct kinds present.
    pub fn kinds(&self) -> impl Iterator<Item = Piece> + '_ {
        Color::BOTH.into_iter().flat_map(move |c| {
            GOLF_ROLES
                .into_iter()
                .map(move |r| Piece::new(c, r))
                .filter(move |p| self.get(*p) > 0)
        })
    }

    /// Parses letters such as `NNB` or `bq` (no separators; `-` or empty = empty set).
    pub fn parse(s: &str) -> Result<KindCounts, String> {
        let s = s.trim();
        let mut k = KindCounts::EMPTY;
        if s == "-" {
            return Ok(k);
        }
        for c in s.chars() {
            if c.is_whitespace() || c == ',' {
                continue;
            }
            let p = Piece::from_char(c).ok_or_else(|| format!("{c:?} is not a piece letter"))?;
            if p.role == Role::Pawn {
                return Err("pawns take no part in Chess Golf".to_string());
            }
            if k.get(p) >= MAX_KIND_COUNT {
                return Err(format!("more than {MAX_KIND_COUNT} of {c:?}"));
            }
            k.add(p);
        }
        Ok(k)
    }

    pub fn from_pieces(pieces: &[Piece]) -> KindCounts {
        let mut k = KindCounts::EMPTY;
        for &p in pieces {
            k.add(p);
        }
        k
    }
}

impl fmt::Display for KindCounts {
    /// Letters in ASCII order (upper case first), e.g. `BNN`, `Bq`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut letters: Vec<char> = self.pieces().into_iter().map(|p| p.char()).collect();
        letters.sort_unstable();
        for c in letters {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for KindCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KindCounts({self})")
    }
}

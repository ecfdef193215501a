//! Capture patterns and assignments: the five patterns, the 120 ways to give them to
//! K, Q, R, B, N, and sets of assignments as 120-bit masks (what a side still thinks
//! possible).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::square::{Role, Square};
use std::fmt;

// ----- capture patterns and assignments ---------------------------------------------

/// The five piece types with secret capture patterns, in the order used by
/// [`Assignment`] and its index: K, Q, R, B, N.
pub const PIECE_TYPES: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];

pub(super) const LETTERS: [char; 5] = ['K', 'Q', 'R', 'B', 'N'];

/// The position of `role` in [`PIECE_TYPES`] (`None` for pawns, which never masquerade).
pub fn type_index(role: Role) -> Option<usize> {
    match role {
        Role::King => Some(0),
        Role::Queen => Some(1),
        Role::Rook => Some(2),
        Role::Bishop => Some(3),
        Role::Knight => Some(4),
        Role::Pawn => None,
    }
}

/// A capture pattern: how the piece of that orthodox type captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Pattern {
    /// One step in any direction.
    King,
    /// Any line, path clear.
    Queen,
    /// Ranks and files, path clear.
    Rook,
    /// Diagonals, path clear.
    Bishop,
    /// The knight's jump.
    Knight,
}

impl Pattern {
    /// In the order K, Q, R, B, N (the same order as [`PIECE_TYPES`]).
    pub const ALL: [Pattern; 5] = [
        Pattern::King,
        Pattern::Queen,
        Pattern::Rook,
        Pattern::Bishop,
        Pattern::Knight,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        LETTERS[self.index()]
    }

    /// Squares this pattern reaches from `from` with occupancy `occ`.
    pub fn targets(self, from: Square, occ: Bitboard) -> Bitboard {
        match self {
            Pattern::King => attacks::king_attacks(from),
            Pattern::Queen => attacks::queen_attacks(from, occ),
            Pattern::Rook => attacks::rook_attacks(from, occ),
            Pattern::Bishop => attacks::bishop_attacks(from, occ),
            Pattern::Knight => attacks::knight_attacks(from),
        }
    }

    pub fn reaches(self, from: Square, to: Square, occ: Bitboard) -> bool {
        self.targets(from, occ).contains(to)
    }
}

/// The patterns (bit i = `Pattern::ALL[i]`) that reach `to` from `from` with `occ`.
pub fn patterns_reaching(from: Square, to: Square, occ: Bitboard) -> u8 {
    let mut set = 0;
    for p in Pattern::ALL {
        if p.reaches(from, to, occ) {
            set |= 1 << p.index();
        }
    }
    set
}

/// All 120 permutations in lexicographic order: `PERMS[i][t]` is the pattern index of
/// piece type `t` under assignment `i`.
pub(super) const PERMS: [[u8; 5]; 120] = build_perms();

const fn build_perms() -> [[u8; 5]; 120] {
    let mut out = [[0u8; 5]; 120];
    let mut n = 0;
    let mut a = 0;
    while a < 5 {
        let mut b = 0;
        while b < 5 {
            let mut c = 0;
            while c < 5 {
                let mut d = 0;
                while d < 5 {
                    let distinct = a != b && a != c && a != d && b != c && b != d && c != d;
                    if distinct {
                        let e = 10 - a - b - c - d;
                        out[n] = [a as u8, b as u8, c as u8, d as u8, e as u8];
                        n += 1;
                    }
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

/// `TYPE_MASK[t][p]`: the assignments (as a 120-bit set) giving piece type `t` pattern `p`.
pub(super) const TYPE_MASK: [[u128; 5]; 5] = build_masks();

const fn build_masks() -> [[u128; 5]; 5] {
    let mut m = [[0u128; 5]; 5];
    let mut i = 0;
    while i < 120 {
        let mut t = 0;
        while t < 5 {
            m[t][PERMS[i][t] as usize] |= 1u128 << i;
            t += 1;
        }
        i += 1;
    }
    m
}

/// Every assignment: the full 120-bit set.
pub const ALL_ASSIGNMENTS: u128 = (1u128 << 120) - 1;

/// The assignments under which piece type `t` (index into [`PIECE_TYPES`]) has one of
/// the patterns in `patterns` (bit set over [`Pattern::ALL`]). Empty for `t >= 5`.
pub fn assignments_with(t: usize, patterns: u8) -> u128 {
    let Some(masks) = TYPE_MASK.get(t) else {
        return 0;
    };
    masks
        .iter()
        .enumerate()
        .filter(|(p, _)| patterns >> p & 1 == 1)
        .fold(0, |m, (_, mask)| m | mask)
}

/// A secret identity table: which capture pattern each of one side's five piece types
/// uses. Indexed 0..120 in lexicographic order of the pattern sequence for (K, Q, R, B,
/// N), pattern order K < Q < R < B < N: index 0 is the orthodox `KK,QQ,RR,BB,NN`, index 1
/// is `KK,QQ,RR,BN,NB`, index 119 is `KN,QB,RR,BQ,NK`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Assignment(pub(super) u8);

impl Assignment {
    /// How many assignments there are.
    pub const COUNT: usize = 120;
    /// The orthodox assignment (every piece captures as it moves).
    pub const ORTHODOX: Assignment = Assignment(0);

    pub fn from_index(i: usize) -> Option<Assignment> {
        (i < Self::COUNT).then_some(Assignment(i as u8))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// From the pattern of each piece type in the order K, Q, R, B, N; `None` unless a
    /// permutation.
    pub fn from_patterns(patterns: [Pattern; 5]) -> Option<Assignment> {
        let want = patterns.map(|p| p.index() as u8);
        PERMS
            .iter()
            .position(|p| *p == want)
            .map(|i| Assignment(i as u8))
    }

    /// The pattern of each piece type, in the order K, Q, R, B, N.
    pub fn patterns(self) -> [Pattern; 5] {
        PERMS[self.index()].map(|p| Pattern::ALL[p as usize])
    }

    /// The capture pattern of `role` (`None` for pawns).
    pub fn pattern(self, role: Role) -> Option<Pattern> {
        type_index(role).map(|t| Pattern::ALL[PERMS[self.index()][t] as usize])
    }

    /// The 120-bit set holding only this assignment.
    pub fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// Reads the seed's text form: five pairs of piece letter and pattern letter,
    /// separated by commas, any order and case, spaces allowed (`KQ, QN, RB, NR, BK`);
    /// or an index `0..119`.
    pub fn parse(text: &str) -> Result<Assignment, String> {
        let t = text.trim();
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return t
                .parse::<usize>()
                .ok()
                .and_then(Assignment::from_index)
                .ok_or_else(|| format!("index '{t}' is not in 0..119"));
        }
        let letter = |c: char| LETTERS.iter().position(|&l| l == c.to_ascii_uppercase());
        let mut patterns: [Option<Pattern>; 5] = [None; 5];
        let mut used = [false; 5];
        let pairs: Vec<&str> = t.split(',').map(str::trim).collect();
        if pairs.len() != 5 {
            return Err(format!(
                "'{t}': expected five pairs like 'KQ,QN,RB,NR,BK', found {}",
                pairs.len()
            ));
        }
        for pair in pairs {
            let chars: Vec<char> = pair.chars().filter(|c| !c.is_whitespace()).collect();
            let (Some(piece), Some(pattern)) = (
                chars.first().and_then(|&c| letter(c)),
                chars.get(1).and_then(|&c| letter(c)),
            ) else {
                return Err(format!(
                    "'{pair}' is not a piece letter and a pattern letter (K, Q, R, B, N)"
                ));
            };
            if chars.len() != 2 {
                return Err(format!("'{pair}' is not two letters"));
            }
            if patterns[piece].is_some() {
                return Err(format!("piece {} is assigned twice", LETTERS[piece]));
            }
            if used[pattern] {
                return Err(format!(
                    "pattern {} is given twice (each row and column needs one circle)",
                    LETTERS[pattern]
                ));
            }
            used[pattern] = true;
            patterns[piece] = Some(Pattern::ALL[pattern]);
        }
        let patterns = patterns.map(|p| p.expect("five distinct pieces"));
        Assignment::from_patterns(patterns).ok_or_else(|| format!("'{t}' is not a permutation"))
    }
}

impl fmt::Display for Assignment {
    /// `KQ,QN,RB,BK,NR`: piece letter then pattern letter, pieces in the order K, Q, R, B, N.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pats = PERMS[self.index()];
        for (t, p) in pats.iter().enumerate() {
            if t > 0 {
                write!(f, ",")?;
            }
            write!(f, "{}{}", LETTERS[t], LETTERS[*p as usize])?;
        }
        Ok(())
    }
}

/// The patterns piece type `t` may have under some assignment of `set` (bit set over
/// [`Pattern::ALL`]). Empty for `t >= 5`.
pub fn possible_patterns(set: u128, t: usize) -> u8 {
    let Some(masks) = TYPE_MASK.get(t) else {
        return 0;
    };
    masks
        .iter()
        .enumerate()
        .filter(|(_, mask)| set & *mask != 0)
        .fold(0, |out, (p, _)| out | 1 << p)
}

/// The `k`-th member (0-based, lowest index first) of a 120-bit set.
pub(super) fn nth_member(mut set: u128, k: u32) -> Assignment {
    for _ in 0..k {
        set &= set - 1;
    }
    Assignment(set.trailing_zeros() as u8)
}

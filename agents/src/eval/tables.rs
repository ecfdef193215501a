//! Piece-square shapes (centipawns from White's side, a1 first, mirrored for Black) and
//! the masks the positional terms read.
//!
//! The middle-game tables are the evaluator's original ones. The endgame tables differ
//! only where the endgame plays differently: the king walks to the centre and pawns
//! gain with every rank; the other pieces keep their middle-game shapes. They are
//! shapes, not tuned numbers: `eval.pst` scales both and `eval.taper` blends them by
//! material (see [`super::EvalWeights`]).

use engine::{Bitboard, Color, Square};

/// Middle-game bonuses, one table per role (pawn, knight, bishop, rook, queen, king).
pub const PST_MG: [[i8; 64]; 6] = {
    const P: [i8; 64] = [
        0, 0, 0, 0, 0, 0, 0, 0, 5, 10, 10, -20, -20, 10, 10, 5, 5, -5, -10, 0, 0, -10, -5, 5, 0, 0,
        0, 20, 20, 0, 0, 0, 5, 5, 10, 25, 25, 10, 5, 5, 10, 10, 20, 30, 30, 20, 10, 10, 50, 50, 50,
        50, 50, 50, 50, 50, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    [P, N, B, R, Q, K_MG]
};

/// Endgame bonuses: as [`PST_MG`] but for the pawns and the king.
pub const PST_EG: [[i8; 64]; 6] = {
    const P: [i8; 64] = [
        0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 10, 10, 20, 20, 20,
        20, 20, 20, 20, 20, 35, 35, 35, 35, 35, 35, 35, 35, 55, 55, 55, 55, 55, 55, 55, 55, 80, 80,
        80, 80, 80, 80, 80, 80, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    const K: [i8; 64] = [
        -50, -30, -30, -30, -30, -30, -30, -50, -30, -20, -10, -5, -5, -10, -20, -30, -30, -10, 10,
        20, 20, 10, -10, -30, -30, -5, 20, 30, 30, 20, -5, -30, -30, -5, 20, 30, 30, 20, -5, -30,
        -30, -10, 10, 20, 20, 10, -10, -30, -30, -20, -10, -5, -5, -10, -20, -30, -50, -30, -30,
        -30, -30, -30, -30, -50,
    ];
    [P, N, B, R, Q, K]
};

const N: [i8; 64] = [
    -50, -40, -30, -30, -30, -30, -40, -50, -40, -20, 0, 5, 5, 0, -20, -40, -30, 5, 10, 15, 15, 10,
    5, -30, -30, 0, 15, 20, 20, 15, 0, -30, -30, 5, 15, 20, 20, 15, 5, -30, -30, 0, 10, 15, 15, 10,
    0, -30, -40, -20, 0, 0, 0, 0, -20, -40, -50, -40, -30, -30, -30, -30, -40, -50,
];
const B: [i8; 64] = [
    -20, -10, -10, -10, -10, -10, -10, -20, -10, 5, 0, 0, 0, 0, 5, -10, -10, 10, 10, 10, 10, 10,
    10, -10, -10, 0, 10, 10, 10, 10, 0, -10, -10, 5, 5, 10, 10, 5, 5, -10, -10, 0, 5, 10, 10, 5, 0,
    -10, -10, 0, 0, 0, 0, 0, 0, -10, -20, -10, -10, -10, -10, -10, -10, -20,
];
const R: [i8; 64] = [
    0, 0, 0, 5, 5, 0, 0, 0, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0,
    0, -5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, 5, 10, 10, 10, 10, 10, 10, 5, 0, 0,
    0, 0, 0, 0, 0, 0,
];
const Q: [i8; 64] = [
    -20, -10, -10, -5, -5, -10, -10, -20, -10, 0, 5, 0, 0, 0, 0, -10, -10, 5, 5, 5, 5, 5, 0, -10,
    0, 0, 5, 5, 5, 5, 0, -5, -5, 0, 5, 5, 5, 5, 0, -5, -10, 0, 5, 5, 5, 5, 0, -10, -10, 0, 0, 0, 0,
    0, 0, -10, -20, -10, -10, -5, -5, -10, -10, -20,
];
const K_MG: [i8; 64] = [
    20, 30, 10, 0, 0, 10, 30, 20, 20, 20, 0, 0, 0, 0, 20, 20, -10, -20, -20, -20, -20, -20, -20,
    -10, -20, -30, -30, -40, -40, -30, -30, -20, -30, -40, -40, -50, -50, -40, -40, -30, -30, -40,
    -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50,
    -40, -40, -30,
];

/// Largest piece-square bonus a shapes file may give (centipawns): a queen's worth.
pub const SHAPE_LIMIT: i32 = 900;

/// Piece-square shapes read from an eval file's `[tables]` (the fitted ones of `chesslab
/// texel-tables`), replacing [`PST_MG`] and [`PST_EG`]: `mg` and `eg` each hold six
/// rows (pawn, knight, bishop, rook, queen, king) of 64 centipawn bonuses, a1 first, from
/// White's side. `pst` still scales them and `taper` still blends toward `eg` (the fitted
/// files set both to 1). A file with another shape, or a bonus beyond [`SHAPE_LIMIT`], is
/// refused when read (`rule_shapes_are_checked_when_read`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "RawShapes", into = "RawShapes")]
pub struct Shapes {
    pub mg: [[i32; 64]; 6],
    pub eg: [[i32; 64]; 6],
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShapes {
    mg: Vec<Vec<i32>>,
    eg: Vec<Vec<i32>>,
}

impl TryFrom<RawShapes> for Shapes {
    type Error = String;
    fn try_from(raw: RawShapes) -> Result<Shapes, String> {
        let table = |name: &str, rows: Vec<Vec<i32>>| -> Result<[[i32; 64]; 6], String> {
            if rows.len() != 6 {
                return Err(format!(
                    "tables.{name} has {} rows: give six (pawn, knight, bishop, rook, queen, king)",
                    rows.len()
                ));
            }
            let mut t = [[0; 64]; 6];
            for (r, row) in rows.into_iter().enumerate() {
                if row.len() != 64 {
                    return Err(format!(
                        "tables.{name} row {} has {} squares: give 64, a1 first",
                        r + 1,
                        row.len()
                    ));
                }
                for (sq, v) in row.into_iter().enumerate() {
                    if v.abs() > SHAPE_LIMIT {
                        return Err(format!(
                            "tables.{name} row {} square {sq}: {v} is beyond +/-{SHAPE_LIMIT} centipawns",
                            r + 1
                        ));
                    }
                    t[r][sq] = v;
                }
            }
            Ok(t)
        };
        Ok(Shapes {
            mg: table("mg", raw.mg)?,
            eg: table("eg", raw.eg)?,
        })
    }
}

impl From<Shapes> for RawShapes {
    fn from(s: Shapes) -> RawShapes {
        RawShapes {
            mg: s.mg.iter().map(|r| r.to_vec()).collect(),
            eg: s.eg.iter().map(|r| r.to_vec()).collect(),
        }
    }
}

/// A passed pawn's weight by its rank counted from its own side (rank 2 = index 1), in
/// hundredths: `eval.passed` and `eval.passed_eg` are pawns per unit of this scale.
pub const PASSED_RANK: [i32; 8] = [0, 10, 15, 25, 45, 75, 120, 0];

/// Material phase of each role (pawn, knight, bishop, rook, queen, king); 24 is the
/// opening's total, and a total of 0 is a pure endgame.
pub const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_MAX: i32 = 24;

/// The squares in front of a pawn of `color` on `sq` and on the files beside it: no
/// enemy pawn there makes it passed.
pub fn passed_span(color: Color, sq: Square) -> Bitboard {
    PASSED_SPAN[color.index()][sq.index()]
}

static PASSED_SPAN: [[Bitboard; 64]; 2] = {
    let mut t = [[Bitboard(0); 64]; 2];
    let mut s = 0;
    while s < 64 {
        let file = s % 8;
        let rank = s / 8;
        let mut files: u64 = 0x0101_0101_0101_0101 << file;
        if file > 0 {
            files |= 0x0101_0101_0101_0101 << (file - 1);
        }
        if file < 7 {
            files |= 0x0101_0101_0101_0101 << (file + 1);
        }
        // Ranks strictly above (White) or below (Black).
        let above = if rank == 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        };
        let below = if rank == 0 {
            0
        } else {
            !0u64 >> (8 * (8 - rank))
        };
        t[0][s] = Bitboard(files & above);
        t[1][s] = Bitboard(files & below);
        s += 1;
    }
    t
};

/// The shield of a king of `color` on `sq`: the two ranks in front of it on its file and
/// the files beside it.
pub fn king_shield(color: Color, sq: Square) -> Bitboard {
    KING_SHIELD[color.index()][sq.index()]
}

static KING_SHIELD: [[Bitboard; 64]; 2] = {
    let mut t = [[Bitboard(0); 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 64 {
            let file = (s % 8) as i32;
            let rank = (s / 8) as i32;
            let mut bb = 0u64;
            let mut df = -1;
            while df <= 1 {
                let mut dr = 1;
                while dr <= 2 {
                    let f = file + df;
                    let r = if c == 0 { rank + dr } else { rank - dr };
                    if f >= 0 && f < 8 && r >= 0 && r < 8 {
                        bb |= 1u64 << (r * 8 + f);
                    }
                    dr += 1;
                }
                df += 1;
            }
            t[c][s] = Bitboard(bb);
            s += 1;
        }
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passed_span_covers_the_front_on_three_files() {
        let e4 = Square::parse("e4").unwrap();
        let w = passed_span(Color::White, e4);
        assert_eq!(w.count(), 3 * 4);
        assert!(w.contains(Square::parse("d5").unwrap()));
        assert!(w.contains(Square::parse("f8").unwrap()));
        assert!(!w.contains(Square::parse("e4").unwrap()));
        assert!(!w.contains(Square::parse("g5").unwrap()));
        let b = passed_span(Color::Black, e4);
        assert_eq!(b.count(), 3 * 3);
        assert!(b.contains(Square::parse("d1").unwrap()));
        let a2 = passed_span(Color::White, Square::parse("a2").unwrap());
        assert_eq!(a2.count(), 2 * 6);
    }

    #[test]
    fn king_shield_is_two_ranks_in_front() {
        let g1 = king_shield(Color::White, Square::parse("g1").unwrap());
        assert_eq!(g1.count(), 6);
        assert!(g1.contains(Square::parse("h3").unwrap()));
        let g8 = king_shield(Color::Black, Square::parse("g8").unwrap());
        assert!(g8.contains(Square::parse("f7").unwrap()) && g8.count() == 6);
    }

    #[test]
    fn rule_shapes_are_checked_when_read() {
        let row = |v: i32| format!("[{}]", vec![v.to_string(); 64].join(","));
        let rows = |n: usize, v: i32| format!("[{}]", vec![row(v); n].join(","));
        let parse = |mg: String, eg: String| {
            toml::from_str::<super::super::EvalWeights>(&format!(
                "[tables]\nmg = {mg}\neg = {eg}\n"
            ))
        };
        let w = parse(rows(6, 5), rows(6, -7)).expect("six rows of 64");
        let t = w.tables.expect("tables read");
        assert_eq!((t.mg[3][10], t.eg[5][63]), (5, -7));
        let five = parse(rows(5, 0), rows(6, 0)).unwrap_err().to_string();
        assert!(five.contains("tables.mg has 5 rows"), "{five}");
        let short = format!("[{}]", vec![row(0); 5].join(",") + ",[1,2]");
        let e = parse(rows(6, 0), short).unwrap_err().to_string();
        assert!(e.contains("tables.eg row 6 has 2 squares"), "{e}");
        let big = parse(rows(6, 0), rows(6, 901)).unwrap_err().to_string();
        assert!(big.contains("901 is beyond"), "{big}");
    }

    #[test]
    fn endgame_tables_keep_the_minor_and_major_shapes() {
        for r in 1..5 {
            assert_eq!(PST_MG[r], PST_EG[r]);
        }
        assert!(PST_EG[5][27] > PST_EG[5][0], "the endgame king centralises");
    }
}

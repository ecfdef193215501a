//! The Chess Golf text formats: the 8-row board format with `chosen:` / `taking:` /
//! `taken:` lines, and the FEN-like one-liner (see the module documentation of
//! [`golf`](super)).

use super::{GolfPosition, KindCounts, MAX_PIECES};
use crate::square::{Piece, Role, Square};
use std::fmt::Write as _;

/// Why a Golf position could not be parsed. `line` is 1-based within the parsed text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GolfParseError {
    #[error("line {line} (board row {row}): {problem}")]
    Row {
        line: usize,
        row: usize,
        problem: String,
    },
    #[error("the board has {found} rows; it needs 8 (rank 8 first)")]
    MissingRows { found: usize },
    #[error("line {line}: field {field:?}: {problem}")]
    Field {
        line: usize,
        field: String,
        problem: String,
    },
    #[error("line {line}: {problem}")]
    Line { line: usize, problem: String },
    #[error("placement: {problem}")]
    Placement { problem: String },
    #[error("field {field:?}: {problem}")]
    OneLineField { field: String, problem: String },
    #[error("the board holds {0} pieces; at most {MAX_PIECES} are allowed")]
    TooManyPieces(usize),
}

fn parse_piece(c: char) -> Result<Option<Piece>, String> {
    if c == '.' {
        return Ok(None);
    }
    match Piece::from_char(c) {
        Some(p) if p.role == Role::Pawn => Err("pawns take no part in Chess Golf".to_string()),
        Some(p) => Ok(Some(p)),
        None => Err(format!("{c:?} is not a piece letter or '.'")),
    }
}

fn parse_row(s: &str) -> Result<[Option<Piece>; 8], String> {
    let cells: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() != 8 {
        return Err(format!("expected 8 squares, found {}", cells.len()));
    }
    let mut out = [None; 8];
    for (i, &c) in cells.iter().enumerate() {
        out[i] = parse_piece(c)?;
    }
    Ok(out)
}

fn parse_square_field(v: &str) -> Result<Option<Square>, String> {
    let v = v.trim();
    if v == "-" || v.is_empty() {
        return Ok(None);
    }
    Square::parse(v)
        .map(Some)
        .ok_or_else(|| format!("{v:?} is not a square name such as a2"))
}

fn finish(
    rows: &[[Option<Piece>; 8]; 8],
    chosen: KindCounts,
    taken: KindCounts,
    taking: Option<Square>,
) -> Result<GolfPosition, String> {
    let mut pos = GolfPosition::empty();
    let count = rows.iter().flatten().filter(|c| c.is_some()).count();
    if count > MAX_PIECES {
        return Err(format!(
            "the board holds {count} pieces; at most {MAX_PIECES} are allowed"
        ));
    }
    for (r, row) in rows.iter().enumerate() {
        for (f, cell) in row.iter().enumerate() {
            if let Some(p) = cell {
                pos.put(Square::from_coords(f as u8, 7 - r as u8), *p);
            }
        }
    }
    pos.set_chosen(chosen);
    pos.set_taken(taken);
    if !pos.set_taking_square(taking) {
        return Err(format!("taking square {} is empty", taking.expect("set")));
    }
    Ok(pos)
}

impl GolfPosition {
    /// Parses the board text format (8 rows, then `chosen:`, `taking:`, `taken:` lines).
    pub fn parse_text(s: &str) -> Result<GolfPosition, GolfParseError> {
        let mut rows = [[None; 8]; 8];
        let mut nrows = 0usize;
        let mut chosen: Option<KindCounts> = None;
        let mut taken: Option<KindCounts> = None;
        let mut taking: Option<(usize, Option<Square>)> = None;
        for (i, raw) in s.lines().enumerate() {
            let line = i + 1;
            let t = raw.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            if nrows < 8 {
                if t.contains(':') {
                    return Err(GolfParseError::MissingRows { found: nrows });
                }
                rows[nrows] = parse_row(t).map_err(|problem| GolfParseError::Row {
                    line,
                    row: nrows + 1,
                    problem,
                })?;
                nrows += 1;
                continue;
            }
            let Some((key, value)) = t.split_once(':') else {
                return Err(GolfParseError::Line {
                    line,
                    problem: format!("expected `chosen:`, `taking:` or `taken:` after the 8 board rows, found {t:?}"),
                });
            };
            let key = key.trim();
            let field_err = |problem: String| GolfParseError::Field {
                line,
                field: key.to_string(),
                problem,
            };
            match key {
                "chosen" | "taken" => {
                    let slot = if key == "chosen" {
                        &mut chosen
                    } else {
                        &mut taken
                    };
                    if slot.is_some() {
                        return Err(field_err("given twice".to_string()));
                    }
                    *slot = Some(KindCounts::parse(value).map_err(field_err)?);
                }
                "taking" => {
                    if taking.is_some() {
                        return Err(field_err("given twice".to_string()));
                    }
                    taking = Some((line, parse_square_field(value).map_err(field_err)?));
                }
                _ => {
                    return Err(field_err(
                        "unknown field (expected chosen, taking or taken)".to_string(),
                    ))
                }
            }
        }
        if nrows < 8 {
            return Err(GolfParseError::MissingRows { found: nrows });
        }
        let (taking_line, taking) = taking.unwrap_or((0, None));
        finish(
            &rows,
            chosen.unwrap_or_default(),
            taken.unwrap_or_default(),
            taking,
        )
        .map_err(|problem| {
            if problem.starts_with("taking") {
                GolfParseError::Field {
                    line: taking_line,
                    field: "taking".to_string(),
                    problem,
                }
            } else {
                GolfParseError::TooManyPieces(rows.iter().flatten().filter(|c| c.is_some()).count())
            }
        })
    }

    /// The board text format (see the module documentation); ends without a newline.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                if file > 0 {
                    s.push(' ');
                }
                let c = self
                    .piece_at(Square::from_coords(file, rank))
                    .map_or('.', |p| p.char());
                s.push(c);
            }
            if rank > 0 {
                s.push('\n');
            }
        }
        if !self.chosen.is_empty() {
            let _ = write!(s, "\nchosen: {}", self.chosen);
        }
        if let Some(t) = self.taking {
            let _ = write!(s, "\ntaking: {t}");
        }
        if !self.taken.is_empty() {
            let _ = write!(s, "\ntaken: {}", self.taken);
        }
        s
    }

    /// Parses the one-line form `<placement> [chosen=..] [taking=..] [taken=..]`.
    pub fn parse_fen(s: &str) -> Result<GolfPosition, GolfParseError> {
        let mut parts = s.split_whitespace();
        let placement = parts.next().ok_or_else(|| GolfParseError::Placement {
            problem: "empty input".to_string(),
        })?;
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(GolfParseError::Placement {
                problem: format!("{} ranks separated by '/'; expected 8", ranks.len()),
            });
        }
        let mut rows = [[None; 8]; 8];
        for (r, rank) in ranks.iter().enumerate() {
            let mut f = 0usize;
            for c in rank.chars() {
                let err = |problem: String| GolfParseError::Placement {
                    problem: format!("rank {}: {problem}", 8 - r),
                };
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(err(format!("bad run length {c:?}")));
                    }
                    f += d as usize;
                } else {
                    if f >= 8 {
                        return Err(err("more than 8 squares".to_string()));
                    }
                    let p = parse_piece(c).map_err(err)?;
                    if p.is_none() {
                        return Err(err("use digits for empty squares".to_string()));
                    }
                    rows[r][f] = p;
                    f += 1;
                }
                if f > 8 {
                    return Err(err("more than 8 squares".to_string()));
                }
            }
            if f != 8 {
                return Err(GolfParseError::Placement {
                    problem: format!("rank {} has {f} squares; expected 8", 8 - r),
                });
            }
        }
        let mut chosen = None;
        let mut taken = None;
        let mut taking = None;
        for part in parts {
            let (key, value) =
                part.split_once('=')
                    .ok_or_else(|| GolfParseError::OneLineField {
                        field: part.to_string(),
                        problem: "expected key=value".to_string(),
                    })?;
            let err = |problem: String| GolfParseError::OneLineField {
                field: key.to_string(),
                problem,
            };
            match key {
                "chosen" | "taken" => {
                    let slot = if key == "chosen" {
                        &mut chosen
                    } else {
                        &mut taken
                    };
                    if slot.is_some() {
                        return Err(err("given twice".to_string()));
                    }
                    *slot = Some(KindCounts::parse(value).map_err(err)?);
                }
                "taking" => {
                    if taking.is_some() {
                        return Err(err("given twice".to_string()));
                    }
                    taking = Some(parse_square_field(value).map_err(err)?);
                }
                _ => {
                    return Err(err(
                        "unknown field (expected chosen, taking or taken)".to_string()
                    ))
                }
            }
        }
        finish(
            &rows,
            chosen.unwrap_or_default(),
            taken.unwrap_or_default(),
            taking.flatten(),
        )
        .map_err(|problem| {
            if problem.starts_with("taking") {
                GolfParseError::OneLineField {
                    field: "taking".to_string(),
                    problem,
                }
            } else {
                GolfParseError::TooManyPieces(rows.iter().flatten().filter(|c| c.is_some()).count())
            }
        })
    }

    /// The one-line form; empty fields are omitted.
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut run = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if run > 0 {
                            let _ = write!(s, "{run}");
                            run = 0;
                        }
                        s.push(p.char());
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                let _ = write!(s, "{run}");
            }
            if rank > 0 {
                s.push('/');
            }
        }
        if !self.chosen.is_empty() {
            let _ = write!(s, " chosen={}", self.chosen);
        }
        if let Some(t) = self.taking {
            let _ = write!(s, " taking={t}");
        }
        if !self.taken.is_empty() {
            let _ = write!(s, " taken={}", self.taken);
        }
        s
    }

    /// Parses either format: one line containing '/' is the one-liner, anything else the
    /// board format.
    pub fn parse_any(s: &str) -> Result<GolfPosition, GolfParseError> {
        let meaningful: Vec<&str> = s
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if meaningful.len() == 1 && meaningful[0].contains('/') {
            GolfPosition::parse_fen(meaningful[0])
        } else {
            GolfPosition::parse_text(s)
        }
    }
}

impl std::str::FromStr for GolfPosition {
    type Err = GolfParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GolfPosition::parse_any(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INTRO: &str = ". . B . . . R .
. . . . . k . .
. r . n . N . .
. r . . b . . .
R . . . . . q .
. B . n . N . .
b . . . . . . K
. . . . . Q . .
chosen: Kb";

    #[test]
    fn text_round_trip() {
        let p = GolfPosition::parse_text(INTRO).unwrap();
        assert_eq!(p.to_text(), INTRO);
        let fen = p.to_fen();
        assert_eq!(
            fen,
            "2B3R1/5k2/1r1n1N2/1r2b3/R5q1/1B1n1N2/b6K/5Q2 chosen=Kb"
        );
        assert_eq!(GolfPosition::parse_fen(&fen).unwrap(), p);
        assert_eq!(fen.parse::<GolfPosition>().unwrap(), p);
        let compact = "..B...R.\n.....k..\n.r.n.N..\n.r..b...\nR.....q.\n.B.n.N..\nb......K\n.....Q..\nchosen: bK\n";
        assert_eq!(GolfPosition::parse_text(compact).unwrap(), p);
    }

    #[test]
    fn taking_and_taken_round_trip() {
        let s = format!("{INTRO}\ntaking: e5\ntaken: QQ");
        let p = GolfPosition::parse_text(&s).unwrap();
        assert_eq!(p.taking(), Square::parse("e5"));
        assert_eq!(p.to_text(), s);
        assert_eq!(GolfPosition::parse_fen(&p.to_fen()).unwrap(), p);
    }

    #[test]
    fn errors_name_line_and_problem() {
        let short = INTRO.replacen(". . B . . . R .", ". . B . . . R", 1);
        let e = GolfPosition::parse_text(&short).unwrap_err();
        assert!(
            matches!(
                e,
                GolfParseError::Row {
                    line: 1,
                    row: 1,
                    ..
                }
            ),
            "{e}"
        );
        let pawn = INTRO.replacen("R . . . . . q .", "R . . . P . q .", 1);
        let e = GolfPosition::parse_text(&pawn).unwrap_err();
        assert!(
            e.to_string().contains("line 5") && e.to_string().contains("pawn"),
            "{e}"
        );
        let e = GolfPosition::parse_text(&format!("{INTRO}\nfoo: bar")).unwrap_err();
        assert!(
            e.to_string().contains("line 10") && e.to_string().contains("foo"),
            "{e}"
        );
        let e = GolfPosition::parse_text(&format!("{INTRO}\ntaking: z9")).unwrap_err();
        assert!(e.to_string().contains("taking"), "{e}");
        let e = GolfPosition::parse_text(&format!("{INTRO}\ntaking: a1")).unwrap_err();
        assert!(e.to_string().contains("empty"), "{e}");
        let e = GolfPosition::parse_text(&format!("{INTRO}\nchosen: X")).unwrap_err();
        assert!(e.to_string().contains("chosen"), "{e}");
        let e = GolfPosition::parse_text(". . .\nchosen: B").unwrap_err();
        assert!(matches!(e, GolfParseError::Row { .. }), "{e}");
        let e = GolfPosition::parse_text("").unwrap_err();
        assert_eq!(e, GolfParseError::MissingRows { found: 0 });
        for bad in [
            "",
            "8/8/8",
            "9/8/8/8/8/8/8/8",
            "8/8/8/8/8/8/8/7P",
            "8/8/8/8/8/8/8/8 chosen",
            "8/8/8/8/8/8/8/8 x=1",
            "8/8/8/8/8/8/8/44K",
        ] {
            assert!(GolfPosition::parse_fen(bad).is_err(), "{bad}");
        }
    }
}

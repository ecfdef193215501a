//! FEN, X-FEN and Shredder-FEN reading and writing for `Board`.
//!
//! Castling fields: `K`/`Q` mean the rook in the corner when the king stands on e1/e8
//! (orthodox), otherwise the outermost rook on that side of the king (X-FEN); file letters
//! name the rook (Shredder-FEN). Any right that is not orthodox switches the board to
//! Chess960 mode, since it can mean nothing else; a right with no rook to match is
//! dropped. This is how the published suites count such positions.
//!
//! Positions are accepted whenever moves are well defined (one king a side, no pawns on
//! the first or last rank, the side not to move not in check): "impossible" checks or
//! extra material are accepted, never miscounted.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::square::{Color, Piece, Role, Square};
use thiserror::Error;

/// How castling fields are read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CastlingMode {
    Standard,
    Chess960,
}

/// A FEN string that cannot be read, naming the field and the problem.
#[derive(Debug, Error, PartialEq, Eq, Clone)]
pub enum FenError {
    #[error("FEN needs 4 to 6 fields (placement, side, castling, en passant, then optionally the halfmove clock and move number), found {0}")]
    FieldCount(usize),
    #[error("FEN piece placement: {0}")]
    Placement(String),
    #[error("FEN side to move: expected 'w' or 'b', found '{0}'")]
    Turn(String),
    #[error("FEN castling: {0}")]
    Castling(String),
    #[error("FEN en passant: {0}")]
    EnPassant(String),
    #[error("FEN halfmove clock: expected a number, found '{0}'")]
    Halfmoves(String),
    #[error("FEN fullmove number: expected a positive number, found '{0}'")]
    Fullmoves(String),
    #[error("FEN position is not playable: {0}")]
    Position(String),
}

fn parse_placement(board: &mut Board, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Placement(format!(
            "expected 8 ranks separated by '/', found {}",
            ranks.len()
        )));
    }
    for (i, rank_str) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_str.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::Placement(format!(
                        "bad empty-square count '{c}' on rank {}",
                        rank + 1
                    )));
                }
                file += d as u8;
            } else if let Some(p) = Piece::from_char(c) {
                if file >= 8 {
                    return Err(FenError::Placement(format!(
                        "rank {} has more than 8 squares",
                        rank + 1
                    )));
                }
                board.set_piece(Square::from_coords(file, rank), Some(p));
                file += 1;
            } else {
                return Err(FenError::Placement(format!(
                    "unknown piece letter '{c}' on rank {}",
                    rank + 1
                )));
            }
            if file > 8 {
                return Err(FenError::Placement(format!(
                    "rank {} has more than 8 squares",
                    rank + 1
                )));
            }
        }
        if file != 8 {
            return Err(FenError::Placement(format!(
                "rank {} has {file} squares, expected 8",
                rank + 1
            )));
        }
    }
    Ok(())
}

/// Reads the castling field into a set of rook squares; may switch the mode to 960.
fn parse_castling(
    board: &Board,
    field: &str,
    mode: &mut CastlingMode,
) -> Result<Bitboard, FenError> {
    let mut rights = Bitboard::EMPTY;
    if field == "-" {
        return Ok(rights);
    }
    if field
        .chars()
        .any(|c| matches!(c.to_ascii_lowercase(), 'a'..='h'))
    {
        *mode = CastlingMode::Chess960;
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = if color == Color::White { 0 } else { 7 };
        let back = Bitboard::rank(rank);
        let rooks = board.pieces(color, Role::Rook) & back;
        let king = board.king(color).filter(|k| k.rank() == rank);
        let lower = c.to_ascii_lowercase();
        let rook = match lower {
            'k' | 'q' => {
                let Some(king) = king else {
                    return Err(FenError::Castling(format!(
                        "'{c}' in '{field}': the {} king is not on its back rank",
                        color.name()
                    )));
                };
                let corner = Square::from_coords(if lower == 'k' { 7 } else { 0 }, rank);
                let side = rooks.select(|r| (r.file() > king.file()) == (lower == 'k'));
                let outermost = if lower == 'k' {
                    side.last()
                } else {
                    side.min()
                };
                if *mode == CastlingMode::Standard && king.file() == 4 && rooks.contains(corner) {
                    Some(corner)
                } else {
                    // Not the orthodox geometry: read it as X-FEN (as the published
                    // suites count such positions), which makes the board Chess960.
                    if outermost.is_some() {
                        *mode = CastlingMode::Chess960;
                    }
                    outermost
                }
            }
            'a'..='h' => {
                let sq = Square::from_coords(lower as u8 - b'a', rank);
                (king.is_some() && rooks.contains(sq)).then_some(sq)
            }
            _ => {
                return Err(FenError::Castling(format!(
                    "unexpected character '{c}' in '{field}' (use KQkq, file letters or '-')"
                )))
            }
        };
        // A right the position cannot have is refused, not dropped in silence: a letter
        // naming no rook (`BCbc` on the orthodox start), or a rook named twice (`KQKQ`,
        // `KQkqA`), would otherwise lose or change rights without a word.
        let Some(r) = rook else {
            return Err(FenError::Castling(format!(
                "'{c}' in '{field}': no {} rook {} to castle with",
                color.name(),
                match lower {
                    'k' => "on the king's side of the back rank".to_string(),
                    'q' => "on the queen's side of the back rank".to_string(),
                    f => format!("on {f}{}", rank + 1),
                }
            )));
        };
        if rights.contains(r) {
            return Err(FenError::Castling(format!(
                "'{c}' in '{field}': the rook on {r} is named twice"
            )));
        }
        rights.set(r);
    }
    Ok(rights)
}

/// How much a FEN reader tolerates around the kings.
#[derive(Clone, Copy, PartialEq, Eq)]
enum KingRule {
    /// The side not to move may not be in check; kings may not touch.
    Orthodox,
    /// The side not to move may be attacked; kings may not touch.
    EnPrise,
    /// No check rule at all: kings may touch too.
    Touching,
}

impl Board {
    /// Reads a FEN (or X-FEN / Shredder-FEN) in standard castling mode.
    ///
    /// ```
    /// use engine::board::Board;
    /// let b = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    /// assert_eq!(b.legal_moves().len(), 20);
    /// assert!(Board::from_fen("rnbqkbnr/pppppppp/8/8 w KQkq - 0 1").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        Board::from_fen_with(fen, CastlingMode::Standard)
    }

    /// Reads a FEN whose castling field is X-FEN or Shredder-FEN (Chess960).
    pub fn from_fen_960(fen: &str) -> Result<Board, FenError> {
        Board::from_fen_with(fen, CastlingMode::Chess960)
    }

    pub fn from_fen_with(fen: &str, mode: CastlingMode) -> Result<Board, FenError> {
        Board::read_fen(fen, mode, KingRule::Orthodox)
    }

    /// Reads a FEN in which the side not to move may be in check: for variants without
    /// a check rule (royal capture), where a king may stand en prise. Kings that touch
    /// are still refused.
    ///
    /// ```
    /// use engine::board::Board;
    /// // White to move with the black king on the rook's file.
    /// let fen = "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1";
    /// assert!(Board::from_fen(fen).is_err());
    /// assert!(Board::from_fen_king_en_prise(fen).is_ok());
    /// ```
    pub fn from_fen_king_en_prise(fen: &str) -> Result<Board, FenError> {
        Board::read_fen(fen, CastlingMode::Standard, KingRule::EnPrise)
    }

    /// Reads a FEN for a variant with no check rule at all, where nothing stops a king
    /// from stepping next to the other (Masquerade): the side not to move may be
    /// attacked and the kings may touch.
    ///
    /// ```
    /// use engine::board::Board;
    /// let fen = "8/p7/8/8/8/3k4/4K3/8 b - - 1 1";
    /// assert!(Board::from_fen_king_en_prise(fen).is_err());
    /// assert!(Board::from_fen_kings_touching(fen).is_ok());
    /// ```
    pub fn from_fen_kings_touching(fen: &str) -> Result<Board, FenError> {
        Board::read_fen(fen, CastlingMode::Standard, KingRule::Touching)
    }

    fn read_fen(fen: &str, mode: CastlingMode, kings: KingRule) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut board = Board::empty();
        parse_placement(&mut board, fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Turn(other.to_string())),
        };
        for c in Color::BOTH {
            let n = board.pieces(c, Role::King).count();
            if n != 1 {
                return Err(FenError::Position(format!(
                    "{} has {n} kings, expected exactly 1",
                    c.name()
                )));
            }
        }
        if (board.by_role(Role::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).any() {
            return Err(FenError::Position(
                "a pawn stands on the first or last rank".into(),
            ));
        }
        let mut mode = mode;
        let castling = parse_castling(&board, fields[2], &mut mode)?;
        let ep = match fields[3] {
            "-" => None,
            s => {
                let sq = Square::parse(s)
                    .ok_or_else(|| FenError::EnPassant(format!("'{s}' is not a square")))?;
                let want_rank = if turn == Color::White { 5 } else { 2 };
                if sq.rank() != want_rank {
                    return Err(FenError::EnPassant(format!(
                        "'{s}' is not on rank {} for {} to move",
                        want_rank + 1,
                        turn.name()
                    )));
                }
                Some(sq)
            }
        };
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(s) => s
                .parse::<u16>()
                .map_err(|_| FenError::Halfmoves(s.to_string()))?,
        };
        let fullmoves = match fields.get(5) {
            None => 1,
            Some(s) => match s.parse::<u16>() {
                Ok(n) if n > 0 => n,
                _ => return Err(FenError::Fullmoves(s.to_string())),
            },
        };
        // An en passant square needs the pawn that just passed it (refused otherwise,
        // not dropped in silence); with no pawn able to capture it is kept, as FEN
        // writers following the original standard record it after every double step.
        if let Some(sq) = ep {
            let pawn_sq = Square::from_coords(sq.file(), if turn == Color::White { 4 } else { 3 });
            if board.piece_at(pawn_sq) != Some(Piece::new(turn.other(), Role::Pawn))
                || board.piece_at(sq).is_some()
            {
                return Err(FenError::EnPassant(format!(
                    "'{sq}': no {} pawn on {pawn_sq} that has just passed an empty {sq}",
                    turn.other().name()
                )));
            }
        }
        board.set_chess960(mode == CastlingMode::Chess960);
        board.set_state(turn, castling, ep, halfmoves, fullmoves);
        let their_king = board.king(turn.other()).expect("checked above");
        let our_king = board.king(turn).expect("checked above");
        if kings != KingRule::Touching
            && crate::attacks::king_attacks(our_king).contains(their_king)
        {
            return Err(FenError::Position("the kings touch".into()));
        }
        if kings == KingRule::Orthodox && board.is_attacked(their_king, turn) {
            return Err(FenError::Position(format!(
                "{} is not to move but is in check",
                turn.other().name()
            )));
        }
        Ok(board)
    }

    fn placement_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    fn castling_fen(&self, shredder: bool) -> String {
        let mut s = String::new();
        for color in Color::BOTH {
            let rank = if color == Color::White { 0 } else { 7 };
            let rights = self.castling_rights() & Bitboard::rank(rank);
            let rooks = self.pieces(color, Role::Rook) & Bitboard::rank(rank);
            let king = self.king(color);
            // Kingside first, as FEN orders them.
            let mut list: Vec<Square> = rights.collect();
            list.sort_by_key(|sq| std::cmp::Reverse(sq.file()));
            for r in list {
                let kingside = king.is_some_and(|k| r.file() > k.file());
                let outermost = if kingside {
                    rooks.select(|x| x.file() > r.file()).count() == 0
                } else {
                    rooks.select(|x| x.file() < r.file()).count() == 0
                };
                let c = if !shredder && (outermost || !self.is_chess960()) {
                    if kingside {
                        'k'
                    } else {
                        'q'
                    }
                } else {
                    (b'a' + r.file()) as char
                };
                s.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    fn fen_with(&self, shredder: bool) -> String {
        let ep = self.ep_square().map_or("-".to_string(), |s| s.to_string());
        format!(
            "{} {} {} {} {} {}",
            self.placement_fen(),
            if self.turn() == Color::White {
                'w'
            } else {
                'b'
            },
            self.castling_fen(shredder),
            ep,
            self.halfmoves(),
            self.fullmoves()
        )
    }

    /// FEN; in Chess960 mode the castling field is X-FEN (file letters only where
    /// `K`/`Q` would be ambiguous).
    pub fn fen(&self) -> String {
        self.fen_with(false)
    }

    /// Shredder-FEN: castling rights always as rook file letters.
    pub fn shredder_fen(&self) -> String {
        self.fen_with(true)
    }
}

impl std::str::FromStr for Board {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Board, FenError> {
        Board::from_fen(s)
    }
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen())
    }
}

trait BitboardExt {
    fn select(self, f: impl FnMut(&Square) -> bool) -> Bitboard;
}

impl BitboardExt for Bitboard {
    fn select(self, f: impl FnMut(&Square) -> bool) -> Bitboard {
        Iterator::filter(self, f).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_round_trips() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(Board::from_fen(fen).unwrap().fen(), fen);
        assert_eq!(Board::startpos().fen(), fen);
    }

    #[test]
    fn errors_name_the_field() {
        let e = |s| Board::from_fen(s).unwrap_err();
        assert!(matches!(e("8/8/8 w - -"), FenError::Placement(_)));
        assert!(matches!(e("4k3/8/8/8/8/8/8/4K3 x - -"), FenError::Turn(_)));
        assert!(matches!(
            e("4k3/8/8/8/8/8/8/4K3 w X -"),
            FenError::Castling(_)
        ));
        assert!(matches!(
            e("4k3/8/8/8/8/8/8/4K3 w - z9"),
            FenError::EnPassant(_)
        ));
        assert!(matches!(
            e("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
            FenError::Halfmoves(_)
        ));
        assert!(matches!(
            e("4k3/8/8/8/8/8/8/4K3 w - - 0 0"),
            FenError::Fullmoves(_)
        ));
        assert!(matches!(
            e("4k3/8/8/8/8/8/8/8 w - -"),
            FenError::Position(_)
        ));
        assert!(matches!(
            e("4k3/8/8/8/8/8/8/4K2r b - -"),
            FenError::Position(_)
        ));
        assert!(matches!(e("w"), FenError::FieldCount(1)));
        assert!(matches!(
            e("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
            FenError::FieldCount(7)
        ));
        assert!(matches!(
            e("4k3/9/8/8/8/8/8/4K3 w - -"),
            FenError::Placement(_)
        ));
    }

    #[test]
    fn shredder_and_xfen_castling() {
        let b =
            Board::from_fen_960("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1").unwrap();
        assert_eq!(b.castling_rights().count(), 4);
        assert_eq!(b.shredder_fen().split(' ').nth(2), Some("EAea"));
        assert_eq!(b.fen().split(' ').nth(2), Some("KQkq"));
        let s =
            Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .unwrap();
        assert!(s.is_chess960());
        assert_eq!(s.shredder_fen().split(' ').nth(2), Some("HFhf"));
    }
}

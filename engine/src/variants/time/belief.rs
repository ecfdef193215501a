//! What a Time Chess seat believes and sees.
//!
//! After every twilight both seats have seen the whole board, and a sighted seat sees
//! every move, so the only unknown is the opponent's one sighted move made while the
//! seat was blind (White's Midday move for Black, Black's Midnight move for White). The
//! blind seat observed just one thing about it: which of its own pieces (if any) it took,
//! i.e. its own pieces after the move; and that the game did not end. The belief is the
//! set of the opponent's legal moves from the last seen position with both properties.

use super::{Phase, TimeAction, TimeChess};
use crate::game::Game;
use crate::moves::Move;
use crate::square::{Color, Piece, Square};

/// The opponent's moves `seat` cannot tell from the truth, as moves from the position
/// before the last ply. Empty unless the state [`TimeChess::hides_from`] the seat to move.
pub fn consistent_moves(game: &TimeChess) -> Vec<Move> {
    let seat = game.board_ref().turn();
    if !game.hides_from(seat.index()) {
        return Vec::new();
    }
    let own = game.own_pieces(seat);
    let mut g = game.clone();
    g.undo();
    let mut actions = Vec::new();
    g.legal_actions(seat.other().index(), &mut actions);
    let mut out = Vec::new();
    for a in actions {
        g.apply(a);
        if g.own_pieces(seat) == own && g.result().is_none() {
            if let TimeAction::Move(m) = a {
                out.push(m);
            }
        }
        g.undo();
    }
    out
}

/// The board as `me` sees it now: everything when it is not blind (or the game is over);
/// else its own pieces, the enemy pieces where it last saw them (lower case for Black,
/// upper case for White, in brackets), and what it learned since.
pub fn describe(game: &TimeChess, me: Color) -> String {
    let phase = game.phase();
    let b = game.board_ref();
    let over = game.result().is_some();
    let head = format!(
        "{} ({}), {} to move; you are {}",
        phase.name(),
        match game.blind_seat(phase) {
            Some(c) => format!("{} blind", c.name()),
            None if game.is_sighted() => "all see".into(),
            None => "twilight".into(),
        },
        phase.mover().name(),
        me.name()
    );
    let mut learned = Vec::new();
    if let Some(rec) = game.records.last() {
        if let Some(outcome) = rec.blind {
            if rec.phase.mover() == me {
                learned.push(format!("your blind try: {outcome:?}"));
            }
        }
    }
    if over || game.blind_seat(phase) != Some(me) {
        return format!("{head} | board {}{}", b.fen(), tail(&learned));
    }
    // Blind: the enemy pieces as they stood when last seen.
    let mut remembered = b.clone();
    if phase == Phase::Evening || phase == Phase::Morning {
        // The last ply is the opponent's unseen (real, sighted) move.
        remembered.unmake();
        if let Some(sq) = game.last_capture_square() {
            learned.push(format!("your piece on {sq} was captured"));
        }
    }
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        for file in 0..8 {
            let sq = Square::from_coords(file, rank);
            let own = b.piece_at(sq).filter(|p| p.color == me);
            let seen = remembered
                .piece_at(sq)
                .filter(|p| p.color != me)
                .map(|p: Piece| p.char());
            match (own, seen) {
                (Some(p), _) => row.push(p.char()),
                (None, Some(c)) => {
                    row.push('[');
                    row.push(c);
                    row.push(']');
                }
                (None, None) => row.push('.'),
            }
        }
        rows.push(row);
    }
    format!("{head} | blind view {}{}", rows.join("/"), tail(&learned))
}

fn tail(learned: &[String]) -> String {
    if learned.is_empty() {
        String::new()
    } else {
        format!(" | {}", learned.join("; "))
    }
}

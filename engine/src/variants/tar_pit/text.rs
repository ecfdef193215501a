//! Reading an action's text (`read_action`, without checking legality) and the reason an
//! action is refused (`why_illegal`).

use super::*;

impl TarPit {
    pub(super) fn parse_err(text: &str, message: impl Into<String>) -> GameError {
        GameError::Action {
            action: text.into(),
            message: message.into(),
        }
    }

    fn parse_card(text: &str, body: &str) -> Result<Card, GameError> {
        let mut chars = body.chars();
        match (chars.next().and_then(Card::from_letter), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(Self::parse_err(
                text,
                format!("'{body}' is not a card (P N B R Q K C, lower case black)"),
            )),
        }
    }

    fn parse_square(text: &str, s: &str) -> Result<Square, GameError> {
        Square::parse(s).ok_or_else(|| Self::parse_err(text, format!("'{s}' is not a square")))
    }

    /// Reads an action without checking that it is legal here.
    pub(super) fn read_action(&self, text: &str) -> Result<TarPitAction, GameError> {
        let t = text.trim();
        if t == "pass" {
            return Ok(TarPitAction::Pass);
        }
        if t == "shuffle" {
            return Ok(TarPitAction::Shuffle);
        }
        if let Some(rest) = t.strip_prefix("throw:") {
            return Ok(TarPitAction::Throw(Self::parse_square(text, rest)?));
        }
        if let Some(rest) = t.strip_prefix("card:") {
            return match rest.split_once('@') {
                Some((c, s)) => Ok(TarPitAction::Card(
                    Self::parse_card(text, c)?,
                    Some(Self::parse_square(text, s)?),
                )),
                None => Ok(TarPitAction::Card(Self::parse_card(text, rest)?, None)),
            };
        }
        if let Some(rest) = t.strip_prefix("return:") {
            return if rest == "front" {
                Ok(TarPitAction::ReturnFront)
            } else {
                Ok(TarPitAction::ReturnAt(Self::parse_square(text, rest)?))
            };
        }
        if let Some(rest) = t.strip_prefix("discard:") {
            return Ok(TarPitAction::Discard(Self::parse_card(text, rest)?));
        }
        if let Some(rest) = t.strip_prefix("draw:") {
            return Ok(TarPitAction::Draw(Self::parse_card(text, rest)?));
        }
        if self.core.phase == Phase::Move {
            if let Some(m) = self
                .legal_moves()
                .iter()
                .copied()
                .find(|&m| self.board.uci(m) == t)
            {
                return Ok(TarPitAction::Move(m));
            }
            return Err(Self::parse_err(text, "not a legal chess move here"));
        }
        Err(Self::parse_err(
            text,
            "expected a UCI move, throw:SQ, card:X@SQ, card:C, return:front, return:SQ, \
             discard:X, draw:X, shuffle or pass",
        ))
    }

    /// Why `a` is not legal now (a clear message for bad input).
    pub(super) fn why_illegal(&self, a: TarPitAction) -> String {
        let me = self.core.mover;
        let phase = self.core.phase;
        match a {
            TarPitAction::Throw(sq) => match phase {
                Phase::Throw { .. } if self.board.piece_at(sq).is_none() => {
                    format!("no piece on {sq} to throw the checker under")
                }
                Phase::Throw { at } => format!("{sq} is not one king step from {at}"),
                _ => "no throw is due now (only right after moving a piece that carries \
                      your checker)"
                    .into(),
            },
            TarPitAction::Card(card, target) => {
                if phase != Phase::Card {
                    return "no card play is due now".into();
                }
                if self.core.hands[me.index()][card.index()] == 0 {
                    return format!("{} holds no {card} card", me.name());
                }
                match target {
                    None if !card.is_checker() => {
                        format!("a piece card needs a square: card:{card}@e4")
                    }
                    Some(_) if card.is_checker() => {
                        format!("a checker card takes no square: card:{card}")
                    }
                    Some(sq) if self.board.piece_at(sq).is_none() => {
                        format!("no piece on {sq} to add a checker to")
                    }
                    Some(sq) if self.core.front[me.index()] == 0 => {
                        format!("no checker in front of {} to add at {sq}", me.name())
                    }
                    Some(sq) => format!("the {card} card does not match the piece on {sq}"),
                    None => "not playable now".into(),
                }
            }
            TarPitAction::ReturnFront | TarPitAction::ReturnAt(_) => {
                if phase != Phase::Return {
                    "no return is due now".into()
                } else {
                    "that square has no checker of the returning side".into()
                }
            }
            TarPitAction::Discard(c) => {
                if phase != Phase::Discard {
                    "no discard is due now".into()
                } else {
                    format!("{} holds no {c} card", me.other().name())
                }
            }
            TarPitAction::Draw(_) | TarPitAction::Shuffle => {
                "not a chance outcome here (no draw due, or the pile lacks that card)".into()
            }
            TarPitAction::Pass => "nothing to decline now".into(),
            TarPitAction::Move(_) => "not a legal chess move here".into(),
        }
    }
}

//! Why an action is refused: the reason named for each kind of action that is not
//! legal in the current step.

use super::*;

impl Clairvoyant {
    /// Why a move or bought move in `text` is refused.
    pub(super) fn refusal(&self, text: &str, bought: bool) -> String {
        let step = self.s.phase;
        if bought {
            if !matches!(step, Phase::Drops | Phase::Extra) {
                return format!("no bought move is possible in the {step:?} step");
            }
            if self.s.bought >= self.s.bought_limit {
                return "no more bought moves this turn (the two-move limit)".into();
            }
            return format!(
                "'{text}' is not an affordable bought move that can end the turn legally \
                 (balance {}Z)",
                self.s.balance[self.s.mover.index()]
            );
        }
        if !matches!(step, Phase::Start | Phase::Free) {
            return format!("the free move is not due in the {step:?} step");
        }
        format!("'{text}' is not a legal free move here")
    }

    pub(super) fn refusal_of(&self, a: ClairAction) -> String {
        let step = self.s.phase;
        let mover = self.s.mover;
        match a {
            ClairAction::Guess(_) => {
                if self.s.n_guesses >= self.params.max_guesses {
                    format!(
                        "the sheet is full: at most {} guesses",
                        self.params.max_guesses
                    )
                } else if step != Phase::Guess {
                    format!("no guess sheet is open in the {step:?} step")
                } else {
                    "that guess names nothing the mover can do (see the guess rules)".into()
                }
            }
            ClairAction::RetractGuess => "the retraction guess is not due now".into(),
            ClairAction::Drop(role, sq) => {
                let cost = self.costs().drop.get(role);
                let bal = self.s.balance[mover.index()];
                if !matches!(step, Phase::Start | Phase::Drops) || self.s.bought > 0 {
                    format!("no drop is possible in the {step:?} step")
                } else if cost > bal {
                    format!("cannot afford the drop: it costs {cost}Z, the balance is {bal}Z")
                } else if self.board.piece_at(sq).is_some() {
                    format!("{sq} is occupied")
                } else if role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
                    "a pawn may not be dropped on the first or last rank".into()
                } else if !drop_allowed(&self.board, role, sq) {
                    "a dropped piece may not give check (or: a side has at most two kings)".into()
                } else {
                    "after this drop the turn cannot end with the king safe".into()
                }
            }
            ClairAction::Retract => match self.s.retract_cost {
                _ if step != Phase::Retract => "no free move to retract now".into(),
                None if self.s.start_check => "this move may not be retracted: it is the \
                     mover's only escape from check"
                    .into(),
                None => "this move may not be retracted: the mover has no other move that \
                         ends the turn legally"
                    .into(),
                Some(c) => format!(
                    "cannot afford the retraction: it costs {c}Z, the balance is {}Z",
                    self.s.balance[mover.other().index()]
                ),
            },
            ClairAction::Pass => {
                if in_check(&self.board, mover) {
                    "the turn cannot end with the mover's king in check".into()
                } else {
                    format!("'pass' is not possible in the {step:?} step")
                }
            }
            _ => "not a legal action here".into(),
        }
    }
}

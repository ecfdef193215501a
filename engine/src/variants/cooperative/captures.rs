//! The capture rules: whether a capture matches the cards (`capture_match`, with the
//! wild and double-colour cases), the captures and quiet moves offered, and why a move
//! text is not a legal capture (`explain_capture`).

use super::*;

/// The capture rules' verdict on one capture, for the chain's bookkeeping.
#[derive(Clone, Copy, Debug)]
pub(super) struct Match {
    pub(super) wild: bool,
    pub(super) double_colour: bool,
}

impl Cooperative {
    /// The capture rules for one capture by `capturer` (a piece of the mover) of
    /// `victim` (a piece of the partner) with the current cards, or why not.
    pub(super) fn capture_match(&self, capturer: Role, victim: Role) -> Result<Match, String> {
        let me = self.mover();
        let them = me.other();
        let played = *self.stacks[me.index()]
            .last()
            .ok_or("no card has been played")?;
        let target = *self.stacks[them.index()]
            .last()
            .ok_or("the partner's discard stack is empty: nothing can be captured")?;
        let own_wild = self.missing_type(me, played);
        if capturer != played.role && !own_wild {
            return Err(format!(
                "the capturer must be a {} (the card played), not a {}",
                role_name(played.role),
                role_name(capturer)
            ));
        }
        let victim_wild = self.next_wild || self.missing_type(them, target);
        if victim != target.role && !victim_wild {
            return Err(format!(
                "the victim must be a {} (the top of the partner's stack), not a {}",
                role_name(target.role),
                role_name(victim)
            ));
        }
        Ok(Match {
            wild: (own_wild && capturer != played.role) || (victim_wild && victim != target.role),
            double_colour: played.color == me && target.color == them,
        })
    }

    /// Appends the captures available now (capture phase).
    pub(super) fn captures(&self, out: &mut Vec<CoopAction>) {
        let me = self.mover();
        let them = me.other();
        let (Some(&played), Some(&target)) = (
            self.stacks[me.index()].last(),
            self.stacks[them.index()].last(),
        ) else {
            return;
        };
        let b = &self.board;
        let mut movers = match self.active {
            Some(sq) => Bitboard::from_square(sq),
            None => b.by_color(me),
        };
        if !self.missing_type(me, played) {
            movers &= b.pieces(me, played.role);
        }
        let victims = if self.next_wild || self.missing_type(them, target) {
            b.by_color(them)
        } else {
            b.pieces(them, target.role)
        };
        if movers.is_empty() || victims.is_empty() {
            return;
        }
        let occ = b.occupied();
        let last = Bitboard::relative_rank(me, 7);
        for from in movers {
            let role = b.piece_at(from).expect("own piece").role;
            for to in attacks::attacks(role, me, from, occ) & victims {
                if role == Role::Pawn && last.contains(to) {
                    for r in Role::PROMOTIONS {
                        out.push(CoopAction::Move(Move::new(
                            from,
                            to,
                            MoveKind::Promotion(r),
                        )));
                    }
                } else {
                    out.push(CoopAction::Move(Move::normal(from, to)));
                }
            }
        }
        if let Some(v) = self.ep {
            if self.chain == 0 && !self.quiet_moved && victims.contains(v) {
                let behind = ep_target(v, them);
                if !occ.contains(behind) {
                    for from in movers & b.pieces(me, Role::Pawn) {
                        if attacks::pawn_attacks(me, from).contains(behind) {
                            out.push(CoopAction::Move(Move::new(
                                from,
                                behind,
                                MoveKind::EnPassant,
                            )));
                        }
                    }
                }
            }
        }
    }

    /// Appends the quiet moves (quiet phase): any non-capturing move, castling included.
    pub(super) fn quiet_moves(&self, out: &mut Vec<CoopAction>) {
        let b = &self.board;
        let occ = b.occupied();
        let mut list = MoveList::new();
        pseudo_moves(b, &mut list, b.by_color(b.turn()), |_| occ, |_, _| false);
        for &m in list.iter() {
            if !occ.contains(m.to()) && m.kind() != MoveKind::EnPassant {
                out.push(CoopAction::Move(m));
            }
        }
        castles_without_attack_test(b, |m| out.push(CoopAction::Move(m)));
    }

    pub(super) fn any_capture(&self) -> bool {
        let mut v = Vec::new();
        self.captures(&mut v);
        !v.is_empty()
    }

    /// Why a move text is not a legal capture now (for error messages).
    pub(super) fn explain_capture(&self, text: &str) -> String {
        let from = text.get(0..2).and_then(Square::parse);
        let to = text.get(2..4).and_then(Square::parse);
        let (Some(from), Some(to)) = (from, to) else {
            return "expected a capture in UCI (e.g. 'e6d5') or 'pass'".into();
        };
        let me = self.mover();
        let Some(p) = self.board.piece_at(from).filter(|p| p.color == me) else {
            return format!("no {} piece on {from}", me.name());
        };
        if let Some(a) = self.active.filter(|&a| a != from) {
            return format!("all moves of a turn are made with one piece, the one on {a}");
        }
        let victim = self.board.piece_at(to).filter(|v| v.color == me.other());
        let Some(v) = victim else {
            return format!("no {} piece to capture on {to}", me.other().name());
        };
        if let Err(why) = self.capture_match(p.role, v.role) {
            return why;
        }
        format!("the {} on {from} does not attack {to}", role_name(p.role))
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

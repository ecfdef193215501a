//! A slow Two Move Chess reference written from docs/RULES.md ("Two Move Chess" and the
//! common rules) and the seed, compared with the engine at every decision (both seats'
//! card choices and every move) of seeded random and greedy games.
//!
//! The reference runs the turn itself on a mailbox (`common/mailbox.rs`): hands and
//! face-up cards, the reveal, the order of the moves, the pawns that already moved, the
//! clocks and the repetitions. From the engine it reads only the castling rights after a
//! move (public state), and it checks the squares, face-up cards and pending card against
//! its own. Rules:
//! - each seat chooses two distinct cards from its hand minus its face-up cards; a type
//!   chosen by both is eliminated; a surviving card paired with an eliminated one makes
//!   two moves; surviving cards resolve N, B, R, Q, K, White's before Black's;
//! - a card moves a piece of its type or of the owner's least valuable type that has a
//!   move (pawns that moved this turn do not count and may not move; a pawn promoted
//!   this turn is a new piece); it must move when it can; a card whose owner has no such
//!   move is spent without one;
//! - no check, no en passant; castling with the king card without any attack test;
//!   capturing the king wins at once (`royal-capture`);
//! - after the turn a player with four face-up cards takes them back, the other leaves
//!   its two face up;
//! - draws between turns: ply cap and 50-move rule on piece moves, bare material,
//!   threefold repetition of (board, castling rights, face-up cards) at card choices.

use crate::mailbox;
use crate::rules_track;

use engine::game::{Game, Turn};
use engine::variants::two_move::{TwoMove, TwoMoveAction, TwoMoveParams};
use engine::{Color, Move, MoveKind, Role, Square};
use mailbox::Mailbox;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rules_track::{common_draw, play_openings, same_end, uci};

const CARDS: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];
const LETTERS: [char; 5] = ['N', 'B', 'R', 'Q', 'K'];

/// Cards as five flags in N, B, R, Q, K order.
type Cards = [bool; 5];

fn text(c: &Cards) -> String {
    let s: String = (0..5).filter(|&i| c[i]).map(|i| LETTERS[i]).collect();
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    card: usize,
    owner: Color,
    second: bool,
}

struct Reference {
    mb: Mailbox,
    rights: Vec<Square>,
    face_up: [Cards; 2],
    /// The moves owed this turn, in order (empty at a card choice).
    slots: Vec<Slot>,
    moved_pawns: Vec<Square>,
    piece_moves: u32,
    quiet: u32,
    ply_cap: u32,
    /// (board, rights, face-up) at every earlier card choice.
    turn_keys: Vec<(Mailbox, Vec<Square>, [Cards; 2])>,
    winner: bool,
}

impl Reference {
    fn choices(&self, seat: usize) -> Vec<String> {
        let mut v = Vec::new();
        for a in 0..5 {
            for b in a + 1..5 {
                if !self.face_up[seat][a] && !self.face_up[seat][b] {
                    let mut c = [false; 5];
                    c[a] = true;
                    c[b] = true;
                    v.push(text(&c));
                }
            }
        }
        v.sort();
        v
    }

    /// The moves the first owed card may make.
    fn slot_moves(&self, slot: Slot) -> Vec<Move> {
        let us = slot.owner;
        let all: Vec<Move> = self
            .mb
            .pseudo_moves(us, None)
            .into_iter()
            .filter(|m| !self.moved_pawns.contains(&m.from()))
            .collect();
        let role = |m: &Move| self.mb.at(m.from()).unwrap().role;
        let least = all.iter().map(role).min();
        let card = CARDS[slot.card];
        let mut out: Vec<Move> = all
            .iter()
            .copied()
            .filter(|m| role(m) == card || Some(role(m)) == least)
            .collect();
        if card == Role::King {
            out.extend(self.mb.castling_moves(us, &self.rights, false));
        }
        out
    }

    /// Drops cards whose owner cannot move, so the first slot (if any) has a move.
    fn skip_unmovable(&mut self) {
        while let Some(&s) = self.slots.first() {
            if !self.slot_moves(s).is_empty() {
                return;
            }
            self.slots.remove(0);
        }
    }

    fn key(&self) -> (Mailbox, Vec<Square>, [Cards; 2]) {
        (self.mb.clone(), self.rights.clone(), self.face_up)
    }

    fn result(&self) -> Option<&'static str> {
        if self.winner {
            return Some("royal-capture");
        }
        if !self.slots.is_empty() {
            return None;
        }
        if self.piece_moves >= self.ply_cap {
            Some("cap")
        } else {
            common_draw(&self.mb, self.quiet, &self.turn_keys, &self.key())
        }
    }

    fn reveal(&mut self, chosen: [Cards; 2]) {
        self.turn_keys.push(self.key());
        let elim: Vec<bool> = (0..5).map(|i| chosen[0][i] && chosen[1][i]).collect();
        let double = elim.iter().filter(|&&e| e).count() == 1;
        for card in 0..5 {
            for owner in [Color::White, Color::Black] {
                if chosen[owner.index()][card] && !elim[card] {
                    self.slots.push(Slot {
                        card,
                        owner,
                        second: false,
                    });
                    if double {
                        self.slots.push(Slot {
                            card,
                            owner,
                            second: true,
                        });
                    }
                }
            }
        }
        for (up, pair) in self.face_up.iter_mut().zip(chosen) {
            *up = if up.iter().any(|&x| x) {
                [false; 5]
            } else {
                pair
            };
        }
        self.moved_pawns.clear();
        self.skip_unmovable();
    }

    fn play(&mut self, m: Move) {
        let slot = self.slots.remove(0);
        let us = slot.owner;
        let moved = self.mb.at(m.from()).unwrap();
        let captured = (m.kind() != MoveKind::Castle)
            .then(|| self.mb.at(m.to()))
            .flatten();
        self.piece_moves += 1;
        if moved.role == Role::Pawn || captured.is_some() {
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        // A captured pawn that moved this turn is gone.
        if captured.is_some() {
            self.moved_pawns.retain(|&s| s != m.to());
        }
        if moved.role == Role::Pawn {
            self.moved_pawns.retain(|&s| s != m.from());
            if m.promotion().is_none() {
                self.moved_pawns.push(m.to());
            }
        }
        self.mb = self.mb.after(m, us);
        if captured.is_some_and(|p| p.role == Role::King) {
            self.winner = true;
            self.slots.clear();
        }
    }
}

fn engine_actions(g: &TwoMove, seat: usize) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(seat, &mut v);
    let mut s: Vec<String> = v.iter().map(|&a| g.action_notation(a)).collect();
    s.sort();
    s
}

fn parse_face_up(opening: &str, params: &TwoMoveParams) -> [Cards; 2] {
    let fields: Vec<&str> = opening.split_whitespace().collect();
    let spec = if fields.len() == 7 {
        fields[6].to_string()
    } else {
        format!("{}/-", params.white_face_up)
    };
    let (w, b) = spec.split_once('/').unwrap();
    let set = |t: &str| {
        let mut c = [false; 5];
        for ch in t.chars() {
            if let Some(i) = LETTERS.iter().position(|&l| l == ch) {
                c[i] = true;
            }
        }
        c
    };
    [set(w), set(b)]
}

fn run(
    opening: &str,
    params: &TwoMoveParams,
    decisions: usize,
    greedy: f64,
    rng: &mut Pcg64Mcg,
) -> Vec<&'static str> {
    let mut ends = Vec::new();
    let mut done = 0;
    while done < decisions {
        let mut g = TwoMove::from_opening(params, opening).unwrap();
        let b = g.board_ref();
        let mut r = Reference {
            mb: Mailbox::of(b),
            rights: b.castling_rights().into_iter().collect(),
            face_up: parse_face_up(opening, params),
            slots: Vec::new(),
            moved_pawns: Vec::new(),
            piece_moves: 0,
            quiet: b.halfmoves() as u32,
            ply_cap: params.ply_cap,
            turn_keys: Vec::new(),
            winner: false,
        };
        loop {
            let here = g.observation(0);
            assert_eq!(Mailbox::of(g.board_ref()), r.mb, "squares at {here}");
            for c in [Color::White, Color::Black] {
                assert_eq!(
                    g.face_up(c),
                    text(&r.face_up[c.index()]),
                    "face up at {here}"
                );
            }
            if same_end(&g, r.result(), &here, &mut ends) {
                break;
            }
            done += 1;
            if r.slots.is_empty() {
                assert_eq!(g.turn(), Turn::Simultaneous, "at {here}");
                let mut chosen = [[false; 5]; 2];
                let mut actions = Vec::new();
                for (seat, chosen) in chosen.iter_mut().enumerate() {
                    let choices = r.choices(seat);
                    assert_eq!(
                        engine_actions(&g, seat),
                        choices,
                        "seat {seat} cards at {here}"
                    );
                    let pick = &choices[rng.gen_range(0..choices.len())];
                    for ch in pick.chars() {
                        chosen[LETTERS.iter().position(|&l| l == ch).unwrap()] = true;
                    }
                    let mut acts = Vec::new();
                    g.legal_actions(seat, &mut acts);
                    let a = acts
                        .into_iter()
                        .find(|&a| g.action_notation(a) == *pick)
                        .unwrap();
                    actions.push(a);
                }
                g.apply_joint(&actions);
                r.reveal(chosen);
                continue;
            }
            let slot = r.slots[0];
            assert_eq!(g.turn(), Turn::Seat(slot.owner.index()), "mover at {here}");
            assert_eq!(
                g.pending(),
                Some((CARDS[slot.card], slot.owner, slot.second)),
                "pending card at {here}"
            );
            let moves = r.slot_moves(slot);
            let mut theirs: Vec<String> = moves.iter().map(|&m| uci(m, slot.owner)).collect();
            theirs.sort();
            assert_eq!(
                engine_actions(&g, slot.owner.index()),
                theirs,
                "moves of the {} card at {here}",
                LETTERS[slot.card]
            );
            // Greedy: a capture (the king first) when there is one.
            let value = |m: &Move| {
                (m.kind() != MoveKind::Castle)
                    .then(|| r.mb.at(m.to()))
                    .flatten()
                    .map_or(0, |p| if p.role == Role::King { 100 } else { 1 })
            };
            let best = moves.iter().map(value).max().unwrap();
            let m = if best > 0 && rng.gen_bool(greedy) {
                let top: Vec<Move> = moves.iter().copied().filter(|m| value(m) == best).collect();
                top[rng.gen_range(0..top.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            let text = uci(m, slot.owner);
            let a = g.parse_action(&text).unwrap();
            assert_eq!(a, TwoMoveAction::Move(m));
            g.apply(a);
            r.play(m);
            r.rights = g.board_ref().castling_rights().into_iter().collect();
            if !r.winner {
                r.skip_unmovable();
            }
        }
    }
    ends
}

const OPENINGS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Castling through attack, no en passant, face-up cards on both sides.
    "r3k2r/pppq1ppp/2n2n2/2bpp3/2BPP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1 NB/-",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3 -/RQ",
    // Promotions, blocked pawns (the least valuable movable type is not the pawn).
    "r3k3/1P4P1/8/p7/P7/8/1p4p1/4K2R w Kq - 0 1 -/-",
    "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/RN2K1NR w K - 0 1 KQ/-",
    // A king en prise.
    "4k3/8/8/8/8/8/3q4/4K2R w K - 0 1 -/-",
];

#[test]
fn two_move_matches_the_reference_in_random_and_greedy_play() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x2_3073);
    let default = TwoMoveParams::default();
    let short = TwoMoveParams {
        ply_cap: 40,
        ..Default::default()
    };
    let runs = [(&default, 1, 0.0), (&default, 1, 0.9), (&short, 4, 0.3)];
    let ends = play_openings(OPENINGS, (1000, 250), &runs, |o, p, n, greedy| {
        run(o, p, n, greedy, &mut rng)
    });
    assert!(ends.contains(&"royal-capture"), "{ends:?}");
    assert!(ends.contains(&"cap"), "{ends:?}");
}

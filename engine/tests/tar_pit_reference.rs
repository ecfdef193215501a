//! A slow reference for Tar Pit Chess written from RULES.md ("Tar Pit Chess") and the
//! seed alone, compared with the engine at every decision and chance node of seeded
//! random and greedy games (the referee's view: both hands and the pile are known).
//!
//! The reference keeps its own mailbox position (`common/rules_track.rs`), checkers,
//! fronts, hands, draw and discard piles, and decides:
//! - the chess moves: untarred pieces move orthodox; a tarred pawn (on an enemy checker)
//!   cannot move; another tarred piece moves like a pawn of its colour without the double
//!   step (one square forward onto an empty square, one square diagonally forward onto an
//!   enemy piece, en passant); no castling with a checker on the king or the rook; a move
//!   is legal when the mover's king is not attacked right after it, with tar-aware
//!   attacks (a tarred pawn attacks nothing, another tarred piece only its two
//!   pawn-capture squares; tarred pieces still block); castling also not out of, through
//!   or into such an attack;
//! - the checkers after a move: they travel with their pieces, a capture takes over the
//!   victim's checker, opposite colours cancel (both go back in front of their owners),
//!   same colours repel (one goes back), and an enemy checker never stays under a piece
//!   on its own back rank (the rank where its pawns promote);
//! - the throw (`throw:sq` to an occupied square one king step away, or `pass`) when the
//!   moved piece carries the mover's checker;
//! - the card step: a piece card adds a checker from the mover's front (needs one there)
//!   to a piece matching the card (colour and type), or to any own piece if none
//!   matches; the own checker card puts a box checker in front; the opponent's checker
//!   card makes the opponent return a checker (front or board; automatic when there is
//!   one choice) and discard down to its front (automatic with one kind of card);
//! - the draws: up to the mover's front, from the pile (weighted by its cards), the
//!   discards becoming the pile (`shuffle`) when it runs out;
//! - the end at each turn start: `checkmate` / `stalemate` with no legal move; bare
//!   material (K v K, K + minor v K), the 50-move rule, threefold repetition of board,
//!   checkers and fronts (hands ignored), and the 400-ply cap draw.
//!
//! After every action the engine's board, checkers, fronts, hands and piles must equal
//! the reference's.

use crate::mailbox;
use crate::rules_track;

use engine::game::{Game, Turn};
use engine::variants::tar_pit::{Card, Counts, Phase, TarPit, TarPitAction, TarPitParams, KINDS};
use engine::{Bitboard, Board, Color, Move, MoveKind, Role, Square};
use mailbox::{forward, step, Mailbox, KING_STEPS};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rules_track::{attackers_with, PosKey, Track};

const PLY_CAP: u32 = 400;
const PER_COLOUR: u8 = 12;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum P {
    Deal,
    Move,
    Throw(Square),
    Card,
    Return,
    Discard,
    Draw,
}

type RepKey = (PosKey, Vec<Option<Color>>, [u8; 2]);

#[derive(Clone, Debug)]
struct Ref {
    t: Track,
    ck: [Option<Color>; 64],
    front: [u8; 2],
    hands: [Counts; 2],
    pile: Counts,
    discard: Counts,
    phase: P,
    /// Whose turn it is (the opponent decides returns and discards within it).
    mover: Color,
    reps: Vec<RepKey>,
    /// The reasons the game may have ended at this turn start (empty: it goes on).
    end: Vec<&'static str>,
}

type Key = (u8, u16, u16);

fn key_of(a: TarPitAction) -> Key {
    let sq = |s: Square| s.index() as u16;
    match a {
        TarPitAction::Move(m) => (0, m.code(), 0),
        TarPitAction::Throw(s) => (1, sq(s), 0),
        TarPitAction::Card(c, s) => (2, c.index() as u16, s.map_or(99, sq)),
        TarPitAction::ReturnFront => (3, 99, 0),
        TarPitAction::ReturnAt(s) => (3, sq(s), 0),
        TarPitAction::Discard(c) => (4, c.index() as u16, 0),
        TarPitAction::Draw(c) => (5, c.index() as u16, 0),
        TarPitAction::Shuffle => (6, 0, 0),
        TarPitAction::Pass => (7, 0, 0),
    }
}

fn total(c: &Counts) -> u32 {
    c.iter().map(|&n| n as u32).sum()
}

/// The rank where `c`'s pawns promote.
fn back_rank(c: Color) -> u8 {
    if c == Color::White {
        7
    } else {
        0
    }
}

impl Ref {
    fn new(g: &TarPit) -> Ref {
        let b: &Board = g.board_ref();
        let mut ck = [None; 64];
        for s in Square::all() {
            ck[s.index()] = g.checker_at(s);
        }
        let mut r = Ref {
            t: Track::new(b),
            ck,
            front: [g.front(Color::White), g.front(Color::Black)],
            hands: [*g.hand(Color::White), *g.hand(Color::Black)],
            pile: *g.pile(),
            discard: *g.discard_pile(),
            phase: P::Deal,
            mover: b.turn(),
            reps: Vec::new(),
            end: Vec::new(),
        };
        // A new game deals first; a set-up position (`from_parts`) starts at the move.
        if matches!(g.phase(), Phase::Deal(_)) {
            r.continue_deal();
        } else {
            r.next_turn();
        }
        r
    }

    fn at(&self, s: Square) -> Option<Color> {
        self.ck[s.index()]
    }

    fn tarred(&self, s: Square) -> bool {
        match (self.t.mb.at(s), self.at(s)) {
            (Some(p), Some(c)) => p.color != c,
            _ => false,
        }
    }

    /// Whether `target` is attacked by `by` on `mb` with the checkers `ck` (tar-aware).
    fn attacked(mb: &Mailbox, ck: &[Option<Color>; 64], target: Square, by: Color) -> bool {
        let tarred = |s: Square| ck[s.index()] == Some(by.other());
        !attackers_with(mb, target, by, &tarred, false).is_empty()
    }

    fn in_check(&self, c: Color) -> bool {
        self.t
            .mb
            .king(c)
            .is_some_and(|k| Self::attacked(&self.t.mb, &self.ck, k, c.other()))
    }

    /// The chess moves by the rules.
    fn moves(&self) -> Vec<Move> {
        let us = self.t.turn;
        let them = us.other();
        let mb = &self.t.mb;
        let mut pseudo: Vec<Move> = mb
            .pseudo_moves(us, self.t.ep)
            .into_iter()
            .filter(|m| !self.tarred(m.from()))
            .collect();
        for from in Square::all() {
            let Some(p) = mb.at(from) else { continue };
            if p.color != us || p.role == Role::Pawn || !self.tarred(from) {
                continue;
            }
            let fw = forward(us);
            if let Some(to) = step(from, 0, fw) {
                if mb.at(to).is_none() {
                    pseudo.push(Move::normal(from, to));
                }
            }
            for df in [-1, 1] {
                let Some(to) = step(from, df, fw) else {
                    continue;
                };
                if mb.at(to).is_some_and(|q| q.color == them) {
                    pseudo.push(Move::normal(from, to));
                } else if Some(to) == self.t.ep && mb.at(to).is_none() {
                    pseudo.push(Move::new(from, to, MoveKind::EnPassant));
                }
            }
        }
        // Castling: geometry from the mailbox, then the checkers and tar-aware attacks.
        for m in mb.castling_moves(us, &self.t.rights, false) {
            if self.at(m.from()).is_some() || self.at(m.to()).is_some() {
                continue;
            }
            let (kd, _) = mailbox::castle_dest(us, m.from(), m.to());
            let mut lifted = mb.clone();
            lifted.set(m.from(), None);
            lifted.set(m.to(), None);
            if mailbox::rank_span(m.from(), kd)
                .iter()
                .any(|&s| Self::attacked(&lifted, &self.ck, s, them))
            {
                continue;
            }
            pseudo.push(m);
        }
        pseudo
            .into_iter()
            .filter(|&m| {
                let after = mb.after(m, us);
                // Enemy pieces keep their tar; the victim's checker leaves with it.
                let mut ck = self.ck;
                ck[m.from().index()] = None;
                after
                    .king(us)
                    .is_none_or(|k| !Self::attacked(&after, &ck, k, them))
            })
            .collect()
    }

    fn card_targets(&self, card: Card) -> Vec<Square> {
        let role = card.role().unwrap();
        let matching: Vec<Square> = Square::all()
            .filter(|&s| {
                self.t
                    .mb
                    .at(s)
                    .is_some_and(|p| p.color == card.color() && p.role == role)
            })
            .collect();
        if !matching.is_empty() {
            return matching;
        }
        Square::all()
            .filter(|&s| self.t.mb.at(s).is_some_and(|p| p.color == self.mover))
            .collect()
    }

    fn return_options(&self) -> Vec<Key> {
        let them = self.mover.other();
        let mut v = Vec::new();
        if self.front[them.index()] > 0 {
            v.push((3, 99, 0));
        }
        for s in Square::all() {
            if self.at(s) == Some(them) {
                v.push((3, s.index() as u16, 0));
            }
        }
        v
    }

    fn decisions(&self) -> Vec<Key> {
        let me = self.mover;
        let mut v: Vec<Key> = match self.phase {
            _ if !self.end.is_empty() => Vec::new(),
            P::Move => self.moves().iter().map(|m| (0, m.code(), 0)).collect(),
            P::Throw(at) => {
                let mut v: Vec<Key> = KING_STEPS
                    .iter()
                    .filter_map(|&(f, r)| step(at, f, r))
                    .filter(|&s| self.t.mb.at(s).is_some())
                    .map(|s| (1, s.index() as u16, 0))
                    .collect();
                v.push((7, 0, 0));
                v
            }
            P::Card => {
                let mut v = vec![(7, 0, 0)];
                for i in 0..KINDS {
                    if self.hands[me.index()][i] == 0 {
                        continue;
                    }
                    let card = Card::from_index(i).unwrap();
                    if card.is_checker() {
                        v.push((2, i as u16, 99));
                    } else if self.front[me.index()] > 0 {
                        for s in self.card_targets(card) {
                            v.push((2, i as u16, s.index() as u16));
                        }
                    }
                }
                v
            }
            P::Return => self.return_options(),
            P::Discard => (0..KINDS)
                .filter(|&i| self.hands[me.other().index()][i] > 0)
                .map(|i| (4, i as u16, 0))
                .collect(),
            P::Deal | P::Draw => Vec::new(),
        };
        v.sort_unstable();
        v
    }

    // ----- the flow of a turn ----------------------------------------------------------

    fn continue_deal(&mut self) {
        for c in [Color::White, Color::Black] {
            if total(&self.hands[c.index()]) < self.front[c.index()] as u32 && total(&self.pile) > 0
            {
                self.phase = P::Deal;
                return;
            }
        }
        self.next_turn();
    }

    fn deal_recipient(&self) -> Color {
        if total(&self.hands[0]) < self.front[0] as u32 {
            Color::White
        } else {
            Color::Black
        }
    }

    fn next_turn(&mut self) {
        self.phase = P::Move;
        self.mover = self.t.turn;
        let key: RepKey = (self.t.key(), self.ck.to_vec(), self.front);
        let repeats = self.reps.iter().filter(|k| **k == key).count();
        self.reps.push(key);
        let mut end = Vec::new();
        if self.moves().is_empty() {
            end.push(if self.in_check(self.mover) {
                "checkmate"
            } else {
                "stalemate"
            });
        }
        if self.t.plies >= PLY_CAP {
            end.push("cap");
        }
        if self.t.bare_material() {
            end.push("insufficient-material");
        }
        if self.t.halfmoves >= 100 {
            end.push("fifty-moves");
        }
        if repeats >= 2 {
            end.push("repetition");
        }
        self.end = end;
    }

    /// A checker of `owner` goes back in front of its owner from `s`.
    fn send_home(&mut self, s: Square) {
        if let Some(c) = self.ck[s.index()].take() {
            self.front[c.index()] += 1;
        }
    }

    /// The back-rank rule for the piece on `s`.
    fn cleanse(&mut self, s: Square) {
        if let (Some(p), Some(c)) = (self.t.mb.at(s), self.at(s)) {
            if c != p.color && s.rank() == back_rank(p.color) {
                self.send_home(s);
            }
        }
    }

    /// A checker of `owner` (out of its front or thrown) arrives under the piece on `s`.
    fn arrive(&mut self, owner: Color, s: Square) {
        match self.at(s) {
            None => self.ck[s.index()] = Some(owner),
            Some(c) if c == owner => self.front[owner.index()] += 1,
            Some(_) => {
                self.send_home(s);
                self.front[owner.index()] += 1;
            }
        }
        self.cleanse(s);
    }

    fn enter_card(&mut self) {
        if total(&self.hands[self.mover.index()]) > 0 {
            self.phase = P::Card;
        } else {
            self.enter_draw();
        }
    }

    fn enter_draw(&mut self) {
        let me = self.mover.index();
        if total(&self.hands[me]) < self.front[me] as u32
            && total(&self.pile) + total(&self.discard) > 0
        {
            self.phase = P::Draw;
        } else {
            self.next_turn();
        }
    }

    fn enter_return(&mut self) {
        let opts = self.return_options();
        match opts.len() {
            0 => self.enter_discard(),
            1 => {
                self.do_return(opts[0].1);
                self.enter_discard();
            }
            _ => self.phase = P::Return,
        }
    }

    /// The opponent returns a checker to the box: from in front (99) or from a square.
    fn do_return(&mut self, from: u16) {
        let them = self.mover.other().index();
        if from == 99 {
            self.front[them] -= 1;
        } else {
            self.ck[from as usize] = None;
        }
    }

    fn enter_discard(&mut self) {
        let them = self.mover.other().index();
        if total(&self.hands[them]) <= self.front[them] as u32 {
            return self.enter_draw();
        }
        let kinds: Vec<usize> = (0..KINDS).filter(|&i| self.hands[them][i] > 0).collect();
        if kinds.len() == 1 {
            self.hands[them][kinds[0]] -= 1;
            self.discard[kinds[0]] += 1;
            self.enter_discard();
        } else {
            self.phase = P::Discard;
        }
    }

    fn apply_move(&mut self, m: Move) {
        let from = m.from();
        let to = m.to();
        if m.kind() == MoveKind::Castle {
            self.t.play(m);
            return self.enter_card();
        }
        let victim_sq = if m.kind() == MoveKind::EnPassant {
            Some(Square::from_coords(to.file(), from.rank()))
        } else {
            self.t.mb.at(to).map(|_| to)
        };
        let mine = self.ck[from.index()].take();
        let theirs = victim_sq.and_then(|s| self.ck[s.index()].take());
        self.t.play(m);
        match (mine, theirs) {
            (None, None) => {}
            (Some(c), None) | (None, Some(c)) => self.ck[to.index()] = Some(c),
            (Some(a), Some(b)) if a == b => {
                self.ck[to.index()] = Some(a);
                self.front[a.index()] += 1;
            }
            (Some(_), Some(_)) => {
                self.front[0] += 1;
                self.front[1] += 1;
            }
        }
        self.cleanse(to);
        let neighbours = KING_STEPS
            .iter()
            .filter_map(|&(f, r)| step(to, f, r))
            .any(|s| self.t.mb.at(s).is_some());
        if self.at(to) == Some(self.mover) && neighbours {
            self.phase = P::Throw(to);
        } else {
            self.enter_card();
        }
    }

    fn apply(&mut self, a: TarPitAction) {
        let me = self.mover;
        let them = me.other();
        match (self.phase, a) {
            (P::Deal, TarPitAction::Draw(c)) => {
                let to = self.deal_recipient();
                self.pile[c.index()] -= 1;
                self.hands[to.index()][c.index()] += 1;
                self.continue_deal();
            }
            (P::Move, TarPitAction::Move(m)) => self.apply_move(m),
            (P::Throw(at), TarPitAction::Throw(s)) => {
                self.ck[at.index()] = None;
                self.arrive(me, s);
                self.enter_card();
            }
            (P::Throw(_), TarPitAction::Pass) => self.enter_card(),
            (P::Card, TarPitAction::Pass) => self.enter_draw(),
            (P::Card, TarPitAction::Card(card, target)) => {
                self.hands[me.index()][card.index()] -= 1;
                self.discard[card.index()] += 1;
                match target {
                    Some(s) => {
                        self.front[me.index()] -= 1;
                        self.arrive(me, s);
                        self.enter_draw();
                    }
                    None if card.color() == me => {
                        let on_board = self.ck.iter().filter(|c| **c == Some(me)).count() as u8;
                        if PER_COLOUR > self.front[me.index()] + on_board {
                            self.front[me.index()] += 1;
                        }
                        self.enter_draw();
                    }
                    None => self.enter_return(),
                }
            }
            (P::Return, TarPitAction::ReturnFront) => {
                self.do_return(99);
                self.enter_discard();
            }
            (P::Return, TarPitAction::ReturnAt(s)) => {
                self.do_return(s.index() as u16);
                self.enter_discard();
            }
            (P::Discard, TarPitAction::Discard(c)) => {
                self.hands[them.index()][c.index()] -= 1;
                self.discard[c.index()] += 1;
                self.enter_discard();
            }
            (P::Draw, TarPitAction::Draw(c)) => {
                self.pile[c.index()] -= 1;
                self.hands[me.index()][c.index()] += 1;
                self.enter_draw();
            }
            (P::Draw, TarPitAction::Shuffle) => {
                self.pile = self.discard;
                self.discard = [0; KINDS];
                self.enter_draw();
            }
            (p, a) => panic!("reference: {a:?} in phase {p:?}"),
        }
    }

    fn chance(&self) -> Vec<(Key, f64)> {
        let n = total(&self.pile);
        if n == 0 {
            return vec![((6, 0, 0), 1.0)];
        }
        (0..KINDS)
            .filter(|&i| self.pile[i] > 0)
            .map(|i| ((5, i as u16, 0), self.pile[i] as f64 / n as f64))
            .collect()
    }
}

#[derive(Default, Debug)]
struct Seen {
    plies: u32,
    decisions: u32,
    tarred_moves: u32,
    throws: u32,
    returns_and_discards: u32,
    ends: Vec<&'static str>,
}

fn play_game(mut g: TarPit, rng: &mut Pcg64Mcg, greedy: bool, seen: &mut Seen) {
    let mut r = Ref::new(&g);
    let mut acts = Vec::new();
    let mut outs = Vec::new();
    loop {
        let fen_now = g.board_ref().fen();
        let action = match g.turn() {
            Turn::Terminal => {
                let res = g.result().unwrap();
                assert!(
                    r.end.contains(&res.reason),
                    "{fen_now}: engine ended with {} but the rules say {:?}",
                    res.reason,
                    r.end
                );
                seen.ends.push(res.reason);
                seen.plies += r.t.plies;
                return;
            }
            Turn::Chance => {
                assert!(r.end.is_empty() && matches!(r.phase, P::Deal | P::Draw));
                g.chance_outcomes(&mut outs);
                let ours: Vec<(Key, f64)> = outs.iter().map(|&(a, p)| (key_of(a), p)).collect();
                let reference = r.chance();
                assert_eq!(
                    ours.len(),
                    reference.len(),
                    "{fen_now}: {ours:?} {reference:?}"
                );
                for (a, b) in ours.iter().zip(&reference) {
                    assert_eq!(a.0, b.0, "{fen_now}");
                    assert!((a.1 - b.1).abs() < 1e-12, "{fen_now}");
                }
                outs[engine::random::sample_index(&outs, rng)].0
            }
            Turn::Seat(s) => {
                assert!(r.end.is_empty(), "{fen_now}: should be over: {:?}", r.end);
                let actor = match r.phase {
                    P::Return | P::Discard => r.mover.other(),
                    _ => r.mover,
                };
                assert_eq!(s, actor.index(), "{fen_now} {:?}", r.phase);
                g.legal_actions(s, &mut acts);
                let mut ours: Vec<Key> = acts.iter().map(|&a| key_of(a)).collect();
                ours.sort_unstable();
                let reference = r.decisions();
                if ours != reference {
                    let extra: Vec<_> = ours.iter().filter(|k| !reference.contains(k)).collect();
                    let missing: Vec<_> = reference.iter().filter(|k| !ours.contains(k)).collect();
                    panic!(
                        "{fen_now} ({:?}, checkers {:?}): decisions differ\n  engine only: \
                         {extra:?}\n  reference only: {missing:?}",
                        r.phase,
                        Square::all()
                            .filter_map(|s| r.at(s).map(|c| format!("{s}:{c:?}")))
                            .collect::<Vec<_>>()
                    );
                }
                seen.decisions += 1;
                match r.phase {
                    P::Throw(_) => seen.throws += 1,
                    P::Return | P::Discard => seen.returns_and_discards += 1,
                    P::Move => {
                        seen.tarred_moves += acts
                            .iter()
                            .filter(|a| match a {
                                TarPitAction::Move(m) => r.tarred(m.from()),
                                _ => false,
                            })
                            .count() as u32
                    }
                    _ => {}
                }
                choose(&r, &acts, greedy, rng)
            }
            other => panic!("{fen_now}: unexpected turn {other:?}"),
        };
        r.apply(action);
        g.apply(action);
        assert_eq!(
            Mailbox::of(g.board_ref()),
            r.t.mb,
            "{fen_now}: board after {action:?}"
        );
        for c in [Color::White, Color::Black] {
            let ours: Bitboard = Square::all().filter(|&s| r.at(s) == Some(c)).collect();
            assert_eq!(
                g.checkers(c),
                ours,
                "{fen_now}: {c:?} checkers after {action:?}"
            );
            assert_eq!(
                g.front(c),
                r.front[c.index()],
                "{fen_now}: front after {action:?}"
            );
            assert_eq!(
                g.hand(c),
                &r.hands[c.index()],
                "{fen_now}: hand after {action:?}"
            );
        }
        assert_eq!(g.pile(), &r.pile);
        assert_eq!(g.discard_pile(), &r.discard);
        let phase_ok = match (g.phase(), r.phase) {
            (Phase::Deal(_), P::Deal) | (Phase::Move, P::Move) | (Phase::Card, P::Card) => true,
            (Phase::Return, P::Return) | (Phase::Discard, P::Discard) => true,
            (Phase::Draw, P::Draw) => true,
            (Phase::Throw { at }, P::Throw(s)) => at == s,
            _ => false,
        };
        assert!(
            phase_ok,
            "{fen_now}: phase {:?} vs {:?}",
            g.phase(),
            r.phase
        );
    }
}

/// Greedy play: mate or capture, else a move that checks; cards and throws onto enemy
/// pieces; otherwise at random.
fn choose(r: &Ref, acts: &[TarPitAction], greedy: bool, rng: &mut Pcg64Mcg) -> TarPitAction {
    let any = |rng: &mut Pcg64Mcg| acts[rng.gen_range(0..acts.len())];
    if !greedy || rng.gen_bool(0.2) {
        return any(rng);
    }
    let enemy = |s: Square| r.t.mb.at(s).is_some_and(|p| p.color != r.mover);
    let score = |a: &TarPitAction| -> u32 {
        match *a {
            TarPitAction::Move(m) => {
                if r.t.mb.at(m.to()).is_some() {
                    2
                } else {
                    let after = r.t.mb.after(m, r.mover);
                    after.in_check(r.mover.other()) as u32
                }
            }
            TarPitAction::Throw(s) | TarPitAction::Card(_, Some(s)) => enemy(s) as u32 * 2,
            TarPitAction::Card(_, None) => 1,
            _ => 0,
        }
    };
    let best = acts.iter().map(score).max().unwrap_or(0);
    let top: Vec<_> = acts.iter().copied().filter(|a| score(a) == best).collect();
    top[rng.gen_range(0..top.len())]
}

fn squares(list: &str) -> Bitboard {
    list.split_whitespace()
        .map(|s| Square::parse(s).unwrap())
        .collect()
}

/// FEN, white and black checkers (squares), fronts, hands (letters).
type SetUp = (
    &'static str,
    &'static str,
    &'static str,
    [u8; 2],
    [&'static str; 2],
);

/// A set-up position: FEN, white and black checkers, fronts, hands (letters).
fn setup(fen: &str, white: &str, black: &str, front: [u8; 2], hands: [&str; 2]) -> TarPit {
    let hand = |letters: &str| {
        let mut c = [0u8; KINDS];
        for ch in letters.chars() {
            c[Card::from_letter(ch).unwrap().index()] += 1;
        }
        c
    };
    TarPit::from_parts(
        Board::from_fen(fen).unwrap(),
        TarPitParams::default(),
        [squares(white), squares(black)],
        front,
        [hand(hands[0]), hand(hands[1])],
        [0; KINDS],
    )
}

#[test]
fn tar_pit_matches_the_reference_in_random_games() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x7a_0001);
    let mut seen = Seen::default();
    while seen.plies < 2500 {
        play_game(
            TarPit::new(&TarPitParams::default()),
            &mut rng,
            false,
            &mut seen,
        );
    }
    eprintln!("tar pit random: {seen:?}");
    assert!(seen.tarred_moves > 100);
}

#[test]
fn tar_pit_matches_the_reference_in_greedy_games_and_set_ups() {
    let mut rng = Pcg64Mcg::seed_from_u64(0x7a_0002);
    let mut seen = Seen::default();
    while seen.plies < 1500 {
        play_game(
            TarPit::new(&TarPitParams::default()),
            &mut rng,
            true,
            &mut seen,
        );
    }
    let setups: &[SetUp] = &[
        // The seed's worked example.
        (
            "6k1/8/3n4/5p2/4P1P1/5P2/8/6K1 b - - 0 1",
            "f5",
            "e4",
            [6, 5],
            ["PPNBRQ", "npbr"],
        ),
        // Tarred attackers around the kings: a tarred rook checks only like a pawn.
        (
            "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
            "d2",
            "",
            [5, 6],
            ["CcN", "cCr"],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "a8",
            "h1",
            [5, 5],
            ["Ccqr", "cCQR"],
        ),
        // Tarred pieces near the back rank and en passant for tarred pieces.
        (
            "4k3/8/8/3pP3/8/8/1n6/4K3 w - d6 0 2",
            "b2",
            "e5",
            [5, 5],
            ["PpN", "pPn"],
        ),
        // Two bishops on one colour play on.
        (
            "4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1",
            "",
            "",
            [6, 6],
            ["BBK", "kcC"],
        ),
    ];
    for _ in 0..4 {
        for &(fen, w, b, front, hands) in setups {
            play_game(setup(fen, w, b, front, hands), &mut rng, true, &mut seen);
            play_game(setup(fen, w, b, front, hands), &mut rng, false, &mut seen);
        }
    }
    eprintln!("tar pit greedy and set-ups: {seen:?}");
    assert!(seen.throws > 20 && seen.returns_and_discards > 5);
    assert!(seen.ends.contains(&"checkmate"));
}

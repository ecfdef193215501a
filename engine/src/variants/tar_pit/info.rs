//! What a Tar Pit seat sees, and worlds consistent with it.
//!
//! A seat sees the board, the checkers, both fronts, its own hand, the discard pile and
//! every action, except which card the opponent draws (`draw:?`). The hidden part of a
//! state is the opponent's hand and the draw pile.
//!
//! Why this is tractable: the game falls into epochs between reshuffles. At a reshuffle
//! the draw pile is empty, so the opponent's hand is everything the seat does not hold
//! and does not see in the discard pile: it is known exactly, and so is the new pile (the
//! old discards). Within an epoch, the seat knows the pile it started from, its own draws
//! from it, how many cards the opponent drew and when, and every card the opponent played
//! or discarded. (Epoch 0 starts before the deal from the whole deck; a position set up
//! by hand starts with the opponent's hand as unknown draws from the cards the seat does
//! not see.)
//!
//! `sample_world` deals, epoch by epoch, the opponent's draws: a card the opponent gives
//! up comes from what it surely held if it surely held one, else from one of its earlier
//! draws of that epoch, picked at random; the remaining draws are dealt at random from
//! the cards of the epoch's pile nobody else took. A deal is kept only if it also explains
//! the opponent's discards (a chosen discard needs two kinds in hand, a forced one a hand
//! of one kind; rejection, up to 64 tries). The result never contradicts the record
//! (every opponent card play or discard was in its hand at the time, every draw came from
//! the pile: the sampled world's record is rewritten to match and replays, see
//! `engine/tests/tar_pit_info.rs`), and it is computed from the seat's view alone, so
//! its distribution does not depend on the hidden truth. Decision: it is not the exact
//! posterior, which would also weigh deals by how many orders of the draws fit the
//! record; a searcher that samples many worlds is not misled by anything it could know.
//!
//! In the open-hands twin (`TarPitParams::open_hands`) nothing is hidden: the
//! observation shows both hands, the pile's cards and every draw, and `sample_world`
//! is not called here (the game returns the state itself).

use super::{cards, next_view, Card, Core, Counts, Phase, TarPit, TarPitAction, KINDS};
use crate::square::Color;
use rand::{Rng, RngCore};

/// An event of an epoch as the seat sees it.
#[derive(Clone, Copy, Debug)]
enum Ev {
    /// The opponent drew a card (record index, or `usize::MAX - j` for the j-th card of
    /// a hand set up by hand).
    Slot(usize),
    /// The opponent gave up a card of this kind.
    Remove(usize),
}

struct Epoch {
    known: Counts,
    pool: Counts,
    events: Vec<Ev>,
}

fn add(a: &mut Counts, b: &Counts) {
    for k in 0..KINDS {
        a[k] += b[k];
    }
}

fn sub(a: &mut Counts, b: &Counts) {
    for k in 0..KINDS {
        a[k] = a[k].saturating_sub(b[k]);
    }
}

/// Draws a kind from `pool` uniformly over its cards and removes it.
fn draw(pool: &mut Counts, rng: &mut dyn RngCore) -> Option<usize> {
    let n = cards::total(pool);
    if n == 0 {
        return None;
    }
    let mut x = rng.gen_range(0..n);
    for (k, n) in pool.iter_mut().enumerate() {
        if x < *n as u32 {
            *n -= 1;
            return Some(k);
        }
        x -= *n as u32;
    }
    None
}

/// The cards of every kind in the game (hands, piles) at the start.
fn all_cards(start: &Core) -> Counts {
    let mut all = start.pile;
    add(&mut all, &start.discard);
    add(&mut all, &start.hands[0]);
    add(&mut all, &start.hands[1]);
    all
}

/// Cards the opponent gave up in record `i` (the state after it is `after`), as the
/// seat `me` sees them, each with whether it was a forced discard (the rules skip the
/// decision when the hand holds one kind only).
fn removals(g: &TarPit, i: usize, after: &Core, me: Color, out: &mut Vec<(usize, bool)>) {
    let rec = &g.records[i];
    let opp = me.other();
    if matches!(rec.action, TarPitAction::Shuffle) {
        return;
    }
    let mut explained = [0u8; KINDS];
    match rec.action {
        TarPitAction::Card(c, _) => {
            explained[c.index()] += 1;
            if rec.actor == opp {
                out.push((c.index(), false));
            }
        }
        TarPitAction::Discard(c) => {
            explained[c.index()] += 1;
            if rec.actor == opp {
                out.push((c.index(), false));
            }
        }
        _ => {}
    }
    // Forced discards happen inside another action; the discard pile shows them. They
    // are the cards of the mover's opponent.
    if rec.before.mover == me {
        for (k, &known) in explained.iter().enumerate() {
            let delta = after.discard[k].saturating_sub(rec.before.discard[k]);
            for _ in known..delta {
                out.push((k, true));
            }
        }
    }
}

fn epochs(g: &TarPit, me: Color) -> Vec<Epoch> {
    let opp = me.other();
    let all = all_cards(&g.start);
    let mut pool0 = all;
    sub(&mut pool0, &g.start.hands[me.index()]);
    sub(&mut pool0, &g.start.discard);
    let mut first = Epoch {
        known: [0; KINDS],
        pool: pool0,
        events: Vec::new(),
    };
    let initial = cards::total(&g.start.hands[opp.index()]) as usize;
    for j in 0..initial {
        first.events.push(Ev::Slot(usize::MAX - j));
    }
    let mut out = vec![first];
    let mut gone = Vec::new();
    for (i, rec) in g.records.iter().enumerate() {
        let after = g.records.get(i + 1).map_or(&g.core, |r| &r.before);
        match rec.action {
            TarPitAction::Shuffle => {
                let mut known = all;
                sub(&mut known, &rec.before.hands[me.index()]);
                sub(&mut known, &rec.before.discard);
                out.push(Epoch {
                    known,
                    pool: rec.before.discard,
                    events: Vec::new(),
                });
            }
            TarPitAction::Draw(c) => {
                let e = out.last_mut().expect("an epoch");
                if rec.actor == me {
                    e.pool[c.index()] = e.pool[c.index()].saturating_sub(1);
                } else {
                    e.events.push(Ev::Slot(i));
                }
            }
            _ => {
                gone.clear();
                removals(g, i, after, me, &mut gone);
                let e = out.last_mut().expect("an epoch");
                e.events.extend(gone.iter().map(|&(k, _)| Ev::Remove(k)));
            }
        }
    }
    out
}

/// Deals every opponent draw of the record: slot id -> card kind.
fn deal(g: &TarPit, me: Color, rng: &mut dyn RngCore) -> Vec<(usize, usize)> {
    let mut dealt = Vec::new();
    for e in epochs(g, me) {
        let mut known = e.known;
        let mut pool = e.pool;
        let mut free: Vec<usize> = Vec::new();
        for ev in e.events {
            match ev {
                Ev::Slot(id) => free.push(id),
                Ev::Remove(k) if known[k] > 0 => known[k] -= 1,
                Ev::Remove(k) => {
                    if free.is_empty() {
                        continue; // cannot happen for a record the rules produced
                    }
                    let j = rng.gen_range(0..free.len());
                    let id = free.swap_remove(j);
                    pool[k] = pool[k].saturating_sub(1);
                    dealt.push((id, k));
                }
            }
        }
        // The rest of the epoch's draws, in draw order, from what nobody else took.
        free.sort_unstable_by_key(|&id| if id >= usize::MAX - 64 { 0 } else { id + 1 });
        for id in free {
            if let Some(k) = draw(&mut pool, rng) {
                dealt.push((id, k));
            }
        }
    }
    dealt
}

/// Deals until the deal also explains the opponent's discards: a discard it chose means
/// a hand of two kinds or more, a forced one a hand of one kind (rejection, so the rule
/// conditions exactly on these events; after `TRIES` failures the last deal is kept).
pub(super) fn sample_world(g: &TarPit, me: Color, rng: &mut dyn RngCore) -> TarPit {
    const TRIES: usize = 64;
    let mut last = None;
    for _ in 0..TRIES {
        let dealt = deal(g, me, rng);
        let (w, fits) = build(g, me, &dealt);
        if fits {
            return w;
        }
        last = Some(w);
    }
    last.expect("at least one try")
}

fn kinds(hand: &Counts) -> usize {
    hand.iter().filter(|&&n| n > 0).count()
}

fn build(g: &TarPit, me: Color, dealt: &[(usize, usize)]) -> (TarPit, bool) {
    let opp = me.other();
    let mut fits = true;
    let card_of = |id: usize| dealt.iter().find(|&&(s, _)| s == id).map(|&(_, k)| k);
    let mut w = g.clone();
    // The opponent's hand and the pile at the start.
    let mut hand = [0u8; KINDS];
    let initial = cards::total(&g.start.hands[opp.index()]) as usize;
    for j in 0..initial {
        if let Some(k) = card_of(usize::MAX - j) {
            hand[k] += 1;
        }
    }
    let mut pile = g.start.pile;
    add(&mut pile, &g.start.hands[opp.index()]);
    sub(&mut pile, &hand);
    w.start.hands[opp.index()] = hand;
    w.start.pile = pile;
    let mut gone = Vec::new();
    // The views are rebuilt too: the opponent's own view holds the cards it drew.
    let mut view = g.start.view;
    for i in 0..g.records.len() {
        let after = g.records.get(i + 1).map_or(&g.core, |r| &r.before);
        let rec = &mut w.records[i];
        rec.before.hands[opp.index()] = hand;
        rec.before.pile = pile;
        rec.before.view = view;
        match rec.action {
            TarPitAction::Draw(c) if rec.actor == me => {
                pile[c.index()] = pile[c.index()].saturating_sub(1);
            }
            TarPitAction::Draw(_) => {
                let k = card_of(i).unwrap_or(0);
                rec.action = TarPitAction::Draw(Card::from_index(k).expect("a kind"));
                pile[k] = pile[k].saturating_sub(1);
                hand[k] += 1;
            }
            TarPitAction::Shuffle => {
                pile = rec.before.discard;
            }
            _ => {
                gone.clear();
                removals(g, i, after, me, &mut gone);
                for &(k, forced) in &gone {
                    fits &= if forced {
                        kinds(&hand) == 1
                    } else {
                        !matches!(rec.action, TarPitAction::Discard(_)) || kinds(&hand) >= 2
                    };
                    hand[k] = hand[k].saturating_sub(1);
                }
            }
        }
        next_view(&mut view, rec.action, rec.actor);
    }
    w.core.view = view;
    w.core.hands[opp.index()] = hand;
    w.core.pile = pile;
    (w, fits)
}

/// `a` as `viewer` saw it; with `open` (the open-hands twin) every draw is seen.
fn action_text(a: TarPitAction, viewer: Color, actor: Color, open: bool) -> String {
    match a {
        TarPitAction::Move(m) => {
            let promo = m
                .promotion()
                .map_or(String::new(), |r| r.char().to_string());
            format!("{}{}{promo}", m.from(), m.to())
        }
        TarPitAction::Draw(_) if actor != viewer && !open => "draw:?".into(),
        TarPitAction::Throw(s) => format!("throw:{s}"),
        TarPitAction::Card(c, Some(s)) => format!("card:{c}@{s}"),
        TarPitAction::Card(c, None) => format!("card:{c}"),
        TarPitAction::ReturnFront => "return:front".into(),
        TarPitAction::ReturnAt(s) => format!("return:{s}"),
        TarPitAction::Discard(c) => format!("discard:{c}"),
        TarPitAction::Draw(c) => format!("draw:{c}"),
        TarPitAction::Shuffle => "shuffle".into(),
        TarPitAction::Pass => "pass".into(),
    }
}

pub(super) fn observation(g: &TarPit, me: Color) -> String {
    let opp = me.other();
    let c = &g.core;
    let open = g.params.open_hands;
    // The twin shows the opponent's hand and the pile's cards; the seed's game counts them.
    let (their_hand, pile) = if open {
        (
            cards::describe(&c.hands[opp.index()]),
            cards::describe(&c.pile),
        )
    } else {
        (
            format!("{} cards", cards::total(&c.hands[opp.index()])),
            format!("{} cards", cards::total(&c.pile)),
        )
    };
    let list = |col: Color| {
        let v: Vec<String> = c.checkers[col.index()].map(|s| s.to_string()).collect();
        if v.is_empty() {
            "-".into()
        } else {
            v.join(",")
        }
    };
    let phase = match c.phase {
        Phase::Deal(col) => format!("dealing to {}", col.name()),
        Phase::Move => format!("{} to move", c.mover.name()),
        Phase::Throw { at } => format!("{} may throw from {at}", c.mover.name()),
        Phase::Card => format!("{} may play a card", c.mover.name()),
        Phase::Return => format!("{} returns a checker", c.mover.other().name()),
        Phase::Discard => format!("{} discards", c.mover.other().name()),
        Phase::Draw => format!("{} draws", c.mover.name()),
    };
    let log: Vec<String> = g
        .records
        .iter()
        .map(|r| action_text(r.action, me, r.actor, open))
        .collect();
    format!(
        "{} | {phase} | checkers white: {} black: {} | front white {} black {} | you are {}; \
         your hand: {} | {}'s hand: {their_hand} | draw pile: {pile} | discards: {} | log: {}",
        g.board.fen(),
        list(Color::White),
        list(Color::Black),
        c.front[0],
        c.front[1],
        me.name(),
        cards::describe(&c.hands[me.index()]),
        opp.name(),
        cards::describe(&c.discard),
        if log.is_empty() {
            "-".into()
        } else {
            log.join(" ")
        }
    )
}

//! The per-game tallies `chesslab balance` reads (`Game::tallies`).

use super::*;

/// Per game and side (`white_*`, `black_*`): `earned` (Zorkmids from guesses),
/// `earned_per_move` (per opponent turn guessed on), `guesses_{kind}` and
/// `hits_{kind}` (kinds: piece, destination, buy, buy_square, extra, retraction, flat),
/// `drops`, `drops_{type}`, `bought_moves`, `retractions` (forced on the opponent),
/// `spent`, `purchases` (turns with any spending by the side), `moves` (own turns),
/// `moves_between_purchases` (own turns per purchase turn; left out without purchases).
pub(super) fn tally(g: &Clairvoyant) -> Vec<(String, f64)> {
    #[derive(Default, Clone)]
    struct Side {
        earned: f64,
        guessed_turns: f64,
        moves: f64,
        guesses: [f64; 7],
        hits: [f64; 7],
        drops: [f64; 6],
        bought: f64,
        retractions: f64,
        spent: f64,
        purchase_turns: f64,
        spent_this_turn: bool,
    }
    let mut sides = [Side::default(), Side::default()];
    let kind_index = |k: ScoreKind| ScoreKind::ALL.iter().position(|&x| x == k).unwrap_or(0);
    let mut flat_turn = false;
    for e in &g.log {
        match *e {
            Entry::Guess { by, guess } => {
                sides[by.index()].guesses[kind_index(guess.kind())] += 1.0
            }
            Entry::RetractGuess { by } => {
                sides[by.index()].guesses[kind_index(ScoreKind::Retraction)] += 1.0
            }
            Entry::Drop { by, role, cost, .. } => {
                let s = &mut sides[by.index()];
                s.drops[role.index()] += 1.0;
                s.spent += cost as f64;
                s.spent_this_turn = true;
            }
            Entry::Move { by, m } if m.bought => {
                let s = &mut sides[by.index()];
                s.bought += 1.0;
                s.spent += m.cost as f64;
                s.spent_this_turn = true;
            }
            Entry::Retraction { by, cost } => {
                let s = &mut sides[by.index()];
                s.retractions += 1.0;
                s.spent += cost as f64;
                s.spent_this_turn = true;
            }
            Entry::Score { to, kind, amount } => {
                let s = &mut sides[to.index()];
                s.earned += amount as f64;
                s.hits[kind_index(kind)] += 1.0;
                if kind == ScoreKind::Flat {
                    flat_turn = true;
                }
            }
            Entry::TurnEnd { mover } => {
                sides[mover.index()].moves += 1.0;
                sides[mover.other().index()].guessed_turns += 1.0;
                if flat_turn {
                    sides[mover.other().index()].guesses[kind_index(ScoreKind::Flat)] += 1.0;
                }
                flat_turn = false;
                for s in sides.iter_mut() {
                    if s.spent_this_turn {
                        s.purchase_turns += 1.0;
                    }
                    s.spent_this_turn = false;
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (c, side) in ["white", "black"].iter().enumerate() {
        let s = &sides[c];
        out.push((format!("{side}_earned"), s.earned));
        if s.guessed_turns > 0.0 {
            out.push((
                format!("{side}_earned_per_move"),
                s.earned / s.guessed_turns,
            ));
        }
        for (i, k) in ScoreKind::ALL.iter().enumerate() {
            out.push((format!("{side}_guesses_{}", k.name()), s.guesses[i]));
            out.push((format!("{side}_hits_{}", k.name()), s.hits[i]));
            // A rate only where the kind was guessed, so games without it do not
            // count as misses.
            if s.guesses[i] > 0.0 {
                out.push((
                    format!("{side}_hit_rate_{}", k.name()),
                    s.hits[i] / s.guesses[i],
                ));
            }
        }
        let (guessed, hit): (f64, f64) = (s.guesses.iter().sum(), s.hits.iter().sum());
        if guessed > 0.0 {
            out.push((format!("{side}_hit_rate"), hit / guessed));
        }
        out.push((format!("{side}_drops"), s.drops.iter().sum()));
        for r in Role::ALL {
            out.push((
                format!("{side}_drops_{}", tables::role_name(r)),
                s.drops[r.index()],
            ));
        }
        out.push((format!("{side}_bought_moves"), s.bought));
        out.push((format!("{side}_retractions"), s.retractions));
        out.push((format!("{side}_spent"), s.spent));
        out.push((format!("{side}_purchases"), s.purchase_turns));
        out.push((format!("{side}_moves"), s.moves));
        if s.purchase_turns > 0.0 {
            out.push((
                format!("{side}_moves_between_purchases"),
                s.moves / s.purchase_turns,
            ));
        }
        out.push((format!("{side}_balance"), g.s.balance[c] as f64));
    }
    out
}

//! What an agent does with a game (or a node) its own method does not fit: the one place
//! that decides "this game -> UCT or PIMC", and the one place that refuses a game an
//! agent cannot play at all ([`supports`], a typed [`AgentError::Unsupported`] from
//! [`crate::registry::build`]) instead of letting the agent quietly become another one.
//!
//! | agent | hidden information | not its own seat's turn (simultaneous) | seats not two sides |
//! | --- | --- | --- | --- |
//! | `alphabeta` | PIMC (`worlds`; `iters`, `nodes`, `time_ms` for the whole decision, 200 iterations a world by default) | the one-turn matrix game of two acting sides (`alphabeta::matrix`); UCT otherwise | refused |
//! | `expectimax` | PIMC (10 worlds; the budget for the whole decision, 200 iterations a world by default) | UCT | refused (needs exactly two seats) |
//! | `mcts` | single-observer ISMCTS | its own decoupled UCT | – |
//! | `smmcts` | its own search on worlds drawn from the seat's information (4 worlds, the budget split) | its own | – |
//! | `ismcts` | its own | UCT on one sampled world | – |
//! | `pimc` | its own | UCT on one sampled world | – |
//! | `greedy` | moves judged in one sampled world | uniform random | – |
//! | `random` | legal actions only | uniform random | – |
//! | `clairvoyant` | the seat's own view (its variant only) | – | – |
//! | `cheat` | reads the true state (a reference; refused by the board for human seats) | its own decoupled UCT | – |
//!
//! The UCT and PIMC fallbacks play random playouts to the end with the default
//! configuration, so they read no evaluation weights: `eval.*` given to `alphabeta` or
//! `expectimax` has no effect on the decisions routed here (the values confirmation
//! matches on hidden-information and simultaneous games therefore play `ismcts` or
//! `smmcts` with a `cutoff`, where the weights score the cut-off position).
//!
//! On perfect information `ismcts` and `pimc` search the one world there is: UCT, by
//! their own definition rather than by a fallback. `cheat` reads the true state by design;
//! every other agent decides from the seat's information only, which the registry states
//! per agent (`crate::registry::Reads`) and `agents/tests/own_information.rs` checks.
//!
//! Facts read. Each question the table asks is one function below ([`hidden_information`],
//! [`two_teams`], [`two_seats`], [`own_turn`]), reading what the `Game` trait offers today
//! (`is_perfect_information()`, `num_seats()`, `team()`, `turn()`). Routes are asked of
//! the state at each decision (information may depend on the variant's parameters);
//! [`supports`] is asked at build time of a probe game with default parameters
//! ([`probe`]), since seats and teams do not depend on parameters. When game facts land on
//! `Game`, each of the first three becomes a one-line read of them (`information`,
//! `utility`/`seats`); `own_turn` stays a question about the state.
//!
//! Decision where the issue texts are silent: refusing is kept for "the method has no
//! meaning here" (a two-sided search on seats that are not two sides); hidden
//! information and simultaneous nodes keep their documented fallbacks, which every
//! recorded run so far relies on. Tests: `rule_fallback_*` below and in `registry`.

use crate::spec::AgentError;
use engine::game::{Game, Information, Seat, Turn, MAX_SEATS};

/// Where a decision goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// The agent's own search.
    Own,
    /// UCT on the state as given (perfect information).
    Uct,
    /// UCT on sampled worlds with voting.
    Pimc,
    /// Single-observer ISMCTS.
    IsMcts,
    /// The one-turn matrix game of a simultaneous node, its cells searched by the
    /// agent's own alpha-beta (`crate::alphabeta::matrix`).
    Matrix,
}

/// Whether seats know less than the full state.
#[inline]
pub fn hidden_information<G: Game>(game: &G) -> bool {
    game.facts().information == Information::Imperfect
}

/// The lowest seat of each seat's team, when the seats of `game` form exactly two teams.
pub fn two_teams<G: Game>(game: &G) -> Option<[Seat; MAX_SEATS]> {
    let n = game.num_seats();
    if !(2..=MAX_SEATS).contains(&n) {
        return None;
    }
    let mut side = [0; MAX_SEATS];
    let mut leaders = 0;
    for (s, lead) in side.iter_mut().enumerate().take(n) {
        let t = game.team(s);
        *lead = (0..s).find(|&o| game.team(o) == t).unwrap_or(s);
        if *lead == s {
            leaders += 1;
        }
    }
    (leaders == 2).then_some(side)
}

/// Whether the game has exactly two seats.
#[inline]
pub fn two_seats<G: Game>(game: &G) -> bool {
    game.facts().seats == 2
}

/// Whether `seat` alone is to act at this state (not a simultaneous node).
#[inline]
pub fn own_turn<G: Game>(game: &G, seat: Seat) -> bool {
    game.turn() == Turn::Seat(seat)
}

/// Whether `game` is at a simultaneous node where `seat` and exactly one seat of the
/// other side act.
pub fn simultaneous_pair<G: Game>(game: &G, seat: Seat) -> bool {
    if game.turn() != Turn::Simultaneous {
        return false;
    }
    let seats = game.simultaneous_seats();
    match (two_teams(game), seats.as_slice()) {
        (Some(side), &[a, b]) => (a == seat || b == seat) && side[a] != side[b],
        _ => false,
    }
}

/// A game of type `G` to ask the facts of: the start with default parameters.
pub fn probe<G: Game>() -> G {
    G::new(&G::Params::default())
}

/// `alphabeta`'s route at `game` for `seat`.
pub fn alphabeta<G: Game>(game: &G, seat: Seat) -> Route {
    if hidden_information(game) {
        Route::Pimc
    } else if simultaneous_pair(game, seat) {
        Route::Matrix
    } else if !own_turn(game, seat) || two_teams(game).is_none() {
        // Seats that are not two sides only reach here when the agent was built outside
        // the registry (which refuses them).
        Route::Uct
    } else {
        Route::Own
    }
}

/// `expectimax`'s route at `game` for `seat`.
pub fn expectimax<G: Game>(game: &G, seat: Seat) -> Route {
    if hidden_information(game) {
        Route::Pimc
    } else if !own_turn(game, seat) || !two_seats(game) {
        Route::Uct
    } else {
        Route::Own
    }
}

/// What the registry's `mcts` agent plays at `game`: UCT, or ISMCTS on hidden
/// information.
pub fn mcts<G: Game>(game: &G) -> Route {
    if hidden_information(game) {
        Route::IsMcts
    } else {
        Route::Uct
    }
}

/// `smmcts`'s route at `game` (and `mcts` built outside the registry): UCT on the state
/// when nothing is hidden, else a search of worlds drawn from the seat's information.
pub fn smmcts<G: Game>(game: &G) -> Route {
    if hidden_information(game) {
        Route::Pimc
    } else {
        Route::Uct
    }
}

/// Whether agent `name` can play a game like `probe` at all.
pub fn supports<G: Game>(name: &str, probe: &G) -> Result<(), AgentError> {
    let why = match name {
        "alphabeta" if two_teams(probe).is_none() => Some(format!(
            "alpha-beta searches two sides, and the {} seats of this game do not form two \
             teams (Game::team); try mcts",
            probe.num_seats()
        )),
        "expectimax" if !two_seats(probe) => Some(format!(
            "*-minimax needs exactly two seats, this game has {}; try mcts",
            probe.num_seats()
        )),
        _ => None,
    };
    match why {
        None => Ok(()),
        Some(why) => Err(AgentError::Unsupported {
            agent: name.into(),
            variant: short_type_name::<G>(),
            why,
        }),
    }
}

/// The game type's name without its module path (`Chess`, `CrowdedHouse`).
pub(crate) fn short_type_name<G>() -> String {
    let full = std::any::type_name::<G>();
    full.rsplit("::").next().unwrap_or(full).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgames::{Fusion, Nim};
    use engine::variants::crowded_house::CrowdedHouse;
    use engine::variants::masquerade::Masquerade;

    #[test]
    fn rule_fallback_hidden_information_goes_to_pimc_or_ismcts() {
        let m = probe::<Masquerade>();
        assert!(hidden_information(&m));
        if let Turn::Seat(s) = m.turn() {
            assert_eq!(alphabeta(&m, s), Route::Pimc);
            assert_eq!(expectimax(&m, s), Route::Pimc);
        }
        assert_eq!(mcts(&m), Route::IsMcts);
        assert_eq!(mcts(&probe::<Nim>()), Route::Uct);
        assert!(hidden_information(&probe::<Fusion>()));
    }

    #[test]
    fn rule_fallback_two_sides_search_their_own() {
        let g = probe::<Nim>();
        assert_eq!(alphabeta(&g, 0), Route::Own);
        assert_eq!(expectimax(&g, 0), Route::Own);
        // Not this seat's turn: UCT.
        assert_eq!(alphabeta(&g, 1), Route::Uct);
        // A simultaneous node of two sides: the matrix game; expectimax keeps UCT.
        let tm = probe::<engine::variants::two_move::TwoMove>();
        assert_eq!(tm.turn(), Turn::Simultaneous);
        assert_eq!(alphabeta(&tm, 0), Route::Matrix);
        assert_eq!(alphabeta(&tm, 1), Route::Matrix);
        assert_eq!(expectimax(&tm, 0), Route::Uct);
        let ch = probe::<CrowdedHouse>();
        assert!(two_teams(&ch).is_some());
        assert!(supports("alphabeta", &ch).is_ok());
    }

    /// The PIMC fallback reads no evaluation: wild weights leave `alphabeta`'s decisions
    /// on a hidden-information game unchanged, while `ismcts` with a cutoff, which scores
    /// cut-off playouts with them, decides differently at least once.
    #[test]
    fn rule_fallback_reads_no_evaluation_weights() {
        use crate::registry::build;
        use rand::SeedableRng;
        use rand_pcg::Pcg64;
        let wild = "eval.pawn=-50,eval.knight=40,eval.queen=-90";
        let decisions = |plain: &str| -> (Vec<String>, Vec<String>) {
            let mut a = build::<Masquerade>(plain).unwrap();
            let mut b = build::<Masquerade>(&format!("{plain},{wild}")).unwrap();
            let mut g = probe::<Masquerade>();
            let mut rng = Pcg64::seed_from_u64(5);
            let (mut xs, mut ys) = (Vec::new(), Vec::new());
            for _ in 0..12 {
                let Turn::Seat(s) = g.turn() else { break };
                let x = a.act(&g, s, &mut Pcg64::seed_from_u64(9));
                let y = b.act(&g, s, &mut Pcg64::seed_from_u64(9));
                xs.push(g.action_notation(x));
                ys.push(g.action_notation(y));
                let mut legal = Vec::new();
                g.legal_actions(s, &mut legal);
                use rand::Rng;
                g.apply(legal[rng.gen_range(0..legal.len())]);
            }
            (xs, ys)
        };
        let (x, y) = decisions("alphabeta:iters=30,worlds=2,seed=3");
        assert!(x.len() >= 6);
        assert_eq!(x, y, "alphabeta's fallback must not read the weights");
        let (x, y) = decisions("ismcts:iters=60,cutoff=2,seed=3");
        assert_ne!(x, y, "ismcts with a cutoff reads the weights");
    }

    #[test]
    fn rule_fallback_refuses_what_an_agent_cannot_play() {
        let ch = probe::<CrowdedHouse>();
        let e = supports("expectimax", &ch).unwrap_err();
        assert!(matches!(e, AgentError::Unsupported { .. }));
        let msg = e.to_string();
        assert!(
            msg.contains("exactly two seats") && msg.contains("CrowdedHouse"),
            "{msg}"
        );
        assert!(supports("mcts", &ch).is_ok());
    }
}

//! Shared pieces of the chesslab benchmarks.

/// Random-vs-random self-play of orthodox chess, three ways from the most general to the
/// leanest (used by the `selfplay` bench and the `selfplay-profile` example):
/// - [`with_agents`](selfplay::with_agents): what `chesslab tournament` runs: `Game::turn`,
///   the `random` agent from `agents::registry`, and each action's notation for the
///   record;
/// - [`game_api`](selfplay::game_api): the same without agents or notation (one
///   `legal_actions` per ply);
/// - [`board_only`](selfplay::board_only): the engine's `Board` directly, the ceiling for
///   the game API;
/// - [`time_api`](selfplay::time_api): the game-API loop on Time Chess.
///
/// Each plays one game from `seed` and returns its number of plies.
pub mod selfplay {
    use engine::game::{Game, Turn};
    use engine::variants::chess::{Chess, ChessParams};
    use engine::Board;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;
    use std::hint::black_box;

    pub fn with_agents(seed: u64) -> usize {
        let mut agents: Vec<_> = (0..2)
            .map(|_| agents::registry::build::<Chess>("random").expect("random agent"))
            .collect();
        let mut rngs = [Pcg64::seed_from_u64(seed), Pcg64::seed_from_u64(!seed)];
        let mut g = Chess::new(&ChessParams::default());
        let mut record = Vec::with_capacity(256);
        while let Turn::Seat(s) = g.turn() {
            let a = agents[s].act(&g, s, &mut rngs[s]);
            record.push(g.action_notation(a));
            g.apply(a);
        }
        black_box(g.result());
        record.len()
    }

    pub fn game_api(seed: u64) -> usize {
        let mut g = Chess::new(&ChessParams::default());
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut actions = Vec::with_capacity(64);
        let mut plies = 0;
        while let Turn::Seat(s) = g.turn() {
            g.legal_actions(s, &mut actions);
            g.apply(actions[rng.gen_range(0..actions.len())]);
            plies += 1;
        }
        black_box(g.result());
        plies
    }

    /// [`game_api`] on Time Chess (400-ply cap), for the ratio to orthodox chess.
    pub fn time_api(seed: u64) -> usize {
        use engine::variants::time::{TimeChess, TimeParams};
        let mut g = TimeChess::new(&TimeParams::default());
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut actions = Vec::with_capacity(64);
        let mut plies = 0;
        while let Turn::Seat(s) = g.turn() {
            g.legal_actions(s, &mut actions);
            g.apply(actions[rng.gen_range(0..actions.len())]);
            plies += 1;
        }
        black_box(g.result());
        plies
    }

    /// The same rules on the bare board (FIDE draws, 400-ply cap).
    pub fn board_only(seed: u64) -> usize {
        let mut b = Board::startpos();
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut plies = 0;
        while plies < 400 {
            let moves = b.legal_moves();
            if moves.is_empty() || b.automatic_draw().is_some() {
                break;
            }
            b.make(moves.as_slice()[rng.gen_range(0..moves.len())]);
            plies += 1;
        }
        black_box(b.key());
        plies
    }
}

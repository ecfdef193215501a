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
/// - [`random_game`](selfplay::random_game): the same loop for any variant; the
///   variants' entries (`two_move_game_api`, `synchronous_game_api`, ...) call it, to
///   hold against orthodox chess's figure.
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

    /// Random self-play of any variant through the game API from `start`: one
    /// `legal_actions` per acting seat per node, joint actions at simultaneous nodes,
    /// chance outcomes drawn by their probabilities; plies are actions applied (a joint
    /// action counts one).
    pub fn random_game<G: Game>(mut g: G, seed: u64) -> usize {
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut actions = Vec::with_capacity(64);
        let mut outcomes = Vec::new();
        let mut joint = Vec::with_capacity(2);
        let mut plies = 0;
        loop {
            match g.turn() {
                Turn::Seat(s) => {
                    g.legal_actions(s, &mut actions);
                    g.apply(actions[rng.gen_range(0..actions.len())]);
                }
                Turn::Simultaneous => {
                    joint.clear();
                    for s in g.simultaneous_seats() {
                        g.legal_actions(s, &mut actions);
                        joint.push(actions[rng.gen_range(0..actions.len())]);
                    }
                    g.apply_joint(&joint);
                }
                Turn::Chance => {
                    g.chance_outcomes(&mut outcomes);
                    let i = engine::random::sample_index(&outcomes, &mut rng);
                    g.apply(outcomes[i].0);
                }
                Turn::Terminal => break,
            }
            plies += 1;
        }
        black_box(g.result());
        plies
    }

    /// Two Move Chess (simultaneous card choices), to hold against `game_api`.
    pub fn two_move_game_api(seed: u64) -> usize {
        use engine::variants::two_move::{TwoMove, TwoMoveParams};
        random_game(TwoMove::new(&TwoMoveParams::default()), seed)
    }

    /// Synchronous Chess (a ply is one simultaneous turn or one exchange step).
    pub fn synchronous_game_api(seed: u64) -> usize {
        use engine::variants::synchronous::{Synchronous, SynchronousParams};
        random_game(Synchronous::new(&SynchronousParams::default()), seed)
    }

    /// Time Chess (blind phases; a ply is one seat's move, tried or forfeited).
    pub fn time_api(seed: u64) -> usize {
        use engine::variants::time::{TimeChess, TimeParams};
        random_game(TimeChess::new(&TimeParams::default()), seed)
    }

    /// Zombie Chess (a ply is one action: a move, `end`, a burial or a promotion choice).
    pub fn zombie_api(seed: u64) -> usize {
        use engine::variants::zombie::{Zombie, ZombieParams};
        random_game(Zombie::new(&ZombieParams::default()), seed)
    }

    /// Tar Pit Chess (a ply is one action: a move, a throw, a card, a return, a discard,
    /// a draw or a shuffle, or a `pass`).
    pub fn tar_pit_api(seed: u64) -> usize {
        use engine::variants::tar_pit::{TarPit, TarPitParams};
        random_game(TarPit::new(&TarPitParams::default()), seed)
    }

    /// Cooperative Chess (a ply is one seat action or one card drawn; a turn is the
    /// quiet move, the card, the captures and the draw).
    pub fn cooperative_api(seed: u64) -> usize {
        use engine::variants::cooperative::{Cooperative, CooperativeParams};
        random_game(Cooperative::new(&CooperativeParams::default()), seed)
    }

    /// Clairvoyant Chess (a ply is every decision: guesses, the retraction guess,
    /// drops, moves, retractions, bought moves, passes).
    pub fn clairvoyant_api(seed: u64) -> usize {
        use engine::variants::clairvoyant::{Clairvoyant, ClairvoyantParams};
        random_game(Clairvoyant::new(&ClairvoyantParams::default()), seed)
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

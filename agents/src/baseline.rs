//! Baseline agents: `random` (uniform over legal actions) and `greedy` (best one-ply
//! material for the mover, a win counts above all material, random tie-break; on
//! hidden-information games judged in one world sampled from the mover's information).

use crate::settings::Settings;
use crate::spec::{AgentError, Spec};
use crate::Agent;
use engine::game::{Game, Seat};
use rand::Rng;
use rand_pcg::Pcg64;

/// Picks uniformly among the legal actions. Keeps its action buffer between moves,
/// since random self-play is the lab's throughput benchmark.
pub struct RandomAgent<G: Game> {
    actions: Vec<G::Action>,
}

impl<G: Game> RandomAgent<G> {
    pub fn from_spec(spec: &Spec) -> Result<Self, AgentError> {
        Settings::read(spec, &[])?;
        Ok(RandomAgent {
            actions: Vec::with_capacity(64),
        })
    }
}

/// Uniformly random legal action of `seat` (shared by agents that need a default move).
pub fn random_action<G: Game>(game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
    let mut actions = Vec::new();
    game.legal_actions(seat, &mut actions);
    assert!(!actions.is_empty(), "asked to act without legal actions");
    actions[rng.gen_range(0..actions.len())]
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    fn spec(&self) -> String {
        "random".into()
    }
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        game.legal_actions(seat, &mut self.actions);
        assert!(
            !self.actions.is_empty(),
            "asked to act without legal actions"
        );
        self.actions[rng.gen_range(0..self.actions.len())]
    }
}

/// Plays the action with the best material after one ply.
pub struct GreedyAgent;

impl GreedyAgent {
    pub fn from_spec(spec: &Spec) -> Result<Self, AgentError> {
        Settings::read(spec, &[])?;
        Ok(GreedyAgent)
    }
}

impl<G: Game> Agent<G> for GreedyAgent {
    fn spec(&self) -> String {
        "greedy".into()
    }
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        let mut actions = Vec::new();
        game.legal_actions(seat, &mut actions);
        assert!(!actions.is_empty(), "asked to act without legal actions");
        if !matches!(game.turn(), engine::game::Turn::Seat(_)) {
            // At a simultaneous node one seat's action cannot be applied alone.
            return actions[rng.gen_range(0..actions.len())];
        }
        // On hidden information, judge the moves in a world drawn from what this seat
        // knows: trying them on the true state would leak the hidden part (in Masquerade,
        // whether a capture attempt succeeds).
        let mut g = if game.is_perfect_information() {
            game.clone()
        } else {
            game.sample_world(seat, rng)
        };
        let mut best = f64::NEG_INFINITY;
        let mut ties = 0u32;
        let mut choice = actions[0];
        for &a in &actions {
            g.apply(a);
            let score = match g.result() {
                Some(r) => r.returns[seat] * 1e6,
                None => g.material(seat),
            };
            g.undo();
            if score > best {
                best = score;
                choice = a;
                ties = 1;
            } else if score == best {
                // Reservoir sampling: a uniform choice among equal scores.
                ties += 1;
                if rng.gen_range(0..ties) == 0 {
                    choice = a;
                }
            }
        }
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::game::Game;
    use engine::variants::chess::{Chess, ChessParams};
    use rand::SeedableRng;

    #[test]
    fn greedy_takes_the_free_queen() {
        let g = Chess::from_opening(&ChessParams::default(), "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1")
            .unwrap();
        let mut rng = Pcg64::seed_from_u64(3);
        let a = GreedyAgent.act(&g, 0, &mut rng);
        assert_eq!(g.action_notation(a), "e4d5");
    }

    #[test]
    fn greedy_mates_in_one_when_it_can() {
        let g = Chess::from_opening(&ChessParams::default(), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
            .unwrap();
        let mut rng = Pcg64::seed_from_u64(3);
        let a = GreedyAgent.act(&g, 0, &mut rng);
        assert_eq!(g.action_notation(a), "a1a8");
    }
}

//! The `pimc` agent: Perfect-Information Monte Carlo, i.e. search on worlds drawn from
//! the seat's exact belief (`sample_world(seat)`), with one of two searches per world
//! (issue 36):
//!
//! - `search=uct` (the default, as before): UCT on each world, the action most worlds
//!   chose ([`crate::ismcts::pimc_decide`]); `iters`/`nodes`/`time_ms` are the whole
//!   decision's, shared over the worlds ([`crate::common::Shares`], issue 64; they
//!   applied to each world before), and with none of them 200 iterations a world.
//! - `search=alphabeta`: `alphabeta` on each world ([`AlphaBeta::root_scores`], every root
//!   move with an exact score), the action with the best mean score over the worlds, as
//!   RBC bots such as StrangeFish do. `risk=K` ranks by mean minus K standard deviations
//!   (a move good in most worlds but bad in some is penalised). [`worlds_alphabeta`].
//!
//! Decisions taken where the issue is silent:
//! - Budget of `search=alphabeta`: `depth` plies per world (default 3); `time_ms` and
//!   `nodes` are the whole decision's, shared over the worlds (equal time per move
//!   against other agents; the time left is split again as each world starts, so
//!   sampling and set-up come out of it), and with `time_ms` and no `depth` the depth
//!   is unbounded (time stops each world's iterative deepening). With a depth or nodes
//!   only, decisions are deterministic for a seed; with time they depend on the
//!   machine's speed. The UCT fallback below gets the nodes and time left.
//! - Mate scores are clamped to ±[`CLAMP`] centipawns before averaging, so one world with
//!   a mate does not outweigh every other world by a factor of a thousand; a mate still
//!   dominates a material edge.
//! - An action is ranked only over worlds where it was legal; the actions legal in the
//!   most worlds are preferred (a seat's own legal actions are normally part of its
//!   information, so this is all of them).
//! - Exact ties are broken at random (the decision's rng) in hidden-information games,
//!   and keep the action met first in perfect-information ones (where every world is
//!   the true state) ([`crate::common::break_tie`]; `search=uct`'s votes too). Before,
//!   ties always kept the first in move-generation order, which is not the same choice
//!   for both colours: in Zombie, where no search of a few plies tells burial squares
//!   apart, White always buried under its lowest square (a1, its back rank: the piece
//!   rises beside its own king later) and Black under its most advanced piece, and
//!   self-play at depth 2 scored White 0.075 over 40 games (results/zombie/README.md).
//!   Perfect-information play, where the agent is rated, is unchanged; `ties=random`
//!   draws there too, for the fog twins (a hidden game's open twin played by the same
//!   player: with the first kept, both games of a pair were one game). Tests:
//!   `rule_pimc_breaks_ties_at_random_in_hidden_games`,
//!   `rule_pimc_random_ties_draw_in_open_games_too`.
//! - The searcher's tables are fresh for every world (a transposition entry of one world
//!   would otherwise score a position of another world that shares its key).
//! - `quiescence` is off by default here (on in `alphabeta`): in a sampled world of
//!   Masquerade a capture attempt that misses is a pass that changes no material, so a
//!   quiescence search of "captures" ran towards its ply cap and a depth-1 decision took
//!   a second. `quiescence=true` turns it on where captures are real.
//! - A world whose search did not finish its first iteration in its share of the time
//!   gives no scores; when no world gave any, the decision is UCT with voting on 64
//!   iterations per world (at most 4 worlds), not a random move.
//! - The evaluation is `alphabeta`'s (the fitted orthodox tables in orthodox chess, the
//!   hand-set ones in the variants) with the spec's `eval.*` on top; in secret
//!   Cassandra `eval.hint=1` adds the prophecy hint (`Game::eval_hint`), without which a
//!   prophecy counts nothing until it falls due, beyond a few milliseconds' search
//!   (results/strength/hidden/README.md, "The prophecy hint").
//! - A root where this seat does not act alone (a simultaneous node) goes to UCT on one
//!   sampled world, as `search=uct` does.
//! - `search=alphabeta` is refused (by the registry) where the seats are not two sides
//!   (Cooperative: one team), as `alphabeta` is: its search would play the partner as an
//!   opponent. Test: `rule_registry_refuses_what_an_agent_cannot_play`.
//!
//! Tests: `pimc_alphabeta_prefers_the_move_good_in_every_world`,
//! `risk_penalises_spread`, `rule_pimc_alphabeta_is_deterministic_for_a_seed`,
//! `rule_pimc_breaks_ties_at_random_in_hidden_games`,
//! `pimc_alphabeta_beats_random_on_masquerade` (here); the own-information test
//! (`agents/tests/own_information.rs`) plays `pimc:search=alphabeta` too.

use crate::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::common::{break_tie, AgentRng, Budget, Shares};
use crate::ismcts::{pimc_decide, WORLDS};
use crate::mcts::{uct_config, uct_decide, uct_schema, MctsConfig};
use crate::settings::{Kind, Setting, Settings};
use crate::spec::{AgentError, Spec};
use crate::Agent;
use engine::game::{Game, Seat, Turn};
use rand_pcg::Pcg64;
use std::time::{Duration, Instant};

/// Scores beyond this many centipawns (mates) count as this much in the mean.
pub const CLAMP: i32 = 10_000;

/// Which search `pimc` runs on each world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PimcSearch {
    Uct,
    AlphaBeta,
}

/// The keys `pimc` adds to UCT's.
fn pimc_settings() -> [Setting; 6] {
    [
        WORLDS,
        Setting {
            key: "search",
            kind: Kind::Choice(&["uct", "alphabeta"]),
            default: "uct",
            tunable: false,
            help: "search per world: UCT with voting, or alphabeta with the best mean score",
        },
        Setting {
            key: "depth",
            kind: Kind::Int { min: 1, max: 64 },
            default: "3",
            tunable: true,
            help: "alphabeta plies per world (search=alphabeta; unbounded with time_ms alone)",
        },
        Setting {
            key: "quiescence",
            kind: Kind::Bool,
            default: "false",
            tunable: true,
            help: "search=alphabeta: search captures past the depth in each world",
        },
        Setting {
            key: "risk",
            kind: Kind::Real {
                min: 0.0,
                max: 100.0,
            },
            default: "0",
            tunable: true,
            help: "search=alphabeta ranks by mean minus risk times the spread over worlds",
        },
        Setting {
            key: "ties",
            kind: Kind::Choice(&["auto", "random"]),
            default: "auto",
            tunable: false,
            help: "search=alphabeta: equal best actions drawn at random in hidden games and the first kept in open ones (auto), or drawn at random everywhere (random: the fog twins' player)",
        },
    ]
}

/// The `pimc` agent.
pub struct PimcAgent {
    worlds: usize,
    search: PimcSearch,
    /// UCT per world (`search=uct`).
    config: MctsConfig,
    /// Alphabeta per world (`search=alphabeta`); its time is the whole decision's.
    ab: AlphaBetaConfig,
    risk: f64,
    /// `ties=random`: equal best actions drawn at random in perfect-information games too.
    random_ties: bool,
    rng: AgentRng,
    spec: String,
    /// Iterations and nodes of the last decision, over every world.
    stats: crate::SearchStats,
}

impl PimcAgent {
    /// The keys `pimc` reads: UCT's (`iters` per world, 200 by default), `worlds`,
    /// `search`, and alphabeta's `depth` and `risk`.
    pub fn schema() -> Vec<Setting> {
        let mut v = uct_schema("200");
        v.extend(pimc_settings());
        v
    }

    pub fn from_spec(spec: &Spec) -> Result<Self, AgentError> {
        let s = Settings::read(spec, &Self::schema())?;
        let mut config = uct_config(&s);
        let worlds = s.int("worlds");
        if !["iters", "nodes", "time_ms"].iter().any(|k| s.given(k)) {
            // The default is 200 iterations per world, as before budgets were totals.
            config.budget.iters = config.budget.iters.map(|n| n.saturating_mul(worlds));
        }
        let search = match s.choice("search") {
            "alphabeta" => PimcSearch::AlphaBeta,
            _ => PimcSearch::Uct,
        };
        let timed = s.given("time_ms");
        let ab = AlphaBetaConfig {
            depth: if timed && !s.given("depth") {
                64
            } else {
                s.int("depth") as u32
            },
            budget: Budget {
                iters: None,
                nodes: s.opt_int("nodes"),
                time: config.budget.time,
            },
            eval: s.search_evaluator(),
            quiescence: s.flag("quiescence"),
            // Small tables: one is made per world and decision.
            tt_bits: 14,
            ..AlphaBetaConfig::default()
        };
        Ok(PimcAgent {
            worlds: worlds as usize,
            search,
            config,
            ab,
            risk: s.real("risk"),
            random_ties: s.choice("ties") == "random",
            rng: AgentRng::from_settings(&s),
            spec: spec.canonical(),
            stats: crate::SearchStats::default(),
        })
    }

    /// A `search=uct` agent from parts.
    pub fn new(worlds: usize, config: MctsConfig) -> Self {
        PimcAgent {
            worlds,
            search: PimcSearch::Uct,
            config,
            ab: AlphaBetaConfig::default(),
            risk: 0.0,
            random_ties: false,
            rng: AgentRng { seed: None },
            spec: format!("pimc:worlds={worlds}"),
            stats: crate::SearchStats::default(),
        }
    }
}

impl<G: Game> Agent<G> for PimcAgent {
    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Pcg64) -> G::Action {
        crate::common::take_counts();
        let started = Instant::now();
        let mut rng = self.rng.for_decision(game.information_key(seat), rng);
        let budget = match self.search {
            PimcSearch::Uct => self.config.budget,
            PimcSearch::AlphaBeta => self.ab.budget,
        };
        let a = crate::common::within_budget(&budget, started, || match self.search {
            PimcSearch::Uct => {
                let config = MctsConfig {
                    budget: self.config.budget.since(started),
                    ..self.config.clone()
                };
                pimc_decide(game, seat, self.worlds, &config, &mut rng)
            }
            PimcSearch::AlphaBeta => {
                let rank = Ranking {
                    risk: self.risk,
                    random_ties: self.random_ties,
                };
                worlds_alphabeta(game, seat, self.worlds, &self.ab, rank, &mut rng)
            }
        });
        self.stats = crate::common::take_counts();
        a
    }

    fn search_stats(&self) -> Option<crate::SearchStats> {
        Some(self.stats)
    }
}

/// How the worlds' scores pick an action: [`choose`]'s `risk`, and whether equal best
/// actions are drawn at random in a perfect-information game too (`ties=random`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ranking {
    pub risk: f64,
    pub random_ties: bool,
}

/// Searches `worlds` worlds drawn with `sample_world(seat)` by alphabeta (the config's
/// depth per world; its nodes and time are the decision's, shared over the worlds by
/// [`Shares`]) and plays the action [`choose`] picks.
pub fn worlds_alphabeta<G: Game>(
    game: &G,
    seat: Seat,
    worlds: usize,
    config: &AlphaBetaConfig,
    rank: Ranking,
    rng: &mut Pcg64,
) -> G::Action {
    let started = Instant::now();
    if game.turn() != Turn::Seat(seat) {
        let w = game.sample_world(seat, rng);
        // UCT's default iterations, as before, now within the decision's time too.
        let default = MctsConfig::default();
        let uct = MctsConfig {
            budget: Budget {
                nodes: config.budget.nodes,
                time: config.budget.time,
                ..default.budget
            }
            .since(started),
            ..default
        };
        return uct_decide(&w, seat, &uct, rng);
    }
    let shares = Shares::new(config.budget, worlds, started);
    let mut scores: Vec<Vec<(G::Action, i32)>> = Vec::with_capacity(shares.worlds());
    // Nodes spent by the worlds' searches: the fallback below gets what is left.
    let mut used = 0u64;
    for i in 0..shares.worlds() {
        let Some(budget) = shares.share(i) else {
            break;
        };
        let sampled = Instant::now();
        let w = game.sample_world(seat, rng);
        let mut per = config.clone();
        per.budget.nodes = budget.nodes;
        let mut search = AlphaBeta::<G>::new(per);
        let time: Option<Duration> = budget.since(sampled).time;
        scores.push(search.root_scores(&w, time));
        used += search.info.nodes;
    }
    let best = choose(&scores, rank.risk);
    let random = rank.random_ties || !game.is_perfect_information();
    match break_tie(&best, random, rng) {
        Some(a) => a,
        // No world finished even its first iteration in its share of the time: UCT with
        // voting on a small budget rather than a random move, within what is left of the
        // decision's time.
        None => {
            let nodes = config.budget.nodes.map(|n| n.saturating_sub(used));
            if nodes == Some(0) {
                // The node budget is spent: nothing is left to search with.
                return crate::baseline::random_action(game, seat, rng);
            }
            let quick = MctsConfig {
                budget: Budget {
                    iters: Some(FALLBACK_ITERS * worlds.clamp(1, 4) as u64),
                    nodes,
                    time: shares.time_left(),
                },
                ..MctsConfig::default()
            };
            pimc_decide(game, seat, worlds.min(4), &quick, rng)
        }
    }
}

/// UCT iterations per world (of at most four) when no alphabeta search of a world
/// finished.
const FALLBACK_ITERS: u64 = 64;

/// Per action: worlds where it was legal, sum and sum of squares of its clamped scores.
struct Tally<A> {
    action: A,
    n: u32,
    sum: f64,
    sq: f64,
}

/// The actions with the best mean score minus `risk` standard deviations over the worlds
/// (`per_world[w]`: each root move of world `w` with its score), among the actions
/// scored in the most worlds; scores clamped to ±[`CLAMP`]. Several when they tie
/// exactly, in the order first met; empty when no world had a move.
pub fn choose<A: Copy + PartialEq>(per_world: &[Vec<(A, i32)>], risk: f64) -> Vec<A> {
    let mut tallies: Vec<Tally<A>> = Vec::new();
    for (a, score) in per_world.iter().flatten() {
        let x = (*score).clamp(-CLAMP, CLAMP) as f64;
        match tallies.iter_mut().find(|t| t.action == *a) {
            Some(t) => {
                t.n += 1;
                t.sum += x;
                t.sq += x * x;
            }
            None => tallies.push(Tally {
                action: *a,
                n: 1,
                sum: x,
                sq: x * x,
            }),
        }
    }
    let Some(most) = tallies.iter().map(|t| t.n).max() else {
        return Vec::new();
    };
    let valued: Vec<(A, f64)> = tallies
        .iter()
        .filter(|t| t.n == most)
        .map(|t| {
            let n = t.n as f64;
            let mean = t.sum / n;
            let spread = (t.sq / n - mean * mean).max(0.0).sqrt();
            (t.action, mean - risk * spread)
        })
        .collect();
    let top = valued.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
    // Equal sums over the same number of worlds give bit-equal means; a spread can
    // differ in the last bit only between actions that differ in their scores.
    valued
        .into_iter()
        .filter(|v| v.1 == top)
        .map(|v| v.0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::build;
    use engine::variants::masquerade::{Masquerade, MasqueradeParams};
    use rand::{Rng, SeedableRng};

    /// Plays `g` to the end with `first` at seat 0 and `second` at seat 1; seat 0's
    /// return.
    fn play(
        mut g: Masquerade,
        agents: &mut [Box<dyn Agent<Masquerade>>; 2],
        rng: &mut Pcg64,
    ) -> f64 {
        for _ in 0..300 {
            match g.turn() {
                Turn::Terminal => break,
                Turn::Seat(s) => {
                    let a = agents[s].act(&g, s, rng);
                    g.apply(a);
                }
                Turn::Chance => {
                    let mut o = Vec::new();
                    g.chance_outcomes(&mut o);
                    let i = engine::random::sample_index(&o, rng);
                    g.apply(o[i].0);
                }
                Turn::Simultaneous => panic!("Masquerade has no simultaneous nodes"),
            }
        }
        if g.turn() == Turn::Terminal {
            g.returns()[0]
        } else {
            0.0
        }
    }

    /// Seat to move in a position after a few random plies, for decision tests.
    fn some_position(seed: u64) -> (Masquerade, Seat) {
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut g = Masquerade::new(&MasqueradeParams::default());
        for _ in 0..12 {
            match g.turn() {
                Turn::Seat(s) => {
                    let mut legal = Vec::new();
                    g.legal_actions(s, &mut legal);
                    g.apply(legal[rng.gen_range(0..legal.len())]);
                }
                Turn::Chance => {
                    let mut o = Vec::new();
                    g.chance_outcomes(&mut o);
                    let i = engine::random::sample_index(&o, &mut rng);
                    g.apply(o[i].0);
                }
                _ => break,
            }
        }
        match g.turn() {
            Turn::Seat(s) => (g, s),
            _ => panic!("a seat to move after 12 plies of seed {seed}"),
        }
    }

    #[test]
    fn rule_pimc_breaks_ties_at_random_in_hidden_games() {
        // Zombie: a capture, then the capturer's burial, for each colour. No search of a
        // few plies tells the burial squares apart, so every square ties; the choice
        // must vary with the seed (it used to be the first square in generation order,
        // a1 for White: a colour asymmetry), and stay one of the legal burials.
        use engine::variants::zombie::{Zombie, ZombieParams};
        let config = AlphaBetaConfig {
            depth: 1,
            tt_bits: 10,
            ..AlphaBetaConfig::default()
        };
        for (line, seat) in [
            ("e2e4 end d7d5 end e4d5 end", 0),
            ("e2e4 end d7d5 end e4d5 end bury:e1 d8d5 end", 1),
        ] {
            let mut g = Zombie::new(&ZombieParams::default());
            for t in line.split(' ') {
                let a = g.parse_action(t).expect(t);
                g.apply(a);
            }
            assert_eq!(g.turn(), Turn::Seat(seat), "{line}");
            let mut legal = Vec::new();
            g.legal_actions(seat, &mut legal);
            assert!(legal
                .iter()
                .all(|a| g.action_notation(*a).starts_with("bury:")));
            let chosen: std::collections::BTreeSet<String> = (0..16)
                .map(|seed| {
                    let a = worlds_alphabeta(
                        &g,
                        seat,
                        4,
                        &config,
                        Ranking::default(),
                        &mut Pcg64::seed_from_u64(seed),
                    );
                    assert!(legal.contains(&a));
                    g.action_notation(a)
                })
                .collect();
            assert!(
                chosen.len() >= 4,
                "seat {seat} buried only under {chosen:?}"
            );
        }
    }

    #[test]
    fn rule_pimc_random_ties_draw_in_open_games_too() {
        // Zombie with open burials (the fog twin) is a perfect-information game: by
        // default the first of the equal burials is kept, so every seed buries under the
        // same square; `ties=random` draws among them, as in the hidden game, so that the
        // twins' player is the hidden game's player (results/fog-twins).
        use engine::variants::zombie::{Zombie, ZombieParams};
        let mut g = Zombie::new(&ZombieParams {
            open_burials: true,
            ..ZombieParams::default()
        });
        for t in "e2e4 end d7d5 end e4d5 end".split(' ') {
            let a = g.parse_action(t).expect(t);
            g.apply(a);
        }
        assert!(g.is_perfect_information());
        let config = AlphaBetaConfig {
            depth: 1,
            tt_bits: 10,
            ..AlphaBetaConfig::default()
        };
        let burials = |random_ties: bool| -> std::collections::BTreeSet<String> {
            let rank = Ranking {
                risk: 0.0,
                random_ties,
            };
            (0..16)
                .map(|seed| {
                    let a =
                        worlds_alphabeta(&g, 0, 4, &config, rank, &mut Pcg64::seed_from_u64(seed));
                    g.action_notation(a)
                })
                .collect()
        };
        assert_eq!(burials(false).len(), 1, "{:?}", burials(false));
        assert!(burials(true).len() >= 4, "{:?}", burials(true));
        let spec = Spec::parse("pimc:search=alphabeta,ties=random").unwrap();
        assert!(PimcAgent::from_spec(&spec).unwrap().random_ties);
    }

    #[test]
    fn rule_pimc_alphabeta_is_deterministic_for_a_seed() {
        let config = AlphaBetaConfig {
            depth: 2,
            tt_bits: 10,
            ..AlphaBetaConfig::default()
        };
        for seed in 0..6 {
            let (g, s) = some_position(seed);
            let rank = Ranking {
                risk: 0.5,
                random_ties: false,
            };
            let first = worlds_alphabeta(&g, s, 3, &config, rank, &mut Pcg64::seed_from_u64(9));
            let again = worlds_alphabeta(&g, s, 3, &config, rank, &mut Pcg64::seed_from_u64(9));
            assert_eq!(first, again, "seed {seed}");
        }
    }

    #[test]
    fn pimc_alphabeta_prefers_the_move_good_in_every_world() {
        // Perfect information has one world: the mean is alphabeta's own score, so the
        // choice must be one of alphabeta's best root moves.
        let g = engine::variants::chess::Chess::new(&Default::default());
        let config = AlphaBetaConfig {
            depth: 2,
            tt_bits: 10,
            ..AlphaBetaConfig::default()
        };
        let Turn::Seat(s) = g.turn() else {
            unreachable!()
        };
        let scores = AlphaBeta::new(config.clone()).root_scores(&g, None);
        let top = scores[0].1;
        let a = worlds_alphabeta(
            &g,
            s,
            2,
            &config,
            Ranking::default(),
            &mut Pcg64::seed_from_u64(1),
        );
        let mine = scores.iter().find(|m| m.0 == a).expect("a root move").1;
        assert_eq!(mine, top, "chose a move scored {mine}, best is {top}");
    }

    #[test]
    fn risk_penalises_spread() {
        // 'a' scores 100 in every world; 'b' has the better mean (133) but a spread of
        // about 205; 'c' has the best mean but is missing from one world.
        let worlds = vec![
            vec![('a', 100), ('b', 400), ('c', 900)],
            vec![('a', 100), ('b', -100), ('c', 900)],
            vec![('b', 100), ('a', 100)],
        ];
        assert_eq!(choose(&worlds, 0.0), vec!['b']);
        assert_eq!(choose(&worlds, 0.1), vec!['b']);
        assert_eq!(choose(&worlds, 1.0), vec!['a']);
        // A mate counts as CLAMP, not a million: unclamped, 'a' would win by far.
        let mates = vec![
            vec![('a', crate::alphabeta::MATE - 3), ('b', 10_000)],
            vec![('a', 100), ('b', 200)],
            vec![('a', 100), ('b', 100)],
        ];
        assert_eq!(choose(&mates, 0.0), vec!['b']);
        let empty: Vec<Vec<(char, i32)>> = vec![vec![], vec![]];
        assert!(choose(&empty, 0.0).is_empty());
    }

    #[test]
    fn pimc_alphabeta_beats_random_on_masquerade() {
        // Four games with random assignments, colours alternating: the sampled-world
        // search must score clearly better than random (at least 3.5 of 4 points; a game
        // still running at the ply cap counts as a draw).
        let mut rng = Pcg64::seed_from_u64(11);
        let mut points = 0.0;
        let start = || {
            Masquerade::new(&MasqueradeParams {
                assignment: "random".into(),
                ..Default::default()
            })
        };
        for game in 0..4 {
            let ours = build::<Masquerade>("pimc:search=alphabeta,depth=2,worlds=2").unwrap();
            let theirs = build::<Masquerade>("random").unwrap();
            let r = if game % 2 == 0 {
                play(start(), &mut [ours, theirs], &mut rng)
            } else {
                -play(start(), &mut [theirs, ours], &mut rng)
            };
            points += (r + 1.0) / 2.0;
        }
        assert!(
            points >= 3.5,
            "pimc:search=alphabeta scored {points}/4 against random"
        );
    }
}

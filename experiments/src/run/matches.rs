//! Matches: who plays whom, in which seats, from which start, with which seeds, and the
//! parallel loop that plays them. Tournaments, balance runs and the tuner all play their
//! games through [`run`]; they differ only in what they do with each finished game (the
//! `sink`) and with the rows at the end.
//!
//! # Schedule
//! `games` is the number of games per matchup. Matchups are pairs of agents: every pair
//! (round robin) or the first agent against each other (gauntlet); a one-seat variant
//! plays each agent alone. A matchup (a, b) is played in cycles of two games, the colour
//! swap: in rotation r ∈ {0, 1}, seat s is taken by a when (s + r) is even, else by b.
//! With two seats that is a-b then b-a; with four seats (two teams, partners opposite)
//! it is a-b-a-b then b-a-b-a; with three, a-b-a then b-a-b.
//!
//! Games are numbered round by round: round k holds cycle k of every matchup (in
//! matchup order), and each cycle its rotations; game indices run 0, 1, 2, ... with no
//! gaps (an odd N leaves the last cycle of each matchup one game short). Cycle k of
//! matchup m is pair number `k · matchups + m`.
//!
//! The schedule is never listed: game i is computed from i ([`Plan::slot`]) and the
//! workers draw the next game from an iterator, so memory does not grow with `--games`
//! (issue 23: `--games 18446744073709551615` used to abort allocating). A run whose games
//! cannot all be numbered by a u64 is refused by [`Plan::new`].
//!
//! # Seeds
//! Game i has seed `mix(seed, i)` (SplitMix64-based, see `util::mix`): its agents'
//! random streams derive from it. Chance outcomes come from a stream seeded by
//! `mix(seed ^ CHANCE_SALT, k)` and the opening is start `k mod starts` (both from the
//! round k): both games of a pair, and every matchup in a round, start from the same
//! opening and the same chance outcomes. Nothing depends on the thread count or the
//! shard, so the rows are identical however the run is split.
//!
//! # Shards
//! Shard i of n plays the games whose pair number is ≡ i (mod n): pairs stay whole.
//!
//! # Stopping
//! An SPRT (two agents) is fed finished pairs in pair order, so where it stops does not
//! depend on which game happened to finish first; [`INTERRUPTED`] (the first Ctrl-C)
//! stops new games from starting and lets the games in flight finish and be written, as
//! the message promises; the second Ctrl-C exits at once (`interrupt::stop_on_ctrl_c`).

use crate::record::Row;
use crate::run::gameplay::{catch, play_game_with, PlayOptions};
use crate::run::interrupt::INTERRUPTED;
use crate::run::progress::Progress;
use crate::stats::standings;
use crate::stats::{self, Pentanomial, Sprt, SprtState};
use crate::util::{mix, result_text};
use anyhow::{anyhow, Context, Result};
use engine::game::Game;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Salt for the chance seeds, so they never coincide with game seeds.
const CHANCE_SALT: u64 = 0xC4A2_CE00_0000_0001;

/// How seeds derive, as written into a run's description.
pub const SEEDING: &str = "game i: seed mix(seed, i); agent in seat s: mix(game seed, s+1); chance and opening: round k of the pair, chance seed mix(seed ^ 0xC4A2CE0000000001, k); mix(a, b) = splitmix64(a ^ splitmix64(b ^ 0xD1B54A32D192ED03))";

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub index: u64,
    pub pair: u64,
    pub round: u64,
    pub matchup: usize,
    pub rotation: usize,
}

/// Matchups (agent pairs, or single agents for one-seat variants) and their cycle length.
pub fn matchups(num_agents: usize, seats: usize, gauntlet: bool) -> (Vec<Vec<usize>>, usize) {
    if seats == 1 {
        return ((0..num_agents).map(|a| vec![a]).collect(), 1);
    }
    let mut m = Vec::new();
    if gauntlet {
        for b in 1..num_agents {
            m.push(vec![0, b]);
        }
    } else {
        for a in 0..num_agents {
            for b in a + 1..num_agents {
                m.push(vec![a, b]);
            }
        }
    }
    (m, 2)
}

/// Who sits where in rotation `r` of matchup `m` (see the module documentation).
pub fn seating(m: &[usize], seats: usize, r: usize) -> Vec<usize> {
    if m.len() == 1 {
        return vec![m[0]; seats];
    }
    (0..seats)
        .map(|s| if (s + r) & 1 == 0 { m[0] } else { m[1] })
        .collect()
}

/// Reads `i/n` (0 <= i < n).
pub fn parse_shard(text: &str) -> Result<(u64, u64)> {
    let bad = || anyhow!("--shard '{text}': expected i/n with 0 <= i < n (for example 0/4)");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let i: u64 = i.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// A whole run's plan: agents, seats, matchups, and the rule that numbers its games.
/// The games are never listed up front: [`Plan::slot`] computes game i from its index, so
/// a run of `u64::MAX` games costs no more memory than a run of two.
#[derive(Clone, Debug)]
pub struct Plan {
    pub specs: Vec<String>,
    pub seats: usize,
    pub matchups: Vec<Vec<usize>>,
    /// Games per matchup.
    pub games: u64,
    /// Games in a matchup's cycle (the colour swap): 2, or 1 for a one-seat variant.
    pub cycle: u64,
    pub seed: u64,
    pub shard: Option<(u64, u64)>,
}

/// How many of `a..b` are ≡ i (mod n).
fn count_congruent(a: u64, b: u64, i: u64, n: u64) -> u64 {
    // Numbers below x that are ≡ i (mod n).
    let below = |x: u64| x / n + u64::from(x % n > i);
    below(b) - below(a)
}

impl Plan {
    /// Refused when the run has more games than a u64 index can number.
    pub fn new(
        specs: Vec<String>,
        seats: usize,
        gauntlet: bool,
        games: u64,
        seed: u64,
        shard: Option<(u64, u64)>,
    ) -> Result<Plan> {
        let (matchups, cycle) = matchups(specs.len(), seats, gauntlet);
        let plan = Plan {
            specs,
            seats,
            matchups,
            games,
            cycle: cycle as u64,
            seed,
            shard,
        };
        if plan.total().is_none() {
            return Err(anyhow!(
                "--games {games} with {} matchups is more games than a run can number (at most {} in all); play fewer games per run",
                plan.matchups.len(),
                u64::MAX
            ));
        }
        Ok(plan)
    }

    /// Every game of the run, all shards (None: more than a u64).
    pub fn total(&self) -> Option<u64> {
        self.games.checked_mul(self.matchups.len() as u64)
    }

    /// Game `index` (None past the end): the inverse of the numbering in the module
    /// documentation. Whole rounds hold `matchups · cycle` games; the last round of an
    /// odd N holds `matchups · (N mod cycle)`.
    pub fn slot(&self, index: u64) -> Option<Slot> {
        let m = self.matchups.len() as u64;
        let full = self.games / self.cycle;
        let per_round = m * self.cycle;
        let in_full = full.checked_mul(per_round)?;
        let (round, rem, len) = if index < in_full {
            (index / per_round, index % per_round, self.cycle)
        } else {
            let len = self.games % self.cycle;
            let rem = index - in_full;
            if len == 0 || rem >= m * len {
                return None;
            }
            (full, rem, len)
        };
        let matchup = rem / len;
        Some(Slot {
            index,
            pair: round * m + matchup,
            round,
            matchup: matchup as usize,
            rotation: (rem % len) as usize,
        })
    }

    /// Every game of the run in index order (all shards), computed as it goes.
    pub fn slots(&self) -> impl Iterator<Item = Slot> + '_ {
        (0..self.total().unwrap_or(0)).map_while(|i| self.slot(i))
    }

    /// Whether this shard plays `slot`.
    pub fn is_mine(&self, slot: &Slot) -> bool {
        self.shard.is_none_or(|(i, n)| slot.pair % n == i)
    }

    /// The slots this shard plays, in order, computed as they are asked for.
    pub fn mine(&self) -> impl Iterator<Item = Slot> + '_ {
        self.slots().filter(|s| self.is_mine(s))
    }

    /// How many games this shard plays (counted, not listed).
    pub fn mine_count(&self) -> u64 {
        let total = self.total().unwrap_or(0);
        let Some((i, n)) = self.shard else {
            return total;
        };
        let m = self.matchups.len() as u64;
        let full_pairs = (self.games / self.cycle) * m;
        let tail = self.games % self.cycle;
        count_congruent(0, full_pairs, i, n) * self.cycle
            + count_congruent(full_pairs, full_pairs + if tail > 0 { m } else { 0 }, i, n) * tail
    }

    /// The game's seed, its players (agent indices per seat) and their specs.
    pub fn expected(&self, slot: &Slot) -> (u64, Vec<usize>, Vec<String>) {
        let players = seating(&self.matchups[slot.matchup], self.seats, slot.rotation);
        let agents = players.iter().map(|&p| self.specs[p].clone()).collect();
        (mix(self.seed, slot.index), players, agents)
    }

    /// The seed of the chance stream of the slot's round.
    pub fn chance_seed(&self, slot: &Slot) -> u64 {
        mix(self.seed ^ CHANCE_SALT, slot.round)
    }
}

/// The start of each round: `starts[round mod len]`, with its text for the record.
pub struct Starts<G> {
    pub games: Vec<G>,
    /// The opening text of each start (empty for the variant's own start).
    pub texts: Vec<String>,
}

impl<G> Starts<G> {
    pub fn of(&self, slot: &Slot) -> (&G, &str) {
        let k = (slot.round % self.games.len() as u64) as usize;
        (&self.games[k], self.texts[k].as_str())
    }
}

/// How a run ended.
pub struct Outcome {
    /// Every finished row (those given in `done` included), by index.
    pub rows: BTreeMap<u64, Row>,
    /// Where the SPRT decided (the last game counted), if it did.
    pub stop_after: Option<u64>,
    /// The first error (a game that failed, or the sink refusing a row).
    pub error: Option<anyhow::Error>,
    /// Each game's final tallies, by index, when `run.options.tallies` asks for them
    /// (games of this call only).
    pub tallies: BTreeMap<u64, Vec<(String, f64)>>,
}

struct Shared<F> {
    /// What a finished game hands the caller: its row and the seconds it took.
    sink: F,
    rows: BTreeMap<u64, Row>,
    next_pair: u64,
    penta: Pentanomial,
    stop_after: Option<u64>,
    error: Option<anyhow::Error>,
    tallies: BTreeMap<u64, Vec<(String, f64)>>,
}

/// Everything [`run`] needs besides the plan.
pub struct Run<'a, G: Game> {
    pub variant: &'static str,
    pub params_digest: &'a str,
    pub starts: &'a Starts<G>,
    pub threads: usize,
    pub sprt: Option<&'a Sprt>,
    /// Adjudication and random opening plies.
    pub options: PlayOptions,
}

/// Plays this shard's games not in `done` on `run.threads` threads, calling `sink` for
/// each finished game (under a lock, in completion order), feeding the SPRT, and telling
/// `progress` (a terminal bar, a line per game, or `ProgressBar::hidden()`). `done` are
/// rows finished earlier (a resumed run); they count for the SPRT and the
/// standings. The games to play are drawn one at a time from [`Plan::mine`]: nothing is
/// sized by the number of games.
pub fn run<G: Game, F: FnMut(&Row, f64) -> Result<()> + Send>(
    plan: &Plan,
    run: &Run<'_, G>,
    done: BTreeMap<u64, Row>,
    sink: F,
    progress: &dyn Progress,
) -> Result<Outcome> {
    let mut shared = Shared {
        sink,
        rows: done,
        next_pair: 0,
        penta: [0; 5],
        stop_after: None,
        error: None,
        tallies: BTreeMap::new(),
    };
    advance_sprt(&mut shared, run.sprt, plan);
    let halt = AtomicBool::new(shared.stop_after.is_some());
    let done_before: std::collections::BTreeSet<u64> = shared.rows.keys().copied().collect();
    let next = Mutex::new(plan.mine().filter(move |s| !done_before.contains(&s.index)));
    let shared = Mutex::new(shared);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads)
        .build()
        .context("cannot start the worker threads")?;
    let worker = || {
        // Agents that drive an outside program, kept for this game slot's next games.
        let mut kept: Vec<Box<dyn agents::Agent<G>>> = Vec::new();
        loop {
            if halt.load(Ordering::Relaxed) || INTERRUPTED.load(Ordering::Relaxed) {
                return;
            }
            let Some(slot) = next.lock().unwrap_or_else(|p| p.into_inner()).next() else {
                return;
            };
            let slot = &slot;
            let (seed, players, agent_specs) = plan.expected(slot);
            let (start, opening) = run.starts.of(slot);
            let t0 = Instant::now();
            let outcome = catch(&format!("game {}", slot.index), || {
                let mut agents = agent_specs
                    .iter()
                    .map(|s| take_agent::<G>(&mut kept, s))
                    .collect::<Result<Vec<_>>>()?;
                let played = play_game_with(
                    start,
                    &mut agents,
                    seed,
                    plan.chance_seed(slot),
                    // Games in flight finish: the first Ctrl-C only stops new ones.
                    None,
                    &run.options,
                );
                kept.extend(agents.into_iter().filter(|a| a.reusable()));
                played
            })
            .with_context(|| format!("game {}", slot.index));
            let secs = t0.elapsed().as_secs_f64();
            // The row is built before taking the lock: only the sink and the bookkeeping
            // are serial, so threads scale on short games too.
            let finished = outcome.map(|played| {
                played.map(|p| {
                    let tallies = p.tallies;
                    (
                        Row {
                            index: slot.index,
                            seed,
                            variant: run.variant.to_string(),
                            params_digest: run.params_digest.to_string(),
                            pair: slot.pair,
                            opening: opening.to_string(),
                            players,
                            agents: agent_specs,
                            result: result_text(&p.returns),
                            returns: p.returns,
                            reason: p.reason,
                            plies: p.actions.len(),
                            actions: p.actions.join(" "),
                        },
                        tallies,
                    )
                })
            });
            let mut sh = shared.lock().unwrap_or_else(|p| p.into_inner());
            match finished {
                Ok(Some((row, tallies))) => {
                    if let Err(e) = (sh.sink)(&row, secs) {
                        sh.error = Some(e);
                        halt.store(true, Ordering::SeqCst);
                        return;
                    }
                    sh.rows.insert(slot.index, row);
                    if run.options.tallies {
                        sh.tallies.insert(slot.index, tallies);
                    }
                    advance_sprt(&mut sh, run.sprt, plan);
                    if sh.stop_after.is_some() {
                        halt.store(true, Ordering::SeqCst);
                    }
                    progress.game_done(&sh.rows[&slot.index], &sh.rows, &plan.specs);
                }
                Ok(None) => return,
                Err(e) => {
                    if sh.error.is_none() {
                        sh.error = Some(e);
                    }
                    halt.store(true, Ordering::SeqCst);
                    return;
                }
            }
        }
    };
    pool.scope(|s| {
        for _ in 0..run.threads {
            s.spawn(|_| worker());
        }
    });
    let sh = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(Outcome {
        rows: sh.rows,
        stop_after: sh.stop_after,
        error: sh.error,
        tallies: sh.tallies,
    })
}

/// An agent for `spec`: one kept from an earlier game of this slot (an outside program
/// already running), else a new one.
fn take_agent<G: Game>(
    kept: &mut Vec<Box<dyn agents::Agent<G>>>,
    spec: &str,
) -> Result<Box<dyn agents::Agent<G>>> {
    let canonical = agents::Spec::parse(spec).map_or_else(|_| spec.to_string(), |s| s.canonical());
    if let Some(i) = kept.iter().position(|a| a.spec() == canonical) {
        return Ok(kept.swap_remove(i));
    }
    agents::registry::build::<G>(spec).map_err(|e| anyhow!(e))
}

/// Feeds finished pairs to the SPRT in pair order, and records where it decided.
fn advance_sprt<F>(sh: &mut Shared<F>, sprt: Option<&Sprt>, plan: &Plan) {
    let Some(sprt) = sprt else { return };
    while sh.stop_after.is_none() {
        let p = sh.next_pair;
        let games: Vec<Slot> = [p.saturating_mul(2), p.saturating_mul(2).saturating_add(1)]
            .into_iter()
            .filter_map(|i| plan.slot(i))
            .filter(|s| s.pair == p)
            .collect();
        if games.len() != 2 || !games.iter().all(|s| sh.rows.contains_key(&s.index)) {
            return;
        }
        let rows: Vec<&Row> = games.iter().map(|s| &sh.rows[&s.index]).collect();
        let score: f64 = rows
            .iter()
            .filter_map(|r| standings::game_score(r, 0, 1))
            .sum();
        sh.penta[stats::penta_slot(score)] += 1;
        sh.next_pair += 1;
        if sprt.state(&sh.penta) != SprtState::Continue {
            sh.stop_after = Some(games[1].index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schedule as the module documentation lists it, built the slow way.
    fn listed(n_matchups: usize, cycle: u64, games: u64) -> Vec<Slot> {
        let mut out = Vec::new();
        let mut index = 0;
        for k in 0..games.div_ceil(cycle) {
            for m in 0..n_matchups {
                for r in 0..cycle {
                    if k * cycle + r < games {
                        out.push(Slot {
                            index,
                            pair: k * n_matchups as u64 + m as u64,
                            round: k,
                            matchup: m,
                            rotation: r as usize,
                        });
                        index += 1;
                    }
                }
            }
        }
        out
    }

    fn plan(agents: usize, seats: usize, games: u64, shard: Option<(u64, u64)>) -> Plan {
        let specs = (0..agents).map(|a| format!("a{a}")).collect();
        Plan::new(specs, seats, false, games, 1, shard).unwrap()
    }

    #[test]
    fn schedule_is_gapless_and_pairs_swap_colours() {
        let (m, c) = matchups(3, 2, false);
        assert_eq!(m, vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(c, 2);
        let s: Vec<Slot> = plan(3, 2, 3, None).slots().collect();
        assert_eq!(s.len(), 9);
        assert!(s.iter().enumerate().all(|(i, x)| x.index == i as u64));
        // Round 0: three full pairs; round 1: one game of each.
        assert_eq!(s[0].pair, 0);
        assert_eq!(s[1].pair, 0);
        assert_eq!(seating(&m[0], 2, s[0].rotation), vec![0, 1]);
        assert_eq!(seating(&m[0], 2, s[1].rotation), vec![1, 0]);
        assert_eq!(s[6].round, 1);
        assert_eq!(seating(&[0, 1], 4, 1), vec![1, 0, 1, 0]);
        let (g, _) = matchups(4, 2, true);
        assert_eq!(g, vec![vec![0, 1], vec![0, 2], vec![0, 3]]);
        assert_eq!(matchups(2, 1, false).0, vec![vec![0], vec![1]]);
    }

    /// Game i computed from its index is the game the listed schedule holds, for odd and
    /// even counts, one and two seats, and every shard count; nothing past the end.
    #[test]
    fn computed_slots_match_the_listed_schedule_and_shards_count_right() {
        for agents in 1..=4 {
            for seats in [1, 2] {
                if seats == 2 && agents < 2 {
                    continue;
                }
                for games in 1..=7 {
                    let p = plan(agents, seats, games, None);
                    let listed = listed(p.matchups.len(), p.cycle, games);
                    let computed: Vec<Slot> = p.slots().collect();
                    assert_eq!(computed, listed, "{agents} agents, {seats} seats, {games}");
                    assert_eq!(p.slot(listed.len() as u64), None);
                    assert_eq!(p.mine_count(), listed.len() as u64);
                    for n in 1..=5 {
                        for i in 0..n {
                            let q = plan(agents, seats, games, Some((i, n)));
                            let mine: Vec<Slot> = q.mine().collect();
                            let want: Vec<Slot> =
                                listed.iter().copied().filter(|s| s.pair % n == i).collect();
                            assert_eq!(mine, want);
                            assert_eq!(q.mine_count(), want.len() as u64, "{i}/{n}");
                        }
                    }
                }
            }
        }
    }

    /// A run of u64::MAX games is planned without listing it; one that cannot be numbered
    /// is refused.
    #[test]
    fn huge_runs_are_computed_not_listed() {
        let p = plan(2, 2, u64::MAX, None);
        assert_eq!(p.total(), Some(u64::MAX));
        let last = p.slot(u64::MAX - 1).unwrap();
        assert_eq!((last.round, last.rotation), (u64::MAX / 2, 0));
        assert_eq!(p.slot(u64::MAX), None);
        assert_eq!(p.mine().take(3).count(), 3);
        let specs = vec!["a".to_string(), "b".into(), "c".into()];
        let err = Plan::new(specs, 2, false, u64::MAX, 1, None).unwrap_err();
        assert!(err.to_string().contains("more games than a run can number"));
    }

    #[test]
    fn shard_syntax() {
        assert_eq!(parse_shard("1/4").unwrap(), (1, 4));
        assert!(parse_shard("4/4").is_err());
        assert!(parse_shard("0/0").is_err());
        assert!(parse_shard("x").is_err());
    }

    /// The same plan gives the same rows whatever the thread count, through `run`.
    #[test]
    fn rows_do_not_depend_on_threads() {
        use engine::variants::chess::{Chess, ChessParams};
        let plan = Plan::new(vec!["random".into(), "greedy".into()], 2, false, 6, 9, None).unwrap();
        let starts = Starts {
            games: vec![Chess::new(&ChessParams {
                ply_cap: 60,
                ..Default::default()
            })],
            texts: vec![String::new()],
        };
        let play = |threads| {
            let r = Run {
                variant: "chess",
                params_digest: "x",
                starts: &starts,
                threads,
                sprt: None,
                options: PlayOptions::default(),
            };
            let mut seen = 0;
            let sink = |_: &Row, _: f64| {
                seen += 1;
                Ok(())
            };
            let hidden = indicatif::ProgressBar::hidden();
            let out = run(&plan, &r, BTreeMap::new(), sink, &hidden).unwrap();
            assert_eq!(seen, 6);
            out.rows
                .into_values()
                .map(|r| r.to_line())
                .collect::<Vec<_>>()
        };
        assert_eq!(play(1), play(2));
    }
}

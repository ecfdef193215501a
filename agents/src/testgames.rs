//! Tiny games with known answers, used by the agents' tests and benchmarks (they are not
//! variants of the lab). Each passes `engine::game::conformance::check`.
//!
//! - [`Nim`]: perfect information, solved by exhaustive minimax.
//! - [`Fusion`]: hidden information built to show strategy fusion.
//! - [`BiasedRps`]: one simultaneous round of rock-paper-scissors with biased payoffs.
//! - [`DiceRace`]: a race with dice (chance nodes), solved by full-width expectimax.
//! - [`Trio`]: three seats each for itself (no two sides), for the agents' fallbacks.

use engine::game::{
    two_seat_returns, Dynamics, Game, GameError, GameFacts, GameResult, Returns, Seat, Turn,
};
use rand::{Rng, RngCore};
use std::hash::{Hash, Hasher};

fn hash_of<T: Hash>(x: &T) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

fn bad(text: &str) -> GameError {
    GameError::Action {
        action: text.into(),
        message: "not an action of this game".into(),
    }
}

// ----- Nim ------------------------------------------------------------------------------

/// Normal-play Nim on three piles (3, 4, 5): take any number from one pile; whoever takes
/// the last stone wins. The only winning first move is taking 2 from the pile of 3.
#[derive(Clone, Debug)]
pub struct Nim {
    pub piles: [u8; 3],
    history: Vec<(u8, u8)>,
}

impl Nim {
    pub fn with_piles(piles: [u8; 3]) -> Nim {
        Nim {
            piles,
            history: Vec::new(),
        }
    }
}

/// A Nim move: (pile, stones taken).
pub type NimMove = (u8, u8);

impl Game for Nim {
    type Action = NimMove;
    type Params = ();
    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
    }
    fn new(_: &()) -> Nim {
        Nim::with_piles([3, 4, 5])
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.piles.iter().all(|&p| p == 0) {
            Turn::Terminal
        } else {
            Turn::Seat(self.history.len() % 2)
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<NimMove>) {
        out.clear();
        if self.turn() != Turn::Seat(seat) {
            return;
        }
        for (i, &p) in self.piles.iter().enumerate() {
            for t in 1..=p {
                out.push((i as u8, t));
            }
        }
    }
    fn apply(&mut self, a: NimMove) {
        self.piles[a.0 as usize] -= a.1;
        self.history.push(a);
    }
    fn undo(&mut self) {
        let a = self.history.pop().expect("nothing to undo");
        self.piles[a.0 as usize] += a.1;
    }
    fn result(&self) -> Option<GameResult> {
        (self.turn() == Turn::Terminal).then(|| GameResult {
            // The seat that took the last stone wins.
            returns: two_seat_returns(Some((self.history.len() + 1) % 2)),
            reason: "last-stone",
        })
    }
    fn state_key(&self) -> u64 {
        hash_of(&(self.piles, self.history.len() % 2))
    }
    fn observation(&self, _: Seat) -> String {
        format!("{:?}", self.piles)
    }
    fn action_notation(&self, a: NimMove) -> String {
        format!("{}-{}", a.0, a.1)
    }
    fn parse_action(&self, text: &str) -> Result<NimMove, GameError> {
        let (p, t) = text.split_once('-').ok_or_else(|| bad(text))?;
        let a = (
            p.parse().map_err(|_| bad(text))?,
            t.parse().map_err(|_| bad(text))?,
        );
        let mut legal = Vec::new();
        if let Turn::Seat(s) = self.turn() {
            self.legal_actions(s, &mut legal);
        }
        legal.contains(&a).then_some(a).ok_or_else(|| bad(text))
    }
    fn history_len(&self) -> usize {
        self.history.len()
    }
}

// ----- Fusion ---------------------------------------------------------------------------

/// A hidden-information game built to show strategy fusion. Chance tosses a coin that
/// nobody sees. Seat 0 then plays `safe` (seat 0 gets +0.4) or `gamble`, after which it
/// must call the coin: right +1, wrong -1. Seat 1 never moves.
///
/// Per information set: calling is worth 0 whatever seat 0 calls, so `gamble` is worth 0
/// and `safe` (+0.4) is best. Searching each sampled world as if the coin were known
/// values `gamble` at +1 in every world, so voting picks `gamble`.
#[derive(Clone, Debug, Default)]
pub struct Fusion {
    history: Vec<FusionAction>,
}

/// Actions of [`Fusion`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FusionAction {
    Heads,
    Tails,
    Safe,
    Gamble,
    CallHeads,
    CallTails,
}

const FUSION_NAMES: [(FusionAction, &str); 6] = [
    (FusionAction::Heads, "heads"),
    (FusionAction::Tails, "tails"),
    (FusionAction::Safe, "safe"),
    (FusionAction::Gamble, "gamble"),
    (FusionAction::CallHeads, "call-heads"),
    (FusionAction::CallTails, "call-tails"),
];

impl Fusion {
    fn coin(&self) -> Option<FusionAction> {
        self.history.first().copied()
    }
}

impl Game for Fusion {
    type Action = FusionAction;
    type Params = ();
    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC
            .with_chance(true)
            .with_hidden_information(true)
    }
    fn new(_: &()) -> Fusion {
        Fusion::default()
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        use FusionAction::*;
        match self.history.as_slice() {
            [] => Turn::Chance,
            [_] | [_, Gamble] => Turn::Seat(0),
            _ => Turn::Terminal,
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<FusionAction>) {
        use FusionAction::*;
        out.clear();
        if seat != 0 {
            return;
        }
        match self.history.as_slice() {
            [_] => out.extend([Safe, Gamble]),
            [_, Gamble] => out.extend([CallHeads, CallTails]),
            _ => {}
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(FusionAction, f64)>) {
        out.clear();
        if self.history.is_empty() {
            out.extend([(FusionAction::Heads, 0.5), (FusionAction::Tails, 0.5)]);
        }
    }
    fn apply(&mut self, a: FusionAction) {
        self.history.push(a);
    }
    fn undo(&mut self) {
        self.history.pop();
    }
    fn result(&self) -> Option<GameResult> {
        use FusionAction::*;
        let mut returns: Returns = [0.0; 4];
        let v = match self.history.as_slice() {
            [_, Safe] => 0.4,
            [coin, Gamble, call] => {
                let right = matches!((coin, call), (Heads, CallHeads) | (Tails, CallTails));
                if right {
                    1.0
                } else {
                    -1.0
                }
            }
            _ => return None,
        };
        returns[0] = v;
        returns[1] = -v;
        Some(GameResult {
            returns,
            reason: "end",
        })
    }
    fn state_key(&self) -> u64 {
        hash_of(&self.history)
    }
    fn information_key(&self, _seat: Seat) -> u64 {
        // Nobody sees the coin: only whether it was tossed and seat 0's moves.
        let seen: Vec<Option<FusionAction>> = self
            .history
            .iter()
            .enumerate()
            .map(|(i, &a)| (i > 0).then_some(a))
            .collect();
        hash_of(&seen)
    }
    fn observation(&self, seat: Seat) -> String {
        format!("{seat}:{:?}", &self.history[self.history.len().min(1)..])
    }
    fn sample_world(&self, _seat: Seat, rng: &mut dyn RngCore) -> Fusion {
        let mut w = self.clone();
        if !w.history.is_empty() {
            w.history[0] = if rng.gen_bool(0.5) {
                FusionAction::Heads
            } else {
                FusionAction::Tails
            };
        }
        debug_assert!(w.coin().is_some() || self.history.is_empty());
        w
    }
    fn action_notation(&self, a: FusionAction) -> String {
        FUSION_NAMES.iter().find(|n| n.0 == a).unwrap().1.into()
    }
    fn parse_action(&self, text: &str) -> Result<FusionAction, GameError> {
        FUSION_NAMES
            .iter()
            .find(|n| n.1 == text)
            .map(|n| n.0)
            .ok_or_else(|| bad(text))
    }
    fn history_len(&self) -> usize {
        self.history.len()
    }
}

// ----- Biased rock-paper-scissors ---------------------------------------------------------

/// One simultaneous round of rock (0), paper (1), scissors (2). Seat 0 receives
/// `PAYOFF[a0][a1]`, seat 1 the negative: paper beats rock by 0.5, scissors beat paper by
/// 0.5, rock beats scissors by 1. The unique equilibrium is (1/4, 1/2, 1/4) for both
/// seats, with value 0.
#[derive(Clone, Debug, Default)]
pub struct BiasedRps {
    played: Option<[u8; 2]>,
}

/// Seat 0's payoff.
pub const RPS_PAYOFF: [[f64; 3]; 3] = [[0.0, -0.5, 1.0], [0.5, 0.0, -0.5], [-1.0, 0.5, 0.0]];

/// The equilibrium strategy of [`BiasedRps`] (both seats).
pub const RPS_EQUILIBRIUM: [f64; 3] = [0.25, 0.5, 0.25];

impl Game for BiasedRps {
    type Action = u8;
    type Params = ();
    fn facts(&self) -> GameFacts {
        GameFacts {
            dynamics: Dynamics::Simultaneous,
            ..GameFacts::TWO_SEAT_CLASSIC
        }
    }
    fn new(_: &()) -> BiasedRps {
        BiasedRps::default()
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.played.is_some() {
            Turn::Terminal
        } else {
            Turn::Simultaneous
        }
    }
    fn legal_actions(&self, _seat: Seat, out: &mut Vec<u8>) {
        out.clear();
        if self.played.is_none() {
            out.extend([0, 1, 2]);
        }
    }
    fn apply(&mut self, _a: u8) {
        panic!("BiasedRps has only simultaneous nodes");
    }
    fn apply_joint(&mut self, actions: &[u8]) {
        self.played = Some([actions[0], actions[1]]);
    }
    fn undo(&mut self) {
        self.played = None;
    }
    fn result(&self) -> Option<GameResult> {
        self.played.map(|[a, b]| {
            let v = RPS_PAYOFF[a as usize][b as usize];
            let mut returns = [0.0; 4];
            returns[0] = v;
            returns[1] = -v;
            GameResult {
                returns,
                reason: "shown",
            }
        })
    }
    fn state_key(&self) -> u64 {
        hash_of(&self.played)
    }
    fn observation(&self, _: Seat) -> String {
        format!("{:?}", self.played)
    }
    fn action_notation(&self, a: u8) -> String {
        ["rock", "paper", "scissors"][a as usize].into()
    }
    fn parse_action(&self, text: &str) -> Result<u8, GameError> {
        match text {
            "rock" => Ok(0),
            "paper" => Ok(1),
            "scissors" => Ok(2),
            _ => Err(bad(text)),
        }
    }
    fn history_len(&self) -> usize {
        self.played.is_some() as usize
    }
}

// ----- Dice race -------------------------------------------------------------------------

/// A race to `DICE_TARGET` points over at most `DICE_TURNS` turns, seats alternating.
/// On a turn the mover steps (+1) or rolls: +0 (1/4), +2 (1/2) or +3 (1/4). Reaching the
/// target wins (±1); when the turns run out, the return is the score difference / 10.
#[derive(Clone, Debug, Default)]
pub struct DiceRace {
    scores: [u8; 2],
    turns: u8,
    rolling: bool,
    history: Vec<DiceAction>,
}

pub const DICE_TARGET: u8 = 6;
pub const DICE_TURNS: u8 = 8;

/// Actions of [`DiceRace`]: `Step`, `Roll`, and chance outcomes `Add(k)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DiceAction {
    Step,
    Roll,
    Add(u8),
}

impl Game for DiceRace {
    type Action = DiceAction;
    type Params = ();
    fn facts(&self) -> GameFacts {
        GameFacts::TWO_SEAT_CLASSIC.with_chance(true)
    }
    fn new(_: &()) -> DiceRace {
        DiceRace::default()
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.result().is_some() {
            Turn::Terminal
        } else if self.rolling {
            Turn::Chance
        } else {
            Turn::Seat((self.turns % 2) as usize)
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<DiceAction>) {
        out.clear();
        if self.turn() == Turn::Seat(seat) {
            out.extend([DiceAction::Step, DiceAction::Roll]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(DiceAction, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.extend([
                (DiceAction::Add(0), 0.25),
                (DiceAction::Add(2), 0.5),
                (DiceAction::Add(3), 0.25),
            ]);
        }
    }
    fn apply(&mut self, a: DiceAction) {
        let mover = (self.turns % 2) as usize;
        match a {
            DiceAction::Step => {
                self.scores[mover] += 1;
                self.turns += 1;
            }
            DiceAction::Roll => self.rolling = true,
            DiceAction::Add(k) => {
                self.scores[mover] += k;
                self.turns += 1;
                self.rolling = false;
            }
        }
        self.history.push(a);
    }
    fn undo(&mut self) {
        match self.history.pop().expect("nothing to undo") {
            DiceAction::Step => {
                self.turns -= 1;
                self.scores[(self.turns % 2) as usize] -= 1;
            }
            DiceAction::Roll => self.rolling = false,
            DiceAction::Add(k) => {
                self.turns -= 1;
                self.scores[(self.turns % 2) as usize] -= k;
                self.rolling = true;
            }
        }
    }
    fn result(&self) -> Option<GameResult> {
        if self.rolling {
            return None;
        }
        for s in 0..2 {
            if self.scores[s] >= DICE_TARGET {
                return Some(GameResult {
                    returns: two_seat_returns(Some(s)),
                    reason: "target",
                });
            }
        }
        if self.turns >= DICE_TURNS {
            let d = (self.scores[0] as f64 - self.scores[1] as f64) / 10.0;
            let mut returns = [0.0; 4];
            returns[0] = d;
            returns[1] = -d;
            return Some(GameResult {
                returns,
                reason: "turns",
            });
        }
        None
    }
    fn state_key(&self) -> u64 {
        hash_of(&(self.scores, self.turns, self.rolling))
    }
    fn observation(&self, _: Seat) -> String {
        format!("{:?} turn {}", self.scores, self.turns)
    }
    fn action_notation(&self, a: DiceAction) -> String {
        match a {
            DiceAction::Step => "step".into(),
            DiceAction::Roll => "roll".into(),
            DiceAction::Add(k) => format!("+{k}"),
        }
    }
    fn parse_action(&self, text: &str) -> Result<DiceAction, GameError> {
        match text {
            "step" => Ok(DiceAction::Step),
            "roll" => Ok(DiceAction::Roll),
            t => t
                .strip_prefix('+')
                .and_then(|k| k.parse().ok())
                .map(DiceAction::Add)
                .ok_or_else(|| bad(text)),
        }
    }
    fn history_len(&self) -> usize {
        self.history.len()
    }
    fn material(&self, seat: Seat) -> f64 {
        self.scores[seat] as f64 - self.scores[1 - seat] as f64
    }
}

// ----- Trio -----------------------------------------------------------------------------

/// Three seats, each for itself: in turn each says `low` or `high`; whoever said `high`
/// alone wins (+1, the others -1/2), else everybody draws. Its seats form three teams,
/// so two-sided searches cannot play it.
#[derive(Clone, Debug, Default)]
pub struct Trio {
    said: Vec<bool>,
}

impl Game for Trio {
    type Action = bool;
    type Params = ();
    fn facts(&self) -> GameFacts {
        GameFacts {
            seats: 3,
            ..GameFacts::TWO_SEAT_CLASSIC
        }
    }
    fn new(_: &()) -> Trio {
        Trio::default()
    }
    fn num_seats(&self) -> usize {
        3
    }
    fn turn(&self) -> Turn {
        if self.said.len() == 3 {
            Turn::Terminal
        } else {
            Turn::Seat(self.said.len())
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<bool>) {
        out.clear();
        if self.turn() == Turn::Seat(seat) {
            out.extend([false, true]);
        }
    }
    fn apply(&mut self, a: bool) {
        self.said.push(a);
    }
    fn undo(&mut self) {
        self.said.pop().expect("nothing to undo");
    }
    fn result(&self) -> Option<GameResult> {
        if self.said.len() < 3 {
            return None;
        }
        let mut returns: Returns = [0.0; engine::game::MAX_SEATS];
        let highs: Vec<usize> = (0..3).filter(|&s| self.said[s]).collect();
        if let [winner] = highs[..] {
            for (s, r) in returns.iter_mut().enumerate().take(3) {
                *r = if s == winner { 1.0 } else { -0.5 };
            }
        }
        Some(GameResult {
            returns,
            reason: "said",
        })
    }
    fn state_key(&self) -> u64 {
        hash_of(&self.said)
    }
    fn observation(&self, _: Seat) -> String {
        format!("{:?}", self.said)
    }
    fn action_notation(&self, a: bool) -> String {
        if a { "high" } else { "low" }.into()
    }
    fn parse_action(&self, text: &str) -> Result<bool, GameError> {
        match text {
            "low" => Ok(false),
            "high" => Ok(true),
            _ => Err(bad(text)),
        }
    }
    fn history_len(&self) -> usize {
        self.said.len()
    }
}

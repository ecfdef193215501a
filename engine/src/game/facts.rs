//! Static facts about a game, after OpenSpiel's `GameType`: what kinds of nodes it has,
//! what seats can see and how returns relate. Each variant declares them beside its rules
//! ([`super::Game::facts`]); agents read them to pick a search on purpose (see
//! `agents::fallback`), help texts print them, and the conformance check verifies them
//! against play: a game that meets a chance node must declare chance, and so on.
//!
//! Facts may depend on the parameters (Cassandra's `secret` option makes it an
//! imperfect-information game; Chess960 with a random start has a chance node) but never
//! change during a game.

use std::fmt;

/// Whether the game has chance nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChanceMode {
    /// No chance node is ever reached.
    Deterministic,
    /// Chance nodes with explicit outcome probabilities ([`super::Game::chance_outcomes`]).
    Explicit,
}

/// Whether seats ever choose at the same time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dynamics {
    /// One seat (or chance) acts at every node.
    Sequential,
    /// Some nodes are simultaneous ([`super::Turn::Simultaneous`]).
    Simultaneous,
}

/// Whether every seat sees the whole state. Choices made at once at a simultaneous node
/// are not hidden information in this sense (no seat sees the others' part before it
/// acts, by construction of the node), so Two Move and Synchronous are `Perfect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Information {
    /// Information keys equal the state key; `sample_world` is the state itself.
    Perfect,
    /// Some seat cannot see part of the state; `sample_world` draws what it cannot see.
    Imperfect,
}

/// How the seats' returns relate at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Utility {
    /// Every seat for itself; returns sum to zero.
    ZeroSum,
    /// Two teams (`Game::team`); partners receive the same return, the teams' returns
    /// sum to zero.
    Team,
    /// Every seat receives the same return (a cooperative game or a puzzle).
    Identical,
}

/// The facts of one game (for given parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameFacts {
    pub chance: ChanceMode,
    pub dynamics: Dynamics,
    pub information: Information,
    pub utility: Utility,
    /// Number of seats (equals `Game::num_seats`).
    pub seats: usize,
    /// The orthodox board's check is the game's check: every seat decision is one move
    /// of the board's side to move (the seat's colour), after which the turn passes to
    /// the other colour, and a move may not leave the mover's own king attacked on the
    /// board. Then `Board::in_check` of the side to move says whether the seat is in the
    /// game's check, and searches may extend checks and search evasions (`alphabeta`).
    /// False where the board's check means something else (Half Alice's combined board,
    /// Crowded House's "capturable by the next seat"), where a turn is several moves or
    /// placements, or where pieces move unlike their roles on the board. The
    /// conformance check verifies a `true` against play.
    pub board_check: bool,
    /// The game offers a pass for null-move pruning ([`super::Game::apply_null`]): a
    /// pass is a sound lower bound on the mover's prospects (no compound turns, chance
    /// after the start, hidden information, or zugzwang as the rule). Searches try a
    /// null move only where this is true; the conformance check verifies that
    /// `apply_null` refuses where it is false.
    pub null_move: bool,
    /// Every position of the game is an orthodox chess position under orthodox rules
    /// (orthodox chess and Chess960), so an evaluation fitted to orthodox positions
    /// scores them as it was fitted to (the agents' search evaluation reads
    /// `agents/data/eval/orthodox.toml` there). False for every variant, even one built
    /// on the orthodox board: its positions mean something else.
    pub orthodox_positions: bool,
    /// [`super::Game::in_check`] is the game's check for the seat to move: a seat in it
    /// must answer it, so searches extend it, search its evasions in quiescence and do
    /// not prune there (`alphabeta`). Implied by `board_check` (where the board's check
    /// is the game's, the default `in_check` reads the board). Half Alice (its mirrored
    /// sides), Crowded House (capturable by the next seat) and Adrenaline (checkers'
    /// extra steps) declare it with their own `in_check`. Cassandra's check at a move is
    /// the board's, but it does not declare it: extending it measured worse (its facts).
    pub game_check: bool,
    /// Every seat decision is a whole turn after which the other team decides (or the
    /// game ends), so a node's static score bounds its quiet moves within a margin:
    /// searches may prune near the leaves there (reverse futility, futility, late-move
    /// pruning, the adaptive reductions). False where a turn is several decisions of one
    /// seat (Two Move's cards and moves, Adrenaline's steps, Zombie's zombies,
    /// Clairvoyant's purchases), where chance falls between a seat's decisions
    /// (Expedition) or at simultaneous nodes. The conformance check verifies a `true`.
    pub quiet_pruning: bool,
    /// A capture takes exactly the enemy piece on the destination square and moves
    /// nothing else, and any piece of either colour may answer on that square, so the
    /// static exchange of the board's pieces is the exchange of the game: searches may
    /// order and prune captures by it (`alphabeta`'s SEE). False where captures take
    /// something else (Adrenaline's checkers, Zombie's burials), only one side of a
    /// mirror may answer (Half Alice), or capture patterns are hidden (Masquerade). The
    /// conformance check verifies the board part of a `true`.
    pub static_exchange: bool,
    /// The name of the search evaluation fitted to this game's own positions (the agents'
    /// `data/eval/<eval>.toml`); empty where the game has none and the general board
    /// weights apply. A variant names itself (its registry name; a test checks).
    pub eval: &'static str,
}

impl GameFacts {
    /// A two-seat, zero-sum, sequential, deterministic, perfect-information game;
    /// variants adjust the fields that differ. `board_check` and `null_move` are false
    /// here: a variant claims them with [`GameFacts::with_board_check`] and
    /// [`GameFacts::with_null_move`] (orthodox chess does), so a new variant built on
    /// this gets no check extensions and no null move until its rules are checked.
    pub const TWO_SEAT_CLASSIC: GameFacts = GameFacts {
        chance: ChanceMode::Deterministic,
        dynamics: Dynamics::Sequential,
        information: Information::Perfect,
        utility: Utility::ZeroSum,
        seats: 2,
        board_check: false,
        null_move: false,
        orthodox_positions: false,
        game_check: false,
        quiet_pruning: false,
        static_exchange: false,
        eval: "",
    };

    /// Declares the searches' switches that follow from the board's check being the
    /// game's (orthodox chess, Chess960): `board_check`, `game_check`,
    /// `quiet_pruning` and `static_exchange` together.
    pub const fn with_orthodox_search(self) -> GameFacts {
        GameFacts {
            board_check: true,
            game_check: true,
            quiet_pruning: true,
            static_exchange: true,
            ..self
        }
    }

    /// Declares that [`super::Game::in_check`] is the game's check (see
    /// [`GameFacts::game_check`]).
    pub const fn with_game_check(self, game_check: bool) -> GameFacts {
        GameFacts { game_check, ..self }
    }

    /// Declares that every seat decision is a whole turn (see
    /// [`GameFacts::quiet_pruning`]).
    pub const fn with_quiet_pruning(self, quiet_pruning: bool) -> GameFacts {
        GameFacts {
            quiet_pruning,
            ..self
        }
    }

    /// Declares that captures are the board's ordinary ones (see
    /// [`GameFacts::static_exchange`]).
    pub const fn with_static_exchange(self, static_exchange: bool) -> GameFacts {
        GameFacts {
            static_exchange,
            ..self
        }
    }

    /// Names the evaluation fitted to this game's positions (see [`GameFacts::eval`]).
    pub const fn with_eval(self, eval: &'static str) -> GameFacts {
        GameFacts { eval, ..self }
    }

    /// Declares whether the game offers a pass for null-move pruning (see
    /// [`GameFacts::null_move`]).
    pub const fn with_null_move(self, null_move: bool) -> GameFacts {
        GameFacts { null_move, ..self }
    }

    /// Declares whether every position is an orthodox one (see
    /// [`GameFacts::orthodox_positions`]).
    pub const fn with_orthodox_positions(self, orthodox_positions: bool) -> GameFacts {
        GameFacts {
            orthodox_positions,
            ..self
        }
    }

    /// Declares whether the board's check is the game's check (see
    /// [`GameFacts::board_check`]).
    pub const fn with_board_check(self, board_check: bool) -> GameFacts {
        GameFacts {
            board_check,
            ..self
        }
    }

    pub fn with_chance(self, explicit: bool) -> GameFacts {
        GameFacts {
            chance: if explicit {
                ChanceMode::Explicit
            } else {
                ChanceMode::Deterministic
            },
            ..self
        }
    }

    pub fn with_hidden_information(self, hidden: bool) -> GameFacts {
        GameFacts {
            information: if hidden {
                Information::Imperfect
            } else {
                Information::Perfect
            },
            ..self
        }
    }
}

impl fmt::Display for GameFacts {
    /// One line for help texts: `2 seats, zero-sum, sequential, chance, imperfect`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let utility = match self.utility {
            Utility::ZeroSum => "zero-sum",
            Utility::Team => "two teams",
            Utility::Identical => "cooperative",
        };
        let dynamics = match self.dynamics {
            Dynamics::Sequential => "sequential",
            Dynamics::Simultaneous => "simultaneous",
        };
        let chance = match self.chance {
            ChanceMode::Deterministic => "no chance",
            ChanceMode::Explicit => "chance",
        };
        let info = match self.information {
            Information::Perfect => "perfect information",
            Information::Imperfect => "hidden information",
        };
        let s = if self.seats == 1 { "" } else { "s" };
        write!(
            f,
            "{} seat{s}, {utility}, {dynamics}, {chance}, {info}",
            self.seats
        )
    }
}

//! Making a game: from a request or a stored row ([`NewGame`]) through the variant
//! registry ([`Builder`]), with what a request may give checked here.
//!
//! Issue 65: practice (`practice_of`: what a creator fixed, refused with two people
//! unless asked), and `*_cap` parameters a request gives at most [`MAX_CAP`]
//! ([`check_request_params`]). Tests in `experiments/tests/serve_limits.rs`.

use super::api::ApiError;
use super::games::{chain, AgentRules, Session, HUMAN};
use super::limits::Use;
use super::session::GameSession;
use crate::util::mix;
use engine::game::{Game, Information};
use engine::registry::VariantVisitor;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::collections::HashMap;
use std::sync::Arc;

/// Longest game length (`ply_cap`, `move_cap`, any `*_cap`) a request may ask for: a
/// board game is played by hand, and the record is kept whole.
pub const MAX_CAP: i64 = 10_000;

/// Checks the numbers a request gives in its parameters (`over`, TOML) against the
/// server's ranges: every `*_cap` between 0 and [`MAX_CAP`]. The variant's own
/// validation checks the rest of its rules.
pub fn check_request_params(over: &toml::Table) -> Result<(), ApiError> {
    fn walk(prefix: &str, t: &toml::Table) -> Result<(), ApiError> {
        for (k, v) in t {
            let path = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match v {
                toml::Value::Table(inner) => walk(&path, inner)?,
                toml::Value::Integer(n) if k.ends_with("_cap") && !(0..=MAX_CAP).contains(n) => {
                    return Err(ApiError::bad_request(format!(
                        "params: {path} = {n} is outside the board's range 0 to {MAX_CAP}"
                    )))
                }
                _ => {}
            }
        }
        Ok(())
    }
    walk("", over)
}

/// Reads `over` (TOML text or a JSON object) over `base`'s TOML, table by table.
pub(super) fn merged_params<P: engine::game::VariantParams>(
    name: &str,
    base: &str,
    over: &serde_json::Value,
) -> Result<P, ApiError> {
    let over: toml::Table = match over {
        serde_json::Value::String(t) => toml::from_str(t)
            .map_err(|e| ApiError::bad_request(format!("params: not TOML: {e}")))?,
        v @ serde_json::Value::Object(_) => toml::Table::try_from(v)
            .map_err(|e| ApiError::bad_request(format!("params: not a TOML table: {e}")))?,
        _ => {
            return Err(ApiError::bad_request(
                "params: give TOML text or a JSON object",
            ))
        }
    };
    fn merge(base: &mut toml::Table, over: toml::Table) {
        for (k, v) in over {
            match (base.get_mut(&k), v) {
                (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
                (_, v) => {
                    base.insert(k, v);
                }
            }
        }
    }
    check_request_params(&over)?;
    let mut table: toml::Table = toml::from_str(base)
        .map_err(|e| ApiError::internal(format!("the game's own parameters: {e}")))?;
    merge(&mut table, over);
    let text = toml::to_string(&table).map_err(|e| ApiError::internal(e.to_string()))?;
    let p = engine::registry::parse_params(name, Some(&text), P::default())
        .and_then(|p| engine::registry::validated(name, p))
        .map_err(|e| ApiError::bad_request(chain(&e)))?;
    Ok(p)
}

/// What a new game is made from.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The creator's seed; `None`: from the operating system when a human plays, else 1.
    pub seed: Option<u64>,
    /// Set when a stored game is rebuilt (whether it is practice, and why); `None`: a new
    /// game, whose practice follows [`NewGame::asked_practice`] and what the creator fixed.
    pub practice: Option<(bool, Option<String>)>,
    /// The creator asked for a practice game (`"practice": true`).
    pub asked_practice: bool,
    pub rules: Arc<AgentRules>,
    pub opening: Option<String>,
    /// Per seat `"human"` or an agent spec; one entry fills every seat.
    pub seats: Vec<String>,
}

/// Builds a [`Session`] for the variant [`engine::registry::visit`] hands over.
pub struct Builder(pub NewGame);

impl VariantVisitor for Builder {
    type Output = Result<Box<dyn Session>, ApiError>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Self::Output {
        let NewGame {
            seed: given_seed,
            practice,
            asked_practice,
            rules,
            opening,
            seats,
        } = self.0;
        let start = match &opening {
            Some(text) => G::from_opening(&params, text)
                .map_err(|e| ApiError::bad_request(format!("opening: {}", chain(&e))))?,
            None => G::new(&params),
        };
        let n = start.num_seats();
        let specs = match seats.len() {
            0 => vec![HUMAN.to_string(); n],
            1 => vec![seats[0].clone(); n],
            k if k == n => seats,
            k => {
                return Err(ApiError::bad_request(format!(
                    "seats: {name} has {n} seat(s) but {k} were given"
                )))
            }
        };
        let human_seats = specs.iter().filter(|s| s.trim() == HUMAN).count();
        let humans = human_seats > 0;
        let hidden = !start.is_perfect_information();
        // Bots beside a human in a hidden-information game decide from their seat's
        // information only: a bot reading the true state would show it in its play.
        let used = if humans && hidden {
            Use::BesideHumans
        } else {
            Use::BotsOnly
        };
        let mut bots = Vec::with_capacity(n);
        for spec in &specs {
            let spec = spec.trim();
            if spec == HUMAN {
                bots.push(None);
            } else {
                bots.push(Some(rules.build::<G>(spec, used)?));
            }
        }
        // A human's game is seeded from the operating system unless the creator chose the
        // seed.
        let seed = match given_seed {
            Some(s) => s,
            None if humans => {
                use rand::RngCore;
                rand::rngs::OsRng.next_u64()
            }
            None => 1,
        };
        let params_json = serde_json::to_value(&params).unwrap_or(serde_json::Value::Null);
        let (practice, practice_why) = match practice {
            Some(stored) => stored,
            None => practice_of(
                &start,
                name,
                &params_json,
                Fixed {
                    seed: given_seed.is_some(),
                    opening: opening.is_some(),
                    asked: asked_practice,
                },
                human_seats,
            )?,
        };
        let params = (
            params_json,
            toml::to_string(&params).unwrap_or_default(),
            crate::util::digest_hex(&crate::util::params_canonical(&params)),
        );
        Ok(Box::new(GameSession::<G> {
            name,
            params,
            game: start.clone(),
            seed,
            opening,
            seat_specs: specs.iter().map(|s| s.trim().to_string()).collect(),
            bots,
            bot_rngs: (0..n)
                .map(|s| Pcg64::seed_from_u64(mix(seed, s as u64 + 1)))
                .collect(),
            chance_rng: Pcg64::seed_from_u64(mix(seed, 0)),
            used,
            out: None,
            start,
            actions: Vec::new(),
            deciders: Vec::new(),
            commits: HashMap::new(),
            version: 0,
            practice,
            practice_why,
            rules,
            forfeit: None,
        }))
    }
}

/// What a creator fixed beside the rules.
struct Fixed {
    seed: bool,
    opening: bool,
    asked: bool,
}

/// Whether a new game is practice, and why (issue 65): in a game with a human seat, a
/// creator who fixes what is hidden or left to chance (the seed where there is hidden
/// information, simultaneous moves or chance; an opening where there is hidden
/// information; a parameter of [`super::rules::HIDDEN_PARAMS`]) could know what a seat
/// cannot see. With one person that person is the creator: the game is practice. With two
/// or more people the creator would know another's secret: refused unless the creator
/// asked for practice, which every seat's view then shows.
fn practice_of<G: Game>(
    start: &G,
    name: &str,
    params: &serde_json::Value,
    fixed: Fixed,
    human_seats: usize,
) -> Result<(bool, Option<String>), ApiError> {
    if human_seats == 0 {
        return Ok((false, None));
    }
    let facts = start.facts();
    let hidden = facts.information != Information::Perfect;
    let secret_moves = facts.dynamics == engine::game::Dynamics::Simultaneous;
    let chance = facts.chance != engine::game::ChanceMode::Deterministic;
    let mut what: Vec<String> = Vec::new();
    if fixed.seed && (hidden || secret_moves || chance) {
        what.push("the seed".into());
    }
    if fixed.opening && hidden {
        what.push("the opening position".into());
    }
    for key in super::rules::hidden_params_given(name, params) {
        what.push(format!("the parameter {key}"));
    }
    if fixed.asked {
        let why = if what.is_empty() {
            "its creator asked for a practice game".to_string()
        } else {
            format!(
                "its creator asked for a practice game and chose {}",
                what.join(", ")
            )
        };
        return Ok((true, Some(why)));
    }
    if what.is_empty() {
        return Ok((false, None));
    }
    if human_seats > 1 {
        return Err(ApiError::bad_request(format!(
            "{} would fix what one person cannot see in a game two people play, and its creator would know it; leave it out, or ask for a practice game (\"practice\": true), which every seat's view shows",
            what.join(", ")
        )));
    }
    Ok((true, Some(format!("its creator chose {}", what.join(", ")))))
}

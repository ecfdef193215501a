//! Agent settings schemas: for every agent, each key it reads with its kind, range,
//! default and whether a tuner may vary it. `from_spec` reads specs through
//! [`Settings::read`], the registry's doc table and `--help` are generated from the same
//! lists ([`crate::registry::doc_table`]), and a tuner reads [`Setting::tunable`] and the
//! ranges; no list of keys is kept by hand anywhere else.
//!
//! Rules a spec must follow (each refusal names the rule, `AgentError`):
//! - every key is one of the agent's settings (an agent without settings says so);
//! - integers are whole numbers within the setting's range;
//! - real numbers are finite and within the range (`nan`, `inf` and `-inf` are refused:
//!   a NaN exploration constant used to make UCT select nothing and crash the game);
//! - choices are one of the listed words, booleans `true` or `false`;
//! - the syntax rules (each key once, no empty spec, no `name:` without settings) are
//!   [`crate::spec::Spec::parse`]'s.
//!
//! Decisions where the issue texts are silent: `time_ms` must be positive like `iters`
//! and `nodes` (a zero budget is refused, not read as "no limit"); `worlds` must be
//! positive (it was silently raised to 1); `noise` above 10,000 centipawns is refused
//! (it was silently clamped); `c` ranges over [0, 100] and every `eval.*` weight over
//! [-100, 100] pawns (wide enough for any tuner, narrow enough to catch typos).
//! `eval=FILE` reads [`EvalWeights`] from a TOML file (the `values.toml` that `chesslab
//! values` writes) when the spec is read, checking the same range; `eval.*` keys given
//! beside it override the file's weights (test `rule_eval_file_loads_weights`). Tests: `rule_*` in this module and in `registry`.

use crate::eval::EvalWeights;
use crate::spec::{AgentError, Spec};
use std::collections::BTreeMap;

/// What values a setting takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int { min: u64, max: u64 },
    /// A finite real number in `min..=max`.
    Real { min: f64, max: f64 },
    /// `true` or `false`.
    Bool,
    /// One of the words.
    Choice(&'static [&'static str]),
    /// A path to a file, read when the spec is read.
    File,
    /// Any non-empty text without `,`, `;` or `:` (a program name, an option value).
    Text,
}

impl Kind {
    /// The rule in words, for errors and the doc table.
    pub fn describe(&self) -> String {
        match self {
            Kind::Int { min, max } if *max == u64::MAX => format!("an integer >= {min}"),
            Kind::Int { min, max } => format!("an integer from {min} to {max}"),
            Kind::Real { min, max } => format!("a finite number from {min} to {max}"),
            Kind::Bool => "true or false".into(),
            Kind::Choice(words) => format!("one of {}", words.join(", ")),
            Kind::File => "a file path".into(),
            Kind::Text => "text".into(),
        }
    }
}

/// One key of an agent's spec.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    pub key: &'static str,
    pub kind: Kind,
    /// The value used when the key is absent, as spec text; `""` when absent means
    /// "not set" (an unset budget limit, no seed).
    pub default: &'static str,
    /// Whether a tuner may vary it (strength knobs yes; budgets, seeds and table sizes
    /// no).
    pub tunable: bool,
    pub help: &'static str,
}

/// A parsed value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(u64),
    Real(f64),
    Bool(bool),
    Choice(&'static str),
    Text(String),
    /// Evaluation weights read from a file (`eval=FILE`).
    Weights(Box<EvalWeights>),
}

impl Setting {
    /// Parses `text` by this setting's kind and range.
    pub fn parse(&self, agent: &str, text: &str) -> Result<Value, AgentError> {
        let bad = || AgentError::BadValue {
            agent: agent.into(),
            key: self.key.into(),
            value: text.into(),
            expected: format!("must be {}", self.kind.describe()),
        };
        match self.kind {
            Kind::Int { min, max } => {
                let v: u64 = text.parse().map_err(|_| bad())?;
                if v < min || v > max {
                    return Err(bad());
                }
                Ok(Value::Int(v))
            }
            Kind::Real { min, max } => {
                let v: f64 = text.parse().map_err(|_| bad())?;
                if !v.is_finite() || v < min || v > max {
                    return Err(bad());
                }
                Ok(Value::Real(v))
            }
            Kind::Bool => text.parse().map(Value::Bool).map_err(|_| bad()),
            // A near miss (`rollout=havy`) is answered with the word meant, as names are.
            Kind::Choice(words) => words
                .iter()
                .find(|w| **w == text)
                .map(|w| Value::Choice(w))
                .ok_or_else(|| AgentError::BadValue {
                    agent: agent.into(),
                    key: self.key.into(),
                    value: text.into(),
                    expected: format!(
                        "must be {}{}",
                        self.kind.describe(),
                        engine::suggest::did_you_mean(text, words.iter().copied())
                    ),
                }),
            Kind::Text => {
                if text.is_empty() || text.contains([',', ';', ':']) {
                    return Err(AgentError::BadValue {
                        agent: agent.into(),
                        key: self.key.into(),
                        value: text.into(),
                        expected: "must be non-empty text without ',', ';' or ':'".into(),
                    });
                }
                Ok(Value::Text(text.into()))
            }
            Kind::File => {
                // Read and checked now, so a bad file fails the spec, not a game later.
                let fail = |why: String| AgentError::BadValue {
                    agent: agent.into(),
                    key: self.key.into(),
                    value: text.into(),
                    expected: why,
                };
                let body = std::fs::read_to_string(text)
                    .map_err(|e| fail(format!("a readable TOML file of eval weights ({e})")))?;
                let w: EvalWeights = toml::from_str(&body)
                    .map_err(|e| fail(format!("TOML eval weights (pawn, knight, ...): {e}")))?;
                for s in crate::eval::EVAL_SETTINGS {
                    let field = s.key.strip_prefix("eval.").unwrap_or(s.key);
                    let x = w.get(field).unwrap_or(0.0);
                    if !x.is_finite() || !(-100.0..=100.0).contains(&x) {
                        return Err(fail(format!("{field} = {x} within [-100, 100] pawns")));
                    }
                }
                crate::eval::features::check_file(&w).map_err(fail)?;
                Ok(Value::Weights(Box::new(w)))
            }
        }
    }
}

/// An agent's settings read from a spec against its schema: every given key checked,
/// every default available.
#[derive(Clone, Debug)]
pub struct Settings {
    agent: String,
    schema: Vec<Setting>,
    given: BTreeMap<&'static str, Value>,
}

impl Settings {
    /// Checks every key of `spec` against `schema` and parses its value.
    pub fn read(spec: &Spec, schema: &[Setting]) -> Result<Settings, AgentError> {
        let mut given = BTreeMap::new();
        for (k, v) in spec.pairs() {
            let Some(s) = schema.iter().find(|s| s.key == k) else {
                return Err(AgentError::UnknownKey {
                    agent: spec.name.clone(),
                    key: k.into(),
                    known: if schema.is_empty() {
                        String::new()
                    } else {
                        schema.iter().map(|s| s.key).collect::<Vec<_>>().join(", ")
                    },
                });
            };
            given.insert(s.key, s.parse(&spec.name, v)?);
        }
        Ok(Settings {
            agent: spec.name.clone(),
            schema: schema.to_vec(),
            given,
        })
    }

    fn setting(&self, key: &str) -> &Setting {
        self.schema
            .iter()
            .find(|s| s.key == key)
            .unwrap_or_else(|| panic!("agent '{}' reads '{key}' outside its schema", self.agent))
    }

    /// The given value, else the default (`None` when neither).
    fn value(&self, key: &str) -> Option<Value> {
        if let Some(v) = self.given.get(key) {
            return Some(v.clone());
        }
        let s = self.setting(key);
        (!s.default.is_empty()).then(|| {
            s.parse(&self.agent, s.default)
                .unwrap_or_else(|e| panic!("bad default in the schema: {e}"))
        })
    }

    /// Whether the spec gave `key`.
    pub fn given(&self, key: &str) -> bool {
        self.given.contains_key(key)
    }

    pub fn opt_int(&self, key: &str) -> Option<u64> {
        match self.value(key)? {
            Value::Int(v) => Some(v),
            v => panic!("'{key}' is not an integer setting: {v:?}"),
        }
    }

    pub fn int(&self, key: &str) -> u64 {
        self.opt_int(key)
            .unwrap_or_else(|| panic!("'{key}' has no default"))
    }

    pub fn real(&self, key: &str) -> f64 {
        match self.value(key) {
            Some(Value::Real(v)) => v,
            v => panic!("'{key}' is not a real setting with a default: {v:?}"),
        }
    }

    pub fn flag(&self, key: &str) -> bool {
        match self.value(key) {
            Some(Value::Bool(v)) => v,
            v => panic!("'{key}' is not a boolean setting with a default: {v:?}"),
        }
    }

    pub fn choice(&self, key: &str) -> &'static str {
        match self.value(key) {
            Some(Value::Choice(v)) => v,
            v => panic!("'{key}' is not a choice setting with a default: {v:?}"),
        }
    }

    pub fn text(&self, key: &str) -> Option<String> {
        match self.value(key)? {
            Value::Text(v) => Some(v),
            v => panic!("'{key}' is not a text setting: {v:?}"),
        }
    }

    /// The evaluation weights: the defaults, or the `eval=FILE` weights when given, with
    /// every given `eval.*` key applied on top.
    pub fn eval(&self) -> EvalWeights {
        self.eval_over(EvalWeights::default())
    }

    /// The search's evaluator ([`crate::eval::Evaluator::search`]) with the given
    /// `eval.*` keys on both its weight sets; with `eval=FILE` the file's weights score
    /// every game, orthodox or not (the two sets come out equal, so there is one).
    pub fn search_evaluator(&self) -> crate::eval::Evaluator {
        crate::eval::Evaluator::search(|w| self.eval_over(w))
    }

    /// As [`Settings::eval`] with `base` in place of the defaults when no file is given.
    pub fn eval_over(&self, base: EvalWeights) -> EvalWeights {
        let mut w = match self.given.get("eval") {
            Some(Value::Weights(w)) => (**w).clone(),
            _ => base,
        };
        for (k, v) in &self.given {
            if let (Some(field), Value::Real(x)) = (k.strip_prefix("eval."), v) {
                assert!(w.set(field, *x), "eval key '{k}' without a field");
            }
        }
        w
    }
}

/// Budget limits: any that is set stops the search.
pub const BUDGET: &[Setting] = &[
    Setting {
        key: "iters",
        kind: Kind::Int {
            min: 1,
            max: u64::MAX,
        },
        default: "",
        tunable: false,
        help:
            "iterations (simulations) of the whole decision, all worlds together; a default applies only when no limit is given",
    },
    Setting {
        key: "nodes",
        kind: Kind::Int {
            min: 1,
            max: u64::MAX,
        },
        default: "",
        tunable: false,
        help: "nodes of the whole decision, all worlds together (exact)",
    },
    Setting {
        key: "time_ms",
        // A fraction of a millisecond is allowed (issue 66): players that decide in well
        // under a millisecond, such as a depth-2 search of orthodox chess, can only be
        // met at equal time with a budget that small. Read to the microsecond.
        kind: Kind::Real {
            min: crate::common::MIN_TIME_MS,
            max: crate::common::MAX_TIME_MS,
        },
        default: "",
        tunable: false,
        help: "milliseconds of the whole decision (a fraction allowed, to the microsecond): sampling, set-up and every world included",
    },
];

/// The agent's own seed (each decision then depends only on the position).
pub const SEED: &[Setting] = &[Setting {
    key: "seed",
    kind: Kind::Int {
        min: 0,
        max: u64::MAX,
    },
    default: "",
    tunable: false,
    help: "reseed at every decision from this and the position",
}];

/// UCT's settings, shared by every agent built on it.
pub const UCT: &[Setting] = &[
    Setting {
        key: "c",
        kind: Kind::Real {
            min: 0.0,
            max: 100.0,
        },
        default: "1.4",
        tunable: true,
        help: "UCB1 exploration constant (returns in [-1, 1])",
    },
    Setting {
        key: "rollout",
        kind: Kind::Choice(&["random", "heavy"]),
        default: "random",
        tunable: true,
        help: "playout policy (heavy: prefer captures)",
    },
    Setting {
        key: "cutoff",
        kind: Kind::Int {
            min: 0,
            max: 10_000,
        },
        default: "0",
        tunable: true,
        help: "plies of playout before the evaluation scores it (0: to the end)",
    },
];

/// The reserved key for reading weights from a file.
pub const EVAL_FILE: Setting = Setting {
    key: "eval",
    kind: Kind::File,
    default: "",
    tunable: false,
    help: "evaluation weights from a TOML file (e.g. values.toml of `chesslab values`)",
};

/// Joins schema pieces into one list.
pub fn join(parts: &[&[Setting]]) -> Vec<Setting> {
    parts.concat()
}

/// The `eval.*` settings plus the `eval` file key.
pub fn eval_settings() -> Vec<Setting> {
    let mut v = vec![EVAL_FILE];
    v.extend_from_slice(crate::eval::EVAL_SETTINGS);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, schema: &[Setting]) -> Result<Settings, AgentError> {
        Settings::read(&Spec::parse(text).unwrap(), schema)
    }

    #[test]
    fn rule_real_settings_are_finite() {
        for v in ["nan", "NaN", "inf", "-inf", "infinity"] {
            let e = read(&format!("mcts:c={v}"), UCT).unwrap_err();
            let msg = e.to_string();
            assert!(matches!(e, AgentError::BadValue { .. }), "{msg}");
            assert!(msg.contains("finite number"), "{msg}");
            assert!(msg.contains("'c'"), "{msg}");
        }
    }

    #[test]
    fn rule_settings_within_range() {
        let e = read("mcts:c=-1", UCT).unwrap_err().to_string();
        assert!(e.contains("from 0 to 100"), "{e}");
        let e = read("mcts:cutoff=10001", UCT).unwrap_err().to_string();
        assert!(e.contains("from 0 to 10000"), "{e}");
        let e = read("mcts:time_ms=0", BUDGET).unwrap_err().to_string();
        assert!(e.contains("'time_ms'") && e.contains("from 0.001"), "{e}");
        let e = read("mcts:rollout=smart", UCT).unwrap_err().to_string();
        assert!(e.contains("one of random, heavy"), "{e}");
        // Every choice of every agent suggests its word for a near miss.
        for a in crate::registry::AGENT_TABLE {
            for st in (a.schema)() {
                if let Kind::Choice(words) = st.kind {
                    for w in words.iter().filter(|w| w.len() >= 3) {
                        let typo = &w[..w.len() - 1];
                        if words.contains(&typo) {
                            continue;
                        }
                        let e = st.parse(a.name, typo).unwrap_err().to_string();
                        assert!(
                            e.contains("did you mean '"),
                            "{}: {}={typo}: {e}",
                            a.name,
                            st.key
                        );
                    }
                }
            }
        }
        assert_eq!(read("mcts:c=0.7", UCT).unwrap().real("c"), 0.7);
        assert_eq!(read("mcts", UCT).unwrap().real("c"), 1.4);
    }

    #[test]
    fn rule_eval_file_loads_weights() {
        let dir = std::env::temp_dir().join(format!("chesslab-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("values.toml");
        std::fs::write(&good, "pawn = 1.0\nknight = 2.5\nqueen = 7.75\n").unwrap();
        let spec = format!("alphabeta:eval={},eval.rook=4.5", good.display());
        let w = read(&spec, &eval_settings()).unwrap().eval();
        assert_eq!((w.knight, w.queen, w.rook), (2.5, 7.75, 4.5));
        assert_eq!(w.bishop, EvalWeights::default().bishop);
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, "knight = 1000.0\n").unwrap();
        let e = read(
            &format!("alphabeta:eval={}", bad.display()),
            &eval_settings(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("[-100, 100]"), "{e}");
        std::fs::write(&bad, "horse = 3.0\n").unwrap();
        let e = read(
            &format!("alphabeta:eval={}", bad.display()),
            &eval_settings(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("horse"), "{e}");
        // Piece-square tables in the file reach the weights; a table of the wrong shape is
        // refused naming it.
        let row = format!("[{}]", vec!["3"; 64].join(","));
        let six = format!("[{}]", [row.as_str(); 6].join(","));
        std::fs::write(
            &good,
            format!("pawn = 1.0\n[tables]\nmg = {six}\neg = {six}\n"),
        )
        .unwrap();
        let w = read(
            &format!("alphabeta:eval={}", good.display()),
            &eval_settings(),
        )
        .unwrap()
        .eval();
        assert_eq!(w.tables.as_ref().map(|t| t.eg[4][9]), Some(3));
        let five = format!("[{}]", [row.as_str(); 5].join(","));
        std::fs::write(&bad, format!("[tables]\nmg = {five}\neg = {six}\n")).unwrap();
        let e = read(
            &format!("alphabeta:eval={}", bad.display()),
            &eval_settings(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("tables.mg has 5 rows"), "{e}");
        let missing = dir.join("missing.toml");
        assert!(read(
            &format!("alphabeta:eval={}", missing.display()),
            &eval_settings()
        )
        .is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn eval_keys_reach_the_weights() {
        let s = read("alphabeta:eval.knight=3.2,eval.pst=0.5", &eval_settings()).unwrap();
        let w = s.eval();
        assert_eq!(w.knight, 3.2);
        assert_eq!(w.pst, 0.5);
        assert_eq!(w.rook, EvalWeights::default().rook);
    }
}

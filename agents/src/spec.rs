//! Agent spec strings: `name` or `name:key=value,key=value`, and lists of them as
//! `--agents` takes them, with errors that name the unknown agent, key or value and the
//! rule broken.
//!
//! Syntax rules (tests `rule_spec_*`): a name of letters, digits, `-` and `_`; after a
//! `:`, at least one `key=value`, separated by commas, none empty, each key at most once
//! (`depth=1,depth=2` is refused rather than read as either). In a list, a `key=value`
//! piece belongs to the spec before it (`ismcts:iters=2000,c=0.7,random` is two agents)
//! and no spec may be empty (`random,,greedy`, a trailing comma). What keys an agent
//! takes and their ranges are [`crate::settings`]'.

use std::collections::BTreeMap;
use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AgentError {
    #[error(
        "unknown agent '{0}'{near} (known: {1})",
        near = engine::suggest::did_you_mean(.0, .1.split(", "))
    )]
    UnknownAgent(String, String),
    #[error("{}", unknown_key_text(agent, key, known))]
    UnknownKey {
        agent: String,
        key: String,
        known: String,
    },
    #[error("agent '{agent}': bad value '{value}' for '{key}': {expected}")]
    BadValue {
        agent: String,
        key: String,
        value: String,
        expected: String,
    },
    #[error("agent spec '{0}': expected name[:key=value,...]")]
    Syntax(String),
    #[error("agent spec '{0}': ':' must be followed by key=value settings (or drop the ':')")]
    EmptySettings(String),
    #[error("agent spec '{spec}': empty setting between commas (each setting is key=value)")]
    EmptySetting { spec: String },
    #[error("agent '{agent}': key '{key}' given twice (each key at most once)")]
    DuplicateKey { agent: String, key: String },
    #[error(
        "agent list '{list}': agent {position} is empty (agents are separated by single commas)"
    )]
    EmptyInList { list: String, position: usize },
    #[error("agent '{spec}'")]
    External {
        spec: String,
        #[source]
        source: crate::process::ExternalError,
    },
    #[error("agent '{agent}' cannot play {variant}: {why}")]
    Unsupported {
        agent: String,
        variant: String,
        why: String,
    },
}

fn unknown_key_text(agent: &str, key: &str, known: &str) -> String {
    if known.is_empty() {
        format!("agent '{agent}' has no settings (got '{key}')")
    } else {
        let near = engine::suggest::did_you_mean(key, known.split(", "));
        format!("agent '{agent}': unknown key '{key}'{near} (known: {known})")
    }
}

/// A parsed spec: the agent's name and its key/value settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub name: String,
    values: BTreeMap<String, String>,
}

impl Spec {
    /// Parses `name[:key=value,...]`.
    pub fn parse(text: &str) -> Result<Spec, AgentError> {
        let text = text.trim();
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (text, None),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(AgentError::Syntax(text.into()));
        }
        let mut values = BTreeMap::new();
        if let Some(rest) = rest {
            if rest.trim().is_empty() {
                return Err(AgentError::EmptySettings(text.into()));
            }
            for kv in rest.split(',') {
                if kv.trim().is_empty() {
                    return Err(AgentError::EmptySetting { spec: text.into() });
                }
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| AgentError::Syntax(text.into()))?;
                let k = k.trim();
                if k.is_empty() {
                    return Err(AgentError::Syntax(text.into()));
                }
                if values.insert(k.to_string(), v.trim().to_string()).is_some() {
                    return Err(AgentError::DuplicateKey {
                        agent: name.into(),
                        key: k.into(),
                    });
                }
            }
        }
        Ok(Spec {
            name: name.to_string(),
            values,
        })
    }

    /// The given (key, value) pairs, keys sorted.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// The raw value of `key`, if given.
    pub fn raw(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// This spec without the keys that start with `prefix`, and those keys (prefix
    /// removed) with their values: `option.Hash=16` of a `uci` spec is an engine option,
    /// not one of the agent's own settings.
    pub fn split_prefixed(&self, prefix: &str) -> (Spec, Vec<(String, String)>) {
        let mut rest = BTreeMap::new();
        let mut taken = Vec::new();
        for (k, v) in &self.values {
            match k.strip_prefix(prefix) {
                Some(name) => taken.push((name.to_string(), v.clone())),
                None => {
                    rest.insert(k.clone(), v.clone());
                }
            }
        }
        (
            Spec {
                name: self.name.clone(),
                values: rest,
            },
            taken,
        )
    }

    /// The canonical text form (keys sorted).
    pub fn canonical(&self) -> String {
        if self.values.is_empty() {
            self.name.clone()
        } else {
            let kv: Vec<String> = self
                .values
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!("{}:{}", self.name, kv.join(","))
        }
    }
}

/// Splits an `--agents` list into specs (see the module documentation for the rules).
pub fn split_list(list: &str) -> Result<Vec<String>, AgentError> {
    let mut out: Vec<String> = Vec::new();
    for piece in list.split(',') {
        let piece = piece.trim();
        if piece.is_empty() {
            if list.trim().is_empty() {
                return Ok(Vec::new());
            }
            return Err(AgentError::EmptyInList {
                list: list.into(),
                position: out.len() + 1,
            });
        }
        let continues = piece.contains('=') && !piece.contains(':');
        match out.last_mut() {
            Some(prev) if continues && prev.contains(':') => {
                prev.push(',');
                prev.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_and_keys() {
        let s = Spec::parse("ismcts:iters=2000,c=0.7").unwrap();
        assert_eq!(s.name, "ismcts");
        assert_eq!(s.raw("iters"), Some("2000"));
        assert_eq!(s.raw("c"), Some("0.7"));
        assert_eq!(s.raw("depth"), None);
        assert_eq!(s.canonical(), "ismcts:c=0.7,iters=2000");
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(matches!(Spec::parse("a:b"), Err(AgentError::Syntax(_))));
        assert!(matches!(Spec::parse(""), Err(AgentError::Syntax(_))));
        assert!(matches!(Spec::parse("a:=3"), Err(AgentError::Syntax(_))));
        assert!(matches!(Spec::parse("a b"), Err(AgentError::Syntax(_))));
    }

    #[test]
    fn rule_spec_each_key_once() {
        let e = Spec::parse("alphabeta:depth=1,depth=2").unwrap_err();
        assert!(matches!(e, AgentError::DuplicateKey { .. }));
        assert!(e.to_string().contains("'depth' given twice"), "{e}");
    }

    #[test]
    fn rule_spec_colon_needs_settings() {
        for text in ["random:", "random: "] {
            let e = Spec::parse(text).unwrap_err();
            assert!(matches!(e, AgentError::EmptySettings(_)), "{text}");
            assert!(
                e.to_string().contains("must be followed by key=value"),
                "{e}"
            );
        }
        let e = Spec::parse("mcts:iters=5,,c=1").unwrap_err();
        assert!(e.to_string().contains("empty setting"), "{e}");
        let e = Spec::parse("mcts:iters=5,").unwrap_err();
        assert!(e.to_string().contains("empty setting"), "{e}");
    }

    #[test]
    fn rule_spec_list_has_no_empty_spec() {
        assert_eq!(
            split_list("ismcts:iters=2000,c=0.7,random, greedy").unwrap(),
            vec!["ismcts:iters=2000,c=0.7", "random", "greedy"]
        );
        for (list, pos) in [("random,,greedy", 2), (",random", 1), ("random,", 2)] {
            let e = split_list(list).unwrap_err();
            assert!(
                matches!(e, AgentError::EmptyInList { position, .. } if position == pos),
                "{list}: {e}"
            );
            assert!(e.to_string().contains("is empty"), "{e}");
        }
        assert_eq!(split_list("").unwrap(), Vec::<String>::new());
    }
}

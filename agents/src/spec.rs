//! Agent spec strings: `name` or `name:key=value,key=value`, with errors that name the
//! unknown agent, key or value.

use std::collections::BTreeMap;
use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AgentError {
    #[error("unknown agent '{0}' (known: {1})")]
    UnknownAgent(String, String),
    #[error("agent '{agent}': unknown key '{key}' (known: {known})")]
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
    #[error("agent '{agent}' cannot play {variant}: {why}")]
    Unsupported {
        agent: String,
        variant: String,
        why: String,
    },
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
            for kv in rest.split(',').filter(|s| !s.is_empty()) {
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| AgentError::Syntax(text.into()))?;
                values.insert(k.trim().to_string(), v.trim().to_string());
            }
        }
        Ok(Spec {
            name: name.to_string(),
            values,
        })
    }

    /// Fails on any key not in `known` (call after reading every key).
    pub fn check_keys(&self, known: &[&str]) -> Result<(), AgentError> {
        for k in self.values.keys() {
            if !known.contains(&k.as_str()) {
                return Err(AgentError::UnknownKey {
                    agent: self.name.clone(),
                    key: k.clone(),
                    known: known.join(", "),
                });
            }
        }
        Ok(())
    }

    /// The value of `key` parsed as `T`, or `default` when absent.
    pub fn get<T: std::str::FromStr>(&self, key: &str, default: T) -> Result<T, AgentError> {
        match self.values.get(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| AgentError::BadValue {
                agent: self.name.clone(),
                key: key.into(),
                value: v.clone(),
                expected: format!("expected a {}", std::any::type_name::<T>()),
            }),
        }
    }

    /// The raw value of `key`, if given.
    pub fn raw(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_and_keys() {
        let s = Spec::parse("ismcts:iters=2000,c=0.7").unwrap();
        assert_eq!(s.name, "ismcts");
        assert_eq!(s.get("iters", 0u32), Ok(2000));
        assert_eq!(s.get("c", 1.0f64), Ok(0.7));
        assert_eq!(s.get("depth", 3u32), Ok(3));
        assert_eq!(s.canonical(), "ismcts:c=0.7,iters=2000");
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(matches!(Spec::parse("a:b"), Err(AgentError::Syntax(_))));
        assert!(matches!(Spec::parse(""), Err(AgentError::Syntax(_))));
        let s = Spec::parse("x:depth=abc").unwrap();
        assert!(matches!(
            s.get("depth", 1u32),
            Err(AgentError::BadValue { .. })
        ));
        assert!(matches!(
            s.check_keys(&["iters"]),
            Err(AgentError::UnknownKey { .. })
        ));
    }
}

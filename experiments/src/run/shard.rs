//! Which piece of a run this process plays: `--shard i/n` from the command line, or
//! `--shard auto/n` with the index taken from a cluster scheduler's task variable.
//!
//! A run splits by pair number (pair mod n = i, see [`crate::run::matches`]), so the pieces
//! played anywhere concatenate to the one-machine run; `chesslab merge` puts them back
//! together ([`crate::run::merge`]).
//!
//! Decisions where the issue is silent:
//! - `auto/n` looks at `SLURM_ARRAY_TASK_ID` (Slurm job arrays), `JOB_COMPLETION_INDEX`
//!   (Kubernetes Indexed Jobs) and `HQ_TASK_ID` (HyperQueue arrays), or only at the
//!   variable `--shard-index-env` names. None set, two set to different values, or a value
//!   outside 0..n is an error: a task must never guess its piece. Indices are 0-based, so a
//!   Slurm array is submitted as `--array=0-(n-1)`.
//! - An `auto` shard writes into `<out>/shard-<i>-of-<n>/`, so every task of one array
//!   can share one command line and one `--out`, and resumes its own folder when the
//!   scheduler runs it again (a retried task). An explicit `i/n` writes to `--out` as given
//!   and resumes only with `--resume`, as before.

use anyhow::{anyhow, bail, Result};
use std::path::{Path, PathBuf};

/// The scheduler variables `auto` reads, with the scheduler each belongs to.
pub const INDEX_VARIABLES: &[(&str, &str)] = &[
    ("SLURM_ARRAY_TASK_ID", "Slurm job array"),
    ("JOB_COMPLETION_INDEX", "Kubernetes Indexed Job"),
    ("HQ_TASK_ID", "HyperQueue array"),
];

/// One piece of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
    /// The variable the index came from (`auto`), or `None` for an explicit `i/n`.
    pub from_env: Option<String>,
}

impl Shard {
    /// `i/n` as run.json and standings titles write it.
    pub fn text(&self) -> String {
        format!("{}/{}", self.index, self.count)
    }

    /// The folder this shard writes to, given the run's `--out`.
    pub fn folder(&self, out: &Path) -> PathBuf {
        if self.from_env.is_some() {
            out.join(format!("shard-{}-of-{}", self.index, self.count))
        } else {
            out.to_path_buf()
        }
    }
}

/// Reads `i/n` or `auto/n`; `env` looks a variable up (the process environment in the
/// command, a table in tests) and `index_env` is `--shard-index-env`.
pub fn parse(
    text: &str,
    index_env: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Shard> {
    let Some(count) = text.strip_prefix("auto/") else {
        if index_env.is_some() {
            bail!("--shard-index-env needs --shard auto/N (got --shard '{text}')");
        }
        let (index, count) = crate::run::matches::parse_shard(text)?;
        return Ok(Shard {
            index,
            count,
            from_env: None,
        });
    };
    let count: u64 = count
        .trim()
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| {
            anyhow!("--shard '{text}': expected auto/N with N >= 1 (for example auto/4)")
        })?;
    let candidates: Vec<&str> = match index_env {
        Some(v) => vec![v],
        None => INDEX_VARIABLES.iter().map(|(v, _)| *v).collect(),
    };
    let set: Vec<(&str, String)> = candidates
        .iter()
        .filter_map(|v| env(v).map(|value| (*v, value)))
        .collect();
    let Some((var, value)) = set.first().cloned() else {
        let names = candidates.join(", ");
        bail!(
            "--shard auto/{count}: none of {names} is set; run under a scheduler's job array, or give --shard i/{count}"
        );
    };
    if let Some((other, v2)) = set.iter().find(|(_, v)| v.trim() != value.trim()) {
        bail!(
            "--shard auto/{count}: {var}={value} and {other}={v2} disagree; name the one to use with --shard-index-env"
        );
    }
    let index: u64 = value.trim().parse().map_err(|_| {
        anyhow!("--shard auto/{count}: {var}='{value}' is not a task index (a whole number)")
    })?;
    if index >= count {
        bail!(
            "--shard auto/{count}: {var}={index} is outside 0..{count} (indices start at 0: submit the array as 0-{})",
            count - 1
        );
    }
    Ok(Shard {
        index,
        count,
        from_env: Some(var.to_string()),
    })
}

/// [`parse`] over the process environment.
pub fn from_args(text: &str, index_env: Option<&str>) -> Result<Shard> {
    parse(text, index_env, |v| std::env::var(v).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |v| pairs.iter().find(|p| p.0 == v).map(|p| p.1.to_string())
    }

    #[test]
    fn explicit_shards_keep_the_given_folder() {
        let s = parse("2/4", None, env_of(&[])).unwrap();
        assert_eq!((s.index, s.count, s.from_env.clone()), (2, 4, None));
        assert_eq!(s.folder(Path::new("r")), PathBuf::from("r"));
        assert!(parse("2/4", Some("X"), env_of(&[])).is_err());
    }

    #[test]
    fn auto_reads_each_scheduler_variable() {
        for (var, _) in INDEX_VARIABLES {
            let s = parse("auto/4", None, env_of(&[(var, "3")])).unwrap();
            assert_eq!((s.index, s.count), (3, 4));
            assert_eq!(s.from_env.as_deref(), Some(*var));
            assert_eq!(s.folder(Path::new("r")), PathBuf::from("r/shard-3-of-4"));
        }
    }

    #[test]
    fn auto_refuses_what_it_cannot_trust() {
        let none = parse("auto/4", None, env_of(&[])).unwrap_err().to_string();
        assert!(none.contains("SLURM_ARRAY_TASK_ID"), "{none}");
        let out = parse("auto/4", None, env_of(&[("HQ_TASK_ID", "4")]))
            .unwrap_err()
            .to_string();
        assert!(out.contains("outside 0..4"), "{out}");
        let clash = parse(
            "auto/4",
            None,
            env_of(&[("SLURM_ARRAY_TASK_ID", "1"), ("HQ_TASK_ID", "2")]),
        )
        .unwrap_err()
        .to_string();
        assert!(clash.contains("disagree"), "{clash}");
        assert!(parse("auto/4", None, env_of(&[("HQ_TASK_ID", "x")])).is_err());
        assert!(parse("auto/0", None, env_of(&[("HQ_TASK_ID", "0")])).is_err());
        // --shard-index-env picks one variable and ignores the others.
        let s = parse(
            "auto/4",
            Some("MY_INDEX"),
            env_of(&[("MY_INDEX", "1"), ("HQ_TASK_ID", "2")]),
        )
        .unwrap();
        assert_eq!(s.index, 1);
    }
}

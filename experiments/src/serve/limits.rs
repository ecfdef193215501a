//! What one request may make the server do: the agent specs a request names are checked
//! against the server's limits (table size bits, iterations, nodes, depth, sampled
//! worlds, time per decision) and their files, and rewritten so no decision can run long;
//! a branch is bounded in games and in time. The limits are flags of `chesslab serve`
//! ([`Limits`]) and are shown by `GET /api/agents`.
//!
//! Decisions:
//! - A spec over a limit is a 400 naming the key, the limit and its flag. A spec that
//!   sets `iters` or `nodes`, or an agent whose search has no default iteration budget
//!   (`alphabeta`, `expectimax`), gets `time_ms` = the limit added when it gives none, so
//!   whichever comes first stops it; `mcts`-like agents given nothing keep their default
//!   iterations (adding a time would replace them). `time_ms` is the whole decision's
//!   time for every agent, however many worlds it samples (issue 64: the agents share
//!   it among their worlds), so a given `time_ms` must stay within the limit and the
//!   limit itself is what is added.
//! - Files: a request never names a path. `eval=NAME` picks one of the evaluation files
//!   the operator offered with `--eval NAME=FILE` (read and checked at start); any other
//!   `eval=` value is refused, and an error about such a file never shows its contents.
//! - Agents must decide from the seat's information
//!   ([`agents::registry::Reads::SeatInformation`]) when they advise a human seat
//!   (`agent-act`) or play a bot seat in a hidden-information game a human plays: `cheat`
//!   is refused there.
//!
//! - Issue 65: every flag here has a range checked as it is read ([`ranged`]); an
//!   evaluation file is read once at start ([`EvalFiles::from_flags`]: a regular file of
//!   at most [`MAX_EVAL_BYTES`], never quoted in an error) into a private copy the agents
//!   read afterwards.
//!
//! Tests: `rule_serve_limit_*` and `rule_serve_request_files_are_refused` in
//! `experiments/tests/serve_security.rs`; `rule_serve_numbers_from_outside_are_in_range`
//! and `rule_serve_eval_files_are_read_once_and_never_quoted` in
//! `experiments/tests/serve_limits.rs`.

use super::api::ApiError;
use agents::registry::Reads;
use agents::spec::Spec;
use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A clap parser of a whole number in `lo..=hi` (issue 65: every number a flag gives is
/// checked where it is parsed, so none wraps when multiplied into a time).
pub fn ranged(lo: u64, hi: u64) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync {
    move |text: &str| {
        let t = text.trim();
        match t.parse::<u64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(format!("'{t}' is not a whole number from {lo} to {hi}")),
        }
    }
}

/// As [`ranged`], for `usize` flags.
pub fn ranged_usize(
    lo: usize,
    hi: usize,
) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync {
    move |text: &str| ranged(lo as u64, hi as u64)(text).map(|v| v as usize)
}

/// Per-request limits (flags of `chesslab serve`), each within a range checked as the
/// flag is read.
#[derive(Args, Debug, Clone, serde::Serialize)]
pub struct Limits {
    /// Largest transposition table an agent may ask for (`tt_bits`, 4 to 28).
    #[arg(long, value_parser = ranged(4, 28), default_value_t = 20)]
    pub max_tt_bits: u64,
    /// Most search iterations per decision (`iters`, at most 10^9).
    #[arg(long, value_parser = ranged(1, 1_000_000_000), default_value_t = 200_000)]
    pub max_iters: u64,
    /// Most tree nodes per decision (`nodes`, at most 10^10).
    #[arg(long, value_parser = ranged(1, 10_000_000_000), default_value_t = 2_000_000)]
    pub max_nodes: u64,
    /// Deepest search (`depth`, 1 to 64).
    #[arg(long, value_parser = ranged(1, 64), default_value_t = 6)]
    pub max_depth: u64,
    /// Most sampled worlds per decision (`worlds`, at most 10,000).
    #[arg(long, value_parser = ranged(1, 10_000), default_value_t = 64)]
    pub max_worlds: u64,
    /// Longest time per decision in milliseconds (`time_ms`; also added to specs that
    /// set iterations or nodes, so whichever comes first stops the search; every decision
    /// is asked to stop here and the server waits one second more; at most 10 minutes).
    #[arg(long, value_parser = ranged(1, 600_000), default_value_t = 5_000)]
    pub max_time_ms: u64,
    /// Most games one "branch here" request may play (at most 100,000).
    #[arg(long, value_parser = ranged_usize(1, 100_000), default_value_t = 200)]
    pub max_branch_games: usize,
    /// Longest time one "branch here" request may run, in seconds (at most 3,600).
    #[arg(long, value_parser = ranged(1, 3_600), default_value_t = 60)]
    pub max_branch_seconds: u64,
}

impl Limits {
    /// The time one bot decision may take: `--max-time-ms`.
    pub fn decision_time(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.max_time_ms)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_tt_bits: 20,
            max_iters: 200_000,
            max_nodes: 2_000_000,
            max_depth: 6,
            max_worlds: 64,
            max_time_ms: 5_000,
            max_branch_games: 200,
            max_branch_seconds: 60,
        }
    }
}

/// Evaluation files the operator offers by name (`--eval NAME=FILE`): the name and the
/// server's private copy of the file (read once at start, [`EvalFiles::from_flags`]).
#[derive(Debug, Clone, Default)]
pub struct EvalFiles(pub BTreeMap<String, PathBuf>);

/// Largest evaluation file `--eval` reads.
pub const MAX_EVAL_BYTES: u64 = 4 * 1024 * 1024;

/// The contents of the operator's evaluation file `path`, read once: a regular file (no
/// device, pipe or folder, which could block or never end), at most [`MAX_EVAL_BYTES`]
/// (counted as read: `/proc` files say they are empty), UTF-8 TOML of evaluation
/// weights. Errors never quote the contents.
fn read_eval(flag: &str, path: &std::path::Path) -> anyhow::Result<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path)
        .map_err(|e| anyhow::anyhow!("--eval {flag}: cannot read the file ({})", e.kind()))?;
    if !meta.is_file() {
        anyhow::bail!("--eval {flag}: not a regular file (a device, pipe or folder is refused)");
    }
    let f = std::fs::File::open(path)
        .map_err(|e| anyhow::anyhow!("--eval {flag}: cannot read the file ({})", e.kind()))?;
    let mut bytes = Vec::new();
    f.take(MAX_EVAL_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("--eval {flag}: cannot read the file ({})", e.kind()))?;
    if bytes.len() as u64 > MAX_EVAL_BYTES {
        anyhow::bail!(
            "--eval {flag}: over {MAX_EVAL_BYTES} bytes, too large for an evaluation file"
        );
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("--eval {flag}: not a text file (not UTF-8)"))?;
    if toml::from_str::<agents::eval::EvalWeights>(&text).is_err() {
        // The parser's message quotes the offending line: never shown.
        anyhow::bail!("--eval {flag}: not an evaluation file (TOML weights such as `pawn = 1.0`; its contents are not shown)");
    }
    Ok(text)
}

/// A folder for the server's private copies of evaluation files (0700).
fn private_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!(
        "chesslab-serve-evals-{}-{}",
        std::process::id(),
        super::store::secret()
    ));
    let mut b = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(&dir)
        .map_err(|e| anyhow::anyhow!("--eval: cannot make a private folder ({e})"))?;
    Ok(dir)
}

impl EvalFiles {
    /// Reads `NAME=FILE` flags once ([`read_eval`]), checks each with the agents' own
    /// reader on a private copy, so a request never meets a broken file, and keeps the
    /// copy: agents built later read it, never the operator's file again (which could
    /// have changed or become a pipe).
    pub fn from_flags(flags: &[String]) -> anyhow::Result<EvalFiles> {
        let mut map = BTreeMap::new();
        let mut dir: Option<PathBuf> = None;
        for f in flags {
            let Some((name, path)) = f.split_once('=') else {
                anyhow::bail!("--eval {f}: give NAME=FILE");
            };
            let name = name.trim();
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                anyhow::bail!("--eval {f}: the name must be letters, digits, '-' or '_'");
            }
            if map.contains_key(name) {
                anyhow::bail!("--eval: '{name}' given twice");
            }
            let text = read_eval(f, std::path::Path::new(path.trim()))?;
            if dir.is_none() {
                dir = Some(private_dir()?);
            }
            let copy = dir
                .as_ref()
                .expect("just made")
                .join(format!("{name}.toml"));
            {
                use std::io::Write;
                let mut o = std::fs::OpenOptions::new();
                o.write(true).create_new(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
                let mut file = o
                    .open(&copy)
                    .and_then(|mut file| file.write_all(text.as_bytes()).map(|()| file))
                    .map_err(|e| anyhow::anyhow!("--eval {f}: cannot keep a private copy ({e})"))?;
                file.flush().ok();
            }
            let spec = format!("alphabeta:eval={}", copy.display());
            if agents::registry::build::<engine::variants::chess::Chess>(&spec).is_err() {
                anyhow::bail!("--eval {f}: not an evaluation file the agents can use (weights within [-100, 100] pawns; its contents are not shown)");
            }
            map.insert(name.to_string(), copy);
        }
        Ok(EvalFiles(map))
    }

    pub fn names(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

/// Who a spec is for, which decides what it may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Advice for a human seat, or a bot seat in a hidden-information game a human plays:
    /// it must decide from the seat's information only.
    BesideHumans,
    /// A bot in a game without human seats (or with nothing hidden), a branch game.
    BotsOnly,
}

/// The checked spec as the agent is built from it: over-limit keys refused, `eval=NAME`
/// resolved to the operator's file, a time bound added where the budget has none.
pub fn checked_spec(
    spec: &str,
    limits: &Limits,
    evals: &EvalFiles,
    used: Use,
) -> Result<String, ApiError> {
    let spec = spec.trim();
    let parsed =
        Spec::parse(spec).map_err(|e| ApiError::bad_request(format!("agent '{spec}': {e}")))?;
    let name = parsed.name.as_str();
    if agents::registry::EXTERNAL.contains(&name) {
        return Err(ApiError::bad_request(format!(
            "agent '{name}' starts an outside program, which the server does not allow"
        )));
    }
    let Some(reads) = agents::registry::reads(name) else {
        return Err(ApiError::bad_request(format!(
            "agent '{spec}': unknown agent '{name}' (known: {})",
            accepted_names().join(", ")
        )));
    };
    if used == Use::BesideHumans && reads != Reads::SeatInformation {
        return Err(ApiError::forbidden(format!(
            "agent '{name}' reads the true state, hidden parts included; beside a human seat the server accepts only agents that decide from the seat's information"
        )));
    }
    let schema = agents::registry::schema(name).unwrap_or_default();
    let has = |k: &str| schema.iter().any(|s| s.key == k);
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in parsed.pairs() {
        let bound = match k {
            "tt_bits" => Some((limits.max_tt_bits, "--max-tt-bits")),
            "iters" => Some((limits.max_iters, "--max-iters")),
            "nodes" => Some((limits.max_nodes, "--max-nodes")),
            "depth" => Some((limits.max_depth, "--max-depth")),
            "worlds" => Some((limits.max_worlds, "--max-worlds")),
            "time_ms" => Some((limits.max_time_ms, "--max-time-ms")),
            _ => None,
        };
        if let Some((max, flag)) = bound {
            // Values that do not parse are left to the agent's own reader, which names
            // the rule; only numbers above the limit are this module's.
            // Read as a number with its fraction (`time_ms` takes one): a whole-number
            // read would let `1000.5` past a limit of 1000.
            if let Ok(n) = v.parse::<f64>() {
                if n > max as f64 {
                    return Err(ApiError::bad_request(format!(
                        "agent '{spec}': {k}={n} is over the server's limit of {max} ({flag})"
                    )));
                }
            }
        }
        if k == "eval" {
            let Some(path) = evals.0.get(v) else {
                let known = evals.names();
                return Err(ApiError::bad_request(format!(
                    "agent '{spec}': eval={v}: the server reads no files named by requests; eval= takes the name of an evaluation the operator offers ({}; start the server with --eval NAME=FILE)",
                    if known.is_empty() { "none offered".to_string() } else { format!("offered: {}", known.join(", ")) }
                )));
            };
            out.push((k.to_string(), path.display().to_string()));
            continue;
        }
        out.push((k.to_string(), v.to_string()));
    }
    let given = |out: &[(String, String)], k: &str| out.iter().any(|(x, _)| x == k);
    let no_default_budget = schema
        .iter()
        .find(|s| s.key == "iters")
        .is_some_and(|s| s.default.is_empty());
    if has("time_ms")
        && !given(&out, "time_ms")
        && (given(&out, "iters") || given(&out, "nodes") || no_default_budget)
    {
        out.push(("time_ms".into(), limits.max_time_ms.to_string()));
    }
    if has("tt_bits") && !given(&out, "tt_bits") {
        // The agent's own default may be above a lowered limit.
        let default = schema
            .iter()
            .find(|s| s.key == "tt_bits")
            .and_then(|s| s.default.parse::<u64>().ok())
            .unwrap_or(0);
        if default > limits.max_tt_bits {
            out.push(("tt_bits".into(), limits.max_tt_bits.to_string()));
        }
    }
    if has("depth") && !given(&out, "depth") {
        let default = schema
            .iter()
            .find(|s| s.key == "depth")
            .and_then(|s| s.default.parse::<u64>().ok())
            .unwrap_or(0);
        if default > limits.max_depth {
            out.push(("depth".into(), limits.max_depth.to_string()));
        }
    }
    if out.is_empty() {
        return Ok(name.to_string());
    }
    let kv: Vec<String> = out.iter().map(|(k, v)| format!("{k}={v}")).collect();
    Ok(format!("{name}:{}", kv.join(",")))
}

/// An agent error about a spec whose `eval` file came from the operator: its message may
/// quote the file, so only the fact is told.
pub fn agent_error(spec: &str, e: &agents::AgentError) -> ApiError {
    if let agents::AgentError::BadValue { key, .. } = e {
        if key == "eval" {
            return ApiError::bad_request(format!(
                "agent '{spec}': the evaluation it names could not be read"
            ));
        }
    }
    ApiError::bad_request(format!("agent '{spec}': {e}"))
}

/// Agent names the server accepts (outside programs are refused).
pub fn accepted_names() -> Vec<&'static str> {
    agents::registry::names()
        .into_iter()
        .filter(|n| !agents::registry::EXTERNAL.contains(n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 64: `time_ms` is the whole decision's time for agents that sample worlds
    /// too, so the server neither divides its limit among the worlds nor multiplies a
    /// given time by them.
    #[test]
    fn rule_serve_time_is_per_decision_whatever_the_worlds() {
        let limits = Limits {
            max_time_ms: 1000,
            ..Limits::default()
        };
        let evals = EvalFiles::default();
        for spec in ["pimc:worlds=10,time_ms=1000", "alphabeta:time_ms=1000"] {
            let out = checked_spec(spec, &limits, &evals, Use::BotsOnly).unwrap();
            assert!(out.contains("time_ms=1000"), "{spec} -> {out}");
        }
        let out =
            checked_spec("pimc:worlds=10,iters=5000", &limits, &evals, Use::BotsOnly).unwrap();
        assert!(out.contains("time_ms=1000"), "{out}");
        let out = checked_spec("alphabeta:time_ms=0.5", &limits, &evals, Use::BotsOnly).unwrap();
        assert!(out.contains("time_ms=0.5"), "{out}");
        for spec in [
            "pimc:worlds=10,time_ms=1001",
            "mcts:time_ms=1001",
            "mcts:time_ms=1000.5",
        ] {
            let e = checked_spec(spec, &limits, &evals, Use::BotsOnly).unwrap_err();
            assert!(format!("{e:?}").contains("--max-time-ms"), "{spec}: {e:?}");
        }
    }
}

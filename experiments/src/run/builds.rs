//! Which builds played a run's games: `run.json`'s `builds`, one entry per start of the
//! run (the first start, each `--resume`, each shard a `merge` put together), in order.
//!
//! Why: a run of a node budget plays the same games whoever plays them, so a long run is
//! often resumed by another binary of the same generation (a saved build, a rebuilt
//! checkout). `build_commit` and `git_describe` at the top of run.json describe only the
//! latest start; before this list a resume overwrote what the earlier builds were, so a
//! kept run could not say which binary played its first games. Each entry records the
//! binary's commit, the checkout's `git describe`, the command line and how many rows were
//! already recorded when that build started (`games_before`; `null` where a run.json from
//! before this list does not say). A run.json without the list (older runs) contributes
//! one entry made from its top-level fields; a list that is not one of starts stops a
//! resume or merge before anything is written. Tests: `a_resume_by_another_build_keeps_every_build`
//! (experiments/tests/tournament_cli.rs) and `merged_shards_equal_the_one_machine_run`
//! (experiments/tests/scale_out.rs).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One start of a run: the build that played from `games_before` recorded rows on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildStart {
    /// The binary's commit (`build.rs`'s `CHESSLAB_GIT_HASH`), `unknown` where a run.json
    /// from before `build_commit` was recorded does not say.
    pub build_commit: String,
    /// `git describe --dirty` of the checkout the start was made in.
    pub git_describe: Option<String>,
    /// The command line of the start.
    pub command: Vec<String>,
    /// Rows already in games.csv when this build started (0 for a fresh run).
    pub games_before: Option<u64>,
    /// The shard this start played (`--shard`), if any.
    pub shard: Option<String>,
}

impl BuildStart {
    /// This binary, started now.
    pub fn this(
        git_describe: Option<String>,
        games_before: u64,
        shard: Option<String>,
    ) -> BuildStart {
        BuildStart {
            build_commit: env!("CHESSLAB_GIT_HASH").to_string(),
            git_describe,
            command: std::env::args().collect(),
            games_before: Some(games_before),
            shard,
        }
    }
}

/// The starts an existing run.json records: its `builds` list, or for a run.json written
/// before the list, one start made from its top-level fields. A `builds` that is not a
/// list of starts (edited by hand, truncated) is an error, not a history quietly replaced.
pub fn recorded(info: &Value) -> anyhow::Result<Vec<BuildStart>> {
    if let Some(list) = info.get("builds") {
        return serde_json::from_value::<Vec<BuildStart>>(list.clone()).map_err(|e| {
            anyhow::anyhow!("its `builds` is not a list of build starts (edited by hand?): {e}")
        });
    }
    let text = |key: &str| info.get(key).and_then(Value::as_str).map(str::to_string);
    let fresh = info.get("resumed").and_then(Value::as_bool) == Some(false);
    Ok(vec![BuildStart {
        build_commit: text("build_commit").unwrap_or_else(|| "unknown".to_string()),
        git_describe: text("git_describe"),
        command: info
            .get("command")
            .and_then(|c| serde_json::from_value(c.clone()).ok())
            .unwrap_or_default(),
        games_before: fresh.then_some(0),
        shard: text("shard"),
    }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_json_without_the_list_gives_one_start_from_its_fields() {
        let old = serde_json::json!({
            "command": ["chesslab", "tournament"],
            "build_commit": "abc123",
            "git_describe": "v1-2-gdef",
            "resumed": false,
            "shard": "1/2",
        });
        let got = recorded(&old).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].build_commit, "abc123");
        assert_eq!(got[0].git_describe.as_deref(), Some("v1-2-gdef"));
        assert_eq!(got[0].command, ["chesslab", "tournament"]);
        assert_eq!(got[0].games_before, Some(0));
        assert_eq!(got[0].shard.as_deref(), Some("1/2"));
        // Older still: no build_commit, a resumed run (where it started is not known).
        let older = serde_json::json!({"command": ["x"], "resumed": true});
        let got = recorded(&older).unwrap();
        assert_eq!(got[0].build_commit, "unknown");
        assert_eq!(got[0].games_before, None);
    }

    #[test]
    fn a_recorded_list_is_read_back_as_written() {
        let starts = vec![
            BuildStart::this(Some("a".into()), 0, None),
            BuildStart {
                build_commit: "other".into(),
                git_describe: None,
                command: vec!["y".into()],
                games_before: Some(7),
                shard: None,
            },
        ];
        let info = serde_json::json!({ "builds": starts, "build_commit": "ignored" });
        assert_eq!(recorded(&info).unwrap(), starts);
        // A list that is not one of starts is refused, naming the key.
        for bad in [
            serde_json::json!({ "builds": "abc" }),
            serde_json::json!({ "builds": [{ "build_commit": 5 }] }),
        ] {
            let e = recorded(&bad).unwrap_err().to_string();
            assert!(e.contains("`builds` is not a list of build starts"), "{e}");
        }
    }
}

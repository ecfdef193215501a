//! Panels (issue 37): a named set of players that a study runs once per member, so that a
//! verdict ("the first seat scores above ½", "a purchase every 5-6 moves") can be said to
//! hold for every member or not. Used by `balance --panel`, `tune --panel` and
//! `values --panel`; a panel is a definition shared by the studies, not a study itself.
//!
//! The file (TOML; examples in `examples/panels/`):
//!
//! ```toml
//! name = "alphabeta two strengths and mcts"
//! [[member]]
//! label = "ab-d3"                      # folder name of the member's runs
//! agent = "alphabeta:depth=3,noise=10" # the spec every seat of the member's games plays
//! rating = "alphabeta:depth=3"         # optional: the strength table's spec to quote
//! targets = "targets-ab-d3.toml"       # optional, `tune` only: this member's target
//!                                      # file (relative to the panel file), instead of
//!                                      # --targets
//! ```
//!
//! Decisions where the issue is silent: a member plays self-play (both seats the same
//! spec), as ladders do, so a figure belongs to one player; the label must be a plain
//! folder name (letters, digits, `-`, `_`, `.`), unique in the panel; `rating` defaults to
//! the agent spec itself and is looked up in [`crate::stats::strength`] (settings in any
//! order, `noise` ignored), a member not in that table is "unrated"; a panel of fewer
//! than three members is accepted (a small study is still a study) but every report says
//! the issue asks for three. Unknown keys are refused, so a misspelt `agnet` is an error,
//! not a silently missing member. Tests: `panel_files_load_and_bad_ones_are_refused`,
//! `ratings_come_from_the_strength_table_or_say_unrated`, `verdicts_over_members`.

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One player of a panel.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Member {
    pub label: String,
    pub agent: String,
    #[serde(default)]
    pub rating: Option<String>,
    /// `tune --panel`: this member's target file (relative to the panel file's folder),
    /// used instead of `--targets` for this member.
    #[serde(default)]
    pub targets: Option<PathBuf>,
}

/// A panel file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Panel {
    pub name: String,
    #[serde(rename = "member", default)]
    pub members: Vec<Member>,
    /// The folder of the panel file (member target files are relative to it).
    #[serde(skip)]
    pub dir: PathBuf,
}

impl Panel {
    /// Parses a panel's text (`what` names it in errors).
    pub fn parse(text: &str, what: &str) -> Result<Panel> {
        let panel: Panel = crate::util::from_toml(text).with_context(|| format!("panel {what}"))?;
        if panel.name.trim().is_empty() {
            bail!("panel {what}: `name` is empty");
        }
        if panel.members.is_empty() {
            bail!("panel {what}: no members (add [[member]] tables with label and agent)");
        }
        for (i, m) in panel.members.iter().enumerate() {
            if m.label.is_empty()
                || !m
                    .label
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
                || m.label.starts_with('.')
            {
                bail!(
                    "panel {what}: member {} has label '{}': use letters, digits, '-', '_' or '.' (it names the member's folder)",
                    i + 1,
                    m.label
                );
            }
            if panel.members[..i].iter().any(|o| o.label == m.label) {
                bail!("panel {what}: two members are labelled '{}'", m.label);
            }
            if m.agent.trim().is_empty() {
                bail!("panel {what}: member '{}' has no agent spec", m.label);
            }
            if m.label == "chess" {
                bail!(
                    "panel {what}: the label 'chess' is reserved (the orthodox-chess runs' folder)"
                );
            }
        }
        Ok(panel)
    }

    /// Reads and parses a panel file.
    pub fn load(path: &Path) -> Result<Panel> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read --panel {}", path.display()))?;
        let mut p = Panel::parse(&text, &path.display().to_string())?;
        p.dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        Ok(p)
    }

    /// A member's target file, resolved against the panel's folder.
    pub fn targets_of(&self, m: &Member) -> Option<PathBuf> {
        m.targets.as_ref().map(|t| self.dir.join(t))
    }

    /// The sentence every panel report carries about the panel's size.
    pub fn size_note(&self) -> Option<String> {
        (self.members.len() < 3).then(|| {
            format!(
                "Panel '{}' has {} member(s); issue 37 asks for at least three players of different strength and style.",
                self.name,
                self.members.len()
            )
        })
    }

    /// The panel as a Markdown table: label, agent, rating (today's generation).
    pub fn table(&self) -> String {
        self.table_at(&[])
    }

    /// The same with each member's rating of the generation that played its run
    /// (`epochs[k]`, from its run.json; a report of kept runs quotes their generation's
    /// ratings, not today's). Members beyond `epochs` take today's.
    pub fn table_at(&self, epochs: &[Option<u32>]) -> String {
        let mut s = String::from("| member | agent | rating (Elo, 95%) |\n|---|---|---|\n");
        for (k, m) in self.members.iter().enumerate() {
            let epoch = epochs.get(k).copied().unwrap_or(Some(agents::EPOCH));
            s.push_str(&format!(
                "| {} | `{}` | {} |\n",
                m.label,
                m.agent,
                m.rating_cell_at(epoch)
            ));
        }
        s.push_str(&format!(
            "\nRatings: {} (`*`: measured without the `noise` setting); \"unrated\": not in the strength table (results/strength/README.md).\n",
            crate::stats::strength::SCALE
        ));
        s
    }
}

impl Member {
    /// The spec looked up in the strength table.
    pub fn rating_spec(&self) -> &str {
        self.rating.as_deref().unwrap_or(&self.agent)
    }

    /// `1563 [1494, 1633]` or `unrated`, for today's generation.
    pub fn rating_cell(&self) -> String {
        self.rating_cell_at(Some(agents::EPOCH))
    }

    /// The same for generation `epoch` (`None`: the run does not record its generation,
    /// so no rating is quoted: `—`).
    pub fn rating_cell_at(&self, epoch: Option<u32>) -> String {
        let Some(e) = epoch else {
            return crate::stats::strength::cell_at(self.rating_spec(), None);
        };
        match crate::stats::strength::lookup_at(self.rating_spec(), e) {
            Some(_) => crate::stats::strength::cell_at(self.rating_spec(), epoch),
            None => "unrated".into(),
        }
    }

    /// The member's rating, if measured.
    pub fn elo(&self) -> Option<f64> {
        crate::stats::strength::lookup(self.rating_spec()).map(|(m, _)| m.elo)
    }
}

/// Whether a verdict holds for every member: `holds` is, per member, `Some(true)` when
/// it holds with its interval, `Some(false)` when it does not, `None` when the evidence
/// cannot tell. The sentence names the members.
pub fn verdict_over_members(what: &str, labels: &[&str], holds: &[Option<bool>]) -> String {
    let pick = |want: Option<bool>| -> Vec<&str> {
        labels
            .iter()
            .zip(holds)
            .filter(|(_, h)| **h == want)
            .map(|(l, _)| *l)
            .collect()
    };
    let (yes, no, open) = (pick(Some(true)), pick(Some(false)), pick(None));
    let n = labels.len();
    if yes.len() == n {
        format!("{what}: holds for every member ({n} of {n}).")
    } else if no.len() == n {
        format!("{what}: holds for no member (0 of {n}).")
    } else if open.len() == n {
        format!("{what}: not decided for any member (every interval covers the threshold).")
    } else {
        let mut parts = Vec::new();
        if !yes.is_empty() {
            parts.push(format!("holds for {}", yes.join(", ")));
        }
        if !no.is_empty() {
            parts.push(format!("fails for {}", no.join(", ")));
        }
        if !open.is_empty() {
            parts.push(format!("undecided for {}", open.join(", ")));
        }
        format!(
            "{what}: does not hold for every member: {} ({} of {n} hold).",
            parts.join("; "),
            yes.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
name = "test panel"
[[member]]
label = "ab-d3"
agent = "alphabeta:depth=3,noise=10"
[[member]]
label = "ab-d2"
agent = "alphabeta:noise=10,depth=2"
targets = "t.toml"
[[member]]
label = "mcts"
agent = "mcts:iters=100"
rating = "mcts:iters=100,cutoff=16"
"#;

    #[test]
    fn panel_files_load_and_bad_ones_are_refused() {
        let p = Panel::parse(GOOD, "t").unwrap();
        assert_eq!(p.name, "test panel");
        assert_eq!(p.members.len(), 3);
        assert_eq!(p.members[1].targets, Some(PathBuf::from("t.toml")));
        assert!(p.size_note().is_none());
        let err = |text: &str| format!("{:#}", Panel::parse(text, "t").unwrap_err());
        assert!(err("name = \"x\"").contains("no members"));
        assert!(err("name = \"\"\n[[member]]\nlabel=\"a\"\nagent=\"random\"").contains("empty"));
        assert!(
            err("name = \"x\"\n[[member]]\nlabel=\"a/b\"\nagent=\"random\"")
                .contains("label 'a/b'")
        );
        assert!(err("name = \"x\"\n[[member]]\nlabel=\"a\"\nagnet=\"random\"").contains("agnet"));
        assert!(err(
            "name = \"x\"\n[[member]]\nlabel=\"a\"\nagent=\"random\"\n[[member]]\nlabel=\"a\"\nagent=\"greedy\""
        )
        .contains("two members are labelled 'a'"));
        assert!(
            err("name = \"x\"\n[[member]]\nlabel=\"chess\"\nagent=\"random\"").contains("reserved")
        );
        let small = Panel::parse(
            "name = \"x\"\n[[member]]\nlabel=\"a\"\nagent=\"random\"",
            "t",
        )
        .unwrap();
        assert!(small.size_note().unwrap().contains("1 member(s)"));
    }

    #[test]
    fn ratings_come_from_the_strength_table_or_say_unrated() {
        let p = Panel::parse(GOOD, "t").unwrap();
        // Today's generation's rows of the table (measured without noise: the `*`).
        let (d3, _) = crate::stats::strength::lookup("alphabeta:depth=3").unwrap();
        let (d2, _) = crate::stats::strength::lookup("alphabeta:depth=2").unwrap();
        assert_eq!(
            p.members[0].rating_cell(),
            format!("{:.0} [{:.0}, {:.0}]*", d3.elo, d3.low, d3.high)
        );
        assert_eq!(p.members[1].elo(), Some(d2.elo));
        // The rating spec names a measured-looking spec that is not in the table.
        assert_eq!(p.members[2].rating_cell(), "unrated");
        assert!(p.table().contains("| mcts | `mcts:iters=100` | unrated |"));
        // A kept run's generation, not today's: generation 3's depth 3 differs from
        // today's, and a run without a recorded generation quotes none.
        let (d3_gen3, _) = crate::stats::strength::lookup_at("alphabeta:depth=3", 3).unwrap();
        assert_ne!(d3_gen3.elo, d3.elo);
        let old = p.table_at(&[Some(3), None]);
        assert!(old.contains(&format!("{:.0} [", d3_gen3.elo)), "{old}");
        assert!(
            old.lines()
                .any(|l| l.starts_with("| ab-d2 |") && l.ends_with("| — |")),
            "{old}"
        );
    }

    #[test]
    fn verdicts_over_members() {
        let l = ["a", "b", "c"];
        let v = verdict_over_members("X", &l, &[Some(true); 3]);
        assert_eq!(v, "X: holds for every member (3 of 3).");
        let v = verdict_over_members("X", &l, &[Some(true), Some(false), None]);
        assert!(
            v.contains("holds for a; fails for b; undecided for c (1 of 3 hold)"),
            "{v}"
        );
        assert!(verdict_over_members("X", &l, &[None; 3]).contains("not decided"));
        assert!(verdict_over_members("X", &l, &[Some(false); 3]).contains("no member"));
    }
}

//! `chesslab rules --variant V`: the rules the lab implements for a variant, printed
//! from docs/RULES.md (the rules common to all variants, then the variant's section).
//!
//! docs/RULES.md is embedded with `include_str!`, so the binary prints the text it was
//! built with and nothing is kept twice. A section is found by its heading: "## Half
//! Alice Chess (chess-kit seed)" is `half-alice` (the words before the parenthesis, lower
//! case, joined by `-`, a trailing "chess" dropped); `chess` is the common part alone,
//! and `golf` the Chess Golf section. Test: `every_variant_has_a_rules_section`.

use anyhow::{bail, Result};
use clap::Args;

use crate::util::outln;

/// The lab's rule decisions (kept equal to the shared RULES.md).
pub const RULES_MD: &str = include_str!("../../../docs/RULES.md");

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// Variant name (the list: `chesslab --help`; also `golf`).
    #[arg(long)]
    pub variant: String,
}

pub fn run(args: &RulesArgs) -> Result<()> {
    outln!("{}", rules_text(&args.variant)?);
    Ok(())
}

/// The common rules (the text before the first section) and `variant`'s section.
pub fn rules_text(variant: &str) -> Result<String> {
    let (common, sections) = split(RULES_MD);
    if variant == "chess" {
        return Ok(common.trim_end().to_string());
    }
    match sections.iter().find(|(name, _)| name == variant) {
        Some((_, text)) => Ok(format!("{}\n\n{}", common.trim_end(), text.trim_end())),
        None => {
            let known: Vec<&str> = std::iter::once("chess")
                .chain(sections.iter().map(|(n, _)| n.as_str()))
                .collect();
            bail!(
                "no rules section for variant '{variant}'{} in docs/RULES.md; known: {}",
                engine::suggest::did_you_mean(variant, known.iter().copied()),
                known.join(", ")
            )
        }
    }
}

/// The text before the first `## ` heading (without the closing `---`), and each
/// section with its variant name.
fn split(md: &str) -> (String, Vec<(String, String)>) {
    let mut common = String::new();
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in md.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            sections.push((section_name(heading), String::new()));
        }
        match sections.last_mut() {
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None if line.trim() != "---" => {
                common.push_str(line);
                common.push('\n');
            }
            None => {}
        }
    }
    (common, sections)
}

/// "Half Alice Chess (chess-kit seed)" -> "half-alice"; "Chess960 (...)" -> "chess960";
/// "Chess Golf (...)" -> "golf".
fn section_name(heading: &str) -> String {
    let title = heading.split(" (").next().unwrap_or(heading).trim();
    let words: Vec<String> = title
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let words: Vec<&str> = match words.as_slice() {
        [first, rest @ ..] if first == "chess" && !rest.is_empty() => {
            rest.iter().map(String::as_str).collect()
        }
        [most @ .., last] if last == "chess" && !most.is_empty() => {
            most.iter().map(String::as_str).collect()
        }
        all => all.iter().map(String::as_str).collect(),
    };
    words.join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_a_rules_section() {
        for &v in engine::registry::VARIANTS {
            let text = rules_text(v).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert!(text.contains("Common to all variants"), "{v}");
        }
        let alice = rules_text("half-alice").unwrap();
        assert!(alice.contains("## Half Alice Chess"), "{alice}");
        assert!(!alice.contains("## Adrenaline"), "{alice}");
        assert!(rules_text("golf").unwrap().contains("## Chess Golf"));
        assert!(!rules_text("chess").unwrap().contains("## "));
        let e = rules_text("nosuch").unwrap_err().to_string();
        assert!(e.contains("known: chess, chess960, half-alice"), "{e}");
    }
}

//! The variant arguments every command shares (`--variant`, `--params`), flattened into
//! each command's arguments, and the one place that reads a parameter file. Its errors
//! name the flag at fault (`--variant` with the near name, `--params FILE` with the key
//! and the range in words: issue 68).

use anyhow::{Context, Result};
use clap::Args;
use engine::game::GameError;
use engine::registry::{self, VariantVisitor};
use std::path::{Path, PathBuf};

/// `--variant NAME [--params FILE]`.
#[derive(Args, Debug, Clone)]
pub struct VariantArgs {
    /// Variant name (the list: `chesslab --help`).
    #[arg(long)]
    pub variant: String,
    /// Variant parameters (TOML), read over the variant's defaults; unknown keys and
    /// values out of range are errors.
    #[arg(long)]
    pub params: Option<PathBuf>,
}

impl VariantArgs {
    /// The parameter file's text, if one was given.
    pub fn params_text(&self) -> Result<Option<String>> {
        self.params
            .as_deref()
            .map(|p| {
                std::fs::read_to_string(p)
                    .with_context(|| format!("--params {}: cannot read it", p.display()))
            })
            .transpose()
    }

    /// Calls `visitor` with the variant and its validated parameters.
    pub fn visit<V: VariantVisitor>(&self, visitor: V) -> Result<V::Output> {
        let text = self.params_text()?;
        visit_named(
            &self.variant,
            self.params.as_deref(),
            text.as_deref(),
            visitor,
        )
    }
}

/// [`registry::visit`] with its errors naming the flag at fault (issue 68): an unknown
/// variant is `--variant`'s (with the near name), bad parameters are `--params FILE`'s
/// (with the key, the value and the range in words). Errors of the visitor itself pass
/// through unchanged. Test: `params_and_variant_errors_name_the_flag_and_file` in
/// `experiments/tests/front_door.rs`.
pub fn visit_named<V: VariantVisitor>(
    variant: &str,
    params: Option<&Path>,
    text: Option<&str>,
    visitor: V,
) -> Result<V::Output> {
    registry::visit(variant, text, visitor).map_err(|e| match (&e, params) {
        (GameError::UnknownVariant(..), _) => anyhow::Error::new(e).context("--variant"),
        (GameError::Params { .. }, Some(p)) => {
            anyhow::Error::new(e).context(format!("--params {}", p.display()))
        }
        _ => anyhow::Error::new(e).context(format!("--variant {variant}")),
    })
}

/// Reads a parameter file (TOML text; parsed later against the variant's parameters).
pub fn read_params_file(path: &Path) -> Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("cannot read parameter file {}", path.display()))
}

//! The variant arguments every command shares (`--variant`, `--params`), flattened into
//! each command's arguments, and the one place that reads a parameter file.

use anyhow::{Context, Result};
use clap::Args;
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
        self.params.as_deref().map(read_params_file).transpose()
    }

    /// Calls `visitor` with the variant and its validated parameters.
    pub fn visit<V: VariantVisitor>(&self, visitor: V) -> Result<V::Output> {
        let text = self.params_text()?;
        registry::visit(&self.variant, text.as_deref(), visitor).with_context(|| {
            match &self.params {
                Some(p) => format!("variant '{}', parameters {}", self.variant, p.display()),
                None => format!("variant '{}'", self.variant),
            }
        })
    }
}

/// Reads a parameter file (TOML text; parsed later against the variant's parameters).
pub fn read_params_file(path: &Path) -> Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("cannot read parameter file {}", path.display()))
}

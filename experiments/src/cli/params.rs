//! `chesslab params --variant V`: the variant's default parameters as a commented TOML
//! file, ready for `--params` (issue 39: parameters could not be discovered).
//!
//! The comments come from the table each variant declares beside its parameter struct
//! (`VariantParams::DOCS` in the engine), not from a list kept here, so a new parameter
//! without a description fails `every_variant_documents_every_parameter` below. An entry
//! for a table (`deck`, `values`) covers every key under it and is printed above the
//! table's header. A key whose default is unset (an `Option`, e.g. Chess960's
//! `position`) is printed commented out, so the file still reads back as the defaults
//! (`printed_defaults_read_back_as_the_defaults`). The defaults are the seed texts'
//! values (docs/RULES.md): the comment says so where they are not.

use anyhow::{Context, Result};
use clap::Args;
use engine::game::{Game, ParamDoc, VariantParams};
use engine::registry::{self, VariantVisitor};
use std::fmt::Write as _;

use crate::util::out;

#[derive(Args, Debug)]
pub struct ParamsArgs {
    /// Variant name (the list: `chesslab --help`).
    #[arg(long)]
    pub variant: String,
}

pub fn run(args: &ParamsArgs) -> Result<()> {
    out!("{}", defaults_toml(&args.variant)?);
    Ok(())
}

/// The commented defaults of `variant` as TOML text.
pub fn defaults_toml(variant: &str) -> Result<String> {
    let (table, docs) = defaults(variant)?;
    let mut text = format!(
        "# chesslab params --variant {variant}: the default parameters (the seed's values) as a\n\
         # file for --params. Every key is optional: a file names only what it changes.\n"
    );
    write_table(&mut text, "", &table, docs);
    Ok(text)
}

/// The variant's defaults as a TOML table, with its parameter descriptions.
pub fn defaults(variant: &str) -> Result<(toml::Table, &'static [ParamDoc])> {
    struct Defaults;
    impl VariantVisitor for Defaults {
        type Output = Result<(toml::Table, &'static [ParamDoc])>;
        fn visit<G: Game>(self, _: &'static str, params: G::Params) -> Self::Output {
            let table = toml::Table::try_from(&params).context("parameters as TOML")?;
            Ok((table, <G::Params as VariantParams>::DOCS))
        }
    }
    registry::visit(variant, None, Defaults).with_context(|| format!("variant '{variant}'"))?
}

/// The description of `key` (dotted), or of the nearest table above it.
pub fn doc_of<'a>(docs: &'a [ParamDoc], key: &str) -> Option<&'a ParamDoc> {
    let mut k = key;
    loop {
        if let Some(d) = docs.iter().find(|d| d.key == k) {
            return Some(d);
        }
        k = &k[..k.rfind('.')?];
    }
}

fn comment(text: &mut String, d: &ParamDoc) {
    let _ = writeln!(text, "\n# {}", d.about);
    let _ = writeln!(text, "# range: {}", d.range);
}

/// Writes `table` (at dotted `path`): its plain keys, the unset ones commented out, then
/// its sub-tables under their headers (TOML wants plain keys before tables).
fn write_table(text: &mut String, path: &str, table: &toml::Table, docs: &[ParamDoc]) {
    let full = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    // In the order the variant's table describes them; keys it does not list last.
    let rank = |k: &str| {
        docs.iter()
            .position(|d| d.key == full(k))
            .unwrap_or(usize::MAX)
    };
    let mut plain: Vec<(&String, &toml::Value)> =
        table.iter().filter(|(_, v)| !v.is_table()).collect();
    plain.sort_by_key(|(k, _)| rank(k));
    for (k, v) in plain {
        let key = full(k);
        // A key's own entry is printed above it; one inherited from its table was
        // printed above the table's header.
        if let Some(d) = docs.iter().find(|d| d.key == key) {
            comment(text, d);
        }
        let _ = writeln!(text, "{k} = {}", value_text(v));
    }
    // Keys the defaults leave unset: described and commented out.
    let depth = path.matches('.').count() + usize::from(!path.is_empty());
    for d in docs {
        let parts: Vec<&str> = d.key.split('.').collect();
        let here =
            parts.len() == depth + 1 && (path.is_empty() || d.key.starts_with(&format!("{path}.")));
        if here && !table.contains_key(parts[depth]) {
            comment(text, d);
            let _ = writeln!(text, "# {} = (unset by default)", parts[depth]);
        }
    }
    for (k, v) in table.iter() {
        if let toml::Value::Table(t) = v {
            let key = full(k);
            if let Some(d) = docs.iter().find(|d| d.key == key) {
                comment(text, d);
            } else {
                text.push('\n');
            }
            let _ = writeln!(text, "[{key}]");
            write_table(text, &key, t, docs);
        }
    }
}

/// A value as TOML; an array of arrays (Expedition's dice table) one row a line.
fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::Array(rows) if rows.iter().all(|r| r.is_array()) && !rows.is_empty() => {
            let rows: Vec<String> = rows.iter().map(|r| format!("    {r},")).collect();
            format!("[\n{}\n]", rows.join("\n"))
        }
        other => other.to_string(),
    }
}

/// Every leaf key of `table`, dotted.
pub fn leaf_keys(table: &toml::Table, path: &str, out: &mut Vec<String>) {
    for (k, v) in table {
        let key = if path.is_empty() {
            k.clone()
        } else {
            format!("{path}.{k}")
        };
        match v {
            toml::Value::Table(t) => leaf_keys(t, &key, out),
            _ => out.push(key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_documents_every_parameter() {
        for &v in registry::VARIANTS {
            let (table, docs) = defaults(v).unwrap();
            let mut keys = Vec::new();
            leaf_keys(&table, "", &mut keys);
            for k in &keys {
                assert!(
                    doc_of(docs, k).is_some(),
                    "{v}: parameter {k} has no description"
                );
            }
            for d in docs {
                assert!(!d.about.is_empty() && !d.range.is_empty(), "{v}: {}", d.key);
                let known = keys
                    .iter()
                    .any(|k| k == d.key || k.starts_with(&format!("{}.", d.key)));
                assert!(
                    known || d.range.contains("unset"),
                    "{v}: the description of {} names no parameter",
                    d.key
                );
            }
        }
    }

    #[test]
    fn printed_defaults_read_back_as_the_defaults() {
        for &v in registry::VARIANTS {
            let text = defaults_toml(v).unwrap();
            let (table, docs) = defaults(v).unwrap();
            // Read with --params's own reader, over the defaults...
            let read: toml::Table =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{v}: {e}\n{text}"));
            assert_eq!(
                read, table,
                "{v}: the printed file is not the defaults\n{text}"
            );
            assert!(registry::visit(v, Some(&text), Defaults).is_ok(), "{v}");
            // ...and every key the printer emits is commented.
            for d in docs {
                assert!(
                    text.contains(&format!("# {}", d.about)),
                    "{v}: {} not printed",
                    d.key
                );
            }
        }
        let chess = defaults_toml("chess").unwrap();
        assert!(chess.contains("ply_cap = 400"), "{chess}");
        assert!(chess.contains("# position = (unset by default)"), "{chess}");
        let exp = defaults_toml("expedition").unwrap();
        assert!(exp.contains("table = [\n    ["), "{exp}");
        assert!(defaults_toml("nosuch").is_err());
    }

    struct Defaults;
    impl VariantVisitor for Defaults {
        type Output = ();
        fn visit<G: Game>(self, _: &'static str, _: G::Params) {}
    }
}

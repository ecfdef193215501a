//! The space file: which numeric fields of a variant's parameters the tuner moves.
//!
//! ```toml
//! [[param]]
//! name = "q7"              # a short name for the CSV, the plots and ties
//! path = "table.5.5"       # TOML path into the parameters; array elements by index
//! # paths = ["table.5.4", "table.5.6"]   # or several fields that take one value
//! min = 1
//! max = 7
//! kind = "int"             # "int" (default), "real" or "scale"
//!
//! [[param]]                # kind = "scale": one real factor for whole tables
//! name = "values"
//! paths = ["values.move", "values.buy"]   # every number under these paths
//! kind = "scale"
//! min = 0.1
//! max = 2.0
//!
//! [[tie]]                  # optional: an order kept along a chain of names
//! order = ["n", "b", "r"]  # n <= b <= r
//! strict = false           # true: n < b < r (integers: at least 1 apart)
//! ```
//!
//! A `scale` parameter is a factor (its base value is 1) applied to the base value of
//! every number under its paths (a path naming a table or array takes every number
//! inside it), so a table keeps its shape while its level moves. Decision: integer
//! fields get the nearest integer of `base · factor`, at least 1 when the base is at
//! least 1 (a price or value of 0 would change the rules, not the level). Test
//! `tune::tests::scale_params_keep_the_shape_of_a_table`.
//!
//! Decisions (the issue names ties but not how they are kept): a point breaking a tie is
//! repaired by a forward pass along the chain (each value raised to at least its
//! predecessor, plus one for a strict integer tie), then clamped to the bounds; a tie
//! that cannot be met inside the bounds is an error when the space is read
//! (`tune::tests::bad_space_files_are_errors_before_any_game`). Paths are checked
//! against the variant's full parameter table (defaults merged with the base file), so
//! an unknown path or one that is not a number is an error before any game.

use anyhow::{anyhow, bail, Context, Result};
use serde::Deserialize;

/// One tuned value.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub paths: Vec<String>,
    pub min: f64,
    pub max: f64,
    pub integer: bool,
    /// For a `scale` parameter, every number it scales: path and base value (whether
    /// the field is an integer); empty for plain parameters.
    pub scaled: Vec<(String, f64, bool)>,
}

/// An order constraint along a chain of parameters (indices into the space).
#[derive(Clone, Debug, PartialEq)]
pub struct Tie {
    pub order: Vec<usize>,
    pub strict: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Space {
    pub params: Vec<Param>,
    pub ties: Vec<Tie>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpaceFile {
    #[serde(default)]
    param: Vec<ParamFile>,
    #[serde(default)]
    tie: Vec<TieFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamFile {
    name: Option<String>,
    path: Option<String>,
    paths: Option<Vec<String>>,
    min: f64,
    max: f64,
    #[serde(default = "default_kind")]
    kind: String,
}

fn default_kind() -> String {
    "int".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TieFile {
    order: Vec<String>,
    #[serde(default)]
    strict: bool,
}

impl Space {
    /// Reads a space file and checks it against `table` (the variant's full parameters).
    pub fn parse(text: &str, table: &toml::Table) -> Result<Space> {
        let file: SpaceFile = toml::from_str(text).context("the space file is not valid")?;
        if file.param.is_empty() {
            bail!("the space file names no [[param]]");
        }
        let mut params = Vec::new();
        for (i, p) in file.param.into_iter().enumerate() {
            let paths = match (p.path, p.paths) {
                (Some(one), None) => vec![one],
                (None, Some(many)) if !many.is_empty() => many,
                _ => bail!("param {}: give exactly one of `path` or `paths`", i + 1),
            };
            let name = p.name.unwrap_or_else(|| paths[0].clone());
            let (integer, scale) = match p.kind.as_str() {
                "int" => (true, false),
                "real" => (false, false),
                "scale" => (false, true),
                k => bail!("param '{name}': kind '{k}' is not \"int\", \"real\" or \"scale\""),
            };
            if !(p.min.is_finite() && p.max.is_finite()) || p.min >= p.max {
                bail!(
                    "param '{name}': bounds reversed or empty (min {} must be below max {})",
                    p.min,
                    p.max
                );
            }
            let mut scaled = Vec::new();
            for path in paths.iter().filter(|_| scale) {
                let v = get(table, path).with_context(|| format!("param '{name}'"))?;
                let before = scaled.len();
                leaves(v, path, &mut scaled);
                if scaled.len() == before {
                    bail!("param '{name}': path '{path}' holds no number to scale");
                }
            }
            if scale && p.min <= 0.0 {
                bail!("param '{name}': a scale factor's min must be above 0");
            }
            for path in paths.iter().filter(|_| !scale) {
                let v = get(table, path).with_context(|| format!("param '{name}'"))?;
                match v {
                    toml::Value::Integer(_) if integer => {}
                    toml::Value::Integer(_) | toml::Value::Float(_) if !integer => {}
                    toml::Value::Float(_) => {
                        bail!("param '{name}': path '{path}' holds a real number; use kind = \"real\"")
                    }
                    other => bail!(
                        "param '{name}': path '{path}' is not a number (it holds {})",
                        other.type_str()
                    ),
                }
            }
            if params.iter().any(|q: &Param| q.name == name) {
                bail!("param '{name}' is named twice");
            }
            params.push(Param {
                name,
                paths,
                min: p.min,
                max: p.max,
                integer,
                scaled,
            });
        }
        let mut ties = Vec::new();
        for t in file.tie {
            let order = t
                .order
                .iter()
                .map(|n| {
                    params
                        .iter()
                        .position(|p| &p.name == n)
                        .ok_or_else(|| anyhow!("tie: no param named '{n}'"))
                })
                .collect::<Result<Vec<_>>>()?;
            if order.len() < 2 {
                bail!("tie: an order needs at least two names");
            }
            ties.push(Tie {
                order,
                strict: t.strict,
            });
        }
        let space = Space { params, ties };
        // The lowest point that keeps every tie must fit under the upper bounds.
        let low: Vec<f64> = space.params.iter().map(|p| p.min).collect();
        let fixed = space.repair_unclamped(&low);
        for (p, v) in space.params.iter().zip(&fixed) {
            if *v > p.max {
                bail!(
                    "the ties cannot be met inside the bounds (param '{}' would need {v} > max {})",
                    p.name,
                    p.max
                );
            }
        }
        Ok(space)
    }

    pub fn dim(&self) -> usize {
        self.params.len()
    }

    fn repair_unclamped(&self, x: &[f64]) -> Vec<f64> {
        let mut x = x.to_vec();
        for t in &self.ties {
            for w in t.order.windows(2) {
                let gap = if t.strict {
                    if self.params[w[1]].integer {
                        1.0
                    } else {
                        1e-9
                    }
                } else {
                    0.0
                };
                if x[w[1]] < x[w[0]] + gap {
                    x[w[1]] = x[w[0]] + gap;
                }
            }
        }
        x
    }

    /// A point as played: rounded where integer (by the caller), ties repaired, bounds
    /// kept.
    pub fn repair(&self, x: &[f64]) -> Vec<f64> {
        self.repair_unclamped(x)
            .iter()
            .zip(&self.params)
            .map(|(v, p)| v.clamp(p.min, p.max))
            .collect()
    }

    /// Normalised coordinates (each bound range mapped to [0, 1]) to raw values.
    pub fn from_unit(&self, u: &[f64]) -> Vec<f64> {
        u.iter()
            .zip(&self.params)
            .map(|(u, p)| p.min + u.clamp(0.0, 1.0) * (p.max - p.min))
            .collect()
    }

    pub fn to_unit(&self, x: &[f64]) -> Vec<f64> {
        x.iter()
            .zip(&self.params)
            .map(|(x, p)| ((x - p.min) / (p.max - p.min)).clamp(0.0, 1.0))
            .collect()
    }

    /// The values of the space's parameters in `table`.
    pub fn read(&self, table: &toml::Table) -> Result<Vec<f64>> {
        self.params
            .iter()
            .map(|p| {
                if !p.scaled.is_empty() {
                    return Ok(1.0);
                }
                let v = get(table, &p.paths[0])?;
                v.as_float()
                    .or_else(|| v.as_integer().map(|i| i as f64))
                    .ok_or_else(|| anyhow!("path '{}' is not a number", p.paths[0]))
            })
            .collect()
    }

    /// `table` with every path of the space set to the point's values (integers written
    /// as TOML integers).
    pub fn write(&self, table: &toml::Table, x: &[f64]) -> Result<toml::Table> {
        let mut t = table.clone();
        for (p, &v) in self.params.iter().zip(x) {
            for (path, base, integer) in &p.scaled {
                let scaled = base * v;
                *get_mut(&mut t, path)? = if *integer {
                    let floor = if *base >= 1.0 { 1 } else { 0 };
                    toml::Value::Integer((scaled.round() as i64).max(floor))
                } else {
                    toml::Value::Float(scaled)
                };
            }
            if !p.scaled.is_empty() {
                continue;
            }
            let value = if p.integer {
                toml::Value::Integer(v.round() as i64)
            } else {
                toml::Value::Float(v)
            };
            for path in &p.paths {
                *get_mut(&mut t, path)? = value.clone();
            }
        }
        Ok(t)
    }
}

/// Every number under `v` (itself if it is one), with its path.
fn leaves(v: &toml::Value, path: &str, out: &mut Vec<(String, f64, bool)>) {
    match v {
        toml::Value::Integer(i) => out.push((path.to_string(), *i as f64, true)),
        toml::Value::Float(f) => out.push((path.to_string(), *f, false)),
        toml::Value::Table(t) => {
            for (k, v) in t {
                leaves(v, &format!("{path}.{k}"), out);
            }
        }
        toml::Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                leaves(v, &format!("{path}.{i}"), out);
            }
        }
        _ => {}
    }
}

fn get<'a>(table: &'a toml::Table, path: &str) -> Result<&'a toml::Value> {
    let mut parts = path.split('.');
    let first = parts.next().unwrap_or_default();
    let mut v = table
        .get(first)
        .ok_or_else(|| anyhow!("unknown parameter path '{path}' (no field '{first}')"))?;
    for part in parts {
        v = match v {
            toml::Value::Table(t) => t.get(part),
            toml::Value::Array(a) => part.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        }
        .ok_or_else(|| anyhow!("unknown parameter path '{path}' (nothing at '{part}')"))?;
    }
    Ok(v)
}

fn get_mut<'a>(table: &'a mut toml::Table, path: &str) -> Result<&'a mut toml::Value> {
    let mut parts = path.split('.');
    let first = parts.next().unwrap_or_default();
    let mut v = table
        .get_mut(first)
        .ok_or_else(|| anyhow!("unknown parameter path '{path}'"))?;
    for part in parts {
        v = match v {
            toml::Value::Table(t) => t.get_mut(part),
            toml::Value::Array(a) => part.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
            _ => None,
        }
        .ok_or_else(|| anyhow!("unknown parameter path '{path}'"))?;
    }
    Ok(v)
}

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
//!
//! [[constraint]]           # optional (issue 37): one field above another, in the
//! greater = "values.move_destination.pawn"   # table as played (after rounding)
//! than = "values.moves.pawn"
//! or_equal = false         # true: >= instead of >
//!
//! [[constraint]]           # every number under the path keeps the base table's order
//! keep_order = "costs.drop"
//! strict = true            # seed a < b stays a < b (false: a <= b); seed ties are free
//! ```
//!
//! Constraints are on fields of the parameter table (paths, like `paths`), not on the
//! tuner's parameters, and they hold in the table as played: they are enforced after
//! scaling and rounding, every time a point is written ([`Space::write`], so every
//! evaluated point, `best.toml` and the confirmation run obey them). Decision: a broken
//! constraint is repaired by raising the lower-bound side's offender (the `greater`
//! field to `than` + 1 for integers, + 1e-6 for reals; along a `keep_order` path, each
//! number to just above the largest number whose base value is strictly below its own),
//! repeated over all constraints until none moves; raising never lowers a value, so the
//! repair ends unless the constraints contradict one another (a cycle), which is an
//! error when the space is read, found by repairing the base table. Why raise and not
//! lower: the issue's failure was rounding that made a destination guess worth the same
//! 1 Z as a piece guess; lowering the piece guess to 0 would remove it from the rules.
//! Tests `tune::tests::constraints_keep_the_seed_shape_after_rounding`,
//! `tune::tests::contradictory_constraints_are_refused`.
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

/// A constraint on the table as played (after rounding).
#[derive(Clone, Debug, PartialEq)]
pub enum Constraint {
    /// `greater` above `than` (or equal, with `or_equal`).
    Greater {
        greater: String,
        than: String,
        or_equal: bool,
    },
    /// Every number under `path` ordered as in the base table: pairs (lower, higher) of
    /// leaf paths whose base values are strictly ordered.
    KeepOrder {
        path: String,
        pairs: Vec<(String, String)>,
        strict: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Space {
    pub params: Vec<Param>,
    pub ties: Vec<Tie>,
    pub constraints: Vec<Constraint>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpaceFile {
    #[serde(default)]
    param: Vec<ParamFile>,
    #[serde(default)]
    tie: Vec<TieFile>,
    #[serde(default)]
    constraint: Vec<ConstraintFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConstraintFile {
    greater: Option<String>,
    than: Option<String>,
    #[serde(default)]
    or_equal: bool,
    keep_order: Option<String>,
    strict: Option<bool>,
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
        let file: SpaceFile =
            crate::util::from_toml(text).context("the space file is not valid")?;
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
        let mut constraints = Vec::new();
        for (i, c) in file.constraint.into_iter().enumerate() {
            let what = format!("constraint {}", i + 1);
            constraints.push(match (c.greater, c.than, c.keep_order) {
                (Some(greater), Some(than), None) => {
                    if c.strict.is_some() {
                        bail!("{what}: `strict` belongs to `keep_order`; use `or_equal` with `greater`");
                    }
                    for path in [&greater, &than] {
                        number_at(table, path).with_context(|| what.clone())?;
                    }
                    if greater == than {
                        bail!("{what}: '{greater}' cannot be above itself");
                    }
                    Constraint::Greater {
                        greater,
                        than,
                        or_equal: c.or_equal,
                    }
                }
                (None, None, Some(path)) => {
                    if c.or_equal {
                        bail!("{what}: `or_equal` belongs to `greater`; use `strict = false` with `keep_order`");
                    }
                    let mut found = Vec::new();
                    leaves(get(table, &path).with_context(|| what.clone())?, &path, &mut found);
                    if found.len() < 2 {
                        bail!("{what}: '{path}' holds fewer than two numbers to keep in order");
                    }
                    let mut pairs = Vec::new();
                    for (a, va, _) in &found {
                        for (b, vb, _) in &found {
                            if va < vb {
                                pairs.push((a.clone(), b.clone()));
                            }
                        }
                    }
                    Constraint::KeepOrder {
                        path,
                        pairs,
                        strict: c.strict.unwrap_or(true),
                    }
                }
                _ => bail!("{what}: give `greater` and `than`, or `keep_order`"),
            });
        }
        let space = Space {
            params,
            ties,
            constraints,
        };
        // The base table must be repairable: a cycle of constraints never settles.
        let mut base = table.clone();
        space
            .enforce(&mut base)
            .context("the space file's constraints")?;
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

    /// Repairs `t` so that every constraint holds (see the module doc); returns how many
    /// fields were raised. An error when the constraints do not settle (a cycle).
    pub fn enforce(&self, t: &mut toml::Table) -> Result<usize> {
        if self.constraints.is_empty() {
            return Ok(0);
        }
        let mut raised = 0;
        for _ in 0..1000 {
            let mut moved = false;
            for c in &self.constraints {
                let checks: Vec<(&str, &str, bool)> = match c {
                    Constraint::Greater {
                        greater,
                        than,
                        or_equal,
                    } => vec![(than.as_str(), greater.as_str(), !*or_equal)],
                    Constraint::KeepOrder { pairs, strict, .. } => pairs
                        .iter()
                        .map(|(lo, hi)| (lo.as_str(), hi.as_str(), *strict))
                        .collect(),
                };
                for (lo, hi, strict) in checks {
                    let (vlo, _) = number_at(t, lo)?;
                    let (vhi, int_hi) = number_at(t, hi)?;
                    let gap = match (strict, int_hi) {
                        (false, _) => 0.0,
                        (true, true) => 1.0,
                        (true, false) => 1e-6,
                    };
                    let ok = if strict { vhi >= vlo + gap } else { vhi >= vlo };
                    if !ok {
                        let v = vlo + gap;
                        *get_mut(t, hi)? = if int_hi {
                            toml::Value::Integer(v.ceil() as i64)
                        } else {
                            toml::Value::Float(v)
                        };
                        moved = true;
                        raised += 1;
                    }
                }
            }
            if !moved {
                return Ok(raised);
            }
        }
        bail!("the constraints contradict one another (raising fields never settles: a cycle such as a > b > a)")
    }

    /// The constraints broken by `t` (none after [`Space::enforce`]), as sentences.
    pub fn broken(&self, t: &toml::Table) -> Vec<String> {
        let mut out = Vec::new();
        let val = |p: &str| number_at(t, p).map(|v| v.0).unwrap_or(f64::NAN);
        for c in &self.constraints {
            match c {
                Constraint::Greater {
                    greater,
                    than,
                    or_equal,
                } => {
                    let (g, l) = (val(greater), val(than));
                    if !(g > l || (*or_equal && g >= l)) {
                        out.push(format!("{greater} = {g} is not above {than} = {l}"));
                    }
                }
                Constraint::KeepOrder {
                    path,
                    pairs,
                    strict,
                } => {
                    for (lo, hi) in pairs {
                        let (a, b) = (val(lo), val(hi));
                        if !(b > a || (!*strict && b >= a)) {
                            out.push(format!("under {path}: {hi} = {b} is not above {lo} = {a} as in the base table"));
                        }
                    }
                }
            }
        }
        out
    }

    /// `table` with every path of the space set to the point's values (integers written
    /// as TOML integers), then the constraints enforced.
    pub fn write(&self, table: &toml::Table, x: &[f64]) -> Result<toml::Table> {
        let mut t = self.write_raw(table, x)?;
        self.enforce(&mut t)?;
        Ok(t)
    }

    /// [`Space::write`] without the constraints (what rounding alone gives).
    pub fn write_raw(&self, table: &toml::Table, x: &[f64]) -> Result<toml::Table> {
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

/// The number at `path` and whether it is an integer.
fn number_at(table: &toml::Table, path: &str) -> Result<(f64, bool)> {
    match get(table, path)? {
        toml::Value::Integer(i) => Ok((*i as f64, true)),
        toml::Value::Float(f) => Ok((*f, false)),
        other => bail!(
            "path '{path}' is not a number (it holds {})",
            other.type_str()
        ),
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

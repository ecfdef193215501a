//! The variant table: the one place that lists the games users can name.
//!
//! Each line of [`variant_table!`]'s invocation below declares a variant: the name users
//! type, its `Game` type, its default parameters and a one-line summary. From that table
//! come the name list ([`VARIANTS`]), the dispatch ([`visit`]), the help text
//! ([`help_table`]) and a test that runs the game-API conformance check on every entry.
//! Adding a variant is one module under `variants/` plus one line here.
//!
//! Code that must work for any variant implements [`VariantVisitor`] once and calls
//! [`visit`]; the visitor is compiled for each game type, so hot loops stay statically
//! dispatched and no other module matches over variant names.
//!
//! Every entry point goes through [`visit`]: the TOML text is read over the
//! entry's defaults (unknown keys are errors), the entry's pinned fields are set, and
//! the variant's [`VariantParams::validate`] runs, with errors naming the registry name.

use crate::game::{Game, GameError, GameFacts, ParamsError, VariantParams};
use crate::variants::adrenaline::Adrenaline;
use crate::variants::cassandra::Cassandra;
use crate::variants::chess::{Chess, ChessParams};
use crate::variants::clairvoyant::Clairvoyant;
use crate::variants::cooperative::Cooperative;
use crate::variants::crowded_house::CrowdedHouse;
use crate::variants::expedition::Expedition;
use crate::variants::half_alice::HalfAlice;
use crate::variants::masquerade::Masquerade;
use crate::variants::synchronous::Synchronous;
use crate::variants::tar_pit::TarPit;
use crate::variants::time::TimeChess;
use crate::variants::two_move::TwoMove;
use crate::variants::zombie::Zombie;

/// Something to do with a variant, whatever its type.
pub trait VariantVisitor {
    type Output;
    /// Called with the variant's name and its parameters (defaults overridden by the
    /// parameter file, if any, and validated).
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Self::Output;
}

/// One line of the table, as data (for help texts and tools).
#[derive(Clone, Copy, Debug)]
pub struct VariantInfo {
    pub name: &'static str,
    pub about: &'static str,
}

/// Declares the table. Each line:
/// `"name" => GameType { defaults: expr, pin: |p| ..., about: "..." }`, where `defaults`
/// are the parameters a file is read over and `pin` (optional) sets fields the entry
/// fixes whatever the file says (Chess960 is chess with `chess960 = true`).
macro_rules! variant_table {
    ($(
        $name:literal => $game:ty {
            defaults: $defaults:expr,
            $(pin: $pin:expr,)?
            about: $about:literal $(,)?
        }
    ),* $(,)?) => {
        /// Every variant the lab knows, in the order help texts list them.
        pub const VARIANTS: &[&str] = &[$($name),*];

        /// Every variant with its summary.
        pub const VARIANT_INFO: &[VariantInfo] = &[$(VariantInfo { name: $name, about: $about }),*];

        /// Calls `visitor` with the variant called `name`, its parameters read from
        /// `params_toml` (TOML text) over the entry's defaults and validated.
        pub fn visit<V: VariantVisitor>(
            name: &str,
            params_toml: Option<&str>,
            visitor: V,
        ) -> Result<V::Output, GameError> {
            match name {
                $($name => {
                    #[allow(unused_mut)]
                    let mut p: <$game as Game>::Params = parse_params($name, params_toml, $defaults)?;
                    $(($pin)(&mut p);)?
                    validated($name, p).map(|p| visitor.visit::<$game>($name, p))
                })*
                _ => Err(GameError::UnknownVariant(name.into(), VARIANTS.join(", "))),
            }
        }
    };
}

variant_table! {
    "chess" => Chess {
        defaults: ChessParams::default(),
        about: "orthodox chess (FIDE)",
    },
    "chess960" => Chess {
        defaults: ChessParams::chess960(),
        pin: |p: &mut ChessParams| p.chess960 = true,
        about: "Chess960: a chance node draws one of the 960 starts (or `position = N`)",
    },
    "half-alice" => HalfAlice {
        defaults: Default::default(),
        about: "Half Alice: two sides of the mirror on one board",
    },
    "crowded-house" => CrowdedHouse {
        defaults: Default::default(),
        about: "Crowded House: four seats in two teams, each on its half of the board",
    },
    "cassandra" => Cassandra {
        defaults: Default::default(),
        about: "Cassandra: prophecies of doom two own moves ahead, up a target ladder",
    },
    "adrenaline" => Adrenaline {
        defaults: Default::default(),
        about: "Adrenaline: checkers under pieces buy extra king steps",
    },
    "expedition" => Expedition {
        defaults: Default::default(),
        about: "Expedition: long bishop, rook and queen moves are dice attempts",
    },
    "masquerade" => Masquerade {
        defaults: Default::default(),
        about: "Masquerade: each side secretly assigns the enemy's capture patterns",
    },
    "synchronous" => Synchronous {
        defaults: Default::default(),
        about: "Synchronous: both sides move at once; collisions, swaps and exchanges of blows",
    },
    "tar-pit" => TarPit {
        defaults: Default::default(),
        about: "Tar Pit: checkers tar enemy pieces; hidden hands of cards say where they go",
    },
    "time" => TimeChess {
        defaults: Default::default(),
        about: "Time Chess: six phases from Dawn; blind moves against one's own pieces only",
    },
    "two-move" => TwoMove {
        defaults: Default::default(),
        about: "Two Move: both sides choose two cards at once; cards move pieces in N, B, R, Q, K order",
    },
    "cooperative" => Cooperative {
        defaults: Default::default(),
        about: "Cooperative: two seats, one team against the deck; cards choose who captures whom",
    },
    "clairvoyant" => Clairvoyant { defaults: Default::default(), about: "Clairvoyant: guess the opponent's move for Zorkmids; buy drops, extra moves, retractions" },
    "zombie" => Zombie {
        defaults: Default::default(),
        about: "Zombie: captured pieces are secretly buried and rise as zombies",
    },
}

/// Reads parameters from TOML text over `default` (unknown keys are errors; missing
/// keys keep the default's values), without validating them.
pub fn parse_params<P: VariantParams>(
    variant: &str,
    toml_text: Option<&str>,
    default: P,
) -> Result<P, GameError> {
    let Some(text) = toml_text else {
        return Ok(default);
    };
    let err = |e: toml::de::Error| GameError::Params {
        variant: variant.into(),
        source: ParamsError::Toml(toml_problem(text, &e)),
    };
    let user: toml::Table = toml::from_str(text).map_err(err)?;
    let mut merged = toml::Table::try_from(&default).expect("parameters serialize to a table");
    merge(&mut merged, user);
    merged.try_into().map_err(err)
}

/// A TOML error as one line in the user's words (issue 68): the key as a dotted path, the
/// value given and what the key takes ("a whole number from 0 to 4294967295", not serde's
/// "expected u32"), a near key for an unknown one, and the line for a syntax error
/// (toml's own text spans several lines with a source excerpt). Test:
/// `parameter_errors_name_the_key_in_plain_words`.
pub fn toml_problem(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim().replace('\n', "; ");
    // Errors after parsing carry the key path only in their display: "...\nin `a.b`".
    let display = e.to_string();
    let path = display
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("in `")?.strip_suffix('`'))
        .unwrap_or("");
    // Errors while parsing (syntax, or a file read straight into a type) point at a line.
    let place = e.span().map(|span| {
        let start = text.floor_char_boundary(span.start.min(text.len()));
        let line = text[..start].matches('\n').count() + 1;
        let shown: String = text
            .lines()
            .nth(line - 1)
            .unwrap_or("")
            .trim()
            .chars()
            .take(60)
            .collect();
        format!("line {line} ({shown})")
    });
    let body = in_user_words(&message, path, place.is_some());
    match place {
        Some(place) => format!("{place}: {body}"),
        None => body,
    }
}

/// serde's message about the key at `path` in the user's words; `shown`: the line with
/// the value is printed beside it, so the value need not be repeated.
fn in_user_words(message: &str, path: &str, shown: bool) -> String {
    let within = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    let quoted = |s: &str| -> Vec<String> {
        s.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let names = quoted(rest);
        if let Some((typed, known)) = names.split_first() {
            return format!(
                "unknown key '{}'{} (known {}: {})",
                within(typed),
                crate::suggest::did_you_mean(typed, known.iter().map(String::as_str)),
                if path.is_empty() {
                    "here".to_string()
                } else {
                    format!("in {path}")
                },
                known.join(", ")
            );
        }
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let names = quoted(rest);
        if let Some((typed, known)) = names.split_first() {
            let key = if path.is_empty() {
                String::new()
            } else {
                format!("{path}: ")
            };
            return format!(
                "{key}'{typed}' is not one of {}{}",
                known.join(", "),
                crate::suggest::did_you_mean(typed, known.iter().map(String::as_str))
            );
        }
    }
    let given = message
        .strip_prefix("invalid value: ")
        .or_else(|| message.strip_prefix("invalid type: "));
    if let Some((got, expected)) = given.and_then(|g| g.rsplit_once(", expected ")) {
        let got = got
            .split_once('`')
            .and_then(|(_, v)| v.strip_suffix('`'))
            .map(str::to_string)
            .unwrap_or_else(|| got.strip_prefix("string ").unwrap_or(got).to_string());
        let expected = in_words(expected);
        return match (path.is_empty(), shown) {
            (false, _) => format!("{path} = {got}: expected {expected}"),
            (true, true) => format!("expected {expected}"),
            (true, false) => format!("{got}: expected {expected}"),
        };
    }
    if path.is_empty() {
        message.to_string()
    } else {
        format!("{path}: {message}")
    }
}

/// serde's name of what a key takes, as a user would say it.
fn in_words(expected: &str) -> String {
    let whole = |min: i128, max: i128| format!("a whole number from {min} to {max}");
    match expected.trim() {
        "u8" => whole(0, u8::MAX.into()),
        "u16" => whole(0, u16::MAX.into()),
        "u32" => whole(0, u32::MAX.into()),
        "u64" | "usize" => whole(0, u64::MAX.into()),
        "i8" => whole(i8::MIN.into(), i8::MAX.into()),
        "i16" => whole(i16::MIN.into(), i16::MAX.into()),
        "i32" => whole(i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => whole(i64::MIN.into(), i64::MAX.into()),
        "f32" | "f64" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a string" => "text in quotes".into(),
        "a sequence" => "a list in brackets, [a, b]".into(),
        other => other.to_string(),
    }
}

/// `base` with every key of `over` written over it; tables merge key by key.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

/// `params` if they pass the variant's range checks, else an error naming the variant.
pub fn validated<P: VariantParams>(variant: &str, params: P) -> Result<P, GameError> {
    params.validate().map_err(|e| GameError::Params {
        variant: variant.into(),
        source: ParamsError::Invalid(e),
    })?;
    Ok(params)
}

/// The facts of a variant with its default parameters.
pub fn facts(name: &str) -> Result<GameFacts, GameError> {
    struct Facts;
    impl VariantVisitor for Facts {
        type Output = GameFacts;
        fn visit<G: Game>(self, _: &'static str, params: G::Params) -> GameFacts {
            G::new(&params).facts()
        }
    }
    visit(name, None, Facts)
}

/// The variants as a help text: name, summary and facts, one per line.
pub fn help_table() -> String {
    let width = VARIANTS.iter().map(|v| v.len()).max().unwrap_or(0);
    let mut out = String::new();
    for v in VARIANT_INFO {
        let facts = facts(v.name).map(|f| f.to_string()).unwrap_or_default();
        out.push_str(&format!(
            "  {:width$}  {}\n  {:width$}  ({facts})\n",
            v.name, v.about, ""
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::conformance;

    struct Seats;
    impl VariantVisitor for Seats {
        type Output = usize;
        fn visit<G: Game>(self, _name: &'static str, params: G::Params) -> usize {
            G::new(&params).num_seats()
        }
    }

    #[test]
    fn every_listed_variant_is_reachable() {
        for v in VARIANTS {
            assert!(visit(v, None, Seats).unwrap() >= 1, "{v}");
        }
        assert_eq!(VARIANTS.len(), VARIANT_INFO.len());
        let help = help_table();
        for v in VARIANTS {
            assert!(help.contains(v), "{v} missing from the help table");
        }
    }

    /// The table runs the conformance check on every entry, so a variant cannot be
    /// listed without passing it.
    #[test]
    fn every_variant_passes_conformance() {
        struct Conformance;
        impl VariantVisitor for Conformance {
            type Output = ();
            fn visit<G: Game>(self, _: &'static str, params: G::Params) {
                conformance::check(&G::new(&params), 4, 11);
            }
        }
        for v in VARIANTS {
            visit(v, None, Conformance).unwrap();
        }
    }

    /// A variant's fitted evaluation is named after the variant (its registry name), or
    /// "orthodox" where every position is orthodox, or nothing (Golf: no opponent).
    #[test]
    fn every_variant_names_its_evaluation_after_itself() {
        struct Eval;
        impl VariantVisitor for Eval {
            type Output = (&'static str, bool);
            fn visit<G: Game>(self, _: &'static str, params: G::Params) -> Self::Output {
                let f = G::new(&params).facts();
                (f.eval, f.orthodox_positions)
            }
        }
        for v in VARIANTS {
            let (eval, orthodox) = visit(v, None, Eval).unwrap();
            let expected = if orthodox { "orthodox" } else { v };
            assert!(
                eval == expected || (eval.is_empty() && *v == "golf"),
                "{v} names its evaluation {eval:?}"
            );
        }
    }

    #[test]
    fn unknown_variant_and_bad_params_are_errors() {
        assert!(matches!(
            visit("nope", None, Seats),
            Err(GameError::UnknownVariant(..))
        ));
        assert!(matches!(
            visit("chess", Some("ply_cap = \"x\""), Seats),
            Err(GameError::Params { .. })
        ));
        assert!(matches!(
            visit("chess", Some("no_such_key = 1"), Seats),
            Err(GameError::Params { .. })
        ));
    }

    /// Every variant refuses a ply cap of 0, and the error names the registry entry.
    #[test]
    fn every_variant_validates_its_parameters() {
        for v in VARIANTS {
            match visit(v, Some("ply_cap = 0"), Seats) {
                Err(GameError::Params { variant, source }) => {
                    assert_eq!(variant, *v);
                    assert!(source.to_string().contains("ply_cap"), "{v}: {source}");
                }
                other => panic!("{v}: ply_cap = 0 accepted: {other:?}"),
            }
        }
    }

    #[test]
    fn files_are_read_over_the_entry_defaults() {
        struct Params;
        impl VariantVisitor for Params {
            type Output = String;
            fn visit<G: Game>(self, _: &'static str, params: G::Params) -> String {
                format!("{params:?}")
            }
        }
        let p = visit("chess960", Some("ply_cap = 50"), Params).unwrap();
        assert!(
            p.contains("chess960: true") && p.contains("ply_cap: 50"),
            "{p}"
        );
        let p = visit("chess960", Some("chess960 = false"), Params).unwrap();
        assert!(p.contains("chess960: true"), "the entry pins chess960: {p}");
        let e = visit("chess960", Some("position = 5000"), Params).unwrap_err();
        let chain = format!("{e}: {}", std::error::Error::source(&e).unwrap());
        assert!(
            chain.contains("chess960") && chain.contains("position"),
            "{chain}"
        );
    }

    /// Every variant, every key of its parameter file (issue 68): a whole-number key
    /// given a huge value, a string or a fraction is named by its dotted path with the
    /// range in words, never serde's `u32`; a key missing its last letter is answered
    /// with the key; a syntax error names its line, all in one line.
    #[test]
    fn parameter_errors_name_the_key_in_plain_words() {
        struct Defaults;
        impl VariantVisitor for Defaults {
            type Output = toml::Table;
            fn visit<G: Game>(self, _: &'static str, params: G::Params) -> toml::Table {
                toml::Table::try_from(&params).unwrap()
            }
        }
        fn keys(t: &toml::Table, prefix: &str, out: &mut Vec<(String, toml::Value)>) {
            for (k, v) in t {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                match v {
                    toml::Value::Table(inner) => keys(inner, &path, out),
                    v => out.push((path, v.clone())),
                }
            }
        }
        let mut checked = 0;
        for v in VARIANTS {
            let mut all = Vec::new();
            keys(&visit(v, None, Defaults).unwrap(), "", &mut all);
            for (path, value) in all {
                let (table, key) = match path.rsplit_once('.') {
                    Some((t, k)) => (format!("[{t}]\n"), k.to_string()),
                    None => (String::new(), path.clone()),
                };
                let run = |text: String| -> String {
                    match visit(v, Some(&text), Seats) {
                        Err(GameError::Params { source, .. }) => source.to_string(),
                        other => panic!("{v}: {text:?} accepted: {other:?}"),
                    }
                };
                if let toml::Value::Integer(_) = value {
                    let e = run(format!("{table}{key} = 123456789012345678901\n"));
                    assert!(e.contains(&key) && e.contains("line "), "{v}: {path}: {e}");
                    for bad in ["\"x\"", "1.5"] {
                        let e = run(format!("{table}{key} = {bad}\n"));
                        assert!(
                            e.contains(&path) && e.contains("a whole number from"),
                            "{v}: {path} = {bad}: {e}"
                        );
                        assert!(!e.contains("u32") && !e.contains('\n'), "{v}: {e}");
                    }
                    checked += 1;
                }
                if key.len() >= 4 {
                    let typo = &key[..key.len() - 1];
                    let e = run(format!("{table}{typo} = 1\n"));
                    assert!(
                        e.contains(&format!("did you mean '{key}'")) && !e.contains('\n'),
                        "{v}: {typo}: {e}"
                    );
                }
            }
        }
        assert!(checked > 20, "only {checked} whole-number keys checked");
        let e = match visit("chess", Some("ply_cap = 3\nply_cap = = 4\n"), Seats) {
            Err(GameError::Params { source, .. }) => source.to_string(),
            other => panic!("accepted: {other:?}"),
        };
        assert!(
            e.starts_with("line 2 (ply_cap = = 4): ") && !e.contains('\n'),
            "{e}"
        );
        let e = visit("zombi", None, Seats).unwrap_err().to_string();
        assert!(e.contains("did you mean 'zombie'?"), "{e}");
    }
}

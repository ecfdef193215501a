//! The one list of variants: names users type, mapped to their `Game` types.
//!
//! Code that must work for any variant implements [`VariantVisitor`] once and calls
//! [`visit`]; the visitor is then compiled for each game type, so hot loops stay
//! statically dispatched and no other module matches over variant names.

use super::{Game, GameError};
use crate::variants::adrenaline::{Adrenaline, AdrenalineParams};
use crate::variants::cassandra::{Cassandra, CassandraParams};
use crate::variants::chess::{Chess, ChessParams};
use crate::variants::crowded_house::{CrowdedHouse, CrowdedHouseParams};
use crate::variants::expedition::{Expedition, ExpeditionParams};
use crate::variants::half_alice::{HalfAlice, HalfAliceParams};
use crate::variants::masquerade::{Masquerade, MasqueradeParams};
use crate::variants::time::{TimeChess, TimeParams};

/// Something to do with a variant, whatever its type.
pub trait VariantVisitor {
    type Output;
    /// Called with the variant's name and its parameters (defaults overridden by the
    /// parameter file, if any).
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Self::Output;
}

/// Every variant name the lab knows, in the order help texts list them.
pub const VARIANTS: &[&str] = &[
    "chess",
    "chess960",
    "half-alice",
    "crowded-house",
    "cassandra",
    "adrenaline",
    "expedition",
    "masquerade",
    "time",
];

/// Reads parameters from TOML text over the variant's defaults.
pub fn parse_params<P: serde::de::DeserializeOwned>(
    variant: &str,
    toml_text: Option<&str>,
    default: P,
) -> Result<P, GameError> {
    match toml_text {
        None => Ok(default),
        Some(text) => toml::from_str(text).map_err(|e| GameError::Params {
            variant: variant.into(),
            message: e.to_string(),
        }),
    }
}

/// Calls `visitor` with the variant called `name`, its parameters read from
/// `params_toml` (TOML text) or the defaults.
pub fn visit<V: VariantVisitor>(
    name: &str,
    params_toml: Option<&str>,
    visitor: V,
) -> Result<V::Output, GameError> {
    match name {
        "chess" => {
            let p: ChessParams = parse_params(name, params_toml, ChessParams::default())?;
            Ok(visitor.visit::<Chess>("chess", p))
        }
        "chess960" => {
            let mut p: ChessParams = parse_params(name, params_toml, ChessParams::chess960())?;
            p.chess960 = true;
            Ok(visitor.visit::<Chess>("chess960", p))
        }
        "half-alice" => {
            let p: HalfAliceParams = parse_params(name, params_toml, HalfAliceParams::default())?;
            Ok(visitor.visit::<HalfAlice>("half-alice", p))
        }
        "crowded-house" => {
            let p: CrowdedHouseParams =
                parse_params(name, params_toml, CrowdedHouseParams::default())?;
            Ok(visitor.visit::<CrowdedHouse>("crowded-house", p))
        }
        "cassandra" => {
            let p: CassandraParams = parse_params(name, params_toml, CassandraParams::default())?;
            Ok(visitor.visit::<Cassandra>("cassandra", p))
        }
        "adrenaline" => {
            let p: AdrenalineParams = parse_params(name, params_toml, AdrenalineParams::default())?;
            Ok(visitor.visit::<Adrenaline>("adrenaline", p))
        }
        "masquerade" => {
            let p: MasqueradeParams = parse_params(name, params_toml, MasqueradeParams::default())?;
            p.validate()?;
            Ok(visitor.visit::<Masquerade>("masquerade", p))
        }
        "expedition" => {
            let p: ExpeditionParams = parse_params(name, params_toml, ExpeditionParams::default())?;
            p.validate()?;
            Ok(visitor.visit::<Expedition>("expedition", p))
        }
        "time" => {
            let p: TimeParams = parse_params(name, params_toml, TimeParams::default())?;
            p.validate()?;
            Ok(visitor.visit::<TimeChess>("time", p))
        }
        _ => Err(GameError::UnknownVariant(name.into(), VARIANTS.join(", "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}

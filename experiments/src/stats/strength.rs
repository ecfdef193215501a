//! How strong the lab's agents are on a scale someone else calibrated (issue 18,
//! "Strength on a known scale"), so a balance report can say how good its bots were.
//!
//! [`MEASURED`] is data, not code: each row is an agent spec measured in orthodox chess
//! against Stockfish 15.1 with `UCI_LimitStrength` at several `UCI_Elo` levels, 100 ms a
//! move, by the gauntlets in `results/strength/` (joint Bradley-Terry fit anchored at
//! `UCI_Elo` 1350, 95% intervals from a bootstrap over games: `chesslab rate`
//! ([`super::rating`]), which reproduces `results/strength/fit.py`). Rerun the gauntlets
//! and copy the fit's lines here when the agents change; `chesslab rate` also reads this
//! table to anchor a variant at an agent's orthodox rating.
//!
//! Decisions: a spec is matched after sorting its settings, and the evaluation `noise`
//! setting the balance runs add (a few centipawns to vary games) is ignored for the
//! match, said so in the report (`noise` changes play a little, the depth dominates);
//! a spec not in the table gets no figure. The figure is orthodox-chess strength: in a
//! variant it says how good the search is at chess, not at the variant.

/// One measured agent: Elo on the scale and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub spec: &'static str,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// The scale the figures are on, for reports.
pub const SCALE: &str =
    "Stockfish 15.1 `UCI_Elo` at 100 ms a move, orthodox chess (results/strength)";

/// Measured agents, strongest first (`results/strength/README.md`).
pub const MEASURED: &[Measured] = &[
    Measured {
        spec: "alphabeta:depth=3",
        elo: 1562.0,
        low: 1517.0,
        high: 1601.0,
    },
    Measured {
        spec: "alphabeta:depth=2",
        elo: 1360.0,
        low: 1313.0,
        high: 1403.0,
    },
    // Below the scale's floor (1350): an extrapolation from 54 games, hence the width.
    Measured {
        spec: "mcts:iters=20000,cutoff=16,rollout=heavy",
        elo: 863.0,
        low: 611.0,
        high: 996.0,
    },
];

/// `name:a=1,b=2` with the settings sorted and `noise` dropped; the flag says whether
/// `noise` was there.
fn canonical(spec: &str) -> (String, bool) {
    let (name, settings) = spec.split_once(':').unwrap_or((spec, ""));
    let mut kept: Vec<&str> = Vec::new();
    let mut noise = false;
    for s in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if s.split('=').next() == Some("noise") {
            noise = true;
        } else {
            kept.push(s);
        }
    }
    kept.sort_unstable();
    let text = if kept.is_empty() {
        name.trim().to_string()
    } else {
        format!("{}:{}", name.trim(), kept.join(","))
    };
    (text, noise)
}

/// The measured strength of `spec`, and whether it was matched by ignoring its `noise`.
pub fn lookup(spec: &str) -> Option<(Measured, bool)> {
    let (key, noise) = canonical(spec);
    MEASURED
        .iter()
        .find(|m| canonical(m.spec).0 == key)
        .map(|m| (*m, noise))
}

/// The report's cell for `spec`: `1562 [1517, 1601]`, with `*` when `noise` was ignored,
/// or `—`.
pub fn cell(spec: &str) -> String {
    match lookup(spec) {
        Some((m, noise)) => format!(
            "{:.0} [{:.0}, {:.0}]{}",
            m.elo,
            m.low,
            m.high,
            if noise { "*" } else { "" }
        ),
        None => "—".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_match_whatever_the_order_of_settings_and_without_noise() {
        let (m, noise) = lookup("alphabeta:depth=3").unwrap();
        assert_eq!(m.spec, "alphabeta:depth=3");
        assert!(!noise);
        let (m, noise) = lookup("alphabeta:noise=10,depth=2").unwrap();
        assert_eq!(m.spec, "alphabeta:depth=2");
        assert!(noise);
        assert!(lookup("alphabeta:depth=4").is_none());
        assert!(lookup("mcts:iters=100").is_none());
        assert_eq!(cell("alphabeta:depth=2,noise=10"), "1360 [1313, 1403]*");
        assert!(lookup("mcts:rollout=heavy,iters=20000,cutoff=16").is_some());
        assert_eq!(cell("random"), "—");
    }

    #[test]
    fn measured_rows_are_ordered_and_inside_their_intervals() {
        for m in MEASURED {
            assert!(m.low <= m.elo && m.elo <= m.high, "{}", m.spec);
        }
        assert!(MEASURED.windows(2).all(|w| w[0].elo >= w[1].elo));
    }
}

//! How strong the lab's agents are on a scale someone else calibrated (issue 18,
//! "Strength on a known scale"; issue 36, "One rating scale"), so a balance report can say
//! how good its bots were.
//!
//! [`MEASURED`] is data, not code: each row is an agent spec measured in orthodox chess
//! against Stockfish 15.1 with `UCI_LimitStrength` at several `UCI_Elo` levels, 100 ms a
//! move, by the gauntlets in `results/strength/` (joint Bradley-Terry fit anchored at
//! `UCI_Elo` 1350, 95% intervals from a bootstrap over games: `chesslab rate`
//! ([`super::rating`]), which reproduces `results/strength/fit.py`). Rerun the gauntlets
//! and add the fit's lines here when the agents change; `chesslab rate` also reads this
//! table to anchor a variant at an agent's orthodox rating.
//!
//! Every row carries the agents' generation it was measured with ([`agents::EPOCH`]): a
//! search or evaluation change makes old ratings history, not figures for new games. A
//! run records the generation that played it (`agents_epoch` in run.json); a report
//! quotes only ratings of that generation, and a run from before generations were
//! recorded gets none (its players' strength is not known from the record: issue 36's
//! search replaced the rated one on 2026-11-27, and runs were played with both).
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
    /// The agents' generation ([`agents::EPOCH`]) the rating was measured with.
    pub epoch: u32,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// The scale the figures are on, for reports.
pub const SCALE: &str =
    "Stockfish 15.1 `UCI_Elo` at 100 ms a move, orthodox chess (results/strength)";

/// Measured agents, newest generation first, strongest first within one
/// (`results/strength/README.md`).
pub const MEASURED: &[Measured] = &[
    // Generation 6 (generation 4's search and evaluation, about 1.5 times faster in
    // orthodox chess with the same tree at every depth and node budget), rated
    // 2026-12-06: results/strength/epoch-6 (`rate.md` there, 3900 games): the runs of
    // players that search by time played again by generation 6 (the SF2000 and SF1800
    // matches, `families-2`), with epoch-4's depth- and iteration-budget runs, whose
    // games generation 6 plays move for move (epoch-6/pimc-d2 equals epoch-4/pimc-d2).
    Measured {
        spec: "alphabeta:time_ms=100",
        epoch: 6,
        elo: 2211.0,
        low: 2085.0,
        high: 2456.0,
    },
    // The strong member of verdict runs (issue 66, 2026-12-07): a node budget, rated in
    // results/strength/member (100 games against SF2000, 60 against SF1800, fitted with
    // epoch-6's runs: `rate.md` there).
    Measured {
        spec: "alphabeta:depth=64,nodes=100000",
        epoch: 6,
        elo: 2104.0,
        low: 1994.0,
        high: 2233.0,
    },
    Measured {
        spec: "alphabeta:depth=3",
        epoch: 6,
        elo: 1689.0,
        low: 1627.0,
        high: 1787.0,
    },
    Measured {
        spec: "alphabeta:depth=4",
        epoch: 6,
        elo: 1686.0,
        low: 1565.0,
        high: 1813.0,
    },
    Measured {
        spec: "alphabeta:depth=3,eval=results/strength/search/classic.toml",
        epoch: 6,
        elo: 1480.0,
        low: 1414.0,
        high: 1552.0,
    },
    Measured {
        spec: "pimc:search=alphabeta,depth=2,quiescence=true,worlds=6",
        epoch: 6,
        elo: 1437.0,
        low: 1365.0,
        high: 1519.0,
    },
    Measured {
        spec: "alphabeta:depth=2",
        epoch: 6,
        elo: 1401.0,
        low: 1337.0,
        high: 1462.0,
    },
    Measured {
        spec: "pimc:search=alphabeta,worlds=2,time_ms=25",
        epoch: 6,
        elo: 1382.0,
        low: 1271.0,
        high: 1509.0,
    },
    Measured {
        spec: "expectimax:depth=3,order=true,quiescence=true",
        epoch: 6,
        elo: 1328.0,
        low: 1232.0,
        high: 1457.0,
    },
    Measured {
        spec: "alphabeta:depth=1",
        epoch: 6,
        elo: 1088.0,
        low: 1018.0,
        high: 1157.0,
    },
    Measured {
        spec: "expectimax:depth=3",
        epoch: 6,
        elo: 979.0,
        low: 877.0,
        high: 1092.0,
    },
    Measured {
        spec: "pimc:search=alphabeta,worlds=10,time_ms=25",
        epoch: 6,
        elo: 933.0,
        low: 825.0,
        high: 1041.0,
    },
    // Not a separate measurement: the prophecy hint is 0 in orthodox chess
    // (`Game::eval_hint`), so at orthodox chess this is the player of the row above.
    Measured {
        spec: "pimc:search=alphabeta,eval.hint=1,worlds=10,time_ms=25",
        epoch: 6,
        elo: 933.0,
        low: 825.0,
        high: 1041.0,
    },
    // Carried over from generation 1, not measured again: no generation changed UCT or
    // the evaluation its cut-off uses (`EvalWeights::default`, the original one).
    Measured {
        spec: "mcts:iters=20000,cutoff=16,rollout=heavy",
        epoch: 6,
        elo: 863.0,
        low: 611.0,
        high: 996.0,
    },
    Measured {
        spec: "expectimax:depth=2",
        epoch: 6,
        elo: 616.0,
        low: 445.0,
        high: 737.0,
    },
    Measured {
        spec: "ismcts:time_ms=25",
        epoch: 6,
        elo: 314.0,
        low: 84.0,
        high: 447.0,
    },
    Measured {
        spec: "ismcts:iters=1000,cutoff=8",
        epoch: 6,
        elo: 85.0,
        low: -183.0,
        high: 266.0,
    },
    Measured {
        spec: "expectimax:depth=1",
        epoch: 6,
        elo: -145.0,
        low: -395.0,
        high: 32.0,
    },
    Measured {
        spec: "greedy",
        epoch: 6,
        elo: -174.0,
        low: -435.0,
        high: -2.0,
    },
    Measured {
        spec: "ismcts:iters=200,cutoff=8",
        epoch: 6,
        elo: -216.0,
        low: -471.0,
        high: -40.0,
    },
    Measured {
        spec: "pimc:iters=50,worlds=8,cutoff=8",
        epoch: 6,
        elo: -242.0,
        low: -506.0,
        high: -78.0,
    },
    Measured {
        spec: "ismcts:iters=100,cutoff=8",
        epoch: 6,
        elo: -303.0,
        low: -569.0,
        high: -133.0,
    },
    Measured {
        spec: "smmcts:iters=100,cutoff=10",
        epoch: 6,
        elo: -309.0,
        low: -576.0,
        high: -135.0,
    },
    Measured {
        spec: "mcts:iters=200",
        epoch: 6,
        elo: -357.0,
        low: -616.0,
        high: -182.0,
    },
    // Generation 4 (the fitted piece-square tables of agents/data/eval/orthodox.toml are
    // the search's evaluation in orthodox chess and Chess960), rated 2026-12-03 on an
    // otherwise idle machine, release build: results/strength/epoch-4 (`rate.md` there,
    // 3900 games: epoch-3/run.sh's runs again, the two-world PIMC added to `families-2`,
    // and the depth-2 sampled-world alphabeta's round robin of hidden/pimc-d2 again).
    Measured {
        spec: "alphabeta:time_ms=100",
        epoch: 4,
        elo: 2195.0,
        low: 2051.0,
        high: 2414.0,
    },
    Measured {
        spec: "alphabeta:depth=3",
        epoch: 4,
        elo: 1689.0,
        low: 1621.0,
        high: 1765.0,
    },
    Measured {
        spec: "alphabeta:depth=4",
        epoch: 4,
        elo: 1686.0,
        low: 1555.0,
        high: 1796.0,
    },
    Measured {
        spec: "alphabeta:depth=3,eval=results/strength/search/classic.toml",
        epoch: 4,
        elo: 1480.0,
        low: 1415.0,
        high: 1538.0,
    },
    Measured {
        spec: "pimc:search=alphabeta,depth=2,quiescence=true,worlds=6",
        epoch: 4,
        elo: 1437.0,
        low: 1349.0,
        high: 1522.0,
    },
    Measured {
        spec: "alphabeta:depth=2",
        epoch: 4,
        elo: 1401.0,
        low: 1344.0,
        high: 1454.0,
    },
    Measured {
        spec: "expectimax:depth=3,order=true,quiescence=true",
        epoch: 4,
        elo: 1324.0,
        low: 1191.0,
        high: 1441.0,
    },
    Measured {
        spec: "pimc:search=alphabeta,worlds=2,time_ms=25",
        epoch: 4,
        elo: 1208.0,
        low: 1087.0,
        high: 1318.0,
    },
    Measured {
        spec: "alphabeta:depth=1",
        epoch: 4,
        elo: 1088.0,
        low: 992.0,
        high: 1165.0,
    },
    Measured {
        spec: "expectimax:depth=3",
        epoch: 4,
        elo: 981.0,
        low: 864.0,
        high: 1094.0,
    },
    Measured {
        spec: "pimc:search=alphabeta,worlds=10,time_ms=25",
        epoch: 4,
        elo: 868.0,
        low: 743.0,
        high: 971.0,
    },
    // Not a separate measurement: the prophecy hint is 0 in orthodox chess
    // (`Game::eval_hint`), so at orthodox chess this is the player of the row above.
    Measured {
        spec: "pimc:search=alphabeta,eval.hint=1,worlds=10,time_ms=25",
        epoch: 4,
        elo: 868.0,
        low: 743.0,
        high: 971.0,
    },
    // Carried over from generation 1, not measured again: no generation changed UCT or
    // the evaluation its cut-off uses (`EvalWeights::default`, the original one).
    Measured {
        spec: "mcts:iters=20000,cutoff=16,rollout=heavy",
        epoch: 4,
        elo: 863.0,
        low: 611.0,
        high: 996.0,
    },
    Measured {
        spec: "expectimax:depth=2",
        epoch: 4,
        elo: 622.0,
        low: 430.0,
        high: 740.0,
    },
    Measured {
        spec: "ismcts:time_ms=25",
        epoch: 4,
        elo: 279.0,
        low: 26.0,
        high: 435.0,
    },
    Measured {
        spec: "ismcts:iters=1000,cutoff=8",
        epoch: 4,
        elo: 99.0,
        low: -195.0,
        high: 255.0,
    },
    Measured {
        spec: "expectimax:depth=1",
        epoch: 4,
        elo: -130.0,
        low: -406.0,
        high: 18.0,
    },
    Measured {
        spec: "greedy",
        epoch: 4,
        elo: -159.0,
        low: -452.0,
        high: -13.0,
    },
    Measured {
        spec: "ismcts:iters=200,cutoff=8",
        epoch: 4,
        elo: -201.0,
        low: -484.0,
        high: -47.0,
    },
    Measured {
        spec: "pimc:iters=50,worlds=8,cutoff=8",
        epoch: 4,
        elo: -227.0,
        low: -525.0,
        high: -84.0,
    },
    Measured {
        spec: "ismcts:iters=100,cutoff=8",
        epoch: 4,
        elo: -288.0,
        low: -575.0,
        high: -136.0,
    },
    Measured {
        spec: "smmcts:iters=100,cutoff=10",
        epoch: 4,
        elo: -295.0,
        low: -584.0,
        high: -145.0,
    },
    Measured {
        spec: "mcts:iters=200",
        epoch: 4,
        elo: -343.0,
        low: -646.0,
        high: -194.0,
    },
    // Generation 3 (pruning near the leaves, SEE, `time_ms` searched to its end), rated
    // 2026-11-29 on an otherwise idle machine, release build: results/strength/epoch-3
    // (`rate.md` there, 3460 games: the Stockfish gauntlets, a round robin of the other
    // families at the budgets the verdicts use, linked through depth 1, and a second
    // round robin (`families-2`, session 19) adding the stronger hidden-game players and
    // expectimax with its search features; the joint fit moved the rows below depth 1).
    Measured {
        spec: "alphabeta:time_ms=100",
        epoch: 3,
        elo: 2015.0,
        low: 1926.0,
        high: 2146.0,
    },
    Measured {
        spec: "alphabeta:depth=4",
        epoch: 3,
        elo: 1645.0,
        low: 1532.0,
        high: 1756.0,
    },
    Measured {
        spec: "alphabeta:depth=3",
        epoch: 3,
        elo: 1581.0,
        low: 1513.0,
        high: 1652.0,
    },
    Measured {
        spec: "expectimax:depth=3,order=true,quiescence=true",
        epoch: 3,
        elo: 1534.0,
        low: 1382.0,
        high: 1755.0,
    },
    Measured {
        spec: "alphabeta:depth=3,eval=results/strength/search/classic.toml",
        epoch: 3,
        elo: 1468.0,
        low: 1409.0,
        high: 1533.0,
    },
    // The depth-2 sampled-world alphabeta (the hidden-game player of results/chess/pimc-d2),
    // rated 2026-12-02 by a round robin with alphabeta depths 1-3 in a joint fit with every
    // epoch-3 game (results/strength/hidden/pimc-d2/rate.md). The rows around it are the
    // epoch-3 fit's and are left as they were; the joint fit agrees with them where they
    // meet (alphabeta:depth=2 at 1450 there, 1462 here), so the row is taken as it came.
    Measured {
        spec: "pimc:search=alphabeta,depth=2,quiescence=true,worlds=6",
        epoch: 3,
        elo: 1466.0,
        low: 1399.0,
        high: 1555.0,
    },
    Measured {
        spec: "alphabeta:depth=2",
        epoch: 3,
        elo: 1462.0,
        low: 1398.0,
        high: 1534.0,
    },
    Measured {
        spec: "alphabeta:depth=1",
        epoch: 3,
        elo: 1210.0,
        low: 1105.0,
        high: 1292.0,
    },
    Measured {
        spec: "pimc:search=alphabeta,worlds=10,time_ms=25",
        epoch: 3,
        elo: 1072.0,
        low: 908.0,
        high: 1205.0,
    },
    // Not a separate measurement: the prophecy hint is 0 in orthodox chess
    // (`Game::eval_hint`), so at orthodox chess this is the player of the row above
    // (secret Cassandra's best player, results/strength/hidden/prophecy-hint).
    Measured {
        spec: "pimc:search=alphabeta,eval.hint=1,worlds=10,time_ms=25",
        epoch: 3,
        elo: 1072.0,
        low: 908.0,
        high: 1205.0,
    },
    Measured {
        spec: "expectimax:depth=3",
        epoch: 3,
        elo: 1002.0,
        low: 846.0,
        high: 1127.0,
    },
    // Carried over from generation 1, not measured again: neither issue 36 nor
    // generation 3 changed UCT or the evaluation its cut-off uses
    // (`EvalWeights::default`, the original one).
    Measured {
        spec: "mcts:iters=20000,cutoff=16,rollout=heavy",
        epoch: 3,
        elo: 863.0,
        low: 611.0,
        high: 996.0,
    },
    Measured {
        spec: "expectimax:depth=2",
        epoch: 3,
        elo: 621.0,
        low: 353.0,
        high: 778.0,
    },
    Measured {
        spec: "ismcts:time_ms=25",
        epoch: 3,
        elo: 324.0,
        low: 35.0,
        high: 481.0,
    },
    Measured {
        spec: "ismcts:iters=1000,cutoff=8",
        epoch: 3,
        elo: 1.0,
        low: -537.0,
        high: 234.0,
    },
    Measured {
        spec: "expectimax:depth=1",
        epoch: 3,
        elo: -234.0,
        low: -736.0,
        high: -17.0,
    },
    Measured {
        spec: "greedy",
        epoch: 3,
        elo: -264.0,
        low: -769.0,
        high: -47.0,
    },
    Measured {
        spec: "ismcts:iters=200,cutoff=8",
        epoch: 3,
        elo: -303.0,
        low: -799.0,
        high: -89.0,
    },
    Measured {
        spec: "pimc:iters=50,worlds=8,cutoff=8",
        epoch: 3,
        elo: -330.0,
        low: -837.0,
        high: -116.0,
    },
    Measured {
        spec: "ismcts:iters=100,cutoff=8",
        epoch: 3,
        elo: -391.0,
        low: -891.0,
        high: -159.0,
    },
    Measured {
        spec: "smmcts:iters=100,cutoff=10",
        epoch: 3,
        elo: -397.0,
        low: -893.0,
        high: -175.0,
    },
    Measured {
        spec: "mcts:iters=200",
        epoch: 3,
        elo: -445.0,
        low: -943.0,
        high: -233.0,
    },
    // Generation 2 (issue 36's search), rated 2026-11-29 on an otherwise idle machine,
    // release build: results/strength/epoch-2 (`rate.md` there, 800 games).
    Measured {
        spec: "alphabeta:time_ms=100",
        epoch: 2,
        elo: 2006.0,
        low: 1881.0,
        high: 2149.0,
    },
    Measured {
        spec: "alphabeta:depth=3",
        epoch: 2,
        elo: 1563.0,
        low: 1494.0,
        high: 1633.0,
    },
    Measured {
        spec: "alphabeta:depth=2",
        epoch: 2,
        elo: 1517.0,
        low: 1460.0,
        high: 1597.0,
    },
    // The old evaluation (material and one piece-square table) with today's search: the
    // rated panel's member of another style.
    Measured {
        spec: "alphabeta:depth=3,eval=results/strength/search/classic.toml",
        epoch: 2,
        elo: 1508.0,
        low: 1445.0,
        high: 1566.0,
    },
    Measured {
        spec: "alphabeta:depth=1",
        epoch: 2,
        elo: 1261.0,
        low: 1159.0,
        high: 1345.0,
    },
    // Carried over from generation 1, not measured again: issue 36 changed neither UCT
    // nor the evaluation its cut-off uses (`EvalWeights::default`, the original one).
    Measured {
        spec: "mcts:iters=20000,cutoff=16,rollout=heavy",
        epoch: 2,
        elo: 863.0,
        low: 611.0,
        high: 996.0,
    },
    // Generation 1 (issue 18's search), rated 2026-11-24/25: history, quoted only for
    // runs that record generation 1 (none do: the field came later).
    Measured {
        spec: "alphabeta:depth=3",
        epoch: 1,
        elo: 1562.0,
        low: 1517.0,
        high: 1601.0,
    },
    Measured {
        spec: "alphabeta:depth=2",
        epoch: 1,
        elo: 1360.0,
        low: 1313.0,
        high: 1403.0,
    },
    // Below the scale's floor (1350): an extrapolation from 54 games, hence the width.
    Measured {
        spec: "mcts:iters=20000,cutoff=16,rollout=heavy",
        epoch: 1,
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

/// The measured strength of `spec` with today's agents ([`agents::EPOCH`]), and whether
/// it was matched by ignoring its `noise`.
pub fn lookup(spec: &str) -> Option<(Measured, bool)> {
    lookup_at(spec, agents::EPOCH)
}

/// The measured strength of `spec` as played by generation `epoch` of the agents.
pub fn lookup_at(spec: &str, epoch: u32) -> Option<(Measured, bool)> {
    let (key, noise) = canonical(spec);
    MEASURED
        .iter()
        .find(|m| m.epoch == epoch && canonical(m.spec).0 == key)
        .map(|m| (*m, noise))
}

/// The report's cell for `spec` played by today's agents: `1563 [1494, 1633]`, with `*`
/// when `noise` was ignored, or `—`.
pub fn cell(spec: &str) -> String {
    cell_at(spec, Some(agents::EPOCH))
}

/// The report's cell for `spec` in a run played by generation `epoch` (`None`: the run
/// does not record one, so no rating is quoted).
pub fn cell_at(spec: &str, epoch: Option<u32>) -> String {
    match epoch.and_then(|e| lookup_at(spec, e)) {
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

/// The generation of the agents that played the run whose `run.json` is at `path`
/// (`None` when the file does not say: written before generations were recorded).
pub fn epoch_of_run(path: &std::path::Path) -> Option<u32> {
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("agents_epoch")?
        .as_u64()
        .and_then(|e| u32::try_from(e).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_match_whatever_the_order_of_settings_and_without_noise() {
        let (m, noise) = lookup("alphabeta:depth=3").unwrap();
        assert_eq!(m.spec, "alphabeta:depth=3");
        assert_eq!(m.epoch, agents::EPOCH);
        assert!(!noise);
        let (m, noise) = lookup("alphabeta:noise=10,depth=2").unwrap();
        assert_eq!(m.spec, "alphabeta:depth=2");
        assert!(noise);
        assert!(lookup("alphabeta:depth=5").is_none());
        assert!(lookup("mcts:iters=100").is_none());
        assert!(lookup("smmcts:iters=100,cutoff=10").is_some());
        assert_eq!(cell("alphabeta:depth=2,noise=10"), "1401 [1337, 1462]*");
        assert!(lookup("mcts:rollout=heavy,iters=20000,cutoff=16").is_some());
        assert_eq!(cell("random"), "—");
    }

    /// A run is quoted the ratings of the generation that played it, and none when its
    /// run.json does not say which one did.
    #[test]
    fn ratings_follow_the_generation_that_played() {
        assert_eq!(
            cell_at("alphabeta:depth=2,noise=10", Some(3)),
            "1462 [1398, 1534]*"
        );
        assert_eq!(
            cell_at("alphabeta:depth=2,noise=10", Some(1)),
            "1360 [1313, 1403]*"
        );
        assert_eq!(
            cell_at("alphabeta:depth=2,noise=10", Some(2)),
            "1517 [1460, 1597]*"
        );
        assert_eq!(cell_at("alphabeta:depth=2", None), "—");
        assert_eq!(cell_at("alphabeta:depth=2", Some(99)), "—");
        // Generation 1 never rated depth 1.
        assert!(lookup_at("alphabeta:depth=1", 1).is_none());
        assert!(lookup_at("alphabeta:depth=1", 2).is_some());
        let d = tempfile::tempdir().unwrap();
        let run = d.path().join("run.json");
        std::fs::write(&run, "{\"agents\": [], \"agents_epoch\": 2}").unwrap();
        assert_eq!(epoch_of_run(&run), Some(2));
        std::fs::write(&run, "{\"agents\": []}").unwrap();
        assert_eq!(epoch_of_run(&run), None);
        std::fs::write(&run, "{\"agents\": [").unwrap();
        assert_eq!(epoch_of_run(&run), None);
        assert_eq!(epoch_of_run(&d.path().join("none.json")), None);
    }

    #[test]
    fn measured_rows_are_ordered_and_inside_their_intervals() {
        for m in MEASURED {
            assert!(m.low <= m.elo && m.elo <= m.high, "{}", m.spec);
        }
        // Newest generation first; strongest first within a generation.
        assert!(MEASURED.windows(2).all(|w| w[0].epoch >= w[1].epoch));
        assert!(MEASURED
            .windows(2)
            .all(|w| w[0].epoch != w[1].epoch || w[0].elo >= w[1].elo));
        // Today's generation is rated.
        assert!(MEASURED.iter().any(|m| m.epoch == agents::EPOCH));
    }
}

//! The `values` output folder: `values.csv` (one line per feature), `values.toml` (the
//! learned piece values as evaluation weights, readable by agents as `eval=FILE`),
//! `report.md` and `values.svg` (learned values with their 95% intervals beside the
//! orthodox ones). Features beyond the five pieces print as pawns per unit of the feature
//! (per tarred piece, per Zorkmid, ...); Clairvoyant's report adds the exchange rate,
//! Zorkmids per pawn, beside the drop costs of the games' table and the seed's.
//! [`ladder_markdown`] sets the fits of a strength ladder side by side.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{anyhow, Context, Result};
use plotters::prelude::*;

use super::{orthodox, Learned};

const PIECES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];

pub fn csv(l: &Learned) -> String {
    let mut s = String::from("feature,coefficient,value_pawns,lo95,hi95,orthodox\n");
    for (i, n) in l.names.iter().enumerate() {
        let (v, lo, hi) = l.values[i];
        let _ = writeln!(
            s,
            "{n},{:.6},{v:.4},{lo:.4},{hi:.4},{}",
            l.model.weights[i],
            orthodox(n)
        );
    }
    s
}

/// The five piece values as [`agents::eval::EvalWeights`] TOML (other weights keep
/// their defaults), then the variant's own features, in pawns per unit, as the
/// evaluation's `[features]` table (agents/src/eval/features.rs), so the file plays every
/// learned value as it was learned (`values_toml_weighs_the_games_own_features`).
pub fn toml(l: &Learned) -> String {
    let mut s = format!(
        "# piece values learned by `chesslab values` ({}), in pawns\n",
        l.variant
    );
    if let Some(w) = worse_than_orthodox(l) {
        let _ = writeln!(s, "# WARNING: {w}");
    }
    for (i, n) in l.names.iter().enumerate() {
        if PIECES.contains(&n.as_str()) {
            let _ = writeln!(s, "{n} = {:.4}", l.values[i].0);
        }
    }
    let own: Vec<usize> = (0..l.names.len())
        .filter(|&i| !PIECES.contains(&l.names[i].as_str()))
        .collect();
    if !own.is_empty() {
        s.push_str("\n[features]\n");
        for i in own {
            let _ = writeln!(s, "{} = {:.4}", l.names[i], l.values[i].0);
        }
    }
    s
}

/// Issue 39: when the learned values predict the results worse than 1/3/3/5/9 (a higher
/// cross-validated log loss), every output says so: playing them is playing a worse
/// description of these games than the textbook one. `None` when they do at least as
/// well. Test `values::tests::a_fit_worse_than_orthodox_is_warned_about`.
pub fn worse_than_orthodox(l: &Learned) -> Option<String> {
    let (learned, _, ortho) = l.cv;
    (learned > ortho).then(|| {
        format!(
            "the learned values predict these games worse than orthodox 1/3/3/5/9 \
             (cross-validated log loss {learned:.4} against {ortho:.4}); prefer 1/3/3/5/9 \
             unless a confirmation match says otherwise"
        )
    })
}

/// A value with its interval: `1.23 [0.45, 2.01]`.
fn cell(v: (f64, f64, f64)) -> String {
    format!("{:.2} [{:.2}, {:.2}]", v.0, v.1, v.2)
}

/// What one unit of a variant's own feature is (for the report's wording).
fn unit(name: &str) -> &'static str {
    match name {
        "tarred" => "own piece under an enemy checker",
        "checkers_in_front" => "checker in front (hand size)",
        "zorkmids" => "Zorkmid",
        "zombies" => "own zombie on the board",
        "graveyard" => "own piece buried (may rise as a zombie)",
        "rung" => "rung up the target ladder",
        "on_mirror" => "piece (king aside) on the mirror side",
        "face_up" => "face-up card (out of the hand)",
        "known_pattern" => "piece whose capture pattern its owner has pinned down",
        _ => "unit",
    }
}

pub fn markdown(l: &Learned, from: &Path) -> String {
    let mut s = format!(
        "# Piece values learned from play: {}\n\nFrom `{}`: {} games, {} positions, {} bootstrap replicates over games.\n\n\
         | feature | value (pawns) | 95% interval | orthodox | logit coefficient |\n|---|---:|---|---:|---:|\n",
        l.variant,
        from.display(),
        l.games,
        l.positions,
        l.bootstrap
    );
    for (i, n) in l.names.iter().enumerate() {
        let (v, lo, hi) = l.values[i];
        let o = if PIECES.contains(&n.as_str()) {
            orthodox(n).to_string()
        } else {
            "-".to_string()
        };
        let _ = writeln!(
            s,
            "| {n} | {v:.2} | [{lo:.2}, {hi:.2}] | {o} | {:.4} |",
            l.model.weights[i]
        );
    }
    let pawn = l.model.weights.first().copied().unwrap_or(f64::NAN);
    if pawn.is_nan() || pawn <= 0.0 {
        let _ = writeln!(
            s,
            "\n**The pawn's coefficient is not positive ({pawn:.4}): an extra pawn did not help \
             win in these games, so values in pawn units (signs included) mean nothing here; \
             read the logit coefficients.**"
        );
    }
    let own: Vec<usize> = (0..l.names.len())
        .filter(|&i| !PIECES.contains(&l.names[i].as_str()))
        .collect();
    if !own.is_empty() {
        let _ = writeln!(
            s,
            "\nThe variant's own features, in pawns per unit (seat 0 minus seat 1):\n"
        );
        for &i in &own {
            let n = &l.names[i];
            let _ = writeln!(
                s,
                "- `{n}`: one more {} is worth {} pawns (logit coefficient {:.4}).",
                unit(n),
                cell(l.values[i]),
                l.model.weights[i]
            );
        }
    }
    if let Some(z) = l.names.iter().position(|n| n == "zorkmids") {
        s.push_str(&zorkmid_rate(l, z));
    }
    let (learned, free, ortho) = l.cv;
    let hw = |i| super::cv_half_width(&l.cv_games, i);
    let _ = write!(
        s,
        "\nFive-fold cross-validated log loss (by game; lower is better; 95% intervals over \
         games, each game's positions scored by the fold that held it out, in `cv.csv`): \
         learned {learned:.4} ± {:.4}, orthodox 1/3/3/5/9 {ortho:.4} ± {:.4}, material-free \
         {free:.4} ± {:.4}.\n\
         Pawn coefficient {:.4} (logit per pawn), intercept {:.4} (seat 0's edge at equal material).\n",
        hw(0),
        hw(2),
        hw(1),
        l.model.weights.first().copied().unwrap_or(f64::NAN),
        l.model.intercept
    );
    if let Some(w) = worse_than_orthodox(l) {
        let _ = writeln!(s, "\n**Warning:** {w}.");
    }
    s
}

/// Clairvoyant: Zorkmids per pawn (the pawn's coefficient over the Zorkmid's), with the
/// bootstrap interval, and each piece's learned value in Zorkmids beside the price for
/// dropping one in the games' parameters and in the seed's table (they differ when the
/// games were played with tuned tables).
fn zorkmid_rate(l: &Learned, z: usize) -> String {
    use engine::square::Role;
    use engine::variants::clairvoyant::ClairvoyantParams;
    let (v, lo, hi) = l.values[z];
    let mut s = String::from("\n## Exchange rate: Zorkmids per pawn\n\n");
    if v.is_nan() || v <= 0.0 {
        let _ = writeln!(
            s,
            "The Zorkmid coefficient is not positive ({:.4} pawns per Zorkmid): Zorkmids did not \
             predict winning in these games, so there is no exchange rate to state.",
            v
        );
        return s;
    }
    let rate = 1.0 / v;
    let interval = if lo > 0.0 {
        format!("[{:.1}, {:.1}]", 1.0 / hi, 1.0 / lo)
    } else {
        format!(
            "[{:.1}, unbounded] (the Zorkmid value's interval reaches 0)",
            1.0 / hi
        )
    };
    let _ = writeln!(
        s,
        "**{rate:.1} Zorkmids per pawn**, 95% interval {interval} (pawn coefficient / Zorkmid coefficient).\n"
    );
    let params: ClairvoyantParams = l
        .params
        .as_deref()
        .and_then(|t| toml::from_str(t).ok())
        .unwrap_or_default();
    let seed = ClairvoyantParams::default();
    let _ = writeln!(
        s,
        "| piece | learned (pawns) | learned (Zorkmids) | drop cost in these games (Zorkmids) | seed's drop cost (Zorkmids) |\n|---|---:|---:|---:|---:|"
    );
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    for (name, role) in PIECES.iter().zip(roles) {
        if let Some(i) = l.names.iter().position(|n| n == name) {
            let pv = l.values[i].0;
            let _ = writeln!(
                s,
                "| {name} | {pv:.2} | {:.1} | {} | {} |",
                pv * rate,
                params.costs.drop.get(role),
                seed.costs.drop.get(role)
            );
        }
    }
    s
}

/// The fits of a strength ladder side by side (weakest rung first), with the change of
/// each value between the last two rungs measured against its interval there.
/// `values --panel`: the ladder's tables with members for rungs, the panel (ratings),
/// and the verdict over members: do the learned values predict the games better than
/// 1/3/3/5/9 (lower cross-validated log loss)?
pub fn panel_markdown(
    variant: &str,
    panel: &crate::studies::panel::Panel,
    fits: &[(String, Learned)],
) -> String {
    let mut s = format!("# Piece values over panel '{}': {variant}\n\n", panel.name);
    if let Some(note) = panel.size_note() {
        let _ = writeln!(s, "**Note:** {note}\n");
    }
    s.push_str(&panel.table());
    let ladder = ladder_markdown(variant, fits);
    // The ladder's tables without its title (members are not ordered by strength).
    if let Some(at) = ladder.find("| feature |") {
        s.push_str("\nSelf-play of each member; values in pawns with 95% bootstrap intervals.\n\n");
        s.push_str(&ladder[at..]);
    }
    let labels: Vec<&str> = fits.iter().map(|f| f.0.as_str()).collect();
    let holds: Vec<Option<bool>> = fits
        .iter()
        .map(|(_, l)| Some(worse_than_orthodox(l).is_none()))
        .collect();
    let _ = writeln!(
        s,
        "\n{}",
        crate::studies::panel::verdict_over_members(
            "The learned values predict the games at least as well as 1/3/3/5/9",
            &labels,
            &holds
        )
    );
    s
}

pub fn ladder_markdown(variant: &str, fits: &[(String, Learned)]) -> String {
    let mut s = format!(
        "# Piece values over a strength ladder: {variant}\n\nSelf-play at each rung (weakest first); values in pawns with 95% bootstrap intervals.\n\n| feature |"
    );
    for (spec, l) in fits {
        let _ = write!(s, " {spec} ({} games) |", l.games);
    }
    s.push_str(" orthodox |\n|---|");
    for _ in fits {
        s.push_str("---|");
    }
    s.push_str("---:|\n");
    let names = fits.first().map(|f| f.1.names.clone()).unwrap_or_default();
    for (i, n) in names.iter().enumerate() {
        let _ = write!(s, "| {n} |");
        for (_, l) in fits {
            let _ = write!(s, " {} |", cell(l.values[i]));
        }
        let _ = writeln!(s, " {} |", orthodox(n));
    }
    s.push_str("\n| rung | pawn coefficient (logit) | log loss: learned | orthodox | material-free |\n|---|---:|---:|---:|---:|\n");
    for (spec, l) in fits {
        let _ = writeln!(
            s,
            "| {spec} | {:.4} | {:.4} | {:.4} | {:.4} |",
            l.model.weights[0], l.cv.0, l.cv.2, l.cv.1
        );
    }
    if let [.., (a, x), (b, y)] = fits {
        let moved: Vec<&str> = names
            .iter()
            .enumerate()
            .filter(|&(i, _)| {
                let (v, lo, hi) = y.values[i];
                let u = x.values[i].0;
                // Outside the stronger rung's interval and that rung's value outside the
                // weaker one's: the two fits disagree.
                (u < lo || u > hi) && (v < x.values[i].1 || v > x.values[i].2)
            })
            .map(|(_, n)| n.as_str())
            .collect();
        let _ = writeln!(
            s,
            "\nFrom {a} to {b}: {}.",
            if moved.is_empty() {
                "every value of the stronger rung lies within the weaker rung's interval and vice versa: the values have settled as far as these intervals can tell".to_string()
            } else {
                format!(
                    "{} moved beyond both rungs' intervals: the values have not settled",
                    moved.join(", ")
                )
            }
        );
    }
    s
}

fn err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing values.svg: {e:?}")
}

pub fn svg(path: &Path, l: &Learned) -> Result<()> {
    let n = l.names.len();
    let top = l
        .values
        .iter()
        .flat_map(|(v, _, hi)| [*v, *hi])
        .chain(l.names.iter().map(|n| orthodox(n)))
        .filter(|x| x.is_finite())
        .fold(1.0_f64, f64::max)
        * 1.1;
    let bottom = l
        .values
        .iter()
        .map(|v| v.1)
        .filter(|x| x.is_finite())
        .fold(0.0_f64, f64::min);
    let root = SVGBackend::new(path, (700, 400)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{}: learned values (blue, 95% bars) vs orthodox (red)",
                l.variant
            ),
            ("sans-serif", 16),
        )
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(45)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), bottom..top)
        .map_err(err)?;
    let names = l.names.clone();
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_desc("pawns")
        .draw()
        .map_err(err)?;
    for (i, (v, lo, hi)) in l.values.iter().enumerate() {
        let x = i as f64;
        chart
            .draw_series(LineSeries::new([(x, *lo), (x, *hi)], &BLUE))
            .map_err(err)?;
        chart
            .draw_series(PointSeries::of_element([(x, *v)], 5, &BLUE, &|c, s, st| {
                Circle::new(c, s, st.filled())
            }))
            .map_err(err)?;
        let o = orthodox(&l.names[i]);
        chart
            .draw_series(PointSeries::of_element(
                [(x + 0.15, o)],
                4,
                &RED,
                &|c, s, st| Circle::new(c, s, st.filled()),
            ))
            .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}

/// `cv.csv`: each game's cross-validated log losses (the unit of the intervals).
fn cv_csv(l: &Learned) -> String {
    let mut s = String::from("game,positions,learned,material_free,orthodox\n");
    for g in &l.cv_games {
        let _ = writeln!(
            s,
            "{},{},{:.6},{:.6},{:.6}",
            g.game, g.positions, g.learned, g.free, g.orthodox
        );
    }
    s
}

/// The files [`write`] puts in its folder.
pub const FILES: [&str; 5] = [
    "values.csv",
    "values.toml",
    "report.md",
    "values.svg",
    "cv.csv",
];

pub fn write(dir: &Path, l: &Learned, from: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let put = |name: &str, text: String| {
        let p = dir.join(name);
        std::fs::write(&p, text).with_context(|| format!("writing {}", p.display()))
    };
    put("values.csv", csv(l))?;
    if let Some(w) = worse_than_orthodox(l) {
        eprintln!("warning: {w}");
    }
    put("values.toml", toml(l))?;
    put("report.md", markdown(l, from))?;
    put("cv.csv", cv_csv(l))?;
    svg(&dir.join("values.svg"), l)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn learned(cv: (f64, f64, f64)) -> Learned {
        Learned {
            variant: "chess".into(),
            games: 100,
            positions: 1000,
            names: PIECES.iter().map(|s| s.to_string()).collect(),
            model: super::super::fit::Model {
                intercept: 0.0,
                weights: vec![0.2, 0.6, 0.6, 1.0, 1.8],
            },
            values: vec![
                (1.0, 1.0, 1.0),
                (3.0, 2.0, 4.0),
                (3.0, 2.0, 4.0),
                (5.0, 4.0, 6.0),
                (9.0, 8.0, 10.0),
            ],
            cv,
            cv_games: Vec::new(),
            bootstrap: 10,
            params: None,
        }
    }

    #[test]
    fn a_fit_worse_than_orthodox_is_warned_about() {
        let worse = learned((0.6500, 0.69, 0.6450));
        let w = worse_than_orthodox(&worse).unwrap();
        assert!(w.contains("0.6500 against 0.6450"), "{w}");
        assert!(toml(&worse).contains("# WARNING: the learned values predict these games worse"));
        assert!(markdown(&worse, Path::new("g.csv")).contains("**Warning:** the learned values"));
        // The comment keeps values.toml a valid evaluation file.
        let t: toml::Table = toml::from_str(&toml(&worse)).unwrap();
        assert_eq!(t.len(), 5);
        let better = learned((0.6400, 0.69, 0.6450));
        assert!(worse_than_orthodox(&better).is_none());
        assert!(!toml(&better).contains("WARNING"));
    }

    #[test]
    fn values_toml_weighs_the_games_own_features() {
        let mut l = learned((0.64, 0.69, 0.645));
        l.variant = "adrenaline".into();
        l.names
            .extend(["checkers".to_string(), "carriers".to_string()]);
        l.model.weights.extend([0.24, -0.54]);
        l.values.extend([(1.2, 0.5, 2.7), (-2.69, -5.5, -1.4)]);
        let w: agents::eval::EvalWeights = toml::from_str(&toml(&l)).unwrap();
        assert_eq!(w.knight, 3.0);
        assert_eq!(w.features.get("checkers"), Some(&1.2));
        assert_eq!(w.features.get("carriers"), Some(&-2.69));
        // And an agent reads it for the game it was learned from.
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("values.toml");
        std::fs::write(&f, toml(&l)).unwrap();
        let spec = format!("alphabeta:depth=1,eval={}", f.display());
        assert!(agents::registry::build::<engine::variants::adrenaline::Adrenaline>(&spec).is_ok());
    }
}

//! The `values` output folder: `values.csv` (one line per feature), `values.toml` (the
//! learned piece values as evaluation weights, readable by agents as `eval=FILE`),
//! `report.md` and `values.svg` (learned values with their 95% intervals beside the
//! orthodox ones).

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
/// their defaults).
pub fn toml(l: &Learned) -> String {
    let mut s = format!(
        "# piece values learned by `chesslab values` ({}), in pawns\n",
        l.variant
    );
    for (i, n) in l.names.iter().enumerate() {
        if PIECES.contains(&n.as_str()) {
            let _ = writeln!(s, "{n} = {:.4}", l.values[i].0);
        }
    }
    s
}

pub fn markdown(l: &Learned, from: &Path) -> String {
    let mut s = format!(
        "# Piece values learned from play: {}\n\nFrom `{}`: {} games, {} positions, {} bootstrap replicates over games.\n\n\
         | feature | value (pawns) | 95% interval | orthodox |\n|---|---:|---|---:|\n",
        l.variant,
        from.display(),
        l.games,
        l.positions,
        l.bootstrap
    );
    for (i, n) in l.names.iter().enumerate() {
        let (v, lo, hi) = l.values[i];
        let _ = writeln!(s, "| {n} | {v:.2} | [{lo:.2}, {hi:.2}] | {} |", orthodox(n));
    }
    let (learned, free, ortho) = l.cv;
    let _ = write!(
        s,
        "\nFive-fold cross-validated log loss (by game; lower is better): learned {learned:.4}, \
         orthodox 1/3/3/5/9 {ortho:.4}, material-free {free:.4}.\n\
         Pawn coefficient {:.4} (logit per pawn), intercept {:.4} (seat 0's edge at equal material).\n",
        l.model.weights.first().copied().unwrap_or(f64::NAN),
        l.model.intercept
    );
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

pub fn write(dir: &Path, l: &Learned, from: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let put = |name: &str, text: String| {
        let p = dir.join(name);
        std::fs::write(&p, text).with_context(|| format!("writing {}", p.display()))
    };
    put("values.csv", csv(l))?;
    put("values.toml", toml(l))?;
    put("report.md", markdown(l, from))?;
    svg(&dir.join("values.svg"), l)
}

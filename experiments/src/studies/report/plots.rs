//! The balance reports' pictures, drawn with `plotters`' SVG backend (issue 19):
//! `length.svg` (a histogram of game length), `split-<tally>.svg` (a seat's score per value
//! of a tally, with 95% intervals) and `ladder.svg` (the first seat's score at each rung
//! of a strength ladder, with 95% intervals and the level line at ½). Bars and interval
//! whiskers are plain rectangles and paths, so no optional plotters feature is needed.

use crate::stats::metrics::Estimate;
use anyhow::{anyhow, Result};
use plotters::prelude::*;
use std::path::Path;

fn err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing a plot: {e:?}")
}

/// Bins for a histogram of `values`: (lower edge, width, count), about 30 bins of a whole
/// width.
pub fn bins(values: &[usize]) -> Vec<(usize, usize, usize)> {
    let Some(&max) = values.iter().max() else {
        return Vec::new();
    };
    let min = *values.iter().min().unwrap_or(&0);
    let width = ((max - min) / 30 + 1).max(1);
    let n = (max - min) / width + 1;
    let mut out: Vec<(usize, usize, usize)> = (0..n).map(|i| (min + i * width, width, 0)).collect();
    for &v in values {
        out[(v - min) / width].2 += 1;
    }
    out
}

/// A histogram of game lengths.
pub fn length_histogram(path: &Path, lengths: &[usize], what: &str) -> Result<()> {
    let bins = bins(lengths);
    let xmax = bins.last().map_or(1, |b| b.0 + b.1) as f64;
    let xmin = bins.first().map_or(0, |b| b.0) as f64;
    let ymax = bins.iter().map(|b| b.2).max().unwrap_or(1) as f64 * 1.1;
    let root = SVGBackend::new(path, (800, 400)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("game length ({} games)", lengths.len()),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(xmin..xmax, 0.0..ymax.max(1.0))
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(what)
        .y_desc("games")
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(bins.iter().map(|&(lo, w, c)| {
            Rectangle::new(
                [(lo as f64, 0.0), ((lo + w) as f64, c as f64)],
                BLUE.mix(0.6).filled(),
            )
        }))
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

/// Points with 95% whiskers over categories on the x axis, and a dashed level line.
fn whisker_chart(
    path: &Path,
    caption: &str,
    x_desc: &str,
    y_desc: &str,
    points: &[(String, Estimate)],
    level: Option<f64>,
) -> Result<()> {
    let n = points.len().max(1);
    let lows = points.iter().map(|p| p.1.mean - p.1.half.max(0.0));
    let highs = points.iter().map(|p| p.1.mean + p.1.half.max(0.0));
    let ymin = lows
        .chain(level)
        .filter(|v| v.is_finite())
        .fold(f64::INFINITY, f64::min);
    let ymax = highs
        .chain(level)
        .filter(|v| v.is_finite())
        .fold(f64::NEG_INFINITY, f64::max);
    let (ymin, ymax) = if ymin.is_finite() && ymax.is_finite() {
        let pad = ((ymax - ymin) * 0.1).max(0.02);
        (ymin - pad, ymax + pad)
    } else {
        (0.0, 1.0)
    };
    let labels: Vec<String> = points.iter().map(|p| p.0.clone()).collect();
    let root = SVGBackend::new(path, (800, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), ymin..ymax)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style(("sans-serif", 14))
        .disable_x_mesh()
        .draw()
        .map_err(err)?;
    if let Some(l) = level {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(-0.5, l), (n as f64 - 0.5, l)],
                6,
                4,
                BLACK.mix(0.5).stroke_width(1),
            ))
            .map_err(err)?;
    }
    for (i, (_, e)) in points.iter().enumerate() {
        let x = i as f64;
        if e.mean.is_nan() {
            continue;
        }
        if !e.half.is_nan() {
            let (lo, hi) = (e.mean - e.half, e.mean + e.half);
            let style = BLUE.stroke_width(2);
            chart
                .draw_series([
                    PathElement::new(vec![(x, lo), (x, hi)], style),
                    PathElement::new(vec![(x - 0.08, lo), (x + 0.08, lo)], style),
                    PathElement::new(vec![(x - 0.08, hi), (x + 0.08, hi)], style),
                ])
                .map_err(err)?;
        }
        chart
            .draw_series([Circle::new((x, e.mean), 5, BLUE.filled())])
            .map_err(err)?;
    }
    if points.len() > 1 {
        chart
            .draw_series(LineSeries::new(
                points
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| !p.1.mean.is_nan())
                    .map(|(i, p)| (i as f64, p.1.mean)),
                BLUE.mix(0.4),
            ))
            .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}

/// The first seat's score at each rung of a ladder.
pub fn ladder(path: &Path, rungs: &[(String, Estimate)], seat: &str) -> Result<()> {
    whisker_chart(
        path,
        &format!("{seat}'s score by strength (95% intervals)"),
        "rung (agent in both seats)",
        &format!("{seat}'s score"),
        rungs,
        Some(0.5),
    )
}

/// A seat's score per value of a tally.
pub fn split(path: &Path, title: &str, groups: &[(String, Estimate)]) -> Result<()> {
    whisker_chart(path, title, "value", "score", groups, Some(0.5))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_plots_bins_cover_every_value() {
        let v = [3, 5, 5, 90, 200];
        let b = bins(&v);
        assert_eq!(b.iter().map(|x| x.2).sum::<usize>(), v.len());
        assert_eq!(b[0].0, 3);
        assert!(b.len() <= 31);
        let last = b.last().unwrap();
        assert!(last.0 <= 200 && 200 < last.0 + last.1);
        assert!(bins(&[]).is_empty());
        assert_eq!(bins(&[7, 7]), vec![(7, 1, 2)]);
    }

    #[test]
    fn rule_plots_written_as_svg() {
        let dir = std::env::temp_dir().join(format!("report-plots-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        length_histogram(&dir.join("length.svg"), &[10, 20, 20, 45], "actions").unwrap();
        let e = |m, h| Estimate { mean: m, half: h };
        ladder(
            &dir.join("ladder.svg"),
            &[
                ("depth 1".into(), e(0.6, 0.05)),
                ("depth 2".into(), e(0.55, f64::NAN)),
            ],
            "White",
        )
        .unwrap();
        for f in ["length.svg", "ladder.svg"] {
            let t = std::fs::read_to_string(dir.join(f)).unwrap();
            assert!(t.starts_with("<svg") && t.contains("</svg>"), "{f}");
        }
        let t = std::fs::read_to_string(dir.join("ladder.svg")).unwrap();
        assert!(t.contains("depth 1") && t.contains("White"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! The report's plots, drawn with `plotters`' SVG backend from `iterations.csv`'s lines:
//! `loss.svg` (mean loss of the points played at each iteration) and `params.svg` (the
//! optimiser's estimate per iteration, each parameter as a fraction of its range).

use super::space::Space;
use anyhow::{anyhow, Result};
use plotters::prelude::*;
use std::path::Path;

fn err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing a plot: {e:?}")
}

pub fn draw(dir: &Path, lines: &[String], space: &Space) -> Result<()> {
    let n = space.dim();
    let mut loss: Vec<(f64, f64, f64)> = Vec::new(); // iteration, sum, count
    let mut est: Vec<(f64, Vec<f64>)> = Vec::new();
    for line in lines.iter().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let Ok(k) = f[0].parse::<f64>() else { continue };
        if f[1] == "estimate" {
            let x: Vec<f64> = f[3..3 + n].iter().filter_map(|v| v.parse().ok()).collect();
            if x.len() == n {
                est.push((k, space.to_unit(&x)));
            }
        } else if let Ok(l) = f[2].parse::<f64>() {
            match loss.last_mut() {
                Some(last) if last.0 == k => {
                    last.1 += l;
                    last.2 += 1.0;
                }
                _ => loss.push((k, l, 1.0)),
            }
        }
    }
    let kmax = loss.last().map(|l| l.0).unwrap_or(1.0).max(1.0);
    let points: Vec<(f64, f64)> = loss.iter().map(|(k, s, c)| (*k, s / c)).collect();
    let lmax = points.iter().map(|p| p.1).fold(0.0_f64, f64::max).max(1e-9) * 1.05;
    {
        let path = dir.join("loss.svg");
        let root = SVGBackend::new(&path, (800, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "loss per iteration (mean of the points played)",
                ("sans-serif", 18),
            )
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..kmax, 0.0..lmax)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("iteration")
            .y_desc("loss")
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(points.iter().copied(), &BLUE))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    {
        let path = dir.join("params.svg");
        let root = SVGBackend::new(&path, (800, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "estimate per iteration (fraction of each range)",
                ("sans-serif", 18),
            )
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..kmax, 0.0..1.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("iteration")
            .y_desc("fraction of range")
            .draw()
            .map_err(err)?;
        for (i, p) in space.params.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(est.iter().map(|(k, x)| (*k, x[i])), colour))
                .map_err(err)?
                .label(p.name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], colour));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(())
}

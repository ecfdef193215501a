//! Studies made of many games, each a folder: [`report`] (the balance report of a run,
//! `balance` = tournament + report, ladders and comparisons), [`tune`] (parameters moved
//! toward designer targets) and [`values`] (piece values learned from games); [`panel`]
//! is the panel file every study can run over (issue 37), a shared definition rather
//! than a study; [`starts`] asks whether some Chess960 starts favour White more than
//! chance gives; [`tables`] writes the README figure tables of `results/` from the data
//! beside them; [`texel`] tunes the search's evaluation weights from recorded games.
//!
//! May depend on [`crate::run`], [`crate::stats`], [`crate::record`] and
//! [`crate::util`]; never on `cli`, `serve` or `golf`, nor one study on another.

pub mod panel;
pub mod report;
pub mod starts;
pub mod tables;
pub mod texel;
pub mod texel_tables;
pub mod tune;
pub mod values;
pub mod verdicts;

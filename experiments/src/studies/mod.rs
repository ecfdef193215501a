//! Studies made of many games, each a folder: [`report`] (the balance report of a run,
//! `balance` = tournament + report, ladders and comparisons), [`tune`] (parameters moved
//! toward designer targets) and [`values`] (piece values learned from games).
//!
//! May depend on [`crate::run`], [`crate::stats`], [`crate::record`] and
//! [`crate::util`]; never on `cli`, `serve` or `golf`, nor one study on another.

pub mod report;
pub mod tune;
pub mod values;

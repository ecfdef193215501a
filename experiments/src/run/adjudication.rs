//! Ending games early from the engines' own scores, as fastchess does (`--draw`,
//! `--resign`), and the reasons recorded for games that end outside the rules: a
//! forfeit by an outside program or an adjudication.
//!
//! Rules (tests `rule_adjudication_*`):
//! - `--draw movenumber=N,movecount=M,score=S`: from full move N on, once both sides have
//!   reported a score within ±S centipawns for M consecutive moves each (2M plies in a
//!   row), the game is a draw, recorded as `adjudication-draw`.
//! - `--resign movecount=M,score=S`: a side whose own score is at or below −S for M
//!   consecutive moves of its own loses, recorded as `adjudication-resign`.
//! - A move without a score (an agent that reports none) breaks every run of moves.
//!   Only two-seat games are adjudicated; the ply cap stays the variant's `ply_cap`.
//!
//! Records: such a game's actions replay to a position that is not terminal;
//! [`external_reason`] tells replay and report to take the recorded result.

use agents::Score;
use anyhow::{bail, Result};

/// Whether a recorded `reason` is one chesslab decided outside the rules (a forfeit or an
/// adjudication), so the recorded result stands where the replayed game has not ended.
pub fn external_reason(reason: &str) -> bool {
    reason.starts_with("forfeit-") || reason.starts_with("adjudication-")
}

pub const DRAW_REASON: &str = "adjudication-draw";
pub const RESIGN_REASON: &str = "adjudication-resign";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i64,
}

/// The adjudication rules of a run (none by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
}

fn read_keys<'a>(flag: &str, text: &'a str, keys: &[&str]) -> Result<Vec<(&'a str, i64)>> {
    let mut out: Vec<(&str, i64)> = Vec::new();
    for part in text.split(',') {
        let Some((k, v)) = part.split_once('=') else {
            bail!(
                "{flag} '{text}': expected key=value pairs ({})",
                keys.join(", ")
            );
        };
        let k = k.trim();
        if !keys.contains(&k) {
            bail!("{flag}: unknown key '{k}' (known: {})", keys.join(", "));
        }
        if out.iter().any(|(o, _)| *o == k) {
            bail!("{flag}: key '{k}' given twice");
        }
        let v: i64 = v.trim().parse().ok().filter(|v| *v >= 0).ok_or_else(|| {
            anyhow::anyhow!(
                "{flag}: '{k}' must be a whole number >= 0, got '{}'",
                v.trim()
            )
        })?;
        out.push((k, v));
    }
    for k in keys {
        if !out.iter().any(|(o, _)| o == k) {
            bail!("{flag}: '{k}' is missing (give {})", keys.join(", "));
        }
    }
    Ok(out)
}

impl DrawRule {
    /// Reads `movenumber=N,movecount=M,score=S`.
    pub fn parse(text: &str) -> Result<DrawRule> {
        let kv = read_keys("--draw", text, &["movenumber", "movecount", "score"])?;
        let get = |k: &str| kv.iter().find(|(o, _)| *o == k).map_or(0, |(_, v)| *v);
        if get("movecount") == 0 {
            bail!("--draw: movecount must be at least 1");
        }
        Ok(DrawRule {
            movenumber: get("movenumber").min(u32::MAX as i64) as u32,
            movecount: get("movecount").min(u32::MAX as i64) as u32,
            score: get("score"),
        })
    }
}

impl ResignRule {
    /// Reads `movecount=M,score=S`.
    pub fn parse(text: &str) -> Result<ResignRule> {
        let kv = read_keys("--resign", text, &["movecount", "score"])?;
        let get = |k: &str| kv.iter().find(|(o, _)| *o == k).map_or(0, |(_, v)| *v);
        if get("movecount") == 0 {
            bail!("--resign: movecount must be at least 1");
        }
        Ok(ResignRule {
            movecount: get("movecount").min(u32::MAX as i64) as u32,
            score: get("score"),
        })
    }
}

/// What adjudication decided after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw,
    /// This seat loses.
    Resign(usize),
}

/// The running counts of one game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    draw_run: u32,
    resign_run: [u32; 2],
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            ..Default::default()
        }
    }

    /// Counts a move of `seat` (0 or 1) made at full move `fullmove` with the mover's
    /// `score`.
    pub fn after_move(
        &mut self,
        seat: usize,
        fullmove: u32,
        score: Option<Score>,
    ) -> Option<Verdict> {
        let cp = score.map(Score::centipawns);
        if let Some(r) = self.rules.resign {
            match cp {
                Some(c) if c <= -r.score => self.resign_run[seat & 1] += 1,
                _ => self.resign_run[seat & 1] = 0,
            }
            if self.resign_run[seat & 1] >= r.movecount {
                return Some(Verdict::Resign(seat));
            }
        }
        if let Some(d) = self.rules.draw {
            match cp {
                Some(c) if fullmove >= d.movenumber && c.abs() <= d.score => self.draw_run += 1,
                _ => self.draw_run = 0,
            }
            if self.draw_run >= 2 * d.movecount {
                return Some(Verdict::Draw);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_adjudication_draw_needs_both_sides_for_movecount_moves() {
        let rules = Adjudication {
            draw: Some(DrawRule::parse("movenumber=10,movecount=2,score=20").unwrap()),
            resign: None,
        };
        let mut a = Adjudicator::new(rules);
        // Before move 10 nothing counts.
        for ply in 0..6 {
            assert_eq!(a.after_move(ply % 2, 5, Some(Score::Cp(0))), None);
        }
        assert_eq!(a.after_move(0, 10, Some(Score::Cp(5))), None);
        assert_eq!(a.after_move(1, 10, Some(Score::Cp(-20))), None);
        assert_eq!(
            a.after_move(0, 11, Some(Score::Cp(30))),
            None,
            "breaks the run"
        );
        assert_eq!(a.after_move(1, 11, Some(Score::Cp(1))), None);
        assert_eq!(a.after_move(0, 12, Some(Score::Cp(1))), None);
        assert_eq!(a.after_move(1, 12, None), None, "no score breaks the run");
        for (s, m) in [(0, 13), (1, 13), (0, 14)] {
            assert_eq!(a.after_move(s, m, Some(Score::Cp(0))), None);
        }
        assert_eq!(a.after_move(1, 14, Some(Score::Cp(0))), Some(Verdict::Draw));
    }

    #[test]
    fn rule_adjudication_resign_counts_the_losing_sides_own_moves() {
        let rules = Adjudication {
            draw: None,
            resign: Some(ResignRule::parse("movecount=2,score=500").unwrap()),
        };
        let mut a = Adjudicator::new(rules);
        assert_eq!(a.after_move(1, 20, Some(Score::Cp(-600))), None);
        // The other side's moves do not break seat 1's run.
        assert_eq!(a.after_move(0, 21, Some(Score::Cp(600))), None);
        assert_eq!(
            a.after_move(1, 21, Some(Score::Mate(-4))),
            Some(Verdict::Resign(1))
        );
        let mut a = Adjudicator::new(rules);
        assert_eq!(a.after_move(1, 20, Some(Score::Cp(-600))), None);
        assert_eq!(a.after_move(1, 21, Some(Score::Cp(-499))), None);
        assert_eq!(a.after_move(1, 22, Some(Score::Cp(-500))), None);
    }

    #[test]
    fn rule_adjudication_flags_name_the_problem() {
        for (text, why) in [
            ("movecount=3", "'movenumber' is missing"),
            ("movenumber=1,movecount=0,score=1", "at least 1"),
            ("movenumber=1,movecount=2,score=-5", "whole number >= 0"),
            ("movenumber=1,movecount=2,score=5,x=1", "unknown key 'x'"),
            ("movenumber", "key=value"),
        ] {
            let e = DrawRule::parse(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
        assert!(ResignRule::parse("movecount=3,score=400").is_ok());
        assert!(external_reason("forfeit-time") && external_reason(RESIGN_REASON));
        assert!(!external_reason("checkmate"));
    }
}

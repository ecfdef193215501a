//! The page's text: `VERDICTS.md` (how to read it, a summary, one block a question) and
//! each question's forest plot as plain SVG text, every figure with fixed decimals.

use super::{Answer, Measure, Page, Question, Sample, Sign, ALPHA};
use std::fmt::Write;

/// `+0.012` / `−0.012` (a figure that rounds to zero is `+`).
pub fn signed(x: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, x.abs());
    let zero = s.chars().all(|c| c == '0' || c == '.');
    format!("{}{s}", if x < 0.0 && !zero { "−" } else { "+" })
}

/// A plain figure, `−` for negatives.
fn plain(x: f64, decimals: usize) -> String {
    let s = signed(x, decimals);
    s.strip_prefix('+').map_or(s.clone(), str::to_string)
}

fn p_text(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".into()
    } else {
        format!("{p:.3}")
    }
}

fn answer_word(a: Answer) -> &'static str {
    match a {
        Answer::Yes => "yes",
        Answer::No => "no",
        Answer::Unclear => "unclear",
    }
}

fn sample_cell(s: &Sample, d: usize) -> String {
    let screened = match s.left_out {
        0 => String::new(),
        n => format!(" ({n} games from flagged openings left out)"),
    };
    format!(
        "{} ± {} over {} {}{screened}",
        plain(s.estimate.mean, d),
        format_args!("{:.*}", d, s.estimate.half),
        s.units,
        if s.over_openings { "openings" } else { "pairs" }
    )
}

fn links(runs: &[String]) -> String {
    runs.iter()
        .map(|r| format!("[{r}]({r}/)"))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// What the question's players are compared with, in words.
fn against(q: &Question) -> String {
    if let Some(a) = &q.against {
        return a.clone();
    }
    if q.players.iter().all(|c| c.baseline.is_some()) {
        "the same player's in orthodox chess".into()
    } else {
        match q.measure {
            Measure::FirstSeat => "½".into(),
            _ => "0".into(),
        }
    }
}

/// "How sure": the count of clear players after Holm, and a trend with strength.
pub fn how_sure(q: &Question, comparisons: usize) -> String {
    let n = q.players.len();
    let want = if q.sign == Sign::Positive { 1 } else { -1 };
    let with = q.players.iter().filter(|c| c.clear() == Some(want)).count();
    let other = q
        .players
        .iter()
        .filter(|c| c.clear() == Some(-want))
        .count();
    let players = |k: usize| if k == 1 { "player" } else { "players" };
    let all = match n {
        1 => "the one player".to_string(),
        2 => "both players".to_string(),
        _ => format!("all {n} players"),
    };
    let mut s = match q.answer() {
        Answer::Yes => format!("clear for {all}"),
        Answer::No => format!("clear the other way for {all}"),
        Answer::Unclear => {
            let mut s = format!("clear for {with} of {n} {}", players(n));
            if other > 0 {
                let _ = write!(s, " (the other way for {other})");
            }
            s
        }
    };
    let _ = write!(s, " after Holm's correction over {comparisons} comparisons");
    if let Some(t) = q.trend() {
        let d = q.measure.decimals();
        let rated = q.players.iter().filter(|c| c.elo.is_some()).count();
        let slope = format!(
            "{} ± {:.*} per 100 Elo over {rated} rated players",
            signed(t.slope, d),
            d,
            1.96 * t.se
        );
        if t.slope.abs() > 1.96 * t.se {
            let way = if t.slope > 0.0 { "rises" } else { "falls" };
            let _ = write!(s, "; the difference {way} with strength ({slope})");
        } else {
            let _ = write!(s, "; no trend with strength shown ({slope})");
        }
    }
    s
}

/// `VERDICTS.md`.
pub fn markdown(page: &Page) -> String {
    let m = page.comparisons;
    let mut s = String::new();
    s.push_str("# Verdicts: the games' design questions, answered from the kept games\n\n");
    s.push_str(
        "<!-- Written by `chesslab verdicts results` from results/verdicts.toml and the games.csv of the runs it names; edit those, not this page (CI checks it). -->\n\n",
    );
    let _ = write!(
        s,
        "**How to read this page.** Each entry is one design question of a game: the answer \
in one sentence, how sure the lab is, the players whose games answer it and a plot. For each \
player the figure is a difference: the player's result in the game minus the same player's \
in its baseline run (orthodox chess unless the entry says otherwise), or minus ½ (0 for \
draws and length) where there is none. A difference is **clear** when its p-value (normal \
approximation), corrected by Holm's step-down method over all {m} comparisons on this page, \
is below {ALPHA}: with {m} comparisons at 95%, two or three would look clear by chance alone, \
so an interval may exclude 0 in a plot and still not be clear. The answer is *yes* when every \
player is clear in the question's direction, *no* when every one is clear the other way, and \
*unclear* otherwise. Intervals are 95%, over book openings where an opening was played by \
several colour-swapped pairs, else over pairs; a run played from a book leaves out the \
games whose opening the lab's screen flagged there ([openings/screen](openings/screen/README.md): \
a forced win or three pawns for one side), and each such figure says how many; in the plots a filled dot is clear, a hollow \
one is not. Ratings are each player's strength at orthodox chess on Stockfish's scale \
([strength](strength/README.md)), of the agents' generation named with it; a trend with \
strength is the least-squares slope of the difference on the rating, named only when its \
95% interval excludes 0. The long evidence, caveats and the commands that played each run \
are in [results/README.md](README.md#verdicts-issue-37). Regenerate this page with \
`chesslab verdicts results` (CI runs `chesslab verdicts --check results`).\n\n"
    );
    if let Some(note) = &page.note {
        let _ = write!(s, "{}\n\n", note.trim());
    }
    s.push_str("| game | question | answer |\n|---|---|---|\n");
    for q in &page.questions {
        let _ = writeln!(
            s,
            "| {} | [{}](#{}) | {} |",
            q.game,
            q.question,
            q.id,
            answer_word(q.answer())
        );
    }
    for q in &page.questions {
        s.push('\n');
        s.push_str(&block(q, m));
    }
    s
}

fn block(q: &Question, m: usize) -> String {
    let d = q.measure.decimals();
    let mut s = String::new();
    let _ = write!(
        s,
        "<a id=\"{}\"></a>\n## {}: {}\n\n**{}.** {}\n\n",
        q.id,
        q.game,
        q.question,
        match q.answer() {
            Answer::Yes => "Yes",
            Answer::No => "No",
            Answer::Unclear => "Unclear",
        },
        q.answer_text()
    );
    let _ = write!(
        s,
        "How sure: {}.\n\nFirst mover: {}. Measured: {} in {} minus {}.\n\n",
        how_sure(q, m),
        q.first_mover,
        q.measure.words(),
        q.game,
        against(q)
    );
    s.push_str("| player | Elo | in the game | against | difference (95%) | Holm p | runs |\n|---|---:|---|---|---|---:|---|\n");
    for c in &q.players {
        let base = match &c.baseline {
            Some(b) => sample_cell(b, d),
            None => plain(q.measure.null(), d),
        };
        let runs = match &c.baseline {
            Some(b) => format!("{} against {}", links(&c.variant.runs), links(&b.runs)),
            None => links(&c.variant.runs),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} ± {:.*}{} | {} | {} |",
            c.label,
            c.elo.map_or("unrated".to_string(), |e| plain(e as f64, 0)),
            sample_cell(&c.variant, d),
            base,
            signed(c.diff, d),
            d,
            c.half(),
            if c.clear().is_some() { ", clear" } else { "" },
            p_text(c.holm),
            runs
        );
    }
    let _ = write!(
        s,
        "\n![{}: the difference for each player, with 95% intervals](verdicts/{}.svg)\n",
        q.game, q.id
    );
    s
}

fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A tick step of 1, 2 or 5 times a power of ten, about a fifth of `span`.
fn tick_step(span: f64) -> f64 {
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|k| k * mag)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * mag)
}

const WIDTH: f64 = 700.0;
const PLOT_LEFT: f64 = 370.0;
const PLOT_RIGHT: f64 = 680.0;
const TOP: f64 = 44.0;
const ROW: f64 = 26.0;

/// The question's forest plot: a row a player (label and rating), the difference as a
/// dot (filled when clear after Holm), its 95% interval as a line, a dashed line at 0
/// and an axis with ticks. Coordinates have one decimal, so the text depends on the
/// figures alone.
pub fn svg(q: &Question) -> String {
    let rows = &q.players;
    let mut lo = 0.0f64;
    let mut hi = 0.0f64;
    for c in rows {
        lo = lo.min(c.diff - c.half());
        hi = hi.max(c.diff + c.half());
    }
    if hi - lo <= 0.0 {
        lo = -1.0;
        hi = 1.0;
    }
    let step = tick_step(hi - lo);
    let lo = (lo / step).floor() * step;
    let hi = (hi / step).ceil() * step;
    let x = |v: f64| PLOT_LEFT + (v - lo) / (hi - lo) * (PLOT_RIGHT - PLOT_LEFT);
    let bottom = TOP + ROW * rows.len() as f64;
    let height = bottom + 48.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {WIDTH:.0} {height:.0}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        s,
        "<text x=\"10\" y=\"20\" font-size=\"13\" font-weight=\"bold\">{}: {}</text>",
        esc(&q.game),
        esc(&q.question)
    );
    let _ = writeln!(
        s,
        "<text x=\"10\" y=\"36\" fill=\"#555\">{} minus {}; answer: {}</text>",
        esc(q.measure.words()),
        esc(&against(q)),
        answer_word(q.answer())
    );
    let zero = x(0.0);
    let _ = writeln!(
        s,
        "<line x1=\"{zero:.1}\" y1=\"{:.1}\" x2=\"{zero:.1}\" y2=\"{bottom:.1}\" stroke=\"#b00\" stroke-dasharray=\"4 3\"/>",
        TOP
    );
    for (i, c) in rows.iter().enumerate() {
        let y = TOP + ROW * (i as f64 + 0.5);
        let elo = c.elo.map_or("unrated".to_string(), |e| {
            format!("{} Elo", plain(e as f64, 0))
        });
        let _ = writeln!(
            s,
            "<text x=\"10\" y=\"{:.1}\">{}, {elo}</text>",
            y + 4.0,
            esc(&c.label)
        );
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#333\" stroke-width=\"2\"/>",
            x(c.diff - c.half()),
            x(c.diff + c.half())
        );
        let fill = if c.clear().is_some() {
            "#1f5fbf"
        } else {
            "white"
        };
        let _ = writeln!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4.5\" fill=\"{fill}\" stroke=\"#1f5fbf\" stroke-width=\"2\"/>",
            x(c.diff)
        );
    }
    let _ = writeln!(
        s,
        "<line x1=\"{PLOT_LEFT:.1}\" y1=\"{bottom:.1}\" x2=\"{PLOT_RIGHT:.1}\" y2=\"{bottom:.1}\" stroke=\"#333\"/>"
    );
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let n = ((hi - lo) / step).round() as i64;
    for k in 0..=n {
        let v = lo + k as f64 * step;
        let tx = x(v);
        let _ = writeln!(
            s,
            "<line x1=\"{tx:.1}\" y1=\"{bottom:.1}\" x2=\"{tx:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>",
            bottom + 5.0
        );
        let _ = writeln!(
            s,
            "<text x=\"{tx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            bottom + 18.0,
            plain(v, decimals)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{PLOT_RIGHT:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#555\">dot: difference; line: 95% interval; filled: clear after Holm</text>",
        bottom + 38.0
    );
    s.push_str("</svg>\n");
    s
}

//! The printable pages: SVG boards with pieces drawn as shapes, the player's page and the solutions page.

use super::*;

/// The outline of a piece in a 100 × 100 box: filled shapes (drawn in the piece's colour
/// with a black outline) and detail strokes (drawn in the contrasting colour). Simple
/// silhouettes drawn for this page, so the diagrams need no chess font: a page printed
/// or shown where no font has the chess symbols still shows every piece, and black pieces
/// are black whatever the renderer does with glyph outlines.
pub(super) fn piece_shapes(role: Role) -> (&'static [&'static str], &'static [&'static str]) {
    const BASE: &str = r#"<rect x="24" y="78" width="52" height="10" rx="2"/>"#;
    match role {
        Role::King => (
            &[
                r#"<path d="M46,6 H54 V14 H62 V22 H54 V32 H46 V22 H38 V14 H46 Z"/>"#,
                r#"<path d="M28,78 C18,58 26,36 50,36 C74,36 82,58 72,78 Z"/>"#,
                BASE,
            ],
            &[r#"<path d="M34,64 H66"/>"#],
        ),
        Role::Queen => (
            &[
                r#"<path d="M26,78 L16,32 L30,54 L33,24 L43,50 L50,20 L57,50 L67,24 L70,54 L84,32 L74,78 Z"/>"#,
                r#"<circle cx="16" cy="30" r="5"/>"#,
                r#"<circle cx="33" cy="22" r="5"/>"#,
                r#"<circle cx="50" cy="17" r="5"/>"#,
                r#"<circle cx="67" cy="22" r="5"/>"#,
                r#"<circle cx="84" cy="30" r="5"/>"#,
                BASE,
            ],
            &[r#"<path d="M32,68 H68"/>"#],
        ),
        Role::Rook => (
            &[
                r#"<path d="M30,78 L34,40 H66 L70,78 Z"/>"#,
                r#"<path d="M28,40 V16 H38 V24 H46 V16 H54 V24 H62 V16 H72 V40 Z"/>"#,
                BASE,
            ],
            &[r#"<path d="M36,48 H64"/>"#],
        ),
        Role::Bishop => (
            &[
                r#"<circle cx="50" cy="13" r="6"/>"#,
                r#"<path d="M50,20 C66,32 68,50 60,64 H40 C32,50 34,32 50,20 Z"/>"#,
                r#"<rect x="36" y="64" width="28" height="9"/>"#,
                BASE,
            ],
            &[r#"<path d="M44,46 L56,34"/>"#],
        ),
        Role::Knight => (
            &[
                r#"<path d="M28,88 L76,88 C76,64 72,40 62,24 L58,8 L50,18 C40,20 28,34 18,48 L21,57 C26,61 32,59 36,56 L47,50 C45,62 32,72 28,88 Z"/>"#,
            ],
            &[r#"<circle cx="45" cy="31" r="2.5"/>"#],
        ),
        Role::Pawn => (
            &[
                r#"<circle cx="50" cy="30" r="13"/>"#,
                r#"<path d="M36,78 C38,60 44,50 44,43 H56 C56,50 62,60 64,78 Z"/>"#,
                BASE,
            ],
            &[],
        ),
    }
}

/// Fill of a piece's body and of its detail strokes.
pub(super) fn piece_colours(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => ("#ffffff", "#000000"),
        Color::Black => ("#000000", "#ffffff"),
    }
}

/// One piece drawn as SVG shapes in the `size`-pixel square at (`x`, `y`).
pub(super) fn piece_svg(p: Piece, x: u32, y: u32, size: u32) -> String {
    let (fill, detail) = piece_colours(p.color);
    let (shapes, details) = piece_shapes(p.role);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<g class="piece {}" transform="translate({x} {y}) scale({})"><title>{}</title><g fill="{fill}" stroke="#000000" stroke-width="3.5" stroke-linejoin="round">"##,
        piece_name(p),
        size as f64 / 100.0,
        piece_name(p)
    );
    for shape in shapes {
        s.push_str(shape);
    }
    let _ = write!(
        s,
        r#"</g><g fill="{detail}" stroke="{detail}" stroke-width="3.5" stroke-linecap="round">"#
    );
    for d in details {
        s.push_str(d);
    }
    s.push_str("</g></g>");
    s
}

pub(super) fn piece_name(p: Piece) -> String {
    let role = match p.role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    };
    format!("{} {role}", p.color.name())
}

pub(super) fn chosen_words(chosen: &KindCounts) -> String {
    chosen
        .pieces()
        .into_iter()
        .map(piece_name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// An SVG diagram of `pos`; pieces of chosen kinds are circled. `marks` are squares to
/// outline (the moved pieces' squares on the solutions page).
pub(super) fn board_svg(pos: &GolfPosition, circle_chosen: bool, marks: &[Square]) -> String {
    const S: u32 = 40;
    const M: u32 = 18;
    let size = 8 * S + M;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" role="img">"#
    );
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let x = M + file * S;
            let y = (7 - rank) * S;
            let dark = (rank + file) % 2 == 0;
            let fill = if dark { "#b58863" } else { "#f0d9b5" };
            let _ = write!(
                s,
                r#"<rect x="{x}" y="{y}" width="{S}" height="{S}" fill="{fill}"/>"#
            );
        }
    }
    for sq in marks {
        let x = M + sq.file() as u32 * S;
        let y = (7 - sq.rank() as u32) * S;
        let _ = write!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#2a6fdb" stroke-width="3"/>"##,
            x + 2,
            y + 2,
            S - 4,
            S - 4
        );
    }
    for i in 0..8u32 {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="11" text-anchor="middle" font-family="sans-serif">{}</text>"#,
            M + i * S + S / 2,
            8 * S + 13,
            (b'a' + i as u8) as char
        );
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="11" text-anchor="middle" font-family="sans-serif">{}</text>"#,
            M / 2,
            (7 - i) * S + S / 2 + 4,
            i + 1
        );
    }
    let chosen = pos.chosen();
    for (sq, p) in pos.pieces() {
        let x = M + sq.file() as u32 * S;
        let y = (7 - sq.rank() as u32) * S;
        let (cx, cy) = (x + S / 2, y + S / 2);
        s.push_str(&piece_svg(p, x + 1, y + 1, S - 2));
        if circle_chosen && chosen.get(p) > 0 {
            let _ = write!(
                s,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#d00000" stroke-width="2.5"/>"##,
                S / 2 - 2
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// The start squares of the pieces that move in `solution` (UCI moves).
pub(super) fn moved_pieces_start_squares(solution: &[String]) -> Vec<Square> {
    // origin[sq] = the start square of the piece now on sq.
    let mut origin: [Option<Square>; 64] = [None; 64];
    for sq in Square::all() {
        origin[sq.index()] = Some(sq);
    }
    let mut out: Vec<Square> = Vec::new();
    for m in solution {
        let Some(mv) = GolfMove::parse(m) else {
            continue;
        };
        let start = origin[mv.from.index()];
        if let Some(start) = start {
            if !out.contains(&start) {
                out.push(start);
            }
        }
        origin[mv.to.index()] = start;
        origin[mv.from.index()] = None;
    }
    out
}

pub(super) fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The player's page (`solutions = false`) or the solutions page of a course.
///
/// The player's page shows no par and does not say which holes are impossible (that is
/// what the players are to find out); it ends with a score card whose rows take the
/// players' names. The solutions page gives each hole's par (or "impossible"), one optimal
/// solution, the total par and a par row. Printing: a stylesheet for print lays the holes
/// out three to a row, so a 9-hole course takes two A4 or Letter pages.
pub(super) fn course_html(
    course: &CourseRecord,
    params: &GolfParams,
    solutions: bool,
) -> Result<String> {
    let title = if solutions {
        format!("Chess Golf course (seed {}): solutions", course.seed)
    } else {
        format!("Chess Golf course (seed {})", course.seed)
    };
    let mut h = String::new();
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; color: #000; background: #fff; }}
h1 {{ font-size: 1.5em; margin: 0 0 0.3em 0; }}
p.intro {{ max-width: 60em; margin: 0.3em 0; }}
.holes {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 340px)); gap: 1em 1.5em; margin-top: 1em; }}
.hole {{ break-inside: avoid; page-break-inside: avoid; }}
.hole h2 {{ font-size: 1.05em; margin: 0 0 0.2em 0; }}
.hole svg {{ display: block; width: 100%; height: auto; }}
.hole p {{ margin: 0.2em 0; font-size: 0.9em; }}
table.card {{ border-collapse: collapse; margin-top: 1.5em; break-inside: avoid; page-break-inside: avoid; }}
table.card td, table.card th {{ border: 1px solid #444; padding: 0.25em 0.6em; text-align: center; min-width: 1.6em; }}
table.card .name {{ min-width: 10em; text-align: left; }}
table.card td {{ height: 1.8em; }}
table.card caption {{ text-align: left; font-weight: bold; margin-bottom: 0.3em; }}
@page {{ margin: 12mm; }}
@media print {{
  body {{ margin: 0; font-size: 9.5pt; }}
  h1 {{ font-size: 15pt; }}
  .noprint {{ display: none; }}
  .holes {{ grid-template-columns: repeat(3, 1fr); gap: 3mm 6mm; margin-top: 3mm; }}
  table.card {{ margin-top: 5mm; }}
}}
</style></head><body>
<h1>{title}</h1>
"#
    );
    let rules = match params.king_step {
        KingStep::NoAdjacentPair => "a colour with no two adjacent pieces may make king steps",
        KingStep::NoBorrowedMove => "a colour with no borrowed move may make king steps",
    };
    let _ = writeln!(
        h,
        "<p class=\"intro\">{} holes, {} cards a hole, {}.{}</p>",
        course.holes.len(),
        course.cards,
        html_escape(&describe(params)),
        if solutions {
            format!(" Total par {}.", course.total_par)
        } else {
            String::new()
        }
    );
    if solutions {
        let _ = writeln!(
            h,
            "<p class=\"intro\">Holes: {}. Each solution is one optimal line found by the solver; outlined squares are the start squares of the pieces that move.</p>",
            html_escape(&selection(course))
        );
    } else {
        let _ = writeln!(
            h,
            "<p class=\"intro\">Make one circled piece capture the others in as few moves as possible. A piece moves only by borrowing the move of a same-colour neighbour; {rules}. Each hole starts where the previous one ended, captured pieces returned to the board. <span class=\"noprint\">Solutions: <a href=\"solutions.html\">solutions.html</a>.</span></p>"
        );
    }
    h.push_str("<div class=\"holes\">\n");
    for hole in &course.holes {
        let pos = GolfPosition::parse_fen(&hole.problem)
            .with_context(|| format!("re-reading hole {}", hole.hole))?;
        let marks: Vec<Square> = if solutions {
            moved_pieces_start_squares(&hole.solution)
        } else {
            Vec::new()
        };
        let heading = match (solutions, hole.par) {
            (false, _) => format!("Hole {}", hole.hole),
            (true, Some(par)) => format!("Hole {} &mdash; par {par}", hole.hole),
            (true, None) => format!("Hole {} &mdash; impossible", hole.hole),
        };
        let _ = write!(
            h,
            "<div class=\"hole\"><h2>{heading}</h2>\n{}\n<p>Chosen: {} (<code>{}</code>).</p>\n",
            board_svg(&pos, true, &marks),
            html_escape(&chosen_words(&pos.chosen())),
            html_escape(&hole.chosen)
        );
        if solutions {
            if hole.par.is_some() {
                let _ = writeln!(
                    h,
                    "<p>Solution ({} moves): <code>{}</code></p><p>{} optimal solution{}; {} legal moves at the start.</p>",
                    hole.solution.len(),
                    html_escape(&hole.solution.join(" ")),
                    hole.optimal_solutions,
                    if hole.optimal_solutions == 1 { "" } else { "s" },
                    hole.branching
                );
            } else {
                let _ = writeln!(
                    h,
                    "<p>No sequence of moves makes the capture; the next hole starts from this position.</p>"
                );
            }
        }
        h.push_str("</div>\n");
    }
    h.push_str("</div>\n");
    let numbers = |h: &mut String| {
        for hole in &course.holes {
            let _ = write!(h, "<th>{}</th>", hole.hole);
        }
    };
    if solutions {
        h.push_str("<table class=\"card\"><tr><th class=\"name\">Hole</th>");
        numbers(&mut h);
        h.push_str("<th>Total</th></tr><tr><th class=\"name\">Par</th>");
        for hole in &course.holes {
            match hole.par {
                Some(p) => {
                    let _ = write!(h, "<td>{p}</td>");
                }
                None => h.push_str("<td>&ndash;</td>"),
            }
        }
        let _ = writeln!(h, "<td>{}</td></tr></table>", course.total_par);
    } else {
        h.push_str("<table class=\"card\"><caption>Score card</caption><tr><th class=\"name\">Player (name)</th>");
        numbers(&mut h);
        h.push_str("<th>Total</th></tr>");
        for _ in 0..SCORE_CARD_ROWS {
            h.push_str("<tr><td class=\"name\"></td>");
            for _ in 0..=course.holes.len() {
                h.push_str("<td></td>");
            }
            h.push_str("</tr>");
        }
        h.push_str("</table>\n");
    }
    h.push_str("</body></html>\n");
    Ok(h)
}

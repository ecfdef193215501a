//! Opening books for `tournament --openings`: EPD/FEN lines or PGN games, in file order
//! or shuffled by the run's seed (`--opening-order`), cut to `--opening-plies` for PGN.
//!
//! Rules (tests `rule_openings_*`):
//! - A file whose first non-blank character is `[` (or named `*.pgn`) is PGN: each game's
//!   `FEN` tag (if any) and its main line, comments `{...}`, `;` to the end of the line,
//!   variations `(...)`, move numbers, NAGs and the result token skipped. Each game gives
//!   one opening: the position after its first `--opening-plies` plies (all of them when
//!   the flag is absent), written as FEN; a move that is not legal is an error naming the
//!   game, its line and the move, before any game is played.
//! - A book whose lines start with `actions:` is an action list book (any variant,
//!   written by `chesslab openings`): each line is one opening, the actions (in the
//!   variant's notation, chance outcomes included, joint actions `a|b`) played from the
//!   variant's start. The opening text recorded in `games.csv` is that line, and
//!   [`start_of`] rebuilds the start from it for play and for replay. Mixing FEN and
//!   action lines in one file is refused. Test `rule_openings_action_lists_any_variant`.
//! - Otherwise one FEN (or 4-field EPD, operations ignored) per line, as before.
//! - `--opening-order sequential` plays the book in file order, round k taking opening
//!   k mod n; `random` shuffles the book once with a stream seeded by the run's seed
//!   ([`shuffle_seed`]), then goes through it in that order. Both games of a colour-swapped
//!   pair (and every matchup of the round) share the round's opening.
//!
//! Decisions where the issue is silent: `--opening-plies` applies to PGN books only (an
//! EPD line is already a position; giving it with EPD is refused); PGN games are read
//! with orthodox castling unless a `Variant` tag names Chess960; every opening must then be
//! accepted by the variant's `Game::from_opening` (checked before the run).

use anyhow::{anyhow, bail, Context, Result};
use engine::game::Game;
use engine::Board;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::Path;

/// Salt for the opening-order shuffle, so it never coincides with a game seed.
const SHUFFLE_SALT: u64 = 0x0B0E_0B0E_0000_0001;

/// The seed of the `random` opening order of a run seeded with `seed`.
pub fn shuffle_seed(seed: u64) -> u64 {
    crate::util::mix(seed ^ SHUFFLE_SALT, 0)
}

/// The mark that starts an action-list opening (defined with the record format).
pub use crate::record::ACTIONS_PREFIX;

/// An action-list opening's text: the prefix, then the actions separated by one space.
pub fn actions_text(actions: &[String]) -> String {
    let mut t = ACTIONS_PREFIX.to_string();
    for a in actions {
        t.push(' ');
        t.push_str(a);
    }
    t
}

/// The start an opening text describes: an action list played from the variant's start,
/// or a position the variant reads itself (`Game::from_opening`, a FEN for chess-like
/// variants).
pub fn start_of<G: Game>(params: &G::Params, text: &str) -> Result<G> {
    match text.trim().strip_prefix(ACTIONS_PREFIX) {
        Some(list) => {
            let actions: Vec<&str> = list.split_whitespace().collect();
            let game = engine::game::replay(G::new(params), &actions)
                .map_err(|e| anyhow!(e))
                .context("the opening's actions do not replay")?;
            if game.turn() == engine::game::Turn::Terminal {
                bail!("the opening's actions end the game");
            }
            Ok(game)
        }
        None => G::from_opening(params, text).map_err(|e| anyhow!(e)),
    }
}

/// The position a recorded game started from: its opening (an action list or a FEN),
/// or the variant's start when the row has none.
pub fn row_start<G: Game>(params: &G::Params, row: &crate::record::Row) -> Result<G> {
    if row.opening.trim().is_empty() {
        return Ok(G::new(params));
    }
    start_of::<G>(params, &row.opening).with_context(|| format!("game {}'s opening", row.index))
}

/// Reads an action-list book: every non-blank, non-`#` line is `actions: ...`.
fn read_action_book(path: &Path, text: &str) -> Result<Vec<(usize, String)>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let Some(list) = t.strip_prefix(ACTIONS_PREFIX) else {
            bail!(
                "{} line {}: an action-list book holds only `{ACTIONS_PREFIX} ...` lines, not '{t}'",
                path.display(),
                i + 1
            );
        };
        let actions: Vec<String> = list.split_whitespace().map(str::to_string).collect();
        out.push((i + 1, actions_text(&actions)));
    }
    if out.is_empty() {
        bail!("openings file {} has no openings", path.display());
    }
    Ok(out)
}

/// Reads an openings file: one FEN per line (or an EPD line: its first four fields),
/// `#` comment lines and blank lines skipped. Returns (line number, FEN) pairs.
pub fn read_openings(path: &Path) -> Result<Vec<(usize, String)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings file {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = t.split_whitespace().collect();
        let full_fen = f.len() >= 6 && f[4].parse::<u32>().is_ok() && f[5].parse::<u32>().is_ok();
        let fen = if full_fen {
            f[..6].join(" ")
        } else if f.len() >= 4 {
            f[..4].join(" ")
        } else {
            bail!(
                "{} line {}: '{t}' is not a FEN (too few fields)",
                path.display(),
                i + 1
            );
        };
        out.push((i + 1, fen));
    }
    if out.is_empty() {
        bail!("openings file {} has no positions", path.display());
    }
    Ok(out)
}

/// Reads a book: (line number, opening text) per opening: a FEN, or an action list.
pub fn read_book(path: &Path, plies: Option<u32>) -> Result<Vec<(usize, String)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings file {}", path.display()))?;
    let action_book = text
        .lines()
        .map(str::trim)
        .find(|t| !t.is_empty() && !t.starts_with('#'))
        .is_some_and(|t| t.starts_with(ACTIONS_PREFIX));
    if action_book {
        if plies.is_some() {
            bail!(
                "--opening-plies applies to PGN books; {} holds action lists",
                path.display()
            );
        }
        return read_action_book(path, &text);
    }
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        || text.trim_start().starts_with('[');
    if !is_pgn {
        if plies.is_some() {
            bail!(
                "--opening-plies applies to PGN books; {} holds FEN/EPD positions",
                path.display()
            );
        }
        return read_openings(path);
    }
    let out =
        read_pgn(&text, plies).with_context(|| format!("openings file {}", path.display()))?;
    if out.is_empty() {
        bail!("openings file {} has no games", path.display());
    }
    Ok(out)
}

/// Orders a book for a run: as read, or shuffled by `seed`.
pub fn order(mut book: Vec<(usize, String)>, random: bool, seed: u64) -> Vec<(usize, String)> {
    if random {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(shuffle_seed(seed));
        book.shuffle(&mut rng);
    }
    book
}

/// One PGN game as read: where it starts, its FEN tag, its Variant tag, its SAN moves.
struct PgnGame {
    line: usize,
    fen: Option<String>,
    chess960: bool,
    moves: Vec<(usize, String)>,
}

fn tag_value(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.replace("\\\"", "\"")))
}

fn split_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut cur: Option<PgnGame> = None;
    let mut in_moves = false;
    let (mut depth_var, mut in_comment) = (0usize, false);
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let t = raw.trim();
        if !in_comment && depth_var == 0 && t.starts_with('[') {
            if in_moves {
                games.extend(cur.take());
                in_moves = false;
            }
            let g = cur.get_or_insert_with(|| PgnGame {
                line: line_no,
                fen: None,
                chess960: false,
                moves: Vec::new(),
            });
            if let Some((name, value)) = tag_value(t) {
                match name.as_str() {
                    "FEN" => g.fen = Some(value),
                    "Variant" => g.chess960 = value.to_ascii_lowercase().contains("960"),
                    _ => {}
                }
            }
            continue;
        }
        if t.is_empty() {
            continue;
        }
        let g = cur.get_or_insert_with(|| PgnGame {
            line: line_no,
            fen: None,
            chess960: false,
            moves: Vec::new(),
        });
        in_moves = true;
        let mut token = String::new();
        let flush = |token: &mut String, g: &mut PgnGame| {
            let w = std::mem::take(token);
            if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                return;
            }
            let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if w.is_empty() || w.starts_with('$') {
                return;
            }
            let w = w.trim_end_matches(['!', '?']);
            g.moves.push((line_no, w.to_string()));
        };
        for c in raw.chars() {
            if in_comment {
                if c == '}' {
                    in_comment = false;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, g);
                    in_comment = true;
                }
                '(' => {
                    flush(&mut token, g);
                    depth_var += 1;
                }
                ')' => {
                    token.clear();
                    depth_var = depth_var.saturating_sub(1);
                }
                ';' => break,
                c if c.is_whitespace() => {
                    if depth_var == 0 {
                        flush(&mut token, g);
                    } else {
                        token.clear();
                    }
                }
                c => token.push(c),
            }
        }
        if depth_var == 0 {
            flush(&mut token, g);
        } else {
            token.clear();
        }
    }
    games.extend(cur);
    games
}

/// The openings of a PGN text: the position after `plies` plies of each game.
pub fn read_pgn(text: &str, plies: Option<u32>) -> Result<Vec<(usize, String)>> {
    let mut out = Vec::new();
    for (n, g) in split_games(text).into_iter().enumerate() {
        let what = || format!("game {} (line {})", n + 1, g.line);
        let mut board = match &g.fen {
            Some(f) if g.chess960 => Board::from_fen_960(f),
            Some(f) => Board::from_fen(f),
            None => Ok(Board::startpos()),
        }
        .with_context(|| format!("{}: bad FEN tag", what()))?;
        let take = plies.map_or(g.moves.len(), |p| (p as usize).min(g.moves.len()));
        for (line, san) in &g.moves[..take] {
            let mv = board
                .parse_move(san)
                .with_context(|| format!("{} line {line}", what()))?;
            board.make(mv);
        }
        out.push((g.line, board.fen()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_files_read_fen_and_epd_lines() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("book.epd");
        std::fs::write(
            &p,
            "# book\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\n8/8/8/8/8/8/8/K6k w - - 0 1\n",
        )
        .unwrap();
        let o = read_openings(&p).unwrap();
        assert_eq!(
            o[0],
            (
                3,
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -".into()
            )
        );
        assert_eq!(o[1], (4, "8/8/8/8/8/8/8/K6k w - - 0 1".into()));
        std::fs::write(&p, "# nothing\n").unwrap();
        assert!(read_openings(&p).is_err());
    }

    const BOOK: &str = r#"[Event "a"]
[Site "?"]

1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 3. Bb5 a6 $1 1/2-1/2

[Event "b"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 Kd7 2. Kd2 *
"#;

    #[test]
    fn rule_openings_pgn_main_line_cut_to_plies() {
        let all = read_pgn(BOOK, None).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].0, 1);
        assert_eq!(
            all[0].1,
            "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
        );
        assert_eq!(all[1].1, "8/3k4/8/8/4P3/8/3K4/8 b - - 2 2");
        let two = read_pgn(BOOK, Some(2)).unwrap();
        let mut b = Board::startpos();
        for m in ["e2e4", "e7e5"] {
            let mv = b.parse_uci(m).unwrap();
            b.make(mv);
        }
        assert_eq!(two[0].1, b.fen());
        assert_eq!(
            read_pgn(BOOK, Some(0)).unwrap()[0].1,
            Board::startpos().fen()
        );
    }

    #[test]
    fn rule_openings_illegal_book_move_names_game_and_line() {
        let bad = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
        let e = format!("{:#}", read_pgn(bad, None).unwrap_err());
        assert!(
            e.contains("game 1 (line 1) line 3") && e.contains("Ke3"),
            "{e}"
        );
    }

    #[test]
    fn rule_openings_action_lists_any_variant() {
        use engine::variants::half_alice::HalfAlice;
        let dir = std::env::temp_dir().join(format!("openings-actions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.txt");
        std::fs::write(
            &path,
            "# a book\nactions: e2e4 e7e5\n\nactions:  d2d4   d7d5 \n",
        )
        .unwrap();
        let book = read_book(&path, None).unwrap();
        assert_eq!(
            book,
            vec![
                (2, "actions: e2e4 e7e5".to_string()),
                (4, "actions: d2d4 d7d5".to_string())
            ]
        );
        let params = Default::default();
        let g: HalfAlice = start_of(&params, &book[0].1).unwrap();
        assert_eq!(g.history_len(), 2);
        // An illegal action and a FEN line among action lines are errors.
        assert!(start_of::<HalfAlice>(&params, "actions: e2e5").is_err());
        std::fs::write(
            &path,
            "actions: e2e4\nrnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq -\n",
        )
        .unwrap();
        let e = format!("{:#}", read_book(&path, None).unwrap_err());
        assert!(e.contains("line 2"), "{e}");
        assert!(read_book(&path, Some(2)).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rule_openings_random_order_is_a_seeded_shuffle() {
        let book: Vec<(usize, String)> = (0..20).map(|i| (i, format!("p{i}"))).collect();
        assert_eq!(order(book.clone(), false, 5), book);
        let a = order(book.clone(), true, 5);
        assert_eq!(a, order(book.clone(), true, 5));
        assert_ne!(a, book);
        assert_ne!(a, order(book.clone(), true, 6));
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, book);
    }
}

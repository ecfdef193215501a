//! Replaying recorded games: a `games.csv` row played again from its variant, parameters
//! and actions ([`replay_row`]), checked against its record ([`contradiction`]), with its
//! PGN where the variant has one. `chesslab replay`, `export`, `verify`, tournaments
//! (resume), merges and reports all verify rows here.

use crate::record::Row;
use crate::util::{digest_hex, params_canonical, result_text, returns_text};
use anyhow::{anyhow, bail, Context, Result};
use engine::game::{Game, Turn};
use engine::registry::{self, VariantVisitor};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The files a command over `games` reads: the games, the parameter file if given, and
/// run.json beside the games. No output may be one of them.
pub(crate) fn inputs_of<'a>(
    games: &'a Path,
    params: Option<&'a PathBuf>,
    run: &'a Path,
) -> Vec<&'a Path> {
    let mut v = vec![games, run];
    if let Some(p) = params {
        v.push(p.as_path());
    }
    v
}

pub(crate) fn run_json_of(games: &Path) -> PathBuf {
    games.parent().unwrap_or(Path::new(".")).join("run.json")
}

/// The parameter TOML for a games file: `--params`, else run.json's `params_toml`.
pub(crate) fn params_for(games: &Path, params: Option<&PathBuf>) -> Result<Option<String>> {
    if let Some(p) = params {
        return crate::run::variant_args::read_params_file(p).map(Some);
    }
    let run = games.parent().unwrap_or(Path::new(".")).join("run.json");
    match std::fs::read_to_string(&run) {
        Ok(text) => {
            let v: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not valid JSON", run.display()))?;
            Ok(v.get("params_toml")
                .and_then(|p| p.as_str())
                .map(str::to_string))
        }
        Err(_) => Ok(None),
    }
}

/// A recorded game played again.
pub struct Replayed {
    pub final_position: String,
    pub result: String,
    pub returns: Vec<f64>,
    pub reason: String,
    pub plies: usize,
    pub pgn: Option<Result<String>>,
    /// The variant's own figures at the end (`Game::tallies`).
    pub tallies: Vec<(String, f64)>,
    /// Display names of the seats, in seat order.
    pub seat_names: Vec<String>,
    /// Readable names of coded tally values (`Game::tally_label`), by tally name.
    pub tally_labels: Vec<(String, String)>,
    /// Every seat shares one return (`Utility::Identical`): a team against the game.
    pub cooperative: bool,
}

/// A game with no PGN form: not two players moving on one orthodox board (every variant
/// but chess, Chess960 and the board variants whose moves are orthodox moves).
/// `export --pgn` answers a whole file of such games with one message instead of one
/// failure per row.
#[derive(Debug, thiserror::Error)]
#[error("not a two-player game on an orthodox board")]
pub struct NoPgn;

/// The SAN record of a chess-like game, for PGN.
pub struct SanRecord {
    pub start_fen: String,
    pub chess960: bool,
    pub sans: Vec<String>,
    pub black_first: bool,
    pub fullmove: u16,
}

/// Replays `actions` from `start`, collecting SAN for every move on the orthodox board.
/// Chance outcomes before the first move (a Chess960 start) only set up the position.
pub fn replay_with_san<G: Game>(start: G, actions: &[&str]) -> Result<(G, Option<SanRecord>)> {
    let mut game = start;
    let mut san: Option<SanRecord> = None;
    let mut san_ok = game.num_seats() == 2;
    for (i, text) in actions.iter().enumerate() {
        let turn = game.turn();
        if let (Turn::Seat(_), Some(board), true) = (turn, game.board(), san_ok) {
            let rec = san.get_or_insert_with(|| SanRecord {
                start_fen: board.fen(),
                chess960: board.is_chess960(),
                sans: Vec::new(),
                black_first: board.turn() == engine::Color::Black,
                fullmove: board.fullmoves(),
            });
            match board.parse_move(text) {
                Ok(mv) => rec.sans.push(board.san(mv)),
                Err(_) => san_ok = false,
            }
        } else if san.is_some() || !matches!(turn, Turn::Chance) {
            san_ok = false;
        }
        game = engine::game::replay(game, &[*text])
            .map_err(|e| anyhow!("action {} ('{text}'): {e}", i + 1))?;
    }
    if san.is_none() && san_ok {
        if let Some(board) = game.board() {
            san = Some(SanRecord {
                start_fen: board.fen(),
                chess960: board.is_chess960(),
                sans: Vec::new(),
                black_first: board.turn() == engine::Color::Black,
                fullmove: board.fullmoves(),
            });
        }
    }
    Ok((game, if san_ok { san } else { None }))
}

/// PGN movetext: `1. e4 e5 2. Nf3 ...` (`1... e5` when Black moves first).
pub fn movetext(rec: &SanRecord) -> String {
    let mut s = String::new();
    let mut n = rec.fullmove;
    let mut black = rec.black_first;
    for (i, san) in rec.sans.iter().enumerate() {
        if !black {
            let _ = write!(s, "{n}. ");
        } else if i == 0 {
            let _ = write!(s, "{n}... ");
        }
        s.push_str(san);
        s.push(' ');
        if black {
            n += 1;
        }
        black = !black;
    }
    s.trim_end().to_string()
}

fn pgn_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One PGN game for a row.
fn pgn_for(row: &Row, rec: &SanRecord) -> Result<String> {
    if row.agents.len() != 2 {
        bail!("PGN needs a two-player game");
    }
    let result = match row.result.as_str() {
        r @ ("1-0" | "0-1" | "1/2-1/2") => r,
        other => bail!("result '{other}' has no PGN form"),
    };
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        let _ = writeln!(s, "[{k} \"{}\"]", pgn_escape(v));
    };
    tag(&mut s, "Event", "chesslab tournament");
    tag(&mut s, "Site", "chesslab");
    tag(&mut s, "Date", "????.??.??");
    tag(&mut s, "Round", &(row.index + 1).to_string());
    tag(&mut s, "White", &row.agents[0]);
    tag(&mut s, "Black", &row.agents[1]);
    tag(&mut s, "Result", result);
    let standard = rec.start_fen == engine::Board::startpos().fen();
    if rec.chess960 {
        tag(&mut s, "Variant", "Chess960");
    }
    if rec.chess960 || !standard {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &rec.start_fen);
    }
    tag(&mut s, "PlyCount", &rec.sans.len().to_string());
    tag(
        &mut s,
        "Termination",
        match row.reason.as_str() {
            "cap" | "adjudication-draw" | "adjudication-resign" => "adjudication",
            "forfeit-time" => "time forfeit",
            r if r.starts_with("forfeit-") => "rules infraction",
            _ => "normal",
        },
    );
    tag(&mut s, "Seed", &row.seed.to_string());
    s.push('\n');
    let text = format!("{} {{{}}} {}", movetext(rec), row.reason, result);
    // Lines of at most 80 characters.
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > 80 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    Ok(s)
}

struct ReplayRow<'a> {
    row: &'a Row,
    params_text: Option<&'a str>,
    want_pgn: bool,
}

impl VariantVisitor for ReplayRow<'_> {
    type Output = Result<Replayed>;
    fn visit<G: Game>(self, _name: &'static str, params: G::Params) -> Result<Replayed> {
        let row = self.row;
        let digest = digest_hex(&params_canonical(&params));
        if digest != row.params_digest {
            bail!(
                "the parameters (digest {digest}) are not those the game was played with ({}){}",
                row.params_digest,
                if self.params_text.is_none() {
                    "; pass --params"
                } else {
                    ""
                }
            );
        }
        let start = crate::run::openings::row_start::<G>(&params, row)?;
        let actions: Vec<&str> = row.actions.split_whitespace().collect();
        let (game, san) = replay_with_san(start, &actions)?;
        // A forfeit or an adjudication ends a game the rules have not ended: the moves
        // must replay, and the recorded result stands.
        let external = game.turn() != Turn::Terminal
            && crate::run::adjudication::external_reason(&row.reason)
            && row.returns.len() == game.num_seats();
        if game.turn() != Turn::Terminal && !external {
            bail!("the recorded actions do not finish the game");
        }
        let (returns, reason) = if external {
            (row.returns.clone(), row.reason.clone())
        } else {
            let r = game
                .result()
                .ok_or_else(|| anyhow!("terminal state without a result"))?;
            (r.returns[..game.num_seats()].to_vec(), r.reason.to_string())
        };
        let final_position = match game.board() {
            Some(b) => b.fen(),
            None => game.observation(0),
        };
        let pgn = self.want_pgn.then(|| match &san {
            Some(rec) => pgn_for(row, rec),
            None => Err(anyhow::Error::new(NoPgn)),
        });
        Ok(Replayed {
            final_position,
            result: result_text(&returns),
            returns,
            reason,
            plies: actions.len(),
            pgn,
            tally_labels: game
                .tallies()
                .iter()
                .filter_map(|(n, v)| game.tally_label(n, *v).map(|l| (n.clone(), l)))
                .collect(),
            tallies: game.tallies(),
            seat_names: (0..game.num_seats()).map(|s| game.seat_name(s)).collect(),
            cooperative: game.facts().utility == engine::game::Utility::Identical,
        })
    }
}

pub(crate) fn replay_row(row: &Row, params_text: Option<&str>, want_pgn: bool) -> Result<Replayed> {
    registry::visit(
        &row.variant,
        params_text,
        ReplayRow {
            row,
            params_text,
            want_pgn,
        },
    )?
}

/// How the replay contradicts the recorded result, if it does.
pub(crate) fn contradiction(row: &Row, r: &Replayed) -> Option<String> {
    let mut differ = Vec::new();
    if r.result != row.result {
        differ.push(format!(
            "result: recorded {}, replayed {}",
            row.result, r.result
        ));
    }
    if r.reason != row.reason {
        differ.push(format!(
            "reason: recorded {}, replayed {}",
            row.reason, r.reason
        ));
    }
    if r.returns != row.returns {
        // Name the seat count when that is the difference (a 3-seat row in a chess game).
        let seats = if r.returns.len() != row.returns.len() {
            format!(
                " ({} seats recorded, the game has {})",
                row.returns.len(),
                r.returns.len()
            )
        } else {
            String::new()
        };
        differ.push(format!(
            "returns: recorded {}, replayed {}{seats}",
            returns_text(&row.returns),
            returns_text(&r.returns)
        ));
    }
    (!differ.is_empty()).then(|| {
        format!(
            "{} differ{} ({})",
            if differ.len() == 1 {
                "one field"
            } else {
                "fields"
            },
            if differ.len() == 1 { "s" } else { "" },
            differ.join("; ")
        )
    })
}

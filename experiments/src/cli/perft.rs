//! `chesslab perft`: node counts for the engine's move generator, with `--divide` per
//! root move so counts can be compared move by move with other engines.

use crate::util::outln;
use anyhow::{bail, Context, Result};
use clap::Args;
use engine::game::Game;
use engine::registry::{self, VariantVisitor};
use engine::{chess960, perft, Board};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(long, short, value_parser = crate::util::any_u32)]
    pub depth: u32,
    /// Start from this FEN (X-FEN and Shredder-FEN accepted).
    #[arg(long, conflicts_with = "chess960")]
    pub fen: Option<String>,
    /// Start from Chess960 position N (Scharnagl number 0..959; 518 is orthodox).
    #[arg(long, value_name = "N", value_parser = crate::util::chess960_number)]
    pub chess960: Option<u16>,
    /// Read the FEN's castling field as Chess960 (X-FEN: K/Q = outermost rook).
    #[arg(long)]
    pub frc: bool,
    /// Count any variant's action tree through the game API (e.g. `half-alice`);
    /// `--fen` is then the variant's opening text.
    #[arg(long)]
    pub variant: Option<String>,
    /// Print the count for every root move (chess only).
    #[arg(long)]
    pub divide: bool,
    /// Play every leaf move (make/unmake) instead of counting the last ply in bulk (chess
    /// only).
    #[arg(long)]
    pub full: bool,
}

struct VariantPerft<'a>(&'a PerftArgs);

impl VariantVisitor for VariantPerft<'_> {
    type Output = Result<()>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Result<()> {
        let args = self.0;
        let mut game = match &args.fen {
            Some(text) => G::from_opening(&params, text)
                .with_context(|| format!("reading the {name} opening '{text}'"))?,
            None => G::new(&params),
        };
        let start = Instant::now();
        let nodes = engine::game::perft(&mut game, args.depth);
        report(nodes, start.elapsed().as_secs_f64());
        Ok(())
    }
}

fn report(nodes: u64, secs: f64) {
    outln!("nodes {nodes}");
    outln!("seconds {secs:.3}");
    outln!("nps {:.0}", nodes as f64 / secs.max(1e-9));
}

pub fn run(args: &PerftArgs) -> Result<()> {
    if let Some(v) = &args.variant {
        if v != "chess" {
            // These flags drive the chess board's own perft; the game-API count has no
            // per-move split, no bulk counting and no numbered start, so they are refused
            // rather than ignored.
            for (given, flag) in [
                (args.divide, "--divide"),
                (args.full, "--full"),
                (args.chess960.is_some(), "--chess960"),
                (args.frc, "--frc"),
            ] {
                if given {
                    bail!("{flag} works only with chess (the board perft), not --variant {v}; drop it, or use --variant chess");
                }
            }
            if args.depth > 12 {
                bail!("--depth {}: too deep for a variant perft", args.depth);
            }
            return registry::visit(v, None, VariantPerft(args))?;
        }
    }
    let mut board = match (&args.fen, args.chess960) {
        (Some(fen), _) => if args.frc {
            Board::from_fen_960(fen)
        } else {
            Board::from_fen(fen)
        }
        .with_context(|| format!("reading --fen '{fen}'"))?,
        (None, Some(n)) => {
            if n >= 960 {
                bail!("--chess960 {n}: Chess960 positions are numbered 0..959");
            }
            chess960::start_position(n)
        }
        (None, None) => Board::startpos(),
    };
    if args.depth > 20 {
        bail!(
            "--depth {}: deeper than 20 plies would not finish",
            args.depth
        );
    }
    let start = Instant::now();
    let nodes = if args.divide {
        let rows = perft::divide(&mut board, args.depth);
        for (mv, n) in &rows {
            outln!("{mv}: {n}");
        }
        outln!();
        rows.iter().map(|r| r.1).sum()
    } else if args.full {
        perft::perft_full(&mut board, args.depth)
    } else {
        perft::perft(&mut board, args.depth)
    };
    report(nodes, start.elapsed().as_secs_f64());
    Ok(())
}

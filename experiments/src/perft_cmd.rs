//! `chesslab perft`: node counts for the engine's move generator, with `--divide` per
//! root move so counts can be compared move by move with other engines.

use anyhow::{bail, Context, Result};
use clap::Args;
use engine::{chess960, perft, Board};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(long, short)]
    pub depth: u32,
    /// Start from this FEN (X-FEN and Shredder-FEN accepted).
    #[arg(long, conflicts_with = "chess960")]
    pub fen: Option<String>,
    /// Start from Chess960 position N (Scharnagl number 0..959; 518 is orthodox).
    #[arg(long, value_name = "N")]
    pub chess960: Option<u16>,
    /// Read the FEN's castling field as Chess960 (X-FEN: K/Q = outermost rook).
    #[arg(long)]
    pub frc: bool,
    /// Print the count for every root move.
    #[arg(long)]
    pub divide: bool,
    /// Play every leaf move (make/unmake) instead of counting the last ply in bulk.
    #[arg(long)]
    pub full: bool,
}

pub fn run(args: &PerftArgs) -> Result<()> {
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
            println!("{mv}: {n}");
        }
        println!();
        rows.iter().map(|r| r.1).sum()
    } else if args.full {
        perft::perft_full(&mut board, args.depth)
    } else {
        perft::perft(&mut board, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!("seconds {secs:.3}");
    println!("nps {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}

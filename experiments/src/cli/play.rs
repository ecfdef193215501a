//! `chesslab play`: one game between agents, printed as a record.

use crate::run::gameplay::{catch, play_game};
use crate::run::replay::{movetext, replay_with_san};
use crate::run::variant_args::VariantArgs;
use crate::util::outln;
use crate::util::{result_text, split_agents};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use engine::game::Game;
use engine::registry::VariantVisitor;

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// One agent spec per seat, comma-separated (`random,greedy`); `chesslab agents`
    /// lists every agent with its settings.
    #[arg(long)]
    pub agents: String,
    /// Seed: agents' streams are mix(seed, seat + 1), chance draws from mix(seed, 0).
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
    /// Start from this position (FEN for chess-like variants).
    #[arg(long)]
    pub opening: Option<String>,
}

struct Play<'a>(&'a PlayArgs, Vec<String>);

impl VariantVisitor for Play<'_> {
    type Output = Result<()>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Result<()> {
        let Play(args, specs) = self;
        let start = match &args.opening {
            Some(fen) => G::from_opening(&params, fen).map_err(|e| anyhow!("--opening: {e}"))?,
            None => G::new(&params),
        };
        let seats = start.num_seats();
        if specs.len() != seats {
            bail!(
                "--agents: {name} has {seats} seat(s) but {} agent(s) were given",
                specs.len()
            );
        }
        let mut agents = specs
            .iter()
            .map(|s| agents::registry::build::<G>(s).with_context(|| format!("--agents: '{s}'")))
            .collect::<Result<Vec<_>>>()?;
        let played = catch("the game", || {
            play_game(&start, &mut agents, args.seed, args.seed, None)
        })?
        .ok_or_else(|| anyhow!("the game was interrupted"))?;
        outln!("variant {name}, seed {}", args.seed);
        for (s, spec) in specs.iter().enumerate() {
            outln!("{}: {spec}", start.seat_name(s));
        }
        let actions: Vec<&str> = played.actions.iter().map(String::as_str).collect();
        let san = replay_with_san(start.clone(), &actions)
            .ok()
            .and_then(|(_, san)| san);
        match san {
            Some(rec) => {
                if rec.chess960 || rec.start_fen != engine::Board::startpos().fen() {
                    outln!("start: {}", rec.start_fen);
                }
                outln!("{}", movetext(&rec));
            }
            None => {
                for (i, a) in played.actions.iter().enumerate() {
                    outln!("{:>4}. {a}", i + 1);
                }
            }
        }
        outln!("actions: {}", played.actions.join(" "));
        outln!(
            "result {} ({}) after {} plies",
            result_text(&played.returns),
            played.reason,
            played.plies()
        );
        Ok(())
    }
}

pub fn run(args: &PlayArgs) -> Result<()> {
    let specs = split_agents(&args.agents)?;
    if specs.is_empty() {
        bail!("--agents: no agent given");
    }
    args.variant.visit(Play(args, specs))?
}

//! `chesslab trace`: arguments, the games' schedule and seeds, and where the JSON lines
//! go (standard output, or a file written atomically). The format and the walk over a
//! game are [`crate::run::trace`].

use crate::run::interrupt::INTERRUPTED;
use crate::run::matches;
use crate::run::trace::{trace_game, Step, Tallies, TraceResult};
use crate::util::{out, split_agents};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use engine::game::Game;
use engine::registry::VariantVisitor;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("who").required(true).args(["agent", "agents"])))]
pub struct TraceArgs {
    #[command(flatten)]
    pub variant: crate::run::variant_args::VariantArgs,
    /// Start from this position (FEN for chess-like variants).
    #[arg(long)]
    pub opening: Option<String>,
    /// One agent spec for every seat (`random`, `alphabeta:depth=2`).
    #[arg(long)]
    pub agent: Option<String>,
    /// One agent spec per seat, comma-separated, in seat order (`random,greedy`).
    #[arg(long)]
    pub agents: Option<String>,
    /// Number of games.
    #[arg(long, value_parser = crate::util::positive_u64, default_value_t = 1)]
    pub games: u64,
    /// Seed: game i has seed mix(seed, i), as in a tournament.
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
    /// Write the JSON lines to this file (atomically) instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Overwrite an existing --out file.
    #[arg(long)]
    pub force: bool,
    /// Add each seat's observation to every step.
    #[arg(long)]
    pub observations: bool,
}

/// One output line.
#[derive(Serialize)]
struct Line<'a> {
    variant: &'a str,
    params: &'a serde_json::Value,
    seed: u64,
    game: u64,
    game_seed: u64,
    chance_seed: u64,
    agents: &'a [String],
    opening: Option<&'a str>,
    steps: &'a [Step],
    result: &'a TraceResult,
    tallies: &'a Tallies,
    #[serde(skip_serializing_if = "Option::is_none")]
    final_observations: Option<&'a [String]>,
}

/// Where the lines go: standard output, or a temporary file renamed over `--out` at the
/// end (and removed if the run fails).
enum Sink {
    Stdout,
    File {
        tmp: PathBuf,
        dest: PathBuf,
        force: bool,
        writer: Option<std::io::BufWriter<std::fs::File>>,
    },
}

impl Sink {
    fn open(out: Option<&Path>, force: bool) -> Result<Sink> {
        let Some(dest) = out else {
            return Ok(Sink::Stdout);
        };
        let name = dest
            .file_name()
            .ok_or_else(|| anyhow!("--out {}: not a file name", dest.display()))?
            .to_string_lossy()
            .into_owned();
        let tmp = dest.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        let file = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        crate::run::interrupt::remove_on_exit(&tmp);
        Ok(Sink::File {
            tmp,
            dest: dest.to_path_buf(),
            force,
            writer: Some(std::io::BufWriter::new(file)),
        })
    }

    fn line(&mut self, text: &str) -> Result<()> {
        match self {
            Sink::Stdout => {
                out!("{text}\n");
                Ok(())
            }
            Sink::File { tmp, writer, .. } => {
                let w = writer
                    .as_mut()
                    .ok_or_else(|| anyhow!("internal: the output is closed"))?;
                w.write_all(text.as_bytes())
                    .and_then(|_| w.write_all(b"\n"))
                    .with_context(|| format!("cannot write {}", tmp.display()))
            }
        }
    }

    fn finish(mut self) -> Result<()> {
        let Sink::File {
            tmp,
            dest,
            force,
            writer,
        } = &mut self
        else {
            return Ok(());
        };
        let file = writer
            .take()
            .ok_or_else(|| anyhow!("internal: the output is closed"))?
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all().map(|_| f))
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        drop(file);
        // Checked again: the file may have appeared while the games were played.
        crate::util::replaceable(dest, "--out")?;
        if !*force && dest.exists() {
            bail!(
                "{} already exists: refusing to overwrite it (add --force)",
                dest.display()
            );
        }
        std::fs::rename(&*tmp, &*dest)
            .with_context(|| format!("cannot rename {} to {}", tmp.display(), dest.display()))?;
        // Renamed: nothing left for `drop` or a second Ctrl-C to remove.
        crate::run::interrupt::keep_on_exit(tmp);
        *tmp = PathBuf::new();
        Ok(())
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Sink::File { tmp, writer, .. } = self {
            drop(writer.take());
            if !tmp.as_os_str().is_empty() {
                let _ = std::fs::remove_file(&*tmp);
                crate::run::interrupt::keep_on_exit(tmp);
            }
        }
    }
}

struct Visitor<'a> {
    args: &'a TraceArgs,
    /// One spec per seat, or one for every seat (`--agent`).
    specs: Vec<String>,
}

impl VariantVisitor for Visitor<'_> {
    type Output = Result<()>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Result<()> {
        let Visitor { args, specs } = self;
        let start = match &args.opening {
            Some(text) => G::from_opening(&params, text).context("--opening")?,
            None => G::new(&params),
        };
        let seats = start.num_seats();
        let specs = if args.agent.is_some() {
            vec![specs[0].clone(); seats]
        } else if specs.len() == seats {
            specs
        } else {
            bail!(
                "--agents: {name} has {seats} seat(s) but {} agent(s) were given (or use --agent SPEC for every seat)",
                specs.len()
            );
        };
        for s in &specs {
            agents::registry::build::<G>(s).with_context(|| format!("agent '{s}'"))?;
        }
        let params_json =
            serde_json::to_value(&params).context("cannot write the parameters as JSON")?;
        // The schedule of one tournament matchup (two placeholder agents, or one in a
        // one-seat game), for its game and chance seeds.
        let plan = matches::Plan::new(
            vec![String::new(); seats.min(2)],
            seats,
            false,
            args.games,
            args.seed,
            None,
        )?;
        if plan.total() != Some(args.games) {
            bail!("internal: the schedule has {:?} games", plan.total());
        }
        if let Some(out) = &args.out {
            let inputs: Vec<&std::path::Path> =
                args.variant.params.as_deref().into_iter().collect();
            crate::util::check_output(out, &inputs, args.force, "--out")?;
        }
        // Installed before the temporary file exists, so a second Ctrl-C can remove it.
        crate::run::interrupt::stop_on_ctrl_c(
            "stopping after the game in progress (Ctrl-C again to stop now)",
            "stopped; nothing was written to --out",
        );
        let mut sink = Sink::open(args.out.as_deref(), args.force)?;
        let mut written = 0u64;
        for slot in plan.slots() {
            if INTERRUPTED.load(Ordering::SeqCst) {
                break;
            }
            let slot = &slot;
            let (game_seed, _, _) = plan.expected(slot);
            let chance_seed = plan.chance_seed(slot);
            let mut agents = specs
                .iter()
                .map(|s| agents::registry::build::<G>(s).map_err(|e| anyhow!(e)))
                .collect::<Result<Vec<_>>>()?;
            let traced = trace_game(
                &start,
                &mut agents,
                game_seed,
                chance_seed,
                args.observations,
            )
            .with_context(|| format!("game {}", slot.index))?;
            let line = Line {
                variant: name,
                params: &params_json,
                seed: args.seed,
                game: slot.index,
                game_seed,
                chance_seed,
                agents: &specs,
                opening: args.opening.as_deref(),
                steps: &traced.steps,
                result: &traced.result,
                tallies: &traced.tallies,
                final_observations: traced.final_observations.as_deref(),
            };
            let text = serde_json::to_string(&line)
                .with_context(|| format!("game {}: cannot write JSON", slot.index))?;
            sink.line(&text)?;
            written += 1;
        }
        let to = args.out.as_ref().map_or_else(
            || "standard output".to_string(),
            |p| p.display().to_string(),
        );
        sink.finish()?;
        if INTERRUPTED.load(Ordering::SeqCst) && written < args.games {
            bail!(
                "interrupted: {written} of {} games written to {to}, each line a whole game",
                args.games
            );
        }
        Ok(())
    }
}

pub fn run(args: &TraceArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let specs = match (&args.agent, &args.agents) {
        (Some(one), None) => {
            let one = one.trim();
            if one.is_empty() {
                bail!("--agent: no agent given");
            }
            if split_agents(one)?.len() > 1 {
                bail!(
                    "--agent takes one spec for every seat; give one per seat with --agents A,B,.."
                );
            }
            vec![one.to_string()]
        }
        (None, Some(list)) => {
            let specs = split_agents(list)?;
            if specs.is_empty() {
                bail!("--agents: no agent given");
            }
            specs
        }
        _ => bail!("give either --agent SPEC or --agents A,B,.."),
    };
    args.variant.visit(Visitor { args, specs })?
}

//! `chesslab ext-bot --variant V --agent SPEC`: any chesslab agent as an outside bot of
//! the ext protocol ([`crate::run::ext_bot`]) on standard input and output, so one build
//! plays another through `ext:cmd=...` (docs/ext-protocol.md, docs/guide/strength.md).
//!
//! Decision (issue 66): the `cmd` value of an `ext` spec may not contain `,`, `;` or
//! `:`, so `--agent` takes `%XX` escapes (`alphabeta%3Adepth=3%2Cworlds=4`), and
//! `--agent-file` reads the spec from a file. A panic anywhere (a bug, not bad input,
//! which is an error) ends the program with one `error:` line and exit status 1, as
//! `chesslab uci` does. Tests: `experiments/tests/ext_bot.rs`.

use crate::run::ext_bot;
use crate::run::variant_args::VariantArgs;
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ExtBotArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// The agent to serve (`greedy`, `alphabeta:depth=3`, ...; `chesslab agents`). Inside
    /// `ext:cmd=...` write `:` as `%3A` and `,` as `%2C` (`alphabeta%3Adepth=3%2Cworlds=4`).
    #[arg(
        long,
        required_unless_present = "agent_file",
        conflicts_with = "agent_file"
    )]
    pub agent: Option<String>,
    /// A file holding the agent spec (its first non-blank line), instead of --agent.
    #[arg(long)]
    pub agent_file: Option<PathBuf>,
    /// Seed: game k's agent stream is mix(seed, 2k), the same messages give the same answers.
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(args: &ExtBotArgs) -> Result<()> {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("unknown failure");
        let _ = writeln!(
            std::io::stderr(),
            "error: ext-bot failed: {}",
            what.replace('\n', " ")
        );
        std::process::exit(1);
    }));
    let spec = match (&args.agent, &args.agent_file) {
        (Some(a), _) => ext_bot::decode_spec(a)?,
        (None, Some(f)) => {
            let text = std::fs::read_to_string(f)
                .with_context(|| format!("--agent-file: cannot read {}", f.display()))?;
            text.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .with_context(|| format!("--agent-file {}: no spec in it", f.display()))?
                .to_string()
        }
        (None, None) => anyhow::bail!("--agent or --agent-file is required"),
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout().lock();
    let stats = ext_bot::run(&args.variant, &spec, args.seed, &mut input, &mut output)?;
    if stats.relaxed + stats.lost > 0 {
        eprintln!(
            "ext-bot: decisions from a state that explains the observation: {}, from a \
             redrawn past: {}, from a state with the same legal actions only: {}, random: {}",
            stats.exact, stats.redrawn, stats.relaxed, stats.lost
        );
    }
    Ok(())
}

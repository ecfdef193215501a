//! `chesslab uci --agent SPEC`: the UCI engine of [`crate::serve::uci`] on standard
//! input and output.
//!
//! Decision (issue 39): a search that fails (an outside engine behind `--agent
//! uci:cmd=...` crashed, so the agent cannot answer) ends the program: one `info string
//! error: ...` line on standard output for the GUI's log, `error: ...` on standard error
//! and exit status 1. No `bestmove` is invented for a search that never finished, and the
//! engine never sits silent with exit status 0 (it used to: the search thread panicked
//! and the loop waited for a result that would never come). The hook catches a panic on
//! any thread of this command, so the rule holds whatever fails. Test:
//! `rule_uci_cmd_crashing_outside_engine_is_an_error` (tests/outside_bots.rs).

use anyhow::Result;
use clap::Args;
use std::io::Write;

#[derive(Args, Debug)]
pub struct UciArgs {
    /// The agent to play (`alphabeta:depth=8`, `mcts:iters=2000`, ...; `chesslab agents`
    /// lists them all with their keys).
    #[arg(long)]
    pub agent: String,
}

pub fn run(args: &UciArgs) -> Result<()> {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("unknown failure");
        let what = what.replace('\n', " ");
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "info string error: the search failed: {what}");
        let _ = out.flush();
        let _ = writeln!(
            std::io::stderr(),
            "error: the search failed, no move to send: {what}"
        );
        std::process::exit(1);
    }));
    crate::serve::uci::run(&args.agent)
}

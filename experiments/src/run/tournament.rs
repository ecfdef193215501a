//! `chesslab tournament`: many games between agents, in parallel, reproducibly.
//!
//! The schedule, seeds, shards and SPRT stop are [`crate::run::matches`]'s; this module adds
//! the command line, the output folder (games.csv appended and flushed per game,
//! timings.csv, run.json, standings), `--resume`, and the summary.
//!
//! Issue 68: the folder is `--out` or `runs/tournaments/<variant>-<seed>` (ignored by
//! git, never `results/`), and one that holds anything is refused unless `--resume`
//! ([`crate::util::check_out_dir`]). A resume compares the command line with run.json
//! before the rows, so a mismatch is named as the flags were typed (`played with --seed
//! 5, this command has --seed 6`), not by derived game seeds. Tests:
//! `experiments/tests/front_door.rs` (`a_resume_with_another_seed_names_the_flag`,
//! `default_outputs_go_where_git_ignores_them`).

use crate::record::{self, Row};
use crate::run::adjudication::{Adjudication, DrawRule, ResignRule};
use crate::run::gameplay::PlayOptions;
use crate::run::interrupt::INTERRUPTED;
use crate::run::matches::{self, Starts};
use crate::run::progress;
use crate::run::shard::{self, Shard};
use crate::run::variant_args::VariantArgs;
use crate::stats::standings::{self, Standings};
use crate::stats::{Sprt, SprtModel};
use crate::util::outln;
use crate::util::{digest_hex, params_canonical, split_agents};
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use engine::game::Game;
use engine::registry::VariantVisitor;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SprtModelArg {
    /// Bounds in logistic Elo (fishtest LLR_logistic, exact generalised LLR).
    Logistic,
    /// Bounds in normalised Elo (fishtest LLR_normalized).
    Normalized,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OpeningOrder {
    /// In file order.
    Sequential,
    /// Shuffled once by the run's seed.
    Random,
}

#[derive(Args, Debug, Clone)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Agent specs, comma-separated (`random,greedy,alphabeta:depth=3`); `chesslab
    /// agents` lists every agent with its settings.
    #[arg(long)]
    pub agents: String,
    /// Games per matchup (played in colour-swapped pairs).
    #[arg(long, value_parser = crate::util::positive_u64)]
    pub games: u64,
    /// The first agent plays each other agent (instead of every pair).
    #[arg(long)]
    pub gauntlet: bool,
    /// One time control for every agent that keeps a clock (`tc=` of `alphabeta`, `uci`,
    /// `ext`), moves/seconds+increment (`10+0.1`, `40/60+0.6`): agents compared at equal
    /// time. A spec giving its own `tc`, `time_ms` or `movetime` keeps it; an agent
    /// that plays by iterations (`mcts`, ...) must be given `time_ms` (docs/guide/tournaments.md).
    #[arg(long)]
    pub tc: Option<String>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = crate::util::positive_usize)]
    pub threads: Option<usize>,
    /// Master seed.
    #[arg(long, value_parser = crate::util::any_u64, default_value_t = 1)]
    pub seed: u64,
    /// Opening book: EPD/FEN (one position per line, `#` comments) or PGN (each game's
    /// main line); one opening per round, shared by both games of a colour-swapped pair.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// The order the book is played in (random: shuffled once by --seed).
    #[arg(long, value_enum, default_value = "sequential")]
    pub opening_order: OpeningOrder,
    /// Plies of each PGN game to play before the agents take over (default: all).
    #[arg(long)]
    pub opening_plies: Option<u32>,
    /// Uniformly random plies (seeded; the same for both games of a pair) before the
    /// agents take over, for any variant.
    #[arg(long, default_value_t = 0)]
    pub random_opening_plies: u32,
    /// Draw adjudication from engine scores: movenumber=N,movecount=M,score=CP.
    #[arg(long)]
    pub draw: Option<String>,
    /// Resign adjudication from engine scores: movecount=M,score=CP.
    #[arg(long)]
    pub resign: Option<String>,
    /// Pentanomial SPRT `elo0,elo1,alpha,beta` (two agents): stops when decided.
    /// `elo0` may be negative (`--sprt -5,5,0.05,0.05`).
    #[arg(long, allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// Which Elo the SPRT bounds are in.
    #[arg(long, value_enum, default_value = "logistic")]
    pub sprt_model: SprtModelArg,
    /// Output folder (default runs/tournaments/<variant>-<seed>, which git ignores). A
    /// folder that holds anything is refused unless --resume.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue an interrupted run in --out from its games.csv.
    #[arg(long)]
    pub resume: bool,
    /// Play only shard i of n (`i/n`, 0-based): pairs with pair number ≡ i mod n.
    /// `auto/n` takes i from the scheduler (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or
    /// HQ_TASK_ID), writes to `<out>/shard-<i>-of-<n>` and resumes that folder if it exists.
    #[arg(long)]
    pub shard: Option<String>,
    /// With `--shard auto/n`: the environment variable holding the task index.
    #[arg(long, value_name = "VAR")]
    pub shard_index_env: Option<String>,
}

/// Worker threads beyond this many per core only cost memory and start-up time.
const THREADS_PER_CORE: usize = 4;

fn max_threads(cores: usize) -> usize {
    cores.saturating_mul(THREADS_PER_CORE).max(THREADS_PER_CORE)
}

/// Everything fixed before the variant's type is known.
struct Plan {
    args: TournamentArgs,
    specs: Vec<String>,
    params_text: Option<String>,
    openings: Vec<(usize, String)>,
    options: PlayOptions,
    shard: Option<(u64, u64)>,
    /// `i/n` of this shard, as recorded.
    shard_text: Option<String>,
    sprt: Option<Sprt>,
    out: PathBuf,
    threads: usize,
}

pub fn run(args: &TournamentArgs) -> Result<()> {
    let mut specs = split_agents(&args.agents)?;
    if specs.is_empty() {
        bail!("--agents: no agent given");
    }
    if let Some(tc) = &args.tc {
        specs = crate::run::time_control::with_tc(&specs, tc)?;
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let shard = parsed_shard(args)?;
    let model = match args.sprt_model {
        SprtModelArg::Logistic => SprtModel::Logistic,
        SprtModelArg::Normalized => SprtModel::Normalized,
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(|t| Sprt::parse(t, model).map_err(|e| anyhow!(e)))
        .transpose()?;
    if sprt.is_some() {
        if specs.len() != 2 {
            bail!("--sprt needs exactly two agents (got {})", specs.len());
        }
        if shard.is_some() {
            bail!("--sprt cannot be combined with --shard (the test needs every pair)");
        }
    }
    // The schedule is computed game by game (never listed), so any count that can be
    // numbered is accepted; this refuses one that cannot before anything is read.
    matches::Plan::new(
        specs.clone(),
        2,
        args.gauntlet,
        args.games,
        args.seed,
        shard.as_ref().map(|s| (s.index, s.count)),
    )?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) if t > max_threads(cores) => {
            eprintln!(
                "note: --threads {t} capped at {} ({THREADS_PER_CORE} per core on {cores} core(s)); the results do not depend on it",
                max_threads(cores)
            );
            max_threads(cores)
        }
        Some(t) => t,
        None => cores,
    };
    let params_text = args.variant.params_text()?;
    let openings = match &args.openings {
        Some(p) => crate::run::openings::order(
            crate::run::openings::read_book(p, args.opening_plies)?,
            args.opening_order == OpeningOrder::Random,
            args.seed,
        ),
        None if args.opening_plies.is_some() => bail!("--opening-plies needs --openings"),
        None => Vec::new(),
    };
    let out = run_folder(args)?;
    let mut args = args.clone();
    // A scheduler runs a task again after a failure: it continues its own folder.
    if shard.as_ref().is_some_and(|s| s.from_env.is_some()) && out.join("games.csv").exists() {
        args.resume = true;
    }
    crate::util::check_out_dir(
        &out,
        "--out",
        &[crate::util::Reuse {
            flag: "--resume",
            given: args.resume,
            does: "to continue the run there",
        }],
    )?;
    let options = PlayOptions {
        adjudication: Adjudication {
            draw: args.draw.as_deref().map(DrawRule::parse).transpose()?,
            resign: args.resign.as_deref().map(ResignRule::parse).transpose()?,
        },
        random_plies: args.random_opening_plies,
        tallies: false,
    };
    let plan = Plan {
        args: args.clone(),
        specs,
        params_text,
        openings,
        shard: shard.as_ref().map(|s| (s.index, s.count)),
        shard_text: shard.as_ref().map(Shard::text),
        options,
        sprt,
        out,
        threads,
    };
    let params_text = plan.params_text.clone();
    crate::run::variant_args::visit_named(
        &args.variant.variant,
        args.variant.params.as_deref(),
        params_text.as_deref(),
        Visitor(plan),
    )?
}

/// The `--shard` option, resolved (an `auto` index read from the environment).
fn parsed_shard(args: &TournamentArgs) -> Result<Option<Shard>> {
    match (&args.shard, &args.shard_index_env) {
        (Some(t), env) => shard::from_args(t, env.as_deref()).map(Some),
        (None, Some(_)) => bail!("--shard-index-env needs --shard auto/N"),
        (None, None) => Ok(None),
    }
}

/// The folder this process writes: [`out_dir`], or an `auto` shard's folder inside it.
pub fn run_folder(args: &TournamentArgs) -> Result<PathBuf> {
    let base = out_dir(args);
    Ok(match parsed_shard(args)? {
        Some(s) => s.folder(&base),
        None => base,
    })
}

/// The run's output folder: `--out`, else `runs/tournaments/<variant>-<seed>` (ignored by
/// git: `results/` holds kept evidence only, issue 68).
pub fn out_dir(args: &TournamentArgs) -> PathBuf {
    args.out.clone().unwrap_or_else(|| {
        crate::util::default_out(&[
            "tournaments",
            &format!("{}-{}", args.variant.variant, args.seed),
        ])
    })
}

struct Visitor(Plan);

impl VariantVisitor for Visitor {
    type Output = Result<()>;
    fn visit<G: Game>(self, name: &'static str, params: G::Params) -> Result<()> {
        run_typed::<G>(self.0, name, params)
    }
}

/// Fields of a run's description (`run.json`).
#[derive(serde::Serialize)]
struct RunInfo<'a> {
    command: Vec<String>,
    chesslab_version: &'static str,
    /// The commit the binary was built from (`build.rs`: HEAD at build time, `unknown`
    /// outside a checkout). A saved binary started in a newer checkout records its own
    /// commit here and the checkout's below.
    build_commit: &'static str,
    /// `git describe --dirty` of the checkout the run was started in (or, outside one,
    /// of the binary's folder): the results' repository state, not the player's build.
    git_describe: Option<String>,
    /// The generation of the agents' play ([`agents::EPOCH`]): which strength ratings
    /// apply to the run's players ([`crate::stats::strength`]).
    agents_epoch: u32,
    variant: &'a str,
    params_toml: &'a str,
    params_digest: &'a str,
    agents: &'a [String],
    seats: usize,
    games_per_matchup: u64,
    gauntlet: bool,
    matchups: &'a [Vec<usize>],
    total_games: u64,
    seed: u64,
    seeding: &'static str,
    openings_file: Option<String>,
    openings: Vec<&'a str>,
    opening_order: &'static str,
    random_opening_plies: u32,
    draw: Option<&'a str>,
    resign: Option<&'a str>,
    shard: Option<String>,
    sprt: Option<Sprt>,
    threads: usize,
    resumed: bool,
    /// Every build that played this run's games, first start first
    /// ([`crate::run::builds`]): a resume by another binary keeps the earlier ones.
    builds: Vec<crate::run::builds::BuildStart>,
}

/// Replays every recorded game before a run resumes, as `replay` does: a row whose moves
/// do not replay, or whose result, returns or reason the replay contradicts (a
/// hand-edited result), stops the resume before anything is written, naming each row.
pub(crate) fn verify_rows(
    done: &BTreeMap<u64, Row>,
    params: Option<&str>,
    games: &Path,
) -> Result<()> {
    use rayon::prelude::*;
    let rows: Vec<&Row> = done.values().collect();
    let failures: Vec<String> = rows
        .par_iter()
        .filter_map(|row| {
            let why = match crate::run::replay::replay_row(row, params, false) {
                Err(e) => format!("{e:#}"),
                Ok(r) => crate::run::replay::contradiction(row, &r)?,
            };
            Some(format!("game {}: {why}", row.index))
        })
        .collect();
    if !failures.is_empty() {
        bail!(
            "cannot resume: {} of {} recorded games in {} fail verification (edited by hand?); nothing was changed:\n  {}",
            failures.len(),
            rows.len(),
            games.display(),
            failures.join("\n  ")
        );
    }
    Ok(())
}

/// `git describe` of the checkout the run is started in (tried from the current folder,
/// then from the executable's), if git and a repository are there. Not the binary's
/// build when a saved binary runs in a newer checkout: `build_commit` says that.
fn git_describe() -> Option<String> {
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf));
    let dirs = [Some(PathBuf::from(".")), exe_dir];
    dirs.iter().flatten().find_map(|dir| {
        let out = std::process::Command::new("git")
            .args(["describe", "--always", "--dirty", "--tags"])
            .current_dir(dir)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    })
}

fn run_typed<G: Game>(plan: Plan, name: &'static str, params: G::Params) -> Result<()> {
    // First Ctrl-C: no new game starts, the rows written stay; a second one stops at once
    // (every finished row is already on disk, a torn last line is cleaned by --resume).
    crate::run::interrupt::stop_on_ctrl_c(
        "stopping after the games in progress (Ctrl-C again to stop now)",
        "stopped; the games finished so far are kept (rerun with --resume)",
    );
    let args = &plan.args;
    // Agents: every spec must build for this game.
    for s in &plan.specs {
        agents::registry::build::<G>(s).with_context(|| format!("--agents: '{s}'"))?;
    }
    let starts = start_states::<G>(&plan, &params)?;
    let seats = starts.games[0].num_seats();
    if seats >= 2 && plan.specs.len() < 2 {
        bail!("--agents: a {seats}-seat variant needs at least two agents");
    }
    let schedule = matches::Plan::new(
        plan.specs.clone(),
        seats,
        args.gauntlet,
        args.games,
        args.seed,
        plan.shard,
    )?;
    let mine_count = schedule.mine_count();
    let canon = params_canonical(&params);
    let digest = digest_hex(&canon);

    // Output folder and games.csv.
    let out = &plan.out;
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create output folder {}", out.display()))?;
    let games_path = out.join("games.csv");
    let timings_path = out.join("timings.csv");
    let exists = games_path.exists();
    if exists && !args.resume {
        bail!(
            "{} already exists: refusing to overwrite it (add --resume to continue that run, or choose another --out)",
            games_path.display()
        );
    }
    // Describe the run.
    let info = RunInfo {
        command: std::env::args().collect(),
        chesslab_version: env!("CARGO_PKG_VERSION"),
        build_commit: env!("CHESSLAB_GIT_HASH"),
        git_describe: git_describe(),
        agents_epoch: agents::EPOCH,
        variant: name,
        params_toml: &canon,
        params_digest: &digest,
        agents: &plan.specs,
        seats,
        games_per_matchup: args.games,
        gauntlet: args.gauntlet,
        matchups: &schedule.matchups,
        total_games: schedule.total().unwrap_or(u64::MAX),
        seed: args.seed,
        seeding: matches::SEEDING,
        openings_file: args.openings.as_ref().map(|p| p.display().to_string()),
        openings: plan.openings.iter().map(|o| o.1.as_str()).collect(),
        opening_order: match args.opening_order {
            OpeningOrder::Sequential => "sequential",
            OpeningOrder::Random => "random",
        },
        random_opening_plies: args.random_opening_plies,
        draw: args.draw.as_deref(),
        resign: args.resign.as_deref(),
        shard: plan.shard_text.clone(),
        sprt: plan.sprt,
        threads: plan.threads,
        resumed: args.resume && exists,
        builds: Vec::new(),
    };
    // The run's description first: it names the flags as the user typed them (`--seed
    // 5`), where a row only holds the game's derived seed (issue 68).
    let mut builds = if exists {
        let run_json = out.join("run.json");
        crate::run::builds::recorded(&same_play_settings(&run_json, &info)?).with_context(|| {
            format!(
                "cannot resume: {} cannot say which builds played the run; nothing was changed",
                run_json.display()
            )
        })?
    } else {
        Vec::new()
    };
    let (done, clean_to) = if exists {
        resumed_rows(
            &games_path,
            &schedule,
            &starts,
            name,
            &digest,
            plan.shard.is_some(),
            plan.params_text.as_deref(),
        )?
    } else {
        (BTreeMap::new(), None)
    };
    builds.push(crate::run::builds::BuildStart::this(
        info.git_describe.clone(),
        done.len() as u64,
        info.shard.clone(),
    ));
    let info = RunInfo { builds, ..info };
    let json = serde_json::to_string_pretty(&info)? + "\n";
    record::write_atomic(&out.join("run.json"), json.as_bytes())?;

    // Open (and clean) games.csv.
    let mut games_csv = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&games_path)
        .with_context(|| format!("cannot write {}", games_path.display()))?;
    if let Some(len) = clean_to {
        games_csv
            .set_len(len)
            .with_context(|| format!("cannot clean {}", games_path.display()))?;
    }
    if !exists || clean_to == Some(0) {
        games_csv
            .write_all(&record::header_line())
            .and_then(|_| games_csv.flush())
            .with_context(|| format!("cannot write {}", games_path.display()))?;
    }
    let timings_new = !timings_path.exists() || !args.resume;
    let mut timings_csv = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(!timings_new)
        .truncate(timings_new)
        .open(&timings_path)
        .with_context(|| format!("cannot write {}", timings_path.display()))?;
    if timings_new {
        timings_csv.write_all(b"index,seconds,plies,plies_per_second\n")?;
    }

    let done_count = done.len() as u64;

    // A bar on a terminal, a line per finished game elsewhere (run::progress).
    let shown = progress::for_stderr(Some(mine_count), &done, &plan.specs);

    // Each finished game: its row appended and flushed to games.csv (the record), its
    // timing buffered (a by-product, flushed at the end).
    let mut timings_csv = std::io::BufWriter::new(timings_csv);
    let sink = |row: &Row, secs: f64| -> Result<()> {
        let timing = format!(
            "{},{:.6},{},{:.0}\n",
            row.index,
            secs,
            row.plies,
            row.plies as f64 / secs.max(1e-9)
        );
        games_csv
            .write_all(&row.to_line())
            .and_then(|_| games_csv.flush())
            .and_then(|_| timings_csv.write_all(timing.as_bytes()))
            .with_context(|| format!("cannot write {}", games_path.display()))
    };
    let started = Instant::now();
    let run = matches::Run {
        variant: name,
        params_digest: &digest,
        starts: &starts,
        threads: plan.threads,
        sprt: plan.sprt.as_ref(),
        options: plan.options,
    };
    let outcome = matches::run(&schedule, &run, done, sink, shown.progress())?;
    shown.finish();
    let elapsed = started.elapsed().as_secs_f64();
    let _ = timings_csv.flush();
    let mut sh = outcome;

    // Final, deterministic files.
    if let Some(last) = sh.stop_after {
        sh.rows.retain(|&i, _| i <= last);
    }
    let mut rows: Vec<Row> = sh.rows.into_values().collect();
    record::write_sorted(&games_path, &mut rows)?;
    let st: Standings = standings::compute(&plan.specs, &rows, plan.sprt);
    let title = format!(
        "Standings: {name}, seed {}{}",
        args.seed,
        plan.shard_text
            .as_ref()
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default()
    );
    let mut md = st.markdown(&title);
    if starts.games[0].facts().utility == engine::game::Utility::Identical {
        // No winner in a cooperative game: points and Elo say nothing (every game is a
        // tie between partners); the team's returns are the result.
        md.push_str(&standings::team_markdown(&rows));
    }
    record::write_atomic(&out.join("standings.md"), md.as_bytes())?;
    record::write_atomic(&out.join("standings.csv"), st.csv().as_bytes())?;
    record::write_atomic(&out.join("pairings.csv"), st.pairings_csv().as_bytes())?;
    let played_now = rows.len() - (done_count as usize).min(rows.len());
    outln!("{md}");
    outln!(
        "{} games this session in {:.2}s ({:.1} games/s); files in {}",
        played_now,
        elapsed,
        played_now as f64 / elapsed.max(1e-9),
        out.display()
    );
    if let Some(e) = sh.error {
        return Err(e.context(format!(
            "the run stopped; finished games are kept in {} (fix the problem, then rerun with --resume)",
            games_path.display()
        )));
    }
    if INTERRUPTED.load(Ordering::SeqCst) {
        bail!(
            "interrupted: {} of {} games finished and saved in {}; continue with the same command plus --resume",
            rows.len(),
            mine_count,
            games_path.display()
        );
    }
    if let Some(last) = sh.stop_after {
        outln!(
            "SPRT decided after game {} ({} games); the remaining games were not played.",
            last,
            last + 1
        );
    }
    Ok(())
}

/// The start of each round: the variant's own start, or every line of the openings file.
fn start_states<G: Game>(plan: &Plan, params: &G::Params) -> Result<Starts<G>> {
    let args = &plan.args;
    Ok(if plan.openings.is_empty() {
        Starts {
            games: vec![G::new(params)],
            texts: vec![String::new()],
        }
    } else {
        let file = args
            .openings
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        Starts {
            games: plan
                .openings
                .iter()
                .map(|(line, fen)| {
                    crate::run::openings::start_of::<G>(params, fen)
                        .with_context(|| format!("openings file {file} line {line}"))
                })
                .collect::<Result<_>>()?,
            texts: plan.openings.iter().map(|o| o.1.clone()).collect(),
        }
    })
}

/// A resumed run must play its remaining games as the interrupted one played its first:
/// the settings are compared with the interrupted run's run.json before anything is
/// written: those no row records (random opening plies, draw and resign adjudication)
/// and those the rows do (variant, parameters, agents, seed, gauntlet, openings), since a
/// games.csv with no finished row yet checks nothing. run.json is written before
/// games.csv, so a run.json that is missing, truncated or not a run description means the
/// folder is not what it claims: the resume is refused (issue 39: it used to be taken
/// as no evidence, and a resume with other agents rewrote it). Test:
/// `resume_without_a_readable_run_description_is_refused`.
/// Returns the interrupted run's description (its `builds` carry on).
fn same_play_settings(path: &Path, now: &RunInfo<'_>) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "cannot resume: the run's description {} cannot be read, so the command line cannot be checked against it; nothing was changed (start a new run with another --out)",
            path.display()
        )
    })?;
    let before = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .filter(|v| v.get("agents").is_some_and(|a| a.is_array()) && v.get("seed").is_some())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "cannot resume: {} is not a run description (truncated or edited?), so the command line cannot be checked against it; nothing was changed (start a new run with another --out)",
                path.display()
            )
        })?;
    let now = serde_json::to_value(now)?;
    for (key, flag) in [
        ("variant", "--variant"),
        ("params_digest", "parameters (--params) of digest"),
        ("agents", "--agents"),
        ("seed", "--seed"),
        ("gauntlet", "--gauntlet"),
        ("openings", "--openings"),
        ("opening_order", "--opening-order"),
        ("random_opening_plies", "--random-opening-plies"),
        ("draw", "--draw"),
        ("resign", "--resign"),
        ("agents_epoch", "agents of generation"),
    ] {
        let zero = serde_json::json!(0);
        let (b, n) = (&before[key], &now[key]);
        // Older run.json files have no such key: the settings were the defaults then,
        // and the generation was not recorded (such a run may be resumed by any build).
        let b = if b.is_null() && key == "random_opening_plies" {
            &zero
        } else if b.is_null() && key == "agents_epoch" {
            n
        } else {
            b
        };
        if b != n {
            // As the flag would be typed: `--seed 5`, `--gauntlet`, `no --draw`.
            let show = |v: &serde_json::Value| match v {
                serde_json::Value::Null | serde_json::Value::Bool(false) => format!("no {flag}"),
                serde_json::Value::Bool(true) => flag.to_string(),
                serde_json::Value::String(s) => format!("{flag} {s}"),
                serde_json::Value::Array(a) if a.iter().all(|x| x.is_string()) => format!(
                    "{flag} {}",
                    a.iter()
                        .filter_map(|x| x.as_str())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                other => format!("{flag} {other}"),
            };
            let why = if key == "agents_epoch" {
                " (a newer build plays differently)"
            } else {
                ""
            };
            bail!(
                "cannot resume: the interrupted run in {} was played with {}, this command has {}{why}; the command line must match it (nothing was changed)",
                path.parent().unwrap_or(path).display(),
                show(b),
                show(n)
            );
        }
    }
    Ok(before)
}

/// The rows of an interrupted run in `games_path`, each checked against this run's plan
/// (variant, parameters, seed, seats, agent specs, opening) and replayed; with the length
/// to cut the file back to when its last line is torn.
#[allow(clippy::too_many_arguments)]
fn resumed_rows<G: Game>(
    games_path: &Path,
    schedule: &matches::Plan,
    starts: &Starts<G>,
    name: &str,
    digest: &str,
    sharded: bool,
    params_text: Option<&str>,
) -> Result<(BTreeMap<u64, Row>, Option<u64>)> {
    let mut done: BTreeMap<u64, Row> = BTreeMap::new();
    let mut clean_to: Option<u64> = None;
    let loaded = record::load(games_path).context("cannot resume")?;
    let schedule_seed = schedule.seed;
    for row in loaded.rows {
        let slot = schedule.slot(row.index).filter(|s| schedule.is_mine(s));
        let Some(slot) = slot.as_ref() else {
            bail!(
                "cannot resume: {} holds game {} which is not part of this run{}",
                games_path.display(),
                row.index,
                if sharded { " (or of this shard)" } else { "" }
            );
        };
        let (seed, players, agents) = schedule.expected(slot);
        let (_, opening) = starts.of(slot);
        let mismatch = if row.variant != name {
            Some(format!("variant {} (now {name})", row.variant))
        } else if row.params_digest != digest {
            Some(format!(
                "parameter digest {} (now {digest})",
                row.params_digest
            ))
        } else if row.seed != seed {
            Some(format!(
                "game seed {} where this command's --seed {} gives {seed} (another --seed?)",
                row.seed, schedule_seed
            ))
        } else if row.players != players || row.pair != slot.pair {
            Some("different agents or schedule".into())
        } else if row.agents != agents {
            Some(format!(
                "agents {} (now {}): the specs must be the same, settings included",
                row.agents.join(" vs "),
                agents.join(" vs ")
            ))
        } else if row.opening != opening {
            Some("a different opening".into())
        } else {
            None
        };
        if let Some(m) = mismatch {
            bail!(
                "cannot resume: game {} in {} was played with {m}; the command line must match the interrupted run",
                row.index,
                games_path.display()
            );
        }
        done.insert(row.index, row);
    }
    if loaded.truncated_tail || loaded.complete_len == 0 {
        clean_to = Some(loaded.complete_len as u64);
    }
    verify_rows(&done, params_text, games_path)?;
    Ok((done, clean_to))
}

//! `chesslab tournament`: many games between agents, in parallel, reproducibly.
//!
//! # Schedule
//! `--games N` is the number of games per matchup. Matchups are pairs of agents: every
//! pair (round robin) or the first agent against each other (`--gauntlet`); a one-seat
//! variant plays each agent alone. A matchup (a, b) is played in cycles of two games,
//! the colour swap: in rotation r ∈ {0, 1}, seat s is taken by a when (s + r) is even,
//! else by b. With two seats that is a-b then b-a; with four seats (two teams, partners
//! opposite) it is a-b-a-b then b-a-b-a; with three, a-b-a then b-a-b.
//!
//! Games are numbered round by round: round k holds cycle k of every matchup (in
//! matchup order), and each cycle its rotations; game indices run 0, 1, 2, ... with no
//! gaps (an odd N leaves the last cycle of each matchup one game short). Cycle k of
//! matchup m is pair number `k · matchups + m`.
//!
//! # Seeds
//! Game i has seed `mix(seed, i)` (SplitMix64-based, see `util::mix`): its agents'
//! random streams derive from it. Chance outcomes come from a stream seeded by
//! `mix(seed ^ CHANCE_SALT, k)` and the opening is line `k mod lines` of the openings
//! file, both from the round k: both games of a pair, and every matchup in a round,
//! start from the same opening and the same chance outcomes. Nothing depends on the
//! thread count or the shard, so `games.csv` is identical however the run is split.
//!
//! # Shards
//! `--shard i/n` plays the games whose pair number is ≡ i (mod n): pairs stay whole.
//! Concatenating the shards' games.csv rows and sorting by index gives the whole run's.

use crate::gameplay::{catch, play_game};
use crate::record::{self, Row};
use crate::standings::{self, Standings};
use crate::stats::{self, Pentanomial, Sprt, SprtModel, SprtState};
use crate::util::{digest_hex, mix, params_canonical, result_text, split_agents};
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use engine::game::registry::{self, VariantVisitor};
use engine::game::Game;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Salt for the chance seeds, so they never coincide with game seeds.
const CHANCE_SALT: u64 = 0xC4A2_CE00_0000_0001;

/// Raised by Ctrl-C: no new games start, games in flight are dropped.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SprtModelArg {
    /// Bounds in logistic Elo (fishtest LLR_logistic, GSPRT).
    Logistic,
    /// Bounds in normalised Elo (fishtest LLR_normalized).
    Normalized,
}

#[derive(Args, Debug, Clone)]
pub struct TournamentArgs {
    /// Variant name (see `engine::game::registry::VARIANTS`).
    #[arg(long)]
    pub variant: String,
    /// Agent specs, comma-separated (`random,greedy,alphabeta:depth=3`).
    #[arg(long, long_help = agents::registry::help())]
    pub agents: String,
    /// Games per matchup (played in colour-swapped pairs).
    #[arg(long)]
    pub games: u64,
    /// The first agent plays each other agent (instead of every pair).
    #[arg(long)]
    pub gauntlet: bool,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Openings: one FEN (or 4-field EPD) per line; `#` comments and blank lines ignored.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Variant parameters (TOML).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Pentanomial SPRT `elo0,elo1,alpha,beta` (two agents): stops when decided.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Which Elo the SPRT bounds are in.
    #[arg(long, value_enum, default_value = "logistic")]
    pub sprt_model: SprtModelArg,
    /// Output folder (default results/tournaments/<variant>-<seed>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue an interrupted run in --out from its games.csv.
    #[arg(long)]
    pub resume: bool,
    /// Play only shard i of n (`i/n`, 0-based): pairs with pair number ≡ i mod n.
    #[arg(long)]
    pub shard: Option<String>,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub index: u64,
    pub pair: u64,
    pub round: u64,
    pub matchup: usize,
    pub rotation: usize,
}

/// Matchups (agent pairs, or single agents for one-seat variants) and their cycle length.
pub fn matchups(num_agents: usize, seats: usize, gauntlet: bool) -> (Vec<Vec<usize>>, usize) {
    if seats == 1 {
        return ((0..num_agents).map(|a| vec![a]).collect(), 1);
    }
    let mut m = Vec::new();
    if gauntlet {
        for b in 1..num_agents {
            m.push(vec![0, b]);
        }
    } else {
        for a in 0..num_agents {
            for b in a + 1..num_agents {
                m.push(vec![a, b]);
            }
        }
    }
    (m, 2)
}

/// Who sits where in rotation `r` of matchup `m` (see the module documentation).
pub fn seating(m: &[usize], seats: usize, r: usize) -> Vec<usize> {
    if m.len() == 1 {
        return vec![m[0]; seats];
    }
    (0..seats)
        .map(|s| if (s + r) & 1 == 0 { m[0] } else { m[1] })
        .collect()
}

/// The whole run's games in index order.
pub fn schedule(n_matchups: usize, cycle: usize, games: u64) -> Vec<Slot> {
    let cycle64 = cycle as u64;
    let rounds = games.div_ceil(cycle64);
    let mut out = Vec::with_capacity((games as usize).saturating_mul(n_matchups));
    let mut index = 0;
    for k in 0..rounds {
        for m in 0..n_matchups {
            for r in 0..cycle {
                if k * cycle64 + (r as u64) < games {
                    out.push(Slot {
                        index,
                        pair: k * n_matchups as u64 + m as u64,
                        round: k,
                        matchup: m,
                        rotation: r,
                    });
                    index += 1;
                }
            }
        }
    }
    out
}

pub fn parse_shard(text: &str) -> Result<(u64, u64)> {
    let bad = || anyhow!("--shard '{text}': expected i/n with 0 <= i < n (for example 0/4)");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let i: u64 = i.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
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

/// Everything fixed before the variant's type is known.
struct Plan {
    args: TournamentArgs,
    specs: Vec<String>,
    params_text: Option<String>,
    openings: Vec<(usize, String)>,
    shard: Option<(u64, u64)>,
    sprt: Option<Sprt>,
    out: PathBuf,
    threads: usize,
}

pub fn run(args: &TournamentArgs) -> Result<()> {
    let specs = split_agents(&args.agents)?;
    if specs.is_empty() {
        bail!("--agents: no agent given");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
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
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let params_text = args
        .params
        .as_ref()
        .map(|p| {
            std::fs::read_to_string(p)
                .with_context(|| format!("cannot read parameter file {}", p.display()))
        })
        .transpose()?;
    let openings = match &args.openings {
        Some(p) => read_openings(p)?,
        None => Vec::new(),
    };
    let out = out_dir(args);
    let plan = Plan {
        args: args.clone(),
        specs,
        params_text,
        openings,
        shard,
        sprt,
        out,
        threads,
    };
    let params_text = plan.params_text.clone();
    registry::visit(&args.variant, params_text.as_deref(), Visitor(plan))
        .with_context(|| format!("variant '{}'", args.variant))?
}

/// The run's output folder: `--out`, else `results/tournaments/<variant>-<seed>`.
pub fn out_dir(args: &TournamentArgs) -> PathBuf {
    args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "results/tournaments/{}-{}",
            args.variant, args.seed
        ))
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
    git_describe: Option<String>,
    variant: &'a str,
    params_toml: &'a str,
    params_digest: &'a str,
    agents: &'a [String],
    seats: usize,
    games_per_matchup: u64,
    gauntlet: bool,
    matchups: &'a [Vec<usize>],
    total_games: usize,
    seed: u64,
    seeding: &'static str,
    openings_file: Option<String>,
    openings: Vec<&'a str>,
    shard: Option<String>,
    sprt: Option<Sprt>,
    threads: usize,
    resumed: bool,
}

/// `git describe` of the checkout the binary was built in (tried from the current
/// folder, then from the executable's), if git and a repository are there.
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

/// What workers share.
struct Shared {
    games_csv: std::fs::File,
    /// Buffered: timings are a by-product, flushed at the end (games.csv is the record
    /// and is flushed per game).
    timings_csv: std::io::BufWriter<std::fs::File>,
    rows: BTreeMap<u64, Row>,
    /// SPRT: the next pair (in order) not yet counted, counts so far, and where it stopped.
    next_pair: u64,
    penta: Pentanomial,
    stop_after: Option<u64>,
    error: Option<anyhow::Error>,
    last_message: Instant,
}

fn run_typed<G: Game>(plan: Plan, name: &'static str, params: G::Params) -> Result<()> {
    let args = &plan.args;
    // Agents: every spec must build for this game.
    for s in &plan.specs {
        agents::registry::build::<G>(s).with_context(|| format!("--agents: '{s}'"))?;
    }
    // Start states.
    let starts: Vec<G> = if plan.openings.is_empty() {
        vec![G::new(&params)]
    } else {
        let file = args
            .openings
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        plan.openings
            .iter()
            .map(|(line, fen)| {
                G::from_opening(&params, fen)
                    .map_err(|e| anyhow!("openings file {file} line {line}: {e}"))
            })
            .collect::<Result<_>>()?
    };
    let seats = starts[0].num_seats();
    if seats >= 2 && plan.specs.len() < 2 {
        bail!("--agents: a {seats}-seat variant needs at least two agents");
    }
    let (matchups, cycle) = matchups(plan.specs.len(), seats, args.gauntlet);
    let all = schedule(matchups.len(), cycle, args.games);
    let mine: Vec<Slot> = all
        .iter()
        .copied()
        .filter(|s| match plan.shard {
            None => true,
            Some((i, n)) => s.pair % n == i,
        })
        .collect();
    let canon = params_canonical(&params);
    let digest = digest_hex(&canon);
    let opening_of = |slot: &Slot| -> (usize, &str) {
        if plan.openings.is_empty() {
            (0, "")
        } else {
            let k = (slot.round % plan.openings.len() as u64) as usize;
            (k, plan.openings[k].1.as_str())
        }
    };
    let expected_row = |slot: &Slot| -> (u64, Vec<usize>, Vec<String>) {
        let players = seating(&matchups[slot.matchup], seats, slot.rotation);
        let agents = players.iter().map(|&p| plan.specs[p].clone()).collect();
        (mix(args.seed, slot.index), players, agents)
    };

    // Output folder and games.csv.
    let out = &plan.out;
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create output folder {}", out.display()))?;
    let games_path = out.join("games.csv");
    let timings_path = out.join("timings.csv");
    let mut done: BTreeMap<u64, Row> = BTreeMap::new();
    let exists = games_path.exists();
    if exists && !args.resume {
        bail!(
            "{} already exists: refusing to overwrite it (add --resume to continue that run, or choose another --out)",
            games_path.display()
        );
    }
    let mut clean_to: Option<u64> = None;
    if exists {
        let loaded = record::load(&games_path).context("cannot resume")?;
        let by_index: BTreeMap<u64, &Slot> = mine.iter().map(|s| (s.index, s)).collect();
        for row in loaded.rows {
            let Some(slot) = by_index.get(&row.index) else {
                bail!(
                    "cannot resume: {} holds game {} which is not part of this run{}",
                    games_path.display(),
                    row.index,
                    if plan.shard.is_some() {
                        " (or of this shard)"
                    } else {
                        ""
                    }
                );
            };
            let (seed, players, _) = expected_row(slot);
            let (_, opening) = opening_of(slot);
            let mismatch = if row.variant != name {
                Some(format!("variant {} (now {name})", row.variant))
            } else if row.params_digest != digest {
                Some(format!(
                    "parameter digest {} (now {digest})",
                    row.params_digest
                ))
            } else if row.seed != seed {
                Some(format!("seed {} (now {seed}): another --seed?", row.seed))
            } else if row.players != players || row.pair != slot.pair {
                Some("different agents or schedule".into())
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
    }
    // Describe the run.
    let info = RunInfo {
        command: std::env::args().collect(),
        chesslab_version: env!("CARGO_PKG_VERSION"),
        git_describe: git_describe(),
        variant: name,
        params_toml: &canon,
        params_digest: &digest,
        agents: &plan.specs,
        seats,
        games_per_matchup: args.games,
        gauntlet: args.gauntlet,
        matchups: &matchups,
        total_games: all.len(),
        seed: args.seed,
        seeding: "game i: seed mix(seed, i); agent in seat s: mix(game seed, s+1); chance and opening: round k of the pair, chance seed mix(seed ^ 0xC4A2CE0000000001, k); mix(a, b) = splitmix64(a ^ splitmix64(b ^ 0xD1B54A32D192ED03))",
        openings_file: args.openings.as_ref().map(|p| p.display().to_string()),
        openings: plan.openings.iter().map(|o| o.1.as_str()).collect(),
        shard: args.shard.clone(),
        sprt: plan.sprt,
        threads: plan.threads,
        resumed: args.resume && exists,
    };
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

    let pending: Vec<Slot> = mine
        .iter()
        .copied()
        .filter(|s| !done.contains_key(&s.index))
        .collect();
    let mut shared = Shared {
        games_csv,
        timings_csv: std::io::BufWriter::new(timings_csv),
        rows: done,
        next_pair: 0,
        penta: [0; 5],
        stop_after: None,
        error: None,
        last_message: Instant::now(),
    };
    advance_sprt(&mut shared, plan.sprt.as_ref(), &all);

    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, Ordering::SeqCst);
    });

    // Progress bar on a terminal only.
    let bar = if std::io::stderr().is_terminal() {
        let b =
            ProgressBar::with_draw_target(Some(mine.len() as u64), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games {per_sec} {wide_msg}",
            )
            .expect("template")
            .progress_chars("=> "),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    bar.set_position((mine.len() - pending.len()) as u64);
    let rows_now: Vec<Row> = shared.rows.values().cloned().collect();
    bar.set_message(standings::compute(&plan.specs, &rows_now, None).short());

    let halt = AtomicBool::new(shared.stop_after.is_some());
    let next = AtomicUsize::new(0);
    let shared = Mutex::new(shared);
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .context("cannot start the worker threads")?;
    let worker = || loop {
        if halt.load(Ordering::Relaxed) || INTERRUPTED.load(Ordering::Relaxed) {
            return;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(slot) = pending.get(i) else { return };
        let (seed, players, agent_specs) = expected_row(slot);
        let (k, opening) = opening_of(slot);
        let chance_seed = mix(args.seed ^ CHANCE_SALT, slot.round);
        let t0 = Instant::now();
        let outcome = catch(&format!("game {}", slot.index), || {
            let mut agents = agent_specs
                .iter()
                .map(|s| agents::registry::build::<G>(s).map_err(|e| anyhow!(e)))
                .collect::<Result<Vec<_>>>()?;
            play_game(
                &starts[k],
                &mut agents,
                seed,
                chance_seed,
                Some(&INTERRUPTED),
            )
        })
        .with_context(|| format!("game {}", slot.index));
        let secs = t0.elapsed().as_secs_f64();
        // The row and its CSV line are built before taking the lock: only the writes
        // and the bookkeeping are serial, so threads scale on short games too.
        let finished = match outcome {
            Ok(Some(p)) => {
                let row = Row {
                    index: slot.index,
                    seed,
                    variant: name.to_string(),
                    params_digest: digest.clone(),
                    pair: slot.pair,
                    opening: opening.to_string(),
                    players,
                    agents: agent_specs,
                    result: result_text(&p.returns),
                    returns: p.returns,
                    reason: p.reason,
                    plies: p.actions.len(),
                    actions: p.actions.join(" "),
                };
                let line = row.to_line();
                let timing = format!(
                    "{},{:.6},{},{:.0}\n",
                    slot.index,
                    secs,
                    row.plies,
                    row.plies as f64 / secs.max(1e-9)
                );
                Ok(Some((row, line, timing)))
            }
            Ok(None) => Ok(None),
            Err(e) => Err(e),
        };
        let mut sh = shared.lock().unwrap_or_else(|p| p.into_inner());
        match finished {
            Ok(Some((row, line, timing))) => {
                let w = sh
                    .games_csv
                    .write_all(&line)
                    .and_then(|_| sh.games_csv.flush())
                    .and_then(|_| sh.timings_csv.write_all(timing.as_bytes()));
                if let Err(e) = w {
                    sh.error =
                        Some(anyhow!(e).context(format!("cannot write {}", games_path.display())));
                    halt.store(true, Ordering::SeqCst);
                    return;
                }
                sh.rows.insert(slot.index, row);
                advance_sprt(&mut sh, plan.sprt.as_ref(), &all);
                if sh.stop_after.is_some() {
                    halt.store(true, Ordering::SeqCst);
                }
                bar.inc(1);
                if bar.is_hidden() || sh.last_message.elapsed().as_millis() < 500 {
                    continue;
                }
                sh.last_message = Instant::now();
                let rows: Vec<Row> = sh.rows.values().cloned().collect();
                drop(sh);
                bar.set_message(standings::compute(&plan.specs, &rows, None).short());
            }
            Ok(None) => return,
            Err(e) => {
                if sh.error.is_none() {
                    sh.error = Some(e);
                }
                halt.store(true, Ordering::SeqCst);
                return;
            }
        }
    };
    pool.scope(|s| {
        for _ in 0..plan.threads {
            s.spawn(|_| worker());
        }
    });
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let mut sh = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    let _ = sh.timings_csv.flush();

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
        args.shard
            .as_ref()
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default()
    );
    let md = st.markdown(&title);
    record::write_atomic(&out.join("standings.md"), md.as_bytes())?;
    record::write_atomic(&out.join("standings.csv"), st.csv().as_bytes())?;
    record::write_atomic(&out.join("pairings.csv"), st.pairings_csv().as_bytes())?;
    let played_now = rows.len() - (mine.len() - pending.len()).min(rows.len());
    println!("{md}");
    println!(
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
            mine.len(),
            games_path.display()
        );
    }
    if let Some(last) = sh.stop_after {
        println!(
            "SPRT decided after game {} ({} games); the remaining games were not played.",
            last,
            last + 1
        );
    }
    Ok(())
}

/// Feeds finished pairs to the SPRT in pair order (so the stopping point does not depend
/// on which game happened to finish first), and records where it decided.
fn advance_sprt(sh: &mut Shared, sprt: Option<&Sprt>, all: &[Slot]) {
    let Some(sprt) = sprt else { return };
    while sh.stop_after.is_none() {
        let p = sh.next_pair;
        let games: Vec<&Slot> = all
            .iter()
            .skip((2 * p) as usize)
            .take(2)
            .filter(|s| s.pair == p)
            .collect();
        if games.len() != 2 || !games.iter().all(|s| sh.rows.contains_key(&s.index)) {
            return;
        }
        let rows: Vec<&Row> = games.iter().map(|s| &sh.rows[&s.index]).collect();
        let score: f64 = rows
            .iter()
            .filter_map(|r| standings::game_score(r, 0, 1))
            .sum();
        sh.penta[stats::penta_slot(score)] += 1;
        sh.next_pair += 1;
        if sprt.state(&sh.penta) != SprtState::Continue {
            sh.stop_after = Some(games[1].index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_is_gapless_and_pairs_swap_colours() {
        let (m, c) = matchups(3, 2, false);
        assert_eq!(m, vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        let s = schedule(m.len(), c, 3);
        assert_eq!(s.len(), 9);
        assert!(s.iter().enumerate().all(|(i, x)| x.index == i as u64));
        // Round 0: three full pairs; round 1: one game of each.
        assert_eq!(s[0].pair, 0);
        assert_eq!(s[1].pair, 0);
        assert_eq!(seating(&m[0], 2, s[0].rotation), vec![0, 1]);
        assert_eq!(seating(&m[0], 2, s[1].rotation), vec![1, 0]);
        assert_eq!(s[6].round, 1);
        assert_eq!(seating(&[0, 1], 4, 1), vec![1, 0, 1, 0]);
        let (g, _) = matchups(4, 2, true);
        assert_eq!(g, vec![vec![0, 1], vec![0, 2], vec![0, 3]]);
        assert_eq!(matchups(2, 1, false).0, vec![vec![0], vec![1]]);
    }

    #[test]
    fn shard_syntax() {
        assert_eq!(parse_shard("1/4").unwrap(), (1, 4));
        assert!(parse_shard("4/4").is_err());
        assert!(parse_shard("0/0").is_err());
        assert!(parse_shard("x").is_err());
    }
}

//! `chesslab values`: piece values learned from play (issue 24).
//!
//! Positions are sampled from recorded games ([`sample`]), described by the variant's
//! [`Game::features`](engine::game::Game::features) (seat 0 minus seat 1 in pawns,
//! knights, bishops, rooks and queens, then the variant's own features: Tar Pit's tar and
//! fronts, Clairvoyant's Zorkmids, Zombie's zombies and graveyard, Cassandra's rung, Half
//! Alice's mirror, Two Move's face-up cards, Masquerade's known patterns), and labelled
//! with seat 0's score. An L2-regularised logistic regression ([`fit`]) maps features to
//! the chance of winning; dividing each coefficient by the pawn's gives values in pawn
//! units. 95% intervals come from a bootstrap over games (whole games are resampled,
//! since positions of one game share its outcome). Five-fold cross-validation by game
//! compares the log loss of the learned model with a material-free model (intercept
//! only) and with orthodox 1/3/3/5/9 (one fitted scale plus intercept).
//!
//! The games come from a finished run (`--from games.csv`), or are played here
//! (`--agents A,B --games N`: the tournament machinery, colour-swapped pairs, openings
//! spread by `--random-opening-plies`, parallel and deterministic, games.csv written in
//! the output folder beside the report), or per rung of a strength ladder (`--ladder
//! "SPEC SPEC ..."`: self-play of each spec, one folder per rung and `ladder.md` showing
//! whether the values settle as play gets stronger), or per member of a panel
//! (`--panel FILE`, issue 37: one folder per member and `panel.md`, the values side by
//! side with each member's rating and whether the learned values predict better than
//! 1/3/3/5/9 for every member).
//!
//! Decisions where the issue is silent: at least [`MIN_GAMES`] games are required
//! (fewer give intervals too wide to read); the penalty `--l2` defaults to 1e-3 per
//! position; features beyond the five pieces have no orthodox value and count 0 in the
//! orthodox model; one agent given to `--agents` plays itself. Bad input (a variant
//! without features or not two-sided, too few games, games of another variant, two
//! sources of games) is refused before any game is played or replayed. Tests:
//! `values::fit::tests::rule_fit_recovers_known_weights`,
//! `rule_fit_rejects_constant_features_without_penalty`, and in `tests/values.rs` the
//! bad-input, play and end-to-end tests.
//!
//! The folder may depend on [`crate::run`], [`crate::stats`], [`crate::record`] and
//! [`crate::util`]; never on `cli`, `serve`, `golf` or another study.

pub mod fit;
pub mod report;
pub mod sample;

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use engine::game::Game;
use engine::registry::{self, VariantVisitor};
use rand::{Rng, SeedableRng};

use crate::record;
pub use sample::{Samples, Sampling};

/// Fewest games `values` accepts.
pub const MIN_GAMES: usize = 100;

#[derive(Args, Debug, Clone)]
pub struct ValuesArgs {
    /// Variant the games were (or are to be) played in.
    #[arg(long)]
    pub variant: String,
    /// Parameter file (TOML) of the variant.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// The games.csv of a finished run.
    #[arg(long, conflicts_with_all = ["agents", "ladder", "panel"])]
    pub from: Option<PathBuf>,
    /// Play the games here: agent specs, comma-separated (one spec plays itself).
    #[arg(long, requires = "games", conflicts_with = "ladder")]
    pub agents: Option<String>,
    /// Games to play (with --agents, or per rung with --ladder).
    #[arg(long)]
    pub games: Option<u64>,
    /// Self-play at each of these agent specs (space-separated, weakest first), one fit
    /// per rung, to see whether the values settle as play gets stronger.
    #[arg(long, requires = "games")]
    pub ladder: Option<String>,
    /// A panel file (`examples/panels/`, issue 37): self-play of every member into
    /// `<out>/<label>`, a fit per member, and `panel.md` with the values side by side and
    /// whether the learned values beat 1/3/3/5/9 for every member.
    #[arg(long, requires = "games", conflicts_with_all = ["agents", "ladder"])]
    pub panel: Option<PathBuf>,
    /// Uniformly random plies before the agents take over (played games only).
    #[arg(long, default_value_t = 8)]
    pub random_opening_plies: u32,
    /// Worker threads for played games (default: all cores; results do not depend on it).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder (default runs/values/VARIANT, which git ignores). Games are played
    /// only into a folder that is empty or new, unless --force.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play into an --out folder that already holds files: the games there are continued
    /// (as after Ctrl-C) and the fit's files replaced.
    #[arg(long)]
    pub force: bool,
    /// Seed of the games played, the bootstrap and the cross-validation folds.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bootstrap replicates for the intervals.
    #[arg(long, default_value_t = 200)]
    pub bootstrap: usize,
    /// Positions are sampled from this ply on.
    #[arg(long, default_value_t = 10)]
    pub min_ply: usize,
    /// At most this many positions per game.
    #[arg(long, default_value_t = 8)]
    pub per_game: usize,
    /// L2 penalty per position on the weights (not the intercept).
    #[arg(long, value_parser = crate::util::gain, default_value_t = 1e-3)]
    pub l2: f64,
}

impl ValuesArgs {
    /// Arguments for fitting the games of `from` with every other setting at its default.
    pub fn from_games(variant: &str, from: PathBuf) -> ValuesArgs {
        ValuesArgs {
            variant: variant.into(),
            params: None,
            from: Some(from),
            agents: None,
            games: None,
            ladder: None,
            panel: None,
            random_opening_plies: 8,
            threads: None,
            out: None,
            force: false,
            seed: 1,
            bootstrap: 200,
            min_ply: 10,
            per_game: 8,
            l2: 1e-3,
        }
    }

    fn out_dir(&self) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| crate::util::default_out(&["values", &self.variant]))
    }
}

/// Everything the report shows.
#[derive(Debug)]
pub struct Learned {
    pub variant: String,
    pub games: usize,
    pub positions: usize,
    pub names: Vec<String>,
    pub model: fit::Model,
    /// Per feature: value in pawns, 2.5% and 97.5% bootstrap quantiles.
    pub values: Vec<(f64, f64, f64)>,
    /// Cross-validated log loss: learned, material-free, orthodox.
    pub cv: (f64, f64, f64),
    /// The cross-validated log losses of each game's positions (each scored by the fold
    /// that held the game out): what `cv.csv` lists and the intervals over games read.
    pub cv_games: Vec<CvGame>,
    pub bootstrap: usize,
    /// The variant's parameter file text, if one was given (Clairvoyant's cost table).
    pub params: Option<String>,
}

/// One game's positions scored by the models of the fold that held it out.
#[derive(Clone, Debug, PartialEq)]
pub struct CvGame {
    /// The game's place in the games.csv.
    pub game: usize,
    pub positions: usize,
    /// Mean log loss of its positions: learned values, material-free, orthodox values.
    pub learned: f64,
    pub free: f64,
    pub orthodox: f64,
}

/// Half-width of the 95% interval of a position-weighted mean loss over games (positions
/// of one game share its result, so the game is the independent unit): 1.96 times the
/// cluster standard error. Index 0, 1, 2: learned, material-free, orthodox.
pub fn cv_half_width(games: &[CvGame], which: usize) -> f64 {
    let loss = |g: &CvGame| [g.learned, g.free, g.orthodox][which];
    let n: f64 = games.iter().map(|g| g.positions as f64).sum();
    if games.len() < 2 || n == 0.0 {
        return f64::NAN;
    }
    let mean = games
        .iter()
        .map(|g| loss(g) * g.positions as f64)
        .sum::<f64>()
        / n;
    let k = games.len() as f64;
    let ss: f64 = games
        .iter()
        .map(|g| (g.positions as f64 * (loss(g) - mean)).powi(2))
        .sum();
    1.96 * (ss * k / (k - 1.0)).sqrt() / n
}

/// Orthodox value of a feature name (0 for anything but the five pieces).
pub fn orthodox(name: &str) -> f64 {
    match name {
        "pawn" => 1.0,
        "knight" | "bishop" => 3.0,
        "rook" => 5.0,
        "queen" => 9.0,
        _ => 0.0,
    }
}

fn select(s: &Samples, games: &[usize]) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut by_game: Vec<Vec<usize>> = vec![Vec::new(); s.game.iter().max().map_or(0, |m| m + 1)];
    for (i, &g) in s.game.iter().enumerate() {
        by_game[g].push(i);
    }
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for &g in games {
        for &i in by_game.get(g).map(|v| v.as_slice()).unwrap_or(&[]) {
            xs.push(s.xs[i].clone());
            ys.push(s.ys[i]);
        }
    }
    (xs, ys)
}

/// Fits, bootstraps and cross-validates on `samples` drawn from `games` games.
pub fn learn(variant: &str, samples: &Samples, games: usize, args: &ValuesArgs) -> Result<Learned> {
    if games < MIN_GAMES {
        bail!("{games} games is too few: piece values need at least {MIN_GAMES} games");
    }
    let pawn = samples
        .names
        .iter()
        .position(|n| n == "pawn")
        .context("the features have no `pawn` to express values in")?;
    let model = fit::fit(&samples.xs, &samples.ys, args.l2).context("fitting all positions")?;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(args.seed);
    let d = samples.names.len();
    let mut reps: Vec<Vec<f64>> = vec![Vec::new(); d];
    for _ in 0..args.bootstrap {
        let pick: Vec<usize> = (0..games).map(|_| rng.gen_range(0..games)).collect();
        let (xs, ys) = select(samples, &pick);
        if let Ok(m) = fit::fit(&xs, &ys, args.l2) {
            for (j, r) in reps.iter_mut().enumerate() {
                r.push(m.weights[j] / m.weights[pawn]);
            }
        }
    }
    let values = (0..d)
        .map(|j| {
            let v = model.weights[j] / model.weights[pawn];
            let r = &mut reps[j];
            r.sort_by(f64::total_cmp);
            let q = |p: f64| {
                r.get(((r.len() as f64 - 1.0) * p).round() as usize)
                    .copied()
                    .unwrap_or(f64::NAN)
            };
            (v, q(0.025), q(0.975))
        })
        .collect();
    // Five folds by game.
    let mut order: Vec<usize> = (0..games).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.gen_range(0..=i));
    }
    let ortho: Vec<f64> = samples.names.iter().map(|n| orthodox(n)).collect();
    let (mut l, mut f, mut o, mut n) = (0.0, 0.0, 0.0, 0usize);
    let mut cv_games = Vec::new();
    for k in 0..5 {
        let test: Vec<usize> = order.iter().copied().skip(k).step_by(5).collect();
        let train: Vec<usize> = order
            .iter()
            .copied()
            .enumerate()
            .filter(|(i, _)| i % 5 != k)
            .map(|(_, g)| g)
            .collect();
        let (trx, try_) = select(samples, &train);
        let (tex, tey) = select(samples, &test);
        if tex.is_empty() {
            continue;
        }
        let learned = fit::fit(&trx, &try_, args.l2)?;
        let free = fit::fit(&vec![Vec::new(); trx.len()], &try_, 0.0)?;
        let to_o = |xs: &[Vec<f64>]| -> Vec<Vec<f64>> {
            xs.iter()
                .map(|x| vec![x.iter().zip(&ortho).map(|(a, b)| a * b).sum()])
                .collect()
        };
        let om = fit::fit(&to_o(&trx), &try_, args.l2)?;
        let w = tex.len();
        l += fit::log_loss(&learned, &tex, &tey) * w as f64;
        f += fit::log_loss(&free, &vec![Vec::new(); w], &tey) * w as f64;
        o += fit::log_loss(&om, &to_o(&tex), &tey) * w as f64;
        n += w;
        for &g in &test {
            let (gx, gy) = select(samples, &[g]);
            if gx.is_empty() {
                continue;
            }
            cv_games.push(CvGame {
                game: g,
                positions: gx.len(),
                learned: fit::log_loss(&learned, &gx, &gy),
                free: fit::log_loss(&free, &vec![Vec::new(); gx.len()], &gy),
                orthodox: fit::log_loss(&om, &to_o(&gx), &gy),
            });
        }
    }
    cv_games.sort_by_key(|g| g.game);
    let n = n.max(1) as f64;
    Ok(Learned {
        variant: variant.to_string(),
        games,
        positions: samples.xs.len(),
        names: samples.names.clone(),
        model,
        values,
        cv: (l / n, f / n, o / n),
        cv_games,
        bootstrap: args.bootstrap,
        params: None,
    })
}

/// Where the games come from.
enum Source {
    From(PathBuf),
    Play {
        specs: Vec<String>,
        games: u64,
    },
    Ladder {
        rungs: Vec<String>,
        games: u64,
    },
    Panel {
        panel: crate::studies::panel::Panel,
        games: u64,
    },
}

/// Checks the arguments and the variant before any game is played or replayed.
fn source(args: &ValuesArgs, params: Option<&str>) -> Result<Source> {
    let sampling = Sampling {
        min_ply: args.min_ply,
        per_game: args.per_game,
    };
    // With no rows this only checks the variant: two-sided, with features.
    sample::sample(&args.variant, params, &[], sampling)?;
    let games = |g: Option<u64>| -> Result<u64> {
        let g = g.context("--games is needed with --agents and --ladder")?;
        if g < MIN_GAMES as u64 {
            bail!("--games {g} is too few: piece values need at least {MIN_GAMES} games");
        }
        Ok(g)
    };
    if let Some(path) = &args.panel {
        let panel = crate::studies::panel::Panel::load(path)?;
        for m in &panel.members {
            check_agents(
                args,
                params,
                std::slice::from_ref(&m.agent),
                &format!("--panel member '{}'", m.label),
            )?;
        }
        return Ok(Source::Panel {
            panel,
            games: games(args.games)?,
        });
    }
    match (&args.from, &args.agents, &args.ladder) {
        (Some(f), None, None) => {
            if args.games.is_some() {
                bail!("--games plays games: give it with --agents or --ladder, not --from");
            }
            Ok(Source::From(f.clone()))
        }
        (None, Some(a), None) => {
            let mut specs = crate::util::split_agents(a)?;
            match specs.len() {
                0 => bail!("--agents: no agent given"),
                1 => specs.push(specs[0].clone()),
                2 => {}
                n => bail!("--agents: {n} agents given; values need two (or one to play itself)"),
            }
            check_agents(args, params, &specs, "--agents")?;
            Ok(Source::Play {
                specs,
                games: games(args.games)?,
            })
        }
        (None, None, Some(l)) => {
            let rungs: Vec<String> = l.split_whitespace().map(str::to_string).collect();
            if rungs.len() < 2 {
                bail!("--ladder needs at least two agent specs (space-separated, weakest first)");
            }
            check_agents(args, params, &rungs, "--ladder")?;
            Ok(Source::Ladder {
                rungs,
                games: games(args.games)?,
            })
        }
        (None, None, None) => bail!("give the games: --from games.csv, --agents A,B --games N, or --ladder \"SPEC SPEC\" --games N"),
        _ => bail!("give one source of games: --from, --agents or --ladder"),
    }
}

/// Every spec builds an agent for the variant.
fn check_agents(
    args: &ValuesArgs,
    params: Option<&str>,
    specs: &[String],
    flag: &str,
) -> Result<()> {
    struct Check<'a>(&'a [String]);
    impl VariantVisitor for Check<'_> {
        type Output = Result<(), (String, agents::AgentError)>;
        fn visit<G: Game>(self, _: &'static str, _: G::Params) -> Self::Output {
            for s in self.0 {
                agents::registry::validate::<G>(s).map_err(|e| (s.clone(), e))?;
            }
            Ok(())
        }
    }
    registry::visit(&args.variant, params, Check(specs))
        .map_err(|e| anyhow!(e))?
        .map_err(|(s, e)| anyhow!(e).context(format!("{flag}: '{s}'")))
}

/// Plays `games` games between `specs` into `out` (its games.csv), resuming a run
/// already there.
fn play(args: &ValuesArgs, specs: &[String], games: u64, out: &Path) -> Result<PathBuf> {
    use crate::run::tournament::{OpeningOrder, SprtModelArg, TournamentArgs};
    let t = TournamentArgs {
        variant: crate::run::variant_args::VariantArgs {
            variant: args.variant.clone(),
            params: args.params.clone(),
        },
        agents: specs.join(","),
        games,
        gauntlet: false,
        tc: None,
        threads: args.threads,
        seed: args.seed,
        openings: None,
        opening_order: OpeningOrder::Sequential,
        opening_plies: None,
        random_opening_plies: args.random_opening_plies,
        draw: None,
        resign: None,
        sprt: None,
        sprt_model: SprtModelArg::Logistic,
        out: Some(out.to_path_buf()),
        resume: out.join("games.csv").exists(),
        shard: None,
        shard_index_env: None,
    };
    crate::run::tournament::run(&t).context("playing the games")?;
    Ok(out.join("games.csv"))
}

/// Loads `from`, samples and fits; writes the report into `out`.
fn fit_games(args: &ValuesArgs, params: Option<&str>, from: &Path, out: &Path) -> Result<Learned> {
    let loaded = record::load(from)?;
    let rows = loaded.rows;
    if let Some(other) = rows.iter().find(|r| r.variant != args.variant) {
        bail!(
            "{}: game {} is {}, not {}: give the games.csv of the variant asked for",
            from.display(),
            other.index,
            other.variant,
            args.variant
        );
    }
    if rows.len() < MIN_GAMES {
        bail!(
            "{} has {} games: piece values need at least {MIN_GAMES} games",
            from.display(),
            rows.len()
        );
    }
    let sampling = Sampling {
        min_ply: args.min_ply,
        per_game: args.per_game,
    };
    let samples = sample::sample(&args.variant, params, &rows, sampling)?;
    if samples.xs.is_empty() {
        bail!(
            "no position qualified (ply >= {}, quiet, a seat to move)",
            args.min_ply
        );
    }
    let mut learned = learn(&args.variant, &samples, rows.len(), args)?;
    learned.params = params.map(str::to_string);
    report::write(out, &learned, from)?;
    Ok(learned)
}

/// A folder name for a rung's agent spec (`alphabeta:depth=2` -> `alphabeta-depth-2`).
pub fn rung_folder(spec: &str) -> String {
    spec.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

pub fn run(args: &ValuesArgs) -> Result<()> {
    let params = match &args.params {
        Some(p) => {
            Some(std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?)
        }
        None => None,
    };
    let out = args.out_dir();
    let source = source(args, params.as_deref())?;
    // Games are played only into a new or empty folder unless --force (issue 68: never
    // into kept results by accident); a fit of given games replaces none of the files it
    // writes unless --force (and never offers --force for kept results).
    if let Source::From(from) = &source {
        for name in report::FILES {
            crate::util::check_output(&out.join(name), &[from.as_path()], args.force, "--out")?;
        }
    } else {
        crate::util::check_out_dir(
            &out,
            "--out",
            &[crate::util::Reuse {
                flag: "--force",
                given: args.force,
                does: "to continue the games there and fit again",
            }],
        )?;
    }
    match source {
        Source::From(from) => {
            let learned = fit_games(args, params.as_deref(), &from, &out)?;
            print!("{}", report::markdown(&learned, &from));
        }
        Source::Play { specs, games } => {
            std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
            let from = play(args, &specs, games, &out)?;
            let learned = fit_games(args, params.as_deref(), &from, &out)?;
            print!("{}", report::markdown(&learned, &from));
        }
        Source::Ladder { rungs, games } => {
            let mut fits = Vec::new();
            for spec in &rungs {
                let dir = out.join(rung_folder(spec));
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
                let from = play(args, &[spec.clone(), spec.clone()], games, &dir)?;
                let learned = fit_games(args, params.as_deref(), &from, &dir)
                    .with_context(|| format!("rung {spec}"))?;
                fits.push((spec.clone(), learned));
            }
            let text = report::ladder_markdown(&args.variant, &fits);
            let p = out.join("ladder.md");
            std::fs::write(&p, &text).with_context(|| format!("writing {}", p.display()))?;
            print!("{text}");
        }
        Source::Panel { panel, games } => {
            let mut fits = Vec::new();
            for m in &panel.members {
                let dir = out.join(&m.label);
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
                let from = play(args, &[m.agent.clone(), m.agent.clone()], games, &dir)?;
                let learned = fit_games(args, params.as_deref(), &from, &dir)
                    .with_context(|| format!("panel member {}", m.label))?;
                fits.push((m.label.clone(), learned));
            }
            let text = report::panel_markdown(&args.variant, &panel, &fits);
            let p = out.join("panel.md");
            std::fs::write(&p, &text).with_context(|| format!("writing {}", p.display()))?;
            print!("{text}");
        }
    }
    Ok(())
}

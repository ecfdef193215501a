//! Seeds, digests and small helpers shared by the experiment drivers.
//!
//! Among them the one rule for outputs (issue 68): [`check_out_dir`] for every command
//! that writes a folder, [`check_output`] for every command that writes a file. Something
//! already there is replaced only with the command's `--resume` or `--force`; kept
//! results (files git tracks) are refused without suggesting `--force`; outputs that
//! are not named go under `runs/` ([`default_out`]), which `.gitignore` ignores.
//! [`from_toml`] reads the lab's TOML files with one-line errors in the user's words.
//! Tests: `out_tests::out_folders_refuse_what_they_hold` below and the tables over every
//! command in `experiments/tests/front_door.rs`.

/// SplitMix64's finaliser: a fixed, well-mixed bijection on `u64` (the workspace's one
/// copy, in the engine; recorded seeds depend on it staying bit-identical).
pub use engine::random::splitmix64;

/// The fixed mixing function for derived seeds: `mix(master, i)` is the seed of item
/// `i` of a run seeded with `master`. It depends on nothing else (no thread count, no
/// shard), so a game's seed is the same however the run is split.
pub fn mix(master: u64, i: u64) -> u64 {
    splitmix64(master ^ splitmix64(i ^ 0xD1B5_4A32_D192_ED03))
}

/// 64-bit FNV-1a: a stable digest (the same on every platform and Rust version).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The digest of a variant's parameters: FNV-1a of their canonical TOML (the parsed
/// parameters serialised again, defaults included), as 16 hex digits. Two parameter
/// files that differ only in comments, layout or spelled-out defaults get one digest.
pub fn params_canonical<P: serde::Serialize>(params: &P) -> String {
    toml::to_string(params).unwrap_or_else(|_| serde_json::to_string(params).unwrap_or_default())
}

pub fn digest_hex(text: &str) -> String {
    format!("{:016x}", fnv1a64(text.as_bytes()))
}

/// Reads a TOML file's text into `T` with an error of one line in the user's words: the
/// line or key, the value and what it takes ("a whole number from 0 to 4294967295"), a
/// near key for an unknown one (issue 68; toml's own text spans several lines and says
/// `u32`). The caller adds which file and flag.
pub fn from_toml<T: serde::de::DeserializeOwned>(text: &str) -> anyhow::Result<T> {
    toml::from_str(text).map_err(|e| anyhow::anyhow!(engine::registry::toml_problem(text, &e)))
}

/// Splits an `--agents` list on commas, keeping the commas inside one agent's spec:
/// a piece of the form `key=value` without a `:` continues the previous spec, so
/// `ismcts:iters=2000,c=0.7,random` is two agents. An empty spec is an error
/// (`agents::spec::split_list`).
pub fn split_agents(list: &str) -> anyhow::Result<Vec<String>> {
    agents::spec::split_list(list).map_err(|e| anyhow::anyhow!("--agents: {e}"))
}

/// Result text: `1-0`, `0-1`, `1/2-1/2` for two seats, otherwise the returns per seat.
pub fn result_text(returns: &[f64]) -> String {
    if returns.len() == 2 {
        if returns[0] > returns[1] {
            "1-0".into()
        } else if returns[0] < returns[1] {
            "0-1".into()
        } else {
            "1/2-1/2".into()
        }
    } else {
        returns_text(returns)
    }
}

/// Returns per seat, space-separated (`1 -1 1 -1`).
pub fn returns_text(returns: &[f64]) -> String {
    returns
        .iter()
        .map(|r| format!("{r}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks, before any work, that writing `out` loses nothing the user has not agreed to
/// lose: `out` must not be a folder, must not be one of `inputs` (the same file, however
/// it is spelled: the paths are compared after resolving `..` and links), and must not
/// exist already unless `force` (the `--force` flag) is given. `flag` names the option
/// that gave `out`, for the message.
pub fn check_output(
    out: &std::path::Path,
    inputs: &[&std::path::Path],
    force: bool,
    flag: &str,
) -> anyhow::Result<()> {
    if out.is_dir() {
        anyhow::bail!("{flag} {} is a folder; give a file name", out.display());
    }
    replaceable(out, flag)?;
    let resolved = resolve(out);
    for input in inputs {
        if input.exists() && resolve(input) == resolved {
            anyhow::bail!(
                "{flag} {} is also an input ({}); writing it would destroy the input: choose another file",
                out.display(),
                input.display()
            );
        }
    }
    if out.exists() && !force {
        if kept_in_git(out) {
            anyhow::bail!(
                "{flag} {} is a kept result (tracked by git); choose another file{}",
                out.display(),
                elsewhere(out)
            );
        }
        anyhow::bail!(
            "{flag} {} already exists; add --force to replace it",
            out.display()
        );
    }
    Ok(())
}

/// A flag that lets a command write into an output folder that already holds files
/// (`--resume`, `--force`), whether it was given, and what it does there ("to continue
/// the run there").
#[derive(Clone, Copy, Debug)]
pub struct Reuse<'a> {
    pub flag: &'a str,
    pub given: bool,
    pub does: &'a str,
}

/// The one rule for output folders, for every command that writes one (issue 68): `dir`
/// must not be a file, and a folder that exists and holds anything is refused unless one
/// of `reuse` (the command's `--resume` or `--force`) was given. The refusal names the
/// flags that would allow it, except for a folder holding files git tracks (kept
/// results, e.g. `results/golf`): there it only asks for another folder (under `runs/`,
/// which git ignores), since `--force` would overwrite kept evidence. The flags still
/// work there when typed: git keeps the old files, and rewriting kept results on purpose
/// is how they are refreshed.
///
/// Decision: "tracked" is asked of git itself (`git ls-files` in the folder's
/// repository), so it holds for any checkout and any folder name; without git, or
/// outside a repository, nothing is tracked. Tests: `out_folders_refuse_what_they_hold`
/// below, and the table over every command in `experiments/tests/front_door.rs`.
pub fn check_out_dir(dir: &std::path::Path, flag: &str, reuse: &[Reuse<'_>]) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!("{flag} {} is a file, not a folder", dir.display());
    }
    let holds = std::fs::read_dir(dir).is_ok_and(|mut r| r.next().is_some());
    if !holds || reuse.iter().any(|r| r.given) {
        return Ok(());
    }
    if kept_in_git(dir) {
        anyhow::bail!(
            "{flag} {} holds kept results (files tracked by git); choose another folder{}",
            dir.display(),
            elsewhere(dir)
        );
    }
    let hints: Vec<String> = reuse
        .iter()
        .map(|r| format!("add {} {}", r.flag, r.does))
        .chain(std::iter::once("choose another folder".to_string()))
        .collect();
    anyhow::bail!(
        "{flag} {} is not empty; {}",
        dir.display(),
        hints.join(", or ")
    )
}

/// Whether `path` is, or is a folder holding, a file tracked by git: asked of `git
/// ls-files` in the nearest existing folder. False without git or outside a repository.
pub fn kept_in_git(path: &std::path::Path) -> bool {
    let abs = resolve(path);
    let Some(dir) = abs.ancestors().find(|a| a.is_dir()) else {
        return false;
    };
    std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["ls-files", "-z", "--"])
        .arg(&abs)
        .stderr(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success() && !o.stdout.is_empty())
}

/// ` (e.g. runs/x)` for a path under `results/`: where the same output belongs when it
/// is not meant to be kept (git ignores `runs/`).
fn elsewhere(path: &std::path::Path) -> String {
    let mut parts = path.components();
    let first = parts.next();
    let rest = parts.as_path();
    match first {
        Some(std::path::Component::Normal(n)) if n == "results" && !rest.as_os_str().is_empty() => {
            format!(
                " (e.g. {})",
                std::path::Path::new("runs").join(rest).display()
            )
        }
        _ => String::new(),
    }
}

/// The default folder of a command's output when `--out` is not given: under `runs/`,
/// which git ignores, never under `results/` (kept evidence; issue 68).
pub fn default_out(parts: &[&str]) -> std::path::PathBuf {
    let mut p = std::path::PathBuf::from("runs");
    for part in parts {
        p.push(part);
    }
    p
}

/// Refuses to replace `path` when it exists and is not a regular file: a device
/// (`/dev/full`, `/dev/null`), a pipe, a socket or a link. Outputs are written to a
/// temporary file renamed over `path`, and the rename would put a regular file where
/// the device was (issue 39: `export --out /dev/full --force` replaced the device).
/// `--force` does not change this. Test: `outputs_never_replace_anything_but_a_regular_file`.
pub fn replaceable(path: &std::path::Path, flag: &str) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => {
            let what = if m.file_type().is_symlink() {
                "a symbolic link"
            } else if m.is_dir() {
                "a folder"
            } else {
                "not a regular file (a device, pipe or socket)"
            };
            let flag = if flag.is_empty() {
                String::new()
            } else {
                format!("{flag} ")
            };
            anyhow::bail!(
                "{flag}{} is {what}; chesslab writes and replaces only regular files: give a file name (or write to standard output and redirect it)",
                path.display()
            )
        }
        _ => Ok(()),
    }
}

/// `path` with links and `..` resolved; a path that does not exist yet resolves through
/// its folder, so `a/../x` and `x` compare equal before `x` is written.
fn resolve(path: &std::path::Path) -> std::path::PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => {
            let dir = if dir.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                dir
            };
            dir.canonicalize()
                .map(|d| d.join(name))
                .unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// Writes formatted text to standard output. A reader that has gone away (`| head`,
/// `| true`: the write fails with `BrokenPipe`) ends the program quietly with status 0,
/// as ripgrep and most Rust tools do (the output nobody reads is not an error, and
/// `set -o pipefail` scripts keep working); any other write error is reported and ends the
/// program with status 1. Every command prints through [`out!`] / [`outln!`], which call
/// this, instead of `print!`, which panics on a closed pipe.
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        stdout_failed(&e);
    }
}

/// Flushes standard output, with [`write_stdout`]'s treatment of a closed pipe (the
/// last line may still sit in the buffer when a command returns).
pub fn flush_stdout() {
    use std::io::Write as _;
    if let Err(e) = std::io::stdout().lock().flush() {
        stdout_failed(&e);
    }
}

fn stdout_failed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    // eprintln! itself could panic if standard error is closed too; ignore that.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "error: writing to standard output: {e}");
    std::process::exit(1);
}

/// `print!` that exits quietly on a closed pipe ([`write_stdout`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::util::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` that exits quietly on a closed pipe ([`write_stdout`]).
macro_rules! outln {
    () => {
        $crate::util::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::util::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixing_is_fixed() {
        // Pinned values: changing the mixer would silently change every recorded game.
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        assert_ne!(mix(1, 0), mix(1, 1));
        assert_ne!(mix(1, 0), mix(2, 0));
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn agent_lists_keep_spec_commas() {
        assert_eq!(
            split_agents("ismcts:iters=2000,c=0.7,random, greedy").unwrap(),
            vec!["ismcts:iters=2000,c=0.7", "random", "greedy"]
        );
        assert_eq!(
            split_agents("random,random").unwrap(),
            vec!["random", "random"]
        );
        let e = split_agents("random,,greedy").unwrap_err().to_string();
        assert!(e.contains("agent 2 is empty"), "{e}");
    }

    #[test]
    fn result_texts() {
        assert_eq!(result_text(&[1.0, -1.0]), "1-0");
        assert_eq!(result_text(&[-1.0, 1.0]), "0-1");
        assert_eq!(result_text(&[0.0, 0.0]), "1/2-1/2");
        assert_eq!(result_text(&[1.0, -1.0, 1.0, -1.0]), "1 -1 1 -1");
        assert_eq!(result_text(&[0.5]), "0.5");
    }
}

/// Reads a whole number for a command-line flag, in `min..=max`. Negative numbers reach
/// here as values (`main` tells clap they are not flags), so `--games -2` is answered with
/// the range in our words instead of "invalid digit" or "unexpected argument".
fn whole_in(text: &str, min: u128, max: u128) -> Result<u128, String> {
    let t = text.trim();
    let range = if max == u64::MAX as u128 || max == usize::MAX as u128 {
        format!("a whole number ({min} or more)")
    } else {
        format!("a whole number from {min} to {max}")
    };
    if t.starts_with('-') && t[1..].chars().all(|c| c.is_ascii_digit()) && t.len() > 1 {
        return Err(format!("{t} is negative; expected {range}"));
    }
    match t.parse::<u128>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(_) if t.len() > 12 => Err(format!(
            "{t} is too large; expected {range} (at most {max})"
        )),
        Ok(_) => Err(format!("{t} is out of range; expected {range}")),
        Err(_) => Err(format!("'{t}' is not a whole number; expected {range}")),
    }
}

/// clap value parsers over [`whole_in`]: `any_*` take the type's whole range, `positive_*`
/// start at 1 (a count of games, threads, holes, nodes).
macro_rules! whole_parsers {
    ($($t:ty => $any:ident, $pos:ident;)*) => {$(
        #[doc = concat!("A `", stringify!($t), "` flag value (0 and up), negatives named as such.")]
        pub fn $any(text: &str) -> Result<$t, String> {
            whole_in(text, 0, <$t>::MAX as u128).map(|v| v as $t)
        }
        #[doc = concat!("A `", stringify!($t), "` flag value that must be at least 1.")]
        pub fn $pos(text: &str) -> Result<$t, String> {
            whole_in(text, 1, <$t>::MAX as u128).map(|v| v as $t)
        }
    )*};
}

/// `--chess960 N`: a Scharnagl number.
pub fn chess960_number(text: &str) -> Result<u16, String> {
    whole_in(text, 0, 959).map(|v| v as u16)
}

whole_parsers! {
    u64 => any_u64, positive_u64;
    usize => any_usize, positive_usize;
    u32 => any_u32, positive_u32;
    u16 => any_u16, positive_u16;
}

/// Reads a decimal number for a command-line flag, in `min..=max`: NaN, infinities and
/// numbers past `max` are refused with the range in our words (issue 39: `--max-seconds
/// 1e30` used to panic converting to a duration). clap adds the flag's name.
fn number_in(text: &str, min: f64, max: f64, unit: &str) -> Result<f64, String> {
    let t = text.trim();
    let range = format!("a number of {unit} from {min} to {max}");
    match t.parse::<f64>() {
        Ok(v) if v.is_nan() => Err(format!("'{t}' is not a number; expected {range}")),
        Ok(v) if v.is_infinite() => Err(format!("{t} is not finite; expected {range}")),
        Ok(v) if v < min => Err(format!("{t} is below {min}; expected {range}")),
        Ok(v) if v > max => Err(format!("{t} is too large; expected {range}")),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("'{t}' is not a number; expected {range}")),
    }
}

/// The longest time limit a flag takes: a year, far below what a duration can hold.
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A time limit in seconds (`--max-seconds`): 0 to a year.
pub fn seconds(text: &str) -> Result<f64, String> {
    number_in(text, 0.0, MAX_SECONDS, "seconds")
}

/// A material margin in pawns (`openings --margin`): 0 to 1000.
pub fn pawns(text: &str) -> Result<f64, String> {
    number_in(text, 0.0, 1000.0, "pawns")
}

/// A finite number in `min..=max` (for flags whose range is their own).
pub fn finite_in(text: &str, min: f64, max: f64) -> Result<f64, String> {
    number_in(text, min, max, "units")
}

/// A step size as a fraction of each parameter's range (`tune --spsa-c`,
/// `--cmaes-sigma`): above 0, at most 1.
pub fn range_fraction(text: &str) -> Result<f64, String> {
    let v = number_in(text, 0.0, 1.0, "the range (a fraction)")?;
    if v == 0.0 {
        return Err(format!(
            "{} is no step; expected a fraction of the range above 0, at most 1",
            text.trim()
        ));
    }
    Ok(v)
}

/// A gain, stability constant or penalty (`tune --spsa-a`, `--spsa-big-a`, `values
/// --l2`): 0 to a million.
pub fn gain(text: &str) -> Result<f64, String> {
    number_in(text, 0.0, 1e6, "units")
}

#[cfg(test)]
mod out_tests {
    use super::*;

    fn git(dir: &std::path::Path, args: &[&str]) {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .expect("git runs")
            .status
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn out_folders_refuse_what_they_hold() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        let resume = |given| Reuse {
            flag: "--resume",
            given,
            does: "to continue the run there",
        };
        // Missing and empty folders are fine; a file is not a folder.
        check_out_dir(&dir.join("new"), "--out", &[resume(false)]).unwrap();
        std::fs::create_dir(dir.join("empty")).unwrap();
        check_out_dir(&dir.join("empty"), "--out", &[resume(false)]).unwrap();
        std::fs::write(dir.join("f"), "x").unwrap();
        let e = check_out_dir(&dir.join("f"), "--out", &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a file"), "{e}");
        // A folder holding anything: refused, naming the flags that allow it.
        std::fs::create_dir(dir.join("full")).unwrap();
        std::fs::write(dir.join("full/x.txt"), "x").unwrap();
        let e = check_out_dir(&dir.join("full"), "--out", &[resume(false)])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("not empty") && e.contains("add --resume to continue the run there"),
            "{e}"
        );
        check_out_dir(&dir.join("full"), "--out", &[resume(true)]).unwrap();
        let e = check_out_dir(&dir.join("full"), "--out", &[])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("choose another folder") && !e.contains("add"),
            "{e}"
        );
        // The same under git: kept results get no --force hint, and a pointer to runs/.
        let repo = dir.join("repo");
        std::fs::create_dir_all(repo.join("results/golf")).unwrap();
        std::fs::write(repo.join("results/golf/course.txt"), "kept").unwrap();
        std::fs::create_dir_all(repo.join("scratch")).unwrap();
        std::fs::write(repo.join("scratch/x.txt"), "mine").unwrap();
        git(&repo, &["init", "-q"]);
        git(&repo, &["add", "results/golf/course.txt"]);
        let force = Reuse {
            flag: "--force",
            given: false,
            does: "to replace it",
        };
        let kept = repo.join("results/golf");
        assert!(kept_in_git(&kept) && kept_in_git(&kept.join("course.txt")));
        assert!(!kept_in_git(&repo.join("scratch")) && !kept_in_git(&repo.join("nosuch")));
        let e = check_out_dir(&kept, "--out", &[force])
            .unwrap_err()
            .to_string();
        assert!(e.contains("kept results") && !e.contains("--force"), "{e}");
        let e = check_output(&kept.join("course.txt"), &[], false, "--out")
            .unwrap_err()
            .to_string();
        assert!(e.contains("kept result") && !e.contains("--force"), "{e}");
        let e = check_out_dir(
            &repo.join("scratch"),
            "--out",
            &[Reuse {
                given: false,
                ..force
            }],
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("add --force to replace it"), "{e}");
        assert_eq!(
            elsewhere(std::path::Path::new("results/expedition/tuned")),
            " (e.g. runs/expedition/tuned)"
        );
        assert_eq!(
            default_out(&["tournaments", "chess-1"]),
            std::path::PathBuf::from("runs/tournaments/chess-1")
        );
    }
}

#[cfg(test)]
mod number_tests {
    use super::*;

    #[test]
    fn numeric_flags_refuse_overflow_infinity_and_nan() {
        for bad in [
            "inf",
            "-inf",
            "NaN",
            "1e30",
            "1e300",
            "18446744073709551616",
            "x",
            "-1",
        ] {
            let e = seconds(bad).unwrap_err();
            assert!(e.contains("expected a number of seconds"), "{bad}: {e}");
        }
        assert_eq!(seconds("2.5"), Ok(2.5));
        assert_eq!(pawns("0"), Ok(0.0));
        for bad in ["18446744073709551616", "-1", "1e30"] {
            assert!(any_u64(bad).is_err(), "{bad}");
            assert!(any_u32(bad).is_err(), "{bad}");
        }
    }
}

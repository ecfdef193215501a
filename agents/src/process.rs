//! A child process spoken to in lines: the transport under the `uci` and `ext` agents
//! and nothing else. Lines from the child's standard output arrive through a reader
//! thread, so every read can have a deadline: a program that hangs is detected, not
//! waited for.
//!
//! Decisions where the issue is silent: a command without a `/` is looked up in `PATH`,
//! then in `/usr/games` and `/usr/local/games` (where Debian puts `stockfish` and
//! `fairy-stockfish`, folders not on every `PATH`); the child's standard error is
//! discarded (engines write debugging noise there); dropping a [`Child`] sends
//! `quit_line` if one is set, waits up to [`QUIT_GRACE`] and then kills the process.
//! Tests: `rule_process_*` below.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use thiserror::Error;

/// How long a child may take to exit after its quit line before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(1000);

/// What went wrong talking to a child process.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ProcessError {
    #[error("program '{0}' not found (looked in PATH, /usr/games and /usr/local/games); install it or give its full path")]
    NotFound(String),
    #[error("cannot start '{program}': {message}")]
    Spawn { program: String, message: String },
    #[error("'{0}' closed its output (it exited or crashed)")]
    Closed(String),
    #[error("'{program}' sent nothing for {waited_ms} ms")]
    Timeout { program: String, waited_ms: u64 },
}

/// Why an outside program could not be used as an agent (found before a run starts).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ExternalError {
    #[error(transparent)]
    Process(#[from] ProcessError),
    #[error("'{program}' did not answer '{command}' with '{expected}' within {timeout_ms} ms (is it a {protocol} program?)")]
    NoAnswer {
        program: String,
        protocol: &'static str,
        command: String,
        expected: String,
        timeout_ms: u64,
    },
    #[error("'{program}' has no option '{name}' (its options: {known})")]
    UnknownOption {
        program: String,
        name: String,
        known: String,
    },
    #[error("{0}")]
    Setting(String),
}

/// Finds `program`: a path is taken as it is (it must exist), a bare name is looked up in
/// `PATH`, then in the games folders.
pub fn locate(program: &str) -> Result<PathBuf, ProcessError> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(ProcessError::NotFound(program.into()))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.push("/usr/games".into());
    dirs.push("/usr/local/games".into());
    dirs.iter()
        .map(|d| d.join(program))
        .find(|p| is_executable(p))
        .ok_or_else(|| ProcessError::NotFound(program.into()))
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

/// A running child with line-based standard input and output.
pub struct Child {
    name: String,
    child: std::process::Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Sent when the child is dropped, before waiting for it to exit.
    pub quit_line: Option<String>,
}

impl Child {
    /// Starts `program` with `args`.
    pub fn spawn(program: &str, args: &[String]) -> Result<Child, ProcessError> {
        let path = locate(program)?;
        let mut child = Command::new(&path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ProcessError::Spawn {
                program: program.into(),
                message: e.to_string(),
            })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let reader = BufReader::new(stdout);
            for line in reader.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Child {
            name: program.into(),
            child,
            stdin,
            lines: rx,
            quit_line: None,
        })
    }

    /// The program name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line (a newline is added). A closed pipe means the child is gone.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        let closed = || ProcessError::Closed(self.name.clone());
        let stdin = self.stdin.as_mut().ok_or_else(closed)?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .map_err(|_| closed())
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant, started: Instant) -> Result<String, ProcessError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::Timeout {
                program: self.name.clone(),
                waited_ms: started.elapsed().as_millis() as u64,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(ProcessError::Closed(self.name.clone())),
        }
    }

    /// Kills the child at once (after a hang, or a reply that leaves it out of step).
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        if let Some(q) = self.quit_line.take() {
            let _ = self.send(&q);
        }
        self.stdin = None;
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_process_missing_program_is_named() {
        let e = Child::spawn("no-such-engine-xyz", &[]).err().unwrap();
        assert_eq!(e, ProcessError::NotFound("no-such-engine-xyz".into()));
        assert!(e.to_string().contains("install it"), "{e}");
        let e = Child::spawn("/nonexistent/dir/engine", &[]).err().unwrap();
        assert!(matches!(e, ProcessError::NotFound(_)));
    }

    #[test]
    fn rule_process_lines_round_trip_and_eof_is_closed() {
        let mut c = Child::spawn("cat", &[]).unwrap();
        c.send("hello").unwrap();
        let t = Instant::now();
        assert_eq!(
            c.recv(t + Duration::from_secs(10), t).unwrap(),
            "hello".to_string()
        );
        // Nothing more comes: a deadline in the past times out.
        assert!(matches!(
            c.recv(Instant::now(), t),
            Err(ProcessError::Timeout { .. })
        ));
        c.kill();
        assert!(matches!(
            c.recv(Instant::now() + Duration::from_secs(10), t),
            Err(ProcessError::Closed(_))
        ));
    }
}

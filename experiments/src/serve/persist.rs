//! The board's games on disk: one SQLite file (`games.sqlite` under `--data DIR`, default
//! `./chesslab-data`), written through after every change, read back at start so a
//! restart (even after `kill -9`) resumes every game where it stood, bots included.
//!
//! A row holds what rebuilds a game: variant, parameters (TOML), seed, opening, seat
//! specs, the audit and practice flags, the SHA-256 hashes of the seat tokens (never the
//! tokens), the action record and who decided each action (for takeback). A game is
//! rebuilt by replaying its record on a fresh start ([`super::games::Session::restore`]).
//!
//! Decisions: the journal is WAL with `synchronous = NORMAL` (a committed change survives
//! a killed process; a power cut may lose the last changes, never corrupt the file); a
//! game's row is rewritten whole at each change (records are short); a secret commit at a
//! simultaneous node that is not yet played is not stored (the seat commits again after a
//! restart); after a restart chance and bots draw from streams reseeded by the game's
//! seed and its number of actions ([`super::games`]), so a bot game that crossed a restart
//! is no longer `play_game`'s game for its seed.
//!
//! Issue 65: expired games move to the `archive` table (same columns), never deleted;
//! the folder is created 0700 and the database and its `-wal` and `-shm` files are made
//! 0600 (they hold the seeds and records of running hidden games; an older file is
//! tightened when opened); a game's `version` is stored, so versions only grow across a
//! restart; a bot's forfeit, the practice reason and the start time of a bot decision in
//! progress (`thinking_since`) are stored too. Columns added since a file was made are
//! added when it is opened. Tests: `rule_serve_games_survive_a_restart` in
//! `experiments/tests/serve_api.rs`, `rule_serve_versions_only_grow`,
//! `rule_serve_data_files_are_private` and `rule_serve_expiry_archives` in
//! `experiments/tests/serve_limits.rs`.

use super::api::ResultView;
use super::games::Session;
use anyhow::{Context, Result};
use engine::game::Seat;
use rusqlite::{params, Connection};
use std::path::Path;
use std::sync::Mutex;
use std::time::SystemTime;

/// The database file's name inside `--data DIR`.
pub const FILE: &str = "games.sqlite";

/// One stored game, as read back.
#[derive(Debug, Clone)]
pub struct SavedGame {
    pub id: String,
    pub variant: String,
    pub params_toml: String,
    pub seed: u64,
    pub opening: Option<String>,
    pub seats: Vec<String>,
    pub audit: bool,
    pub practice: bool,
    pub token_hashes: Vec<Option<String>>,
    pub actions: Vec<String>,
    pub deciders: Vec<Vec<Seat>>,
    pub version: u64,
    pub forfeit: Option<ResultView>,
    pub practice_why: Option<String>,
    /// When a bot began the decision in progress (`None`: none was in progress).
    pub thinking_since: Option<SystemTime>,
}

/// Columns added after the first version of the file: name and SQL type.
const ADDED: &[(&str, &str)] = &[
    ("version", "INTEGER NOT NULL DEFAULT 0"),
    ("forfeit", "TEXT"),
    ("practice_why", "TEXT"),
    ("thinking_since", "INTEGER"),
];

/// Makes `path` readable and writable by its owner only, if it exists.
fn private(path: &Path, mode: u32) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if path.exists() {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
                .with_context(|| format!("cannot make {} private", path.display()))?;
        }
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
    Ok(())
}

pub struct Db {
    conn: Mutex<Connection>,
}

impl Db {
    /// Opens (creating) `DIR/games.sqlite`.
    pub fn open(dir: &Path) -> Result<Db> {
        if !dir.exists() {
            let mut b = std::fs::DirBuilder::new();
            b.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
            b.create(dir)
                .with_context(|| format!("--data {}: cannot create the folder", dir.display()))?;
        } else if !dir.is_dir() {
            anyhow::bail!("--data {}: not a folder", dir.display());
        }
        let path = dir.join(FILE);
        // Created private before SQLite opens it; SQLite gives the -wal and -shm files the
        // database file's permissions.
        {
            let mut o = std::fs::OpenOptions::new();
            o.create(true).append(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
            o.open(&path)
                .with_context(|| format!("cannot create the games database {}", path.display()))?;
        }
        for f in [FILE, "games.sqlite-wal", "games.sqlite-shm"] {
            private(&dir.join(f), 0o600)?;
        }
        let conn = Connection::open(&path)
            .with_context(|| format!("cannot open the games database {}", path.display()))?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .context("cannot set the database's journal")?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .context("cannot set the database's journal")?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS games (
                id TEXT PRIMARY KEY,
                variant TEXT NOT NULL,
                params_toml TEXT NOT NULL,
                seed TEXT NOT NULL,
                opening TEXT,
                seats TEXT NOT NULL,
                audit INTEGER NOT NULL,
                practice INTEGER NOT NULL,
                token_hashes TEXT NOT NULL,
                actions TEXT NOT NULL,
                deciders TEXT NOT NULL,
                over INTEGER NOT NULL
            );",
        )
        .with_context(|| format!("{}: not a games database of this version", path.display()))?;
        let have: Vec<String> = {
            let mut stmt = conn.prepare("SELECT name FROM pragma_table_info('games')")?;
            let names = stmt
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            names
        };
        for (name, kind) in ADDED {
            if !have.iter().any(|h| h == name) {
                conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {name} {kind};"))
                    .with_context(|| format!("{}: cannot add column {name}", path.display()))?;
            }
        }
        conn.execute_batch("CREATE TABLE IF NOT EXISTS archive AS SELECT * FROM games WHERE 0;")
            .with_context(|| format!("{}: cannot make the archive table", path.display()))?;
        let have_archive: Vec<String> = {
            let mut stmt = conn.prepare("SELECT name FROM pragma_table_info('archive')")?;
            let names = stmt
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            names
        };
        for (name, kind) in ADDED {
            if !have_archive.iter().any(|h| h == name) {
                conn.execute_batch(&format!("ALTER TABLE archive ADD COLUMN {name} {kind};"))
                    .with_context(|| format!("{}: cannot add column {name}", path.display()))?;
            }
        }
        // The journal files exist now (WAL): private too.
        for f in ["games.sqlite-wal", "games.sqlite-shm"] {
            private(&dir.join(f), 0o600)?;
        }
        Ok(Db {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn insert(
        &self,
        id: &str,
        s: &dyn Session,
        token_hashes: &[Option<String>],
        audit: bool,
    ) -> Result<()> {
        self.conn().execute(
            "INSERT OR REPLACE INTO games
             (id, variant, params_toml, seed, opening, seats, audit, practice, token_hashes, actions, deciders, over, version, forfeit, practice_why, thinking_since)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, NULL)",
            params![
                id,
                s.variant(),
                s.params_toml(),
                // TEXT: SQLite integers are signed 64-bit.
                s.seed().to_string(),
                s.opening(),
                serde_json::to_string(s.seat_specs())?,
                audit,
                s.practice(),
                serde_json::to_string(token_hashes)?,
                serde_json::to_string(s.actions())?,
                serde_json::to_string(s.deciders())?,
                s.result().is_some(),
                s.version() as i64,
                s.forfeited().map(|f| serde_json::to_string(&f)).transpose()?,
                s.practice_why(),
            ],
        )?;
        Ok(())
    }

    pub fn update(&self, id: &str, s: &dyn Session) -> Result<()> {
        self.conn().execute(
            "UPDATE games SET actions = ?2, deciders = ?3, over = ?4, version = ?5, forfeit = ?6, thinking_since = NULL WHERE id = ?1",
            params![
                id,
                serde_json::to_string(s.actions())?,
                serde_json::to_string(s.deciders())?,
                s.result().is_some(),
                s.version() as i64,
                s.forfeited().map(|f| serde_json::to_string(&f)).transpose()?,
            ],
        )?;
        Ok(())
    }

    /// Notes that a bot of game `id` began deciding at `since`.
    pub fn set_thinking(&self, id: &str, since: SystemTime) -> Result<()> {
        let ms = since
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis()
            .min(i64::MAX as u128) as i64;
        self.conn().execute(
            "UPDATE games SET thinking_since = ?2 WHERE id = ?1",
            params![id, ms],
        )?;
        Ok(())
    }

    /// Moves game `id` from the live table to the archive (never deleted: expiry is
    /// computed from clocks and limits, which can be wrong).
    pub fn archive(&self, id: &str) -> Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "INSERT OR REPLACE INTO archive SELECT * FROM games WHERE id = ?1",
            params![id],
        )?;
        tx.execute("DELETE FROM games WHERE id = ?1", params![id])?;
        tx.commit()?;
        Ok(())
    }

    /// How many games the archive holds.
    pub fn archived(&self) -> Result<usize> {
        let n: i64 = self
            .conn()
            .query_row("SELECT COUNT(*) FROM archive", [], |r| r.get(0))?;
        Ok(n as usize)
    }

    /// Every stored game. A row that cannot be read is reported and skipped.
    pub fn load(&self) -> Result<Vec<SavedGame>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, variant, params_toml, seed, opening, seats, audit, practice, token_hashes, actions, deciders, version, forfeit, practice_why, thinking_since FROM games",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, bool>(6)?,
                r.get::<_, bool>(7)?,
                r.get::<_, String>(8)?,
                r.get::<_, String>(9)?,
                r.get::<_, String>(10)?,
                (
                    r.get::<_, i64>(11)?,
                    r.get::<_, Option<String>>(12)?,
                    r.get::<_, Option<String>>(13)?,
                    r.get::<_, Option<i64>>(14)?,
                ),
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (
                id,
                variant,
                params_toml,
                seed,
                opening,
                seats,
                audit,
                practice,
                hashes,
                actions,
                deciders,
                (version, forfeit, practice_why, thinking_since),
            ) = row?;
            let parsed = (|| -> Result<SavedGame> {
                Ok(SavedGame {
                    seed: seed.parse().context("seed")?,
                    seats: serde_json::from_str(&seats).context("seats")?,
                    token_hashes: serde_json::from_str(&hashes).context("token hashes")?,
                    actions: serde_json::from_str(&actions).context("actions")?,
                    deciders: serde_json::from_str(&deciders).context("deciders")?,
                    version: version.max(0) as u64,
                    forfeit: forfeit
                        .map(|f| serde_json::from_str(&f))
                        .transpose()
                        .context("forfeit")?,
                    practice_why,
                    thinking_since: thinking_since.map(|ms| {
                        SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(ms.max(0) as u64)
                    }),
                    id: id.clone(),
                    variant,
                    params_toml,
                    opening,
                    audit,
                    practice,
                })
            })();
            match parsed {
                Ok(g) => out.push(g),
                // The column's name only: the row's contents stay in the file.
                Err(e) => eprintln!("warning: stored game {id} is unreadable ({e}); skipped"),
            }
        }
        Ok(out)
    }
}

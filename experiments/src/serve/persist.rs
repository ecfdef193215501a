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
//! is no longer `play_game`'s game for its seed. Expired games are deleted. Test:
//! `rule_serve_games_survive_a_restart` in `experiments/tests/serve_api.rs`.

use super::games::Session;
use anyhow::{Context, Result};
use engine::game::Seat;
use rusqlite::{params, Connection};
use std::path::Path;
use std::sync::Mutex;

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
}

pub struct Db {
    conn: Mutex<Connection>,
}

impl Db {
    /// Opens (creating) `DIR/games.sqlite`.
    pub fn open(dir: &Path) -> Result<Db> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--data {}: cannot create the folder", dir.display()))?;
        let path = dir.join(FILE);
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
             (id, variant, params_toml, seed, opening, seats, audit, practice, token_hashes, actions, deciders, over)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
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
            ],
        )?;
        Ok(())
    }

    pub fn update(&self, id: &str, s: &dyn Session) -> Result<()> {
        self.conn().execute(
            "UPDATE games SET actions = ?2, deciders = ?3, over = ?4 WHERE id = ?1",
            params![
                id,
                serde_json::to_string(s.actions())?,
                serde_json::to_string(s.deciders())?,
                s.result().is_some(),
            ],
        )?;
        Ok(())
    }

    pub fn delete(&self, id: &str) -> Result<()> {
        self.conn()
            .execute("DELETE FROM games WHERE id = ?1", params![id])?;
        Ok(())
    }

    /// Every stored game. A row that cannot be read is reported and skipped.
    pub fn load(&self) -> Result<Vec<SavedGame>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, variant, params_toml, seed, opening, seats, audit, practice, token_hashes, actions, deciders FROM games",
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
            ) = row?;
            let parsed = (|| -> Result<SavedGame> {
                Ok(SavedGame {
                    seed: seed.parse().context("seed")?,
                    seats: serde_json::from_str(&seats).context("seats")?,
                    token_hashes: serde_json::from_str(&hashes).context("token hashes")?,
                    actions: serde_json::from_str(&actions).context("actions")?,
                    deciders: serde_json::from_str(&deciders).context("deciders")?,
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

//! The live games ([`Store`]): each [`Entry`] holds a session, the hashes of its seat
//! tokens, its update channel and a cancel flag; the store bounds their number, drops
//! idle games (setting their cancel flag, so a bot thinking for an expired game stops at
//! its next decision) and writes every change through to the database ([`super::persist`])
//! when the server has one.
//!
//! Tokens are kept and stored only as SHA-256 hashes: the creator gets the token once,
//! and a request's token is hashed and compared without stopping at the first
//! difference.

use super::api::ApiError;
use super::games::{Session, HUMAN};
use super::persist::{Db, SavedGame};
use engine::game::Seat;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One live game: the session, its seat tokens' hashes and its update channel.
pub struct Entry {
    pub id: String,
    pub session: tokio::sync::Mutex<Box<dyn Session>>,
    /// Per seat: the hash of a human seat's token, `None` for bots.
    token_hashes: Vec<Option<[u8; 32]>>,
    pub audit: bool,
    pub updates: tokio::sync::watch::Sender<u64>,
    last_used: std::sync::Mutex<Instant>,
    /// Set when the game is dropped: its bots stop at their next decision.
    pub cancelled: AtomicBool,
}

impl Entry {
    pub fn touch(&self) {
        if let Ok(mut t) = self.last_used.lock() {
            *t = Instant::now();
        }
    }
    fn idle(&self) -> Duration {
        self.last_used
            .lock()
            .map_or(Duration::ZERO, |t| t.elapsed())
    }
    /// Whether `token` is the token of human seat `seat`.
    pub fn token_ok(&self, seat: Seat, token: Option<&str>) -> bool {
        match (self.token_hashes.get(seat), token) {
            (Some(Some(h)), Some(given)) => constant_eq(h, &hash(given)),
            _ => false,
        }
    }
    pub fn seats(&self) -> usize {
        self.token_hashes.len()
    }
    pub fn is_human(&self, seat: Seat) -> bool {
        matches!(self.token_hashes.get(seat), Some(Some(_)))
    }
    pub fn has_humans(&self) -> bool {
        self.token_hashes.iter().any(Option::is_some)
    }
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Compares without stopping at the first difference.
fn constant_eq(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// The live games.
pub struct Store {
    games: std::sync::Mutex<HashMap<String, Arc<Entry>>>,
    pub max_games: usize,
    pub idle: Duration,
    db: Option<Db>,
}

impl Store {
    pub fn new(max_games: usize, idle: Duration, db: Option<Db>) -> Store {
        Store {
            games: std::sync::Mutex::new(HashMap::new()),
            max_games,
            idle,
            db,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Entry>>> {
        // A panic while holding the lock cannot leave the map half-changed (every
        // change is one insert or retain), so a poisoned lock is still usable.
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Drops games idle for longer than the limit (from memory and the database, their
    /// bots cancelled); returns how many were dropped.
    pub fn expire(&self) -> usize {
        let dropped: Vec<Arc<Entry>> = {
            let mut g = self.lock();
            let old: Vec<String> = g
                .iter()
                .filter(|(_, e)| e.idle() > self.idle)
                .map(|(k, _)| k.clone())
                .collect();
            old.iter().filter_map(|k| g.remove(k)).collect()
        };
        for e in &dropped {
            e.cancelled.store(true, Ordering::Relaxed);
            if let Some(db) = &self.db {
                if let Err(err) = db.delete(&e.id) {
                    eprintln!(
                        "warning: cannot drop game {} from the database: {err:#}",
                        e.id
                    );
                }
            }
        }
        dropped.len()
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a new game; returns it and its seat tokens (`None` for bots), or an error
    /// when the store is full.
    pub fn insert(
        &self,
        session: Box<dyn Session>,
        audit: bool,
    ) -> Result<(Arc<Entry>, Vec<Option<String>>), ApiError> {
        self.expire();
        let tokens: Vec<Option<String>> = session
            .seat_specs()
            .iter()
            .map(|s| (s == HUMAN).then(secret))
            .collect();
        let hashes = tokens.iter().map(|t| t.as_deref().map(hash)).collect();
        let entry = {
            let mut g = self.lock();
            if g.len() >= self.max_games {
                return Err(ApiError::unavailable(format!(
                    "too many live games ({}); try again when idle games have expired",
                    self.max_games
                )));
            }
            let mut id = secret();
            while g.contains_key(&id) {
                id = secret();
            }
            let entry = new_entry(id.clone(), session, hashes, audit);
            g.insert(id, entry.clone());
            entry
        };
        self.save_new(&entry);
        Ok((entry, tokens))
    }

    /// Puts back a game read from the database at start.
    pub fn restore(&self, saved: &SavedGame, session: Box<dyn Session>) {
        let hashes = saved
            .token_hashes
            .iter()
            .map(|h| h.as_deref().and_then(unhex))
            .collect();
        let entry = new_entry(saved.id.clone(), session, hashes, saved.audit);
        self.lock().insert(saved.id.clone(), entry);
    }

    fn save_new(&self, entry: &Entry) {
        let Some(db) = &self.db else { return };
        let hashes: Vec<Option<String>> = entry
            .token_hashes
            .iter()
            .map(|h| h.as_ref().map(|h| hex(h)))
            .collect();
        let Ok(s) = entry.session.try_lock() else {
            return;
        };
        if let Err(e) = db.insert(&entry.id, &**s, &hashes, entry.audit) {
            eprintln!("warning: cannot store game {}: {e:#}", entry.id);
        }
    }

    /// Writes the game's record after a change (when the server keeps a database).
    pub fn save(&self, entry: &Entry, session: &dyn Session) {
        let Some(db) = &self.db else { return };
        if entry.is_cancelled() {
            return;
        }
        if let Err(e) = db.update(&entry.id, session) {
            eprintln!("warning: cannot store game {}: {e:#}", entry.id);
        }
    }

    pub fn get(&self, id: &str) -> Result<Arc<Entry>, ApiError> {
        let e = self.lock().get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no live game '{}' (it may have expired)",
                id.chars().take(64).collect::<String>()
            ))
        })?;
        e.touch();
        Ok(e)
    }
}

fn new_entry(
    id: String,
    session: Box<dyn Session>,
    token_hashes: Vec<Option<[u8; 32]>>,
    audit: bool,
) -> Arc<Entry> {
    let version = session.version();
    Arc::new(Entry {
        id,
        session: tokio::sync::Mutex::new(session),
        token_hashes,
        audit,
        updates: tokio::sync::watch::channel(version).0,
        last_used: std::sync::Mutex::new(Instant::now()),
        cancelled: AtomicBool::new(false),
    })
}

/// 128 random bits as hex: game ids and seat tokens. Drawn from the operating system's
/// entropy (not from a game's seed): they guard access, they do not shape games.
pub fn secret() -> String {
    use rand::RngCore;
    let mut b = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut b);
    hex(&b)
}

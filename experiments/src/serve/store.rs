//! The live games ([`Store`]): each [`Entry`] holds a session, the hashes of its seat
//! tokens, its update channel and a cancel flag; the store bounds their number, drops
//! idle games (setting their cancel flag and raising the stop flag of a decision in
//! progress, so a bot thinking for an expired game answers at once) and writes every
//! change through to the database ([`super::persist`]) when the server has one.
//!
//! Quotas (issue 65): a client is the address a request comes from. One client may hold
//! at most [`Quotas::per_client`] live games and create at most [`Quotas::per_minute`]
//! per minute (429 beyond, naming the limit); a game with a human seat in which no human
//! has acted is dropped [`Quotas::unplayed`] after its creation, however often it is
//! read. Clients behind one address (every page on the server's own machine, a proxy)
//! share its quota. Games read back at a restart belong to no client.
//!
//! Expiry never deletes a stored game: an expired game's row moves to the database's
//! archive table ([`super::persist::Db::archive`]), so a wrong clock or limit can cost
//! the live list, never a record. Tests `rule_serve_quotas_*` and
//! `rule_serve_expiry_archives` in `experiments/tests/serve_limits.rs`.
//!
//! Tokens are kept and stored only as SHA-256 hashes: the creator gets the token once,
//! and a request's token is hashed and compared without stopping at the first
//! difference.

use super::api::ApiError;
use super::games::{Session, HUMAN};
use super::persist::{Db, SavedGame};
use engine::game::Seat;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What one client may hold and make (flags of `chesslab serve`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quotas {
    /// Most live games created by one client.
    pub per_client: usize,
    /// Most games one client may create in a minute.
    pub per_minute: usize,
    /// A game with a human seat no human has acted in is dropped this long after its
    /// creation.
    pub unplayed: Duration,
}

impl Default for Quotas {
    fn default() -> Self {
        Quotas {
            per_client: 100,
            per_minute: 60,
            unplayed: Duration::from_secs(10 * 60),
        }
    }
}

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
    /// The client that created the game (`None`: read back at a restart, or made
    /// without a server).
    pub owner: Option<IpAddr>,
    created: Instant,
    /// A human has acted (or the game has no human seat).
    played: AtomicBool,
    /// Stop flags of the decisions running for this game, raised when it is dropped.
    stops: std::sync::Mutex<Vec<Arc<AtomicBool>>>,
    /// Time a bot had spent on the decision in progress when the server stopped (read
    /// back at a restart; the decision gets only the rest of its limit).
    spent: std::sync::Mutex<Option<Duration>>,
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
    /// Drops the game's work: its bots stop at their next decision, and the decisions in
    /// progress are asked to answer at once.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
        for f in self.stops.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            f.store(true, Ordering::Relaxed);
        }
    }
    /// Registers the stop flag of a decision for this game (raised by [`Entry::cancel`]).
    pub fn watch_stop(&self, flag: &Arc<AtomicBool>) {
        if self.is_cancelled() {
            flag.store(true, Ordering::Relaxed);
        }
        let mut v = self.stops.lock().unwrap_or_else(|p| p.into_inner());
        v.retain(|f| Arc::strong_count(f) > 1);
        v.push(flag.clone());
    }
    /// A human acted.
    pub fn mark_played(&self) {
        self.played.store(true, Ordering::Relaxed);
    }
    /// The time spent before a restart on the decision in progress then (once).
    pub fn take_spent(&self) -> Duration {
        self.spent
            .lock()
            .map(|mut s| s.take().unwrap_or_default())
            .unwrap_or_default()
    }
    fn unplayed_for(&self) -> Option<Duration> {
        (!self.played.load(Ordering::Relaxed)).then(|| self.created.elapsed())
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
    pub quotas: Quotas,
    /// Per client, the times of its creates in the last minute.
    creates: std::sync::Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
    db: Option<Db>,
}

impl Store {
    pub fn new(max_games: usize, idle: Duration, quotas: Quotas, db: Option<Db>) -> Store {
        Store {
            games: std::sync::Mutex::new(HashMap::new()),
            max_games,
            idle,
            quotas,
            creates: std::sync::Mutex::new(HashMap::new()),
            db,
        }
    }

    pub fn db(&self) -> Option<&Db> {
        self.db.as_ref()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Entry>>> {
        // A panic while holding the lock cannot leave the map half-changed (every
        // change is one insert or retain), so a poisoned lock is still usable.
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Drops games idle for longer than the limit, and games no human has played
    /// [`Quotas::unplayed`] after their creation (their bots cancelled; their rows moved
    /// to the database's archive, never deleted); returns how many were dropped.
    pub fn expire(&self) -> usize {
        let dropped: Vec<Arc<Entry>> = {
            let mut g = self.lock();
            let old: Vec<String> = g
                .iter()
                .filter(|(_, e)| {
                    e.idle() > self.idle
                        || e.unplayed_for().is_some_and(|t| t > self.quotas.unplayed)
                })
                .map(|(k, _)| k.clone())
                .collect();
            old.iter().filter_map(|k| g.remove(k)).collect()
        };
        for e in &dropped {
            e.cancel();
            if let Some(db) = &self.db {
                if let Err(err) = db.archive(&e.id) {
                    eprintln!(
                        "warning: cannot move game {} to the database's archive: {err:#}",
                        e.id
                    );
                }
            }
        }
        dropped.len()
    }

    /// Refuses a create by `client` over its quotas (429), else counts it.
    fn admit(&self, client: IpAddr, g: &HashMap<String, Arc<Entry>>) -> Result<(), ApiError> {
        let live = g.values().filter(|e| e.owner == Some(client)).count();
        if live >= self.quotas.per_client {
            return Err(ApiError::too_many(format!(
                "this client has {live} live games, the server's limit per client (--max-games-per-client); finish or leave some (unplayed games expire {} min after creation)",
                self.quotas.unplayed.as_secs() / 60
            )));
        }
        let mut creates = self.creates.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        let minute = Duration::from_secs(60);
        creates.retain(|_, q| {
            while q.front().is_some_and(|t| now.duration_since(*t) >= minute) {
                q.pop_front();
            }
            !q.is_empty()
        });
        let q = creates.entry(client).or_default();
        if q.len() >= self.quotas.per_minute {
            return Err(ApiError::too_many(format!(
                "this client created {} games in the last minute, the server's limit (--max-creates-per-minute); try again in a minute",
                q.len()
            )));
        }
        q.push_back(now);
        Ok(())
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
        owner: Option<IpAddr>,
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
            if let Some(client) = owner {
                self.admit(client, &g)?;
            }
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
            let entry = new_entry(id.clone(), session, hashes, audit, owner, None);
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
        let spent = saved.thinking_since.map(|t| {
            std::time::SystemTime::now()
                .duration_since(t)
                .unwrap_or_default()
        });
        let entry = new_entry(saved.id.clone(), session, hashes, saved.audit, None, spent);
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

    /// Notes in the database that a bot of the game started deciding, `spent` ago (so a
    /// restart gives the decision only the rest of its limit).
    pub fn thinking(&self, entry: &Entry, spent: Duration) {
        let Some(db) = &self.db else { return };
        if entry.is_cancelled() {
            return;
        }
        let since = std::time::SystemTime::now()
            .checked_sub(spent)
            .unwrap_or(std::time::SystemTime::UNIX_EPOCH);
        if let Err(e) = db.set_thinking(&entry.id, since) {
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
    owner: Option<IpAddr>,
    spent: Option<Duration>,
) -> Arc<Entry> {
    let version = session.version();
    let played = token_hashes.iter().all(Option::is_none)
        || session.deciders().iter().any(|d| !d.is_empty());
    Arc::new(Entry {
        owner,
        created: Instant::now(),
        played: AtomicBool::new(played),
        stops: std::sync::Mutex::new(Vec::new()),
        spent: std::sync::Mutex::new(spent),
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

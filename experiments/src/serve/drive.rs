//! Bots and chance moving a game on after every change (issue 64), on the server's
//! runtime: [`drive`] steps a game until a human must act, and each bot decision runs
//! off the game's lock with a stop flag and a deadline.

use super::store::Entry;
use super::{games, Shared};
use std::sync::Arc;

/// Plays bots and chance until a human must act, telling the watchers after every
/// action (issue 64). The game's lock is held only to start and to end a step, never while
/// a bot thinks: a decision runs on a blocking thread with a stop flag, which is raised at
/// the server's limit (`--max-time-ms`, times the bots deciding at once) and when the game
/// is dropped ([`Entry::cancel`]); an agent that has not answered [`games::GRACE`]
/// after that forfeits the game on time (the reason says so; its thread is left to end by
/// itself). A decision in progress at a restart gets only the rest of its limit. One
/// drive at a time steps a game (a second finds the decision out and returns).
pub(super) fn drive(server: Shared, entry: Arc<Entry>) {
    tokio::spawn(async move {
        loop {
            if entry.is_cancelled() {
                break;
            }
            let step = {
                let mut s = entry.session.lock().await;
                let step =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.begin_step()));
                if matches!(step, Ok(Ok(games::Step::Played))) {
                    server.store.save(&entry, &**s);
                    entry.updates.send_replace(s.version());
                }
                step
            };
            match step {
                Ok(Ok(games::Step::Idle)) => break,
                Ok(Ok(games::Step::Played)) => continue,
                Ok(Ok(games::Step::Think(t))) => {
                    if !think(&server, &entry, t).await {
                        break;
                    }
                }
                Ok(Err(e)) => {
                    eprintln!("note: a game stopped: {e}");
                    break;
                }
                Err(_) => {
                    eprintln!("note: the rules panicked; the game waits");
                    break;
                }
            }
        }
    });
}

/// Runs one bot decision off the game's lock (see [`drive`]); whether to go on.
async fn think(server: &Shared, entry: &Arc<Entry>, t: games::Think) -> bool {
    let seats = t.seats.len().max(1) as u32;
    let full = server.rules.limits.decision_time().saturating_mul(seats);
    let spent = entry.take_spent().min(full);
    let limit = full - spent;
    server.store.thinking(entry, spent);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    entry.watch_stop(&stop);
    let flag = stop.clone();
    let job = t.job;
    let mut handle = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&flag)))
    });
    let out = match tokio::time::timeout(limit, &mut handle).await {
        Ok(r) => Some(r),
        Err(_) => {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            tokio::time::timeout(games::GRACE, &mut handle).await.ok()
        }
    };
    // Raised in any case: the flag is also how `watch_stop` knows it is done with.
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut s = entry.session.lock().await;
    let go_on = match out {
        Some(Ok(Ok(out))) => match s.end_think(t.version, out) {
            Ok(()) => true,
            Err(e) => {
                eprintln!("note: a game stopped: {e}");
                false
            }
        },
        Some(_) => {
            eprintln!("note: a bot panicked; the game waits");
            s.think_failed(t.version, None);
            false
        }
        None => {
            s.think_failed(
                t.version,
                Some(format!(
                    "no answer {} ms after the server's limit of {} ms (--max-time-ms)",
                    games::GRACE.as_millis(),
                    full.as_millis()
                )),
            );
            true
        }
    };
    server.store.save(entry, &**s);
    entry.updates.send_replace(s.version());
    go_on
}

//! The board's accept loop and connections: HTTP/1.1 over each accepted TCP stream
//! (hyper), serving the router of [`super::app`]. It replaces `axum::serve` for three
//! reasons (issue 35):
//!
//! - Every refusal is JSON. hyper answers a request it cannot parse (a request target
//!   over 64 KiB: 414; a head over its buffer: 431; a broken request line: 400) by itself,
//!   with an empty body, before any router or middleware runs. [`JsonRefusals`] sits
//!   between hyper and the socket and replaces exactly those answers with the same status
//!   and a JSON `{"error": ...}` body. It recognises them by their shape: hyper writes such
//!   an answer as the last bytes of the connection, a bare head with `content-length: 0`
//!   and no content type; every answer of the router that is not 2xx or 3xx carries
//!   `application/json` ([`super::guard::json_errors`]), so none of them matches.
//! - The accept queue. Listeners are made by [`bind`] with a queue of [`BACKLOG`]
//!   connections, not the 128 of `TcpListener::bind`, whose overflow cost clients a
//!   one-second SYN retransmission under load (README, Load).
//! - Accept errors. `axum::serve` sleeps a whole second after an accept error other than
//!   a reset or abort (the process out of file descriptors, say). Here the loop waits
//!   50 ms and says why on standard error, so a burst of connections is not held for
//!   a second by the server.
//!
//! Decisions: HTTP/1.1 only (the page and every client the board has speak it; no h2c);
//! `TCP_NODELAY` on every connection (small JSON answers go out at once rather than
//! waiting on Nagle's algorithm and the client's delayed acknowledgement); a client that
//! closes its connection while a request runs ends that request's future (hyper notices
//! the end of the stream), which is how a branch learns its client left ([`super::branch`]).
//!
//! Issue 65, every connection time-limited and counted ([`Conns`]): at most `max` open
//! (the accept loop waits beyond, so the rest queue in the kernel), at most `per_client`
//! from one address (more are answered a JSON 503 and closed), a request head within
//! `head` (hyper's header timeout, which also runs while a kept-alive connection waits
//! for its next request, so an idle connection is closed after it), a body within `body`
//! ([`super::guard::read_body`]), and a write that makes no progress for `write_stall`
//! ends the connection (a client that never reads its answers). The client's address
//! goes to the handlers as [`super::ClientAddr`] (the quotas of [`super::store`]).
//!
//! Tests: `rule_serve_every_refusal_is_json` (`experiments/tests/serve_security.rs`),
//! `rule_serve_json_refusal_shapes` below, `rule_serve_half_open_connections_are_closed`
//! (`experiments/tests/serve_limits.rs`).

use axum::http::StatusCode;
use axum::Router;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;

/// Connections the kernel may hold waiting for `accept` (capped by the system's
/// `net.core.somaxconn`, 4096 on current Linux).
pub const BACKLOG: u32 = 4096;

/// A listener on `addr` (a name is resolved; the first address that binds wins) with a
/// [`BACKLOG`]-long queue. `TcpListener::bind` queues 128, the standard library's value:
/// under 200 clients connecting at once the queue overflowed, the kernel dropped their
/// SYNs, and each such client waited the one-second SYN retransmission (the load test's
/// state p99 of 1.0 s; `TcpExtListenOverflows` counted them).
pub async fn bind(addr: impl tokio::net::ToSocketAddrs) -> io::Result<TcpListener> {
    let mut last = None;
    for a in tokio::net::lookup_host(addr).await? {
        let socket = if a.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        match socket.bind(a).and_then(|()| socket.listen(BACKLOG)) {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no address to bind")))
}

/// Connection limits and timeouts (issue 65: one client must not hold the server).
#[derive(Clone, Debug)]
pub struct Conns {
    /// Most open connections; the accept loop waits for one to close beyond.
    pub max: usize,
    /// Most open connections from one address; beyond, a connection is answered 503
    /// and closed.
    pub per_client: usize,
    /// Time to send a request's head, and how long an idle connection is kept between
    /// requests (hyper's header timeout runs from the moment it waits for a head).
    pub head: Duration,
    /// Time to send a request's body ([`super::guard::read_body`]).
    pub body: Duration,
    /// Longest time a write to the client may make no progress (a client that does not
    /// read its answers).
    pub write_stall: Duration,
}

impl Default for Conns {
    fn default() -> Self {
        Conns {
            max: 1024,
            per_client: 256,
            head: Duration::from_secs(10),
            body: Duration::from_secs(10),
            write_stall: Duration::from_secs(30),
        }
    }
}

/// Open connections per address.
type PerClient =
    std::sync::Arc<std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>;

/// Counts a connection of one address while it lives.
struct Slot {
    table: PerClient,
    ip: std::net::IpAddr,
    _permit: tokio::sync::OwnedSemaphorePermit,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut t = self.table.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = t.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                t.remove(&self.ip);
            }
        }
    }
}

/// Accepts connections on `listener` forever, serving `app` on each within `conns`.
pub async fn serve(listener: TcpListener, app: Router, conns: Conns) {
    let open = std::sync::Arc::new(tokio::sync::Semaphore::new(conns.max.max(1)));
    let per: PerClient = Default::default();
    let body_time = conns.body;
    loop {
        // Beyond the cap, connections wait in the kernel's queue, not in this process.
        let Ok(permit) = open.clone().acquire_owned().await else {
            return;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(x) => x,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                eprintln!("note: accepting a connection failed ({e}); retrying in 50 ms");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let ip = peer.ip();
        let admitted = {
            let mut t = per.lock().unwrap_or_else(|p| p.into_inner());
            let n = t.entry(ip).or_insert(0);
            if *n >= conns.per_client {
                false
            } else {
                *n += 1;
                true
            }
        };
        if !admitted {
            drop(permit);
            tokio::spawn(refuse_busy(stream, conns.per_client));
            continue;
        }
        let slot = Slot {
            table: per.clone(),
            ip,
            _permit: permit,
        };
        let _ = stream.set_nodelay(true);
        // The client's address and the body's time limit, for the handlers and guards.
        let service = TowerToHyperService::new(
            app.clone()
                .layer(axum::Extension(super::ClientAddr(ip)))
                .layer(axum::Extension(super::guard::BodyTime(body_time))),
        );
        let conns = conns.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let io = TokioIo::new(JsonRefusals::new(stream, conns.write_stall));
            // An error here is a client that left, sent garbage or ran out of time:
            // nothing to tell.
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(conns.head)
                .serve_connection(io, service)
                .with_upgrades()
                .await;
        });
    }
}

/// Answers a connection over its address's cap with a JSON 503 and closes it.
async fn refuse_busy(stream: tokio::net::TcpStream, cap: usize) {
    let body = serde_json::json!({
        "error": format!("too many open connections from this address (the server's limit is {cap}, --max-connections-per-client)")
    })
    .to_string();
    let text = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let write = async {
        let mut rest = text.as_bytes();
        while !rest.is_empty() {
            if stream.writable().await.is_err() {
                return;
            }
            match stream.try_write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return,
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), write).await;
}

/// Errors of one connection that was never really accepted (the client gave up between
/// the handshake and `accept`).
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// A connection whose writes pass through unchanged, except hyper's own bodiless
/// refusals, which become JSON (module docs).
pub struct JsonRefusals<S> {
    inner: S,
    /// Bytes still to send in place of a refusal already taken from hyper.
    pending: Vec<u8>,
    sent: usize,
    /// Longest time a write may wait, and the clock of the one waiting.
    stall: Duration,
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<S> JsonRefusals<S> {
    pub fn new(inner: S, stall: Duration) -> Self {
        JsonRefusals {
            inner,
            pending: Vec::new(),
            sent: 0,
            stall,
            waiting: None,
        }
    }

    /// A write that is not ready: an error once it has waited [`Conns::write_stall`].
    fn stalled(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        let stall = self.stall;
        let clock = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
        match clock.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing of its answer in time",
            )),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncWrite + Unpin> JsonRefusals<S> {
    /// Writes what is pending; ready once nothing is.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = ready!(self.write_inner(cx, None))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        self.pending.clear();
        self.sent = 0;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> JsonRefusals<S> {
    /// Writes `buf` (`None`: the pending bytes) with the stall clock.
    fn write_inner(&mut self, cx: &mut Context<'_>, buf: Option<&[u8]>) -> Poll<io::Result<usize>> {
        let r = match buf {
            Some(b) => Pin::new(&mut self.inner).poll_write(cx, b),
            None => {
                let (inner, pending, sent) = (&mut self.inner, &self.pending, self.sent);
                Pin::new(inner).poll_write(cx, &pending[sent..])
            }
        };
        match r {
            Poll::Pending => match self.stalled(cx) {
                Poll::Ready(e) => Poll::Ready(Err(e)),
                Poll::Pending => Poll::Pending,
            },
            done => {
                self.waiting = None;
                done
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonRefusals<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        if let Some(json) = rewrite_refusal(buf) {
            self.pending = json;
            // Taken whole; what is not written now goes out on the next flush.
            if let Poll::Ready(Err(e)) = self.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        self.write_inner(cx, Some(buf))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    // hyper then hands every response over as one flat buffer, so a refusal is always
    // the tail of one write.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

/// If `buf` ends with one of hyper's own refusals (module docs), `buf` with that refusal
/// replaced by a JSON one.
fn rewrite_refusal(buf: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(buf).ok()?;
    let start = text.rfind("HTTP/1.")?;
    let head = &text[start..];
    // One whole head, ending the buffer.
    let end = head.find("\r\n\r\n")?;
    if end + 4 != head.len() {
        return None;
    }
    let mut lines = head[..end].split("\r\n");
    let status: u16 = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    if !(400..500).contains(&status) {
        return None;
    }
    let mut empty = false;
    for line in lines {
        let (name, value) = line.split_once(':')?;
        let name = name.trim().to_ascii_lowercase();
        if name == "content-type" || name == "transfer-encoding" {
            return None;
        }
        if name == "content-length" {
            empty = value.trim() == "0";
        }
    }
    if !empty {
        return None;
    }
    let status = StatusCode::from_u16(status).ok()?;
    let message = match status {
        StatusCode::URI_TOO_LONG => format!(
            "the request target is over the server's limit ({} bytes are read)",
            super::guard::MAX_URI
        ),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => {
            "the request's head (its line and headers) is too large".to_string()
        }
        StatusCode::BAD_REQUEST => "the request is not HTTP/1.1 the server can read".to_string(),
        _ => status.canonical_reason().unwrap_or("refused").to_string(),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    let mut out = buf[..start].to_vec();
    out.extend_from_slice(
        format!(
            "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            status.as_u16(),
            status.canonical_reason().unwrap_or(""),
            body.len()
        )
        .as_bytes(),
    );
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::rewrite_refusal;

    #[test]
    fn rule_serve_json_refusal_shapes() {
        let hyper_414 = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Sat, 28 Nov 2026 00:00:00 GMT\r\n\r\n";
        let out = String::from_utf8(rewrite_refusal(hyper_414).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{out}");
        assert!(out.contains("content-type: application/json"), "{out}");
        let body = out.split_once("\r\n\r\n").unwrap().1;
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("request target"));
        // After an earlier response in the same write, only the tail is replaced.
        let mut two = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}".to_vec();
        two.extend_from_slice(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
        let out = String::from_utf8(rewrite_refusal(&two).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}HTTP/1.1 400"));
        assert!(out.ends_with("}"), "{out}");
        // The router's own answers are left alone: JSON refusals, successes, bodies.
        for kept in [
            &b"HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\ncontent-length: 9\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nx",
            b"{\"error\": \"x\"}",
        ] {
            assert!(rewrite_refusal(kept).is_none(), "{}", String::from_utf8_lossy(kept));
        }
    }
}

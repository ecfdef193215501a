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
//! Tests: `rule_serve_every_refusal_is_json` (`experiments/tests/serve_security.rs`),
//! `rule_serve_json_refusal_shapes` below.

use axum::http::StatusCode;
use axum::Router;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
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

/// Accepts connections on `listener` forever, serving `app` on each.
pub async fn serve(listener: TcpListener, app: Router) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                eprintln!("note: accepting a connection failed ({e}); retrying in 50 ms");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let io = TokioIo::new(JsonRefusals::new(stream));
            // An error here is a client that left or sent garbage: nothing to tell.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .with_upgrades()
                .await;
        });
    }
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
}

impl<S> JsonRefusals<S> {
    pub fn new(inner: S) -> Self {
        JsonRefusals {
            inner,
            pending: Vec::new(),
            sent: 0,
        }
    }
}

impl<S: AsyncWrite + Unpin> JsonRefusals<S> {
    /// Writes what is pending; ready once nothing is.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.sent..]))?;
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
        Pin::new(&mut self.inner).poll_write(cx, buf)
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

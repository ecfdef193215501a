//! What every request passes before a handler sees it, and what every refusal looks like
//! after: the `Host` and `Origin` checks (the usual defence against DNS rebinding and
//! cross-site requests from other pages open in the same browser), the JSON content type
//! of bodies, the length of the URI, and the JSON error body of every refusal, including
//! those axum's own extractors and router answer in plain text or with no body (query
//! strings that do not parse, path segments of the wrong type, 404, 405).
//!
//! Decisions: the port of `Host` is not checked (a rebinding attack changes the name, not
//! the port); `Origin`, when present, must be `http://` + an allowed name + the server's
//! own port, so a page served by another local program is refused too. URIs over
//! [`MAX_URI`] bytes are 414 here; past 64 KiB hyper answers 414 itself before any of
//! this runs, and `super::listen` gives that answer (and hyper's 400 and 431) the JSON
//! body. Tests: `rule_serve_cross_origin_is_refused`, `rule_serve_bodies_must_be_json`,
//! `rule_serve_every_refusal_is_json` in `experiments/tests/serve_security.rs`.

use super::api::ApiError;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Longest request target (path and query) the server reads.
pub const MAX_URI: usize = 8 * 1024;

/// The names a request may address the server by, and its port.
#[derive(Clone, Debug)]
pub struct Allowed {
    names: Vec<String>,
    port: u16,
}

impl Allowed {
    /// Loopback names, the bound address and `extra` (`--host`), for a server on `port`.
    pub fn new(bound: std::net::SocketAddr, extra: &[String], port: u16) -> Allowed {
        let mut names: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let ip = bound.ip();
        if !ip.is_unspecified() {
            names.push(ip.to_string());
        }
        names.extend(extra.iter().map(|h| h.trim().to_ascii_lowercase()));
        Allowed { names, port }
    }

    fn name_ok(&self, name: &str) -> bool {
        let name = name.trim_start_matches('[').trim_end_matches(']');
        let name = name.strip_suffix('.').unwrap_or(name);
        self.names.iter().any(|n| n.eq_ignore_ascii_case(name))
    }

    /// `Host: name[:port]`.
    fn host_ok(&self, host: &str) -> bool {
        self.name_ok(split_port(host).0)
    }

    /// `Origin: http://name:port`.
    fn origin_ok(&self, origin: &str) -> bool {
        let Some(rest) = origin.strip_prefix("http://") else {
            return false;
        };
        let (name, port) = split_port(rest);
        self.name_ok(name) && port.unwrap_or(80) == self.port
    }
}

/// `name[:port]` and `[v6]:port` into the name and the port.
fn split_port(hostport: &str) -> (&str, Option<u16>) {
    if let Some(rest) = hostport.strip_prefix('[') {
        let Some((v6, after)) = rest.split_once(']') else {
            return (hostport, None);
        };
        return (v6, after.strip_prefix(':').and_then(|p| p.parse().ok()));
    }
    match hostport.rsplit_once(':') {
        Some((n, p)) if !n.contains(':') => (n, p.parse().ok()),
        _ => (hostport, None),
    }
}

/// Refuses requests from elsewhere and bodies that are not JSON.
pub async fn check(State(allowed): State<Arc<Allowed>>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.to_string()));
    match host {
        Some(h) if allowed.host_ok(&h) => {}
        Some(h) => {
            return ApiError::forbidden(format!(
                "Host '{}' is not this server's address (start the server with --host NAME to allow a name)",
                h.chars().take(100).collect::<String>()
            ))
            .into_response()
        }
        None => return ApiError::bad_request("the request has no Host header").into_response(),
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let o = origin.to_str().unwrap_or("");
        if !allowed.origin_ok(o) {
            return ApiError::forbidden(format!(
                "requests from other pages are refused (Origin '{}')",
                o.chars().take(100).collect::<String>()
            ))
            .into_response();
        }
    }
    let target = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if target > MAX_URI {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("the request target is over {MAX_URI} bytes"),
        )
        .into_response();
    }
    if req.method() == Method::POST || req.method() == Method::PUT {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|c| c.to_str().ok())
            .and_then(|c| c.split(';').next())
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "request bodies must be sent as Content-Type: application/json",
            )
            .into_response();
        }
    }
    next.run(req).await
}

/// Turns every refusal that is not already JSON (axum's rejections, 405) into
/// `{"error": ...}` with the same status.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let resp = next.run(req).await;
    let status = resp.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return resp;
    }
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|c| c.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"));
    if is_json {
        return resp;
    }
    let allow = resp
        .headers()
        .get(header::ALLOW)
        .and_then(|a| a.to_str().ok())
        .map(str::to_string);
    let text = match axum::body::to_bytes(resp.into_body(), 16 * 1024).await {
        Ok(b) => String::from_utf8_lossy(&b).trim().to_string(),
        Err(_) => String::new(),
    };
    let message = if status == StatusCode::METHOD_NOT_ALLOWED {
        match &allow {
            Some(a) => format!("{method} is not allowed on {path} (allowed: {a})"),
            None => format!("{method} is not allowed on {path}"),
        }
    } else if text.is_empty() {
        status.canonical_reason().unwrap_or("refused").to_string()
    } else {
        text
    };
    let mut out = ApiError::new(status, message).into_response();
    if let Some(a) = allow.and_then(|a| a.parse().ok()) {
        out.headers_mut().insert(header::ALLOW, a);
    }
    out
}

/// The time a request's body may take to arrive (set per connection by `super::listen`
/// from `Conns::body`; 10 s where no listener set it).
#[derive(Clone, Copy, Debug)]
pub struct BodyTime(pub std::time::Duration);

/// Reads a request's body before any handler, within the body's time and
/// [`super::MAX_BODY`] (issue 65: a body announced as `Content-Length: 10^12` and sent in
/// part held its connection for ever). A body announced over the limit is refused at once
/// (413), one that does not arrive in time is 408; both close the connection. Test
/// `rule_serve_half_open_connections_are_closed` in `experiments/tests/serve_limits.rs`.
pub async fn read_body(req: Request, next: Next) -> Response {
    if !matches!(*req.method(), Method::POST | Method::PUT | Method::PATCH) {
        return next.run(req).await;
    }
    let time = req
        .extensions()
        .get::<BodyTime>()
        .map_or(std::time::Duration::from_secs(10), |b| b.0);
    let close = |e: ApiError| {
        let mut r = e.into_response();
        r.headers_mut().insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
        r
    };
    let announced = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > super::MAX_BODY as u64) {
        return close(ApiError::too_large(format!(
            "request body over {} bytes",
            super::MAX_BODY
        )));
    }
    let (parts, body) = req.into_parts();
    match tokio::time::timeout(time, axum::body::to_bytes(body, super::MAX_BODY)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
                .await
        }
        Ok(Err(_)) => close(ApiError::too_large(format!(
            "request body over {} bytes, or cut short",
            super::MAX_BODY
        ))),
        Err(_) => close(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body did not arrive within {} s",
                time.as_secs()
            ),
        )),
    }
}

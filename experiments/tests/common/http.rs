//! A tiny HTTP/1.1 client for the board's tests: one request per connection, the status
//! and the body (de-chunked) back.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// `method path` with a JSON `body` over a fresh connection; returns (status, body), status
/// 0 when no response could be read.
pub fn request(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let s = TcpStream::connect(addr).expect("connect to the test server");
    request_on(s, addr, method, path, body)
}

/// [`request`] over a stream the caller connected (the load test times the connect).
pub fn request_on(
    mut s: TcpStream,
    addr: &str,
    method: &str,
    path: &str,
    body: &[u8],
) -> (u16, String) {
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())
        .expect("write the request head");
    // A refused oversized body may close the connection before it is all sent.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((len, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

//! WebDriver helpers of the browser test (`serve_browser.rs`): the HTTP API as a second
//! player, chromedriver and chromium, waiting for what the page's script draws, clicks,
//! screenshots and the browser's console log.
#![allow(dead_code)]

use crate::common;
use experiments::serve::api::{CreateResponse, SeatView};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A request over a fresh connection; returns (status, body).
pub fn request(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    common::http::request(addr, method, path, body.as_bytes())
}

pub fn create(addr: &str, body: Value) -> (CreateResponse, Vec<String>) {
    let (st, text) = request(addr, "POST", "/api/games", Some(&body));
    assert_eq!(st, 200, "{text}");
    let c: CreateResponse = serde_json::from_str(&text).unwrap();
    let tokens = c
        .tokens
        .iter()
        .map(|t| t.clone().unwrap_or_default())
        .collect();
    (c, tokens)
}

pub fn api_act(addr: &str, id: &str, seat: usize, token: &str, action: &str) {
    let (st, text) = request(
        addr,
        "POST",
        &format!("/api/games/{id}/act"),
        Some(&json!({"seat": seat, "token": token, "action": action})),
    );
    assert_eq!(st, 200, "{action}: {text}");
}

pub fn api_state(addr: &str, id: &str, seat: usize, token: &str) -> SeatView {
    let (st, text) = request(
        addr,
        "GET",
        &format!("/api/games/{id}/state?seat={seat}&token={token}"),
        None,
    );
    assert_eq!(st, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// Where a program is, by absolute path or on PATH.
pub fn find_program(names: &[&str]) -> Option<PathBuf> {
    for n in names {
        let p = Path::new(n);
        if p.is_absolute() {
            if p.is_file() {
                return Some(p.to_path_buf());
            }
            continue;
        }
        for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
            let c = dir.join(n);
            if c.is_file() {
                return Some(c);
            }
        }
    }
    None
}

/// The chromedriver child, killed when the test ends however it ends.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// chromium and chromedriver, or the reason the test cannot run.
pub fn programs() -> Result<(PathBuf, PathBuf), String> {
    let chromium = find_program(&["chromium", "/usr/bin/chromium", "chromium-browser"]);
    let driver = find_program(&["chromedriver", "/usr/bin/chromedriver"]);
    let mut missing = Vec::new();
    if chromium.is_none() {
        missing.push("chromium (Debian package `chromium`)");
    }
    if driver.is_none() {
        missing.push("chromedriver (Debian package `chromium-driver`)");
    }
    match (chromium, driver) {
        (Some(c), Some(d)) => Ok((c, d)),
        _ => Err(format!("missing {}", missing.join(" and "))),
    }
}

/// chromedriver and a headless chromium session with the browser log kept (read by
/// [`console_errors`]); also the driver's URL.
pub async fn start_browser(chromium: &Path, driver: &Path) -> (Driver, Client, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let driver = Driver(child);
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium.to_string_lossy(),
            "args": ["--headless", "--no-sandbox", "--disable-gpu",
                     "--disable-background-networking", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--window-size=1300,1000"],
        }),
    );
    caps.insert("goog:loggingPrefs".into(), json!({"browser": "ALL"}));
    let url = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    loop {
        let conn = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(conn)
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(c) => return (driver, c, url),
            Err(e) if start.elapsed() < Duration::from_secs(30) => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("chromedriver at {url} gave no session: {e}"),
        }
    }
}

/// Polls a JavaScript expression until it is true; fails naming it (and the page's
/// error line) after `secs`.
pub async fn wait_js(c: &Client, expr: &str, secs: u64) {
    if !try_wait_js(c, expr, secs).await {
        let err = text_of(c, "play-error").await + " / " + &text_of(c, "setup-error").await;
        let turn = text_of(c, "turn").await;
        panic!("waited {secs} s for `{expr}`; turn: {turn}; page errors: {err}");
    }
}

/// Polls a JavaScript expression until it is true (`true`) or `secs` have passed
/// (`false`).
pub async fn try_wait_js(c: &Client, expr: &str, secs: u64) -> bool {
    let start = Instant::now();
    loop {
        let v = c
            .execute(&format!("return !!({expr});"), vec![])
            .await
            .unwrap();
        if v == Value::Bool(true) {
            return true;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub async fn text_of(c: &Client, id: &str) -> String {
    let v = c
        .execute(
            "const e = document.getElementById(arguments[0]); return e ? e.textContent : '';",
            vec![json!(id)],
        )
        .await
        .unwrap();
    v.as_str().unwrap_or("").to_string()
}

/// Waits for the page to show ply `n` of the live game with nothing pending.
pub async fn wait_ply(c: &Client, n: usize) {
    wait_js(
        c,
        &format!(
            "document.getElementById('ply-label').textContent === 'ply {n}' && !document.getElementById('turn').textContent.startsWith('thinking')"
        ),
        20,
    )
    .await;
}

/// Clicks a square of the board (the page redraws the board after every click).
pub async fn click_square(c: &Client, sq: &str) {
    let sel = format!("#board g[data-square='{sq}']");
    wait_js(c, &format!("document.querySelector(\"{sel}\")"), 10).await;
    c.find(Locator::Css(&sel))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Picks up the piece on `from` (waiting for `to` to be marked) and drops it on `to`.
pub async fn click_move(c: &Client, from: &str, to: &str) {
    click_square(c, from).await;
    wait_js(
        c,
        &format!("document.querySelector(\"#board g[data-square='{to}'] circle.target\")"),
        10,
    )
    .await;
    click_square(c, to).await;
}

/// The decision buttons the page shows (not the pocket), by their text.
pub async fn buttons(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#buttons button:not(.pocket)')].map(b => b.textContent);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

pub async fn click_button(c: &Client, text: &str) {
    let found = c.find_all(Locator::Css("#buttons button")).await.unwrap();
    for b in found {
        if b.text().await.unwrap() == text {
            b.click().await.unwrap();
            return;
        }
    }
    panic!("no button '{text}'; buttons: {:?}", buttons(c).await);
}

/// Waits until the text of element `id` is `expected`.
pub async fn wait_text(c: &Client, id: &str, expected: &str) {
    wait_js(
        c,
        &format!(
            "document.getElementById({}).textContent === {}",
            json!(id),
            json!(expected)
        ),
        20,
    )
    .await;
}

/// Waits for the page to show at least ply `n`.
pub async fn wait_ply_at_least(c: &Client, n: usize) {
    wait_js(
        c,
        &format!("+document.getElementById('ply-label').textContent.split(' ')[1] >= {n}"),
        20,
    )
    .await;
}

/// A new page load (a link differing only in its `#` part would not reload the page).
pub async fn load(c: &Client, url: &str) {
    c.goto("about:blank").await.unwrap();
    c.goto(url).await.unwrap();
}

pub async fn open_seat(c: &Client, addr: &str, id: &str, seat: usize, token: &str) {
    c.goto("about:blank").await.unwrap();
    c.goto(&format!(
        "http://{addr}/#game={id}&seat={seat}&token={token}"
    ))
    .await
    .unwrap();
    // The script has run when the board has squares or says it has none.
    wait_js(
        c,
        "document.querySelector('#board g.square, #board text') && document.getElementById('ply-label').textContent.startsWith('ply')",
        20,
    )
    .await;
}

/// With `CHESSLAB_SCREENSHOTS` set, a screenshot of the page into `docs/screenshots/`
/// (value `1`) or the folder it names; CI leaves it unset so no file is rewritten.
pub async fn shot(c: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("CHESSLAB_SCREENSHOTS") {
        let dir = if dir == "1" {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots")
        } else {
            PathBuf::from(dir)
        };
        let png = c.screenshot().await.unwrap();
        std::fs::write(dir.join(name), png).unwrap();
    }
}

/// As [`shot`], with the window `height` pixels tall for the picture (then back to the
/// 1300 x 1000 it was started with): for a page whose point sits below the first screen.
pub async fn shot_tall(c: &Client, name: &str, height: u32) {
    if std::env::var_os("CHESSLAB_SCREENSHOTS").is_some() {
        c.set_window_size(1300, height).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        shot(c, name).await;
        c.set_window_size(1300, 1000).await.unwrap();
    }
}

/// The browser log's errors since the last call (console errors, uncaught exceptions,
/// failed requests), read through chromedriver's log endpoint.
pub async fn console_errors(c: &Client, driver_url: &str) -> Vec<String> {
    let id = c.session_id().await.unwrap().expect("a session");
    let addr = driver_url.trim_start_matches("http://");
    let (st, text) = driver_post(
        addr,
        &format!("/session/{id}/se/log"),
        r#"{"type": "browser"}"#,
    );
    assert_eq!(st, 200, "chromedriver gave no browser log: {text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    v["value"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|e| e["level"] == "SEVERE")
                .map(|e| e["message"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Clicks the CSS selectors in order, waiting for each to exist.
pub async fn click_all(c: &Client, selectors: &[String]) {
    for sel in selectors {
        wait_js(c, &format!("document.querySelector({})", json!(sel)), 10).await;
        c.find(Locator::Css(sel))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
    }
}

/// The clicks the page says play `action` (its `clickPlan`), or `None` when it offers
/// the action no way.
pub async fn plan(c: &Client, action: &str) -> Option<Vec<String>> {
    let v = c
        .execute(
            "return window.clickPlan(arguments[0]);",
            vec![json!(action)],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// A POST to chromedriver, read by its Content-Length (chromedriver keeps the connection
/// open whatever the request says, so reading to the end would wait for its timeout).
fn driver_post(addr: &str, path: &str, body: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).expect("connect to chromedriver");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("write to chromedriver");
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = s.read(&mut buf).unwrap_or(0);
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw);
        if let Some((head, rest)) = text.split_once("\r\n\r\n") {
            let len = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if rest.len() >= len {
                let status = head
                    .split_whitespace()
                    .nth(1)
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0);
                return (status, rest[..len].to_string());
            }
        }
    }
    (0, String::from_utf8_lossy(&raw).into_owned())
}

//! The playtest board in a real browser (issue 22, "a real browser in CI"): Debian's
//! `chromium` driven through `chromedriver` with the `fantoccini` WebDriver client plays,
//! by clicks on the page, a fool's mate (the other seat is a scripted human playing
//! through the API), a Zombie turn with a burial (the hidden view), a Two Move card
//! choice (a secret commit), a Tar Pit turn with its card decision and a Chess Golf hole,
//! fills the generated parameter form, and checks that the exported chess record replays with `chesslab replay` and the Golf
//! record verifies as a solution.
//!
//! The page's script fills the page after it loads, so every step waits explicitly (polls
//! a JavaScript condition) for what the script creates before it looks or clicks.
//!
//! Without `chromium` or `chromedriver` the test prints why and passes; with
//! `CHESSLAB_REQUIRE_BROWSER=1` (set by `.ci/run`, which installs both) it fails naming
//! what is missing. With `CHESSLAB_SCREENSHOTS=DIR` it also writes the README's
//! screenshots (`chess.png`, `zombie.png`, `two-move.png`, `tar-pit.png`, `golf.png`) into DIR.

mod common;

use engine::variants::golf::{GolfMove, GolfParams, GolfPosition};
use experiments::serve::api::{CreateResponse, SeatView};
use experiments::serve::spawn_local;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A request over a fresh connection; returns (status, body).
fn request(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    common::http::request(addr, method, path, body.as_bytes())
}

fn create(addr: &str, body: Value) -> (CreateResponse, Vec<String>) {
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

fn api_act(addr: &str, id: &str, seat: usize, token: &str, action: &str) {
    let (st, text) = request(
        addr,
        "POST",
        &format!("/api/games/{id}/act"),
        Some(&json!({"seat": seat, "token": token, "action": action})),
    );
    assert_eq!(st, 200, "{action}: {text}");
}

fn api_state(addr: &str, id: &str, seat: usize, token: &str) -> SeatView {
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
fn find_program(names: &[&str]) -> Option<PathBuf> {
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
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// chromium and chromedriver, or the reason the test cannot run.
fn programs() -> Result<(PathBuf, PathBuf), String> {
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

async fn start_browser(chromium: &Path, driver: &Path) -> (Driver, Client) {
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
    let url = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    loop {
        let conn = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(conn)
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(c) => return (driver, c),
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
async fn wait_js(c: &Client, expr: &str, secs: u64) {
    if !try_wait_js(c, expr, secs).await {
        let err = text_of(c, "play-error").await + " / " + &text_of(c, "setup-error").await;
        let turn = text_of(c, "turn").await;
        panic!("waited {secs} s for `{expr}`; turn: {turn}; page errors: {err}");
    }
}

/// Polls a JavaScript expression until it is true (`true`) or `secs` have passed
/// (`false`).
async fn try_wait_js(c: &Client, expr: &str, secs: u64) -> bool {
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

async fn text_of(c: &Client, id: &str) -> String {
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
async fn wait_ply(c: &Client, n: usize) {
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
async fn click_square(c: &Client, sq: &str) {
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
async fn click_move(c: &Client, from: &str, to: &str) {
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
async fn buttons(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#buttons button:not(.pocket)')].map(b => b.textContent);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

async fn click_button(c: &Client, text: &str) {
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
async fn wait_text(c: &Client, id: &str, expected: &str) {
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
async fn wait_ply_at_least(c: &Client, n: usize) {
    wait_js(
        c,
        &format!("+document.getElementById('ply-label').textContent.split(' ')[1] >= {n}"),
        20,
    )
    .await;
}

/// A new page load (a link differing only in its `#` part would not reload the page).
async fn load(c: &Client, url: &str) {
    c.goto("about:blank").await.unwrap();
    c.goto(url).await.unwrap();
}

async fn open_seat(c: &Client, addr: &str, id: &str, seat: usize, token: &str) {
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

async fn shot(c: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("CHESSLAB_SCREENSHOTS") {
        let png = c.screenshot().await.unwrap();
        std::fs::write(Path::new(&dir).join(name), png).unwrap();
    }
}

/// Exports a finished game from the page's links and replays it with `chesslab replay`.
async fn export_replays(c: &Client, addr: &str, dir: &Path, name: &str) {
    wait_js(
        c,
        "!document.getElementById('export-csv').hidden && !document.getElementById('export-toml').hidden",
        10,
    )
    .await;
    let href = |id: &'static str| async move {
        let v = c
            .execute(
                "return document.getElementById(arguments[0]).getAttribute('href');",
                vec![json!(id)],
            )
            .await
            .unwrap();
        v.as_str().unwrap().to_string()
    };
    let (st, csv) = request(addr, "GET", &href("export-csv").await, None);
    assert_eq!(st, 200, "{csv}");
    let (st, toml) = request(addr, "GET", &href("export-toml").await, None);
    assert_eq!(st, 200, "{toml}");
    let games = dir.join(format!("{name}.csv"));
    let params = dir.join(format!("{name}.toml"));
    std::fs::write(&games, &csv).unwrap();
    std::fs::write(&params, &toml).unwrap();
    let out = common::chesslab(&[
        "replay",
        "--games",
        games.to_str().unwrap(),
        "--row",
        "1",
        "--params",
        params.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{name}: the exported record does not replay: {}\n{csv}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Fool's mate by clicks as White; Black is a scripted human seat playing through the API.
async fn chess_by_clicks(c: &Client, addr: &str, dir: &Path) {
    let (g, t) = create(
        addr,
        json!({"variant": "chess", "seed": 1, "seats": ["human", "human"]}),
    );
    open_seat(c, addr, &g.id, 0, &t[0]).await;
    click_move(c, "f2", "f3").await;
    wait_ply(c, 1).await;
    api_act(addr, &g.id, 1, &t[1], "e7e5");
    wait_ply(c, 2).await;
    click_square(c, "g2").await;
    wait_js(
        c,
        "document.querySelector(\"#board g[data-square='g4'] circle.target\")",
        10,
    )
    .await;
    shot(c, "chess.png").await;
    click_square(c, "g4").await;
    wait_ply(c, 3).await;
    api_act(addr, &g.id, 1, &t[1], "d8h4");
    wait_js(
        c,
        "document.getElementById('result').textContent.startsWith('Result')",
        20,
    )
    .await;
    let v = api_state(addr, &g.id, 0, &t[0]);
    let r = v.result.clone().expect("the game is over");
    assert_eq!(
        (r.returns, r.reason.as_str()),
        (vec![-1.0, 1.0], "checkmate")
    );
    assert_eq!(
        v.record.unwrap(),
        ["f2f3", "e7e5", "g2g4", "d8h4"],
        "the clicks played other moves"
    );
    export_replays(c, addr, dir, "chess").await;
    // Back one ply with the arrow key, then "branch here": bot games from ply 3.
    c.execute(
        "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}));",
        vec![],
    )
    .await
    .unwrap();
    wait_js(
        c,
        "document.getElementById('ply-label').textContent.startsWith('ply 3 of 4')",
        10,
    )
    .await;
    c.find(Locator::Css("#branch summary"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let games = c.find(Locator::Id("branch-games")).await.unwrap();
    games.clear().await.unwrap();
    games.send_keys("4").await.unwrap();
    c.find(Locator::Id("branch-run"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_js(
        c,
        "document.getElementById('branch-out').textContent.includes('4 games from ply 3')",
        30,
    )
    .await;
}

/// Zombie: White captures by clicks, ends the turn and buries the captured pawn with a
/// button; the page shows exactly White's observation (with the burial), the record stays
/// hidden, and Black's view is refused.
async fn zombie_hidden_view(c: &Client, addr: &str) {
    let (g, t) = create(
        addr,
        json!({"variant": "zombie", "seed": 5, "seats": ["human", "random"],
               "opening": "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"}),
    );
    open_seat(c, addr, &g.id, 0, &t[0]).await;
    click_move(c, "e4", "d5").await;
    wait_ply(c, 1).await;
    // The rest of the turn is buttons: `end`, then where to bury the pawn.
    let mut clicked = Vec::new();
    for _ in 0..4 {
        let v = api_state(addr, &g.id, 0, &t[0]);
        if v.legal.is_empty() {
            break;
        }
        let next = v
            .legal
            .iter()
            .find(|a| a.starts_with("bury:"))
            .or_else(|| v.legal.iter().find(|a| *a == "end"))
            .unwrap_or_else(|| panic!("no end or burial among {:?}", v.legal))
            .clone();
        click_button(c, &next).await;
        clicked.push(next.clone());
        // After the burial Black (a bot) moves at once: the page may skip this ply.
        wait_ply_at_least(c, 1 + clicked.len()).await;
        if next.starts_with("bury:") {
            break;
        }
    }
    assert!(
        clicked.iter().any(|a| a.starts_with("bury:")),
        "no burial offered: {clicked:?}"
    );
    // Black (random) answers; the page follows through the event stream.
    wait_js(
        c,
        "document.getElementById('turn').textContent.toLowerCase().startsWith('0 (white) to act')",
        20,
    )
    .await;
    let v = api_state(addr, &g.id, 0, &t[0]);
    wait_text(c, "observation", &v.observation).await;
    assert!(v.record.is_none(), "a running Zombie game shows its record");
    assert!(text_of(c, "history").await.contains("hidden until the end"));
    shot(c, "zombie.png").await;
    let (st, _) = request(
        addr,
        "GET",
        &format!("/api/games/{}/state?seat=1", g.id),
        None,
    );
    assert_eq!(st, 403, "Black's hidden view was given away");
}

/// Two Move: White chooses a card pair by clicking its button; the page shows the
/// commit, Black (a scripted human through the API) still sees only that White has
/// committed; then Black commits and the pair resolves.
async fn two_move_commit(c: &Client, addr: &str) {
    let (g, t) = create(
        addr,
        json!({"variant": "two-move", "seed": 2, "seats": ["human", "human"]}),
    );
    open_seat(c, addr, &g.id, 0, &t[0]).await;
    wait_js(
        c,
        "document.querySelectorAll('#buttons button').length > 0",
        10,
    )
    .await;
    let pairs = buttons(c).await;
    let before = api_state(addr, &g.id, 1, &t[1]);
    click_button(c, &pairs[0]).await;
    wait_js(
        c,
        "document.getElementById('turn').textContent.includes('✓') && document.querySelectorAll('#buttons button').length === 0",
        10,
    )
    .await;
    let black = api_state(addr, &g.id, 1, &t[1]);
    assert_eq!(
        black.observation, before.observation,
        "Black saw White's commit"
    );
    assert!(!black.legal.is_empty());
    shot(c, "two-move.png").await;
    api_act(addr, &g.id, 1, &t[1], &black.legal[0]);
    wait_ply_at_least(c, 1).await;
    let white = api_state(addr, &g.id, 0, &t[0]);
    assert!(white.plies >= 1);
    wait_text(c, "observation", &white.observation).await;
}

/// Tar Pit: a pawn move by clicks, then the card decision (a card, else `pass`) by its
/// button; the page shows White's hand (its observation) and the record stays hidden.
async fn tar_pit_cards(c: &Client, addr: &str) {
    let (g, t) = create(
        addr,
        json!({"variant": "tar-pit", "seed": 2, "seats": ["human", "random"]}),
    );
    open_seat(c, addr, &g.id, 0, &t[0]).await;
    // The deal is chance's: the game starts some plies in.
    let p0 = api_state(addr, &g.id, 0, &t[0]).plies;
    wait_ply(c, p0).await;
    click_move(c, "e2", "e4").await;
    wait_ply(c, p0 + 1).await;
    let v = api_state(addr, &g.id, 0, &t[0]);
    assert!(
        v.legal.iter().any(|a| a.starts_with("card:")),
        "no card offered after e2e4: {:?}",
        v.legal
    );
    // Piece cards (`card:N@e4`) are drops: the card in hand, then a square; every other
    // decision is a button.
    let (drops, plain): (Vec<&String>, Vec<&String>) =
        v.legal.iter().partition(|a| a.contains('@'));
    let pocket: Vec<String> = c
        .execute(
            "return [...document.querySelectorAll('#buttons button.pocket')].map(b => b.dataset.item);",
            vec![],
        )
        .await
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    let mut expected: Vec<String> = Vec::new();
    for d in &drops {
        let item = d.rsplit_once('@').unwrap().0.to_string();
        if !expected.contains(&item) {
            expected.push(item);
        }
    }
    assert_eq!(
        pocket, expected,
        "the pocket is not the drop actions' items"
    );
    let shown = buttons(c).await;
    let plain: Vec<String> = plain.into_iter().cloned().collect();
    assert_eq!(shown, plain, "every other card decision is a button");
    if let Some(drop) = drops.first() {
        let (item, sq) = drop.rsplit_once('@').unwrap();
        c.find(Locator::Css(&format!(
            "#buttons button.pocket[data-item='{item}']"
        )))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
        wait_js(
            c,
            &format!("document.querySelector(\"#board g[data-square='{sq}'] circle.target\")"),
            10,
        )
        .await;
        shot(c, "tar-pit.png").await;
        click_square(c, sq).await;
    } else {
        shot(c, "tar-pit.png").await;
        let card = plain
            .iter()
            .find(|a| a.starts_with("card:"))
            .unwrap()
            .clone();
        click_button(c, &card).await;
    }
    wait_ply_at_least(c, p0 + 2).await;
    let after = api_state(addr, &g.id, 0, &t[0]);
    assert!(after.plies >= p0 + 2);
    assert!(after.record.is_none() || after.result.is_some());
}

/// A Golf hole by clicks: two adjacent white rooks borrow each other's movement and the
/// chosen rook takes the chosen knight; the record verifies as a Golf solution. Then a
/// dealt hole with a piece picked up, for the screenshot.
async fn golf_hole(c: &Client, addr: &str) {
    let hole = "8/8/8/n7/8/8/8/RR6 chosen=Rn";
    let (g, t) = create(
        addr,
        json!({"variant": "golf", "seats": ["human"], "opening": hole}),
    );
    open_seat(c, addr, &g.id, 0, &t[0]).await;
    click_move(c, "a1", "a5").await;
    wait_js(
        c,
        "document.getElementById('result').textContent.includes('solved')",
        20,
    )
    .await;
    let v = api_state(addr, &g.id, 0, &t[0]);
    let record = v.record.unwrap();
    let moves: Vec<GolfMove> = record.iter().map(|m| GolfMove::parse(m).unwrap()).collect();
    GolfPosition::parse_any(hole)
        .unwrap()
        .verify_solution(&moves, &GolfParams::default())
        .unwrap_or_else(|e| panic!("the clicked hole {record:?} is no solution: {e}"));

    let (g, t) = create(addr, json!({"variant": "golf", "seats": ["human"]}));
    let first = api_state(addr, &g.id, 0, &t[0]).legal[0].clone();
    let url = format!(
        "http://{addr}/#game={}&seat=0&token={}&select={}",
        g.id,
        t[0],
        &first[..2]
    );
    load(c, &url).await;
    // In one clean-clone CI run of three (2026-11-25) this page showed nothing for 20 s
    // (no turn line, no error) and passed when the binary ran again: one reload, so a
    // stall fails the test only when it happens twice in a row.
    let target = "document.querySelector('#board circle.target')";
    if !try_wait_js(c, target, 20).await {
        load(c, &url).await;
        wait_js(c, target, 40).await;
    }
    shot(c, "golf.png").await;
}

/// The new-game form: the parameter inputs generated from the variant's defaults (here
/// chess's `ply_cap`) reach the game; two random bots play to the changed cap.
async fn parameter_form(c: &Client, addr: &str) {
    load(c, &format!("http://{addr}/")).await;
    wait_js(
        c,
        "document.querySelector(\"#param-form input[data-path='ply_cap']\")",
        20,
    )
    .await;
    let cap = c
        .find(Locator::Css("#param-form input[data-path='ply_cap']"))
        .await
        .unwrap();
    assert_eq!(cap.prop("value").await.unwrap().as_deref(), Some("400"));
    cap.clear().await.unwrap();
    cap.send_keys("6").await.unwrap();
    for seat in c.find_all(Locator::Css("#seats input.seat")).await.unwrap() {
        seat.clear().await.unwrap();
        seat.send_keys("random").await.unwrap();
    }
    c.find(Locator::Id("create"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_js(
        c,
        "document.getElementById('result').textContent.startsWith('Result') && document.getElementById('ply-label').textContent === 'ply 6'",
        20,
    )
    .await;
}

#[test]
fn browser_plays_the_board_by_clicks() {
    let (chromium, driver) = match programs() {
        Ok(p) => p,
        Err(why) => {
            if std::env::var("CHESSLAB_REQUIRE_BROWSER").as_deref() == Ok("1") {
                panic!("CHESSLAB_REQUIRE_BROWSER=1 but {why}");
            }
            eprintln!("skipped: {why} (install them to run the browser test)");
            return;
        }
    };
    let addr = spawn_local(100, Duration::from_secs(600), None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (_driver, c) = start_browser(&chromium, &driver).await;
        chess_by_clicks(&c, &addr, dir.path()).await;
        zombie_hidden_view(&c, &addr).await;
        two_move_commit(&c, &addr).await;
        tar_pit_cards(&c, &addr).await;
        golf_hole(&c, &addr).await;
        parameter_form(&c, &addr).await;
        c.close().await.unwrap();
    });
}

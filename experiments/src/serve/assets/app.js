// The chesslab board: uses nothing but the JSON API (docs/api.md). No variant-specific
// code: the board is read from the first FEN-like placement in a seat's observation,
// moves are clicks when actions look like square pairs, everything else is a button
// built from the legal action list.
"use strict";
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const SQUARE = /^([a-z])(\d{1,2})([a-z])(\d{1,2})(.*)$/;
// A drop from a pocket, in any variant's notation: something in hand, `@`, a square
// (Clairvoyant's `N@e4`, Tar Pit's `card:N@e4`).
const DROP = /^(.+)@([a-z]\d{1,2})$/;
let variants = [];
let game = null; // {id, tokens, seats, seatNames, hotseat, audit}
let view = null; // the latest state
let viewing = 0; // the seat whose view is shown
let shownSeat = null; // the seat the curtain was last lifted for
let snapshots = []; // views this page has seen, by ply
let cursor = null; // index into snapshots while walking the history
let selected = null;
let pocket = null; // the item in hand picked up for a drop
let source = null;
let watchData = null; // a recorded game being watched

async function api(method, path, body) {
  const r = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  let data;
  try { data = JSON.parse(text); } catch (_) { data = text; }
  if (!r.ok) throw new Error((data && data.error) || text || r.statusText);
  return data;
}

async function init() {
  variants = await api("GET", "/api/variants");
  for (const v of variants) $("variant").add(new Option(v.name, v.name));
  const agents = await api("GET", "/api/agents");
  const dl = document.createElement("datalist");
  dl.id = "agent-specs";
  for (const a of ["human", ...agents, "alphabeta:depth=2", "mcts:iters=500", "ismcts:iters=500"]) dl.append(new Option(a));
  document.body.append(dl);
  $("variant").onchange = loadVariant;
  $("create").onclick = createGame;
  $("new").onclick = () => { closeGame(); $("setup").hidden = false; $("play").hidden = true; };
  $("typed").onsubmit = (e) => { e.preventDefault(); const t = $("notation").value.trim(); if (t) act(t); };
  $("takeback").onclick = takeback;
  $("agent-act").onclick = agentAct;
  $("branch-run").onclick = branchHere;
  $("curtain-ok").onclick = () => { shownSeat = viewing; $("curtain").hidden = true; };
  $("viewing").onchange = () => { viewing = +$("viewing").value; if (watchData) watchRender(); else { snapshots = []; refresh(); } };
  document.addEventListener("keydown", keys);
  await loadVariant();
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get("game")) {
    await join(h.get("game"), +(h.get("seat") || 0), h.get("token"), h.get("audit") === "true");
    selected = h.get("select"); // a square picked in advance, as by a click
  }
  try {
    const rows = await api("GET", "/api/results");
    $("watch").hidden = false;
    for (const r of rows) $("results").add(new Option(`#${r.index} ${r.variant} ${r.agents.join(" vs ")} ${r.result} (${r.reason}, ${r.plies} plies)`, r.index));
    $("results").onchange = () => watch($("results").value);
  } catch (_) { /* no results folder */ }
}

async function loadVariant() {
  const name = $("variant").value;
  const d = await api("GET", "/api/variants/" + encodeURIComponent(name));
  $("about").textContent = (variants.find((v) => v.name === name) || {}).about || "";
  // One input per scalar parameter (the server lists them from the defaults); the TOML
  // box below takes what has no input (lists, unset options) and starts empty.
  $("params").value = "";
  $("params").placeholder = d.params_toml;
  const form = $("param-form");
  form.querySelectorAll("label").forEach((l) => l.remove());
  for (const f of d.fields) {
    const l = document.createElement("label");
    l.className = "param";
    l.textContent = f.path + " ";
    const inp = document.createElement("input");
    inp.dataset.path = f.path;
    inp.dataset.kind = f.kind;
    if (f.kind === "bool") { inp.type = "checkbox"; inp.checked = f.value; }
    else if (f.kind === "string") { inp.type = "text"; inp.value = f.value; }
    else { inp.type = "number"; inp.step = f.kind === "float" ? "any" : "1"; inp.value = f.value; }
    inp.dataset.initial = f.kind === "bool" ? String(f.value) : String(f.value);
    l.append(inp);
    form.append(l);
  }
  form.hidden = d.fields.length === 0;
  const box = $("seats");
  box.innerHTML = "";
  d.seat_names.forEach((s, i) => {
    const l = document.createElement("label");
    l.textContent = `Seat ${i} (${s}) `;
    const inp = document.createElement("input");
    inp.setAttribute("list", "agent-specs");
    inp.className = "seat";
    inp.value = i === 0 ? "human" : "greedy";
    l.append(inp);
    box.append(l);
  });
}

async function createGame() {
  $("setup-error").textContent = "";
  const seats = [...document.querySelectorAll("#seats input.seat")].map((i) => i.value.trim());
  const body = { variant: $("variant").value, params: paramsToml(), seed: +$("seed").value || 0, seats, audit: $("audit").checked };
  if ($("opening").value.trim()) body.opening = $("opening").value.trim();
  try {
    const c = await api("POST", "/api/games", body);
    startGame(c, $("hotseat").checked, body.audit);
  } catch (e) { $("setup-error").textContent = e.message; }
}

// The changed form fields as TOML (dotted keys), then the TOML box.
function paramsToml() {
  const lines = [];
  for (const inp of document.querySelectorAll("#param-form input")) {
    const now = inp.type === "checkbox" ? String(inp.checked) : inp.value.trim();
    if (now === inp.dataset.initial || now === "") continue;
    const key = inp.dataset.path.split(".").map((k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k))).join(".");
    let value;
    if (inp.dataset.kind === "bool") value = now;
    else if (inp.dataset.kind === "string") value = JSON.stringify(now);
    else if (inp.dataset.kind === "float") value = /[.eE]/.test(now) ? now : now + ".0";
    else value = now;
    lines.push(`${key} = ${value}`);
  }
  const box = $("params").value.trim();
  if (box) lines.push(box);
  return lines.join("\n");
}

function startGame(c, hotseat, audit) {
  closeGame();
  watchData = null;
  game = { id: c.id, tokens: c.tokens, seats: c.seats, seatNames: c.seat_names, hotseat, audit };
  const humans = c.tokens.map((t, i) => (t ? i : -1)).filter((i) => i >= 0);
  viewing = humans.length ? humans[0] : 0;
  shownSeat = humans.length > 1 && hotseat ? null : viewing;
  $("viewing").innerHTML = "";
  const choices = humans.length ? humans : c.tokens.map((_, i) => i);
  for (const i of choices) $("viewing").add(new Option(`${i} ${c.seat_names[i]}`, i));
  $("viewing-label").hidden = choices.length < 2 || (hotseat && humans.length > 1);
  $("setup").hidden = true;
  $("play").hidden = false;
  for (const id of ["typed", "tools", "branch"]) $(id).hidden = false;
  snapshots = [];
  cursor = null;
  source = new EventSource(`/api/games/${game.id}/events`);
  source.addEventListener("version", () => refresh());
  refresh();
}

// Joins a running game as one seat (a link `/#game=ID&seat=S&token=T` from a script or
// another player).
async function join(id, seat, token, audit) {
  let q = `seat=${seat}` + (token ? `&token=${token}` : "") + (audit ? "&audit=true" : "");
  const v = await api("GET", `/api/games/${id}/state?${q}`);
  const tokens = v.seats.map((_, i) => (i === seat ? token : null));
  startGame({ id, tokens, seats: v.seats, seat_names: v.seat_names }, false, audit);
  viewing = seat;
  shownSeat = seat;
  $("viewing").value = seat;
  refresh();
}

function closeGame() {
  if (source) source.close();
  source = null;
  game = null;
}

function seatQuery() {
  const t = game.tokens[viewing];
  let q = `seat=${viewing}`;
  if (t) q += `&token=${t}`;
  if (game.audit && !game.tokens.some(Boolean)) q += "&audit=true";
  return q;
}

async function refresh() {
  if (!game) return;
  try {
    const v = await api("GET", `/api/games/${game.id}/state?${seatQuery()}`);
    // Hot seat: follow the human seat that has to decide.
    if (game.hotseat) {
      const next = deciding(v);
      if (next !== null && next !== viewing) { viewing = next; return refresh(); }
    }
    view = v;
    snapshots[v.plies] = v;
    snapshots.length = v.plies + 1;
    if (cursor !== null && cursor >= snapshots.length) cursor = null;
    render();
  } catch (e) { $("play-error").textContent = e.message; }
}

// The human seat that must decide now, if any.
function deciding(v) {
  const t = v.turn;
  if (t.kind === "seat" && game.tokens[t.seat]) return t.seat;
  if (t.kind === "simultaneous") {
    const i = t.seats.findIndex((s, k) => game.tokens[s] && !t.committed[k]);
    if (i >= 0) return t.seats[i];
  }
  return null;
}

function seatName(s) { return `${s} (${game ? game.seatNames[s] : watchData.seat_names[s]})`; }

function render() {
  const shown = cursor === null ? view : snapshots[cursor] || view;
  const live = cursor === null;
  $("play-error").textContent = "";
  const t = view.turn;
  let turn;
  if (t.kind === "seat") turn = `${seatName(t.seat)} to act`;
  else if (t.kind === "chance") turn = "chance";
  else if (t.kind === "simultaneous") turn = `simultaneous: ${t.seats.map((s, k) => seatName(s) + (t.committed[k] ? " ✓" : " …")).join(", ")}`;
  else turn = "game over";
  $("turn").textContent = (view.thinking ? "thinking… " : "") + turn + ` — you are ${seatName(viewing)}`;
  $("result").textContent = view.result ? `Result: ${view.result.returns.join(" : ")} (${view.result.reason})` : "";
  $("observation").textContent = shown.observation;
  $("ply-label").textContent = live ? `ply ${view.plies}` : `ply ${cursor} of ${view.plies} (history)`;
  const hide = game.hotseat && shownSeat !== viewing && game.tokens.filter(Boolean).length > 1 && !view.result;
  $("curtain").hidden = !hide;
  $("curtain-text").textContent = `Pass the screen to ${seatName(viewing)}`;
  drawBoard(shown.observation, live ? view.legal : []);
  buttons(live ? view.legal : []);
  history(view.record, live ? view.plies : cursor);
  const over = !!view.result;
  for (const id of ["export-csv", "export-toml"]) $(id).hidden = !over;
  $("export-csv").href = `/api/games/${game.id}/export`;
  $("export-toml").href = `/api/games/${game.id}/export?format=toml`;
  $("export-toml").download = "params.toml";
  $("export-csv").download = "games.csv";
  $("audit-box").hidden = !view.audit;
  if (view.audit) {
    $("audit-state").textContent = view.audit.state;
    $("audit-views").textContent = view.audit.observations.map((o, i) => `${seatName(i)}: ${o}`).join("\n\n");
  }
}

// The board: the first token of the observation that reads as a FEN placement.
function placement(obs) {
  for (const tok of obs.split(/[\s|]+/)) {
    const ranks = tok.split("/");
    if (ranks.length >= 4 && ranks.every((r) => r.length > 0)) {
      const rows = ranks.map((r) => {
        const cells = [];
        for (const m of r.matchAll(/(\d+)|(.)/g)) {
          if (m[1]) for (let i = 0; i < +m[1]; i++) cells.push(null); else cells.push(m[2]);
        }
        return cells;
      });
      const w = rows[0].length;
      if (w >= 4 && rows.every((r) => r.length === w)) return rows;
    }
  }
  return null;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.append(e);
  return e;
}

function squareName(file, rank) { return String.fromCharCode(97 + file) + (rank + 1); }

function drawBoard(obs, legal) {
  const svg = $("board");
  svg.innerHTML = "";
  const rows = placement(obs);
  if (!rows) {
    el("text", { x: 400, y: 400, "text-anchor": "middle", "font-size": 30 }, svg).textContent = "no board in this view";
    return;
  }
  const h = rows.length, w = rows[0].length, size = 800 / Math.max(w, h);
  const flip = viewing === 1;
  const moves = legal.map((a) => a.match(SQUARE)).filter(Boolean);
  const drops = legal.map((a) => a.match(DROP)).filter(Boolean);
  const targets = new Set(pocket
    ? drops.filter((m) => m[1] === pocket).map((m) => m[2])
    : moves.filter((m) => selected && m[1] + m[2] === selected).map((m) => m[3] + m[4]));
  const sources = new Set(moves.map((m) => m[1] + m[2]));
  for (let r = 0; r < h; r++) {
    for (let f = 0; f < w; f++) {
      const rank = h - 1 - r; // FEN lists the top rank first
      const x = (flip ? w - 1 - f : f) * size, y = (flip ? h - 1 - r : r) * size;
      const name = squareName(f, rank);
      const g = el("g", { "data-square": name, class: "square" }, svg);
      el("rect", { x, y, width: size, height: size, fill: (f + rank) % 2 ? "#f0d9b5" : "#b58863" }, g);
      if (name === selected) el("rect", { x, y, width: size, height: size, fill: "#3a7bd5", opacity: 0.45 }, g);
      const p = rows[r][f];
      if (p) piece(g, p, x, y, size);
      // Drawn over the piece: on an occupied square (a capture, a drop onto a piece) a ring.
      if (targets.has(name)) {
        el("circle", p
          ? { cx: x + size / 2, cy: y + size / 2, r: size * 0.44, fill: "none", stroke: "#2e8b57", "stroke-width": size * 0.07, opacity: 0.85, class: "target" }
          : { cx: x + size / 2, cy: y + size / 2, r: size * 0.16, fill: "#2e8b57", opacity: 0.8, class: "target" }, g);
      }
      if ((f === 0 && !flip) || (f === w - 1 && flip)) el("text", { x: x + 3, y: y + 14, "font-size": 13, fill: "#333" }, g).textContent = rank + 1;
      if ((r === h - 1 && !flip) || (r === 0 && flip)) el("text", { x: x + size - 12, y: y + size - 4, "font-size": 13, fill: "#333" }, g).textContent = String.fromCharCode(97 + f);
      g.onclick = () => clickSquare(name, moves, sources, drops);
    }
  }
}

// A piece: a white body with a black letter for the first side (upper case), a black
// body with a white letter for the second (lower case); anything else a grey tile.
function piece(g, p, x, y, size) {
  const cx = x + size / 2, cy = y + size / 2;
  const upper = p !== p.toLowerCase(), lower = p !== p.toUpperCase();
  const fill = upper ? "#fdfdfd" : lower ? "#1b1b1b" : "#9a9a9a";
  const ink = upper ? "#111" : "#fff";
  el("ellipse", { cx, cy: y + size * 0.8, rx: size * 0.34, ry: size * 0.1, fill, stroke: "#000", "stroke-width": 3 }, g);
  el("circle", { cx, cy: cy - size * 0.04, r: size * 0.32, fill, stroke: upper ? "#000" : "#d0d0d0", "stroke-width": 4 }, g);
  el("text", { x: cx, y: cy + size * 0.1, "text-anchor": "middle", "font-size": size * 0.4, "font-weight": "bold", "font-family": "serif", fill: ink, class: "piece" }, g).textContent = p.toUpperCase();
}

function clickSquare(name, moves, sources, drops) {
  if (cursor !== null) return;
  if (pocket) {
    const hit = drops.find((m) => m[1] === pocket && m[2] === name);
    pocket = null;
    if (hit) return act(hit[0]);
  }
  if (selected) {
    const hits = moves.filter((m) => m[1] + m[2] === selected && m[3] + m[4] === name);
    if (hits.length === 1) { selected = null; return act(hits[0][0]); }
    if (hits.length > 1) { selected = null; return choose(hits.map((m) => m[0])); }
  }
  selected = sources.has(name) && selected !== name ? name : null;
  render();
}

function choose(list) {
  const b = $("buttons");
  b.innerHTML = "<p>Choose:</p>";
  for (const a of list) { const btn = document.createElement("button"); btn.textContent = a; btn.onclick = () => act(a); b.append(btn); }
}

// Every decision that is not a square pair is a button.
function buttons(legal) {
  const b = $("buttons");
  b.innerHTML = "";
  const others = legal.filter((a) => !SQUARE.test(a) && !DROP.test(a));
  const squares = legal.filter((a) => SQUARE.test(a)).length;
  const inHand = [...new Set(legal.map((a) => a.match(DROP)).filter(Boolean).map((m) => m[1]))];
  if (inHand.length) {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = "In hand: click one, then a marked square.";
    b.append(p);
    for (const item of inHand) {
      const btn = document.createElement("button");
      btn.className = "pocket" + (item === pocket ? " picked" : "");
      btn.dataset.item = item;
      // The piece letter is drawn as on the board; the rest of the name stays text.
      const letter = item.slice(-1);
      if (/[A-Za-z]/.test(letter)) {
        const svg = document.createElementNS(SVG, "svg");
        svg.setAttribute("viewBox", "0 0 100 100");
        svg.setAttribute("class", "hand-piece");
        piece(svg, letter, 0, 0, 100);
        btn.append(svg);
      }
      btn.append(document.createTextNode(item));
      btn.onclick = () => { pocket = pocket === item ? null : item; selected = null; render(); };
      b.append(btn);
    }
  }
  if (legal.length && squares) {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = `${squares} move(s): click a piece, then a highlighted square.`;
    b.append(p);
  }
  for (const a of others) {
    const btn = document.createElement("button");
    btn.textContent = a;
    btn.onclick = () => act(a);
    b.append(btn);
  }
}

function history(record, at) {
  const ol = $("history");
  ol.innerHTML = "";
  (record || []).forEach((a, i) => {
    const li = document.createElement("li");
    li.textContent = a;
    if (i + 1 === at) li.className = "current";
    ol.append(li);
  });
  if (!record) ol.innerHTML = `<li>${view ? view.plies : 0} actions (hidden until the end)</li>`;
}

function keys(e) {
  if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
  if (watchData) {
    if (e.key === "ArrowLeft") watchStep(-1);
    if (e.key === "ArrowRight") watchStep(1);
    return;
  }
  if (!view) return;
  const have = snapshots.map((s, i) => (s ? i : -1)).filter((i) => i >= 0);
  let idx = have.indexOf(cursor === null ? view.plies : cursor);
  if (e.key === "ArrowLeft" && idx > 0) cursor = have[idx - 1];
  else if (e.key === "ArrowRight") { cursor = idx + 1 < have.length - 1 ? have[idx + 1] : null; }
  else return;
  render();
}

async function act(action) {
  $("notation").value = "";
  try { await api("POST", `/api/games/${game.id}/act`, { seat: viewing, token: game.tokens[viewing] || "", action }); refresh(); }
  catch (e) { $("play-error").textContent = e.message; }
}

async function takeback() {
  try { await api("POST", `/api/games/${game.id}/undo`, { seat: viewing, token: game.tokens[viewing] || "" }); snapshots = []; refresh(); }
  catch (e) { $("play-error").textContent = e.message; }
}

async function agentAct() {
  try { await api("POST", `/api/games/${game.id}/agent-act`, { seat: viewing, token: game.tokens[viewing] || "", agent: $("helper").value }); refresh(); }
  catch (e) { $("play-error").textContent = e.message; }
}

// "Branch here": N bot games from the shown ply (the history cursor or the live position).
async function branchHere() {
  const body = { ply: cursor === null ? view.plies : cursor, games: +$("branch-games").value || 20 };
  const t = game.tokens[viewing];
  if (t) { body.seat = viewing; body.token = t; }
  const agents = $("branch-agents").value.split(",").map((a) => a.trim()).filter(Boolean);
  if (agents.length) body.agents = agents;
  if ($("branch-params").value.trim()) body.params = $("branch-params").value;
  $("branch-out").textContent = "running…";
  try {
    const o = await api("POST", `/api/games/${game.id}/branch`, body);
    const lines = o.seats.map((s) => `${s.seat} ${s.name} (${s.agent}): ${s.wins} won, ${s.draws} drawn, ${s.losses} lost, mean return ${s.mean_return.toFixed(2)}`);
    lines.push(`${o.games} games from ply ${o.from_ply}, mean length ${o.mean_plies.toFixed(1)} actions`);
    lines.push("endings: " + o.reasons.map(([r, n]) => `${r} ${n}`).join(", "));
    $("branch-out").textContent = lines.join("\n");
  } catch (e) { $("branch-out").textContent = e.message; }
}

// Watch mode: a recorded game with every seat's observation at every ply.
async function watch(index) {
  try {
    closeGame();
    watchData = await api("GET", `/api/results/${index}`);
    watchData.at = 0;
    viewing = 0;
    $("setup").hidden = true;
    $("play").hidden = false;
    for (const id of ["typed", "tools", "branch"]) $(id).hidden = true;
    $("viewing").innerHTML = "";
    watchData.seat_names.forEach((s, i) => $("viewing").add(new Option(`${i} ${s}`, i)));
    $("viewing-label").hidden = false;
    watchRender();
  } catch (e) { $("setup-error").textContent = e.message; }
}

function watchStep(d) {
  watchData.at = Math.max(0, Math.min(watchData.actions.length, watchData.at + d));
  watchRender();
}

function watchRender() {
  const w = watchData, obs = w.frames[w.at][viewing];
  $("turn").textContent = `watching ${w.variant}: ${w.agents.join(" vs ")} — ply ${w.at} of ${w.actions.length} (← →)`;
  $("result").textContent = `Result: ${w.result.returns.join(" : ")} (${w.result.reason})`;
  $("observation").textContent = obs;
  $("curtain").hidden = true;
  drawBoard(obs, []);
  $("buttons").innerHTML = "";
  const ol = $("history");
  ol.innerHTML = "";
  w.actions.forEach((a, i) => { const li = document.createElement("li"); li.textContent = a; if (i + 1 === w.at) li.className = "current"; li.onclick = () => { w.at = i + 1; watchRender(); }; ol.append(li); });
}

init().catch((e) => { $("setup-error").textContent = e.message; });

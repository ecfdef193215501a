// The chesslab board (served as /play.js, loaded last): uses nothing but the JSON API
// (docs/api.md). board.js draws and
// knows orthodox geometry (SAN, check), mechanics.js reads each variant's observation
// into marks, panels and click targets, events.js writes what a seat learned in words.
//
// Decisions (issue 38):
// - Views never go stale: every state request carries a sequence number and only the
//   answer to the newest request is drawn (a slow answer to an older one is dropped),
//   so in hot seat a view from before the last move cannot replace the current one.
// - Seat tokens are kept in localStorage under `chesslab.game.<id>`, and the game id in
//   the URL fragment (`#game=ID`): a reload resumes the game with every seat the page
//   created. A join link (`#game=ID&seat=S&token=T`) works as before and is kept too.
// - History snapshots are kept per seat, so walking the history in hot seat never shows
//   another seat's view.
// - Moves are shown in SAN for the variants whose moves are orthodox (mechanics.js `san`),
//   computed here from the positions the page has seen (and from moves applied to them);
//   where a position is unknown, or the variant has its own moves, its own notation.
// - Prices, par, counts and every other rule number come from the view's `params` (the
//   game's own parameters, which the server sends with every view), never from a
//   variant's defaults: a game created with its own Zorkmid table shows its prices.
"use strict";
const $ = (id) => document.getElementById(id);
const DROP = /^(.+)@([a-z]\d{1,2})$/;
let variants = [];
let game = null; // {id, tokens, seats, seatNames, hotseat, audit, variant}
let view = null; // the latest state
let viewing = 0; // the seat whose view is shown
let shownSeat = null; // the seat the curtain was last lifted for
let snapshots = {}; // per seat: views this page has seen, by ply
let baseline = {}; // per seat: the view right after the seat's last own action
let cursor = null; // ply shown while walking the history
let selected = null;
let pocket = null; // the item in hand picked up for a drop
let source = null;
let watchData = null; // a recorded game being watched
let requestSeq = 0; // the newest state request
let ui = {}; // per-game UI state of the variant's controls (toggles, form choices)
let clickMap = { pairs: [], singles: [], drops: [] };

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
  for (const a of ["human", ...(Array.isArray(agents) ? agents : agents.agents), "alphabeta:depth=2", "mcts:iters=500", "ismcts:iters=500"]) dl.append(new Option(a));
  document.body.append(dl);
  $("variant").onchange = loadVariant;
  $("create").onclick = createGame;
  $("new").onclick = () => { closeGame(); history_.replaceState(null, "", location.pathname); $("setup").hidden = false; $("play").hidden = true; };
  $("typed").onsubmit = (e) => { e.preventDefault(); const t = $("notation").value.trim(); if (t) act(t); };
  $("takeback").onclick = takeback;
  $("agent-act").onclick = agentAct;
  $("branch-run").onclick = branchHere;
  $("rules-open").onclick = showRules;
  $("curtain-ok").onclick = () => { shownSeat = viewing; $("curtain").hidden = true; render(); };
  $("viewing").onchange = () => { viewing = +$("viewing").value; shownSeat = viewing; cursor = null; if (watchData) watchRender(); else refresh(); };
  document.addEventListener("keydown", keys);
  // The event stream holds a connection open: let it go with the page.
  window.addEventListener("pagehide", () => { if (source) source.close(); });
  await loadVariant();
  const hp = new URLSearchParams(location.hash.slice(1));
  if (hp.get("game")) {
    await resume(hp.get("game"), hp.get("seat"), hp.get("token"), hp.get("audit") === "true");
    selected = hp.get("select"); // a square picked in advance, as by a click
  }
  const info = await api("GET", "/api/board");
  if (info.results) {
    const rows = await api("GET", "/api/results");
    $("watch").hidden = false;
    for (const r of rows) $("results").add(new Option(`#${r.index} ${r.variant} ${r.agents.join(" vs ")} ${r.result} (${r.reason}, ${r.plies} plies)`, r.index));
    $("results").onchange = () => watch($("results").value);
  }
}
const history_ = window.history;

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
    inp.dataset.initial = String(f.value);
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
  // A secret seed (the server's) unless the person asks for a practice game; only then is
  // a seed sent, and only if one is written.
  const body = { variant: $("variant").value, params: paramsToml(), seats, audit: $("audit").checked };
  if ($("practice-game").checked) {
    body.practice = true;
    if ($("seed").value.trim() !== "") body.seed = +$("seed").value;
  }
  if ($("opening").value.trim()) body.opening = $("opening").value.trim();
  try {
    const c = await api("POST", "/api/games", body);
    startGame({ ...c, variant: body.variant }, $("hotseat").checked, body.audit);
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

function storeKey(id) { return "chesslab.game." + id; }

function startGame(c, hotseat, audit) {
  closeGame();
  watchData = null;
  game = { id: c.id, tokens: c.tokens, seats: c.seats, seatNames: c.seat_names, hotseat, audit, variant: c.variant };
  try { localStorage.setItem(storeKey(c.id), JSON.stringify({ tokens: c.tokens, seats: c.seats, seat_names: c.seat_names, hotseat, audit, variant: c.variant })); } catch (_) { /* storage off: no resume */ }
  history_.replaceState(null, "", "#game=" + encodeURIComponent(c.id));
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
  snapshots = {};
  baseline = {};
  ui = {};
  cursor = null;
  view = null;
  $("events").innerHTML = "";
  source = new EventSource(`/api/games/${game.id}/events`);
  source.addEventListener("version", () => refresh());
  refresh();
}

// Resumes a game: with the tokens this browser kept for it, or as one seat from a join
// link (`/#game=ID&seat=S&token=T`).
async function resume(id, seat, token, audit) {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(storeKey(id)) || "null"); } catch (_) { kept = null; }
  if (seat !== null && token) {
    const tokens = kept && kept.tokens ? kept.tokens.slice() : null;
    const v = await api("GET", `/api/games/${id}/state?seat=${+seat}&token=${encodeURIComponent(token)}` + (audit ? "&audit=true" : ""));
    const ts = tokens && tokens.length === v.seats.length ? tokens : v.seats.map(() => null);
    ts[+seat] = token;
    startGame({ id, tokens: ts, seats: v.seats, seat_names: v.seat_names, variant: v.variant }, kept ? kept.hotseat : false, audit);
    viewing = +seat;
    shownSeat = viewing;
    $("viewing").value = viewing;
    history_.replaceState(null, "", `#game=${encodeURIComponent(id)}&seat=${+seat}&token=${encodeURIComponent(token)}`);
    return refresh();
  }
  if (kept) return startGame({ id, tokens: kept.tokens, seats: kept.seats, seat_names: kept.seat_names, variant: kept.variant }, kept.hotseat, kept.audit);
  // Somebody else's game: a spectator of a perfect-information game or of bots.
  const v = await api("GET", `/api/games/${id}/state` + (seat !== null ? `?seat=${+seat}` : "") + (audit ? (seat !== null ? "&" : "?") + "audit=true" : ""));
  startGame({ id, tokens: v.seats.map(() => null), seats: v.seats, seat_names: v.seat_names, variant: v.variant }, false, audit);
}

function closeGame() {
  if (source) source.close();
  source = null;
  game = null;
  requestSeq++;
}

function seatQuery(seat) {
  const t = game.tokens[seat];
  let q = `seat=${seat}`;
  if (t) q += `&token=${encodeURIComponent(t)}`;
  if (game.audit && !game.tokens.some(Boolean)) q += "&audit=true";
  return q;
}

// Fetches the shown seat's view; only the newest request's answer is drawn.
async function refresh() {
  if (!game) return;
  const seq = ++requestSeq;
  const g = game;
  try {
    let seat = viewing;
    let v = await api("GET", `/api/games/${g.id}/state?${seatQuery(seat)}`);
    // Hot seat: follow the human seat that has to decide.
    if (g.hotseat) {
      const next = deciding(v);
      if (next !== null && next !== seat) {
        seat = next;
        v = await api("GET", `/api/games/${g.id}/state?${seatQuery(seat)}`);
      }
    }
    if (seq !== requestSeq || game !== g) return; // a newer request was made meanwhile
    if (view && view.seat === v.seat && v.version < view.version && viewing === seat) return;
    viewing = seat;
    accept(v);
  } catch (e) { if (seq === requestSeq) $("play-error").textContent = e.message; }
}

function accept(v) {
  view = v;
  const seat = viewing;
  const snaps = (snapshots[seat] = snapshots[seat] || []);
  snaps[v.plies] = v;
  snaps.length = v.plies + 1;
  if (cursor !== null && cursor >= v.plies) cursor = null;
  render();
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
function seatColour(seat, names) {
  const n = String((names || [])[seat] || "").toLowerCase();
  return n.includes("black") ? "black" : n.includes("white") ? "white" : null;
}

// What the click handlers and the variant's controls need.
function context(v) {
  return {
    variant: v.variant, seat: viewing, seatNames: v.seat_names, view: v, obs: v.observation, ui,
    params: v.params || {}, act, rerender: render,
    fetchPar: (fen, rules) => api("GET", "/api/golf/par?position=" + encodeURIComponent(fen) + (rules ? "&rules=" + encodeURIComponent(JSON.stringify(rules)) : "")),
    clearSelection: () => { selected = null; pocket = null; },
  };
}

function render() {
  if (!view || !game) return;
  const seatSnaps = snapshots[viewing] || [];
  const live = cursor === null;
  const shown = live ? view : seatSnaps[cursor] || null;
  const mech = mechanicsOf(view.variant);
  $("play-error").textContent = "";
  const t = view.turn;
  let turn;
  if (t.kind === "seat") turn = `${seatName(t.seat)} to act`;
  else if (t.kind === "chance") turn = "chance";
  else if (t.kind === "simultaneous") turn = `simultaneous: ${t.seats.map((s, k) => seatName(s) + (t.committed[k] ? " ✓" : " …")).join(", ")}`;
  else turn = "game over";
  $("turn").textContent = (view.thinking ? "thinking… " : "") + turn + ` — you are ${seatName(viewing)}`;
  $("practice").hidden = !view.practice;
  $("practice").textContent = view.practice ? "practice game" + (view.practice_why ? `: ${view.practice_why}` : "") : "practice game";
  let res = view.result ? `Result: ${view.result.returns.join(" : ")} (${view.result.reason})` : "";
  if (view.result && view.seed !== undefined && view.seed !== null) res += ` — seed ${view.seed}`;
  $("result").textContent = res;
  $("ply-label").textContent = live ? `ply ${view.plies}` : `ply ${cursor} of ${view.plies} (history)`;
  const hide = game.hotseat && shownSeat !== viewing && game.tokens.filter(Boolean).length > 1 && !view.result;
  $("curtain").hidden = !hide;
  $("curtain-text").textContent = `Pass the screen to ${seatName(viewing)}`;
  if (hide) {
    // Nothing of the next seat's view is drawn until it lifts the curtain.
    for (const id of ["mechanics", "controls", "buttons", "events", "history"]) $(id).innerHTML = "";
    $("observation").textContent = "";
    $("board").innerHTML = "";
    return;
  }
  const ctx = context(view);
  const legal = live ? view.legal : [];
  // The shown position: the snapshot, else one derived from the record (orthodox moves).
  const obs = shown ? shown.observation : null;
  const st = obs !== null && mech.parse ? mech.parse(obs, { ...ctx, obs, view: shown }) || {} : {};
  const rows = (st && st.rows) || (obs !== null ? placement(obs) : derivedRows(cursor));
  $("observation").textContent = obs !== null ? obs : "(this ply was not seen by this page: the board is derived from the record)";
  // Variant panel and facts.
  const panel = $("mechanics");
  panel.innerHTML = "";
  if (st.facts && st.facts.length) {
    const dl = h("dl", { class: "facts" });
    for (const [k, val] of st.facts) dl.append(h("dt", { text: k }), h("dd", { text: String(val) }));
    panel.append(dl);
  }
  if (mech.panel && obs !== null) mech.panel(st, { ...ctx, obs }, panel);
  // Decisions: the variant's own controls, board clicks, pocket drops, then buttons.
  const controls = $("controls");
  controls.innerHTML = "";
  const handled = new Set(live && mech.controls ? mech.controls(st, legal, ctx, controls) || [] : []);
  const clicks = live ? (mech.clicks ? mech.clicks(st, legal, ctx) : genericClicks(legal)) : [];
  clickMap = {
    pairs: clicks.filter((c) => c.from),
    singles: clicks.filter((c) => c.sq),
    drops: legal.filter((a) => !handled.has(a) && !a.startsWith("guess:")).map((a) => a.match(DROP)).filter(Boolean),
  };
  const clickable = new Set(clicks.map((c) => c.action));
  if (rows) {
    const targets = new Set(pocket
      ? clickMap.drops.filter((m) => m[1] === pocket).map((m) => m[2])
      : clickMap.pairs.filter((m) => selected && m.from === selected).map((m) => m.to));
    const singles = new Set(!selected && !pocket ? clickMap.singles.map((c) => c.sq) : []);
    drawBoard($("board"), {
      rows, flip: seatColour(viewing, view.seat_names) === "black", selected, targets, singles,
      lastMove: st.lastMove !== undefined && st.lastMove !== null ? st.lastMove : lastMove(live ? view.plies : cursor),
      check: mech.check ? kingsInCheck(rows) : [], greyed: st.greyed, marks: st.marks,
      onClick: clickSquare,
    });
  } else {
    const svg = $("board");
    svg.innerHTML = "";
    svgEl("text", { x: 400, y: 400, "text-anchor": "middle", "font-size": 30 }, svg).textContent = "no board in this view";
  }
  buttons(legal.filter((a) => !handled.has(a) && !clickable.has(a)));
  moveList(st);
  events(mech, st);
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

// The placement before ply `n`'s position, from the nearest seen one and the record's
// orthodox moves (null when it cannot be known).
function derivedRows(n) {
  const rec = view.record;
  const snaps = snapshots[viewing] || [];
  if (!rec) return null;
  let k = n;
  while (k >= 0 && !snaps[k]) k--;
  if (k < 0) return null;
  let rows = placement(snaps[k].observation);
  for (let i = k; i < n && rows; i++) rows = applyUci(rows, rec[i].split("|")[0]);
  return rows;
}

// The squares of the move that led to ply `n`: the record's, else the squares whose
// piece changed since the previous position this seat saw.
function lastMove(n) {
  if (!n) return [];
  const rec = view.record;
  if (rec && rec[n - 1]) {
    const sq = rec[n - 1].match(/[a-h][1-8]/g) || [];
    if (sq.length >= 2) return sq.slice(0, 2);
    if (sq.length === 1) return sq;
  }
  const snaps = snapshots[viewing] || [];
  let k = n - 1;
  while (k >= 0 && !snaps[k]) k--;
  if (k < 0 || !snaps[n]) return [];
  const a = cellsOf(placement(snaps[k].observation)), b = cellsOf(placement(snaps[n].observation));
  const changed = [];
  for (const sq of new Set([...a.keys(), ...b.keys()])) if (a.get(sq) !== b.get(sq)) changed.push(sq);
  return changed.length <= 4 ? changed : [];
}

function clickSquare(name) {
  if (cursor !== null) return;
  if (pocket) {
    const hit = clickMap.drops.find((m) => m[1] === pocket && m[2] === name);
    pocket = null;
    if (hit) return act(hit[0]);
  }
  if (selected) {
    const hits = clickMap.pairs.filter((m) => m.from === selected && m.to === name);
    if (hits.length === 1) { selected = null; return act(hits[0].action); }
    if (hits.length > 1) { selected = null; return choose(hits.map((m) => m.action)); }
  } else {
    const singles = clickMap.singles.filter((c) => c.sq === name);
    if (singles.length === 1) return act(singles[0].action);
    if (singles.length > 1) return choose(singles.map((c) => c.action));
  }
  selected = clickMap.pairs.some((m) => m.from === name) && selected !== name ? name : null;
  render();
}

function choose(list) {
  const b = $("buttons");
  b.innerHTML = "<p>Choose:</p>";
  for (const a of list) b.append(h("button", { class: "act", "data-action": a, onclick: () => act(a) }, a));
}

// The decisions left: pocket items (a drop: the item, then a square) and buttons.
function buttons(legal) {
  const b = $("buttons");
  b.innerHTML = "";
  const inHand = [...new Set(clickMap.drops.map((m) => m[1]))];
  if (inHand.length) {
    b.append(h("p", { class: "note", text: "In hand: click one, then a marked square." }));
    for (const item of inHand) {
      const btn = h("button", { class: "pocket" + (item === pocket ? " picked" : ""), "data-item": item });
      const letter = item.slice(-1);
      if (/[A-Za-z]/.test(letter)) {
        const svg = document.createElementNS(SVG_NS, "svg");
        svg.setAttribute("viewBox", "0 0 100 100");
        svg.setAttribute("class", "hand-piece");
        drawPiece(svg, letter, 0, 0, 100, false);
        btn.append(svg);
      }
      btn.append(document.createTextNode(item));
      btn.onclick = () => { pocket = pocket === item ? null : item; selected = null; render(); };
      b.append(btn);
    }
  }
  const moves = clickMap.pairs.length, singles = clickMap.singles.length;
  if (moves || singles) {
    const say = [];
    if (moves) say.push(`${moves} move(s): click a piece, then a highlighted square`);
    if (singles) say.push(`${singles} square choice(s): click a violet square`);
    b.append(h("p", { class: "note", text: say.join("; ") + "." }));
  }
  const drops = new Set(clickMap.drops.map((m) => m[0]));
  for (const a of legal) if (!drops.has(a)) b.append(h("button", { class: "act", "data-action": a, title: a, onclick: () => act(a) }, actionLabel(a)));
}

// The move list: SAN where the variant's moves are orthodox, its notation otherwise;
// for a hidden game the seat's own log when its observation has one.
function moveList(st) {
  const box = $("history");
  box.innerHTML = "";
  const rec = view.record;
  const at = cursor === null ? view.plies : cursor;
  if (!rec) {
    // A hidden game: the record as this seat sees it, when its observation keeps one.
    const own = st && (st.log || st.attempts);
    box.append(h("p", { class: "note", text: `${view.plies} actions (the full record is hidden until the end${own && own.length ? "; below, the record as you see it" : ""})` }));
    if (own && own.length) {
      const list = h("div", { class: "moves" });
      own.forEach((a, i) => list.append(h("span", { class: "no", text: `${i + 1}.` }), h("span", { class: "mv" + (i === own.length - 1 ? " current" : ""), text: a })));
      box.append(list);
      const cur = list.querySelector(".current");
      if (cur) box.scrollTop = box.scrollHeight;
    }
    return;
  }
  const mech = mechanicsOf(view.variant);
  const snaps = snapshots[viewing] || [];
  let rows = null;
  // The server's readable notation (SAN where the variant's moves are orthodox) first;
  // the page's own SAN from the positions it has seen only where that is missing.
  const readable = view.record_san && view.record_san.length === rec.length ? view.record_san : null;
  const names = rec.map((a, i) => {
    if (snaps[i]) rows = placement(snaps[i].observation);
    let text = readable ? readable[i] : a;
    if (text === a && mech.san && rows && /^[a-z]\d{1,2}[a-z]\d{1,2}[qrbnk]?$/.test(a)) {
      const s = san(rows, a);
      if (s) text = s;
    }
    rows = rows ? applyUci(rows, a) : null;
    if (text.endsWith("+") && i === rec.length - 1 && view.result && view.result.reason === "checkmate") text = text.slice(0, -1) + "#";
    return text;
  });
  // Two seats alternating: numbered rows of two; anything else one action a row.
  const pairs = !!mech.pairs;
  const ol = h("div", { class: "moves" + (pairs ? " pairs" : "") });
  names.forEach((n, i) => {
    if (!pairs || i % 2 === 0) ol.append(h("span", { class: "no", text: pairs ? `${i / 2 + 1}.` : `${i + 1}.` }));
    const li = h("span", { class: "mv" + (i + 1 === at ? " current" : ""), "data-ply": i + 1, text: n, title: rec[i] });
    li.onclick = () => { cursor = i + 1 === view.plies ? null : i + 1; render(); };
    ol.append(li);
  });
  box.append(ol);
  const cur = ol.querySelector(".current");
  if (cur) box.scrollTop = Math.max(0, cur.offsetTop - box.offsetTop - box.clientHeight / 2);
}

// The event log: since the seat's last own action, in words.
function events(mech, st) {
  const box = $("events");
  if (cursor !== null) return;
  const base = baseline[viewing];
  if (!base || base.plies === view.plies) { if (!base) box.innerHTML = ""; return; }
  const ctx = context(view);
  const prevSt = mech.parse ? mech.parse(base.observation, { ...ctx, obs: base.observation, view: base, ui: { ...ui } }) || {} : {};
  const prevRows = prevSt.rows || placement(base.observation);
  const rows = st.rows || placement(view.observation);
  const lines = boardEvents(prevRows, rows, seatColour(viewing, view.seat_names)).concat(mech.events ? mech.events(prevSt, st, ctx) : []);
  if (view.result && !base.result) lines.push(`the game ended: ${view.result.reason}`);
  box.innerHTML = "";
  box.append(h("p", { class: "note", text: `Since your last action (ply ${base.plies} → ${view.plies}):` }));
  const ul = h("ul");
  for (const l of lines.length ? lines : ["nothing you can see changed"]) ul.append(h("li", { text: l }));
  box.append(ul);
}

function keys(e) {
  if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
  if (watchData) {
    if (e.key === "ArrowLeft") watchStep(-1);
    if (e.key === "ArrowRight") watchStep(1);
    return;
  }
  if (!view) return;
  // Every ply when the record is known (the board derived where unseen), else the
  // plies this page saw.
  const snaps = snapshots[viewing] || [];
  const have = view.record ? [...Array(view.plies + 1).keys()] : snaps.map((s, i) => (s ? i : -1)).filter((i) => i >= 0);
  const idx = have.indexOf(cursor === null ? view.plies : cursor);
  if (e.key === "ArrowLeft" && idx > 0) cursor = have[idx - 1];
  else if (e.key === "ArrowRight") cursor = idx + 1 < have.length - 1 ? have[idx + 1] : null;
  else return;
  render();
}

async function act(action) {
  $("notation").value = "";
  const seat = viewing;
  const g = game;
  try {
    const v = await api("POST", `/api/games/${g.id}/act`, { seat, token: g.tokens[seat] || "", action, version: shownVersion() });
    if (game !== g) return;
    baseline[seat] = v;
    refresh();
  } catch (e) { staleOr(e); }
}

// The version of the view the person chose in: a second click on the same view is
// refused by the server (409 "stale") and only refreshes the page.
function shownVersion() { return view ? view.version : undefined; }
function staleOr(e) {
  if (/^stale/.test(e.message)) { refresh(); return; }
  $("play-error").textContent = e.message;
}

async function takeback() {
  try { await api("POST", `/api/games/${game.id}/undo`, { seat: viewing, token: game.tokens[viewing] || "", version: shownVersion() }); snapshots = {}; baseline = {}; refresh(); }
  catch (e) { staleOr(e); }
}

async function agentAct() {
  try { await api("POST", `/api/games/${game.id}/agent-act`, { seat: viewing, token: game.tokens[viewing] || "", agent: $("helper").value, version: shownVersion() }); refresh(); }
  catch (e) { staleOr(e); }
}

async function showRules() {
  const name = game ? game.variant || (view && view.variant) : watchData ? watchData.variant : $("variant").value;
  try {
    const r = await api("GET", `/api/variants/${encodeURIComponent(name)}/rules`);
    $("rules-title").textContent = r.title;
    $("rules-text").textContent = r.text;
    $("rules").hidden = false;
  } catch (e) { $("play-error").textContent = e.message; }
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

// The clicks that play `action` on the page as it stands, as CSS selectors in order (the
// browser test clicks them; a person does the same by hand). Null when the page offers
// the action no way.
function clickPlan(action) {
  const mech = view ? mechanicsOf(view.variant) : {};
  if (mech.plan) {
    const p = mech.plan(action, context(view));
    if (p) return p;
  }
  const sq = (s) => `#board g[data-square='${s}']`;
  const btn = `button[data-action=${JSON.stringify(action)}]`;
  if (document.querySelector(btn)) return [btn];
  const pair = clickMap.pairs.find((m) => m.action === action);
  if (pair) {
    const n = clickMap.pairs.filter((m) => m.from === pair.from && m.to === pair.to).length;
    return [sq(pair.from), sq(pair.to)].concat(n > 1 ? [btn] : []);
  }
  const single = clickMap.singles.find((c) => c.action === action);
  if (single) return [sq(single.sq)].concat(clickMap.singles.filter((c) => c.sq === single.sq).length > 1 ? [btn] : []);
  const drop = clickMap.drops.find((m) => m[0] === action);
  if (drop) return [`#buttons button.pocket[data-item=${JSON.stringify(drop[1])}]`, sq(drop[2])];
  return null;
}
window.clickPlan = clickPlan;

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
  const mech = mechanicsOf(w.variant);
  const fake = { variant: w.variant, seat_names: w.seat_names, record: w.actions.slice(0, w.at), plies: w.at, legal: [] };
  const st = mech.parse ? mech.parse(obs, { variant: w.variant, seat: viewing, seatNames: w.seat_names, view: fake, obs, ui }) || {} : {};
  const rows = st.rows || placement(obs);
  const svg = $("board");
  if (rows) {
    const m = w.at ? (w.actions[w.at - 1].match(/[a-h][1-8]/g) || []).slice(0, 2) : [];
    drawBoard(svg, { rows, flip: seatColour(viewing, w.seat_names) === "black", marks: st.marks, greyed: st.greyed, lastMove: m, check: mech.check ? kingsInCheck(rows) : [] });
  } else { svg.innerHTML = ""; }
  $("mechanics").innerHTML = "";
  $("buttons").innerHTML = "";
  $("controls").innerHTML = "";
  const box = $("history");
  box.innerHTML = "";
  const ol = h("ol", { class: "moves" });
  w.actions.forEach((a, i) => { const li = h("li", { class: i + 1 === w.at ? "current" : "", text: a }); li.onclick = () => { w.at = i + 1; watchRender(); }; ol.append(li); });
  box.append(ol);
}

init().catch((e) => { $("setup-error").textContent = e.message; });

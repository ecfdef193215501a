// The board's geometry for the chesslab page (served as /board.js, loaded before
// app.js): reading a FEN-like placement, drawing it with its marks, and the little chess
// knowledge the page needs to write SAN and to see a king in check. It knows the
// orthodox moves only; variants with other moves keep their own notation
// (mechanics.js says which).
"use strict";
const SVG_NS = "http://www.w3.org/2000/svg";
// Filled glyphs for both sides (the white side is drawn as a white glyph with a dark
// outline); the text-presentation selector keeps the pawn from turning into an emoji.
const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };

// The first token of an observation that reads as a FEN placement: rows of cells
// (top rank first), each a piece letter or null.
function placement(obs) {
  for (const tok of String(obs).split(/[\s|]+/)) {
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

function squareName(file, rank) { return String.fromCharCode(97 + file) + (rank + 1); }
function fileOf(sq) { return sq.charCodeAt(0) - 97; }
function rankOf(sq) { return +sq.slice(1) - 1; }
// The piece on `sq` of `rows` (or null).
function at(rows, sq) {
  const f = fileOf(sq), r = rows.length - 1 - rankOf(sq);
  return rows[r] && f >= 0 && f < rows[r].length ? rows[r][f] : null;
}
function put(rows, sq, p) { rows[rows.length - 1 - rankOf(sq)][fileOf(sq)] = p; }
function isWhite(p) { return p !== null && p !== p.toLowerCase(); }
function isBlack(p) { return p !== null && p !== p.toUpperCase(); }
function sameSide(a, b) { return a && b && isWhite(a) === isWhite(b); }
const PIECE_NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };
function pieceName(p) { return PIECE_NAMES[String(p).toLowerCase()] || `piece ${p}`; }

// Whether a piece of the side `white` attacks `sq` on `rows` by orthodox moves.
function attacked(rows, sq, white) {
  const h = rows.length, w = rows[0].length;
  const f0 = fileOf(sq), r0 = rankOf(sq);
  const get = (f, r) => (f >= 0 && f < w && r >= 0 && r < h ? rows[h - 1 - r][f] : undefined);
  const mine = (p) => p && isWhite(p) === white;
  for (const [df, dr] of [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]]) {
    const p = get(f0 + df, r0 + dr);
    if (mine(p) && p.toLowerCase() === "n") return true;
  }
  for (let df = -1; df <= 1; df++) for (let dr = -1; dr <= 1; dr++) {
    if (!df && !dr) continue;
    const p = get(f0 + df, r0 + dr);
    if (mine(p) && p.toLowerCase() === "k") return true;
  }
  const dir = white ? -1 : 1; // a white pawn attacks from the rank below
  for (const df of [-1, 1]) {
    const p = get(f0 + df, r0 + dir);
    if (mine(p) && p.toLowerCase() === "p") return true;
  }
  const rays = [[1, 0, "rq"], [-1, 0, "rq"], [0, 1, "rq"], [0, -1, "rq"], [1, 1, "bq"], [1, -1, "bq"], [-1, 1, "bq"], [-1, -1, "bq"]];
  for (const [df, dr, kinds] of rays) {
    for (let k = 1; ; k++) {
      const p = get(f0 + df * k, r0 + dr * k);
      if (p === undefined) break;
      if (p === null) continue;
      if (mine(p) && kinds.includes(p.toLowerCase())) return true;
      break;
    }
  }
  return false;
}

// Squares of kings attacked by the other side (orthodox geometry).
function kingsInCheck(rows) {
  const out = [];
  rows.forEach((row, i) => row.forEach((p, f) => {
    if (p === "K" || p === "k") {
      const sq = squareName(f, rows.length - 1 - i);
      if (attacked(rows, sq, p === "k")) out.push(sq);
    }
  }));
  return out;
}

// Whether the piece on `from` could reach `to` by its orthodox move (pins ignored):
// enough to disambiguate SAN.
function reaches(rows, from, to) {
  const p = at(rows, from);
  if (!p) return false;
  const df = fileOf(to) - fileOf(from), dr = rankOf(to) - rankOf(from);
  const kind = p.toLowerCase();
  if (kind === "n") return (Math.abs(df) === 1 && Math.abs(dr) === 2) || (Math.abs(df) === 2 && Math.abs(dr) === 1);
  const straight = df === 0 || dr === 0, diagonal = Math.abs(df) === Math.abs(dr);
  if ((kind === "r" && !straight) || (kind === "b" && !diagonal) || (kind === "q" && !straight && !diagonal)) return false;
  if (!["r", "b", "q"].includes(kind)) return false;
  const n = Math.max(Math.abs(df), Math.abs(dr));
  for (let k = 1; k < n; k++) {
    const sq = squareName(fileOf(from) + Math.sign(df) * k, rankOf(from) + Math.sign(dr) * k);
    if (at(rows, sq)) return false;
  }
  return true;
}

const UCI = /^([a-z])(\d{1,2})([a-z])(\d{1,2})([qrbnk]?)$/;

// `rows` after the UCI move `uci` (castling written king-to-destination or
// king-takes-rook, en passant, promotion); null when the move does not fit the board.
function applyUci(rows, uci) {
  const m = uci.match(UCI);
  if (!m) return null;
  const from = m[1] + m[2], to = m[3] + m[4];
  const out = rows.map((r) => r.slice());
  const p = at(out, from);
  if (!p) return null;
  const target = at(out, to);
  const kind = p.toLowerCase();
  const rank = rankOf(from);
  if (kind === "k" && (sameSide(p, target) || (Math.abs(fileOf(to) - fileOf(from)) === 2 && rankOf(to) === rank))) {
    // Castling: the rook is the own piece taken, else the corner rook on that side.
    const east = fileOf(to) > fileOf(from);
    const rookSq = sameSide(p, target) ? to : squareName(east ? out[0].length - 1 : 0, rank);
    put(out, from, null);
    put(out, rookSq, null);
    put(out, squareName(east ? 6 : 2, rank), p);
    put(out, squareName(east ? 5 : 3, rank), isWhite(p) ? "R" : "r");
    return out;
  }
  if (kind === "p" && fileOf(to) !== fileOf(from) && !target) put(out, m[3] + m[2], null);
  put(out, from, null);
  put(out, to, m[5] ? (isWhite(p) ? m[5].toUpperCase() : m[5]) : p);
  return out;
}

// The SAN of the UCI move `uci` played on `rows` (null when it does not fit).
function san(rows, uci) {
  const m = uci.match(UCI);
  if (!m) return null;
  const from = m[1] + m[2], to = m[3] + m[4];
  const p = at(rows, from);
  if (!p) return null;
  const after = applyUci(rows, uci);
  if (!after) return null;
  const target = at(rows, to);
  const kind = p.toLowerCase();
  let text;
  if (kind === "k" && (sameSide(p, target) || Math.abs(fileOf(to) - fileOf(from)) === 2)) {
    text = fileOf(to) > fileOf(from) ? "O-O" : "O-O-O";
  } else if (kind === "p") {
    const capture = fileOf(to) !== fileOf(from);
    text = (capture ? m[1] + "x" : "") + to + (m[5] ? "=" + m[5].toUpperCase() : "");
  } else {
    const rivals = [];
    rows.forEach((row, i) => row.forEach((q, f) => {
      const sq = squareName(f, rows.length - 1 - i);
      if (q === p && sq !== from && reaches(rows, sq, to)) rivals.push(sq);
    }));
    let dis = "";
    if (rivals.length) {
      if (!rivals.some((s) => s[0] === from[0])) dis = from[0];
      else if (!rivals.some((s) => s.slice(1) === from.slice(1))) dis = from.slice(1);
      else dis = from;
    }
    text = kind.toUpperCase() + dis + (target ? "x" : "") + to;
  }
  const enemyKing = isWhite(p) ? "k" : "K";
  const check = after.some((row, i) => row.some((q, f) => q === enemyKing && attacked(after, squareName(f, after.length - 1 - i), isWhite(p))));
  return text + (check ? "+" : "");
}

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.append(e);
  return e;
}

// A piece: a glyph for the six orthodox letters (white body with a dark outline for the
// first side, black body for the second); anything else a grey disc with its letter.
// `dim` draws it faded (a piece as last seen).
function drawPiece(g, p, x, y, size, dim) {
  const cx = x + size / 2;
  const glyph = GLYPH[p.toLowerCase()];
  const upper = isWhite(p), lower = isBlack(p);
  const grp = svgEl("g", { class: "piece-g", opacity: dim ? 0.4 : 1 }, g);
  if (glyph && (upper || lower)) {
    svgEl("text", {
      x: cx, y: y + size * 0.8, "text-anchor": "middle", "font-size": size * 0.82,
      "font-family": "DejaVu Sans, sans-serif", fill: upper ? "#fff" : "#111",
      stroke: upper ? "#111" : "#eee", "stroke-width": size * 0.022, "paint-order": "stroke",
      class: "piece", "data-piece": p,
    }, grp).textContent = glyph;
    return;
  }
  svgEl("circle", { cx, cy: y + size / 2, r: size * 0.34, fill: "#9a9a9a", stroke: "#333", "stroke-width": 3 }, grp);
  svgEl("text", { x: cx, y: y + size * 0.62, "text-anchor": "middle", "font-size": size * 0.4, "font-weight": "bold", fill: "#111", class: "piece", "data-piece": p }, grp).textContent = p;
}

// Draws `opts.rows` into `svg`. opts: flip, selected, targets (Set of squares marked as
// reachable), singles (Set: squares that are a decision by themselves), lastMove
// ([from, to]), check (squares), greyed (Map square -> piece drawn faded: enemy pieces
// as last seen), marks (list of {sq, kind, text, color}: the variant's overlays),
// onClick(square).
function drawBoard(svg, opts) {
  svg.innerHTML = "";
  const rows = opts.rows;
  const h = rows.length, w = rows[0].length, size = 800 / Math.max(w, h);
  svg.setAttribute("viewBox", `0 0 ${w * size} ${h * size}`);
  const flip = !!opts.flip;
  const last = new Set(opts.lastMove || []);
  const check = new Set(opts.check || []);
  const marks = {};
  for (const m of opts.marks || []) (marks[m.sq] = marks[m.sq] || []).push(m);
  for (let r = 0; r < h; r++) {
    for (let f = 0; f < w; f++) {
      const rank = h - 1 - r;
      const x = (flip ? w - 1 - f : f) * size, y = (flip ? h - 1 - r : r) * size;
      const name = squareName(f, rank);
      const g = svgEl("g", { "data-square": name, class: "square" }, svg);
      svgEl("rect", { x, y, width: size, height: size, fill: (f + rank) % 2 ? "#f0d9b5" : "#b58863" }, g);
      if (last.has(name)) svgEl("rect", { x, y, width: size, height: size, fill: "#cdd26a", opacity: 0.75, class: "last-move" }, g);
      if (check.has(name)) svgEl("circle", { cx: x + size / 2, cy: y + size / 2, r: size * 0.48, fill: "#e33", opacity: 0.65, class: "check" }, g);
      if (name === opts.selected) svgEl("rect", { x, y, width: size, height: size, fill: "#3a7bd5", opacity: 0.45 }, g);
      const sqMarks = marks[name] || [];
      for (const m of sqMarks) if (m.kind === "under") svgEl("rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, fill: "none", stroke: m.color || "#555", "stroke-width": size * 0.06, "stroke-dasharray": m.dash || "", class: "mark-" + (m.cls || "under") }, g);
      for (const m of sqMarks) if (m.kind === "disc") svgEl("ellipse", { cx: x + size * 0.2, cy: y + size * 0.84, rx: size * 0.15, ry: size * 0.09, fill: m.color || "#888", stroke: "#000", "stroke-width": 2, class: "mark-" + (m.cls || "disc") }, g);
      const p = rows[r][f];
      if (p) drawPiece(g, p, x, y, size, false);
      else if (opts.greyed && opts.greyed.has(name)) drawPiece(g, opts.greyed.get(name), x, y, size, true);
      // Badges: small labelled discs in the square's corners, one per mark.
      let corner = 0;
      for (const m of sqMarks) {
        if (m.kind !== "badge") continue;
        const bx = x + (corner % 2 ? size * 0.78 : size * 0.22), by = y + (corner < 2 ? size * 0.2 : size * 0.8);
        corner++;
        svgEl("circle", { cx: bx, cy: by, r: size * 0.16, fill: m.color || "#555", stroke: "#fff", "stroke-width": 2, class: "mark-" + (m.cls || "badge") }, g);
        svgEl("text", { x: bx, y: by + size * 0.065, "text-anchor": "middle", "font-size": size * 0.18, "font-weight": "bold", fill: "#fff" }, g).textContent = m.text || "";
      }
      if (opts.targets && opts.targets.has(name)) {
        svgEl("circle", p
          ? { cx: x + size / 2, cy: y + size / 2, r: size * 0.44, fill: "none", stroke: "#2e8b57", "stroke-width": size * 0.07, opacity: 0.85, class: "target" }
          : { cx: x + size / 2, cy: y + size / 2, r: size * 0.16, fill: "#2e8b57", opacity: 0.8, class: "target" }, g);
      }
      if (opts.singles && opts.singles.has(name)) {
        svgEl("rect", { x: x + size * 0.06, y: y + size * 0.06, width: size * 0.88, height: size * 0.88, fill: "#7b3fd5", "fill-opacity": 0.08, stroke: "#7b3fd5", "stroke-opacity": 0.8, "stroke-width": size * 0.045, rx: size * 0.08, class: "single target" }, g);
      }
      if ((f === 0 && !flip) || (f === w - 1 && flip)) svgEl("text", { x: x + 3, y: y + 14, "font-size": 13, fill: "#333" }, g).textContent = rank + 1;
      if ((r === h - 1 && !flip) || (r === 0 && flip)) svgEl("text", { x: x + size - 12, y: y + size - 4, "font-size": 13, fill: "#333" }, g).textContent = String.fromCharCode(97 + f);
      if (opts.onClick) g.onclick = () => opts.onClick(name);
    }
  }
}

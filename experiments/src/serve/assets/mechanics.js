// Each variant's mechanics on the chesslab board (served as /mechanics.js, loaded
// after board.js and before app.js). Everything is read from the seat's own observation
// text (engine/src/variants/<variant>/ writes it), so the page can never show more than
// the seat knows, and every rule number (prices, dice table, hand size, Golf's rules)
// from the view's `params` (`ctx.params`: the game's own parameters, never the
// variant's defaults). A variant entry may give:
//   parse(obs, ctx)     -> state {rows, greyed, marks, facts: [[label, value]], ...}
//   panel(st, ctx, box) -> fills the variant's side panel (hands, balances, grids)
//   controls(st, legal, ctx, box) -> draws its own forms; returns the actions it handles
//   clicks(st, legal, ctx) -> the legal actions the board offers now, as
//                             {action, from, to} (a move) or {action, sq} (a square)
//   events(prev, st, ctx) -> what the seat learned, in words (events.js adds the board's)
//   san: whether UCI moves are shown in SAN; check: whether a king in check is marked.
"use strict";

function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) {
    if (attrs[k] === null || attrs[k] === undefined || attrs[k] === false) continue;
    if (k === "class") e.className = attrs[k];
    else if (k.startsWith("on")) e[k] = attrs[k];
    else if (k === "text") e.textContent = attrs[k];
    else e.setAttribute(k, attrs[k]);
  }
  for (const c of kids.flat()) if (c !== null && c !== undefined) e.append(typeof c === "string" ? document.createTextNode(c) : c);
  return e;
}

// The observation's ` | `-separated parts.
function parts(obs) { return String(obs).split(" | ").map((s) => s.trim()); }
// The part starting with `prefix` (without it), or null.
function part(obs, prefix) {
  const p = parts(obs).find((x) => x.startsWith(prefix));
  return p === undefined ? null : p.slice(prefix.length).trim();
}
function squaresIn(text) { return (String(text || "").match(/\b[a-h][1-8]\b/g) || []); }
function sideToMove(obs) { const m = String(obs).match(/^\S+ ([wb]) /); return m ? (m[1] === "w" ? 0 : 1) : null; }
// A decision button carrying its action (the browser test and the click plan find it so).
function actionButton(action, label, ctx, cls) {
  return h("button", { class: "act " + (cls || ""), "data-action": action, onclick: () => ctx.act(action), title: action }, label || action);
}
const WHITE_MARK = "#d9d9d9", BLACK_MARK = "#333";

// The square moves and single-square decisions every variant shares: `e2e4`, `e7e8q`,
// Masquerade's capture attempt `e4xd5?`, and one-square actions such as `bury:c6`,
// `throw:e4`, `return:e4`, `~e5` (an extra step), `+e4` (a checker), `@e4` (a prophecy),
// `go:e5` (a distance).
function genericClicks(legal) {
  const out = [];
  for (const a of legal) {
    let m = a.match(/^([a-z]\d{1,2})([a-z]\d{1,2})([a-z]?)$/) || a.match(/^([a-z]\d{1,2})x([a-z]\d{1,2})\?$/);
    if (m) { out.push({ action: a, from: m[1], to: m[2] }); continue; }
    m = a.match(/^(?:bury:|throw:|return:|go:|~|\+|@)([a-z]\d{1,2})([a-z]?)$/);
    if (m) out.push({ action: a, sq: m[1] });
  }
  return out;
}

// A checker lies under a piece: drawn as a flat disc in the square's lower left corner
// (light for White's, dark for Black's).
const CHECKERS_UNDER = (squares, color, cls) => squares.map((sq) => ({ sq, kind: "disc", color, cls: cls || "checker" }));

const MECH = {};

MECH.chess = { san: true, check: true, pairs: true };
MECH.chess960 = { san: true, check: true };

MECH["half-alice"] = {
  check: false,
  parse(obs) {
    const mirror = squaresIn(parts(obs)[1]);
    return {
      marks: mirror.map((sq) => ({ sq, kind: "badge", text: "M", color: "#7b3fd5", cls: "mirror" })),
      facts: [["Through the mirror (M)", mirror.join(" ") || "none"]],
    };
  },
};

MECH["crowded-house"] = {
  check: false,
  panel(st, ctx, box) {
    const seat = +parts(ctx.obs)[1];
    const names = ctx.seatNames;
    const colours = ["#fff", "#111", "#fff", "#111"];
    const list = h("ul", { class: "seats4" });
    names.forEach((n, i) => list.append(h("li", { class: i === seat ? "to-move" : "" },
      h("span", { class: "swatch", style: `background:${colours[i]}` }), ` ${i} ${n} (${i % 2 ? "black" : "white"}, files ${i < 2 ? "e-h" : "a-d"})`, i === seat ? " ◀ to move" : "")));
    box.append(h("h4", { text: "Seats (teams: 0+2 white, 1+3 black)" }), list);
  },
  parse(obs) {
    const seat = +parts(obs)[1];
    // The moving seat's half of the board is tinted.
    const files = seat < 2 ? "efgh" : "abcd";
    const marks = [];
    for (const f of files) for (let r = 1; r <= 8; r++) marks.push({ sq: f + r, kind: "under", color: seat % 2 ? "#333" : "#fff", dash: "4 6", cls: "half" });
    return { marks };
  },
};

// Cassandra: each pending prophecy on its square with the move it falls due, as the
// observation says it (`black p@e4 due 3`: resolved as Black starts move 3; a secret
// prophecy of the opponent is `p@? due 3`, drawn in the facts only).
MECH.cassandra = {
  san: true, check: true,
  parse(obs) {
    const ps = parts(obs);
    const marks = [], facts = [];
    ["white", "black"].forEach((side, i) => {
      const p = (ps.find((x) => x.startsWith(side + " ")) || "").slice(side.length + 1);
      const m = p.match(/^([a-z])@([a-h][1-8]|\?) due (\d+)$/i);
      if (!m) { facts.push([`${side} prophecy`, "none"]); return; }
      const where = m[2] === "?" ? "a secret square" : m[2];
      facts.push([`${side} prophecy`, `${pieceName(m[1])} on ${where}, falls due as ${side} starts move ${m[3]}`]);
      if (m[2] !== "?") marks.push({ sq: m[2], kind: "badge", text: `${m[1].toUpperCase()}${m[3]}`, color: i ? "#222" : "#b33", cls: "prophecy" });
    });
    return { marks, facts };
  },
  events(prev, st) {
    return (st.facts || []).filter((f, i) => !prev || !prev.facts || prev.facts[i][1] !== f[1]).map((f) => `${f[0]}: ${f[1]}`);
  },
};

MECH.adrenaline = {
  san: true, check: true,
  parse(obs) {
    const marks = [], facts = [];
    for (const m of String(parts(obs)[1] || "").matchAll(/([a-h][1-8])=(\d+)/g)) {
      marks.push({ sq: m[1], kind: "badge", text: m[2], color: "#c60", cls: "checker" });
      facts.push([`checkers under ${m[1]}`, m[2]]);
    }
    return { marks, facts: facts.length ? facts : [["checkers", "none on the board"]] };
  },
};

// Expedition keeps its own notation: an attempt is written as the long move, which the
// dice may cut short, so SAN of the written move would name the wrong square.
MECH.expedition = {
  san: false, check: false,
  parse(obs, ctx) {
    const p = parts(obs)[1] || "-";
    const m = p.match(/attempt ([a-h][1-8])([a-h][1-8])(?: allowed ([a-h][1-8]))?/);
    const rolls = (ctx.view && ctx.view.record ? ctx.view.record : []).filter((a) => a.startsWith("roll:"));
    const lastRoll = rolls.length ? [["last roll: farthest distance", rolls[rolls.length - 1].slice(5) + " square(s)"]] : [];
    if (!m) return { facts: [["attempt", "none pending"]].concat(lastRoll) };
    const marks = [{ sq: m[1], kind: "under", color: "#c60", cls: "attempt" }, { sq: m[2], kind: "under", color: "#c60", dash: "6 4", cls: "attempt" }];
    if (m[3]) marks.push({ sq: m[3], kind: "badge", text: "max", color: "#2e8b57", cls: "allowed" });
    // The game's own dice table row for this attempt's length (sum of two dice → the
    // farthest distance allowed).
    const n = Math.max(Math.abs(fileOf(m[1]) - fileOf(m[2])), Math.abs(rankOf(m[1]) - rankOf(m[2])));
    const row = ((ctx.params || {}).table || [])[n - 2];
    const table = row ? [["dice table, " + n + " squares (sum: farthest)", row.map((x, i) => `${i + 2}:${x}`).join(" ")]] : [];
    return {
      marks, lastMove: null,
      facts: [["attempt", `${m[1]} → ${m[2]}`], ["dice", m[3] ? `allow up to ${m[3]}: pick a violet square` : "rolling…"]].concat(lastRoll, table),
    };
  },
  events(prev, st, ctx) {
    const rec = (ctx.view && ctx.view.record) || [];
    const last = rec[rec.length - 1] || "";
    return last.startsWith("roll:") ? [`the dice allow ${last.slice(5)} square(s) of the attempt`] : [];
  },
};

// Masquerade: the 5x5 assignment (rows the opponent's piece types, columns capture
// patterns) picked on a grid, and the seat's deductions in the same shape.
const MASK_LETTERS = ["K", "Q", "R", "B", "N"];
function sets(text) {
  const out = {};
  for (const m of String(text || "").matchAll(/([KQRBN]):\{([KQRBN]*)\}/g)) out[m[1]] = m[2];
  return out;
}
MECH.masquerade = {
  check: false,
  parse(obs) {
    const ps = parts(obs);
    const phase = ps[1] || "";
    const mine = ps.find((x) => x.startsWith("you are")) || "";
    const assigned = (mine.match(/pieces: (\S+)$/) || [])[1] || "not yet";
    const yours = ps.find((x) => x.startsWith("your pieces:")) || "";
    const theirs = ps.find((x) => /^\w+'s pieces:/.test(x)) || "";
    const attempts = (part(obs, "attempts:") || "-").split(" ").filter((x) => x !== "-");
    return {
      phase, assigned, attempts,
      yours: sets(yours), theirs: sets(theirs),
      yoursCount: (yours.match(/(\d+) of 120/) || [])[1], theirsCount: (theirs.match(/(\d+) of 120/) || [])[1],
      lastMove: attempts.length ? (attempts[attempts.length - 1].match(/:([a-h][1-8])x([a-h][1-8])/) || []).slice(1) : null,
    };
  },
  panel(st, ctx, box) {
    const grid = (title, pick, note) => {
      const t = h("table", { class: "grid5" });
      t.append(h("tr", {}, h("th", { text: "piece \\ captures as" }), MASK_LETTERS.map((c) => h("th", { text: c }))));
      for (const r of MASK_LETTERS) t.append(h("tr", {}, h("th", { text: r }), MASK_LETTERS.map((c) => { const v = pick(r, c); return h("td", { class: v, text: v === "yes" ? "●" : v === "maybe" ? "?" : "·" }); })));
      box.append(h("h4", { text: title }), t);
      if (note) box.append(h("p", { class: "note", text: note }));
    };
    const a = {};
    for (const pair of st.assigned.split(",")) if (pair.length === 2) a[pair[0]] = pair[1];
    if (st.assigned !== "not yet") grid("Your assignment of the opponent's pieces", (r, c) => (a[r] === c ? "yes" : "no"));
    grid("What you know of your own pieces' patterns", (r, c) => (st.yours[r] === undefined ? "maybe" : st.yours[r] === c ? "yes" : st.yours[r].includes(c) ? "maybe" : "no"),
      `${st.yoursCount || "?"} of 120 assignments still possible (● certain, ? possible, · impossible)`);
    if (st.attempts.length) box.append(h("p", { class: "note", text: "Capture attempts: " + st.attempts.join(" ") + " (+ hit, − missed)" }));
  },
  controls(st, legal, ctx, box) {
    const assigns = legal.filter((a) => a.startsWith("assign:"));
    if (!assigns.length) return [];
    const pick = ctx.ui.assign = ctx.ui.assign || {};
    const t = h("table", { class: "grid5 pick" });
    t.append(h("tr", {}, h("th", { text: "their piece \\ captures as" }), MASK_LETTERS.map((c) => h("th", { text: c }))));
    for (const r of MASK_LETTERS) {
      t.append(h("tr", {}, h("th", { text: r }), MASK_LETTERS.map((c) => {
        const taken = Object.entries(pick).some(([rr, cc]) => cc === c && rr !== r);
        return h("td", {}, h("button", {
          class: "cell" + (pick[r] === c ? " on" : ""), "data-cell": r + c, disabled: taken ? "" : null,
          onclick: () => { if (pick[r] === c) delete pick[r]; else pick[r] = c; ctx.rerender(); },
        }, pick[r] === c ? "●" : ""));
      })));
    }
    const text = "assign:" + MASK_LETTERS.map((r) => r + (pick[r] || "?")).join(",");
    const ok = assigns.includes(text);
    box.append(h("p", { class: "note", text: "Assign the opponent's capture patterns: one per row and column." }), t,
      h("button", { class: "act", id: "assign-clear", onclick: () => { ctx.ui.assign = {}; ctx.rerender(); } }, "Clear"),
      h("button", { class: "act", id: "assign-go", "data-action": ok ? text : "", disabled: ok ? null : "", onclick: () => { ctx.ui.assign = {}; ctx.act(text); } }, ok ? "Assign " + text.slice(7) : "Assign (complete the grid)"));
    return assigns;
  },
  // The grid's clicks for `assign:KB,QN,...`: clear, one cell per row, then Assign.
  plan(action) {
    if (!action.startsWith("assign:")) return null;
    return ["#assign-clear"].concat(action.slice(7).split(",").map((rc) => `button[data-cell="${rc}"]`), ["#assign-go"]);
  },
  events(prev, st) {
    if (!prev) return [];
    return st.attempts.slice(prev.attempts.length).map((x) => {
      const m = x.match(/^(\w):([a-h][1-8])x([a-h][1-8])([+-])$/);
      return m ? `${m[1] === "w" ? "white" : "black"} tried to capture ${m[3]} from ${m[2]}: ${m[4] === "+" ? "it hit" : "it missed"}` : x;
    });
  },
};

MECH.synchronous = {
  check: false,
  parse(obs, ctx) {
    const ex = [...String(obs).matchAll(/exchange ([a-h][1-8]) (\w+)/g)];
    const rec = ctx.view.record || [];
    const last = rec.length ? rec[rec.length - 1] : null;
    const facts = [["turn", (String(obs).match(/turn (\d+)/) || [])[1] || "?"]];
    if (last && last.includes("|")) {
      const [w, b] = last.split("|");
      facts.push(["last turn, revealed together", `white ${w} · black ${b}`]);
    }
    for (const m of ex) facts.push(["exchange of blows", `${m[1]} (${m[2]})`]);
    return { marks: ex.map((m) => ({ sq: m[1], kind: "badge", text: "⚔", color: "#a00", cls: "exchange" })), facts };
  },
};

MECH["two-move"] = {
  check: false,
  parse(obs) {
    const m = String(obs).match(/face-up (\S*)\/(\S*)(?: (\w+) (\w) card( \(second move\))?)?/);
    const facts = [];
    if (m) {
      facts.push(["white's cards face up", m[1] || "-"], ["black's cards face up", m[2] || "-"]);
      if (m[3]) facts.push(["resolving", `${m[3]}'s ${m[4]} card${m[5] ? " (second move)" : ""}: cards resolve in N, B, R, Q, K order`]);
    }
    return { facts };
  },
  controls(st, legal, ctx, box) {
    const cards = legal.filter((a) => /^[A-Za-z]+$/.test(a) && a !== "pass");
    if (!cards.length) return [];
    box.append(h("p", { class: "note", text: "Choose two cards (both sides choose at once; they are revealed together):" }));
    for (const c of cards) box.append(actionButton(c, [...c].map((x) => `[${x}]`).join(" "), ctx, "card"));
    return cards;
  },
};

// Time Chess: a blind view is rows of own pieces, `[x]` for an enemy piece as last
// seen and `.` for empty.
MECH.time = {
  check: false,
  parse(obs) {
    const head = parts(obs)[0];
    const blind = part(obs, "blind view");
    const facts = [["phase", head]];
    const learned = parts(obs).slice(2).join("; ");
    if (learned) facts.push(["learned", learned]);
    if (!blind) return { facts };
    const rows = [], greyed = new Map();
    blind.split("/").forEach((line, i) => {
      const cells = [];
      for (const m of line.matchAll(/\[(.)\]|(.)/g)) {
        const f = cells.length;
        if (m[1]) { cells.push(null); greyed.set(squareName(f, 7 - i), m[1]); }
        else cells.push(m[2] === "." ? null : m[2]);
      }
      rows.push(cells);
    });
    return { rows, greyed, facts: facts.concat([["blind", "your pieces as they stand; faded: enemy pieces as last seen"]]) };
  },
};

// Tar Pit: checkers (whose) under pieces, tarred pieces (an enemy checker under them),
// the hand as cards, fronts and discards.
function cardChips(text) {
  const box = h("span", { class: "cards" });
  const t = String(text || "").trim();
  // A hand written as letters run together (`NCpbc`) is one card a letter.
  const items = (/[\s,]/.test(t) ? t.split(/[\s,]+/) : [...t]).filter((x) => x && x !== "-");
  if (!items.length) box.append("none");
  for (const c of items) {
    // A piece card shows its piece (white or black as the letter's case); Tar Pit's
    // checker cards (C, c) a disc.
    const glyph = c.length === 1 ? (GLYPH[c.toLowerCase()] || (c.toLowerCase() === "c" ? "\u25CF" : null)) : null;
    box.append(h("span", { class: "cardchip " + (isWhite(c) ? "w" : "b"), title: c, "data-card": c, text: glyph || c }));
  }
  return box;
}
MECH["tar-pit"] = {
  check: false,
  parse(obs, ctx) {
    const ps = parts(obs);
    const ck = ps.find((x) => x.startsWith("checkers")) || "";
    const m = ck.match(/white: (\S+) black: (\S+)/) || [];
    const white = squaresIn(m[1]), black = squaresIn(m[2]);
    const rows = placement(obs);
    const tarred = [];
    for (const [list, enemyOf] of [[white, isBlack], [black, isWhite]]) for (const sq of list) { const p = rows && at(rows, sq); if (p && enemyOf(p)) tarred.push(sq); }
    const marks = CHECKERS_UNDER(white, WHITE_MARK).concat(CHECKERS_UNDER(black, BLACK_MARK)).concat(tarred.map((sq) => ({ sq, kind: "badge", text: "T", color: "#000", cls: "tar" })));
    const hand = (ps.find((x) => x.startsWith("you are")) || "").replace(/^you are \w+; your hand: /, "");
    return {
      marks, white, black, tarred, hand,
      phase: ps[1] || "",
      front: (ps.find((x) => x.startsWith("front")) || "").replace("front ", ""),
      other: ps.find((x) => /'s hand:/.test(x)) || "",
      pile: ps.find((x) => x.startsWith("draw pile")) || "",
      discards: part(obs, "discards:") || "-",
      log: (part(obs, "log:") || "-").split(" ").filter((x) => x !== "-"),
    };
  },
  panel(st, ctx, box) {
    box.append(h("p", {}, h("b", { text: "Phase: " }), st.phase),
      h("p", {}, h("b", { text: "Your hand: " }), cardChips(st.hand)),
      h("p", {}, h("b", { text: "Fronts: " }), st.front, " · ", st.other, " · ", st.pile),
      h("p", {}, h("b", { text: "Discard pile: " }), cardChips(st.discards)),
      h("p", { class: "note", text: `Checkers: white ${st.white.join(" ") || "-"} (light discs), black ${st.black.join(" ") || "-"} (dark discs); T = a piece tarred by an enemy checker` }));
  },
  controls(st, legal, ctx, box) {
    const cards = legal.filter((a) => /^(card:[^@]*|discard:.*|draw:.*)$/.test(a));
    for (const c of cards) box.append(actionButton(c, c.replace(/^(\w+):/, "$1 "), ctx, "card"));
    return cards;
  },
  events(prev, st) {
    if (!prev) return [];
    // The board says the moves; the log adds the cards, throws and returns.
    const words = (x) => {
      let m;
      if ((m = x.match(/^card:(.)@([a-h][1-8])$/))) return `a ${isWhite(m[1]) ? "white" : "black"} ${pieceName(m[1])} card put a checker under ${m[2]}`;
      if ((m = x.match(/^card:(.)$/))) return `card ${m[1]} was played`;
      if ((m = x.match(/^throw:([a-h][1-8])$/))) return `a checker was thrown from ${m[1]}`;
      if ((m = x.match(/^return:(.*)$/))) return `a checker returned (${m[1]})`;
      if (/^draw:/.test(x)) return x === "draw:?" ? "the opponent drew a card" : `you drew ${x.slice(5)}`;
      if (/^discard:/.test(x)) return `discarded ${x.slice(8)}`;
      return null;
    };
    return st.log.slice(prev.log.length).map(words).filter(Boolean);
  },
};

MECH.cooperative = {
  check: false,
  parse(obs) {
    const ps = parts(obs);
    const you = ps.find((x) => x.startsWith("you are")) || "";
    const stacks = ps.find((x) => x.startsWith("stacks:")) || "";
    const sm = stacks.match(/white (.*) black (.*)/) || [];
    return {
      phase: ps[1] || "",
      hand: you.replace(/^you are \w+; your hand: /, ""),
      partner: part(obs, "partner holds") || "?",
      pile: part(obs, "pile") || "?",
      stackW: sm[1] || "-", stackB: sm[2] || "-",
      captured: part(obs, "captured") || "-",
      log: (part(obs, "record:") || "").split(" ").filter(Boolean),
    };
  },
  panel(st, ctx, box) {
    box.append(h("p", {}, h("b", { text: "Phase: " }), st.phase),
      h("p", {}, h("b", { text: "Your hand: " }), cardChips(st.hand), (ctx.params || {}).hand_size ? ` (hands refill to ${ctx.params.hand_size})` : ""),
      h("p", {}, h("b", { text: "Partner's hand: " }), `${st.partner} cards (hidden)`),
      h("p", {}, h("b", { text: "Discard stacks: " }), "white ", cardChips(st.stackW), " black ", cardChips(st.stackB)),
      h("p", {}, h("b", { text: "Score so far (captured): " }), cardChips(st.captured), ` · draw pile ${st.pile}`));
  },
  controls(st, legal, ctx, box) {
    const cards = legal.filter((a) => a.includes(":") && !/^[a-h][1-8]/.test(a));
    for (const c of cards) box.append(actionButton(c, c, ctx, "card"));
    return cards;
  },
  events(prev, st) {
    if (!prev) return [];
    return st.log.slice(prev.log.length).map((x) => (x.endsWith(":draw") ? `${x[0] === "w" ? "white" : "black"} drew a card` : "played: " + x));
  },
};

// Clairvoyant: balances, the guess sheet as a form, purchases with prices, drops from a
// pocket (the generic drop handling), retraction with its price.
MECH.clairvoyant = {
  san: true, check: true,
  parse(obs, ctx) {
    const ps = parts(obs);
    const bal = ps.find((x) => x.startsWith("you are")) || "";
    const bm = bal.match(/you are (\w+): (-?\d+)Z; (\w+): (\S+?)Z?$/) || [];
    const log = (part(obs, "record:") || "-").split(" ").filter((x) => x !== "-");
    // Turns: a run of guesses (the guesser's sheet), then the mover's actions.
    const turns = [];
    for (const x of log) {
      const guess = x.startsWith("guess:") || /^\?[wb]$/.test(x);
      if (guess && (!turns.length || turns[turns.length - 1].acts.length)) turns.push({ guesses: [], acts: [] });
      if (!turns.length) turns.push({ guesses: [], acts: [] });
      (guess ? turns[turns.length - 1].guesses : turns[turns.length - 1].acts).push(x);
    }
    const last = turns.length ? turns[turns.length - 1] : null;
    const done = turns.filter((t) => t.acts.length && t.acts.some((a) => /^([a-h][1-8]){2}|^[A-Z]@|^pass$/.test(a)));
    const paid = [];
    // One line per guess of the judged turn in the event log: who guessed, what, and what
    // it earned by this game's table (the piece read where the turn left it).
    const said = [];
    const judged = last && last.acts.length ? last : done.length ? done[done.length - 1] : null;
    const rows = placement(obs);
    const vals = ((ctx && ctx.params) || {}).values || {};
    if (judged) {
      // The turn's moves that stood (a retraction takes back the free move before it).
      const acts = [];
      for (const a of judged.acts) { if (a === "retract") acts.pop(); else acts.push(a); }
      const moves = acts.map((a) => a.replace(/^buy:/, "")).filter((a) => /^[a-h][1-8][a-h][1-8]/.test(a));
      const drops = acts.filter((a) => /^[A-Z]@/.test(a));
      // The guesser is the side that did not move: read from where the turn's pieces landed.
      const landed = moves.map((m) => m.slice(2, 4)).concat(drops.map((d) => d.slice(2, 4)));
      const moverPiece = rows ? landed.map((sq) => at(rows, sq)).find((p) => p) : null;
      const guesser = !moverPiece ? "the guesser" : isWhite(moverPiece) ? "black" : "white";
      for (const g of judged.guesses) {
        if (!g.startsWith("guess:")) { paid.push("a hidden guess"); continue; }
        const b = g.slice(6);
        let hit;
        if (/^[a-h][1-8]$/.test(b)) hit = moves.some((m) => m.startsWith(b));
        else if (/^[a-h][1-8][a-h][1-8]$/.test(b)) hit = moves.some((m) => m.slice(0, 4) === b);
        else if (/^buy:[A-Z]$/.test(b)) hit = drops.some((d) => d[0] === b[4]);
        else if (/^buy:[A-Z]@/.test(b)) hit = drops.includes(b.slice(4));
        else if (b === "extra") hit = acts.some((a) => a.startsWith("buy:"));
        else if (b === "retract") hit = judged.acts.includes("retract");
        paid.push(`${b} ${hit ? "paid" : "missed"}`);
        const moved = moves.find((m) => m.startsWith(b.slice(0, 2)));
        const piece = rows && moved ? at(rows, moved.slice(2, 4)) : null;
        let worth;
        if (/^[a-h][1-8]$/.test(b)) worth = piece && (vals.move || {})[pieceName(piece)];
        else if (/^[a-h][1-8][a-h][1-8]$/.test(b)) worth = piece && (vals.move_destination || {})[pieceName(piece)];
        else if (/^buy:[A-Z]$/.test(b)) worth = (vals.buy || {})[pieceName(b[4])];
        else if (/^buy:[A-Z]@/.test(b)) worth = (vals.buy_square || {})[pieceName(b[4])];
        else if (b === "extra") worth = vals.extra_move;
        else if (b === "retract") worth = vals.retraction;
        said.push(`${guesser} guessed ${b}: ` + (hit ? `+${worth ?? "?"} Z` : "missed"));
      }
    }
    const guessesThisTurn = last && !last.acts.length ? last.guesses.length : 0;
    return { turnNo: (part(obs, "turn") || "?"), phase: ps[2] || "", me: bm[1], mine: bm[2], them: bm[3], theirs: bm[4], log, paid, said, judgedAt: judged ? turns.indexOf(judged) : -1, guessesThisTurn };
  },
  panel(st, ctx, box) {
    box.append(h("p", { class: "balances" }, h("b", { text: "Balances: " }), `you (${st.me}) ${st.mine} Z · ${st.them} ${st.theirs} Z`),
      h("p", {}, h("b", { text: "Turn: " }), `${st.turnNo}, ${st.phase}`));
    const guesses = [];
    for (let i = st.log.length - 1; i >= 0 && guesses.length < 6; i--) if (st.log[i].startsWith("guess:") || st.log[i].startsWith("?")) guesses.unshift(st.log[i]);
    if (guesses.length) box.append(h("p", { class: "note", text: "Latest guesses: " + guesses.join(" ") }));
  },
  controls(st, legal, ctx, box) {
    const guesses = legal.filter((a) => a.startsWith("guess:") && a !== "guess:retract");
    const buys = legal.filter((a) => a.startsWith("buy:"));
    const handled = [];
    const vals = (ctx.params && ctx.params.values) || {};
    const costs = (ctx.params && ctx.params.costs) || {};
    const val = (table, letter) => (vals[table] || {})[pieceName(letter)];
    const rows = placement(ctx.obs);
    if (guesses.length) {
      const kinds = [
        ["dest", "piece → square", (g) => /^guess:[a-h][1-8][a-h][1-8]$/.test(g), "move_destination"],
        ["piece", "piece moves", (g) => /^guess:[a-h][1-8]$/.test(g), "move"],
        ["buy", "buys a piece", (g) => /^guess:buy:[A-Z]$/.test(g), "buy"],
        ["buyat", "drops on a square", (g) => /^guess:buy:[A-Z]@/.test(g), "buy_square"],
        ["extra", `buys an extra move (${vals.extra_move ?? "?"} Z)`, (g) => g === "guess:extra", null],
      ].filter((k) => guesses.some(k[2]));
      if (!kinds.some((k) => k[0] === ctx.ui.guessKind)) ctx.ui.guessKind = kinds[0][0];
      const most = (ctx.params || {}).max_guesses ?? "?";
      box.append(h("h4", { text: `Guess sheet: guess ${st.guessesThisTurn + 1} of ${most}` }),
        h("p", { class: "note", text: "Guess what the opponent will do this turn: pick a kind, then click the board (a piece, or a piece and then its square). The badges show each guess's value in Zorkmids (this game's table); Pass ends the sheet." }));
      const row = h("div", { class: "kinds" });
      for (const [k, label] of kinds) row.append(h("button", { class: "kind" + (ctx.ui.guessKind === k ? " on" : ""), "data-kind": k, onclick: () => { ctx.ui.guessKind = k; ctx.clearSelection(); ctx.rerender(); } }, label));
      box.append(row);
      const kind = ctx.ui.guessKind;
      if (kind === "buy") for (const g of guesses.filter((x) => /^guess:buy:[A-Z]$/.test(x))) box.append(actionButton(g, `buys a ${pieceName(g.slice(-1))} (${val("buy", g.slice(-1)) ?? "?"} Z)`, ctx));
      if (kind === "extra") box.append(actionButton("guess:extra", `an extra move will be bought (${vals.extra_move ?? "?"} Z)`, ctx));
      if (kind === "buyat") {
        const types = [...new Set(guesses.filter((x) => /^guess:buy:[A-Z]@/.test(x)).map((x) => x[10]))];
        if (!types.includes(ctx.ui.dropType)) ctx.ui.dropType = types[0];
        for (const t of types) box.append(h("button", { class: "kind" + (t === ctx.ui.dropType ? " on" : ""), "data-droptype": t, onclick: () => { ctx.ui.dropType = t; ctx.rerender(); } }, `${pieceName(t)} (${val("buy_square", t) ?? "?"} Z)`));
      }
      // Value badges on the pieces a piece or destination guess may name.
      if ((kind === "piece" || kind === "dest") && rows) {
        const table = kind === "piece" ? "move" : "move_destination";
        const from = new Set(guesses.map((g) => (g.match(/^guess:([a-h][1-8])/) || [])[1]).filter(Boolean));
        st.marks = (st.marks || []).concat([...from].map((sq) => ({ sq, kind: "badge", text: String(val(table, at(rows, sq) || "") ?? "?"), color: "#1f6fb2", cls: "value" })));
      }
      handled.push(...guesses);
    }
    if (buys.length) {
      // Each piece that may make a bought move carries its quiet price; the note gives
      // the capture prices.
      const from = new Set(buys.map((b) => (b.match(/^buy:([a-h][1-8])/) || [])[1]).filter(Boolean));
      if (rows) st.marks = (st.marks || []).concat([...from].map((sq) => ({ sq, kind: "badge", text: String((costs.extra_quiet || {})[pieceName(at(rows, sq) || "")] ?? "?"), color: "#8a5a00", cls: "price" })));
      box.append(h("p", { class: "note", text: `Purchases: ${buys.length} bought move(s), click a piece (its badge: the quiet move's price), then its square. Prices (this game's table): quiet extra move ${Object.entries(costs.extra_quiet || {}).map(([k, v]) => `${k} ${v}`).join(", ")}; capture ${Object.entries(costs.extra_capture || {}).map(([k, v]) => `${k} ${v}`).join(", ")} Z.` }));
      handled.push(...buys);
    }
    const drops = legal.filter((a) => /^[A-Z]@[a-h][1-8]$/.test(a));
    if (drops.length) box.append(h("p", { class: "note", text: "Drops (pocket below) cost: " + Object.entries(costs.drop || {}).map(([k, v]) => `${k} ${v}`).join(", ") + " Z." }));
    const r = costs.retraction ?? "?", rc = costs.retraction_check ?? "?", re = costs.retraction_escape ?? "?";
    if (legal.includes("retract")) box.append(actionButton("retract", `Force a retraction (${r} Z; ${rc} for a checking move; ${re} for an escape)`, ctx));
    if (legal.includes("guess:retract")) box.append(actionButton("guess:retract", `Guess: my opponent will force a retraction (pays ${vals.retraction ?? "?"} Z)`, ctx));
    handled.push("retract", "guess:retract");
    if (st.paid.length) box.append(h("p", { class: "paid", text: "Last turn's guesses: " + st.paid.join(" · ") }));
    return handled;
  },
  // A guess: its kind on the sheet, then the board (or the sheet's button).
  plan(action) {
    const sq = (s) => `#board g[data-square='${s}']`;
    const b = action.startsWith("guess:") && action !== "guess:retract" ? action.slice(6) : null;
    if (b === null) return null;
    let m;
    if ((m = b.match(/^([a-h][1-8])([a-h][1-8])$/))) return ['button[data-kind="dest"]', sq(m[1]), sq(m[2])];
    if (/^[a-h][1-8]$/.test(b)) return ['button[data-kind="piece"]', sq(b)];
    if ((m = b.match(/^buy:([A-Z])@([a-h][1-8])$/))) return ['button[data-kind="buyat"]', `button[data-droptype="${m[1]}"]`, sq(m[2])];
    const btn = `button[data-action=${JSON.stringify(action)}]`;
    if (/^buy:[A-Z]$/.test(b)) return ['button[data-kind="buy"]', btn];
    if (b === "extra") return ['button[data-kind="extra"]', btn];
    return null;
  },
  clicks(st, legal, ctx) {
    const guesses = legal.filter((a) => a.startsWith("guess:") && a !== "guess:retract");
    if (guesses.length) {
      const k = ctx.ui.guessKind;
      const out = [];
      for (const g of guesses) {
        const b = g.slice(6);
        let m;
        if (k === "dest" && (m = b.match(/^([a-h][1-8])([a-h][1-8])$/))) out.push({ action: g, from: m[1], to: m[2] });
        else if (k === "piece" && /^[a-h][1-8]$/.test(b)) out.push({ action: g, sq: b });
        else if (k === "buyat" && (m = b.match(/^buy:([A-Z])@([a-h][1-8])$/)) && m[1] === ctx.ui.dropType) out.push({ action: g, sq: m[2] });
      }
      return out;
    }
    return genericClicks(legal.map((a) => a.replace(/^buy:/, ""))).map((c) => ({ ...c, action: legal.includes(c.action) ? c.action : "buy:" + c.action }));
  },
  events(prev, st) {
    if (!prev) return [];
    const fresh = st.log.slice(prev.log.length);
    // A turn judged since the last view: each of its guesses in one line with what it earned.
    return (st.judgedAt !== prev.judgedAt ? st.said : [])
      .concat(fresh.filter((x) => x.startsWith("?")).map((x) => `${x[1] === "w" ? "white" : "black"} made a hidden guess`))
      .concat(fresh.includes("retract") ? ["a move was retracted"] : [])
      .concat(prev.mine !== st.mine ? [`your balance: ${prev.mine} → ${st.mine} Z`] : [])
      .concat(prev.theirs !== st.theirs ? [`${st.them}'s balance: ${prev.theirs} → ${st.theirs} Z`] : []);
  },
};

// Zombie: zombies marked, the seat's burials on their squares (a toggle), graveyard and
// the pieces gone for good (the dust bin, as far as the seat can count).
MECH.zombie = {
  check: true,
  parse(obs, ctx) {
    const ps = parts(obs);
    const zombies = squaresIn(part(obs, "zombies:"));
    const burials = [...String(part(obs, "your burials:") || "").matchAll(/([a-h][1-8]):([A-Z])/g)].map((m) => [m[1], m[2]]);
    const buried = (ps.find((x) => x.startsWith("your pieces buried by")) || "").replace(/^your pieces buried by \w+: /, "");
    const me = (part(obs, "you are") || "white").trim();
    const marks = zombies.map((sq) => ({ sq, kind: "badge", text: "Z", color: "#3a7d22", cls: "zombie" }));
    if (ctx.ui.showBurials !== false) for (const [sq, r] of burials) marks.push({ sq, kind: "badge", text: "⚰" + r, color: "#6b4a2b", cls: "burial" });
    return { zombies, burials, buried, me, status: ps[ps.length - 1], marks };
  },
  panel(st, ctx, box) {
    const rows = placement(ctx.obs) || [];
    const count = {};
    rows.flat().forEach((p) => { if (p) count[p] = (count[p] || 0) + 1; });
    const start = { P: 8, N: 2, B: 2, R: 2, Q: 1 };
    const meWhite = st.me === "white";
    const gone = [];
    for (const [k, n] of Object.entries(start)) {
      const mine = meWhite ? k : k.toLowerCase();
      const buriedN = [...st.buried].filter((c) => c === k).length;
      const missing = n - (count[mine] || 0) - buriedN;
      for (let i = 0; i < missing; i++) gone.push(k);
    }
    const toggle = h("label", { class: "inline" }, h("input", { type: "checkbox", id: "show-burials", onchange: (e) => { ctx.ui.showBurials = e.target.checked; ctx.rerender(); } }), " show my burials on the board (⚰)");
    toggle.querySelector("input").checked = ctx.ui.showBurials !== false;
    box.append(h("p", {}, h("b", { text: "Status: " }), st.status),
      h("p", {}, h("b", { text: "Zombies (Z): " }), st.zombies.join(" ") || "none"),
      h("p", {}, h("b", { text: "Your burials (only you know where): " }), st.burials.map((b) => `${pieceName(b[1])} under ${b[0]}`).join(", ") || "none"), toggle,
      h("p", {}, h("b", { text: "Graveyard (your pieces buried by the opponent, place unknown): " }), st.buried && st.buried !== "-" ? [...st.buried].map(pieceName).join(", ") : "none"),
      h("p", {}, h("b", { text: "Gone for good (dust bin, your side, counted): " }), gone.map(pieceName).join(", ") || "none"));
  },
  events(prev, st) {
    if (!prev) return [];
    const out = [];
    for (const sq of st.zombies) if (!prev.zombies.includes(sq)) out.push(`a zombie rose on ${sq}`);
    if (st.buried.length > prev.buried.length && st.buried !== "-") out.push(`the opponent buried your ${pieceName(st.buried.slice(-1))}`);
    return out;
  },
};

// Golf: the chosen pieces framed in gold, the par (asked of the server's solver once per
// hole, under the game's own rules from the view's params) and the player's count.
MECH.golf = {
  check: false,
  parse(obs, ctx) {
    const chosen = (String(obs).match(/chosen=(\S+)/) || [])[1] || "";
    const moves = (String(obs).match(/moves=(\d+)/) || [])[1] || "0";
    const rows = placement(obs);
    const marks = [];
    if (rows) rows.forEach((row, i) => row.forEach((p, f) => { if (p && chosen.includes(p)) marks.push({ sq: squareName(f, rows.length - 1 - i), kind: "under", color: "#d4a017", cls: "chosen" }); }));
    // Par of the hole as this page first saw it (the start when it saw ply 0).
    if (ctx.ui.parFor === undefined && ctx.fetchPar) {
      ctx.ui.parFor = obs.split(" moves=")[0];
      ctx.ui.parAt = +moves;
      ctx.fetchPar(ctx.ui.parFor, (ctx.params || {}).rules).then((r) => { ctx.ui.par = r; ctx.rerender(); }).catch(() => { ctx.ui.par = { error: true }; });
    }
    const r = ctx.ui.par;
    let par = "searching…";
    if (r && r.par !== null && r.par !== undefined) par = String(r.par + (ctx.ui.parAt || 0));
    else if (r && r.impossible) par = "no solution";
    else if (r && r.above !== null && r.above !== undefined) par = `above ${r.above + (ctx.ui.parAt || 0)} (search limit)`;
    else if (r && r.error) par = "unknown";
    const facts = [["chosen pieces (gold frames)", chosen.split("").map((c) => `${isWhite(c) ? "white" : "black"} ${pieceName(c)}`).join(", ") || "?"]];
    const cap = (ctx.params || {}).move_cap;
    facts.push(["par (this hole's rules)", par], ["your moves", cap ? `${moves} of at most ${cap}` : moves]);
    return { marks, facts };
  },
};

// Words for the decisions that are buttons (the action stays the button's data-action).
const LABELS = { "@-": "no prophecy", end: "end the turn", stop: "stop (no more steps)", pass: "pass", shuffle: "shuffle", "return:front": "return the checker to the front" };
function actionLabel(a) {
  let m;
  if ((m = a.match(/^promote:(.)$/))) return `promote to ${pieceName(m[1])}`;
  return LABELS[a] || a;
}

function mechanicsOf(variant) { return MECH[variant] || { check: false }; }

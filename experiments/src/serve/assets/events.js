// The event log in words (served as /events.js): what a seat learned between two of its
// own views, built from its observations only. The board's part is a diff of the two
// placements (captures of the seat's pieces, enemy moves it can see, pieces appearing);
// each variant adds its own (mechanics.js `events`: zombies rising, guesses, attempts).
"use strict";

function cellsOf(rows) {
  const out = new Map();
  if (!rows) return out;
  rows.forEach((row, i) => row.forEach((p, f) => { if (p) out.set(squareName(f, rows.length - 1 - i), p); }));
  return out;
}

function sideWord(p) { return isWhite(p) ? "white" : isBlack(p) ? "black" : "neutral"; }

// Board events between placements `a` and `b` for the seat playing `mine` ("white" or
// "black"; null for a seat of neither colour).
function boardEvents(a, b, mine) {
  const A = cellsOf(a), B = cellsOf(b);
  const out = [];
  const gone = [], came = [];
  for (const [sq, p] of A) if (B.get(sq) !== p) gone.push([sq, p]);
  for (const [sq, p] of B) if (A.get(sq) !== p) came.push([sq, p]);
  const used = new Set();
  for (const [sq, p] of came) {
    // A piece that left one square and landed on another: a move.
    // The nearest unused square the same piece left (a pawn's neighbour before a far one).
    let src = null, best = Infinity;
    gone.forEach(([s, q], i) => {
      if (q !== p || used.has(i) || s === sq) return;
      const d = Math.max(Math.abs(fileOf(s) - fileOf(sq)), Math.abs(rankOf(s) - rankOf(sq)));
      if (d < best) { best = d; src = gone[i]; }
    });
    if (src) {
      used.add(gone.indexOf(src));
      const taken = A.get(sq);
      out.push(`${sideWord(p)} ${pieceName(p)} ${src[0]} → ${sq}` + (taken ? `, taking the ${sideWord(taken)} ${pieceName(taken)}` : ""));
      if (taken && sideWord(taken) === mine) out.push(`your ${pieceName(taken)} on ${sq} was captured`);
    } else if (!A.get(sq) || sideWord(A.get(sq)) !== sideWord(p)) {
      out.push(`a ${sideWord(p)} ${pieceName(p)} appeared on ${sq}`);
    }
  }
  gone.forEach(([sq, p], i) => {
    if (used.has(i) || B.get(sq)) return;
    out.push(sideWord(p) === mine ? `your ${pieceName(p)} on ${sq} was removed` : `the ${sideWord(p)} ${pieceName(p)} on ${sq} is gone`);
  });
  return out;
}

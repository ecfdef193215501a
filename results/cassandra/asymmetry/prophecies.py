#!/usr/bin/env python3
"""Replays Cassandra games from a chesslab games.csv with an independent model of the
prophecy rules (docs/RULES.md "Cassandra Chess"), checks the model against the engine's
own tallies (tallies.csv beside games.csv, when there is one), and writes one row per
prophecy, for results/cassandra/asymmetry/README.md.

Usage: prophecies.py OUT.csv LABEL=DIR [LABEL=DIR ...]

The model, written from the rules and not from engine/src/variants/cassandra:
- a prophecy made with the prophet's move m falls due as the prophet is about to play
  move m + 2 (the seed: "when White is ready to play his third move"); a game that ends
  before then (mate, a draw, the cap) ends it unresolved;
- a player may prophesy after a move unless it is White's first move of a game from the
  start or a prophecy of theirs is pending; the recorded action after a move must be a
  prophecy ('@sq' or '@-') exactly then (checked, except after the game's last move);
- the target type is the prophet's rung, after climbing past types the foe no longer
  has; a fulfilled prophecy removes the piece and climbs one rung.
The board is replayed from the UCI moves (castling, en passant, promotion); legality is
the engine's business, the recorded games are legal.

Columns of OUT.csv: label, game, colour (of the prophet), move (the prophet's move
number m), rung (0 pawn .. 5 king), square, targets (enemy pieces of the target type on
the board when the prophecy was announced), aimed (an enemy piece of the target type
stood on the square when the prophecy was announced), fulfilled, outcome (resolved or
lapsed: the game ended first), victim_decisions (the victim's move decisions between
announcement and resolution), last_move_prophecy (the victim's last move before the
resolution was followed by a prophecy decision of the victim's own, so that a searcher
sees the resolution only one decision later), present_before_last (an enemy piece of the
type stood there as the victim made that last move), game_plies, book (the prophecy or
the victim's last move before it fell due was an action of the book opening, not of the
agents).
"""
import csv
import sys

LADDER = "pnbrqk"
FILES = "abcdefgh"


def sq(name):
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def start_board():
    b = [None] * 64
    back = "rnbqkbnr"
    for f in range(8):
        b[f] = ("w", back[f])
        b[8 + f] = ("w", "p")
        b[48 + f] = ("b", "p")
        b[56 + f] = ("b", back[f])
    return b


def make_move(b, mv):
    fr, to = sq(mv[0:2]), sq(mv[2:4])
    piece = b[fr]
    assert piece is not None, f"no piece on {mv[0:2]} for {mv}"
    colour, role = piece
    if role == "p" and fr % 8 != to % 8 and b[to] is None:
        b[to - 8 if colour == "w" else to + 8] = None  # en passant
    if role == "k" and abs(fr % 8 - to % 8) == 2:
        rank = fr - fr % 8
        if to % 8 == 6:
            b[rank + 5], b[rank + 7] = b[rank + 7], None
        else:
            b[rank + 3], b[rank + 0] = b[rank + 0], None
    b[fr] = None
    b[to] = (colour, mv[4]) if len(mv) == 5 else piece


def other(c):
    return "b" if c == "w" else "w"


def replay(actions, reason, opening_len=0):
    """Plays one game whose first `opening_len` actions are a book opening; returns
    (prophecy rows, made[c][rung], fulfilled[c][rung], the prophecy whose resolution
    the game's end leaves undecided)."""
    b = start_board()
    to_move = "w"
    moves = {"w": 0, "b": 0}
    pending = {"w": None, "b": None}
    rung = {"w": 0, "b": 0}
    made = {"w": [0] * 6, "b": [0] * 6}
    fulfilled = {"w": [0] * 6, "b": [0] * 6}
    rows = []

    def resolve(c):
        p = pending[c]
        if p is None or moves[c] + 1 != p["due_move"]:
            return
        pending[c] = None
        hit = b[p["square"]] == (other(c), LADDER[p["rung_at"]])
        p["outcome"] = "resolved"
        p["fulfilled"] = int(hit)
        if hit:
            b[p["square"]] = None
            fulfilled[c][rung[c]] += 1
            rung[c] = min(rung[c] + 1, 5)

    i = 0
    while i < len(actions):
        a = actions[i]
        assert not a.startswith("@"), f"prophecy token {a} where a move is due"
        resolve(to_move)
        c = to_move
        v = pending[other(c)]
        if v is not None:
            v["victim_decisions"] += 1
            # Overwritten at each victim move: what stays is the victim's last move
            # before the prophecy falls due.
            v["_last"] = {
                "present": int(b[v["square"]] == (c, LADDER[v["rung_at"]])),
                "may_prophesy": pending[c] is None,
                "in_opening": i < opening_len,
            }
        make_move(b, a)
        moves[c] += 1
        i += 1
        may = not (c == "w" and moves["w"] == 1) and pending[c] is None
        nxt = actions[i] if i < len(actions) else None
        if nxt is None:
            to_move = other(c)
            break
        if nxt.startswith("@"):
            assert may, f"prophecy {nxt} at action {i} where the rules allow none"
            while rung[c] < 5 and not any(x == (other(c), LADDER[rung[c]]) for x in b):
                rung[c] += 1
            if nxt != "@-":
                s = sq(nxt[1:])
                made[c][rung[c]] += 1
                p = {
                    "colour": c,
                    "move": moves[c],
                    "rung_at": rung[c],
                    "square": s,
                    "square_name": nxt[1:],
                    "aimed": int(b[s] == (other(c), LADDER[rung[c]])),
                    "targets": sum(x == (other(c), LADDER[rung[c]]) for x in b),
                    "due_move": moves[c] + 2,
                    "fulfilled": 0,
                    "outcome": "lapsed",
                    "victim_decisions": 0,
                    "announced_in_opening": i < opening_len,
                    "_last": None,
                }
                pending[c] = p
                rows.append(p)
            i += 1
        else:
            assert not may, f"no prophecy decision after action {i - 1} where the rules ask one"
        to_move = other(c)
    # The game ended as `to_move` was about to play. A win by prophecy means a prophecy
    # fell due then; a mate or a draw may have come by the last move (the prophecy then
    # lapses) or by the removal itself (a removal that opens a line to the prophet's own
    # king), which only a move generator tells apart: such games are returned as
    # `ambiguous` with both counts.
    ambiguous = None
    if reason in ("prophecy", "royal-capture"):
        resolve(to_move)
    else:
        p = pending[to_move]
        if p is not None and moves[to_move] + 1 == p["due_move"] and b[p["square"]] == (other(to_move), LADDER[p["rung_at"]]):
            ambiguous = p
    return rows, made, fulfilled, ambiguous


def main():
    out, specs = sys.argv[1], sys.argv[2:]
    fields = [
        "label", "game", "colour", "move", "rung", "square", "targets", "aimed", "fulfilled",
        "outcome", "victim_decisions", "last_move_prophecy", "present_before_last",
        "game_plies", "book",
    ]
    checked = mismatched = removal_ended = 0
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(fields)
        for spec in specs:
            label, d = spec.split("=", 1)
            games = list(csv.DictReader(open(f"{d}/games.csv")))
            try:
                tallies = {r["index"]: r for r in csv.DictReader(open(f"{d}/tallies.csv"))}
            except FileNotFoundError:
                tallies = {}
            for g in games:
                assert not g["opening"] or g["opening"].startswith("actions:"), "FEN openings not modelled"
                # An opening is a line of actions played from the start, kept apart.
                opening = g["opening"][len("actions:"):].split() if g["opening"] else []
                rows, made, ful, ambiguous = replay(
                    opening + g["actions"].split(), g["reason"], len(opening)
                )
                t = tallies.get(g["index"])
                if t is not None:
                    checked += 1
                    want = [
                        int(float(t[k]))
                        for k in ("white_made", "white_fulfilled", "black_made", "black_fulfilled")
                    ] + [int(float(t[f"{k}_{n}"])) for n in ("pawn", "knight", "bishop", "rook", "queen", "king") for k in ("made", "fulfilled")]
                    got = [sum(made["w"]), sum(ful["w"]), sum(made["b"]), sum(ful["b"])] + [
                        x
                        for r in range(6)
                        for x in (made["w"][r] + made["b"][r], ful["w"][r] + ful["b"][r])
                    ]
                    if got != want and ambiguous is not None:
                        c, r = ambiguous["colour"], ambiguous["rung_at"]
                        ful[c][r] += 1
                        alt = [sum(made["w"]), sum(ful["w"]), sum(made["b"]), sum(ful["b"])] + [
                            x
                            for r in range(6)
                            for x in (made["w"][r] + made["b"][r], ful["w"][r] + ful["b"][r])
                        ]
                        if alt == want:
                            got = alt
                            removal_ended += 1
                            ambiguous.update(outcome="resolved", fulfilled=1)
                    if got != want:
                        mismatched += 1
                        print(f"{label} game {g['index']}: model {got} engine {want}", file=sys.stderr)
                for p in rows:
                    last = p["_last"] or {"present": "", "may_prophesy": "", "in_opening": False}
                    w.writerow([
                        label, g["index"], "white" if p["colour"] == "w" else "black",
                        p["move"], p["rung_at"], p["square_name"], p["targets"], p["aimed"],
                        p["fulfilled"],
                        p["outcome"], p["victim_decisions"],
                        int(last["may_prophesy"]) if last["may_prophesy"] != "" else "",
                        last["present"], g["plies"],
                        int(p["announced_in_opening"] or last["in_opening"]),
                    ])
    print(
        f"model against engine tallies: {checked} games checked, {mismatched} differ; "
        f"{removal_ended} ended as a due prophecy's removal left the board mate or drawn",
        file=sys.stderr,
    )
    sys.exit(1 if mismatched else 0)


if __name__ == "__main__":
    main()

#!/bin/sh
# Takes the README's screenshots of the playtest board: starts `chesslab serve`, plays a
# few decisions through the JSON API with curl, and has headless Debian chromium
# photograph the page joined as one seat (`/#game=ID&seat=S&token=T`).
# Usage (from the repository root): docs/screenshots/take.sh [path/to/chesslab]
set -eu
BIN=${1:-target/debug/chesslab}
PORT=${PORT:-8191}
OUT=docs/screenshots
"$BIN" serve --port "$PORT" >/dev/null &
PID=$!
trap 'kill $PID' EXIT
sleep 1
B=http://127.0.0.1:$PORT

shot() {
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --hide-scrollbars --window-size=1300,1000 --timeout=15000 \
        --screenshot="$1" "$2" 2>/dev/null
}
create() { curl -sf -XPOST "$B/api/games" -H 'Content-Type: application/json' -d "$1"; }
act() { curl -sf -XPOST "$B/api/games/$1/act" -H 'Content-Type: application/json' \
    -d "{\"seat\":$2,\"token\":\"$3\",\"action\":\"$4\"}" >/dev/null; sleep 0.3; }
# The first legal action of a seat, or nothing when it has no decision.
first() { curl -sf "$B/api/games/$1/state?seat=$2&token=$3" | jq -r '.legal[0] // empty'; }

# Chess against greedy, three moves in, the knight on g1 picked up.
C=$(create '{"variant":"chess","seed":3,"seats":["human","greedy"]}')
ID=$(echo "$C" | jq -r .id); T=$(echo "$C" | jq -r '.tokens[0]')
for m in e2e4 d2d4 b1c3; do act "$ID" 0 "$T" "$m"; done
shot "$OUT/chess.png" "$B/#game=$ID&seat=0&token=$T&select=g1"

# Zombie (burials are secret): White's own view after a few decisions.
C=$(create '{"variant":"zombie","seed":5,"seats":["human","random"]}')
ID=$(echo "$C" | jq -r .id); T=$(echo "$C" | jq -r '.tokens[0]')
for i in 1 2 3 4 5 6 7 8; do
    A=$(first "$ID" 0 "$T"); [ -n "$A" ] && act "$ID" 0 "$T" "$A"
done
shot "$OUT/zombie.png" "$B/#game=$ID&seat=0&token=$T"

# Tar Pit: hidden hands; the card decisions are buttons.
C=$(create '{"variant":"tar-pit","seed":2,"seats":["human","random"]}')
ID=$(echo "$C" | jq -r .id); T=$(echo "$C" | jq -r '.tokens[0]')
sleep 0.5
shot "$OUT/tar-pit.png" "$B/#game=$ID&seat=0&token=$T"

# Two Move: a simultaneous node, Black has committed, White has not.
C=$(create '{"variant":"two-move","seed":2,"seats":["human","human"]}')
ID=$(echo "$C" | jq -r .id); T0=$(echo "$C" | jq -r '.tokens[0]'); T1=$(echo "$C" | jq -r '.tokens[1]')
A=$(first "$ID" 1 "$T1"); [ -n "$A" ] && act "$ID" 1 "$T1" "$A"
shot "$OUT/two-move.png" "$B/#game=$ID&seat=0&token=$T0"

#!/bin/sh
# Takes the README's screenshots of the playtest board: runs the browser test
# (experiments/tests/serve_browser.rs: headless Debian chromium driven through
# chromedriver, playing by clicks and waiting for what the page's script draws before each
# shot) with CHESSLAB_SCREENSHOTS pointing here. Needs `chromium` and `chromium-driver`.
# Usage (from the repository root): docs/screenshots/take.sh
set -eu
CHESSLAB_SCREENSHOTS=1 CHESSLAB_REQUIRE_BROWSER=1 \
    cargo test -p experiments --test integration serve_browser:: -- --nocapture

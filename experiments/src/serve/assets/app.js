// The page's script is split into board.js, mechanics.js, events.js and play.js (served
// by serve/rules.rs); this file is kept so its route answers.
"use strict";

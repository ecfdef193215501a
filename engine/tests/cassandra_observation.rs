//! What a Cassandra seat's observation says of pending prophecies: the move each falls
//! due (`black p@e4 due 3`), also for the opponent's secret one (whose square stays
//! hidden), the same in every view until it resolves.

use engine::game::{replay, Game};
use engine::variants::cassandra::{Cassandra, CassandraParams};

#[test]
fn rule_observation_says_the_move_a_prophecy_falls_due() {
    // Black's prophecy with move 1 falls due as black starts move 3; white's with
    // move 2 as white starts move 4. Every view in between says the same move, and
    // a secret prophecy's due move is seen by the opponent too (the square is not).
    let all = ["e2e4", "e7e5", "@e4", "g1f3", "@d5", "b8c6", "f1c4", "a7a6"];
    for secret in [false, true] {
        let params = CassandraParams {
            secret,
            ..Default::default()
        };
        for n in 3..=all.len() {
            let g = replay(Cassandra::new(&params), &all[..n]).unwrap();
            let (own, theirs) = (g.observation(1), g.observation(0));
            // White's third move (with its own prophecy pending) starts black's turn.
            if n < 7 {
                assert!(own.contains("black p@e4 due 3"), "{n}: {own}");
                let shown = if secret {
                    "black p@? due 3"
                } else {
                    "black p@e4 due 3"
                };
                assert!(theirs.contains(shown), "{n}: {theirs}");
            } else {
                assert!(own.contains("black -"), "{n}: resolved: {own}");
            }
            if n >= 5 {
                assert!(theirs.contains("white p@d5 due 4"), "{n}: {theirs}");
            }
        }
    }
}

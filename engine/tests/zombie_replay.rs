//! The games of the Zombie Chess balance run (`results/zombie/balance/games.csv`, greedy
//! self-play at the default parameters) still replay move for move and end as recorded:
//! the move generation's speed-ups (the action list cached per `apply`, king safety on
//! bitboards where no burial can return) change no rule.

use engine::game::{replay, Game};
use engine::variants::zombie::{Zombie, ZombieParams};

#[test]
fn balance_games_replay_to_their_recorded_results() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../results/zombie/balance/games.csv"
    );
    let text = std::fs::read_to_string(path).expect("the balance run's games.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let col = |name: &str| header.iter().position(|&h| h == name).expect(name);
    let (reason, actions, returns) = (col("reason"), col("actions"), col("returns"));
    let mut replayed = 0;
    // Every fifth game keeps the debug-build test short; the rows are independent.
    for line in lines.step_by(5) {
        let f: Vec<&str> = line.split(',').collect();
        let moves: Vec<&str> = f[actions].split_whitespace().collect();
        let g = replay(Zombie::new(&ZombieParams::default()), &moves)
            .unwrap_or_else(|e| panic!("game {}: {e}", f[0]));
        let r = g
            .result()
            .unwrap_or_else(|| panic!("game {} not over", f[0]));
        assert_eq!(r.reason, f[reason], "game {}", f[0]);
        let got: Vec<String> = r.returns[..2].iter().map(|x| format!("{x}")).collect();
        assert_eq!(got.join(" "), f[returns], "game {}", f[0]);
        replayed += 1;
    }
    assert!(replayed >= 90, "only {replayed} games replayed");
}

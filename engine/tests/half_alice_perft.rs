//! Half Alice perft against Alice Chess counts from an independent implementation
//! (see the header of `data/alice_perft.txt`).

use engine::game::{perft, Game};
use engine::variants::half_alice::{HalfAlice, HalfAliceParams};

#[test]
fn half_alice_perft_matches_independent_alice_counts() {
    let text = include_str!("data/alice_perft.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split(';').map(str::trim);
        let opening = parts.next().unwrap();
        let mut g = HalfAlice::from_opening(&HalfAliceParams::default(), opening).unwrap();
        for p in parts {
            let (d, n) = p.split_once(' ').unwrap();
            let d: u32 = d.trim_start_matches('D').parse().unwrap();
            let n: u64 = n.parse().unwrap();
            assert_eq!(perft(&mut g, d), n, "{opening} depth {d}");
            checked += 1;
        }
    }
    assert!(checked >= 5);
}

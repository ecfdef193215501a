//! The workspace's one SplitMix64 and its one chance-sampling rule, in the engine so the
//! engine (Zobrist tables, Golf keys), the agents (evaluation noise, playouts, tree
//! search) and the experiments (derived seeds, the chance draws of a game) share them
//! without breaking the crate order engine <- agents <- experiments.
//!
//! SplitMix64 (Steele, Lea and Flood 2014): the state advances by the golden gamma and
//! the output is the state run through a fixed finaliser. The constants are frozen:
//! Zobrist keys, Golf keys and every recorded game's seeds derive from them, so a change
//! here would change state keys and the games of a recorded run (`rule_splitmix_*` tests
//! pin known outputs).
//!
//! Chance sampling: [`sample_index`] walks the outcomes subtracting each probability from
//! one uniform draw in [0, 1) and takes the first outcome the remainder falls under; the
//! last outcome catches what rounding leaves over (so probabilities that sum to one up to
//! rounding never sample past the end).

use rand::Rng;

/// The increment of SplitMix64's state (2^64 divided by the golden ratio, odd).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One step of the generator: the next state and its output.
#[inline]
pub const fn splitmix64_next(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(GOLDEN_GAMMA);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// SplitMix64 as a hash: the output of one step from state `x`, a fixed, well-mixed
/// bijection on `u64`.
#[inline]
pub const fn splitmix64(x: u64) -> u64 {
    splitmix64_next(x).1
}

/// `N` consecutive outputs of the generator started at `seed` (for compile-time key
/// tables).
pub const fn splitmix64_table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, v) = splitmix64_next(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

/// The index drawn from `probs` (probabilities summing to one) by one uniform draw `x`
/// in [0, 1). See the module documentation for the rule.
#[inline]
pub fn index_of_draw(probs: impl IntoIterator<Item = f64>, mut x: f64) -> Option<usize> {
    let mut last = None;
    for (i, p) in probs.into_iter().enumerate() {
        if x < p {
            return Some(i);
        }
        x -= p;
        last = Some(i);
    }
    last
}

/// Samples an index from (outcome, probability) pairs with one draw of `rng`.
///
/// # Panics
/// When `outcomes` is empty (a chance node always has an outcome).
#[inline]
pub fn sample_index<A, R: Rng + ?Sized>(outcomes: &[(A, f64)], rng: &mut R) -> usize {
    let x: f64 = rng.gen();
    index_of_draw(outcomes.iter().map(|o| o.1), x).expect("no outcomes to sample")
}

/// Samples an index from bare probabilities with one draw of `rng` (same rule).
///
/// # Panics
/// When `probs` is empty.
#[inline]
pub fn sample_prob_index<R: Rng + ?Sized>(probs: &[f64], rng: &mut R) -> usize {
    let x: f64 = rng.gen();
    index_of_draw(probs.iter().copied(), x).expect("no probabilities to sample")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn rule_splitmix_known_outputs() {
        // The reference outputs of SplitMix64 seeded with 0 (the first is also what the
        // experiments' seed derivation has always pinned).
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        let t: [u64; 3] = splitmix64_table(0);
        assert_eq!(
            t,
            [
                0xe220_a839_7b1d_cdaf,
                0x6e78_9e6a_a1b9_65f4,
                0x06c4_5d18_8009_454f
            ]
        );
    }

    #[test]
    fn rule_splitmix_next_is_hash_of_state() {
        let (s, v) = splitmix64_next(12345);
        assert_eq!(s, 12345u64.wrapping_add(GOLDEN_GAMMA));
        assert_eq!(v, splitmix64(12345));
    }

    #[test]
    fn rule_chance_sampling_takes_the_first_outcome_the_draw_falls_under() {
        let p = [0.25, 0.5, 0.25];
        assert_eq!(index_of_draw(p, 0.0), Some(0));
        assert_eq!(index_of_draw(p, 0.2499), Some(0));
        assert_eq!(index_of_draw(p, 0.25), Some(1));
        assert_eq!(index_of_draw(p, 0.7499), Some(1));
        assert_eq!(index_of_draw(p, 0.75), Some(2));
        // Rounding left over: the last outcome.
        assert_eq!(index_of_draw([0.5, 0.4999], 0.99999), Some(1));
        assert_eq!(index_of_draw([], 0.5), None);
    }

    #[test]
    fn rule_chance_sampling_follows_the_probabilities() {
        let outcomes = [('a', 0.2), ('b', 0.8)];
        let mut rng = rand_pcg::Pcg64::seed_from_u64(9);
        let n = 20_000;
        let a = (0..n)
            .filter(|_| sample_index(&outcomes, &mut rng) == 0)
            .count();
        let share = a as f64 / n as f64;
        assert!((share - 0.2).abs() < 0.02, "{share}");
        assert_eq!(sample_prob_index(&[1.0], &mut rng), 0);
    }
}

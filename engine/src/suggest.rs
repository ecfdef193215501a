//! "Did you mean": the one near-miss helper behind every name the lab looks up (variants,
//! agents, agent settings, parameter keys, golf kinds), so a typo such as `zombi` or
//! `dept` is answered with the name the user most likely meant.
//!
//! Decisions where the issue is silent (issue 68):
//! - Distance is the optimal-string-alignment distance (insertions, deletions,
//!   substitutions and swaps of two neighbouring letters each cost 1), compared without
//!   case and with `-` and `_` read alike, so `half_alice` finds `half-alice`.
//! - A name is offered when it is within a third of its length (at least 1 edit) of what
//!   was typed, or when what was typed (3 letters or more) begins it (`alpha` ->
//!   `alphabeta`). Of several, the nearest wins, then the earlier in the list (the list's
//!   own order, which is the order help texts show).
//! - Nothing is offered for an exact match (the caller would not have failed) or when no
//!   name is near: a wrong suggestion is worse than none. A match but for case or `-`/`_`
//!   (`Zombie`, `time-ms`) is offered: the lookups themselves are exact.
//!
//! Tests: `near_misses_find_their_name`, `far_names_find_nothing` below, and the table of
//! near misses over every lookup in `experiments/tests/front_door.rs`.

/// The name in `known` nearest to `typed`, if one is near enough to be what was meant.
pub fn closest<'a, I>(typed: &str, known: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let t = normal(typed);
    if t.is_empty() {
        return None;
    }
    let mut best: Option<(usize, &'a str)> = None;
    for name in known {
        if name == typed {
            return None;
        }
        let n = normal(name);
        let d = distance(&t, &n);
        let near = d <= (n.len() / 3).max(1) || (t.len() >= 3 && n[..].starts_with(&t[..]));
        if near && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, name));
        }
    }
    best.map(|(_, name)| name)
}

/// ` (did you mean 'NAME'?)` for the nearest name, or nothing: ready to append to an
/// "unknown ..." message.
pub fn did_you_mean<'a, I>(typed: &str, known: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    closest(typed, known)
        .map(|n| format!(" (did you mean '{n}'?)"))
        .unwrap_or_default()
}

fn normal(s: &str) -> Vec<char> {
    s.trim()
        .chars()
        .map(|c| {
            if c == '_' {
                '-'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// Optimal string alignment distance between `a` and `b`.
fn distance(a: &[char], b: &[char]) -> usize {
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_find_their_name() {
        let variants = crate::registry::VARIANTS;
        for (typed, meant) in [
            ("zombi", "zombie"),
            ("Zombie ", "zombie"),
            ("chess96", "chess960"),
            ("half_alice", "half-alice"),
            ("tarpit", "tar-pit"),
            ("cassnadra", "cassandra"),
            ("synchronus", "synchronous"),
        ] {
            assert_eq!(
                closest(typed, variants.iter().copied()),
                Some(meant),
                "{typed}"
            );
        }
        let keys = ["depth", "tc", "time_ms", "eval"];
        assert_eq!(closest("dept", keys), Some("depth"));
        assert_eq!(closest("time-ms", keys), Some("time_ms"));
        assert_eq!(closest("timems", keys), Some("time_ms"));
        assert_eq!(
            closest("alpha", ["random", "greedy", "alphabeta"]),
            Some("alphabeta")
        );
        assert_eq!(did_you_mean("dept", keys), " (did you mean 'depth'?)");
    }

    #[test]
    fn far_names_find_nothing() {
        let variants = crate::registry::VARIANTS.iter().copied();
        assert_eq!(closest("nosuch", variants), None);
        assert_eq!(closest("", ["a"]), None);
        assert_eq!(closest("x", ["depth", "tc"]), None);
        assert_eq!(closest("tc", ["tc"]), None);
        assert_eq!(did_you_mean("qqq", ["depth"]), "");
    }

    #[test]
    fn distances() {
        let d = |a: &str, b: &str| distance(&normal(a), &normal(b));
        assert_eq!(d("dept", "depth"), 1);
        assert_eq!(d("ab", "ba"), 1);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("", "abc"), 3);
    }
}

//! Test helpers shared by the fog twins (issue 67): a hidden-information game with one
//! switch that makes its hidden part public and keeps every other rule (Masquerade's
//! `open_assignments`, Tar Pit's `open_hands`, Zombie's `open_burials`). Each twin's
//! tests call [`same_rules`] (seeded games of the hidden game replay in the twin action
//! for action) and [`switch_is_a_parameter`] (the switch is a registry parameter that
//! leaves recorded parameter digests alone when off).

use super::{Game, Turn, VariantParams};
use crate::registry::{self, VariantVisitor};
use rand::Rng;
use rand_pcg::Pcg64;

/// Plays `hidden` and `twin` in lockstep to the end: at every node the two agree on the
/// turn and on the legal actions or chance outcomes, each action's notation parses the
/// same in the twin and the state keys stay equal; `pick` chooses a seat's action from
/// the hidden game's list (chance draws by its probabilities) and `after` compares what
/// the variant shows beyond the key (boards, events) after each action. At the end the
/// results and tallies are equal, the hidden game is hidden and the twin is not. Returns
/// the hidden game at its end, for counts of what happened.
pub(crate) fn same_rules<G: Game>(
    mut hidden: G,
    mut twin: G,
    rng: &mut Pcg64,
    mut pick: impl FnMut(&G, &[G::Action], &mut Pcg64) -> G::Action,
    mut after: impl FnMut(&G, &G),
) -> G {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let (mut oa, mut ob) = (Vec::new(), Vec::new());
    loop {
        assert_eq!(hidden.turn(), twin.turn(), "the turns differ");
        let action = match hidden.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                hidden.chance_outcomes(&mut oa);
                twin.chance_outcomes(&mut ob);
                assert_eq!(oa, ob, "the chance outcomes differ");
                oa[crate::random::sample_index(&oa, rng)].0
            }
            Turn::Seat(s) => {
                hidden.legal_actions(s, &mut a);
                twin.legal_actions(s, &mut b);
                assert_eq!(a, b, "the legal actions differ");
                pick(&hidden, &a, rng)
            }
            t => panic!("a twin game met a {t:?} node"),
        };
        let text = hidden.action_notation(action);
        assert_eq!(
            twin.parse_action(&text),
            Ok(action),
            "'{text}' parses otherwise"
        );
        hidden.apply(action);
        twin.apply(action);
        assert_eq!(hidden.state_key(), twin.state_key(), "after '{text}'");
        after(&hidden, &twin);
    }
    assert_eq!(hidden.result(), twin.result());
    assert_eq!(hidden.tallies(), twin.tallies());
    assert!(!hidden.is_perfect_information() && twin.is_perfect_information());
    hidden
}

/// A uniformly random action (the usual `pick` of [`same_rules`]).
pub(crate) fn any_action<G: Game>(_: &G, actions: &[G::Action], rng: &mut Pcg64) -> G::Action {
    actions[rng.gen_range(0..actions.len())]
}

/// The twin's switch `key` of `variant` is a parameter like any other: off, it is left
/// out of the defaults' TOML (so the digest of every recorded game's parameters is what
/// it was before the twin existed); on, it is written and read back; `chesslab params`
/// documents it; and through the registry, as `--params` reads it, `key = true` makes a
/// perfect-information game, no file the hidden one, and `key = <bad>` is an error.
pub(crate) fn switch_is_a_parameter<P: VariantParams>(variant: &str, key: &str, bad: &str) {
    let text = toml::to_string(&P::default()).unwrap();
    assert!(!text.contains(key), "{key} written when off: {text}");
    let on_text = format!("{key} = true");
    let on: P = toml::from_str(&on_text).unwrap();
    assert!(on.validate().is_ok());
    assert!(toml::to_string(&on).unwrap().contains(&on_text));
    assert!(
        P::DOCS.iter().any(|d| d.key == key),
        "{key} is not documented"
    );
    struct Perfect;
    impl VariantVisitor for Perfect {
        type Output = bool;
        fn visit<G: Game>(self, _: &'static str, p: G::Params) -> bool {
            G::new(&p).is_perfect_information()
        }
    }
    assert_eq!(registry::visit(variant, Some(&on_text), Perfect), Ok(true));
    assert_eq!(registry::visit(variant, None, Perfect), Ok(false));
    let bad_text = format!("{key} = {bad}");
    assert!(registry::visit(variant, Some(&bad_text), Perfect).is_err());
}

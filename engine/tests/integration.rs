//! Every integration test of the `engine` package, in one test binary (issue 68: one
//! binary per package is built and linked once, instead of once per file, which was
//! most of a fresh clone's test time). Each file under tests/ is one module here and
//! keeps its own doc comment; run one with `cargo test -p engine --test integration
//! <module>::`. A new test file needs its line below (the test
//! `every_test_file_is_a_module` fails otherwise).

mod adrenaline_random;
mod adrenaline_reference;
mod cassandra_observation;
mod cassandra_reference;
mod clairvoyant_info;
mod clairvoyant_reference;
#[allow(dead_code)]
mod common;
mod cooperative_info;
mod cooperative_reference;
mod crowded_house_reference;
mod expedition_reference;
mod golf_cases;
mod half_alice_reference;
#[path = "common/mailbox.rs"]
mod mailbox;
mod masquerade_info;
mod masquerade_reference;
mod perft_suites;
mod properties;
mod recorded_games_replay;
#[path = "common/rules_track.rs"]
mod rules_track;
mod synchronous_reference;
mod tar_pit_info;
mod tar_pit_reference;
mod time_info;
mod time_reference;
mod time_replay;
mod two_move_reference;
mod zombie_info;
mod zombie_reference;

/// A file under tests/ that is not listed above would never run.
#[test]
fn every_test_file_is_a_module() {
    let here = include_str!("integration.rs");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs") {
            if module != "integration" {
                assert!(
                    here.contains(&format!("\nmod {module};")),
                    "tests/{name} is not a module of tests/integration.rs"
                );
            }
        }
    }
}

//! Every integration test of the `agents` package, in one test binary (issue 68: one
//! binary per package is built and linked once, instead of once per file, which was
//! most of a fresh clone's test time). Each file under tests/ is one module here and
//! keeps its own doc comment; run one with `cargo test -p agents --test integration
//! <module>::`. A new test file needs its line below (the test
//! `every_test_file_is_a_module` fails otherwise).

mod budgets;
mod capture_scores;
mod cassandra_prophecy;
mod chess_agents;
mod clairvoyant_agents;
mod cooperative_agents;
mod eval_features;
mod expedition_agents;
mod golf_solver;
mod known_answers;
mod masquerade_agents;
mod own_information;
mod search;
mod synchronous_agents;
mod tar_pit_agents;
mod team_search;
mod time_agents;
mod two_move_agents;
mod zombie_agents;

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

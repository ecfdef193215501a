//! Every integration test of the `experiments` package, in one test binary (issue 68: one
//! binary per package is built and linked once, instead of once per file, which was
//! most of a fresh clone's test time). Each file under tests/ is one module here and
//! keeps its own doc comment; run one with `cargo test -p experiments --test integration
//! <module>::`. A new test file needs its line below (the test
//! `every_test_file_is_a_module` fails otherwise).

mod agent_specs_cli;
mod bad_input;
mod cli_tc;
mod common;
mod export_and_pipes;
mod ext_bot;
mod front_door;
mod golf_cli;
mod kept_play;
mod ladder_cli;
mod layout;
mod numeric_flags;
mod openings_screen;
mod outside_bots;
mod panel_cli;
mod rate;
mod readme_commands;
mod results_replay;
mod results_tables;
mod scale_out;
mod serve_api;
mod serve_board;
mod serve_browser;
mod serve_cancel;
mod serve_limits;
mod serve_load;
mod serve_security;
mod serve_uci;
mod texel;
mod tournament_cli;
mod trace_cli;
mod values;
mod verdicts_page;

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

//! The experiments crate's layout (issue 34), checked from its source text:
//! - `module_graph_is_acyclic_with_cli_on_top`: the modules under `experiments/src`
//!   (`cli`, `studies/{report,tune,values,tables,starts}`, `serve`, `golf`, `run`, `stats`, `record`,
//!   `util`) name each other (`crate::X` in code, comments left out) only downwards, in
//!   the layers `lib.rs` documents; so there is no circle, nothing depends on `cli`, and
//!   no study depends on another.
//! - `no_source_file_is_longer_than_800_lines_of_code`: every `.rs` file of
//!   `engine/src`, `agents/src` and `experiments/src` has at most 800 lines that are
//!   neither blank nor comments (a longer file is split along its concepts, as
//!   `engine/src/variants/adrenaline/` is).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, top first: a module may name only modules of a later layer.
const LAYERS: &[&[&str]] = &[
    &["cli"],
    &[
        "studies::report",
        "studies::tune",
        "studies::values",
        "studies::tables",
        "studies::starts",
        "studies::texel",
        "studies::texel_tables",
        "studies::verdicts",
        "serve",
        "golf",
    ],
    // What several studies share (a panel of players) sits below them all.
    &["studies::panel"],
    &["run"],
    &["stats"],
    &["record"],
    &["util"],
];

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The lines of a file that are code: neither blank nor `//` comments (doc comments
/// included).
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with("//")
    })
}

/// The node a path inside the crate belongs to: its first component, or the first two
/// under `studies` (each study is its own node).
fn node_of(parts: &[&str]) -> Option<String> {
    match parts {
        ["studies", study, ..] => Some(format!("studies::{study}")),
        [first, ..] => Some(first.to_string()),
        [] => None,
    }
}

/// Edges (from, to) between nodes, with a file and line naming each.
fn module_edges(src: &Path) -> BTreeMap<(String, String), String> {
    let mut files = Vec::new();
    rs_files(src, &mut files);
    let mut edges = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let parts: Vec<String> = rel
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let parts: Vec<&str> = parts
            .iter()
            .map(String::as_str)
            .filter(|p| *p != "mod")
            .collect();
        if matches!(parts.as_slice(), ["lib"] | ["main"]) {
            continue;
        }
        let from = node_of(&parts).unwrap();
        let text = std::fs::read_to_string(&f).unwrap();
        for line in code_lines(&text) {
            let mut rest = line;
            while let Some(i) = rest.find("crate::") {
                rest = &rest[i + "crate::".len()..];
                let path: Vec<&str> = rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .next()
                    .unwrap_or("")
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .collect();
                // `crate::studies::{..}` names the folder, not one study.
                let to = match path.as_slice() {
                    ["studies"] => Some("studies".to_string()),
                    p => node_of(p),
                };
                if let Some(to) = to {
                    if to != from {
                        edges
                            .entry((from.clone(), to))
                            .or_insert_with(|| format!("{}: {}", rel.display(), line.trim()));
                    }
                }
            }
        }
    }
    edges
}

fn layer_of(node: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&node))
}

#[test]
fn module_graph_is_acyclic_with_cli_on_top() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = module_edges(&src);
    assert!(
        edges.keys().any(|(f, t)| f == "cli" && t == "run"),
        "the scan found no edge cli -> run: it reads nothing"
    );
    let mut wrong = Vec::new();
    for ((from, to), at) in &edges {
        match (layer_of(from), layer_of(to)) {
            (Some(a), Some(b)) if a < b => {}
            (None, _) | (_, None) => wrong.push(format!(
                "{from} -> {to}: a module missing from LAYERS (add it to a layer and to lib.rs's picture), at {at}"
            )),
            _ => wrong.push(format!("{from} -> {to} points up or sideways, at {at}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "layering broken:\n  {}",
        wrong.join("\n  ")
    );
    // Layers ordered means no circle; say so directly too (a depth-first search).
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (f, t) in edges.keys() {
        graph.entry(f).or_default().insert(t);
    }
    fn visit<'a>(
        n: &'a str,
        graph: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        stack: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) {
        if let Some(i) = stack.iter().position(|s| *s == n) {
            panic!("import circle: {} -> {n}", stack[i..].join(" -> "));
        }
        if done.contains(n) {
            return;
        }
        stack.push(n);
        for t in graph.get(n).into_iter().flatten() {
            visit(t, graph, stack, done);
        }
        stack.pop();
        done.insert(n);
    }
    let mut done = BTreeSet::new();
    for n in graph.keys() {
        visit(n, &graph, &mut Vec::new(), &mut done);
    }
    assert!(
        !edges.keys().any(|(_, t)| t == "cli"),
        "nothing may depend on cli"
    );
}

#[test]
fn no_source_file_is_longer_than_800_lines_of_code() {
    const MAX: usize = 800;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "../engine/src", "../agents/src"] {
        rs_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 150, "only {} files found", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = code_lines(&std::fs::read_to_string(f).unwrap()).count();
            (n > MAX).then(|| format!("{} ({n} lines of code)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files above {MAX} lines of code (split them along their concepts):\n  {}",
        long.join("\n  ")
    );
}

//! The window's files import each other without a cycle: data (`state/`) below actions,
//! actions below the panels, the app on top. Reads the sources of `src/gui`, takes every
//! `super::…` and `crate::gui::…` path as an import of the file it names, and fails
//! naming a cycle when one exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The modules of `src/gui` by name ("app", "state", "state/pair"), with their source
/// up to their unit tests.
fn modules() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join("gui");
    let mut out = BTreeMap::new();
    let mut folders = vec![root.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read src/gui") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let Ok(rel) = path.strip_prefix(&root) else { continue };
            let Some(rel) = rel.to_str().and_then(|r| r.strip_suffix(".rs")) else { continue };
            let name = rel.strip_suffix("/mod").unwrap_or(if rel == "mod" { "" } else { rel }).to_string();
            let source = std::fs::read_to_string(&path).expect("read a source file");
            let body = source.split("#[cfg(test)]").next().unwrap_or_default().to_string();
            out.insert(name, body);
        }
    }
    out
}

/// The module a path names, from module `from`: the longest known prefix.
fn target(modules: &BTreeMap<String, String>, from: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = path.split("::").collect();
    let mut base: Vec<&str> = if from.is_empty() { vec![] } else { from.split('/').collect() };
    match parts.first() {
        Some(&"crate") if parts.get(1) == Some(&"gui") => {
            base.clear();
            parts.drain(..2);
        }
        Some(&"super") => {
            while parts.first() == Some(&"super") {
                base.pop();
                parts.remove(0);
            }
        }
        _ => return None,
    }
    let full: Vec<&str> = base.into_iter().chain(parts).collect();
    (1..=full.len()).rev().map(|n| full[..n].join("/")).find(|m| modules.contains_key(m))
}

/// Every module each module imports (itself and the root, which only re-exports, left out).
fn imports(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (name, source) in modules {
        let mut to = BTreeSet::new();
        for start in ["super::", "crate::gui::"] {
            for (at, _) in source.match_indices(start) {
                let path: String =
                    source[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
                let path = path.trim_end_matches(':');
                if let Some(t) = target(modules, name, path).filter(|t| t != name && !t.is_empty()) {
                    to.insert(t);
                }
            }
        }
        graph.insert(name.clone(), to);
    }
    graph
}

/// A cycle of the graph, if there is one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_window_files_import_each_other_without_a_cycle() {
    let modules = modules();
    assert!(modules.contains_key("app") && modules.contains_key("state"), "src/gui as expected: {:?}", modules.keys());
    let graph = imports(&modules);
    assert!(graph.get("app").is_some_and(|to| to.contains("state")), "imports are read: {graph:?}");
    if let Some(found) = cycle(&graph) {
        panic!("an import cycle among the window's files: {}\n{graph:#?}", found.join(" → "));
    }
}

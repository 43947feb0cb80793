//! Imports point down: each module of the library uses only modules below
//! it in `LAYERS`, and the files of one folder use each other without a
//! circle. `docs/architecture.md` draws the same layers.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's modules, from the ground floor up.
const LAYERS: &[&str] = &[
    "span",
    "diagnostic",
    "source",
    "disk",
    "yaml",
    "grammar",
    "syntax",
    "model",
    "check",
    "emit",
    "validate",
    "agent",
    "diff",
    "codegen",
    "project",
    "render",
    "lsp",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The text of a Rust file without its comments, so that doc links do
/// not count as uses.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first path segments after `prefix` (`crate::`, `super::`), in both
/// `prefix name` and `prefix{a, b::c}` forms.
fn segments_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group: after `{` and after each `,`
            // at depth one.
            let mut depth = 1;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => start = true,
                    c if c.is_whitespace() => {}
                    _ if start && depth == 1 => {
                        found.insert(word(&group[i..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(word(rest));
        }
    }
    found
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    common::files_below(dir, "rs")
}

/// The library module a file under `src/` belongs to (`syntax` for
/// `src/syntax/values.rs`), or `None` for the crate root and the binary.
fn module_of(path: &Path) -> Option<String> {
    let relative = path.strip_prefix(src()).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let module = first.strip_suffix(".rs").unwrap_or(first);
    (LAYERS.contains(&module)).then(|| module.to_string())
}

#[test]
fn every_module_of_the_library_has_a_layer() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap_or_default();
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|rest| rest.trim_end_matches(';'))
        .collect();
    let layered: BTreeSet<&str> = LAYERS.iter().copied().collect();
    assert_eq!(
        declared, layered,
        "src/lib.rs declares these modules; LAYERS must list each once, in order"
    );
}

#[test]
fn imports_point_down() {
    let mut upward = Vec::new();
    for path in rust_files(&src()) {
        let Some(module) = module_of(&path) else {
            continue;
        };
        let floor = LAYERS.iter().position(|m| *m == module).unwrap_or(0);
        for used in segments_after(&code(&path), "crate::") {
            let Some(other) = LAYERS.iter().position(|m| *m == used) else {
                continue;
            };
            if other > floor {
                upward.push(format!(
                    "{} uses `{used}`, which is above `{module}`",
                    path.display()
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that point up:\n{}",
        upward.join("\n")
    );
}

#[test]
fn files_of_a_folder_use_each_other_without_a_circle() {
    // Sibling files, by folder: `a.rs` uses `b.rs` when it names
    // `super::b`. A folder's `mod.rs` is the parent of its files, not a
    // sibling.
    let mut folders: BTreeMap<PathBuf, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for path in rust_files(&src()) {
        let (Some(folder), Some(stem)) = (path.parent(), path.file_stem()) else {
            continue;
        };
        let stem = stem.to_string_lossy().to_string();
        if stem == "mod" || folder == src() {
            continue;
        }
        let uses = segments_after(&code(&path), "super::");
        folders
            .entry(folder.to_path_buf())
            .or_default()
            .insert(stem, uses);
    }
    let mut circles = Vec::new();
    for (folder, files) in &folders {
        let edges: BTreeMap<&str, Vec<&str>> = files
            .iter()
            .map(|(file, uses)| {
                let siblings = uses
                    .iter()
                    .map(String::as_str)
                    .filter(|u| *u != file && files.contains_key(*u))
                    .collect();
                (file.as_str(), siblings)
            })
            .collect();
        if let Some(circle) = find_circle(&edges) {
            circles.push(format!("{}: {}", folder.display(), circle.join(" -> ")));
        }
    }
    assert!(
        circles.is_empty(),
        "files that use each other:\n{}",
        circles.join("\n")
    );
}

/// A circle in `edges`, as the files along it, if there is one.
fn find_circle<'a>(edges: &BTreeMap<&'a str, Vec<&'a str>>) -> Option<Vec<&'a str>> {
    fn visit<'a>(
        node: &'a str,
        edges: &BTreeMap<&'a str, Vec<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node);
            return Some(circle);
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in edges.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|node| visit(node, edges, &mut Vec::new(), &mut done))
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let edges = BTreeMap::from([("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"])]);
    assert_eq!(find_circle(&edges), Some(vec!["a", "b", "c", "a"]));
    let edges = BTreeMap::from([("a", vec!["b", "c"]), ("b", vec!["c"]), ("c", vec![])]);
    assert_eq!(find_circle(&edges), None);
    let found = segments_after("use crate::{a, b::{c, d}, e};\nuse crate::f::g;", "crate::");
    assert_eq!(
        found,
        ["a", "b", "e", "f"].map(String::from).into_iter().collect()
    );
}

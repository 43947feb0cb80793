//! Imports point down: each module of the library uses only modules below
//! it in `LAYERS`, and the files of one folder use each other without a
//! circle. The core never reaches an adapter or a front end: each
//! dependency of one is named only in its files (`OUTER`). The binary
//! raises no diagnostic code: `src/cli/` names none. `docs/architecture.md`
//! draws the same layers.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's modules, from the ground floor up.
const LAYERS: &[&str] = &[
    "clock",
    "cancel",
    "span",
    "diagnostic",
    "source",
    "files",
    "yaml",
    "grammar",
    "syntax",
    "model",
    "check",
    "incremental",
    "emit",
    "validate",
    "agent",
    "disk",
    "diff",
    "codegen",
    "config",
    "init",
    "watch",
    "render",
    "workspace",
    "project",
    "lsp",
    "mcp",
];

/// What only an adapter or a front end may name, and the files (or
/// folders, ending in `/`) that may, besides the binary (`src/main.rs`,
/// `src/cli/`), which may name anything: each is behind a feature, and the
/// core builds without it (for the browser, `wasm32-unknown-unknown`).
const OUTER: &[(&str, &[&str])] = &[
    // Front ends: the binary (`cli`) and the language server (`lsp`).
    ("clap", &[]),
    ("lsp::", &["src/lsp/"]),
    ("lsp_server", &["src/lsp/"]),
    ("lsp_types", &["src/lsp/"]),
    ("crossbeam_channel", &["src/lsp/"]),
    ("std::thread", &["src/lsp/"]),
    // The MCP server (`mcp`): the SDK, its runtime, roots' URIs.
    ("mcp::", &["src/mcp/"]),
    ("rmcp", &["src/mcp/"]),
    ("tokio", &["src/mcp/"]),
    ("percent_encoding", &["src/mcp/"]),
    // Adapters: the folder search (`walk`), git (`git`), threads
    // (`parallel`), the clock (none in a browser).
    ("ignore::", &["src/project/walk.rs"]),
    ("walk::", &["src/project/"]),
    ("gix", &["src/diff/git.rs"]),
    ("rayon", &["src/project/run.rs"]),
    // Watching folders (`watch`): the adapter only; Ctrl-C is the
    // binary's.
    ("notify::", &["src/project/watch.rs"]),
    ("ctrlc::", &[]),
    // The disk (`disk`): only its module reads, writes or lists files;
    // the files that do what agentc does with files on disk call it.
    (FS, &["src/disk/"]),
    ("disk::", DISK),
    ("std::time::Instant", &["src/clock.rs"]),
];

/// The standard library's file system, as `reaches` finds it named.
const FS: &str = "std::fs";

/// The files that may call the disk adapter: itself, what agentc does
/// with files on disk (all behind the `disk` feature), the language
/// server and the MCP server.
const DISK: &[&str] = &[
    "src/disk/",
    "src/project/run.rs",
    "src/project/walk.rs",
    "src/project/against.rs",
    "src/project/generate.rs",
    "src/project/init.rs",
    "src/project/baseline.rs",
    "src/project/watch.rs",
    "src/lsp/",
    "src/mcp/",
];

/// Whether `code` names `name`; for the disk adapter and [`FS`], in any
/// form (`crate::{agent, disk}`); for [`FS`], (`std::fs::read`,
/// `use std::fs;`, `use std::{fs, io};`), outside its unit tests, which
/// may read fixtures.
fn reaches(code: &str, name: &str) -> bool {
    if name == "disk::" {
        return names(code, name) || segments_after(code, "crate::").contains("disk");
    }
    if name != FS {
        return names(code, name);
    }
    let code = match code.find("#[cfg(test)]") {
        Some(at) => &code[..at],
        None => code,
    };
    names(code, FS) || segments_after(code, "std::").contains("fs")
}

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

#[test]
fn the_core_reaches_no_adapter_or_front_end() {
    let mut found = Vec::new();
    for path in rust_files(&src()) {
        let relative = path
            .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")))
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        // Deriving clap's traits, behind the `cli` feature, is the front
        // end's business in the core's types.
        let text: String = code(&path)
            .lines()
            .filter(|line| !line.contains("cfg_attr(feature = \"cli\""))
            .collect::<Vec<_>>()
            .join("\n");
        if relative.starts_with("src/cli/") || relative == "src/main.rs" {
            continue;
        }
        // Compiled only for the unit tests (`#[cfg(test)] mod testing;` in
        // lib.rs), as the `#[cfg(test)]` part of a file is: it may read
        // the fixtures from disk.
        let test_only = relative == "src/testing.rs"
            && code(&src().join("lib.rs")).contains("#[cfg(test)]\nmod testing;");
        for (name, allowed) in OUTER {
            let may = allowed.iter().any(|a| match a.ends_with('/') {
                true => relative.starts_with(a),
                false => relative == *a,
            });
            if test_only && *name == FS {
                continue;
            }
            if !may && reaches(&text, name) {
                found.push(format!("{relative} names `{name}`"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the core reaches an adapter or a front end:\n{}",
        found.join("\n")
    );
}

/// Whether `code` names `name` as a path: not as the end of a longer word
/// (`lsp::` in `crate::lsp::`, yes; in `help::`, no).
fn names(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && (name.ends_with(':') || !after.is_some_and(|c| c.is_alphanumeric() || c == '_'))
    })
}

/// A diagnostic code's variant (`Code::InvalidPath`), as written after
/// `Code::`: an upper-case letter, then a lower-case one. `Code::ALL` and
/// `Code::from_name` (`agentc explain`, which prints codes) are not.
fn variants(code: &str) -> Vec<String> {
    code.match_indices("Code::")
        .filter_map(|(at, _)| {
            let rest = &code[at + "Code::".len()..];
            let mut chars = rest.chars();
            let (first, second) = (chars.next()?, chars.next()?);
            (first.is_ascii_uppercase() && second.is_ascii_lowercase()).then(|| {
                rest.chars()
                    .take_while(|c| c.is_alphanumeric())
                    .collect::<String>()
            })
        })
        .collect()
}

#[test]
fn the_binary_raises_no_code() {
    let mut raised = Vec::new();
    for path in rust_files(&src().join("cli"))
        .into_iter()
        .chain([src().join("main.rs")])
    {
        let text = fs::read_to_string(&path).unwrap_or_default();
        for variant in variants(&text) {
            raised.push(format!("{} names `Code::{variant}`", path.display()));
        }
    }
    assert!(
        raised.is_empty(),
        "codes are raised in the library, next to their logic:\n{}",
        raised.join("\n")
    );
}

#[test]
fn the_code_finders_find() {
    assert_eq!(
        variants("Failure::new(p, Code::InvalidPath, m); Code::ALL; Code::from_name(n)"),
        ["InvalidPath"]
    );
    assert!(names("use crate::lsp::text;", "lsp::"));
    assert!(!names("use crate::help::x;", "lsp::"));
    assert!(names("gix::open()", "gix"));
    assert!(!names("let gixy = 1;", "gix"));
    assert!(reaches("let b = std::fs::read(p);", FS));
    assert!(reaches("use std::fs;", FS));
    assert!(reaches("use std::{fs, io};", FS));
    assert!(reaches("use std::{io, fs::File};", FS));
    assert!(!reaches("use std::{io, fmt};", FS));
    assert!(!reaches("#[cfg(test)]\nmod tests { use std::fs; }", FS));
    assert!(reaches("use crate::disk::{self, Reach};", "disk::"));
    assert!(reaches("use crate::{agent, disk};", "disk::"));
    assert!(!reaches("use crate::agent::Disk;", "disk::"));
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

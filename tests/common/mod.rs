//! Shared by the integration tests: paths, fixture discovery, compiling.
#![allow(dead_code)]

pub mod client;
pub mod generated;
pub mod lsp;
pub mod lsp_stdio;
pub mod mcp_stdio;
pub mod packaging;

use std::path::{Path, PathBuf};

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What a test marked `#[ignore = "needs ..."]` needs is missing, and it
/// was asked to run anyway (`cargo test -- --include-ignored`, as `.ci/run`
/// runs them): fails the test when `require_var` is `1` (`.ci/run` sets
/// one for each thing it installs), else prints `reason` and lets the test
/// return. Every tool detector of the tests goes through here.
pub fn unavailable(require_var: &str, reason: &str) {
    if std::env::var(require_var).as_deref() == Ok("1") {
        panic!("{require_var}=1 but {reason}");
    }
    println!("skipped: {reason} ({require_var}=1 makes this a failure)");
}

/// `../shared/` beside the project, or `None` (see [`unavailable`]:
/// `AGENTC_REQUIRE_SHARED=1` fails instead) when this checkout has no
/// shared folder beside it, as a fresh clone has not. A test that reads it
/// is `#[ignore = "needs ../shared/... beside the checkout"]`.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let path = root().join("..").join("shared").join(sub);
    if path.exists() {
        Some(path)
    } else {
        unavailable(
            "AGENTC_REQUIRE_SHARED",
            &format!("{} is not present beside this checkout", path.display()),
        );
        None
    }
}

/// Files with `extension` directly in `dir`, sorted.
pub fn files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

/// Every `protocol.yaml` under `protocols/`, sorted: the valid examples.
/// `protocols/invalid-agents/` is skipped: its agents are invalid by design.
pub fn valid_protocols() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let invalid_agents = root().join("protocols").join("invalid-agents");
    let mut dirs = vec![root().join("protocols")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("list protocols/") {
            let path = entry.expect("directory entry").path();
            if path == invalid_agents {
                continue;
            }
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n == "protocol.yaml") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The path as the tests name it in output: relative to the project, with `/`.
pub fn display(path: &Path) -> String {
    let relative = path.strip_prefix(root()).unwrap_or(path);
    relative.to_string_lossy().replace('\\', "/")
}

pub fn compile(path: &Path) -> agentc::FileReport {
    let bytes =
        std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    agentc::compile(&display(path), bytes)
}

/// Compiles a fixture, checked against the targets its `# agentc check
/// --target T ...` line names, if it has one.
pub fn compile_fixture(path: &Path) -> agentc::FileReport {
    let mut compiled = compile(path);
    let targets: Vec<agentc::emit::Target> = compiled
        .source
        .text()
        .lines()
        .find_map(|line| line.trim().strip_prefix("# agentc check "))
        .map(|flags| {
            flags
                .split_whitespace()
                .filter(|word| *word != "--target")
                .map(|name| {
                    agentc::emit::Target::from_name(name)
                        .unwrap_or_else(|| panic!("{}: no target `{name}`", path.display()))
                })
                .collect()
        })
        .unwrap_or_default();
    agentc::check_targets(&mut compiled, &targets);
    compiled
}

pub fn compile_text(text: &str) -> agentc::FileReport {
    agentc::compile("test.yaml", text.as_bytes())
}

pub fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(root().join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings
}

/// Runs the real binary from the crate root, without colour.
pub fn agentc(args: &[&str]) -> std::process::Output {
    agentc_in(root(), args)
}

/// Runs the real binary in `dir`, without colour (whatever the
/// environment asks).
pub fn agentc_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("run agentc")
}

/// The fenced block after `<!-- snippet: NAME -->` in `text` (a page of the
/// documentation, named `page` in a failure): a configuration a user copies,
/// which a test then parses or runs.
pub fn snippet(page: &str, text: &str, name: &str) -> String {
    let marker = format!("<!-- snippet: {name} -->");
    let Some(at) = text.find(&marker) else {
        panic!("{page} has no `{marker}`");
    };
    let rest = &text[at + marker.len()..];
    let open = rest.find("```").expect("a fenced block after the marker");
    let body_start = open + rest[open..].find('\n').expect("a fence line") + 1;
    let close = rest[body_start..].find("\n```").expect("a closing fence");
    rest[body_start..body_start + close + 1].to_string()
}

pub fn stdout(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 stdout")
}

pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("utf-8 stderr")
}

/// Every `*.yaml` under `dir`, at any depth, sorted.
pub fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    files_below(dir, "yaml")
}

/// Every file with `extension` under `dir`, at any depth, sorted.
pub fn files_below(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found = every_file_below(dir);
    found.retain(|path| path.extension().is_some_and(|e| e == extension));
    found
}

/// Every file under `dir`, at any depth, hidden ones (`.env`) too, sorted.
pub fn every_file_below(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("list a folder") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Copies the folder `from` to `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create folder");
    for entry in std::fs::read_dir(from).expect("list folder") {
        let entry = entry.expect("directory entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// An empty temporary folder for one test, named `agentc-{name}-` and a
/// random suffix, so that tests and test binaries running at once never
/// share one. It is removed when dropped, also when an assertion fails.
pub fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("agentc-{name}-"))
        .tempdir()
        .expect("create a temporary folder")
}

/// A folder `name` under `parent` holding the worker fixture's
/// `protocol.yaml` alone (no `settings.json`: it is named for its folder).
pub fn worker_folder(parent: &Path, name: &str) -> PathBuf {
    let folder = parent.join(name);
    std::fs::create_dir(&folder).expect("create the folder");
    std::fs::copy(
        root().join("protocols/worker/protocol.yaml"),
        folder.join("protocol.yaml"),
    )
    .expect("copy the protocol");
    folder
}

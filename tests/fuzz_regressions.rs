//! The fuzz targets' paths (`fuzz/src/lib.rs`, included as it is) run by
//! `cargo test`, without a nightly toolchain: on every input in
//! `protocols/fuzz/`, each one that once made a target crash, and on every
//! protocol under `protocols/`, the fuzzers' seeds. Each path asserts its
//! own properties (every span on the text, the JSON and SARIF reports are
//! JSON, a protocol without errors emits for every target and validates
//! against every type and tool), so a panic on any file is a failure.
//! `docs/fuzzing.md` says how a crash becomes a file here.

mod common;

#[path = "../fuzz/src/lib.rs"]
mod fuzz;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

/// The inputs under `protocols/fuzz/`, any extension (a reproducer that is
/// not text keeps its bytes in a `.bin`); none while no crash has been
/// found.
fn reproducers() -> Vec<PathBuf> {
    let dir = common::root().join("protocols/fuzz");
    if !dir.is_dir() {
        return Vec::new();
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("list protocols/fuzz")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

/// A fuzz target: its name and the path it drives.
type Target = (&'static str, fn(&[u8]));

const TARGETS: [Target; 6] = [
    ("check", fuzz::check),
    ("emit", fuzz::emit),
    ("validate", fuzz::validate),
    ("gen", fuzz::generate),
    ("diff", fuzz::diff),
    ("again", fuzz::again),
];

/// Runs every target on each file; the files and targets that panicked,
/// with the panic's message.
fn replay(files: &[PathBuf]) -> Vec<String> {
    let mut failures = Vec::new();
    for path in files {
        let bytes = std::fs::read(path).expect("read input");
        for (name, run) in TARGETS {
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| run(&bytes))) {
                let message = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)");
                failures.push(format!("{name} {}: {message}", common::display(path)));
            }
        }
    }
    failures
}

#[test]
fn fuzz_paths_hold_on_every_protocol_and_reproducer() {
    let mut files = common::yaml_files(&common::root().join("protocols"));
    assert!(files.len() >= 50, "only {} protocols", files.len());
    files.extend(reproducers());
    files.sort();
    files.dedup();
    let failures = replay(&files);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! Floods of problems: a file can hold millions (a generated protocol that
//! repeats a key on every line), and each is found, but agentc records at
//! most `MAX_DIAGNOSTICS` per file and counts the rest in one
//! `too-many-problems`, as severe as the worst of them, so memory stays
//! bounded and the exit code is what it would have been. Every format
//! answers the flood. How time and memory grow with a flood's size is
//! measured in `benches/check.rs` and written up in `docs/performance.md`;
//! these tests count, they do not time.

mod common;

use agentc::diagnostic::MAX_DIAGNOSTICS;
use agentc::{Code, Severity};

/// A protocol with `n` duplicates of one property key, then a misspelt
/// type that must still be read.
fn duplicates(n: usize) -> String {
    let mut text = String::from("types:\n  T:\n");
    for _ in 0..=n {
        text.push_str("    a: { type: string }\n");
    }
    text.push_str("  Last:\n    misspelt: { type: strng }\n");
    text
}

#[test]
fn a_flood_is_recorded_up_to_the_limit_and_counted_past_it() {
    let extra = 1_234;
    let compiled = common::compile_text(&duplicates(MAX_DIAGNOSTICS + extra));
    assert_eq!(compiled.diagnostics.len(), MAX_DIAGNOSTICS + 1);
    // The count comes first, at the top of the file.
    let first = &compiled.diagnostics[0];
    assert_eq!(first.code, Code::TooManyProblems);
    assert_eq!(first.severity, Severity::Error);
    assert_eq!(
        first.message,
        format!(
            "this file has {} more problems than agentc records (it stops at 100,000)",
            agentc::diagnostic::thousands(extra + 1)
        ),
        "the misspelt type is among those counted"
    );
    let duplicates = compiled
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::DuplicateKey)
        .count();
    assert_eq!(duplicates, MAX_DIAGNOSTICS);
}

#[test]
fn past_the_limit_warnings_are_counted_as_warnings() {
    // Property names that are not camelCase: warnings, so the count is a
    // warning and the run passes.
    let mut text = String::from("types:\n  T:\n");
    for i in 0..MAX_DIAGNOSTICS + 10 {
        text.push_str(&format!("    p_{i}: {{ type: string }}\n"));
    }
    let compiled = common::compile_text(&text);
    assert_eq!(compiled.count(Severity::Error), 0);
    let count = compiled
        .diagnostics
        .iter()
        .find(|d| d.code == Code::TooManyProblems)
        .expect("the count");
    assert_eq!(count.severity, Severity::Warning);
}

#[test]
fn every_format_answers_a_flood() {
    let dir = std::env::temp_dir().join(format!("agentc-flood-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let file = dir.join("flood.yaml");
    std::fs::write(&file, duplicates(MAX_DIAGNOSTICS + 10)).expect("write");
    let path = file.to_str().expect("utf-8 path");
    for format in ["human", "json", "short", "github", "sarif"] {
        let output = common::agentc(&["check", "--format", format, path]);
        assert_eq!(output.status.code(), Some(1), "{format}");
        let printed = common::stdout(&output);
        assert!(printed.contains("too-many-problems"), "{format}");
        if format == "json" {
            let report: serde_json::Value = serde_json::from_str(&printed).expect("JSON");
            assert_eq!(report["summary"]["errors"], MAX_DIAGNOSTICS + 1);
            assert_eq!(
                report["diagnostics"].as_array().map(Vec::len),
                Some(MAX_DIAGNOSTICS + 1)
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

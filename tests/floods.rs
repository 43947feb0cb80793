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
    let scratch = common::scratch("flood");
    let dir = scratch.path();
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
}

/// Runs `agentc validate` on `data` (written to a scratch file) against
/// `protocol`'s `--type T` with `extra` arguments; the JSON report.
fn validate(name: &str, protocol: &str, data: &str, extra: &[&str]) -> serde_json::Value {
    let scratch = common::scratch(&format!("flood-{name}"));
    let dir = scratch.path();
    std::fs::write(dir.join("types.yaml"), protocol).expect("write protocol");
    std::fs::write(dir.join("data.json"), data).expect("write data");
    let mut args = vec![
        "validate",
        "types.yaml",
        "--type",
        "T",
        "data.json",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(&args)
        .current_dir(dir)
        .output()
        .expect("run agentc");
    assert_eq!(output.status.code(), Some(1), "{}", common::stderr(&output));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

fn codes(report: &serde_json::Value) -> Vec<&str> {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default())
        .collect()
}

#[test]
fn one_value_with_a_flood_of_problems_is_reported_up_to_the_limit() {
    let protocol = "types:\n  T:\n    type: array\n    items: { type: string }\n";
    let data = format!("[{}1]", "1,".repeat(MAX_DIAGNOSTICS + 10));
    let report = validate("one-value", protocol, &data, &[]);
    let codes = codes(&report);
    assert_eq!(codes.len(), MAX_DIAGNOSTICS);
    assert_eq!(codes[0], "too-many-problems", "at the root, first");
    assert_eq!(
        report["diagnostics"][0]["message"],
        "this value has more problems than agentc reports (it stops at 100,000)"
    );
    assert!(codes[1..].iter().all(|c| *c == "type-mismatch"));
}

#[test]
fn json_lines_past_the_limit_are_only_counted() {
    // Each `{}` misses both properties: two problems a line.
    let protocol = "types:\n  T:\n    a: { type: string }\n    b: { type: string }\n";
    let lines = MAX_DIAGNOSTICS / 2 + 5;
    let report = validate("lines", protocol, &"{}\n".repeat(lines), &["--lines"]);
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics.len(), MAX_DIAGNOSTICS + 1);
    assert_eq!(
        diagnostics[0]["message"],
        "this file has at least 5 more problems than agentc records (it stops at 100,000)"
    );
}

#[test]
fn a_value_past_the_size_limit_is_refused_and_the_other_lines_validated() {
    let protocol = "types:\n  T:\n    a: { type: string }\n";
    let limit = agentc::validate::data::MAX_VALUE_BYTES;
    let huge = format!("{{\"a\": \"{}\"}}", "x".repeat(limit));
    let data = format!("{{\"a\": 1}}\n{huge}\n{{}}\n");
    let report = validate("too-large", protocol, &data, &["--lines"]);
    let found: Vec<(u64, &str)> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["line"].as_u64().unwrap_or(0),
                d["code"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (1, "type-mismatch"),
            (2, "value-too-large"),
            (3, "missing-property")
        ]
    );
}

#[test]
fn a_flood_of_duplicate_keys_is_recorded_up_to_the_limit_and_counted_past_it() {
    // One object repeating one key, then JSON Lines of repeats past the
    // file's limit: each found in one pass, recorded up to the limit.
    let protocol = "types:\n  T:\n    a: { type: string }\n";
    let extra = 7;
    let object = format!(
        "{{{}\"a\": \"x\"}}",
        "\"a\": \"x\", ".repeat(MAX_DIAGNOSTICS + extra)
    );
    let report = validate("duplicate-keys", protocol, &object, &[]);
    let codes = codes(&report);
    assert_eq!(codes.len(), MAX_DIAGNOSTICS + 1);
    assert_eq!(codes[0], "too-many-problems");
    assert!(codes[1..].iter().all(|c| *c == "duplicate-key"));
    assert_eq!(
        report["diagnostics"][0]["message"],
        format!("this file has {extra} more problems than agentc records (it stops at 100,000)")
    );
    // Past the limit a line that repeats a key still counts, valid or not.
    let lines = format!(
        "{}{}",
        "{\"a\": \"x\", \"a\": \"y\"}\n".repeat(MAX_DIAGNOSTICS),
        "{\"a\": \"x\", \"a\": \"y\"}\n".repeat(3)
    );
    let report = validate("duplicate-lines", protocol, &lines, &["--lines"]);
    assert_eq!(
        report["diagnostics"][0]["message"],
        "this file has at least 3 more problems than agentc records (it stops at 100,000)"
    );
}

#[test]
fn an_event_stream_of_duplicate_keys_is_bounded_too() {
    let event = format!(
        "data: {{{}\"event\": \"turn_start\"}}\n\n",
        "\"a\": 0, ".repeat(1_000)
    );
    let stream = event.repeat(150);
    let scratch = common::scratch("flood-sse");
    let dir = scratch.path();
    std::fs::write(dir.join("s.sse"), stream).expect("write stream");
    let output = common::agentc(&[
        "validate",
        "aap",
        "events",
        dir.join("s.sse").to_str().expect("utf-8"),
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let codes = codes(&report);
    assert_eq!(codes.len(), MAX_DIAGNOSTICS + 1);
    assert_eq!(codes[0], "too-many-problems");
}

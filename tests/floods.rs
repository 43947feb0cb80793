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
fn a_list_of_wrong_union_items_is_reported_up_to_the_limit() {
    // Each `{}` misses the union's discriminator. `jsonschema`'s own errors
    // explained both variants of each item, each error with its copy of
    // the item: 3.6 GB for 4 MiB of `{}`.
    let protocol = "types:\n  A:\n    kind: { type: string, const: a }\n  B:\n    kind: { type: string, const: b }\n  U:\n    anyOf: [A, B]\n    discriminator: kind\n  T:\n    items: { type: \"U[]\" }\n";
    let data = format!("{{\"items\":[{}{{}}]}}", "{},".repeat(MAX_DIAGNOSTICS + 10));
    let report = validate("union-items", protocol, &data, &[]);
    let codes = codes(&report);
    assert_eq!(codes.len(), MAX_DIAGNOSTICS);
    assert_eq!(codes[0], "too-many-problems");
    assert!(codes[1..].iter().all(|c| *c == "missing-property"));
}

#[test]
fn a_union_of_unions_is_explained_along_one_branch() {
    // Unions nested 24 deep: explaining every branch of every level is
    // 2^24 explanations for a value of 24 objects.
    let depth = 24;
    let mut protocol = String::from("types:\n");
    for i in 0..depth {
        let next = match i + 1 < depth {
            true => format!("U{}", i + 1),
            false => "string".to_string(),
        };
        for (variant, tag) in [("A", "a"), ("B", "b")] {
            protocol.push_str(&format!(
                "  {variant}{i}:\n    kind: {{ type: string, const: {tag} }}\n    v: {{ type: {next} }}\n"
            ));
        }
        protocol.push_str(&format!(
            "  U{i}:\n    anyOf: [A{i}, B{i}]\n    discriminator: kind\n"
        ));
    }
    protocol.push_str("  T:\n    v: { type: U0 }\n");
    let data = format!(
        "{{\"v\":{}1{}}}",
        "{\"kind\":\"a\",\"v\":".repeat(depth),
        "}".repeat(depth)
    );
    let report = validate("union-chain", &protocol, &data, &[]);
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(
        diagnostics[0]["message"],
        "expected string, found number `1`"
    );
    assert_eq!(diagnostics[0]["pointer"], "/v".repeat(depth + 1));
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

/// The heap of the thread that runs a test, now and at its peak: a test
/// that bounds what a flood costs counts bytes (never time), and only its
/// own thread's, whatever the other tests do at the same moment.
mod heap {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    struct Counting;

    #[global_allocator]
    static COUNTING: Counting = Counting;

    thread_local! {
        /// Bytes allocated by this thread and not freed, and the most there were.
        static HEAP: Cell<(i64, i64)> = const { Cell::new((0, 0)) };
    }

    fn add(bytes: i64) {
        let _ = HEAP.try_with(|heap| {
            let (now, peak) = heap.get();
            heap.set((now + bytes, peak.max(now + bytes)));
        });
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's contract, passed on to the system's.
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() {
                add(layout.size() as i64);
            }
            p
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: as above.
            unsafe { System.dealloc(ptr, layout) };
            add(-(layout.size() as i64));
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: as above.
            let p = unsafe { System.realloc(ptr, layout, new_size) };
            if !p.is_null() {
                add(new_size as i64 - layout.size() as i64);
            }
            p
        }
    }

    /// What `f` returns, and the most bytes this thread held on the heap
    /// while it ran, beyond what it held before.
    pub fn peak<T>(f: impl FnOnce() -> T) -> (T, usize) {
        let start = HEAP.with(|heap| {
            let (now, _) = heap.get();
            heap.set((now, now));
            now
        });
        let out = f();
        let peak = HEAP.with(|heap| heap.get().1);
        (out, (peak - start).max(0) as usize)
    }
}

/// The heap one `agentc validate aap events` of `stream` takes at its
/// peak, per byte of the stream, and the codes it reports.
fn events_heap(stream: &str) -> (Vec<Code>, usize) {
    use agentc::validate::aap::{self, AapValidator, Kind};
    let validator = AapValidator::new(Kind::Events).expect("the AAP schema");
    let source = agentc::Source::new("s.sse", stream);
    let (diagnostics, bytes) = heap::peak(|| aap::check_events(&validator, &source, None));
    let codes = diagnostics.iter().map(|d| d.code).collect();
    (codes, bytes / stream.len())
}

/// An event stream costs at most 20 bytes of memory per byte (the issue's
/// bound), whatever floods it: of those, the process itself takes about 12
/// MB (4 bytes a byte of the 3 MiB streams here), which leaves 16 for the
/// heap. A flood of 100,000 problems was held twice (listed by the walk,
/// then as the file's diagnostics), in lists a third longer than what they
/// held, each problem with its own copy of a fixed help text: 22 bytes a
/// byte of three 1 MiB `tool_result` events.
#[test]
fn an_event_stream_flood_is_held_once() {
    let blocks = format!(
        "data: {{\"event\":\"tool_result\",\"toolCallId\":\"c\",\"content\":[{}[]]}}\n\n",
        "[],".repeat(MIB / 3)
    );
    let keys = format!(
        "data: {{{}\"event\":\"turn_start\"}}\n\n",
        "\"a\":0,".repeat(MIB / 6)
    );
    for (name, stream, code) in [
        ("wrong blocks", blocks.repeat(3), Code::TypeMismatch),
        ("repeated keys", keys.repeat(3), Code::DuplicateKey),
    ] {
        let (codes, per_byte) = events_heap(&stream);
        assert_eq!(codes.len(), MAX_DIAGNOSTICS + 1, "{name}");
        assert_eq!(codes[0], Code::TooManyProblems, "{name}");
        let flood = codes.iter().filter(|c| **c == code).count();
        assert!(flood >= MAX_DIAGNOSTICS - 10, "{name}: {flood} of {code:?}");
        eprintln!("{name}: {per_byte} bytes a byte");
        assert!(per_byte <= 16, "{name}: {per_byte} bytes of heap a byte");
    }
}

const MIB: usize = 1 << 20;

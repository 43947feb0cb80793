//! Input built to exhaust agentc: each of the YAML layer's limits is met by
//! a generated file just past it, which must be answered with the limit's
//! own diagnostic, at its place, with the work bounded (the tree stays
//! small, the rest of the file is still checked). The time each case takes
//! in a release build is in `docs/performance.md`; tests count work, they
//! do not time it.

mod common;

use agentc::yaml::{MAX_ALIAS_NODES, MAX_DEPTH, MAX_SCALAR_BYTES};
use agentc::{Code, Compilation};

/// The codes reported, in order.
fn codes(compiled: &Compilation) -> Vec<Code> {
    compiled.diagnostics.iter().map(|d| d.code).collect()
}

/// How many times `code` is reported.
fn count(compiled: &Compilation, code: Code) -> usize {
    compiled
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .count()
}

/// The file is still read past the hostile part: the misspelt type in the
/// last type, `Last`, is reported.
fn assert_rest_is_read(compiled: &Compilation, text: &str) {
    assert_eq!(
        line(compiled, Code::UnknownType),
        line_of(text, "misspelt"),
        "{:?}",
        codes(compiled)
    );
}

/// The 1-based line of `code`'s first report.
fn line(compiled: &Compilation, code: Code) -> usize {
    let diagnostic = compiled
        .diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code} in {:?}", codes(compiled)));
    compiled
        .source
        .position(diagnostic.span.start as usize)
        .line
}

/// The 1-based line of the first line of `text` containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("`{needle}` is not in the text"))
}

/// A valid protocol ending with a type `Last`, which must still be read
/// after whatever hostile text comes before it.
fn with_last_type(hostile_types: &str) -> String {
    format!(
        "types:\n{hostile_types}  Last:\n    misspelt: {{ type: strng }}\n\n\
         agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n"
    )
}

#[test]
fn a_billion_laughs_is_cut_at_the_alias_budget() {
    // Ten levels of ten aliases each: 10^10 nodes if expanded.
    let mut types =
        String::from("  Laughs:\n    l0: &l0 { description: [x, x, x, x, x, x, x, x, x, x] }\n");
    for i in 1..10 {
        let refs = vec![format!("*l{}", i - 1); 10].join(", ");
        types.push_str(&format!("    l{i}: &l{i} {{ description: [{refs}] }}\n"));
    }
    let text = with_last_type(&types);
    let compiled = common::compile_text(&text);
    assert_eq!(
        count(&compiled, Code::AliasLimit),
        1,
        "{:?}",
        codes(&compiled)
    );
    // Reported once, at the first alias past the budget: on a line of
    // aliases, long before the 10^10 nodes of `l9`.
    let reported = line(&compiled, Code::AliasLimit);
    const { assert!(MAX_ALIAS_NODES < 10_000_000_000) };
    assert!((line_of(&text, "l1:")..=line_of(&text, "l9:")).contains(&reported));
    assert_rest_is_read(&compiled, &text);
}

#[test]
fn deep_nesting_stops_at_the_depth_limit() {
    // Block mappings ten times deeper than the limit.
    let deep: String = (0..MAX_DEPTH * 10)
        .map(|depth| format!("{}k:\n", "  ".repeat(depth + 2)))
        .collect();
    let text = with_last_type(&format!("  Deep:\n{deep}"));
    let compiled = common::compile_text(&text);
    assert_eq!(count(&compiled, Code::NestingLimit), 1);
    // The root, `types` and `Deep` open three levels, and the value of the
    // `k:` on line n is level n + 1; a block mapping starts at its first
    // key, so the level past the limit starts on line MAX_DEPTH + 1.
    assert_eq!(line(&compiled, Code::NestingLimit), MAX_DEPTH + 1);
    assert_rest_is_read(&compiled, &text);
}

#[test]
fn a_huge_value_is_reported_and_read_as_empty() {
    let huge = "x".repeat(MAX_SCALAR_BYTES + 1);
    let types = format!("  Note:\n    text:\n      type: string\n      description: {huge}\n");
    let text = with_last_type(&types);
    let compiled = common::compile_text(&text);
    assert_eq!(line(&compiled, Code::ScalarTooLarge), 5);
    assert_rest_is_read(&compiled, &text);
    let message = &compiled.diagnostics[0].message;
    assert!(message.contains("1024 KiB"), "{message}");
    // The diagnostic points at the value's first character, not across a
    // megabyte of it.
    assert_eq!(compiled.diagnostics[0].span.len(), 1);
    // A huge key is one too; at the limit it is read.
    let at_limit = format!(
        "  {}:\n    a: {{ type: string }}\n",
        "K".repeat(MAX_SCALAR_BYTES)
    );
    let compiled = common::compile_text(&with_last_type(&at_limit));
    assert!(!codes(&compiled).contains(&Code::ScalarTooLarge));
    let over = format!(
        "  {}:\n    a: {{ type: string }}\n",
        "K".repeat(MAX_SCALAR_BYTES + 1)
    );
    let compiled = common::compile_text(&with_last_type(&over));
    assert_eq!(line(&compiled, Code::ScalarTooLarge), 2);
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_it_is_parsed() {
    let limit = agentc::source::MAX_FILE_BYTES;
    // Text that would be a valid protocol, padded past the limit with a
    // comment: the size alone decides.
    let mut text = with_last_type("");
    text.push('#');
    text.push_str(&"x".repeat(limit + 1 - text.len()));
    let compiled = agentc::compile("big.yaml", text.into_bytes());
    assert_eq!(codes(&compiled), [Code::FileTooLarge]);
    assert!(compiled.model.is_none());
}

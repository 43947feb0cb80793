//! Input built to exhaust agentc: each of the YAML layer's limits is met by
//! a generated file just past it, which must be answered with the limit's
//! own diagnostic, at its place, with the work bounded (the tree stays
//! small, the rest of the file is still checked). The time each case takes
//! in a release build is in `docs/performance.md`; tests count work, they
//! do not time it. Last, the human format is run on lines too long for any
//! terminal: it must draw a bounded excerpt of them, not panic.

mod common;

use agentc::yaml::{MAX_ALIAS_NODES, MAX_DEPTH, MAX_SCALAR_BYTES};
use agentc::{Code, FileReport};

/// The codes reported, in order.
fn codes(compiled: &FileReport) -> Vec<Code> {
    compiled.diagnostics.iter().map(|d| d.code).collect()
}

/// How many times `code` is reported.
fn count(compiled: &FileReport, code: Code) -> usize {
    compiled
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .count()
}

/// The file is still read past the hostile part: the misspelt type in the
/// last type, `Last`, is reported.
fn assert_rest_is_read(compiled: &FileReport, text: &str) {
    assert_eq!(
        line(compiled, Code::UnknownType),
        line_of(text, "misspelt"),
        "{:?}",
        codes(compiled)
    );
}

/// The 1-based line of `code`'s first report.
fn line(compiled: &FileReport, code: Code) -> usize {
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

// The human format draws a bounded excerpt of any line: long lines are cut
// down to windows around the spans, and long names in messages to their
// ends. The real binary is run on each file, as a person would.

/// The widest line the human format may print, in characters.
const WIDEST: usize = 400;

/// A folder of files for one test, removed when dropped.
struct Folder(tempfile::TempDir);

impl Folder {
    fn new(name: &str, files: &[(&str, &str)]) -> Folder {
        let dir = common::scratch(&format!("hostile-{name}"));
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("create folder");
            std::fs::write(path, text).expect("write file");
        }
        Folder(dir)
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        common::agentc_in(self.0.path(), args)
    }
}

/// Checks `file` (in its own folder, with `agentc.toml` if given) in the
/// human format: the exit code is `code`, nothing panicked, no line is wider
/// than `WIDEST`, and each problem's frame is headed by the line and column
/// `--format short` gives it. Every other format answers with the same exit
/// code, and JSON and SARIF parse.
fn assert_drawn_bounded(name: &str, file: &str, config: Option<&str>, code: i32) {
    let mut files = vec![("p.yaml", file)];
    files.extend(config.map(|c| ("agentc.toml", c)));
    let folder = Folder::new(name, &files);
    let human = folder.run(&["check", "p.yaml"]);
    let (out, err) = (common::stdout(&human), common::stderr(&human));
    assert_eq!(human.status.code(), Some(code), "{name}: {err:.2000}");
    assert!(!err.contains("panicked"), "{name}: {err:.2000}");
    for line in out.lines().chain(err.lines()) {
        let width = line.chars().count();
        assert!(
            width <= WIDEST,
            "{name}: a line of {width} characters: {line:.300}"
        );
    }
    // The other formats carry the lines whole, and answer the same.
    for format in ["json", "sarif", "short", "github"] {
        let output = folder.run(&["check", "--format", format, "p.yaml"]);
        let err = common::stderr(&output);
        assert_eq!(
            output.status.code(),
            Some(code),
            "{name} {format}: {err:.2000}"
        );
        assert!(!err.contains("panicked"), "{name} {format}: {err:.2000}");
        if matches!(format, "json" | "sarif") {
            let parsed = serde_json::from_slice::<serde_json::Value>(&output.stdout);
            assert!(parsed.is_ok(), "{name} {format}: not JSON");
        }
    }
    let short = common::stdout(&folder.run(&["check", "--format", "short", "p.yaml"]));
    let places: Vec<&str> = short.lines().filter_map(|l| l.split(": ").next()).collect();
    assert!(!places.is_empty(), "{name}: {short:.2000}");
    for place in places {
        assert!(
            out.contains(&format!("[{place}]")),
            "{name}: no [{place}] in {out:.4000}"
        );
    }
}

#[test]
fn the_human_format_draws_long_lines_around_the_spans() {
    let x = "x".repeat(70_000);
    let cases: Vec<(&str, String)> = vec![
        (
            "70000-columns",
            format!("types:\n  T:\n    a: {{ description: \"{x}\", type: strng }}\n"),
        ),
        (
            "wide-characters",
            format!(
                "types:\n  T:\n    a: {{ description: \"{}\", type: strng }}\n",
                "漢".repeat(300_000)
            ),
        ),
        (
            "megabyte-name",
            format!(
                "types:\n  T:\n    a: {{ type: {} }}\n",
                "S".repeat(1_000_000)
            ),
        ),
        ("column-1", format!("bogus: {x}\n")),
        (
            "end-of-file",
            format!("types:\n  T:\n    a: {{ type: string, description: {x}"),
        ),
        (
            "crlf",
            format!("types:\r\n  T:\r\n    a: {{ description: \"{x}\", type: strng }}\r\n"),
        ),
        (
            "lone-cr",
            format!("types:\r  T:\r    a: {{ description: \"{x}\", type: strng }}\r"),
        ),
        (
            "two-labels-one-line",
            format!(
                "types:\n  T:\n    a: {{ type: string, description: \"{x}\", type: number }}\n"
            ),
        ),
        (
            "label-on-another-line",
            format!(
                "types:\n  T:\n    a: {{ type: string, description: \"{x}\" }}\n    a: {{ type: number, description: \"{x}\" }}\n"
            ),
        ),
    ];
    for (name, text) in &cases {
        assert_drawn_bounded(name, text, None, 1);
    }
}

#[test]
fn the_human_format_draws_a_long_line_of_agentc_toml_around_the_span() {
    let config = format!("targets = [{}\"open-ai\"]\n", "\"openai\", ".repeat(10_000));
    assert!(config.len() > 100_000);
    let protocol = "types:\n  T:\n    a: { type: string }\n";
    assert_drawn_bounded("config", protocol, Some(&config), 2);
}

/// The patched parser (`vendor/saphyr-parser/PATCHES.md`) gives up on a
/// flow collection being an implicit key after 1,024 characters, so it no
/// longer queues every token of a long flow collection until its closing
/// bracket: the first item comes out after the parser has read about a
/// kilobyte of a million-item list, not the whole of it. Upstream read all
/// 2 MB first (16 MiB of `[1,1,...]` held 2.9 GB).
#[test]
fn a_long_flow_collection_is_parsed_as_it_is_read() {
    use saphyr_parser::{BufferedInput, Event, Parser};
    use std::cell::Cell;
    use std::rc::Rc;
    // Each text, and the scalar that is its collection's first item.
    for (text, first_item) in [
        (format!("[{}1]\n", "1,".repeat(1_000_000)), 1),
        (format!("types: {{{}a}}\n", "a,".repeat(1_000_000)), 2),
    ] {
        let read = Rc::new(Cell::new(0usize));
        let counted = {
            let read = Rc::clone(&read);
            text.chars().inspect(move |_| read.set(read.get() + 1))
        };
        let mut parser = Parser::new(BufferedInput::new(counted));
        let mut scalars = 0;
        while scalars < first_item {
            match parser.next_event() {
                Some(Ok((Event::Scalar(..), _))) => scalars += 1,
                Some(Ok(_)) => {}
                other => panic!("no scalar: {other:?}"),
            }
        }
        assert!(
            read.get() < 4 * 1024,
            "{} characters read before the first item of a {}-character text",
            read.get(),
            text.len()
        );
    }
    // A key longer than 1,024 characters, which YAML does not allow, is a
    // syntax error rather than a key.
    let long_key = format!("[{}1]: value\n", "1,".repeat(600));
    let compiled = common::compile_text(&long_key);
    assert_eq!(codes(&compiled), [Code::YamlSyntax]);
}

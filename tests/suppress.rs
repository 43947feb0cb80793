//! Inline suppressions, `# agentc-ignore: CODE reason`: the fixtures under
//! `protocols/suppress/` (one where every form silences what it names, one
//! with every kind of bad suppression) as snapshots of their renderings;
//! the fixes of the suppression warnings; the examples in their
//! explanations; and properties over random text: no panic, every new span
//! inside the text, and nothing silenced that no suppression names.

mod common;

use agentc::config::suppress;
use agentc::render::{human, short};
use agentc::{Code, Diagnostic, FileReport, Span};
use proptest::prelude::*;
use std::path::Path;

fn suppressed(path: &Path) -> FileReport {
    let mut compilation = common::compile(path);
    suppress::apply(&mut compilation);
    compilation
}

fn is_suppression_code(code: Code) -> bool {
    matches!(
        code,
        Code::InvalidSuppression | Code::SuppressionWithoutReason | Code::UnusedSuppression
    )
}

#[test]
fn every_form_silences_what_it_names() {
    let path = common::root().join("protocols/suppress/forms.yaml");
    let compiled = common::compile(&path);
    let codes: Vec<&str> = compiled.diagnostics.iter().map(|d| d.code.name()).collect();
    // What the comments are there to silence, so the test below can fail.
    for code in ["property-name-case", "unknown-type", "duplicate-enum-value"] {
        assert!(
            codes.contains(&code),
            "forms.yaml reports no {code}: {codes:?}"
        );
    }
    let checked = suppressed(&path);
    assert_eq!(
        short::render(std::slice::from_ref(&checked)),
        "",
        "forms.yaml must check clean once suppressed"
    );
}

#[test]
fn suppression_snapshots() {
    let dir = common::root().join("protocols/suppress");
    let fixtures = common::files(&dir, "yaml");
    assert!(fixtures.len() >= 2, "no fixtures in {}", dir.display());
    common::snapshot_settings().bind(|| {
        for path in fixtures {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("fixture name");
            let checked = suppressed(&path);
            insta::assert_snapshot!(
                format!("suppress-{stem}"),
                short::render(std::slice::from_ref(&checked))
            );
            // The human rendering shows the helps, notes and fixes too.
            insta::assert_snapshot!(
                format!("suppress-{stem}.human"),
                human::render(&checked, human::Style::Plain)
            );
        }
    });
}

/// The text with one fix's edits made.
fn with_fix(text: &str, diagnostic: &Diagnostic) -> String {
    let fix = diagnostic
        .fix
        .as_ref()
        .unwrap_or_else(|| panic!("no fix for {diagnostic:?}"));
    let mut edits = fix.edits.clone();
    edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    let mut text = text.to_string();
    for edit in edits {
        text.replace_range(edit.span.range(), &edit.text);
    }
    text
}

#[test]
fn fixes_leave_text_with_no_suppression_warnings() {
    let text = "\
types:
  Ticket:
    # agentc-ignore: property-name-cas the backend's column name
    owner_id: { type: string }
    # agentc-ignore: deprecated, property-name-case the backend's column name
    created_at: { type: string }
    # agentc-ignore: property-name-case, deprecated the backend's column name
    closed_at: { type: string }
    # agentc-ignore: deprecated no longer needed
    title: { type: string }
    status: { type: string } # agentc-ignore: deprecated no longer needed
    # agentc-ignore property-name-case the importer's name
    merged_at: { type: string }
# agentc-ignore: deprecated nothing follows";
    let fixed = "\
types:
  Ticket:
    # agentc-ignore: property-name-case the backend's column name
    owner_id: { type: string }
    # agentc-ignore: property-name-case the backend's column name
    created_at: { type: string }
    # agentc-ignore: property-name-case the backend's column name
    closed_at: { type: string }
    title: { type: string }
    status: { type: string }
    # agentc-ignore: property-name-case the importer's name
    merged_at: { type: string }";
    let mut text = text.to_string();
    let mut fixes = 0;
    loop {
        let mut compilation = common::compile_text(&text);
        suppress::apply(&mut compilation);
        let Some(warning) = compilation
            .diagnostics
            .iter()
            .find(|d| is_suppression_code(d.code))
        else {
            assert_eq!(short::render(std::slice::from_ref(&compilation)), "");
            break;
        };
        text = with_fix(&text, warning);
        fixes += 1;
        assert!(fixes <= 10, "the fixes do not converge:\n{text}");
    }
    assert_eq!(fixes, 7);
    assert_eq!(text, fixed);
}

/// The first YAML block after `heading` in a code's explanation.
fn yaml_after<'a>(explanation: &'a str, heading: &str) -> &'a str {
    let (_, after) = explanation
        .split_once(heading)
        .unwrap_or_else(|| panic!("no {heading}"));
    let (_, block) = after.split_once("```yaml\n").expect("a yaml block");
    block.split_once("```").expect("a closed block").0
}

#[test]
fn the_explanations_examples_report_their_code_and_their_fixes_nothing() {
    for code in [
        Code::InvalidSuppression,
        Code::SuppressionWithoutReason,
        Code::UnusedSuppression,
    ] {
        let check = |text: &str| {
            let mut compilation = common::compile_text(text);
            suppress::apply(&mut compilation);
            let codes: Vec<Code> = compilation.diagnostics.iter().map(|d| d.code).collect();
            codes
        };
        let example = check(yaml_after(code.explanation(), "## Example"));
        assert!(
            example.contains(&code),
            "{code}: the example reports {example:?}"
        );
        let fixed = check(yaml_after(code.explanation(), "## Fix"));
        assert!(
            !fixed.iter().any(|c| is_suppression_code(*c)),
            "{code}: the fix reports {fixed:?}"
        );
    }
}

/// Pieces random text is made of: suppressions, codes, quotes, blanks and
/// line breaks of each kind, non-ASCII characters, YAML punctuation.
const PIECES: &[&str] = &[
    "# agentc-ignore: ",
    "#agentc-ignore:",
    "agentc-ignore",
    ":",
    "#",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "'",
    "''",
    "\"",
    "\\\"",
    "é",
    "😀",
    "\u{a0}",
    "property-name-case",
    "deprecated",
    "unknown-type",
    "yaml-syntax",
    "unused-suppression",
    "propery-name-case",
    ",",
    ", ",
    "reason",
    "key: ",
    "a_b: 1",
    "- ",
    "|",
    ">-",
    "  ",
    "[",
    "{",
];

const PLANTED: &[Code] = &[
    Code::PropertyNameCase,
    Code::Deprecated,
    Code::UnknownType,
    Code::YamlSyntax,
    Code::DuplicateEnumValue,
];

/// Whole lines, so that lines without a `#` lie between suppressions and
/// the diagnostics they must not reach.
const LINES: &[&str] = &[
    "types:",
    "  Ticket:",
    "    a_b: { type: string }",
    "    c: 'it''s # agentc-ignore: deprecated x'",
    "    # agentc-ignore: property-name-case why",
    "    # agentc-ignore: deprecated, unknown-type why",
    "    # agentc-ignore: deprecated",
    "    d: |",
    "      # agentc-ignore: unknown-type text",
    "    e_f: 1 # agentc-ignore: property-name-case, yaml-syntax why",
    "    # plain comment",
    "",
    "  ",
];

fn text() -> impl Strategy<Value = String> {
    let line_break = prop::sample::select(&["\n", "\r\n", "\r"][..]);
    prop_oneof![
        prop::collection::vec(prop::sample::select(PIECES), 0..48).prop_map(|p| p.concat()),
        "[ -~\t\r\né😀]{0,120}",
        prop::collection::vec((prop::sample::select(LINES), line_break), 0..24).prop_map(|lines| {
            lines
                .into_iter()
                .map(|(line, end)| format!("{line}{end}"))
                .collect()
        }),
    ]
}

fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset % (text.len() + 1);
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn on_boundaries(text: &str, span: Span) -> bool {
    span.end as usize <= text.len()
        && text.is_char_boundary(span.start as usize)
        && text.is_char_boundary(span.end as usize)
}

/// Whether a suppression naming `code` could cover `line` (1-based): a line
/// at or above it holds `agentc-ignore` and the code's name, and every
/// line between them holds a `#`.
fn named_above(compilation: &FileReport, code: Code, line: usize) -> bool {
    let source = &compilation.source;
    (1..=line).rev().any(|above| {
        let text = source.line_text(above);
        text.contains("agentc-ignore")
            && text.contains(code.name())
            && (above + 1..line).all(|between| source.line_text(between).contains('#'))
    })
}

proptest! {
    #[test]
    fn apply_keeps_spans_in_the_text_and_silences_only_what_is_named(
        text in text(),
        planted in prop::collection::vec((any::<usize>(), 0usize..12, prop::sample::select(PLANTED)), 0..8),
        with_model in any::<bool>(),
    ) {
        let mut compilation = agentc::compile("random.yaml", text.as_bytes());
        if with_model && compilation.model.is_none() {
            // `apply` reads the model only to know whether to judge unused
            // suppressions; any model will do.
            compilation.model = agentc::compile("m.yaml", b"types: {}\n").model;
            prop_assert!(compilation.model.is_some());
        }
        for (i, &(at, len, code)) in planted.iter().enumerate() {
            let start = floor_boundary(&text, at);
            let end = floor_boundary(&text, (start + len).min(text.len()));
            let message = format!("planted {i}");
            compilation.diagnostics.push(Diagnostic::new(code, Span::new(start, end), message));
        }
        let before = compilation.diagnostics.clone();
        suppress::apply(&mut compilation);

        let mut left = compilation.diagnostics.clone();
        for d in &before {
            match left.iter().position(|kept| kept == d) {
                Some(found) => {
                    left.remove(found);
                }
                None => {
                    let line = compilation.source.position(d.span.start as usize).line;
                    prop_assert!(
                        named_above(&compilation, d.code, line),
                        "{} on line {line} silenced, but no suppression names it", d.code
                    );
                }
            }
        }
        for added in &left {
            prop_assert!(is_suppression_code(added.code), "added {added:?}");
            prop_assert!(on_boundaries(&text, added.span), "{added:?}");
            let edits = added.fix.iter().flat_map(|fix| &fix.edits);
            for edit in edits {
                prop_assert!(on_boundaries(&text, edit.span), "{edit:?}");
            }
            if !with_model && compilation.model.is_none() {
                prop_assert_ne!(added.code, Code::UnusedSuppression);
            }
        }
        let starts: Vec<u32> = compilation.diagnostics.iter().map(|d| d.span.start).collect();
        prop_assert!(starts.is_sorted(), "not in source order");
    }
}

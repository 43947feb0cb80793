//! Properties of the whole pipeline over generated input: no input makes it
//! panic, every span it reports lies on the text, rendering never fails, a
//! cycle is reported exactly when the type graph has one, and whatever
//! compiles without errors emits schemas that pass the 2020-12 metaschema,
//! and every target emits and checks it without a panic.

mod common;

use agentc::render::{human, json};
use agentc::{Code, FileReport};
use proptest::prelude::*;

fn assert_well_formed(compiled: &FileReport) {
    let text = compiled.source.text();
    for d in &compiled.diagnostics {
        let spans = std::iter::once(d.span).chain(d.labels.iter().map(|l| l.span));
        for span in spans {
            assert!(
                span.start <= span.end && span.end as usize <= text.len(),
                "{span} outside the text"
            );
            assert!(
                text.is_char_boundary(span.start as usize)
                    && text.is_char_boundary(span.end as usize)
            );
        }
    }
    human::render(compiled, human::Style::Plain);
    json::render(std::slice::from_ref(compiled));
    if let (Some(model), false) = (&compiled.model, compiled.has_errors()) {
        let schema = agentc::emit::emit_all(model);
        assert!(jsonschema::meta::is_valid(&schema), "{schema:#}");
        // Every target emits, and checks, without a panic; spans stay on
        // the text.
        for target in agentc::emit::Target::ALL {
            let mut diags = agentc::Diagnostics::default();
            let emitted =
                agentc::emit::emit(model, target, agentc::emit::Selection::All, &mut diags);
            assert!(emitted.is_ok(), "{}", target.name());
            agentc::emit::check(model, target, &mut diags);
            for d in diags.into_vec() {
                assert!(
                    d.span.end as usize <= text.len(),
                    "{} outside the text",
                    d.span
                );
            }
        }
    }
}

/// Text made of what YAML reads specially, so the generator reaches the
/// parser's corners rather than plain scalars.
fn yamlish() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "types:",
        "\n",
        "  ",
        "- ",
        ": ",
        "{",
        "}",
        "[",
        "]",
        ", ",
        "&a ",
        "*a",
        "!!str ",
        "'",
        "\"",
        "#",
        "|",
        ">",
        "---\n",
        "? ",
        "type: ",
        "string[]",
        "anyOf",
        "Foo",
        "é",
        "\t",
        "optional: true",
        "items:",
        "\\",
    ]);
    prop::collection::vec(atoms, 0..60).prop_map(|parts| parts.concat())
}

/// Text made of what prompt templates and JSON read specially.
fn templateish() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "{{",
        "}}",
        "#if ",
        "else",
        "else if ",
        "/if",
        "@",
        "shared/",
        ".md",
        "USER_MESSAGE",
        "PLAN",
        "==",
        "!=",
        "\"",
        "!",
        ".",
        " ",
        "\n",
        "é",
        "{",
        "}",
        ":",
        ",",
        "[",
        "]",
        "\"slug\"",
        "\"format\"",
        "\"worker\"",
        "---\n",
        "description: ",
    ]);
    prop::collection::vec(atoms, 0..60).prop_map(|parts| parts.concat())
}

/// The example agent folder, with its settings, one prompt and one reference
/// replaced by generated text.
fn edited_agent(settings: &str, prompt: &str, reference: &str) -> agentc::agent::AgentFiles {
    use agentc::agent::{File, Named};
    let dir = common::root().join("protocols/shop-assistant");
    let mut files = agentc::disk::load_agent(&dir);
    files.settings = Some(File::new("settings.json", settings.as_bytes()));
    files.prompts.push(Named {
        name: "generated".to_string(),
        file: File::new("prompts/generated.md", prompt.as_bytes()),
    });
    if let Some(first) = files.prompts.first_mut() {
        first.file = File::new("prompts/edited.md", prompt.as_bytes());
    }
    files.references.push(Named {
        name: "generated".to_string(),
        file: File::new("references/generated.md", reference.as_bytes()),
    });
    files
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn agent_folders_with_generated_files_never_panic(
        settings in templateish(), prompt in templateish(), reference in templateish()
    ) {
        for compiled in agentc::agent::check(edited_agent(&settings, &prompt, &reference)) {
            assert_well_formed(&compiled);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        assert_well_formed(&agentc::compile("fuzz.yaml", bytes.as_slice()));
    }

    #[test]
    fn yaml_shaped_text_never_panics(text in yamlish()) {
        assert_well_formed(&common::compile_text(&text));
    }

    #[test]
    fn edits_of_a_real_protocol_never_panic(
        start in 0usize..6000, len in 0usize..40, insert in yamlish()
    ) {
        let path = common::root().join("protocols/shop-assistant/protocol.yaml");
        let original = std::fs::read(&path).expect("read the example protocol");
        let start = start.min(original.len());
        let end = (start + len).min(original.len());
        let mut edited = original[..start].to_vec();
        edited.extend_from_slice(insert.as_bytes());
        edited.extend_from_slice(&original[end..]);
        assert_well_formed(&agentc::compile("edited.yaml", edited.as_slice()));
    }

    /// Types T0..Tn with random references between them: `circular-type` is
    /// reported once per cyclic group, exactly when there is a cycle.
    #[test]
    fn cycles_are_reported_exactly_when_present(
        n in 1usize..7,
        edges in prop::collection::vec((0usize..7, 0usize..7, any::<bool>()), 0..12)
    ) {
        let edges: Vec<(usize, usize, bool)> = edges.into_iter().filter(|&(a, b, _)| a < n && b < n).collect();
        let mut text = String::from("types:\n");
        for i in 0..n {
            text.push_str(&format!("  T{i}:\n    id:\n      type: string\n"));
            for (k, &(from, to, list)) in edges.iter().enumerate() {
                if from == i {
                    let ty = if list { format!("'T{to}[]'") } else { format!("T{to}") };
                    text.push_str(&format!("    ref{k}:\n      type: {ty}\n"));
                }
            }
        }
        let compiled = common::compile_text(&text);
        assert_well_formed(&compiled);
        let reported = compiled.diagnostics.iter().filter(|d| d.code == Code::CircularType).count();
        prop_assert_eq!(reported, cyclic_groups(n, &edges));
        prop_assert_eq!(compiled.has_errors(), reported > 0);
    }
}

/// The number of strongly connected components with a cycle, by brute force
/// (reachability), independent of the petgraph code under test.
fn cyclic_groups(n: usize, edges: &[(usize, usize, bool)]) -> usize {
    let mut reach = vec![vec![false; n]; n];
    for &(a, b, _) in edges {
        reach[a][b] = true;
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if reach[i][k] && reach[k][j] {
                    reach[i][j] = true;
                }
            }
        }
    }
    let on_cycle: Vec<usize> = (0..n).filter(|&i| reach[i][i]).collect();
    // Count groups by their smallest member.
    on_cycle
        .iter()
        .filter(|&&i| {
            !on_cycle
                .iter()
                .any(|&j| j < i && reach[i][j] && reach[j][i])
        })
        .count()
}

/// Text made of what a plain scalar may hold or end at: words, blanks,
/// line breaks of both kinds, indentation, comments, flow indicators and
/// document markers, so plain scalars run over lines and get folded.
fn plainish() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "word", "a b", " ", "  ", "\t", "\n", "\r\n", "\n  ", "\n\n", ": ", "- ", "#", " #c", "é",
        "日本", "{", "}", "[", "]", ", ", "?", "---", "...", "'", "\"", "k: ", "\0",
    ]);
    prop::collection::vec(atoms, 0..50).prop_map(|parts| parts.concat())
}

/// What saphyr-parser reads from `text`, event by event with its span, or
/// the error it stops at: read from the `str` (where the vendored parser
/// borrows plain scalars) when `borrowing`, else from its characters one by
/// one (where it copies every scalar, as upstream does).
fn saphyr_events(text: &str, borrowing: bool) -> Vec<String> {
    let parser: Box<dyn Iterator<Item = _>> = if borrowing {
        Box::new(saphyr_parser::Parser::new_from_str(text))
    } else {
        Box::new(saphyr_parser::Parser::new_from_iter(text.chars()))
    };
    parser
        .take(10_000)
        .map(|event| format!("{event:?}"))
        .collect()
}

/// vendor/saphyr-parser/PATCHES.md: a plain scalar on one line is a slice
/// of the text, not a copy.
#[test]
fn a_plain_scalar_on_one_line_is_borrowed_from_the_text() {
    use saphyr_parser::{Event, Parser};
    use std::borrow::Cow;
    let text = "types:\n  Order:\n    id: { type: string, description: The order's id }\n    folded: two\n      lines\n";
    let mut scalars = Vec::new();
    for event in Parser::new_from_str(text) {
        if let Ok((Event::Scalar(value, ..), _)) = event {
            scalars.push((value.to_string(), matches!(value, Cow::Borrowed(_))));
        }
    }
    let borrowed = |s: &str| (s.to_string(), true);
    assert_eq!(
        scalars,
        [
            borrowed("types"),
            borrowed("Order"),
            borrowed("id"),
            borrowed("type"),
            borrowed("string"),
            borrowed("description"),
            borrowed("The order's id"),
            borrowed("folded"),
            ("two lines".to_string(), false),
        ]
    );
}

/// Plain scalars longer than the parser reads at a time (a buffer of 128
/// characters), on one line and folded over lines, with multi-byte
/// characters, in block and flow collections, read the same borrowed as
/// copied; the one on one line is borrowed.
#[test]
fn long_plain_scalars_read_the_same_borrowed_as_copied() {
    use saphyr_parser::{Event, Parser};
    use std::borrow::Cow;
    let words = "word é 日本 ".repeat(2_000);
    let words = words.trim_end();
    let texts = [
        format!("key: {words}\n"),
        format!("key: {words}\n  {words}\n"),
        format!("- {}\n", "x".repeat(70_000)),
        format!("{{a: {words}}}\n"),
    ];
    for text in &texts {
        assert_eq!(saphyr_events(text, true), saphyr_events(text, false));
    }
    let long = Parser::new_from_str(&texts[0]).find_map(|event| match event {
        Ok((Event::Scalar(value, ..), _)) if value.len() > 1_000 => Some(value),
        _ => None,
    });
    assert!(
        matches!(&long, Some(Cow::Borrowed(text)) if *text == words),
        "{long:?}"
    );
}

/// Every YAML file under `protocols/` reads the same borrowed as copied.
#[test]
fn the_fixtures_read_the_same_when_plain_scalars_are_borrowed() {
    let mut read = 0;
    for path in common::yaml_files(&common::root().join("protocols")) {
        // A fixture that is not UTF-8 is no `str` to borrow from.
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        assert_eq!(
            saphyr_events(&text, true),
            saphyr_events(&text, false),
            "{}",
            path.display()
        );
        read += 1;
    }
    assert!(read > 50, "only {read} fixtures read");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// The vendored parser's borrowed plain scalars (PATCHES.md) read as
    /// upstream's copies do: the same events, spans and errors.
    #[test]
    fn plain_scalars_read_the_same_borrowed_as_copied(text in plainish()) {
        prop_assert_eq!(saphyr_events(&text, true), saphyr_events(&text, false));
    }

    #[test]
    fn yaml_reads_the_same_borrowed_as_copied(text in yamlish()) {
        prop_assert_eq!(saphyr_events(&text, true), saphyr_events(&text, false));
    }
}

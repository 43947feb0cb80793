//! The contract diff on input nobody would write by hand: edited
//! protocols, chains of thousands of types, objects of tens of thousands
//! of properties. It must answer, with diagnostics, without a panic or a
//! deep stack; how long it takes is measured in `benches/check.rs`, not
//! here.

mod common;

use agentc::{Code, FileReport};
use proptest::prelude::*;

fn compile(text: &str) -> FileReport {
    agentc::compile("p.yaml", text.as_bytes().to_vec())
}

fn diff(old: &FileReport, new: &FileReport) -> Vec<agentc::Diagnostic> {
    agentc::diff::reports(old, new, "old", &Default::default())
}

const HEAD: &str = "triggers:\n  go:\n    input:\n      TEXT: { type: string }\n\n";

fn handlers(response: &str) -> String {
    format!(
        "agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [t]\n\n\
         handlers:\n  go:\n    Add:\n      block: add-message\n      role: user\n      prompt: p\n      input: [TEXT]\n\
         \x20   Reply:\n      block: next-message\n      responseType: {response}\n      output: OUT\n"
    )
}

/// `n` types, each holding the next, the last with a leaf of `leaf`.
fn chain(n: usize, leaf: &str) -> String {
    let mut text = String::from("types:\n");
    for i in 0..n {
        text.push_str(&format!("  T{i}:\n    next:\n"));
        if i + 1 < n {
            text.push_str(&format!("      type: T{}\n", i + 1));
        } else {
            text.push_str(&format!("      type: {leaf}\n"));
        }
    }
    text.push_str(HEAD);
    text.push_str("variables:\n  OUT:\n    type: T0\n\n");
    text.push_str(
        "tools:\n  t:\n    description: d\n    parameters:\n      root:\n        type: T0\n\n",
    );
    text.push_str(&handlers("T0"));
    text
}

#[test]
fn a_chain_of_thousands_of_types_costs_no_deep_stack() {
    let (old, new) = (
        compile(&chain(5000, "string")),
        compile(&chain(5000, "boolean")),
    );
    assert!(
        !old.has_errors(),
        "{:?}",
        &old.diagnostics[..3.min(old.diagnostics.len())]
    );
    let found = diff(&old, &new);
    // The change is below the depth followed: said, not missed silently.
    assert!(
        found
            .iter()
            .any(|d| d.code == Code::DiffSkipped && d.message.contains("levels deep")),
        "{found:?}"
    );
    // A short chain is followed to its end, in both contracts.
    let (old, new) = (
        compile(&chain(40, "string")),
        compile(&chain(40, "boolean")),
    );
    let found = diff(&old, &new);
    let changed: Vec<_> = found
        .iter()
        .filter(|d| d.code == Code::PropertyTypeChanged)
        .collect();
    assert_eq!(changed.len(), 2, "{found:?}");
}

#[test]
fn an_object_of_many_properties_is_compared_whole() {
    let n = 30_000;
    let object = |ty: &str| {
        let mut text = String::from(HEAD);
        text.push_str("tools:\n  t:\n    description: d\n    parameters:\n");
        for i in 0..n {
            text.push_str(&format!("      p{i}:\n        type: {ty}\n"));
        }
        text.push('\n');
        text.push_str(&handlers("R"));
        text.replace("types:\n", "")
            + "types:\n  R:\n    a:\n      type: string\n\nvariables:\n  OUT:\n    type: R\n"
    };
    let (old, new) = (compile(&object("string")), compile(&object("boolean")));
    assert!(
        !old.has_errors(),
        "{:?}",
        &old.diagnostics[..3.min(old.diagnostics.len())]
    );
    let found = diff(&old, &new);
    assert_eq!(
        found
            .iter()
            .filter(|d| d.code == Code::PropertyTypeChanged)
            .count(),
        n
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any edit of a real protocol, diffed against the original both ways:
    /// an answer, never a panic.
    #[test]
    fn edits_of_a_real_protocol_diff_without_panic(
        start in 0usize..6000, len in 0usize..200, insert in "[ -~\n]{0,60}"
    ) {
        let path = common::root().join("protocols/shop-assistant/protocol.yaml");
        let original = std::fs::read(&path).expect("read the example protocol");
        let start = start.min(original.len());
        let end = (start + len).min(original.len());
        let mut edited = original[..start].to_vec();
        edited.extend_from_slice(insert.as_bytes());
        edited.extend_from_slice(&original[end..]);
        let original = agentc::compile("original.yaml", original);
        let edited = agentc::compile("edited.yaml", edited);
        for d in diff(&original, &edited).iter().chain(&diff(&edited, &original)) {
            prop_assert!(d.span.end as usize <= edited.source.text().len().max(original.source.text().len()));
        }
    }
}

/// Thousands of tools sharing one chain of a hundred types, with one
/// change half way down: every tool reports it, and none is cut short by
/// the diff's limits, because the part of the chain found clean once is not
/// compared again.
#[test]
fn shared_types_are_compared_once() {
    let (tools, links) = (5_000, 100);
    let protocol = |middle: &str| {
        let mut text = String::from("types:\n");
        for i in 0..links {
            let ty = if i == links / 2 { middle } else { "string" };
            text.push_str(&format!("  Link{i}:\n    id:\n      type: {ty}\n"));
            if i + 1 < links {
                text.push_str(&format!(
                    "    next:\n      type: Link{}\n      optional: true\n",
                    i + 1
                ));
            }
        }
        text.push_str(HEAD);
        text.push_str("tools:\n");
        let names: Vec<String> = (0..tools).map(|i| format!("tool-{i}")).collect();
        for name in &names {
            text.push_str(&format!(
                "  {name}:\n    description: d\n    parameters:\n      head: {{ type: Link0 }}\n"
            ));
        }
        text.push_str(&format!(
            "\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [{}]\n\n",
            names.join(", ")
        ));
        text.push_str("handlers:\n  go:\n    Add:\n      block: add-message\n      role: user\n      prompt: p\n      input: [TEXT]\n");
        text
    };
    let (old, new) = (compile(&protocol("string")), compile(&protocol("boolean")));
    assert!(!old.has_errors(), "{:?}", old.diagnostics.first());
    let found = diff(&old, &new);
    assert!(
        !found.iter().any(|d| d.code == Code::DiffSkipped),
        "{:?}",
        found.iter().find(|d| d.code == Code::DiffSkipped)
    );
    assert_eq!(
        found
            .iter()
            .filter(|d| d.code == Code::PropertyTypeChanged)
            .count(),
        tools
    );
    assert_eq!(diff(&old, &old).len(), 0);
}

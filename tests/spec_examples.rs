//! Every YAML example in `../shared/spec/octavus-types.md` behaves as the
//! document says: the examples are clean, and the types it marks ❌ ("cannot
//! use ... as responseType") get `invalid-response-type` when used as one,
//! while those it marks ✅ do not.
//!
//! The examples are fragments of one page: some use a type defined in
//! another example of the page (`Product`), and a few use types the page
//! never defines (listed in `NEVER_DEFINED`). Those references are the only
//! diagnostics allowed.

mod common;

use agentc::Code;
use std::collections::BTreeSet;

/// Types the page uses in an example but defines nowhere, with the line of
/// the example's opening fence.
const NEVER_DEFINED: &[(usize, &str)] = &[
    (545, "ProductSummary"),
    (609, "ContentResponse"),
    (609, "ProductResponse"),
];

/// What a fragment of a protocol lacks: the page shows `triggers:` and
/// `handlers:` without `agent:`, or one without the other. The protocol
/// rules are held to the docs in `tests/docs_conformance.rs`; this page is
/// about the types language.
const FRAGMENT_CODES: &[Code] = &[
    Code::ProtocolFormat,
    Code::MissingHandler,
    Code::UnknownTrigger,
];

struct Example {
    /// 1-based line of the ```yaml fence.
    line: usize,
    text: String,
}

fn examples(page: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut lines = page.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        if line.trim() == "```yaml" {
            let body: Vec<&str> = lines
                .by_ref()
                .map(|(_, l)| l)
                .take_while(|l| l.trim() != "```")
                .collect();
            examples.push(Example {
                line: index + 1,
                text: body.join("\n") + "\n",
            });
        }
    }
    examples
}

/// Diagnostics as (code, message), without `unknown-type` for names that
/// another example of the page defines.
fn diagnostics(text: &str, defined_elsewhere: &BTreeSet<String>) -> Vec<(Code, String)> {
    common::compile_text(text)
        .diagnostics
        .into_iter()
        .filter(|d| !FRAGMENT_CODES.contains(&d.code))
        .filter(|d| {
            !(d.code == Code::UnknownType
                && defined_elsewhere
                    .iter()
                    .any(|n| d.message == format!("type `{n}` is not defined")))
        })
        .map(|d| (d.code, d.message))
        .collect()
}

#[test]
#[ignore = "needs ../shared/spec beside the checkout (CI runs it)"]
fn the_types_page_examples_behave_as_documented() {
    let Some(path) = common::shared("spec/octavus-types.md") else {
        return;
    };
    let page = std::fs::read_to_string(path).expect("read the spec page");
    let examples = examples(&page);
    assert!(
        examples.len() >= 15,
        "found only {} examples",
        examples.len()
    );

    let mut defined = BTreeSet::new();
    for example in &examples {
        if let Some(model) = common::compile_text(&example.text).model {
            defined.extend(model.type_names().map(str::to_string));
        }
    }

    let mut failures = Vec::new();
    let mut probes = 0;
    for example in &examples {
        let expected: Vec<(Code, String)> = NEVER_DEFINED
            .iter()
            .filter(|(line, _)| *line == example.line)
            .map(|(_, name)| (Code::UnknownType, format!("type `{name}` is not defined")))
            .collect();
        let actual = diagnostics(&example.text, &defined);
        if actual != expected {
            failures.push(format!(
                "example at line {}: expected {expected:?}, got {actual:?}",
                example.line
            ));
        }

        // Types marked ❌ or ✅ in a comment right above their definition.
        let lines: Vec<&str> = example.text.lines().collect();
        for pair in lines.windows(2) {
            let allowed = if pair[0].contains('❌') {
                false
            } else if pair[0].contains('✅') {
                true
            } else {
                continue;
            };
            let name = pair[1].trim().trim_end_matches(':');
            if example.text.contains("\nhandlers:") {
                continue;
            }
            probes += 1;
            let probe = format!(
                "{}handlers:\n  probe:\n    Respond:\n      block: next-message\n      responseType: {name}\n",
                example.text
            );
            let rejected = diagnostics(&probe, &defined)
                .iter()
                .any(|(code, _)| *code == Code::InvalidResponseType);
            if rejected == allowed {
                failures.push(format!(
                    "`{name}` (example at line {}) is marked {} but as responseType it was {}",
                    example.line,
                    if allowed { "✅" } else { "❌" },
                    if rejected { "rejected" } else { "accepted" }
                ));
            }
        }
    }
    assert!(probes >= 4, "found only {probes} ❌/✅ marked types");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

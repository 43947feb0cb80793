//! Every YAML block in the Octavus docs (`../shared/spec/octavus-docs/`)
//! runs through agentc:
//!
//! - a block that is a complete protocol (an interactive agent with
//!   `triggers`, `handlers` and `agent`, or a worker with `steps` and
//!   `output`) checks with no errors, unless listed in [`JUDGED_DIFFERENTLY`]
//!   with the reason;
//! - a block the docs mark as wrong gets the error the docs describe
//!   ([`DESCRIBED_ERRORS`], and the types marked ❌ or ✅ as `responseType`);
//! - every other block is a fragment (a section shown on its own, a
//!   TypeScript-adjacent snippet, a CI workflow): it must merely be checked
//!   without a crash, whatever it reports.
//!
//! `docs/conformance.md` lists the blocks agentc judges differently and why.

mod common;

use agentc::{Code, Severity};
use std::collections::BTreeSet;

/// Complete protocols in the docs that agentc does not find clean, with the
/// codes it reports and why the docs are wrong there.
const JUDGED_DIFFERENTLY: &[(&str, usize, &[Code], &str)] = &[(
    "04-protocol__01-overview.md",
    37,
    &[Code::MissingField, Code::MissingHandler],
    "resource `CONVERSATION_SUMMARY` has no `type`, which the resource table marks required; \
     trigger `request-human` has no handler, which the triggers page requires",
)];

/// Blocks the docs present as failing validation, with the error they name.
const DESCRIBED_ERRORS: &[(&str, usize, Code)] = &[(
    "04-protocol__08-provider-options.md",
    282,
    Code::ProviderOptionMismatch,
)];

struct Block {
    page: String,
    /// 1-based line of the ```yaml fence.
    line: usize,
    text: String,
}

fn blocks(page: &str, text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        if line.trim_start().trim_start_matches('`') == "yaml"
            && line.trim_start().starts_with("```")
        {
            let body: Vec<&str> = lines
                .by_ref()
                .map(|(_, l)| l)
                .take_while(|l| !l.trim_start().starts_with("```"))
                .collect();
            blocks.push(Block {
                page: page.to_string(),
                line: index + 1,
                text: body.join("\n") + "\n",
            });
        }
    }
    blocks
}

fn all_blocks() -> Option<Vec<Block>> {
    let dir = common::shared("spec/octavus-docs")?;
    let mut blocks_found = Vec::new();
    for path in common::files(&dir, "md") {
        let page = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("page name")
            .to_string();
        let text = std::fs::read_to_string(&path).expect("read a docs page");
        blocks_found.extend(blocks(&page, &text));
    }
    Some(blocks_found)
}

fn has_section(text: &str, key: &str) -> bool {
    text.lines().any(|l| l.starts_with(&format!("{key}:")))
}

fn is_complete(text: &str) -> bool {
    let interactive = ["triggers", "handlers", "agent"]
        .iter()
        .all(|k| has_section(text, k));
    let worker = ["steps", "output"].iter().all(|k| has_section(text, k));
    interactive || worker
}

fn error_codes(text: &str) -> BTreeSet<Code> {
    common::compile_text(text)
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code)
        .collect()
}

#[test]
#[ignore = "needs ../shared/spec beside the checkout (CI runs it)"]
fn complete_protocols_in_the_docs_check_clean() {
    let Some(blocks) = all_blocks() else {
        return;
    };
    assert!(
        blocks.len() >= 150,
        "found only {} YAML blocks",
        blocks.len()
    );
    let mut complete = 0;
    let mut failures = Vec::new();
    for block in blocks.iter().filter(|b| is_complete(&b.text)) {
        complete += 1;
        let expected: BTreeSet<Code> = JUDGED_DIFFERENTLY
            .iter()
            .find(|(page, line, ..)| *page == block.page && *line == block.line)
            .map(|(_, _, codes, _)| codes.iter().copied().collect())
            .unwrap_or_default();
        let actual = error_codes(&block.text);
        if actual != expected {
            failures.push(format!(
                "{}:{}: expected errors {expected:?}, got {actual:?}",
                block.page, block.line
            ));
        }
    }
    assert!(complete >= 8, "found only {complete} complete protocols");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "needs ../shared/spec beside the checkout (CI runs it)"]
fn every_block_is_checked_and_described_errors_are_found() {
    let Some(blocks) = all_blocks() else {
        return;
    };
    for (page, line, code) in DESCRIBED_ERRORS {
        let block = blocks
            .iter()
            .find(|b| b.page == *page && b.line == *line)
            .unwrap_or_else(|| panic!("no YAML block at {page}:{line}"));
        let codes = error_codes(&block.text);
        assert!(
            codes.contains(code),
            "{page}:{line}: expected {code:?}, got {codes:?}"
        );
    }
    // Fragments: checked without a crash, every diagnostic inside the text.
    for block in &blocks {
        let compiled = common::compile_text(&block.text);
        for d in &compiled.diagnostics {
            assert!(
                (d.span.end as usize) <= block.text.len(),
                "{}:{}: span out of range",
                block.page,
                block.line
            );
        }
    }
}

/// Types marked `# ❌` or `# ✅` on the line above their definition are
/// rejected or accepted as `responseType`. Types that another block of the
/// same page defines are in scope, as the page reads as one.
#[test]
#[ignore = "needs ../shared/spec beside the checkout (CI runs it)"]
fn types_marked_in_the_docs_behave_as_response_types() {
    let Some(blocks) = all_blocks() else {
        return;
    };
    let mut probes = 0;
    let mut failures = Vec::new();
    for block in &blocks {
        let lines: Vec<&str> = block.text.lines().collect();
        for pair in lines.windows(2) {
            let allowed = if pair[0].contains('❌') && pair[0].contains("responseType") {
                false
            } else if pair[0].contains('✅') {
                true
            } else {
                continue;
            };
            if has_section(&block.text, "handlers") {
                continue;
            }
            let name = pair[1].trim().trim_end_matches(':');
            probes += 1;
            let probe = format!(
                "{}handlers:\n  probe:\n    Respond:\n      block: next-message\n      responseType: {name}\n",
                block.text
            );
            let rejected = error_codes(&probe).contains(&Code::InvalidResponseType);
            if rejected == allowed {
                failures.push(format!(
                    "{}:{}: `{name}` is marked {} but as responseType it was {}",
                    block.page,
                    block.line,
                    if allowed { "✅" } else { "❌" },
                    if rejected { "rejected" } else { "accepted" }
                ));
            }
        }
    }
    assert!(probes >= 4, "found only {probes} ❌/✅ marked types");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

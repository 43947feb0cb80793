//! `title` shows only with `display: title`: every place the grammar gives
//! a `title` is lowered into a `Presentation` that `check` sees. (The rule
//! was once silent under `onDemandSkills:` and `anthropic:`, whose
//! presentation the lowering dropped.)

use agentc::Severity;
use agentc::grammar;

/// A protocol with `title` and no `display` at one place of each kind, by
/// the place's name in the grammar.
const CASES: &[(&str, &str)] = &[
    ("Tool", "tools:\n  t:\n    description: D\n    title: T\n"),
    (
        "Skill",
        "skills:\n  s:\n    title: T\nonDemandSkills:\n  title: T\n",
    ),
    (
        "McpServer",
        "mcpServers:\n  m:\n    description: D\n    source: remote\n    title: T\n",
    ),
    (
        "OnDemandMcp",
        "onDemandMcpServers:\n  remote:\n    title: T\n",
    ),
    ("Worker", "workers:\n  w:\n    title: T\n"),
    (
        "AnthropicTool",
        "agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  anthropic:\n    tools:\n      web-search:\n        title: T\n",
    ),
    (
        "AnthropicSkill",
        "agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  anthropic:\n    skills:\n      pdf:\n        type: anthropic\n        title: T\n",
    ),
];

#[test]
fn every_place_with_a_title_reports_one_shown_without_display_title() {
    let mut covered: Vec<&str> = CASES.iter().map(|(name, _)| *name).collect();
    for kind in &grammar::BLOCKS {
        covered.push(kind.name);
    }
    for place in grammar::places() {
        if place.key("title").is_some() {
            assert!(covered.contains(&place.name), "no case for {}", place.name);
        }
    }
    let blocks = grammar::BLOCKS.iter().map(|kind| {
        let required: String = kind
            .required()
            .filter(|key| key.name != "block")
            .map(|key| format!("    {}: X\n", key.name))
            .collect();
        let text = format!(
            "steps:\n  Step:\n    block: {}\n{required}    title: T\noutput: X\n",
            kind.name
        );
        (kind.name, text)
    });
    let cases = CASES
        .iter()
        .map(|(name, text)| (*name, text.to_string()))
        .chain(blocks);
    for (name, text) in cases {
        let compiled = agentc::compile("protocol.yaml", text.as_bytes());
        let titles = text.matches("title: T").count();
        let reported: Vec<_> = compiled
            .diagnostics
            .iter()
            .filter(|d| d.code.name() == "ineffective-setting")
            .collect();
        assert_eq!(
            reported.len(),
            titles,
            "{name}:\n{text}\n{:#?}",
            compiled.diagnostics
        );
        for diagnostic in reported {
            assert_eq!(diagnostic.severity, Severity::Warning);
            assert_eq!(compiled.source.slice(diagnostic.span), "T", "{name}");
        }
    }
}

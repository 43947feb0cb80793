//! Prompts: every prompt the protocol names exists, every include resolves
//! and no include cycle exists, and each `{{VAR}}` (or condition over
//! `VAR`) is something the prompt receives where it is used.
//!
//! A prompt receives the labels of the `input` mapping of the place that
//! uses it: `agent.input` for the agent's system prompt, a `start-thread`'s
//! `input` for its system prompt, an `add-message`'s `input` for its
//! prompt. Includes are inlined before interpolation, so an included
//! prompt's variables are checked against what the including prompt
//! receives, and reported in the included file.

use super::FileFindings;
use super::template::{self, Condition, Tag};
use crate::diagnostic::{Code, Diagnostic, did_you_mean, nearest};
use crate::model::Model;
use crate::source::Source;
use crate::span::Span;
use crate::syntax::{BlockKind, Field, InputMapping, Name, Trigger};
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{HashMap, HashSet};

/// A place in the protocol that uses a prompt.
struct Use<'m> {
    name: &'m Name,
    input: &'m [InputMapping],
    /// The `input` mapping by label: what the prompt receives.
    labels: HashMap<&'m str, &'m InputMapping>,
    /// The handler's trigger, whose inputs the mapping may name.
    trigger: Option<&'m Trigger>,
    /// "the `agent` system prompt", "block `Add message`".
    place: String,
}

impl<'m> Use<'m> {
    fn new(
        name: &'m Name,
        input: &'m [InputMapping],
        trigger: Option<&'m Trigger>,
        place: String,
    ) -> Use<'m> {
        let mut labels = HashMap::with_capacity(input.len());
        for mapping in input {
            labels.entry(mapping.label.text.as_str()).or_insert(mapping);
        }
        Use {
            name,
            input,
            labels,
            trigger,
            place,
        }
    }
}

pub(super) fn check(
    model: &Model,
    protocol: &Source,
    diagnostics: &mut Vec<Diagnostic>,
    prompts: &mut [FileFindings],
) {
    let tags: Vec<Vec<Tag>> = prompts
        .iter_mut()
        .map(|report| {
            if report.unreadable {
                return Vec::new();
            }
            let (tags, problems) = template::parse(report.source.text());
            report.diagnostics.extend(problems);
            tags
        })
        .collect();
    let names: Vec<String> = prompts.iter().map(|p| p.name.clone()).collect();
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let includes = resolve_includes(&tags, &index, &names, prompts);
    check_cycles(&includes, prompts);
    let uses = uses(model);
    let mut checked = HashSet::new();
    for prompt_use in &uses {
        let Some(&root) = index.get(prompt_use.name.text.as_str()) else {
            diagnostics.push(missing_prompt(prompt_use.name, &names));
            continue;
        };
        // Uses that pass the same names from the same places see the same
        // prompt: check it once, reported against the first of them.
        let mut signature: Vec<(&str, &str)> = prompt_use
            .input
            .iter()
            .map(|m| (m.label.text.as_str(), m.source.text.as_str()))
            .collect();
        signature.sort_unstable();
        let trigger = prompt_use.trigger.map(|t| t.name.text.as_str());
        if !checked.insert((root, trigger, signature)) {
            continue;
        }
        // The prompt and everything it includes, each once.
        let mut seen = HashSet::new();
        let mut pending = vec![root];
        while let Some(i) = pending.pop() {
            if !seen.insert(i) {
                continue;
            }
            check_variables(model, protocol, prompt_use, &tags[i], &mut prompts[i]);
            pending.extend(includes[i].iter().map(|&(target, _)| target));
        }
    }
}

/// Every place that renders a prompt, in the order the resolution lists
/// its occurrences: the agent's `system`, then each handler's blocks and
/// the steps (an `add-message`'s `prompt`, a `start-thread`'s `system`).
/// Read off the protocol: the whole resolution (every name's every
/// occurrence), which a check of an agent folder needs nowhere else, is
/// not built for these few.
fn uses(model: &Model) -> Vec<Use<'_>> {
    let protocol = &model.protocol;
    let mut uses = Vec::new();
    if let Some(agent) = &protocol.agent
        && let Some(system) = &agent.config.system
    {
        let place = "the `agent` system prompt".to_string();
        uses.push(Use::new(system, &agent.config.input, None, place));
    }
    let handlers = protocol.handlers.iter().flat_map(|handler| {
        let trigger = model.trigger(&handler.trigger.text);
        handler.blocks.iter().map(move |block| (block, trigger))
    });
    let steps = protocol.steps.iter().map(|block| (block, None));
    for (block, trigger) in handlers.chain(steps) {
        let name = match block.kind {
            Some(BlockKind::AddMessage) => block.prompt.as_ref(),
            Some(BlockKind::StartThread) => block.config.as_ref().and_then(|c| c.system.as_ref()),
            _ => None,
        };
        if let Some(name) = name {
            let place = format!("block `{}`", block.name.text);
            uses.push(Use::new(name, &block.input, trigger, place));
        }
    }
    uses
}

fn missing_prompt(name: &Name, names: &[String]) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::UnknownPrompt,
        name.span,
        format!(
            "prompt `{}` has no file `prompts/{}.md`",
            name.text, name.text
        ),
    );
    let written = name.text.as_str();
    let bare = written.strip_prefix("prompts/").unwrap_or(written);
    let meant = bare.strip_suffix(".md").unwrap_or(bare);
    if meant != written {
        return diagnostic.with_help(format!(
            "write `{meant}`: a prompt is named by its path under `prompts/`, without `.md`"
        ));
    }
    match nearest(&name.text, names.iter().map(String::as_str)) {
        Some(near) => diagnostic.did_you_mean(name.span, near),
        None => diagnostic.with_help(format!(
            "create `prompts/{}.md`; a prompt is named by its path under `prompts/` without `.md`",
            name.text
        )),
    }
}

/// For each prompt, the prompts it includes, with the include's span.
/// Includes that name no prompt are reported where they are written.
fn resolve_includes(
    tags: &[Vec<Tag>],
    index: &HashMap<&str, usize>,
    names: &[String],
    prompts: &mut [FileFindings],
) -> Vec<Vec<(usize, Span)>> {
    let mut includes = Vec::with_capacity(tags.len());
    for (i, prompt_tags) in tags.iter().enumerate() {
        let mut targets = Vec::new();
        for tag in prompt_tags {
            let Tag::Include { path, span } = tag else {
                continue;
            };
            let name = path.strip_suffix(".md").unwrap_or(path);
            match index.get(name) {
                Some(&target) => targets.push((target, *span)),
                None => {
                    let diagnostic = Diagnostic::new(
                        Code::UnknownPrompt,
                        *span,
                        format!("included prompt `{path}` has no file `prompts/{path}`"),
                    );
                    let candidates = names.iter().map(|n| format!("{n}.md")).collect::<Vec<_>>();
                    prompts[i].diagnostics.push(
                        match did_you_mean(path, candidates.iter().map(String::as_str)) {
                            Some(help) => diagnostic.with_help(help),
                            None => diagnostic.with_help("an include names a path under `prompts/`, as in `{{@shared/company-info.md}}`"),
                        },
                    );
                }
            }
        }
        includes.push(targets);
    }
    includes
}

/// Each group of prompts that include each other is reported once, at an
/// include of its first prompt.
fn check_cycles(includes: &[Vec<(usize, Span)>], prompts: &mut [FileFindings]) {
    let mut graph: DiGraph<usize, Span> = DiGraph::with_capacity(includes.len(), includes.len());
    for i in 0..includes.len() {
        graph.add_node(i);
    }
    for (from, targets) in includes.iter().enumerate() {
        for &(to, span) in targets {
            graph.add_edge(NodeIndex::new(from), NodeIndex::new(to), span);
        }
    }
    let mut groups = kosaraju_scc(&graph);
    for group in &mut groups {
        group.sort();
    }
    groups.sort();
    for group in groups {
        let Some(&first) = group.first() else {
            continue;
        };
        let first = first.index();
        // Sorted above, so membership is a binary search.
        let in_group = |i: usize| group.binary_search(&NodeIndex::new(i)).is_ok();
        let Some(&(_, span)) = includes[first].iter().find(|(to, _)| in_group(*to)) else {
            continue;
        };
        let path: Vec<String> = group
            .iter()
            .map(|n| format!("`{}`", prompts[n.index()].name))
            .collect();
        let message = if group.len() == 1 {
            format!("prompt `{}` includes itself", prompts[first].name)
        } else {
            format!("prompts {} include each other", path.join(", "))
        };
        prompts[first].diagnostics.push(
            Diagnostic::new(Code::IncludeCycle, span, message)
                .with_help("remove one of the includes; a prompt cannot contain itself"),
        );
    }
}

/// The variables and conditions of one prompt file against one use.
fn check_variables(
    model: &Model,
    protocol: &Source,
    prompt_use: &Use,
    tags: &[Tag],
    report: &mut FileFindings,
) {
    for tag in tags {
        let (name, span, condition) = match tag {
            Tag::Variable { name, span } => (name, *span, None),
            Tag::If { condition, .. } | Tag::ElseIf { condition, .. } => (
                &condition.variable,
                condition.variable_span,
                Some(condition),
            ),
            _ => continue,
        };
        let Some(&mapping) = prompt_use.labels.get(name.as_str()) else {
            // Where the prompt is used, found only for a message (a clean
            // check never reads the protocol's line index).
            let line = protocol.position(prompt_use.name.span.start as usize).line;
            let shown = match condition {
                Some(_) => format!("condition variable `{name}`"),
                None => format!("`{{{{{name}}}}}`"),
            };
            // Passing it needs it declared first, where the use can read it.
            let declared = model.variable(name).is_some()
                || prompt_use
                    .trigger
                    .is_some_and(|t| t.input.iter().any(|f| f.name.text == *name));
            let help = match declared {
                true => format!(
                    "add `{name}` to the `input:` of {} (line {line} of the protocol)",
                    prompt_use.place
                ),
                false => format!(
                    "`{name}` is declared nowhere: declare it (under `input:` or `variables:`), then add it to the `input:` of {} (line {line} of the protocol)",
                    prompt_use.place
                ),
            };
            report.diagnostics.push(
                Diagnostic::new(
                    Code::UnknownPromptVariable,
                    span,
                    format!("{shown} is not passed to this prompt by {}", prompt_use.place),
                )
                .with_help(help)
                .with_note("a prompt sees only the variables its `input` mapping lists; others stay as literal `{{...}}` text"),
            );
            continue;
        };
        if let Some(condition) = condition {
            check_literal(model, prompt_use, mapping, condition, report);
        }
    }
}

/// `{{#if PLAN == "x"}}`: `x` is in the input's `enum`, when it has one.
fn check_literal(
    model: &Model,
    prompt_use: &Use,
    mapping: &InputMapping,
    condition: &Condition,
    report: &mut FileFindings,
) {
    let Some(comparison) = &condition.comparison else {
        return;
    };
    let source = mapping.source.text.as_str();
    let field: Option<&Field> = prompt_use
        .trigger
        .and_then(|t| t.input.iter().find(|f| f.name.text == source))
        .or_else(|| model.variable(source).map(|(_, field)| field));
    let Some(values) = field.and_then(|f| f.enum_values.as_ref()) else {
        return;
    };
    let allowed: Vec<&str> = values
        .values
        .iter()
        .map(|v| v.scalar.text.as_ref())
        .collect();
    if allowed.contains(&comparison.literal.as_str()) {
        return;
    }
    let diagnostic = Diagnostic::new(
        Code::UnknownEnumLiteral,
        comparison.literal_span,
        format!(
            "`\"{}\"` is not a value of `{source}`, which is one of {}",
            comparison.literal,
            allowed
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    report.diagnostics.push(
        match did_you_mean(&comparison.literal, allowed.iter().copied()) {
            Some(help) => diagnostic.with_help(help),
            None => diagnostic.with_help(format!(
                "compare with one of the `enum` values of `{source}`, or add this value to it"
            )),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::resolve::{Site, SymbolKind};

    /// What `uses` read off the resolution before it read the protocol: the
    /// prompt occurrences where a prompt is rendered, in the resolution's
    /// order.
    fn uses_by_resolution(model: &Model) -> Vec<Use<'_>> {
        let protocol = &model.protocol;
        let resolution = model.resolution();
        let mut uses = Vec::new();
        for occurrence in resolution.occurrences() {
            if resolution.symbol(occurrence.symbol).kind != SymbolKind::Prompt {
                continue;
            }
            let (block, trigger) = match occurrence.site {
                Site::Agent => {
                    if let Some(agent) = &protocol.agent
                        && let Some(system) = &agent.config.system
                    {
                        let place = "the `agent` system prompt".to_string();
                        uses.push(Use::new(system, &agent.config.input, None, place));
                    }
                    continue;
                }
                Site::Handler {
                    handler,
                    block: Some(block),
                } => {
                    let handler = &protocol.handlers[handler as usize];
                    let trigger = model.trigger(&handler.trigger.text);
                    (&handler.blocks[block as usize], trigger)
                }
                Site::Step { block } => (&protocol.steps[block as usize], None),
                _ => continue,
            };
            let name = match (block.kind, occurrence.key) {
                (Some(BlockKind::AddMessage), "prompt") => block.prompt.as_ref(),
                (Some(BlockKind::StartThread), "system") => {
                    block.config.as_ref().and_then(|c| c.system.as_ref())
                }
                _ => None,
            };
            if let Some(name) = name {
                let place = format!("block `{}`", block.name.text);
                uses.push(Use::new(name, &block.input, trigger, place));
            }
        }
        uses
    }

    fn summary<'m>(uses: &[Use<'m>]) -> Vec<(Span, String, Option<Span>, usize)> {
        uses.iter()
            .map(|u| {
                let trigger = u.trigger.map(|t| t.name.span);
                (u.name.span, u.place.clone(), trigger, u.input.len())
            })
            .collect()
    }

    #[test]
    fn the_uses_read_off_the_protocol_are_the_resolutions() {
        // A handler's blocks before the agent, which the resolution walks
        // first; a block of another kind with a `prompt`; a handler of an
        // unknown trigger. The worker fixtures have steps.
        let mut texts = vec![
            "handlers:\n  go:\n    Start:\n      block: start-thread\n      thread: t\n      system: a\n      input: [X]\n    Say:\n      block: add-message\n      thread: t\n      role: user\n      prompt: b\n      input: { Y: X }\n    Next:\n      block: next-message\n      prompt: c\n  nope:\n    Other:\n      block: add-message\n      role: user\n      prompt: d\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: e\n  input: [X]\nvariables:\n  X: { type: string }\ntriggers:\n  go: { input: { Z: { type: string } } }\n".to_string(),
        ];
        texts.extend(crate::testing::fixture_texts());
        let mut seen = 0;
        for text in &texts {
            let report = crate::compile("p.yaml", text.as_bytes());
            let Some(model) = &report.model else {
                continue;
            };
            let read = summary(&uses(model));
            seen += read.len();
            assert_eq!(read, summary(&uses_by_resolution(model)), "{text}");
        }
        assert!(seen > 20, "prompts are rendered in the fixtures: {seen}");
    }
}

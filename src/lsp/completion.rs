//! Completion at the cursor: keys valid where it stands, block kinds after
//! `block:`, type names where a type is expected, declared names where a
//! tool, worker, thread, prompt or variable is expected.
//!
//! A file being typed is often not valid YAML, so the place is read from
//! the text around the cursor, not from the tree: the key being written on
//! the cursor's line, and the keys of the lines above it that are indented
//! less (its parents). The names offered are those of the latest check
//! that could read the file.

use super::Analysis;
use super::convert::{self, Encoding};
use crate::model::Model;
use crate::source::Source;
use crate::syntax::{
    AGENT_KEYS, BLOCK_COMMON, BlockKind, Builtin, CONTEXT_MANAGEMENT_KEYS, FieldContext,
    MCP_SERVER_KEYS, Name, ON_DEMAND_MCP_KEYS, SECTIONS, SKILL_KEYS, TOOL_KEYS, TRIGGER_KEYS,
    WORKER_KEYS,
};
use lsp_types as lsp;

/// The names a protocol declares, kept from the latest check that could
/// read the file so completion still works while it is half typed.
#[derive(Clone, Debug, Default)]
pub struct Names {
    types: Vec<String>,
    tools: Vec<String>,
    workers: Vec<String>,
    triggers: Vec<String>,
    threads: Vec<String>,
    skills: Vec<String>,
    mcp_servers: Vec<String>,
    /// Protocol-level inputs, resources and variables.
    variables: Vec<String>,
    /// Each trigger's inputs.
    trigger_inputs: Vec<(String, Vec<String>)>,
}

impl Names {
    pub fn new(model: &Model) -> Names {
        let protocol = &model.protocol;
        let mut threads: Vec<String> = Vec::new();
        if !model.is_worker() {
            threads.push("main".to_string());
        }
        for block in protocol.blocks() {
            let started = block
                .thread
                .as_ref()
                .filter(|_| block.kind == Some(BlockKind::StartThread));
            if let Some(thread) = started {
                if !threads.contains(&thread.text) {
                    threads.push(thread.text.clone());
                }
            }
        }
        let variables = protocol
            .input
            .iter()
            .chain(&protocol.resources)
            .chain(&protocol.variables);
        Names {
            types: texts(protocol.types.iter().map(|t| &t.name)),
            tools: texts(protocol.tools.iter().map(|t| &t.name)),
            workers: texts(protocol.workers.iter().map(|w| &w.name)),
            triggers: texts(protocol.triggers.iter().map(|t| &t.name)),
            threads,
            skills: texts(protocol.skills.iter().map(|s| &s.name)),
            mcp_servers: texts(protocol.mcp_servers.iter().map(|m| &m.name)),
            variables: texts(variables.map(|f| &f.name)),
            trigger_inputs: protocol
                .triggers
                .iter()
                .map(|t| (t.name.text.clone(), texts(t.input.iter().map(|f| &f.name))))
                .collect(),
        }
    }

    /// The variables readable in the handler of `trigger` (or outside any).
    fn readable(&self, trigger: Option<&str>) -> Vec<&str> {
        let own = self
            .trigger_inputs
            .iter()
            .filter(|(t, _)| Some(t.as_str()) == trigger)
            .flat_map(|(_, inputs)| inputs);
        let mut names: Vec<&str> = own.map(String::as_str).collect();
        for name in &self.variables {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        names
    }
}

fn texts<'a>(names: impl Iterator<Item = &'a Name>) -> Vec<String> {
    names.map(|name| name.text.clone()).collect()
}

/// One line of the file as completion reads it.
struct Line<'t> {
    indent: usize,
    /// The key it starts with, after an optional `- `.
    key: Option<&'t str>,
    /// Where the key starts: the indentation, plus two after `- `.
    key_column: usize,
    /// The text after `key:`, trimmed.
    value: &'t str,
}

fn read_line(text: &str) -> Option<Line<'_>> {
    let body = text.trim_start_matches(' ');
    if body.is_empty() || body.starts_with('#') {
        return None;
    }
    let indent = text.len() - body.len();
    let (item, rest) = match body.strip_prefix("- ") {
        Some(rest) => (2 + rest.len() - rest.trim_start().len(), rest.trim_start()),
        None => (0, body),
    };
    let key_end = rest
        .find(": ")
        .or_else(|| rest.strip_suffix(':').map(str::len));
    let key = key_end.map(|end| rest[..end].trim().trim_matches(['"', '\'']));
    let value = key_end.map_or("", |end| rest[end + 1..].trim());
    Some(Line {
        indent,
        key,
        key_column: indent + item,
        value,
    })
}

/// Where the cursor is: the keys from the top of the file to the mapping
/// it writes in, and its siblings there.
struct Place<'t> {
    path: Vec<&'t str>,
    /// Keys already written beside the cursor, and the `block:` among them.
    siblings: Vec<&'t str>,
    block: Option<&'t str>,
}

fn place<'t>(source: &'t Source, line: usize, column: usize) -> Place<'t> {
    let text = source.text();
    let line_text = |n: usize| source.line_range(n).map_or("", |r| &text[r]);
    // The parents: going up, each line that starts less indented.
    let mut path = Vec::new();
    let mut level = column;
    let mut parent_line = None;
    for n in (0..line).rev() {
        let Some(above) = read_line(line_text(n)) else {
            continue;
        };
        if above.key_column < level {
            if let Some(key) = above.key {
                path.push(key);
                parent_line.get_or_insert(n);
            }
            level = above.indent;
            if level == 0 {
                break;
            }
        }
    }
    path.reverse();
    // The siblings: the lines at the cursor's column under the same parent.
    let mut siblings = Vec::new();
    let mut block = None;
    let start = parent_line.map_or(0, |n| n + 1);
    for n in start..source.line_count() {
        if n == line {
            continue;
        }
        let Some(other) = read_line(line_text(n)) else {
            continue;
        };
        if n > line && other.key_column < column {
            break;
        }
        if other.key_column == column {
            if let Some(key) = other.key {
                siblings.push(key);
                if key == "block" {
                    block = Some(other.value);
                }
            }
        }
    }
    Place {
        path,
        siblings,
        block,
    }
}

pub fn complete(
    analysis: &Analysis,
    position: lsp::Position,
    encoding: Encoding,
) -> Vec<lsp::CompletionItem> {
    let source = &analysis.compilation.source;
    let offset = convert::offset(source, position, encoding);
    let (line, _) = source.utf16_position(offset);
    let Some(range) = source.line_range(line) else {
        return Vec::new();
    };
    let before = &source.text()[range.start..offset.min(range.end)];
    // The word being typed, replaced by the choice.
    let word = before.len()
        - before
            .trim_end_matches(|c: char| c.is_alphanumeric() || "_-./".contains(c))
            .len();
    let word_start = offset - word;
    let replace = convert::range(source, crate::Span::new(word_start, offset), encoding);
    let head = &before[..before.len() - word];
    let names = &analysis.names;

    let item = |label: &str, kind, detail: &str, insert: String| lsp::CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: (!detail.is_empty()).then(|| detail.to_string()),
        text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
            range: replace,
            new_text: insert,
        })),
        ..lsp::CompletionItem::default()
    };
    let values = |choices: Vec<(&str, lsp::CompletionItemKind, &str)>| {
        choices
            .into_iter()
            .map(|(label, kind, detail)| item(label, kind, detail, label.to_string()))
            .collect()
    };

    let trimmed = head.trim_start_matches(' ');
    let column = head.len() - trimmed.len();
    let item_column = column + if trimmed.starts_with("- ") { 2 } else { 0 };
    let after_item = trimmed.strip_prefix("- ").unwrap_or(trimmed).trim_start();
    let place = place(source, line, item_column);
    let trigger = match place.path.as_slice() {
        ["handlers", trigger, ..] => Some(*trigger),
        _ => None,
    };

    // A value: after `key:` on this line (flow collections included), or
    // a list item under a `key:` line.
    let value_of = match value_key(head) {
        Some(key) => Some(key),
        None if head.contains(": ") => return Vec::new(),
        None if trimmed.starts_with("- ") && after_item.is_empty() => place.path.last().copied(),
        None => None,
    };
    if let Some(key) = value_of {
        let in_mapping = place.path.last().copied();
        return values(value_choices(
            key, in_mapping, &place, names, trigger, analysis,
        ));
    }
    if !after_item.is_empty() {
        return Vec::new();
    }
    // A key.
    let keys = key_choices(&place, names);
    keys.into_iter()
        .filter(|key| !place.siblings.contains(key))
        .map(|key| {
            item(
                key,
                lsp::CompletionItemKind::PROPERTY,
                "",
                format!("{key}: "),
            )
        })
        .collect()
}

/// The key whose value the text before the cursor ends in: the word before
/// the last `: ` (or a final `:`), unless a flow mapping has moved on to
/// its next key (`{type: string, de`).
fn value_key(head: &str) -> Option<&str> {
    let colon = match head.rfind(": ") {
        Some(at) => at,
        None => head.strip_suffix(':').map(str::len)?,
    };
    let after = &head[colon + 1..];
    let opened = |c: char| head[..colon].rfind(c);
    if after.contains(',') && opened('{') > opened('[') {
        return None;
    }
    let key_text = &head[..colon];
    let key_start = key_text
        .char_indices()
        .rfind(|&(_, c)| !(c.is_alphanumeric() || "_-".contains(c)))
        .map_or(0, |(i, c)| i + c.len_utf8());
    Some(&key_text[key_start..])
}

type Choice<'a> = (&'a str, lsp::CompletionItemKind, &'a str);

fn named<'a>(
    names: &'a [String],
    kind: lsp::CompletionItemKind,
    detail: &'a str,
) -> Vec<Choice<'a>> {
    names.iter().map(|n| (n.as_str(), kind, detail)).collect()
}

/// What may follow `key:` (or be a list item under it) where the cursor is.
fn value_choices<'a>(
    key: &'a str,
    in_mapping: Option<&'a str>,
    place: &Place<'a>,
    names: &'a Names,
    trigger: Option<&'a str>,
    analysis: &'a Analysis,
) -> Vec<Choice<'a>> {
    use lsp::CompletionItemKind as Kind;
    let in_blocks = matches!(place.path.first(), Some(&"handlers" | &"steps" | &"agent"));
    let block = place.block.and_then(BlockKind::from_name);
    let variables = || {
        names
            .readable(trigger)
            .into_iter()
            .map(|n| (n, Kind::VARIABLE, "variable"))
            .collect::<Vec<_>>()
    };
    match key {
        "type" if !in_blocks => {
            let mut choices: Vec<Choice> = Builtin::ALL
                .iter()
                .map(|b| (b.name(), Kind::KEYWORD, "built-in type"))
                .collect();
            choices.push(("array", Kind::KEYWORD, "an array; give `items`"));
            choices.extend(named(&names.types, Kind::STRUCT, "type"));
            choices
        }
        "responseType" => named(&names.types, Kind::STRUCT, "type"),
        "anyOf" => named(&names.types, Kind::STRUCT, "type"),
        "block" => BlockKind::ALL
            .iter()
            .map(|k| (k.name(), Kind::ENUM_MEMBER, "block kind"))
            .collect(),
        "tool" | "tools" if in_blocks => named(&names.tools, Kind::FUNCTION, "tool"),
        "worker" | "workers" | "summarizerWorker" => named(&names.workers, Kind::MODULE, "worker"),
        "skills" if in_blocks => named(&names.skills, Kind::MODULE, "skill"),
        "mcpServers" if in_blocks => named(&names.mcp_servers, Kind::MODULE, "MCP server"),
        "thread" if in_blocks => named(&names.threads, Kind::CONSTANT, "thread"),
        "system" => prompts(analysis),
        "prompt" if place.block == Some("add-message") => prompts(analysis),
        "input" if in_blocks => variables(),
        _ if block.is_some_and(|kind| kind.names_variables(key)) => variables(),
        // A value in an input mapping: `label: VARIABLE`.
        _ if in_blocks && in_mapping == Some("input") => variables(),
        _ => Vec::new(),
    }
}

/// The prompts of the agent folder, by name (`shared/company-info`).
fn prompts(analysis: &Analysis) -> Vec<Choice<'_>> {
    analysis
        .prompts
        .iter()
        .map(|name| (name.as_str(), lsp::CompletionItemKind::FILE, "prompt"))
        .collect()
}

/// The keys a mapping takes at `place`.
fn key_choices<'a>(place: &Place<'a>, names: &'a Names) -> Vec<&'a str> {
    let field = |context: FieldContext| context.allowed_keys().to_vec();
    match place.path.as_slice() {
        [] => SECTIONS.to_vec(),
        [.., "items"] => field(FieldContext::Items),
        ["types", _] => vec!["anyOf", "discriminator", "description", "type", "items"],
        ["types", _, _] => field(FieldContext::Property),
        ["tools", _] => TOOL_KEYS.to_vec(),
        ["tools", _, "parameters", _] => field(FieldContext::Parameter),
        ["triggers", _] => TRIGGER_KEYS.to_vec(),
        ["triggers", _, "input", _] => field(FieldContext::TriggerInput),
        ["input", _] => field(FieldContext::Input),
        ["variables", _] => field(FieldContext::Variable),
        ["resources", _] => field(FieldContext::Resource),
        ["skills" | "onDemandSkills", _] => SKILL_KEYS.to_vec(),
        ["mcpServers", _] => MCP_SERVER_KEYS.to_vec(),
        ["onDemandMcpServers", _] => ON_DEMAND_MCP_KEYS.to_vec(),
        ["workers", _] => WORKER_KEYS.to_vec(),
        ["agent"] => AGENT_KEYS.to_vec(),
        [.., "contextManagement"] => CONTEXT_MANAGEMENT_KEYS.to_vec(),
        // A handler for each trigger that has none yet.
        ["handlers"] => names.triggers.iter().map(String::as_str).collect(),
        ["handlers", _, _] | ["steps", _] => {
            let mut keys = BLOCK_COMMON.to_vec();
            let kind = place.block.and_then(BlockKind::from_name);
            let extra = kind.map_or(&[][..], BlockKind::keys);
            let extra: Vec<&str> = extra
                .iter()
                .copied()
                .filter(|k| !keys.contains(k))
                .collect();
            keys.extend(extra);
            keys
        }
        _ => Vec::new(),
    }
}

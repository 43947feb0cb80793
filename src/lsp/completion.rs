//! Completion at the cursor, and the documentation of the key under it.
//! Both read the grammar (`crate::grammar`): the keys valid where the
//! cursor stands, each with its documentation; the choices of a key's
//! value (block kinds, `display`, `thinking`, `true`/`false`, ...); type
//! names where a type is expected; and declared names where a tool,
//! worker, thread, prompt or variable is expected.
//!
//! A file being typed is often not valid YAML, so the place is read from
//! the text around the cursor, not from the tree: the key being written on
//! the cursor's line, and the keys of the lines above it that are indented
//! less (its parents). The names offered are those of the latest check
//! that could read the file.

use super::Analysis;
use super::convert::{self, Encoding};
use crate::grammar::{self, Key, MapKeys, Refers, Spot, Value};
use crate::model::resolve::{Resolution, SymbolKind};
use crate::source::Source;
use crate::syntax::{BlockKind, Builtin};
use lsp_types as lsp;

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
    /// Keys already written beside the cursor.
    siblings: Vec<&'t str>,
    /// The `block:` of the block the path goes through, if any.
    block: Option<&'t str>,
}

fn place<'t>(source: &'t Source, line: usize, column: usize) -> Place<'t> {
    let text = source.text();
    let line_text = |n: usize| source.line_range(n).map_or("", |r| &text[r]);
    // The parents: going up, each line that starts less indented.
    let mut parents = Vec::new();
    let mut level = column;
    for n in (0..line).rev() {
        let Some(above) = read_line(line_text(n)) else {
            continue;
        };
        if above.key_column < level {
            if let Some(key) = above.key {
                parents.push((key, n, above.key_column));
            }
            level = above.indent;
            if level == 0 {
                break;
            }
        }
    }
    parents.reverse();
    let path: Vec<&str> = parents.iter().map(|(key, _, _)| *key).collect();
    // The siblings: the lines at the cursor's column under the same parent.
    let start = parents.last().map_or(0, |(_, n, _)| n + 1);
    let below = |start: usize, column: usize| {
        let mut keys = Vec::new();
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
            if other.key_column == column
                && let Some(key) = other.key
            {
                keys.push((key, other.value));
            }
        }
        keys
    };
    let siblings = below(start, column);
    // Where the path names a block, if it goes through one: the grammar
    // says where blocks sit (a handler's, or a worker's steps).
    let depth = grammar::block_on(&path);
    let block = match depth {
        Some(depth) if path.len() == depth + 1 => siblings
            .iter()
            .find(|(key, _)| *key == "block")
            .map(|(_, v)| *v),
        Some(depth) if path.len() > depth + 1 => {
            // Under the block: its own keys are a level below its name.
            let (_, n, name_column) = parents[depth];
            let first = (n + 1..source.line_count())
                .filter_map(|n| read_line(line_text(n)))
                .map(|l| l.key_column)
                .find(|&c| c > name_column);
            first.and_then(|column| {
                let mut keys = Vec::new();
                for m in n + 1..source.line_count() {
                    let Some(other) = read_line(line_text(m)) else {
                        continue;
                    };
                    if other.key_column <= name_column {
                        break;
                    }
                    if other.key_column == column && other.key == Some("block") {
                        keys.push(other.value);
                    }
                }
                keys.first().copied()
            })
        }
        _ => None,
    };
    Place {
        path,
        siblings: siblings.into_iter().map(|(key, _)| key).collect(),
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
    let names = analysis.names();

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
    // The trigger whose handler the cursor is in: its inputs are readable.
    let trigger = grammar::name_on(&place.path, Refers::Trigger);

    // A value: after `key:` on this line (flow collections included), or
    // a list item under a `key:` line. The path runs to the key.
    let mut path = place.path.clone();
    match value_keys(after_item) {
        Some(keys) => path.extend(keys),
        None if after_item.contains(':') => return Vec::new(),
        None if trimmed.starts_with("- ") && after_item.is_empty() => {}
        None if after_item.is_empty() => {
            // A key.
            return key_choices(&place, names)
                .into_iter()
                .filter(|(key, _)| !place.siblings.contains(key))
                .map(|(key, doc)| lsp::CompletionItem {
                    documentation: documentation(doc),
                    ..item(
                        key,
                        lsp::CompletionItemKind::PROPERTY,
                        "",
                        format!("{key}: "),
                    )
                })
                .collect();
        }
        None => return Vec::new(),
    }
    values(value_choices(&path, &place, names, trigger, analysis))
}

/// A key's documentation, as completion and hover show it.
fn documentation(doc: &str) -> Option<lsp::Documentation> {
    (!doc.is_empty()).then(|| {
        lsp::Documentation::MarkupContent(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: doc.to_string(),
        })
    })
}

/// The documentation of the key under the cursor: the key's name, where
/// it stands, and what it is for.
pub fn key_hover(
    analysis: &Analysis,
    position: lsp::Position,
    encoding: Encoding,
) -> Option<lsp::Hover> {
    let source = &analysis.compilation.source;
    let offset = convert::offset(source, position, encoding);
    let (line, _) = source.utf16_position(offset);
    let range = source.line_range(line)?;
    let line_text = &source.text()[range.clone()];
    let read = read_line(line_text)?;
    let name = read.key?;
    // The cursor is on the key as written (quotes aside).
    let start = range.start + line_text[read.key_column..].find(name)? + read.key_column;
    let end = start + name.len();
    if !(start..=end).contains(&offset) {
        return None;
    }
    let place = place(source, line, read.key_column);
    let mut path = place.path.clone();
    path.push(name);
    let key = grammar::key_at(&path, place.block)?;
    let mut text = format!("**`{}`**", key.name);
    if key.presence.required() {
        text.push_str(" (required)");
    }
    text.push_str("\n\n");
    text.push_str(key.doc);
    if let Some(deprecation) = key.deprecated {
        text.push_str(&format!("\n\n*Deprecated:* {}.", deprecation.summary));
    }
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: text,
        }),
        range: Some(convert::range(
            source,
            crate::Span::new(start, end),
            encoding,
        )),
    })
}

/// The keys from the line's own to the one whose value the text before the
/// cursor ends at, through the flow collections the line opens: `type: `
/// gives `[type]`, `OTHER: { type: ` gives `[OTHER, type]`, `tools: [a, `
/// gives `[tools]` (an item of its list). `None` where no value is due:
/// after one is written (`type: string `, `{ type: string }`), or where a
/// flow mapping moves on to its next key (`{type: string, de`).
fn value_keys(head: &str) -> Option<Vec<&str>> {
    struct Level<'h> {
        /// The key whose value this collection is (none for the line).
        owner: Option<&'h str>,
        list: bool,
        /// The key just written, whose value is due.
        key: Option<&'h str>,
        /// A value is due: after `key:`, or at an item of a list.
        due: bool,
    }
    let mut levels = vec![Level {
        owner: None,
        list: false,
        key: None,
        due: false,
    }];
    let bytes = head.as_bytes();
    let mut word: Option<usize> = None;
    let mut quote: Option<u8> = None;
    for (i, &b) in bytes.iter().enumerate() {
        let level = levels.last_mut()?;
        if let Some(q) = quote {
            if b == q {
                quote = None;
            }
            continue;
        }
        match b {
            b'"' | b'\'' => {
                word.get_or_insert(i);
                quote = Some(b);
            }
            b':' if bytes.get(i + 1).is_none_or(|&next| next == b' ') => {
                let key = head[word.take().unwrap_or(i)..i].trim();
                let key = key.trim_matches(|c| c == '"' || c == '\'');
                level.key = Some(key);
                level.due = true;
            }
            b'{' | b'[' => {
                let owner = if level.due { level.key } else { None };
                level.due = false;
                word = None;
                levels.push(Level {
                    owner,
                    list: b == b'[',
                    key: None,
                    due: b == b'[',
                });
            }
            b'}' | b']' => {
                if levels.len() > 1 {
                    levels.pop();
                }
                let parent = levels.last_mut()?;
                parent.due = false;
                word = None;
            }
            b',' => {
                level.key = None;
                level.due = level.list;
                word = None;
            }
            b' ' | b'\t' => {
                if word.take().is_some() {
                    // A value written, or a word that is no key.
                    level.due = false;
                }
            }
            _ => {
                word.get_or_insert(i);
            }
        }
    }
    let last = levels.last()?;
    if !last.due || word.is_some() {
        return None;
    }
    let mut keys: Vec<&str> = levels.iter().filter_map(|level| level.owner).collect();
    if !last.list {
        keys.push(last.key?);
    }
    Some(keys)
}

type Choice<'a> = (&'a str, lsp::CompletionItemKind, &'a str);

fn named<'a>(
    names: Vec<&'a str>,
    kind: lsp::CompletionItemKind,
    detail: &'a str,
) -> Vec<Choice<'a>> {
    names.into_iter().map(|n| (n, kind, detail)).collect()
}

/// What may follow the key at the end of `path` (after `key:`, or as a
/// list item under it) where the cursor is.
fn value_choices<'a>(
    path: &[&str],
    place: &Place<'a>,
    names: &'a Resolution,
    trigger: Option<&'a str>,
    analysis: &'a Analysis,
) -> Vec<Choice<'a>> {
    use lsp::CompletionItemKind as Kind;
    let (_, parent) = path.split_last().unwrap_or((&"", &[]));
    let variables = || {
        names
            .readable(trigger)
            .into_iter()
            .map(|n| (n, Kind::VARIABLE, "variable"))
            .collect::<Vec<_>>()
    };
    // A label's source in an input mapping, or a `tool-call` argument.
    let passed_on = grammar::key_at(parent, place.block)
        .is_some_and(|key| matches!(key.value, Value::InputMapping | Value::Arguments));
    if passed_on {
        return variables();
    }
    // An entry of a mapping by name whose values name something.
    if let Some(Spot::Map(map)) = grammar::spot_at(parent, place.block) {
        return match map.entry {
            Value::Name(refers) => refer(refers, names, analysis, &variables),
            _ => Vec::new(),
        };
    }
    let Some(key) = grammar::key_at(path, place.block) else {
        return Vec::new();
    };
    // A block's `output` writes a variable; a worker's own `output`, at the
    // top level, reads one.
    if key.name == "output" && place.block.is_some() {
        return named(names.writable(), Kind::VARIABLE, "variable");
    }
    let mut choices = value_of(key, names, analysis, &variables);
    if key.dynamic {
        choices.extend(variables());
    }
    choices
}

/// The values a key takes, by the grammar's kind of value.
fn value_of<'a>(
    key: &Key,
    names: &'a Resolution,
    analysis: &'a Analysis,
    variables: &dyn Fn() -> Vec<Choice<'a>>,
) -> Vec<Choice<'a>> {
    use lsp::CompletionItemKind as Kind;
    match key.value {
        Value::Choice(choices) => choices
            .iter()
            .map(|c| (*c, Kind::ENUM_MEMBER, key.name))
            .collect(),
        Value::Flag => vec![
            ("true", Kind::KEYWORD, "boolean"),
            ("false", Kind::KEYWORD, "boolean"),
        ],
        Value::BlockKind => BlockKind::ALL
            .iter()
            .map(|k| (k.name(), Kind::ENUM_MEMBER, "block kind"))
            .collect(),
        Value::TypeExpr | Value::ArrayTypeExpr => {
            let mut choices: Vec<Choice> = Builtin::ALL
                .iter()
                .map(|b| (b.name(), Kind::KEYWORD, "built-in type"))
                .collect();
            choices.push(("array", Kind::KEYWORD, "an array; give `items`"));
            choices.extend(named(
                names.declared(SymbolKind::Type),
                Kind::STRUCT,
                "type",
            ));
            choices
        }
        Value::TypeName | Value::Variants => {
            named(names.declared(SymbolKind::Type), Kind::STRUCT, "type")
        }
        Value::InputMapping => variables(),
        Value::Name(refers) | Value::Names(refers) => refer(refers, names, analysis, variables),
        _ => Vec::new(),
    }
}

/// The declared names of a kind.
fn refer<'a>(
    refers: Refers,
    names: &'a Resolution,
    analysis: &'a Analysis,
    variables: &dyn Fn() -> Vec<Choice<'a>>,
) -> Vec<Choice<'a>> {
    use lsp::CompletionItemKind as Kind;
    match refers {
        Refers::Variable => variables(),
        Refers::Tool => named(names.declared(SymbolKind::Tool), Kind::FUNCTION, "tool"),
        Refers::Skill => named(names.declared(SymbolKind::Skill), Kind::MODULE, "skill"),
        Refers::McpServer => named(
            names.declared(SymbolKind::McpServer),
            Kind::MODULE,
            "MCP server",
        ),
        Refers::McpSource => grammar::MCP_SOURCES
            .iter()
            .map(|s| (*s, Kind::ENUM_MEMBER, "MCP source"))
            .collect(),
        Refers::Worker => named(names.declared(SymbolKind::Worker), Kind::MODULE, "worker"),
        Refers::Thread => named(names.threads(), Kind::CONSTANT, "thread"),
        Refers::Prompt => prompts(analysis),
        Refers::Reference => Vec::new(),
        Refers::Trigger => named(names.declared(SymbolKind::Trigger), Kind::EVENT, "trigger"),
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

/// The keys a mapping takes at `place`, with their documentation.
fn key_choices<'a>(place: &Place<'a>, names: &'a Resolution) -> Vec<(&'a str, &'static str)> {
    let Some(spot) = grammar::spot_at(&place.path, place.block) else {
        return Vec::new();
    };
    // Entries keyed by name (a handler for each trigger that has none yet).
    if let Spot::Map(grammar::Map {
        keys: MapKeys::Names(refers),
        ..
    }) = spot
    {
        let declared = SymbolKind::of(*refers).map(|kind| names.declared(kind));
        return declared
            .unwrap_or_default()
            .into_iter()
            .map(|name| (name, ""))
            .collect();
    }
    let keys = spot.keys();
    if keys.is_empty() {
        return spot.fixed_keys().iter().map(|k| (*k, "")).collect();
    }
    keys.into_iter().map(|key| (key.name, key.doc)).collect()
}

#[cfg(test)]
mod tests {
    use super::value_keys;

    #[test]
    fn the_value_due_is_found_through_the_flow_collections_of_the_line() {
        let due = |head: &'static str| value_keys(head);
        assert_eq!(due("type: "), Some(vec!["type"]));
        assert_eq!(due("type:"), Some(vec!["type"]));
        assert_eq!(due("OTHER: { type: "), Some(vec!["OTHER", "type"]));
        assert_eq!(
            due("n: { type: string, optional: "),
            Some(vec!["n", "optional"])
        );
        assert_eq!(
            due("\"Call\": { block: tool-call, tool: "),
            Some(vec!["Call", "tool"])
        );
        assert_eq!(due("a: { b: { c: "), Some(vec!["a", "b", "c"]));
        assert_eq!(due("tools: ["), Some(vec!["tools"]));
        assert_eq!(due("tools: [a, "), Some(vec!["tools"]));
        assert_eq!(due("x: { items: [a, "), Some(vec!["x", "items"]));
        // No value due: written, closed, or a flow mapping's next key.
        assert_eq!(due("type: string "), None);
        assert_eq!(due("x: { type: string }"), None);
        assert_eq!(due("x: { type: string } "), None);
        assert_eq!(due("x: { type: string, "), None);
        assert_eq!(due("tools: [a "), None);
        assert_eq!(due(""), None);
        assert_eq!(due("description: \"a: b\" "), None);
        // A colon inside quotes or a word is no key's.
        assert_eq!(due("x: \"a: "), None);
        assert_eq!(due("url: http://x"), None);
    }
}

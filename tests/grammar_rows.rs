//! One row per key: every key of every place in the grammar is read by
//! the lowering, written in the editor schema with its documentation,
//! offered by completion where it belongs and documented on hover. The
//! places and their paths are found by walking the grammar from the top,
//! so a new row is covered without touching this file.

mod common;

use agentc::diagnostic::Code;
use agentc::grammar::{self, Key, Map, MapKeys, Place, TypeDefForm, Value as Kind};
use agentc::model::resolve::{Role, SymbolKind};
use common::lsp::{Client, scratch};
use serde_json::Value as Json;

/// A place as a protocol reaches it: the keys from the top of a file to
/// it, the block kind written beside its keys (a block's), and the keys
/// that make its form (a named type's).
struct Reached {
    place: &'static Place,
    path: Vec<&'static str>,
    kind: Option<&'static str>,
    /// Written beside the key under test, unless it is that key.
    context: Vec<(&'static str, &'static str)>,
}

/// A name for an entry of `map`.
fn entry_name(map: &Map) -> &'static str {
    match map.keys {
        MapKeys::Fixed(keys) => keys[0],
        MapKeys::Pattern(pattern) if pattern == grammar::VARIABLE_NAME => "SOME_INPUT",
        MapKeys::Pattern(pattern) if pattern == grammar::TYPE_NAME => "Thing",
        MapKeys::Pattern(pattern) => panic!("no name for the pattern {pattern}"),
        MapKeys::Any | MapKeys::Names(_) => "some-entry",
    }
}

/// Every place, each once, with the first path that reaches it.
fn reached() -> Vec<Reached> {
    fn walk(value: Kind, path: Vec<&'static str>, out: &mut Vec<Reached>) {
        match value {
            Kind::Nested(place) => visit(place, path, None, Vec::new(), out),
            Kind::MapOf(map) => {
                let mut path = path;
                path.push(entry_name(map));
                walk(map.entry, path, out);
            }
            Kind::Block => {
                for place in &grammar::BLOCKS {
                    let context = vec![("block", place.name)];
                    visit(place, path.clone(), Some(place.name), context, out);
                }
            }
            Kind::TypeDef => {
                for form in TypeDefForm::ALL {
                    match form.place() {
                        Some(place) => {
                            // The key that makes the form, with a value
                            // that makes it.
                            let context = TypeDefForm::MARKED
                                .iter()
                                .filter(|(f, _, _)| *f == form)
                                .map(|&(_, marker, _)| (marker, marker_value(marker)))
                                .collect();
                            visit(place, path.clone(), None, context, out);
                        }
                        None => walk(form.value(), path.clone(), out),
                    }
                }
            }
            _ => {}
        }
    }
    fn visit(
        place: &'static Place,
        path: Vec<&'static str>,
        kind: Option<&'static str>,
        mut context: Vec<(&'static str, &'static str)>,
        out: &mut Vec<Reached>,
    ) {
        if out.iter().any(|r| std::ptr::eq(r.place, place)) {
            return;
        }
        if place.field && !context.iter().any(|(key, _)| *key == "type") {
            // `items` goes with `type: array`.
            context.push(("type", "array"));
        }
        out.push(Reached {
            place,
            path: path.clone(),
            kind,
            context,
        });
        for key in place.keys() {
            let mut path = path.clone();
            path.push(key.name);
            walk(key.value, path, out);
        }
    }
    let mut out = Vec::new();
    visit(&grammar::PROTOCOL, Vec::new(), None, Vec::new(), &mut out);
    out
}

fn marker_value(marker: &str) -> &'static str {
    match marker {
        "anyOf" => "[First, Second]",
        "type" => "array",
        other => panic!("no value for the form key `{other}`"),
    }
}

/// A value the key takes, as written after `key: `.
fn sample(key: &Key, kind: Option<&str>) -> String {
    match key.value {
        Kind::Text | Kind::Literal => "some text".into(),
        Kind::Name(grammar::Refers::Variable) => "SOME_VAR".into(),
        Kind::Names(grammar::Refers::Variable) | Kind::InputMapping => "[SOME_VAR]".into(),
        Kind::Names(grammar::Refers::McpSource) => format!("[{}]", grammar::MCP_SOURCES[0]),
        Kind::Name(_) => "some-name".into(),
        Kind::Names(_) => "[some-name]".into(),
        Kind::Flag => "true".into(),
        Kind::Integer { min, .. } => min.max(1).to_string(),
        Kind::Number { min, .. } => min.to_string(),
        Kind::Fraction => "0.5".into(),
        Kind::Temperature => "0.7".into(),
        Kind::AspectRatio => "\"16:9\"".into(),
        Kind::Choice(choices) => choices[0].into(),
        Kind::Model => "anthropic/claude-sonnet-4-5".into(),
        Kind::Arguments => "{}".into(),
        Kind::TypeExpr => "string".into(),
        Kind::ArrayTypeExpr => "array".into(),
        Kind::TypeName => "Thing".into(),
        Kind::Variants => "[First, Second]".into(),
        Kind::EnumValues => "[first, second]".into(),
        Kind::Any => "1".into(),
        Kind::BlockKind => kind.unwrap_or("next-message").into(),
        Kind::Nested(_) | Kind::MapOf(_) => "{}".into(),
        Kind::Block | Kind::TypeDef => panic!("`{}` is an entry, not a key", key.name),
    }
}

/// The text that opens each key of `path`, one a line, each indented
/// under the last, and the indentation inside.
fn nest(path: &[&str]) -> (String, String) {
    let mut text = String::new();
    for (depth, key) in path.iter().enumerate() {
        text.push_str(&format!("{}{key}:\n", "  ".repeat(depth)));
    }
    (text, "  ".repeat(path.len()))
}

/// The place's path with `key: value` written inside it, beside the
/// keys of its context; and the line and column of `key`.
fn with_key(reached: &Reached, key: &str, value: &str) -> (String, u32, u32) {
    let (mut text, indent) = nest(&reached.path);
    for (context, context_value) in &reached.context {
        if *context != key {
            text.push_str(&format!("{indent}{context}: {context_value}\n"));
        }
    }
    let line = text.lines().count() as u32;
    text.push_str(&format!("{indent}{key}: {value}\n"));
    (text, line, indent.len() as u32)
}

#[test]
fn the_walk_reaches_every_place_of_the_grammar() {
    let reached = reached();
    let places = grammar::places();
    for place in &places {
        assert!(
            reached.iter().any(|r| std::ptr::eq(r.place, *place)),
            "{} is not reached",
            place.name
        );
    }
    assert_eq!(reached.len(), places.len());
}

/// A protocol that writes the key, with a value it takes, has no unknown
/// key: the lowering has a place for every row. And a value of the wrong
/// shape (a mapping where a scalar or a list goes) is reported where it
/// is written: the lowering reads the key's value, and does not drop it.
#[test]
fn the_lowering_reads_every_key() {
    let mut checked = 0;
    for reached in reached() {
        for key in reached.place.keys() {
            let value = sample(key, reached.kind);
            let (text, _, _) = with_key(&reached, key.name, &value);
            let report = common::compile_text(&text);
            let unknown: Vec<&str> = report
                .diagnostics
                .iter()
                .filter(|d| d.code == Code::UnknownKey)
                .map(|d| d.message.as_str())
                .collect();
            assert!(
                unknown.is_empty(),
                "`{}` of {}: {unknown:?}\n{text}",
                key.name,
                reached.place.name
            );
            checked += 1;

            let scalar_or_list = !matches!(
                key.value,
                Kind::Any
                    | Kind::Nested(_)
                    | Kind::MapOf(_)
                    | Kind::InputMapping
                    | Kind::Arguments
                    | Kind::ArrayTypeExpr
            );
            if !scalar_or_list {
                continue;
            }
            let wrong = "{ wrong: shape }";
            let (text, _, _) = with_key(&reached, key.name, wrong);
            let at = text.rfind(wrong).unwrap_or(0);
            let report = common::compile_text(&text);
            assert!(
                report
                    .diagnostics
                    .iter()
                    .any(|d| d.span.start as usize == at),
                "`{}: {wrong}` of {} is not reported: {:?}\n{text}",
                key.name,
                reached.place.name,
                report
                    .diagnostics
                    .iter()
                    .map(|d| &d.message)
                    .collect::<Vec<_>>()
            );
        }
    }
    assert!(checked > 200, "{checked} keys");
}

/// The schemas `schema` stands for: itself, what it refers to and every
/// branch it may take (`allOf`, `anyOf`, `oneOf`, `then`, `else`).
fn expand<'s>(schema: &'s Json, root: &'s Json, out: &mut Vec<&'s Json>) {
    if out.iter().any(|s| std::ptr::eq(*s, schema)) {
        return;
    }
    out.push(schema);
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.trim_start_matches("#/definitions/");
        expand(&root["definitions"][name], root, out);
    }
    for branches in ["allOf", "anyOf", "oneOf"] {
        for branch in schema[branches].as_array().into_iter().flatten() {
            expand(branch, root, out);
        }
    }
    for branch in ["then", "else"] {
        if schema[branch].is_object() {
            expand(&schema[branch], root, out);
        }
    }
}

/// The schemas of the mapping at `path`: of the block of kind `kind`,
/// where the path leads to a block.
fn schemas_at<'s>(root: &'s Json, path: &[&str], kind: Option<&str>) -> Vec<&'s Json> {
    let mut here = Vec::new();
    expand(root, root, &mut here);
    for name in path {
        let mut next = Vec::new();
        for schema in &here {
            let child = match &schema["properties"][name] {
                Json::Null => &schema["additionalProperties"],
                child => child,
            };
            if child.is_object() {
                expand(child, root, &mut next);
            }
        }
        here = next;
    }
    // A block's variant is the one whose `block:` is its kind.
    here.retain(|schema| {
        let block = &schema["properties"]["block"]["const"];
        kind.is_none() || block.is_null() || block.as_str() == kind
    });
    here
}

#[test]
fn the_editor_schema_has_every_key_with_its_documentation() {
    let root = grammar::editor_schema::schema();
    for reached in reached() {
        let schemas = schemas_at(&root, &reached.path, reached.kind);
        for key in reached.place.keys() {
            let found = schemas
                .iter()
                .any(|schema| schema["properties"][key.name]["description"] == key.doc);
            assert!(
                found,
                "`{}` of {} at {:?}",
                key.name, reached.place.name, reached.path
            );
        }
    }
}

/// Completion at an empty line inside the place offers each of its keys
/// (but `block`, which is written to say the kind).
#[test]
fn completion_offers_every_key_where_it_belongs() {
    let mut client = Client::start(false);
    for reached in reached() {
        let (mut text, indent) = nest(&reached.path);
        if let Some(kind) = reached.kind {
            text.push_str(&format!("{indent}block: {kind}\n"));
        }
        let line = text.lines().count() as u32;
        text.push_str(&format!("{indent}\n"));
        let doc = scratch("grammar-rows.yaml");
        client.open(&doc, &text);
        let items = client.at("textDocument/completion", &doc, line, indent.len() as u32);
        let offered = labels(&items);
        for key in reached.place.keys() {
            if reached.kind.is_some() && key.name == "block" {
                continue;
            }
            assert!(
                offered.contains(&key.name),
                "`{}` of {} at {:?}: {offered:?}",
                key.name,
                reached.place.name,
                reached.path
            );
        }
    }
    client.shutdown();
}

/// Hovering the key shows its name and its documentation. A named
/// type's keys are documented before its form is known, so `description`
/// there shows the first form's.
#[test]
fn hover_documents_every_key() {
    let mut client = Client::start(false);
    for reached in reached() {
        for key in reached.place.keys() {
            let (text, line, column) = with_key(&reached, key.name, &sample(key, reached.kind));
            let doc = scratch("grammar-rows-hover.yaml");
            client.open(&doc, &text);
            let hover = client.at("textDocument/hover", &doc, line, column + 1);
            let shown = hover["contents"]["value"].as_str().unwrap_or_default();
            let docs: Vec<&str> = match TypeDefForm::ALL
                .iter()
                .any(|form| form.place().is_some_and(|p| std::ptr::eq(p, reached.place)))
            {
                true => TypeDefForm::ALL
                    .iter()
                    .filter_map(|form| form.place()?.key(key.name))
                    .map(|k| k.doc)
                    .collect(),
                false => vec![key.doc],
            };
            assert!(
                shown.starts_with(&format!("**`{}`**", key.name))
                    && docs.iter().any(|doc| shown.contains(doc)),
                "`{}` of {} at {:?}: {shown:?}\n{text}",
                key.name,
                reached.place.name,
                reached.path
            );
        }
    }
    client.shutdown();
}

/// Every occurrence the resolution records for `text`: kind, name, role
/// and the key it sits under.
fn occurrences(text: &str) -> Vec<(SymbolKind, String, Role, &'static str)> {
    let report = common::compile_text(text);
    let Some(model) = &report.model else {
        return Vec::new();
    };
    let resolution = model.resolution();
    resolution
        .occurrences()
        .iter()
        .map(|o| {
            let symbol = resolution.symbol(o.symbol);
            (symbol.kind, symbol.name.clone(), o.role, o.key)
        })
        .collect()
}

/// A kind of symbol declared (or called) by an entry's name, and how.
type Declared = Option<(SymbolKind, Role)>;

/// What the entries of each mapping by name declare, by the place and key
/// that hold it: a kind of symbol, or nothing. A new mapping fails the
/// test until it is listed here, so the name walk is never left behind.
const DECLARES: &[(&str, &str, Declared)] = &[
    (
        "Protocol",
        "input",
        Some((SymbolKind::Variable, Role::Definition)),
    ),
    (
        "Protocol",
        "resources",
        Some((SymbolKind::Variable, Role::Definition)),
    ),
    (
        "Protocol",
        "variables",
        Some((SymbolKind::Variable, Role::Definition)),
    ),
    (
        "Protocol",
        "triggers",
        Some((SymbolKind::Trigger, Role::Definition)),
    ),
    (
        "Protocol",
        "tools",
        Some((SymbolKind::Tool, Role::Definition)),
    ),
    (
        "Protocol",
        "types",
        Some((SymbolKind::Type, Role::Definition)),
    ),
    (
        "Protocol",
        "skills",
        Some((SymbolKind::Skill, Role::Definition)),
    ),
    (
        "Protocol",
        "mcpServers",
        Some((SymbolKind::McpServer, Role::Definition)),
    ),
    (
        "Protocol",
        "workers",
        Some((SymbolKind::Worker, Role::Definition)),
    ),
    // A handler is keyed by the trigger it handles.
    (
        "Protocol",
        "handlers",
        Some((SymbolKind::Trigger, Role::Call)),
    ),
    (
        "Trigger",
        "input",
        Some((SymbolKind::Variable, Role::Definition)),
    ),
    // Keyed by source, a word of the grammar.
    ("Protocol", "onDemandMcpServers", None),
    // Blocks are named for the debug UI, not referred to.
    ("Protocol", "steps", None),
    // Parameters are the tool's, written in calls by name.
    ("Tool", "parameters", None),
    // The worker's own tool names; the values name this agent's tools.
    ("Worker", "tools", None),
    // Anthropic's names.
    ("Anthropic", "tools", None),
    ("Anthropic", "skills", None),
];

/// The name walk (`model::resolve`) against the grammar: every key whose
/// value names something (a tool, worker, prompt, variable, ..., or a
/// variable in place of a setting), every entry of a mapping whose values
/// name something, and every declaring mapping's entries, in every place,
/// yields an occurrence of that kind under that key.
#[test]
fn the_name_walk_records_every_name_the_grammar_has() {
    let mut checked = 0;
    for reached in reached() {
        for key in reached.place.keys() {
            let (kind, name, value) = match key.value {
                Kind::Name(refers) => (SymbolKind::of(refers), "some-name", "some-name"),
                Kind::Names(refers) => (SymbolKind::of(refers), "some-name", "[some-name]"),
                _ if key.dynamic => (Some(SymbolKind::Variable), "SOME_VAR", "SOME_VAR"),
                Kind::TypeExpr | Kind::TypeName => (Some(SymbolKind::Type), "Thing", "Thing"),
                Kind::ArrayTypeExpr => (Some(SymbolKind::Type), "Thing", "\"Thing[]\""),
                Kind::MapOf(map) => {
                    let entry = entry_name(map);
                    let declares = DECLARES
                        .iter()
                        .find(|(place, name, _)| *place == reached.place.name && *name == key.name)
                        .unwrap_or_else(|| {
                            panic!(
                                "what do the entries of `{}` of {} declare? List it in DECLARES",
                                key.name, reached.place.name
                            )
                        });
                    let (symbol, role) = match (declares.2, map.entry) {
                        (Some(declared), _) => declared,
                        (None, Kind::Name(refers)) => match SymbolKind::of(refers) {
                            Some(symbol) => (symbol, Role::Use),
                            None => continue,
                        },
                        (None, _) => continue,
                    };
                    // An entry that names something: its value.
                    let (written, value) = match declares.2 {
                        Some(_) => (entry, format!("{{ {entry}: {{}} }}")),
                        None => ("some-name", format!("{{ {entry}: some-name }}")),
                    };
                    let (text, _, _) = with_key(&reached, key.name, &value);
                    let found = occurrences(&text);
                    assert!(
                        found.iter().any(|(k, n, r, under)| *k == symbol
                            && n == written
                            && *r == role
                            && *under == key.name),
                        "`{}` of {}: {found:?}\n{text}",
                        key.name,
                        reached.place.name
                    );
                    checked += 1;
                    continue;
                }
                _ => continue,
            };
            let Some(kind) = kind else {
                continue;
            };
            let name = match kind {
                SymbolKind::Variable => "SOME_VAR",
                _ => name,
            };
            let value = value.replace("some-name", name);
            let (text, _, _) = with_key(&reached, key.name, &value);
            let found = occurrences(&text);
            assert!(
                found
                    .iter()
                    .any(|(k, n, _, under)| *k == kind && n == name && *under == key.name),
                "`{}` of {}: {found:?}\n{text}",
                key.name,
                reached.place.name
            );
            checked += 1;
        }
    }
    assert!(checked > 60, "{checked} keys");
}

/// Where entries are keyed by the names of something declared (a handler
/// by its trigger), completion offers those names that have no entry yet.
#[test]
fn completion_offers_the_names_entries_are_keyed_by() {
    let mut client = Client::start(false);
    let text = "triggers:\n  go: {}\n  stop: {}\nhandlers:\n  go: {}\n  \n";
    let doc = scratch("grammar-rows-names.yaml");
    client.open(&doc, text);
    let items = client.at("textDocument/completion", &doc, 5, 2);
    let offered = labels(&items);
    assert_eq!(offered, ["stop"]);
    client.shutdown();
}

/// The labels of a completion answer's items, in order.
fn labels(items: &serde_json::Value) -> Vec<&str> {
    items
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["label"].as_str())
        .collect()
}

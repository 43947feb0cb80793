//! Hover, go to definition, find references, rename and quick fixes, each
//! answered from a protocol's latest [`Analysis`].

use super::Analysis;
use super::convert::{self, Encoding};
use crate::Code;
use crate::diagnostic::{Applicability, Diagnostics};
use crate::emit::{self, Selection, Target};
use crate::model::resolve::{Occurrence, Symbol, SymbolKind, rename_edit, unquoted};
use crate::source::Source;
use crate::span::Span;
use crate::syntax::Builtin;
use lsp_server::{ErrorCode, ResponseError};
use lsp_types as lsp;
use std::collections::HashMap;

/// Most lines of a declaration a hover shows.
const MAX_HOVER_LINES: usize = 40;

/// The most lines of JSON Schema a hover shows: a type that reaches a
/// long chain of others has thousands (a protocol of 10,000 types gave a
/// hover of 6 MB), which no editor shows usefully.
const MAX_HOVER_SCHEMA_LINES: usize = 200;

fn occurrence_at(
    analysis: &Analysis,
    position: lsp::Position,
    encoding: Encoding,
) -> Option<&Occurrence> {
    let offset = convert::offset(&analysis.compilation.source, position, encoding);
    analysis.index().at(offset)
}

fn location(analysis: &Analysis, span: Span, encoding: Encoding) -> lsp::Location {
    let range = convert::range(&analysis.compilation.source, span, encoding);
    lsp::Location::new(analysis.uri.clone(), range)
}

/// A type shows its declaration and the JSON Schema `agentc emit --type`
/// prints; a tool, its parameter schema; anything else, its declaration.
pub fn hover(
    analysis: &Analysis,
    position: lsp::Position,
    encoding: Encoding,
) -> Option<lsp::Hover> {
    // A name, or else a key: its documentation from the grammar.
    let Some(occurrence) = occurrence_at(analysis, position, encoding) else {
        return super::completion::key_hover(analysis, position, encoding);
    };
    let symbol = analysis.index().symbol(occurrence.symbol);
    let source = &analysis.compilation.source;
    let mut text = format!("**{} `{}`**", symbol.kind.describe(), symbol.name);
    if let Some(trigger) = &symbol.trigger {
        text.push_str(&format!(" (input of trigger `{trigger}`)"));
    }
    match analysis.index().definitions(occurrence.symbol).next() {
        Some(definition) => {
            text.push_str("\n\n```yaml\n");
            text.push_str(&declaration(source, definition.span));
            text.push_str("\n```");
        }
        None if matches!(symbol.kind, SymbolKind::Prompt | SymbolKind::Reference) => {
            let folder = if symbol.kind == SymbolKind::Prompt {
                "prompts"
            } else {
                "references"
            };
            text.push_str(&format!("\n\nthe file `{folder}/{}.md`", symbol.name));
        }
        None => text.push_str("\n\nnot declared in this protocol"),
    }
    let selection = match symbol.kind {
        SymbolKind::Type => Some(Selection::Type(&symbol.name)),
        SymbolKind::Tool => Some(Selection::Tool(&symbol.name)),
        _ => None,
    };
    if let Some(selection) = selection {
        text.push_str("\n\n");
        text.push_str(&schema(analysis, selection));
    }
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: text,
        }),
        range: Some(convert::range(source, occurrence.span, encoding)),
    })
}

/// The schema `agentc emit` prints, or why there is none. The json-schema
/// target names each type once under `$defs` and refers to it by `$ref`,
/// so it terminates on any protocol but a recursive one; a name that does
/// not resolve shows as `{}`.
fn schema(analysis: &Analysis, selection: Selection) -> String {
    let compilation = &analysis.compilation;
    // A recursive protocol says so with `circular-type`, unless the
    // configuration silenced it (or another error): then nothing is known.
    let silenced = !compilation.sound && !compilation.has_errors();
    let recursive = silenced
        || compilation
            .diagnostics
            .iter()
            .any(|d| d.code == Code::CircularType);
    let model = match &compilation.model {
        Some(model) if !recursive => model,
        _ if silenced => {
            return "JSON Schema: shown once the protocol has no errors (agentc.toml or an `agentc-ignore` comment silences some)".to_string();
        }
        _ => return "JSON Schema: shown once the protocol's types are not recursive".to_string(),
    };
    let heading = match selection {
        Selection::Tool(_) => "Parameters (JSON Schema)",
        _ => "JSON Schema",
    };
    let caveat = if compilation.has_errors() {
        " (the protocol has errors; a type that is not defined shows as `{}`)"
    } else {
        ""
    };
    match emit::emit(
        model,
        Target::JsonSchema,
        selection,
        &mut Diagnostics::default(),
    ) {
        Ok(output) => {
            let text = output.into_text();
            let (shown, more) = first_lines(&text, MAX_HOVER_SCHEMA_LINES);
            let command = match selection {
                Selection::Tool(name) => format!("agentc emit --tool {name}"),
                Selection::Type(name) => format!("agentc emit --type {name}"),
                _ => "agentc emit".to_string(),
            };
            let rest = match more {
                0 => String::new(),
                more => format!("\n{more} more lines: `{command}` prints it whole"),
            };
            format!("{heading}{caveat}:\n\n```json\n{shown}```{rest}")
        }
        Err(error) => format!("JSON Schema: {error}"),
    }
}

/// The first `max` lines of `text` (each with its line break), and how
/// many more there are.
fn first_lines(text: &str, max: usize) -> (&str, usize) {
    match text.match_indices('\n').nth(max.saturating_sub(1)) {
        Some((at, _)) if at + 1 < text.len() => {
            let rest = &text[at + 1..];
            (&text[..at + 1], rest.lines().count())
        }
        _ => (text, 0),
    }
}

/// The lines of a declaration: the name's line and every line below it
/// indented deeper than the name (blank lines included), at most
/// [`MAX_HOVER_LINES`].
fn declaration(source: &Source, span: Span) -> String {
    let (first, _) = source.utf16_position(span.start as usize);
    let indent = |line: &str| line.len() - line.trim_start_matches([' ', '-']).len();
    let Some(range) = source.line_range(first) else {
        return String::new();
    };
    let text = source.text();
    let head = &text[range];
    let depth = indent(head);
    let mut lines = vec![head];
    for line in first + 1..source.line_count() {
        let Some(range) = source.line_range(line) else {
            break;
        };
        let body = &text[range];
        if !body.trim().is_empty() && indent(body) <= depth {
            break;
        }
        if lines.len() == MAX_HOVER_LINES {
            lines.push("  # …");
            break;
        }
        lines.push(body);
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

pub fn definition(
    analysis: &Analysis,
    position: lsp::Position,
    encoding: Encoding,
) -> Option<Vec<lsp::Location>> {
    let occurrence = occurrence_at(analysis, position, encoding)?;
    let symbol = analysis.index().symbol(occurrence.symbol);
    let folder = match symbol.kind {
        SymbolKind::Prompt => "prompts",
        SymbolKind::Reference => "references",
        _ => {
            let found = analysis.index().definitions(occurrence.symbol);
            let locations: Vec<_> = found
                .map(|d| location(analysis, d.span, encoding))
                .collect();
            return (!locations.is_empty()).then_some(locations);
        }
    };
    let dir = analysis.folder.as_ref()?;
    let file = dir.join(folder).join(format!("{}.md", symbol.name));
    if !file.is_file() {
        return None;
    }
    let uri = convert::uri_of(&file)?;
    Some(vec![lsp::Location::new(uri, lsp::Range::default())])
}

pub fn references(
    analysis: &Analysis,
    position: lsp::Position,
    include_declaration: bool,
    encoding: Encoding,
) -> Option<Vec<lsp::Location>> {
    let occurrence = occurrence_at(analysis, position, encoding)?;
    let found = analysis.index().occurrences(occurrence.symbol);
    let found = found.filter(|o| include_declaration || !o.role.is_definition());
    Some(
        found
            .map(|o| location(analysis, o.span, encoding))
            .collect(),
    )
}

/// Whether a symbol can be renamed here: it is declared in this file.
/// Prompts and references are files; `main` is the platform's thread.
fn renameable(analysis: &Analysis, occurrence: &Occurrence) -> bool {
    let kind = analysis.index().symbol(occurrence.symbol).kind;
    !matches!(kind, SymbolKind::Prompt | SymbolKind::Reference)
        && analysis
            .index()
            .definitions(occurrence.symbol)
            .next()
            .is_some()
}

pub fn prepare_rename(
    analysis: &Analysis,
    position: lsp::Position,
    encoding: Encoding,
) -> Option<lsp::PrepareRenameResponse> {
    let occurrence = occurrence_at(analysis, position, encoding)?;
    if !renameable(analysis, occurrence) {
        return None;
    }
    let (span, _) = unquoted(&analysis.compilation.source, occurrence.span);
    let range = convert::range(&analysis.compilation.source, span, encoding);
    Some(lsp::PrepareRenameResponse::Range(range))
}

pub fn rename(
    analysis: &Analysis,
    position: lsp::Position,
    new_name: &str,
    encoding: Encoding,
) -> Result<Option<lsp::WorkspaceEdit>, ResponseError> {
    let Some(occurrence) = occurrence_at(analysis, position, encoding) else {
        return Ok(None);
    };
    let symbol = analysis.index().symbol(occurrence.symbol);
    if !renameable(analysis, occurrence) {
        return Err(refuse(format!(
            "{} `{}` cannot be renamed here",
            symbol.kind.describe(),
            symbol.name
        )));
    }
    if let Some(problem) = name_problem(symbol.kind, new_name) {
        return Err(refuse(format!("`{new_name}` {problem}")));
    }
    if let Some(problem) = taken(analysis, symbol, new_name) {
        return Err(refuse(format!("`{new_name}` {problem}")));
    }
    let source = &analysis.compilation.source;
    let edits = analysis
        .index()
        .occurrences(occurrence.symbol)
        .map(|o| {
            let (span, new_text) = rename_edit(source, o.span, o.labelled, new_name);
            lsp::TextEdit {
                range: convert::range(source, span, encoding),
                new_text,
            }
        })
        .collect();
    let changes = HashMap::from([(analysis.uri.clone(), edits)]);
    Ok(Some(lsp::WorkspaceEdit::new(changes)))
}

/// Why a new name is taken where the symbol is declared: by a built-in
/// type, or by a declared name of its kind it would merge with (for a
/// trigger's input, one its handler reads too). Renaming into it would
/// declare the name twice, or make every use of a type the built-in.
fn taken(analysis: &Analysis, symbol: &Symbol, new: &str) -> Option<String> {
    if symbol.name == new {
        return None;
    }
    if symbol.kind == SymbolKind::Type && Builtin::from_name(new).is_some() {
        return Some("is a built-in type".to_string());
    }
    let names = analysis.names();
    let declared = match (symbol.kind, &symbol.trigger) {
        (SymbolKind::Variable, Some(trigger)) => names.readable(Some(trigger)),
        (kind, _) => names.declared(kind),
    };
    declared
        .contains(&new)
        .then(|| format!("is already the name of a {}", symbol.kind.describe()))
}

/// Why a new name cannot be written in place of an old one: it would not
/// read back as the same name everywhere it goes.
fn name_problem(kind: SymbolKind, name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("is empty");
    }
    if matches!(name, "~" | "null" | "Null" | "NULL") {
        return Some("reads as null in YAML, which is no name");
    }
    if kind == SymbolKind::Variable && !crate::syntax::is_variable_name(name) {
        return Some(
            "is not UPPERCASE_SNAKE_CASE; a value in another case reads as a literal, not a variable",
        );
    }
    let special = |c: char| {
        c.is_whitespace()
            || matches!(
                c,
                ':' | '#'
                    | '{'
                    | '}'
                    | '['
                    | ']'
                    | ','
                    | '&'
                    | '*'
                    | '!'
                    | '|'
                    | '>'
                    | '\''
                    | '"'
                    | '%'
                    | '@'
                    | '`'
                    | '\\'
            )
    };
    if name.chars().any(special) || name.starts_with(['-', '?']) {
        return Some("is not a plain name (no spaces or YAML punctuation)");
    }
    None
}

fn refuse(message: String) -> ResponseError {
    ResponseError {
        code: ErrorCode::RequestFailed as i32,
        message,
        data: None,
    }
}

/// Whether a code action request asks for the fix of everything
/// (`source.fixAll`, or all `source` actions): editors ask on save.
pub fn wants_fix_all(context: &lsp::CodeActionContext) -> bool {
    context.only.iter().flatten().any(|kind| {
        let kind = kind.as_str();
        kind == "source" || kind == "source.fixAll" || kind == "source.fixAll.agentc"
    })
}

/// The `source.fixAll.agentc` action: the document's text `before`
/// replaced whole by `after`, when `before` is the text analysed.
pub fn fix_all(
    analysis: &Analysis,
    before: &str,
    after: &str,
    applied: usize,
    encoding: Encoding,
) -> Option<lsp::CodeActionOrCommand> {
    let source = &analysis.compilation.source;
    if source.text() != before {
        return None;
    }
    let whole = convert::range(source, Span::new(0, before.len()), encoding);
    let title = match applied {
        1 => "Fix 1 problem (agentc)".to_string(),
        n => format!("Fix {n} problems (agentc)"),
    };
    Some(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
        title,
        kind: Some(lsp::CodeActionKind::new("source.fixAll.agentc")),
        edit: Some(lsp::WorkspaceEdit::new(HashMap::from([(
            analysis.uri.clone(),
            vec![lsp::TextEdit {
                range: whole,
                new_text: after.to_string(),
            }],
        )]))),
        ..lsp::CodeAction::default()
    }))
}

/// The quick fixes for the diagnostics in `range`: each diagnostic's own
/// fix ("did you mean", quoting a shorthand, a `responseType` wrapped),
/// preferred when it is safe.
pub fn code_actions(
    analysis: &Analysis,
    range: lsp::Range,
    encoding: Encoding,
) -> Vec<lsp::CodeActionOrCommand> {
    let compilation = &analysis.compilation;
    let source = &compilation.source;
    let wanted = convert::span(source, range, encoding);
    let mut actions = Vec::new();
    let touches = |span: Span| span.end >= wanted.start && span.start <= wanted.end;
    for diagnostic in &compilation.diagnostics {
        let span = diagnostic.span;
        // On the problem, or on what its fix changes (a syntax error is
        // found after the text to quote).
        let edits = diagnostic.fix.iter().flat_map(|fix| &fix.edits);
        if !touches(span) && !edits.map(|e| e.span).any(touches) {
            continue;
        }
        let fix = match &diagnostic.fix {
            Some(fix) if !fix.fits(source.text()) => None,
            Some(fix) => Some((
                fix.title.clone(),
                fix.edits.clone(),
                fix.applicability == Applicability::Safe,
            )),
            None => None,
        };
        let Some((title, edits, preferred)) = fix else {
            continue;
        };
        let edits = edits
            .into_iter()
            .map(|edit| lsp::TextEdit {
                range: convert::range(source, edit.span, encoding),
                new_text: edit.text,
            })
            .collect();
        let uri = &analysis.uri;
        actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title,
            kind: Some(lsp::CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![convert::diagnostic(
                &mut convert::Positions::new(source, encoding),
                uri,
                diagnostic,
            )]),
            edit: Some(lsp::WorkspaceEdit::new(HashMap::from([(
                uri.clone(),
                edits,
            )]))),
            is_preferred: Some(preferred),
            ..lsp::CodeAction::default()
        }));
    }
    actions
}

//! JSON data as a file: parsing it (one value, or JSON Lines), running a
//! validator on each value, and placing every [`Violation`] at its line
//! and column.

use super::json::{Doc, Index};
use super::run_input::RunInputValidator;
use super::{Anchor, Inside, Validator, Violation};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::{Source, Span};
use serde_json::Value;

/// How the data is laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// JSON Lines: one value per line; blank lines are skipped.
    pub lines: bool,
    /// A string value holds a JSON text to validate instead (tool-call
    /// arguments, as AG-UI carries them).
    pub encoded: bool,
}

/// The values of a data file, each with the byte offset it starts at.
pub fn documents(text: &str, layout: Layout) -> Vec<Doc<'_>> {
    if !layout.lines {
        return vec![Doc::slice(text, 0)];
    }
    let mut docs = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            docs.push(Doc::slice(line, start));
        }
        start += line.len();
    }
    docs
}

/// Parses one document; a syntax error becomes a diagnostic (`code`:
/// `invalid-json` or `invalid-arguments`) at its place.
fn parse(doc: &Doc, code: Code, diagnostics: &mut Vec<Diagnostic>) -> Option<Value> {
    let error = match serde_json::from_str(&doc.text) {
        Ok(value) => return Some(value),
        Err(error) => error,
    };
    {
        // At the end of the text ("EOF while parsing"), point after its
        // last character rather than at the line after it.
        let at = error_offset(&doc.text, &error).min(doc.text.trim_end().len());
        let message = error.to_string();
        // serde_json appends " at line L column C"; the span says that.
        let reason = match message.rfind(" at line ") {
            Some(cut) => &message[..cut],
            None => &message,
        };
        let message = match code {
            Code::InvalidArguments => format!("the arguments are not JSON: {reason}"),
            _ => format!("the data is not JSON: {reason}"),
        };
        let range = doc.range(at..next_char(&doc.text, at));
        let mut diagnostic = Diagnostic::new(code, Span::new(range.start, range.end), message);
        if code == Code::InvalidArguments {
            diagnostic = diagnostic
                .with_help("the string holds the tool's arguments, which must be a JSON text");
        }
        diagnostics.push(diagnostic);
    }
    None
}

/// The byte offset of a `serde_json` error: its line, and its column
/// counted in bytes from that line's start.
pub fn error_offset(text: &str, error: &serde_json::Error) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(error.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let mut at = (line_start + error.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn next_char(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(at, |c| at + c.len_utf8())
}

/// Validates every value of a data file against `validator`.
pub fn check(validator: &Validator, source: &Source, layout: Layout) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for doc in documents(source.text(), layout) {
        let Some(value) = parse(&doc, Code::InvalidJson, &mut diagnostics) else {
            continue;
        };
        match (&value, layout.encoded) {
            (Value::String(_), true) => {
                let index = Index::new(&doc.text);
                let Some(inner) = index.locate("").and_then(|place| doc.string(place.value)) else {
                    continue;
                };
                if let Some(arguments) = parse(&inner, Code::InvalidArguments, &mut diagnostics)
                    && let Err(violations) = validator.validate(&arguments)
                {
                    diagnostics.extend(locate(&inner, &violations));
                }
            }
            _ => {
                if let Err(violations) = validator.validate(&value) {
                    diagnostics.extend(locate(&doc, &violations));
                }
            }
        }
    }
    crate::order(&mut diagnostics);
    diagnostics
}

/// Checks every `RunAgentInput` of a data file.
pub fn check_run_input(
    validator: &RunInputValidator,
    source: &Source,
    layout: Layout,
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for doc in documents(source.text(), layout) {
        if let Some(value) = parse(&doc, Code::InvalidJson, &mut diagnostics) {
            let violations = validator.validate(&value, doc.text.len());
            diagnostics.extend(locate(&doc, &violations));
        }
    }
    crate::order(&mut diagnostics);
    diagnostics
}

/// Places violations found in one document.
pub fn locate(doc: &Doc, violations: &[Violation]) -> Vec<Diagnostic> {
    if violations.is_empty() {
        return Vec::new();
    }
    let index = Index::new(&doc.text);
    violations
        .iter()
        .map(|violation| {
            let span = span(doc, &index, &violation.pointer, violation.anchor);
            let span = match &violation.inside {
                None => span,
                Some(inside) => {
                    inside_span(doc, &index, &violation.pointer, inside).unwrap_or(span)
                }
            };
            let mut diagnostic = Diagnostic::new(violation.code, span, violation.message.clone())
                .with_pointer(violation.pointer.clone());
            diagnostic.help = violation.help.clone();
            for related in &violation.related {
                let at = self::span(doc, &index, &related.pointer, Anchor::Value);
                diagnostic = diagnostic.with_label(at, related.message.clone());
            }
            diagnostic
        })
        .collect()
}

fn span(doc: &Doc, index: &Index, pointer: &str, anchor: Anchor) -> Span {
    let Some(place) = index.locate(pointer) else {
        return Span::empty(doc.offset(0));
    };
    let range = match anchor {
        Anchor::Value => place.value,
        Anchor::Key => place.key.unwrap_or(place.value),
        Anchor::Start => place.value.start..(place.value.start + 1).min(place.value.end),
    };
    let range = doc.range(range);
    Span::new(range.start, range.end)
}

/// The span of a place inside the JSON text carried by the string at
/// `pointer`.
fn inside_span(doc: &Doc, index: &Index, pointer: &str, inside: &Inside) -> Option<Span> {
    let place = index.locate(pointer)?;
    let inner = doc.string(place.value)?;
    let range = match inside {
        Inside::Offset(at) => inner.range(*at..next_char(&inner.text, *at)),
        Inside::Value { pointer, anchor } => {
            let span = span(&inner, &Index::new(&inner.text), pointer, *anchor);
            return Some(span);
        }
    };
    Some(Span::new(range.start, range.end))
}

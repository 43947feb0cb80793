//! JSON data as a file: reading it (one value, or JSON Lines), running a
//! validator on each value, and placing every [`Violation`] at its line
//! and column.

use super::json::{self, Doc, Index, error_offset, syntax_reason};
use super::run_input::RunInputValidator;
use super::{Anchor, Inside, Validator, Violation};
use crate::diagnostic::{Code, Diagnostic, Diagnostics, Severity};
use crate::source::Source;
use crate::span::Span;
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

/// The values of a data file, each with the byte offset it starts at, one
/// at a time. A byte order mark before them is not part of any
/// ([`json::without_bom`]).
pub fn documents(text: &str, layout: Layout) -> impl Iterator<Item = Doc<'_>> {
    let (text, start) = json::without_bom(text);
    let mut whole = (!layout.lines).then_some(text);
    let mut lines = layout.lines.then(|| text.split_inclusive('\n'));
    let mut at = start;
    std::iter::from_fn(move || {
        if let Some(text) = whole.take() {
            return Some(Doc::slice(text, start));
        }
        for line in lines.as_mut()? {
            let here = at;
            at += line.len();
            if !line.trim().is_empty() {
                return Some(Doc::slice(line, here));
            }
        }
        None
    })
}

/// A document's text read as JSON: its syntax checked, and, when
/// `indexed`, its [`Index`] made in the same pass ([`Index::checked`]).
fn read(text: &str, indexed: bool) -> Result<Option<Index<'_>>, serde_json::Error> {
    match indexed {
        true => Index::checked(text).map(Some),
        false => json::check_syntax(text).map(|()| None),
    }
}

/// Checks one document's syntax and, when `indexed`, indexes it
/// ([`read`]); an error becomes a diagnostic (`code`: `invalid-json` or
/// `invalid-arguments`) at its place, and `None`.
fn syntax<'d>(
    doc: &'d Doc,
    code: Code,
    indexed: bool,
    diagnostics: &mut Diagnostics,
) -> Option<Option<Index<'d>>> {
    let error = match read(&doc.text, indexed) {
        Ok(index) => return Some(index),
        Err(error) => error,
    };
    // At the end of the text ("EOF while parsing"), point after its last
    // character rather than at the line after it.
    let at = error_offset(&doc.text, &error).min(doc.text.trim_end().len());
    let range = doc.range(at..next_char(&doc.text, at));
    let span = Span::new(range.start, range.end);
    if let Some(beyond) = json::Beyond::of(&error) {
        let whose = match code {
            Code::InvalidArguments => "the arguments",
            _ => "the data",
        };
        diagnostics.push(Diagnostic::new(
            beyond.code(code),
            span,
            beyond.message(whose),
        ));
        return None;
    }
    let reason = syntax_reason(&error);
    diagnostics.push(match code {
        Code::InvalidArguments => {
            Diagnostic::new(code, span, format!("the arguments are not JSON: {reason}"))
                .with_help("the string holds the tool's arguments, which must be a JSON text")
        }
        _ => Diagnostic::new(code, span, format!("the data is not JSON: {reason}")),
    });
    None
}

fn next_char(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(at, |c| at + c.len_utf8())
}

/// The JSON text a document carries when it is one string (tool-call
/// arguments as AG-UI carries them), decoded and mapped to the file.
fn encoded(doc: &Doc, index: &Index) -> Option<Doc<'static>> {
    let root = index.root()?;
    match index.kind(root) {
        json::Kind::String => doc.string(index.span(root)),
        _ => None,
    }
}

/// Validates every value of a data file against `validator`. A value is
/// validated, and its problems placed, through one [`Index`] of its text:
/// it is never built as a `serde_json::Value`.
pub fn check(validator: &Validator, source: &Source, layout: Layout) -> Vec<Diagnostic> {
    let valid = |doc: &Doc, index: Option<&Index>| {
        let Some(index) = index else {
            return false;
        };
        let inner = layout.encoded.then(|| encoded(doc, index)).flatten();
        match inner {
            Some(inner) => Index::checked(&inner.text).is_ok_and(|inner_index| {
                !inner_index.repeats_keys() && valid_in(validator, &inner_index)
            }),
            None => valid_in(validator, index),
        }
    };
    each_value(source, layout, true, valid, |doc, index, diagnostics| {
        let Some(index) = index else {
            return;
        };
        let Some(root) = index.root() else {
            return;
        };
        if let Some(inner) = layout.encoded.then(|| encoded(doc, index)).flatten() {
            if let Some(Some(inner_index)) =
                syntax(&inner, Code::InvalidArguments, true, diagnostics)
            {
                if inner_index.repeats_keys() {
                    duplicate_keys(&inner, diagnostics);
                }
                if let Some(root) = inner_index.root() {
                    validator.validate_each(&inner_index, root, &mut |v| {
                        diagnostics.push(place(&inner, &inner_index, v))
                    });
                }
            }
        } else {
            validator.validate_each(index, root, &mut |v| diagnostics.push(place(doc, index, v)));
        }
    })
}

fn valid_in(validator: &Validator, index: &Index) -> bool {
    index
        .root()
        .is_some_and(|root| validator.is_valid_in(index, root))
}

/// Checks every `RunAgentInput` of a data file.
pub fn check_run_input(
    validator: &RunInputValidator,
    source: &Source,
    layout: Layout,
) -> Vec<Diagnostic> {
    // Warnings (an unknown member, say) leave a payload valid.
    let valid = |doc: &Doc, _: Option<&Index>| {
        serde_json::from_str::<Value>(&doc.text).is_ok_and(|value| {
            validator
                .validate(&value, 0)
                .iter()
                .all(|v| v.code.severity() != crate::Severity::Error)
        })
    };
    each_value(source, layout, false, valid, |doc, _, diagnostics| {
        let Ok(value) = serde_json::from_str::<Value>(&doc.text) else {
            return;
        };
        let violations = validator.validate(&value, doc.text.len());
        // The value goes before the text is indexed to place its
        // problems: the two are never held at once.
        drop(value);
        diagnostics.extend(locate(doc, violations));
    })
}

/// The longest one JSON value (a file, or a line of JSON Lines) that
/// `agentc validate` reads. Tool arguments, replies and `RunAgentInput`s
/// are kilobytes. A JSON Lines file may still be 16 MiB in all.
pub const MAX_VALUE_BYTES: usize = 4 * 1024 * 1024;

/// The error for a value longer than [`MAX_VALUE_BYTES`], at its start.
fn too_large(doc: &Doc) -> Diagnostic {
    let start = doc.offset(0);
    let first = doc.text.chars().next().map_or(0, char::len_utf8);
    Diagnostic::new(
        Code::ValueTooLarge,
        Span::new(start, start + first),
        format!(
            "this JSON value is {} KiB long, more than the {} KiB agentc validates",
            doc.text.len() / 1024,
            MAX_VALUE_BYTES / 1024
        ),
    )
    .with_help("validate smaller values: one per line, with `--lines`")
}

/// At most as many diagnostics as one file's are recorded: past them, a
/// value is only asked whether it is valid (`valid`, given a value whose
/// syntax was checked, and its index), without explaining or placing its
/// problems, and each invalid one counts once, so a JSON Lines file of
/// millions of bad values costs what validating them does. Values are read
/// one at a time, and `check` gets each one whose syntax was checked, with
/// its index when `indexed` (a validator that reads a `serde_json::Value`
/// has no use for one): a value's text is read once for both
/// ([`Index::checked`]).
pub(crate) fn each_value(
    source: &Source,
    layout: Layout,
    indexed: bool,
    valid: impl Fn(&Doc, Option<&Index>) -> bool,
    mut check: impl FnMut(&Doc, Option<&Index>, &mut Diagnostics),
) -> Vec<Diagnostic> {
    let mut diagnostics = Diagnostics::default();
    diagnostics.extend(json::byte_order_mark(source.text()));
    for doc in documents(source.text(), layout) {
        if doc.text.len() > MAX_VALUE_BYTES {
            diagnostics.push(too_large(&doc));
            continue;
        }
        if diagnostics.is_full() {
            let valid = read(&doc.text, indexed).is_ok_and(|index| {
                valid(&doc, index.as_ref()) && !repeats_keys(&doc.text, index.as_ref())
            });
            if !valid {
                diagnostics.count_at_least(Severity::Error);
            }
            continue;
        }
        if let Some(index) = syntax(&doc, Code::InvalidJson, indexed, &mut diagnostics) {
            if index.as_ref().is_none_or(Index::repeats_keys) {
                duplicate_keys(&doc, &mut diagnostics);
            }
            check(&doc, index.as_ref(), &mut diagnostics);
        }
    }
    let mut diagnostics = diagnostics.into_vec();
    crate::order(&mut diagnostics);
    diagnostics
}

/// Reports every key written twice in one object of a document, each at
/// its repeat (`duplicate-key`); past the file's limit, only counted.
pub(crate) fn duplicate_keys(doc: &Doc, diagnostics: &mut Diagnostics) {
    json::duplicate_keys(&doc.text, |first, repeat| {
        diagnostics.push_with(Code::DuplicateKey, || {
            json::duplicate_key(doc, first, repeat)
        })
    });
}

/// Whether a JSON text writes a key twice in one object: its index knows,
/// where it has one.
fn repeats_keys(text: &str, index: Option<&Index>) -> bool {
    index.map_or_else(|| has_duplicate_keys(text), Index::repeats_keys)
}

/// Whether a JSON text writes a key twice in one object.
fn has_duplicate_keys(text: &str) -> bool {
    let mut found = false;
    json::duplicate_keys(text, |_, _| found = true);
    found
}

/// Places violations found in one document.
pub fn locate(doc: &Doc, violations: Vec<Violation>) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::with_capacity(violations.len());
    if !violations.is_empty() {
        let index = Index::new(&doc.text);
        locate_in(doc, &index, violations, |d| diagnostics.push(d));
    }
    diagnostics
}

/// Places violations found in one document, through its index, handing
/// each diagnostic to `out` as it is made: a violation's words are moved,
/// not copied. The problems inside one carried JSON text (a tool call's
/// arguments) come together, and that text is decoded and indexed once.
pub fn locate_in(
    doc: &Doc,
    index: &Index,
    violations: Vec<Violation>,
    mut out: impl FnMut(Diagnostic),
) {
    let mut rest = violations.into_iter().peekable();
    while let Some(first) = rest.next() {
        if first.inside.is_none() {
            out(diagnostic(doc, index, None, first));
            continue;
        }
        let pointer = first.pointer.clone();
        let inner = index
            .locate(&pointer)
            .and_then(|place| doc.string(place.value));
        let inner_index = inner.as_ref().map(|inner| Index::new(&inner.text));
        let inner = inner.as_ref().zip(inner_index.as_ref());
        out(diagnostic(doc, index, inner, first));
        while let Some(next) = rest.next_if(|v| v.inside.is_some() && v.pointer == pointer) {
            out(diagnostic(doc, index, inner, next));
        }
    }
}

/// Places one violation found in one document, through its index: for a
/// caller that gets violations one at a time ([`Validator::validate_each`]).
pub fn place(doc: &Doc, index: &Index, violation: Violation) -> Diagnostic {
    let inner = violation
        .inside
        .as_ref()
        .and_then(|_| index.locate(&violation.pointer))
        .and_then(|place| doc.string(place.value));
    let inner_index = inner.as_ref().map(|inner| Index::new(&inner.text));
    diagnostic(
        doc,
        index,
        inner.as_ref().zip(inner_index.as_ref()),
        violation,
    )
}

/// The diagnostic of a violation: at its place in `doc`, or, for a problem
/// inside the JSON text its pointer's string carries, at its place in that
/// text (`inner`, decoded, and its index).
fn diagnostic(
    doc: &Doc,
    index: &Index,
    inner: Option<(&Doc, &Index)>,
    violation: Violation,
) -> Diagnostic {
    let mut at = span(doc, index, &violation.pointer, violation.anchor);
    if let (Some(inside), Some((inner, inner_index))) = (&violation.inside, inner) {
        at = inside_span(inner, inner_index, inside);
    }
    let mut diagnostic =
        Diagnostic::new(violation.code, at, violation.message).with_pointer(violation.pointer);
    diagnostic.help = violation.help.map(Into::into);
    for related in violation.related {
        let mut label = span(doc, index, &related.pointer, Anchor::Value);
        if let (Some(inside), Some((inner, inner_index))) = (&related.inside, inner) {
            label = inside_span(inner, inner_index, inside);
        }
        diagnostic = diagnostic.with_label(label, related.message);
    }
    diagnostic
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

/// The span of a place inside a JSON text carried in a string.
fn inside_span(inner: &Doc, index: &Index, inside: &Inside) -> Span {
    match inside {
        Inside::Offset(at) => {
            let range = inner.range(*at..next_char(&inner.text, *at));
            Span::new(range.start, range.end)
        }
        Inside::Range(range) => {
            let range = inner.range(range.clone());
            Span::new(range.start, range.end)
        }
        Inside::Value { pointer, anchor } => span(inner, index, pointer, *anchor),
    }
}

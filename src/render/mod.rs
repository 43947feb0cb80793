//! Renderers turn diagnostics into text for people (`human`), for tools
//! (`json`), for editors and grep (`short`), for GitHub Actions (`github`)
//! and for code scanning services (`sarif`). They return strings; the
//! binary decides where they go.

pub mod github;
pub mod human;
pub mod json;
pub mod markdown;
pub mod sarif;
pub mod short;

use crate::FileReport;
use crate::diagnostic::{Diagnostic, Failure, Severity};
use serde::{Serialize, Serializer};
use std::cell::Cell;

/// The help line and the notes, one per line (`note: ...`), when there are
/// any.
pub(crate) fn help_and_notes(d: &Diagnostic) -> Option<String> {
    let notes = d.notes.iter().map(|n| format!("note: {n}"));
    let lines: Vec<String> = d.help.iter().cloned().chain(notes).collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The same, and for a contract change the place it was at in the old
/// version (`was: origin/main:agents/shop/protocol.yaml:12:5`), for the
/// formats that have no field of their own for it.
pub(crate) fn help_notes_and_base(d: &Diagnostic) -> Option<String> {
    let base = d
        .change
        .as_ref()
        .and_then(|c| c.base.as_ref())
        .map(|base| format!("was: {base}"));
    let lines: Vec<String> = help_and_notes(d).into_iter().chain(base).collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// A message on one line: a line break would start what reads as another
/// diagnostic (`short`) or end a list item (`markdown`).
pub(crate) fn one_line(message: &str) -> String {
    message.replace(['\r', '\n'], " ")
}

/// The errors of a run: every file's, and every failure.
pub fn errors(files: &[FileReport], failures: &[Failure]) -> usize {
    let located: usize = files.iter().map(|f| f.count(Severity::Error)).sum();
    located + failures.len()
}

/// The warnings of a run.
pub fn warnings(files: &[FileReport]) -> usize {
    files.iter().map(|f| f.count(Severity::Warning)).sum()
}

/// What a `write` function writes, as a string (for tests and callers that
/// want the text whole).
pub(crate) fn to_string(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> String {
    let mut bytes = Vec::new();
    // Writing into a Vec cannot fail, and renderers write UTF-8.
    let _ = write(&mut bytes);
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A sequence serialized from an iterator as the serializer asks for its
/// items, so a long list is written out without being collected first.
pub(crate) struct Streamed<I>(Cell<Option<I>>);

impl<I> Streamed<I> {
    pub(crate) fn new(items: I) -> Streamed<I> {
        Streamed(Cell::new(Some(items)))
    }
}

impl<I> Serialize for Streamed<I>
where
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Serialized once: a second call writes an empty list.
        match self.0.take() {
            Some(items) => serializer.collect_seq(items),
            None => serializer.collect_seq(std::iter::empty::<I::Item>()),
        }
    }
}

//! Renderers turn diagnostics into text for people (`human`), for tools
//! (`json`), for editors and grep (`short`), for GitHub Actions (`github`)
//! and for code scanning services (`sarif`). They return strings; the
//! binary decides where they go.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;
pub mod short;

use crate::diagnostic::Diagnostic;

/// The help line and the notes, one per line (`note: ...`), when there are
/// any.
pub(crate) fn help_and_notes(d: &Diagnostic) -> Option<String> {
    let notes = d.notes.iter().map(|n| format!("note: {n}"));
    let lines: Vec<String> = d.help.iter().cloned().chain(notes).collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

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
use std::borrow::Cow;
use std::cell::Cell;

/// The help line and the notes, one per line (`note: ...`), when there are
/// any.
pub(crate) fn help_and_notes(d: &Diagnostic) -> Option<String> {
    let notes = d.notes.iter().map(|n| format!("note: {n}"));
    let lines: Vec<String> = d.help.iter().map(|h| h.to_string()).chain(notes).collect();
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
/// diagnostic (`short`) or end a list item (`markdown`); and inert, as every
/// text of the formats people read is.
pub(crate) fn one_line(message: &str) -> String {
    inert(&message.replace(['\r', '\n'], " ")).into_owned()
}

/// Whether a character of the input is shown escaped in the formats people
/// read in a terminal or a page (human, short, github, markdown): the
/// control characters (C0 but tab and line feed, DEL, C1), which a terminal
/// obeys (ESC starts a sequence that can clear the screen, move the cursor,
/// set the title or make a link; BEL rings; CR goes back over what was
/// written), the line and paragraph separators, and the bidirectional
/// controls, which reorder what is shown (CVE-2021-42574, "Trojan Source").
pub fn is_unsafe_char(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// How an unsafe character is shown: `\u{1b}`, as Rust writes it.
pub fn escape_char(c: char) -> String {
    format!("\\u{{{:x}}}", c as u32)
}

/// `text` with every [unsafe character](is_unsafe_char) shown escaped, so
/// that nothing from the input can act on the terminal or page that shows
/// it; borrowed when there is none (nearly always). JSON and SARIF keep
/// texts exact: their readers are programs.
pub fn inert(text: &str) -> Cow<'_, str> {
    // Every unsafe character is a byte below 0x20 or 0x7f, or starts with
    // 0xc2 (U+0080-U+009F), 0xd8 (U+061C) or 0xe2 (U+200E-U+2069): a
    // byte scan finds none in ordinary text without decoding it.
    if !text
        .bytes()
        .any(|b| (b < 0x20 && b != b'\t' && b != b'\n') || matches!(b, 0x7f | 0xc2 | 0xd8 | 0xe2))
    {
        return Cow::Borrowed(text);
    }
    if !text.chars().any(is_unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe_char(c) {
            out.push_str(&escape_char(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
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

#[cfg(test)]
mod word_tests {
    use super::*;

    #[test]
    fn inert_text_shows_what_a_terminal_would_obey() {
        assert_eq!(inert("plain text"), "plain text");
        assert_eq!(inert("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(inert("tab\tand\nline"), "tab\tand\nline");
        assert_eq!(inert("\r\u{7}\u{7f}\u{9b}"), "\\u{d}\\u{7}\\u{7f}\\u{9b}");
        assert_eq!(
            inert("\u{202e}\u{2066}\u{2028}"),
            "\\u{202e}\\u{2066}\\u{2028}"
        );
        assert_eq!(inert("é – ü 日本"), "é – ü 日本");
    }
}

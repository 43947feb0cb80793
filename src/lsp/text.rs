//! The text of a document open in the editor, and the changes the editor
//! sends to it.
//!
//! One `didChange` may carry thousands of changes (a multi-cursor edit, a
//! replace-all), each in positions of the text the ones before it left.
//! Building a line index per change (a [`crate::Source`]) made such a batch
//! cost its length times the document's size. Here the index is built
//! once, at the first change, and brought up to date after each change
//! (in this notification and the ones after it) by rescanning only the
//! inserted text, so the bytes scanned grow with the
//! document plus what the changes insert, not with their product. (Moving
//! the text after an edit, which `String::replace_range` does, is a memory
//! copy and stays proportional to what follows the edit.)

use super::convert::{self, Encoding};
use crate::source::{MAX_FILE_BYTES, Source};
use lsp_types as lsp;
use std::ops::Range;

/// The largest text kept for an open document: what one message may carry
/// ([`super::MAX_MESSAGE_BYTES`]). Changes can grow a text past any limit
/// a message has; one that grows past this one is dropped, and the
/// document reported too large (as any text over
/// [`crate::source::MAX_FILE_BYTES`] is) until a change replaces it whole
/// or it is opened again: the changes that follow cannot be applied to a
/// text not kept.
pub const MAX_DOCUMENT_BYTES: usize = super::MAX_MESSAGE_BYTES;

/// A file open in the editor.
pub(crate) struct Document {
    text: String,
    /// The text grew past [`MAX_DOCUMENT_BYTES`] and was dropped.
    too_large: bool,
    /// The text's line starts, once a change needed them, kept up to date
    /// from change to change: a keystroke scans what it inserts, not the
    /// whole text again.
    lines: Option<Lines>,
    /// The protocol this file was last checked with (itself, or its agent
    /// folder's): what it keeps alive in the server.
    pub protocol: Option<lsp::Uri>,
}

impl Document {
    pub fn new(text: String) -> Document {
        let mut document = Document {
            text,
            too_large: false,
            lines: None,
            protocol: None,
        };
        document.cap();
        document
    }

    /// The bytes a check reads, at most one more than
    /// [`crate::source::MAX_FILE_BYTES`] (as [`crate::agent::Files`] asks):
    /// enough to report a larger text as too large, without copying it.
    pub fn bytes(&self) -> Vec<u8> {
        if self.too_large {
            return vec![0; MAX_FILE_BYTES + 1];
        }
        let end = self.text.len().min(MAX_FILE_BYTES + 1);
        self.text.as_bytes()[..end].to_vec()
    }

    /// The text as a [`Source`], with the line index the changes kept,
    /// when it is one a check reads as it is: not too large and without a
    /// NUL byte (which [`crate::source::decode`] reports). `None` then, and
    /// before the first change, reads it through [`Document::bytes`].
    pub fn source(&self, name: &str) -> Option<Source> {
        let lines = self.lines.as_ref()?;
        if self.too_large
            || self.text.len() > MAX_FILE_BYTES
            || memchr::memchr(0, self.text.as_bytes()).is_some()
        {
            return None;
        }
        Some(Source::indexed(
            name,
            self.text.clone(),
            lines.starts.clone(),
        ))
    }

    /// The bytes held.
    pub fn len(&self) -> usize {
        self.text.len()
    }

    /// Applies a notification's changes in order; a range past the end is
    /// clamped to it. Returns the bytes scanned to place them.
    pub fn change(
        &mut self,
        changes: Vec<lsp::TextDocumentContentChangeEvent>,
        encoding: Encoding,
    ) -> u64 {
        let mut scanned = 0;
        for change in changes {
            match change.range {
                None => {
                    self.text = change.text;
                    self.too_large = false;
                    self.lines = None;
                }
                // Not kept: nothing to apply it to.
                Some(_) if self.too_large => {}
                Some(range) => {
                    let lines = self.lines.get_or_insert_with(|| Lines::new(&self.text));
                    let span = lines.range(&self.text, range, encoding);
                    lines.replace(&mut self.text, span, &change.text);
                    scanned += std::mem::take(&mut lines.scanned);
                }
            }
            self.cap();
        }
        scanned
    }

    /// Drops a text over [`MAX_DOCUMENT_BYTES`]; whether it did.
    fn cap(&mut self) -> bool {
        if self.text.len() <= MAX_DOCUMENT_BYTES {
            return false;
        }
        self.text = String::new();
        self.too_large = true;
        self.lines = None;
        true
    }

    #[cfg(test)]
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// The start of each line of a text, kept up to date through edits. A
/// line ends at `\n`, `\r\n` or a lone `\r`, as [`crate::Source`] counts
/// lines. Offsets fit in 32 bits: a text is at most
/// [`MAX_DOCUMENT_BYTES`] plus one message.
pub(crate) struct Lines {
    starts: Vec<u32>,
    /// Bytes read so far: the text once, then what edits insert and the
    /// lines positions fall on.
    pub scanned: u64,
}

/// Whether a line starts at `at` (`at > 0`).
fn starts_line(bytes: &[u8], at: usize) -> bool {
    match bytes[at - 1] {
        b'\n' => true,
        b'\r' => bytes.get(at) != Some(&b'\n'),
        _ => false,
    }
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let breaks = memchr::memchr2_iter(b'\n', b'\r', bytes)
            .filter(|&i| bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n'));
        starts.extend(breaks.map(|i| (i + 1) as u32));
        Lines {
            starts,
            scanned: bytes.len() as u64,
        }
    }

    /// The byte range of the 0-based line `line`, without its line break;
    /// `None` past the last line.
    fn line(&self, text: &str, line: usize) -> Option<Range<usize>> {
        let start = *self.starts.get(line)? as usize;
        let end = self
            .starts
            .get(line + 1)
            .map_or(text.len(), |&next| next as usize);
        let content = text[start..end].trim_end_matches(['\n', '\r']);
        Some(start..start + content.len())
    }

    /// The byte offset of a position, clamped as [`convert::offset`] does.
    fn offset(&mut self, text: &str, position: lsp::Position, encoding: Encoding) -> usize {
        let Some(line) = self.line(text, position.line as usize) else {
            return text.len();
        };
        let content = &text[line.clone()];
        let (at, scanned) = convert::column(content, position.character, encoding);
        self.scanned += scanned as u64;
        line.start + at
    }

    /// The bytes a range covers, start before end whatever the client sent.
    fn range(&mut self, text: &str, range: lsp::Range, encoding: Encoding) -> Range<usize> {
        let start = self.offset(text, range.start, encoding);
        let end = self.offset(text, range.end, encoding);
        start.min(end)..start.max(end)
    }

    /// Replaces `range` of `text` (on character boundaries) with `with`,
    /// and the line starts with it. A start depends only on the byte before
    /// it and the one at it, so those before the edit stay, those after it
    /// move by the change in length, and those between are found again by
    /// scanning the inserted text (and the byte after it, for a `\r` that
    /// now meets a `\n`).
    fn replace(&mut self, text: &mut String, range: Range<usize>, with: &str) {
        let Range { start, end } = range;
        text.replace_range(start..end, with);
        let bytes = text.as_bytes();
        let inserted_end = start + with.len();
        let keep = self.starts.partition_point(|&s| (s as usize) < start);
        let after = self.starts.partition_point(|&s| (s as usize) <= end);
        let from = start.max(1);
        let found = (from..=inserted_end)
            .filter(|&at| starts_line(bytes, at))
            .map(|at| at as u32);
        let mut middle: Vec<u32> = if start == 0 { vec![0] } else { Vec::new() };
        middle.extend(found);
        self.scanned += (inserted_end + 1).saturating_sub(from) as u64;
        let added = middle.len();
        self.starts.splice(keep..after, middle);
        let delta = with.len() as i64 - (end - start) as i64;
        if delta != 0 {
            for s in &mut self.starts[keep + added..] {
                *s = (i64::from(*s) + delta) as u32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Source;
    use proptest::prelude::*;

    /// What a change did before this module: a full index of the text per
    /// change. The reference the incremental one is checked against.
    fn reference(text: &str, range: lsp::Range, with: &str, encoding: Encoding) -> String {
        let source = Source::new("", text);
        let span = convert::span(&source, range, encoding);
        let mut edited = text.to_string();
        edited.replace_range(span.range(), with);
        edited
    }

    fn change(range: lsp::Range, text: &str) -> lsp::TextDocumentContentChangeEvent {
        lsp::TextDocumentContentChangeEvent {
            range: Some(range),
            range_length: None,
            text: text.to_string(),
        }
    }

    fn position() -> impl Strategy<Value = lsp::Position> {
        prop_oneof![
            8 => (0u32..12, 0u32..12),
            1 => (any::<u32>(), any::<u32>()),
        ]
        .prop_map(|(line, character)| lsp::Position::new(line, character))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// Any batch of changes, line breaks of every kind and characters
        /// of every width included, leaves the text the reference gives
        /// and the index a fresh one would be.
        #[test]
        fn incremental_changes_agree_with_rebuilding(
            text in "[ab\r\né😀]{0,24}",
            edits in prop::collection::vec((position(), position(), "[ab\r\né😀]{0,6}"), 1..24),
            utf8 in any::<bool>(),
        ) {
            let encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
            let mut expected = text.clone();
            let mut edited = text.clone();
            let mut lines = Lines::new(&edited);
            for (start, end, with) in &edits {
                let range = lsp::Range::new(*start, *end);
                expected = reference(&expected, range, with, encoding);
                let span = lines.range(&edited, range, encoding);
                lines.replace(&mut edited, span, with);
                prop_assert_eq!(&edited, &expected);
                prop_assert_eq!(&lines.starts, &Lines::new(&expected).starts);
            }
            // The same edits as one notification.
            let mut document = Document::new(text);
            let changes = edits
                .iter()
                .map(|(start, end, with)| change(lsp::Range::new(*start, *end), with))
                .collect();
            document.change(changes, encoding);
            prop_assert_eq!(document.text(), expected.as_str());
        }
    }

    /// Thousands of changes to a 1 MB document, at random places, scan
    /// the document once and each change's line and text, not the
    /// document per change.
    #[test]
    fn a_batch_of_changes_scans_the_document_once() {
        let line = "    field: { type: string, description: \"a line of about sixty bytes\" }\n";
        let text = line.repeat(1_000_000 / line.len());
        let lines_count = text.lines().count() as u32;
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut random = move |below: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(below)) as u32
        };
        let mut changes = Vec::new();
        let mut inserted = 0;
        for i in 0..5_000 {
            let line = random(lines_count);
            let start = lsp::Position::new(line, random(70));
            let end = lsp::Position::new(line + random(2), random(70));
            let with = ["", "x", "\n", "ab\r\n", "é"][i % 5];
            inserted += with.len();
            changes.push(change(lsp::Range::new(start, end), with));
        }
        let mut edited = text.clone();
        let mut lines = Lines::new(&edited);
        for change in &changes {
            let span = lines.range(&edited, change.range.unwrap(), Encoding::Utf16);
            lines.replace(&mut edited, span, &change.text);
        }
        assert_eq!(lines.starts, Lines::new(&edited).starts);
        // The document once, each change's two ends on their lines (which
        // joins and splits leave at most a few hundred bytes), and the
        // text inserted; not the 5 GB of scanning the document per change.
        let bound = (text.len() + 5_000 * 2 * 1024 + 2 * inserted) as u64;
        assert!(lines.scanned <= bound, "{} > {bound}", lines.scanned);
        let mut document = Document::new(text);
        assert_eq!(document.change(changes, Encoding::Utf16), lines.scanned);
        assert_eq!(document.text(), edited);
    }

    #[test]
    fn a_text_that_grows_past_the_limit_is_dropped_until_replaced() {
        let mut document = Document::new("a".repeat(MAX_DOCUMENT_BYTES - 1));
        assert_eq!(document.bytes().len(), MAX_FILE_BYTES + 1);
        let end = lsp::Position::new(0, u32::MAX);
        let grow = change(lsp::Range::new(end, end), "bb");
        document.change(vec![grow.clone()], Encoding::Utf8);
        assert!(document.too_large);
        assert_eq!(document.len(), 0);
        assert_eq!(document.bytes().len(), MAX_FILE_BYTES + 1);
        // A range cannot be applied to what was dropped; a whole text can.
        document.change(vec![grow.clone()], Encoding::Utf8);
        assert!(document.too_large);
        let whole = lsp::TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "types: {}\n".to_string(),
        };
        document.change(vec![whole, grow], Encoding::Utf8);
        assert_eq!(document.text(), "types: {}bb\n");
        assert_eq!(document.bytes(), b"types: {}bb\n");
    }
}

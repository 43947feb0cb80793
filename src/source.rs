//! The text of one protocol file and the conversions between byte offsets,
//! the positions people read (1-based lines, columns in Unicode scalar
//! values) and the positions LSP clients read (UTF-16 code units).

use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;
use std::sync::OnceLock;

/// The largest file agentc reads. Real protocols are kilobytes; this bound
/// keeps a hostile or mistaken input (a log file, `/dev/zero`) from taking
/// the machine's memory, and bounds the worst a file under it can cost
/// (`docs/performance.md`: a 16 MiB flow list of one-digit numbers).
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;

/// A position as a person reads it: 1-based line, 1-based column counted in
/// Unicode scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// One file's name and text, with a line index built once, when a
/// position is first asked for.
#[derive(Clone, Debug)]
pub struct Source {
    name: String,
    text: String,
    /// Where each line starts, found the first time a position is asked
    /// for: a check that finds nothing to report never needs them.
    line_starts: OnceLock<Box<[u32]>>,
    /// Whether the text is all ASCII, where a column is a byte offset.
    ascii: bool,
    /// Characters and UTF-16 units before each [`BLOCK`] of the text, built
    /// the first time a column is counted across a long stretch of one line.
    counts: OnceLock<Box<Counts>>,
}

/// Columns on short lines are counted directly; across more bytes than
/// this, from the nearest [`Counts`] checkpoint, so that finding a column
/// costs at most this much whatever the line's length (a flood of problems
/// on one 16 MiB line stays linear, with a small constant). The checkpoints
/// of a 16 MiB text take half a megabyte.
const BLOCK: usize = 256;

/// Running totals at the start of each [`BLOCK`] of a text.
#[derive(Clone, Debug)]
struct Counts {
    chars: Vec<u32>,
    utf16: Vec<u32>,
}

impl Counts {
    fn new(bytes: &[u8]) -> Counts {
        let blocks = bytes.len() / BLOCK + 1;
        let mut counts = Counts {
            chars: Vec::with_capacity(blocks),
            utf16: Vec::with_capacity(blocks),
        };
        let (mut chars, mut utf16) = (0u32, 0u32);
        counts.chars.push(0);
        counts.utf16.push(0);
        for block in bytes.chunks_exact(BLOCK) {
            let (c, u) = units(block);
            chars += c as u32;
            utf16 += u as u32;
            counts.chars.push(chars);
            counts.utf16.push(utf16);
        }
        counts
    }
}

/// The characters and UTF-16 units that start in `bytes`, which may begin
/// or end inside a character: a character is counted where its first byte
/// is, and needs two UTF-16 units when that byte starts four.
fn units(bytes: &[u8]) -> (usize, usize) {
    let chars = bytes.iter().filter(|&&b| (b as i8) >= -0x40).count();
    let astral = bytes.iter().filter(|&&b| b >= 0xF0).count();
    (chars, chars + astral)
}

/// Where each line of `text` starts: at 0, and after each `\n`, `\r\n`
/// or lone `\r`, as YAML and LSP count lines.
fn line_starts_of(text: &str) -> Vec<u32> {
    let mut line_starts = vec![0u32];
    let bytes = text.as_bytes();
    if memchr::memchr(b'\r', bytes).is_none() {
        // Nearly every file: one byte to look for, which `memchr` finds
        // quicker than either of two (7.8 against 8.7 million
        // instructions for the 83,000 lines of 10k synthetic types; a
        // search eight bytes at a time without SIMD took 9.4).
        line_starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| (i + 1) as u32));
    } else {
        let breaks = memchr::memchr2_iter(b'\n', b'\r', bytes)
            .filter(|&i| bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n'));
        line_starts.extend(breaks.map(|i| (i + 1) as u32));
    }
    line_starts
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        let text = text.into();
        Source {
            name: name.into(),
            ascii: text.is_ascii(),
            text,
            line_starts: OnceLock::new(),
            counts: OnceLock::new(),
        }
    }

    /// A text whose line starts are already known (an editor's buffer,
    /// whose index is kept up to date change by change): they must be the
    /// ones [`Source::new`] finds, which debug builds check.
    #[cfg(feature = "lsp")]
    pub(crate) fn indexed(name: impl Into<String>, text: String, line_starts: Vec<u32>) -> Source {
        debug_assert_eq!(line_starts, line_starts_of(&text));
        Source {
            name: name.into(),
            ascii: text.is_ascii(),
            text,
            line_starts: OnceLock::from(line_starts.into_boxed_slice()),
            counts: OnceLock::new(),
        }
    }

    /// The characters and UTF-16 units in `self.text[from..to]`, both on
    /// character boundaries: directly over a short stretch, else from the
    /// checkpoints, in at most about two blocks' worth of counting.
    fn units_between(&self, from: usize, to: usize) -> (usize, usize) {
        if self.ascii {
            return (to - from, to - from);
        }
        let bytes = self.text.as_bytes();
        if to - from <= 2 * BLOCK {
            return units(&bytes[from..to]);
        }
        let counts = self.counts.get_or_init(|| Box::new(Counts::new(bytes)));
        let before = |at: usize| {
            let block = at / BLOCK;
            let (chars, utf16) = units(&bytes[block * BLOCK..at]);
            (
                counts.chars[block] as usize + chars,
                counts.utf16[block] as usize + utf16,
            )
        };
        let (start_chars, start_utf16) = before(from);
        let (end_chars, end_utf16) = before(to);
        (end_chars - start_chars, end_utf16 - start_utf16)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text under a span (empty if the span does not fall on character
    /// boundaries, which no span built by agentc does).
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    /// Where each line starts.
    fn line_starts(&self) -> &[u32] {
        self.line_starts
            .get_or_init(|| line_starts_of(&self.text).into_boxed_slice())
    }

    /// 0-based line index containing `offset`, and that line's start.
    pub(crate) fn line_of(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line_starts = self.line_starts();
        let line = match line_starts.binary_search(&(offset as u32)) {
            Ok(exact) => exact,
            Err(next) => next - 1,
        };
        (line, line_starts[line] as usize)
    }

    /// The human position of a byte offset; offsets inside a character are
    /// rounded down to its start.
    pub fn position(&self, offset: usize) -> Position {
        let (line, start) = self.line_of(offset);
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let column = self.units_between(start, offset).0 + 1;
        Position {
            line: line + 1,
            column,
        }
    }

    /// The LSP position of a byte offset: 0-based line, 0-based UTF-16 column.
    pub fn utf16_position(&self, offset: usize) -> (usize, usize) {
        let (line, start) = self.line_of(offset);
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let column = self.units_between(start, offset).1;
        (line, column)
    }

    /// The byte range of the 0-based line `line`, without its line break;
    /// `None` past the last line.
    pub fn line_range(&self, line: usize) -> Option<std::ops::Range<usize>> {
        let line_starts = self.line_starts();
        let start = *line_starts.get(line)? as usize;
        let end = line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&next| next as usize);
        let text = self.text[start..end].trim_end_matches(['\n', '\r']);
        Some(start..start + text.len())
    }

    /// The number of lines (a final line break starts an empty last line).
    pub fn line_count(&self) -> usize {
        self.line_starts().len()
    }

    /// The text of the 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let line_starts = self.line_starts();
        let Some(&start) = line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = line_starts
            .get(line)
            .map_or(self.text.len(), |&next| next as usize);
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }
}

/// Turns a file's bytes into a [`Source`]. Bytes agentc cannot read as a
/// protocol (too large, not UTF-8, a NUL byte) give the reason as a
/// diagnostic, with a `Source` that still renders it. Bytes given by value
/// (a file just read) become the text without a copy.
pub fn decode(name: &str, bytes: impl Into<Vec<u8>>) -> (Source, Option<Diagnostic>) {
    let bytes = bytes.into();
    if bytes.len() > MAX_FILE_BYTES {
        let diagnostic = Diagnostic::new(
            Code::FileTooLarge,
            Span::empty(0),
            format!(
                "the file is larger than {} MiB, the most agentc reads",
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        )
        .with_help("is this the protocol file? protocols are usually a few kilobytes");
        return (Source::new(name, String::new()), Some(diagnostic));
    }
    let (text, diagnostic) = match String::from_utf8(bytes) {
        // `memchr`'s search, where `str::find` takes 1 instruction a byte.
        Ok(text) => match memchr::memchr(0, text.as_bytes()) {
            None => (text, None),
            Some(at) => (
                text,
                Some(
                    Diagnostic::new(
                        Code::NulByte,
                        Span::new(at, at + 1),
                        "the file contains a NUL byte",
                    )
                    .with_help("protocol files are text; is this a binary file?"),
                ),
            ),
        },
        Err(error) => {
            let at = error.utf8_error().valid_up_to();
            // In the lossy text the bad bytes became one U+FFFD; point at it.
            let diagnostic = Diagnostic::new(
                Code::InvalidUtf8,
                Span::new(at, at + char::REPLACEMENT_CHARACTER.len_utf8()),
                format!("the file is not valid UTF-8 (byte {at})"),
            )
            .with_help("save the file as UTF-8");
            (
                String::from_utf8_lossy(error.as_bytes()).into_owned(),
                Some(diagnostic),
            )
        }
    };
    (Source::new(name, text), diagnostic)
}

pub(crate) fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_unicode_scalars_and_utf16_units() {
        let source = Source::new("t", "a: 1\nb: \"é😀\" x\n");
        let x = source.text().find('x').unwrap();
        assert_eq!(source.position(x), Position { line: 2, column: 9 });
        assert_eq!(source.utf16_position(x), (1, 9));
        assert_eq!(source.position(0), Position { line: 1, column: 1 });
        assert_eq!(source.position(source.text().len()).line, 3);
        assert_eq!(source.line_text(2), "b: \"é😀\" x");
    }

    #[test]
    fn columns_on_long_lines_are_counted_from_checkpoints() {
        // Long enough that both ends are far from the line's start, with
        // characters of one to four bytes straddling the block boundaries.
        let line: String = "aé漢😀".repeat(30 * BLOCK);
        let text = format!("x\n{line}z\n");
        let source = Source::new("t", text.as_str());
        let z = text.find('z').unwrap();
        let chars = line.chars().count();
        let utf16 = line.encode_utf16().count();
        assert_eq!(
            source.position(z),
            Position {
                line: 2,
                column: chars + 1
            }
        );
        assert_eq!(source.utf16_position(z), (1, utf16));
        for at in (0..line.len()).step_by(997) {
            let offset = floor_char_boundary(&text, 2 + at);
            let prefix = &text[2..offset];
            assert_eq!(source.position(offset).column, prefix.chars().count() + 1);
            assert_eq!(
                source.utf16_position(offset).1,
                prefix.encode_utf16().count()
            );
        }
    }

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        let source = Source::new("t", "a\r\nb\rc\nd");
        let d = source.text().find('d').unwrap();
        assert_eq!(source.position(d), Position { line: 4, column: 1 });
        assert_eq!(source.line_text(2), "b");
        assert_eq!(source.line_range(1), Some(3..4));
    }
}

//! Between agentc's types and LSP's: byte offsets and positions in the
//! negotiated encoding, paths and `file:` URIs, diagnostics.

use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;
use crate::span::Span;
use lsp_types as lsp;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// How a position's `character` counts: UTF-16 code units (LSP's default)
/// or bytes, when the client offers UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    pub fn kind(self) -> lsp::PositionEncodingKind {
        match self {
            Encoding::Utf8 => lsp::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp::PositionEncodingKind::UTF16,
        }
    }
}

pub fn range(source: &Source, span: Span, encoding: Encoding) -> lsp::Range {
    Positions::new(source, encoding).range(span)
}

/// Converts offsets to positions, remembering the last: an offset after it
/// on the same line is counted from there, so converting a file's
/// diagnostics in source order costs one pass over each line, however many
/// of them share a (long) line.
pub struct Positions<'s> {
    source: &'s Source,
    encoding: Encoding,
    last: Option<(usize, lsp::Position)>,
}

impl<'s> Positions<'s> {
    pub fn new(source: &'s Source, encoding: Encoding) -> Positions<'s> {
        Positions {
            source,
            encoding,
            last: None,
        }
    }

    pub fn get(&mut self, offset: usize) -> lsp::Position {
        let text = self.source.text();
        let offset = crate::source::floor_char_boundary(text, offset.min(text.len()));
        let (line, start) = self.source.line_of(offset);
        let (from, units) = match self.last {
            Some((at, position)) if at <= offset && at >= start => (at, position.character),
            _ => (start, 0),
        };
        let counted = match self.encoding {
            Encoding::Utf8 => offset - from,
            Encoding::Utf16 => text[from..offset].encode_utf16().count(),
        };
        let position = lsp::Position::new(line as u32, units + counted as u32);
        self.last = Some((offset, position));
        position
    }

    pub fn range(&mut self, span: Span) -> lsp::Range {
        let start = self.get(span.start as usize);
        lsp::Range::new(start, self.get(span.end as usize))
    }
}

/// The byte offset of a position. A client may send any numbers: a line
/// past the end is the end of the text, a character past the end of its
/// line is the line's end, and one inside a character is its start.
pub fn offset(source: &Source, position: lsp::Position, encoding: Encoding) -> usize {
    let Some(line) = source.line_range(position.line as usize) else {
        return source.text().len();
    };
    let text = &source.text()[line.clone()];
    line.start + column(text, position.character, encoding).0
}

/// The byte offset in `line` (one line's text, without its break) of the
/// position `character` counts to, clamped as [`offset`] says; and how
/// many bytes were read to find it (none in UTF-8, where it is the
/// offset).
pub fn column(line: &str, character: u32, encoding: Encoding) -> (usize, usize) {
    let wanted = character as usize;
    match encoding {
        Encoding::Utf8 => {
            let at = crate::source::floor_char_boundary(line, wanted.min(line.len()));
            (at, 0)
        }
        Encoding::Utf16 => {
            let mut units = 0;
            for (at, c) in line.char_indices() {
                let width = c.len_utf16();
                if units + width > wanted {
                    return (at, at);
                }
                units += width;
            }
            (line.len(), line.len())
        }
    }
}

/// The span a range covers, start before end whatever the client sent.
pub fn span(source: &Source, range: lsp::Range, encoding: Encoding) -> Span {
    let start = offset(source, range.start, encoding);
    let end = offset(source, range.end, encoding);
    Span::new(start.min(end), start.max(end))
}

/// The local path a `file:` URI names.
pub fn path_of(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///x` and `file://localhost/x`; other hosts are not local.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let bytes = percent_decode(path)?;
    let text = String::from_utf8(bytes).ok()?;
    // `file:///C:/x` on Windows.
    let text = match text.as_bytes() {
        [b'/', drive, b':', ..] if drive.is_ascii_alphabetic() && cfg!(windows) => &text[1..],
        _ => text.as_str(),
    };
    Some(PathBuf::from(text))
}

/// The `file:` URI of an absolute path.
pub fn uri_of(path: &Path) -> Option<lsp::Uri> {
    let text = path.to_str()?.replace('\\', "/");
    let mut uri = String::from("file://");
    if !text.starts_with('/') {
        uri.push('/');
    }
    for byte in text.bytes() {
        let plain = byte.is_ascii_alphanumeric() || b"/-._~:".contains(&byte);
        if plain {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    lsp::Uri::from_str(&uri).ok()
}

/// One spelling per file: a `file:` URI as [`uri_of`] writes its path
/// (clients differ in which characters they escape: `(`, `:`, `@`); any
/// other URI as it is.
pub fn canonical(uri: &lsp::Uri) -> lsp::Uri {
    path_of(uri)
        .and_then(|path| uri_of(&path))
        .unwrap_or_else(|| uri.clone())
}

fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// An agentc diagnostic as the editor shows it: the same code, message
/// and span as `agentc check`; the help and notes follow the message, and
/// the labels are related information.
pub fn diagnostic(
    positions: &mut Positions,
    uri: &lsp::Uri,
    diagnostic: &Diagnostic,
) -> lsp::Diagnostic {
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    for note in &diagnostic.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    let range = positions.range(diagnostic.span);
    let related: Vec<_> = diagnostic
        .labels
        .iter()
        .map(|label| lsp::DiagnosticRelatedInformation {
            location: lsp::Location::new(uri.clone(), positions.range(label.span)),
            message: label.message.clone(),
        })
        .collect();
    lsp::Diagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        }),
        code: Some(lsp::NumberOrString::String(
            diagnostic.code.name().to_string(),
        )),
        source: Some("agentc".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp::Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_in_both_encodings_on_non_ascii_lines() {
        let source = Source::new("t", "a: é😀x\nb: 1\n");
        let x = source.text().find('x').unwrap();
        let utf16 = Positions::new(&source, Encoding::Utf16).get(x);
        assert_eq!(utf16, lsp::Position::new(0, 6));
        let utf8 = Positions::new(&source, Encoding::Utf8).get(x);
        assert_eq!(utf8, lsp::Position::new(0, 9));
        assert_eq!(offset(&source, utf16, Encoding::Utf16), x);
        assert_eq!(offset(&source, utf8, Encoding::Utf8), x);
        // Inside the emoji's surrogate pair: its start.
        let inside = lsp::Position::new(0, 5);
        assert_eq!(offset(&source, inside, Encoding::Utf16), x - 4);
        // Past the line's end, past the last line.
        assert_eq!(
            offset(&source, lsp::Position::new(0, 99), Encoding::Utf16),
            x + 1
        );
        let end = lsp::Position::new(99, 0);
        assert_eq!(offset(&source, end, Encoding::Utf16), source.text().len());
    }

    #[test]
    fn remembered_positions_agree_with_fresh_ones() {
        let source = Source::new("t", "a: é😀x y z\r\nb: 😀 c\rd\n");
        let mut remembered = Positions::new(&source, Encoding::Utf16);
        let offsets = (0..=source.text().len()).filter(|&o| source.text().is_char_boundary(o));
        for offset in offsets.chain([3, 0, 14, 2, 999]) {
            let fresh = Positions::new(&source, Encoding::Utf16).get(offset);
            assert_eq!(remembered.get(offset), fresh, "offset {offset}");
        }
    }

    #[test]
    fn file_uris_round_trip_with_escapes() {
        let path = Path::new("/tmp/my agents/é/protocol.yaml");
        let uri = uri_of(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/my%20agents/%C3%A9/protocol.yaml");
        assert_eq!(path_of(&uri).unwrap(), path);
        let other = lsp::Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(path_of(&other), None);
    }
}

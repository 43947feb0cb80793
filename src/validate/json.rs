//! Where things are in a JSON text. `serde_json` parses the data; this
//! module only answers "which bytes hold the value at this JSON pointer?",
//! for reporting, so it runs only when there is something to report. It
//! also decodes a JSON string literal while keeping, for every decoded
//! byte, the offset it came from: tool-call arguments are JSON inside a
//! JSON string, and a problem in them is reported at its place in the file.

use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;
use std::ops::Range;

/// The UTF-8 byte order mark, U+FEFF, as .NET's tools and Windows editors
/// write it at the start of a file.
const BOM: char = '\u{feff}';

/// A JSON text without the byte order mark it may start with, and the
/// byte offset its content starts at. RFC 8259 (section 8.1) lets a parser
/// ignore the mark rather than fail on it; agentc does, and says so with
/// [`byte_order_mark`].
pub fn without_bom(text: &str) -> (&str, usize) {
    match text.strip_prefix(BOM) {
        Some(rest) => (rest, BOM.len_utf8()),
        None => (text, 0),
    }
}

/// The warning for a JSON file that starts with a byte order mark, at the
/// mark: read past, but other readers (`JSON.parse` among them) reject it.
pub fn byte_order_mark(text: &str) -> Option<Diagnostic> {
    text.starts_with(BOM).then(|| {
        Diagnostic::new(
            Code::ByteOrderMark,
            Span::new(0, BOM.len_utf8()),
            "the file starts with a UTF-8 byte order mark (U+FEFF)",
        )
        .with_help(
            "save it as UTF-8 without a byte order mark (in .NET, `new UTF8Encoding(false)`); \
             agentc reads past the mark, but `JSON.parse` and other strict JSON readers reject it",
        )
    })
}

/// What a `serde_json` syntax error says, without the " at line L column
/// C" it appends: the span says that.
pub fn syntax_reason(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(cut) => message[..cut].to_string(),
        None => message,
    }
}

/// The byte offset in `text` of a `serde_json` error: its line, and its
/// column counted in bytes from that line's start.
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
    // serde_json stops at the bracket after a trailing comma; the comma is
    // what to remove.
    if error.to_string().starts_with("trailing comma") {
        let before = text[..at].trim_end();
        if before.ends_with(',') {
            return before.len() - 1;
        }
    }
    at
}

/// Nesting the index follows. `serde_json` refuses data nested deeper
/// than 128 levels before any of it is located, so this bound is never
/// reached by data that parsed; it only keeps the recursion bounded.
const MAX_DEPTH: usize = 256;

/// A JSON text, possibly decoded out of a string literal of a larger file,
/// with the map back to that file's byte offsets.
pub struct Doc<'a> {
    pub text: std::borrow::Cow<'a, str>,
    /// For decoded text: the file offset of every byte, and one past the
    /// end. `None` when `text` is a slice of the file starting at `base`.
    map: Option<Vec<usize>>,
    base: usize,
}

impl<'a> Doc<'a> {
    /// A slice of the file that starts at byte `base`.
    pub fn slice(text: &'a str, base: usize) -> Doc<'a> {
        Doc {
            text: text.into(),
            map: None,
            base,
        }
    }

    /// A text assembled from pieces of the file (an SSE event's `data:`
    /// lines): `map` holds the file offset of every byte of `text`, and
    /// one past the end.
    pub fn mapped(text: String, map: Vec<usize>) -> Doc<'static> {
        Doc {
            text: text.into(),
            map: Some(map),
            base: 0,
        }
    }

    /// The content of the string literal at `range` of this document,
    /// decoded, mapped back to the file. `None` if `range` is not a string.
    pub fn string(&self, range: Range<usize>) -> Option<Doc<'static>> {
        let literal = self.text.get(range.clone())?;
        let (text, offsets) = decode_string(literal)?;
        let map = offsets
            .into_iter()
            .map(|offset| self.offset(range.start + offset))
            .collect();
        Some(Doc {
            text: text.into(),
            map: Some(map),
            base: 0,
        })
    }

    /// The file offset of a byte offset of this document.
    pub fn offset(&self, at: usize) -> usize {
        match &self.map {
            None => self.base + at,
            Some(map) => map.get(at).or(map.last()).copied().unwrap_or(self.base),
        }
    }

    /// The file range of a range of this document. The map has an entry
    /// one past every byte, so an escape at the end is covered whole.
    pub fn range(&self, range: Range<usize>) -> Range<usize> {
        let start = self.offset(range.start);
        start..self.offset(range.end).max(start)
    }
}

/// The bytes of one value, and of its key when it is an object member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub value: Range<usize>,
    pub key: Option<Range<usize>>,
}

/// An index of every value of a JSON text by position, built in one pass.
pub struct Index {
    nodes: Vec<Node>,
}

struct Node {
    span: Range<usize>,
    kind: Kind,
}

enum Kind {
    Scalar,
    Array(Vec<usize>),
    Object(Vec<Member>),
}

struct Member {
    key: String,
    key_span: Range<usize>,
    value: usize,
}

impl Index {
    /// Indexes `text`, which `serde_json` has already accepted. On text it
    /// did not accept the index is partial, never wrong about what it has.
    pub fn new(text: &str) -> Index {
        let mut parser = Parser {
            bytes: text.as_bytes(),
            text,
            at: 0,
            nodes: Vec::new(),
        };
        parser.value(0);
        Index {
            nodes: parser.nodes,
        }
    }

    /// The place of the value at `pointer` (RFC 6901, escaped), or of the
    /// deepest value on its way that exists.
    pub fn locate(&self, pointer: &str) -> Option<Place> {
        let mut node = 0;
        let mut key = None;
        let tokens = pointer.split('/').skip(1).map(unescape);
        for token in tokens {
            let Some(current) = self.nodes.get(node) else {
                break;
            };
            let next = match &current.kind {
                // `serde_json` keeps the last of repeated keys.
                Kind::Object(members) => members
                    .iter()
                    .rev()
                    .find(|m| m.key == token)
                    .map(|m| (m.value, Some(m.key_span.clone()))),
                Kind::Array(items) => token
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get(i))
                    .map(|&i| (i, None)),
                Kind::Scalar => None,
            };
            match next {
                Some((value, member_key)) => {
                    node = value;
                    key = member_key;
                }
                None => break,
            }
        }
        self.nodes.get(node).map(|n| Place {
            value: n.span.clone(),
            key,
        })
    }
}

/// `~1` is `/` and `~0` is `~`, in that order (RFC 6901 §4).
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Escapes one reference token (RFC 6901 §3).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

struct Parser<'t> {
    bytes: &'t [u8],
    text: &'t str,
    at: usize,
    nodes: Vec<Node>,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while matches!(self.bytes.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Parses one value and returns its node index.
    fn value(&mut self, depth: usize) -> usize {
        self.skip_space();
        let start = self.at;
        let id = self.nodes.len();
        self.nodes.push(Node {
            span: start..start,
            kind: Kind::Scalar,
        });
        let kind = match self.bytes.get(self.at) {
            Some(b'{') if depth < MAX_DEPTH => self.object(depth),
            Some(b'[') if depth < MAX_DEPTH => self.array(depth),
            Some(b'"') => {
                self.string_end();
                Kind::Scalar
            }
            Some(_) => {
                while self.bytes.get(self.at).is_some_and(|b| {
                    !matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')
                }) {
                    self.at += 1;
                }
                Kind::Scalar
            }
            None => Kind::Scalar,
        };
        self.nodes[id] = Node {
            span: start..self.at,
            kind,
        };
        id
    }

    fn object(&mut self, depth: usize) -> Kind {
        self.at += 1;
        let mut members = Vec::new();
        loop {
            self.skip_space();
            match self.bytes.get(self.at) {
                Some(b'}') => {
                    self.at += 1;
                    break;
                }
                Some(b',') => self.at += 1,
                Some(b'"') => {
                    let key_start = self.at;
                    self.string_end();
                    let key_span = key_start..self.at;
                    let key = decode_string(&self.text[key_span.clone()])
                        .map(|(k, _)| k)
                        .unwrap_or_default();
                    self.skip_space();
                    if self.bytes.get(self.at) != Some(&b':') {
                        break;
                    }
                    self.at += 1;
                    let value = self.value(depth + 1);
                    members.push(Member {
                        key,
                        key_span,
                        value,
                    });
                }
                _ => break,
            }
        }
        Kind::Object(members)
    }

    fn array(&mut self, depth: usize) -> Kind {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.skip_space();
            match self.bytes.get(self.at) {
                Some(b']') => {
                    self.at += 1;
                    break;
                }
                Some(b',') => self.at += 1,
                Some(_) => {
                    let before = self.at;
                    items.push(self.value(depth + 1));
                    if self.at == before {
                        break;
                    }
                }
                None => break,
            }
        }
        Kind::Array(items)
    }

    /// Moves past the string literal starting at the current `"`.
    fn string_end(&mut self) {
        self.at += 1;
        while let Some(&b) = self.bytes.get(self.at) {
            self.at += 1;
            match b {
                b'\\' => self.at += 1,
                b'"' => return,
                _ => {}
            }
        }
        self.at = self.at.min(self.bytes.len());
    }
}

/// Decodes a JSON string literal (with its quotes), returning the text and,
/// for every byte of it plus one past the end, its offset in `literal`.
pub fn decode_string(literal: &str) -> Option<(String, Vec<usize>)> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    let mut text = String::with_capacity(inner.len());
    let mut offsets = Vec::with_capacity(inner.len() + 1);
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = i + 1;
        let decoded = if c == '\\' {
            let (_, escape) = chars.next()?;
            match escape {
                '"' => '"',
                '\\' => '\\',
                '/' => '/',
                'b' => '\u{8}',
                'f' => '\u{c}',
                'n' => '\n',
                'r' => '\r',
                't' => '\t',
                'u' => {
                    let high = hex4(&mut chars)?;
                    if (0xD800..0xDC00).contains(&high) {
                        // A surrogate pair: `\uD83D\uDE00`.
                        chars.next().filter(|&(_, c)| c == '\\')?;
                        chars.next().filter(|&(_, c)| c == 'u')?;
                        let low = hex4(&mut chars)?;
                        let code = 0x10000 + ((high - 0xD800) << 10) + (low.checked_sub(0xDC00)?);
                        char::from_u32(code)?
                    } else {
                        char::from_u32(high)?
                    }
                }
                _ => return None,
            }
        } else {
            c
        };
        let before = text.len();
        text.push(decoded);
        offsets.extend(std::iter::repeat_n(at, text.len() - before));
    }
    offsets.push(literal.len() - 1);
    Some((text, offsets))
}

fn hex4(chars: &mut impl Iterator<Item = (usize, char)>) -> Option<u32> {
    let mut value = 0;
    for _ in 0..4 {
        value = value * 16 + chars.next()?.1.to_digit(16)?;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_values_and_keys_by_pointer() {
        let text = r#"{"a": [1, {"b~/c": "x"}], "a": [7, {"d": true}]}"#;
        let index = Index::new(text);
        let place = index.locate("/a/1/d").unwrap();
        assert_eq!(&text[place.value], "true");
        assert_eq!(&text[place.key.unwrap()], r#""d""#);
        // The last of repeated keys, as serde_json keeps it.
        assert_eq!(&text[index.locate("/a/0").unwrap().value], "7");
        // A missing step gives the deepest value that exists.
        assert_eq!(
            &text[index.locate("/a/5").unwrap().value],
            r#"[7, {"d": true}]"#
        );
        assert_eq!(&text[index.locate("").unwrap().value], text);
        let escaped = Index::new(r#"{"b~/c": 1}"#);
        assert!(escaped.locate("/b~0~1c").unwrap().key.is_some());
    }

    #[test]
    fn decoded_strings_map_back_to_the_file() {
        let literal = r#""{\"q\": \"\u00e9\ud83d\ude00\"}""#;
        let (text, offsets) = decode_string(literal).unwrap();
        assert_eq!(text, "{\"q\": \"é😀\"}");
        assert_eq!(offsets.len(), text.len() + 1);
        // The `q` sits after `"{\"`.
        let q = text.find('q').unwrap();
        assert_eq!(&literal[offsets[q]..offsets[q] + 1], "q");
        let doc = Doc::slice(literal, 10);
        let inner = doc.string(0..literal.len()).unwrap();
        assert_eq!(inner.offset(q), 10 + offsets[q]);
        assert!(decode_string(r#""\x""#).is_none());
    }
}

//! A JSON text as `agentc validate` reads it: read once into an [`Index`]
//! of its values, which is both what `jsonschema` validates (through
//! [`super::tape`]) and what answers "which bytes hold the value at this
//! JSON pointer?", and which, in the same pass, tells whether the text is
//! certainly JSON `serde_json` accepts ([`Index::checked`]); a text it is
//! not sure of has its syntax checked as `serde_json` reads it
//! ([`check_syntax`], building nothing), whose errors are the ones
//! reported. It also decodes a JSON string literal
//! while keeping, for every decoded byte, the offset it came from:
//! tool-call arguments are JSON inside a JSON string, and a problem in them
//! is reported at its place in the file.

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

/// What reads a text that may start with a byte order mark, for the help
/// of [`byte_order_mark_of`]: the two kinds of reader treat it differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// A JSON reader: RFC 8259 lets one ignore the mark, and many reject it.
    Json,
    /// An SSE reader (`EventSource`): the SSE rules skip one leading mark.
    EventStream,
}

/// The warning for a JSON file that starts with a byte order mark, at the
/// mark: read past, but other readers (`JSON.parse` among them) reject it.
pub fn byte_order_mark(text: &str) -> Option<Diagnostic> {
    byte_order_mark_of(text, Reader::Json)
}

/// The warning for a text that starts with a byte order mark, with help
/// that says what a reader of that kind does with it.
pub fn byte_order_mark_of(text: &str, reader: Reader) -> Option<Diagnostic> {
    let (what, help) = match reader {
        Reader::Json => (
            "the file",
            "save it as UTF-8 without a byte order mark (in .NET, `new UTF8Encoding(false)`); \
             agentc reads past the mark, but `JSON.parse` and other strict JSON readers reject it",
        ),
        Reader::EventStream => (
            "the stream",
            "the SSE rules have a reader skip one leading byte order mark, as `EventSource` and agentc do; \
             a reader that splits the stream into lines itself may take it for part of the first field's name: \
             send the stream without it",
        ),
    };
    text.starts_with(BOM).then(|| {
        Diagnostic::new(
            Code::ByteOrderMark,
            Span::new(0, BOM.len_utf8()),
            format!("{what} starts with a UTF-8 byte order mark (U+FEFF)"),
        )
        .with_help(help)
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

/// What stopped `serde_json` when it is one of the bounds of what agentc
/// reads rather than a mistake in the syntax: RFC 8259 lets a reader bound
/// nesting and the range of numbers, and a surrogate escape without its
/// pair names no character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beyond {
    Depth,
    Range,
    Surrogate,
}

impl Beyond {
    pub fn of(error: &serde_json::Error) -> Option<Beyond> {
        let message = error.to_string();
        // serde_json says "unexpected end of hex escape" only where a
        // leading surrogate is not followed by `\u` (a malformed escape is
        // "invalid escape").
        [
            ("recursion limit exceeded", Beyond::Depth),
            ("number out of range", Beyond::Range),
            ("lone leading surrogate", Beyond::Surrogate),
            ("unexpected end of hex escape", Beyond::Surrogate),
        ]
        .into_iter()
        .find(|(said, _)| message.starts_with(said))
        .map(|(_, beyond)| beyond)
    }

    /// The code it is reported with: its own for the depth, a limit; the
    /// caller's for the others, which are the text's.
    pub fn code(self, otherwise: Code) -> Code {
        match self {
            Beyond::Depth => Code::NestingLimit,
            Beyond::Range | Beyond::Surrogate => otherwise,
        }
    }

    /// The message, about `whose` text (`the data`, `the arguments`).
    pub fn message(self, whose: &str) -> String {
        match self {
            Beyond::Depth => format!(
                "arrays and objects nest more than 128 levels deep in {whose}, the most agentc reads"
            ),
            Beyond::Range => format!(
                "a number in {whose} is past the range of a 64-bit float (about ±1.8e308), which agentc reads numbers as"
            ),
            Beyond::Surrogate => format!(
                "a UTF-16 surrogate escape (`\\uD800` to `\\uDFFF`) in {whose} has no pair, so it names no character"
            ),
        }
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

/// Where each byte of a text assembled from a file comes from, as pieces:
/// a run of bytes copied from the file, or bytes that all stand for one
/// place of it (an escape, the newline that joins two `data:` lines). One
/// piece per run, so a map costs what the text's seams do, not 8 bytes a
/// byte; the last piece stands for one past the end.
#[derive(Clone, Debug, Default)]
pub struct Map {
    pieces: Vec<Piece>,
}

#[derive(Clone, Copy, Debug)]
struct Piece {
    /// The offset in the text where the piece starts.
    at: usize,
    /// The file offset of that byte.
    file: usize,
    /// Whether the bytes that follow come one for one from the file.
    copied: bool,
}

impl Map {
    /// From `at` on, the text's bytes are the file's from `file` on.
    pub fn copied(&mut self, at: usize, file: usize) {
        if let Some(last) = self.pieces.last()
            && last.copied
            && at >= last.at
            && file.checked_sub(at - last.at) == Some(last.file)
        {
            return;
        }
        self.push(Piece {
            at,
            file,
            copied: true,
        });
    }

    /// From `at` on, until the next piece, every byte stands for the file
    /// offset `file`.
    pub fn stands_for(&mut self, at: usize, file: usize) {
        self.push(Piece {
            at,
            file,
            copied: false,
        });
    }

    fn push(&mut self, piece: Piece) {
        // A later piece at the same offset replaces an empty one.
        if self.pieces.last().is_some_and(|last| last.at == piece.at) {
            self.pieces.pop();
        }
        self.pieces.push(piece);
    }

    /// The file offset of the text's byte `at` (one past the end too).
    fn offset(&self, at: usize) -> Option<usize> {
        let i = self.pieces.partition_point(|p| p.at <= at).checked_sub(1)?;
        let piece = self.pieces[i];
        Some(match piece.copied {
            true => piece.file + (at - piece.at),
            false => piece.file,
        })
    }
}

/// A JSON text, possibly decoded out of a string literal of a larger file,
/// with the map back to that file's byte offsets.
pub struct Doc<'a> {
    pub text: std::borrow::Cow<'a, str>,
    /// For assembled or decoded text, where its bytes come from; `None`
    /// when `text` is a slice of the file starting at `base`.
    map: Option<Map>,
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
    /// lines): `map` says where each of its bytes comes from, and one past
    /// the end.
    pub fn mapped(text: std::borrow::Cow<'a, str>, map: Map) -> Doc<'a> {
        Doc {
            text,
            map: Some(map),
            base: 0,
        }
    }

    /// The content of the string literal at `range` of this document,
    /// decoded, mapped back to the file. `None` if `range` is not a string.
    pub fn string(&self, range: Range<usize>) -> Option<Doc<'static>> {
        let literal = self.text.get(range.clone())?;
        let (text, inner) = decode_string(literal)?;
        // `inner` maps to the literal; each of its pieces is carried
        // through this document's own map, split where that map's are.
        let mut map = Map::default();
        for (k, piece) in inner.pieces.iter().enumerate() {
            let from = range.start + piece.file;
            if !piece.copied {
                map.stands_for(piece.at, self.offset(from));
                continue;
            }
            let end = inner.pieces.get(k + 1).map_or(piece.at, |next| next.at);
            let mut at = piece.at;
            while at < end {
                let here = from + (at - piece.at);
                let (file, run) = self.run(here);
                match run {
                    Some(run) => {
                        map.copied(at, file);
                        at += run.clamp(1, end - at);
                    }
                    None => {
                        map.stands_for(at, file);
                        at += 1;
                    }
                }
            }
        }
        Some(Doc {
            text: text.into(),
            map: Some(map),
            base: 0,
        })
    }

    /// The file offset of byte `at`, and how many bytes from it on are
    /// copied one for one (`None` when it stands for a place).
    fn run(&self, at: usize) -> (usize, Option<usize>) {
        let Some(map) = &self.map else {
            return (self.base + at, Some(usize::MAX));
        };
        let i = map.pieces.partition_point(|p| p.at <= at);
        let Some(piece) = i.checked_sub(1).map(|i| map.pieces[i]) else {
            return (self.base, None);
        };
        match piece.copied {
            true => {
                let next = map.pieces.get(i).map_or(usize::MAX, |n| n.at);
                (piece.file + (at - piece.at), Some(next - at))
            }
            false => (piece.file, None),
        }
    }

    /// The file offset of a byte offset of this document.
    pub fn offset(&self, at: usize) -> usize {
        match &self.map {
            None => self.base + at,
            Some(map) => map.offset(at.min(self.text.len())).unwrap_or(self.base),
        }
    }

    /// The file range of a range of this document. The map has an entry
    /// one past every byte, so an escape at the end is covered whole.
    pub fn range(&self, range: Range<usize>) -> Range<usize> {
        let start = self.offset(range.start);
        start..self.offset(range.end).max(start)
    }
}

/// Nesting the index follows. `serde_json` refuses data nested deeper
/// than 128 levels before any of it is indexed, so this bound is never
/// reached by data that parsed; it only keeps the recursion bounded.
const MAX_DEPTH: usize = 256;

/// The longest text indexed: a node's child count has 28 bits.
const MAX_INDEXED: usize = 1 << 28;

/// Nesting the index answers for without asking `serde_json`, whose limit
/// is 128 levels.
const SURE_DEPTH: usize = 100;

/// The most digits of a number's whole part the index answers for without
/// asking `serde_json`: a longer one may be past the largest `f64`, which
/// `serde_json` refuses.
const SURE_DIGITS: usize = 300;

/// Whether a JSON text is one JSON value, as `serde_json` reads it into a
/// `Value` (the same errors at the same places, numbers out of range
/// included), without building anything.
pub fn check_syntax(text: &str) -> Result<(), serde_json::Error> {
    serde_json::from_str::<Checked>(text).map(|_| ())
}

/// A JSON value read and dropped as it is read.
struct Checked;

impl<'de> serde::Deserialize<'de> for Checked {
    fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Checked, D::Error> {
        from.deserialize_any(CheckedVisitor)
    }
}

struct CheckedVisitor;

impl<'de> serde::de::Visitor<'de> for CheckedVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_unit<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        while map.next_key::<Checked>()?.is_some() {
            map.next_value::<Checked>()?;
        }
        Ok(Checked)
    }
}

/// The bytes of one value, and of its key when it is an object member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub value: Range<usize>,
    pub key: Option<Range<usize>>,
}

/// Every value of a JSON text, by position, built in one pass: the tree
/// `agentc validate` validates (`jsonschema` reads it through
/// [`super::tape`]), and what says which bytes hold the value at a JSON
/// pointer. A node is 20 bytes whatever it holds, and nothing is copied
/// out of the text: a list of empty lists costs about 7 bytes per byte of
/// text, a list of one-digit numbers 10, where a `serde_json::Value` costs
/// 72 bytes a node (24 and 36 per byte).
///
/// Meant for text [`check_syntax`] accepted; on other text the index is
/// partial, never wrong about what it has. A text of more than 256 MiB is
/// not indexed.
pub struct Index<'t> {
    text: &'t str,
    nodes: Vec<Node>,
    /// For each object of more than [`SCANNED`] members, its node and where
    /// its members start in `sorted`, by node.
    wide: Vec<(u32, u32)>,
    /// The members of wide objects that count (the last of repeated keys),
    /// sorted by key, each object's run together: a lookup in a wide
    /// object is a binary search.
    sorted: Vec<u32>,
    /// For each array of more than [`STRIDE`] items, its node and where its
    /// every `STRIDE`-th item is listed in `strides`, by node.
    long: Vec<(u32, u32)>,
    strides: Vec<u32>,
    /// Whether an object writes a key twice.
    repeats: bool,
}

/// Objects of at most this many members are searched from the start.
const SCANNED: usize = 16;

/// An item of a long array is found from the nearest listed item before
/// it, at most this many steps away.
const STRIDE: usize = 64;

/// No key: the value is not an object's member.
const NO_KEY: u32 = u32::MAX;

/// The node's kind, in the low bits of `info`.
const KIND_MASK: u32 = 0b111;
/// A member whose key the object writes again later: `serde_json` keeps
/// the last, and so does validation.
const SHADOWED: u32 = 1 << 3;
/// The count of members (the keys that count) or items, above the flags.
const COUNT_SHIFT: u32 = 4;

#[derive(Clone, Copy)]
struct Node {
    start: u32,
    end: u32,
    /// Where the member's key literal starts, or [`NO_KEY`].
    key: u32,
    /// The node after this one's subtree: the nodes are in document
    /// order, so a container's children are the nodes from the next one
    /// to this, each its previous sibling's `next`.
    next: u32,
    info: u32,
}

/// What a node of an [`Index`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    False,
    True,
    Number,
    String,
    Array,
    Object,
    /// Not JSON: only in the index of a text `serde_json` refused.
    Invalid,
}

impl Kind {
    fn of(info: u32) -> Kind {
        match info & KIND_MASK {
            0 => Kind::Null,
            1 => Kind::False,
            2 => Kind::True,
            3 => Kind::Number,
            4 => Kind::String,
            5 => Kind::Array,
            6 => Kind::Object,
            _ => Kind::Invalid,
        }
    }

    fn bits(self) -> u32 {
        match self {
            Kind::Null => 0,
            Kind::False => 1,
            Kind::True => 2,
            Kind::Number => 3,
            Kind::String => 4,
            Kind::Array => 5,
            Kind::Object => 6,
            Kind::Invalid => 7,
        }
    }
}

/// The children of a node: the items of an array, or every member of an
/// object, repeated keys included.
pub struct Children<'i> {
    nodes: &'i [Node],
    at: u32,
    end: u32,
}

impl Iterator for Children<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.at >= self.end {
            return None;
        }
        let id = self.at;
        self.at = self.nodes.get(id as usize).map_or(self.end, |n| n.next);
        Some(id)
    }
}

/// The members of an object that count: [`Index::members`].
pub struct Members<'i>(Children<'i>);

impl Iterator for Members<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        loop {
            let id = self.0.next()?;
            if self
                .0
                .nodes
                .get(id as usize)
                .is_some_and(|n| n.info & SHADOWED == 0)
            {
                return Some(id);
            }
        }
    }
}

impl<'t> Index<'t> {
    /// Indexes `text`, which [`check_syntax`] has accepted.
    pub fn new(text: &'t str) -> Index<'t> {
        Index::read(text).0
    }

    /// Checks `text`'s syntax and indexes it, reading it once where
    /// [`check_syntax`] and [`Index::new`] read it twice: a text the index
    /// finds written as the JSON grammar says, with nothing `serde_json`
    /// might refuse, is taken as it is; any other text is read by
    /// [`check_syntax`] too, whose answer (its error, at its place) is the
    /// one given. So the errors are `serde_json`'s, as before, and a valid
    /// text, nearly every text validated, costs one pass.
    pub fn checked(text: &'t str) -> Result<Index<'t>, serde_json::Error> {
        let (index, certain) = Index::read(text);
        if !certain {
            check_syntax(text)?;
        }
        Ok(index)
    }

    /// The index of `text`, and whether the text is certainly JSON that
    /// `serde_json` accepts (`false` says nothing either way).
    fn read(text: &'t str) -> (Index<'t>, bool) {
        let mut parser = Parser {
            text,
            bytes: text.as_bytes(),
            at: 0,
            index: Index {
                text,
                nodes: Vec::new(),
                wide: Vec::new(),
                sorted: Vec::new(),
                long: Vec::new(),
                strides: Vec::new(),
                repeats: false,
            },
            scratch: Vec::new(),
            certain: true,
        };
        if text.len() < MAX_INDEXED {
            parser.value(0, NO_KEY);
            parser.skip_space();
            // Nothing but white space may follow the value.
            parser.certain &= parser.at == text.len();
        } else {
            parser.certain = false;
        }
        // Containers close after their children: list them by node.
        let certain = parser.certain;
        let mut index = parser.index;
        index.wide.sort_unstable();
        index.long.sort_unstable();
        index.nodes.shrink_to_fit();
        (index, certain)
    }

    /// Whether an object of the text writes a key twice (keys compared as
    /// the strings they decode to, as [`duplicate_keys`] compares them):
    /// when not, looking for them in the text again finds nothing.
    pub fn repeats_keys(&self) -> bool {
        self.repeats
    }

    /// The bytes the index holds on the heap: what a value costs to
    /// validate and report, beside its text.
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + (self.wide.capacity() + self.long.capacity()) * 8
            + (self.sorted.capacity() + self.strides.capacity()) * 4
    }

    /// The text indexed.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The node of the whole text's value, if there is one.
    pub fn root(&self) -> Option<u32> {
        (!self.nodes.is_empty()).then_some(0)
    }

    /// How many nodes the index holds.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    fn node(&self, id: u32) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    pub fn kind(&self, id: u32) -> Kind {
        self.node(id).map_or(Kind::Invalid, |n| Kind::of(n.info))
    }

    /// The items of an array, or the members of an object that count
    /// (each key once).
    pub fn len(&self, id: u32) -> usize {
        self.node(id)
            .map_or(0, |n| (n.info >> COUNT_SHIFT) as usize)
    }

    /// The bytes of a node's value.
    pub fn span(&self, id: u32) -> Range<usize> {
        self.node(id)
            .map_or(0..0, |n| n.start as usize..n.end as usize)
    }

    /// A node's value as written.
    pub fn source(&self, id: u32) -> &'t str {
        let text: &'t str = self.text;
        text.get(self.span(id)).unwrap_or_default()
    }

    /// How many nodes a node's subtree holds, itself included.
    pub fn size(&self, id: u32) -> usize {
        self.node(id).map_or(0, |n| (n.next - id) as usize)
    }

    /// The items of an array, or every member of an object (repeated keys
    /// included), in order.
    pub fn children(&self, id: u32) -> Children<'_> {
        let end = self.node(id).map_or(id, |n| n.next);
        Children {
            nodes: &self.nodes,
            at: id + 1,
            end,
        }
    }

    /// The members of an object that count: of repeated keys, the last,
    /// as `serde_json` keeps it.
    pub fn members(&self, id: u32) -> Members<'_> {
        Members(self.children(id))
    }

    /// The key literal of a member node, with its quotes.
    fn key_span(&self, id: u32) -> Option<Range<usize>> {
        let node = self.node(id)?;
        if node.key == NO_KEY {
            return None;
        }
        let start = node.key as usize;
        Some(start..string_end(self.text.as_bytes(), start))
    }

    /// The decoded key of a member node.
    pub fn key(&self, id: u32) -> Option<std::borrow::Cow<'t, str>> {
        let text: &'t str = self.text;
        self.key_span(id)
            .and_then(|span| text.get(span))
            .and_then(key_text)
    }

    fn key_is(&self, id: u32, key: &str) -> bool {
        let Some(span) = self.key_span(id) else {
            return false;
        };
        let literal = self.text.as_bytes().get(span).unwrap_or_default();
        let inner = literal
            .get(1..literal.len().saturating_sub(1))
            .unwrap_or_default();
        // Without an escape, the key is its literal's bytes.
        if memchr::memchr(b'\\', inner).is_none() {
            return inner == key.as_bytes();
        }
        self.key(id).is_some_and(|k| k == key)
    }

    /// The member of the object `id` named `key`: the last of repeated
    /// keys, as `serde_json` keeps it.
    pub fn member(&self, id: u32, key: &str) -> Option<u32> {
        if self.kind(id) != Kind::Object {
            return None;
        }
        let Ok(at) = self.wide.binary_search_by_key(&id, |&(node, _)| node) else {
            return self.members(id).find(|&m| self.key_is(m, key));
        };
        let start = self.wide[at].1 as usize;
        let run = self.sorted.get(start..start + self.len(id))?;
        let found = run.partition_point(|&m| *self.key(m).unwrap_or_default() < *key);
        let m = *run.get(found)?;
        self.key_is(m, key).then_some(m)
    }

    /// The item `i` of the array `id`.
    pub fn item(&self, id: u32, i: usize) -> Option<u32> {
        let (mut at, steps) = self.item_from(id, i)?;
        for _ in 0..steps {
            at = self.node(at)?.next;
        }
        Some(at)
    }

    /// Where finding item `i` of the array `id` starts, and how many
    /// siblings it then steps over: fewer than [`STRIDE`].
    fn item_from(&self, id: u32, i: usize) -> Option<(u32, usize)> {
        if self.kind(id) != Kind::Array || i >= self.len(id) {
            return None;
        }
        Some(
            match self.long.binary_search_by_key(&id, |&(node, _)| node) {
                Ok(k) => {
                    let start = self.long[k].1 as usize;
                    (*self.strides.get(start + i / STRIDE)?, i % STRIDE)
                }
                Err(_) => (id + 1, i),
            },
        )
    }

    /// The decoded text of a string node; borrowed when it has no escape.
    pub fn string(&self, id: u32) -> Option<std::borrow::Cow<'t, str>> {
        match self.kind(id) {
            Kind::String => key_text(self.source(id)),
            _ => None,
        }
    }

    /// The place of the value at `pointer` (RFC 6901, escaped), or of the
    /// deepest value on its way that exists.
    pub fn locate(&self, pointer: &str) -> Option<Place> {
        let mut node = self.root()?;
        for token in pointer.split('/').skip(1).map(unescape) {
            let next = match self.kind(node) {
                Kind::Object => self.member(node, &token),
                Kind::Array => token.parse::<usize>().ok().and_then(|i| self.item(node, i)),
                _ => None,
            };
            match next {
                Some(next) => node = next,
                None => break,
            }
        }
        Some(Place {
            value: self.span(node),
            key: self.key_span(node),
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
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    index: Index<'t>,
    /// The members of the object being closed.
    scratch: Vec<u32>,
    /// Whether everything read so far is JSON that `serde_json` accepts:
    /// written as the grammar says, and nothing it might refuse (a number
    /// with an exponent or of more than [`SURE_DIGITS`] digits, which may
    /// be out of its range; an escaped surrogate; nesting past
    /// [`SURE_DEPTH`]). Set to `false` at the first doubt, and never back.
    certain: bool,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while matches!(self.bytes.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Skips a scalar other than a string: to the next delimiter.
    fn skip_scalar(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| !matches!(b, b',' | b']' | b'}' | b':' | b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    /// Parses one value and returns its node.
    fn value(&mut self, depth: usize, key: u32) -> u32 {
        self.skip_space();
        let start = self.at;
        let id = self.index.nodes.len() as u32;
        self.index.nodes.push(Node {
            start: start as u32,
            end: start as u32,
            key,
            next: id + 1,
            info: Kind::Invalid.bits(),
        });
        let mut count = 0;
        if depth >= SURE_DEPTH {
            self.certain = false;
        }
        let kind = match self.bytes.get(self.at) {
            Some(b'{') if depth < MAX_DEPTH => {
                count = self.object(depth);
                Kind::Object
            }
            Some(b'[') if depth < MAX_DEPTH => {
                count = self.array(depth);
                Kind::Array
            }
            Some(b'"') => {
                self.string();
                Kind::String
            }
            Some(first) => {
                let first = *first;
                self.skip_scalar();
                let written = &self.bytes[start..self.at];
                match (first, written) {
                    (_, b"null") => Kind::Null,
                    (_, b"true") => Kind::True,
                    (_, b"false") => Kind::False,
                    (b'-' | b'0'..=b'9', _) => {
                        self.certain &= surely_a_number(written);
                        Kind::Number
                    }
                    _ => Kind::Invalid,
                }
            }
            None => Kind::Invalid,
        };
        if kind == Kind::Invalid {
            self.certain = false;
        }
        let next = self.index.nodes.len() as u32;
        let node = &mut self.index.nodes[id as usize];
        node.end = self.at as u32;
        node.next = next;
        node.info = kind.bits() | (count << COUNT_SHIFT);
        id
    }

    /// Parses an object's members; returns how many keys count.
    fn object(&mut self, depth: usize) -> u32 {
        let id = self.index.nodes.len() as u32 - 1;
        self.at += 1;
        let mut next = Next::First;
        loop {
            self.skip_space();
            match self.bytes.get(self.at) {
                Some(b'}') => {
                    self.certain &= next != Next::Item;
                    self.at += 1;
                    break;
                }
                Some(b',') => {
                    self.certain &= next == Next::Separator;
                    next = Next::Item;
                    self.at += 1;
                }
                Some(b'"') => {
                    self.certain &= next != Next::Separator;
                    let key_start = self.at;
                    self.string();
                    self.skip_space();
                    if self.bytes.get(self.at) != Some(&b':') {
                        self.certain = false;
                        break;
                    }
                    self.at += 1;
                    self.value(depth + 1, key_start as u32);
                    next = Next::Separator;
                }
                _ => {
                    self.certain = false;
                    break;
                }
            }
        }
        self.close_object(id)
    }

    /// Marks the members whose key is written again later, and lists a
    /// wide object's members by key.
    fn close_object(&mut self, id: u32) -> u32 {
        let end = self.index.nodes.len() as u32;
        let mut members = std::mem::take(&mut self.scratch);
        members.clear();
        members.extend(Children {
            nodes: &self.index.nodes,
            at: id + 1,
            end,
        });
        let text: &str = self.text;
        let key_of = |nodes: &[Node], m: u32| {
            let start = nodes[m as usize].key as usize;
            text.get(start..string_end(text.as_bytes(), start))
                .and_then(key_text)
                .unwrap_or_default()
        };
        let mut shadowed = Vec::new();
        if members.len() <= SCANNED {
            let keys: Vec<_> = members
                .iter()
                .map(|&m| key_of(&self.index.nodes, m))
                .collect();
            for (i, key) in keys.iter().enumerate() {
                if keys[i + 1..].contains(key) {
                    shadowed.push(members[i]);
                }
            }
        } else {
            let mut keyed: Vec<_> = members
                .iter()
                .map(|&m| (key_of(&self.index.nodes, m), m))
                .collect();
            // Stable: equal keys keep their order, the last one last.
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            let start = self.index.sorted.len() as u32;
            for (k, (key, m)) in keyed.iter().enumerate() {
                if keyed.get(k + 1).is_some_and(|(next, _)| next == key) {
                    shadowed.push(*m);
                } else {
                    self.index.sorted.push(*m);
                }
            }
            self.index.wide.push((id, start));
        }
        self.index.repeats |= !shadowed.is_empty();
        for &m in &shadowed {
            self.index.nodes[m as usize].info |= SHADOWED;
        }
        let count = (members.len() - shadowed.len()) as u32;
        self.scratch = members;
        count
    }

    /// Parses an array's items; returns how many.
    fn array(&mut self, depth: usize) -> u32 {
        let id = self.index.nodes.len() as u32 - 1;
        let mut count = 0;
        self.at += 1;
        let mut next = Next::First;
        loop {
            self.skip_space();
            match self.bytes.get(self.at) {
                Some(b']') => {
                    self.certain &= next != Next::Item;
                    self.at += 1;
                    break;
                }
                Some(b',') => {
                    self.certain &= next == Next::Separator;
                    next = Next::Item;
                    self.at += 1;
                }
                Some(_) => {
                    self.certain &= next != Next::Separator;
                    let before = self.at;
                    self.value(depth + 1, NO_KEY);
                    next = Next::Separator;
                    count += 1;
                    if self.at == before {
                        self.certain = false;
                        break;
                    }
                }
                None => {
                    self.certain = false;
                    break;
                }
            }
        }
        if count > STRIDE {
            let start = self.index.strides.len() as u32;
            let items = Children {
                nodes: &self.index.nodes,
                at: id + 1,
                end: self.index.nodes.len() as u32,
            };
            self.index.strides.extend(items.step_by(STRIDE));
            self.index.long.push((id, start));
        }
        count as u32
    }
}

/// What may come next in an object or an array: its first member or item,
/// or its end; a separator (after a member or item), or its end; a member
/// or item (after a separator), and nothing else.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    First,
    Separator,
    Item,
}

impl Parser<'_> {
    /// Moves past the string literal starting at the `"` here (as
    /// [`string_end`] does), doubting it unless it is closed, holds no
    /// control character, and escapes only as JSON does, with no escaped
    /// surrogate (`serde_json` refuses one without its pair).
    fn string(&mut self) {
        let bytes = self.bytes;
        let mut at = self.at + 1;
        let mut sure = false;
        while let Some(&b) = bytes.get(at) {
            at += 1;
            match b {
                b'"' => {
                    sure = true;
                    break;
                }
                b'\\' => {
                    let escaped = bytes.get(at).copied();
                    at += 1;
                    match escaped {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {}
                        Some(b'u') => {
                            // Four hex digits, told byte by byte:
                            // `from_str_radix` alone would also take a
                            // sign (`\u+123`), which JSON does not.
                            let code = bytes
                                .get(at..at + 4)
                                .filter(|hex| hex.iter().all(u8::is_ascii_hexdigit))
                                .and_then(|hex| std::str::from_utf8(hex).ok())
                                .and_then(|hex| u16::from_str_radix(hex, 16).ok());
                            // Not four hex digits, or half of a pair.
                            if code.is_none_or(|c| (0xD800..=0xDFFF).contains(&c)) {
                                self.certain = false;
                            }
                        }
                        _ => self.certain = false,
                    }
                }
                0..=0x1F => self.certain = false,
                _ => {}
            }
        }
        self.certain &= sure;
        self.at = at.min(bytes.len());
    }
}

/// Whether a number's literal is written as JSON writes one and is surely
/// in `serde_json`'s range: no exponent, and at most [`SURE_DIGITS`]
/// digits before the point.
fn surely_a_number(literal: &[u8]) -> bool {
    let digits = literal.strip_prefix(b"-").unwrap_or(literal);
    let (whole, fraction) = match digits.iter().position(|&b| b == b'.') {
        Some(point) => (&digits[..point], Some(&digits[point + 1..])),
        None => (digits, None),
    };
    let all_digits = |part: &[u8]| !part.is_empty() && part.iter().all(u8::is_ascii_digit);
    all_digits(whole)
        && (whole.len() == 1 || whole[0] != b'0')
        && whole.len() <= SURE_DIGITS
        && fraction.is_none_or(all_digits)
}

/// One past the string literal starting at the `"` at `at`.
fn string_end(bytes: &[u8], at: usize) -> usize {
    let mut at = at + 1;
    while let Some(&b) = bytes.get(at) {
        at += 1;
        match b {
            b'\\' => at += 1,
            b'"' => return at,
            _ => {}
        }
    }
    at.min(bytes.len())
}

/// The text a key literal (with its quotes) stands for, borrowed when it
/// has no escape.
pub fn key_text(literal: &str) -> Option<std::borrow::Cow<'_, str>> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(inner.into());
    }
    decode_string(literal).map(|(text, _)| text.into())
}

/// Every key written again in the same object of a JSON text, found in one
/// pass: `found(first, repeat)` gets the byte ranges of the two key
/// literals, for each repeat in order. Keys are compared as the strings
/// they decode to (`"a"` and `"\u0061"` are one key). An object of more
/// than 16 keys is looked up by hash, so a text costs linear time however
/// its keys repeat, and memory in proportion to the keys of the objects
/// open at once. Meant for text `serde_json` accepted; on other text it
/// finds what it can.
pub fn duplicate_keys(text: &str, mut found: impl FnMut(Range<usize>, Range<usize>)) {
    use std::borrow::Cow;
    use std::collections::hash_map::Entry;
    type Keys<'t> = foldhash::HashMap<Cow<'t, str>, Range<usize>>;
    enum Open<'t> {
        Array,
        Object {
            /// Whether the next string is a key.
            key_next: bool,
            small: Vec<(Cow<'t, str>, Range<usize>)>,
            large: Option<Keys<'t>>,
        },
    }
    let bytes = text.as_bytes();
    let mut open: Vec<Open> = Vec::new();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'{' => {
                open.push(Open::Object {
                    key_next: true,
                    small: Vec::new(),
                    large: None,
                });
                at += 1;
            }
            b'[' => {
                open.push(Open::Array);
                at += 1;
            }
            b'}' | b']' => {
                open.pop();
                at += 1;
            }
            b',' => {
                if let Some(Open::Object { key_next, .. }) = open.last_mut() {
                    *key_next = true;
                }
                at += 1;
            }
            b'"' => {
                let end = string_end(bytes, at);
                if let Some(Open::Object {
                    key_next: key_next @ true,
                    small,
                    large,
                }) = open.last_mut()
                {
                    *key_next = false;
                    let span = at..end;
                    let key = text
                        .get(span.clone())
                        .and_then(key_text)
                        .unwrap_or_default();
                    match large {
                        Some(keys) => match keys.entry(key) {
                            Entry::Occupied(first) => found(first.get().clone(), span),
                            Entry::Vacant(slot) => {
                                slot.insert(span);
                            }
                        },
                        None => match small.iter().find(|(k, _)| *k == key) {
                            Some((_, first)) => found(first.clone(), span),
                            None if small.len() < SCANNED => small.push((key, span)),
                            None => {
                                let mut keys: Keys = small.drain(..).collect();
                                keys.insert(key, span);
                                *large = Some(keys);
                            }
                        },
                    }
                }
                at = end;
            }
            _ => at += 1,
        }
    }
}

/// The error for a key written twice in one object, at the repeat, with
/// the first labelled: readers disagree on which value a repeated key has.
pub fn duplicate_key(doc: &Doc, first: Range<usize>, repeat: Range<usize>) -> Diagnostic {
    let name = doc
        .text
        .get(repeat.clone())
        .and_then(key_text)
        .unwrap_or_default();
    let at = doc.range(repeat);
    let before = doc.range(first);
    let mut diagnostic = Diagnostic::new(
        Code::DuplicateKey,
        Span::new(at.start, at.end),
        format!("the key `{name}` is written again in this object"),
    )
    .with_help(DUPLICATE_KEY_HELP);
    // One label, in a list of one: a flood of repeats records 100,000.
    diagnostic.labels = vec![crate::diagnostic::Label {
        span: Span::new(before.start, before.end),
        message: "first written here".to_string(),
    }];
    diagnostic
}

/// What to do about a repeated key, and why it matters.
pub const DUPLICATE_KEY_HELP: &str = "write each key once: readers disagree on a repeated key (`JSON.parse`, Python and agentc keep the last value; others reject the text or keep the first)";

/// Decodes a JSON string literal (with its quotes), returning the text and
/// where each of its bytes (and one past the end) is in `literal`: plain
/// runs are copied, and every byte an escape decodes to stands for the
/// escape's backslash.
pub fn decode_string(literal: &str) -> Option<(String, Map)> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    let mut text = String::with_capacity(inner.len());
    let mut map = Map::default();
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = i + 1;
        if c != '\\' {
            map.copied(text.len(), at);
            text.push(c);
            continue;
        }
        let (_, escape) = chars.next()?;
        let decoded = match escape {
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
        };
        map.stands_for(text.len(), at);
        text.push(decoded);
    }
    map.stands_for(text.len(), literal.len() - 1);
    Some((text, map))
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
        let (text, map) = decode_string(literal).unwrap();
        assert_eq!(text, "{\"q\": \"é😀\"}");
        // The `q` sits after `"{\"`.
        let q = text.find('q').unwrap();
        let at = map.offset(q).unwrap();
        assert_eq!(&literal[at..at + 1], "q");
        // Both bytes of `é` stand for its escape's backslash.
        let e = text.find('é').unwrap();
        assert_eq!(map.offset(e), map.offset(e + 1));
        assert_eq!(&literal[map.offset(e).unwrap()..][..6], r"\u00e9");
        // One past the end is the closing quote.
        assert_eq!(map.offset(text.len()), Some(literal.len() - 1));
        let doc = Doc::slice(literal, 10);
        let inner = doc.string(0..literal.len()).unwrap();
        assert_eq!(inner.offset(q), 10 + at);
        assert!(decode_string(r#""\x""#).is_none());
    }

    #[test]
    fn a_string_of_an_assembled_text_maps_through_both_maps() {
        // `data: "a` and `data: b"` joined by a newline: the string spans
        // the seam, and its decoded bytes map to both lines.
        let file = "data: \"ab\\n\ndata: cd\"";
        let mut map = Map::default();
        map.copied(0, 6);
        map.stands_for(5, 11);
        map.copied(6, 18);
        map.stands_for(9, 21);
        let text = "\"ab\\n\ncd\"";
        let doc = Doc::mapped(text.into(), map);
        assert_eq!(&file[doc.range(0..1)], "\"");
        assert_eq!(&file[doc.range(6..8)], "cd");
        let inner = doc.string(0..text.len()).unwrap();
        assert_eq!(inner.text, "ab\n\ncd");
        assert_eq!(&file[inner.range(0..2)], "ab");
        assert_eq!(&file[inner.range(2..3)], "\\n");
        assert_eq!(&file[inner.range(4..6)], "cd");
        assert_eq!(inner.offset(6), file.len() - 1);
    }

    #[test]
    fn a_wide_object_is_searched_by_key_and_keeps_the_last_of_repeats() {
        let mut text = String::from("{");
        for i in 0..100 {
            text.push_str(&format!("\"k{i}\": {i}, "));
        }
        text.push_str("\"k7\": \"again\", \"\\u006b8\": true}");
        let index = Index::new(&text);
        assert_eq!(&text[index.locate("/k42").unwrap().value], "42");
        assert_eq!(&text[index.locate("/k7").unwrap().value], "\"again\"");
        assert_eq!(&text[index.locate("/k8").unwrap().value], "true");
        // Not a member: the object itself.
        assert_eq!(index.locate("/nope").unwrap().value, 0..text.len());
    }

    #[test]
    fn a_node_is_20_bytes_and_nothing_is_copied_out_of_the_text() {
        assert_eq!(std::mem::size_of::<Node>(), 20);
        // The densest JSON there is: a list of empty lists (3 bytes a
        // node) and of one-digit numbers (2 bytes).
        for (item, per_byte) in [("[]", 7), ("1", 11)] {
            let text = format!("[{}]", vec![item; 1 << 20].join(","));
            let index = Index::new(&text);
            assert_eq!(index.nodes(), (1 << 20) + 1);
            assert!(
                index.heap_bytes() <= per_byte * text.len(),
                "{item}: {} bytes for {}",
                index.heap_bytes(),
                text.len()
            );
        }
    }

    #[test]
    fn an_item_of_a_long_array_is_found_in_fewer_than_a_stride_of_steps() {
        let text = format!("[{}]", vec!["[0]"; 1_000_000].join(","));
        let index = Index::new(&text);
        for i in [0, 1, 63, 64, 65, 500_000, 999_999] {
            let (_, steps) = index.item_from(0, i).unwrap();
            assert!(steps < STRIDE, "{i}: {steps} steps");
            let item = index.item(0, i).unwrap();
            assert_eq!(index.span(item).start, 1 + 4 * i);
            assert_eq!(&text[index.locate(&format!("/{i}/0")).unwrap().value], "0");
        }
        assert_eq!(index.item(0, 1_000_000), None);
        // A nested long array lists its own strides.
        let text = format!(
            "[[{}],[{}]]",
            vec!["1"; 200].join(","),
            vec!["2"; 300].join(",")
        );
        let index = Index::new(&text);
        assert_eq!(&text[index.locate("/0/150").unwrap().value], "1");
        assert_eq!(&text[index.locate("/1/299").unwrap().value], "2");
    }

    #[test]
    fn repeated_keys_count_once_with_the_last_value_small_or_wide() {
        for width in [3, 40] {
            let mut text = String::from("{");
            for i in 0..width {
                text.push_str(&format!("\"k{i}\": {i}, "));
            }
            text.push_str("\"k1\": \"last\", \"\\u006b2\": true}");
            let index = Index::new(&text);
            assert_eq!(index.len(0), width);
            assert_eq!(index.members(0).count(), width);
            assert_eq!(index.children(0).count(), width + 2);
            let k1 = index.member(0, "k1").unwrap();
            assert_eq!(index.source(k1), "\"last\"");
            assert_eq!(index.source(index.member(0, "k2").unwrap()), "true");
            assert_eq!(index.member(0, "nope"), None);
        }
    }

    #[test]
    fn the_syntax_check_reads_json_as_serde_json_does() {
        for text in [
            "1e400",
            "[1,]",
            "{\"a\" 1}",
            "\"\\ud800\"",
            "[",
            "01",
            "-",
            "nul",
            "[1] 2",
            "\"\t\"",
        ] {
            let value = serde_json::from_str::<serde_json::Value>(text).map(|_| ());
            let checked = check_syntax(text);
            assert_eq!(
                checked.as_ref().map_err(ToString::to_string),
                value.as_ref().map_err(ToString::to_string),
                "{text}"
            );
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(check_syntax(&deep).is_err(), "serde_json's depth limit");
        assert!(check_syntax(r#"{"a": [1, 2.5, -0, "x\u00e9", null, true]}"#).is_ok());
    }

    fn repeats(text: &str) -> Vec<(&str, &str)> {
        let mut found = Vec::new();
        duplicate_keys(text, |first, repeat| {
            found.push((&text[first], &text[repeat]))
        });
        found
    }

    #[test]
    fn duplicate_keys_are_found_per_object_as_decoded() {
        let text = r#"{"a": {"a": 1, "b": [{"a": 2}]}, "b": "a", "\u0061": {"a": 3, "a": 4}}"#;
        assert_eq!(
            repeats(text),
            [(r#""a""#, r#""\u0061""#), (r#""a""#, r#""a""#)]
        );
        // Strings that are values are not keys.
        assert!(repeats(r#"{"a": "a", "b": ["a", "a"], "c": {"d": "a"}}"#).is_empty());
        // Past 16 keys, by hash, each repeat reported against the first.
        let mut wide = String::from("{");
        for i in 0..40 {
            wide.push_str(&format!("\"k{}\": 0,", i % 20));
        }
        wide.push_str("\"z\": 0}");
        let found = repeats(&wide);
        assert_eq!(found.len(), 20);
        assert!(found.iter().all(|(first, repeat)| first == repeat));
        // Broken text never panics.
        for broken in [r#"{"a"#, r#"{"a": 1, "a"#, "}}]]{", r#"{"\"#] {
            repeats(broken);
        }
    }

    /// `Index::read`'s verdict, and whether `serde_json` accepts the text.
    fn verdicts(text: &str) -> (bool, bool) {
        (Index::read(text).1, check_syntax(text).is_ok())
    }

    #[test]
    fn a_text_read_in_one_pass_is_json_serde_json_accepts() {
        // Written as JSON writes it: certain, one pass.
        for text in [
            "{}",
            "[]",
            " \t\r\n{\"a\": [1, -2.5, 0, -0, 0.0, true, false, null, \"x\"]} \n",
            r#"{"a": {"b": [[], {}, [{"c": "\"\\\/\b\f\n\r\t\u00e9\uFFFF é"}]]}, "a": 1}"#,
            r#""a string""#,
            "12345678901234567890123456789",
        ] {
            let listed = format!("[{text}]");
            for text in [text, listed.as_str()] {
                assert_eq!(verdicts(text), (true, true), "{text:?}");
            }
        }
        // Not JSON, or what serde_json alone can judge: never certain, so
        // serde_json's answer (and its error) is the one given.
        for text in [
            "",
            "  ",
            "{",
            "[1,]",
            "[,1]",
            "[1 2]",
            "[1,,2]",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "{,\"a\": 1}",
            "{\"a\": 1 \"b\": 2}",
            "{1: 2}",
            "01",
            "-",
            "1.",
            ".5",
            "+1",
            "1e5",
            "1E-2",
            "1e400",
            "nul",
            "truex",
            "true false",
            "[1] x",
            "\"a",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u+123\"",
            "\"\\u-123\"",
            "\"\\ud83d\\ude00\"",
            "\"\\ud800\"",
            "\"\u{1}\"",
            "\u{feff}{}",
            "NaN",
        ] {
            let (certain, _) = verdicts(text);
            assert!(!certain, "{text:?}");
            assert_eq!(
                Index::checked(text).map(|_| ()).map_err(|e| e.to_string()),
                check_syntax(text).map_err(|e| e.to_string()),
                "{text:?}"
            );
        }
        // A number of more digits than a float holds, and nesting near
        // serde_json's limit: asked of serde_json.
        let long = "9".repeat(400);
        assert_eq!(verdicts(&long), (false, false));
        let deep = format!("{}{}", "[".repeat(120), "]".repeat(120));
        assert_eq!(verdicts(&deep), (false, true));
        let deeper = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(verdicts(&deeper), (false, false));
        // The index is the same either way.
        let text = r#"{"a": [1, {"b": "x"}], "a": 2}"#;
        let checked = Index::checked(text).expect("JSON");
        assert_eq!(checked.nodes(), Index::new(text).nodes());
        assert_eq!(&text[checked.locate("/a").unwrap().value], "2");
    }

    /// Whether serde_json writes a number of the value with an exponent.
    fn has_exponent(value: &serde_json::Value) -> bool {
        use serde_json::Value;
        match value {
            Value::Number(n) => n.to_string().contains(['e', 'E']),
            Value::Array(items) => items.iter().any(has_exponent),
            Value::Object(members) => members.values().any(has_exponent),
            _ => false,
        }
    }

    use proptest::prelude::*;

    /// JSON texts whose objects may write a key again, as it is or
    /// escaped, in small objects and wide ones.
    fn keyed_text() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            Just(r#""a""#),
            Just(r#""b""#),
            Just(r#""\u0061""#),
            Just(r#""a\n""#),
            Just(r#""a\u000a""#),
        ];
        let leaf = prop_oneof![Just("1".to_string()), Just(r#""a""#.to_string())];
        leaf.prop_recursive(3, 64, 20, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                prop::collection::vec((key.clone(), inner), 0..20).prop_map(|members| {
                    let members: Vec<_> =
                        members.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                    format!("{{{}}}", members.join(", "))
                }),
            ]
        })
    }

    proptest! {
        /// The index knows whether a text writes a key twice exactly when
        /// reading the text for repeated keys finds one.
        #[test]
        fn the_index_knows_when_a_key_is_written_twice(text in keyed_text()) {
            let index = Index::checked(&text).expect("JSON");
            let mut found = false;
            duplicate_keys(&text, |_, _| found = true);
            prop_assert_eq!(index.repeats_keys(), found, "{}", text);
        }

        /// Never certain of a text serde_json refuses, and never wrong
        /// about one: over texts made of JSON's own characters (and a few
        /// others), short and long, most of them broken.
        #[test]
        fn certain_only_of_what_serde_json_accepts(
            text in "[ \\[\\]{}:,\"\\\\/0-9.eE+\\-truefalsn\\u{0}\\u{1f}éx\\n]{0,40}"
        ) {
            let (certain, accepted) = verdicts(&text);
            prop_assert!(!certain || accepted, "certain of {:?}, which serde_json refuses", text);
            prop_assert_eq!(
                Index::checked(&text).is_ok(),
                accepted,
                "{:?}", text
            );
        }

        /// Every JSON text serde_json writes is accepted, and, unless it
        /// writes a number with an exponent, in one pass; cut short or
        /// with a byte changed, the verdict is serde_json's.
        #[test]
        fn what_serde_json_writes_is_read_in_one_pass(
            value in crate::testing::json_value(),
            pretty in any::<bool>(),
            cut in any::<prop::sample::Index>(),
            byte in any::<u8>(),
        ) {
            let text = match pretty {
                true => serde_json::to_string_pretty(&value),
                false => serde_json::to_string(&value),
            }.expect("a value prints");
            let (certain, accepted) = verdicts(&text);
            prop_assert!(accepted);
            prop_assert_eq!(certain, !has_exponent(&value), "{}", text);
            let at = cut.index(text.len() + 1);
            for broken in [
                text.get(..at).map(str::to_owned),
                text.is_char_boundary(at).then(|| {
                    let mut bytes = text.clone().into_bytes();
                    if let Some(b) = bytes.get_mut(at) { *b = byte & 0x7f; }
                    String::from_utf8(bytes).ok()
                }).flatten(),
            ].into_iter().flatten() {
                let (certain, accepted) = verdicts(&broken);
                prop_assert!(!certain || accepted, "certain of {:?}", broken);
                prop_assert_eq!(Index::checked(&broken).is_ok(), accepted);
            }
        }
    }
}

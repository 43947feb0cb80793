//! A spanned YAML tree built from `saphyr-parser` events. Every key and
//! value keeps its byte span; mappings keep their order, and a duplicate
//! key is reported here, once, with both places, and dropped with its value
//! (only the first counts); scalars stay text with
//! their style, so the field that reads a scalar decides its type under
//! YAML 1.2 rules (`yes`, `on` and `16:9` are strings). The tree borrows
//! its text from the source. The limits against hostile input (alias
//! expansion, nesting depth, value size) are enforced here.

use crate::cancel::Cancel;
use crate::diagnostic::{Checkpoint, Code, Diagnostic, Diagnostics, Edit, MAX_DIAGNOSTICS};
use crate::source::Source;
use crate::span::Span;
use saphyr_parser::{Event, Parser, ScanError};
use std::borrow::Cow;
use std::collections::HashMap;

mod indentation;

/// Deepest nesting of mappings and sequences accepted. Real protocols nest
/// less than ten levels; the bound keeps every later stage (and dropping the
/// tree) far from the stack's limit.
pub const MAX_DEPTH: usize = 128;

/// Longest scalar (key or value) kept, in bytes. The longest real values
/// are descriptions of a few kilobytes; a megabyte is generated input, and
/// the bound keeps what later stages do with a value (name suggestions,
/// template scans, messages) small.
pub const MAX_SCALAR_BYTES: usize = 1024 * 1024;

/// Most nodes that aliases may add to the tree, in total. Aliases are the
/// one way a small YAML file becomes a huge tree ("billion laughs").
pub const MAX_ALIAS_NODES: usize = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// A scalar's text borrows from the source whenever it is written out
/// there as is (almost always: plain, and quoted without escapes or line
/// folding), so the tree holds no copy of the file's text.
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar<'s> {
    pub text: Cow<'s, str>,
    pub style: ScalarStyle,
}

/// What a scalar means under the YAML 1.2 core schema. Only plain scalars
/// are typed; quoted and block scalars are always strings.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
}

impl Scalar<'_> {
    pub fn value(&self) -> Value<'_> {
        value_of(&self.text, self.style)
    }

    /// Whether [`Scalar::value`] is [`Value::Null`], without reading the
    /// scalar as a number.
    pub fn is_null(&self) -> bool {
        self.style == ScalarStyle::Plain && is_null_word(&self.text)
    }

    /// The scalar with its own copy of the text, to outlive the source.
    pub fn into_owned(self) -> Scalar<'static> {
        Scalar {
            text: Cow::Owned(self.text.into_owned()),
            style: self.style,
        }
    }
}

/// What a scalar written `t` in `style` means ([`Scalar::value`]), for
/// a scalar kept apart from its tree.
pub fn value_of(t: &str, style: ScalarStyle) -> Value<'_> {
    if style != ScalarStyle::Plain {
        return Value::Str(t);
    }
    // Most plain scalars are words: only `null`, `true` and `false`
    // (in three spellings each) among them are not text.
    if t.starts_with(|c: char| {
        c.is_ascii_alphabetic() && !matches!(c, 'n' | 'N' | 't' | 'T' | 'f' | 'F')
    }) {
        return Value::Str(t);
    }
    if is_null_word(t) {
        return Value::Null;
    }
    match t {
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Value::Float(f64::INFINITY);
        }
        "-.inf" | "-.Inf" | "-.INF" => return Value::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Value::Float(f64::NAN),
        _ => {}
    }
    if let Some(int) = parse_int(t) {
        return Value::Int(int);
    }
    if is_float(t)
        && let Ok(float) = t.parse::<f64>()
    {
        return Value::Float(float);
    }
    Value::Str(t)
}

/// The plain scalars that mean null under the YAML 1.2 core schema.
fn is_null_word(t: &str) -> bool {
    matches!(t, "" | "~" | "null" | "Null" | "NULL")
}

fn parse_int(t: &str) -> Option<i64> {
    if let Some(octal) = t.strip_prefix("0o") {
        return i64::from_str_radix(octal, 8).ok();
    }
    if let Some(hex) = t.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok();
    }
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Integers too large for i64 are still integers; they read as floats.
        return t.parse().ok();
    }
    None
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
fn is_float(t: &str) -> bool {
    let t = t.strip_prefix(['-', '+']).unwrap_or(t);
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match fraction {
        None => !whole.is_empty() && digits(whole),
        Some(f) => digits(whole) && digits(f) && !(whole.is_empty() && f.is_empty()),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

/// A node of the tree. It borrows its text from the source (`'s`); the
/// few nodes the model keeps are copied out with [`Node::into_owned`].
#[derive(Clone, Debug, PartialEq)]
pub struct Node<'s> {
    pub span: Span,
    pub kind: NodeKind<'s>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind<'s> {
    Scalar(Scalar<'s>),
    Mapping(Vec<Entry<'s>>),
    Sequence(Vec<Node<'s>>),
}

/// A mapping key. Keys are always scalars (a non-scalar key is reported and
/// its entry dropped).
#[derive(Clone, Debug, PartialEq)]
pub struct Key<'s> {
    pub text: Cow<'s, str>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry<'s> {
    pub key: Key<'s>,
    pub value: Node<'s>,
}

impl<'s> Node<'s> {
    /// The node with its own copy of every text, to outlive the source.
    pub fn into_owned(self) -> Node<'static> {
        let kind = match self.kind {
            NodeKind::Scalar(scalar) => NodeKind::Scalar(scalar.into_owned()),
            NodeKind::Mapping(entries) => NodeKind::Mapping(
                entries
                    .into_iter()
                    .map(|entry| Entry {
                        key: Key {
                            text: Cow::Owned(entry.key.text.into_owned()),
                            span: entry.key.span,
                        },
                        value: entry.value.into_owned(),
                    })
                    .collect(),
            ),
            NodeKind::Sequence(items) => {
                NodeKind::Sequence(items.into_iter().map(Node::into_owned).collect())
            }
        };
        Node {
            span: self.span,
            kind,
        }
    }

    pub fn as_scalar(&self) -> Option<&Scalar<'s>> {
        match &self.kind {
            NodeKind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_mapping(&self) -> Option<&[Entry<'s>]> {
        match &self.kind {
            NodeKind::Mapping(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn as_sequence(&self) -> Option<&[Node<'s>]> {
        match &self.kind {
            NodeKind::Sequence(items) => Some(items),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        self.as_scalar().is_some_and(Scalar::is_null)
    }

    /// "a mapping", "a list", "the string `x`": what the node is, for messages.
    pub fn describe(&self) -> String {
        match &self.kind {
            NodeKind::Mapping(_) => "a mapping".into(),
            NodeKind::Sequence(_) => "a list".into(),
            NodeKind::Scalar(s) => match s.value() {
                Value::Null => "nothing".into(),
                Value::Bool(_) => format!("the boolean `{}`", s.text),
                Value::Int(_) | Value::Float(_) => format!("the number `{}`", s.text),
                Value::Str(text) => format!("the string `{}`", abbreviate(text)),
            },
        }
    }

    fn count(&self) -> usize {
        match &self.kind {
            NodeKind::Scalar(_) => 1,
            NodeKind::Mapping(entries) => {
                1 + entries.iter().map(|e| 1 + e.value.count()).sum::<usize>()
            }
            NodeKind::Sequence(items) => 1 + items.iter().map(Node::count).sum::<usize>(),
        }
    }
}

/// One step of a path from the root of a tree to a node: a mapping's key
/// or a sequence's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'t> {
    Key(&'t str),
    Index(usize),
}

/// The steps from `root` to the innermost node at byte `offset`: at each
/// mapping, the entry whose key or value holds the offset (a key stands for
/// its entry, so a problem reported at a key is at that key's path), at
/// each sequence, the item that holds it. Empty when the offset is in no
/// entry or item of the root. The path of a node does not change when
/// lines are added elsewhere in the file, as its line does: the baseline
/// (`config::baseline`) keys what it accepts by it.
pub fn path_at<'t>(root: &'t Node<'_>, offset: usize) -> Vec<Step<'t>> {
    let holds = |span: Span| (span.start as usize) <= offset && offset < (span.end as usize);
    let mut steps = Vec::new();
    let mut node = root;
    loop {
        match &node.kind {
            NodeKind::Mapping(entries) => {
                // Entries are in source order: the one that holds the
                // offset is the last whose key starts at or before it (a
                // search, so a file of many problems costs no more than
                // linear time), unless an alias placed a value elsewhere.
                let last = entries.partition_point(|e| (e.key.span.start as usize) <= offset);
                let holder = |e: &&Entry<'_>| holds(e.key.span) || holds(e.value.span);
                let Some(entry) = last
                    .checked_sub(1)
                    .and_then(|i| entries.get(i))
                    .filter(holder)
                    .or_else(|| entries.iter().find(holder))
                else {
                    break;
                };
                steps.push(Step::Key(&entry.key.text));
                if holds(entry.key.span) {
                    break;
                }
                node = &entry.value;
            }
            NodeKind::Sequence(items) => {
                let last = items.partition_point(|i| (i.span.start as usize) <= offset);
                let Some((index, item)) = last
                    .checked_sub(1)
                    .and_then(|i| Some((i, items.get(i)?)))
                    .filter(|(_, item)| holds(item.span))
                    .or_else(|| items.iter().enumerate().find(|(_, i)| holds(i.span)))
                else {
                    break;
                };
                steps.push(Step::Index(index));
                node = item;
            }
            NodeKind::Scalar(_) => break,
        }
    }
    steps
}

/// The first line of `text`, cut to a length that fits in a message.
pub fn abbreviate(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let mut short: String = line.chars().take(40).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

/// Parses the source into its root node. Returns `None` when the text is
/// not a readable single YAML document (the reasons are in `diags`).
///
/// When the parser fails on an indentation mistake, the mistake is
/// reported where it is made (see [`indentation`]), and the file is read
/// on without the misplaced lines, so that the rest of it is still
/// checked: the tree is then read from a repaired copy of the text, whose
/// offsets are the source's, and still borrows its text from the source.
pub fn parse<'s>(source: &'s Source, diags: &mut Diagnostics) -> Option<Node<'s>> {
    parse_whole(source, diags).root
}

/// A tree, and whether the text it was read from names an anchor or an
/// alias (a change in one place of such a text can change another).
pub(crate) struct Parsed<'s> {
    pub root: Option<Node<'s>>,
    pub anchored: bool,
}

/// A reader of the file's top-level sections entry by entry, while the
/// text is read: the protocol's compile lowers each entry of `types`,
/// `tools`, `triggers` and `handlers` as soon as it is read, and the tree
/// keeps in its place only the key, with a null value over the entry's
/// span. The subtree of each entry is freed at once, so the whole tree and
/// the model are never in memory together.
///
/// Only the entries of a section that is the file's own mapping's and has
/// no anchor are taken (an alias of an anchored section must find its
/// entries); a section written twice is dropped whole, as ever.
pub(crate) trait Sections<'s> {
    /// Whether each entry of the section named `key` is taken as it is
    /// read: the number `take` is told, or `None`.
    fn section(&self, key: &str) -> Option<usize>;
    /// An entry of section `section`, read in full.
    fn take(&mut self, section: usize, entry: &Entry<'s>);
    /// The text is read again from its start (after a syntax error, a
    /// repaired copy): what was taken before is forgotten.
    fn restart(&mut self);
}

/// [`parse`], saying whether the text uses anchors or aliases.
pub(crate) fn parse_whole<'s>(source: &'s Source, diags: &mut Diagnostics) -> Parsed<'s> {
    parse_whole_unless(source, diags, Cancel::never(), None)
}

/// [`parse_whole`], stopping early once `cancel` says so: what it then
/// returns is to be thrown away. With `sections`, the entries it takes are
/// given to it as they are read ([`Sections`]).
pub(crate) fn parse_whole_unless<'s>(
    source: &'s Source,
    diags: &mut Diagnostics,
    cancel: &Cancel,
    mut sections: Option<&mut (dyn Sections<'s> + 'static)>,
) -> Parsed<'s> {
    let checkpoint = diags.checkpoint();
    match build(
        source,
        source.text(),
        diags,
        cancel,
        sections.as_deref_mut(),
    ) {
        Ok(parsed) => parsed,
        // After a repair, whether the text has anchors is not kept: it
        // is counted as having them, which no caller reuses.
        Err(error) => Parsed {
            root: recover(source, error, checkpoint, diags, cancel, sections),
            anchored: true,
        },
    }
}

/// The tree of `range` of the source's text alone, as if it were a file
/// of its own, with the source's offsets; `None` when the parser stops on
/// an error there (nothing is reported: the caller reads the whole text
/// instead). For re-reading one entry of a section after an edit
/// (`crate::incremental`): `above` is how many collections hold the part
/// in its file, below the file's own mapping, which count toward
/// [`MAX_DEPTH`] as they do there.
pub(crate) fn parse_part<'s>(
    source: &'s Source,
    range: std::ops::Range<usize>,
    above: usize,
    diags: &mut Diagnostics,
) -> Option<Parsed<'s>> {
    let text = source.text().get(range.clone())?;
    let mut builder = Builder::new(source, diags, Cancel::never(), None);
    builder.above = above;
    build_with(builder, text, range.start).ok()
}

/// The tree of a text, or the syntax error that stopped the parser.
///
/// `text` is the source's text, or a repaired copy of it whose every byte
/// outside the blanked lines is the source's, at the same offset: the tree
/// then still borrows from the source.
fn build<'s>(
    source: &'s Source,
    text: &str,
    diags: &mut Diagnostics,
    cancel: &Cancel,
    mut sections: Option<&mut (dyn Sections<'s> + 'static)>,
) -> Result<Parsed<'s>, ScanError> {
    if let Some(sections) = sections.as_deref_mut() {
        sections.restart();
    }
    build_with(Builder::new(source, diags, cancel, sections), text, 0)
}

/// How many YAML events are read between two questions to a [`Cancel`]:
/// at 10k types, about a millisecond's worth.
const EVENTS_BETWEEN_ASKS: usize = 4_096;

/// [`build`] with a builder of its own, where `text` may also be a part of
/// the source's text that starts at `base`.
fn build_with<'s>(
    mut builder: Builder<'s, '_>,
    text: &str,
    base: usize,
) -> Result<Parsed<'s>, ScanError> {
    let offsets = Offsets::new(text);
    let mut parser = Parser::new_from_str(text);
    let mut events = 0usize;
    loop {
        if events.is_multiple_of(EVENTS_BETWEEN_ASKS) && builder.cancel.is_cancelled() {
            break;
        }
        events += 1;
        match parser.next_event() {
            None => break,
            Some(Ok((event, span))) => {
                let span = offsets.span(span);
                let span = Span::new(span.start as usize + base, span.end as usize + base);
                if builder.on_event(event, span, Read { text, base }) == Flow::Stop {
                    break;
                }
            }
            Some(Err(error)) => return Err(error),
        }
    }
    let anchored = builder.anchored;
    Ok(Parsed {
        root: builder.finish(),
        anchored,
    })
}

/// The text the parser reads, and where it starts in the source's: an
/// event's scalar is a slice of it, or a copy ([`rebase`]).
#[derive(Clone, Copy)]
struct Read<'t> {
    text: &'t str,
    base: usize,
}

/// A scalar's text read from `parsed`, as the same bytes of `original`
/// when it is a slice of `parsed` that `original` has at the same offset
/// (plus `base`, where `parsed` starts in it), else as a copy.
fn rebase<'s>(original: &'s str, parsed: &str, base: usize, value: Cow<'_, str>) -> Cow<'s, str> {
    match value {
        Cow::Borrowed(slice) => {
            let start = (slice.as_ptr() as usize)
                .wrapping_sub(parsed.as_ptr() as usize)
                .wrapping_add(base);
            match original.get(start..start.saturating_add(slice.len())) {
                Some(same) if std::ptr::eq(same, slice) || same == slice => Cow::Borrowed(same),
                _ => Cow::Owned(slice.to_owned()),
            }
        }
        Cow::Owned(owned) => Cow::Owned(owned),
    }
}

/// How many times a text is repaired and read again at most. Each round is
/// linear (a parse, an analysis, a copy), and one round repairs every
/// mistake the analysis finds, so a second one is rare.
const MAX_REPAIRS: usize = 3;

/// After a syntax error: the indentation mistakes that explain it, and the
/// tree of the text without them; or the parser's own error.
fn recover<'s>(
    source: &'s Source,
    mut error: ScanError,
    checkpoint: Checkpoint,
    diags: &mut Diagnostics,
    cancel: &Cancel,
    mut sections: Option<&mut (dyn Sections<'s> + 'static)>,
) -> Option<Node<'s>> {
    let mut found: Vec<Diagnostic> = Vec::new();
    let mut more = 0;
    let mut repaired: Option<Source> = None;
    let mut round = 0;
    loop {
        let current = repaired.as_ref().unwrap_or(source);
        let offset = Offsets::new(current.text()).byte(error.marker().index());
        let analysis = if round < MAX_REPAIRS {
            indentation::analyze_unless(current.text(), cancel)
        } else {
            indentation::Analysis::default()
        };
        if cancel.is_cancelled() {
            return None;
        }
        round += 1;
        let explained = analysis
            .problems
            .first()
            .is_some_and(|first| near(current, offset, first));
        let text = analysis
            .repaired
            .and_then(|bytes| String::from_utf8(bytes).ok());
        let Some(text) = text.filter(|_| explained) else {
            // What the earlier rounds found is already reported.
            if let Some(diagnostic) = syntax_error(current, &error, offset, diags) {
                diags.push(diagnostic);
            }
            return None;
        };
        for problem in &analysis.problems {
            if found.len() < MAX_DIAGNOSTICS {
                found.push(problem.diagnostic(source));
            } else {
                more += 1;
            }
        }
        more += analysis.more;
        let next = Source::new(source.name(), text);
        // The indentation first: they are the cause of what follows, and
        // must not be crowded out by a flood past the limit.
        diags.rollback(checkpoint);
        report(diags, &found, more);
        match build(source, next.text(), diags, cancel, sections.as_deref_mut()) {
            Ok(parsed) => return parsed.root,
            Err(next_error) => {
                error = next_error;
                repaired = Some(next);
            }
        }
    }
}

/// Adds the indentation diagnostics, and counts those past the limit.
fn report(diags: &mut Diagnostics, found: &[Diagnostic], more: usize) {
    diags.extend(found.iter().cloned());
    for _ in 0..more {
        // Past `MAX_DIAGNOSTICS` found, the list is full: this only counts.
        diags.push_with(Code::YamlSyntax, || {
            Diagnostic::new(Code::YamlSyntax, Span::empty(0), "indentation")
        });
    }
}

/// Whether an indentation problem explains the parser's error at `offset`:
/// it is on the error's line, or on the next line that is not blank (the
/// parser, reading a value, can stop at the end of the line before).
fn near(source: &Source, offset: usize, problem: &indentation::Problem) -> bool {
    let (error_line, _) = source.line_of(offset);
    let (line, _) = source.line_of(problem.line_start);
    if line == error_line {
        return true;
    }
    if line < error_line {
        return false;
    }
    (error_line + 1..line).all(|between| {
        let text = source
            .line_text(between + 1)
            .trim_start_matches([' ', '\t']);
        text.is_empty() || text.starts_with('#')
    })
}

#[derive(PartialEq)]
enum Flow {
    Continue,
    Stop,
}

/// A collection being built. Its children wait on the builder's shared
/// stacks (`entries`, `items`) from `first` on, so each collection is
/// allocated once, at its exact size, when it ends.
enum Frame<'s> {
    Mapping {
        start: Span,
        anchor: usize,
        first: usize,
        /// The key waiting for its value; `Err` for a key that was dropped.
        key: Option<Result<Key<'s>, ()>>,
        /// The keys so far, once there are too many to search one by one.
        index: Option<KeyIndex<'s>>,
        /// The section whose entries these are, when [`Sections`] takes
        /// them as they are read.
        taken: Option<usize>,
    },
    Sequence {
        start: Span,
        anchor: usize,
        first: usize,
    },
}

/// Up to this many keys, a mapping finds a duplicate by looking through its
/// keys; past it, by a hash map (only big mappings pay for one).
pub(crate) const SEARCHED_KEYS: usize = 16;

struct Builder<'s, 'd> {
    source: &'s Source,
    diags: &'d mut Diagnostics,
    stack: Vec<Frame<'s>>,
    /// The entries of the open mappings, innermost last.
    entries: Vec<Entry<'s>>,
    /// The items of the open sequences, innermost last.
    items: Vec<Node<'s>>,
    /// While > 0, events are inside a collection past MAX_DEPTH and skipped.
    skipping: usize,
    skipped_from: Span,
    anchors: HashMap<usize, (Node<'s>, usize)>,
    alias_budget: usize,
    alias_reported: bool,
    nesting_reported: bool,
    documents: usize,
    root: Option<Node<'s>>,
    /// An anchor or an alias was read.
    anchored: bool,
    /// Collections that hold the text being read in its file, besides
    /// those read (a part of a file: [`parse_part`]).
    above: usize,
    /// Asked every [`EVENTS_BETWEEN_ASKS`] events whether to stop.
    cancel: &'d Cancel<'d>,
    /// Given the entries of the sections it takes as they are read.
    sections: Option<&'d mut (dyn Sections<'s> + 'static)>,
}

impl<'s, 'd> Builder<'s, 'd> {
    fn new(
        source: &'s Source,
        diags: &'d mut Diagnostics,
        cancel: &'d Cancel<'d>,
        sections: Option<&'d mut (dyn Sections<'s> + 'static)>,
    ) -> Self {
        Builder {
            source,
            diags,
            stack: Vec::new(),
            entries: Vec::new(),
            items: Vec::new(),
            skipping: 0,
            skipped_from: Span::default(),
            anchors: HashMap::new(),
            alias_budget: MAX_ALIAS_NODES,
            alias_reported: false,
            nesting_reported: false,
            documents: 0,
            root: None,
            anchored: false,
            above: 0,
            cancel,
            sections,
        }
    }

    fn on_event(&mut self, event: Event<'_>, span: Span, read: Read<'_>) -> Flow {
        if self.skipping > 0 {
            match event {
                Event::MappingStart(..) | Event::SequenceStart(..) => self.skipping += 1,
                Event::MappingEnd | Event::SequenceEnd => {
                    self.skipping -= 1;
                    if self.skipping == 0 {
                        let null = null_node(self.skipped_from.to(span));
                        self.complete(null, 0);
                    }
                }
                _ => {}
            }
            return Flow::Continue;
        }
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    self.diags.push(
                        Diagnostic::new(
                            Code::MultipleDocuments,
                            span,
                            "a protocol file holds one YAML document; a second one starts here",
                        )
                        .with_help("remove the `---` line and what follows, or move it into a file of its own"),
                    );
                    return Flow::Stop;
                }
            }
            Event::Scalar(text, style, anchor, _tag) => {
                let style = match style {
                    saphyr_parser::ScalarStyle::Plain => ScalarStyle::Plain,
                    saphyr_parser::ScalarStyle::SingleQuoted => ScalarStyle::SingleQuoted,
                    saphyr_parser::ScalarStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
                    saphyr_parser::ScalarStyle::Literal => ScalarStyle::Literal,
                    saphyr_parser::ScalarStyle::Folded => ScalarStyle::Folded,
                };
                let span = self.trim(span);
                let text = rebase(self.source.text(), read.text, read.base, text);
                let text = if text.len() > MAX_SCALAR_BYTES {
                    self.too_large(span, text.len());
                    Cow::Borrowed("")
                } else {
                    self.borrowed(text, span, style)
                };
                let node = Node {
                    span,
                    kind: NodeKind::Scalar(Scalar { text, style }),
                };
                self.complete(node, anchor);
            }
            Event::MappingStart(..) | Event::SequenceStart(..)
                if self.stack.len() + self.above >= MAX_DEPTH =>
            {
                if !self.nesting_reported {
                    self.nesting_reported = true;
                    self.diags.push(nested_too_deep(span));
                }
                self.skipping = 1;
                self.skipped_from = span;
            }
            Event::MappingStart(anchor, _) => {
                let taken = match (&self.sections, self.stack.as_slice()) {
                    (
                        Some(sections),
                        [
                            Frame::Mapping {
                                key: Some(Ok(key)), ..
                            },
                        ],
                    ) if anchor == 0 && self.above == 0 => sections.section(&key.text),
                    _ => None,
                };
                self.stack.push(Frame::Mapping {
                    start: span,
                    anchor,
                    first: self.entries.len(),
                    key: None,
                    index: None,
                    taken,
                })
            }
            Event::SequenceStart(anchor, _) => self.stack.push(Frame::Sequence {
                start: span,
                anchor,
                first: self.items.len(),
            }),
            Event::MappingEnd | Event::SequenceEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Flow::Continue;
                };
                let (node, anchor) = match frame {
                    Frame::Mapping {
                        start,
                        anchor,
                        first,
                        ..
                    } => {
                        let entries = take_from(&mut self.entries, first);
                        let end = entries.last().map(|e| e.value.span);
                        (
                            collection(start, end, span, NodeKind::Mapping(entries)),
                            anchor,
                        )
                    }
                    Frame::Sequence {
                        start,
                        anchor,
                        first,
                    } => {
                        let items = take_from(&mut self.items, first);
                        let end = items.last().map(|n| n.span);
                        (
                            collection(start, end, span, NodeKind::Sequence(items)),
                            anchor,
                        )
                    }
                };
                self.complete(node, anchor);
            }
            Event::Alias(id) => {
                self.anchored = true;
                let node = match self.anchors.get(&id) {
                    Some((node, count)) if *count <= self.alias_budget => {
                        self.alias_budget -= count;
                        node.clone()
                    }
                    Some(_) => {
                        if !self.alias_reported {
                            self.alias_reported = true;
                            self.diags.push(
                                Diagnostic::new(
                                    Code::AliasLimit,
                                    span,
                                    format!(
                                        "YAML aliases expand to more than {MAX_ALIAS_NODES} nodes; the rest are not expanded"
                                    ),
                                )
                                .with_help("write the repeated content out, or reuse it through a named type"),
                            );
                        }
                        null_node(span)
                    }
                    // The parser rejects an alias to an unknown anchor before we see it.
                    None => null_node(span),
                };
                self.complete(node, 0);
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {}
        }
        Flow::Continue
    }

    /// Attach a finished node to the collection being built, or make it the root.
    fn complete(&mut self, node: Node<'s>, anchor: usize) {
        if anchor != 0 {
            self.anchored = true;
            let count = node.count();
            self.anchors.insert(anchor, (node.clone(), count));
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Frame::Sequence { .. }) => self.items.push(node),
            Some(Frame::Mapping {
                first,
                key,
                index,
                taken,
                ..
            }) => {
                match key.take() {
                    Some(Ok(key)) => match (*taken, self.sections.as_deref_mut()) {
                        (Some(section), Some(sections)) => {
                            let span = node.span;
                            let entry = Entry { key, value: node };
                            sections.take(section, &entry);
                            // The subtree is freed here; the key stays,
                            // to find a repeated one and where each is.
                            self.entries.push(Entry {
                                key: entry.key,
                                value: null_node(span),
                            });
                        }
                        _ => self.entries.push(Entry { key, value: node }),
                    },
                    Some(Err(())) => {}
                    None => {
                        *key = Some(match node.kind {
                            NodeKind::Scalar(scalar)
                                if scalar.text == "<<" && scalar.style == ScalarStyle::Plain =>
                            {
                                self.diags.push(
                                    Diagnostic::new(
                                        Code::MergeKey,
                                        node.span,
                                        "YAML merge keys (`<<`) are not supported",
                                    )
                                    .with_help("write the keys out, or share the structure through a named type")
                                    .with_note("merge keys were part of YAML 1.1 only; YAML 1.2 reads `<<` as an ordinary key"),
                                );
                                Err(())
                            }
                            NodeKind::Scalar(scalar) => {
                                let key = Key {
                                    text: scalar.text,
                                    span: node.span,
                                };
                                let siblings = &self.entries[*first..];
                                match earlier_key(siblings, index, &key) {
                                    // Reported, and dropped with its value:
                                    // only the first counts, so the tree
                                    // holds one entry per key, however
                                    // many times a file repeats it.
                                    Some(first) => {
                                        self.diags.push_with(Code::DuplicateKey, || {
                                            Diagnostic::new(
                                                Code::DuplicateKey,
                                                key.span,
                                                format!("duplicate key `{}`", key.text),
                                            )
                                            .with_label(first, "first defined here")
                                            .with_help("remove one of them, or rename it; only the first is used")
                                        });
                                        Err(())
                                    }
                                    None => Ok(key),
                                }
                            }
                            _ => {
                                self.diags.push(
                                Diagnostic::new(
                                    Code::NonScalarKey,
                                    node.span,
                                    format!("a mapping key must be a plain name, not {}", node.describe()),
                                )
                                .with_help("write the key as text; if it is a type like `string[]`, quote it"),
                            );
                                Err(())
                            }
                        });
                    }
                }
            }
        }
    }

    fn too_large(&mut self, span: Span, length: usize) {
        let text = self.source.text();
        let start = span.start as usize;
        self.diags.push(
            Diagnostic::new(
                Code::ScalarTooLarge,
                Span::new(start, next_char_end(text, start)),
                format!(
                    "this value is {} KiB long, more than the {} KiB agentc reads; it is read as empty",
                    length / 1024,
                    MAX_SCALAR_BYTES / 1024
                ),
            )
            .with_help("move long text into a prompt file under `prompts/`"),
        );
    }

    /// The scalar's text as a slice of the source when it is written there
    /// as is, which spares the tree a copy of nearly every scalar. The
    /// parser hands a plain scalar written on one line over as such a slice
    /// already (`rebase` has made sure it is the source's).
    fn borrowed(&self, text: Cow<'s, str>, span: Span, style: ScalarStyle) -> Cow<'s, str> {
        if let Cow::Borrowed(_) = text {
            return text;
        }
        let written = self.source.slice(span);
        let inner = match style {
            ScalarStyle::Plain => Some(written),
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => written
                .get(1..written.len().saturating_sub(1))
                .filter(|_| written.len() >= 2),
            ScalarStyle::Literal | ScalarStyle::Folded => None,
        };
        match inner {
            Some(inner) if inner == text => Cow::Borrowed(inner),
            _ => text,
        }
    }

    /// A scalar's span without the white space the parser may leave after
    /// it (inside flow collections it can reach up to the next token).
    fn trim(&self, span: Span) -> Span {
        let text = self.source.slice(span);
        // Nearly every scalar ends in a character that is not white space:
        // told from its last byte when that is ASCII, by the same test
        // `trim_end` makes (`char::is_whitespace`, which unlike
        // `u8::is_ascii_whitespace` counts the vertical tab).
        if text
            .as_bytes()
            .last()
            .is_some_and(|&b| b.is_ascii() && !char::from(b).is_whitespace())
        {
            return span;
        }
        let trimmed = text.trim_end().len();
        Span::new(span.start as usize, span.start as usize + trimmed)
    }

    fn finish(self) -> Option<Node<'s>> {
        // A stream with no document at all (empty, or only comments).
        let root = self.root.unwrap_or_else(|| null_node(Span::empty(0)));
        if root.as_mapping().is_some() {
            return Some(root);
        }
        let message = if root.is_null() {
            "the protocol is empty".to_string()
        } else {
            format!(
                "the protocol must be a mapping of sections, found {}",
                root.describe()
            )
        };
        self.diags.push(
            Diagnostic::new(Code::RootNotMapping, root.span, message).with_help(
                "start with sections such as `types:`, `tools:`, `agent:` and `handlers:`",
            ),
        );
        None
    }
}

/// The children of a collection that ends, from `first` on in a shared
/// stack: copied out at their exact size, or, for the outermost open
/// collection (which holds the whole stack), the stack itself, shrunk in
/// place, so that a huge list is never held twice.
/// A big mapping's keys so far, for finding a repeated one: foldhash, as
/// the resolution's name tables (seeded per process, only looked up).
type KeyIndex<'s> = foldhash::HashMap<Cow<'s, str>, Span>;

fn take_from<T>(stack: &mut Vec<T>, first: usize) -> Vec<T> {
    if first == 0 {
        let mut all = std::mem::take(stack);
        all.shrink_to_fit();
        all
    } else {
        // One copy of the bytes, where `drain(..).collect()` moves the
        // children one by one.
        stack.split_off(first)
    }
}

/// Where `key` was first written among a mapping's entries so far, if it
/// was. Small mappings look through their keys; a big one indexes them in
/// `index`, built the first time it is needed and kept up to date here.
fn earlier_key<'s>(
    siblings: &[Entry<'s>],
    index: &mut Option<KeyIndex<'s>>,
    key: &Key<'s>,
) -> Option<Span> {
    if index.is_none() && siblings.len() < SEARCHED_KEYS {
        return siblings
            .iter()
            .find(|entry| entry.key.text == key.text)
            .map(|entry| entry.key.span);
    }
    let index = index.get_or_insert_with(|| {
        let mut index = KeyIndex::with_capacity_and_hasher(siblings.len() * 2, Default::default());
        for entry in siblings {
            index
                .entry(entry.key.text.clone())
                .or_insert(entry.key.span);
        }
        index
    });
    match index.entry(key.text.clone()) {
        std::collections::hash_map::Entry::Occupied(first) => Some(*first.get()),
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(key.span);
            None
        }
    }
}

fn null_node(span: Span) -> Node<'static> {
    Node {
        span,
        kind: NodeKind::Scalar(Scalar {
            text: Cow::Borrowed(""),
            style: ScalarStyle::Plain,
        }),
    }
}

/// A collection's span: from its start to its closing bracket (flow style)
/// or to the end of its last child (block style, whose end event sits at
/// the start of whatever follows).
fn collection<'s>(
    start: Span,
    last_child: Option<Span>,
    end: Span,
    kind: NodeKind<'s>,
) -> Node<'s> {
    let flow = !start.is_empty();
    let span = match (flow, last_child) {
        (true, _) => start.to(end),
        (false, Some(child)) => start.to(child),
        (false, None) => start,
    };
    Node { span, kind }
}

fn next_char_end(text: &str, offset: usize) -> usize {
    text.get(offset..)
        .and_then(|rest| rest.chars().next())
        .map_or(offset, |c| offset + c.len_utf8())
}

/// `nesting-limit`, at the collection that opens past [`MAX_DEPTH`].
fn nested_too_deep(span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::NestingLimit,
        span,
        format!("the YAML is nested more than {MAX_DEPTH} levels deep"),
    )
    .with_help("a protocol needs only a few levels; this is likely generated or broken input")
}

/// What saphyr's scanner says when flow collections open past its own
/// bound (255 levels): in a flow collection it reads ahead to the end of a
/// possible key, so it can reach that bound before the tree has seen
/// [`MAX_DEPTH`] levels.
const SCANNER_DEPTH_ERROR: &str = "recursion limit exceeded";

/// The parser's error, as a diagnostic, with what agentc can add to it.
/// The scanner's own depth bound is `nesting-limit`, reported once: not
/// again when the tree has reported it already.
fn syntax_error(
    source: &Source,
    error: &ScanError,
    offset: usize,
    diags: &Diagnostics,
) -> Option<Diagnostic> {
    let text = source.text();
    if error.info() == SCANNER_DEPTH_ERROR {
        return (!diags.contains(Code::NestingLimit))
            .then(|| nested_too_deep(Span::new(offset, next_char_end(text, offset))));
    }
    let mut diagnostic = Diagnostic::new(
        Code::YamlSyntax,
        Span::new(offset, next_char_end(text, offset)),
        error.info().to_string(),
    );
    if let Some(shorthand) = shorthand_before(text, offset) {
        let written = text.get(shorthand.range()).unwrap_or_default();
        diagnostic = diagnostic
            .with_help(format!(
                "in a flow mapping `[]` starts a list; quote the type: `\"{written}\"`"
            ))
            .with_exact_fix(
                format!("quote `{written}`"),
                vec![Edit {
                    span: shorthand,
                    text: format!("\"{written}\""),
                }],
            )
            .with_note("YAML reads `{type: string[]}` as the key `type` followed by a list; `{type: \"string[]\"}` is the array shorthand");
    } else if let Some(value) = indentation::plain_value_around(source, offset) {
        let written = source.slice(value);
        let quoted = quote(written);
        diagnostic = diagnostic
            .with_help(format!("quote the value: {quoted}"))
            .with_exact_fix(
                "quote the value",
                vec![Edit {
                    span: value,
                    text: quoted,
                }],
            )
            .with_note("in a value without quotes, `: ` starts a mapping");
    }
    Some(diagnostic)
}

/// `text` as a YAML quoted scalar: in single quotes when it has no `'`,
/// else in double quotes with `\` and `"` escaped.
fn quote(text: &str) -> String {
    if !text.contains('\'') {
        return format!("'{text}'");
    }
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// When a syntax error sits on `[]` right after a type name, as in
/// `{type: string[]}`, the name.
fn shorthand_before(text: &str, offset: usize) -> Option<Span> {
    let line_start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[line_start..line_end];
    let at = offset - line_start;
    // The parser stops at `[` or just after `[]`.
    let bracket = if line[at..].starts_with("[]") {
        at
    } else if line[..at].ends_with("[]") {
        at - 2
    } else {
        return None;
    };
    let before = &line[..bracket];
    let name_start = before
        .char_indices()
        .rfind(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = &before[name_start..];
    let start = line_start + name_start;
    (!name.is_empty() && line[..at].contains('{')).then(|| Span::new(start, start + name.len() + 2))
}

/// Converts saphyr's character indices to byte offsets. Text that is all
/// ASCII maps one to one; otherwise a checkpoint every 64 characters keeps
/// each lookup short and the table small.
struct Offsets<'s> {
    text: &'s str,
    checkpoints: Option<Vec<u32>>,
}

const CHECKPOINT_EVERY: usize = 64;

impl<'s> Offsets<'s> {
    fn new(text: &'s str) -> Self {
        let checkpoints = (!text.is_ascii()).then(|| {
            text.char_indices()
                .step_by(CHECKPOINT_EVERY)
                .map(|(byte, _)| byte as u32)
                .collect()
        });
        Offsets { text, checkpoints }
    }

    /// Called twice for every event: inline for the ASCII text most files
    /// are, out of line for the rest.
    #[inline]
    fn byte(&self, char_index: usize) -> usize {
        match &self.checkpoints {
            None => char_index.min(self.text.len()),
            Some(checkpoints) => self.byte_after(checkpoints, char_index),
        }
    }

    #[inline(never)]
    fn byte_after(&self, checkpoints: &[u32], char_index: usize) -> usize {
        let Some(&base) = checkpoints.get(char_index / CHECKPOINT_EVERY) else {
            return self.text.len();
        };
        let rest = char_index % CHECKPOINT_EVERY;
        let tail = &self.text[base as usize..];
        base as usize + tail.char_indices().nth(rest).map_or(tail.len(), |(i, _)| i)
    }

    fn span(&self, span: saphyr_parser::Span) -> Span {
        Span::new(self.byte(span.start.index()), self.byte(span.end.index()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_at_an_offset_names_keys_and_indices() {
        let text = "tools:\n  get-order:\n    parameters:\n      id: { type: strin }\nsteps:\n  - a: 1\n  - b: [x, y]\n";
        let source = Source::new("t.yaml", text);
        let mut diags = Diagnostics::default();
        let root = parse(&source, &mut diags).expect("a tree");
        let at = |needle: &str| path_at(&root, text.find(needle).expect("needle"));
        use Step::{Index, Key};
        assert_eq!(
            at("strin"),
            [
                Key("tools"),
                Key("get-order"),
                Key("parameters"),
                Key("id"),
                Key("type")
            ]
        );
        assert_eq!(at("get-order"), [Key("tools"), Key("get-order")]);
        assert_eq!(at("b:"), [Key("steps"), Index(1), Key("b")]);
        assert_eq!(at("y]"), [Key("steps"), Index(1), Key("b"), Index(1)]);
        assert_eq!(path_at(&root, text.len()), []);
    }

    fn parse_str(text: &str) -> (Option<Node<'static>>, Vec<Diagnostic>) {
        let source = Source::new("t.yaml", text);
        let mut diags = Diagnostics::default();
        let root = parse(&source, &mut diags).map(Node::into_owned);
        (root, diags.into_vec())
    }

    fn codes(text: &str) -> Vec<&'static str> {
        parse_str(text).1.iter().map(|d| d.code.name()).collect()
    }

    #[test]
    fn keys_and_values_keep_their_byte_spans() {
        let text = "a: \"x y\"\nb:\n  c: é\n";
        let (root, diags) = parse_str(text);
        assert!(diags.is_empty());
        let root = root.unwrap();
        let entries = root.as_mapping().unwrap();
        assert_eq!(&text[entries[0].value.span.range()], "\"x y\"");
        let inner = entries[1].value.as_mapping().unwrap();
        assert_eq!(&text[inner[0].key.span.range()], "c");
        assert_eq!(&text[inner[0].value.span.range()], "é");
    }

    #[test]
    fn a_block_scalar_with_no_content_line_spans_its_header() {
        // Wherever the next token starts, and whether or not the text ends
        // after the header: the same span read as a whole file and as a
        // part of one (`crate::incremental`), and one a fix can replace.
        for (text, header) in [
            ("a: |\nb: 1\n", "|"),
            ("a: |\n", "|"),
            ("a: |", "|"),
            ("a: >-  # note\n\n\nb: 1\n", ">-"),
            ("a: |+\n\nb: 1\n", "|+"),
            ("a: |\n# a comment\nb: 1\n", "|"),
            ("a:\n  - |2-\n  - x\n", "|2-"),
        ] {
            let (root, diags) = parse_str(text);
            assert!(diags.is_empty(), "{text:?}: {diags:?}");
            let root = root.unwrap();
            let value = &root.as_mapping().unwrap()[0].value;
            let value = value.as_sequence().map_or(value, |items| &items[0]);
            assert_eq!(&text[value.span.range()], header, "{text:?}");
        }
    }

    #[test]
    fn a_scalar_in_a_flow_collection_ends_where_its_text_does() {
        // The parser's span can reach to the next token; the tree's ends at
        // the scalar's last character, ASCII or not.
        let text = "a: { b: \"x\"  , c: 'y'\t, d: é   }\ne: [ \"p\"  , q ]\n";
        let (root, diags) = parse_str(text);
        assert!(diags.is_empty(), "{diags:?}");
        let root = root.unwrap();
        let entries = root.as_mapping().unwrap();
        let flow = entries[0].value.as_mapping().unwrap();
        let values: Vec<&str> = flow.iter().map(|e| &text[e.value.span.range()]).collect();
        assert_eq!(values, ["\"x\"", "'y'", "é"]);
        let items = entries[1].value.as_sequence().unwrap();
        let items: Vec<&str> = items.iter().map(|n| &text[n.span.range()]).collect();
        assert_eq!(items, ["\"p\"", "q"]);
    }

    #[test]
    fn scalars_follow_yaml_1_2() {
        let scalar = |t: &'static str| Scalar {
            text: t.into(),
            style: ScalarStyle::Plain,
        };
        assert_eq!(scalar("yes").value(), Value::Str("yes"));
        assert_eq!(scalar("on").value(), Value::Str("on"));
        assert_eq!(scalar("16:9").value(), Value::Str("16:9"));
        assert_eq!(scalar("true").value(), Value::Bool(true));
        assert_eq!(scalar("~").value(), Value::Null);
        assert_eq!(scalar("-12").value(), Value::Int(-12));
        assert_eq!(scalar("0x1F").value(), Value::Int(31));
        assert_eq!(scalar("1.5e3").value(), Value::Float(1500.0));
        assert_eq!(scalar(".5").value(), Value::Float(0.5));
        assert_eq!(scalar("1_000").value(), Value::Str("1_000"));
        assert_eq!(scalar("1.2.3").value(), Value::Str("1.2.3"));
        let quoted = Scalar {
            text: "true".into(),
            style: ScalarStyle::DoubleQuoted,
        };
        assert_eq!(quoted.value(), Value::Str("true"));
    }

    #[test]
    fn duplicate_keys_are_reported_with_both_places_and_dropped() {
        let (root, diags) = parse_str("a: 1\nb: 2\na: 3\n");
        let root = root.unwrap();
        let entries = root.as_mapping().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].value.as_scalar().unwrap().text, "1");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, Code::DuplicateKey);
        assert_eq!(diags[0].span, Span::new(10, 11));
        assert_eq!(diags[0].labels[0].span, Span::new(0, 1));
    }

    #[test]
    fn shorthand_in_a_flow_mapping_gets_a_quoting_hint() {
        let (_, diags) = parse_str("p: {type: string[]}\n");
        assert_eq!(diags[0].code, Code::YamlSyntax);
        assert!(diags[0].help.as_deref().unwrap().contains("\"string[]\""));
        let fix = diags[0].fix.as_ref().unwrap();
        assert_eq!(fix.edits[0].span, Span::new(10, 18));
        assert_eq!(fix.edits[0].text, "\"string[]\"");
        // Found by the property tests: a multi-byte character before the name.
        let (_, diags) = parse_str("{éstring[]");
        assert_eq!(
            diags[0].help.as_deref(),
            Some("in a flow mapping `[]` starts a list; quote the type: `\"string[]\"`")
        );
    }

    #[test]
    fn hostile_shapes_are_reported_not_fatal() {
        assert_eq!(codes("a: 1\n---\nb: 2\n"), ["multiple-documents"]);
        assert_eq!(codes("- a\n- b\n"), ["root-not-mapping"]);
        assert_eq!(codes(""), ["root-not-mapping"]);
        assert_eq!(codes("# only a comment\n"), ["root-not-mapping"]);
        assert_eq!(codes("? [x]\n: 1\n"), ["non-scalar-key"]);
        let deep: String = (0..500)
            .map(|i| format!("{}k:\n", "  ".repeat(i)))
            .collect();
        assert_eq!(codes(&deep), ["nesting-limit"]);
        // Flow collections past the scanner's own bound (255 levels, which
        // it can reach reading ahead before the tree sees 128): one
        // `nesting-limit`, as for block collections, however they nest.
        for depth in [256, 300, 100_000] {
            let lists = format!("a: {}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(codes(&lists), ["nesting-limit"], "{depth} lists");
            let maps = format!("a: {}x{}", "{b: ".repeat(depth), "}".repeat(depth));
            assert_eq!(codes(&maps), ["nesting-limit"], "{depth} mappings");
        }
        let (_, diags) = parse_str(&format!("a: {}", "[".repeat(300)));
        assert_eq!(
            diags[0].message,
            format!("the YAML is nested more than {MAX_DEPTH} levels deep")
        );
        assert!(diags[0].help.is_some());
    }

    #[test]
    fn alias_bombs_are_bounded() {
        let mut text = String::from("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let refs = vec![format!("*l{}", i - 1); 10].join(", ");
            text.push_str(&format!("l{i}: &l{i} [{refs}]\n"));
        }
        let (root, diags) = parse_str(&text);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, Code::AliasLimit);
        assert!(root.unwrap().count() < 2 * MAX_ALIAS_NODES);
    }

    /// The message and help of the first `yaml-syntax` diagnostic.
    fn first_syntax_error(text: &str) -> (String, String) {
        let (_, diags) = parse_str(text);
        let d = diags
            .iter()
            .find(|d| d.code == Code::YamlSyntax)
            .unwrap_or_else(|| panic!("no yaml-syntax in {text:?}: {diags:?}"));
        (
            d.message.clone(),
            d.help.as_deref().unwrap_or_default().to_string(),
        )
    }

    #[test]
    fn the_explanation_shows_what_agentc_says() {
        // docs/codes/yaml-syntax.md: each ```yaml block followed by a plain
        // block gives the message, then `help: ...`.
        let page = include_str!("../docs/codes/yaml-syntax.md");
        let blocks: Vec<(&str, String)> = page
            .split("```")
            .skip(1)
            .step_by(2)
            .map(|block| {
                let (lang, body) = block.split_once('\n').unwrap_or((block, ""));
                (lang.trim(), body.to_string())
            })
            .collect();
        let mut checked = 0;
        for pair in blocks.windows(2) {
            let [(lang, yaml), (said, output)] = pair else {
                continue;
            };
            if *lang != "yaml" || !said.is_empty() {
                continue;
            }
            let mut lines = output.lines();
            let message = lines.next().unwrap_or_default();
            let help = lines
                .next()
                .and_then(|l| l.strip_prefix("help: "))
                .unwrap_or_default();
            assert_eq!(
                first_syntax_error(yaml),
                (message.into(), help.into()),
                "{yaml}"
            );
            checked += 1;
        }
        assert!(checked >= 4, "only {checked} examples");
    }

    /// Every span of the tree, keys and values.
    fn spans(node: &Node, out: &mut Vec<Span>) {
        out.push(node.span);
        match &node.kind {
            NodeKind::Scalar(_) => {}
            NodeKind::Mapping(entries) => {
                for entry in entries {
                    out.push(entry.key.span);
                    spans(&entry.value, out);
                }
            }
            NodeKind::Sequence(items) => {
                for item in items {
                    spans(item, out);
                }
            }
        }
    }

    #[test]
    fn a_misplaced_line_is_reported_and_the_rest_is_read() {
        let text = "types:\n  Order:\n    id:\n      type: string\n     total:\n      type: number\n  Item:\n    name:\n      type: string\n";
        let (root, diags) = parse_str(text);
        assert_eq!(diags.len(), 1, "{diags:?}");
        let d = &diags[0];
        assert_eq!(&text[d.span.range()], "total");
        let fix = d.fix.as_ref().unwrap();
        let line = text.find("     total").unwrap();
        assert_eq!(fix.edits[0].span, Span::new(line, line + 5));
        assert_eq!(fix.edits[0].text, "    ");
        // The tree holds everything but the misplaced block, and nothing of
        // the tree starts inside it.
        let root = root.unwrap();
        let types = root.as_mapping().unwrap()[0].value.as_mapping().unwrap();
        let keys: Vec<&str> = types.iter().map(|e| e.key.text.as_ref()).collect();
        assert_eq!(keys, ["Order", "Item"]);
        let blanked = text.find("     total").unwrap()..text.find("  Item").unwrap();
        let mut all = Vec::new();
        spans(&root, &mut all);
        for span in all {
            assert!(
                !blanked.contains(&(span.start as usize)),
                "{span} in {blanked:?}"
            );
        }
    }

    #[test]
    fn only_an_explaining_mistake_takes_the_parsers_place() {
        // Not indentation: the parser's message stays.
        let (message, _) = first_syntax_error("a: [1, 2\nb: 1\n");
        assert_eq!(message, "illegal placement of ':' indicator");
        // A tab is reported at the tab, a line after the parser's place.
        let text = "a:\n  b: 1\n\tc: 2\n";
        let (_, diags) = parse_str(text);
        assert_eq!(diags[0].span, Span::new(10, 11));
        assert!(diags[0].message.contains("tab"));
        // Duplicate keys before the mistake are reported once.
        let (_, diags) = parse_str("a: 1\na: 2\nb:\n  c: 1\n d: 2\n");
        let mut codes: Vec<&str> = diags.iter().map(|d| d.code.name()).collect();
        codes.sort();
        assert_eq!(codes, ["duplicate-key", "yaml-syntax"]);
    }

    #[test]
    fn a_colon_in_a_plain_value_gets_a_quoting_fix() {
        let text = "tools:\n  t:\n    description: Note: the id\n";
        let (_, diags) = parse_str(text);
        assert_eq!(
            diags[0].message,
            "mapping values are not allowed in this context"
        );
        let fix = diags[0].fix.as_ref().unwrap();
        assert_eq!(&text[fix.edits[0].span.range()], "Note: the id");
        assert_eq!(fix.edits[0].text, "'Note: the id'");
        assert_eq!(quote("it's: \"x\" \\"), r#""it's: \"x\" \\""#);
        // Continued on the next line: no fix (quoting one line would break it).
        let (_, diags) = parse_str("a: Note: x\n  more\n");
        assert!(diags[0].fix.is_none());
    }

    proptest::proptest! {
        /// One line of a real protocol moved by a column or two, or
        /// indented with a tab: whatever is left out to read on, nothing of
        /// the tree (so no later diagnostic) starts in it.
        #[test]
        fn nothing_read_on_starts_in_a_blanked_line(
            line in 0usize..300,
            change in proptest::sample::select(vec!["-1", "+1", "+2", "tab"]),
        ) {
            let text = include_str!("../protocols/shop-assistant/protocol.yaml");
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let line = line % lines.len();
            let mut edited = String::new();
            for (i, original) in lines.iter().enumerate() {
                let changed = match (i == line, change) {
                    (false, _) => original.to_string(),
                    (true, "-1") => original.strip_prefix(' ').unwrap_or(original).to_string(),
                    (true, "+1") => format!(" {original}"),
                    (true, "+2") => format!("  {original}"),
                    (true, _) => format!("\t{original}"),
                };
                edited.push_str(&changed);
            }
            let source = Source::new("t.yaml", edited.clone());
            let mut diags = Diagnostics::default();
            let root = parse(&source, &mut diags);
            let blanked: Vec<(usize, usize)> = indentation::analyze(&edited)
                .problems
                .iter()
                .filter_map(|p| p.blanked)
                .collect();
            if let Some(root) = root {
                let mut all = Vec::new();
                spans(&root, &mut all);
                for span in all {
                    let start = span.start as usize;
                    proptest::prop_assert!(
                        !blanked.iter().any(|&(from, to)| (from..to).contains(&start)),
                        "{span} is in {blanked:?}"
                    );
                }
            }
            for d in diags.into_vec() {
                proptest::prop_assert!(d.span.end as usize <= edited.len());
            }
        }
    }

    #[test]
    fn non_ascii_text_maps_to_byte_offsets() {
        let text = format!("{}: 1\nk: \"ü\"\n", "é".repeat(100));
        let (root, diags) = parse_str(&text);
        assert!(diags.is_empty());
        let root = root.unwrap();
        let entry = &root.as_mapping().unwrap()[1];
        assert_eq!(&text[entry.key.span.range()], "k");
        assert_eq!(&text[entry.value.span.range()], "\"ü\"");
    }
}

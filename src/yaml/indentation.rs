//! Where an indentation mistake is, once the YAML parser has failed.
//!
//! The parser reports the place where it could not go on, in its own
//! words, and sometimes a line late. This reads the text line by line as
//! YAML's block structure does (which key or `-` each line's column puts
//! it under), to find the line whose column fits nowhere: a key or item
//! between the columns of the keys around it, a key under a key that
//! already has a value, a tab in the indentation. It runs only after the
//! parser failed ([`super::parse`] decides whether to believe it), and
//! finds nothing on valid YAML: multi-line plain, quoted and block
//! scalars, flow collections over several lines, comments at any column,
//! `? ` keys and document markers are read as what they are.
//!
//! It also says how to read on: each misplaced line is blanked with the
//! block under it (spaces over every character, line breaks kept, so every
//! offset stays valid), a tab that fits as one column becomes a space, and
//! the analysis goes on as if those lines were not there, in one linear
//! pass.

use crate::cancel::Cancel;
use crate::diagnostic::{Code, Diagnostic, Edit, MAX_DIAGNOSTICS};
use crate::source::Source;
use crate::span::Span;

/// Deepest block structure followed; past it the analysis stops (no
/// protocol comes near, and the parser's own limits apply anyway).
const MAX_LEVELS: usize = 1024;

/// How many open levels on each side of a misplaced line are looked at for
/// the columns it could move to.
const NEAREST: usize = 8;

/// What a block collection is the value of, to name it in a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Owner {
    Root,
    /// The value of the key written at this span.
    Key(Span),
    /// The content of the list item whose `-` is at this span.
    Item(Span),
    /// The content of a `? ` or `: ` entry at this span.
    Entry(Span),
}

/// The key or `-` whose value is on its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Holder {
    Key(Span),
    Item(Span),
    /// A value on a line of its own: not named in messages.
    Other,
}

/// What a line starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Subject {
    Key(Span),
    Item(Span),
    Other,
}

/// An open block collection.
#[derive(Clone, Copy, Debug)]
struct Level {
    /// The column of its keys or `-`s (0-based).
    col: usize,
    seq: bool,
    owner: Owner,
    /// Its latest key or `-`.
    last: Span,
    /// A list written at its key's column (`key:` then `- a`).
    indentless: bool,
}

/// A column a misplaced line could move to: one of an open collection's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    pub col: usize,
    pub seq: bool,
    pub owner: Owner,
    /// The latest key or `-` at that column, to show as an example.
    pub like: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// The line's column is none of the open collections'.
    Misplaced,
    /// The line is deeper than a key or item that has a value on its line.
    UnderValue(Holder),
    /// The line is indented with a tab (and maybe more lines after it).
    /// `tab` is the first tab's offset; `more` lines after it are
    /// indented with tabs too, the last of them starting at `last`; the
    /// lines of the run where a tab read as a space does not fit are left
    /// out with their blocks, `dropped` lines in all.
    Tab {
        tab: usize,
        more: usize,
        last: usize,
        dropped: usize,
    },
}

/// One indentation mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Problem {
    pub kind: Kind,
    pub subject: Subject,
    /// Where the line starts, and its column (0-based; a tab counts one).
    pub line_start: usize,
    pub col: usize,
    /// Where its content starts (after spaces and tabs).
    pub content: usize,
    /// Where it could go, nearest first (at most two); empty when no
    /// column fits.
    pub places: Vec<Place>,
    /// Whether the lines under it would need to move too (no place keeps
    /// them under it).
    pub block_moves: bool,
    /// The collection at the same column, of the other kind (an item among
    /// keys), when there is one.
    pub among: Option<Place>,
    /// The bytes blanked to read on, whole lines; `None` when the line is
    /// read as it is (a tab read as a space).
    pub blanked: Option<(usize, usize)>,
    /// For a tab: the key or item whose value the line would start, when
    /// it is deeper than that (which tells nothing of how much deeper).
    pub deeper_than: Option<Owner>,
}

/// What the analysis found, and the text to read on with.
#[derive(Debug, Default)]
pub(super) struct Analysis {
    /// In text order, at most [`MAX_DIAGNOSTICS`].
    pub problems: Vec<Problem>,
    /// How many more were found past that.
    pub more: usize,
    /// The text with every problem repaired; `None` when there is none.
    pub repaired: Option<Vec<u8>>,
}

/// Reads `text` for indentation mistakes.
#[cfg(test)]
pub(super) fn analyze(text: &str) -> Analysis {
    analyze_unless(text, Cancel::never())
}

/// [`analyze`], asking `cancel` every [`LINES_BETWEEN_ASKS`] lines whether
/// to stop; what it then returns is to be thrown away.
pub(super) fn analyze_unless(text: &str, cancel: &Cancel) -> Analysis {
    let mut analyzer = Analyzer::new(text);
    analyzer.run(cancel);
    analyzer.analysis
}

/// How many lines are read between two questions to a [`Cancel`].
const LINES_BETWEEN_ASKS: usize = 4_096;

#[derive(Clone, Copy, Debug)]
enum After {
    /// The latest key, `-` or entry has no value on its line (or the
    /// document just started): a line deeper than `col` starts its value;
    /// under a key, a `-` at the key's own column does too.
    Children {
        col: Option<usize>,
        key: bool,
        owner: Owner,
    },
    /// A plain scalar: lines deeper than `col` continue it.
    Plain { col: Option<usize>, holder: Holder },
    /// A value that ended on its line.
    Value { holder: Holder },
}

#[derive(Clone, Copy, Debug)]
enum Mode {
    Block,
    /// A block scalar's lines: those deeper than `above`, at `indent` once
    /// the first one sets it.
    Literal {
        above: Option<usize>,
        indent: Option<usize>,
    },
    /// Inside a flow collection.
    Flow(FlowState),
    /// Inside a quoted scalar over several lines.
    Quoted(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FlowState {
    depth: usize,
    quote: Option<u8>,
}

/// A piece of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// `- `, `? ` or `: ` at this offset.
    Dash(usize),
    Question(usize),
    Colon(usize),
    /// `key:` and what follows on the line.
    Key {
        key: Span,
        value: Value,
    },
    /// A value that is not a key.
    Scalar(Value),
    /// Nothing but a comment, or only an anchor or tag.
    Nothing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Nothing,
    Plain,
    /// Quoted, flow or alias, ended on the line.
    Closed,
    /// `|` or `>`, with its indentation indicator.
    Literal(Option<usize>),
    OpenQuote(u8),
    OpenFlow(FlowState),
}

/// Where a line starts placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    /// It starts the value of the latest key, item or entry.
    Child,
    /// It is an entry of the collection left on top once the stack is
    /// this long.
    Sibling(usize),
    Misplaced(usize),
    UnderValue,
    /// Not something this analysis judges (a stray scalar).
    Skip,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Key,
    Item,
    Other,
}

struct Line {
    start: usize,
    /// The end of its text, before the line break.
    end: usize,
    /// Where the next line starts.
    next: usize,
}

struct Analyzer<'t> {
    bytes: &'t [u8],
    stack: Vec<Level>,
    after: After,
    mode: Mode,
    analysis: Analysis,
    /// The tab problem the next tab-indented line joins, while no other
    /// line came between.
    tab_run: Option<usize>,
}

impl<'t> Analyzer<'t> {
    fn new(text: &'t str) -> Self {
        Analyzer {
            bytes: text.as_bytes(),
            stack: Vec::new(),
            after: ROOT,
            mode: Mode::Block,
            analysis: Analysis::default(),
            tab_run: None,
        }
    }

    fn line_at(&self, start: usize) -> Line {
        let bytes = self.bytes;
        let mut end = start;
        while end < bytes.len() && bytes[end] != b'\n' && bytes[end] != b'\r' {
            end += 1;
        }
        let next = match bytes.get(end) {
            Some(b'\r') if bytes.get(end + 1) == Some(&b'\n') => end + 2,
            Some(_) => end + 1,
            None => end,
        };
        Line { start, end, next }
    }

    fn run(&mut self, cancel: &Cancel) {
        // A byte order mark is not indentation.
        let mut at = if self.bytes.starts_with("\u{feff}".as_bytes()) {
            3
        } else {
            0
        };
        let mut lines = 0usize;
        while at < self.bytes.len() {
            lines += 1;
            if lines.is_multiple_of(LINES_BETWEEN_ASKS) && cancel.is_cancelled() {
                return;
            }
            let line = self.line_at(at);
            match self.line(&line) {
                Some(next) => at = next.max(line.next),
                None => return,
            }
        }
    }

    /// Reads one line; the offset to go on from (past a blanked block), or
    /// `None` to stop.
    fn line(&mut self, line: &Line) -> Option<usize> {
        let text = &self.bytes[line.start..line.end];
        match self.mode {
            Mode::Flow(state) => {
                self.mode = match scan_flow(text, 0, state) {
                    Ok(_) => Mode::Block,
                    Err(state) => Mode::Flow(state),
                };
                return Some(line.next);
            }
            Mode::Quoted(quote) => {
                if close_quote(text, 0, quote).is_some() {
                    self.mode = Mode::Block;
                }
                return Some(line.next);
            }
            Mode::Literal { above, indent } => {
                let spaces = leading(text, b' ');
                if is_blank(text) {
                    return Some(line.next);
                }
                if !is_document_marker(text) {
                    match indent {
                        Some(indent) if spaces >= indent => return Some(line.next),
                        None if above.is_none_or(|above| spaces > above) => {
                            self.mode = Mode::Literal {
                                above,
                                indent: Some(spaces),
                            };
                            return Some(line.next);
                        }
                        _ => {}
                    }
                }
                self.mode = Mode::Block;
            }
            Mode::Block => {}
        }
        if is_blank(text) || text[leading_white(text)..].starts_with(b"#") {
            return Some(line.next);
        }
        // Document markers and directives, at column 0.
        if is_document_marker(text) {
            self.stack.clear();
            self.after = ROOT;
            self.tab_run = None;
            if text.starts_with(b"---") {
                let at = skip_white(text, 3);
                self.content(line, at, Owner::Root, Holder::Other, None);
            }
            return Some(line.next);
        }
        if text.starts_with(b"%") && self.stack.is_empty() {
            return Some(line.next);
        }
        let spaces = leading(text, b' ');
        let content = leading_white(text);
        if content > spaces {
            return self.tabbed(line, spaces, content);
        }
        self.tab_run = None;
        self.structural(line, spaces)
    }

    /// A line whose indentation has a tab.
    fn tabbed(&mut self, line: &Line, spaces: usize, content: usize) -> Option<usize> {
        let text = &self.bytes[line.start..line.end];
        // After the indentation a plain scalar's next line may hold tabs.
        if let After::Plain { col, .. } = self.after
            && col.is_none_or(|col| spaces > col)
            && mapping_indicator(text, content).is_none()
        {
            self.tab_run = None;
            return Some(line.next);
        }
        let first = token(text, content, line.start);
        let shape = shape_of(first);
        // A value on a line of its own may have tabs after its indentation.
        if let After::Children { col, .. } = self.after
            && shape == Shape::Other
            && col.is_none_or(|col| spaces > col)
        {
            self.tab_run = None;
            if first != Token::Nothing {
                self.apply(Decision::Child, line, content, first);
            }
            return Some(line.next);
        }
        let decision = self.decide(shape, content);
        let fits =
            matches!(decision, Decision::Child | Decision::Sibling(_)) && shape != Shape::Other;
        let tab = line.start + spaces;
        let subject = subject_of(first, line.start + content);
        let (places, block_moves) = if fits {
            (Vec::new(), false)
        } else {
            self.tab_places(line, shape, spaces, content, first)
        };
        let (blanked, next) = if fits {
            (None, line.next)
        } else {
            let (end, next) = self.block_end(line, content, first);
            (Some((line.start, end)), next)
        };
        let repair = blanked.unwrap_or((line.start, line.start + content));
        self.repair(repair);
        let lines = blanked.map_or(0, |(start, end)| {
            1 + memchr::memchr_iter(b'\n', &self.bytes[start..end]).count()
        });
        match self.tab_run {
            Some(run) => {
                // Past the limit there is no problem to add the line to.
                if let Some(Problem {
                    kind:
                        Kind::Tab {
                            more,
                            last,
                            dropped,
                            ..
                        },
                    ..
                }) = self.analysis.problems.get_mut(run)
                {
                    *more += 1;
                    *last = line.start;
                    *dropped += lines;
                }
            }
            None => {
                let index = self.analysis.problems.len();
                let pushed = self.push(Problem {
                    kind: Kind::Tab {
                        tab,
                        more: 0,
                        last: line.start,
                        dropped: lines,
                    },
                    subject,
                    line_start: line.start,
                    col: content,
                    content: line.start + content,
                    places,
                    block_moves,
                    among: None,
                    blanked,
                    deeper_than: match self.after {
                        After::Children { owner, .. } => Some(owner),
                        _ => None,
                    },
                });
                self.tab_run = Some(if pushed { index } else { usize::MAX });
            }
        }
        if fits {
            self.apply(decision, line, content, first);
        }
        self.check_depth()?;
        Some(next)
    }

    fn structural(&mut self, line: &Line, col: usize) -> Option<usize> {
        let text = &self.bytes[line.start..line.end];
        if let After::Plain { col: above, holder } = self.after
            && above.is_none_or(|above| col > above)
        {
            // A deeper line continues the scalar, unless it holds a
            // `key: `, which a plain scalar cannot.
            if mapping_indicator(text, col).is_none() {
                return Some(line.next);
            }
            let first = token(text, col, line.start);
            let shape = shape_of(first);
            if holder == Holder::Other || shape == Shape::Other {
                // Not YAML, and not a line this can place: stop.
                return None;
            }
            return self.under_value(line, col, first, holder);
        }
        let first = token(text, col, line.start);
        if first == Token::Nothing {
            // Only an anchor or a tag: it is on what follows.
            return Some(line.next);
        }
        let shape = shape_of(first);
        match self.decide(shape, col) {
            // A value where a key or item must be: not YAML, and past it
            // this reading of the structure is no longer sure.
            Decision::Skip => None,
            Decision::UnderValue => {
                let holder = match self.after {
                    After::Value { holder } | After::Plain { holder, .. } => holder,
                    After::Children { .. } => Holder::Other,
                };
                if holder == Holder::Other {
                    return None;
                }
                self.under_value(line, col, first, holder)
            }
            Decision::Misplaced(keep) => self.misplaced(line, col, first, shape, keep),
            decision => {
                self.apply(decision, line, col, first);
                self.check_depth()?;
                Some(line.next)
            }
        }
    }

    fn check_depth(&self) -> Option<()> {
        (self.stack.len() <= MAX_LEVELS).then_some(())
    }

    /// Where a line starting with `shape` at `col` goes.
    fn decide(&self, shape: Shape, col: usize) -> Decision {
        if let After::Children {
            col: parent, key, ..
        } = self.after
        {
            let deeper = parent.is_none_or(|parent| col > parent);
            let indentless = key && shape == Shape::Item && parent == Some(col);
            if deeper || indentless {
                return Decision::Child;
            }
        }
        let mut keep = self.stack.partition_point(|level| level.col <= col);
        if shape == Shape::Key && keep > 0 {
            let top = &self.stack[keep - 1];
            if top.seq && top.indentless && top.col == col {
                keep -= 1;
            }
        }
        let top = keep.checked_sub(1).map(|i| &self.stack[i]);
        if let Some(top) = top
            && top.col == col
            && shape != Shape::Other
            && top.seq == (shape == Shape::Item)
        {
            return Decision::Sibling(keep);
        }
        if shape == Shape::Other {
            return Decision::Skip;
        }
        let deeper_than_all = keep == self.stack.len() && top.is_some_and(|top| col > top.col);
        if deeper_than_all && matches!(self.after, After::Value { .. } | After::Plain { .. }) {
            return Decision::UnderValue;
        }
        Decision::Misplaced(keep)
    }

    /// Enters a placed line: its collection, and what the rest of the line
    /// opens.
    fn apply(&mut self, decision: Decision, line: &Line, col: usize, first: Token) {
        let at = line.start + col;
        let span = match first {
            Token::Key { key, .. } => key,
            _ => Span::new(at, at + 1),
        };
        match decision {
            Decision::Child => {
                let (owner, parent) = match self.after {
                    After::Children { owner, col, .. } => (owner, col),
                    _ => (Owner::Root, None),
                };
                if matches!(first, Token::Scalar(_) | Token::Nothing) {
                    self.content(line, col, owner, Holder::Other, parent);
                    return;
                }
                self.stack.push(Level {
                    col,
                    seq: matches!(first, Token::Dash(_)),
                    owner,
                    last: span,
                    indentless: parent == Some(col),
                });
            }
            Decision::Sibling(keep) => {
                self.stack.truncate(keep);
                if let Some(top) = self.stack.last_mut() {
                    top.last = span;
                }
            }
            _ => return,
        }
        self.content(line, col, Owner::Root, Holder::Other, None);
    }

    /// Reads a line from `at`, where a collection was just entered (or a
    /// value starts), pushing what its indicators open and setting what
    /// the next line may be. `owner`, `holder` and `parent` are for a value
    /// that starts here without a collection of its own.
    fn content(
        &mut self,
        line: &Line,
        mut at: usize,
        mut owner: Owner,
        mut holder: Holder,
        mut parent: Option<usize>,
    ) {
        let text = &self.bytes[line.start..line.end];
        let mut first = true;
        // Whether the latest indicator is `? ` or `: `, whose value may be
        // a list at its own column, as a key's.
        let mut entry = false;
        loop {
            let token = token(text, at, line.start);
            let span = Span::new(line.start + at, line.start + at + 1);
            // The first token's collection is already on the stack (or it
            // is a value without one).
            let opened = first
                && matches!(
                    token,
                    Token::Dash(_) | Token::Question(_) | Token::Colon(_) | Token::Key { .. }
                )
                && self.stack.last().is_some_and(|top| top.col == at);
            if !opened {
                match token {
                    Token::Dash(_) => self.stack.push(Level {
                        col: at,
                        seq: true,
                        owner,
                        last: span,
                        indentless: false,
                    }),
                    Token::Question(_) | Token::Colon(_) => self.stack.push(Level {
                        col: at,
                        seq: false,
                        owner,
                        last: span,
                        indentless: false,
                    }),
                    Token::Key { key, .. } => self.stack.push(Level {
                        col: at,
                        seq: false,
                        owner,
                        last: key,
                        indentless: false,
                    }),
                    _ => {}
                }
            }
            first = false;
            match token {
                Token::Dash(_) | Token::Question(_) | Token::Colon(_) => {
                    let is_dash = matches!(token, Token::Dash(_));
                    owner = if is_dash {
                        Owner::Item(span)
                    } else {
                        Owner::Entry(span)
                    };
                    holder = if is_dash {
                        Holder::Item(span)
                    } else {
                        Holder::Other
                    };
                    parent = Some(at);
                    entry = !is_dash;
                    at = skip_white(text, at + 1);
                    if self.stack.len() > MAX_LEVELS {
                        return;
                    }
                }
                Token::Key { key, value } => {
                    self.value(value, Some(at), Holder::Key(key), Owner::Key(key), true);
                    return;
                }
                Token::Scalar(value) => {
                    self.value(value, parent, holder, owner, entry);
                    return;
                }
                Token::Nothing => {
                    self.after = After::Children {
                        col: parent,
                        key: entry,
                        owner,
                    };
                    return;
                }
            }
        }
    }

    /// What a value on a line leaves open: `col` is the indentation its
    /// continuation lines and block scalar lines must pass.
    fn value(&mut self, value: Value, col: Option<usize>, holder: Holder, owner: Owner, key: bool) {
        self.after = match value {
            Value::Nothing => After::Children { col, key, owner },
            Value::Plain => After::Plain { col, holder },
            _ => After::Value { holder },
        };
        self.mode = match value {
            Value::Literal(indicator) => Mode::Literal {
                above: col,
                indent: indicator.map(|m| col.unwrap_or(0) + m),
            },
            Value::OpenQuote(quote) => Mode::Quoted(quote),
            Value::OpenFlow(state) => Mode::Flow(state),
            _ => Mode::Block,
        };
    }

    fn under_value(
        &mut self,
        line: &Line,
        col: usize,
        first: Token,
        holder: Holder,
    ) -> Option<usize> {
        let shape = shape_of(first);
        let top = self.stack.last().copied();
        let mut places = Vec::new();
        if let Some(top) = top
            && top.seq == (shape == Shape::Item)
            && top.col < col
        {
            places.push(place(&top));
        }
        let (end, next) = self.block_end(line, col, first);
        let blanked = Some((line.start, end));
        self.repair((line.start, end));
        self.push(Problem {
            kind: Kind::UnderValue(holder),
            subject: subject_of(first, line.start + col),
            line_start: line.start,
            col,
            content: line.start + col,
            places,
            block_moves: false,
            among: None,
            blanked,
            deeper_than: None,
        });
        Some(next)
    }

    fn misplaced(
        &mut self,
        line: &Line,
        col: usize,
        first: Token,
        shape: Shape,
        keep: usize,
    ) -> Option<usize> {
        let seq = shape == Shape::Item;
        // The nearest few levels on each side are looked at, so that a
        // deep stack costs no more per line.
        let lower = self.stack[..keep]
            .iter()
            .rev()
            .take(NEAREST)
            .find(|l| l.seq == seq && l.col < col);
        let upper = self.stack[keep..]
            .iter()
            .take(NEAREST)
            .find(|l| l.seq == seq && l.col > col);
        let among = self.stack[..keep]
            .iter()
            .rev()
            .take_while(|l| l.col == col)
            .find(|l| l.seq != seq)
            .map(place);
        let child = self.first_child(line, col, first);
        let mut all: Vec<Place> = lower.into_iter().chain(upper).map(place).collect();
        // Nearest first; at equal distance, the deeper.
        all.sort_by_key(|p| (p.col.abs_diff(col), std::cmp::Reverse(p.col)));
        let kept: Vec<Place> = all
            .iter()
            .copied()
            .filter(|p| keeps_block(p, child))
            .collect();
        let block_moves = kept.is_empty() && !all.is_empty();
        let places = if kept.is_empty() { all } else { kept };
        let (end, next) = self.block_end(line, col, first);
        self.repair((line.start, end));
        self.push(Problem {
            kind: Kind::Misplaced,
            subject: subject_of(first, line.start + col),
            line_start: line.start,
            col,
            content: line.start + col,
            places,
            block_moves,
            among,
            blanked: Some((line.start, end)),
            deeper_than: None,
        });
        Some(next)
    }

    /// Where a tab-indented line that fits nowhere could go: the open
    /// collections' columns it can reach (a tab is at least one column).
    fn tab_places(
        &self,
        line: &Line,
        shape: Shape,
        spaces: usize,
        content: usize,
        first: Token,
    ) -> (Vec<Place>, bool) {
        if shape == Shape::Other || matches!(self.after, After::Children { .. }) {
            return (Vec::new(), false);
        }
        let seq = shape == Shape::Item;
        let child = self.first_child(line, content, first);
        // The levels a tab can reach (past the spaces before it) that keep
        // the block under the line under it, deepest first.
        let from = self.stack.partition_point(|l| l.col <= spaces);
        let to = match child {
            Some((col, _)) => self.stack.partition_point(|l| l.col <= col),
            None => self.stack.len(),
        };
        let mut places: Vec<Place> = self.stack[from..to.max(from)]
            .iter()
            .rev()
            .take(NEAREST)
            .filter(|l| l.seq == seq)
            .map(place)
            .filter(|p| keeps_block(p, child))
            .take(2)
            .collect();
        places.sort_by_key(|p| std::cmp::Reverse(p.col));
        (places, false)
    }

    /// The first line under a line with no value on it: its column, and
    /// whether it is a `-`.
    fn first_child(&self, line: &Line, col: usize, first: Token) -> Option<(usize, bool)> {
        let text = &self.bytes[line.start..line.end];
        if last_value(text, first, line.start) != Value::Nothing {
            return None;
        }
        let mut at = line.next;
        while at < self.bytes.len() {
            let next = self.line_at(at);
            let text = &self.bytes[next.start..next.end];
            if !is_blank(text) && !text[leading_white(text)..].starts_with(b"#") {
                let spaces = leading(text, b' ');
                let dash = token(text, spaces, next.start);
                let dash = matches!(dash, Token::Dash(_));
                return (spaces > col || (dash && spaces == col)).then_some((spaces, dash));
            }
            at = next.next;
        }
        None
    }

    /// The end of the block a misplaced line heads (its own value over
    /// several lines, and the lines under it), and where to read on.
    fn block_end(&self, line: &Line, col: usize, first: Token) -> (usize, usize) {
        let text = &self.bytes[line.start..line.end];
        let value = last_value(text, first, line.start);
        let mut end = line.end;
        let mut at = line.next;
        let mut mode = match value {
            Value::OpenQuote(quote) => Mode::Quoted(quote),
            Value::OpenFlow(state) => Mode::Flow(state),
            _ => Mode::Block,
        };
        // The lines under it are those at the first one's column or deeper
        // (deeper than the line, when it has a value on it).
        let mut under: Option<usize> = None;
        while at < self.bytes.len() {
            let next = self.line_at(at);
            let text = &self.bytes[next.start..next.end];
            match mode {
                Mode::Quoted(quote) => {
                    if close_quote(text, 0, quote).is_some() {
                        mode = Mode::Block;
                    }
                }
                Mode::Flow(state) => match scan_flow(text, 0, state) {
                    Ok(_) => mode = Mode::Block,
                    Err(state) => mode = Mode::Flow(state),
                },
                _ => {
                    if is_blank(text) || text[leading_white(text)..].starts_with(b"#") {
                        at = next.next;
                        continue;
                    }
                    let spaces = leading(text, b' ');
                    let inside = match (value, under) {
                        (Value::Nothing, None) => {
                            let dash = matches!(token(text, spaces, next.start), Token::Dash(_));
                            let child = spaces > col
                                || (dash && spaces == col && matches!(first, Token::Key { .. }));
                            if child {
                                under = Some(spaces);
                            }
                            child
                        }
                        (Value::Nothing, Some(under)) => spaces >= under,
                        _ => spaces > col,
                    };
                    if !inside || is_document_marker(text) {
                        break;
                    }
                }
            }
            end = next.end;
            at = next.next;
        }
        // Read on from the line after the block's last line.
        let resume = self.line_at(end).next.max(line.next);
        (end, resume)
    }

    fn push(&mut self, problem: Problem) -> bool {
        if self.analysis.problems.len() < MAX_DIAGNOSTICS {
            self.analysis.problems.push(problem);
            true
        } else {
            self.analysis.more += 1;
            false
        }
    }

    /// Spaces over every character in `start..end` but line breaks.
    fn repair(&mut self, (start, end): (usize, usize)) {
        let repaired = self
            .analysis
            .repaired
            .get_or_insert_with(|| self.bytes.to_vec());
        let end = end.min(repaired.len());
        for byte in &mut repaired[start.min(end)..end] {
            if *byte != b'\n' && *byte != b'\r' {
                *byte = b' ';
            }
        }
    }
}

const ROOT: After = After::Children {
    col: None,
    key: false,
    owner: Owner::Root,
};

fn place(level: &Level) -> Place {
    Place {
        col: level.col,
        seq: level.seq,
        owner: level.owner,
        like: level.last,
    }
}

/// Whether the block under a line stays under it at `place`'s column.
fn keeps_block(place: &Place, child: Option<(usize, bool)>) -> bool {
    child.is_none_or(|(col, dash)| col > place.col || (dash && col == place.col && !place.seq))
}

fn shape_of(token: Token) -> Shape {
    match token {
        Token::Dash(_) => Shape::Item,
        Token::Question(_) | Token::Colon(_) | Token::Key { .. } => Shape::Key,
        Token::Scalar(_) | Token::Nothing => Shape::Other,
    }
}

fn subject_of(token: Token, at: usize) -> Subject {
    match token {
        Token::Key { key, .. } => Subject::Key(key),
        Token::Dash(_) => Subject::Item(Span::new(at, at + 1)),
        _ => Subject::Other,
    }
}

/// The value a line ends with, past its indicators.
fn last_value(text: &[u8], first: Token, line_start: usize) -> Value {
    let mut token = first;
    loop {
        match token {
            Token::Dash(offset) | Token::Question(offset) | Token::Colon(offset) => {
                let at = skip_white(text, offset - line_start + 1);
                if at >= text.len() {
                    return Value::Nothing;
                }
                token = self::token(text, at, line_start);
            }
            Token::Key { value, .. } | Token::Scalar(value) => return value,
            Token::Nothing => return Value::Nothing,
        }
    }
}

fn is_blank(text: &[u8]) -> bool {
    text.iter().all(|&b| b == b' ' || b == b'\t')
}

/// How many bytes `text` starts with that are `byte`.
fn leading(text: &[u8], byte: u8) -> usize {
    text.iter().take_while(|&&b| b == byte).count()
}

/// How many spaces and tabs `text` starts with.
fn leading_white(text: &[u8]) -> usize {
    text.iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count()
}

fn skip_white(text: &[u8], mut at: usize) -> usize {
    while at < text.len() && (text[at] == b' ' || text[at] == b'\t') {
        at += 1;
    }
    at
}

/// Whether `text[at]` ends a token: a space, a tab or the line's end.
fn separated(text: &[u8], at: usize) -> bool {
    text.get(at).is_none_or(|&b| b == b' ' || b == b'\t')
}

fn is_document_marker(text: &[u8]) -> bool {
    (text.starts_with(b"---") || text.starts_with(b"...")) && separated(text, 3)
}

/// The offset of the first `: ` (or `:` at the end) from `from`, before a
/// comment: where a plain scalar on this line would stop for a key.
fn mapping_indicator(text: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while at < text.len() {
        match text[at] {
            b':' if separated(text, at + 1) => return Some(at),
            b'#' if at == 0 || matches!(text[at - 1], b' ' | b'\t') => return None,
            _ => {}
        }
        at += 1;
    }
    None
}

/// The piece of the line at `at` (a non-white byte, or the end).
fn token(text: &[u8], at: usize, line_start: usize) -> Token {
    let Some(&byte) = text.get(at) else {
        return Token::Nothing;
    };
    match byte {
        b'-' if separated(text, at + 1) => Token::Dash(line_start + at),
        b'?' if separated(text, at + 1) => Token::Question(line_start + at),
        b':' if separated(text, at + 1) => Token::Colon(line_start + at),
        b'#' => Token::Nothing,
        _ => node(text, at, line_start),
    }
}

/// A key or a value at `at`.
fn node(text: &[u8], mut at: usize, line_start: usize) -> Token {
    // An anchor or a tag comes before what it is on.
    while let Some(b'&' | b'!') = text.get(at) {
        while at < text.len() && !matches!(text[at], b' ' | b'\t') {
            at += 1;
        }
        at = skip_white(text, at);
        if at >= text.len() || text[at] == b'#' {
            return Token::Nothing;
        }
    }
    let Some(&byte) = text.get(at) else {
        return Token::Nothing;
    };
    let key_after = |end: usize| -> Option<Token> {
        let colon = skip_white(text, end);
        (text.get(colon) == Some(&b':') && separated(text, colon + 1)).then(|| Token::Key {
            key: Span::new(line_start + at, line_start + end),
            value: value(text, colon + 1, line_start),
        })
    };
    match byte {
        b'"' | b'\'' => match close_quote(text, at + 1, byte) {
            Some(end) => key_after(end).unwrap_or(Token::Scalar(Value::Closed)),
            None => Token::Scalar(Value::OpenQuote(byte)),
        },
        b'[' | b'{' => match scan_flow(
            text,
            at,
            FlowState {
                depth: 0,
                quote: None,
            },
        ) {
            Ok(end) => key_after(end).unwrap_or(Token::Scalar(Value::Closed)),
            Err(state) => Token::Scalar(Value::OpenFlow(state)),
        },
        b'*' => {
            let mut end = at;
            while end < text.len() && !matches!(text[end], b' ' | b'\t') {
                end += 1;
            }
            key_after(end).unwrap_or(Token::Scalar(Value::Closed))
        }
        b'|' | b'>' => {
            let indicator = text[at + 1..]
                .iter()
                .take_while(|b| !matches!(b, b' ' | b'\t'))
                .find(|b| b.is_ascii_digit())
                .map(|b| usize::from(b - b'0'));
            Token::Scalar(Value::Literal(indicator))
        }
        _ => match mapping_indicator(text, at) {
            Some(colon) => {
                let mut end = colon;
                while end > at && matches!(text[end - 1], b' ' | b'\t') {
                    end -= 1;
                }
                Token::Key {
                    key: Span::new(line_start + at, line_start + end),
                    value: value(text, colon + 1, line_start),
                }
            }
            None => Token::Scalar(Value::Plain),
        },
    }
}

/// The value after a key's `:`.
fn value(text: &[u8], at: usize, line_start: usize) -> Value {
    let at = skip_white(text, at);
    match text.get(at) {
        None | Some(b'#') => Value::Nothing,
        Some(_) => match node(text, at, line_start) {
            Token::Nothing => Value::Nothing,
            Token::Scalar(value) => value,
            // `a: b: c` is not YAML (and not an indentation matter): a
            // value written as text with a `: ` in it.
            _ => Value::Plain,
        },
    }
}

/// The offset just past the quote that closes a scalar opened with
/// `quote`, scanning from `at`.
fn close_quote(text: &[u8], mut at: usize, quote: u8) -> Option<usize> {
    while at < text.len() {
        let byte = text[at];
        if quote == b'"' && byte == b'\\' {
            at += 2;
            continue;
        }
        if byte == quote {
            if quote == b'\'' && text.get(at + 1) == Some(&b'\'') {
                at += 2;
                continue;
            }
            return Some(at + 1);
        }
        at += 1;
    }
    None
}

/// Scans a flow collection from `at` with `state` open: `Ok` with the
/// offset past its closing bracket, or `Err` with the state at the line's
/// end.
fn scan_flow(text: &[u8], mut at: usize, mut state: FlowState) -> Result<usize, FlowState> {
    let mut token_start = true;
    while at < text.len() {
        let byte = text[at];
        if let Some(quote) = state.quote {
            match close_quote(text, at, quote) {
                Some(end) => {
                    state.quote = None;
                    token_start = false;
                    at = end;
                    continue;
                }
                None => return Err(state),
            }
        }
        match byte {
            b'[' | b'{' => {
                state.depth += 1;
                token_start = true;
            }
            b']' | b'}' => {
                state.depth = state.depth.saturating_sub(1);
                if state.depth == 0 {
                    return Ok(at + 1);
                }
                token_start = false;
            }
            b',' | b':' | b'?' => token_start = true,
            b'"' | b'\'' if token_start => state.quote = Some(byte),
            b'#' if at == 0 || matches!(text[at - 1], b' ' | b'\t') => return Err(state),
            b' ' | b'\t' => {}
            _ => token_start = false,
        }
        at += 1;
    }
    Err(state)
}

/// The plain value on the line of `offset`, after its key, when `offset`
/// is a `:` inside it: `description: Note: the id` (YAML reads the second
/// `: ` as a mapping). `None` when a line under it continues the value.
pub(super) fn plain_value_around(source: &Source, offset: usize) -> Option<Span> {
    let (line, start) = source.line_of(offset);
    let range = source.line_range(line)?;
    let text = source.text().as_bytes().get(range.clone())?;
    let col = leading(text, b' ');
    let mut token = token(text, col, start);
    let mut col_of_key = col;
    while let Token::Dash(at) = token {
        col_of_key = skip_white(text, at - start + 1);
        token = self::token(text, col_of_key, start);
    }
    let Token::Key {
        key,
        value: Value::Plain,
    } = token
    else {
        return None;
    };
    let value_start = skip_white(text, key.end as usize - start + 1);
    let mut value_end = text.len();
    for at in value_start..text.len() {
        if text[at] == b'#' && matches!(text[at - 1], b' ' | b'\t') {
            value_end = at;
            break;
        }
    }
    while value_end > value_start && matches!(text[value_end - 1], b' ' | b'\t') {
        value_end -= 1;
    }
    let inside = (start + value_start..start + value_end).contains(&offset);
    // The next line that is not blank, if it is deeper, continues the value.
    let continued = (line + 1..source.line_count())
        .map(|next| source.line_text(next + 1))
        .find(|text| {
            let trimmed = text.trim_start_matches([' ', '\t']);
            !trimmed.is_empty() && !trimmed.starts_with('#')
        })
        .is_some_and(|text| leading(text.as_bytes(), b' ') > col_of_key);
    (inside && !continued && text.get(offset - start) == Some(&b':'))
        .then(|| Span::new(start + value_start, start + value_end))
}

impl Problem {
    /// The diagnostic, worded from `source` (the text as written).
    pub(super) fn diagnostic(&self, source: &Source) -> Diagnostic {
        let line_of = |span: Span| source.position(span.start as usize).line;
        let name = |span: Span| format!("`{}`", super::abbreviate(source.slice(span)));
        let column = self.col + 1;
        let subject = match self.subject {
            Subject::Key(key) => name(key),
            Subject::Item(_) => "this list item".to_string(),
            Subject::Other => "this line".to_string(),
        };
        let short = match self.subject {
            Subject::Key(key) => name(key),
            Subject::Item(_) => "the `-`".to_string(),
            Subject::Other => "the line".to_string(),
        };
        let group = |place: &Place| -> String {
            let what = if place.seq { "items" } else { "keys" };
            match place.owner {
                Owner::Root => format!("the top-level {what}"),
                Owner::Key(key) => format!("the {what} of {} (line {})", name(key), line_of(key)),
                Owner::Item(dash) => {
                    format!("the {what} of the list item on line {}", line_of(dash))
                }
                Owner::Entry(entry) => {
                    format!("the {what} of the entry on line {}", line_of(entry))
                }
            }
        };
        let like = |place: &Place| -> String {
            if place.seq {
                format!("like the item on line {}", line_of(place.like))
            } else if matches!(source.slice(place.like), "?" | ":") {
                format!("like the entry on line {}", line_of(place.like))
            } else {
                format!("like {} on line {}", name(place.like), line_of(place.like))
            }
        };
        let moves = |place: &Place| -> String {
            let suffix = if self.block_moves {
                ", with the lines under it deeper than that"
            } else {
                ""
            };
            format!("to column {}, {}{suffix}", place.col + 1, like(place))
        };
        let indent_to = || -> Option<String> {
            let first = self.places.first()?;
            let mut help = format!("indent {short} {}", moves(first));
            for other in &self.places[1..] {
                help.push_str(&format!(", or {}", moves(other)));
            }
            Some(help)
        };
        let span = match (self.kind, self.subject) {
            (Kind::Tab { tab, .. }, _) => Span::new(tab, tab + 1),
            (_, Subject::Key(key)) => key,
            (_, Subject::Item(dash)) => dash,
            (_, Subject::Other) => Span::new(
                self.content,
                super::next_char_end(source.text(), self.content),
            ),
        };
        let mut diagnostic = match self.kind {
            Kind::Misplaced => {
                let message = match (self.places.split_first(), self.among) {
                    (Some((first, rest)), _) => {
                        let mut message = format!(
                            "{subject} is at column {column}, but {} are at column {}",
                            group(first),
                            first.col + 1
                        );
                        for other in rest {
                            message.push_str(&format!(
                                ", and {} at column {}",
                                group(other),
                                other.col + 1
                            ));
                        }
                        message
                    }
                    (None, Some(among)) => {
                        format!("{subject} is at column {column}, among {}", group(&among))
                    }
                    (None, None) => format!(
                        "{subject} is at column {column}, which lines up with nothing above it"
                    ),
                };
                let help = indent_to().unwrap_or_else(|| match (self.subject, self.among) {
                    (Subject::Item(_), Some(_)) => "a mapping holds `key: value` lines, not list items: to give a key a list, write the key with no value and indent the items under it".to_string(),
                    (Subject::Key(_), Some(_)) => "a list holds `- ` items, not keys: start the line with `- `, or line the key up with the keys of the mapping it belongs to".to_string(),
                    _ => format!("line {short} up with the lines it belongs with"),
                });
                Diagnostic::new(Code::YamlSyntax, span, message).with_help(help)
            }
            Kind::UnderValue(holder) => {
                let holder_name = match holder {
                    Holder::Key(key) => format!("{} (line {})", name(key), line_of(key)),
                    Holder::Item(dash) => format!("the list item on line {}", line_of(dash)),
                    Holder::Other => "the line above".to_string(),
                };
                let message = format!(
                    "{subject} is at column {column}, under {holder_name}, which already has a value"
                );
                let help = indent_to().unwrap_or_else(|| {
                    format!("line {short} up with the lines it belongs with, or move the value on line {} under it", match holder {
                        Holder::Key(s) | Holder::Item(s) => line_of(s),
                        Holder::Other => source.position(self.line_start).line.saturating_sub(1),
                    })
                });
                let what = if matches!(holder, Holder::Item(_)) {
                    "a list item's"
                } else {
                    "a key's"
                };
                Diagnostic::new(Code::YamlSyntax, span, message)
                    .with_help(help)
                    .with_note(format!(
                        "{what} value is either on its own line or in the lines under it, not both"
                    ))
            }
            Kind::Tab { more, last, .. } => {
                let message = if more == 0 {
                    "this line is indented with a tab; YAML indents with spaces only".to_string()
                } else {
                    format!(
                        "this line is indented with a tab, and so {} up to line {}; YAML indents with spaces only",
                        if more == 1 {
                            "is 1 more line".to_string()
                        } else {
                            format!("are {more} more lines")
                        },
                        source.position(last).line
                    )
                };
                let help = match self.places.split_first() {
                    Some((first, rest)) if more == 0 => {
                        let mut help = format!(
                            "indent with spaces: put {short} at column {}, {}",
                            first.col + 1,
                            like(first)
                        );
                        for other in rest {
                            help.push_str(&format!(
                                ", or at column {}, {}",
                                other.col + 1,
                                like(other)
                            ));
                        }
                        help
                    }
                    _ if more == 0 => match self.deeper_than {
                        Some(Owner::Key(key)) => format!(
                            "indent with spaces: put {short} deeper than {} on line {}",
                            name(key),
                            line_of(key)
                        ),
                        Some(Owner::Item(dash) | Owner::Entry(dash)) => format!(
                            "indent with spaces: put {short} deeper than the `{}` on line {}",
                            source.slice(dash),
                            line_of(dash)
                        ),
                        _ => "replace the tab with spaces".to_string(),
                    },
                    _ => "replace the tabs with spaces".to_string(),
                };
                Diagnostic::new(Code::YamlSyntax, span, message).with_help(help)
            }
        };
        // A move is offered as a fix when it is the only one.
        if let ([only], false) = (self.places.as_slice(), self.block_moves) {
            let tab_run = matches!(self.kind, Kind::Tab { more, .. } if more > 0);
            if !tab_run {
                diagnostic = diagnostic.with_exact_fix(
                    format!("indent {short} to column {}", only.col + 1),
                    vec![Edit {
                        span: Span::new(self.line_start, self.content),
                        text: " ".repeat(only.col),
                    }],
                );
            }
        }
        if let Kind::Tab {
            more: 1.., dropped, ..
        } = self.kind
        {
            let mut note = "until this is fixed, agentc reads each tab as one space".to_string();
            if dropped > 0 {
                note.push_str(&format!(
                    ", and checks the rest of the file without the {dropped} {} where that does not fit",
                    if dropped == 1 { "line" } else { "lines" }
                ));
            }
            return diagnostic.with_note(note);
        }
        if let (Kind::Tab { .. }, None) = (self.kind, self.blanked) {
            return diagnostic.with_note("until this is fixed, agentc reads the tab as one space");
        }
        if let Some((start, end)) = self.blanked {
            let first = source.position(start).line;
            let last = source.position(end).line;
            let lines = if first == last {
                format!("line {first}")
            } else {
                format!("lines {first} to {last}")
            };
            diagnostic = diagnostic.with_note(format!(
                "until this is fixed, agentc checks the rest of the file without {lines}"
            ));
        }
        diagnostic
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn problems(text: &str) -> Vec<Problem> {
        analyze(text).problems
    }

    /// Whether saphyr reads the whole text without an error.
    fn is_valid_yaml(text: &str) -> bool {
        let mut parser = saphyr_parser::Parser::new_from_str(text);
        loop {
            match parser.next_event() {
                None => return true,
                Some(Ok(_)) => {}
                Some(Err(_)) => return false,
            }
        }
    }

    fn yaml_files(dir: &Path, found: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                yaml_files(&path, found);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                found.push(path);
            }
        }
    }

    /// Every valid YAML file under `dir`, read as text.
    fn valid_files(dir: &Path) -> Vec<(PathBuf, String)> {
        let mut paths = Vec::new();
        yaml_files(dir, &mut paths);
        paths
            .into_iter()
            .filter_map(|path| {
                let text = String::from_utf8(std::fs::read(&path).ok()?).ok()?;
                is_valid_yaml(&text).then_some((path, text))
            })
            .collect()
    }

    fn assert_nothing_found(files: &[(PathBuf, String)]) {
        let wrong: Vec<String> = files
            .iter()
            .filter_map(|(path, text)| {
                let found = problems(text);
                (!found.is_empty()).then(|| format!("{}: {:?}", path.display(), found[0]))
            })
            .collect();
        assert!(
            wrong.is_empty(),
            "found in valid YAML:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn finds_nothing_in_the_valid_yaml_of_the_protocols_and_the_corpus() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let files = valid_files(&root.join("protocols"));
        assert!(
            files.len() > 50,
            "only {} valid YAML files under protocols/",
            files.len()
        );
        assert_nothing_found(&files);
        let corpus = root.join("../shared/corpus");
        if corpus.is_dir() {
            let files = valid_files(&corpus);
            assert!(
                !files.is_empty(),
                "no valid YAML under {}",
                corpus.display()
            );
            assert_nothing_found(&files);
        } else {
            eprintln!("skipped: {} is absent", corpus.display());
        }
        // The YAML test suite's cases (its `data` branch, checked out by
        // hand), when `AGENTC_YAML_TEST_SUITE` names them.
        match std::env::var_os("AGENTC_YAML_TEST_SUITE") {
            Some(suite) => {
                let files = valid_files(Path::new(&suite));
                assert!(!files.is_empty(), "no valid YAML under {suite:?}");
                assert_nothing_found(&files);
            }
            None => eprintln!("skipped: AGENTC_YAML_TEST_SUITE is not set"),
        }
    }

    #[test]
    fn finds_nothing_in_valid_yaml_that_looks_misplaced() {
        let valid = [
            // Multi-line plain scalars, at any column deeper than their key.
            "a: one\n two\n    three\nb: 1\n",
            "a:\n  one\n two\nb: 1\n",
            "- get-order\n  - other\n",
            "a: x\n  \ty\n",
            // Block scalars, with lines that look like keys and tabs.
            "a: |\n  text\n    b: 1\n  c: 2\n\n  \tcode\nd: 1\n",
            "a: >-\n   folded\n   b: 2\n",
            "a: |2\n    deeper first\n  b: 1\nc: 1\n",
            "- |\n  x: 1\n- >\n y\n",
            "--- |\nx: 1\n  y: 2\n",
            // Flow collections and quoted scalars over several lines.
            "a: [1,\n 2,\n  3]\nb: {x: 1,\n   y: 2}\n",
            "a: \"one\n  two: 2\"\nb: 'it''s\n three'\n",
            "a: [\"x, ]\", 'y: 1',\n  # a comment ]\n  z]\nb: 1\n",
            // Comments at any column.
            "a:\n  b: 1\n# top\n      # deep\n  c: 2\n",
            // Lists: indentless, nested, with mappings inside.
            "a:\n- x\n- y: 1\n  z: 2\nb: 1\n",
            "- - a\n  - b\n- c:\n    d: 1\n  e: 2\n",
            "a:\n  - name: x\n    tools:\n    - t\n  - name: y\n",
            // Complex keys, anchors, tags, aliases, document markers.
            "? a\n: 1\n? - x\n  - y\n: 2\n",
            "a: &x\n  b: 1\nc: *x\nd: !!str\n  e\n",
            "%YAML 1.2\n---\na: 1\n...\n---\n- b\n",
            "\u{feff}a: 1\n",
            "a:\r\n  b: 1\r\n  c: 2\r\n",
            "\"quoted key\": 1\n'x': {a: 1}\n[a, b]: 2\n",
            "url: http://example.com/a:b\nnote: a # b: c\n",
        ];
        for text in valid {
            assert!(is_valid_yaml(text), "not valid YAML: {text:?}");
            assert_eq!(problems(text), [], "in {text:?}");
        }
    }
}

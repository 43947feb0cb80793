//! The source text miette draws for one diagnostic.
//!
//! miette's own `SourceCode` for a string scans the text from its first byte
//! to the span on every call, and draws every line and every column it is
//! given. An [`Excerpt`] is built for one diagnostic instead: the lines its
//! labels need (each label's lines, one line of context either side), in
//! the frames miette will draw them in, with long lines cut down to windows
//! around the labels' ends. It answers miette from that text alone, so
//! drawing a diagnostic costs a binary search in the file's line index and
//! the size of what is drawn, wherever the diagnostic is in the file.
//!
//! miette is given the excerpt's own coordinates: the labels' spans are
//! offsets into the excerpt's text ([`Excerpt::labels`]), and every
//! [`SpanContents`] it reads back is a slice of that text. Only what miette
//! prints is the file's: `line()` is the real 0-based line, and the column
//! of the header (`[file:line:col]`) is the real column in Unicode scalar
//! values, from [`Source::position`], as `--format short` and JSON print it.

use crate::source::{Source, floor_char_boundary};
use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use std::ops::Range;

/// Lines up to this many characters are drawn whole; a longer line is drawn
/// as windows around the labels' starts and ends. 150 is a little over the
/// width rustc trims source lines to when it cannot ask the terminal (140
/// columns, `DEFAULT_COLUMN_WIDTH` in `rustc_errors`): a hand-written line (a key with a one-line description, a line of JSON
/// data) stays whole, and the longest line of the repository's own examples
/// drawn in a frame (149 characters, `protocols/data/run-input-backend.json`)
/// is drawn as written. Counted in characters, not display columns: a line
/// of wide characters draws at most twice as wide.
pub(super) const LINE_LIMIT: usize = 150;

/// Characters kept either side of a label's start and of its end on a long
/// line: enough to read the key or the value around it. A label shorter
/// than twice this is drawn whole with its surroundings; a longer one by
/// its start and its end with `…` between. A point draws at most
/// `2 * CONTEXT + 2 * MIN_GAP` characters.
pub(super) const CONTEXT: usize = 40;

/// On a long line no label starts or ends on (a context line, a line inside
/// a span over several lines): the characters drawn from its start.
pub(super) const HEAD: usize = 2 * CONTEXT;

/// Fewer characters than this between two windows, or between a window and
/// an end of the line, are drawn rather than replaced by `…`, which would
/// hide almost nothing.
const MIN_GAP: usize = 8;

/// A label over more lines than this is drawn by its first `MAX_SPAN_LINES`
/// lines, and its label says on which line it ends. miette draws every line
/// of a span, and numbers the lines of one frame one after another, so a
/// span cannot be drawn by its ends with a gap between: it is clipped
/// instead. The longest span over several lines in the repository's
/// examples (a whole document that should have been a mapping) has 6.
pub(super) const MAX_SPAN_LINES: usize = 10;

/// Two labels are drawn in one frame, with the lines between them, only
/// when at most this many lines lie between their contexts; otherwise each
/// gets its own frame. miette's own rule (which the excerpt keeps, below
/// this limit) joins labels whose lines are far apart in a long file, and a
/// frame draws every line between them. The widest gap in the
/// repository's snapshots is 13 lines.
pub(super) const MAX_GAP_LINES: usize = 16;

const ELLIPSIS: &str = "…";

/// A label as agentc reports it: a byte range of the file.
pub(super) struct Label {
    pub span: Range<usize>,
    pub text: Option<String>,
    pub primary: bool,
}

/// What miette draws of one diagnostic: see the module documentation.
pub(super) struct Excerpt<'a> {
    source: &'a Source,
    /// The drawn lines, frame after frame, each ending with `\n` unless it
    /// is the file's last line.
    text: String,
    /// The lines of `text`, in order: by offset in `text` and by line in
    /// the file.
    lines: Vec<Line>,
    /// Each frame's lines, as a range of indices into `lines`.
    frames: Vec<Range<usize>>,
    /// The labels, in the coordinates of `text`.
    labels: Vec<LabeledSpan>,
}

/// One line of the file as drawn.
struct Line {
    /// 0-based line of the file.
    line: usize,
    /// Index into `Excerpt::frames`.
    frame: usize,
    /// The line's text in the file, without its line break.
    real: Range<usize>,
    /// Where the line's text starts in the excerpt, where it ends, and where
    /// the next line starts (after a `\n`, or at `text_end` for the file's
    /// last line).
    start: usize,
    text_end: usize,
    end: usize,
    /// The parts of the line drawn, in order; between them, and before or
    /// after them when they do not reach the line's ends, a `…`.
    pieces: Vec<Piece>,
}

/// A part of a line drawn as written, or one unsafe character drawn
/// escaped (`\u{1b}`, see [`crate::render::inert`]).
struct Piece {
    /// Where it is in the file.
    real: Range<usize>,
    /// Where it starts in the excerpt.
    at: usize,
    /// Its length in the excerpt: `real`'s, unless it is escaped.
    drawn: usize,
}

impl Piece {
    /// The excerpt offset of the file offset `real`, which lies in or at
    /// an end of this piece: an escaped character is drawn whole, so an
    /// offset in it is one of its ends.
    fn excerpt(&self, real: usize) -> usize {
        if self.drawn == self.real.len() {
            self.at + (real - self.real.start)
        } else if real <= self.real.start {
            self.at
        } else {
            self.at + self.drawn
        }
    }

    /// The file offset of the excerpt offset `at`, in or at an end of this
    /// piece.
    fn real(&self, at: usize) -> usize {
        if self.drawn == self.real.len() {
            self.real.start + (at - self.at)
        } else if at <= self.at {
            self.real.start
        } else {
            self.real.end
        }
    }
}

impl<'a> Excerpt<'a> {
    pub(super) fn new(source: &'a Source, labels: Vec<Label>) -> Excerpt<'a> {
        let labels: Vec<Label> = labels.into_iter().map(|l| clip(source, l)).collect();
        let mut excerpt = Excerpt {
            source,
            text: String::new(),
            lines: Vec::new(),
            frames: Vec::new(),
            labels: Vec::new(),
        };
        // Each label's start and end, by line, for the windows of long lines.
        let mut points: Vec<(usize, usize)> = labels
            .iter()
            .flat_map(|l| [l.span.start, l.span.end])
            .map(|at| (source.line_of(at).0, at))
            .collect();
        points.sort_unstable();
        for lines in frames(source, &labels) {
            let frame = excerpt.frames.len();
            let first = excerpt.lines.len();
            for line in lines {
                excerpt.push_line(line, frame, &points);
            }
            excerpt.frames.push(first..excerpt.lines.len());
        }
        excerpt.labels = labels
            .into_iter()
            .map(|label| {
                let start = excerpt.to_excerpt(label.span.start, false);
                let end = excerpt.to_excerpt(label.span.end, true).max(start);
                let span = SourceSpan::new(start.into(), end - start);
                if label.primary {
                    LabeledSpan::new_primary_with_span(label.text, span)
                } else {
                    LabeledSpan::new_with_span(label.text, span)
                }
            })
            .collect();
        excerpt
    }

    /// The labels, in the excerpt's coordinates, for `Diagnostic::labels`.
    pub(super) fn labels(&self) -> &[LabeledSpan] {
        &self.labels
    }

    /// Appends the 0-based line `line` of the file, whole or cut down to
    /// windows around the `points` (labels' starts and ends, as
    /// `(line, offset)`, sorted) on it.
    fn push_line(&mut self, line: usize, frame: usize, points: &[(usize, usize)]) {
        let Some(real) = self.source.line_range(line) else {
            return;
        };
        let next = self
            .source
            .line_range(line + 1)
            .map_or(self.source.text().len(), |r| r.start);
        let text = self.source.text().get(real.clone()).unwrap_or("");
        let start = self.text.len();
        let mut pieces = Vec::new();
        // Measuring the line reads at most LINE_LIMIT characters of it.
        work(text.len().min(4 * (LINE_LIMIT + 1)));
        if !is_long(text) {
            self.push_pieces(&mut pieces, real.start, text);
            work(text.len());
        } else {
            // The points on this line, relative to it (one inside the line
            // break is at the end of the text).
            let from = points.partition_point(|&(l, _)| l < line);
            let points: Vec<usize> = points[from..]
                .iter()
                .take_while(|&&(l, _)| l == line)
                .map(|&(_, at)| at.saturating_sub(real.start).min(text.len()))
                .collect();
            let mut drawn = 0;
            for window in windows(text, &points) {
                if window.start > drawn {
                    self.text.push_str(ELLIPSIS);
                }
                let part = text.get(window.clone()).unwrap_or("");
                self.push_pieces(&mut pieces, real.start + window.start, part);
                // The windows' edges are found by walking a bounded number
                // of characters from each point.
                work(part.len() + 4 * (CONTEXT + MIN_GAP));
                drawn = window.end;
            }
            if drawn < text.len() {
                self.text.push_str(ELLIPSIS);
            }
        }
        let text_end = self.text.len();
        // Every line break (`\n`, `\r\n`, a lone `\r`) is drawn as `\n`,
        // which is what miette splits lines at.
        if next > real.end {
            self.text.push('\n');
        }
        self.lines.push(Line {
            line,
            frame,
            real,
            start,
            text_end,
            end: self.text.len(),
            pieces,
        });
    }

    /// Appends `part`, the file's text from offset `real`, as pieces: runs
    /// drawn as written, and each unsafe character escaped, so that nothing
    /// of the file can act on the terminal that shows it.
    fn push_pieces(&mut self, pieces: &mut Vec<Piece>, real: usize, part: &str) {
        let mut run = 0;
        let unsafe_chars = part
            .char_indices()
            .filter(|&(_, c)| crate::render::is_unsafe_char(c));
        for (at, c) in unsafe_chars.chain(std::iter::once((part.len(), ' '))) {
            if at > run || at == part.len() && pieces.is_empty() {
                pieces.push(Piece {
                    real: real + run..real + at,
                    at: self.text.len(),
                    drawn: at - run,
                });
                self.text.push_str(&part[run..at]);
            }
            if at == part.len() {
                break;
            }
            let escaped = crate::render::escape_char(c);
            pieces.push(Piece {
                real: real + at..real + at + c.len_utf8(),
                at: self.text.len(),
                drawn: escaped.len(),
            });
            self.text.push_str(&escaped);
            run = at + c.len_utf8();
        }
    }

    /// The excerpt offset of the file offset `real`, which must lie on one
    /// of the excerpt's lines. An offset inside a part that is not drawn is
    /// the `…` drawn for it: its start when `end` is false, its end when it
    /// is true, so a span starting or ending there covers the `…`.
    fn to_excerpt(&self, real: usize, end: bool) -> usize {
        let line = self.source.line_of(real).0;
        let index = match self.lines.binary_search_by_key(&line, |l| l.line) {
            Ok(index) => index,
            // Not drawn (no label reaches here): the nearest drawn line.
            Err(index) => {
                return self.lines.get(index).map_or(self.text.len(), |l| l.start);
            }
        };
        let Some(l) = self.lines.get(index) else {
            return self.text.len();
        };
        if real >= l.real.end {
            // The end of the text, or inside a `\r\n`.
            return if real == l.real.end || !end {
                l.text_end
            } else {
                l.end
            };
        }
        for piece in &l.pieces {
            if real < piece.real.start {
                let ellipsis = piece.at.saturating_sub(ELLIPSIS.len());
                return if end { piece.at } else { ellipsis };
            }
            if real <= piece.real.end {
                return piece.excerpt(real);
            }
        }
        let after = l
            .pieces
            .last()
            .map_or(l.start, |p| p.at + p.drawn)
            .min(l.text_end);
        if end {
            (after + ELLIPSIS.len()).min(l.text_end)
        } else {
            after
        }
    }

    /// The file offset of the excerpt offset `at`: exact in a drawn part; in
    /// a `…`, where the part it stands for starts.
    fn to_real(&self, at: usize) -> usize {
        let Some(l) = self.lines.get(self.line_at(at)) else {
            return 0;
        };
        if at >= l.text_end {
            return l.real.end;
        }
        let mut hidden = l.real.start;
        for piece in &l.pieces {
            if at < piece.at {
                return hidden;
            }
            if at <= piece.at + piece.drawn {
                return piece.real(at);
            }
            hidden = piece.real.end;
        }
        hidden
    }

    /// The index into `lines` of the line holding the excerpt offset `at`.
    fn line_at(&self, at: usize) -> usize {
        self.lines
            .partition_point(|l| l.start <= at)
            .saturating_sub(1)
    }

    /// The 0-based column, in Unicode scalar values, of the excerpt offset
    /// `at` in the file.
    fn column(&self, at: usize) -> usize {
        let real = self.to_real(at);
        work(real.saturating_sub(self.source.line_of(real).1));
        self.source.position(real).column.saturating_sub(1)
    }
}

impl SourceCode for Excerpt<'_> {
    /// The lines of `span` and `before` and `after` lines around them, as
    /// far as the frame holding `span` reaches. Like miette's own
    /// implementation, the contents start at the first line's start, or at
    /// the span itself when `before` is 0 (the header's read, whose
    /// `column()` is the span's column). `line_count()` reaches to the end
    /// of the frame, so that miette, which joins two labels' contexts when
    /// the first reaches the second's first line, joins exactly the labels
    /// of one frame; a span across frames is refused, and miette then draws
    /// them apart.
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let start = span.offset();
        let end = start
            .checked_add(span.len())
            .filter(|&end| end <= self.text.len())
            .ok_or(MietteError::OutOfBounds)?;
        let first = self.line_at(start);
        // As miette counts it: the line holding the byte after the span's
        // last byte.
        let last = self.line_at(end.max(1));
        let (Some(a), Some(b)) = (self.lines.get(first), self.lines.get(last)) else {
            return Err(MietteError::OutOfBounds);
        };
        if a.frame != b.frame {
            return Err(MietteError::OutOfBounds);
        }
        let frame = self
            .frames
            .get(a.frame)
            .filter(|f| !f.is_empty())
            .ok_or(MietteError::OutOfBounds)?;
        let top = first.saturating_sub(before).max(frame.start);
        let bottom = last.saturating_add(after).min(frame.end - 1);
        let (Some(top_line), Some(bottom_line), Some(frame_end)) = (
            self.lines.get(top),
            self.lines.get(bottom),
            self.lines.get(frame.end - 1),
        ) else {
            return Err(MietteError::OutOfBounds);
        };
        let (from, column) = if before == 0 {
            (start, self.column(start))
        } else {
            (top_line.start, 0)
        };
        let to = bottom_line.end.max(from);
        let data = self
            .text
            .as_bytes()
            .get(from..to)
            .ok_or(MietteError::OutOfBounds)?;
        work(data.len());
        let line = top_line.line;
        Ok(Box::new(MietteSpanContents::new_named(
            crate::render::inert(self.source.name()).into_owned(),
            data,
            SourceSpan::new(from.into(), data.len()),
            line,
            column,
            frame_end.line + 1 - line,
        )))
    }
}

impl std::fmt::Debug for Excerpt<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Excerpt")
            .field("name", &self.source.name())
            .field("text", &self.text)
            .finish()
    }
}

/// The label on the file's text, on character boundaries, and clipped to
/// its first `MAX_SPAN_LINES` lines.
fn clip(source: &Source, label: Label) -> Label {
    let text = source.text();
    let start = floor_char_boundary(text, label.span.start.min(text.len()));
    let end = floor_char_boundary(text, label.span.end.min(text.len())).max(start);
    let first = source.line_of(start).0;
    // The line of the span's last byte.
    let last = source.line_of(end.saturating_sub(1).max(start)).0;
    if last - first < MAX_SPAN_LINES {
        return Label {
            span: start..end,
            ..label
        };
    }
    let clipped = source
        .line_range(first + MAX_SPAN_LINES - 1)
        .map_or(end, |r| r.end)
        .clamp(start, end);
    let note = format!("continues to line {}", last + 1);
    Label {
        span: start..clipped,
        text: Some(match label.text {
            Some(text) => format!("{text} ({note})"),
            None => note,
        }),
        primary: label.primary,
    }
}

/// The lines miette reads for a label or a joined span, and how far it
/// joins the next label's lines to them.
struct Context {
    span: Range<usize>,
    first: usize,
    last: usize,
    reach: usize,
}

/// What miette's own `SourceCode` for a string answers for `span` with one
/// line of context: the contents' first line, their last, and `line()` +
/// `line_count()`, miette's test for joining a following label's lines
/// (`line_count()` there counts the line breaks from the start of the file
/// to the end of the contents, so the reach grows with the position).
fn context(source: &Source, span: Range<usize>) -> Context {
    let last_line = source.line_count().saturating_sub(1);
    let first = source.line_of(span.start).0.saturating_sub(1);
    // The line of the byte after the span's last byte. For an empty span
    // at the start that is the second byte, and when it is the `\n` of a
    // `\r\n`, miette counts it on the next line (the `\r` ended the first).
    let after = span.end.max(1);
    let bytes = source.text().as_bytes();
    let after = match (bytes.get(after - 1), bytes.get(after)) {
        (Some(b'\r'), Some(b'\n')) => after + 1,
        _ => after,
    };
    let end = source.line_of(after).0;
    Context {
        first,
        last: (end + 1).min(last_line),
        reach: first + (end + 2).min(last_line),
        span,
    }
}

/// The frames miette will draw, each as the file's lines in it: labels in
/// order of their start, each joined to the frame before it as miette joins
/// them, unless more than `MAX_GAP_LINES` lines lie between.
fn frames(source: &Source, labels: &[Label]) -> Vec<std::ops::RangeInclusive<usize>> {
    let mut spans: Vec<Range<usize>> = labels.iter().map(|l| l.span.clone()).collect();
    spans.sort_by_key(|s| s.start);
    let mut contexts: Vec<Context> = Vec::new();
    for span in spans {
        let right = context(source, span);
        if let Some(left) = contexts.last_mut() {
            let between = right.first.saturating_sub(left.last + 1);
            if right.first <= left.reach && between <= MAX_GAP_LINES {
                let joined = left.span.start..left.span.end.max(right.span.end);
                *left = context(source, joined);
                continue;
            }
        }
        contexts.push(right);
    }
    // Frames that touch are drawn as one (miette's rule never leaves them
    // touching; this keeps the excerpt's lines in order whatever happens).
    let mut frames: Vec<std::ops::RangeInclusive<usize>> = Vec::new();
    for c in contexts {
        match frames.last_mut() {
            Some(last) if c.first <= *last.end() + 1 => {
                *last = *last.start()..=(*last.end()).max(c.last);
            }
            _ => frames.push(c.first..=c.last),
        }
    }
    frames
}

/// Whether a line is drawn as windows rather than whole.
fn is_long(text: &str) -> bool {
    text.len() > LINE_LIMIT && text.chars().nth(LINE_LIMIT).is_some()
}

/// The parts of a long line drawn: `CONTEXT` characters either side of each
/// point, joined when they are closer than `MIN_GAP`, reaching an end of
/// the line when they are that close to it; the line's first `HEAD`
/// characters when there is no point.
fn windows(text: &str, points: &[usize]) -> Vec<Range<usize>> {
    if points.is_empty() {
        let head = 0..forward(text, 0, HEAD);
        return vec![head];
    }
    let mut windows: Vec<Range<usize>> = points
        .iter()
        .map(|&p| {
            let start = match back(text, p, CONTEXT + MIN_GAP) {
                0 => 0,
                _ => back(text, p, CONTEXT),
            };
            let end = match forward(text, p, CONTEXT + MIN_GAP) {
                end if end == text.len() => end,
                _ => forward(text, p, CONTEXT),
            };
            start..end
        })
        .collect();
    windows.sort_by_key(|w| w.start);
    let mut joined: Vec<Range<usize>> = Vec::with_capacity(windows.len());
    for window in windows {
        match joined.last_mut() {
            Some(last) if window.start <= forward(text, last.end, MIN_GAP) => {
                last.end = last.end.max(window.end);
            }
            _ => joined.push(window),
        }
    }
    joined
}

/// The offset `n` characters after `at` in `text`, or its end.
pub(super) fn forward(text: &str, at: usize, n: usize) -> usize {
    let at = floor_char_boundary(text, at.min(text.len()));
    text[at..]
        .char_indices()
        .nth(n)
        .map_or(text.len(), |(i, _)| at + i)
}

/// The offset `n` characters before `at` in `text`, or its start.
pub(super) fn back(text: &str, at: usize, n: usize) -> usize {
    let at = floor_char_boundary(text, at.min(text.len()));
    match n.checked_sub(1) {
        None => at,
        Some(n) => text[..at].char_indices().rev().nth(n).map_or(0, |(i, _)| i),
    }
}

#[cfg(test)]
thread_local! {
    /// Bytes of the file the excerpts have read or handed to miette on this
    /// thread, for the test that drawing costs the excerpt, not the file.
    pub(super) static WORK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
pub(super) fn work(bytes: usize) {
    WORK.with(|w| w.set(w.get() + bytes));
}

#[cfg(not(test))]
#[inline(always)]
fn work(_bytes: usize) {}

//! Byte spans into a file's text: the ground floor every stage stands on,
//! diagnostics included, so that nothing below them imports them.

use std::fmt;

/// A half-open byte range `start..end` into a [`Source`](crate::Source)'s text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        // Files are capped at `source::MAX_FILE_BYTES`, far below u32::MAX.
        Span {
            start: start as u32,
            end: end.max(start) as u32,
        }
    }

    pub fn empty(at: usize) -> Span {
        Span::new(at, at)
    }

    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The span moved by `by` bytes: where the same text is after an edit
    /// before it added (or removed) that many.
    pub(crate) fn shifted(self, by: i64) -> Span {
        // Spans after an edit stay inside the new text, which is at most
        // `source::MAX_FILE_BYTES` long.
        let moved = |at: u32| (i64::from(at) + by).clamp(0, i64::from(u32::MAX)) as u32;
        Span {
            start: moved(self.start),
            end: moved(self.end),
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

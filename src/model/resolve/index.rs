//! The editor's view of the occurrences: those written in the file as
//! the name itself, in source order, each place once.

use super::{Occurrence, Resolution, Symbol, SymbolId, SymbolKind};
use crate::source::Source;
use crate::span::Span;
use std::sync::Arc;

/// The editor's view of a [`Resolution`]: the occurrences written in the
/// file as the name itself, in source order, each place once.
#[derive(Debug, Default)]
pub struct Index {
    resolution: Arc<Resolution>,
    /// Positions in `resolution.occurrences`, by span.
    order: Vec<u32>,
}

impl Index {
    /// The index of `model`, compiled from `source`. A place is kept only
    /// where the text under its span is the name itself (quotes aside), so
    /// an edit there can never reach past the name: a type written with
    /// escapes (`"Fo\x6F[]"`) has only its whole scalar's span.
    pub fn new(model: &crate::model::Model, source: &Source) -> Index {
        let resolution = Arc::clone(model.resolution_arc());
        let all = &resolution.occurrences;
        let mut order: Vec<u32> = (0..all.len() as u32)
            .filter(|&i| {
                let o = &all[i as usize];
                unquoted(source, o.span).1 == resolution.symbol(o.symbol).name
            })
            .collect();
        // A YAML alias repeats its anchor's spans; keep each place once.
        order.sort_by_key(|&i| {
            let span = all[i as usize].span;
            (span.start, span.end)
        });
        order.dedup_by_key(|i| all[*i as usize].span);
        Index { resolution, order }
    }

    pub fn symbol(&self, id: SymbolId) -> &Symbol {
        self.resolution.symbol(id)
    }

    fn sorted(&self) -> impl DoubleEndedIterator<Item = &Occurrence> + Clone {
        self.order
            .iter()
            .map(|&i| &self.resolution.occurrences[i as usize])
    }

    /// The occurrence whose name contains `offset`, or ends at it (a cursor
    /// just after a name is on it).
    pub fn at(&self, offset: usize) -> Option<&Occurrence> {
        let offset = offset as u32;
        let occurrences = &self.resolution.occurrences;
        // Occurrences do not overlap; the last one starting at or before
        // `offset` is the only candidate.
        let after = self
            .order
            .partition_point(|&i| occurrences[i as usize].span.start <= offset);
        let candidate = &occurrences[*self.order[..after].last()? as usize];
        (candidate.span.end >= offset).then_some(candidate)
    }

    /// Every occurrence of `id`, in source order.
    pub fn occurrences(&self, id: SymbolId) -> impl Iterator<Item = &Occurrence> {
        self.sorted().filter(move |o| o.symbol == id)
    }

    /// Where `id` is declared (first declaration first).
    pub fn definitions(&self, id: SymbolId) -> impl Iterator<Item = &Occurrence> {
        self.occurrences(id).filter(|o| o.role.is_definition())
    }

    /// The symbols of a kind, in the order first seen.
    pub fn symbols(&self, kind: SymbolKind) -> impl Iterator<Item = &Symbol> {
        self.resolution
            .symbols
            .iter()
            .filter(move |s| s.kind == kind)
    }
}

/// The edit that writes `new` in place of the name an occurrence at `span`
/// names: inside its quotes when it is quoted; for a labelled occurrence
/// (`input: [X]` passes `X` as `X`), the label kept as written and the new
/// name as its source (`X: NEW`, `"X": NEW`), never inside the quotes,
/// where `"X: NEW"` would be one string. The span replaced, and the text.
pub fn rename_edit(source: &Source, span: Span, labelled: bool, new: &str) -> (Span, String) {
    match labelled {
        true => (span, format!("{}: {new}", source.slice(span))),
        false => (unquoted(source, span).0, new.to_string()),
    }
}

/// The name under a span without the quotes of a quoted scalar: its span
/// and its text.
pub fn unquoted(source: &Source, span: Span) -> (Span, &str) {
    let text = source.slice(span);
    let quoted = text.len() >= 2
        && ((text.starts_with('"') && text.ends_with('"'))
            || (text.starts_with('\'') && text.ends_with('\'')));
    if quoted {
        let inner = Span::new(span.start as usize + 1, span.end as usize - 1);
        (inner, source.slice(inner))
    } else {
        (span, text)
    }
}

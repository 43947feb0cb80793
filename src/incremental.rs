//! Compiling an edited text from the compile of the text before it: the
//! language server's keystroke, and any front end that holds a file
//! between edits ([`crate::compile_again`]).
//!
//! A protocol's big sections are mappings of entries that are read and
//! lowered each on its own (`types`, `tools`, `triggers`, `handlers`:
//! [`Listed`]). When an edit falls inside one such entry, only that entry
//! is parsed and lowered again; every declaration after it is moved by
//! the bytes the edit added (`Protocol::shift_from`). The checks of each
//! type that reads nothing the edit changed are not run: what they found
//! before is given again, moved the same way (`check::memo` says what a
//! type's checks read); the model's names and the checks of the other
//! sections run over the whole protocol as before. The result is the
//! fresh compile's, diagnostic for diagnostic: `tests/incremental.rs`
//! edits protocols at random and compares each result with a compile from
//! nothing.
//!
//! Whatever this cannot show to be the same is compiled from nothing: a
//! text with anchors or aliases, any problem in reading the YAML (the
//! indentation repair reads the whole text), an entry that becomes two,
//! moves its key, takes another entry's name, or holds a line at or left
//! of its key, a quoted scalar over several lines, an edit outside a
//! listed entry, or more than [`MAX_KEPT`] diagnostics of reading.

use crate::cancel::Cancel;
use crate::clock::Instant;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::model;
use crate::source::Source;
use crate::syntax::{Listed, Protocol};
use crate::yaml::{self, Node, NodeKind, ScalarStyle};
use crate::{FileReport, Span};

/// At most this many diagnostics of reading (YAML and lowering) are kept
/// for the next compile; a file with more is compiled from nothing.
const MAX_KEPT: usize = 1_000;

/// Where the entries of each listed section are in a text, and what
/// reading and lowering the text found, before the checks.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    sections: Vec<Section>,
    /// The diagnostics of reading and lowering, in the order found.
    syntax: Vec<Diagnostic>,
    /// What the types' checks found, when it was few enough to keep.
    pub(crate) checks: Option<crate::check::Memo>,
    /// How many types' checks ran (were not given again).
    pub(crate) types_checked: usize,
}

#[derive(Clone, Debug)]
struct Section {
    listed: Listed,
    /// The column of the entries' keys.
    column: u32,
    /// Where each entry's key starts.
    keys: Vec<u32>,
    /// Where what follows the section starts: the next top-level key, or
    /// the end of the text.
    end: u32,
}

/// What a compile leaves for compiling the same file after an edit
/// ([`FileReport::into_previous`], [`crate::compile_again`]).
pub struct Previous {
    source: Source,
    protocol: Protocol,
    /// The model's names and type graph.
    model: model::Earlier,
    layout: Box<Layout>,
}

impl FileReport {
    /// What compiling this file again after an edit can reuse: its text,
    /// its model and where its entries are. `None` when the file was not
    /// compiled in a way that can be reused (not a protocol, or read with
    /// a problem in its YAML).
    pub fn into_previous(self) -> Option<Previous> {
        match (self.layout, self.model) {
            (Some(layout), Some(model)) => {
                let (protocol, model) = model.into_parts();
                Some(Previous {
                    layout,
                    protocol,
                    model,
                    source: self.source,
                })
            }
            _ => self.earlier.map(|earlier| *earlier),
        }
    }

    /// The names of the last compile that can be reused, resolved: what
    /// the language server offers while a file cannot be read.
    #[cfg(feature = "lsp")]
    pub(crate) fn earlier_resolution(
        &mut self,
    ) -> Option<std::sync::Arc<crate::model::resolve::Resolution>> {
        let earlier = self.earlier.as_mut()?;
        let model = crate::Model::new(std::mem::take(&mut earlier.protocol));
        let resolution = std::sync::Arc::clone(model.resolution_arc());
        earlier.protocol = model.protocol;
        Some(resolution)
    }
}

impl Layout {
    /// The layout of a text read without a problem and without anchors;
    /// `syntax` is filled in once lowering is done.
    pub(crate) fn of(root: &Node, text: &str) -> Option<Layout> {
        let entries = root.as_mapping()?;
        if text.as_bytes().get(root.span.start as usize) == Some(&b'{') {
            return None;
        }
        let mut sections = Vec::new();
        for (n, entry) in entries.iter().enumerate() {
            let Some(listed) = Listed::of(&entry.key.text) else {
                continue;
            };
            let Some(items) = entry.value.as_mapping().filter(|items| !items.is_empty()) else {
                continue;
            };
            if text.as_bytes().get(entry.value.span.start as usize) == Some(&b'{') {
                continue;
            }
            let end = entries
                .get(n + 1)
                .map_or(text.len(), |next| next.key.span.start as usize);
            let Some(column) = column_of(text, items[0].key.span.start as usize) else {
                continue;
            };
            let keys: Vec<u32> = items.iter().map(|item| item.key.span.start).collect();
            if keys
                .iter()
                .all(|&key| column_of(text, key as usize) == Some(column))
            {
                sections.push(Section {
                    listed,
                    column,
                    keys,
                    end: end as u32,
                });
            }
        }
        Some(Layout {
            sections,
            syntax: Vec::new(),
            checks: None,
            types_checked: 0,
        })
    }

    /// Keeps the diagnostics of reading and lowering; false when there are
    /// too many to keep.
    pub(crate) fn keep(&mut self, diags: &Diagnostics) -> bool {
        if diags.len() > MAX_KEPT || diags.is_full() {
            return false;
        }
        self.syntax = diags.recorded().to_vec();
        true
    }
}

/// The column of the key at `at`, when only spaces come before it on its
/// line.
fn column_of(text: &str, at: usize) -> Option<u32> {
    let before = text.get(..at)?.as_bytes();
    // Back over the spaces, which must reach the line's start: a few bytes
    // each, where searching back for the line break costs a search's
    // set-up for every key.
    let spaces = before.iter().rev().take_while(|&&b| b == b' ').count();
    let line = at - spaces;
    line.checked_sub(1)
        .is_none_or(|i| before.get(i) == Some(&b'\n'))
        .then_some(spaces as u32)
}

fn line_start(text: &str, at: usize) -> usize {
    text.get(..at)
        .and_then(|before| before.rfind('\n'))
        .map_or(0, |i| i + 1)
}

/// An edit: the old text's bytes `start..old_end` became the new text's
/// `start..new_end`; everything else is the same.
#[derive(Clone, Copy)]
struct Change {
    start: usize,
    old_end: usize,
    delta: i64,
}

impl Change {
    fn between(old: &str, new: &str) -> Change {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let start = same_prefix(a, b);
        let room = a.len().min(b.len()) - start;
        let same_end = same_suffix(&a[a.len() - room..], &b[b.len() - room..]);
        Change {
            start,
            old_end: a.len() - same_end,
            delta: b.len() as i64 - a.len() as i64,
        }
    }
}

/// How many bytes two texts start with alike: compared a block at a time
/// (each a `memcmp`), then byte by byte in the block that differs.
fn same_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let len = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= len && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..len]
        .iter()
        .zip(&b[at..len])
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many bytes two texts of the same length end with alike.
fn same_suffix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let len = a.len().min(b.len());
    let (a, b) = (&a[a.len() - len..], &b[b.len() - len..]);
    let mut same = 0;
    while same + BLOCK <= len
        && a[len - same - BLOCK..len - same] == b[len - same - BLOCK..len - same]
    {
        same += BLOCK;
    }
    same + a[..len - same]
        .iter()
        .rev()
        .zip(b[..len - same].iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// The new offset of an old offset at or after the change.
fn moved(at: usize, delta: i64) -> usize {
    (at as i64 + delta).max(0) as usize
}

/// [`crate::compile_again`], saying whether the compile before was
/// reused (for the tests).
pub fn again(previous: Option<Previous>, source: Source) -> (FileReport, bool) {
    match again_unless(previous, source, Cancel::never()) {
        Ok(done) => done,
        // Never asked to stop, it is never stopped: this only closes the match.
        Err(cancelled) => (crate::compile_source(cancelled.source), false),
    }
}

/// How many of the protocol's types had their checks run by the compile
/// that made `report` (the others' were given again from the compile
/// before an edit), when the next edit may start from it: for the tests
/// and the benchmarks.
pub fn types_checked(report: &FileReport) -> Option<usize> {
    report.layout.as_ref().map(|layout| layout.types_checked)
}

/// A compile stopped before its end ([`crate::compile_again_unless`]):
/// what it was given, given back.
pub struct Cancelled {
    /// The text it was to compile.
    pub source: Source,
    /// The compile before, still whole, for compiling the next text from;
    /// `None` when there was none.
    pub previous: Option<Box<Previous>>,
}

impl std::fmt::Debug for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cancelled")
            .field("source", &self.source.name())
            .field("previous", &self.previous.is_some())
            .finish()
    }
}

/// [`again`], asking `cancel` whether to go on when the text is compiled
/// from nothing.
pub(crate) fn again_unless(
    previous: Option<Previous>,
    source: Source,
    cancel: &Cancel,
) -> Result<(FileReport, bool), Cancelled> {
    let Some(previous) = previous else {
        return match crate::compile_source_unless(source, cancel) {
            Ok(report) => Ok((report, false)),
            Err(source) => Err(Cancelled {
                source,
                previous: None,
            }),
        };
    };
    match recompile(previous, source) {
        Ok(report) => Ok((report, true)),
        Err(fallback) => match crate::compile_source_unless(fallback.source, cancel) {
            Ok(mut report) => {
                if report.layout.is_none() {
                    // Kept for the next edit, which may mend this one.
                    report.earlier = fallback.previous;
                }
                Ok((report, false))
            }
            Err(source) => Err(Cancelled {
                source,
                previous: fallback.previous,
            }),
        },
    }
}

/// What [`recompile`] could not reuse: the new text, for a compile from
/// nothing, and the previous compile when it is still whole, which stays
/// good for later edits (an entry with a YAML mistake typed halfway is
/// compiled from nothing, and the keystroke that mends it reuses the
/// compile before the mistake).
struct Fallback {
    source: Source,
    previous: Option<Box<Previous>>,
}

/// How far an edit is moved left to fall inside one entry, at most.
const MAX_SLIDE: usize = 1_024;

/// The entry an edit falls in, and where.
struct Plan {
    section: usize,
    index: usize,
    /// The start of the entry's first line, the same in both texts.
    first: usize,
    /// Where the next entry's key (or the next section) is in the old text,
    /// and in the new.
    next: usize,
    new_next: usize,
    change: Change,
}

impl Previous {
    /// The section and entry whose lines hold all of `change`: their
    /// indexes, where the entry's first line starts, where the next entry's
    /// key is, and where its line starts.
    fn entry_of(&self, change: &Change) -> Option<(usize, usize, usize, usize, usize)> {
        let old_text = self.source.text();
        self.layout
            .sections
            .iter()
            .enumerate()
            .find_map(|(s, section)| {
                let i = section
                    .keys
                    .partition_point(|&key| key as usize <= change.start)
                    .checked_sub(1)?;
                let first = line_start(old_text, section.keys[i] as usize);
                let next = section
                    .keys
                    .get(i + 1)
                    .map_or(section.end as usize, |&key| key as usize);
                let bound = line_start(old_text, next);
                (first <= change.start && change.old_end <= bound)
                    .then_some((s, i, first, next, bound))
            })
    }

    fn plan(&self, new_text: &str) -> Option<Plan> {
        let old_text = self.source.text();
        let mut change = Change::between(old_text, new_text);
        // An insertion or deletion next to text like its own can be placed
        // in more than one way ("k:\n" typed before a line that starts the
        // same): the comparison puts it as far right as it goes, which may
        // be in the next entry's indentation; it is moved left, a byte at a
        // time, while it is the same edit, until it falls inside one entry.
        for _ in 0..=MAX_SLIDE {
            if let Some(plan) = self.plan_at(change, new_text) {
                return Some(plan);
            }
            let (old, new) = (old_text.as_bytes(), new_text.as_bytes());
            let new_end = moved(change.old_end, change.delta);
            let same = change.start > 0
                && change.old_end > 0
                && new_end > 0
                && old.get(change.old_end - 1) == new.get(new_end - 1);
            if !same {
                return None;
            }
            change.start -= 1;
            change.old_end -= 1;
        }
        None
    }

    /// The plan for `change` placed where it is, when it is inside one
    /// entry and leaves the lines around it as they were.
    fn plan_at(&self, change: Change, new_text: &str) -> Option<Plan> {
        let (section, index, first, next, bound) = self.entry_of(&change)?;
        // The next entry's (or section's) line still starts a line.
        let new_bound = moved(bound, change.delta);
        if bound > 0 && new_text.as_bytes().get(new_bound.wrapping_sub(1)) != Some(&b'\n') {
            return None;
        }
        let column = self.layout.sections[section].column;
        lines_inside(new_text, first, new_bound, column).then_some(Plan {
            section,
            index,
            first,
            next,
            new_next: moved(next, change.delta),
            change,
        })
    }
}

/// Compiles `source` again from `previous`, when the edit between them
/// falls inside one listed entry and that entry reads alike alone and in
/// its file; otherwise gives back what a compile from nothing needs.
fn recompile(previous: Previous, source: Source) -> Result<FileReport, Fallback> {
    let started = Instant::now();
    let Some(plan) = previous.plan(source.text()) else {
        return Err(Fallback {
            source,
            previous: Some(Box::new(previous)),
        });
    };
    let mut diags = Diagnostics::default();
    // The entry is held by its section's mapping, one level below the
    // file's own.
    let parsed = yaml::parse_part(&source, plan.first..plan.new_next, 1, &mut diags);
    let section = &previous.layout.sections[plan.section];
    let entry = match parsed
        .as_ref()
        .and_then(|p| p.root.as_ref().filter(|_| !p.anchored))
    {
        Some(root) => match root.as_mapping() {
            Some([entry]) if diags.is_empty() => Some(entry),
            _ => None,
        },
        None => None,
    };
    let entry = entry.filter(|entry| {
        column_of(source.text(), entry.key.span.start as usize) == Some(section.column)
            && single_line_quotes(&entry.value, source.text())
            && !section
                .listed
                .names(&previous.protocol)
                .iter()
                .enumerate()
                .any(|(j, name)| j != plan.index && name.text == entry.key.text)
    });
    let Some(entry) = entry else {
        drop(parsed);
        return Err(Fallback {
            source,
            previous: Some(Box::new(previous)),
        });
    };
    let listed = section.listed;
    let key = entry.key.span.start;
    let Previous {
        source: old,
        mut protocol,
        model: earlier,
        mut layout,
    } = previous;
    // What follows moves; then the entry is lowered again in its place.
    let at = plan.next as u32;
    let delta = plan.change.delta;
    let before = match listed {
        Listed::Types => protocol.types.get(plan.index).map(model::TypeBefore::of),
        Listed::Tools | Listed::Triggers | Listed::Handlers => None,
    };
    let read_before: Option<Vec<crate::syntax::Text>> =
        model::resolve::read_of(&protocol, listed, plan.index)
            .map(|read| read.into_iter().map(crate::syntax::Text::from).collect());
    protocol.shift_from(at, delta);
    let lowered = listed.relower(&mut protocol, plan.index, entry, &mut diags);
    let same_names = read_before.is_some_and(|before| {
        model::resolve::read_of(&protocol, listed, plan.index)
            .is_some_and(|now| now.iter().eq(before.iter()))
    });
    let region = Span::new(plan.first, plan.new_next);
    if !lowered || diags.is_full() || diags.recorded().iter().any(|d| !inside(d, region)) {
        drop(parsed);
        return Err(Fallback {
            source,
            previous: None,
        });
    }
    drop(parsed);
    // The layout and the kept diagnostics, moved.
    for (t, section) in layout.sections.iter_mut().enumerate() {
        for (j, key_at) in section.keys.iter_mut().enumerate() {
            if t == plan.section && j == plan.index {
                *key_at = key;
            } else if *key_at >= at {
                *key_at = moved(*key_at as usize, delta) as u32;
            }
        }
        if section.end >= at {
            section.end = moved(section.end as usize, delta) as u32;
        }
    }
    let mut syntax = Vec::with_capacity(layout.syntax.len() + diags.len());
    let mut kept = std::mem::take(&mut layout.syntax).into_iter().peekable();
    // A place past the edit moves with its text, wherever the
    // diagnostic is.
    while let Some(mut d) = kept.next_if(|d| (d.span.start as usize) < plan.first) {
        d.move_after(at, delta);
        syntax.push(d);
    }
    syntax.extend(diags.recorded().iter().cloned());
    for mut d in kept.filter(|d| d.span.start >= at) {
        d.move_after(at, delta);
        syntax.push(d);
    }
    drop(old);
    if syntax.len() > MAX_KEPT {
        return Err(Fallback {
            source,
            previous: None,
        });
    }
    let mut diags = Diagnostics::default();
    diags.extend(syntax.iter().cloned());
    layout.syntax = syntax;
    let edit = model::Edit {
        section: listed,
        index: plan.index,
        before,
        same_names,
        region: Span::new(plan.first, plan.next),
        delta,
    };
    let timings = crate::Timings {
        parse: started.elapsed(),
        ..crate::Timings::default()
    };
    Ok(crate::checked(
        source,
        protocol,
        diags,
        timings,
        Some(layout),
        Some((earlier, edit)),
    ))
}

/// Whether every line of `text[first..end]` after the first that holds
/// more than a comment is indented past `column`: the entry is one node,
/// read alike alone and in its file.
fn lines_inside(text: &str, first: usize, end: usize, column: u32) -> bool {
    let Some(part) = text.get(first..end) else {
        return false;
    };
    part.split('\n').skip(1).all(|line| {
        let content = line.trim_start_matches(' ');
        let blank = content.trim_matches([' ', '\t', '\r']).is_empty();
        blank || content.starts_with('#') || (line.len() - content.len()) as u32 > column
    })
}

/// Whether every quoted scalar under `node` is on one line (a quoted
/// scalar's next lines may sit left of its parent's column).
fn single_line_quotes(node: &Node, text: &str) -> bool {
    match &node.kind {
        NodeKind::Scalar(scalar) => {
            !matches!(
                scalar.style,
                ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted
            ) || !text
                .get(node.span.range())
                .is_none_or(|written| written.contains('\n'))
        }
        NodeKind::Mapping(entries) => entries
            .iter()
            .all(|entry| single_line_quotes(&entry.value, text)),
        NodeKind::Sequence(items) => items.iter().all(|item| single_line_quotes(item, text)),
    }
}

/// Whether every place a diagnostic names is inside `region`.
fn inside(diagnostic: &Diagnostic, region: Span) -> bool {
    diagnostic
        .spans()
        .all(|span| region.start <= span.start && span.end <= region.end)
}

#[cfg(test)]
mod tests {
    use super::column_of;

    proptest::proptest! {
        /// The key's column, counted back over spaces, is the one found
        /// from the line's start: spaces only before it, on lines ended by
        /// `\n` or `\r\n`, after tabs and other text, at the text's start.
        #[test]
        fn a_keys_column_is_counted_back_to_its_lines_start(
            text in "(( {0,4}|\t)[aé ]{0,2}(\r?\n)?){0,8}",
            at in 0usize..72,
        ) {
            let from_line = |text: &str, at: usize| -> Option<u32> {
                let before = text.get(..at)?;
                let line = before.rfind('\n').map_or(0, |i| i + 1);
                before[line..]
                    .bytes()
                    .all(|b| b == b' ')
                    .then_some((at - line) as u32)
            };
            proptest::prop_assert_eq!(column_of(&text, at), from_line(&text, at));
        }
    }
}

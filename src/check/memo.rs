//! What the checks of the types found, type by type, kept between the
//! compiles of one file (`crate::incremental`). After an edit inside one
//! entry of a listed section, each type whose checks read nothing the
//! edit changed gives what it gave before, moved with the text after the
//! edit, and only the others are checked again.
//!
//! What a type's checks read, and so when they must run again:
//!
//! - the type itself (the edited type);
//! - every type name (an unknown type, its suggestion): an edit that
//!   renames the edited type reuses nothing;
//! - the types it names and the types that name it (a union reads its
//!   variants; a rename fixes every use): those linked to the edited
//!   type before or after the edit;
//! - the names every type is used by, resolved or not (whether a rename
//!   would collide): when the edited entry names other types than before,
//!   each type whose own name breaks the convention;
//! - the properties unions discriminate by (a property's rename): an
//!   edit that changes the edited type's discriminator reuses nothing;
//! - the text at each place a diagnostic names: a diagnostic with a
//!   place in the edited lines is never reused.
//!
//! The cycles read the type graph alone, and are reused when the edited
//! entry is not a type or names the same types in the same order. The
//! checks of the other sections always run again.

use super::naming;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::model::{Edit, Model};
use crate::span::Span;
use crate::syntax::Listed;
use petgraph::graph::NodeIndex;

/// At most this many diagnostics of the types are kept; a protocol whose
/// types have more is checked whole after each edit.
const MAX_KEPT: usize = 1_000;

/// The diagnostics of each type's own checks and of the cycles, in the
/// order found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Memo {
    /// Type `i`'s diagnostics are `found[ends[i - 1]..ends[i]]`.
    found: Vec<Diagnostic>,
    ends: Vec<u32>,
    cycles: Vec<Diagnostic>,
}

/// Which kept diagnostics a check gives again.
pub(super) struct Reuse {
    memo: Memo,
    /// For each type, whether it is checked again.
    again: Vec<bool>,
    cycles: bool,
    region: Span,
    delta: i64,
}

impl Reuse {
    /// What may be reused of `memo`, the checks of the text before `edit`,
    /// in the protocol `model` holds now; `None` when nothing may.
    pub(super) fn new(model: &Model, memo: Memo, edit: &Edit) -> Option<Reuse> {
        let types = &model.protocol.types;
        if memo.ends.len() != types.len() {
            return None;
        }
        let mut again = vec![false; types.len()];
        // Whether the entry names other types than before, and whether
        // the type graph may have changed.
        let (names_changed, graph_changed) = match (edit.section, &edit.before) {
            (Listed::Types, Some(before)) => {
                let def = types.get(edit.index)?;
                if !edit.same_names || !before.same_discriminator(def) {
                    return None;
                }
                again[edit.index] = true;
                let node = NodeIndex::new(edit.index);
                for linked in model.graph.neighbors_undirected(node) {
                    again[linked.index()] = true;
                }
                for name in before.references() {
                    if let Some(id) = model.lookup(name) {
                        again[id.index()] = true;
                    }
                }
                let changed = !before.same_references(def);
                (changed, changed)
            }
            (Listed::Types, None) => return None,
            // An entry of another section names types only where its
            // fields are typed: which names, it does not say, so every
            // rename fix is made again.
            (Listed::Tools | Listed::Triggers | Listed::Handlers, _) => (true, false),
        };
        if names_changed {
            for (flag, def) in again.iter_mut().zip(types) {
                *flag |= !naming::follows_type_name_convention(&def.name.text);
            }
        }
        let region = edit.region;
        let cycles = !graph_changed && !memo.cycles.iter().any(|d| touches(d, region));
        Some(Reuse {
            memo,
            again,
            cycles,
            region,
            delta: edit.delta,
        })
    }

    /// Type `index`'s diagnostics from before the edit, moved, when none
    /// of its checks need to run again.
    pub(super) fn of_type(&self, index: usize) -> Option<impl Iterator<Item = Diagnostic> + '_> {
        if *self.again.get(index)? {
            return None;
        }
        let start = match index {
            0 => 0,
            _ => *self.memo.ends.get(index - 1)? as usize,
        };
        let end = *self.memo.ends.get(index)? as usize;
        let kept = self.memo.found.get(start..end)?;
        if kept.iter().any(|d| touches(d, self.region)) {
            return None;
        }
        Some(self.moved(kept))
    }

    /// The cycles' diagnostics from before the edit, moved, when the type
    /// graph is the same.
    pub(super) fn cycles(&self) -> Option<impl Iterator<Item = Diagnostic> + '_> {
        self.cycles.then(|| self.moved(&self.memo.cycles))
    }

    fn moved<'a>(&'a self, kept: &'a [Diagnostic]) -> impl Iterator<Item = Diagnostic> + 'a {
        let (at, delta) = (self.region.end, self.delta);
        kept.iter().map(move |d| {
            let mut d = d.clone();
            d.move_after(at, delta);
            d
        })
    }
}

/// Whether any place a diagnostic names is inside `region` or overlaps it.
fn touches(diagnostic: &Diagnostic, region: Span) -> bool {
    let overlaps = |span: Span| {
        span.start < region.end && (span.end > region.start || span.start >= region.start)
    };
    diagnostic.spans().any(overlaps)
}

/// The memo a check fills, type by type; dropped once the diagnostics are
/// too many to keep, or once some were not recorded.
pub(super) struct Recorder {
    memo: Option<Memo>,
}

impl Recorder {
    pub(super) fn new(record: bool) -> Recorder {
        Recorder {
            memo: record.then(Memo::default),
        }
    }

    /// Keeps what was recorded since `mark` as the next type's.
    pub(super) fn end_type(&mut self, diags: &Diagnostics, mark: usize) {
        if let Some(memo) = self.keep(diags, mark) {
            memo.found.extend_from_slice(&diags.recorded()[mark..]);
            memo.ends.push(memo.found.len() as u32);
        }
    }

    /// Keeps what was recorded since `mark` as the cycles'.
    pub(super) fn end_cycles(&mut self, diags: &Diagnostics, mark: usize) {
        if let Some(memo) = self.keep(diags, mark) {
            memo.cycles.extend_from_slice(&diags.recorded()[mark..]);
        }
    }

    fn keep(&mut self, diags: &Diagnostics, mark: usize) -> Option<&mut Memo> {
        let memo = self.memo.as_ref()?;
        let kept = memo.found.len() + memo.cycles.len() + diags.len().saturating_sub(mark);
        if diags.is_full() || diags.len() < mark || kept > MAX_KEPT {
            self.memo = None;
        }
        self.memo.as_mut()
    }

    pub(super) fn finish(self) -> Option<Memo> {
        self.memo
    }
}

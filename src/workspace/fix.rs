//! `agentc check --fix`: the fixes a check finds applied to the files they
//! name, round after round until nothing changes, over any
//! [`agent::Files`] (the disk, files in memory, an editor's buffers), and
//! the check of what they leave. Nothing is written here: the caller gets
//! the new texts and decides (the CLI writes them through the disk
//! adapter, or prints a diff; an editor or an agent shows them).
//!
//! What keeps a fix honest:
//! - only fixes as sure as asked are applied ([`Applicability`]); one that
//!   is an answer among others ([`Applicability::Suggestion`]) never is;
//! - a file that does not parse gets only the fixes of its parse problems
//!   (a value quoted), since every other span in it is a guess;
//! - a round is kept for a file only when the file, checked again, parses
//!   and (when it parsed before) has no more errors than before; otherwise
//!   the file keeps its text from the round before;
//! - where two fixes overlap, the first in the file wins, and the other is
//!   found again, where it still applies, in the next round;
//! - at most [`MAX_ROUNDS`] rounds, so fixes that undo each other end.

use super::Workspace;
use crate::agent::{self, Buffers};
use crate::config::Config;
use crate::diagnostic::{Applicability, Code, Diagnostic, Edit, Fix};
use crate::files::Reach;
use crate::{FileReport, Severity};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Rounds of fixes at most: each round's fixes may uncover others (a name
/// fixed leaves its suppression unused), rarely more than two deep.
pub const MAX_ROUNDS: usize = 8;

/// What fixing a protocol gave.
pub struct Fixed {
    /// The file fixed: the protocol, or the baseline. The files changed
    /// lie in its folder.
    pub path: PathBuf,
    /// Each file the fixes changed, by the path it was read from; files
    /// left as they were are not here.
    pub files: BTreeMap<PathBuf, Change>,
    /// How many fixes were applied.
    pub applied: usize,
    /// The check of the fixed files: what remains to fix by hand.
    pub reports: Vec<FileReport>,
}

/// A file's text before the fixes and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub before: String,
    pub after: String,
}

impl Fixed {
    /// Each file the fixes changed, as the MCP server's `fix` tool and the
    /// browser package give it: `{"path", "text" (after the fixes),
    /// "diff" (unified, from the text before)}`, in path order.
    pub fn files_json(&self) -> Vec<serde_json::Value> {
        self.files
            .iter()
            .map(|(path, change)| {
                let name = path.display().to_string();
                serde_json::json!({ "path": name, "text": change.after, "diff": change.unified(&name) })
            })
            .collect()
    }
}

impl Change {
    /// The change as a unified diff of the file `name` (`a/NAME`,
    /// `b/NAME`, as `git apply` and `patch -p1` read it).
    pub fn unified(&self, name: &str) -> String {
        // Patience: anchored on the lines that occur once on each side, so
        // that thousands of fixed lines cost a diff of each stretch between
        // anchors, not one of the whole file (Myers, in time that grows
        // with the file's length times the lines changed).
        similar::TextDiff::configure()
            .algorithm(similar::Algorithm::Patience)
            .diff_lines(&self.before, &self.after)
            .unified_diff()
            .header(&format!("a/{name}"), &format!("b/{name}"))
            .to_string()
    }
}

impl Fixed {
    /// The fixes of one report (at most as unsure as `least_sure`)
    /// applied to its text, once, with no check after: what is left is
    /// not known (`reports` is empty).
    pub fn of_report(report: &FileReport, least_sure: Applicability) -> Fixed {
        let path = PathBuf::from(report.source.name());
        let text = report.source.text();
        let (after, applied) = apply(text, &fixes_of(report, least_sure));
        let mut fixed = Fixed {
            path: path.clone(),
            files: BTreeMap::new(),
            applied: 0,
            reports: Vec::new(),
        };
        if applied > 0 && after != text {
            let before = text.to_string();
            fixed.files.insert(path, Change { before, after });
            fixed.applied = applied;
        }
        fixed
    }

    /// Whether a fix changed anything.
    pub fn changed(&self) -> bool {
        !self.files.is_empty()
    }
}

/// The texts fixed so far, laid over the files they were read from.
struct Changed<'a>(&'a BTreeMap<PathBuf, String>);

impl Buffers for Changed<'_> {
    fn bytes(&self, path: &Path) -> Option<Vec<u8>> {
        self.0.get(path).map(|text| text.as_bytes().to_vec())
    }
}

impl Workspace {
    /// Fixes the protocol at `path` read from `files` (with its agent
    /// folder) as [`Workspace::check_in`] checks it: every fix at most as
    /// unsure as `least_sure` (`Safe`, or `Unsafe` for `--unsafe-fixes`).
    pub fn fix_in(
        files: &dyn agent::Files,
        path: &Path,
        reach: Reach,
        config: &Config,
        least_sure: Applicability,
    ) -> Fixed {
        let least_sure = least_sure.min(Applicability::Unsafe);
        let check = |changed: &BTreeMap<PathBuf, String>| {
            let layered = agent::Layered {
                buffers: &Changed(changed),
                under: files,
            };
            Workspace::check_in(&layered, path, reach, config)
        };
        let mut changed: BTreeMap<PathBuf, String> = BTreeMap::new();
        let mut before: BTreeMap<PathBuf, String> = BTreeMap::new();
        let mut applied = 0;
        let mut reports = check(&changed);
        for _ in 0..MAX_ROUNDS {
            let round: Vec<(PathBuf, String, usize)> = reports
                .iter()
                .filter_map(|report| fix_report(report, least_sure, path))
                .collect();
            if round.is_empty() {
                break;
            }
            let mut next = changed.clone();
            for (file, text, _) in &round {
                next.insert(file.clone(), text.clone());
                if let Some(report) = reports.iter().find(|r| read_from(r, path) == *file) {
                    before
                        .entry(file.clone())
                        .or_insert_with(|| report.source.text().to_string());
                }
            }
            let mut after = check(&next);
            // A file this round made worse keeps its text from before; a
            // round that made a file it did not change worse (a value
            // renamed that a prompt's condition still names) is not made
            // at all: which of its fixes did it is not known.
            let unchanged_worse = after.iter().any(|report| {
                let file = read_from(report, path);
                !round.iter().any(|(changed, _, _)| *changed == file)
                    && made_worse(&reports, &after, &file, path)
            });
            let worse: Vec<&PathBuf> = round
                .iter()
                .map(|(file, _, _)| file)
                .filter(|file| unchanged_worse || made_worse(&reports, &after, file, path))
                .collect();
            if !worse.is_empty() {
                for file in &worse {
                    match changed.get(*file) {
                        Some(before) => next.insert((*file).clone(), before.clone()),
                        None => next.remove(*file),
                    };
                }
                if worse.len() == round.len() {
                    break;
                }
                after = check(&next);
            }
            applied += round
                .iter()
                .filter(|(file, _, _)| !worse.contains(&file))
                .map(|(_, _, count)| count)
                .sum::<usize>();
            changed = next;
            reports = after;
        }
        let files = changed
            .into_iter()
            .filter_map(|(file, after)| {
                let before = before.remove(&file)?;
                (before != after).then_some((file, Change { before, after }))
            })
            .collect();
        Fixed {
            path: path.to_path_buf(),
            files,
            applied,
            reports,
        }
    }
}

impl Workspace {
    /// The baseline file `path` with the fixes of its unused entries
    /// applied, as a check of every protocol finds them (one round: what
    /// they leave is a baseline with no unused entry).
    pub(super) fn fix_baseline(&self, path: &Path, least_sure: Applicability) -> Fixed {
        let name = path.display().to_string();
        let reports = self.check();
        let Some(report) = reports.iter().find(|r| r.source.name() == name) else {
            return Fixed {
                path: path.to_path_buf(),
                files: BTreeMap::new(),
                applied: 0,
                reports,
            };
        };
        let mut fixed = Fixed::of_report(report, least_sure);
        let mut after = self.clone();
        for (file, change) in &fixed.files {
            after.insert(file, change.after.clone());
        }
        fixed.reports = match fixed.changed() {
            true => after.check(),
            false => reports,
        };
        fixed
    }
}

/// The path a report of the check of `protocol` was read from. A report
/// is named by its path as text, with `�` where the path is not UTF-8:
/// the protocol's own, and those of the files in its folder, are found
/// again from `protocol`, so that a fix is written to the file it is for.
fn read_from(report: &FileReport, protocol: &Path) -> PathBuf {
    let name = report.source.name();
    if name == protocol.display().to_string() {
        return protocol.to_path_buf();
    }
    let inside = protocol.parent().and_then(|folder| {
        let shown = folder.display().to_string();
        let rest = name
            .strip_prefix(shown.as_str())
            .filter(|_| !shown.is_empty())?;
        let rest = rest
            .strip_prefix('/')
            .or_else(|| rest.strip_prefix(std::path::MAIN_SEPARATOR))?;
        Some(folder.join(rest))
    });
    inside.unwrap_or_else(|| PathBuf::from(name))
}

/// The file's text with this round's fixes applied, and how many, when
/// any apply.
fn fix_report(
    report: &FileReport,
    least_sure: Applicability,
    protocol: &Path,
) -> Option<(PathBuf, String, usize)> {
    let fixes = fixes_of(report, least_sure);
    if fixes.is_empty() {
        return None;
    }
    let text = report.source.text();
    let (fixed, count) = apply(text, &fixes);
    (count > 0 && fixed != text).then(|| (read_from(report, protocol), fixed, count))
}

/// The fixes of a report that `--fix` may make in its file: at most as
/// unsure as `least_sure` (never a suggestion), that fit the text, and, in
/// a file that does not parse, only those of its parse problems. A
/// suppression repaired (its code's typo, its `:`) silences what it was
/// written for only once the file is checked again: until then, the
/// problems it is for are not fixed (a name renamed that a person chose to
/// keep), only the repairs are made.
pub fn fixes_of(report: &FileReport, least_sure: Applicability) -> Vec<&Fix> {
    let least_sure = least_sure.min(Applicability::Unsafe);
    let parses = parses(report);
    let text = report.source.text();
    let fixable = |d: &&Diagnostic| {
        (parses || !d.code.can_be_silenced())
            && d.fix.as_deref().is_some_and(|fix| {
                fix.applicability <= least_sure && !fix.edits.is_empty() && fix.fits(text)
            })
    };
    let repairs = report
        .diagnostics
        .iter()
        .filter(fixable)
        .any(|d| d.code == Code::InvalidSuppression);
    report
        .diagnostics
        .iter()
        .filter(fixable)
        .filter(|d| !repairs || d.code == Code::InvalidSuppression || !d.code.can_be_silenced())
        .filter_map(|d| d.fix.as_deref())
        .collect()
}

/// Whether the file could be read as written: none of the problems that
/// stop a check (its bytes, its YAML or JSON) is in it.
fn parses(report: &FileReport) -> bool {
    !report.diagnostics.iter().any(|d| !d.code.can_be_silenced())
}

/// How much of `report`'s file lies past the first problem that stops it
/// from being read (a YAML syntax error), in bytes, if one does: counted
/// from the end, so that a fix that adds or removes text before it does
/// not move it.
fn left_unread(report: &FileReport) -> Option<usize> {
    let length = report.source.text().len();
    report
        .diagnostics
        .iter()
        .filter(|d| !d.code.can_be_silenced())
        .map(|d| length.saturating_sub(d.span.start as usize))
        .max()
}

/// Whether `file`, checked again, parses no longer or has more errors; a
/// file that did not parse is made better by parsing, whatever its checks
/// then find, or by being read further: the parser reports the first of
/// several syntax errors, so fixing it shows the next, further down.
fn made_worse(before: &[FileReport], after: &[FileReport], file: &Path, protocol: &Path) -> bool {
    let find = |reports: &'_ [FileReport]| -> Option<(Option<usize>, usize)> {
        let report = reports.iter().find(|r| read_from(r, protocol) == file)?;
        Some((left_unread(report), report.count(Severity::Error)))
    };
    match (find(before), find(after)) {
        (Some((Some(was), _)), Some((now, _))) => now.is_some_and(|now| now >= was),
        (Some((None, errors)), Some((stopped, now))) => stopped.is_some() || now > errors,
        // The file is no longer part of the check: a fix never does that.
        (Some(_), None) => true,
        _ => false,
    }
}

/// `text` with each fix whose edits fit applied, in order of place; a fix
/// that overlaps one before it is left whole for the next round. How many
/// were applied.
pub fn apply(text: &str, fixes: &[&Fix]) -> (String, usize) {
    let applied = applicable(text, fixes);
    let count = applied.len();
    let mut taken: Vec<&Edit> = applied.iter().flat_map(|fix| &fix.edits).collect();
    taken.sort_by_key(|edit| (edit.span.start, edit.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for edit in taken {
        let std::ops::Range { start, end } = edit.span.range();
        out.push_str(&text[at..start]);
        out.push_str(&edit.text);
        at = end;
    }
    out.push_str(&text[at..]);
    (out, count)
}

/// The fixes [`apply`] applies: in order of place, each whose edits lie
/// on the text's character boundaries and overlap no edit of a fix before
/// it.
fn applicable<'f>(text: &str, fixes: &[&'f Fix]) -> Vec<&'f Fix> {
    let mut fixes: Vec<&Fix> = fixes.to_vec();
    let first = |fix: &&Fix| fix.edits.iter().map(|e| e.span.start).min();
    fixes.sort_by_key(first);
    let mut taken: Vec<&Edit> = Vec::new();
    let mut applied = Vec::new();
    for fix in fixes {
        let before = taken.len();
        let fits = fix.edits.iter().all(|edit| {
            let std::ops::Range { start, end } = edit.span.range();
            let fits = start <= end
                && end <= text.len()
                && text.is_char_boundary(start)
                && text.is_char_boundary(end)
                && !taken.iter().any(|other| overlap(other, edit));
            if fits {
                taken.push(edit);
            }
            fits
        });
        match fits {
            true => applied.push(fix),
            false => taken.truncate(before),
        }
    }
    applied
}

/// Takes out of `report` the problems whose fixes [`Fixed::of_report`]
/// applies to its text, leaving those it does not (a fix that does not
/// fit, or overlaps one before it): the report as one round of fixes
/// leaves it, without checking the text again. For the baseline's unused
/// entries, each of which is its own problem.
pub fn take_fixed(report: &mut FileReport, least_sure: Applicability) {
    let fixes = fixes_of(report, least_sure);
    // By address: which of the report's own fixes, however many it has.
    let applied: std::collections::HashSet<*const Fix> = applicable(report.source.text(), &fixes)
        .into_iter()
        .map(std::ptr::from_ref)
        .collect();
    report.diagnostics.retain(|d| {
        d.fix
            .as_deref()
            .is_none_or(|fix| !applied.contains(&std::ptr::from_ref(fix)))
    });
}

/// Whether two edits touch the same text, or insert at the same place (in
/// an order nobody chose).
fn overlap(a: &Edit, b: &Edit) -> bool {
    let (a, b) = (a.span.range(), b.span.range());
    (a.start < b.end && b.start < a.end) || (a.is_empty() && b.is_empty() && a.start == b.start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Span;

    fn fix(edits: &[(usize, usize, &str)]) -> Fix {
        Fix {
            title: String::new(),
            edits: edits
                .iter()
                .map(|&(start, end, text)| Edit {
                    span: Span::new(start, end),
                    text: text.to_string(),
                })
                .collect(),
            applicability: Applicability::Safe,
            exact: false,
        }
    }

    #[test]
    fn overlapping_fixes_keep_the_first_whole() {
        let (a, b, c) = (
            fix(&[(0, 2, "X")]),
            fix(&[(1, 3, "Y")]),
            fix(&[(4, 5, "Z")]),
        );
        assert_eq!(apply("abcdef", &[&c, &b, &a]), ("XcdZf".to_string(), 2));
        // A fix whose second edit overlaps is left whole: none of its edits.
        let (a, b) = (fix(&[(0, 1, "X")]), fix(&[(3, 4, "Y"), (0, 2, "Q")]));
        assert_eq!(apply("abcdef", &[&a, &b]), ("Xbcdef".to_string(), 1));
        // Two insertions at one place: the order would be a guess.
        let (a, b) = (fix(&[(2, 2, "X")]), fix(&[(2, 2, "Y")]));
        assert_eq!(apply("abcdef", &[&a, &b]), ("abXcdef".to_string(), 1));
        // A fix that overlaps itself, or lies outside the text or inside a
        // character, is never applied.
        let selfish = fix(&[(0, 3, "X"), (1, 2, "Y")]);
        let outside = fix(&[(5, 9, "X")]);
        let inside = fix(&[(1, 2, "X")]);
        assert_eq!(
            apply("abcdef", &[&selfish, &outside]),
            ("abcdef".to_string(), 0)
        );
        assert_eq!(apply("é", &[&inside]), ("é".to_string(), 0));
    }

    #[test]
    fn only_a_fix_read_off_the_text_replaces_text_with_escapes() {
        use crate::diagnostic::{Code, Diagnostic};
        // A name in a scalar written with escapes has the whole scalar's
        // span: writing a name over it would lose the rest of the scalar.
        let text = "description: Note: see C:\\temp\ntype: \"Ordr\\x5b]\"\n";
        let span = |needle: &str| {
            let at = text.find(needle).expect("needle");
            Span::new(at, at + needle.len())
        };
        let value = span("Note: see C:\\temp");
        let name = span("\"Ordr\\x5b]\"");
        let quoted = Diagnostic::new(Code::UnknownType, value, "quoted").with_exact_fix(
            "quote the value",
            vec![Edit {
                span: value,
                text: "'Note: see C:\\temp'".to_string(),
            }],
        );
        let renamed = Diagnostic::new(Code::UnknownType, name, "no such type").with_fix(
            "change to `Order`",
            vec![Edit {
                span: name,
                text: "Order".to_string(),
            }],
        );
        let (quoted_fix, renamed_fix) = (quoted.fix.as_deref(), renamed.fix.as_deref());
        assert!(quoted_fix.is_some_and(|fix| fix.exact && fix.fits(text)));
        assert!(renamed_fix.is_some_and(|fix| !fix.exact && !fix.fits(text)));
        // One round takes out of the report only the problem it fixed.
        let mut report = FileReport::uncompiled(
            crate::source::Source::new("t.yaml", text),
            vec![quoted, renamed],
        );
        take_fixed(&mut report, Applicability::Unsafe);
        let left: Vec<_> = report.diagnostics.iter().map(|d| &d.message).collect();
        assert_eq!(left, ["no such type"]);
    }

    #[test]
    fn a_fix_that_is_a_guess_is_never_applied() {
        let mut workspace = Workspace::new();
        // `Ordr` is one edit from both `Order` and `Orde`.
        let text = "types:\n  Order:\n    id:\n      type: string\n  Orde:\n    id:\n      type: string\n  Cart:\n    order:\n      type: Ordr\n";
        workspace.insert("protocol.yaml", text);
        let report = &workspace.check_file("protocol.yaml")[0];
        let fixes: Vec<_> = report
            .diagnostics
            .iter()
            .filter_map(|d| d.fix.as_deref())
            .collect();
        assert_eq!(fixes.len(), 1);
        assert_eq!(fixes[0].applicability, Applicability::Suggestion);
        for least_sure in [
            Applicability::Safe,
            Applicability::Unsafe,
            Applicability::Suggestion,
        ] {
            let fixed = workspace.fix("protocol.yaml", least_sure);
            assert_eq!((fixed.applied, fixed.changed()), (0, false));
        }
    }

    #[test]
    fn fixes_run_until_nothing_changes_and_again_changes_nothing() {
        let mut workspace = Workspace::new();
        // Fixing the type leaves the suppression silencing nothing: the
        // second round removes it.
        let text = "types:\n  Order:\n    id:\n      type: strng # agentc-ignore: property-name-case because\n";
        workspace.insert("protocol.yaml", text);
        let fixed = workspace.fix("protocol.yaml", Applicability::Safe);
        assert_eq!(fixed.applied, 2, "{:?}", fixed.files);
        let change = &fixed.files[Path::new("protocol.yaml")];
        assert_eq!(change.before, text);
        assert_eq!(
            change.after,
            "types:\n  Order:\n    id:\n      type: string\n"
        );
        workspace.insert("protocol.yaml", change.after.clone());
        assert!(
            !workspace
                .fix("protocol.yaml", Applicability::Safe)
                .changed()
        );
    }
}

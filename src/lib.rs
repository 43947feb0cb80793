//! agentc: an offline compiler and linter for Octavus agent protocol files.
//!
//! The pipeline is `source → yaml → syntax → model → check → emit`; each
//! stage is a module that returns data and reports problems as
//! [`Diagnostic`]s without stopping, so one run finds every problem. The
//! library never prints: the `agentc` binary and the renderers in
//! [`render`] turn results into text.

pub mod agent;
pub mod cancel;
pub mod check;
pub mod clock;
pub mod codegen;
pub mod config;
pub mod diagnostic;
pub mod diff;
#[cfg(feature = "disk")]
pub mod disk;
pub mod emit;
pub mod files;
pub mod grammar;
#[doc(hidden)]
pub mod incremental;
pub mod init;
#[cfg(feature = "lsp")]
pub mod lsp;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod model;
#[cfg(feature = "disk")]
pub mod project;
pub mod render;
pub mod source;
pub mod span;
pub mod syntax;
#[cfg(test)]
mod testing;
pub mod validate;
pub mod watch;
pub mod workspace;
pub mod yaml;

/// agentc's version (`agentc --version`, the packages' versions).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub use cancel::Cancel;
pub use diagnostic::{Code, Diagnostic, Failure, Label, Severity};
pub use incremental::{Cancelled, Previous};
pub use model::Model;
pub use source::Source;
pub use span::Span;
pub use workspace::Workspace;

use clock::Instant;
pub use diagnostic::Diagnostics;
use std::collections::HashSet;
use std::time::Duration;

/// What was found in one file, whether or not it was compiled (a
/// protocol, or its settings, a prompt, JSON data, a configuration): its
/// source, the model when the file could be read as a protocol, and every
/// diagnostic in source order.
pub struct FileReport {
    pub source: Source,
    pub model: Option<Model>,
    pub diagnostics: Vec<Diagnostic>,
    /// Where the time went (`agentc check --timings`).
    pub timings: Timings,
    /// Whether compiling found no error, as the pipeline judged it, before
    /// a configuration or an `agentc-ignore` comment changed a severity:
    /// what emitting, generating and diffing need of the model, which
    /// assume every name resolves and no type is recursive.
    pub sound: bool,
    /// Where a protocol's entries are, for compiling it again after an
    /// edit ([`compile_again`]).
    layout: Option<Box<incremental::Layout>>,
    /// The last compile of this file that can be reused, when this one
    /// cannot (a YAML mistake being typed).
    earlier: Option<Box<Previous>>,
}

/// Time spent in each phase of checking a file: reading it from disk,
/// parsing its YAML, lowering that to the model, checking the model (and,
/// for an agent folder, the files around it), and the targets' checks
/// (`--target`), which run the emitters.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    pub read: Duration,
    pub parse: Duration,
    pub lower: Duration,
    pub check: Duration,
    pub emit: Duration,
}

impl Timings {
    pub fn total(&self) -> Duration {
        self.read + self.parse + self.lower + self.check + self.emit
    }
}

impl std::ops::AddAssign for Timings {
    fn add_assign(&mut self, other: Timings) {
        self.read += other.read;
        self.parse += other.parse;
        self.lower += other.lower;
        self.check += other.check;
        self.emit += other.emit;
    }
}

impl std::iter::Sum for Timings {
    fn sum<I: Iterator<Item = Timings>>(iter: I) -> Timings {
        let mut total = Timings::default();
        for timings in iter {
            total += timings;
        }
        total
    }
}

impl FileReport {
    /// The report of a file that was not compiled as a protocol (settings,
    /// a prompt, JSON data, a configuration, or a protocol that could not
    /// be read as text): its source and what was found in it.
    pub fn uncompiled(source: Source, diagnostics: Vec<Diagnostic>) -> FileReport {
        FileReport {
            source,
            model: None,
            diagnostics,
            timings: Timings::default(),
            sound: false,
            layout: None,
            earlier: None,
        }
    }

    /// The model, when compiling found no error ([`FileReport::sound`]),
    /// whatever a configuration later made of the diagnostics.
    pub fn sound_model(&self) -> Option<&Model> {
        self.model.as_ref().filter(|_| self.sound)
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Adds diagnostics found after compiling (by a target, say), keeping
    /// source order.
    pub fn add(&mut self, diagnostics: Diagnostics) {
        self.diagnostics.extend(diagnostics.into_vec());
        order(&mut self.diagnostics);
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }
}

/// Compiles a file's bytes: decoding, YAML, syntax, model and checks.
/// Bytes given by value (a file just read) are not copied.
pub fn compile(name: &str, bytes: impl Into<Vec<u8>>) -> FileReport {
    let (source, problem) = source::decode(name, bytes);
    match problem {
        Some(diagnostic) => FileReport::uncompiled(source, vec![diagnostic]),
        None => compile_source(source),
    }
}

/// Compiles text that is already a [`Source`].
pub fn compile_source(source: Source) -> FileReport {
    match compile_source_unless(source, Cancel::never()) {
        Ok(report) => report,
        // Never asked to stop, it is never stopped: this only closes the match.
        Err(source) => FileReport::uncompiled(source, Vec::new()),
    }
}

/// [`compile_source`], asking `cancel` between its steps (and every few
/// thousand YAML events) whether to go on; once told to stop, the source
/// is given back.
pub(crate) fn compile_source_unless(source: Source, cancel: &Cancel) -> Result<FileReport, Source> {
    let mut diags = Diagnostics::default();
    let mut timings = Timings::default();
    let started = Instant::now();
    // The entries of `types`, `tools`, `triggers` and `handlers` are
    // lowered as they are read, and their subtrees freed at once.
    let mut read = syntax::Taken::default();
    let parsed = yaml::parse_whole_unless(&source, &mut diags, cancel, Some(&mut read));
    if cancel.is_cancelled() {
        drop(parsed);
        return Err(source);
    }
    let reusable = !parsed.anchored && diags.is_empty();
    // Lowering the entries taken while reading counts as lowering.
    timings.parse = started.elapsed().saturating_sub(read.took);
    timings.lower = read.took;
    let Some(root) = parsed.root else {
        let mut diagnostics = diags.into_vec();
        order(&mut diagnostics);
        let mut report = FileReport::uncompiled(source, diagnostics);
        report.timings = timings;
        return Ok(report);
    };
    let started = Instant::now();
    let layout = reusable
        .then(|| incremental::Layout::of(&root, source.text()))
        .flatten();
    // Lowering takes the tree and frees it as it goes: the model holds
    // all that later stages read.
    let protocol = syntax::lower_read(root, read, &mut diags);
    let layout = layout.and_then(|mut layout| layout.keep(&diags).then(|| Box::new(layout)));
    timings.lower += started.elapsed();
    if cancel.is_cancelled() {
        return Err(source);
    }
    Ok(checked(source, protocol, diags, timings, layout, None))
}

/// Compiles a file's new text, reusing what compiling its text before an
/// edit left ([`FileReport::into_previous`]). The report is the one
/// [`compile_source`] gives, diagnostic for diagnostic; when the edit is
/// inside one entry of `types`, `tools`, `triggers` or `handlers`, only
/// that entry is read and lowered again, and only the types whose checks
/// read what the edit changed are checked again.
///
/// ```
/// let before = agentc::compile("p.yaml", "types:\n  A:\n    id: { type: string }\n");
/// let previous = before.into_previous();
/// let text = "types:\n  A:\n    id: { type: strin }\n";
/// let after = agentc::compile_again(previous, agentc::Source::new("p.yaml", text));
/// assert_eq!(after.diagnostics[0].code, agentc::Code::UnknownType);
/// ```
pub fn compile_again(previous: Option<Previous>, source: Source) -> FileReport {
    incremental::again(previous, source).0
}

/// [`compile_again`], for a caller that may stop wanting the result
/// before it is ready (the language server, when the text changes again).
/// An edit the compile before can take in place is one frame's work and
/// always runs to its end; a compile from nothing asks `cancel` between
/// its steps and, once told to stop, gives back what it was given
/// ([`Cancelled`]), the compile before still whole for the next text.
///
/// ```
/// use agentc::cancel::Cancel;
///
/// let text = "types:\n  A:\n    id: { type: string }\n";
/// let stop = || true;
/// let stopped = agentc::compile_again_unless(None, agentc::Source::new("p.yaml", text), &Cancel::when(&stop));
/// let given_back = stopped.err().expect("stopped at its first step");
/// assert_eq!(given_back.source.text(), text);
/// ```
pub fn compile_again_unless(
    previous: Option<Previous>,
    source: Source,
    cancel: &Cancel,
) -> Result<FileReport, Cancelled> {
    incremental::again_unless(previous, source, cancel).map(|(report, _)| report)
}

/// The last steps of a compile, from the lowered protocol: its model,
/// the checks, and the report.
fn checked(
    source: Source,
    protocol: syntax::Protocol,
    mut diags: Diagnostics,
    mut timings: Timings,
    mut layout: Option<Box<incremental::Layout>>,
    again: Option<(model::Earlier, model::Edit)>,
) -> FileReport {
    let started = Instant::now();
    let (model, edit) = match again {
        Some((earlier, edit)) => (Model::again(protocol, earlier, &edit), Some(edit)),
        None => (Model::new(protocol), None),
    };
    timings.lower += started.elapsed();
    let started = Instant::now();
    // A compile the next edit may start from keeps what the types' checks
    // found.
    let memo = layout.as_mut().and_then(|layout| layout.checks.take());
    let (memo, types_checked) = check::check_again(
        &model,
        &source,
        &mut diags,
        memo.zip(edit.as_ref()),
        layout.is_some(),
    );
    if let Some(layout) = &mut layout {
        layout.checks = memo;
        layout.types_checked = types_checked;
    }
    let mut diagnostics = diags.into_vec();
    order(&mut diagnostics);
    timings.check = started.elapsed();
    let sound = !diagnostics.iter().any(Diagnostic::is_error);
    FileReport {
        source,
        model: Some(model),
        diagnostics,
        timings,
        sound,
        layout,
        earlier: None,
    }
}

/// Adds what each target cannot express or would reject (`agentc check
/// --target`). Targets check only a protocol without errors: the emitters
/// assume every name resolves and no type is recursive.
pub fn check_targets(compilation: &mut FileReport, targets: &[emit::Target]) {
    if targets.is_empty() || compilation.has_errors() {
        return;
    }
    let Some(model) = compilation.sound_model() else {
        return;
    };
    let started = Instant::now();
    let mut diags = Diagnostics::default();
    for &target in targets {
        emit::check(model, target, &mut diags);
    }
    compilation.add(diags);
    compilation.timings.emit += started.elapsed();
}

/// Puts diagnostics in source order and drops repeats.
pub(crate) fn order(diagnostics: &mut Vec<Diagnostic>) {
    // Source order reads top to bottom; the sort is stable, so diagnostics
    // at one place keep the order the pipeline found them in.
    diagnostics.sort_by_key(|d| d.span.start);
    // A YAML alias repeats its anchor's content, spans included, so a
    // problem inside it would be found once per use; report it once. A
    // prompt used from two places is checked once per use. Repeats start
    // at the same place, so after the sort they are in one run of equal
    // starts, and only such runs are searched.
    let mut keep = vec![true; diagnostics.len()];
    let mut run = 0;
    while run < diagnostics.len() {
        let start = diagnostics[run].span.start;
        let end = run + diagnostics[run..].partition_point(|d| d.span.start == start);
        if end - run > 1 {
            let mut seen = HashSet::new();
            for (i, d) in diagnostics[run..end].iter().enumerate() {
                // A contract change is one per contract, even where two
                // contracts share the changed type.
                let contract = d.change.as_ref().map(|c| c.contract.as_str());
                keep[run + i] = seen.insert((d.code, d.span.end, d.message.as_str(), contract));
            }
        }
        run = end;
    }
    let mut keep = keep.into_iter();
    diagnostics.retain(|_| keep.next().unwrap_or(true));
}

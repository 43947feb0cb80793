//! Human output, drawn by miette: the message, the code, the source lines
//! with the primary span and its labels, the help and the notes.
//!
//! miette is not given the file: each diagnostic is drawn from an
//! [`Excerpt`] of it (`excerpt.rs`), which answers from the file's line
//! index, cuts long lines down to windows around the labels and clips spans
//! over many lines, so that a diagnostic costs what it draws, wherever it
//! is in the file, and draws a bounded amount whatever the file holds.
//! Words longer than [`LONG_WORD`] in the message, the labels and the help
//! (a megabyte-long name quoted in a message) are shortened the same way;
//! the machine formats keep them whole.

mod excerpt;
#[cfg(test)]
mod tests;

use crate::FileReport;
use crate::diagnostic::{Diagnostic, Severity};
use excerpt::{Excerpt, Label};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};
use std::borrow::Cow;
use std::fmt;

/// How to draw: colors for a terminal, none for files, pipes and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Color,
    Plain,
}

/// Every diagnostic of one file, each followed by a blank line.
pub fn render(file: &FileReport, style: Style) -> String {
    render_at_most(file, style, usize::MAX).0
}

/// The first `max` diagnostics of one file, in order, each followed by a
/// blank line, and how many were left out. Each diagnostic costs what it
/// draws, not the size of the file, so drawing the first hundred of a
/// flood of a million is quick; the caller says how many were left out.
pub fn render_at_most(file: &FileReport, style: Style, max: usize) -> (String, usize) {
    let shown = file.diagnostics.len().min(max);
    let handler = handler(style);
    let mut out = String::new();
    for diagnostic in file.diagnostics.iter().take(shown) {
        let excerpt = Excerpt::new(&file.source, labels(diagnostic));
        let report = MietteDiagnostic::new(diagnostic, &excerpt, excerpt.labels());
        draw(&handler, &mut out, &report);
    }
    (out, file.diagnostics.len() - shown)
}

/// How many problems of one file the human format draws unless told
/// (`agentc check --max-diagnostics`): a file with more usually has one
/// cause, and a flood of thousands would bury the summary.
pub const DEFAULT_MAX_DIAGNOSTICS: usize = 50;

/// The first `max` diagnostics of one file, as [`render_at_most`] draws
/// them, then, when some were left out, a line saying how many and how to
/// see them all: what the command line prints.
pub fn render_capped(file: &FileReport, style: Style, max: usize) -> String {
    let (mut out, left_out) = render_at_most(file, style, max);
    if left_out > 0 {
        let all = file.diagnostics.len();
        out.push_str(&format!(
            "… and {} more {} in {}, not drawn: `--max-diagnostics {all}` draws them all, \
             `--format short` lists them a line each\n\n",
            crate::diagnostic::thousands(left_out),
            if left_out == 1 { "problem" } else { "problems" },
            super::inert(file.source.name()),
        ));
    }
    out
}

/// [`summary`], with the notices shown (`--level info`) counted after:
/// "no problems, 2 notices", "1 warning, 1 notice".
pub fn summary_with_notices(errors: usize, warnings: usize, notices: usize) -> String {
    let counts = summary(errors, warnings);
    match notices {
        0 => counts,
        1 => format!("{counts}, 1 notice"),
        n => format!("{counts}, {n} notices"),
    }
}

/// "2 errors, 1 warning" or "no problems".
pub fn summary(errors: usize, warnings: usize) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (errors, warnings) {
        (0, 0) => "no problems".to_string(),
        (e, 0) => plural(e, "error"),
        (0, w) => plural(w, "warning"),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    }
}

fn handler(style: Style) -> GraphicalReportHandler {
    let theme = match style {
        Style::Color => GraphicalTheme::unicode(),
        Style::Plain => GraphicalTheme::unicode_nocolor(),
    };
    // A fixed width keeps output the same on every terminal.
    GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false)
        .with_urls(false)
}

fn draw(handler: &GraphicalReportHandler, out: &mut String, report: &MietteDiagnostic<'_>) {
    if handler.render_report(out, report).is_err() {
        // miette writes into a String, which cannot fail; keep the message regardless.
        out.push_str(&report.message);
    }
    out.push('\n');
}

/// The diagnostic's span and labels, with their texts as drawn. In JSON
/// data, the primary label is the value's JSON pointer.
fn labels(d: &Diagnostic) -> Vec<Label> {
    let pointer = d.pointer.as_deref().map(|p| match p {
        "" => "(root)".to_string(),
        p => drawn(p),
    });
    let primary = Label {
        span: d.span.range(),
        text: pointer,
        primary: true,
    };
    let secondary = d.labels.iter().map(|label| Label {
        span: label.span.range(),
        text: Some(drawn(&label.message)),
        primary: false,
    });
    std::iter::once(primary).chain(secondary).collect()
}

/// Words (runs of characters other than white space) longer than this many
/// characters are drawn by their first and last [`WORD_END`] characters with
/// `…` between. Names in messages are short; one this long is generated or
/// hostile input, and miette would wrap a megabyte-long name into ten
/// thousand lines of message (or draw it on one line in a label).
const LONG_WORD: usize = 200;

/// Characters kept at each end of a shortened word: a shortened word fits
/// on one line of the message, which miette wraps at 100 columns.
const WORD_END: usize = 40;

/// `text` with its words over [`LONG_WORD`] characters shortened.
fn shorten_long_words(text: &str) -> Cow<'_, str> {
    if text.len() <= LONG_WORD {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut copied = 0;
    let mut word: Option<usize> = None;
    let boundaries = text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')));
    for (at, c) in boundaries {
        if !c.is_whitespace() {
            word.get_or_insert(at);
            continue;
        }
        let Some(start) = word.take() else {
            continue;
        };
        let long = &text[start..at];
        if long.len() > LONG_WORD && long.chars().nth(LONG_WORD).is_some() {
            out.push_str(&text[copied..start]);
            out.push_str(&long[..excerpt::forward(long, 0, WORD_END)]);
            out.push('…');
            out.push_str(&long[excerpt::back(long, long.len(), WORD_END)..]);
            copied = at;
        }
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// A text from the input as drawn: inert (control characters escaped, see
/// [`super::inert`]), with its long words shortened.
fn drawn(text: &str) -> String {
    shorten_long_words(&super::inert(text)).into_owned()
}

/// One diagnostic as miette reads it: its texts as drawn, and the source
/// its labels point into.
struct MietteDiagnostic<'a> {
    diagnostic: &'a Diagnostic,
    message: Cow<'a, str>,
    help: Option<String>,
    source: &'a dyn SourceCode,
    labels: &'a [LabeledSpan],
}

impl<'a> MietteDiagnostic<'a> {
    fn new(
        diagnostic: &'a Diagnostic,
        source: &'a dyn SourceCode,
        labels: &'a [LabeledSpan],
    ) -> MietteDiagnostic<'a> {
        MietteDiagnostic {
            diagnostic,
            message: Cow::Owned(drawn(&diagnostic.message)),
            help: super::help_notes_and_base(diagnostic).map(|help| drawn(&help)),
            source,
            labels,
        }
    }
}

impl fmt::Debug for MietteDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for MietteDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MietteDiagnostic<'_> {}

impl miette::Diagnostic for MietteDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diagnostic.code.name()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_deref()
            .map(|help| Box::new(help) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
}

/// A failure (a path that gave nothing to check), drawn as a diagnostic
/// without source lines, since it has none: its code, the message, the help.
pub fn render_failure(failure: &crate::diagnostic::Failure, style: Style) -> String {
    let failure = crate::diagnostic::Failure {
        path: drawn(&failure.path),
        code: failure.code,
        message: drawn(&failure.message),
        help: failure.help.as_deref().map(drawn),
    };
    let failure = &failure;
    let mut out = String::new();
    if handler(style)
        .render_report(&mut out, &Unlocated(failure))
        .is_err()
    {
        out.push_str(&failure.message);
    }
    out.push('\n');
    out
}

struct Unlocated<'a>(&'a crate::diagnostic::Failure);

impl fmt::Debug for Unlocated<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl fmt::Display for Unlocated<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Unlocated<'_> {}

impl miette::Diagnostic for Unlocated<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.0.code.name()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Error)
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.0
            .help
            .as_ref()
            .map(|help| Box::new(help) as Box<dyn fmt::Display>)
    }
}

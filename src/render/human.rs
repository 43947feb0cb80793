//! Human output, drawn by miette: the message, the code, the source lines
//! with the primary span and its labels, the help and the notes.

use crate::Compilation;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};
use std::fmt;

/// How to draw: colors for a terminal, none for files, pipes and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Color,
    Plain,
}

/// Every diagnostic of one file, each followed by a blank line.
pub fn render(file: &Compilation, style: Style) -> String {
    if file.diagnostics.is_empty() {
        return String::new();
    }
    let theme = match style {
        Style::Color => GraphicalTheme::unicode(),
        Style::Plain => GraphicalTheme::unicode_nocolor(),
    };
    // A fixed width keeps output the same on every terminal.
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false)
        .with_urls(false);
    let named = NamedSource::new(file.source.name(), file.source.text().to_string());
    let mut out = String::new();
    for diagnostic in &file.diagnostics {
        let report = Report {
            diagnostic,
            source: &file.source,
            named: &named,
        };
        if handler.render_report(&mut out, &report).is_err() {
            // miette writes into a String, which cannot fail; keep the message regardless.
            out.push_str(&diagnostic.message);
        }
        out.push('\n');
    }
    out
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

struct Report<'a> {
    diagnostic: &'a Diagnostic,
    source: &'a Source,
    named: &'a NamedSource<String>,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
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
        let d = self.diagnostic;
        let notes = d.notes.iter().map(|n| format!("note: {n}"));
        let text: Vec<String> = d.help.iter().cloned().chain(notes).collect();
        (!text.is_empty()).then(|| Box::new(text.join("\n")) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.named)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let d = self.diagnostic;
        // In JSON data, the primary label is the value's JSON pointer.
        let pointer = d.pointer.as_deref().map(|p| match p {
            "" => "(root)".to_string(),
            p => p.to_string(),
        });
        let primary = LabeledSpan::new_primary_with_span(pointer, self.span(d.span));
        let secondary = d.labels.iter().map(|label| {
            LabeledSpan::new_with_span(Some(label.message.clone()), self.span(label.span))
        });
        Some(Box::new(std::iter::once(primary).chain(secondary)))
    }
}

impl Report<'_> {
    /// A miette span, clamped to the text so drawing never goes past it.
    fn span(&self, span: crate::Span) -> SourceSpan {
        let len = self.source.text().len();
        let start = (span.start as usize).min(len);
        let end = (span.end as usize).clamp(start, len);
        SourceSpan::new(start.into(), end - start)
    }
}

/// A failure (a path that gave nothing to check), drawn as a diagnostic
/// without source lines, since it has none: its code, the message, the help.
pub fn render_failure(failure: &crate::diagnostic::Failure, style: Style) -> String {
    let theme = match style {
        Style::Color => GraphicalTheme::unicode(),
        Style::Plain => GraphicalTheme::unicode_nocolor(),
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false)
        .with_urls(false);
    let mut out = String::new();
    if handler
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

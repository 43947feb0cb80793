//! The `--format json` contract, version 1 (ARCHITECTURE.md): 1-based
//! lines, columns in Unicode scalar values, exclusive ends.

use crate::FileReport;
use crate::diagnostic::{Applicability, Diagnostic, Failure, Severity, Surface};
use crate::source::Source;
use crate::span::Span;
use serde::Serialize;

/// The whole JSON document: the contract's version, every diagnostic and
/// the summary.
#[derive(Serialize)]
struct JsonDocument<D: Serialize> {
    version: u32,
    diagnostics: D,
    summary: Summary,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDiagnostic<'a> {
    file: &'a str,
    severity: Severity,
    code: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<&'a str>,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    labels: Vec<JsonLabel<'a>>,
    /// A contract change's fields (`agentc diff`), flattened in.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    change: Option<JsonChange<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

/// A fix: its title, how sure it is (`safe`: `agentc check --fix` applies
/// it; `unsafe`: with `--unsafe-fixes`; `suggestion`: a guess,
/// for a person to pick), and its edits, each replacing a range of the
/// diagnostic's file with `text`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonFix<'a> {
    title: &'a str,
    applicability: Applicability,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonEdit<'a> {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonChange<'a> {
    surface: Surface,
    contract: &'a str,
    path: &'a str,
    narrowed: bool,
    widened: bool,
    fingerprint: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    base: Option<JsonBase<'a>>,
}

/// Where a changed node was in the old version.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonBase<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonLabel<'a> {
    message: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
struct Summary {
    files: usize,
    errors: usize,
    warnings: usize,
}

/// The whole JSON document for a run over `files`, pretty-printed.
pub fn render(files: &[FileReport]) -> String {
    super::to_string(|out| write(out, files, &[]))
}

/// Writes the JSON document for a run: every diagnostic of every file, then
/// each failure as a diagnostic of its path at line 1, column 1 (it has no
/// place in any text), counted among the errors. Each diagnostic is written
/// as it is converted, so a flood never sits in memory twice.
pub fn write(
    out: &mut dyn std::io::Write,
    files: &[FileReport],
    failures: &[Failure],
) -> std::io::Result<()> {
    let located = files.iter().flat_map(|file| {
        file.diagnostics
            .iter()
            .map(move |d| diagnostic(&file.source, d))
    });
    let unlocated = failures.iter().map(|f| JsonDiagnostic {
        file: &f.path,
        severity: Severity::Error,
        code: f.code.name(),
        message: &f.message,
        pointer: None,
        line: 1,
        column: 1,
        end_line: 1,
        end_column: 1,
        help: f.help.clone(),
        labels: Vec::new(),
        change: None,
        fix: None,
    });
    let report = JsonDocument {
        version: 1,
        diagnostics: super::Streamed::new(located.chain(unlocated)),
        summary: Summary {
            files: files.len(),
            errors: super::errors(files, failures),
            warnings: super::warnings(files),
        },
    };
    serde_json::to_writer_pretty(&mut *out, &report).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

fn diagnostic<'a>(source: &'a Source, d: &'a Diagnostic) -> JsonDiagnostic<'a> {
    let (line, column, end_line, end_column) = range(source, d.span);
    let help = super::help_and_notes(d);
    JsonDiagnostic {
        file: source.name(),
        severity: d.severity,
        code: d.code.name(),
        message: &d.message,
        pointer: d.pointer.as_deref(),
        line,
        column,
        end_line,
        end_column,
        help,
        labels: d
            .labels
            .iter()
            .map(|label| {
                let (line, column, end_line, end_column) = range(source, label.span);
                JsonLabel {
                    message: &label.message,
                    line,
                    column,
                    end_line,
                    end_column,
                }
            })
            .collect(),
        change: d.change.as_deref().map(|c| JsonChange {
            surface: c.surface,
            contract: &c.contract,
            path: &c.path,
            narrowed: c.narrowed,
            widened: c.widened,
            fingerprint: &c.fingerprint,
            base: c.base.as_ref().map(|b| JsonBase {
                file: &b.file,
                line: b.line,
                column: b.column,
                end_line: b.end_line,
                end_column: b.end_column,
            }),
        }),
        fix: d.fix.as_deref().map(|fix| JsonFix {
            title: &fix.title,
            applicability: fix.applicability,
            edits: fix
                .edits
                .iter()
                .map(|edit| {
                    let (line, column, end_line, end_column) = range(source, edit.span);
                    JsonEdit {
                        line,
                        column,
                        end_line,
                        end_column,
                        text: &edit.text,
                    }
                })
                .collect(),
        }),
    }
}

/// 1-based line and column of the start, then of the (exclusive) end.
pub(super) fn range(source: &Source, span: Span) -> (usize, usize, usize, usize) {
    let start = source.position(span.start as usize);
    let end = source.position(span.end as usize);
    (start.line, start.column, end.line, end.column)
}

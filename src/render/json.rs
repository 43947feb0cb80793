//! The `--format json` contract, version 1 (ARCHITECTURE.md): 1-based
//! lines, columns in Unicode scalar values, exclusive ends.

use crate::Compilation;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::{Source, Span};
use serde::Serialize;

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    diagnostics: Vec<JsonDiagnostic<'a>>,
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
pub fn render(files: &[Compilation]) -> String {
    let diagnostics = files
        .iter()
        .flat_map(|file| {
            file.diagnostics
                .iter()
                .map(move |d| diagnostic(&file.source, d))
        })
        .collect();
    let report = Report {
        version: 1,
        diagnostics,
        summary: Summary {
            files: files.len(),
            errors: files.iter().map(|f| f.count(Severity::Error)).sum(),
            warnings: files.iter().map(|f| f.count(Severity::Warning)).sum(),
        },
    };
    // Serializing plain structs of strings and numbers cannot fail.
    serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
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
    }
}

/// 1-based line and column of the start, then of the (exclusive) end.
pub(super) fn range(source: &Source, span: Span) -> (usize, usize, usize, usize) {
    let start = source.position(span.start as usize);
    let end = source.position(span.end as usize);
    (start.line, start.column, end.line, end.column)
}

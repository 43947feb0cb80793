//! `--format markdown`: a report to post as a pull-request comment. Each
//! file is a section; a contract diff's findings are grouped by the
//! contract they change (a changelog), other problems follow as a list.
//! Text from the protocol is written inside code spans, with backticks
//! and line breaks taken out, so a name cannot start markup of its own.

use crate::FileReport;
use crate::diagnostic::{Diagnostic, Failure, Severity};
use std::io::Write;

/// The whole report for a run over `files`.
pub fn render(files: &[FileReport]) -> String {
    super::to_string(|out| write(out, files, &[]))
}

/// Writes the report: a heading with the counts, then each file with
/// diagnostics, then the failures.
pub fn write(
    out: &mut dyn Write,
    files: &[FileReport],
    failures: &[Failure],
) -> std::io::Result<()> {
    let errors = super::errors(files, failures);
    let warnings = super::warnings(files);
    let infos: usize = files.iter().map(|f| f.count(Severity::Info)).sum();
    writeln!(out, "### agentc\n")?;
    let mut counts = vec![plural(errors, "error"), plural(warnings, "warning")];
    if infos > 0 {
        counts.push(plural(infos, "compatible change"));
    }
    writeln!(out, "{}\n", counts.join(", "))?;
    for file in files.iter().filter(|f| !f.diagnostics.is_empty()) {
        writeln!(out, "#### {}\n", code(file.source.name()))?;
        // Contracts in the order their first finding appears.
        let mut contracts: Vec<&str> = Vec::new();
        for d in &file.diagnostics {
            if let Some(change) = &d.change
                && !contracts.contains(&change.contract.as_str())
            {
                contracts.push(&change.contract);
            }
        }
        for contract in contracts {
            writeln!(out, "**{}**\n", inline(contract))?;
            for d in file
                .diagnostics
                .iter()
                .filter(|d| d.change.as_ref().is_some_and(|c| c.contract == contract))
            {
                item(out, file, d)?;
            }
            writeln!(out)?;
        }
        let others: Vec<&Diagnostic> = file
            .diagnostics
            .iter()
            .filter(|d| d.change.is_none())
            .collect();
        if !others.is_empty() {
            for d in others {
                item(out, file, d)?;
            }
            writeln!(out)?;
        }
    }
    for failure in failures {
        writeln!(
            out,
            "- **error** {} {}: {}",
            code(failure.code.name()),
            code(&failure.path),
            one_line(&failure.message)
        )?;
    }
    Ok(())
}

/// One diagnostic as a list item, with its help and notes below it.
fn item(out: &mut dyn Write, file: &FileReport, d: &Diagnostic) -> std::io::Result<()> {
    let (line, _, _, _) = super::json::range(&file.source, d.span);
    let mut text = format!(
        "- **{}** {} (line {line}): {}",
        d.severity.as_str(),
        code(d.code.name()),
        inline(&d.message)
    );
    if let Some(base) = d.change.as_ref().and_then(|c| c.base.as_ref()) {
        text.push_str(&format!(" (was {})", code(&base.to_string())));
    }
    writeln!(out, "{text}")?;
    if let Some(help) = &d.help {
        writeln!(out, "  - {}", inline(help))?;
    }
    for note in &d.notes {
        writeln!(out, "  - {}", inline(note))?;
    }
    Ok(())
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// Text as a code span.
fn code(text: &str) -> String {
    format!("`{}`", one_line(text).replace('`', "'"))
}

/// A message as Markdown: its `code spans` kept, everything else with the
/// characters that start markup escaped.
fn inline(text: &str) -> String {
    let text = one_line(text);
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(c);
        } else if !in_code && matches!(c, '\\' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#') {
            out.push('\\');
            out.push(c);
        } else {
            out.push(c);
        }
    }
    if in_code {
        out.push('`');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_keep_code_spans_and_escape_markup() {
        assert_eq!(inline("tool `a_b` [x] *y*"), "tool `a_b` \\[x\\] \\*y\\*");
        assert_eq!(inline("open `span"), "open `span`");
        assert_eq!(code("a`b\nc"), "`a'b c`");
    }
}

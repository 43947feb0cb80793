//! `--format markdown`: a report to post as a pull-request comment. Each
//! file is a section; a contract diff's findings are grouped by the
//! contract they change (a changelog), other problems follow as a list.
//! Text from the protocol is written inside code spans, with backticks
//! and line breaks taken out, so a name cannot start markup of its own.

use super::one_line;
use crate::FileReport;
use crate::diagnostic::{Diagnostic, Failure, Severity};
use std::collections::HashMap;
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
    let counts = super::human::summary_with_notices(errors, warnings, infos);
    writeln!(out, "{counts}\n")?;
    for file in files.iter().filter(|f| !f.diagnostics.is_empty()) {
        writeln!(out, "#### {}\n", code(file.source.name()))?;
        // Contracts in the order their first finding appears, each with its
        // findings: one pass, so a flood stays linear.
        let mut contracts: Vec<(&str, Vec<&Diagnostic>)> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut others: Vec<&Diagnostic> = Vec::new();
        for d in &file.diagnostics {
            let Some(change) = &d.change else {
                others.push(d);
                continue;
            };
            let contract = change.contract.as_str();
            let i = *index.entry(contract).or_insert_with(|| {
                contracts.push((contract, Vec::new()));
                contracts.len() - 1
            });
            contracts[i].1.push(d);
        }
        for (contract, found) in contracts {
            writeln!(out, "**{}**\n", inline(contract))?;
            for d in found {
                item(out, file, d)?;
            }
            writeln!(out)?;
        }
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

/// Text as a code span.
fn code(text: &str) -> String {
    format!("`{}`", one_line(text).replace('`', "'"))
}

/// A message as Markdown: its `code spans` kept, everything else with the
/// characters that start markup escaped. A name with a backtick of its own
/// ends its code span early, so what follows it is text: a `@` or `#`
/// there is followed by a word joiner (U+2060, invisible), which a
/// backslash alone does not do, so that it mentions no one and links no
/// issue from the pull request's comment.
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
            if c == '#' {
                out.push('\u{2060}');
            }
        } else if !in_code && c == '@' {
            out.push(c);
            out.push('\u{2060}');
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
        // A value with a backtick of its own ends the span: what follows
        // it mentions no one and links no issue.
        let message = inline("`p` can now be `x` @octocat #12 <img>`");
        assert_eq!(
            message,
            "`p` can now be `x` @\u{2060}octocat \\#\u{2060}12 \\<img\\>``"
        );
    }
}

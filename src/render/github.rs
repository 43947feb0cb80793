//! `--format github`: GitHub Actions workflow commands, which the runner
//! turns into annotations on the pull request's diff:
//! `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=CODE::message`.
//! Errors are `error`, warnings `warning`, information `notice`. The help
//! and notes follow the message on their own lines.
//!
//! The runner reads `%`, CR and LF escaped in the message, and also `:` and
//! `,` in property values (its `escapeData` and `escapeProperty`). Every
//! other control character from the input is shown escaped (`\u{1b}`), as
//! in the human format: the job's log shows what is written.

use crate::FileReport;
use crate::diagnostic::{Failure, Severity};
use std::io::Write;

/// One workflow command per diagnostic of every file.
pub fn render(files: &[FileReport]) -> String {
    super::to_string(|out| write(out, files, &[]))
}

/// Writes one workflow command per diagnostic of every file, then one per
/// failure, without a position (the runner shows it on the job's summary).
pub fn write(
    out: &mut dyn Write,
    files: &[FileReport],
    failures: &[Failure],
) -> std::io::Result<()> {
    for file in files {
        for d in &file.diagnostics {
            let (line, column, end_line, end_column) = super::json::range(&file.source, d.span);
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut message = d.message.clone();
            if let Some(help) = super::help_notes_and_base(d) {
                message.push('\n');
                message.push_str(&help);
            }
            writeln!(
                out,
                "::{command} file={},line={line},col={column},endLine={end_line},endColumn={end_column},title={}::{}",
                property(file.source.name()),
                property(d.code.name()),
                data(&message),
            )?;
        }
    }
    for failure in failures {
        // The message names the path.
        let mut message = failure.message.clone();
        if let Some(help) = &failure.help {
            message.push('\n');
            message.push_str(help);
        }
        writeln!(
            out,
            "::error title={}::{}",
            property(failure.code.name()),
            data(&message)
        )?;
    }
    Ok(())
}

/// A message: `%`, CR and LF escaped, and inert (the log shows it).
fn data(text: &str) -> String {
    super::inert(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value: as a message, and `:` and `,` too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_the_runner_reads_them() {
        assert_eq!(data("100% sure\nnext"), "100%25 sure%0Anext");
        // A carriage return or an escape from the input is shown, not obeyed.
        assert_eq!(data("a\rb\u{1b}[2J"), "a\\u{d}b\\u{1b}[2J");
        assert_eq!(property("a:b,c%d\n"), "a%3Ab%2Cc%25d%0A");
        // `%` first, so an escape is never escaped twice.
        assert_eq!(data("%0A"), "%250A");
    }
}

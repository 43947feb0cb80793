//! `--format short`: one line per diagnostic, `file:line:col: severity[code]
//! message`, as compilers print them, for editors' quickfix lists and for
//! grep. Columns count Unicode scalar values, as in the JSON contract. A
//! failure, which has no position, is `path: error[code] message`.

use crate::FileReport;
use crate::diagnostic::Failure;
use std::io::Write;

/// Every diagnostic of every file, one per line.
pub fn render(files: &[FileReport]) -> String {
    super::to_string(|out| write(out, files, &[]))
}

/// Writes every diagnostic of every file, then every failure, a line each.
pub fn write(
    out: &mut dyn Write,
    files: &[FileReport],
    failures: &[Failure],
) -> std::io::Result<()> {
    for file in files {
        for d in &file.diagnostics {
            let (line, column, _, _) = super::json::range(&file.source, d.span);
            writeln!(
                out,
                "{}:{line}:{column}: {}[{}] {}",
                file.source.name(),
                d.severity.as_str(),
                d.code.name(),
                one_line(&d.message),
            )?;
        }
    }
    for failure in failures {
        writeln!(
            out,
            "{}: error[{}] {}",
            failure.path,
            failure.code.name(),
            one_line(&failure.message)
        )?;
    }
    Ok(())
}

/// A message on one line: a line break would start what reads as another
/// diagnostic.
fn one_line(message: &str) -> String {
    message.replace(['\r', '\n'], " ")
}

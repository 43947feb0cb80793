//! `--format short`: one line per diagnostic, `file:line:col: severity[code]
//! message`, as compilers print them, for editors' quickfix lists and for
//! grep. Columns count Unicode scalar values, as in the JSON contract. A
//! failure, which has no position, is `path: error[code] message`; a
//! contract change ends with where it was in the old version, `(was:
//! origin/main:agents/shop/protocol.yaml:12:5)`.

use super::one_line;
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
            // A contract change says where it was in the old version.
            let was = match d.change.as_ref().and_then(|c| c.base.as_ref()) {
                Some(base) => format!(" (was: {})", one_line(&base.to_string())),
                None => String::new(),
            };
            writeln!(
                out,
                "{}:{line}:{column}: {}[{}] {}{was}",
                one_line(file.source.name()),
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
            one_line(&failure.path),
            failure.code.name(),
            one_line(&failure.message)
        )?;
    }
    Ok(())
}

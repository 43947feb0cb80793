//! `--format short`: one line per diagnostic, `file:line:col: severity[code]
//! message`, as compilers print them, for editors' quickfix lists and for
//! grep. Columns count Unicode scalar values, as in the JSON contract.

use crate::Compilation;

/// Every diagnostic of every file, one per line.
pub fn render(files: &[Compilation]) -> String {
    let mut out = String::new();
    for file in files {
        for d in &file.diagnostics {
            let (line, column, _, _) = super::json::range(&file.source, d.span);
            out.push_str(&format!(
                "{}:{line}:{column}: {}[{}] {}\n",
                file.source.name(),
                d.severity.as_str(),
                d.code.name(),
                one_line(&d.message),
            ));
        }
    }
    out
}

/// A message on one line: a line break would start what reads as another
/// diagnostic.
fn one_line(message: &str) -> String {
    message.replace(['\r', '\n'], " ")
}

//! `agentc explain`: a diagnostic code's explanation, or the list of codes.

use super::output::print;
use super::output::say;
use agentc::Code;
use std::process::ExitCode;

/// Prints the explanation of the code named `code`, or without one the
/// list of every code; exit 2 for a name that is no code.
pub(crate) fn run(code: Option<&str>) -> ExitCode {
    let Some(name) = code else {
        let width = Code::ALL.iter().map(|c| c.name().len()).max().unwrap_or(0);
        let list: String = Code::ALL
            .iter()
            .map(|c| {
                format!(
                    "{:width$}  {:7}  {}\n",
                    c.name(),
                    c.severity().as_str(),
                    c.summary()
                )
            })
            .collect();
        print(&list);
        return ExitCode::SUCCESS;
    };
    match Code::from_name(name) {
        Some(code) => {
            print(&agentc::diagnostic::page(code));
            ExitCode::SUCCESS
        }
        None => {
            let help = match Code::nearest(name, Code::ALL.iter().copied()) {
                Some(near) => format!("did you mean `{near}`?"),
                None => "run `agentc explain` to list every code".to_string(),
            };
            // Codes are short names; whatever was given is shown as far
            // as one could be.
            let shown = agentc::yaml::abbreviate(name);
            say!("error: no diagnostic code `{shown}` ({help})");
            ExitCode::from(2)
        }
    }
}

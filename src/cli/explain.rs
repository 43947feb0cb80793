//! `agentc explain`: a diagnostic code's explanation, or the list of codes.

use super::output::print;
use super::output::say;
use agentc::Code;
use agentc::diagnostic::Applicability;
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
            print(code.explanation());
            if let Some(fix) = code.fix() {
                print(&format!("\n{}\n", fix_line(fix)));
            }
            ExitCode::SUCCESS
        }
        None => {
            let help = agentc::diagnostic::did_you_mean(name, Code::ALL.iter().map(|c| c.name()))
                .unwrap_or_else(|| "run `agentc explain` to list every code".to_string());
            say!("error: no diagnostic code `{name}` ({help})");
            ExitCode::from(2)
        }
    }
}

/// What `agentc check --fix` does with a code's fixes, under its page.
fn fix_line(fix: Applicability) -> &'static str {
    match fix {
        Applicability::Safe => {
            "Fix: safe. `agentc check --fix` applies it, except where it is a guess (a name more than one edit away, or one of two as near): an editor offers that one, and `--fix` leaves it."
        }
        Applicability::Unsafe => {
            "Fix: unsafe, as it can change what the protocol means. `agentc check --fix --unsafe-fixes` applies it."
        }
        Applicability::Suggestion => "Fix: a suggestion, offered in an editor only.",
    }
}

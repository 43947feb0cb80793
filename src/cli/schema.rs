//! `agentc schema`: the protocol format, as the grammar gives it.

use super::output::print;
use std::process::ExitCode;

/// The format's JSON Schema, for editors; with `reference`, the format
/// reference in Markdown, for people.
pub(crate) fn run(reference: bool) -> ExitCode {
    if reference {
        print(&agentc::grammar::reference());
    } else {
        print(&format!("{:#}\n", agentc::grammar::editor_schema::schema()));
    }
    ExitCode::SUCCESS
}

//! `agentc mcp`: the MCP server on standard input and output.

use super::output::say;
use std::process::ExitCode;

/// Exits with 0 when the client closed the session, 2 when the server
/// could not start or its transport failed.
pub(crate) fn run() -> ExitCode {
    match agentc::mcp::serve_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            say!("error: the MCP server stopped: {error}");
            ExitCode::from(2)
        }
    }
}

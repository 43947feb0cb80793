//! `agentc lsp`: the language server on standard input and output.

use super::output::say;
use std::process::ExitCode;

/// Exits as LSP says: 0 after `shutdown`, 1 without it (whether `exit` or
/// the end of input ended the session); 2 when the server could not write
/// to its client.
pub(crate) fn run() -> ExitCode {
    let (connection, io_threads) = match agentc::lsp::stdio() {
        Ok(started) => started,
        Err(error) => {
            say!("error: the language server could not start: {error}");
            return ExitCode::from(2);
        }
    };
    let served = agentc::lsp::serve(&connection, io_threads.incoming());
    drop(connection);
    let written = io_threads.join().map_err(Into::into);
    match served.and_then(|ended| written.map(|()| ended)) {
        Ok(ended) if ended.shutdown => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(error) => {
            say!("error: the language server stopped: {error}");
            ExitCode::from(2)
        }
    }
}

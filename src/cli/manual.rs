//! The shell completion scripts and the manual page, both written by clap
//! from the arguments in [`super::args`].

use super::args::WholeCli;
use super::output::print;
use clap::CommandFactory;
use std::process::ExitCode;

/// `agentc completions`: the completion script for `shell`.
pub(crate) fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut WholeCli::command(), "agentc", &mut script);
    print(&String::from_utf8_lossy(&script));
    ExitCode::SUCCESS
}

/// `agentc man`: the manual page, in roff.
pub(crate) fn man() -> ExitCode {
    let mut page = Vec::new();
    match clap_mangen::Man::new(WholeCli::command()).render(&mut page) {
        Ok(()) => {
            print(&String::from_utf8_lossy(&page));
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: cannot render the manual page: {error}");
            ExitCode::from(2)
        }
    }
}

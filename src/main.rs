//! The `agentc` command: parses arguments and hands each subcommand to its
//! module under `src/cli/`, which calls the library, renders, and chooses
//! the exit code (0 no errors, 1 errors, 2 usage or I/O error).

mod cli;

use clap::Parser;
use cli::args::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Init(args) => cli::init::run(args),
        Command::Check(args) => cli::check::run(args),
        Command::Diff(args) => cli::diff::run(args),
        Command::Emit(args) => cli::emit::run(args),
        Command::Gen(args) => cli::generate::run(args),
        Command::Validate(args) => cli::validate::run(args),
        Command::Explain { code } => cli::explain::run(code.as_deref()),
        Command::Schema { reference } => cli::schema::run(reference),
        Command::Lsp => cli::lsp::run(),
        Command::Mcp => cli::mcp::run(),
        Command::Completions { shell } => cli::manual::completions(shell),
        Command::Man => cli::manual::man(),
    }
}

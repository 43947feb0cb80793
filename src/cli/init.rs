//! `agentc init`: writes a new agent folder and says what to run next.

use super::args::{Format, InitArgs};
use super::output::{print, report};
use agentc::diagnostic::shell_word;
use agentc::project::init;
use agentc::render::{human, inert};
use std::path::Path;
use std::process::ExitCode;

/// Runs `agentc init`: exit 0 when every file was written, else 2 (the
/// folder cannot name an agent, something is in the way of a file, a file
/// could not be written), with what was written, if anything.
pub(crate) fn run(args: InitArgs) -> ExitCode {
    let init::Written {
        files: written,
        failures,
    } = init::init(&args.folder, args.template);
    let mut out: String = written
        .iter()
        .map(|path| format!("wrote {}\n", inert(&path.display().to_string())))
        .collect();
    if failures.is_empty() {
        out.push_str(&next(&args.folder));
        print(&out);
        return ExitCode::SUCCESS;
    }
    print(&out);
    let done = match written.len() {
        0 => "wrote nothing".to_string(),
        1 => "wrote 1 file".to_string(),
        n => format!("wrote {n} files"),
    };
    report(
        Format::Human,
        &[],
        &failures,
        &done,
        human::DEFAULT_MAX_DIAGNOSTICS,
    );
    ExitCode::from(2)
}

/// The commands to run next: check the folder, and generate its bindings
/// from inside it, where its `agentc.toml` is found.
fn next(folder: &Path) -> String {
    if folder.as_os_str() == "." {
        return "\nnext:\n  agentc check\n  agentc gen\n".to_string();
    }
    let folder = inert(&shell_word(&folder.to_string_lossy())).into_owned();
    format!("\nnext:\n  agentc check {folder}\n  cd {folder} && agentc gen\n")
}

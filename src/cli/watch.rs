//! `--watch` for `agentc check` and `agentc gen`: the run once at the
//! start, then again after each batch of changes the library's watch
//! (`project::watch`) reports, until Ctrl-C.

use super::output::say;
use agentc::project::watch;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Runs `once` at the start and after each batch of changes under
/// `paths`; each run's report is printed, its exit code dropped; the files
/// a run writes (`once` adds them to its list) start no run of their own. The
/// screen is cleared before each run when standard output is a terminal
/// and `clear` (never escapes into a pipe). Exit 0 on Ctrl-C, 2 when the
/// folders cannot be watched.
pub(crate) fn run(
    paths: &[PathBuf],
    clear: bool,
    mut once: impl FnMut(&mut Vec<PathBuf>) -> ExitCode,
) -> ExitCode {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    if let Err(error) = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed)) {
        say!("error: Ctrl-C cannot be caught, so the watch would not stop cleanly: {error}");
        return ExitCode::from(2);
    }
    let clear = clear && std::io::stdout().is_terminal();
    let folders = match watch::folders(paths) {
        Ok(folders) => folders,
        Err(error) => {
            say!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let watched = watch::watch(paths, watch::QUIET, &stop, |changed| {
        if clear {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(b"\x1b[2J\x1b[H").and_then(|()| out.flush());
        }
        if let Some(header) = header(changed) {
            say!("{header}");
        }
        let mut written = Vec::new();
        let _ = once(&mut written);
        let shown: Vec<String> = folders.iter().map(|f| shown(f)).collect();
        say!("watching {} for changes (Ctrl-C stops)", shown.join(", "));
        written
    });
    match watched {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            say!("error: {error}");
            ExitCode::from(2)
        }
    }
}

/// What a run after changes says first: the first file changed, and how
/// many more; nothing for the first run.
fn header(changed: &[PathBuf]) -> Option<String> {
    let first = changed.first()?;
    Some(match changed.len() {
        1 => format!("changed: {}", shown(first)),
        2 => format!("changed: {} and 1 more file", shown(first)),
        n => format!("changed: {} and {} more files", shown(first), n - 1),
    })
}

/// `path` relative to the current folder when it is below it.
fn shown(path: &Path) -> String {
    let here = std::env::current_dir()
        .ok()
        .and_then(|here| agentc::disk::real_path(&here).ok());
    match here
        .as_deref()
        .and_then(|here| path.strip_prefix(here).ok())
    {
        Some(relative) if relative.as_os_str().is_empty() => ".".to_string(),
        Some(relative) => relative.display().to_string(),
        None => path.display().to_string(),
    }
}

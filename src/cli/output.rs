//! Printing: the report of a run in each format, colors, progress on a
//! terminal, the `--timings` table, and writing to standard output.

use super::args::Format;
use agentc::render::human::{self, Style};
use agentc::{Failure, FileReport, Source, Timings, emit, render};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

/// `eprintln!` for the command line's own messages, which quote paths,
/// names and revisions from the input: inert (`render::inert`), so that
/// none can act on the terminal.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", agentc::render::inert(&format!($($arg)*)))
    };
}
pub(crate) use say;

/// Prints on standard output the diagnostics of `files` and the
/// `failures` in `format`; returns the count of errors (failures among
/// them) and of warnings. People get a summary line (`done: 1 error`)
/// after them: on standard output for `human`, on standard error for the
/// one-line formats, whose output tools read; `json` and `sarif` carry
/// their own. Output is written as it is made, never held whole; a closed
/// pipe (`agentc ... | head`) ends it quietly.
pub(crate) fn report(
    format: Format,
    files: &[FileReport],
    failures: &[Failure],
    done: &str,
    max: usize,
) -> (usize, usize) {
    let errors = render::errors(files, failures);
    let warnings = render::warnings(files);
    let notices: usize = files.iter().map(|f| f.count(agentc::Severity::Info)).sum();
    let summary = format!(
        "{}: {}\n",
        render::inert(done),
        human::summary_with_notices(errors, warnings, notices)
    );
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let written = match format {
        Format::Json => render::json::write(&mut out, files, failures),
        Format::Sarif => render::sarif::write(&mut out, files, failures),
        Format::Short => render::short::write(&mut out, files, failures),
        Format::Github => render::github::write(&mut out, files, failures),
        Format::Markdown => render::markdown::write(&mut out, files, failures),
        Format::Human => {
            let style = terminal_style(std::io::stdout().is_terminal());
            write_human(&mut out, files, failures, style, max)
                .and_then(|()| out.write_all(summary.as_bytes()))
        }
    };
    let _ = written.and_then(|()| out.flush());
    if matches!(format, Format::Short | Format::Github | Format::Markdown) {
        eprint!("{summary}");
    }
    (errors, warnings)
}

/// The human format: each file's diagnostics drawn on its lines (at most
/// `max` of each, then how many more there are), then each failure, which
/// has no lines to draw.
fn write_human(
    out: &mut dyn Write,
    files: &[FileReport],
    failures: &[Failure],
    style: Style,
    max: usize,
) -> std::io::Result<()> {
    for file in files {
        out.write_all(human::render_capped(file, style, max).as_bytes())?;
    }
    for failure in failures {
        out.write_all(human::render_failure(failure, style).as_bytes())?;
    }
    Ok(())
}

/// Runs `work`, showing on standard error how many of `total` files are
/// `done`: only on a terminal, and only once the run has taken a second.
pub(crate) fn with_progress<T>(total: usize, done: &AtomicUsize, work: impl FnOnce() -> T) -> T {
    if !std::io::stderr().is_terminal() {
        return work();
    }
    let (finished, wait) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut shown = false;
            let mut pause = Duration::from_secs(1);
            while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(pause) {
                eprint!(
                    "\r\x1b[2Kchecking: {}/{total} files",
                    done.load(Ordering::Relaxed)
                );
                shown = true;
                pause = Duration::from_millis(100);
            }
            if shown {
                eprint!("\r\x1b[2K");
            }
        });
        let result = work();
        drop(finished);
        result
    })
}

/// `--timings`: milliseconds per phase for each protocol (with its agent
/// folder's files) and in total, and the run's wall-clock time.
pub(crate) fn timings_table(rows: &[(&PathBuf, Timings)], wall: Duration) -> String {
    let ms = |d: Duration| format!("{:.3}", d.as_secs_f64() * 1000.0);
    let total: Timings = rows.iter().map(|(_, t)| *t).sum();
    let names: Vec<String> = rows
        .iter()
        .map(|(p, _)| render::inert(&p.display().to_string()).into_owned())
        .collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    let mut out = format!(
        "{:width$}  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}\n",
        "ms", "read", "parse", "lower", "check", "emit", "total"
    );
    let line = |name: &str, t: &Timings| {
        format!(
            "{name:width$}  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}\n",
            ms(t.read),
            ms(t.parse),
            ms(t.lower),
            ms(t.check),
            ms(t.emit),
            ms(t.total())
        )
    };
    for (name, (_, t)) in names.iter().zip(rows) {
        out.push_str(&line(name, t));
    }
    out.push_str(&line("total", &total));
    let threads = agentc::project::threads(rows.len());
    out.push_str(&format!(
        "wall clock {} ms on {threads} thread{}\n",
        ms(wall),
        if threads == 1 { "" } else { "s" }
    ));
    out
}

pub(crate) fn usage_error(error: &emit::EmitError) -> ExitCode {
    say!("error: {}", error.message);
    if let Some(help) = &error.help {
        say!("  help: {help}");
    }
    ExitCode::from(2)
}

/// Colors on a terminal, unless `NO_COLOR` is set; anywhere when
/// `CLICOLOR_FORCE` is set (to anything but `0`), which wins over both
/// (no-color.org, bixense.com/clicolors).
pub(crate) fn terminal_style(is_terminal: bool) -> Style {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    let forced = std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
    if forced || (is_terminal && !set("NO_COLOR")) {
        Style::Color
    } else {
        Style::Plain
    }
}

/// The exit code of a run: 2 when something could not be used (`failed`),
/// 1 on errors (or warnings, with `--deny-warnings`), else 0.
pub(crate) fn exit_code(
    failed: bool,
    errors: usize,
    warnings: usize,
    deny_warnings: bool,
) -> ExitCode {
    if failed {
        ExitCode::from(2)
    } else if errors > 0 || (deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes to stdout; a closed pipe (`agentc ... | head`) ends quietly.
pub(crate) fn print(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

/// Reports the problems of configuration files, and those that could not
/// be read; the run stops (exit 2).
pub(crate) fn broken_configs(
    broken: Vec<(Source, Vec<agentc::Diagnostic>)>,
    unreadable: &[Failure],
    format: Format,
) -> ExitCode {
    // Named as given when it is not an `agentc.toml` (`--config FILE`).
    let names: Vec<&str> = broken
        .iter()
        .map(|(source, _)| source.name())
        .chain(unreadable.iter().map(|failure| failure.path.as_str()))
        .collect();
    let named = |name: &&str| {
        Path::new(name)
            .file_name()
            .is_some_and(|n| n == "agentc.toml")
    };
    let which = match names.as_slice() {
        [one] if !named(one) => format!("`{one}`"),
        _ if names.iter().all(named) => "agentc.toml".to_string(),
        _ => "the configuration".to_string(),
    };
    broken_files(
        broken,
        unreadable,
        format,
        &format!("{which} has problems; nothing was checked"),
    )
}

/// Like [`broken_configs`], for any file a run cannot go on without (a
/// baseline), `done` saying what was not done.
pub(crate) fn broken_files(
    broken: Vec<(Source, Vec<agentc::Diagnostic>)>,
    unreadable: &[Failure],
    format: Format,
    done: &str,
) -> ExitCode {
    let files: Vec<FileReport> = broken
        .into_iter()
        .map(|(source, diagnostics)| FileReport::uncompiled(source, diagnostics))
        .collect();
    report(
        format,
        &files,
        unreadable,
        done,
        human::DEFAULT_MAX_DIAGNOSTICS,
    );
    ExitCode::from(2)
}

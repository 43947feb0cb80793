//! `agentc emit`: a protocol's schemas for a target, or with `--meta` an
//! AAP `GET /meta` response for its agent folder.

use super::args::EmitArgs;
use super::output::say;
use super::output::{print, terminal_style};
use agentc::disk::{self, Reach};
use agentc::emit::{Selection, Target};
use agentc::render::human::{self, Style};
use agentc::workspace::{Problem, Workspace};
use agentc::{Diagnostics, Severity, agent};
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

/// Runs `agentc emit` as its arguments ask.
pub(crate) fn run(args: EmitArgs) -> ExitCode {
    let selection = match (&args.type_name, &args.tool, &args.response) {
        (Some(name), _, _) => Selection::Type(name),
        (_, Some(name), _) => Selection::Tool(name),
        (_, _, Some(name)) => Selection::Response(name),
        _ => Selection::All,
    };
    let request = match (args.meta, args.agent_version.as_deref()) {
        (true, Some(version)) => Request::Meta { version },
        _ => Request::Emit(selection),
    };
    let file = agentc::project::protocol_file(&args.file);
    // `-o -` is standard output, as `-` is standard input to `validate`.
    let output = args
        .output
        .as_deref()
        .filter(|path| path.as_os_str() != "-");
    if let Some(path) = output
        && writes_over(&file, path)
    {
        say!(
            "error: `{}` is the protocol being emitted; `--output` would write over it",
            path.display()
        );
        return ExitCode::from(2);
    }
    emit(&file, args.target, request, output)
}

/// Whether writing `output` would replace the protocol `file` itself,
/// however either is spelled or linked.
fn writes_over(file: &Path, output: &Path) -> bool {
    match (disk::real_path(file), disk::real_path(output)) {
        (Ok(file), Ok(output)) => file == output,
        _ => false,
    }
}

/// What `agentc emit` was asked for.
enum Request<'a> {
    Emit(Selection<'a>),
    /// An AAP `GET /meta` response.
    Meta {
        version: &'a str,
    },
}

fn emit(file: &Path, target: Target, request: Request, output: Option<&Path>) -> ExitCode {
    let style = terminal_style(std::io::stderr().is_terminal());
    match request {
        Request::Emit(selection) => emit_selection(file, target, selection, output, style),
        Request::Meta { .. } if target != Target::Aap => {
            say!("error: `--meta` is for `--target aap`");
            ExitCode::from(2)
        }
        Request::Meta { version } => emit_meta(file, version, output, style),
    }
}

/// `agentc emit --target aap --meta`: the agent's folder, checked whole,
/// described as its `settings.json` says.
fn emit_meta(file: &Path, version: &str, output: Option<&Path>, style: Style) -> ExitCode {
    let checked = match agent_folder(file) {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let (mut compiled, others, settings) = (checked.protocol, checked.others, checked.settings);
    if compiled.has_errors() || others.iter().any(agentc::FileReport::has_errors) {
        let reports: Vec<agentc::FileReport> = std::iter::once(compiled).chain(others).collect();
        return has_errors(file, &reports, style);
    }
    let Some(model) = &compiled.model else {
        return ExitCode::from(1);
    };
    let mut diags = Diagnostics::default();
    let result = agent::aap_meta(model, settings.as_ref(), version, &mut diags);
    compiled.add(diags);
    draw(&compiled, style);
    let text = match result {
        Ok(output) => output.into_text(),
        Err(error) => return usage(error),
    };
    if compiled.has_errors() {
        return inexpressible(Target::Aap);
    }
    write(&text, output)
}

/// A report's diagnostics, when it has any, on standard error.
fn draw(report: &agentc::FileReport, style: Style) {
    if !report.diagnostics.is_empty() {
        eprint!(
            "{}",
            human::render_capped(report, style, human::DEFAULT_MAX_DIAGNOSTICS)
        );
    }
}

/// What was asked names nothing, or the target has no use for it: exit 2.
fn usage(error: agentc::emit::EmitError) -> ExitCode {
    say!("error: {}", error.message);
    if let Some(help) = error.help {
        say!("  help: {help}");
    }
    ExitCode::from(2)
}

/// `agentc emit` of a selection: the protocol read from disk into a
/// [`Workspace`], and [`Workspace::emit`]; a file that is not text is
/// reported as `check` reports it.
fn emit_selection(
    file: &Path,
    target: Target,
    selection: Selection,
    output: Option<&Path>,
    style: Style,
) -> ExitCode {
    let bytes = match disk::read(file, Reach::Named) {
        Ok(bytes) => bytes,
        Err(error) => {
            say!("error: `{}` was not read: {error}", file.display());
            return ExitCode::from(2);
        }
    };
    let name = file.display().to_string();
    let mut workspace = Workspace::new();
    match String::from_utf8(bytes) {
        Ok(text) => workspace.insert(file, text),
        Err(error) => {
            let report = agentc::compile(&name, error.into_bytes());
            return has_errors(file, &[report], style);
        }
    }
    match workspace.emit(file, target, selection) {
        Ok(emitted) => {
            draw(&emitted.report, style);
            write(&emitted.output.into_text(), output)
        }
        Err(Problem::Errors(reports)) => has_errors(file, &reports, style),
        Err(Problem::Inexpressible(report)) => {
            draw(&report, style);
            inexpressible(target)
        }
        Err(Problem::Usage(error)) => usage(error),
        Err(Problem::NoFile(path)) => {
            say!("error: `{}` was not read", path.display());
            ExitCode::from(2)
        }
    }
}

/// The protocol's errors, drawn, and exit 1: nothing is emitted.
fn has_errors(file: &Path, reports: &[agentc::FileReport], style: Style) -> ExitCode {
    for report in reports {
        eprint!(
            "{}",
            human::render_capped(report, style, human::DEFAULT_MAX_DIAGNOSTICS)
        );
    }
    let errors: usize = reports.iter().map(|r| r.count(Severity::Error)).sum();
    say!(
        "error: {} has {}; nothing emitted",
        file.display(),
        human::summary(errors, 0)
    );
    ExitCode::from(1)
}

/// The target cannot express the protocol (its diagnostics say where):
/// exit 1, nothing emitted.
fn inexpressible(target: Target) -> ExitCode {
    say!(
        "error: {} cannot express this protocol as it is; nothing emitted",
        target.display()
    );
    ExitCode::from(1)
}

/// The output on standard output, or written to `output`.
fn write(text: &str, output: Option<&Path>) -> ExitCode {
    match output {
        None => print(text),
        Some(path) => {
            // The path the user named, links followed as named; written
            // whole or not at all.
            if let Err(error) = disk::write(path, text.as_bytes(), Reach::Named) {
                say!("error: cannot write {}: {error}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}

/// The protocol checked with its agent folder, for `--meta`; the folder's
/// reports are printed when the protocol could not be read.
fn agent_folder(file: &Path) -> Result<agent::Checked, ExitCode> {
    let dir = file.parent().unwrap_or(Path::new("."));
    if !dir.join("settings.json").is_file() {
        say!(
            "error: `--meta` describes an agent from its `settings.json`, and there is none beside {}",
            file.display()
        );
        return Err(ExitCode::from(2));
    }
    let checked = disk::check_agent(file, Reach::Named);
    if checked.protocol.model.is_some() {
        return Ok(checked);
    }
    for report in checked.into_reports() {
        eprint!(
            "{}",
            human::render_capped(&report, Style::Plain, human::DEFAULT_MAX_DIAGNOSTICS)
        );
    }
    Err(ExitCode::from(1))
}

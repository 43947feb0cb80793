//! `agentc emit`: a protocol's schemas for a target, or with `--meta` an
//! AAP `GET /meta` response for its agent folder.

use super::args::EmitArgs;
use super::output::say;
use super::output::{print, terminal_style};
use agentc::disk::{self, Reach};
use agentc::emit::{Selection, Target};
use agentc::render::human::{self, Style};
use agentc::{Diagnostics, Severity, agent, emit};
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
    emit(&file, args.target, request, args.output.as_deref())
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
    let (mut compiled, others, settings) = match &request {
        Request::Meta { .. } if target != Target::Aap => {
            say!("error: `--meta` is for `--target aap`");
            return ExitCode::from(2);
        }
        // The agent's description comes from its folder, checked whole.
        Request::Meta { .. } => match agent_folder(file) {
            Ok(checked) => (checked.protocol, checked.others, checked.settings),
            Err(code) => return code,
        },
        Request::Emit(_) => match disk::read(file, Reach::Named) {
            Ok(bytes) => (
                agentc::compile(&file.display().to_string(), bytes),
                Vec::new(),
                None,
            ),
            Err(error) => {
                say!("error: `{}` was not read: {error}", file.display());
                return ExitCode::from(2);
            }
        },
    };
    let errors: usize = std::iter::once(&compiled)
        .chain(&others)
        .map(|c| c.count(Severity::Error))
        .sum();
    if errors > 0 {
        for report in std::iter::once(&compiled).chain(&others) {
            eprint!(
                "{}",
                human::render_capped(report, style, human::DEFAULT_MAX_DIAGNOSTICS)
            );
        }
        say!(
            "error: {} has {}; nothing emitted",
            file.display(),
            human::summary(errors, 0)
        );
        return ExitCode::from(1);
    }
    let Some(model) = &compiled.model else {
        return ExitCode::from(1);
    };
    let mut diags = Diagnostics::default();
    let result = match request {
        Request::Emit(selection) => emit::emit(model, target, selection, &mut diags),
        Request::Meta { version } => agent::aap_meta(model, settings.as_ref(), version, &mut diags),
    };
    compiled.add(diags);
    if !compiled.diagnostics.is_empty() {
        eprint!(
            "{}",
            human::render_capped(&compiled, style, human::DEFAULT_MAX_DIAGNOSTICS)
        );
    }
    let text = match result {
        Ok(output) => output.into_text(),
        Err(error) => {
            say!("error: {}", error.message);
            if let Some(help) = error.help {
                say!("  help: {help}");
            }
            return ExitCode::from(2);
        }
    };
    if compiled.has_errors() {
        say!(
            "error: {} cannot express this protocol as it is; nothing emitted",
            target.display()
        );
        return ExitCode::from(1);
    }
    match output {
        None => print(&text),
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

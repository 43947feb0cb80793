//! `agentc validate`: JSON data against a protocol's type or tool, or an
//! AG-UI `RunAgentInput` (`validate run-input`).

use super::args::{DataOptions, ValidateArgs, ValidateCommand};
use super::output::say;
use super::output::{exit_code, report, terminal_style, usage_error};
use agentc::disk::{self, Reach};
use agentc::emit::{EmitError, Selection};
use agentc::render::human;
use agentc::validate::aap::{self, AapValidator, Kind, StreamMode};
use agentc::validate::data::{self, Layout};
use agentc::validate::run_input::{Options, Profile, RunInputValidator};
use agentc::validate::{ToolValidators, Validator};
use agentc::{Failure, FileReport, Severity, Source};
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

/// Runs `agentc validate` or `agentc validate run-input` as the arguments
/// ask.
pub(crate) fn run(args: ValidateArgs) -> ExitCode {
    match args {
        ValidateArgs {
            command:
                Some(ValidateCommand::RunInput {
                    payload,
                    protocol,
                    profile,
                    ag_ui_version,
                    strict,
                    options,
                }),
            ..
        } => {
            let rules = Options {
                profile,
                version: ag_ui_version,
                strict,
            };
            validate_run_input(&payload, protocol.as_deref(), rules, options)
        }
        ValidateArgs {
            command:
                Some(ValidateCommand::Aap {
                    kind,
                    payload,
                    protocol,
                    stream,
                    options,
                }),
            ..
        } => validate_aap(kind, &payload, protocol.as_deref(), stream, options),
        ValidateArgs {
            command: None,
            file: Some(file),
            data: Some(data),
            type_name,
            tool,
            optional_null,
            options,
        } => {
            let subject = match (&type_name, &tool) {
                (Some(name), _) => Subject::Type(name),
                (_, Some(name)) => Subject::Tool(name),
                // clap requires one of the two.
                (None, None) => return ExitCode::from(2),
            };
            validate(&file, subject, &data, optional_null, options)
        }
        // clap requires both paths when there is no subcommand.
        ValidateArgs { .. } => ExitCode::from(2),
    }
}

/// What `agentc validate` checks data against.
enum Subject<'a> {
    Type(&'a str),
    Tool(&'a str),
}

fn validate(
    file: &Path,
    subject: Subject,
    data: &Path,
    optional_null: bool,
    options: DataOptions,
) -> ExitCode {
    let model = match protocol_model(file) {
        Ok(model) => model,
        Err(code) => return code,
    };
    // Tool arguments may come as AG-UI carries them: a JSON-encoded string.
    let layout = Layout {
        lines: options.lines,
        encoded: matches!(subject, Subject::Tool(_)),
    };
    let (schema, against) = match subject {
        Subject::Type(name) => (
            agentc::validate::schema_of(&model, Selection::Type(name)),
            format!("type `{name}`"),
        ),
        Subject::Tool(name) => (
            agentc::validate::schema_of(&model, Selection::Tool(name)),
            format!("the arguments of `{name}`"),
        ),
    };
    // The model goes before the schema is compiled: never both at once.
    drop(model);
    let schema = schema.map(|mut schema| {
        if optional_null {
            agentc::validate::optional_null(&mut schema);
        }
        schema
    });
    let validator = match schema.and_then(Validator::from_schema) {
        Ok(validator) => validator,
        Err(error) => return usage_error(&error),
    };
    let (source, unreadable) = match disk::read_data(data) {
        Ok(read) => read,
        Err(failure) => return unreadable_data(failure, &against, options),
    };
    let diagnostics = match unreadable {
        Some(diagnostic) => vec![diagnostic],
        None => data::check(&validator, &source, layout),
    };
    report_data(source, diagnostics, layout, &against, options)
}

fn validate_run_input(
    payload: &Path,
    protocol: Option<&Path>,
    rules: Options,
    options: DataOptions,
) -> ExitCode {
    let validator = match RunInputValidator::with_options(rules) {
        Ok(validator) => validator,
        Err(error) => return usage_error(&error),
    };
    let attached = with_protocol(validator, protocol, |validator, model| {
        Ok(validator.with_tools(ToolValidators::new(model)?))
    });
    let validator = match attached {
        Ok(validator) => validator,
        Err(code) => return code,
    };
    let against = match rules.profile {
        Profile::AgUi => format!("AG-UI {} `RunAgentInput`", rules.version.name()),
        Profile::Backend => format!(
            "AG-UI {} `RunAgentInput` (backend profile)",
            rules.version.name()
        ),
    };
    let against = against.as_str();
    let (source, unreadable) = match disk::read_data(payload) {
        Ok(read) => read,
        Err(failure) => return unreadable_data(failure, against, options),
    };
    let layout = Layout {
        lines: options.lines,
        encoded: false,
    };
    let diagnostics = match unreadable {
        Some(diagnostic) => vec![diagnostic],
        None => data::check_run_input(&validator, &source, layout),
    };
    report_data(source, diagnostics, layout, against, options)
}

fn validate_aap(
    kind: Kind,
    payload: &Path,
    protocol: Option<&Path>,
    stream: Option<StreamMode>,
    options: DataOptions,
) -> ExitCode {
    if stream.is_some() && kind != Kind::Events {
        say!("error: `--stream` is for `events`");
        return ExitCode::from(2);
    }
    if options.lines && kind == Kind::Events {
        say!("error: `--lines` is for JSON payloads, and `events` is a `text/event-stream`");
        return ExitCode::from(2);
    }
    let validator = match AapValidator::new(kind) {
        Ok(validator) => validator,
        Err(error) => return usage_error(&error),
    };
    let validator = match with_protocol(validator, protocol, AapValidator::with_protocol) {
        Ok(validator) => validator,
        Err(code) => return code,
    };
    let against = format!("AAP v3 `{}`", kind.definition());
    let (source, unreadable) = match disk::read_data(payload) {
        Ok(read) => read,
        Err(failure) => return unreadable_data(failure, &against, options),
    };
    let layout = Layout {
        lines: options.lines,
        encoded: false,
    };
    if kind == Kind::Events {
        let events = match unreadable {
            Some(_) => 0,
            None => aap::count_events(source.text()),
        };
        let diagnostics = match unreadable {
            Some(diagnostic) => vec![diagnostic],
            None => aap::check_events(&validator, &source, stream),
        };
        let summary = match events {
            1 => "validated 1 event against AAP v3 `SSEEvent`".to_string(),
            n => format!("validated {n} events against AAP v3 `SSEEvent`"),
        };
        return report_checked(source, diagnostics, &summary, options);
    }
    let diagnostics = match unreadable {
        Some(diagnostic) => vec![diagnostic],
        None => aap::check(&validator, &source, layout),
    };
    report_data(source, diagnostics, layout, &against, options)
}

/// `validator` with what the protocol `--protocol` names attached (its
/// tools' validators), when one is given: compiled once, its errors
/// printed and exit 2 when it has any.
fn with_protocol<V>(
    validator: V,
    protocol: Option<&Path>,
    attach: impl FnOnce(V, &agentc::Model) -> Result<V, EmitError>,
) -> Result<V, ExitCode> {
    let Some(file) = protocol else {
        return Ok(validator);
    };
    let model = protocol_model(file)?;
    attach(validator, &model).map_err(|error| usage_error(&error))
}

/// The model of a protocol without errors; otherwise its errors are
/// printed and the exit code is 2: there is nothing to validate against.
fn protocol_model(file: &Path) -> Result<agentc::Model, ExitCode> {
    let file = &agentc::project::protocol_file(file);
    let bytes = match disk::read(file, Reach::Named) {
        Ok(bytes) => bytes,
        Err(error) => {
            say!("error: `{}` was not read: {error}", file.display());
            return Err(ExitCode::from(2));
        }
    };
    let compiled = agentc::compile(&file.display().to_string(), bytes);
    if compiled.has_errors() {
        let style = terminal_style(std::io::stderr().is_terminal());
        eprint!(
            "{}",
            human::render_capped(&compiled, style, human::DEFAULT_MAX_DIAGNOSTICS)
        );
        say!(
            "error: {} has {}; nothing validated",
            file.display(),
            human::summary(compiled.count(Severity::Error), 0)
        );
        return Err(ExitCode::from(2));
    }
    compiled.model.ok_or(ExitCode::from(2))
}

/// Reports data that could not be read at all: nothing was validated.
fn unreadable_data(failure: Failure, against: &str, options: DataOptions) -> ExitCode {
    report(
        options.format,
        &[],
        &[failure],
        &format!("validated 0 values against {against}"),
        human::DEFAULT_MAX_DIAGNOSTICS,
    );
    ExitCode::from(2)
}

fn report_data(
    source: Source,
    diagnostics: Vec<agentc::Diagnostic>,
    layout: Layout,
    against: &str,
    options: DataOptions,
) -> ExitCode {
    let values = data::documents(source.text(), layout).count();
    let checked = FileReport::uncompiled(source, diagnostics);
    let values = match values {
        1 => "1 value".to_string(),
        n => format!("{n} values"),
    };
    finish(
        checked,
        &format!("validated {values} against {against}"),
        options,
    )
}

/// Reports what was found in a file that is not JSON data (an event stream).
fn report_checked(
    source: Source,
    diagnostics: Vec<agentc::Diagnostic>,
    summary: &str,
    options: DataOptions,
) -> ExitCode {
    finish(
        FileReport::uncompiled(source, diagnostics),
        summary,
        options,
    )
}

fn finish(checked: FileReport, summary: &str, options: DataOptions) -> ExitCode {
    let (errors, warnings) = report(
        options.format,
        std::slice::from_ref(&checked),
        &[],
        summary,
        human::DEFAULT_MAX_DIAGNOSTICS,
    );
    exit_code(false, errors, warnings, options.deny_warnings)
}

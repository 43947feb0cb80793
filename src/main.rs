//! The `agentc` command: parses arguments, calls the library, renders, and
//! chooses the exit code (0 no errors, 1 errors, 2 usage or I/O error).

use agentc::disk::{self, Reach};
use agentc::emit::{Selection, Target};
use agentc::render::human::{self, Style};
use agentc::validate::data::{self, Layout};
use agentc::validate::run_input::{Profile, RunInputValidator};
use agentc::validate::{ToolValidators, Validator};
use agentc::workspace::{self, ConfigChoice, Ignores};
use agentc::{
    Code, Compilation, Diagnostics, Failure, Severity, Source, Timings, agent, emit, render, source,
};
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "agentc",
    version,
    about = "Offline compiler and linter for Octavus agent protocol files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check protocol files and report every problem.
    Check(CheckArgs),
    /// Print JSON Schema for a protocol's types or tools, shaped for a consumer.
    Emit {
        /// The protocol file.
        file: PathBuf,
        /// The consumer the output is shaped for.
        #[arg(long, value_enum, default_value_t = Target::JsonSchema)]
        target: Target,
        /// Emit one type's schema.
        #[arg(long = "type", value_name = "NAME", conflicts_with_all = ["tool", "response", "meta"])]
        type_name: Option<String>,
        /// Emit one tool.
        #[arg(long, value_name = "NAME", conflicts_with_all = ["response", "meta"])]
        tool: Option<String>,
        /// Emit the structured-output request for an object type (openai, anthropic, gemini).
        #[arg(long, value_name = "NAME", conflicts_with = "meta")]
        response: Option<String>,
        /// With `--target aap`: the `GET /meta` response, from the agent folder's settings.json.
        #[arg(long, requires = "agent_version")]
        meta: bool,
        /// The agent's semantic version, for `--meta`.
        #[arg(long, value_name = "VERSION", requires = "meta")]
        agent_version: Option<String>,
        /// Write to this file instead of standard output.
        #[arg(short, long, value_name = "PATH")]
        output: Option<PathBuf>,
    },
    /// Check JSON data against a protocol's type or tool, or an AG-UI `RunAgentInput`.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Validate {
        #[command(subcommand)]
        command: Option<ValidateCommand>,
        /// The protocol file.
        #[arg(required = true)]
        file: Option<PathBuf>,
        /// The data: a JSON file, or `-` for standard input.
        #[arg(required = true)]
        data: Option<PathBuf>,
        /// Validate values of this type.
        #[arg(
            long = "type",
            value_name = "NAME",
            required_unless_present = "tool",
            conflicts_with = "tool"
        )]
        type_name: Option<String>,
        /// Validate this tool's arguments: a JSON object, or a string holding one (as AG-UI sends them).
        #[arg(long, value_name = "NAME")]
        tool: Option<String>,
        #[command(flatten)]
        options: DataOptions,
    },
    /// Explain a diagnostic code (without a code: list them all).
    Explain { code: Option<String> },
    /// Print the JSON Schema of the protocol file format, for editors' YAML support.
    Schema,
    /// Run the language server on standard input and output, for editors.
    Lsp,
    /// Print a shell completion script (source it, or put it where your
    /// shell loads completions).
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
    /// Print the manual page (roff), for `man -l -` or a `man1` folder.
    Man,
}

/// `agentc check`'s arguments.
#[derive(clap::Args)]
struct CheckArgs {
    /// Protocol files, folders to search, or globs (default: the current folder).
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Exit with 1 when there are warnings, too.
    #[arg(long)]
    deny_warnings: bool,
    /// Also report what this consumer cannot express or would reject
    /// (repeatable; replaces the configuration's `targets`).
    #[arg(long = "target", value_enum, value_name = "TARGET")]
    targets: Vec<Target>,
    /// Use this configuration file instead of the nearest `agentc.toml`.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    config: Option<PathBuf>,
    /// Ignore every `agentc.toml`: the defaults.
    #[arg(long)]
    no_config: bool,
    /// Print the configuration the check would use for the first path, and stop.
    #[arg(long)]
    print_config: bool,
    /// Print the time each phase took, per file and in total, on standard error.
    #[arg(long)]
    timings: bool,
    /// Search what `.gitignore`, `.ignore` and git's excludes list, too.
    #[arg(long)]
    no_ignore: bool,
    /// In the human format, draw at most this many problems of each file
    /// (the other formats list every one).
    #[arg(long, value_name = "N", default_value_t = human::DEFAULT_MAX_DIAGNOSTICS)]
    max_diagnostics: usize,
}

#[derive(Clone, Copy, ValueEnum)]
enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Subcommand)]
enum ValidateCommand {
    /// Check an AG-UI `RunAgentInput` payload.
    RunInput {
        /// The payload: a JSON file, or `-` for standard input.
        payload: PathBuf,
        /// Also check each tool call's arguments against this protocol's tools.
        #[arg(long, value_name = "FILE")]
        protocol: Option<PathBuf>,
        /// Which rules apply.
        #[arg(long, value_enum, default_value_t = Profile::AgUi)]
        profile: Profile,
        #[command(flatten)]
        options: DataOptions,
    },
}

/// How `agentc validate` reads data and reports.
#[derive(clap::Args, Clone, Copy)]
struct DataOptions {
    /// The data is JSON Lines: one value per line.
    #[arg(long)]
    lines: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Exit with 1 when there are warnings, too.
    #[arg(long)]
    deny_warnings: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Each problem drawn on its source lines, with help.
    Human,
    /// The JSON contract, version 1.
    Json,
    /// One line per problem: `file:line:col: severity[code] message`.
    Short,
    /// GitHub Actions workflow commands (annotations on pull requests).
    Github,
    /// SARIF 2.1.0, for code scanning (GitHub, GitLab, Azure DevOps).
    Sarif,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => check(args),
        Command::Emit {
            file,
            target,
            type_name,
            tool,
            response,
            meta,
            agent_version,
            output,
        } => {
            let selection = match (&type_name, &tool, &response) {
                (Some(name), _, _) => Selection::Type(name),
                (_, Some(name), _) => Selection::Tool(name),
                (_, _, Some(name)) => Selection::Response(name),
                _ => Selection::All,
            };
            let request = match (meta, agent_version.as_deref()) {
                (true, Some(version)) => Request::Meta { version },
                _ => Request::Emit(selection),
            };
            emit(&file, target, request, output.as_deref())
        }
        Command::Validate {
            command:
                Some(ValidateCommand::RunInput {
                    payload,
                    protocol,
                    profile,
                    options,
                }),
            ..
        } => validate_run_input(&payload, protocol.as_deref(), profile, options),
        Command::Validate {
            command: None,
            file: Some(file),
            data: Some(data),
            type_name,
            tool,
            options,
        } => {
            let subject = match (&type_name, &tool) {
                (Some(name), _) => Subject::Type(name),
                (_, Some(name)) => Subject::Tool(name),
                // clap requires one of the two.
                (None, None) => return ExitCode::from(2),
            };
            validate(&file, subject, &data, options)
        }
        // clap requires both paths when there is no subcommand.
        Command::Validate { .. } => ExitCode::from(2),
        Command::Explain { code } => explain(code.as_deref()),
        Command::Schema => {
            print(&format!("{:#}\n", agentc::grammar::editor_schema::schema()));
            ExitCode::SUCCESS
        }
        Command::Lsp => lsp(),
        Command::Completions { shell } => {
            let shell = match shell {
                Shell::Bash => clap_complete::Shell::Bash,
                Shell::Zsh => clap_complete::Shell::Zsh,
                Shell::Fish => clap_complete::Shell::Fish,
            };
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "agentc", &mut script);
            print(&String::from_utf8_lossy(&script));
            ExitCode::SUCCESS
        }
        Command::Man => {
            let mut page = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut page) {
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
    }
}

/// Exits as LSP says: 0 after `shutdown`, 1 without it (whether `exit` or
/// the end of input ended the session); 2 when the server could not write
/// to its client.
fn lsp() -> ExitCode {
    let (connection, io_threads) = match agentc::lsp::stdio() {
        Ok(started) => started,
        Err(error) => {
            eprintln!("error: the language server could not start: {error}");
            return ExitCode::from(2);
        }
    };
    let served = agentc::lsp::serve(&connection);
    drop(connection);
    let written = io_threads.join().map_err(Into::into);
    match served.and_then(|ended| written.map(|()| ended)) {
        Ok(ended) if ended.shutdown => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(error) => {
            eprintln!("error: the language server stopped: {error}");
            ExitCode::from(2)
        }
    }
}

/// What `agentc validate` checks data against.
enum Subject<'a> {
    Type(&'a str),
    Tool(&'a str),
}

fn validate(file: &Path, subject: Subject, data: &Path, options: DataOptions) -> ExitCode {
    let model = match protocol_model(file) {
        Ok(model) => model,
        Err(code) => return code,
    };
    // Tool arguments may come as AG-UI carries them: a JSON-encoded string.
    let layout = Layout {
        lines: options.lines,
        encoded: matches!(subject, Subject::Tool(_)),
    };
    let (validator, against) = match subject {
        Subject::Type(name) => (Validator::for_type(&model, name), format!("type `{name}`")),
        Subject::Tool(name) => (
            Validator::for_tool(&model, name),
            format!("the arguments of `{name}`"),
        ),
    };
    let validator = match validator {
        Ok(validator) => validator,
        Err(error) => return usage_error(&error),
    };
    let (source, unreadable) = match read_data(data) {
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
    profile: Profile,
    options: DataOptions,
) -> ExitCode {
    let validator = match RunInputValidator::new(profile) {
        Ok(validator) => validator,
        Err(error) => return usage_error(&error),
    };
    let validator = match protocol {
        None => validator,
        Some(file) => {
            let model = match protocol_model(file) {
                Ok(model) => model,
                Err(code) => return code,
            };
            match ToolValidators::new(&model) {
                Ok(tools) => validator.with_tools(tools),
                Err(error) => return usage_error(&error),
            }
        }
    };
    let against = match profile {
        Profile::AgUi => "`RunAgentInput`",
        Profile::Backend => "`RunAgentInput` (backend profile)",
    };
    let (source, unreadable) = match read_data(payload) {
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

/// The model of a protocol without errors; otherwise its errors are
/// printed and the exit code is 2: there is nothing to validate against.
fn protocol_model(file: &Path) -> Result<agentc::Model, ExitCode> {
    let bytes = match disk::read(file, Reach::Named) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("error: `{}` was not read: {error}", file.display());
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
        eprintln!(
            "error: {} has {}; nothing validated",
            file.display(),
            human::summary(compiled.count(Severity::Error), 0)
        );
        return Err(ExitCode::from(2));
    }
    compiled.model.ok_or(ExitCode::from(2))
}

fn usage_error(error: &emit::EmitError) -> ExitCode {
    eprintln!("error: {}", error.message);
    if let Some(help) = &error.help {
        eprintln!("  help: {help}");
    }
    ExitCode::from(2)
}

/// The data as a source, and the reason it cannot be read as text, if
/// any; the failure when it cannot be read at all.
fn read_data(path: &Path) -> Result<(Source, Option<agentc::Diagnostic>), Failure> {
    let (name, bytes) = if path.as_os_str() == "-" {
        match disk::read_stdin() {
            Ok(bytes) => ("<stdin>".to_string(), bytes),
            Err(error) => {
                let message = format!("standard input was not read: {}", disk::describe_io(&error));
                return Err(Failure::new("<stdin>", Code::InvalidPath, message));
            }
        }
    } else {
        match disk::read(path, Reach::Named) {
            Ok(bytes) => (path.display().to_string(), bytes),
            Err(error) => {
                let shown = path.display().to_string();
                let message = format!("`{shown}` was not read: {error}");
                return Err(Failure::new(shown, Code::InvalidPath, message)
                    .with_help("give the path of a JSON file, or `-` to read standard input"));
            }
        }
    };
    Ok(source::decode(&name, bytes))
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
    let values = data::documents(source.text(), layout).len();
    let checked = Compilation {
        source,
        model: None,
        diagnostics,
        timings: Timings::default(),
    };
    let values = match values {
        1 => "1 value".to_string(),
        n => format!("{n} values"),
    };
    let (errors, warnings) = report(
        options.format,
        std::slice::from_ref(&checked),
        &[],
        &format!("validated {values} against {against}"),
        human::DEFAULT_MAX_DIAGNOSTICS,
    );
    if errors > 0 || (options.deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints on standard output the diagnostics of `files` and the
/// `failures` in `format`; returns the count of errors (failures among
/// them) and of warnings. People get a summary line (`done: 1 error`)
/// after them: on standard output for `human`, on standard error for the
/// one-line formats, whose output tools read; `json` and `sarif` carry
/// their own. Output is written as it is made, never held whole; a closed
/// pipe (`agentc ... | head`) ends it quietly.
fn report(
    format: Format,
    files: &[Compilation],
    failures: &[Failure],
    done: &str,
    max: usize,
) -> (usize, usize) {
    let errors = render::errors(files, failures);
    let warnings = render::warnings(files);
    let summary = format!("{done}: {}\n", human::summary(errors, warnings));
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let written = match format {
        Format::Json => render::json::write(&mut out, files, failures),
        Format::Sarif => render::sarif::write(&mut out, files, failures),
        Format::Short => render::short::write(&mut out, files, failures),
        Format::Github => render::github::write(&mut out, files, failures),
        Format::Human => {
            let style = terminal_style(std::io::stdout().is_terminal());
            write_human(&mut out, files, failures, style, max)
                .and_then(|()| out.write_all(summary.as_bytes()))
        }
    };
    let _ = written.and_then(|()| out.flush());
    if matches!(format, Format::Short | Format::Github) {
        eprint!("{summary}");
    }
    (errors, warnings)
}

/// The human format: each file's diagnostics drawn on its lines (at most
/// `max` of each, then how many more there are), then each failure, which
/// has no lines to draw.
fn write_human(
    out: &mut dyn Write,
    files: &[Compilation],
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

fn check(args: CheckArgs) -> ExitCode {
    let choice = match (args.config, args.no_config) {
        (Some(file), _) => ConfigChoice::File(file),
        (None, true) => ConfigChoice::Defaults,
        (None, false) => ConfigChoice::Nearest,
    };
    let targets: Option<Vec<Target>> = (!args.targets.is_empty()).then_some(args.targets);
    if args.print_config {
        return print_config(&args.paths, choice, targets, args.format);
    }

    let ignores = match args.no_ignore {
        true => Ignores::Search,
        false => Ignores::Respect,
    };
    let plan = workspace::plan(&args.paths, choice, ignores);
    // A configuration that cannot be used stops the run: checking under
    // another would give answers nobody asked for.
    if !plan.broken_configs.is_empty() || !plan.unreadable_configs.is_empty() {
        return broken_configs(plan.broken_configs, &plan.unreadable_configs, args.format);
    }
    for note in &plan.notes {
        eprintln!("note: {note}");
    }

    let started = Instant::now();
    let done = AtomicUsize::new(0);
    let results = with_progress(plan.files.len(), &done, || {
        workspace::check(&plan.files, targets.as_deref(), &done)
    });
    let wall = started.elapsed();

    let mut compiled = Vec::new();
    let mut timings = Vec::new();
    for (planned, files) in plan.files.iter().zip(results) {
        timings.push((
            &planned.path,
            files.iter().map(|c| c.timings).sum::<Timings>(),
        ));
        compiled.extend(files);
    }
    let files = match compiled.len() {
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    };
    let (errors, warnings) = report(
        args.format,
        &compiled,
        &plan.failures,
        &format!("checked {files}"),
        args.max_diagnostics,
    );
    if args.timings {
        eprint!("{}", timings_table(&timings, wall));
    }
    if !plan.failures.is_empty() {
        ExitCode::from(2)
    } else if errors > 0 || (args.deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `agentc check --print-config`: the configuration for the first path,
/// with `--target` applied.
fn print_config(
    paths: &[PathBuf],
    choice: ConfigChoice,
    targets: Option<Vec<Target>>,
    format: Format,
) -> ExitCode {
    let mut configs = workspace::Configs::new(choice);
    let path = paths.first().map_or(Path::new("."), PathBuf::as_path);
    let mut config = (*configs.of(path)).clone();
    if !configs.broken.is_empty() || !configs.failures.is_empty() {
        return broken_configs(configs.broken, &configs.failures, format);
    }
    if let Some(targets) = targets {
        config.targets = targets;
    }
    print(&config.to_toml());
    ExitCode::SUCCESS
}

/// Reports the problems of configuration files, and those that could not
/// be read; the run stops (exit 2).
fn broken_configs(
    broken: Vec<(Source, Vec<agentc::Diagnostic>)>,
    unreadable: &[Failure],
    format: Format,
) -> ExitCode {
    let files: Vec<Compilation> = broken
        .into_iter()
        .map(|(source, diagnostics)| Compilation {
            source,
            model: None,
            diagnostics,
            timings: Timings::default(),
        })
        .collect();
    report(
        format,
        &files,
        unreadable,
        "agentc.toml has problems; nothing was checked",
        human::DEFAULT_MAX_DIAGNOSTICS,
    );
    ExitCode::from(2)
}

/// Runs `work`, showing on standard error how many of `total` files are
/// `done`: only on a terminal, and only once the run has taken a second.
fn with_progress<T>(total: usize, done: &AtomicUsize, work: impl FnOnce() -> T) -> T {
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
fn timings_table(rows: &[(&PathBuf, Timings)], wall: Duration) -> String {
    let ms = |d: Duration| format!("{:.3}", d.as_secs_f64() * 1000.0);
    let total: Timings = rows.iter().map(|(_, t)| *t).sum();
    let names: Vec<String> = rows.iter().map(|(p, _)| p.display().to_string()).collect();
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
    let threads = rayon::current_num_threads();
    out.push_str(&format!(
        "wall clock {} ms on {threads} thread{}\n",
        ms(wall),
        if threads == 1 { "" } else { "s" }
    ));
    out
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
            eprintln!("error: `--meta` is for `--target aap`");
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
                eprintln!("error: `{}` was not read: {error}", file.display());
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
        eprintln!(
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
        Request::Meta { version } => meta(model, settings.as_ref(), version, &mut diags),
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
            eprintln!("error: {}", error.message);
            if let Some(help) = error.help {
                eprintln!("  help: {help}");
            }
            return ExitCode::from(2);
        }
    };
    if compiled.has_errors() {
        eprintln!(
            "error: {} cannot express this protocol as it is; nothing emitted",
            target.display()
        );
        return ExitCode::from(1);
    }
    match output {
        None => print(&text),
        Some(path) => {
            if let Err(error) = std::fs::write(path, text) {
                eprintln!("error: cannot write {}: {error}", path.display());
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
        eprintln!(
            "error: `--meta` describes an agent from its `settings.json`, and there is none beside {}",
            file.display()
        );
        return Err(ExitCode::from(2));
    }
    let checked = agent::check_agent(file, Reach::Named);
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

/// The AAP `GET /meta` response: the agent as `settings.json` describes it.
fn meta(
    model: &agentc::Model,
    settings: Option<&agent::Settings>,
    version: &str,
    diags: &mut Diagnostics,
) -> Result<emit::Output, emit::EmitError> {
    let agent = emit::aap::AgentMeta::new(settings, version)?;
    Ok(emit::Output::Json(emit::aap::meta(model, agent, diags)))
}

fn explain(code: Option<&str>) -> ExitCode {
    let Some(name) = code else {
        let width = Code::ALL.iter().map(|c| c.name().len()).max().unwrap_or(0);
        let list: String = Code::ALL
            .iter()
            .map(|c| {
                format!(
                    "{:width$}  {:7}  {}\n",
                    c.name(),
                    c.severity().as_str(),
                    c.summary()
                )
            })
            .collect();
        print(&list);
        return ExitCode::SUCCESS;
    };
    match Code::from_name(name) {
        Some(code) => {
            print(code.explanation());
            ExitCode::SUCCESS
        }
        None => {
            let help = agentc::diagnostic::did_you_mean(name, Code::ALL.iter().map(|c| c.name()))
                .unwrap_or_else(|| "run `agentc explain` to list every code".to_string());
            eprintln!("error: no diagnostic code `{name}` ({help})");
            ExitCode::from(2)
        }
    }
}

/// Colors on a terminal, unless `NO_COLOR` is set; anywhere when
/// `CLICOLOR_FORCE` is set (to anything but `0`), which wins over both
/// (no-color.org, bixense.com/clicolors).
fn terminal_style(is_terminal: bool) -> Style {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    let forced = std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
    if forced || (is_terminal && !set("NO_COLOR")) {
        Style::Color
    } else {
        Style::Plain
    }
}

/// Writes to stdout; a closed pipe (`agentc ... | head`) ends quietly.
fn print(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

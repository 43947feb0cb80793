//! The `agentc` command: parses arguments, calls the library, renders, and
//! chooses the exit code (0 no errors, 1 errors, 2 usage or I/O error).

use agentc::render::human::{self, Style};
use agentc::{Code, Severity, agent, emit, render};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    Check {
        /// Protocol files, or folders to search for `protocol.yaml` (default: the current folder).
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Exit with 1 when there are warnings, too.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Print JSON Schema for a protocol's types or tools.
    Emit {
        /// The protocol file.
        file: PathBuf,
        /// The consumer the schema is shaped for.
        #[arg(long, value_enum, default_value_t = Target::JsonSchema)]
        target: Target,
        /// Emit one type as a standalone schema document.
        #[arg(long = "type", value_name = "NAME", conflicts_with = "tool")]
        type_name: Option<String>,
        /// Emit one tool's parameters as a standalone schema document.
        #[arg(long, value_name = "NAME")]
        tool: Option<String>,
        /// Write to this file instead of standard output.
        #[arg(short, long, value_name = "PATH")]
        output: Option<PathBuf>,
    },
    /// Explain a diagnostic code (without a code: list them all).
    Explain { code: Option<String> },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum Target {
    /// Plain JSON Schema 2020-12.
    JsonSchema,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            paths,
            format,
            deny_warnings,
        } => check(paths, format, deny_warnings),
        Command::Emit {
            file,
            target: Target::JsonSchema,
            type_name,
            tool,
            output,
        } => emit(
            &file,
            type_name.as_deref(),
            tool.as_deref(),
            output.as_deref(),
        ),
        Command::Explain { code } => explain(code.as_deref()),
    }
}

fn check(paths: Vec<PathBuf>, format: Format, deny_warnings: bool) -> ExitCode {
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths
    };
    let mut io_failed = false;
    let mut files = Vec::new();
    for path in &paths {
        match agent::find_protocols(path) {
            Ok(found) if found.is_empty() => {
                eprintln!("error: no protocol.yaml found under {}", path.display());
                io_failed = true;
            }
            Ok(found) => files.extend(found),
            Err(error) => {
                eprintln!("error: cannot read {}: {error}", path.display());
                io_failed = true;
            }
        }
    }
    let mut compiled = Vec::new();
    for file in files {
        match agent::check_path(&file) {
            Ok(reports) => compiled.extend(reports),
            Err(error) => {
                eprintln!("error: cannot read {}: {error}", file.display());
                io_failed = true;
            }
        }
    }

    let errors: usize = compiled.iter().map(|c| c.count(Severity::Error)).sum();
    let warnings: usize = compiled.iter().map(|c| c.count(Severity::Warning)).sum();
    let out = match format {
        Format::Json => render::json::render(&compiled),
        Format::Human => {
            let style = terminal_style(std::io::stdout().is_terminal());
            let mut out: String = compiled.iter().map(|c| human::render(c, style)).collect();
            let files = match compiled.len() {
                1 => "1 file".to_string(),
                n => format!("{n} files"),
            };
            out.push_str(&format!(
                "checked {files}: {}\n",
                human::summary(errors, warnings)
            ));
            out
        }
    };
    print(&out);
    if io_failed {
        ExitCode::from(2)
    } else if errors > 0 || (deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn emit(
    file: &Path,
    type_name: Option<&str>,
    tool: Option<&str>,
    output: Option<&Path>,
) -> ExitCode {
    let bytes = match agent::read(file) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("error: cannot read {}: {error}", file.display());
            return ExitCode::from(2);
        }
    };
    let compiled = agentc::compile(&file.display().to_string(), &bytes);
    if !compiled.diagnostics.is_empty() {
        let style = terminal_style(std::io::stderr().is_terminal());
        eprint!("{}", human::render(&compiled, style));
    }
    let model = match (&compiled.model, compiled.has_errors()) {
        (Some(model), false) => model,
        _ => {
            eprintln!(
                "error: {} has {}; no schema emitted",
                file.display(),
                human::summary(compiled.count(Severity::Error), 0)
            );
            return ExitCode::from(1);
        }
    };
    let schema = match (type_name, tool) {
        (Some(name), _) => emit::emit_type(model, name),
        (None, Some(name)) => emit::emit_tool(model, name),
        (None, None) => Ok(emit::emit_all(model)),
    };
    let schema = match schema {
        Ok(schema) => schema,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let text = serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n";
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

fn terminal_style(is_terminal: bool) -> Style {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if is_terminal && !no_color {
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

//! The command line as clap reads it: the subcommands and their
//! arguments.

use agentc::codegen;
use agentc::emit::Target;
use agentc::init::Template;
use agentc::render::human;
use agentc::validate::aap::{Kind as AapKind, StreamMode};
use agentc::validate::run_input::{Profile, Version};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// What every command's exit code means, in `agentc --help` and the
/// manual page; each command's own help says what 1 and 2 are for it.
const EXIT_CODES: &str = "\
Exit codes:
  0  done, and no errors (warnings do not count unless --deny-warnings)
  1  problems found: errors in a protocol or its data, a breaking change, a stale generated file
  2  nothing could be done as asked: a bad argument, a path that does not exist or cannot be read, a broken agentc.toml, a revision git cannot give";

/// The command line, written once and derived twice: [`Cli`], which
/// `main` parses, builds a subcommand's arguments only when it is the one
/// named (`defer`: building every command's arguments was most of what
/// starting `agentc` cost, for each run of one); [`WholeCli`] builds all
/// of them at once, for the completion scripts and the manual page, which
/// list the whole tree. (Clap copies the `help` command's tree from the
/// subcommands as they stand when the root is built, before a deferred
/// one has its own subcommands, so from `Cli` the scripts would not
/// complete `agentc help validate aap`.) The argument structs below carry
/// plain comments, not doc comments: a deferred command's arguments are
/// applied after its summary, and their doc comment would replace it.
macro_rules! command_line {
    ($cli:ident, $command:ident, $defer:tt) => {
        #[derive(Parser)]
        #[command(
            name = "agentc",
            version,
            about = "Offline compiler and linter for Octavus agent protocol files",
            after_help = EXIT_CODES
        )]
        pub(crate) struct $cli {
            #[command(subcommand)]
            pub(crate) command: $command,
        }

        #[derive(Subcommand)]
        #[command(defer = $defer)]
        pub(crate) enum $command {
            /// Write a new agent folder: protocol.yaml, settings.json, prompts and
            /// an agentc.toml that generates its bindings; never over anything.
            #[command(after_help = "\
Exit codes:
  0  written
  2  nothing written: a file it would write is already there (or a link is), the folder's name is not a slug, a file could not be written")]
            Init(InitArgs),
            /// Check protocol files and report every problem.
            #[command(after_help = "\
Exit codes:
  0  no errors (with --deny-warnings, no warnings either)
  1  errors (with --against, breaking changes too)
  2  a path that does not exist, cannot be read or finds no protocol; a broken agentc.toml; with --against, a revision or an old version that cannot be read
With --watch, each run prints its report and the watch goes on; Ctrl-C ends it with exit 0 (2 when the folders cannot be watched).")]
            Check(CheckArgs),
            /// Report what changed between two versions of a protocol that breaks
            /// the code around it: tools, replies and inputs.
            #[command(after_help = "\
Exit codes:
  0  no breaking change (with --deny-warnings, no warning either)
  1  breaking changes, or errors in the new version
  2  a version that cannot be read (a missing file, a revision git does not have); a broken agentc.toml")]
            Diff(DiffArgs),
            /// Print JSON Schema for a protocol's types or tools, shaped for a consumer.
            #[command(after_help = "\
Exit codes:
  0  emitted
  1  the protocol has errors, or the target cannot express it; nothing emitted
  2  a file that cannot be read or written, or a type or tool the protocol does not declare")]
            Emit(EmitArgs),
            #[command(about = gen_about(), after_help = "\
Exit codes:
  0  written (with --check: every generated file is current)
  1  a protocol has errors, or (--check) a generated file is stale
  2  nothing to generate, a broken agentc.toml, a file agentc would not overwrite, a path that gives nothing
With --watch, each run prints its report and the watch goes on; Ctrl-C ends it with exit 0 (2 when the folders cannot be watched).")]
            Gen(GenArgs),
            #[command(
                about = validate_about(),
                args_conflicts_with_subcommands = true,
                subcommand_negates_reqs = true,
                after_help = "\
Exit codes:
  0  valid (with --deny-warnings, no warnings either)
  1  invalid, including data that is not JSON or not UTF-8
  2  nothing could be validated: a file that cannot be read, a protocol with errors, no such type or tool"
            )]
            Validate(ValidateArgs),
            /// Explain a diagnostic code (without a code: list them all).
            #[command(after_help = "Exit codes:\n  0  explained\n  2  no such code")]
            Explain { code: Option<String> },
            /// Print the JSON Schema of the protocol file format, for editors' YAML
            /// support (with --reference, the format's reference in Markdown).
            Schema {
                /// Print the format's reference instead: every place of a protocol
                /// file and its keys, in Markdown.
                #[arg(long)]
                reference: bool,
            },
            /// Run the language server on standard input and output, for editors.
            #[command(after_help = "\
Exit codes:
  0  the client asked to shut down, then to exit
  1  the session ended without a shutdown request
  2  the server could not read from or write to its client")]
            Lsp,
            /// Run the MCP server on standard input and output, for coding agents:
            /// check, fix, explain, emit, validate, diff and gen as tools.
            #[command(after_help = "\
Reads only under the folders the client declares as its roots (or the
working folder), and writes only what a `fix` call asks it to.
Exit codes:
  0  the client closed the session
  2  the server could not start, or could not read from or write to its client")]
            Mcp,
            /// Print a shell completion script (source it, or put it where your
            /// shell loads completions).
            Completions {
                #[arg(value_enum)]
                shell: clap_complete::Shell,
            },
            /// Print the manual page (roff), for `man -l -` or a `man1` folder.
            Man,
        }
    };
}

command_line!(Cli, Command, true);
command_line!(WholeCli, WholeCommand, false);

/// `agentc gen`'s summary, naming the languages it writes.
fn gen_about() -> String {
    let langs: Vec<&str> = codegen::Lang::ALL.iter().map(|l| l.title()).collect();
    format!(
        "Write typed bindings ({}) for each protocol's tools, replies and inputs, or check that the committed ones are current",
        langs.join(", ")
    )
}

/// `agentc validate`'s summary, naming what it validates.
fn validate_about() -> String {
    format!(
        "Check JSON data against a protocol's type or tool, an AG-UI `RunAgentInput` ({}), or an AAP {}",
        Version::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        "request, turn reply or event stream"
    )
}

// `agentc check`'s arguments.
#[derive(clap::Args, Clone)]
pub(crate) struct CheckArgs {
    /// Protocol files, folders to search, or globs (default: the current folder).
    pub(crate) paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Exit with 1 when there are warnings, too.
    #[arg(long)]
    pub(crate) deny_warnings: bool,
    /// Also report what this consumer cannot express or would reject
    /// (repeatable; replaces the configuration's `targets`).
    #[arg(long = "target", value_enum, value_name = "TARGET")]
    pub(crate) targets: Vec<Target>,
    /// Use this configuration file instead of the nearest `agentc.toml`.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub(crate) config: Option<PathBuf>,
    /// Ignore every `agentc.toml`: the defaults.
    #[arg(long)]
    pub(crate) no_config: bool,
    /// Print the configuration the check would use for the first path, and stop.
    #[arg(long)]
    pub(crate) print_config: bool,
    /// Print the time each phase took, per file and in total, on standard error.
    #[arg(long)]
    pub(crate) timings: bool,
    /// Search what `.gitignore`, `.ignore` and git's excludes list, too.
    #[arg(long)]
    pub(crate) no_ignore: bool,
    /// In the human format, draw at most this many problems of each file
    /// (the other formats list every one).
    #[arg(long, value_name = "N", default_value_t = human::DEFAULT_MAX_DIAGNOSTICS)]
    pub(crate) max_diagnostics: usize,
    /// Also report what changed since this git revision, for each protocol
    /// checked (the same path at REV): `agentc diff` in the same run.
    #[arg(long, value_name = "REV")]
    pub(crate) against: Option<String>,
    /// Accept the problems this baseline file lists (instead of the
    /// configuration's `baseline`): only new ones are reported.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub(crate) baseline: Option<PathBuf>,
    /// Write every error and warning found to this baseline file (`-`:
    /// print it), and exit 0.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["against", "print_config"])]
    pub(crate) write_baseline: Option<PathBuf>,
    /// With `--against`: the least severe change shown (`info` lists
    /// compatible changes too).
    #[arg(long, value_enum, default_value_t = ShowLevel::Warning, requires = "against")]
    pub(crate) level: ShowLevel,
    /// Apply every safe fix in place (again until nothing changes), then
    /// report what remains.
    #[arg(long)]
    pub(crate) fix: bool,
    /// With `--fix` or `--diff`: apply the fixes that can change meaning,
    /// too (see `agentc explain CODE`).
    #[arg(long)]
    pub(crate) unsafe_fixes: bool,
    /// Print what `--fix` would change as a unified diff on standard
    /// output, and write nothing; exit 1 when there is a change.
    #[arg(long, conflicts_with_all = ["fix", "against", "print_config"])]
    pub(crate) diff: bool,
    /// Check, then check again whenever a protocol, settings.json, prompt,
    /// reference, skill, agentc.toml or baseline under the paths changes;
    /// Ctrl-C stops (exit 0).
    #[arg(long, conflicts_with_all = ["diff", "write_baseline", "print_config"])]
    pub(crate) watch: bool,
    /// With `--watch`: keep what earlier runs printed on the screen.
    #[arg(long, requires = "watch")]
    pub(crate) no_clear: bool,
}

// `agentc init`'s arguments.
#[derive(clap::Args)]
pub(crate) struct InitArgs {
    /// The agent folder to write, made when missing; its name is the
    /// agent's slug.
    #[arg(default_value = ".")]
    pub(crate) folder: PathBuf,
    /// A chat agent (interactive: triggers and handlers), or a worker
    /// (steps and an output).
    #[arg(long, value_enum, default_value_t = Template::Chat)]
    pub(crate) template: Template,
}

// `agentc diff`'s arguments.
#[derive(clap::Args)]
pub(crate) struct DiffArgs {
    /// The old version: a protocol file, an agent folder, or `REV:PATH`
    /// read from git (PATH from the repository's top, or `./PATH`; agentc
    /// never runs git and never fetches).
    pub(crate) old: String,
    /// The new version, in the same forms.
    pub(crate) new: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// The least severe change shown (`info` lists compatible changes too).
    #[arg(long, value_enum, default_value_t = ShowLevel::Warning)]
    pub(crate) level: ShowLevel,
    /// Exit with 1 when there are warnings, too.
    #[arg(long)]
    pub(crate) deny_warnings: bool,
    /// Use this configuration file instead of the nearest `agentc.toml`
    /// (found from NEW, or from the current folder).
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub(crate) config: Option<PathBuf>,
    /// Ignore every `agentc.toml`: the defaults.
    #[arg(long)]
    pub(crate) no_config: bool,
    /// In the human format, draw at most this many changes.
    #[arg(long, value_name = "N", default_value_t = human::DEFAULT_MAX_DIAGNOSTICS)]
    pub(crate) max_diagnostics: usize,
}

// `agentc gen`'s arguments.
#[derive(clap::Args, Clone)]
pub(crate) struct GenArgs {
    /// Protocol files, folders to search, or globs (default: the current folder).
    pub(crate) paths: Vec<PathBuf>,
    /// The languages (comma-separated); without it, each `[[gen]]` entry of
    /// agentc.toml.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LANG")]
    pub(crate) lang: Vec<codegen::Lang>,
    /// The folder to write to, with `--lang`.
    #[arg(long, value_name = "FOLDER", conflicts_with = "stdout")]
    pub(crate) out: Option<PathBuf>,
    /// Print the code instead of writing it.
    #[arg(long, conflicts_with = "check")]
    pub(crate) stdout: bool,
    /// Write nothing; exit 1 with the difference when a generated file is
    /// not what agentc generates now (for CI).
    #[arg(long)]
    pub(crate) check: bool,
    /// With `--lang`: validators refuse keys a type does not declare.
    #[arg(long)]
    pub(crate) strict: bool,
    /// With `--lang`: an optional property may also be `null` (data from
    /// OpenAI's strict mode).
    #[arg(long)]
    pub(crate) optional_null: bool,
    /// With `--lang python`: field names as on the wire, or in snake_case
    /// with the wire names as aliases.
    #[arg(long, value_enum, default_value_t = FieldCase::Wire)]
    pub(crate) field_case: FieldCase,
    /// Output format of the problems.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Use this configuration file instead of the nearest `agentc.toml`.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub(crate) config: Option<PathBuf>,
    /// Ignore every `agentc.toml`: the defaults.
    #[arg(long)]
    pub(crate) no_config: bool,
    /// Generate, then again whenever a protocol, settings.json, prompt,
    /// reference, skill or agentc.toml under the paths changes; Ctrl-C
    /// stops (exit 0).
    #[arg(long)]
    pub(crate) watch: bool,
    /// With `--watch`: keep what earlier runs printed on the screen.
    #[arg(long, requires = "watch")]
    pub(crate) no_clear: bool,
}

/// How Python fields are named.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FieldCase {
    Wire,
    Snake,
}

/// The least severe contract change a run shows.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ShowLevel {
    Error,
    Warning,
    Info,
}

impl ShowLevel {
    /// The least severe change shown.
    pub(crate) fn least(self) -> agentc::Severity {
        match self {
            ShowLevel::Error => agentc::Severity::Error,
            ShowLevel::Warning => agentc::Severity::Warning,
            ShowLevel::Info => agentc::Severity::Info,
        }
    }
}

// `agentc emit`'s arguments.
#[derive(clap::Args)]
pub(crate) struct EmitArgs {
    /// The protocol file, or its agent folder.
    pub(crate) file: PathBuf,
    /// The consumer the output is shaped for.
    #[arg(long, value_enum, default_value_t = Target::JsonSchema)]
    pub(crate) target: Target,
    /// Emit one type's schema.
    #[arg(long = "type", value_name = "NAME", conflicts_with_all = ["tool", "response", "meta"])]
    pub(crate) type_name: Option<String>,
    /// Emit one tool.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["response", "meta"])]
    pub(crate) tool: Option<String>,
    /// Emit the structured-output request for an object type (openai, anthropic, gemini).
    #[arg(long, value_name = "NAME", conflicts_with = "meta")]
    pub(crate) response: Option<String>,
    /// With `--target aap`: the `GET /meta` response, from the agent folder's settings.json.
    #[arg(long, requires = "agent_version")]
    pub(crate) meta: bool,
    /// The agent's semantic version, for `--meta`.
    #[arg(long, value_name = "VERSION", requires = "meta")]
    pub(crate) agent_version: Option<String>,
    /// Write to this file instead of standard output (`-` is standard output).
    #[arg(short, long, value_name = "PATH")]
    pub(crate) output: Option<PathBuf>,
}

// `agentc validate`'s arguments: a protocol and data, or a subcommand.
#[derive(clap::Args)]
#[group(id = "against", args = ["type_name", "tool"], required = true, multiple = false)]
pub(crate) struct ValidateArgs {
    #[command(subcommand)]
    pub(crate) command: Option<ValidateCommand>,
    /// The protocol file, or its agent folder.
    #[arg(required = true)]
    pub(crate) file: Option<PathBuf>,
    /// The data: a JSON file, or `-` for standard input.
    #[arg(required = true)]
    pub(crate) data: Option<PathBuf>,
    /// Validate values of this type.
    #[arg(long = "type", value_name = "NAME")]
    pub(crate) type_name: Option<String>,
    /// Validate this tool's arguments: a JSON object, or a string holding one (as AG-UI sends them).
    #[arg(long, value_name = "NAME")]
    pub(crate) tool: Option<String>,
    /// An optional property may also be `null`, as in data that passed
    /// through OpenAI's strict mode, which writes `null` for one left out.
    #[arg(long)]
    pub(crate) optional_null: bool,
    #[command(flatten)]
    pub(crate) options: DataOptions,
}

#[derive(Subcommand)]
#[command(defer = true)]
pub(crate) enum ValidateCommand {
    /// Check an AG-UI `RunAgentInput` payload.
    RunInput {
        /// The payload: a JSON file, or `-` for standard input.
        payload: PathBuf,
        /// Also check each tool call's arguments against this protocol's
        /// tools (a protocol file, or its agent folder).
        #[arg(long, value_name = "FILE")]
        protocol: Option<PathBuf>,
        /// Which rules apply.
        #[arg(long, value_enum, default_value_t = Profile::AgUi)]
        profile: Profile,
        /// The AG-UI version the payload is validated against.
        #[arg(long, value_enum, value_name = "VERSION", default_value_t = Version::V1_0)]
        ag_ui_version: Version,
        /// Members the AG-UI version does not define are errors
        /// (`unknown-property`) rather than warnings (`unknown-member`).
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        options: DataOptions,
    },
    /// Check an AAP v3 request, turn reply, or SSE event stream.
    Aap {
        /// What the payload is.
        #[arg(value_enum)]
        kind: AapKind,
        /// The payload: a JSON file (a `text/event-stream` for `events`),
        /// or `-` for standard input.
        payload: PathBuf,
        /// Also check `agent.options` against the agent's options and each
        /// tool call's `input` against this protocol's tools (a protocol
        /// file, or its agent folder).
        #[arg(long, value_name = "FILE")]
        protocol: Option<PathBuf>,
        /// For `events`: the stream mode the turn asked for (otherwise that
        /// of the first text or thinking event).
        #[arg(long, value_enum, value_name = "MODE")]
        stream: Option<StreamMode>,
        #[command(flatten)]
        options: DataOptions,
    },
}

// How `agentc validate` reads data and reports.
#[derive(clap::Args, Clone, Copy)]
pub(crate) struct DataOptions {
    /// The data is JSON Lines: one value per line.
    #[arg(long)]
    pub(crate) lines: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Exit with 1 when there are warnings, too.
    #[arg(long)]
    pub(crate) deny_warnings: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Format {
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
    /// Markdown, for a pull-request comment: changes grouped by contract.
    Markdown,
}

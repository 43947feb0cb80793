//! The server's tools: each an input type (its JSON Schema derived from
//! it), an output schema, and a call into the library that returns data.
//! Nothing here prints, and nothing is written but what `fix` is asked to
//! write.

use super::roots::Roots;
use crate::codegen::{Lang, Options as GenOptions};
use crate::diagnostic::{Applicability, Code, Failure};
use crate::disk::{self, Reach};
use crate::emit::{Selection, Target};
use crate::project::{self, ConfigChoice, Ignores};
use crate::source::MAX_FILE_BYTES;
use crate::validate::Payload;
use crate::validate::aap::StreamMode;
use crate::validate::run_input;
use crate::workspace::{Fixed, Memory, Problem, Workspace};
use crate::{FileReport, render};
use rmcp::model::JsonObject;
use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

/// What a tool gives: its structured result, or why it could not (a
/// result with `isError`, its text the reason).
pub type Outcome = Result<Value, String>;

/// One tool: its name, what it is for, its schemas and its call.
pub struct Spec {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub input: fn() -> Arc<JsonObject>,
    pub output: fn() -> Arc<JsonObject>,
    /// Whether the tool can change anything (`fix` with `write`).
    pub writes: bool,
    /// Whether the tool reads files or looks for a configuration, under
    /// the client's roots (which it then waits for).
    pub reads: bool,
    pub call: fn(&Roots, Value) -> Outcome,
}

/// Every tool, in the order `tools/list` gives them.
pub const TOOLS: &[Spec] = &[
    Spec {
        name: "check",
        title: "Check a protocol",
        description: "Check an Octavus protocol (protocol.yaml, with its agent folder) as `agentc check --format json` does: every problem with its file, line, column, code, message, help, related places and fix edits, and the counts. Give `path` (a file or folder under the roots), or `text` (a draft protocol.yaml, with `files` beside it), or both (the text as a draft of that file, checked with the files around it on disk).",
        input: input::<CheckArgs>,
        output: report_schema,
        writes: false,
        reads: true,
        call: |roots, args| check(roots, parse(args)?),
    },
    Spec {
        name: "fix",
        title: "Fix a protocol",
        description: "Apply the fixes `agentc check --fix` applies (safe ones; with `unsafe`, those that may change meaning too) and give each changed file's new text and a unified diff, with the problems that remain. Nothing is written unless `write` is true and `path` names the protocol on disk.",
        input: input::<FixArgs>,
        output: output_fix,
        writes: true,
        reads: true,
        call: |roots, args| fix(roots, parse(args)?),
    },
    Spec {
        name: "explain",
        title: "Explain a diagnostic code",
        description: "A diagnostic code's page: what it means, why it matters, how to fix it (`agentc explain CODE`).",
        input: input::<ExplainArgs>,
        output: output_explain,
        writes: false,
        reads: false,
        call: |_, args| explain(parse(args)?),
    },
    Spec {
        name: "emit",
        title: "Emit the schema a provider gets",
        description: "The JSON Schema of a protocol's tools, one tool, a type, or a reply type (`response`), shaped for a target (openai, anthropic, gemini, ag-ui, aap, json-schema, tools-prompt): exactly what is sent to the provider, with the target's warnings.",
        input: input::<EmitArgs>,
        output: output_emit,
        writes: false,
        reads: true,
        call: |roots, args| emit(roots, parse(args)?),
    },
    Spec {
        name: "validate",
        title: "Validate data",
        description: "Validate JSON data: a tool call's arguments (`tool`) or a value (`type`) against the protocol, or a `payload` (an AG-UI RunAgentInput, or an AAP request, reply or event stream), with each problem located by JSON pointer, line and column.",
        input: input::<ValidateArgs>,
        output: report_schema,
        writes: false,
        reads: true,
        call: |roots, args| validate(roots, parse(args)?),
    },
    Spec {
        name: "diff",
        title: "Diff two versions of a protocol",
        description: "The contract changes between two versions of a protocol, each with its severity (breaking changes are errors): `old` and `new` as texts, or `path` against a git `revision` (the old version) with the file on disk as the new.",
        input: input::<DiffArgs>,
        output: report_schema,
        writes: false,
        reads: true,
        call: |roots, args| diff(roots, parse(args)?),
    },
    Spec {
        name: "gen",
        title: "Generate typed bindings",
        description: "Typed bindings for a protocol's types and tools (TypeScript, zod or Python pydantic), returned as files; nothing is written.",
        input: input::<GenArgs>,
        output: output_gen,
        writes: false,
        reads: true,
        call: |roots, args| generate(roots, parse(args)?),
    },
    Spec {
        name: "schema",
        title: "The protocol format's JSON Schema",
        description: "The JSON Schema of the protocol file format (what `agentc schema` prints), for knowing which keys go where.",
        input: input::<SchemaArgs>,
        output: output_schema,
        writes: false,
        reads: false,
        call: |_, args| {
            let SchemaArgs {} = parse(args)?;
            Ok(json!({ "schema": crate::grammar::editor_schema::schema() }))
        },
    },
];

/// The tool named `name`.
pub fn find(name: &str) -> Option<&'static Spec> {
    TOOLS.iter().find(|tool| tool.name == name)
}

/// The arguments every tool that reads a protocol takes: where it is, or
/// its text.
#[derive(Deserialize, JsonSchema, Default)]
#[schemars(crate = "rmcp::schemars")]
pub struct Protocol {
    /// A protocol file or an agent folder (for `check`, any folder, searched as `agentc check` searches it), relative to the server's working folder or absolute, under the client's roots.
    #[serde(default)]
    pub path: Option<String>,
    /// The text of a protocol.yaml. Alone, it is named `protocol.yaml`; with `path`, it is a draft of that file, read with the files around it on disk.
    #[serde(default)]
    pub text: Option<String>,
    /// Files beside `text` (without `path`), by relative path: `settings.json`, `prompts/NAME.md`, `references/NAME.md`, `skills/NAME/SKILL.md`.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// The text of an `agentc.toml` governing `text` (without `path`).
    #[serde(default)]
    pub config: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct CheckArgs {
    #[serde(flatten)]
    pub protocol: Protocol,
    /// Also check that these targets can express the protocol, as `agentc check --target` does.
    #[serde(default)]
    pub targets: Vec<TargetName>,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct FixArgs {
    #[serde(flatten)]
    pub protocol: Protocol,
    /// Apply the unsafe fixes too (those that can change what the protocol means), as `--unsafe-fixes` does.
    #[serde(default, rename = "unsafe")]
    pub unsafe_fixes: bool,
    /// Write the fixed files to disk. Only with `path` (and no `text`): the protocol's own files under the roots, never through a link.
    #[serde(default)]
    pub write: bool,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct ExplainArgs {
    /// A diagnostic code, as diagnostics give it (`unknown-type`).
    pub code: String,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct EmitArgs {
    #[serde(flatten)]
    pub protocol: Protocol,
    /// Whose shape: the consumer the schema is sent to.
    pub target: TargetName,
    /// One tool's schema.
    #[serde(default)]
    pub tool: Option<String>,
    /// One type's schema.
    #[serde(default, rename = "type")]
    pub type_name: Option<String>,
    /// A provider's structured-output request for this object type.
    #[serde(default)]
    pub response: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct ValidateArgs {
    #[serde(flatten)]
    pub protocol: Protocol,
    /// The data, as text: JSON (tool arguments may also be a JSON string holding the object, as AG-UI sends them), or for `aap-events` a text/event-stream.
    pub data: String,
    /// Validate a tool call's arguments against this tool.
    #[serde(default)]
    pub tool: Option<String>,
    /// Validate a value against this type.
    #[serde(default, rename = "type")]
    pub type_name: Option<String>,
    /// Validate a protocol payload; its tool calls are checked against the protocol's tools when one is given.
    #[serde(default)]
    pub payload: Option<PayloadName>,
    /// The name the data has in diagnostics (default `data.json`).
    #[serde(default)]
    pub name: Option<String>,
    /// With `tool` or `type`: an optional property may also be `null`, as in data that passed through OpenAI's strict mode.
    #[serde(default, rename = "optionalNull")]
    pub optional_null: bool,
}

/// A protocol payload `validate` knows, by its name
/// ([`crate::validate::Payload`]).
#[derive(Clone, Copy)]
pub struct PayloadName(pub Payload);

impl<'de> Deserialize<'de> for PayloadName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PayloadName, D::Error> {
        let name = String::deserialize(d)?;
        Payload::from_name(&name).map(PayloadName).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "no payload `{}`; the payloads are {}",
                crate::render::inert(&name),
                names(Payload::ALL.map(Payload::name))
            ))
        })
    }
}

impl JsonSchema for PayloadName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Payload".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let described: Vec<String> = Payload::ALL
            .iter()
            .map(|p| format!("`{}`: {}", p.name(), p.summary()))
            .collect();
        schemars::json_schema!({
            "type": "string",
            "enum": Payload::ALL.map(Payload::name),
            "description": described.join("; "),
        })
    }
    fn inline_schema() -> bool {
        true
    }
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct DiffArgs {
    /// The old version's text.
    #[serde(default)]
    pub old: Option<String>,
    /// The new version's text.
    #[serde(default)]
    pub new: Option<String>,
    /// A protocol file on disk (the new version), under the roots, with `revision`.
    #[serde(default)]
    pub path: Option<String>,
    /// The git revision holding the old version of `path` (default `HEAD`).
    #[serde(default)]
    pub revision: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct GenArgs {
    #[serde(flatten)]
    pub protocol: Protocol,
    /// The language of the bindings.
    pub lang: LangName,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct SchemaArgs {}

/// A target, by the name `--target` takes.
pub struct TargetName(pub Target);

impl<'de> Deserialize<'de> for TargetName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TargetName, D::Error> {
        let name = String::deserialize(d)?;
        Target::from_name(&name).map(TargetName).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "no target `{name}`; the targets are {}",
                names(Target::ALL.map(Target::name))
            ))
        })
    }
}

impl JsonSchema for TargetName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Target".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": Target::ALL.map(Target::name),
        })
    }
    fn inline_schema() -> bool {
        true
    }
}

/// A language, by the name `agentc gen --lang` takes.
pub struct LangName(pub Lang);

impl<'de> Deserialize<'de> for LangName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LangName, D::Error> {
        let name = String::deserialize(d)?;
        Lang::ALL
            .into_iter()
            .find(|lang| lang.name() == name)
            .map(LangName)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "no language `{name}`; the languages are {}",
                    names(Lang::ALL.map(Lang::name))
                ))
            })
    }
}

impl JsonSchema for LangName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Lang".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": Lang::ALL.map(Lang::name),
        })
    }
    fn inline_schema() -> bool {
        true
    }
}

fn names<const N: usize>(names: [&str; N]) -> String {
    names.map(|n| format!("`{n}`")).join(", ")
}

/// The input schema of `T`.
fn input<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    rmcp::handler::server::common::schema_for_type::<T>()
}

/// `arguments` as `T`, or what is wrong with them: a wrong type, a
/// missing field, or a name the tool does not take.
pub fn parse<T: for<'de> Deserialize<'de> + JsonSchema + 'static>(
    arguments: Value,
) -> Result<T, String> {
    let arguments = match arguments {
        Value::Null => Value::Object(Default::default()),
        other => other,
    };
    let Value::Object(given) = &arguments else {
        return Err("the arguments are not an object".to_string());
    };
    let schema = input::<T>();
    let known: Vec<&str> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default();
    if let Some(unknown) = given.keys().find(|key| !known.contains(&key.as_str())) {
        let help =
            crate::diagnostic::did_you_mean(unknown, known.iter().copied()).unwrap_or_else(|| {
                format!(
                    "the arguments are {}",
                    known
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
        return Err(format!(
            "unknown argument `{}` ({help})",
            crate::render::inert(unknown)
        ));
    }
    serde_json::from_value(arguments).map_err(|error| format!("invalid arguments: {error}"))
}

/// The `--format json` document's schema (`schema/report.schema.json`).
pub fn report_schema() -> Arc<JsonObject> {
    static REPORT: std::sync::LazyLock<Arc<JsonObject>> = std::sync::LazyLock::new(|| {
        let mut schema: JsonObject =
            serde_json::from_str(include_str!("../../schema/report.schema.json"))
                .unwrap_or_default();
        schema.remove("$schema");
        Arc::new(schema)
    });
    Arc::clone(&REPORT)
}

fn object(properties: Value, required: &[&str]) -> Arc<JsonObject> {
    let schema = json!({
        "type": "object",
        "properties": properties,
        "required": required,
    });
    match schema {
        Value::Object(schema) => Arc::new(schema),
        _ => Arc::new(JsonObject::new()),
    }
}

fn report_value() -> Value {
    Value::Object((*report_schema()).clone())
}

fn output_fix() -> Arc<JsonObject> {
    object(
        json!({
            "applied": {"type": "integer", "minimum": 0, "description": "How many fixes were applied."},
            "files": {
                "type": "array",
                "description": "Each file the fixes changed.",
                "items": {
                    "type": "object",
                    "properties": {
                        "path": {"type": "string"},
                        "text": {"type": "string", "description": "The file's fixed text."},
                        "diff": {"type": "string", "description": "A unified diff from the old text to the new."}
                    },
                    "required": ["path", "text", "diff"]
                }
            },
            "written": {"type": "boolean", "description": "Whether the files were written to disk."},
            "report": report_value(),
        }),
        &["applied", "files", "written", "report"],
    )
}

fn output_explain() -> Arc<JsonObject> {
    object(
        json!({
            "code": {"type": "string"},
            "severity": {"enum": ["error", "warning", "info"], "description": "Its default severity."},
            "summary": {"type": "string"},
            "fix": {"enum": ["safe", "unsafe", "suggestion", null], "description": "What `agentc check --fix` does with its fixes; null when it has none."},
            "page": {"type": "string", "description": "The whole page, Markdown."},
        }),
        &["code", "severity", "summary", "fix", "page"],
    )
}

fn output_emit() -> Arc<JsonObject> {
    object(
        json!({
            "target": {"type": "string"},
            "output": {"description": "What the target gets: JSON, or for `tools-prompt` text."},
            "report": report_value(),
        }),
        &["target", "output", "report"],
    )
}

fn output_gen() -> Arc<JsonObject> {
    object(
        json!({
            "files": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "text": {"type": "string"}
                    },
                    "required": ["name", "text"]
                }
            }
        }),
        &["files"],
    )
}

fn output_schema() -> Arc<JsonObject> {
    object(
        json!({ "schema": {"type": "object", "description": "A JSON Schema (draft-07)."} }),
        &["schema"],
    )
}

/// The `--format json` document of `reports` and `failures`, as a value.
pub fn document(reports: &[FileReport], failures: &[Failure]) -> Value {
    let mut text = Vec::new();
    match render::json::write(&mut text, reports, failures) {
        Ok(()) => serde_json::from_slice(&text).unwrap_or(Value::Null),
        Err(_) => Value::Null,
    }
}

/// The report of a protocol that could not be used (it has errors, or a
/// target cannot express it), as the refusal's text.
fn refused(problem: Problem) -> String {
    match problem {
        Problem::Errors(reports) if !reports.is_empty() => format!(
            "the protocol has errors; fix them first (the `check` tool gives them with their fixes):\n{}",
            render::short::render(&reports)
        ),
        Problem::Inexpressible(report) => format!(
            "the target cannot express the protocol as it is:\n{}",
            render::short::render(std::slice::from_ref(&report))
        ),
        other => other.to_string(),
    }
}

/// Where a call's protocol is, made into files to work on.
enum Source {
    /// On disk: the path as given (admitted under the roots).
    Disk(PathBuf),
    /// In memory: the workspace, the protocol's path in it, and whether
    /// its files are laid over the disk (a draft of a file on disk).
    Memory {
        workspace: Box<Workspace>,
        path: PathBuf,
        over_disk: bool,
    },
}

/// The longest text a call takes: what agentc reads of a file.
fn text_fits(what: &str, text: &str) -> Result<(), String> {
    match text.len() > MAX_FILE_BYTES {
        true => Err(format!(
            "{what} is {} bytes; agentc reads files of at most {MAX_FILE_BYTES} bytes",
            text.len()
        )),
        false => Ok(()),
    }
}

/// A relative path in `files`, as a workspace names it: no `..`, not
/// absolute, not empty.
fn relative(name: &str) -> Result<PathBuf, String> {
    crate::workspace::relative_path(name).ok_or_else(|| {
        format!(
            "`{}` in `files` is not a relative path inside the agent folder",
            crate::render::inert(name)
        )
    })
}

impl Protocol {
    /// Where the protocol is, checked: a path under the roots, or text.
    fn source(self, roots: &Roots) -> Result<Source, String> {
        if let Some(text) = &self.text {
            text_fits("`text`", text)?;
        }
        match (self.path, self.text) {
            (None, None) => {
                Err("give `path` (a protocol on disk) or `text` (a protocol's text)".to_string())
            }
            (Some(path), None) => {
                if !self.files.is_empty() || self.config.is_some() {
                    return Err("`files` and `config` go with `text`; with `path` alone, the files on disk are read".to_string());
                }
                Ok(Source::Disk(roots.admit(&path)?))
            }
            (Some(path), Some(text)) => {
                if !self.files.is_empty() || self.config.is_some() {
                    return Err("with `path` and `text`, the files around the path are read from disk: leave out `files` and `config`".to_string());
                }
                let path = roots.admit(&path)?;
                if path.is_dir() {
                    return Err(format!(
                        "`{}` is a folder; a draft's `path` names the file it replaces",
                        path.display()
                    ));
                }
                let mut workspace = Workspace::new();
                workspace.insert(path.clone(), text);
                Ok(Source::Memory {
                    workspace: Box::new(workspace),
                    path,
                    over_disk: true,
                })
            }
            (None, Some(text)) => {
                let mut workspace = Workspace::new();
                if let Some(config) = &self.config {
                    text_fits("`config`", config)?;
                    workspace.set_config(config).map_err(|report| {
                        format!(
                            "`config` has problems:\n{}",
                            render::short::render(std::slice::from_ref(&report))
                        )
                    })?;
                }
                for (name, file) in self.files {
                    text_fits(&format!("`files.{}`", crate::render::inert(&name)), &file)?;
                    let name = relative(&name)?;
                    if name == Path::new("protocol.yaml") {
                        return Err(
                            "`files` holds `protocol.yaml`: give its text as `text`".to_string()
                        );
                    }
                    workspace.insert(name, file);
                }
                workspace.insert("protocol.yaml", text);
                Ok(Source::Memory {
                    workspace: Box::new(workspace),
                    path: PathBuf::from("protocol.yaml"),
                    over_disk: false,
                })
            }
        }
    }

    /// The protocol as a workspace holding it (and `settings.json` beside
    /// it), and its path there: what `emit`, `validate` and `gen` take.
    fn workspace(self, roots: &Roots) -> Result<(Workspace, PathBuf), String> {
        match self.source(roots)? {
            Source::Memory {
                workspace, path, ..
            } => Ok((*workspace, path)),
            Source::Disk(path) => {
                let file = project::protocol_file(&path);
                let mut workspace = Workspace::new();
                let text = read_text(&file, Reach::Named)?;
                workspace.insert(file.clone(), text);
                let folder = file.parent().unwrap_or(Path::new("")).to_path_buf();
                let settings = folder.join("settings.json");
                if disk::exists(&settings)
                    && let Ok(text) = read_text(&settings, Reach::Within(&folder))
                {
                    workspace.insert(settings, text);
                }
                Ok((workspace, file))
            }
        }
    }
}

/// A file's text, read as agentc reads a file, or why not.
fn read_text(path: &Path, reach: Reach) -> Result<String, String> {
    let bytes = disk::read(path, reach)
        .map_err(|error| format!("`{}` was not read: {error}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| format!("`{}` is not UTF-8 text", path.display()))
}

fn check(roots: &Roots, args: CheckArgs) -> Outcome {
    let targets: Vec<Target> = args.targets.iter().map(|t| t.0).collect();
    let targets = (!targets.is_empty()).then_some(targets);
    match args.protocol.source(roots)? {
        Source::Disk(path) => Ok(check_disk(roots, &path, targets.as_deref())),
        Source::Memory {
            workspace,
            path,
            over_disk,
        } => {
            let mut config = match over_disk {
                true => (*config_for(roots, &path)?).clone(),
                false => workspace.config().clone(),
            };
            if let Some(targets) = targets {
                config.targets = targets;
            }
            let reports = match over_disk {
                true => {
                    let files = crate::agent::Layered {
                        buffers: &Memory(&workspace_files(&workspace)),
                        under: &disk::Disk,
                    };
                    Workspace::check_in(&files, &path, Reach::Named, &config)
                }
                false => Workspace::check_in(
                    &Memory(&workspace_files(&workspace)),
                    &path,
                    Reach::Named,
                    &config,
                ),
            };
            Ok(document(&reports, &[]))
        }
    }
}

/// The workspace's files, by path.
fn workspace_files(workspace: &Workspace) -> BTreeMap<PathBuf, String> {
    workspace
        .paths()
        .filter_map(|path| Some((path.to_path_buf(), workspace.get(path)?.to_string())))
        .collect()
}

/// The configuration that governs `path`: the nearest `agentc.toml`,
/// looked for only under the roots; one with problems is the refusal, as
/// it stops `agentc check`.
fn config_for(roots: &Roots, path: &Path) -> Result<Arc<crate::config::Config>, String> {
    let mut configs = project::Configs::new(ConfigChoice::NearestWithin(roots.folders().to_vec()));
    let config = configs.of(path);
    let broken: Vec<FileReport> = configs
        .broken
        .into_iter()
        .map(|(source, diagnostics)| FileReport::uncompiled(source, diagnostics))
        .collect();
    if let Some(failure) = configs.failures.first() {
        return Err(failure.message.clone());
    }
    match broken.is_empty() {
        true => Ok(config),
        false => Err(format!(
            "agentc.toml has problems; nothing was done:\n{}",
            render::short::render(&broken)
        )),
    }
}

/// `agentc check --format json PATH`, as a value: the plan, the check,
/// the baseline.
fn check_disk(roots: &Roots, path: &Path, targets: Option<&[Target]>) -> Value {
    let choice = ConfigChoice::NearestWithin(roots.folders().to_vec());
    let plan = project::plan(&[path.to_path_buf()], choice, Ignores::RespectWithin);
    if !plan.broken_configs.is_empty() || !plan.unreadable_configs.is_empty() {
        let reports: Vec<FileReport> = plan
            .broken_configs
            .into_iter()
            .map(|(source, diagnostics)| FileReport::uncompiled(source, diagnostics))
            .collect();
        return document(&reports, &plan.unreadable_configs);
    }
    let done = AtomicUsize::new(0);
    let mut results = project::check(&plan.files, targets, &done);
    let mut failures = plan.failures;
    let applied = project::baseline::apply(&plan.files, &mut results, None);
    if !applied.broken.is_empty() || !applied.failures.is_empty() {
        let reports: Vec<FileReport> = applied
            .broken
            .into_iter()
            .map(|(source, diagnostics)| FileReport::uncompiled(source, diagnostics))
            .collect();
        return document(&reports, &applied.failures);
    }
    let mut reports: Vec<FileReport> = results.into_iter().flatten().collect();
    reports.extend(applied.unused);
    failures.extend(applied.failures);
    document(&reports, &failures)
}

fn fix(roots: &Roots, args: FixArgs) -> Outcome {
    let least_sure = match args.unsafe_fixes {
        true => Applicability::Unsafe,
        false => Applicability::Safe,
    };
    let source = args.protocol.source(roots)?;
    let fixed: Fixed = match &source {
        Source::Disk(path) => {
            let file = project::protocol_file(path);
            let config = config_for(roots, &file)?;
            Workspace::fix_in(&disk::Disk, &file, Reach::Named, &config, least_sure)
        }
        Source::Memory { .. } if args.write => {
            return Err(
                "`write` needs `path` alone: the fixes of a text are returned, not written"
                    .to_string(),
            );
        }
        Source::Memory {
            workspace,
            path,
            over_disk: true,
        } => {
            let config = config_for(roots, path)?;
            let files = crate::agent::Layered {
                buffers: &Memory(&workspace_files(workspace)),
                under: &disk::Disk,
            };
            Workspace::fix_in(&files, path, Reach::Named, &config, least_sure)
        }
        Source::Memory {
            workspace,
            path,
            over_disk: false,
        } => workspace.fix(path, least_sure),
    };
    let mut written = false;
    if args.write && !fixed.files.is_empty() {
        let refused = project::write_fixes(&fixed);
        if let Some(first) = refused.first() {
            return Err(format!("the fixes were not written: {}", first.message));
        }
        written = true;
    }
    let files = fixed.files_json();
    Ok(json!({
        "applied": fixed.applied,
        "files": files,
        "written": written,
        "report": document(&fixed.reports, &[]),
    }))
}

fn explain(args: ExplainArgs) -> Outcome {
    let Some(code) = Code::from_name(&args.code) else {
        let help = crate::diagnostic::did_you_mean(&args.code, Code::ALL.iter().map(|c| c.name()))
            .unwrap_or_else(|| "the resource `agentc://codes` lists every code".to_string());
        return Err(format!(
            "no diagnostic code `{}` ({help})",
            crate::render::inert(&crate::yaml::abbreviate(&args.code))
        ));
    };
    Ok(json!({
        "code": code.name(),
        "severity": code.severity().as_str(),
        "summary": code.summary(),
        "fix": code.fix(),
        "page": super::resources::page(code),
    }))
}

fn emit(roots: &Roots, args: EmitArgs) -> Outcome {
    let selection = match (&args.tool, &args.type_name, &args.response) {
        (None, None, None) => Selection::All,
        (Some(tool), None, None) => Selection::Tool(tool),
        (None, Some(name), None) => Selection::Type(name),
        (None, None, Some(name)) => Selection::Response(name),
        _ => return Err("give at most one of `tool`, `type` and `response`".to_string()),
    };
    let (workspace, path) = args.protocol.workspace(roots)?;
    let emitted = workspace
        .emit(&path, args.target.0, selection)
        .map_err(refused)?;
    let output = emitted.output.into_value();
    Ok(json!({
        "target": args.target.0.name(),
        "output": output,
        "report": document(std::slice::from_ref(&emitted.report), &[]),
    }))
}

fn validate(roots: &Roots, args: ValidateArgs) -> Outcome {
    text_fits("`data`", &args.data)?;
    let name = args.name.as_deref().unwrap_or("data.json");
    let given = args.protocol.path.is_some() || args.protocol.text.is_some();
    let (workspace, path) = match given {
        true => {
            let (workspace, path) = args.protocol.workspace(roots)?;
            (workspace, Some(path))
        }
        false => (Workspace::new(), None),
    };
    let path = path.as_deref();
    let report = match (&args.tool, &args.type_name, args.payload) {
        (Some(tool), None, None) => {
            let path = path.ok_or("`tool` needs the protocol: give `path` or `text`")?;
            workspace.validate_with(
                path,
                Selection::Tool(tool),
                args.optional_null,
                name,
                &args.data,
            )
        }
        (None, Some(type_name), None) => {
            let path = path.ok_or("`type` needs the protocol: give `path` or `text`")?;
            workspace.validate_with(
                path,
                Selection::Type(type_name),
                args.optional_null,
                name,
                &args.data,
            )
        }
        (None, None, Some(_)) if args.optional_null => {
            return Err("`optionalNull` goes with `tool` or `type`".to_string());
        }
        (None, None, Some(PayloadName(payload))) => match payload {
            Payload::RunInput => {
                workspace.validate_run_input(run_input::Options::default(), path, name, &args.data)
            }
            Payload::Aap(kind) => {
                workspace.validate_aap(kind, path, None::<StreamMode>, name, &args.data)
            }
        },
        _ => return Err("give one of `tool`, `type` and `payload`".to_string()),
    };
    let report = report.map_err(refused)?;
    Ok(document(std::slice::from_ref(&report), &[]))
}

fn diff(roots: &Roots, args: DiffArgs) -> Outcome {
    match (args.old, args.new, args.path) {
        (Some(old_text), Some(new_text), None) => {
            if args.revision.is_some() {
                return Err("`revision` goes with `path`".to_string());
            }
            text_fits("`old`", &old_text)?;
            text_fits("`new`", &new_text)?;
            let mut old = Workspace::new();
            old.insert("protocol.yaml", old_text);
            let mut new = Workspace::new();
            new.insert("protocol.yaml", new_text);
            let report = new.diff(&old, "protocol.yaml").map_err(refused)?;
            Ok(document(std::slice::from_ref(&report), &[]))
        }
        (None, None, Some(path)) => {
            diff_revision(roots, &path, args.revision.as_deref().unwrap_or("HEAD"))
        }
        _ => Err("give `old` and `new` (two texts), or `path` (with `revision`)".to_string()),
    }
}

/// `agentc diff REVISION:PATH PATH`, as a value.
#[cfg(feature = "git")]
fn diff_revision(roots: &Roots, path: &str, revision: &str) -> Outcome {
    let path = roots.admit(path)?;
    let file = project::protocol_file(&path);
    if revision.is_empty() || revision.starts_with('-') || revision.contains(['\0', '\n']) {
        return Err(format!(
            "`{}` is not a revision",
            crate::render::inert(revision)
        ));
    }
    let old = project::against::load_file_at(revision, &file).map_err(|failure| failure.message)?;
    let new =
        project::against::load(&file.display().to_string()).map_err(|failure| failure.message)?;
    let config = config_for(roots, &file)?;
    let old_report = crate::compile(&old.name, old.bytes);
    let mut new_report = crate::compile(&new.name, new.bytes);
    new_report.diagnostics.retain(crate::Diagnostic::is_error);
    let changes = crate::config::changes(
        &old_report,
        &new_report,
        &old.name,
        &config,
        crate::Severity::Info,
    );
    new_report.add(changes.into());
    Ok(document(std::slice::from_ref(&new_report), &[]))
}

#[cfg(not(feature = "git"))]
fn diff_revision(_: &Roots, _: &str, _: &str) -> Outcome {
    Err(
        "this agentc was built without git (the `git` feature): give `old` and `new` as texts"
            .to_string(),
    )
}

fn generate(roots: &Roots, args: GenArgs) -> Outcome {
    let (workspace, path) = args.protocol.workspace(roots)?;
    let files = workspace
        .generate(&path, &[args.lang.0], &GenOptions::default())
        .map_err(refused)?;
    let files: Vec<Value> = files
        .into_iter()
        .map(|file| json!({ "name": file.name, "text": file.text }))
        .collect();
    Ok(json!({ "files": files }))
}

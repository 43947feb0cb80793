//! agentc for JavaScript (the npm package `@agentc/wasm`): the library's
//! [`Workspace`] over files held in memory, one call per capability.
//!
//! Each call takes its request as a JSON text and gives back a JSON text;
//! `wasm/package/index.js` turns both into plain objects, and
//! `index.d.ts` types them. The JSON is the library's: a report is the
//! `--format json` document `agentc check`, `validate` and `diff` print
//! (`render::json`), an emitted schema is the text `agentc emit` prints,
//! so a verdict here is the command line's, byte for byte. A call that
//! cannot give what it was asked for fails with a JSON text, `{"message":
//! ..., "report": ...}` (the report when the protocol's problems are the
//! reason), which the package throws as an `AgentcError`.
//!
//! Nothing here reads a disk, starts a thread or calls the network: the
//! files are the request's.

use agentc::codegen::{Lang, Options as GenOptions};
use agentc::diagnostic::{Applicability, Code};
use agentc::emit::{Selection, Target};
use agentc::render;
use agentc::validate::{Payload, run_input};
use agentc::workspace::{Problem, Workspace, relative_path};
use agentc::{FileReport, Severity};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use wasm_bindgen::prelude::*;

/// Why a call failed: its message, and the report that says where when
/// the protocol's problems are the reason.
pub struct Failed {
    message: String,
    report: Option<String>,
}

impl Failed {
    fn new(message: impl Into<String>) -> Failed {
        Failed {
            message: message.into(),
            report: None,
        }
    }

    /// The failure as the JSON text the package throws.
    pub fn to_json(&self) -> String {
        let report = self
            .report
            .as_deref()
            .and_then(|text| serde_json::from_str::<Value>(text).ok());
        let mut failed = json!({ "message": self.message });
        if let Some(report) = report {
            failed["report"] = report;
        }
        failed.to_string()
    }
}

impl From<Problem> for Failed {
    fn from(problem: Problem) -> Failed {
        let message = problem.to_string();
        let report = match problem {
            Problem::Errors(reports) if !reports.is_empty() => Some(document(&reports)),
            Problem::Inexpressible(report) => Some(document(std::slice::from_ref(&report))),
            _ => None,
        };
        Failed { message, report }
    }
}

type Answer = Result<String, Failed>;

/// The files of a request, and `agentc.toml`'s text.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Held {
    files: BTreeMap<String, String>,
    config: Option<String>,
}

impl Held {
    /// The workspace holding the files under the configuration, or why
    /// not: a name that is not a relative path, or a configuration with
    /// problems (whose report says where, as it stops `agentc check`).
    fn workspace(self) -> Result<Workspace, Failed> {
        let mut workspace = Workspace::new();
        if let Some(config) = &self.config {
            workspace.set_config(config).map_err(|report| Failed {
                message: "agentc.toml has problems; nothing was done".to_string(),
                report: Some(document(std::slice::from_ref(&report))),
            })?;
        }
        for (name, text) in self.files {
            workspace.insert(path(&name)?, text);
        }
        Ok(workspace)
    }
}

/// A file's name as a workspace holds it.
fn path(name: &str) -> Result<PathBuf, Failed> {
    relative_path(name).ok_or_else(|| {
        Failed::new(format!(
            "`{}` is not a relative path inside the files given",
            render::inert(name)
        ))
    })
}

/// The `--format json` document of `reports`.
fn document(reports: &[FileReport]) -> String {
    render::json::render(reports)
}

/// The request parsed, or why not (with serde's words: the field, the
/// type it wanted, a field it does not know).
fn request<T: DeserializeOwned>(text: &str) -> Result<T, Failed> {
    serde_json::from_str(text).map_err(|error| Failed::new(format!("bad request: {error}")))
}

/// A call: its answer as JSON, or its failure as JSON thrown.
fn answer(call: impl FnOnce() -> Answer) -> Result<String, JsValue> {
    call().map_err(|failed| JsValue::from_str(&failed.to_json()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    config: Option<String>,
    #[serde(default)]
    paths: Option<Vec<String>>,
}

/// `agentc check --format json` over the files: every protocol the
/// configuration takes, with its agent folder, then the baseline's
/// unused entries; or, given `paths`, those files, as files named on the
/// command line are checked (whatever their names). A configuration with problems gives its report alone.
pub fn check_json(request_text: &str) -> Answer {
    let CheckRequest {
        files,
        config,
        paths,
    } = request(request_text)?;
    let held = Held { files, config };
    let paths: Option<Vec<PathBuf>> = paths
        .map(|paths| paths.iter().map(|name| path(name)).collect())
        .transpose()?;
    match held.workspace() {
        Ok(workspace) => Ok(document(&match paths {
            None => workspace.check(),
            Some(paths) => {
                workspace.check_paths(&paths.iter().map(PathBuf::as_path).collect::<Vec<_>>())
            }
        })),
        Err(Failed {
            report: Some(report),
            ..
        }) => Ok(report),
        Err(failed) => Err(failed),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FixRequest {
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    config: Option<String>,
    path: String,
    #[serde(default, rename = "unsafe")]
    unsafe_fixes: bool,
}

/// `agentc check --fix` of the protocol at `path`: the texts after the
/// fixes, each with its unified diff, how many were applied, and the
/// report of what remains. Nothing is kept: the caller takes the texts.
pub fn fix_json(request_text: &str) -> Answer {
    let FixRequest {
        files,
        config,
        path: name,
        unsafe_fixes,
    } = request(request_text)?;
    let workspace = Held { files, config }.workspace()?;
    let at = path(&name)?;
    if workspace.get(&at).is_none() {
        return Err(Problem::NoFile(at).into());
    }
    let least_sure = match unsafe_fixes {
        true => Applicability::Unsafe,
        false => Applicability::Safe,
    };
    let fixed = workspace.fix(&at, least_sure);
    let files = fixed.files_json();
    let report: Value = serde_json::from_str(&document(&fixed.reports)).unwrap_or(Value::Null);
    Ok(json!({ "applied": fixed.applied, "files": files, "report": report }).to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EmitRequest {
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    config: Option<String>,
    path: String,
    target: String,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default, rename = "type")]
    type_name: Option<String>,
    #[serde(default)]
    response: Option<String>,
}

/// `agentc emit`: every tool (every type for `json-schema`), or one
/// tool, type or reply type, shaped for `target`; the output as a value
/// and as the text `agentc emit` prints, with the report of what the
/// target warned of.
pub fn emit_json(request_text: &str) -> Answer {
    let r: EmitRequest = request(request_text)?;
    let target = target(&r.target)?;
    let selection = match (&r.tool, &r.type_name, &r.response) {
        (None, None, None) => Selection::All,
        (Some(tool), None, None) => Selection::Tool(tool),
        (None, Some(name), None) => Selection::Type(name),
        (None, None, Some(name)) => Selection::Response(name),
        _ => {
            return Err(Failed::new(
                "give at most one of `tool`, `type` and `response`",
            ));
        }
    };
    let at = path(&r.path)?;
    let workspace = Held {
        files: r.files,
        config: r.config,
    }
    .workspace()?;
    let emitted = workspace.emit(&at, target, selection)?;
    let text = emitted.output.to_text();
    let output = emitted.output.into_value();
    let report: Value =
        serde_json::from_str(&document(std::slice::from_ref(&emitted.report))).unwrap_or_default();
    Ok(
        json!({ "target": target.name(), "output": output, "text": text, "report": report })
            .to_string(),
    )
}

fn target(name: &str) -> Result<Target, Failed> {
    Target::from_name(name).ok_or_else(|| {
        Failed::new(format!(
            "no target `{}`; the targets are {}",
            render::inert(name),
            Target::ALL.map(|t| format!("`{}`", t.name())).join(", ")
        ))
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValidateRequest {
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    config: Option<String>,
    #[serde(default)]
    path: Option<String>,
    data: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default, rename = "type")]
    type_name: Option<String>,
    #[serde(default)]
    payload: Option<String>,
}

/// `agentc validate --format json`: a tool call's arguments (`tool`), a
/// value (`type`), or a `payload` (an AG-UI `RunAgentInput`, an AAP
/// request, reply or event stream, its tool calls checked against the
/// protocol at `path` when one is given).
pub fn validate_json(request_text: &str) -> Answer {
    let r: ValidateRequest = request(request_text)?;
    let name = r.name.as_deref().unwrap_or("data.json");
    let workspace = Held {
        files: r.files,
        config: r.config,
    }
    .workspace()?;
    let at = r.path.as_deref().map(path).transpose()?;
    let needs = |what: &str| -> Result<&PathBuf, Failed> {
        at.as_ref()
            .ok_or_else(|| Failed::new(format!("`{what}` needs the protocol: give `path`")))
    };
    let report = match (&r.tool, &r.type_name, &r.payload) {
        (Some(tool), None, None) => {
            workspace.validate(needs("tool")?, Selection::Tool(tool), name, &r.data)?
        }
        (None, Some(type_name), None) => {
            workspace.validate(needs("type")?, Selection::Type(type_name), name, &r.data)?
        }
        (None, None, Some(payload)) => match payload_named(payload)? {
            Payload::RunInput => workspace.validate_run_input(
                run_input::Options::default(),
                at.as_deref(),
                name,
                &r.data,
            )?,
            Payload::Aap(kind) => {
                workspace.validate_aap(kind, at.as_deref(), None, name, &r.data)?
            }
        },
        _ => return Err(Failed::new("give one of `tool`, `type` and `payload`")),
    };
    Ok(document(std::slice::from_ref(&report)))
}

fn payload_named(name: &str) -> Result<Payload, Failed> {
    Payload::from_name(name).ok_or_else(|| {
        Failed::new(format!(
            "no payload `{}`; the payloads are {}",
            render::inert(name),
            Payload::ALL.map(|p| format!("`{}`", p.name())).join(", ")
        ))
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiffRequest {
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    config: Option<String>,
    /// The old version's files.
    old: BTreeMap<String, String>,
    path: String,
}

/// `agentc diff --format json`: the contract changes from the protocol
/// at `path` in `old` to the one in `files`, judged by the
/// configuration; the new version's errors, if any, come first.
pub fn diff_json(request_text: &str) -> Answer {
    let r: DiffRequest = request(request_text)?;
    let at = path(&r.path)?;
    let new = Held {
        files: r.files,
        config: r.config,
    }
    .workspace()?;
    let old = Held {
        files: r.old,
        config: None,
    }
    .workspace()?;
    let report = new.diff(&old, &at)?;
    Ok(document(std::slice::from_ref(&report)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GenRequest {
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    config: Option<String>,
    path: String,
    lang: String,
}

/// `agentc gen --stdout`: typed bindings of the protocol at `path` in
/// one language, as files (a name and a text each).
pub fn gen_json(request_text: &str) -> Answer {
    let r: GenRequest = request(request_text)?;
    let lang = Lang::from_name(&r.lang).ok_or_else(|| {
        Failed::new(format!(
            "no language `{}`; the languages are {}",
            render::inert(&r.lang),
            Lang::ALL.map(|l| format!("`{}`", l.name())).join(", ")
        ))
    })?;
    let at = path(&r.path)?;
    let workspace = Held {
        files: r.files,
        config: r.config,
    }
    .workspace()?;
    let files = workspace.generate(&at, &[lang], &GenOptions::default())?;
    let files: Vec<Value> = files
        .into_iter()
        .map(|file| json!({ "name": file.name, "text": file.text }))
        .collect();
    Ok(json!({ "files": files }).to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NamesRequest {
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    config: Option<String>,
    path: String,
}

/// What the protocol at `path` declares, by name, in declaration order:
/// its tools, its types, and the object types it replies with (each a
/// `responseType`), for a page's pickers. A protocol with errors gives
/// what could be read of it; one that is not YAML, nothing.
pub fn names_json(request_text: &str) -> Answer {
    let r: NamesRequest = request(request_text)?;
    let at = path(&r.path)?;
    let workspace = Held {
        files: r.files,
        config: r.config,
    }
    .workspace()?;
    let text = workspace
        .get(&at)
        .ok_or_else(|| Failed::from(Problem::NoFile(at.clone())))?;
    let compiled = agentc::compile(&at.display().to_string(), text);
    let (tools, types, responses): (Vec<&str>, Vec<&str>, Vec<&str>) = match &compiled.model {
        Some(model) => (
            model
                .protocol
                .tools
                .iter()
                .map(|tool| tool.name.text.as_str())
                .collect(),
            model.type_names().collect(),
            agentc::emit::response_types(model)
                .into_iter()
                .map(|id| model.def(id).name.text.as_str())
                .collect(),
        ),
        None => Default::default(),
    };
    Ok(json!({ "tools": tools, "types": types, "responses": responses }).to_string())
}

/// `agentc explain CODE`: the code's page, or `null` for a name that is
/// no code.
pub fn explain_json(code: &str) -> String {
    match Code::from_name(code) {
        Some(code) => json!({
            "code": code.name(),
            "severity": code.severity().as_str(),
            "summary": code.summary(),
            "fix": code.fix(),
            "page": agentc::diagnostic::page(code),
        })
        .to_string(),
        None => "null".to_string(),
    }
}

/// What the calls take by name, from the library's own lists: every
/// diagnostic code (with its default severity and summary), target,
/// language and payload; and agentc's version.
pub fn about_json() -> String {
    let codes: Vec<Value> = Code::ALL
        .iter()
        .map(|code| {
            json!({
                "code": code.name(),
                "severity": code.severity().as_str(),
                "summary": code.summary(),
            })
        })
        .collect();
    let targets: Vec<Value> = Target::ALL
        .iter()
        .map(|t| json!({ "name": t.name(), "display": t.display() }))
        .collect();
    let payloads: Vec<Value> = Payload::ALL
        .iter()
        .map(|p| json!({ "name": p.name(), "summary": p.summary() }))
        .collect();
    json!({
        "version": agentc::VERSION,
        "codes": codes,
        "targets": targets,
        "langs": Lang::ALL.map(Lang::name),
        "payloads": payloads,
        "severities": [Severity::Error.as_str(), Severity::Warning.as_str(), Severity::Info.as_str()],
    })
    .to_string()
}

#[wasm_bindgen]
pub fn check(request: &str) -> Result<String, JsValue> {
    answer(|| check_json(request))
}

#[wasm_bindgen]
pub fn fix(request: &str) -> Result<String, JsValue> {
    answer(|| fix_json(request))
}

#[wasm_bindgen]
pub fn emit(request: &str) -> Result<String, JsValue> {
    answer(|| emit_json(request))
}

#[wasm_bindgen]
pub fn validate(request: &str) -> Result<String, JsValue> {
    answer(|| validate_json(request))
}

#[wasm_bindgen]
pub fn diff(request: &str) -> Result<String, JsValue> {
    answer(|| diff_json(request))
}

#[wasm_bindgen]
pub fn generate(request: &str) -> Result<String, JsValue> {
    answer(|| gen_json(request))
}

#[wasm_bindgen]
pub fn names(request: &str) -> Result<String, JsValue> {
    answer(|| names_json(request))
}

#[wasm_bindgen]
pub fn explain(code: &str) -> String {
    explain_json(code)
}

#[wasm_bindgen]
pub fn about() -> String {
    about_json()
}

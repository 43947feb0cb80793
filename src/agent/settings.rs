//! `settings.json`: the agent's slug, name, description and format, and
//! whether the format agrees with the protocol's shape. Checking the file
//! also reads it into a typed [`Settings`], so nothing else parses it.
//!
//! The file is parsed twice: `serde_json` decides whether it is JSON (and
//! where it stops being JSON); the YAML layer, which reads JSON as the
//! subset of YAML it is, gives every key and value its span.

use super::FileFindings;
use crate::check::slug_problem;
use crate::diagnostic::{Code, Diagnostic, Diagnostics, Edit, did_you_mean};
use crate::emit::EmitError;
use crate::emit::aap::AgentMeta;
use crate::model::Model;
use crate::model::format::{interactive_sections, worker_sections};
use crate::source::Source;
use crate::span::Span;
use crate::validate::json;
use crate::yaml::{self, Entry, Node};
use std::collections::HashMap;

const KEYS: &[&str] = &["slug", "name", "description", "format"];
const REQUIRED: &[&str] = &["slug", "name", "format"];
const FORMATS: &[&str] = &["interactive", "worker"];

/// What `settings.json` says about the agent, as read: present when the
/// file is a JSON object whose `slug`, `name` and `format` are strings, the
/// format one of the two and `description`, if any, a string. Whether the
/// values are good (a slug's characters, a format that agrees with the
/// protocol) is what the diagnostics say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The agent's identifier.
    pub slug: String,
    /// The name people see.
    pub name: String,
    pub description: Option<String>,
    pub format: Format,
}

impl Settings {
    /// The agent as AAP's `GET /meta` describes it, at `version`.
    pub fn aap_meta<'a>(&'a self, version: &'a str) -> Result<AgentMeta<'a>, EmitError> {
        AgentMeta::new(&self.slug, &self.name, self.description.as_deref(), version)
    }
}

/// `settings.json` `format`: how the agent runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A chat: `triggers`, `handlers` and `agent`.
    Interactive,
    /// A background task: `steps` and `output`.
    Worker,
}

/// Checks `settings.json` against the protocol, and returns what it says
/// when it can be read as [`Settings`]. A byte order mark before the JSON
/// is warned about and read past.
pub(super) fn check(
    model: &Model,
    protocol: &Source,
    report: &mut FileFindings,
) -> Option<Settings> {
    if report.unreadable {
        return None;
    }
    let text = report.source.text();
    report.diagnostics.extend(json::byte_order_mark(text));
    let (content, base) = json::without_bom(text);
    let value: serde_json::Value = match serde_json::from_str(content) {
        Ok(value) => value,
        Err(error) => {
            let at = base + json::error_offset(content, &error);
            report.diagnostics.push(
                Diagnostic::new(
                    Code::InvalidJson,
                    Span::new(at, at),
                    format!("`settings.json` is not valid JSON: {}", json::syntax_reason(&error)),
                )
                .with_help("write `{ \"slug\": \"my-agent\", \"name\": \"My Agent\", \"format\": \"interactive\" }`"),
            );
            return None;
        }
    };
    let mut scratch = Diagnostics::default();
    // Owned, as the checks below add to the report while reading it (a
    // settings file is small).
    let root = yaml::parse(&report.source, &mut scratch).map(Node::into_owned);
    // serde_json keeps the last of duplicate keys, silently; say so.
    report.diagnostics.extend(
        scratch
            .into_vec()
            .into_iter()
            .filter(|d| d.code == Code::DuplicateKey),
    );
    let whole = Span::new(0, text.trim_end().len());
    let Some(object) = value.as_object() else {
        report.diagnostics.push(Diagnostic::new(
            Code::WrongShape,
            root.as_ref().map_or(whole, |r| r.span),
            "`settings.json` must be a JSON object",
        ));
        return None;
    };
    let entries = root.as_ref().and_then(Node::as_mapping).unwrap_or_default();
    // The last of duplicate keys is the one serde_json reads.
    let by_key: HashMap<&str, &Entry> = entries.iter().map(|e| (e.key.text.as_ref(), e)).collect();
    let key_span = |key: &str| by_key.get(key).map_or(Span::empty(0), |e| e.key.span);
    let value_span = |key: &str| by_key.get(key).map_or(Span::empty(0), |e| e.value.span);
    let start = root.as_ref().map_or(Span::empty(0), |r| {
        Span::new(r.span.start as usize, r.span.start as usize + 1)
    });
    for key in object.keys() {
        if !KEYS.contains(&key.as_str()) {
            let help = did_you_mean(key, KEYS.iter().copied()).unwrap_or_else(|| {
                "the keys are `slug`, `name`, `description` and `format`".to_string()
            });
            report.diagnostics.push(
                Diagnostic::new(
                    Code::UnknownKey,
                    key_span(key),
                    format!("unknown key `{key}` in `settings.json`"),
                )
                .with_help(help),
            );
        }
    }
    for key in REQUIRED {
        if !object.contains_key(*key) {
            let mut diagnostic =
                Diagnostic::new(Code::MissingField, start, format!("`settings.json` has no `{key}`"))
                    .with_help(match *key {
                        "slug" => "add `\"slug\": \"my-agent\"` (lowercase letters, digits and dashes)",
                        "name" => "add `\"name\": \"My Agent\"`, the name people see",
                        _ => "add `\"format\": \"interactive\"` (chat) or `\"format\": \"worker\"` (background task)",
                    });
            if *key == "slug"
                && let Some((title, edits)) = slug_from_folder(&report.source, start, entries)
            {
                // The help says what the fix writes.
                diagnostic.help =
                    Some(format!("{title} (lowercase letters, digits and dashes)").into());
                diagnostic = diagnostic.with_fix(title, edits);
            }
            report.diagnostics.push(diagnostic);
        }
    }
    for (key, value) in object {
        let span = value_span(key);
        match (key.as_str(), value) {
            ("slug" | "name" | "description", serde_json::Value::String(text)) => {
                if key == "slug" && text.is_empty() {
                    // The Octavus CLI refuses it: `slug` is `z.string().min(1)`.
                    report.diagnostics.push(
                        Diagnostic::new(Code::InvalidValue, span, "`slug` is empty")
                            .with_help("write the agent's identifier, as in `\"support-chat\"` (lowercase letters, digits and dashes)"),
                    );
                } else if key == "slug" {
                    report.diagnostics.extend(slug_problem("slug", text, span));
                }
                if key == "name" && text.trim().is_empty() {
                    report.diagnostics.push(
                        Diagnostic::new(Code::InvalidValue, span, "`name` is empty")
                            .with_help("write the name people see, as in `\"Support Chat\"`"),
                    );
                }
            }
            ("format", serde_json::Value::String(format)) => {
                if !FORMATS.contains(&format.as_str()) {
                    let help = did_you_mean(format, FORMATS.iter().copied())
                        .unwrap_or_else(|| "write `\"interactive\"` or `\"worker\"`".to_string());
                    report.diagnostics.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            span,
                            format!("`{format}` is not a valid `format`"),
                        )
                        .with_help(help),
                    );
                } else {
                    check_format(model, protocol, format, span, report);
                }
            }
            ("slug" | "name" | "description" | "format", other) => {
                report.diagnostics.push(Diagnostic::new(
                    Code::WrongShape,
                    span,
                    format!("`{key}` must be a string, found {}", describe(other)),
                ))
            }
            _ => {}
        }
    }
    read(object)
}

/// The fix of a `settings.json` without `slug`: `"slug": "<folder>"`
/// written first in the object, as the folder's name, when that is a slug
/// (`agentc init` names an agent after its folder the same way). `brace`
/// is the object's `{`; the new entry takes the spacing of the first one.
/// None when the file's name has no folder in it (`settings.json` named
/// from inside its folder).
fn slug_from_folder(
    source: &Source,
    brace: Span,
    entries: &[Entry],
) -> Option<(String, Vec<Edit>)> {
    let folder = std::path::Path::new(source.name())
        .parent()?
        .file_name()?
        .to_str()?;
    if !crate::check::is_slug(folder) {
        return None;
    }
    let text = source.text();
    if text.get(brace.range())? != "{" {
        return None;
    }
    let entry = format!("\"slug\": \"{folder}\"");
    let edit = match entries.first() {
        Some(first) => {
            let at = first.key.span.start as usize;
            let between = text.get(brace.end as usize..at)?;
            if !between.chars().all(char::is_whitespace) || !text[at..].starts_with('"') {
                return None;
            }
            Edit {
                span: Span::empty(at),
                text: format!("{entry},{between}"),
            }
        }
        None => Edit {
            span: Span::empty(brace.end as usize),
            text: entry.clone(),
        },
    };
    Some((format!("add `{entry}`, the folder's name"), vec![edit]))
}

/// The settings in `object`, when its keys have the types and choices
/// [`Settings`] holds.
fn read(object: &serde_json::Map<String, serde_json::Value>) -> Option<Settings> {
    let text = |key: &str| object.get(key).and_then(serde_json::Value::as_str);
    let description = match object.get("description") {
        None => None,
        Some(value) => Some(value.as_str()?.to_string()),
    };
    let format = match text("format")? {
        "interactive" => Format::Interactive,
        "worker" => Format::Worker,
        _ => return None,
    };
    Some(Settings {
        slug: text("slug")?.to_string(),
        name: text("name")?.to_string(),
        description,
        format,
    })
}

/// The format agrees with the sections of the protocol.
fn check_format(
    model: &Model,
    source: &Source,
    format: &str,
    span: Span,
    report: &mut FileFindings,
) {
    let protocol = &model.protocol;
    // The first section of the other format, in the grammar's order.
    let (wanted, other) = match format {
        "worker" => ("steps", interactive_sections(protocol)),
        _ => ("handlers", worker_sections(protocol)),
    };
    if let Some(section) = other.first() {
        let line = source.position(section.span.start as usize).line;
        report.diagnostics.push(
            Diagnostic::new(
                Code::ProtocolFormat,
                span,
                format!("`format` is `{format}`, but `protocol.yaml` has `{}`", section.text),
            )
            .with_note(format!("`{}` is at line {line} of `protocol.yaml`", section.text))
            .with_help(match format {
                "worker" => "a worker has `steps` and `output`; write `\"format\": \"interactive\"` for an agent with triggers and handlers",
                _ => "an interactive agent has `triggers`, `handlers` and `agent`; write `\"format\": \"worker\"` for one with `steps`",
            }),
        );
    } else if protocol.section(wanted).is_none() && protocol.section("agent").is_none() {
        report.diagnostics.push(Diagnostic::new(
            Code::ProtocolFormat,
            span,
            format!("`format` is `{format}`, but `protocol.yaml` has no `{wanted}`"),
        ));
    }
}

/// A JSON value's kind, as a message names it.
fn describe(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

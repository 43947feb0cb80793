//! AG-UI `RunAgentInput`: the payload a client posts to run an agent.
//!
//! The shape is a JSON Schema written from the AG-UI core types
//! (`run_input.schema.json`); what a schema cannot say is checked here:
//! ids unique, every tool message answering an earlier tool call, tool
//! calls naming declared tools, arguments that are JSON and, with a
//! protocol, that match the tool's parameters. The backend profile adds a
//! production backend's ten rules, with its exact messages.
//!
//! The schema is AG-UI 1.0's; [`Version`] picks 1.0, 1.1 (which adds
//! `encryptedValueType` beside every `encryptedValue`) or the pre-1.0
//! draft shape, derived from it here.

use super::json;
use super::{Anchor, Inside, ToolValidators, Validator, Violation};
use crate::diagnostic::{Code, did_you_mean};
use crate::emit::EmitError;
use serde_json::Value;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// The schema, as written from the seeds (see docs/validate.md).
const SCHEMA: &str = include_str!("run_input.schema.json");

/// Which rules apply. The doc comments of the variants are the help
/// `agentc validate run-input` shows for `--profile`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Profile {
    /// The AG-UI protocol.
    #[default]
    AgUi,
    /// AG-UI plus the ten rules of the backend's `POST /api/v1/agent/runs`.
    Backend,
}

/// Which AG-UI version a payload is validated against. The doc comments
/// of the variants are the help `agentc validate run-input` shows for
/// `--ag-ui-version`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Version {
    /// The pre-1.0 shape of the SDK seeds and the draft schema: no
    /// `protocolVersion`, no `file` sources, tool results as text, `binary`
    /// parts deprecated.
    Draft,
    /// AG-UI 1.0, as `@ag-ui/core` 1.0.0 and `ag-ui-protocol` 1.0.0 define it.
    #[default]
    #[cfg_attr(feature = "cli", value(name = "1.0"))]
    V1_0,
    /// AG-UI 1.1: 1.0 plus an optional `encryptedValueType` wherever
    /// `encryptedValue` appears.
    #[cfg_attr(feature = "cli", value(name = "1.1"))]
    V1_1,
}

impl Version {
    /// The `MAJOR.MINOR` this version is, for comparing a payload's
    /// `protocolVersion`; the draft is older than any.
    fn number(self) -> (u64, u64) {
        match self {
            Version::Draft => (0, 0),
            Version::V1_0 => (1, 0),
            Version::V1_1 => (1, 1),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Version::Draft => "draft",
            Version::V1_0 => "1.0",
            Version::V1_1 => "1.1",
        }
    }
}

/// How a payload is validated: the rules (profile), the AG-UI version, and
/// whether members the version does not define are errors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub profile: Profile,
    pub version: Version,
    /// Unknown members are `unknown-property` errors (a same-version
    /// check against the closed schema), rather than `unknown-member`
    /// warnings. A payload declaring a newer `protocolVersion` still gets
    /// warnings: its sender may speak members this version does not know.
    pub strict: bool,
}

/// The backend's limits. Bytes are counted in the payload as sent;
/// characters as Unicode scalar values, which is what Python's `len()`
/// counts on the backend.
pub const MAX_PAYLOAD_BYTES: usize = 256 * 1024;
pub const MAX_RUN_ID_CHARS: usize = 128;
pub const MAX_MESSAGES: usize = 200;
pub const MAX_USER_TEXT_CHARS: usize = 10_000;

/// Optional fields the backend documents as `string | null`.
const BACKEND_NULLABLE: &[(&str, &str)] = &[
    ("AssistantMessage", "content"),
    ("AssistantMessage", "name"),
    ("AssistantMessage", "encryptedValue"),
    ("SystemMessage", "name"),
    ("SystemMessage", "encryptedValue"),
    ("ToolMessage", "error"),
    ("ToolMessage", "encryptedValue"),
    ("ToolCall", "encryptedValue"),
];

/// Validates `RunAgentInput` payloads. `Send + Sync`.
pub struct RunInputValidator {
    profile: Profile,
    version: Version,
    strict: bool,
    schema: Validator,
    tools: Option<ToolValidators>,
}

impl RunInputValidator {
    /// The profile's rules for AG-UI 1.0, unknown members tolerated.
    pub fn new(profile: Profile) -> Result<RunInputValidator, EmitError> {
        RunInputValidator::with_options(Options {
            profile,
            ..Options::default()
        })
    }

    pub fn with_options(options: Options) -> Result<RunInputValidator, EmitError> {
        Ok(RunInputValidator {
            profile: options.profile,
            version: options.version,
            strict: options.strict,
            schema: Validator::from_schema(schema(options.profile, options.version)?)?,
            tools: None,
        })
    }

    /// Also checks each tool call's arguments against the protocol's tool
    /// of that name.
    pub fn with_tools(mut self, tools: ToolValidators) -> RunInputValidator {
        self.tools = Some(tools);
        self
    }

    /// A validator for one definition of the schema (`UserMessage`,
    /// `Tool`, ...), of AG-UI 1.0, without the payload-wide checks: its
    /// shape only, closed (an unknown member is `unknown-property`), and a
    /// legacy `binary` part passes, since whether one is allowed is the
    /// payload check's call (by version and profile).
    pub fn definition(profile: Profile, name: &str) -> Result<Validator, EmitError> {
        RunInputValidator::definition_of(profile, Version::default(), name)
    }

    /// [`RunInputValidator::definition`] of a given AG-UI version.
    pub fn definition_of(
        profile: Profile,
        version: Version,
        name: &str,
    ) -> Result<Validator, EmitError> {
        let mut schema = schema(profile, version)?;
        if schema
            .pointer(&format!("/$defs/{}", json::escape(name)))
            .is_none()
        {
            return Err(EmitError::new(format!(
                "`RunAgentInput` has no definition `{name}`"
            )));
        }
        schema["$ref"] = Value::String(format!("#/$defs/{}", json::escape(name)));
        Validator::from_schema(schema)
    }

    /// Every problem of a payload. `bytes` is its size as sent, for the
    /// backend's size limit.
    pub fn validate(&self, input: &Value, bytes: usize) -> Vec<Violation> {
        let mut out = match self.schema.validate(input) {
            Ok(()) => Vec::new(),
            Err(violations) => violations,
        };
        let newer = self.protocol_version(input, &mut out);
        if !self.strict || newer {
            for violation in &mut out {
                if violation.code == Code::UnknownProperty {
                    violation.code = Code::UnknownMember;
                    violation.message = format!(
                        "{}; AG-UI {} does not define it, and receivers drop it",
                        violation.message,
                        self.version.name()
                    );
                }
            }
        }
        if input.get("forwardedProps").is_some_and(Value::is_null) {
            out.push(
                Violation::new(
                    Code::NullForwardedProps,
                    "/forwardedProps",
                    "`forwardedProps: null` means no forwarded props, and the TypeScript SDK rejects it",
                )
                .with_help("leave `forwardedProps` out, or send `{}`"),
            );
        }
        self.conversation(input, &mut out);
        if self.profile == Profile::Backend {
            backend(input, bytes, &mut out);
        }
        out
    }

    /// Checks `protocolVersion`'s form and whether it is newer than the
    /// version validated against; says whether it is (a receiver then
    /// tolerates members it does not know). Absent means a pre-1.0 sender,
    /// which is no problem.
    fn protocol_version(&self, input: &Value, out: &mut Vec<Violation>) -> bool {
        if self.version == Version::Draft {
            return false;
        }
        let Some(declared) = input.get("protocolVersion").and_then(Value::as_str) else {
            return false;
        };
        let Some((major, minor)) = major_minor(declared) else {
            out.push(
                Violation::new(
                    Code::InvalidProtocolVersion,
                    "/protocolVersion",
                    format!("`protocolVersion` is `{declared}`, not `MAJOR.MINOR`"),
                )
                .with_help(format!(
                    "write two numbers, as in `\"{}\"`; a receiver treats a version it cannot read as a newer one",
                    self.version.name()
                )),
            );
            return true;
        };
        let known = self.version.number();
        if (major, minor) > known {
            out.push(
                Violation::new(
                    Code::NewerProtocolVersion,
                    "/protocolVersion",
                    format!(
                        "the sender speaks AG-UI {declared}, newer than the {} validated against",
                        self.version.name()
                    ),
                )
                .with_help(
                    "members the newer version adds are reported as `unknown-member` warnings; \
                     `--ag-ui-version` picks another version",
                ),
            );
            return true;
        }
        false
    }

    /// What the schema cannot say: the messages as a conversation.
    fn conversation(&self, input: &Value, out: &mut Vec<Violation>) {
        let Some(messages) = input.get("messages").and_then(Value::as_array) else {
            return;
        };
        let mut declared = Seen::default();
        let tools = input.get("tools").and_then(Value::as_array);
        for (k, tool) in tools.into_iter().flatten().enumerate() {
            if let Some(name) = tool.get("name").and_then(Value::as_str) {
                declared.first_use(name, format!("/tools/{k}"));
            }
        }
        let mut message_ids = Seen::default();
        // Every tool call so far, by id.
        let mut calls = Seen::default();
        for (i, message) in messages.iter().enumerate() {
            let at = format!("/messages/{i}");
            if let Some(id) = message.get("id").and_then(Value::as_str)
                && let Some(first) = message_ids.first_use(id, at.clone())
            {
                out.push(
                    Violation::new(
                        Code::DuplicateMessageId,
                        format!("{at}/id"),
                        format!("message id `{id}` is already used by `{first}`"),
                    )
                    .related(format!("{first}/id"), "first used here")
                    .with_help("give every message of the conversation its own id"),
                );
            }
            match message.get("role").and_then(Value::as_str) {
                Some("assistant") => self.tool_calls(message, &at, &declared, &mut calls, out),
                Some("tool") => answered(message, &at, &calls, out),
                Some("activity") => out.push(
                    Violation::new(
                        Code::ActivityMessageInInput,
                        format!("{at}/role"),
                        "activity messages are for the UI: a client strips them before sending",
                    )
                    .with_help("drop the message from `messages`; agents do not read activity"),
                ),
                _ => {}
            }
            if self.profile == Profile::AgUi
                && matches!(
                    message.get("role").and_then(Value::as_str),
                    Some("user" | "tool")
                )
            {
                binary(message, &at, self.version, out);
            }
        }
    }

    fn tool_calls<'v>(
        &self,
        message: &'v Value,
        at: &str,
        declared: &Seen,
        calls: &mut Seen<'v>,
        out: &mut Vec<Violation>,
    ) {
        let Some(list) = message.get("toolCalls").and_then(Value::as_array) else {
            return;
        };
        for (j, call) in list.iter().enumerate() {
            let call_at = format!("{at}/toolCalls/{j}");
            if let Some(id) = call.get("id").and_then(Value::as_str)
                && let Some(first) = calls.first_use(id, call_at.clone())
            {
                out.push(
                    Violation::new(
                        Code::DuplicateToolCallId,
                        format!("{call_at}/id"),
                        format!("tool call id `{id}` is already used by an earlier tool call"),
                    )
                    .related(format!("{first}/id"), "first used here")
                    .with_help(
                        "a tool message names the call it answers by this id, so it must be unique",
                    ),
                );
            }
            let function = call.get("function");
            let name = function.and_then(|f| f.get("name")).and_then(Value::as_str);
            let protocol_tool = name.and_then(|n| self.tools.as_ref()?.get(n));
            if let Some(name) = name
                && !declared.contains(name)
                && protocol_tool.is_none()
            {
                let help = match did_you_mean(name, declared.names()) {
                    Some(suggestion) => suggestion,
                    None => {
                        "a backend tool may be absent from `tools`; otherwise add the tool there"
                            .to_string()
                    }
                };
                out.push(
                    Violation::new(
                        Code::UndeclaredTool,
                        format!("{call_at}/function/name"),
                        format!("tool call to `{name}`, which `tools` does not list"),
                    )
                    .with_help(help),
                );
            }
            let Some(arguments) = function
                .and_then(|f| f.get("arguments"))
                .and_then(Value::as_str)
            else {
                continue;
            };
            let arguments_at = format!("{call_at}/function/arguments");
            let parsed: Value = match serde_json::from_str(arguments) {
                Ok(value) => value,
                Err(error) => {
                    let offset = super::json::error_offset(arguments, &error);
                    let (code, message) = match super::json::Beyond::of(&error) {
                        Some(beyond) => (
                            beyond.code(Code::InvalidArguments),
                            beyond.message("the arguments"),
                        ),
                        None => (
                            Code::InvalidArguments,
                            format!(
                                "the arguments are not JSON: {}",
                                super::json::syntax_reason(&error)
                            ),
                        ),
                    };
                    let mut violation = Violation::new(code, arguments_at, message)
                        .with_help("`function.arguments` is a JSON text encoded as a string");
                    violation.inside = Some(Inside::Offset(offset));
                    out.push(violation);
                    continue;
                }
            };
            super::json::duplicate_keys(arguments, |first, repeat| {
                let key = arguments
                    .get(repeat.clone())
                    .and_then(super::json::key_text)
                    .unwrap_or_default();
                let mut violation = Violation::new(
                    Code::DuplicateKey,
                    arguments_at.clone(),
                    format!("the arguments write the key `{key}` again in one object"),
                )
                .with_help(super::json::DUPLICATE_KEY_HELP);
                violation.inside = Some(Inside::Range(repeat));
                violation.related.push(super::Related {
                    pointer: arguments_at.clone(),
                    message: "first written here".to_string(),
                    inside: Some(Inside::Range(first)),
                });
                out.push(violation);
            });
            let (Some(name), Some(tool)) = (name, protocol_tool) else {
                continue;
            };
            if let Err(violations) = tool.validate(&parsed) {
                for inner in violations {
                    let place = match inner.pointer.as_str() {
                        "" => "the arguments".to_string(),
                        pointer => format!("argument `{pointer}`"),
                    };
                    let mut outer = Violation::new(
                        inner.code,
                        arguments_at.clone(),
                        format!("`{name}` {place}: {}", inner.message),
                    )
                    .with_help_opt(inner.help);
                    outer.inside = Some(Inside::Value {
                        pointer: inner.pointer,
                        anchor: inner.anchor,
                    });
                    out.push(outer);
                }
            }
        }
    }
}

/// A tool message must answer a tool call made before it.
fn answered(message: &Value, at: &str, calls: &Seen, out: &mut Vec<Violation>) {
    let Some(id) = message.get("toolCallId").and_then(Value::as_str) else {
        return;
    };
    if calls.contains(id) {
        return;
    }
    let help = did_you_mean(id, calls.names()).unwrap_or_else(|| {
        "a tool message follows the assistant message whose `toolCalls` it answers".to_string()
    });
    out.push(
        Violation::new(
            Code::UnknownToolCallId,
            format!("{at}/toolCallId"),
            format!("tool message answers `{id}`, which no earlier assistant message called"),
        )
        .with_help(help),
    );
}

/// Names seen so far in a payload (message ids, tool-call ids, tool
/// names), in order, each with the pointer of its first use. Lookups are
/// hashed, so a payload of many calls stays linear; suggestions go through
/// `order`, so they do not depend on hashing.
#[derive(Default)]
struct Seen<'v> {
    order: Vec<&'v str>,
    first: HashMap<&'v str, String>,
}

impl<'v> Seen<'v> {
    /// Records `name` at `pointer`; if it was seen before, where.
    fn first_use(&mut self, name: &'v str, pointer: String) -> Option<String> {
        match self.first.entry(name) {
            Entry::Occupied(first) => Some(first.get().clone()),
            Entry::Vacant(slot) => {
                slot.insert(pointer);
                self.order.push(name);
                None
            }
        }
    }

    fn contains(&self, name: &str) -> bool {
        self.first.contains_key(name)
    }

    fn names(&self) -> impl Iterator<Item = &'v str> + '_ {
        self.order.iter().copied()
    }
}

/// `binary` parts: the pre-1.0 SDKs still parsed them but deprecated
/// them; 1.0 removed them, and both 1.0 SDKs reject them.
fn binary(message: &Value, at: &str, version: Version, out: &mut Vec<Violation>) {
    for (k, part) in binary_parts(message) {
        let pointer = format!("{at}/content/{k}/type");
        let rewrite = rewrite(part);
        out.push(match version {
            Version::Draft => Violation::new(
                Code::DeprecatedBinaryPart,
                pointer,
                "`binary` content parts are deprecated",
            )
            .with_help(format!(
                "write an `image`, `audio`, `video` or `document` part with a `source`; \
                 the AG-UI draft schema rejects `binary`: {rewrite}"
            )),
            _ => Violation::new(
                Code::BinaryPart,
                pointer,
                format!(
                    "AG-UI {} has no `binary` content part; it was removed in 1.0",
                    version.name()
                ),
            )
            .with_help(format!(
                "write the part for its modality, with a `source`: {rewrite}"
            )),
        });
    }
}

/// The modality part a `binary` part becomes, as JSON text.
fn rewrite(part: &Value) -> String {
    let mime = part.get("mimeType").and_then(Value::as_str);
    let kind = match mime.and_then(|m| m.split('/').next()) {
        Some("audio") => "audio",
        Some("video") => "video",
        Some("image") | None => "image",
        Some(_) => "document",
    };
    let text = |key: &str| part.get(key).and_then(Value::as_str);
    let mut source = serde_json::Map::new();
    if let Some(url) = text("url") {
        source.insert("type".into(), "url".into());
        source.insert("value".into(), url.into());
    } else if let Some(data) = text("data") {
        source.insert("type".into(), "data".into());
        source.insert("value".into(), data.into());
    } else {
        source.insert("type".into(), "file".into());
        source.insert("value".into(), text("id").unwrap_or("<file id>").into());
    }
    if let Some(mime) = mime {
        source.insert("mimeType".into(), mime.into());
    }
    serde_json::json!({"type": kind, "source": source}).to_string()
}

fn binary_parts(message: &Value) -> impl Iterator<Item = (usize, &Value)> {
    message
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(_, part)| part.get("type").and_then(Value::as_str) == Some("binary"))
}

/// The ten rules of the backend profile, with its exact messages.
fn backend(input: &Value, bytes: usize, out: &mut Vec<Violation>) {
    if bytes > MAX_PAYLOAD_BYTES {
        out.push(
            Violation::new(Code::PayloadTooLarge, "", "RunAgentInput payload exceeds size limit")
                .at(Anchor::Start)
                .with_help(format!(
                    "the payload is {bytes} bytes; the backend takes at most {MAX_PAYLOAD_BYTES} (256 KiB)"
                )),
        );
    }
    if let Some(thread) = input.get("threadId").and_then(Value::as_str)
        && !is_uuid(thread)
    {
        out.push(
            Violation::new(Code::InvalidThreadId, "/threadId", "threadId must be a valid UUID")
                .with_help("write a UUID as 8-4-4-4-12 hex digits, as in `550e8400-e29b-41d4-a716-446655440000`"),
        );
    }
    if let Some(run) = input.get("runId").and_then(Value::as_str) {
        let chars = run.chars().count();
        if chars > MAX_RUN_ID_CHARS {
            out.push(
                Violation::new(Code::RunIdTooLong, "/runId", "runId exceeds length limit").with_help(
                    format!("`runId` has {chars} characters; the backend takes at most {MAX_RUN_ID_CHARS}"),
                ),
            );
        }
    }
    let Some(messages) = input.get("messages").and_then(Value::as_array) else {
        return;
    };
    if messages.len() > MAX_MESSAGES {
        out.push(
            Violation::new(
                Code::TooManyMessages,
                "/messages",
                "RunAgentInput.messages exceeds limit",
            )
            .at(Anchor::Start)
            .with_help(format!(
                "there are {} messages; the backend takes at most {MAX_MESSAGES}",
                messages.len()
            )),
        );
    }
    let is_user = |m: &Value| m.get("role").and_then(Value::as_str) == Some("user");
    let users = messages.iter().filter(|m| is_user(m)).count();
    if users != 1 {
        out.push(
            Violation::new(
                Code::UserMessageCount,
                "/messages",
                "RunAgentInput.messages must contain exactly one user message",
            )
            .at(Anchor::Start)
            .with_help(format!("there are {users} user messages")),
        );
    }
    if let Some(first) = messages.first()
        && !is_user(first)
    {
        let pointer = match first.get("role") {
            Some(_) => "/messages/0/role",
            None => "/messages/0",
        };
        out.push(Violation::new(
            Code::UserMessageNotFirst,
            pointer,
            "RunAgentInput.messages[0].role must be user",
        ));
    }
    for (i, message) in messages.iter().enumerate().filter(|(_, m)| is_user(m)) {
        let at = format!("/messages/{i}");
        let text: usize = match message.get("content") {
            Some(Value::String(text)) => text.chars().count(),
            Some(Value::Array(parts)) => parts
                .iter()
                .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .map(|t| t.chars().count())
                .sum(),
            _ => 0,
        };
        if text > MAX_USER_TEXT_CHARS {
            out.push(
                Violation::new(
                    Code::UserTextTooLong,
                    format!("{at}/content"),
                    "RunAgentInput user message text exceeds limit",
                )
                .with_help(format!(
                    "the message's text has {text} characters; the backend takes at most {MAX_USER_TEXT_CHARS}"
                )),
            );
        }
        for (k, part) in binary_parts(message) {
            let part_at = format!("{at}/content/{k}");
            let mime = part.get("mimeType").and_then(Value::as_str);
            if mime.is_some_and(|m| !m.starts_with("image/")) {
                out.push(Violation::new(
                    Code::BinaryNotImage,
                    format!("{part_at}/mimeType"),
                    "binary content requires image mimeType",
                ));
            }
            if part.get("url").is_none() {
                out.push(
                    Violation::new(Code::BinaryWithoutUrl, part_at.clone(), "binary content requires url")
                        .at(Anchor::Start)
                        .with_help("upload the file through `/api/v1/agent/attachments` and send its signed `url`"),
                );
            }
            if part.get("data").is_some() {
                out.push(
                    Violation::new(
                        Code::BinaryDataNotAllowed,
                        format!("{part_at}/data"),
                        "binary content data is not allowed",
                    )
                    .at(Anchor::Key),
                );
            }
        }
    }
}

/// `MAJOR.MINOR`: two numbers without signs or leading zeros.
fn major_minor(text: &str) -> Option<(u64, u64)> {
    let (major, minor) = text.split_once('.')?;
    let number = |part: &str| {
        let plain = !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_digit())
            && (part == "0" || !part.starts_with('0'));
        if plain { part.parse().ok() } else { None }
    };
    Some((number(major)?, number(minor)?))
}

/// A UUID in its standard text form: 8-4-4-4-12 hex digits, either case.
fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The schema for a profile and version: the backend documents some
/// optional fields as nullable; 1.1 adds `encryptedValueType`; the draft
/// lacks what 1.0 added.
pub(super) fn schema(profile: Profile, version: Version) -> Result<Value, EmitError> {
    let mut schema: Value = serde_json::from_str(SCHEMA).map_err(|error| {
        EmitError::new(format!("the RunAgentInput schema is not JSON: {error}"))
    })?;
    match version {
        Version::V1_0 => {}
        Version::V1_1 => encrypted_value_type(&mut schema),
        Version::Draft => draft(&mut schema),
    }
    if profile == Profile::Backend {
        for (definition, property) in BACKEND_NULLABLE {
            let pointer = format!("/$defs/{definition}/properties/{property}/type");
            if let Some(ty) = schema.pointer_mut(&pointer) {
                *ty = serde_json::json!(["string", "null"]);
            }
        }
    }
    Ok(schema)
}

/// 1.1: `encryptedValueType` wherever `encryptedValue` is.
fn encrypted_value_type(schema: &mut Value) {
    let Some(defs) = schema.get_mut("$defs").and_then(Value::as_object_mut) else {
        return;
    };
    for definition in defs.values_mut() {
        if let Some(properties) = definition
            .get_mut("properties")
            .and_then(Value::as_object_mut)
            && properties.contains_key("encryptedValue")
        {
            properties.insert(
                "encryptedValueType".into(),
                serde_json::json!({
                    "type": "string",
                    "description": "What kind of artefact `encryptedValue` is (AG-UI 1.1)."
                }),
            );
        }
    }
}

/// The pre-1.0 shape: no `protocolVersion`, no `file` source, no part
/// ids, no text-part metadata, tool results as text only.
fn draft(schema: &mut Value) {
    let Some(defs) = schema.get_mut("$defs").and_then(Value::as_object_mut) else {
        return;
    };
    defs.remove("FileSource");
    let mut remove = |definition: &str, property: &str| {
        if let Some(properties) = defs
            .get_mut(definition)
            .and_then(|d| d.get_mut("properties"))
            .and_then(Value::as_object_mut)
        {
            properties.remove(property);
        }
    };
    remove("RunAgentInput", "protocolVersion");
    remove("TextPart", "metadata");
    for part in [
        "TextPart",
        "ImagePart",
        "AudioPart",
        "VideoPart",
        "DocumentPart",
    ] {
        remove(part, "id");
    }
    if let Some(sources) = defs
        .get_mut("PartSource")
        .and_then(|s| s.get_mut("anyOf"))
        .and_then(Value::as_array_mut)
    {
        sources.retain(|s| s.get("$ref").and_then(Value::as_str) != Some("#/$defs/FileSource"));
    }
    if let Some(content) = defs
        .get_mut("ToolMessage")
        .and_then(|d| d.pointer_mut("/properties/content"))
    {
        *content =
            serde_json::json!({"type": "string", "description": "Text content of the message."});
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_in_their_standard_form() {
        assert!(is_uuid("550e8400-e29b-41d4-a716-446655440000"));
        assert!(is_uuid("550E8400-E29B-41D4-A716-446655440000"));
        assert!(!is_uuid("550e8400e29b41d4a716446655440000"));
        assert!(!is_uuid("{550e8400-e29b-41d4-a716-446655440000}"));
        assert!(!is_uuid("550e8400-e29b-41d4-a716-44665544000g"));
        assert!(!is_uuid("t1"));
    }

    #[test]
    fn protocol_versions_are_major_dot_minor() {
        assert_eq!(major_minor("1.0"), Some((1, 0)));
        assert_eq!(major_minor("10.12"), Some((10, 12)));
        assert_eq!(major_minor("0.0"), Some((0, 0)));
        for bad in [
            "1", "1.0.0", "01.0", "1.00", "+1.0", "1.-1", ".1", "1.", "", "v1.0", "1 .0",
        ] {
            assert_eq!(major_minor(bad), None, "{bad}");
        }
        assert_eq!(major_minor("99999999999999999999.0"), None);
    }

    #[test]
    fn every_version_and_profile_compiles() {
        for version in [Version::Draft, Version::V1_0, Version::V1_1] {
            for profile in [Profile::AgUi, Profile::Backend] {
                for strict in [false, true] {
                    RunInputValidator::with_options(Options {
                        profile,
                        version,
                        strict,
                    })
                    .unwrap();
                }
            }
        }
    }

    #[test]
    fn the_backend_schema_makes_its_documented_fields_nullable() {
        let schema = schema(Profile::Backend, Version::V1_0).unwrap();
        for (definition, property) in BACKEND_NULLABLE {
            let pointer = format!("/$defs/{definition}/properties/{property}/type");
            assert_eq!(
                schema.pointer(&pointer),
                Some(&serde_json::json!(["string", "null"]))
            );
        }
    }
}

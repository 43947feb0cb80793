//! AG-UI `RunAgentInput`: the payload a client posts to run an agent.
//!
//! The shape is a JSON Schema written from the AG-UI core types
//! (`run_input.schema.json`); what a schema cannot say is checked here:
//! ids unique, every tool message answering an earlier tool call, tool
//! calls naming declared tools, arguments that are JSON and, with a
//! protocol, that match the tool's parameters. The backend profile adds a
//! production backend's ten rules, with its exact messages.

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Profile {
    /// The AG-UI protocol.
    #[default]
    AgUi,
    /// AG-UI plus the ten rules of the backend's `POST /api/v1/agent/runs`.
    Backend,
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
    schema: Validator,
    tools: Option<ToolValidators>,
}

impl RunInputValidator {
    pub fn new(profile: Profile) -> Result<RunInputValidator, EmitError> {
        Ok(RunInputValidator {
            profile,
            schema: Validator::from_schema(schema(profile)?)?,
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
    /// `Tool`, ...), without the payload-wide checks.
    pub fn definition(profile: Profile, name: &str) -> Result<Validator, EmitError> {
        let mut schema = schema(profile)?;
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
        self.conversation(input, &mut out);
        if self.profile == Profile::Backend {
            backend(input, bytes, &mut out);
        }
        out
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
                Some("user") if self.profile == Profile::AgUi => {
                    deprecated_parts(message, &at, out)
                }
                _ => {}
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
                    let mut violation = Violation::new(
                        Code::InvalidArguments,
                        arguments_at,
                        format!(
                            "the arguments are not JSON: {}",
                            super::json::syntax_reason(&error)
                        ),
                    )
                    .with_help("`function.arguments` is a JSON text encoded as a string");
                    violation.inside = Some(Inside::Offset(offset));
                    out.push(violation);
                    continue;
                }
            };
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

/// The SDKs still parse `binary` parts but deprecate them; the draft
/// schema drops them.
fn deprecated_parts(message: &Value, at: &str, out: &mut Vec<Violation>) {
    for (k, _) in binary_parts(message) {
        out.push(
            Violation::new(
                Code::DeprecatedBinaryPart,
                format!("{at}/content/{k}/type"),
                "`binary` content parts are deprecated",
            )
            .with_help(
                "write an `image`, `audio`, `video` or `document` part with a `source`; \
                 the AG-UI draft schema rejects `binary`",
            ),
        );
    }
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

/// A UUID in its standard text form: 8-4-4-4-12 hex digits, either case.
fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The schema for a profile: the backend documents some optional fields
/// as nullable.
fn schema(profile: Profile) -> Result<Value, EmitError> {
    let mut schema: Value = serde_json::from_str(SCHEMA).map_err(|error| {
        EmitError::new(format!("the RunAgentInput schema is not JSON: {error}"))
    })?;
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
    fn the_backend_schema_makes_its_documented_fields_nullable() {
        let schema = schema(Profile::Backend).unwrap();
        for (definition, property) in BACKEND_NULLABLE {
            let pointer = format!("/$defs/{definition}/properties/{property}/type");
            assert_eq!(
                schema.pointer(&pointer),
                Some(&serde_json::json!(["string", "null"]))
            );
        }
    }
}

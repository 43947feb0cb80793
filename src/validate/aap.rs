//! AAP v3 (Agent Application Protocol) sessions, turns and events: the
//! request bodies a client posts, the reply to a `stream: "none"` turn, and
//! the `text/event-stream` of a streamed turn.
//!
//! The shapes are `aap.schema.json`, written by hand from the TypeScript
//! reference (`aap-schema.txt`) and shared with the conformance suite. What
//! a schema cannot say is checked here: a turn's messages are one user
//! message or only tool results and permissions; a tool message answers a
//! `tool_use` before it; with a protocol, `agent.options` name the agent's
//! options (those `GET /meta` lists) with values it allows, and each tool
//! call's `input` matches the protocol tool's parameters. An event stream
//! is one turn: `turn_start` first, `turn_stop` last, events of one stream
//! mode, every `tool_result` after the `tool_call` it answers.

use super::data::{Layout, MAX_VALUE_BYTES, each_value, locate, place};
use super::json::{self, Doc, Index};
use super::{ToolValidators, Validator, Violation};
use crate::diagnostic::{Code, Diagnostic, Diagnostics, Severity, did_you_mean};
use crate::emit::EmitError;
use crate::emit::aap::options as declared_options;
use crate::model::Model;
use crate::source::Source;
use crate::span::Span;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// The schema, shared with `tests/conformance/check.mjs`.
pub const SCHEMA: &str = include_str!("aap.schema.json");

/// What an AAP payload is. The doc comments are the help `agentc validate
/// aap` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Kind {
    /// `POST /sessions` request body.
    PostSessionsRequest,
    /// `POST /sessions/:id/turns` request body.
    PostSessionTurnRequest,
    /// The JSON reply to a `stream: "none"` turn.
    PostSessionTurnResponse,
    /// The `text/event-stream` reply to a `stream: "delta"` or `"message"` turn.
    Events,
}

impl Kind {
    /// The schema definition a payload of this kind is checked against.
    pub fn definition(self) -> &'static str {
        match self {
            Kind::PostSessionsRequest => "PostSessionsRequest",
            Kind::PostSessionTurnRequest => "PostSessionTurnRequest",
            Kind::PostSessionTurnResponse => "PostSessionTurnResponse",
            Kind::Events => "SSEEvent",
        }
    }
}

/// The stream mode of an event stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum StreamMode {
    /// `text_delta` and `thinking_delta` events.
    Delta,
    /// Whole `text` and `thinking` events.
    Message,
}

impl StreamMode {
    fn name(self) -> &'static str {
        match self {
            StreamMode::Delta => "delta",
            StreamMode::Message => "message",
        }
    }

    /// The mode an event belongs to, if it belongs to one only.
    fn of(event: &str) -> Option<StreamMode> {
        match event {
            "text_delta" | "thinking_delta" => Some(StreamMode::Delta),
            "text" | "thinking" => Some(StreamMode::Message),
            _ => None,
        }
    }
}

/// One option an agent declares (`AgentOption`): its name, and for a
/// `select`, the values it allows.
#[derive(Clone, Debug)]
struct Declared {
    allowed: Option<Vec<String>>,
}

/// Validates AAP payloads of one kind. `Send + Sync`.
pub struct AapValidator {
    kind: Kind,
    schema: Validator,
    tools: Option<ToolValidators>,
    options: Option<BTreeMap<String, Declared>>,
}

impl AapValidator {
    pub fn new(kind: Kind) -> Result<AapValidator, EmitError> {
        Ok(AapValidator {
            kind,
            schema: AapValidator::definition(kind.definition())?,
            tools: None,
            options: None,
        })
    }

    /// A validator for one definition of the schema (`ToolSpec`,
    /// `GetMetaResponse`, `UserMessage`, ...): its shape only.
    pub fn definition(name: &str) -> Result<Validator, EmitError> {
        let mut schema: Value = serde_json::from_str(SCHEMA)
            .map_err(|error| EmitError::new(format!("aap.schema.json is not JSON: {error}")))?;
        if schema
            .pointer(&format!("/$defs/{}", json::escape(name)))
            .is_none()
        {
            return Err(EmitError::new(format!(
                "the AAP schema has no definition `{name}`"
            )));
        }
        schema["$ref"] = Value::String(format!("#/$defs/{}", json::escape(name)));
        Validator::from_schema(schema)
    }

    /// Also checks tool calls against the protocol's tools, and
    /// `agent.options` against the options `GET /meta` lists for it.
    pub fn with_protocol(mut self, model: &Model) -> Result<AapValidator, EmitError> {
        self.tools = Some(ToolValidators::new(model)?);
        let mut notes = Diagnostics::default();
        let mut options = BTreeMap::new();
        for option in declared_options(model, &mut notes) {
            let Some(name) = option.get("name").and_then(Value::as_str) else {
                continue;
            };
            let allowed = option.get("options").and_then(Value::as_array).map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            });
            options.insert(name.to_string(), Declared { allowed });
        }
        self.options = Some(options);
        Ok(self)
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Every problem of one JSON payload (of a JSON kind), or of one SSE
    /// event's data (of [`Kind::Events`], without the stream's order).
    pub fn validate(&self, value: &Value) -> Vec<Violation> {
        let mut out = match self.schema.validate(value) {
            Ok(()) => Vec::new(),
            Err(violations) => violations,
        };
        match self.kind {
            Kind::PostSessionsRequest => {
                self.agent_options(value, &mut out);
                self.history(value, false, &mut out);
            }
            Kind::PostSessionTurnRequest => {
                self.agent_options(value, &mut out);
                turn_messages(value, &mut out);
            }
            Kind::PostSessionTurnResponse => self.history(value, true, &mut out),
            Kind::Events => {
                if value.get("event").and_then(Value::as_str) == Some("tool_call") {
                    self.tool_input(value, "", &mut out);
                }
            }
        }
        out
    }

    /// `agent.options` against the declared options.
    fn agent_options(&self, value: &Value, out: &mut Vec<Violation>) {
        let (Some(declared), Some(given)) = (
            &self.options,
            value.pointer("/agent/options").and_then(Value::as_object),
        ) else {
            return;
        };
        for (name, given) in given {
            let at = format!("/agent/options/{}", json::escape(name));
            let Some(option) = declared.get(name) else {
                let help =
                    did_you_mean(name, declared.keys().map(String::as_str)).unwrap_or_else(|| {
                        match declared.len() {
                            0 => "the agent declares no options".to_string(),
                            _ => format!(
                                "the agent's options are {}",
                                declared
                                    .keys()
                                    .map(|k| format!("`{k}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        }
                    });
                out.push(
                    Violation::new(
                        Code::UnknownOption,
                        at,
                        format!("`{name}` is not an option of the agent"),
                    )
                    .at(super::Anchor::Key)
                    .with_help(help),
                );
                continue;
            };
            let (Some(allowed), Some(text)) = (&option.allowed, given.as_str()) else {
                continue;
            };
            if !allowed.iter().any(|a| a == text) {
                let help =
                    did_you_mean(text, allowed.iter().map(String::as_str)).unwrap_or_else(|| {
                        format!(
                            "`{name}` is a select of {}",
                            allowed
                                .iter()
                                .map(|a| format!("`{a}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    });
                out.push(
                    Violation::new(
                        Code::InvalidOptionValue,
                        at,
                        format!("`{text}` is not one of the values of the select option `{name}`"),
                    )
                    .with_help(help),
                );
            }
        }
    }

    /// A conversation (seed history, or the agent's messages of one turn):
    /// tool use blocks checked against the protocol, tool messages
    /// answering one. A turn's reply may answer calls of an earlier turn,
    /// so `answers_earlier` leaves those unchecked.
    fn history(&self, value: &Value, answers_earlier: bool, out: &mut Vec<Violation>) {
        let Some(messages) = value.get("messages").and_then(Value::as_array) else {
            return;
        };
        let mut calls: HashMap<&str, String> = HashMap::new();
        let mut order: Vec<&str> = Vec::new();
        for (i, message) in messages.iter().enumerate() {
            let at = format!("/messages/{i}");
            match message.get("role").and_then(Value::as_str) {
                Some("assistant") => {
                    let Some(blocks) = message.get("content").and_then(Value::as_array) else {
                        continue;
                    };
                    for (j, block) in blocks.iter().enumerate() {
                        if block.get("type").and_then(Value::as_str) != Some("tool_use") {
                            continue;
                        }
                        let block_at = format!("{at}/content/{j}");
                        if let Some(id) = block.get("toolCallId").and_then(Value::as_str) {
                            if let Some(first) = calls.get(id) {
                                out.push(duplicate_call(id, &block_at, first));
                            } else {
                                calls.insert(id, block_at.clone());
                                order.push(id);
                            }
                        }
                        self.tool_input(block, &block_at, out);
                    }
                }
                Some("tool") if !answers_earlier => {
                    let Some(id) = message.get("toolCallId").and_then(Value::as_str) else {
                        continue;
                    };
                    if !calls.contains_key(id) {
                        out.push(unanswered(id, &format!("{at}/toolCallId"), &order));
                    }
                }
                _ => {}
            }
        }
    }

    /// A tool call's `input` (of a `tool_use` block or `tool_call` event
    /// at `at`) against the protocol's tool of that name.
    fn tool_input(&self, call: &Value, at: &str, out: &mut Vec<Violation>) {
        let Some(tools) = &self.tools else {
            return;
        };
        let Some(name) = call.get("name").and_then(Value::as_str) else {
            return;
        };
        let Some(tool) = tools.get(name) else {
            out.push(undeclared_tool(name, at, tools));
            return;
        };
        let Some(input) = call.get("input") else {
            return;
        };
        if let Err(violations) = tool.validate(input) {
            out.extend(
                violations
                    .into_iter()
                    .map(|inner| tool_input_problem(name, at, inner)),
            );
        }
    }

    /// Every problem of one SSE event's data, given as its [`Index`]
    /// (without the stream's order): against the `SSEEvent` branch its
    /// `event` names, and a `tool_call`'s `input` against the protocol's
    /// tool.
    fn validate_event(&self, index: &Index, found: &mut dyn FnMut(Violation)) {
        let Some(root) = index.root() else {
            return;
        };
        self.schema.validate_each(index, root, found);
        let text = |key: &str| index.member(root, key).and_then(|m| index.string(m));
        if text("event").as_deref() != Some("tool_call") {
            return;
        }
        let (Some(tools), Some(name)) = (&self.tools, text("name")) else {
            return;
        };
        let Some(tool) = tools.get(&name) else {
            return found(undeclared_tool(&name, "", tools));
        };
        if let Some(input) = index.member(root, "input") {
            tool.validate_each(index, input, &mut |inner| {
                found(tool_input_problem(&name, "", inner))
            });
        }
    }
}

/// A tool call to a tool the protocol does not declare.
fn undeclared_tool(name: &str, at: &str, tools: &ToolValidators) -> Violation {
    let help = did_you_mean(name, tools.names()).unwrap_or_else(|| {
        "a client-side tool of the request is not in the protocol; otherwise declare the tool there"
            .to_string()
    });
    Violation::new(
        Code::UndeclaredTool,
        format!("{at}/name"),
        format!("tool call to `{name}`, which the protocol does not declare"),
    )
    .with_help(help)
}

/// A problem of a tool call's `input` (of the call at `at`), as a problem
/// of the call.
fn tool_input_problem(name: &str, at: &str, mut inner: Violation) -> Violation {
    inner.message = format!("`{name}` input: {}", inner.message);
    inner.pointer = format!("{at}/input{}", inner.pointer);
    for related in &mut inner.related {
        related.pointer = format!("{at}/input{}", related.pointer);
    }
    inner
}

/// A turn sends "a single user message, or a mixed list of tool results
/// and tool permissions".
fn turn_messages(value: &Value, out: &mut Vec<Violation>) {
    let Some(messages) = value.get("messages").and_then(Value::as_array) else {
        return;
    };
    if messages.is_empty() {
        out.push(
            Violation::new(
                Code::InvalidTurnMessages,
                "/messages",
                "a turn sends no messages",
            )
            .with_help(
                "send one user message, or the tool results and permissions the agent waits for",
            ),
        );
        return;
    }
    let users: Vec<usize> = messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.get("role").and_then(Value::as_str) == Some("user"))
        .map(|(i, _)| i)
        .collect();
    if users.is_empty() || (users.len() == 1 && messages.len() == 1) {
        return;
    }
    let at = if users[0] == 0 {
        users[1..].first().copied().unwrap_or(1)
    } else {
        users[0]
    };
    let message = if users.len() > 1 {
        format!("a turn sends {} user messages; it sends one", users.len())
    } else {
        "a user message among tool results or permissions".to_string()
    };
    out.push(
        Violation::new(Code::InvalidTurnMessages, format!("/messages/{at}"), message)
            .with_help("a turn's `messages` are a single user message, or only tool results and tool permissions: send them in separate turns"),
    );
}

/// A diagnostic at the member `pointer` of an event's data.
fn at(
    doc: &Doc,
    index: &Index,
    code: Code,
    pointer: &str,
    message: impl Into<String>,
) -> Diagnostic {
    place(doc, index, Violation::new(code, pointer, message))
}

fn duplicate_call(id: &str, at: &str, first: &str) -> Violation {
    Violation::new(
        Code::DuplicateToolCallId,
        format!("{at}/toolCallId"),
        format!("tool call id `{id}` is already used by an earlier tool call"),
    )
    .related(format!("{first}/toolCallId"), "first used here")
    .with_help("a tool result names the call it answers by this id, so it must be unique")
}

fn unanswered(id: &str, at: &str, calls: &[&str]) -> Violation {
    let help = did_you_mean(id, calls.iter().copied())
        .unwrap_or_else(|| "a tool result follows the tool call it answers".to_string());
    Violation::new(
        Code::UnknownToolCallId,
        at,
        format!("tool result answers `{id}`, which no earlier tool call made"),
    )
    .with_help(help)
}

/// Checks every JSON payload of a data file (of a JSON kind).
pub fn check(validator: &AapValidator, source: &Source, layout: Layout) -> Vec<Diagnostic> {
    let valid = |doc: &Doc, _: Option<&Index>| {
        serde_json::from_str::<Value>(&doc.text).is_ok_and(|value| {
            validator
                .validate(&value)
                .iter()
                .all(|v| v.code.severity() != Severity::Error)
        })
    };
    each_value(source, layout, false, valid, |doc, _, diagnostics| {
        let Ok(value) = serde_json::from_str::<Value>(&doc.text) else {
            return;
        };
        let violations = validator.validate(&value);
        drop(value);
        diagnostics.extend(locate(doc, violations));
    })
}

/// One event of a `text/event-stream`.
struct Event<'t> {
    /// The `event:` field, if any, and the span of its value.
    name: Option<(&'t str, Span)>,
    /// The `data:` lines joined by `\n`, mapped to the file: borrowed when
    /// there is one line.
    data: Option<Data<'t>>,
    /// The span of the event's first line.
    first: Span,
    /// Whether a blank line ends it. The SSE rules drop an event the
    /// stream ends in: it is never dispatched.
    ended: bool,
}

struct Data<'t> {
    text: std::borrow::Cow<'t, str>,
    map: json::Map,
    /// The length of the joined lines, also past [`MAX_VALUE_BYTES`],
    /// where they are no longer joined.
    len: usize,
    /// The file offset one past the last line's value.
    end: usize,
}

impl<'t> Data<'t> {
    fn push(&mut self, value: &'t str, file: usize, line_break: usize) {
        if self.len > 0 || !self.map_is_empty() {
            self.len += 1;
            if self.len <= MAX_VALUE_BYTES {
                let at = self.text.len();
                self.text.to_mut().push('\n');
                // The joining newline stands for the line break before.
                self.map.stands_for(at, line_break);
            }
        }
        self.len += value.len();
        if self.len <= MAX_VALUE_BYTES {
            let at = self.text.len();
            self.text.to_mut().push_str(value);
            self.map.copied(at, file);
        }
        self.end = file + value.len();
    }

    fn map_is_empty(&self) -> bool {
        self.end == usize::MAX
    }

    fn doc(mut self) -> Doc<'t> {
        self.map.stands_for(self.text.len(), self.end);
        Doc::mapped(self.text, self.map)
    }
}

/// Reads the events of a stream one at a time, as the SSE parsing rules
/// do: lines end in `\r\n`, `\n` or `\r`; a blank line ends an event; `:`
/// starts a comment; a field's value follows its `:` and one optional
/// space; fields other than `event` and `data` are not read. An event's
/// data is a slice of the stream when it has one line, so reading a
/// stream costs what one event holds, not a copy of the stream.
struct Events<'t> {
    text: &'t str,
    base: usize,
    /// Where the next line starts.
    start: usize,
}

impl<'t> Events<'t> {
    fn new(text: &'t str, base: usize) -> Events<'t> {
        Events {
            text,
            base,
            start: 0,
        }
    }
}

impl<'t> Iterator for Events<'t> {
    type Item = Event<'t>;

    fn next(&mut self) -> Option<Event<'t>> {
        let (text, base) = (self.text, self.base);
        let bytes = text.as_bytes();
        let mut current: Option<Event<'t>> = None;
        while self.start < text.len() {
            let start = self.start;
            let end = start
                + memchr::memchr2(b'\n', b'\r', &bytes[start..]).unwrap_or(text.len() - start);
            let line = &text[start..end];
            self.start = match bytes.get(end) {
                Some(b'\r') if bytes.get(end + 1) == Some(&b'\n') => end + 2,
                Some(_) => end + 1,
                None => end,
            };
            if line.is_empty() {
                if let Some(mut event) = current.take() {
                    event.ended = true;
                    return Some(event);
                }
                continue;
            }
            if line.starts_with(':') {
                continue;
            }
            let (field, value, value_at) = match line.find(':') {
                Some(colon) => {
                    let mut at = colon + 1;
                    if line[at..].starts_with(' ') {
                        at += 1;
                    }
                    (&line[..colon], &line[at..], start + at)
                }
                None => (line, "", end),
            };
            let event = current.get_or_insert_with(|| Event {
                name: None,
                data: None,
                first: Span::new(base + start, base + end),
                ended: false,
            });
            match field {
                "event" => {
                    event.name = Some((
                        value,
                        Span::new(base + value_at, base + value_at + value.len()),
                    ))
                }
                "data" => {
                    let data = event.data.get_or_insert_with(|| Data {
                        text: "".into(),
                        map: json::Map::default(),
                        len: 0,
                        end: usize::MAX,
                    });
                    if data.map_is_empty() {
                        // The first line: borrowed, not copied.
                        data.text = value.into();
                        data.map.copied(0, base + value_at);
                        data.len = value.len();
                        data.end = base + value_at + value.len();
                    } else {
                        data.push(value, base + value_at, base + start.saturating_sub(1));
                    }
                }
                _ => {}
            }
        }
        current
    }
}

/// Checks an event stream: each event's data, and the events as one turn.
/// Events are read, checked and dropped one at a time, and an event's data
/// is parsed, validated and dropped before its problems are placed.
pub fn check_events(
    validator: &AapValidator,
    source: &Source,
    mode: Option<StreamMode>,
) -> Vec<Diagnostic> {
    let mut diagnostics = Diagnostics::default();
    diagnostics.extend(json::byte_order_mark_of(
        source.text(),
        json::Reader::EventStream,
    ));
    let (text, base) = json::without_bom(source.text());
    let mut mode = mode.map(|m| (m, None::<Span>));
    let mut started: Option<Span> = None;
    let mut early = false;
    // Whether any event's data named its type: a stream of unreadable
    // events is reported for them, not for its order.
    let mut typed = false;
    let mut unread = false;
    let mut stopped: Option<Span> = None;
    let mut calls: HashMap<String, Span> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let end = Span::empty(base + text.len());
    for event in Events::new(text, base) {
        if diagnostics.is_full() {
            diagnostics.count_at_least(Severity::Error);
            break;
        }
        if !event.ended && event.data.is_some() {
            diagnostics.push(
                Diagnostic::new(
                    Code::InvalidEventStream,
                    end,
                    "the stream ends inside an event, which is never dispatched",
                )
                .with_label(event.first, "this event has no blank line after it")
                .with_help(
                    "a reader dispatches an event at the blank line that ends it, and drops an unfinished one when the stream ends (the SSE rules): end the event with a blank line",
                ),
            );
        }
        let Some(data) = event.data else {
            // A block of `id:` or `retry:` only dispatches nothing.
            if event.name.is_none() {
                continue;
            }
            unread = true;
            diagnostics.push(
                Diagnostic::new(
                    Code::InvalidEventStream,
                    event.first,
                    "an `event:` without `data:`",
                )
                .with_help("every AAP event carries its JSON in a `data:` line"),
            );
            continue;
        };
        let first = event.first;
        if data.len > MAX_VALUE_BYTES {
            unread = true;
            diagnostics.push(Diagnostic::new(
                Code::ValueTooLarge,
                event.first,
                format!(
                    "this event's data is {} KiB long, more than the {} KiB agentc validates",
                    data.len / 1024,
                    MAX_VALUE_BYTES / 1024
                ),
            ));
            continue;
        }
        let doc = data.doc();
        // One index of the data, made in the pass that judges its syntax
        // (`Index::checked`): validated through it, its problems placed by
        // it, and what the order needs read from it.
        let index = match Index::checked(&doc.text) {
            Ok(index) => index,
            Err(error) => {
                unread = true;
                let at = json::error_offset(&doc.text, &error).min(doc.text.trim_end().len());
                let range = doc.range(at..(at + 1).min(doc.text.len()));
                let (code, message) = match json::Beyond::of(&error) {
                    Some(beyond) => (
                        beyond.code(Code::InvalidJson),
                        beyond.message("the event's data"),
                    ),
                    None => (
                        Code::InvalidJson,
                        format!(
                            "the event's data is not JSON: {}",
                            json::syntax_reason(&error)
                        ),
                    ),
                };
                diagnostics.push(Diagnostic::new(
                    code,
                    Span::new(range.start, range.end),
                    message,
                ));
                continue;
            }
        };
        if index.repeats_keys() {
            super::data::duplicate_keys(&doc, &mut diagnostics);
        }
        validator.validate_event(&index, &mut |v| diagnostics.push(place(&doc, &index, v)));
        let text = |key: &str| {
            let root = index.root()?;
            index.member(root, key).and_then(|m| index.string(m))
        };
        let kind = text("event");
        let id = text("toolCallId");
        let kind = kind.as_deref();
        let id = id.as_deref();
        if let (Some((name, span)), Some(kind)) = (&event.name, kind)
            && *name != kind
        {
            diagnostics.push(
                Diagnostic::new(
                    Code::InvalidEventStream,
                    *span,
                    format!("the `event:` line says `{name}`, and the data's `event` is `{kind}`"),
                )
                .with_help("write the same event type in both places"),
            );
        }
        let Some(kind) = kind else {
            unread = true;
            continue;
        };
        typed = true;
        // The order of one turn.
        match kind {
            "turn_start" => {
                if let Some(earlier) = started {
                    diagnostics.push(
                        at(
                            &doc,
                            &index,
                            Code::EventOrder,
                            "/event",
                            "a second `turn_start`",
                        )
                        .with_label(earlier, "the turn started here")
                        .with_help("a turn's stream has one `turn_start`, its first event"),
                    );
                } else {
                    started = Some(first);
                }
                continue;
            }
            _ if started.is_none() && !early => {
                diagnostics.push(
                    at(
                        &doc,
                        &index,
                        Code::EventOrder,
                        "/event",
                        format!("a `{kind}` event before `turn_start`"),
                    )
                    .with_help("a turn's stream opens with `turn_start`"),
                );
                // Once: the events that follow are as early.
                early = true;
            }
            _ => {}
        }
        if let Some(stop) = stopped {
            diagnostics.push(
                at(
                    &doc,
                    &index,
                    Code::EventOrder,
                    "/event",
                    format!("a `{kind}` event after `turn_stop`"),
                )
                .with_label(stop, "the turn stopped here")
                .with_help("`turn_stop` is the last event of a turn's stream"),
            );
        }
        if kind == "turn_stop" {
            stopped.get_or_insert(first);
        }
        if let Some(this) = StreamMode::of(kind) {
            match mode {
                None => mode = Some((this, Some(first))),
                Some((expected, _)) if expected == this => {}
                Some((expected, since)) => {
                    let mut diagnostic = at(
                        &doc,
                        &index,
                        Code::StreamModeMismatch,
                        "/event",
                        format!(
                            "a `{kind}` event, which `stream: \"{}\"` sends, in a `{}` stream",
                            this.name(),
                            expected.name()
                        ),
                    )
                    .with_help(match expected {
                        StreamMode::Delta => "delta mode sends `text_delta` and `thinking_delta`",
                        StreamMode::Message => {
                            "message mode sends whole `text` and `thinking` events"
                        }
                    });
                    if let Some(since) = since {
                        diagnostic =
                            diagnostic.with_label(since, "the stream's mode, from this event");
                    }
                    diagnostics.push(diagnostic);
                }
            }
        }
        match (kind, id) {
            ("tool_call", Some(id)) => {
                if let Some(earlier) = calls.get(id) {
                    diagnostics.push(
                        at(
                            &doc,
                            &index,
                            Code::DuplicateToolCallId,
                            "/toolCallId",
                            format!("tool call id `{id}` is already used by an earlier tool call"),
                        )
                        .with_label(*earlier, "first used here")
                        .with_help("a tool result names the call it answers by this id, so it must be unique"),
                    );
                } else {
                    calls.insert(id.to_string(), first);
                    order.push(id.to_string());
                }
            }
            ("tool_result", Some(id)) if !calls.contains_key(id) => {
                let violation = unanswered(
                    id,
                    "/toolCallId",
                    &order.iter().map(String::as_str).collect::<Vec<_>>(),
                );
                diagnostics.push(place(&doc, &index, violation));
            }
            _ => {}
        }
    }
    if !typed && unread {
        // Each event is reported already.
    } else if !typed {
        diagnostics.push(
            Diagnostic::new(Code::EventOrder, end, "the stream has no events")
                .with_help("a turn's stream is `turn_start`, its content, and `turn_stop`"),
        );
    } else if stopped.is_none() {
        let mut diagnostic = Diagnostic::new(
            Code::EventOrder,
            end,
            "the stream ends without `turn_stop`",
        )
        .with_help("a turn's stream ends with `turn_stop` and its `stopReason`; a stream cut short lost it");
        if let Some(start) = started {
            diagnostic = diagnostic.with_label(start, "the turn started here");
        }
        diagnostics.push(diagnostic);
    }
    let mut diagnostics = diagnostics.into_vec();
    crate::order(&mut diagnostics);
    diagnostics
}

/// How many events a stream holds, for the summary.
pub fn count_events(text: &str) -> usize {
    let (text, base) = json::without_bom(text);
    Events::new(text, base)
        .filter(|event| event.data.is_some() || event.name.is_some())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_compiles() {
        for kind in [
            Kind::PostSessionsRequest,
            Kind::PostSessionTurnRequest,
            Kind::PostSessionTurnResponse,
            Kind::Events,
        ] {
            AapValidator::new(kind).unwrap();
        }
        AapValidator::definition("GetMetaResponse").unwrap();
        assert!(AapValidator::definition("Nope").is_err());
    }

    #[test]
    fn events_follow_the_sse_line_rules() {
        let text = ": comment\r\nevent: turn_start\r\ndata: {\"event\":\r\ndata:\"turn_start\"}\r\n\r\nid: 3\rdata: {}\r\rdata: x\n";
        let list: Vec<Event> = Events::new(text, 0).collect();
        assert_eq!(list.len(), 3);
        assert_eq!(list[0].name.as_ref().unwrap().0, "turn_start");
        let doc = list.into_iter().next().unwrap().data.unwrap().doc();
        assert_eq!(doc.text, "{\"event\":\n\"turn_start\"}");
        assert_eq!(&text[doc.range(0..1)], "{");
        // The joining newline stands for the line break before the line.
        assert_eq!(&text[doc.offset(9)..doc.offset(9) + 1], "\n");
        assert_eq!(&text[doc.range(10..22)], "\"turn_start\"");
        let list: Vec<Event> = Events::new(text, 0).collect();
        assert_eq!(list[1].data.as_ref().unwrap().text, "{}");
        assert!(list[1].ended);
        // The last event has no blank line after it: never dispatched.
        assert_eq!(list[2].data.as_ref().unwrap().text, "x");
        assert!(!list[2].ended);
        // A stream is read as it is: one line of data is not copied.
        let one = Events::new("data: {}\n\n", 0).next().unwrap();
        assert!(matches!(
            one.data.unwrap().text,
            std::borrow::Cow::Borrowed(_)
        ));
    }
}

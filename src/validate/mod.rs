//! Data validation: the other half of the contract. A [`Validator`] is
//! compiled once from a protocol's type or tool and checks JSON values
//! many times; [`run_input`] checks AG-UI `RunAgentInput` payloads; and
//! [`data`] turns what either finds into located [`Diagnostic`]s for a
//! JSON text.
//!
//! Whether a value is valid is decided by the `jsonschema` crate on the
//! schema agentc emits (the json-schema target), so validation means
//! exactly what the emitted schema means. What this module adds is the
//! report: for an invalid value, agentc walks the schema beside it
//! (`report.rs`), reads a union's discriminator, and explains only the
//! branch the value meant, each problem handed on as it is found.
//!
//! [`Diagnostic`]: crate::Diagnostic

pub mod aap;
mod compile;
pub mod data;
mod explain;
pub mod json;
mod report;
pub mod run_input;
pub mod tape;

use crate::diagnostic::{Code, Diagnostics, MAX_DIAGNOSTICS};
use crate::emit::{self, EmitError, Output, Selection, Target};
use crate::model::Model;
use compile::{Enums, Rule, Unions};
use json::{Index, Kind};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use tape::{Tape, TapeNode};

/// A protocol payload that validation knows, by the name the MCP server's
/// `validate` tool and the browser package take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// An AG-UI `RunAgentInput`.
    RunInput,
    /// An AAP v3 payload of this kind.
    Aap(aap::Kind),
}

impl Payload {
    /// Every payload, in the order they are listed.
    pub const ALL: [Payload; 5] = [
        Payload::RunInput,
        Payload::Aap(aap::Kind::PostSessionsRequest),
        Payload::Aap(aap::Kind::PostSessionTurnRequest),
        Payload::Aap(aap::Kind::PostSessionTurnResponse),
        Payload::Aap(aap::Kind::Events),
    ];

    /// Its name: `run-input`, `aap-post-sessions-request`, ...
    pub fn name(self) -> &'static str {
        match self {
            Payload::RunInput => "run-input",
            Payload::Aap(aap::Kind::PostSessionsRequest) => "aap-post-sessions-request",
            Payload::Aap(aap::Kind::PostSessionTurnRequest) => "aap-post-session-turn-request",
            Payload::Aap(aap::Kind::PostSessionTurnResponse) => "aap-post-session-turn-response",
            Payload::Aap(aap::Kind::Events) => "aap-events",
        }
    }

    /// What it is, in a phrase.
    pub fn summary(self) -> &'static str {
        match self {
            Payload::RunInput => "an AG-UI `RunAgentInput`",
            Payload::Aap(aap::Kind::PostSessionsRequest) => {
                "an AAP v3 `POST /sessions` request body"
            }
            Payload::Aap(aap::Kind::PostSessionTurnRequest) => {
                "an AAP v3 `POST /sessions/:id/turns` request body"
            }
            Payload::Aap(aap::Kind::PostSessionTurnResponse) => {
                "the JSON reply to an AAP v3 `stream: \"none\"` turn"
            }
            Payload::Aap(aap::Kind::Events) => "an AAP v3 `text/event-stream` reply",
        }
    }

    /// The payload named `name`.
    pub fn from_name(name: &str) -> Option<Payload> {
        Payload::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// A value's text up to this long is printed in a message that quotes it;
/// a longer one is named by what it is (`an array of 3 items`).
const SHOWN_BYTES: usize = 200;

/// A compiled schema that validates JSON values. `Send + Sync`: build it
/// once and share it between threads.
///
/// Values are validated as an [`Index`] of their text (20 bytes a node,
/// read in place), and `jsonschema` only says whether one is valid; the
/// report of an invalid one walks the schema (`report.rs`), so its cost
/// follows the value and the problems it lists, never the union branches
/// it did not take.
pub struct Validator {
    /// Boxed: the report finds an `enum`'s set and a node's rules by the
    /// node's address, so the schema never moves.
    schema: Box<Value>,
    compiled: jsonschema::Validator<Tape>,
    /// For the library's `serde_json` values: the same schema compiled over
    /// them, built on first use (the command line never asks for it).
    values: OnceLock<Option<jsonschema::Validator<jsonschema::json::SerdeJson>>>,
    enums: Arc<Enums>,
    rules: foldhash::HashMap<usize, Rule>,
    unions: Unions,
}

impl Validator {
    /// Validates values of the protocol's type `name`.
    pub fn for_type(model: &Model, name: &str) -> Result<Validator, EmitError> {
        Validator::emitted(model, Selection::Type(name))
    }

    /// Validates the arguments of the protocol's tool `name`.
    pub fn for_tool(model: &Model, name: &str) -> Result<Validator, EmitError> {
        Validator::emitted(model, Selection::Tool(name))
    }

    /// The model must have no errors: emitting assumes every name resolves.
    fn emitted(model: &Model, selection: Selection) -> Result<Validator, EmitError> {
        Validator::from_schema(schema_of(model, selection)?)
    }

    /// Validates against a JSON Schema 2020-12 document. Reports are best
    /// for schemas shaped like agentc's: closed objects, and unions whose
    /// branches share a `const` discriminator property.
    pub fn from_schema(schema: Value) -> Result<Validator, EmitError> {
        let schema = Box::new(schema);
        let enums = Arc::new(compile::enums(&schema));
        let compiled = compile::compile(&schema, &enums)
            .map_err(|error| EmitError::new(format!("the schema does not compile: {error}")))?;
        let rules = compile::rules(&schema);
        let unions = compile::unions(&schema);
        Ok(Validator {
            schema,
            compiled,
            values: OnceLock::new(),
            enums,
            rules,
            unions,
        })
    }

    /// The JSON Schema this validator checks against.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    pub fn is_valid(&self, value: &Value) -> bool {
        let values = self
            .values
            .get_or_init(|| compile::compile(&self.schema, &self.enums).ok());
        match values {
            Some(compiled) => compiled.is_valid(value),
            None => {
                let text = value.to_string();
                let index = Index::new(&text);
                index
                    .root()
                    .is_some_and(|root| self.is_valid_in(&index, root))
            }
        }
    }

    /// Every problem of `value`: a valid one costs one `jsonschema` pass
    /// over it; an invalid one is explained as [`Validator::validate_in`]
    /// explains its text.
    pub fn validate(&self, value: &Value) -> Result<(), Vec<Violation>> {
        if self.is_valid(value) {
            return Ok(());
        }
        let text = value.to_string();
        let index = Index::new(&text);
        match index.root() {
            Some(root) => self.validate_in(&index, root),
            None => Err(vec![Violation::new(
                Code::SchemaViolation,
                "",
                "the value does not match its schema",
            )]),
        }
    }

    /// Whether the value at node `id` of `index` is valid.
    pub fn is_valid_in(&self, index: &Index, id: u32) -> bool {
        self.compiled.is_valid(TapeNode::new(index, id))
    }

    /// Every problem of the value at node `id` of `index`, each at its JSON
    /// pointer (relative to that value), up to [`MAX_DIAGNOSTICS`] in all:
    /// past it, one `too-many-problems` at the root says there are more (a
    /// list of millions of wrong items is generated data, and explaining
    /// each would cost gigabytes). A valid value costs one `jsonschema`
    /// pass and nothing more.
    pub fn validate_in(&self, index: &Index, id: u32) -> Result<(), Vec<Violation>> {
        let mut violations = Vec::new();
        match self.validate_each(index, id, &mut |v| violations.push(v)) {
            true => Ok(()),
            false => Err(violations),
        }
    }

    /// [`Validator::validate_in`], each problem handed to `found` as it is
    /// found rather than listed, so that a caller that keeps them in its
    /// own form (a file's diagnostics) never holds a flood twice. Returns
    /// whether the value is valid.
    pub fn validate_each(&self, index: &Index, id: u32, found: &mut dyn FnMut(Violation)) -> bool {
        if self.is_valid_in(index, id) {
            return true;
        }
        // One fewer than a file records, leaving room for the count.
        let walked = report::walk(self, index, id, MAX_DIAGNOSTICS - 1, found);
        if walked.truncated {
            found(Violation::new(
                Code::TooManyProblems,
                "",
                format!(
                    "this value has more problems than agentc reports (it stops at {})",
                    crate::diagnostic::thousands(MAX_DIAGNOSTICS)
                ),
            ));
        }
        if walked.exhausted {
            found(
                Violation::new(
                    Code::TooManyProblems,
                    "",
                    format!(
                        "agentc stopped explaining this value after {} steps through its schema; it may have more problems",
                        crate::diagnostic::thousands(walked.steps)
                    ),
                )
                .with_help("the schema nests unions without a discriminator, and each is tried branch by branch: give each union a `const` property that tells its branches apart"),
            );
        }
        if walked.count == 0 && !walked.truncated && !walked.exhausted {
            // `jsonschema` and the walk are two readings of one schema;
            // should they ever disagree, still say the value is invalid.
            found(Violation::new(
                Code::SchemaViolation,
                "",
                "the value does not match its schema",
            ));
        }
        false
    }

    /// The rule of a schema node the report does not walk itself.
    fn rule(&self, node: &Value) -> Option<&Rule> {
        self.rules.get(&compile::address(node))
    }

    /// The discriminator of a union (its `anyOf` or `oneOf` list), if it
    /// has one, and each branch's tag.
    fn discriminator(&self, list: &Value) -> Option<&(String, Vec<String>)> {
        self.unions.get(&compile::address(list))
    }

    /// Whether a value is one of an `enum`'s `options`.
    fn enum_contains(&self, options: &Value, node: TapeNode) -> bool {
        match self.enums.get(&compile::address(options)) {
            Some(set) => set.contains::<Tape>(&node),
            None => options
                .as_array()
                .is_some_and(|list| list.iter().any(|o| tape::equals(node, o))),
        }
    }
}

/// The JSON Schema a [`Validator`] of the protocol's type or tool checks
/// against: with it, a caller can drop the model before the schema is
/// compiled ([`Validator::from_schema`]), so the two are never held at
/// once (a protocol of millions of `enum` values costs both).
pub fn schema_of(model: &Model, selection: Selection) -> Result<Value, EmitError> {
    let mut diags = Diagnostics::default();
    match emit::emit(model, Target::JsonSchema, selection, &mut diags)? {
        Output::Json(schema) => Ok(schema),
        Output::Printed(_) | Output::Text(_) => Err(EmitError::new(
            "the json-schema target emitted text, not a schema",
        )),
    }
}

/// `schema` with every optional property (one of `properties` that
/// `required` does not list) also admitting `null`, at every level: what
/// data that passed through OpenAI's strict mode holds, where a model must
/// write every property and writes `null` for one it leaves out (`agentc
/// validate --optional-null`, as `gen`'s `optional-null` types it). The
/// forms are those of the openai target's strict schemas: a primitive's
/// `type` takes `"null"` (and its `enum` the value `null`); anything else
/// becomes `anyOf` with `{"type": "null"}`; a schema that admits anything
/// already admits `null`.
pub fn optional_null(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    let required: Vec<String> = match map.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    };
    for (key, value) in map.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                for (name, property) in properties.iter_mut() {
                    optional_null(property);
                    if !required.contains(name) {
                        nullable(property);
                    }
                }
            }
            ("$defs", Value::Object(definitions)) => {
                definitions.values_mut().for_each(optional_null);
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(branches)) => {
                branches.iter_mut().for_each(optional_null);
            }
            ("items" | "additionalProperties" | "not", sub @ Value::Object(_)) => {
                optional_null(sub);
            }
            _ => {}
        }
    }
}

/// One schema made to admit `null` besides what it admits ([`optional_null`]).
fn nullable(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    let null = Value::Null;
    let admits_anything = map
        .keys()
        .all(|k| matches!(k.as_str(), "description" | "title" | "default"));
    if admits_anything {
        return;
    }
    let primitive = !map.contains_key("const")
        && match map.get("type") {
            Some(Value::String(ty)) => !matches!(ty.as_str(), "object" | "array"),
            _ => false,
        };
    if primitive {
        if let Some(Value::String(ty)) = map.get("type") {
            let ty = ty.clone();
            map.insert("type".into(), Value::Array(vec![ty.into(), "null".into()]));
        }
        if let Some(Value::Array(values)) = map.get_mut("enum")
            && !values.contains(&null)
        {
            values.push(null);
        }
        return;
    }
    let inner = std::mem::take(map);
    map.insert(
        "anyOf".into(),
        Value::Array(vec![
            Value::Object(inner),
            serde_json::json!({"type": "null"}),
        ]),
    );
}

/// One validator per tool of a protocol, by name: what a service needs to
/// check every tool call it receives.
pub struct ToolValidators {
    tools: BTreeMap<String, Validator>,
}

impl ToolValidators {
    pub fn new(model: &Model) -> Result<ToolValidators, EmitError> {
        let mut tools = BTreeMap::new();
        for tool in &model.protocol.tools {
            let name = tool.name.text.as_str();
            tools.insert(name.to_string(), Validator::for_tool(model, name)?);
        }
        Ok(ToolValidators { tools })
    }

    pub fn get(&self, name: &str) -> Option<&Validator> {
        self.tools.get(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }
}

/// One problem in a JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub code: Code,
    /// The JSON pointer (RFC 6901) of the value the problem is about.
    pub pointer: String,
    /// Which part of that value to point at.
    pub anchor: Anchor,
    /// What was expected and what was found, without the location.
    pub message: String,
    pub help: Option<String>,
    /// Other places that explain this one ("first used here").
    pub related: Vec<Related>,
    /// For a problem inside a JSON text carried in the string at
    /// `pointer` (tool-call arguments): where in that text.
    pub inside: Option<Inside>,
}

/// The part of the value at a violation's pointer that the report points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The whole value.
    Value,
    /// The member's key (an unknown property).
    Key,
    /// The value's first character (the `{` of an object missing a property).
    Start,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub pointer: String,
    pub message: String,
    /// For a place inside the JSON text carried in the string at the
    /// violation's `pointer`, which `pointer` is then.
    pub inside: Option<Inside>,
}

/// A place inside a JSON text that is carried in a string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inside {
    /// A byte offset of the decoded text (where it stops being JSON).
    Offset(usize),
    /// A byte range of the decoded text (a repeated key).
    Range(std::ops::Range<usize>),
    /// A value of the decoded text.
    Value { pointer: String, anchor: Anchor },
}

impl Violation {
    pub fn new(code: Code, pointer: impl Into<String>, message: impl Into<String>) -> Violation {
        Violation {
            code,
            pointer: pointer.into(),
            anchor: Anchor::Value,
            message: message.into(),
            help: None,
            related: Vec::new(),
            inside: None,
        }
    }

    pub fn at(mut self, anchor: Anchor) -> Violation {
        self.anchor = anchor;
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Violation {
        self.help = Some(help.into());
        self
    }

    pub fn with_help_opt(mut self, help: Option<String>) -> Violation {
        self.help = help;
        self
    }

    pub fn related(mut self, pointer: impl Into<String>, message: impl Into<String>) -> Violation {
        self.related.push(Related {
            pointer: pointer.into(),
            message: message.into(),
            inside: None,
        });
        self
    }
}

/// A value for a message: its JSON type, and the value itself when short.
pub(crate) fn describe(value: &Value) -> String {
    const SHORT: usize = 40;
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => format!("number `{n}`"),
        Value::String(s) => {
            let text = Value::from(s.as_str()).to_string();
            if text.chars().count() <= SHORT {
                format!("string `{text}`")
            } else {
                let cut: String = text.chars().take(SHORT - 1).collect();
                format!("string `{cut}…`")
            }
        }
        Value::Array(items) => match items.len() {
            0 => "an empty array".to_string(),
            1 => "an array of 1 item".to_string(),
            n => format!("an array of {n} items"),
        },
        Value::Object(_) => "an object".to_string(),
    }
}

/// [`describe`] of a value of an [`Index`], without building it.
pub(crate) fn describe_node(index: &Index, id: u32) -> String {
    match index.kind(id) {
        Kind::Null | Kind::Invalid => "null".to_string(),
        Kind::True => "boolean `true`".to_string(),
        Kind::False => "boolean `false`".to_string(),
        Kind::Number => match tape::number(index.source(id)) {
            Some(n) => format!("number `{n}`"),
            None => format!("number `{}`", index.source(id)),
        },
        Kind::String => describe(&Value::String(
            index.string(id).unwrap_or_default().into_owned(),
        )),
        Kind::Array => match index.len(id) {
            0 => "an empty array".to_string(),
            1 => "an array of 1 item".to_string(),
            n => format!("an array of {n} items"),
        },
        Kind::Object => "an object".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_properties_admit_null_in_the_openai_targets_forms() {
        let mut schema = serde_json::json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "note": {"type": "string", "description": "d"},
                "size": {"type": "string", "enum": ["s", "m"]},
                "kind": {"type": "string", "const": "k"},
                "address": {"$ref": "#/$defs/Address"},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/Address"}},
                "extra": {"description": "anything"},
                "properties": {"type": "integer"}
            },
            "required": ["id"],
            "$defs": {
                "Address": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "zip": {"type": "integer"}},
                    "required": ["city"]
                }
            }
        });
        optional_null(&mut schema);
        let null = serde_json::json!({"type": "null"});
        let p = &schema["properties"];
        assert_eq!(p["id"], serde_json::json!({"type": "string"}));
        assert_eq!(p["note"]["type"], serde_json::json!(["string", "null"]));
        assert_eq!(p["size"]["enum"], serde_json::json!(["s", "m", null]));
        assert_eq!(p["kind"]["anyOf"][1], null);
        assert_eq!(
            p["address"]["anyOf"][0],
            serde_json::json!({"$ref": "#/$defs/Address"})
        );
        assert_eq!(p["tags"]["anyOf"][1], null);
        assert_eq!(p["extra"], serde_json::json!({"description": "anything"}));
        // A property named like a keyword is a property.
        assert_eq!(
            p["properties"]["type"],
            serde_json::json!(["integer", "null"])
        );
        let address = &schema["$defs"]["Address"]["properties"];
        assert_eq!(address["city"]["type"], "string");
        assert_eq!(
            address["zip"]["type"],
            serde_json::json!(["integer", "null"])
        );
        let validator = Validator::from_schema(schema).expect("compiles");
        let valid = serde_json::json!({"id": "1", "note": null, "size": null, "kind": null,
            "address": {"city": "c", "zip": null}, "tags": null, "extra": null, "properties": null});
        assert!(validator.validate(&valid).is_ok());
        let invalid = serde_json::json!({"id": null, "address": {"city": null}});
        assert_eq!(validator.validate(&invalid).map_err(|v| v.len()), Err(2));
    }

    #[test]
    fn validators_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Validator>();
        shared::<ToolValidators>();
        shared::<run_input::RunInputValidator>();
        shared::<aap::AapValidator>();
    }
}

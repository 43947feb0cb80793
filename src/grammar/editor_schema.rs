//! The protocol file format as a JSON Schema (draft-07), for editors: with
//! `# yaml-language-server: $schema=...` on its first line, a
//! `protocol.yaml` gets completion, hover text and validation as it is
//! typed, in VS Code's YAML extension, Neovim, Helix and anything else that
//! runs yaml-language-server.
//!
//! It is written by walking the grammar's tables, so it lists exactly the
//! keys, choices, ranges and deprecations the lowering reads. It checks
//! form only (keys, shapes, scalar kinds, enumerated values), never
//! whether a name is declared, and where it cannot tell it accepts: it must
//! never flag a protocol that agentc accepts.
//!
//! Editors type a plain YAML scalar by the YAML 1.2 core schema (`true` is a
//! boolean, `0.7` a number, `16:9` and `yes` strings; quoted scalars are
//! strings), so where agentc reads any scalar as text (a description, a
//! name) the schema accepts strings, numbers and booleans alike.

use super::*;
use serde_json::{Map as Object, Value as Json, json};

/// The JSON Schema (draft-07, which yaml-language-server supports) of a
/// protocol file, as `agentc schema` prints it and
/// `schema/protocol.schema.json` holds it: `$schema`, a `title`, the
/// top-level sections under `properties`, and the shared shapes under
/// `definitions`, in the order they are first used. It has no `$id`: an
/// editor names a schema by where it found it. The output is the same on
/// every run.
///
/// It accepts every protocol agentc accepts. It rejects unknown keys,
/// values of the wrong shape or scalar kind, and values outside an
/// enumeration, as agentc does; what needs the whole protocol (references
/// to declared names, the rules of unions and `responseType`, mixing the
/// interactive and worker formats) is left to `agentc check`.
pub fn schema() -> Json {
    let mut writer = Writer {
        definitions: Object::new(),
    };
    let body = writer.place(&PROTOCOL);
    let mut root = Object::new();
    root.insert(
        "$schema".into(),
        "http://json-schema.org/draft-07/schema#".into(),
    );
    root.insert("title".into(), "Octavus agent protocol".into());
    root.extend(body);
    root.insert("definitions".into(), Json::Object(writer.definitions));
    Json::Object(root)
}

/// Builds the schema, collecting each named shape once.
struct Writer {
    definitions: Object<String, Json>,
}

/// A scalar read as text.
fn text() -> Json {
    json!(["string", "number", "boolean"])
}

fn reference(name: &str) -> Json {
    json!({ "$ref": format!("#/definitions/{name}") })
}

impl Writer {
    /// A reference to the shape `name`, written by `body` the first time.
    fn define(&mut self, name: &str, body: impl FnOnce(&mut Writer) -> Json) -> Json {
        if !self.definitions.contains_key(name) {
            // Reserved first, so shapes are listed in the order first used.
            self.definitions.insert(name.to_string(), Json::Null);
            let schema = body(self);
            self.definitions.insert(name.to_string(), schema);
        }
        reference(name)
    }

    /// A mapping with keys of its own.
    fn place(&mut self, place: &Place) -> Object<String, Json> {
        let mut schema = Object::new();
        if !place.doc.is_empty() {
            schema.insert("description".into(), place.doc.into());
        }
        schema.insert("type".into(), "object".into());
        if place.closed {
            schema.insert("additionalProperties".into(), false.into());
        }
        let mut properties = Object::new();
        for key in place.keys() {
            properties.insert(key.name.to_string(), self.key(key, None));
        }
        schema.insert("properties".into(), Json::Object(properties));
        let required: Vec<Json> = place.required().map(|key| key.name.into()).collect();
        if !required.is_empty() {
            schema.insert("required".into(), Json::Array(required));
        }
        if place.field {
            // `items` goes with `type: array` and nothing else, and
            // `type: array` needs `items`.
            schema.insert(
                "if".into(),
                json!({
                    "required": ["type"],
                    "properties": { "type": { "type": "string", "pattern": r"^\s*array\s*$" } }
                }),
            );
            schema.insert("then".into(), json!({ "required": ["items"] }));
            schema.insert("else".into(), json!({ "not": { "required": ["items"] } }));
        }
        if let Some(deprecation) = place.deprecated {
            deprecated(&mut schema, deprecation);
        }
        schema
    }

    /// A key: its documentation, then its value. `kind` is the block kind
    /// whose `block:` this is.
    fn key(&mut self, key: &Key, kind: Option<&str>) -> Json {
        let mut schema = Object::new();
        schema.insert("description".into(), key.doc.into());
        let value = match (key.value, kind) {
            (Value::BlockKind, Some(kind)) => json!({ "type": "string", "const": kind }),
            _ => {
                let mut value = self.value(key.value);
                if key.dynamic {
                    value = or_variable(value);
                }
                if key.presence.nullable() {
                    value = nullable(value);
                }
                value
            }
        };
        match value {
            // A described reference: draft-07 ignores a `$ref`'s siblings.
            Json::Object(value) if value.len() == 1 && value.contains_key("$ref") => {
                schema.insert("allOf".into(), json!([value]));
            }
            Json::Object(value) => schema.extend(value),
            _ => {}
        }
        if let Some(deprecation) = key.deprecated {
            deprecated(&mut schema, deprecation);
        }
        Json::Object(schema)
    }

    /// The schema of a value, never empty and never described.
    fn value(&mut self, value: Value) -> Json {
        match value {
            Value::Text | Value::Name(_) | Value::Literal => json!({ "type": text() }),
            Value::Names(_) => json!({
                "type": "array",
                "items": { "type": ["string", "number", "boolean", "null"] }
            }),
            Value::Flag => json!({ "type": "boolean" }),
            Value::Integer { min, max } => {
                let mut schema = json!({ "type": "integer", "minimum": min });
                if max != i64::MAX {
                    schema["maximum"] = max.into();
                }
                schema
            }
            Value::Number { min, max } => {
                json!({ "type": "number", "minimum": number(min), "maximum": number(max) })
            }
            Value::Fraction => json!({ "type": "number", "exclusiveMinimum": 0, "maximum": 1 }),
            Value::Temperature => json!({
                "anyOf": [
                    { "type": "number", "minimum": 0, "maximum": 2 },
                    { "const": "off" }
                ]
            }),
            Value::AspectRatio => json!({
                "type": "string",
                "pattern": "^[0-9]+:[0-9]+$",
                "examples": ["1:1", "16:9", "9:16"]
            }),
            Value::Choice(choices) => json!({ "type": "string", "enum": choices }),
            Value::Model => self.define("Model", |_| {
                json!({
                    "description": MODEL_DOC,
                    "type": "string",
                    "anyOf": [
                        { "pattern": "^[^/]+/[\\s\\S]+$" },
                        { "pattern": VARIABLE_NAME }
                    ],
                    "examples": ["anthropic/claude-sonnet-4-5", "openai/gpt-4o", "google/gemini-2.5-flash"]
                })
            }),
            Value::InputMapping => self.define("InputMapping", |_| {
                let source = json!({ "type": ["string", "number", "boolean", "null"] });
                json!({
                    "description": INPUT_MAPPING_DOC,
                    "type": ["array", "object"],
                    "items": {
                        "anyOf": [
                            { "type": text() },
                            { "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": source }
                        ]
                    },
                    "additionalProperties": source
                })
            }),
            Value::Arguments => json!({ "type": "object" }),
            Value::TypeExpr => self.type_expr(),
            Value::ArrayTypeExpr => {
                let type_expr = self.type_expr();
                json!({
                    "allOf": [type_expr],
                    "type": "string",
                    "pattern": format!(r"^\s*({IDENTIFIER}(\[\]){{1,{MAX_LIST_DEPTH}}}|array)\s*$"),
                    "examples": ["array", "string[]"]
                })
            }
            Value::TypeName => self.type_name(),
            Value::Variants => {
                let name = self.type_name();
                json!({ "type": "array", "items": name, "minItems": 2 })
            }
            Value::EnumValues => json!({ "type": "array", "items": { "type": "string" }, "minItems": 1 }),
            Value::Any => json!({}),
            // Only a block's own `block:` key has this value.
            Value::BlockKind => json!({ "type": "string" }),
            Value::Nested(place) => self.define(place.name, |writer| Json::Object(writer.place(place))),
            Value::MapOf(map) if map.name.is_empty() => Json::Object(self.map(map)),
            Value::MapOf(map) => self.define(map.name, |writer| Json::Object(writer.map(map))),
            Value::Block => self.define("Block", |writer| {
                let variants: Vec<Json> = BLOCKS
                    .iter()
                    .map(|place| writer.block(place))
                    .collect();
                json!({ "description": BLOCK_DOC, "oneOf": variants })
            }),
            // The forms in the order the lowering tries them: each form a
            // key makes, as `if` that key `then` the form, `else` the next;
            // last, the object.
            Value::TypeDef => self.define("TypeDef", |writer| {
                let marked: Vec<Json> = TypeDefForm::MARKED
                    .iter()
                    .map(|(form, _, _)| writer.value(form.value()))
                    .collect();
                let mut otherwise = writer.value(TypeDefForm::Object.value());
                for (&(_, marker, needs_scalar), then) in TypeDefForm::MARKED.iter().zip(marked).rev() {
                    let mut test = json!({ "required": [marker] });
                    if needs_scalar {
                        test["properties"] = json!({
                            marker: { "type": ["string", "number", "boolean", "null"] }
                        });
                    }
                    otherwise = json!({ "if": test, "then": then, "else": otherwise });
                }
                let mut schema = Object::new();
                schema.insert("description".into(), TYPE_DEF_DOC.into());
                schema.insert("type".into(), "object".into());
                if let Json::Object(branches) = otherwise {
                    schema.extend(branches);
                }
                Json::Object(schema)
            }),
        }
    }

    /// A mapping of entries of one shape.
    fn map(&mut self, map: &Map) -> Object<String, Json> {
        let mut entry = self.value(map.entry);
        if map.entry_nullable {
            entry = nullable(entry);
        }
        let mut schema = Object::new();
        if !map.doc.is_empty() {
            schema.insert("description".into(), map.doc.into());
        }
        schema.insert("type".into(), "object".into());
        match map.keys {
            MapKeys::Fixed(keys) => {
                let properties: Object<String, Json> = keys
                    .iter()
                    .map(|key| (key.to_string(), entry.clone()))
                    .collect();
                schema.insert("properties".into(), Json::Object(properties));
                schema.insert("additionalProperties".into(), false.into());
            }
            // Names are checked by `agentc check`, not by their form.
            MapKeys::Any | MapKeys::Names(_) => {
                schema.insert("additionalProperties".into(), entry);
            }
            MapKeys::Pattern(pattern) => {
                schema.insert("additionalProperties".into(), entry);
                schema.insert("propertyNames".into(), json!({ "pattern": pattern }));
            }
        }
        schema
    }

    /// One kind of block: its `block:` holds its kind.
    fn block(&mut self, place: &Place) -> Json {
        let mut schema = self.place(place);
        if let Some(Json::Object(properties)) = schema.get_mut("properties") {
            for key in place
                .keys()
                .filter(|key| matches!(key.value, Value::BlockKind))
            {
                let kind = self.key(key, Some(place.name));
                properties.insert(key.name.to_string(), kind);
            }
        }
        Json::Object(schema)
    }

    /// A type: a built-in, a type name, either followed by `[]`.
    fn type_expr(&mut self) -> Json {
        self.define("TypeExpr", |_| {
            let mut examples: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
            examples.extend(["array", "string[]"]);
            json!({
                "description": TYPE_EXPR_DOC,
                "anyOf": [
                    {
                        "type": "string",
                        "pattern": format!(r"^\s*{IDENTIFIER}(\[\]){{0,{MAX_LIST_DEPTH}}}\s*$"),
                        // `object` is not a type, nor is a list of bare arrays.
                        "not": { "pattern": r"^\s*(object(\[\])*|array(\[\])+)\s*$" }
                    },
                    // A type may be named `True` or `False`, which YAML
                    // reads as booleans and agentc as names.
                    { "type": "boolean" }
                ],
                "examples": examples
            })
        })
    }

    /// The name of a named type, without `[]`: a union variant or a
    /// `responseType`, which must be object types.
    fn type_name(&mut self) -> Json {
        self.define("TypeName", |_| {
            let mut reserved: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
            reserved.extend(["object", "array"]);
            json!({
                "description": TYPE_NAME_DOC,
                "anyOf": [
                    {
                        "type": "string",
                        "pattern": format!(r"^\s*{IDENTIFIER}\s*$"),
                        "not": { "pattern": format!(r"^\s*({})\s*$", reserved.join("|")) }
                    },
                    // A type may be named `True` or `False` (see `TypeExpr`).
                    { "type": "boolean" }
                ]
            })
        })
    }
}

/// A name as the types language reads it, optionally padded (the lowering
/// trims a type expression).
const IDENTIFIER: &str = r"[A-Za-z_][A-Za-z0-9_]*";

/// A whole number as an integer, as a person would write it.
fn number(n: f64) -> Json {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        Json::from(n as i64)
    } else {
        Json::from(n)
    }
}

/// The value, or an UPPERCASE variable naming one.
fn or_variable(value: Json) -> Json {
    let variable = json!({ "type": "string", "pattern": VARIABLE_NAME });
    match value {
        // A value that is itself a reference holds the variable form.
        Json::Object(object) if object.contains_key("$ref") => Json::Object(object),
        Json::Object(mut object) if object.len() == 1 && object.contains_key("anyOf") => {
            if let Some(Json::Array(choices)) = object.get_mut("anyOf") {
                choices.push(variable);
            }
            Json::Object(object)
        }
        // Text names a variable as it is.
        Json::Object(object) if object.get("type") == Some(&text()) => Json::Object(object),
        other => json!({ "anyOf": [other, variable] }),
    }
}

/// The value, or nothing (`key:` with no value).
fn nullable(value: Json) -> Json {
    let Json::Object(mut object) = value else {
        return value;
    };
    if object.is_empty() {
        return Json::Object(object);
    }
    if object.contains_key("$ref") || object.contains_key("anyOf") || object.contains_key("allOf") {
        return json!({ "anyOf": [object, { "type": "null" }] });
    }
    match object.get_mut("type") {
        Some(Json::String(kind)) => {
            let kind = std::mem::take(kind);
            object.insert("type".into(), json!([kind, "null"]));
        }
        Some(Json::Array(kinds)) => kinds.push("null".into()),
        _ => {}
    }
    if let Some(Json::Array(choices)) = object.get_mut("enum") {
        choices.push(Json::Null);
    }
    Json::Object(object)
}

fn deprecated(schema: &mut Object<String, Json>, deprecation: &Deprecation) {
    schema.insert("deprecated".into(), true.into());
    schema.insert("deprecationMessage".into(), deprecation.summary.into());
}

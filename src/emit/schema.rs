//! The plain JSON Schema 2020-12 lowering (the `json-schema` target), after
//! the mapping table in ARCHITECTURE.md: closed objects, `required` in
//! declaration order, property order kept, custom types as `$ref`s into
//! `$defs`, unions as `anyOf`, `file` as its reference object. Output order
//! is declaration order, so the same protocol always gives the same bytes.

use crate::diagnostic::did_you_mean;
use crate::model::{Model, TypeId, field_references};
use crate::syntax::{Builtin, Field, TypeDefKind, TypeExpr, TypeExprKind};
use crate::yaml::Value as Yaml;
use serde_json::{Map, Value, json};
use std::fmt;

pub const SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// A selector that names nothing in the protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmitError {
    pub message: String,
    pub help: Option<String>,
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(help) = &self.help {
            write!(f, " ({help})")?;
        }
        Ok(())
    }
}

impl std::error::Error for EmitError {}

/// Every type, under `$defs`, in declaration order.
pub fn emit_all(model: &Model) -> Value {
    let mut doc = Map::new();
    doc.insert("$schema".into(), SCHEMA_DIALECT.into());
    let ids: Vec<TypeId> = (0..model.protocol.types.len())
        .map(|i| TypeId(i as u32))
        .collect();
    doc.insert("$defs".into(), defs(model, &ids));
    Value::Object(doc)
}

/// A standalone document for one type: its schema at the root, the types
/// it uses under `$defs`.
pub fn emit_type(model: &Model, name: &str) -> Result<Value, EmitError> {
    let Some(id) = model.lookup(name) else {
        return Err(EmitError {
            message: format!("no type named `{name}` in the protocol"),
            help: did_you_mean(name, model.type_names()),
        });
    };
    let root = type_schema(model, id);
    let mut deps = dependencies(model, &crate::model::references(model.def(id)));
    deps.retain(|&d| d != id);
    Ok(document(model, root, &deps))
}

/// A standalone document for a tool's parameters: always an object.
pub fn emit_tool(model: &Model, name: &str) -> Result<Value, EmitError> {
    let Some(tool) = model.protocol.tools.iter().find(|t| t.name.text == name) else {
        return Err(EmitError {
            message: format!("no tool named `{name}` in the protocol"),
            help: did_you_mean(
                name,
                model.protocol.tools.iter().map(|t| t.name.text.as_str()),
            ),
        });
    };
    let root = object_schema(model, &tool.parameters);
    let mut references = Vec::new();
    for parameter in &tool.parameters {
        field_references(parameter, &mut references);
    }
    let deps = dependencies(model, &references);
    Ok(document(model, root, &deps))
}

fn document(model: &Model, root: Value, deps: &[TypeId]) -> Value {
    let mut doc = Map::new();
    doc.insert("$schema".into(), SCHEMA_DIALECT.into());
    if let Value::Object(root) = root {
        doc.extend(root);
    }
    if !deps.is_empty() {
        doc.insert("$defs".into(), defs(model, deps));
    }
    Value::Object(doc)
}

fn defs(model: &Model, ids: &[TypeId]) -> Value {
    let mut defs = Map::new();
    for &id in ids {
        defs.insert(model.def(id).name.text.clone(), type_schema(model, id));
    }
    Value::Object(defs)
}

/// The types reachable from `references`, in declaration order.
fn dependencies(model: &Model, references: &[(&str, crate::source::Span)]) -> Vec<TypeId> {
    let mut reached = vec![false; model.protocol.types.len()];
    let mut stack: Vec<TypeId> = references
        .iter()
        .filter_map(|(n, _)| model.lookup(n))
        .collect();
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut reached[id.index()], true) {
            continue;
        }
        stack.extend(
            crate::model::references(model.def(id))
                .iter()
                .filter_map(|(n, _)| model.lookup(n)),
        );
    }
    (0..reached.len())
        .filter(|&i| reached[i])
        .map(|i| TypeId(i as u32))
        .collect()
}

/// The schema of a named type (its `$defs` entry, or a document's root).
pub fn type_schema(model: &Model, id: TypeId) -> Value {
    match &model.def(id).kind {
        TypeDefKind::Object(properties) => object_schema(model, properties),
        TypeDefKind::Array(field) => field_schema(model, field),
        TypeDefKind::Union(union) => {
            let mut schema = Map::new();
            let variants = union
                .variants
                .iter()
                .map(|v| Value::Object(expr_schema(model, v, None, Map::new())))
                .collect();
            schema.insert("anyOf".into(), Value::Array(variants));
            if let Some(description) = &union.description {
                schema.insert("description".into(), description.text.clone().into());
            }
            Value::Object(schema)
        }
        // Emitters only run on models without errors.
        TypeDefKind::Invalid => json!({}),
    }
}

/// A closed object with the fields as properties.
pub fn object_schema(model: &Model, fields: &[Field]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for field in fields {
        properties.insert(field.name.text.clone(), field_schema(model, field));
        if !field.optional {
            required.push(Value::String(field.name.text.clone()));
        }
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    schema.insert("additionalProperties".into(), false.into());
    Value::Object(schema)
}

/// A field's schema: its type (`type`, `$ref`), then the annotations
/// (`description`, `enum`, `const`), then the structure (`items`,
/// `properties`), the order a person reads them in.
pub fn field_schema(model: &Model, field: &Field) -> Value {
    let mut annotations = Map::new();
    if let Some(description) = &field.description {
        annotations.insert("description".into(), description.text.clone().into());
    }
    if let Some(values) = &field.enum_values {
        let values = values
            .values
            .iter()
            .map(|v| Value::String(v.scalar.text.clone()))
            .collect();
        annotations.insert("enum".into(), Value::Array(values));
    }
    if let Some(literal) = &field.const_value {
        let value = match literal.scalar.value() {
            Yaml::Bool(b) => Value::Bool(b),
            Yaml::Int(i) => Value::from(i),
            Yaml::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
            Yaml::Null | Yaml::Str(_) => Value::String(literal.scalar.text.clone()),
        };
        annotations.insert("const".into(), value);
    }
    let schema = match &field.ty {
        Some(ty) => expr_schema(model, ty, field.items.as_deref(), annotations),
        None => annotations,
    };
    Value::Object(schema)
}

fn expr_schema(
    model: &Model,
    expr: &TypeExpr,
    items: Option<&Field>,
    annotations: Map<String, Value>,
) -> Map<String, Value> {
    let mut schema = Map::new();
    let mut structure = Map::new();
    match &expr.kind {
        TypeExprKind::Builtin(Builtin::Unknown) => {}
        TypeExprKind::Builtin(Builtin::File) => {
            schema.insert("type".into(), "object".into());
            structure = file_structure();
        }
        TypeExprKind::Builtin(builtin) => {
            schema.insert("type".into(), builtin.name().into());
        }
        TypeExprKind::Named(name) => {
            schema.insert("$ref".into(), format!("#/$defs/{name}").into());
        }
        TypeExprKind::List(element) => {
            schema.insert("type".into(), "array".into());
            structure.insert(
                "items".into(),
                Value::Object(expr_schema(model, element, None, Map::new())),
            );
        }
        TypeExprKind::Array => {
            schema.insert("type".into(), "array".into());
            let items = items.map_or_else(|| json!({}), |items| field_schema(model, items));
            structure.insert("items".into(), items);
        }
        // `object` is reported by the checks; emitters never see it.
        TypeExprKind::Object => {}
    }
    schema.extend(annotations);
    schema.extend(structure);
    schema
}

/// The `file` built-in, an uploaded file reference, after its `"type": "object"`.
fn file_structure() -> Map<String, Value> {
    let mut structure = Map::new();
    structure.insert(
        "properties".into(),
        json!({
            "id": {"type": "string"},
            "mediaType": {"type": "string"},
            "url": {"type": "string"},
            "filename": {"type": "string"},
            "size": {"type": "number"}
        }),
    );
    structure.insert("required".into(), json!(["id", "mediaType", "url"]));
    structure.insert("additionalProperties".into(), false.into());
    structure
}

//! Plain JSON Schema 2020-12, after the mapping table in ARCHITECTURE.md:
//! closed objects, `required` in declaration order, property order kept,
//! unions as `anyOf`, `file` as its reference object. The `json-schema`
//! target writes custom types as `$ref`s into `$defs`; the AG-UI, AAP and
//! tools-prompt targets use the same rendering with every type inlined, so
//! each tool's parameters stand alone.

use super::kit::{self, EmitError, Output, Selection};
use super::lower::{Kind, Lowering, Mode, Property, Schema};
use crate::model::{Model, TypeId, field_references};
use crate::span::Span;
use crate::syntax::Literal;
use crate::yaml::Value as Yaml;
use serde_json::{Map, Value};

pub const SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The `json-schema` target.
pub(super) fn emit(model: &Model, selection: &Selection) -> Result<Output, EmitError> {
    let schema = match selection {
        Selection::All => return Ok(Output::Printed(print_all(model))),
        Selection::Type(name) => emit_type(model, name)?,
        Selection::Tool(name) => emit_tool(model, name)?,
        Selection::Response(_) => {
            return Err(EmitError::new(
                "`--response` asks for a provider's structured-output request; the json-schema target has none",
            )
            .with_help("use `--type NAME` for the type's schema, or `--target openai|anthropic|gemini`"));
        }
    };
    Ok(Output::Json(schema))
}

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

/// [`emit_all`] as printed, a type at a time, each type's value dropped
/// once printed: the same text as printing the whole document, without
/// ever holding it as a value (a value takes several times the memory of
/// its text).
fn print_all(model: &Model) -> String {
    let lowering = Lowering::new(model, Mode::Refs);
    let dialect = serde_json::to_string(SCHEMA_DIALECT).unwrap_or_default();
    let mut text = format!("{{\n  \"$schema\": {dialect},\n  \"$defs\": {{");
    let indent = "    ";
    for (i, def) in model.protocol.types.iter().enumerate() {
        text.push_str(if i == 0 { "\n" } else { ",\n" });
        text.push_str(indent);
        text.push_str(&serde_json::to_string(def.name.text.as_str()).unwrap_or_default());
        text.push_str(": ");
        let schema = render(&lowering.definition(TypeId(i as u32)));
        let printed = serde_json::to_string_pretty(&schema).unwrap_or_default();
        drop(schema);
        kit::push_nested(&mut text, &printed, indent);
    }
    text.push_str(match model.protocol.types.is_empty() {
        true => "}\n}\n",
        false => "\n  }\n}\n",
    });
    text
}

/// A standalone document for one type: its schema at the root, the types
/// it uses under `$defs`.
pub fn emit_type(model: &Model, name: &str) -> Result<Value, EmitError> {
    let id = kit::find_type(model, name)?;
    let root = render(&Lowering::new(model, Mode::Refs).definition(id));
    let mut deps = dependencies(model, &crate::model::references(model.def(id)));
    deps.retain(|&d| d != id);
    Ok(document(model, root, &deps))
}

/// A standalone document for a tool's parameters: always an object.
pub fn emit_tool(model: &Model, name: &str) -> Result<Value, EmitError> {
    let tool = kit::find_tool(model, name)?;
    let root = render(&Lowering::new(model, Mode::Refs).object(&tool.parameters, tool.name.span));
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
    let lowering = Lowering::new(model, Mode::Refs);
    let mut defs = Map::new();
    for &id in ids {
        defs.insert(
            model.def(id).name.text.to_string(),
            render(&lowering.definition(id)),
        );
    }
    Value::Object(defs)
}

/// The types reachable from `references`, in declaration order.
fn dependencies(model: &Model, references: &[(&str, Span)]) -> Vec<TypeId> {
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

/// A lowered schema as plain JSON Schema. Keys come in the order a person
/// reads them: the type (`type`, `$ref`, `anyOf`), the annotations
/// (`description`, `enum`, `const`), then the structure (`items`,
/// `properties`).
pub fn render(schema: &Schema) -> Value {
    let mut out = Map::new();
    let description = |out: &mut Map<String, Value>| {
        if let Some(text) = schema.description {
            out.insert("description".into(), text.into());
        }
    };
    match &schema.kind {
        Kind::Any => description(&mut out),
        Kind::Primitive {
            ty,
            enum_values,
            constant,
        } => {
            out.insert("type".into(), ty.name().into());
            description(&mut out);
            if let Some(values) = enum_values {
                out.insert("enum".into(), enum_json(values));
            }
            if let Some(literal) = constant {
                out.insert("const".into(), literal_json(literal));
            }
        }
        Kind::Ref(name) => {
            out.insert("$ref".into(), format!("#/$defs/{name}").into());
            description(&mut out);
        }
        Kind::Array(items) => {
            out.insert("type".into(), "array".into());
            description(&mut out);
            out.insert("items".into(), render(items));
        }
        Kind::Union(variants) => {
            out.insert("anyOf".into(), variants.iter().map(render).collect());
            description(&mut out);
        }
        Kind::Object(properties) => {
            out.insert("type".into(), "object".into());
            description(&mut out);
            let (map, required) = super::schema::properties(properties, render);
            out.insert("properties".into(), Value::Object(map));
            if !required.is_empty() {
                out.insert("required".into(), Value::Array(required));
            }
            out.insert("additionalProperties".into(), false.into());
        }
        Kind::File => return render(&Schema::file_object(schema.span, schema.description)),
    }
    Value::Object(out)
}

/// An object's `properties`, each rendered by `render`, and the names of
/// the required ones, both in declaration order.
pub(super) fn properties(
    properties: &[Property],
    render: impl Fn(&Schema) -> Value,
) -> (Map<String, Value>, Vec<Value>) {
    let mut map = Map::new();
    let mut required = Vec::new();
    for property in properties {
        map.insert(property.name.to_string(), render(&property.schema));
        if !property.optional {
            required.push(Value::String(property.name.to_string()));
        }
    }
    (map, required)
}

pub fn enum_json(values: &[Literal]) -> Value {
    values
        .iter()
        .map(|v| Value::String(v.scalar.text.to_string()))
        .collect()
}

/// A `const` as JSON: the checks guarantee it is a literal of its type.
pub fn literal_json(literal: &Literal) -> Value {
    match literal.scalar.value() {
        Yaml::Bool(b) => Value::Bool(b),
        Yaml::Int(i) => Value::from(i),
        Yaml::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        Yaml::Null | Yaml::Str(_) => Value::String(literal.scalar.text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                yaml_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                out.push(path);
            }
        }
    }

    /// The document printed a type at a time is, byte for byte, the whole
    /// document printed at once, for every protocol that emits.
    #[test]
    fn every_type_printed_in_turn_is_the_document_printed_whole() {
        let mut files = Vec::new();
        yaml_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocols"),
            &mut files,
        );
        let mut emitted = 0;
        for path in files {
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let report = crate::compile(&path.display().to_string(), bytes);
            let Some(model) = report.sound_model() else {
                continue;
            };
            let whole = Output::Json(emit_all(model)).into_text();
            assert_eq!(print_all(model), whole, "{}", path.display());
            emitted += 1;
        }
        assert!(emitted > 20, "only {emitted} protocols emitted");
        let text = "tools:\n  get-time:\n    description: Now\n";
        let empty = crate::compile("empty.yaml", text);
        let model = empty.sound_model().expect("a protocol without types");
        assert_eq!(print_all(model), Output::Json(emit_all(model)).into_text());
    }
}

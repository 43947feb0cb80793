//! Gemini: a `Tool` with `functionDeclarations` whose parameters are
//! `parametersJsonSchema`, and structured output as `responseMimeType` and
//! `responseJsonSchema` (the `generationConfig` fields).
//!
//! The JSON Schema fields take a subset (provider-rules.md §3): `type`,
//! `description`, `enum` (strings and numbers), `items`, `properties`,
//! `required`, `additionalProperties`, `anyOf` and the non-standard
//! `propertyOrdering`, which agentc writes on every object so that Gemini
//! 2.0, which does not keep key order, generates properties in declaration
//! order. A `const` becomes a one-value `enum`; a boolean `const` has no
//! such form and is left out, with a warning.

use super::kit::{self, Cx, EmitError, Entries, Output, Selection};
use super::lower::{Kind, Schema, Visit};
use super::schema::{enum_json, literal_json};
use crate::diagnostic::{Code, Diagnostic};
use serde_json::{Map, Value};

/// Function names: start with a letter or `_`, then letters, digits, `_`,
/// `.`, `:` or `-`, at most 128 characters. Source: google-genai
/// `types.FunctionDeclaration.name` ("Must start with a letter or an
/// underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons
/// and dashes, with a maximum length of 128").
pub const MAX_NAME_CHARS: usize = 128;
/// Parameter names: start with a letter or `_`, then letters, digits or
/// `_`, at most 64 characters. Source: google-genai
/// `types.FunctionDeclaration.parameters` ("Parameter names must start with
/// a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or
/// underscores with a maximum length of 64").
pub const MAX_PARAMETER_CHARS: usize = 64;

pub(super) fn emit(cx: &mut Cx, selection: Selection) -> Result<Output, EmitError> {
    match selection {
        Selection::Type(name) => {
            let id = kit::find_type(cx.model, name)?;
            let json = match cx.definition(id) {
                Some(schema) => render_checked(cx, &schema),
                None => Value::Null,
            };
            Ok(Output::Json(json))
        }
        Selection::Response(name) => {
            let json = match cx.response(name)? {
                Some(schema) => render_checked(cx, &schema),
                None => Value::Null,
            };
            let mut out = Map::new();
            out.insert("responseMimeType".into(), "application/json".into());
            out.insert("responseJsonSchema".into(), json);
            Ok(Output::Json(Value::Object(out)))
        }
        Selection::All | Selection::Tool(_) => {
            // `{"functionDeclarations": [...]}`, as printed.
            let mut entries = Entries::new(selection, "{\n  \"functionDeclarations\": ", 1);
            for tool in cx.tools(selection)? {
                let name = &tool.name.text;
                if !is_identifier(name, MAX_NAME_CHARS, ".:-") {
                    cx.diags.push(
                        Diagnostic::new(
                            Code::InvalidToolName,
                            tool.name.span,
                            format!("{} is not valid as a Gemini function name: it must start with a letter or `_` and have at most {MAX_NAME_CHARS} letters, digits, `_`, `.`, `:` or `-`", kit::quote_name(name)),
                        )
                        .with_help("rename it to fit `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$`"),
                    );
                }
                let Some(schema) = cx.parameters(tool) else {
                    continue;
                };
                if let Kind::Object(properties) = &schema.kind {
                    for property in properties {
                        if !is_identifier(property.name, MAX_PARAMETER_CHARS, "") {
                            cx.diags.push(
                                Diagnostic::new(
                                    Code::InvalidPropertyKey,
                                    property.name_span,
                                    format!("parameter {} of tool `{name}` is not a valid Gemini parameter name: it must start with a letter or `_` and have at most {MAX_PARAMETER_CHARS} letters, digits or `_`", kit::quote_name(property.name)),
                                )
                                .with_help("rename it in camelCase, which fits `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`"),
                            );
                        }
                    }
                }
                check_constants(cx, &schema);
                if !entries.keeps(cx.diags) {
                    continue;
                }
                let mut declaration = Map::new();
                declaration.insert("name".into(), name.as_str().into());
                if let Some(description) = &tool.presentation.description {
                    declaration.insert("description".into(), description.text.as_str().into());
                }
                declaration.insert("parametersJsonSchema".into(), render(&schema));
                entries.push(cx.diags, Value::Object(declaration));
            }
            Ok(entries.finish("\n}"))
        }
    }
}

fn is_identifier(name: &str, max: usize, extra: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().count() <= max
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || extra.contains(c))
}

/// The schema in Gemini's subset, with what it loses reported.
fn render_checked(cx: &mut Cx, schema: &Schema) -> Value {
    check_constants(cx, schema);
    render(schema)
}

/// What the schema loses in Gemini's subset, reported: a boolean `const`.
fn check_constants(cx: &mut Cx, schema: &Schema) {
    schema.walk(&mut |visit| {
        if let Visit::Schema(node, _) = visit
            && let Kind::Primitive {
                constant: Some(literal),
                ..
            } = &node.kind
            && matches!(literal_json(literal), Value::Bool(_))
        {
            cx.diags.push(
                Diagnostic::new(
                    Code::TargetLoosened,
                    literal.span,
                    format!("Gemini's `enum` takes strings and numbers, so `const: {}` is left out of its schema", literal.scalar.text),
                )
                .with_help("the schema accepts either boolean; describe the expected value in `description`, or use a string `enum`"),
            );
        }
    });
}

/// A schema in Gemini's JSON Schema subset.
pub fn render(schema: &Schema) -> Value {
    let mut out = Map::new();
    match &schema.kind {
        Kind::Any | Kind::Ref(_) => {}
        Kind::Primitive { ty, .. } => {
            out.insert("type".into(), ty.name().into());
        }
        Kind::Array(_) => {
            out.insert("type".into(), "array".into());
        }
        Kind::Object(_) => {
            out.insert("type".into(), "object".into());
        }
        Kind::Union(variants) => {
            out.insert("anyOf".into(), variants.iter().map(render).collect());
        }
        Kind::File => return render(&Schema::file_object(schema.span, schema.description)),
    }
    if let Some(text) = schema.description {
        out.insert("description".into(), text.into());
    }
    match &schema.kind {
        Kind::Primitive {
            enum_values,
            constant,
            ..
        } => match (constant.map(literal_json), enum_values) {
            (Some(Value::Bool(_)), _) => {}
            (Some(value), _) => {
                out.insert("enum".into(), Value::Array(vec![value]));
            }
            (None, Some(values)) => {
                out.insert("enum".into(), enum_json(values));
            }
            (None, None) => {}
        },
        Kind::Array(items) => {
            out.insert("items".into(), render(items));
        }
        Kind::Object(properties) => {
            let (map, required) = super::schema::properties(properties, render);
            let ordering = properties
                .iter()
                .map(|p| Value::String(p.name.to_string()))
                .collect();
            out.insert("properties".into(), Value::Object(map));
            if !required.is_empty() {
                out.insert("required".into(), Value::Array(required));
            }
            out.insert("additionalProperties".into(), false.into());
            out.insert("propertyOrdering".into(), Value::Array(ordering));
        }
        _ => {}
    }
    Value::Object(out)
}

//! OpenAI: strict function tools (`[{"type": "function", "function": {...,
//! "strict": true}}]`) and the Chat Completions `response_format` object.
//!
//! Strict mode's rules (provider-rules.md §1): the root is an object, every
//! object is closed and lists every property in `required`, so an optional
//! property is written as nullable instead (`type: [T, "null"]`, an enum
//! with `null`, or `anyOf` with `{"type": "null"}`); no `$ref` carries
//! siblings, so types are inlined. `unknown` has no strict form: a schema
//! with it is emitted with `strict: false`, and said so.

use super::kit::{self, Cx, EmitError, Entries, Output, Selection, is_simple_name};
use super::lower::{Kind, Primitive, Schema, Visit};
use super::schema::{enum_json, literal_json};
use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Object properties in one schema, in all. Source: the Structured Outputs
/// guide, "Supported schemas" (developers.openai.com/api/docs/guides/
/// structured-outputs), current version; the launch version allowed 100.
pub const MAX_PROPERTIES: usize = 5_000;
/// Levels of nesting, counting objects and arrays (the guide does not say
/// whether arrays count; counting them is the safe reading). Same source;
/// the launch version allowed 5.
pub const MAX_DEPTH: u32 = 10;
/// Characters in all property names, definition names, enum values and
/// const values of one schema. Same source; the launch version allowed 15,000.
pub const MAX_STRING_CHARS: usize = 120_000;
/// Enum values in one schema. Same source; the launch version allowed 500.
pub const MAX_ENUM_VALUES: usize = 1_000;
/// A string enum with more than this many values ...
pub const LARGE_ENUM_VALUES: usize = 250;
/// ... may have at most this many characters in all. Same source; the
/// launch version allowed 7,500.
pub const MAX_LARGE_ENUM_CHARS: usize = 15_000;
/// Function and schema names: `^[a-zA-Z0-9_-]{1,64}$`. Source: the 400
/// errors quoted in provider-rules.md §6 (check 8), and the function
/// calling guide's `name` field.
pub const MAX_NAME_CHARS: usize = 64;

pub(super) fn emit(cx: &mut Cx, selection: Selection) -> Result<Output, EmitError> {
    match selection {
        Selection::Type(name) => {
            let id = kit::find_type(cx.model, name)?;
            let Some(schema) = cx.definition(id) else {
                return Ok(Output::Json(Value::Null));
            };
            let subject = format!("type `{name}`");
            let (json, _) = strict_schema(cx, &schema, &subject, "is not strict");
            Ok(Output::Json(json))
        }
        Selection::Response(name) => {
            let Some(schema) = cx.response(name)? else {
                return Ok(Output::Json(Value::Null));
            };
            check_name(cx, name, schema.span, "a `response_format` name");
            let subject = format!("response `{name}`");
            let (json, strict) =
                strict_schema(cx, &schema, &subject, "is emitted with `strict: false`");
            let mut format = Map::new();
            format.insert("name".into(), name.into());
            format.insert("strict".into(), strict.into());
            format.insert("schema".into(), json);
            let mut out = Map::new();
            out.insert("type".into(), "json_schema".into());
            out.insert("json_schema".into(), Value::Object(format));
            Ok(Output::Json(Value::Object(out)))
        }
        Selection::All | Selection::Tool(_) => {
            let mut entries = Entries::new(selection, "", 0);
            for tool in cx.tools(selection)? {
                check_name(cx, &tool.name.text, tool.name.span, "a function name");
                let Some(schema) = cx.parameters(tool) else {
                    continue;
                };
                let subject = format!("tool `{}`", tool.name.text);
                let strict =
                    strict_checks(cx, &schema, &subject, "is emitted with `strict: false`");
                if !entries.keeps(cx.diags) {
                    continue;
                }
                let parameters = render(&schema, false);
                let mut function = Map::new();
                function.insert("name".into(), tool.name.text.as_str().into());
                if let Some(description) = &tool.presentation.description {
                    function.insert("description".into(), description.text.as_str().into());
                }
                function.insert("parameters".into(), parameters);
                function.insert("strict".into(), strict.into());
                let mut entry = Map::new();
                entry.insert("type".into(), "function".into());
                entry.insert("function".into(), Value::Object(function));
                entries.push(cx.diags, Value::Object(entry));
            }
            Ok(entries.finish(""))
        }
    }
}

fn check_name(cx: &mut Cx, name: &str, span: Span, what: &str) {
    if !is_simple_name(name, MAX_NAME_CHARS, false) {
        cx.diags.push(
            Diagnostic::new(
                Code::InvalidToolName,
                span,
                format!("{} is not valid as {what} for OpenAI: it must be 1 to {MAX_NAME_CHARS} letters, digits, `_` or `-`", kit::quote_name(name)),
            )
            .with_help("rename it to fit `^[a-zA-Z0-9_-]{1,64}$`"),
        );
    }
}

/// The schema in strict form, whether it can be strict, and every limit
/// it crosses reported.
fn strict_schema(cx: &mut Cx, schema: &Schema, subject: &str, consequence: &str) -> (Value, bool) {
    let strict = strict_checks(cx, schema, subject, consequence);
    (render(schema, false), strict)
}

/// Every limit the schema crosses and what it cannot say strictly,
/// reported; whether it can be strict.
fn strict_checks(cx: &mut Cx, schema: &Schema, subject: &str, consequence: &str) -> bool {
    check_limits(cx, schema, subject);
    let unknown = schema.unknowns();
    for &span in &unknown {
        cx.diags.push(
            Diagnostic::new(
                Code::TargetNotStrict,
                span,
                format!("`unknown` has no form in OpenAI's strict mode, so {subject} {consequence}"),
            )
            .with_help("give the value a type (a custom object type, or `string` holding JSON) to keep the schema strict"),
        );
    }
    unknown.is_empty()
}

/// A schema in strict form; `nullable` for an optional property's schema.
fn render(schema: &Schema, nullable: bool) -> Value {
    let description = schema.description;
    if !nullable {
        return shape(schema, false, description);
    }
    match &schema.kind {
        // `{}` already admits `null`; a primitive takes `[T, "null"]`.
        Kind::Any | Kind::Primitive { constant: None, .. } => shape(schema, true, description),
        // `null` is one more branch of a union.
        Kind::Union(variants) => any_of(
            variants
                .iter()
                .map(|v| render(v, false))
                .chain([null()])
                .collect(),
            description,
        ),
        // A `const` cannot sit beside a type that admits `null`; objects
        // and arrays are either the value or `null`. The description goes
        // on the `anyOf`, not on a branch.
        _ => any_of(vec![shape(schema, false, None), null()], description),
    }
}

/// A schema's own strict form with `description`; a `nullable` primitive
/// admits `null` in its type (and enum).
fn shape(schema: &Schema, nullable: bool, description: Option<&str>) -> Value {
    let mut out = Map::new();
    let describe = |out: &mut Map<String, Value>| {
        if let Some(text) = description {
            out.insert("description".into(), text.into());
        }
    };
    match &schema.kind {
        Kind::Any => describe(&mut out),
        Kind::Primitive {
            ty,
            enum_values,
            constant,
        } => {
            out.insert("type".into(), type_name(*ty, nullable));
            describe(&mut out);
            if let Some(values) = enum_values {
                let mut values = enum_json(values);
                if nullable && let Value::Array(values) = &mut values {
                    values.push(Value::Null);
                }
                out.insert("enum".into(), values);
            }
            if let Some(literal) = constant {
                out.insert("const".into(), literal_json(literal));
            }
        }
        Kind::Array(items) => {
            out.insert("type".into(), "array".into());
            describe(&mut out);
            out.insert("items".into(), render(items, false));
        }
        Kind::Union(variants) => {
            out.insert(
                "anyOf".into(),
                variants.iter().map(|v| render(v, false)).collect(),
            );
            describe(&mut out);
        }
        Kind::Object(properties) => {
            out.insert("type".into(), "object".into());
            describe(&mut out);
            let mut map = Map::new();
            for property in properties {
                map.insert(
                    property.name.to_string(),
                    render(&property.schema, property.optional),
                );
            }
            let required = properties
                .iter()
                .map(|p| Value::String(p.name.to_string()))
                .collect();
            out.insert("properties".into(), Value::Object(map));
            out.insert("required".into(), Value::Array(required));
            out.insert("additionalProperties".into(), false.into());
        }
        Kind::File => return shape(&Schema::file_object(schema.span, None), false, description),
        // Inlined schemas have no references.
        Kind::Ref(_) => {}
    }
    Value::Object(out)
}

fn type_name(ty: Primitive, nullable: bool) -> Value {
    if nullable {
        Value::Array(vec![ty.name().into(), "null".into()])
    } else {
        ty.name().into()
    }
}

fn null() -> Value {
    let mut out = Map::new();
    out.insert("type".into(), "null".into());
    Value::Object(out)
}

fn any_of(branches: Vec<Value>, description: Option<&str>) -> Value {
    let mut out = Map::new();
    out.insert("anyOf".into(), Value::Array(branches));
    if let Some(text) = description {
        out.insert("description".into(), text.into());
    }
    Value::Object(out)
}

/// The size budgets of one strict schema, each reported once, at the node
/// that crosses it.
fn check_limits(cx: &mut Cx, schema: &Schema, subject: &str) {
    let mut properties = 0usize;
    let mut chars = 0usize;
    let mut enum_values = 0usize;
    let mut reported: HashSet<Code> = HashSet::new();
    let mut large_enums: Vec<Diagnostic> = Vec::new();
    let mut found: Vec<Diagnostic> = Vec::new();
    let mut report = |code: Code, diagnostic: Diagnostic| {
        if reported.insert(code) {
            found.push(diagnostic);
        }
    };
    // The schema visited right after an optional property is that
    // property's; an optional enum gains a `null` value in strict form.
    let mut optional_next = false;
    schema.walk(&mut |visit| match visit {
        Visit::Property(property, _) => {
            properties += 1;
            if properties == MAX_PROPERTIES + 1 {
                report(
                    Code::TooManyProperties,
                    Diagnostic::new(
                        Code::TooManyProperties,
                        property.name_span,
                        format!("{subject} has more than {MAX_PROPERTIES} properties once its types are written out, more than OpenAI's strict mode allows"),
                    )
                    .with_help("split the schema, or use fewer properties"),
                );
            }
            chars += property.name.chars().count();
            if chars > MAX_STRING_CHARS {
                report(Code::SchemaTextTooLong, text_too_long(property.name_span, subject));
            }
            optional_next = property.optional;
        }
        Visit::Schema(node, depth) => {
            let nullable = std::mem::take(&mut optional_next);
            if matches!(node.kind, Kind::Object(_) | Kind::File | Kind::Array(_)) && depth > MAX_DEPTH {
                report(
                    Code::SchemaTooDeep,
                    Diagnostic::new(
                        Code::SchemaTooDeep,
                        node.span,
                        format!("{subject} nests more than {MAX_DEPTH} levels of objects and arrays here, more than OpenAI's strict mode allows"),
                    )
                    .with_help("flatten the schema: fewer objects inside objects and arrays inside arrays"),
                );
            }
            if let Kind::Primitive {
                enum_values: values,
                constant,
                ..
            } = &node.kind
            {
                if let Some(values) = values {
                    let count = values.len() + usize::from(nullable);
                    let own: usize = values.iter().map(|v| v.scalar.text.chars().count()).sum();
                    // Each value, and the `null` an optional enum gains.
                    let entries = values
                        .iter()
                        .map(|v| (v.span, v.scalar.text.chars().count()))
                        .chain(nullable.then_some((node.span, 0)));
                    for (span, length) in entries {
                        enum_values += 1;
                        chars += length;
                        if enum_values == MAX_ENUM_VALUES + 1 {
                            report(
                                Code::TooManyEnumValues,
                                Diagnostic::new(
                                    Code::TooManyEnumValues,
                                    span,
                                    format!("{subject} has more than {MAX_ENUM_VALUES} enum values once its types are written out, more than OpenAI's strict mode allows"),
                                )
                                .with_help("use fewer enum values, or a `string` described in words"),
                            );
                        }
                        if chars > MAX_STRING_CHARS {
                            report(Code::SchemaTextTooLong, text_too_long(span, subject));
                        }
                    }
                    // A rule for each enum, not a budget of the schema.
                    if count > LARGE_ENUM_VALUES && own > MAX_LARGE_ENUM_CHARS {
                        let span = values.first().map_or(node.span, |v| v.span);
                        large_enums.push(
                            Diagnostic::new(
                                Code::TooManyEnumValues,
                                span,
                                format!("this enum in {subject} has {count} values of {own} characters in all; OpenAI's strict mode allows at most {MAX_LARGE_ENUM_CHARS} characters in an enum of more than {LARGE_ENUM_VALUES} values"),
                            )
                            .with_help("use shorter or fewer values"),
                        );
                    }
                }
                if let Some(literal) = constant {
                    chars += literal.scalar.text.chars().count();
                    if chars > MAX_STRING_CHARS {
                        report(Code::SchemaTextTooLong, text_too_long(literal.span, subject));
                    }
                }
            }
        }
    });
    let root = schema.span;
    cx.diags.extend(
        found
            .into_iter()
            .chain(large_enums)
            .map(|d| d.with_label(root, format!("{subject} starts here"))),
    );
}

fn text_too_long(span: Span, subject: &str) -> Diagnostic {
    Diagnostic::new(
        Code::SchemaTextTooLong,
        span,
        format!("{subject} has more than {MAX_STRING_CHARS} characters of property names and enum and const values once its types are written out, more than OpenAI's strict mode allows"),
    )
    .with_help("use shorter names and values, or split the schema")
}

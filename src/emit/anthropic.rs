//! Anthropic: strict tools (`[{"name", "description", "input_schema",
//! "strict": true}]`) and the structured-output `output_config.format`
//! object (`{"type": "json_schema", "schema": ...}`).
//!
//! Strict mode's rules (provider-rules.md §2, and the SDK's
//! `transform_schema`, whose output agentc's schemas already are): closed
//! objects, optional properties left out of `required` (never nullable:
//! unions are the scarcer budget), a `const` or an `enum` written as an
//! `enum` without `type`, so discriminators are one-value enums. `unknown`
//! has no strict form: a tool with it is emitted without `strict`; a
//! structured-output schema with it cannot be emitted. Limits count across
//! a request: every strict tool emitted together, plus an output format.

use super::kit::{self, Cx, EmitError, Entries, Output, Selection, is_simple_name};
use super::lower::{Kind, Schema, Visit};
use super::schema::{enum_json, literal_json};
use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;
use serde_json::{Map, Value};

/// Strict tools in one request. Source: the structured outputs guide
/// (platform.claude.com/docs/en/build-with-claude/structured-outputs),
/// "complexity limits", via provider-rules.md §2.
pub const MAX_STRICT_TOOLS: usize = 20;
/// Properties not in `required`, at any depth, across a request's strict
/// schemas. Same source.
pub const MAX_OPTIONAL_PROPERTIES: usize = 24;
/// Schemas with a union type (`anyOf` or a type array) across a request's
/// strict schemas. Same source, and the 400 error "Schemas contains too
/// many parameters with union types ... limit: 16".
pub const MAX_UNION_PROPERTIES: usize = 16;
/// Tool names: `^[a-zA-Z0-9_-]{1,64}$`. Errors since mid-2025 allow 128;
/// 64 is what every version accepts (provider-rules.md §2).
pub const MAX_NAME_CHARS: usize = 64;
/// Top-level property keys: `^[a-zA-Z0-9_.-]{1,64}$` (provider-rules.md
/// §2, from the 400 errors reported in decocms/studio#6874).
pub const MAX_KEY_CHARS: usize = 64;

pub(super) fn emit(cx: &mut Cx, selection: Selection) -> Result<Output, EmitError> {
    emit_into(cx, selection, &mut Request::default())
}

/// `agentc check --target anthropic`: the request with every tool, and
/// each response type sent along with them.
pub(super) fn check(cx: &mut Cx) {
    let mut tools = Request::default();
    // Every name exists, so no selection fails.
    let _ = emit_into(cx, Selection::All, &mut tools);
    for id in kit::response_types(cx.model) {
        let mut request = tools.clone();
        let name = cx.model.def(id).name.text.clone();
        let _ = emit_into(cx, Selection::Response(&name), &mut request);
    }
}

fn emit_into(
    cx: &mut Cx,
    selection: Selection,
    request: &mut Request,
) -> Result<Output, EmitError> {
    match selection {
        Selection::Type(name) => {
            let id = kit::find_type(cx.model, name)?;
            let Some(schema) = cx.definition(id) else {
                return Ok(Output::Json(Value::Null));
            };
            for span in schema.unknowns() {
                cx.diags.push(
                    Diagnostic::new(
                        Code::TargetNotStrict,
                        span,
                        format!("`unknown` has no form in Anthropic's strict mode, so type `{name}` is not strict"),
                    )
                    .with_help("give the value a type (a custom object type, or `string` holding JSON)"),
                );
            }
            Ok(Output::Json(render(&schema)))
        }
        Selection::Response(name) => {
            let Some(schema) = cx.response(name)? else {
                return Ok(Output::Json(Value::Null));
            };
            let unknown = schema.unknowns();
            for &span in &unknown {
                cx.diags.push(
                    Diagnostic::new(
                        Code::TargetUnsupported,
                        span,
                        format!("`unknown` has no form in Anthropic's structured outputs, so response `{name}` cannot be emitted"),
                    )
                    .with_help("give the value a type (a custom object type, or `string` holding JSON)"),
                );
            }
            request.add(cx, &schema, &format!("response `{name}`"), None);
            let mut out = Map::new();
            out.insert("type".into(), "json_schema".into());
            out.insert("schema".into(), render(&schema));
            Ok(Output::Json(Value::Object(out)))
        }
        Selection::All | Selection::Tool(_) => {
            let mut entries = Entries::new(selection, "", 0);
            for tool in cx.tools(selection)? {
                if !is_simple_name(&tool.name.text, MAX_NAME_CHARS, false) {
                    cx.diags.push(
                        Diagnostic::new(
                            Code::InvalidToolName,
                            tool.name.span,
                            format!("{} is not valid as a tool name for Anthropic: it must be 1 to {MAX_NAME_CHARS} letters, digits, `_` or `-`", kit::quote_name(&tool.name.text)),
                        )
                        .with_help("rename it to fit `^[a-zA-Z0-9_-]{1,64}$`"),
                    );
                }
                let Some(schema) = cx.parameters(tool) else {
                    continue;
                };
                check_keys(cx, &schema, &tool.name.text);
                let subject = format!("tool `{}`", tool.name.text);
                let unknown = schema.unknowns();
                for &span in &unknown {
                    cx.diags.push(
                        Diagnostic::new(
                            Code::TargetNotStrict,
                            span,
                            format!("`unknown` has no form in Anthropic's strict tool use, so {subject} is emitted without `strict`"),
                        )
                        .with_help("give the value a type (a custom object type, or `string` holding JSON) to keep the tool strict"),
                    );
                }
                let strict = unknown.is_empty();
                if strict {
                    request.add(cx, &schema, &subject, Some(tool.name.span));
                }
                if !entries.keeps(cx.diags) {
                    continue;
                }
                let mut entry = Map::new();
                entry.insert("name".into(), tool.name.text.as_str().into());
                if let Some(description) = &tool.presentation.description {
                    entry.insert("description".into(), description.text.as_str().into());
                }
                entry.insert("input_schema".into(), render(&schema));
                if strict {
                    entry.insert("strict".into(), true.into());
                }
                entries.push(cx.diags, Value::Object(entry));
            }
            Ok(entries.finish(""))
        }
    }
}

/// Top-level parameter names must fit `^[a-zA-Z0-9_.-]{1,64}$`.
fn check_keys(cx: &mut Cx, schema: &Schema, tool: &str) {
    let Kind::Object(properties) = &schema.kind else {
        return;
    };
    for property in properties {
        if !is_simple_name(property.name, MAX_KEY_CHARS, true) {
            cx.diags.push(
                Diagnostic::new(
                    Code::InvalidPropertyKey,
                    property.name_span,
                    format!("parameter {} of tool `{tool}` is not a valid Anthropic property key: it must be 1 to {MAX_KEY_CHARS} letters, digits, `_`, `.` or `-`", kit::quote_name(property.name)),
                )
                .with_help("rename it to fit `^[a-zA-Z0-9_.-]{1,64}$`"),
            );
        }
    }
}

/// The complexity budget of one request's strict schemas. Counts only
/// grow, so each limit is reported once, at the node that crosses it.
#[derive(Clone, Default)]
struct Request {
    tools: usize,
    optional: usize,
    unions: usize,
}

impl Request {
    fn add(&mut self, cx: &mut Cx, schema: &Schema, subject: &str, tool: Option<Span>) {
        if let Some(span) = tool {
            self.tools += 1;
            if self.tools == MAX_STRICT_TOOLS + 1 {
                cx.diags.push(
                    Diagnostic::new(
                        Code::TooManyStrictTools,
                        span,
                        format!("{subject} is strict tool number {}; Anthropic allows at most {MAX_STRICT_TOOLS} in one request", self.tools),
                    )
                    .with_help("every tool `agentc emit --target anthropic` prints is one request; send a thread only the tools it lists, each emitted with `--tool NAME`"),
                );
            }
        }
        let mut found = Vec::new();
        schema.walk(&mut |visit| match visit {
            Visit::Property(property, _) if property.optional => {
                self.optional += 1;
                if self.optional == MAX_OPTIONAL_PROPERTIES + 1 {
                    found.push(
                        Diagnostic::new(
                            Code::TooManyOptionalProperties,
                            property.name_span,
                            format!("optional property `{}` in {subject} is number {} in this request; Anthropic's strict mode allows at most {MAX_OPTIONAL_PROPERTIES} optional properties across a request", property.name, self.optional),
                        )
                        .with_help("make some properties required, or send fewer tools per request"),
                    );
                }
            }
            Visit::Schema(node, _) if matches!(node.kind, Kind::Union(_)) => {
                self.unions += 1;
                if self.unions == MAX_UNION_PROPERTIES + 1 {
                    found.push(
                        Diagnostic::new(
                            Code::TooManyUnionProperties,
                            node.span,
                            format!("this union in {subject} is number {} in this request; Anthropic's strict mode allows at most {MAX_UNION_PROPERTIES} union-typed properties across a request", self.unions),
                        )
                        .with_help("use fewer unions, or send fewer tools per request"),
                    );
                }
            }
            _ => {}
        });
        cx.diags.extend(found);
    }
}

/// A schema in the form Anthropic's strict mode takes, key for key what the
/// SDK's `transform_schema` makes of it.
pub fn render(schema: &Schema) -> Value {
    let mut out = Map::new();
    match &schema.kind {
        Kind::Any | Kind::Ref(_) => {}
        Kind::Primitive {
            ty,
            enum_values,
            constant,
        } => match (constant, enum_values) {
            (Some(literal), _) => {
                out.insert("enum".into(), Value::Array(vec![literal_json(literal)]));
            }
            (None, Some(values)) => {
                out.insert("enum".into(), enum_json(values));
            }
            (None, None) => {
                out.insert("type".into(), ty.name().into());
            }
        },
        Kind::Array(_) => {
            out.insert("type".into(), "array".into());
        }
        Kind::Union(variants) => {
            out.insert("anyOf".into(), variants.iter().map(render).collect());
        }
        Kind::Object(_) => {
            out.insert("type".into(), "object".into());
        }
        Kind::File => return render(&Schema::file_object(schema.span, schema.description)),
    }
    if let Some(text) = schema.description {
        out.insert("description".into(), text.into());
    }
    match &schema.kind {
        Kind::Object(properties) => {
            let (map, required) = super::schema::properties(properties, render);
            out.insert("properties".into(), Value::Object(map));
            out.insert("additionalProperties".into(), false.into());
            if !required.is_empty() {
                out.insert("required".into(), Value::Array(required));
            }
        }
        Kind::Array(items) => {
            out.insert("items".into(), render(items));
        }
        _ => {}
    }
    Value::Object(out)
}

//! The types language: a field's type, `items`, `enum` and `const`; every
//! name in a type expression; a `responseType`.

use super::naming;
use crate::diagnostic::{Code, Diagnostic, Diagnostics, Edit, Near, nearest, thousands};
use crate::model::Model;
use crate::source::Source;
use crate::span::Span;
use crate::syntax::{
    Builtin, EnumValues, Field, FieldContext, Literal, TypeDefKind, TypeExpr, TypeExprKind,
    quote_type,
};
use crate::yaml::{Node, NodeKind, ScalarStyle, Value};
use heck::ToUpperCamelCase;

fn array_without_items(context: FieldContext, name: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::ArrayWithoutItems,
        span,
        format!("{} is an `array` without `items`", context.describe(name)),
    )
    .with_help("add `items: { type: string }` (or the element type), or write `type: string[]`")
}

fn bare_array(span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::BareArray,
        span,
        "`array[]` does not say what the inner arrays hold",
    )
    .with_help(
        "write the element type twice, as in `string[][]`, or name the inner array as a type",
    )
}

fn standalone_object(span: Span) -> Diagnostic {
    Diagnostic::new(Code::StandaloneObject, span, "`object` is not a type")
        .with_help("declare a named object type under `types:` and use its name, or use `unknown` for any value")
}

/// `type_span` is where the field's type is given (its name when none is).
fn enum_on_non_string(name: &str, ty: &str, span: Span, type_span: Span) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::EnumOnNonString,
        span,
        format!("`enum` is only allowed on `string`, but `{name}` is `{ty}`"),
    )
    .with_label(type_span, "the type is given here");
    if ty == "string[]" || ty == "array" {
        diagnostic.with_help("for a list of allowed values write `type: array` with `items: { type: string, enum: [...] }`")
    } else {
        diagnostic.with_help("change the type to `string`, or remove the `enum`")
    }
}

fn empty_enum(span: Span) -> Diagnostic {
    Diagnostic::new(Code::InvalidEnum, span, "`enum` lists no values")
        .with_help("list the allowed values, or remove the `enum`")
}

fn enum_limit(count: usize, past: Span) -> Diagnostic {
    Diagnostic::new(
        Code::EnumLimit,
        past,
        format!(
            "this `enum` lists {} values, more than the {} agentc reads",
            thousands(count),
            thousands(crate::syntax::MAX_ENUM_VALUES)
        ),
    )
    .with_help("providers accept hundreds to a few thousand values in one `enum`; a list this long is data: make the field a `string` and check its values where they are used")
}

/// `kind` is what YAML reads the value as (`a number`).
fn enum_value_not_string(text: &str, kind: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidEnum,
        span,
        format!("`enum` value `{text}` is not a string: YAML reads it as {kind}"),
    )
    .with_help(format!("quote it: `\"{text}\"`"))
    .with_note("YAML 1.2 reads plain `true`, `false`, numbers and `null` as non-strings")
}

fn duplicate_enum_value(text: &str, at: Span, first: Span) -> Diagnostic {
    Diagnostic::new(
        Code::DuplicateEnumValue,
        at,
        format!("`enum` lists `{text}` twice"),
    )
    .with_label(first, "first listed here")
    .with_help("remove the repeated value")
}

fn const_on_non_primitive(name: &str, ty: &str, span: Span, type_span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidConst,
        span,
        format!("`const` needs a `string`, `number`, `integer` or `boolean` type, but `{name}` is `{ty}`"),
    )
    .with_label(type_span, "the type is given here")
}

/// The `key` (`const`, `default`) written `text`, which is not a value of
/// the type `ty`; `help` says what a value of it looks like.
fn of_another_type(
    code: Code,
    key: &str,
    text: &str,
    ty: &str,
    help: String,
    span: Span,
    type_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        code,
        span,
        format!(
            "`{key}` value `{}` is not of type `{ty}`",
            crate::yaml::abbreviate(text),
        ),
    )
    .with_label(type_span, "the type is given here")
    .with_help(help)
}

/// The `key` (`const`, `default`) written `text`: digits no 64-bit number
/// holds.
fn out_of_range(code: Code, key: &str, text: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        code,
        span,
        format!(
            "`{key}` value `{}` is out of the range of a 64-bit number",
            crate::yaml::abbreviate(text)
        ),
    )
    .with_help("JSON Schema consumers read numbers as 64-bit floats or integers; write a value within that range")
}

/// A `const` with an `enum` beside it: the `const` fixes the value, so the
/// `enum` is redundant at best, and when it does not list the `const`, no
/// value satisfies both (and targets that keep one of the two would
/// disagree about which).
fn const_beside_enum(literal: &Literal, values: &EnumValues) -> Diagnostic {
    let listed = values
        .values
        .iter()
        .any(|v| v.scalar.value() == literal.scalar.value());
    let text = crate::yaml::abbreviate(&literal.scalar.text);
    let diagnostic = Diagnostic::new(
        Code::InvalidConst,
        literal.span,
        "a property takes `const` or `enum`, not both",
    )
    .with_label(values.span, "the `enum` is here");
    match listed {
        true => diagnostic.with_help(format!(
            "remove the `enum`: `const: {text}` already fixes the value"
        )),
        false => diagnostic
            .with_help("keep `const` for one fixed value, or `enum` for a choice of values")
            .with_note(format!(
                "`{text}` is not among the `enum`'s values, so no value satisfies both"
            )),
    }
}

/// `what` is what the `responseType` is (`the primitive `string``);
/// `help` how to make it an object type.
fn invalid_response_type(what: &str, help: String, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidResponseType,
        span,
        format!("`responseType` must be an object type, not {what}"),
    )
    .with_help(help)
    .with_note("LLM providers require the root of a structured output to be an object")
}

/// Where a type name is expected: anywhere, or only an object type (a
/// union variant), which decides what to suggest.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Expected {
    AnyType,
    ObjectType,
}

pub(super) fn unknown_type(
    model: &Model,
    name: &str,
    span: Span,
    expected: Expected,
) -> Diagnostic {
    let builtins = Builtin::ALL.iter().map(|b| b.name());
    let builtins = builtins.filter(|_| expected == Expected::AnyType);
    let diagnostic = Diagnostic::new(
        Code::UnknownType,
        span,
        format!("type `{name}` is not defined"),
    );
    // The built-ins first: a protocol's many types must not push them past
    // what a suggestion compares.
    let near = nearest(name, builtins.clone().chain(model.type_names())).or_else(|| {
        let alias = builtin_alias(name).filter(|_| expected == Expected::AnyType);
        alias.map(|name| Near {
            name,
            distance: 1,
            alone: true,
        })
    });
    match (near, expected) {
        (Some(near), _) => diagnostic.did_you_mean(span, near),
        (None, Expected::AnyType) => diagnostic.with_help("declare it under `types:`, or use a built-in: `string`, `number`, `integer`, `boolean`, `unknown`, `file`"),
        (None, Expected::ObjectType) => diagnostic.with_help(format!(
            "declare `{name}` under `types:` as an object type with the discriminator property"
        )),
    }
}

/// The built-in another language calls `name` (`bool`, `int`, `str`,
/// `any`...): what people coming from JSON Schema, TypeScript or Python
/// write first, too far from the built-in's name for an edit distance.
fn builtin_alias(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "bool" => "boolean",
        "int" | "i32" | "i64" | "long" => "integer",
        "float" | "double" | "f32" | "f64" | "decimal" => "number",
        "str" | "text" => "string",
        "any" | "mixed" => "unknown",
        _ => return None,
    })
}

/// A field's type, `items`, `enum` and `const`.
pub(super) fn check_field(
    model: &Model,
    source: &Source,
    field: &Field,
    context: FieldContext,
    diags: &mut Diagnostics,
) {
    check_field_in(model, source, field, context, false, diags);
}

/// `outer_value`: a field this one is the `items` of has a `default` or
/// `const`, which may name this one's enum values.
fn check_field_in(
    model: &Model,
    source: &Source,
    field: &Field,
    context: FieldContext,
    outer_value: bool,
    diags: &mut Diagnostics,
) {
    let valued = outer_value || field.default.is_some() || field.const_value.is_some();
    if let Some(ty) = &field.ty {
        check_type_expr(model, ty, diags);
        if ty.kind == TypeExprKind::Array && field.items.is_none() {
            diags.push(array_without_items(context, &field.name.text, ty.span));
        }
    }
    if let Some(items) = &field.items {
        check_field_in(model, source, items, FieldContext::Items, valued, diags);
    }
    check_enum(source, field, valued, diags);
    check_const(field, diags);
    check_default(field, diags);
}

/// Every name in a type expression resolves; `object` and a bare `array`
/// are not types.
fn check_type_expr(model: &Model, expr: &TypeExpr, diags: &mut Diagnostics) {
    match &expr.kind {
        TypeExprKind::Builtin(_) | TypeExprKind::Array => {}
        TypeExprKind::Named(name) => {
            if model.lookup(name).is_none() {
                diags.push_with(Code::UnknownType, || {
                    unknown_type(model, name, expr.span, Expected::AnyType)
                });
            }
        }
        TypeExprKind::List(element) => match element.kind {
            TypeExprKind::Array => diags.push(bare_array(element.span)),
            _ => check_type_expr(model, element, diags),
        },
        TypeExprKind::Object => diags.push(standalone_object(expr.span)),
    }
}

/// `valued`: a `default` or `const` may name the values.
fn check_enum(source: &Source, field: &Field, valued: bool, diags: &mut Diagnostics) {
    let Some(values) = &field.enum_values else {
        return;
    };
    let on_string = field
        .ty
        .as_ref()
        .is_none_or(|ty| ty.kind == TypeExprKind::Builtin(Builtin::String));
    if !on_string {
        let ty = field.ty.as_ref().map(TypeExpr::display).unwrap_or_default();
        let type_span = field.ty.as_ref().map_or(field.name.span, |t| t.span);
        diags.push(enum_on_non_string(
            &field.name.text,
            &ty,
            values.span,
            type_span,
        ));
    }
    if values.values.is_empty() {
        diags.push(empty_enum(values.span));
    }
    if let Some((count, past)) = values.over {
        diags.push(enum_limit(count, past));
    }
    for literal in &values.values {
        let kind = match literal.scalar.value() {
            Value::Str(_) => continue,
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            _ => "a number",
        };
        diags.push(enum_value_not_string(
            &literal.scalar.text,
            kind,
            literal.span,
        ));
    }
    naming::check_enum_values(source, valued, values, diags);
    for &(at, index) in &values.repeats {
        let Some(first) = values.values.get(index as usize) else {
            continue;
        };
        diags.push_with(Code::DuplicateEnumValue, || {
            duplicate_enum_value(&first.scalar.text, at, first.span)
        });
    }
}

fn check_const(field: &Field, diags: &mut Diagnostics) {
    let (Some(literal), Some(ty)) = (&field.const_value, &field.ty) else {
        return;
    };
    let text = &literal.scalar.text;
    let value = literal.scalar.value();
    if let Some(values) = &field.enum_values {
        diags.push(const_beside_enum(literal, values));
        return;
    }
    let builtin = match &ty.kind {
        TypeExprKind::Builtin(
            builtin @ (Builtin::String | Builtin::Number | Builtin::Integer | Builtin::Boolean),
        ) => *builtin,
        _ => {
            diags.push(const_on_non_primitive(
                &field.name.text,
                &ty.display(),
                literal.span,
                ty.span,
            ));
            return;
        }
    };
    let plain = literal.scalar.style == ScalarStyle::Plain;
    match unfit(builtin, text, &value, plain) {
        None => {}
        Some(Unfit::OutOfRange) => {
            diags.push(out_of_range(
                Code::InvalidConst,
                "const",
                text,
                literal.span,
            ));
        }
        Some(Unfit::Help(help)) => diags.push(of_another_type(
            Code::InvalidConst,
            "const",
            text,
            &ty.display(),
            help,
            literal.span,
            ty.span,
        )),
    }
}

/// What is wrong with a scalar written as a value of a primitive type.
enum Unfit {
    /// Digits no 64-bit number holds: a number, but not one a provider or
    /// a validator reads as written.
    OutOfRange,
    /// Of another type: what a value of the type looks like.
    Help(String),
}

/// Whether the scalar `text`, read as `value` (`plain`: written without
/// quotes), is a value of `builtin` (`string`, `number`, `integer`,
/// `boolean`; any value is one of the others). A whole number written
/// with a fraction (`2.0`) is an `integer`, as JSON Schema and agentc's
/// validator read it.
fn unfit(builtin: Builtin, text: &str, value: &Value, plain: bool) -> Option<Unfit> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let integer = builtin == Builtin::Integer;
    let out_of_range = plain
        && match value {
            Value::Float(f) => f.is_infinite() || (integer && whole),
            Value::Str(_) => integer && whole,
            _ => false,
        };
    let help = match builtin {
        Builtin::String => match value {
            Value::Str(_) => return None,
            _ => format!("quote it to make it a string: `\"{text}\"`"),
        },
        Builtin::Number | Builtin::Integer if out_of_range => return Some(Unfit::OutOfRange),
        Builtin::Number => match value {
            Value::Int(_) => return None,
            Value::Float(f) if f.is_finite() => return None,
            _ => "write a number, such as `1` or `2.5`".to_string(),
        },
        Builtin::Integer => match value {
            Value::Int(_) => return None,
            Value::Float(f) if f.is_finite() && f.fract() == 0.0 => return None,
            _ => "write a whole number, such as `1`".to_string(),
        },
        Builtin::Boolean => match value {
            Value::Bool(_) => return None,
            _ => "write `true` or `false`".to_string(),
        },
        _ => return None,
    };
    Some(Unfit::Help(help))
}

/// A field's `default` is a value of its type, and of its `enum` when it
/// has one: the platform gives it to the agent where the input is left
/// out, so one of another type is what a run gets. Judged for primitive
/// types and lists of them (a named type's value is the platform's to
/// read); an empty `default:` gives none.
fn check_default(field: &Field, diags: &mut Diagnostics) {
    let Some(node) = &field.default else {
        return;
    };
    if node.is_null() {
        return;
    }
    let judged = Judged {
        code: Code::InvalidDefault,
        key: "default",
    };
    check_value(node, field, judged, diags);
}

/// A value written in place for a field (a `default`, a `tool-call`'s
/// input for a parameter), and how a value that does not fit is reported:
/// its code, and the key the messages name.
#[derive(Clone, Copy)]
pub(super) struct Judged<'a> {
    pub code: Code,
    pub key: &'a str,
}

/// `node` is a value of `field`'s type, and of its `enum` when it has one.
/// Judged for primitive types and lists of them (a named type's value is
/// the platform's to read).
pub(super) fn check_value(node: &Node, field: &Field, judged: Judged, diags: &mut Diagnostics) {
    if let Some(ty) = &field.ty {
        check_typed_value(
            node,
            ty,
            field.enum_values.as_deref(),
            ty.span,
            judged,
            diags,
        );
    }
}

fn check_typed_value(
    node: &Node,
    expr: &TypeExpr,
    values: Option<&EnumValues>,
    type_span: Span,
    judged: Judged,
    diags: &mut Diagnostics,
) {
    let Judged { code, key } = judged;
    let not_a = |found: &str, ty: &str| {
        Diagnostic::new(
            code,
            node.span,
            format!("`{key}` must be {ty}, found {found}"),
        )
        .with_label(type_span, "the type is given here")
    };
    match &expr.kind {
        TypeExprKind::Builtin(
            builtin @ (Builtin::String | Builtin::Number | Builtin::Integer | Builtin::Boolean),
        ) => {
            let Some(scalar) = node.as_scalar() else {
                diags.push(not_a(&node.describe(), &format!("a `{}`", expr.display())));
                return;
            };
            let text: &str = &scalar.text;
            let value = scalar.value();
            let plain = scalar.style == ScalarStyle::Plain;
            match unfit(*builtin, text, &value, plain) {
                Some(Unfit::OutOfRange) => {
                    diags.push(out_of_range(code, key, text, node.span));
                }
                Some(Unfit::Help(help)) => diags.push(of_another_type(
                    code,
                    key,
                    text,
                    &expr.display(),
                    help,
                    node.span,
                    type_span,
                )),
                None => {
                    // An `enum` past its limit was not read whole: its
                    // values cannot tell a default that is not one.
                    if let (Some(values), Value::Str(written)) = (values, &value)
                        && values.over.is_none()
                        && !values.values.iter().any(|v| v.scalar.value() == value)
                    {
                        let listed = values.values.iter().map(|v| v.scalar.text.as_str());
                        let diagnostic = Diagnostic::new(
                            code,
                            node.span,
                            format!(
                                "`{key}` value `{}` is not one of the `enum`'s values",
                                crate::yaml::abbreviate(written)
                            ),
                        )
                        .with_label(values.span, "the `enum` is here");
                        diags.push(match nearest(written, listed) {
                            Some(near) => diagnostic.did_you_mean(node.span, near),
                            None => diagnostic
                                .with_help("make it one of the `enum`'s values, or add it to them"),
                        });
                    }
                }
            }
        }
        TypeExprKind::List(element) => match &node.kind {
            NodeKind::Sequence(items) => {
                for item in items {
                    check_typed_value(item, element, None, type_span, judged, diags);
                }
            }
            _ => diags.push(not_a(
                &node.describe(),
                &format!("a list, `{}`", expr.display()),
            )),
        },
        // A named type's value, `unknown`, `file`: not judged here.
        _ => {}
    }
}

/// `responseType` names an object type; anything else is wrapped.
pub(super) fn check_response_type(
    model: &Model,
    source: &Source,
    expr: &TypeExpr,
    diags: &mut Diagnostics,
) {
    let written = expr.display();
    let what = match &expr.kind {
        TypeExprKind::Named(name) => match model.lookup(name).map(|id| &model.def(id).kind) {
            None => {
                diags.push_with(Code::UnknownType, || {
                    unknown_type(model, name, expr.span, Expected::AnyType)
                });
                return;
            }
            Some(TypeDefKind::Object(_) | TypeDefKind::Invalid) => return,
            Some(TypeDefKind::Union(_)) => format!("the union `{written}`"),
            Some(TypeDefKind::Array(_)) => format!("the array type `{written}`"),
        },
        TypeExprKind::List(element) => {
            check_type_expr(model, element, diags);
            format!("the array `{written}`")
        }
        TypeExprKind::Array => "a bare `array`".to_string(),
        TypeExprKind::Builtin(Builtin::File) | TypeExprKind::Builtin(Builtin::Unknown) => {
            format!("the built-in `{written}`")
        }
        TypeExprKind::Builtin(_) => format!("the primitive `{written}`"),
        TypeExprKind::Object => "`object`, which is not a type".to_string(),
    };
    let help = match &expr.kind {
        TypeExprKind::Object | TypeExprKind::Array => {
            "declare an object type under `types:` with the properties the reply should have, and name it here".to_string()
        }
        _ => {
            let (wrapper, property) = wrapper_for(expr);
            let ty = quote_type(&written);
            format!(
                "wrap it in an object type and use that:\n\ntypes:\n  {wrapper}:\n    {property}:\n      type: {ty}\n\nresponseType: {wrapper}"
            )
        }
    };
    let mut diagnostic = invalid_response_type(&what, help, expr.span);
    if let Some((title, edits)) = wrap_response_type(model, source, expr) {
        diagnostic = diagnostic.with_fix(title, edits);
    }
    diags.push(diagnostic);
}

/// The fix of a `responseType` that is a union, a primitive or a list: a
/// new object type with one property of that type, declared first under
/// `types:` (or in a new `types:` section), and used as the
/// `responseType`. Made only where the edit is sure to read right: the
/// `types:` entries in block style, or no `types:` section and the
/// sections at column 0.
fn wrap_response_type(
    model: &Model,
    source: &Source,
    expr: &TypeExpr,
) -> Option<(String, Vec<Edit>)> {
    match &expr.kind {
        TypeExprKind::Named(name) => {
            let def = model.def(model.lookup(name)?);
            if !matches!(def.kind, TypeDefKind::Union(_) | TypeDefKind::Array(_)) {
                return None;
            }
        }
        TypeExprKind::List(_) | TypeExprKind::Builtin(_) => {}
        TypeExprKind::Array | TypeExprKind::Object => return None,
    }
    let (wrapper, property) = wrapper_for(expr);
    let wrapper = free_name(model, &wrapper)?;
    let written = quote_type(&expr.display());
    // In the file's own line ending.
    let nl = if source.text().contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let declaration = |indent: &str| {
        format!("{wrapper}:{nl}{indent}  {property}:{nl}{indent}    type: {written}{nl}{indent}")
    };
    let insert = match model.protocol.types.first() {
        Some(first) => {
            let at = first.name.span.start as usize;
            let (line, _) = source.utf16_position(at);
            let start = source.line_range(line)?.start;
            let indent = source.text().get(start..at)?;
            if indent.is_empty() || !indent.chars().all(|c| c == ' ') {
                return None;
            }
            Edit {
                span: Span::empty(at),
                text: declaration(indent),
            }
        }
        None if model.protocol.section("types").is_some() => return None,
        None => {
            let at = model
                .protocol
                .sections
                .first()
                .map_or(0, |s| s.span.start as usize);
            let (_, column) = source.utf16_position(at);
            if column != 0 {
                return None;
            }
            Edit {
                span: Span::empty(at),
                text: format!("types:{nl}  {}{nl}", declaration("  ").trim_end()),
            }
        }
    };
    let usage = Edit {
        span: expr.span,
        text: wrapper.clone(),
    };
    Some((
        format!("wrap in a new object type `{wrapper}`"),
        vec![insert, usage],
    ))
}

/// `name`, or `name2`, `name3`, ... when it is taken.
fn free_name(model: &Model, name: &str) -> Option<String> {
    if model.lookup(name).is_none() {
        return Some(name.to_string());
    }
    (2..u32::MAX)
        .map(|n| format!("{name}{n}"))
        .find(|candidate| model.lookup(candidate).is_none())
}

/// The object type the help (and its fix) wraps a `responseType` in: its
/// name and its one property.
fn wrapper_for(expr: &TypeExpr) -> (String, &'static str) {
    match &expr.kind {
        TypeExprKind::Named(name) => (format!("{name}Wrapper"), "response"),
        TypeExprKind::List(element) => (
            format!(
                "{}ListResponse",
                element
                    .display()
                    .trim_end_matches("[]")
                    .to_upper_camel_case()
            ),
            "items",
        ),
        _ => ("ValueResponse".to_string(), "value"),
    }
}

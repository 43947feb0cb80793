//! The words of a report: what was expected and what was found, at the
//! value's pointer; unknown keys with the nearest declared one; for a
//! union, only the branch its discriminator names. [`super::report`] finds
//! the problems of a value by walking its schema and says them with the
//! builders here; [`error`] says the same of a `jsonschema` error, for the
//! rules agentc does not walk itself (`minLength`, `not`, ...).

use super::{Anchor, Violation, describe, json};
use crate::diagnostic::{Code, did_you_mean, nearest};
use heck::ToLowerCamelCase;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError};
use serde_json::Value;

/// How many `$ref`s in a row a branch may go through before it counts as
/// unresolved (agentc's schemas have one).
const MAX_REF_HOPS: usize = 16;

/// Adds the violations of one `jsonschema` error.
pub(super) fn error(schema: &Value, error: &ValidationError, out: &mut Vec<Violation>) {
    error_with_message(schema, error, || error.to_string(), out);
}

/// [`error`], with the message for a rule agentc has no words of its own
/// for (`jsonschema`'s description of the error, which prints the value,
/// or a masked one for a long value).
pub(super) fn error_with_message(
    schema: &Value,
    error: &ValidationError,
    message: impl FnOnce() -> String,
    out: &mut Vec<Violation>,
) {
    let pointer = error.instance_path().as_str();
    let instance = error.instance().as_ref();
    match error.kind() {
        ValidationErrorKind::Type { kind } => out.push(type_mismatch(
            pointer,
            &expected_types(kind),
            &describe(instance),
        )),
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            out.push(missing(schema, node(schema, error), pointer, name));
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            let declared = declared(node(schema, error));
            for key in unexpected {
                out.push(unknown_property(pointer, key, &declared));
            }
        }
        ValidationErrorKind::Enum { options } => {
            let allowed = options.as_array().map(Vec::as_slice).unwrap_or_default();
            out.push(not_one_of(
                pointer,
                allowed,
                instance.as_str(),
                &describe(instance),
            ));
        }
        ValidationErrorKind::Constant { expected_value } => {
            out.push(not_const(pointer, expected_value, &describe(instance)))
        }
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            union(schema, error, context, out)
        }
        _ => out.push(Violation::new(Code::SchemaViolation, pointer, message())),
    }
}

pub(super) fn type_mismatch(pointer: &str, expected: &str, found: &str) -> Violation {
    Violation::new(
        Code::TypeMismatch,
        pointer,
        format!("expected {expected}, found {found}"),
    )
}

/// A required property missing from the object at `pointer`, whose schema
/// is `object` (for the help: what the property takes).
pub(super) fn missing(
    schema: &Value,
    object: Option<&Value>,
    pointer: &str,
    name: &str,
) -> Violation {
    let declared = object
        .and_then(|n| n.get("properties"))
        .and_then(|p| p.get(name));
    let help = declared.map(|d| format!("add `{name}`: {}", brief(schema, d)));
    Violation::new(
        Code::MissingProperty,
        pointer,
        format!("missing required property `{name}`"),
    )
    .at(Anchor::Start)
    .with_help_opt(help)
}

/// The properties an object schema declares.
pub(super) fn declared(object: Option<&Value>) -> Vec<&str> {
    object
        .and_then(|n| n.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// A member `key` of the object at `pointer` that its schema does not
/// declare.
pub(super) fn unknown_property(pointer: &str, key: &str, declared: &[&str]) -> Violation {
    Violation::new(
        Code::UnknownProperty,
        format!("{pointer}/{}", json::escape(key)),
        format!("unknown property `{key}`"),
    )
    .at(Anchor::Key)
    .with_help_opt(unknown_key_help(key, declared))
}

/// A value not in its `enum`; `text` is the value when it is a string.
pub(super) fn not_one_of(
    pointer: &str,
    allowed: &[Value],
    text: Option<&str>,
    found: &str,
) -> Violation {
    let help = text.and_then(|found| did_you_mean(found, allowed.iter().filter_map(Value::as_str)));
    Violation::new(
        Code::ValueNotAllowed,
        pointer,
        format!("expected one of {}, found {found}", literals(allowed)),
    )
    .with_help_opt(help)
}

pub(super) fn not_const(pointer: &str, expected: &Value, found: &str) -> Violation {
    Violation::new(
        Code::ValueNotAllowed,
        pointer,
        format!("expected `{expected}`, found {found}"),
    )
}

/// A value that is not an object where a discriminated union wants one.
pub(super) fn not_an_object(pointer: &str, found: &str) -> Violation {
    type_mismatch(pointer, "object", found)
}

/// A discriminated union's value without its discriminator `key`.
pub(super) fn no_discriminator(pointer: &str, key: &str, tags: &[&str]) -> Violation {
    Violation::new(
        Code::MissingProperty,
        pointer,
        format!("missing required property `{key}`, which says which variant this is"),
    )
    .at(Anchor::Start)
    .with_help(format!("`{key}` is one of {}", tag_list(tags)))
}

/// A discriminator that names no variant: `text` is its value when it is
/// a string, `found` describes it otherwise.
pub(super) fn unknown_variant(
    pointer: &str,
    key: &str,
    tags: &[&str],
    text: Option<&str>,
    shown: &str,
    found: &str,
) -> Violation {
    let allowed = tag_list(tags);
    let help = text.and_then(|found| did_you_mean(found, tags.iter().copied()));
    Violation::new(
        Code::UnknownVariant,
        format!("{pointer}/{}", json::escape(key)),
        match text {
            Some(_) => format!("no variant has `{key}` `{shown}`; expected one of {allowed}"),
            None => format!("`{key}` names the variant, so it is one of {allowed}; found {found}"),
        },
    )
    .with_help_opt(help)
}

fn tag_list(tags: &[&str]) -> String {
    tags.iter()
        .map(|t| format!("`\"{t}\"`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "Expected at least one of `a` or `b`": every branch of a union misses
/// one property.
pub(super) fn one_of_these(pointer: &str, names: &[String]) -> Violation {
    Violation::new(
        Code::MissingProperty,
        pointer,
        format!("expected at least one of {}", or_list(names)),
    )
    .at(Anchor::Start)
}

/// A value that matches none of `count` alternatives, with the first
/// problem of each.
pub(super) fn no_alternative(pointer: &str, count: usize, firsts: &[String]) -> Violation {
    let help = firsts
        .iter()
        .enumerate()
        .map(|(i, first)| format!("alternative {}: {first}", i + 1))
        .collect::<Vec<_>>();
    Violation::new(
        Code::NoMatchingVariant,
        pointer,
        format!("the value matches none of the {count} alternatives"),
    )
    .with_help_opt((!help.is_empty()).then(|| help.join("; ")))
}

/// A value that matched none of a union's branches.
fn union(
    schema: &Value,
    error: &ValidationError,
    branches_errors: &[Vec<ValidationError<'static>>],
    out: &mut Vec<Violation>,
) {
    let pointer = error.instance_path().as_str();
    let instance = error.instance().as_ref();
    let keyword = error.kind().keyword();
    let branches: Vec<&Value> = node(schema, error)
        .and_then(|n| n.get(keyword))
        .and_then(Value::as_array)
        .map(|b| b.iter().map(|b| resolve(schema, b)).collect())
        .unwrap_or_default();

    if let Some((key, tags)) = discriminator(&branches) {
        let Some(object) = instance.as_object() else {
            out.push(not_an_object(pointer, &describe(instance)));
            return;
        };
        match object.get(key) {
            None => out.push(no_discriminator(pointer, key, &tags)),
            Some(tag) => match tags.iter().position(|t| Some(*t) == tag.as_str()) {
                Some(i) => {
                    for inner in branches_errors.get(i).into_iter().flatten() {
                        self::error(schema, inner, out);
                    }
                }
                None => out.push(unknown_variant(
                    pointer,
                    key,
                    &tags,
                    tag.as_str(),
                    &tag.to_string(),
                    &describe(tag),
                )),
            },
        }
        return;
    }

    // Without a discriminator, a branch that wants another JSON type is not
    // the one the value meant.
    let wrong_type = |errors: &[ValidationError]| {
        errors.iter().any(|e| {
            e.instance_path().as_str() == pointer
                && matches!(e.kind(), ValidationErrorKind::Type { .. })
        })
    };
    let meant: Vec<&Vec<ValidationError>> = branches_errors
        .iter()
        .filter(|errors| !wrong_type(errors))
        .collect();
    match meant.as_slice() {
        [] => {
            let mut expected: Vec<String> = Vec::new();
            for e in branches_errors.iter().flatten() {
                if let ValidationErrorKind::Type { kind } = e.kind() {
                    let text = expected_types(kind);
                    if !expected.contains(&text) {
                        expected.push(text);
                    }
                }
            }
            out.push(type_mismatch(
                pointer,
                &expected.join(" or "),
                &describe(instance),
            ));
        }
        [only] => {
            for inner in only.iter() {
                self::error(schema, inner, out);
            }
        }
        several => {
            // "One of these properties": every branch misses one.
            let required: Option<Vec<String>> = several
                .iter()
                .map(|errors| match errors.as_slice() {
                    [e] if e.instance_path().as_str() == pointer => match e.kind() {
                        ValidationErrorKind::Required { property } => {
                            property.as_str().map(|p| format!("`{p}`"))
                        }
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            match required {
                Some(names) => out.push(one_of_these(pointer, &names)),
                None => {
                    let mut firsts = Vec::new();
                    for errors in several.iter() {
                        let mut found = Vec::new();
                        if let Some(first) = errors.first() {
                            self::error(schema, first, &mut found);
                        }
                        if let Some(v) = found.first() {
                            firsts.push(v.message.clone());
                        }
                    }
                    out.push(no_alternative(pointer, several.len(), &firsts));
                }
            }
        }
    }
}

/// The property whose `const` tells a union's branches apart, and each
/// branch's tag: the first property that every branch requires with a
/// distinct string `const`.
pub(super) fn discriminator<'s>(branches: &[&'s Value]) -> Option<(&'s str, Vec<&'s str>)> {
    let first = branches.first()?.get("properties")?.as_object()?;
    first.keys().find_map(|key| {
        let tags: Option<Vec<&str>> = branches
            .iter()
            .map(|branch| {
                let required = branch.get("required")?.as_array()?;
                if !required.iter().any(|r| r.as_str() == Some(key)) {
                    return None;
                }
                branch.get("properties")?.get(key)?.get("const")?.as_str()
            })
            .collect();
        let tags = tags?;
        let distinct = tags.iter().enumerate().all(|(i, t)| !tags[..i].contains(t));
        (distinct && tags.len() > 1).then_some((key.as_str(), tags))
    })
}

/// The schema object holding the keyword an error is about.
fn node<'s>(schema: &'s Value, error: &ValidationError) -> Option<&'s Value> {
    let path = error.schema_path().as_str();
    let parent = path.rsplit_once('/').map_or("", |(parent, _)| parent);
    schema.pointer(parent)
}

/// Follows local `$ref`s (`#/$defs/Name`).
pub(super) fn resolve<'s>(schema: &'s Value, mut node: &'s Value) -> &'s Value {
    for _ in 0..MAX_REF_HOPS {
        let Some(target) = node
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|p| schema.pointer(p))
        else {
            break;
        };
        node = target;
    }
    node
}

/// A few words on what a schema accepts, for a help line.
fn brief(schema: &Value, node: &Value) -> String {
    if let Some(name) = node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
    {
        let name = json::unescape(name);
        return match resolve(schema, node).get("type").and_then(Value::as_str) {
            Some(t) => format!("`{name}` ({t})"),
            None => format!("`{name}`"),
        };
    }
    if let Some(value) = node.get("const") {
        return format!("`{value}`");
    }
    if let Some(options) = node.get("enum").and_then(Value::as_array) {
        return format!("one of {}", literals(options));
    }
    match node.get("type") {
        Some(Value::String(t)) if t == "array" => match node.get("items") {
            Some(items) => format!("an array of {}", brief(schema, items)),
            None => "an array".to_string(),
        },
        Some(Value::String(t)) => format!("{} {t}", crate::diagnostic::article(t)),
        _ if node.get("anyOf").is_some() => "one of several shapes".to_string(),
        _ => "any JSON value".to_string(),
    }
}

fn unknown_key_help(key: &str, declared: &[&str]) -> Option<String> {
    if declared.is_empty() {
        return Some("this object takes no properties".to_string());
    }
    let camel = key.to_lower_camel_case();
    if camel != key && declared.contains(&camel.as_str()) {
        return Some(format!("keys are camelCase on the wire: `{camel}`"));
    }
    if let Some(near) = nearest(key, declared.iter().copied()) {
        return Some(format!("did you mean `{near}`?"));
    }
    const LISTED: usize = 12;
    let names: Vec<String> = declared
        .iter()
        .take(LISTED)
        .map(|d| format!("`{d}`"))
        .collect();
    let more = if declared.len() > LISTED { ", …" } else { "" };
    Some(format!(
        "the properties here are {}{more}",
        names.join(", ")
    ))
}

fn expected_types(kind: &TypeKind) -> String {
    match kind {
        TypeKind::Single(t) => t.as_str().to_string(),
        TypeKind::Multiple(set) => {
            let names: Vec<&str> = set.iter().map(JsonType::as_str).collect();
            names.join(" or ")
        }
    }
}

fn literals(values: &[Value]) -> String {
    const LISTED: usize = 10;
    let mut text: Vec<String> = values
        .iter()
        .take(LISTED)
        .map(|v| format!("`{v}`"))
        .collect();
    if values.len() > LISTED {
        text.push(format!("… ({} in all)", values.len()));
    }
    text.join(", ")
}

/// "`a`, `b` or `c`".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

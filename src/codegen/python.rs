//! pydantic v2 models (`--lang python`): a model per object type, an
//! `Annotated` union with `Field(discriminator=...)` per discriminated
//! union, a model per tool's arguments and trigger's input, the maps
//! (`TOOL_ARGS`, `RESPONSE_TYPES`, `TRIGGER_INPUTS`) and
//! `parse_tool_args(name, raw)`.
//!
//! Models are strict (no coercion of `"7"` into `7`), as agentc's
//! validator is, and ignore unknown keys unless `strict` (then
//! `extra="forbid"`). An optional property is `T | None = None`, so it
//! also accepts `null`: pydantic cannot say "may be absent, not null"
//! without a validator, a documented difference from agentc's validator.
//! Imports are aliased (`_t`, `_p`, `_b`) so that no protocol type name
//! can shadow them.

use super::bindings::{self, Bindings, Decl, Prop, Ty};
use super::options::Options;
use super::text::json_string;
use heck::ToSnakeCase;

/// Python's keywords, which a property cannot be named.
const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Names a pydantic model's field cannot take: `BaseModel`'s own
/// attributes and methods.
const MODEL_ATTRIBUTES: [&str; 22] = [
    "construct",
    "copy",
    "dict",
    "from_orm",
    "json",
    "model_computed_fields",
    "model_config",
    "model_construct",
    "model_copy",
    "model_dump",
    "model_dump_json",
    "model_extra",
    "model_fields",
    "model_fields_set",
    "model_json_schema",
    "model_parametrized_name",
    "model_post_init",
    "model_rebuild",
    "model_validate",
    "model_validate_json",
    "parse_obj",
    "schema",
];

/// The builtins the annotations name: a field named like one would shadow
/// it for the fields after it in the class body.
const ANNOTATION_NAMES: [&str; 7] = ["bool", "dict", "float", "int", "list", "str", "type"];

/// The module for `bindings`, after `header`.
pub fn module(bindings: &Bindings, header: &str, options: &Options) -> String {
    let mut out = String::new();
    out.push_str(header);
    out.push_str("\"\"\"Typed bindings of an Octavus protocol: pydantic v2 models.\"\"\"\n\n");
    out.push_str("from __future__ import annotations\n\n");
    out.push_str("import builtins as _b\nimport typing as _t\n\nimport pydantic as _p\n\n\n");
    let extra = if options.strict { "forbid" } else { "ignore" };
    // Snake-case fields are read and written by their wire names (aliases),
    // and may be given by their own names in Python.
    let names = if options.snake_case {
        ", validate_by_alias=True, validate_by_name=True, serialize_by_alias=True"
    } else {
        ""
    };
    out.push_str(&format!(
        "class _Model(_p.BaseModel):\n    model_config = _p.ConfigDict(strict=True, extra={}{names})\n",
        json_string(extra)
    ));
    if bindings.file {
        out.push_str("\n\n");
        class(
            &mut out,
            "FileReference",
            Some("A file the user uploaded, as the protocol's `file` type carries it."),
            &bindings::file_reference(),
            options,
        );
    }
    for decl in &bindings.types {
        match decl {
            Decl::Object {
                name,
                description,
                props,
            } => {
                out.push_str("\n\n");
                class(&mut out, name, *description, props, options);
            }
            Decl::Array { name, items, .. } => {
                out.push_str(&format!("\n\n{name} = list[{}]\n", ty(items)));
            }
            Decl::Union {
                name,
                discriminator,
                variants,
                ..
            } => {
                out.push_str(&format!(
                    "\n\n{name} = _t.Annotated[_t.Union[{}], _p.Field(discriminator={})]\n",
                    variants.join(", "),
                    json_string(discriminator)
                ));
            }
        }
    }
    for entry in bindings
        .tools
        .iter()
        .chain(&bindings.triggers)
        .chain(&bindings.session)
    {
        out.push_str("\n\n");
        class(
            &mut out,
            &entry.type_name,
            entry.description,
            &entry.props,
            options,
        );
    }
    out.push_str("\n\n#: Each tool's arguments, by tool name.\n");
    map(
        &mut out,
        "TOOL_ARGS",
        "_b.dict[str, _b.type[_p.BaseModel]]",
        bindings.tools.iter().map(|e| (e.key, e.type_name.as_str())),
    );
    out.push_str("\n#: Each reply type, by the name a reply part carries as `typeName`.\n");
    map(
        &mut out,
        "RESPONSE_TYPES",
        "_b.dict[str, _b.type[_p.BaseModel]]",
        bindings.responses.iter().map(|&n| (n, n)),
    );
    out.push_str("\n#: Each trigger's input, by trigger name.\n");
    map(
        &mut out,
        "TRIGGER_INPUTS",
        "_b.dict[str, _b.type[_p.BaseModel]]",
        bindings
            .triggers
            .iter()
            .map(|e| (e.key, e.type_name.as_str())),
    );
    out.push_str(PARSE);
    out
}

const PARSE: &str = "

def parse_tool_args(name: str, raw: _t.Any) -> _p.BaseModel:
    \"\"\"The arguments of tool `name`, parsed: `raw` is a mapping, or a JSON
    text holding one (as some transports send them). Raises `KeyError` for a
    tool the protocol does not declare and `pydantic.ValidationError` for
    arguments that do not fit.\"\"\"
    model = TOOL_ARGS.get(name)
    if model is None:
        raise _b.KeyError(f\"the protocol declares no tool {name!r}\")
    if isinstance(raw, (str, bytes)):
        return model.model_validate_json(raw)
    return model.model_validate(raw)
";

/// `class Name(_Model): ...`.
fn class(
    out: &mut String,
    name: &str,
    description: Option<&str>,
    props: &[Prop],
    options: &Options,
) {
    out.push_str(&format!("class {name}(_Model):\n"));
    if let Some(description) = description {
        out.push_str(&format!("    {}\n", docstring(description)));
    }
    if props.is_empty() {
        if description.is_none() {
            out.push_str("    pass\n");
        }
        return;
    }
    if description.is_some() {
        out.push('\n');
    }
    let mut taken: Vec<String> = Vec::with_capacity(props.len());
    for prop in props {
        let (mut field, mut alias) = field_name(prop.name, options.snake_case);
        // Two wire names that make one field name: the later one gets `_`
        // until it is free.
        while taken.contains(&field) {
            field.push('_');
            alias = Some(prop.name);
        }
        taken.push(field.clone());
        let mut arguments = Vec::new();
        if prop.optional {
            arguments.push("default=None".to_string());
        }
        if let Some(alias) = alias {
            arguments.push(format!("alias={}", json_string(alias)));
        }
        if let Some(description) = prop.description {
            arguments.push(format!("description={}", json_string(description)));
        }
        let annotation = if prop.optional {
            format!("{} | None", ty(&prop.ty))
        } else {
            ty(&prop.ty)
        };
        let default = match (prop.optional, arguments.is_empty()) {
            (true, _) if arguments.len() == 1 => " = None".to_string(),
            (_, true) => String::new(),
            _ => format!(" = _p.Field({})", arguments.join(", ")),
        };
        out.push_str(&format!("    {field}: {annotation}{default}\n"));
    }
}

/// A property's field name, and the wire name as its alias when the two
/// differ: a keyword, a `BaseModel` attribute, a name that is not an
/// identifier or starts with `_` gets a field name of its own.
fn field_name(name: &str, snake_case: bool) -> (String, Option<&str>) {
    let is_field = |field: &str| {
        field
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && field.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !KEYWORDS.contains(&field)
            && !MODEL_ATTRIBUTES.contains(&field)
            && !ANNOTATION_NAMES.contains(&field)
    };
    if snake_case {
        let snake = name.to_snake_case();
        if snake != name && is_field(&snake) {
            return (snake, Some(name));
        }
    }
    if is_field(name) {
        return (name.to_string(), None);
    }
    let mut field: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    field = field.trim_start_matches('_').to_string();
    if field.is_empty() || field.starts_with(|c: char| c.is_ascii_digit()) {
        field.insert_str(0, "field_");
    }
    field.push('_');
    (field, Some(name))
}

fn ty(ty: &Ty) -> String {
    match ty {
        Ty::String => "str".to_string(),
        Ty::Number => "float".to_string(),
        Ty::Integer => "int".to_string(),
        Ty::Boolean => "bool".to_string(),
        Ty::Unknown => "_t.Any".to_string(),
        Ty::File => "FileReference".to_string(),
        Ty::Named(name) => name.to_string(),
        Ty::Array(items) => format!("list[{}]", self::ty(items)),
        Ty::Enum(values) => format!(
            "_t.Literal[{}]",
            values
                .iter()
                .map(|v| json_string(v))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Ty::Const(json) => match serde_json::from_str::<serde_json::Value>(json) {
            Ok(serde_json::Value::Bool(true)) => "_t.Literal[True]".to_string(),
            Ok(serde_json::Value::Bool(false)) => "_t.Literal[False]".to_string(),
            // `Literal` takes no float: the one value, as a range of one.
            Ok(serde_json::Value::Number(n)) if !(n.is_i64() || n.is_u64()) => {
                format!("_t.Annotated[float, _p.Field(ge={json}, le={json})]")
            }
            _ => format!("_t.Literal[{json}]"),
        },
    }
}

/// `"""text"""`, escaped.
fn docstring(text: &str) -> String {
    // Every `"` escaped, so that neither `"""` inside nor a `"` at the end
    // can close the string early.
    let escaped = text.trim().replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"\"\"{escaped}\"\"\"")
}

/// `NAME: TYPE = { "key": Model, ... }`.
fn map<'a>(
    out: &mut String,
    name: &str,
    annotation: &str,
    entries: impl Iterator<Item = (&'a str, &'a str)>,
) {
    let entries: Vec<_> = entries.collect();
    if entries.is_empty() {
        out.push_str(&format!("{name}: {annotation} = {{}}\n"));
        return;
    }
    out.push_str(&format!("{name}: {annotation} = {{\n"));
    for (key, value) in entries {
        out.push_str(&format!("    {}: {value},\n", json_string(key)));
    }
    out.push_str("}\n");
}

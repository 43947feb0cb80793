//! pydantic v2 models (`--lang python`): a model per object type, an
//! `Annotated` union with `Field(discriminator=...)` per discriminated
//! union, a model per tool's arguments and trigger's input, the maps
//! (`TOOL_ARGS`, `RESPONSE_TYPES`, `TRIGGER_INPUTS`) and
//! `parse_tool_args(name, raw)`.
//!
//! Models are strict (no coercion of `"7"` into `7`), as agentc's
//! validator is, but an `integer` takes a float without a fractional part
//! (`1.0`), as JSON Schema does (`_Int`). They ignore unknown keys unless
//! `strict` (then `extra="forbid"`). An optional property is `T | None = None`, so it
//! also accepts `null`: pydantic cannot say "may be absent, not null"
//! without a validator, a documented difference from agentc's validator.
//! Imports are aliased (`_t`, `_p`, `_b`) so that no protocol type name
//! can shadow them; a property named like a type or a builtin that an
//! annotation uses gets a field name of its own ([`Fields`]), and so does
//! a union's discriminator, the same in every variant, which
//! `Field(discriminator=...)` names.

use super::bindings::{self, Bindings, Decl, Prop, Ty};
use super::options::{Options, PYTHON_KEYWORDS as KEYWORDS};
use super::text::{docstring, string_literal, string_literals};
use heck::ToSnakeCase;
use std::collections::{HashMap, HashSet};

/// Names a pydantic model's field cannot take: `BaseModel`'s own
/// attributes and methods (pydantic 2.14: `dir(BaseModel)` without those
/// that start with `_`).
const MODEL_ATTRIBUTES: [&str; 28] = [
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
    "model_validate_strings",
    "parse_file",
    "parse_obj",
    "parse_raw",
    "schema",
    "schema_json",
    "update_forward_refs",
    "validate",
];

/// The builtins the annotations name: a field named like one would shadow
/// it for the fields after it in the class body. So would a field named
/// like one of the module's types, which [`Fields`] adds.
const ANNOTATION_NAMES: [&str; 7] = ["bool", "dict", "float", "int", "list", "str", "type"];

/// What every module declares before the protocol's types: the base model,
/// and `_Int`, an `int` that also takes a float without a fractional part
/// (`1.0`), as JSON Schema's `integer` does, and nothing else (`"7"`,
/// `true`, `1.5` stay refused).
const PRELUDE: &str = "

def _whole(value: object) -> object:
    \"\"\"A float without a fractional part as the int it is.\"\"\"
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


_Int = _t.Annotated[int, _p.BeforeValidator(_whole)]


def _number(value: object) -> object:
    \"\"\"A whole number for a `const`, never a boolean, which Python counts as one.\"\"\"
    if isinstance(value, bool):
        raise ValueError(\"expected a number, not a boolean\")
    return _whole(value)


def _boolean(value: object) -> object:
    \"\"\"A boolean for a `const`, never a number equal to one.\"\"\"
    if not isinstance(value, bool):
        raise ValueError(\"expected a boolean\")
    return value
";

/// The field names of a module: which names a field cannot take, and the
/// one field name each union's discriminator gets in every variant.
struct Fields<'b> {
    snake_case: bool,
    /// The module's types, which annotations name.
    types: HashSet<&'b str>,
    /// Each discriminator's field name, by its wire name.
    discriminators: HashMap<&'b str, String>,
    /// (variant, discriminator): the variants of each union.
    variants: HashSet<(&'b str, &'b str)>,
}

impl<'b> Fields<'b> {
    fn new(bindings: &'b Bindings, options: &Options) -> Fields<'b> {
        let mut types: HashSet<&str> = bindings.types.iter().map(Decl::name).collect();
        types.insert("FileReference");
        let mut fields = Fields {
            snake_case: options.snake_case,
            types,
            discriminators: HashMap::new(),
            variants: HashSet::new(),
        };
        // A discriminator's field name is the same in every variant, so
        // that `Field(discriminator=...)` can name it: chosen once, before
        // any other field, and unlike any other discriminator's.
        let mut chosen: HashSet<String> = HashSet::new();
        for decl in &bindings.types {
            let Decl::Union {
                discriminator,
                variants,
                ..
            } = decl
            else {
                continue;
            };
            for variant in variants {
                fields.variants.insert((variant, discriminator));
            }
            if fields.discriminators.contains_key(discriminator) {
                continue;
            }
            let mut field = fields.name(discriminator);
            while chosen.contains(&field) {
                field.push('_');
            }
            chosen.insert(field.clone());
            fields.discriminators.insert(discriminator, field);
        }
        fields
    }

    /// A property's field name, before two properties of one model that
    /// would get the same are told apart: the wire name when it may be a
    /// field, else (a keyword, a `BaseModel` attribute, a name an
    /// annotation uses, a name that is not an identifier or starts with
    /// `_`) one of its own, with a `_` at the end.
    fn name(&self, name: &str) -> String {
        let is_field = |field: &str| {
            field
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && field.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !KEYWORDS.contains(&field)
                && !MODEL_ATTRIBUTES.contains(&field)
                && !ANNOTATION_NAMES.contains(&field)
                && !self.types.contains(field)
        };
        if self.snake_case {
            let snake = name.to_snake_case();
            if snake != name && is_field(&snake) {
                return snake;
            }
        }
        if is_field(name) {
            return name.to_string();
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
        field
    }

    /// The field names of a model's properties, in order: the
    /// discriminators of the unions it is a variant of first, each its own
    /// field name, then the rest, a later property that would get a field
    /// name already taken getting `_` until it is free. A field is never
    /// named as another property is written on the wire: a model reads a
    /// key by its field name as well as its alias (`validate_by_name`), so
    /// `userId` as `user_id` beside a property `user_id` would read the one
    /// key into both.
    fn of(&self, model: &str, props: &[Prop]) -> Vec<String> {
        let mut names: Vec<Option<String>> = vec![None; props.len()];
        let mut taken: HashSet<String> = HashSet::with_capacity(props.len());
        let wire: HashSet<&str> = props.iter().map(|p| p.name).collect();
        for (i, prop) in props.iter().enumerate() {
            if self.variants.contains(&(model, prop.name))
                && let Some(field) = self.discriminators.get(prop.name)
            {
                taken.insert(field.clone());
                names[i] = Some(field.clone());
            }
        }
        props
            .iter()
            .zip(names)
            .map(|(prop, name)| {
                name.unwrap_or_else(|| {
                    let mut field = self.name(prop.name);
                    while taken.contains(&field)
                        || (field != prop.name && wire.contains(field.as_str()))
                    {
                        field.push('_');
                    }
                    taken.insert(field.clone());
                    field
                })
            })
            .collect()
    }
}

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
    // No protected namespaces: a property named `model_x` is a field
    // (those `BaseModel` has are renamed).
    out.push_str(&format!(
        "class _Model(_p.BaseModel):\n    model_config = _p.ConfigDict(strict=True, extra={}{names}, protected_namespaces=())\n",
        string_literal(extra)
    ));
    out.push_str(PRELUDE);
    let fields = Fields::new(bindings, options);
    if bindings.file {
        out.push_str("\n\n");
        class(
            &mut out,
            &fields,
            "FileReference",
            Some("A file the user uploaded, as the protocol's `file` type carries it."),
            &bindings::file_reference(),
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
                class(&mut out, &fields, name, *description, props);
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
                // pydantic names the discriminator by its field name.
                let field = fields
                    .discriminators
                    .get(discriminator)
                    .map_or(*discriminator, String::as_str);
                out.push_str(&format!(
                    "\n\n{name} = _t.Annotated[_t.Union[{}], _p.Field(discriminator={})]\n",
                    variants.join(", "),
                    string_literal(field)
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
            &fields,
            &entry.type_name,
            entry.description,
            &entry.props,
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
fn class(out: &mut String, fields: &Fields, name: &str, description: Option<&str>, props: &[Prop]) {
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
    for (prop, field) in props.iter().zip(fields.of(name, props)) {
        let mut arguments = Vec::new();
        if prop.optional {
            arguments.push("default=None".to_string());
        }
        if field != prop.name {
            arguments.push(format!("alias={}", string_literal(prop.name)));
        }
        if let Some(description) = prop.description {
            arguments.push(format!("description={}", string_literal(description)));
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

fn ty(ty: &Ty) -> String {
    match ty {
        Ty::String => "str".to_string(),
        Ty::Number => "float".to_string(),
        Ty::Integer => "_Int".to_string(),
        Ty::Boolean => "bool".to_string(),
        Ty::Unknown => "_t.Any".to_string(),
        Ty::File => "FileReference".to_string(),
        Ty::Named(name) => name.to_string(),
        Ty::Array(items) => format!("list[{}]", self::ty(items)),
        Ty::Enum(values) => format!("_t.Literal[{}]", string_literals(values, ", ")),
        Ty::Const(value) => match value {
            serde_json::Value::String(s) => format!("_t.Literal[{}]", string_literal(s)),
            // `Literal` compares with `==`, where `True == 1` and `0 == False`:
            // each side refuses the other's kind first.
            serde_json::Value::Bool(true) => {
                "_t.Annotated[_t.Literal[True], _p.BeforeValidator(_boolean)]".to_string()
            }
            serde_json::Value::Bool(false) => {
                "_t.Annotated[_t.Literal[False], _p.BeforeValidator(_boolean)]".to_string()
            }
            // `Literal` takes no float: the one value, as a range of one.
            serde_json::Value::Number(n) if !(n.is_i64() || n.is_u64()) => {
                format!("_t.Annotated[float, _p.Field(ge={n}, le={n})]")
            }
            serde_json::Value::Number(n) => {
                format!("_t.Annotated[_t.Literal[{n}], _p.BeforeValidator(_number)]")
            }
            _ => "_t.Literal[None]".to_string(),
        },
    }
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
        out.push_str(&format!("    {}: {value},\n", string_literal(key)));
    }
    out.push_str("}\n");
}

//! Properties over generated *valid* protocols. A small model of a protocol
//! ([`Protocol`]: object, array and union types, tools, a handler with a
//! `responseType`) is generated and written out as YAML; the model also
//! says which JSON values each type allows, independently of agentc. Over
//! it: every protocol compiles without errors; every target emits and
//! checks it without a panic, and every JSON Schema in what it emits passes
//! the 2020-12 metaschema; a value built from a type's model is accepted by
//! agentc's validator for the type (and for a tool's arguments), and the
//! same value broken in one place is rejected; and OpenAI's, Anthropic's
//! and Gemini's schemas for a type agree with it. (That a cycle is reported
//! exactly when the type graph has one is `tests/properties.rs`.)

mod common;

use agentc::emit::{self, Output, Selection, Target};
use agentc::validate::Validator;
use agentc::{Code, Diagnostics};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Value, json};
use std::fmt::Write;

// ---------------------------------------------------------------------------
// The model of a protocol

/// A generated protocol: named types (see [`type_name`]; each refers only to
/// types before it, so there is no cycle and every value is finite), tools
/// `tool-0`, ..., and optionally a handler replying with an object type.
#[derive(Clone, Debug)]
struct Protocol {
    types: Vec<Def>,
    tools: Vec<Tool>,
    /// The object type a `next-message` block names as its `responseType`.
    response: Option<usize>,
    /// Write the types last to first, so every use comes before the
    /// definition it names.
    reversed: bool,
}

#[derive(Clone, Debug)]
enum Def {
    Object(Vec<Field>),
    /// A top-level array type, written as a field's keys: its type is a
    /// [`Ty::Array`] (`type: array` with `items:`) or a [`Ty::List`]
    /// (`type: "T[]"`); its name is unused and it is not optional.
    Array(Field),
    /// `anyOf` over object types, each with a required string property
    /// `discriminator` whose `const` is different in every variant.
    Union {
        variants: Vec<usize>,
        discriminator: String,
        description: Option<String>,
    },
}

#[derive(Clone, Debug)]
struct Tool {
    description: String,
    parameters: Vec<Field>,
}

/// A property, a parameter, or (with `optional: false`, its name unused) an
/// array's `items` or an array type.
#[derive(Clone, Debug)]
struct Field {
    name: String,
    ty: Ty,
    optional: bool,
    description: Option<String>,
    /// Written as a flow mapping (`{ type: ..., ... }`) rather than a block.
    flow: bool,
}

#[derive(Clone, Debug)]
enum Ty {
    String(Str),
    /// `number`, with a `const` when given.
    Number(Option<f64>),
    Integer(Option<i64>),
    Boolean(Option<bool>),
    Unknown,
    File,
    /// A type by index. While generating, any number; [`resolve`] makes it
    /// the index of an earlier type.
    Named(usize),
    /// `T[]`, of a type without `enum` or `const`.
    List(Box<Ty>),
    /// `type: array` with `items:`.
    Array(Box<Field>),
}

#[derive(Clone, Debug)]
enum Str {
    Any,
    OneOf(Vec<String>),
    Const(String),
}

/// The first types are named after the built-ins and keys of the types
/// language, which agentc must not mistake for them (a type `String` is not
/// `string`); the rest `T12`, `T13`, ...
const TYPE_NAMES: [&str; 12] = [
    "String", "Object", "Array", "File", "Unknown", "Boolean", "Integer", "Number", "Type",
    "Items", "AnyOf", "Enum",
];

fn type_name(index: usize) -> String {
    match TYPE_NAMES.get(index) {
        Some(name) => name.to_string(),
        None => format!("T{index}"),
    }
}

fn tool_name(index: usize) -> String {
    format!("tool-{index}")
}

// ---------------------------------------------------------------------------
// Generating the model

/// Property names, including the keys of the types language itself (the
/// spec's own `ShoppingCart` has a property `items`; a union's
/// discriminator is often `type`). `anyOf` is left out: it makes the
/// mapping a union, by the spec.
const PROPERTY_NAMES: [&str; 16] = [
    "id",
    "name",
    "count",
    "price",
    "inStock",
    "tags",
    "type",
    "items",
    "description",
    "optional",
    "enum",
    "const",
    "status",
    "kind",
    "discriminator",
    "nested",
];

/// An extra property no generated object declares.
const UNDECLARED: &str = "undeclaredProperty";

/// String values for enums and consts, some of which YAML would read as
/// something else unquoted. None starts with `~`, which [`breaks`] uses to
/// make a string that is not one of them.
const WORDS: [&str; 10] = [
    "low",
    "high",
    "in_stock",
    "creditCard",
    "USD",
    "true",
    "1",
    "null",
    "two words",
    "é",
];

fn text() -> impl Strategy<Value = String> {
    // Quotes, backslashes, `#`, `: `, a line break and non-ASCII, all of
    // which YAML reads specially or must escape.
    "[a-zA-Z0-9 :#'\"\\\\é中\n-]{1,12}"
}

fn string_value() -> impl Strategy<Value = String> {
    "[a-z é\"\\\\]{0,5}"
}

/// A `number` const: quarters (exact in binary, so text and value agree),
/// and a few that YAML writes with an exponent.
fn number_const() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-4000i32..4000).prop_map(|q| f64::from(q) / 4.0),
        prop::sample::select(vec![1e300, -2.5e-7, 1e21, 123456789.0]),
    ]
}

fn str_ty() -> impl Strategy<Value = Str> {
    prop_oneof![
        1 => Just(Str::Any),
        1 => prop::sample::subsequence(WORDS.to_vec(), 1..4)
            .prop_map(|words| Str::OneOf(words.into_iter().map(String::from).collect())),
        1 => prop::sample::select(WORDS.to_vec()).prop_map(|w| Str::Const(w.to_string())),
    ]
}

/// A type without `enum` or `const`: what `T[]` may list.
fn element() -> impl Strategy<Value = Ty> {
    let leaf = prop_oneof![
        1 => Just(Ty::String(Str::Any)),
        1 => Just(Ty::Number(None)),
        1 => Just(Ty::Integer(None)),
        1 => Just(Ty::Boolean(None)),
        1 => Just(Ty::Unknown),
        1 => Just(Ty::File),
        3 => any::<usize>().prop_map(Ty::Named),
    ];
    leaf.prop_recursive(1, 2, 1, |inner| inner.prop_map(|ty| Ty::List(Box::new(ty))))
}

fn ty() -> impl Strategy<Value = Ty> {
    let leaf = prop_oneof![
        3 => str_ty().prop_map(Ty::String),
        1 => prop::option::of(number_const()).prop_map(Ty::Number),
        1 => prop::option::of(any::<i64>()).prop_map(Ty::Integer),
        2 => prop::option::of(any::<bool>()).prop_map(Ty::Boolean),
        1 => Just(Ty::Unknown),
        1 => Just(Ty::File),
        5 => any::<usize>().prop_map(Ty::Named),
    ];
    leaf.prop_recursive(2, 8, 1, |inner| {
        prop_oneof![
            element().prop_map(|ty| Ty::List(Box::new(ty))),
            (inner, prop::option::of(text()), any::<bool>())
                .prop_map(|(ty, description, flow)| array(ty, description, flow)),
        ]
    })
}

fn field() -> impl Strategy<Value = Field> {
    (
        prop::sample::select(PROPERTY_NAMES.to_vec()),
        ty(),
        any::<bool>(),
        prop::option::of(text()),
        any::<bool>(),
    )
        .prop_map(|(name, ty, optional, description, flow)| Field {
            name: name.to_string(),
            ty,
            optional,
            description,
            flow,
        })
}

/// Fields with distinct names (a repeated key is an error).
fn fields(count: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Field>> {
    prop::collection::vec(field(), count).prop_map(|mut fields| {
        let mut seen = std::collections::HashSet::new();
        fields.retain(|f| seen.insert(f.name.clone()));
        fields
    })
}

/// What one step of generation adds: an object type, an array type, or a
/// union together with its variants (declared just before it).
#[derive(Clone, Debug)]
enum Group {
    Object(Vec<Field>),
    Array(Field),
    Union {
        discriminator: String,
        /// Each variant's other properties, and where among them the
        /// discriminator goes.
        variants: Vec<(Vec<Field>, Index)>,
        /// Which of [`WORDS`] the first variant's const is.
        first: usize,
        description: Option<String>,
    },
}

/// `type: array` whose `items` are of `ty`.
fn array(ty: Ty, description: Option<String>, flow: bool) -> Ty {
    Ty::Array(Box::new(Field {
        name: "items".to_string(),
        ty,
        optional: false,
        description,
        flow,
    }))
}

fn group() -> impl Strategy<Value = Group> {
    let array =
        prop_oneof![
            (ty(), prop::option::of(text()), any::<bool>())
                .prop_map(|(ty, description, flow)| array(ty, description, flow)),
            element().prop_map(|ty| Ty::List(Box::new(ty))),
        ];
    let array = (array, prop::option::of(text())).prop_map(|(ty, description)| Field {
        name: String::new(),
        ty,
        optional: false,
        description,
        flow: false,
    });
    prop_oneof![
        4 => fields(0..5).prop_map(Group::Object),
        1 => array.prop_map(Group::Array),
        2 => (
            prop::sample::select(vec!["kind", "type", "status"]),
            prop::collection::vec((fields(0..3), any::<Index>()), 2..4),
            0..WORDS.len(),
            prop::option::of(text()),
        )
            .prop_map(|(discriminator, variants, first, description)| Group::Union {
                discriminator: discriminator.to_string(),
                variants,
                first,
                description,
            }),
    ]
}

fn protocol() -> impl Strategy<Value = Protocol> {
    (
        prop::collection::vec(group(), 1..5),
        prop::collection::vec((text(), fields(0..4)), 1..4),
        any::<Option<Index>>(),
        any::<bool>(),
    )
        .prop_map(|(groups, tools, response, reversed)| {
            let mut types = Vec::new();
            for group in groups {
                add_group(&mut types, group);
            }
            let tools = tools
                .into_iter()
                .map(|(description, mut parameters)| {
                    for parameter in &mut parameters {
                        resolve(&mut parameter.ty, types.len());
                    }
                    Tool {
                        description,
                        parameters,
                    }
                })
                .collect();
            let objects: Vec<usize> = (0..types.len())
                .filter(|&i| matches!(types[i], Def::Object(_)))
                .collect();
            let response = response
                .filter(|_| !objects.is_empty())
                .map(|index| *index.get(&objects));
            Protocol {
                types,
                tools,
                response,
                reversed,
            }
        })
}

fn add_group(types: &mut Vec<Def>, group: Group) {
    match group {
        Group::Object(mut fields) => {
            for field in &mut fields {
                resolve(&mut field.ty, types.len());
            }
            types.push(Def::Object(fields));
        }
        Group::Array(mut field) => {
            resolve(&mut field.ty, types.len());
            types.push(Def::Array(field));
        }
        Group::Union {
            discriminator,
            variants: variant_fields,
            first,
            description,
        } => {
            let mut variants = Vec::new();
            for (j, (mut fields, at)) in variant_fields.into_iter().enumerate() {
                fields.retain(|f| f.name != discriminator);
                for field in &mut fields {
                    resolve(&mut field.ty, types.len());
                }
                // Distinct while there are fewer variants than words.
                let tag = WORDS[(first + j) % WORDS.len()];
                let position = at.index(fields.len() + 1);
                fields.insert(
                    position,
                    Field {
                        name: discriminator.clone(),
                        ty: Ty::String(Str::Const(tag.to_string())),
                        optional: false,
                        description: None,
                        flow: true,
                    },
                );
                variants.push(types.len());
                types.push(Def::Object(fields));
            }
            types.push(Def::Union {
                variants,
                discriminator,
                description,
            });
        }
    }
}

/// Points every [`Ty::Named`] at one of the `before` types declared before
/// it; with none, the reference becomes a `string`.
fn resolve(ty: &mut Ty, before: usize) {
    match ty {
        Ty::Named(_) if before == 0 => *ty = Ty::String(Str::Any),
        Ty::Named(seed) => *seed %= before,
        Ty::List(element) => resolve(element, before),
        Ty::Array(items) => resolve(&mut items.ty, before),
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// Writing the model as YAML

/// A string as a YAML double-quoted scalar: JSON's escapes are YAML's.
fn quoted(text: &str) -> String {
    Value::from(text).to_string()
}

/// An enum or const string: plain where YAML reads it as that string (the
/// spec writes `enum: [low, high]`), quoted otherwise (`"true"`, `"1"`).
fn word(text: &str) -> String {
    if text.chars().all(|c| c.is_ascii_alphabetic() || c == '_') && text != "null" && text != "true"
    {
        text.to_string()
    } else {
        quoted(text)
    }
}

/// The `type:` of a field: a built-in, a type name, `T[]` or `array`.
fn type_text(ty: &Ty) -> String {
    match ty {
        Ty::String(_) => "string".to_string(),
        Ty::Number(_) => "number".to_string(),
        Ty::Integer(_) => "integer".to_string(),
        Ty::Boolean(_) => "boolean".to_string(),
        Ty::Unknown => "unknown".to_string(),
        Ty::File => "file".to_string(),
        Ty::Named(index) => type_name(*index),
        Ty::List(element) => format!("{}[]", type_text(element)),
        Ty::Array(_) => "array".to_string(),
    }
}

/// A field's keys as `(key, YAML value)`; `items` comes back separately.
fn field_keys(field: &Field) -> (Vec<(&'static str, String)>, Option<&Field>) {
    let mut keys = Vec::new();
    let ty = type_text(&field.ty);
    keys.push(("type", if ty.ends_with("[]") { quoted(&ty) } else { ty }));
    match &field.ty {
        Ty::String(Str::OneOf(values)) => {
            let values: Vec<String> = values.iter().map(|v| word(v)).collect();
            keys.push(("enum", format!("[{}]", values.join(", "))));
        }
        Ty::String(Str::Const(value)) => keys.push(("const", word(value))),
        // `{:?}` keeps the `.0` of a whole number, so YAML reads a float.
        Ty::Number(Some(value)) => keys.push(("const", format!("{value:?}"))),
        Ty::Integer(Some(value)) => keys.push(("const", value.to_string())),
        Ty::Boolean(Some(value)) => keys.push(("const", value.to_string())),
        _ => {}
    }
    if let Some(description) = &field.description {
        keys.push(("description", quoted(description)));
    }
    if field.optional {
        keys.push(("optional", "true".to_string()));
    }
    let items = match &field.ty {
        Ty::Array(items) => Some(&**items),
        _ => None,
    };
    (keys, items)
}

fn flow_field(field: &Field) -> String {
    let (keys, items) = field_keys(field);
    let mut parts: Vec<String> = keys.into_iter().map(|(k, v)| format!("{k}: {v}")).collect();
    if let Some(items) = items {
        parts.push(format!("items: {}", flow_field(items)));
    }
    format!("{{ {} }}", parts.join(", "))
}

/// Writes `key:` and the field's mapping at `indent` spaces.
fn write_field(out: &mut String, indent: usize, key: &str, field: &Field) {
    let pad = " ".repeat(indent);
    if field.flow {
        let _ = writeln!(out, "{pad}{key}: {}", flow_field(field));
        return;
    }
    let _ = writeln!(out, "{pad}{key}:");
    write_field_body(out, indent + 2, field);
}

fn write_field_body(out: &mut String, indent: usize, field: &Field) {
    let pad = " ".repeat(indent);
    let (keys, items) = field_keys(field);
    for (key, value) in keys {
        let _ = writeln!(out, "{pad}{key}: {value}");
    }
    if let Some(items) = items {
        write_field(out, indent, "items", items);
    }
}

/// Writes an object's fields below its key, which `out` ends with; an
/// object without fields is `{}` on the key's line.
fn write_fields(out: &mut String, indent: usize, fields: &[Field]) {
    if fields.is_empty() {
        out.truncate(out.trim_end_matches('\n').len());
        out.push_str(" {}\n");
    }
    for field in fields {
        write_field(out, indent, &field.name, field);
    }
}

/// The protocol as YAML: `types:`, `tools:`, one trigger, `agent:` and the
/// trigger's handler, whose `next-message` block names the response type
/// (the shape of `benches/synthetic/mod.rs`, which is known to be valid).
fn to_yaml(protocol: &Protocol) -> String {
    let mut out = String::from("types:\n");
    let mut order: Vec<usize> = (0..protocol.types.len()).collect();
    if protocol.reversed {
        order.reverse();
    }
    for index in order {
        let _ = writeln!(out, "  {}:", type_name(index));
        match &protocol.types[index] {
            Def::Object(fields) => write_fields(&mut out, 4, fields),
            Def::Array(field) => write_field_body(&mut out, 4, field),
            Def::Union {
                variants,
                discriminator,
                description,
            } => {
                let names: Vec<String> = variants.iter().map(|&v| type_name(v)).collect();
                let _ = writeln!(out, "    anyOf: [{}]", names.join(", "));
                let _ = writeln!(out, "    discriminator: {discriminator}");
                if let Some(description) = description {
                    let _ = writeln!(out, "    description: {}", quoted(description));
                }
            }
        }
    }
    out.push_str("\ntools:\n");
    for (i, tool) in protocol.tools.iter().enumerate() {
        let _ = writeln!(out, "  {}:", tool_name(i));
        let _ = writeln!(out, "    description: {}", quoted(&tool.description));
        out.push_str("    parameters:\n");
        write_fields(&mut out, 6, &tool.parameters);
    }
    let tools: Vec<String> = (0..protocol.tools.len()).map(tool_name).collect();
    let _ = write!(
        out,
        "\ntriggers:\n  user-message:\n    input:\n      USER_MESSAGE: {{ type: string }}\n\n\
         agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [{}]\n\n\
         handlers:\n  user-message:\n    Add message:\n      block: add-message\n      role: user\n      \
         prompt: user-message\n      input: [USER_MESSAGE]\n",
        tools.join(", ")
    );
    if let Some(response) = protocol.response {
        let _ = writeln!(
            out,
            "    Reply:\n      block: next-message\n      responseType: {}",
            type_name(response)
        );
    }
    out
}

/// Compiles the protocol's YAML, which must have no errors: the generator
/// writes only valid protocols.
fn compile(protocol: &Protocol) -> (String, agentc::Model) {
    let yaml = to_yaml(protocol);
    let compiled = common::compile_text(&yaml);
    let errors: Vec<String> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("error[{}] {}", d.code.name(), d.message))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{yaml}");
    let model = compiled
        .model
        .expect("a protocol without errors has a model");
    (yaml, model)
}

// ---------------------------------------------------------------------------
// Values the model allows

/// The `file` built-in's properties, as the spec gives them.
fn file_fields() -> Vec<Field> {
    let field = |name: &str, ty: Ty, optional: bool| Field {
        name: name.to_string(),
        ty,
        optional,
        description: None,
        flow: true,
    };
    vec![
        field("id", Ty::String(Str::Any), false),
        field("mediaType", Ty::String(Str::Any), false),
        field("url", Ty::String(Str::Any), false),
        field("filename", Ty::String(Str::Any), true),
        field("size", Ty::Number(None), true),
    ]
}

/// Any JSON, for `unknown`.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        string_value().prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,3}", inner), 0..3)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Each type's values, by index. Built in declaration order, so a type's
/// strategy reuses those of the earlier types it names.
fn type_values(protocol: &Protocol) -> Vec<BoxedStrategy<Value>> {
    let mut built: Vec<BoxedStrategy<Value>> = Vec::new();
    for def in &protocol.types {
        let strategy = match def {
            Def::Object(fields) => object_values(&built, fields),
            Def::Array(field) => values(&built, &field.ty),
            Def::Union { variants, .. } => {
                proptest::strategy::Union::new(variants.iter().map(|&v| built[v].clone())).boxed()
            }
        };
        built.push(strategy);
    }
    built
}

fn values(types: &[BoxedStrategy<Value>], ty: &Ty) -> BoxedStrategy<Value> {
    match ty {
        Ty::String(Str::Any) => string_value().prop_map(Value::from).boxed(),
        Ty::String(Str::OneOf(words)) => prop::sample::select(words.clone())
            .prop_map(Value::from)
            .boxed(),
        Ty::String(Str::Const(word)) => Just(Value::from(word.as_str())).boxed(),
        Ty::Number(Some(number)) => Just(json!(number)).boxed(),
        Ty::Number(None) => prop_oneof![
            any::<i32>().prop_map(Value::from),
            (-1e9f64..1e9).prop_map(Value::from),
        ]
        .boxed(),
        Ty::Integer(Some(integer)) => Just(json!(integer)).boxed(),
        Ty::Integer(None) => any::<i64>().prop_map(Value::from).boxed(),
        Ty::Boolean(Some(b)) => Just(Value::Bool(*b)).boxed(),
        Ty::Boolean(None) => any::<bool>().prop_map(Value::Bool).boxed(),
        Ty::Unknown => any_json().boxed(),
        Ty::File => object_values(types, &file_fields()),
        Ty::Named(index) => types[*index].clone(),
        Ty::List(element) => prop::collection::vec(values(types, element), 0..4)
            .prop_map(Value::Array)
            .boxed(),
        Ty::Array(items) => prop::collection::vec(values(types, &items.ty), 0..4)
            .prop_map(Value::Array)
            .boxed(),
    }
}

/// Objects with these fields: each required one, and each optional one or
/// not.
fn object_values(types: &[BoxedStrategy<Value>], fields: &[Field]) -> BoxedStrategy<Value> {
    let members: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
        .iter()
        .map(|field| {
            let name = field.name.clone();
            let member = values(types, &field.ty).prop_map(move |v| (name.clone(), v));
            if field.optional {
                prop::option::weighted(0.7, member).boxed()
            } else {
                member.prop_map(Some).boxed()
            }
        })
        .collect();
    members
        .prop_map(|members| Value::Object(members.into_iter().flatten().collect()))
        .boxed()
}

/// Which break to make: the rule, then the place, each a number taken
/// modulo the choices there are (shrinking goes to the first).
type Pick = (usize, usize);

/// A protocol, and for each of its types and then each of its tools'
/// parameters a value and which break to make.
type Cases = (Protocol, Vec<(Value, Pick)>, Vec<(Value, Pick)>);

fn protocol_with_values() -> impl Strategy<Value = Cases> {
    protocol().prop_flat_map(|protocol| {
        let types = type_values(&protocol);
        let tools: Vec<_> = protocol
            .tools
            .iter()
            .map(|tool| (object_values(&types, &tool.parameters), any::<Pick>()))
            .collect();
        let types: Vec<_> = types.into_iter().map(|s| (s, any::<Pick>())).collect();
        (Just(protocol), types, tools)
    })
}

// ---------------------------------------------------------------------------
// Breaking a value in one place

/// The one rule a broken value breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// A value of another JSON type (a string for a number, a fraction for
    /// an integer, an object for an array, ...).
    WrongType,
    /// A required property left out.
    MissingProperty,
    /// A property the object does not declare: objects are closed.
    UndeclaredProperty,
    /// A string that is not one of the `enum`'s.
    NotInEnum,
    /// Another string or number than the `const`.
    OtherConst,
    /// The other boolean than a boolean `const`.
    OtherBooleanConst,
    /// A discriminator value no variant of the union has.
    UnknownDiscriminator,
}

#[derive(Clone, Debug)]
enum Edit {
    Replace(Value),
    Remove(String),
    Add(String, Value),
}

/// A change to one place of a value that makes it invalid.
#[derive(Clone, Debug)]
struct Break {
    /// The JSON pointer of the value changed (of the object, for a member
    /// added or removed).
    pointer: String,
    edit: Edit,
    rule: Rule,
}

fn child(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// Every way to break `value`, a value of `ty`, in exactly one place.
fn breaks(protocol: &Protocol, ty: &Ty, value: &Value, at: &str, out: &mut Vec<Break>) {
    let mut push = |edit: Edit, rule: Rule| {
        out.push(Break {
            pointer: at.to_string(),
            edit,
            rule,
        })
    };
    match ty {
        Ty::String(restriction) => {
            push(Edit::Replace(json!(1)), Rule::WrongType);
            match restriction {
                Str::Any => {}
                Str::OneOf(words) => push(
                    Edit::Replace(json!(format!("~{}", words[0]))),
                    Rule::NotInEnum,
                ),
                Str::Const(word) => {
                    push(Edit::Replace(json!(format!("~{word}"))), Rule::OtherConst)
                }
            }
        }
        Ty::Number(constant) => {
            push(Edit::Replace(json!("1")), Rule::WrongType);
            if let Some(number) = constant {
                // Past 2^53 adding one changes nothing; doubling does.
                let other = if number + 1.0 != *number {
                    number + 1.0
                } else {
                    number * 2.0
                };
                push(Edit::Replace(json!(other)), Rule::OtherConst);
            }
        }
        Ty::Integer(constant) => {
            push(Edit::Replace(json!(0.5)), Rule::WrongType);
            if let Some(integer) = constant {
                let other = integer.checked_add(1).unwrap_or(integer - 1);
                push(Edit::Replace(json!(other)), Rule::OtherConst);
            }
        }
        Ty::Boolean(constant) => {
            push(Edit::Replace(json!("true")), Rule::WrongType);
            if let Some(b) = constant {
                push(Edit::Replace(json!(!b)), Rule::OtherBooleanConst);
            }
        }
        Ty::Unknown => {}
        Ty::File => breaks_object(protocol, &file_fields(), value, at, out),
        Ty::Named(index) => match &protocol.types[*index] {
            Def::Object(fields) => breaks_object(protocol, fields, value, at, out),
            Def::Array(field) => breaks(protocol, &field.ty, value, at, out),
            Def::Union {
                variants,
                discriminator,
                ..
            } => {
                let tags: Vec<&str> = variants
                    .iter()
                    .map(|&v| variant_tag(protocol, v, discriminator))
                    .collect();
                let tag = value[discriminator.as_str()].as_str();
                let variant = variants
                    .iter()
                    .zip(&tags)
                    .find(|&(_, &t)| Some(t) == tag)
                    .map(|(&v, _)| v)
                    .expect("a generated union value has one variant's discriminator");
                out.push(Break {
                    pointer: child(at, discriminator),
                    edit: Edit::Replace(json!(format!("~{}", tags.join("~")))),
                    rule: Rule::UnknownDiscriminator,
                });
                breaks(protocol, &Ty::Named(variant), value, at, out);
            }
        },
        Ty::List(element) => breaks_array(protocol, element, value, at, out),
        Ty::Array(items) => breaks_array(protocol, &items.ty, value, at, out),
    }
}

fn breaks_array(protocol: &Protocol, element: &Ty, value: &Value, at: &str, out: &mut Vec<Break>) {
    out.push(Break {
        pointer: at.to_string(),
        edit: Edit::Replace(json!({})),
        rule: Rule::WrongType,
    });
    let items = value
        .as_array()
        .expect("a generated array value is an array");
    for (i, item) in items.iter().enumerate() {
        breaks(protocol, element, item, &child(at, &i.to_string()), out);
    }
}

fn breaks_object(
    protocol: &Protocol,
    fields: &[Field],
    value: &Value,
    at: &str,
    out: &mut Vec<Break>,
) {
    let object = value
        .as_object()
        .expect("a generated object value is an object");
    let mut push = |edit: Edit, rule: Rule| {
        out.push(Break {
            pointer: at.to_string(),
            edit,
            rule,
        })
    };
    push(Edit::Replace(json!("an object")), Rule::WrongType);
    push(
        Edit::Add(UNDECLARED.to_string(), json!(1)),
        Rule::UndeclaredProperty,
    );
    for field in fields.iter().filter(|f| !f.optional) {
        push(Edit::Remove(field.name.clone()), Rule::MissingProperty);
    }
    for field in fields {
        if let Some(member) = object.get(&field.name) {
            breaks(protocol, &field.ty, member, &child(at, &field.name), out);
        }
    }
}

/// The `const` of a union variant's discriminator.
fn variant_tag<'p>(protocol: &'p Protocol, variant: usize, discriminator: &str) -> &'p str {
    let Def::Object(fields) = &protocol.types[variant] else {
        panic!("a union variant is an object type");
    };
    fields
        .iter()
        .find_map(|f| match (&f.ty, f.name == discriminator) {
            (Ty::String(Str::Const(tag)), true) => Some(tag.as_str()),
            _ => None,
        })
        .expect("every variant has the discriminator")
}

fn apply(value: &Value, change: &Break) -> Value {
    let mut broken = value.clone();
    let place = broken
        .pointer_mut(&change.pointer)
        .expect("a break points into the value");
    match &change.edit {
        Edit::Replace(new) => *place = new.clone(),
        Edit::Remove(key) => {
            place
                .as_object_mut()
                .expect("a member is removed from an object")
                .remove(key);
        }
        Edit::Add(key, new) => {
            place
                .as_object_mut()
                .expect("a member is added to an object")
                .insert(key.clone(), new.clone());
        }
    }
    broken
}

/// What a value is checked against: a type, or a tool's arguments (an
/// object of its parameters).
#[derive(Clone, Copy, Debug)]
enum Subject {
    Type(usize),
    Tool(usize),
}

impl Subject {
    fn name(self) -> String {
        match self {
            Subject::Type(index) => type_name(index),
            Subject::Tool(index) => tool_name(index),
        }
    }
}

/// One of the breaks of `value`: `pick.0` chooses the rule among those
/// that can be broken, so rare ones (an enum, a boolean const) are chosen
/// as often as a wrong type, and `pick.1` the place.
fn break_one(protocol: &Protocol, subject: Subject, value: &Value, pick: &Pick) -> (Value, Break) {
    let mut found = Vec::new();
    match subject {
        Subject::Type(index) => breaks(protocol, &Ty::Named(index), value, "", &mut found),
        Subject::Tool(index) => {
            let parameters = &protocol.tools[index].parameters;
            breaks_object(protocol, parameters, value, "", &mut found);
        }
    }
    let mut rules: Vec<Rule> = found.iter().map(|b| b.rule).collect();
    rules.sort_by_key(|&r| r as u8);
    rules.dedup();
    // Objects can always gain an undeclared property and arrays become
    // objects, so every type and parameter list has a break.
    assert!(!rules.is_empty(), "no way to break {value}");
    let rule = rules[pick.0 % rules.len()];
    let places: Vec<&Break> = found.iter().filter(|b| b.rule == rule).collect();
    let change = places[pick.1 % places.len()].clone();
    (apply(value, &change), change)
}

/// `value` as OpenAI's strict schemas take it: every property is required,
/// so an optional one that is left out is `null` instead. Parts of a broken
/// value that no longer fit the type are left as they are.
fn with_nulls(protocol: &Protocol, ty: &Ty, value: &mut Value) {
    match ty {
        Ty::File => fill_object(protocol, &file_fields(), value),
        Ty::Named(index) => match &protocol.types[*index] {
            Def::Object(fields) => fill_object(protocol, fields, value),
            Def::Array(field) => with_nulls(protocol, &field.ty, value),
            Def::Union {
                variants,
                discriminator,
                ..
            } => {
                let tag = value.get(discriminator.as_str()).and_then(Value::as_str);
                if let Some(&variant) = variants
                    .iter()
                    .find(|&&v| Some(variant_tag(protocol, v, discriminator)) == tag)
                {
                    with_nulls(protocol, &Ty::Named(variant), value);
                }
            }
        },
        Ty::List(element) => fill_items(protocol, element, value),
        Ty::Array(items) => fill_items(protocol, &items.ty, value),
        _ => {}
    }
}

fn fill_items(protocol: &Protocol, element: &Ty, value: &mut Value) {
    if let Some(items) = value.as_array_mut() {
        for item in items {
            with_nulls(protocol, element, item);
        }
    }
}

fn fill_object(protocol: &Protocol, fields: &[Field], value: &mut Value) {
    let Some(object) = value.as_object_mut() else {
        return;
    };
    for field in fields {
        match object.get_mut(&field.name) {
            Some(member) => with_nulls(protocol, &field.ty, member),
            None if field.optional => {
                object.insert(field.name.clone(), Value::Null);
            }
            None => {}
        }
    }
}

// ---------------------------------------------------------------------------
// Where each target puts its schemas

/// What can be emitted for a target, by the CLI flag it answers to:
/// `Selection::All`, each type, each tool, and each object type as a
/// structured-output response, as far as the target takes them.
fn selections<'a>(
    target: Target,
    types: &'a [String],
    tools: &'a [String],
    objects: &'a [String],
) -> Vec<Selection<'a>> {
    let mut out = vec![Selection::All];
    let takes_types = matches!(
        target,
        Target::JsonSchema | Target::OpenAi | Target::Anthropic | Target::Gemini
    );
    let takes_responses = matches!(target, Target::OpenAi | Target::Anthropic | Target::Gemini);
    if takes_types {
        out.extend(types.iter().map(|t| Selection::Type(t)));
    }
    out.extend(tools.iter().map(|t| Selection::Tool(t)));
    if takes_responses {
        out.extend(objects.iter().map(|t| Selection::Response(t)));
    }
    out
}

/// The JSON Schemas in one output, found where `docs/targets.md` says the
/// target puts them; it panics when one is not there, so a change in a
/// target's wrapping cannot leave its schemas unchecked.
///
/// Every schema agentc emits claims to be JSON Schema 2020-12, so all of
/// them are checked against its metaschema:
/// - `json-schema`: the whole document, which declares `$schema` 2020-12.
/// - `openai`: `function.parameters`, `json_schema.schema` and a type's
///   schema, in OpenAI's strict subset of JSON Schema.
/// - `anthropic`: `input_schema`, the output format's `schema` and a type's
///   schema, in Anthropic's strict subset.
/// - `gemini`: `parametersJsonSchema` and `responseJsonSchema`, which
///   Gemini reads as JSON Schema (agentc does not emit the legacy OpenAPI
///   `parameters`/`responseSchema`), within Gemini's keyword subset plus
///   `propertyOrdering`, an extension keyword the metaschema allows.
/// - `ag-ui`, `aap`: each tool's `parameters`.
/// - `tools-prompt`: the JSON after each `- args_schema: ` in the text.
///
/// The wrappers around the schemas (tool lists, `response_format`) are the
/// consumers' request shapes, not schemas, and are not checked here.
fn schemas_in(target: Target, selection: Selection, output: Output) -> Vec<Value> {
    let json = match output {
        Output::Json(json) => json,
        Output::Printed(text) => serde_json::from_str(&text).expect("printed JSON"),
        Output::Text(text) => {
            assert_eq!(target, Target::ToolsPrompt, "only the tools prompt is text");
            return text
                .lines()
                .filter_map(|line| line.strip_prefix("- args_schema: "))
                .map(|schema| serde_json::from_str(schema).expect("args_schema is JSON"))
                .collect();
        }
    };
    let at = |value: &Value, pointer: &str| -> Value {
        value
            .pointer(pointer)
            .unwrap_or_else(|| panic!("{} output has no `{pointer}`: {value:#}", target.name()))
            .clone()
    };
    let each = |list: &Value, pointer: &str| -> Vec<Value> {
        list.as_array()
            .unwrap_or_else(|| panic!("{} output is not a list: {list:#}", target.name()))
            .iter()
            .map(|entry| at(entry, pointer))
            .collect()
    };
    let tool_schema = match target {
        Target::JsonSchema => "",
        Target::OpenAi => "/function/parameters",
        Target::Anthropic => "/input_schema",
        Target::Gemini => "/parametersJsonSchema",
        Target::AgUi | Target::Aap => "/parameters",
        Target::ToolsPrompt => unreachable!("the tools prompt is text"),
    };
    match (target, selection) {
        (Target::JsonSchema, _) | (_, Selection::Type(_)) => vec![json],
        (Target::Gemini, Selection::All) => each(&at(&json, "/functionDeclarations"), tool_schema),
        (_, Selection::All) => each(&json, tool_schema),
        (_, Selection::Tool(_)) => vec![at(&json, tool_schema)],
        (Target::OpenAi, Selection::Response(_)) => vec![at(&json, "/json_schema/schema")],
        (Target::Anthropic, Selection::Response(_)) => vec![at(&json, "/schema")],
        (Target::Gemini, Selection::Response(_)) => vec![at(&json, "/responseJsonSchema")],
        (_, Selection::Response(_)) => panic!("{} has no structured output", target.name()),
    }
}

/// How many schemas an output holds: one per tool for every tool, one
/// document for all types, one otherwise.
fn expected_schemas(target: Target, selection: Selection, tools: usize) -> usize {
    match (target, selection) {
        (Target::JsonSchema, _) => 1,
        (_, Selection::All) => tools,
        _ => 1,
    }
}

fn names(protocol: &Protocol) -> (Vec<String>, Vec<String>, Vec<String>) {
    let types = (0..protocol.types.len()).map(type_name).collect();
    let tools = (0..protocol.tools.len()).map(tool_name).collect();
    let objects = (0..protocol.types.len())
        .filter(|&i| matches!(protocol.types[i], Def::Object(_)))
        .map(type_name)
        .collect();
    (types, tools, objects)
}

/// The schema `target` emits for type `name`.
fn type_schema(model: &agentc::Model, target: Target, name: &str) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::default();
    let output = emit::emit(model, target, Selection::Type(name), &mut diags)
        .unwrap_or_else(|e| panic!("{} emits type `{name}`: {e}", target.name()));
    let Output::Json(schema) = output else {
        panic!("{} emits a type as JSON", target.name());
    };
    (schema, diags)
}

// ---------------------------------------------------------------------------
// The properties

/// Every target emits everything it takes (all tools, each tool, each type,
/// each response) and checks the protocol without a panic or a usage error,
/// and every JSON Schema in what it emits passes the 2020-12 metaschema and
/// compiles as a validator (so every `$ref` resolves).
fn check_emitted_schemas(protocol: &Protocol) {
    let (yaml, model) = compile(protocol);
    let (types, tools, objects) = names(protocol);
    for target in Target::ALL {
        for selection in selections(target, &types, &tools, &objects) {
            let what = format!("{} {selection:?}", target.name());
            let mut diags = Diagnostics::default();
            let output = emit::emit(&model, target, selection, &mut diags)
                .unwrap_or_else(|e| panic!("{what}: {e}\n{yaml}"));
            // A target that reports an error stops writing its output (it
            // is never used): only what it emits without one is judged.
            if diags.has_errors() {
                continue;
            }
            let schemas = schemas_in(target, selection, output);
            let expected = expected_schemas(target, selection, tools.len());
            assert_eq!(schemas.len(), expected, "{what}\n{yaml}");
            for schema in schemas {
                if let Err(error) = jsonschema::draft202012::meta::validate(&schema) {
                    panic!(
                        "{what}: the 2020-12 metaschema rejects the schema: {error}\n{schema:#}\n{yaml}"
                    );
                }
                if let Err(error) = jsonschema::draft202012::new(&schema) {
                    panic!("{what}: the schema does not compile: {error}\n{schema:#}\n{yaml}");
                }
            }
        }
        emit::check(&model, target, &mut Diagnostics::default());
    }
}

/// Each value, built from its subject's model, is accepted by the validator
/// agentc builds for the subject (from its `json-schema` schema), and the
/// value broken as its pick says is rejected.
fn check_values(protocol: &Protocol, types: &[(Value, Pick)], tools: &[(Value, Pick)]) {
    let (yaml, model) = compile(protocol);
    let types = types
        .iter()
        .enumerate()
        .map(|(i, case)| (Subject::Type(i), case));
    let tools = tools
        .iter()
        .enumerate()
        .map(|(i, case)| (Subject::Tool(i), case));
    for (subject, (value, pick)) in types.chain(tools) {
        let name = subject.name();
        let validator = match subject {
            Subject::Type(_) => Validator::for_type(&model, &name),
            Subject::Tool(_) => Validator::for_tool(&model, &name),
        }
        .unwrap_or_else(|e| panic!("a validator for `{name}`: {e}"));
        let schema = validator.schema();
        assert!(
            validator.is_valid(value),
            "`{name}` rejects a value it allows: {value}\n{:?}\nschema: {schema:#}\n{yaml}",
            validator.validate(value).err(),
        );
        let (broken, change) = break_one(protocol, subject, value, pick);
        assert!(
            !validator.is_valid(&broken),
            "`{name}` accepts a value broken by {change:?}: {broken}\nschema: {schema:#}\n{yaml}",
        );
    }
}

/// OpenAI's, Anthropic's and Gemini's schemas for each type accept the
/// value (for OpenAI with `null` for each optional property left out) and
/// reject the broken one, unless the target loosens the type as
/// `docs/targets.md` says and has warned so (`target-loosened`).
fn check_provider_values(protocol: &Protocol, types: &[(Value, Pick)]) {
    let (yaml, model) = compile(protocol);
    for (index, (value, pick)) in types.iter().enumerate() {
        let name = type_name(index);
        let ty = Ty::Named(index);
        let (broken, change) = break_one(protocol, Subject::Type(index), value, pick);
        for target in [Target::OpenAi, Target::Anthropic, Target::Gemini] {
            let (schema, diags) = type_schema(&model, target, &name);
            let validator = Validator::from_schema(schema.clone())
                .unwrap_or_else(|e| panic!("{} schema for `{name}`: {e}", target.name()));
            let (mut value, mut broken) = (value.clone(), broken.clone());
            if target == Target::OpenAi {
                with_nulls(protocol, &ty, &mut value);
                with_nulls(protocol, &ty, &mut broken);
            }
            assert!(
                validator.is_valid(&value),
                "{} rejects a value `{name}` allows: {value}\n{:?}\nschema: {schema:#}\n{yaml}",
                target.name(),
                validator.validate(&value).err(),
            );
            // Gemini's `enum` takes no booleans, so a boolean `const` is
            // left out of its schema, with a warning.
            let loosened = target == Target::Gemini
                && change.rule == Rule::OtherBooleanConst
                && diags
                    .into_vec()
                    .iter()
                    .any(|d| d.code == Code::TargetLoosened);
            assert!(
                loosened || !validator.is_valid(&broken),
                "{} accepts a value of `{name}` broken by {change:?}: {broken}\nschema: {schema:#}\n{yaml}",
                target.name(),
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A generated protocol compiles without errors, and every JSON Schema
    /// every target emits for it passes the 2020-12 metaschema (see
    /// [`check_emitted_schemas`] and, for where the schemas are,
    /// [`schemas_in`]).
    #[test]
    fn every_emitted_schema_passes_the_metaschema(protocol in protocol()) {
        check_emitted_schemas(&protocol);
    }

    /// A value built from a type's model is accepted by the validator
    /// agentc builds for the type, and the same value broken in one place
    /// (see [`Rule`]) is rejected; likewise for each tool's arguments.
    #[test]
    fn values_of_a_type_are_accepted_and_broken_ones_rejected(
        (protocol, types, tools) in protocol_with_values()
    ) {
        check_values(&protocol, &types, &tools);
    }

    /// Each provider's schema for a type means what the `json-schema` one
    /// means, as far as `docs/targets.md` says: it accepts the values the
    /// type allows and rejects the broken ones.
    #[test]
    fn provider_schemas_accept_and_reject_what_the_type_does(
        (protocol, types, _tools) in protocol_with_values()
    ) {
        check_provider_values(&protocol, &types);
    }
}

/// Shrunk from a failure of the value properties: past 2^53, adding one to
/// a `number` const gives the const again, so the "broken" value was valid.
/// A const of `1e21` (written `1e21` in the YAML) is kept exactly, and
/// another value is rejected by every target.
#[test]
fn a_large_number_const_is_kept_and_enforced() {
    let protocol = Protocol {
        types: vec![Def::Object(vec![Field {
            name: "count".to_string(),
            ty: Ty::Number(Some(1e21)),
            optional: false,
            description: None,
            flow: true,
        }])],
        tools: Vec::new(),
        response: None,
        reversed: false,
    };
    assert!(to_yaml(&protocol).contains("count: { type: number, const: 1e21 }"));
    let value = json!({"count": 1e21});
    // The rules this value can break, in order: `WrongType`,
    // `MissingProperty`, `UndeclaredProperty`, `OtherConst`.
    let pick = (3, 0);
    let (broken, change) = break_one(&protocol, Subject::Type(0), &value, &pick);
    assert_eq!(change.rule, Rule::OtherConst);
    assert_eq!(broken, json!({"count": 2e21}));
    let cases = [(value, pick)];
    check_values(&protocol, &cases, &[]);
    check_provider_values(&protocol, &cases);
}

//! What a protocol's bindings declare, whatever the language: every type
//! in dependency order, the arguments of each tool, the reply types, and
//! the inputs, with the names each gets. Built once from the lowering
//! (`emit::lower`, references kept), so the printers agree with the
//! schemas agentc emits, and checked once for names a language cannot
//! take.

use crate::diagnostic::{Code, Diagnostic};
use crate::emit::lower::{Kind, Lowering, Mode, Primitive, Property, Schema};
use crate::model::{Model, TypeId};
use crate::span::Span;
use crate::syntax::{BlockKind, Field, TypeDefKind};
use heck::ToUpperCamelCase;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// A type as the printers write it.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty<'m> {
    String,
    Number,
    Integer,
    Boolean,
    /// `unknown`: any JSON value.
    Unknown,
    /// The `file` built-in: `FileReference`.
    File,
    /// A declared type, by name.
    Named(&'m str),
    Array(Box<Ty<'m>>),
    /// A string `enum`: one of these values.
    Enum(Vec<&'m str>),
    /// A `const`: exactly this value (a string, a number, a boolean; `null`
    /// for a number JSON cannot hold).
    Const(Value),
}

/// An object's property, or a tool's parameter, or an input.
#[derive(Clone, Debug)]
pub struct Prop<'m> {
    /// The wire name, as written.
    pub name: &'m str,
    pub optional: bool,
    pub ty: Ty<'m>,
    pub description: Option<&'m str>,
}

/// A declared type.
#[derive(Clone, Debug)]
pub enum Decl<'m> {
    Object {
        name: &'m str,
        description: Option<&'m str>,
        props: Vec<Prop<'m>>,
    },
    /// A top-level array type.
    Array {
        name: &'m str,
        description: Option<&'m str>,
        items: Ty<'m>,
    },
    /// A discriminated union of object types.
    Union {
        name: &'m str,
        description: Option<&'m str>,
        discriminator: &'m str,
        variants: Vec<&'m str>,
    },
}

impl Decl<'_> {
    pub fn name(&self) -> &str {
        match self {
            Decl::Object { name, .. } | Decl::Array { name, .. } | Decl::Union { name, .. } => name,
        }
    }
}

/// A tool's arguments, a trigger's input or the session's input: an object
/// named after it.
#[derive(Clone, Debug)]
pub struct Entry<'m> {
    /// The tool's or trigger's name (the key of the maps).
    pub key: &'m str,
    /// The generated type's name (`GetOrderArgs`, `UserMessageInput`).
    pub type_name: String,
    pub description: Option<&'m str>,
    pub props: Vec<Prop<'m>>,
}

/// Everything one protocol's bindings declare.
#[derive(Clone, Debug, Default)]
pub struct Bindings<'m> {
    /// Every declared type, each after the types it uses, otherwise in
    /// declaration order.
    pub types: Vec<Decl<'m>>,
    /// Whether a `file` is used anywhere (`FileReference` is declared).
    pub file: bool,
    pub tools: Vec<Entry<'m>>,
    /// The names of the types `next-message` blocks reply with, in the
    /// order first used.
    pub responses: Vec<&'m str>,
    pub triggers: Vec<Entry<'m>>,
    /// The protocol's `input:`, when it has one.
    pub session: Option<Entry<'m>>,
}

/// The `file` built-in's object, as `FileReference` declares it: from the
/// lowering's one list of its properties.
pub fn file_reference() -> Vec<Prop<'static>> {
    crate::emit::lower::FILE_PROPERTIES
        .iter()
        .map(|&(name, optional, ty)| Prop {
            name,
            optional,
            ty: match ty {
                Primitive::String => Ty::String,
                Primitive::Number => Ty::Number,
                Primitive::Integer => Ty::Integer,
                Primitive::Boolean => Ty::Boolean,
            },
            description: None,
        })
        .collect()
}

/// Names the generated code declares itself, which a protocol's type may
/// not take.
pub const GENERATED_NAMES: [&str; 11] = [
    "FileReference",
    "ToolArgs",
    "ResponseTypes",
    "PartialResponseTypes",
    "TriggerInputs",
    "SessionInput",
    "DeepPartial",
    "TypedToolHandlers",
    "ToolHandler",
    "ToolHandlerMap",
    "Equals",
];

/// Names of TypeScript's and JavaScript's globals that a declared type
/// would shadow in the generated module, and Python's capitalised
/// keywords.
pub const GLOBAL_NAMES: [&str; 15] = [
    "Array", "Boolean", "Date", "Error", "Map", "Number", "Object", "Promise", "Record", "Set",
    "String", "Symbol", "None", "True", "False",
];

/// The other names the generated modules declare or import at their top
/// level (none of them PascalCase, so no type can take one): a derived
/// name is checked against them too.
pub const MODULE_NAMES: [&str; 20] = [
    "z",
    "__T",
    "assertType",
    "toolHandlers",
    "toolArgs",
    "responseTypes",
    "triggerInputs",
    "annotations",
    "_b",
    "_t",
    "_p",
    "_Model",
    "_Int",
    "_whole",
    "_number",
    "_boolean",
    "TOOL_ARGS",
    "RESPONSE_TYPES",
    "TRIGGER_INPUTS",
    "parse_tool_args",
];

/// Whether a type may be declared under `name` in every language: PascalCase
/// (an ASCII capital, then ASCII letters and digits), as the types
/// language requires (`invalid-type-name`, which a configuration can turn
/// off; the generated code cannot).
pub fn is_type_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

/// The name derived from a tool's or trigger's `name`: its words in
/// UpperCamelCase, then `suffix` (`get-order` → `GetOrderArgs`). A
/// character that is not an ASCII letter or digit cannot be in an
/// identifier in every language: it separates words and is dropped
/// (`über-cart` → `BerCartArgs`). A name that would start with a digit
/// starts with `prefix` (`3d-render` → `Tool3dRenderArgs`).
pub fn derived_name(name: &str, prefix: &str, suffix: &str) -> String {
    let words: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect();
    let camel = words.to_upper_camel_case();
    if camel.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{prefix}{camel}{suffix}")
    } else {
        format!("{camel}{suffix}")
    }
}

impl<'m> Bindings<'m> {
    /// The bindings of a protocol without errors, or the names that make
    /// them impossible (`gen-reserved-name`, `gen-name-collision`).
    pub fn new(model: &'m Model) -> Result<Bindings<'m>, Vec<Diagnostic>> {
        let lowering = Lowering::new(model, Mode::Refs);
        let mut bindings = Bindings::default();
        let mut builder = Builder {
            bindings: &mut bindings,
        };
        for id in dependency_order(model) {
            let decl = builder.decl(model, lowering, id);
            builder.bindings.types.push(decl);
        }
        for tool in &model.protocol.tools {
            let object = lowering.object(&tool.parameters, tool.name.span);
            let props = builder.props(&object);
            builder.bindings.tools.push(Entry {
                key: &tool.name.text,
                type_name: derived_name(&tool.name.text, "Tool", "Args"),
                description: tool
                    .presentation
                    .description
                    .as_ref()
                    .map(|d| d.text.as_str()),
                props,
            });
        }
        let mut responses = HashSet::new();
        for block in model.protocol.blocks() {
            if block.kind != Some(BlockKind::NextMessage) {
                continue;
            }
            if let Some(name) = block.response_type.as_ref().and_then(|t| match &t.kind {
                crate::syntax::TypeExprKind::Named(name) => Some(name.as_str()),
                _ => None,
            }) && responses.insert(name)
            {
                builder.bindings.responses.push(name);
            }
        }
        for trigger in &model.protocol.triggers {
            let props = builder.inputs(lowering, &trigger.input, trigger.name.span);
            builder.bindings.triggers.push(Entry {
                key: &trigger.name.text,
                type_name: derived_name(&trigger.name.text, "Trigger", "Input"),
                description: trigger.description.as_ref().map(|d| d.text.as_str()),
                props,
            });
        }
        if !model.protocol.input.is_empty() {
            let span = model
                .protocol
                .section("input")
                .map_or(Span::empty(0), |n| n.span);
            let props = builder.inputs(lowering, &model.protocol.input, span);
            builder.bindings.session = Some(Entry {
                key: "input",
                type_name: "SessionInput".to_string(),
                description: None,
                props,
            });
        }
        let problems = names(model, &bindings);
        if problems.is_empty() {
            Ok(bindings)
        } else {
            Err(problems)
        }
    }
}

struct Builder<'b, 'm> {
    bindings: &'b mut Bindings<'m>,
}

impl<'m> Builder<'_, 'm> {
    fn decl(&mut self, model: &'m Model, lowering: Lowering<'m>, id: TypeId) -> Decl<'m> {
        let def = model.def(id);
        let name = def.name.text.as_str();
        let schema = lowering.definition(id);
        match (&def.kind, &schema.kind) {
            (TypeDefKind::Union(union), Kind::Union(variants)) => Decl::Union {
                name,
                description: schema.description,
                discriminator: union.discriminator.as_ref().map_or("", |d| d.text.as_str()),
                variants: variants
                    .iter()
                    .filter_map(|v| match v.kind {
                        Kind::Ref(name) => Some(name),
                        _ => None,
                    })
                    .collect(),
            },
            (_, Kind::Object(_)) => Decl::Object {
                name,
                description: schema.description,
                props: self.props(&schema),
            },
            (_, _) => Decl::Array {
                name,
                description: schema.description,
                items: match &schema.kind {
                    Kind::Array(items) => self.ty(items),
                    _ => self.ty(&schema),
                },
            },
        }
    }

    fn props(&mut self, object: &Schema<'m>) -> Vec<Prop<'m>> {
        let Kind::Object(properties) = &object.kind else {
            return Vec::new();
        };
        properties.iter().map(|p| self.prop(p)).collect()
    }

    fn prop(&mut self, property: &Property<'m>) -> Prop<'m> {
        Prop {
            name: property.name,
            optional: property.optional,
            ty: self.ty(&property.schema),
            description: property.schema.description,
        }
    }

    /// Inputs: one with a `default` may be left out.
    fn inputs(&mut self, lowering: Lowering<'m>, fields: &'m [Field], span: Span) -> Vec<Prop<'m>> {
        let object = lowering.object(fields, span);
        let mut props = self.props(&object);
        for (prop, field) in props.iter_mut().zip(fields) {
            prop.optional |= field.default.is_some();
        }
        props
    }

    fn ty(&mut self, schema: &Schema<'m>) -> Ty<'m> {
        match &schema.kind {
            Kind::Any => Ty::Unknown,
            Kind::File => {
                self.bindings.file = true;
                Ty::File
            }
            Kind::Primitive {
                ty,
                enum_values,
                constant,
            } => match (constant, enum_values) {
                (Some(constant), _) => Ty::Const(crate::emit::schema::literal_json(constant)),
                (None, Some(values)) => {
                    Ty::Enum(values.iter().map(|v| v.scalar.text.as_ref()).collect())
                }
                (None, None) => match ty {
                    Primitive::String => Ty::String,
                    Primitive::Number => Ty::Number,
                    Primitive::Integer => Ty::Integer,
                    Primitive::Boolean => Ty::Boolean,
                },
            },
            Kind::Array(items) => Ty::Array(Box::new(self.ty(items))),
            Kind::Ref(name) => Ty::Named(name),
            // Objects and unions are always named types: an inline one
            // does not occur in a checked protocol.
            Kind::Object(_) | Kind::Union(_) => Ty::Unknown,
        }
    }
}

/// Every declared type after the types it uses, otherwise in declaration
/// order: a depth-first walk in declaration order, without recursion, so
/// a chain of thousands of types costs no stack.
fn dependency_order(model: &Model) -> Vec<TypeId> {
    let count = model.protocol.types.len();
    let mut placed = vec![false; count];
    let mut on_stack = vec![false; count];
    let mut order = Vec::with_capacity(count);
    for start in 0..count {
        if placed[start] {
            continue;
        }
        // (type, whether its dependencies were pushed)
        let mut stack = vec![(start, false)];
        while let Some((i, expanded)) = stack.pop() {
            if placed[i] {
                continue;
            }
            if expanded {
                placed[i] = true;
                on_stack[i] = false;
                order.push(TypeId(i as u32));
                continue;
            }
            on_stack[i] = true;
            stack.push((i, true));
            let mut uses: Vec<usize> = crate::model::references(&model.protocol.types[i])
                .into_iter()
                .filter_map(|(name, _)| model.lookup(name))
                .map(TypeId::index)
                .filter(|&j| !placed[j] && !on_stack[j])
                .collect();
            uses.dedup();
            // Pushed in reverse so the first used is placed first.
            for j in uses.into_iter().rev() {
                stack.push((j, false));
            }
        }
    }
    order
}

/// Names the generated code cannot declare: a type named like a global or
/// a generated declaration, or not PascalCase, and a derived name
/// (`GetOrderArgs`) that is already a name of the generated code (a type,
/// a declaration of its own, another derived name).
fn names(model: &Model, bindings: &Bindings) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for def in &model.protocol.types {
        let name = def.name.text.as_str();
        if !is_type_name(name) {
            problems.push(
                Diagnostic::new(
                    Code::GenReservedName,
                    def.name.span,
                    format!("a type named `{name}` cannot be generated: a type's name is an identifier in every language, and only a PascalCase name is one everywhere"),
                )
                .with_help(match derived_name(name, "Type", "") {
                    pascal if is_type_name(&pascal) => format!("rename the type to `{pascal}`"),
                    _ => "rename the type: an ASCII capital letter, then ASCII letters and digits".to_string(),
                }),
            );
        } else if GENERATED_NAMES.contains(&name) || GLOBAL_NAMES.contains(&name) {
            problems.push(
                Diagnostic::new(
                    Code::GenReservedName,
                    def.name.span,
                    format!("a type named `{name}` cannot be generated: the generated code declares or uses `{name}` itself"),
                )
                .with_help(format!("rename the type (`{name}Data`, say)")),
            );
        }
    }
    // Each name of the generated code, with what it is (`None`: the
    // code's own).
    let mut taken: HashMap<&str, Option<String>> = GENERATED_NAMES
        .iter()
        .chain(&GLOBAL_NAMES)
        .chain(&MODULE_NAMES)
        .map(|&name| (name, None))
        .collect();
    for def in &model.protocol.types {
        taken
            .entry(def.name.text.as_str())
            .or_insert_with(|| Some(format!("the type `{}`", def.name.text)));
    }
    let derived =
        bindings
            .tools
            .iter()
            .zip(&model.protocol.tools)
            .map(|(entry, tool)| (entry, tool.name.span, format!("tool `{}`", entry.key)))
            .chain(bindings.triggers.iter().zip(&model.protocol.triggers).map(
                |(entry, trigger)| (entry, trigger.name.span, format!("trigger `{}`", entry.key)),
            ));
    for (entry, span, what) in derived {
        let name = entry.type_name.as_str();
        match taken.get(name) {
            Some(Some(other)) => problems.push(
                Diagnostic::new(
                    Code::GenNameCollision,
                    span,
                    format!("the {what} would be generated as `{name}`, which is already {other}"),
                )
                .with_help("rename one of them"),
            ),
            Some(None) => problems.push(
                Diagnostic::new(
                    Code::GenNameCollision,
                    span,
                    format!("the {what} would be generated as `{name}`, a name the generated code declares or uses itself"),
                )
                .with_help(format!("rename the {}", what.split(' ').next().unwrap_or("tool"))),
            ),
            None => {
                taken.insert(name, Some(format!("the {what}")));
            }
        }
    }
    // A tool is a key of the handlers' object: one named like a member
    // every JavaScript object has is not a key TypeScript can type there
    // (`constructor` is `Function` on any object literal), and
    // `__proto__` sets the object's prototype instead.
    for (entry, tool) in bindings.tools.iter().zip(&model.protocol.tools) {
        if OBJECT_MEMBERS.contains(&entry.key) {
            problems.push(
                Diagnostic::new(
                    Code::GenReservedName,
                    tool.name.span,
                    format!(
                        "a tool named `{}` cannot be generated: every JavaScript object has a member of that name, so `toolHandlers()` could not take its handler",
                        entry.key
                    ),
                )
                .with_help(format!("rename the tool (`{}-tool`, say)", entry.key)),
            );
        }
    }
    crate::order(&mut problems);
    problems
}

/// The members of `Object.prototype`, which every JavaScript object has
/// (Node 22's own properties of it).
pub const OBJECT_MEMBERS: [&str; 12] = [
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

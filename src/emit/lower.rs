//! The shared lowering every target starts from: the checked model's types,
//! tools and response types as a schema tree in which every node keeps the
//! span of the YAML node responsible for it, so a target can point at the
//! exact line when it cannot express something or a provider limit is
//! crossed.
//!
//! Two shapes come out of it. [`Mode::Refs`] keeps custom types as
//! references (the `json-schema` target's `$defs`); [`Mode::Inline`]
//! replaces every reference by the type it names, which is always possible
//! because a checked protocol has no recursive types. Inlining can multiply
//! a schema's size (a type used twice by a type used twice...), so
//! [`Sizes`] computes each schema's inlined size first, in linear time, and
//! a target refuses one larger than [`MAX_INLINED_NODES`].

use crate::model::{Model, TypeId};
use crate::span::Span;
use crate::syntax::{Builtin, Field, Literal, TypeDefKind, TypeExpr, TypeExprKind};

/// The most schema nodes one inlined schema may have. Far above anything a
/// provider accepts (OpenAI allows 5,000 properties in all), it stops a
/// small protocol from expanding into gigabytes.
pub const MAX_INLINED_NODES: u64 = 100_000;

/// The deepest one inlined schema may nest, in schema nodes. Providers stop
/// far sooner (OpenAI at 10 levels); JSON parsers commonly stop at 128
/// levels of brackets, and each schema level takes two or three.
pub const MAX_INLINED_DEPTH: u64 = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Custom types stay references, for a document with `$defs`.
    Refs,
    /// Custom types are written out where they are used.
    Inline,
}

/// A node of the lowered schema.
#[derive(Clone, Debug)]
pub struct Schema<'m> {
    pub kind: Kind<'m>,
    pub description: Option<&'m str>,
    /// The YAML node this schema comes from: a type expression, or the name
    /// of a definition or tool.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Kind<'m> {
    /// `unknown`: any JSON value.
    Any,
    /// The `file` built-in: a reference to an uploaded file.
    File,
    /// `string`, `number`, `integer` or `boolean`, with an `enum` (strings
    /// only) or a `const`.
    Primitive {
        ty: Primitive,
        enum_values: Option<&'m [Literal]>,
        constant: Option<&'m Literal>,
    },
    Array(Box<Schema<'m>>),
    Object(Vec<Property<'m>>),
    /// A discriminated union: every variant is an object.
    Union(Vec<Schema<'m>>),
    /// A custom type, by name, in [`Mode::Refs`] only.
    Ref(&'m str),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    String,
    Number,
    Integer,
    Boolean,
}

impl Primitive {
    pub fn name(self) -> &'static str {
        match self {
            Primitive::String => "string",
            Primitive::Number => "number",
            Primitive::Integer => "integer",
            Primitive::Boolean => "boolean",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Property<'m> {
    pub name: &'m str,
    /// The property's key, or for the `file` built-in's properties the
    /// `file` that brings them.
    pub name_span: Span,
    pub optional: bool,
    pub schema: Schema<'m>,
}

impl<'m> Schema<'m> {
    /// The `file` built-in as the object it stands for, at `span`.
    pub fn file_object(span: Span, description: Option<&'m str>) -> Schema<'m> {
        let properties = FILE_PROPERTIES
            .iter()
            .map(|&(name, optional, ty)| Property {
                name,
                name_span: span,
                optional,
                schema: Schema {
                    kind: Kind::Primitive {
                        ty,
                        enum_values: None,
                        constant: None,
                    },
                    description: None,
                    span,
                },
            })
            .collect();
        Schema {
            kind: Kind::Object(properties),
            description,
            span,
        }
    }

    /// Calls `visit` on this schema and every schema and property below it,
    /// parents first, with each one's depth: the root is at depth 1, and
    /// each object or array adds a level (a union's variants stand at the
    /// union's depth). The `file` built-in is visited as its object.
    pub fn walk(&self, visit: &mut impl FnMut(Visit<'_, 'm>)) {
        self.walk_at(1, visit);
    }

    fn walk_at(&self, depth: u32, visit: &mut impl FnMut(Visit<'_, 'm>)) {
        visit(Visit::Schema(self, depth));
        self.walk_below(depth, visit);
    }

    fn walk_below(&self, depth: u32, visit: &mut impl FnMut(Visit<'_, 'm>)) {
        match &self.kind {
            Kind::Object(properties) => {
                for property in properties {
                    visit(Visit::Property(property, depth));
                    property.schema.walk_at(depth + 1, visit);
                }
            }
            Kind::File => Schema::file_object(self.span, None).walk_below(depth, visit),
            Kind::Array(items) => items.walk_at(depth + 1, visit),
            // A union is not a level of its own: its variants take its place.
            Kind::Union(variants) => {
                for variant in variants {
                    variant.walk_at(depth, visit);
                }
            }
            Kind::Any | Kind::Primitive { .. } | Kind::Ref(_) => {}
        }
    }

    /// Where `unknown` is used in this schema, which strict modes cannot
    /// express.
    pub fn unknowns(&self) -> Vec<Span> {
        let mut found = Vec::new();
        self.walk(&mut |visit| {
            if let Visit::Schema(node, _) = visit
                && matches!(node.kind, Kind::Any)
            {
                found.push(node.span);
            }
        });
        found
    }
}

/// What [`Schema::walk`] passes to its visitor.
pub enum Visit<'a, 'm> {
    /// A schema, at its depth.
    Schema(&'a Schema<'m>, u32),
    /// An object's property, at the depth of its object.
    Property(&'a Property<'m>, u32),
}

/// The `file` built-in's properties, in order, with whether each is
/// optional and its JSON type.
pub const FILE_PROPERTIES: [(&str, bool, Primitive); 5] = [
    ("id", false, Primitive::String),
    ("mediaType", false, Primitive::String),
    ("url", false, Primitive::String),
    ("filename", true, Primitive::String),
    ("size", true, Primitive::Number),
];

/// Lowers types in one [`Mode`].
#[derive(Clone, Copy)]
pub struct Lowering<'m> {
    model: &'m Model,
    mode: Mode,
}

impl<'m> Lowering<'m> {
    pub fn new(model: &'m Model, mode: Mode) -> Lowering<'m> {
        Lowering { model, mode }
    }

    /// A named type's own schema (its `$defs` entry, or the root of a
    /// document for it).
    pub fn definition(self, id: TypeId) -> Schema<'m> {
        let def = self.model.def(id);
        match &def.kind {
            TypeDefKind::Object(fields) => self.object(fields, def.name.span),
            TypeDefKind::Array(field) => {
                let mut schema = self.field(field);
                schema.span = def.name.span;
                schema
            }
            TypeDefKind::Union(union) => Schema {
                kind: Kind::Union(
                    union
                        .variants
                        .iter()
                        .map(|variant| self.expr(variant, None))
                        .collect(),
                ),
                description: union.description.as_ref().map(|d| d.text.as_str()),
                span: def.name.span,
            },
            // Emitters only run on models without errors.
            TypeDefKind::Invalid => Schema {
                kind: Kind::Any,
                description: None,
                span: def.name.span,
            },
        }
    }

    /// A closed object with the fields as its properties: a tool's
    /// parameters, or an object type.
    pub fn object(self, fields: &'m [Field], span: Span) -> Schema<'m> {
        let properties = fields
            .iter()
            .map(|field| Property {
                name: &field.name.text,
                name_span: field.name.span,
                optional: field.optional,
                schema: self.field(field),
            })
            .collect();
        Schema {
            kind: Kind::Object(properties),
            description: None,
            span,
        }
    }

    /// A field's schema: its type, with the field's description, `enum` and
    /// `const`. A field's description replaces the one of a union it names.
    pub fn field(self, field: &'m Field) -> Schema<'m> {
        let description = field.description.as_ref().map(|d| d.text.as_str());
        let Some(ty) = &field.ty else {
            return Schema {
                kind: Kind::Any,
                description,
                span: field.name.span,
            };
        };
        let mut schema = self.expr(ty, field.items.as_deref());
        if let Kind::Primitive {
            enum_values,
            constant,
            ..
        } = &mut schema.kind
        {
            *enum_values = field.enum_values.as_ref().map(|e| e.values.as_slice());
            *constant = field.const_value.as_deref();
        }
        if description.is_some() {
            schema.description = description;
        }
        schema
    }

    fn expr(self, expr: &'m TypeExpr, items: Option<&'m Field>) -> Schema<'m> {
        let kind = match &expr.kind {
            TypeExprKind::Builtin(builtin) => match builtin {
                Builtin::String => primitive(Primitive::String),
                Builtin::Number => primitive(Primitive::Number),
                Builtin::Integer => primitive(Primitive::Integer),
                Builtin::Boolean => primitive(Primitive::Boolean),
                Builtin::Unknown => Kind::Any,
                Builtin::File => Kind::File,
            },
            TypeExprKind::Named(name) => match self.model.lookup(name) {
                Some(_) if self.mode == Mode::Refs => Kind::Ref(name),
                Some(id) => {
                    // The definition, seen from where it is used.
                    let mut schema = self.definition(id);
                    schema.span = expr.span;
                    return schema;
                }
                None => Kind::Any,
            },
            TypeExprKind::List(element) => Kind::Array(Box::new(self.expr(element, None))),
            TypeExprKind::Array => Kind::Array(Box::new(match items {
                Some(items) => self.field(items),
                None => Schema {
                    kind: Kind::Any,
                    description: None,
                    span: expr.span,
                },
            })),
            // `object` is reported by the checks; emitters never see it.
            TypeExprKind::Object => Kind::Any,
        };
        Schema {
            kind,
            description: None,
            span: expr.span,
        }
    }
}

fn primitive(ty: Primitive) -> Kind<'static> {
    Kind::Primitive {
        ty,
        enum_values: None,
        constant: None,
    }
}

/// Each type's size and depth once inlined, computed once per type,
/// dependencies first. The walk over the type graph is iterative, so a
/// chain of thousands of types costs no stack.
pub struct Sizes {
    /// Per type: (nodes, depth).
    table: Vec<(u64, u64)>,
}

/// The size and depth of one inlined schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub nodes: u64,
    pub depth: u64,
}

impl Size {
    const LEAF: Size = Size { nodes: 1, depth: 1 };

    /// Whether the schema is small enough to write out inline.
    pub fn fits(self) -> bool {
        self.nodes <= MAX_INLINED_NODES && self.depth <= MAX_INLINED_DEPTH
    }

    /// A node with these children.
    fn parent(children: impl IntoIterator<Item = Size>) -> Size {
        children.into_iter().fold(Size::LEAF, |sum, child| Size {
            nodes: sum.nodes.saturating_add(child.nodes),
            depth: sum.depth.max(child.depth.saturating_add(1)),
        })
    }
}

impl Sizes {
    pub fn new(model: &Model) -> Sizes {
        let count = model.protocol.types.len();
        let mut sizes = Sizes {
            table: vec![(u64::MAX, u64::MAX); count],
        };
        // An edge runs from a type to each type it uses; the reverse of a
        // topological order visits the used types first. A checked protocol
        // has no cycle; if one slipped through, every type stays too large.
        let Ok(order) = petgraph::algo::toposort(&model.graph, None) else {
            return sizes;
        };
        for node in order.into_iter().rev() {
            let id = model.graph[node];
            let size = match &model.def(id).kind {
                TypeDefKind::Object(fields) => sizes.fields(model, fields),
                TypeDefKind::Array(field) => sizes.field(model, field),
                TypeDefKind::Union(union) => {
                    Size::parent(union.variants.iter().map(|v| sizes.expr(model, v)))
                }
                TypeDefKind::Invalid => Size::LEAF,
            };
            sizes.table[id.index()] = (size.nodes, size.depth);
        }
        sizes
    }

    pub fn definition(&self, id: TypeId) -> Size {
        let (nodes, depth) = self.table[id.index()];
        Size { nodes, depth }
    }

    /// An object with these fields (a tool's parameters).
    pub fn fields(&self, model: &Model, fields: &[Field]) -> Size {
        Size::parent(fields.iter().map(|field| self.field(model, field)))
    }

    fn field(&self, model: &Model, field: &Field) -> Size {
        match (&field.ty, field.items.as_deref()) {
            (
                Some(TypeExpr {
                    kind: TypeExprKind::Array,
                    ..
                }),
                Some(items),
            ) => Size::parent([self.field(model, items)]),
            (Some(ty), _) => self.expr(model, ty),
            (None, _) => Size::LEAF,
        }
    }

    fn expr(&self, model: &Model, expr: &TypeExpr) -> Size {
        match &expr.kind {
            TypeExprKind::Named(name) => model
                .lookup(name)
                .map_or(Size::LEAF, |id| self.definition(id)),
            TypeExprKind::List(element) => Size::parent([self.expr(model, element)]),
            TypeExprKind::Builtin(Builtin::File) => {
                Size::parent([Size::LEAF; FILE_PROPERTIES.len()])
            }
            TypeExprKind::Array => Size::parent([Size::LEAF]),
            _ => Size::LEAF,
        }
    }
}

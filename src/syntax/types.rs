//! The types language: named types (an object, an array type or a
//! union, told apart by their keys), typed fields (properties,
//! parameters, inputs, variables, resources, `items`) and type
//! expressions (`string`, `Foo`, `Foo[]`).

use super::{Lower, Name, Text, Titled, lower_each};
use crate::diagnostic::{Code, Diagnostic};
use crate::grammar::{self, Builtin, MAX_LIST_DEPTH, Place, TypeDefForm, UNSUPPORTED_CONSTRAINTS};
use crate::span::Span;
use crate::yaml::{Entry, Node, NodeKind, Scalar, ScalarStyle, Value, abbreviate};

#[derive(Clone, Debug)]
pub struct TypeDef {
    pub name: Name,
    pub kind: TypeDefKind,
}

impl TypeDef {
    /// The property a union discriminates its variants by, when it names
    /// one.
    pub fn discriminator(&self) -> Option<&str> {
        match &self.kind {
            TypeDefKind::Union(union) => union.discriminator.as_ref().map(|d| d.text.as_str()),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub enum TypeDefKind {
    /// Every entry is a property.
    Object(Vec<Field>),
    /// A top-level array type; the field carries `type`, `items` and
    /// `description`, and its name is the type's name.
    Array(Box<Field>),
    /// Boxed: a union is four times an object's size, and one type in
    /// many.
    Union(Box<Union>),
    /// A definition whose form could not be read (already reported).
    Invalid,
}

#[derive(Clone, Debug)]
pub struct Union {
    /// The `anyOf` key.
    pub any_of: Span,
    pub variants: Vec<TypeExpr>,
    pub discriminator: Option<Name>,
    pub description: Option<Name>,
}

/// A typed slot: an object property, a tool parameter, an input, a
/// variable, a resource, or the `items` of an array.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: Name,
    pub ty: Option<TypeExpr>,
    pub items: Option<Box<Field>>,
    pub description: Option<Name>,
    pub optional: bool,
    // The rarely written parts are boxed: a field is the model's most
    // numerous value, and inline they would make it 224 bytes, not 136.
    pub enum_values: Option<Box<EnumValues>>,
    pub const_value: Option<Box<Literal>>,
    pub default: Option<Box<Node<'static>>>,
    pub readonly: bool,
}

/// The most values one `enum` may list. Providers accept hundreds to a
/// few thousand; past this an `enum` is data, and its values are not read
/// (`enum-limit`), so no later stage holds more.
pub const MAX_ENUM_VALUES: usize = 100_000;

#[derive(Clone, Debug)]
pub struct EnumValues {
    pub span: Span,
    /// The values, each string once: a value written again is a repeat.
    pub values: Vec<Literal>,
    /// Each string value written again: where, and the index in `values`
    /// of its first writing. Kept apart, so a list that repeats one value
    /// costs a repeat, not a value, each time.
    pub repeats: Vec<(Span, u32)>,
    /// How many values the list has, and where the first past
    /// [`MAX_ENUM_VALUES`] is, when it has more; those are not read.
    pub over: Option<(usize, Span)>,
}

/// A scalar written as a value (`const`, an `enum` entry).
#[derive(Clone, Debug)]
pub struct Literal {
    pub scalar: Written,
    pub span: Span,
}

/// A scalar's text and style, kept by the model: the text inline up to 24
/// bytes, as names are ([`Text`]), so an `enum`'s values cost no
/// allocation each.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    pub text: Text,
    pub style: ScalarStyle,
}

impl Written {
    pub fn of(scalar: &Scalar) -> Written {
        Written {
            text: Text::from(scalar.text.as_ref()),
            style: scalar.style,
        }
    }

    /// What the scalar means ([`Scalar::value`]).
    pub fn value(&self) -> Value<'_> {
        crate::yaml::value_of(&self.text, self.style)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    pub span: Span,
    pub kind: TypeExprKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeExprKind {
    Builtin(Builtin),
    /// A custom type's name.
    Named(Text),
    /// `T[]`.
    List(Box<TypeExpr>),
    /// The keyword `array`: the element type is the field's `items`.
    Array,
    /// The keyword `object`, which is not a type (reported by `check`).
    Object,
}

impl TypeExpr {
    /// The expression as written, normalized (`Foo[]`).
    pub fn display(&self) -> String {
        match &self.kind {
            TypeExprKind::Builtin(b) => b.name().to_string(),
            TypeExprKind::Named(name) => name.to_string(),
            TypeExprKind::List(element) => format!("{}[]", element.display()),
            TypeExprKind::Array => "array".to_string(),
            TypeExprKind::Object => "object".to_string(),
        }
    }
}

/// Where a field stands decides which keys it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldContext {
    Property,
    Parameter,
    Items,
    /// A top-level array type: `type`, `items` and `description`.
    ArrayType,
    Input,
    TriggerInput,
    Variable,
    Resource,
}

impl FieldContext {
    /// The place's row in the grammar.
    pub fn place(self) -> &'static Place {
        match self {
            FieldContext::Property => &grammar::PROPERTY,
            FieldContext::Parameter => &grammar::PARAMETER,
            FieldContext::Items => &grammar::ITEMS,
            FieldContext::ArrayType => &grammar::ARRAY_TYPE,
            FieldContext::Input | FieldContext::TriggerInput => &grammar::INPUT,
            FieldContext::Variable => &grammar::VARIABLE,
            FieldContext::Resource => &grammar::RESOURCE,
        }
    }

    /// "property `x`", "parameter `x`", ...
    pub fn describe(self, name: &str) -> String {
        self.described(name).to_string()
    }

    /// [`FieldContext::describe`], written out only when a message needs
    /// it: every field is lowered with one, and few have a problem.
    pub fn described(self, name: &str) -> Described<'_> {
        Described {
            context: self,
            name,
        }
    }
}

/// A field as a message names it: "property `x`".
#[derive(Clone, Copy)]
pub struct Described<'a> {
    context: FieldContext,
    name: &'a str,
}

impl std::fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.context {
            FieldContext::Items => return f.write_str("`items`"),
            FieldContext::Property => "property",
            FieldContext::Parameter => "parameter",
            FieldContext::ArrayType => "array type",
            FieldContext::Input => "input",
            FieldContext::TriggerInput => "trigger input",
            FieldContext::Variable => "variable",
            FieldContext::Resource => "resource",
        };
        write!(f, "{what} `{}`", self.name)
    }
}

impl Lower<'_> {
    /// Each type's part of the tree is freed once the type is lowered.
    pub(super) fn types(&mut self, node: Node) -> Vec<TypeDef> {
        let NodeKind::Mapping(entries) = node.kind else {
            // Reports a value that is neither a mapping nor empty.
            self.mapping(&node, "`types`");
            return Vec::new();
        };
        let mut types = Vec::with_capacity(entries.len());
        types.extend(entries.into_iter().map(|entry| self.type_def(&entry)));
        types
    }

    pub(super) fn type_def(&mut self, entry: &Entry) -> TypeDef {
        let name = Name::of(&entry.key);
        let kind = match &entry.value.kind {
            NodeKind::Mapping(entries) => {
                let form = TypeDefForm::of(
                    entries,
                    |e| e.key.text.as_ref(),
                    |e| e.value.as_scalar().is_some(),
                );
                match form {
                    (TypeDefForm::Union, Some(any_of)) => self.union(entries, any_of, &name),
                    (TypeDefForm::Array, Some(ty)) => self.array_def(entries, ty, &name),
                    _ => {
                        let properties =
                            lower_each(entries, |e| self.field(e, FieldContext::Property));
                        TypeDefKind::Object(properties)
                    }
                }
            }
            _ => {
                self.push(
                    Diagnostic::new(
                        Code::WrongShape,
                        entry.value.span,
                        format!(
                            "type `{}` must be a mapping of properties, found {}",
                            name.text,
                            entry.value.describe()
                        ),
                    )
                    .with_help("list the properties, each with a `type:`; or write `anyOf:` for a union, or `type: array` with `items:`"),
                );
                TypeDefKind::Invalid
            }
        };
        TypeDef { name, kind }
    }

    fn union(&mut self, entries: &[Entry], any_of: &Entry, name: &Name) -> TypeDefKind {
        let place = Titled::new("union", &name.text);
        self.check_keys(entries, &grammar::UNION, &place);
        let variants = match &any_of.value.kind {
            NodeKind::Sequence(items) => items
                .iter()
                .filter_map(|item| self.type_expr(item, "a union variant"))
                .collect(),
            _ => {
                self.push(
                    Diagnostic::new(
                        Code::WrongShape,
                        any_of.value.span,
                        format!(
                            "`anyOf` must be a list of type names, found {}",
                            any_of.value.describe()
                        ),
                    )
                    .with_help("write `anyOf: [VariantA, VariantB]`"),
                );
                return TypeDefKind::Invalid;
            }
        };
        let mut discriminator = None;
        let mut description = None;
        for entry in entries.iter() {
            match entry.key.text.as_ref() {
                "discriminator" => discriminator = self.text(&entry.value, "`discriminator`"),
                "description" => description = self.description(&entry.value),
                // Read above.
                "anyOf" => {}
                // Not the union's: reported by `check_keys`.
                key if grammar::UNION.key(key).is_none() => {}
                _ => self.unread(entry, &place),
            }
        }
        TypeDefKind::Union(Box::new(Union {
            any_of: any_of.key.span,
            variants,
            discriminator,
            description,
        }))
    }

    fn array_def(&mut self, entries: &[Entry], ty: &Entry, name: &Name) -> TypeDefKind {
        let expr = ty
            .value
            .as_scalar()
            .and_then(|_| self.type_expr(&ty.value, "`type`"));
        match expr.as_ref().map(|e| &e.kind) {
            Some(TypeExprKind::Array | TypeExprKind::List(_)) => {}
            Some(_) => {
                let written = abbreviate(&expr.as_ref().map(TypeExpr::display).unwrap_or_default());
                let has_properties = entries
                    .iter()
                    .any(|e| e.key.text != "type" && e.key.text != "description");
                let mut diagnostic = Diagnostic::new(
                    Code::InvalidTypeDefinition,
                    ty.value.span,
                    format!(
                        "type `{}` has `type: {written}`, but a named type is an object, an array or a union",
                        name.text
                    ),
                )
                .with_help(format!(
                    "for an object, list its properties directly under `{}:`; for an array, write `type: array` with `items:`",
                    name.text
                ));
                if has_properties {
                    diagnostic = diagnostic.with_note(
                        "a `type:` whose value is text makes the whole definition an array type; a property named `type` needs a mapping (`type: { type: string }`)",
                    );
                }
                self.push(diagnostic);
                return TypeDefKind::Invalid;
            }
            None => return TypeDefKind::Invalid,
        }
        let place = Titled::new("array type", &name.text);
        self.check_keys(entries, &grammar::ARRAY_TYPE, &place);
        // Reads `type` again, which gives the same expression and no diagnostic.
        TypeDefKind::Array(Box::new(self.field_from_entries(
            name.clone(),
            entries,
            &grammar::ARRAY_TYPE,
            &place,
        )))
    }

    pub(super) fn fields(
        &mut self,
        node: &Node,
        section: &str,
        context: FieldContext,
    ) -> Vec<Field> {
        let entries = self.mapping(node, &format!("`{section}`"));
        lower_each(entries, |e| self.field(e, context))
    }

    pub(super) fn field(&mut self, entry: &Entry, context: FieldContext) -> Field {
        let name = Name::of(&entry.key);
        let what = context.described(&entry.key.text);
        match entry.value.as_mapping() {
            Some(entries) => {
                let place = context.place();
                self.check_keys(entries, place, &what);
                self.field_from_entries(name, entries, place, &what)
            }
            None if UNSUPPORTED_CONSTRAINTS.contains(&name.text.as_str()) => {
                self.unsupported_constraint(entry);
                empty_field(name)
            }
            None => {
                let mut diagnostic = Diagnostic::new(
                    Code::WrongShape,
                    entry.value.span,
                    format!(
                        "{what} must be a mapping with a `type:`, found {}",
                        entry.value.describe()
                    ),
                );
                let scalar = entry.value.as_scalar().filter(|s| !s.is_null());
                diagnostic = match (context, entry.key.text.as_ref(), scalar) {
                    (FieldContext::Property, "type" | "items" | "description", _) => diagnostic
                        .with_help("every key of an object type is a property; to describe or type the object itself, this is the wrong place")
                        .with_note("a named type is an object (properties), an array (`type: array` + `items:`) or a union (`anyOf:`)"),
                    (_, _, Some(s)) => diagnostic.with_help(format!(
                        "write `{}: {{ type: {} }}`",
                        name.text,
                        quote_type(&s.text)
                    )),
                    _ => diagnostic.with_help(format!("write `{}: {{ type: string }}`", name.text)),
                };
                self.push(diagnostic);
                empty_field(name)
            }
        }
    }

    /// Reads a field's keys (already checked against `place`, its
    /// context's row).
    fn field_from_entries(
        &mut self,
        name: Name,
        entries: &[Entry],
        place: &Place,
        what: &(impl std::fmt::Display + ?Sized),
    ) -> Field {
        let mut field = empty_field(name);
        for entry in entries.iter() {
            let value = &entry.value;
            match entry.key.text.as_ref() {
                "type" => field.ty = self.type_expr(value, "`type`"),
                "items" => field.items = Some(Box::new(self.field(entry, FieldContext::Items))),
                "description" => field.description = self.description(value),
                "optional" => field.optional = self.boolean(value, "`optional`"),
                "readonly" => field.readonly = self.boolean(value, "`readonly`"),
                "default" => field.default = Some(Box::new(value.clone().into_owned())),
                "const" => match value.as_scalar() {
                    Some(scalar) => {
                        field.const_value = Some(Box::new(Literal {
                            scalar: Written::of(scalar),
                            span: value.span,
                        }))
                    }
                    None => self.push(Diagnostic::new(
                        Code::InvalidConst,
                        value.span,
                        format!("`const` must be a single value, found {}", value.describe()),
                    )),
                },
                "enum" => match value.as_sequence() {
                    Some(items) => {
                        let read = &items[..items.len().min(MAX_ENUM_VALUES)];
                        let mut values = Vec::with_capacity(read.len());
                        let mut repeats = Vec::new();
                        // A short list finds a repeat by looking through the
                        // values so far; a long one by a map of them, past
                        // the bound a mapping's keys are searched to.
                        let mut first: Option<foldhash::HashMap<&str, u32>> =
                            (read.len() > crate::yaml::SEARCHED_KEYS).then(Default::default);
                        for item in read {
                            let Some(scalar) = item.as_scalar() else {
                                self.push(Diagnostic::new(
                                    Code::InvalidEnum,
                                    item.span,
                                    format!(
                                        "`enum` values must be strings, found {}",
                                        item.describe()
                                    ),
                                ));
                                continue;
                            };
                            // Values compare as written: `a` and `"a"` are one.
                            if matches!(scalar.value(), Value::Str(_)) {
                                let text: &str = &scalar.text;
                                let earlier = match &mut first {
                                    Some(first) => {
                                        let earlier = first.get(text).copied();
                                        if earlier.is_none() {
                                            first.insert(text, values.len() as u32);
                                        }
                                        earlier
                                    }
                                    None => values
                                        .iter()
                                        .position(|v: &Literal| {
                                            v.scalar.text == text
                                                && matches!(v.scalar.value(), Value::Str(_))
                                        })
                                        .map(|index| index as u32),
                                };
                                if let Some(index) = earlier {
                                    repeats.push((item.span, index));
                                    continue;
                                }
                            }
                            values.push(Literal {
                                scalar: Written::of(scalar),
                                span: item.span,
                            });
                        }
                        let over = items
                            .get(MAX_ENUM_VALUES)
                            .map(|past| (items.len(), past.span));
                        field.enum_values = Some(Box::new(EnumValues {
                            span: value.span,
                            values,
                            repeats,
                            over,
                        }));
                    }
                    None => self.push(
                        Diagnostic::new(
                            Code::InvalidEnum,
                            value.span,
                            format!(
                                "`enum` must be a list of strings, found {}",
                                value.describe()
                            ),
                        )
                        .with_help("write `enum: [first, second]`"),
                    ),
                },
                // Not the place's: reported by `check_keys`.
                key if place.key(key).is_none() => {}
                _ => self.unread(entry, what),
            }
        }
        // A `type` that is present but unreadable was reported where it is.
        if !entries.iter().any(|e| e.key.text == "type") {
            let span = entries.first().map_or(field.name.span, |e| e.key.span);
            self.push(
                Diagnostic::new(Code::MissingField, field.name.span, format!("{what} has no `type`"))
                    .with_label(span, "add `type:` to this mapping")
                    .with_help("write `type: string` (or `number`, `integer`, `boolean`, `unknown`, `file`, a type name, or `T[]`)"),
            );
        }
        self.check_items_belong(&field);
        field
    }

    /// `items` belongs only to `type: array`.
    fn check_items_belong(&mut self, field: &Field) {
        let (Some(items), Some(ty)) = (&field.items, &field.ty) else {
            return;
        };
        if ty.kind != TypeExprKind::Array {
            self.push(
                Diagnostic::new(
                    Code::UnknownKey,
                    items.name.span,
                    format!(
                        "`items` only goes with `type: array`, but the type here is `{}`",
                        ty.display()
                    ),
                )
                .with_help("write `type: array` to make this a list, or remove `items`"),
            );
        }
    }

    /// Parses a type expression: a built-in or a type name, each optionally
    /// followed by `[]` (repeatable).
    pub(super) fn type_expr(
        &mut self,
        node: &Node,
        what: &(impl std::fmt::Display + ?Sized),
    ) -> Option<TypeExpr> {
        let scalar = match &node.kind {
            NodeKind::Scalar(s) if !s.is_null() => s,
            NodeKind::Scalar(_) => {
                self.push(
                    Diagnostic::new(Code::InvalidValue, node.span, format!("{what} is empty"))
                        .with_help("write a type: `string`, `number`, `integer`, `boolean`, `unknown`, `file`, a type name, or `T[]`"),
                );
                return None;
            }
            _ => {
                let mut diagnostic = Diagnostic::new(
                    Code::WrongShape,
                    node.span,
                    format!("{what} must be a type name, found {}", node.describe()),
                );
                if let NodeKind::Sequence(items) = &node.kind
                    && let [only] = items.as_slice()
                    && let Some(s) = only.as_scalar()
                {
                    diagnostic = diagnostic
                        .with_help(format!("for a list of `{0}`, write `\"{0}[]\"`", s.text))
                        .with_note("`[...]` in YAML is a list; quote the array shorthand");
                }
                self.push(diagnostic);
                return None;
            }
        };
        // Nearly every type is written without white space around it, told
        // from its first and last bytes before `trim`'s character by
        // character reading.
        let written: &str = &scalar.text;
        let bare = written
            .as_bytes()
            .first()
            .zip(written.as_bytes().last())
            .is_some_and(|(&first, &last)| first.is_ascii_graphic() && last.is_ascii_graphic());
        let (leading, text) = if bare {
            (0, written)
        } else {
            let trimmed = written.trim_start();
            (written.len() - trimmed.len(), trimmed.trim_end())
        };
        // Where the text starts inside the node: past an opening quote.
        let quoted = matches!(
            scalar.style,
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted
        );
        let start = node.span.start as usize + usize::from(quoted) + leading;
        let exact = node.span.len() == scalar.text.len() + 2 * usize::from(quoted);
        let span_of = |len: usize| {
            if exact {
                Span::new(start, start + len)
            } else {
                node.span
            }
        };

        // `strip_suffix` compares the last two bytes, where
        // `trim_end_matches("[]")` builds a substring searcher each time.
        let mut base = text;
        while let Some(inner) = base.strip_suffix("[]") {
            base = inner;
        }
        let depth = (text.len() - base.len()) / 2;
        if depth > MAX_LIST_DEPTH {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    node.span,
                    format!("`{base}` is nested in {depth} arrays; at most {MAX_LIST_DEPTH} are supported"),
                )
                .with_help("name the inner array types under `types:`"),
            );
            return None;
        }
        // An identifier is ASCII, so its bytes are its characters.
        let identifier = base
            .as_bytes()
            .first()
            .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_')
            && base.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !identifier {
            let mut diagnostic = Diagnostic::new(
                Code::InvalidValue,
                node.span,
                format!("`{}` is not a type", abbreviate(text)),
            )
            .with_help("write `string`, `number`, `integer`, `boolean`, `unknown`, `file`, a type name, or one of these followed by `[]`");
            if text.contains('|') {
                diagnostic = diagnostic.with_note("for one of several shapes, declare a union type with `anyOf:` and `discriminator:`");
            }
            self.push(diagnostic);
            return None;
        }
        let mut expr = TypeExpr {
            span: span_of(base.len()),
            kind: match base {
                "array" => TypeExprKind::Array,
                "object" => TypeExprKind::Object,
                _ => match Builtin::from_name(base) {
                    Some(builtin) => TypeExprKind::Builtin(builtin),
                    None => TypeExprKind::Named(Text::from(base)),
                },
            },
        };
        for level in 1..=depth {
            expr = TypeExpr {
                span: span_of(base.len() + 2 * level),
                kind: TypeExprKind::List(Box::new(expr)),
            };
        }
        Some(expr)
    }

    pub(super) fn parameters(&mut self, node: &Node, tool: &Name) -> Vec<Field> {
        match &node.kind {
            NodeKind::Mapping(entries) => {
                // `type: object` or `properties: { name: {...} }` at this level: a
                // parameter named `type` or `properties` would itself hold a `type:`.
                let schema_like = entries.iter().find(|e| match e.key.text.as_ref() {
                    "type" => e.value.as_scalar().is_some(),
                    "properties" => e
                        .value
                        .as_mapping()
                        .is_some_and(|m| !m.iter().any(|inner| inner.key.text == "type")),
                    _ => false,
                });
                if let Some(entry) = schema_like {
                    self.push(
                        Diagnostic::new(
                            Code::InvalidToolParameters,
                            entry.key.span,
                            format!(
                                "the parameters of tool `{}` are written as a JSON Schema; list the parameters by name instead",
                                tool.text
                            ),
                        )
                        .with_help("write `parameters: { query: { type: string }, limit: { type: integer, optional: true } }`")
                        .with_note("tool parameters always form an object; agentc writes the JSON Schema"),
                    );
                    return Vec::new();
                }
                entries
                    .iter()
                    .map(|e| self.field(e, FieldContext::Parameter))
                    .collect()
            }
            NodeKind::Scalar(s) if s.is_null() => Vec::new(),
            _ => {
                self.push(
                    Diagnostic::new(
                        Code::InvalidToolParameters,
                        node.span,
                        format!(
                            "the parameters of tool `{}` must be a mapping of named parameters, found {}",
                            tool.text,
                            node.describe()
                        ),
                    )
                    .with_help(match node.as_scalar() {
                        Some(s) => format!(
                            "name the parameter: `parameters: {{ items: {{ type: {} }} }}`; the call is then `{{ items: ... }}`",
                            quote_type(&s.text)
                        ),
                        None => "write each parameter as `name: { type: ... }` under `parameters:`".to_string(),
                    })
                    .with_note("tool calls are always objects: each parameter name maps to a value"),
                );
                Vec::new()
            }
        }
    }
}

fn empty_field(name: Name) -> Field {
    Field {
        name,
        ty: None,
        items: None,
        description: None,
        optional: false,
        enum_values: None,
        const_value: None,
        default: None,
        readonly: false,
    }
}

/// A type as YAML needs it written: the `[]` shorthand quoted.
pub fn quote_type(text: &str) -> String {
    if text.ends_with("[]") {
        format!("\"{text}\"")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{TypeDefKind, TypeExprKind};
    use crate::grammar::Builtin;

    /// Each field's type in `types: { A: ... }`, with the text its span
    /// covers.
    fn types_of(fields: &str) -> Vec<(TypeExprKind, String)> {
        let text = format!("types:\n  A:\n{fields}");
        let report = crate::compile("p.yaml", text);
        let model = report.model.expect("a model");
        let TypeDefKind::Object(fields) = &model.protocol.types[0].kind else {
            panic!("an object type");
        };
        fields
            .iter()
            .map(|field| {
                let ty = field.ty.as_ref().expect("a type");
                (ty.kind.clone(), report.source.slice(ty.span).to_string())
            })
            .collect()
    }

    /// A type is read without the white space around it, ASCII or not, and
    /// its span covers the name alone; most types have none, and skip the
    /// trimming (`type_expr`'s `bare`).
    #[test]
    fn white_space_around_a_type_is_not_part_of_it() {
        let types = types_of(concat!(
            "    a: { type: string }\n",
            "    b: { type: \" string \" }\n",
            "    c: { type: \"\u{a0}Foo\u{3000}\" }\n",
            "    d: { type: 'x\u{a0}' }\n",
            "    e: { type: \"\tFoo \" }\n",
        ));
        let foo = TypeExprKind::Named("Foo".into());
        assert_eq!(
            types,
            [
                (TypeExprKind::Builtin(Builtin::String), "string".to_string()),
                (TypeExprKind::Builtin(Builtin::String), "string".to_string()),
                (foo.clone(), "Foo".to_string()),
                (TypeExprKind::Named("x".into()), "x".to_string()),
                (foo, "Foo".to_string()),
            ]
        );
    }
}

//! The protocol's shape, as data: for each place in a protocol file, the
//! keys it takes, which are required, what kind of value each holds, which
//! may name an input instead, which are deprecated, and what each is for.
//!
//! It holds no lowering and no diagnostics. Everything that needs to know
//! the shape reads it from here: the lowering (`syntax`) for unknown,
//! required and deprecated keys, choices and ranges; the editor schema
//! ([`editor_schema`], printed by `agentc schema`); the format reference
//! ([`reference()`], printed by `agentc schema --reference`); and the
//! language server's completion (keys and values at any path) and hover (a
//! key's documentation). Adding a key, a block kind or a deprecation is a row
//! here, plus an AST field only where later stages read the value.
//!
//! The tables are plain statics, not macros: they describe the file, and
//! the lowering that builds the typed AST stays readable Rust.

mod choices;
pub mod editor_schema;
mod protocol;
mod reference;

pub use choices::*;
pub use protocol::*;
pub use reference::reference;

/// A mapping in a protocol file: its keys, in the order diagnostics list
/// them.
#[derive(Debug)]
pub struct Place {
    /// The name of its shape in the editor schema (`Tool`), or, for a
    /// block, its kind (`next-message`).
    pub name: &'static str,
    pub doc: &'static str,
    /// The keys, as groups: a group shared by several places (a thread's
    /// settings) is written once.
    pub keys: &'static [&'static [Key]],
    /// Whether keys outside `keys` are unknown. Only `generate-video`,
    /// which the docs name but do not specify, is open.
    pub closed: bool,
    /// A typed slot (a property, parameter, input, variable, resource or
    /// `items`): `type` decides its shape, and `items` goes with
    /// `type: array` and nothing else.
    pub field: bool,
    pub deprecated: Option<&'static Deprecation>,
}

impl Place {
    /// Every key, in order.
    pub fn keys(&self) -> impl Iterator<Item = &'static Key> + Clone + use<> {
        let groups: &'static [&'static [Key]] = self.keys;
        groups.iter().flat_map(|group| group.iter())
    }

    /// Every key's name, in order.
    pub fn key_names(&self) -> Vec<&'static str> {
        self.keys().map(|key| key.name).collect()
    }

    pub fn key(&self, name: &str) -> Option<&'static Key> {
        self.keys().find(|key| key.name == name)
    }

    /// The keys without which the place is incomplete.
    pub fn required(&self) -> impl Iterator<Item = &'static Key> + use<> {
        self.keys().filter(|key| key.presence.required())
    }
}

/// One key of a place.
#[derive(Debug)]
pub struct Key {
    pub name: &'static str,
    pub value: Value,
    pub presence: Presence,
    /// A plain scalar in UPPERCASE_SNAKE_CASE here names an input or a
    /// variable instead of giving the value (`temperature: TEMPERATURE`).
    pub dynamic: bool,
    pub deprecated: Option<&'static Deprecation>,
    /// What the key is for: hover text, completion detail and the editor
    /// schema's `description`.
    pub doc: &'static str,
    /// The help when a required key is left out: how to write it.
    pub missing: &'static str,
}

impl Key {
    /// A key that may be left out.
    pub const fn new(name: &'static str, value: Value, doc: &'static str) -> Key {
        Key {
            name,
            value,
            presence: Presence::Optional,
            dynamic: false,
            deprecated: None,
            doc,
            missing: "",
        }
    }

    pub const fn presence(mut self, presence: Presence) -> Key {
        self.presence = presence;
        self
    }

    /// A key the place needs, whose value may be left empty.
    pub const fn required(self) -> Key {
        self.presence(Presence::RequiredNullable)
    }

    pub const fn dynamic(mut self) -> Key {
        self.dynamic = true;
        self
    }

    pub const fn deprecated(mut self, deprecation: &'static Deprecation) -> Key {
        self.deprecated = Some(deprecation);
        self
    }

    pub const fn missing(mut self, help: &'static str) -> Key {
        self.missing = help;
        self
    }

    /// The same key, documented for another place.
    pub const fn doc(mut self, doc: &'static str) -> Key {
        self.doc = doc;
        self
    }

    /// Whether the value, or each item of it, may name a variable: one the
    /// place reads or writes (`output`, `uiContent`), or a setting given by
    /// a variable (`model: MODEL`). An input mapping (`input:`) is apart.
    pub fn names_variables(&self) -> bool {
        self.dynamic
            || matches!(
                self.value,
                Value::Name(Refers::Variable) | Value::Names(Refers::Variable)
            )
    }
}

/// Whether a key may be left out, and whether `key:` with no value is
/// allowed (agentc mostly reads an empty value as absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// May be left out or left empty.
    Optional,
    /// May be left out, but not left empty.
    OptionalNonNull,
    /// Needed, and never empty.
    Required,
    /// Needed, but may be left empty.
    RequiredNullable,
}

impl Presence {
    pub fn required(self) -> bool {
        matches!(self, Presence::Required | Presence::RequiredNullable)
    }

    pub fn nullable(self) -> bool {
        matches!(self, Presence::Optional | Presence::RequiredNullable)
    }
}

/// What a key's value is.
#[derive(Clone, Copy, Debug)]
pub enum Value {
    /// Any scalar, read as text.
    Text,
    /// One name of something declared elsewhere.
    Name(Refers),
    /// A list of names.
    Names(Refers),
    /// `true` or `false`.
    Flag,
    /// A whole number in `min..=max`.
    Integer { min: i64, max: i64 },
    /// A number in `min..=max`.
    Number { min: f64, max: f64 },
    /// A fraction of the context window: above 0, at most 1.
    Fraction,
    /// A number from 0 to 2, or `off`.
    Temperature,
    /// `width:height`.
    AspectRatio,
    /// One of a fixed set of words.
    Choice(&'static [&'static str]),
    /// `provider/model-id`.
    Model,
    /// Variables passed on: `[A, B]`, `[LABEL: SOURCE]` or `{LABEL: SOURCE}`.
    InputMapping,
    /// `tool-call` arguments by parameter name: a variable or a literal.
    Arguments,
    /// A type expression: a built-in or a type name, optionally `[]`.
    TypeExpr,
    /// The type of a top-level array type: `array` or `T[]`.
    ArrayTypeExpr,
    /// The name of an object type.
    TypeName,
    /// A union's variants: at least two object type names.
    Variants,
    /// The allowed values of a string.
    EnumValues,
    /// One value of a field's type (`const`).
    Literal,
    /// Any value (`default`).
    Any,
    /// A block's kind.
    BlockKind,
    /// A mapping of its own.
    Nested(&'static Place),
    /// A mapping of entries of one shape, by name.
    MapOf(&'static Map),
    /// A step of a handler or worker: a place chosen by its `block:`.
    Block,
    /// A named type: a union, an array type or an object type, told apart
    /// by its keys.
    TypeDef,
}

/// What a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refers {
    /// An input, resource or variable (or a trigger's input).
    Variable,
    Tool,
    Skill,
    McpServer,
    /// A source of on-demand MCP servers (`remote`, `device`, `consumer`).
    McpSource,
    Worker,
    Thread,
    /// A file under `prompts/`.
    Prompt,
    /// A file under `references/`.
    Reference,
    /// A trigger (a handler is keyed by the trigger it handles).
    Trigger,
}

/// A mapping whose entries share one shape (`tools:`, `parameters:`).
#[derive(Debug)]
pub struct Map {
    /// The name of its shape in the editor schema, or empty when it is
    /// written where it is used.
    pub name: &'static str,
    pub doc: &'static str,
    pub keys: MapKeys,
    /// What each entry is.
    pub entry: Value,
    /// Whether an entry may be left empty (`search:` with no body).
    pub entry_nullable: bool,
}

/// The keys a [`Map`] takes.
#[derive(Clone, Copy, Debug)]
pub enum MapKeys {
    Any,
    /// Names that match a pattern (a convention the editor schema enforces
    /// and `check` reports on).
    Pattern(&'static str),
    /// One of these words.
    Fixed(&'static [&'static str]),
    /// Names of something declared elsewhere: `handlers:` is keyed by
    /// trigger.
    Names(Refers),
}

/// A deprecated key or block: the warning the lowering gives, and the
/// one-line message an editor shows.
#[derive(Debug)]
pub struct Deprecation {
    pub message: &'static str,
    /// What to write instead.
    pub help: &'static str,
    pub note: Option<&'static str>,
    /// The editor schema's `deprecationMessage`.
    pub summary: &'static str,
    /// The key that replaces it, where one means the same thing.
    pub replacement: Option<Replacement>,
}

/// A key that replaces a deprecated one, and how a value carries over.
#[derive(Debug)]
pub struct Replacement {
    pub key: &'static str,
    /// Each old value and the new value closest to it; empty when every
    /// value carries over unchanged. Where values are rewritten, the fix
    /// is a suggestion: the new value is near the old, not the same.
    pub values: &'static [(&'static str, &'static str)],
}

/// The three forms of a named type. Which one a definition takes is
/// decided by its keys, here and nowhere else: the lowering
/// ([`TypeDefForm::of`]), the editor schema (from [`TypeDefForm::MARKED`])
/// and the language server ([`Spot::child`], by [`TypeDefForm::of_key`])
/// all read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeDefForm {
    /// `anyOf` with a `discriminator`: one of several object types.
    Union,
    /// A `type` whose value is a scalar: `type: array` with `items`, or
    /// `type: "T[]"`.
    Array,
    /// Anything else: every key is a property.
    Object,
}

impl TypeDefForm {
    /// Every form, in the order a definition is tried against them.
    pub const ALL: [TypeDefForm; 3] = [TypeDefForm::Union, TypeDefForm::Array, TypeDefForm::Object];

    /// The forms a key makes, in the order they are tried: the key, and
    /// whether it makes the form only when its value is a scalar (a `type:`
    /// holding a mapping is a property named `type`). A definition with
    /// none of them is an object.
    pub const MARKED: [(TypeDefForm, &'static str, bool); 2] = [
        (TypeDefForm::Union, "anyOf", false),
        (TypeDefForm::Array, "type", true),
    ];

    /// The form of a definition whose keys are `entries`, and the entry
    /// that makes it (none for an object). `key` gives an entry's key,
    /// `scalar` whether its value is a scalar.
    pub fn of<T>(
        entries: &[T],
        key: impl Fn(&T) -> &str,
        scalar: impl Fn(&T) -> bool,
    ) -> (TypeDefForm, Option<&T>) {
        for (form, marker, needs_scalar) in TypeDefForm::MARKED {
            let found = entries
                .iter()
                .find(|entry| key(entry) == marker && (!needs_scalar || scalar(entry)));
            if found.is_some() {
                return (form, found);
            }
        }
        (TypeDefForm::Object, None)
    }

    /// The form judged from one key alone, as an editor must while the
    /// definition is being written: a key that only one form's place has
    /// says that form, unless it makes the form only by a scalar value
    /// (a `type:` with keys below it is a property). Any other key is a
    /// property of an object.
    pub fn of_key(name: &str) -> TypeDefForm {
        let by_scalar = |form| {
            TypeDefForm::MARKED
                .iter()
                .any(|&(f, marker, needs_scalar)| f == form && marker == name && needs_scalar)
        };
        let owners: Vec<TypeDefForm> = TypeDefForm::ALL
            .into_iter()
            .filter(|form| form.place().is_some_and(|place| place.key(name).is_some()))
            .collect();
        match owners.as_slice() {
            [only] if !by_scalar(*only) => *only,
            _ => TypeDefForm::Object,
        }
    }

    /// The form's shape: a place of its own, or an object's properties.
    pub fn value(self) -> Value {
        match self {
            TypeDefForm::Union => Value::Nested(&UNION),
            TypeDefForm::Array => Value::Nested(&ARRAY_TYPE),
            TypeDefForm::Object => Value::MapOf(&OBJECT_TYPE),
        }
    }

    /// The form's place, when it has keys of its own (not an object).
    pub fn place(self) -> Option<&'static Place> {
        match self.value() {
            Value::Nested(place) => Some(place),
            _ => None,
        }
    }
}

/// Where a path of keys from the top of a file leads.
#[derive(Clone, Copy, Debug)]
pub enum Spot {
    /// A mapping with keys of its own.
    Place(&'static Place),
    /// A mapping of entries by name.
    Map(&'static Map),
    /// A block, whose kind (when known) decides its keys.
    Block(Option<&'static Place>),
    /// A named type, before its form is known.
    TypeDef,
    /// A value that is not a mapping.
    Value(&'static Key),
}

impl Spot {
    /// The keys a mapping takes here.
    pub fn keys(self) -> Vec<&'static Key> {
        match self {
            Spot::Place(place) | Spot::Block(Some(place)) => place.keys().collect(),
            Spot::Block(None) => BLOCK_COMMON.iter().collect(),
            // Before its form is known: the keys of every form's place.
            Spot::TypeDef => TypeDefForm::ALL
                .iter()
                .filter_map(|form| form.place())
                .flat_map(Place::keys)
                .fold(Vec::new(), |mut keys, key| {
                    if !keys.iter().any(|k: &&Key| k.name == key.name) {
                        keys.push(key);
                    }
                    keys
                }),
            Spot::Map(_) | Spot::Value(_) => Vec::new(),
        }
    }

    /// The fixed keys of a map keyed by choice (`onDemandMcpServers:`).
    pub fn fixed_keys(self) -> &'static [&'static str] {
        match self {
            Spot::Map(Map {
                keys: MapKeys::Fixed(keys),
                ..
            }) => keys,
            _ => &[],
        }
    }

    /// Where the key `name` inside this spot leads; `kind` is the block
    /// kind written beside it, for a block.
    pub fn child(self, name: &str, kind: Option<&str>) -> Option<Spot> {
        match self {
            Spot::Place(place) | Spot::Block(Some(place)) => {
                place.key(name).map(|key| Spot::of(key, kind))
            }
            Spot::Block(None) => BLOCK_COMMON
                .iter()
                .find(|key| key.name == name)
                .map(|key| Spot::of(key, kind)),
            Spot::Map(map) => Some(Spot::entry(map.entry, kind)),
            // A union's or array type's own key, or a property.
            Spot::TypeDef => match TypeDefForm::of_key(name).value() {
                Value::Nested(place) => place.key(name).map(|key| Spot::of(key, kind)),
                value => Spot::entry(value, kind).child(name, kind),
            },
            Spot::Value(_) => None,
        }
    }

    fn of(key: &'static Key, kind: Option<&str>) -> Spot {
        match key.value {
            Value::Nested(_) | Value::MapOf(_) | Value::Block | Value::TypeDef => {
                Spot::entry(key.value, kind)
            }
            _ => Spot::Value(key),
        }
    }

    fn entry(value: Value, kind: Option<&str>) -> Spot {
        match value {
            Value::Nested(place) => Spot::Place(place),
            Value::MapOf(map) => Spot::Map(map),
            Value::Block => Spot::Block(kind.and_then(block)),
            _ => Spot::TypeDef,
        }
    }
}

/// Where a path of keys from the top of a protocol leads: `["tools",
/// "search"]` is a tool. `kind` is the `block:` of the block on the path,
/// if any (blocks do not nest).
pub fn spot_at(path: &[&str], kind: Option<&str>) -> Option<Spot> {
    let mut spot = Spot::Place(&PROTOCOL);
    for name in path {
        spot = spot.child(name, kind)?;
    }
    Some(spot)
}

/// Where `path` names a block, if it goes through one: the position of
/// the block's name (2 in `["handlers", "go", "Step", ..]`, 1 in
/// `["steps", "Step", ..]`).
pub fn block_on(path: &[&str]) -> Option<usize> {
    let mut spot = Spot::Place(&PROTOCOL);
    for (at, name) in path.iter().enumerate() {
        spot = spot.child(name, None)?;
        if let Spot::Block(_) = spot {
            return Some(at);
        }
    }
    None
}

/// The name of something of kind `refers` that `path` goes through as the
/// key of an entry (the trigger of a handler: `"go"` in `["handlers",
/// "go", ..]`).
pub fn name_on<'p>(path: &[&'p str], refers: Refers) -> Option<&'p str> {
    let mut spot = Spot::Place(&PROTOCOL);
    for name in path {
        if let Spot::Map(Map {
            keys: MapKeys::Names(keys),
            ..
        }) = spot
            && *keys == refers
        {
            return Some(name);
        }
        spot = spot.child(name, None)?;
    }
    None
}

/// The key at the end of `path` (its last element), where it is a key of
/// a place.
pub fn key_at(path: &[&str], kind: Option<&str>) -> Option<&'static Key> {
    let (name, parent) = path.split_last()?;
    match spot_at(parent, kind)? {
        Spot::Place(place) | Spot::Block(Some(place)) => place.key(name),
        Spot::Block(None) => BLOCK_COMMON.iter().find(|key| key.name == *name),
        Spot::TypeDef => TypeDefForm::ALL
            .iter()
            .find_map(|form| form.place()?.key(name)),
        Spot::Map(_) | Spot::Value(_) => None,
    }
}

/// Every place in the grammar, each once, in the order a walk from the
/// top of a protocol first reaches it.
pub fn places() -> Vec<&'static Place> {
    fn walk(value: Value, out: &mut Vec<&'static Place>) {
        match value {
            Value::Nested(place) => visit(place, out),
            Value::MapOf(map) => walk(map.entry, out),
            Value::Block => BLOCKS.iter().for_each(|place| visit(place, out)),
            Value::TypeDef => TypeDefForm::ALL
                .iter()
                .for_each(|form| walk(form.value(), out)),
            _ => {}
        }
    }
    fn visit(place: &'static Place, out: &mut Vec<&'static Place>) {
        if out.iter().any(|p| std::ptr::eq(*p, place)) {
            return;
        }
        out.push(place);
        for key in place.keys() {
            walk(key.value, out);
        }
    }
    let mut out = Vec::new();
    visit(&PROTOCOL, &mut out);
    out
}

/// The place of a block kind.
pub fn block(kind: &str) -> Option<&'static Place> {
    BLOCKS.iter().find(|place| place.name == kind)
}

/// `[A-Z][A-Z0-9_]*`: how variables are named, and so how a reference is
/// told apart from a literal.
pub fn is_variable_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_uppercase())
        && text
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests;

//! Random protocols for the property tests: a tool whose parameters use
//! every construct of the types language (objects, optional properties,
//! enums, consts, integers and numbers, `unknown`, arrays, discriminated
//! unions), one random change to it, and values valid under it. Used by
//! `tests/diff_properties.rs` (the diff against the validator) and
//! `tests/codegen.rs` (zod and pydantic against the validator, and the
//! generated code compiled).
//!
//! Hostile protocols (`gen_obj_in(.., true)`, [`hostile_protocol`]) take
//! their names and texts from [`HOSTILE_NAMES`] and [`HOSTILE_TEXTS`]:
//! names that start with a digit, names the generated code uses itself,
//! keywords and builtins of TypeScript and Python, and texts with NUL,
//! ESC, `*/`, `"""`, backslashes, U+2028, U+2029, U+0085 and `\r`.

use serde_json::{Value, json};

/// A small deterministic generator (xorshift64*), seeded by proptest.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

#[derive(Clone, Debug)]
pub enum Ty {
    Str,
    Enum(Vec<String>),
    Const(String),
    Int,
    Num,
    Bool,
    Unknown,
    List(Box<Ty>),
    Obj(Obj),
    /// A union: its id, its discriminator, its variants as (tag, object).
    Union(usize, String, Vec<(String, Obj)>),
}

#[derive(Clone, Debug)]
pub struct Obj {
    pub id: usize,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub optional: bool,
    pub ty: Ty,
    pub description: Option<String>,
}

const NAMES: [&str; 6] = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
const WORDS: [&str; 5] = ["red", "green", "blue", "cyan", "gold"];

/// Names the generated code must write in a way of its own: keywords and
/// builtins of TypeScript, JavaScript and Python, names of pydantic's
/// `BaseModel` and of what the generated modules declare, names that
/// start with a digit or are not identifiers, and names with characters
/// that end a line or a string.
pub const HOSTILE_NAMES: [&str; 52] = [
    "type",
    "class",
    "constructor",
    "__proto__",
    "prototype",
    "toString",
    "hasOwnProperty",
    "None",
    "True",
    "from",
    "import",
    "str",
    "int",
    "list",
    "json",
    "validate",
    "copy",
    "schema_json",
    "model_config",
    "model_validate_x",
    "_private",
    "__dunder__",
    "_t",
    "_Int",
    "z",
    "__T",
    "3d",
    "1",
    "",
    "content-type",
    "content_type_",
    "a b",
    "userId",
    "user_id",
    "O1",
    "U2",
    "FileReference",
    "ToolArgs",
    "SessionInput",
    "TOOL_ARGS",
    "$dollar",
    "ünï",
    "a\u{2028}b",
    "x\0y",
    "q\"\"\"q",
    "back\\slash",
    "*/",
    "nel\u{85}",
    "cr\r",
    "esc\u{1b}",
    "kind",
    "self",
];

/// Texts that would end a comment or a string, or a line, if written as
/// they are.
pub const HOSTILE_TEXTS: [&str; 24] = [
    "plain",
    "a\0b",
    "esc\u{1b}[31m",
    "*/ alert(1) /*",
    "\"\"\"; import os; \"\"\"",
    "back\\slash\\",
    "ls\u{2028}console.log(1)",
    "ps\u{2029}x",
    "nel\u{85}x",
    "cr\ronly",
    "crlf\r\nline",
    "multi\nline\n\ndescription",
    "tab\tx",
    "del\u{7f}",
    "c1\u{9b}x",
    "bidi\u{202e}x",
    "${x}`",
    "'single'",
    "\"",
    "\\",
    "{}",
    "ünïcödé 😀",
    "\u{feff}bom",
    " ",
];

/// `count` distinct picks from `pool`.
pub fn pick<'a>(rng: &mut Rng, pool: &[&'a str], count: usize) -> Vec<&'a str> {
    let mut pool = pool.to_vec();
    let mut out = Vec::new();
    while out.len() < count && !pool.is_empty() {
        out.push(pool.swap_remove(rng.below(pool.len())));
    }
    out
}

/// `text` as a YAML double-quoted scalar: every character outside
/// printable ASCII escaped.
pub fn yaml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// A key or a string as YAML writes it: bare when it is a plain
/// lowercase name that YAML reads as a string, else quoted.
pub fn yaml_key(name: &str) -> String {
    let plain = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !["true", "false", "null"].contains(&name);
    if plain {
        name.to_string()
    } else {
        yaml_string(name)
    }
}

/// Fresh ids for named types.
pub struct Ids(pub usize);

impl Ids {
    fn next(&mut self) -> usize {
        self.0 += 1;
        self.0
    }
}

pub fn gen_ty(rng: &mut Rng, ids: &mut Ids, depth: u32) -> Ty {
    gen_ty_in(rng, ids, depth, false)
}

/// A type; `hostile`: with names and texts from the hostile pools.
pub fn gen_ty_in(rng: &mut Rng, ids: &mut Ids, depth: u32, hostile: bool) -> Ty {
    let leaf = depth >= 3 || rng.chance(55);
    if leaf {
        return match rng.below(7) {
            0 => Ty::Str,
            1 if hostile => Ty::Enum(
                {
                    let count = 1 + rng.below(4);
                    pick(rng, &HOSTILE_TEXTS, count)
                }
                .into_iter()
                .map(str::to_string)
                .collect(),
            ),
            2 if hostile => Ty::Const(HOSTILE_TEXTS[rng.below(HOSTILE_TEXTS.len())].to_string()),
            1 => Ty::Enum(
                WORDS[..2 + rng.below(3)]
                    .iter()
                    .map(|w| w.to_string())
                    .collect(),
            ),
            2 => Ty::Const(WORDS[rng.below(WORDS.len())].to_string()),
            3 => Ty::Int,
            4 => Ty::Num,
            5 => Ty::Bool,
            _ => Ty::Unknown,
        };
    }
    match rng.below(3) {
        0 => Ty::List(Box::new(gen_ty_in(rng, ids, depth + 1, hostile))),
        1 => Ty::Obj(gen_obj_in(rng, ids, depth + 1, hostile)),
        _ => {
            let id = ids.next();
            let count = 2 + rng.below(3);
            let discriminator = if hostile {
                HOSTILE_NAMES[rng.below(HOSTILE_NAMES.len())]
            } else {
                "kind"
            };
            let tags = if hostile {
                pick(rng, &HOSTILE_TEXTS, count)
            } else {
                Vec::new()
            };
            let variants = (0..count)
                .map(|i| {
                    let tag = tags.get(i).map_or(format!("tag{i}"), |t| t.to_string());
                    let mut obj = gen_obj_in(rng, ids, depth + 1, hostile);
                    obj.fields.retain(|f| f.name != discriminator);
                    (tag, obj)
                })
                .collect();
            Ty::Union(id, discriminator.to_string(), variants)
        }
    }
}

pub fn gen_obj(rng: &mut Rng, ids: &mut Ids, depth: u32) -> Obj {
    gen_obj_in(rng, ids, depth, false)
}

/// An object; `hostile`: its properties named from [`HOSTILE_NAMES`], and
/// described by [`HOSTILE_TEXTS`].
pub fn gen_obj_in(rng: &mut Rng, ids: &mut Ids, depth: u32, hostile: bool) -> Obj {
    let count = 1 + rng.below(3);
    let names = if hostile {
        pick(rng, &HOSTILE_NAMES, count)
    } else {
        NAMES[..count].to_vec()
    };
    let fields = names
        .into_iter()
        .map(|name| Field {
            name: name.to_string(),
            optional: rng.chance(40),
            ty: gen_ty_in(rng, ids, depth, hostile),
            description: (hostile && rng.chance(50))
                .then(|| HOSTILE_TEXTS[rng.below(HOSTILE_TEXTS.len())].to_string()),
        })
        .collect();
    Obj {
        id: ids.next(),
        fields,
    }
}

/// Applies one change to the `target`-th node (counted parents first);
/// returns whether it was reached.
pub fn mutate(ty: &mut Ty, target: &mut usize, rng: &mut Rng, ids: &mut Ids) -> bool {
    if *target == 0 {
        change(ty, rng, ids);
        return true;
    }
    *target -= 1;
    match ty {
        Ty::List(items) => mutate(items, target, rng, ids),
        Ty::Obj(obj) => mutate_obj(obj, target, rng, ids),
        Ty::Union(_, _, variants) => variants
            .iter_mut()
            .any(|(_, obj)| mutate_obj(obj, target, rng, ids)),
        _ => false,
    }
}

pub fn mutate_obj(obj: &mut Obj, target: &mut usize, rng: &mut Rng, ids: &mut Ids) -> bool {
    if *target == 0 {
        change_obj(obj, rng, ids);
        return true;
    }
    *target -= 1;
    obj.fields
        .iter_mut()
        .any(|field| mutate(&mut field.ty, target, rng, ids))
}

pub fn count(ty: &Ty) -> usize {
    1 + match ty {
        Ty::List(items) => count(items),
        Ty::Obj(obj) => count_obj(obj) - 1,
        Ty::Union(_, _, variants) => variants.iter().map(|(_, o)| count_obj(o)).sum(),
        _ => 0,
    }
}

pub fn count_obj(obj: &Obj) -> usize {
    1 + obj.fields.iter().map(|f| count(&f.ty)).sum::<usize>()
}

pub fn change_obj(obj: &mut Obj, rng: &mut Rng, ids: &mut Ids) {
    match rng.below(3) {
        0 if obj.fields.len() < NAMES.len() => {
            let name = NAMES[obj.fields.len()].to_string();
            obj.fields.push(Field {
                name,
                optional: rng.chance(50),
                ty: gen_ty(rng, ids, 3),
                description: None,
            });
        }
        1 if obj.fields.len() > 1 => {
            let i = rng.below(obj.fields.len());
            obj.fields.remove(i);
        }
        _ => {
            let i = rng.below(obj.fields.len());
            obj.fields[i].optional = !obj.fields[i].optional;
        }
    }
}

pub fn change(ty: &mut Ty, rng: &mut Rng, ids: &mut Ids) {
    let changed = match ty {
        Ty::Str => match rng.below(4) {
            0 => Ty::Bool,
            1 => Ty::Enum(vec!["red".to_string(), "blue".to_string()]),
            2 => Ty::Unknown,
            _ => Ty::Const("red".to_string()),
        },
        Ty::Enum(values) => match rng.below(3) {
            0 => {
                let mut values = values.clone();
                values.push("violet".to_string());
                Ty::Enum(values)
            }
            1 if values.len() > 1 => Ty::Enum(values[1..].to_vec()),
            _ => Ty::Str,
        },
        Ty::Const(value) => match rng.below(2) {
            0 => Ty::Const(format!("{value}2")),
            _ => Ty::Str,
        },
        Ty::Int => match rng.below(2) {
            0 => Ty::Num,
            _ => Ty::Str,
        },
        Ty::Num => Ty::Int,
        Ty::Bool => Ty::Str,
        Ty::Unknown => Ty::Str,
        Ty::List(items) => (**items).clone(),
        Ty::Obj(obj) => {
            change_obj(obj, rng, ids);
            return;
        }
        Ty::Union(_, _, variants) => {
            match rng.below(3) {
                0 => {
                    let tag = format!("tag{}", ids.next());
                    variants.push((tag, gen_obj(rng, ids, 3)));
                }
                1 if variants.len() > 2 => {
                    let i = rng.below(variants.len());
                    variants.remove(i);
                }
                _ => {
                    let i = rng.below(variants.len());
                    variants[i].0.push('x');
                }
            }
            return;
        }
    };
    *ty = changed;
}

/// The protocol with the tool `t` whose parameters are `params`.
pub fn protocol(params: &Obj) -> String {
    let mut types = String::new();
    let mut body = String::new();
    for field in &params.fields {
        body.push_str(&field_yaml(field, 6, &mut types));
    }
    format!(
        "types:\n{types}\ntriggers:\n  go:\n    input:\n      TEXT: {{ type: string }}\n\n\
         tools:\n  t:\n    description: A tool\n    parameters:\n{body}\n\
         agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [t]\n\n\
         handlers:\n  go:\n    Add:\n      block: add-message\n      role: user\n      prompt: p\n      input: [TEXT]\n"
    )
}

pub fn field_yaml(field: &Field, indent: usize, types: &mut String) -> String {
    let pad = " ".repeat(indent);
    let mut out = format!("{pad}{}:\n", yaml_key(&field.name));
    out.push_str(&ty_yaml(&field.ty, indent + 2, types));
    if field.optional {
        out.push_str(&format!("{pad}  optional: true\n"));
    }
    if let Some(description) = &field.description {
        out.push_str(&format!(
            "{pad}  description: {}\n",
            yaml_string(description)
        ));
    }
    out
}

/// The keys (`type`, `enum`, `const`, `items`) of a field of type `ty`.
pub fn ty_yaml(ty: &Ty, indent: usize, types: &mut String) -> String {
    let pad = " ".repeat(indent);
    match ty {
        Ty::Str => format!("{pad}type: string\n"),
        Ty::Enum(values) => format!(
            "{pad}type: string\n{pad}enum: [{}]\n",
            values
                .iter()
                .map(|v| yaml_key(v))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Ty::Const(value) => format!("{pad}type: string\n{pad}const: {}\n", yaml_key(value)),
        Ty::Int => format!("{pad}type: integer\n"),
        Ty::Num => format!("{pad}type: number\n"),
        Ty::Bool => format!("{pad}type: boolean\n"),
        Ty::Unknown => format!("{pad}type: unknown\n"),
        Ty::List(items) => format!(
            "{pad}type: array\n{pad}items:\n{}",
            ty_yaml(items, indent + 2, types)
        ),
        Ty::Obj(obj) => {
            define(obj, types);
            format!("{pad}type: O{}\n", obj.id)
        }
        Ty::Union(id, discriminator, variants) => {
            let names: Vec<String> = variants.iter().map(|(_, o)| format!("O{}", o.id)).collect();
            types.push_str(&format!(
                "  U{id}:\n    anyOf: [{}]\n    discriminator: {}\n",
                names.join(", "),
                yaml_key(discriminator)
            ));
            for (tag, obj) in variants {
                let mut body = format!(
                    "  O{}:\n    {}:\n      type: string\n      const: {}\n",
                    obj.id,
                    yaml_key(discriminator),
                    yaml_key(tag)
                );
                let mut inner = String::new();
                for field in &obj.fields {
                    body.push_str(&field_yaml(field, 4, &mut inner));
                }
                types.push_str(&body);
                types.push_str(&inner);
            }
            format!("{pad}type: U{id}\n")
        }
    }
}

pub fn define(obj: &Obj, types: &mut String) {
    let mut body = format!("  O{}:\n", obj.id);
    let mut inner = String::new();
    for field in &obj.fields {
        body.push_str(&field_yaml(field, 4, &mut inner));
    }
    types.push_str(&body);
    types.push_str(&inner);
}

/// A value valid under `ty`.
pub fn value(ty: &Ty, rng: &mut Rng) -> Value {
    match ty {
        Ty::Str => json!(["", "hello", "red"][rng.below(3)]),
        Ty::Enum(values) => json!(values[rng.below(values.len())]),
        Ty::Const(value) => json!(value),
        Ty::Int => json!(rng.below(5)),
        Ty::Num => [json!(1.5), json!(2)][rng.below(2)].clone(),
        Ty::Bool => json!(rng.chance(50)),
        Ty::Unknown => [json!(null), json!(1), json!("s"), json!({"k": [1]})][rng.below(4)].clone(),
        Ty::List(items) => Value::Array((0..rng.below(3)).map(|_| value(items, rng)).collect()),
        Ty::Obj(obj) => object(obj, None, rng),
        Ty::Union(_, discriminator, variants) => {
            let (tag, obj) = &variants[rng.below(variants.len())];
            object(obj, Some((discriminator, tag)), rng)
        }
    }
}

/// A value of `obj`; `tag`: the discriminator and its value, for a
/// union's variant.
pub fn object(obj: &Obj, tag: Option<(&str, &str)>, rng: &mut Rng) -> Value {
    let mut map = serde_json::Map::new();
    if let Some((discriminator, tag)) = tag {
        map.insert(discriminator.to_string(), json!(tag));
    }
    for field in &obj.fields {
        if !field.optional || rng.chance(50) {
            map.insert(field.name.clone(), value(&field.ty, rng));
        }
    }
    Value::Object(map)
}

/// Tool names for [`hostile_protocol`]: their derived names (`{Tool}Args`)
/// start with a digit, are names the generated code declares, or keep
/// nothing of the name.
pub const HOSTILE_TOOLS: [&str; 14] = [
    "3d-render",
    "tool",
    "tool-args",
    "class",
    "constructor",
    "__proto__",
    "None",
    "get_order",
    "get-order",
    "über",
    "x\u{2028}y",
    "a\0b",
    "1",
    "日本",
];

/// Trigger names for [`hostile_protocol`].
pub const HOSTILE_TRIGGERS: [&str; 9] = [
    "session",
    "user-message",
    "class",
    "3d",
    "None",
    "tool",
    "__proto__",
    "c\r",
    "prototype",
];

/// Type names, PascalCase, that are names in the languages (`Int`,
/// `Literal`, `BaseModel`, `JSON`) and, rarely, names the generated code
/// declares or uses itself (`ToolArgs`, `Promise`, `None`).
pub const HOSTILE_TYPES: [&str; 16] = [
    "Int",
    "Str",
    "Any",
    "Literal",
    "Annotated",
    "Union",
    "BaseModel",
    "Field",
    "Model",
    "T",
    "Z",
    "JSON",
    "Partial",
    "Function",
    "Optional",
    "Self",
];
const RESERVED_TYPES: [&str; 5] = ["ToolArgs", "Promise", "None", "SessionInput", "Equals"];

/// A protocol around the tool `t` whose parameters are `params`, made
/// hostile: tools and triggers with hostile names and descriptions, types
/// named like names of the languages (and, one time in twenty, like a
/// name the generated code declares), a session input, and a reply type.
pub fn hostile_protocol(params: &Obj, rng: &mut Rng) -> String {
    let mut types = String::new();
    let mut body = String::new();
    for field in &params.fields {
        body.push_str(&field_yaml(field, 6, &mut types));
    }
    let mut ids = Ids(1_000);
    let mut names = {
        let count = 1 + rng.below(3);
        pick(rng, &HOSTILE_TYPES, count)
    };
    if rng.chance(5) {
        names.push(RESERVED_TYPES[rng.below(RESERVED_TYPES.len())]);
    }
    for name in &names {
        let obj = gen_obj_in(rng, &mut ids, 2, true);
        let mut inner = String::new();
        types.push_str(&format!("  {name}:\n"));
        for field in &obj.fields {
            types.push_str(&field_yaml(field, 4, &mut inner));
        }
        types.push_str(&inner);
    }
    let text = |rng: &mut Rng| yaml_string(HOSTILE_TEXTS[rng.below(HOSTILE_TEXTS.len())]);
    let tools = {
        let count = rng.below(3);
        pick(rng, &HOSTILE_TOOLS, count)
    };
    let mut tools_yaml = format!(
        "  t:\n    description: {}\n    parameters:\n{body}",
        text(rng)
    );
    for tool in &tools {
        tools_yaml.push_str(&format!(
            "  {}:\n    description: {}\n    parameters:\n      {}: {{ type: string, description: {} }}\n",
            yaml_key(tool),
            text(rng),
            yaml_key(HOSTILE_NAMES[rng.below(HOSTILE_NAMES.len())]),
            text(rng)
        ));
    }
    let triggers = {
        let count = rng.below(3);
        pick(rng, &HOSTILE_TRIGGERS, count)
    };
    let mut triggers_yaml = String::from("  go:\n    input:\n      TEXT: { type: string }\n");
    let mut handlers = String::from(
        "  go:\n    Add:\n      block: add-message\n      role: user\n      prompt: p\n      input: [TEXT]\n",
    );
    if let Some(reply) = names.first() {
        handlers.push_str(&format!(
            "    Reply:\n      block: next-message\n      responseType: {reply}\n      output: OUT\n"
        ));
    }
    for trigger in &triggers {
        triggers_yaml.push_str(&format!(
            "  {}:\n    description: {}\n    input:\n      TEXT: {{ type: string, description: {} }}\n",
            yaml_key(trigger),
            text(rng),
            text(rng)
        ));
        handlers.push_str(&format!(
            "  {}:\n    Add:\n      block: add-message\n      role: user\n      prompt: p\n      input: [TEXT]\n",
            yaml_key(trigger)
        ));
    }
    let variables = match names.first() {
        Some(reply) => format!("variables:\n  OUT: {{ type: {reply} }}\n\n"),
        None => String::new(),
    };
    let listed: Vec<String> = std::iter::once("t".to_string())
        .chain(tools.iter().map(|t| yaml_key(t)))
        .collect();
    format!(
        "types:\n{types}\ntriggers:\n{triggers_yaml}\n\
         input:\n  NONE: {{ type: string, description: {} }}\n  CLASS: {{ type: integer, optional: true }}\n\n\
         tools:\n{tools_yaml}\n{variables}\
         agent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [{}]\n\n\
         handlers:\n{handlers}",
        text(rng),
        listed.join(", ")
    )
}

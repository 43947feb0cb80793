//! Random protocols for the property tests: a tool whose parameters use
//! every construct of the types language (objects, optional properties,
//! enums, consts, integers and numbers, `unknown`, arrays, discriminated
//! unions), one random change to it, and values valid under it. Used by
//! `tests/diff_properties.rs` (the diff against the validator) and
//! `tests/codegen.rs` (zod against the validator).

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
    /// Variants: (tag, object).
    Union(usize, Vec<(String, Obj)>),
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
}

const NAMES: [&str; 6] = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
const WORDS: [&str; 5] = ["red", "green", "blue", "cyan", "gold"];

/// Fresh ids for named types.
pub struct Ids(pub usize);

impl Ids {
    fn next(&mut self) -> usize {
        self.0 += 1;
        self.0
    }
}

pub fn gen_ty(rng: &mut Rng, ids: &mut Ids, depth: u32) -> Ty {
    let leaf = depth >= 3 || rng.chance(55);
    if leaf {
        return match rng.below(7) {
            0 => Ty::Str,
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
        0 => Ty::List(Box::new(gen_ty(rng, ids, depth + 1))),
        1 => Ty::Obj(gen_obj(rng, ids, depth + 1)),
        _ => {
            let id = ids.next();
            let count = 2 + rng.below(3);
            let variants = (0..count)
                .map(|i| (format!("tag{i}"), gen_obj(rng, ids, depth + 1)))
                .collect();
            Ty::Union(id, variants)
        }
    }
}

pub fn gen_obj(rng: &mut Rng, ids: &mut Ids, depth: u32) -> Obj {
    let count = 1 + rng.below(3);
    let fields = NAMES[..count]
        .iter()
        .map(|name| Field {
            name: name.to_string(),
            optional: rng.chance(40),
            ty: gen_ty(rng, ids, depth),
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
        Ty::Union(_, variants) => variants
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
        Ty::Union(_, variants) => variants.iter().map(|(_, o)| count_obj(o)).sum(),
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
        Ty::Union(_, variants) => {
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
    let mut out = format!("{pad}{}:\n", field.name);
    out.push_str(&ty_yaml(&field.ty, indent + 2, types));
    if field.optional {
        out.push_str(&format!("{pad}  optional: true\n"));
    }
    out
}

/// The keys (`type`, `enum`, `const`, `items`) of a field of type `ty`.
pub fn ty_yaml(ty: &Ty, indent: usize, types: &mut String) -> String {
    let pad = " ".repeat(indent);
    match ty {
        Ty::Str => format!("{pad}type: string\n"),
        Ty::Enum(values) => format!("{pad}type: string\n{pad}enum: [{}]\n", values.join(", ")),
        Ty::Const(value) => format!("{pad}type: string\n{pad}const: {value}\n"),
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
        Ty::Union(id, variants) => {
            let names: Vec<String> = variants.iter().map(|(_, o)| format!("O{}", o.id)).collect();
            types.push_str(&format!(
                "  U{id}:\n    anyOf: [{}]\n    discriminator: kind\n",
                names.join(", ")
            ));
            for (tag, obj) in variants {
                let mut body = format!(
                    "  O{}:\n    kind:\n      type: string\n      const: {tag}\n",
                    obj.id
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
        Ty::Union(_, variants) => {
            let (tag, obj) = &variants[rng.below(variants.len())];
            object(obj, Some(tag), rng)
        }
    }
}

pub fn object(obj: &Obj, tag: Option<&str>, rng: &mut Rng) -> Value {
    let mut map = serde_json::Map::new();
    if let Some(tag) = tag {
        map.insert("kind".to_string(), json!(tag));
    }
    for field in &obj.fields {
        if !field.optional || rng.chance(50) {
            map.insert(field.name.clone(), value(&field.ty, rng));
        }
    }
    Value::Object(map)
}

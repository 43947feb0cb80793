//! What a [`super::Validator`] compiles from a schema: `jsonschema`'s
//! validator over the data's [`Index`](super::json::Index) (through
//! [`Tape`](super::tape::Tape)), each `enum` once as a compact set, and the rules the report
//! does not walk itself.

use foldhash::HashMap;
use jsonschema::json::{Json, Node};
use jsonschema::{Keyword, ValidationError};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The values of one `enum`. A list of strings (all of agentc's) is one
/// text and two offsets a value, searched by binary search: a protocol's
/// `enum` of 100,000 values costs about a megabyte, where `jsonschema`'s
/// own keeps a copy of the list and a hash set of it.
pub(super) struct EnumSet {
    strings: Option<Strings>,
    /// The values of a list that is not all strings.
    values: Vec<Value>,
}

struct Strings {
    text: String,
    /// Where each value ends in `text`, in the list's order.
    ends: Vec<u32>,
    /// The values' positions, in the order of their text.
    sorted: Vec<u32>,
}

impl Strings {
    fn get(&self, i: u32) -> &str {
        let i = i as usize;
        let start = match i {
            0 => 0,
            i => self.ends[i - 1] as usize,
        };
        self.text
            .get(start..self.ends[i] as usize)
            .unwrap_or_default()
    }
}

impl EnumSet {
    pub(super) fn new(options: &Value) -> EnumSet {
        let list = options.as_array().map(Vec::as_slice).unwrap_or_default();
        let strings: Option<Vec<&str>> = list.iter().map(Value::as_str).collect();
        let total: usize = strings.iter().flatten().map(|s| s.len()).sum();
        match strings {
            Some(strings) if u32::try_from(total).is_ok() => {
                let mut text = String::with_capacity(total);
                let mut ends = Vec::with_capacity(strings.len());
                for s in &strings {
                    text.push_str(s);
                    ends.push(text.len() as u32);
                }
                let mut sorted: Vec<u32> = (0..strings.len() as u32).collect();
                sorted.sort_unstable_by_key(|&i| strings[i as usize]);
                EnumSet {
                    strings: Some(Strings { text, ends, sorted }),
                    values: Vec::new(),
                }
            }
            _ => EnumSet {
                strings: None,
                values: list.to_vec(),
            },
        }
    }

    /// Whether a value (of any representation `jsonschema` reads) is one
    /// of the set's.
    pub(super) fn contains<'a, F: Json>(&self, node: &F::Node<'a>) -> bool {
        match &self.strings {
            Some(strings) => node.as_string().is_some_and(|text| {
                strings
                    .sorted
                    .binary_search_by(|&i| strings.get(i).cmp(&text))
                    .is_ok()
            }),
            None => self.values.iter().any(|value| node.equals_value(value)),
        }
    }
}

/// `enum`, checked against its [`EnumSet`].
struct EnumKeyword(Arc<EnumSet>);

impl<'i, F: Json> Keyword<'i, F> for EnumKeyword {
    fn validate(&self, instance: F::Node<'i>) -> Result<(), ValidationError<'i>> {
        match self.0.contains::<F>(&instance) {
            true => Ok(()),
            false => Err(ValidationError::custom(
                "the value is not one of the `enum` values",
            )),
        }
    }

    fn is_valid(&self, instance: F::Node<'i>) -> bool {
        self.0.contains::<F>(&instance)
    }
}

/// A schema node's address: what the report finds an `enum`'s set and a
/// node's [`Rule`] by. The schema is boxed and never changes once
/// compiled, so an address stays its node's.
pub(super) fn address(node: &Value) -> usize {
    std::ptr::from_ref(node) as usize
}

/// The sets of every `enum` of a schema, by the address of its list.
pub(super) type Enums = HashMap<usize, Arc<EnumSet>>;

pub(super) fn enums(schema: &Value) -> Enums {
    let mut enums = HashMap::default();
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (key, value) in map {
                    match key.as_str() {
                        "enum" if value.is_array() => {
                            enums.insert(address(value), Arc::new(EnumSet::new(value)));
                        }
                        // Values, not schemas.
                        "enum" | "const" | "default" | "examples" => {}
                        _ => stack.push(value),
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    enums
}

/// `jsonschema`'s validator of the schema over the representation `F`,
/// its `enum`s checked against `enums` (a list `enums` does not hold gets a
/// set of its own).
pub(super) fn compile<F: Json>(
    schema: &Value,
    enums: &Arc<Enums>,
) -> Result<jsonschema::Validator<F>, ValidationError<'static>> {
    let shared = Arc::clone(enums);
    jsonschema::options_for::<F>()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_keyword("enum", move |_, options, _| {
            let set = match shared.get(&address(options)) {
                Some(set) => Arc::clone(set),
                None => Arc::new(EnumSet::new(options)),
            };
            Ok(Box::new(EnumKeyword(set)))
        })
        .build(schema)
}

/// Rules of one schema node that the report does not walk, compiled on
/// their own.
pub(crate) struct Rule {
    /// What was compiled: the node's assertions (`minLength`, ...), or for
    /// a node the walk does not follow at all, the whole node.
    pub(super) schema: Value,
    pub(super) compiled: jsonschema::Validator<super::tape::Tape>,
    /// Whether `schema` is the whole node.
    pub(super) whole: bool,
}

/// Keywords that assert on the value itself: each node's are compiled
/// together as one [`Rule`].
const ASSERTIONS: &[&str] = &[
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "contentEncoding",
    "contentMediaType",
];

/// Keywords whose meaning depends on more than the walk follows: a node
/// with one is explained whole by `jsonschema`.
const UNWALKED: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "patternProperties",
    "propertyNames",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "contentSchema",
    "$dynamicRef",
    "$recursiveRef",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$anchor",
    "$vocabulary",
];

fn unwalked(map: &Map<String, Value>, root: bool) -> bool {
    map.keys().any(|k| UNWALKED.contains(&k.as_str()))
        || (!root && map.contains_key("$id"))
        || map
            .get("$ref")
            .and_then(Value::as_str)
            .is_some_and(|r| !r.starts_with("#/") && r != "#")
        || matches!(map.get("items"), Some(Value::Array(_)))
}

/// The [`Rule`]s of a schema's nodes, by address. agentc's own schemas
/// have one (the AAP schema's `maxProperties: 0`).
pub(super) fn rules(root: &Value) -> HashMap<usize, Rule> {
    let mut rules = HashMap::default();
    let mut stack = vec![(root, true)];
    while let Some((node, is_root)) = stack.pop() {
        let map = match node {
            Value::Object(map) => map,
            Value::Bool(false) => {
                if let Some(rule) = rule(Value::Bool(false), true) {
                    rules.insert(address(node), rule);
                }
                continue;
            }
            _ => continue,
        };
        if unwalked(map, is_root) {
            let mut whole = map.clone();
            for defs in ["$defs", "definitions"] {
                if let (false, Some(found)) = (whole.contains_key(defs), root.get(defs)) {
                    whole.insert(defs.to_string(), found.clone());
                }
            }
            if let Some(rule) = rule(Value::Object(whole), true) {
                rules.insert(address(node), rule);
            }
            continue;
        }
        let own: Map<String, Value> = map
            .iter()
            .filter(|(k, _)| ASSERTIONS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !own.is_empty()
            && let Some(rule) = rule(Value::Object(own), false)
        {
            rules.insert(address(node), rule);
        }
        for (key, value) in map {
            match (key.as_str(), value) {
                ("properties" | "$defs" | "definitions", Value::Object(children)) => {
                    stack.extend(children.values().map(|c| (c, false)));
                }
                ("additionalProperties" | "items", _) => stack.push((value, false)),
                ("anyOf" | "oneOf" | "allOf", Value::Array(branches)) => {
                    stack.extend(branches.iter().map(|b| (b, false)));
                }
                _ => {}
            }
        }
    }
    rules
}

fn rule(schema: Value, whole: bool) -> Option<Rule> {
    let compiled = jsonschema::options_for::<super::tape::Tape>()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .ok()?;
    Some(Rule {
        schema,
        compiled,
        whole,
    })
}

/// A union's discriminator (the property whose `const` tells its branches
/// apart) and each branch's tag, found once per `anyOf` or `oneOf` list.
pub(super) type Unions = HashMap<usize, (String, Vec<String>)>;

pub(super) fn unions(root: &Value) -> Unions {
    let mut unions = HashMap::default();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("anyOf" | "oneOf", Value::Array(list)) => {
                            let branches: Vec<&Value> = list
                                .iter()
                                .map(|b| super::explain::resolve(root, b))
                                .collect();
                            if let Some((key, tags)) = super::explain::discriminator(&branches) {
                                let tags = tags.into_iter().map(str::to_string).collect();
                                unions.insert(address(value), (key.to_string(), tags));
                            }
                            stack.extend(list);
                        }
                        ("enum" | "const" | "default" | "examples", _) => {}
                        _ => stack.push(value),
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    unions
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_enum_is_one_compact_set_shared_by_jsonschema_and_the_report() {
        let values: Vec<Value> = (0..100_000).map(|i| json!(format!("v{i}"))).collect();
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string", "enum": values},
            "b": {"enum": [1, "x", null]}
        }});
        let validator = crate::validate::Validator::from_schema(schema).unwrap();
        let list = &validator.schema()["properties"]["a"]["enum"];
        let set = validator
            .enums
            .get(&address(list))
            .expect("a set for the list");
        // One in the table, one in `jsonschema`'s `enum` keyword.
        assert_eq!(Arc::strong_count(set), 2);
        let strings = set.strings.as_ref().expect("all strings");
        let text: usize = (0..100_000).map(|i| format!("v{i}").len()).sum();
        assert_eq!(strings.text.len(), text);
        assert_eq!(strings.ends.len() + strings.sorted.len(), 200_000);
        assert!(validator.is_valid(&json!({"a": "v99999", "b": null})));
        assert!(!validator.is_valid(&json!({"a": "v100000"})));
        assert!(!validator.is_valid(&json!({"b": "y"})));
        assert!(validator.is_valid(&json!({"b": 1.0})), "numbers by value");
    }
}

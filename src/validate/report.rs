//! Why a value does not match its schema: found by walking the schema and
//! the value together, once `jsonschema` has said the value is invalid.
//!
//! `jsonschema` decides validity; its own list of errors is not used for
//! the keywords agentc's schemas are made of, because it costs what no
//! report needs: every branch of every union is explained, each error of a
//! branch holding its own copy of the value, so a union of unions explains
//! 2^depth branches, and a list of a million wrong items is a million
//! errors before the first is read. The walk reads a union's discriminator
//! and explains only the branch it names, stops at the per-value limit of
//! problems, and has a budget of steps. Rules the walk does not follow
//! itself (`minLength`, `not`, a non-local `$ref`, ...) are compiled on
//! their own ([`Rule`]) and their `jsonschema` errors said by
//! [`explain::error`].

use super::explain;
use super::json::{Index, Kind, escape};
use super::tape::{TapeNode, equals};
use super::{Rule, Validator, Violation, describe_node};
use crate::diagnostic::Code;
use jsonschema::JsonType;
use jsonschema::json::{JsonNumber, Node};
use serde_json::{Map, Value};
use std::cell::Cell;

/// How many `$ref`s in a row are followed before one counts as unresolved.
const MAX_REF_HOPS: usize = 64;

/// What found a violation, for a union's report: which branches want
/// another type, and whether each branch misses exactly one property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Type,
    Required,
    Other,
}

/// Where a walk puts the violations it finds.
enum Out<'s> {
    /// Listed, with what found each: a union's branch, whose problems are
    /// compared with the other branches' before any is reported.
    List(Vec<(Violation, Origin)>),
    /// Handed on as found: the walk of a whole value, whose problems go
    /// straight to where the caller keeps them (a flood of 100,000 is
    /// never held twice).
    Sink(&'s mut dyn FnMut(Violation)),
}

/// One walk: the violations found so far, up to `cap`.
pub(super) struct Walk<'a, 's> {
    validator: &'a Validator,
    index: &'a Index<'a>,
    out: Out<'s>,
    /// How many violations were found (listed or handed on).
    found: usize,
    cap: usize,
    /// Whether a problem was found past `cap`, or the steps ran out.
    truncated: bool,
    /// Steps left, shared with the walks of a union's branches.
    steps: &'a Cell<usize>,
}

/// The result of walking a value: how many violations it handed on, and
/// whether there are more.
pub(super) struct Found {
    /// How many violations were handed on: at most the walk's `cap`.
    pub count: usize,
    /// More problems were found than handed on.
    pub truncated: bool,
    /// The walk ran out of steps: there may be problems it did not reach.
    pub exhausted: bool,
    /// The steps the walk took: one per value visited with one schema.
    pub steps: usize,
}

/// The steps a walk may take: each visits one value with one schema, so a
/// walk of agentc's schemas (whose unions all have a discriminator) takes
/// a few per value. Only a schema of nested unions without one could take
/// more, each union's branches walked to see which one the value meant.
pub(super) fn budget(nodes: usize) -> usize {
    nodes.saturating_mul(64).saturating_add(1 << 20)
}

/// Walks the value at node `id` of `index` against the validator's schema,
/// handing at most `cap` violations to `sink`, each as it is found.
pub(super) fn walk(
    validator: &Validator,
    index: &Index,
    id: u32,
    cap: usize,
    sink: &mut dyn FnMut(Violation),
) -> Found {
    // Each step visits one value with one schema: a walk costs what the
    // value's size times the schema's depth does, whatever the unions.
    let budget = budget(index.size(id));
    let steps = Cell::new(budget);
    let mut walk = Walk {
        validator,
        index,
        out: Out::Sink(sink),
        found: 0,
        cap,
        truncated: false,
        steps: &steps,
    };
    let mut pointer = String::new();
    walk.schema(validator.schema(), id, &mut pointer);
    let exhausted = steps.get() == 0;
    Found {
        count: walk.found,
        truncated: walk.truncated && !exhausted,
        exhausted,
        steps: budget - steps.get(),
    }
}

impl<'a, 's> Walk<'a, 's> {
    /// A walk of one of a union's branches, whose violations are listed.
    fn branch(&self, cap: usize) -> Walk<'a, 'static> {
        Walk {
            validator: self.validator,
            index: self.index,
            out: Out::List(Vec::new()),
            found: 0,
            cap,
            truncated: false,
            steps: self.steps,
        }
    }

    /// Whether nothing more is to be found: the list is full.
    fn done(&self) -> bool {
        self.truncated
    }

    fn push(&mut self, violation: Violation, origin: Origin) {
        if self.found >= self.cap {
            self.truncated = true;
            return;
        }
        self.found += 1;
        match &mut self.out {
            Out::List(list) => list.push((violation, origin)),
            Out::Sink(sink) => sink(violation),
        }
    }

    /// The violations listed: a branch's.
    fn listed(&self) -> &[(Violation, Origin)] {
        match &self.out {
            Out::List(list) => list,
            Out::Sink(_) => &[],
        }
    }

    fn root(&self) -> &'a Value {
        self.validator.schema()
    }

    fn node(&self, id: u32) -> TapeNode<'a> {
        TapeNode::new(self.index, id)
    }

    /// The value at `id` against the schema `s`.
    fn schema(&mut self, s: &'a Value, id: u32, ptr: &mut String) {
        if self.done() {
            return;
        }
        let left = self.steps.get();
        if left == 0 {
            self.truncated = true;
            return;
        }
        self.steps.set(left - 1);
        let rule = self.validator.rule(s);
        let map = match s {
            Value::Object(map) => map,
            Value::Bool(true) => return,
            _ => {
                if let Some(rule) = rule {
                    self.rule(rule, id, ptr);
                }
                return;
            }
        };
        if let Some(rule) = rule.filter(|r| r.whole) {
            return self.rule(rule, id, ptr);
        }
        let k = Keywords::of(map);
        let node = self.node(id);
        let kind = self.index.kind(id);
        // In `jsonschema`'s order: the value's own rules, then its members
        // or items, then the applicators.
        if let Some(types) = k.types
            && !type_matches(types, &node)
        {
            let expected = expected_types(types);
            self.push(
                explain::type_mismatch(ptr, &expected, &describe_node(self.index, id)),
                Origin::Type,
            );
        }
        if let Some(expected) = k.constant
            && !equals(node, expected)
        {
            let found = describe_node(self.index, id);
            self.push(explain::not_const(ptr, expected, &found), Origin::Other);
        }
        if let Some(options @ Value::Array(allowed)) = k.options
            && !self.validator.enum_contains(options, node)
        {
            let text = self.index.string(id);
            let found = describe_node(self.index, id);
            self.push(
                explain::not_one_of(ptr, allowed, text.as_deref(), &found),
                Origin::Other,
            );
        }
        if let Some(rule) = rule {
            self.rule(rule, id, ptr);
        }
        if kind == Kind::Object {
            // `jsonschema` checks one required property of a closed object
            // after its members, the others before.
            let one = k.one_required();
            if one.is_none()
                && let Some(Value::Array(required)) = k.required
            {
                for name in required.iter().filter_map(Value::as_str) {
                    self.required(s, id, name, ptr);
                }
            }
            self.members(&k, id, ptr);
            if let Some(name) = one {
                self.required(s, id, name, ptr);
            }
        }
        if kind == Kind::Array
            && let Some(items @ (Value::Object(_) | Value::Bool(_))) = k.items
        {
            for (i, item) in self.index.children(id).enumerate() {
                if self.done() {
                    break;
                }
                let len = ptr.len();
                ptr.push('/');
                ptr.push_str(&i.to_string());
                self.schema(items, item, ptr);
                ptr.truncate(len);
            }
        }
        if let Some(Value::Array(all)) = k.all_of {
            for branch in all {
                self.schema(branch, id, ptr);
            }
        }
        if let Some(list @ Value::Array(branches)) = k.any_of {
            self.union(list, branches, false, id, ptr);
        }
        if let Some(list @ Value::Array(branches)) = k.one_of {
            self.union(list, branches, true, id, ptr);
        }
        if let Some(Value::String(reference)) = k.reference
            && let Some(target) = self.resolve(reference)
        {
            self.schema(target, id, ptr);
        }
    }

    fn required(&mut self, s: &'a Value, id: u32, name: &str, ptr: &str) {
        if self.index.member(id, name).is_none() {
            let violation = explain::missing(self.root(), Some(s), ptr, name);
            self.push(violation, Origin::Required);
        }
    }

    /// The members of an object: `properties`, `additionalProperties`.
    fn members(&mut self, k: &Keywords<'a>, id: u32, ptr: &mut String) {
        let properties = k.properties.and_then(Value::as_object);
        let index = self.index;
        match k.additional {
            None => {
                let Some(properties) = properties else {
                    return;
                };
                // `jsonschema` goes by the members of a smaller object, by
                // the properties otherwise.
                if index.len(id) <= properties.len() {
                    for m in index.members(id) {
                        let key = index.key(m).unwrap_or_default();
                        if let Some(sub) = properties.get(key.as_ref()) {
                            self.member(sub, m, &key, ptr);
                        }
                    }
                } else {
                    for (name, sub) in properties {
                        if let Some(m) = index.member(id, name) {
                            self.member(sub, m, name, ptr);
                        }
                    }
                }
            }
            Some(additional) => {
                let mut unexpected = Vec::new();
                for m in index.members(id) {
                    if self.done() {
                        return;
                    }
                    let key = index.key(m).unwrap_or_default();
                    match properties.and_then(|p| p.get(key.as_ref())) {
                        Some(sub) => self.member(sub, m, &key, ptr),
                        None if *additional == Value::Bool(false) => unexpected.push(key),
                        None => self.member(additional, m, &key, ptr),
                    }
                }
                if !unexpected.is_empty() {
                    let declared: Vec<&str> = properties
                        .map(|p| p.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    for key in unexpected {
                        let violation = explain::unknown_property(ptr, &key, &declared);
                        self.push(violation, Origin::Other);
                    }
                }
            }
        }
    }

    fn member(&mut self, sub: &'a Value, m: u32, key: &str, ptr: &mut String) {
        let len = ptr.len();
        ptr.push('/');
        ptr.push_str(&escape(key));
        self.schema(sub, m, ptr);
        ptr.truncate(len);
    }

    /// `anyOf` (or `oneOf`): a discriminated union explains the branch its
    /// discriminator names; another, the branch the value meant.
    fn union(&mut self, union: &'a Value, list: &'a [Value], one: bool, id: u32, ptr: &mut String) {
        if let Some((key, tags)) = self.validator.discriminator(union) {
            let tags: Vec<&str> = tags.iter().map(String::as_str).collect();
            // Only the branch of its tag can match a value.
            if self.index.kind(id) != Kind::Object {
                let found = describe_node(self.index, id);
                return self.push(explain::not_an_object(ptr, &found), Origin::Other);
            }
            let Some(tag) = self.index.member(id, key) else {
                return self.push(explain::no_discriminator(ptr, key, &tags), Origin::Other);
            };
            let text = self.index.string(tag);
            match tags.iter().position(|t| Some(*t) == text.as_deref()) {
                Some(i) => self.schema(&list[i], id, ptr),
                None => {
                    let shown = match &text {
                        Some(text) => Value::from(text.as_ref()).to_string(),
                        None => String::new(),
                    };
                    let found = describe_node(self.index, tag);
                    let violation =
                        explain::unknown_variant(ptr, key, &tags, text.as_deref(), &shown, &found);
                    self.push(violation, Origin::Other);
                }
            }
            return;
        }
        // Each branch walked far enough to know whether it matches, and
        // what its first problems are.
        let mut results = Vec::with_capacity(list.len());
        for branch in list {
            let mut walk = self.branch(2);
            walk.schema(branch, id, &mut ptr.clone());
            if walk.truncated && walk.found < 2 {
                // The steps ran out: the branch is not known to match.
                self.truncated = true;
            }
            results.push(walk);
        }
        let valid = results
            .iter()
            .filter(|w| w.found == 0 && !w.truncated)
            .count();
        if valid > 0 && !(one && valid > 1) {
            return;
        }
        if valid > 1 {
            let found = describe_node(self.index, id);
            return self.push(
                Violation::new(
                    Code::SchemaViolation,
                    ptr.as_str(),
                    format!(
                        "{found} is valid under more than one of the schemas listed in the 'oneOf' keyword"
                    ),
                ),
                Origin::Other,
            );
        }
        // A branch that wants another JSON type is not the one the value
        // meant.
        let node = self.node(id);
        let meant: Vec<usize> = (0..list.len())
            .filter(|&i| self.type_of(&list[i], &node).is_none())
            .collect();
        match meant.as_slice() {
            [] => {
                let mut expected: Vec<String> = Vec::new();
                for branch in list {
                    if let Some(text) = self.type_of(branch, &node)
                        && !expected.contains(&text)
                    {
                        expected.push(text);
                    }
                }
                let found = describe_node(self.index, id);
                self.push(
                    explain::type_mismatch(ptr, &expected.join(" or "), &found),
                    Origin::Other,
                );
            }
            [only] => self.schema(&list[*only], id, ptr),
            several => {
                // "One of these properties": every branch misses one.
                let required: Option<Vec<String>> = several
                    .iter()
                    .map(|&i| match results[i].listed() {
                        [(v, Origin::Required)] if v.pointer == *ptr && !results[i].truncated => v
                            .message
                            .strip_prefix("missing required property ")
                            .map(str::to_string),
                        _ => None,
                    })
                    .collect();
                let violation = match required {
                    Some(names) => explain::one_of_these(ptr, &names),
                    None => {
                        let firsts: Vec<String> = several
                            .iter()
                            .filter_map(|&i| {
                                results[i].listed().first().map(|(v, _)| v.message.clone())
                            })
                            .collect();
                        explain::no_alternative(ptr, several.len(), &firsts)
                    }
                };
                self.push(violation, Origin::Other);
            }
        }
    }

    /// The types a schema wants, when the value is not one of them: what
    /// `jsonschema` reports as a type error at the value itself (through
    /// `$ref` and `allOf`, not through a nested union).
    fn type_of(&self, s: &'a Value, node: &TapeNode<'a>) -> Option<String> {
        let mut s = s;
        for _ in 0..MAX_REF_HOPS {
            let Value::Object(map) = s else {
                return None;
            };
            if let Some(types) = map.get("type")
                && !type_matches(types, node)
            {
                return Some(expected_types(types));
            }
            if let Some(Value::Array(all)) = map.get("allOf")
                && let Some(text) = all.iter().find_map(|b| self.type_of(b, node))
            {
                return Some(text);
            }
            match map.get("$ref").and_then(Value::as_str) {
                Some(reference) => s = self.resolve(reference)?,
                None => return None,
            }
        }
        None
    }

    /// A local `$ref`'s target.
    fn resolve(&self, reference: &str) -> Option<&'a Value> {
        resolve(self.root(), reference)
    }

    /// A rule compiled on its own: its `jsonschema` errors, said as
    /// [`explain::error`] says them, under the value's pointer.
    fn rule(&mut self, rule: &'a Rule, id: u32, ptr: &str) {
        let node = self.node(id);
        if rule.compiled.is_valid(node) {
            return;
        }
        let large = self.index.span(id).len() > super::SHOWN_BYTES;
        for error in rule.compiled.iter_errors(node) {
            let mut found = Vec::new();
            if large {
                // A value too long to print is named by what it is.
                let placeholder = describe_node(self.index, id);
                let masked = error.masked_with(placeholder).to_string();
                explain::error_with_message(&rule.schema, &error, || masked, &mut found);
            } else {
                explain::error(&rule.schema, &error, &mut found);
            }
            for mut violation in found {
                violation.pointer.insert_str(0, ptr);
                for related in &mut violation.related {
                    related.pointer.insert_str(0, ptr);
                }
                self.push(violation, Origin::Other);
                if self.done() {
                    return;
                }
            }
        }
    }
}

/// The keywords of a schema node the walk reads, found in one pass over
/// its members (a handful) rather than a hash lookup each.
#[derive(Default)]
struct Keywords<'a> {
    types: Option<&'a Value>,
    constant: Option<&'a Value>,
    options: Option<&'a Value>,
    required: Option<&'a Value>,
    properties: Option<&'a Value>,
    additional: Option<&'a Value>,
    items: Option<&'a Value>,
    all_of: Option<&'a Value>,
    any_of: Option<&'a Value>,
    one_of: Option<&'a Value>,
    reference: Option<&'a Value>,
}

impl<'a> Keywords<'a> {
    fn of(map: &'a Map<String, Value>) -> Keywords<'a> {
        let mut k = Keywords::default();
        for (key, value) in map {
            let slot = match key.as_str() {
                "type" => &mut k.types,
                "const" => &mut k.constant,
                "enum" => &mut k.options,
                "required" => &mut k.required,
                "properties" => &mut k.properties,
                "additionalProperties" => &mut k.additional,
                "items" => &mut k.items,
                "allOf" => &mut k.all_of,
                "anyOf" => &mut k.any_of,
                "oneOf" => &mut k.one_of,
                "$ref" => &mut k.reference,
                _ => continue,
            };
            *slot = Some(value);
        }
        k
    }

    /// The one required property of a closed object with declared ones.
    fn one_required(&self) -> Option<&'a str> {
        if self.additional != Some(&Value::Bool(false))
            || !self.properties.is_some_and(Value::is_object)
        {
            return None;
        }
        match self.required {
            Some(Value::Array(required)) if required.len() == 1 => required[0].as_str(),
            _ => None,
        }
    }
}

/// A local `$ref`'s target (`#` or `#/...`): a JSON pointer into the root,
/// read without copying its tokens unless one is escaped.
pub(super) fn resolve<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.contains(['~', '%']) {
        return root.pointer(pointer);
    }
    let mut node = root;
    for token in pointer.split('/').skip(1) {
        node = match node {
            Value::Object(map) => map.get(token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// Whether a value is of a `type` (a name or a list of names).
fn type_matches(types: &Value, node: &TapeNode) -> bool {
    let is = |name: &str| match name {
        "integer" => node.as_number().is_some_and(|n| n.is_integer()),
        name => name
            .parse::<JsonType>()
            .is_ok_and(|t| t == node.json_type()),
    };
    match types {
        Value::String(name) => is(name),
        Value::Array(names) => names.iter().filter_map(Value::as_str).any(is),
        _ => true,
    }
}

/// The names of a `type`, as a type error says them.
fn expected_types(types: &Value) -> String {
    match types {
        Value::String(name) => name.clone(),
        Value::Array(names) => {
            let mut set = jsonschema::JsonTypeSet::empty();
            for name in names.iter().filter_map(Value::as_str) {
                if let Ok(t) = name.parse::<JsonType>() {
                    set = set.insert(t);
                }
            }
            set.iter()
                .map(JsonType::as_str)
                .collect::<Vec<_>>()
                .join(" or ")
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    //! The walk says what `jsonschema`'s own errors said, explained one by
    //! one (what agentc reported before the walk): on values generated
    //! from agentc's schemas, most of them slightly wrong.
    use super::super::explain;
    use super::super::run_input::{self, Profile, Version};
    use super::super::{MAX_DIAGNOSTICS, Validator, Violation, aap};
    use serde_json::{Map, Value, json};

    /// The report as `jsonschema`'s errors give it.
    fn by_errors(
        schema: &Value,
        compiled: &jsonschema::Validator,
        value: &Value,
    ) -> Vec<Violation> {
        let mut out = Vec::new();
        for error in compiled.iter_errors(value) {
            explain::error(schema, &error, &mut out);
        }
        out.truncate(MAX_DIAGNOSTICS - 1);
        out
    }

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }

        fn one_in(&mut self, n: u64) -> bool {
            self.next().is_multiple_of(n)
        }
    }

    const WORDS: &[&str] = &["a", "text", "kind", "user", "tool_use", "x", "é", "type"];

    fn junk(rng: &mut Rng, depth: usize) -> Value {
        match rng.below(if depth > 2 { 5 } else { 7 }) {
            0 => Value::Null,
            1 => Value::Bool(rng.one_in(2)),
            2 => json!(rng.below(5) as f64 / 2.0),
            3 => json!(rng.below(3)),
            4 => Value::String(WORDS[rng.below(WORDS.len())].to_string()),
            5 => Value::Array((0..rng.below(3)).map(|_| junk(rng, depth + 1)).collect()),
            _ => {
                let mut map = Map::new();
                for _ in 0..rng.below(3) {
                    map.insert(
                        WORDS[rng.below(WORDS.len())].to_string(),
                        junk(rng, depth + 1),
                    );
                }
                Value::Object(map)
            }
        }
    }

    /// A value of schema `s`, now and then broken on the way.
    fn generate(root: &Value, s: &Value, rng: &mut Rng, depth: usize) -> Value {
        if depth > 8 || rng.one_in(12) {
            return junk(rng, depth);
        }
        let s = explain::resolve(root, s);
        let Some(map) = s.as_object() else {
            return junk(rng, depth);
        };
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                let branch = &branches[rng.below(branches.len())];
                return generate(root, branch, rng, depth + 1);
            }
        }
        if let Some(c) = map.get("const") {
            return if rng.one_in(6) {
                junk(rng, depth)
            } else {
                c.clone()
            };
        }
        if let Some(Value::Array(options)) = map.get("enum") {
            return if rng.one_in(6) {
                junk(rng, depth)
            } else {
                options[rng.below(options.len())].clone()
            };
        }
        let types: Vec<&str> = match map.get("type") {
            Some(Value::String(t)) => vec![t],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let ty = types.get(rng.below(types.len())).copied().unwrap_or("any");
        match ty {
            "object" => {
                let mut out = Map::new();
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if let Some(Value::Object(properties)) = map.get("properties") {
                    for (name, sub) in properties {
                        let wanted = required.contains(&name.as_str());
                        if (wanted && !rng.one_in(10)) || (!wanted && rng.one_in(2)) {
                            out.insert(name.clone(), generate(root, sub, rng, depth + 1));
                        }
                    }
                }
                if rng.one_in(8) {
                    out.insert(WORDS[rng.below(WORDS.len())].to_string(), junk(rng, depth));
                }
                Value::Object(out)
            }
            "array" => {
                let items = map.get("items").cloned().unwrap_or(Value::Bool(true));
                Value::Array(
                    (0..rng.below(4))
                        .map(|_| generate(root, &items, rng, depth + 1))
                        .collect(),
                )
            }
            "string" => Value::String(WORDS[rng.below(WORDS.len())].to_string()),
            "integer" => json!(rng.below(4)),
            "number" => json!(rng.below(8) as f64 / 4.0),
            "boolean" => Value::Bool(rng.one_in(2)),
            "null" => Value::Null,
            _ => junk(rng, depth),
        }
    }

    fn schemas() -> Vec<Value> {
        let mut schemas = Vec::new();
        let aap: Value = serde_json::from_str(aap::SCHEMA).unwrap();
        let defs = aap["$defs"].as_object().unwrap().keys().cloned();
        for name in defs.collect::<Vec<_>>() {
            let mut schema = aap.clone();
            schema["$ref"] = Value::String(format!("#/$defs/{name}"));
            schemas.push(schema);
        }
        for profile in [Profile::AgUi, Profile::Backend] {
            for version in [Version::Draft, Version::V1_0, Version::V1_1] {
                schemas.push(run_input::schema(profile, version).unwrap());
            }
        }
        for protocol in ["shop-assistant/protocol.yaml", "support-desk/protocol.yaml"] {
            let path = format!("{}/protocols/{protocol}", env!("CARGO_MANIFEST_DIR"));
            let compiled = crate::compile(&path, std::fs::read(&path).unwrap());
            let model = compiled.model.unwrap();
            for def in &model.protocol.types {
                let selection = crate::emit::Selection::Type(&def.name.text);
                schemas.push(super::super::schema_of(&model, selection).unwrap());
            }
            for tool in &model.protocol.tools {
                let selection = crate::emit::Selection::Tool(&tool.name.text);
                schemas.push(super::super::schema_of(&model, selection).unwrap());
            }
        }
        schemas
    }

    /// A schema of unions nested `depth` deep: each level's two variants
    /// hold the next level's union in `v` (a discriminator `kind` when
    /// `tagged`), and the last level holds a string.
    fn nested_unions(depth: usize, tagged: bool) -> Value {
        let mut defs = Map::new();
        for i in 0..depth {
            let next = match i + 1 < depth {
                true => json!({"$ref": format!("#/$defs/U{}", i + 1)}),
                false => json!({"type": "string"}),
            };
            for (variant, tag) in [("A", "a"), ("B", "b")] {
                let mut properties = json!({"v": next});
                let mut required = vec!["v"];
                if tagged {
                    properties["kind"] = json!({"type": "string", "const": tag});
                    required.push("kind");
                }
                defs.insert(
                    format!("{variant}{i}"),
                    json!({"type": "object", "properties": properties, "required": required,
                           "additionalProperties": false}),
                );
            }
            defs.insert(
                format!("U{i}"),
                json!({"anyOf": [{"$ref": format!("#/$defs/A{i}")}, {"$ref": format!("#/$defs/B{i}")}]}),
            );
        }
        json!({"$defs": defs, "$ref": "#/$defs/U0"})
    }

    /// A walk's violations, and what it says of them.
    struct Walked {
        violations: Vec<Violation>,
        truncated: bool,
        exhausted: bool,
        steps: usize,
    }

    fn walked(validator: &Validator, value: &Value) -> Walked {
        let text = value.to_string();
        let index = super::Index::new(&text);
        let mut violations = Vec::new();
        let found = super::walk(validator, &index, 0, MAX_DIAGNOSTICS - 1, &mut |v| {
            violations.push(v)
        });
        assert_eq!(found.count, violations.len());
        Walked {
            violations,
            truncated: found.truncated,
            exhausted: found.exhausted,
            steps: found.steps,
        }
    }

    #[test]
    fn a_union_of_unions_is_explained_along_the_branches_it_names() {
        // `jsonschema`'s errors explain both branches of every level: 2^40
        // here. The walk follows the discriminator down.
        let depth = 40;
        let validator = Validator::from_schema(nested_unions(depth, true)).unwrap();
        let mut value = json!(1);
        for _ in 0..depth {
            value = json!({"kind": "a", "v": value});
        }
        let found = walked(&validator, &value);
        assert_eq!(found.violations.len(), 1);
        assert_eq!(
            found.violations[0].message,
            "expected string, found number `1`"
        );
        assert_eq!(found.violations[0].pointer, "/v".repeat(depth));
        // Each level: the union, its branch, the branch's `$ref` target,
        // and the two members.
        assert!(found.steps <= 5 * depth + 1, "{} steps", found.steps);
    }

    #[test]
    fn a_flood_stops_at_the_limit_without_walking_the_rest() {
        let mut schema = nested_unions(1, true);
        schema["type"] = json!("array");
        schema["items"] = schema["$ref"].take();
        schema.as_object_mut().unwrap().remove("$ref");
        schema["items"] = json!({"$ref": "#/$defs/U0"});
        let validator = Validator::from_schema(schema).unwrap();
        let items = vec![json!({}); 3 * MAX_DIAGNOSTICS];
        let found = walked(&validator, &Value::Array(items));
        assert!(found.truncated && !found.exhausted);
        assert_eq!(found.violations.len(), MAX_DIAGNOSTICS - 1);
        // One item each, its union, the union's `$ref`: the walk stops
        // after the first items that fill the list.
        assert!(found.steps <= 3 * MAX_DIAGNOSTICS, "{} steps", found.steps);
        let errors = validator
            .validate(&Value::Array(vec![json!({}); 3 * MAX_DIAGNOSTICS]))
            .unwrap_err();
        assert_eq!(errors.len(), MAX_DIAGNOSTICS);
        assert_eq!(errors.last().unwrap().code, crate::Code::TooManyProblems);
    }

    #[test]
    fn unions_without_a_discriminator_are_walked_within_a_budget() {
        // Each level tries both branches: 2^depth steps, past the budget.
        // (`jsonschema` tries them too, to say whether the value is valid.)
        let depth = 21;
        let validator = Validator::from_schema(nested_unions(depth, false)).unwrap();
        let mut value = json!(1);
        for _ in 0..depth {
            value = json!({"v": value});
        }
        let found = walked(&validator, &value);
        assert!(found.exhausted);
        assert_eq!(found.steps, super::budget(depth + 1));
        let errors = validator.validate(&value).unwrap_err();
        assert!(
            errors.iter().any(|v| v
                .message
                .starts_with("agentc stopped explaining this value after")),
            "{errors:?}"
        );
        // A shallow one is explained as before.
        let validator = Validator::from_schema(nested_unions(2, false)).unwrap();
        let errors = validator.validate(&json!({"v": {"v": 1}})).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
    }

    #[test]
    fn the_walk_reports_what_jsonschema_errors_did() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut invalid = 0;
        for schema in schemas() {
            let validator = Validator::from_schema(schema.clone()).unwrap();
            let compiled = jsonschema::draft202012::new(&schema).unwrap();
            for _ in 0..300 {
                let value = generate(&schema, &schema, &mut rng, 0);
                let expected = by_errors(&schema, &compiled, &value);
                let found = validator.validate(&value).err().unwrap_or_default();
                assert_eq!(
                    found.is_empty(),
                    expected.is_empty(),
                    "validity of {value} against {}",
                    schema.get("$ref").unwrap_or(&Value::Null)
                );
                if expected.is_empty() {
                    continue;
                }
                invalid += 1;
                assert_eq!(
                    found,
                    expected,
                    "{value} against {}",
                    schema.get("$ref").unwrap_or(&Value::Null)
                );
            }
        }
        assert!(invalid > 1000, "only {invalid} invalid values");
    }
}

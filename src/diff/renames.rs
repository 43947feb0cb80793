//! Undeclared renames: an added and a removed contract (a tool, a
//! trigger) or property of the same shape, which the diff reports as
//! severe as a declared rename (`docs/diff.md`, "Renames").

use crate::emit::lower::Schema;
use std::collections::HashMap;

/// A schema's shape, for telling a rename from an unrelated removal and
/// addition: its JSON Schema without descriptions, as text, in an order of
/// its own, so that properties, `required`, `enum` values and union
/// variants written in another order are the same shape, as the diff
/// itself finds no change in them.
pub(super) fn shape(schema: &Schema) -> String {
    fn strip(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                map.remove("description");
                map.values_mut().for_each(strip);
                map.sort_keys();
                for key in ["required", "enum", "anyOf", "oneOf"] {
                    if let Some(serde_json::Value::Array(items)) = map.get_mut(key) {
                        items.sort_by_cached_key(|item| item.to_string());
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value = crate::emit::schema::render(schema);
    strip(&mut value);
    value.to_string()
}

/// Which added and removed contracts pair up as undeclared renames: each
/// added one with the first removed one of the same shape not paired yet.
/// Linear: shapes are looked up by their text.
pub(super) struct Pairs {
    /// For each added one, the removed one it pairs with.
    pub added: Vec<Option<usize>>,
    /// For each removed one, the added one it pairs with.
    pub removed: Vec<Option<usize>>,
}

pub(super) fn rename_candidates<A, R>(
    added: &[A],
    removed: &[R],
    added_shape: impl Fn(&A) -> String,
    removed_shape: impl Fn(&R) -> String,
) -> Pairs {
    let mut pairs = Pairs {
        added: vec![None; added.len()],
        removed: vec![None; removed.len()],
    };
    if added.is_empty() || removed.is_empty() {
        return pairs;
    }
    let mut by_shape: HashMap<String, std::collections::VecDeque<usize>> = HashMap::new();
    for (j, item) in removed.iter().enumerate() {
        by_shape
            .entry(removed_shape(item))
            .or_default()
            .push_back(j);
    }
    for (i, item) in added.iter().enumerate() {
        if let Some(j) = by_shape
            .get_mut(&added_shape(item))
            .and_then(|free| free.pop_front())
        {
            pairs.added[i] = Some(j);
            pairs.removed[j] = Some(i);
        }
    }
    pairs
}

/// The help of an added or a removed contract that looks like half of a
/// rename: how to declare it, with the exact line.
pub(super) fn undeclared_rename(what: &str, from: &str, to: &str) -> String {
    format!(
        "{what} `{to}` has the shape {what} `{from}` had: if it is `{from}` renamed, declare it by adding `# agentc-renamed-from: {from}` on the line above `{to}:`, and the diff compares the two; declared or not, deployed code knows one name, so this is as severe as a declared rename"
    )
}

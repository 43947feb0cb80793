//! What the unit tests of more than one module share.

use proptest::prelude::*;
use serde_json::{Value, json};

/// Any JSON value, a few levels deep: null, booleans, integers, floats
/// (a float `serde_json` cannot write, NaN or infinite, is null), short
/// strings of any characters, and arrays and objects of them.
pub(crate) fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|n| json!(n)),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((".{0,6}", inner), 0..5)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

/// The text of every YAML file under `protocols/`, the fixtures, read at
/// run time (at least a hundred of them).
pub(crate) fn fixture_texts() -> Vec<String> {
    let mut texts = Vec::new();
    let mut folders = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocols")];
    while let Some(folder) = folders.pop() {
        let Ok(read) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in read.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                texts.extend(std::fs::read_to_string(&path).ok());
            }
        }
    }
    assert!(texts.len() > 100, "the fixtures under protocols/ are read");
    texts
}

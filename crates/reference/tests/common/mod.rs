//! What the property tests share: arbitrary JSON made of a document's own keywords, and random
//! edits of a real document. Host only (proptest has no random source in the wasm32 builds here).
#![cfg(not(target_arch = "wasm32"))]
#![allow(dead_code)] // each test file uses what it needs

use proptest::prelude::*;
use serde_json::Value;

/// Arbitrary JSON whose keys are mostly `keys` (so objects reach the reader's branches) and
/// whose strings are mostly `keys` and `strings` (versions, references, ...).
pub fn json_value(
    keys: &'static [&'static str],
    strings: &'static [&'static str],
) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        Just(Value::from(4_000_000_000_u64)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        prop_oneof![
            proptest::sample::select(keys).prop_map(str::to_owned),
            proptest::sample::select(strings).prop_map(str::to_owned),
            ".{0,8}",
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(7, 96, 6, move |inner| {
        let key = prop_oneof![proptest::sample::select(keys).prop_map(str::to_owned), "[a-z~/%{}]{0,4}"];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((key, inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// Every JSON pointer into `value`.
fn pointers(value: &Value, at: &str, out: &mut Vec<String>) {
    out.push(at.to_owned());
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                pointers(v, &format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// One random edit: at a random pointer, the value is replaced, or removed when the flag is set.
pub type Edit = (proptest::sample::Index, Value, bool);

/// `doc` with `edits` applied in turn.
#[must_use]
pub fn edited(mut doc: Value, edits: Vec<Edit>) -> Value {
    for (index, value, remove) in edits {
        let mut all = Vec::new();
        pointers(&doc, "", &mut all);
        let pointer = index.get(&all).clone();
        let Some((parent, key)) = pointer.rsplit_once('/') else {
            doc = value;
            continue;
        };
        let key = key.replace("~1", "/").replace("~0", "~");
        match doc.pointer_mut(parent) {
            Some(Value::Object(map)) if remove => {
                map.remove(&key);
            }
            Some(Value::Array(items)) if remove => {
                if let Ok(i) = key.parse::<usize>() {
                    items.remove(i);
                }
            }
            _ => {
                if let Some(slot) = doc.pointer_mut(&pointer) {
                    *slot = value;
                }
            }
        }
    }
    doc
}

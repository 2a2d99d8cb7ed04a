//! Values generated for answers, kept: generating a large body is most of the time of its
//! answer, and the same schema and seed always give the same value.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

/// The most the kept values may weigh in all (about; see [`weight`]); past it the cache starts
/// again empty.
pub(crate) const MAX_CACHED_BYTES: usize = 16 * 1024 * 1024;

/// Generated values by the schema they were made from (its place in the document, which the
/// mock never changes) and the seed.
#[derive(Debug, Default)]
pub(crate) struct Generated {
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    values: HashMap<(usize, u64), Value>,
    bytes: usize,
}

impl Generated {
    /// The value kept for `schema` and `seed`, else the one `make` gives (then kept).
    pub(crate) fn get_or_make(&self, schema: &Value, seed: u64, make: impl FnOnce() -> Value) -> Value {
        let key = (std::ptr::from_ref(schema) as usize, seed);
        if let Some(found) = self.kept.lock().unwrap_or_else(PoisonError::into_inner).values.get(&key) {
            return found.clone();
        }
        let value = make();
        let size = weight(&value);
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if size <= MAX_CACHED_BYTES {
            if kept.bytes + size > MAX_CACHED_BYTES {
                kept.values.clear();
                kept.bytes = 0;
            }
            kept.bytes += size;
            kept.values.insert(key, value.clone());
        }
        value
    }
}

/// About how many bytes a value takes in memory: a node's size plus its text.
fn weight(value: &Value) -> usize {
    let node = std::mem::size_of::<Value>();
    let mut total = 0;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        total += node;
        match value {
            Value::String(s) => total += s.len(),
            Value::Array(items) => stack.extend(items),
            Value::Object(fields) => {
                for (name, field) in fields {
                    total += name.len() + node;
                    stack.push(field);
                }
            }
            _ => {}
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_value_is_made_once_per_schema_and_seed() {
        let cache = Generated::default();
        let (a, b) = (json!({"type": "string"}), json!({"type": "string"}));
        let mut made = 0;
        let mut make = |v: &str| {
            made += 1;
            json!(v)
        };
        assert_eq!(cache.get_or_make(&a, 1, || make("x")), json!("x"));
        assert_eq!(cache.get_or_make(&a, 1, || make("y")), json!("x"), "kept");
        assert_eq!(cache.get_or_make(&a, 2, || make("z")), json!("z"), "another seed");
        assert_eq!(cache.get_or_make(&b, 1, || make("w")), json!("w"), "another schema");
        assert_eq!(made, 3);
    }

    #[test]
    fn the_cache_starts_again_when_full() {
        let cache = Generated::default();
        let big = "x".repeat(MAX_CACHED_BYTES / 2);
        let schemas: Vec<Value> = (0..3).map(|i| json!({"n": i})).collect();
        for schema in &schemas {
            cache.get_or_make(schema, 0, || json!(big));
        }
        let kept = cache.kept.lock().unwrap();
        assert!(kept.bytes <= MAX_CACHED_BYTES, "{}", kept.bytes);
        assert_eq!(kept.values.len(), 1, "the third value emptied the cache of the first two");
        drop(kept);
        // One heavier than the whole budget is given, not kept.
        let huge = "y".repeat(MAX_CACHED_BYTES + 1);
        let schema = json!({});
        assert_eq!(cache.get_or_make(&schema, 0, || json!(huge.clone())), json!(huge));
        assert!(!cache.kept.lock().unwrap().values.contains_key(&(std::ptr::from_ref(&schema) as usize, 0)));
    }
}

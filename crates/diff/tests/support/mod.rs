//! What the diff crate's tests share: YAML read as the JSON a description is.

use serde_json::{Map, Value, json};

/// YAML (after `<<` merges) to JSON; mapping keys that YAML reads as numbers (`200:`) or
/// booleans become strings, as in JSON.
pub fn to_json(value: serde_yaml_ng::Value) -> Value {
    use serde_yaml_ng::Value as Y;
    match value {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                json!(i)
            } else if let Some(u) = n.as_u64() {
                json!(u)
            } else {
                json!(n.as_f64().expect("a YAML number is a float when not an integer"))
            }
        }
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(to_json).collect()),
        Y::Mapping(mapping) => {
            let mut object = Map::new();
            for (key, value) in mapping {
                let key = match key {
                    Y::String(s) => s,
                    Y::Number(n) => n.to_string(),
                    Y::Bool(b) => b.to_string(),
                    other => panic!("a YAML mapping key that is not a scalar: {other:?}"),
                };
                object.insert(key, to_json(value));
            }
            Value::Object(object)
        }
        Y::Tagged(tagged) => panic!("no YAML tags expected, found {}", tagged.tag),
    }
}

//! JSON values named in messages.

use serde_json::Value;

/// What a JSON value is, in words ("a list", "a string"), for messages about the wrong kind.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// [`Key::key`]: an object's member by name, for the schema walkers (the checker, the
/// generator), which ask each schema for many keywords it mostly lacks.
pub trait Key {
    /// The member `name` of an object (`None` for any other value), as `get` finds it.
    /// An object of at most [`SCAN_UP_TO`] members is scanned in order, comparing names, which
    /// costs less than hashing the name (the document's maps hash with SipHash); a larger one
    /// is looked up by hash.
    fn key(&self, name: &str) -> Option<&Value>;
}

/// The most members [`Key::key`] scans rather than hashes: a schema has a handful of keywords.
pub const SCAN_UP_TO: usize = 8;

impl Key for Value {
    #[inline]
    fn key(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Object(map) => map.key(name),
            _ => None,
        }
    }
}

impl Key for serde_json::Map<String, Value> {
    #[inline]
    fn key(&self, name: &str) -> Option<&Value> {
        if self.len() <= SCAN_UP_TO {
            self.iter().find_map(|(k, v)| (k.as_str() == name).then_some(v))
        } else {
            self.get(name)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Key, SCAN_UP_TO};

    /// Scanned or hashed, `key` finds what `get` finds, present or not.
    #[test]
    fn key_finds_what_get_finds() {
        for size in [0, 1, 2, SCAN_UP_TO, SCAN_UP_TO + 1, 3 * SCAN_UP_TO] {
            let object: serde_json::Map<String, Value> =
                (0..size).map(|i| (format!("k{i}"), json!(i))).collect();
            let value = Value::Object(object.clone());
            for name in (0..size + 2).map(|i| format!("k{i}")).chain(["".to_owned(), "k".to_owned()]) {
                assert_eq!(value.key(&name), value.get(&name), "{size} members, {name:?}");
                assert_eq!(object.key(&name), object.get(&name), "{size} members, {name:?}");
            }
        }
        for other in [json!(null), json!([1, 2]), json!("type"), json!(3)] {
            assert_eq!(other.key("type"), None);
        }
    }
}

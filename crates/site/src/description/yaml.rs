//! YAML read into JSON values as a browser's YAML reader (js-yaml) does: integers past 64 bits
//! become numbers (OpenAI's description writes `minimum: -9223372036854776000`), and keys that
//! are numbers or booleans (`200:` under `responses`) become their text.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Reads YAML text into a JSON value.
///
/// # Errors
/// serde_yaml_ng's error (with its line and column) for text that is not YAML, and for a key
/// that is a list or a map.
pub(super) fn from_slice(bytes: &[u8]) -> Result<Value, serde_yaml_ng::Error> {
    Json.deserialize(serde_yaml_ng::Deserializer::from_slice(bytes))
}

/// A JSON value, read from any serde format.
struct Json;

impl<'de> DeserializeSeed<'de> for Json {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// A number too large for 64 bits, as the nearest double (what JavaScript reads).
fn wide(value: f64) -> Value {
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}

impl<'de> Visitor<'de> for Json {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    #[expect(clippy::cast_precision_loss, reason = "past 64 bits, a double is what readers keep")]
    fn visit_i128<E>(self, v: i128) -> Result<Value, E> {
        Ok(i64::try_from(v).map_or_else(|_| wide(v as f64), Value::from))
    }
    #[expect(clippy::cast_precision_loss, reason = "past 64 bits, a double is what readers keep")]
    fn visit_u128<E>(self, v: u128) -> Result<Value, E> {
        Ok(u64::try_from(v).map_or_else(|_| wide(v as f64), Value::from))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // Infinity and NaN (`.inf`, `.nan`) have no JSON form: null, as JSON.stringify writes.
        Ok(wide(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(Json)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key_seed(Json)? {
            let key = match key {
                Value::String(key) => key,
                Value::Null => "null".to_owned(),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                Value::Array(_) | Value::Object(_) => {
                    return Err(de::Error::custom("a key is a list or a map, which JSON has no key for"));
                }
            };
            let value = map.next_value_seed(Json)?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::from_slice;

    #[test]
    fn integers_past_64_bits_are_numbers_and_keys_are_text() {
        let value =
            from_slice(b"minimum: -9223372036854776000\nmaximum: 18446744073709551616\nsmall: -3\n").unwrap();
        assert_eq!(value["minimum"].as_f64(), Some(-9_223_372_036_854_776_000.0));
        assert_eq!(value["maximum"].as_f64(), Some(18_446_744_073_709_551_616.0));
        assert_eq!(value["small"], json!(-3));
        let value = from_slice(b"200: ok\ntrue: yes\n1.5: x\nnull: n\ninf: .inf\n").unwrap();
        assert_eq!(value, json!({"200": "ok", "true": "yes", "1.5": "x", "null": "n", "inf": null}));
    }

    #[test]
    fn anchors_are_followed_and_bad_keys_are_errors() {
        let value = from_slice(b"a: &x [1, {b: 2}]\nc: *x\n").unwrap();
        assert_eq!(value, json!({"a": [1, {"b": 2}], "c": [1, {"b": 2}]}));
        let error = from_slice(b"? [1, 2]\n: x\n").unwrap_err().to_string();
        assert!(error.contains("a key is a list or a map"), "{error}");
        let error = from_slice(b"a: [1\n").unwrap_err().to_string();
        assert!(error.contains("line"), "{error}");
    }
}

//! Schemas: Swagger 2.0's are nearly OpenAPI 3.0's. What differs is `x-nullable` (`nullable`),
//! `type: file` (a binary string), a `discriminator` given as the property's name (an object
//! with `propertyName`), and the `$ref`s; everything else is kept as it is.

use serde_json::{Map, Value, json};

use super::error::ConvertError;
use super::read::{At, field, object, opt_str, wrong};
use super::{Converter, MAX_DEPTH};

/// The fields of a path, query, header or form parameter (and of a response header) that
/// describe its value: they make its OpenAPI 3 `schema`.
pub(super) const VALUE_FIELDS: [&str; 16] = [
    "type",
    "format",
    "items",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "enum",
    "multipleOf",
];

/// Where a schema comes from: what `collectionFormat` means in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// A Schema Object (`definitions`, a body, a response).
    Schema,
    /// The `items` of a parameter or header, where `collectionFormat` says how nested arrays
    /// are written, which OpenAPI 3 cannot say.
    Items,
}

impl Converter<'_> {
    /// Converts the Schema Object `value` at `at`, `depth` schemas down from where the walk
    /// started.
    pub(super) fn schema(&mut self, value: &Value, at: &At<'_>, depth: usize) -> Result<Value, ConvertError> {
        self.schema_of(value, at, depth, Origin::Schema)
    }

    /// The `schema` of a parameter or header at `at`: its [`VALUE_FIELDS`], and `nullable`
    /// for an `x-nullable` boolean.
    pub(super) fn value_schema(
        &mut self,
        map: &Map<String, Value>,
        at: &At<'_>,
    ) -> Result<Value, ConvertError> {
        let mut schema = Map::new();
        for (key, value) in map.iter().filter(|(key, _)| VALUE_FIELDS.contains(&key.as_str())) {
            schema.insert(key.clone(), value.clone());
        }
        if let Some(Value::Bool(nullable)) = map.get("x-nullable") {
            schema.insert("x-nullable".to_owned(), Value::Bool(*nullable));
        }
        self.schema_of(&Value::Object(schema), at, 1, Origin::Items)
    }

    fn schema_of(
        &mut self,
        value: &Value,
        at: &At<'_>,
        depth: usize,
        origin: Origin,
    ) -> Result<Value, ConvertError> {
        if depth > MAX_DEPTH {
            return Err(ConvertError::TooDeep { pointer: at.pointer() });
        }
        let map = object(value, at)?;
        let is_file = field(map, "type").and_then(Value::as_str) == Some("file");
        let mut out = Map::new();
        for (key, value) in map {
            let here = at.field(key);
            match key.as_str() {
                "$ref" => {
                    let reference = value.as_str().ok_or_else(|| wrong(&here, "a text", value))?;
                    let reference = self.names.rewrite(reference, &here, &mut self.notes);
                    out.insert(key.clone(), Value::String(reference));
                }
                "type" => self.schema_type(value, &here, &mut out)?,
                "format" if is_file => {}
                "x-nullable" if value.is_boolean() && !map.contains_key("nullable") => {
                    out.insert("nullable".to_owned(), value.clone());
                }
                "discriminator" => match value {
                    Value::String(name) => {
                        out.insert(key.clone(), json!({ "propertyName": name }));
                    }
                    Value::Object(_) => {
                        out.insert(key.clone(), value.clone());
                    }
                    _ => return Err(wrong(&here, "a text", value)),
                },
                "properties" => {
                    let properties = object(value, &here)?;
                    let mut converted = Map::new();
                    for (name, property) in properties {
                        let schema = self.schema_of(property, &here.field(name), depth + 1, origin)?;
                        converted.insert(name.clone(), schema);
                    }
                    out.insert(key.clone(), Value::Object(converted));
                }
                "items" | "not" => {
                    out.insert(key.clone(), self.schema_of(value, &here, depth + 1, origin)?);
                }
                "allOf" | "anyOf" | "oneOf" => {
                    let list = value.as_array().ok_or_else(|| wrong(&here, "a list", value))?;
                    let mut converted = Vec::new();
                    for (i, schema) in list.iter().enumerate() {
                        converted.push(self.schema_of(schema, &here.index(i), depth + 1, origin)?);
                    }
                    out.insert(key.clone(), Value::Array(converted));
                }
                "additionalProperties" => {
                    let converted = match value {
                        Value::Bool(_) => value.clone(),
                        Value::Object(_) => self.schema_of(value, &here, depth + 1, origin)?,
                        _ => return Err(wrong(&here, "an object or a boolean", value)),
                    };
                    out.insert(key.clone(), converted);
                }
                "required" => match value {
                    Value::Array(_) => {
                        out.insert(key.clone(), value.clone());
                    }
                    Value::Bool(flag) => self.notes.push(format!(
                        "`required: {flag}` in the schema {} is not how a schema says a property is required (its object lists it in `required`); it is left out.",
                        at.quoted()
                    )),
                    _ => return Err(wrong(&here, "a list", value)),
                },
                "collectionFormat" if origin == Origin::Items => {
                    if let Some(format) = opt_str(map, key, at)? {
                        self.notes.push(format!(
                            "`collectionFormat: {format}` at {} describes how nested arrays are written, which OpenAPI 3 cannot say; it is left out.",
                            here.quoted()
                        ));
                    }
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        Ok(Value::Object(out))
    }

    /// Converts `type` (at `at`) into `out`: `file` is a binary string; a list of types (a JSON
    /// Schema form Swagger 2.0 does not have) is its one type other than `null`, `nullable`
    /// when it has `null`.
    fn schema_type(
        &mut self,
        value: &Value,
        at: &At<'_>,
        out: &mut Map<String, Value>,
    ) -> Result<(), ConvertError> {
        let one = |out: &mut Map<String, Value>, name: &str| {
            if name == "file" {
                out.insert("type".to_owned(), json!("string"));
                out.insert("format".to_owned(), json!("binary"));
            } else {
                out.insert("type".to_owned(), json!(name));
            }
        };
        match value {
            Value::String(name) => one(out, name),
            Value::Array(list) => {
                let mut names = Vec::new();
                for (i, name) in list.iter().enumerate() {
                    names.push(name.as_str().ok_or_else(|| wrong(&at.index(i), "a text", name))?);
                }
                let nullable = names.contains(&"null");
                let others: Vec<&str> = names.iter().copied().filter(|n| *n != "null").collect();
                match others.as_slice() {
                    [name] => one(out, name),
                    [] => self.notes.push(format!(
                        "The type list at {} names no type but `null`, which OpenAPI 3.0 does not have; the schema is left without a type, `nullable`.",
                        at.quoted()
                    )),
                    _ => self.notes.push(format!(
                        "The type list `{}` at {} has no OpenAPI 3.0 equivalent; the schema is left without a type (any value).",
                        others.join(", "),
                        at.quoted()
                    )),
                }
                if nullable {
                    out.insert("nullable".to_owned(), json!(true));
                }
            }
            _ => return Err(wrong(at, "a text", value)),
        }
        Ok(())
    }
}

//! Validation of JSON values against the document's schemas, for the OpenAPI 3.0 keywords the
//! mock enforces: type, format (int32, int64, date-time), enum, required, properties,
//! additionalProperties, min/maxLength, pattern, minimum/maximum, items, min/maxItems,
//! nullable, allOf/anyOf/oneOf/not. Messages name the field and the rule it breaks.

use std::collections::HashMap;

use openapiv3::{
    AdditionalProperties, OpenAPI, ReferenceOr, Schema, SchemaKind, StringFormat, Type,
    VariantOrUnknownOrEmpty,
};
use serde_json::Value;

/// Reads schemas of one document; compiled `pattern`s are shared.
#[derive(Debug)]
pub(crate) struct Validator<'a> {
    doc: &'a OpenAPI,
    patterns: &'a HashMap<String, regex_lite::Regex>,
}

/// Compiles every `pattern` in the document once.
pub(crate) fn compile_patterns(doc: &Value) -> Result<HashMap<String, regex_lite::Regex>, String> {
    fn walk(v: &Value, out: &mut HashMap<String, regex_lite::Regex>) -> Result<(), String> {
        match v {
            Value::Object(map) => {
                if let (Some(Value::String(p)), Some(Value::String(_))) =
                    (map.get("pattern"), map.get("type"))
                {
                    let re = regex_lite::Regex::new(p).map_err(|e| format!("pattern {p:?}: {e}"))?;
                    out.insert(p.clone(), re);
                }
                map.values().try_for_each(|c| walk(c, out))
            }
            Value::Array(items) => items.iter().try_for_each(|c| walk(c, out)),
            _ => Ok(()),
        }
    }
    let mut out = HashMap::new();
    walk(doc, &mut out)?;
    Ok(out)
}

/// A schema or a reference to one, boxed or not.
pub(crate) trait SchemaRef {
    fn as_ref_or(&self) -> ReferenceOr<&Schema>;
}
impl SchemaRef for ReferenceOr<Schema> {
    fn as_ref_or(&self) -> ReferenceOr<&Schema> {
        match self {
            ReferenceOr::Reference { reference } => ReferenceOr::Reference { reference: reference.clone() },
            ReferenceOr::Item(s) => ReferenceOr::Item(s),
        }
    }
}
impl SchemaRef for ReferenceOr<Box<Schema>> {
    fn as_ref_or(&self) -> ReferenceOr<&Schema> {
        match self {
            ReferenceOr::Reference { reference } => ReferenceOr::Reference { reference: reference.clone() },
            ReferenceOr::Item(s) => ReferenceOr::Item(s),
        }
    }
}

fn describe(v: &Value) -> String {
    let text = match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    };
    if text.chars().count() > 60 { format!("{}…", text.chars().take(60).collect::<String>()) } else { text }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn child(path: &str, field: &str) -> String {
    if path.is_empty() { field.to_owned() } else { format!("{path}.{field}") }
}

impl<'a> Validator<'a> {
    pub(crate) fn new(doc: &'a OpenAPI, patterns: &'a HashMap<String, regex_lite::Regex>) -> Self {
        Self { doc, patterns }
    }

    /// Follows a reference to `#/components/schemas/...`.
    pub(crate) fn resolve<S: SchemaRef>(&self, schema: &'a S) -> Result<&'a Schema, String> {
        match schema.as_ref_or() {
            ReferenceOr::Item(s) => Ok(s),
            ReferenceOr::Reference { reference } => self.component(&reference),
        }
    }

    fn component(&self, reference: &str) -> Result<&'a Schema, String> {
        let name = reference
            .strip_prefix("#/components/schemas/")
            .ok_or_else(|| format!("unsupported schema reference {reference}"))?;
        let found = self
            .doc
            .components
            .as_ref()
            .and_then(|c| c.schemas.get(name))
            .ok_or_else(|| format!("schema {name} is not in the document"))?;
        match found {
            ReferenceOr::Item(s) => Ok(s),
            ReferenceOr::Reference { reference } => self.component(reference),
        }
    }

    /// Checks `value` against `schema`; `path` names the value in messages ("" for the body).
    pub(crate) fn check<S: SchemaRef>(&self, schema: &'a S, value: &Value, path: &str) -> Result<(), String> {
        let schema = self.resolve(schema).map_err(|e| format!("The document is broken: {e}"))?;
        self.check_schema(schema, value, path)
    }

    fn check_schema(&self, schema: &'a Schema, value: &Value, path: &str) -> Result<(), String> {
        let name = if path.is_empty() { "The body" } else { path };
        if value.is_null() {
            return if schema.schema_data.nullable || matches!(schema.schema_kind, SchemaKind::Any(_)) {
                Ok(())
            } else {
                Err(format!("{name} must not be null."))
            };
        }
        match &schema.schema_kind {
            SchemaKind::Type(t) => self.check_type(t, value, name, path),
            SchemaKind::AllOf { all_of } => all_of.iter().try_for_each(|s| self.check(s, value, path)),
            SchemaKind::AnyOf { any_of } => {
                let mut first = None;
                for s in any_of {
                    match self.check(s, value, path) {
                        Ok(()) => return Ok(()),
                        Err(e) => {
                            first.get_or_insert(e);
                        }
                    }
                }
                Err(first.unwrap_or_else(|| format!("{name} matches none of the allowed shapes.")))
            }
            SchemaKind::OneOf { one_of } => {
                let matching = one_of.iter().filter(|s| self.check(*s, value, path).is_ok()).count();
                if matching == 1 {
                    Ok(())
                } else {
                    Err(format!(
                        "{name} must match exactly one of the allowed shapes; it matches {matching}."
                    ))
                }
            }
            SchemaKind::Not { not } => match self.check(not.as_ref(), value, path) {
                Ok(()) => Err(format!("{name} has a shape that is not allowed.")),
                Err(_) => Ok(()),
            },
            SchemaKind::Any(_) => Ok(()),
        }
    }

    fn check_type(&self, t: &'a Type, value: &Value, name: &str, path: &str) -> Result<(), String> {
        let wrong = |expected: &str| format!("{name} must be {expected}; got {}.", type_name(value));
        match t {
            Type::String(s) => {
                let Value::String(text) = value else { return Err(wrong("a string")) };
                let enumeration: Vec<&str> = s.enumeration.iter().flatten().map(String::as_str).collect();
                if !enumeration.is_empty() && !enumeration.contains(&text.as_str()) {
                    return Err(format!(
                        "{name} must be one of {}; got {}.",
                        enumeration.join(", "),
                        describe(value)
                    ));
                }
                let len = text.chars().count();
                if let Some(min) = s.min_length.filter(|&m| len < m) {
                    let unit = if min == 1 { "character" } else { "characters" };
                    return Err(format!("{name} must be at least {min} {unit} long; it has {len}."));
                }
                if let Some(max) = s.max_length.filter(|&m| len > m) {
                    return Err(format!("{name} must be at most {max} characters long; it has {len}."));
                }
                if let Some(pattern) = &s.pattern {
                    let re = self
                        .patterns
                        .get(pattern)
                        .ok_or_else(|| format!("pattern {pattern} not compiled"))?;
                    if !re.is_match(text) {
                        return Err(if pattern == r"\S" {
                            format!("{name} must contain a character other than a space.")
                        } else {
                            format!("{name} must match the pattern {pattern}; got {}.", describe(value))
                        });
                    }
                }
                if let VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) = s.format {
                    let format = time::format_description::well_known::Rfc3339;
                    if time::OffsetDateTime::parse(text, &format).is_err() {
                        return Err(format!(
                            "{name} must be an RFC 3339 date-time such as 2026-12-01T10:00:00Z; got {}.",
                            describe(value)
                        ));
                    }
                }
                Ok(())
            }
            Type::Integer(i) => {
                let n = match value {
                    Value::Number(n) => n.as_i64().ok_or_else(|| {
                        if n.is_u64() {
                            format!("{name} must be a 64-bit integer (at most {}); got {n}.", i64::MAX)
                        } else {
                            format!("{name} must be an integer; got {n}.")
                        }
                    })?,
                    _ => return Err(wrong("an integer")),
                };
                if matches!(i.format, VariantOrUnknownOrEmpty::Item(openapiv3::IntegerFormat::Int32))
                    && i32::try_from(n).is_err()
                {
                    return Err(format!("{name} must be a 32-bit integer; got {n}."));
                }
                let enumeration: Vec<i64> = i.enumeration.iter().flatten().copied().collect();
                if !enumeration.is_empty() && !enumeration.contains(&n) {
                    return Err(format!("{name} must be one of {enumeration:?}; got {n}."));
                }
                if let Some(min) = i.minimum
                    && (n < min || (i.exclusive_minimum && n == min))
                {
                    let rel = if i.exclusive_minimum { "greater than" } else { "at least" };
                    return Err(format!("{name} must be {rel} {min}; got {n}."));
                }
                if let Some(max) = i.maximum
                    && (n > max || (i.exclusive_maximum && n == max))
                {
                    let rel = if i.exclusive_maximum { "less than" } else { "at most" };
                    return Err(format!("{name} must be {rel} {max}; got {n}."));
                }
                Ok(())
            }
            Type::Number(num) => {
                let Some(n) = value.as_f64() else { return Err(wrong("a number")) };
                if let Some(min) = num.minimum.filter(|&m| n < m || (num.exclusive_minimum && n == m)) {
                    return Err(format!("{name} must be at least {min}; got {n}."));
                }
                if let Some(max) = num.maximum.filter(|&m| n > m || (num.exclusive_maximum && n == m)) {
                    return Err(format!("{name} must be at most {max}; got {n}."));
                }
                Ok(())
            }
            Type::Boolean(_) => value.is_boolean().then_some(()).ok_or_else(|| wrong("true or false")),
            Type::Object(o) => {
                let Value::Object(map) = value else { return Err(wrong("an object")) };
                for field in &o.required {
                    if !map.contains_key(field) {
                        return Err(format!("{} is required.", child(path, field)));
                    }
                }
                for (field, v) in map {
                    match o.properties.get(field) {
                        Some(s) => self.check(s, v, &child(path, field))?,
                        None => match &o.additional_properties {
                            Some(AdditionalProperties::Any(false)) => {
                                let known: Vec<&str> = o.properties.keys().map(String::as_str).collect();
                                let place =
                                    if path.is_empty() { "the body".to_owned() } else { path.to_owned() };
                                return Err(format!(
                                    "{} is not a field of {place}; the fields are {}.",
                                    child(path, field),
                                    known.join(", ")
                                ));
                            }
                            Some(AdditionalProperties::Schema(s)) => {
                                self.check(s.as_ref(), v, &child(path, field))?
                            }
                            _ => {}
                        },
                    }
                }
                if let Some(min) = o.min_properties.filter(|&m| map.len() < m) {
                    return Err(format!("{name} must have at least {min} fields."));
                }
                if let Some(max) = o.max_properties.filter(|&m| map.len() > m) {
                    return Err(format!("{name} must have at most {max} fields."));
                }
                Ok(())
            }
            Type::Array(a) => {
                let Value::Array(items) = value else { return Err(wrong("an array")) };
                if let Some(min) = a.min_items.filter(|&m| items.len() < m) {
                    return Err(format!("{name} must have at least {min} items; it has {}.", items.len()));
                }
                if let Some(max) = a.max_items.filter(|&m| items.len() > m) {
                    return Err(format!("{name} must have at most {max} items; it has {}.", items.len()));
                }
                if a.unique_items {
                    for (i, item) in items.iter().enumerate() {
                        if items[..i].contains(item) {
                            return Err(format!("{name} must not repeat {}.", describe(item)));
                        }
                    }
                }
                if let Some(item_schema) = &a.items {
                    for (i, item) in items.iter().enumerate() {
                        self.check(
                            item_schema,
                            item,
                            &format!("{}[{i}]", if path.is_empty() { "body" } else { path }),
                        )?;
                    }
                }
                Ok(())
            }
        }
    }
}

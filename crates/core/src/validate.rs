//! Validation of JSON values against the document's schemas (read as JSON, so the browser
//! build carries no typed OpenAPI model), for the OpenAPI 3.0 keywords the mock enforces:
//! type, format (int32, int64, date-time), enum, required, properties, additionalProperties,
//! min/maxLength, pattern, minimum/maximum (and exclusive), items, min/maxItems, uniqueItems,
//! nullable, allOf/anyOf/oneOf/not. Messages name the field and the rule it breaks.

use std::collections::HashMap;

use serde_json::Value;

/// Reads schemas of one document; compiled `pattern`s are shared.
#[derive(Debug)]
pub(crate) struct Validator<'a> {
    doc: &'a Value,
    patterns: &'a HashMap<String, regex_lite::Regex>,
}

/// Compiles every `pattern` of a string schema in the document once.
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

fn usize_of(schema: &Value, key: &str) -> Option<usize> {
    schema.get(key).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok())
}

impl<'a> Validator<'a> {
    pub(crate) fn new(doc: &'a Value, patterns: &'a HashMap<String, regex_lite::Regex>) -> Self {
        Self { doc, patterns }
    }

    /// Follows `$ref`s (local JSON pointers) to the schema itself.
    pub(crate) fn resolve(&self, schema: &'a Value) -> Result<&'a Value, String> {
        crate::openapi::resolve(self.doc, schema)
    }

    /// Checks `value` against `schema`; `path` names the value in messages ("" for the body).
    pub(crate) fn check(&self, schema: &'a Value, value: &Value, path: &str) -> Result<(), String> {
        let schema = self.resolve(schema).map_err(|e| format!("The document is broken: {e}."))?;
        let name = if path.is_empty() { "The body" } else { path };
        let kind = schema.get("type").and_then(Value::as_str);
        if value.is_null() {
            let nullable = schema.get("nullable").and_then(Value::as_bool).unwrap_or(false);
            return if nullable || kind.is_none() {
                Ok(())
            } else {
                Err(format!("{name} must not be null."))
            };
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            all.iter().try_for_each(|s| self.check(s, value, path))?;
        }
        if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
            let mut first = None;
            if !any.iter().any(|s| match self.check(s, value, path) {
                Ok(()) => true,
                Err(e) => {
                    first.get_or_insert(e);
                    false
                }
            }) {
                return Err(first.unwrap_or_else(|| format!("{name} matches none of the allowed shapes.")));
            }
        }
        if let Some(one) = schema.get("oneOf").and_then(Value::as_array) {
            let matching = one.iter().filter(|s| self.check(s, value, path).is_ok()).count();
            if matching != 1 {
                return Err(format!(
                    "{name} must match exactly one of the allowed shapes; it matches {matching}."
                ));
            }
        }
        if let Some(not) = schema.get("not")
            && self.check(not, value, path).is_ok()
        {
            return Err(format!("{name} has a shape that is not allowed."));
        }
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
            && !allowed.contains(value)
        {
            let list: Vec<String> =
                allowed.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)).collect();
            return Err(format!("{name} must be one of {}; got {}.", list.join(", "), describe(value)));
        }
        let wrong = |expected: &str| format!("{name} must be {expected}; got {}.", type_name(value));
        match kind {
            Some("string") => {
                let Value::String(text) = value else { return Err(wrong("a string")) };
                self.check_string(schema, text, name)
            }
            Some("integer") => {
                let Value::Number(n) = value else { return Err(wrong("an integer")) };
                let n = n.as_i64().ok_or_else(|| {
                    if n.is_u64() {
                        format!("{name} must be a 64-bit integer (at most {}); got {n}.", i64::MAX)
                    } else {
                        format!("{name} must be an integer; got {n}.")
                    }
                })?;
                if schema.get("format").and_then(Value::as_str) == Some("int32") && i32::try_from(n).is_err()
                {
                    return Err(format!("{name} must be a 32-bit integer; got {n}."));
                }
                #[allow(clippy::cast_precision_loss)] // bounds in a document are small
                self.check_range(schema, n as f64, &n.to_string(), name)
            }
            Some("number") => {
                let Some(n) = value.as_f64() else { return Err(wrong("a number")) };
                self.check_range(schema, n, &n.to_string(), name)
            }
            Some("boolean") => value.is_boolean().then_some(()).ok_or_else(|| wrong("true or false")),
            Some("array") => {
                let Value::Array(items) = value else { return Err(wrong("an array")) };
                self.check_array(schema, items, name, path)
            }
            Some("object") => {
                let Value::Object(map) = value else { return Err(wrong("an object")) };
                self.check_object(schema, map, name, path)
            }
            _ if schema.get("properties").is_some() => match value {
                Value::Object(map) => self.check_object(schema, map, name, path),
                _ => Err(wrong("an object")),
            },
            _ => Ok(()),
        }
    }

    fn check_string(&self, schema: &Value, text: &str, name: &str) -> Result<(), String> {
        let len = text.chars().count();
        if let Some(min) = usize_of(schema, "minLength").filter(|&m| len < m) {
            let unit = if min == 1 { "character" } else { "characters" };
            return Err(format!("{name} must be at least {min} {unit} long; it has {len}."));
        }
        if let Some(max) = usize_of(schema, "maxLength").filter(|&m| len > m) {
            return Err(format!("{name} must be at most {max} characters long; it has {len}."));
        }
        if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
            let re = self.patterns.get(pattern).ok_or_else(|| format!("pattern {pattern} not compiled"))?;
            if !re.is_match(text) {
                return Err(if pattern == r"\S" {
                    format!("{name} must contain a character other than a space.")
                } else {
                    format!("{name} must match the pattern {pattern}; got {}.", describe(&Value::from(text)))
                });
            }
        }
        if schema.get("format").and_then(Value::as_str) == Some("date-time")
            && time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).is_err()
        {
            return Err(format!(
                "{name} must be an RFC 3339 date-time such as 2026-12-01T10:00:00Z; got {}.",
                describe(&Value::from(text))
            ));
        }
        Ok(())
    }

    fn check_range(&self, schema: &Value, n: f64, shown: &str, name: &str) -> Result<(), String> {
        let exclusive = |k: &str| schema.get(k).and_then(Value::as_bool).unwrap_or(false);
        if let Some(min) = schema.get("minimum").filter(|m| m.is_number()) {
            let (m, excl) = (min.as_f64().unwrap_or(f64::MIN), exclusive("exclusiveMinimum"));
            if n < m || (excl && n <= m) {
                let rel = if excl { "greater than" } else { "at least" };
                return Err(format!("{name} must be {rel} {min}; got {shown}."));
            }
        }
        if let Some(max) = schema.get("maximum").filter(|m| m.is_number()) {
            let (m, excl) = (max.as_f64().unwrap_or(f64::MAX), exclusive("exclusiveMaximum"));
            if n > m || (excl && n >= m) {
                let rel = if excl { "less than" } else { "at most" };
                return Err(format!("{name} must be {rel} {max}; got {shown}."));
            }
        }
        Ok(())
    }

    fn check_array(&self, schema: &'a Value, items: &[Value], name: &str, path: &str) -> Result<(), String> {
        if let Some(min) = usize_of(schema, "minItems").filter(|&m| items.len() < m) {
            return Err(format!("{name} must have at least {min} items; it has {}.", items.len()));
        }
        if let Some(max) = usize_of(schema, "maxItems").filter(|&m| items.len() > m) {
            return Err(format!("{name} must have at most {max} items; it has {}.", items.len()));
        }
        if schema.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
            for (i, item) in items.iter().enumerate() {
                if items[..i].contains(item) {
                    return Err(format!("{name} must not repeat {}.", describe(item)));
                }
            }
        }
        if let Some(item_schema) = schema.get("items") {
            let base = if path.is_empty() { "body" } else { path };
            for (i, item) in items.iter().enumerate() {
                self.check(item_schema, item, &format!("{base}[{i}]"))?;
            }
        }
        Ok(())
    }

    fn check_object(
        &self,
        schema: &'a Value,
        map: &serde_json::Map<String, Value>,
        name: &str,
        path: &str,
    ) -> Result<(), String> {
        for field in
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
        {
            if !map.contains_key(field) {
                return Err(format!("{} is required.", child(path, field)));
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        let additional = schema.get("additionalProperties");
        for (field, v) in map {
            match properties.and_then(|p| p.get(field)) {
                Some(s) => self.check(s, v, &child(path, field))?,
                None => match additional {
                    Some(Value::Bool(false)) => {
                        let known: Vec<&str> =
                            properties.into_iter().flatten().map(|(k, _)| k.as_str()).collect();
                        let place = if path.is_empty() { "the body" } else { path };
                        return Err(format!(
                            "{} is not a field of {place}; the fields are {}.",
                            child(path, field),
                            known.join(", ")
                        ));
                    }
                    Some(s @ Value::Object(_)) => self.check(s, v, &child(path, field))?,
                    _ => {}
                },
            }
        }
        if let Some(min) = usize_of(schema, "minProperties").filter(|&m| map.len() < m) {
            return Err(format!("{name} must have at least {min} fields."));
        }
        if let Some(max) = usize_of(schema, "maxProperties").filter(|&m| map.len() > m) {
            return Err(format!("{name} must have at most {max} fields."));
        }
        Ok(())
    }
}

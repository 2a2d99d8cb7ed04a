//! Examples generated from a schema, within caps, with notes on what a cap cut.

use serde_json::{Map, Value};

use super::{MAX_DEPTH, MAX_EXAMPLE_ITEMS, MAX_EXAMPLE_STRING, MAX_NODES, follow};

/// An Example block of an operation's page, as the try-it module is handed it: it generates
/// the value where the document has none, with the mock's generator, and checks the
/// document's own against the schema ([`ExampleFill`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExampleSlot {
    /// Which block: `request`, or `response/<i>/<j>` (the `j`th example of the `i`th response);
    /// the page's `<pre data-example>` says the same.
    pub at: String,
    /// The schema (with [`crate::OperationView::schema_document`] for its `$ref`s).
    pub schema: Value,
    /// The document's own example, when the block shows one.
    pub documented: Option<Value>,
    /// An answer's example (`writeOnly` properties left out), else a request's (`readOnly`
    /// left out).
    pub answer: bool,
}

/// What the try-it module says of one Example block ([`ExampleSlot`]): the value to show
/// instead (a generated one), and the note beside it (what a generated value leaves out, or
/// why the document's own does not fit its schema); no note removes the one there.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExampleFill {
    /// [`ExampleSlot::at`].
    pub at: String,
    /// The value to show, as pretty JSON; `None` keeps the one shown (the document's).
    pub json: Option<String>,
    /// The note, one sentence or more.
    pub note: Option<String>,
}

/// An example generated from a schema, and what it leaves out.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// The value.
    pub value: Value,
    /// What was shortened or left out, in words ("a string of at least 4000000000 characters
    /// shortened to 64"); empty when the value fits the schema as far as known.
    pub notes: Vec<String>,
}

/// An example value for a schema: its `example`, the first of its `examples`, its `const`,
/// `default` or first `enum` value, else one built from its type and limits (objects get
/// every property, arrays one item or `minItems`), within caps: strings of at most 64
/// characters, arrays of at most 3 items, 12 levels and 2,000 values; what a cap cut is in
/// [`Example::notes`].
#[must_use]
pub fn generate_example(doc: &Value, schema: &Value) -> Example {
    let mut builder = Builder { doc, nodes: 0, notes: Vec::new() };
    let value = builder.build(schema, 0);
    Example { value, notes: builder.notes }
}

/// An example value for a schema (see [`generate_example`]), without its notes.
#[must_use]
pub fn example_for(doc: &Value, schema: &Value) -> Value {
    generate_example(doc, schema).value
}

/// The walk that builds one example.
struct Builder<'a> {
    doc: &'a Value,
    nodes: usize,
    notes: Vec<String>,
}

impl Builder<'_> {
    fn note(&mut self, note: String) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    fn build(&mut self, schema: &Value, depth: usize) -> Value {
        self.nodes += 1;
        if depth > MAX_DEPTH || self.nodes > MAX_NODES {
            self.note("the example stops where the schema nests too deep or grows too large".to_owned());
            return Value::Null;
        }
        // The target borrowed, not cloned (a copy at every level made large schemas
        // quadratic); a copy only when a `$ref` has siblings to lay over its target.
        let target = follow(self.doc, schema).ok();
        let merged = target
            .filter(|_| schema.get("$ref").is_some())
            .and_then(|target| playground_openapi::schema::with_siblings(schema, target));
        let schema: &Value = match (&merged, target) {
            (Some(merged), _) => merged,
            (None, Some(target)) => target,
            (None, None) => &Value::Null,
        };
        if let Some(v) = playground_openapi::schema::example(schema)
            .or_else(|| schema.get("const"))
            .or_else(|| schema.get("default"))
        {
            return v.clone();
        }
        if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
            return first.clone();
        }
        if let Some(list) = schema.get("allOf").and_then(Value::as_array) {
            let mut merged = Map::new();
            for part in list {
                if let Value::Object(m) = self.build(part, depth + 1) {
                    merged.extend(m);
                }
            }
            return Value::Object(merged);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|l| l.first()) {
                return self.build(first, depth + 1);
            }
        }
        let int = |k: &str| schema.get(k).and_then(Value::as_i64);
        match playground_openapi::schema::primary_type(schema) {
            Some("integer") => {
                let low = playground_openapi::schema::lower_bound(schema).map_or(1, |b| {
                    #[allow(clippy::cast_possible_truncation)] // a bound far out of range is clamped
                    let low = b.value.ceil().clamp(i64::MIN as f64, i64::MAX as f64) as i64;
                    if b.exclusive && b.value.fract() == 0.0 { low.saturating_add(1) } else { low }
                });
                Value::from(int("maximum").map_or(low, |high| low.min(high)))
            }
            Some("number") => {
                Value::from(playground_openapi::schema::lower_bound(schema).map_or(1.5, |b| b.value))
            }
            Some("boolean") => Value::Bool(false),
            Some("null") => Value::Null,
            Some("string") => Value::String(self.string(schema)),
            Some("array") => self.array(schema, depth),
            Some("object") => {
                let mut out = Map::new();
                for (name, prop) in schema.get("properties").and_then(Value::as_object).into_iter().flatten()
                {
                    let read_only =
                        follow(self.doc, prop).ok().and_then(|p| p.get("readOnly")).and_then(Value::as_bool);
                    if read_only != Some(true) {
                        let value = self.build(prop, depth + 1);
                        out.insert(name.clone(), value);
                    }
                }
                Value::Object(out)
            }
            _ => Value::Null,
        }
    }

    fn string(&mut self, schema: &Value) -> String {
        match schema.get("format").and_then(Value::as_str) {
            Some("date-time") => return "2026-01-01T00:00:00Z".to_owned(),
            Some("date") => return "2026-01-01".to_owned(),
            Some("time") => return "12:00:00Z".to_owned(),
            Some("email") => return "user@example.com".to_owned(),
            Some("uri" | "url") => return "https://example.com".to_owned(),
            Some("uuid") => return "00000000-0000-4000-8000-000000000000".to_owned(),
            Some("ipv4") => return "192.0.2.1".to_owned(),
            Some("ipv6") => return "2001:db8::1".to_owned(),
            Some("hostname") => return "example.com".to_owned(),
            _ => {}
        }
        let limit = |k: &str| schema.get(k).and_then(Value::as_u64);
        let min = limit("minLength").unwrap_or(0);
        let max = limit("maxLength").unwrap_or(u64::MAX);
        let mut s = "string".to_owned();
        let wanted = usize::try_from(min).unwrap_or(usize::MAX);
        if wanted > MAX_EXAMPLE_STRING {
            self.note(format!("a string of at least {min} characters is shortened to {MAX_EXAMPLE_STRING}"));
        }
        while s.len() < wanted.min(MAX_EXAMPLE_STRING) {
            s.push('x');
        }
        s.truncate(usize::try_from(max.max(min)).unwrap_or(usize::MAX).min(s.len()));
        s
    }

    fn array(&mut self, schema: &Value, depth: usize) -> Value {
        let prefix: Vec<Value> =
            schema.get("prefixItems").and_then(Value::as_array).cloned().unwrap_or_default();
        let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        let wanted = usize::try_from(min).unwrap_or(usize::MAX).max(1).max(prefix.len());
        if wanted > MAX_EXAMPLE_ITEMS {
            self.note(format!("a list of at least {min} items shows {MAX_EXAMPLE_ITEMS}"));
        }
        let mut out = Vec::new();
        for i in 0..wanted.min(MAX_EXAMPLE_ITEMS) {
            let value = match (prefix.get(i), schema.get("items")) {
                (Some(item), _) => self.build(item, depth + 1),
                (None, Some(items)) if items.is_object() => self.build(items, depth + 1),
                (None, _) if prefix.is_empty() => Value::Null,
                (None, _) => break,
            };
            out.push(value);
        }
        Value::Array(out)
    }
}

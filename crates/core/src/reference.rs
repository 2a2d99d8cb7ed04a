//! Operation views for the reference page: one operation of any OpenAPI 3.0 document, with its
//! `$ref`s followed, turned into plain values the UI renders (parameters, body, responses,
//! schema trees with their limits, examples, code sample settings). Built on demand for the
//! operation being shown, from the document as a `serde_json::Value`.

use serde_json::{Map, Value};

use crate::catalog::{Method, Stability};

/// How deep nested schemas are expanded; deeper levels are left collapsed.
const MAX_DEPTH: usize = 12;

/// Errors building a view.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// No operation at this method and path.
    #[error("The document has no operation {0}.")]
    NoOperation(String),
    /// A `$ref` that points nowhere (the message names it).
    #[error("The document is broken: {0}.")]
    BrokenRef(String),
    /// The part of the document read after its list cannot be read (the message says why).
    #[error("{0}")]
    Unreadable(String),
}

/// A schema as a tree for display.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SchemaNode {
    /// The component name when the schema came from `#/components/schemas/<name>`.
    pub name: Option<String>,
    /// `object`, `array`, `string`, `integer`, `number`, `boolean`, `oneOf`, `anyOf`,
    /// `allOf` or `any`.
    pub kind: String,
    /// `format`, e.g. `int64`, `date-time`.
    pub format: Option<String>,
    /// `description` (Markdown).
    pub description: Option<String>,
    /// `enum` values.
    pub enumeration: Vec<Value>,
    /// Limits in words: "1 to 100 characters", "≥ 1", "pattern \S", "default 20".
    pub constraints: Vec<String>,
    /// `nullable: true`.
    pub nullable: bool,
    /// Object fields in document order.
    pub properties: Vec<Property>,
    /// `additionalProperties: false`.
    pub closed: bool,
    /// Array items.
    pub items: Option<Box<SchemaNode>>,
    /// `oneOf` / `anyOf` / `allOf` alternatives.
    pub variants: Vec<SchemaNode>,
    /// The schema refers back to one of its ancestors (or the tree is too deep): not expanded.
    pub truncated: bool,
}

/// One field of an object schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// Field name.
    pub name: String,
    /// Listed in `required`.
    pub required: bool,
    /// `readOnly: true`: sent by the server only.
    pub read_only: bool,
    /// The field's schema.
    pub schema: SchemaNode,
}

/// A path, query, header or cookie parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct ParameterView {
    /// Name.
    pub name: String,
    /// `path`, `query`, `header` or `cookie`.
    pub location: String,
    /// Required (path parameters always are).
    pub required: bool,
    /// Description (Markdown).
    pub description: Option<String>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// Its schema.
    pub schema: SchemaNode,
    /// `example`, or the first of `examples`.
    pub example: Option<Value>,
    /// `true` for an array whose values repeat the parameter (`?s=a&s=b`).
    pub repeated: bool,
    /// The schema with its `$ref` followed: what the try-it form checks input against.
    pub schema_json: Value,
}

/// The request body.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyView {
    /// `required: true`.
    pub required: bool,
    /// Description (Markdown).
    pub description: Option<String>,
    /// The media type shown (JSON when the body offers it).
    pub media_type: String,
    /// The body's schema.
    pub schema: SchemaNode,
    /// The example to prefill: the document's, or one generated from the schema.
    pub example: Value,
}

/// One response.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseView {
    /// `200`, `404`, `default`, ...
    pub status: String,
    /// Description (Markdown).
    pub description: String,
    /// Response headers: name, description, schema.
    pub headers: Vec<(String, Option<String>, SchemaNode)>,
    /// The media type shown, when there is content.
    pub media_type: Option<String>,
    /// The content's schema.
    pub schema: Option<SchemaNode>,
    /// Examples: label and value (one generated from the schema when the document has none).
    pub examples: Vec<(String, Value)>,
}

/// One `x-codeSamples` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomSample {
    /// `lang`.
    pub lang: String,
    /// `label`, or the `lang`.
    pub label: String,
    /// `source`.
    pub source: String,
}

/// Which code samples an operation shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeSamples {
    /// `x-codeSamples` entries replace the generated ones.
    Custom(Vec<CustomSample>),
    /// Generated cURL, JavaScript and Python.
    Generated,
    /// `x-codeSamples: false`.
    Hidden,
}

/// Everything the reference shows about one operation.
#[derive(Debug, Clone, PartialEq)]
pub struct OperationView {
    /// Method.
    pub method: Method,
    /// Path template.
    pub path: String,
    /// `operationId`.
    pub operation_id: Option<String>,
    /// `summary`.
    pub summary: Option<String>,
    /// `description` (Markdown).
    pub description: Option<String>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// `x-deprecated-sunset`, when deprecated.
    pub sunset: Option<String>,
    /// `x-stability` (`experimental` or `beta` only).
    pub stability: Option<Stability>,
    /// `x-hideTryItPanel: true` on the operation or the document.
    pub hide_try_it: bool,
    /// Path-level and operation-level parameters (the operation's win).
    pub parameters: Vec<ParameterView>,
    /// The request body.
    pub request_body: Option<BodyView>,
    /// Responses in document order.
    pub responses: Vec<ResponseView>,
    /// Code samples to show.
    pub code_samples: CodeSamples,
    /// Base URLs: the operation's `servers`, else the path's, else the document's.
    pub servers: Vec<String>,
}

impl OperationView {
    /// Its deep-link anchor (see [`crate::catalog::anchor`]), the same as its row's in the list.
    #[must_use]
    pub fn anchor(&self) -> String {
        crate::catalog::anchor(self.operation_id.as_deref(), self.method, &self.path)
    }

    /// The warning shown for a deprecated operation.
    #[must_use]
    pub fn deprecation_warning(&self) -> Option<String> {
        self.deprecated.then(|| match &self.sunset {
            Some(date) => format!("This operation is deprecated and will be sunset on {date}."),
            None => "This operation is deprecated.".to_owned(),
        })
    }

    /// Builds the view of `method path` in `doc`.
    ///
    /// # Errors
    /// [`ViewError`] when the operation is missing or a reference is broken.
    pub fn build(doc: &Value, method: Method, path: &str) -> Result<Self, ViewError> {
        let item = resolve(doc, &doc["paths"][path])?;
        let op = item
            .get(method.as_str().to_ascii_lowercase())
            .ok_or_else(|| ViewError::NoOperation(format!("{} {path}", method.as_str())))?;
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);

        let mut parameters: Vec<ParameterView> = Vec::new();
        for p in item.get("parameters").and_then(Value::as_array).into_iter().flatten() {
            parameters.push(parameter(doc, p)?);
        }
        for p in op.get("parameters").and_then(Value::as_array).into_iter().flatten() {
            let view = parameter(doc, p)?;
            parameters.retain(|q| !(q.name == view.name && q.location == view.location));
            parameters.push(view);
        }

        let request_body = match op.get("requestBody") {
            None => None,
            Some(b) => {
                let b = resolve(doc, b)?;
                let (media_type, media) = pick_media(b.get("content"));
                match media {
                    None => None,
                    Some(media) => {
                        let schema_value = media.get("schema").cloned().unwrap_or(Value::Null);
                        Some(BodyView {
                            required: b.get("required").and_then(Value::as_bool).unwrap_or(false),
                            description: text(b, "description"),
                            media_type: media_type.unwrap_or_default(),
                            schema: schema_node(doc, &schema_value, &mut Vec::new()),
                            example: media_examples(doc, media)?
                                .into_iter()
                                .next()
                                .map(|(_, v)| v)
                                .unwrap_or_else(|| example_for(doc, &schema_value)),
                        })
                    }
                }
            }
        };

        let mut responses = Vec::new();
        for (status, r) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
            let r = resolve(doc, r)?;
            let mut headers = Vec::new();
            for (name, h) in r.get("headers").and_then(Value::as_object).into_iter().flatten() {
                let h = resolve(doc, h)?;
                let schema = h.get("schema").cloned().unwrap_or(Value::Null);
                headers.push((
                    name.clone(),
                    text(h, "description"),
                    schema_node(doc, &schema, &mut Vec::new()),
                ));
            }
            let (media_type, media) = pick_media(r.get("content"));
            let (schema, examples) = match media {
                Some(media) => {
                    let schema_value = media.get("schema").cloned().unwrap_or(Value::Null);
                    let mut examples = media_examples(doc, media)?;
                    if examples.is_empty() && !schema_value.is_null() {
                        examples
                            .push(("Generated from the schema".to_owned(), example_for(doc, &schema_value)));
                    }
                    (Some(schema_node(doc, &schema_value, &mut Vec::new())), examples)
                }
                None => (None, Vec::new()),
            };
            responses.push(ResponseView {
                status: status.clone(),
                description: text(r, "description").unwrap_or_default(),
                headers,
                media_type,
                schema,
                examples,
            });
        }

        let code_samples = match op.get("x-codeSamples").or_else(|| op.get("x-code-samples")) {
            Some(Value::Bool(false)) => CodeSamples::Hidden,
            Some(Value::Array(list)) if !list.is_empty() => CodeSamples::Custom(
                list.iter()
                    .filter_map(|s| {
                        let lang = text(s, "lang")?;
                        let source = text(s, "source")?;
                        Some(CustomSample {
                            label: text(s, "label").unwrap_or_else(|| lang.clone()),
                            lang,
                            source,
                        })
                    })
                    .collect(),
            ),
            _ => CodeSamples::Generated,
        };

        let servers = [op.get("servers"), item.get("servers"), doc.get("servers")]
            .into_iter()
            .flatten()
            .filter_map(Value::as_array)
            .find(|s| !s.is_empty())
            .map(|s| s.iter().filter_map(|s| s.get("url").and_then(Value::as_str).map(server_url)).collect())
            .unwrap_or_default();

        let flag = |v: &Value, key: &str| v.get(key).and_then(Value::as_bool).unwrap_or(false);
        let deprecated = flag(op, "deprecated");
        Ok(OperationView {
            method,
            path: path.to_owned(),
            operation_id: text(op, "operationId"),
            summary: text(op, "summary"),
            description: text(op, "description"),
            deprecated,
            sunset: if deprecated { text(op, "x-deprecated-sunset") } else { None },
            stability: op.get("x-stability").and_then(Value::as_str).and_then(Stability::parse),
            hide_try_it: flag(op, "x-hideTryItPanel") || flag(doc, "x-hideTryItPanel"),
            parameters,
            request_body,
            responses,
            code_samples,
            servers,
        })
    }
}

/// A server URL as the document writes it, `{variables}` included (nothing substitutes their
/// defaults), without a trailing slash so paths can be appended.
fn server_url(url: &str) -> String {
    url.trim_end_matches('/').to_owned()
}

/// Follows `$ref`s; a broken one is a [`ViewError::BrokenRef`].
fn resolve<'a>(doc: &'a Value, value: &'a Value) -> Result<&'a Value, ViewError> {
    crate::openapi::resolve(doc, value).map_err(ViewError::BrokenRef)
}

/// Prefers JSON (`application/json`, then any `+json`), else the first media type.
fn pick_media(content: Option<&Value>) -> (Option<String>, Option<&Value>) {
    let Some(map) = content.and_then(Value::as_object) else { return (None, None) };
    let pick = map
        .iter()
        .find(|(k, _)| k.as_str() == "application/json")
        .or_else(|| map.iter().find(|(k, _)| k.ends_with("+json") || k.ends_with("/json")))
        .or_else(|| map.iter().next());
    pick.map_or((None, None), |(k, v)| (Some(k.clone()), Some(v)))
}

fn media_examples(doc: &Value, media: &Value) -> Result<Vec<(String, Value)>, ViewError> {
    if let Some(example) = media.get("example") {
        return Ok(vec![("Example".to_owned(), example.clone())]);
    }
    let mut out = Vec::new();
    for (name, ex) in media.get("examples").and_then(Value::as_object).into_iter().flatten() {
        let ex = resolve(doc, ex)?;
        if let Some(value) = ex.get("value") {
            let label = ex.get("summary").and_then(Value::as_str).unwrap_or(name);
            out.push((label.to_owned(), value.clone()));
        }
    }
    Ok(out)
}

fn parameter(doc: &Value, p: &Value) -> Result<ParameterView, ViewError> {
    let p = resolve(doc, p)?;
    let location = p.get("in").and_then(Value::as_str).unwrap_or("query").to_owned();
    let schema_value = p.get("schema").cloned().unwrap_or(Value::Null);
    let schema = schema_node(doc, &schema_value, &mut Vec::new());
    let example = p.get("example").cloned().or_else(|| {
        p.get("examples")
            .and_then(Value::as_object)
            .and_then(|m| m.values().next())
            .and_then(|e| resolve(doc, e).ok())
            .and_then(|e| e.get("value").cloned())
    });
    // Resolved one level down too, so an array's item enum is checked by the try-it form.
    let mut schema_json = resolve(doc, &schema_value).cloned().unwrap_or(Value::Null);
    if let Some(items) = schema_json.get("items").and_then(|i| resolve(doc, i).ok()).cloned() {
        schema_json["items"] = items;
    }
    let repeated = schema.kind == "array" && p.get("explode").and_then(Value::as_bool).unwrap_or(true);
    Ok(ParameterView {
        name: p.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
        required: location == "path" || p.get("required").and_then(Value::as_bool).unwrap_or(false),
        location,
        description: p.get("description").and_then(Value::as_str).map(str::to_owned),
        deprecated: p.get("deprecated").and_then(Value::as_bool).unwrap_or(false),
        schema,
        schema_json,
        example,
        repeated,
    })
}

/// The schema at `value` as a display tree; `stack` holds the component names being expanded,
/// to stop at recursion.
#[must_use]
fn schema_node(doc: &Value, value: &Value, stack: &mut Vec<String>) -> SchemaNode {
    let mut node = SchemaNode::default();
    let mut value = value;
    if let Some(r) = value.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap_or(r).to_owned();
        if stack.contains(&name) || stack.len() >= MAX_DEPTH {
            return SchemaNode {
                name: Some(name),
                kind: "object".into(),
                truncated: true,
                ..SchemaNode::default()
            };
        }
        match resolve(doc, value) {
            Ok(v) => value = v,
            Err(e) => {
                return SchemaNode {
                    kind: "any".into(),
                    description: Some(e.to_string()),
                    ..SchemaNode::default()
                };
            }
        }
        node.name = Some(name.clone());
        stack.push(name);
        let mut inner = schema_node(doc, value, stack);
        stack.pop();
        inner.name = node.name;
        return inner;
    }
    let Some(obj) = value.as_object() else {
        node.kind = "any".into();
        return node;
    };
    let get = |k: &str| obj.get(k);
    node.description = get("description").and_then(Value::as_str).map(str::to_owned);
    node.format = get("format").and_then(Value::as_str).map(str::to_owned);
    node.nullable = get("nullable").and_then(Value::as_bool).unwrap_or(false);
    node.enumeration = get("enum").and_then(Value::as_array).cloned().unwrap_or_default();
    node.constraints = constraints(obj);
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(list) = get(key).and_then(Value::as_array) {
            node.kind = key.to_owned();
            node.variants = list.iter().map(|v| schema_node(doc, v, stack)).collect();
            return node;
        }
    }
    node.kind = match get("type").and_then(Value::as_str) {
        Some(t) => t.to_owned(),
        None if obj.contains_key("properties") => "object".into(),
        None if obj.contains_key("items") => "array".into(),
        None => "any".into(),
    };
    if stack.len() >= MAX_DEPTH {
        node.truncated = obj.contains_key("properties") || obj.contains_key("items");
        return node;
    }
    let required: Vec<&str> =
        get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    for (name, prop) in get("properties").and_then(Value::as_object).into_iter().flatten() {
        let read_only = resolve(doc, prop).ok().and_then(|p| p.get("readOnly")).and_then(Value::as_bool);
        node.properties.push(Property {
            name: name.clone(),
            required: required.contains(&name.as_str()),
            read_only: read_only.unwrap_or(false),
            schema: schema_node(doc, prop, stack),
        });
    }
    node.closed = get("additionalProperties") == Some(&Value::Bool(false));
    if let Some(items) = get("items") {
        node.items = Some(Box::new(schema_node(doc, items, stack)));
    }
    node
}

fn constraints(obj: &Map<String, Value>) -> Vec<String> {
    let num = |k: &str| obj.get(k).filter(|v| v.is_number()).map(Value::to_string);
    let exclusive = |k: &str| obj.get(k).and_then(Value::as_bool).unwrap_or(false);
    let mut out = Vec::new();
    match (num("minLength"), num("maxLength")) {
        (Some(a), Some(b)) => out.push(format!("{a} to {b} characters")),
        (Some(a), None) => out.push(format!("at least {a} characters")),
        (None, Some(b)) => out.push(format!("at most {b} characters")),
        (None, None) => {}
    }
    match (num("minimum"), num("maximum")) {
        (Some(a), Some(b)) if !exclusive("exclusiveMinimum") && !exclusive("exclusiveMaximum") => {
            out.push(format!("{a} to {b}"));
        }
        (a, b) => {
            if let Some(a) = a {
                out.push(format!("{} {a}", if exclusive("exclusiveMinimum") { ">" } else { "≥" }));
            }
            if let Some(b) = b {
                out.push(format!("{} {b}", if exclusive("exclusiveMaximum") { "<" } else { "≤" }));
            }
        }
    }
    match (num("minItems"), num("maxItems")) {
        (Some(a), Some(b)) => out.push(format!("{a} to {b} items")),
        (Some(a), None) => out.push(format!("at least {a} items")),
        (None, Some(b)) => out.push(format!("at most {b} items")),
        (None, None) => {}
    }
    if obj.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
        out.push("unique items".into());
    }
    if let Some(p) = obj.get("pattern").and_then(Value::as_str) {
        out.push(format!("pattern {p}"));
    }
    if let Some(m) = num("multipleOf") {
        out.push(format!("multiple of {m}"));
    }
    if let Some(d) = obj.get("default") {
        out.push(format!("default {d}"));
    }
    out
}

/// An example value for a schema: its `example`, `default` or first `enum` value, else one
/// built from its type and limits (objects get every property, arrays one item).
#[must_use]
pub fn example_for(doc: &Value, schema: &Value) -> Value {
    fn build(doc: &Value, schema: &Value, depth: usize) -> Value {
        let Ok(schema) = resolve(doc, schema) else { return Value::Null };
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        for key in ["example", "default"] {
            if let Some(v) = schema.get(key) {
                return v.clone();
            }
        }
        if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
            return first.clone();
        }
        if let Some(list) = schema.get("allOf").and_then(Value::as_array) {
            let mut merged = Map::new();
            for part in list {
                if let Value::Object(m) = build(doc, part, depth + 1) {
                    merged.extend(m);
                }
            }
            return Value::Object(merged);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|l| l.first()) {
                return build(doc, first, depth + 1);
            }
        }
        let int = |k: &str| schema.get(k).and_then(Value::as_i64);
        match schema.get("type").and_then(Value::as_str) {
            Some("integer") => {
                let low = int("minimum").unwrap_or(1);
                Value::from(int("maximum").map_or(low, |high| low.min(high)))
            }
            Some("number") => Value::from(schema.get("minimum").and_then(Value::as_f64).unwrap_or(1.5)),
            Some("boolean") => Value::Bool(false),
            Some("string") => Value::String(match schema.get("format").and_then(Value::as_str) {
                Some("date-time") => "2026-01-01T00:00:00Z".to_owned(),
                Some("date") => "2026-01-01".to_owned(),
                Some("email") => "user@example.com".to_owned(),
                Some("uri" | "url") => "https://example.com".to_owned(),
                Some("uuid") => "00000000-0000-4000-8000-000000000000".to_owned(),
                _ => {
                    let min = usize::try_from(int("minLength").unwrap_or(0)).unwrap_or(0);
                    let max = usize::try_from(int("maxLength").unwrap_or(64)).unwrap_or(64);
                    let mut s = "string".to_owned();
                    while s.len() < min {
                        s.push('x');
                    }
                    s.truncate(max.max(min));
                    s
                }
            }),
            Some("array") => {
                let item = schema.get("items").map_or(Value::Null, |i| build(doc, i, depth + 1));
                Value::Array(vec![item])
            }
            _ if schema.get("properties").is_some()
                || schema.get("type").and_then(Value::as_str) == Some("object") =>
            {
                let mut out = Map::new();
                for (name, prop) in schema.get("properties").and_then(Value::as_object).into_iter().flatten()
                {
                    let read_only =
                        resolve(doc, prop).ok().and_then(|p| p.get("readOnly")).and_then(Value::as_bool);
                    if read_only != Some(true) {
                        out.insert(name.clone(), build(doc, prop, depth + 1));
                    }
                }
                Value::Object(out)
            }
            _ => Value::Null,
        }
    }
    build(doc, schema, 0)
}

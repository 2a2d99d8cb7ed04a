//! Operation views for the reference page: one operation of any OpenAPI 3.0 document, with its
//! `$ref`s followed, turned into plain values the UI renders (parameters, body, responses,
//! schema trees with their limits, examples, code sample settings). Built on demand for the
//! operation being shown, from the document as a `serde_json::Value`.

use serde_json::{Map, Value};

use crate::catalog::{Method, Stability};

/// How deep nested schemas are expanded; deeper levels are left collapsed.
const MAX_DEPTH: usize = 12;

/// At most this many schema nodes make one tree or one generated example: a schema whose
/// every level has many fields would otherwise multiply into millions.
const MAX_NODES: usize = 2_000;

/// Generated strings are at most this long, and arrays at most this many items, whatever
/// `minLength` or `minItems` asks (the example then says it was shortened).
const MAX_EXAMPLE_STRING: usize = 64;
const MAX_EXAMPLE_ITEMS: usize = 3;

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
    /// What a generated example leaves out (a string shortened, ...), in sentences.
    pub example_notes: Vec<String>,
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

/// One security scheme an operation uses, as the reference describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityUse {
    /// The scheme's name in `components.securitySchemes`.
    pub name: String,
    /// What it is, in words: "API key in the header X-API-Key", "HTTP bearer (JWT)", "OAuth 2",
    /// ...; "not described" when the document has no such scheme.
    pub kind: String,
    /// The OAuth 2 or OpenID Connect scopes (or roles) the operation needs.
    pub scopes: Vec<String>,
}

/// A link to documentation elsewhere (`externalDocs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalDocs {
    /// The address.
    pub url: String,
    /// What it is (Markdown), when given.
    pub description: Option<String>,
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
    /// The security the operation needs: its own `security`, else the document's. Each entry
    /// is one way in (the schemes of an entry are used together); an empty entry means the
    /// operation can also be called without credentials, and no entries that it needs none.
    pub security: Vec<Vec<SecurityUse>>,
    /// `externalDocs` of the operation.
    pub external_docs: Option<ExternalDocs>,
    /// Parts of the operation that could not be shown (a reference that does not resolve),
    /// each in a sentence; the rest of the view is there.
    pub problems: Vec<String>,
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

    /// Builds the view of `method path` in `doc`. A part that cannot be read (a reference
    /// that does not resolve) is left out and named in [`OperationView::problems`].
    ///
    /// # Errors
    /// [`ViewError`] when the operation is missing or its path item is a broken reference.
    pub fn build(doc: &Value, method: Method, path: &str) -> Result<Self, ViewError> {
        let item = resolve(doc, &doc["paths"][path])?;
        let op = item
            .get(method.as_str().to_ascii_lowercase())
            .ok_or_else(|| ViewError::NoOperation(format!("{} {path}", method.as_str())))?;
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        let mut problems = Vec::new();

        let mut parameters: Vec<ParameterView> = Vec::new();
        for (p, own) in
            listed(item, "parameters").map(|p| (p, false)).chain(listed(op, "parameters").map(|p| (p, true)))
        {
            match parameter(doc, p) {
                Ok(view) => {
                    if own {
                        parameters.retain(|q| !(q.name == view.name && q.location == view.location));
                    }
                    parameters.push(view);
                }
                Err(e) => problems.push(format!("A parameter is not shown: {e}.")),
            }
        }

        let request_body = op.get("requestBody").and_then(|b| match body(doc, b) {
            Ok(view) => view,
            Err(e) => {
                problems.push(format!("The request body is not shown: {e}."));
                None
            }
        });

        let mut responses = Vec::new();
        for (status, r) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
            if status.starts_with("x-") {
                continue;
            }
            match response(doc, status, r, &mut problems) {
                Ok(view) => responses.push(view),
                Err(e) => problems.push(format!("The response {status} is not shown: {e}.")),
            }
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
            security: security(doc, op.get("security").or_else(|| doc.get("security"))),
            external_docs: external_docs(op.get("externalDocs")),
            problems,
        })
    }
}

/// `externalDocs`, when it has a `url`.
#[must_use]
pub fn external_docs(value: Option<&Value>) -> Option<ExternalDocs> {
    let value = value?;
    Some(ExternalDocs {
        url: value.get("url").and_then(Value::as_str)?.to_owned(),
        description: value.get("description").and_then(Value::as_str).map(str::to_owned),
    })
}

/// A `security` list with each scheme described from `components.securitySchemes`.
fn security(doc: &Value, requirements: Option<&Value>) -> Vec<Vec<SecurityUse>> {
    let schemes = &doc["components"]["securitySchemes"];
    listed_values(requirements)
        .filter_map(Value::as_object)
        .map(|requirement| {
            requirement
                .iter()
                .map(|(name, scopes)| SecurityUse {
                    name: name.clone(),
                    kind: follow(doc, &schemes[name])
                        .ok()
                        .filter(|s| s.is_object())
                        .map_or_else(|| "not described in the document".to_owned(), scheme_in_words),
                    scopes: listed_values(Some(scopes))
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect(),
                })
                .collect()
        })
        .collect()
}

fn listed_values(value: Option<&Value>) -> impl Iterator<Item = &Value> {
    value.and_then(Value::as_array).into_iter().flatten()
}

/// A security scheme in words.
fn scheme_in_words(scheme: &Value) -> String {
    let text = |key: &str| scheme.get(key).and_then(Value::as_str).unwrap_or_default();
    match text("type") {
        "apiKey" => format!("API key in the {} {}", text("in"), text("name")),
        "http" => {
            let name = text("scheme");
            let name = if name.eq_ignore_ascii_case("bearer") {
                "bearer".to_owned()
            } else if name.eq_ignore_ascii_case("basic") {
                "basic".to_owned()
            } else {
                name.to_owned()
            };
            match scheme.get("bearerFormat").and_then(Value::as_str) {
                Some(format) => format!("HTTP {name} ({format})"),
                None => format!("HTTP {name}"),
            }
        }
        "oauth2" => {
            let flows: Vec<&str> = scheme
                .get("flows")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(flow, _)| match flow.as_str() {
                    "authorizationCode" => "authorization code",
                    "clientCredentials" => "client credentials",
                    "implicit" => "implicit",
                    "password" => "password",
                    "deviceAuthorization" => "device authorization",
                    other => other,
                })
                .collect();
            if flows.is_empty() { "OAuth 2".to_owned() } else { format!("OAuth 2 ({})", flows.join(", ")) }
        }
        "openIdConnect" => "OpenID Connect".to_owned(),
        "mutualTLS" => "mutual TLS".to_owned(),
        other if !other.is_empty() => other.to_owned(),
        _ => "a scheme of no known type".to_owned(),
    }
}

/// The entries of the list `key` of `value` (none when it is missing or not a list).
fn listed<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    value.get(key).and_then(Value::as_array).into_iter().flatten()
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

/// Follows `$ref`s; the error is the reason alone, for the view's list of problems.
fn follow<'a>(doc: &'a Value, value: &'a Value) -> Result<&'a Value, String> {
    crate::openapi::resolve(doc, value)
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

/// The request body of an operation; `None` when it has no content.
fn body(doc: &Value, b: &Value) -> Result<Option<BodyView>, String> {
    let b = follow(doc, b)?;
    let (media_type, media) = pick_media(b.get("content"));
    let Some(media) = media else { return Ok(None) };
    let schema_value = media.get("schema").cloned().unwrap_or(Value::Null);
    let (example, example_notes) = match media_examples(doc, media).into_iter().next() {
        Some((_, value)) => (value, Vec::new()),
        None => {
            let generated = generate_example(doc, &schema_value);
            (generated.value, generated.notes)
        }
    };
    Ok(Some(BodyView {
        required: b.get("required").and_then(Value::as_bool).unwrap_or(false),
        description: b.get("description").and_then(Value::as_str).map(str::to_owned),
        media_type: media_type.unwrap_or_default(),
        schema: schema_node(doc, &schema_value),
        example,
        example_notes,
    }))
}

/// One response; a broken header is left out and named in `problems`.
fn response(
    doc: &Value,
    status: &str,
    r: &Value,
    problems: &mut Vec<String>,
) -> Result<ResponseView, String> {
    let r = follow(doc, r)?;
    let mut headers = Vec::new();
    for (name, h) in r.get("headers").and_then(Value::as_object).into_iter().flatten() {
        match follow(doc, h) {
            Ok(h) => {
                let schema = h.get("schema").cloned().unwrap_or(Value::Null);
                let description = h.get("description").and_then(Value::as_str).map(str::to_owned);
                headers.push((name.clone(), description, schema_node(doc, &schema)));
            }
            Err(e) => problems.push(format!("The header {name} of the response {status} is not shown: {e}.")),
        }
    }
    let (media_type, media) = pick_media(r.get("content"));
    let (schema, examples) = match media {
        Some(media) => {
            let schema_value = media.get("schema").cloned().unwrap_or(Value::Null);
            let mut examples = media_examples(doc, media);
            if examples.is_empty() && !schema_value.is_null() {
                let generated = generate_example(doc, &schema_value);
                let label = if generated.notes.is_empty() {
                    "Generated from the schema".to_owned()
                } else {
                    format!("Generated from the schema ({})", generated.notes.join("; "))
                };
                examples.push((label, generated.value));
            }
            (Some(schema_node(doc, &schema_value)), examples)
        }
        None => (None, Vec::new()),
    };
    Ok(ResponseView {
        status: status.to_owned(),
        description: r.get("description").and_then(Value::as_str).unwrap_or_default().to_owned(),
        headers,
        media_type,
        schema,
        examples,
    })
}

/// A media type's examples: `example`, else each of `examples` that resolves and has a value.
fn media_examples(doc: &Value, media: &Value) -> Vec<(String, Value)> {
    if let Some(example) = media.get("example") {
        return vec![("Example".to_owned(), example.clone())];
    }
    let mut out = Vec::new();
    for (name, ex) in media.get("examples").and_then(Value::as_object).into_iter().flatten() {
        let Ok(ex) = follow(doc, ex) else { continue };
        if let Some(value) = ex.get("value") {
            let label = ex.get("summary").and_then(Value::as_str).unwrap_or(name);
            out.push((label.to_owned(), value.clone()));
        }
    }
    out
}

fn parameter(doc: &Value, p: &Value) -> Result<ParameterView, String> {
    let p = follow(doc, p)?;
    let location = p.get("in").and_then(Value::as_str).unwrap_or("query").to_owned();
    let schema_value = p.get("schema").cloned().unwrap_or(Value::Null);
    let schema = schema_node(doc, &schema_value);
    let example = p.get("example").cloned().or_else(|| {
        p.get("examples")
            .and_then(Value::as_object)
            .and_then(|m| m.values().next())
            .and_then(|e| follow(doc, e).ok())
            .and_then(|e| e.get("value").cloned())
    });
    // Resolved one level down too, so an array's item enum is checked by the try-it form.
    let mut schema_json = resolved_schema(doc, &schema_value);
    if let Some(items) = schema_json.get("items").map(|i| resolved_schema(doc, i)) {
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

/// A schema with its `$ref` followed and the reference's siblings laid over the target;
/// `null` when the reference does not resolve.
fn resolved_schema(doc: &Value, schema: &Value) -> Value {
    match follow(doc, schema) {
        Ok(target) => crate::schema::with_siblings(schema, target).unwrap_or_else(|| target.clone()),
        Err(_) => Value::Null,
    }
}

/// The schema at `value` as a display tree, at most [`MAX_DEPTH`] levels and [`MAX_NODES`]
/// nodes deep; a schema that refers back to one of its ancestors is not expanded again.
#[must_use]
fn schema_node(doc: &Value, value: &Value) -> SchemaNode {
    let mut tree = Tree { doc, stack: Vec::new(), nodes: 0 };
    tree.node(value, 0)
}

/// The walk of one schema tree: the component names being expanded, and how many nodes so far.
struct Tree<'a> {
    doc: &'a Value,
    stack: Vec<String>,
    nodes: usize,
}

impl Tree<'_> {
    fn node(&mut self, value: &Value, depth: usize) -> SchemaNode {
        self.nodes += 1;
        if let Some(r) = value.get("$ref").and_then(Value::as_str) {
            let name = r.rsplit('/').next().unwrap_or(r).to_owned();
            if self.stack.contains(&name) || depth >= MAX_DEPTH || self.nodes > MAX_NODES {
                return SchemaNode {
                    name: Some(name),
                    kind: "object".into(),
                    truncated: true,
                    ..SchemaNode::default()
                };
            }
            let target = match follow(self.doc, value) {
                Ok(target) => target,
                Err(e) => {
                    return SchemaNode { kind: "any".into(), description: Some(e), ..SchemaNode::default() };
                }
            };
            let merged = crate::schema::with_siblings(value, target);
            self.stack.push(name.clone());
            let mut inner = self.node(merged.as_ref().unwrap_or(target), depth + 1);
            self.stack.pop();
            inner.name = Some(name);
            return inner;
        }
        let mut node = SchemaNode::default();
        let Some(obj) = value.as_object() else {
            node.kind = if value == &Value::Bool(false) { "nothing".into() } else { "any".into() };
            return node;
        };
        let get = |k: &str| obj.get(k);
        node.description = get("description").and_then(Value::as_str).map(str::to_owned);
        node.format = get("format").and_then(Value::as_str).map(str::to_owned);
        let (types, nullable) = crate::schema::types(value);
        node.nullable = nullable;
        node.enumeration = crate::schema::allowed_values(value).unwrap_or_default();
        node.constraints = constraints(value, obj);
        let expand = depth < MAX_DEPTH && self.nodes <= MAX_NODES;
        for key in ["oneOf", "anyOf", "allOf"] {
            if let Some(list) = get(key).and_then(Value::as_array) {
                node.kind = key.to_owned();
                if expand {
                    node.variants = list.iter().map(|v| self.node(v, depth + 1)).collect();
                } else {
                    node.truncated = true;
                }
                return node;
            }
        }
        node.kind = match types.as_slice() {
            [] => crate::schema::primary_type(value).unwrap_or("any").to_owned(),
            [one] => (*one).to_owned(),
            many => many.join(" or "),
        };
        if !expand {
            node.truncated = obj.contains_key("properties") || obj.contains_key("items");
            return node;
        }
        let required: Vec<&str> = get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for (name, prop) in get("properties").and_then(Value::as_object).into_iter().flatten() {
            let read_only =
                follow(self.doc, prop).ok().and_then(|p| p.get("readOnly")).and_then(Value::as_bool);
            node.properties.push(Property {
                name: name.clone(),
                required: required.contains(&name.as_str()),
                read_only: read_only.unwrap_or(false),
                schema: self.node(prop, depth + 1),
            });
        }
        node.closed =
            [get("additionalProperties"), get("unevaluatedProperties")].contains(&Some(&Value::Bool(false)));
        if let Some(items) = get("items").filter(|i| i.is_object()) {
            node.items = Some(Box::new(self.node(items, depth + 1)));
        }
        node
    }
}

/// A schema in a few words, for constraints that name another schema ("string", "Pet",
/// "object with country").
fn summary(schema: &Value) -> String {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_owned();
    }
    if let Some(value) = schema.get("const") {
        return format!("= {value}");
    }
    if let Some(required) = schema.get("required").and_then(Value::as_array).filter(|r| !r.is_empty()) {
        let names: Vec<&str> = required.iter().filter_map(Value::as_str).collect();
        return format!("with {}", names.join(", "));
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object).filter(|p| !p.is_empty()) {
        let described: Vec<String> =
            properties.iter().map(|(name, p)| format!("{name} {}", summary(p))).collect();
        return described.join(", ");
    }
    let (types, nullable) = crate::schema::types(schema);
    match (types.is_empty(), nullable) {
        (true, true) => "null".to_owned(),
        (true, false) => "any value".to_owned(),
        (false, false) => types.join(" or "),
        (false, true) => format!("{} or null", types.join(" or ")),
    }
}

fn constraints(schema: &Value, obj: &Map<String, Value>) -> Vec<String> {
    let num = |k: &str| obj.get(k).filter(|v| v.is_number()).map(Value::to_string);
    let mut out = Vec::new();
    match (num("minLength"), num("maxLength")) {
        (Some(a), Some(b)) => out.push(format!("{a} to {b} characters")),
        (Some(a), None) => out.push(format!("at least {a} characters")),
        (None, Some(b)) => out.push(format!("at most {b} characters")),
        (None, None) => {}
    }
    match (crate::schema::lower_bound(schema), crate::schema::upper_bound(schema)) {
        (Some(a), Some(b)) if !a.exclusive && !b.exclusive => {
            out.push(format!("{} to {}", a.written, b.written))
        }
        (a, b) => {
            if let Some(a) = a {
                out.push(format!("{} {}", if a.exclusive { ">" } else { "≥" }, a.written));
            }
            if let Some(b) = b {
                out.push(format!("{} {}", if b.exclusive { "<" } else { "≤" }, b.written));
            }
        }
    }
    match (num("minItems"), num("maxItems")) {
        (Some(a), Some(b)) => out.push(format!("{a} to {b} items")),
        (Some(a), None) => out.push(format!("at least {a} items")),
        (None, Some(b)) => out.push(format!("at most {b} items")),
        (None, None) => {}
    }
    match (num("minProperties"), num("maxProperties")) {
        (Some(a), Some(b)) => out.push(format!("{a} to {b} properties")),
        (Some(a), None) => out.push(format!("at least {a} properties")),
        (None, Some(b)) => out.push(format!("at most {b} properties")),
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
    // JSON Schema 2020-12 (OpenAPI 3.1 and later), shown as constraints in words.
    if let Some(prefix) = obj.get("prefixItems").and_then(Value::as_array) {
        let items: Vec<String> = prefix.iter().map(summary).collect();
        out.push(format!("first items: {}", items.join(", ")));
    }
    if let Some(contains) = obj.get("contains") {
        let count = match (num("minContains"), num("maxContains")) {
            (Some(a), Some(b)) => format!(" ({a} to {b})"),
            (Some(a), None) => format!(" (at least {a})"),
            (None, Some(b)) => format!(" (at most {b})"),
            (None, None) => String::new(),
        };
        out.push(format!("contains {}{count}", summary(contains)));
    }
    if let Some(condition) = obj.get("if") {
        let mut rule = format!("if {}", summary(condition));
        if let Some(then) = obj.get("then") {
            rule.push_str(&format!(" then {}", summary(then)));
        }
        if let Some(otherwise) = obj.get("else") {
            rule.push_str(&format!(" else {}", summary(otherwise)));
        }
        out.push(rule);
    }
    for (name, needs) in obj.get("dependentRequired").and_then(Value::as_object).into_iter().flatten() {
        let needs: Vec<&str> = needs.as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        out.push(format!("with {name}, also {}", needs.join(", ")));
    }
    for (name, schema) in obj.get("dependentSchemas").and_then(Value::as_object).into_iter().flatten() {
        out.push(format!("with {name}: {}", summary(schema)));
    }
    if let Some(patterns) = obj.get("patternProperties").and_then(Value::as_object) {
        for (pattern, schema) in patterns {
            out.push(format!("properties matching {pattern}: {}", summary(schema)));
        }
    }
    for key in ["additionalProperties", "unevaluatedProperties"] {
        match obj.get(key) {
            Some(Value::Object(schema)) if !schema.is_empty() => {
                out.push(format!("other properties: {}", summary(&Value::Object(schema.clone()))));
            }
            // `false` closes the object: the tree says so ("no other fields").
            _ => {}
        }
    }
    if obj.get("unevaluatedItems") == Some(&Value::Bool(false)) {
        out.push("no other items".into());
    }
    if let Some(not) = obj.get("not") {
        out.push(format!("not {}", summary(not)));
    }
    if let Some(media) = obj.get("contentMediaType").and_then(Value::as_str) {
        out.push(format!("content {media}"));
    }
    if let Some(encoding) = obj.get("contentEncoding").and_then(Value::as_str) {
        out.push(format!("encoded {encoding}"));
    }
    if obj.get("writeOnly") == Some(&Value::Bool(true)) {
        out.push("write only".into());
    }
    if obj.get("deprecated") == Some(&Value::Bool(true)) {
        out.push("deprecated".into());
    }
    out
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
        let resolved = resolved_schema(self.doc, schema);
        let schema = &resolved;
        if let Some(v) =
            crate::schema::example(schema).or_else(|| schema.get("const")).or_else(|| schema.get("default"))
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
        match crate::schema::primary_type(schema) {
            Some("integer") => {
                let low = crate::schema::lower_bound(schema).map_or(1, |b| {
                    #[allow(clippy::cast_possible_truncation)] // a bound far out of range is clamped
                    let low = b.value.ceil().clamp(i64::MIN as f64, i64::MAX as f64) as i64;
                    if b.exclusive && b.value.fract() == 0.0 { low.saturating_add(1) } else { low }
                });
                Value::from(int("maximum").map_or(low, |high| low.min(high)))
            }
            Some("number") => Value::from(crate::schema::lower_bound(schema).map_or(1.5, |b| b.value)),
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

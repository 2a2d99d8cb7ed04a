//! Operation views for the reference page: one operation of any OpenAPI document, with its `$ref`s
//! followed, turned into plain values the UI renders (parameters, body, responses, schema trees
//! with their limits, examples, code sample settings), and the HTML and Markdown the reference
//! writes from them. Built on demand for the operation being shown.
//!
//! - Views: `OperationView` (in this file; `parts.rs` for parameters, body and responses,
//!   `security.rs`, `tree.rs` for schema trees, `example.rs`, `links.rs`), `SchemaView`
//!   (`component.rs`, a component schema's page), `Overview` (`overview.rs`), and `DocumentViews`,
//!   which builds them from a `playground_openapi::document::AnyDocument`. A reference that does
//!   not resolve spoils only its part: the parameter, body, response or header is left out and
//!   named in `OperationView::problems`. Callbacks are read into `OperationView::callbacks`; a
//!   webhook's view has no try-it panel (`OperationView::webhook`).
//! - Bounds: trees stop at 12 levels and 2,000 nodes; generated examples too, with strings of at
//!   most 64 characters and lists of at most 3 items (`Example::notes` says what a cap cut). The
//!   2020-12 keywords a tree does not draw are constraints in words.
//! - For the try-it module: a view carries `schema_document` (`reach.rs`: the targets of every
//!   local `$ref` its request and Example blocks reach, at most 2,000 targets and 200,000 values)
//!   and `example_slots`, so the module generates values without the whole document;
//!   `OperationView::needs_full_try_it` says which build of the module it needs.
//! - `html` writes the read-only parts (an operation, the overview, tag and schema pages, the
//!   list's rows) as HTML, every document value escaped; descriptions are plain text marked
//!   `data-markdown` until the Markdown renderer is ready. `html::prerender` writes a published
//!   site's first paint (header, operations grouped by tag up to `html::MAX_ROWS` rows, the
//!   overview) in the app's markup: `cargo run -p playground-reference --example prerender --
//!   openapi.json '{"document":"openapi.json"}'` prints it.
//! - `markdown` is the safe renderer: links and images only to http, https, mailto or relative
//!   addresses; `safe_link` applies the same rule to the document's links.
//! - `site` is a published site's settings (`site::SiteConfig`: `Serialize` for `playground
//!   build`, `SiteConfig::parse` for the page, which refuses unknown keys and checks each value).
//!
//! Tests: `tests/` (views, HTML, sections, versions, the reader as it streams, indexed documents).

#![deny(missing_docs)]

mod document;
pub mod html;
pub mod markdown;
pub mod site;

use serde_json::Value;

use playground_openapi::catalog::{Method, Stability};

mod component;
mod example;
mod links;
mod overview;
mod parts;
mod reach;
mod sections;
mod security;
mod tree;

pub use component::SchemaView;
pub use document::DocumentViews;
pub use example::{Example, ExampleFill, ExampleSlot, example_for, generate_example};
pub use links::{external_docs, safe_link};
pub use overview::{License, Overview};
use parts::{body, parameter, response};
use sections::{callbacks, code_samples, parameters, request_body, responses, schemes, servers};
pub use security::Access;
use security::security;

/// How deep nested schemas are expanded; deeper levels are left collapsed.
pub(crate) const MAX_DEPTH: usize = 12;

/// A body lists at most this many media types.
pub(crate) const MAX_MEDIA_TYPES: usize = 50;

/// One media type a request body may be sent as.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MediaOption {
    /// `multipart/form-data`, `text/plain`, ...
    pub media_type: String,
    /// Its schema, the top `$ref` followed (`null` when it has none).
    pub schema: Value,
}

/// At most this many schema nodes make one tree or one generated example: a schema whose
/// every level has many fields would otherwise multiply into millions.
pub(crate) const MAX_NODES: usize = 2_000;

/// Generated strings are at most this long, and arrays at most this many items, whatever
/// `minLength` or `minItems` asks (the example then says it was shortened).
pub(crate) const MAX_EXAMPLE_STRING: usize = 64;
pub(crate) const MAX_EXAMPLE_ITEMS: usize = 3;

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
    /// The document's text is still arriving: the part asked for is shown once it is in.
    #[error("The rest of the document is still downloading; this part is shown when it has arrived.")]
    Arriving,
}

/// A schema as a tree for display.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SchemaNode {
    /// The name of the schema a `$ref` pointed to (the last segment of the reference).
    pub name: Option<String>,
    /// The component's name when the `$ref` was `#/components/schemas/<name>`: the Schemas
    /// section shows it at `#schema/<name>`.
    pub component: Option<String>,
    /// `object`, `array`, `string`, `integer`, `number`, `boolean`, `null`, `oneOf`, `anyOf`,
    /// `allOf` or `any`.
    pub kind: String,
    /// `format`, e.g. `int64`, `date-time`.
    pub format: Option<String>,
    /// `description` (Markdown).
    pub description: Option<String>,
    /// `enum` values (whole numbers for an `integer` schema).
    pub enumeration: Vec<Value>,
    /// Limits in words: "1 to 100 characters", "≥ 1", "pattern \S", "default 20",
    /// "always \"fast\"", "examples: \"Rex\", \"Tom\"", "base64, image/png",
    /// "discriminator: petType: cat → Cat".
    pub constraints: Vec<String>,
    /// It allows `null`: `nullable: true` (3.0), a `type` list with `"null"`, or a `oneOf` or
    /// `anyOf` of one schema and `{"type": "null"}` (read as that schema, allowing null).
    pub nullable: bool,
    /// Object fields in document order.
    pub properties: Vec<Property>,
    /// `additionalProperties: false` or `unevaluatedProperties: false`.
    pub closed: bool,
    /// Array items.
    pub items: Option<Box<SchemaNode>>,
    /// `oneOf` / `anyOf` / `allOf` alternatives.
    pub variants: Vec<SchemaNode>,
    /// The schema refers back to one of its ancestors (or the tree is too deep): not expanded.
    pub truncated: bool,
    /// Schemas shown under this one, each with its label: a tuple's items by position
    /// (`prefixItems`: "item 1", ...; "other items" for `items` beside them), `if`, `then` and
    /// `else`, and "other properties" (`additionalProperties`, `unevaluatedProperties`).
    pub parts: Vec<SchemaPart>,
}

/// A schema shown under another with a label of its own ([`SchemaNode::parts`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaPart {
    /// "item 1", "other items", "if", "then", "else", "other properties".
    pub label: String,
    /// The schema.
    pub schema: SchemaNode,
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
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParameterView {
    /// Name.
    pub name: String,
    /// `path`, `query`, `header` or `cookie`.
    pub location: String,
    /// Required (path parameters always are).
    pub required: bool,
    /// Description (Markdown). Display only: not sent to the try-it module.
    #[serde(skip)]
    pub description: Option<String>,
    /// `deprecated: true`.
    #[serde(skip)]
    pub deprecated: bool,
    /// Its schema as a display tree. Display only: the try-it module reads
    /// [`ParameterView::schema_json`].
    #[serde(skip)]
    pub schema: SchemaNode,
    /// `example`, or the first of `examples`.
    pub example: Option<Value>,
    /// `true` for an array whose values repeat the parameter (`?s=a&s=b`).
    pub repeated: bool,
    /// The schema with its `$ref` followed: what the try-it form checks input against.
    pub schema_json: Value,
}

/// The request body.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BodyView {
    /// `required: true`.
    pub required: bool,
    /// Description (Markdown). Display only: not sent to the try-it module.
    #[serde(skip)]
    pub description: Option<String>,
    /// The media type shown (JSON when the body offers it).
    pub media_type: String,
    /// The body's schema as a display tree. Display only: the try-it module reads each
    /// [`MediaOption::schema`].
    #[serde(skip)]
    pub schema: SchemaNode,
    /// The example to prefill: the document's, or one generated from the schema.
    pub example: Value,
    /// Whether [`BodyView::example`] is the document's own (`false`: generated here).
    #[serde(default)]
    pub documented: bool,
    /// What a generated example leaves out (a string shortened, ...), in sentences.
    pub example_notes: Vec<String>,
    /// Every media type of the body (document order), the one above among them.
    #[serde(default)]
    pub media_types: Vec<MediaOption>,
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
    /// Whether [`ResponseView::examples`] are the document's own (`false`: generated here).
    pub documented: bool,
    /// What a generated example leaves out, in sentences.
    pub example_notes: Vec<String>,
    /// The content's schema as the document has it (its top `$ref` followed): what the try-it
    /// module generates and checks the examples with.
    pub schema_json: Value,
}

/// One `x-codeSamples` entry.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CustomSample {
    /// `lang`.
    pub lang: String,
    /// `label`, or the `lang`.
    pub label: String,
    /// `source`.
    pub source: String,
}

/// Which code samples an operation shows.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum CodeSamples {
    /// `x-codeSamples` entries replace the generated ones.
    Custom(Vec<CustomSample>),
    /// Generated cURL, JavaScript and Python.
    Generated,
    /// `x-codeSamples: false`.
    Hidden,
}

/// One security scheme an operation uses, as the reference describes it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SecurityUse {
    /// The scheme's name in `components.securitySchemes`.
    pub name: String,
    /// What it is, in words, without brackets (the page writes it in brackets after the name):
    /// "API key in the header X-API-Key", "HTTP bearer, JWT", "OAuth 2, password flow", ...;
    /// "not described" when the document has no such scheme.
    pub kind: String,
    /// The OAuth 2 or OpenID Connect scopes (or roles) the operation needs.
    pub scopes: Vec<String>,
}

/// A link to documentation elsewhere (`externalDocs`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExternalDocs {
    /// The address.
    pub url: String,
    /// What it is (Markdown), when given.
    pub description: Option<String>,
}

/// Everything the reference shows about one operation. Its JSON (serde) is what the page hands
/// the try-it module (`playground_seam::MountOptions`): the parts only the page shows (the
/// summary and descriptions, the badges, the responses, the display trees of the parameters
/// and the body) are left out of it, and the security goes beside it ([`Access`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OperationView {
    /// Method.
    pub method: Method,
    /// Path template.
    pub path: String,
    /// `operationId`.
    pub operation_id: Option<String>,
    /// `summary`.
    #[serde(skip)]
    pub summary: Option<String>,
    /// `description` (Markdown).
    #[serde(skip)]
    pub description: Option<String>,
    /// `deprecated: true`.
    #[serde(skip)]
    pub deprecated: bool,
    /// `x-deprecated-sunset`, when deprecated.
    #[serde(skip)]
    pub sunset: Option<String>,
    /// `x-stability` (`experimental` or `beta` only).
    #[serde(skip)]
    pub stability: Option<Stability>,
    /// `x-hideTryItPanel: true` on the operation or the document.
    pub hide_try_it: bool,
    /// Path-level and operation-level parameters (the operation's win).
    pub parameters: Vec<ParameterView>,
    /// The request body.
    pub request_body: Option<BodyView>,
    /// Responses in document order.
    #[serde(skip)]
    pub responses: Vec<ResponseView>,
    /// Code samples to show.
    pub code_samples: CodeSamples,
    /// Base URLs: the operation's `servers`, else the path's, else the document's.
    pub servers: Vec<String>,
    /// The same servers with their descriptions and `{variables}`, in the same order.
    #[serde(default)]
    pub server_details: Vec<playground_openapi::servers::Server>,
    /// The security schemes [`OperationView::security`] names, as the document describes them
    /// (`components.securitySchemes`), in the order the requirements first name them.
    #[serde(skip)]
    pub schemes: Vec<playground_openapi::security::Scheme>,
    /// The security the operation needs: its own `security`, else the document's. Each entry
    /// is one way in (the schemes of an entry are used together); an empty entry means the
    /// operation can also be called without credentials, and no entries that it needs none.
    #[serde(skip)]
    pub security: Vec<Vec<SecurityUse>>,
    /// `externalDocs` of the operation.
    #[serde(skip)]
    pub external_docs: Option<ExternalDocs>,
    /// Parts of the operation that could not be shown (a reference that does not resolve),
    /// each in a sentence; the rest of the view is there.
    #[serde(skip)]
    pub problems: Vec<String>,
    /// An operation of a webhook: `path` is the webhook's name, and the API is the caller.
    pub webhook: bool,
    /// The requests the API may send back (`callbacks`), in document order.
    #[serde(skip)]
    pub callbacks: Vec<CallbackView>,
    /// What the request's schemas (parameters and body) reach through `$ref`s, as a small
    /// document (its version and those targets at their pointers): the try-it module generates
    /// and checks values with it, without the whole document. `null` in a view built for its
    /// text ([`OperationView::build_text`]).
    #[serde(default)]
    pub schema_document: Value,
    /// The operation's Example blocks, for the try-it module to fill.
    #[serde(default)]
    pub example_slots: Vec<ExampleSlot>,
}

/// One callback of an operation: the requests the API sends to the address `expression`
/// names (`{$request.body#/callbackUrl}`).
#[derive(Debug, Clone, PartialEq)]
pub struct CallbackView {
    /// The callback's name.
    pub name: String,
    /// The runtime expression of the address.
    pub expression: String,
    /// Its operations (their own callbacks are not read).
    pub operations: Vec<OperationView>,
}

impl OperationView {
    /// Whether trying the operation needs more than a JSON body and no credentials: it names
    /// security schemes the document describes, or its body may be sent as something other
    /// than JSON (a form, a file, text). The reference loads the try-it module with its
    /// Authorization part and its form and file bodies only for such operations; the other
    /// build does not read [`Access`]. A scheme the document does not describe has no
    /// credentials to fill in (the reference says it is not described).
    #[must_use]
    pub fn needs_full_try_it(&self) -> bool {
        !self.schemes.is_empty()
            || self
                .request_body
                .as_ref()
                .is_some_and(|b| b.media_types.iter().any(|m| !playground_http::form::is_json(&m.media_type)))
    }

    /// Its deep-link anchor (see [`playground_openapi::catalog::anchor`]), the same as its row's in the list.
    #[must_use]
    pub fn anchor(&self) -> String {
        playground_openapi::catalog::anchor_of(
            self.operation_id.as_deref(),
            self.method,
            &self.path,
            self.webhook,
        )
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
        Self::build_in(doc, item, method, path, Kind::Path, Reader::Page)
    }

    /// The view for a reader of its text (the Markdown pages), which never generates or checks
    /// a value: [`OperationView::build`] (or [`OperationView::build_webhook`], with `webhook`)
    /// without [`OperationView::schema_document`] (`null`), and with schema trees that stop a
    /// level below a component met under the top schema's own fields (the Markdown names such a
    /// component and links to its page). On a large description, copying what each operation
    /// reaches was a third of a site's build, and trees drawn whole most of the rest.
    ///
    /// # Errors
    /// As [`OperationView::build`].
    pub fn build_text(doc: &Value, method: Method, path: &str, webhook: bool) -> Result<Self, ViewError> {
        let (items, kind) =
            if webhook { (webhooks(doc), Kind::Webhook) } else { (&doc["paths"], Kind::Path) };
        let item = resolve(doc, &items[path])?;
        Self::build_in(doc, item, method, path, kind, Reader::Text)
    }

    /// Builds the view of the operation `method` of the webhook `name` in `doc` (`webhooks`,
    /// or `x-webhooks` in a 3.0 document).
    ///
    /// # Errors
    /// As [`OperationView::build`].
    pub fn build_webhook(doc: &Value, method: Method, name: &str) -> Result<Self, ViewError> {
        let item = resolve(doc, &webhooks(doc)[name])?;
        Self::build_in(doc, item, method, name, Kind::Webhook, Reader::Page)
    }

    /// What [`OperationView::build`] (or [`OperationView::build_webhook`], with `webhook`)
    /// would refuse, without building the view: a small part of its cost, for a check of every
    /// operation of a large description (`playground build`'s warnings).
    ///
    /// # Errors
    /// As [`OperationView::build`].
    pub fn check(doc: &Value, method: Method, path: &str, webhook: bool) -> Result<(), ViewError> {
        let items = if webhook { webhooks(doc) } else { &doc["paths"] };
        operation(resolve(doc, &items[path])?, method, path).map(drop)
    }

    fn build_in(
        doc: &Value,
        item: &Value,
        method: Method,
        path: &str,
        kind: Kind,
        reader: Reader,
    ) -> Result<Self, ViewError> {
        // The only refusals: `check` makes the same, and must stay the same.
        let op = operation(item, method, path)?;
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        let mut problems = Vec::new();
        let parameters = parameters(doc, item, op, reader, &mut problems);
        let request_body = request_body(doc, op, reader, &mut problems);
        let responses = responses(doc, op, reader, &mut problems);
        let code_samples = code_samples(op);
        let (servers, server_details) = servers(doc, item, op);
        let security = security(doc, op.get("security").or_else(|| doc.get("security")));
        let schemes = schemes(doc, &security);
        let callbacks =
            if kind == Kind::Callback { Vec::new() } else { callbacks(doc, op, reader, &mut problems) };

        let flag = |v: &Value, key: &str| v.get(key).and_then(Value::as_bool).unwrap_or(false);
        let deprecated = flag(op, "deprecated");
        let example_slots = parts::example_slots(request_body.as_ref(), &responses);
        let schema_document = match reader {
            Reader::Page => reach::schema_document(
                doc,
                parameters
                    .iter()
                    .map(|p| &p.schema_json)
                    .chain(request_body.iter().flat_map(|b| b.media_types.iter().map(|m| &m.schema)))
                    .chain(example_slots.iter().map(|slot| &slot.schema)),
            ),
            Reader::Text => Value::Null,
        };
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
            server_details,
            schemes,
            security,
            external_docs: external_docs(op.get("externalDocs")),
            problems,
            webhook: kind == Kind::Webhook,
            callbacks,
            schema_document,
            example_slots,
        })
    }
}

/// The `webhooks` of `doc` (`x-webhooks` in a 3.0 document).
fn webhooks(doc: &Value) -> &Value {
    doc.get("webhooks").or_else(|| doc.get("x-webhooks")).unwrap_or(&Value::Null)
}

/// The operation `method` of the path item `item`.
fn operation<'d>(item: &'d Value, method: Method, path: &str) -> Result<&'d Value, ViewError> {
    item.get(method.as_str().to_ascii_lowercase())
        .ok_or_else(|| ViewError::NoOperation(format!("{} {path}", method.as_str())))
}

/// Who reads a view. The reference's page (`Page`) shows its schemas' trees whole and its try-it
/// module needs what they reach ([`OperationView::schema_document`]). The Markdown pages (`Text`)
/// list a component's fields only at the top of a tree and name the components below it, so
/// their trees stop a level under such a component ([`tree`]), and they need no
/// `schema_document`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reader {
    Page,
    Text,
}

/// Where an operation's path item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Path,
    Webhook,
    Callback,
}

/// A server URL as the document writes it, `{variables}` included (nothing substitutes their
/// defaults), without a trailing slash so paths can be appended.
fn server_url(url: &str) -> String {
    url.trim_end_matches('/').to_owned()
}

/// Follows `$ref`s; a broken one is a [`ViewError::BrokenRef`].
fn resolve<'a>(doc: &'a Value, value: &'a Value) -> Result<&'a Value, ViewError> {
    playground_openapi::pointer::resolve(doc, value).map_err(ViewError::BrokenRef)
}

/// Follows `$ref`s; the error is the reason alone, for the view's list of problems.
pub(crate) fn follow<'a>(doc: &'a Value, value: &'a Value) -> Result<&'a Value, String> {
    playground_openapi::pointer::resolve(doc, value)
}

//! What the mock reads from a document once: its paths and operations, each operation's
//! parameters, body media types, responses and security, and the base paths of its servers.
//!
//! Nothing here refuses a document for a part it cannot use: a parameter without a schema is
//! read as a string, a broken `$ref` leaves that part unchecked and is listed in
//! [`Spec::notes`], so one odd operation never costs the whole mock.

use playground_openapi::json::Key;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::routes::{Params, Routes};
use playground_openapi::pointer::resolve;
use playground_openapi::security::{ApiKeyIn, Scheme, SchemeKind};

/// The methods an OpenAPI path item may hold, as keys and as sent.
pub(crate) const METHODS: [(&str, &str); 8] = [
    ("get", "GET"),
    ("put", "PUT"),
    ("post", "POST"),
    ("delete", "DELETE"),
    ("options", "OPTIONS"),
    ("head", "HEAD"),
    ("patch", "PATCH"),
    ("trace", "TRACE"),
];

/// The most path templates the mock reads from one document.
pub const MAX_PATHS: usize = 20_000;

/// Where a parameter is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Location {
    Path,
    Query,
    Header,
    Cookie,
}

impl Location {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Location::Path => "Path parameter",
            Location::Query => "Query parameter",
            Location::Header => "Header",
            Location::Cookie => "Cookie",
        }
    }
}

/// One parameter of an operation.
#[derive(Debug, Clone)]
pub(crate) struct Param {
    pub name: String,
    pub location: Location,
    pub required: bool,
    /// The schema (`$ref`s left in place); `{}` when the parameter has none.
    pub schema: Value,
    /// `form`, `simple`, `deepObject`, `spaceDelimited`, `pipeDelimited`, ...
    pub style: String,
    pub explode: bool,
    /// The parameter is described with `content` (its value is JSON text) rather than a schema.
    pub json: bool,
}

/// A request body: whether it is required and its media types with their schemas.
#[derive(Debug, Clone)]
pub(crate) struct Body {
    pub required: bool,
    pub content: Vec<(String, Option<Value>)>,
}

/// One operation of the document.
#[derive(Debug, Clone)]
pub(crate) struct Operation {
    pub method: &'static str,
    /// The `operationId`, else `METHOD template`.
    pub id: String,
    pub params: Vec<Param>,
    pub body: Option<Body>,
    /// The responses by status key (`200`, `2XX`, `default`), `$ref`s followed.
    pub responses: Vec<(String, Value)>,
    /// Security alternatives: each a list of what one scheme needs in the request.
    pub security: Vec<Vec<Credential>>,
    /// `Deprecation` and `Sunset` headers for every answer of a deprecated operation.
    pub deprecation: Vec<(String, String)>,
    /// The `Content-Type` of an answer without a body, for a document converted from Swagger
    /// 2.0 (its `produces`, kept as `x-produces`): a JSON one, else the first.
    pub produces: Option<String>,
}

/// What a security scheme needs to find in a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Credential {
    Header(String),
    Query(String),
    Cookie(String),
    /// An `Authorization` header with this scheme (`basic`, `bearer`, ...).
    Authorization(String),
    /// Schemes the mock cannot check (mutual TLS): always satisfied.
    Unchecked,
}

/// One path of the document.
#[derive(Debug, Clone)]
pub(crate) struct PathItem {
    pub template: String,
    pub ops: Vec<Operation>,
}

impl PathItem {
    pub(crate) fn op(&self, method: &str) -> Option<&Operation> {
        self.ops.iter().find(|o| o.method == method)
    }
}

/// The document as the mock reads it.
#[derive(Debug)]
pub(crate) struct Spec {
    pub doc: Arc<Value>,
    pub paths: Vec<PathItem>,
    pub routes: Routes,
    /// The path part of each server URL (`/v1`), longest first; requests may carry it.
    pub base_paths: Vec<String>,
    pub patterns: playground_validate::Patterns,
    /// What could not be read, in words.
    pub notes: Vec<String>,
    /// Values generated for answers, kept.
    pub generated: super::cache::Generated,
}

impl Spec {
    /// Reads an OpenAPI 3.x document (as JSON).
    pub(crate) fn read(doc: Arc<Value>) -> Result<Self, String> {
        let paths_object = doc.key("paths").and_then(Value::as_object);
        let webhooks_only = paths_object.is_none() && doc.key("webhooks").is_some();
        let Some(paths_object) = paths_object else {
            return Err(if webhooks_only {
                "The document describes webhooks only; there are no paths to mock.".to_owned()
            } else {
                "The document has no paths object.".to_owned()
            });
        };
        let (patterns, skipped) = playground_validate::compile_patterns(&doc);
        let mut notes: Vec<String> = skipped
            .iter()
            .map(|p| format!("The pattern {p} is not checked: it cannot be compiled here."))
            .collect();
        let schemes = playground_openapi::security::schemes(&doc);
        let mut routes = Routes::default();
        let mut paths = Vec::new();
        for (template, item) in paths_object.iter().take(MAX_PATHS) {
            if !template.starts_with('/') {
                continue;
            }
            let item = match resolve(&doc, item) {
                Ok(item) => item,
                Err(e) => {
                    notes.push(format!("{template}: {e}"));
                    continue;
                }
            };
            let mut ops = Vec::new();
            for (key, method) in METHODS {
                let Some(operation) = item.get(key).filter(|o| o.is_object()) else { continue };
                ops.push(read_operation(&doc, &schemes, template, method, item, operation, &mut notes));
            }
            routes.push(template);
            paths.push(PathItem { template: template.clone(), ops });
        }
        if paths_object.len() > MAX_PATHS {
            notes.push(format!("Only the first {MAX_PATHS} of {} paths are mocked.", paths_object.len()));
        }
        let base_paths = base_paths(&doc);
        Ok(Self {
            doc,
            paths,
            routes,
            base_paths,
            patterns,
            notes,
            generated: super::cache::Generated::default(),
        })
    }

    pub(crate) fn validator(&self) -> playground_validate::Validator<'_> {
        playground_validate::Validator::new(&self.doc, &self.patterns)
    }

    /// Every path item that matches a request path, the most specific first, with its
    /// parameters; the path is tried as it is, then without a server's base path in front.
    pub(crate) fn route(&self, path: &str) -> Vec<(usize, Params)> {
        self.route_by(path, Routes::all_at)
    }

    /// As [`Spec::route`], for a trailing slash read as an empty last parameter
    /// ([`Routes::empty_last_at`]).
    pub(crate) fn route_empty_last(&self, path: &str) -> Vec<(usize, Params)> {
        self.route_by(path, Routes::empty_last_at)
    }

    fn route_by(&self, path: &str, by: fn(&Routes, &str) -> Vec<(usize, Params)>) -> Vec<(usize, Params)> {
        let found = by(&self.routes, path);
        if !found.is_empty() {
            return found;
        }
        self.base_paths
            .iter()
            .filter_map(|base| path.strip_prefix(base.as_str()))
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
            .map(|rest| by(&self.routes, rest))
            .find(|found| !found.is_empty())
            .unwrap_or_default()
    }
}

/// The path of every server URL that has one (`https://x.io/api/v2` gives `/api/v2`),
/// variables at their defaults, longest first.
fn base_paths(doc: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for server in playground_openapi::servers::read_servers(doc.key("servers").unwrap_or(&Value::Null)) {
        let url = server.resolve(&[]);
        let after_scheme = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
        let path = if url.contains("://") {
            after_scheme.find('/').map_or("", |i| &after_scheme[i..])
        } else {
            after_scheme
        };
        let path = path.split(['?', '#']).next().unwrap_or_default().trim_end_matches('/');
        if path.starts_with('/') && !out.iter().any(|p| p == path) {
            out.push(path.to_owned());
        }
    }
    out.sort_by_key(|p| std::cmp::Reverse(p.len()));
    out
}

fn read_operation(
    doc: &Value,
    schemes: &[Scheme],
    template: &str,
    method: &'static str,
    item: &Value,
    operation: &Value,
    notes: &mut Vec<String>,
) -> Operation {
    let id = operation
        .key("operationId")
        .and_then(Value::as_str)
        .map_or_else(|| format!("{method} {template}"), str::to_owned);
    let mut params: Vec<Param> = Vec::new();
    let listed = item.key("parameters").and_then(Value::as_array).into_iter().flatten();
    let own = operation.key("parameters").and_then(Value::as_array).into_iter().flatten();
    for p in listed.chain(own) {
        match read_param(doc, p) {
            Ok(Some(param)) => {
                params.retain(|q| !(q.name == param.name && q.location == param.location));
                params.push(param);
            }
            Ok(None) => {}
            Err(e) => notes.push(format!("{id}: {e}")),
        }
    }
    // A path parameter the template names but the document forgot is still a parameter.
    for name in super::routes::Template::parse(template).params() {
        if !params.iter().any(|p| p.location == Location::Path && p.name == name) {
            params.push(Param {
                name: name.to_owned(),
                location: Location::Path,
                required: true,
                schema: Value::Object(Map::new()),
                style: "simple".to_owned(),
                explode: false,
                json: false,
            });
        }
    }
    let body = operation.key("requestBody").and_then(|b| match resolve(doc, b) {
        Ok(b) => Some(read_body(b)),
        Err(e) => {
            notes.push(format!("{id}: the request body: {e}"));
            None
        }
    });
    let mut responses = Vec::new();
    for (status, response) in operation.key("responses").and_then(Value::as_object).into_iter().flatten() {
        match resolve(doc, response) {
            Ok(r) => responses.push((status.to_ascii_uppercase(), r.clone())),
            Err(e) => notes.push(format!("{id}: response {status}: {e}")),
        }
    }
    let security = playground_openapi::security::security_requirements(doc, operation)
        .into_iter()
        .map(|alternative| alternative.iter().map(|name| credential(schemes, name)).collect())
        .collect();
    let deprecation = deprecation_headers(operation).unwrap_or_else(|e| {
        notes.push(format!("{id}: {e}; no Deprecation or Sunset header is sent."));
        Vec::new()
    });
    let produced: Vec<&str> = operation
        .key("x-produces")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let produces = produced
        .iter()
        .find(|m| playground_http::form::is_json(m))
        .or_else(|| produced.first())
        .filter(|m| !m.contains('*') && m.chars().all(|c| c.is_ascii_graphic()))
        .map(|m| (*m).to_owned());
    Operation { method, id, params, body, responses, security, deprecation, produces }
}

/// `Deprecation: @<unix time>` (RFC 9745) from `x-deprecated-since` and `Sunset: <HTTP date>`
/// (RFC 8594) from `x-deprecated-sunset`, end of that day in UTC; a deprecated operation
/// without those dates has no headers.
fn deprecation_headers(op: &Value) -> Result<Vec<(String, String)>, String> {
    if op.key("deprecated").and_then(Value::as_bool) != Some(true) {
        return Ok(Vec::new());
    }
    let date = |key: &str| -> Result<Option<time::Date>, String> {
        let Some(v) = op.get(key) else { return Ok(None) };
        let text = v.as_str().ok_or_else(|| format!("{key} is not a string"))?;
        let format = time::macros::format_description!("[year]-[month]-[day]");
        time::Date::parse(text, &format).map(Some).map_err(|e| format!("{key} {text:?}: {e}"))
    };
    let mut headers = Vec::new();
    if let Some(since) = date("x-deprecated-since")? {
        let at = since.midnight().assume_utc().unix_timestamp();
        headers.push(("Deprecation".to_owned(), format!("@{at}")));
    }
    if let Some(sunset) = date("x-deprecated-sunset")? {
        let end = sunset.with_hms(23, 59, 59).map_err(|e| e.to_string())?.assume_utc();
        let format = time::macros::format_description!(
            "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
        );
        headers.push(("Sunset".to_owned(), end.format(&format).map_err(|e| e.to_string())?));
    }
    Ok(headers)
}

fn credential(schemes: &[Scheme], name: &str) -> Credential {
    match schemes.iter().find(|s| s.name == name).map(|s| &s.kind) {
        Some(SchemeKind::ApiKey { name, location: ApiKeyIn::Header }) => Credential::Header(name.clone()),
        Some(SchemeKind::ApiKey { name, location: ApiKeyIn::Query }) => Credential::Query(name.clone()),
        Some(SchemeKind::ApiKey { name, location: ApiKeyIn::Cookie }) => Credential::Cookie(name.clone()),
        Some(SchemeKind::Http { scheme, .. }) => Credential::Authorization(scheme.to_ascii_lowercase()),
        Some(SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. }) => {
            Credential::Authorization("bearer".to_owned())
        }
        // Mutual TLS, a scheme the document does not declare, or one that cannot be read:
        // nothing to look for.
        _ => Credential::Unchecked,
    }
}

fn read_param(doc: &Value, p: &Value) -> Result<Option<Param>, String> {
    let p = resolve(doc, p)?;
    let name = p.key("name").and_then(Value::as_str).ok_or("a parameter without a name")?.to_owned();
    let location = match p.key("in").and_then(Value::as_str) {
        Some("path") => Location::Path,
        Some("query") => Location::Query,
        Some("header") => Location::Header,
        Some("cookie") => Location::Cookie,
        other => return Err(format!("parameter {name} is in {other:?}")),
    };
    // OpenAPI: these headers are described elsewhere, and a parameter of that name is ignored.
    // A `Content-Type` parameter is kept: a document that declares one (required, or with an
    // enum) says which requests its server refuses, and clients test that it does.
    if location == Location::Header
        && ["accept", "authorization"].contains(&name.to_ascii_lowercase().as_str())
    {
        return Ok(None);
    }
    let (schema, json) = match (p.key("schema"), p.key("content").and_then(Value::as_object)) {
        (Some(schema), _) => (schema.clone(), false),
        (None, Some(content)) => {
            let (media, entry) = content.iter().next().ok_or(format!("parameter {name}: empty content"))?;
            let schema = entry.key("schema").cloned().unwrap_or_else(|| Value::Object(Map::new()));
            (schema, playground_http::form::is_json(media))
        }
        (None, None) => (Value::Object(Map::new()), false),
    };
    let style = p.key("style").and_then(Value::as_str).map_or_else(
        || if matches!(location, Location::Query | Location::Cookie) { "form" } else { "simple" }.to_owned(),
        str::to_owned,
    );
    let explode = p.key("explode").and_then(Value::as_bool).unwrap_or(style == "form");
    let required = location == Location::Path || p.key("required").and_then(Value::as_bool).unwrap_or(false);
    Ok(Some(Param { name, location, required, schema, style, explode, json }))
}

fn read_body(b: &Value) -> Body {
    let content = b
        .key("content")
        .and_then(Value::as_object)
        .map(|c| {
            c.iter()
                .map(|(media, entry)| (media.to_ascii_lowercase(), entry.key("schema").cloned()))
                .collect()
        })
        .unwrap_or_default();
    Body { required: b.key("required").and_then(Value::as_bool).unwrap_or(false), content }
}

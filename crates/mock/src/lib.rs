//! The mock of any document: resources inferred from its paths, answers from its examples or
//! from data generated from its schemas, requests checked against it.
//!
//! `ApiMock::from_document` takes an OpenAPI 3.x document (Swagger 2.0 is converted first);
//! `ApiMock::handle` answers a `playground_http::Request`, and `handle_timed` also gives the delay
//! and failure its options drew, which the caller applies (the server sleeps or cuts the
//! connection, the JavaScript module waits or rejects). The Petstore (`petstore::Mock`) is this
//! mock with business rules on top: `handle_with` lets a [`Rules`] answer the operations it keeps.
//! Both implement [`StatefulMock`], which the browser's `PersistentMock` and the server's
//! `Served` save.
//!
//! Order of checks: route (404, 405) -> credentials (401) -> parameters (400) -> body size (413)
//! -> content type (415) -> syntax (400) -> schema (422) -> the rules or the resource. A refused
//! request never changes the state. A status the operation does not document becomes a
//! documented one of the same meaning (`failure::documented_status`: 400 and 422, 410 for 404);
//! else it stays, and the Error object `{code, message, status}` is answered, or the document's
//! own error shape for that status.
//!
//! Modules, one concern each: `spec.rs` reads the document once (nothing refuses a document for
//! one odd part: what cannot be read is a note, `ApiMock::notes`, and goes unchecked);
//! `routes.rs` matches paths (literal segments first, parameters inside segments);
//! `resources.rs` infers the stored resources (a collection path beside its item path, the id
//! property and kind, the parent of a nested collection, a wrapper property); `crud.rs` runs
//! list, create, read, replace, patch (`patch.rs`: RFC 7396 merge or RFC 6902 operations) and
//! delete, and `item.rs` makes a created or replaced item (what was sent, what the server makes
//! with the time of the [`Clock`] the shell gives, nothing invented); `embed.rs` puts items in
//! the document's answer shapes; `security.rs` checks credentials (their presence, or the
//! values `MockOptions::credentials` accepts); `params.rs` reads parameters by style and bodies
//! by media type (`form_fields.rs` for forms in bracket notation, `xml_body.rs` for XML);
//! `failure.rs` and `problems.rs` write refusals (FastAPI's `detail` list among them);
//! `answer.rs` picks the status, media type, example and headers, and `cache.rs` keeps the
//! value generated per media type and seed; `store.rs` holds the items ([`MAX_ITEMS`],
//! [`MAX_STORED_BYTES`]) and the paths a DELETE removed outside the resources;
//! `drift.rs` checks a real API's exchange against the document (`ApiMock::check_exchange`) and
//! `record.rs` keeps its items (`ApiMock::record`); `records.rs` gives the state as records, so a
//! storage writes only what a change touched. Data comes from `playground-generate`, checks from
//! `playground-validate`.
//!
//! Tests: `src/tests.rs` (one API with every shape: CRUD, nesting, paging, wrappers, `Prefer`,
//! security, options, snapshots, Swagger 2.0), `src/tests/` (conformance, FastAPI's shapes, what
//! a created item holds; `tests/fastapi/run.sh` compares the mock with a real FastAPI app),
//! `tests/records.rs`, and the public documents in `tests/fixtures/public/`.
//!
//! ```
//! use playground_mock::ApiMock;
//! use playground_http::Request;
//! use serde_json::json;
//!
//! let doc = json!({
//!     "openapi": "3.1.0", "info": {"title": "Notes", "version": "1"},
//!     "paths": {
//!         "/notes": {
//!             "get": {"responses": {"200": {"description": "", "content": {"application/json": {
//!                 "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Note"}}}}}}},
//!             "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}},
//!                 "responses": {"201": {"description": "", "content": {"application/json": {
//!                     "schema": {"$ref": "#/components/schemas/Note"}}}}}}
//!         },
//!         "/notes/{noteId}": {
//!             "get": {"parameters": [{"name": "noteId", "in": "path", "required": true, "schema": {"type": "integer"}}],
//!                 "responses": {"200": {"description": "", "content": {"application/json": {
//!                     "schema": {"$ref": "#/components/schemas/Note"}}}}}}
//!         }
//!     },
//!     "components": {"schemas": {"Note": {"type": "object", "required": ["text"], "properties": {
//!         "id": {"type": "integer", "readOnly": true}, "text": {"type": "string"}}}}}
//! });
//! let mut mock = ApiMock::from_document(doc).unwrap();
//! let created = mock.handle(&Request::new("POST", "/notes").json(&json!({"text": "Buy milk"})));
//! assert_eq!(created.status, 201);
//! let read = mock.handle(&Request::new("GET", created.header_value("Location").unwrap()));
//! assert_eq!(read.json().unwrap(), json!({"id": 1, "text": "Buy milk"}));
//! assert_eq!(mock.handle(&Request::new("POST", "/notes").json(&json!({}))).status, 422);
//! ```

#![deny(missing_docs)]

mod answer;
mod cache;
mod clock;
mod crud;
mod drift;
mod embed;
mod failure;
mod form_fields;
mod item;
mod notice;
mod options;
mod outside;
mod params;
mod patch;
mod problems;
mod record;
pub mod records;
mod resources;
mod routes;
mod security;
mod spec;
mod state;
mod stateful;
mod store;
mod text_values;
mod xml_body;

/// Data generated from a schema (the crate `playground-generate`), kept at its old path.
pub use playground_generate as generate;

use playground_openapi::json::Key;
use std::sync::Arc;

use serde_json::Value;

use self::answer::Prefer;
pub use self::clock::Clock;
pub use self::drift::{
    Checked, ExchangeLine, MAX_CHECKED_BODY, MAX_MISMATCHES, MAX_SUMMARY_ROWS, Mismatch, MismatchKind,
    OTHER_ROW, OperationDrift, Summary, UnknownOperation,
};
pub use self::failure::Failure;
pub use self::notice::{MockNotice, NoticeKind};
pub use self::options::{Delay, FailureOptions, MockOptions, OperationOptions};
pub use self::params::MAX_REQUEST_BODY;
pub use self::params::Params;
use self::params::Raw;
pub use self::problems::{MAX_PROBLEMS, Problem};
pub use self::record::{RecordError, Recorded};
pub use self::records::{Changes, Record};
use self::resources::Resource;
use self::spec::{Operation, Spec};
pub use self::stateful::{SnapshotError, StatefulMock};
use self::store::Store;
pub use self::store::{GENERIC_SNAPSHOT_VERSION, MAX_ITEMS, MAX_STORED_BYTES};
use playground_http::{Request, Response};

/// Why a document cannot be mocked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MockError(pub String);

/// A stored resource, as [`ApiMock::resources`] lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceInfo {
    /// The collection's path template, e.g. `/users/{userId}/posts`.
    pub collection: String,
    /// The item's path template, e.g. `/users/{userId}/posts/{postId}`.
    pub item: String,
    /// The item's property that holds its id, if any.
    pub id_field: Option<String>,
    /// Items stored, over all scopes.
    pub count: usize,
}

/// An answer and what the shell should do with it: wait `delay_ms` first, or drop the
/// connection (`network_error`) instead of answering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handled {
    /// The answer.
    pub response: Response,
    /// Milliseconds to wait before answering.
    pub delay_ms: u32,
    /// Fail as the network would, without an answer.
    pub network_error: bool,
}

/// A body the shell did not hand over because it is over the mock's limit
/// ([`ApiMock::body_limit`]): its size, and whether that is all of it (`exact`) or only as far
/// as the shell counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OversizedBody {
    /// Bytes counted.
    pub size: usize,
    /// Whether `size` is the whole body.
    pub exact: bool,
}

/// Business rules an API keeps on top of the generic mock: the Petstore's transitions, stock
/// and unique names ([`crate::Mock`]). The generic mock routes the request, checks credentials,
/// reads and checks its parameters and body against the document, and applies the delay and
/// failure options; then the rules may answer the operation themselves.
pub trait Rules {
    /// The answer to an operation whose request passed the document's checks, or `None` to
    /// let the generic mock answer it. An `Err` is answered as every failure is (the Error
    /// object, or the document's shape for its status).
    fn answer(
        &mut self,
        operation_id: &str,
        params: &Params,
        body: Option<&Value>,
    ) -> Option<Result<Response, Failure>>;
}

/// No rules: every operation is answered by the generic mock.
struct NoRules;

impl Rules for NoRules {
    fn answer(&mut self, _: &str, _: &Params, _: Option<&Value>) -> Option<Result<Response, Failure>> {
        None
    }
}

/// A stateful mock of any OpenAPI 3.x document (Swagger 2.0 is converted first).
#[derive(Debug, Clone)]
pub struct ApiMock {
    spec: Arc<Spec>,
    resources: Arc<Vec<Resource>>,
    /// `(path index, method)` → `(resource index, role)`.
    roles: Arc<resources::Roles>,
    /// For each path index, the resource whose stored item it sits under, if any.
    owners: Arc<Vec<Option<usize>>>,
    store: Store,
    /// The whole state was replaced since a storage last took the changes.
    replaced: bool,
    options: MockOptions,
    revision: u64,
    /// The state of the random choices of delays and failures.
    random: u64,
    api: String,
    /// The largest request body read, in bytes.
    body_limit: usize,
    /// Where the time of a request is read, for the times the server makes.
    clock: Clock,
}

impl ApiMock {
    /// A mock of a document given as JSON: OpenAPI 3.0, 3.1 or 3.2, or Swagger 2.0.
    ///
    /// # Errors
    /// When the document is not an object, a Swagger 2.0 document cannot be converted, or it has
    /// no paths.
    pub fn from_document(doc: Value) -> Result<Self, MockError> {
        let doc = if doc.key("swagger").is_some() {
            playground_convert::swagger2_to_openapi3(&doc).map_err(|e| MockError(e.to_string()))?.document
        } else if doc.key("openapi").and_then(Value::as_str).is_some() {
            doc
        } else {
            return Err(MockError(
                "This is not an OpenAPI document: it has neither an `openapi` nor a `swagger` field."
                    .to_owned(),
            ));
        };
        Self::from_openapi(doc)
    }

    /// A mock of an OpenAPI 3.x document, without the Swagger 2.0 converter (the Petstore's
    /// module stays without it).
    pub fn from_openapi(doc: Value) -> Result<Self, MockError> {
        let info = doc.key("info");
        let text =
            |k: &str| info.and_then(|i| i.get(k)).and_then(Value::as_str).unwrap_or_default().to_owned();
        let api = format!("{} {}", text("title"), text("version")).trim().to_owned();
        let spec = Spec::read(Arc::new(doc)).map_err(MockError)?;
        let (resources, roles) = resources::infer(&spec);
        let owners = resources::owners(&spec, &resources);
        Ok(Self {
            spec: Arc::new(spec),
            resources: Arc::new(resources),
            roles: Arc::new(roles),
            owners: Arc::new(owners),
            store: Store::default(),
            replaced: true,
            options: MockOptions::default(),
            revision: 0,
            random: 0x9E37_79B9_7F4A_7C15,
            api,
            body_limit: MAX_REQUEST_BODY,
            clock: Clock::default(),
        })
    }

    /// A mock of a document's JSON text.
    ///
    /// # Errors
    /// When the text is not JSON, and as [`ApiMock::from_document`].
    pub fn from_json(text: &[u8]) -> Result<Self, MockError> {
        let doc = playground_openapi::document::parse_json(text).map_err(|e| MockError(e.to_string()))?;
        Self::from_document(doc)
    }

    /// The same mock with another limit on request bodies (the Petstore's is 64 KiB).
    #[must_use]
    pub fn with_body_limit(mut self, limit: usize) -> Self {
        self.body_limit = limit;
        self
    }

    /// The same mock with other options.
    #[must_use]
    pub fn with_options(mut self, options: MockOptions) -> Self {
        self.set_options(options);
        self
    }

    /// The same mock reading the time of each request from `clock`, for the fields the server
    /// makes (`createdAt`, `updated_at` and the like); without one they get generated dates,
    /// the same for the same seed.
    #[must_use]
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// Changes the clock; the state stays.
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// Changes the options; the state stays.
    pub fn set_options(&mut self, options: MockOptions) {
        self.random ^= options.seed;
        self.options = options;
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> &MockOptions {
        &self.options
    }

    /// The document's title and version, which snapshots carry.
    #[must_use]
    pub fn api(&self) -> &str {
        &self.api
    }

    /// What of the document could not be read (each part is then answered without checks).
    #[must_use]
    pub fn notes(&self) -> &[String] {
        &self.spec.notes
    }

    /// The resources inferred, with how many items each holds.
    #[must_use]
    pub fn resources(&self) -> Vec<ResourceInfo> {
        self.resources
            .iter()
            .map(|r| ResourceInfo {
                collection: r.collection.clone(),
                item: self.spec.paths[r.item_path].template.clone(),
                id_field: r.id_field.clone(),
                count: self
                    .store
                    .resources
                    .get(&r.collection)
                    .map_or(0, |scopes| scopes.values().map(|i| i.len()).sum()),
            })
            .collect()
    }

    /// Answers one request. Never panics; every failure is an answer.
    pub fn handle(&mut self, request: &Request) -> Response {
        self.handle_timed(request).response
    }

    /// Answers one request, with the delay and failure the options ask for.
    pub fn handle_timed(&mut self, request: &Request) -> Handled {
        self.handle_with(request, None, &mut NoRules)
    }

    /// Answers a request whose body was too large to read (`request` comes without it), as
    /// the mock answers a body over its limit: routed and checked like any request, then
    /// refused with 413 `payload_too_large`, or the status and shape the operation documents
    /// for such a refusal. An operation without a body ignores it, as it ignores any body.
    pub fn handle_oversized(&mut self, request: &Request, body: OversizedBody) -> Handled {
        self.handle_with(request, Some(body), &mut NoRules)
    }

    /// The largest request body the mock reads, in bytes.
    #[must_use]
    pub fn body_limit(&self) -> usize {
        self.body_limit
    }

    /// Answers one request as [`ApiMock::handle_timed`] does, letting `rules` answer the
    /// operations they keep.
    pub fn handle_with(
        &mut self,
        request: &Request,
        oversized: Option<OversizedBody>,
        rules: &mut dyn Rules,
    ) -> Handled {
        let spec = Arc::clone(&self.spec);
        let (path, query) = split_target(&request.target);
        let (path_index, path_params, op) = match route(&spec, &self.api, &request.method, path) {
            Ok(found) => found,
            Err(failure) => return self.plain(failure::render(&spec, None, &failure, 0)),
        };
        let path_params = &path_params;
        let (delay_ms, fail) = self.effects(&op.id);
        let seed = self.options.seed ^ hash(&op.id);
        let network_error = fail.as_ref().is_some_and(|f| f.network);
        let route = Matched { spec: &spec, path_index, op, path_params };
        let mut response = match self.answer(&route, request, oversized, query, fail, rules) {
            Ok(response) => response,
            Err(failure) => failure::render(&spec, Some(op), &failure, seed),
        };
        response.headers.extend(op.deprecation.iter().cloned());
        if let Some(media) = &op.produces
            && response.body.is_empty()
            && response.header_value("Content-Type").is_none()
        {
            response.headers.insert(0, ("Content-Type".to_owned(), media.clone()));
        }
        Handled { response, delay_ms, network_error }
    }

    fn plain(&self, response: Response) -> Handled {
        Handled { response, delay_ms: 0, network_error: false }
    }

    /// The delay and the failure drawn for one call of an operation.
    fn effects(&mut self, op_id: &str) -> (u32, Option<FailureOptions>) {
        let own = self.options.operations.get(op_id);
        let delay = own.and_then(|o| o.delay).or(self.options.delay);
        let failure = own.and_then(|o| o.failure.clone()).or_else(|| self.options.failure.clone());
        let delay_ms = delay.map_or(0, |d| {
            let span = u64::from(d.max.saturating_sub(d.min)) + 1;
            d.min + u32::try_from(self.next_random() % span).unwrap_or(0)
        });
        #[allow(clippy::cast_precision_loss)] // a 53-bit fraction is plenty for a rate
        let draw = (self.next_random() >> 11) as f64 / (1u64 << 53) as f64;
        (delay_ms, failure.filter(|f| draw < f.rate))
    }

    fn next_random(&mut self) -> u64 {
        self.random = self.random.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.random;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn answer(
        &mut self,
        route: &Matched<'_>,
        request: &Request,
        oversized: Option<OversizedBody>,
        query: &str,
        fail: Option<FailureOptions>,
        rules: &mut dyn Rules,
    ) -> Result<Response, Failure> {
        let Matched { spec, path_index, op, path_params } = *route;
        let query_pairs: Vec<(String, String)> =
            form_urlencoded::parse(query.as_bytes()).into_owned().collect();
        if self.options.security {
            security::check_credentials(op, request, &query_pairs, &self.options.credentials)?;
        }
        let check = self.options.validate;
        let raw = Raw { path: path_params, query: &query_pairs, request };
        let params = params::read_params(spec, op, &raw, check).map_err(|failure| {
            // The body's problems are listed too (FastAPI's `detail` lists them all); the
            // refusal stays the parameter's.
            match (&op.body, oversized) {
                (Some(body), None) => {
                    match params::read_body(spec, op, body, request, check, self.body_limit) {
                        Err(more) => failure.with_problems(more.problems),
                        Ok(_) => failure,
                    }
                }
                _ => failure,
            }
        })?;
        let body = match (&op.body, oversized) {
            (Some(_), Some(unread)) => return Err(Failure::too_large(unread, self.body_limit)),
            (Some(body), None) => params::read_body(spec, op, body, request, check, self.body_limit)?,
            (None, _) => None,
        };
        let prefer = Prefer::of(&request.headers);
        let seed = self.options.seed ^ hash(&op.id);
        if let Some(fail) = fail {
            return Ok(answer::injected(spec, op, fail.status, seed));
        }
        let asks_document = prefer.code.is_some() || prefer.example.is_some();
        if !asks_document && let Some(answer) = rules.answer(&op.id, &params, body.as_ref()) {
            return answer;
        }
        let role = self.roles.get(&(path_index, op.method)).copied();
        let path_names: Vec<&str> = path_params.iter().map(|(name, _)| name.as_str()).collect();
        let resources = Arc::clone(&self.resources);
        let accept = request.header_value("Accept");
        let now = match role {
            Some((_, resources::Role::Create | resources::Role::Replace | resources::Role::Patch)) => {
                self.clock.now_ms()
            }
            _ => None,
        };
        let mut call = crud::Call { spec, resources: &resources, store: &mut self.store, seed, accept, now };
        match role {
            Some((resource, role)) if !asks_document => {
                let (response, changed) = call.run(resource, role, op, &params, &path_names, body)?;
                // A create or replace at a path deleted outside the resources (`DELETE` on a
                // collection) puts it back, as it does outside them.
                let revived = matches!(op.method, "PUT" | "POST") && self.store.has_deleted() && {
                    let template = spec.paths.get(path_index).map_or("", |p| p.template.as_str());
                    self.store.revive(&routes::Template::parse(template).fill(path_params))
                };
                if changed || revived {
                    self.revision += 1;
                }
                Ok(response)
            }
            _ => {
                // A path under a stored item answers only while the item exists.
                if role.is_none()
                    && !asks_document
                    && let Some(owner) = self.owners.get(path_index).copied().flatten()
                {
                    call.check_owner(owner, &params, &path_names)?;
                }
                self.outside_resources(route, asks_document, &prefer, accept, seed)
            }
        }
    }
}

/// The operation a request's method and path matched, with the path's parameters.
#[derive(Clone, Copy)]
pub(crate) struct Matched<'a> {
    spec: &'a Spec,
    /// The path item's index in the document's paths.
    path_index: usize,
    op: &'a Operation,
    path_params: &'a [(String, String)],
}

/// The operation a request's method and path name: its path item's index, the path's
/// parameters and the operation; else the failure that says why none (404, or 405 with the
/// methods allowed).
pub(crate) fn route<'s>(
    spec: &'s Spec,
    api: &str,
    method: &str,
    path: &str,
) -> Result<(usize, routes::Params, &'s Operation), Failure> {
    let mut matches = spec.route(path);
    let method = method.to_ascii_uppercase();
    // `/types/` where only `/types/{id}` has the method: the slash ends an empty id.
    let has_method = |found: &[(usize, routes::Params)]| {
        found.iter().any(|(i, _)| spec.paths.get(*i).is_some_and(|p| p.op(&method).is_some()))
    };
    if !has_method(&matches) {
        let empty_last = spec.route_empty_last(path);
        if has_method(&empty_last) {
            matches = empty_last;
        }
    }
    if matches.is_empty() {
        return Err(Failure::not_found(format!("There is no path {path} in {api}.")));
    }
    // The most specific template decides, with those that differ from it only in their
    // parameters' names (each may carry some of the methods): a literal path
    // (`/items/merge`) is matched before the template it also fits (`/items/{id}`), as
    // OpenAPI says, so a method it lacks is 405 even where the template has it.
    let first_shape =
        matches.first().and_then(|(index, _)| spec.paths.get(*index)).map(|p| resources::shape(&p.template));
    let same_shape: Vec<&(usize, routes::Params)> = matches
        .iter()
        .filter(|(index, _)| spec.paths.get(*index).map(|p| resources::shape(&p.template)) == first_shape)
        .collect();
    let found = same_shape.iter().find_map(|(index, params)| {
        let item = spec.paths.get(*index)?;
        item.op(&method).map(|op| (*index, params.clone(), op))
    });
    if let Some(found) = found {
        return Ok(found);
    }
    let mut methods: Vec<&str> = Vec::new();
    for item in same_shape.iter().filter_map(|(index, _)| spec.paths.get(*index)) {
        for op in &item.ops {
            if !methods.contains(&op.method) {
                methods.push(op.method);
            }
        }
    }
    let allow = methods.join(", ");
    let template = matches.first().and_then(|(index, _)| spec.paths.get(*index));
    let template = template.map_or(path, |item| item.template.as_str());
    Err(Failure::method(format!("{method} is not allowed on {template}; use {allow}."), allow))
}

/// A stable 64-bit hash (FNV-1a) of a text, for seeds.
pub(crate) fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Splits `http://host/path?query#fragment` or `/path?query` into path and query (both
/// mocks read targets so).
fn split_target(target: &str) -> (&str, &str) {
    let without_origin = match target.find("://") {
        Some(i) => target[i + 3..].find('/').map_or("/", |p| &target[i + 3 + p..]),
        None => target,
    };
    let without_fragment = without_origin.split('#').next().unwrap_or_default();
    let (path, query) = without_fragment.split_once('?').unwrap_or((without_fragment, ""));
    (if path.is_empty() { "/" } else { path }, query)
}

#[cfg(test)]
mod tests;

//! The stateful Petstore mock: `(method, path) -> handler(&mut Store, &Request)`, pure and
//! synchronous. Routes, parameters and body schemas come from the embedded OpenAPI document.

pub mod generic;
mod handlers;
mod notice;
mod spec;
mod store;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use self::handlers::Inputs;
pub use self::notice::{MockNotice, NoticeKind};
use self::spec::Location;
pub use self::store::SNAPSHOT_VERSION;
use self::store::Store;
use crate::error::{ApiError, ErrorCode};
use crate::http::{Request, Response};

/// Why a snapshot was refused. The mock's state is untouched when this is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// Not JSON, or not the snapshot shape.
    #[error("The saved state is not a Petstore mock snapshot: {0}")]
    Malformed(String),
    /// A snapshot written by another version of the mock.
    #[error("The saved state has version {found}; this mock reads version {expected}.")]
    UnsupportedVersion {
        /// Version in the snapshot.
        found: u64,
        /// Version this mock writes and reads.
        expected: u64,
    },
    /// Well-formed, but breaks an invariant (a dangling id, a duplicate id, ...).
    #[error("The saved state is inconsistent: {0}")]
    Inconsistent(String),
}

/// How many of each thing the mock holds. The mock module's `counts()` gives it to JavaScript
/// as `{pets, categories, orders, openOrders, stock}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// Pets.
    pub pets: usize,
    /// Categories.
    pub categories: usize,
    /// Orders, open and complete.
    pub orders: usize,
    /// Open (not complete) orders.
    pub open_orders: usize,
    /// Units in stock over all pets.
    pub stock: u64,
}

/// The mock: state plus the router.
///
/// ```
/// use petstore_core::{Mock, Request};
/// use serde_json::json;
///
/// let mut mock = Mock::seeded();
/// let created = mock.handle(&Request::new("POST", "/pets").json(&json!({"name": "Rex", "categoryId": 1})));
/// assert_eq!(created.status, 201);
/// let location = created.header_value("Location").unwrap().to_owned();
/// assert_eq!(mock.handle(&Request::new("GET", location)).json().unwrap()["name"], "Rex");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Mock {
    store: Store,
    revision: u64,
}

/// Largest request body, in bytes (64 KiB).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

impl Mock {
    /// An empty store: ids start at 1.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A store filled with demo data: categories 1-3 (Dogs, Cats, Birds) and pets 1-6 with
    /// stock.
    #[must_use]
    pub fn seeded() -> Self {
        Self { store: Store::seeded(), revision: 0 }
    }

    /// Answers one request. Never panics; every failure is an `Error` object.
    pub fn handle(&mut self, request: &Request) -> Response {
        let mutating = !request.method.eq_ignore_ascii_case("GET");
        match self.dispatch(request) {
            Ok(response) => {
                if mutating {
                    self.revision += 1;
                }
                response
            }
            Err((error, allow)) => {
                let mut response = Response {
                    status: error.status(),
                    headers: vec![("Content-Type".into(), "application/json".into())],
                    body: serde_json::to_vec(&error.body()).unwrap_or_default(),
                };
                if let Some(allow) = allow {
                    response.headers.push(("Allow".into(), allow));
                }
                response
            }
        }
    }

    fn dispatch(&mut self, request: &Request) -> Result<Response, (ApiError, Option<String>)> {
        let spec = spec::spec();
        let (path, query) = split_target(&request.target);
        let method = request.method.to_ascii_uppercase();
        let matched = spec.router.at(path).map_err(|_| {
            (ApiError::new(ErrorCode::NotFound, format!("There is no resource at {path}.")), None)
        })?;
        let path_spec = &spec.paths[*matched.value];
        let Some(op) = path_spec.ops.iter().find(|o| o.method == method) else {
            let allow = path_spec.allow();
            let message = format!("{method} is not allowed on {}; use {allow}.", path_spec.template);
            return Err((ApiError::new(ErrorCode::MethodNotAllowed, message), Some(allow)));
        };
        let raw_params: Vec<(String, String)> =
            matched.params.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect();
        let inputs = read_inputs(spec, op, request, &raw_params, query).map_err(|e| (e, None))?;
        let mut response = handlers::handle(op.op, &mut self.store, &inputs).map_err(|e| (e, None))?;
        response.headers.extend(op.deprecation.iter().cloned());
        Ok(response)
    }

    /// Increases by one on every change of state (reads leave it alone): compare before and
    /// after [`Mock::handle`] to know whether to save.
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Counts for a status display.
    #[must_use]
    pub fn counts(&self) -> Counts {
        let s = &self.store;
        Counts {
            pets: s.pets.len(),
            categories: s.categories.len(),
            orders: s.orders.len(),
            open_orders: s.orders.values().filter(|o| !o.complete).count(),
            stock: s.stock.values().map(|&q| u64::try_from(q).unwrap_or(0)).sum(),
        }
    }

    /// The whole state as versioned JSON.
    #[must_use]
    pub fn snapshot(&self) -> String {
        self.store.snapshot()
    }

    /// Replaces the state with a snapshot; on error the current state is untouched.
    ///
    /// # Errors
    /// [`SnapshotError`] when the text is not a snapshot, has another version, or breaks an
    /// invariant.
    pub fn restore(&mut self, snapshot: &str) -> Result<(), SnapshotError> {
        self.store = Store::from_snapshot(snapshot)?;
        self.revision += 1;
        Ok(())
    }

    /// A mock restored from a snapshot.
    ///
    /// # Errors
    /// As [`Mock::restore`].
    pub fn from_snapshot(snapshot: &str) -> Result<Self, SnapshotError> {
        Ok(Self { store: Store::from_snapshot(snapshot)?, revision: 0 })
    }

    /// Empties the store (`seed: true` fills it with the demo data again).
    pub fn reset(&mut self, seed: bool) {
        self.store = if seed { Store::seeded() } else { Store::default() };
        self.revision += 1;
    }

    /// Checks the store's invariants: unique positive ids, every pet in an existing category
    /// with a stock entry in range, every order for an existing pet, a pet with an open order
    /// is `pending`. The message names the first invariant broken.
    ///
    /// # Errors
    /// The broken invariant, in words.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.store.check()
    }
}

/// What the browser's saved mock and the server need of a mock, whichever API it mocks: the
/// Petstore's [`Mock`] and [`generic::ApiMock`] both are one.
pub trait StatefulMock {
    /// Answers one request.
    fn handle(&mut self, request: &Request) -> Response;
    /// Answers one request with the delay or network failure the mock's options ask for (none,
    /// unless the mock has such options).
    fn handle_timed(&mut self, request: &Request) -> generic::Handled {
        generic::Handled { response: self.handle(request), delay_ms: 0, network_error: false }
    }
    /// Increases on every change of state.
    fn revision(&self) -> u64;
    /// The whole state as versioned JSON.
    fn snapshot(&self) -> String;
    /// Replaces the state with a snapshot; on error the state is untouched.
    ///
    /// # Errors
    /// When the text is not a snapshot of this mock.
    fn restore(&mut self, snapshot: &str) -> Result<(), SnapshotError>;
    /// Empties the state; `seed` asks for demo data where the mock has some.
    fn reset(&mut self, seed: bool);
}

impl StatefulMock for Mock {
    fn handle(&mut self, request: &Request) -> Response {
        Mock::handle(self, request)
    }

    fn revision(&self) -> u64 {
        Mock::revision(self)
    }

    fn snapshot(&self) -> String {
        Mock::snapshot(self)
    }

    fn restore(&mut self, snapshot: &str) -> Result<(), SnapshotError> {
        Mock::restore(self, snapshot)
    }

    fn reset(&mut self, seed: bool) {
        Mock::reset(self, seed);
    }
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

fn is_json(content_type: &str) -> bool {
    let media = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    media == "application/json" || (media.starts_with("application/") && media.ends_with("+json"))
}

/// Reads and checks parameters and body against the operation's description.
fn read_inputs(
    spec: &'static spec::Spec,
    op: &'static spec::OpSpec,
    request: &Request,
    path_params: &[(String, String)],
    query: &str,
) -> Result<Inputs, ApiError> {
    if request.body.len() > MAX_BODY_BYTES {
        return Err(ApiError::new(
            ErrorCode::PayloadTooLarge,
            format!("The body is {} bytes; the limit is {MAX_BODY_BYTES} bytes.", request.body.len()),
        ));
    }
    let validator = spec.validator();
    let query_pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes()).into_owned().collect();
    let mut inputs = Inputs::default();
    for param in &op.params {
        let raw: Vec<String> = match param.location {
            Location::Path => path_params
                .iter()
                .filter(|(k, _)| *k == param.name)
                .map(|(_, v)| percent_encoding::percent_decode_str(v).decode_utf8_lossy().into_owned())
                .collect(),
            Location::Query => {
                query_pairs.iter().filter(|(k, _)| *k == param.name).map(|(_, v)| v.clone()).collect()
            }
            Location::Header => request
                .headers
                .iter()
                .filter(|(k, _)| k.eq_ignore_ascii_case(&param.name))
                .map(|(_, v)| v.clone())
                .collect(),
        };
        let label = format!("{} {}", param.location.label(), param.name);
        if raw.is_empty() {
            if param.required {
                return Err(ApiError::new(ErrorCode::InvalidParameter, format!("{label} is required.")));
            }
            continue;
        }
        let value = parse_param(&validator, &param.schema, &raw, &label)?;
        validator.check(&param.schema, &value, &param.name).map_err(|e| {
            ApiError::new(ErrorCode::InvalidParameter, format!("{} {e}", param.location.label()))
        })?;
        inputs.params.insert(param.name.clone(), value);
    }
    if let Some(body) = &op.body {
        if request.body.is_empty() {
            if body.required {
                return Err(ApiError::new(
                    ErrorCode::MalformedJson,
                    "The request body is empty; this operation needs a JSON body.",
                ));
            }
            return Ok(inputs);
        }
        if let Some(ct) = request.header_value("Content-Type").filter(|ct| !is_json(ct)) {
            return Err(ApiError::new(
                ErrorCode::UnsupportedMediaType,
                format!("The body must be sent as application/json, not {}.", ct.trim()),
            ));
        }
        let value: Value = serde_json::from_slice(&request.body).map_err(|e| {
            ApiError::new(ErrorCode::MalformedJson, format!("The body is not valid JSON: {e}."))
        })?;
        validator.check(&body.schema, &value, "").map_err(ApiError::validation)?;
        inputs.body = Some(value);
    }
    Ok(inputs)
}

/// Turns the text of a parameter into a JSON value of its schema's type.
fn parse_param(
    validator: &crate::validate::Validator<'static>,
    schema: &'static Value,
    raw: &[String],
    label: &str,
) -> Result<Value, ApiError> {
    let bad = |m: String| ApiError::new(ErrorCode::InvalidParameter, m);
    let scalar = |schema: &Value, text: &str| -> Result<Value, ApiError> {
        if text.is_empty() {
            return Err(bad(format!("{label} is empty; give a value or leave it out.")));
        }
        match schema.get("type").and_then(Value::as_str) {
            Some("integer") => text
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| bad(format!("{label} must be a 64-bit integer; got {text:?}."))),
            Some("number") => text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number)
                .ok_or_else(|| bad(format!("{label} must be a number; got {text:?}."))),
            Some("boolean") => match text {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err(bad(format!("{label} must be true or false; got {text:?}."))),
            },
            _ => Ok(Value::String(text.to_owned())),
        }
    };
    let schema = validator.resolve(schema).map_err(bad)?;
    if schema.get("type").and_then(Value::as_str) == Some("array") {
        let items = match schema.get("items") {
            Some(items) => validator.resolve(items).map_err(bad)?,
            None => return Ok(Value::Array(raw.iter().map(|r| Value::String(r.clone())).collect())),
        };
        return raw.iter().map(|r| scalar(items, r)).collect::<Result<Vec<_>, _>>().map(Value::Array);
    }
    if raw.len() > 1 {
        return Err(bad(format!("{label} is given {} times; give it once.", raw.len())));
    }
    scalar(schema, &raw[0])
}

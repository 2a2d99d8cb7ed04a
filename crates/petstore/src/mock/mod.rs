//! The stateful Petstore mock: the generic mock of the embedded OpenAPI document ([`playground_mock`]),
//! with the Petstore's business rules on top. The generic mock routes each request and checks
//! it against the document; the rules (`handlers`: existence, unique names, stock and status
//! transitions) answer every operation from the Petstore's own store. Pure and synchronous.

mod handlers;
mod store;
mod table;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use self::handlers::Inputs;
pub use self::store::SNAPSHOT_VERSION;
use self::store::Store;
use playground_http::{Request, Response};
use playground_mock::{
    ApiMock, Changes, Failure, Handled, MockOptions, OversizedBody, Params, Record, Rules, SnapshotError,
    StatefulMock,
};

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
/// use petstore::Mock;
/// use playground_http::Request;
/// use serde_json::json;
///
/// let mut mock = Mock::seeded();
/// let created = mock.handle(&Request::new("POST", "/pets").json(&json!({"name": "Rex", "categoryId": 1})));
/// assert_eq!(created.status, 201);
/// let location = created.header_value("Location").unwrap().to_owned();
/// assert_eq!(mock.handle(&Request::new("GET", location)).json().unwrap()["name"], "Rex");
/// ```
#[derive(Debug, Clone)]
pub struct Mock {
    /// The generic mock of the Petstore document: routes, checks, options. Its own store stays
    /// empty, since the rules answer every operation.
    api: ApiMock,
    store: Store,
    revision: u64,
    /// The whole state was replaced since a storage last took the changes.
    replaced: bool,
}

/// Largest request body, in bytes (64 KiB).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The generic mock of the embedded document, read once; each [`Mock`] holds a copy, which
/// shares what was read.
fn petstore_api() -> &'static ApiMock {
    static API: OnceLock<ApiMock> = OnceLock::new();
    // The embedded document is fixed at build time and the tests read it, so a failure here is
    // a build defect, not a runtime condition.
    API.get_or_init(|| {
        ApiMock::from_openapi(Value::clone(&crate::document::petstore_value()))
            .unwrap_or_else(|e| panic!("the embedded document: {e}"))
            .with_body_limit(MAX_BODY_BYTES)
    })
}

impl Default for Mock {
    fn default() -> Self {
        Self { api: petstore_api().clone(), store: Store::default(), revision: 0, replaced: true }
    }
}

/// The Petstore's rules for one request, over its store.
struct PetstoreRules<'a> {
    store: &'a mut Store,
    /// The request may change the state (any method but GET).
    mutating: bool,
    /// A rule answered it with success: the state may have changed.
    changed: bool,
}

impl Rules for PetstoreRules<'_> {
    fn answer(
        &mut self,
        operation_id: &str,
        params: &Params,
        body: Option<&Value>,
    ) -> Option<Result<Response, Failure>> {
        let handler = handlers::handler(operation_id)?;
        let answer = handler(self.store, &Inputs { params, body });
        self.changed |= self.mutating && answer.is_ok();
        Some(answer.map_err(Failure::from))
    }
}

impl Mock {
    /// How a real exchange compares with the Petstore's description (see
    /// [`ApiMock::check_exchange`]). Changes nothing.
    #[must_use]
    pub fn check_exchange(
        &self,
        request: &playground_http::Request,
        response: &Response,
    ) -> playground_mock::Checked {
        self.api.check_exchange(request, response)
    }

    /// An empty store: ids start at 1.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A store filled with demo data: categories 1-3 (Dogs, Cats, Birds) and pets 1-6 with
    /// stock.
    #[must_use]
    pub fn seeded() -> Self {
        Self { store: Store::seeded(), ..Self::default() }
    }

    /// The same mock with options: a delay, a failure rate, validation off
    /// ([`MockOptions`]). The rules stay.
    #[must_use]
    pub fn with_options(mut self, options: MockOptions) -> Self {
        self.api.set_options(options);
        self
    }

    /// Answers one request. Never panics; every failure is an `Error` object.
    pub fn handle(&mut self, request: &Request) -> Response {
        self.handle_timed(request).response
    }

    /// Answers one request, with the delay and failure the options ask for.
    pub fn handle_timed(&mut self, request: &Request) -> Handled {
        self.handle_body(request, None)
    }

    /// Answers a request whose body was too large to read, as
    /// [`ApiMock::handle_oversized`] does.
    pub fn handle_oversized(&mut self, request: &Request, body: OversizedBody) -> Handled {
        self.handle_body(request, Some(body))
    }

    /// The largest request body the mock reads, in bytes.
    #[must_use]
    pub fn body_limit(&self) -> usize {
        self.api.body_limit()
    }

    fn handle_body(&mut self, request: &Request, oversized: Option<OversizedBody>) -> Handled {
        let mutating = !request.method.eq_ignore_ascii_case("GET");
        let mut rules = PetstoreRules { store: &mut self.store, mutating, changed: false };
        let handled = self.api.handle_with(request, oversized, &mut rules);
        if rules.changed {
            self.revision += 1;
        }
        handled
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
        self.replaced = true;
        self.revision += 1;
        Ok(())
    }

    /// The records changed since the last call: `meta` (the next ids), `category:ID`, `pet:ID`,
    /// `stock:ID`, `order:ID`; [`Changes::Everything`] after a restore or a reset, and for a
    /// new mock. A storage writes these instead of the whole state.
    pub fn take_changes(&mut self) -> Changes {
        let changes = self.store.take_changes();
        if std::mem::take(&mut self.replaced) { Changes::Everything } else { changes }
    }

    /// The whole state as records.
    #[must_use]
    pub fn records(&self) -> Vec<Record> {
        self.store.records()
    }

    /// Replaces the state with records a storage kept, in any order, with a snapshot's checks;
    /// on error the state is untouched. The storage holds them already, so they are not handed
    /// back as changes.
    ///
    /// # Errors
    /// As [`Mock::restore`], naming the record at fault.
    pub fn restore_records(&mut self, records: Vec<Record>) -> Result<(), SnapshotError> {
        self.store = Store::from_records(records)?;
        self.replaced = false;
        self.revision += 1;
        Ok(())
    }

    /// A mock restored from a snapshot.
    ///
    /// # Errors
    /// As [`Mock::restore`].
    pub fn from_snapshot(snapshot: &str) -> Result<Self, SnapshotError> {
        Ok(Self { store: Store::from_snapshot(snapshot)?, ..Self::default() })
    }

    /// Empties the store (`seed: true` fills it with the demo data again).
    pub fn reset(&mut self, seed: bool) {
        self.store = if seed { Store::seeded() } else { Store::default() };
        self.replaced = true;
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

impl StatefulMock for Mock {
    fn handle(&mut self, request: &Request) -> Response {
        Mock::handle(self, request)
    }

    fn handle_timed(&mut self, request: &Request) -> Handled {
        Mock::handle_timed(self, request)
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

    fn take_changes(&mut self) -> Changes {
        Mock::take_changes(self)
    }

    fn records(&self) -> Vec<Record> {
        Mock::records(self)
    }

    fn restore_records(&mut self, records: Vec<Record>) -> Result<(), SnapshotError> {
        Mock::restore_records(self, records)
    }
}

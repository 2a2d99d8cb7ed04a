//! What the server serves: the Petstore mock with its business rules (the default), or the mock
//! of any document given with `--spec`.

use petstore::Mock;
use playground_http::Request;
use playground_mock::SnapshotError;
use playground_mock::{ApiMock, Handled, OversizedBody};

use crate::state_db::Write;

/// One of the two mocks; both answer through [`Served::handle`].
#[derive(Debug, Clone)]
pub enum Served {
    /// The built-in Petstore API.
    Petstore(Box<Mock>),
    /// A mock of the document given with `--spec`.
    Api(Box<ApiMock>),
}

impl From<Mock> for Served {
    fn from(mock: Mock) -> Self {
        Served::Petstore(Box::new(mock))
    }
}

impl From<ApiMock> for Served {
    fn from(mock: ApiMock) -> Self {
        Served::Api(Box::new(mock))
    }
}

impl Served {
    /// Answers one request, with the delay or dropped connection the options ask for.
    pub fn handle(&mut self, request: &Request) -> Handled {
        match self {
            Served::Petstore(mock) => mock.handle_timed(request),
            Served::Api(mock) => mock.handle_timed(request),
        }
    }

    /// Answers a request whose body was too large to read (`request` comes without it): the
    /// mock refuses it as it refuses any body over its limit.
    pub fn handle_oversized(&mut self, request: &Request, body: OversizedBody) -> Handled {
        match self {
            Served::Petstore(mock) => mock.handle_oversized(request, body),
            Served::Api(mock) => mock.handle_oversized(request, body),
        }
    }

    /// Increases on every change of state.
    #[must_use]
    pub fn revision(&self) -> u64 {
        match self {
            Served::Petstore(mock) => mock.revision(),
            Served::Api(mock) => mock.revision(),
        }
    }

    /// The state as JSON, as the state file holds it.
    #[must_use]
    pub fn snapshot(&self) -> String {
        match self {
            Served::Petstore(mock) => mock.snapshot(),
            Served::Api(mock) => mock.snapshot(),
        }
    }

    /// Replaces the state with a saved one.
    ///
    /// # Errors
    /// When the text is not a state of this mock.
    pub fn restore(&mut self, snapshot: &str) -> Result<(), SnapshotError> {
        match self {
            Served::Petstore(mock) => mock.restore(snapshot),
            Served::Api(mock) => mock.restore(snapshot),
        }
    }

    /// What changed since the last call, as the state database takes it.
    pub fn take_write(&mut self) -> Option<Write> {
        match self {
            Served::Petstore(mock) => {
                let changes = mock.take_changes();
                Write::of(changes, || mock.records())
            }
            Served::Api(mock) => {
                let changes = mock.take_changes();
                Write::of(changes, || mock.records())
            }
        }
    }

    /// The whole state as records.
    #[must_use]
    pub fn records(&self) -> Vec<playground_mock::Record> {
        match self {
            Served::Petstore(mock) => mock.records(),
            Served::Api(mock) => mock.records(),
        }
    }

    /// Replaces the state with the records a database kept.
    ///
    /// # Errors
    /// When they are not a state of this mock.
    pub fn restore_records(&mut self, records: Vec<playground_mock::Record>) -> Result<(), SnapshotError> {
        match self {
            Served::Petstore(mock) => mock.restore_records(records),
            Served::Api(mock) => mock.restore_records(records),
        }
    }

    /// The largest body the mock reads: the Petstore's limit, or the generic mock's.
    #[must_use]
    pub fn body_limit(&self) -> usize {
        match self {
            Served::Petstore(mock) => mock.body_limit(),
            Served::Api(mock) => mock.body_limit(),
        }
    }

    /// What the state holds, in words, for the server's log.
    #[must_use]
    pub fn summary(&self) -> String {
        match self {
            Served::Petstore(mock) => {
                let counts = mock.counts();
                format!("{} pets, {} categories, {} orders", counts.pets, counts.categories, counts.orders)
            }
            Served::Api(mock) => {
                let resources = mock.resources();
                let items: usize = resources.iter().map(|r| r.count).sum();
                format!("{items} items in {} resources", resources.len())
            }
        }
    }
}

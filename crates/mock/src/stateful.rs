//! What every stateful mock offers the browser's saved mock and the server ([`StatefulMock`]),
//! and why a saved state was refused ([`SnapshotError`]).

use playground_http::{Request, Response};

use crate::Handled;
use crate::records::{Changes, Record};

/// Why a snapshot was refused. The mock's state is untouched when this is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// Not JSON, or not the snapshot shape.
    #[error("The saved state is not a mock snapshot: {0}")]
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
    /// Read, but the store it is kept in refused it (a file that cannot be written): the state
    /// is as it was.
    #[error("The state was not replaced: it could not be saved ({0}).")]
    NotSaved(String),
}

/// What the browser's saved mock and the server need of a mock, whichever API it mocks: the
/// Petstore's mock and [`ApiMock`] both are one.
pub trait StatefulMock {
    /// Answers one request.
    fn handle(&mut self, request: &Request) -> Response;
    /// Answers one request with the delay or network failure the mock's options ask for (none,
    /// unless the mock has such options).
    fn handle_timed(&mut self, request: &Request) -> Handled {
        Handled { response: self.handle(request), delay_ms: 0, network_error: false }
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
    /// The records changed since the last call ([`crate::records`]), so that a storage writes
    /// only those; [`Changes::Everything`] when the whole state was replaced.
    fn take_changes(&mut self) -> Changes;
    /// The whole state as records.
    fn records(&self) -> Vec<Record>;
    /// Replaces the state with the records a storage kept; on error the state is untouched.
    ///
    /// # Errors
    /// When the records are not a state of this mock.
    fn restore_records(&mut self, records: Vec<Record>) -> Result<(), SnapshotError>;
}

//! The stateful Petstore mock: `(method, path) -> handler(&mut Store, &Request)`, pure and
//! synchronous. Routes, parameters and body schemas come from the embedded OpenAPI document.

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

/// How many of each thing the mock holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
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
#[derive(Debug, Clone, Default)]
pub struct Mock {
    revision: u64,
}

impl Mock {
    /// An empty store: ids start at 1.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A store filled with demo data (categories, pets, stock).
    #[must_use]
    pub fn seeded() -> Self {
        Self::default()
    }

    /// Answers one request. Never panics; every failure is an `Error` object.
    pub fn handle(&mut self, request: &Request) -> Response {
        let _ = request;
        Response { status: 501, headers: Vec::new(), body: Vec::new() }
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
        Counts::default()
    }

    /// The whole state as versioned JSON.
    #[must_use]
    pub fn snapshot(&self) -> String {
        String::new()
    }

    /// Replaces the state with a snapshot; on error the current state is untouched.
    ///
    /// # Errors
    /// [`SnapshotError`] when the text is not a snapshot, has another version, or breaks an
    /// invariant.
    pub fn restore(&mut self, snapshot: &str) -> Result<(), SnapshotError> {
        let _ = snapshot;
        Ok(())
    }

    /// A mock restored from a snapshot.
    ///
    /// # Errors
    /// As [`Mock::restore`].
    pub fn from_snapshot(snapshot: &str) -> Result<Self, SnapshotError> {
        let mut mock = Self::new();
        mock.restore(snapshot)?;
        Ok(mock)
    }

    /// Empties the store (`seed: true` fills it with the demo data again).
    pub fn reset(&mut self, seed: bool) {
        *self = if seed { Self::seeded() } else { Self::new() };
    }
}

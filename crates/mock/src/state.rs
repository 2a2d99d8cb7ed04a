//! An [`ApiMock`]'s state as a whole: its revision, snapshots (export and import), reset, and
//! the records a storage keeps ([`crate::records`]); and the [`StatefulMock`] it is.

use std::sync::Arc;

use playground_http::{Request, Response};

use crate::records::{Changes, Record};
use crate::store::Store;
use crate::{ApiMock, Handled, SnapshotError, StatefulMock};

impl ApiMock {
    /// Increases on every change of state.
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The state as versioned JSON.
    #[must_use]
    pub fn snapshot(&self) -> String {
        self.store.snapshot(&self.api)
    }

    /// Replaces the state with a snapshot of a mock of the same document; on error the state
    /// is untouched.
    ///
    /// # Errors
    /// When the text is not a snapshot, has another version, is of another document or holds
    /// more than the limits.
    pub fn restore(&mut self, snapshot: &str) -> Result<(), SnapshotError> {
        self.store = Store::from_snapshot(snapshot, &self.api, self.known_collection())?;
        self.replaced = true;
        self.revision += 1;
        Ok(())
    }

    /// Empties the state.
    pub fn reset(&mut self) {
        self.store = Store::default();
        self.replaced = true;
        self.revision += 1;
    }

    /// The records changed since the last call (see [`records`]); [`Changes::Everything`]
    /// after a restore or a reset, and for a new mock.
    pub fn take_changes(&mut self) -> Changes {
        let changes = self.store.take_changes(&self.api);
        if std::mem::take(&mut self.replaced) { Changes::Everything } else { changes }
    }

    /// The whole state as records: the counters (`meta`), each item, each deleted path.
    #[must_use]
    pub fn records(&self) -> Vec<Record> {
        self.store.records(&self.api)
    }

    /// Replaces the state with records a storage kept (as [`ApiMock::records`] and
    /// [`ApiMock::take_changes`] gave them, in any order); on error the state is untouched.
    /// The storage holds them already, so they are not handed back as changes.
    ///
    /// # Errors
    /// As [`ApiMock::restore`], naming the record at fault.
    pub fn restore_records(&mut self, records: Vec<Record>) -> Result<(), SnapshotError> {
        self.store = Store::from_records(records, &self.api, self.known_collection())?;
        self.replaced = false;
        self.revision += 1;
        Ok(())
    }

    /// Whether a collection template belongs to the document (a saved state names only those).
    fn known_collection(&self) -> impl Fn(&str) -> bool + use<> {
        let resources = Arc::clone(&self.resources);
        move |collection| resources.iter().any(|r| r.collection == collection)
    }
}

impl StatefulMock for ApiMock {
    fn handle(&mut self, request: &Request) -> Response {
        ApiMock::handle(self, request)
    }

    fn handle_timed(&mut self, request: &Request) -> Handled {
        ApiMock::handle_timed(self, request)
    }

    fn revision(&self) -> u64 {
        ApiMock::revision(self)
    }

    fn snapshot(&self) -> String {
        ApiMock::snapshot(self)
    }

    fn restore(&mut self, snapshot: &str) -> Result<(), SnapshotError> {
        ApiMock::restore(self, snapshot)
    }

    /// Empties the state (an API mock has no demo data).
    fn reset(&mut self, _seed: bool) {
        ApiMock::reset(self);
    }

    fn take_changes(&mut self) -> Changes {
        ApiMock::take_changes(self)
    }

    fn records(&self) -> Vec<Record> {
        ApiMock::records(self)
    }

    fn restore_records(&mut self, records: Vec<Record>) -> Result<(), SnapshotError> {
        ApiMock::restore_records(self, records)
    }
}

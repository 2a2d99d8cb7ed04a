//! A mock's state as records: one keyed JSON text per stored thing (an item, a deleted path,
//! the counters), so that a storage writes what a change touched rather than the whole state.
//!
//! Every stateful mock tracks the keys its changes touch; [`Changes`] hands them over with
//! their new values, and `restore_records` reads a whole set back, with the same checks as a
//! snapshot. The JSON snapshot stays the format of exports and imports.

/// One record: its key and its JSON text.
pub type Record = (String, String);

/// What changed since the storage last asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Changes {
    /// These records: each key with its new text, or `None` when the record is gone. Empty
    /// when nothing changed.
    Records(Vec<(String, Option<String>)>),
    /// The whole state was replaced (a restore, a reset, a fresh mock): the storage replaces
    /// every record it holds with `records()`.
    Everything,
}

impl Changes {
    /// Whether nothing changed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        matches!(self, Self::Records(records) if records.is_empty())
    }
}

/// The key of the record that holds a mock's counters and format version.
pub const META_KEY: &str = "meta";

/// The JSON text of a record. Serializing a `serde_json::Value` or one of the mocks' records
/// cannot fail, so an empty text would only mean a defect.
pub fn text_of(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

//! The state of a generic mock: for each resource (by its collection template) and scope (the
//! values of the collection's own path parameters), its items by id in the order they were
//! created; the counter each resource's next id comes from; and the paths outside any resource
//! that a DELETE removed.

use std::collections::{BTreeMap, BTreeSet};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::SnapshotError;

/// The version of the snapshots this mock writes and reads.
pub const GENERIC_SNAPSHOT_VERSION: u64 = 1;

/// The most items the mock holds over all resources.
pub const MAX_ITEMS: usize = 10_000;

/// The most bytes of JSON the stored items may take together (8 MiB).
pub const MAX_STORED_BYTES: usize = 8 * 1024 * 1024;

/// The most deleted paths outside resources the mock remembers.
pub const MAX_DELETED_PATHS: usize = 10_000;

/// The items of one resource in one scope.
pub(crate) type Items = IndexMap<String, Value>;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Store {
    /// Collection template → scope → id → item.
    pub resources: BTreeMap<String, BTreeMap<String, Items>>,
    /// Collection template → the last number handed out.
    pub counters: BTreeMap<String, u64>,
    /// Paths outside any resource that a DELETE removed (`/sessions/current`): they and the
    /// paths under them answer 404 until a PUT puts them back.
    pub deleted: BTreeSet<String>,
    /// JSON bytes of all items (kept, not saved).
    #[serde(skip)]
    pub bytes: usize,
    #[serde(skip)]
    pub count: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Snapshot {
    version: u64,
    kind: String,
    /// The document's title and version, so that a state is not loaded into another API.
    api: String,
    resources: BTreeMap<String, BTreeMap<String, Items>>,
    counters: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    deleted: BTreeSet<String>,
}

/// The size of an item as stored.
pub(crate) fn size_of(item: &Value) -> usize {
    serde_json::to_vec(item).map_or(0, |v| v.len())
}

impl Store {
    pub(crate) fn scope(&self, collection: &str, scope: &str) -> Option<&Items> {
        self.resources.get(collection)?.get(scope)
    }

    pub(crate) fn get(&self, collection: &str, scope: &str, id: &str) -> Option<&Value> {
        self.scope(collection, scope)?.get(id)
    }

    /// Whether `more` bytes of one more item (or a replacement adding `more`) still fit.
    pub(crate) fn fits(&self, new_items: usize, more: usize) -> Result<(), String> {
        if self.count + new_items > MAX_ITEMS {
            return Err(format!("The mock holds {MAX_ITEMS} items, its limit; delete some or reset it."));
        }
        if self.bytes + more > MAX_STORED_BYTES {
            return Err(format!(
                "The mock's items take {} bytes; this one would pass the limit of {MAX_STORED_BYTES}.",
                self.bytes
            ));
        }
        Ok(())
    }

    /// Stores an item (new or replacing one with the same id).
    pub(crate) fn put(&mut self, collection: &str, scope: &str, id: String, item: Value) {
        let size = size_of(&item);
        let items =
            self.resources.entry(collection.to_owned()).or_default().entry(scope.to_owned()).or_default();
        match items.insert(id, item) {
            Some(old) => self.bytes = self.bytes.saturating_sub(size_of(&old)) + size,
            None => {
                self.bytes += size;
                self.count += 1;
            }
        }
    }

    pub(crate) fn remove(&mut self, collection: &str, scope: &str, id: &str) -> Option<Value> {
        let scopes = self.resources.get_mut(collection)?;
        let items = scopes.get_mut(scope)?;
        let old = items.shift_remove(id)?;
        if items.is_empty() {
            scopes.remove(scope);
        }
        self.bytes = self.bytes.saturating_sub(size_of(&old));
        self.count -= 1;
        Some(old)
    }

    /// The deleted path that `path` is or sits under, if any.
    pub(crate) fn deleted_at(&self, path: &str) -> Option<&str> {
        if self.deleted.is_empty() {
            return None;
        }
        std::iter::once(path)
            .chain(path.rmatch_indices('/').map(|(at, _)| &path[..at]))
            .find_map(|p| self.deleted.get(p).map(String::as_str))
    }

    /// The next number of a resource's counter.
    pub(crate) fn next_number(&mut self, collection: &str) -> u64 {
        let counter = self.counters.entry(collection.to_owned()).or_insert(0);
        *counter = counter.saturating_add(1);
        *counter
    }

    pub(crate) fn snapshot(&self, api: &str) -> String {
        let snapshot = Snapshot {
            version: GENERIC_SNAPSHOT_VERSION,
            kind: "api-mock".to_owned(),
            api: api.to_owned(),
            resources: self.resources.clone(),
            counters: self.counters.clone(),
            deleted: self.deleted.clone(),
        };
        serde_json::to_string(&snapshot).unwrap_or_default()
    }

    /// Reads a snapshot of the mock of `api`; `known` says whether a collection template
    /// belongs to the document.
    pub(crate) fn from_snapshot(
        text: &str,
        api: &str,
        known: impl Fn(&str) -> bool,
    ) -> Result<Self, SnapshotError> {
        let value: Value = serde_json::from_str(text).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        let version = value.get("version").and_then(Value::as_u64);
        if let Some(found) = version.filter(|v| *v != GENERIC_SNAPSHOT_VERSION) {
            return Err(SnapshotError::UnsupportedVersion { found, expected: GENERIC_SNAPSHOT_VERSION });
        }
        let snapshot: Snapshot =
            serde_json::from_value(value).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        if snapshot.kind != "api-mock" {
            return Err(SnapshotError::Malformed(format!(
                "a snapshot of kind {:?}, not an API mock",
                snapshot.kind
            )));
        }
        if snapshot.api != api {
            return Err(SnapshotError::Inconsistent(format!(
                "the state is of {:?}, and this mock is of {api:?}",
                snapshot.api
            )));
        }
        if snapshot.deleted.len() > MAX_DELETED_PATHS {
            return Err(SnapshotError::Inconsistent(format!(
                "{} deleted paths; the mock remembers at most {MAX_DELETED_PATHS}",
                snapshot.deleted.len()
            )));
        }
        let mut store = Store { counters: snapshot.counters, deleted: snapshot.deleted, ..Store::default() };
        for (collection, scopes) in snapshot.resources {
            if !known(&collection) {
                return Err(SnapshotError::Inconsistent(format!(
                    "{collection} is not a collection of this API"
                )));
            }
            for (scope, items) in scopes {
                for (id, item) in items {
                    store.fits(1, size_of(&item)).map_err(SnapshotError::Inconsistent)?;
                    store.put(&collection, &scope, id, item);
                }
            }
        }
        Ok(store)
    }
}

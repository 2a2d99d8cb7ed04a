//! The state of a generic mock: for each resource (by its collection template) and scope (the
//! values of the collection's own path parameters), its items by id in the order they were
//! created; the counter each resource's next id comes from; and the paths outside any resource
//! that a DELETE removed.

use playground_openapi::json::Key;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::SnapshotError;
use crate::records::{Changes, META_KEY, Record, text_of};

/// The version of the snapshots this mock writes and reads.
pub const GENERIC_SNAPSHOT_VERSION: u64 = 1;

/// The most items the mock holds over all resources.
pub const MAX_ITEMS: usize = 100_000;

/// The most bytes of JSON the stored items may take together (64 MiB).
pub const MAX_STORED_BYTES: usize = 64 * 1024 * 1024;

/// The most deleted paths outside resources the mock remembers.
pub const MAX_DELETED_PATHS: usize = 10_000;

/// The items of one resource in one scope.
pub(crate) type Items = IndexMap<String, Value>;

#[derive(Debug, Clone, Default)]
pub(crate) struct Store {
    /// Collection template → scope → id → item.
    pub resources: BTreeMap<String, BTreeMap<String, Items>>,
    /// Collection template → the last number handed out.
    counters: BTreeMap<String, u64>,
    /// Paths outside any resource that a DELETE removed (`/sessions/current`): they and the
    /// paths under them answer 404 until a PUT puts them back.
    deleted: BTreeSet<String>,
    /// JSON bytes of all items (kept, not saved).
    pub bytes: usize,
    pub count: usize,
    /// Each item's place in creation order (its record carries it, since a storage of records
    /// has no order of its own), and the next place.
    places: HashMap<ItemKey, u64>,
    next_place: u64,
    /// The records changed since the storage last took them; `None` until a storage asks (a
    /// mock kept in memory only notes nothing).
    dirty: Option<BTreeSet<Dirty>>,
    counters_dirty: bool,
}

/// Where an item is stored: collection template, scope, id.
type ItemKey = (String, String, String);

/// A record a change touched.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Dirty {
    Item(ItemKey),
    Deleted(String),
}

const ITEM_PREFIX: &str = "item:";
const DELETED_PREFIX: &str = "deleted:";

/// The record of the counters and what the state belongs to.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Meta {
    version: u64,
    kind: String,
    api: String,
    counters: BTreeMap<String, u64>,
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
        let key = (collection.to_owned(), scope.to_owned(), id.clone());
        match items.insert(id, item) {
            Some(old) => self.bytes = self.bytes.saturating_sub(size_of(&old)) + size,
            None => {
                self.bytes += size;
                self.count += 1;
                self.places.insert(key.clone(), self.next_place);
                self.next_place += 1;
            }
        }
        self.note(Dirty::Item(key));
    }

    fn note(&mut self, dirty: Dirty) {
        if let Some(noted) = &mut self.dirty {
            noted.insert(dirty);
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
        let key = (collection.to_owned(), scope.to_owned(), id.to_owned());
        self.places.remove(&key);
        self.note(Dirty::Item(key));
        Some(old)
    }

    /// Whether any path outside the resources was deleted.
    pub(crate) fn has_deleted(&self) -> bool {
        !self.deleted.is_empty()
    }

    /// Whether `path` itself was deleted.
    pub(crate) fn is_deleted(&self, path: &str) -> bool {
        self.deleted.contains(path)
    }

    /// Remembers a deleted path, up to [`MAX_DELETED_PATHS`]; whether it was new.
    pub(crate) fn mark_deleted(&mut self, path: String) -> bool {
        if self.deleted.len() >= MAX_DELETED_PATHS || self.deleted.contains(&path) {
            return false;
        }
        self.note(Dirty::Deleted(path.clone()));
        self.deleted.insert(path)
    }

    /// Puts a deleted path back; whether it was deleted.
    pub(crate) fn revive(&mut self, path: &str) -> bool {
        let revived = self.deleted.remove(path);
        if revived {
            self.note(Dirty::Deleted(path.to_owned()));
        }
        revived
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
        self.counters_dirty = true;
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
        check_version(value.key("version").and_then(Value::as_u64))?;
        let snapshot: Snapshot =
            serde_json::from_value(value).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        check_owner(&snapshot.kind, &snapshot.api, api)?;
        let items = snapshot.resources.into_iter().flat_map(|(collection, scopes)| {
            scopes.into_iter().flat_map(move |(scope, items)| {
                let collection = collection.clone();
                items.into_iter().map(move |(id, item)| ((collection.clone(), scope.clone(), id), item))
            })
        });
        Self::from_parts(snapshot.counters, snapshot.deleted, items, known)
    }

    /// A store of these counters, deleted paths and items (in creation order), within the
    /// limits and of known collections only.
    fn from_parts(
        counters: BTreeMap<String, u64>,
        deleted: BTreeSet<String>,
        items: impl Iterator<Item = (ItemKey, Value)>,
        known: impl Fn(&str) -> bool,
    ) -> Result<Self, SnapshotError> {
        if deleted.len() > MAX_DELETED_PATHS {
            return Err(SnapshotError::Inconsistent(format!(
                "{} deleted paths; the mock remembers at most {MAX_DELETED_PATHS}",
                deleted.len()
            )));
        }
        let mut store = Store { counters, deleted, ..Store::default() };
        for ((collection, scope, id), item) in items {
            if !known(&collection) {
                return Err(SnapshotError::Inconsistent(format!(
                    "{collection} is not a collection of this API"
                )));
            }
            if store.get(&collection, &scope, &id).is_some() {
                return Err(SnapshotError::Inconsistent(format!("{collection} holds {id:?} twice")));
            }
            store.fits(1, size_of(&item)).map_err(SnapshotError::Inconsistent)?;
            store.put(&collection, &scope, id, item);
        }
        Ok(store)
    }

    /// The whole state as records (see [`crate::records`]).
    pub(crate) fn records(&self, api: &str) -> Vec<Record> {
        let mut records = Vec::with_capacity(self.count + self.deleted.len() + 1);
        records.push((META_KEY.to_owned(), self.meta_text(api)));
        for path in &self.deleted {
            records.push((deleted_key(path), "true".to_owned()));
        }
        for (collection, scopes) in &self.resources {
            for (scope, items) in scopes {
                for (id, item) in items {
                    let key = (collection.clone(), scope.clone(), id.clone());
                    let text = self.item_text(&key, item);
                    records.push((item_key(&key), text));
                }
            }
        }
        records
    }

    /// The records changed since the last call, with their new texts.
    pub(crate) fn take_changes(&mut self, api: &str) -> Changes {
        let mut changes = Vec::with_capacity(self.dirty.as_ref().map_or(0, BTreeSet::len) + 1);
        if std::mem::take(&mut self.counters_dirty) {
            changes.push((META_KEY.to_owned(), Some(self.meta_text(api))));
        }
        for dirty in self.dirty.replace(BTreeSet::new()).unwrap_or_default() {
            changes.push(match dirty {
                Dirty::Item(key) => {
                    let text = self.get(&key.0, &key.1, &key.2).map(|item| self.item_text(&key, item));
                    (item_key(&key), text)
                }
                Dirty::Deleted(path) => {
                    let text = self.deleted.contains(&path).then(|| "true".to_owned());
                    (deleted_key(&path), text)
                }
            });
        }
        Changes::Records(changes)
    }

    /// Reads the records of the mock of `api`, as [`Store::records`] writes them.
    pub(crate) fn from_records(
        records: Vec<Record>,
        api: &str,
        known: impl Fn(&str) -> bool,
    ) -> Result<Self, SnapshotError> {
        let malformed =
            |key: &str, why: String| SnapshotError::Malformed(format!("the record {key:?}: {why}"));
        let mut meta = None;
        let mut deleted = BTreeSet::new();
        let mut items = Vec::new();
        for (key, text) in records {
            if key == META_KEY {
                let value: Value = serde_json::from_str(&text).map_err(|e| malformed(&key, e.to_string()))?;
                check_version(value.key("version").and_then(Value::as_u64))?;
                let read: Meta = serde_json::from_value(value).map_err(|e| malformed(&key, e.to_string()))?;
                check_owner(&read.kind, &read.api, api)?;
                meta = Some(read);
            } else if let Some(path) = key.strip_prefix(DELETED_PREFIX) {
                deleted.insert(path.to_owned());
            } else if let Some(at) = key.strip_prefix(ITEM_PREFIX) {
                let at: ItemKey = serde_json::from_str(at).map_err(|e| malformed(&key, e.to_string()))?;
                let (place, item): (u64, Value) =
                    serde_json::from_str(&text).map_err(|e| malformed(&key, e.to_string()))?;
                items.push((place, at, item));
            } else {
                return Err(malformed(&key, "not a record of an API mock".to_owned()));
            }
        }
        let Some(meta) = meta else {
            return Err(SnapshotError::Malformed("the records have no meta record".to_owned()));
        };
        items.sort_by_key(|(place, ..)| *place);
        // Keep the places the records hold: a record written later must sort after them.
        let places: HashMap<ItemKey, u64> = items.iter().map(|(place, at, _)| (at.clone(), *place)).collect();
        let next_place = items.last().map_or(0, |(place, ..)| place + 1);
        let mut store = Self::from_parts(
            meta.counters,
            deleted,
            items.into_iter().map(|(_, at, item)| (at, item)),
            known,
        )?;
        store.places = places;
        store.next_place = next_place;
        // The storage holds these: note changes from now on.
        store.dirty = Some(BTreeSet::new());
        store.counters_dirty = false;
        Ok(store)
    }

    fn meta_text(&self, api: &str) -> String {
        text_of(&Meta {
            version: GENERIC_SNAPSHOT_VERSION,
            kind: KIND.to_owned(),
            api: api.to_owned(),
            counters: self.counters.clone(),
        })
    }

    fn item_text(&self, key: &ItemKey, item: &Value) -> String {
        text_of(&(self.places.get(key).copied().unwrap_or(0), item))
    }
}

const KIND: &str = "api-mock";

fn item_key(key: &ItemKey) -> String {
    format!("{ITEM_PREFIX}{}", text_of(key))
}

fn deleted_key(path: &str) -> String {
    format!("{DELETED_PREFIX}{path}")
}

/// Refuses a snapshot or meta record of another version, naming it.
fn check_version(version: Option<u64>) -> Result<(), SnapshotError> {
    match version {
        Some(found) if found != GENERIC_SNAPSHOT_VERSION => {
            Err(SnapshotError::UnsupportedVersion { found, expected: GENERIC_SNAPSHOT_VERSION })
        }
        _ => Ok(()),
    }
}

/// Refuses a state of another kind of mock or of another API.
fn check_owner(kind: &str, of: &str, api: &str) -> Result<(), SnapshotError> {
    if kind != KIND {
        return Err(SnapshotError::Malformed(format!("a snapshot of kind {kind:?}, not an API mock")));
    }
    if of != api {
        return Err(SnapshotError::Inconsistent(format!(
            "the state is of {of:?}, and this mock is of {api:?}"
        )));
    }
    Ok(())
}

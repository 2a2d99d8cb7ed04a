//! `PersistentMock`: the core mock plus a key-value store (localStorage in the browser).
//!
//! Every change is saved under the key as `{"generation": N, "snapshot": "..."}`, and N alone
//! under `{key}:generation`. Before each request the mock compares that number with its own:
//! when another tab wrote a newer state, it loads it first, so a change is always applied to the
//! latest state and no tab silently overwrites another's work.

use petstore_core::{Mock, Request, Response, SnapshotError};
use serde::{Deserialize, Serialize};

/// Why the store could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// The quota is used up (`QuotaExceededError`).
    Full,
    /// No storage (disabled, sandboxed, private mode), with the browser's message.
    Unavailable(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Full => f.write_str("the browser's storage for this site is full"),
            StoreError::Unavailable(m) => write!(f, "the browser's storage is not available ({m})"),
        }
    }
}

/// A string key-value store; localStorage in the browser, a map in tests.
pub trait KeyValueStore {
    /// The value under `key`, if any.
    ///
    /// # Errors
    /// When the store cannot be read.
    fn get(&self, key: &str) -> Result<Option<String>, StoreError>;
    /// Writes `value` under `key`.
    ///
    /// # Errors
    /// [`StoreError::Full`] when the quota is used up.
    fn set(&self, key: &str, value: &str) -> Result<(), StoreError>;
}

/// The browser's `window.localStorage`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalStorage;

impl LocalStorage {
    fn storage() -> Result<web_sys::Storage, StoreError> {
        let window = web_sys::window().ok_or_else(|| StoreError::Unavailable("no window".into()))?;
        match window.local_storage() {
            Ok(Some(s)) => Ok(s),
            Ok(None) => Err(StoreError::Unavailable("localStorage is disabled".into())),
            Err(e) => Err(StoreError::Unavailable(js_message(&e))),
        }
    }
}

fn js_message(e: &wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    e.dyn_ref::<web_sys::js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

impl KeyValueStore for LocalStorage {
    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        Self::storage()?.get_item(key).map_err(|e| StoreError::Unavailable(js_message(&e)))
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StoreError> {
        Self::storage()?.set_item(key, value).map_err(|e| {
            use wasm_bindgen::JsCast;
            let name = e.dyn_ref::<web_sys::js_sys::Error>().map(|e| String::from(e.name())).unwrap_or_default();
            if name == "QuotaExceededError" { StoreError::Full } else { StoreError::Unavailable(js_message(&e)) }
        })
    }
}

/// An in-memory store shared by clones (two clones behave like two tabs on one origin), with an
/// optional size limit to act out a full quota.
#[derive(Debug, Clone, Default)]
pub struct MemoryStore {
    inner: std::rc::Rc<std::cell::RefCell<(std::collections::HashMap<String, String>, Option<usize>)>>,
}

impl MemoryStore {
    /// Refuses writes that would make the total size of the values exceed `bytes`.
    pub fn limit(&self, bytes: Option<usize>) {
        self.inner.borrow_mut().1 = bytes;
    }
}

impl KeyValueStore for MemoryStore {
    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self.inner.borrow().0.get(key).cloned())
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StoreError> {
        let mut inner = self.inner.borrow_mut();
        let (map, limit) = &mut *inner;
        let others: usize = map.iter().filter(|(k, _)| *k != key).map(|(_, v)| v.len()).sum();
        if limit.is_some_and(|l| others + value.len() > l) {
            return Err(StoreError::Full);
        }
        map.insert(key.to_owned(), value.to_owned());
        Ok(())
    }
}

#[derive(Serialize, Deserialize)]
struct Record {
    generation: u64,
    snapshot: String,
}

/// The mock with its state saved after every change and shared with other tabs.
pub struct PersistentMock {
    mock: Mock,
    storage: Option<(Box<dyn KeyValueStore>, String)>,
    seed: bool,
    generation: u64,
    save_problem: Option<String>,
}

impl std::fmt::Debug for PersistentMock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PersistentMock")
            .field("key", &self.key())
            .field("generation", &self.generation)
            .field("save_problem", &self.save_problem)
            .finish_non_exhaustive()
    }
}

impl PersistentMock {
    /// A mock that saves nothing.
    #[must_use]
    pub fn in_memory(seed: bool) -> Self {
        let mock = if seed { Mock::seeded() } else { Mock::new() };
        Self { mock, storage: None, seed, generation: 0, save_problem: None }
    }

    /// Opens the state saved under `key`, or starts one (seeded when `seed`) and saves it.
    /// The second value is a notice for people when the saved state could not be used: it was
    /// corrupt (kept under `{key}:corrupt`, the mock starts fresh) or storage is unavailable.
    pub fn open(storage: Box<dyn KeyValueStore>, key: &str, seed: bool) -> (Self, Option<String>) {
        let mut this = Self::in_memory(seed);
        let saved = storage.get(key);
        this.storage = Some((storage, key.to_owned()));
        let notice = match saved {
            Ok(None) => {
                this.save();
                None
            }
            Ok(Some(text)) => match read_record(&text) {
                Ok((generation, mock)) => {
                    this.mock = mock;
                    this.generation = generation;
                    None
                }
                Err(reason) => {
                    if let Some((s, key)) = &this.storage {
                        // Keep the unreadable state for inspection rather than losing it.
                        let _ = s.set(&format!("{key}:corrupt"), &text);
                    }
                    this.save();
                    Some(format!("The saved mock state could not be read ({reason}), so the mock started fresh."))
                }
            },
            Err(e) => {
                this.save_problem = Some(not_saving(&e));
                this.save_problem.clone()
            }
        };
        (this, notice)
    }

    /// Answers a request on the latest state of any tab, then saves if it changed anything.
    pub fn handle(&mut self, request: &Request) -> Response {
        self.sync();
        let before = self.mock.revision();
        let response = self.mock.handle(request);
        if self.mock.revision() != before {
            self.save();
        }
        response
    }

    /// Loads the saved state when another tab wrote a newer one; `true` when it did.
    pub fn sync(&mut self) -> bool {
        let Some((storage, key)) = &self.storage else { return false };
        let stored = storage.get(&generation_key(key)).ok().flatten().and_then(|g| g.parse::<u64>().ok());
        if stored.is_none_or(|g| g <= self.generation) {
            return false;
        }
        match storage.get(key).ok().flatten().map(|text| read_record(&text)) {
            Some(Ok((generation, mock))) => {
                self.mock = mock;
                self.generation = generation;
                true
            }
            _ => false,
        }
    }

    /// Empties the store, or fills it with the demo data again when opened with `seed`.
    pub fn reset(&mut self) {
        self.sync();
        self.mock.reset(self.seed);
        self.save();
    }

    /// Replaces the state with a snapshot and saves it.
    ///
    /// # Errors
    /// The snapshot's problem; the state is then untouched.
    pub fn restore(&mut self, snapshot: &str) -> Result<(), SnapshotError> {
        self.mock.restore(snapshot)?;
        self.save();
        Ok(())
    }

    /// The mock itself, for reads (counts, snapshot).
    #[must_use]
    pub fn mock(&self) -> &Mock {
        &self.mock
    }

    /// Why the last save failed, in words for people; `None` when the state is being saved.
    #[must_use]
    pub fn save_problem(&self) -> Option<&str> {
        self.save_problem.as_deref()
    }

    /// The storage key, when the state is persisted.
    #[must_use]
    pub fn key(&self) -> Option<&str> {
        self.storage.as_ref().map(|(_, k)| k.as_str())
    }

    fn save(&mut self) {
        let Some((storage, key)) = &self.storage else { return };
        let stored = storage.get(&generation_key(key)).ok().flatten().and_then(|g| g.parse::<u64>().ok());
        self.generation = self.generation.max(stored.unwrap_or(0)) + 1;
        let record = Record { generation: self.generation, snapshot: self.mock.snapshot() };
        let text = serde_json::to_string(&record).unwrap_or_default();
        let result =
            storage.set(key, &text).and_then(|()| storage.set(&generation_key(key), &self.generation.to_string()));
        self.save_problem = result.err().map(|e| not_saving(&e));
    }
}

fn generation_key(key: &str) -> String {
    format!("{key}:generation")
}

fn not_saving(e: &StoreError) -> String {
    let mut s = e.to_string();
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    format!("{s}, so the mock keeps its state in this tab only and is not saving it.")
}

fn read_record(text: &str) -> Result<(u64, Mock), String> {
    let record: Record = serde_json::from_str(text).map_err(|e| format!("not a saved mock state: {e}"))?;
    let mock = Mock::from_snapshot(&record.snapshot).map_err(|e| e.to_string())?;
    Ok((record.generation, mock))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn create(m: &mut PersistentMock, name: &str) -> u16 {
        m.handle(&Request::new("POST", "/pets").json(&json!({"name": name, "categoryId": 1}))).status
    }

    fn names(m: &mut PersistentMock) -> Vec<String> {
        let list = m.handle(&Request::new("GET", "/pets?limit=100")).json().unwrap();
        list.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_owned()).collect()
    }

    #[test]
    fn state_survives_a_new_instance_on_the_same_key() {
        let store = MemoryStore::default();
        let (mut a, notice) = PersistentMock::open(Box::new(store.clone()), "k", true);
        assert_eq!(notice, None);
        assert_eq!(create(&mut a, "Nemo"), 201);
        let (mut b, _) = PersistentMock::open(Box::new(store), "k", true);
        assert!(names(&mut b).contains(&"Nemo".to_owned()));
    }

    #[test]
    fn two_tabs_never_lose_each_others_changes() {
        let store = MemoryStore::default();
        let (mut a, _) = PersistentMock::open(Box::new(store.clone()), "k", false);
        let (mut b, _) = PersistentMock::open(Box::new(store.clone()), "k", false);
        assert_eq!(a.handle(&Request::new("POST", "/categories").json(&json!({"name": "Dogs"}))).status, 201);
        assert_eq!(create(&mut b, "From B"), 201, "B sees the category A created");
        assert_eq!(create(&mut a, "From A"), 201);
        assert_eq!(names(&mut b), ["From B", "From A"]);
        let (mut c, _) = PersistentMock::open(Box::new(store), "k", false);
        assert_eq!(names(&mut c), ["From B", "From A"]);
    }

    #[test]
    fn corrupt_storage_starts_fresh_keeps_a_copy_and_says_why() {
        let store = MemoryStore::default();
        store.set("k", "{not json").unwrap();
        store.set("k:generation", "5").unwrap();
        let (mut m, notice) = PersistentMock::open(Box::new(store.clone()), "k", true);
        let notice = notice.unwrap();
        assert!(notice.starts_with("The saved mock state could not be read (not a saved mock state:"), "{notice}");
        assert_eq!(names(&mut m).len(), 6, "fresh seeded state");
        assert_eq!(store.get("k:corrupt").unwrap().as_deref(), Some("{not json"));

        let other_version = serde_json::to_string(&json!({"generation": 1, "snapshot": "{\"version\": 7}"})).unwrap();
        store.set("k", &other_version).unwrap();
        let (_, notice) = PersistentMock::open(Box::new(store), "k", true);
        assert!(notice.unwrap().contains("has version 7"));
    }

    #[test]
    fn a_full_quota_keeps_the_state_in_memory_and_says_so_until_saving_works_again() {
        let store = MemoryStore::default();
        let (mut m, _) = PersistentMock::open(Box::new(store.clone()), "k", true);
        store.limit(Some(10));
        assert_eq!(create(&mut m, "Kept"), 201);
        assert_eq!(
            m.save_problem(),
            Some(
                "The browser's storage for this site is full, so the mock keeps its state in this tab only and is not saving it."
            )
        );
        assert!(names(&mut m).contains(&"Kept".to_owned()), "the change is kept in memory");
        store.limit(None);
        assert_eq!(create(&mut m, "Later"), 201);
        assert_eq!(m.save_problem(), None);
        let (mut again, _) = PersistentMock::open(Box::new(store), "k", true);
        assert!(names(&mut again).contains(&"Kept".to_owned()));
    }

    #[test]
    fn reset_and_restore_are_saved_and_a_bad_restore_changes_nothing() {
        let store = MemoryStore::default();
        let (mut m, _) = PersistentMock::open(Box::new(store.clone()), "k", true);
        create(&mut m, "Gone");
        let snapshot = m.mock().snapshot();
        m.reset();
        assert_eq!(names(&mut m).len(), 6);
        assert!(m.restore("{}").is_err());
        assert_eq!(names(&mut m).len(), 6);
        m.restore(&snapshot).unwrap();
        let (mut again, _) = PersistentMock::open(Box::new(store), "k", true);
        assert_eq!(names(&mut again).len(), 7);
    }
}

//! Where saved state lives: a small key-value interface that `localStorage` implements in the
//! browser and [`MemoryStore`] implements everywhere (host tests, a fake "other tab").

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Why the store refused a read or a write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The store is full (`QuotaExceededError` in the browser).
    #[error("the browser's storage for this site is full ({0})")]
    QuotaExceeded(String),
    /// The store cannot be used at all (disabled storage, a sandboxed frame, ...).
    #[error("the browser's storage cannot be used ({0})")]
    Unavailable(String),
}

/// A string key-value store shared by every tab of one origin.
pub trait KeyValueStore {
    /// The value under `key`, `None` when there is none.
    ///
    /// # Errors
    /// [`StoreError`] when the store cannot be read.
    fn get(&self, key: &str) -> Result<Option<String>, StoreError>;

    /// Writes `value` under `key`; on error the previous value is still there.
    ///
    /// # Errors
    /// [`StoreError::QuotaExceeded`] when the value does not fit.
    fn set(&self, key: &str, value: &str) -> Result<(), StoreError>;
}

/// An in-memory store. Clones share the same entries, like two tabs share `localStorage`.
/// An optional quota (in characters of keys plus values, as browsers count) makes writes fail
/// the way a full `localStorage` does.
#[derive(Debug, Clone, Default)]
pub struct MemoryStore {
    inner: Rc<RefCell<Memory>>,
}

#[derive(Debug, Default)]
struct Memory {
    entries: BTreeMap<String, String>,
    quota: Option<usize>,
}

impl MemoryStore {
    /// An empty store with no quota.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Limits the total size of keys plus values (`None`: no limit). Existing entries stay.
    pub fn set_quota(&self, quota: Option<usize>) {
        self.inner.borrow_mut().quota = quota;
    }

    /// Removes the value under `key`.
    pub fn remove(&self, key: &str) {
        self.inner.borrow_mut().entries.remove(key);
    }
}

impl KeyValueStore for MemoryStore {
    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self.inner.borrow().entries.get(key).cloned())
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StoreError> {
        let mut memory = self.inner.borrow_mut();
        if let Some(quota) = memory.quota {
            let others: usize = memory
                .entries
                .iter()
                .filter(|(k, _)| k.as_str() != key)
                .map(|(k, v)| k.chars().count() + v.chars().count())
                .sum();
            let needed = others + key.chars().count() + value.chars().count();
            if needed > quota {
                return Err(StoreError::QuotaExceeded(format!(
                    "{needed} characters needed, {quota} allowed"
                )));
            }
        }
        memory.entries.insert(key.to_owned(), value.to_owned());
        Ok(())
    }
}

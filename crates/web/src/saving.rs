//! [`Saving`]: a mock's records written to and read from a [`KeyValueStore`] in the layout of
//! [`crate::layout`]: each change appends one log entry and rewrites the small header, so a
//! write costs what the change touched, whatever the size of the state.

use playground_mock::StatefulMock;
use playground_mock::records::Record;

use crate::layout::GRACE_MS;
use crate::layout::{self, Header, MAX_HEADER_CHARS, MAX_VALUE_CHARS, Pending, Replaced};
use crate::store::{KeyValueStore, StorageError};
use crate::sync::{self, Local, Stored};

/// Where a mock is saved, and what this tab knows of what is stored there.
pub(crate) struct Saving {
    pub(crate) store: Box<dyn KeyValueStore>,
    pub(crate) key: String,
    pub(crate) local: Local,
    /// Names what this tab writes (`GENERATION.TAB`), so that tabs never write the same key.
    tab: String,
    /// The stored header our state is based on; `None` when storage holds no records layout
    /// we can build on (nothing, an earlier version's snapshot, something unreadable): the next
    /// write is then a base.
    chain: Option<Header>,
    /// The ids of the log entries `chain` names, oldest first.
    entries: Vec<String>,
    /// What changed since the last successful write.
    pending: Pending,
    /// After a compaction the store refused (a full store), the log size to reach before
    /// trying again, so a nearly full store is not sent the whole state at every write.
    retry_compaction_at: u64,
}

/// Milliseconds since 1970.
fn now_ms() -> u64 {
    #[cfg(target_arch = "wasm32")]
    return js_sys::Date::now() as u64;
    #[cfg(not(target_arch = "wasm32"))]
    return std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
}

/// What reading the stored state found.
pub(crate) struct Loaded {
    header: Header,
    entries: Vec<String>,
    /// The records, in key order.
    pub(crate) records: Vec<Record>,
}

impl Saving {
    pub(crate) fn new(store: Box<dyn KeyValueStore>, key: String, local: Local) -> Self {
        Self {
            store,
            key,
            local,
            tab: tab_id(),
            chain: None,
            entries: Vec::new(),
            pending: Pending::Everything,
            retry_compaction_at: 0,
        }
    }

    /// Reads the state a header names: the base, then each log entry from the header's last
    /// back to the base, replayed oldest first.
    pub(crate) fn read(&self, header: &Header) -> Result<Loaded, String> {
        let base_text = self.get_value(&layout::base_key(&self.key, &header.base), "base")?;
        let mut records = layout::decode_base(&base_text)?;
        drop(base_text);
        let mut chain = Vec::new();
        let mut next = header.last.clone();
        let mut above = header.generation.saturating_add(1);
        while let Some(id) = next {
            if chain.len() as u64 >= header.entries {
                return Err("The saved log is longer than its header says.".to_owned());
            }
            let text = self.get_value(&layout::entry_key(&self.key, &id), "log entry")?;
            let entry = layout::decode_entry(&text)?;
            if entry.base != header.base || entry.generation >= above {
                return Err(format!("The saved log entry {id} belongs to another state."));
            }
            above = entry.generation;
            next = entry.prev.clone();
            chain.push((id, entry.records));
        }
        if chain.len() as u64 != header.entries {
            return Err("The saved log is shorter than its header says.".to_owned());
        }
        let mut entries = Vec::with_capacity(chain.len());
        for (id, changed) in chain.into_iter().rev() {
            for (key, value) in changed {
                match value {
                    Some(text) => records.insert(key, text),
                    None => records.remove(&key),
                };
            }
            entries.push(id);
        }
        Ok(Loaded { header: header.clone(), entries, records: records.into_iter().collect() })
    }

    fn get_value(&self, key: &str, what: &str) -> Result<String, String> {
        let text = self
            .store
            .get(key)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("The saved {what} {key} is missing."))?;
        if text.len() > MAX_VALUE_CHARS {
            return Err(format!(
                "The saved {what} {key} holds {} characters, more than {MAX_VALUE_CHARS}.",
                text.len()
            ));
        }
        Ok(text)
    }

    /// Puts `mock` in the state `stored` holds (the key's value as read: `text`). Returns the
    /// generation, or why it cannot be read (the mock is then untouched).
    pub(crate) fn take<M: StatefulMock>(&mut self, mock: &mut M, stored: &Stored<'_>) -> Result<u64, String> {
        match stored {
            Stored::Records(header) => {
                let loaded = self.read(header)?;
                mock.restore_records(loaded.records).map_err(|e| e.to_string())?;
                self.chain = Some(loaded.header);
                self.entries = loaded.entries;
            }
            Stored::Snapshot(saved) => {
                mock.restore(saved.snapshot).map_err(|e| e.to_string())?;
                // Taken, not yet in the records layout: the first write is a base.
                let _ = mock.take_changes();
                self.chain = None;
                self.entries.clear();
            }
        }
        self.pending = Pending::default();
        Ok(stored.generation())
    }

    /// Storage holds nothing this tab can build on: the next write is a base.
    pub(crate) fn forget_chain(&mut self) {
        self.chain = None;
        self.entries.clear();
    }

    /// Drops the changes not yet written (they were undone).
    pub(crate) fn clear_pending(&mut self) {
        self.pending = Pending::default();
    }

    /// Removes what this tab wrote last when the header storage holds now does not name it
    /// (another tab's write replaced ours at the same moment).
    pub(crate) fn remove_lost_write(&self, lost: Option<&Header>) {
        let Some(lost) = lost else { return };
        let kept = self.chain.as_ref();
        let named = |id: &str| kept.is_some_and(|h| h.base == id) || self.entries.iter().any(|e| e == id);
        match &lost.last {
            Some(id) if !named(id) => self.remove(&layout::entry_key(&self.key, id)),
            None if !named(&lost.base) => self.remove(&layout::base_key(&self.key, &lost.base)),
            _ => {}
        }
    }

    /// The header our state is based on.
    pub(crate) fn chain(&self) -> Option<&Header> {
        self.chain.as_ref()
    }

    /// Writes the changes `mock` hands over (with any a refused write left) under the next
    /// generation: one log entry and the header, or a base when the whole state was replaced,
    /// storage holds no layout of ours, or the log has grown past half the base.
    pub(crate) fn save<M: StatefulMock>(&mut self, mock: &mut M) -> Result<(), StorageError> {
        self.pending.add(mock.take_changes());
        match self.write(mock, false) {
            // A full store: what a compaction left makes room at once.
            Err(_) if self.chain.as_ref().is_some_and(|h| h.replaced.is_some()) => self.write(mock, true),
            saved => saved,
        }
    }

    /// [`Saving::save`] once; `settle`: remove what the last compaction replaced even before
    /// [`GRACE_MS`].
    fn write<M: StatefulMock>(&mut self, mock: &M, settle: bool) -> Result<(), StorageError> {
        let generation = sync::next_generation(&self.local);
        let appendable = match (&self.chain, &self.pending) {
            (Some(header), Pending::Records(records)) => Some((header.clone(), records)),
            _ => None,
        };
        let Some((header, records)) = appendable else { return self.write_base(mock, generation) };
        let id = layout::id(generation, &self.tab);
        let entry = layout::encode_entry(generation, &header.base, header.last.as_deref(), records);
        let mut next = header.with_entry(generation, id.clone(), entry.len());
        let too_long = next.entries > layout::MAX_ENTRIES;
        if next.compaction_due() && (next.log_size >= self.retry_compaction_at || too_long) {
            match self.write_base(mock, generation) {
                Ok(()) => return Ok(()),
                // A log no reader would take: the change waits for room.
                Err(error) if too_long => return Err(error),
                // Still fits as a log entry: compaction waits until the log has grown by half
                // again.
                Err(_) => self.retry_compaction_at = next.log_size + next.log_size / 2,
            }
        }
        self.settle(&mut next, settle);
        self.store.set(&layout::entry_key(&self.key, &id), &entry)?;
        self.set_header(&next).inspect_err(|_| self.remove(&layout::entry_key(&self.key, &id)))?;
        self.entries.push(id);
        Ok(())
    }

    /// Writes the whole state as a new base, then the header that points at it; the header
    /// names the base and log entries it replaces, removed by a write [`GRACE_MS`] later.
    fn write_base<M: StatefulMock>(&mut self, mock: &M, generation: u64) -> Result<(), StorageError> {
        let id = layout::id(generation, &self.tab);
        let base = layout::encode_base(generation, &mock.records());
        let key = layout::base_key(&self.key, &id);
        let mut header = Header::of_base(generation, id, base.len());
        if let Some(mut old) = self.chain.clone() {
            // What an earlier compaction replaced goes now: the header names one replaced log.
            self.settle(&mut old, true);
            header.replaced = Some(Replaced { base: old.base, last: old.last, at: now_ms() });
        }
        self.store.set(&key, &base)?;
        drop(base);
        self.set_header(&header).inspect_err(|_| self.remove(&key))?;
        self.entries.clear();
        self.retry_compaction_at = 0;
        Ok(())
    }

    /// Removes the base and log entries a compaction replaced, when `header` names some and
    /// [`GRACE_MS`] have passed (or `now`), and clears the name in `header`, which the caller
    /// writes next.
    fn settle(&self, header: &mut Header, now: bool) {
        let Some(replaced) = &header.replaced else { return };
        if !now && now_ms().saturating_sub(replaced.at) < GRACE_MS {
            return;
        }
        let mut next = replaced.last.clone();
        let mut removed = 0;
        while let Some(id) = next.take() {
            let key = layout::entry_key(&self.key, &id);
            let entry = self.store.get(&key).ok().flatten().and_then(|t| layout::decode_entry(&t).ok());
            next = entry.filter(|e| e.base == replaced.base).and_then(|e| e.prev);
            self.remove(&key);
            removed += 1;
            if removed > layout::MAX_ENTRIES {
                break;
            }
        }
        self.remove(&layout::base_key(&self.key, &replaced.base));
        header.replaced = None;
    }

    /// Writes `header` as our latest write; on success nothing is pending any more.
    fn set_header(&mut self, header: &Header) -> Result<(), StorageError> {
        let text = header.encode();
        debug_assert!(text.len() <= MAX_HEADER_CHARS);
        self.store.set(&self.key, &text)?;
        self.chain = Some(header.clone());
        self.local =
            Local { generation: header.generation, seen: Some(text), wrote_seen: true, unsaved: false };
        self.pending = Pending::default();
        Ok(())
    }

    /// Removes a key no header names any more; a store that cannot remove keeps it.
    fn remove(&self, key: &str) {
        let _ = self.store.remove(key);
    }
}

/// A tab's id: short, and different for every mock opened (two tabs, or two mocks in one).
fn tab_id() -> String {
    #[cfg(target_arch = "wasm32")]
    let random = (js_sys::Math::random() * f64::from(u32::MAX)) as u64;
    #[cfg(not(target_arch = "wasm32"))]
    let random = {
        use std::sync::atomic::{AtomicU64, Ordering};
        static OPENED: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::from(d.subsec_nanos()));
        (nanos ^ OPENED.fetch_add(1, Ordering::Relaxed).wrapping_mul(0x9e37_79b9)) & 0xffff_ffff
    };
    format!("{random:08x}")
}

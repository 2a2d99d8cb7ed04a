//! How a mock's records sit in a key-value store, with no store and no mock: the header under
//! the mock's key, the base (every record, written when the whole state is replaced and at
//! compaction) and the log of change batches, each under a key of its own.
//!
//! ```text
//! KEY              {"format":"records/1","generation":G,"base":ID,"last":ID|null,"entries":N,..}
//! KEY/base/ID      {"generation":g,"records":{"meta":{..},"pet:1":{..},..}}
//! KEY/log/ID       {"generation":g,"base":ID,"prev":ID|null,"records":{"pet:7":{..},"pet:3":null}}
//! ```
//!
//! A write is one log entry (the records the change touched), then the header that points at
//! it: a write that stops between the two leaves the header on the previous entry, and the
//! orphan entry is never read. Each entry names the one before it, so the header's last entry
//! leads back through the whole log to the base. Ids are `GENERATION.TAB`: two tabs that write
//! at the same moment write different keys, and the header that stays names a whole chain. A
//! compaction's header names the base and log it replaced ([`Replaced`]) until the first write
//! [`GRACE_MS`] later removes them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use playground_mock::records::{Changes, Record};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The header's `format`.
pub const FORMAT: &str = "records/1";

/// The longest header read (a header is a few numbers and two ids).
pub const MAX_HEADER_CHARS: usize = 4 * 1024;
/// The longest base or log entry read (characters).
pub const MAX_VALUE_CHARS: usize = 256 * 1024 * 1024;
/// The most log entries a header may name; a write compacts before the log grows past it.
pub const MAX_ENTRIES: u64 = 20_000;
/// How long the base and log a compaction replaced are kept: long enough for a write another
/// tab made at the same moment, on that log, to arrive (Chromium hands `localStorage` writes to
/// other tabs within milliseconds) and still be read whole. The header names them
/// ([`Header::replaced`]) until a write after that removes them, whichever tab makes it.
pub const GRACE_MS: u64 = 1_000;

/// The log may grow to this many characters, however small the base, before a compaction.
pub const MIN_COMPACTION_CHARS: u64 = 32 * 1024;

/// What the mock's key holds: which base and which log entries make up the stored state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    /// [`FORMAT`].
    pub format: String,
    /// Counts the writes to this key over all tabs (see [`crate::sync`]).
    pub generation: u64,
    /// The id of the base.
    pub base: String,
    /// The id of the newest log entry, `None` when the log is empty.
    pub last: Option<String>,
    /// How many log entries lead from `last` back to the base.
    pub entries: u64,
    /// The characters of those entries.
    pub log_size: u64,
    /// The characters of the base.
    pub base_size: u64,
    /// The base and log the last compaction replaced, until a write removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<Replaced>,
}

/// A base and log a compaction replaced: kept a moment, for a tab that wrote on them at the
/// same moment (see [`GRACE_MS`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replaced {
    /// The replaced base's id.
    pub base: String,
    /// The id of the replaced log's newest entry (the others follow from it).
    pub last: Option<String>,
    /// When the compaction was written, in milliseconds since 1970.
    pub at: u64,
}

impl Header {
    /// The header of a base just written.
    #[must_use]
    pub fn of_base(generation: u64, base: String, base_size: usize) -> Self {
        Self {
            format: FORMAT.to_owned(),
            generation,
            base,
            last: None,
            entries: 0,
            log_size: 0,
            base_size: base_size as u64,
            replaced: None,
        }
    }

    /// This header with one more log entry.
    #[must_use]
    pub fn with_entry(&self, generation: u64, id: String, size: usize) -> Self {
        Self {
            generation,
            last: Some(id),
            entries: self.entries + 1,
            log_size: self.log_size + size as u64,
            ..self.clone()
        }
    }

    /// Whether a log this long should be folded into a new base: past half the base (so the
    /// log's writes pay for rewriting it), or at [`MAX_ENTRIES`].
    #[must_use]
    pub fn compaction_due(&self) -> bool {
        self.log_size > (self.base_size / 2).max(MIN_COMPACTION_CHARS) || self.entries >= MAX_ENTRIES
    }

    /// The stored text.
    #[must_use]
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a header. `Ok(None)`: the text is not a header at all (an older saved mock, say).
    ///
    /// # Errors
    /// A sentence when it is a header that cannot be used (another format, out of bounds).
    pub fn decode(text: &str) -> Result<Option<Self>, String> {
        if text.len() > MAX_HEADER_CHARS || !text.starts_with("{\"format\"") {
            return Ok(None);
        }
        let header: Self = serde_json::from_str(text)
            .map_err(|e| format!("The saved value is not a saved mock's header ({e})."))?;
        if header.format != FORMAT {
            return Err(format!(
                "The saved state has format {:?}; this mock reads {FORMAT:?}.",
                header.format
            ));
        }
        if header.entries > MAX_ENTRIES {
            return Err(format!(
                "The saved state names {} log entries, more than {MAX_ENTRIES}.",
                header.entries
            ));
        }
        Ok(Some(header))
    }
}

/// The key of a base.
#[must_use]
pub fn base_key(key: &str, id: &str) -> String {
    format!("{key}/base/{id}")
}

/// The key of a log entry.
#[must_use]
pub fn entry_key(key: &str, id: &str) -> String {
    format!("{key}/log/{id}")
}

/// The id of what a tab writes at a generation.
#[must_use]
pub fn id(generation: u64, tab: &str) -> String {
    format!("{generation}.{tab}")
}

/// Appends `"key":value` pairs, the values as the JSON text they are (`null` for `None`).
fn push_records<'a>(text: &mut String, records: impl Iterator<Item = (&'a str, Option<&'a str>)>) {
    text.push('{');
    for (i, (key, value)) in records.enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&serde_json::to_string(key).unwrap_or_default());
        text.push(':');
        text.push_str(value.unwrap_or("null"));
    }
    text.push('}');
}

/// The text of a base holding `records`.
#[must_use]
pub fn encode_base(generation: u64, records: &[Record]) -> String {
    let size: usize = records.iter().map(|(k, v)| k.len() + v.len() + 4).sum();
    let mut text = String::with_capacity(size + 48);
    let _ = write!(text, r#"{{"generation":{generation},"records":"#);
    push_records(&mut text, records.iter().map(|(k, v)| (k.as_str(), Some(v.as_str()))));
    text.push('}');
    text
}

/// A base as read: its `generation` is not needed (the header's counts).
#[derive(Deserialize)]
struct BaseWire<'a> {
    #[serde(borrow)]
    records: BTreeMap<String, &'a RawValue>,
}

/// Reads a base's records.
///
/// # Errors
/// A sentence when the text is not a base.
pub fn decode_base(text: &str) -> Result<BTreeMap<String, String>, String> {
    let base: BaseWire<'_> =
        serde_json::from_str(text).map_err(|e| format!("The saved base is not readable ({e})."))?;
    Ok(base.records.into_iter().map(|(k, v)| (k, v.get().to_owned())).collect())
}

/// One batch of changed records as a log entry holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The generation of the write.
    pub generation: u64,
    /// The base the log it belongs to starts from.
    pub base: String,
    /// The entry before it, `None` for the first after the base.
    pub prev: Option<String>,
    /// Each record's new text, `None` when it is gone.
    pub records: Vec<(String, Option<String>)>,
}

#[derive(Serialize)]
struct EntryHead<'a> {
    generation: u64,
    base: &'a str,
    prev: Option<&'a str>,
}

#[derive(Deserialize)]
struct EntryWire<'a> {
    generation: u64,
    base: String,
    prev: Option<String>,
    #[serde(borrow)]
    records: BTreeMap<String, Option<&'a RawValue>>,
}

/// The text of a log entry.
#[must_use]
pub fn encode_entry(
    generation: u64,
    base: &str,
    prev: Option<&str>,
    records: &BTreeMap<String, Option<String>>,
) -> String {
    let head = serde_json::to_string(&EntryHead { generation, base, prev }).unwrap_or_default();
    let mut text = String::with_capacity(head.len() + 64);
    text.push_str(head.trim_end_matches('}'));
    text.push_str(r#","records":"#);
    push_records(&mut text, records.iter().map(|(k, v)| (k.as_str(), v.as_deref())));
    text.push('}');
    text
}

/// Reads a log entry.
///
/// # Errors
/// A sentence when the text is not a log entry.
pub fn decode_entry(text: &str) -> Result<Entry, String> {
    let entry: EntryWire<'_> =
        serde_json::from_str(text).map_err(|e| format!("A saved log entry is not readable ({e})."))?;
    let records = entry.records.into_iter().map(|(k, v)| (k, v.map(|v| v.get().to_owned()))).collect();
    Ok(Entry { generation: entry.generation, base: entry.base, prev: entry.prev, records })
}

/// Changes made and not yet written (a write the store refused is tried again with the next).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    /// These records, each with its newest text (`None`: gone).
    Records(BTreeMap<String, Option<String>>),
    /// The whole state was replaced: the next write is a base.
    Everything,
}

impl Default for Pending {
    fn default() -> Self {
        Self::Records(BTreeMap::new())
    }
}

impl Pending {
    /// Adds the changes the mock handed over.
    pub fn add(&mut self, changes: Changes) {
        match (self, changes) {
            (Self::Everything, _) => {}
            (pending, Changes::Everything) => *pending = Self::Everything,
            (Self::Records(records), Changes::Records(changed)) => {
                records.extend(changed);
            }
        }
    }

    /// Whether nothing waits.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        matches!(self, Self::Records(records) if records.is_empty())
    }
}

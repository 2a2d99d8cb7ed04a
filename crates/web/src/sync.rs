//! The saved envelope and the decisions about it, with no browser and no mock: what to do with
//! what storage holds at start, and whether another tab's write replaces our state.
//!
//! Storage holds `{"generation": N, "snapshot": {..}}`. Every successful write stores the
//! generation it was based on plus one, so a reader can tell a write that saw its own latest
//! state (a higher generation) from one made at the same time on an older state (equal or
//! lower: the writer never saw ours).

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The mock's saved state as it sits in storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Saved<'a> {
    /// Counts the writes to this key over all tabs.
    pub generation: u64,
    /// The mock's snapshot (JSON text).
    pub snapshot: &'a str,
}

#[derive(Serialize, Deserialize)]
struct Envelope<'a> {
    generation: u64,
    #[serde(borrow)]
    snapshot: &'a RawValue,
}

impl<'a> Saved<'a> {
    /// The text to store. A snapshot that is not JSON (an empty one, say) is stored as a JSON
    /// string, which a later [`Saved::decode`] hands back for the mock to refuse.
    #[must_use]
    pub fn encode(&self) -> String {
        let raw = RawValue::from_string(self.snapshot.to_owned())
            .or_else(|_| RawValue::from_string(serde_json::to_string(self.snapshot).unwrap_or_default()));
        match raw {
            Ok(snapshot) => {
                serde_json::to_string(&Envelope { generation: self.generation, snapshot: &snapshot })
                    .unwrap_or_default()
            }
            Err(_) => format!(r#"{{"generation":{},"snapshot":null}}"#, self.generation),
        }
    }

    /// The text to store for a snapshot the mock itself wrote (`Mock::snapshot`: JSON by
    /// construction), the same as [`Saved::encode`] gives, without parsing the snapshot again
    /// to check it: a save follows every write.
    #[must_use]
    pub fn encode_own(&self) -> String {
        if self.snapshot.is_empty() {
            return self.encode();
        }
        // Sized once: a snapshot is the whole state, and a save follows every write.
        let mut text = String::with_capacity(self.snapshot.len() + 48);
        text.push_str(r#"{"generation":"#);
        text.push_str(&self.generation.to_string());
        text.push_str(r#","snapshot":"#);
        text.push_str(self.snapshot);
        text.push('}');
        text
    }

    /// Reads stored text back.
    ///
    /// # Errors
    /// A sentence saying why the text is not a saved mock.
    pub fn decode(text: &'a str) -> Result<Self, String> {
        let envelope: Envelope<'a> = serde_json::from_str(text)
            .map_err(|e| format!("The saved value is not a saved Petstore mock ({e})."))?;
        Ok(Self { generation: envelope.generation, snapshot: envelope.snapshot.get() })
    }
}

/// What storage held when a tab started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start<'a> {
    /// Nothing saved yet: start with the initial data and write nothing until a change.
    Empty,
    /// A saved mock to restore.
    Saved(Saved<'a>),
    /// Something that is not a saved mock: start fresh and replace it, saying why.
    Unreadable {
        /// A sentence for the user.
        reason: String,
    },
}

/// Classifies what storage held at start. A snapshot the mock then refuses is unreadable too;
/// the caller finds that out when it restores.
#[must_use]
pub fn start(stored: Option<&str>) -> Start<'_> {
    match stored {
        None => Start::Empty,
        Some(text) => match Saved::decode(text) {
            Ok(saved) => Start::Saved(saved),
            Err(reason) => Start::Unreadable { reason },
        },
    }
}

/// What a tab knows about storage: the generation its state is based on and the text it last
/// read or wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Local {
    /// Generation of the stored state ours is based on (0: nothing stored yet).
    pub generation: u64,
    /// The stored text as we last read or wrote it.
    pub seen: Option<String>,
    /// We wrote `seen` ourselves (so another write at the same or a lower generation was made
    /// without seeing our change).
    pub wrote_seen: bool,
    /// We changed the state since, and could not save it (a full store).
    pub unsaved: bool,
}

/// What to do with what storage holds now, before answering a request or on a `storage` event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sync<'a> {
    /// Storage holds what we last read or wrote, or nothing: keep our state.
    UpToDate,
    /// Another tab wrote: take its state.
    Adopt {
        /// What it wrote.
        saved: Saved<'a>,
        /// Taking it discards a change of ours that the other tab never saw (a write at the
        /// same moment, or a change we could not save): tell the user.
        discards_ours: bool,
    },
    /// Storage holds something that is not a saved mock: keep our state; the next change
    /// replaces it.
    Unreadable,
}

/// Compares storage with what this tab last saw. Storage is the shared truth: a different value
/// is always adopted, so tabs converge on the last write, and a write that could not have seen
/// our own latest change is reported rather than silently dropping it.
#[must_use]
pub fn sync<'a>(local: &Local, stored: Option<&'a str>) -> Sync<'a> {
    let Some(text) = stored else { return Sync::UpToDate };
    if local.seen.as_deref() == Some(text) {
        return Sync::UpToDate;
    }
    match Saved::decode(text) {
        Err(_) => Sync::Unreadable,
        Ok(saved) => {
            let raced = local.wrote_seen && saved.generation <= local.generation;
            Sync::Adopt { saved, discards_ours: raced || local.unsaved }
        }
    }
}

/// The generation the next write gets: one more than any we know of.
#[must_use]
pub fn next_generation(local: &Local) -> u64 {
    // Our own last write holds our generation: it is not parsed again (a save follows every
    // change, and the text is the whole state).
    let stored = if local.wrote_seen {
        local.generation
    } else {
        local.seen.as_deref().and_then(|t| Saved::decode(t).ok()).map_or(0, |s| s.generation)
    };
    local.generation.max(stored).saturating_add(1)
}

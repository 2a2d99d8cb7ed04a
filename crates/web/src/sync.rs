//! The saved state's header and the decisions about it, with no browser and no mock: what to do
//! with what storage holds at start, and whether another tab's write replaces our state.
//!
//! The mock's key holds a [`Header`] (the records layout of [`crate::layout`]), or, as saved by
//! earlier versions, the whole snapshot in an envelope, `{"generation": N, "snapshot": {..}}`
//! ([`Saved`], still read, and replaced by the records layout at the first write). Every
//! successful write stores the generation it was based on plus one, so a reader can tell a
//! write that saw its own latest state (a higher generation) from one made at the same time on
//! an older state (equal or lower: the writer never saw ours).

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

pub use crate::layout::Header;

/// A whole snapshot as earlier versions saved it.
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

    /// Reads stored text back.
    ///
    /// # Errors
    /// A sentence saying why the text is not a saved mock.
    pub fn decode(text: &'a str) -> Result<Self, String> {
        let envelope: Envelope<'a> =
            serde_json::from_str(text).map_err(|e| format!("The saved value is not a saved mock ({e})."))?;
        Ok(Self { generation: envelope.generation, snapshot: envelope.snapshot.get() })
    }
}

/// What the mock's key holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stored<'a> {
    /// The header of the records layout.
    Records(Header),
    /// A whole snapshot, as earlier versions saved it.
    Snapshot(Saved<'a>),
}

impl<'a> Stored<'a> {
    /// Reads what the mock's key holds.
    ///
    /// # Errors
    /// A sentence saying why the text is not a saved mock.
    pub fn decode(text: &'a str) -> Result<Self, String> {
        match Header::decode(text)? {
            Some(header) => Ok(Self::Records(header)),
            None => Saved::decode(text).map(Self::Snapshot),
        }
    }

    /// The generation of the write that stored it.
    #[must_use]
    pub fn generation(&self) -> u64 {
        match self {
            Self::Records(header) => header.generation,
            Self::Snapshot(saved) => saved.generation,
        }
    }
}

/// What storage held when a tab started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start<'a> {
    /// Nothing saved yet: start with the initial data and write nothing until a change.
    Empty,
    /// A saved mock to restore.
    Saved(Stored<'a>),
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
        Some(text) => match Stored::decode(text) {
            Ok(stored) => Start::Saved(stored),
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
        stored: Stored<'a>,
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
    match Stored::decode(text) {
        Err(_) => Sync::Unreadable,
        Ok(stored) => {
            let raced = local.wrote_seen && stored.generation() <= local.generation;
            Sync::Adopt { stored, discards_ours: raced || local.unsaved }
        }
    }
}

/// The generation the next write gets: one more than any we know of.
#[must_use]
pub fn next_generation(local: &Local) -> u64 {
    // Our own last write holds our generation: it is not parsed again.
    let stored = if local.wrote_seen {
        local.generation
    } else {
        local.seen.as_deref().and_then(|t| Stored::decode(t).ok()).map_or(0, |s| s.generation())
    };
    local.generation.max(stored).saturating_add(1)
}

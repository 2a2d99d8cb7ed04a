//! The index of a JSON document's root, built entry by entry as the text arrives.

use std::ops::Range;

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::catalog::{ItemSource, ItemsRead, PathItemRead};
use crate::document::indexed::{LISTED_ROOT_FIELDS, Parts};

/// Where the reading of the root is.
#[derive(Debug, Default)]
pub(super) enum Step {
    /// Before the root's `{`.
    #[default]
    Open,
    /// In the root: the next entry, after a `,` unless `first`, or the `}`.
    Root { first: bool },
    /// In `paths`, `webhooks` or `x-webhooks`: the next path item (where it is, and what the
    /// list reads of it).
    Items { field: Items, first: bool, items: IndexMap<String, Range<usize>>, read: ItemsRead },
    /// In `components`: the next kind.
    Components { first: bool },
    /// In a kind of components: the next entry.
    Kind { kind: String, first: bool, entries: IndexMap<String, Range<usize>> },
    /// The root was read whole.
    Done,
    /// The index cannot be built as the text arrives; it is read whole at the end.
    GaveUp,
}

/// The root fields whose entries are path items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Items {
    Paths,
    Webhooks,
    XWebhooks,
}

/// The index of the root, built entry by entry.
#[derive(Debug, Default)]
pub(super) struct Reader {
    pub(super) step: Step,
    /// Where the next entry starts.
    at: usize,
    /// No entry is tried again before the text is this long.
    retry_at: usize,
    parts: Parts,
    listed: Listed,
}

/// The path items and webhooks as the list reads them, each read once when it arrived (see
/// [`ItemsRead`]): the ones of [`Parts::paths`] and [`Parts::webhooks`].
#[derive(Debug, Default)]
pub(super) struct Listed {
    pub(super) paths: ItemsRead,
    pub(super) webhooks: Option<ItemsRead>,
}

/// A document's `paths` being read: the root fields read so far, where each path item read is,
/// and what the list reads of them.
pub(super) struct PathsSoFar<'a> {
    pub(super) root: &'a serde_json::Map<String, Value>,
    pub(super) items: &'a IndexMap<String, Range<usize>>,
    pub(super) read: &'a ItemsRead,
}

/// The value and end of a [`Try::Got`]; returns from the function otherwise.
macro_rules! attempt {
    ($try:expr) => {
        match $try {
            Try::Got(value, end) => (value, end),
            Try::Wait => return Try::Wait,
            Try::Bad => return Try::Bad,
        }
    };
}

/// What one try at an entry gave.
enum Try<T> {
    /// The entry, and the byte after it.
    Got(T, usize),
    /// It has not arrived whole.
    Wait,
    /// It is not what the index can read.
    Bad,
}

impl Reader {
    /// Reads every entry that has arrived whole.
    pub(super) fn advance(&mut self, text: &str) {
        if text.len() < self.retry_at || matches!(self.step, Step::Done | Step::GaveUp) {
            return;
        }
        loop {
            match self.step(text) {
                Try::Got((), end) => self.at = end,
                Try::Wait => {
                    // Try again once the text grew by a quarter of what this try read: an entry
                    // over many chunks is read a bounded number of times over.
                    self.retry_at = text.len() + (text.len() - self.at) / 4 + 1;
                    return;
                }
                Try::Bad => {
                    self.step = Step::GaveUp;
                    return;
                }
            }
            if matches!(self.step, Step::Done | Step::GaveUp) {
                return;
            }
        }
    }

    /// One step: an entry (or an opening or closing brace) from `self.at`.
    fn step(&mut self, text: &str) -> Try<()> {
        let at = skip_space(text, self.at);
        let Some(&byte) = text.as_bytes().get(at) else { return Try::Wait };
        if matches!(self.step, Step::Open) {
            if byte != b'{' {
                return Try::Bad;
            }
            self.step = Step::Root { first: true };
            return Try::Got((), at + 1);
        }
        let first = match &self.step {
            Step::Root { first }
            | Step::Items { first, .. }
            | Step::Components { first }
            | Step::Kind { first, .. } => *first,
            Step::Open | Step::Done | Step::GaveUp => return Try::Bad,
        };
        let at = match attempt!(next_entry(text, at, byte, first)) {
            (Some(at), _) => at,
            (None, end) => {
                self.close();
                return Try::Got((), end);
            }
        };
        let (key, at) = attempt!(key_at(text, at));
        match &mut self.step {
            Step::Root { .. } => self.root_entry(text, key, at),
            Step::Items { first, items, read, .. } => {
                // Its place and what the list reads of it, in one pass over its text; an item
                // the list cannot read is checked as a raw value, and the list says why.
                // Only an object is one (serde would take a list for a struct too).
                let object = text.as_bytes().get(at) == Some(&b'{');
                let read_at = if object { value_at::<PathItemRead>(text, at) } else { Try::Bad };
                let (range, end) = match read_at {
                    Try::Got(item, end) => {
                        read.add_read(&key, item);
                        (at..end, end)
                    }
                    Try::Wait => return Try::Wait,
                    Try::Bad => {
                        let (range, end) = attempt!(raw_at(text, at));
                        read.add(&key, ItemSource::Text(&text[range.clone()]));
                        (range, end)
                    }
                };
                items.insert(key, range);
                *first = false;
                Try::Got((), end)
            }
            Step::Kind { first, entries, .. } => {
                let (range, end) = attempt!(raw_at(text, at));
                entries.insert(key, range);
                *first = false;
                Try::Got((), end)
            }
            Step::Components { first } => {
                if text.as_bytes().get(at) == Some(&b'{') {
                    self.parts.has_components = true;
                    self.step = Step::Kind { kind: key, first: true, entries: IndexMap::new() };
                    return Try::Got((), at + 1);
                }
                // A kind that is not an object of named entries has none (a reference into
                // it would not resolve in the whole document either). Nothing changes before
                // the value has arrived whole: the entry is tried again from its start.
                let (_, end) = attempt!(raw_at(text, at));
                *first = false;
                self.parts.has_components = true;
                self.parts.components.insert(key, IndexMap::new());
                Try::Got((), end)
            }
            Step::Open | Step::Done | Step::GaveUp => Try::Bad,
        }
    }

    /// Closes the object being read (its `}` was read).
    fn close(&mut self) {
        self.step = match std::mem::take(&mut self.step) {
            Step::Root { .. } => Step::Done,
            Step::Items { field, items, read, .. } => {
                match field {
                    Items::Paths => {
                        self.parts.paths = Some(items);
                        self.listed.paths = read;
                    }
                    Items::Webhooks => {
                        self.parts.webhooks = Some(items);
                        self.listed.webhooks = Some(read);
                    }
                    Items::XWebhooks => {
                        if self.parts.webhooks.is_none() {
                            self.parts.webhooks = Some(items);
                            self.listed.webhooks = Some(read);
                        }
                    }
                }
                Step::Root { first: false }
            }
            Step::Components { .. } => Step::Root { first: false },
            Step::Kind { kind, entries, .. } => {
                self.parts.components.insert(kind, entries);
                Step::Components { first: false }
            }
            other @ (Step::Open | Step::Done | Step::GaveUp) => other,
        };
    }

    /// The root entry `key`, whose value starts at `at` (after the colon and white space).
    fn root_entry(&mut self, text: &str, key: String, at: usize) -> Try<()> {
        let object = text.as_bytes().get(at) == Some(&b'{');
        let field = match key.as_str() {
            "paths" => Some(Items::Paths),
            "webhooks" => Some(Items::Webhooks),
            "x-webhooks" => Some(Items::XWebhooks),
            _ => None,
        };
        if let Some(field) = field {
            // Redoc's `x-webhooks` is an extension: anything else there is no webhook.
            if !object && field == Items::XWebhooks {
                let (_, end) = attempt!(raw_at(text, at));
                self.step = Step::Root { first: false };
                return Try::Got((), end);
            }
            // Not an object: the whole reading gives the message.
            if !object {
                return Try::Bad;
            }
            let read = if field == Items::Paths { ItemsRead::paths() } else { ItemsRead::webhooks() };
            self.step = Step::Items { field, first: true, items: IndexMap::new(), read };
            return Try::Got((), at + 1);
        }
        if key == "components" {
            self.parts.has_components = false;
            if object {
                self.step = Step::Components { first: true };
                return Try::Got((), at + 1);
            }
            let (_, end) = attempt!(raw_at(text, at));
            self.step = Step::Root { first: false };
            return Try::Got((), end);
        }
        // Small values, parsed from their checked text (one reader of raw values here).
        let (range, end) = attempt!(raw_at(text, at));
        let Ok(value) = serde_json::from_str::<Value>(&text[range]) else { return Try::Bad };
        self.parts.root.insert(key, value);
        self.step = Step::Root { first: false };
        Try::Got((), end)
    }

    /// The index, when the list can be made from it: `paths` read, and the fields the list
    /// reads with it, or the whole root.
    pub(super) fn listable(&self) -> Option<(&Parts, &Listed)> {
        let ready = match self.step {
            Step::Done => true,
            Step::GaveUp => false,
            _ => {
                self.parts.paths.is_some()
                    && LISTED_ROOT_FIELDS.iter().all(|field| self.parts.root.contains_key(*field))
            }
        };
        ready.then_some((&self.parts, &self.listed))
    }

    /// While `paths` is read: what is read so far.
    pub(super) fn paths_so_far(&self) -> Option<PathsSoFar<'_>> {
        match &self.step {
            Step::Items { field: Items::Paths, items, read, .. } => {
                Some(PathsSoFar { root: &self.parts.root, items, read })
            }
            _ => None,
        }
    }

    /// The whole index, when the root was read whole and only white space follows it, and
    /// what the list reads of it.
    pub(super) fn into_parts(mut self, text: &str) -> Option<(Parts, Listed)> {
        self.retry_at = 0;
        self.advance(text);
        match self.step {
            Step::Done if skip_space(text, self.at) == text.len() => Some((self.parts, self.listed)),
            _ => None,
        }
    }
}

/// Where the next entry of an object starts (`at` is its first byte that is not white space,
/// `byte` that byte): after the `,` unless it is the `first`; `None` at the closing `}`.
fn next_entry(text: &str, at: usize, byte: u8, first: bool) -> Try<Option<usize>> {
    match byte {
        b'}' => Try::Got(None, at + 1),
        _ if first => Try::Got(Some(at), at),
        b',' => {
            let next = skip_space(text, at + 1);
            if next >= text.len() { Try::Wait } else { Try::Got(Some(next), next) }
        }
        _ => Try::Bad,
    }
}

/// A key and its colon from `at`: the key, and the first byte of the value.
fn key_at(text: &str, at: usize) -> Try<String> {
    if text.as_bytes().get(at).is_some_and(|b| *b != b'"') {
        return Try::Bad;
    }
    let (raw, end) = attempt!(raw_at(text, at));
    let Ok(key) = serde_json::from_str::<String>(&text[raw]) else { return Try::Bad };
    let colon = skip_space(text, end);
    match text.as_bytes().get(colon) {
        None => Try::Wait,
        Some(b':') => {
            let value = skip_space(text, colon + 1);
            if value >= text.len() { Try::Wait } else { Try::Got(key, value) }
        }
        Some(_) => Try::Bad,
    }
}

/// Where the value at `at` is, checked but not built.
fn raw_at(text: &str, at: usize) -> Try<Range<usize>> {
    let (raw, end) = attempt!(value_at::<&RawValue>(text, at));
    let start = raw.get().as_ptr() as usize - text.as_ptr() as usize;
    Try::Got(start..start + raw.get().len(), end)
}

/// The JSON value at `at`, and the byte after it. A value that ends where the text ends may
/// go on (a number), so it is waited for.
fn value_at<'t, T: Deserialize<'t>>(text: &'t str, at: usize) -> Try<T> {
    let Some(rest) = text.get(at..) else { return Try::Wait };
    // `from_str`, as the rest of the reader: one JSON reader in the app, not two.
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<T>();
    match values.next() {
        None => Try::Wait,
        Some(Ok(value)) => {
            let end = at + values.byte_offset();
            if end >= text.len() { Try::Wait } else { Try::Got(value, end) }
        }
        // A number cut after its `.`, `e` or sign is a syntax error, not the end of the text.
        Some(Err(e)) if e.is_eof() || text.ends_with(['.', 'e', 'E', '+', '-']) => Try::Wait,
        Some(Err(_)) => Try::Bad,
    }
}

/// The first byte at or after `at` that is not JSON white space.
fn skip_space(text: &str, at: usize) -> usize {
    let text = text.as_bytes();
    let mut at = at;
    while text.get(at).is_some_and(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t')) {
        at += 1;
    }
    at
}

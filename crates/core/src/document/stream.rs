//! Reading a document while it downloads: the bytes are taken chunk by chunk, the root's
//! entries are indexed as soon as each has arrived, and the list can be shown once the fields
//! it needs are in, long before the last byte for most documents.
//!
//! A JSON document is kept without the indentation of its lines (47% of GitHub's description
//! is white space, nearly all of it indentation). A raw line feed can only stand between
//! JSON's tokens, never inside a string, so the spaces and tabs that start a line are never
//! part of a value; the line feeds stay, so every error still names its line, and the
//! indentation removed from each line is remembered to give its column.
//!
//! The index is the one [`IndexedDocument::parse`] makes, built entry by entry: each path
//! item, webhook and component is checked as a raw value when it has arrived, every other root
//! field parsed. An entry that has not arrived whole is tried again once the text has grown by
//! at least what the failed try read, so the work stays linear in the document's size however
//! its chunks fall. Anything the index cannot follow (a syntax error, `components` before
//! `paths` is still read, a root that is not an object) stops the early reading: the whole text
//! is then read at the end as [`super::read`] reads it, with the same errors.

use std::ops::Range;

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::checks::check_index;
use super::error::DocumentError;
use super::indexed::{IndexedDocument, LISTED_ROOT_FIELDS, Parts};
use super::{Format, Read};
use crate::catalog::{Catalog, ItemSource};

/// The largest document read, counted as it arrives: about twice the largest public API
/// description known (GitHub's dereferenced one, 73 MB).
pub const MAX_DOCUMENT_BYTES: usize = 256 << 20;

/// The UTF-8 byte order mark, dropped from the start of the text.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A document read as it arrives. [`Self::push`] each chunk; it gives the list the first time
/// it can be shown; [`Self::finish`] reads what is left at the end.
#[derive(Debug)]
pub struct DocumentStream {
    /// The text taken so far, checked as UTF-8 as it came (a JSON one without each line's
    /// indentation).
    text: String,
    /// The text once it cannot be kept as a string: YAML (read elsewhere), or JSON that is not
    /// UTF-8 (read whole at the end, for the error).
    raw: Option<Vec<u8>>,
    /// The first bytes of a character split between two chunks.
    carry: Vec<u8>,
    /// The first bytes, until it is known whether they start with a byte order mark.
    head: Option<Vec<u8>>,
    /// Decided at the first byte that is not white space.
    format: Option<Format>,
    /// Lines and their removed indentation (JSON only).
    lines: Lines,
    /// Bytes received, before any was dropped.
    received: usize,
    /// The expected size, when the server said it: to reserve the text's room once.
    expected: usize,
    reader: Reader,
    listing: ListingState,
}

/// Whether [`DocumentStream::push`] gave the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListingState {
    /// Not yet.
    Waiting,
    /// Not: the part read so far could not be listed as the whole would be.
    Refused,
    /// It did (or never will: the whole root was read and could not be listed).
    Given,
}

/// What the end of a stream gave.
#[derive(Debug)]
pub enum Streamed {
    /// A JSON document: read as [`super::read`] reads one.
    Json(Read),
    /// A YAML document's bytes, as they came: the caller converts them to JSON first.
    Yaml(Vec<u8>),
}

/// The list of a document whose text is still arriving, and its root fields read so far (the
/// overview's).
#[derive(Debug)]
pub struct Listing {
    /// The root fields before `paths` and the ones the list needs (`openapi`, `info`, `tags`).
    pub root: Map<String, Value>,
    /// The operation list.
    pub catalog: Catalog,
}

impl Default for DocumentStream {
    fn default() -> Self {
        Self::new(0)
    }
}

impl DocumentStream {
    /// A stream expecting about `expected` bytes (0 when unknown): the room for the text is
    /// reserved once the first sixteenth shows how much of it is indentation.
    #[must_use]
    pub fn new(expected: usize) -> Self {
        Self {
            text: String::new(),
            raw: None,
            carry: Vec::new(),
            head: Some(Vec::new()),
            format: None,
            lines: Lines::default(),
            received: 0,
            expected: expected.min(MAX_DOCUMENT_BYTES),
            reader: Reader::default(),
            listing: ListingState::Waiting,
        }
    }

    /// Bytes received so far.
    #[must_use]
    pub fn received(&self) -> usize {
        self.received
    }

    /// Takes the next chunk; the list, the first time the text read so far is enough for it
    /// (see [`Listing`]): `paths` and the root fields before it, with `openapi`, `info` and
    /// `tags` among them or the whole root read.
    ///
    /// # Errors
    /// [`DocumentError::TooLarge`] past [`MAX_DOCUMENT_BYTES`].
    pub fn push(&mut self, chunk: &[u8]) -> Result<Option<Listing>, DocumentError> {
        self.received = self.received.saturating_add(chunk.len());
        if self.received > MAX_DOCUMENT_BYTES {
            return Err(DocumentError::TooLarge { limit: MAX_DOCUMENT_BYTES });
        }
        match self.head.take() {
            Some(mut head) if head.len() + chunk.len() < BOM.len() => {
                head.extend_from_slice(chunk);
                self.head = Some(head);
                return Ok(None);
            }
            // The usual first chunk: nothing held back, nothing copied.
            Some(head) if head.is_empty() => self.take(chunk.strip_prefix(BOM).unwrap_or(chunk)),
            Some(mut head) => {
                head.extend_from_slice(chunk);
                self.take(head.strip_prefix(BOM).unwrap_or(&head));
            }
            None => self.take(chunk),
        }
        if self.format != Some(Format::Json) || self.raw.is_some() {
            return Ok(None);
        }
        self.reader.advance(&self.text);
        if self.listing == ListingState::Given {
            return Ok(None);
        }
        // A list refused before the whole root is read is tried once more when it is.
        let done = matches!(self.reader.step, Step::Done);
        if self.listing == ListingState::Refused && !done {
            return Ok(None);
        }
        let Some(parts) = self.reader.listable() else { return Ok(None) };
        let listing = listing(parts, &self.text);
        self.listing = match (&listing, done) {
            (Some(_), _) => ListingState::Given,
            (None, false) => ListingState::Refused,
            (None, true) => ListingState::Given,
        };
        Ok(listing)
    }

    /// Appends `chunk` to the text: checked as UTF-8 (a character split between two chunks is
    /// taken whole with the second), as it is until the format is known (white space only),
    /// then without each line's indentation for JSON, as it is for YAML.
    fn take(&mut self, chunk: &[u8]) {
        if let Some(raw) = &mut self.raw {
            if self.format == Some(Format::Json) {
                self.lines.strip(chunk, |kept| raw.extend_from_slice(&chunk[kept]));
            } else {
                raw.extend_from_slice(chunk);
            }
            self.reserve();
            return;
        }
        let joined: Vec<u8>;
        let bytes = if self.carry.is_empty() {
            chunk
        } else {
            joined = [std::mem::take(&mut self.carry).as_slice(), chunk].concat();
            &joined
        };
        match std::str::from_utf8(bytes) {
            Ok(text) => self.take_str(text),
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                self.take_str(std::str::from_utf8(valid).unwrap_or_default());
                if e.error_len().is_none() {
                    self.carry.extend_from_slice(rest);
                } else {
                    // Not UTF-8: kept as bytes from here, for the error at the end.
                    self.raw = Some(std::mem::take(&mut self.text).into_bytes());
                    self.take(rest);
                }
            }
        }
        self.reserve();
    }

    /// Appends text to the text (see [`Self::take`]).
    fn take_str(&mut self, mut chunk: &str) {
        if self.format.is_none() {
            let Some(first) = chunk.find(|c: char| !c.is_ascii_whitespace()) else {
                self.lines.count(chunk.as_bytes());
                self.text.push_str(chunk);
                return;
            };
            let (space, rest) = chunk.split_at(first);
            self.lines.count(space.as_bytes());
            self.text.push_str(space);
            chunk = rest;
            if !rest.starts_with(['{', '[']) {
                self.format = Some(Format::Yaml);
                let mut raw = std::mem::take(&mut self.text).into_bytes();
                raw.extend_from_slice(rest.as_bytes());
                self.raw = Some(raw);
                return;
            }
            self.format = Some(Format::Json);
        }
        let text = &mut self.text;
        self.lines.strip(chunk.as_bytes(), |kept| text.push_str(&chunk[kept]));
    }

    /// Reserves the room the whole text will take, once, from the share of the bytes so far
    /// that was kept, so the text is not copied as it grows (each copy of a large text leaves
    /// its old room behind: the page's memory never shrinks). The share is read off the first
    /// sixteenth of the document (1 MiB at least), with room to spare: the indentation of a
    /// document's start differs from the rest's.
    fn reserve(&mut self) {
        if self.expected == 0 || self.received < (self.expected / 16).max(1 << 20).min(self.expected) {
            return;
        }
        // An estimate of a size: truncation is what is wanted.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let room = {
            let taken = self.raw.as_ref().map_or(self.text.len(), Vec::len);
            let kept = (taken as f64 / self.received as f64).min(1.0);
            ((self.expected as f64) * (kept * 1.15).min(1.0)) as usize
        };
        match &mut self.raw {
            Some(raw) => raw.reserve(room.saturating_sub(raw.len())),
            None => self.text.reserve(room.saturating_sub(self.text.len())),
        }
        self.expected = 0;
    }

    /// Reads what is left once the last chunk is in: a JSON document as [`super::read`]
    /// reads it (with the index built as it arrived, when it could be), YAML handed back.
    ///
    /// # Errors
    /// [`DocumentError::Empty`] for no text, and the errors of [`super::read`], each naming
    /// the line and column of the text as it came.
    pub fn finish(mut self) -> Result<Streamed, DocumentError> {
        if let Some(head) = self.head.take() {
            self.take(head.strip_prefix(BOM).unwrap_or(&head));
        }
        if !self.carry.is_empty() {
            // A character cut short by the end: the text is not UTF-8.
            let carry = std::mem::take(&mut self.carry);
            self.raw
                .get_or_insert_with(|| std::mem::take(&mut self.text).into_bytes())
                .extend_from_slice(&carry);
        }
        let mut lines = std::mem::take(&mut self.lines);
        if lines.at_start {
            lines.record();
        }
        let read = match (self.format, self.raw) {
            (None, _) => return Err(DocumentError::Empty),
            (Some(Format::Yaml), raw) => return Ok(Streamed::Yaml(raw.unwrap_or_default())),
            (Some(Format::Json), Some(raw)) => super::read_whole(&raw),
            (Some(Format::Json), None) => match self.reader.into_parts(&self.text) {
                Some(parts) => {
                    // The room reserved and not used is given back for what comes next.
                    let mut text = self.text;
                    text.shrink_to_fit();
                    super::read_indexed(IndexedDocument::indexed(text, parts))
                }
                None => super::read_whole(self.text.as_bytes()),
            },
        };
        read.map(Streamed::Json).map_err(|e| lines.restore(e))
    }
}

/// The list of a document whose text is arriving, from the index read so far, when it can be
/// listed as the whole document would be.
fn listing(parts: &Parts, text: &str) -> Option<Listing> {
    check_index(&parts.root, parts.described()).ok()?;
    let missed = std::cell::Cell::new(false);
    let slice = |range: &Range<usize>| text.get(range.clone());
    let items = parts.paths.iter().flatten();
    let items = items.filter_map(|(path, range)| Some((path.as_str(), ItemSource::Text(slice(range)?))));
    let webhooks = parts.webhooks.iter().flatten();
    let webhooks =
        webhooks.filter_map(|(name, range)| Some((name.as_str(), ItemSource::Text(slice(range)?))));
    // A path item may refer to another one, or to a component not arrived yet: the list then
    // waits for the whole root, where every reference can be followed.
    let resolve = |reference: &str| {
        let found = reference
            .strip_prefix("#/paths/")
            .map(crate::openapi::unescape_segment)
            .and_then(|path| parts.paths.as_ref()?.get(&path))
            .and_then(slice)
            .map(ItemSource::Text);
        if found.is_none() {
            missed.set(true);
        }
        found
    };
    let catalog = Catalog::from_parts(&parts.root, items, webhooks, &resolve).ok()?;
    (!missed.get()).then(|| Listing { root: parts.root.clone(), catalog })
}

/// Line feeds seen, and the indentation removed from each line.
#[derive(Debug, Default)]
struct Lines {
    /// Lines ended so far (the line being read is this one, from 0).
    line: usize,
    /// Whether the bytes taken last ended a line: the indentation of the next is dropped.
    at_start: bool,
    /// Indentation dropped so far from the current line.
    indent: usize,
    /// Indentation removed from each line (0-based), up to 254; [`u8::MAX`] says "see `wide`".
    indents: Vec<u8>,
    /// Indentation of 255 bytes or more: line and indentation, by line.
    wide: Vec<(usize, usize)>,
}

impl Lines {
    /// Counts the line feeds of text kept as it is.
    fn count(&mut self, bytes: &[u8]) {
        let feeds = bytes.iter().filter(|b| **b == b'\n').count();
        if feeds > 0 {
            self.line += feeds;
            self.indents.resize(self.line, 0);
        }
    }

    /// The parts of `chunk` to keep (`keep` is given their ranges, in order): all but the
    /// spaces and tabs that start each line.
    fn strip(&mut self, chunk: &[u8], mut keep: impl FnMut(Range<usize>)) {
        let mut at = 0;
        while at < chunk.len() {
            if self.at_start {
                let n = chunk[at..].iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
                self.indent += n;
                at += n;
                if at == chunk.len() {
                    return;
                }
                self.at_start = false;
                self.record();
            }
            if let Some(end) = chunk[at..].iter().position(|b| *b == b'\n') {
                keep(at..at + end + 1);
                at += end + 1;
                self.line += 1;
                self.at_start = true;
            } else {
                keep(at..chunk.len());
                return;
            }
        }
    }

    /// Notes the indentation dropped from the current line.
    fn record(&mut self) {
        if self.indents.len() <= self.line {
            self.indents.resize(self.line + 1, 0);
        }
        let indent = std::mem::take(&mut self.indent);
        match u8::try_from(indent) {
            Ok(small) if small < u8::MAX => self.indents[self.line] = small,
            _ => {
                self.indents[self.line] = u8::MAX;
                self.wide.push((self.line, indent));
            }
        }
    }

    /// The indentation removed from line `line` (from 1).
    fn removed(&self, line: usize) -> usize {
        let index = line.saturating_sub(1);
        match self.indents.get(index) {
            Some(&u8::MAX) => {
                self.wide.binary_search_by_key(&index, |(line, _)| *line).map_or(0, |i| self.wide[i].1)
            }
            Some(&n) => usize::from(n),
            None => 0,
        }
    }

    /// `error` with its column counted in the text as it came.
    fn restore(&self, error: DocumentError) -> DocumentError {
        match error {
            DocumentError::Json { reason, line, column } if line > 0 => {
                DocumentError::Json { reason, line, column: column + self.removed(line) }
            }
            other => other,
        }
    }
}

/// Where the reading of the root is.
#[derive(Debug, Default)]
enum Step {
    /// Before the root's `{`.
    #[default]
    Open,
    /// In the root: the next entry, after a `,` unless `first`, or the `}`.
    Root { first: bool },
    /// In `paths`, `webhooks` or `x-webhooks`: the next path item.
    Items { field: Items, first: bool, items: IndexMap<String, Range<usize>> },
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
enum Items {
    Paths,
    Webhooks,
    XWebhooks,
}

/// The index of the root, built entry by entry.
#[derive(Debug, Default)]
struct Reader {
    step: Step,
    /// Where the next entry starts.
    at: usize,
    /// No entry is tried again before the text is this long.
    retry_at: usize,
    parts: Parts,
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
    fn advance(&mut self, text: &str) {
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
            Step::Items { first, items, .. } | Step::Kind { first, entries: items, .. } => {
                let (range, end) = attempt!(raw_at(text, at));
                items.insert(key, range);
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
            Step::Items { field, items, .. } => {
                match field {
                    Items::Paths => self.parts.paths = Some(items),
                    Items::Webhooks => self.parts.webhooks = Some(items),
                    Items::XWebhooks => {
                        if self.parts.webhooks.is_none() {
                            self.parts.webhooks = Some(items);
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
            self.step = Step::Items { field, first: true, items: IndexMap::new() };
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
    fn listable(&self) -> Option<&Parts> {
        let ready = match self.step {
            Step::Done => true,
            Step::GaveUp => false,
            _ => {
                self.parts.paths.is_some()
                    && LISTED_ROOT_FIELDS.iter().all(|field| self.parts.root.contains_key(*field))
            }
        };
        ready.then_some(&self.parts)
    }

    /// The whole index, when the root was read whole and only white space follows it.
    fn into_parts(mut self, text: &str) -> Option<Parts> {
        self.retry_at = 0;
        self.advance(text);
        match self.step {
            Step::Done if skip_space(text, self.at) == text.len() => Some(self.parts),
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

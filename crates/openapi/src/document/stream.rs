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
use serde_json::{Map, Value};

use super::checks::{check_index, check_root};
use super::error::DocumentError;
mod lines;
mod reader;

use lines::Lines;
use reader::{Listed, Reader, Step};

use super::format::Format;
use super::indexed::{IndexedDocument, LISTED_ROOT_FIELDS, Parts};
use super::outcome::{Read, read_indexed, read_whole};
use crate::catalog::{Catalog, ItemSource, ItemsRead};

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
    /// The expected size, when the server said it: to reserve the text's room once (0 when
    /// unknown, or once the text outgrew it).
    expected: usize,
    /// Whether the room for the whole text was reserved.
    reserved: bool,
    reader: Reader,
    listing: ListingState,
    /// Give a first list as soon as this many of its first rows are final (0: only once
    /// `paths` is read).
    first_rows: usize,
    /// The number of path items at which the first list is tried next.
    next_try: usize,
}

/// Whether [`DocumentStream::push`] gave the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListingState {
    /// Not yet.
    Waiting,
    /// Its first rows only ([`DocumentStream::list_first`]); the whole list of `paths` is
    /// still to be given.
    First,
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
            reserved: false,
            reader: Reader::default(),
            listing: ListingState::Waiting,
            first_rows: 0,
            next_try: 0,
        }
    }

    /// Gives a first list as soon as its first `rows` rows are final
    /// ([`Catalog::from_read_first`]), with `paths` still arriving: its catalog is
    /// [`Catalog::partial`], and the whole list of `paths` follows as a second [`Listing`].
    /// A page shows the rows in view sooner that way: GitHub's first tag has rows enough in
    /// the first sixth of its `paths`.
    #[must_use]
    pub fn list_first(mut self, rows: usize) -> Self {
        self.first_rows = rows;
        self
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
        if self.listing == ListingState::Waiting
            && self.first_rows > 0
            && let Some(first) = self.first_listing()
        {
            self.listing = ListingState::First;
            return Ok(Some(first));
        }
        if self.listing == ListingState::Given {
            return Ok(None);
        }
        // A list refused before the whole root is read is tried once more when it is.
        let done = matches!(self.reader.step, Step::Done);
        if self.listing == ListingState::Refused && !done {
            return Ok(None);
        }
        let Some((parts, listed)) = self.reader.listable() else { return Ok(None) };
        let listing = listing(parts, listed, &self.text);
        self.listing = match (&listing, done) {
            (Some(_), _) => ListingState::Given,
            (None, false) => ListingState::Refused,
            (None, true) => ListingState::Given,
        };
        Ok(listing)
    }

    /// The list of the path items read so far, when `paths` is still arriving and its first
    /// [`Self::first_rows`] rows are final. Tried again only once a quarter more items are in,
    /// so the tries cost no more than one list of the whole of `paths`.
    fn first_listing(&mut self) -> Option<Listing> {
        let reader::PathsSoFar { root, items, read } = self.reader.paths_so_far()?;
        if items.is_empty() || items.len() < self.next_try {
            return None;
        }
        self.next_try = items.len() + items.len() / 4 + 1;
        if !LISTED_ROOT_FIELDS.iter().all(|field| root.contains_key(*field)) || check_root(root).is_err() {
            return None;
        }
        let missed = std::cell::Cell::new(false);
        // A reference to a path item not read yet (or to a component): wait for the whole.
        let resolve = |reference: &str| {
            let found = path_item(Some(items), &self.text, reference);
            missed.set(missed.get() || found.is_none());
            found
        };
        let (catalog, settled) = Catalog::from_read_first(root, read, &resolve).ok()?;
        (!missed.get() && settled >= self.first_rows).then(|| Listing { root: root.clone(), catalog })
    }

    /// Appends `chunk` to the text: checked as UTF-8 (a character split between two chunks is
    /// taken whole with the second), as it is until the format is known (white space only),
    /// then without each line's indentation for JSON, as it is for YAML.
    fn take(&mut self, chunk: &[u8]) {
        self.reserve(chunk.len());
        if let Some(raw) = &mut self.raw {
            if self.format == Some(Format::Json) {
                self.lines.strip(chunk, |kept| raw.extend_from_slice(&chunk[kept]));
            } else {
                raw.extend_from_slice(chunk);
            }
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

    /// Reserves the room the whole text will take before `incoming` more bytes are taken, so
    /// the text is not copied as it grows (each copy of a large text leaves its old room
    /// behind: the page's memory never shrinks, and room reserved and never used counts as
    /// much). The share of the bytes kept is read off the first sixteenth of the document (1 MiB
    /// at least), and the room reserved with 3% to spare: the first part of a document is
    /// usually the least indented, so the share is rather over than under. Should the room run
    /// short all the same, the rest is reserved from the share so far with 10% to spare (one
    /// copy); should the document outgrow its announced size, the text grows as any string
    /// does.
    fn reserve(&mut self, incoming: usize) {
        if self.expected == 0 {
            return;
        }
        let before = self.received.saturating_sub(incoming);
        let (len, capacity) = match &self.raw {
            Some(raw) => (raw.len(), raw.capacity()),
            None => (self.text.len(), self.text.capacity()),
        };
        let margin = if !self.reserved {
            if before < (self.expected / 16).max(1 << 20).min(self.expected) {
                return;
            }
            1.03
        } else if capacity - len >= incoming + 4 {
            // (4: the first bytes of a character carried over from the chunk before.)
            return;
        } else if before >= self.expected {
            self.expected = 0;
            return;
        } else {
            1.10
        };
        self.reserved = true;
        // An estimate of a size: truncation is what is wanted.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let more = {
            let kept = (len as f64 / before.max(1) as f64).min(1.0);
            let rest = self.expected.saturating_sub(before).max(incoming);
            ((rest as f64 * (kept * margin).min(1.0)) as usize).max(incoming).max(len / 8) + (64 << 10)
        };
        match &mut self.raw {
            Some(raw) => raw.reserve_exact(more),
            None => self.text.reserve_exact(more),
        }
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
            (Some(Format::Json), Some(raw)) => read_whole(&raw),
            (Some(Format::Json), None) => match self.reader.into_parts(&self.text) {
                Some((parts, listed)) => {
                    // The room reserved and not used is given back for what comes next.
                    let mut text = self.text;
                    text.shrink_to_fit();
                    let webhooks = listed.webhooks.unwrap_or_else(ItemsRead::webhooks);
                    read_indexed(IndexedDocument::indexed(text, parts), &listed.paths, &webhooks)
                }
                None => read_whole(self.text.as_bytes()),
            },
        };
        read.map(Streamed::Json).map_err(|e| lines.restore(e))
    }
}

/// The list of a document whose text is arriving, from the index read so far, when it can be
/// listed as the whole document would be.
fn listing(parts: &Parts, listed: &Listed, text: &str) -> Option<Listing> {
    check_index(&parts.root, parts.described()).ok()?;
    let missed = std::cell::Cell::new(false);
    // A path item may refer to another one, or to a component not arrived yet: the list then
    // waits for the whole root, where every reference can be followed.
    let resolve = |reference: &str| {
        let found = path_item(parts.paths.as_ref(), text, reference);
        if found.is_none() {
            missed.set(true);
        }
        found
    };
    let none = ItemsRead::webhooks();
    let webhooks = listed.webhooks.as_ref().unwrap_or(&none);
    let catalog = Catalog::from_read(&parts.root, &listed.paths, webhooks, &resolve).ok()?;
    (!missed.get()).then(|| Listing { root: parts.root.clone(), catalog })
}

/// The path item a `#/paths/...` reference names, among the items of `paths` read from `text`.
fn path_item<'t>(
    paths: Option<&IndexMap<String, Range<usize>>>,
    text: &'t str,
    reference: &str,
) -> Option<ItemSource<'t>> {
    let path = crate::pointer::unescape_segment(reference.strip_prefix("#/paths/")?);
    paths?.get(&path).and_then(|range| text.get(range.clone())).map(ItemSource::Text)
}

#[cfg(test)]
mod tests {
    use super::DocumentStream;

    /// The text of a document whose first part is far more indented than the rest.
    fn indented_then_compact() -> Vec<u8> {
        let mut text = String::from(
            "{\"openapi\": \"3.0.3\", \"info\": {\"title\": \"T\", \"version\": \"1\"}, \"x-notes\": [\n",
        );
        while text.len() < 1_500_000 {
            text.push_str("                                \"indented\",\n");
        }
        text.push_str("\"end\"], \"x-rest\": [");
        while text.len() < 4_000_000 {
            text.push_str("\"compact\",");
        }
        text.push_str("\"end\"], \"paths\": {}}");
        text.into_bytes()
    }

    #[test]
    fn the_room_reserved_follows_the_text_when_its_start_misleads() {
        let bytes = indented_then_compact();
        let mut stream = DocumentStream::new(bytes.len());
        for chunk in bytes.chunks(64 << 10) {
            stream.push(chunk).unwrap();
        }
        let (len, capacity) = (stream.text.len(), stream.text.capacity());
        // Reserved again when it ran short, not doubled (2x) as a string grows.
        assert!(capacity < len + len / 5, "{capacity} bytes reserved for {len}");
    }

    #[test]
    fn a_size_announced_too_small_is_outgrown_without_a_copy_per_chunk() {
        let bytes = indented_then_compact();
        let mut stream = DocumentStream::new(bytes.len() / 3);
        for chunk in bytes.chunks(64 << 10) {
            stream.push(chunk).unwrap();
        }
        assert_eq!(stream.expected, 0, "given up once outgrown");
        assert!(matches!(stream.finish(), Ok(super::Streamed::Json(_))));
    }
}

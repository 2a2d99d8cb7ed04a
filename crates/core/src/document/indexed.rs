//! A large document kept as its JSON text with an index, parsed piece by piece.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::OnceLock;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::checks::{Described, check_index, index_error};
use super::error::DocumentError;
use crate::catalog::{Catalog, CatalogError, ItemSource};
use crate::openapi::unescape_segment;

/// Root fields kept as text, like `paths` and `components`: they can be large and no view of
/// an operation reads them whole.
const KEPT_AS_TEXT: [&str; 4] = ["paths", "components", "webhooks", "x-webhooks"];

/// The root fields the operation list reads besides `paths` (see `Catalog::from_parts`).
pub(super) const LISTED_ROOT_FIELDS: [&str; 3] = ["openapi", "info", "tags"];

/// What one pass over the text found.
#[derive(Debug, Default)]
pub(super) struct Parts {
    /// The root fields other than the large ones.
    pub(super) root: Map<String, Value>,
    /// Where each path item is; `None` when the document has no `paths` object.
    pub(super) paths: Option<IndexMap<String, Range<usize>>>,
    /// Where each webhook's path item is (`webhooks`, or Redoc's `x-webhooks` in a 3.0
    /// document); `None` when the document has neither.
    pub(super) webhooks: Option<IndexMap<String, Range<usize>>>,
    /// Kind (`schemas`, `parameters`, ...) to name to text.
    pub(super) components: HashMap<String, HashMap<String, Range<usize>>>,
    /// Whether the document has a `components` object with at least one kind in it.
    pub(super) has_components: bool,
}

impl Parts {
    pub(super) fn described(&self) -> Described {
        Described {
            paths: self.paths.is_some(),
            webhooks: self.webhooks.is_some(),
            components: self.has_components,
        }
    }
}

/// The JSON text of a document, its root fields other than the large ones, and where each path
/// item and component is in the text.
///
/// Turning all of GitHub's 13 MB description into a `serde_json::Value` takes hundreds of
/// milliseconds in WebAssembly and about 50 MB of memory, yet the operation list needs only a
/// few fields of each operation, and a page shows one operation at a time. So the text is read
/// once, checking its syntax, to note where each path item and each component starts and ends;
/// the list is built from those slices (unknown fields skipped, nothing kept); and the shown
/// operation gets a small document of its own: the root fields, its path item and the
/// components it refers to, directly or through other components, parsed when it is opened.
///
/// The list can come sooner still: [`IndexedDocument::parse_listing`] stops reading once it has
/// the fields the list needs (`openapi`, `info`, `tags` and `paths`, which most documents put
/// before their components), and [`IndexedDocument::complete`] reads the rest (components,
/// later root fields, and the syntax of everything) when the list is on screen, or when the
/// first operation is opened, whichever comes first.
#[derive(Debug)]
pub struct IndexedDocument {
    text: String,
    /// What the first pass found: everything, or (see [`Self::parse_listing`]) what comes
    /// before the point where the list had all it needs.
    first: Parts,
    /// The rest of the reading, once done: `Ok(None)` when the first pass read everything,
    /// `Ok(Some(..))` the whole index, or why the text cannot be read after all.
    rest: OnceLock<Result<Option<Parts>, DocumentError>>,
}

/// Where `part` (a slice of `text`) starts and ends in `text`.
fn range_in(text: &str, part: &str) -> Range<usize> {
    let start = part.as_ptr() as usize - text.as_ptr() as usize;
    start..start + part.len()
}

/// The `paths` object's items (slices of `text`) as ranges of `text`.
fn path_ranges(text: &str, items: IndexMap<String, &RawValue>) -> IndexMap<String, Range<usize>> {
    items.into_iter().map(|(path, item)| (path, range_in(text, item.get()))).collect()
}

impl IndexedDocument {
    /// Reads `text`, which must be a JSON object. The whole text is checked for JSON syntax;
    /// `paths` must be an object when present, and so must `components` and each kind in it
    /// (anything else there is ignored, as a reference into it would not resolve).
    ///
    /// # Errors
    /// serde_json's error, with the text given back: a syntax error with its line and column,
    /// or a data error when the text is not an object or `paths` is not one.
    pub fn parse(text: String) -> Result<Self, (serde_json::Error, String)> {
        Self::read(text, false)
    }

    /// As [`Self::parse`], but stops reading once `openapi`, `info`, `tags` and `paths` have
    /// been read, which is all [`Self::catalog`] needs: a document that lists them first is
    /// listed without reading its components. [`Self::complete`] reads the rest; until then,
    /// [`Self::root`] has only the root fields before that point, and a syntax error after it
    /// is not known yet.
    ///
    /// # Errors
    /// As [`Self::parse`], for the part of the text read.
    pub fn parse_listing(text: String) -> Result<Self, (serde_json::Error, String)> {
        Self::read(text, true)
    }

    /// `text` with the whole index of it, built elsewhere (as the text arrived:
    /// [`super::DocumentStream`]).
    pub(super) fn indexed(text: String, parts: Parts) -> Self {
        Self { text, first: parts, rest: OnceLock::from(Ok(None)) }
    }

    fn read(text: String, listing: bool) -> Result<Self, (serde_json::Error, String)> {
        if listing && let Some(first) = listing_prefix(&text) {
            return Ok(Self { text, first, rest: OnceLock::new() });
        }
        match index(&text) {
            Ok(first) => Ok(Self { text, first, rest: OnceLock::from(Ok(None)) }),
            Err(error) => Err((error, text)),
        }
    }

    /// The document's text.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The document's text, given back.
    #[must_use]
    pub fn into_text(self) -> String {
        self.text
    }

    /// Whether the whole text has been read (see [`Self::parse_listing`]).
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.rest.get().is_some()
    }

    /// Reads what [`Self::parse_listing`] left (at most once; later calls give the same
    /// answer at once): the components, the root fields after `paths`, and the syntax of the
    /// whole text.
    ///
    /// # Errors
    /// What [`super::load_json`] would have said of the whole text: a syntax error
    /// with its line and column, or a problem with a root field read only now.
    pub fn complete(&self) -> Result<(), DocumentError> {
        let rest = self.rest.get_or_init(|| {
            let parts = index(&self.text).map_err(|e| index_error(&e, &self.text))?;
            check_index(&parts.root, parts.described())?;
            Ok(Some(parts))
        });
        rest.as_ref().map(|_| ()).map_err(Clone::clone)
    }

    /// The index read so far: the whole one once [`Self::complete`] succeeded.
    fn parts(&self) -> &Parts {
        match self.rest.get() {
            Some(Ok(Some(whole))) => whole,
            _ => &self.first,
        }
    }

    /// The root fields other than `paths`, `components` and webhooks (those read so far).
    #[must_use]
    pub fn root(&self) -> &Map<String, Value> {
        &self.parts().root
    }

    /// Which of `paths`, `webhooks` and `components` the document has (read so far).
    #[must_use]
    pub(super) fn described(&self) -> Described {
        self.parts().described()
    }

    /// The operation list.
    ///
    /// # Errors
    /// As [`Catalog::from_value`].
    pub fn catalog(&self) -> Result<Catalog, CatalogError> {
        let parts = self.parts();
        let items = parts
            .paths
            .iter()
            .flatten()
            .map(|(path, range)| (path.as_str(), ItemSource::Text(&self.text[range.clone()])));
        let webhooks = parts
            .webhooks
            .iter()
            .flatten()
            .map(|(name, range)| (name.as_str(), ItemSource::Text(&self.text[range.clone()])));
        let resolve = |reference: &str| self.item_text(reference).map(ItemSource::Text);
        Catalog::from_parts(&parts.root, items, webhooks, &resolve)
    }

    /// Whether what was shown before [`Self::complete`] missed something the rest of the text
    /// has: webhooks (then [`Self::catalog`] lists more now) or root fields after `paths` (then
    /// [`Self::root`] has more for the overview, such as `externalDocs`).
    #[must_use]
    pub fn shows_more_when_complete(&self) -> bool {
        matches!(self.rest.get(), Some(Ok(Some(whole)))
            if (whole.webhooks.is_some() && self.first.webhooks.is_none())
                || whole.root.len() > self.first.root.len())
    }

    /// Replaces a path item's `$ref` by the fields of the item it names (its own fields win),
    /// so the operation's view finds its operations. A reference that does not resolve stays,
    /// and the view says so.
    fn follow_item_refs(&self, item: &mut Value) {
        for _ in 0..crate::catalog::MAX_ITEM_REFS {
            let Some(Value::Object(fields)) = Some(&mut *item) else { return };
            let Some(Value::String(reference)) = fields.get("$ref") else { return };
            let Some(Ok(Value::Object(target))) =
                self.item_text(reference).map(serde_json::from_str::<Value>)
            else {
                return;
            };
            fields.remove("$ref");
            for (key, value) in target {
                fields.entry(key).or_insert(value);
            }
        }
    }

    /// Where `place` is in the text.
    fn range_of(&self, place: &Place) -> Option<Range<usize>> {
        let parts = self.parts();
        match place {
            Place::Path(path) => parts.paths.as_ref()?.get(path).cloned(),
            Place::Webhook(name) => parts.webhooks.as_ref()?.get(name).cloned(),
            Place::Component(kind, name) => parts.components.get(kind)?.get(name).cloned(),
        }
    }

    /// The text of the path item a local reference names: `#/paths/<path>`,
    /// `#/webhooks/<name>` or `#/components/<kind>/<name>` (percent-encoded or not). Reads the
    /// rest of the text first for a component.
    fn item_text(&self, reference: &str) -> Option<&str> {
        let fragment = reference.strip_prefix('#')?;
        let fragment = percent_encoding::percent_decode_str(fragment).decode_utf8().ok()?;
        let mut segments = fragment.strip_prefix('/')?.split('/').map(unescape_segment);
        let range = match (segments.next()?.as_str(), segments.next(), segments.next(), segments.next()) {
            ("paths", Some(path), None, None) => self.parts().paths.as_ref()?.get(&path)?.clone(),
            ("webhooks", Some(name), None, None) => self.parts().webhooks.as_ref()?.get(&name)?.clone(),
            ("components", Some(kind), Some(name), None) => {
                self.complete().ok()?;
                self.parts().components.get(&kind)?.get(&name)?.clone()
            }
            _ => return None,
        };
        self.text.get(range)
    }

    /// A document with the root fields, the path item of `path` and every component it refers
    /// to, directly or through other components: enough to show its operations; `None` for a
    /// path the document does not have. Reads the rest of the text first when
    /// [`Self::parse_listing`] left some.
    ///
    /// # Errors
    /// As [`Self::complete`], when the rest of the text cannot be read.
    pub fn operation_document(&self, path: &str) -> Result<Option<Value>, DocumentError> {
        self.small_document(Place::Path(path.to_owned()))
    }

    /// As [`Self::operation_document`], for the webhook `name`.
    ///
    /// # Errors
    /// As [`Self::complete`].
    pub fn webhook_document(&self, name: &str) -> Result<Option<Value>, DocumentError> {
        self.small_document(Place::Webhook(name.to_owned()))
    }

    /// A document with the root fields, the component schema `name` and every component it
    /// refers to; `None` when there is no such schema.
    ///
    /// # Errors
    /// As [`Self::complete`].
    pub fn schema_document(&self, name: &str) -> Result<Option<Value>, DocumentError> {
        self.small_document(Place::Component("schemas".to_owned(), name.to_owned()))
    }

    /// The names in `components.schemas`, sorted. Reads the rest of the text first.
    ///
    /// # Errors
    /// As [`Self::complete`].
    pub fn schema_names(&self) -> Result<Vec<String>, DocumentError> {
        self.complete()?;
        let mut names: Vec<String> =
            self.parts().components.get("schemas").into_iter().flat_map(|s| s.keys().cloned()).collect();
        super::sort_names(&mut names);
        Ok(names)
    }

    /// The small document that starts at `start` (a path item, a webhook or a component) and
    /// holds everything it refers to.
    fn small_document(&self, start: Place) -> Result<Option<Value>, DocumentError> {
        self.complete()?;
        let parts = self.parts();
        let mut components: Map<String, Value> = Map::new();
        let mut paths = Map::new();
        let mut webhooks = Map::new();
        let mut pending = Vec::new();
        let mut seen = HashSet::new();
        let Some(range) = self.range_of(&start) else { return Ok(None) };
        // The text was checked when it was indexed: each slice is valid JSON.
        let mut first: Value = serde_json::from_str(&self.text[range]).unwrap_or(Value::Null);
        if !matches!(start, Place::Component(..)) {
            self.follow_item_refs(&mut first);
        }
        references(&first, &mut pending);
        seen.insert(start.clone());
        match start {
            Place::Path(path) => drop(paths.insert(path, first)),
            Place::Webhook(name) => drop(webhooks.insert(name, first)),
            Place::Component(kind, name) => {
                let mut entries = Map::new();
                entries.insert(name, first);
                components.insert(kind, Value::Object(entries));
            }
        }
        while let Some(reference) = pending.pop() {
            let Some(place) = Place::of(&reference) else { continue };
            if !seen.insert(place.clone()) {
                continue;
            }
            // A reference that does not resolve is left out: the view names it.
            let (range, into, name) = match place {
                Place::Component(kind, name) => {
                    let Some(range) = parts.components.get(&kind).and_then(|k| k.get(&name)) else {
                        continue;
                    };
                    let entries = components.entry(kind).or_insert_with(|| Value::Object(Map::new()));
                    let Value::Object(entries) = entries else { continue };
                    (range, entries, name)
                }
                Place::Path(name) => {
                    let Some(range) = parts.paths.as_ref().and_then(|p| p.get(&name)) else { continue };
                    (range, &mut paths, name)
                }
                Place::Webhook(name) => {
                    let Some(range) = parts.webhooks.as_ref().and_then(|w| w.get(&name)) else { continue };
                    (range, &mut webhooks, name)
                }
            };
            let value: Value = serde_json::from_str(&self.text[range.clone()]).unwrap_or(Value::Null);
            references(&value, &mut pending);
            into.insert(name, value);
        }
        // Security schemes are named, not referenced: the view describes the ones in use.
        if let Some(schemes) = parts.components.get("securitySchemes") {
            let read: Map<String, Value> = schemes
                .iter()
                .map(|(name, range)| {
                    (name.clone(), serde_json::from_str(&self.text[range.clone()]).unwrap_or(Value::Null))
                })
                .collect();
            components.insert("securitySchemes".to_owned(), Value::Object(read));
        }
        let mut doc = parts.root.clone();
        doc.insert("paths".to_owned(), Value::Object(paths));
        doc.insert("components".to_owned(), Value::Object(components));
        if !webhooks.is_empty() {
            doc.insert("webhooks".to_owned(), Value::Object(webhooks));
        }
        Ok(Some(Value::Object(doc)))
    }
}

/// One pass over `text`: large values are noted as slices, checked but not built.
fn index(text: &str) -> Result<Parts, serde_json::Error> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let parts = Root { text }.deserialize(&mut reader)?;
    reader.end()?;
    Ok(parts)
}

/// The root fields up to the point where the list has all it needs (`paths` and
/// [`LISTED_ROOT_FIELDS`]), read entry by entry, each value by serde_json; the text after that
/// point is not read. `None` when that point is not reached before the end, a large field
/// other than `paths` comes first, or anything is wrong on the way: then the whole pass gives
/// the index, or the error with its line and column.
fn listing_prefix(text: &str) -> Option<Parts> {
    let mut parts = Parts::default();
    let mut at = expect(text, skip_space(text, 0), b'{')?;
    loop {
        let (key, end) = value_at::<String>(text, skip_space(text, at))?;
        at = skip_space(text, expect(text, skip_space(text, end), b':')?);
        at = match key.as_str() {
            "paths" => {
                let (items, end) = value_at(text, at)?;
                parts.paths = Some(path_ranges(text, items));
                end
            }
            other if KEPT_AS_TEXT.contains(&other) => return None,
            _ => {
                let (value, end) = value_at::<Value>(text, at)?;
                parts.root.insert(key, value);
                end
            }
        };
        if parts.paths.is_some() && LISTED_ROOT_FIELDS.iter().all(|field| parts.root.contains_key(*field)) {
            return Some(parts);
        }
        at = expect(text, skip_space(text, at), b',')?;
    }
}

/// The JSON value that starts at byte `at` of `text`, and the byte after it.
fn value_at<'t, T: Deserialize<'t>>(text: &'t str, at: usize) -> Option<(T, usize)> {
    let mut values = serde_json::Deserializer::from_str(text.get(at..)?).into_iter::<T>();
    let value = values.next()?.ok()?;
    Some((value, at + values.byte_offset()))
}

/// The first byte at or after `at` that is not JSON white space.
fn skip_space(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = at;
    while bytes.get(at).is_some_and(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t')) {
        at += 1;
    }
    at
}

/// The byte after `byte`, which must be at `at`.
fn expect(text: &str, at: usize, byte: u8) -> Option<usize> {
    (text.as_bytes().get(at) == Some(&byte)).then_some(at + 1)
}

/// The root object: small fields as values, `paths` and `components` as slices by name.
struct Root<'t> {
    text: &'t str,
}

impl<'de> DeserializeSeed<'de> for Root<'de> {
    type Value = Parts;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Parts, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Root<'de> {
    type Value = Parts;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an OpenAPI document (an object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parts, A::Error> {
        let text = self.text;
        let mut parts = Parts::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "paths" => {
                    parts.paths = Some(path_ranges(text, map.next_value()?));
                }
                "webhooks" | "x-webhooks" => {
                    let items = path_ranges(text, map.next_value()?);
                    if key == "webhooks" || parts.webhooks.is_none() {
                        parts.webhooks = Some(items);
                    }
                }
                "components" => {
                    let Entries(kinds) = map.next_value::<Entries<Entries<&'de RawValue>>>()?;
                    parts.has_components = !kinds.is_empty();
                    for (kind, Entries(entries)) in kinds {
                        let entries =
                            entries.into_iter().map(|(name, raw)| (name, range_in(text, raw.get())));
                        parts.components.insert(kind, entries.collect());
                    }
                }
                other if KEPT_AS_TEXT.contains(&other) => {
                    map.next_value::<&RawValue>()?;
                }
                _ => {
                    parts.root.insert(key, map.next_value()?);
                }
            }
        }
        Ok(parts)
    }
}

/// The entries of an object, or none when the value is something else (a kind of component
/// that is not an object of named entries: a reference into it would not resolve in the whole
/// document either).
struct Entries<V>(Vec<(String, V)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Entries<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(EntriesVisitor(std::marker::PhantomData))
    }
}

struct EntriesVisitor<V>(std::marker::PhantomData<V>);

impl<'de, V: Deserialize<'de>> Visitor<'de> for EntriesVisitor<V> {
    type Value = Entries<V>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<V>, A::Error> {
        let mut entries = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            entries.push((name, map.next_value::<V>()?));
        }
        Ok(Entries(entries))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Entries<V>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Entries(Vec::new()))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Entries<V>, E> {
        Ok(Entries(Vec::new()))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Entries<V>, E> {
        Ok(Entries(Vec::new()))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Entries<V>, E> {
        Ok(Entries(Vec::new()))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Entries<V>, E> {
        Ok(Entries(Vec::new()))
    }

    fn visit_str<E>(self, _: &str) -> Result<Entries<V>, E> {
        Ok(Entries(Vec::new()))
    }

    fn visit_unit<E>(self) -> Result<Entries<V>, E> {
        Ok(Entries(Vec::new()))
    }
}

/// Every `$ref` text in `value`.
fn references(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("$ref", Value::String(r)) => out.push(r.clone()),
                    _ => references(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, out)),
        _ => {}
    }
}

/// The part of the document a local reference points into, as far as the small document of
/// an operation needs it: a component, a path item or a webhook.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Place {
    /// `#/components/<kind>/<name>[/...]`.
    Component(String, String),
    /// `#/paths/<path>[/...]`.
    Path(String),
    /// `#/webhooks/<name>[/...]`.
    Webhook(String),
}

impl Place {
    /// Where a reference (percent-encoded or not) points; `None` for anything else.
    fn of(reference: &str) -> Option<Self> {
        let fragment =
            percent_encoding::percent_decode_str(reference.strip_prefix('#')?).decode_utf8().ok()?;
        let mut segments = fragment.strip_prefix('/')?.split('/');
        match segments.next()? {
            "components" => {
                Some(Self::Component(unescape_segment(segments.next()?), unescape_segment(segments.next()?)))
            }
            "paths" => Some(Self::Path(unescape_segment(segments.next()?))),
            "webhooks" => Some(Self::Webhook(unescape_segment(segments.next()?))),
            _ => None,
        }
    }
}

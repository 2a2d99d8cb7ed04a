//! A large document kept as its JSON text with an index, parsed piece by piece.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::checks::Described;
use crate::catalog::{Catalog, CatalogError, ItemSource, ItemsRead};
use crate::pointer::unescape_segment;

/// The root fields the operation list reads besides `paths` (see `Catalog::from_parts`).
pub(super) const LISTED_ROOT_FIELDS: [&str; 3] = ["openapi", "info", "tags"];

/// What one pass over the text found.
#[derive(Debug, Default, Clone)]
pub(super) struct Parts {
    /// The root fields other than the large ones.
    pub(super) root: Map<String, Value>,
    /// Where each path item is; `None` when the document has no `paths` object.
    pub(super) paths: Option<IndexMap<String, Range<usize>>>,
    /// Where each webhook's path item is (`webhooks`, or Redoc's `x-webhooks` in a 3.0
    /// document); `None` when the document has neither.
    pub(super) webhooks: Option<IndexMap<String, Range<usize>>>,
    /// Kind (`schemas`, `parameters`, ...) to name to text.
    pub(super) components: HashMap<String, IndexMap<String, Range<usize>>>,
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
/// once as it arrives ([`super::DocumentStream`]), checking its syntax, to note where each path
/// item and each component starts and ends; the list is built from those slices (unknown fields
/// skipped, nothing kept); and the shown operation gets a small document of its own: the root
/// fields, its path item and the components it refers to, directly or through other
/// components, parsed when it is opened.
#[derive(Debug)]
pub struct IndexedDocument {
    text: String,
    parts: Parts,
}

impl IndexedDocument {
    /// `text` with its index, built as the text arrived ([`super::DocumentStream`]).
    pub(super) fn indexed(text: String, parts: Parts) -> Self {
        Self { text, parts }
    }

    /// The document's text (a JSON one read as it arrived has no indentation: see
    /// [`super::DocumentStream`]).
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The document's text, given back.
    #[must_use]
    pub fn into_text(self) -> String {
        self.text
    }

    /// The index.
    fn parts(&self) -> &Parts {
        &self.parts
    }

    /// The root fields other than `paths`, `components` and webhooks.
    #[must_use]
    pub fn root(&self) -> &Map<String, Value> {
        &self.parts().root
    }

    /// Which of `paths`, `webhooks` and `components` the document has.
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

    /// The operation list, from its path items and webhooks read already (as they arrived).
    ///
    /// # Errors
    /// As [`Catalog::from_value`].
    pub(super) fn catalog_of(
        &self,
        paths: &ItemsRead,
        webhooks: &ItemsRead,
    ) -> Result<Catalog, CatalogError> {
        let resolve = |reference: &str| self.item_text(reference).map(ItemSource::Text);
        Catalog::from_read(self.root(), paths, webhooks, &resolve)
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
    /// `#/webhooks/<name>` or `#/components/<kind>/<name>` (percent-encoded or not).
    fn item_text(&self, reference: &str) -> Option<&str> {
        let fragment = reference.strip_prefix('#')?;
        let fragment = percent_encoding::percent_decode_str(fragment).decode_utf8().ok()?;
        let mut segments = fragment.strip_prefix('/')?.split('/').map(unescape_segment);
        let range = match (segments.next()?.as_str(), segments.next(), segments.next(), segments.next()) {
            ("paths", Some(path), None, None) => self.parts().paths.as_ref()?.get(&path)?.clone(),
            ("webhooks", Some(name), None, None) => self.parts().webhooks.as_ref()?.get(&name)?.clone(),
            ("components", Some(kind), Some(name), None) => {
                self.parts().components.get(&kind)?.get(&name)?.clone()
            }
            _ => return None,
        };
        self.text.get(range)
    }

    /// A document with the root fields, the path item of `path` and every component it refers
    /// to, directly or through other components: enough to show its operations; `None` for a
    /// path the document does not have.
    #[must_use]
    pub fn operation_document(&self, path: &str) -> Option<Value> {
        self.small_document(Place::Path(path.to_owned()))
    }

    /// As [`Self::operation_document`], for the webhook `name`.
    #[must_use]
    pub fn webhook_document(&self, name: &str) -> Option<Value> {
        self.small_document(Place::Webhook(name.to_owned()))
    }

    /// A document with the root fields, the component schema `name` and every component it
    /// refers to; `None` when there is no such schema.
    #[must_use]
    pub fn schema_document(&self, name: &str) -> Option<Value> {
        self.small_document(Place::Component("schemas".to_owned(), name.to_owned()))
    }

    /// The names in `components.schemas`, sorted.
    #[must_use]
    pub fn schema_names(&self) -> Vec<String> {
        let mut names: Vec<String> =
            self.parts().components.get("schemas").into_iter().flat_map(|s| s.keys().cloned()).collect();
        sort_names(&mut names);
        names
    }

    /// The security schemes of `components.securitySchemes` ([`crate::security::schemes`]):
    /// only that part of the text is read.
    #[must_use]
    pub fn security_schemes(&self) -> Vec<crate::security::Scheme> {
        let Some(schemes) = self.parts().components.get("securitySchemes") else { return Vec::new() };
        let read: Map<String, Value> = schemes
            .iter()
            .take(crate::security::MAX_SCHEMES)
            .map(|(name, range)| {
                (name.clone(), serde_json::from_str(&self.text[range.clone()]).unwrap_or(Value::Null))
            })
            .collect();
        let doc = serde_json::json!({ "components": { "securitySchemes": read } });
        crate::security::schemes(&doc)
    }

    /// The small document that starts at `start` (a path item, a webhook or a component) and
    /// holds everything it refers to.
    fn small_document(&self, start: Place) -> Option<Value> {
        let parts = self.parts();
        let mut components: Map<String, Value> = Map::new();
        let mut paths = Map::new();
        let mut webhooks = Map::new();
        let mut pending = Vec::new();
        let mut seen = HashSet::new();
        let range = self.range_of(&start)?;
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
        Some(Value::Object(doc))
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

/// Sorts component names for the Schemas section, ignoring ASCII case. Names are identifiers,
/// nearly always ASCII; the page's WebAssembly carries no Unicode case tables for this.
pub(super) fn sort_names(names: &mut [String]) {
    names.sort_by_cached_key(|n| n.to_ascii_lowercase());
}

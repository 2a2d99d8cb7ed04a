//! A large document kept as its JSON text with an index, parsed piece by piece.
//!
//! Turning all of GitHub's 13 MB description into a `serde_json::Value` takes hundreds of
//! milliseconds in WebAssembly and about 50 MB of memory, yet the operation list needs only a
//! few fields of each operation, and a page shows one operation at a time. So the text is read
//! once, checking its syntax, to note where each path item and each component starts and ends;
//! the list is built from those slices (unknown fields skipped, nothing kept); and the shown
//! operation gets a small document of its own: the root fields, its path item and the
//! components it refers to, directly or through other components, parsed when it is opened.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::catalog::Method;
use crate::catalog::{Catalog, CatalogError};
use crate::reference::{OperationView, ViewError};

/// Root fields kept as text, like `paths` and `components`: they can be large and no view of
/// an operation reads them.
const KEPT_AS_TEXT: [&str; 4] = ["paths", "components", "webhooks", "x-webhooks"];

/// The JSON text of a document, its root fields other than the large ones, and where each path
/// item and component is in the text.
#[derive(Debug)]
pub struct IndexedDocument {
    text: String,
    root: Map<String, Value>,
    /// `None` when the document has no `paths` object.
    paths: Option<IndexMap<String, Range<usize>>>,
    /// Kind (`schemas`, `parameters`, ...) to name to text.
    components: HashMap<String, HashMap<String, Range<usize>>>,
}

/// Where `part` (a slice of `text`) starts and ends in `text`.
fn range_in(text: &str, part: &str) -> Range<usize> {
    let start = part.as_ptr() as usize - text.as_ptr() as usize;
    start..start + part.len()
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
        match Self::index(&text) {
            Ok((root, paths, components)) => Ok(Self { text, root, paths, components }),
            Err(error) => Err((error, text)),
        }
    }

    #[allow(clippy::type_complexity)] // the three parts of `Self` besides the text
    fn index(
        text: &str,
    ) -> Result<
        (
            Map<String, Value>,
            Option<IndexMap<String, Range<usize>>>,
            HashMap<String, HashMap<String, Range<usize>>>,
        ),
        serde_json::Error,
    > {
        // One pass over the text: large values are noted as slices, checked but not built.
        let mut reader = serde_json::Deserializer::from_str(text);
        let root = Root { text }.deserialize(&mut reader)?;
        reader.end()?;
        Ok(root)
    }

    /// The root fields other than `paths`, `components` and webhooks.
    #[must_use]
    pub fn root(&self) -> &Map<String, Value> {
        &self.root
    }

    /// Whether the document has a `paths` object.
    #[must_use]
    pub fn has_paths(&self) -> bool {
        self.paths.is_some()
    }

    /// The operation list.
    ///
    /// # Errors
    /// As [`Catalog::from_value`].
    pub fn catalog(&self) -> Result<Catalog, CatalogError> {
        let items =
            self.paths.iter().flatten().map(|(path, range)| (path.as_str(), &self.text[range.clone()]));
        Catalog::from_parts(&self.root, items)
    }

    /// A document with the root fields, the path item of `path` and every component it refers
    /// to, directly or through other components: enough to show its operations.
    ///
    /// # Errors
    /// [`ViewError::NoOperation`] for a path the document does not have.
    pub fn operation_document(&self, path: &str) -> Result<Value, ViewError> {
        let range = self
            .paths
            .as_ref()
            .and_then(|p| p.get(path))
            .ok_or_else(|| ViewError::NoOperation(path.to_owned()))?;
        // The text was checked when it was indexed: each slice is valid JSON.
        let item: Value = serde_json::from_str(&self.text[range.clone()]).unwrap_or(Value::Null);
        let mut components: Map<String, Value> = Map::new();
        let mut pending = Vec::new();
        references(&item, &mut pending);
        let mut seen = HashSet::new();
        while let Some(reference) = pending.pop() {
            let Some((kind, name)) = component_of(&reference) else { continue };
            if !seen.insert((kind.clone(), name.clone())) {
                continue;
            }
            // A reference that does not resolve is left out: the view names it.
            let Some(range) = self.components.get(&kind).and_then(|k| k.get(&name)) else { continue };
            let value: Value = serde_json::from_str(&self.text[range.clone()]).unwrap_or(Value::Null);
            references(&value, &mut pending);
            if let Value::Object(entries) =
                components.entry(kind).or_insert_with(|| Value::Object(Map::new()))
            {
                entries.insert(name, value);
            }
        }
        let mut doc = self.root.clone();
        let mut paths = Map::new();
        paths.insert(path.to_owned(), item);
        doc.insert("paths".to_owned(), Value::Object(paths));
        doc.insert("components".to_owned(), Value::Object(components));
        Ok(Value::Object(doc))
    }
}

/// The root object: small fields as values, `paths` and `components` as slices by name.
struct Root<'t> {
    text: &'t str,
}

type Parts = (
    Map<String, Value>,
    Option<IndexMap<String, Range<usize>>>,
    HashMap<String, HashMap<String, Range<usize>>>,
);

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
        let mut root = Map::new();
        let mut paths = None;
        let mut components = HashMap::new();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "paths" => {
                    let items: IndexMap<String, &RawValue> = map.next_value()?;
                    paths = Some(
                        items.into_iter().map(|(path, item)| (path, range_in(text, item.get()))).collect(),
                    );
                }
                "components" => {
                    let Entries(kinds) = map.next_value::<Entries<Entries<&'de RawValue>>>()?;
                    for (kind, Entries(entries)) in kinds {
                        let entries =
                            entries.into_iter().map(|(name, raw)| (name, range_in(text, raw.get())));
                        components.insert(kind, entries.collect());
                    }
                }
                other if KEPT_AS_TEXT.contains(&other) => {
                    map.next_value::<&RawValue>()?;
                }
                _ => {
                    root.insert(key, map.next_value()?);
                }
            }
        }
        Ok((root, paths, components))
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

/// `#/components/<kind>/<name>[/...]` to its kind and name (JSON Pointer escapes undone).
fn component_of(reference: &str) -> Option<(String, String)> {
    let mut parts = reference.strip_prefix("#/components/")?.split('/');
    let unescape = |s: &str| s.replace("~1", "/").replace("~0", "~");
    let kind = unescape(parts.next()?);
    let name = unescape(parts.next()?);
    Some((kind, name))
}

/// A document the reference shows: whole (the embedded one) or indexed (a loaded one).
#[derive(Debug, Clone)]
pub enum AnyDocument {
    /// Parsed whole.
    Whole(Arc<Value>),
    /// Kept as indexed text.
    Indexed(Arc<IndexedDocument>),
}

impl AnyDocument {
    /// A document parsed whole.
    #[must_use]
    pub fn whole(value: Value) -> Self {
        Self::Whole(Arc::new(value))
    }

    /// The view of one operation.
    ///
    /// # Errors
    /// As [`OperationView::build`].
    pub fn operation_view(&self, method: Method, path: &str) -> Result<OperationView, ViewError> {
        match self {
            Self::Whole(doc) => OperationView::build(doc, method, path),
            Self::Indexed(doc) => OperationView::build(&doc.operation_document(path)?, method, path),
        }
    }
}

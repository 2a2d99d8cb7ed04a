//! What a `$ref` or `$dynamicRef` names: schemas found by the base URI their `$id`s give them,
//! by `$anchor` and `$dynamicAnchor`, or by a JSON pointer inside one of them, in the document or
//! in the [`Resources`] a caller lends. A reference that is a plain `#/...` pointer from a
//! document without `$id`s is read straight off the document; anything else asks for an
//! [`Index`] of the identifiers, made at most once per check and only then.
//!
//! Bounds: an index reads at most [`MAX_INDEXED`] values, [`MAX_NESTING`] levels deep; values
//! of `enum`, `const`, `default`, `example` and `examples` are data, never schemas, so an `$id`
//! there names nothing.

use playground_openapi::json::Key;
use std::collections::HashMap;

use serde_json::Value;

use crate::uri;

/// Values an [`Index`] reads across the document and its resources before it stops.
pub const MAX_INDEXED: usize = 2_000_000;

/// Levels an [`Index`] descends.
const MAX_NESTING: usize = 256;

/// Keywords whose values are data, never schemas.
const DATA: [&str; 5] = ["enum", "const", "default", "example", "examples"];

/// Schema documents kept outside the checked document, each by the absolute URI a reference
/// names it with (the address it would be fetched from, without fragment): what a `$ref` to
/// another document reads once lent with [`crate::Validator::resources`]. Nothing is fetched.
#[derive(Debug, Default, Clone)]
pub struct Resources {
    documents: Vec<(String, Value)>,
}

impl Resources {
    /// No documents.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps `document` as the one at `uri` (a fragment is dropped; a later one at the same
    /// address wins).
    pub fn insert(&mut self, uri: &str, document: Value) {
        let (address, _) = uri::split(uri);
        self.documents.retain(|(kept, _)| kept != address);
        self.documents.push((address.to_owned(), document));
    }

    /// How many documents are kept.
    #[must_use]
    pub fn len(&self) -> usize {
        self.documents.len()
    }

    /// Whether none is.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.documents.is_empty()
    }

    pub(crate) fn document(&self, i: usize) -> Option<&Value> {
        self.documents.get(i).map(|(_, d)| d)
    }
}

/// Where an identified schema is: in which document (0 the checked one, `i + 1` the `i`th
/// resource), at which JSON pointer, and the base URI around it (before its own `$id`).
#[derive(Debug, Clone)]
pub(crate) struct Place {
    pub doc: usize,
    pub path: Vec<String>,
    pub outer: String,
    /// Named by a `$dynamicAnchor`.
    pub dynamic: bool,
}

/// The identified schemas of a document and its resources: by absolute URI (`$id`s and the
/// documents' own addresses) and by `URI#name` (anchors).
#[derive(Debug, Default)]
pub(crate) struct Index {
    places: HashMap<String, Place>,
    read: usize,
}

impl Index {
    /// Indexes `doc` (whose address is "") and every resource; `ids`: `$id` and anchors are
    /// read (not in OpenAPI 3.0, which has neither).
    pub fn new(doc: &Value, resources: Option<&Resources>, ids: bool) -> Self {
        let mut index = Self::default();
        index.add(String::new(), 0, doc, ids);
        for (i, (address, document)) in
            resources.map(|r| r.documents.as_slice()).unwrap_or(&[]).iter().enumerate()
        {
            index.add(address.clone(), i + 1, document, ids);
        }
        index
    }

    fn add(&mut self, address: String, doc: usize, root: &Value, ids: bool) {
        self.places.entry(address.clone()).or_insert(Place {
            doc,
            path: Vec::new(),
            outer: address.clone(),
            dynamic: false,
        });
        if ids {
            self.visit(root, &address, doc, &mut Vec::new());
        }
    }

    fn visit(&mut self, node: &Value, base: &str, doc: usize, path: &mut Vec<String>) {
        self.read += 1;
        if self.read > MAX_INDEXED || path.len() > MAX_NESTING {
            return;
        }
        match node {
            Value::Object(map) => {
                let own = own_base(node, base);
                let here = own.as_deref().unwrap_or(base);
                let place = |dynamic| Place { doc, path: path.clone(), outer: base.to_owned(), dynamic };
                if own.is_some() {
                    self.places.entry(here.to_owned()).or_insert_with(|| place(false));
                }
                for (keyword, dynamic) in [("$anchor", false), ("$dynamicAnchor", true)] {
                    if let Some(name) = map.get(keyword).and_then(Value::as_str) {
                        let key = format!("{here}#{name}");
                        let entry = self.places.entry(key).or_insert_with(|| place(dynamic));
                        entry.dynamic |= dynamic;
                    }
                }
                for (key, child) in map {
                    if DATA.contains(&key.as_str()) {
                        continue;
                    }
                    path.push(key.clone());
                    self.visit(child, here, doc, path);
                    path.pop();
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    path.push(i.to_string());
                    self.visit(child, base, doc, path);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    pub fn get(&self, uri: &str) -> Option<&Place> {
        self.places.get(uri)
    }
}

/// The base URI inside `schema` when it has an `$id` (an empty fragment dropped), from the
/// base `base` around it; `None` without one, or with one that is no identifier (a non-empty
/// fragment).
pub(crate) fn own_base(schema: &Value, base: &str) -> Option<String> {
    let id = schema.key("$id").and_then(Value::as_str)?;
    let resolved = uri::resolve(base, id);
    match resolved.split_once('#') {
        None => Some(resolved),
        Some((address, "")) => Some(address.to_owned()),
        Some(_) => None,
    }
}

/// The value at the JSON pointer `path` below `root`, and the base URI around it, from
/// `base`, the one inside `root` (`$id`s on the way are read when `ids`).
pub(crate) fn descend<'v, S: AsRef<str>>(
    root: &'v Value,
    base: &str,
    path: &[S],
    ids: bool,
) -> Option<(&'v Value, String)> {
    let mut node = root;
    let mut base = base.to_owned();
    for (i, segment) in path.iter().enumerate() {
        if i > 0
            && ids
            && let Some(inner) = own_base(node, &base)
        {
            base = inner;
        }
        let segment = segment.as_ref();
        node = match node {
            Value::Object(map) => map.get(segment)?,
            Value::Array(items) => items.get(index_of(segment)?)?,
            _ => return None,
        };
    }
    Some((node, base))
}

/// A pointer segment as a list index: digits, without a leading zero.
fn index_of(segment: &str) -> Option<usize> {
    let digits = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
    if !digits || (segment.len() > 1 && segment.starts_with('0')) {
        return None;
    }
    segment.parse().ok()
}

/// A JSON pointer's segments, unescaped (`~1` is `/`, `~0` is `~`); `None` for one that does
/// not start with `/` (and is not empty).
pub(crate) fn segments(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|s| if s.contains('~') { s.replace("~1", "/").replace("~0", "~") } else { s.to_owned() })
            .collect(),
    )
}

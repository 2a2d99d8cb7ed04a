//! The path items and webhooks as the list reads them: from their text or their value, one at
//! a time as a document arrives ([`ItemsRead`]), with a `$ref` to another item followed when
//! the list is made.

use std::borrow::Cow;

use indexmap::IndexMap;
use serde::Deserialize;

use super::CatalogError;
use super::raw::{Listed, RawPathItem};

/// A path item as the list reads it: its JSON text (in an indexed document) or its value.
#[derive(Debug, Clone, Copy)]
pub enum ItemSource<'a> {
    /// The item's JSON text.
    Text(&'a str),
    /// The item parsed.
    Value(&'a serde_json::Value),
}

impl ItemSource<'_> {
    /// What the item is when it is not an object ("a string", ...), from its first character
    /// for text.
    fn not_an_object(self) -> Option<&'static str> {
        let first = match self {
            Self::Value(value) => return (!value.is_object()).then(|| crate::json::kind(value)),
            Self::Text(text) => text.trim_start().bytes().next(),
        };
        match first {
            Some(b'{') => None,
            Some(b'"') => Some("a string"),
            Some(b'[') => Some("a list"),
            Some(b't' | b'f') => Some("a boolean"),
            Some(b'n') => Some("null"),
            _ => Some("a number"),
        }
    }

    /// The item as the list reads it; `pointer` names it in an error.
    pub(super) fn read(self, pointer: impl FnOnce() -> String) -> Result<RawPathItem, CatalogError> {
        if let Some(found) = self.not_an_object() {
            return Err(CatalogError::NotAnObject { pointer: pointer(), found });
        }
        let read = match self {
            Self::Text(text) => serde_json::from_str(text),
            // Read as text, as the items of an indexed document are: one reader of path
            // items in the app (a value is read so only where the index could not be).
            Self::Value(value) => serde_json::from_str(&value.to_string()),
        };
        read.map_err(|e| {
            let message = e.to_string();
            // serde_json's position is within the item's text, not the document's.
            let reason = message.split(" at line ").next().unwrap_or(&message);
            CatalogError::Malformed(format!("`{}`: {reason}", pointer()))
        })
    }
}

/// The path items of `paths`, or of the webhooks, read for the list one at a time: a document
/// read as it arrives ([`crate::document::DocumentStream`]) reads each item once, when it has
/// arrived, so no task reads them all; the list is then made from what was read
/// ([`Catalog::from_read`]).
#[derive(Debug, Clone, Default)]
pub struct ItemsRead {
    /// Webhooks (`/webhooks/<name>`), not paths: an item that cannot be read is left out of
    /// the list, and no name is skipped.
    webhooks: bool,
    items: IndexMap<String, ItemRead>,
}

/// One item of [`ItemsRead`].
#[derive(Debug, Clone)]
enum ItemRead {
    /// Its operations, as the list shows them.
    Listed(Vec<Listed>),
    /// A `$ref` to another item: followed when the list is made (the item it names may arrive
    /// later).
    Reference(Box<RawPathItem>),
    /// It could not be read.
    Failed(CatalogError),
}

impl ItemRead {
    /// The item's operations, its `$ref` followed (rare: most items are whole).
    fn follow<'a>(
        &self,
        name: &str,
        webhook: bool,
        resolve: &dyn Fn(&str) -> Option<ItemSource<'a>>,
    ) -> Result<Cow<'_, [Listed]>, CatalogError> {
        match self {
            ItemRead::Listed(listed) => Ok(Cow::Borrowed(listed.as_slice())),
            ItemRead::Failed(e) => Err(e.clone()),
            ItemRead::Reference(item) => {
                let mut item = RawPathItem::clone(item);
                for _ in 0..MAX_ITEM_REFS {
                    let Some(target) = item.reference.take() else { break };
                    // A reference that does not resolve lists nothing; the view says why.
                    let Some(source) = resolve(&target) else { break };
                    item.fill_from(source.read(|| target.clone())?);
                }
                Ok(Cow::Owned(Listed::all(item, name, webhook)))
            }
        }
    }
}

impl ItemsRead {
    /// The items of `paths`.
    #[must_use]
    pub fn paths() -> Self {
        Self::default()
    }

    /// The items of `webhooks` (or Redoc's `x-webhooks`).
    #[must_use]
    pub fn webhooks() -> Self {
        Self { webhooks: true, items: IndexMap::new() }
    }

    /// Reads the item `name` (a path, or a webhook's name); a later item of the same name
    /// replaces it, as in JSON's objects. `x-` extensions among the paths are skipped.
    pub fn add(&mut self, name: &str, source: ItemSource<'_>) {
        if self.skips(name) {
            return;
        }
        let webhooks = self.webhooks;
        let read = source.read(|| {
            if webhooks {
                format!("/webhooks/{}", crate::pointer::escape_segment(name))
            } else {
                path_pointer(name)
            }
        });
        self.insert(name, read);
    }

    /// Adds the item `name` read already (see [`PathItemRead`]), as [`Self::add`] does.
    pub fn add_read(&mut self, name: &str, item: PathItemRead) {
        if !self.skips(name) {
            self.insert(name, Ok(item.0));
        }
    }

    /// Each item's operations, its `$ref` followed to the items it names (`resolve` gives the
    /// item a reference points to). For paths, the first item that could not be read is the
    /// error; webhooks that cannot be read are left out of the list, not the whole document.
    pub(super) fn listed<'r, 'a>(
        &'r self,
        resolve: &dyn Fn(&str) -> Option<ItemSource<'a>>,
    ) -> Result<Vec<Cow<'r, [Listed]>>, CatalogError> {
        let mut listed = Vec::with_capacity(self.items.len());
        for (name, read) in &self.items {
            match read.follow(name, self.webhooks, resolve) {
                Ok(item) => listed.push(item),
                Err(_) if self.webhooks => {}
                Err(e) => return Err(e),
            }
        }
        Ok(listed)
    }

    fn skips(&self, name: &str) -> bool {
        !self.webhooks && name.starts_with("x-")
    }

    fn insert(&mut self, name: &str, read: Result<RawPathItem, CatalogError>) {
        let read = match read {
            Ok(item) if item.reference.is_some() => ItemRead::Reference(Box::new(item)),
            Ok(item) => ItemRead::Listed(Listed::all(item, name, self.webhooks)),
            Err(e) => ItemRead::Failed(e),
        };
        self.items.insert(name.to_owned(), read);
    }
}

/// A path item as the list reads it, deserialized by the caller from the document's text as
/// it goes (one pass over the text for its place and its operations, where
/// [`ItemSource::Text`] would take a second). A value it cannot read (not an object, a field
/// of the wrong shape) is read again with [`ItemsRead::add`], which says why.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct PathItemRead(RawPathItem);

/// How far a path item's `$ref` is followed to another path item.
pub(crate) const MAX_ITEM_REFS: usize = 8;

/// The JSON pointer of `/paths/<path>` (`~` and `/` escaped).
#[must_use]
pub fn path_pointer(path: &str) -> String {
    format!("/paths/{}", crate::pointer::escape_segment(path))
}

//! The catalog: an OpenAPI 3 document reduced to what navigation needs (title, version, and
//! operations grouped by tag under their `x-parent` group), read in one pass.
//!
//! Only the fields shown in the list are deserialized; everything else is skipped without
//! being built, so a large document (GitHub's, 13 MB) is listed quickly.

use std::borrow::Cow;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::security::Requirements;

mod first;
mod groups;
mod items;
mod raw;

use groups::{all_tags, listed_groups, operations_by_tag, parent_groups, section, webhook_group};
pub(crate) use items::MAX_ITEM_REFS;
pub use items::{ItemSource, ItemsRead, PathItemRead, path_pointer};
use raw::Listed;
use raw::{RawDoc, RawInfo, RawRoot, RawTag, RawTagGroup};

/// An HTTP method of an operation, in the order OpenAPI lists them in a path item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Method {
    /// GET
    Get,
    /// PUT
    Put,
    /// POST
    Post,
    /// DELETE
    Delete,
    /// OPTIONS
    Options,
    /// HEAD
    Head,
    /// PATCH
    Patch,
    /// TRACE
    Trace,
    /// QUERY (OpenAPI 3.2)
    Query,
}

/// Every method, in the order OpenAPI lists them in a path item.
pub const METHODS: [Method; 9] = [
    Method::Get,
    Method::Put,
    Method::Post,
    Method::Delete,
    Method::Options,
    Method::Head,
    Method::Patch,
    Method::Trace,
    Method::Query,
];

impl Method {
    /// The method in upper case, as sent on the wire.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
            Method::Head => "HEAD",
            Method::Patch => "PATCH",
            Method::Trace => "TRACE",
            Method::Query => "QUERY",
        }
    }
}

/// The deep-link anchor of an operation (`#anchor`): its operationId, or the method in lower
/// case and the path (`get-/pets`) when it has none (or an empty one). The list, the deep links and the shown
/// operation all use this one.
#[must_use]
pub fn anchor(operation_id: Option<&str>, method: Method, path: &str) -> String {
    match operation_id.filter(|id| !id.trim().is_empty()) {
        Some(id) => id.to_owned(),
        // An empty operationId anchors nothing: the method and path do.
        None => format!("{}-{path}", method.as_str().to_ascii_lowercase()),
    }
}

/// The anchor of a webhook's operation: its operationId, or `webhook-post-<name>`.
#[must_use]
pub fn webhook_anchor(operation_id: Option<&str>, method: Method, name: &str) -> String {
    match operation_id.filter(|id| !id.trim().is_empty()) {
        Some(id) => id.to_owned(),
        None => format!("webhook-{}-{name}", method.as_str().to_ascii_lowercase()),
    }
}

/// The anchor of a path's operation ([`anchor`]) or a webhook's ([`webhook_anchor`]).
pub fn anchor_of(operation_id: Option<&str>, method: Method, path: &str, webhook: bool) -> String {
    if webhook { webhook_anchor(operation_id, method, path) } else { anchor(operation_id, method, path) }
}

/// The `x-stability` marker; other values are ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Stability {
    /// `x-stability: experimental`
    Experimental,
    /// `x-stability: beta`
    Beta,
}

impl Stability {
    /// The marker of an `x-stability` value; `None` for any other value.
    #[must_use]
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "experimental" => Some(Self::Experimental),
            "beta" => Some(Self::Beta),
            _ => None,
        }
    }

    /// The value as the document writes it (`experimental`, `beta`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Experimental => "experimental",
            Self::Beta => "beta",
        }
    }

    /// The badge text (`Experimental`, `Beta`).
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Experimental => "Experimental",
            Self::Beta => "Beta",
        }
    }
}

/// One operation as the navigation shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationSummary {
    /// HTTP method.
    pub method: Method,
    /// Path template, e.g. `/pets/{petId}`.
    pub path: String,
    /// `operationId`, when the document gives one.
    pub operation_id: Option<String>,
    /// One-line summary, when the document gives one.
    pub summary: Option<String>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// `x-stability`, when it is `experimental` or `beta`.
    pub stability: Option<Stability>,
    /// `x-hideTryItPanel: true` on the operation.
    pub hide_try_it: bool,
    /// An operation of a webhook (`webhooks`): `path` is then the webhook's name.
    pub webhook: bool,
    /// Its own `security` (scheme names only), when it has one; else the document's applies
    /// ([`OperationSummary::requirements`]).
    pub security: Option<Requirements>,
}

impl OperationSummary {
    /// Its deep-link anchor (see [`anchor`] and [`webhook_anchor`]).
    #[must_use]
    pub fn anchor(&self) -> String {
        anchor_of(self.operation_id.as_deref(), self.method, &self.path, self.webhook)
    }

    /// The security it needs: its own, else `document`'s (the catalog's
    /// [`Catalog::security`]).
    #[must_use]
    pub fn requirements<'a>(&'a self, document: &'a Requirements) -> &'a Requirements {
        self.security.as_ref().unwrap_or(document)
    }
}

/// A tag and the operations that carry it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagSection {
    /// Tag name.
    pub name: String,
    /// The name shown: `x-displayName` (Redoc's), else the name.
    pub title: String,
    /// Tag description (Markdown), when given.
    pub description: Option<String>,
    /// Operations in document order; shared (an operation with two tags is one summary, and
    /// the list's copies of the catalog copy no text: GitHub's document lists 1,000
    /// operations, generated ones 100,000).
    pub operations: Vec<Arc<OperationSummary>>,
}

/// A navigation group: an entry of the document's `x-tagGroups` (Redoc's), a tag named by
/// other tags' `x-parent`, or a tag standing alone (then its only section is itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Group name: a tag name, or the name of an `x-tagGroups` entry.
    pub name: String,
    /// The name shown: the tag's `x-displayName`, else the name.
    pub title: String,
    /// Group description (Markdown), when given.
    pub description: Option<String>,
    /// Child tags that hold operations, in the order the document declares them.
    pub tags: Vec<TagSection>,
    /// The group is a tag (not an `x-tagGroups` entry, nor the webhooks): it has a page.
    pub is_tag: bool,
}

/// The navigation of a whole document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// `info.description` (Markdown), when given.
    pub description: Option<String>,
    /// The document's `security` (scheme names only): what an operation without its own needs.
    pub security: Requirements,
    /// Groups in the order the document declares their tags.
    pub groups: Vec<Group>,
    /// Operations of paths and of webhooks, each once.
    counts: (usize, usize),
    /// Only the first path items were read (the document is still arriving): the list's first
    /// rows are final ([`Catalog::from_read_first`]), the rest is not known yet.
    pub partial: bool,
}

/// Why a document could not be listed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogError {
    /// Not JSON, or JSON of the wrong shape; the message has the line and column.
    #[error("The document could not be read: {0}")]
    Malformed(String),
    /// A Swagger 2.0 or other non-OpenAPI-3 document.
    #[error("Only OpenAPI 3 documents are supported; this one says {0}.")]
    UnsupportedVersion(String),
    /// A path item that is not an object: its JSON pointer and what it is instead.
    #[error("`{pointer}` is {found}, where a path item (an object) belongs.")]
    NotAnObject {
        /// Such as `/paths/~1pets`.
        pointer: String,
        /// Such as "a string".
        found: &'static str,
    },
}

/// The operations tagged with no tag at all are listed under this one.
pub const UNTAGGED: &str = "default";

/// The name of the group (and its one section) that lists the webhooks: not a tag name, so a
/// tag called "Webhooks" stays apart.
pub const WEBHOOKS: &str = "\u{0}webhooks";

impl Catalog {
    /// Reads a JSON OpenAPI 3 document.
    ///
    /// # Errors
    /// [`CatalogError::Malformed`] when the bytes are not JSON or a listed field has the wrong
    /// type, [`CatalogError::UnsupportedVersion`] for anything but OpenAPI 3.x.
    pub fn from_json(bytes: &[u8]) -> Result<Self, CatalogError> {
        let malformed = |e: &dyn std::fmt::Display| CatalogError::Malformed(e.to_string());
        let text = std::str::from_utf8(bytes).map_err(|e| malformed(&e))?;
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| malformed(&e))?;
        Self::from_value(&doc)
    }

    /// Lists a document given as its root fields and each path item (how an indexed document
    /// is listed); unknown fields of an operation are skipped, not kept, and so are `x-`
    /// extensions among the paths. `resolve` gives the path item a local `$ref` points to
    /// (`#/components/pathItems/...`, `#/paths/...`), when there is one.
    ///
    /// # Errors
    /// As [`Catalog::from_value`].
    pub fn from_parts<'a>(
        root: &serde_json::Map<String, serde_json::Value>,
        items: impl Iterator<Item = (&'a str, ItemSource<'a>)>,
        webhooks: impl Iterator<Item = (&'a str, ItemSource<'a>)>,
        resolve: &dyn Fn(&str) -> Option<ItemSource<'a>>,
    ) -> Result<Self, CatalogError> {
        let (mut paths, mut hooks) = (ItemsRead::paths(), ItemsRead::webhooks());
        for (name, source) in items {
            paths.add(name, source);
        }
        for (name, source) in webhooks {
            hooks.add(name, source);
        }
        Self::from_read(root, &paths, &hooks, resolve)
    }

    /// Lists a document given as its root fields and its path items and webhooks read already
    /// ([`ItemsRead`]); `resolve` as for [`Catalog::from_parts`].
    ///
    /// # Errors
    /// As [`Catalog::from_value`]: the first path item that could not be read (webhooks that
    /// cannot be read are left out).
    pub fn from_read<'a, 'r>(
        root: &serde_json::Map<String, serde_json::Value>,
        paths: &'r ItemsRead,
        webhooks: &'r ItemsRead,
        resolve: &dyn Fn(&str) -> Option<ItemSource<'a>>,
    ) -> Result<Self, CatalogError> {
        let raw = RawRoot::read(root)?;
        let (listed, hooks) = (paths.listed(resolve)?, webhooks.listed(resolve)?);
        Self::from_raw(raw.with(listed, hooks))
    }

    /// Reads a document already parsed to JSON.
    ///
    /// # Errors
    /// As [`Catalog::from_json`].
    pub fn from_value(doc: &serde_json::Value) -> Result<Self, CatalogError> {
        let root = doc.as_object().cloned().unwrap_or_default();
        let root: serde_json::Map<String, serde_json::Value> = root
            .into_iter()
            .filter(|(k, _)| !matches!(k.as_str(), "paths" | "components" | "webhooks" | "x-webhooks"))
            .collect();
        let entries = |key: &str| {
            doc.get(key)
                .and_then(serde_json::Value::as_object)
                .into_iter()
                .flatten()
                .map(|(name, item)| (name.as_str(), ItemSource::Value(item)))
        };
        let webhooks =
            if doc.get("webhooks").is_some() { entries("webhooks") } else { entries("x-webhooks") };
        let resolve = |reference: &str| crate::pointer::pointer_target(doc, reference).map(ItemSource::Value);
        Self::from_parts(&root, entries("paths"), webhooks, &resolve)
    }

    fn from_raw(raw: RawDoc) -> Result<Self, CatalogError> {
        match (&raw.openapi, &raw.swagger) {
            (Some(v), _) if v.starts_with("3.") => {}
            (Some(v), _) => return Err(CatalogError::UnsupportedVersion(format!("openapi: {v}"))),
            (None, Some(v)) => return Err(CatalogError::UnsupportedVersion(format!("swagger: {v}"))),
            (None, None) => return Err(CatalogError::UnsupportedVersion("no `openapi` field".into())),
        }
        let info = raw.info.ok_or_else(|| CatalogError::Malformed("the `info` object is missing.".into()))?;
        let mut catalog = Self::build(info, raw.tags, &raw.tag_groups, &raw.paths, &raw.webhooks);
        catalog.security = raw.security;
        Ok(catalog)
    }

    /// The groups with only the operations whose path, summary or operationId contains every
    /// word of `query` (case-insensitive); tags and groups left empty are dropped. An empty
    /// query keeps everything.
    #[must_use]
    pub fn filter(&self, query: &str) -> Vec<Group> {
        self.filter_folded(query, &str::to_lowercase)
    }

    /// [`Catalog::filter`] with the case folding given: the page passes the browser's
    /// (`String.prototype.toLowerCase`), so its WebAssembly carries no Unicode case tables.
    #[must_use]
    pub fn filter_folded(&self, query: &str, fold: &dyn Fn(&str) -> String) -> Vec<Group> {
        let words: Vec<String> = query.split_whitespace().map(fold).collect();
        if words.is_empty() {
            return self.groups.clone();
        }
        let matches = |op: &OperationSummary| {
            let haystack = format!(
                "{} {} {} {}",
                op.method.as_str(),
                op.path,
                op.summary.as_deref().unwrap_or_default(),
                op.operation_id.as_deref().unwrap_or_default()
            );
            let haystack = fold(&haystack);
            words.iter().all(|w| haystack.contains(w.as_str()))
        };
        self.groups
            .iter()
            .filter_map(|g| {
                let tags: Vec<TagSection> = g
                    .tags
                    .iter()
                    .filter_map(|t| {
                        let operations: Vec<Arc<OperationSummary>> =
                            t.operations.iter().filter(|o| matches(o)).cloned().collect();
                        (!operations.is_empty()).then(|| TagSection { operations, ..t.clone() })
                    })
                    .collect();
                (!tags.is_empty()).then(|| Group { tags, ..g.clone() })
            })
            .collect()
    }

    /// Every operation of a path, each once (an operation with two tags is listed twice in
    /// [`Catalog::groups`] but counted once here); webhooks are not counted.
    #[must_use]
    pub fn operation_count(&self) -> usize {
        self.counts.0
    }

    /// Every operation of a webhook, each once.
    #[must_use]
    pub fn webhook_count(&self) -> usize {
        self.counts.1
    }

    /// Every entry of the list, in list order: an operation with two tags comes twice.
    pub fn operations(&self) -> impl Iterator<Item = &OperationSummary> {
        self.groups.iter().flat_map(|g| &g.tags).flat_map(|t| &t.operations).map(|op| &**op)
    }

    fn build(
        info: RawInfo,
        declared: Vec<RawTag>,
        tag_groups: &[RawTagGroup],
        paths: &[Cow<'_, [Listed]>],
        webhooks: &[Cow<'_, [Listed]>],
    ) -> Self {
        let (mut by_tag, operation_count) = operations_by_tag(paths);
        let (webhook_group, webhook_count) = webhook_group(webhooks);
        let tags = all_tags(declared, &by_tag);
        let mut groups = if tag_groups.is_empty() {
            parent_groups(&tags, &mut by_tag)
        } else {
            listed_groups(tag_groups, &tags, &mut by_tag)
        };
        // The tags in no entry of `x-tagGroups`, and those whose parent has a parent itself or
        // whose parents name each other, are groups of their own: no operation is out of reach.
        for tag in tags.values() {
            if let Some(alone) = section(tag, &mut by_tag) {
                groups.push(Group {
                    name: tag.name.clone(),
                    title: tag.title(),
                    description: tag.description.clone(),
                    tags: vec![alone],
                    is_tag: true,
                });
            }
        }

        groups.extend(webhook_group);
        Catalog {
            title: info.title,
            version: info.version,
            description: info.description,
            security: Requirements::default(),
            groups,
            counts: (operation_count, webhook_count),
            partial: false,
        }
    }
}

impl OperationSummary {
    fn of(method: Method, path: &str, op: raw::RawOperation, webhook: bool) -> Self {
        OperationSummary {
            method,
            path: path.to_owned(),
            operation_id: op.operation_id,
            summary: op.summary.filter(|s| !s.trim().is_empty()),
            deprecated: op.deprecated,
            stability: op.stability.as_deref().and_then(Stability::parse),
            hide_try_it: op.hide_try_it,
            webhook,
            security: op.security,
        }
    }
}

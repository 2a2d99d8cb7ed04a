//! The fields of a document the list reads, as serde reads them: only those, leniently (a
//! field of the wrong type reads as absent), and a path item's operations in OpenAPI's order.

use std::borrow::Cow;
use std::sync::Arc;

use serde::Deserialize;

use super::{Method, OperationSummary};
use crate::security::Requirements;

pub(super) struct RawDoc<'a> {
    pub(super) openapi: Option<String>,
    pub(super) swagger: Option<String>,
    pub(super) info: Option<RawInfo>,
    pub(super) tags: Vec<RawTag>,
    pub(super) tag_groups: Vec<RawTagGroup>,
    pub(super) paths: Vec<Cow<'a, [Listed]>>,
    pub(super) webhooks: Vec<Cow<'a, [Listed]>>,
    pub(super) security: Requirements,
}

/// A value of the wrong type reads as absent: the list shows what it can, and the view of the
/// operation shows the rest.
pub(super) fn lenient<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned + Default,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(T::deserialize(value).unwrap_or_default())
}

/// A `security` list, when the field is there (`crate::security::read_requirements`).
fn requirements<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Requirements>, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(Some(crate::security::read_requirements(&value)))
}

/// An operation: an object, or null for none.
pub(super) fn operation<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<RawOperation>, D::Error> {
    struct Operation;
    impl<'de> serde::de::Visitor<'de> for Operation {
        type Value = Option<RawOperation>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an operation (an object)")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            RawOperation::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Some)
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    deserializer.deserialize_any(Operation)
}

/// A list whose entries of the wrong shape are left out (a tag without a name, ...).
pub(super) fn lenient_list<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    let serde_json::Value::Array(entries) = value else { return Ok(Vec::new()) };
    Ok(entries.into_iter().filter_map(|entry| T::deserialize(entry).ok()).collect())
}

/// The root fields the list reads besides `paths` and the webhooks.
#[derive(Clone, Deserialize)]
pub(super) struct RawRoot {
    pub(super) openapi: Option<String>,
    pub(super) swagger: Option<String>,
    pub(super) info: Option<RawInfo>,
    #[serde(default, deserialize_with = "lenient_list")]
    pub(super) tags: Vec<RawTag>,
    #[serde(rename = "x-tagGroups", default, deserialize_with = "lenient_list")]
    pub(super) tag_groups: Vec<RawTagGroup>,
    #[serde(default, deserialize_with = "requirements")]
    pub(super) security: Option<Requirements>,
}

impl RawRoot {
    /// Reads them from the root's fields.
    pub(super) fn read(
        root: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Self, super::CatalogError> {
        Self::deserialize(serde_json::Value::Object(root.clone()))
            .map_err(|e| super::CatalogError::Malformed(e.to_string()))
    }

    /// The document with these fields and the operations of `paths` and of the webhooks.
    pub(super) fn with<'a>(
        self,
        paths: Vec<Cow<'a, [Listed]>>,
        webhooks: Vec<Cow<'a, [Listed]>>,
    ) -> RawDoc<'a> {
        let RawRoot { openapi, swagger, info, tags, tag_groups, security } = self;
        RawDoc {
            openapi,
            swagger,
            info,
            tags,
            tag_groups,
            paths,
            webhooks,
            security: security.unwrap_or_default(),
        }
    }
}

#[derive(Clone, Deserialize)]
pub(super) struct RawInfo {
    pub(super) title: String,
    pub(super) version: String,
    #[serde(default, deserialize_with = "lenient")]
    pub(super) description: Option<String>,
}

/// An entry of `x-tagGroups`: a group's name and the tags in it.
#[derive(Clone, Deserialize)]
pub(super) struct RawTagGroup {
    pub(super) name: String,
    #[serde(default, deserialize_with = "lenient_list")]
    pub(super) tags: Vec<String>,
}

#[derive(Clone, Deserialize)]
pub(super) struct RawTag {
    pub(super) name: String,
    #[serde(rename = "x-displayName", default, deserialize_with = "lenient")]
    pub(super) display_name: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub(super) description: Option<String>,
    #[serde(rename = "x-parent", default, deserialize_with = "lenient")]
    pub(super) parent: Option<String>,
}

impl RawTag {
    /// A tag only operations name (not declared).
    pub(super) fn named(name: &str) -> Self {
        Self { name: name.to_owned(), display_name: None, description: None, parent: None }
    }

    pub(super) fn title(&self) -> String {
        self.display_name.clone().filter(|d| !d.trim().is_empty()).unwrap_or_else(|| self.name.clone())
    }
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct RawPathItem {
    /// A path item may be a reference to another (OpenAPI 3.1's `components.pathItems`).
    #[serde(rename = "$ref", default, deserialize_with = "lenient")]
    pub(super) reference: Option<String>,
    #[serde(default, deserialize_with = "operation")]
    pub(super) get: Option<RawOperation>,
    #[serde(default, deserialize_with = "operation")]
    pub(super) put: Option<RawOperation>,
    #[serde(default, deserialize_with = "operation")]
    pub(super) post: Option<RawOperation>,
    #[serde(default, deserialize_with = "operation")]
    pub(super) delete: Option<RawOperation>,
    #[serde(default, deserialize_with = "operation")]
    pub(super) options: Option<RawOperation>,
    #[serde(default, deserialize_with = "operation")]
    pub(super) head: Option<RawOperation>,
    #[serde(default, deserialize_with = "operation")]
    pub(super) patch: Option<RawOperation>,
    #[serde(default, deserialize_with = "operation")]
    pub(super) trace: Option<RawOperation>,
    #[serde(default, deserialize_with = "operation")]
    pub(super) query: Option<RawOperation>,
}

impl RawPathItem {
    /// Takes the operations this item does not define from the item its `$ref` names, and
    /// that item's own `$ref`, to follow next.
    pub(super) fn fill_from(&mut self, target: RawPathItem) {
        let RawPathItem { reference, get, put, post, delete, options, head, patch, trace, query } = target;
        self.reference = reference;
        for (mine, theirs) in [
            (&mut self.get, get),
            (&mut self.put, put),
            (&mut self.post, post),
            (&mut self.delete, delete),
            (&mut self.options, options),
            (&mut self.head, head),
            (&mut self.patch, patch),
            (&mut self.trace, trace),
            (&mut self.query, query),
        ] {
            if mine.is_none() {
                *mine = theirs;
            }
        }
    }

    pub(super) fn into_operations(self) -> impl Iterator<Item = (Method, RawOperation)> {
        [
            (Method::Get, self.get),
            (Method::Put, self.put),
            (Method::Post, self.post),
            (Method::Delete, self.delete),
            (Method::Options, self.options),
            (Method::Head, self.head),
            (Method::Patch, self.patch),
            (Method::Trace, self.trace),
            (Method::Query, self.query),
        ]
        .into_iter()
        .filter_map(|(method, op)| op.map(|op| (method, op)))
    }
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct RawOperation {
    #[serde(default, deserialize_with = "lenient_list")]
    pub(super) tags: Vec<String>,
    #[serde(rename = "operationId", default, deserialize_with = "lenient")]
    pub(super) operation_id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub(super) summary: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub(super) deprecated: bool,
    #[serde(rename = "x-stability", default, deserialize_with = "lenient")]
    pub(super) stability: Option<String>,
    #[serde(rename = "x-hideTryItPanel", default, deserialize_with = "lenient")]
    pub(super) hide_try_it: bool,
    /// Absent: the document's applies; present, whatever it holds (see `read_requirements`).
    #[serde(default, deserialize_with = "requirements")]
    pub(super) security: Option<Requirements>,
}

/// An operation as the list shows it, and the tags it is listed under.
#[derive(Debug, Clone)]
pub(super) struct Listed {
    pub(super) summary: Arc<OperationSummary>,
    pub(super) tags: Vec<String>,
}

impl Listed {
    /// The operations of an item (its `$ref` followed already).
    pub(super) fn all(item: RawPathItem, name: &str, webhook: bool) -> Vec<Listed> {
        item.into_operations()
            .map(|(method, mut op)| {
                let tags = std::mem::take(&mut op.tags);
                Listed { summary: Arc::new(OperationSummary::of(method, name, op, webhook)), tags }
            })
            .collect()
    }
}

//! A document the reference shows, whole, indexed or still arriving, and the parts its views
//! are built from.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;

use super::indexed::{IndexedDocument, sort_names};
use crate::catalog::Catalog;

/// Why a part of a document (an operation's, a schema's) cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartError {
    /// The document's text is still arriving: the part is there once it is in.
    #[error("The rest of the document is still downloading; this part is shown when it has arrived.")]
    Arriving,
    /// The document has no such part, or its text cannot be read.
    #[error("The document has no such part.")]
    Missing,
}

/// A document the reference shows: whole (the embedded one) or indexed (a loaded one).
#[derive(Debug, Clone)]
pub enum AnyDocument {
    /// Parsed whole.
    Whole(Arc<Value>),
    /// Kept as indexed text.
    Indexed(Arc<IndexedDocument>),
    /// Still arriving ([`DocumentStream`]): the root fields read so far; every part is
    /// [`PartError::Arriving`] until the whole document is in, then the whole document's.
    Arriving(Arc<Arriving>),
}

/// A document whose text is still arriving: its list is shown, its views wait.
#[derive(Debug)]
pub struct Arriving {
    root: serde_json::Map<String, Value>,
    whole: std::sync::OnceLock<AnyDocument>,
}

impl Arriving {
    /// A document of which `root` (the fields before `paths`, and those the list reads) has
    /// arrived.
    #[must_use]
    pub fn new(root: serde_json::Map<String, Value>) -> Self {
        Self { root, whole: std::sync::OnceLock::new() }
    }

    /// The whole document is in: every view comes from it from now on (once; later calls do
    /// nothing).
    pub fn arrive(&self, whole: AnyDocument) {
        let _ = self.whole.set(whole);
    }

    /// The whole document, once it arrived.
    #[must_use]
    pub fn whole(&self) -> Option<&AnyDocument> {
        self.whole.get()
    }
}

impl AnyDocument {
    /// A document parsed whole.
    #[must_use]
    pub fn whole(value: Value) -> Self {
        Self::Whole(Arc::new(value))
    }

    /// Whether the whole text is in (not an [`Arriving`] one still arriving).
    #[must_use]
    pub fn is_complete(&self) -> bool {
        match self {
            Self::Whole(_) | Self::Indexed(_) => true,
            Self::Arriving(doc) => doc.whole().is_some(),
        }
    }

    /// What the view of the operations of `path` is built from: the whole document, or a small
    /// document holding that path item and what it references (an indexed one).
    ///
    /// # Errors
    /// [`PartError::Missing`] for a path the document does not have (or whose text cannot be
    /// read, see [`IndexedDocument::operation_document`]), [`PartError::Arriving`] while the
    /// rest of the text is still arriving.
    pub fn operation_document(&self, path: &str) -> Result<Cow<'_, Value>, PartError> {
        match self {
            Self::Whole(doc) => Ok(Cow::Borrowed(doc)),
            Self::Indexed(doc) => doc.operation_document(path).map(Cow::Owned).ok_or(PartError::Missing),
            Self::Arriving(doc) => doc.whole().ok_or(PartError::Arriving)?.operation_document(path),
        }
    }

    /// As [`Self::operation_document`], for the webhook `name`.
    ///
    /// # Errors
    /// As [`Self::operation_document`].
    pub fn webhook_document(&self, name: &str) -> Result<Cow<'_, Value>, PartError> {
        match self {
            Self::Whole(doc) => Ok(Cow::Borrowed(doc)),
            Self::Indexed(doc) => doc.webhook_document(name).map(Cow::Owned).ok_or(PartError::Missing),
            Self::Arriving(doc) => doc.whole().ok_or(PartError::Arriving)?.webhook_document(name),
        }
    }

    /// What the view of the component schema `name` is built from (`null` when an indexed
    /// document has no such schema).
    ///
    /// # Errors
    /// [`PartError::Arriving`] while the rest of the text is still arriving.
    pub fn schema_document(&self, name: &str) -> Result<Cow<'_, Value>, PartError> {
        match self {
            Self::Whole(doc) => Ok(Cow::Borrowed(doc)),
            Self::Indexed(doc) => Ok(Cow::Owned(doc.schema_document(name).unwrap_or(Value::Null))),
            Self::Arriving(doc) => doc.whole().ok_or(PartError::Arriving)?.schema_document(name),
        }
    }

    /// The names in `components.schemas`, sorted (case-insensitive).
    ///
    /// # Errors
    /// [`PartError::Arriving`] while the rest of the text is still arriving.
    pub fn schema_names(&self) -> Result<Vec<String>, PartError> {
        match self {
            Self::Whole(doc) => {
                let mut names: Vec<String> = doc
                    .get("components")
                    .and_then(|c| c.get("schemas"))
                    .and_then(Value::as_object)
                    .into_iter()
                    .flat_map(|s| s.keys().cloned())
                    .collect();
                sort_names(&mut names);
                Ok(names)
            }
            Self::Indexed(doc) => Ok(doc.schema_names()),
            Self::Arriving(doc) => doc.whole().ok_or(PartError::Arriving)?.schema_names(),
        }
    }

    /// The security schemes of `components.securitySchemes`, in document order
    /// ([`crate::security::schemes`]).
    ///
    /// # Errors
    /// [`PartError::Arriving`] while the rest of the text is still arriving.
    pub fn security_schemes(&self) -> Result<Vec<crate::security::Scheme>, PartError> {
        match self {
            Self::Whole(doc) => Ok(crate::security::schemes(doc)),
            Self::Indexed(doc) => Ok(doc.security_schemes()),
            Self::Arriving(doc) => doc.whole().ok_or(PartError::Arriving)?.security_schemes(),
        }
    }

    /// The root fields (other than `paths`, `components` and webhooks, for an indexed one).
    #[must_use]
    pub fn root(&self) -> Option<&serde_json::Map<String, Value>> {
        match self {
            Self::Whole(doc) => doc.as_object(),
            Self::Indexed(doc) => Some(doc.root()),
            Self::Arriving(doc) => doc.whole().map_or(Some(&doc.root), Self::root),
        }
    }

    /// The document's text, for an indexed one (the original bytes of a JSON document).
    #[must_use]
    pub fn text(&self) -> Option<&str> {
        match self {
            Self::Whole(_) => None,
            Self::Indexed(doc) => Some(doc.text()),
            Self::Arriving(doc) => doc.whole().and_then(Self::text),
        }
    }

    /// The operation list.
    ///
    /// # Errors
    /// As [`Catalog::from_value`].
    pub fn catalog(&self) -> Result<Catalog, crate::catalog::CatalogError> {
        match self {
            Self::Whole(doc) => Catalog::from_value(doc),
            Self::Indexed(doc) => doc.catalog(),
            Self::Arriving(doc) => match doc.whole() {
                Some(whole) => whole.catalog(),
                None => Err(crate::catalog::CatalogError::Malformed(PartError::Arriving.to_string())),
            },
        }
    }
}

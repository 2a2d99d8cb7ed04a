//! Reading an OpenAPI document other than the embedded one, and the document the reference shows.
//!
//! Whether the text is JSON or YAML (the app has YAML converted to JSON by a parser loaded on
//! demand; it fetches or reads the bytes, everything else happens here), whether it has the
//! shape of an OpenAPI 3.0 document (`checks`, with the reader's messages in `error`), and the
//! text kept with an index rather than parsed whole (`indexed`). Imports go one way: `indexed`
//! uses `checks`, which uses `error`; this module puts them together.

mod checks;
mod error;
mod indexed;
mod stream;

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;

pub use checks::{Described, Version, kind as kind_of, parse_json, validate};
pub use error::{DocumentError, SUPPORTED_VERSIONS};
pub use indexed::IndexedDocument;
pub use stream::{DocumentStream, Listing, MAX_DOCUMENT_BYTES, Streamed};

use crate::catalog::Catalog;

/// The syntax of a document's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Starts with `{` or `[` (after white space and a byte order mark).
    Json,
    /// Anything else.
    Yaml,
}

/// Guesses the syntax from the first significant character: JSON documents start with `{`
/// or `[`; everything else is read as YAML (of which JSON is a subset).
#[must_use]
pub fn detect_format(bytes: &[u8]) -> Format {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{' | b'[') => Format::Json,
        _ => Format::Yaml,
    }
}

/// Reads a JSON document (a byte order mark is skipped) as [`read`] does, and lists it.
///
/// # Errors
/// The errors of [`read`], and [`DocumentError::Swagger`] for a Swagger 2.0 document.
pub fn load_json(bytes: Vec<u8>) -> Result<(AnyDocument, Catalog), DocumentError> {
    read(bytes)?.into_openapi()
}

/// Reads a JSON document's text at once, as [`DocumentStream`] reads one as it arrives: an
/// [`IndexedDocument`] (the list without parsing everything) checked as [`validate`] does, or a
/// Swagger 2.0 document handed back as its text, for the converter ([`crate::convert`], which
/// the page loads as a module of its own only when a document needs it).
///
/// # Errors
/// The errors of [`parse_json`] and [`validate`], with the same messages.
pub fn read(bytes: Vec<u8>) -> Result<Read, DocumentError> {
    let mut stream = DocumentStream::new(bytes.len());
    stream.push(&bytes)?;
    drop(bytes);
    match stream.finish()? {
        Streamed::Json(read) => Ok(read),
        // Not an object or a list: what JSON's reader and the checks say.
        Streamed::Yaml(bytes) => read_whole(&bytes),
    }
}

/// Why a text the index could not follow cannot be shown, as reading it whole as one value
/// says: a syntax error with its line and column, or what is wrong with the document.
pub(super) fn read_whole(bytes: &[u8]) -> Result<Read, DocumentError> {
    match parse_json(bytes).and_then(|value| checks::check_shape(&value)) {
        Err(DocumentError::Swagger(version)) if version == "2.0" => {
            Ok(Read::Swagger2(String::from_utf8_lossy(bytes).into_owned()))
        }
        Err(e) => Err(e),
        // The index follows every document the checks take (the stream's property tests
        // compare it with reading the whole value).
        Ok(()) => Err(DocumentError::Shape("its text could not be indexed".to_owned())),
    }
}

/// What reading a document's JSON gave.
#[derive(Debug)]
pub enum Read {
    /// An OpenAPI 3 document, and its list.
    OpenApi(AnyDocument, Catalog),
    /// A Swagger 2.0 document's text, to convert to OpenAPI 3.0 before it is read again.
    Swagger2(String),
}

impl Read {
    fn into_openapi(self) -> Result<(AnyDocument, Catalog), DocumentError> {
        match self {
            Self::OpenApi(document, catalog) => Ok((document, catalog)),
            Self::Swagger2(_) => Err(DocumentError::Swagger("2.0".to_owned())),
        }
    }
}

/// An indexed document checked and listed from its items read already, or handed back as text
/// when it is Swagger 2.0.
fn read_indexed(
    indexed: IndexedDocument,
    paths: &crate::catalog::ItemsRead,
    webhooks: &crate::catalog::ItemsRead,
) -> Result<Read, DocumentError> {
    match checks::check_index(indexed.root(), indexed.described()) {
        Ok(_) => {}
        Err(DocumentError::Swagger(version)) if version == "2.0" => {
            return Ok(Read::Swagger2(indexed.into_text()));
        }
        Err(error) => return Err(error),
    }
    let catalog = indexed.catalog_of(paths, webhooks).map_err(checks::listing_error)?;
    Ok(Read::OpenApi(AnyDocument::Indexed(Arc::new(indexed)), catalog))
}

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

/// The document address given in a page's query string (`?url=<address>`), like Swagger UI's
/// `url` parameter; `None` when absent or empty.
#[must_use]
pub fn url_from_query(search: &str) -> Option<String> {
    let query = search.strip_prefix('?').unwrap_or(search);
    let raw = query.split('&').find_map(|pair| pair.strip_prefix("url="))?;
    // `+` is a space in a query string; `%2B` is a plus.
    let spaced = raw.replace('+', " ");
    let value = percent_encoding::percent_decode_str(&spaced).decode_utf8().ok()?;
    let value = value.trim();
    (!value.is_empty()).then(|| value.to_owned())
}

/// Where the shown document came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The embedded Petstore document (the mock serves it).
    Builtin,
    /// Fetched from this address.
    Url(String),
    /// Read from a file with this name.
    File(String),
    /// Pasted text.
    Pasted,
}

impl Source {
    /// True for the embedded Petstore document, the only one the in-browser mock serves.
    #[must_use]
    pub fn is_builtin(&self) -> bool {
        matches!(self, Source::Builtin)
    }

    /// Where the document came from, in words ("the built-in Petstore document", "the file
    /// petstore.yaml", ...).
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Source::Builtin => "the built-in Petstore document".to_owned(),
            Source::Url(url) => url.clone(),
            Source::File(name) => format!("the file {name}"),
            Source::Pasted => "pasted text".to_owned(),
        }
    }
}

/// Sorts component names for the Schemas section, ignoring ASCII case. Names are identifiers,
/// nearly always ASCII; the page's WebAssembly carries no Unicode case tables for this.
pub(crate) fn sort_names(names: &mut [String]) {
    names.sort_by_cached_key(|n| n.to_ascii_lowercase());
}
